"""Go Fish: 2 to 6 players ask each other for ranks from one shared deck; the most books wins.

The whole game, as a pbd plugin (the second example of pbd's docs/writing-a-game.md: a
decision owed by a player who is not on turn):

* one 52-card deck, shared and face down; 7 cards each for 2 or 3 players, 5 for 4 to 6;
* on your turn, ask another player who holds cards for a rank you hold (``ask Ben for 7``);
* they answer (``pbd legal`` offers only the honest answer): ``give`` — every card of that
  rank is shown and laid in front of you (still yours), and you ask again — or ``go fish``:
  you draw the top card of the stock and the turn passes;
* four of a rank make a book: lay it (``lay 7``) before anything else; a player who can ask
  no one draws a card (``draw``), or passes once the stock is empty (``pass``);
* when all 13 books are down, the most books wins (a tie shares the win).
"""

from __future__ import annotations

from pbd.errors import DocumentFormatError, IllegalMoveError, NotationError
from pbd.table.game import CardGame, Move

RANKS = "A23456789TJQK"


class GoFish(CardGame):
    """Go Fish (see the module docstring)."""

    name = "gofish"
    title = "Go Fish"
    summary = "ask another player for a rank; they give every card of it, or you go fish"
    players = (2, 6)

    def piles(self, players, options):
        """One 52-card stock: ranks A..K of each suit, written like ``7H`` (``T`` is a ten)."""
        return {"stock": [rank + suit for suit in "SHDC" for rank in RANKS]}

    def start(self, state):
        """Deal every seat its hand, face down; the creator asks first."""
        for seat in state.seats:
            state.deck.deal("stock", seat, 7 if len(state.seats) <= 3 else 5)

    def moves(self, state, seat):
        """Return the books to lay, else the asks, else ``draw`` (or ``pass`` once the stock is empty)."""
        held = _ranks(state, seat)
        ranks = sorted({r for r in held if r}, key=RANKS.index)
        books = [f"lay {r}" for r in ranks if held.count(r) == 4]
        if _fishing(state, seat):
            return books or ["draw" if state.deck.size("stock") else "pass"]
        return books or [f"ask {other} for {r}" for other in state.seats if other != seat and _slots(state, other)
                         for r in ranks]

    def apply(self, state, seat, move, chance):
        """Lay a book, ask a player for a rank (they owe the answer), draw or pass.

        :raises NotationError: a move that is none of these.
        :raises IllegalMoveError: a rank you do not hold, a player with no cards, a book you lack.
        """
        words, held = move.split(), _ranks(state, seat)
        if move in ("draw", "pass"):
            if not _fishing(state, seat) or (move == "draw") != bool(state.deck.size("stock")):
                raise IllegalMoveError(f"{seat} may {move} only with no one to ask, and draw only from a stock")
            if move == "draw":
                state.deck.deal("stock", seat, 1)
            return Move("", ends_turn=True)
        if len(words) == 2 and words[0] == "lay" and words[1] in RANKS:
            return self._lay(state, seat, words[1])
        if len(words) != 4 or words[0] != "ask" or words[2] != "for" or words[3] not in RANKS:
            raise NotationError(f"Go Fish moves: 'ask NAME for RANK', 'lay RANK', 'draw', 'pass' — not {move!r}")
        other, rank = words[1], words[3]
        if any(held.count(r) == 4 for r in set(held) if r):
            raise IllegalMoveError(f"{seat} holds a book: lay it first")
        if other == seat or not _slots(state, other) or rank not in held and None not in held:
            raise IllegalMoveError(f"{seat} may ask another player who holds cards for a rank {seat} holds")
        state.ask(other, f"give every {rank} to {seat}, or go fish", ["give", "go fish"])
        return Move("")

    def answers_now(self, state, decision):
        """Return the one honest answer: ``give`` if the asked seat holds the rank, else ``go fish``."""
        return ["give"] if decision.prompt.split()[2] in _ranks(state, decision.seat) else ["go fish"]

    def answer(self, state, seat, decision, move, chance):
        """``give``: every card of the rank goes in front of the asker, who asks again; ``go fish``: the asker draws."""
        rank, asker = decision.prompt.split()[2], state.on_turn
        if move == "go fish":
            drawn = state.deck.deal("stock", asker, 1) if state.deck.size("stock") else []
            return Move(f"{asker} draws a card" if drawn else "the stock is empty", ends_turn=True)
        given = [s for s in _slots(state, seat) if (state.deck.card(s, seat) or "?")[0] == rank]
        for slot in given:
            _put(state, seat, slot, _pile(state, "shown", asker))
        return Move(f"{seat} gives {len(given)} card(s)")

    def _lay(self, state, seat, rank):
        mine = [s for s in _slots(state, seat) if (state.deck.card(s, seat) or "?")[0] == rank]
        if len(mine) != 4:
            raise IllegalMoveError(f"a book is four cards of one rank; {seat} holds {len(mine)} {rank}")
        for slot in mine:
            _put(state, seat, slot, _pile(state, "books", seat))
        books = {s: state.deck.size(_pile(state, "books", s)) // 4 for s in state.seats}
        if sum(books.values()) == 13:
            best = [s for s in state.seats if books[s] == max(books.values())]
            state.result = f"{' and '.join(best)} {'win' if len(best) > 1 else 'wins'} with {books[best[0]]} books"
        return Move("")

    def board(self, state):
        """Return a line per seat: cards held, books, and the cards shown in front of it."""
        out = []
        for seat in state.seats if state.deck else []:
            shown = [state.deck.card(s, seat) or "?" for s in state.deck.piles.get(_pile(state, "shown", seat), [])]
            books = state.deck.size(_pile(state, "books", seat)) // 4
            line = f"{seat}: {len(_slots(state, seat))} cards, {books} books"
            out.append(line + (f"; shows {' '.join(shown)}" if shown else ""))
        return out

    def read_board(self, state, lines):
        """Check the seat lines' shape (what they say is the deck's, which every seat verifies).

        :raises DocumentFormatError: a line that is not ``NAME: N cards, N books``.
        """
        for line in lines:
            if line.text.strip() and line.text.split(":")[0] not in state.seats:
                raise DocumentFormatError("expected 'NAME: N cards, N books'", line=line.number)


def _pile(state, kind, seat):
    """Return the name of ``seat``'s pile of ``kind`` (``shown2``: the cards given to seat 2)."""
    return f"{kind}{state.seats.index(seat) + 1}"


def _slots(state, seat):
    """Return ``seat``'s cards: its hand, then the cards shown in front of it."""
    return state.deck.hands.get(seat, []) + state.deck.piles.get(_pile(state, "shown", seat), [])


def _fishing(state, seat):
    """Return True if ``seat`` can ask no one: it holds no card, or no other seat does."""
    return not _slots(state, seat) or not any(_slots(state, o) for o in state.seats if o != seat)


def _ranks(state, seat):
    """Return the rank of each of ``seat``'s cards its pbd reads (None: one nobody has shown, in a replay)."""
    return [c[0] if c else None for c in (state.deck.card(s, seat) for s in _slots(state, seat))]


def _put(state, seat, slot, pile):
    """Lay ``seat``'s card face up on ``pile``: from its hand (shown to all), or from in front of it."""
    if slot in state.deck.hands.get(seat, []):
        state.deck.discard(seat, slot, to=pile)
    else:
        state.deck.move(slot, pile)


GAME = GoFish()
