"""Fuzzing hostile documents of every game through every command (issue 31).

A started match of each game is edited the way a hostile or careless player might (lines
typed in, words swapped for paths, unknown option words, cards no deck has, huge numbers)
and every command that takes a document is run on it, in process, with an audit hook
recording each file opened.  Whatever the edit: a documented exit code (never 70, never a
traceback), no file opened outside PBD_HOME, the document's folder, pbd's bundled data and
the Python installation, nothing read from such a file said, and on failure the document
byte-for-byte as it was.  The default budget is small; ``pytest -m long`` runs many more.
"""

from __future__ import annotations

import pytest
from hostile_helpers import GAMES, SECRET, allowed_roots, opened, outside, started
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

KNOWN = {0, 1, 2, 3, 4, 5}
FAST = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
SECRET_PATH = "/tmp/pbd-fuzz-outside/secret.toml"

COMMANDS = [["show"], ["show", "--json"], ["check"], ["check", "--json"], ["audit"], ["log"], ["replay"],
            ["score"], ["status"], ["legal", "--as", "Ann"], ["legal", "--as", "Ben", "--json"],
            ["hand", "--as", "Ben"], ["hand", "--as", "Ann", "--json"], ["draw", "--as", "Ann"],
            ["move", "--as", "Ann", "draw"], ["move", "--as", "Ben", "end turn"], ["roll", "--as", "Ann", "2d6"],
            ["undo", "--as", "Ann"], ["reveal", "--as", "Ben"]]
WORDS = st.sampled_from([
    SECRET_PATH, "/etc/passwd", "~/.ssh/id_rsa", "../secret.toml", "foo=bar", "catalogue=" + SECRET_PATH,
    "board=" + SECRET_PATH, "deck=/etc/passwd", "Torch", "Spider-Man", "JO", "99999999999999999999", "-1", "0",
    "sha256:0000000000000000", "Zed", "·", "=", "", "x" * 300,
])
LINES = st.sampled_from([
    "Options: catalogue=" + SECRET_PATH, "Options: foo=bar", "Options: board=" + SECRET_PATH,
    "Options: mod=x adjacency=5", "Options: exact-finish=" + SECRET_PATH, "Deck: " + SECRET_PATH,
    "Catalogue: " + SECRET_PATH, "Board: " + SECRET_PATH, "Cards: " + SECRET_PATH + " (40 cards)",
    "Waiting on: Ann: pick one of a, b", "Owed: Ben: unlock 99 card(s) for Ann", "Turn: Zed", "Result: Ben wins",
    "  hand 1 Torch", "  cards Torch", "Seats: Ann, Ben, Cy (3 of 3)", "Log", "Deck", "Machinery",
])
#: an edit: (line number, what to do, text): insert a line, or put a word in place of one of that line's words
EDITS = st.lists(st.tuples(st.integers(0, 400), st.sampled_from(["insert", "word"]), st.integers(0, 40),
                           st.one_of(LINES, WORDS, st.text(max_size=30))), min_size=1, max_size=3)


def _edit(text: str, edits) -> str:
    lines = text.split("\n")
    for at, how, which, new in edits:
        at %= len(lines) + (how == "insert")
        if how == "insert":
            lines.insert(at, new)
        else:
            words = lines[at].split(" ")
            words[which % len(words)] = new
            lines[at] = " ".join(words)
    return "\n".join(lines)


def _secret():
    import os

    os.makedirs(os.path.dirname(SECRET_PATH), exist_ok=True)
    with open(SECRET_PATH, "w") as fh:
        fh.write(SECRET)


def _fuzz(pbd, tmp_path, game, edits, command):
    _secret()
    doc = started(game, tmp_path)
    text = _edit(doc.read_text(), edits)
    doc.write_bytes(text.encode("utf-8", "surrogatepass"))
    with opened() as seen:
        result = pbd(command[0], doc, *command[1:]) if command[0] != "status" else pbd("status", doc)
    assert result.exit_code in KNOWN, (game, command, edits, result.output[-500:])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    assert "TOPSECRET" not in result.output
    assert not outside(seen, allowed_roots(tmp_path / "pbd-home"), doc), (game, command, edits)
    if result.exit_code:
        assert doc.read_bytes() == text.encode("utf-8", "surrogatepass"), (game, command, edits)


@FAST
@given(game=st.sampled_from(sorted(GAMES)), edits=EDITS, command=st.sampled_from(COMMANDS))
def test_hostile_documents_of_every_game(pbd, tmp_path, game, edits, command):
    _fuzz(pbd, tmp_path, game, edits, command)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_on_a_hostile_options_line(pbd, tmp_path, game, command):
    _fuzz(pbd, tmp_path, game, [(2, "insert", 0, "Options: foo=bar catalogue=" + SECRET_PATH)], command)


@pytest.mark.long
@LONG
@given(game=st.sampled_from(sorted(GAMES)), edits=EDITS, command=st.sampled_from(COMMANDS))
def test_hostile_documents_of_every_game_long(pbd, tmp_path, game, edits, command):
    _fuzz(pbd, tmp_path, game, edits, command)
