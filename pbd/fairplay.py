"""Fair draws and dice: seeds, commitments, hash chains, beacons, unbiased sampling, log MACs.

The protocol (also told to players in the README, "Fair draws and dice"):

* Each seat's pbd makes a secret 32-byte seed (or stretches ``--seed TEXT`` with the match id
  through PBKDF2) and publishes ``commitment(seed, deck)``: a SHA-256 over the seed and the
  exact, numbered list the seat draws from.  Neither can change afterwards.
* From the seed it derives hash chains, one *generation* after another, each
  ``CHAIN_LENGTH`` long: ``c_k = H^k(HMAC(seed, "pbd-chain-v2|g"))``.  Published value number
  ``n`` (one per turn of its owner) is ``c_{L-j}`` of generation ``g = (n-1) // L``,
  ``j = n - g*L``; value 0 is the head of generation 0.  Each value hashes to the one before
  it.  With the last value of generation ``g`` the seat publishes the head of generation
  ``g+1`` (``next``), so a chain never runs out.
* A random event of seat P is ``HMAC(seed_P, "pbd-v2|kind|counter|die|purpose|beacon")``: the
  kind (``draw``, ``roll`` the rules call for, ``free`` roll) has its own counter, and the
  *beacon* names every other seat's latest published chain value.  P cannot compute it before
  every other seat has published the value it depends on; no other seat, nor any coalition
  short of everyone, can steer or foresee it (each value is fixed by a committed chain, the
  seed by the commitment).
* The HMAC output is mapped onto ``0..n-1`` by rejection sampling (no modulo bias).
* Each log entry carries a MAC by its writer (key derived from the writer's seed): anyone
  checks it once the writer reveals.

Everything here is pure: no files, no clock, no global random state.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import starmap

from pbd.digest import sha256
from pbd.regex import pattern

#: values per chain generation (read at call time, so tests may shorten it)
CHAIN_LENGTH = 1024
#: PBKDF2 iterations that stretch ``--seed TEXT`` (modest: --seed is for tutorials and tests)
SEED_ITERATIONS = 4096
_LIMIT_BITS = 64
KINDS = ("draw", "roll", "free")
PURPOSE_RE = pattern(r"^[a-z][a-z0-9-]{0,23}$")


def new_seed() -> bytes:
    """Return a fresh secret seed from the operating system's CSPRNG."""
    import secrets

    return secrets.token_bytes(32)


@lru_cache(maxsize=256)
def seed_from_text(text: str, match_id: str = "") -> bytes:
    """Return the seed fixed by ``--seed TEXT`` in match ``match_id`` (for tutorials and tests).

    The text is stretched with PBKDF2-HMAC-SHA256, salted with the match id, so one guess
    costs ``SEED_ITERATIONS`` hashes per match; a guessable text is still guessable.
    """
    import hashlib

    return hashlib.pbkdf2_hmac("sha256", text.encode("utf-8"), b"pbd-seed-v2|" + match_id.encode("utf-8"),
                               SEED_ITERATIONS)


def match_id_from_text(text: str) -> str:
    """Return the match id of a match created with ``--seed TEXT`` (so a tutorial repeats exactly).

    Stretched like the seed: testing a guess of the text against a match id costs as much
    as against the commitment.
    """
    import hashlib

    return hashlib.pbkdf2_hmac("sha256", text.encode("utf-8"), b"pbd-match-id-v2", SEED_ITERATIONS)[:4].hex()


def commitment(seed: bytes, deck: list[str]) -> str:
    """Return the hex commitment to ``seed`` and the numbered ``deck`` list."""
    body = "\n".join(f"{i}. {name}" for i, name in enumerate(deck, 1))
    return sha256(b"pbd-commit-v1\n" + seed.hex().encode() + b"\n" + body.encode("utf-8")).hexdigest()


# -- hash chains -----------------------------------------------------------------------------

def chain_value(seed: bytes, k: int, generation: int = 0) -> str:
    """Return ``c_k`` of the seat's chain of ``generation``, as hex (``c_L`` is its head).

    :raises ValueError: ``k`` is outside ``0..CHAIN_LENGTH``.
    """
    if not 0 <= k <= CHAIN_LENGTH:
        raise ValueError(f"a hash chain has values 0..{CHAIN_LENGTH}, not {k}")
    return _chain(seed, generation, CHAIN_LENGTH)[32 * k:32 * k + 32].hex()


