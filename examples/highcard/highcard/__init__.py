"""High Card: 2 to 6 players each draw one card from one shared deck; the highest wins.

The whole game, as a pbd plugin (walked through in pbd's docs/writing-a-game.md):

* one 52-card deck, shared and face down (pbd's table deals it: no one can see or
  choose a card before it turns up);
* in seat order, each player on turn draws one card face up (``draw``);
* once every card of the round is face up, the highest rank wins (aces high; suits do
  not count); players tied for the highest draw again, in seat order, until one is
  ahead — and if the deck runs out first, those still tied share the win.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbd.errors import DocumentFormatError, IllegalMoveError, NotationError
from pbd.table.game import CardGame, Move, TableState

RANKS = "23456789TJQKA"
SUITS = "SHDC"


@dataclass
class State(TableState):
    """A High Card match: who is still in the running, and each round's draws."""

    contenders: list[str] = field(default_factory=list)
    round: int = 1


class HighCard(CardGame):
    """High Card (see the module docstring)."""

    name = "highcard"
    title = "High Card"
    summary = "each player draws one card from one shared deck; the highest wins"
    players = (2, 6)
    state_class = State

    def piles(self, players, options):
        """One 52-card deck: ranks 2..A of each suit, written like ``QH``."""
        return {"deck": [rank + suit for suit in SUITS for rank in RANKS]}

    def start(self, state):
        """Everyone is in the running for round 1; the creator draws first."""
        state.contenders = list(state.seats)

    def moves(self, state, seat):
        """Return ``draw`` while ``seat`` is in the running and has no card this round."""
        return ["draw"] if seat in state.contenders and not self._drawn(state, seat) else []

    def apply(self, state, seat, move, chance):
        """``draw``: the top card of the deck turns face up in front of ``seat``.

        :raises NotationError: anything but ``draw``.
        :raises IllegalMoveError: ``seat`` already drew this round.
        """
        if move.strip().lower() != "draw":
            raise NotationError(f"High Card has one move, 'draw', not {move!r}")
        if not self.moves(state, seat):
            raise IllegalMoveError(f"{seat} already drew this round")
        state.deck.draw_face_up("deck", 1, to=_pile(state, seat))
        return Move(f"{seat} draws a card face up", ends_turn=True)

    def next_seat(self, state):
        """Return the next contender who has not drawn this round (else stay: the round resolves)."""
        n = len(state.seats)
        for step in range(1, n + 1):
            i = (state.turn + step) % n
            if state.seats[i] in state.contenders and not self._drawn(state, state.seats[i]):
                return i
        return state.turn

    def update(self, state):
        """Once every card of the round is face up: the highest wins, or the tied draw again."""
        if state.result or not state.contenders or not all(self._card(state, s) for s in state.contenders):
            return
        best = max(RANKS.index(self._card(state, s)[:-1]) for s in state.contenders)
        tied = [s for s in state.contenders if RANKS.index(self._card(state, s)[:-1]) == best]
        if len(tied) == 1:
            state.result = f"{tied[0]} wins with {self._card(state, tied[0])}"
        elif state.deck.size("deck") < len(tied):
            state.result = f"{' and '.join(tied)} share the win (tied, and the deck ran out)"
        else:
            for seat in state.seats:
                for slot in list(state.deck.piles.get(_pile(state, seat), [])):
                    state.deck.move(slot, "discard")
            state.contenders, state.round = tied, state.round + 1
            state.turn = state.seats.index(tied[0])

    def board(self, state):
        """Return ``Round N`` and a line per seat: its card this round, or where it stands."""
        out = [f"Round {state.round}"]
        for seat in state.seats:
            card = self._card(state, seat) if state.deck else None
            if seat not in state.contenders:
                where = "out" if state.contenders else "waiting"
            else:
                where = card or ("drawn, turning face up" if self._drawn(state, seat) else "to draw")
            out.append(f"{seat}: {where}")
        return out

    def read_board(self, state, lines):
        """Read the round number and who is still in the running.

        :raises DocumentFormatError: a line that is not ``Round N`` or ``NAME: ...``.
        """
        for line in lines:
            text = line.text.strip()
            if not text:
                continue
            if text.startswith("Round "):
                if not text[6:].isdigit() or len(text) > 12:
                    raise DocumentFormatError("expected 'Round N'", line=line.number)
                state.round = int(text[6:])
            elif ":" in text and text.split(":")[0] in state.seats:
                if text.split(":", 1)[1].strip() not in ("out", "waiting"):
                    state.contenders.append(text.split(":")[0])
            else:
                raise DocumentFormatError("expected 'Round N' or 'NAME: card'", line=line.number)

    def describe_board(self, state):
        """Return the round, the contenders and each seat's face-up card."""
        return {"round": state.round, "contenders": list(state.contenders),
                "cards": {s: self._card(state, s) for s in state.seats} if state.deck else {}}

    def _drawn(self, state, seat):
        return bool(state.deck.piles.get(_pile(state, seat)))

    def _card(self, state, seat):
        ids = state.deck.piles.get(_pile(state, seat), [])
        return state.deck.slots[ids[0]].card if ids and ids[0] in state.deck.slots else None


def _pile(state, seat):
    """Return the name of the pile in front of ``seat``: ``seat1`` .. ``seat6``, one per round's draw on top."""
    return f"seat{state.seats.index(seat) + 1}"


GAME = HighCard()
