"""A proof that a shuffle pass is its input permuted and locked with one key, card by card.

A pass takes the numbers ``x_1..x_N`` of a pile and writes ``y_i = k·x_π(i)`` for a secret
permutation ``π`` and the seat's secret key ``k`` behind its public key ``Y = k·B``.  The proof
shows exactly that — every output is one input, each input used once, all locked with the key
of ``Y`` — and reveals nothing about ``π`` or ``k`` (honest-verifier zero knowledge, made
non-interactive with Fiat–Shamir).  A product (or sum) of the pile, which is all the previous
pbd proved, can be kept by a pass that replaces numbers; this proof cannot.

**The argument** is the proof of a shuffle of Terelius and Wikström, "Proofs of Restricted
Shuffles" (AFRICACRYPT 2010, LNCS 6055), built on Wikström's permutation commitments ("A
Commitment-Consistent Proof of a Shuffle", ACISP 2009, LNCS 5594), in the form written out by
Haenni, Locher, Koenig and Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption
Mix-Nets" (Financial Cryptography 2017 Workshops, LNCS 10323), with their re-encryption relation
replaced by ours (raising to a common secret exponent: the relation ``Σ u'_i·y_i = k·Σ u_j·x_j``
with ``Y = k·B``):

1. The prover commits to ``π`` column by column, ``c_π(i) = r_π(i)·B + h_i`` (Pedersen
   commitments to the permutation matrix under independent generators ``h, h_1..h_N`` hashed
   to the group, whose discrete logarithms nobody knows).
2. Challenges ``u_1..u_N`` (128 bits each) are hashed from the statement and the commitments;
   ``u'_i = u_π(i)``.
3. A commitment chain ``ĉ_0 = h, ĉ_i = r̂_i·B + u'_i·ĉ_(i-1)`` shows ``∏ u'_i = ∏ u_i``; with
   ``Σ c_j − Σ h_i = r̄·B`` (every column sums to one) this makes the committed matrix a
   permutation matrix (Terelius–Wikström, Theorem 1).
4. One Schnorr-type proof shows knowledge of ``r̄``, the chain's randomness, ``r̃ = Σ r_j·u_j``,
   ``k`` and ``u'`` with ``Σ u_j·c_j = r̃·B + Σ u'_i·h_i``, ``Σ u'_i·y_i = k·Σ u_j·x_j`` and
   ``Y = k·B``; its challenge ``e`` (128 bits) hashes everything before it.

**Soundness error**: at most ``(N + 2)·2^-128`` per proof in the random-oracle model, assuming
discrete logarithms are hard in the group (which makes the commitments binding): ``N·2^-128``
for a non-permutation matrix passing the product test at random ``u`` (Schwartz–Zippel on a
polynomial of degree N), ``2^-128`` for outputs that are not the permuted inputs passing the
linear test, ``2^-128`` for guessing ``e``.  For the largest deck pbd accepts (2,000 cards) that
is below ``2^-116``.

**Size and cost**: ``4N`` elements and scalars and five more (about ``171·N`` characters of
base64); proving takes about ``8N`` scalar multiplications, checking about ``7N`` (~0.1 ms each).
The nonces are derived from the key and the statement (RFC 6979's idea): a proof is reproducible.
"""

from __future__ import annotations

from functools import lru_cache

from pbd.table import group
from pbd.table.group import BYTES, Element


class ShuffleProof:
    """The proof's parts: permutation commitment, chain, challenge and responses."""

    __slots__ = ("c", "chain", "e", "s", "s_hat", "s_prime")

    def __init__(self, c: list[Element], chain: list[Element], e: int, s: tuple[int, int, int, int],
                 s_hat: list[int], s_prime: list[int]):
        self.c, self.chain, self.e, self.s, self.s_hat, self.s_prime = c, chain, e, s, s_hat, s_prime

    def __eq__(self, other) -> bool:
        return isinstance(other, ShuffleProof) and to_bytes(self) == to_bytes(other)

    def __repr__(self) -> str:
        return f"ShuffleProof(N={len(self.c)})"