def head(seed: bytes, generation: int = 0) -> str:
    """Return the head of the seat's chain of ``generation`` (published before its values)."""
    return chain_value(seed, CHAIN_LENGTH, generation)


#: where the command pipeline keeps its seats' worked-out chains between commands (None: nowhere, as in
#: library use: tests, simulations, benchmarks write no file).  An object with ``load(seed, generation,
#: length) -> bytes | None`` (None: not kept, or not sound) and ``save(seed, generation, length, chain)``;
#: see :class:`pbd.private.ChainStore`.
chain_store = None


@lru_cache(maxsize=128)
def _chain(seed: bytes, generation: int, length: int) -> bytes:
    """Return the values ``c_0 .. c_length`` of a chain, 32 bytes each, end to end.

    Kept for 128 chains (one bytes object: about 33 kB each), so a process that plays many
    matches side by side (a simulation, a benchmark, the tests) does not walk a seat's
    chain again every time it publishes a value.  Between commands, :data:`chain_store`
    keeps it (walking it is 1,025 hashes, about 4.6M instructions of every command that
    publishes); what the store gives back is used only if it has the chain's length and
    starts with the chain's first value (one HMAC), else the chain is walked and kept again.
    """
    store = chain_store
    if store is None:
        return _walk(seed, generation, length)
    kept = store.load(seed, generation, length)
    if kept is not None and len(kept) == 32 * (length + 1) and kept[:32] == _start(seed, generation):
        return kept
    chain = _walk(seed, generation, length)
    store.save(seed, generation, length, chain)
    return chain


def _start(seed: bytes, generation: int) -> bytes:
    """Return ``c_0`` of the seat's chain of ``generation``."""
    return hmac_sha256(seed, f"pbd-chain-v2|{generation}".encode())


def _walk(seed: bytes, generation: int, length: int) -> bytes:
    """Return :func:`_chain`'s values, worked out: ``c_0`` and ``length`` hashes after it."""
    value = _start(seed, generation)
    out = [value]
    sha = sha256
    for _ in range(length):
        value = sha(value).digest()
        out.append(value)
    return b"".join(out)


def generation(n: int) -> int:
    """Return the chain generation published value number ``n`` belongs to (0 for the head)."""
    return 0 if n <= 0 else (n - 1) // CHAIN_LENGTH


def published_value(seed: bytes, n: int) -> str:
    """Return published chain value number ``n`` of a seat (0: the head of generation 0)."""
    if n <= 0:
        return chain_value(seed, CHAIN_LENGTH - n, 0)      # the head (or the error of a value number below 0)
    length = CHAIN_LENGTH
    g = (n - 1) // length                                   # (generation(n), without a call: every turn publishes)
    k = length - (n - g * length)                           # in 0..length-1: chain_value's, without its check
    return _chain(seed, g, length)[32 * k:32 * k + 32].hex()


def ends_generation(n: int) -> bool:
    """Return True if value number ``n`` is the last of its generation (the next head goes with it)."""
    return n > 0 and n % CHAIN_LENGTH == 0


def chain_links(value: str, n: int, earlier: str, m: int, heads: dict[int, str]) -> bool:
    """Return True if ``value`` (number ``n``) follows ``earlier`` (number ``m <= n``) down the chains.

    Within one generation each value hashes to the one before; crossing into generation
    ``g`` the value must hash to ``heads[g]`` (published with the last value of ``g - 1``).
    """
    try:
        digest = bytes.fromhex(value)
    except ValueError:
        return False
    if n < m:
        return False
    g = generation(n)
    if g == generation(m) and not (m > 0 and ends_generation(m) and n > m):
        return _hash(digest, n - m).hex() == earlier
    return g in heads and _hash(digest, n - g * CHAIN_LENGTH).hex() == heads[g]


def _hash(digest: bytes, times: int) -> bytes:
    for _ in range(times):
        digest = sha256(digest).digest()
    return digest


