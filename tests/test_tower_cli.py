"""The Tower through the CLI: one test per rule sentence and per documented reading.

Dice are never faked: a test reads the faces the player's pbd will roll next (from the
seed and the document, as pbd does) and sets the board up around them, or picks the seeds
whose dice the rule needs.  Cards are never faked either: a hand gets real cards of the
shared deck (``give``), and tiles get cards by a hand edit of the board (``put``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from unittest import mock

import pytest

from tower_helpers import (give, hand_of, put, roll_waited, show, start, start_rolling, tile_of, upcoming,
                           write_tile)

from pbd.games.tower import GAME
from pbd.games.tower.state import DeckSpec


def move(pbd, doc, who, text, code=0):
    result = pbd("move", doc, "--as", who, text)
    assert result.exit_code == code, result.output
    return result


def refused(pbd, doc, who, text, words, code=1):
    before = doc.read_bytes()
    result = move(pbd, doc, who, text, code)
    assert words in result.output, result.output
    assert doc.read_bytes() == before
    return result


def log_of(doc) -> str:
    return doc.read_text().split("\nLog")[-1]


# -- the table's contract -----------------------------------------------------------------------

def test_three_players_seat_in_order_and_show_the_contract(pbd, tmp_path):
    doc = start(pbd, tmp_path, 3)
    data = show(pbd, doc)
    assert data["game"] == "tower" and data["result"] is None
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben", "Cy"]
    assert [p["tile"] for p in data["players"]] == [1, 1, 1]
    assert [p["hand"] for p in data["players"]] == [1, 1, 1]          # one card each at the start
    assert "Ann" in data["to_move"]
    assert "roll" in pbd.json("legal", doc, "--as", "Ann")["moves"]
    assert pbd.json("legal", doc, "--as", "Cy") == {"moves": []}
    assert pbd("join", doc, "--as", "Dee").exit_code == 1


def test_a_seat_holds_no_card_before_the_deck_is_dealt(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--seed", "ann", "--players", 2, ok=True)
    assert "  A Ann · hand 0\n" in doc.read_text()          # the deal comes once every seat sits


def test_players_out_of_range_are_refused(pbd, tmp_path):
    result = pbd("new", "tower", tmp_path / "m.txt", "--as", "Ann", "--players", "7")
    assert result.exit_code == 2 and "2 to 6" in result.output


def test_an_unknown_option_is_refused_with_the_options(pbd, tmp_path):
    result = pbd("new", "tower", tmp_path / "m.txt", "--as", "Ann", "-O", "colour=red")
    assert result.exit_code == 2 and "no option 'colour'" in result.output and "exact-finish" in result.output
    result = pbd("new", "tower", tmp_path / "m.txt", "--as", "Ann", "-O", "exact-finish=maybe")
    assert result.exit_code == 2 and "'bounce' (the default) or 'stay'" in result.output
    assert not (tmp_path / "m.txt").exists()


def test_the_template_is_the_default_board(pbd, tmp_path):
    out = tmp_path / "blank.txt"
    pbd("template", "tower", "-o", out, ok=True)
    text = out.read_text()
    assert "Floor 6 ← | 48 Treasure | 47" in text and "Floor 1 → | 1 Start     | 2  |" in text
    assert text == GAME.template()
    assert (Path(__file__).parent.parent / "templates" / "tower.txt").read_text(encoding="utf-8") == text
    assert pbd("show", out, "--game", "tower").exit_code == 0


def test_a_board_typed_without_a_match_keeps_the_hands_it_shows(pbd, tmp_path):
    # rules.hand_size: with no shared deck to count, a typed board's hands are what it shows (not 0): show
    # prints them, check finds them consistent and still holds them to the hand limit
    board = tmp_path / "typed.txt"
    typed = GAME.template().replace("Seats:  (0 of 2)", "Seats: Ann, Ben (2 of 2)\nTurn: Ann").replace(
        "Players\n", "Players\n  A Ann · hand 3\n  B Ben · hand 5\n").replace("1 Start    ", "1 Start (A B)")
    board.write_text(typed, encoding="utf-8")
    shown = pbd("show", board, "--game", "tower", ok=True).output
    assert "A Ann · hand 3" in shown and "B Ben · hand 5" in shown, shown
    assert pbd("check", board, "--game", "tower", ok=True).output.strip().endswith("consistent with the rules.")
    # a player who has no line yet holds nothing; one typed over the limit is named
    board.write_text(typed.replace("  B Ben · hand 5\n", "").replace("hand 3", "hand 7"), encoding="utf-8")
    result = pbd("check", board, "--game", "tower")
    assert result.exit_code == 1 and "Ann holds 7 cards; the limit is 5" in result.output, result.output
    assert "Ben" not in result.output.split("problem(s) found")[1], result.output
    assert board.read_text(encoding="utf-8") == typed.replace("  B Ben · hand 5\n", "").replace("hand 3", "hand 7")


def test_the_document_draws_the_tower_top_floor_first(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    floors = [line.split(" | ")[0] for line in text.splitlines() if line.startswith("Floor ")]
    assert floors == ["Floor 6 ←", "Floor 5 →", "Floor 4 ←", "Floor 3 →", "Floor 2 ←", "Floor 1 →"]
    assert "1 Start (A B)" in text and "A Ann · hand 1" in text and "B Ben · hand 1" in text


# -- the turn and the shared deck ------------------------------------------------------------------------

def test_the_draw_comes_at_the_end_of_the_turn_and_no_one_else_reads_it(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    first = hand_of(pbd, doc, "Ann")
    assert len(first) == 1                          # dealt at the start, unlocked by Ben as he joined
    move(pbd, doc, "Ann", "roll")
    assert "Ann draws a card for the next turn (hand 2)" in log_of(doc)
    hand = pbd.json("hand", doc, "--as", "Ann")
    assert hand["hand"] == first and "still locked: waiting on Ben" in hand["note"]
    move(pbd, doc, "Ben", "roll")                   # Ben's command unlocks it for Ann
    now = hand_of(pbd, doc, "Ann")
    assert len(now) == 2
    drawn = list(now)
    drawn.remove(first[0])
    assert f" {drawn[0]} " not in log_of(doc).replace("Ann draws", "")


def test_draw_is_accepted_and_changes_nothing(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    face = upcoming(doc, "Ann")[0]
    move(pbd, doc, "Ann", "draw; roll")
    assert "no draw now: Ann's card for this turn came at the end of the last one" in log_of(doc)
    assert tile_of(pbd, doc, "Ann") == 1 + face


def test_an_empty_draw_pile_means_no_draw(pbd, tmp_path):
    with mock.patch("pbd.games.tower.default_deck", lambda: DeckSpec("two torches", {"Torch": 2})):
        doc = start(pbd, tmp_path)      # (the replay that checks for hand edits reads the same deck)
        assert "Cards: two torches · Torch 2 (2 cards)" in doc.read_text()
        move(pbd, doc, "Ann", "roll")
        assert "the draw pile is empty: no draw" in log_of(doc)
        assert show(pbd, doc)["players"][0]["hand"] == 1


def test_draw_place_and_roll_in_one_command(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Rope")
    out = move(pbd, doc, "Ann", "draw; play Rope on 17; roll")
    assert "waits on a random value that Ben publishes" in out.output  # the roll follows a choice: it waits
    assert tile_of(pbd, doc, "Ann") == 1 and show(pbd, doc)["cards"]["17"] == "Rope"
    pbd("status", doc, "--as", "Ben", ok=True)                         # Ben's pbd publishes the value it waits on
    face = upcoming(doc, "Ann")[0]
    move(pbd, doc, "Ann", "roll")
    data = show(pbd, doc)
    assert data["cards"]["17"] == "Rope" and data["piles"]["tile-17"] == 1
    assert tile_of(pbd, doc, "Ann") == 1 + face
    assert data["to_move"] == ["Ben"]
    assert "Rope" not in hand_of(pbd, doc, "Ann")


def test_only_the_player_to_move_moves(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    refused(pbd, doc, "Ben", "roll", "Ann's turn")


def test_one_card_a_turn(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Torch", "Torch")
    move(pbd, doc, "Ann", "play Torch on 20")
    refused(pbd, doc, "Ann", "play Torch on 30", "one card a turn")


def test_where_a_card_may_go(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Torch", "Rope", "Trapdoor", "Sword")
    put(doc, tiles={"Ben": 9}, cards={12: "Spider Web"})
    refused(pbd, doc, "Ann", "play Torch on 1", "start tile")
    refused(pbd, doc, "Ann", "play Torch on 48", "treasure")
    refused(pbd, doc, "Ann", "play Torch on 9", "Ben is on tile 9")
    refused(pbd, doc, "Ann", "play Torch on 12", "no card can be played on top of another")
    refused(pbd, doc, "Ann", "play Rope on 44", "no tile above")
    refused(pbd, doc, "Ann", "play Trapdoor on 5", "bottom floor")
    refused(pbd, doc, "Ann", "play Sword on 5", "not placed on a tile: it is played in a duel or against a Spider Web")
    refused(pbd, doc, "Ann", "play Shield on 5", "a Shield is not placed on a tile: it is played in a duel, against a "
                                                 "Guard or an Arcane Trap's 2")
    refused(pbd, doc, "Ann", "play Torch on 49", "not on the path")
    refused(pbd, doc, "Ann", "play Torch on 0", "tile 0 is not on the path (tiles 1 to 48)")
    refused(pbd, doc, "Ann", "play Guard on 5", "Ann holds no Guard")
    move(pbd, doc, "Ann", "place torch on 5")
    assert show(pbd, doc)["cards"]["5"] == "Torch"
    assert "5 Torch" in doc.read_text()


def test_a_placement_that_makes_a_loop_is_refused_with_the_loop(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Guard", "Trapdoor")
    put(doc, cards={17: "Torch", 8: "Rope"})
    refused(pbd, doc, "Ann", "play Guard on 18", "endless loop: 18 (Guard) → 17 (Torch) → 18")
    refused(pbd, doc, "Ann", "play Trapdoor on 9", "endless loop: 9 (Trapdoor) → 8 (Rope) → 9")
    assert "play Guard on 18" not in pbd.json("legal", doc, "--as", "Ann")["moves"]
    move(pbd, doc, "Ann", "play Guard on 19")


def test_misspelt_cards_and_moves_get_a_suggestion(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    result = move(pbd, doc, "Ann", "play Rpoe on 17", code=2)
    assert "Rope" in result.output
    result = move(pbd, doc, "Ann", "rol", code=2)
    assert "roll" in result.output


# -- tile effects -------------------------------------------------------------------------------------

def _land(doc, cards, offset=0, who="Ann"):
    """Put ``who`` so that the next roll lands on tile 20 + offset; return the roll."""
    face = upcoming(doc, who, 1)[0]
    put(doc, tiles={who: 20 + offset - face}, cards=cards)
    return face


def test_a_loop_on_a_hand_edited_board_stops_after_200_card_effects(pbd, tmp_path):
    from pbd.games.tower import rules

    doc = start(pbd, tmp_path)
    up = rules.above(GAME.parse(doc.read_text()).layout, 20)
    _land(doc, {20: "Rope", up: "Trapdoor"})          # no player can place a loop; a hand edit can
    move(pbd, doc, "Ann", "roll")
    entry = next(ln for ln in log_of(doc).splitlines() if "the chain stops" in ln)
    assert "the chain stops after 200 card effects" in entry
    assert (entry.count(f"Rope on 20: Ann → {up}"), entry.count(f"Trapdoor on {up}: Ann → 20")) == (100, 100)
    assert tile_of(pbd, doc, "Ann") == 20


def test_torch_chain_goes_on_while_there_are_torches(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {20: "Torch", 21: "Torch"})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 22
    assert "Torch on 20: Ann → 21; Torch on 21: Ann → 22" in log_of(doc)


def test_guard_chain_goes_back_while_there_are_guards(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {20: "Guard", 19: "Guard"})
    move(pbd, doc, "Ann", "roll")
    data = show(pbd, doc)
    assert data["to_move"] == ["Ann"] and data["asking"]["question"] == "guard" and data["decisions"] == []
    assert "Asking: Ann [guard] — play Shield to stay on 20 despite the Guard" in doc.read_text()
    assert "pass" in pbd.json("legal", doc, "--as", "Ann")["moves"]
    refused(pbd, doc, "Ann", "roll", "answer first")
    move(pbd, doc, "Ann", "pass; pass")
    assert tile_of(pbd, doc, "Ann") == 18


def test_a_shield_negates_a_guard(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Shield")
    _land(doc, {20: "Guard"})
    move(pbd, doc, "Ann", "roll")
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == ["play Shield", "pass"]
    move(pbd, doc, "Ann", "play Shield")
    assert tile_of(pbd, doc, "Ann") == 20
    data = show(pbd, doc)
    assert data["spent"] == [["Ann", "Shield"]] and data["piles"]["spent"] == 1


def test_rope_chain_goes_up_while_ropes_are_above(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {20: "Rope", 29: "Rope"})      # 20 (floor 3) is below 29, 29 below 36
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 36


def test_trapdoor_chain_goes_down_while_trapdoors_are_below(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {29: "Trapdoor", 20: "Trapdoor"}, offset=9)
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 13


def test_a_chain_mixes_kinds_torch_onto_rope(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {19: "Torch", 20: "Rope"}, offset=-1)
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 29


def test_magic_carpet_rolls_again_and_moves_on(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    first, second = upcoming(doc, "Ann", 2)
    put(doc, tiles={"Ann": 20 - first}, cards={20: "Magic Carpet"})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 20 + second


def test_a_magic_carpet_reached_by_passing_a_guard_waits_for_a_fresh_value(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {20: "Guard", 19: "Magic Carpet"})
    move(pbd, doc, "Ann", "roll")
    move(pbd, doc, "Ann", "pass")                   # back to 19: the carpet's die follows Ann's answer
    assert "the Magic Carpet's die on 19 waits on a fresh random value from another player" in log_of(doc)
    assert tile_of(pbd, doc, "Ann") == 19
    (k,) = roll_waited(pbd, doc, "Ann", 1)
    assert tile_of(pbd, doc, "Ann") == 19 + k


def test_spider_web_holds_you_for_your_next_turn(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _land(doc, {20: "Spider Web"})
    move(pbd, doc, "Ann", "roll")
    assert show(pbd, doc)["players"][0]["webbed"] is True
    move(pbd, doc, "Ben", "roll")
    refused(pbd, doc, "Ann", "roll", "Spider Web holds Ann")
    assert "stay" in pbd.json("legal", doc, "--as", "Ann")["moves"]
    move(pbd, doc, "Ann", "stay")
    assert tile_of(pbd, doc, "Ann") == 20 and not show(pbd, doc)["players"][0]["webbed"]
    assert show(pbd, doc)["to_move"] == ["Ben"]


def test_stay_and_a_sword_need_a_spider_web(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    refused(pbd, doc, "Ann", "stay", "no Spider Web holds you: roll")
    refused(pbd, doc, "Ann", "play Sword", "a Sword is played in a duel or against a Spider Web holding you")


def test_a_sword_negates_a_spider_web(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    _land(doc, {20: "Spider Web"})
    move(pbd, doc, "Ann", "roll")
    move(pbd, doc, "Ben", "roll")
    assert "play Sword" in pbd.json("legal", doc, "--as", "Ann")["moves"]
    out = move(pbd, doc, "Ann", "play Sword; roll").output
    assert "waits on a random value that Ben publishes" in out         # the roll follows a choice: it waits
    pbd("status", doc, "--as", "Ben", ok=True)                         # Ben's pbd publishes the value
    face = upcoming(doc, "Ann", 1)[0]
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 20 + face
    assert "plays a Sword: cuts the Spider Web" in log_of(doc)


def _trap_board(pbd, tmp_path, second, holding=None):
    """Arcane Traps on 10, 20 and 30; Ann lands on 20 and the trap's roll will be ``second``."""
    doc, (first, _) = start_rolling(pbd, tmp_path, "Ann", lambda f: f[1] == second, 2)
    if holding:
        give(doc, "Ann", holding)
    put(doc, tiles={"Ann": 20 - first}, cards={10: "Arcane Trap", 20: "Arcane Trap", 30: "Arcane Trap"})
    return doc


