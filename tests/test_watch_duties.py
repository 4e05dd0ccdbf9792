"""Issue 26: `pbd watch` pays the seat's duties in the background, so a turn needs only the mover.

Every other seat runs `pbd watch` (the inbox: no DOC) in its own PBD_HOME, as a player keeps it
running in a terminal tab; the mover draws, and keeps the drawn card within 15 s without anyone
else typing.  `--once` does one pass; a match that cannot be read is named while the others are
still served; the bell rings only for a person's decision.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def pbd(tmp_path, seat, *args, extra_env=None):
    env = {**os.environ, "PBD_HOME": str(tmp_path / f"home-{seat}"), **(extra_env or {})}
    return subprocess.run([sys.executable, "-m", "pbd", *map(str, args)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)


def watcher(tmp_path, seat, *args, extra_env=None):
    env = {**os.environ, "PBD_HOME": str(tmp_path / f"home-{seat}"), **(extra_env or {})}
    return subprocess.Popen([sys.executable, "-m", "pbd", "watch", *map(str, args), "--interval", "0.2",
                             "--timeout", "90"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def seat(tmp_path, doc, names, game="boystown", extra_env=None):
    """Seat ``names`` at a new match of ``game`` on ``doc``, each with their own PBD_HOME in ``tmp_path``.

    The first match on a local ``m.txt`` in an empty folder is set up once a run and copied (the same
    bytes every time: seeds given); any other is set up here."""
    def build(folder, doc):
        done = pbd(folder, names[0], "new", game, doc, "--as", names[0], "--players", len(names), "--seed", "s0",
                   extra_env=extra_env)
        assert done.returncode == 0, done.stderr
        for i, name in enumerate(names[1:], 1):
            done = pbd(folder, name, "join", doc, "--as", name, "--seed", f"s{i}", extra_env=extra_env)
            assert done.returncode == 0, done.stderr

    if extra_env is None and doc == tmp_path / "m.txt" and not any(tmp_path.iterdir()):
        from conftest import copy_of_folder

        copy_of_folder(("watch duties seat", game, tuple(names)), tmp_path,
                       lambda folder: build(folder, folder / "m.txt"))
    else:
        build(tmp_path, doc)


def keep_within(tmp_path, doc, mover, seconds, extra_env=None) -> float:
    """Draw, then try `keep` until it lands; return the seconds it took (fail after ``seconds``)."""
    start = time.monotonic()
    done = pbd(tmp_path, mover, "move", doc, "--as", mover, "draw", extra_env=extra_env)
    assert done.returncode == 0, done.stderr
    while True:
        done = pbd(tmp_path, mover, "move", doc, "--as", mover, "keep", extra_env=extra_env)
        if done.returncode == 0:
            return time.monotonic() - start
        assert "cannot see your drawn card yet" in done.stderr or "to unlock" in done.stderr, done.stderr
        assert time.monotonic() - start < seconds, f"keep still refused after {seconds} s: {done.stderr}"
        time.sleep(0.3)


def _turn_with_watchers(tmp_path, names, seconds, doc_spec=None, extra_env=None):
    doc = doc_spec or tmp_path / "m.txt"
    seat(tmp_path, doc, names, extra_env=extra_env)
    pbd(tmp_path, names[0], "status", doc, "--as", names[0], extra_env=extra_env)      # Ann's own duties
    watchers = [watcher(tmp_path, name, extra_env=extra_env) for name in names[1:]]
    try:
        took = keep_within(tmp_path, doc, names[0], seconds, extra_env=extra_env)
    finally:
        for w in watchers:
            w.kill()
            w.communicate()
    return took


def test_a_three_seat_boys_town_turn_needs_only_the_movers_commands(tmp_path):
    assert _turn_with_watchers(tmp_path, NAMES[:3], 15) < 15


@pytest.mark.long
def test_a_six_seat_boys_town_turn_needs_only_the_movers_commands(tmp_path):
    assert _turn_with_watchers(tmp_path, NAMES, 15) < 15


@pytest.mark.long
def test_a_turn_on_the_docs_server_needs_only_the_movers_commands(tmp_path, docs_server):
    gid = docs_server.create_document("")
    env = {"PBD_DOCS_EMULATOR_HOST": docs_server.host}
    assert _turn_with_watchers(tmp_path, NAMES[:3], 60, f"gdoc:{gid}", extra_env=env) < 60


def test_watch_once_pays_the_duties_of_every_match_and_names_one_it_cannot_read(tmp_path):
    names = NAMES[:3]
    doc = tmp_path / "m.txt"
    seat(tmp_path, doc, names)
    broken = tmp_path / "b.txt"
    seat(tmp_path, broken, names)
    broken.write_text("not a match any more\n")
    pbd(tmp_path, "Ann", "move", doc, "--as", "Ann", "draw")
    before = doc.read_text()
    done = pbd(tmp_path, "Ben", "watch", "--once")
    assert done.returncode == 0, done.stderr
    assert "b.txt: cannot be read" in done.stdout
    assert "Ben's pbd" in done.stdout and doc.read_text() != before           # Ben's unlocks, paid
    assert "\a" not in done.stdout                                            # no bell in a pipe
    again = doc.read_text()
    done = pbd(tmp_path, "Ben", "watch", "--once")
    assert done.returncode == 0 and doc.read_text() == again                 # nothing owed: nothing written


def test_status_pays_a_duty_and_says_your_move_only_for_a_decision(tmp_path):
    names = NAMES[:3]
    doc = tmp_path / "m.txt"
    seat(tmp_path, doc, names)
    pbd(tmp_path, "Ann", "move", doc, "--as", "Ann", "draw")
    done = pbd(tmp_path, "Ben", "status", doc, "--as", "Ben")
    assert done.returncode == 0, done.stderr
    assert "Your pbd just did what it owed here" in done.stdout
    assert "Waiting on you: nothing" in done.stdout and "your move" not in done.stdout
    assert "next pbd command" not in done.stdout


def test_every_way_the_readme_keeps_watch_running_runs(tmp_path):
    """The commands page's terminal tab, cron line, systemd unit and launchd agent all run `pbd watch`: each command,
    run here for one pass, pays a duty and exits 0 (systemd and launchd themselves cannot run in a test)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text()
    block = re.search(r"```watch-setup\n(.*?)```", readme, re.S).group(1)
    commands = [line for line in block.splitlines() if line == "pbd watch"]
    commands += [line.split(None, 5)[5] for line in block.splitlines() if line.startswith("*/5 ")]
    commands += [line.split("/", 3)[-1].replace(".local/bin/", "") for line in block.splitlines()
                 if line.startswith("ExecStart=")]
    commands += [" ".join(re.findall(r"<string>([^<]+)</string>", line)) for line in block.splitlines()
                 if "ProgramArguments" in line]
    assert commands == ["pbd watch", "pbd watch --once", "pbd watch", "pbd watch"], commands
    for i, command in enumerate(dict.fromkeys(commands)):      # the same command once (systemd, launchd: a tab's)
        doc = tmp_path / f"m{i}.txt"                    # a match of its own for each way
        seat(tmp_path, doc, NAMES[:3])
        drew = pbd(tmp_path, "Ann", "move", doc, "--as", "Ann", "draw")
        assert drew.returncode == 0, drew.stderr
        before = doc.read_text()
        args = command.split()[1:] + ([] if "--once" in command else ["--once"])
        done = pbd(tmp_path, "Ben", *args)
        assert done.returncode == 0 and doc.read_text() != before, (command, done.stderr)
        assert f"{doc}: Ben's pbd" in done.stdout


