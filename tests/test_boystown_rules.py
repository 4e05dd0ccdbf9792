"""Boys' Town through the CLI, one test per rule sentence and per documented reading.

On the real shared deck (pbd.table): decks are stacked with :func:`arrange` (the test holds
every seat's seed), and after each move every other seat's pbd does the unlocks it owes.
"""

from __future__ import annotations

import re
import shutil

import pytest

from boystown_helpers import arrange, catch_up, discard_pile, hand_names, start
from conftest import moved_registry



@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """One 3-seat match started through the CLI (every seat has done its unlocks): (doc, PBD_HOME).

    Starting a match is most of a rule test's work (every seat's lock-and-shuffle pass of
    the 60 cards); each test gets a copy of this one (the document and every seat's
    private state), then stacks it with :func:`arrange`.
    """
    from conftest import Pbd

    base = tmp_path_factory.mktemp("started")
    mp = pytest.MonkeyPatch()
    mp.setenv("PBD_HOME", str(base / "pbd-home"))
    d = base / "match.txt"
    start(Pbd(), d, 3)
    catch_up(d)
    mp.undo()
    return d, base / "pbd-home"


@pytest.fixture
def doc(started, tmp_path):
    d = tmp_path / "match.txt"
    shutil.copytree(started[1], tmp_path / "pbd-home", dirs_exist_ok=True)
    shutil.copy(started[0], d)
    moved_registry(tmp_path / "pbd-home", started[0], d)
    return d


def move(pbd, doc, who, text, code=0):
    """Play as ``who``; then the other players' pbd do what they owe (their next command)."""
    r = pbd("move", doc, "--as", who, text)
    assert r.exit_code == code, r.output
    catch_up(doc)
    return r.output


def at_attack(doc, ann_hand, ben_hand, ann_town=(), ben_town=(), cy_hand=("Lemonade Stand",), phase="attack", **kw):
    """Ann to attack in round 2 (her second turn)."""
    arrange(doc, hands={"Ann": list(ann_hand), "Ben": list(ben_hand), "Cy": list(cy_hand)},
            towns={"Ann": list(ann_town), "Ben": list(ben_town)}, turn="Ann", phase=phase,
            turns={"Ann": 2, "Ben": 1, "Cy": 1}, **kw)


# -- game start -------------------------------------------------------------------------------

def test_each_player_is_dealt_4_cards_from_one_pile_and_the_rest_is_the_draw_pile(pbd, doc):
    data = pbd.json("show", doc)
    assert [p["hand"] for p in data["players"]] == [4, 4, 4]
    assert data["draw_pile"] == 60 - 12 and data["discard_pile"] == 0
    assert data["to_move"] == ["Ann"] and data["result"] is None
    assert data["round"] == 1 and data["phase"] == "draw"


def test_first_player_by_option(pbd, tmp_path):
    d = tmp_path / "m.txt"
    start(pbd, d, 2, "--first", "Ben")
    catch_up(d)
    assert pbd.json("show", d)["to_move"] == ["Ben"]
    # the rounds are counted from the first player: round 2 begins when the turn is back with Ben
    arrange(d, hands={"Ben": ["Town Clock", "Gym", "Bully", "Bouncer"], "Ann": ["Old Mill", "Gym", "Bully", "Paperboy"]})
    for who, card, after, round_ in (("Ben", "Town Clock", "Ann", 1), ("Ann", "Old Mill", "Ben", 2)):
        move(pbd, d, who, "draw")
        move(pbd, d, who, f"keep; build {card}")
        data = pbd.json("show", d)
        assert (data["to_move"], data["round"]) == ([after], round_), (who, data["to_move"], data["round"])


def test_first_player_by_lot_is_a_logged_roll_of_the_creators_pbd(pbd, tmp_path):
    d = tmp_path / "m.txt"
    names = start(pbd, d, 3, "--first", "random")
    assert "starts=random" in pbd.json("show", d)["options"]
    assert pbd.json("legal", d, "--as", "Ben")["moves"] == []     # nobody moves before the lot
    catch_up(d)                                                     # Ann's pbd rolls on her next command
    log = pbd("log", d).output
    m = re.search(r"Ann: first player by lot: (\d) on a 3-sided die \((\w+)\)", log)
    assert m and names[int(m.group(1)) - 1] == m.group(2)
    assert f"d3={m.group(1)} (first)" in log                        # the roll event, re-derived by pbd audit
    data = pbd.json("show", d)
    assert f"starts={m.group(2)}" in data["options"] and data["to_move"] == [m.group(2)]


def test_players_out_of_range_is_a_usage_error(pbd, tmp_path):
    d = tmp_path / "m.txt"
    r = pbd("new", "boystown", d, "--as", "Ann", "--players", "7")
    assert r.exit_code == 2 and not d.exists()


# -- draw phase ---------------------------------------------------------------------------------

def test_keep_adds_the_card_and_discards_the_next_one(pbd, doc):
    arrange(doc, draw=["Bully", "Arcade"])
    move(pbd, doc, "Ann", "draw")
    assert "Bully" in pbd("hand", doc, "--as", "Ann").output
    move(pbd, doc, "Ann", "keep")
    assert "Bully" in hand_names(doc, "Ann") and len(hand_names(doc, "Ann")) == 5
    assert discard_pile(doc) == ["Arcade"]


