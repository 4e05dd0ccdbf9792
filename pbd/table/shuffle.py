"""A proof of logarithmic size that a shuffle pass is its input permuted and locked with one key, card by card.

A pass takes the numbers ``c_1..c_N`` of a pile and writes ``c'_i = k·c_π(i)`` for a secret
permutation ``π`` and the seat's secret key ``k`` behind its public key ``K = k·B``.  The proof
shows exactly that — every output is one input, each input used once, all locked with the key
of ``K`` — and reveals nothing about ``π`` or ``k`` (honest-verifier zero knowledge, made
non-interactive with Fiat–Shamir).

**The argument** is Curdleproofs, the shuffle argument of Ethereum's Whisk: George Kadianakis and
Mary Maller (the authors its repository names), "Curdleproofs" (the paper and its reference
implementation:
https://github.com/asn-d6/curdleproofs, ``doc/curdleproofs.pdf``), inspired by Bayer and Groth,
"Efficient Zero-Knowledge Argument for Correctness of a Shuffle" (EUROCRYPT 2012), whose
argument pbd used before.  Every sub-argument is logarithmic.  The positions are padded to
``ℓ`` with ``ℓ + 4`` a power of two ``2^κ`` (:func:`layout`): a pad's input and output are the
identity, which every lock leaves alone (a real card never is: the group refuses it), and the
pads form a pile of their own.  Vectors are committed with Pedersen commitments over generators
``G_1..G_ℓ, H_1..H_4, U, G_t`` hashed to the group with a domain tag
(:func:`pbd.table.group.hash_to_group`), so nobody knows their relations.

1. The prover commits ``M`` to the permutation (``m_i = π(i)``, four blinders); the challenge
   vector ``a = (a_1..a_ℓ)`` is a hash of the statement and ``M``.  It commits ``A`` to
   ``a' = (a_π(1)..a_π(ℓ))`` (three blinders).
2. **Same-permutation argument**: challenges ``α, w, β``; the verifier computes
   ``B = A + α·M + Σ_i (t_i·w + β)·G_i`` (``t_i`` the public number of the pile position ``i``
   belongs to: one proof covers every pile of a pass, each shuffled within itself) and
   ``p = ∏_j (a_j + j·α + t_j·w + β)``; a **grand-product argument** (reduced to an
   **inner-product argument** of ``κ`` rounds) shows ``B`` commits to values multiplying to
   ``p``.  By Schwartz–Zippel the triples ``(a'_i, m_i, t_i)`` are the triples ``(a_j, j, t_j)``
   permuted, so ``m`` is a permutation that keeps every card in its pile and ``a' = a∘m``.
   (Whisk's factor is ``a_j + j·α + β``; the pile term ``t_j·w`` with its own challenge ``w``
   is ours; it raises no degree.)
3. **Same-scalar argument**: the prover commits ``(T_1, T_2) = (r·G_t, k·R + r·U)`` to
   ``k·R``, ``R = Σ_j a_j·c_j``, and shows, with one Σ-protocol, that the ``k`` inside is the
   discrete logarithm of ``K`` to the base point ``B``: Whisk's same-scalar argument over the
   pair ``(R, B)``, its second commitment replaced by the public ``K`` itself (a commitment with
   no blinder).  It is special-sound: two answers ``(z_k, z_t)``, ``(z_k', z_t')`` to two
   challenges for one first message give ``k = (z_k − z_k')/(e − e')`` with ``K = k·B`` and
   ``T_2 − r·U = k·R`` — the link Chaum–Pedersen gives, with ``k·R`` kept hidden (it would let
   anyone test a guessed permutation).
4. **Same-multiscalar argument** (``κ`` rounds): one vector ``x`` opens ``A + T_1`` over
   ``(G_1..G_ℓ, H_1, H_2, H_3, G_t)`` and ``T_2`` over ``(c'_1..c'_ℓ, 0, 0, 0, U)``; as the
   generators' relations are unknown, ``x = (a', blinders, r)``, so ``Σ_i a_π(i)·c'_i = k·R =
   Σ_j a_j·k·c_j``.  As ``a`` was drawn after ``c'`` and ``M`` were fixed, that holds only if
   ``c'_i = k·c_π(i)`` for every ``i``.  (Whisk shuffles pairs ``(R_i, S_i)``; our numbers are
   single points, so its ``S``/``U`` half is dropped, a third of this argument's points with it.)

Every challenge is a hash (SHA-256, domain-separated, reduced modulo L) of the whole transcript
before it: the match and pile (``context``), the key, the piles' sizes, every input and output
number and every point and scalar sent.  Nonces are derived from the key and the statement
(RFC 6979's idea), so a proof is reproducible and never reuses a nonce.  The verifier checks
its seven equations at once, each weighted by a hash of the whole proof (the paper's
multi-scalar accumulator): a point counted in several equations is multiplied once.

**Soundness error**: each challenge is a value modulo L (about 2^252) and hits any one value
with probability below ``2^-251``.  Adding the Schwartz–Zippel bounds of the steps above —
``1`` for the vector ``a`` (``Σ_j a_j·D_j`` vanishing for fixed nonzero ``D_j``), ``ℓ`` for
``α, w, β`` (a polynomial of degree ``ℓ``), ``ℓ + 2`` for the grand product's challenge
(degree ``ℓ + 1``) and the inner product inserted into the commitment, ``2 + 3κ`` for the
inner-product argument (its blinding, then a Laurent polynomial of degrees −1..1 a round),
``1`` for the same-scalar argument, ``2 + 3κ`` for the same-multiscalar argument and ``1`` for
the batched check — gives at most ``(2ℓ + 6κ + 9)/2^251`` for the interactive argument, assuming
discrete logarithms are hard in the group (which makes the commitments binding).  For the
Fiat–Shamir form, a prover making Q hash
evaluations succeeds with probability at most Q + 1 times that (Attema, Fehr and Klooß,
"Fiat–Shamir Transformation of Multi-Round Interactive Proofs", TCC 2022).  For the largest deck
pbd accepts (2,000 cards: ℓ = 2,044, κ = 11) that is below 2^-238 per evaluation.  (The bound is
ours, summed over the steps as above, with our pile term and padding; it is not quoted from the
paper, which has the security proofs of the argument as Whisk runs it.)

**Size and cost**: ``8κ + 12`` points and 6 scalars of 32 bytes: 2,112 bytes for 29 to 60
cards (κ = 6), 1,856 for 13 to 28, 2,368 for 61 to 124 — against Bayer–Groth's 2,176 / 3,072 /
3,680 bytes for 18 / 40 / 60 cards.  Proving takes about ``20·2^κ`` scalar multiplications
(about twice Bayer–Groth's CPU at 40 to 60 cards); checking about ``2^κ + 2N + 8κ + 16``, one
multi-scalar product in which every distinct point is multiplied once (about Bayer–Groth's).
"""

