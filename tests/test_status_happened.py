"""Say what happened: every command that changes the match says privately what it did; --json for bots."""

from __future__ import annotations


def test_move_says_what_you_drew_and_who_moves_next(pbd, match):
    out = pbd("move", match, "--as", "Ann", "draw; end turn", ok=True).output
    hand = pbd.json("hand", match, "--as", "Ann")["hand"]
    assert f"You drew {hand[-1]}." in out
    assert "Now: Turn 2: Ben to move with 3 AP." in out


def test_draw_move_and_roll_json_have_one_stable_shape(pbd, match):
    keys = {"player", "lines", "log", "drew", "rolls", "hand", "status", "to_move", "result"}
    drew = pbd.json("draw", match, "--as", "Ann")
    assert keys <= set(drew) and len(drew["drew"]) == 1 and drew["log"][0]["player"] == "Ann"
    moved = pbd.json("move", match, "--as", "Ann", "end turn")
    assert keys <= set(moved) and moved["to_move"] == ["Ben"] and moved["drew"] == []
    rolled = pbd.json("roll", match, "--as", "Ben", "2d6")
    assert keys <= set(rolled) and rolled["total"] == sum(rolled["faces"])
    assert [r["face"] for r in rolled["rolls"]] == rolled["faces"] and rolled["rolls"][0]["die"] == "d6"


def test_a_roll_the_rules_make_says_what_it_was_for(pbd, tmp_path):
    doc = tmp_path / "t.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--seed", "ann", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    out = pbd("move", doc, "--as", "Ann", "draw; roll", ok=True).output
    # The Tower deals the next card at the end of the turn; it is read once Ben's pbd has unlocked it
    assert "You rolled d6: " in out and "(for your move)" in out and "Now: Ben to act" in out
