"""Boys' Town scoring: the rulebook's four steps, explained line by line.

1. Add up the base TP of the Residents of your Town.
2. Multiply that by 2 if The John Goodcup (a ``goodcup`` Resident effect) is in your Town —
   base TP only.
3. Add Combo TP bonuses and Resident effect bonuses (build penalties, extra-build penalties
   and logged adjustments are counted here too, as the Residents' TP "as modified").
4. Subtract 3 TP for each card in your hand.

The highest total wins; equal highest totals share the win.
"""

from __future__ import annotations


from pbd.games.boystown import cards, effects
from pbd.games.boystown.catalogue import load
from pbd.games.boystown.state import State
from pbd.record import Record

HAND_PENALTY = 3


class Score(Record):
    """One player's score, step by step."""

    name: str
    base: int
    doubled: bool
    bonuses: list[tuple[str, int]]
    hand: int

    FIELDS = ("name", "base", "doubled", "bonuses", "hand")

    def __init__(self, name: str, base: int = 0, doubled: bool = False, bonuses: list[tuple[str, int]] | None = None,
                 hand: int = 0):
        self.name = name
        self.base = base
        self.doubled = doubled
        self.bonuses = [] if bonuses is None else bonuses
        self.hand = hand

    @property
    def after_double(self) -> int:
        """Return step 2's number."""
        return self.base * 2 if self.doubled else self.base

    @property
    def total(self) -> int:
        """Return the final total."""
        return self.after_double + sum(v for _, v in self.bonuses) - HAND_PENALTY * self.hand

    def lines(self) -> list[str]:
        """Return the four steps in words."""
        out = [f"{self.name}",
               f"  1. base TP of the Residents: {self.base}",
               f"  2. The John Goodcup doubles base TP: {self.base} × 2 = {self.after_double}" if self.doubled
               else f"  2. no John Goodcup: {self.after_double}"]
        step3 = self.after_double + sum(v for _, v in self.bonuses)
        out.append(f"  3. combo and Resident bonuses: {self.after_double}"
                   + "".join(f" {v:+} ({why})" for why, v in self.bonuses) + f" = {step3}")
        out.append(f"  4. {self.hand} card(s) in hand × -{HAND_PENALTY}: {step3} - {HAND_PENALTY * self.hand}"
                   f" = {self.total}")
        return out

    def data(self) -> dict:
        """Return the score as JSON-able data."""
        return {"player": self.name, "base": self.base, "goodcup": self.doubled, "after_goodcup": self.after_double,
                "bonuses": [{"why": w, "tp": v} for w, v in self.bonuses], "hand": self.hand, "total": self.total}


def score_of(state: State, seat: str) -> Score:
    """Return ``seat``'s score now (the final score once the game is over)."""
    cat = load(state.catalogue, remember=False, from_document=True)
    s = Score(seat, hand=len(cards.hand(state.deck, seat)) if state.deck else 0)
    for r, card in effects.town_cards(state, cat, seat):
        s.base += card.tp
        bonus = effects.resident_tp(state, cat, seat, r, card)
        s.bonuses += [(f"{card.name}: {line.split(' ', 1)[1]}", int(line.split(' ', 1)[0]))
                      for line in bonus.lines]
    s.doubled = effects.goodcup(state, cat, seat)
    return s


def scores(state: State) -> list[Score]:
    """Return every player's score in seat order."""
    return [score_of(state, s.name) for s in state.people]


def winners(state: State) -> list[str]:
    """Return the player(s) with the highest total."""
    all_ = scores(state)
    best = max(s.total for s in all_)
    return [s.name for s in all_ if s.total == best]


def result_line(state: State) -> str:
    """Return the result in words: who wins (or shares the win) with how many TP."""
    all_ = scores(state)
    best = max(s.total for s in all_)
    won = [s.name for s in all_ if s.total == best]
    others = ", ".join(f"{s.name} {s.total}" for s in all_ if s.name not in won)
    head = (f"{won[0]} wins with {best} TP" if len(won) == 1
            else f"{' and '.join(won)} share the win with {best} TP")
    return head + (f" ({others})" if others else "")
