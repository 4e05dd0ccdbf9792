"""Issue 25, attack 3: your own die, seen before you choose.

With an unmodified pbd a player copied the document and their PBD_HOME, tried the move on the
copy, read the die, and then chose what to play on the real document (The Tower: place the card
where the roll will land).  Now a die that follows a choice in the same turn (The Tower's move
roll after a card is placed) waits on a chain value another seat publishes after the choice:
on the copy the die cannot be seen, and a modified pbd that rolls without waiting is refused by
every honest seat's next command.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

SEATS = ["Ann", "Ben", "Cy"]

CHEAT = """
from pbd.games import base
base.Chance.roll_after = lambda self, player, entry, sides=6, faces=None, purpose="": self.roll(player, sides, faces,
                                                                                            purpose)
import sys
from pbd.cli import main
sys.argv = ['pbd'] + sys.argv[1:]
main()
"""


def run(folder, seat, *args, cheat=False):
    env = {**os.environ, "PBD_HOME": str(folder / f"home-{seat}")}
    command = [sys.executable, "-c", CHEAT] if cheat else [sys.executable, "-m", "pbd"]
    return subprocess.run([*command, *map(str, args), "--as", seat], cwd=folder, env=env, capture_output=True,
                          text=True)


@pytest.fixture
def table(tmp_path):
    """A 3-seat match of The Tower, every deal settled; returns (folder, Ann's move that places a card)."""
    folder = tmp_path / "real"
    folder.mkdir()
    assert run(folder, "Ann", "new", "tower", "m.txt", "--players", 3, "--seed", "a").returncode == 0
    for seat in SEATS[1:]:
        assert run(folder, seat, "join", "m.txt", "--seed", seat.lower()).returncode == 0
    for seat in SEATS[1:]:
        assert run(folder, seat, "status", "m.txt").returncode == 0
    moves = json.loads(run(folder, "Ann", "legal", "m.txt", "--json").stdout)["moves"]
    place = next(m for m in moves if m.startswith("play ") and " on " in m)
    return folder, re.sub(r" on \d+–\d+$", " on 9", place)


def test_the_copy_of_the_document_no_longer_shows_the_die(table, tmp_path):
    folder, place = table
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)                                   # the document and Ann's PBD_HOME
    adopted = run(copy, "Ann", "status", "m.txt", "--adopt")        # pbd refuses a copy until told it is the match
    assert adopted.returncode == 0 and "Adopted" in adopted.stdout, adopted.stderr
    tried = run(copy, "Ann", "move", "m.txt", f"{place}; roll")
    assert tried.returncode == 0, tried.stderr
    assert "waits on a random value" in tried.stdout and "You rolled" not in tried.stdout
    again = run(copy, "Ann", "move", "m.txt", "roll")
    assert again.returncode == 1 and "waits on a random value that Ben or Cy publishes" in again.stderr
    # on the real document: the card, then Ben's pbd publishes its next chain value, then the roll
    assert run(folder, "Ann", "move", "m.txt", place).returncode == 0
    assert "Owed: Ben or Cy: a fresh random value for Ann's roll" in (folder / "m.txt").read_text()   # on whom
    status = run(folder, "Ann", "status", "m.txt").stdout
    assert "your roll waits on another player's random value" in status
    ben = run(folder, "Ben", "status", "m.txt")
    assert ben.returncode == 0 and "Your pbd just did what it owed here" in ben.stdout
    rolled = run(folder, "Ann", "move", "m.txt", "roll")
    assert rolled.returncode == 0 and "You rolled d6:" in rolled.stdout, rolled.stderr
    log = (folder / "m.txt").read_text()
    assert "Ben: a fresh random value for Ann's roll" in log


def test_a_modified_pbd_that_rolls_without_waiting_is_refused_by_every_honest_seat(table):
    folder, place = table
    cheated = run(folder, "Ann", "move", "m.txt", f"{place}; roll", cheat=True)
    assert cheated.returncode == 0 and "You rolled" in cheated.stdout          # the modified pbd saw its die
    before = (folder / "m.txt").read_bytes()
    for seat in SEATS[1:]:
        refused = run(folder, seat, "hand", "m.txt")
        assert refused.returncode == 3, (seat, refused.stdout, refused.stderr)
        assert "rolled before the chain value it had to wait for" in refused.stderr
        assert (folder / "m.txt").read_bytes() == before
    env = {**os.environ, "PBD_HOME": str(folder / "home-Ben")}
    audit = subprocess.run([sys.executable, "-m", "pbd", "audit", "m.txt"], cwd=folder, env=env, capture_output=True,
                           text=True)
    assert audit.returncode == 1 and "a modified pbd foresaw it" in audit.stdout + audit.stderr
