"""2Xd6 rules, one test per rule sentence, on states built directly (the table stand-in holds the cards)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from twoxd6_fake_table import FakeDeck  # noqa: E402

from pbd.errors import IllegalMoveError  # noqa: E402
from pbd.games.base import Meta  # noqa: E402
from pbd.games.twoxd6 import cards, dice, grid, moves, rules  # noqa: E402
from pbd.games.base import LogEntry  # noqa: E402
from pbd.games.twoxd6.state import Act, Owe, Stack, State, Trade  # noqa: E402


class Dice:
    """A chance stand-in that rolls the faces it is given (face numbers, as chance.roll returns)."""

    def __init__(self, *faces):
        self.faces = list(faces)
        self.after = []                             # the entries roll_after was asked to wait on

    def roll(self, seat, sides=6, faces=None, purpose=""):
        n = self.faces.pop(0)                       # the n-th face of the die, as dealt in the test
        return faces[n - 1] if faces else n

    def roll_after(self, seat, entry, sides=6, faces=None, purpose=""):
        self.after.append(entry)
        return self.roll(seat, sides, faces, purpose)


def make(hands: dict[str, list[str]], cells: dict[str, tuple[str, list[str]]] | None = None, points=24,
         round_=2, roll=(3, 4)) -> State:
    state = State(Meta("2xd6", "m1"), board=grid.load("standard"), seats=["Ann", "Ben"], order=["Ann", "Ben"],
                  order_rolls={"Ann": 9, "Ben": 5}, phase="act")
    state.act = Act(round=round_, scene="main", points=points, roll=roll)
    everything = [c for cs in hands.values() for c in cs]
    rest = [c.id for c in rules.catalogue(state).values() if c.id not in everything]
    state.deck = FakeDeck.create("m1", ["Ann", "Ben"], {"faces": [], "pips": rest})
    n = max(state.deck.slots) if state.deck.slots else 0
    for seat, cs in hands.items():
        for c in cs:
            n += 1
            state.deck.slots[n] = type(next(iter(state.deck.slots.values())))(n, n, secret=c)
            state.deck.hands.setdefault(seat, []).append(n)
    for cell, (owner, cs) in (cells or {}).items():
        state.cells[cell] = Stack(owner, list(cs))
    state.shown = {"Ann": [], "Ben": []}
    state.cold = {"Ann": [], "Ben": []}
    return state


# -- dice ----------------------------------------------------------------------------------

def test_scene_1_uses_the_sicherman_high_die_and_a_standard_die():
    state = make({"Ann": []}, points=0)
    state.act.scene = "roll"
    rules.do_roll(state, "Ann", Dice(6, 2))          # the 6th Sicherman face is 8
    assert state.act.roll == (8, 2) and state.act.points == 10


def test_a_pair_doubles_and_24_is_the_most():
    assert dice.Roll((6, 6)).total == 24 and dice.Roll((3, 3)).pair
    assert max(dice.Roll((a, b)).total for a in dice.SICHERMAN_HIGH for b in dice.STANDARD) == 24


def test_each_player_rolls_once_for_the_order_of_acts():
    state = make({"Ann": []}, points=0)
    state.phase, state.order, state.order_rolls = "order", [], {}
    rules.do_order_roll(state, "Ann", Dice(2, 4))                  # Sicherman face 2 is 3: 3 + 4
    with pytest.raises(IllegalMoveError, match=r"Ann has already rolled for the order of acts \(7\)"):
        rules.do_order_roll(state, "Ann", Dice(6, 6))
    assert state.order_rolls == {"Ann": 7} and state.phase == "order"


# -- playing --------------------------------------------------------------------------------

def test_a_card_costs_its_pips():
    state = make({"Ann": ["7O"]}, {"A1": ("Ann", ["QG"])}, points=24)
    rules.do_play(state, "Ann", "7O", "A1")
    assert state.act.points == 24 - 7


def test_a_10_costs_1_onto_a_stack_and_10_into_an_empty_cell():
    state = make({"Ann": ["10O", "10G"]}, {"A1": ("Ann", ["QP"])}, points=24)
    rules.do_play(state, "Ann", "10O", "A1")
    assert state.act.points == 23
    rules.do_play(state, "Ann", "10G", "A2")
    assert state.act.points == 13


def test_first_round_only_a_face_or_10_and_only_the_outermost_cell():
    state = make({"Ann": ["7O", "QG"]}, round_=1)
    with pytest.raises(IllegalMoveError, match="only a Face or a 10"):
        rules.do_play(state, "Ann", "7O", "A1")
    with pytest.raises(IllegalMoveError, match="outermost cell, A1"):
        rules.do_play(state, "Ann", "QG", "A2")
    rules.do_play(state, "Ann", "QG", "A1")


def test_later_plays_need_an_adjacent_stack_on_your_side():
    state = make({"Ann": ["7O"]}, {"A1": ("Ann", ["QP"])})
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        rules.do_play(state, "Ann", "7O", "C2")
    with pytest.raises(IllegalMoveError, match="not on your side"):
        rules.do_play(state, "Ann", "7O", "A3")
    rules.do_play(state, "Ann", "7O", "B1")


def test_stacking_same_colour_needs_a_lower_number():
    state = make({"Ann": ["QG", "9G"]}, {"A1": ("Ann", ["JG"])})
    with pytest.raises(IllegalMoveError, match="must be lower"):
        rules.do_play(state, "Ann", "QG", "A1")
    rules.do_play(state, "Ann", "9G", "A1")


def test_a_cold_comfort_card_may_be_played():
    """It "may not be offered for trade or discarded" (the rulebook): playing it is allowed."""
    state = make({"Ann": ["7O"]}, {"A1": ("Ann", ["QG"])})
    state.cold["Ann"] = list(state.deck.hands["Ann"])
    rules.do_play(state, "Ann", "7O", "A1")
    assert state.cells["A1"].cards == ["QG", "7O"] and state.cold["Ann"] == []


def test_recycling_costs_1_and_opens_a_replacement():
    state = make({"Ann": ["7O"]})
    rules.do_recycle(state, "Ann", "7O")
    assert state.act.points == 23 and rules.replacements(state) == 1
    rules.do_replace(state, "Ann", Dice(1))
    assert rules.replacements(state) == 0 and len(rules.hand(state, "Ann")) == 1


# -- chains and advancement -------------------------------------------------------------------

def test_stacks_chain_by_a_common_face_core_colour():
    state = make({}, {"A1": ("Ann", ["QG"]), "A2": ("Ann", ["JG"]), "B1": ("Ann", ["KP"])})
    assert rules.chain(state, "A1") == ["A1", "A2"]
    assert rules.chain(state, "B1") == ["B1"]


def test_advancement_cost_is_the_rounded_average_power():
    state = make({}, {"A1": ("Ann", ["QG", "2O"])})         # power 7 and 2: 4.5 rounds to 5
    rules.do_advance(state, "Ann", "A1", "B2")
    assert state.act.points == 24 - 5 and "B2" in state.cells


@pytest.mark.parametrize("face,dest,ok", [("10O", "B2", True), ("10O", "B3", False), ("JO", "A3", True),
                                         ("JO", "B3", False), ("QG", "B3", True), ("KO", "A3", True), ("KO", "B3", False),
                                         ("AO", "B4", True), ("?C", "B2", True), ("?C", "A2", False)])
def test_each_advancement_limit(face, dest, ok):
    state = make({}, {"A1": ("Ann", [face])}, points=40)
    if ok:
        rules.do_advance(state, "Ann", "A1", dest)
    else:
        with pytest.raises(IllegalMoveError, match="cannot advance"):
            rules.do_advance(state, "Ann", "A1", dest)


def test_no_advancing_into_an_occupied_cell_and_one_advancement_per_act():
    state = make({}, {"A1": ("Ann", ["QG"]), "B2": ("Ben", ["KP"])})
    with pytest.raises(IllegalMoveError):
        rules.do_advance(state, "Ann", "A1", "B2")
    rules.do_advance(state, "Ann", "A1", "A2")
    with pytest.raises(IllegalMoveError, match="one Advancement per act"):
        rules.do_advance(state, "Ann", "A2", "B3")


def test_the_toll_for_ending_on_another_players_side():
    state = make({"Ann": ["7O"]}, {"B5": ("Ann", ["QG"])})
    with pytest.raises(IllegalMoveError, match="toll"):
        rules.do_draw(state, "Ann", Dice(1))
    rules.do_give(state, "Ann", "7O", "Ben")
    assert state.shown["Ben"] == ["7O"]
    rules.do_draw(state, "Ann", Dice(1))


# -- targeting ------------------------------------------------------------------------------------

def test_targeting_distance_pottle_obstruction_and_the_window():
    state = make({}, {"A2": ("Ann", ["QG"]), "A4": ("Ben", ["9C", "8P", "7P"]), "A3": ("Ben", ["2C"]),
                      "A6": ("Ben", ["2P"])})
    assert "passes Resistance-occupied A3" in rules.target_problem(state, "Ann", "A2", "A4")
    assert "out of targeting distance" in rules.target_problem(state, "Ann", "A2", "A6")
    state.cells.pop("A3")
    assert rules.rc_of(state, "A4")[0] > 9 * 9 * 8          # 8^7 and more: same Resistance and core colours
    with pytest.raises(IllegalMoveError, match="not within 10"):
        rules.do_target(state, "Ann", "A4", "A2", "7", Dice(1, 1))


def test_a_j_targets_forward_only_unless_the_roll_was_a_pair():
    state = make({}, {"A3": ("Ann", ["JG"]), "A1": ("Ben", ["7P"])}, roll=(3, 4))
    assert "out of targeting distance" in rules.target_problem(state, "Ann", "A3", "A1")
    state.act.roll = (3, 3)
    assert rules.target_problem(state, "Ann", "A3", "A1") is None


def test_targeting_rolls_off_and_the_winner_collects_the_stack():
    state = make({"Ann": ["JG"]}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})
    rc, _ = rules.rc_of(state, "A3")
    rules.do_target(state, "Ann", "A3", "A2", "7", Dice())
    assert rules.onyx_waits(state) and not state.decisions          # the Onyx dice wait on a fresh value
    with pytest.raises(IllegalMoveError, match="Ann's Onyx dice wait on a fresh random value"):
        rules.do_draw(state, "Ann", Dice(1))
    rules.roll_onyx(state, "Ann", Dice(6, 5), 1)
    assert state.decisions[0].seat == "Ben" and state.decisions[0].answers == ["roll"]
    with pytest.raises(IllegalMoveError, match="waiting for Ben to roll against the targeting"):
        rules.do_draw(state, "Ann", Dice(1))
    rules.do_resist(state, "Ben", Dice(1, 2))
    assert not state.decisions                                     # the Wyte roll answered
    assert "A3" not in state.cells and state.shown["Ann"] == ["7P"]
    assert [(o.receiver, o.kind) for o in state.owed] == [("Ben", "face")]
    rules.do_give(state, "Ann", "JG", "Ben")
    assert not state.owed


def test_a_failed_targeting_owes_a_face_and_a_pip_and_draws_cold_comfort():
    state = make({"Ann": []}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})
    rules.do_target(state, "Ann", "A3", "A2", "7", Dice())
    rules.roll_onyx(state, "Ann", Dice(1, 2), 1)
    rules.do_resist(state, "Ben", Dice(6, 6, 1))
    assert [(o.kind) for o in state.owed] == ["face", "pip"]
    assert len(state.cold["Ann"]) == 1
    cold = state.deck.card(state.cold["Ann"][0], "Ann")
    with pytest.raises(IllegalMoveError, match="cold-comfort"):
        rules.do_recycle(state, "Ann", cold)
    rules.do_show_hand(state, "Ann")                         # nothing else in hand: shows it, debts cleared
    assert not state.owed


def test_with_the_rc_stated_nothing_else_happens_until_the_defender_states_it():
    state = make({"Ann": ["7O"]}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})
    state.options = ["rc=stated"]
    rules.do_announce(state, "Ann", "A3", "A2")
    with pytest.raises(IllegalMoveError, match="waiting for Ben to state the Rc of A3"):
        rules.do_play(state, "Ann", "7O", "A2")


def test_with_the_rc_stated_the_wyte_dice_wait_on_a_value_after_the_statement():
    """Reading (issue 25): the Wyte dice follow the defender's own choice of Rc, so they wait on a chain value
    published after the defender's last 'resist with' entry (not after a later entry of theirs)."""
    state = make({}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})
    state.options = ["rc=stated"]
    rules.do_announce(state, "Ann", "A3", "A2")
    state.meta.log += [LogEntry(1, "Ann", "target A3 from A2 — targets A3 from A2; Ben states the Rc"),
                       LogEntry(2, "Ben", "resist with 8 — states Rc 8 = 8 for A3"),
                       LogEntry(3, "Ann", "target A3 from A2 with 7 — targets A3 from A2: Tc 7 = 7"),
                       LogEntry(4, "Ben", "a fresh random value for Ann's roll")]
    rules.do_state_rc(state, "Ben", "8")
    rules.do_target(state, "Ann", "A3", "A2", "7", Dice())
    rules.roll_onyx(state, "Ann", Dice(6, 5), 3)
    dice_ = Dice(1, 2)
    rules.do_resist(state, "Ben", dice_)
    assert dice_.after == [2, 2]
    state = make({}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})          # rc=best: pbd states it, no wait
    rules.do_target(state, "Ann", "A3", "A2", "7", Dice())
    rules.roll_onyx(state, "Ann", Dice(6, 5), 1)
    dice_ = Dice(1, 2)
    rules.do_resist(state, "Ben", dice_)
    assert dice_.after == []


