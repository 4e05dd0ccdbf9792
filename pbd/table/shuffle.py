"""A proof of size about √N that a shuffle pass is its input permuted and locked with one key, card by card.

A pass takes the numbers ``c_1..c_N`` of a pile and writes ``c'_i = k·c_π(i)`` for a secret
permutation ``π`` and the seat's secret key ``k`` behind its public key ``K = k·B``.  The proof
shows exactly that — every output is one input, each input used once, all locked with the key
of ``K`` — and reveals nothing about ``π`` or ``k`` (honest-verifier zero knowledge, made
non-interactive with Fiat–Shamir).

**The argument** is the shuffle argument of Bayer and Groth, "Efficient Zero-Knowledge Argument
for Correctness of a Shuffle" (EUROCRYPT 2012, LNCS 7237), adapted from ElGamal re-encryption
to our exponentiation shuffle the way their multi-exponentiation argument allows (our
"ciphertexts" are single group elements and the re-encryption factor is the common key ``k``).
The N positions are laid out as an ``m × n`` matrix (``m·n ≥ N``, both at least 2; the
positions past N are fixed points on the identity, which every lock leaves alone), and
vectors of ``n`` values are committed with Pedersen commitments
``com(v; r) = r·H + Σ v_j·G_j`` whose generators ``H, G_1..G_n`` are hashed to the group with
a domain tag (:func:`pbd.table.group.hash_to_group`), so nobody knows their relations:

1. The prover commits to ``a = (π(1)..π(N))`` column by column; challenge ``x``; it commits
   to ``b = (x^π(1)..x^π(N))``; challenges ``y, w, z``.
2. **Product argument** (BG §5: a Hadamard product argument, itself a zero argument for a
   bilinear map, and a single value product argument) that the committed matrix
   ``y·a + b + w·t − z`` has the product ``∏_p (y·p + x^p + w·t_p − z)``, which the verifier
   computes (``t_p`` is the public number of the pile position ``p`` belongs to: one proof
   covers every pile of a pass, each shuffled within itself): by Schwartz–Zippel the triples
   ``(a_p, b_p, t_p)`` are the triples ``(p, x^p, t_p)``, so ``a`` is a permutation that keeps
   every card in its pile and ``b_p = x^a_p``.  (BG's product is over ``y·a + b − z``; the
   pile term is ours, and adds nothing to the degree.)
3. **Multi-exponentiation argument** (BG §4, with the target ``k·X`` hidden behind a Schnorr
   proof for ``K``) that ``Σ_i b_i·c'_i = k·X`` with ``X = Σ_j x^j·c_j``: as ``x`` was drawn
   after ``a`` was committed, this holds only if ``c'_i = k·c_π(i)`` for every ``i`` (a nonzero
   polynomial of degree N in ``x`` has at most N roots).

Every challenge is a hash (SHA-256, domain-separated, reduced modulo L) of the whole transcript
before it: the match and pile (``context``), the key, every input and output number and every
commitment sent.  Nonces are derived from the key and the statement (RFC 6979's idea), so a
proof is reproducible and never reuses a nonce.

**Soundness error**: each challenge is a value modulo L (about 2^252); adding the
Schwartz–Zippel bounds of BG's analysis over every challenge gives at most
``(3·m·n + 6·m + 4·n + 8)/2^251`` for the interactive argument, assuming discrete logarithms
are hard in the group (which makes the commitments binding); for the Fiat–Shamir form, a
prover making Q hash evaluations succeeds with probability at most Q + 1 times that (Attema,
Fehr and Klooß, "Fiat–Shamir Transformation of Multi-Round Interactive Proofs", TCC 2022).
For the largest deck pbd accepts (2,000 cards) that is below 2^-237 per evaluation.

The sums above add BG's Schwartz–Zippel bounds (degree ``m·n`` for ``x`` and for ``y, w, z``,
``m + n`` for the Hadamard product argument, ``2m`` for the zero argument and for the
multi-exponentiation argument, ``2n`` for the single value product argument) and round them up;
a challenge hits any one value with probability below ``2^-251`` (a 256-bit hash reduced modulo L).

**Size and cost**: ``9m + 4`` points and ``5n + 7`` scalars of 32 bytes (``m, n`` about √N,
chosen by :func:`layout`): 2,176 bytes for 18 cards, 3,072 for 40, 3,680 for 60, against
2,448 / 5,264 / 7,824 for the Terelius–Wikström proof pbd used before (``4N + 5``; below about
16 cards that one was the shorter).  Checking takes about ``2N + 12m + 8n`` scalar
multiplications, proving about ``(m + 4)·N``.
"""

