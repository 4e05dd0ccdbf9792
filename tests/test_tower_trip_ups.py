"""What new players of The Tower tripped over (issue 30), through the CLI on the real shared deck."""

from __future__ import annotations

import re

from tower_helpers import give, put, roll_waited, show, start, upcoming

from test_tower_cli import log_of, move


def _duel(doc):
    """Ann's roll lands on Ben's tile 20."""
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face, "Ben": 20})


# -- --first NAME -------------------------------------------------------------------------------

def test_first_name_is_accepted_and_that_player_moves_first(pbd, tmp_path):
    doc = tmp_path / "t.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--first", "Cy", "--seed", "f-ann", ok=True)
    assert "Options: starts=Cy" in doc.read_text()
    pbd("join", doc, "--as", "Ben", "--seed", "f-ben", ok=True)
    pbd("join", doc, "--as", "Cy", "--seed", "f-cy", ok=True)
    assert "Turn: Cy" in doc.read_text()
    before = doc.read_bytes()
    refused = pbd("move", doc, "--as", "Ann", "roll")
    assert refused.exit_code == 1 and "it is Cy's turn" in refused.output and doc.read_bytes() == before


def test_the_last_seat_must_be_the_player_chosen_to_move_first(pbd, tmp_path):
    doc = tmp_path / "t.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--first", "Cy", "--seed", "f-ann", ok=True)
    before = doc.read_bytes()
    result = pbd("join", doc, "--as", "Ben", "--seed", "f-ben")
    assert result.exit_code == 1 and "set up for Cy to move first; join as Cy" in result.output
    assert doc.read_bytes() == before


def test_first_random_draws_the_first_player_by_lot_once_every_seat_sits(pbd, tmp_path):
    doc = tmp_path / "t.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--first", "random", "--seed", "ra", ok=True)
    assert "Options: starts=random" in doc.read_text()
    pbd("join", doc, "--as", "Ben", "--seed", "rb", ok=True)
    pbd("join", doc, "--as", "Cy", "--seed", "rc", ok=True)
    before = doc.read_bytes()
    early = pbd("move", doc, "--as", "Ben", "roll")
    assert early.exit_code == 1 and "the first player is not drawn yet: Ann's pbd draws the lot" in early.output
    assert doc.read_bytes() == before
    pbd("hand", doc, "--as", "Ann", ok=True)                     # any command of the creator's pbd draws it
    text = doc.read_text()
    lot = re.search(r"Ann: first player by lot: (\d) on a 3-sided die \((\w+)\)", text)
    assert lot and ["Ann", "Ben", "Cy"][int(lot.group(1)) - 1] == lot.group(2)
    first = lot.group(2)
    assert f"Options: starts={first}" in text and f"Turn: {first}" in text
    for name in ("Ann", "Ben", "Cy"):
        pbd("hand", doc, "--as", name, ok=True)                  # every seat's unlocks
    pbd("move", doc, "--as", first, "roll", ok=True)
    for name in ("Ann", "Ben", "Cy"):
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    audit = pbd("audit", doc)
    assert audit.exit_code == 0 and "Ann: revealed — 1 roll re-derived from the seed" in audit.output, audit.output


# -- the board drawn as a tower -----------------------------------------------------------------

def test_a_tile_stands_above_the_tile_below_it(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^Floor (\d) [←→] (\|.*)$", doc.read_text(), re.M)}
    assert len(rows) == 6

    def column(floor: int, tile: int) -> int:
        return re.search(rf"\| {tile}\b", rows[floor]).start()

    assert column(2, 14) == column(1, 3) and column(2, 13) == column(1, 4)     # a Rope on 3 leads to 14
    assert column(2, 12) == column(1, 5) and column(2, 12) != column(1, 7)
    assert column(6, 48) == column(1, 1)


# -- a duel asks the defender once ----------------------------------------------------------------

def test_after_a_sword_the_defender_is_asked_once_with_both_choices(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    give(doc, "Ben", "Shield", "Sword")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; play Sword")
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] == ["play Shield", "play Sword", "play Shield and Sword",
                                                             "pass"]
    assert "Waiting on: Ben — answer Ann's Sword in the duel on 20: play Shield (against it), play Sword" \
        in doc.read_text()
    move(pbd, doc, "Ben", "play Shield and Sword")
    assert show(pbd, doc)["spent"] == [["Ann", "Sword"], ["Ben", "Shield"], ["Ben", "Sword"]]
    assert "Waiting on: Ben" not in doc.read_text()
    assert "Asking: Ann [shield]" in doc.read_text()      # the attacker may answer Ben's Sword (Ann holds none)
    move(pbd, doc, "Ann", "pass")
    roll_waited(pbd, doc, "Ann")                           # the dice follow Ann's answer: they wait on Ben's pbd
    assert "duel: Ann" in log_of(doc)


def test_a_defender_who_passes_is_not_asked_again(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; play Sword")
    move(pbd, doc, "Ben", "pass")
    assert "Waiting on: Ben" not in doc.read_text()
    roll_waited(pbd, doc, "Ben")
    assert "duel: Ann" in log_of(doc)


def test_a_seat_refused_off_its_turn_is_not_told_how_to_end_a_turn(pbd, tmp_path):
    doc = tmp_path / "t.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--first", "random", "--seed", "ra", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "rb", ok=True)
    pbd("join", doc, "--as", "Cy", "--seed", "rc", ok=True)
    early = pbd("move", doc, "--as", "Ben", "roll")           # Ben owes unlocks, but it is no one's turn yet
    assert early.exit_code == 1 and "To end your turn" not in early.output
