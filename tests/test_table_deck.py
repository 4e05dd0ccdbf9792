"""The table kit at module level: the group, the shared deck with three seats, secret choice.

Each seat "writes" in turn: it verifies the deck against its private record (the deck as
it last wrote it), does its duties, and renders the deck to text, which the next seat
parses — as pbd does through a document.
"""

from __future__ import annotations

import pytest

from pbd import fairplay
from pbd.errors import DocumentFormatError
from pbd.table import group, secret
from pbd.table.deck import SharedDeck

SEATS = ["Ann", "Ben", "Cy"]
SEEDS = {s: fairplay.seed_from_text(s) for s in SEATS}


class Table:
    """Three seats sharing one deck through its text form."""

    def __init__(self, piles):
        self.deck = SharedDeck.create("m1", SEATS, piles)
        self.records: dict[str, list[str]] = {}

    def write(self, seat, op=None):
        """Verify, apply ``op`` (a game's move), settle the seat's duties, render; return the summary."""
        deck = SharedDeck.parse(self.deck.render()) if self.records else self.deck
        previous = SharedDeck.parse(self.records[seat]) if seat in self.records else None
        problems = deck.verify(previous, seat=seat)
        assert not problems, (seat, problems)
        deck.learn(seat, SEEDS[seat])
        out = op(deck) if op else None
        deck.settle(seat, SEEDS[seat])
        self.records[seat] = deck.render()
        assert SharedDeck.parse(self.records[seat]) == deck and SharedDeck.parse(self.records[seat]).render() == \
            self.records[seat]
        self.deck = deck
        return out

    def tamper(self, edit):
        """Return the problems the next seat finds after ``edit`` changed the rendered deck."""
        lines = edit(self.deck.render())
        return lines


@pytest.fixture(scope="module")
def table():
    t = Table({"draw": [f"c{i}" for i in range(12)]})
    for seat in SEATS:                      # the shuffle-in: one pass each, in seat order
        assert t.deck.waiting_on() == [seat]
        t.write(seat)
    return t


def test_group_membership_keys_and_proofs():
    k = group.derive_key(b"s" * 32, "x")
    y = group.public_key(k)
    x = group.code("card")
    assert group.is_member(x) and group.is_member(y) and not group.is_member(group.P - x) and not group.is_member(1)
    locked = group.lock(x, k)
    proof = group.prove(k, x, locked, "ctx")
    assert group.verify(y, x, locked, proof, "ctx")
    assert not group.verify(y, x, locked, proof, "other context")
    assert not group.verify(y, x, group.lock(x, k + 1), proof, "ctx")
    assert not group.verify(y, x, locked, (proof[0], proof[1] + 1), "ctx")
    assert group.unlock(locked, k) == x
    assert group.decode_proof(group.encode_proof(proof)) == proof


def test_a_non_residue_survives_locking_and_marks_a_card_so_it_is_refused():
    # the attack: a number outside the group keeps its quadratic character through every odd lock
    x = group.P - group.code("card")                       # -code: a non-residue (P = 3 mod 4)
    k = group.derive_key(b"t" * 32, "x") | 1
    assert pow(group.lock(x, k), group.Q, group.P) == group.P - 1   # still a non-residue: the card is marked
    with pytest.raises(ValueError, match="not in the dealing group"):
        group.decode(group.encode(x))


def test_shuffle_in_deal_unlock_and_read_with_three_seats(table):
    deck = table.deck
    assert all(deck.complete(g) for g in deck.gens) and deck.ready("draw") and deck.duties == []
    table.write("Ann", lambda d: d.deal("draw", "Ann", 3))
    assert [x.describe() for x in table.deck.duties] == ["Ben: unlock 3 card(s) for Ann", "Cy: unlock 3 card(s) for Ann"]
    assert table.deck.waiting_on() == ["Ben", "Cy"]
    table.write("Ben")
    table.write("Cy")
    deck = table.deck
    cards = deck.learn("Ann", SEEDS["Ann"])
    assert len(cards) == 3 and set(cards.values()) <= set(deck.cards)
    assert deck.hand_cards("Ann") == [cards[i] for i in deck.hands["Ann"]]
    assert deck.hand_cards("Ben") == [] and deck.card(deck.hands["Ann"][0], "Ben") is None


def test_draw_face_up_peek_keep_discard_reveal_show_and_reshuffle(table):
    ann_first = table.deck.hands["Ann"][0]
    table.write("Ann", lambda d: (d.draw_face_up("draw", 2, to="discard"), d.discard("Ann", ann_first)))
    table.write("Ben", lambda d: d.peek("draw", "Ben"))
    table.write("Cy")
    table.write("Ann")
    deck = table.deck
    assert len(deck.piles["discard"]) == 3 and all(deck.slots[i].card for i in deck.piles["discard"])
    peeked = deck.aside["Ben"][0]
    table.write("Ben", lambda d: (d.learn("Ben", SEEDS["Ben"]), d.keep("Ben", peeked)))
    assert table.deck.hands["Ben"] == [peeked]
    shown = table.write("Ann", lambda d: d.show_hand("Ann"))
    assert len(shown) == 2 and all(shown)
    table.write("Ben")
    table.write("Cy")
    assert all(table.deck.slots[i].card for i in table.deck.hands["Ann"])
    # a public pile becomes a new face-down pile: a pass by every seat, in order, over several writes
    discards = sorted(table.deck.slots[i].card for i in table.deck.piles["discard"][1:])
    new = table.write("Ann", lambda d: d.reshuffle("discard", "again", keep_top=1))
    assert not table.deck.ready("again") and table.deck.waiting_on() == ["Ben"]
    for seat in ["Ben", "Cy"]:
        table.write(seat)
    assert table.deck.ready("again") and table.deck.piles["again"] == new
    table.write("Ann", lambda d: d.deal("again", "Cy", 2))
    table.write("Ann")
    table.write("Ben")
    cards = table.write("Cy", lambda d: d.learn("Cy", SEEDS["Cy"]))
    assert sorted(cards[i] for i in new) == discards
    assert table.deck.derive(SEEDS)[1] == [] and table.deck.audit(SEEDS) == []


