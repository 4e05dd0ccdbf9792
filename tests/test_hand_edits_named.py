"""``pbd check`` and ``pbd status`` name a hand edit the log does not explain, in every game (issue 27 part 3).

The attack, as the issue wrote it: Ben's CP is edited by hand from 100 to 150 between pbd
commands.  ``show``, ``hand``, ``legal`` and a refused move named it; ``pbd check`` said "the
board is consistent with the rules" (exit 0) and ``pbd status`` printed "Ben: CP 150" without a
word.  Now ``pbd check`` lists it as a problem (exit 1, with ``--json`` too, for a player and for
a spectator who replays from the start) and ``pbd status`` — one match or every match — names
it.  Per game, a count or a status edited by hand; through the CLI, on real files, the
document left byte for byte as it was.
"""

from __future__ import annotations

import json

import pytest

from conftest import copy_of_setup


def _cnc(pbd, tmp_path, request):
    """C&C: Ann draws and ends her turn; Ben's CP is then typed 150 (the issue's attack)."""
    doc = request.getfixturevalue("match")
    pbd("move", doc, "--as", "Ann", "draw; end turn", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    text = doc.read_text()
    top = text.index("----")
    half = text[top:]
    assert "CP = 100 AP= 3" in half
    edited = text[:top] + half.replace("CP = 100 AP= 3", "CP = 150 AP= 3", 1)
    return doc, edited, "Ann", "Ben's CP was changed by hand from 100 to 150"


def _cnc_status(pbd, tmp_path, request):
    """C&C, a status: Ann's Spider-Man is marked frozen by hand."""
    doc = request.getfixturevalue("match")
    pbd("move", doc, "--as", "Ann", "play Spider-Man; end turn", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    text = doc.read_text()
    assert "[Spider-Man HP=15/15]" in text
    return doc, text.replace("[Spider-Man HP=15/15]", "[Spider-Man HP=15/15 frozen]", 1), "Ben", \
        "Ann's Spider-Man was marked frozen by hand"


def _ttc(pbd, tmp_path, request):
    """Twin Tower City: an item of round 1 is marked nullified by hand."""
    from test_ttc_match import start

    doc = start(pbd, tmp_path)
    pbd("hand", doc, "--as", "Lia", ok=True)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    pbd("hand", doc, "--as", "Max", ok=True)
    text = doc.read_text()
    assert "Round 2: face down" in text
    return doc, text.replace("Round 2: face down", "  Nullified: Dark Virus\nRound 2: face down", 1), "Lia", \
        "round 1's nullified dark gained Virus by hand"


def _tower(pbd, tmp_path, request):
    """The Tower: Ben's token is moved up to tile 30 by hand."""
    from tower_helpers import start

    doc = start(pbd, tmp_path)
    pbd("hand", doc, "--as", "Ann", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    text = doc.read_text()
    assert "| 1 Start (A B) |" in text and "| 30 " in text
    return doc, text.replace("| 1 Start (A B) |", "| 1 Start (A) |").replace("| 30 ", "| 30 (B) ", 1), "Ann", \
        "Ben's tile was changed by hand from 1 to 30"


def _boystown(pbd, tmp_path, request):
    """Boys' Town: Ben's hand count is typed 7 (he holds 4)."""
    def build(pbd, folder):
        from boystown_helpers import start

        doc = folder / "match.txt"
        start(pbd, doc)
        pbd("hand", doc, "--as", "Ann", ok=True)
        pbd("hand", doc, "--as", "Ben", ok=True)
        return doc

    doc = copy_of_setup(("boystown", "hand edits named"), tmp_path, build)
    text = doc.read_text()
    assert "\nBen · hand 4 · " in text
    return doc, text.replace("\nBen · hand 4 · ", "\nBen · hand 7 · ", 1), "Ann", \
        "Ben's hand count was changed by hand from 4 to 7"


def _twoxd6(pbd, tmp_path, request):
    """2Xd6: the act's points are typed 5 before anyone scored."""
    def build(pbd, folder):
        doc = folder / "match.txt"
        pbd("new", "2xd6", doc, "--as", "Ann", "--seed", "ann", "--players", 2, ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
        for name in ("Ann", "Ben"):
            pbd("move", doc, "--as", name, "roll", ok=True)
        pbd("hand", doc, "--as", "Ann", ok=True)
        return doc

    doc = copy_of_setup(("2xd6", "hand edits named"), tmp_path, build)
    text = doc.read_text()
    assert " · points 0 · " in text
    return doc, text.replace(" · points 0 · ", " · points 5 · ", 1), "Ann", \
        "the act's acting points was changed by hand from 0 to 5"


def _twoxd6_quiet(pbd, tmp_path, request):
    """2Xd6, a count no command compared before: the quiet acts in a row, typed 2."""
    doc, text, seat, _ = _twoxd6(pbd, tmp_path, request)
    honest = doc.read_text()
    assert " · quiet acts 0\n" in honest
    return doc, honest.replace(" · quiet acts 0\n", " · quiet acts 2\n", 1), seat, \
        "the count of quiet acts was changed by hand from 0 to 2"


GAMES = {"cnc": _cnc, "cnc-status": _cnc_status, "ttc": _ttc, "tower": _tower, "boystown": _boystown,
         "2xd6": _twoxd6, "2xd6-quiet": _twoxd6_quiet}


@pytest.fixture(params=list(GAMES))
def edited(request, pbd, tmp_path):
    """``(doc, honest text, seat held here, words naming the edit)``, the edit written into ``doc``."""
    doc, text, seat, words = GAMES[request.param](pbd, tmp_path, request)
    honest = doc.read_text()
    assert text != honest
    # before the edit, both commands say nothing of hand edits (no false alarm)
    result = pbd("check", doc)
    assert result.exit_code == 0 and "consistent with the rules" in result.stdout, result.output
    assert "by hand" not in pbd("status", doc, "--as", seat, ok=True).output
    doc.write_text(text)
    return doc, honest, seat, words


def test_check_lists_a_hand_edit_as_a_problem_and_exits_1(pbd, edited):
    doc, _, _, words = edited
    before = doc.read_bytes()
    result = pbd("check", doc)
    assert result.exit_code == 1, result.output
    assert "consistent" not in result.output
    assert words in result.stderr and "the log does not explain it" in result.stderr, result.stderr
    assert "put it back as the log gives it" in result.stderr
    data = pbd("check", doc, "--json")
    assert data.exit_code == 1
    assert any(words in p for p in json.loads(data.stdout)["problems"]), data.stdout
    assert doc.read_bytes() == before


def test_a_spectators_check_replays_from_the_start_and_exits_1(pbd, edited, monkeypatch, tmp_path):
    doc, _, _, words = edited
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    result = pbd("check", doc)
    assert result.exit_code == 1 and words in result.stderr, result.output


def test_status_of_the_match_names_a_hand_edit(pbd, edited):
    doc, _, seat, words = edited
    before = doc.read_bytes()
    result = pbd("status", doc, "--as", seat, ok=True)
    lines = result.stdout.split("\n")
    at = lines.index(next(ln for ln in lines if ln.startswith("Changed by hand (the log does not explain it")))
    assert any(words in ln for ln in lines[at + 1:]), result.stdout
    data = json.loads(pbd("status", doc, "--as", seat, "--json", ok=True).stdout)
    assert any(words in e for e in data["hand_edits"]), data
    assert doc.read_bytes() == before


def test_status_of_every_match_names_a_hand_edit(pbd, edited):
    doc, _, _, words = edited
    result = pbd("status", ok=True)
    line = next(ln for ln in result.stdout.split("\n") if str(doc) in ln)
    assert "changed by hand, the log does not explain it: " in line and words in line, line
    data = json.loads(pbd("status", "--json", ok=True).stdout)
    row = next(m for m in data["matches"] if m["doc"] == str(doc))
    assert any(words in e for e in row["hand_edits"]), row


def test_put_back_the_board_is_clean_again(pbd, edited):
    doc, honest, seat, _ = edited
    doc.write_text(honest)
    assert pbd("check", doc, ok=True).stderr == ""
    assert "by hand" not in pbd("status", doc, "--as", seat, ok=True).output


def test_check_and_status_name_a_hand_edit_on_a_google_doc(pbd, docs_server):
    """The same attack on a Google Doc (the tests' local Docs server): check exits 1, status names it."""
    gid = docs_server.create_document("")
    doc = f"gdoc:{gid}"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann-1", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    assert pbd("check", doc).exit_code == 0
    text = docs_server.text(gid)
    top = text.index("----")
    docs_server.set_text(gid, text[:top] + text[top:].replace("CP = 100", "CP = 150", 1))
    before = docs_server.text(gid)
    result = pbd("check", doc)
    assert result.exit_code == 1 and "Ben's CP was changed by hand from 100 to 150" in result.stderr, result.output
    said = pbd("status", doc, "--as", "Ann", ok=True).stdout
    assert "Changed by hand" in said and "Ben's CP was changed by hand from 100 to 150" in said, said
    assert docs_server.text(gid) == before
