"""The flow of a Boys' Town match: the steps that need no choice, taken as soon as they can be.

Above :mod:`.rules` and :mod:`.battle` (a battle waiting only on the table resolves here) and
:mod:`.score` (the end of the game): none of them imports this module, so the imports run one way.
"""

from __future__ import annotations

from pbd.games.boystown import battle, cards, rules, score
from pbd.games.boystown.state import Seat, State


def start(state: State) -> list[str]:
    """Every seat is taken and has shuffled the deck in: deal and begin the first turn."""
    state.people = [Seat(n) for n in state.seats]
    state.phase = "shuffling"
    return advance(state)


def advance(state: State) -> list[str]:
    """Take every step that needs no choice and can be taken now; return public log lines.

    The deal once the deck is shuffled, owed cards to the discard pile and owed draws (in
    order, rebuilding the draw pile when it runs out), a battle waiting only on the table,
    and the end of the game once nothing is owed.
    """
    out: list[str] = []
    if state.phase == "shuffling":
        if not cards.ready(state.deck) or state.first_random:      # the creator's pbd draws the first player
            return out
        out.append(rules._deal(state))
    out += rules.pay_owed(state)
    if state.mills or state.owed:
        return out
    if state.phase == "draw" and not cards.size(state.deck, cards.DRAW):
        rules._card_available(state, out)
    if state.battle and state.battle.stage == "resolve":
        line = battle.resolve(state)
        if line is None:
            return out
        out.append(line)
        out += advance(state)
        return out
    if state.phase == "draw" and not state.owed and not rules._draw_possible(state):
        state.phase = "build"
        out.append("no card left to draw: the Draw Phase is skipped")
        if not rules.hand_size(state, state.mover):
            state.emptied = state.mover
    if state.emptied and state.phase != "over" and not state.owed and not state.mills:
        out.append(finish(state))
    return out


def finish(state: State) -> str:
    """End the game: take the score and name the winner(s)."""
    state.phase, state.battle, state.mover = "over", None, ""
    state.result = score.result_line(state)
    return f"game over: {state.result}"
