"""C&C through the CLI on a Google Doc (tests/docs_server.py, real googleapiclient) and on a local file.

The same script runs on both backends and must leave the same text; then the things only
a shared Google Doc has: an opponent editing between pbd's read and write, formatting,
transient errors, the network going down, creating and sharing a document.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "cnc"
MATCH_ID = re.compile(r"(\bmatch\W{1,4})[0-9a-f]{8}\b")

SCRIPT = [
    ("new", "cnc", "{doc}", "--as", "{ann}", "--deck", "forces-of-justice", "--seed", "s1"),
    ("join", "{doc}", "--as", "{ben}", "--deck", "forces-of-corruption", "--seed", "s2"),
    ("show", "{doc}"),
    ("hand", "{doc}", "--as", "{ann}"),
    ("move", "{doc}", "--as", "{ann}", "draw; end turn"),
    ("legal", "{doc}", "--as", "{ben}"),
    ("move", "{doc}", "--as", "{ben}", "draw 2; end turn"),
    ("draw", "{doc}", "--as", "{ann}"),
    ("hand", "{doc}", "--as", "{ben}"),
    ("check", "{doc}"),
    ("show", "{doc}", "--json"),
]


class Place:
    """Where a match document lives: a local file or a document on the test Docs server."""

    def __init__(self, kind: str, tmp_path: Path, server=None):
        self.kind, self.server = kind, server
        if kind == "local":
            self.path = tmp_path / "match.txt"
            self.spec = str(self.path)
        else:
            self.gid = server.create_document("")
            self.spec = f"gdoc:{self.gid}"

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8") if self.kind == "local" else self.server.text(self.gid)


@pytest.fixture(params=["local", "gdocs"])
def place(request, tmp_path):
    server = request.getfixturevalue("docs_server") if request.param == "gdocs" else None
    return Place(request.param, tmp_path, server)


def play(pbd, place: Place, script=SCRIPT, ann="Ann", ben="Ben") -> list[str]:
    """Run ``script`` on ``place``; return every command's output with the match id, the time of the last entry
    (two runs may straddle a minute) and the location masked."""
    outputs = []
    for command in script:
        args = [a.format(doc=place.spec, ann=ann, ben=ben) for a in command]
        result = pbd(*args, ok=True)
        outputs.append(normalised(result.output).replace(place.spec, "DOC")
                       .replace(re.sub("gdoc:", "https://docs.google.com/document/d/", place.spec) + "/edit", "DOC"))
    return outputs


def normalised(text: str) -> str:
    """Return a document with its match id and the time of its last entry masked (two runs differ in both)."""
    return re.sub(r"(?m)^Last entry: .*$", "Last entry: TIME", MATCH_ID.sub(r"\1ID", text))


def test_the_cli_scenario_runs_on_each_backend(pbd, place):
    outputs = play(pbd, place)
    text = place.text()
    assert "Turn 3: Ann to move" in text
    assert "Ann: draw · hand 6 · AP 3→2" in text
    assert "board is consistent" in outputs[-2]
    assert pbd("check", place.spec).exit_code == 0


@pytest.mark.parametrize("ann, ben", [pytest.param("Ann", "Ben", marks=pytest.mark.long),     # the emoji names hold more
                                      ("Ann 🦸\U0001F9D9", "𝔅𝔢𝔫 😈")])
def test_same_script_same_text_on_a_file_and_on_google_docs(pbd, docs_server, tmp_path, ann, ben):
    local = Place("local", tmp_path)
    gdoc = Place("gdocs", tmp_path, docs_server)
    local_out = play(pbd, local, ann=ann, ben=ben)
    gdoc_out = play(pbd, gdoc, ann=ann, ben=ben)
    assert normalised(gdoc.text()) == normalised(local.text())
    assert gdoc_out == local_out
    assert f"{ben}: draw 2" in gdoc.text()


def _emoji_decks(tmp_path: Path) -> tuple[Path, Path]:
    """Copy the test catalogue and decks with card names full of emoji and non-BMP letters."""
    def rename(text):
        return text.replace("Tower ", "🏰 Tøwer ").replace("Brute ", "𝔅rute 😈 ")

    (tmp_path / "test-cards.toml").write_text(rename((DATA / "test-cards.toml").read_text()), encoding="utf-8")
    decks = []
    for name in ("towers.txt", "brutes.txt"):
        (tmp_path / name).write_text(rename((DATA / name).read_text()), encoding="utf-8")
        decks.append(tmp_path / name)
    return decks[0], decks[1]


def test_emoji_card_names_on_google_docs(pbd, docs_server, tmp_path):
    towers, brutes = _emoji_decks(tmp_path)
    texts = []
    for place in (Place("local", tmp_path), Place("gdocs", tmp_path, docs_server)):
        pbd("new", "cnc", place.spec, "--as", "Ann", "--deck", towers, "--seed", "1", ok=True)
        pbd("join", place.spec, "--as", "Ben", "--deck", brutes, "--seed", "2", ok=True)
        tower = min(pbd.json("hand", place.spec, "--as", "Ann")["hand"])
        assert "🏰" in tower
        pbd("move", place.spec, "--as", "Ann", f"play {tower}; end turn", ok=True)
        brute = pbd.json("hand", place.spec, "--as", "Ben")["hand"][0]
        pbd("move", place.spec, "--as", "Ben", f"play {brute}; end turn", ok=True)
        assert f"[{tower}]" in place.text() and brute in place.text()
        texts.append(normalised(place.text()))
    assert texts[0] == texts[1]
    # the class colour lands exactly on the (non-BMP) card names
    coloured = [t for t, s in docs_server.runs(place.gid) if "foregroundColor" in s]
    assert tower in coloured and brute in coloured


def test_new_gdoc_creates_shares_and_prints_the_url(pbd, docs_server):
    result = pbd("new", "cnc", "gdoc:new", "--as", "Ann", "--deck", "forces-of-justice", "--title", "Ann v Ben",
                 "--share", "ben@example.com", "--share", "cat@example.com", ok=True)
    [gid] = docs_server.docs
    url = f"https://docs.google.com/document/d/{gid}/edit"
    assert url in result.output
    assert docs_server.docs[gid].title == "Ann v Ben"
    shared = {(p.get("emailAddress"), p["role"]) for p in docs_server.permissions[gid]}
    assert {("ben@example.com", "writer"), ("cat@example.com", "writer")} <= shared
    # the opponent joins by URL
    pbd("join", url, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    assert "Ben: hand 5 · deck 45" in docs_server.text(gid)
    assert dict(docs_server.paragraph_styles(gid))["Fair play\n"] == "HEADING_2"


def test_gdoc_new_default_title(pbd, docs_server):
    pbd("new", "cnc", "gdoc:new", "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    assert [d.title for d in docs_server.docs.values()] == ["pbd match"]


def _replace_once(server, gid: str, old: str, new: str) -> None:
    """Edit the document on the server as the other player typing would."""
    text = server.text(gid)
    at = 1 + len(text[:text.index(old)].encode("utf-16-le")) // 2
    size = len(old.encode("utf-16-le")) // 2
    server.edit(gid, [{"deleteContentRange": {"range": {"startIndex": at, "endIndex": at + size}}},
                      {"insertText": {"text": new, "location": {"index": at}}}])


@pytest.fixture
def gmatch(pbd, docs_server, tmp_path):
    """A started match on the test Docs server."""
    place = Place("gdocs", tmp_path, docs_server)
    pbd("new", "cnc", place.spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "s1", ok=True)
    pbd("join", place.spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "s2", ok=True)
    return place


def _private_state(home: Path) -> list[bytes]:
    return sorted(p.read_bytes() for p in home.rglob("*.json"))


def test_opponent_edit_between_read_and_write_survives_and_the_move_is_replayed(pbd, docs_server, gmatch):
    # while Ann's pbd is between its read and its write, Ben types a note (a count changed by hand would be
    # refused: tests/test_hand_edits.py)
    docs_server.before_write(lambda server, gid: _replace_once(server, gid, "\n\nAnn (player 1)\n",
                                                               "\n\nNotes\nBen: back in five\n\nAnn (player 1)\n"))
    result = pbd("move", gmatch.spec, "--as", "Ann", "draw; end turn", ok=True)
    assert "draw · hand 6" in result.output
    assert "Notes\nBen: back in five\n" in gmatch.text()  # Ben's edit survived
    text = gmatch.text()
    assert "Ann: draw · hand 6 · AP 3→2" in text and "Ann: end turn" in text  # Ann's move, replayed
    assert docs_server.count(":batchUpdate") == 2 + 2  # new, join, refused write, replayed write
    assert len(pbd.json("hand", gmatch.spec, "--as", "Ann")["hand"]) == 6


def test_a_hand_edit_made_while_moving_is_named_and_nothing_is_written(pbd, docs_server, gmatch):
    home = Path(os.environ["PBD_HOME"])
    state = _private_state(home)
    # Ben "corrects" Ann's AP to 0 while she moves: her draw is no longer legal on the new board
    docs_server.before_write(lambda server, gid: _replace_once(server, gid, "CP = 100 AP= 3", "CP = 100 AP= 0"))
    result = pbd("move", gmatch.spec, "--as", "Ann", "draw")
    assert result.exit_code == 3, result.output       # the retry finds a count the log does not explain
    assert "Ann's AP was changed by hand from 3 to 0" in result.output
    after = gmatch.text()
    assert "CP = 100 AP= 0" in after and "Ann: draw" not in after
    assert _private_state(home) == state  # Ann's hand did not change either


def test_formatting_on_untouched_lines_survives_a_move(pbd, docs_server, gmatch):
    text = gmatch.text()
    players = text.index("Players:")
    start = 1 + len(text[:players].encode("utf-16-le")) // 2
    docs_server.edit(gmatch.gid, [{"updateTextStyle": {
        "range": {"startIndex": start, "endIndex": start + len("Players:")},
        "textStyle": {"italic": True, "backgroundColor": {"color": {"rgbColor": {"green": 1}}}},
        "fields": "italic,backgroundColor"}}])
    pbd("move", gmatch.spec, "--as", "Ann", "draw; end turn", ok=True)
    runs = docs_server.runs(gmatch.gid)
    assert ("Players:", {"italic": True, "backgroundColor": {"color": {"rgbColor": {"green": 1}}}}) in runs
    paragraphs = dict(docs_server.paragraph_styles(gmatch.gid))
    assert paragraphs["Log\n"] == "HEADING_2" and paragraphs["Fair play\n"] == "HEADING_2"
    assert [style for para, style in paragraphs.items() if re.match(r"\d+\. Ann: end turn", para)] == ["NORMAL_TEXT"]
    porter = [s for t, s in runs if t == "The Porter"]
    assert porter and all("foregroundColor" in s for s in porter)


def test_a_move_costs_two_requests(pbd, docs_server, gmatch):
    before = len(docs_server.log)
    pbd("move", gmatch.spec, "--as", "Ann", "draw; end turn", ok=True)
    calls = docs_server.log[before:]
    assert [(c.method, c.path.rsplit(":", 1)[-1] if ":" in c.path else "get") for c in calls] == \
        [("GET", "get"), ("POST", "batchUpdate")]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_errors_during_a_move_are_retried(pbd, docs_server, gmatch, status):
    docs_server.fail(2, status=status, match="/v1/documents/")
    docs_server.fail(2, status=status, match=":batchUpdate")
    pbd("move", gmatch.spec, "--as", "Ann", "draw; end turn", ok=True)
    assert "Ann: end turn" in gmatch.text()
    assert len(docs_server.sleeps) == 4


def test_endless_429_is_exit_5_and_nothing_changes(pbd, docs_server, gmatch):
    home = Path(os.environ["PBD_HOME"])
    before, state = gmatch.text(), _private_state(home)
    docs_server.fail(100, status=429, match=":batchUpdate")
    result = pbd("move", gmatch.spec, "--as", "Ann", "draw")
    assert result.exit_code == 5 and "429" in result.output
    assert gmatch.text() == before and _private_state(home) == state


def test_network_down_is_exit_5(pbd, docs_server, gmatch):
    home = Path(os.environ["PBD_HOME"])
    state = _private_state(home)
    docs_server.stop()
    for args in (("show", gmatch.spec), ("move", gmatch.spec, "--as", "Ann", "draw")):
        result = pbd(*args)
        assert result.exit_code == 5 and "cannot reach Google Docs" in result.output
        assert "Traceback" not in result.output
    assert _private_state(home) == state


def test_missing_google_doc_is_exit_5(pbd, docs_server):
    result = pbd("show", "gdoc:noSuchDocument")
    assert result.exit_code == 5 and "no such Google Doc" in result.output


def test_new_on_a_google_doc_with_content_is_refused(pbd, docs_server, gmatch):
    before = gmatch.text()
    result = pbd("new", "cnc", gmatch.spec, "--as", "Ann", "--deck", "forces-of-justice")
    assert result.exit_code == 2 and gmatch.text() == before


def test_a_hand_edited_google_doc_gets_the_same_line_numbered_errors_as_a_file(pbd, docs_server, gmatch, tmp_path):
    _replace_once(docs_server, gmatch.gid, "City Cards", "Citty Cardz")
    local = tmp_path / "same.txt"
    local.write_text(gmatch.text(), encoding="utf-8")
    for command in ("show", "check"):
        on_docs, on_file = pbd(command, gmatch.spec), pbd(command, local)
        assert on_docs.exit_code == on_file.exit_code == 3
        assert re.search(r"line \d+", on_docs.output)
        assert on_docs.output.replace(gmatch.spec, "DOC") == on_file.output.replace(str(local), "DOC")


def test_local_commands_do_not_import_the_google_client(tmp_path):
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from pbd.cli import cli\n"
        "r = CliRunner()\n"
        f"doc = {str(tmp_path / 'm.txt')!r}\n"
        "for args in (['--help'], ['games'], ['auth', '--help'], ['template', 'cnc'],\n"
        "             ['new', 'cnc', doc, '--as', 'Ann', '--deck', 'forces-of-justice'],\n"
        "             ['show', doc], ['move', doc, '--as', 'Ann', 'draw']):\n"
        "    result = r.invoke(cli, args)\n"
        "    want = 1 if args[0] == 'move' else 0   # a move before anyone joined is refused by the rules\n"
        "    assert result.exit_code == want, (args, result.output)\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('googleapiclient', 'google.auth', 'google_auth',"
        " 'httplib2', 'google.oauth2')))\n"
        "assert not loaded, loaded\n"
    )
    env = {**os.environ, "PBD_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr


def test_google_only_options_are_refused_for_a_local_file(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    result = pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--share", "ben@example.com")
    assert result.exit_code == 2 and "--share: Google Docs only" in result.output
    assert not doc.exists()
