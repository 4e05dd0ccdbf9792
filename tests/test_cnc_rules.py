"""The C&C rules, one focused test per rule of the rulebook (rules/cnc-tcg.txt) and issue 2 part 6.

Every test builds a position with :mod:`cnc_helpers` and plays real moves through
``GAME.play``; each one fails if its rule is dropped from the engine.
"""

from __future__ import annotations

import pytest
from cnc_helpers import char, pos, seeded_for_roll, side

from pbd.errors import AmbiguousNameError, NotationError, UnknownNameError
from pbd.games.cnc import GAME, rules


# -- AP income --------------------------------------------------------------------------------

def test_the_porter_generates_three_ap_a_turn():
    g = pos(side(ap=0), side(ap=0))
    g.play("Ann", "end turn")
    assert g.ben.ap == 3


@pytest.mark.parametrize("cp, income", [(49, 5), (1, 5), (50, 3), (51, 3), (100, 3)])
def test_emergency_overdrive_gives_five_ap_below_50_cp(cp, income):
    g = pos(side(), side(ap=0, cp=cp))
    g.play("Ann", "end turn")
    assert g.ben.ap == income


def test_overdrive_shuts_off_when_cp_rises_above_50_again():
    g = pos(side(), side(ap=0, cp=45, hand=["Construction Project"]))
    g.play("Ann", "end turn")
    assert g.ben.ap == 5
    g.play("Ben", "play Construction Project; end turn")
    assert g.ben.cp == 55
    g.play("Ann", "end turn")
    assert g.ben.ap == 4 + 3          # 4 left over from the overdrive turn, then the normal 3


def test_unspent_ap_stockpiles():
    g = pos(side(ap=3), side(ap=0))
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    assert g.ann.ap == 6


def test_avengers_mansion_adds_one_ap_per_hero_in_play():
    ben = side(ap=0, cities=["Avengers Mansion"], chars=["Spider-Man", "The Flash", "Nill"])
    g = pos(side(), ben)
    g.play("Ann", "end turn")
    assert g.ben.ap == 3 + 2          # two Heroes; Nill is a Villain


def test_annual_blackout_eliminates_three_opposing_ap():
    g = pos(side(hand=["Annual Blackout"]), side(ap=5))
    g.play("Ann", "play Annual Blackout")
    assert (g.ann.ap, g.ben.ap, g.ben.ap_next) == (2, 2, 0)


def test_annual_blackout_at_0_ap_comes_off_the_next_income():
    g = pos(side(hand=["Annual Blackout"]), side(ap=1))
    g.play("Ann", "play Annual Blackout")
    assert (g.ben.ap, g.ben.ap_next) == (0, -2)
    assert "CP = 100 AP= 0 (next turn -2)" in g.render()
    g.play("Ann", "end turn")
    assert (g.ben.ap, g.ben.ap_next) == (1, 0)


# -- costs --------------------------------------------------------------------------------------

def test_drawing_costs_one_ap_a_card_and_draws_from_the_deck():
    deck = ["Nill"] * 25 + ["Batman"] * 25
    g = pos(side(ap=3, deck=deck), side())
    g.play("Ann", "draw 2")
    assert g.ann.ap == 1 and len(g.ann.hand) == 2 and g.ann.deck == 48
    assert set(g.ann.hand) <= {"Nill", "Batman"}
    assert sorted(g.chance.secrets["ann"].drawn) == sorted(set(g.chance.secrets["ann"].drawn))


def test_a_draw_beyond_your_ap_names_the_numbers():
    g = pos(side(ap=1), side())
    g.refused("Ann", "draw 2", "costs 2 AP; you have 1")
    assert g.ann.hand == []


def test_vanished_cops_the_rulebook_example():
    g = pos(side(), side(ap=3, hand=["Vanished Cops"]), to_move=1, turn_number=2)
    g.play("Ben", "play Vanished Cops")
    assert (g.ben.ap, g.ann.cp, g.ben.discards) == (1, 80, ["Vanished Cops"])


def test_an_unaffordable_card_says_what_it_costs_and_what_you_have():
    g = pos(side(ap=1, hand=["Vanished Cops"]), side())
    g.refused("Ann", "play Vanished Cops", "Vanished Cops costs 2 AP; you have 1")


def test_playing_costs_the_card_s_ap_and_zero_cost_cards_play_at_zero_ap():
    g = pos(side(ap=1, hand=["Spider-Man", "Mirror Master"]), side(chars=["Nill"]))
    g.play("Ann", "play Spider-Man")
    assert g.ann.ap == 0
    g.play("Ann", "play Mirror Master; Mirror Master uses Mirror Trap on Nill")
    assert g.ann.ap == 0 and g.char("Ben", "Nill").statuses == ["frozen"]


def test_withdrawing_and_discarding_cost_one_ap_each():
    g = pos(side(ap=3, chars=["Batman", "Spider-Man"], cities=["City Hall"], hand=["Nill"]), side())
    g.play("Ann", "withdraw Batman")
    assert g.ann.ap == 2 and "Batman" in g.ann.hand
    g.play("Ann", "discard Spider-Man")
    assert g.ann.ap == 1 and g.ann.discards == ["Spider-Man"]
    g.play("Ann", "discard Nill from hand")
    assert g.ann.ap == 0 and g.ann.discards == ["Spider-Man", "Nill"]
    g.refused("Ann", "discard City Hall", "costs 1 AP; you have 0")


def test_acts_cost_what_the_card_says_and_two_ap_for_the_strong_ones():
    g = pos(side(ap=3, chars=["The Sentry", "Spider-Man"]), side(chars=["Danger", "Nill"]))
    g.play("Ann", "Spider-Man attacks Nill")
    assert g.ann.ap == 2
    g.play("Ann", "The Sentry attacks Danger")
    assert g.ann.ap == 0


def test_a_two_ap_act_with_one_ap_is_refused_with_the_numbers():
    g = pos(side(ap=1, chars=["The Sentry"]), side(chars=["Danger"]))
    g.refused("Ann", "Sentry attacks Danger", "costs 2 AP; you have 1")
    assert g.char("Ben", "Danger").hp == 40


# -- per-turn limits -----------------------------------------------------------------------------

