"""The one adapter between Boys' Town and the shared table (pbd.table, TABLE_API.md).

Every call the game makes on the shared deck or the secret choice goes through here, so
the rules never depend on how the table works inside.  Piles of the deck:

* ``draw`` — the face-down Draw Pile; ``discard`` — the face-up Discard Pile (top first);
* ``town1`` .. ``town6`` — each seat's Town (by seat number), face up, in build order;
* hands are the deck's own (``deck.hands[seat]``); the draw-phase card is set aside by
  ``peek`` until ``keep`` or ``redraw``.

Card ids in the deck are the 1-based positions of the catalogue's deck list
(:meth:`Catalogue.deck`), so two copies of a card are two different ids.
"""

from __future__ import annotations

import os

from pbd.errors import DocumentFormatError
from pbd.table import secret

DRAW, DISCARD = "draw", "discard"


def piles(deck_list: list[str]) -> dict[str, list[str]]:
    """Return the shared deck's piles at the start: every card id face down in ``draw``."""
    return {DRAW: [str(i) for i in range(1, len(deck_list) + 1)], DISCARD: []}


def town(deck, seat: str) -> str:
    """Return the pile name of ``seat``'s Town (``town1`` .. ``town6``, by seat number)."""
    return f"town{deck.seats.index(seat) + 1}"


def name_of(deck_list: list[str], card_id: str | None) -> str | None:
    """Return the card name of a deck card id (None stays None).

    :raises DocumentFormatError: an id outside the deck list (tampering).
    """
    if card_id is None:
        return None
    if not str(card_id).isdigit() or not 1 <= int(card_id) <= len(deck_list):
        raise DocumentFormatError(f"the shared deck shows card id {str(card_id)[:12]!r}, which is not in the "
                                  f"catalogue's {len(deck_list)}-card deck")
    return deck_list[int(card_id) - 1]


def ready(deck, pile: str = DRAW) -> bool:
    """Return True if ``pile`` can be drawn from (no shuffle pass is owed on it)."""
    return deck.ready(pile)


def size(deck, pile: str) -> int:
    """Return how many cards ``pile`` holds."""
    return deck.size(pile)


def pile(deck, name: str) -> list[int]:
    """Return the slot ids of pile ``name``, top first (a Town: in build order)."""
    return list(deck.piles.get(name, []))


def hand(deck, seat: str) -> list[int]:
    """Return the slot ids in ``seat``'s hand."""
    return list(deck.hands.get(seat, []))


def card(deck, slot: int, seat: str | None = None) -> str | None:
    """Return the card id in ``slot`` if ``seat`` (None: anyone) can read it now."""
    if seat is None:
        return deck.slots[slot].card
    return deck.card(slot, seat)


def named(deck, seat: str, deck_list: list[str], name: str, slot: int | None = None) -> int | None:
    """Return the slot of ``seat``'s hand holding a copy of card ``name``, which a move names (a replay: maybe a
    hidden one, read as the first copy's id)."""
    return deck.named(seat, str(deck_list.index(name) + 1), slot, same=lambda cid: name_of(deck_list, cid) == name)


def reserve(deck, slots: set[int]) -> None:
    """Replaying: the slots later log entries open by number, which a card a move names is not taken from."""
    deck.reserved = slots


def deal(deck, seat: str, n: int) -> list[int]:
    """Deal ``n`` cards from the draw pile to ``seat``, face down."""
    return deck.deal(DRAW, seat, n)


def draw(deck, seat: str) -> int:
    """Draw the top card of the draw pile into ``seat``'s hand."""
    return deck.draw(DRAW, seat, 1)[0]


def peek(deck, seat: str) -> int:
    """Set the top card of the draw pile aside for ``seat`` (the draw phase)."""
    return deck.peek(DRAW, seat)


def keep(deck, seat: str, slot: int) -> None:
    """Put the card set aside by :func:`peek` into ``seat``'s hand."""
    deck.keep(seat, slot)


def discard_own(deck, seat: str, slot: int, to: str = DISCARD) -> None:
    """Turn ``seat``'s own hand card face up onto pile ``to`` (a redraw, a build, a used Hand effect)."""
    deck.discard(seat, slot, to=to)


def mill(deck) -> int:
    """Turn the top card of the draw pile face up onto the discard pile."""
    return deck.draw_face_up(DRAW, 1, to=DISCARD)[0]


def reveal(deck, seat: str, slot: int) -> str:
    """Show one of ``seat``'s hand cards to everyone (it stays in hand); return its card id."""
    return deck.reveal(seat, slot)


def to_pile(deck, slot: int, name: str) -> None:
    """Move a face-up card (in a pile, or shown in a hand) onto pile ``name`` (the top of the discard pile, the end of a Town)."""
    owner = deck.holder(slot)
    if owner is not None:          # a battle card shown from hand
        deck.discard(owner, slot, to=name)
        if name != DISCARD:
            deck.piles[name].remove(slot)
            deck.piles[name].append(slot)
        return
    deck.move(slot, name, top=name == DISCARD)


def to_hand(deck, slot: int, seat: str) -> None:
    """Put a face-up card into ``seat``'s hand (a swap; a battle card that is not discarded)."""
    deck.take(slot, seat)


def reshuffle(deck) -> None:
    """Rebuild the draw pile from all but the topmost discard (every seat shuffles it)."""
    deck.reshuffle(DISCARD, DRAW, keep_top=1)


def waiting_on(deck) -> list[str]:
    """Return the seats that owe the table work (unlocks, shuffle passes)."""
    return list(deck.waiting_on()) if deck is not None else []


# -- secret simultaneous choice ----------------------------------------------------------

def commit(match_id: str, seat: str, slot: int, nonce: str | None = None) -> tuple[str, str]:
    """Return ``(commitment, nonce)`` for ``seat``'s face-down choice of ``slot`` (pbd.table.secret).

    A fresh 128-bit nonce unless ``nonce`` is given (a replay re-making the logged commitment).
    """
    nonce = nonce or os.urandom(16).hex()          # what secrets.token_hex(16) is, without importing hmac and OpenSSL
    return secret.commit(seat, slot, nonce, match_id), nonce


def opens(match_id: str, seat: str, commitment: str, slot: int, nonce: str) -> bool:
    """Return True if ``slot`` and ``nonce`` open ``commitment`` of ``seat``."""
    return secret.open_(seat, commitment, slot, nonce, match=match_id)
