"""2Xd6 rules through the CLI, one test per rule sentence, each on a position set up directly.

Every test copies one match built per module (the shared deck dealt, the order of acts
rolled), writes the position the rule needs into the board (as a hand edit would: see
tests/twoxd6_helpers.py) and runs the one ``pbd move`` or ``pbd legal`` that exercises the
rule.  Cards a test needs in a hand are given as *shown* cards (face-up cards in a hand,
the way cards that changed hands are kept), so the dealt hands do not matter.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import re  # noqa: E402

from twoxd6_helpers import duel, hand_ids, last_log, position, three, two  # noqa: E402,F401

from pbd.games.twoxd6 import GAME, dice  # noqa: E402


def refused(pbd, doc, who, move, words):
    """Run a move that must be refused: exit 1, the rule named, the document byte-for-byte unchanged."""
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", who, move)
    assert result.exit_code == 1, result.output
    assert words in result.output, result.output
    assert doc.read_bytes() == before


def legal(pbd, doc, who):
    return pbd.json("legal", doc, "--as", who)["moves"]


# -- Scene 2: costs, first round, adjacency, stacking, recycling --------------------------------

def test_a_card_costs_its_pips_and_a_10_costs_1_onto_a_stack_but_10_into_an_empty_cell(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"])}, shown={p1: ["7O", "10O", "10G"]}, points=24)
    out = pbd("move", doc, "--as", p1, "play 10O on A1; play 7O on A1; play 10G on A2", ok=True).output
    assert "plays 10O on A1 (1 points, 23 left)" in out
    assert "plays 7O on A1 (7 points, 16 left)" in out
    assert "plays 10G on A2 (10 points, 6 left)" in out
    data = pbd.json("show", doc)
    assert data["cells"]["A1"] == {"owner": p1, "cards": ["QG", "10O", "7O"]}
    assert data["act"]["played"] == 3 and "· played 3" in doc.read_text()      # one each, counted on the Act line


def test_a_card_that_costs_more_than_the_points_left_is_refused(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"])}, shown={p1: ["9O"]}, points=8)
    refused(pbd, doc, p1, "play 9O on A1", "costs 9 points")


def test_the_first_round_takes_only_a_face_or_a_10_and_only_in_the_outermost_cell(pbd, duel):
    doc, p1, _ = duel
    position(doc, shown={p1: ["7O", "QG", "10O"]}, round_=1)
    refused(pbd, doc, p1, "play 7O on A1", "only a Face or a 10")
    refused(pbd, doc, p1, "play QG on A2", "outermost cell, A1")
    pbd("move", doc, "--as", p1, "play QG on A1; play 10O on A1", ok=True)


def test_the_second_player_s_outermost_cell_is_c6(pbd, duel):
    doc, p1, p2 = duel
    position(doc, shown={p2: ["QG"]}, round_=1, turn=1)
    refused(pbd, doc, p2, "play QG on A1", "outermost cell, C6")
    pbd("move", doc, "--as", p2, "play QG on C6", ok=True)


def test_later_plays_go_into_empty_cells_adjacent_to_your_stacks_on_your_side(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"])}, shown={p1: ["7O"]})
    refused(pbd, doc, p1, "play 7O on C2", "not adjacent")
    refused(pbd, doc, p1, "play 7O on B2", "not adjacent")          # a corner is not a side
    refused(pbd, doc, p1, "play 7O on A3", "not on your side")
    pbd("move", doc, "--as", p1, "play 7O on B1", ok=True)


def test_stacking_on_the_same_colour_needs_a_lower_number_and_only_onto_your_own_stacks(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["JG"]), "A2": (p2, ["4W"])}, shown={p1: ["QG", "9G", "KP"]})
    refused(pbd, doc, p1, "play QG on A1", "must be lower")
    refused(pbd, doc, p1, "play KP on A2", "onto your own stacks")
    pbd("move", doc, "--as", p1, "play 9G on A1; play KP on A1", ok=True)   # lower Gold; another colour
    assert pbd.json("show", doc)["cells"]["A1"]["cards"] == ["JG", "9G", "KP"]


def test_recycling_costs_1_and_opens_a_replacement_draw(pbd, duel):
    doc, p1, _ = duel
    position(doc, shown={p1: ["7O"]}, points=5)
    before = pbd.json("show", doc)
    assert "replace" not in legal(pbd, doc, p1)
    out = pbd("move", doc, "--as", p1, "recycle 7O", ok=True).output
    assert "recycles 7O (1 point, 4 left)" in out
    assert "replace" in legal(pbd, doc, p1)
    assert "— draws a replacement card" in pbd("move", doc, "--as", p1, "replace", ok=True).output
    after = pbd.json("show", doc)
    assert after["draw_patch"] == before["draw_patch"] - 1 and after["points"] == 4
    refused(pbd, doc, p1, "replace", "no replacement draw is open")


def test_nothing_is_played_recycled_or_drawn_before_scene_1_s_roll(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"])}, shown={p1: ["7O"]}, scene="roll", points=24)
    for move in ("play 7O on A1", "recycle 7O", "draw"):
        refused(pbd, doc, p1, move, f"{p1} rolls first (Scene 1: roll)")


def test_cards_leaving_a_hand_go_to_their_own_piles(pbd, duel):
    """A played card goes onto the board pile, a recycled one (from the deck hand or shown) onto the recycled
    pile, one handed over into the open (the receiver's shown cards); the piles the public state counts."""
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG"])}, debts=[(p1, p2, "pip")])
    piles = pbd.json("show", doc)["piles"]
    hand = hand_ids(pbd, doc, p1)
    play = next(m for m in legal(pbd, doc, p1) if m.startswith("play ") and m.endswith(" on A1"))
    given = next(c for c in hand if c[0] in "23456789" and c != play.split()[1])
    recycled = next(c for c in hand if c not in (given, play.split()[1]))

    def moved(**counts):
        now = pbd.json("show", doc)["piles"]
        assert {k: now.get(k, 0) - piles.get(k, 0) for k in ("board", "recycled", "open")} == \
            {"board": 0, "recycled": 0, "open": 0} | counts, now

    pbd("move", doc, "--as", p1, play, ok=True)
    moved(board=1)
    pbd("move", doc, "--as", p1, f"recycle {recycled}", ok=True)
    moved(board=1, recycled=1)
    pbd("move", doc, "--as", p1, f"give {given} to {p2}; draw", ok=True)
    moved(board=1, recycled=1, open=1)
    assert pbd.json("show", doc)["shown"][p2] == [given]
    pbd("move", doc, "--as", p2, f"roll; recycle {given}", ok=True)     # a shown card: from the open pile
    moved(board=1, recycled=2, open=0)


def test_the_cards_played_in_an_act_open_one_replacement_in_all(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"])}, shown={p1: ["5O", "4O"]})
    pbd("move", doc, "--as", p1, "play 5O on A1; play 4O on A1; replace", ok=True)
    refused(pbd, doc, p1, "replace", "no replacement draw is open")


# -- chains and Advancement -------------------------------------------------------------------------

def test_stacks_chain_by_a_face_of_a_common_core_colour_and_advance_together(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p1, ["JG", "2C"]), "B1": (p1, ["KP"])})
    data = pbd.json("show", doc)
    assert sorted(data["chains"][p1]) == [["A1", "A2"], ["B1"]]
    assert f"Chains: {p1} A1+A2 (Gold)" in doc.read_text()
    out = pbd("move", doc, "--as", p1, "advance A1 to B2", ok=True).output   # A2 goes along, to B3
    assert "2 stack(s), 1 cell(s) at 4" in out                              # (7 + 5 + 1) / 3 = 4.33 -> 4
    cells = pbd.json("show", doc)["cells"]
    assert set(cells) == {"B1", "B2", "B3"} and cells["B3"]["cards"] == ["JG", "2C"]


