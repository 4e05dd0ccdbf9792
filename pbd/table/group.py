"""The dealing group: the prime-order subgroup of edwards25519 (libsodium through PyNaCl), and proofs over it.

Every card of a shared deck is a public point (a *code*) of the subgroup of prime order
``L = 2^252 + 27742317777372353535851937790883648493`` of the curve edwards25519, the group
of Ed25519 (RFC 8032).  Elements are 32-byte points (43 characters of base64 in the
document); scalars are integers modulo ``L``.  All point arithmetic is libsodium's
(``crypto_scalarmult_ed25519_noclamp``, ``crypto_core_ed25519_add``), reached through PyNaCl (:mod:`pbd.sodium`):
nothing here computes on the curve by hand.  (ristretto255 would hide the cofactor by
construction, but PyNaCl does not bind libsodium's ristretto255 functions; the prime-order
subgroup with libsodium's membership test gives the same guarantees for what we do.)

* **Membership.**  Every element read from a document goes through :func:`decode`, which
  accepts only the canonical encoding of a point of the prime-order subgroup other than the
  identity (libsodium's ``crypto_core_ed25519_is_valid_point``: canonical, on the curve, in
  the main subgroup, not of small order).  Outside the subgroup a lock would leak: a point
  with a small-order component keeps it through every lock, so a seat that wrote one could
  follow that card.
* **Locks** are the commutative Pohlig–Hellman / SRA cipher in this group: a seat with
  secret scalar ``k`` locks ``x`` as ``k·x`` and removes its lock with ``k^-1 mod L``.
  Locks commute, so a card locked by every seat can be unlocked in any order.  This is the
  mental-poker deal of Shamir, Rivest and Adleman (1981), made safe the way Barnett and
  Smart describe in "Mental Poker Revisited" (Cryptography and Coding 2003, LNCS 2898):
  a prime-order group, and every step *verifiable* with a zero-knowledge proof.
* **Keys.**  Each seat publishes ``Y = k·B`` for each key it uses (``B`` the standard base
  point).  :func:`key_problem` refuses a key equal to the base point (``k = 1``: that lock
  would do nothing) or to another seat's key; the identity never decodes.
* **Proofs of unlocking.**  Every lock a seat removes carries a non-interactive
  Chaum–Pedersen proof (Chaum and Pedersen, "Wallet Databases with Observers", CRYPTO '92,
  LNCS 740) that ``log_B Y = log_out in``, made non-interactive with Fiat–Shamir: the
  challenge is a 128-bit hash, domain-separated, over the base point, the key, both
  numbers, both commitments and the context (match, slot).  Soundness error 2^-128 per
  proof (a cheating prover must guess the challenge); the nonce is derived from the key and
  the statement (as RFC 6979 does), so a proof is reproducible and never reuses a nonce.
  Several unlocks with one key share one proof (:func:`prove_batch`: Privacy Pass's batched
  DLEQ proof, as RFC 9497 section 2.2 specifies it), sound except with probability about 2^-127.
* **Shuffle passes** are proven card by card by :mod:`pbd.table.shuffle`, over this group.

Costs on this machine: a scalar multiplication 0.1 ms, a base-point one 0.02 ms, an
addition or a membership test 0.02–0.05 ms.
"""

from __future__ import annotations

import binascii
from functools import lru_cache

from pbd import sodium
from pbd.digest import sha256
from pbd.fairplay import hmac_sha256

#: Order of the prime-order subgroup of edwards25519.
L = 2 ** 252 + 27742317777372353535851937790883648493
#: Bytes of an encoded element or scalar, and characters of an element in base64.
BYTES = 32
ELEMENT_CHARS = 43
#: The standard base point B (the generator of the subgroup).
G = sodium.scalarmult_base_noclamp((1).to_bytes(BYTES, "little"))
CHALLENGE_BITS = 128

Element = bytes
Proof = tuple[int, int]


def _sc(k: int) -> bytes:
    return (k % L).to_bytes(BYTES, "little")


#: Encodings already found to be members: by this process, or by earlier commands on this machine once the
#: pipeline has recalled them (:func:`pbd.cache.recall_points`).  Only :func:`is_member` adds to it.
KNOWN: set[bytes] = set()