def test_only_one_event_a_turn():
    g = pos(side(ap=5, hand=["Construction Project", "Construction Project"]), side())
    g.play("Ann", "play Construction Project")
    g.refused("Ann", "play Construction Project", "only 1 Event may be played each turn")
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "play Construction Project")
    assert g.ann.cp == 120


def test_ley_line_nexus_allows_a_second_event():
    g = pos(side(ap=5, cities=["Ley Line Nexus"], hand=["Construction Project"] * 3), side())
    g.play("Ann", "play Construction Project; play Construction Project")
    g.refused("Ann", "play Construction Project", "only 2 Events")


def test_only_one_city_card_a_turn():
    g = pos(side(ap=5, hand=["Import Clinic", "City Hall"]), side())
    g.play("Ann", "play Import Clinic")
    g.refused("Ann", "play City Hall", "only 1 City card may be played each turn")


def test_zoning_board_allows_a_second_city_card():
    g = pos(side(ap=5, cities=["Zoning Board"], hand=["Import Clinic", "City Hall", "MAC"]), side())
    g.play("Ann", "play Import Clinic; play City Hall")
    g.refused("Ann", "play MAC", "only 2 City cards")


def test_several_characters_may_be_played_in_one_turn():
    g = pos(side(ap=3, hand=["Nill", "Hawkeye", "Batman"]), side())
    g.play("Ann", "play Nill; play Hawkeye; play Batman")
    assert len(g.ann.characters) == 3


def test_one_copy_of_each_city_in_play():
    g = pos(side(ap=5, cities=["Import Clinic"], hand=["Import Clinic"]), side())
    g.refused("Ann", "play Import Clinic", "Import Clinic is already in play; only one of each City card")


def test_three_characters_in_play():
    g = pos(side(ap=5, chars=["Nill", "Hawkeye", "Batman"], hand=["Spider-Man"]), side())
    g.refused("Ann", "play Spider-Man", "already have 3 characters in play; the limit is 3", "(4 with MAC)")


def test_mac_allows_four_characters():
    g = pos(side(ap=5, cities=["MAC"], chars=["Nill", "Hawkeye", "Batman"], hand=["Spider-Man", "Storm"]), side())
    g.play("Ann", "play Spider-Man")
    assert len(g.ann.characters) == 4
    g.refused("Ann", "play Storm", "the limit is 4")


def test_each_character_acts_once_a_turn():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Danger"]))
    g.play("Ann", "Spider-Man attacks Danger")
    g.refused("Ann", "Spider-Man attacks Danger", "already acted this turn")
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "Spider-Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 20


def test_an_ability_is_an_act_too():
    g = pos(side(ap=3, chars=["Batman"]), side(chars=["Danger"]))
    g.play("Ann", "Batman uses Fear Tactics on Danger")
    g.refused("Ann", "Batman attacks Danger", "already acted")


def test_characters_can_act_the_turn_they_are_played():
    g = pos(side(ap=3, hand=["Spider-Man"]), side(chars=["Nill"]))
    g.play("Ann", "play Spider-Man; Spider-Man attacks Nill")
    assert g.ben.discards == ["Nill"]


def test_no_playing_then_withdrawing_the_same_card():
    g = pos(side(ap=3, hand=["Spider-Man"]), side())
    g.play("Ann", "play Spider-Man")
    g.refused("Ann", "withdraw Spider-Man", "cannot be played and withdrawn in the same turn")


def test_no_withdrawing_then_playing_the_same_card():
    g = pos(side(ap=3, chars=["Batman"]), side())
    g.play("Ann", "withdraw Batman")
    g.refused("Ann", "play Batman", "you withdrew Batman this turn")
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "play Batman")


def test_no_withdrawing_then_playing_a_city_card():
    g = pos(side(ap=3, cities=["Import Clinic"]), side())
    g.play("Ann", "withdraw Import Clinic")
    assert "Import Clinic" in g.ann.hand and "Import Clinic" not in g.ann.cities
    g.refused("Ann", "play Import Clinic", "you withdrew Import Clinic this turn")


def test_no_acting_then_withdrawing():
    g = pos(side(ap=3, chars=["Bruce Wayne"]), side())
    g.play("Ann", "Bruce Wayne uses Wayne Foundation")
    g.refused("Ann", "withdraw Bruce Wayne", "no acting then withdrawing")


def test_the_porter_stays_in_play():
    g = pos(side(ap=3), side())
    g.refused("Ann", "withdraw The Porter", "the Porter stays in play")
    g.refused("Ann", "discard Porter", "the Porter stays in play")


# -- attacking -----------------------------------------------------------------------------------

def test_the_first_player_cannot_attack_cp_on_their_very_first_turn():
    g = pos(side(ap=3, hand=["Spider-Man"]), side(), turn_number=1)
    g.play("Ann", "play Spider-Man")
    g.refused("Ann", "Spider-Man attacks city", "cannot attack CP on their very first turn")
    assert g.ben.cp == 100


def test_the_first_player_can_attack_cp_from_their_second_turn():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(), turn_number=1)
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "Spider-Man attacks city")
    assert g.ben.cp == 90


def test_the_second_player_can_attack_cp_on_their_first_turn():
    g = pos(side(), side(ap=3, hand=["Spider-Man"]), to_move=1, turn_number=2)
    g.play("Ben", "play Spider-Man; Spider-Man attacks city")
    assert g.ann.cp == 90


def test_when_player_2_moves_first_they_are_the_one_who_cannot_attack_cp():
    g = pos(side(), side(ap=3, chars=["Spider-Man"]), to_move=1, first=1, turn_number=1)
    g.refused("Ben", "Spider-Man attacks city", "very first turn")


def test_characters_screen_cp():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill"]))
    g.refused("Ann", "Spider-Man attacks city", "screen their CP", "Nill")
    g.refused("Ann", "Spider-Man attacks Ben", "screen their CP")
    assert g.ben.cp == 100


def test_attacks_on_cp_land_once_no_characters_screen_it():
    g = pos(side(ap=3, chars=["Spider-Man"]), side())
    g.play("Ann", "Spider-Man attacks Ben's City")
    assert g.ben.cp == 90


