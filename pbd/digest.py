"""SHA-256 without loading OpenSSL: the hash every command needs, at a fraction of ``hashlib``'s import cost.

``import hashlib`` loads OpenSSL's ``libcrypto`` (about 4 ms of every command's start-up
here); CPython also ships its own SHA-256 (the module ``hashlib`` itself falls back to),
which gives the same digests and, for the short messages pbd hashes most (log entries,
HMACs of draws), is faster.  Where a Python build leaves it out, ``hashlib``'s is used.
Only SHA-256 is needed on a command's common path; PBKDF2 and the rest stay in ``hashlib``.
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

__all__ = ["sha256", "hexdigest"]


def hexdigest(data: bytes) -> str:
    """Return the SHA-256 of ``data`` as 64 hex digits."""
    return sha256(data).hexdigest()
