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
    """A 3-seat match of The Tower, every deal settled; returns (folder, Ann's move that places a card).

    Set up once a run (seeds given: the same bytes every time) and copied (``copy_of_folder``)."""
    from conftest import copy_of_folder

    def build(folder):
        assert run(folder, "Ann", "new", "tower", "m.txt", "--players", 3, "--seed", "a").returncode == 0
        for seat in SEATS[1:]:
            assert run(folder, seat, "join", "m.txt", "--seed", seat.lower()).returncode == 0
        for seat in SEATS[1:]:
            assert run(folder, seat, "status", "m.txt").returncode == 0
        moves = json.loads(run(folder, "Ann", "legal", "m.txt", "--json").stdout)["moves"]
        place = next(m for m in moves if m.startswith("play ") and " on " in m)
        return re.sub(r" on \d+–\d+$", " on 9", place)

    folder = tmp_path / "real"
    return folder, copy_of_folder(("tower table", "roll after choice"), folder, build)


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


# -- The Tower: the duel's dice follow the last Sword or Shield answer ----------------------------------------

CHEAT_NO_WAIT = """
from pbd.games import base
from pbd.table import game
import pbd.games.cnc as cnc
game.published_after = base.published_after = cnc.published_after = lambda meta, player, entry: ["anyone"]
import sys
from pbd.cli import main
sys.argv = ['pbd'] + sys.argv[1:]
main()
"""


def run_cheat(folder, seat, *args):
    """Run a modified pbd for ``seat``: it takes any chain value for fresh, so it rolls the dice that wait at once."""
    env = {**os.environ, "PBD_HOME": str(folder / f"home-{seat}")}
    return subprocess.run([sys.executable, "-c", CHEAT_NO_WAIT, *map(str, args), "--as", seat], cwd=folder, env=env,
                          capture_output=True, text=True)


def edit_board(folder, monkeypatch, change):
    """Hand-edit the board (``change(state)``) and make it every seat's checked position (test set-up only)."""
    from agreed import agree
    from pbd.games.tower import GAME

    doc = folder / "m.txt"
    state = GAME.parse(doc.read_text())
    change(state)
    doc.write_text(GAME.render(state))
    for seat in SEATS:
        monkeypatch.setenv("PBD_HOME", str(folder / f"home-{seat}"))
        agree(doc)


def next_face(folder, seat, seed):
    """Return the next rule die ``seat``'s pbd rolls (seed text ``seed``), as pbd computes it."""
    from pbd import fairplay
    from pbd.games.base import Chance, Secrets
    from pbd.games.tower import GAME

    state = GAME.parse((folder / "m.txt").read_text())
    mid = state.meta.match_id
    chance = Chance(state.meta, {seat: Secrets(mid, seat, "tower", fairplay.seed_from_text(seed, mid), [])})
    return chance.roll(seat, 6)


@pytest.fixture
def duel(table, monkeypatch):
    """Ann's roll lands on Ben's tile 20 and Ann passes on her Sword: Ben is asked; returns the folder."""
    folder, _ = table
    face = next_face(folder, "Ann", "a")

    def change(state):
        state.tokens.update({"Ann": 20 - face, "Ben": 20})
    edit_board(folder, monkeypatch, change)
    done = run(folder, "Ann", "move", "m.txt", "roll; pass")
    assert done.returncode == 0, done.stderr
    assert "Waiting on: Ben — play Sword (an extra die in the duel with Ann on 20)" in (folder / "m.txt").read_text()
    return folder


def test_tower_the_copy_no_longer_shows_the_duels_dice(duel, tmp_path):
    folder = duel
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)                                   # the document and Ben's PBD_HOME
    assert run(copy, "Ben", "status", "m.txt", "--adopt").returncode == 0      # (the copy's PBD_HOME plays there)
    tried = run(copy, "Ben", "move", "m.txt", "pass")
    assert tried.returncode == 0, tried.stderr
    assert "duel: Ann" not in (copy / "m.txt").read_text() and "duel: Ann" not in tried.stdout
    assert "the duel's dice wait on a fresh random value" in tried.stdout
    again = run(copy, "Ben", "status", "m.txt")                     # Ben's own pbd cannot roll them yet
    assert again.returncode == 0 and "duel: Ann" not in (copy / "m.txt").read_text()
    # the real document: the board says the dice wait, and on whom; Cy's pbd watch pays; Ben's pbd rolls
    assert run(folder, "Ben", "move", "m.txt", "pass").returncode == 0
    text = (folder / "m.txt").read_text()
    assert "Owed: Ann or Cy: a fresh random value for Ben's roll" in text and "duel: Ann" not in text
    watched = run(folder, "Cy", "watch", "--once")
    assert watched.returncode == 0, watched.stderr
    text = (folder / "m.txt").read_text()
    assert "Cy: a fresh random value for Ben's roll" in text
    assert "Owed: Ben: the dice that waited (their fresh random value is in)" in text
    rolled = run(folder, "Ben", "watch", "--once")
    assert rolled.returncode == 0, rolled.stderr
    text = (folder / "m.txt").read_text()
    assert "Ben: rolls the dice that waited — duel: Ann " in text and "Owed: Ben" not in text


