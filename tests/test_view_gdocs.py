"""The two-part document on a Google Doc (the tests' Docs server, the real client library): notes kept
with their formatting, a table of the players' own, and the machinery in small grey text (issue 27)."""

from __future__ import annotations

import pytest
from test_view import (END_OF_MACHINERY, END_OF_VIEW, GAMES, IN_BOARD, IN_MACHINERY, assert_kept, one_move,
                       start, with_notes)

from pbd.documents.gdocs import MACHINERY_PT
from pbd.games.base import MACHINERY

TABLE = [["Ann’s tally", "Ben’s tally"], ["3 wins", "2 wins\u00a0(so far)"]]


def _at(text: str, needle: str) -> int:
    """Return the Docs index of ``needle`` in a body text (index 1 is the first character)."""
    return 1 + len(text[:text.index(needle)].encode("utf-16-le")) // 2


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _bold(server, gid, notes) -> None:
    text = server.text(gid)
    server.edit(gid, [{"updateTextStyle": {
        "range": {"startIndex": _at(text, note), "endIndex": _at(text, note) + _units(note)},
        "textStyle": {"bold": True}, "fields": "bold"}} for note in notes])


def _cells(server, gid) -> list[str]:
    """Return the texts of every table cell in the document, in order."""
    out = []
    for element in server.document(gid)["body"]["content"]:
        for row in element.get("table", {}).get("tableRows", []):
            for cell in row["tableCells"]:
                out.append("".join(part["textRun"]["content"] for para in cell["content"]
                                   for part in para.get("paragraph", {}).get("elements", []) if "textRun" in part))
    return out


#: C&C in the default run (the others: ``-m long``; a Docs server write of a table game's deck is slow)
PARAMS = [g if g == "cnc" else pytest.param(g, marks=pytest.mark.long) for g in GAMES]


@pytest.mark.parametrize("game", PARAMS)
def test_notes_and_a_table_are_kept_with_their_formatting_through_four_moves(pbd, docs_server, game):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    start(pbd, spec, game)
    docs_server.set_text(gid, with_notes(docs_server.text(gid), game))
    notes = [END_OF_VIEW, IN_BOARD, IN_MACHINERY, END_OF_MACHINERY]
    _bold(docs_server, gid, notes)
    # a table the players put in the log, between its first two entries
    text = docs_server.text(gid)
    second = next(line for line in text.split("\n") if line.startswith("2. Ben: "))
    docs_server.insert_table(gid, _at(text, f"\n{second}\n") + 1, TABLE)
    above = "".join(c + "\n" for row in TABLE for c in row) + second + "\n"
    assert above in docs_server.text(gid)
    for _ in range(4):
        one_move(pbd, spec)
        assert_kept(docs_server.text(gid), game)
        assert above in docs_server.text(gid)
    assert _cells(docs_server, gid) == [c + "\n" for row in TABLE for c in row]
    bold = "".join(t for t, style in docs_server.runs(gid) if style.get("bold"))
    for note in notes:
        assert note in bold
    assert not pbd.json("log", spec, "--json")["problems"]


def test_the_machinery_is_small_and_grey_and_the_view_is_not(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    start(pbd, spec, "tower")
    one_move(pbd, spec)
    runs = docs_server.runs(gid)
    text = "".join(t for t, _ in runs)
    cut = text.index(f"\n{MACHINERY}\n") + 1
    at = 0
    for run, style in runs:
        size = style.get("fontSize", {}).get("magnitude")
        if run.strip() and at >= cut:
            assert size == MACHINERY_PT and style.get("foregroundColor"), (run, style)
        elif run.strip() and at + len(run) <= cut:
            assert size is None, (run, style)
        at += len(run)
