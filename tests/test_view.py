"""The document in two parts — the players' view, then the machinery — and every typed line kept (issue 27).

Every game, on a local file (and the tests' Docs server in test_view_gdocs.py): notes typed at
the end of the view and of the machinery (no blank line before them), inside the board, right
above ``Log``, among the machinery's sections, are each kept byte for byte through four moves;
a line that cannot be told apart from the board gets exit 3 naming it, the document unchanged;
a document an older pbd wrote (tests/data/old_layout, made by main's pbd) is read and written
anew in two parts, its notes where they were.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pbd.games.base import MACHINERY

DATA = Path(__file__).parent / "data" / "old_layout"
GAMES = {"cnc": (["--deck", "forces-of-justice"], ["--deck", "forces-of-corruption"]),
         "ttc": (["--deck", "sample"], []), "tower": ([], []), "boystown": ([], []), "2xd6": ([], [])}
#: notes with what editors type: curly quotes, a no-break space, a tab, trailing spaces
END_OF_VIEW = "Ben\u2019s note\u00a0at the end — Enter after the last line, then words\t(kept)  "
ABOVE_LOG = "a note right above Log, no Notes heading"
IN_BOARD = "Note: inside the board — remember the house rule"
IN_MACHINERY = "a note among the machinery’s sections"
END_OF_MACHINERY = "the last line of the document, typed by Ann"
IN_HALF = "Ann\u2019s own line inside her half of the board"
UNDER_NAME = "typed under Ben\u2019s name, at the foot of the board"


def view(text: str) -> str:
    """Return the players' view: the text before the line reading ``Machinery``."""
    return text[:text.index(f"\n{MACHINERY}\n")]


