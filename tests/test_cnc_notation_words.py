"""The notation's fast path (issue 16) reads play, withdraw, discard, an attack and a use word by word: it must
read every text exactly as the forms' regular expressions do (the patterns stay the definition)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from pbd.errors import NotationError
from pbd.games.cnc import notation

#: words a move's text may hold: the forms' own words in several cases, and card-like words
WORDS = ["attack", "attacks", "ATTACKS", "Attack", "uses", "USES", "with", "With", "then", "THEN", "on", "at",
         "against", "On", "AT", "Spider-Man", "Nill", "Web", "Shot", "city", "#2", "the", "hand", "x", "Then",
         "targeting", "to", "To", "my", "MY", "from", "From", "field", "play", "Play", "HAND", "The"]
#: the first words of the forms read by words (and of some that are not), in several cases
FIRST = ["play", "Play", "cast", "PUT", "withdraw", "Return", "discard", "DISCARD", "draw", "end", "accept"]
#: what may end a text: nothing, or marks the clean-up strips (after a space, they leave one at the end)
ENDS = ["", ".", " .", "!", " !", " . ."]


def _by_pattern(clean: str):
    """Return the move the forms' patterns, each tried in order, read in ``clean`` (None: no form matches)."""
    for kind, pattern in notation._PATTERNS:
        m = re.match(pattern, clean, re.I)
        if m:
            return notation._build(kind, m, clean)
    return None


def _both_ways(text: str) -> None:
    """Assert that ``text`` (as a player writes it) reads as the patterns read it (the fast path reads most texts)."""
    clean = " ".join(text.replace("’", "'").split()).rstrip(".!")
    try:
        expected = _by_pattern(clean)
    except NotationError:
        expected = None
    notation.forget()
    if expected is None:
        with pytest.raises(NotationError):
            notation.parse_moves(text)
    else:
        assert notation.parse_moves(text) == (expected,)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9), st.sampled_from(ENDS))
def test_an_attack_or_a_use_read_word_by_word_is_what_the_pattern_reads(words, end):
    _both_ways(" ".join(words) + end)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(FIRST), st.lists(st.sampled_from(WORDS), max_size=8), st.sampled_from(ENDS))
def test_a_play_a_withdrawal_or_a_discard_read_word_by_word_is_what_the_pattern_reads(first, words, end):
    _both_ways(" ".join([first, *words]) + end)


@pytest.mark.parametrize("text", [
    "play X on", "play on Nill", "play X on Nill on Ben", "put X targeting Y at Z", "withdraw to hand",
    "withdraw X to hand", "return X To My Hand", "withdraw X to my to hand", "discard from hand", "discard X from",
    "discard X From The Play", "discard X from my from hand", "A attacks B .", "A attacks B then .", "A attacks .",
    "A attacks with B", "A uses B on then C", "A uses B then C on D", "A attack attacks B with C then D",
    "Man with Hat attacks X", "A uses B with C", "play", "withdraw", "discard", "A attacks", "  A  attacks\tB  ",
    "play\tX", "A attacks Nill’s Friend", "Ñill attacks Bob", "play Ñill on Bob", "A ATTACKS B WITH C THEN D!"])
def test_the_edges_of_each_form_read_word_by_word_are_what_the_pattern_reads(text):
    _both_ways(text)


def test_the_fast_path_reads_a_full_attack_and_a_full_use():
    notation.forget()
    assert notation.parse_move("Iron Man attacks Nill with Unibeam then Batman") == notation.Move(
        "attack", "Iron Man", "Nill", "Unibeam", "Batman", 0, "", "Iron Man attacks Nill with Unibeam then Batman")
    assert notation.parse_move("Mirror Master uses Mirror Trap on Batman") == notation.Move(
        "use", "Mirror Master", "Batman", "Mirror Trap", "", 0, "", "Mirror Master uses Mirror Trap on Batman")


@pytest.mark.parametrize("text", [
    "draw", "Draw", "DRAW.", "  draw !", "draw a card", "Draw 1", "draw one", "draw 2", "draw a", "draws", "end",
    "End Turn", "end my turn!", "end of turn", "END OF MY TURN", "end  turn", "pass", "Done", "done turn", "passe",
    "paſs", "end turn now", "drawing"])
def test_a_draw_or_an_end_read_whole_is_what_the_pattern_reads(text):
    _both_ways(text)


def test_reading_a_draw_or_an_end_compiles_no_pattern():
    # issue 16: `pbd move draw` reads one move; compiling the draw form's pattern cost the command ~1M instructions
    import subprocess
    import sys

    probe = ("from pbd.games.cnc import notation\n"
             "moves = [notation.parse_move(t) for t in ('draw', 'End turn', 'pass')]\n"
             "assert [m.kind for m in moves] == ['draw', 'end', 'end'] and moves[0].amount == 1\n"
             "print(len(notation._COMPILED))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"                # no form was even looked up