def hash_back(value: str, steps: int) -> str:
    """Return the chain value ``steps`` before ``value`` (SHA-256 applied ``steps`` times).

    :raises ValueError: ``value`` is not hex.
    """
    return _hash(bytes.fromhex(value), steps).hex()


def chain_reaches(value: str, steps: int, earlier: str) -> bool:
    """Return True if hashing ``value`` ``steps`` times gives ``earlier`` (a value published before it)."""
    try:
        return hash_back(value, steps) == earlier
    except ValueError:
        return False


def chain_follows(value: str, previous: str) -> bool:
    """Return True if ``value`` is the chain value published just after ``previous``."""
    return chain_reaches(value, 1, previous)


# -- random events -------------------------------------------------------------------------

def beacon_text(others: Sequence[tuple[str, int, str]]) -> str:
    """Return the beacon of an event: every other seat's ``(name, value number, value)``, in seat order."""
    if len(others) == 1:                # (two seats: the other's part is the beacon, without a join)
        return _BEACON_PART(*others[0])
    return ";".join(starmap(_BEACON_PART, others))       # (no generator: a beacon is made for every draw)


#: one seat's part of a beacon (the bound method made once, not at every beacon)
_BEACON_PART = "{}={}:{}".format


def uniform(seed: bytes, message: str, n: int) -> int:
    """Return an unbiased integer in ``0..n-1`` derived from ``HMAC(seed, message)``.

    Rejection sampling over 64-bit blocks: a block at or above the largest multiple
    of ``n`` is thrown away and the next block is taken.
    """
    if n <= 0:
        raise ValueError("uniform() needs n >= 1")
    # the fast path: the first block is taken but once in 2**64 / n times (every draw and roll comes here); below
    # _SURE it is under the bound of every n up to 2**32 (_SPAN % n < n), which is then not worked out (two
    # big-int operations a draw); anything else takes the whole rejection sampling, from the first block
    candidate = _big_endian(hmac_sha256(seed, f"{message}|0".encode())[:8])
    if candidate < _SURE and n <= _SURE_N:
        return candidate % n
    return _rejection(seed, message, n)


def _rejection(seed: bytes, message: str, n: int) -> int:
    """Return :func:`uniform`'s answer by the whole rejection sampling, from the first block."""
    limit = _SPAN - _SPAN % n
    block = 0
    while True:
        digest = hmac_sha256(seed, f"{message}|{block}".encode())
        for off in _BLOCKS:
            candidate = _big_endian(digest[off:off + 8])
            if candidate < limit:
                return candidate % n
        block += 1


#: 2**64, the number of values of a 64-bit block; the blocks' offsets in an HMAC's 32 bytes
_SPAN = 1 << _LIMIT_BITS
_BLOCKS = (0, 8, 16, 24)
#: :func:`uniform`'s fast path: a block below ``_SURE`` is below the rejection bound of every ``n <= _SURE_N``
_SURE_N = 1 << 32
_SURE = _SPAN - _SURE_N
#: ``int.from_bytes(block, "big")``: the bound method made once (reading ``int.from_bytes`` makes one each time),
#: called with the default byte order ("big" since Python 3.11) rather than an argument checked at every draw
_big_endian = int.from_bytes


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """Return HMAC-SHA256 of ``message`` under ``key`` (RFC 2104), the same bytes as :func:`hmac.digest`.

    A fast path: a draw or roll costs one HMAC, and half of it is the key's padded blocks,
    hashed once per key (:func:`_hmac_pads`) and copied for each message.
    """
    try:
        inner, outer = _PADS[key]           # (the kept pads, by subscript: no call)
    except (KeyError, TypeError):           # a new key, or a bytearray
        inner, outer = _hmac_pads(key)
    inner, outer = inner.copy(), outer.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


#: :func:`_hmac_pads` by key (a plain dict: looking it up is a good part of an HMAC's cost)
_PADS: dict[bytes, tuple] = {}


