"""Reliability (issue 31): a stale pasted decision, a waiting table's check, an audit of a hostile 2Xd6 document,
and private temp files a kill leaves behind.

Each test is the fault that found it, run through the CLI on real files.
"""

from __future__ import annotations

import os

from hostile_helpers import started
from tower_helpers import put, start, upcoming


def _moved(pbd, doc, name, moves):
    result = pbd("move", doc, "--as", name, moves)
    assert result.exit_code == 0, result.output
    return result


# -- a Waiting on line pasted back once answered --------------------------------------------------

def test_a_pasted_back_answered_decision_lists_no_answers(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face, "Ben": 20})
    _moved(pbd, doc, "Ann", "roll; pass")
    waiting = next(ln for ln in doc.read_text().split("\n") if ln.startswith("Waiting on: Ben"))
    _moved(pbd, doc, "Ben", "pass")
    text = doc.read_text()
    assert waiting not in text
    lines = text.split("\n")
    lines.insert(2, waiting)                     # someone pastes pbd's own line back
    doc.write_text("\n".join(lines))
    before = doc.read_bytes()
    refused = pbd("move", doc, "--as", "Ben", "pass")
    assert refused.exit_code == 3 and doc.read_bytes() == before, refused.output
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] == []
    said = pbd("legal", doc, "--as", "Ben").output
    assert "no legal moves for you now: the board disagrees with its log" in said and "decisions" in said, said
    assert doc.read_bytes() == before


# -- pbd check on a table still waiting for players ----------------------------------------------------

def test_check_agrees_on_a_table_waiting_for_players(pbd, tmp_path):
    for game in ("boystown", "tower", "2xd6"):
        doc = tmp_path / f"{game}.txt"
        pbd("new", game, doc, "--as", "Ann", "--players", 3, "--seed", "ann", ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
        result = pbd("check", doc)
        assert result.exit_code == 0, (game, result.output)
        assert "waiting for players: 2 of 3 seated (Ann, Ben)" in result.output, result.output


# -- pbd audit on a hostile 2Xd6 document ---------------------------------------------------------

def test_audit_of_a_2xd6_document_with_an_unknown_option_names_the_line(pbd, tmp_path):
    doc = started("2xd6", tmp_path)
    doc.write_text(doc.read_text().replace("Turn: Ann", "Options: foo=bar\nTurn: Ann", 1))
    before = doc.read_bytes()
    for command in ("audit", "replay", "show", "check"):
        result = pbd(command, doc)
        assert result.exit_code == 3, (command, result.output)
        assert "line 4: the Options line: 'foo=bar' is no option of 2Xd6" in result.output, result.output
        assert doc.read_bytes() == before


def test_audit_of_a_2xd6_document_with_a_card_the_deck_lacks(pbd, tmp_path):
    doc = started("2xd6", tmp_path)
    text = doc.read_text()
    # A card on the board the deck lacks is a problem the audit finds (exit 1, naming the card); the
    # cold-comfort list holds slot numbers, so a card's name there is a hand line that does not parse
    # (exit 3).
    for hostile, code, says in (
            (text.replace("shown - · cold -", "shown Torch · cold -", 1), 1,
             "Ann's shown cards: Torch is no card of the standard deck"),
            (text.replace("Cells\n", "Cells\nB1 Ann: Torch\n", 1), 1, "B1: Torch is no card of the standard deck"),
            (text.replace("shown - · cold -", "shown - · cold Torch", 1), 3, "expected a hand like")):
        assert hostile != text
        doc.write_text(hostile)
        result = pbd("audit", doc)
        assert result.exit_code == code, result.output
        assert says in result.output and "internal error" not in result.output, result.output


# -- a kill leaves temp files with private state --------------------------------------------------

KILL_AT_RENAME = """
import os, signal, sys
real = os.replace
def replace(src, dst, *a, **k):
    if str(dst).endswith(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGKILL)       # killed between writing the temp file and renaming it
    return real(src, dst, *a, **k)
os.replace = replace
from pbd.cli import cli
cli(sys.argv[2:])
"""


def test_temp_files_a_kill_leaves_in_pbd_home_are_removed_by_the_next_command(pbd, tmp_path):
    import subprocess
    import sys

    doc = started("boystown", tmp_path)
    home = tmp_path / "pbd-home"
    env = {**os.environ, "PBD_HOME": str(home)}
    killed = subprocess.run([sys.executable, "-c", KILL_AT_RENAME, "ann.json", "hand", str(doc), "--as", "Ann"],
                            env=env, capture_output=True, text=True)
    assert killed.returncode == -9, killed.stderr
    left = [p for p in home.rglob("*.tmp")]
    assert left and any(b'"seed"' in p.read_bytes() for p in left), left     # the seat's seed, in a temp file
    pbd("hand", doc, "--as", "Ann", ok=True)
    assert not list(home.rglob("*.tmp"))


# -- a copy of the match document ------------------------------------------------------------------

def test_a_copy_of_the_match_document_is_refused_before_anything_is_written(pbd, tmp_path):
    doc = started("boystown", tmp_path)
    pbd("hand", doc, "--as", "Ben", ok=True)                 # each seat's pbd has recorded the match on m.txt
    backup = tmp_path / "backup.txt"
    backup.write_bytes(doc.read_bytes())                    # Ann owes unlocks: her next command would pay them
    for command in (["hand", "--as", "Ann"], ["legal", "--as", "Ann"], ["move", "--as", "Ann", "draw"],
                    ["hand", "--as", "Ben"]):
        result = pbd(command[0], backup, *command[1:])
        assert result.exit_code == 3, (command, result.output)
        assert str(doc) in result.output and "backup.txt" in result.output, result.output
        assert f"pbd status {backup} --as {command[2]} --adopt" in result.output, result.output
        assert backup.read_bytes() == doc.read_bytes()
    status = pbd("status", backup, "--as", "Ann")
    assert status.exit_code == 0 and str(doc) in status.output and "Copy:" in status.output, status.output
    assert pbd.json("status", backup, "--as", "Ann")["elsewhere"] == [str(doc)]
    pbd("hand", doc, "--as", "Ann", ok=True)                 # the real document plays on, nobody locked out
    pbd("legal", doc, "--as", "Ben", ok=True)
    assert pbd("show", backup).exit_code == 0                # reading a copy without a seat is fine


def test_a_match_moved_to_another_document_is_adopted_once(pbd, tmp_path):
    doc = started("boystown", tmp_path)
    moved = tmp_path / "moved.txt"
    moved.write_bytes(doc.read_bytes())
    assert pbd("hand", moved, "--as", "Ann").exit_code == 3
    adopted = pbd("status", moved, "--as", "Ann", "--adopt")
    assert adopted.exit_code == 0 and "Adopted:" in adopted.output and str(doc) in adopted.output, adopted.output
    pbd("hand", moved, "--as", "Ann", ok=True)
    refused = pbd("hand", doc, "--as", "Ann")                # now the old document is the copy
    assert refused.exit_code == 3 and str(moved) in refused.output, refused.output
    assert pbd("status", "--adopt").exit_code == 2


def test_a_renamed_match_file_is_followed(pbd, tmp_path):
    doc = started("boystown", tmp_path)
    renamed = tmp_path / "our match.txt"
    doc.rename(renamed)                                     # the recorded file is gone: the match moved, no copy
    pbd("hand", renamed, "--as", "Ann", ok=True)
