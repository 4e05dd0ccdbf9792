"""C&C random play: invariants over 1,000 games, and parse(render(s)) == s as a hypothesis property."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbd.games import get
from pbd.games.cnc import rules
from pbd.games.cnc.state import HIDDEN, clone
from pbd.simulate import random_game

GAME = get("cnc")
CARDS = 51


def invariants(state, cat) -> list[str]:
    """Return the invariants a reachable C&C state breaks."""
    out = []
    for side in state.sides:
        total = side.deck + len(side.hand) + len(side.cities) + len(side.characters) + len(side.discards)
        if total != CARDS:
            out.append(f"{side.name} has {total} cards")
        if side.ap < 0:
            out.append(f"{side.name} AP {side.ap}")
        if len(side.characters) > rules.character_limit(state, cat, side):
            out.append(f"{side.name} has {len(side.characters)} characters")
        if len(side.hand) > 10:
            out.append(f"{side.name} holds {len(side.hand)}")
        if len(set(side.cities)) != len(side.cities):
            out.append(f"{side.name} has a City twice")
        for ch in side.characters:
            if not 0 < ch.hp <= cat.get(ch.name).hp:
                out.append(f"{ch.name} HP {ch.hp}")
            if ch.combo > 2:
                out.append(f"{ch.name} combo {ch.combo}")
    return out


def test_a_thousand_random_games_keep_the_invariants():
    cat = GAME.catalogue
    finished = 0
    for seed in range(1000):
        state = None
        for state, player, move in random_game(GAME, random.Random(seed), exhaustive=False):
            broken = invariants(state, cat)
            assert not broken, f"game {seed}, after {player}: {move}: {broken}"
        finished += bool(state.result)
    assert finished == 1000


def public(state):
    """Return the state as the shared document shows it: hands hidden."""
    view = clone(state)
    for side in view.sides:
        side.hand = [HIDDEN] * len(side.hand)
    view.meta.log = list(state.meta.log)
    return view


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_parse_render_round_trips_every_reachable_state(seed, steps):
    state = None
    for i, step in enumerate(random_game(GAME, random.Random(seed))):
        state = step[0]
        if i >= steps:
            break
    assert state is not None
    assert GAME.parse(GAME.render(state)) == public(state)
