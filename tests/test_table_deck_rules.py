"""Issue 32: the rules of the shared deck (pbd/table/deck.py) that its mutation run found no test holding.

Each test holds one rule of the deck's document format, its bounds on what a (hostile) document may
hold, or a check an honest seat's pbd makes on another seat's write, in the style of
tests/test_table_deck.py: seats "write" in turn through the deck's text form (render, then parse),
as pbd does through a document, and a tampered text is what the next seat reads.
"""

from __future__ import annotations

import pytest

from pbd.errors import DeckSetupError, DocumentFormatError
from pbd.table.deck import SharedDeck

#: 17 seat names: one more than a shared deck holds
NAMES = [f"s{i}" for i in range(17)]


def refused(lines, words):
    """Parse ``lines``; return the DocumentFormatError's message, which must hold ``words``."""
    with pytest.raises(DocumentFormatError, match=words) as info:
        SharedDeck.parse(lines)
    return info.value.message


def parse_problem(lines) -> str | None:
    """Return the message parsing ``lines`` fails with (None: they parse)."""
    try:
        SharedDeck.parse(lines)
    except DocumentFormatError as exc:
        return exc.message
    return None


# -- bounds: seats, cards, slot ids, unlocks, proof lines ------------------------------------------

def test_a_deck_seats_1_to_16_players_and_holds_up_to_2000_cards():
    assert SharedDeck.create("m", NAMES[:1], {"draw": ["a"]}).seats == ["s0"]
    sixteen = SharedDeck.create("m", NAMES[:16], {"draw": ["a"]})
    assert SharedDeck.parse(sixteen.render()).seats == NAMES[:16]           # a 16-seat document reads back
    for seats, n in ((NAMES, 1), ([], 1), (NAMES[:2], 2001)):
        with pytest.raises(DeckSetupError, match="a shared deck holds 1 to 2000 cards for 1 to 16 seats"):
            SharedDeck.create("m", seats, {"draw": [f"c{i}" for i in range(n)]})
    big = SharedDeck.create("m", NAMES[:2], {"draw": [f"c{i}" for i in range(2000)]})
    assert len(big.slots) == 2000 and big.piles["draw"] == list(range(1, 2001))
    fifteen = SharedDeck.create("m", NAMES[:15], {"draw": ["a"]})
    fifteen.add_seat("s15")                                                  # the 16th seat may join
    assert fifteen.seats == NAMES[:16]
    with pytest.raises(DeckSetupError, match="s16 cannot take a seat at this deck"):
        fifteen.add_seat("s16")                                              # the 17th may not


def test_a_document_with_17_seats_or_2001_cards_is_refused():
    lines = SharedDeck.create("m", NAMES[:2], {"draw": ["a"]}).render()
    head = lines[0].replace("seats s0, s1", "seats " + ", ".join(NAMES)).replace("seen 0 0", "seen" + " 0" * 17)
    refused([head] + lines[1:], "the seats must be 1 to 16 different names")
    assert refused([lines[0], "  cards 1-2001"], "card range") == "line 2: shared deck: the card range '1-2001' is not valid"
    refused([lines[0], "  cards x 1-2000"], "card range '1-2000' is not valid")
    refused([lines[0], "  cards 1-1999 x y"], "a shared deck holds at most 2000 cards")
    assert len(SharedDeck.parse([lines[0], "  cards 1-2000"]).cards) == 2000       # 2000 cards: the manifest reads
    assert len(SharedDeck.parse([lines[0], "  cards x 1-1999"]).cards) == 2000


def test_slot_ids_go_up_to_8000_in_every_line_that_names_one():
    lines = SharedDeck.create("m", NAMES[:2], {"draw": ["a"]}).render()
    for extra in ("  pile more 8001", "  retired 8001@1", "  slot 8001 ^", "  hand 1 8001", "  gone 8001"):
        refused(lines + [extra], r"expected a slot number \(a number up to 8000\), not '8001'")
    for extra, words in (("  pile more 8000", "pile more lists slot 8000, which has no slot line"),
                         ("  retired 8000@1", "retired lists slot 8000, which has no slot line"),
                         ("  gone 8000", "slot 8000 is listed as gone"),
                         ("  slot 8000 ^", "slot 8000 belongs to no generation")):
        refused(lines + [extra], words)
