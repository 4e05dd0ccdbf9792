"""Issue 32: the rules of the shared deck (pbd/table/deck.py) that its mutation run found no test holding.

Each test holds one rule of the deck's document format, its bounds on what a (hostile) document may
hold, or a check an honest seat's pbd makes on another seat's write, in the style of
tests/test_table_deck.py: seats "write" in turn through the deck's text form (render, then parse),
as pbd does through a document, and a tampered text is what the next seat reads.
"""

from __future__ import annotations

import pytest

from pbd.errors import DeckMoveError, DeckSetupError, DocumentFormatError
from pbd.table import group
from pbd.table.deck import SharedDeck
from test_table_deck import SEATS, SEEDS, Table

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


def test_a_one_seat_deck_a_single_card_range_and_the_largest_stamps_read_back():
    one = SharedDeck.create("m", ["Solo"], {"draw": ["a", "b"]}).render()
    assert SharedDeck.parse(one).seats == ["Solo"]
    assert SharedDeck.parse([one[0], "  cards 3-3 x"]).cards == ["3", "x"]     # a range of one card
    big = 999999999                                                         # nine digits: the largest number read
    lines = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a", "b"]}).render()
    lines[0] = lines[0].replace("clock 0 · seen 0 0", f"clock {big} · seen {big} {big}")
    deck = SharedDeck.parse(lines)
    assert deck.clock == big and deck.seen == {"Ann": big, "Ben": big}
    retired = [ln for ln in lines if not ln.startswith("  pile ")] + ["  pile draw 1", f"  retired 2@{big}"]
    assert SharedDeck.parse(retired).retired == {2: big}
    value = lines[-1].split()[2]
    stepped = [ln + f" · 1 {value} - @{big}" if ln.startswith("  slot 1 ") else ln for ln in lines]
    assert SharedDeck.parse(stepped).slots[1].steps[0].stamp == big
    for bad in (f"clock {big}0 · seen 0 0", f"clock {big} · seen 0 {big}0"):
        refused([lines[0].replace(f"clock {big} · seen {big} {big}", bad)] + lines[1:], "a number up to")


# -- what an honest seat's pbd checks in another seat's write (SharedDeck.verify) ------------------

@pytest.fixture(scope="module")
def shuffled():
    """Three seats have shuffled 8 cards in; nothing dealt (every pass stands)."""
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    return t


@pytest.fixture(scope="module")
def dealt():
    """Ann dealt Cy two cards, Ben unlocked them, then Cy wrote (her cards read); Ann and Ben have not checked Cy."""
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 2))
    t.write("Ben")
    t.write("Cy")
    return t


@pytest.fixture(scope="module")
def face_up():
    """Three cards went face up on the table and one to a discard pile; every seat has written since."""
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: (d.draw_face_up("draw", 3, to="table"), d.draw_face_up("draw", 1, to="discard")))
    for seat in ("Ben", "Cy", "Ann", "Ben", "Cy"):
        t.write(seat)
    return t


def checked(t, seat, edit=None, keys=None):
    """Return the problems ``seat``'s pbd finds in the last write, changed by ``edit`` (a function of the deck)."""
    deck = SharedDeck.parse(t.deck.render())
    if edit is not None:
        edit(deck)
        deck = SharedDeck.parse(deck.render())
    return deck.verify(SharedDeck.parse(t.records[seat]), keys, seat=seat)


def test_an_honest_write_has_no_problem_for_any_seat(shuffled, dealt, face_up):
    for t in (shuffled, dealt, face_up):
        for seat in SEATS:
            assert checked(t, seat) == []


def test_a_changed_manifest_match_or_seat_list_is_refused_first(dealt):
    cards = "the deck's cards are not the ones you saw (its manifest was changed)"
    assert checked(dealt, "Ann", lambda d: d.cards.__setitem__(7, "joker")) == [cards]
    assert checked(dealt, "Ann", lambda d: setattr(d, "match_id", "m2")) == [cards]

    def renamed(d):                 # Cy's seat given to Zed, everything of Cy's with it
        d.seats[2] = "Zed"
        d.hands["Zed"], d.seen["Zed"] = d.hands.pop("Cy"), d.seen.pop("Cy")
        d.gens[0].passes[2].seat = "Zed"

    assert checked(dealt, "Ann", renamed) == ["the deck's seats changed from Ann, Ben, Cy to Ann, Ben, Zed"]


def test_a_clock_or_a_seen_counter_set_back_is_refused(dealt):
    assert checked(dealt, "Ann", lambda d: d.seen.__setitem__("Ben", 1)) == ["the deck's clock went back"]
    assert checked(dealt, "Ann", lambda d: (setattr(d, "clock", 3), d.seen.update(Ann=3, Ben=3, Cy=3))) == [
        "the deck's clock went back"]


def test_a_generation_s_piles_or_a_pass_changed_after_a_seat_saw_them_is_refused(shuffled):
    assert checked(shuffled, "Ann", lambda d: d.gens[0].cards.reverse()) == [
        "generation 1's piles or cards changed"]

    def other_outputs(d):           # Ben's pass, which every seat has seen, with two numbers swapped
        values, proof = d.gens[0].passes[1].piles["draw"]
        d.gens[0].passes[1].piles["draw"] = ([values[1], values[0], *values[2:]], proof)

    assert checked(shuffled, "Cy", other_outputs) == ["generation 1: a pass you saw was changed"]
    key = shuffled.deck.gens[0].passes[0].key
    assert checked(shuffled, "Cy", lambda d: setattr(d.gens[0].passes[1], "key", key)) == [
        "generation 1: a pass you saw was changed"]


def test_a_seat_s_key_that_is_not_its_own_or_is_another_seat_s_is_refused(dealt):
    mine = {"Ann": {1: group.public_key(dealt.deck.key(SEEDS["Ann"], 1))}}
    deck = SharedDeck.parse(dealt.deck.render())
    assert deck.verify(None, mine, seat="Ann") == []
    other = group.public_key(dealt.deck.key(SEEDS["Ann"], 2))
    deck.gens[0].passes[0].key = other
    problems = SharedDeck.parse(deck.render()).verify(None, mine, seat="Ann")
    assert problems[0] == "generation 1: Ann's public key is not Ann's", problems
    for a, b in ((0, 2), (1, 2), (0, 1)):           # any two seats, next to each other or not
        deck = SharedDeck.parse(dealt.deck.render())
        deck.gens[0].passes[a].key = deck.gens[0].passes[b].key
        problems = SharedDeck.parse(deck.render()).verify(None, seat="Ben")
        assert problems[:2] == [f"generation 1: {SEATS[a]}'s public key is refused: it is another seat's key",
                                f"generation 1: {SEATS[b]}'s public key is refused: it is another seat's key"], problems


def test_a_pass_pruned_or_without_a_key_before_a_seat_checked_it_is_refused(shuffled):
    pruned = "generation 1: a pass's proof was pruned before you checked it"
    assert checked(shuffled, "Ann", lambda d: setattr(d.gens[0].passes[1], "piles", None)) == [pruned]
    assert checked(shuffled, "Ann", lambda d: setattr(d.gens[0].passes[2], "key", None)) == [pruned]
    assert checked(shuffled, "Ann", lambda d: [setattr(p, "piles", None) for p in d.gens[0].passes]) == [pruned]


def test_slots_pruned_before_a_seat_checked_their_passes_are_refused(shuffled):
    def prune_top(d):
        top = d.piles["draw"].pop(0)
        del d.slots[top]
        d.gone = [top]

    top = shuffled.deck.piles["draw"][0]
    assert checked(shuffled, "Ann", prune_top) == ["generation 1: slots were pruned before you checked its passes",
                                                   f"slot {top} was removed before you checked it"]