def test_arcane_trap_six_goes_to_the_next_trap(pbd, tmp_path):
    doc = _trap_board(pbd, tmp_path, 6)
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 30
    assert "Arcane Trap on 20: rolls 6, to the next trap" in log_of(doc)


def test_arcane_trap_one_goes_to_the_previous_trap_even_with_a_shield(pbd, tmp_path):
    doc = _trap_board(pbd, tmp_path, 1, holding="Shield")
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 10
    assert show(pbd, doc)["asking"] is None and "Shield" in hand_of(pbd, doc, "Ann")


def test_arcane_trap_two_goes_back_without_a_shield(pbd, tmp_path):
    doc = _trap_board(pbd, tmp_path, 2)
    move(pbd, doc, "Ann", "roll")
    assert show(pbd, doc)["asking"]["prompt"] == ("play Shield so that only a 1 sends you back, or pass "
                                                  "(to the previous Arcane Trap, 10)")
    assert "play Shield" not in pbd.json("legal", doc, "--as", "Ann")["moves"]
    move(pbd, doc, "Ann", "pass")
    assert tile_of(pbd, doc, "Ann") == 10


def test_arcane_trap_two_with_a_shield_stays(pbd, tmp_path):
    doc = _trap_board(pbd, tmp_path, 2, holding="Shield")
    move(pbd, doc, "Ann", "roll; play Shield")
    assert tile_of(pbd, doc, "Ann") == 20


