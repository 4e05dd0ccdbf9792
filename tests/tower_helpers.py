"""Helpers for The Tower's CLI tests: matches started through the CLI, positions set up directly.

A test never fakes a die or a card: it reads the faces a player's pbd will roll next (from
the seed and the document, as pbd does), picks seeds whose dice the rule needs, and puts
real cards of the shared deck into a hand the way a deal would (every seat's pbd doing the
unlocks it owes, every seat's private record kept in step).
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from pbd import fairplay, match, private
from pbd.games.base import Chance, Secrets
from pbd.games.tower import GAME, shared
from pbd.games.tower.state import DeckSpec
from agreed import agree

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def start(pbd, tmp_path, n: int = 2, *extra, suffix: str = "") -> Path:
    """Start a match of ``n`` players (Ann, Ben, ...; seeds are their names + ``suffix``) and return the document.

    The match is the same every time (seeds given), so it is made once per test run and copied.
    """
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = folder / f"match{suffix}.txt"
        pbd("new", "tower", doc, "--as", "Ann", "--seed", f"ann{suffix}", "--players", n, *extra, ok=True)
        for name in NAMES[1:n]:
            pbd("join", doc, "--as", name, "--seed", f"{name.lower()}{suffix}", ok=True)
        return doc

    import pbd.games.tower as tower       # its deck is part of the set-up (a test may patch it in)

    return copy_of_setup(("tower", n, tuple(map(str, extra)), suffix, tower.default_deck), tmp_path, build)


def _faces(suffix: str, n: int, who: str, k: int) -> list[int]:
    """Return the first ``k`` rule dice ``who`` rolls in a match started by :func:`start` with ``suffix``.

    Dice do not depend on the cards, so the match is seated in process on a one-card deck.
    """
    mid = fairplay.match_id_from_text(f"ann{suffix}")
    with mock.patch("pbd.games.tower.default_deck", lambda: DeckSpec("tiny", {"Torch": 1})):
        state, _ = GAME.create(mid, "Ann", None, fairplay.seed_from_text(f"ann{suffix}", mid), {"players": n})
        for name in NAMES[1:n]:
            state, _ = GAME.join(state, name, None, fairplay.seed_from_text(f"{name.lower()}{suffix}", mid))
    sec = Secrets(mid, who, "tower", fairplay.seed_from_text(f"{who.lower()}{suffix}", mid), [])
    chance = Chance(state.meta, {who: sec})
    return [chance.roll(who, 6) for _ in range(k)]


def start_rolling(pbd, tmp_path, who: str, wanted, k: int, n: int = 2, *extra) -> tuple:
    """Start a match whose first ``k`` rule dice of ``who`` satisfy ``wanted``; return ``(doc, faces)``.

    Rule dice cannot be steered once a match runs, so a test that needs given faces picks
    the seeds that give them, as a player could not.
    """
    for i in range(400):
        faces = _faces(f"-{i}", n, who, k)
        if wanted(faces):
            doc = start(pbd, tmp_path, n, *extra, suffix=f"-{i}")
            assert upcoming(doc, who, k, suffix=f"-{i}") == faces
            return doc, faces
    raise AssertionError("no seeds give such dice within 400 matches")


def upcoming(doc, name: str, k: int = 1, suffix: str = "") -> list[int]:
    """Return the next ``k`` dice ``name``'s pbd will roll (seed ``name.lower() + suffix``), as pbd computes them."""
    state = GAME.parse(doc.read_text())
    sec = Secrets(state.meta.match_id, name, "tower",
                  fairplay.seed_from_text(name.lower() + suffix, state.meta.match_id), [])
    chance = Chance(state.meta, {name: sec})
    return [chance.roll(name, 6) for _ in range(k)]


def edit(doc, change) -> None:
    """Rewrite the document after ``change(state)`` (tokens moved, cards put on tiles)."""
    state = GAME.parse(doc.read_text())
    change(state)
    doc.write_text(GAME.render(state))
    agree(doc)


