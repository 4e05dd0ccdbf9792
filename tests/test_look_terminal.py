"""Terminal manners, as a user's shell sees them (real subprocesses): colour on a terminal only, never in a
pipe or with NO_COLOR; a reader that goes away early (``pbd log DOC | head``) is not an error."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest

ESC = "\x1b["


def _run_on_terminal(args, env):
    """Run pbd with stdout on a pseudo-terminal; return what the terminal showed."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "pbd", *map(str, args)], stdout=slave, stderr=subprocess.PIPE,
                              env=env, timeout=120)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.returncode == 0, proc.stderr
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.fixture
def played(pbd, match):
    """The tutorial match after each player put a character in play (class colours to show)."""
    for who in ("Ann", "Ben"):
        hand = pbd("hand", match, "--as", who, ok=True).output
        name = next(ln.split(" — ")[0].strip() for ln in hand.splitlines() if " HP · " in ln)
        pbd("move", match, "--as", who, f"play {name}; end turn", ok=True)
    return match


def test_colour_on_a_terminal_only(played):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    shown = _run_on_terminal(["show", played], env)
    assert ESC in shown and "to move" in shown
    hand = _run_on_terminal(["hand", played, "--as", "Ann"], env)
    assert re.search(r"\x1b\[[\d;]*m(Hero|Anti-Hero|Civilian|Government|Anti-Villain|Villain)\b", hand), hand
    env["NO_COLOR"] = "1"
    assert ESC not in _run_on_terminal(["show", played], env)
    piped = subprocess.run([sys.executable, "-m", "pbd", "show", str(played)], capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "NO_COLOR"}, timeout=120)
    assert piped.returncode == 0 and ESC not in piped.stdout and "to move" in piped.stdout


@pytest.mark.parametrize("command", [["log"], ["legal", "--as", "Ann"], ["show"]])
def test_a_reader_that_stops_early_is_not_an_error(match, command):
    args = [sys.executable, "-m", "pbd", command[0], str(match), *command[1:]]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                     # like `| head -0`: the reader is gone before pbd writes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert err == ""


def _complete(words, cword, cwd):
    env = dict(os.environ, _PBD_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=str(cword))
    proc = subprocess.run([sys.executable, "-m", "pbd"], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [ln.split(",", 1)[1] for ln in proc.stdout.splitlines() if "," in ln]


def test_shell_completion_offers_documents(tmp_path):
    (tmp_path / "match.txt").write_text("x")
    (tmp_path / "matches").mkdir()
    (tmp_path / "notes.png").write_text("x")
    assert _complete("pbd show ma", 2, tmp_path) == ["match.txt", "matches/"]
    assert _complete("pbd legal ma", 2, tmp_path) == ["match.txt", "matches/"]
    assert _complete("pbd show no", 2, tmp_path) == []


def test_card_names_complete_for_a_card_command():
    import click
    from click.shell_completion import ShellComplete

    from pbd.cli import attach_completion

    @click.group()
    def group():
        """A stand-in for pbd with a card command."""

    @group.command("card")
    @click.argument("name")
    @click.option("--game")
    def card(name, game):
        """Print a card."""

    attach_completion(group)
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card"], "spider")
    assert [c.value for c in offered] == ["Spider Web", "Spider-Man"]          # The Tower's and C&C's
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card", "--game", "cnc"], "spider")
    assert [c.value for c in offered] == ["Spider-Man"]
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card", "--game", "boystown"], "boun")
    assert [c.value for c in offered] == ["Bouncer"]
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card"], "A Ony")
    assert [c.value for c in offered] == ["A Onyx"]                             # 2Xd6
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card", "--game", "cnc"], "Bat")
    assert "Batman" in [c.value for c in offered]
    offered = ShellComplete(group, {}, "pbd", "_PBD_COMPLETE").get_completions(["card", "--game", "ttc"], "don")
    assert [c.value for c in offered] == ["Don Triumph"]