def test_advancement_costs_the_chain_s_average_power_rounded_half_up_per_cell(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG", "2O"])}, points=12)               # (7 + 2) / 2 = 4.5 -> 5
    pbd("move", doc, "--as", p1, "advance A1 to A3", ok=True)
    assert pbd.json("show", doc)["points"] == 12 - 2 * 5


@pytest.mark.parametrize("face,dest,ok", [
    ("10O", "B2", True), ("10O", "A3", False),                    # 10: 1 cell in any direction
    ("JO", "A3", True), ("JO", "B3", False),                      # J: up to 2 linear cells
    ("QG", "B4", True), ("JO", "B4", False),                      # Q: up to 3 cells, with turns
    ("KO", "A3", True), ("KO", "B3", False),                      # K: up to 3 linear cells
    ("AO", "B4", True), ("KO", "B4", False),                      # A: up to 4 cells, with turns
    ("?C", "B2", True), ("?C", "A2", False),                      # ?: up to 4 cells, diagonal only
])
def test_each_advancement_limit(pbd, duel, face, dest, ok):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, [face])}, points=60)
    if ok:
        pbd("move", doc, "--as", p1, f"advance A1 to {dest}", ok=True)
        assert list(pbd.json("show", doc)["cells"]) == [dest]
    else:
        refused(pbd, doc, p1, f"advance A1 to {dest}", "cannot advance")


def test_advancement_goes_only_towards_the_basic_square_into_empty_cells_once_an_act(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A2": (p1, ["AO"]), "B3": (p2, ["4W"])}, points=60)
    refused(pbd, doc, p1, "advance A2 to A1", "cannot advance")            # away from the Basic Square
    refused(pbd, doc, p1, "advance A2 to B3", "cannot advance")            # occupied
    pbd("move", doc, "--as", p1, "advance A2 to B2", ok=True)
    refused(pbd, doc, p1, "advance B2 to A3", "only one Advancement per act")


def test_every_step_of_an_advance_comes_strictly_closer_to_the_basic_square(pbd, duel):
    """Closer in side-steps to the nearest Basic Square cell (B3, B4), at every step, not only at the end."""
    doc, p1, _ = duel
    position(doc, cells={"C2": (p1, ["10O"])}, points=60)
    refused(pbd, doc, p1, "advance C2 to B1", "cannot advance")        # 2 side-steps from B3 before and after
    pbd("move", doc, "--as", p1, "advance C2 to B3", ok=True)
    position(doc, cells={"C1": (p1, ["JO"])}, points=60)
    refused(pbd, doc, p1, "advance C1 to A3", "cannot advance")        # C1 3, B2 1, A3 1: the second step is not
    pbd("move", doc, "--as", p1, "advance C1 to C3", ok=True)


def test_of_two_faces_reaching_a_cell_alike_the_first_by_rank_is_used(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["KO", "JO"])}, points=60)
    out = pbd("move", doc, "--as", p1, "advance A1 to A2", ok=True).output
    assert "advances A1 to A2 with J (1 stack(s), 1 cell(s)" in out


def test_a_chain_cannot_advance_a_stack_off_the_board(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A2": (p1, ["QG"]), "B2": (p1, ["JG"]), "C2": (p1, ["AG"])}, points=60)
    assert [sorted(c) for c in pbd.json("show", doc)["chains"][p1]] == [["A2", "B2", "C2"]]
    refused(pbd, doc, p1, "advance A2 to B2", "cannot advance")            # C2 would go up off the board


def test_a_chain_cannot_advance_a_stack_off_the_board_sideways(pbd, duel):
    doc, p1, _ = duel
    row = {"A1": ["JO"], "A2": ["KO"], "A3": ["AO"], "A4": ["?O", "QG"], "A5": ["JG"]}
    position(doc, cells={cell: (p1, cs) for cell, cs in row.items()}, points=60)
    assert [sorted(c) for c in pbd.json("show", doc)["chains"][p1]] == [sorted(row)]
    refused(pbd, doc, p1, "advance A5 to A4", "cannot advance")            # A1 would go left off the board


def test_a_face_s_limit_may_be_chosen_but_only_one_is_used(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["?C", "JG"])}, points=60)
    refused(pbd, doc, p1, "advance A1 to A2 with ?", "cannot advance to A2 (limits ?: 4 diagonal, J: 2 linear; "
            "towards the Basic Square, into empty cells only)")                   # the ? goes diagonally only
    refused(pbd, doc, p1, "advance A1 to A2 with K", "has no K")
    pbd("move", doc, "--as", p1, "advance A1 to A2 with J", ok=True)


