"""Contract tests generated from the registry: every game keeps :func:`pbd.testing.check_game`.

For every registered game, at the fewest and the most seats it allows: random legal
matches to the end with every position checked (the document reads back, the JSON
view carries game/players/to_move/result, the game's own check passes, no hidden card
readable by another seat, a finished match offers nothing), and one match through the
document pipeline, revealed and audited.
"""

from __future__ import annotations

import pytest

from pbd import games
from pbd.testing import ContractError, check_game

GAMES = sorted(games.registry())


def test_the_registry_lists_the_built_in_games():
    assert {"cnc", "ttc"} <= set(GAMES)
    for name in GAMES:
        game = games.get(name)
        assert game.title and game.name == name


#: games whose every unlock is real cryptography (up to 6 or 8 seats): the default run checks the
#: fewest seats; the most seats run with ``-m long`` (below)
SLOW_AT_MOST_SEATS = {"boystown", "2xd6", "ttc", "tower"}
#: games whose match through the document pipeline (a hundred commands and more, each a whole pbd run) is the
#: longest: the default run plays their random match in process only; ``-m long`` plays their pipeline
#: (test_every_game_keeps_the_contract_over_many_matches), and their own CLI test files play the pipeline too
PIPELINE_IN_LONG_RUN = {"boystown", "2xd6", "cnc", "tower", "ttc"}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_keeps_the_contract(name):
    game = games.get(name)
    check_game(game, matches=1, seats=[game.players[0]] if name in SLOW_AT_MOST_SEATS else None,
               pipeline=name not in PIPELINE_IN_LONG_RUN)


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(SLOW_AT_MOST_SEATS))
def test_slow_games_keep_the_contract_at_the_most_seats(name):
    game = games.get(name)
    check_game(game, matches=1, seats=[game.players[1]])


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(1, 6))
def test_every_game_keeps_the_contract_over_many_matches(name, seed):
    check_game(games.get(name), matches=2, seed=seed)


def test_the_contract_catches_a_document_that_does_not_read_back(monkeypatch):
    game = games.get("cnc")
    real = type(game).render
    monkeypatch.setattr(type(game), "render", lambda self, state: real(self, state).replace("Log\n", "Lg\n"))
    with pytest.raises(ContractError, match="read back"):
        check_game(game, seats=[2], matches=1, pipeline=False)


@pytest.mark.parametrize("name", GAMES)
def test_games_command_lists_every_game(pbd, name):
    assert name in pbd("games", ok=True).output


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_template_that_reads_back(pbd, tmp_path, name):
    out = tmp_path / "blank.txt"
    pbd("template", name, "-o", out, ok=True)
    assert pbd("show", out, "--game", name).exit_code == 0