@pytest.mark.parametrize("second", [3, 4, 5])
def test_arcane_trap_three_to_five_stays_with_traps_on_both_sides(pbd, tmp_path, second):
    doc = _trap_board(pbd, tmp_path, second, holding="Shield")
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 20
    assert f"Arcane Trap on 20: rolls {second}, stays" in log_of(doc)
    assert show(pbd, doc)["asking"] is None and show(pbd, doc)["to_move"] == ["Ben"]


def test_arcane_trap_without_another_trap_stays(pbd, tmp_path):
    doc, (first, _) = start_rolling(pbd, tmp_path, "Ann", lambda f: f[1] == 6, 2)
    put(doc, tiles={"Ann": 20 - first}, cards={20: "Arcane Trap"})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 20


# -- duels --------------------------------------------------------------------------------------------

def _duel(doc):
    """Ann's roll lands on Ben's tile 20."""
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face, "Ben": 20})


def test_a_duel_decision_names_the_move_that_asked_it(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    move(pbd, doc, "Ann", "roll")                   # Ann and Ben have moves in the log before the duel
    move(pbd, doc, "Ben", "roll")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; pass")
    last = GAME.parse(doc.read_text()).meta.log[-1]
    assert last.player == "Ann" and "Ben: Sword or pass" in last.text
    assert f"Waiting on: Ben — play Sword (an extra die in the duel with Ann on 20), or pass · from {last.number}\n" \
        in doc.read_text()


def test_a_duel_moves_the_winner_on_and_the_loser_back(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel(doc)
    move(pbd, doc, "Ann", "roll; pass")
    assert show(pbd, doc)["to_move"] == ["Ben"]
    assert "Waiting on: Ben — play Sword (an extra die in the duel with Ann on 20), or pass · from" in doc.read_text()
    refused(pbd, doc, "Ann", "roll", "waiting on Ben")
    move(pbd, doc, "Ben", "pass")
    assert "the duel's dice wait on a fresh random value" in log_of(doc)
    a, b = roll_waited(pbd, doc, "Ben")             # Ann's pbd publishes a fresh value; Ben's rolls both duel dice
    assert a != b                                   # these seeds roll no tie (ties: test_tower_games.py)
    want = {"Ann": 21, "Ben": 19} if a > b else {"Ann": 19, "Ben": 21}
    assert {n: tile_of(pbd, doc, n) for n in want} == want
    assert show(pbd, doc)["to_move"] == ["Ben"]          # Ann's turn ended with the duel
    assert "Ann draws a card for the next turn" in log_of(doc)


def test_the_loser_of_a_duel_on_tile_2_goes_back_to_tile_1(pbd, tmp_path):
    doc, _ = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] == 1, 1)
    put(doc, tiles={"Ben": 2})
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "pass")
    roll_waited(pbd, doc, "Ben")                    # (its faces: start_rolling's seeds; the log names the winner)
    winner = "Ann" if "Ann wins the duel" in log_of(doc) else "Ben"
    assert f"{winner} wins the duel" in log_of(doc)
    want = {"Ann": 3, "Ben": 1} if winner == "Ann" else {"Ann": 1, "Ben": 3}
    assert {n: tile_of(pbd, doc, n) for n in want} == want