def is_member(x: object) -> bool:
    """Return True if ``x`` is the canonical encoding of a point of the prime-order subgroup, not the identity."""
    if type(x) is bytes and x in KNOWN:
        return True
    if sodium.is_valid_point(x):
        KNOWN.add(x)
        return True
    return False


#: The identity (the neutral point), which no document may hold but a sum may reach.
IDENTITY = b"\x01" + bytes(BYTES - 1)


def mul(k: int, x: Element) -> Element:
    """Return ``k·x`` (``k`` taken modulo L; the identity for ``k = 0`` or the identity ``x``)."""
    if k % L == 0 or x == IDENTITY:
        return IDENTITY
    return sodium.scalarmult_noclamp(_sc(k), x)


def base_mul(k: int) -> Element:
    """Return ``k·B``."""
    return IDENTITY if k % L == 0 else sodium.scalarmult_base_noclamp(_sc(k))


def add(x: Element, y: Element) -> Element:
    """Return ``x + y``."""
    return sodium.add(x, y)


def sub(x: Element, y: Element) -> Element:
    """Return ``x - y``."""
    return sodium.sub(x, y)


def combine(terms) -> Element:
    """Return the sum of ``k·x`` over the ``(k, x)`` pairs (a multi-scalar multiplication, term by term)."""
    out = IDENTITY
    for k, x in terms:
        out = add(out, mul(k, x))
    return out


def derive_key(seed: bytes, label: str) -> int:
    """Return a secret locking scalar (uniform in 2..L-1) derived from a seat's seed and ``label``."""
    raw = hmac_sha256(seed, f"pbd-table-key-v2|{label}|0".encode()) + hmac_sha256(seed, f"pbd-table-key-v2|{label}|1"
                                                                                   .encode())
    return 2 + int.from_bytes(raw, "little") % (L - 2)


def public_key(k: int) -> Element:
    """Return ``k·B``, the public key of scalar ``k``."""
    return base_mul(k)


def key_problem(y: Element | None, others=()) -> str | None:
    """Return why ``y`` cannot be a seat's public key (None if it can): missing, the base point, or another's."""
    if y is None or not is_member(y):
        return "it is not a point of the dealing group"
    if y == G:
        return "it is the group's generator (a lock with it does nothing)"
    if y in others:
        return "it is another seat's key"
    return None


@lru_cache(maxsize=4096)
def hash_to_group(label: str) -> Element:
    """Return a point of the subgroup that nobody knows a discrete logarithm of, named by ``label``.

    The label is hashed (SHA-256, domain-separated), two independent 32-byte strings are drawn
    from it (HMAC-SHA256), each is mapped onto the curve by Elligator 2 and the two points are
    added — the shape of RFC 9380's hash_to_curve; libsodium's map clears the cofactor.
    """
    digest = sha256(f"pbd-table-hash-to-group-v2|{label}".encode()).digest()
    a = sodium.from_uniform(hmac_sha256(digest, b"0"))
    b = sodium.from_uniform(hmac_sha256(digest, b"1"))
    return add(a, b)


def code(label: str) -> Element:
    """Return the public code of a card (a hashed point)."""
    return hash_to_group(f"card|{label}")


def lock(x: Element, k: int) -> Element:
    """Return ``x`` locked with scalar ``k``."""
    return mul(k, x)


@lru_cache(maxsize=64)
def _inverse(k: int) -> int:
    return pow(k, -1, L)


def unlock(x: Element, k: int) -> Element:
    """Return ``x`` with the lock of scalar ``k`` removed."""
    return mul(_inverse(k), x)


