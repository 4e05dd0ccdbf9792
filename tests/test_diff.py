"""The minimal-edit diff used by the Google Docs backend."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from pbd.documents.diff import Edit, apply, edits

ALPHABET = st.sampled_from(list("ab \n1·é😀\U0001F9D9"))


def test_equal_texts_need_no_edit():
    assert edits("same\ntext\n", "same\ntext\n") == []


def test_one_number_changes_one_character():
    old = "Ann CP 7\nBen CP 9\n"
    new = "Ann CP 5\nBen CP 9\n"
    assert edits(old, new) == [Edit(7, 8, "5")]


def test_appended_line_is_one_insert():
    old = "Log\n1. Ann: new match\n"
    new = old + "2. Ben: joined\n"
    assert edits(old, new) == [Edit(len(old), len(old), "2. Ben: joined\n")]


def test_untouched_lines_are_outside_every_edit():
    old = "".join(f"{i}. Ann: draw\n" for i in range(1, 1001))
    new = old.replace("500. Ann: draw\n", "500. Ann: draw; end turn\n")
    changes = edits(old, new)
    assert sum(e.end - e.start + len(e.text) for e in changes) < 20
    assert apply(old, changes) == new


def test_from_or_to_empty():
    assert edits("", "x\n") == [Edit(0, 0, "x\n")]
    assert edits("x\n", "") == [Edit(0, 2, "")]


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=60), st.text(ALPHABET, max_size=60))
def test_applying_the_edits_gives_the_new_text(old, new):
    changes = edits(old, new)
    assert apply(old, changes) == new
    for a, b in pairwise(changes):
        assert a.end < b.start  # ascending, non-overlapping, not touching
    for e in changes:
        assert 0 <= e.start <= e.end <= len(old)
        assert e.start < e.end or e.text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(ALPHABET.filter(lambda c: c != "\n"), max_size=12), min_size=1, max_size=30),
       st.data())
def test_a_changed_line_leaves_other_lines_alone(lines, data):
    old = "\n".join(lines) + "\n"
    k = data.draw(st.integers(0, len(lines) - 1))
    replacement = data.draw(st.text(ALPHABET.filter(lambda c: c != "\n"), max_size=12))
    new_lines = list(lines)
    new_lines[k] = replacement
    new = "\n".join(new_lines) + "\n"
    changes = edits(old, new)
    assert apply(old, changes) == new
    changed = sum(e.end - e.start for e in changes)
    assert changed <= len(lines[k]) + 1 or len(set(lines)) < len(lines)