def test_ending_the_act_on_another_player_s_side_pays_them_a_pip_card(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"B5": (p1, ["QG"])}, shown={p1: ["7O", "KP"]})
    refused(pbd, doc, p1, "draw", f"a Pip (toll) to {p2}")
    refused(pbd, doc, p1, f"give KP to {p2}", "no card KP could pay")
    pbd("move", doc, "--as", p1, f"give 7O to {p2}; draw", ok=True)
    assert pbd.json("show", doc)["shown"][p2] == ["7O"]


def test_the_central_columns_take_no_toll(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A4": (p1, ["QG"])}, shown={p1: ["7O"]})
    out = pbd("move", doc, "--as", p1, "draw", ok=True).output
    assert "toll" not in out and last_log(doc) == f"draw — draws a card; {p2}'s act"
    data = pbd.json("show", doc)
    assert data["acting"] == p2 and data["shown"] == {p1: ["7O"], p2: []}     # the act ended, no card paid


# -- the large board (4 to 6 players) and the Mod's second deck --------------------------------------

@pytest.fixture(scope="module")
def four_mod(tmp_path_factory):
    """A 4-seat match with the Mod (two decks: every card twice) on the large board, built once per module."""
    from twoxd6_helpers import build

    return build(tmp_path_factory.mktemp("twoxd6-four-mod"), ["Ann", "Ben", "Cid", "Dot"],
                 ["ann", "ben", "cid", "dot"], "-O", "mod")


@pytest.fixture
def quad(four_mod, tmp_path, monkeypatch):
    """A copy of the 4-seat Mod match; returns ``(doc, p1)``, Player 1's outermost cell being A1."""
    from twoxd6_helpers import copy, order

    doc = copy(four_mod, tmp_path, monkeypatch)
    assert _board_name(doc) == "large"
    return doc, order(doc)[0]


def _board_name(doc):
    from pbd.games.twoxd6 import GAME

    return GAME.parse(doc.read_text()).board.name


@pytest.mark.parametrize("players,extra,faces,pips", [
    (2, (), 5, 6), (3, (), 5, 6), (4, (), 4, 5), (5, (), 3, 5), (6, (), 3, 5),
    (4, ("-O", "mod"), 5, 6),                                     # the Mod deals the 2-player amounts
])
def test_each_player_count_is_dealt_its_faces_and_pips(pbd, tmp_path, players, extra, faces, pips):
    from twoxd6_helpers import build

    names = ["Ann", "Ben", "Cid", "Dot", "Eve", "Fay"][:players]
    doc = build(tmp_path, names, [n.lower() for n in names], *extra) / "match.txt"
    data, decks = pbd.json("show", doc), 2 if extra else 1           # a deck: 18 Faces and 36 Pips
    assert [p["hand"] for p in data["players"]] == [faces + pips] * players
    assert data["piles"] == {"faces": 18 * decks - players * faces, "pips": 36 * decks - players * pips}


# On the large board a straight row from A1 runs 4 cells closer to the Basic Square (C5:D6),
# so a limit one cell too long or too short moves or refuses a chain the rule does not.
@pytest.mark.parametrize("face,dest,ok", [
    ("JO", "A3", True), ("JO", "A4", False),                      # J: 2 linear cells, not 3
    ("KO", "A4", True), ("KO", "A5", False),                      # K: 3 linear cells, not 2 nor 4
    ("KO", "D4", True),                                           # ... diagonally too
    ("QG", "B4", True), ("QG", "A5", False),                      # Q: 3 cells with turns, not 4
    ("AO", "A5", True), ("AO", "B6", False),                      # A: 4 cells with turns, not 5
    ("10O", "B2", True), ("10O", "A3", False),                    # 10: 1 cell, not 2
])
def test_each_advancement_limit_on_the_large_board(pbd, quad, face, dest, ok):
    doc, p1 = quad
    position(doc, cells={"A1": (p1, [face])}, points=60)
    if ok:
        pbd("move", doc, "--as", p1, f"advance A1 to {dest}", ok=True)
        assert list(pbd.json("show", doc)["cells"]) == [dest]
    else:
        refused(pbd, doc, p1, f"advance A1 to {dest}", "cannot advance")


def test_an_equal_number_of_the_same_colour_is_not_lower(pbd, quad):
    doc, p1 = quad
    position(doc, cells={"A1": (p1, ["9G"])}, shown={p1: ["9G.2", "8G.2"]})
    refused(pbd, doc, p1, "play 9G.2 on A1", "must be lower")
    pbd("move", doc, "--as", p1, "play 8G.2 on A1", ok=True)
    assert pbd.json("show", doc)["cells"]["A1"]["cards"] == ["9G", "8G.2"]


# -- a board of the players' own (-O board=FILE) with corners adjacent (-O adjacency=8) ---------------------

#: 11 x 11 cells, the Basic Square the one cell F6: from A1 a diagonal line runs 5 cells towards it.
WIDE = """name = "wide"
columns = 11
rows = 11
basic = ["F6"]
central = [5, 6, 7]

[[layout]]
players = 2
seats = [
  { columns = [1, 2, 3, 4], outermost = "A1", forward = "right", up = "up" },
  { columns = [8, 9, 10, 11], outermost = "K11", forward = "left", up = "down" },
]
"""


@pytest.fixture(scope="module")
def wide_built(tmp_path_factory):
    """A 2-seat match on the 11 x 11 board above with ``-O adjacency=8``, built once per module."""
    from twoxd6_helpers import build

    base = tmp_path_factory.mktemp("twoxd6-wide")
    (base / "wide.toml").write_text(WIDE)
    return build(base, ["Ann", "Ben"], ["ann", "ben"], "-O", f"board={base / 'wide.toml'}", "-O", "adjacency=8")


@pytest.fixture
def wide(wide_built, tmp_path, monkeypatch):
    """A copy of the wide-board match: ``(doc, p1, p2)``."""
    from twoxd6_helpers import copy, order

    doc = copy(wide_built, tmp_path, monkeypatch)
    assert _board_name(doc) == "wide"
    return (doc, *order(doc))


def test_the_question_mark_advances_4_diagonal_cells_not_5(pbd, wide):
    doc, p1, _ = wide
    position(doc, cells={"A1": (p1, ["?C"])}, points=60)
    refused(pbd, doc, p1, "advance A1 to F6", "cannot advance")          # 5 diagonal cells, each one closer
    pbd("move", doc, "--as", p1, "advance A1 to E5", ok=True)
    assert list(pbd.json("show", doc)["cells"]) == ["E5"]


def test_with_adjacency_8_stacks_touching_at_a_corner_chain_and_take_cards_beside_them(pbd, wide):
    doc, p1, _ = wide
    position(doc, cells={"A1": (p1, ["QG"]), "B2": (p1, ["JG"])}, shown={p1: ["7O"]})
    assert pbd.json("show", doc)["chains"][p1] == [["B2", "A1"]]              # one chain (board order: top row first)
    assert f"Chains: {p1} B2+A1 (Gold)" in doc.read_text()
    pbd("move", doc, "--as", p1, "play 7O on C3", ok=True)                    # corner to corner with B2
    assert pbd.json("show", doc)["cells"]["C3"] == {"owner": p1, "cards": ["7O"]}


def test_with_side_adjacency_a_chain_s_colours_come_from_stacks_side_by_side(pbd, duel):
    """A1 and B2 (corner to corner) both hold Gold and Cyan Faces; the chain A1+A2+B2 is linked by Gold only, the
    colour that the side-by-side pairs A1-A2 and A2-B2 share."""
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["QG", "KC"]), "A2": (p1, ["JG"]), "B2": (p1, ["AG", "QC"])})
    assert f"Chains: {p1} B2+A1+A2 (Gold)" in doc.read_text()


