"""pbd.sodium gives what PyNaCl's public API gives (it calls the same libsodium, without importing nacl.bindings)."""

from __future__ import annotations

import nacl.bindings as nb
import nacl.signing
import pytest

from pbd import sodium


def test_the_curve_operations_match_pynacls():
    p = nb.crypto_core_ed25519_from_uniform(b"\x05" * 32)
    q = nb.crypto_core_ed25519_from_uniform(b"\x06" * 32)
    k = (12345).to_bytes(32, "little")
    assert sodium.from_uniform(b"\x05" * 32) == p
    assert sodium.add(p, q) == nb.crypto_core_ed25519_add(p, q)
    assert sodium.sub(p, q) == nb.crypto_core_ed25519_sub(p, q)
    assert sodium.scalarmult_noclamp(k, p) == nb.crypto_scalarmult_ed25519_noclamp(k, p)
    assert sodium.scalarmult_base_noclamp(k) == nb.crypto_scalarmult_ed25519_base_noclamp(k)
    assert sodium.is_valid_point(p) and not sodium.is_valid_point(b"\x01" + bytes(31)) and not sodium.is_valid_point(p[:31])


def test_lengths_are_checked_before_libsodium_reads_a_byte():
    with pytest.raises(sodium.SodiumError):
        sodium.scalarmult_noclamp(b"\x01" * 31, sodium.from_uniform(b"\x05" * 32))
    with pytest.raises(sodium.SodiumError):
        sodium.add(b"short", b"\x01" * 32)
    with pytest.raises(sodium.SodiumError):          # the identity as a result is refused, as libsodium does
        sodium.scalarmult_noclamp(bytes(32), sodium.from_uniform(b"\x05" * 32))


def test_ed25519_matches_pynacl_and_refuses_a_changed_message():
    seed = b"\x09" * 32
    pk, sk = sodium.sign_seed_keypair(seed)
    key = nacl.signing.SigningKey(seed)
    assert pk == bytes(key.verify_key)
    sig = sodium.sign(b"entry 12", sk)
    assert sig == key.sign(b"entry 12").signature
    assert sodium.verify(sig, b"entry 12", pk)
    assert not sodium.verify(sig, b"entry 13", pk) and not sodium.verify(sig[:-1], b"entry 12", pk)