def test_a_decision_the_log_does_not_explain_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel(doc)
    move(pbd, doc, "Ann", "roll; pass")
    text = doc.read_text()
    entry = text.split("· from ")[1].split()[0]
    doc.write_text(text.replace(f"· from {entry}", "· from 1"))
    result = pbd("move", doc, "--as", "Ben", "pass")
    assert result.exit_code == 3 and "Waiting on" in result.output


def test_sword_adds_a_die_and_shield_negates_it(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    give(doc, "Ben", "Shield")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; play Sword")
    assert "Ben: Shield or Sword or pass" in log_of(doc)
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] == ["play Shield", "pass"]
    assert "answer Ann's Sword in the duel" in doc.read_text()
    move(pbd, doc, "Ben", "play Shield")                 # asked once: his Shield and Sword together
    roll_waited(pbd, doc, "Ben")
    entry = [ln for ln in log_of(doc).splitlines() if "duel: Ann" in ln][-1]
    assert "+" not in entry.split("duel: Ann ")[1].split(",")[0]
    assert show(pbd, doc)["spent"] == [["Ann", "Sword"], ["Ben", "Shield"]]


def test_an_unanswered_sword_rolls_two_dice(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Sword")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; play Sword")
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] in (["pass"], ["play Shield", "pass"])
    move(pbd, doc, "Ben", "pass")
    roll_waited(pbd, doc, "Ben")
    entry = [ln for ln in log_of(doc).splitlines() if "duel: Ann" in ln][-1]
    assert "+" in entry.split("duel: Ann ")[1].split(",")[0]


