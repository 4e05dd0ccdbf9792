"""The plugin tutorial's game, installed next to pbd and played through the CLI as players would.

``examples/highcard`` is its own package (entry point ``pbd.games: highcard``); here it
is installed into a scratch folder and every command runs as a subprocess, so this is
what a third-party game author and their players get.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(scope="module")
def plugin(highcard_site):
    """Return the environment that sees examples/highcard installed into a scratch site folder (once a run)."""
    return {**os.environ, "PYTHONPATH": str(highcard_site)}


def run(env, cwd, *args, ok=True):
    done = subprocess.run([sys.executable, "-m", "pbd", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True)
    if ok:
        assert done.returncode == 0, f"pbd {' '.join(map(str, args))} -> {done.returncode}\n{done.stderr}"
    return done


def play_to_the_end(env, cwd, doc, names):
    run(env, cwd, "new", "highcard", doc, "--as", names[0], "--players", len(names))
    for name in names[1:]:
        run(env, cwd, "join", doc, "--as", name)
    for _ in range(20 * len(names)):
        view = json.loads(run(env, cwd, "show", doc, "--json").stdout)
        if view["result"]:
            return view
        for seat in view["to_move"]:
            moves = json.loads(run(env, cwd, "legal", doc, "--as", seat, "--json").stdout)["moves"]
            if moves:
                run(env, cwd, "move", doc, "--as", seat, moves[0])
                break
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seats", [2, pytest.param(3, marks=pytest.mark.long), pytest.param(6, marks=pytest.mark.long)])
def test_a_plugin_game_installed_next_to_pbd_plays_reveals_and_audits(plugin, tmp_path, seats):
    env = {**plugin, "PBD_HOME": str(tmp_path / "home")}
    names = NAMES[:seats]
    assert "highcard" in run(env, tmp_path, "games").stdout
    view = play_to_the_end(env, tmp_path, "m.txt", names)
    assert [p["name"] for p in view["players"]] == names
    assert view["to_move"] == [] and " wins with " in view["result"] or "share the win" in view["result"]
    assert run(env, tmp_path, "move", "m.txt", "--as", names[0], "draw", ok=False).returncode == 1
    for name in names:
        run(env, tmp_path, "reveal", "m.txt", "--as", name)
    audit = run(env, tmp_path, "audit", "m.txt")
    assert "audit: clean" in audit.stdout


def test_a_seventh_player_is_refused_and_the_document_is_untouched(plugin, tmp_path):
    env = {**plugin, "PBD_HOME": str(tmp_path / "home")}
    assert run(env, tmp_path, "new", "highcard", "m.txt", "--as", "Ann", "--players", "7", ok=False).returncode == 2
    run(env, tmp_path, "new", "highcard", "m.txt", "--as", "Ann", "--players", "2")
    run(env, tmp_path, "join", "m.txt", "--as", "Ben")
    before = (tmp_path / "m.txt").read_bytes()
    assert run(env, tmp_path, "join", "m.txt", "--as", "Cy", ok=False).returncode == 1
    assert (tmp_path / "m.txt").read_bytes() == before


def test_the_game_kit_imports_from_an_installed_pbd(plugin, tmp_path):
    done = subprocess.run([sys.executable, "-c", "from pbd.testing import check_game; from highcard import GAME; "
                           "print(GAME.name)"], cwd=tmp_path, env=plugin, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "highcard", done.stderr


def test_a_plugin_game_gets_resign_from_the_table(plugin, tmp_path):
    """Issue 26: resign (and claim) are the table's, so a third-party game needs no code for them."""
    env = {**plugin, "PBD_HOME": str(tmp_path / "home-Ann")}
    ben = {**plugin, "PBD_HOME": str(tmp_path / "home-Ben")}
    run(env, tmp_path, "new", "highcard", "m.txt", "--as", "Ann", "--players", "2", "-O", "patience=1h")
    run(ben, tmp_path, "join", "m.txt", "--as", "Ben")
    run(env, tmp_path, "status", "m.txt")
    run(ben, tmp_path, "status", "m.txt")
    waiting = json.loads(run(env, tmp_path, "show", "m.txt", "--json").stdout)["to_move"]
    assert len(waiting) == 1
    leaver = waiting[0]
    run(env if leaver == "Ann" else ben, tmp_path, "resign", "m.txt")
    winner = "Ben" if leaver == "Ann" else "Ann"
    assert json.loads(run(env, tmp_path, "show", "m.txt", "--json").stdout)["result"] == \
        f"{winner} wins: {leaver} resigned"


def test_high_card_unlocks_nothing_ahead_its_draws_turn_face_up_for_everyone(plugin, tmp_path):
    """Issue 26's look-ahead, decided for High Card: a draw shows the card to the whole table, so unlocking
    the next one ahead would show it before it is drawn; no card but one turning face up carries an unlock."""
    import sys

    sys.path.insert(0, plugin["PYTHONPATH"])
    try:
        from highcard import HighCard
    finally:
        sys.path.remove(plugin["PYTHONPATH"])
    env = {**plugin, "PBD_HOME": str(tmp_path / "home")}
    run(env, tmp_path, "new", "highcard", "m.txt", "--as", "Ann", "--players", "3", "--seed", "a")
    for name in ("Ben", "Cy"):
        run(env, tmp_path, "join", "m.txt", "--as", name, "--seed", name)
    for _ in range(2):
        for name in NAMES[:3]:
            run(env, tmp_path, "status", "m.txt", "--as", name)
    for moved in (False, True):
        deck = HighCard().parse((tmp_path / "m.txt").read_text(encoding="utf-8")).deck
        unlocked = [s.id for s in deck.slots.values() if s.opened and s.card is None and s.want != "open"]
        assert unlocked == [] and not any(deck.aside.values()) and not any(deck.hands.values())
        if not moved:
            run(env, tmp_path, "move", "m.txt", "--as", "Ann", "draw")
