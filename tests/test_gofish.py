"""The tutorial's decision game, examples/gofish, installed next to pbd as its own package.

Go Fish: asking another player for a rank is a decision owed by a player who is not on turn.
It is written the way docs/writing-a-game.md teaches (at most 100 lines of code and 8 hooks),
keeps pbd.testing.check_game, and plays to a result through the CLI with 3 seats, every seat
revealing at the end and the audit clean.
"""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "examples" / "gofish" / "gofish" / "__init__.py"
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Install examples/gofish into a scratch site folder; return it."""
    folder = tmp_path_factory.mktemp("gofish-site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target",
                    str(folder), str(ROOT / "examples" / "gofish")], check=True, capture_output=True)
    return folder


@pytest.fixture
def installed(site, monkeypatch):
    """Make the installed package visible to this process's pbd (its entry point registers the game)."""
    from pbd import games

    monkeypatch.syspath_prepend(str(site))
    games._entry_points.cache_clear()
    games._plugin.cache_clear()
    yield
    games._entry_points.cache_clear()
    games._plugin.cache_clear()


def test_the_example_is_at_most_100_lines_of_code_and_8_hooks():
    text = SOURCE.read_text()
    tree = ast.parse(text)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node) is not None:
            docs.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    code = [ln for i, ln in enumerate(text.split("\n"), 1)
            if ln.strip() and not ln.strip().startswith("#") and i not in docs]
    assert len(code) <= 100, len(code)
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    hooks = [f.name for f in cls.body if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")]
    assert len(hooks) <= 8, hooks


def test_pbd_games_lists_the_installed_plugin(site):
    done = subprocess.run([sys.executable, "-m", "pbd", "games"], env={**os.environ, "PYTHONPATH": str(site)},
                          capture_output=True, text=True)
    assert done.returncode == 0 and "gofish" in done.stdout, done.stderr


@pytest.mark.long          # (the default run plays the contract in process, test_check_game_forgets, and the
                           # refusal below through the CLI)
def test_three_seats_play_to_a_result_through_the_cli_reveal_and_audit_clean(pbd, installed, tmp_path):
    doc, names, rng = tmp_path / "m.txt", NAMES[:3], random.Random(3)
    pbd("new", "gofish", doc, "--as", "Ann", "--players", 3, "--seed", "a", ok=True)
    for name in names[1:]:
        pbd("join", doc, "--as", name, "--seed", name, ok=True)
    answered = set()
    for _ in range(600):
        view = pbd.json("show", doc)
        if view["result"]:
            break
        for seat in view["to_move"]:
            moves = pbd.json("legal", doc, "--as", seat)["moves"]
            if moves:
                move = rng.choice(moves)
                answered |= {move} & {"give", "go fish"}
                out = pbd("move", doc, "--as", seat, move, ok=True).output
                assert "warning" not in out, out
                break
    else:
        raise AssertionError("the match did not end")
    assert " with " in view["result"] and view["to_move"] == []
    assert answered == {"give", "go fish"}          # the decision was owed and answered both ways
    assert pbd("move", doc, "--as", "Ann", "draw").exit_code == 1
    for name in names:
        pbd("reveal", doc, "--as", name, ok=True)
    pbd.audit_clean(doc)
    assert pbd("replay", doc).exit_code == 0


def test_an_answer_another_seat_owes_is_refused_to_the_seat_on_turn(pbd, installed, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "gofish", doc, "--as", "Ann", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    ask = pbd.json("legal", doc, "--as", "Ann")["moves"][0]
    pbd("move", doc, "--as", "Ann", ask, ok=True)
    text = doc.read_text()
    assert "Waiting on: Ben — give every" in text and "· answers: give | go fish" in text
    assert pbd.json("show", doc)["to_move"] == ["Ben"]
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", ask)
    assert result.exit_code == 1 and "waiting on Ben" in result.output
    assert doc.read_bytes() == before
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] in (["give"], ["go fish"])


@pytest.mark.long          # (the default run checks the contract at 2 seats in process: test_check_game_forgets)
@pytest.mark.parametrize("seats", [2, 6])
def test_the_example_keeps_the_contract(installed, seats):
    from gofish import GAME

    from pbd.testing import check_game

    check_game(GAME, seats=[seats], matches=1)