def test_the_defenders_sword_can_be_shielded_by_the_attacker(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ben", "Sword")
    give(doc, "Ann", "Shield")
    _duel(doc)
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "play Sword")
    assert show(pbd, doc)["to_move"] == ["Ann"]
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == ["play Shield", "pass"]
    move(pbd, doc, "Ann", "play Shield")
    roll_waited(pbd, doc, "Ann")
    entry = [ln for ln in log_of(doc).splitlines() if "duel: Ann" in ln][-1]
    assert "+" not in entry.split(", Ben ")[1].split(" ")[0]


def test_landing_from_a_duel_triggers_the_tile(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel(doc)
    put(doc, cards={21: "Torch", 19: "Rope"})
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "pass")
    a, b = roll_waited(pbd, doc, "Ben")
    assert a != b
    tiles = sorted([tile_of(pbd, doc, "Ann"), tile_of(pbd, doc, "Ben")])
    assert tiles == [22, 30]                              # winner 21 → Torch → 22; loser 19 → Rope → 30


def test_guards_met_after_a_duel_ask_each_duelist_in_turn(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel(doc)
    put(doc, cards={21: "Guard", 19: "Guard"})
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "pass")
    a, b = roll_waited(pbd, doc, "Ben")
    assert a != b                                         # these seeds roll no tie (a tie rolls again)
    asked = []
    for _ in range(4):
        data = show(pbd, doc)
        who = (data["decisions"] and data["decisions"][0]["seat"]) or (data["asking"] and data["asking"]["seat"])
        if not who:
            break
        asked.append(who)
        move(pbd, doc, who, "pass")                       # a decision the log explains: no exit 3
    assert sorted(asked) == ["Ann", "Ben"]
    want = {"Ann": 20, "Ben": 18} if a > b else {"Ann": 18, "Ben": 20}
    assert {n: tile_of(pbd, doc, n) for n in want} == want
    assert show(pbd, doc)["to_move"] == ["Ben"]
    problems = json.loads(pbd("check", doc, "--json").stdout)["problems"]
    assert all("the shared deck placed no card there" in p for p in problems)      # only the hand-put Guards