def test_no_spillover_damage():
    g = pos(side(ap=3, chars=["The Sentry"]), side(chars=["Cityzen Bob", "Nill"]))
    g.play("Ann", "The Sentry attacks Cityzen Bob")
    assert g.ben.discards == ["Cityzen Bob"]
    assert g.ben.cp == 100 and g.char("Ben", "Nill").hp == 10


def test_a_character_at_0_hp_goes_to_the_discard_pile():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill"]))
    g.play("Ann", "Spider-Man attacks Nill")
    assert g.ben.characters == [] and g.ben.discards == ["Nill"]


def test_damage_short_of_0_hp_leaves_the_character_in_play():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Danger"]))
    g.play("Ann", "Spider-Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 30


def test_a_withdrawn_character_comes_back_at_full_hp():
    g = pos(side(ap=3, chars=[char("Batman", 5)]), side())
    g.play("Ann", "withdraw Batman; end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "play Batman")
    assert g.char("Ann", "Batman").hp == 20


def test_federal_sponsorship_boosts_hero_attacks():
    g = pos(side(ap=3, cities=["Federal Sponsorship"], chars=["Spider-Man", "Nill"]), side(chars=["Danger"]))
    g.play("Ann", "Spider-Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 15
    g.play("Ann", "Nill attacks Danger")          # a Villain: no bonus
    assert g.char("Ben", "Danger").hp == 25 - 7


def test_media_inquiry_cuts_every_anti_hero_attack():
    g = pos(side(ap=3, chars=["Batman"]), side(cities=["Media Inquiry"], chars=["Danger"]))
    g.play("Ann", "Batman attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 5


def test_well_of_eternity_boosts_magic_attacks():
    g = pos(side(ap=3, cities=["Well of Eternity"], chars=["Zatanna"]), side(chars=["Danger"]))
    g.play("Ann", "Zatanna attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 15


def test_a_50_attack_cannot_be_boosted():
    ann = side(ap=3, seed=seeded_for_roll(6), cities=["Federal Sponsorship"], chars=["The Sentry"])
    g = pos(ann, side())
    g.play("Ann", "The Sentry attacks city")
    assert g.ben.cp == 50


def test_bonuses_never_push_an_attack_past_50():
    g = pos(side(), side())
    cat = GAME.catalogue
    thor = cat.get("Thor")
    big = type(thor.attacks[0])("Test Bolt", "Electric", 1, 48)
    g.ann.cities.append("Federal Sponsorship")
    assert rules.attack_damage(g.state, cat, g.ann, thor, big) == 50


# -- combos ------------------------------------------------------------------------------------

def test_combo_levels_count_across_turns_and_show_as_plus_signs():
    g = pos(side(ap=9, chars=["Electro"]), side(ap=0, chars=["Danger"]))
    g.play("Ann", "Electro attacks Danger")
    assert g.char("Ann", "Electro").combo == 1
    assert "[Electro HP=15/15] +\n" in g.render()
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "Electro attacks Danger")
    assert g.char("Ann", "Electro").combo == 2
    assert "[Electro HP=15/15] ++\n" in g.render()
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    out = g.play("Ann", "Electro attacks Danger")
    assert "combo: Shutdown" in out[0]
    assert g.char("Ann", "Electro").combo == 0 and g.ben.ap_next == -2


def test_a_turn_without_attacking_breaks_the_combo():
    g = pos(side(ap=3, chars=[char("Electro", combo=2)]), side(chars=["Danger"]))
    g.play("Ann", "end turn")
    assert g.char("Ann", "Electro").combo == 0


def test_the_opponent_s_turn_does_not_break_a_combo():
    g = pos(side(ap=3, chars=["Electro"]), side(chars=["Danger"]))
    g.play("Ann", "Electro attacks Danger; end turn")
    g.play("Ben", "end turn")
    assert g.char("Ann", "Electro").combo == 1


def test_using_an_ability_instead_of_attacking_breaks_the_combo():
    g = pos(side(ap=3, chars=[char("Plague Doctor", combo=2)]), side(chars=["Danger"]))
    g.play("Ann", "Plague Doctor uses Infect on Danger; end turn")
    assert g.char("Ann", "Plague Doctor").combo == 0


def test_physical_attacks_never_combo():
    g = pos(side(ap=9, chars=["Spider-Man"]), side(chars=["Danger"]))
    for _ in range(3):
        g.play("Ann", "Spider-Man attacks Danger")
        assert g.char("Ann", "Spider-Man").combo == 0
        g.play("Ann", "end turn")
        g.play("Ben", "end turn")
    assert "+" not in g.render().split("----")[0].split("Character Cards")[-1]


def test_an_ineffective_attack_still_counts_toward_the_combo():
    g = pos(side(ap=3, chars=[char("Captain Cold", combo=1)]), side(chars=["Leech"]))
    g.play("Ann", "Captain Cold attacks Leech")            # Leech: only Physical attacks harm it
    assert g.char("Ben", "Leech").hp == 10 and g.char("Ann", "Captain Cold").combo == 2


def _combo_pos(attacker: str, ben=None, **ann):
    """Ann's ``attacker`` at combo level 2, Ben with Danger (40 HP) and Nill unless told."""
    return pos(side(ap=ann.pop("ap", 5), chars=[char(attacker, combo=2), *ann.pop("chars", [])], **ann),
               ben or side(ap=3, chars=["Danger", "Nill"], hand=["Batman", "Storm", "Hawkeye"]))


def test_every_non_physical_type_has_its_combo_effect():
    from pbd.games.cnc.cards import ATTACK_TYPES

    assert set(rules.TYPE_EFFECTS) == set(ATTACK_TYPES) - {"Physical"}
    assert len(rules.TYPE_EFFECTS) == 16      # the rulebook lists sixteen effects besides Physical


def test_combo_tech_hack_reveals_a_card_of_your_choice():
    g = _combo_pos("Lex Luthor")
    out = g.play("Ann", "Lex Luthor attacks Nill then 2")
    assert "combo: Hack" in out[0] and "Ben's hand card 2 is Storm" in out[0]


def test_combo_tech_hack_on_a_hidden_hand_is_left_to_its_owner():
    g = _combo_pos("Lex Luthor")
    g.chance.secrets.pop("ben")
    g.ben.hand[:] = ["?"] * 3
    g.play("Ann", "Lex Luthor attacks Nill then 3")
    assert [(p.player, p.kind, p.count) for p in g.state.pending] == [("Ben", "reveal", 3)]
    assert "Pending: Ben reveals hand card 3 (Hack)" in g.render()


def test_combo_psychic_confusion():
    g = _combo_pos("NOHoPE")
    g.play("Ann", "NOHoPE attacks Nill then Danger")
    assert g.char("Ben", "Danger").statuses == ["confused"]


def test_combo_fire_firestorm_hits_cp_through_the_screen():
    g = _combo_pos("Ghost Rider")
    g.play("Ann", "Ghost Rider attacks Danger")
    assert g.char("Ben", "Danger").hp == 20 and g.ben.cp == 90


def test_combo_ice_freeze():
    g = _combo_pos("Captain Cold")
    g.play("Ann", "Captain Cold attacks Nill then Danger; end turn")
    assert g.char("Ben", "Danger").statuses == ["frozen"]
    g.refused("Ben", "Danger attacks Captain Cold", "frozen")


def test_combo_electric_shutdown():
    g = _combo_pos("Electro")
    g.play("Ann", "Electro attacks Danger; end turn")
    assert g.ben.ap == 3 + 3 - 2


def test_combo_magic_banish_returns_a_character_to_its_owner_s_hand():
    g = _combo_pos("Zatanna")
    g.play("Ann", "Zatanna attacks Nill then Danger")
    assert [c.name for c in g.ben.characters] == [] and g.ben.discards == ["Nill"]
    assert "Danger" in g.ben.hand


def test_combo_magic_banish_to_a_hidden_hand_leaves_a_pending_take():
    g = _combo_pos("Zatanna")
    g.chance.secrets.pop("ben")
    g.ben.hand[:] = ["?"] * 3
    g.play("Ann", "Zatanna attacks Danger")
    assert g.ben.hand == ["?"] * 4
    assert [(p.player, p.kind, p.card) for p in g.state.pending] == [("Ben", "take", "Danger")]
    assert "Pending: Ben takes Danger into hand (returned)" in g.render()


def test_combo_toxic_poison():
    g = _combo_pos("Plague Doctor")
    g.play("Ann", "Plague Doctor attacks Danger")
    assert g.char("Ben", "Danger").statuses == ["poisoned"]
    g.play("Ann", "end turn")
    assert g.char("Ben", "Danger").hp == 40 - 5 - 1


def test_combo_air_perfect_storm_boosts_ice_air_water_electric_this_turn():
    g = _combo_pos("Storm", chars=["Captain Cold", "Hawkeye"], ap=9)
    g.play("Ann", "Storm attacks Danger")
    assert "Perfect Storm" in g.state.turn.effects
    g.play("Ann", "Captain Cold attacks Danger")           # Ice: 7 + 5
    assert g.char("Ben", "Danger").hp == 40 - 10 - 12
    g.play("Ann", "Hawkeye attacks Danger")                # Physical: no bonus
    assert g.char("Ben", "Danger").hp == 18 - 7
    g.play("Ann", "end turn")
    assert g.state.turn.effects == []


def test_combo_earth_elemental_force_destroys_a_city_card():
    g = _combo_pos("Construction Worker", ben=side(cities=["Import Clinic"], chars=["Danger"]))
    g.play("Ann", "Construction Worker attacks Danger")
    assert g.ben.cities == ["The Porter"] and g.ben.discards == ["Import Clinic"] and g.ben.cp == 100


def test_combo_earth_takes_the_ninja_death_cult_first_when_no_city_is_named():
    ben = side(cities=["Ninja Death Cult", "Import Clinic"], chars=["Danger"])
    g = _combo_pos("Construction Worker", ben=ben)
    g.play("Ann", "Construction Worker attacks Danger")
    assert g.ben.cities == ["The Porter", "Import Clinic"] and g.ben.discards == ["Ninja Death Cult"]


def test_combo_energy_pulse_adds_ten_damage():
    g = _combo_pos("Iron Man")
    g.play("Ann", "Iron Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 20 - 10


def test_combo_speed_hyperspeed_refunds_the_attack_and_acts_again():
    g = _combo_pos("Quicksilver", ap=1)
    g.play("Ann", "Quicksilver attacks Danger")
    assert g.ann.ap == 1
    g.play("Ann", "Quicksilver attacks Danger")
    assert g.char("Ben", "Danger").hp == 20 and g.ann.ap == 0


def test_combo_shadow_sinister_makes_the_opponent_discard():
    g = _combo_pos("Nill")
    g.play("Ann", "Nill attacks Danger")
    assert [(p.player, p.kind, p.count, p.source) for p in g.state.pending] == [("Ben", "discard", 1, "Sinister")]
    g.play("Ben", "discard Storm")
    assert g.ben.discards == ["Storm"] and g.state.pending == []


def test_combo_sound_discordant_deals_five_to_a_character_of_your_choice():
    g = _combo_pos("Black Canary")
    g.play("Ann", "Black Canary attacks Danger then Nill")
    assert g.char("Ben", "Danger").hp == 30 and g.char("Ben", "Nill").hp == 5


def test_combo_water_flood_switches_off_opposing_city_cards_this_round():
    ben = side(cities=["Ninja Death Cult", "Import Clinic"], chars=["Danger"])
    g = _combo_pos("Aqualad", ben=ben, hand=["Bomb Plot"], ap=5)
    g.refused("Ann", "play Bomb Plot on Import Clinic", "Ninja Death Cult guards")
    g.play("Ann", "Aqualad attacks Danger")
    g.play("Ann", "play Bomb Plot on Import Clinic")
    assert g.ben.discards == ["Import Clinic"]


def test_combo_magnetic_mend_gains_ten_cp():
    g = _combo_pos("Department of Integration Agent")
    g.play("Ann", "Department of Integration Agent attacks Danger")
    assert g.ann.cp == 110


def test_combo_gravity_summon_draws_a_free_card():
    g = _combo_pos("Graviton", ap=1)
    g.play("Ann", "Graviton attacks Danger")
    assert g.ann.ap == 0 and len(g.ann.hand) == 1 and g.ann.deck == 49


def test_the_combo_starts_again_after_the_effect():
    g = _combo_pos("Electro")
    g.play("Ann", "Electro attacks Danger")
    assert g.char("Ann", "Electro").combo == 0 and "+" not in g.render().split("----")[0].splitlines()[-1]


# -- statuses -------------------------------------------------------------------------------------

def test_confusion_fails_the_next_act_and_hurts_5():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(ap=3, chars=[char("Nill", None, "confused")]),
            to_move=1, turn_number=4)
    g.play("Ben", "Nill attacks Spider-Man")
    nill = g.char("Ben", "Nill")
    assert (nill.hp, nill.statuses, g.ben.ap) == (5, [], 2)
    assert g.char("Ann", "Spider-Man").hp == 15
    g.refused("Ben", "Nill attacks Spider-Man", "already acted")


def test_confusion_lasts_only_until_that_act():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(ap=3, chars=[char("Nill", None, "confused")]),
            to_move=1, turn_number=4)
    g.play("Ben", "Nill attacks Spider-Man; end turn")
    g.play("Ann", "end turn")
    g.play("Ben", "Nill attacks Spider-Man")
    assert g.char("Ann", "Spider-Man").hp == 8


def test_confusion_can_kill_the_confused_character():
    g = pos(side(), side(ap=3, chars=[char("Nill", 5, "confused")]), to_move=1, turn_number=4)
    g.play("Ben", "Nill attacks city")
    assert g.ben.discards == ["Nill"] and g.ann.cp == 100


def test_healing_cures_confusion():
    ben = side(ap=3, chars=[char("Nill", 5, "confused"), "Volunteer Nurse"])
    g = pos(side(chars=["Spider-Man"]), ben, to_move=1, turn_number=4)
    g.play("Ben", "Volunteer Nurse uses First Aid on Nill; Nill attacks Spider-Man")
    assert g.char("Ann", "Spider-Man").hp == 8


def test_batman_fear_tactics_confuses():
    g = pos(side(ap=3, chars=["Batman"]), side(chars=["Danger"]))
    g.play("Ann", "Batman uses Fear Tactics on Danger")
    assert g.char("Ben", "Danger").statuses == ["confused"]


def test_freeze_stops_acting_for_one_round_only():
    g = pos(side(ap=3, chars=["Mirror Master"]), side(ap=3, chars=["Nill"]))
    g.play("Ann", "Mirror Master uses Mirror Trap on Nill; end turn")
    g.refused("Ben", "Nill attacks Mirror Master", "Nill is frozen and cannot act")
    g.play("Ben", "end turn")
    assert g.char("Ben", "Nill").statuses == []
    g.play("Ann", "end turn")
    g.play("Ben", "Nill attacks Mirror Master")
    assert g.char("Ann", "Mirror Master").hp == 3


def test_poison_deals_1_hp_each_turn_until_healed():
    g = pos(side(ap=9, chars=["Plague Doctor"]), side(chars=["Danger", "Volunteer Nurse"]))
    g.play("Ann", "Plague Doctor uses Infect on Danger; end turn")
    assert g.char("Ben", "Danger").hp == 39
    g.play("Ben", "end turn")
    g.play("Ann", "end turn")
    assert g.char("Ben", "Danger").hp == 38
    g.play("Ben", "Volunteer Nurse uses First Aid on Danger; end turn")
    g.play("Ann", "end turn")
    assert g.char("Ben", "Danger").hp == 40 and g.char("Ben", "Danger").statuses == []


def test_poison_ends_when_the_character_leaves_the_field():
    g = pos(side(), side(ap=3, chars=[char("Danger", 30, "poisoned")]), to_move=1, turn_number=4)
    g.play("Ben", "withdraw Danger; end turn")
    g.play("Ann", "end turn")
    g.play("Ben", "play Danger")
    assert g.char("Ben", "Danger").statuses == [] and g.char("Ben", "Danger").hp == 40


def test_antidote_cures_every_status():
    ben = side(ap=3, chars=[char("Danger", 30, "frozen", "poisoned"), "Volunteer Nurse"])
    g = pos(side(), ben, to_move=1, turn_number=4)
    g.play("Ben", "Volunteer Nurse uses Antidote on Danger")
    assert g.char("Ben", "Danger").statuses == []


# -- City cards ----------------------------------------------------------------------------------

def test_a_city_card_raises_cp_by_its_value_when_played():
    g = pos(side(ap=3, hand=["Import Clinic"]), side())
    g.play("Ann", "play Import Clinic")
    assert g.ann.cp == 110 and g.ann.cities == ["The Porter", "Import Clinic"]


def test_destroying_a_city_card_does_not_lower_cp():
    g = pos(side(ap=3, hand=["Bomb Plot"]), side(cp=110, cities=["Import Clinic"]))
    g.play("Ann", "play Bomb Plot on Import Clinic")
    assert g.ben.cp == 110 and g.ben.discards == ["Import Clinic"]


def test_the_porter_cannot_be_destroyed_by_a_city_destroying_card():
    g = pos(side(ap=3, hand=["Bomb Plot"]), side())
    g.refused("Ann", "play Bomb Plot on The Porter", "the Porter cannot")


def test_ladd_russo_arson_destroys_a_city_card():
    g = pos(side(ap=3, chars=["Ladd Russo"]), side(cities=["City Hall"]))
    g.play("Ann", "Ladd Russo uses Arson on City Hall")
    assert g.ann.ap == 1 and g.ben.discards == ["City Hall"]


def test_import_clinic_heals_10_hp_each_turn():
    g = pos(side(cities=["Import Clinic"], chars=[char("Spider-Man", 2)]), side(), to_move=1, turn_number=4)
    g.play("Ben", "end turn")
    assert g.char("Ann", "Spider-Man").hp == 12
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    assert g.char("Ann", "Spider-Man").hp == 15


def test_ninja_death_cult_guards_the_other_city_cards():
    g = pos(side(ap=9, hand=["Bomb Plot", "Bomb Plot"]), side(cities=["Ninja Death Cult", "City Hall"]))
    g.refused("Ann", "play Bomb Plot on City Hall", "Ninja Death Cult guards Ben's City cards")
    g.play("Ann", "play Bomb Plot on Ninja Death Cult; end turn")
    g.play("Ben", "end turn")
    g.play("Ann", "play Bomb Plot on City Hall")
    assert g.ben.cities == ["The Porter"]


def test_ninja_death_cult_adds_no_cp():
    g = pos(side(ap=3, hand=["Ninja Death Cult"]), side())
    g.play("Ann", "play Ninja Death Cult")
    assert g.ann.cp == 100


# -- Events and the hand ------------------------------------------------------------------------

def test_events_are_discarded_after_play():
    g = pos(side(ap=3, hand=["Construction Project"]), side())
    g.play("Ann", "play Construction Project")
    assert g.ann.cp == 110 and g.ann.hand == [] and g.ann.discards == ["Construction Project"]


def test_carnivorous_plants_deals_10_to_a_target_character():
    g = pos(side(ap=3, hand=["Carnivorous Plants"]), side(chars=["Danger"]))
    g.play("Ann", "play Carnivorous Plants on Danger")
    assert g.char("Ben", "Danger").hp == 30


def test_port_in_wave_draws_three():
    g = pos(side(ap=3, hand=["Port-In Wave"]), side())
    g.play("Ann", "play Port-In Wave")
    assert len(g.ann.hand) == 3 and g.ann.deck == 47 and g.ann.ap == 2


def test_the_hand_limit_is_10():
    g = pos(side(ap=3, hand=["Nill"] * 10), side())
    g.refused("Ann", "draw", "your hand would hold 11 cards; the limit is 10")


def test_free_draws_stop_at_the_hand_limit():
    g = pos(side(ap=3, hand=["Port-In Wave"] + ["Nill"] * 8), side())
    g.play("Ann", "play Port-In Wave")
    assert len(g.ann.hand) == 10 and g.ann.deck == 48


def test_vulcanus_agents_makes_the_opponent_discard_three_of_their_choice():
    g = pos(side(ap=3, hand=["Vulcanus Agents"]), side(hand=["Nill", "Batman", "Storm", "Hawkeye"]))
    g.play("Ann", "play Vulcanus Agents")
    assert [(p.player, p.kind, p.count) for p in g.state.pending] == [("Ben", "discard", 3)]
    assert "Pending: Ben discards 3 cards from hand (Vulcanus Agents)" in g.render()
    g.play("Ben", "discard Nill; discard Storm; discard Hawkeye")     # Ben resolves it, on Ann's turn, free
    assert g.ben.hand == ["Batman"] and g.ben.discards == ["Nill", "Storm", "Hawkeye"]
    assert g.state.pending == [] and g.ben.ap == 3


def test_a_player_who_owes_discards_must_pay_them_before_anything_else():
    g = pos(side(), side(ap=3, hand=["Nill", "Spider-Man"]), to_move=1, turn_number=4,
            pending=[__import__("cnc_helpers").Pending("Ben", "discard", 1, source="Vulcanus Agents")])
    g.refused("Ben", "play Spider-Man", "first discard 1 card from your hand")
    g.play("Ben", "discard Nill; play Spider-Man")


def test_vulcanus_agents_cannot_take_more_cards_than_the_hand_holds():
    g = pos(side(ap=3, hand=["Vulcanus Agents"]), side(hand=["Nill"]))
    g.play("Ann", "play Vulcanus Agents")
    assert [p.count for p in g.state.pending] == [1]


def test_annual_blackout_by_name_is_case_insensitive_and_aliases_work():
    g = pos(side(ap=3, hand=["Annual Blackout"]), side(ap=3))
    g.play("Ann", "play blackout")
    assert g.ben.ap == 0


# -- winning -------------------------------------------------------------------------------------

def test_destruction_cp_0_or_less():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(cp=10))
    g.play("Ann", "Spider-Man attacks city")
    assert g.state.result == "Ann wins by Destruction (Ben's CP 0)"
    g.refused("Ben", "end turn", "the match is over")


def test_construction_cp_200_or_more():
    g = pos(side(ap=3, cp=190, hand=["Construction Project"]), side())
    g.play("Ann", "play Construction Project")
    assert g.state.result == "Ann wins by Construction (Ann's CP 200)"


def test_construction_is_not_reached_at_199():
    g = pos(side(ap=3, cp=189, hand=["Construction Project"]), side())
    g.play("Ann", "play Construction Project")
    assert g.state.result == ""


def test_attrition_25_discards_lose():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill"], discards=["Hawkeye"] * 24))
    g.play("Ann", "Spider-Man attacks Nill")
    assert g.state.result == "Ann wins by Attrition (Ben has 25 discards)"


def test_attrition_counts_your_own_discards_too():
    g = pos(side(ap=3, hand=["Construction Project"], discards=["Hawkeye"] * 24), side())
    g.play("Ann", "play Construction Project")
    assert g.state.result == "Ben wins by Attrition (Ann has 25 discards)"


def test_heroic_resolve_blocks_attrition_while_captain_america_is_in_play():
    ben = side(chars=["Nill", char("Captain America", 10)], discards=["Hawkeye"] * 24)
    g = pos(side(ap=3, chars=["Spider-Man", "Ghost Rider"]), ben)
    g.play("Ann", "Spider-Man attacks Nill")
    assert len(g.ben.discards) == 25 and g.state.result == ""
    g.play("Ann", "Ghost Rider attacks Captain America")
    assert g.state.result == "Ann wins by Attrition (Ben has 26 discards)"


def test_both_players_losing_on_one_move_is_a_draw():
    g = pos(side(ap=3, cp=190, hand=["Construction Project"], discards=["Hawkeye"] * 24), side())
    g.play("Ann", "play Construction Project")         # Construction for Ann, Attrition for Ann too
    assert g.state.result == "draw: Construction (Ann's CP 200); Attrition (Ann has 25 discards)"


# -- dice --------------------------------------------------------------------------------------

def test_the_sentry_rolls_and_the_void_costs_10_cp_on_a_1():
    g = pos(side(ap=3, seed=seeded_for_roll(1), chars=["The Sentry"]), side(chars=["Danger"]))
    out = g.play("Ann", "The Sentry attacks Danger")
    assert "rolled 1 (d6)" in out[0]
    assert g.ann.cp == 90 and g.ben.discards == ["Danger"]


def test_the_sentry_s_roll_otherwise_does_nothing():
    g = pos(side(ap=3, seed=seeded_for_roll(4), chars=["The Sentry"]), side(chars=["Danger"]))
    out = g.play("Ann", "The Sentry attacks Danger")
    assert "rolled 4 (d6)" in out[0] and g.ann.cp == 100


def test_rolls_are_real_and_advance_the_public_counter():
    g = pos(side(ap=3, chars=["Deadpool"]), side())
    face = g.roll("Ann")
    out = g.play("Ann", "Deadpool uses Breaking the Fourth Wall")
    assert f"rolled {face} (d6)" in out[0]
    ann = g.state.meta.player("Ann")
    assert ann.rolls == 1 and ann.draws == len(g.ann.hand)          # the roll, then any cards it drew


# -- adjustments -------------------------------------------------------------------------------

def test_adjust_records_a_manual_effect_in_the_log():
    g = pos(side(ap=3, hand=["Reality Warp"], cp=60), side(cp=120))
    g.play("Ann", "play Reality Warp; adjust Ben CP -60: Reality Warp; adjust Ann CP +60: Reality Warp")
    assert (g.ann.cp, g.ben.cp) == (120, 60)
    assert g.state.meta.log[-1].text.startswith("adjust Ann CP +60: Reality Warp")
    assert "Ann: adjust Ben CP -60: Reality Warp" in g.render()


def test_an_adjust_without_a_card_pbd_cannot_work_out_is_a_proposal_the_opponent_decides():
    """Issue 10 item 9: 'adjust by either player, any amount, at any time' won Ben a match."""
    g = pos(side(ap=3), side())
    g.play("Ann", "adjust Ben CP -10: he owes me")
    assert g.ben.cp == 100 and "Pending: Ben accepts or rejects adjust Ben CP -10: he owes me (proposed by Ann)" \
        in g.render()
    assert g.reparse().pending == g.state.pending
    g.play("Ben", "reject adjustment")
    assert g.ben.cp == 100 and not g.state.pending
    g.play("Ben", "adjust Ben CP +100: Construction please")     # off turn: a proposal too
    assert g.ben.cp == 100
    g.play("Ann", "accept adjustment")
    assert g.ben.cp == 200 - 0 and g.state.pending == []


def test_adjust_needs_a_reason():
    g = pos(side(ap=3), side())
    with pytest.raises(NotationError, match="needs a reason"):
        g.play("Ann", "adjust Ben CP -10")
    assert g.ben.cp == 100


def test_adjust_hp_and_ap():
    g = pos(side(ap=3, hand=["Body Swap"], chars=[char("Spider-Man", 5)]), side(ap=2, chars=["Nill"]))
    g.play("Ann", "play Body Swap; adjust Nill HP -4: Body Swap; adjust Spider-Man HP +20: Body Swap")
    assert g.char("Ben", "Nill").hp == 6 and g.char("Ann", "Spider-Man").hp == 15
    g.play("Ann", "adjust Ben AP -2: x")
    g.play("Ben", "accept")
    assert g.ben.ap == 0
    g.refused("Ann", "adjust Ben AP -1: too far", "AP cannot go below 0")


def test_a_manual_card_charges_its_cost_and_asks_for_an_adjustment():
    g = pos(side(ap=3, hand=["Reality Warp"], cp=60), side(cp=120))
    out = g.play("Ann", "play Reality Warp")
    assert g.ann.ap == 0 and "record the outcome with 'adjust'" in out[0]
    assert (g.ann.cp, g.ben.cp) == (60, 120)


# -- several moves, names ----------------------------------------------------------------------

def test_names_are_case_insensitive():
    g = pos(side(ap=3, hand=["Spider-Man"]), side(chars=["Nill"]))
    g.play("Ann", "PLAY spider-man; spider-MAN ATTACKS nill")
    assert g.ben.discards == ["Nill"]


def test_an_unknown_name_suggests_what_was_meant():
    g = pos(side(ap=3, hand=["Spider-Man"]), side(chars=["Nill"]))
    with pytest.raises(UnknownNameError) as err:
        g.play("Ann", "play Spoder-Man")
    assert "did you mean 'Spider-Man'" in str(err.value)
    g.play("Ann", "play Spider-Man")
    with pytest.raises(UnknownNameError) as err:
        g.play("Ann", "Spider-Man attacks Nils")
    assert "Nill" in str(err.value)


def test_an_ambiguous_name_lists_the_candidates():
    g = pos(side(ap=3, hand=["Captain America", "Captain Cold"]), side())
    with pytest.raises(AmbiguousNameError) as err:
        g.play("Ann", "play Captain")
    assert "did you mean 'Captain America' or 'Captain Cold'" in str(err.value)


def test_a_card_not_in_hand_is_refused():
    g = pos(side(ap=3, hand=["Nill"]), side())
    g.refused("Ann", "play Batman", "Batman is not in your hand")


def test_two_copies_of_a_character_are_told_apart():
    g = pos(side(ap=3, chars=["Nill", "Nill"]), side(chars=["Danger"]))
    g.play("Ann", "Nill attacks Danger; Nill#2 attacks Danger")
    assert g.char("Ben", "Danger").hp == 26


def test_a_second_copy_keeps_its_turn_record_when_the_first_leaves():
    g = pos(side(ap=5, chars=["Nill", "Nill"]), side(chars=["Danger"]))
    g.play("Ann", "Nill#2 attacks Danger; discard Nill")
    g.refused("Ann", "Nill attacks Danger", "already acted")
    assert g.reparse().turn.acted == ["Nill"]


def test_not_your_turn():
    g = pos(side(), side(hand=["Nill"]))
    g.refused("Ben", "play Nill", "it is Ann's turn")


def test_a_failing_move_in_a_chain_names_its_place():
    g = pos(side(ap=3, hand=["Nill"]), side())
    message = g.refused("Ann", "draw; play Nill; play Nill", "move 3 of 3")
    assert "'play Nill'" in message


# -- the character limit when MAC leaves -----------------------------------------------------------

def test_mac_cannot_be_withdrawn_or_discarded_while_it_holds_the_fourth_character():
    g = pos(side(ap=3, cities=["MAC"], chars=["Nill", "Hawkeye", "Batman", "Storm"]), side())
    g.refused("Ann", "withdraw MAC", "without MAC the limit is 3 characters and you have 4")
    g.refused("Ann", "discard MAC", "remove a character first")
    g.play("Ann", "discard Storm; withdraw MAC")
    assert "MAC" in g.ann.hand


def test_when_the_opponent_destroys_mac_the_newest_character_over_the_limit_is_discarded():
    g = pos(side(ap=3, hand=["Bomb Plot"]), side(cities=["MAC"], chars=["Nill", "Hawkeye", "Batman", "Storm"]))
    g.play("Ann", "play Bomb Plot on MAC")
    assert [c.name for c in g.ben.characters] == ["Nill", "Hawkeye", "Batman"]
    assert g.ben.discards == ["MAC", "Storm"]


# -- a player's own cards: several attacks, a character-or-CP target ----------------------------------

OWN_CARDS = '''
[[card]]
name = "Test Twin"
kind = "character"
class = "Hero"
rarity = "common"
cost = 1
hp = 30

[[card.attack]]
name = "Cheap Dash"
type = "Speed"
cost = 1
damage = 5

[[card.attack]]
name = "Big Dash"
type = "Speed"
cost = 2
damage = 10

[[card]]
name = "Test Titan"
kind = "character"
class = "Anti-Hero"
rarity = "rare"
cost = 2
hp = 50

[[card.attack]]
name = "Titan Fist"
type = "Physical"
cost = 2
damage = 50

[[card]]
name = "Test Bolt"
kind = "event"
rarity = "common"
cost = 1
target = "opposing character or cp"
effects = [{ do = "damage", amount = 10, to = "target" }]
'''


@pytest.fixture
def own_cards(tmp_path, monkeypatch):
    """Install a player's own catalogue under PBD_HOME/catalogues (merged over the bundled one)."""
    home = tmp_path / "own-home"
    (home / "catalogues").mkdir(parents=True)
    (home / "catalogues" / "test-cards.toml").write_text(OWN_CARDS, encoding="utf-8")
    monkeypatch.setenv("PBD_HOME", str(home))


def test_a_combo_is_the_same_attack_each_time(own_cards):
    g = pos(side(ap=9, chars=[char("Test Twin", combo=2, attack="Cheap Dash")]), side(chars=["Danger"]))
    g.play("Ann", "Test Twin attacks Danger with Big Dash")
    twin = g.char("Ann", "Test Twin")
    assert (twin.combo, twin.combo_attack) == (1, "Big Dash")
    assert "[Test Twin HP=30/30] + (Big Dash)" in g.render()


def test_hyperspeed_refunds_the_cost_of_the_attack_actually_used(own_cards):
    g = pos(side(ap=2, chars=[char("Test Twin", combo=2, attack="Big Dash")]), side(chars=["Danger"]))
    g.play("Ann", "Test Twin attacks Danger with Big Dash")
    assert g.ann.ap == 2


def test_no_withdrawing_after_a_hyperspeed_attack(own_cards):
    g = pos(side(ap=3, chars=[char("Test Twin", combo=2, attack="Cheap Dash")]), side(chars=["Danger"]))
    g.play("Ann", "Test Twin attacks Danger with Cheap Dash")
    g.refused("Ann", "withdraw Test Twin", "no acting then withdrawing")


def test_penalties_still_lower_a_50_attack(own_cards):
    g = pos(side(ap=3, cities=["Vigilante Network"], chars=["Test Titan"]), side(cities=["Media Inquiry"]))
    g.play("Ann", "Test Titan attacks city")          # +5 (Vigilante Network) -5 (Media Inquiry): 50
    assert g.ben.cp == 50
    g = pos(side(ap=3, chars=["Test Titan"]), side(cities=["Media Inquiry"]))
    g.play("Ann", "Test Titan attacks city")
    assert g.ben.cp == 55


def test_vanished_cops_is_not_an_attack_so_the_first_turn_allows_it():
    g = pos(side(ap=3, hand=["Vanished Cops"]), side(chars=["Nill"]), turn_number=1)
    g.play("Ann", "play Vanished Cops")
    assert g.ben.cp == 80


def test_a_character_or_cp_target_is_screened_like_an_attack(own_cards):
    g = pos(side(ap=3, hand=["Test Bolt"]), side(chars=["Nill"]))
    g.refused("Ann", "play Test Bolt on city", "screen their CP")
    g = pos(side(ap=3, hand=["Test Bolt"]), side(), turn_number=1)
    g.refused("Ann", "play Test Bolt on city", "very first turn")
    g = pos(side(ap=3, hand=["Test Bolt"]), side())
    g.play("Ann", "play Test Bolt on city")
    assert g.ben.cp == 90


# -- names: aliases of cards in play ----------------------------------------------------------------

def test_aliases_name_characters_in_play():
    g = pos(side(ap=3, chars=["Captain America"]), side(chars=["The Sentry"]))
    g.play("Ann", "Cap attacks Sentry")
    assert g.char("Ben", "The Sentry").hp == 25


# -- all or nothing, through the CLI on a real file --------------------------------------------

@pytest.fixture
def match_file(tmp_path, pbd):
    doc = tmp_path / "match.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "rules-ann", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "rules-ben", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)           # the opening hands
    pbd("hand", doc, "--as", "Ben", ok=True)
    return doc


@pytest.mark.parametrize("moves, code, message", [
    ("draw; draw; draw; draw", 1, "move 4 of 4 ('draw'): drawing 1 card costs 1 AP; you have 0"),
    ("draw; draw; play Spoder-Mann", 2, "move 3 of 3"),
    ("draw; end turn; draw", 1, "it is Ben's turn"),
])
def test_several_moves_apply_all_or_nothing(match_file, pbd, moves, code, message):
    before = match_file.read_bytes()
    hand = pbd.json("hand", match_file, "--as", "Ann")
    result = pbd("move", match_file, "--as", "Ann", moves)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert match_file.read_bytes() == before
    assert pbd.json("hand", match_file, "--as", "Ann") == hand
    pbd("move", match_file, "--as", "Ann", "draw; draw", ok=True)
    assert len(pbd.json("hand", match_file, "--as", "Ann")["hand"]) == len(hand["hand"]) + 2


def test_an_event_aimed_at_no_one_says_the_opponent_has_no_characters():
    game = pos(ann=side(hand=["Carnivorous Plants"]), ben=side())
    game.refused("Ann", "play Carnivorous Plants", "Ben has none in play")