#: a random match (pbd.soak's player, the seed given) per game on the shared deck in which the seats'
#: `pbd watch DOC --once` pays every kind of duty the soak's seats owe it (kinds as pbd.soak.duty_kinds names
#: them; a seat on move pays its own with its `pbd legal`).  Besides, by default: a Boys' Town flip
#: (test_boystown_rules), a chain value for 2Xd6's Onyx and C&C's Sentry (test_roll_after_choice)
WATCHED = [("tower", 3, 3, {"unlock", "chain value", "dice that waited"}),
           ("2xd6", 3, 3, {"unlock", "dice that waited"}),
           ("boystown", 2, 1, {"unlock", "shuffle pass"})]


@pytest.mark.long
@pytest.mark.parametrize("game, seats, seed, kinds", WATCHED, ids=[f"{g}-{n}-{s}" for g, n, s, _ in WATCHED])
def test_watch_pays_each_kind_of_duty_in_each_game_on_the_shared_deck(tmp_path, game, seats, seed, kinds):
    """A random match played to its end where every seat pays what it owes only with `pbd watch DOC --once`
    (the seats on move still move): no failure, and the watch wrote every kind of duty the game has."""
    from pbd import games, soak

    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import soak as soak_script

    report = soak.play(soak_script.runner(), tmp_path / "m", games.get(game), seats, seed, duty=("watch", "--once"))
    assert not report.failures, [f.line() for f in report.failures]
    assert report.result and kinds <= set(report.paid), dict(report.paid)
