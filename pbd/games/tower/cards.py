"""The one adapter between The Tower and the deck its cards come from.

Every deck operation of the game goes through the five functions here, so moving to the
table's shared deck (``pbd.table.deck.SharedDeck``: ``draw(pile, seat)``, ``card(slot,
seat)``, ``discard(seat, slot)``, ``size(pile)``) changes this module only.

Until the shared deck is on main, each seat draws from its own copy of the match's deck
(the ``Deck:`` line): its pbd commits to that list with its seed when it sits down, draws
through :meth:`pbd.games.base.Chance.draw` (fair, private, audited after ``pbd reveal``),
and keeps its hand in its private state; the document shows only how many cards each seat
holds and has left.  A card becomes public when it is placed, played or discarded.

When a seat's deck runs out, that seat's turns start without a draw (reading: the rulebook
does not say; cards already placed stay, discards are out of the game).
"""

from __future__ import annotations

from pbd.errors import IllegalMoveError
from pbd.games.tower.state import Seat, State

HIDDEN = "?"


def can_draw(state: State, seat: Seat) -> bool:
    """Return True while ``seat`` has cards left to draw."""
    return seat.deck > 0


def draw(state: State, seat: Seat, chance) -> None:
    """Draw one card into ``seat``'s hand (private to that seat's pbd).

    :raises IllegalMoveError: the deck is empty, or this pbd cannot draw for ``seat``.
    """
    if seat.deck <= 0:
        raise IllegalMoveError(f"{seat.name}'s deck is empty")
    got = chance.draw(seat.name, 1)
    if not got:
        raise IllegalMoveError(f"{seat.name}'s deck is empty")
    seat.deck -= 1
    seat.hand += 1
    if seat.cards is not None:
        seat.cards.append(got[0])


def take(state: State, seat: Seat, kind: str) -> None:
    """Take a card of ``kind`` out of ``seat``'s hand (it becomes public where it goes).

    :raises IllegalMoveError: the hand holds no such card.
    """
    if seat.hand <= 0:
        raise IllegalMoveError(f"{seat.name} holds no cards")
    if seat.cards is not None:
        if kind in seat.cards:
            seat.cards.remove(kind)
        elif HIDDEN in seat.cards:
            seat.cards.remove(HIDDEN)
        else:
            have = ", ".join(sorted(seat.cards)) or "nothing"
            raise IllegalMoveError(f"{seat.name} holds no {kind} (hand: {have})")
    seat.hand -= 1


def holds(state: State, seat: Seat, kind: str) -> bool | None:
    """Return whether ``seat`` holds a ``kind`` (None when this pbd cannot see that hand)."""
    if seat.cards is None:
        return None
    return kind in seat.cards or HIDDEN in seat.cards


def known(state: State, seat: Seat) -> list[str]:
    """Return the cards of ``seat``'s hand this pbd can read."""
    return [c for c in (seat.cards or []) if c != HIDDEN]