# -- Targeting ------------------------------------------------------------------------------------

@pytest.mark.parametrize("face,source,target,pair,ok", [
    ("10O", "A1", "B2", False, True), ("10O", "A1", "A3", False, False),     # 10: 1 in any direction
    ("10O", "A2", "A1", False, True),                                        # ... backward too
    ("JO", "A1", "A3", False, True), ("JO", "A1", "A4", False, False),       # J: 2 forward or upward
    ("JO", "A3", "A1", False, False), ("JO", "A5", "A1", True, True),        # ... 4 any way on a pair
    ("JO", "A1", "A6", True, False),                                         # ... not 5
    ("QG", "A4", "A1", False, True), ("QG", "A1", "A5", False, False),       # Q: 3 in any direction
    ("KO", "A1", "A4", False, True), ("KO", "A4", "A1", False, False),       # K: 3 forward or upward
    ("KO", "A1", "A5", False, False),                                        # ... not 4
    ("AO", "A5", "A1", False, True), ("AO", "A1", "A6", False, False),       # A: 4 in any direction
    ("?C", "A1", "A5", False, True), ("?C", "A5", "A1", False, False),       # ?: 4 forward or upward
    ("?C", "A1", "A6", False, False),                                        # ... not 5
])
def test_each_targeting_distance(pbd, duel, face, source, target, pair, ok):
    doc, p1, p2 = duel
    position(doc, cells={source: (p1, [face]), target: (p2, ["4W"])}, roll=(3, 3) if pair else (3, 4))
    listed = [m for m in legal(pbd, doc, p1) if m.startswith(f"target {target} from {source} with ")]
    if ok:
        assert listed
        pbd("move", doc, "--as", p1, listed[0], ok=True)
    else:
        assert not listed
        refused(pbd, doc, p1, f"target {target} from {source} with 4", "out of targeting distance")


def test_a_target_is_taken_only_from_your_own_stack(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p2, ["KW"]), "B2": (p2, ["4W"])})
    refused(pbd, doc, p1, "target B2 from A2 with 7", f"A2 holds no stack of {p1}'s")
    refused(pbd, doc, p1, "target B2 from B1 with 7", f"B1 holds no stack of {p1}'s")


def test_only_an_opposing_stack_is_targeted(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p1, ["4W"]), "A3": (p2, ["KW"])})
    refused(pbd, doc, p1, "target A2 from A1 with 7", "A2 holds no opposing stack")     # your own
    refused(pbd, doc, p1, "target B2 from A1 with 7", "B2 holds no opposing stack")     # an empty cell


def test_a_targeting_is_marked_in_the_act_and_its_onyx_dice_hold_the_act(pbd, duel):
    """The act records that it targeted (a locked board counts on it); until the Onyx dice are rolled the acting
    player may do nothing else, and is told why."""
    doc, p1, p2 = duel
    position(doc, cells=_cells(OPERATORS, p1, p2))
    assert pbd.json("show", doc)["act"]["targeted"] is False
    pbd("move", doc, "--as", p1, "target A2 from A1 with 7*6", ok=True)
    assert pbd.json("show", doc)["act"]["targeted"] is True
    refused(pbd, doc, p1, "draw", f"{p1}'s Onyx dice wait on a fresh random value from another player")


def test_withdraw_with_no_targeting_to_withdraw_is_refused(pbd, duel):
    doc, p1, _ = duel
    position(doc)
    refused(pbd, doc, p1, "withdraw", "there is no targeting waiting for your Tc to withdraw")


def test_a_resistance_occupied_cell_in_the_pottle_blocks_and_each_pottle_cell_costs_1(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p2, ["2W"]), "A3": (p2, ["4W"])}, points=10)
    refused(pbd, doc, p1, "target A3 from A1 with 7", "passes Resistance-occupied A2")
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p1, ["5G"]), "A3": (p2, ["4W"])}, points=10)
    out = pbd("move", doc, "--as", p1, "target A3 from A1 with 7+6", ok=True).output  # own pottle card, Gold
    assert "Tc 7 + 6 = 13 against Rc 4" in out and "1 point(s), 9 left" in out


