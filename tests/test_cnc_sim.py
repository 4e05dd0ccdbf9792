"""C&C random play: invariants after every move, and parse(render(s)) == s as a hypothesis property.

The default run plays 40 games and 12 hypothesis examples; ``pytest -m long`` plays 1,000
games and 200 examples (the same checks, a bigger sample).
"""

from __future__ import annotations

import random

import pytest
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


def play_games(seeds) -> int:
    """Play a random game for each seed, checking the invariants after every move; return how many finished."""
    cat = GAME.catalogue
    finished = 0
    for seed in seeds:
        state = None
        for state, player, move in random_game(GAME, random.Random(seed), exhaustive=False):
            broken = invariants(state, cat)
            assert not broken, f"game {seed}, after {player}: {move}: {broken}"
        finished += bool(state.result)
    return finished


def test_random_games_keep_the_invariants():
    assert play_games(range(40)) == 40


@pytest.mark.long
def test_a_thousand_random_games_keep_the_invariants():
    assert play_games(range(1000)) == 1000


def public(state):
    """Return the state as the shared document shows it: hands hidden."""
    view = clone(state)
    for side in view.sides:
        side.hand = [HIDDEN] * len(side.hand)
    view.meta.log = list(state.meta.log)
    return view


def round_trips(seed: int, steps: int) -> None:
    """Check that the state ``steps`` moves into random game ``seed`` reads back from its document."""
    state = None
    for i, step in enumerate(random_game(GAME, random.Random(seed))):
        state = step[0]
        if i >= steps:
            break
    assert state is not None
    assert GAME.parse(GAME.render(state)) == public(state)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_parse_render_round_trips_reachable_states(seed, steps):
    round_trips(seed, steps)


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_parse_render_round_trips_every_reachable_state(seed, steps):
    round_trips(seed, steps)