def challenge(domain: str, parts, bits: int = CHALLENGE_BITS) -> int:
    """Return a Fiat–Shamir challenge of ``bits`` bits: SHA-256 over ``domain`` and every part (bytes or str)."""
    h = sha256(f"pbd-table-{domain}-v2".encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return int.from_bytes(h.digest(), "big") >> (256 - bits)


def nonce(k: int, *parts) -> int:
    """Return a secret nonce modulo L derived from the secret ``k`` and the statement (RFC 6979's idea)."""
    key = _sc(k)
    msg = b"|".join(p if isinstance(p, bytes) else str(p).encode() for p in parts)
    raw = hmac_sha256(key, msg + b"|0") + hmac_sha256(key, msg + b"|1")
    return int.from_bytes(raw, "little") % L


def prove(k: int, base: Element, result: Element, context: str = "") -> Proof:
    """Return a proof that ``result = k·base`` for the ``k`` behind the public key ``k·B``.

    Chaum–Pedersen: nonce ``r``, commitments ``a = r·B``, ``b = r·base``, challenge
    ``e = H(B, Y, base, result, a, b, context)`` (128 bits), response ``s = r + e·k mod L``.
    """
    y = public_key(k)
    r = nonce(k, b"dleq", base, result, context)
    e = challenge("dleq", (G, y, base, result, base_mul(r), mul(r, base), context))
    return e, (r + e * k) % L


#: Digests of the statements :func:`verify` found to hold: by this process, or by earlier commands on this
#: machine once the pipeline has recalled them (:func:`pbd.cache.recall_proofs`).  Only :func:`verify` adds to it.
VERIFIED: set[bytes] = set()


@lru_cache(maxsize=4096)
def verify(y: Element | None, base: Element | None, result: Element | None, proof: Proof, context: str = "") -> bool:
    """Return True if ``proof`` shows ``result = k·base`` where ``y = k·B``.

    A statement this machine found to hold before (:data:`VERIFIED`) is not checked again.
    """
    e, s = proof
    if not (0 <= e < 1 << CHALLENGE_BITS and 0 <= s < L) or not all(map(is_member, (y, base, result))):
        return False
    seen = _statement(y, base, result, e, s, context)
    if seen in VERIFIED:
        return True
    a = add(base_mul(s), mul(-e, y))            # s·B by the fixed-base multiplication: a third of the cost
    b = combine(((s, base), (-e, result)))
    if challenge("dleq", (G, y, base, result, a, b, context)) != e:
        return False
    VERIFIED.add(seen)
    return True


def _statement(y: Element, base: Element, result: Element, e: int, s: int, context: str) -> bytes:
    """Return the 32-byte digest :data:`VERIFIED` keeps for a proof (every part but the last of fixed length)."""
    return sha256(b"pbd-table-dleq-checked-v1|" + y + base + result + e.to_bytes(16, "big") + s.to_bytes(32, "big")
                  + context.encode()).digest()


# -- batched proofs of unlocking ----------------------------------------------------------------

def batch_coefficients(y: Element, pairs, context: str = "") -> list[int]:
    """Return the 128-bit coefficients of a batch: hashed from the key, every pair and the context.

    ``pairs`` are ``(base, result)``; the seed is one hash over the base point, ``y``, the
    context and every pair in order, and coefficient ``i`` is a hash of the seed and ``i``
    (RFC 9497's ComputeComposites), so no coefficient can be chosen apart from the statement.
    """
    seed = challenge("dleq-batch-seed", (G, y, context, *(x for pair in pairs for x in pair)), bits=256)
    digest = seed.to_bytes(BYTES, "big")
    return [challenge("dleq-batch-coefficient", (digest, str(i))) for i in range(len(pairs))]


def composite(y: Element, pairs, context: str = "") -> tuple[Element, Element]:
    """Return ``(M, Z)``: the sums of the bases and of the results, each weighted by :func:`batch_coefficients`."""
    cs = batch_coefficients(y, pairs, context)
    return combine(zip(cs, (b for b, _ in pairs))), combine(zip(cs, (r for _, r in pairs)))


def prove_batch(k: int, pairs, context: str = "") -> Proof:
    """Return one proof that ``result = k·base`` for every ``(base, result)`` pair, for the ``k`` behind ``k·B``.

    The batched discrete-log-equivalence proof of Privacy Pass (Davidson, Goldberg, Sullivan,
    Tankersley, Valsorda, "Privacy Pass: Bypassing Internet Challenges Anonymously", PoPETs
    2018(3), batched DLEQ proofs) as RFC 9497 section 2.2 specifies it: the pairs are folded into
    one, ``M = sum c_i·base_i`` and ``Z = sum c_i·result_i`` with the coefficients of
    :func:`batch_coefficients`, and :func:`prove` shows ``Z = k·M``.

    Soundness: if some ``result_j`` is not ``k·base_j``, then ``Z - k·M = sum c_i·(result_i - k·base_i)``
    is the identity for at most one value of ``c_j`` modulo L given the others, and ``c_j`` is a
    128-bit hash output of the whole statement (L > 2^128), so each try at the statement succeeds
    with probability at most 2^-128; with the Chaum–Pedersen proof's own 2^-128, a batch is
    sound except with probability about 2^-127 per try (``q`` hash queries: about ``q``·2^-127),
    the same order as one proof per pair.
    """
    m, z = composite(public_key(k), pairs, context)
    return prove(k, m, z, f"batch|{context}")


def verify_batch(y: Element | None, pairs, proof: Proof, context: str = "") -> bool:
    """Return True if ``proof`` (:func:`prove_batch`) shows ``result = k·base`` for every pair, where ``y = k·B``."""
    pairs = tuple(pairs)
    if not pairs or not all(is_member(x) for pair in pairs for x in pair) or not is_member(y):
        return False
    return _verify_batch(y, pairs, proof, context)


@lru_cache(maxsize=1024)
def _verify_batch(y: Element, pairs: tuple, proof: Proof, context: str) -> bool:
    m, z = composite(y, pairs, context)
    return verify(y, m, z, proof, f"batch|{context}")


# -- compact text forms -----------------------------------------------------------------------

#: URL-safe base64 (RFC 4648 section 5) from and to the standard alphabet that ``binascii`` speaks
_TO_URLSAFE, _FROM_URLSAFE = bytes.maketrans(b"+/", b"-_"), bytes.maketrans(b"-_", b"+/")


def b64(data: bytes) -> str:
    """Return ``data`` as unpadded URL-safe base64."""
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).decode().rstrip("=")