def test_a_pass_that_leaves_out_a_pile_or_whose_numbers_are_not_on_the_slots_is_refused():
    t = Table({"faces": [f"f{i}" for i in range(3)], "pips": [f"p{i}" for i in range(4)]})
    for seat in SEATS:
        t.write(seat)

    def drop_pips(d):
        values = d.gens[0].passes[2].piles.pop("pips")[0]
        for i, v in zip(d.gens[0].piles["pips"], values):
            d.slots[i].value = d.slots[i].base = v

    assert checked(t, "Ann", drop_pips) == ["generation 1: Cy's shuffle pass does not cover every pile"]

    def swap_slots(d):              # two slots trade the numbers Cy's pass gave them
        a, b = d.slots[1], d.slots[2]
        a.value, b.value = b.value, a.value
        a.base, b.base = b.base, a.base

    assert checked(t, "Ann", swap_slots) == [
        "generation 1: the numbers are not the ones Cy's pass produced (swapped or replaced)"]


def test_an_unlock_taken_back_or_written_without_a_proof_is_refused(dealt):
    def unlock_gone(d):             # Ben's unlock of Cy's first card taken out, its number set back
        slot = d.slots[1]
        slot.steps.pop()
        slot.value, slot.opened = slot.base, ["Ann"]

    assert [st.seat for st in dealt.deck.slots[1].steps] == ["Ben"]
    assert checked(dealt, "Ben", unlock_gone) == ["slot 1: an unlock you saw is gone"]

    def unproven(d):
        for i in (1, 2):
            d.slots[i].steps[-1].proof = None

    assert checked(dealt, "Ann", unproven) == ["slot 1: Ben's unlock has no proof", "slot 2: Ben's unlock has no proof"]

    def no_number(d):
        d.slots[1].steps[-1].value = d.slots[1].value = None

    assert checked(dealt, "Ann", no_number) == [
        "slot 1: Ben's unlock has no proof", "slots 1-2: Ben's unlocks, proven together, carry no valid proof (one of "
        "them is a wrong unlock, or the proof is forged)"]


def test_a_face_up_card_changed_or_turned_back_down_is_refused(face_up):
    deck = face_up.deck
    sid = deck.piles["table"][0]
    card, down = deck.slots[sid].card, next(i for i in range(1, 9) if i not in
                                            {s.index for s in deck.slots.values()})

    def other_card(d):
        d.slots[sid].index, d.slots[sid].card = down, d.cards[down - 1]

    assert checked(face_up, "Ann", other_card) == [f"slot {sid} showed {card}, now {deck.cards[down - 1]}"]

    def turned_down(d):
        d.slots[sid].index = d.slots[sid].card = None
        d.slots[sid].opened = []

    assert checked(face_up, "Ann", turned_down) == [f"slot {sid} showed {card}, now no card"]


def test_two_slots_with_one_number_or_one_card_face_up_twice_are_refused_without_a_record(dealt, face_up):
    deck = SharedDeck.parse(dealt.deck.render())
    a, b = deck.piles["draw"][:2]
    deck.slots[b].value = deck.slots[b].base = deck.slots[a].value
    assert SharedDeck.parse(deck.render()).verify(None) == ["two slots hold the same number (a duplicated card)"]
    deck = SharedDeck.parse(face_up.deck.render())
    a, b = deck.piles["table"][:2]
    deck.slots[b].index, deck.slots[b].card = deck.slots[a].index, deck.slots[a].card
    assert SharedDeck.parse(deck.render()).verify(None) == ["one card is face up in two slots"]


def test_slots_removed_taken_from_below_or_moved_between_hands_are_refused(dealt, face_up):
    top, second = dealt.deck.piles["draw"][:2]

    def vanished(d):
        d.piles["draw"].remove(top)
        del d.slots[top]

    assert checked(dealt, "Ann", vanished) == [f"slot {top} disappeared"]
    assert checked(dealt, "Ann", lambda d: (d.piles["draw"].remove(second), d.hands.setdefault("Ben", [second]))) \
        == ["pile draw: cards were taken from below the top"]
    assert checked(dealt, "Ann", lambda d: (d.piles["draw"].remove(top), d.hands.setdefault("Ben", [top]))) == []
    shown = face_up.deck.piles["table"][1]                  # a face-up card may leave a public pile from anywhere
    assert checked(face_up, "Ann", lambda d: (d.piles["table"].remove(shown), d.piles.setdefault("mine", [shown]))) \
        == []
    cy = dealt.deck.hands["Cy"]
    assert checked(dealt, "Ben", lambda d: d.hands.__setitem__("Ann", [d.hands["Cy"].pop()])) == [
        f"slot {cy[-1]} moved from Cy's hand to Ann's"]
    assert checked(dealt, "Cy", lambda d: setattr(d.slots[cy[0]], "want", "open")) == [
        f"slot {cy[0]} of your hand is marked to be turned face up, which only you can do"]
    assert checked(dealt, "Cy", lambda d: (d.hands["Cy"].remove(cy[0]), d.piles.setdefault("away", [cy[0]]))) == [
        f"slot {cy[0]} left your hand without you"]

    def pruned_from_hand(d):
        d.hands["Cy"].remove(cy[0])
        del d.slots[cy[0]]
        d.gone = [cy[0]]

    assert checked(dealt, "Cy", pruned_from_hand) == [f"slot {cy[0]} was removed before you checked it",
                                                      f"slot {cy[0]} left your hand without you"]


def test_a_hand_card_that_unlocks_to_no_card_or_to_one_shown_elsewhere_is_refused(dealt):
    deck = SharedDeck.parse(dealt.deck.render())
    mine = deck.learn("Cy", SEEDS["Cy"], {})
    first, second = dealt.deck.hands["Cy"]
    deck = SharedDeck.parse(dealt.deck.render())
    deck.slots[first].value = group.code("not a card")
    with pytest.raises(DocumentFormatError, match=f"slot {first} in Cy's hand does not unlock to a card of this deck"):
        deck.learn("Cy", SEEDS["Cy"], {})
    deck = SharedDeck.parse(dealt.deck.render())
    deck.slots[second].value = deck.slots[first].value             # one card twice in a hand
    with pytest.raises(DocumentFormatError, match="a card in your hand is also elsewhere"):
        deck.learn("Cy", SEEDS["Cy"], {})
    deck = SharedDeck.parse(dealt.deck.render())
    top = deck.piles["draw"][0]                                     # Cy's card also face up on the draw pile
    deck.slots[top].index = deck.cards.index(mine[first]) + 1
    with pytest.raises(DocumentFormatError, match="a card in your hand is also elsewhere"):
        deck.learn("Cy", SEEDS["Cy"], {})
    assert SharedDeck.parse(dealt.deck.render()).learn("Cy", SEEDS["Cy"], {}) == mine


def test_a_last_unlock_that_reaches_no_card_is_refused():
    t = Table({"draw": [f"c{i}" for i in range(4)]})
    for seat in SEATS:
        t.write(seat)
    (sid,) = t.write("Ann", lambda d: d.draw_face_up("draw", 1, to="table"))
    t.write("Ben")
    deck = SharedDeck.parse(t.deck.render())
    deck.slots[sid].value = group.code("not a card")               # Cy's unlock is the last: it shows the card
    with pytest.raises(DocumentFormatError, match=f"slot {sid} of the shared deck does not unlock to a card"):
        deck.settle("Cy", SEEDS["Cy"])


def test_a_replay_without_seeds_reads_a_card_turned_up_from_the_document_or_the_log_else_refuses():
    def replayed(oracle=None, known=None, dealt=None):
        deck = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a", "b", "c"]})
        deck.oracle, deck.dealt = oracle, dealt
        for seat in ("Ann", "Ben"):
            deck.settle(seat, None)
        (sid,) = deck.draw_face_up("draw", 1)
        deck.known.update(known or {})
        deck.settle("Ann", None)
        deck.settle("Ben", None)
        return deck.slots[sid]

    with pytest.raises(DocumentFormatError, match="the log turns slot 1 face up, but the document's deck does not "
                                                  "show its card"):
        replayed()
    board = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a", "b", "c"]})
    board.slots[1].index, board.slots[1].card = 3, "c"
    assert (replayed(oracle=board).card, replayed(oracle=board).index) == ("c", 3)
    assert (replayed(known={1: "b"}).card, replayed(known={1: "b"}).index) == ("b", 2)
    assert (replayed(dealt={1: "c"}).card, replayed(dealt={1: "c"}).index) == ("c", 3)     # an audit: the seeds' deal


