"""Boys' Town hand edits (issue 10 item 9): a Town card the log does not explain is named by every command.

Before every seat has revealed, Boys' Town replays the public part of its log for the check: a card a
move names is read from the document's deck (it ended face up there), hidden hands only by their count.
An honest random sequence of moves raises no warning; Ben's hand edit of Ann's Town is named by Ann's
next read (a warning) and refuses her move (exit 3, the document unchanged).
"""

from __future__ import annotations

import random

import pytest

from boystown_helpers import QUICK

WARN = "by hand"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 2-seat quick match, 14 honest random moves in, every command's stderr kept: (doc, home, stderrs)."""
    from conftest import Pbd

    base = tmp_path_factory.mktemp("handedits")
    mp = pytest.MonkeyPatch()
    mp.setenv("PBD_HOME", str(base / "pbd-home"))
    pbd, doc, rng, errs = Pbd(), base / "match.txt", random.Random(5), []
    (base / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", base / "quick.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    for _ in range(14):
        data = pbd.json("show", doc)
        who = data["to_move"][0]
        r = pbd("legal", doc, "--as", who, "--json")
        errs.append(r.stderr)
        import json

        moves = json.loads(r.stdout)["moves"]
        if moves:
            r = pbd("move", doc, "--as", who, rng.choice(moves), ok=True)
            errs.append(r.stderr)
        for seat in ("Ann", "Ben"):
            errs.append(pbd("hand", doc, "--as", seat, ok=True).stderr)
    yield doc, base / "pbd-home", errs
    mp.undo()


@pytest.fixture
def match_doc(played, monkeypatch, tmp_path):
    doc, home, _ = played
    monkeypatch.setenv("PBD_HOME", str(home))
    copy = tmp_path / "match.txt"
    copy.write_text(doc.read_text())
    return copy


def test_an_honest_sequence_of_moves_raises_no_warning(played):
    _, _, errs = played
    assert not [e for e in errs if WARN in e], errs


def _edit(doc, old: str, new: str) -> None:
    text = doc.read_text()
    assert old in text, text
    doc.write_text(text.replace(old, new, 1))


def _first_resident(doc, seat: str) -> str:
    lines = doc.read_text().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{seat} · hand"))
    assert lines[start + 1].startswith("  "), "Ann has built nothing in this match"
    return lines[start + 1]


@pytest.mark.parametrize("how", ["removed", "added", "renamed"])
def test_ben_edits_anns_town_and_ann_is_told(pbd, match_doc, how):
    line = _first_resident(match_doc, "Ann")
    name = line.strip().split(" (#")[0]
    other = "Brawler" if name != "Brawler" else "Shopkeeper"
    new = {"removed": "", "added": f"{line}\n  {other} (#99) · AP 1 · TP 1",
           "renamed": line.replace(name, other, 1)}[how]
    _edit(match_doc, line + "\n", new + "\n" if new else "")
    r = pbd("hand", match_doc, "--as", "Ann")
    assert r.exit_code == 0, r.output
    assert "Ann's town" in r.stderr and WARN in r.stderr, r.stderr
    assert WARN in pbd("show", match_doc).stderr
    before = match_doc.read_bytes()
    state = pbd.json("show", match_doc)
    who = state["to_move"][0]
    moves = pbd.json("legal", match_doc, "--as", who)["moves"] or ["end turn"]
    r = pbd("move", match_doc, "--as", who, moves[0])
    assert r.exit_code == 3, r.output
    assert "the log does not explain" in r.stderr and "Ann's town" in r.stderr
    assert match_doc.read_bytes() == before