def test_show_hand_waits_until_every_hand_card_can_be_read():
    state = make({"Ann": ["7O"]})
    state.owed = [Owe("Ann", "Ben", "face")]
    unread = state.deck.hands["Ann"][0]
    state.deck.card = lambda slot, seat: None if slot == unread else state.deck.slots[slot].secret
    with pytest.raises(IllegalMoveError, match="Ann cannot read every hand card yet"):
        rules.do_show_hand(state, "Ann")
    assert state.owed


# -- trades and winning ------------------------------------------------------------------------------

def test_a_draw_without_offer_ends_the_act():
    state = make({"Ann": []})
    assert rules.do_draw(state, "Ann", Dice(1)) == "draws a card; Ben's act"
    assert state.trade is None and not state.decisions and rules.acting(state) == "Ben"


def test_a_cold_comfort_card_is_neither_offered_nor_listed_for_a_trade():
    state = make({"Ann": [], "Ben": ["7O", "KP"]})
    cold = state.deck.hands["Ben"][0]
    state.cold["Ben"] = [cold]
    rules.do_draw(state, "Ann", Dice(1), offer=True)
    assert rules.offer_answers(state, "Ben") == ["offer KP", "pass"]
    with pytest.raises(IllegalMoveError, match="7O is Ben's cold-comfort card"):
        rules.do_offer(state, "Ben", "7O")
    rules.do_offer(state, "Ben", "KP")
    assert [d.seat for d in state.decisions] == ["Ann"]             # one offer: Ann accepts or rejects
    rules.do_accept(state, "Ann", True)
    assert not state.decisions and state.trade is None and state.shown["Ann"] == ["KP"]


