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
from pbd.table.deck import SharedDeck, _batches
from pbd.table.shuffle import ShuffleProof

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
    assert group.is_member(x) and group.is_member(y) and not group.is_member(group.IDENTITY)
    locked = group.lock(x, k)
    proof = group.prove(k, x, locked, "ctx")
    assert group.verify(y, x, locked, proof, "ctx")
    assert not group.verify(y, x, locked, proof, "other context")
    assert not group.verify(y, x, group.lock(x, k + 1), proof, "ctx")
    assert not group.verify(y, x, locked, (proof[0], proof[1] + 1), "ctx")
    assert group.unlock(locked, k) == x
    assert group.decode_proof(group.encode_proof(proof)) == proof
    assert len(group.encode(x)) == 43 and len(group.encode_proof(proof)) == 64


# Points of small order on edwards25519 (the identity and the 2-, 4- and 8-torsion), as libsodium lists them.
SMALL_ORDER = ["0100000000000000000000000000000000000000000000000000000000000000",
               "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
               "0000000000000000000000000000000000000000000000000000000000000080",
               "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"]


@pytest.mark.parametrize("hex_point", SMALL_ORDER)
def test_a_point_with_a_small_order_part_marks_a_card_so_it_is_refused(hex_point):
    # the attack: a point plus a small-order point keeps that part through every lock of odd order
    # 8-torsion component, so the card it marks can be followed; libsodium's membership test refuses it
    torsion = bytes.fromhex(hex_point)
    marked = group.add(group.code("card"), torsion) if torsion != group.IDENTITY else torsion
    with pytest.raises(ValueError, match="not a point of the dealing group"):
        group.decode(group.encode(marked))


def test_a_non_canonical_encoding_and_the_generator_as_a_key_are_refused():
    x = group.code("card")
    y_plus_p = (int.from_bytes(group.IDENTITY, "little") + 2 ** 255 - 19).to_bytes(32, "little")   # 1 + p: not canonical
    for bad in (y_plus_p, b"\xff" * 32):
        with pytest.raises(ValueError):
            group.decode(group.b64(bad))
    assert group.key_problem(group.G) and group.key_problem(x, [x]) and group.key_problem(x) is None
    with pytest.raises(ValueError):
        group.decode(group.encode(x)[:-1] + ("A" if group.encode(x)[-1] != "A" else "B"))


def test_one_batched_proof_covers_every_unlock_of_a_batch_and_nothing_else():
    """Issue 25: one seat's unlocks share one Chaum–Pedersen proof over a hashed random linear combination."""
    k = group.derive_key(b"s" * 32, "batch")
    y = group.public_key(k)
    xs = [group.code(f"b{i}") for i in range(4)]
    pairs = [(x, group.lock(x, k)) for x in xs]             # (number after the unlock, number before)
    proof = group.prove_batch(k, pairs, "ctx")
    assert group.verify_batch(y, pairs, proof, "ctx")
    assert not group.verify_batch(y, pairs[:3], proof, "ctx")                          # a pair dropped
    assert not group.verify_batch(y, [pairs[1], pairs[0], *pairs[2:]], proof, "ctx")  # two pairs reordered
    assert not group.verify_batch(y, pairs, proof, "other context")
    assert not group.verify_batch(group.public_key(k + 1), pairs, proof, "ctx")
    assert not group.verify_batch(y, pairs, (proof[0], (proof[1] + 1) % group.L), "ctx")
    for wrong in ((xs[2], group.lock(xs[2], k + 1)), (xs[2], pairs[3][1]), (xs[3], pairs[2][1])):
        bent = [*pairs[:2], wrong, *pairs[3:]]              # one wrong unlock, the honest prover run on it
        assert not group.verify_batch(y, bent, group.prove_batch(k, bent, "ctx"), "ctx")
    assert not group.verify_batch(y, [], proof, "ctx")