def unb64(text: str) -> bytes:
    """Return the bytes of unpadded URL-safe base64 ``text``.

    :raises ValueError: not ASCII, or not base64.
    """
    if not text.isascii() or "=" in text or "+" in text or "/" in text:
        raise ValueError("not base64")
    try:
        return binascii.a2b_base64((text + "=" * (-len(text) % 4)).encode("ascii").translate(_FROM_URLSAFE),
                                   strict_mode=True)
    except binascii.Error:
        raise ValueError("not base64") from None


def encode(value: Element) -> str:
    """Return the text form of a group element (unpadded URL-safe base64, 43 characters)."""
    return b64(value)


def decode(text: str) -> Element:
    """Return the group element written as ``text``.

    :raises ValueError: malformed, non-canonical, or not an element of the prime-order subgroup.
    """
    if len(text) != ELEMENT_CHARS:
        raise ValueError(f"a number of the deck has {ELEMENT_CHARS} characters, this one {len(text)}")
    try:
        value = unb64(text)
    except ValueError:
        raise ValueError("a number of the deck is damaged (not base64)") from None
    if b64(value) != text or not is_member(value):
        raise ValueError("a number is not a point of the dealing group (not canonical, of small order, or off the "
                         "prime-order subgroup): such a number could mark a card")
    return value


def encode_scalar(k: int) -> bytes:
    """Return the canonical 32-byte little-endian form of a scalar."""
    return _sc(k)


def decode_scalar(data: bytes) -> int:
    """Return the scalar of 32 bytes.

    :raises ValueError: not canonical (at least L).
    """
    k = int.from_bytes(data, "little")
    if len(data) != BYTES or k >= L:
        raise ValueError("a scalar is not canonical")
    return k


def encode_proof(proof: Proof) -> str:
    """Return the text form of a proof: challenge (16 bytes) and response (32 bytes) in one base64 word."""
    e, s = proof
    return b64(e.to_bytes(CHALLENGE_BITS // 8, "big") + _sc(s))


def decode_proof(text: str) -> Proof:
    """Return the proof written as ``text``.

    :raises ValueError: malformed.
    """
    if len(text) != 64:
        raise ValueError("a proof has 64 characters")
    try:
        raw = unb64(text)
    except ValueError:
        raise ValueError("a proof is damaged (not base64)") from None
    return int.from_bytes(raw[:16], "big"), decode_scalar(raw[16:])
