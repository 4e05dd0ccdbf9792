"""The table owns replay (issue 28, part 1): one deck call reads a hidden card as what the log
showed, and a game whose replay crashes is named as buggy (exit 70), never taken for a hand edit.

Issue 33's crash is the first case: replaying 2Xd6's ``show hand`` without Ann's seed, her hand
read through the document's deck (the cards ended face up there) but the deck's ``show_hand``
read them as None, and the log words failed with a TypeError.
"""

from __future__ import annotations

import copy

from pbd.games import get
from pbd.table.deck import SharedDeck
from test_table_deck import SEATS, SEEDS, Table


def _dealt_table():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Ann", 2))
    for seat in ("Ben", "Cy"):          # they unlock Ann's cards for her
        t.write(seat)
    return t


def test_a_replayed_show_hand_reads_the_cards_the_document_shows_face_up():
    t = _dealt_table()
    replayed = copy.deepcopy(t.deck)    # the replay reached the move: Ann's cards hidden from it
    replayed.known.clear()
    cards = t.write("Ann", lambda d: d.show_hand("Ann"))
    assert None not in cards
    t.write("Ann")                      # her own unlocks: the cards are face up in the document
    replayed.oracle = SharedDeck.parse(t.deck.render())
    assert replayed.show_hand("Ann") == cards
    assert replayed.hand_cards("Ann") == cards


def test_outside_a_replay_a_card_in_another_seats_hand_stays_hidden():
    t = _dealt_table()
    slots = t.deck.hands["Ann"]
    t.deck.learn("Ann", SEEDS["Ann"])     # Ann's pbd reads her hand; Ben's reads none of it
    assert [t.deck.card(s, "Ben") for s in slots] == [None, None]
    assert None not in [t.deck.card(s, "Ann") for s in slots]


def test_no_game_at_the_table_overrides_replay():
    from pbd.table.game import CardGame

    for name in ("tower", "2xd6"):
        game = get(name)
        assert isinstance(game, CardGame) and type(game).replay is CardGame.replay, name


def test_a_replay_without_the_seeds_prunes_what_the_document_prunes():
    """A replay without anyone's seed (``pbd audit``'s, the hand-edit check's) knows no numbers; its deck must still
    drop each unlock once every seat has checked it, and a discarded slot then, as the document does.  It kept them
    all: a 556-move Boys' Town match's replay held 316 slots where its document held 60, and the audit snapshotting
    that deck before every log entry took 10.7 s of CPU (2.6 s once pruned)."""
    piles = {"draw": [f"c{i}" for i in range(6)]}
    t = Table(piles)
    replay = SharedDeck.create("m1", SEATS, piles)

    def both(seat, op=None):
        t.write(seat, op)
        replay.oracle = SharedDeck.parse(t.deck.render())
        if op:
            op(replay)
        replay.settle(seat, None)

    for seat in SEATS:
        both(seat)
    both("Ann", lambda d: d.deal("draw", "Ann", 2))
    for seat in ("Ben", "Cy", "Ann"):
        both(seat)
    slots = list(t.deck.hands["Ann"])
    both("Ann", lambda d: [d.discard("Ann", i) for i in slots])
    for seat in ("Ben", "Cy"):                  # Ann's discards face up: every seat's unlock
        both(seat)
    both("Ann", lambda d: d.reshuffle("discard", "again"))     # the discards retired, two new slots
    for seat in ("Ben", "Cy", "Ann", "Ben", "Cy"):
        both(seat)
    slot = slots[0]
    assert slot in t.deck.gone and not any(s.steps for s in t.deck.slots.values())
    assert not any(s.steps for s in replay.slots.values())
    assert slot not in replay.slots and sorted(replay.slots) == sorted(t.deck.slots)