# -- the document format: every malformed line named ---------------------------------------------

@pytest.fixture(scope="module")
def two_piles():
    """Three seats have shuffled in two piles (every pass and its proof lines stand)."""
    t = Table({"faces": [f"f{i}" for i in range(3)], "pips": [f"p{i}" for i in range(4)]})
    for seat in SEATS:
        t.write(seat)
    return t


def edited(lines, start, new):
    """Return ``lines`` with the first line starting ``start`` replaced by ``new`` (a line, or a function of it)."""
    i = next(n for n, ln in enumerate(lines) if ln.startswith(start))
    return lines[:i] + [new(lines[i]) if callable(new) else new] + lines[i + 1:]


def test_every_malformed_line_of_a_dealt_deck_is_named(dealt):
    lines = dealt.deck.render()
    head, slot1 = lines[0], next(ln for ln in lines if ln.startswith("  slot 1 "))
    step = slot1.split(" · ")[1]                            # Ben's unlock: seat, number, proof, stamp
    number = step.split()[1]
    assert SharedDeck.parse([head, "  cards " + "x" * 19994]).cards == ["x" * 19994]     # 20,000 characters: read
    cases = [
        ([head, "  cards " + "x" * 19995], "line 2: shared deck: a line is too long"),
        (["", "  "], "shared deck: the section is empty"),
        (lines + ["  card 1"], "line 17: shared deck: expected a deck line (cards, gen, pass, proof, pile, hand, "
                               "aside, retired, gone, slot), not 'card'"),
        (edited(lines, "  deck", head.replace("clock 6", "clock x")),
         "line 1: shared deck: expected 'deck MATCH v4 · seats A, B · clock N · seen N N'"),
        (edited(lines, "  deck", head.replace("Ben, Cy", "Ann, Cy")),
         "line 1: shared deck: the seats must be 1 to 16 different names, with one 'seen' number each"),
        (edited(lines, "  deck", head.replace("seen 4 5 6", "seen 4 5")),
         "line 1: shared deck: the seats must be 1 to 16 different names, with one 'seen' number each"),
        (edited(lines, "  deck", head.replace("seen 4 5 6", "seen 4 5 7")),
         "line 1: shared deck: expected a seen number (at most the clock) (a number up to 6), not '7'"),
        (edited(lines, "  deck", head.replace("clock 6 · seen 4 5 6", "clock 1234567890 · seen 4 5 6")),
         "line 1: shared deck: expected the clock (a number up to 1000000000), not '1234567890'"),
        (edited(lines, "  gen 1", "  gen 2 · draw 1-8 · cards 1-8"),
         "line 3: shared deck: expected 'gen 1 · PILE IDS · … · cards N-M'"),
        (edited(lines, "  gen 1", "  gen 1 · cards 1-8"), "line 3: shared deck: expected 'gen 1 · PILE IDS"),
        (edited(lines, "  gen 1", "  gen 1 · draw 1-8 · card 1-8"), "line 3: shared deck: expected 'gen 1 · PILE IDS"),
        (edited(lines, "  gen 1", "  gen 10001 · draw 1-8 · cards 1-8"),
         "line 3: shared deck: expected a generation number (a number up to 10000), not '10001'"),
        (edited(lines, "  gen 1", "  gen 10000 · draw 1-8 · cards 1-8"), "line 3: shared deck: expected 'gen 1 · "),
        (edited(lines, "  gen 1", "  gen 1 · draw 1-4 · draw 5-8 · cards 1-8"),
         "line 3: shared deck: 'draw' cannot name a pile here"),
        (edited(lines, "  gen 1", "  gen 1 · dr~aw 1-8 · cards 1-8"), "line 3: shared deck: 'dr~aw' cannot name a pile"),
        (edited(lines, "  gen 1", "  gen 1 · draw 1-8 · cards 1-7"),
         "line 3: shared deck: generation 1 lists 7 cards for 8 slots"),
        (edited(lines, "  gen 1", "  gen 1 · draw 1-8 · cards 0-7"),
         "line 3: shared deck: generation 1 lists 8 cards for 8 slots"),
        (edited(lines, "  pass 1 1", lambda ln: " ".join(ln.split()[:3])),
         "line 4: shared deck: expected 'pass GEN SEAT KEY [@STAMP]'"),
        (edited(lines, "  pass 1 1", lambda ln: ln.replace("pass 1 1", "pass 0 1")),
         "line 4: shared deck: generations start at 1"),
        (edited(lines, "  pass 1 1", lambda ln: ln.replace("pass 1 1", "pass 2 1")),
         "line 4: shared deck: expected a generation number (a number up to 1), not '2'"),
        (edited(lines, "  pass 1 1", lambda ln: ln.replace("pass 1 1", "pass 1 2")),
         "line 4: shared deck: generation 1: the passes go in seat order, one per seat (Ann, Ben, Cy)"),
        (lines[:6] + [lines[3]] + lines[6:], "line 7: shared deck: generation 1: the passes go in seat order"),
        (lines + ["  pile draw 1"], "line 17: shared deck: 'draw' cannot name a pile here (or the pile is listed twice)"),
        (lines + ["  hand 3 9"], "line 17: shared deck: Cy's hand is listed twice"),
        (lines + ["  aside 1 9", "  aside 1 10"], "line 18: shared deck: Ann's aside is listed twice"),
        (lines + ["  retired 3"], "line 17: shared deck: expected 'retired ID@STAMP …'"),
        (lines + ["  retired 3@1234567890"],
         "line 17: shared deck: expected a clock stamp (a number up to 1000000000), not '1234567890'"),
        (lines + ["  slot 9"], "line 17: shared deck: expected 'slot ID NUMBER · …'"),
        (lines + ["  slot 3 ?"], "line 17: shared deck: slot 3 is listed twice"),
        (lines + ["  slot 0 ?"], "line 17: shared deck: slot 0 is listed twice"),
        (edited(lines, "  slot 1 ", slot1.replace(step, "2 " + number)),
         f"line 9: shared deck: slot 1: expected 'SEAT NUMBER [PROOF] @STAMP', 'by SEATS' or 'open', not "
         f"'{('2 ' + number)[:30]}'"),
        (edited(lines, "  slot 1 ", slot1.replace(" · 2 ", " · 0 ")), "line 9: shared deck: seat numbers start at 1"),
        (edited(lines, "  slot 1 ", slot1.replace(" · 2 ", " · 4 ")),
         "line 9: shared deck: expected a seat number (a number up to 3), not '4'"),
        (edited(lines, "  slot 1 ", slot1.replace(" @5", " 5")),
         "line 9: shared deck: expected a clock stamp like '@4', not '5'"),
        (edited(lines, "  slot 1 ", slot1.replace(" @5", " @1234567890")),
         "line 9: shared deck: expected a clock stamp (a number up to 1000000000), not '1234567890'"),
        (edited(lines, "  slot 1 ", slot1.replace(number, "=0")), "line 9: shared deck: card numbers start at 1"),
        (edited(lines, "  slot 1 ", slot1.replace(number, "=9")),
         "line 9: shared deck: expected a card number (a number up to 8), not '9'"),
        (edited(lines, "  slot 1 ", slot1.replace("by 1,2", "by 1,1")),
         "line 9: shared deck: slot 1: 'by' must list each seat that unlocked it once, its steps' seats included"),
        (edited(lines, "  slot 1 ", slot1.replace("by 1,2", "by 1")), "line 9: shared deck: slot 1: 'by' must list"),
        (edited(lines, "  slot 1 ", slot1.replace(" · 2 ", " · 1 =1 - @4 · 2 ")),
         "line 9: shared deck: slot 1: only its last unlock can show the card"),
        (edited(lines, "  slot 3 ", "  slot 3 =3 · 1 =4 - @4 · by 1,2,3"),
         "line 11: shared deck: slot 3: only its last unlock can show the card"),
        (edited(lines, "  cards", "  cards c0"), "line 3: shared deck: expected a slot number (a number up to 1), not '8'"),
        (lines + ["  cards c0"], "shared deck: generation 1 names a card the manifest does not have"),
        (edited(lines, "  gen 1", "  gen 1 · draw 1-8 · cards 1-8") + ["  gen 2 · again 8 · cards 8"],
         "shared deck: slot 8 is in two generations"),
        (edited(lines, "  slot 3 ", "  slot 3 =3 · by 1,2"),
         "shared deck: slot 3 shows a card but not every seat has unlocked it"),
        (edited(lines, "  slot 1 ", slot1.replace("by 1,2", "by 1,2,3")),
         "shared deck: slot 1 is unlocked by every seat but shows no card"),
        (edited(lines, "  pile draw", "  pile draw 1-8"), "shared deck: slot 1 is in two places (pile draw and Cy's hand)"),
        ([ln for ln in lines if not ln.startswith("  hand")], "shared deck: slot 1 is in no pile or hand"),
    ]
    for text, message in cases:
        with pytest.raises(DocumentFormatError) as info:
            SharedDeck.parse(text)
        assert str(info.value).startswith(message), (message, str(info.value))


