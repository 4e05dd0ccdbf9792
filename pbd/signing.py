"""Signed log entries: every seat signs every entry it writes, and every seat checks them at once.

An entry's MAC (:func:`pbd.fairplay.entry_mac`) can be checked only once its writer reveals
its seed, so with three seats or more a third seat could not tell who wrote an entry: Cy's
modified pbd could answer Ben's pending decision in Ben's name, and Ann's pbd moved on it.
A signature tells at once.

The scheme
    Ed25519 (RFC 8032) through PyNaCl, which calls libsodium.  Each seat derives its signing
    key from its seed, domain-separated per match: the 32-byte Ed25519 seed is
    ``HMAC-SHA256(seed, "pbd-sign-key-v1|<match id>")``.  The seat's first entry (``new`` /
    ``join``) commits the verify key next to its commitment and chain head
    (``commits C head H · key K``, ``K`` the 32-byte key in unpadded base64url, 43 characters).
    Every entry the seat writes then ends in ``· sig S`` (64 bytes, 86 characters), a
    signature over ``"pbd-entry-sig-v1"``, the match id, the previous entry's chain hash and
    the entry's body with its key (if any) and seal (:meth:`~pbd.games.base.LogEntry.sealed`).
    The signature sits after the entry's chain hash, which does not cover it, so it can be
    dropped without breaking the chain (below).

The checks (:mod:`pbd.fairplay_checks`)
    Every seat's pbd checks the signature of every entry new to it on its next command, read
    commands included, before it shows anything or writes; a missing or bad one is refused
    (exit 3), naming the entry and the seat whose name it bears.  What the seat has checked
    is kept in its private state (``extra["signed"]``: the number of entries and the last
    one's hash), so no entry is checked twice.  A command with no seat (``pbd show``) checks
    every signature the document holds.  A verify key that is not the canonical encoding of
    a point of Ed25519's prime-order subgroup, or that is another seat's key, is refused.

Keeping the document bounded
    A signature may be dropped once every other seat has written an entry after it.  Each of
    them then checked it (a seat checks every new entry before it writes, and the signature
    could not be dropped before that write), and each keeps its progress privately; the
    writer's own pbd checks its own entries by their hashes and MACs.  pbd drops such
    signatures whenever it writes, so a document holds signatures only on the entries since
    the earliest "latest entry" among the seats: about one round of play (a seat that stops
    writing altogether keeps every signature after its last entry).  The rule is read from
    the document alone, so a joining seat (which checked nothing yet) accepts an entry
    without a signature only where the rule allows it, and checks every other one; for the
    ones dropped before it joined, it relies on the seats before it, each of which checked
    them (a forger would need every other seat's entry after its forgery, and the last such
    entry in an honest seat's name would need that seat's signature or MAC).

Older documents
    A match whose first entry commits no key was started by a pbd before signed entries: its
    entries carry no signatures and none are asked for (the MACs and the seats' private
    records still check them as before).  In a match whose first entry commits a key, a seat
    whose first entry commits none is refused (its pbd is older than this one).

Pure functions; no files.
"""

from __future__ import annotations

import binascii
from functools import lru_cache

from pbd.fairplay import hmac_sha256
from pbd.regex import pattern

#: characters of a verify key and of a signature, in unpadded base64url
KEY_CHARS, SIG_CHARS = 43, 86
KEY_RE = pattern(r"^[A-Za-z0-9_-]{43}$")
SIG_RE = pattern(r"^[A-Za-z0-9_-]{86}$")


#: base64url and standard base64 (binascii's, a built-in module: no ``base64`` import on every command)
_TO_STD, _TO_URL = str.maketrans("-_", "+/"), bytes.maketrans(b"+/", b"-_")


def _b64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).translate(_TO_URL).rstrip(b"=").decode("ascii")


def _unb64(text: str, size: int) -> bytes | None:
    """Return the bytes ``text`` encodes, or None if it is not their canonical unpadded base64url."""
    try:
        data = binascii.a2b_base64((text + "=" * (-len(text) % 4)).translate(_TO_STD), strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    return data if len(data) == size and _b64(data) == text else None


@lru_cache(maxsize=64)
def _keypair(seed: bytes, match_id: str) -> tuple[bytes, bytes]:
    """Return the seat's Ed25519 ``(verify key, secret key)`` in match ``match_id`` (libsodium's layout)."""
    from pbd import sodium

    return sodium.sign_seed_keypair(hmac_sha256(seed, f"pbd-sign-key-v1|{match_id}".encode("utf-8")))


def verify_key(seed: bytes, match_id: str) -> str:
    """Return the verify key a seat with ``seed`` commits in match ``match_id`` (43 base64url characters)."""
    return _b64(_keypair(seed, match_id)[0])


def _message(match_id: str, previous: str, body: str) -> bytes:
    return f"pbd-entry-sig-v1\n{match_id}\n{previous}\n{body}".encode("utf-8")


def sign(seed: bytes, match_id: str, previous: str, body: str) -> str:
    """Return the seat's signature of an entry: its ``body`` with its seal, chained to the ``previous`` hash."""
    from pbd import sodium

    return _b64(sodium.sign(_message(match_id, previous, body), _keypair(seed, match_id)[1]))


def key_problem(key: str) -> str:
    """Return why ``key`` cannot be a seat's verify key ('' if it can).

    It must be the canonical unpadded base64url of 32 bytes that are the canonical encoding of
    a point of Ed25519's prime-order subgroup, not of small order (libsodium's check).
    """
    from pbd import sodium

    raw = _unb64(key, 32) if KEY_RE.match(key) else None
    if raw is None:
        return "is not 43 characters of canonical base64url"
    if not sodium.is_valid_point(raw):
        return "is not a valid Ed25519 public key (not a canonical point of the prime-order subgroup)"
    return ""


def verifies(key: str, match_id: str, previous: str, body: str, signature: str) -> bool:
    """Return True if ``signature`` is ``key``'s signature of the entry ``body`` chained to ``previous``.

    ``key`` must have passed :func:`key_problem`.
    """
    from pbd import sodium

    raw = _unb64(signature, 64) if SIG_RE.match(signature) else None
    public = _unb64(key, 32)
    return raw is not None and public is not None and sodium.verify(raw, _message(match_id, previous, body), public)
