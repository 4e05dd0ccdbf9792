"""Issue 25: the Curdleproofs shuffle argument of a pass (``pbd.table.shuffle``), complete and sound.

Completeness at several pile sizes (1, 2, 3, powers of two less the blinders and not, the
decks of The Tower, Boys' Town and 2Xd6), and soundness as attacks: a pass that swaps in a
foreign number, copies a card, drops a card, locks with another key than the one it publishes,
moves a card across piles or into the padding, or carries a proof with any one field changed
is refused.  The same attacks
played through the CLI by a modified pbd are in tests/test_deck_attacks.py.
"""

from __future__ import annotations

import random

import pytest

from pbd.table import group
from pbd.table import shuffle as S

CONTEXT = "m1|gen1|seat1|battle"


def pile(n: int, tag: str = "c") -> list[bytes]:
    return [group.code(f"{tag}{i}") for i in range(n)]


def honest(n: int, seed: int = 0):
    """Return ``(k, xs, perm, ys, proof)`` of an honest pass over ``n`` cards."""
    k = group.derive_key(bytes([seed]) * 32, f"test{n}")
    xs = pile(n)
    perm = list(range(n))
    random.Random(seed * 1000 + n).shuffle(perm)
    ys, proof = S.prove(k, xs, perm, CONTEXT)
    return k, xs, perm, ys, proof


def check(k_or_key, xs, ys, proof, context=CONTEXT, sizes=None, batch=True) -> bool:
    key = group.public_key(k_or_key) if isinstance(k_or_key, int) else k_or_key
    return S._check(key, xs, ys, proof, context, sizes, batch)   # the memo would answer a repeated question unchecked


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 12, 13, 17, 18, 23, 28, 29, 40, 60, 61])
def test_an_honest_pass_is_accepted_and_its_outputs_are_the_inputs_locked_and_permuted(n):
    k, xs, perm, ys, proof = honest(n)
    assert ys == [group.lock(xs[j], k) for j in perm]
    assert check(k, xs, ys, proof)
    assert S.from_bytes(S.to_bytes(proof), n) == proof
    assert len(S.to_bytes(proof)) == S.size(n)


def test_the_proof_grows_like_the_logarithm_of_the_pile():
    """Each doubling of the padded pile adds one round to each of the two folding arguments: 8 points."""
    sizes = {n: S.size(n) for n in (28, 60, 124, 252, 2044)}
    assert sizes[60] - sizes[28] == sizes[124] - sizes[60] == sizes[252] - sizes[124] == 8 * group.BYTES
    assert sizes[2044] == sizes[252] + 3 * 8 * group.BYTES
    assert S.size(29) == S.size(60) == 66 * group.BYTES           # 2,816 characters of base64 for 29 to 60 cards
    assert S.size(61) > S.size(60)
    assert S.size(60) < 60 * group.BYTES * 1.2          # 1.1 numbers a card at 60 cards (Bayer–Groth: 1.9)


def test_a_proof_is_reproducible_and_another_permutation_gives_another_proof():
    k, xs, perm, ys, proof = honest(9)
    S._MADE.clear()
    assert S.prove(k, xs, perm, CONTEXT) == (ys, proof)
    other = perm[1:] + perm[:1]
    ys2, proof2 = S.prove(k, xs, other, CONTEXT)
    assert proof2 != proof and check(k, xs, ys2, proof2)


@pytest.mark.parametrize("n", [2, 7, 18])
def test_a_pass_that_swaps_in_a_foreign_number_is_refused(n):
    k, xs, perm, ys, proof = honest(n)
    forged = list(ys)
    forged[0] = group.lock(group.code("foreign"), k)
    assert not check(k, xs, forged, proof)
    # nor does a proof made honestly for inputs that hold the foreign number pass for the real inputs
    bent = [group.code("foreign")] + xs[1:]
    ys_bent, proof_bent = S.prove(k, bent, perm, CONTEXT)
    assert check(k, bent, ys_bent, proof_bent)
    assert not check(k, xs, ys_bent, proof_bent)


@pytest.mark.parametrize("n", [2, 7, 18])
def test_a_pass_that_copies_a_card_or_drops_one_is_refused(n):
    k, xs, perm, ys, proof = honest(n)
    copied = [ys[0]] + ys[1:]
    copied[1] = ys[0]                                   # a card twice, another gone
    assert not check(k, xs, copied, proof)
    # the same done before proving: a proof of "inputs with one card twice" does not pass for the real inputs
    twice = [xs[0]] + xs[:-1]
    ys_twice, proof_twice = S.prove(k, twice, perm, CONTEXT)
    assert not check(k, xs, ys_twice, proof_twice)
    assert not check(k, xs[:-1], ys[:-1], proof)        # a card dropped from the pile


@pytest.mark.parametrize("n", [1, 7, 18])
def test_a_pass_locked_with_another_key_than_the_published_one_is_refused(n):
    k, xs, perm, ys, proof = honest(n)
    other = group.derive_key(b"o" * 32, "other")
    ys_other, proof_other = S.prove(other, xs, perm, CONTEXT)
    assert not check(k, xs, ys_other, proof_other)      # published K = k·B, locked with another
    assert not check(other, xs, ys, proof)
    assert not check(group.G, xs, ys, proof)            # the generator is never a key


