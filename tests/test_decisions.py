"""Pending decisions (pbd.table.decisions): written on the board, obeyed only when the log explains them."""

from __future__ import annotations

import pytest

from pbd.errors import DocumentFormatError
from pbd.games.base import LogEntry
from pbd.table.decisions import Decision, for_seat, parse_line, parse_lines, problems, seats_to_answer

LOG = [LogEntry(1, "Ann", "new match"), LogEntry(2, "Ben", "joined"), LogEntry(3, "Ann", "Ann duels Ben with Sword")]


def explains(entry, decision):
    return "Sword" in entry.text and "Shield" in decision.prompt


def test_a_decision_reads_back_from_its_line():
    d = Decision("Ben", "play Shield or pass (duel with Ann)", ["play Shield", "pass"], 3)
    again = parse_line(d.line())
    assert (again.seat, again.prompt, again.origin) == ("Ben", d.prompt, 3)


def test_a_malformed_line_names_the_expected_shape():
    with pytest.raises(DocumentFormatError, match="line 7: expected 'Waiting on: NAME"):
        parse_line("Waiting on: Ben", 7)


def test_too_many_open_decisions_are_refused():
    lines = [(i, "Waiting on: Ben — pass · from 3") for i in range(100)]
    with pytest.raises(DocumentFormatError, match="at most"):
        parse_lines(lines)


def test_at_most_64_open_decisions_are_read():
    lines = [(i, "Waiting on: Ben — pass · from 3") for i in range(65)]
    assert len(parse_lines(lines[:64])) == 64
    with pytest.raises(DocumentFormatError, match="65 open decisions; a match has at most 64"):
        parse_lines(lines)


def test_who_must_answer_in_order_each_once():
    ds = [Decision("Ben", "a", origin=3), Decision("Cy", "b", origin=3), Decision("Ben", "c", origin=3)]
    assert seats_to_answer(ds) == ["Ben", "Cy"]
    assert [d.prompt for d in for_seat(ds, "ben")] == ["a", "c"]


def test_a_decision_the_log_explains_passes():
    assert problems([Decision("Ben", "play Shield or pass", origin=3)], LOG, ["Ann", "Ben"], explains) == []


@pytest.mark.parametrize("decision, says", [
    (Decision("Zed", "play Shield or pass", origin=3), "names no seat"),
    (Decision("Ben", "play Shield or pass", origin=9), "does not exist"),
    (Decision("Ben", "play Shield or pass", origin=0), "does not exist"),          # entries count from 1
    (Decision("Ben", "play Shield or pass"), "does not exist"),                    # no origin given: none
    (Decision("Ann", "play Shield or pass", origin=3), "own move"),
    (Decision("Ben", "reveal your hand", origin=3), "typed by hand"),
    (Decision("Ben", "play Shield or pass", origin=1), "typed by hand"),
])
def test_a_decision_typed_by_hand_is_named(decision, says):
    found = problems([decision], LOG, ["Ann", "Ben"], explains)
    assert len(found) == 1 and says in found[0]


def test_a_decision_lists_its_answers_on_its_line_only_when_asked_to():
    quiet = Decision("Ben", "play Shield or pass", ["play Shield", "pass"], 3)
    assert quiet.answers == ["play Shield", "pass"]
    assert quiet.line() == "Waiting on: Ben — play Shield or pass · from 3"
    listed = Decision("Ben", "play Shield or pass", ["play Shield", "pass"], 3, listed=True)
    assert listed.line() == "Waiting on: Ben — play Shield or pass · from 3 · answers: play Shield | pass"
    again = parse_line(listed.line())
    assert (again.answers, again.listed) == (["play Shield", "pass"], True)
    assert Decision("Ben", "say anything", [], 3, listed=True).line() == "Waiting on: Ben — say anything · from 3"
    assert Decision("Ben", "say anything").answers == []


def test_at_most_64_answers_are_read_from_a_line():
    line = "Waiting on: Ben — pick one · from 3 · answers: " + " | ".join(f"a{i}" for i in range(64))
    assert len(parse_line(line).answers) == 64
    with pytest.raises(DocumentFormatError, match="line 7: a decision lists 65 answers; at most 64"):
        parse_line(line + " | a64", 7)
