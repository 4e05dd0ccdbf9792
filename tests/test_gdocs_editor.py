"""A Google Doc as people really use it: the editor's habits, suggestions, tabs and tables.

Everything runs through the real googleapiclient against tests/docs_server.py, which
follows the Docs v1 reference for each behaviour (see its module docstring).
"""

from __future__ import annotations

import json
import random

import pytest

from pbd.documents.diff import apply, edits


def _at(text: str, needle: str, start: int = 0) -> int:
    """Return the Docs index of ``needle`` in a one-tab body text (index 1 is the first character)."""
    return 1 + len(text[:text.index(needle, start)].encode("utf-16-le")) // 2


def _size(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _replace(server, gid, old: str, new: str, tab: str = "") -> None:
    text = server.text(gid, tab)
    at = _at(text, old)
    where = {"tabId": tab} if tab else {}
    server.edit(gid, [{"deleteContentRange": {"range": {"startIndex": at, "endIndex": at + _size(old), **where}}},
                      {"insertText": {"text": new, "location": {"index": at, **where}}}])


def _start(pbd, spec, ann="Ann", ben="Ben"):
    pbd("new", "cnc", spec, "--as", ann, "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", spec, "--as", ben, "--deck", "forces-of-corruption", "--seed", "b", ok=True)


@pytest.fixture
def gdoc(pbd, docs_server):
    gid = docs_server.create_document("")
    _start(pbd, f"gdoc:{gid}")
    return gid, f"gdoc:{gid}"


# -- the editor's habits -------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["local", "gdocs"])
def test_a_name_retyped_with_a_curly_apostrophe_is_still_that_player(pbd, tmp_path, request, kind):
    if kind == "local":
        doc = tmp_path / "m.txt"
        spec = str(doc)
    else:
        server = request.getfixturevalue("docs_server")
        gid = server.create_document("")
        spec = f"gdoc:{gid}"
    _start(pbd, spec, ann="D'Arcy", ben="O'Neil")
    if kind == "local":
        doc.write_text(doc.read_text().replace("D'Arcy (player 1)", "D\u2019Arcy (player 1)")
                       .replace("O'Neil: hand", "O\u2019Neil: hand"), encoding="utf-8")
    else:
        _replace(server, gid, "D'Arcy (player 1)", "D\u2019Arcy (player 1)")
        _replace(server, gid, "O'Neil: hand", "O\u2019Neil: hand")
    assert pbd("hand", spec, "--as", "D'Arcy").exit_code == 0
    pbd("move", spec, "--as", "D'Arcy", "draw; end turn", ok=True)
    assert pbd.json("show", spec)["to_move"] in ("O'Neil", ["O'Neil"])
    assert not pbd.json("log", spec)["problems"]


def test_a_log_line_turned_into_a_numbered_list_still_parses(pbd, docs_server, gdoc):
    gid, spec = gdoc
    text = docs_server.text(gid)
    # Ben retypes entry 2; Docs turns his "2. " into a list item numbered from 2 (the number leaves the text)
    line = text[text.index("2. Ben: joined"):].split("\n")[0]
    at = _at(text, line)
    docs_server.edit(gid, [{"deleteContentRange": {"range": {"startIndex": at, "endIndex": at + 3}}}])
    docs_server.make_list(gid, at, at + 1, start_number=2)
    assert "2. Ben: joined" not in docs_server.text(gid)
    assert not pbd.json("log", spec)["problems"]
    pbd("move", spec, "--as", "Ann", "draw; end turn", ok=True)  # pbd writes next to the list item
    log = pbd.json("log", spec)
    numbers = [e["n"] for e in log["entries"]]
    assert not log["problems"] and numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 4
    # pbd's edit need not touch that paragraph (the log now ends above the Fair play section), so it may
    # stay a list item; either way it still reads as entry 2
    assert "Ben: joined" in docs_server.text(gid) and log["entries"][1]["text"].startswith("joined")


def test_shift_enter_reads_as_a_line_break_and_restyles_no_neighbour(pbd, docs_server, gdoc):
    gid, spec = gdoc
    text = docs_server.text(gid)
    # Ann joins the two count lines into one paragraph with Shift+Enter, bolds Ben's, styles it a title
    at = _at(text, "\nBen: hand")
    ben = _at(text, "Ben: hand")
    size = _size(text[text.index("Ben: hand"):].split("\n")[0])
    docs_server.edit(gid, [
        {"deleteContentRange": {"range": {"startIndex": at, "endIndex": at + 1}}},
        {"insertText": {"text": "\x0b", "location": {"index": at}}},
        {"updateTextStyle": {"range": {"startIndex": ben, "endIndex": ben + size}, "textStyle": {"bold": True},
                             "fields": "bold"}},
        {"updateParagraphStyle": {"range": {"startIndex": ben, "endIndex": ben + 1},
                                  "paragraphStyle": {"namedStyleType": "TITLE"}, "fields": "namedStyleType"}}])
    pbd("move", spec, "--as", "Ann", "draw; end turn", ok=True)
    text = docs_server.text(gid)
    assert "Ann: hand 6 · deck 44\x0bBen: hand 5 · deck 45" in text
    styles = dict(docs_server.paragraph_styles(gid))
    assert styles["Ann: hand 6 · deck 44\x0bBen: hand 5 · deck 45\n"] == "TITLE"
    assert ("Ben: hand 5 · deck 45", {"bold": True}) in docs_server.runs(gid)


def test_a_pending_suggestion_is_not_read_and_survives_a_move(pbd, docs_server, gdoc):
    gid, spec = gdoc
    text = docs_server.text(gid)
    docs_server.suggest_insertion(gid, _at(text, "CP = 100 AP= 0"), "CP = 999 ")
    assert pbd.json("show", spec)["players"][1]["cp"] == 100  # a suggestion is not the board
    pbd("move", spec, "--as", "Ann", "draw; end turn", ok=True)
    runs = [p for c in docs_server.document(gid)["body"]["content"]
            for p in c.get("paragraph", {}).get("elements", []) if "textRun" in p]
    assert [r["textRun"]["content"] for r in runs if r["textRun"].get("suggestedInsertionIds")] == ["CP = 999 "]
    gets = [r for r in docs_server.log if r.method == "GET" and r.path.startswith("/v1/documents/")]
    assert all("suggestionsViewMode=SUGGESTIONS_INLINE" in r.query for r in gets)


# -- tabs ---------------------------------------------------------------------------------

def _players_move(pbd, spec, moves: int, seed: int = 7) -> dict:
    """Play up to ``moves`` random legal moves (or to the end); return the final ``show --json``."""
    rng = random.Random(seed)
    for _ in range(moves):
        shown = pbd.json("show", spec)
        if shown["result"]:
            return shown
        who = shown["to_move"] if isinstance(shown["to_move"], str) else shown["to_move"][0]
        legal = pbd.json("legal", spec, "--as", who)["moves"]
        attacks = [m for m in legal if " attacks " in m]
        plays = [m for m in legal if m.startswith("play ")]
        move = rng.choice(attacks or plays or [m for m in legal if m.startswith("draw")] or ["end turn"])
        if move.startswith("draw") and rng.random() < 0.5:
            move = "end turn"
        pbd("move", spec, "--as", who, move, ok=True)
    return pbd.json("show", spec)


def test_a_board_in_a_second_tab_from_a_pasted_url(pbd, docs_server):
    gid = docs_server.create_document("Our league: standings and chat\n")
    tab = docs_server.add_tab(gid, "Match")
    url = f"https://docs.google.com/document/d/{gid}/edit?tab={tab}"
    _start(pbd, url)
    assert docs_server.text(gid) == "Our league: standings and chat\n"  # the first tab is untouched
    assert docs_server.text(gid, tab).startswith("pbd match ")
    _players_move(pbd, url, 6)
    assert docs_server.text(gid) == "Our league: standings and chat\n"
    assert not pbd.json("log", url)["problems"]
    result = pbd("check", url)                      # every move was pbd's own: the board breaks no rule
    assert result.exit_code == 0 and "the board is consistent with the rules" in result.output, result.output
    writes = [r for r in docs_server.log if r.path.endswith(":batchUpdate")]
    assert writes and all(r.status == 200 for r in writes)


def test_new_puts_the_board_in_a_named_tab_of_an_existing_document(pbd, docs_server):
    gid = docs_server.create_document("Rules we agreed on\n")
    result = pbd("new", "cnc", f"gdoc:{gid}", "--tab", "Match 2", "--as", "Ann", "--deck", "forces-of-justice",
                 ok=True)
    tabs = docs_server.docs[gid].tabs
    assert [t.title for t in tabs] == ["Tab 1", "Match 2"]
    assert f"?tab={tabs[1].id}" in result.output  # the URL to share names the tab
    assert docs_server.text(gid) == "Rules we agreed on\n"
    assert docs_server.text(gid, tabs[1].id).startswith("pbd match ")


def test_a_tab_that_does_not_exist_is_a_clear_error(pbd, docs_server):
    gid = docs_server.create_document("x\n")
    out = pbd("show", f"https://docs.google.com/document/d/{gid}/edit?tab=t.nope")
    assert out.exit_code == 5 and "no tab 't.nope'" in out.output


@pytest.mark.long
def test_a_full_match_in_a_second_tab(pbd, docs_server):
    gid = docs_server.create_document("chat\n")
    tab = docs_server.add_tab(gid, "Match")
    url = f"https://docs.google.com/document/d/{gid}/edit?tab={tab}"
    _start(pbd, url)
    assert _players_move(pbd, url, 600)["result"]
    assert not pbd.json("log", url)["problems"] and docs_server.text(gid) == "chat\n"


# -- tables -------------------------------------------------------------------------------

def _board_in_a_table(server, gid) -> None:
    """Lay the C&C board out as two cells side by side (Ann's half | the line and Ben's half)."""
    text = server.text(gid)
    start = text.index("\n\n") + 2
    end = text.index("\n\nFair play") + 1
    body = text[start:end]
    cut = body.index("----\n")
    server.set_text(gid, text[:start] + text[end:])
    server.insert_table(gid, _at(server.text(gid), "\nFair play") + 0, [[body[:cut], body[cut:]]])
    assert server.text(gid) == text


def test_a_board_in_a_table_plays_on(pbd, docs_server, gdoc):
    gid, spec = gdoc
    _board_in_a_table(docs_server, gid)
    shown = _players_move(pbd, spec, 8)
    table = [c for c in docs_server.document(gid)["body"]["content"] if "table" in c]
    assert len(table) == 1 and len(table[0]["table"]["tableRows"][0]["tableCells"]) == 2
    assert not pbd.json("log", spec)["problems"]
    assert shown["players"][0]["name"] == "Ann"
    writes = [r for r in docs_server.log if r.path.endswith(":batchUpdate")]
    assert all(r.status == 200 for r in writes)


@pytest.mark.long
def test_a_full_match_with_the_board_in_a_table(pbd, docs_server, gdoc):
    gid, spec = gdoc
    _board_in_a_table(docs_server, gid)
    assert _players_move(pbd, spec, 600)["result"]
    assert len([c for c in docs_server.document(gid)["body"]["content"] if "table" in c]) == 1


def test_lines_added_at_a_cells_end_stay_in_the_cell(docs_server):
    from pbd.documents import open_document

    gid = docs_server.create_document("before\n\nafter\n")
    docs_server.insert_table(gid, _at("before\n\nafter\n", "\nafter"), [["a\nb", "c"]])
    doc = open_document(f"gdoc:{gid}")
    snap = doc.read()
    assert snap.text == "before\na\nb\nc\n\nafter\n"
    doc.write("before\na\nb\nb2\nc\nc2\n\nafter\n", snap)  # a line after each cell's last line
    doc.write("before\na\nc\n\nafter\n", doc.read())        # and a cell's last line deleted
    cells = [c for c in docs_server.document(gid)["body"]["content"] if "table" in c][0]["table"]
    texts = ["".join(r["textRun"]["content"] for p in cell["content"] for r in p["paragraph"]["elements"])
             for cell in cells["tableRows"][0]["tableCells"]]
    assert texts == ["a\n", "c\n"] and docs_server.text(gid) == "before\na\nc\n\nafter\n"


def test_edits_never_delete_a_fixed_newline_and_keep_the_text():
    old = "a\nb\nc\nd\n"
    for new in ("a\nc\nd\n", "a\nb\nx\ny\nc\nd\n", "d\n", "a\nb\nc\n", "zz\n"):
        changes = edits(old, new, fixed=[3])
        assert all(not (e.start <= 3 < e.end) for e in changes), (new, changes)
        result = apply(old, changes)
        assert result == new or result.count("\n") == new.count("\n") + 1, (new, result)
    assert json.dumps([vars(e) for e in edits(old, "a\nb\nb2\nc\nd\n", fixed=[3])]) == \
        '[{"start": 3, "end": 3, "text": "\\nb2"}]'
