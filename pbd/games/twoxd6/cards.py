"""The one adapter between 2Xd6 and the shared deck (``pbd.table.deck.SharedDeck``, TABLE_API.md).

Piles: ``faces`` and ``pips`` (the shuffled Face and Pip stacks; after the deal their
remainders together are the Draw Patch), ``recycled`` (face up), ``board`` (cards played
into cells, face up) and ``open`` (face-up cards that changed hands).

Every card that changes hands (a hand-over, a toll, a trade, a collected stack) is shown
to everyone: the table has no private hand-to-hand pass, so such a card leaves the deck's
hand as a face-up card and the game keeps it in the receiver's *shown* cards
(``State.shown``).  A player's hand is their deck hand plus their shown cards.

Drawing from the Draw Patch: the two remainders stay apart and a fair roll over their
total picks which one gives its top card -- the same odds as one shuffled patch.
"""

from __future__ import annotations

PATCH = ("faces", "pips")


def ready(deck) -> bool:
    """Return True once both stacks are shuffled (the deal can go ahead)."""
    return all(deck.ready(p) for p in PATCH)


def patch_size(deck) -> int:
    """Return how many cards the Draw Patch holds."""
    return sum(deck.size(p) for p in PATCH)


def deal(deck, seat: str, faces: int, pips: int) -> None:
    """Deal ``faces`` Face cards and ``pips`` Pip cards to ``seat``, face down."""
    deck.deal("faces", seat, faces)
    deck.deal("pips", seat, pips)


def draw(deck, seat: str, chance, roller: str) -> int | None:
    """Draw the Draw Patch's card for ``seat`` (``roller``'s fair roll picks the pile); None if empty."""
    sizes = [deck.size(p) for p in PATCH]
    if not sum(sizes):
        return None
    if all(sizes):
        pick = chance.roll(roller, sum(sizes))
        pile = PATCH[0] if pick <= sizes[0] else PATCH[1]
    else:
        pile = PATCH[0] if sizes[0] else PATCH[1]
    return deck.draw(pile, seat, 1)[0]


def read(deck, slot: int, seat: str) -> str | None:
    """Return the card in ``slot`` as ``seat``'s pbd reads it (None: hidden from it).

    Replaying the log, a hidden card reads as what the log showed (the table's one deck call,
    :meth:`~pbd.table.deck.SharedDeck.card`).
    """
    return deck.card(slot, seat)


def hand(deck, seat: str) -> list[tuple[int, str | None]]:
    """Return ``(slot, card or None)`` for the seat's face-down hand as ``seat``'s pbd reads it."""
    return [(slot, read(deck, slot, seat)) for slot in deck.hands.get(seat, [])]


def hand_count(deck, seat: str) -> int:
    """Return how many cards the seat's deck hand holds."""
    return len(deck.hands.get(seat, []))


def slot_of(deck, seat: str, card: str) -> int | None:
    """Return the seat's hand slot holding ``card`` (as ``seat`` reads it), or None."""
    return next((slot for slot, c in hand(deck, seat) if c == card), None)


def public_slot(deck, card: str) -> int | None:
    """Return the slot of a face-up card, or None."""
    return next((s.id for s in deck.slots.values() if s.card == card), None)


def play(deck, seat: str, slot: int) -> str:
    """Put a hand card face up onto the board pile; return the card."""
    card = read(deck, slot, seat)
    deck.discard(seat, slot, to="board")
    return card or deck.slots[slot].card


def to_open(deck, seat: str, slot: int) -> str:
    """Show a hand card and take it out of the deck hand (it changes hands in the open); return it."""
    card = read(deck, slot, seat)
    deck.discard(seat, slot, to="open")
    return card or deck.slots[slot].card


def recycle_slot(deck, seat: str, slot: int) -> None:
    """Put a hand card face up on the recycled pile."""
    deck.discard(seat, slot, to="recycled")


def recycle_public(deck, card: str) -> None:
    """Move a face-up card (a shown card) onto the recycled pile."""
    slot = public_slot(deck, card)
    if slot is not None:
        deck.move(slot, "recycled")


def reveal(deck, seat: str, slot: int) -> str:
    """Show one hand card to everyone (it stays in hand); return it (as ``seat`` reads it).

    On the real table the card turns face up when ``seat``'s pbd publishes its unlock,
    which the table does at the end of the same command.
    """
    return deck.reveal(seat, slot)


def show_hand(deck, seat: str) -> list[str | None]:
    """Show the seat's whole deck hand to everyone; return the cards as :func:`read` reads them.

    Replaying (``pbd audit``, ``pbd replay``, the hand-edit check) no seat's cards are known,
    and every card shown is read from the document's deck, where it ended face up.
    """
    deck.show_hand(seat)
    return [read(deck, slot, seat) for slot in deck.hands.get(seat, [])]


def waiting_on(deck) -> list[str]:
    """Return the seats that owe the table work (unlocks, shuffles)."""
    return deck.waiting_on()