def test_with_several_offers_the_best_is_taken():
    state = make({"Ann": [], "Ben": ["7O", "KP"]})
    state.order = ["Ann", "Ben", "Cid"]
    state.trade = Trade("Ann", 1, {"Ben": "7O", "Cid": "KP"})
    assert rules.best_offer(state) == "Cid"


def test_the_win_needs_a_whole_round_of_acts_holding_the_basic_square():
    state = make({}, {"B3": ("Ann", ["QG"])})
    rules.end_act(state)
    assert state.holder == "Ann" and state.held == 0 and not state.result
    rules.end_act(state)
    assert state.held == 1 and not state.result
    rules.end_act(state)
    assert "Ann wins" in state.result


def test_the_acts_go_round_in_the_order_and_a_new_round_begins_with_the_first():
    """Each act passes to the next player in the order; after the last player's act a new round begins (round 1
    has rules of its own, so the count matters)."""
    state = make({})
    state.order = ["Ann", "Ben", "Cid"]
    assert (state.act.round, state.act.turn) == (2, 0)
    assert rules.end_act(state).endswith("; Ben's act") and (state.act.round, state.act.turn) == (2, 1)
    assert rules.end_act(state).endswith("; Cid's act") and (state.act.round, state.act.turn) == (2, 2)
    assert rules.end_act(state).endswith("; Ann's act") and (state.act.round, state.act.turn) == (3, 0)
    assert rules.end_act(state).endswith("; Ben's act") and (state.act.round, state.act.turn) == (3, 1)


