"""Fuzzing (issue 10): hostile documents, notation, deck lists and catalogues through the CLI.

Whatever goes in: a documented exit code, no traceback, and on failure the document and
the player's private state byte-for-byte as they were.  The default budget is small; the
``long`` variants (``pytest -m long``) run many more examples.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Any documented exit code is right for random input (which one depends on what the input breaks);
#: 70, a bug, never is.
KNOWN = {0, 1, 2, 3, 4, 5}
FAST = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    from pbd import match

    folder = tmp_path_factory.mktemp("fuzz")
    old = os.environ.get("PBD_HOME")
    os.environ["PBD_HOME"] = str(folder / "home")
    try:
        doc = folder / "m.txt"
        match.new("cnc", str(doc), "Ann", "forces-of-justice", "fuzz-a")
        match.join(str(doc), "Ben", "forces-of-corruption", "fuzz-b")
        match.move(str(doc), "Ann", "draw; end turn")
    finally:
        if old is not None:
            os.environ["PBD_HOME"] = old
    return doc.read_text(), folder / "home"


def _snapshot(folder: Path) -> dict[str, str]:
    """Return every file of PBD_HOME but its cache (parsed catalogues and boards kept by their exact text, which
    a failed command may leave: they never change what a command does)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.relative_to(folder).parts[0] != "cache"}


def _run(pbd, doc: Path, home: Path, text: str, args: list) -> None:
    doc.write_bytes(text.encode("utf-8", "surrogatepass"))
    before = _snapshot(home)
    result = pbd(*args)
    assert result.exit_code in KNOWN, (args, result.output)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    if result.exit_code:
        assert doc.read_bytes() == text.encode("utf-8", "surrogatepass"), args
        assert _snapshot(home) == before, args
        assert len(result.output) < 5000


HOSTILE_LINES = st.sampled_from([
    "Pending: Ben reveals hand card 1 (Hack)", "Pending: Ben takes Thanos into hand (returned)",
    "Pending: Ben discards 9 cards from hand (Vulcanus Agents)", "Ben: hand 300000000 · deck 45",
    "CP = 99999999999999999999 AP= 3", "9. Zed: draw · #00000000", "Deck: /etc/passwd",
    "Catalogue: /proc/self/environ", "[Spider-Man HP=999999] [Nill HP=-5 frozen]", "Log", "Fair play",
    "Revealed", "Ann: seed " + "0" * 64, "pbd match ffffffff · C&C Trading Card Game", "Result: Ben wins",
    "This turn: played Thanos · attacked Nill", "Turn 99: Zed to move · Ann moved first",
])
DOC_EDITS = st.lists(st.tuples(st.integers(0, 200), st.one_of(HOSTILE_LINES, st.text(max_size=60))),
                     min_size=1, max_size=4)
COMMANDS = st.sampled_from([["show"], ["check"], ["log"], ["audit"], ["replay"], ["move", "--as", "Ben", "draw"],
                            ["hand", "--as", "Ben"], ["legal", "--as", "Ben"], ["undo", "--as", "Ann"],
                            ["roll", "--as", "Ben", "d6"]])


def _edit(text: str, edits) -> str:
    lines = text.split("\n")
    for at, line in edits:
        lines.insert(at % (len(lines) + 1), line)
    return "\n".join(lines)


def _documents(pbd, started, tmp_path, monkeypatch, edits, command):
    text, home = started
    own = tmp_path / "home"
    shutil.rmtree(own, ignore_errors=True)
    shutil.copytree(home, own)
    (own / "my-matches").unlink(missing_ok=True)     # it names the started file: this copy is the match here
    monkeypatch.setenv("PBD_HOME", str(own))
    doc = tmp_path / "m.txt"
    _run(pbd, doc, own, _edit(text, edits), [command[0], doc, *command[1:]])


@FAST
@given(edits=DOC_EDITS, command=COMMANDS)
def test_hostile_documents(pbd, started, tmp_path, monkeypatch, edits, command):
    _documents(pbd, started, tmp_path, monkeypatch, edits, command)


@pytest.mark.long
@LONG
@given(edits=DOC_EDITS, command=COMMANDS)
def test_hostile_documents_long(pbd, started, tmp_path, monkeypatch, edits, command):
    _documents(pbd, started, tmp_path, monkeypatch, edits, command)


NOTATION = st.one_of(st.text(max_size=80), st.lists(st.sampled_from([
    "draw", "end turn", "play Spider-Man", "Nill attacks city", "adjust Ben CP -10: x", "discard Nill from hand",
    "use", "withdraw", "9" * 5000, "play " + "A" * 300, ";", "attacks", "adjust Ann HP +99999999999: y",
]), max_size=4).map("; ".join))


def _notation(pbd, started, tmp_path, monkeypatch, notation):
    text, home = started
    own = tmp_path / "home"
    shutil.rmtree(own, ignore_errors=True)
    shutil.copytree(home, own)
    (own / "my-matches").unlink(missing_ok=True)     # it names the started file: this copy is the match here
    monkeypatch.setenv("PBD_HOME", str(own))
    doc = tmp_path / "m.txt"
    _run(pbd, doc, own, text, ["move", doc, "--as", "Ben", notation])


@FAST
@given(notation=NOTATION)
def test_notation(pbd, started, tmp_path, monkeypatch, notation):
    _notation(pbd, started, tmp_path, monkeypatch, notation)


@pytest.mark.long
@LONG
@given(notation=NOTATION)
def test_notation_long(pbd, started, tmp_path, monkeypatch, notation):
    _notation(pbd, started, tmp_path, monkeypatch, notation)


DECK_LINES = st.lists(st.one_of(st.sampled_from([
    "Porter: The Porter", "1. Spider-Man", "3x Nill", "50. Captain America", "battle 1-50", "army 101-110",
    "warrior 206-210", "battle 1-30000000", "catalogue: cards.toml", "Catalogue: cards.toml", "# note",
    "1" * 5000 + ". Nill", "army " + "9" * 40, "Catalogue: /etc/passwd",
]), st.text(max_size=40)), max_size=8).map("\n".join)
CATALOGUES = st.one_of(st.sampled_from([
    "a = " + "[" * 3000 + "]" * 3000, "[[card]]\nname = 'X'\nkind = 'character'\nhp = inf\n",
    "[[card]]\nname = 'X'\nkind = 'character'\nhp = 1e400\nclass = 'Hero'\nrarity = 'rare'\n",
    "[[warrior]]\nname = 'W'\nside = 'light'\npower = nan\n", "card = 5", "[[battle]]\nid = -1\n",
]), st.text(max_size=80))


def _decks(pbd, tmp_path, deck, catalogue, game):
    (tmp_path / "cards.toml").write_text(catalogue)
    path = tmp_path / "deck.txt"
    path.write_text(deck)
    result = pbd("deck", "check", path, "--game", game)
    assert result.exit_code in KNOWN, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    assert len(result.output) < 5000


@FAST
@given(deck=DECK_LINES, catalogue=CATALOGUES, game=st.sampled_from(["cnc", "ttc"]))
def test_deck_lists_and_catalogues(pbd, tmp_path, deck, catalogue, game):
    _decks(pbd, tmp_path, deck, catalogue, game)


@pytest.mark.long
@LONG
@given(deck=DECK_LINES, catalogue=CATALOGUES, game=st.sampled_from(["cnc", "ttc"]))
def test_deck_lists_and_catalogues_long(pbd, tmp_path, deck, catalogue, game):
    _decks(pbd, tmp_path, deck, catalogue, game)
