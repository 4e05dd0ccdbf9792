"""Twin Tower City scoring: one test per rule sentence of issue 4 (and the rulebook's examples).

Each test would fail if its rule were dropped from :mod:`pbd.games.ttc.score`.
"""

from __future__ import annotations

import pytest

from pbd.errors import IllegalMoveError
from pbd.games.ttc.catalogue import parse_catalogue
from pbd.games.ttc.score import score_round
from pbd.games.ttc.state import Options, Play

CATALOGUE = """
[[warrior]]
name = "Doctor Sickle"
side = "dark"
power = 7
[[warrior]]
name = "Blamtifa Thug"
side = "dark"
power = 3
[[warrior]]
name = "Night Broker"
side = "dark"
power = 6
[[warrior]]
name = "Rot Baron"
side = "dark"
power = 7
[[warrior]]
name = "Grim Ledger"
side = "dark"
power = 5
[[warrior]]
name = "Don Triumph"
side = "light"
power = 9
[[warrior]]
name = "Patriot Anon"
side = "light"
power = 4
[[warrior]]
name = "Liberty Belle"
side = "light"
power = 6
[[warrior]]
name = "Old Glory"
side = "light"
power = 8
[[warrior]]
name = "Eagle Eye"
side = "light"
power = 5
[[item]]
name = "Virus"
side = "dark"
power = 6
bonus = [{ wielder = "Doctor Sickle", plus = 5 }, { against = "Don Triumph", plus = 5 }]
[[item]]
name = "Bribe"
side = "dark"
power = 2
[[item]]
name = "Flag"
side = "light"
power = 2
bonus = [{ wielder = "Patriot Anon", plus = 5 }]
[[item]]
name = "Shield"
side = "light"
power = 4
[[environment]]
name = "Twin Towers"
side = "light"
power = 3
[[environment]]
name = "Subway"
side = "dark"
power = 2
[[battle]]
id = 1
dark_warrior = "Doctor Sickle"
dark_item = "Virus"
light_warrior = "Don Triumph"
light_item = "Shield"
environment = "Twin Towers"
[[battle]]
id = 3
dark_warrior = "Night Broker"
dark_item = "Bribe"
light_warrior = "Liberty Belle"
light_item = "Shield"
environment = "Subway"
[[battle]]
id = 4
dark_warrior = "Blamtifa Thug"
dark_item = "Bribe"
light_warrior = "Don Triumph"
light_item = "Flag"
environment = "Twin Towers"
[[battle]]
id = 5
dark_warrior = "Blamtifa Thug"
dark_item = "Virus"
light_warrior = "Liberty Belle"
light_item = "Shield"
environment = "Subway"
[[battle]]
id = 6
dark_warrior = "Doctor Sickle"
dark_item = "Bribe"
light_warrior = "Patriot Anon"
light_item = "Flag"
environment = "Subway"
[[army]]
id = 101
side = "dark"
warriors = ["Doctor Sickle", "Blamtifa Thug", "Night Broker", "Rot Baron", "Grim Ledger"]
[[army]]
id = 111
side = "light"
warriors = ["Don Triumph", "Patriot Anon", "Liberty Belle", "Old Glory", "Eagle Eye"]
[[levelled]]
id = 201
side = "light"
warrior = "Patriot Anon"
level = 3
power = 7
[[levelled]]
id = 202
side = "light"
warrior = "Don Triumph"
level = 10
power = 18
"""
CAT = parse_catalogue(CATALOGUE, "test")


def battle(card_id: int, side: str = "light") -> Play:
    c = CAT.cards[card_id]
    return Play(side, "battle", c.id, "", c.dark_warrior, c.dark_item, c.light_warrior, c.light_item, c.environment)


def special(kind: str, card_id: int, side: str, *swaps) -> Play:
    return Play(side, kind, card_id, "", swaps=list(swaps))


def line(score, side: str, name: str, nth: int = 0):
    return [e for e in score.side(side).entries if e.name == name][nth]