def put(doc, tiles: dict | None = None, cards: dict | None = None) -> None:
    """Move tokens (``{"Ann": 12}``) and draw cards on tiles (``{17: "Rope"}``), as a hand edit of the board."""
    def change(state):
        for name, tile in (tiles or {}).items():
            state.tokens[name] = tile
        for tile, card in (cards or {}).items():
            state.cards[tile] = [card]
    edit(doc, change)


def catch_up(doc: Path) -> None:
    """Let every seat's pbd do the work it owes (what its next command does), until nobody owes any."""
    for _ in range(12):
        state = GAME.parse(doc.read_text())
        owing = [s for s in state.seats if GAME.pending(state, s)]
        if not owing:
            return
        for seat in owing:
            match.legal(str(doc), seat)


#: the deals :func:`give` derived, by document text and seeds
_DERIVED: dict[tuple, tuple] = {}


def give(doc, name: str, *cards: str) -> None:
    """Deal ``cards`` from the shared draw pile into ``name``'s hand, as if the shuffle had put them on top.

    The test holds every seat's seed (their private state), so it knows which slot holds
    which card (the audit's derivation); it moves those slots into the hand, has every seat
    do the unlocks they now owe, and updates every seat's private record.
    """
    catch_up(doc)
    text = doc.read_text()
    state = GAME.parse(text)
    secs = {s: private.load(state.meta.match_id, s) for s in state.seats}
    deck = state.deck
    seeds = {s: secs[s].seed for s in state.seats}
    key = (text, tuple(seeds.items()))
    if key not in _DERIVED:             # the same document and seeds: the same deal (tests give to copies of a start)
        _DERIVED[key] = deck.derive(seeds)
    dealt, problems = _DERIVED[key]
    assert not problems, problems
    pile = deck.piles[shared.DRAW]
    for card in cards:
        slot = next((i for i in pile if dealt[i] == card), None)
        assert slot is not None, f"the draw pile has no more {card}"
        pile.remove(slot)
        deck.hands.setdefault(name, []).append(slot)
    for _ in range(2):
        for seat in state.seats:
            deck.settle(seat, secs[seat].seed)
    for seat in state.seats:
        secs[seat].extra["deck"] = deck.render()
        private.save(secs[seat])
    doc.write_text(GAME.render(state))
    agree(doc)


def hand_of(pbd, doc, name: str) -> list[str]:
    """Return the cards ``name``'s pbd reads in its hand."""
    return pbd.json("hand", doc, "--as", name)["hand"]


def show(pbd, doc) -> dict:
    """Return ``pbd show --json``."""
    return pbd.json("show", doc)


def tile_of(pbd, doc, name: str) -> int:
    """Return where ``name``'s token is."""
    return next(p["tile"] for p in show(pbd, doc)["players"] if p["name"] == name)


def write_tile(text: str, tile: int, cell: str) -> str:
    """Return a Tower document with tile ``tile``'s cell written as ``cell`` by hand (its column's padding dropped)."""
    import re as _re

    return _re.sub(rf"\| {tile} *(?=\||$)", f"| {cell} ", text, count=1, flags=_re.M)



def roll_waited(pbd, doc, roller: str, k: int = 2) -> list[int]:
    """Pay the dice that wait after an answer: another seat's pbd publishes a fresh value, then ``roller``'s rolls.

    Return the ``k`` faces ``roller``'s pbd rolls (read once the fresh value is in, as pbd computes them).
    """
    state = GAME.parse(doc.read_text())
    assert GAME.awaited_roll(state)[0] == roller and GAME.rolls_itself(state), doc.read_text()
    other = next(s for s in state.seats if s != roller)
    pbd("status", doc, "--as", other, ok=True)              # its pbd publishes the value the dice wait on
    faces = upcoming(doc, roller, k)
    pbd("status", doc, "--as", roller, ok=True)             # the roller's pbd rolls them
    return faces
