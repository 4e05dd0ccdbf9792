"""The notation's fast path (issue 16) reads an attack or a use word by word: it must read every text
exactly as the form's regular expression does (the pattern stays the definition)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pbd.games.cnc import notation

#: words a move's text may hold: the forms' own words in several cases, and card-like words
WORDS = ["attack", "attacks", "ATTACKS", "Attack", "uses", "USES", "with", "With", "then", "THEN", "on", "at",
         "against", "On", "AT", "Spider-Man", "Nill", "Web", "Shot", "city", "#2", "the", "hand", "x", "Then"]


def _by_pattern(clean: str):
    """Return the move the forms' patterns read in ``clean`` (None: no form matches)."""
    for kind, pattern in notation._forms(clean):
        m = pattern.match(clean)
        if m:
            return notation._build(kind, m, clean)
    return None


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9))
def test_an_attack_or_a_use_read_word_by_word_is_what_the_pattern_reads(words):
    clean = " ".join(words)
    forms = notation._forms(clean)
    if len(forms) != 1 or forms[0][0] not in notation._READ_BY_WORDS:
        return
    parts = notation._by_words(forms[0][0], clean)
    expected = _by_pattern(clean)
    if expected is None:
        assert parts is None
    else:
        assert notation.Move(forms[0][0], *parts, 0, "", clean) == expected


def test_the_fast_path_reads_a_full_attack_and_a_full_use():
    notation.forget()
    assert notation.parse_move("Iron Man attacks Nill with Unibeam then Batman") == notation.Move(
        "attack", "Iron Man", "Nill", "Unibeam", "Batman", 0, "", "Iron Man attacks Nill with Unibeam then Batman")
    assert notation.parse_move("Mirror Master uses Mirror Trap on Batman") == notation.Move(
        "use", "Mirror Master", "Batman", "Mirror Trap", "", 0, "", "Mirror Master uses Mirror Trap on Batman")