def test_every_warrior_and_item_counts_its_base_power():
    s = score_round([battle(3)], CAT)
    assert (line(s, "light", "Liberty Belle").value, line(s, "light", "Shield").value) == (6, 4)
    assert (line(s, "dark", "Night Broker").value, line(s, "dark", "Bribe").value) == (6, 2)
    assert s.light.total == 6 + 4 and s.dark.total == 6 + 2 + 2     # + Subway, Dark's environment


def test_rulebook_virus_wielded_by_doctor_sickle_against_don_triumph_is_16():
    s = score_round([battle(1)], CAT)
    virus = line(s, "dark", "Virus")
    assert virus.value == 6 + 5 + 5 == 16
    assert [why for _, why in virus.bonuses] == ["wielded by Doctor Sickle", "against Don Triumph"]


def test_bonus_applies_when_the_wielder_is_on_any_card_in_play():
    s = score_round([battle(5), battle(6, "dark")], CAT)   # Virus on card 5, Doctor Sickle on card 6
    assert line(s, "dark", "Virus").value == 6 + 5
    assert "wielded by Doctor Sickle" in line(s, "dark", "Virus").text()


def test_against_bonus_applies_when_the_target_is_on_any_card_in_play():
    s = score_round([battle(5), battle(4, "dark")], CAT)   # Don Triumph arrives on card 4
    assert line(s, "dark", "Virus").value == 6 + 5
    assert "against Don Triumph" in line(s, "dark", "Virus").text()


def test_no_bonus_without_the_named_warriors():
    s = score_round([battle(5), battle(3, "dark")], CAT)
    assert line(s, "dark", "Virus").value == 6


def test_a_replaced_warrior_no_longer_appears_for_bonuses():
    plays = [battle(5), battle(6, "dark"), battle(4), battle(3, "dark")]
    assert line(score_round(plays, CAT), "dark", "Virus").value == 16
    plays.append(special("army", 101, "dark", ("Doctor Sickle", "Rot Baron")))
    plays.append(special("army", 111, "light", ("Don Triumph", "Old Glory")))
    s = score_round(plays, CAT)
    assert line(s, "dark", "Virus").value == 6
    sickle = line(s, "dark", "Doctor Sickle")
    assert sickle.status == "replaced" and sickle.value == 0 and sickle.text().startswith("~~Doctor Sickle~~")
    assert line(s, "dark", "Rot Baron").value == 7


def test_each_warrior_takes_part_once_a_duplicate_is_nullified():
    s = score_round([battle(1), battle(4, "dark")], CAT)   # two Don Triumphs
    copies = [e for e in s.light.entries if e.name == "Don Triumph"]
    assert [e.value for e in copies] == [9, 0]
    assert copies[1].status == "duplicate" and "nullified" in copies[1].text()


def test_items_count_only_while_a_warrior_can_wield_them():
    plays = [battle(1), battle(4, "dark")]                 # 1 Light warrior takes part, 2 Light items
    s = score_round(plays, CAT)
    assert s.light.to_nullify == 1
    assert line(s, "light", "Flag").status == "provisional"   # the weakest set aside until Light chooses
    chosen = score_round(plays, CAT, nullified={"light": ["Shield"]})
    assert chosen.light.to_nullify == 0
    assert line(chosen, "light", "Shield").status == "nullified" and line(chosen, "light", "Flag").value == 2
    assert chosen.light.total == 9 + 2 + 3 + 3            # Don Triumph, Flag, two Twin Towers


def test_nullifying_more_items_than_the_excess_is_refused():
    with pytest.raises(IllegalMoveError, match="may nullify 0"):
        score_round([battle(3)], CAT, nullified={"light": ["Shield"]})
    with pytest.raises(IllegalMoveError, match="not one of Light's items"):
        score_round([battle(1), battle(4, "dark")], CAT, nullified={"light": ["Virus"]})


