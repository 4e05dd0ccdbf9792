"""The Tower's cards on the table's one shared face-down deck (:class:`pbd.table.deck.SharedDeck`).

Every deck operation of the game is one function here, and nothing else in the package
calls the deck.

Piles: ``deck`` (the shared draw pile, face down), ``tile-N`` (the card placed on tile N, face
up), ``spent`` (Swords and Shields played: revealed and discarded), ``discard`` (cards thrown
away at the hand limit, face up).

Reading of the draw (keeps play smooth): a seat's draw is dealt at the END of its turn (the
card its next turn will hold), not at the start: the other seats' pbd unlock it on their own
commands in between (each takes a turn, or answers, before this seat moves again), so the
card is readable when its turn comes and no turn has to wait for a card.  The match's first
turns are fed by the deal at the start (one card each).  When the draw pile is empty there
is no draw (reading: the rulebook does not say; placed cards stay, spent and discarded cards
are out of the game).
"""

from __future__ import annotations

from pbd.errors import IllegalMoveError

DRAW = "deck"
SPENT = "spent"
DISCARD = "discard"
TILE_PREFIX = "tile-"


def piles(cards: list[str]) -> dict[str, list[str]]:
    """Return the shared deck's piles at the start: the whole deck list in the draw pile."""
    return {DRAW: list(cards)}


def can_draw(deck) -> bool:
    """Return True while the draw pile has a card."""
    return deck.size(DRAW) > 0


def draw(deck, seat: str) -> int | None:
    """Deal the top card of the draw pile face down to ``seat``; return its slot (None: pile empty).

    The other seats owe its unlocks: ``seat``'s pbd reads it once they did (their next command).
    """
    if not can_draw(deck):
        return None
    return deck.deal(DRAW, seat)[0]


def read(deck, slot: int, seat: str) -> str | None:
    """Return the card in ``slot`` as ``seat``'s pbd reads it (None: hidden from it).

    Replaying the log, a hidden card reads as what the log showed (the table's one deck call,
    :meth:`~pbd.table.deck.SharedDeck.card`).
    """
    return deck.card(slot, seat)


def hand(deck, seat: str) -> list[str | None]:
    """Return ``seat``'s hand as its own pbd reads it (None: a card still locked by another seat)."""
    return [read(deck, slot, seat) for slot in deck.hands.get(seat, [])]


def hand_size(deck, seat: str) -> int:
    """Return how many cards ``seat`` holds (public)."""
    return len(deck.hands.get(seat, []))


def holds(deck, seat: str, kind: str) -> bool:
    """Return True if ``seat``'s pbd reads a ``kind`` in its hand."""
    return kind in hand(deck, seat)


def _slot(deck, seat: str, kind: str) -> int:
    """Return a slot of ``seat``'s hand holding ``kind``.

    :raises IllegalMoveError: the hand holds no readable ``kind`` (which cards it holds).
    """
    for slot in deck.hands.get(seat, []):
        if read(deck, slot, seat) == kind:
            return slot
    cards = hand(deck, seat)
    have = ", ".join(sorted(c for c in cards if c)) or "nothing readable"
    locked = f" ({cards.count(None)} still locked)" if None in cards else ""
    raise IllegalMoveError(f"{seat} holds no {kind} (hand: {have}{locked})")


def place(deck, seat: str, kind: str, tile: int) -> None:
    """Put ``seat``'s ``kind`` face up on ``tile`` (it stays there for the game).

    :raises IllegalMoveError: the hand holds no such card.
    """
    deck.discard(seat, _slot(deck, seat, kind), to=f"{TILE_PREFIX}{tile}")


def spend(deck, seat: str, kind: str) -> None:
    """Play ``seat``'s Sword or Shield: revealed and discarded (out of the game).

    :raises IllegalMoveError: the hand holds no such card.
    """
    deck.discard(seat, _slot(deck, seat, kind), to=SPENT)


def throw_away(deck, seat: str, kind: str) -> None:
    """Discard ``kind`` from ``seat``'s hand at the hand limit, face up (logged by the caller).

    :raises IllegalMoveError: the hand holds no such card.
    """
    deck.discard(seat, _slot(deck, seat, kind), to=DISCARD)


def tiles(deck) -> dict[int, list[str | None]]:
    """Return tile -> the cards placed on it (None: placed, not yet turned face up by every seat)."""
    out: dict[int, list[str | None]] = {}
    for name, ids in deck.piles.items():
        if name.startswith(TILE_PREFIX) and name[len(TILE_PREFIX):].isdigit() and ids:
            out[int(name[len(TILE_PREFIX):])] = [deck.slots[i].card if i in deck.slots else None for i in ids]
    return out
