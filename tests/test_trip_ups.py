"""What new players tripped over in every game (issue 30, "All games"), each driven through the CLI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from pbd import games


def files_of(folder) -> dict:
    """Return every file under ``folder`` with its bytes (the document and PBD_HOME but its caches)."""
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and "cache" not in p.parts}


# -- 1. a move typed without quotes ------------------------------------------------------------

def test_a_move_typed_without_quotes_is_refused_with_the_quoted_command(pbd, match):
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", "Spider-Man", "attacks", "city")
    assert result.exit_code == 2
    assert "put the move in quotes" in result.output
    assert f'pbd move {match} --as Ann "Spider-Man attacks city"' in result.output
    assert "unexpected extra arguments" not in result.output
    assert match.read_bytes() == before


def test_a_quoted_move_still_plays(pbd, match):
    assert "play Spider-Man" in pbd("move", match, "--as", "Ann", "draw; play Spider-Man", ok=True).output


# -- 2. Ctrl-C ---------------------------------------------------------------------------------

def test_ctrl_c_exits_130_and_leaves_the_document_and_pbd_home_as_they_were(match, tmp_path):
    home = tmp_path / "pbd-home"
    before = files_of(tmp_path)
    env = {**os.environ, "PBD_HOME": str(home), "PBD_WATCH_INTERVAL": "0.05"}
    # Ben waits for his turn (it is Ann's): an interrupted wait, as a player presses Ctrl-C
    child = subprocess.Popen([sys.executable, "-m", "pbd", "watch", str(match), "--as", "Ben"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)                                     # let it reach its waiting loop (not a timing assert)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, err
    assert "interrupted (Ctrl-C)" in err and "Traceback" not in err and "Aborted" not in err
    assert files_of(tmp_path) == before


# -- 3. pbd show DOC --as NAME -----------------------------------------------------------------

def test_show_takes_as_and_adds_that_seats_own_view(pbd, match):
    board = pbd("show", match, ok=True).output
    mine = pbd("show", match, "--as", "Ann", ok=True).output
    assert mine.startswith(board.rstrip("\n")) and "Ann's hand (5)" in mine
    assert "Ann's hand" not in board
    data = pbd.json("show", match, "--as", "Ben")
    assert data["player"] == "Ben" and len(data["hand"]["hand"]) == 5 and data["to_move"] == ["Ann"]


def test_show_as_someone_not_seated_is_refused(pbd, match):
    before = match.read_bytes()
    result = pbd("show", match, "--as", "Zed")
    assert result.exit_code == 2 and "'Zed' is not playing in this match" in result.output
    assert match.read_bytes() == before


# -- 4. each game's notation one command away ----------------------------------------------------

TURN_ENDS = {"cnc": "end turn", "ttc": "play battle", "2xd6": "draw", "tower": "roll", "boystown": "attack"}


@pytest.mark.parametrize("game", sorted(TURN_ENDS))
def test_pbd_help_game_gives_the_games_notation_and_its_turn_end(pbd, game):
    out = pbd("help", game, ok=True).output
    g = games.get(game)
    assert out.startswith(f"{g.title} ({g.name}): the moves")
    assert f"To end your turn: {g.turn_end}." in out and TURN_ENDS[game] in g.turn_end


@pytest.mark.parametrize("game", ["2xd6", "tower"])
def test_move_help_with_a_game_gives_that_games_notation(pbd, game):
    out = pbd("move", "--help", "--game", game, ok=True).output
    assert "move [OPTIONS] DOC MOVES" in out
    assert pbd("help", game, ok=True).output.splitlines()[2] in out       # the guide's first line
    assert "Spider-Man attacks Nill\n" not in out.split("Examples")[1].split("Options")[1]


def test_move_help_alone_points_at_every_games_notation(pbd):
    out = pbd("move", "--help", ok=True).output
    assert "pbd help GAME" in out and "--game GAME" in out


def test_help_of_an_unknown_game_names_the_games(pbd):
    result = pbd("help", "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output and "cnc" in result.output


def test_a_move_that_cannot_be_read_names_the_way_to_end_the_turn(pbd, match):
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", "finish turn")
    assert result.exit_code == 2
    assert "To end your turn: end turn · every move: pbd help cnc" in result.output
    assert match.read_bytes() == before


def test_an_illegal_move_names_the_way_to_end_the_turn_but_not_to_the_player_waiting(pbd, match):
    result = pbd("move", match, "--as", "Ann", "Spider-Man attacks city")
    assert result.exit_code == 1 and "To end your turn: end turn" in result.output
    waiting = pbd("move", match, "--as", "Ben", "end turn")
    assert waiting.exit_code == 1 and "To end your turn" not in waiting.output


# -- 5. plain words on the terminal ---------------------------------------------------------------

def test_status_leaves_out_a_next_turn_change_of_zero(pbd, match):
    out = pbd("status", match, "--as", "Ann", ok=True).output
    assert "AP next turn" not in out and "You: CP 100 · AP 3 · hand count 5" in out


def test_a_step_owed_is_said_in_plain_words(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("move", doc, "--as", "Ann", "draw; play Spider-Man", ok=True)
    out = pbd("status", doc, "--as", "Ben", ok=True).output
    assert "owes a step" not in out and "chain value" not in out
    assert "Your pbd just did what it owed here" in out              # status, like any command, does it
    assert "Waiting on you: nothing" in out                            # Ann's turn: nothing for Ben to decide


def test_reveal_and_audit_leave_out_what_a_seat_never_did(pbd, match):
    pbd("move", match, "--as", "Ann", "end turn", ok=True)
    out = pbd("reveal", match, "--as", "Ann", "--now", ok=True).output
    assert "Ann revealed the seed and the 51-card deck list." in out
    audit = pbd("audit", match).output
    assert "rolls" not in audit
    assert "Ann: revealed — 5 draws re-derived from the seed" in audit
    assert "Ben: not revealed — 5 draws; checked once Ben runs pbd reveal" in audit
