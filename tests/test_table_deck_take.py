"""SharedDeck.take (added for Boys' Town): a face-up card from a pile into a hand, checked by every seat."""

from __future__ import annotations

import pytest

from test_table_deck import SEATS, Table


@pytest.fixture
def table():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    return t


def test_a_face_up_card_taken_into_a_hand_stays_public_and_every_seat_accepts_it(table):
    (slot,) = table.write("Ann", lambda d: d.draw_face_up("draw", 1, to="town1"))
    for seat in ("Ben", "Cy", "Ann"):          # everyone's open unlock: the card turns face up
        table.write(seat)
    card = table.deck.slots[slot].card
    assert card is not None
    table.write("Ann", lambda d: d.take(slot, "Ben"))
    assert table.deck.hands["Ben"] == [slot] and table.deck.piles["town1"] == []
    for seat in SEATS:                          # the next command of every seat verifies the move
        table.write(seat)
        assert table.deck.card(slot, seat) == card     # public: anyone may read it
    table.write("Ben", lambda d: d.discard("Ben", slot, to="discard"))
    assert table.deck.piles["discard"] == [slot]


def test_only_a_face_up_card_in_a_pile_can_be_taken(table):
    with pytest.raises(ValueError, match="not face up"):
        table.deck.take(table.deck.piles["draw"][0], "Ben")
    (slot,) = table.write("Ann", lambda d: d.draw_face_up("draw", 1, to="town1"))
    with pytest.raises(ValueError, match="no seat"):
        table.deck.take(slot, "Zed")