def test_a_pottle_card_of_another_core_colour_is_not_in_the_tc(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG"]), "A2": (p1, ["5O"]), "A3": (p2, ["4W"])}, points=10)
    refused(pbd, doc, p1, "target A3 from A1 with 7+5", "no card of power 5 may take part")


# -- the Tc, the window, the roll-off and what follows ------------------------------------------------

#: QG and 6G share the Targeting colour (Gold) and the core colour; 7O's Targeting colour is Onyx.
#: The defender's 8C (power 9) and 6P (power 5) share the Resistance colour Cyan: best Rc 9*5 = 45.
OPERATORS = {"A1": ("P1", ["QG", "6G", "7O"]), "A2": ("P2", ["8C", "6P"])}


def _cells(layout, p1, p2):
    return {cell: ({"P1": p1, "P2": p2}[owner], cards) for cell, (owner, cards) in layout.items()}


def test_tc_times_and_divide_need_one_targeting_colour_and_powers_the_core_colour_too(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells=_cells(OPERATORS, p1, p2))
    refused(pbd, doc, p1, "target A2 from A1 with 7*7", "Targeting")          # QG (Gold) x 7O (Onyx)
    refused(pbd, doc, p1, "target A2 from A1 with (7+6)*7", "sum")
    refused(pbd, doc, p1, "target A2 from A1 with 7^7", "Targeting")
    refused(pbd, doc, p1, "target A2 from A1 with 7*6/7", "Targeting")        # ÷ like ×
    refused(pbd, doc, p1, "target A2 from A1 with 7+7+7", "power 7")          # every card once
    out = pbd("move", doc, "--as", p1, "target A2 from A1 with 7*6", ok=True).output
    assert "Tc 7 * 6 = 42 against Rc 45" in out


def test_tc_exponent_between_two_cards_of_one_targeting_and_core_colour(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells=_cells(OPERATORS, p1, p2))
    refused(pbd, doc, p1, "target A2 from A1 with 6^7", "not within 10")     # accepted, 279936 is out of range


def test_the_tc_must_be_within_10_of_the_rc(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells=_cells(OPERATORS, p1, p2))
    refused(pbd, doc, p1, "target A2 from A1 with 7+6", "Tc 13 is not within 10 of A2's Rc 45")
    out = pbd("move", doc, "--as", p1, "target A2 from A1 with 7*6-7", ok=True).output   # 35 = 45 - 10
    assert "= 35 against Rc 45" in out


#: In the central columns (no toll for either player, whoever attacks).
ROLL_OFF = {"A3": ("P1", ["QG", "10P", "5O", "4C", "2C"]), "A4": ("P2", ["4W"])}


def _roll_off(pbd, two, tmp_path, monkeypatch, win):
    from twoxd6_helpers import roll_off

    doc, p1, p2 = roll_off(pbd, two, tmp_path, monkeypatch, lambda a, d: _cells(ROLL_OFF, a, d), "A3", "A4", win)
    data = pbd.json("show", doc)
    assert data["to_move"] == [p2] and data["decisions"][0]["answers"] == ["roll"]
    assert "Waiting on: " + p2 + " — roll 2 Wyte dice to resist" in doc.read_text()
    log = GAME.parse(doc.read_text()).meta.log
    onyx = next(e.number for e in log if "rolls the dice that waited — Onyx" in e.text)
    assert data["decisions"][0]["from"] == onyx                        # the entry that asks: the Onyx roll
    refused(pbd, doc, p1, "draw", f"waiting on {p2}")
    out = pbd("move", doc, "--as", p2, "roll", ok=True).output
    attack, defend = (int(x) for x in re.search(r"(\d+) (?:beats|does not beat) (\d+)", out).groups())
    assert (attack > defend) == win
    return doc, p1, p2


def test_a_won_roll_off_collects_the_stack_and_owes_a_face_or_10(pbd, two, tmp_path, monkeypatch):
    doc, p1, p2 = _roll_off(pbd, two, tmp_path, monkeypatch, win=True)
    data = pbd.json("show", doc)
    assert "A4" not in data["cells"] and data["shown"][p1] == ["4W"]
    assert f"Debt: {p1} to {p2} face" in doc.read_text()
    hand = hand_ids(pbd, doc, p1)
    pip = next(c for c in hand if c[0] in "23456789")
    face = next(c for c in hand if c[0] in "JQKA?")
    refused(pbd, doc, p1, "draw", f"a Face or 10 to {p2}")
    refused(pbd, doc, p1, f"give {pip} to {p2}", "could pay")
    refused(pbd, doc, p1, "show hand", "can pay every debt")
    pbd("move", doc, "--as", p1, f"give {face} to {p2}; draw", ok=True)
    assert pbd.json("show", doc)["shown"][p2] == [face]


def test_a_lost_roll_off_owes_a_face_and_a_pip_and_draws_a_cold_comfort_card(pbd, two, tmp_path, monkeypatch):
    doc, p1, p2 = _roll_off(pbd, two, tmp_path, monkeypatch, win=False)
    data = pbd.json("show", doc)
    assert data["cells"]["A4"]["cards"] == ["4W"]
    text = doc.read_text()
    assert f"Debt: {p1} to {p2} face" in text and f"Debt: {p1} to {p2} pip" in text
    hand = pbd.json("hand", doc, "--as", p1)["hand"]
    assert sum(h.endswith("(cold comfort)") for h in hand) == 1
    cold = next(h.split()[0] for h in hand if h.endswith("(cold comfort)"))
    refused(pbd, doc, p1, f"recycle {cold}", "cold-comfort")
    refused(pbd, doc, p1, f"give {cold} to {p2}", "cold-comfort")
    assert f"offer {cold}" not in " ".join(legal(pbd, doc, p1))
    free = [h.split()[0] for h in hand if not h.endswith("(cold comfort)")]
    face = next(c for c in free if c[0] in "JQKA?")
    pip = next(c for c in free if c[0] in "23456789")
    refused(pbd, doc, p1, "draw", f"a Face or 10 to {p2}, a Pip to {p2}")
    pbd("move", doc, "--as", p1, f"give {face} to {p2}; give {pip} to {p2}", ok=True)
    assert sorted(pbd.json("show", doc)["shown"][p2]) == sorted([face, pip])
    play = next(m for m in legal(pbd, doc, p1) if m.startswith(f"play {cold} "))     # played, it is allowed
    pbd("move", doc, "--as", p1, f"{play}; draw", ok=True)
    assert cold in pbd.json("show", doc)["cells"][play.split()[-1]]["cards"]


def test_a_10_owed_both_ways_pays_the_face_or_10_first(pbd, duel):
    """A 10 pays a Face/10 debt or a Pip debt; owing both, it pays the Face/10, so the Pip is still owed."""
    doc, p1, p2 = duel
    position(doc, shown={p1: ["10O", "QG", "7O"]}, debts=[(p1, p2, "face"), (p1, p2, "pip")])
    pbd("move", doc, "--as", p1, f"give 10O to {p2}", ok=True)
    assert f"Debt: {p1} to {p2} pip" in doc.read_text() and f"Debt: {p1} to {p2} face" not in doc.read_text()
    refused(pbd, doc, p1, f"give QG to {p2}", "no card QG could pay (owed: a Pip to")
    pbd("move", doc, "--as", p1, f"give 7O to {p2}; draw", ok=True)


def test_show_hand_clears_a_debt_nobody_could_pay(pbd, duel):
    doc, p1, p2 = duel
    position(doc, points=60, debts=[(p1, p2, "face")])
    leaders = [c for c in hand_ids(pbd, doc, p1) if c[0] in "JQKA?1"]
    refused(pbd, doc, p1, "show hand", "can pay every debt")
    pbd("move", doc, "--as", p1, "; ".join(f"recycle {c}" for c in leaders), ok=True)
    out = pbd("move", doc, "--as", p1, "show hand", ok=True).output
    assert f"no a Face or 10 to {p2}" in out
    assert "Debt:" not in doc.read_text()
    pbd("move", doc, "--as", p1, "draw", ok=True)


# -- dice ---------------------------------------------------------------------------------------------

def test_scene_1_rolls_the_sicherman_high_die_and_a_standard_die_and_a_pair_doubles(pbd, tmp_path):
    from twoxd6_helpers import build, rolls

    for i in range(2, 40):                       # the first seed whose order-of-acts roll is a pair
        base = build(tmp_path / f"s{i}", ["Ann", "Ben"], [f"pair{i}", "ben"])
        doc = base / "match.txt"
        log = pbd("log", doc).output
        if " pair = " in log:
            break
    written = rolls(log)
    assert len(written) == 2
    for high, low, total in written:
        assert high in dice.SICHERMAN_HIGH and low in dice.STANDARD
        assert total == (high + low) * (2 if high == low else 1) <= 24
    assert any(high == low for high, low, _ in written)
    assert log.count("d(1 3 4 5 6 8)=") == 2 and log.count("d6=") == 2    # the faces each die has


def test_the_order_of_acts_is_by_the_rolls_ties_in_seating_order(pbd, tmp_path):
    from twoxd6_helpers import build, order, rolls

    doc = build(tmp_path / "tie", ["Ann", "Ben"], ["pair0", "ben"]) / "match.txt"
    (_, _, ann), (_, _, ben) = rolls(pbd("log", doc).output)
    assert order(doc) == (["Ann", "Ben"] if ann >= ben else ["Ben", "Ann"])
    assert f"Order of acts: 1 {order(doc)[0]} (rolled {max(ann, ben)})" in doc.read_text()
    first, second = order(doc)
    assert f"; order of acts: 1 {first}, 2 {second}" in pbd("log", doc).output      # the log says it too


def test_the_acting_roll_gives_the_act_s_points(pbd, duel):
    from twoxd6_helpers import rolls

    doc, p1, _ = duel
    out = pbd("move", doc, "--as", p1, "roll", ok=True).output
    [(high, low, total)] = rolls(out)
    assert high in dice.SICHERMAN_HIGH and pbd.json("show", doc)["points"] == total
    refused(pbd, doc, p1, "roll", "has rolled this act already")


# -- Scene 4: trades ------------------------------------------------------------------------------------

def _offer_up(pbd, doc, p1):
    pbd("move", doc, "--as", p1, "roll; draw; offer", ok=True)


def test_a_single_offer_rejected_recycles_the_drawn_card(pbd, duel):
    doc, p1, p2 = duel
    _offer_up(pbd, doc, p1)
    recycled = pbd.json("show", doc)["piles"].get("recycled", 0)
    offer = legal(pbd, doc, p2)[0]
    pbd("move", doc, "--as", p2, offer, ok=True)
    assert legal(pbd, doc, p1) == ["accept", "reject"]
    out = pbd("move", doc, "--as", p1, "reject", ok=True).output
    assert "recycles the drawn card" in out
    data = pbd.json("show", doc)
    assert data["piles"]["recycled"] == recycled + 1 and data["acting"] == p2 and data["decisions"] == []
    assert offer.split()[1] in hand_ids(pbd, doc, p2)                     # the offered card stays with p2


def test_with_several_offers_the_best_card_is_taken(pbd, three, tmp_path, monkeypatch):
    from twoxd6_helpers import copy, order

    doc = copy(three, tmp_path, monkeypatch)
    p1, p2, p3 = order(doc)
    _offer_up(pbd, doc, p1)
    lowest = min(legal(pbd, doc, p2)[:-1], key=lambda m: _number(m.split()[1]))
    highest = max(legal(pbd, doc, p3)[:-1], key=lambda m: _number(m.split()[1]))
    assert _number(lowest.split()[1]) < _number(highest.split()[1])
    pbd("move", doc, "--as", p2, lowest, ok=True)
    out = pbd("move", doc, "--as", p3, highest, ok=True).output
    assert f"{p1} trades" in out and f"for {p3}'s {highest.split()[1]}" in out
    data = pbd.json("show", doc)
    assert highest.split()[1] in data["shown"][p1] and len(data["shown"][p3]) == 1 and data["shown"][p2] == []
    assert data["acting"] == p2


def test_with_no_offer_from_anyone_the_drawn_card_is_kept(pbd, three, tmp_path, monkeypatch):
    from twoxd6_helpers import copy, order

    doc = copy(three, tmp_path, monkeypatch)
    p1, p2, p3 = order(doc)
    _offer_up(pbd, doc, p1)
    pbd("move", doc, "--as", p3, "pass", ok=True)
    out = pbd("move", doc, "--as", p2, "pass", ok=True).output
    assert f"no offers: {p1} keeps the card" in out
    assert len(hand_ids(pbd, doc, p1)) == 12


def _number(card_id):
    return {"J": 11, "Q": 12, "K": 13, "A": 14, "?": 15}.get(card_id[0]) or int(card_id[:-1])


# -- winning ----------------------------------------------------------------------------------------------

def test_holding_the_basic_square_as_many_full_turns_as_there_are_players_wins(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"B3": (p1, ["QG"])})
    pbd("move", doc, "--as", p1, "draw", ok=True)
    assert f"Basic Square: {p1}, held 0 of 2" in doc.read_text()
    pbd("move", doc, "--as", p2, "roll; draw", ok=True)
    assert pbd.json("show", doc)["basic_square"] == {"holder": p1, "held": 1, "needed": 2}
    out = pbd("move", doc, "--as", p1, "roll; draw", ok=True).output
    assert f"{p1} wins: held the Basic Square for 2 full turns" in out
    data = pbd.json("show", doc)
    assert data["result"].startswith(f"{p1} wins") and data["to_move"] == [] and data["acting"] is None
    assert pbd.json("legal", doc, "--as", p2)["moves"] == []


