"""Helpers for the Boys' Town tests: the table stand-in, matches started through the CLI, stacked decks."""

from __future__ import annotations

from pathlib import Path


from pbd import handedits, match, private
from pbd.games.boystown import GAME, cards, rules
from pbd.games.boystown.state import Resident

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def start(pbd, doc: Path, n: int = 2, *extra) -> list[str]:
    """Start an ``n``-player match on ``doc`` through the CLI; return the seat names."""
    pbd("new", "boystown", doc, "--as", "Ann", "--players", n, "--seed", "ann", *extra, ok=True)
    for name in NAMES[1:n]:
        pbd("join", doc, "--as", name, "--seed", name.lower(), ok=True)
    return NAMES[:n]


def state_of(doc: Path):
    """Return the parsed state of ``doc``."""
    return GAME.parse(doc.read_text())


def catch_up(doc: Path) -> None:
    """Let every seat's pbd do the work it owes (what its next command does), until nobody owes any."""
    for _ in range(12):
        state = state_of(doc)
        owing = [s for s in state.seats if GAME.pending(state, s)]
        if not owing:
            return
        for seat in owing:
            match.legal(str(doc), seat)


#: the deals :func:`arrange` derived, by document text and seeds
_DERIVED: dict[tuple, tuple] = {}


def arrange(doc: Path, hands: dict | None = None, draw: list | None = None, discard: list | None = None,
            towns: dict | None = None, turn: str | None = None, phase: str | None = None,
            turns: dict | None = None, leave: int | None = None) -> None:
    """Stack the real shared deck of a started match: exact hands and Towns, the top of the draw and discard piles.

    The test holds every seat's seed (their private state), so it knows which slot holds which
    card (the audit's derivation); it moves slots, has every seat do the unlocks that the new
    places owe, and updates every seat's private record, as if the match had gone that way.
    """
    catch_up(doc)
    text = doc.read_text()
    state = GAME.parse(text)
    secs = {s: private.load(state.meta.match_id, s) for s in state.seats}
    deck, cat = state.deck, rules.cat(state)
    seeds = {s: secs[s].seed for s in state.seats}
    key = (text, tuple(seeds.items()))
    if key not in _DERIVED:             # the same document and seeds: the same deal (most tests stack one start)
        _DERIVED[key] = deck.derive(seeds)
    dealt, problems = _DERIVED[key]
    assert not problems, problems
    name = {slot: cards.name_of(cat.deck(), card) for slot, card in dealt.items()}
    hands = hands or {}
    pool = list(deck.piles[cards.DRAW]) + [i for s in state.seats for i in deck.hands.get(s, [])]
    kept = {s: list(deck.hands.get(s, [])) for s in state.seats if s not in hands}
    used: set[int] = set()

    def pick(wanted: str) -> int:
        slot = next((i for i in pool if i not in used and name[i] == wanted), None)
        assert slot is not None, f"the deck has no more {wanted}"
        used.add(slot)
        return slot

    new_hands = {s: [pick(n) for n in names] for s, names in hands.items()}
    new_towns = {s: [pick(n) for n in names] for s, names in (towns or {}).items()}
    new_discard = [pick(n) for n in discard or []]
    top = [pick(n) for n in draw or []]
    for seat, ids in kept.items():       # seats not stacked keep their cards, unless one was taken
        for k, i in enumerate(ids):
            if i in used:
                ids[k] = next(j for j in pool if j not in used and j not in sum(kept.values(), []))
            used.add(ids[k])
        deck.hands[seat] = ids
    deck.piles[cards.DRAW] = top + [i for i in pool if i not in used]
    if leave is not None:        # only ``leave`` cards in the draw pile; the rest out of play, face down
        deck.piles["spare"], deck.piles[cards.DRAW] = deck.piles[cards.DRAW][leave:], deck.piles[cards.DRAW][:leave]
    for seat, ids in new_hands.items():
        deck.hands[seat] = ids
    for seat, ids in new_towns.items():
        deck.piles[cards.town(deck, seat)] = ids
        state.seat(seat).town += [Resident(i, name[i]) for i in ids]
    deck.piles[cards.DISCARD] = new_discard + deck.piles.get(cards.DISCARD, [])
    for i in [*new_discard, *(i for ids in new_towns.values() for i in ids)]:
        deck.slots[i].want = "open"
    for _ in range(2):
        for seat in state.seats:
            deck.settle(seat, secs[seat].seed)
    if turn:
        state.mover = turn
    if phase:
        state.phase = phase
    for seat, n in (turns or {}).items():
        state.seat(seat).turns = n
    text = GAME.render(state)
    doc.write_text(text)
    for seat in state.seats:         # every seat's pbd takes the stacked board as checked (no hand edit named)
        secs[seat].extra["deck"] = deck.render()
        secs[seat].extra[handedits.KEY] = handedits.record(text, state.meta.log)
        private.save(secs[seat])


def discard_pile(doc: Path) -> list[str]:
    """Return the names on the discard pile, top first (once every seat did its unlocks)."""
    catch_up(doc)
    state = state_of(doc)
    return [rules.card_at(state, s).name for s in cards.pile(state.deck, cards.DISCARD)]


def hand_names(doc: Path, seat: str) -> list[str]:
    """Return the names in ``seat``'s hand, read with ``seat``'s private state (once unlocks are done)."""
    catch_up(doc)
    state = state_of(doc)
    sec = private.load(state.meta.match_id, seat)
    state.deck.learn(seat, sec.seed, {})
    return [c.name for _, c in rules.hand(state, seat)]


#: A small catalogue (24 cards, the fewest a catalogue may have) whose matches end in ~50 moves:
#: Builders allow an extra build, so hands empty quickly; every kind of battle still happens.
QUICK = """\
[catalogue]
name = "quick"
title = "A quick Boys' Town deck (tests)"

[[card]]
name = "The John Goodcup"
ap = 1
tp = 3
text = "Resident: at the end of the game your Town's base TP is doubled."
effects = [{ kind = "resident", do = "goodcup" }]

[[card]]
name = "Builder"
ap = 2
tp = 2
copies = 9
text = "Build: you may build one more card this turn."
effects = [{ kind = "build", do = "extra_build", count = 1 }]

[[card]]
name = "Brawler"
ap = 4
tp = 1
copies = 7

[[card]]
name = "Shopkeeper"
ap = 1
tp = 3
copies = 7
"""


def play_out(pbd, doc: Path, rng, limit: int = 600, until: str = "") -> dict:
    """Play random legal moves through the CLI (show, legal, move) until the match ends (or the document
    shows ``until``); return the last show."""
    for _ in range(limit):
        data = pbd.json("show", doc)
        if data["result"] or until and until in doc.read_text():
            return data
        who = data["to_move"][0]
        moves = pbd.json("legal", doc, "--as", who)["moves"]
        if moves:              # none: 'legal' did the work the seat owed (unlocks, a flip); look again
            pbd("move", doc, "--as", who, rng.choice(moves), ok=True)
    raise AssertionError(f"no result after {limit} commands")