def test_tower_a_modified_pbd_that_rolls_the_duel_without_waiting_is_refused(duel):
    folder = duel
    assert run(folder, "Ben", "move", "m.txt", "pass").returncode == 0
    cheated = run_cheat(folder, "Ben", "status", "m.txt")
    assert cheated.returncode == 0, cheated.stderr
    assert "duel: Ann" in (folder / "m.txt").read_text()                       # the modified pbd rolled at once
    before = (folder / "m.txt").read_bytes()
    for seat in ("Ann", "Cy"):
        refused = run(folder, seat, "hand", "m.txt")
        assert refused.returncode == 3, (seat, refused.stdout, refused.stderr)
        assert "rolled before the chain value it had to wait for" in refused.stderr
        assert (folder / "m.txt").read_bytes() == before


def test_tower_a_magic_carpet_reached_by_passing_a_guard_waits_too(table, monkeypatch, tmp_path):
    """A Guard asks for a Shield; passing sends the token back onto a Magic Carpet, whose die follows that answer."""
    folder, _ = table
    face = next_face(folder, "Ann", "a")

    def change(state):
        state.tokens["Ann"] = 20 - face
        state.cards.update({20: ["Guard"], 19: ["Magic Carpet"]})
    edit_board(folder, monkeypatch, change)
    assert run(folder, "Ann", "move", "m.txt", "roll").returncode == 0
    assert "Asking: Ann [guard]" in (folder / "m.txt").read_text()
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    assert run(copy, "Ann", "status", "m.txt", "--adopt").returncode == 0
    tried = run(copy, "Ann", "move", "m.txt", "pass")
    assert tried.returncode == 0, tried.stderr
    assert "Magic Carpet on 19: rolls" not in (copy / "m.txt").read_text()
    assert "the Magic Carpet's die on 19 waits on a fresh random value" in tried.stdout
    assert run(folder, "Ann", "move", "m.txt", "pass").returncode == 0
    assert "Owed: Ben or Cy: a fresh random value for Ann's roll" in (folder / "m.txt").read_text()
    assert run(folder, "Ben", "watch", "--once").returncode == 0
    assert run(folder, "Ann", "watch", "--once").returncode == 0
    assert "Ann: rolls the dice that waited — Magic Carpet on 19: rolls" in (folder / "m.txt").read_text()


# -- 2Xd6: the targeting's Onyx dice follow the choice of target and Tc -----------------------------------------

from twoxd6_helpers import two  # noqa: E402,F401  (the built 2-seat match, a fixture)

#: In the central columns: Player 1's Q-led stack on A3 can target Player 2's A4.
ROLL_OFF = {"A3": ("P1", ["QG", "10P", "5O", "4C", "2C"]), "A4": ("P2", ["4W"])}


@pytest.fixture
def aimed(two, tmp_path, monkeypatch):
    """A copy of the 2-seat match set up so that Player 1 may target A4 from A3; returns ``(doc, p1, p2, move)``."""
    from twoxd6_helpers import copy, order, position

    doc = copy(two, tmp_path, monkeypatch)
    p1, p2 = order(doc)
    position(doc, cells={cell: ({"P1": p1, "P2": p2}[o], cs) for cell, (o, cs) in ROLL_OFF.items()})
    return doc, p1, p2


