"""Whole games of The Tower: random legal play for 2 to 6 players, through the engine and the CLI."""

from __future__ import annotations

import random

import pytest
from tower_helpers import random_game, start

from pbd.games.tower import GAME, rules
from pbd.games.tower.state import Layout


def _play_out(n: int, seed: int, every: int = 7):
    last = None
    for i, (state, player, move) in enumerate(random_game(n, seed)):
        if i % every == 0:
            text = GAME.render(state)
            again = GAME.parse(text)
            assert GAME.render(again) == text, f"after {player}: {move}"
            assert GAME.describe(again) == GAME.describe(state), f"after {player}: {move}"
            assert GAME.problems(again) == [], f"after {player}: {move}"
        last = state
    assert last.winner and GAME.outcome(last)
    assert GAME.actors(last) == [] and all(GAME.legal(last, s.name) == [] for s in last.seats)
    return last


@pytest.mark.parametrize("n,seed", [(2, 0), (2, 1), (6, 0), (6, 1)])
def test_random_games_reach_the_treasure(n, seed):
    _play_out(n, seed)


@pytest.mark.long
@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("seed", range(20))
def test_many_random_games_reach_the_treasure(n, seed):
    _play_out(n, seed, every=1)


def test_a_cli_game_to_the_end_then_reveal_and_audit(pbd, tmp_path):
    doc = start(pbd, tmp_path, 2)
    rng = random.Random(4)
    for _ in range(400):
        to_move = pbd.json("show", doc)["to_move"]
        if not to_move:
            break
        moves = pbd.json("legal", doc, "--as", to_move[0])["moves"]
        pick = rng.choice([m for m in moves if not m.startswith("play") or rng.random() < 0.3] or moves)
        pbd("move", doc, "--as", to_move[0], pick, ok=True)
    data = pbd.json("show", doc)
    assert data["result"] and data["to_move"] == []
    assert pbd("check", doc).exit_code == 0
    pbd("reveal", doc, "--as", "Ann", ok=True)
    pbd("reveal", doc, "--as", "Ben", ok=True)
    result = pbd("audit", doc)
    assert result.exit_code == 0, result.output


def test_the_tile_above_follows_the_floor_directions():
    lay = Layout()
    assert rules.row(lay, 1) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert rules.row(lay, 2) == [16, 15, 14, 13, 12, 11, 10, 9]
    assert rules.above(lay, 8) == 9 and rules.above(lay, 1) == 16 and rules.below(lay, 16) == 1
    assert rules.above(lay, 41) is None and rules.below(lay, 5) is None
