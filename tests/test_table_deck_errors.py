"""Every error of a shared-deck operation is a pbd error with its exit code (issue 28, part 4).

A game that calls the deck wrongly (a pile still being shuffled, a slot the seat does not hold)
gets a typed error the CLI turns into a message and exit code, never an internal error (70).
"""

from __future__ import annotations

import pytest

from pbd.errors import DeckMoveError, DeckSetupError, IllegalMoveError, PbdError, UsageError
from pbd.table.deck import SharedDeck
from test_table_deck import SEATS, Table


def test_an_operation_the_deck_cannot_do_now_is_an_illegal_move_with_exit_1():
    t = Table({"draw": [f"c{i}" for i in range(4)]})
    with pytest.raises(DeckMoveError, match="still being shuffled") as info:
        t.deck.deal("draw", "Ann")
    assert isinstance(info.value, IllegalMoveError) and info.value.exit_code == 1
    for seat in SEATS:
        t.write(seat)
    with pytest.raises(DeckMoveError, match="has 4 card"):
        t.deck.deal("draw", "Ann", 5)
    with pytest.raises(DeckMoveError, match="does not hold slot"):
        t.deck.discard("Ann", t.deck.piles["draw"][0])
    with pytest.raises(DeckMoveError, match="not face up"):
        t.deck.take(t.deck.piles["draw"][0], "Ben")


def test_a_deck_that_cannot_be_built_is_a_usage_error_with_exit_2():
    with pytest.raises(DeckSetupError, match="cannot name a pile") as info:
        SharedDeck.create("m", ["Ann"], {"no spaces allowed": ["a"]})
    assert isinstance(info.value, UsageError) and info.value.exit_code == 2
    with pytest.raises(DeckSetupError, match="cannot take a seat"):
        SharedDeck.create("m", ["Ann"], {"draw": ["a"]}).add_seat("Ann")


def test_deck_errors_stay_value_errors_for_older_callers():
    with pytest.raises(ValueError):
        SharedDeck.create("m", [], {"draw": ["a"]})
    assert issubclass(DeckMoveError, PbdError) and issubclass(DeckSetupError, PbdError)
