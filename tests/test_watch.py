"""pbd watch DOC: wait until it is my turn or something waits on me; --timeout exits 6."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest


@pytest.fixture
def duel(pbd, tmp_path, monkeypatch):
    """Return (spec, home_of): a C&C match on a local file, Ann and Ben each with their own PBD_HOME."""
    def home_of(name):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{name}"))
        return str(tmp_path / f"home-{name}")
    return _start(pbd, str(tmp_path / "match.txt"), home_of), home_of


def _start(pbd, spec, home_of):
    home_of("Ann")
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    home_of("Ben")
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    home_of("Ann")
    pbd("hand", spec, ok=True)
    return spec


def _watch_in_background(spec, home, *extra):
    env = {**os.environ, "PBD_HOME": home}
    return subprocess.Popen([sys.executable, "-m", "pbd", "watch", spec, "--interval", "0.05", "--timeout", "60",
                             *extra], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_watch_returns_at_once_when_it_is_my_turn(pbd, duel):
    spec, home_of = duel
    home_of("Ann")
    out = pbd("watch", spec, "--timeout", "0", ok=True).output
    assert "Waiting on you: your move" in out and "\a" not in out       # no bell in a pipe


def test_watch_timeout_has_its_own_exit_code_and_writes_only_the_seats_duty(pbd, duel):
    spec, home_of = duel
    home_of("Ben")
    before = open(spec, "rb").read()
    r = pbd("watch", spec, "--timeout", "0.2", "--interval", "0.05")
    assert r.exit_code == 6 and "nothing waits on Ben after 0.2 s" in r.output
    after = open(spec, "rb").read()
    assert after != before and "Ben: opening hand" in after.decode()    # Ben's owed opening draw, paid at once
    r = pbd("watch", spec, "--timeout", "0.2", "--interval", "0.05")
    assert r.exit_code == 6 and open(spec, "rb").read() == after         # nothing owed: nothing written


def test_watch_wakes_up_when_the_opponent_ends_the_turn(pbd, duel):
    spec, home_of = duel
    proc = _watch_in_background(spec, home_of("Ben"))
    time.sleep(0.5)
    assert proc.poll() is None                       # still waiting: it is Ann's turn
    home_of("Ann")
    pbd("move", spec, "play Spider-Man; end turn", ok=True)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Ann: play Spider-Man" in out and "Waiting on you: your move" in out, out


def test_watch_on_the_docs_server(pbd, docs_server, monkeypatch, tmp_path):
    def home_of(name):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{name}"))
        return str(tmp_path / f"home-{name}")
    spec = _start(pbd, f"gdoc:{docs_server.create_document('')}", home_of)
    home_of("Ben")
    r = pbd("watch", spec, "--timeout", "0.1", "--interval", "0.05")
    assert r.exit_code == 6
    proc = _watch_in_background(spec, home_of("Ben"))
    time.sleep(1.0)
    home_of("Ann")
    pbd("move", spec, "end turn", ok=True)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Ann: end turn" in out