def test_proofs_and_retired_slots_are_pruned_once_every_seat_has_checked_them(table):
    for seat in SEATS:
        table.write(seat)
    deck = table.deck
    assert all(not s.steps for s in deck.slots.values()) and not deck.retired and deck.gone
    assert all(p.product is None for g in deck.gens for p in g.passes)


def _tampered(table, seat, edit):
    lines = edit(table.deck.render())
    try:
        deck = SharedDeck.parse(lines)
    except DocumentFormatError as exc:
        return [exc.message]
    return deck.verify(SharedDeck.parse(table.records[seat]), seat=seat)


def test_every_tampering_is_named_by_the_next_honest_seat():
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 2))
    t.write("Ben")                                      # Ben unlocked Cy's cards: Cy's and Ann's turn to check
    lines = t.deck.render()
    ids = t.deck.hands["Cy"]
    step = next(ln for ln in lines if ln.startswith(f"  slot {ids[0]} "))
    other = next(ln for ln in lines if ln.startswith(f"  slot {t.deck.piles['draw'][0]} "))

    def swap(ls):          # a dealt number and a pile number trade places
        a, b = step.split(" · ")[0].split()[2], other.split()[2]
        return [ln.replace(a, "§").replace(b, a).replace("§", b) for ln in ls]

    def forge(ls):         # Ben's proof on Cy's card is altered
        proof = step.split(" · ")[1].split()[2]
        return [ln.replace(proof, proof[:-2] + ("AA" if not proof.endswith("AA") else "BB")) for ln in ls]

    def non_residue(ls):
        value = other.split()[2]
        bad = group.encode(group.P - group.decode(value))
        return [ln.replace(value, bad) for ln in ls]

    assert any("numbers swapped or replaced" in p for p in _tampered(t, "Ann", swap))
    assert any("no valid proof" in p for p in _tampered(t, "Cy", forge))
    assert any("not in the dealing group" in p for p in _tampered(t, "Ann", non_residue))
    assert any("slot" in p and "appeared" in p or "no slot line" in p or "taken from below" in p
               for p in _tampered(t, "Ann", lambda ls: [ln for ln in ls if not ln.startswith(other[:12])]))


def test_a_wrong_final_unlock_naming_another_card_is_caught():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.draw_face_up("draw", 1, to="table"))
    t.write("Ben")
    t.write("Cy")                                       # Cy's unlock is the last: it publishes the code
    sid = t.deck.piles["table"][0]
    index = t.deck.slots[sid].index
    wrong = 1 if index != 1 else 2
    problems = _tampered(t, "Ann", lambda ls: [ln.replace(f"={index} ", f"={wrong} ") for ln in ls])
    assert any(f"claims c{wrong - 1}" in p and "no valid proof" in p for p in problems)


def test_secret_choice_commit_then_reveal_and_a_mismatch_is_caught():
    choice = secret.Choices("battle-1", ["Ann", "Ben"])
    choice.choose("Ann", 3, [3, 4], SEEDS["Ann"], "m1")
    with pytest.raises(ValueError, match="waiting for Ben"):
        choice.reveal("Ann", 3, SEEDS["Ann"], "m1")
    with pytest.raises(ValueError, match="not in Ben's hand"):
        choice.choose("Ben", 9, [7, 8], SEEDS["Ben"], "m1")
    choice.choose("Ben", 8, [7, 8], SEEDS["Ben"], "m1")
    assert choice.all_committed() and choice.waiting_on() == ["Ann", "Ben"]
    choice.reveal("Ann", 3, SEEDS["Ann"], "m1")
    choice.reveal("Ben", 8, SEEDS["Ben"], "m1")
    again = secret.Choices.parse(choice.render())
    assert again == choice and again.check("m1") == [] and again.chosen() == {"Ann": 3, "Ben": 8}
    again.reveals["Ben"] = (7, again.reveals["Ben"][1])           # Ben claims another card afterwards
    assert any("does not match Ben's commitment" in p for p in again.check("m1"))
    with pytest.raises(ValueError, match="not what Ann committed to"):
        choice.reveal("Ann", 4, SEEDS["Ann"], "m1")
    assert secret.open_("Ann", choice.commitments["Ann"], 3, secret.nonce(SEEDS["Ann"], "m1", "battle-1"),
                        hand=[3], match="m1")


def test_parse_is_bounded_and_names_the_line():
    lines = SharedDeck.create("m1", ["Ann", "Ben"], {"draw": ["a", "b"]}).render()
    for bad, words in [(lines + ["  pile huge 1-99999999"], "slot number"),
                       ([ln for ln in lines if not ln.startswith("  slot 1 ")] + ["  slot 1 zzz"], "characters"),
                       (lines[:1] + ["  cards 1-999999"], "card range"),
                       (["  nonsense"], "first line")]:
        with pytest.raises(DocumentFormatError, match=words):
            SharedDeck.parse(bad)
