"""SharedDeck.duties finds each slot's holder from one map of the hands and peeks (SharedDeck._holders)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbd.table.deck import SharedDeck

SEATS = ["Ann", "Ben", "Cy"]
_held = st.dictionaries(st.sampled_from(SEATS), st.lists(st.integers(1, 12), max_size=5), max_size=3)


@settings(max_examples=200, deadline=None)
@given(_held, _held)
def test_the_holders_map_gives_what_holder_gives_for_every_slot(hands, aside):
    deck = SharedDeck.create("m1", SEATS, {"draw": [f"c{i}" for i in range(12)]})
    deck.hands, deck.aside = hands, aside       # a slot in two seats' hands or peeks too: the first seat holds it
    held = deck._holders()
    assert {i: held.get(i) for i in range(0, 14)} == {i: deck.holder(i) for i in range(0, 14)}
