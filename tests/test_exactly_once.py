"""A move lands exactly once: races, kills between the two writes, lost answers, names (issue 10, 1-4).

Each test is the fault that found the problem, run the way it happens: real processes
racing on one file, a process killed between its writes, a write whose answer is lost
while the opponent edits.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from layout_helpers import whole

from pbd import match as pipeline
from pbd.documents.local import LocalDocument
from pbd.errors import WriteUncertain


def _hand(pbd, doc, who):
    return pbd.json("hand", doc, "--as", who)["hand"]


def _python(code: str, *args, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PBD_HOME": str(home)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=600)


# -- 1. concurrent commands on one file --------------------------------------------------------

ROLLER = """
import sys
from pbd import match
from pbd.errors import PbdError
doc, who, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes = []
for _ in range(n):
    try:
        match.roll(doc, who, "d6")
        codes.append(0)
    except PbdError as exc:
        codes.append(exc.exit_code)
print(" ".join(map(str, codes)))
"""


def _race(doc: Path, runners: list[tuple[str, Path]], rounds: int) -> list[list[int]]:
    env = dict(os.environ)
    procs = [subprocess.Popen([sys.executable, "-c", ROLLER, str(doc), who, str(rounds)],
                              env={**env, "PBD_HOME": str(home)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for who, home in runners]
    outs = [p.communicate(timeout=900) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
    return [list(map(int, out.split())) for out, _ in outs]


def _rolls(doc: Path, who: str) -> int:
    return len(re.findall(rf"^\d+\. {who}: rolls ", doc.read_text(), re.M))


def _two_player_race(pbd, tmp_path, monkeypatch, rounds):
    doc = tmp_path / "shared" / "match.txt"
    doc.parent.mkdir()
    ann, ben = tmp_path / "ann-home", tmp_path / "ben-home"
    monkeypatch.setenv("PBD_HOME", str(ann))
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    monkeypatch.setenv("PBD_HOME", str(ben))
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    monkeypatch.setenv("PBD_HOME", str(ann))
    pbd("hand", doc, "--as", "Ann", ok=True)        # Ann publishes the chain value Ben's rolls need
    codes = _race(doc, [("Ann", ann), ("Ben", ben)], rounds)
    for who, mine in zip(("Ann", "Ben"), codes):
        assert set(mine) <= {0, 4}, mine                   # a loser is told (exit 4), never silently dropped
        assert _rolls(doc, who) == mine.count(0)           # every reported roll is in the log, once
    assert pbd("log", doc).output.count("log chain: intact") == 1


def test_two_players_rolling_at_once_lose_no_roll(pbd, tmp_path, monkeypatch):
    _two_player_race(pbd, tmp_path, monkeypatch, 12)


@pytest.mark.long
def test_two_players_rolling_at_once_lose_no_roll_over_hundreds_of_rounds(pbd, tmp_path, monkeypatch):
    _two_player_race(pbd, tmp_path, monkeypatch, 150)


def test_the_same_player_twice_at_once_loses_nothing_and_never_gets_exit_3(pbd, match, tmp_path):
    home = Path(os.environ["PBD_HOME"])
    codes = _race(match, [("Ann", home), ("Ann", home)], 10)
    flat = codes[0] + codes[1]
    assert set(flat) <= {0, 4}, flat
    assert _rolls(match, "Ann") == flat.count(0)
    pbd("move", match, "--as", "Ann", "draw", ok=True)     # private state and board still agree


def test_a_command_waits_for_the_lock_and_says_so_if_it_is_held_too_long(pbd, match, monkeypatch):
    from pbd import paths

    monkeypatch.setattr(paths, "LOCK_WAIT", 0.2)
    before = match.read_bytes()
    with paths.locked(match.parent / f".{match.name}.pbd-lock"):
        result = pbd("roll", match, "--as", "Ann", "d6")
    assert result.exit_code == 4 and "locked" in result.output
    assert match.read_bytes() == before
    pbd("roll", match, "--as", "Ann", "d6", ok=True)       # released: the next command goes through


def test_a_lock_file_left_by_a_killed_command_does_not_block(pbd, match):
    (match.parent / f".{match.name}.pbd-lock").write_text("")   # its holder died: the OS lock is gone
    result = pbd("roll", match, "--as", "Ann", "d6")
    assert result.exit_code == 0 and "locked" not in result.output, result.output
    said = re.search(r"Ann rolls 1d6: (\d)", result.output).group(1)
    assert len(re.findall(rf"^\d+\. Ann: rolls 1d6: {said} ", whole(match.read_text()), re.M)) == 1


# -- 2. a kill between the document write and the private-state write --------------------------

KILLED_AFTER_DOCUMENT = """
import os, sys
from pbd import match, private
private.save = lambda *a, **k: os._exit(9)            # the power goes off right after the document write
match.move(sys.argv[1], sys.argv[2], sys.argv[3])
"""

KILLED_BEFORE_DOCUMENT = """
import os, sys
from pbd import match
from pbd.documents import local
local.LocalDocument.write = lambda *a, **k: os._exit(9)   # killed just before the document write
match.move(sys.argv[1], sys.argv[2], sys.argv[3])
"""


def test_a_kill_after_the_document_write_is_recovered_by_the_next_command(pbd, match):
    home = Path(os.environ["PBD_HOME"])
    hand = _hand(pbd, match, "Ann")
    done = _python(KILLED_AFTER_DOCUMENT, match, "Ann", "draw", home=home)
    assert done.returncode == 9
    assert "Ann: hand 6" in match.read_text()              # the draw is on the board
    result = pbd("hand", match, "--as", "Ann", ok=True)    # the next command adopts the staged state
    assert "interrupted" in result.output
    after = _hand(pbd, match, "Ann")
    assert len(after) == 6 and after[:5] == hand
    pbd("move", match, "--as", "Ann", "end turn", ok=True)
    assert not list(home.rglob("*.pending.json"))


def test_a_kill_before_the_document_write_drops_the_staged_state(pbd, match):
    home = Path(os.environ["PBD_HOME"])
    hand, before = _hand(pbd, match, "Ann"), match.read_bytes()
    done = _python(KILLED_BEFORE_DOCUMENT, match, "Ann", "draw", home=home)
    assert done.returncode == 9
    assert match.read_bytes() == before
    assert _hand(pbd, match, "Ann") == hand                # nothing drawn: the staged state was dropped
    pbd("move", match, "--as", "Ann", "draw; end turn", ok=True)
    assert not list(home.rglob("*.pending.json"))


# -- 3. a lost answer, with the opponent editing before pbd looks again ------------------------

class LostAnswer(LocalDocument):
    """A file whose write lands (or not), then the answer is lost and the opponent edits."""

    def __init__(self, path, lands: bool, edit):
        super().__init__(path)
        self.lands, self.edit, self.lost = lands, edit, 0

    def write(self, text, base, styles=None):
        if not self.lost:
            self.lost += 1
            if self.lands:
                super().write(text, base, styles)
            Path(self.path).write_text(self.edit(Path(self.path).read_text()))
            raise WriteUncertain(f"{self.label}: the answer to the write was lost")
        return super().write(text, base, styles)


NOTE = "Notes\nBen: back in five minutes\n\n"


def _ben_edits(text):  # Ben types a note in the meantime (a count changed by hand would be refused: test_hand_edits)
    return text.replace("\n\n", "\n\n" + NOTE, 1)          # under the header, above the board


@pytest.mark.parametrize("lands", [True, False])
def test_a_roll_whose_answer_was_lost_is_in_the_document_exactly_once(pbd, match, monkeypatch, lands):
    doc = LostAnswer(match, lands, _ben_edits)
    monkeypatch.setattr(pipeline, "open_document", lambda spec, **kw: doc)
    result = pbd("roll", match, "--as", "Ann", "d6")
    assert result.exit_code == 0, result.output
    assert _rolls(match, "Ann") == 1 and NOTE in match.read_text()


@pytest.mark.parametrize("lands", [True, False])
def test_a_draw_whose_answer_was_lost_lands_once_and_the_hand_agrees(pbd, match, monkeypatch, lands):
    doc = LostAnswer(match, lands, _ben_edits)
    with monkeypatch.context() as m:
        m.setattr(pipeline, "open_document", lambda spec, **kw: doc)
        assert pbd("move", match, "--as", "Ann", "draw").exit_code == 0
    text = match.read_text()
    assert len(re.findall(r"^\d+\. Ann: draw", text, re.M)) == 1 and "Ann: hand 6" in text
    assert len(_hand(pbd, match, "Ann")) == 6
    pbd("move", match, "--as", "Ann", "end turn", ok=True)


def test_a_lost_answer_on_an_unreachable_document_is_reported_truthfully(pbd, match, monkeypatch):
    class Gone(LostAnswer):
        def read(self):
            if self.lost:
                from pbd.errors import BackendError
                raise BackendError("the network is down")
            return super().read()

    doc = Gone(match, True, lambda t: t)
    with monkeypatch.context() as m:
        m.setattr(pipeline, "open_document", lambda spec, **kw: doc)
        result = pbd("move", match, "--as", "Ann", "draw")
    assert result.exit_code == 5
    assert "cannot tell yet whether" in result.output and "nothing was" not in result.output
    assert len(_hand(pbd, match, "Ann")) == 6               # the next command finds the draw landed


# -- 4. names that break a match ----------------------------------------------------------------

@pytest.mark.parametrize("name, why", [
    ("A" * 300, "longer than"),
    ("Ann vs Bob", "'vs'"),
    ("Ann: 5", "':'"),
    ("Ben\nLog", "cannot be a player name"),
    ("12. Ann", "cannot be a player name"),
])
def test_a_name_that_would_break_the_match_is_refused_before_anything_is_written(pbd, match, tmp_path, name, why):
    before = match.read_bytes()
    result = pbd("join", match, "--as", name, "--deck", "forces-of-corruption")
    assert result.exit_code == 2 and why in result.output and len(result.output) < 300
    assert match.read_bytes() == before
    fresh = tmp_path / "fresh.txt"
    assert pbd("new", "cnc", fresh, "--as", name, "--deck", "forces-of-justice").exit_code == 2
    assert not fresh.exists()


def test_names_that_differ_only_in_punctuation_keep_separate_private_states(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann!", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ann?", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    assert _hand(pbd, doc, "Ann!") != _hand(pbd, doc, "Ann?")
    names = sorted(p.name for p in Path(os.environ["PBD_HOME"]).rglob("*.json"))
    assert names == ["ann%21.json", "ann%3F.json"]


# -- the hand document: its write fails after the board's -------------------------------------------

def test_a_hand_doc_write_failing_after_the_board_keeps_the_state_pending_and_says_so(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--hand-doc", "gdoc:new", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    hand_gid = next(g for g, d in docs_server.docs.items() if d.title.startswith("pbd hand"))
    docs_server.fail(20, status=500, match=f"{hand_gid}:batchUpdate")
    result = pbd("move", spec, "--as", "Ann", "draw")
    assert result.exit_code == 0 and "the move is in" in result.output and "kept pending" in result.output
    assert "Ann: hand 6" in docs_server.text(gid)
    docs_server._failures.clear()
    assert len(pbd.json("hand", spec, "--as", "Ann")["hand"]) == 6     # the next command saves it
    assert "Hand (6)" in docs_server.text(hand_gid)
    pbd("move", spec, "--as", "Ann", "end turn", ok=True)


def test_a_google_write_whose_answer_is_lost_lands_once(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    docs_server.fail_after_write(1)
    result = pbd("roll", spec, "--as", "Ann", "d6")
    # the server applied the write and its answer was lost: pbd's retry finds its own entry there, so the
    # roll is in, once, and the command succeeds with the face it wrote
    assert result.exit_code == 0, result.output
    text = docs_server.text(gid)
    assert len(re.findall(r"^\d+\. Ann: rolls ", text, re.M)) == 1
    said = re.search(r"Ann rolls 1d6: (\d)", result.output).group(1)
    assert re.search(rf"^\d+\. Ann: rolls 1d6: {said} ", whole(text), re.M), (result.output, text)
    assert "nothing was changed" not in result.output