def test_a_locked_board_is_a_draw_after_a_whole_round_of_quiet_acts_once_the_draw_patch_is_empty():
    """Reading (``rules.end_act``): once the Draw Patch is empty, a whole round of acts in which nobody plays a
    card, advances or targets ends the match in a draw; an act that does one of them starts the count again, and
    while a card is left in the patch no act counts."""
    state = make({}, {"A2": ("Ann", ["QG"]), "A3": ("Ben", ["7P"])})
    left = [i for pile in cards.PATCH for i in state.deck.piles.get(pile, [])]
    for pile in cards.PATCH:
        state.deck.piles[pile] = []
    state.deck.piles["pips"] = left[:1]                      # one card left: no act is quiet
    for _ in range(3):
        rules.end_act(state)
    assert state.quiet == 0 and not state.result
    state.deck.piles["pips"] = []                             # the patch empty
    rules.end_act(state)
    assert state.quiet == 1 and not state.result
    state.act.played = 1                                      # Ben plays a card: the count starts again
    rules.end_act(state)
    assert state.quiet == 0 and not state.result
    rules.end_act(state)
    assert state.quiet == 1 and not state.result and state.phase != "over"
    rules.end_act(state)                                      # a whole round (two acts) with nothing done
    assert state.quiet == 2 and state.phase == "over" and state.result.startswith("a draw: a whole round of acts (2)")


def test_legal_lists_targets_with_a_tc_in_the_window():
    state = make({}, {"A2": ("Ann", ["QG", "5G"]), "A3": ("Ben", ["7P"])})
    listed = [m for m in moves.legal(state, "Ann") if m.startswith("target")]
    assert listed and listed[0].startswith("target A3 from A2 with ")


def test_svg_draws_every_cell_and_stack():
    import xml.etree.ElementTree as ET

    from pbd.games.twoxd6.svg import svg

    state = make({}, {"A1": ("Ann", ["QG"]), "C6": ("Ben", ["KP", "2C"])})
    root = ET.fromstring(svg(state))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "QG" in texts and "2C" in texts and "Ben ×2" in texts
    assert len([r for r in root.iter("{http://www.w3.org/2000/svg}rect")]) == 1 + 18 + 2     # with the background
