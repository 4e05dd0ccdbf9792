"""Twin Tower City through the CLI on real files: deal, flips, turn order, variations, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest


def start(pbd, tmp_path, *options, first=None):
    """Start a match (Lia, Light, against Max) in ``tmp_path``; return its document.

    The match is the same every time (seeds given), so it is made once per test run and copied.
    """
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = folder / "match.txt"
        args = ["new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "lia"]
        for o in options:
            args += ["-O", o]
        if first:
            args += ["--first", first]
        pbd(*args, ok=True)
        pbd("join", doc, "--as", "Max", "--seed", "max", ok=True)
        return doc

    return copy_of_setup(("ttc", options, first), tmp_path, build)


def hand(pbd, doc, who):
    return pbd.json("hand", doc, "--as", who)


def ids(data):
    return [int(re.match(r"\w+ (\d+)", h).group(1)) for h in data["hand"]]


def legal(pbd, doc, who):
    return pbd.json("legal", doc, "--as", who)["moves"]


def step(pbd, doc, pick=lambda moves: moves[0], players=("Lia", "Max")):
    """Make one legal move for whoever has one; return (player, move) or None at the end."""
    for who in players:
        moves = legal(pbd, doc, who)
        if moves:
            move = pick(moves)
            pbd("move", doc, "--as", who, move, ok=True)
            return who, move
    return None


@pytest.fixture
def finished(ttc_finished):
    """The Twin Tower City match played to the end once per test run (tests/conftest.py's ``ttc_finished``)."""
    return ttc_finished


def finished_copy(finished, tmp_path):
    """Return this test's own copy of the finished match (document and every seat's private state)."""
    import shutil

    from conftest import moved_registry

    shutil.copytree(finished / "pbd-home", tmp_path / "pbd-home", dirs_exist_ok=True)
    shutil.copy(finished / "match.txt", tmp_path / "match.txt")
    moved_registry(tmp_path / "pbd-home", finished, tmp_path)
    return tmp_path / "match.txt"


def test_deal_gives_each_player_twelve_private_cards_and_keeps_round_cards_secret(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    assert "Turn: round 1: flip (waiting for Lia)" in text
    assert text.count("card 1: face down") == 10
    before = hand(pbd, doc, "Max")
    assert before["hand"] == [] and "Lia" in before["note"]          # Lia's unlocks are still owed
    lia = hand(pbd, doc, "Lia")                                       # Lia's pbd publishes her unlocks first
    max_ = hand(pbd, doc, "Max")
    assert len(lia["hand"]) == len(max_["hand"]) == 12
    assert lia["holding"] == max_["holding"] == "8 Battle, 3 Army, 1 Warrior"
    assert not set(ids(lia)) & set(ids(max_))
    text = doc.read_text()
    shown = {int(n) for n in re.findall(r": card (\d+)", text)} | {int(n) for n in re.findall(r"battle (\d+) ·", text)}
    assert not shown & set(ids(lia) + ids(max_)), "a hand card is visible in the document"
    assert "Hands: Lia 8 Battle, 3 Army, 1 Warrior; Max 8 Battle, 3 Army, 1 Warrior" in text


def test_flip_reveals_only_the_current_pair_and_they_are_in_nobodys_hand(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    assert legal(pbd, doc, "Max") == []
    assert legal(pbd, doc, "Lia") == ["flip"]
    out = pbd("move", doc, "--as", "Lia", "flip", ok=True).output
    text = doc.read_text()
    assert text.count("card 1: face down") == 8
    pair = [int(n) for n in re.findall(r"^  (?:Light|Dark) card 1: battle (\d+)", text, re.MULTILINE)]
    assert len(pair) == 2
    assert f"round 1 face up: Light battle {pair[0]}, Dark battle {pair[1]}" in out     # the flip says what it turned up
    assert not set(pair) & set(ids(hand(pbd, doc, "Lia")) + ids(hand(pbd, doc, "Max")))
    assert "Turn: round 1, card 2: Light to play (Lia)" in text


def _play_rounds(pbd, doc, rounds, pick=lambda m: m[0]):
    order = []
    while True:
        text = doc.read_text()
        m = re.search(r"^Turn: round (\d+)", text, re.MULTILINE)
        if not m or int(m.group(1)) > rounds:
            return order
        made = step(pbd, doc, pick)
        if made is None:
            return order
        if made[1].startswith("play"):
            order.append((int(m.group(1)), made[0]))


def test_first_player_alternates_card_to_card_and_round_to_round(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    order = _play_rounds(pbd, doc, 2)
    assert order == [(1, "Lia"), (1, "Max"), (1, "Max"), (1, "Lia"), (2, "Max"), (2, "Lia"), (2, "Lia"), (2, "Max")]


def test_first_option_lets_the_opponent_begin(pbd, tmp_path):
    doc = start(pbd, tmp_path, first="Max")
    assert "First: Dark" in doc.read_text()
    assert _play_rounds(pbd, doc, 1)[:2] == [(1, "Max"), (1, "Lia")]


def test_first_random_is_decided_by_the_round_one_pair(pbd, tmp_path):
    doc = start(pbd, tmp_path, first="random")
    assert "First: Random" in doc.read_text()
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    text = doc.read_text()
    a, b = (int(n) for n in re.findall(r"^  (?:Light|Dark) card 1: battle (\d+)", text, re.MULTILINE))
    assert f"First: {'Light' if (a + b) % 2 == 0 else 'Dark'}" in text


def test_a_full_match_ends_with_a_result_and_no_legal_moves(pbd, tmp_path, finished):
    doc = finished_copy(finished, tmp_path)
    text = doc.read_text()
    assert re.search(r"^Turn: over: (Light wins|Dark wins|the match is drawn)", text, re.MULTILINE)
    assert legal(pbd, doc, "Lia") == legal(pbd, doc, "Max") == []
    shown = pbd.json("show", doc)
    assert len([r for r in shown["rounds"] if r["finished"]]) == 5
    won = shown["rounds_won"]
    assert won["light"] + won["dark"] + sum(r["winner"] is None for r in shown["rounds"]) == 5
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Lia", "play battle 1")
    assert r.exit_code == 1 and "over" in r.output and doc.read_bytes() == before


@pytest.mark.parametrize("who,move,code,words", [
    ("Lia", "dance a jig", 2, "cannot read the move"),
    ("Lia", "play battle 999", 1, "not a card of this deck"),
    ("Max", "play battle 1", 1, "Light's turn"),
    ("Lia", "nullify Flag", 1, "no item to nullify"),
    ("Lia", "flip", 1, "nothing for you to flip"),
    ("Ben", "flip", 2, "not playing"),
])
def test_rejected_moves_name_the_problem_and_leave_the_file_byte_identical(pbd, tmp_path, who, move, code, words):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    hand(pbd, doc, "Max")
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", who, move)
    assert r.exit_code == code, r.output
    assert words in r.output
    assert doc.read_bytes() == before


def test_cards_must_be_in_hand_and_specials_only_as_third_card(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    mine = hand(pbd, doc, "Lia")
    theirs = ids(hand(pbd, doc, "Max"))
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Lia", f"play battle {theirs[0]}")
    assert r.exit_code == 1 and "not in your hand" in r.output
    army = next(i for i, h in zip(ids(mine), mine["hand"]) if h.startswith("army"))
    r = pbd("move", doc, "--as", "Lia", f"play army {army} replacing Don Triumph with Patriot Anon")
    assert r.exit_code == 1 and "third card" in r.output
    battles = [i for i, h in zip(ids(mine), mine["hand"]) if h.startswith("battle")]
    r = pbd("move", doc, "--as", "Lia", f"play battle {battles[0]}; play battle {battles[1]}")
    assert r.exit_code == 1 and "Dark's turn" in r.output       # all or nothing
    r = pbd("move", doc, "--as", "Lia", f"play battle {battles[0]} replacing Eagle Eye")
    assert r.exit_code == 1 and "a Battle Card replaces nobody" in r.output
    assert doc.read_bytes() == before


def test_army_and_warrior_cards_replace_own_warriors_struck_out_on_the_board(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    for _ in range(3):     # flip, Lia card 2, Max card 2
        step(pbd, doc)
    moves = legal(pbd, doc, "Max")
    army = next(m for m in moves if m.startswith("play army") and ", " in m)
    pbd("move", doc, "--as", "Max", army, ok=True)
    m = re.match(r"play army (\d+) replacing (.+) with (.+), (.+) with (.+)", army)
    text = doc.read_text()
    assert f"Dark card 3 (Max): army {m.group(1)} · ~~{m.group(2)}~~ -> {m.group(3)}, ~~{m.group(4)}~~ -> " \
           f"{m.group(5)}" in text
    assert re.search(rf"· dark ~~{re.escape(m.group(2))}~~ \+", text)       # the coin on top
    score = pbd.json("score", doc)["score"]["dark"]["lines"]
    assert any(x["status"] == "replaced" and x["name"] == m.group(2) for x in score)
    warrior = next(x for x in legal(pbd, doc, "Lia") if x.startswith("play warrior"))
    pbd("move", doc, "--as", "Lia", warrior, ok=True)
    assert re.search(r"Light card 3 \(Lia\): warrior \d+ · ~~.+~~ -> Level \d+ ", doc.read_text())


def test_a_mangled_board_is_refused_with_its_line_and_left_alone(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    text = doc.read_text().replace("Light card 1: battle", "Light card 1: battel", 1)
    doc.write_text(text)
    r = pbd("move", doc, "--as", "Lia", "play battle 1")
    assert r.exit_code == 3 and "line " in r.output
    assert doc.read_text() == text


def slot_line(text, sid):
    return re.search(rf"^  slot {sid} .*$", text, re.MULTILINE).group(0)


def test_a_tampered_deal_is_detected(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    a, b = slot_line(text, 6), slot_line(text, 7)         # two of Lia's hand cards, unlocked by Max
    doc.write_text(text.replace(b, a.replace("slot 6 ", "slot 7 ")))
    r = pbd("hand", doc, "--as", "Lia")
    assert r.exit_code == 3 and ("the shared deck does not verify" in r.output or "corrupt" in r.output
                                 or "deal lines are not as log entry" in r.output)


def test_join_takes_no_deck_and_refuses_a_different_one(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", ok=True)
    from pbd.games.ttc.catalogue import bundled_dir

    (tmp_path / "mine.toml").write_text((bundled_dir() / "sample.toml").read_text().replace("power = 18", "power = 19"))
    other = tmp_path / "other.txt"
    other.write_text("catalogue: mine.toml\nbattle 1-50\narmy 101-120\nwarrior 201-210\n")
    r = pbd("join", doc, "--as", "Max", "--deck", other)
    assert r.exit_code == 2 and "different deck" in r.output
    pbd("join", doc, "--as", "Max", "--deck", "sample", ok=True)
    r = pbd("join", doc, "--as", "Ann")
    assert r.exit_code == 1 and "full" in r.output


def test_new_refuses_unknown_options_and_missing_deck(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    r = pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "-O", "turbo")
    assert r.exit_code == 2 and "unknown Twin Tower City option" in r.output and not doc.exists()
    r = pbd("new", "ttc", doc, "--as", "Lia")
    assert r.exit_code == 2 and "--deck" in r.output and not doc.exists()


# -- variations ----------------------------------------------------------------------------

def test_variation_face_up_reveals_all_five_pairs_at_the_start(pbd, tmp_path):
    doc = start(pbd, tmp_path, "face-up")
    hand(pbd, doc, "Lia")                                  # Lia's pbd publishes what it owes
    text = doc.read_text()
    assert "Options: face-up" in text and "face down" not in text
    assert len(re.findall(r"^  (?:Light|Dark) card 1: battle \d+", text, re.MULTILINE)) == 10
    order = _play_rounds(pbd, doc, 2)
    assert [who for _, who in order] == ["Lia", "Max", "Max", "Lia", "Max", "Lia", "Lia", "Max"]
    assert "flip" not in " ".join(m for m in legal(pbd, doc, "Lia") + legal(pbd, doc, "Max"))


def test_variation_open_hands_shows_both_hands_on_the_board(pbd, tmp_path):
    doc = start(pbd, tmp_path, "open-hands")
    hand(pbd, doc, "Lia")
    text = doc.read_text()
    for who in ("Lia", "Max"):
        line = re.search(rf"^  {who}: (.+)$", text.split("Open hands")[1], re.MULTILINE).group(1)
        assert sorted(int(x) for x in line.split(", ")) == sorted(ids(hand(pbd, doc, who)))


def test_variation_no_environments(pbd, tmp_path):
    doc = start(pbd, tmp_path, "no-environments")
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    data = pbd.json("score", doc)["score"]
    envs = [x for side in ("light", "dark") for x in data[side]["lines"] if x["kind"] == "environment"]
    assert envs and all(x["status"] == "off" and x["value"] == 0 for x in envs)
    assert "Options: no-environments" in doc.read_text()


def test_variation_no_bonuses(pbd, tmp_path):
    doc = start(pbd, tmp_path, "no-bonuses")
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    for _ in range(4):
        step(pbd, doc)
    data = pbd.json("score", doc)["score"]
    for side in ("light", "dark"):
        lines = data[side]["lines"]
        assert all(not x["bonuses"] for x in lines)
        assert data[side]["total"] == sum(x["base"] for x in lines if x["kind"] != "environment" and not x["status"])


# -- team play -----------------------------------------------------------------------------

def test_team_play_two_a_side_deals_every_player_a_private_share(pbd, tmp_path):
    doc = tmp_path / "team.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "-O", "team=2", ok=True)
    for who in ("Max", "Ann", "Bo"):
        pbd("join", doc, "--as", who, ok=True)
    text = doc.read_text()
    assert "Players: Lia (Light), Max (Dark), Ann (Light), Bo (Dark)" in text
    for who in ("Lia", "Max", "Ann"):
        assert legal(pbd, doc, who) == ["flip"]
        pbd("move", doc, "--as", who, "flip", ok=True)
    hands = {who: ids(hand(pbd, doc, who)) for who in ("Lia", "Max", "Ann", "Bo")}
    assert all(len(h) == 6 for h in hands.values())
    everything = [c for h in hands.values() for c in h]
    assert len(set(everything)) == 24
    assert "Turn: round 1, card 2: Light to play (Lia, Ann)" in doc.read_text()
    # either Light player may play Light's card
    card = next(c for c in hands["Ann"] if c <= 50)
    pbd("move", doc, "--as", "Ann", f"play battle {card}", ok=True)
    assert f"Light card 2 (Ann): battle {card}" in doc.read_text()
    r = pbd("move", doc, "--as", "Lia", f"play battle {hands['Lia'][0]}")
    assert r.exit_code == 1 and "Dark's turn" in r.output


# -- score on hand-made boards ---------------------------------------------------------------

HAND_MADE = """\
Twin Tower City
Catalogue: sample

Round 1
  Light: battle 1
  Dark: dark doctor sickle + virus / light don triumph + shield of liberty / env twin towers
  Dark: army 104 · Doctor Sickle -> Night Broker
"""


def test_score_reads_a_board_typed_by_hand(pbd, tmp_path):
    doc = tmp_path / "table.txt"
    doc.write_text(HAND_MADE)
    r = pbd("score", doc, ok=True)
    assert "Round 1 (so far)" in r.output
    assert "Virus (Dark's battle): 6 +5 wielded by Doctor Sickle +5 against Don Triumph = 16" in r.output
    data = pbd.json("score", doc)
    assert data["round"] == 1 and data["score"]["light"]["total"] + data["score"]["dark"]["total"] > 0
    assert doc.read_text() == HAND_MADE
    assert pbd("show", doc).exit_code == 0


def test_score_on_the_blank_template(pbd, tmp_path):
    out = tmp_path / "blank.txt"
    pbd("template", "ttc", "-o", out, ok=True)
    r = pbd("score", out, ok=True)
    assert "nothing to score" in r.output


@pytest.mark.parametrize("bad,code,words", [
    ("  Light: battle 1\n  Dark: dark Doctr Sickle + Virus / light Don Triumph + Flag / env Twin Towers\n", 3,
     "did you mean 'Doctor Sickle'"),
    ("  Light: battle 999\n", 3, "unknown battle card"),
    ("  Light: batle 1\n", 3, "line 5"),
    ("  Light: battle 1\n  Light: army 104 · Blamtifa Thug -> Night Broker\n", 3, "dark card"),
])
def test_a_bad_hand_made_board_gets_a_clear_message(pbd, tmp_path, bad, code, words):
    doc = tmp_path / "table.txt"
    doc.write_text("Twin Tower City\nCatalogue: sample\n\nRound 1\n" + bad)
    r = pbd("score", doc)
    assert r.exit_code == code, r.output
    assert words in r.output


def test_check_lists_broken_rules_on_a_hand_made_board(pbd, tmp_path):
    doc = tmp_path / "table.txt"
    doc.write_text("Twin Tower City\n\nRound 1\n  Light: battle 1\n  Dark: battle 2\n  Light: army 111 · "
                   "Eagle Eye -> Liberty Belle\nRound 2\n  Light: battle 1\n  Dark: battle 3\n  Light: battle 4\n")
    r = pbd("check", doc, "--game", "ttc")
    assert r.exit_code == 1
    assert "battle 1 is played twice" in r.output
    assert "Army and Warrior Cards can only be the third card" in r.output
    assert "round 2 has cards while round 1 is not finished" in r.output


def test_score_json_is_json(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    data = json.loads(pbd("score", doc, "--json", ok=True).stdout)
    assert set(data["score"]) == {"light", "dark", "leader"}


def test_check_passes_on_a_match_in_progress(pbd, tmp_path):
    doc = start(pbd, tmp_path, "face-up")
    for _ in range(4):
        step(pbd, doc)
    r = pbd("check", doc)
    assert r.exit_code == 0, r.output


def test_the_creator_may_take_the_dark_side(pbd, tmp_path):
    doc = start(pbd, tmp_path, "side=dark")
    text = doc.read_text()
    assert "Players: Lia (Dark), Max (Light)" in text and "First: Dark" in text
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    assert "card 2: Dark to play (Lia)" in doc.read_text()


def test_the_readme_hand_made_example_scores(pbd, tmp_path):
    readme = (Path(__file__).parent.parent / "docs" / "ttc.md").read_text()
    block = readme.split("```\nTwin Tower City\n", 1)[1].split("```", 1)[0]
    doc = tmp_path / "table.txt"
    doc.write_text("Twin Tower City\n" + block)
    r = pbd("score", doc, ok=True)
    assert "~~Cabal Enforcer~~ (battle 17): 0 — replaced by Blamtifa Thug (army 104)" in r.output


@pytest.mark.parametrize("edit,words", [
    (lambda t: t.replace("seats Lia, Max", "seats Lia, Zed"), "but the players are Lia, Max"),
    (lambda t: re.sub(r"^  slot 7 .*\n", "", t, flags=re.MULTILINE), "slot 7, which has no slot line"),
    (lambda t: re.sub(r"^(  slot \d+ \S+ · )2 ", r"\g<1>3 ", t, count=1, flags=re.MULTILINE), "a seat number"),
])
def test_a_damaged_deal_section_is_a_format_error(pbd, tmp_path, edit, words):
    doc = start(pbd, tmp_path)
    text = edit(doc.read_text())
    doc.write_text(text)
    r = pbd("move", doc, "--as", "Lia", "flip")
    assert r.exit_code == 3 and words in r.output, r.output
    assert doc.read_text() == text


def test_a_played_card_that_was_never_dealt_to_the_player_is_caught_by_their_pbd(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    mine = ids(hand(pbd, doc, "Lia"))
    card = next(c for c in mine if c <= 50)
    pbd("move", doc, "--as", "Lia", f"play battle {card}", ok=True)
    theirs = next(c for c in ids(hand(pbd, doc, "Max")) if c <= 50)
    from pbd.games.ttc.catalogue import load_catalogue

    cat = load_catalogue("sample")
    doc.write_text(doc.read_text().replace(cat.describe(cat.cards[card]), cat.describe(cat.cards[theirs])))
    r = pbd("hand", doc, "--as", "Lia")
    assert r.exit_code == 3 and "never dealt" in r.output


def test_after_both_reveal_check_audits_the_whole_deal(pbd, tmp_path, finished):
    doc = finished_copy(finished, tmp_path)
    pbd("reveal", doc, "--as", "Lia", ok=True)
    pbd("reveal", doc, "--as", "Max", ok=True)
    assert pbd("check", doc).exit_code == 0
    text = doc.read_text()
    m = re.search(r"^  Light card 2 \(Lia\): battle (\d+) ·.*$", text, re.M)
    other = re.search(r"^  Dark card 2 \(Max\): (battle \d+ ·.*)$", text, re.M)
    doc.write_text(text.replace(m.group(0), f"  Light card 2 (Lia): {other.group(1)}", 1))
    r = pbd("check", doc)
    assert r.exit_code == 1 and "which the deal never gave Lia" in r.output


def test_replay_and_audit_rebuild_a_finished_match_and_spot_a_hand_edit(pbd, tmp_path, finished):
    doc = finished_copy(finished, tmp_path)
    r = pbd("replay", doc)
    assert r.exit_code == 0 and "exactly this board" in r.output
    pbd.audit_clean(doc)
    text = doc.read_text()
    played = {int(n) for n in re.findall(r"card [23] \((?:Lia|Max)\): battle (\d+)", text)}
    unplayed = next(i for i in range(1, 51) if i not in played and f"card {i}\n" not in text)
    m = re.search(r"^  Light card 2 \(Lia\): battle (\d+) ·.*$", text, re.M)
    from pbd.games.ttc.catalogue import load_catalogue

    cat = load_catalogue("sample")
    edited = text.replace(m.group(0), "  Light card 2 (Lia): " + cat.describe(cat.cards[unplayed]), 1)
    doc.write_text(edited)
    r = pbd("replay", doc)
    assert r.exit_code == 1 and f"battle {m.group(1)}" in r.output
    assert doc.read_text() == edited


def test_undo_takes_back_a_play_but_never_a_flip(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    r = pbd("undo", doc, "--as", "Lia")
    assert r.exit_code == 1 and "cannot be taken back" in r.output
    before = doc.read_text()
    move = legal(pbd, doc, "Lia")[0]
    pbd("move", doc, "--as", "Lia", move, ok=True)
    pbd("undo", doc, "--as", "Lia", ok=True)
    after = doc.read_text()
    assert after.split("\nLog\n")[0] == before.split("\nLog\n")[0]
    assert move in legal(pbd, doc, "Lia")


# -- turn order, specials and the round's end, move by move (issue 32: each holds a line of ttc/rules.py) -----------

def third_card(pbd, tmp_path):
    """Return round 1 at Dark's card 3: Lia flipped, played battle 24 and Max battle 2 (the seeded deal of ``start``).

    Light's Eagle Eye is on the table twice (cards 1 and 2): one of them is nullified.  Made once per test run.
    """
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = start(pbd, folder)
        pbd("move", doc, "--as", "Lia", "flip", ok=True)
        pbd("move", doc, "--as", "Lia", "play battle 24", ok=True)
        pbd("move", doc, "--as", "Max", "play battle 2", ok=True)
        return doc

    doc = copy_of_setup(("ttc third card",), tmp_path, build)
    assert "Turn: round 1, card 3: Dark to play (Max)" in doc.read_text()
    return doc


def test_nothing_is_flipped_or_played_before_every_player_has_joined(pbd, tmp_path):
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = folder / "match.txt"
        pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "lia", ok=True)
        return doc

    doc = copy_of_setup(("ttc created, nobody joined",), tmp_path, build)
    before = doc.read_bytes()
    for move in ("flip", "play battle 1"):
        r = pbd("move", doc, "--as", "Lia", move)
        assert r.exit_code == 1 and "the match has not started: waiting for players to join" in r.output, r.output
        assert doc.read_bytes() == before
    assert legal(pbd, doc, "Lia") == []


def test_a_card_played_before_the_rounds_pair_is_flipped_names_who_must_flip(pbd, tmp_path):
    # "Both players flip their Round 1 Battle Cards": Max's pbd turned them when he dealt, Lia's has not yet
    doc = start(pbd, tmp_path)
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Lia", "play battle 24")
    assert r.exit_code == 1 and "flip first: the round's face-down pair is not revealed yet" in r.output, r.output
    r = pbd("move", doc, "--as", "Max", "play battle 2")
    assert r.exit_code == 1 and "round 1 has not been flipped yet: waiting for Lia to flip" in r.output, r.output
    assert doc.read_bytes() == before


@pytest.mark.parametrize("move,words", [
    # a Warrior Card replaces one warrior (the rulebook: "any one of the player's own warriors")
    ("play warrior 209 replacing Iron Regent, Rot Baron", "a Warrior Card replaces one warrior"),
    # an Army Card replaces "any TWO of their own Warriors": not three, and not none
    ("play army 104 replacing Iron Regent with Doctor Sickle, Rot Baron with Night Broker, Cabal Enforcer with "
     "Blamtifa Thug", "an Army Card replaces one or two of your warriors"),
    ("play army 104", "an Army Card replaces one or two of your warriors"),
    # "with any TWO of the five Warriors depicted on the Army Card"
    ("play army 104 replacing Iron Regent with Madame Static", "Madame Static is not one of them"),
    ("play army 104 replacing Iron Regent with Doctor Sickle, Rot Baron with Doctor Sickle",
     "each warrior of army 104 can come in once, not Doctor Sickle twice"),
])
def test_army_and_warrior_cards_swap_only_as_the_rulebook_allows(pbd, tmp_path, move, words):
    doc = third_card(pbd, tmp_path)
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Max", move)
    assert r.exit_code == 1 and words in r.output, r.output
    assert doc.read_bytes() == before


def test_an_army_card_may_bring_in_a_warrior_it_also_replaces(pbd, tmp_path):
    # two different warriors come in: Rot Baron (for Iron Regent), then Doctor Sickle for the Rot Baron already there
    doc = third_card(pbd, tmp_path)
    pbd("move", doc, "--as", "Max", "play army 104 replacing Iron Regent with Rot Baron, Rot Baron with Doctor Sickle",
        ok=True)
    assert "Dark card 3 (Max): army 104 · ~~Iron Regent~~ -> Rot Baron, ~~Rot Baron~~ -> Doctor Sickle" \
        in doc.read_text()


def test_a_round_ends_once_each_side_has_nullified_then_its_result_and_the_next_flip(pbd, tmp_path):
    """"If there are more Light Items on the board than Light Warriors ... the Light player must decide which ...
    Items is also to be nullified": the round is scored only once both sides chose; its last mover turns round 2."""
    doc = third_card(pbd, tmp_path)
    assert pbd("move", doc, "--as", "Max", "play battle 9", ok=True).output.splitlines()[0] == "play battle 9"
    out = pbd("move", doc, "--as", "Lia", "play battle 27", ok=True).output.splitlines()
    assert out[:2] == ["play battle 27", "Now: Turn: round 1: Light must nullify and Dark must nullify"]
    out = pbd("move", doc, "--as", "Max", "nullify Iron Decree", ok=True).output.splitlines()
    assert out[:2] == ["nullify Iron Decree", "Now: Turn: round 1: Light must nullify"]      # not scored yet
    shown = pbd.json("show", doc)
    assert shown["rounds"][0]["finished"] is False and shown["rounds_won"] == {"light": 0, "dark": 0}
    before = doc.read_bytes()
    r = pbd("move", doc, "--as", "Max", "nullify Rot Spores")                  # Dark has chosen: one item only
    assert r.exit_code == 1 and "Dark has no item to nullify now" in r.output, r.output
    assert doc.read_bytes() == before
    out = pbd("move", doc, "--as", "Lia", "nullify Flag", ok=True).output.splitlines()
    assert out[:3] == ["nullify Flag", "round 1: Light 90, Dark 88 — Light wins the round",
                       "flip round 2: unlocked 2 cards"]
    assert "Turn: round 2: flip (waiting for Max)" in doc.read_text()
    shown = pbd.json("show", doc)
    assert shown["rounds_won"] == {"light": 1, "dark": 0} and shown["winner"] is None     # four rounds to go


def test_the_last_move_of_a_match_announces_its_result(finished):
    text = (finished / "match.txt").read_text()
    result = re.search(r"^Turn: over: (.+)$", text, re.MULTILINE).group(1)
    assert re.search(r"(Light wins the match|Dark wins the match|the match is drawn) \(Light \d round\(s\), Dark \d\)",
                     result)
    last = [ln for ln in text.split("\nLog\n", 1)[1].split("\n\n", 1)[0].splitlines() if re.match(r"\d+\. ", ln)][-1]
    assert last.endswith(f"; {result}"), last


def _typed_rounds(*rounds):
    lines = ["Twin Tower City", "Catalogue: sample", ""]
    for n, cards in enumerate(rounds, 1):
        lines += [f"Round {n}", *(f"  {('Light', 'Dark')[i % 2]}: battle {c}" for i, c in enumerate(cards))]
    return "\n".join(lines) + "\n"


LIGHT_WINS, DARK_WINS, LEVEL = [21, 39, 30, 8, 17, 14], [9, 40, 43, 44, 45, 6], [23, 40, 27, 32, 13, 36]


def test_the_match_result_on_boards_typed_by_hand(pbd, tmp_path):
    """"After five rounds, the player who won the most rounds is victorious": a 1-1 match with three level
    rounds is drawn; one round won is no winner yet."""
    doc = tmp_path / "table.txt"
    doc.write_text(_typed_rounds(LIGHT_WINS, DARK_WINS, LEVEL, LEVEL, LEVEL))
    shown = pbd.json("show", doc)
    assert [r["winner"] for r in shown["rounds"]] == ["light", "dark", None, None, None]
    assert shown["turn"] == "over: the match is drawn (Light 1 round(s), Dark 1)" and shown["winner"] is None
    doc.write_text(_typed_rounds(LIGHT_WINS))
    shown = pbd.json("show", doc)
    assert shown["rounds_won"] == {"light": 1, "dark": 0} and shown["winner"] is None