from __future__ import annotations

from functools import lru_cache

from pbd.digest import sha256
from pbd.table import group
from pbd.table.group import BYTES, Element

L = group.L


class ShuffleProof:
    """The proof's points and scalars, in the order the argument sends them (see :func:`layout`)."""

    __slots__ = ("points", "scalars")

    def __init__(self, points: list[Element], scalars: list[int]):
        self.points, self.scalars = points, scalars

    def __eq__(self, other) -> bool:
        return isinstance(other, ShuffleProof) and to_bytes(self) == to_bytes(other)

    def __repr__(self) -> str:
        return f"ShuffleProof(points={len(self.points)}, scalars={len(self.scalars)})"


@lru_cache(maxsize=64)
def layout(n_cards: int) -> tuple[int, int]:
    """Return ``(m, n)``, the matrix the positions of ``n_cards`` cards are laid out in (smallest proof)."""
    best = None
    for m in range(2, max(2, n_cards) + 1):
        n = max(2, -(-n_cards // m))
        cost = (9 * m + 5 * n, m * n)
        if best is None or cost < best[0]:
            best = (cost, (m, n))
    return best[1]


def counts(n_cards: int) -> tuple[int, int]:
    """Return how many points and scalars the proof of a pile of ``n_cards`` cards has."""
    m, n = layout(n_cards)
    return 9 * m + 4, 5 * n + 7


@lru_cache(maxsize=8)
def generators(n: int) -> tuple[Element, tuple[Element, ...]]:
    """Return ``(H, (G_1..G_n))``: commitment generators nobody knows a discrete logarithm of."""
    return (group.hash_to_group("shuffle-bg2012|H"),
            tuple(group.hash_to_group(f"shuffle-bg2012|G|{j}") for j in range(1, n + 1)))


def _com(n: int, values, r: int) -> Element:
    """Return the Pedersen commitment ``r·H + Σ v_j·G_j`` to ``values`` (at most n of them)."""
    h, gs = generators(n)
    return group.combine([(r, h), *zip(values, gs)])


def _star(u, v, y: int) -> int:
    """Return BG's bilinear map ``Σ_j u_j·v_j·y^j`` (j from 1)."""
    out, yj = 0, 1
    for a, b in zip(u, v):
        yj = yj * y % L
        out += a * b % L * yj
    return out % L


def _lin(coefficients, vectors) -> list[int]:
    """Return ``Σ c_i·v_i`` of scalar vectors, modulo L."""
    out = [0] * len(vectors[0])
    for c, v in zip(coefficients, vectors):
        for j, x in enumerate(v):
            out[j] += c * x
    return [x % L for x in out]


def _powers(x: int, count: int) -> list[int]:
    out = [1]
    for _ in range(count - 1):
        out.append(out[-1] * x % L)
    return out


class _Transcript:
    """The Fiat–Shamir transcript: every message absorbed, every challenge a hash of all before it."""

    def __init__(self, context: str, key: Element, xs: list[Element], ys: list[Element], sizes: tuple[int, ...]):
        self.h = sha256(b"pbd-table-shuffle-bg2012-v3")
        self.absorb(b"statement", context.encode(), key, ",".join(map(str, sizes)).encode(), b"".join(xs),
                    b"".join(ys))

    def absorb(self, label: bytes, *parts: bytes) -> None:
        for part in (label, *parts):
            self.h.update(len(part).to_bytes(4, "big"))
            self.h.update(part)

    def digest(self) -> bytes:
        return self.h.copy().digest()

    def challenge(self, label: bytes) -> int:
        self.absorb(b"challenge", label)
        return int.from_bytes(self.digest(), "big") % L or 1


# -- proving ------------------------------------------------------------------------------------

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


def prove(k: int, xs: list[Element], perm: list[int], context: str,
          sizes: tuple[int, ...] | None = None) -> tuple[list[Element], ShuffleProof]:
    """Lock ``xs`` with ``k`` and permute them (output ``i`` is input ``perm[i]``); return the outputs and the proof.

    ``sizes`` cuts ``xs`` into piles that are each shuffled within themselves (one proof for all; default: one
    pile).  The proof is a function of its inputs (nonces derived, RFC 6979's way), so one made already is given
    again.

    :raises ValueError: ``perm`` moves a card from one pile to another, or the sizes do not add up.
    """
    sizes = _sizes(sizes, len(xs))
    tags = _tags(sizes, len(xs))
    if sorted(perm) != list(range(len(xs))) or any(tags[i] != tags[j] for i, j in enumerate(perm)):
        raise ValueError("a pass permutes the cards of each pile among themselves")
    key = group.challenge("shuffle-made", (group.encode_scalar(k), b"".join(xs), ",".join(map(str, perm)), context,
                                           ",".join(map(str, sizes))), 256).to_bytes(32, "big")
    made = _MADE.get(key)
    if made is None:
        made = _remember(_MADE, key, _Prover(k, xs, perm, context, sizes).run())
    return list(made[0]), made[1]


class _Prover:
    """One run of the argument's prover; ``points`` and ``scalars`` collect the proof in order."""

    def __init__(self, k: int, xs: list[Element], perm: list[int], context: str, sizes: tuple[int, ...] = ()):
        self.k, self.xs, self.perm = k, xs, perm
        self.N = len(xs)
        self.m, self.n = layout(self.N)
        self.sizes = _sizes(sizes or None, self.N)
        self.tags = _tags(self.sizes, self.m * self.n)
        self.ys = [group.lock(xs[j], k) for j in perm]
        self.K = group.public_key(k)
        self.t = _Transcript(context, self.K, xs, self.ys, self.sizes)
        self.statement = self.t.digest()
        self.points: list[Element] = []
        self.scalars: list[int] = []
        self._count = 0

    def rand(self) -> int:
        """Return the next secret nonce (derived from the key, the statement and a counter)."""
        self._count += 1
        return group.nonce(self.k, b"bg2012", self.statement, self._count)

    def rands(self, count: int) -> list[int]:
        return [self.rand() for _ in range(count)]

    def com(self, values, r: int) -> Element:
        return _com(self.n, values, r)

    def send(self, label: bytes, *points: Element) -> None:
        self.points += points
        self.t.absorb(label, *points)

    def cols(self, v: list[int]) -> list[list[int]]:
        return [v[i * self.n:(i + 1) * self.n] for i in range(self.m)]

    def positions(self) -> list[int]:
        """Return ``a``: the input position (from 1) of every output position, the padding left in place."""
        return [j + 1 for j in self.perm] + list(range(self.N + 1, self.m * self.n + 1))

    def exponents(self, a: list[int], xp: list[int]) -> list[int]:
        """Return ``b = (x^a_1 .. x^a_mn)``."""
        return [xp[p] for p in a]

    def run(self) -> tuple[list[Element], ShuffleProof]:
        m, n, N = self.m, self.n, self.N
        size = m * n
        a = self.positions()
        A, r = self.cols(a), self.rands(m)
        cA = [self.com(A[i], r[i]) for i in range(m)]
        self.send(b"cA", *cA)
        x = self.t.challenge(b"x")
        xp = _powers(x, size + 1)
        B, s = self.cols(self.exponents(a, xp)), self.rands(m)
        cB = [self.com(B[i], s[i]) for i in range(m)]
        self.send(b"cB", *cB)
        y, w, z = self.t.challenge(b"y"), self.t.challenge(b"w"), self.t.challenge(b"z")
        T = self.cols(self.tags)
        E = [[(y * A[i][j] + B[i][j] + w * T[i][j] - z) % L for j in range(n)] for i in range(m)]
        rE = [(y * r[i] + s[i]) % L for i in range(m)]
        cE = _product_commitments(n, cA, cB, T, y, w, z)
        self.product(E, rE, cE, _target(xp, self.tags, y, w, z))
        self.multi_exponentiation(B, s, cB, x, xp)
        return list(self.ys), ShuffleProof(self.points, self.scalars)

    def product(self, E, rE, cE, target: int) -> None:
        """BG's product argument: ``c_b`` to the rows' products, a Hadamard and a single value product argument."""
        rows, rho = self.row_products(E), self.rand()
        cb = self.com(rows, rho)
        self.send(b"cb", cb)
        self.hadamard(E, rE, cE, rows, rho, cb)
        self.single_value_product(rows, rho, cb, target)

    def row_products(self, E) -> list[int]:
        """Return the products of the matrix's rows (the Hadamard product of its columns)."""
        rows = [1] * self.n
        for col in E:
            rows = [u * v % L for u, v in zip(rows, col)]
        return rows

    def hadamard(self, E, rE, cE, rows, rho, cb) -> None:
        """BG's Hadamard product argument that ``c_b`` holds ``E_1∘…∘E_m``, reduced to a zero argument."""
        m, n = self.m, self.n
        part = [E[0]]
        for i in range(1, m):
            part.append([u * v % L for u, v in zip(part[-1], E[i])])
        sp = [rE[0]] + self.rands(m - 2) + [rho]
        cP = [cE[0]] + [self.com(part[i], sp[i]) for i in range(1, m - 1)] + [cb]
        self.send(b"hadamard", *cP[1:m - 1])
        hx, hy = self.t.challenge(b"hadamard-x"), self.t.challenge(b"hadamard-y")
        hxp = _powers(hx, m)
        left = [(E[i + 1], rE[i + 1]) for i in range(m - 1)] + [([L - 1] * n, 0)]
        right = [([hxp[i + 1] * v % L for v in part[i]], hxp[i + 1] * sp[i] % L) for i in range(m - 1)]
        right.append((_lin(hxp[1:m], part[1:m]), sum(hxp[i + 1] * sp[i + 1] for i in range(m - 1)) % L))
        self.zero(left, right, hy)

    def zero(self, left, right, y: int) -> None:
        """BG's zero argument that ``Σ_i a_i ⋆ b_i = 0`` over committed pairs (``⋆`` the bilinear map with ``y``)."""
        M, n = len(left), self.n
        a0, r0, bz, sz = self.rands(n), self.rand(), self.rands(n), self.rand()
        av = [a0] + [v for v, _ in left]
        ar = [r0] + [r for _, r in left]
        bv = [v for v, _ in right] + [bz]            # b_1..b_(M+1)
        br = [r for _, r in right] + [sz]
        d = [0] * (2 * M + 1)
        for i in range(M + 1):
            for j in range(1, M + 2):
                d[M + 1 + i - j] += _star(av[i], bv[j - 1], y)
        d = [v % L for v in d]
        t = [self.rand() if kk != M + 1 else 0 for kk in range(2 * M + 1)]
        cD = [self.com([d[kk]], t[kk]) for kk in range(2 * M + 1) if kk != M + 1]
        self.send(b"zero", self.com(a0, r0), self.com(bz, sz), *cD)
        x = self.t.challenge(b"zero-x")
        xp = _powers(x, 2 * M + 2)
        a_ = _lin(xp[:M + 1], av)
        b_ = _lin([xp[M + 1 - j] for j in range(1, M + 2)], bv)
        r_ = sum(xp[i] * ar[i] for i in range(M + 1)) % L
        s_ = sum(xp[M + 1 - j] * br[j - 1] for j in range(1, M + 2)) % L
        t_ = sum(xp[kk] * t[kk] for kk in range(2 * M + 1)) % L
        self.scalars += [*a_, *b_, r_, s_, t_]

    def single_value_product(self, a, r, ca, target: int) -> None:
        """BG's single value product argument that the values committed in ``ca`` multiply to ``target``."""
        n = self.n
        b = [a[0]]
        for j in range(1, n):
            b.append(b[-1] * a[j] % L)
        d, rd = self.rands(n), self.rand()
        delta = [d[0]] + self.rands(n - 2) + [0]
        s1, sx = self.rand(), self.rand()
        c_d = self.com(d, rd)
        c_delta = self.com([-delta[j] * d[j + 1] % L for j in range(n - 1)], s1)
        c_Delta = self.com([(delta[j + 1] - a[j + 1] * delta[j] - b[j] * d[j + 1]) % L for j in range(n - 1)], sx)
        self.send(b"single-value-product", c_d, c_delta, c_Delta)
        x = self.t.challenge(b"single-value-product-x")
        a_ = [(x * a[j] + d[j]) % L for j in range(n)]
        b_ = [(x * b[j] + delta[j]) % L for j in range(n)]
        self.scalars += [*a_, *b_[1:n - 1], (x * r + rd) % L, (x * sx + s1) % L]

    def multi_exponentiation(self, B, s, cB, x, xp) -> None:
        """BG's multi-exponentiation argument for ``Σ_i b_i·c'_i = k·X``, with a Schnorr proof tying ``k`` to ``K``."""
        m, n, k = self.m, self.n, self.k
        X = group.combine(zip(xp[1:], self.xs))
        Y = self.cols(list(self.ys) + [group.IDENTITY] * (m * n - self.N))
        a0, r0 = self.rands(n), self.rand()
        av, ar = [a0] + B, [r0] + s
        beta = [self.rand() if kk != m else 0 for kk in range(2 * m)]
        tau = [self.rand() if kk != m else 0 for kk in range(2 * m)]
        mu = self.rand()
        E = [group.base_mul(beta[kk]) if kk != m else group.IDENTITY for kk in range(2 * m)]
        for i in range(m + 1):
            for j in range(1, m + 1):
                kk = m + i - j
                if kk != m:
                    E[kk] = group.add(E[kk], group.combine(zip(av[i], Y[j - 1])))
        E[0] = group.sub(E[0], group.mul(mu, X))
        c_beta = [self.com([beta[kk]], tau[kk]) for kk in range(2 * m) if kk != m]
        self.send(b"multi-exponentiation", self.com(a0, r0), *c_beta, *(E[kk] for kk in range(2 * m) if kk != m),
                  group.base_mul(mu))
        e = self.t.challenge(b"multi-exponentiation-x")
        ep = _powers(e, 2 * m)
        self.scalars += [*_lin(ep[:m + 1], av), sum(ep[i] * ar[i] for i in range(m + 1)) % L,
                         sum(ep[kk] * beta[kk] for kk in range(2 * m)) % L,
                         sum(ep[kk] * tau[kk] for kk in range(2 * m)) % L, (mu + ep[m] * k) % L]


def _sizes(sizes: tuple[int, ...] | None, total: int) -> tuple[int, ...]:
    """Return the pile sizes (one pile of ``total`` by default).

    :raises ValueError: they do not add up to ``total``, or one is not positive.
    """
    sizes = (total,) if sizes is None else tuple(sizes)
    if sum(sizes) != total or any(not isinstance(n, int) or n < 1 for n in sizes):
        raise ValueError("the piles' sizes do not add up to the cards of the pass")
    return sizes


def _tags(sizes: tuple[int, ...], size: int) -> list[int]:
    """Return the pile number of every position (the padding past the cards: a pile of its own)."""
    tags = [t for t, n in enumerate(sizes) for _ in range(n)]
    return tags + [len(sizes)] * (size - len(tags))


def _target(xp: list[int], tags: list[int], y: int, w: int, z: int) -> int:
    """Return ``∏_p (y·p + x^p + w·t_p − z)``: the product the matrix ``y·a + b + w·t − z`` must have."""
    out = 1
    for p, t in enumerate(tags, 1):
        out = out * (y * p + xp[p] + w * t - z) % L
    return out


def _product_commitments(n: int, cA, cB, T, y: int, w: int, z: int) -> list[Element]:
    """Return the commitments to the columns of ``y·a + b + w·t − z`` (from those to ``a`` and ``b``; ``t`` public)."""
    return [group.add(group.add(group.mul(y, ca), cb), _com(n, [(w * t - z) % L for t in col], 0))
            for ca, cb, col in zip(cA, cB, T)]


# -- checking -----------------------------------------------------------------------------------

def verify(y_key: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str,
           sizes: tuple[int, ...] | None = None) -> bool:
    """Return True if ``proof`` shows ``ys`` is ``xs`` permuted and locked with the key behind ``y_key``.

    ``sizes`` cuts both into piles, each permuted within itself (default: one pile).  A check is a function of its
    inputs: one made already in this process is answered again.
    """
    key = group.challenge("shuffle-checked", (y_key or b"", b"".join(xs), b"".join(ys), to_bytes(proof), context,
                                              ",".join(map(str, sizes or ()))), 256).to_bytes(32, "big")
    done = _CHECKED.get(key)
    if done is None:
        done = _remember(_CHECKED, key, _check(y_key, xs, ys, proof, context, sizes))
    return done


class _Reject(Exception):
    """A check of the argument failed."""


def _check(y_key: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str,
           sizes: tuple[int, ...] | None = None) -> bool:
    N = len(xs)
    try:
        sizes = _sizes(sizes, N)
    except ValueError:
        return False
    if N == 0 or len(ys) != N or group.key_problem(y_key) is not None \
            or (len(proof.points), len(proof.scalars)) != counts(N) \
            or not all(map(group.is_member, [*xs, *ys, *proof.points])) \
            or not all(isinstance(s, int) and 0 <= s < L for s in proof.scalars):
        return False
    try:
        _Verifier(y_key, xs, ys, proof, context, sizes).run()
    except _Reject:
        return False
    return True


class _Verifier:
    """One run of the argument's verifier, reading the proof in the order the prover sent it."""

    def __init__(self, K: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str,
                 sizes: tuple[int, ...]):
        self.K, self.xs, self.ys = K, xs, ys
        self.N = len(xs)
        self.m, self.n = layout(self.N)
        self.tags = _tags(sizes, self.m * self.n)
        self.t = _Transcript(context, K, xs, ys, sizes)
        self._points, self._scalars = iter(proof.points), iter(proof.scalars)

    def receive(self, label: bytes, count: int) -> list[Element]:
        got = [next(self._points) for _ in range(count)]
        self.t.absorb(label, *got)
        return got

    def take(self, count: int) -> list[int]:
        return [next(self._scalars) for _ in range(count)]

    def com(self, values, r: int) -> Element:
        return _com(self.n, values, r)

    @staticmethod
    def need(condition: bool) -> None:
        if not condition:
            raise _Reject

    def run(self) -> None:
        m, n = self.m, self.n
        size = m * n
        cA = self.receive(b"cA", m)
        x = self.t.challenge(b"x")
        xp = _powers(x, size + 1)
        cB = self.receive(b"cB", m)
        y, w, z = self.t.challenge(b"y"), self.t.challenge(b"w"), self.t.challenge(b"z")
        T = [self.tags[i * n:(i + 1) * n] for i in range(m)]
        cE = _product_commitments(n, cA, cB, T, y, w, z)
        cb = self.receive(b"cb", 1)[0]
        self.hadamard(cE, cb)
        self.single_value_product(cb, _target(xp, self.tags, y, w, z))
        self.multi_exponentiation(cB, xp)

    def hadamard(self, cE, cb) -> None:
        m, n = self.m, self.n
        cP = [cE[0]] + self.receive(b"hadamard", m - 2) + [cb]
        hx, hy = self.t.challenge(b"hadamard-x"), self.t.challenge(b"hadamard-y")
        hxp = _powers(hx, m)
        left = cE[1:] + [self.com([L - 1] * n, 0)]
        right = [group.mul(hxp[i + 1], cP[i]) for i in range(m - 1)]
        right.append(group.combine((hxp[i + 1], cP[i + 1]) for i in range(m - 1)))
        self.zero(left, right, hy)

    def zero(self, left, right, y: int) -> None:
        M, n = len(left), self.n
        got = self.receive(b"zero", 2 + 2 * M)
        cA0, cBz, cD = got[0], got[1], got[2:]
        x = self.t.challenge(b"zero-x")
        xp = _powers(x, 2 * M + 2)
        a_, b_ = self.take(n), self.take(n)
        r_, s_, t_ = self.take(3)
        self.need(group.combine(zip(xp, [cA0, *left])) == self.com(a_, r_))
        self.need(group.combine(zip([xp[M + 1 - j] for j in range(1, M + 2)], [*right, cBz])) == self.com(b_, s_))
        powers = [xp[kk] for kk in range(2 * M + 1) if kk != M + 1]
        self.need(group.combine(zip(powers, cD)) == self.com([_star(a_, b_, y)], t_))

    def single_value_product(self, ca, target: int) -> None:
        n = self.n
        c_d, c_delta, c_Delta = self.receive(b"single-value-product", 3)
        x = self.t.challenge(b"single-value-product-x")
        a_ = self.take(n)
        b_ = [a_[0], *self.take(n - 2), x * target % L]
        r_, s_ = self.take(2)
        self.need(group.add(group.mul(x, ca), c_d) == self.com(a_, r_))
        self.need(group.add(group.mul(x, c_Delta), c_delta)
                  == self.com([(x * b_[j + 1] - b_[j] * a_[j + 1]) % L for j in range(n - 1)], s_))

    def multi_exponentiation(self, cB, xp) -> None:
        m, n = self.m, self.n
        got = self.receive(b"multi-exponentiation", 1 + 2 * (2 * m - 1) + 1)
        cA0, c_beta, E, MG = got[0], got[1:2 * m], got[2 * m:4 * m - 1], got[-1]
        e = self.t.challenge(b"multi-exponentiation-x")
        ep = _powers(e, 2 * m)
        a_ = self.take(n)
        r_, beta_, tau_, k_ = self.take(4)
        others = [ep[kk] for kk in range(2 * m) if kk != m]
        self.need(group.combine(zip(ep, [cA0, *cB])) == self.com(a_, r_))
        self.need(group.combine(zip(others, c_beta)) == self.com([beta_], tau_))
        self.need(group.base_mul(k_) == group.add(MG, group.mul(ep[m], self.K)))
        X = group.combine(zip(xp[1:], self.xs))
        left = group.add(group.combine(zip(others, E)), group.mul(k_, X))
        right = group.combine((ep[m - 1 - p // n] * a_[p % n], y) for p, y in enumerate(self.ys))
        self.need(left == group.add(group.base_mul(beta_), right))


# -- bytes ------------------------------------------------------------------------------------------

def to_bytes(proof: ShuffleProof) -> bytes:
    """Return the proof as bytes: its points, then its scalars (32 bytes each, little-endian)."""
    return b"".join([*proof.points, *map(group.encode_scalar, proof.scalars)])


def size(n: int) -> int:
    """Return the size in bytes of the proof of a pile of ``n`` cards."""
    points, scalars = counts(n)
    return (points + scalars) * BYTES


def from_bytes(data: bytes, n: int) -> ShuffleProof:
    """Return the proof of a pile of ``n`` cards read from ``data``.

    :raises ValueError: the wrong size, a point outside the group, or a scalar not canonical.
    """
    if len(data) != size(n):
        raise ValueError(f"a shuffle proof of {n} cards has {size(n)} bytes, this one {len(data)}")
    points, _ = counts(n)
    parts = [data[i:i + BYTES] for i in range(0, len(data), BYTES)]
    if not all(map(group.is_member, parts[:points])):
        raise ValueError("a shuffle proof holds a point outside the dealing group")
    return ShuffleProof(parts[:points], [group.decode_scalar(p) for p in parts[points:]])
