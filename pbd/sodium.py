"""The few libsodium functions pbd calls, through PyNaCl's compiled binding without ``import nacl.bindings``.

``import nacl.bindings`` loads every binding module PyNaCl has (and ``typing`` and ``re`` with
them): about 30 ms of CPU on this machine, more than Python's own start-up, paid by every command
of a game dealt from the shared deck (every number read is checked for membership).  PyNaCl's
compiled module ``nacl._sodium`` holds the same libsodium functions; each one pbd needs is wrapped
here as PyNaCl's own wrappers do it: the lengths checked before the call (a C function reads as
many bytes as it expects), the return code checked after it.

libsodium is initialised once, on import (``sodium_init`` is safe to call again).
"""

from __future__ import annotations

from nacl._sodium import ffi, lib

if lib.sodium_init() < 0:       # pragma: no cover - libsodium refuses to start only on a broken system
    raise ImportError("libsodium could not be initialised")

#: Bytes of a point or scalar of edwards25519, of an Ed25519 signature, public and secret key.
POINT = 32
SIGNATURE = 64
SECRET_KEY = 64


class SodiumError(ValueError):
    """libsodium refused an input (a point off the curve, a result that is the identity, a bad signature)."""


def _need(data: bytes, n: int) -> None:
    if not isinstance(data, bytes) or len(data) != n:
        raise SodiumError(f"libsodium expects {n} bytes here")


def _out(n: int):
    return ffi.new("unsigned char[]", n)


def scalarmult_noclamp(scalar: bytes, point: bytes) -> bytes:
    """Return ``scalar·point`` (libsodium refuses a point of small order and an identity result)."""
    _need(scalar, POINT)
    _need(point, POINT)
    out = _out(POINT)
    if lib.crypto_scalarmult_ed25519_noclamp(out, scalar, point) != 0:
        raise SodiumError("the result is the identity, or the point is not usable")
    return ffi.buffer(out, POINT)[:]


def scalarmult_base_noclamp(scalar: bytes) -> bytes:
    """Return ``scalar·B``."""
    _need(scalar, POINT)
    out = _out(POINT)
    if lib.crypto_scalarmult_ed25519_base_noclamp(out, scalar) != 0:
        raise SodiumError("the result is the identity")
    return ffi.buffer(out, POINT)[:]


def add(p: bytes, q: bytes) -> bytes:
    """Return ``p + q``."""
    return _two_points(lib.crypto_core_ed25519_add, p, q)


def sub(p: bytes, q: bytes) -> bytes:
    """Return ``p - q``."""
    return _two_points(lib.crypto_core_ed25519_sub, p, q)


def _two_points(function, p: bytes, q: bytes) -> bytes:
    _need(p, POINT)
    _need(q, POINT)
    out = _out(POINT)
    if function(out, p, q) != 0:
        raise SodiumError("a point is not on the curve")
    return ffi.buffer(out, POINT)[:]


def is_valid_point(p: bytes) -> bool:
    """Return True for the canonical encoding of a point of the prime-order subgroup, not of small order."""
    return isinstance(p, bytes) and len(p) == POINT and lib.crypto_core_ed25519_is_valid_point(p) == 1


def from_uniform(r: bytes) -> bytes:
    """Return the Elligator 2 map of 32 bytes onto the prime-order subgroup (cofactor cleared)."""
    _need(r, POINT)
    out = _out(POINT)
    if lib.crypto_core_ed25519_from_uniform(out, r) != 0:    # pragma: no cover - never fails for 32 bytes
        raise SodiumError("no point")
    return ffi.buffer(out, POINT)[:]


# -- Ed25519 signatures (RFC 8032) ---------------------------------------------------------------

def sign_seed_keypair(seed: bytes) -> tuple[bytes, bytes]:
    """Return the Ed25519 ``(public key, secret key)`` of a 32-byte seed (libsodium's 64-byte secret key)."""
    _need(seed, POINT)
    pk, sk = _out(POINT), _out(SECRET_KEY)
    if lib.crypto_sign_seed_keypair(pk, sk, seed) != 0:      # pragma: no cover - never fails for 32 bytes
        raise SodiumError("no key pair")
    return ffi.buffer(pk, POINT)[:], ffi.buffer(sk, SECRET_KEY)[:]


def sign(message: bytes, secret_key: bytes) -> bytes:
    """Return the 64-byte Ed25519 signature of ``message``."""
    _need(secret_key, SECRET_KEY)
    out, size = _out(SIGNATURE + len(message)), ffi.new("unsigned long long *")
    if lib.crypto_sign(out, size, message, len(message), secret_key) != 0:   # pragma: no cover
        raise SodiumError("cannot sign")
    return ffi.buffer(out, SIGNATURE)[:]


def verify(signature: bytes, message: bytes, public_key: bytes) -> bool:
    """Return True if ``signature`` is ``public_key``'s Ed25519 signature of ``message``."""
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE:
        return False
    _need(public_key, POINT)
    signed = signature + message
    out, size = _out(len(signed)), ffi.new("unsigned long long *")
    return lib.crypto_sign_open(out, size, signed, len(signed), public_key) == 0