# -- hand limit, finish, winner --------------------------------------------------------------------------

def test_the_sixth_card_must_be_discarded_and_the_discard_is_logged(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Guard", "Guard", "Torch", "Torch", "Sword")
    assert show(pbd, doc)["players"][0]["hand"] == 6
    refused(pbd, doc, "Ann", "roll", "discard one")
    assert any(m.startswith("discard ") for m in pbd.json("legal", doc, "--as", "Ann")["moves"])
    out = move(pbd, doc, "Ann", "discard Guard; roll").output
    assert "waits on a random value that Ben publishes" in out         # the roll follows a choice: it waits
    assert "discard Guard — discards Guard (hand limit 5)" in log_of(doc)
    data = show(pbd, doc)
    assert data["discarded"] == [["Ann", "Guard"]] and data["piles"]["discard"] == 1


def test_discarding_under_the_limit_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Guard")
    refused(pbd, doc, "Ann", "discard Guard", "discard only when over 5")


def test_five_cards_are_at_the_limit_not_over_it(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Guard", "Torch", "Torch", "Sword")
    assert show(pbd, doc)["players"][0]["hand"] == 5
    refused(pbd, doc, "Ann", "discard Guard", "you hold 5 cards; you discard only when over 5")


def test_the_draw_that_reaches_five_cards_is_not_over_the_limit(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Guard", "Torch", "Torch")
    move(pbd, doc, "Ann", "roll")
    assert "Ann draws a card for the next turn (hand 5)" in log_of(doc)
    assert show(pbd, doc)["players"][0]["hand"] == 5


def test_draw_after_a_card_is_played_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Rope")
    refused(pbd, doc, "Ann", "play Rope on 17; draw",
            "a turn's draw comes at its end (after the roll), not after a card is played")


def test_no_draw_or_discard_while_the_roll_is_resolved(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel(doc)
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "pass")
    assert "the duel's dice wait on a fresh random value" in log_of(doc)
    refused(pbd, doc, "Ann", "draw", "you cannot draw now: the roll is being resolved")


def test_an_answer_when_nothing_is_asked_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Shield")
    refused(pbd, doc, "Ann", "pass", "nothing waits on an answer: roll")
    refused(pbd, doc, "Ann", "play Shield", "nothing waits on an answer: a Shield is played when pbd asks for it")


def test_reaching_the_treasure_wins_and_ends_the_match(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    put(doc, tiles={"Ann": 47})
    move(pbd, doc, "Ann", "roll")
    data = show(pbd, doc)
    assert data["result"] == "Ann reached the treasure and wins" and data["to_move"] == []
    assert "Result: Ann reached the treasure and wins" in doc.read_text()
    assert data["step"] == "over" and data["duel_fought"] is False and "\nTurn 1: over\n" in doc.read_text()
    refused(pbd, doc, "Ben", "roll", "over")
    refused(pbd, doc, "Ann", "roll", "over")
    assert pbd.json("legal", doc, "--as", "Ben") == {"moves": []}


def test_exact_finish_bounces_back_the_excess(pbd, tmp_path):
    doc, (face,) = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] >= 3, 1, 2, "-O", "exact-finish")
    assert "Options: exact-finish" in doc.read_text()
    put(doc, tiles={"Ann": 46})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 48 - (46 + face - 48)
    back = 48 - (46 + face - 48)
    assert (f"rolls {face}: 46 → {back}" if back != 46 else f"rolls {face}: overshoots, stays on 46") in log_of(doc)


def test_exact_finish_bounces_no_lower_than_tile_1(pbd, tmp_path):
    tiny = tmp_path / "tiny.toml"
    tiny.write_text('name = "Tiny"\nfloors = 2\ntiles_per_floor = 3\n')           # the treasure on 6
    doc, _ = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] == 6, 1, 2, "-O", f"board={tiny}",
                           "-O", "exact-finish")
    put(doc, tiles={"Ann": 5})
    move(pbd, doc, "Ann", "roll")                   # 5 + 6 = 11: five past the treasure, back to 1
    assert tile_of(pbd, doc, "Ann") == 1