def test_a_proof_made_for_another_pass_context_is_refused():
    k, xs, perm, ys, proof = honest(7)
    assert not check(k, xs, ys, proof, CONTEXT + "x")
    assert not check(k, list(reversed(xs)), ys, proof)


@pytest.mark.parametrize("n, batch", [(1, True), (5, True), (5, False), (18, True),
                                      pytest.param(40, True, marks=pytest.mark.long)])
def test_every_field_of_the_proof_matters(n, batch):
    """Each point moved to another point of the group, each scalar changed by one: each refused.

    ``batch``: the verifier's equations checked at once (as pbd does) or one by one.
    """
    k, xs, perm, ys, proof = honest(n)
    assert check(k, xs, ys, proof, batch=batch)
    for i in range(len(proof.points)):
        points = list(proof.points)
        points[i] = group.add(points[i], group.G)
        assert not check(k, xs, ys, S.ShuffleProof(points, list(proof.scalars)), batch=batch), f"point {i}"
    for i in range(len(proof.scalars)):
        scalars = list(proof.scalars)
        scalars[i] = (scalars[i] + 1) % group.L
        assert not check(k, xs, ys, S.ShuffleProof(list(proof.points), scalars), batch=batch), f"scalar {i}"
    for i in range(len(ys)):
        moved = list(ys)
        moved[i] = group.add(moved[i], group.G)
        assert not check(k, xs, moved, proof, batch=batch), f"output {i}"
    for i in range(len(xs)):
        moved = list(xs)
        moved[i] = group.add(moved[i], group.G)
        assert not check(k, moved, ys, proof, batch=batch), f"input {i}"


def test_a_damaged_proof_is_refused_when_read():
    k, xs, perm, ys, proof = honest(5)
    data = S.to_bytes(proof)
    with pytest.raises(ValueError, match="bytes"):
        S.from_bytes(data[:-1], 5)
    with pytest.raises(ValueError, match="outside the dealing group"):
        S.from_bytes(b"\x00" * 32 + data[32:], 5)
    with pytest.raises(ValueError, match="not canonical"):
        S.from_bytes(data[:-32] + b"\xff" * 32, 5)
    short = S.ShuffleProof(proof.points[:-1], proof.scalars)
    assert not check(k, xs, ys, short)
    assert S.from_bytes(data, 5) == proof


def test_non_canonical_encodings_in_a_proof_are_refused_when_read():
    """The same values written another way (a scalar plus L, the identity's x sign flipped) are not read."""
    k, xs, perm, ys, proof = honest(5)
    data = S.to_bytes(proof)
    points, _ = S.counts(5)
    small = next(i for i, s in enumerate(proof.scalars) if s + group.L < 1 << 256)
    at = (points + small) * group.BYTES
    plus_l = (proof.scalars[small] + group.L).to_bytes(32, "little")
    with pytest.raises(ValueError, match="not canonical"):
        S.from_bytes(data[:at] + plus_l + data[at + 32:], 5)
    minus_zero = group.IDENTITY[:-1] + bytes([0x80])       # x = 0 with its sign bit set: no canonical point
    for bad in (group.IDENTITY, minus_zero, bytes([0xff] * 31 + [0x7f])):     # the identity, −0, y ≥ p
        with pytest.raises(ValueError, match="outside the dealing group"):
            S.from_bytes(data[:32] + bad + data[64:], 5)
    # and a proof object holding them is refused by the check
    assert not check(k, xs, ys, S.ShuffleProof([group.IDENTITY] + proof.points[1:], proof.scalars))
    assert not check(k, xs, ys, S.ShuffleProof(proof.points, [proof.scalars[0] + group.L] + proof.scalars[1:]))
    # nor may a pass write the identity (what a pad holds) for a card
    assert not check(k, xs, [group.IDENTITY] + ys[1:], proof)


# -- a prover that knows the argument and lies in one place -----------------------------------------

def lying_proof(k_used: int, xs, perm, *, claimed_ys=None, claimed_key=None, positions=None, product_values=None):
    """Run the real prover with a transcript over a claimed statement and one step of its own choosing.

    ``positions``: the permutation it commits to in ``M`` (its challenges ``a'`` still follow the honest one, so
    that the same-multiscalar argument holds); ``product_values``: the values it runs the grand-product argument
    on, from the honest ones and the product they must have.
    """
    p = S._Prover(k_used, xs, perm, CONTEXT)
    p.ys = list(claimed_ys if claimed_ys is not None else p.ys)
    p.K = claimed_key or p.K
    p.t = S._Transcript(CONTEXT, p.K, xs, p.ys, p.sizes)
    p.statement = p.t.digest()
    honest_m = p.positions()
    if positions is not None:
        p.positions = lambda: positions + honest_m[len(positions):]
        p.permuted = lambda a, m: [a[j] for j in honest_m]
    if product_values is not None:
        real = p.grand_product
        p.grand_product = lambda b, r_b: real(product_values(b, _target(p)), r_b)
    return p.run()


