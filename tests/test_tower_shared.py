"""The Tower's adapter onto the table's shared deck (pbd/games/tower/shared.py), on a real SharedDeck.

Three seats pass the deck around through its text form, as their pbd do through a document:
each verifies, reads its hand, moves, does the work it owes, writes.
"""

from __future__ import annotations

import pytest

from pbd import fairplay
from pbd.errors import IllegalMoveError
from pbd.games.tower import data, shared
from pbd.table.deck import SharedDeck

SEATS = ["Ann", "Ben", "Cy"]
SEEDS = {s: fairplay.seed_from_text(s) for s in SEATS}


class Table:
    """Three seats sharing one Tower deck through its text form."""

    def __init__(self, cards):
        self.deck = SharedDeck.create("m1", SEATS, shared.piles(cards))
        self.records: dict[str, list[str]] = {}
        for seat in SEATS:
            self.write(seat)

    def write(self, seat, op=None):
        deck = SharedDeck.parse(self.deck.render()) if self.records else self.deck
        previous = SharedDeck.parse(self.records[seat]) if seat in self.records else None
        assert not deck.verify(previous, seat=seat)
        deck.learn(seat, SEEDS[seat])
        out = op(deck) if op else None
        deck.settle(seat, SEEDS[seat])
        self.records[seat] = deck.render()
        self.deck = deck
        return out


@pytest.fixture()
def table():
    return Table(data.load_deck().cards())


def test_a_draw_at_the_end_of_a_turn_is_readable_when_the_next_turn_comes(table):
    slot = table.write("Ann", lambda d: shared.draw(d, "Ann"))
    assert shared.hand(table.deck, "Ann") == [None]          # the others owe their unlocks
    assert shared.hand_size(table.deck, "Ann") == 1
    table.write("Ben")
    table.write("Cy")                                        # the others' turns in between
    table.write("Ann")
    card = table.deck.card(slot, "Ann")
    assert card in data.load_deck().cards()
    assert table.deck.card(slot, "Ben") is None              # no one else reads it


def test_placing_turns_the_card_face_up_on_its_tile_and_spent_cards_leave_the_hand(table):
    for _ in range(6):
        table.write("Ann", lambda d: shared.draw(d, "Ann"))
        table.write("Ben")
        table.write("Cy")
    hand = table.write("Ann", lambda d: shared.hand(d, "Ann"))
    assert None not in hand and len(hand) == 6
    kind = hand[0]
    table.write("Ann", lambda d: shared.place(d, "Ann", kind, 17))
    assert shared.tiles(table.deck)[17] == [kind]             # public after Ann's own command
    assert shared.hand_size(table.deck, "Ann") == 5
    other = shared.hand(table.deck, "Ann")[0]
    table.write("Ann", lambda d: shared.spend(d, "Ann", other))
    assert table.deck.piles[shared.SPENT] and shared.hand_size(table.deck, "Ann") == 4
    with pytest.raises(IllegalMoveError, match="Ben holds no Sword"):
        shared.spend(table.deck, "Ben", "Sword")


def test_an_empty_draw_pile_means_no_draw():
    t = Table(["Torch"])
    assert t.write("Ann", lambda d: shared.draw(d, "Ann")) is not None
    assert t.write("Ben", lambda d: shared.draw(d, "Ben")) is None
    assert not shared.can_draw(t.deck)
