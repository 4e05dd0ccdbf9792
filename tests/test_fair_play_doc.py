"""docs/fair-play.md's "Dice that follow a choice": which rolls wait and which are rolled at once, per game.

Each row names the test that plays that roll; this checks that every row's test exists and that
every game pbd ships has a row, so the list cannot drift from the tests behind it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = (ROOT / "docs" / "fair-play.md").read_text(encoding="utf-8").split("## Dice that follow a choice")[1]
ROWS = [[c.strip() for c in line.strip("|").split("|")] for line in SECTION.splitlines()
        if line.startswith("| ") and not line.startswith("| game") and not line.startswith("| ---")]


def test_every_row_names_a_test_that_exists():
    assert len(ROWS) >= 12
    for game, roll, when, test in ROWS:
        assert when in ("waits", "at once", "at once: still foreseeable", "—"), (game, roll, when)
        if test == "—":
            assert roll == "(no dice)"
            continue
        path, name = re.fullmatch(r"`(tests/[\w/]+\.py)::(test_\w+)`", test).groups()
        assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), test


def test_every_game_has_a_row_and_the_waiting_dice_are_the_issues():
    from pbd.games import registry

    titles = {game.replace("C&C", "C&C Trading Card Game") for game, *_ in ROWS}
    shipped = {game.title for game in registry().values() if type(game).__module__.startswith("pbd.games.")}
    assert shipped <= titles                # (a game another package installs, e.g. an example, has its own docs)
    waits = {(game, roll.split(",")[0]) for game, roll, when, _ in ROWS if when == "waits"}
    assert ("The Tower", "a duel's dice") in waits and ("2Xd6", "the targeting's Onyx dice") in waits
    assert any(game == "C&C" and "the Sentry's Void" in roll for game, roll, when, _ in ROWS if when == "waits")
