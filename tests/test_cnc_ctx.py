"""The rules' Ctx: the acting player's side and the other one, however the Ctx came about.

A Ctx keeps ``me`` and ``opp`` once looked up (the rules ask for them dozens of times a
move), so these pin down that the kept sides are the right ones in every case, and that
the start of a turn acts for the side whose turn begins, not for whoever ended the last.
"""

from __future__ import annotations

import pytest
from cnc_helpers import char, pos, side

from pbd.errors import IllegalMoveError
from pbd.games.base import Chance
from pbd.games.cnc import GAME, rules


def ctx_for(g, player: str) -> rules.Ctx:
    return rules.Ctx(g.state, GAME.catalogue, g.chance, player)


@pytest.mark.parametrize("player, me, opp", [("Ann", 0, 1), ("Ben", 1, 0), ("ann", 0, 1), ("BEN", 1, 0)])
def test_me_and_opp_are_the_seats(player, me, opp):
    g = pos()
    ctx = ctx_for(g, player)
    assert ctx.opp is g.state.sides[opp]          # asked first: me is found along the way
    assert ctx.me is g.state.sides[me]


def test_one_seat_has_no_opponent_and_a_stranger_no_side():
    g = pos()
    del g.state.sides[1]
    ctx = ctx_for(g, "ann")
    assert ctx.me is g.state.sides[0]
    with pytest.raises(IndexError):
        ctx.opp
    with pytest.raises(KeyError):
        ctx_for(g, "Cy").me


def test_a_ctx_per_move_sees_the_sides_of_its_own_state():
    g = pos()
    first, second = ctx_for(g, "Ann"), ctx_for(g, "Ann")
    g.state.sides.reverse()                        # a new Ctx looks again; a rule never reorders the sides
    assert ctx_for(g, "Ann").me is g.state.sides[1]
    assert first.me is second.me is g.state.sides[1]


def test_the_new_turn_acts_for_the_side_whose_turn_begins():
    # Ben's Protection Racket takes 5 CP from Ben's opponent at the start of Ben's turn, and his
    # Import Clinic heals his own most damaged character: Ann ends her turn, Ben's cards act for Ben
    g = pos(side(chars=[char("Spider-Man", 5)]),
            side(cities=["Protection Racket", "Import Clinic"], chars=[char("Nill", 1)]))
    nill_hp = GAME.catalogue.get("Nill").hp
    g.play("Ann", "end turn")
    assert (g.ann.cp, g.ben.cp) == (95, 100)
    assert g.char("Ann", "Spider-Man").hp == 5
    assert g.char("Ben", "Nill").hp == min(nill_hp, 11)


def test_start_turn_from_a_ctx_of_the_other_player_keeps_that_ctx():
    g = pos(side(), side(cities=["Protection Racket"]), to_move=1)
    ctx = rules.Ctx(g.state, GAME.catalogue, Chance(g.state.meta, {}), "Ann")
    rules.start_turn(ctx)
    assert ctx.player == "Ann" and ctx.me is g.ann and ctx.opp is g.ben
    assert g.ann.cp == 95 and any("CP 100→95" in n for n in ctx.notes)


def test_the_kept_ctx_of_the_other_player_writes_each_moves_own_notes():
    # the Ctx that acts for Ben at the start of his turns is made once and kept (rules._for_other):
    # each start of his turn must note into the move that began it, and act on the state as it is now
    g = pos(side(), side(cities=["Protection Racket"]))
    ctx = rules.Ctx(g.state, GAME.catalogue, Chance(g.state.meta, {}), "Ann")
    first = rules.apply(ctx, rules.parse_move("end turn"))
    other = ctx.other
    assert other is not None and other.me is g.ben
    rules.apply(rules.Ctx(g.state, GAME.catalogue, ctx.chance, "Ben"), rules.parse_move("end turn"))
    second = rules.apply(ctx, rules.parse_move("end turn"))
    assert ctx.other is other and other.notes is ctx.notes
    assert "CP 100→95" in first and "CP 95→90" in second and "CP 100→95" not in second
    assert g.ann.cp == 90


def test_a_match_with_one_seat_is_refused_however_the_ctx_came_about():
    # a Ctx that found both sides at once skips apply's count of the sides (Ctx.seated); one made while
    # only one player is seated must still be refused with the rule, never a traceback
    g = pos()
    assert ctx_for(g, "Ann").seated and ctx_for(g, "ben").seated is False
    del g.state.sides[1]
    for name in ("Ann", "ann"):
        with pytest.raises(IllegalMoveError, match="the match has not started"):
            rules.apply(ctx_for(g, name), rules.parse_move("draw"))
