"""``pbd check`` on C&C boards edited by hand, through the CLI on real files."""

from __future__ import annotations

import json

import pytest

#: the rulebook's own example board ("Playing Through Google"), verbatim
RULEBOOK_BOARD = """\
Discarded cards
Defeated Character, Destroyed City Card
CP = 100 AP= 3
City Cards
[The Porter] [City Card] [City Card ]
Character Cards
[Character HP=] [Character HP=] [Character HP=] ++
----
[Character HP=] [Character HP=] [Character HP=]
Character Cards
[The Porter] [City Card] [City Card ]
City Cards
CP = 100 AP= 3
Discarded cards
Discarded Card, used Event Card
Player 2
"""

#: a board as two people might type it: named cards, loose spacing and case
BOARD = """\
Discarded cards
Nill, Vanished Cops
cp = 80  ap = 2
City Cards
[The Porter] [Import Clinic]
Character Cards
[Spider-Man HP=15] [Storm HP=12 frozen] ++
----
[Danger HP=40] [Nill HP=]
Character Cards
[The Porter] [City Hall]
City Cards
CP = 120 AP= 0
Discarded cards
(none)
"""


def _board(tmp_path, text: str):
    doc = tmp_path / "board.txt"
    doc.write_text(text, encoding="utf-8")
    return doc


def _check(pbd, doc):
    result = pbd("check", doc)
    data = json.loads(pbd("check", doc, "--json").stdout)
    return result, data["problems"]


def test_the_rulebook_example_board_checks_clean(tmp_path, pbd):
    doc = _board(tmp_path, RULEBOOK_BOARD)
    result = pbd("check", doc)
    assert result.exit_code == 0, result.output
    assert "consistent with the rules" in result.output
    assert json.loads(pbd("check", doc, "--json").stdout) == {"problems": []}


def test_the_rulebook_example_board_parses(tmp_path, pbd):
    data = pbd.json("show", _board(tmp_path, RULEBOOK_BOARD))
    assert [(p["cp"], p["ap"], p["cities"], p["characters"]) for p in data["players"]] == \
           [(100, 3, ["The Porter"], []), (100, 3, ["The Porter"], [])]


def test_a_typed_board_checks_clean(tmp_path, pbd):
    doc = _board(tmp_path, BOARD)
    result = pbd("check", doc)
    assert result.exit_code == 0, result.output
    data = pbd.json("show", doc)
    ann, ben = data["players"]
    assert (ann["cp"], ann["ap"], ann["discards"]) == (80, 2, ["Nill", "Vanished Cops"])
    storm = ann["characters"][1]
    assert (storm["hp"], storm["statuses"], storm["combo"]) == (12, ["frozen"], 2)
    assert ben["characters"][1]["hp"] == 10           # a blank HP means full HP


@pytest.mark.parametrize("old, new, problem", [
    ("[Spider-Man HP=15] [Storm HP=12 frozen] ++",
     "[Spider-Man HP=15] [Storm HP=12 frozen] [Nill HP=10] [Hawkeye HP=10]",
     "Player 1 has 4 characters in play; the limit is 3 without MAC"),
    ("cp = 80  ap = 2", "cp = 80  ap = -1", "Player 1 has -1 AP; AP cannot be negative"),
    ("[The Porter] [City Hall]", "[The Porter] [City Hall] [City Hall]",
     "Player 2 has 2 copies of City Hall in play; only one of each City card at a time"),
    ("[Danger HP=40]", "[Danger HP=45]", "Player 2's Danger has HP 45, above the card's maximum of 40"),
    ("[Danger HP=40]", "[Danger HP=0]", "Player 2's Danger has HP 0; a character at 0 HP goes to the discard pile"),
    ("[The Porter] [City Hall]", "[City Hall]", "Player 2 has 0 Porters in play; there is exactly one"),
    ("[Spider-Man HP=15]", "[Spider-Man HP=15] ++", "Physical attacks never combo"),
    ("[Storm HP=12 frozen] ++", "[Storm HP=12 frozen]", None),
    ("CP = 120 AP= 0", "CP = 0 AP= 0",
     "Player 2 has lost by Destruction (Player 2's CP 0), but no result is recorded"),
    ("[The Porter] [City Hall]", "[The Porter] [Nill]",
     "Nill is a character card, not a City card, but is in Player 2's City Cards"),
    ("[Storm HP=12 frozen] ++", "[Storm HP=12 frozen] +++", "Player 1's Storm shows a level-3 combo"),
    ("CP = 120 AP= 0", "CP = 210 AP= 0", "Player 2 has won by Construction (CP 210), but no result is recorded"),
])
def test_check_lists_what_a_hand_edited_board_breaks(tmp_path, pbd, old, new, problem):
    assert old in BOARD
    doc = _board(tmp_path, BOARD.replace(old, new, 1))
    before = doc.read_bytes()
    result, problems = _check(pbd, doc)
    if problem is None:
        assert result.exit_code == 0 and problems == []
        return
    assert result.exit_code == 1, result.output
    assert any(problem in p for p in problems), problems
    assert problem in result.output
    assert doc.read_bytes() == before