from __future__ import annotations

from functools import lru_cache

from pbd.digest import sha256
from pbd.table import group
from pbd.table.group import BYTES, Element

L = group.L
#: Blinders of the grand-product argument: ``ℓ + BLINDERS`` is a power of two.
BLINDERS = 4


class ShuffleProof:
    """The proof's points and scalars, in the order the argument sends them (see :func:`counts`)."""

    __slots__ = ("points", "scalars")

    def __init__(self, points: list[Element], scalars: list[int]):
        self.points, self.scalars = points, scalars

    def __eq__(self, other) -> bool:
        return isinstance(other, ShuffleProof) and to_bytes(self) == to_bytes(other)

    def __repr__(self) -> str:
        return f"ShuffleProof(points={len(self.points)}, scalars={len(self.scalars)})"


@lru_cache(maxsize=64)
def layout(n_cards: int) -> tuple[int, int]:
    """Return ``(ℓ, κ)``: the positions ``ℓ ≥ n_cards`` the cards are padded to, with ``ℓ + 4 = 2^κ``."""
    kappa = max(3, (max(1, n_cards) + BLINDERS - 1).bit_length())
    return (1 << kappa) - BLINDERS, kappa


def counts(n_cards: int) -> tuple[int, int]:
    """Return how many points and scalars the proof of a pile of ``n_cards`` cards has."""
    _, kappa = layout(n_cards)
    return 8 * kappa + 12, 6


