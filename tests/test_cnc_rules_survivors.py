"""C&C rules no test held until the mutation run of pbd/games/cnc/rules.py (issue 32) broke them.

Each test names the rule (the rulebook's words, rules/cnc-tcg.txt, or the reading in the
rules module's docstring) and asserts the one right outcome; the comment over each says which
mutants of rules.py it kills (line numbers of rules.py as on main on 2026-11-29).  The positions
come from :mod:`cnc_helpers` and the moves go through ``GAME.play``, as in test_cnc_rules.py.
"""

from __future__ import annotations

import pytest
from cnc_helpers import char, pos, side

from pbd.errors import NotationError, UnknownNameError


# -- names ------------------------------------------------------------------------------------

def test_a_player_named_in_another_case_plays_their_own_moves():
    # rules.py:240: a Ctx made for "ann" finds its sides later (not "seated"); the match has two
    # sides, so it is started and the move is Ann's
    g = pos(side(ap=3), side())
    g.play("ann", "draw")
    assert (g.ann.ap, len(g.ann.hand)) == (2, 1)


def test_an_unknown_target_is_named_as_a_character_of_the_opponent():
    # rules.py:190: a name that is no card at all is looked for among the opponent's characters only;
    # the error says so ("unknown character among Ben's characters"), not "unknown card"
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill"]))
    with pytest.raises(UnknownNameError) as err:
        g.play("Ann", "Spider-Man attacks Nils")
    assert str(err.value).startswith("unknown character among Ben's characters 'Nils'")


# -- whose turn, what is owed -----------------------------------------------------------------

def test_the_player_to_move_plays_on_while_the_opponent_owes_discards():
    # rules.py:302: only the player who owes a discard must pay it first ("Your opponent discards
    # three cards of their choice"): Ann, who played Vulcanus Agents, draws while Ben owes three
    g = pos(side(ap=3, hand=["Vulcanus Agents"]), side(hand=["Nill", "Batman", "Storm"]))
    g.play("Ann", "play Vulcanus Agents; draw")
    assert (g.ann.ap, len(g.ann.hand)) == (0, 1)
    assert [(p.player, p.count) for p in g.state.pending] == [("Ben", 3)]


# -- drawing ----------------------------------------------------------------------------------

def test_a_draw_that_fills_the_hand_to_exactly_10_is_allowed():
    # rules.py:328: "there are a maximum of ten cards in a hand": the tenth card may be drawn
    g = pos(side(ap=3, hand=["Nill"] * 8), side())
    g.play("Ann", "draw 2")
    assert (len(g.ann.hand), g.ann.deck, g.ann.ap) == (10, 48, 1)


def test_the_last_card_of_the_deck_can_be_drawn_and_then_no_more():
    # rules.py:330: a deck of 1 gives its card; an empty deck is refused with the count, no AP spent
    g = pos(side(ap=3, deck=["Nill"]), side())
    g.play("Ann", "draw")
    assert (g.ann.hand, g.ann.deck) == (["Nill"], 0)
    g.refused("Ann", "draw", "your deck has 0 cards left")
    assert g.ann.ap == 2


def test_draw_0_is_refused_as_notation():
    # rules.py:326: "draw 0" draws nothing and costs nothing: it is not a move
    g = pos(side(ap=3), side())
    with pytest.raises(NotationError, match="draw at least one card"):
        g.play("Ann", "draw 0")
    assert (g.ann.ap, g.ann.hand) == (3, [])


def test_a_free_draw_with_a_hand_already_over_the_limit_draws_nothing():
    # rules.py:340: a hand edited past 10 cards (pbd check warns of it) takes no card from a free
    # draw, and the deck keeps its count
    g = pos(side(ap=3, hand=["Port-In Wave"] + ["Nill"] * 11), side())
    g.play("Ann", "play Port-In Wave")
    assert (len(g.ann.hand), g.ann.deck) == (11, 50)