def test_a_shared_basic_square_is_held_by_nobody(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells={"B3": (p1, ["QG"]), "B4": (p2, ["KP"])}, holder=p1, held=1)
    pbd("move", doc, "--as", p1, "draw", ok=True)
    assert pbd.json("show", doc)["basic_square"] == {"holder": None, "held": 0, "needed": 2}


# -- -O rc=stated: the defender states the Rc as a pending decision -------------------------------------

@pytest.fixture(scope="module")
def stated(tmp_path_factory):
    from twoxd6_helpers import build

    return build(tmp_path_factory.mktemp("twoxd6-stated"), ["Ann", "Ben"], ["ann", "ben"], "-O", "rc=stated")


def _stated(stated, tmp_path, monkeypatch, source="A3"):
    from twoxd6_helpers import copy, order

    doc = copy(stated, tmp_path, monkeypatch)
    p1, p2 = order(doc)
    position(doc, cells=_cells({source: ("P1", ["QG", "6G", "7O"]), "A4": ("P2", ["8C", "6P"])}, p1, p2))
    return doc, p1, p2


def test_without_the_option_a_target_needs_its_tc(pbd, duel):
    doc, p1, p2 = duel
    position(doc, cells=_cells(OPERATORS, p1, p2))
    refused(pbd, doc, p1, "target A2 from A1", "write the Tc")