def test_four_characters_with_mac_are_fine(tmp_path, pbd):
    text = BOARD.replace("[The Porter] [Import Clinic]", "[The Porter] [MAC]").replace(
        "[Storm HP=12 frozen] ++", "[Storm HP=12 frozen] [Nill HP=10] [Hawkeye HP=10]")
    result = pbd("check", _board(tmp_path, text))
    assert result.exit_code == 0, result.output


def test_an_unknown_card_is_a_problem_with_did_you_mean(tmp_path, pbd):
    doc = _board(tmp_path, BOARD.replace("[Danger HP=40]", "[Dangr HP=40]"))
    result, problems = _check(pbd, doc)
    assert result.exit_code == 1
    assert len(problems) == 1 and problems[0].startswith("line 9: unknown card 'Dangr' (did you mean 'Danger'")


def test_every_problem_is_listed_at_once(tmp_path, pbd):
    text = BOARD.replace("cp = 80  ap = 2", "cp = 80  ap = -1").replace("[Danger HP=40]", "[Danger HP=45]")
    result, problems = _check(pbd, _board(tmp_path, text))
    assert result.exit_code == 1 and len(problems) == 2
    assert "2 problem(s) found" in result.output


@pytest.mark.parametrize("old, new, line, expected", [
    ("cp = 80  ap = 2", "cp = eighty", 3, "cannot read 'cp = eighty'"),
    ("CP = 120 AP= 0", "CP = 120", 13, "cannot read 'CP = 120'"),
    ("[Danger HP=40]", "[Danger HP=40 sleepy]", 9, "unknown status 'sleepy' on Danger"),
    ("[Danger HP=40]", "[Spider-Man HP=15]", 9, None),
    ("[The Porter] [Import Clinic]", "[The Porter] [Import Clinic", 5, "cards in play are written in brackets"),
    ("[Spider-Man HP=15]", "Spider-Man 15", 7, "cards in play are written in brackets"),
])
def test_a_mangled_board_exits_3_with_the_line(tmp_path, pbd, old, new, line, expected):
    doc = _board(tmp_path, BOARD.replace(old, new, 1))
    result = pbd("check", doc)
    if expected is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 3, result.output
    assert f"line {line}:" in result.output and expected in result.output


def test_a_board_without_its_separator(tmp_path, pbd):
    doc = _board(tmp_path, BOARD.replace("----\n", ""))
    result = pbd("check", doc)
    assert result.exit_code == 3 and "no '----' line between the two halves" in result.output
    result = pbd("check", doc, "--game", "cnc")
    assert result.exit_code == 3 and "no '----' line between the two halves" in result.output


def test_a_pbd_match_edited_by_hand(tmp_path, pbd):
    doc = tmp_path / "match.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "check-ann", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "check-ben", ok=True)
    assert pbd("check", doc).exit_code == 0
    text = doc.read_text(encoding="utf-8")
    doc.write_text(text.replace("Ann: hand 5 · deck 45", "Ann: hand 11 · deck 45"), encoding="utf-8")
    result, problems = _check(pbd, doc)
    assert result.exit_code == 1
    assert "Ann holds 11 cards; the hand limit is 10" in problems
    assert any(p.startswith("Ann's cards add up to 57") for p in problems)
