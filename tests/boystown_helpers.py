"""Helpers for the Boys' Town tests: the table stand-in, matches started through the CLI, stacked decks."""

from __future__ import annotations

from pathlib import Path

import pytest

from boystown_fake_table import FakeDeck
from pbd.games.boystown import GAME, cards, rules
from pbd.games.boystown.state import Resident

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture
def table(monkeypatch):
    """Put the in-memory stand-in where pbd.table's SharedDeck goes (until the table lands)."""
    monkeypatch.setattr(cards, "DECK_CLASS", FakeDeck)


def start(pbd, doc: Path, n: int = 2, *extra) -> list[str]:
    """Start an ``n``-player match on ``doc`` through the CLI; return the seat names."""
    pbd("new", "boystown", doc, "--as", "Ann", "--players", n, "--seed", "ann", *extra, ok=True)
    for name in NAMES[1:n]:
        pbd("join", doc, "--as", name, "--seed", name.lower(), ok=True)
    return NAMES[:n]


def state_of(doc: Path):
    """Return the parsed state of ``doc``."""
    return GAME.parse(doc.read_text())


def arrange(doc: Path, hands: dict | None = None, draw: list | None = None, discard: list | None = None,
            towns: dict | None = None, turn: str | None = None, phase: str | None = None,
            turns: dict | None = None) -> None:
    """Stack the deck of a started match: exact hands and Towns, the top of the draw and discard piles.

    Names are card names; the rest of the deck keeps its cards.  The state is written back to ``doc``.
    """
    state = state_of(doc)
    deck, cat = state.deck, rules.cat(state)
    wanted: list[tuple[int, str]] = []
    pile = deck.piles[cards.DRAW]

    def take() -> int:
        return pile.pop(0)

    for seat, names in (hands or {}).items():
        held = deck.hands[seat]
        while len(held) < len(names):
            held.append(take())
        while len(held) > len(names):
            pile.append(held.pop())
        wanted += list(zip(held, names))
    for seat, names in (towns or {}).items():
        s = state.seat(seat)
        for name in names:
            slot = take()
            deck.piles[cards.town(seat)].append(slot)
            deck.slots[slot].up = True
            s.town.append(Resident(slot, name))
            wanted.append((slot, name))
    for name in reversed(discard or []):
        slot = take()
        deck.piles[cards.DISCARD].insert(0, slot)
        deck.slots[slot].up = True
        wanted.append((slot, name))
    wanted += list(zip(pile, draw or []))
    _assign(deck, cat, wanted)
    if turn:
        state.turn = turn
    if phase:
        state.phase = phase
    for seat, n in (turns or {}).items():
        state.seat(seat).turns = n
    doc.write_text(GAME.render(state))


def _assign(deck, cat, wanted: list[tuple[int, str]]) -> None:
    ids = {name: [str(i) for i, n in enumerate(cat.deck(), 1) if n == name] for name in cat.cards}
    used: set[str] = set()
    fixed = {}
    for slot, name in wanted:
        free = [i for i in ids[name] if i not in used]
        assert free, f"the deck has no more {name}"
        fixed[slot] = free[0]
        used.add(free[0])
    rest = [i for i in (str(n) for n in range(1, len(cat.deck()) + 1)) if i not in used]
    for slot in sorted(deck.slots):
        deck.slots[slot].card = fixed.get(slot) or rest.pop(0)


def discard_pile(doc: Path) -> list[str]:
    """Return the names on the discard pile, top first."""
    state = state_of(doc)
    return [rules.card_at(state, s).name for s in cards.pile(state.deck, cards.DISCARD)]


def hand_names(doc: Path, seat: str) -> list[str]:
    """Return the names in ``seat``'s hand (the stand-in shows them to the test)."""
    state = state_of(doc)
    return [c.name for _, c in rules.hand(state, seat)]
