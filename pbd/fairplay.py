"""Fair draws and dice: seeds, commitments, hash chains and unbiased sampling.

The protocol (also told to players in the README):

* Each player's pbd makes a secret 32-byte seed (or derives it from ``--seed TEXT``) and
  publishes only ``commitment(seed, deck)``: a SHA-256 over the seed and the exact,
  numbered deck list.  Neither the seed nor the deck order can change afterwards.
* From the seed it also derives a hash chain ``c_k = H^k(HMAC(seed, "chain"))`` and
  publishes the head ``c_N``.  At the end of each of their turns it publishes the next
  value down the chain (``c_{N-1}``, ``c_{N-2}``, ...); anyone checks ``H(c_{k-1}) == c_k``.
* Player P's i-th random event (a draw or a roll) is ``HMAC(seed_P, "i|label|beacon")``
  where the beacon is the opponent's latest published chain value.  P cannot compute
  a draw before the opponent publishes the value it depends on, and the opponent,
  whose chain was fixed at the start, cannot steer it.
* The HMAC output is mapped onto ``0..n-1`` by rejection sampling (no modulo bias).
* A chain has ``CHAIN_LENGTH`` (1,024) values, one per turn of its owner; a player who
  somehow takes more turns than that stops publishing, and the opponent's draws from then
  on use the last value published.

Everything here is pure: no files, no clock, no global random state.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache

CHAIN_LENGTH = 1024
_LIMIT_BITS = 64


def new_seed() -> bytes:
    """Return a fresh secret seed from the operating system's CSPRNG."""
    import secrets

    return secrets.token_bytes(32)


def seed_from_text(text: str) -> bytes:
    """Return the seed fixed by ``--seed TEXT`` (for tutorials, tests and replays)."""
    return hashlib.sha256(b"pbd-seed-v1\n" + text.encode("utf-8")).digest()


def commitment(seed: bytes, deck: list[str]) -> str:
    """Return the hex commitment to ``seed`` and the numbered ``deck`` list."""
    body = "\n".join(f"{i}. {name}" for i, name in enumerate(deck, 1))
    return hashlib.sha256(b"pbd-commit-v1\n" + seed.hex().encode() + b"\n" + body.encode("utf-8")).hexdigest()


def chain_value(seed: bytes, k: int) -> str:
    """Return ``c_k``, the k-th value of the player's hash chain, as hex.

    :raises ValueError: ``k`` is outside ``0..CHAIN_LENGTH``.
    """
    if not 0 <= k <= CHAIN_LENGTH:
        raise ValueError(f"a hash chain has values 0..{CHAIN_LENGTH}, not {k}")
    return _chain(seed)[k].hex()


@lru_cache(maxsize=16)
def _chain(seed: bytes) -> tuple[bytes, ...]:
    value = hmac.new(seed, b"chain", hashlib.sha256).digest()
    out = [value]
    sha = hashlib.sha256
    for _ in range(CHAIN_LENGTH):
        value = sha(value).digest()
        out.append(value)
    return tuple(out)


def chain_reaches(value: str, steps: int, earlier: str) -> bool:
    """Return True if hashing ``value`` ``steps`` times gives ``earlier`` (a value published before it)."""
    try:
        digest = bytes.fromhex(value)
    except ValueError:
        return False
    for _ in range(steps):
        digest = hashlib.sha256(digest).digest()
    return digest.hex() == earlier


def chain_follows(value: str, previous: str) -> bool:
    """Return True if ``value`` is the chain value published just after ``previous``."""
    try:
        return hashlib.sha256(bytes.fromhex(value)).hexdigest() == previous
    except ValueError:
        return False


def uniform(seed: bytes, message: str, n: int) -> int:
    """Return an unbiased integer in ``0..n-1`` derived from ``HMAC(seed, message)``.

    Rejection sampling over 64-bit blocks: a block at or above the largest multiple
    of ``n`` is thrown away and the next block is taken.
    """
    if n <= 0:
        raise ValueError("uniform() needs n >= 1")
    limit = (1 << _LIMIT_BITS) - ((1 << _LIMIT_BITS) % n)
    block = 0
    while True:
        digest = hmac.digest(seed, f"{message}|{block}".encode("utf-8"), "sha256")  # one-shot: HMAC-SHA256
        for off in range(0, len(digest), 8):
            candidate = int.from_bytes(digest[off:off + 8], "big")
            if candidate < limit:
                return candidate % n
        block += 1


def event_message(counter: int, label: str, beacon: str) -> str:
    """Return the HMAC message of a player's ``counter``-th random event."""
    return f"{counter}|{label}|{beacon}"


def draw(seed: bytes, counter: int, beacon: str, remaining: list[int]) -> int:
    """Return the deck position drawn, uniformly among the ``remaining`` positions."""
    ordered = sorted(remaining)
    return ordered[uniform(seed, event_message(counter, "draw", beacon), len(ordered))]


def roll(seed: bytes, counter: int, beacon: str, sides: int) -> int:
    """Return a die roll in ``1..sides``."""
    return 1 + uniform(seed, event_message(counter, f"d{sides}", beacon), sides)
