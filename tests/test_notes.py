"""Players' own notes in a match document survive every move, byte for byte, with their formatting.

Where notes may live (pbd.games.base): above the ``pbd match`` title, under a ``Notes``
line between the header and the board (one paragraph) or anywhere after the board, and
after the log.  The same scenarios run on a local file and on a Google Doc (the local
Docs server, real googleapiclient), where the notes are also bold.
"""

from __future__ import annotations

import pytest

from pbd.games.base import note_spans, split_frame

TOP = "Ann & Ben's league — game 3\u00a0 (nbsp kept)  \n\n"
ABOVE_BOARD = "Notes\nBen: remember Nill's ability!\n"
AFTER_BOARD = "Notes\nHouse rule: no Danger before turn 3.\n\nSecond\u00a0paragraph, blank line above.\n"
AFTER_LOG = "GG so far. “Curly quotes” and a tab\there.\n"
NOTES = [TOP[:-1], ABOVE_BOARD.rstrip("\n"), AFTER_BOARD.rstrip("\n"), AFTER_LOG.rstrip("\n")]
MOVES = [("Ann", "draw; end turn"), ("Ben", "draw; end turn")] * 5


def with_notes(text: str) -> str:
    """Return a match document with a note in every place notes may go."""
    header_end = text.index("\n\n") + 2
    fair = text.index("\nLog\n") + 1              # the board and the log come first, Fair play at the end
    return (TOP + text[:header_end] + ABOVE_BOARD + "\n" + text[header_end:fair] + AFTER_BOARD + "\n"
            + text[fair:] + "\n" + AFTER_LOG)


def test_the_frame_sets_notes_aside_and_puts_them_back(match):
    from pbd import games

    text = with_notes(match.read_text())
    frame = split_frame(text)
    assert frame.match_id and frame.header[0].text.startswith("Players:")
    assert [text[a:b] for a, b in note_spans(text)] == NOTES
    game = games.get("cnc")
    assert game.render(game.parse(text)) == text


def test_a_note_is_kept_on_a_local_file_through_ten_moves(pbd, match):
    before = len(pbd.json("log", match)["entries"])
    match.write_text(with_notes(match.read_text()), encoding="utf-8")
    for player, move in MOVES:
        pbd("move", match, "--as", player, move, ok=True)
        text = match.read_text(encoding="utf-8")
        assert text.startswith(TOP + "pbd match ")
        for note in NOTES:
            assert note in text
    assert text.endswith("\n\n" + AFTER_LOG)
    assert pbd("check", match).exit_code == 0
    log = pbd.json("log", match)
    assert not log["problems"] and len(log["entries"]) == before + 20


def test_a_line_above_the_title_does_not_stop_commands(pbd, match):
    match.write_text("my note\n" + match.read_text(), encoding="utf-8")
    for args in (("hand", match, "--as", "Ann"), ("legal", match, "--as", "Ann"), ("show", match),
                 ("move", match, "--as", "Ann", "draw")):
        assert pbd(*args).exit_code == 0, args
    assert match.read_text().startswith("my note\npbd match ")


def test_a_note_above_twin_tower_citys_rounds_stops_nobody(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "l", ok=True)
    pbd("join", doc, "--as", "Max", "--seed", "m", ok=True)
    text = doc.read_text()
    cut = text.index("\n\n") + 2
    doc.write_text(text[:cut] + "Notes\nround 5 decides it\n\n" + text[cut:], encoding="utf-8")
    for name in ("Lia", "Max"):
        assert pbd("hand", doc, "--as", name).exit_code == 0
    assert "Notes\nround 5 decides it\n\nRound 1" in doc.read_text()
    result = pbd("check", doc)                      # read, not refused as malformed; the note breaks no rule
    assert result.exit_code == 0 and "the board is consistent with the rules" in result.output, result.output


# -- Google Docs ------------------------------------------------------------------------

def _index(text: str, needle: str) -> int:
    """Return the Docs index of ``needle`` in a body text (index 1 is the first character)."""
    return 1 + len(text[:text.index(needle)].encode("utf-16-le")) // 2


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@pytest.fixture
def gnotes(pbd, docs_server):
    """A started C&C match on a Google Doc, with bold notes typed in every place notes may go."""
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    docs_server.set_text(gid, with_notes(docs_server.text(gid)))
    text = docs_server.text(gid)
    docs_server.edit(gid, [{"updateTextStyle": {
        "range": {"startIndex": _index(text, note), "endIndex": _index(text, note) + _units(note)},
        "textStyle": {"bold": True}, "fields": "bold"}} for note in NOTES])
    return gid, spec


@pytest.mark.long          # (the default run keeps notes and a table with their formatting on Google: test_view_gdocs)
def test_a_bold_note_is_kept_on_a_google_doc_through_ten_moves(pbd, docs_server, gnotes):
    gid, spec = gnotes
    for player, move in MOVES:
        pbd("move", spec, "--as", player, move, ok=True)
    text = docs_server.text(gid)
    for note in NOTES:
        assert note in text
    bold = "".join(t for t, style in docs_server.runs(gid) if style.get("bold"))
    for note in NOTES:
        assert note.replace("\n", "") in bold.replace("\n", "")
    # nothing else turned bold: pbd's own bold spans are card names and headings only
    assert "Log" not in bold and "Fair play" not in bold


def test_notes_are_never_inside_an_edit_or_restyled():
    from pbd.documents.gdocs import Read, plan

    old = "pbd match 1a2b3c4d · X\nA: 1\n\nB 1\n\nNotes\nB 1\n\nLog\n1. A: x\n"
    new = "pbd match 1a2b3c4d · X\nA: 2\n\nB 2\n\nNotes\nB 1\n\nLog\n1. A: x\n2. A: y\n"
    read = Read(old, "r", list(range(1, len(old) + 1)))
    keep = (note_spans(old), note_spans(new))
    note = range(1 + old.index("Notes"), 1 + old.index("\n\nLog"))
    for request in plan(read, new, styles=[(0, len(new), "bold")], keep=keep):
        body = next(iter(request.values()))
        where = body.get("range") or {"startIndex": body["location"]["index"], "endIndex": body["location"]["index"]}
        assert where["endIndex"] <= note.start or where["startIndex"] > note.stop - 1, request
