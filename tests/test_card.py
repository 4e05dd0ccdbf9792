"""pbd card NAME [--game G]: a card's full entry in words, for every game's catalogue."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("name, game, words", [
    ("spider-man", "cnc", ["Character · Hero · common", "Cost: 1 AP", "HP: 15", "Attack: Web Strike — Physical, "
                           "1 AP, 10 damage", "Text: "]),
    ("Captain America", "cnc", ["rare", "Ability: Heroic Resolve — passive"]),
    ("Virus", "ttc", ["Dark item", "Power: 6", "+5 Power when Doctor Sickle wields it", "against Don Triumph"]),
    ("Don Triumph Lvl 10", "ttc", ["Level 10 Don Triumph", "Power: 18"]),
    ("battle 1", "ttc", ["Battle Card", "Dark: Doctor Sickle (Power 7) with Virus (Power 6)"]),
    ("Vanished Cops", "cnc", ["Event · uncommon", "Cost: 2 AP", "Effects: the opponent's CP −20"]),
    ("Jack Bauer", "cnc", ["Ability: Interrogation — 1 AP: roll a d6: 4/5/6 → the opponent discards 1"]),
    ("street fighter", "boystown", ["AP (attack): 6", "TP (town points): 1", "Tags: kid, tough", "Battle: +1 AP"]),
    ("QG", "2xd6", ["Q Gold", "Face card", "Pips (cost to play): 6", "Power: 7", "Resistance colour: Onyx"]),
    ("rope", "tower", ["Rope — The Tower", "goes up one floor"]),
])
def test_every_game_has_its_card_text(pbd, name, game, words):
    out = pbd("card", name, ok=True).output
    assert f"({game})" in out
    for w in words:
        assert w in out
    assert pbd("card", name, "--game", game, ok=True).output == out


def test_a_misspelt_name_gets_did_you_mean(pbd):
    r = pbd("card", "Spider Mna")
    assert r.exit_code == 2 and "did you mean 'Spider-Man'" in r.output and "Traceback" not in r.output


def test_a_prefix_of_several_cards_is_ambiguous_and_names_them(pbd):
    r = pbd("card", "the")
    assert r.exit_code == 2 and "'The Porter'" in r.output


def test_game_limits_the_search_and_bad_game_is_a_usage_error(pbd):
    assert pbd("card", "Virus", "--game", "cnc").exit_code == 2
    r = pbd("card", "Virus", "--game", "chess")
    assert r.exit_code == 2 and "no card catalogue" in r.output


def test_words_without_quotes_and_json(pbd):
    assert "Web Strike" in pbd("card", "Spider", "Man", ok=True).output
    data = pbd.json("card", "Spider-Man")
    assert data["cards"][0]["game"] == "cnc" and data["cards"][0]["name"] == "Spider-Man"