def test_the_defender_states_the_rc_before_the_tc_is_written(pbd, stated, tmp_path, monkeypatch):
    doc, p1, p2 = _stated(stated, tmp_path, monkeypatch)
    assert "target A4 from A3" in legal(pbd, doc, p1)
    refused(pbd, doc, p1, "target A4 from A3 with 7*6", "the defender states the Rc first")
    pbd("move", doc, "--as", p1, "target A4 from A3", ok=True)
    assert f"Waiting on: {p2} — state your Rc for A4 against {p1}'s targeting from A3 (resist with CALC)" \
        in doc.read_text()
    data = pbd.json("show", doc)
    assert data["to_move"] == [p2] and legal(pbd, doc, p1) == []
    assert legal(pbd, doc, p2) == ["resist with 9*5"]                   # the best Rc, listed as a suggestion
    refused(pbd, doc, p1, "draw", f"waiting on {p2}")
    refused(pbd, doc, p2, "roll", "must first answer")
    refused(pbd, doc, p2, "resist with 9^5", "core")                     # 8C is Cyan, 6P Pink: no exponent
    refused(pbd, doc, p2, "resist with 9+9", "power 9")
    out = pbd("move", doc, "--as", p2, "resist with 9+5", ok=True).output   # a low Rc: the Tc must come near it
    assert "states Rc 9 + 5 = 14 for A4" in out
    data = pbd.json("show", doc)
    assert data["to_move"] == [p1]
    assert data["targeting"] == {"attacker": p1, "from": "A3", "target": "A4", "defender": p2, "tc": None,
                                 "tc_text": None, "rc": 14, "rc_text": "9 + 5", "onyx": None}
    assert legal(pbd, doc, p1) == ["target A4 from A3 with 7 + 6 + 7", "withdraw"]
    refused(pbd, doc, p1, "target A4 from A3 with 7*6", "Tc 42 is not within 10 of A4's Rc 14")
    refused(pbd, doc, p1, "draw", "write the Tc")
    pbd("move", doc, "--as", p1, "target A4 from A3 with 7+6+7", ok=True)
    pbd("status", doc, "--as", p2, ok=True)         # p2's pbd publishes the fresh value p1's Onyx dice wait on
    pbd("status", doc, "--as", p1, ok=True)         # p1's rolls them, and publishes one for p2's Wyte dice
    text = doc.read_text()                          # (they follow p2's Rc statement)
    assert f"{p1}: rolls the dice that waited — Onyx " in text and f"{p1}: a fresh random value for {p2}'s roll" in text
    assert legal(pbd, doc, p2) == ["roll"]
    out = pbd("move", doc, "--as", p2, "roll", ok=True).output
    assert re.search(r"(\d+) (beats|does not beat) (\d+)", out)
    assert pbd("check", doc).exit_code == 0