def test_a_levelled_warrior_is_a_copy_of_its_base_warrior_and_the_strongest_takes_part():
    plays = [battle(1), battle(6, "dark"), special("warrior", 202, "light", ("Patriot Anon", "Level 10 Don Triumph"))]
    s = score_round(plays, CAT)
    assert line(s, "light", "Level 10 Don Triumph").value == 18
    assert line(s, "light", "Don Triumph").status == "duplicate"
    assert line(s, "dark", "Virus").value == 16             # Level 10 Don Triumph is Don Triumph for bonuses


def test_army_and_warrior_third_cards_carry_no_environment():
    plays = [battle(1), battle(6, "dark"), battle(4), battle(3, "dark"),
             special("army", 101, "dark", ("Night Broker", "Grim Ledger")),
             special("warrior", 201, "light", ("Patriot Anon", "Level 3 Patriot Anon"))]
    s = score_round(plays, CAT)
    envs = [e for side in (s.light, s.dark) for e in side.entries if e.kind == "environment"]
    assert len(envs) == 4


def test_each_environment_adds_its_power_to_its_own_side():
    s = score_round([battle(1)], CAT)                      # Twin Towers is Light's
    assert line(s, "light", "Twin Towers").value == 3
    assert s.light.total == 9 + 4 + 3 and s.dark.total == 7 + 16
    assert not [e for e in s.dark.entries if e.kind == "environment"]


def test_variation_no_environment_bonuses():
    s = score_round([battle(1)], CAT, Options(environments=False))
    assert line(s, "light", "Twin Towers").status == "off" and s.light.total == 9 + 4
    assert line(s, "dark", "Virus").value == 16


def test_variation_no_bonuses_at_all_uses_base_power_only():
    s = score_round([battle(1)], CAT, Options(environments=False, bonuses=False))
    assert line(s, "dark", "Virus").value == 6 and s.dark.total == 7 + 6 and s.light.total == 9 + 4


def test_the_greater_total_leads_and_equal_totals_lead_nobody():
    assert score_round([battle(1)], CAT).leader() == "dark"
    s = score_round([battle(3)], CAT)                      # 6 + 4 against 6 + 2 + Subway 2
    assert s.light.total == s.dark.total == 10 and s.leader() is None


def test_swaps_must_name_a_warrior_on_the_table_and_one_on_the_army_card():
    with pytest.raises(IllegalMoveError, match="not one of Dark's warriors"):
        score_round([battle(1), special("army", 101, "dark", ("Rot Baron", "Grim Ledger"))], CAT)
    with pytest.raises(IllegalMoveError, match="shows"):
        score_round([battle(4), special("army", 101, "light", ("Don Triumph", "Old Glory"))], CAT)


def test_the_breakdown_names_every_bonus_and_why():
    lines = score_round([battle(1), battle(4, "dark")], CAT).lines()
    assert "  Virus (battle 1): 6 +5 wielded by Doctor Sickle +5 against Don Triumph = 16" in lines
    assert any(x.startswith("Light 19 (provisional: Light must nullify 1") for x in lines)


def test_the_score_memo_tells_apart_cards_that_differ_in_any_field():
    # rules.round_score keeps scores by a key of every field of every card: a card that differs in one field
    # (a swap, an environment, who played it) must never be given another card's score
    from pbd.games.ttc import rules

    base = Play("light", "army", 111, "Ann", swaps=[("Don Triumph", "Patriot Anon")])
    changed = {"side": "dark", "kind": "warrior", "card": 112, "player": "Ben", "dark_warrior": "x",
               "dark_item": "x", "light_warrior": "x", "light_item": "x", "environment": "x",
               "swaps": [("Don Triumph", "Eagle Eye")]}
    assert set(changed) == set(Play.FIELDS)
    for field, value in changed.items():
        assert rules._play_key(base.replace(**{field: value})) != rules._play_key(base), field
    assert rules._play_key(base.replace()) == rules._play_key(base)
