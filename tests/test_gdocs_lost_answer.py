"""A lost Google answer followed by any edit never leaves a seat stuck (issue 31, item 1).

The Docs server applies a seat's move and closes the connection before answering; the HTTP
library sends the very same batchUpdate again, and the revision guard refuses the copy,
because the document moved (the move itself, and a note someone typed meanwhile).  pbd
looks for its own log entry before dropping the staged private state: the move landed
once, the command says so, and every seat plays on.
"""

from __future__ import annotations

import pytest
from hostile_helpers import started

NOTE = "Notes\nBen: back tomorrow\n\n"


def _type_a_note(gid):
    def note(server):
        at = server.text(gid).index("\n\n") + 2       # a Notes paragraph between the header and the board
        server.edit(gid, [{"insertText": {"location": {"index": at}, "text": NOTE}}])
    return note


def _lost_answer(pbd, docs_server, game, seats, move, extra=()):
    pbd("new", game, "gdoc:new", "--as", "Ann", "--players", len(seats), "--seed", "ann", *extra, ok=True)
    [gid] = docs_server.docs
    spec = f"gdoc:{gid}"
    for name in seats[1:]:
        pbd("join", spec, "--as", name, "--seed", name.lower(), ok=True)
    for name in seats:
        pbd("hand", spec, "--as", name, ok=True)          # every seat pays what it owes
    assert move in pbd.json("legal", spec, "--as", "Ann")["moves"]
    _dropped_then_noted(pbd, docs_server, spec, gid, move, seats)
    return spec


def _dropped_then_noted(pbd, docs_server, spec, gid, move, seats):
    entries = docs_server.text(gid).count(f"Ann: {move}")
    docs_server.drop_after_write(1, then=_type_a_note(gid))
    result = pbd("move", spec, "--as", "Ann", move)
    assert result.exit_code == 0, result.output
    text = docs_server.text(gid)
    assert text.count(f"Ann: {move}") == entries + 1 and NOTE in text       # landed once; the note kept
    assert docs_server.count(":batchUpdate") >= 2        # the refused copy was sent
    for name in seats:                                    # nobody is stuck: every seat's pbd reads on
        after = pbd("legal", spec, "--as", name)
        assert after.exit_code == 0, (name, after.output)
    assert "log chain: intact" in pbd("log", spec, ok=True).output


def test_a_dropped_answer_then_a_note_lands_the_move_once(pbd, docs_server, tmp_path):
    doc = started("tower", tmp_path)                     # started on a file, then pasted into a Google Doc
    for name in ("Ann", "Ben"):
        pbd("hand", doc, "--as", name, ok=True)
    (tmp_path / "pbd-home" / "my-matches").unlink()       # this machine has played it nowhere yet
    gid = docs_server.create_document(doc.read_text())
    _dropped_then_noted(pbd, docs_server, f"gdoc:{gid}", gid, "roll", ["Ann", "Ben"])


@pytest.mark.long
def test_a_dropped_draw_at_a_three_seat_boys_town_table_leaves_nobody_stuck(pbd, docs_server):
    spec = _lost_answer(pbd, docs_server, "boystown", ["Ann", "Ben", "Cy"], "draw")
    for name in ("Ben", "Cy", "Ann", "Ben", "Cy"):
        pbd("hand", spec, "--as", name, ok=True)         # the unlocks the draw owes are paid
    assert "waiting for unlocks" not in pbd("hand", spec, "--as", "Ann", ok=True).output
