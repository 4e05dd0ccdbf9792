"""The Tower's pure rules where the CLI cannot choose the dice: geometry, duel ties, many seats.

Whole random games for 2 and 6 seats are the contract's (tests/games/test_contract.py,
:func:`pbd.testing.check_game`); here a state is built in process on a small deck.
"""

from __future__ import annotations

from unittest import mock

from pbd import fairplay
from pbd.games.tower import GAME, rules
from pbd.games.tower.state import DeckSpec, Duel, Layout

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


class Dice:
    """Dice in a given order (pure rule tests only: the CLI tests roll real ones)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, player, sides=6):
        return self.faces.pop(0)


def seated(n: int = 2):
    """Return a started match of ``n`` seats on a small deck, built in process."""
    with mock.patch("pbd.games.tower.default_deck", lambda: DeckSpec("small", {"Torch": n + 4})):
        state, _ = GAME.create("m1", "Ann", None, fairplay.seed_from_text("a"), {"players": n})
        for name in NAMES[1:n]:
            state, _ = GAME.join(state, name, None, fairplay.seed_from_text(name))
    return state


def test_the_tile_above_follows_the_floor_directions():
    lay = Layout()
    assert rules.row(lay, 1) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert rules.row(lay, 2) == [16, 15, 14, 13, 12, 11, 10, 9]
    assert rules.above(lay, 8) == 9 and rules.above(lay, 1) == 16 and rules.below(lay, 16) == 1
    assert rules.above(lay, 41) is None and rules.below(lay, 5) is None


def test_a_duel_tie_is_rolled_again_and_swords_still_count():
    state = seated()
    state.tokens.update(Ann=20, Ben=20)
    state.step, state.duel = "resolve", Duel("Ann", "Ben", 20, swords=["Ann"], step=4)
    ctx = rules.Ctx(state, Dice([3, 2, 5, 4, 4, 1]), "Ben")
    rules.fight(ctx)
    assert ctx.notes[:2] == ["duel: Ann 3+2, Ben 5 (tie, again)", "duel: Ann 4+4, Ben 1"]
    assert state.tokens == {"Ann": 21, "Ben": 19}


def test_a_duel_starts_only_for_the_mover_and_once_a_turn():
    state = seated(3)
    state.tokens.update(Ann=20, Ben=20, Cy=20)
    ctx = rules.Ctx(state, Dice([]), "Ann")
    rules.rest(ctx, "Ben")
    assert state.duel is None
    rules.rest(ctx, "Ann")
    assert (state.duel.attacker, state.duel.defender) == ("Ann", "Ben")     # the first in seat order
    state.duel = None
    rules.rest(ctx, "Ann")
    assert state.duel is None                                               # one duel a turn


def test_a_guard_met_by_the_defender_is_a_decision_the_mover_is_asked_as_a_move():
    state = seated()
    state.cards[19] = ["Guard"]
    state.tokens.update(Ann=19, Ben=20)
    ctx = rules.Ctx(state, Dice([]), "Ann")
    rules.arrive(ctx, "Ben")
    assert state.decisions == [] and state.ask == ""           # Ben stands on 20: no card
    state.tokens["Ben"] = 19
    rules.arrive(ctx, "Ben")
    d = state.decisions[0]
    assert d.seat == "Ben" and rules.kind_of(d.prompt) == "guard" and d.origin == len(state.meta.log) + 1
    state.decisions.clear()
    rules.arrive(ctx, "Ann")
    assert state.ask == "guard" and state.decisions == []