def test_2xd6_the_copy_no_longer_shows_the_onyx_dice(pbd, aimed, tmp_path, monkeypatch):
    from conftest import moved_registry

    doc, p1, p2 = aimed
    target = next(m for m in pbd.json("legal", doc, "--as", p1)["moves"] if m.startswith("target A4 from A3 with "))
    folder = doc.parent
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)                       # the document and the attacker's PBD_HOME, without p2's seat
    for f in (copy / "pbd-home" / "matches").glob(f"*/{p2.lower()}.*"):
        f.unlink()
    moved_registry(copy / "pbd-home", folder, copy)
    monkeypatch.setenv("PBD_HOME", str(copy / "pbd-home"))
    tried = pbd("move", copy / "match.txt", "--as", p1, target)
    assert tried.exit_code == 0, tried.output
    assert "Onyx" not in tried.output.replace("the Onyx dice wait", "")
    assert "the Onyx dice wait on a fresh random value" in tried.output
    assert pbd("status", copy / "match.txt", "--as", p1).exit_code == 0    # its own pbd cannot roll them yet
    assert not re.search(r"Onyx \d", (copy / "match.txt").read_text())
    assert pbd("move", copy / "match.txt", "--as", p1, "draw").exit_code == 1          # nor go on with the act
    # the real document: the board says on whom the dice wait; p2's pbd watch pays; p1's pbd rolls them
    monkeypatch.setenv("PBD_HOME", str(folder / "pbd-home"))
    pbd("move", doc, "--as", p1, target, ok=True)
    assert f"Owed: {p2}: a fresh random value for {p1}'s roll" in doc.read_text()
    assert pbd("watch", doc, "--as", p2, "--once").exit_code == 0
    text = doc.read_text()
    assert f"{p2}: a fresh random value for {p1}'s roll" in text and f"Owed: {p1}: the dice that waited" in text
    pbd("status", doc, "--as", p1, ok=True)
    text = doc.read_text()
    assert re.search(rf"{p1}: rolls the dice that waited — Onyx \d\+\d", text)
    assert f"Waiting on: {p2} — roll 2 Wyte dice to resist" in text
    assert re.search(r"(beats|does not beat)", pbd("move", doc, "--as", p2, "roll", ok=True).output)


def test_2xd6_a_modified_pbd_that_rolls_the_onyx_dice_without_waiting_is_refused(pbd, aimed, monkeypatch):
    from pbd.games import base
    from pbd.table import game

    doc, p1, p2 = aimed
    target = next(m for m in pbd.json("legal", doc, "--as", p1)["moves"] if m.startswith("target A4 from A3 with "))
    pbd("move", doc, "--as", p1, target, ok=True)
    own = doc.parent / "p1-machine"                     # p1's modified pbd runs on p1's own machine: what it
    shutil.copytree(os.environ["PBD_HOME"], own)        # keeps (a position it checked) is not p2's
    with monkeypatch.context() as m:                    # p1's modified pbd takes any value for fresh
        m.setenv("PBD_HOME", str(own))
        m.setattr(game, "published_after", lambda meta, player, entry: ["anyone"])
        m.setattr(base, "published_after", lambda meta, player, entry: ["anyone"])
        pbd("status", doc, "--as", p1, ok=True)
    assert re.search(rf"{p1}: rolls the dice that waited — Onyx \d", doc.read_text())
    before = doc.read_bytes()
    refused = pbd("hand", doc, "--as", p2)
    assert refused.exit_code == 3 and "rolled before the chain value it had to wait for" in refused.output
    assert doc.read_bytes() == before


# -- C&C: a card's die (the Sentry's Void, Jack Bauer's Interrogation, Wild Magic Surge...) follows the move ------

@pytest.fixture
def surge(tmp_path):
    """A C&C match (Ann, Ben) where Ann, to move, holds Wild Magic Surge ("Roll a die. 1: you lose 10 CP..."):
    returns ``(folder, the move that plays it)`` (seed a1 deals it in her opening hand); set up once a run."""
    from conftest import copy_of_folder

    def build(folder):
        assert run(folder, "Ann", "new", "cnc", "m.txt", "--deck", "forces-of-mystery", "--seed", "a1").returncode == 0
        assert run(folder, "Ben", "join", "m.txt", "--deck", "forces-of-corruption", "--seed", "ben").returncode == 0
        assert run(folder, "Ann", "status", "m.txt").returncode == 0            # the opening hands
        assert "Wild Magic Surge" in run(folder, "Ann", "hand", "m.txt").stdout
        return "play Wild Magic Surge"

    folder = tmp_path / "real"
    return folder, copy_of_folder(("cnc surge", "roll after choice"), folder, build)


def test_cnc_the_sentrys_attack_is_logged_before_its_die():
    """The Sentry's Void die follows the choice to attack: the attack is announced, its die to come."""
    from cnc_helpers import pos, side

    g = pos(side(ap=3, chars=["The Sentry"]), side(chars=["Danger"]))
    for name in ("Ann", "Ben"):
        g.state.meta.player(name).commitment = "c" * 64          # a match's seats, not a position built in a test
    out = g.play("Ann", "The Sentry attacks Danger")
    assert out == ["The Sentry attacks Danger · its die waits on a fresh random value from Ben"]
    assert g.ben.characters and g.ann.ap == 3                      # nothing played yet: the move waits for its die
    assert [(p.player, p.kind, p.card) for p in g.state.pending] == [("Ann", "roll", "The Sentry attacks Danger")]