def test_every_malformed_shuffle_proof_line_is_named(two_piles):
    lines = two_piles.deck.render()
    faces = next(ln for ln in lines if ln.startswith("  proof 1 1 faces "))
    pips = next(ln for ln in lines if ln.startswith("  proof 1 1 pips "))
    blob = pips.split()[-1]
    cases = [
        (edited(lines, "  proof 1 1 faces", faces.rsplit(" ", 1)[0]),
         "line 5: shared deck: expected 'proof GEN SEAT PILE DIGITS'"),
        (edited(lines, "  proof 1 1 pips", pips.replace(" pips ", " nope ")),
         "line 6: shared deck: a shuffle proof for no pass of Ann over a pile 'nope' of generation 1"),
        (edited(lines, "  proof 1 1 pips", pips.replace("proof 1 1", "proof 0 1")),
         "line 6: shared deck: a shuffle proof for no pass of Ann over a pile 'pips' of generation 0"),
        (edited(lines, "  pass 1 1", lambda ln: ln.rsplit(" ", 1)[0]),
         "line 5: shared deck: a shuffle proof for no pass of Ann over a pile 'faces' of generation 1"),
        (edited(lines, "  proof 1 1 pips", pips) + [faces],
         "line 22: shared deck: the lines of one shuffle proof must follow each other"),
        (edited(lines, "  proof 1 1 pips", pips.replace(blob, blob[:-4])),
         "shared deck: generation 1: Ann's shuffle proof of pips is damaged (its numbers are not points of the "
         "dealing group)"),
        (edited(lines, "  proof 1 1 pips", pips.replace(blob, blob + group.b64(bytes(32)))),
         "shared deck: generation 1: Ann's shuffle proof of pips is damaged (the pass's proof goes with its first "
         "pile, faces)"),
    ]
    for text, message in cases:
        with pytest.raises(DocumentFormatError) as info:
            SharedDeck.parse(text)
        assert str(info.value).startswith(message), (message, str(info.value))


# -- seating, duties, operations ------------------------------------------------------------------

def test_a_player_joins_only_before_anything_is_dealt_or_unlocked():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    fresh = SharedDeck.parse(t.deck.render())
    assert fresh.seating_open()
    fresh.add_seat("Dan")
    assert fresh.seats == [*SEATS, "Dan"] and fresh.waiting_on() == ["Dan"]       # Dan owes his pass
    assert fresh.render()[0].endswith(" · seen 1 2 3 0")                    # and has checked nothing yet
    assert SharedDeck.parse(fresh.render()).seen["Dan"] == 0
    dealt = SharedDeck.parse(t.deck.render())
    dealt.deal("draw", "Ann")                                  # a card in a hand, nothing unlocked yet
    assert not dealt.seating_open()
    with pytest.raises(DeckSetupError, match="a seat can join a shared deck only before anything is dealt"):
        dealt.add_seat("Dan")
    t.write("Ann", lambda d: d.draw_face_up("draw", 1, to="table"))
    t.write("Ben")                                             # one unlock of a face-up card: no hand holds it
    opened = SharedDeck.parse(t.deck.render())
    assert not any(opened.hands.values()) and not opened.seating_open()
    with pytest.raises(DeckSetupError, match="only before anything is dealt"):
        opened.add_seat("Dan")


# -- the audit: every number re-derived from the revealed seeds -----------------------------------

def audited(t, edit=None, seeds=SEEDS):
    """Return the audit's problems with the last write, changed by ``edit`` (a function of the deck)."""
    deck = SharedDeck.parse(t.deck.render())
    if edit is not None:
        edit(deck)
    return deck.audit(seeds)


def test_the_audit_of_honest_writes_finds_nothing_and_deals_every_card(shuffled, dealt, face_up):
    for t in (shuffled, dealt, face_up):
        assert audited(t) == []
    dealt_cards, _ = SharedDeck.parse(dealt.deck.render()).derive(SEEDS)
    mine = SharedDeck.parse(dealt.deck.render()).learn("Cy", SEEDS["Cy"], {})
    assert sorted(dealt_cards.values()) == [f"c{i}" for i in range(8)] and all(dealt_cards[i] == c
                                                                                 for i, c in mine.items())


def test_the_audit_names_passes_out_of_order_a_missing_seed_and_a_key_the_seed_does_not_give(dealt):
    order = "generation 1: its passes are not one per seat in seat order"
    assert audited(dealt, lambda d: d.gens[0].passes.reverse()) == [order]
    assert audited(dealt, seeds={s: SEEDS[s] for s in ("Ann", "Ben")}) == [order]
    other = group.public_key(dealt.deck.key(SEEDS["Ben"], 2))
    assert audited(dealt, lambda d: setattr(d.gens[0].passes[1], "key", other)) == [
        "generation 1: Ben's published key is not the one their seed gives"]
    assert audited(dealt, lambda d: setattr(d.gens[0].passes[1], "key", None)) == []     # a symbolic pass: no key


def test_the_audit_names_a_face_up_card_the_deal_did_not_put_there(face_up):
    deck = face_up.deck
    sid = deck.piles["table"][0]
    down = next(i for i in range(1, 9) if i not in {s.index for s in deck.slots.values()})

    def other_card(d):
        d.slots[sid].index, d.slots[sid].card = down, d.cards[down - 1]

    assert audited(face_up, other_card) == [
        f"slot {sid}: the document shows {deck.cards[down - 1]}, the deal put {deck.slots[sid].card} there"]


def test_the_audit_names_whose_pass_or_unlock_gave_a_number_the_seeds_do_not(shuffled, dealt):
    def swap(d, a, b):
        d.slots[a].value, d.slots[b].value = d.slots[b].value, d.slots[a].value
        d.slots[a].base, d.slots[b].base = d.slots[b].base, d.slots[a].base

    def swap_in_pass(d):            # Cy's pass and the slots both show two numbers swapped
        values, proof = d.gens[0].passes[2].piles["draw"]
        d.gens[0].passes[2].piles["draw"] = ([values[1], values[0], *values[2:]], proof)
        swap(d, 1, 2)

    assert audited(shuffled, swap_in_pass) == [f"slot {i}: Cy's shuffle pass gave it a number the seeds do not give"
                                              for i in (1, 2)]
    top = dealt.deck.piles["draw"][0]
    assert audited(dealt, lambda d: swap(d, top, top + 1)) == [
        f"slot {i}: its number is not the deal's; the passes' proofs are pruned, so it was a pass"
        for i in (top, top + 1)]
    assert audited(dealt, lambda d: setattr(d.slots[1], "base", d.slots[2].base)) == [
        "slot 1: its number is not the deal's; the passes' proofs are pruned, so it was one of the unlocks by Ann "
        "or a pass"]

    def wrong_unlock(d):
        d.slots[1].steps[-1].value = d.slots[1].value = d.slots[2].value

    assert audited(dealt, wrong_unlock) == ["slot 1: Ben's unlock left a number the seeds do not give"]
    top = dealt.deck.piles["draw"][0]
    assert audited(dealt, lambda d: setattr(d.slots[top], "value", d.slots[top + 1].value)) == [
        f"slot {top}: its number is not the deal's with no unlock(s) removed (the document was altered)"]
    assert audited(dealt, lambda d: setattr(d.slots[1], "value", d.slots[top].value)) == [
        "slot 1: its number is not the deal's with Ann, Ben unlock(s) removed (the document was altered)"]