@lru_cache(maxsize=8)
def generators(ell: int) -> tuple[tuple[Element, ...], tuple[Element, ...], Element, Element]:
    """Return ``((G_1..G_ℓ), (H_1..H_4), U, G_t)``: commitment generators nobody knows a discrete logarithm of."""
    return (tuple(group.hash_to_group(f"shuffle-curdle|G|{i}") for i in range(1, ell + 1)),
            tuple(group.hash_to_group(f"shuffle-curdle|H|{j}") for j in range(1, BLINDERS + 1)),
            group.hash_to_group("shuffle-curdle|U"), group.hash_to_group("shuffle-curdle|G_t"))


def _dot(u, v) -> int:
    """Return the inner product of two scalar vectors, modulo L."""
    return sum(a * b for a, b in zip(u, v)) % L


def _inv(x: int) -> int:
    return pow(x, -1, L)


def _fold_scalars(challenges: list[int], n: int) -> list[int]:
    """Return ``s_1..s_n``: the coefficient of each generator in the one a folding of ``κ`` rounds leaves.

    Round ``j`` (from 0) folds ``G_L + γ_j·G_R``, so ``s_i`` multiplies the ``γ_j`` of every round
    in which position ``i`` was in the right half (bit ``κ − 1 − j`` of ``i``).
    """
    kappa = len(challenges)
    out = []
    for i in range(n):
        s = 1
        for j, gamma in enumerate(challenges):
            if i >> (kappa - 1 - j) & 1:
                s = s * gamma % L
        out.append(s)
    return out