def test_redraw_discards_the_card_and_the_next_one_must_be_kept(pbd, doc):
    arrange(doc, draw=["Bully", "Arcade", "Gym"])
    before = pbd.json("show", doc)["draw_pile"]
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "redraw")
    assert discard_pile(doc) == ["Bully"]                   # no card milled, as a keep would
    hand = hand_names(doc, "Ann")
    assert "Arcade" in hand and len(hand) == 5 and "Gym" not in hand
    assert pbd.json("show", doc)["draw_pile"] == before - 2
    phase = next(line for line in doc.read_text().splitlines() if line.startswith("Phase:"))
    assert phase.startswith("Phase: build") and "redrawn" in phase, phase    # the board tells the others too
    # the second card is kept: the turn goes on to the Build Phase, with no second draw, keep or redraw
    assert not {"draw", "keep", "redraw"} & set(pbd.json("legal", doc, "--as", "Ann")["moves"])
    text = doc.read_bytes()
    for again in ("keep", "redraw", "draw"):
        out = move(pbd, doc, "Ann", again, code=1)
        assert "now: Build Phase" in out, out
    assert doc.read_bytes() == text


def test_an_empty_draw_pile_is_rebuilt_from_all_but_the_top_discard(pbd, doc):
    arrange(doc, draw=["Bully"], discard=["Arcade", "Gym", "Bake Sale"], leave=1)
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "redraw")
    assert discard_pile(doc) == ["Bully"]           # the topmost discard stays
    assert len(set(hand_names(doc, "Ann")) & {"Arcade", "Gym", "Bake Sale"}) == 1
    assert pbd.json("show", doc)["draw_pile"] == 2
    assert "draw pile rebuilt from 3 discards" in pbd("log", doc).output


def test_one_discard_and_no_draw_pile_rebuilds_nothing_and_skips_the_draws(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Bully", "Gym", "Arcade"]}, draw=[], discard=["Bake Sale"], leave=1)
    move(pbd, doc, "Ann", "draw")                   # the last card of the draw pile
    move(pbd, doc, "Ann", "keep; build Town Clock")
    log = pbd("log", doc).output
    assert "keep — keeps it; the next card of the draw pile is discarded; no card left to draw or discard: " \
           "skipped" in log
    assert "Ben's turn; no card left to draw: the Draw Phase is skipped" in log
    assert "rebuilt" not in log                     # the one discard is the top one: it stays
    data = pbd.json("show", doc)
    assert (data["draw_pile"], data["discard_pile"], data["discard_top"]) == (0, 1, "Bake Sale")
    assert (data["turn"], data["phase"]) == ("Ben", "build")


# -- build phase --------------------------------------------------------------------------------

def test_build_places_a_card_and_the_first_round_skips_the_attack(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Bully", "Gym", "Arcade"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Town Clock")
    data = pbd.json("show", doc)
    assert data["players"][0]["town"] == ["Town Clock"]
    assert data["to_move"] == ["Ben"]            # no Attack Phase in the first round
    assert "first round: no attack" in pbd("log", doc).output


def test_a_round_ends_when_every_seat_has_had_its_turn(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Bully", "Gym", "Paperboy"],
                        "Ben": ["Arcade", "Bully", "Paperboy", "Corner Shop"],
                        "Cy": ["Gym", "Paperboy", "Rusty Bike", "Street Fighter"]})
    for who, card, after, round_ in (("Ann", "Town Clock", "Ben", 1), ("Ben", "Arcade", "Cy", 1), ("Cy", "Gym", "Ann", 2)):
        move(pbd, doc, who, "draw")
        move(pbd, doc, who, f"keep; build {card}")
        data = pbd.json("show", doc)
        assert (data["to_move"], data["round"]) == ([after], round_), (who, data["to_move"], data["round"])