def test_an_announced_targeting_is_checked_and_marked_like_any(pbd, stated, tmp_path, monkeypatch):
    doc, p1, p2 = _stated(stated, tmp_path, monkeypatch)
    position(doc, cells=_cells({"A1": ("P1", ["10O"]), "A4": ("P2", ["8C", "6P"])}, p1, p2))
    refused(pbd, doc, p1, "target A4 from A1", "A4 is out of targeting distance of the chain of A1")   # a 10: 1 cell
    position(doc, cells=_cells({"A1": ("P1", ["QG"]), "A2": ("P1", ["KP"]), "A4": ("P2", ["8C", "6P"])}, p1, p2))
    pbd("move", doc, "--as", p1, "target A4 from A2", ok=True)
    assert pbd.json("show", doc)["act"]["targeted"] is True
    pbd("move", doc, "--as", p2, "resist with 9*5", ok=True)
    refused(pbd, doc, p1, "target A4 from A1 with 7", f"{p1} is targeting A4 from A2; write that Tc or 'withdraw'")


def test_the_acting_player_may_withdraw_once_the_rc_is_stated(pbd, stated, tmp_path, monkeypatch):
    doc, p1, p2 = _stated(stated, tmp_path, monkeypatch, source="A2")
    pbd("move", doc, "--as", p1, "target A4 from A2", ok=True)           # one pottle cell: 1 point
    pbd("move", doc, "--as", p2, "resist with 9*5", ok=True)
    assert legal(pbd, doc, p1) == ["target A4 from A2 with 7*6 + 7", "withdraw"]
    out = pbd("move", doc, "--as", p1, "withdraw", ok=True).output
    assert "withdraws the targeting of A4 (Rc 45 stated)" in out
    data = pbd.json("show", doc)
    assert data["points"] == 23 and "Targeting:" not in doc.read_text() and data["to_move"] == [p1]
    pbd("move", doc, "--as", p1, "draw", ok=True)


# -- pbd check on a hand-edited board ---------------------------------------------------------------------

def test_check_names_what_a_hand_edited_board_breaks(pbd, duel):
    doc, p1, _ = duel
    position(doc, cells={"A1": (p1, ["JG", "QG"]), "A2": (p1, ["ZZ"]), "B1": ("Eve", ["2C"])}, shown={p1: ["2C"]})
    result = pbd("check", doc)
    assert result.exit_code == 1
    for words in ("A1: QG on JG breaks the stacking order", "A2: ZZ is no card", "B1: Eve is not a player",
                  "2C appears 2 times"):
        assert words in result.output, result.output
    for move in ("play 2C on A1", "advance A1 to B2", "draw"):           # no move is made on such a board
        before = doc.read_bytes()
        result = pbd("move", doc, "--as", p1, move)
        assert result.exit_code == 3 and "names ZZ, which the standard deck does not have" in result.output
        assert doc.read_bytes() == before
    assert pbd("legal", doc, "--as", p1).exit_code == 3
    assert pbd("show", doc, "--json").exit_code == 0


# -- pbd show --svg ----------------------------------------------------------------------------------------

def test_show_svg_draws_the_grid_every_stack_and_the_basic_square(pbd, duel, tmp_path):
    import xml.etree.ElementTree as ET

    doc, p1, p2 = duel
    position(doc, cells={"A1": (p1, ["QG", "10P"]), "B3": (p2, ["KP"]), "C6": ("<Eve & co>", ["2C"])})
    before, picture = doc.read_bytes(), tmp_path / "board.svg"
    assert "picture written to" in pbd("show", doc, "--svg", picture, ok=True).output
    assert doc.read_bytes() == before
    root = ET.fromstring(picture.read_text())                       # well-formed, names escaped
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert {"10P", "KP", "2C", f"{p1[:8]} ×2", f"{p2[:8]} ×1", "<Eve & c ×1"} <= set(texts)
    assert {"A", "B", "C", "1", "6"} <= set(texts)
    rects = list(root.iter(f"{ns}rect"))
    assert len(rects) == 1 + 18 + 3                                  # the background, the 6 x 3 cells, three stacks
    assert sum(r.get("stroke-width") == "3" for r in rects) == 2     # the Basic Square B3:B4


@pytest.mark.long
def test_a_random_match_with_stated_rcs_replays_from_its_log(pbd, tmp_path):
    """Random play with -O rc=stated, preferring targetings; revealed and audited clean (the Rc answers replay)."""
    import random

    from pbd.games.twoxd6 import GAME, calc, rules

    doc = tmp_path / "m.txt"
    pbd("new", "2xd6", doc, "--as", "Ann", "--seed", "a", "-O", "rc=stated", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    rng, stated = random.Random(7), 0
    for _ in range(400):
        data = pbd.json("show", doc)
        if data["result"] or stated >= 2:
            break
        for who in data["to_move"]:                 # 'legal' first does the unlocks that seat's pbd owes
            moves = legal(pbd, doc, who)
            if moves:
                break
        keen = [m for m in moves if m.startswith(("target", "resist", "play", "advance"))]
        pick = rng.choice(keen if keen and rng.random() < 0.8 else moves)
        if pick.startswith("resist with"):                 # any Rc the chain reaches, not only the listed best
            state = GAME.parse(doc.read_text())
            others = [f"resist with {text}" for text in calc.reachable(rules.rc_pool(state, state.targeting.target))
                      .values() if f"resist with {text}" != pick]
            pick = rng.choice(others) if others else pick
            stated += bool(others)
        pbd("move", doc, "--as", who, pick, ok=True)
    assert stated, "no Rc other than the listed one came up"
    for name in ("Ann", "Ben"):
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    audited = pbd("audit", doc)
    assert audited.exit_code == 0, audited.output[-2000:]
    assert "every logged move replays to the board" in audited.output