def copy_of(t):
    """Return a fresh copy of a table's deck, read from its text."""
    return SharedDeck.parse(t.deck.render())


def test_duties_are_described_in_seat_order_and_owed_only_by_who_has_not_done_them(shuffled):
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    assert [d.describe() for d in t.deck.duties] == ["Ann: lock and shuffle 8 cards"]
    t.write("Ann")
    assert [d.describe() for d in t.deck.duties] == ["Ben: lock and shuffle 8 cards"]
    deck = copy_of(shuffled)
    assert deck.duties == [] and deck.waiting_on() == []
    deck.draw_face_up("draw", 2, to="table")
    deck.deal("draw", "Ben", 1)
    assert [d.describe() for d in deck.duties] == [
        "Ann: unlock 2 card(s) to turn face up", "Ann: unlock 1 card(s) for Ben", "Ben: unlock 2 card(s) to turn face up",
        "Cy: unlock 2 card(s) to turn face up", "Cy: unlock 1 card(s) for Ben"]
    deck.slots[deck.hands["Ben"][0]].opened.append("Cy")          # Cy's unlock done: only Ann's is owed
    assert [d.describe() for d in deck.owed("Cy")] == ["Cy: unlock 2 card(s) to turn face up"]
    assert deck.waiting_on() == SEATS
    deck.settle("Ann", SEEDS["Ann"])
    assert deck.waiting_on() == ["Ben", "Cy"] and deck.owed("Ann") == []


def test_a_deal_takes_from_the_top_and_refuses_a_negative_count_an_unknown_seat_or_too_few_cards(shuffled):
    deck = copy_of(shuffled)
    pile = list(deck.piles["draw"])
    assert deck.top("draw") == pile[0] and deck.size("draw") == 8
    assert deck.deal("draw", "Ann", 0) == [] and deck.piles["draw"] == pile
    assert deck.deal("draw", "Ann", 2) == pile[:2] and deck.hands["Ann"] == pile[:2]
    assert deck.draw("draw", "Ann") == pile[2:3] and deck.hands["Ann"] == pile[:3]
    assert deck.deal("draw", "Ben", 5) == pile[3:] and deck.piles["draw"] == [] and deck.top("draw") is None
    deck = copy_of(shuffled)
    with pytest.raises(DeckMoveError, match="pile draw has 8 card\\(s\\), not -1"):
        deck.deal("draw", "Ann", -1)
    with pytest.raises(DeckMoveError, match="pile draw has 8 card\\(s\\), not 9"):
        deck.deal("draw", "Ann", 9)
    with pytest.raises(DeckMoveError, match="Zed has no seat at this deck"):
        deck.deal("draw", "Zed")
    assert deck.piles["draw"] == pile and deck.hands == {}
    t = Table({"draw": ["a", "b"]})
    t.write("Ann")
    with pytest.raises(DeckMoveError, match="pile draw is still being shuffled \\(waiting on Ben\\)"):
        t.deck.deal("draw", "Ann")


def test_face_up_cards_go_on_top_face_down_ones_to_the_bottom_and_public_moves_keep_their_place(shuffled):
    deck = copy_of(shuffled)
    pile = list(deck.piles["draw"])
    assert deck.draw_face_up("draw", 2, to="table") == pile[:2]
    assert deck.piles["table"] == [pile[1], pile[0]]                 # each card turned onto the last
    deck.draw_face_up("draw", 1, to="table")
    assert deck.piles["table"] == [pile[2], pile[1], pile[0]]
    assert all(deck.slots[i].want == "open" for i in pile[:3]) and deck.slots[pile[3]].want == ""
    assert deck.move_down("draw", "row", 1) == [pile[3]] and deck.move_down("draw", "row", 2) == pile[4:6]
    assert deck.piles["row"] == pile[3:6] and deck.slots[pile[3]].want == ""
    deck.move(pile[1], "row", top=False)
    deck.move(pile[0], "row")
    assert deck.piles["row"] == [pile[0], *pile[3:6], pile[1]] and deck.piles["table"] == [pile[2]]
    with pytest.raises(DeckMoveError, match=f"slot {pile[3]} is not face up in a pile"):
        deck.move(pile[3], "table")
    deck.take(pile[2], "Cy")
    assert deck.hands["Cy"] == [pile[2]] and deck.piles["table"] == []
    with pytest.raises(DeckMoveError, match=f"slot {pile[2]} is not face up in a pile"):
        deck.move(pile[2], "table")


def test_a_peeked_card_is_kept_or_discarded_and_only_its_holder_may_do_either(shuffled):
    deck = copy_of(shuffled)
    pile = list(deck.piles["draw"])
    assert deck.peek("draw", "Ben") == pile[0] and deck.aside == {"Ben": [pile[0]]}
    assert deck.holder(pile[0]) == "Ben" and deck.pile_of(pile[0]) is None
    with pytest.raises(DeckMoveError, match=f"Ann does not hold slot {pile[0]}"):
        deck.keep("Ann", pile[0])
    deck.keep("Ben", pile[0])
    assert deck.aside == {} and deck.hands == {"Ben": [pile[0]]}           # an emptied peek is gone
    deck.peek("draw", "Ben")
    deck.discard("Ben", pile[1])                                          # a peeked card straight to the discards
    assert deck.aside == {} and deck.piles["discard"] == [pile[1]] and deck.slots[pile[1]].want == "open"
    deck.discard("Ben", pile[0], to="out")
    assert deck.hands == {} and deck.piles["out"] == [pile[0]]
    deck.deal("draw", "Cy", 2)
    deck.discard("Cy", pile[2])
    deck.discard("Cy", pile[3])
    assert deck.piles["discard"] == [pile[3], pile[2], pile[1]]          # each discard on top
    with pytest.raises(DeckMoveError, match=f"Cy does not hold slot {pile[4]}"):
        deck.discard("Cy", pile[4])
    with pytest.raises(DeckMoveError, match=f"Ann does not hold slot {pile[4]}"):
        deck.reveal("Ann", pile[4])


def test_a_reshuffle_makes_new_slots_after_every_id_used_and_retires_the_old_ones_at_the_write_s_tick(face_up):
    deck = copy_of(face_up)
    table = list(deck.piles["table"])
    with pytest.raises(DeckMoveError, match="every card of draw must be face up before it is reshuffled"):
        deck.reshuffle("draw", "again")
    with pytest.raises(DeckMoveError, match="pile discard is not empty"):
        deck.reshuffle("table", "discard")
    clock = deck.clock
    new = deck.reshuffle("table", "again", keep_top=1)
    assert new == [9, 10] and deck.piles["again"] == new and deck.piles["table"] == table[:1]
    gen = deck.gens[-1]
    assert gen.number == 2 and gen.piles == {"again": new}
    assert gen.cards == sorted(deck.slots[i].index for i in table[1:])
    assert deck.retired == {i: clock + 1 for i in table[1:]}           # no write open: the next write's tick
    assert [deck.slots[i].gen for i in new] == [2, 2] and not deck.ready("again")
    assert [d.describe() for d in deck.duties] == ["Ann: lock and shuffle 2 cards"]
    deck.begin("Ann")
    assert deck.clock == clock + 1
    boxed = deck.box("draw")
    assert "draw" not in deck.piles and all(deck.retired[i] == clock + 1 for i in boxed) and len(boxed) == 4
    deck.gone = [11, 12]
    assert deck.reshuffle("discard", "third") == [13]                   # after the pruned ids too
    assert deck.box("nothing") == []