def test_extra_build_with_its_requirement(pbd, doc):
    arrange(doc, hands={"Ann": ["Corner Shop", "Arcade", "Bully", "Gym"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Corner Shop")
    assert "build Arcade" in pbd("legal", doc, "--as", "Ann").output
    r = pbd("move", doc, "--as", "Ann", "build Bully")
    assert r.exit_code == 1 and "must be a shop card" in r.output
    move(pbd, doc, "Ann", "build Arcade")
    assert pbd.json("show", doc)["players"][0]["town"] == ["Corner Shop", "Arcade"]
    assert pbd.json("show", doc)["to_move"] == ["Ben"]


def test_an_extra_build_that_allows_one_more_chains(pbd, doc):
    arrange(doc, hands={"Ann": ["Corner Shop", "Corner Shop", "Arcade", "Gym"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Corner Shop; build Corner Shop; build Arcade")
    data = pbd.json("show", doc)
    assert data["players"][0]["town"] == ["Corner Shop", "Corner Shop", "Arcade"] and data["to_move"] == ["Ben"]


def test_extra_builds_are_optional(pbd, doc):
    arrange(doc, hands={"Ann": ["Corner Shop", "Arcade", "Bully", "Gym"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Corner Shop; done")
    assert pbd.json("show", doc)["players"][0]["town"] == ["Corner Shop"]


def test_extra_build_penalty_applies_to_the_extra_card(pbd, doc):
    arrange(doc, hands={"Ann": ["Clubhouse", "Town Clock", "Bully", "Gym"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Clubhouse; build Town Clock")
    assert "Town Clock (#" in doc.read_text() and "TP 4 (-1 extra build penalty)" in doc.read_text()


def test_an_extra_build_penalty_can_skip_the_attack_phase(pbd, doc):
    at_attack(doc, ["School Bus", "Paperboy", "Street Fighter"], ["Arcade"], ben_town=["Town Clock"], phase="build")
    move(pbd, doc, "Ann", "build School Bus; build Paperboy")
    assert "extra build penalty: no Attack Phase this turn" in pbd("log", doc).output
    data = pbd.json("show", doc)
    assert data["players"][0]["town"] == ["School Bus", "Paperboy"] and data["to_move"] == ["Ben"]


def test_build_penalty_applies_when_built(pbd, doc):
    arrange(doc, hands={"Ann": ["Big Brother", "Town Clock", "Bully", "Gym"]})
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Big Brother")
    assert "Big Brother (#" in doc.read_text() and "TP -1 (-3 build penalty) · penalty" in doc.read_text()


def test_penalty_is_nullified_when_the_card_is_swapped_in(pbd, doc):
    arrange(doc, hands={"Ann": ["Graffiti Artist", "Big Brother", "Bully", "Gym"]},
            towns={"Ann": ["Town Clock"]}, turns={"Ann": 1})
    # build phase: swap Big Brother in?  Graffiti Artist is the Hand swap card: it goes in, a Resident comes out
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; swap Graffiti Artist with Town Clock")
    assert "Graffiti Artist (#" in doc.read_text() and "Town Clock" in hand_names(doc, "Ann")
    line = next(ln for ln in doc.read_text().splitlines() if "Graffiti Artist (#" in ln)
    assert "penalty" not in line                 # no Build effect, no penalty for a swap


def test_skip_attack_penalty(pbd, doc):
    at_attack(doc, ["Treehouse", "Bully"], ["Gym"], phase="build")
    move(pbd, doc, "Ann", "build Treehouse")
    assert pbd.json("show", doc)["to_move"] == ["Ben"]
    assert "no Attack Phase this turn" in pbd("log", doc).output


# -- hand battle --------------------------------------------------------------------------------

def test_hand_battle_higher_ap_wins_both_cards_discarded_loser_draws(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer", "Arcade"], draw=["Town Clock"])
    out = move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    assert "face down: Street Fighter" in out
    assert "Street Fighter" not in pbd("log", doc).output       # the log does not tell
    assert pbd.json("show", doc)["to_move"] == ["Ben"]
    move(pbd, doc, "Ben", "defend with Bouncer")      # Ann's pbd flips her card on her next command
    log = pbd("log", doc).output
    assert "Street Fighter (AP 7) against Bouncer (AP 5): Ann wins" in log
    assert discard_pile(doc) == ["Street Fighter", "Bouncer"]   # loser first, then the winner on top
    assert hand_names(doc, "Ben") == ["Arcade", "Town Clock"]    # the loser drew
    assert pbd.json("show", doc)["to_move"] == ["Ben"]


def test_pbd_watch_flips_the_attackers_face_down_card_with_nobody_typing(pbd, doc):
    """Issue 26: the flip a hand battle owes is a duty, so the attacker's `pbd watch DOC --once` pays it (and
    the unlocks the battle's draw then owes), and the battle resolves without Ann typing a command."""
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer", "Arcade"], draw=["Town Clock"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    pbd("move", doc, "--as", "Ben", "defend with Bouncer", ok=True)
    assert "Ann: flips" not in doc.read_text()
    watched = pbd("watch", doc, "--as", "Ann", "--once")
    assert watched.exit_code == 0, watched.output
    text = doc.read_text()
    assert "Ann: flips Street Fighter" in text and "Street Fighter (AP 7) against Bouncer (AP 5): Ann wins" in text


def test_a_hand_battle_is_answered_from_hand_even_by_a_defender_with_a_town(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer", "Arcade"], ben_town=["Town Clock"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    assert "Waiting on: Ben — defend against Ann with a card from hand" in doc.read_text()
    assert "defend with Bouncer" in pbd("legal", doc, "--as", "Ben").output.splitlines()


def test_hand_battle_tie_goes_to_the_attacker(pbd, doc):
    at_attack(doc, ["Bouncer", "Gym"], ["Bully", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Bouncer from hand")
    move(pbd, doc, "Ben", "defend with Bully")
    assert "Ann wins the tie" in pbd("log", doc).output


def test_defenders_effect_nullifies_the_tie_rule(pbd, doc):
    at_attack(doc, ["Bouncer", "Gym"], ["Bully", "Arcade"], ben_town=["Crossing Guard"])
    move(pbd, doc, "Ann", "attack Ben with Bouncer from hand")
    move(pbd, doc, "Ben", "defend with Bully")
    assert "Ben wins the tie" in pbd("log", doc).output


def test_winner_not_discarded_when_nullified(pbd, doc):
    at_attack(doc, ["Bully", "Gym"], ["Paperboy", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Bully from hand")
    move(pbd, doc, "Ben", "defend with Paperboy")
    assert "Bully" in hand_names(doc, "Ann") and discard_pile(doc) == ["Paperboy"]


def test_loser_does_not_draw_when_nullified(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Sore Loser", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    move(pbd, doc, "Ben", "defend with Sore Loser")
    assert hand_names(doc, "Ben") == ["Arcade"]


def test_loser_not_discarded_when_nullified(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Tough Kid", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    move(pbd, doc, "Ben", "defend with Tough Kid")
    assert "Tough Kid" in hand_names(doc, "Ben") and discard_pile(doc) == ["Street Fighter"]


def test_draw_order_effect_draws_before_the_loser(pbd, doc):
    at_attack(doc, ["Tattletale", "Gym"], ["Street Fighter", "Arcade"], draw=["Town Clock", "Bake Sale"])
    move(pbd, doc, "Ann", "attack Ben with Tattletale from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")
    log = pbd("log", doc).output
    assert log.index("Ben draws 1 (Battle effect of Tattletale)") < log.index("Ann draws 1 (lost the battle)")
    assert "Town Clock" in hand_names(doc, "Ben") and "Bake Sale" in hand_names(doc, "Ann")


def test_discard_order_effects_used_first(pbd, doc):
    at_attack(doc, ["Gym", "Arcade"], ["Street Fighter", "Paperboy"], ann_town=["Bodyguard"])
    move(pbd, doc, "Ann", "attack Ben with Gym from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")
    assert pbd("legal", doc, "--as", "Ann").output.split() == ["use", "Bodyguard", "pass"]
    move(pbd, doc, "Ann", "use Bodyguard")
    # Gym 2 + 3 = 5 against Street Fighter 6: Ben wins; Bodyguard, then Gym (loser), then Street Fighter
    assert discard_pile(doc) == ["Street Fighter", "Gym", "Bodyguard"]


def test_a_card_swapped_out_of_battle_loses_its_battle_effect(pbd, doc):
    at_attack(doc, ["Getaway Driver", "Gym"], ["Bully", "Arcade"], ann_town=["Big Brother"])
    move(pbd, doc, "Ann", "attack Ben with Getaway Driver from hand")
    move(pbd, doc, "Ben", "defend with Bully")
    move(pbd, doc, "Ann", "swap Getaway Driver with Big Brother")
    assert "Big Brother (AP 7) against Bully (AP 5): Ann wins" in pbd("log", doc).output
    assert pbd.json("show", doc)["players"][0]["town"] == ["Getaway Driver"]


def test_a_changed_face_down_card_is_caught(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    pbd("move", doc, "--as", "Ben", "defend with Bouncer", ok=True)     # Ann's pbd flips on her next command
    text = doc.read_text()
    n, commit = re.search(r"\n(\d+) · hex ([0-9a-f]{64}) ·", text).groups()   # the attack's commitment (machinery)
    other = ("0" if commit[0] != "0" else "1") + commit[1:]
    # the board's line shows no commitment (the log carries it); one typed there that is not the log's is caught
    edited = text.replace("Ann: face down (committed)", f"Ann: face down · commitment {other}")
    doc.write_text(edited)
    r = pbd("move", doc, "--as", "Ann", "flip")
    assert r.exit_code == 3 and "commitment" in r.output and "face-down card" in r.output
    assert doc.read_text() == edited
    # the log's commitment changed in the machinery: the entry's hash names it
    edited = text.replace(f"{n} · hex {commit}", f"{n} · hex {other}")
    doc.write_text(edited)
    r = pbd("move", doc, "--as", "Ann", "flip")
    assert r.exit_code == 3 and f"log entry {n}" in r.output, r.output
    assert doc.read_text() == edited


def test_only_an_opponent_holding_a_card_can_be_attacked_from_hand(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], [], ben_town=["Arcade"], cy_hand=[])
    legal = pbd("legal", doc, "--as", "Ann").output
    assert "attack Ben with Street Fighter from hand" not in legal
    r = pbd("move", doc, "--as", "Ann", "attack Ben with Street Fighter from hand")
    assert r.exit_code == 1


# -- town battle ---------------------------------------------------------------------------------

def test_town_battle_the_defender_chooses_a_resident(pbd, doc):
    at_attack(doc, ["Gym"], ["Arcade"], ann_town=["Old Mill"], ben_town=["Town Clock", "Fire Station"])
    move(pbd, doc, "Ann", "attack Ben with Old Mill from town")
    assert "Waiting on: Ben — defend against Ann with a Resident" in doc.read_text()
    legal = pbd("legal", doc, "--as", "Ben").output.splitlines()
    assert legal == ["defend with Town Clock", "defend with Fire Station"]
    move(pbd, doc, "Ben", "defend with Town Clock")
    assert "Old Mill (AP 3) against Town Clock (AP 1): Ann wins" in pbd("log", doc).output
    assert pbd.json("show", doc)["players"][1]["town"] == ["Fire Station"]     # the loser's card discarded
    assert pbd.json("show", doc)["players"][0]["town"] == ["Old Mill"]         # the winner's card stays


def test_town_battle_tie_goes_to_the_attacker_and_only_the_losers_card_is_discarded(pbd, doc):
    at_attack(doc, ["Gym"], ["Arcade"], ann_town=["Old Mill"], ben_town=["Old Mill", "Town Clock"])
    move(pbd, doc, "Ann", "attack Ben with Old Mill from town")
    move(pbd, doc, "Ben", "defend with Old Mill")
    assert "Old Mill (AP 3) against Old Mill (AP 3): Ann wins the tie" in pbd("log", doc).output
    data = pbd.json("show", doc)
    assert data["players"][0]["town"] == ["Old Mill"] and data["players"][1]["town"] == ["Town Clock"]
    assert discard_pile(doc) == ["Old Mill"] and len(hand_names(doc, "Ben")) == 2     # the loser drew


def test_a_guard_defends_and_takes_priority_over_the_attackers_effect(pbd, doc):
    at_attack(doc, ["Gym"], ["Arcade"], ann_town=["Gang Leader"], ben_town=["Town Clock", "Bouncer"])
    move(pbd, doc, "Ann", "attack Ben with Gang Leader from town")
    assert "Ben defends with Bouncer" in pbd("log", doc).output


def test_defend_with_the_weakest_when_the_attacker_says_so(pbd, doc):
    at_attack(doc, ["Gym"], ["Arcade"], ann_town=["Gang Leader"], ben_town=["Fire Station", "Town Clock"])
    move(pbd, doc, "Ann", "attack Ben with Gang Leader from town")
    assert "Ben defends with Town Clock" in pbd("log", doc).output


def test_an_empty_town_defends_from_hand(pbd, doc):
    at_attack(doc, ["Gym"], ["Arcade"], ann_town=["Old Mill"])
    move(pbd, doc, "Ann", "attack Ben with Old Mill from town")
    move(pbd, doc, "Ben", "defend with Arcade")
    assert "Old Mill (AP 3) against Arcade (AP 2): Ann wins" in pbd("log", doc).output


# -- game end and score ---------------------------------------------------------------------------

def test_emptying_the_hand_in_the_build_phase_ends_the_game_without_attack(pbd, doc):
    at_attack(doc, ["Town Clock"], ["Arcade"], phase="build")
    move(pbd, doc, "Ann", "build Town Clock")
    data = pbd.json("show", doc)
    assert data["result"] and data["to_move"] == []
    assert "Ann wins" in data["result"]


def test_emptying_the_hand_in_a_battle_ends_the_game_draws_still_happen(pbd, doc):
    at_attack(doc, ["Gym"], ["Street Fighter", "Arcade"], draw=["Town Clock"])
    move(pbd, doc, "Ann", "attack Ben with Gym from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")
    data = pbd.json("show", doc)
    assert data["result"] and hand_names(doc, "Ann") == ["Town Clock"]


def test_emptying_the_hand_with_a_hand_effect_ends_the_game_after_the_owed_draws(pbd, doc):
    at_attack(doc, ["Paperboy"], ["Arcade"], draw=["Town Clock"])
    move(pbd, doc, "Ann", "use Paperboy on Ben")
    data = pbd.json("show", doc)
    assert data["result"] and data["to_move"] == []
    assert "Town Clock" in hand_names(doc, "Ben")          # Paperboy's draw happened before the score


def test_a_hand_emptied_on_someone_elses_turn_does_not_end_the_game(pbd, doc):
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    move(pbd, doc, "Ben", "defend with Bouncer")
    assert pbd.json("show", doc)["result"] is None


def test_score_four_steps_with_goodcup_doubling_base_tp_only(pbd, doc):
    arrange(doc, hands={"Ann": ["Gym", "Arcade"]}, towns={"Ann": ["The John Goodcup", "Old Mill", "Mill Worker"]})
    data = pbd.json("score", doc)
    ann = data["scores"][0]
    assert ann["base"] == 3 + 4 + 2 and ann["goodcup"] and ann["after_goodcup"] == 18
    assert sum(b["tp"] for b in ann["bonuses"]) == 6        # Mill Town +3 on each card, not doubled
    assert ann["hand"] == 2 and ann["total"] == 18 + 6 - 6
    out = pbd("score", doc).output
    assert "2. The John Goodcup doubles base TP: 9 × 2 = 18" in out
    assert "4. 2 card(s) in hand × -3: 24 - 6 = 18" in out


def test_a_shared_top_score_is_a_shared_win(pbd, doc):
    at_attack(doc, ["Town Clock"], [], ben_town=["Old Mill", "Rusty Bike"], cy_hand=["Gym", "Bake Sale"],
              phase="build")
    move(pbd, doc, "Ann", "build Town Clock")
    assert pbd.json("show", doc)["result"].startswith("Ann and Ben share the win with 5 TP")


def test_adjust_is_logged_and_counted(pbd, doc):
    arrange(doc, towns={"Ann": ["Handyman", "Town Clock"]})
    move(pbd, doc, "Ann", "adjust Town Clock TP +1: Handyman")
    assert "adjusts Town Clock TP +1: Handyman" in pbd("log", doc).output
    assert any(b["why"] == "Town Clock: adjust" for b in pbd.json("score", doc)["scores"][0]["bonuses"])


# -- hand effects and notation ----------------------------------------------------------------------

def test_hand_effect_targets_any_opponent_but_not_yourself(pbd, doc):
    arrange(doc, hands={"Ann": ["Paperboy", "Gym"]})
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "use Paperboy on Ann")
    assert r.exit_code == 1 and "Paperboy's effect targets an opponent, not you" in r.output, r.output
    r = pbd("move", doc, "--as", "Ann", "use Paperboy")
    assert r.exit_code == 1 and "say which opponent: 'use Paperboy on NAME'" in r.output, r.output
    assert doc.read_bytes() == before
    move(pbd, doc, "Ann", "use Paperboy on Cy")
    assert pbd.json("show", doc)["players"][2]["hand"] == 5


def test_unknown_card_suggests(pbd, doc):
    move(pbd, doc, "Ann", "draw")
    before = doc.read_text()
    r = pbd("move", doc, "--as", "Ann", "keep; build Bouncr")
    assert r.exit_code == 2 and "did you mean" in r.output and doc.read_text() == before


def test_not_your_turn(pbd, doc):
    r = pbd("move", doc, "--as", "Ben", "draw")
    assert r.exit_code == 1 and "it is Ann's turn, not Ben's" in r.output


def test_check_lists_a_hand_edited_town(pbd, doc):
    arrange(doc, towns={"Ann": ["Old Mill"]})
    text = doc.read_text()
    (doc.parent / "edited.txt").write_text(text.replace("Old Mill (#", "Town Clock (#"))
    r = pbd("check", doc.parent / "edited.txt")
    assert r.exit_code == 1 and "not Town Clock" in r.output
    (doc.parent / "tp.txt").write_text(text.replace("· TP 4", "· TP 9"))
    r = pbd("check", doc.parent / "tp.txt")
    assert r.exit_code == 1 and "which the rules do not give" in r.output
    assert pbd("check", doc).exit_code == 0


# -- survivors of the mutation run (issue 32): one rule each, the one right outcome ------------------

def _phase_line(doc) -> str:
    return next(line for line in doc.read_text().splitlines() if line.startswith("Phase:"))


def test_keep_and_redraw_wait_until_the_others_unlock_the_drawn_card(pbd, doc):
    arrange(doc, draw=["Bully", "Arcade"])
    pbd("move", doc, "--as", "Ann", "draw", ok=True)            # Ben's and Cy's pbd have not unlocked it yet
    before = doc.read_bytes()
    for again in ("keep", "redraw"):
        r = pbd("move", doc, "--as", "Ann", again)
        assert r.exit_code == 1 and "you cannot see your drawn card yet" in r.output, r.output
        assert "waiting on Ben, Cy to unlock it" in r.output, r.output
    assert doc.read_bytes() == before
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == []
    catch_up(doc)
    move(pbd, doc, "Ann", "keep")
    assert "Bully" in hand_names(doc, "Ann")
    assert "redrawn" not in _phase_line(doc)        # only a redraw marks the turn


def test_the_build_phase_places_one_card_then_the_attack_phase_begins(pbd, doc):
    at_attack(doc, ["Old Mill", "Gym"], ["Arcade"], phase="build")
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "done")
    assert r.exit_code == 1 and "build a card first: every Build Phase places 1 card in your Town" in r.output, r.output
    assert doc.read_bytes() == before
    move(pbd, doc, "Ann", "build Old Mill")
    assert _phase_line(doc) == "Phase: attack · round 1 · built 1"
    # the rules never leave a Build Phase with its builds used up; a board edited back to one is refused first
    edited = doc.read_text().replace("Phase: attack · round 1 · built 1", "Phase: build · round 1 · built 1")
    doc.write_text(edited)
    r = pbd("move", doc, "--as", "Ann", "build Gym")
    assert r.exit_code == 3 and "phase was changed by hand from attack to build" in r.output, r.output
    assert doc.read_text() == edited


def test_a_build_effect_that_draws_is_no_emptied_hand(pbd, doc):
    at_attack(doc, ["Bake Sale"], ["Arcade"], phase="build", draw=["Gym"])
    move(pbd, doc, "Ann", "build Bake Sale")
    data = pbd.json("show", doc)
    assert data["result"] is None and hand_names(doc, "Ann") == ["Gym"]
    assert "Ann draws 1 (Build effect of Bake Sale)" in pbd("log", doc).output
    assert (data["turn"], data["phase"]) == ("Ann", "attack")


def test_a_build_effect_to_apply_by_hand_only_says_so(pbd, doc):
    at_attack(doc, ["Handyman", "Gym"], ["Arcade"], ann_town=["Town Clock"], phase="build", draw=["Bully", "Bouncer"])
    piles = pbd.json("show", doc)["draw_pile"]
    move(pbd, doc, "Ann", "build Handyman")
    entry = next(line for line in pbd("log", doc).output.splitlines() if "build Handyman" in line)
    assert "Ann: build Handyman — builds Handyman; Handyman: move 1 TP from one of your Residents to another — " \
           "apply it with 'adjust' · " in entry, entry
    data = pbd.json("show", doc)
    assert hand_names(doc, "Ann") == ["Gym"] and (data["draw_pile"], data["discard_pile"]) == (piles, 0)


def test_a_turn_move_during_the_attackers_own_battle_window_is_refused(pbd, doc):
    at_attack(doc, ["Gym", "Arcade", "Bully"], ["Street Fighter", "Paperboy"], ann_town=["Bodyguard"])
    move(pbd, doc, "Ann", "attack Ben with Gym from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")
    before = doc.read_bytes()
    for text in ("build Arcade", "draw"):         # the battle is not settled: no move of a phase
        r = pbd("move", doc, "--as", "Ann", text)
        assert r.exit_code == 1 and "the battle is not over: Ann's turn, battle; 'pbd legal' lists" in r.output, \
            r.output
    assert doc.read_bytes() == before
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == ["use Bodyguard", "pass"]


def test_a_card_without_the_hand_effect_named_is_refused(pbd, doc):
    arrange(doc, hands={"Ann": ["Gym", "Graffiti Artist", "Bully", "Arcade"]}, towns={"Ann": ["Town Clock"]})
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "swap Gym with Town Clock")
    assert r.exit_code == 1 and "Gym has no Hand swap effect" in r.output, r.output
    r = pbd("move", doc, "--as", "Ann", "use Graffiti Artist")
    assert r.exit_code == 1 and "Graffiti Artist has no Hand effect to use this way" in r.output, r.output
    assert "a Hand swap is written 'swap CARD with RESIDENT'" in r.output
    assert doc.read_bytes() == before


def test_a_card_named_from_an_empty_hand_or_town_says_it_is_empty(pbd, doc):
    arrange(doc, hands={"Ann": []}, towns={"Ben": ["Town Clock"]})
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "use Paperboy on Ben")
    assert r.exit_code == 1 and "Paperboy is not in your hand" in r.output and "your hand: empty" in r.output, r.output
    r = pbd("move", doc, "--as", "Ann", "adjust Old Mill TP +1: Handyman")
    assert r.exit_code == 1 and "Old Mill is not in Ann's Town" in r.output and "Ann's Town: empty" in r.output, r.output
    assert doc.read_bytes() == before


def test_an_emptied_draw_pile_is_rebuilt_as_the_next_turn_begins_and_drawn_from_once_shuffled(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Bully", "Gym", "Arcade"]}, draw=["Old Mill", "Bouncer"],
            discard=["Bake Sale", "Rusty Bike", "Fire Station"], leave=2)
    move(pbd, doc, "Ann", "draw")
    # the keep turns Bouncer up (face down until Ben's and Cy's pbd unlock it); the rest is rebuilt at once
    pbd("move", doc, "--as", "Ann", "keep; build Town Clock", ok=True)
    entry = next(line for line in pbd("log", doc).output.splitlines() if "Ann: build Town Clock" in line)
    assert "Ben's turn; draw pile rebuilt from 3 discards (the top discard stays)" in entry, entry
    assert "draw" not in pbd.json("legal", doc, "--as", "Ben")["moves"]       # Cy has not shuffled it in yet
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ben", "draw")
    assert r.exit_code == 1 and "the draw pile is still being shuffled" in r.output and "waiting on Cy" in r.output, \
        r.output
    assert doc.read_bytes() == before
    catch_up(doc)
    assert "draw" in pbd.json("legal", doc, "--as", "Ben")["moves"]
    move(pbd, doc, "Ben", "draw")
    data = pbd.json("show", doc)
    assert (data["draw_pile"], data["discard_pile"], data["discard_top"]) == (2, 1, "Bouncer")


def test_a_discard_still_face_down_under_the_top_waits_before_the_rebuild(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Paperboy", "Gym", "Arcade"]}, draw=["Bully", "Old Mill", "Bouncer"],
            leave=3)
    move(pbd, doc, "Ann", "draw")
    # the keep turns Old Mill up, face down until Ben's and Cy's pbd unlock it; Paperboy goes on top, Cy draws Bouncer
    pbd("move", doc, "--as", "Ann", "keep; use Paperboy on Cy; build Town Clock", ok=True)
    log = pbd("log", doc).output
    assert "rebuilt" not in log and "Draw Phase is skipped" not in log        # Ben's Draw Phase waits
    assert "draw" not in pbd.json("legal", doc, "--as", "Ben")["moves"]     # Cy's pbd still owes its unlock
    catch_up(doc)
    assert "draw pile rebuilt from 1 discards (the top discard stays)" in pbd("log", doc).output
    data = pbd.json("show", doc)
    assert (data["turn"], data["phase"], data["draw_pile"], data["discard_pile"], data["discard_top"]) == \
           ("Ben", "draw", 1, 1, "Paperboy")
    move(pbd, doc, "Ben", "draw")
    assert "Old Mill" in pbd("hand", doc, "--as", "Ben").output


def test_the_last_card_of_the_draw_pile_is_drawn_in_the_next_draw_phase(pbd, doc):
    arrange(doc, hands={"Ann": ["Town Clock", "Bully", "Gym", "Arcade"]}, draw=["Bully", "Old Mill", "Gym"], leave=3)
    move(pbd, doc, "Ann", "draw")
    move(pbd, doc, "Ann", "keep; build Town Clock")
    data = pbd.json("show", doc)
    assert (data["turn"], data["phase"], data["draw_pile"], data["discard_pile"]) == ("Ben", "draw", 1, 1)
    move(pbd, doc, "Ben", "draw")
    assert "Gym" in pbd("hand", doc, "--as", "Ben").output


def test_a_build_waits_for_the_card_a_redraw_owes_to_an_empty_hand(pbd, doc):
    arrange(doc, hands={"Ann": ["Paperboy"]}, draw=["Bully"], discard=["Arcade", "Gym", "Bake Sale"], leave=1)
    move(pbd, doc, "Ann", "draw")
    pbd("move", doc, "--as", "Ann", "redraw", ok=True)      # the draw pile is rebuilt; Ann's card waits for the shuffle
    pbd("move", doc, "--as", "Ann", "use Paperboy on Ben", ok=True)     # Ben's card waits too, after Ann's
    assert "Ann draws 1 (redraw)" not in pbd("log", doc).output
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "build Arcade")
    assert r.exit_code == 1 and "your card is still on its way" in r.output, r.output
    assert doc.read_bytes() == before
    catch_up(doc)
    log = pbd("log", doc).output
    assert log.index("Ann draws 1 (redraw)") < log.index("Ben draws 1 (Hand effect of Paperboy)")
    held = hand_names(doc, "Ann")
    assert len(held) == 1 and held[0] in {"Arcade", "Gym", "Bake Sale"}
    assert pbd.json("show", doc)["result"] is None


def test_after_the_flip_the_defender_may_use_an_optional_effect_first(pbd, doc):
    at_attack(doc, ["Gym", "Arcade"], ["Street Fighter", "Paperboy"], ann_town=["Bodyguard"], ben_town=["Bodyguard"])
    move(pbd, doc, "Ann", "attack Ben with Gym from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")
    assert "Waiting on: Ben — use an optional effect in the battle, or pass" in doc.read_text()
    assert pbd.json("show", doc)["to_move"] == ["Ben"]
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] == ["use Bodyguard", "pass"]
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == []
    move(pbd, doc, "Ben", "pass")
    assert "Waiting on: Ben" not in doc.read_text()
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == ["use Bodyguard", "pass"]


def test_a_match_document_without_its_deck_section_is_refused_as_mangled(pbd, doc):
    """The Deck section holds every card of the match: a document that lost it is mangled (exit 3, named),
    never a board of empty hands nor a fault of the game's replay."""
    text = doc.read_text()
    cut = doc.parent / "no-deck.txt"
    cut.write_text(text[:text.index("\nDeck\n")] + "\n")
    before = cut.read_bytes()
    for command in (("show",), ("check",), ("legal", "--as", "Ann"), ("move", "--as", "Ann", "done")):
        r = pbd(command[0], cut, *command[1:])
        assert r.exit_code == 3, (command, r.output)
        assert "the match has no 'Deck' section" in r.output and "version history" in r.output, r.output
        assert cut.read_bytes() == before


def test_the_picture_says_whose_move_while_seats_join_and_before_a_flip(pbd, doc, tmp_path):
    from svg_helpers import picture, texts

    fresh = tmp_path / "joining.txt"
    pbd("new", "boystown", fresh, "--as", "Ann", "--players", "2", "--seed", "svg", ok=True)
    assert texts(picture(pbd, fresh, tmp_path / "joining.svg"))[1] == "waiting for 1 more player(s) to join"
    at_attack(doc, ["Street Fighter", "Gym"], ["Bouncer", "Arcade"])
    move(pbd, doc, "Ann", "attack Ben with Street Fighter from hand")
    pbd("move", doc, "--as", "Ben", "defend with Bouncer", ok=True)         # Ann's pbd flips on her next command
    line = texts(picture(pbd, doc, tmp_path / "flip.svg"))[1]
    assert line.endswith("waiting on Ann to flip their face-down card"), line


#: A player's own catalogue with Hand effects the bundled one lacks: a draw for yourself, and two effects on one card.
OWN_HAND_EFFECTS = """\
[catalogue]
name = "hand-effects"

[[card]]
name = "Kid"
ap = 2
tp = 1
copies = 10

[[card]]
name = "Shop"
ap = 0
tp = 3
copies = 8

[[card]]
name = "Lemonade"
ap = 1
tp = 1
copies = 3
text = "Hand: discard Lemonade: you draw 1 card."
effects = [{ kind = "hand", do = "draw", count = 1 }]

[[card]]
name = "Junk Cart"
ap = 1
tp = 1
copies = 3
text = "Hand: discard Junk Cart: discard the top card of the draw pile (its second effect is never used this way)."
effects = [{ kind = "hand", do = "mill", count = 1 }, { kind = "hand", do = "draw", count = 2 }]
"""


def test_a_hand_effect_that_draws_for_yourself_and_the_first_of_two_hand_effects(pbd, tmp_path):
    own = tmp_path / "own.toml"
    own.write_text(OWN_HAND_EFFECTS)
    d = tmp_path / "m.txt"
    start(pbd, d, 2, "--deck", own)
    catch_up(d)
    arrange(d, hands={"Ann": ["Lemonade", "Junk Cart", "Kid", "Kid"]}, draw=["Shop", "Kid"])
    move(pbd, d, "Ann", "use Lemonade")
    assert "use Lemonade — uses Lemonade: Ann draws 1" in pbd("log", d).output
    assert sorted(hand_names(d, "Ann")) == ["Junk Cart", "Kid", "Kid", "Shop"]
    move(pbd, d, "Ann", "use Junk Cart")
    assert "use Junk Cart — uses Junk Cart: 1 card(s) of the draw pile discarded" in pbd("log", d).output
    assert discard_pile(d) == ["Kid", "Junk Cart", "Lemonade"] and len(hand_names(d, "Ann")) == 3


def test_a_hand_emptied_by_the_build_waits_for_the_owed_discard_and_allows_no_second_build(pbd, doc):
    arrange(doc, hands={"Ann": []}, draw=["Bully"], discard=["Arcade", "Gym", "Bake Sale"], leave=1)
    move(pbd, doc, "Ann", "draw")
    # the keep owes a discard from the draw pile, which is rebuilt and must be shuffled first
    pbd("move", doc, "--as", "Ann", "keep; build Bully", ok=True)
    assert _phase_line(doc) == "Phase: build · round 1 · built 1 · emptied Ann"
    assert pbd.json("legal", doc, "--as", "Ann")["moves"] == []
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Ann", "build Gym")
    assert r.exit_code == 1 and "you have built this turn; no effect allows another build" in r.output, r.output
    assert doc.read_bytes() == before
    catch_up(doc)
    data = pbd.json("show", doc)
    assert data["result"] and "Ann wins" in data["result"] and data["discard_pile"] == 2
