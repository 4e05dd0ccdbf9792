"""Random Boys' Town games to the end (2 and 6 players) and the table's contract through the CLI."""

from __future__ import annotations

import random

import pytest

from boystown_helpers import play_out, start
from pbd import simulate
from pbd.games.boystown import GAME


def random_game(n: int, seed: int, check=True):
    """Play random legal moves for ``n`` seats on the real shared deck until the game ends; return the final state."""
    state = None
    for state, _, _ in simulate.random_game(GAME, random.Random(seed), max_moves=5000, players=n):
        if check:
            text = GAME.render(state)
            again = GAME.parse(text)
            assert GAME.render(again) == text
            assert GAME.describe(again) == GAME.describe(state)
            assert GAME.check_text(text) == []
    return state


@pytest.mark.long       # the default run plays a random 2-seat match in the contract (tests/games/test_contract.py)
@pytest.mark.parametrize("n", [2, 6])
@pytest.mark.parametrize("seed", range(1))
def test_random_games_reach_the_end(n, seed):
    state = random_game(n, seed)
    assert GAME.outcome(state)
    assert GAME.actors(state) == [] and all(GAME.legal(state, p) == [] for p in state.names())


@pytest.mark.long
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(20))
def test_many_random_games(n, seed):
    assert GAME.outcome(random_game(n, seed, check=False))


@pytest.mark.long
def test_contract_through_the_cli_to_the_end_then_reveal_and_audit(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    names = start(pbd, doc, 3)
    data = play_out(pbd, doc, random.Random(3), limit=2000)
    assert [p["name"] for p in data["players"]] == names
    assert data["result"] and data["to_move"] == []
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == []
    for name in names:
        pbd("reveal", doc, "--as", name, ok=True)
    r = pbd("audit", doc)
    assert r.exit_code == 0, r.output
    assert "every logged move replays to the board" in r.output