def test_settle_reports_its_pass_and_its_unlocks_and_only_unlocks_the_slots_asked():
    deck = SharedDeck.create("m", SEATS, {"draw": [f"c{i}" for i in range(5)]})
    assert deck.settle("Ann", SEEDS["Ann"]) == ["locked and shuffled 5 cards"]
    assert deck.settle("Ann", SEEDS["Ann"]) == []                          # nothing owed
    for seat in ("Ben", "Cy"):
        deck.settle(seat, SEEDS[seat])
    first, second, third = deck.draw_face_up("draw", 3)
    assert deck.settle("Ann", SEEDS["Ann"], only={first}) == ["unlocked 1 card"]
    assert deck.slots[first].opened == ["Ann"] and deck.slots[second].opened == []
    assert deck.settle("Ann", SEEDS["Ann"]) == ["unlocked 2 cards"]
    assert deck.settle("Ben", None) == ["unlocked 3 cards"]                # replayed: who unlocked, no numbers
    assert [deck.slots[i].steps[-1].value for i in (first, second, third)] == [None, None, None]


def test_a_deck_with_one_seat_keeps_every_proof_for_a_player_who_may_join():
    deck = SharedDeck.create("m", ["Solo"], {"draw": ["a", "b", "c"]})
    deck.settle("Solo", SEEDS["Ann"])
    (sid,) = deck.draw_face_up("draw", 1)
    deck.settle("Solo", SEEDS["Ann"])
    deck.settle("Solo", SEEDS["Ann"])
    assert deck.gens[0].passes[0].piles is not None and [st.seat for st in deck.slots[sid].steps] == ["Solo"]
    assert not deck.checked_by_all(0, None)


def test_while_a_reshuffle_is_shuffled_in_the_older_generation_s_numbers_are_still_checked():
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.draw_face_up("draw", 2, to="table"))
    for seat in ("Ben", "Cy"):
        t.write(seat)
    t.write("Ann", lambda d: d.reshuffle("table", "again"))      # Ann's pass of generation 2 done, Ben's and Cy's owed
    t.write("Ben")
    top = t.deck.piles["draw"][0]
    assert checked(t, "Ann") == []
    foreign = group.code("a number from nowhere")
    assert checked(t, "Ann", lambda d: (setattr(d.slots[top], "value", foreign), setattr(d.slots[top], "base", foreign))) == [
        f"slot {top}: its number changed since you last saw it, with no proof (numbers swapped or replaced)"]


def test_card_and_seat_names_are_escaped_and_runs_of_numbers_written_as_ranges_and_read_back():
    cards = ["1", "2", "3", "5", "07", "08", "a b", "x,y", "50%", "·", "@1", "#", "=2", "\t", "", "3-4", "é", "10",
             "11", "9", "9", "0", "-", "1-"]
    deck = SharedDeck.create("m", ["Ann B", "C,D", "50%"], {"draw": cards})
    deck.piles["draw"] = [24, 1, 2, 3, 10, 12, 11, *range(13, 24), *range(4, 10)]
    lines = deck.render()
    assert lines[:2] == ["  deck m v4 · seats Ann%20B, C%2CD, 50%25 · clock 0 · seen 0 0 0",
                         "  cards 1-3 5 07 08 a%20b x%2Cy 50%25 %B7 %401 %23 %3D2 %09 % 3%2D4 é 10-11 9 9 0 - 1-"]
    assert "  pile draw 24 1-3 10 12 11 13-23 4-9" in lines and "  gen 1 · draw 1-24 · cards 1-24" in lines
    again = SharedDeck.parse(lines)
    assert again.cards == cards and again.seats == ["Ann B", "C,D", "50%"] and again.piles == deck.piles
    for tail, written in ((["x", "7"], "x 7"), (["x", "7", "8", "9"], "x 7-9")):      # a manifest ending in a run
        assert SharedDeck.create("m", ["Ann"], {"draw": tail}).render()[1] == f"  cards {written}"
    deck.piles["empty"] = []
    assert "  pile empty -" in deck.render() and SharedDeck.parse(deck.render()).piles["empty"] == []
    assert again.render() == lines


@pytest.fixture(scope="module")
def reshuffled():
    """Two face-up cards reshuffled into a new pile, every pass done, a card dealt, the old slots and passes pruned."""
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.draw_face_up("draw", 2, to="table"))
    for seat in ("Ben", "Cy"):
        t.write(seat)
    t.old = t.deck.render()
    t.write("Ann", lambda d: d.reshuffle("table", "again"))
    for seat in ("Ben", "Cy"):
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 1))
    for seat in ("Ben", "Cy", "Ann", "Ben", "Cy"):
        t.write(seat)
    assert t.deck.gone == [1, 2] and not t.deck.retired and all(p.piles is None for g in t.deck.gens for p in g.passes)
    return t


def test_a_pruned_slot_brought_back_or_a_slot_moved_to_another_generation_is_refused(reshuffled):
    old = next(ln for ln in reshuffled.old if ln.startswith("  slot 1 "))
    lines = [ln for ln in reshuffled.deck.render() if not ln.startswith(("  gone ", "  pile table"))]
    lines += ["  pile table 1", old.split(" · ")[0]]
    assert SharedDeck.parse(lines).verify(SharedDeck.parse(reshuffled.records["Ann"]), seat="Ann") == [
        "slot 1 appeared out of nowhere"]

    def moved(d):                   # slot 8 of generation 1 listed in generation 2
        d.gens[0].piles["draw"].remove(8)
        d.gens[1].piles["again"].append(8)
        d.gens[1].cards.append(d.gens[0].cards.pop())

    assert checked(reshuffled, "Ann", moved) == ["generation 1's piles or cards changed",
                                                 "generation 2's piles or cards changed", "slot 8 changed generation"]


def test_the_shuffle_is_fisher_yates_on_the_seed_s_draws_a_known_answer():
    """Every pbd must deal the same cards from the same seeds (the audit re-derives them): the order is fixed."""
    from pbd.table.deck import shuffle

    seed = b"s" * 32
    assert shuffle(list(range(10)), seed, "m|gen1|draw") == [5, 9, 1, 3, 0, 7, 2, 8, 4, 6]
    assert shuffle([0, 1], seed, "x") == [1, 0] and shuffle([0, 1], b"t" * 32, "x") == [0, 1]
    assert shuffle([], seed, "x") == [] and shuffle([7], seed, "x") == [7]
    orders = {tuple(shuffle([0, 1, 2], bytes([i]) * 32, "x")) for i in range(40)}
    assert len(orders) == 6                                 # every order of three cards is dealt


def test_with_two_seats_a_proof_goes_once_the_other_seat_has_written_after_it():
    deck = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a", "b", "c", "d"]})
    deck.settle("Ann", SEEDS["Ann"])
    deck.writer = None
    deck.settle("Ben", SEEDS["Ben"])
    deck.writer = None
    deck.deal("draw", "Ann", 1)                     # nothing may join now: passes go once checked
    assert [p.piles is not None for p in deck.gens[0].passes] == [True, True]
    deck.settle("Ann", SEEDS["Ann"])                # Ann has checked Ben's pass; Ben checked Ann's at his
    assert [p.piles is not None for p in deck.gens[0].passes] == [False, False]
    deck.writer = None
    deck.settle("Ben", SEEDS["Ben"])                # Ben's unlock for Ann, stamped at his write
    (sid,) = deck.hands["Ann"]
    assert [st.seat for st in deck.slots[sid].steps] == ["Ben"] and deck.gens[0].passes[1].piles is None
    deck.writer = None
    deck.settle("Ann", SEEDS["Ann"])                # Ann, the only other seat, has written after it
    assert deck.slots[sid].steps == [] and deck.slots[sid].opened == ["Ben"]
    assert deck.checked_by_all(deck.seen["Ben"], "Ben") and not deck.checked_by_all(deck.seen["Ann"], "Ann")


