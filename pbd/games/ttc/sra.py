"""Dealing from one shared deck without a dealer: commutative ("mental poker") encryption.

The protocol, in words a player can follow
-------------------------------------------

Every card of the deck is first turned into a public number (a "code"); anyone can
turn a code back into its card.  Each player's pbd has a secret key ``k`` (derived
from that player's committed seed) and "locks" a number ``x`` by computing
``x^k mod P`` for a fixed, published 2048-bit safe prime ``P``.  Locks commute: a
number locked by Lia and then Max can be unlocked by Lia first or Max first.

1. ``new``: the creator's pbd locks every code of each pile (the 50 Battle Cards and
   the four Army / Warrior piles) with her key, shuffles each pile secretly and writes
   the locked, shuffled piles into the document.
2. ``join``: each joiner's pbd locks every number again with his key and shuffles
   again.  After the last join nobody knows which locked number is which card: the
   order is the composition of every player's secret shuffle.
3. Cards are dealt by position: Battle positions 1-5 are Light's five face-down round
   cards, 6-13 Light's hand, 14-18 Dark's round cards, 19-26 Dark's hand; the first
   three Army and the first Warrior of each side's piles go to that side.
4. For a card in your hand, every *other* player's pbd publishes an unlock of its own
   lock (a "peel") in the document; your pbd then removes your own lock privately
   and learns the card.  Nobody else can: your lock is still on it in the document.
   The creator's peels for the joiner's hand are written by the creator's next pbd
   command after the join (any command given ``--as``).
5. The face-down round pairs are peeled by nobody until their round: ``flip`` publishes
   your peels for the current round's pair; when every player has flipped, the codes
   are in the clear and the pair is face up for everyone.

What it protects against, and what not
--------------------------------------

* Neither player's pbd can see the other's hand or the face-down pairs from the
  document, and neither can choose the deal: the order is fixed by all the shuffles.
* Locks are over the squares modulo ``P`` (a prime-order group), so a lock does not
  leak a card's quadratic character; keys are 256-bit (short-exponent Diffie-Hellman,
  the usual practice for this group size).
* The last player to peel a round pair sees it a moment before everyone else; pbd
  makes that player's only legal move the ``flip`` that shows it to all.
* It does **not** prevent cheating by a modified pbd, only makes it detectable: a
  player could write wrong numbers (a duplicated card, a wrong peel).  pbd checks
  that every card it decrypts is a card of this deck and not already seen, and once
  every player has revealed their seed (``pbd reveal``), ``pbd check`` re-derives every
  lock, shuffle and peel (:func:`pbd.games.ttc.deal.audit`) and names every number, card
  or play that does not fit.  A player can also stall by never peeling (abort).
* The keys live in the private state file; anyone who can read it sees your hand.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from pbd import fairplay

#: RFC 3526 group 14: the 2048-bit MODP safe prime P = 2Q + 1.
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
Q = (P - 1) // 2
_BYTES = (P.bit_length() + 7) // 8
KEY_BITS = 256


def key(seed: bytes, match_id: str) -> int:
    """Return a player's secret locking exponent for a match, derived from their seed."""
    raw = hmac.new(seed, f"pbd-ttc-sra-key|{match_id}".encode(), hashlib.sha256).digest()
    return 3 + int.from_bytes(raw, "big") % ((1 << KEY_BITS) - 3)


def unkey(k: int) -> int:
    """Return the unlocking exponent for the locking exponent ``k`` (its inverse mod Q)."""
    return pow(k, -1, Q)


def code(match_id: str, pile: str, card: int) -> int:
    """Return the public code of a card: a hashed square modulo P (never 1, never 0)."""
    raw = hashlib.shake_256(f"pbd-ttc-card|{match_id}|{pile}|{card}".encode()).digest(_BYTES + 16)
    x = int.from_bytes(raw, "big") % P
    return pow(max(x, 2), 2, P)


def lock(value: int, k: int) -> int:
    """Return ``value`` locked with exponent ``k``."""
    return pow(value, k, P)


def peel(value: int, k: int) -> int:
    """Return ``value`` with the lock of exponent ``k`` removed."""
    return pow(value, unkey(k), P)


def shuffle(values: list[int], seed: bytes, label: str) -> list[int]:
    """Return ``values`` in a secret order fixed by ``seed`` (Fisher-Yates, unbiased)."""
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = fairplay.uniform(seed, f"pbd-ttc-shuffle|{label}|{i}", i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def lock_and_shuffle(values: list[int], seed: bytes, match_id: str, pile: str) -> list[int]:
    """Return a pile locked with the player's key and shuffled in the player's secret order."""
    k = key(seed, match_id)
    return shuffle([lock(v, k) for v in values], seed, f"{match_id}|{pile}")


def encode(value: int) -> str:
    """Return the compact text form of a group element (unpadded URL-safe base64)."""
    return base64.urlsafe_b64encode(value.to_bytes(_BYTES, "big")).decode().rstrip("=")


def decode(text: str) -> int:
    """Return the group element written as ``text``.

    :raises ValueError: not a valid element.
    """
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    value = int.from_bytes(raw, "big")
    if not 1 < value < P or len(raw) != _BYTES:
        raise ValueError("not a number of the dealing group")
    return value
