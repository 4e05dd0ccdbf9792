"""Issue 25: the Bayer–Groth shuffle argument of a pass (``pbd.table.shuffle``), complete and sound.

Completeness at several pile sizes (1, 2, squares and not), and soundness as attacks: a pass
that swaps in a foreign number, copies a card, drops a card, locks with another key than the
one it publishes, or carries a proof with any one field changed is refused.  The same attacks
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


def check(k_or_key, xs, ys, proof, context=CONTEXT, sizes=None) -> bool:
    key = group.public_key(k_or_key) if isinstance(k_or_key, int) else k_or_key
    return S._check(key, xs, ys, proof, context, sizes)          # the memo would answer a repeated question unchecked


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 12, 18, 23])
def test_an_honest_pass_is_accepted_and_its_outputs_are_the_inputs_locked_and_permuted(n):
    k, xs, perm, ys, proof = honest(n)
    assert ys == [group.lock(xs[j], k) for j in perm]
    assert check(k, xs, ys, proof)
    assert S.from_bytes(S.to_bytes(proof), n) == proof
    assert len(S.to_bytes(proof)) == S.size(n)


def test_the_proof_grows_like_the_square_root_of_the_pile():
    sizes = {n: S.size(n) for n in (16, 64, 256, 1024)}
    assert sizes[64] < 2 * sizes[16] and sizes[256] < 2 * sizes[64] and sizes[1024] < 2 * sizes[256]
    assert S.size(60) < 60 * group.BYTES * 2          # under two numbers a card (Terelius–Wikström: four)


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


@pytest.mark.parametrize("n", [1, 5, 18])
def test_every_field_of_the_proof_matters(n):
    """Each point moved to another point of the group, each scalar changed by one: each refused."""
    k, xs, perm, ys, proof = honest(n)
    for i in range(len(proof.points)):
        points = list(proof.points)
        points[i] = group.add(points[i], group.G)
        assert not check(k, xs, ys, S.ShuffleProof(points, list(proof.scalars))), f"point {i}"
    for i in range(len(proof.scalars)):
        scalars = list(proof.scalars)
        scalars[i] = (scalars[i] + 1) % group.L
        assert not check(k, xs, ys, S.ShuffleProof(list(proof.points), scalars)), f"scalar {i}"
    for i in range(len(ys)):
        moved = list(ys)
        moved[i] = group.add(moved[i], group.G)
        assert not check(k, xs, moved, proof), f"output {i}"


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


# -- a prover that knows the argument and lies in one place -----------------------------------------

def lying_proof(k_used: int, xs, perm, *, claimed_ys=None, claimed_key=None, positions=None, commit_rows=None,
                value_rows=None):
    """Run the real prover with a transcript over a claimed statement and one step of its own choosing."""
    p = S._Prover(k_used, xs, perm, CONTEXT)
    p.ys = list(claimed_ys if claimed_ys is not None else p.ys)
    p.K = claimed_key or p.K
    p.t = S._Transcript(CONTEXT, p.K, xs, p.ys, p.sizes)
    p.statement = p.t.digest()
    honest_a = p.positions()
    if positions is not None:
        p.positions = lambda: positions + honest_a[len(positions):]
        p.exponents = lambda a, xp: [xp[q] for q in honest_a]      # b stays x^π: the multi-exponentiation holds
    if commit_rows is not None:                                     # c_b to values of its choosing
        def product(E, rE, cE, target):
            rows = commit_rows(p.row_products(E), target)
            rho = p.rand()
            cb = p.com(rows, rho)
            p.send(b"cb", cb)
            p.hadamard(E, rE, cE, rows, rho, cb)
            p.single_value_product(rows, rho, cb, target)
        p.product = product
    if value_rows is not None:
        real = p.single_value_product
        p.single_value_product = lambda r, rho, cb, target: real(value_rows(r, target), rho, cb, target)
    return p.run()


def _product_fix(r, target):
    """Return ``r`` with its first value changed so that the values multiply to ``target``."""
    rest = 1
    for v in r[1:]:
        rest = rest * v % group.L
    return [target * pow(rest, -1, group.L) % group.L] + list(r[1:])


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_claims_a_foreign_output_is_caught_by_the_multi_exponentiation(n):
    k, xs, perm, ys, _ = honest(n)
    claimed = [group.lock(group.code("foreign"), k)] + ys[1:]
    ys_lie, proof = lying_proof(k, xs, perm, claimed_ys=claimed)
    assert ys_lie == claimed and not check(k, xs, claimed, proof)


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_locks_with_another_key_than_it_publishes_is_caught_by_the_key_proof(n):
    k, xs, perm, ys, _ = honest(n)
    other = group.derive_key(b"o" * 32, "other")
    ys_lie, proof = lying_proof(other, xs, perm, claimed_key=group.public_key(k))
    assert not check(k, xs, ys_lie, proof)


@pytest.mark.parametrize("n", [3, 18])
def test_a_prover_that_commits_to_no_permutation_is_caught_by_the_product_argument(n):
    """``a`` names one input twice while ``b`` stays honest: only the product of ``y·a + b − z`` can tell."""
    k, xs, perm, ys, _ = honest(n)
    bad = [perm[0] + 1, perm[0] + 1]
    ys_lie, proof = lying_proof(k, xs, perm, positions=bad)
    assert ys_lie == ys and not check(k, xs, ys, proof)
    # nor does it help to run the single value product argument on values that do multiply to the target
    _, proof = lying_proof(k, xs, perm, positions=bad, value_rows=_product_fix)
    assert not check(k, xs, ys, proof)
    # or to commit to such values in the first place (then the Hadamard product argument fails)
    _, proof = lying_proof(k, xs, perm, positions=bad, commit_rows=_product_fix)
    assert not check(k, xs, ys, proof)


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
