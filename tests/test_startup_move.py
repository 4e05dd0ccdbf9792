"""Start-up work a command leaves out, checked to give the same answers (figures are in benchmarks/)."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbd import match
from pbd.errors import DocumentFormatError
from pbd.regex import LazyPattern

#: the regular expression bound() looked for before its fast path, written out again
BIG_NUMBER = re.compile(r"(?<![0-9A-Za-z])(?!(?:\d{16}|\d{64})(?![0-9A-Za-z]))\d{10,}(?![0-9A-Za-z])")

_digits = st.text("0123456789", min_size=0, max_size=70)
_other_digits = st.text("0123456789\u0663\u096a", min_size=1, max_size=20)     # Arabic-Indic 3, Devanagari 4
_between = st.text("aZf \n#·-_é\u0663", min_size=0, max_size=3)
_texts = st.lists(st.one_of(_digits, _other_digits, st.sampled_from(["0" * 16, "1" * 64, "9" * 10, "12" * 32])),
                  max_size=8).flatmap(
    lambda runs: st.lists(_between, min_size=len(runs) + 1, max_size=len(runs) + 1).map(
        lambda seps: seps[0] + "".join(r + s for r, s in zip(runs, seps[1:]))))


def _found(text: str):
    m = match._big_number(text)
    return (m.span(), m.group()) if m else None


@settings(max_examples=400, deadline=None)
@given(_texts)
@example("x" + "1" * 16 + " " + "2" * 64 + "#" + "3" * 11)
@example("a" + "1" * 20 + " " + "1" * 20 + "b" + " " + "1" * 15 + "\u0663" + "a")
@example("1" * 10 + "\u0663" + "1" * 10 + "a")
@example("· \u0663" * 1 + "\u0663" * 10 + " ·")
@example("1234567890")
@example("é1234567890é")
def test_the_big_number_check_finds_what_its_regular_expression_finds(text):
    want = BIG_NUMBER.search(text)
    assert _found(text) == ((want.span(), want.group()) if want else None)


def test_a_board_of_hex_values_is_checked_without_compiling_the_big_number_pattern(monkeypatch):
    """Compiling the full pattern costs a command about 1M instructions; a board pbd wrote never needs it."""
    fresh = LazyPattern(match._BIG_NUMBER._source[0])
    monkeypatch.setattr(match, "_BIG_NUMBER", fresh)
    text = ("pbd match 2415753c · C&C Trading Card Game\n"
            "1. Ann: new match · commits 46fa6c5ba5439599495 · seal 0c3747e69749633d · mac 8589328297180123\n"
            "2. Ben: joined · commits 1234567890123abcde · seal 0c3747e69749633d · mac 0c37477e69749633\n"
            "Ann: chain 0 " + "3210588015113388" * 4 + "\n")
    assert match.bound(text) == text
    assert "search" not in vars(fresh)
    with pytest.raises(DocumentFormatError, match="the number 12345678901 is too large"):
        match.bound(text + "CP = 12345678901\n")
    assert "search" in vars(fresh)


def _title_by_expression(text: str) -> str:
    from pbd.games.base import _title_line, typed

    found = _title_line(typed(text).split("\n"))
    return (found[1].group("title") or "").strip() if found else ""


_title_parts = st.lists(st.sampled_from(["pbd match ", "PBD Match ", "pbd match", " ", "  ", "\t", "·", " · ", "|",
                                         "-", "2415753c", "abcd", "abc", "ABCD", "0123456789abcdef" * 2, "0" * 33, "g",
                                         "C&C Trading Card Game", "’", "\u2013", "\n", "\r", "\u00a0", "x"]),
                        max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.lists(_title_parts, max_size=4).map("\n".join))
@example("pbd match 2415753c · C&C Trading Card Game\nCP = 1")
@example("notes: a pbd match  \npbd match abcd · Twin Tower City ")
@example("pbd match 0123456789abcdef0123456789abcdef0 · T")
@example("pbd match abcd ·  · T\r")
@example("PBD match abcd · First\npbd match abcd · Second")
def test_the_title_is_read_as_its_regular_expression_reads_it(text):
    from pbd.games.base import title_of

    assert title_of(text) == _title_by_expression(text)


def test_a_title_pbd_wrote_is_read_without_compiling_the_title_pattern(monkeypatch):
    """Compiling the title pattern costs each command about 1M instructions; the title pbd writes never needs it."""
    from pbd.games import base

    fresh = LazyPattern(*base.TITLE_RE._source)
    monkeypatch.setattr(base, "TITLE_RE", fresh)
    text = "pbd match 2415753c · C&C Trading Card Game\nPlayers: Ann vs Ben\n"
    assert base.title_of(text) == "C&C Trading Card Game"
    assert "match" not in vars(fresh)
    assert base.title_of("PBD match 2415753c · Twin Tower City\n") == "Twin Tower City"
    assert "match" in vars(fresh)


def test_a_move_reads_the_players_private_state_once(pbd, match, monkeypatch):
    """On a long match the file holds every entry the seat wrote: parsing it twice cost a move as much as its draw."""
    from pbd import private

    real, reads = private.load, []
    monkeypatch.setattr(private, "load", lambda *a: reads.append(a) or real(*a))
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    assert len(reads) == 1
    reads.clear()
    pbd("hand", match, "--as", "Ann", ok=True)
    assert len(reads) == 1


def test_saving_the_private_state_it_loaded_does_not_parse_the_file_again(pbd, match, monkeypatch):
    from pbd import private

    monkeypatch.setattr(private, "_hand_doc", lambda path: pytest.fail("parsed again"))
    pbd("move", match, "--as", "Ann", "draw", ok=True)


def test_a_private_state_file_changed_since_it_was_loaded_is_read_again_when_saved(pbd, match, monkeypatch):
    """The file became a pointer to a hand document after it was loaded: the save goes to that document."""
    from pbd import handdoc, private

    match_id = match.read_text().split()[2]        # pbd match <id> · ...
    sec = private.load(match_id, "Ann")
    saved = []
    monkeypatch.setattr(handdoc, "save", lambda pointer, data: saved.append((pointer, data["player"])))
    private.link_hand_doc(match_id, "Ann", "gdoc:abc")
    private.save(sec)
    assert saved == [("gdoc:abc", "Ann")]


def test_commit_saves_the_state_as_staged_without_encoding_it_again(pbd, match):
    """The pending file keeps its format; the committed file is the staged state's text, not a second encoding."""
    from pbd import jsonfile, private

    match_id = match.read_text().split()[2]        # pbd match <id> · ...
    sec = private.load(match_id, "Ann")
    sec.extra["note"] = "·" * 3
    private.stage(sec, (7, "ab" * 32))
    pending = private._pending_file(match_id, "Ann")
    with open(pending, encoding="utf-8") as fh:
        assert fh.read() == jsonfile.dumps({"entry": [7, "ab" * 32], "state": private.as_dict(sec)})
    encoded = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonfile, "dumps", lambda data: encoded.append(data) or pytest.fail("encoded again"))
        private.commit(sec)
    with open(private._file(match_id, "Ann"), encoding="utf-8") as fh:
        assert fh.read() == jsonfile.dumps(private.as_dict(sec))
    assert not os.path.exists(pending) and encoded == []
    other = private.load(match_id, "Ann")          # not the object staged: encoded as before
    other.extra["note"] = "again"
    private.commit(other)
    assert private.load(match_id, "Ann").extra["note"] == "again"