@lru_cache(maxsize=8)
def generators(n: int) -> tuple[Element, tuple[Element, ...]]:
    """Return ``(h, (h_1..h_n))``: independent generators nobody knows a discrete logarithm of."""
    return group.hash_to_group("shuffle|h"), tuple(group.hash_to_group(f"shuffle|h|{i}") for i in range(1, n + 1))


def _statement(y: Element, xs: list[Element], ys: list[Element], context: str) -> bytes:
    return group.challenge("shuffle-statement", (context, y, b"".join(xs), b"".join(ys)), 256).to_bytes(32, "big")


def _us(statement: bytes, c: list[Element]) -> list[int]:
    seed = group.challenge("shuffle-u", (statement, b"".join(c)), 256).to_bytes(32, "big")
    return [group.challenge("shuffle-u-i", (seed, str(j))) or 1 for j in range(len(c))]


def _e(statement: bytes, chain: list[Element], t: list[Element]) -> int:
    return group.challenge("shuffle-e", (statement, b"".join(chain), b"".join(t)))


#: Proofs made and checked in this process, by a digest of everything they depend on (bounded): a simulation,
#: or the tests, seat every player in one process, and each seat checks the same pass.
_MADE: dict[bytes, tuple[list[Element], ShuffleProof]] = {}
_CHECKED: dict[bytes, bool] = {}
_KEEP = 256


def _remember(memo: dict, key: bytes, value):
    if len(memo) >= _KEEP:
        memo.clear()
    memo[key] = value
    return value


def prove(k: int, xs: list[Element], perm: list[int], context: str) -> tuple[list[Element], ShuffleProof]:
    """Lock ``xs`` with ``k`` and permute them (output ``i`` is input ``perm[i]``); return the outputs and the proof.

    The proof is a function of its inputs (nonces derived, RFC 6979's way), so one made already is given again.
    """
    key = group.challenge("shuffle-made", (group.encode_scalar(k), b"".join(xs), ",".join(map(str, perm)), context),
                          256).to_bytes(32, "big")
    made = _MADE.get(key)
    if made is None:
        made = _remember(_MADE, key, _prove(k, xs, perm, context))
    return list(made[0]), made[1]


def _prove(k: int, xs: list[Element], perm: list[int], context: str) -> tuple[list[Element], ShuffleProof]:
    n, L, B = len(xs), group.L, group.G
    ys = [group.lock(xs[j], k) for j in perm]
    y_key = group.public_key(k)
    h, hs = generators(n)
    st = _statement(y_key, xs, ys, context)
    inv = [0] * n
    for i, j in enumerate(perm):
        inv[j] = i
    r = [group.nonce(k, b"perm", st, j) for j in range(n)]
    c = [group.add(group.base_mul(r[j]), hs[inv[j]]) for j in range(n)]
    u = _us(st, c)
    u_p = [u[j] for j in perm]
    r_hat = [group.nonce(k, b"chain", st, i) for i in range(n)]
    chain, prev = [], h
    for i in range(n):
        prev = group.add(group.base_mul(r_hat[i]), group.mul(u_p[i], prev))
        chain.append(prev)
    r_bar = sum(r) % L
    v, big_r_hat = 1, 0
    for i in range(n - 1, -1, -1):
        big_r_hat = (big_r_hat + r_hat[i] * v) % L
        v = v * u_p[i] % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u)) % L
    x_bar = group.combine(zip(u, xs))
    w = [group.nonce(k, b"w", st, i) for i in range(4)]
    w_hat = [group.nonce(k, b"w-hat", st, i) for i in range(n)]
    w_p = [group.nonce(k, b"w-prime", st, i) for i in range(n)]
    t = [group.base_mul(w[0]), group.base_mul(w[1]),
         group.add(group.base_mul(w[2]), group.combine(zip(w_p, hs))),
         group.sub(group.combine(zip(w_p, ys)), group.mul(w[3], x_bar)),
         group.base_mul(w[3])]
    t += [group.add(group.base_mul(w_hat[i]), group.mul(w_p[i], ([h] + chain)[i])) for i in range(n)]
    e = _e(st, chain, t)
    s = ((w[0] + e * r_bar) % L, (w[1] + e * big_r_hat) % L, (w[2] + e * r_tilde) % L, (w[3] + e * k) % L)
    s_hat = [(w_hat[i] + e * r_hat[i]) % L for i in range(n)]
    s_p = [(w_p[i] + e * u_p[i]) % L for i in range(n)]
    return ys, ShuffleProof(c, chain, e, s, s_hat, s_p)