class _Transcript:
    """The Fiat–Shamir transcript: every message absorbed, every challenge a hash of all before it."""

    def __init__(self, context: str, key: Element, xs: list[Element], ys: list[Element], sizes: tuple[int, ...]):
        self.h = sha256(b"pbd-table-shuffle-curdleproofs-v4")
        self.absorb(b"statement", context.encode(), key, ",".join(map(str, sizes)).encode(), b"".join(xs),
                    b"".join(ys))

    def absorb(self, label: bytes, *parts: bytes) -> None:
        for part in (label, *parts):
            self.h.update(len(part).to_bytes(4, "big"))
            self.h.update(part)

    def absorb_scalars(self, label: bytes, *scalars: int) -> None:
        self.absorb(label, *map(group.encode_scalar, scalars))

    def digest(self) -> bytes:
        return self.h.copy().digest()

    def challenge(self, label: bytes) -> int:
        self.absorb(b"challenge", label)
        return int.from_bytes(self.digest(), "big") % L or 1

    def challenges(self, label: bytes, count: int) -> list[int]:
        """Return ``count`` challenges at once: hashes of the transcript so far and their index."""
        self.absorb(b"challenges", label, str(count).encode())
        seed = self.digest()
        return [int.from_bytes(sha256(seed + i.to_bytes(4, "big")).digest(), "big") % L or 1 for i in range(count)]


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
        self.ell, self.kappa = layout(self.N)
        self.sizes = _sizes(sizes or None, self.N)
        self.tags = _tags(self.sizes, self.ell)
        self.ys = [group.lock(xs[j], k) for j in perm]
        self.K = group.public_key(k)
        self.t = _Transcript(context, self.K, xs, self.ys, self.sizes)
        self.statement = self.t.digest()
        self.points: list[Element] = []
        self.scalars: list[int] = []
        self._count = 0
        self.G, self.H, self.U, self.Gt = generators(self.ell)

    def rand(self) -> int:
        """Return the next secret nonce (derived from the key, the statement and a counter)."""
        self._count += 1
        return group.nonce(self.k, b"curdleproofs", self.statement, self._count)

    def rands(self, count: int) -> list[int]:
        return [self.rand() for _ in range(count)]

    def send(self, label: bytes, *points: Element) -> None:
        self.points += points
        self.t.absorb(label, *points)

    def send_scalars(self, label: bytes, *scalars: int) -> None:
        self.scalars += [s % L for s in scalars]
        self.t.absorb_scalars(label, *scalars)

    def com(self, values, blinders) -> Element:
        """Return ``Σ v_i·G_i + Σ r_j·H_j``."""
        return group.combine([*zip(values, self.G), *zip(blinders, self.H)])

    def positions(self) -> list[int]:
        """Return ``m``: the input position (from 0) of every output position, the pads left in place."""
        return list(self.perm) + list(range(self.N, self.ell))

    def permuted(self, a: list[int], m: list[int]) -> list[int]:
        """Return ``a' = (a_m(1)..a_m(ℓ))``, the challenges in the order of the outputs."""
        return [a[j] for j in m]

    def run(self) -> tuple[list[Element], ShuffleProof]:
        ell = self.ell
        m = self.positions()
        r_m = self.rands(BLINDERS)
        self.send(b"M", self.com(m, r_m))
        a = self.t.challenges(b"a", ell)
        a_perm = self.permuted(a, m)
        r_a = self.rands(BLINDERS - 1) + [0]
        self.send(b"A", self.com(a_perm, r_a))
        alpha, w, beta = self.t.challenge(b"perm-alpha"), self.t.challenge(b"perm-w"), self.t.challenge(b"perm-beta")
        b = [(a_perm[i] + m[i] * alpha + self.tags[i] * w + beta) % L for i in range(ell)]
        r_b = [(ra + alpha * rm) % L for ra, rm in zip(r_a, r_m)]
        self.grand_product(b, r_b)
        R = group.combine(zip(a, self.xs))
        r_t = self.same_scalar(R)
        ys = list(self.ys) + [group.IDENTITY] * (ell - self.N)
        self.same_multiscalar([*a_perm, *r_a[:BLINDERS - 1], r_t],
                              [*self.G, *self.H[:BLINDERS - 1], self.Gt],
                              [*ys, *[group.IDENTITY] * (BLINDERS - 1), self.U])
        return list(self.ys), ShuffleProof(self.points, self.scalars)

    def grand_product(self, b: list[int], r_b: list[int]) -> None:
        """The grand-product argument that ``B = Σ b_i·G_i + Σ r_b,j·H_j`` holds values multiplying to their product."""
        ell = self.ell
        g_alpha = self.t.challenge(b"gprod-alpha")
        c = [1]
        for v in b[:ell - 1]:
            c.append(c[-1] * v % L)
        r_c = self.rands(BLINDERS)
        r_b_alpha = [(r + g_alpha) % L for r in r_b]
        r_p = _dot(r_b_alpha, r_c)
        self.send(b"C", self.com(c, r_c))
        self.send_scalars(b"r_p", r_p)
        g_beta = self.t.challenge(b"gprod-beta")
        inv = _inv(g_beta)
        inv_pows = [inv]
        for _ in range(ell):
            inv_pows.append(inv_pows[-1] * inv % L)          # β^-1 .. β^-(ℓ+1)
        pows = [1]
        for _ in range(ell + 1):
            pows.append(pows[-1] * g_beta % L)                # 1, β .. β^(ℓ+1)
        d = [(b[i] * pows[i + 1] - pows[i]) % L for i in range(ell)]
        d_blinders = [pows[ell + 1] * r % L for r in r_b_alpha]
        u = inv_pows[:ell] + [inv_pows[ell]] * BLINDERS
        basis = [*self.G, *self.H]
        basis_prime = [group.mul(ui, g) for ui, g in zip(u, basis)]
        self.inner_product(c + r_c, d + d_blinders, basis, basis_prime)

    def inner_product(self, c: list[int], d: list[int], G: list[Element], Gp: list[Element]) -> None:
        """The inner-product argument for ``C = c·G``, ``D = d·G'`` and ``⟨c, d⟩`` (zero knowledge by blinding)."""
        n = len(c)
        r_c, r_d = self.ipa_blinders(c, d)
        self.send(b"ipa", group.combine(zip(r_c, G)), group.combine(zip(r_d, Gp)))
        i_alpha, i_beta = self.t.challenge(b"ipa-alpha"), self.t.challenge(b"ipa-beta")
        c = [(rc + i_alpha * v) % L for rc, v in zip(r_c, c)]
        d = [(rd + i_alpha * v) % L for rd, v in zip(r_d, d)]
        H = group.mul(i_beta, self.U)
        G, Gp = list(G), list(Gp)
        while n > 1:
            n //= 2
            cL, cR, dL, dR = c[:n], c[n:], d[:n], d[n:]
            GL, GR, GpL, GpR = G[:n], G[n:], Gp[:n], Gp[n:]
            L_C = group.add(group.combine(zip(cL, GR)), group.mul(_dot(cL, dR), H))
            L_D = group.combine(zip(dR, GpL))
            R_C = group.add(group.combine(zip(cR, GL)), group.mul(_dot(cR, dL), H))
            R_D = group.combine(zip(dL, GpR))
            self.send(b"ipa-round", L_C, L_D, R_C, R_D)
            gamma = self.t.challenge(b"ipa-gamma")
            gamma_inv = _inv(gamma)
            c = [(x + gamma_inv * y) % L for x, y in zip(cL, cR)]
            d = [(x + gamma * y) % L for x, y in zip(dL, dR)]
            G = [group.add(x, group.mul(gamma, y)) for x, y in zip(GL, GR)]
            Gp = [group.add(x, group.mul(gamma_inv, y)) for x, y in zip(GpL, GpR)]
        self.send_scalars(b"ipa-final", c[0], d[0])

    def ipa_blinders(self, c: list[int], d: list[int]) -> tuple[list[int], list[int]]:
        """Return ``r_c, r_d`` with ``⟨r_c, d⟩ + ⟨r_d, c⟩ = 0`` and ``⟨r_c, r_d⟩ = 0`` (Curdleproofs' IPA blinders).

        The last two of ``r_d`` are solved for; ``c``'s last two entries are random blinders, so the
        system has a solution but with negligible probability (then other nonces are drawn).
        """
        n = len(c)
        while True:
            r_c, r_d = self.rands(n), self.rands(n - 2)
            omega = (_dot(r_c, d) + _dot(r_d, c)) % L
            delta = _dot(r_c, r_d)
            c1, c2, s1, s2 = c[n - 2], c[n - 1], r_c[n - 2], r_c[n - 1]
            det = (c1 * s2 - c2 * s1) % L           # z1·c1 + z2·c2 = −ω, z1·s1 + z2·s2 = −δ
            if det:
                z1 = (-omega * s2 + delta * c2) * _inv(det) % L
                z2 = (-delta * c1 + omega * s1) * _inv(det) % L
                return r_c, r_d + [z1, z2]

    def same_scalar(self, R: Element) -> int:
        """Commit ``(T_1, T_2)`` to ``k·R`` and prove its ``k`` is ``K``'s; return the commitment's blinder."""
        k, r_t, r_k, r_a = self.k, self.rand(), self.rand(), self.rand()
        T1, T2 = group.mul(r_t, self.Gt), group.add(group.mul(k, R), group.mul(r_t, self.U))
        self.send(b"same-scalar", T1, T2, group.mul(r_a, self.Gt), group.add(group.mul(r_k, R), group.mul(r_a, self.U)),
                  group.base_mul(r_k))
        e = self.t.challenge(b"same-scalar-e")
        self.send_scalars(b"same-scalar-z", r_k + e * k, r_a + e * r_t)
        self.T1, self.T2 = T1, T2
        return r_t

    def same_multiscalar(self, x: list[int], G: list[Element], T: list[Element]) -> None:
        """The same-multiscalar argument: one ``x`` opens ``A + T_1`` over ``G`` and ``T_2`` over ``T``."""
        n = len(x)
        r = self.rands(n)
        self.send(b"msm", group.combine(zip(r, G)), group.combine(zip(r, T)))
        m_alpha = self.t.challenge(b"msm-alpha")
        x = [(ri + m_alpha * v) % L for ri, v in zip(r, x)]
        G, T = list(G), list(T)
        while n > 1:
            n //= 2
            xL, xR, GL, GR, TL, TR = x[:n], x[n:], G[:n], G[n:], T[:n], T[n:]
            self.send(b"msm-round", group.combine(zip(xL, GR)), group.combine(zip(xL, TR)),
                      group.combine(zip(xR, GL)), group.combine(zip(xR, TL)))
            gamma = self.t.challenge(b"msm-gamma")
            gamma_inv = _inv(gamma)
            x = [(u + gamma_inv * v) % L for u, v in zip(xL, xR)]
            G = [group.add(u, group.mul(gamma, v)) for u, v in zip(GL, GR)]
            T = [group.add(u, group.mul(gamma, v)) for u, v in zip(TL, TR)]
        self.send_scalars(b"msm-final", x[0])


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