def test_a_batch_is_written_with_one_proof_and_pruned_whole():
    t = Table({"draw": [f"c{i}" for i in range(8)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Cy", 3))
    t.write("Ben")                                      # Ben unlocks Cy's three cards in one write: one batch
    ids = t.deck.hands["Cy"]
    lines = {int(ln.split()[1]): ln for ln in t.deck.render() if ln.startswith("  slot ")}
    steps = [lines[i].split(" · ")[1].split() for i in ids]
    assert [len(st) for st in steps] == [4, 3, 3] and len(steps[0][2]) == 64          # the proof on the first
    assert len({t.deck.slots[i].steps[-1].proof for i in ids}) == 1
    t.write("Cy")                                       # Ann has not checked Ben's batch yet: it stays, whole
    assert [[st.seat for st in t.deck.slots[i].steps] for i in ids] == [["Ben"]] * 3
    t.write("Ann")                                      # now every other seat has: it goes, whole
    assert all(not t.deck.slots[i].steps and t.deck.slots[i].opened == ["Ann", "Ben"] for i in ids)
    assert all(" · by 1,2" in ln for ln in t.deck.render() if ln.startswith(tuple(f"  slot {i} " for i in ids)))


def test_unlocks_of_two_generations_in_one_write_are_two_batches_each_with_its_key():
    t = Table({"draw": [f"c{i}" for i in range(10)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.draw_face_up("draw", 3, to="table"))
    t.write("Ben")
    t.write("Cy")
    new = t.write("Ann", lambda d: d.reshuffle("table", "again"))
    t.write("Ben")
    t.write("Cy")                                       # generation 2's last pass: its numbers stand, as '^'
    lines = {int(ln.split()[1]): ln for ln in t.deck.render() if ln.startswith("  slot ")}
    assert all(lines[i].split()[2] == "^" for i in new)
    t.write("Ann", lambda d: (d.deal("again", "Cy", 2), d.deal("draw", "Cy", 2)))
    old = [i for i in t.deck.hands["Cy"] if i not in new]
    stamp = t.deck.clock
    batches = {(seat, gen) for (seat, gen, at) in _batches(t.deck) if at == stamp}
    assert batches == {("Ann", 1), ("Ann", 2)}          # one write, one proof per generation (one key each)
    t.write("Ben")                                      # Ben checks both, then unlocks both generations' cards
    lines = {int(ln.split()[1]): ln for ln in t.deck.render() if ln.startswith("  slot ")}
    ben = [lines[i].split(" · ")[2].split() for i in sorted(t.deck.hands["Cy"])]
    assert sorted(len(step) for step in ben) == [3, 3, 4, 4]
    forged = SharedDeck.parse(t.deck.render())           # Ben's generation-1 batch given his generation-2 proof
    a, b = (forged.slots[min(ids)].steps[-1].proof for ids in (old, [i for i in new if i in forged.hands["Cy"]]))
    for i in old:
        forged.slots[i].steps[-1].proof = b
    problems = SharedDeck.parse(forged.render()).verify(SharedDeck.parse(t.records["Cy"]), seat="Cy")
    assert a != b and any("Ben's unlocks, proven together, carry no valid proof" in p for p in problems), problems
    t.write("Cy")
    assert t.deck.derive(SEEDS)[1] == []


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
    assert all(p.piles is None for g in deck.gens for p in g.passes)


def test_each_pass_is_dropped_once_every_other_seat_has_checked_it_and_the_others_still_check():
    """Once the deal is closed, only the passes some seat has yet to check stay in the document (issue 25)."""
    t = Table({"draw": [f"c{i}" for i in range(12)]})
    for seat in SEATS:
        t.write(seat)

    def kept():
        return [p.seat for p in SharedDeck.parse(t.deck.render()).gens[0].passes if p.piles is not None]

    assert kept() == ["Ann", "Ben", "Cy"]   # nothing dealt: a player may still join, and would need them all
    t.write("Ann", lambda d: d.deal("draw", "Ann", 1))     # Ann checks Ben's and Cy's from her record of hers
    assert kept() == ["Cy"]                 # Ann's and Ben's checked by every other seat; Cy's not yet by Ben
    t.write("Ben")
    assert kept() == []
    # a pass changed after some seat checked it is still caught by the seats that have not
    t2 = Table({"draw": [f"c{i}" for i in range(12)]})
    for seat in SEATS:
        t2.write(seat)
    forged = SharedDeck.parse(t2.deck.render())
    cy = forged.gens[0].passes[2]
    values, proof = cy.piles["draw"]
    cy.piles["draw"] = (values, ShuffleProof(proof.points, [(proof.scalars[0] + 1) % group.L, *proof.scalars[1:]]))
    problems = SharedDeck.parse(forged.render()).verify(SharedDeck.parse(t2.records["Ann"]), seat="Ann")
    assert any("Cy's shuffle" in p for p in problems), problems


def test_one_proof_covers_a_pass_over_several_piles_and_a_card_moved_between_piles_is_refused():
    t = Table({"faces": [f"f{i}" for i in range(5)], "pips": [f"p{i}" for i in range(7)]})
    for seat in SEATS:
        t.write(seat)
    text = t.deck.render()
    assert sum(line.startswith("  proof 1 3 ") for line in text) == 2      # each pile's numbers; one proof
    first = SharedDeck.parse(text).gens[0].passes[-1].piles
    assert first["faces"][1] is not None and first["pips"][1] is None
    swapped = SharedDeck.parse(t.records["Ben"])                            # before Cy's pass: Cy swaps two
    deck = SharedDeck.parse(text)
    cy = deck.gens[0].passes[2]
    faces, pips = cy.piles["faces"], cy.piles["pips"]
    cy.piles["faces"] = ([pips[0][0], *faces[0][1:]], faces[1])
    cy.piles["pips"] = ([faces[0][0], *pips[0][1:]], None)
    for i, v in zip(deck.gens[0].piles["faces"] + deck.gens[0].piles["pips"], cy.piles["faces"][0] + cy.piles["pips"][0]):
        deck.slots[i].value = deck.slots[i].base = v
    problems = SharedDeck.parse(deck.render()).verify(swapped, seat="Ben")
    assert any("Cy's shuffle pass of faces and pips carries no valid proof" in p for p in problems), problems


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
        bad = group.encode(group.add(group.decode(value), bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")))      # an 8-torsion part
        return [ln.replace(value, bad) for ln in ls]

    assert any("numbers swapped or replaced" in p for p in _tampered(t, "Ann", swap))
    assert any("no valid proof" in p for p in _tampered(t, "Cy", forge))
    assert any("not a point of the dealing group" in p for p in _tampered(t, "Ann", non_residue))
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