def verify(y_key: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str) -> bool:
    """Return True if ``proof`` shows ``ys`` is ``xs`` permuted and locked with the key behind ``y_key``.

    A check is a function of its inputs: one made already in this process is answered again.
    """
    key = group.challenge("shuffle-checked", (y_key or b"", b"".join(xs), b"".join(ys), to_bytes(proof), context),
                          256).to_bytes(32, "big")
    done = _CHECKED.get(key)
    if done is None:
        done = _remember(_CHECKED, key, _verify(y_key, xs, ys, proof, context))
    return done


def _verify(y_key: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str) -> bool:
    n, L, B = len(xs), group.L, group.G
    if n == 0 or len(ys) != n or len(proof.c) != n or len(proof.chain) != n or len(proof.s_hat) != n \
            or len(proof.s_prime) != n or group.key_problem(y_key) is not None:
        return n == 0 and not ys and not proof.c
    h, hs = generators(n)
    st = _statement(y_key, xs, ys, context)
    u = _us(st, proof.c)
    e, (s1, s2, s3, s4), chain = proof.e, proof.s, proof.chain
    c_bar = group.sub(group.combine((1, cj) for cj in proof.c), group.combine((1, hi) for hi in hs))
    u_bar = 1
    for uj in u:
        u_bar = u_bar * uj % L
    c_hat = group.sub(chain[-1], group.mul(u_bar, h))
    c_tilde = group.combine(zip(u, proof.c))
    x_bar = group.combine(zip(u, xs))
    t = [group.sub(group.base_mul(s1), group.mul(e, c_bar)),
         group.sub(group.base_mul(s2), group.mul(e, c_hat)),
         group.sub(group.add(group.base_mul(s3), group.combine(zip(proof.s_prime, hs))), group.mul(e, c_tilde)),
         group.sub(group.combine(zip(proof.s_prime, ys)), group.mul(s4, x_bar)),
         group.sub(group.base_mul(s4), group.mul(e, y_key))]
    prev = h
    for i in range(n):
        t.append(group.sub(group.add(group.base_mul(proof.s_hat[i]), group.mul(proof.s_prime[i], prev)),
                           group.mul(e, chain[i])))
        prev = chain[i]
    return _e(st, chain, t) == e


# -- bytes ------------------------------------------------------------------------------------------

def to_bytes(proof: ShuffleProof) -> bytes:
    """Return the proof as bytes: c, chain, e (16 bytes), s1..s4, ŝ, s'."""
    sc = group.encode_scalar
    return b"".join([*proof.c, *proof.chain, proof.e.to_bytes(16, "big"), *map(sc, proof.s),
                     *map(sc, proof.s_hat), *map(sc, proof.s_prime)])


def size(n: int) -> int:
    """Return the size in bytes of the proof of a pile of ``n`` cards."""
    return 4 * n * BYTES + 16 + 4 * BYTES


def from_bytes(data: bytes, n: int) -> ShuffleProof:
    """Return the proof of a pile of ``n`` cards read from ``data``.

    :raises ValueError: the wrong size, a point outside the group, or a scalar not canonical.
    """
    if len(data) != size(n):
        raise ValueError(f"a shuffle proof of {n} cards has {size(n)} bytes, this one {len(data)}")
    parts = [data[i:i + BYTES] for i in range(0, 2 * n * BYTES, BYTES)]
    if not all(map(group.is_member, parts)):
        raise ValueError("a shuffle proof holds a point outside the dealing group")
    rest = data[2 * n * BYTES:]
    e = int.from_bytes(rest[:16], "big")
    scalars = [group.decode_scalar(rest[i:i + BYTES]) for i in range(16, len(rest), BYTES)]
    return ShuffleProof(parts[:n], parts[n:], e, tuple(scalars[:4]), scalars[4:4 + n], scalars[4 + n:])