def test_exact_finish_stay_does_not_move(pbd, tmp_path):
    doc, (face,) = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] >= 3, 1, 2, "-O", "exact-finish=stay")
    put(doc, tiles={"Ann": 46})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 46
    assert f"rolls {face}: overshoots, stays on 46" in log_of(doc)


def test_exact_finish_stay_still_wins_on_the_exact_roll(pbd, tmp_path):
    doc, (face,) = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] >= 3, 1, 2, "-O", "exact-finish=stay")
    put(doc, tiles={"Ann": 48 - face})
    move(pbd, doc, "Ann", "roll")
    assert tile_of(pbd, doc, "Ann") == 48
    assert show(pbd, doc)["result"] == "Ann reached the treasure and wins"


# -- data files, check, svg ------------------------------------------------------------------------------

def test_a_players_own_board_goes_into_the_document_not_its_path(pbd, tmp_path):
    mine = tmp_path / "secret-folder" / "tall.toml"
    mine.parent.mkdir()
    mine.write_text('name = "Tall Tower"\nfloors = 10\ntiles_per_floor = 4\n')
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "-O", f"board={mine}", ok=True)
    text = doc.read_text()
    assert "Board: Tall Tower · 10 floors × 4 tiles · start 1 · treasure 40" in text
    assert "secret-folder" not in text and "tall.toml" not in text
    assert "Floor 10 ← | 40 Treasure | 39 | 38 | 37" in text
    pbd("join", doc, "--as", "Ben", ok=True)
    assert re.search(r"^Floor 1 → +\| 1 Start \(A B\) \| 2 +\| 3 +\| 4", doc.read_text(), re.M)