def test_a_card_reads_only_where_its_holder_s_pbd_could_read_it(dealt, face_up):
    deck = copy_of(dealt)
    first, second = deck.hands["Cy"]
    mine = deck.learn("Cy", SEEDS["Cy"], {})
    assert deck.card(first, "Cy") == mine[first] and deck.card(first, "Ben") is None and deck.card(99, "Cy") is None
    assert deck.readable("Cy", second) and not deck.readable("Ann", second)
    assert deck.hand_cards("Cy") == [mine[first], mine[second]] and deck.hand_cards("Ann") == []
    assert deck.named("Cy", mine[second]) == second and deck.named("Cy", mine[second], first) is None
    assert deck.named("Ben", mine[second]) is None
    other = next(c for c in deck.cards if c not in mine.values())
    assert deck.named("Cy", other) is None
    audit = copy_of(dealt)                          # an audit with every seed: the deal, read where Cy could
    audit.dealt = audit.derive(SEEDS)[0]
    assert audit.card(first, "Cy") == mine[first] and audit.card(first, "Ann") is None
    top = audit.piles["draw"][0]
    assert audit.card(top, "Cy") is None            # in no hand: nobody reads it
    audit.slots[first].opened.remove("Ann")         # Ann's unlock not done yet: not even Cy reads it
    assert audit.card(first, "Cy") is None
    shown = copy_of(face_up)
    sid = shown.piles["table"][0]
    assert shown.find(shown.slots[sid].card) == sid and shown.card(sid, "Ann") == shown.slots[sid].card
    shown.retired[sid] = shown.clock
    assert shown.find(shown.slots[sid].card) is None and shown.find("no such card") is None


def test_replayed_without_the_seeds_a_named_card_is_taken_to_be_a_hidden_slot_its_owner_could_read(dealt):
    board = copy_of(dealt)
    replay = copy_of(dealt)
    replay.oracle = board
    first, second = replay.hands["Cy"]
    assert replay.card(first, "Cy") is None
    assert replay.named("Cy", "c5") == first and replay.card(first, "Cy") == "c5" == replay.card(first, "Ann")
    assert replay.named("Cy", "c6", second) == second and replay.known == {first: "c5", second: "c6"}
    assert replay.named("Cy", "not a card") is None and replay.named("Ann", "c7") is None
    replay.slots[second].opened.remove("Ann")
    replay.known.clear()
    assert replay.named("Cy", "c6", second) is None                 # not unlocked by Ann yet: Cy could not read it
    board.slots[first].index, board.slots[first].card = 3, "c2"     # the document shows it face up: that is the card
    assert replay.card(first, "Ben") == "c2"


def test_a_hand_card_is_read_once_every_other_seat_has_unlocked_it_and_decrypted_once(shuffled):
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 2))
    assert copy_of(t).learn("Cy", SEEDS["Cy"], {}) == {}           # Ben's unlocks still owed
    t.write("Ben")
    cache = {}
    mine = copy_of(t).learn("Cy", SEEDS["Cy"], cache)
    assert len(mine) == 2 and sorted(cache.values()) == sorted(t.deck.cards.index(c) + 1 for c in mine.values())
    first, second = t.deck.hands["Cy"]
    poisoned = {tag: (index % 8) + 1 for tag, index in cache.items()}  # the seat's own cache is trusted
    shifted = t.deck.cards[(t.deck.cards.index(mine[first]) + 1) % 8]
    assert copy_of(t).learn("Cy", SEEDS["Cy"], poisoned)[first] == shifted
    deck = copy_of(t)
    deck.known[first] = "told"                                      # a card read already is not read again
    assert deck.learn("Cy", SEEDS["Cy"], {})[first] == "told"


def test_a_seat_with_no_record_yet_checks_every_standing_pass(shuffled):
    """A joiner's (or an auditor's) first look: no record, so every pass that stands is checked from the codes."""
    def swap_in_pass(d):
        values, proof = d.gens[0].passes[1].piles["draw"]
        d.gens[0].passes[1].piles["draw"] = ([values[1], values[0], *values[2:]], proof)

    deck = copy_of(shuffled)
    assert deck.verify(None) == []
    swap_in_pass(deck)
    assert SharedDeck.parse(deck.render()).verify(None) == [
        "generation 1: Ben's shuffle pass of draw carries no valid proof (its numbers are not the previous ones, each "
        "locked with its key and shuffled within its pile: the document was altered, or a player's pbd cheated)"]


def test_a_symbolic_replay_adopts_the_document_s_numbers_where_it_agrees_with_it(dealt, reshuffled):
    from pbd.table.deck import Slot

    board = copy_of(dealt)
    replay = SharedDeck.create("m1", SEATS, {"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        replay.settle(seat, None)
    replay.deal("draw", "Cy", 2)
    for seat in ("Ann", "Ben"):
        replay.settle(seat, None)
    replay.slots[3].opened = ["Ann"]                 # where the replay disagrees, it keeps its own
    replay.adopt(board)
    assert (replay.clock, replay.seen, replay.gone) == (board.clock, board.seen, board.gone)
    assert [(p.key, p.stamp) for p in replay.gens[0].passes] == [(p.key, p.stamp) for p in board.gens[0].passes]
    for i in (1, 2, 4):
        mine, theirs = replay.slots[i], board.slots[i]
        assert (mine.value, mine.base, mine.opened) == (theirs.value, theirs.base, theirs.opened)
        assert [(st.seat, st.value, st.proof, st.stamp) for st in mine.steps] == [
            (st.seat, st.value, st.proof, st.stamp) for st in theirs.steps]
    assert replay.slots[3].value != board.slots[3].value and replay.slots[3].opened == ["Ann"]
    board = copy_of(reshuffled)
    replay = copy_of(reshuffled)
    replay.slots[1], replay.retired[1] = Slot(1, None), 3           # pruned in the document: pruned here too
    replay.slots[2] = Slot(2, None)                                 # not retired here: kept
    replay.slots[3].index, replay.slots[3].card = 4, "c3"
    replay.retired[3] = 1
    board.retired[3] = 9                                            # retired in both: the document's stamp
    replay.adopt(board)
    assert 1 not in replay.slots and 1 not in replay.retired and 2 in replay.slots and replay.retired == {3: 9}


def test_a_batch_of_last_unlocks_with_a_card_changed_names_every_card_it_claims():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    a, b = t.write("Ann", lambda d: d.draw_face_up("draw", 2, to="table"))
    t.write("Ben")
    t.write("Cy")                                   # Cy's two unlocks are the last: they show both cards, one proof
    index = t.deck.slots[b].index
    wrong = next(i for i in range(1, 7) if i not in (index, t.deck.slots[a].index))

    def other_card(d):
        d.slots[b].index, d.slots[b].card = wrong, d.cards[wrong - 1]

    assert checked(t, "Ann", other_card) == [
        f"slots {a}-{b}: Cy's unlocks (slot {a} claims {t.deck.slots[a].card}) (slot {b} claims c{wrong - 1}), "
        "proven together, carry no valid proof (one of them is a wrong unlock, or the proof is forged)"]


def test_the_operations_default_to_one_card_to_the_table_on_top_and_to_reshuffling_every_card(shuffled):
    deck = copy_of(shuffled)
    pile = list(deck.piles["draw"])
    assert deck.draw_face_up("draw") == pile[:1] and deck.piles["table"] == pile[:1]
    assert deck.move_down("draw", "row") == pile[1:2] and deck.deal("draw", "Ann") == pile[2:3]
    deck.draw_face_up("draw", 2, to="other")
    deck.move(pile[3], "table")
    assert deck.piles["table"] == [pile[3], pile[0]]
    for i in (pile[0], pile[3], pile[4]):          # as if every seat had unlocked them
        deck.slots[i].index, deck.slots[i].card = i, deck.cards[i - 1]
    deck.move(pile[4], "table")
    assert deck.reshuffle("table", "again") == [9, 10, 11] and deck.piles["table"] == []


def test_a_forged_first_unlock_is_refused_by_a_seat_with_no_record():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 2))
    t.write("Ben")                                  # Cy's cards carry Ann's unlocks, then Ben's
    deck = copy_of(t)
    first = deck.hands["Cy"][0]
    assert [st.seat for st in deck.slots[first].steps] == ["Ann", "Ben"] and deck.verify(None) == []
    proof = deck.slots[first].steps[0].proof
    for i in deck.hands["Cy"]:
        deck.slots[i].steps[0].proof = (proof[0], (proof[1] + 1) % group.L)
    assert SharedDeck.parse(deck.render()).verify(None) == [
        f"slots {first}-{first + 1}: Ann's unlocks, proven together, carry no valid proof (one of them is a wrong "
        "unlock, or the proof is forged)"]