def _target(p) -> int:
    """Return the product the verifier expects of the prover's grand-product values (from its transcript so far)."""
    t = S._Transcript(CONTEXT, p.K, p.xs, p.ys, p.sizes)
    t.absorb(b"M", p.points[0])
    a = t.challenges(b"a", p.ell)
    t.absorb(b"A", p.points[1])
    alpha, w, beta = t.challenge(b"perm-alpha"), t.challenge(b"perm-w"), t.challenge(b"perm-beta")
    out = 1
    for j in range(p.ell):
        out = out * (a[j] + j * alpha + p.tags[j] * w + beta) % group.L
    return out


def _product_fix(b, target):
    """Return ``b`` with its first value changed so that the values multiply to ``target``."""
    rest = 1
    for v in b[1:]:
        rest = rest * v % group.L
    return [target * pow(rest, -1, group.L) % group.L] + list(b[1:])


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_claims_a_foreign_output_is_caught_by_the_same_multiscalar_argument(n):
    k, xs, perm, ys, _ = honest(n)
    claimed = [group.lock(group.code("foreign"), k)] + ys[1:]
    ys_lie, proof = lying_proof(k, xs, perm, claimed_ys=claimed)
    assert ys_lie == claimed and not check(k, xs, claimed, proof)
    assert not check(k, xs, claimed, proof, batch=False)


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_locks_with_another_key_than_it_publishes_is_caught_by_the_same_scalar_argument(n):
    k, xs, perm, ys, _ = honest(n)
    other = group.derive_key(b"o" * 32, "other")
    ys_lie, proof = lying_proof(other, xs, perm, claimed_key=group.public_key(k))
    assert not check(k, xs, ys_lie, proof) and not check(k, xs, ys_lie, proof, batch=False)


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_commits_to_no_permutation_is_caught_by_the_grand_product(n):
    """``M`` names one input twice while ``a'`` stays honest: only the grand product of the triples can tell."""
    k, xs, perm, ys, honest_proof = honest(n)
    bad = [perm[0], perm[0]]
    ys_lie, proof = lying_proof(k, xs, perm, positions=bad)
    assert ys_lie == ys and not check(k, xs, ys, proof) and not check(k, xs, ys, proof, batch=False)
    # nor does it help to run the grand-product argument on values that do multiply to the product expected
    _, proof = lying_proof(k, xs, perm, positions=bad, product_values=_product_fix)
    assert not check(k, xs, ys, proof) and not check(k, xs, ys, proof, batch=False)
    # the hooks themselves are honest: with the honest permutation they give the honest proof
    _, proof = lying_proof(k, xs, perm, positions=list(perm), product_values=lambda b, target: b)
    assert proof == honest_proof and check(k, xs, ys, proof)


def test_a_card_hidden_in_the_padding_is_refused():
    """A prover that puts a card where a pad goes (and a pad's identity where the card went) is caught.

    5 cards are padded to 12 positions; the prover commits to a permutation that sends output 0
    to the pad at position 7 and the pad's output to the card: the pads are a pile of their own.
    """
    k, xs, perm, ys, _ = honest(5)
    assert S.layout(5) == (12, 4)
    m = list(perm) + list(range(5, 12))
    m[0], m[7] = 7, perm[0]
    p = S._Prover(k, xs, perm, CONTEXT)
    p.positions = lambda: m
    _, proof = p.run()
    assert not check(k, xs, ys, proof) and not check(k, xs, ys, proof, batch=False)


def test_one_proof_covers_every_pile_of_a_pass_and_no_card_may_change_pile():
    k = group.derive_key(b"p" * 32, "piles")
    xs, sizes = pile(18, "f") + pile(36, "p"), (18, 36)
    perm = list(range(18))[::-1] + [18 + j for j in random.Random(1).sample(range(36), 36)]
    ys, proof = S.prove(k, xs, perm, CONTEXT, sizes)
    assert check(k, xs, ys, proof, sizes=sizes)
    assert S.size(54) < S.size(18) + S.size(36)
    assert not check(k, xs, ys, proof, sizes=(17, 37)) and not check(k, xs, ys, proof)
    # a pass that moves a card from one pile to the other: the prover refuses to make it, and one made anyway fails
    across = list(perm)
    across[0], across[18] = perm[18], perm[0]
    with pytest.raises(ValueError, match="each pile"):
        S.prove(k, xs, across, CONTEXT, sizes)
    ys_across, proof_across = S._Prover(k, xs, across, CONTEXT, sizes).run()
    assert not check(k, xs, ys_across, proof_across, sizes=sizes)
    one_pile_ys, one_pile_proof = S._Prover(k, xs, across, CONTEXT).run()
    assert check(k, xs, one_pile_ys, one_pile_proof)                 # a shuffle of the whole: only the piles differ
    assert not check(k, xs, one_pile_ys, one_pile_proof, sizes=sizes)