def _check(y_key: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str,
           sizes: tuple[int, ...] | None = None, batch: bool = True) -> bool:
    """Return True if the proof holds (``batch``: its equations checked at once, else one by one)."""
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
    verifier = _Verifier(y_key, xs, ys, proof, context, sizes)
    verifier.run()
    return verifier.holds(batch)


class _Verifier:
    """One run of the argument's verifier, reading the proof in the order the prover sent it.

    Each equation the argument checks is kept as terms ``(scalar, point)`` that must sum to the
    identity; :meth:`holds` checks them all in one multi-scalar product.
    """

    def __init__(self, K: Element, xs: list[Element], ys: list[Element], proof: ShuffleProof, context: str,
                 sizes: tuple[int, ...]):
        self.K, self.xs, self.ys = K, xs, ys
        self.N = len(xs)
        self.ell, self.kappa = layout(self.N)
        self.tags = _tags(sizes, self.ell)
        self.t = _Transcript(context, K, xs, ys, sizes)
        self._points, self._scalars = iter(proof.points), iter(proof.scalars)
        self.G, self.H, self.U, self.Gt = generators(self.ell)
        self.equations: list[list[tuple[int, Element]]] = []

    def receive(self, label: bytes, count: int) -> list[Element]:
        got = [next(self._points) for _ in range(count)]
        self.t.absorb(label, *got)
        return got

    def take(self, label: bytes, count: int) -> list[int]:
        got = [next(self._scalars) for _ in range(count)]
        self.t.absorb_scalars(label, *got)
        return got

    def equation(self, *terms) -> None:
        """Record that the sum of ``k·P`` over ``terms`` (pairs, or lists of pairs) must be the identity."""
        flat = []
        for term in terms:
            flat += term if isinstance(term, list) else [term]
        self.equations.append(flat)

    def holds(self, batch: bool = True) -> bool:
        """Return True if every equation holds: at once, each weighted by a hash of the whole proof, or one by one."""
        if not batch:
            return all(group.combine(eq) == group.IDENTITY for eq in self.equations)
        weights = [1] + self.t.challenges(b"batch", len(self.equations) - 1)
        total: dict[Element, int] = {}
        for weight, eq in zip(weights, self.equations):
            for k, point in eq:
                total[point] = (total.get(point, 0) + weight * k) % L
        return group.combine((k, p) for p, k in total.items() if k and p != group.IDENTITY) == group.IDENTITY

    def run(self) -> None:
        ell, G, H = self.ell, self.G, self.H
        M = self.receive(b"M", 1)[0]
        a = self.t.challenges(b"a", ell)
        A = self.receive(b"A", 1)[0]
        alpha, w, beta = self.t.challenge(b"perm-alpha"), self.t.challenge(b"perm-w"), self.t.challenge(b"perm-beta")
        p = 1
        for j in range(ell):
            p = p * (a[j] + j * alpha + self.tags[j] * w + beta) % L
        # B = A + α·M + Σ (t_i·w + β)·G_i, as terms
        B = [(1, A), (alpha, M), *(((self.tags[i] * w + beta) % L, G[i]) for i in range(ell))]
        self.grand_product(B, p)
        R = [(a[j], x) for j, x in enumerate(self.xs)]
        T1, T2 = self.same_scalar(R)
        ys = list(self.ys) + [group.IDENTITY] * (ell - self.N)
        self.same_multiscalar([(1, A), (1, T1)], [(1, T2)], [*G, *H[:BLINDERS - 1], self.Gt],
                              [*ys, *[group.IDENTITY] * (BLINDERS - 1), self.U])

    def grand_product(self, B: list[tuple[int, Element]], p: int) -> None:
        ell = self.ell
        g_alpha = self.t.challenge(b"gprod-alpha")
        C = self.receive(b"C", 1)[0]
        r_p, = self.take(b"r_p", 1)
        g_beta = self.t.challenge(b"gprod-beta")
        inv = _inv(g_beta)
        inv_pows = [inv]
        for _ in range(ell):
            inv_pows.append(inv_pows[-1] * inv % L)
        u = inv_pows[:ell] + [inv_pows[ell]] * BLINDERS
        # D = B − β^-1·Σ G_i + α_g·Σ H_j
        D = B + [(-inv % L, g) for g in self.G] + [(g_alpha, h) for h in self.H]
        z = (r_p * pow(g_beta, ell + 1, L) + p * pow(g_beta, ell, L) - 1) % L
        self.inner_product([(1, C)], D, z, u, [*self.G, *self.H])

    def inner_product(self, C, D, z: int, u: list[int], basis: list[Element]) -> None:
        B_c, B_d = self.receive(b"ipa", 2)
        i_alpha, i_beta = self.t.challenge(b"ipa-alpha"), self.t.challenge(b"ipa-beta")
        rounds = []
        for _ in range(self.kappa):
            rounds.append(self.receive(b"ipa-round", 4))
            rounds[-1].append(self.t.challenge(b"ipa-gamma"))
        c_f, d_f = self.take(b"ipa-final", 2)
        gammas = [r[4] for r in rounds]
        s = _fold_scalars(gammas, len(basis))
        cross_c = [t for L_C, _, R_C, _, g in rounds for t in ((g, L_C), (_inv(g), R_C))]
        cross_d = [t for _, L_D, _, R_D, g in rounds for t in ((g, L_D), (_inv(g), R_D))]
        # Σ γ·L_C + B_c + α·C + α²z·βU + Σ γ^-1·R_C = c·Σ s_i·G_i + c·d·βU
        self.equation(cross_c, (1, B_c), [(i_alpha * k % L, P) for k, P in C],
                      ((i_alpha * i_alpha * z - c_f * d_f) * i_beta % L, self.U),
                      [(-c_f * si % L, g) for si, g in zip(s, basis)])
        # Σ γ·L_D + B_d + α·D + Σ γ^-1·R_D = d·Σ (u_i/s_i)·G_i
        self.equation(cross_d, (1, B_d), [(i_alpha * k % L, P) for k, P in D],
                      [(-d_f * ui * _inv(si) % L, g) for ui, si, g in zip(u, s, basis)])

    def same_scalar(self, R: list[tuple[int, Element]]) -> tuple[Element, Element]:
        T1, T2, A1, A2, A_B = self.receive(b"same-scalar", 5)
        e = self.t.challenge(b"same-scalar-e")
        z_k, z_t = self.take(b"same-scalar-z", 2)
        self.equation((1, A1), (e, T1), (-z_t % L, self.Gt))
        self.equation((1, A2), (e, T2), [(-z_k * k % L, P) for k, P in R], (-z_t % L, self.U))
        self.equation((1, A_B), (e, self.K), (-z_k % L, group.G))
        return T1, T2

    def same_multiscalar(self, A, Z, G: list[Element], T: list[Element]) -> None:
        B_a, B_t = self.receive(b"msm", 2)
        m_alpha = self.t.challenge(b"msm-alpha")
        rounds = []
        for _ in range(self.kappa):
            rounds.append(self.receive(b"msm-round", 4))
            rounds[-1].append(self.t.challenge(b"msm-gamma"))
        x_f, = self.take(b"msm-final", 1)
        s = _fold_scalars([r[4] for r in rounds], len(G))
        cross_a = [t for L_A, _, R_A, _, g in rounds for t in ((g, L_A), (_inv(g), R_A))]
        cross_t = [t for _, L_T, _, R_T, g in rounds for t in ((g, L_T), (_inv(g), R_T))]
        self.equation(cross_a, (1, B_a), [(m_alpha * k % L, P) for k, P in A],
                      [(-x_f * si % L, g) for si, g in zip(s, G)])
        self.equation(cross_t, (1, B_t), [(m_alpha * k % L, P) for k, P in Z],
                      [(-x_f * si % L, t) for si, t in zip(s, T)])


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
