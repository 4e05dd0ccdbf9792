"""SHA-256 without loading OpenSSL: the hash every command needs, at a fraction of ``hashlib``'s import cost.

``import hashlib`` loads OpenSSL's ``libcrypto`` (about 4 ms of every command's start-up
here); CPython also ships its own SHA-256 (the module ``hashlib`` itself falls back to),
which gives the same digests and, for the short messages pbd hashes most (log entries,
HMACs of draws), is faster.  Where a Python build leaves it out, ``hashlib``'s is used.
Only SHA-256 is needed on a command's common path; PBKDF2 and the rest stay in ``hashlib``.
:func:`fingerprint` recognises content pbd keeps or reads again (BLAKE2b, CPython's own too).
"""

from __future__ import annotations

import sys

try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256
    else:
        from _sha256 import sha256
except ImportError:  # a build without the built-in hashes
    from hashlib import sha256

__all__ = ["sha256", "hexdigest", "fingerprint"]


def hexdigest(data: bytes) -> str:
    """Return the SHA-256 of ``data`` as 64 hex digits."""
    return sha256(data).hexdigest()


try:  # CPython's own BLAKE2 (no OpenSSL either): a third of its SHA-256's cost per byte
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a build without it (hashlib has no blake2b then either)
    def fingerprint(data: bytes) -> bytes:
        """Return 32 bytes that tell ``data`` from any other: its SHA-256 (a Python without BLAKE2)."""
        return sha256(data).digest()
else:
    def fingerprint(data: bytes) -> bytes:
        """Return 32 bytes that tell ``data`` from any other (its BLAKE2b): for recognising content pbd keeps or
        re-reads (cache entries, a local document's revision), never for what is written into a match."""
        return blake2b(data, digest_size=32).digest()