def test_a_lone_last_unlock_with_its_card_changed_names_the_card_it_claims():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    (sid,) = t.write("Ann", lambda d: d.draw_face_up("draw", 1, to="table"))
    t.write("Ben")
    t.write("Cy")
    wrong = 1 if t.deck.slots[sid].index != 1 else 2

    def other_card(d):
        d.slots[sid].index, d.slots[sid].card = wrong, d.cards[wrong - 1]

    assert checked(t, "Ann", other_card) == [
        f"slot {sid}: Cy's unlock and claims c{wrong - 1} carries no valid proof (a wrong unlock or a forged proof)"]


def test_ranges_of_one_id_read_and_a_range_past_the_bound_is_refused(dealt):
    lines = dealt.deck.render()
    assert SharedDeck.parse(edited(lines, "  pile draw", "  pile draw 3-3 4-8")).piles["draw"] == list(range(3, 9))
    for pile, token in (("1-5000 1-5000", "1-5000"), ("", "1-1")):     # 8,000 ids at most; 8 cards at most
        limit = {"1-1": "  gen 1 · draw 1-8 · cards 1-8 1-1"}.get(token)
        text = edited(lines, "  gen 1", limit) if limit else edited(lines, "  pile draw", f"  pile draw {pile}")
        refused(text, f"the range '{token}' is not valid")
    lead = lines[0].replace("clock 6 · seen 4 5 6", "clock {} · seen 4 5 6")
    for ten_digits in ("1000000000", "0000000007"):        # ten digits: refused even at or under the bound
        refused(edited(lines, "  deck", lead.format(ten_digits)), f"expected the clock \\(a number up to "
                                                                  f"1000000000\\), not '{ten_digits}'")


def test_a_long_shuffle_proof_is_written_in_lines_of_4000_characters_and_read_back():
    deck = SharedDeck.create("m", ["Ann", "Ben"], {"draw": [f"c{i}" for i in range(30)]})
    deck.settle("Ann", SEEDS["Ann"])
    lines = deck.render()
    proof = [ln.split()[-1] for ln in lines if ln.startswith("  proof 1 1 draw ")]
    assert [len(part) for part in proof] == [4000, 96]
    assert SharedDeck.parse(lines).gens[0].passes[0].piles == deck.gens[0].passes[0].piles


def test_a_caret_or_a_batch_proof_where_none_can_be_is_refused(shuffled, dealt):
    standing = shuffled.deck.render()
    assert "  slot 1 ^" in standing
    pruned = [ln for ln in standing if not ln.startswith("  proof 1 3 ")]
    pruned = edited(pruned, "  pass 1 3", lambda ln: ln.rsplit(" ", 1)[0])
    refused(pruned, "slot 1: '\\^' stands for the number the last shuffle pass of generation 1 gave it, but no such "
                    "pass stands in the document")
    one = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a"]}).render()
    refused(one[:-1] + ["  slot 1 ^"], "slot 1: '\\^' stands for the number the last shuffle pass of generation 1")
    lines = dealt.deck.render()
    slot1, slot2 = (next(ln for ln in lines if ln.startswith(f"  slot {i} ")) for i in (1, 2))
    proof = slot1.split(" · ")[1].split()[2]
    refused(edited(lines, "  slot 1 ", slot1.replace(f" {proof}", "")),
            "slot 1: Ben's unlock @5 has no proof, and it is the first of Ben's unlocks of generation 1 written at "
            "@5, which carries their one proof")
    refused(edited(lines, "  slot 2 ", slot2.replace(" @5", f" {proof} @5")),
            "slot 2: a second proof for Ben's unlocks of generation 1 written at @5 \\(they share one, written on slot 1\\)")


def test_a_slot_with_more_unlocks_than_seats_can_give_is_refused_and_a_peek_reads_back(shuffled):
    lines = SharedDeck.create("m", ["Ann", "Ben"], {"draw": ["a"]}).render()
    value = lines[-1].split()[2]

    def stepped(n):
        return lines[:-1] + [lines[-1] + "".join(f" · {1 + k % 2} {value} - @1" for k in range(n))]

    refused(stepped(17), "line 5: shared deck: slot 1 has too many unlocks")
    refused(stepped(16), "line 5: shared deck: slot 1: 'by' must list each seat that unlocked it once")
    deck = copy_of(shuffled)
    sid = deck.peek("draw", "Ben")
    again = SharedDeck.parse(deck.render())
    assert again.aside == {"Ben": [sid]} and again.hands == {} and "  aside 2 " + str(sid) in deck.render()


def test_one_write_s_batch_may_hold_steps_at_different_places_in_their_slots():
    """Cy unlocks, in one write, a card whose earlier unlock was pruned and one whose earlier unlock still stands."""
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    (dealt,) = t.write("Ann", lambda d: d.deal("draw", "Ben", 1))
    (shown,) = t.write("Ben", lambda d: d.draw_face_up("draw", 1, to="table"))
    t.write("Cy")                                   # Ann's unlock of Ben's card goes; Ben's of the face-up one stays
    assert [st.seat for st in t.deck.slots[dealt].steps] == ["Cy"]
    assert [st.seat for st in t.deck.slots[shown].steps] == ["Ben", "Cy"]
    for seat in ("Ann", "Ben"):
        assert checked(t, seat) == []


# -- SharedDeck.named: which slot a card a move names left from ------------------------------------

def replayed(t):
    """Return the deck of ``t`` as a replay without the seeds reads it (the document's deck as its oracle)."""
    deck = SharedDeck.parse(t.deck.render())
    deck.oracle = SharedDeck.parse(t.deck.render())
    return deck


def test_a_replay_takes_a_hidden_slot_for_a_card_of_the_deck_and_none_for_a_name_it_lacks(dealt):
    deck = replayed(dealt)
    hand = deck.hands["Cy"]
    assert [deck.card(i, "Cy") for i in hand] == [None, None]          # unlocked for Cy, unread by the replay
    assert deck.named("Cy", "joker") is None and deck.known == {}        # not a card of the deck: no slot is it
    assert deck.named("Cy", "c5") == hand[0] and deck.known == {hand[0]: "c5"}   # reads as it from then on


def test_an_audit_holding_every_seed_takes_the_first_slot_that_reads_as_the_card_even_if_reserved(dealt):
    deck = replayed(dealt)
    deck.dealt = deck.derive(SEEDS)[0]
    hand = deck.hands["Cy"]
    deck.reserved = {hand[0]}
    assert deck.named("Cy", "c0", same=lambda card: True) == hand[0]
    deck.dealt = None                                   # without the seeds, a reserved slot is taken last
    assert deck.named("Cy", "c0", same=lambda card: True) == hand[1]