def test_a_malformed_board_lists_every_problem(pbd, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('floors = 1\ntiles_per_floor = "eight"\ndirections = ["up"]\ncolour = "red"\n')
    result = pbd("new", "tower", tmp_path / "m.txt", "--as", "Ann", "-O", f"board={bad}")
    assert result.exit_code == 3
    for words in ("floors must be from 2", "tiles_per_floor must be a whole number", "directions must be",
                  "unknown key 'colour'"):
        assert words in result.output
    assert not (tmp_path / "m.txt").exists() or not (tmp_path / "m.txt").read_text()


def test_deck_check(pbd, tmp_path):
    deck = tmp_path / "d.toml"
    deck.write_text('name = "torches"\n[cards]\nTorch = 10\nshield = 2\n')
    assert "12 cards" in pbd("deck", "check", deck, "--game", "tower", ok=True).output
    deck.write_text('[cards]\nTorchh = 1\nRope = 100\n')
    result = pbd("deck", "check", deck, "--game", "tower")
    assert result.exit_code == 1 and "did you mean 'Torch'" in result.output and "Rope: a count" in result.output


def test_check_lists_what_a_hand_edit_broke(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    assert pbd("check", doc).exit_code == 0
    text = doc.read_text()
    text = write_tile(text, 17, "17 Rope + Torch").replace("1 Start (A B)", "1 Start (A)")
    text = write_tile(write_tile(text.replace("Ann · hand 1", "Ann · hand 7"), 18, "18 Torch"), 19, "19 Guard")
    doc.write_text(text)
    result = pbd("check", doc, "--json")
    problems = json.loads(result.stdout)["problems"]
    assert result.exit_code == 1
    assert any("tile 17 has 2 cards" in p for p in problems)
    assert any("Ben's token (B) is on no tile" in p for p in problems)
    assert any("Ann holds 7 cards; the limit is 5" in p for p in problems)
    assert any("the board says Ann holds 7 cards; the shared deck's hand has 1" in p for p in problems)
    assert any("endless loop: 18 (Torch) → 19 (Guard) → 18" in p for p in problems)
    assert any("tile 17 shows Rope + Torch, but the shared deck placed no card there" in p for p in problems)


def test_show_svg_draws_the_same_board(pbd, tmp_path):
    import xml.etree.ElementTree as ET

    doc = start(pbd, tmp_path)
    put(doc, cards={17: "Rope"})
    out = tmp_path / "tower.svg"
    pbd("show", doc, "--svg", out, ok=True)
    root = ET.fromstring(out.read_text())
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Rope" in texts and "48" in texts and "Floor 6 ←" in texts and "A" in texts and "B" in texts
    assert any(t and t.startswith("Turn 1: Ann") for t in texts)


def test_bad_notation_is_exit_2_and_changes_nothing(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    before = doc.read_bytes()
    assert pbd("move", doc, "--as", "Ann", "jump to 48").exit_code == 2
    assert pbd("move", doc, "--as", "Ann", "play Rope").exit_code == 2
    assert doc.read_bytes() == before


def test_hostile_counts_and_unknown_cards_are_format_errors(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    for bad, words in ((text.replace("Ben · hand 1", "Ben · hand 300000000"), "cannot read this player line"),
                       (text.replace("Ben · hand 1", "Ben · hand 999"), "more cards than a Tower match has"),
                       (write_tile(text, 17, "17 Dragon"), "not a card of The Tower"),
                       (text.replace("6 floors × 8 tiles", "60 floors × 8 tiles"), "does not describe a tower")):
        doc.write_text(bad)
        result = pbd("move", doc, "--as", "Ann", "roll")
        assert result.exit_code == 3 and words in result.output, result.output
        assert doc.read_text() == bad


def test_a_match_to_the_end_then_reveal_and_audit(pbd, tmp_path):
    small = tmp_path / "small.toml"
    small.write_text('name = "Small"\nfloors = 2\ntiles_per_floor = 5\n')
    doc = start(pbd, tmp_path, 2, "-O", f"board={small}")
    for _ in range(60):
        data = show(pbd, doc)
        if data["result"]:
            break
        who = data["to_move"][0]
        moves = pbd.json("legal", doc, "--as", who)["moves"]
        if not moves:                       # only a duty: a chain value the mover's roll waits on
            pbd("status", doc, "--as", who, ok=True)
            continue
        place = [m for m in moves if " on " in m]
        pick = place[0] + "; roll" if place and "roll" in moves else \
            next((m for m in ("play Shield", "play Sword", "pass", "roll", "stay") if m in moves), moves[-1])
        move(pbd, doc, who, pick)
    data = show(pbd, doc)
    assert data["result"] and data["to_move"] == [] and data["cards"]        # cards were placed on the way
    assert pbd("check", doc).exit_code == 0
    pbd("reveal", doc, "--as", "Ann", ok=True)
    pbd("reveal", doc, "--as", "Ben", ok=True)
    result = pbd("audit", doc)
    assert result.exit_code == 0, result.output
    assert "every logged move replays to the board" in result.output
