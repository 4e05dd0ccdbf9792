"""The log's full names come from the rules' own resolution of a move's names (issue 16).

The rules resolve every name of a move anyway; a move whose names resolve as typed is
logged as typed, one with a name typed otherwise is written in full on the board as it
was before the move — also in the message of a refused move among several.
"""

from __future__ import annotations

from pbd.games.cnc.state import Pending

from cnc_helpers import pos, side


def test_a_move_refused_after_its_names_resolve_is_named_in_full_in_the_message():
    g = pos(side(ap=1, chars=["Spider-Man"]), side(chars=["Nill"]))
    message = g.refused("Ann", "draw; spider attacks nill", "move 2 of 2")
    assert "('Spider-Man attacks Nill')" in message and "you have 0" in message


def test_a_move_refused_before_its_names_resolve_is_named_in_full_in_the_message():
    g = pos(side(ap=5, chars=["Spider-Man"]), side(chars=["Nill", "Hawkeye"]))
    message = g.refused("Ann", "spider attacks nill; spider attacks hawk", "move 2 of 2", "already acted")
    assert "('Spider-Man attacks Hawkeye')" in message


def test_a_name_typed_in_full_is_logged_as_typed_and_one_typed_otherwise_in_full():
    g = pos(side(ap=5, chars=["Spider-Man", "Nill"], hand=["Hawkeye"]), side(chars=["Nill", "Batman"]))
    out = g.play("Ann", "Spider-Man attacks Batman; nill attacks nill; play hawk")
    assert [s.split(" · ")[0] for s in out] == ["Spider-Man attacks Batman", "Nill attacks Nill", "play Hawkeye"]


def test_a_card_name_that_is_not_in_play_but_starts_a_character_that_is_names_that_character():
    g = pos(side(ap=5, chars=["NOHoPE (2.0)"]), side(chars=["Nill"]))
    out = g.play("Ann", "NOHoPE attacks Nill")
    assert out[0].startswith("NOHoPE (2.0) attacks Nill · ")
    g = pos(side(ap=5, chars=["Nill"], hand=["NOHoPE"]), side(chars=["Nill"]))
    g.refused("Ann", "NOHoPE attacks Nill", "NOHoPE is in your hand: play it first")


def test_a_discard_owed_from_the_hand_is_named_in_full():
    g = pos(side(ap=0, hand=["Hawkeye", "Nill"]), side(), to_move=1)
    g.state.pending.append(Pending("Ann", "discard", 1, source="Sinister"))
    out = g.play("Ann", "discard hawk")
    assert out[0] == "discard Hawkeye · discarded Hawkeye from hand (Sinister)"


def test_a_withdraw_picks_among_your_characters_first():
    g = pos(side(ap=3, cities=["City Hall"], chars=["City Councilor"]), side())
    assert g.play("Ann", "withdraw cit; withdraw cit") == ["withdraw City Councilor · AP 3→2",
                                                           "withdraw cit · AP 2→1"]
    assert g.ann.hand == ["City Councilor", "City Hall"]