def start(pbd, doc: Path, game: str) -> None:
    """Start a two-seat match of ``game`` on ``doc`` (Ann and Ben, fixed seeds)."""
    first, second = GAMES[game]
    pbd("new", game, doc, "--as", "Ann", "--seed", f"{game}-a", "--players", "2", *first, ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", f"{game}-b", *second, ok=True)


def one_move(pbd, doc: Path) -> None:
    """Play one legal move (the seats owing table work pay it first), as a player would."""
    data = pbd.json("show", doc, "--json")
    for name in data.get("waiting_on") or ():
        pbd("hand", doc, "--as", name, ok=True)
    for name in ("Ann", "Ben"):
        moves = [m for m in pbd.json("legal", doc, "--as", name, "--json")["moves"] if not m.startswith("resign")]
        if moves:
            pbd("move", doc, "--as", name, moves[-1], ok=True)
            return
    pytest.fail("nobody has a legal move")


def with_notes(text: str, game: str) -> str:
    """Return a two-part document with a note in every place a player may type one."""
    assert text.count("\n\nLog\n") == 1 and text.count(f"\n\n{MACHINERY}\n") == 1
    text = text.replace("\n\nLog\n", f"\n\n{ABOVE_LOG}\nLog\n")
    text = text.replace(f"\n\n{MACHINERY}\n", f"\n{END_OF_VIEW}\n\n{MACHINERY}\n")
    text = text.replace("\n\nFair play\n", f"\n{IN_MACHINERY}\n\nFair play\n")
    header_end = text.index("\n\n") + 2
    board_line = text.index("\n", header_end) + 1
    text = text[:board_line] + IN_BOARD + "\n" + text[board_line:]
    if game == "cnc":
        text = text.replace("Ann (player 1)\n", f"Ann (player 1)\n{IN_HALF}\n")
        text = text.replace("Ben (player 2)\n\n", f"Ben (player 2)\n{UNDER_NAME}\n\n")
    return text + END_OF_MACHINERY + "\n"


def assert_kept(text: str, game: str) -> None:
    """Assert every note stands where it was typed, byte for byte."""
    front, machinery = view(text), text[text.index(f"\n{MACHINERY}\n"):]
    assert f"\n{ABOVE_LOG}\nLog\n" in front
    assert f"\n{END_OF_VIEW}\n" in front
    assert f"\n{IN_BOARD}\n" in front[:front.index("\nLog\n")]
    assert f"\n{IN_MACHINERY}\n" in machinery
    assert text.endswith(f"\n{END_OF_MACHINERY}\n")
    if game == "cnc":
        assert f"Ann (player 1)\n{IN_HALF}\n" in front
        assert f"Ben (player 2)\n{UNDER_NAME}\n" in front


@pytest.mark.parametrize("game", list(GAMES))
def test_every_note_is_kept_byte_for_byte_through_four_moves(pbd, tmp_path, game):
    doc = tmp_path / "match.txt"
    start(pbd, doc, game)
    doc.write_text(with_notes(doc.read_text(encoding="utf-8"), game), encoding="utf-8")
    assert pbd("show", doc).exit_code == 0
    for _ in range(4):
        one_move(pbd, doc)
        assert_kept(doc.read_text(encoding="utf-8"), game)
        assert f"\n\n{ABOVE_LOG}\nLog\n" in doc.read_text(encoding="utf-8")
    assert pbd("check", doc).exit_code == 0
    assert not pbd.json("log", doc, "--json")["problems"]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_view_holds_no_machinery(pbd, tmp_path, game):
    doc = tmp_path / "match.txt"
    start(pbd, doc, game)
    for _ in range(2):
        one_move(pbd, doc)
    text = doc.read_text(encoding="utf-8")
    front = view(text)
    assert not re.search(r"[A-Za-z0-9_+/=-]{20,}", front.replace("forces-of-corruption", "")
                         .replace("forces-of-justice", "")), front
    for heading in ("Deck", "Fair play", "Revealed", "Deal", "Entries"):
        assert f"\n{heading}\n" not in front
    assert "\nFair play\n" in text[len(front):]
    assert not re.search(r"^\d+\. \w+: (locked and shuffled|unlocked) ", front, re.M)
    shown = pbd("show", doc, ok=True).output                 # pbd show prints the players' view
    assert shown.startswith(front.split("\n")[0]) and MACHINERY not in shown and "Fair play" not in shown


def test_a_word_edited_in_the_views_log_breaks_the_hash(pbd, tmp_path):
    doc = tmp_path / "match.txt"
    start(pbd, doc, "tower")
    text = doc.read_text(encoding="utf-8")
    edited = text.replace("1. Ann: new match for 2", "1. Ann: new match for 3", 1)
    assert edited != text
    doc.write_text(edited, encoding="utf-8")
    problems = pbd.json("log", doc, "--json")["problems"]
    assert any("log entry 1" in p and "edited" in p for p in problems), problems
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3, result.output
    assert doc.read_text(encoding="utf-8") == edited


def test_a_view_line_deleted_is_named_and_nothing_is_written(pbd, tmp_path):
    doc = tmp_path / "match.txt"
    start(pbd, doc, "tower")
    text = doc.read_text(encoding="utf-8")
    line = next(ln for ln in view(text).split("\n") if ln.startswith("2. Ben: joined"))
    cut = text.replace(line + "\n", "", 1)
    doc.write_text(cut, encoding="utf-8")
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3
    assert "log entry 2" in result.output and "no line in the view" in result.output
    number = cut.split("\n").index(next(ln for ln in cut.split("\n") if ln.startswith("2 · commits"))) + 1
    assert f"line {number}:" in result.output
    assert doc.read_text(encoding="utf-8") == cut


def test_a_line_among_cnc_discards_cannot_be_a_note_exit_3_names_it(pbd, tmp_path):
    doc = tmp_path / "match.txt"
    start(pbd, doc, "cnc")
    text = doc.read_text(encoding="utf-8")
    typed = text.replace("Discarded cards (0/25)\n(none)\n", "Discarded cards (0/25)\n(none)\nask Ben about it\n", 1)
    doc.write_text(typed, encoding="utf-8")
    number = typed.split("\n").index("ask Ben about it") + 1
    result = pbd("move", doc, "--as", "Ann", "draw")
    assert result.exit_code == 3
    assert f"line {number}:" in result.output and "'ask Ben about it'" in result.output
    assert "start it with 'Note:'" in result.output
    assert doc.read_text(encoding="utf-8") == typed
    doc.write_text(typed.replace("ask Ben about it", "Note: ask Ben about it"), encoding="utf-8")
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    assert "(none)\nNote: ask Ben about it\nCP = " in doc.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", list(GAMES))
def test_an_old_layout_document_is_rewritten_in_two_parts_notes_where_they_were(pbd, tmp_path, game):
    """A C&C document of pbd 0.2's layout is rewritten in two parts by the next write, the notes where they were.
    The shared-deck games' documents of pbd 0.2 carry a deck of format v2, which pbd 0.3 refuses (issue 25):
    those matches are finished with pbd 0.2, and their documents are left as they are."""
    folder = tmp_path / game
    shutil.copytree(DATA / game, folder)
    doc = folder / "match.txt"
    old = doc.read_text(encoding="utf-8")
    assert MACHINERY not in old and "\nFair play\n" in old
    home = {"PBD_HOME": str(folder / "home-Ann")}
    from click.testing import CliRunner

    from pbd.cli import cli

    def run(name, *args):
        return CliRunner().invoke(cli, [str(a) for a in args], env={"PBD_HOME": str(folder / f"home-{name}")})

    if game != "cnc":                   # dealt by pbd 0.2: its shared deck (format v2) is refused, the document kept
        for name in ("Ann", "Ben"):
            refused = run(name, "legal", doc, "--as", name)
            assert refused.exit_code == 3 and "earlier pbd (0.2: deck format v2" in refused.output, refused.output
        assert doc.read_text(encoding="utf-8") == old
        return
    assert run("Ann", "show", doc).exit_code == 0, home
    for name in ("Ann", "Ben"):
        got = run(name, "legal", doc, "--as", name, "--json")
        moves = json.loads(got.stdout)["moves"] if got.exit_code == 0 else []
        moves = [m for m in moves if not m.startswith("resign")]
        if moves:
            result = run(name, "move", doc, "--as", name, moves[-1])
            assert result.exit_code == 0, result.output
            break
    else:
        result = run("Ben", "hand", doc, "--as", "Ben")
        assert result.exit_code == 0, result.output
    new = doc.read_text(encoding="utf-8")
    assert new != old and f"\n{MACHINERY}\n" in new
    front = view(new)
    assert "Notes\nBen: remember the house rule\n" in front
    assert "\nGG so far — an old note after the log\n" in front
    assert "\nFair play\n" not in front and "\nDeck\n" not in front
    got = run("Ann", "log", doc, "--json")
    assert got.exit_code == 0 and not json.loads(got.stdout)["problems"], got.output
    assert run("Ben", "check", doc).exit_code == 0


#: the games whose board reader refuses a line it cannot read (the others pass over it: it is kept as a note)
STRICT = {"boystown": True, "2xd6": True, "tower": False}


@pytest.mark.parametrize("game", list(STRICT))
def test_a_line_of_ones_own_inside_the_board_is_kept_or_named(pbd, tmp_path, game):
    doc = tmp_path / "match.txt"
    start(pbd, doc, game)
    text = doc.read_text(encoding="utf-8")
    header_end = text.index("\n\n") + 2
    after = text.index("\n", header_end) + 1
    mine = "our own words, typed inside the board"
    typed = text[:after] + mine + "\n" + text[after:]
    doc.write_text(typed, encoding="utf-8")
    if STRICT[game]:                        # named, with what makes it a note; nothing written
        result = pbd("show", doc)
        number = typed.split("\n").index(mine) + 1
        assert result.exit_code == 3 and f"line {number}:" in result.output, result.output
        assert "start it with 'Note:'" in result.output
        assert pbd("move", doc, "--as", "Ann", "x").exit_code == 3 and doc.read_text(encoding="utf-8") == typed
        mine = f"Note: {mine}"
        doc.write_text(text[:after] + mine + "\n" + text[after:], encoding="utf-8")
    for _ in range(2):
        one_move(pbd, doc)
        front = view(doc.read_text(encoding="utf-8"))
        assert f"\n{mine}\n" in front[front.index("\n\n"):front.index("\nLog\n")]     # in the board
    assert pbd("check", doc).exit_code == 0