def test_cnc_the_copy_no_longer_shows_a_cards_die(surge, tmp_path):
    folder, attack = surge
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    assert run(copy, "Ann", "status", "m.txt", "--adopt").returncode == 0
    tried = run(copy, "Ann", "move", "m.txt", attack)
    assert tried.returncode == 0, tried.stderr
    assert "rolled" not in tried.stdout and "rolled" not in (copy / "m.txt").read_text()
    assert "its die waits on a fresh random value from Ben" in tried.stdout
    again = run(copy, "Ann", "move", "m.txt", "end turn")                       # nothing else until it is rolled
    assert again.returncode == 1 and "waits on a random value that Ben publishes" in again.stderr
    # the real document: the board says the die is pending and on whom; Ben's pbd watch pays; Ann's pbd rolls
    assert run(folder, "Ann", "move", "m.txt", attack).returncode == 0
    text = (folder / "m.txt").read_text()
    assert f"Pending: Ann rolls the die of {attack} (waits on a fresh random value from Ben)" in text
    undo = run(folder, "Ann", "undo", "m.txt")                                  # a choice whose die waits stands
    assert undo.returncode == 1 and (folder / "m.txt").read_text() == text, undo.stderr
    assert json.loads(run(folder, "Ann", "legal", "m.txt", "--json").stdout)["moves"] == []
    assert run(folder, "Ben", "watch", "--once").returncode == 0
    assert "Ben: a fresh random value for Ann's roll" in (folder / "m.txt").read_text()
    assert run(folder, "Ann", "watch", "--once").returncode == 0
    text = (folder / "m.txt").read_text()
    assert re.search(rf"Ann: rolls the dice that waited — {re.escape(attack)} .*rolled \d \(d6\)", text)
    assert "Pending: Ann rolls" not in text


def test_cnc_a_modified_pbd_that_rolls_without_waiting_is_refused(surge):
    folder, attack = surge
    assert run(folder, "Ann", "move", "m.txt", attack).returncode == 0
    cheated = run_cheat(folder, "Ann", "status", "m.txt")
    assert cheated.returncode == 0, cheated.stderr
    assert "rolled" in (folder / "m.txt").read_text()                          # the modified pbd rolled at once
    before = (folder / "m.txt").read_bytes()
    refused = run(folder, "Ben", "hand", "m.txt")
    assert refused.returncode == 3, (refused.stdout, refused.stderr)
    assert "rolled before the chain value it had to wait for" in refused.stderr
    assert (folder / "m.txt").read_bytes() == before


def test_tower_a_roll_after_a_discard_waits_too(pbd, tmp_path, monkeypatch):
    """At the hand limit the mover discards a card of their choice, then rolls: that roll follows the choice."""
    from conftest import moved_registry
    from tower_helpers import give, start

    doc = start(pbd, tmp_path)                          # Ann and Ben; this PBD_HOME holds both seats
    give(doc, "Ann", "Guard", "Guard", "Torch", "Torch", "Sword")
    home = tmp_path / "pbd-home"
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(doc, copy / doc.name)
    shutil.copytree(home, copy / "pbd-home")            # Ann's PBD_HOME: without Ben's seat
    for f in (copy / "pbd-home" / "matches").glob("*/ben.*"):
        f.unlink()
    moved_registry(copy / "pbd-home", tmp_path, copy)
    monkeypatch.setenv("PBD_HOME", str(copy / "pbd-home"))
    tried = pbd("move", copy / doc.name, "--as", "Ann", "discard Guard; roll")
    assert tried.exit_code == 0, tried.output
    assert "You rolled" not in tried.output and "roll — rolls" not in (copy / doc.name).read_text()
    assert "waits on a random value that Ben publishes" in tried.output
    monkeypatch.setenv("PBD_HOME", str(home))
    pbd("move", doc, "--as", "Ann", "discard Guard; roll", ok=True)
    assert "Owed: Ben: a fresh random value for Ann's roll" in doc.read_text()
    pbd("status", doc, "--as", "Ben", ok=True)
    assert "You rolled d6" in pbd("move", doc, "--as", "Ann", "roll", ok=True).output