def _hmac_pads(key: bytes) -> tuple:
    """Return (and keep) SHA-256 states that have read ``key``'s inner and outer padded blocks (RFC 2104)."""
    key = bytes(key)                        # (a bytearray too)
    block = sha256().block_size
    padded = (sha256(key).digest() if len(key) > block else key).ljust(block, b"\0")
    if len(_PADS) >= 64:
        _PADS.clear()
    pads = _PADS[key] = (sha256(bytes(b ^ 0x36 for b in padded)),
                         sha256(bytes(b ^ 0x5C for b in padded)))
    return pads


def die_spec(faces: Sequence[int]) -> str:
    """Return how a die is written in the log: ``d6`` for faces 1..6, ``d(1 3 4 5 6 8)`` otherwise."""
    faces = list(faces)
    if faces == list(range(1, len(faces) + 1)):
        return f"d{len(faces)}"
    return "d(" + " ".join(map(str, faces)) + ")"


def event_message(kind: str, counter: int, beacon: str, die: str = "", purpose: str = "") -> str:
    """Return the HMAC message of a seat's ``counter``-th random event of ``kind``."""
    before, after = _event_frame(kind, beacon, die, purpose)
    return f"{before}{counter}{after}"


def _event_frame(kind: str, beacon: str, die: str = "", purpose: str = "") -> tuple[str, str]:
    """Return the parts of :func:`event_message` before and after the counter (the same for a run of draws).

    :raises ValueError: an unknown kind of random event.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of random event {kind!r}")
    return f"pbd-v2|{kind}|", f"|{die}|{purpose}|{beacon}"


#: the parts of a draw's message around its counter, with the beacon left out (see :func:`draws`)
_DRAW_FRAME = _event_frame("draw", "")


def draw(seed: bytes, counter: int, beacon: str, remaining: list[int]) -> int:
    """Return the deck position drawn, uniformly among the ``remaining`` positions."""
    return draws(seed, counter, beacon, sorted(remaining), 1)[0]


def draws(seed: bytes, counter: int, beacon: str, remaining: list[int], n: int) -> list[int]:
    """Return ``n`` positions drawn one after another, each taken out of ``remaining`` (ascending; changed in place).

    The same positions as :func:`draw` for the counters ``counter``, ``counter + 1``, ...
    with each drawn position removed before the next draw; one call for a run of cards.

    :raises ValueError: ``n`` is more than the positions remaining (nothing is taken then).
    """
    size = len(remaining)
    if n > size:
        raise ValueError(f"cannot draw {n} of {size} positions")
    before, after = _DRAW_FRAME         # (_event_frame("draw", beacon) without the call: the beacon comes last)
    after += beacon
    out = []
    for counter in range(counter, counter + n):
        out.append(remaining.pop(uniform(seed, f"{before}{counter}{after}", size)))
        size -= 1
    return out


def roll(seed: bytes, counter: int, beacon: str, faces: Sequence[int] | int = 6, kind: str = "roll",
         purpose: str = "") -> int:
    """Return the face a die shows: ``faces`` is a number of sides (1..n) or the faces themselves."""
    faces = list(range(1, faces + 1)) if isinstance(faces, int) else list(faces)
    return faces[uniform(seed, event_message(kind, counter, beacon, die_spec(faces), purpose), len(faces))]


# -- the log ---------------------------------------------------------------------------------

def log_genesis(match_id: str) -> str:
    """Return the hash the first log entry chains to: a full SHA-256 of the match id."""
    return sha256(b"pbd-log-v2\n" + match_id.encode("utf-8")).hexdigest()


def log_link(previous: str, line: str) -> str:
    """Return the hash of a log entry's ``line`` (everything but its hash) chained to ``previous``."""
    return sha256(f"{previous}\n{line}".encode("utf-8")).hexdigest()


def seal(lines: Sequence[str]) -> str:
    """Return the seal of the sections pbd writes besides the board and the log (16 hex digits)."""
    return sha256(("pbd-seal-v2\n" + "\n".join(lines)).encode("utf-8")).hexdigest()[:16]


def entry_mac(seed: bytes, previous: str, body: str) -> str:
    """Return the writer's MAC of a log entry (its ``body`` with its seal, chained to ``previous``)."""
    key = hmac_sha256(seed, b"pbd-log-mac-v2")
    return hmac_sha256(key, f"{previous}\n{body}".encode("utf-8")).hex()[:16]
