"""C&C rules no test held until the mutation run of pbd/games/cnc/rules.py (issue 32) broke them.

Each test names the rule (the rulebook's words, rules/cnc-tcg.txt, or the reading in the
rules module's docstring) and asserts the one right outcome; the comment over each says which
mutants of rules.py it kills (line numbers of rules.py as on main on 2026-11-29).  The positions
come from :mod:`cnc_helpers` and the moves go through ``GAME.play``, as in test_cnc_rules.py.
"""

from __future__ import annotations

import pytest
from cnc_helpers import Turn, char, pos, side

from pbd.errors import NotationError, UnknownNameError
from pbd.games.cnc import GAME
from test_cnc_rules import OWN_CARDS


#: a player's own cards whose attacks do something after the strike (the catalogue's ``after``)
AFTER_CARDS = '''
[[card]]
name = "Test Leech"
kind = "character"
class = "Villain"
rarity = "common"
cost = 1
hp = 20

[[card.attack]]
name = "Bite"
type = "Toxic"
cost = 1
damage = 5
after = [{ do = "damage", amount = 3, to = "target" }]

[[card]]
name = "Test Bomber"
kind = "character"
class = "Villain"
rarity = "common"
cost = 1
hp = 10

[[card.attack]]
name = "Last Blast"
type = "Fire"
cost = 1
damage = 10
after = [{ do = "damage", amount = 10, to = "self" }]

[[card]]
name = "Test Captain"
kind = "character"
class = "Hero"
rarity = "common"
cost = 1
hp = 20

[[card.attack]]
name = "Shield Bash"
type = "Physical"
cost = 1
damage = 5

[[card.ability]]
name = "Rally"
passive = true
cost = 0
mods = [{ mod = "attack_bonus", amount = 5, class = "Hero" }]

[[card]]
name = "Test Jammer"
kind = "city"
rarity = "common"
cost = 1
cp = 0
text = "The opponent's attacks deal 5 less."
mods = [{ mod = "attack_bonus", amount = -5, whose = "opponent" }]

[[card]]
name = "Guardhouse"
kind = "city"
rarity = "common"
cost = 1
cp = 5
text = "A City card whose name starts like the Security Guard's alias."

[[card]]
name = "Test Power Plant"
kind = "city"
rarity = "common"
cost = 1
cp = 0
text = "2 AP at the start of each of your turns."
mods = [{ mod = "ap_per_turn", amount = 2 }]

[[card]]
name = "Test Idle Plant"
kind = "city"
rarity = "common"
cost = 1
cp = 0
text = "An income modifier with no amount: it adds nothing."
mods = [{ mod = "ap_per_turn" }]

[[card]]
name = "Test Open Door"
kind = "city"
rarity = "common"
cost = 0
cp = 0
text = "One more Event each turn (an extra_event modifier with no amount: 1)."
mods = [{ mod = "extra_event" }]

[[card]]
name = "Test Blank Banner"
kind = "city"
rarity = "common"
cost = 1
cp = 0
text = "An attack bonus with no amount: it adds nothing."
mods = [{ mod = "attack_bonus" }]

[[card]]
name = "Test Pest"
kind = "character"
class = "Anti-Hero"
rarity = "common"
cost = 0
hp = 5

[[card.attack]]
name = "Nibble"
type = "Physical"
cost = 0
damage = 1

[[card]]
name = "Test Dummy"
kind = "character"
class = "Civilian"
rarity = "common"
cost = 1
hp = 20

[[card.ability]]
name = "Blank Armor"
passive = true
cost = 0
mods = [{ mod = "damage_reduction" }]

[[card]]
name = "Test Medic"
kind = "character"
class = "Civilian"
rarity = "common"
cost = 1
hp = 10

[[card.ability]]
name = "Triage"
cost = 1
target = "any character"
effects = [{ do = "damage", amount = 5, to = "target" }, { do = "heal", amount = 10, to = "target" }]
'''


#: events whose effects leave out their amount or count: the vocabulary's defaults (amount 0, count 1)
DEFAULT_CARDS = "".join(f'''
[[card]]
name = "{name}"
kind = "event"
rarity = "common"
cost = 0
target = "{target}"
effects = [{effect}]
''' for name, target, effect in [
    ("Test Nudge", "opposing character or cp", '{ do = "damage", to = "target" }'),
    ("Test Balm", "friendly character", '{ do = "heal", to = "target" }'),
    ("Test Pledge", "none", '{ do = "cp", who = "self" }'),
    ("Test Hint", "none", '{ do = "draw" }'),
    ("Test Taunt", "none", '{ do = "discard_hand", who = "opponent" }'),
    ("Test Spark", "none", '{ do = "ap", who = "self" }'),
    ("Test Drain", "none", '{ do = "ap_next", who = "opponent" }'),
    ("Test Salvage", "none", '{ do = "recover" }'),
    ("Test Wrecker", "none", '{ do = "destroy_city" }'),
    ("Test Zap", "none", '{ do = "damage", amount = 5, to = "opponent cp" }'),
    ("Test Tithe", "none", '{ do = "damage", amount = 5, to = "own cp" }'),
    ("Test Group Hug", "none", '{ do = "heal", amount = 5, to = "all friendly" }'),
    ("Test Gamble", "none",
     '{ do = "roll", outcomes = [{ on = [6], effects = [{ do = "cp", amount = 7, who = "self" }] }] }'),
])


@pytest.fixture
def own_cards(tmp_path, monkeypatch):
    """Install test_cnc_rules' own catalogue (Test Twin: two Speed attacks) and :data:`AFTER_CARDS` under PBD_HOME."""
    home = tmp_path / "own-home"
    (home / "catalogues").mkdir(parents=True)
    (home / "catalogues" / "test-cards.toml").write_text(OWN_CARDS, encoding="utf-8")
    (home / "catalogues" / "after-cards.toml").write_text(AFTER_CARDS, encoding="utf-8")
    (home / "catalogues" / "default-cards.toml").write_text(DEFAULT_CARDS, encoding="utf-8")
    monkeypatch.setenv("PBD_HOME", str(home))


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


# -- costs and playing ------------------------------------------------------------------------

def test_the_last_ap_pays_for_a_withdraw():
    # rules.py:311: "Withdraw a card to your hand ... = 1 AP": 1 AP is enough
    g = pos(side(ap=1, chars=["Batman"]), side())
    g.play("Ann", "withdraw Batman")
    assert (g.ann.ap, g.ann.hand, g.ann.characters) == (0, ["Batman"], [])


def test_a_porter_in_the_hand_cannot_be_played():
    # rules.py:381: "both players put their Porter into play as their first City card" at the start:
    # a Porter card is never played (a hand edited to hold one is refused, nothing spent)
    g = pos(side(ap=3, hand=["The Porter"]), side())
    g.refused("Ann", "play The Porter", "The Porter is put into play at the start of the game, not played")


def test_a_character_played_first_leaves_the_turn_s_city_card_and_event():
    # rules.py:437, 440: "only one Event and one City card may be played each turn" counts City
    # cards and Events only: Nill played first uses up neither
    g = pos(side(ap=6, hand=["Nill", "Import Clinic", "Construction Project"]), side())
    g.play("Ann", "play Nill; play Import Clinic; play Construction Project")
    assert (g.ann.cities[1:], [c.name for c in g.ann.characters], g.ann.discards) == (
        ["Import Clinic"], ["Nill"], ["Construction Project"])


def test_zoning_board_s_second_city_card_after_a_character():
    # rules.py:441: each City card played counts once: Nill, Import Clinic, then City Hall (Zoning
    # Board: "you may play two City cards each turn instead of one")
    g = pos(side(ap=6, cities=["Zoning Board"], hand=["Nill", "Import Clinic", "City Hall"]), side())
    g.play("Ann", "play Nill; play Import Clinic; play City Hall")
    assert g.ann.cities[2:] == ["Import Clinic", "City Hall"]


def test_a_character_or_city_card_played_on_a_target_is_refused():
    # rules.py:395: a character or City card has no target; "play Spider-Man on Nill" is refused, not
    # played with the target dropped
    g = pos(side(ap=3, hand=["Spider-Man", "Import Clinic"]), side(chars=["Nill"]))
    g.refused("Ann", "play Spider-Man on Nill", "Spider-Man is a character card; it takes no target")
    g.refused("Ann", "play Import Clinic on Nill", "Import Clinic is a city card; it takes no target")


def test_an_event_without_a_target_played_on_one_is_refused():
    # rules.py:468: Construction Project targets nothing
    g = pos(side(ap=3, hand=["Construction Project"]), side(chars=["Nill"]))
    g.refused("Ann", "play Construction Project on Nill", "Construction Project takes no target")


def test_a_friendly_target_left_out_asks_for_it_even_when_the_opponent_has_no_characters():
    # rules.py:473: "needs an opposing character ... has none in play" is for opposing targets only;
    # Rescue Operation without its target is notation: the target is missing
    g = pos(side(ap=3, hand=["Rescue Operation"], chars=[char("Batman", 5)]), side())
    with pytest.raises(NotationError) as err:
        g.play("Ann", "play Rescue Operation")
    assert type(err.value) is NotationError
    assert str(err.value).startswith("Rescue Operation needs a target (friendly character)")


def test_attacking_a_character_of_an_opponent_with_none_says_they_have_none():
    # rules.py:512: Ben has no characters in play: the attack on "Nill" says so, not "unknown character"
    g = pos(side(ap=3, chars=["Spider-Man"]), side())
    g.refused("Ann", "Spider-Man attacks Nill", "Ben has no characters in play")


def test_an_event_s_target_typed_otherwise_is_logged_in_full():
    # rules.py:400: the log writes every name in full ("on nill" is logged "on Nill")
    g = pos(side(ap=3, hand=["Carnivorous Plants"]), side(chars=["Nill", "Danger"]))
    out = g.play("Ann", "play Carnivorous Plants on nill")
    assert out[0].startswith("play Carnivorous Plants on Nill ·")


def test_a_city_card_the_turn_line_names_in_lower_case_counts_as_played():
    # rules.py:439: a board typed by hand ("This turn: played import clinic") names the card otherwise;
    # it is still this turn's City card
    g = pos(side(ap=3, hand=["City Hall"]), side(), turn=Turn(played=["import clinic"]))
    g.refused("Ann", "play City Hall", "only 1 City card may be played each turn")


# -- characters acting ------------------------------------------------------------------------

def test_a_second_copy_s_key_that_folds_like_a_card_not_in_play_is_refused_naming_that_card():
    # rules.py:621: Ann has one NOHoPE; "NOHoPE#2" is no key of hers, and it folds like the alias
    # "NOHoPE 2" of NOHoPE (2.0), which is not in play: the refusal names that card
    g = pos(side(ap=3, chars=["NOHoPE"]), side(chars=["Nill"]))
    g.refused("Ann", "NOHoPE#2 attacks Nill", "NOHoPE (2.0) is not in play")


def test_a_hand_card_named_in_lower_case_must_be_played_before_it_acts():
    # rules.py:624: "batman" is Batman, in Ann's hand, not in play
    g = pos(side(ap=3, chars=["Spider-Man"], hand=["Batman"]), side(chars=["Nill"]))
    g.refused("Ann", "batman attacks Nill", "Batman is in your hand: play it first")


def test_a_character_without_an_attack_is_told_to_use_an_ability():
    # rules.py:655: "Characters who aren't much for combat may have two Abilities and no Attack"
    g = pos(side(ap=3, chars=["Tony Stark"]), side(chars=["Nill"]))
    g.refused("Ann", "Tony Stark attacks Nill", "Tony Stark has no attack; use one of its abilities")


def test_an_attack_not_named_is_the_card_s_first(own_cards):
    # rules.py:657: Test Twin's first attack is Cheap Dash (1 AP, 5 damage), its second Big Dash (2 AP, 10)
    g = pos(side(ap=3, chars=["Test Twin"]), side(chars=["Danger"]))
    g.play("Ann", "Test Twin attacks Danger")
    assert (g.ann.ap, g.char("Ben", "Danger").hp) == (2, 35)
    assert (g.char("Ann", "Test Twin").combo_attack) == "Cheap Dash"


def test_an_attack_named_otherwise_is_logged_in_full(own_cards):
    # rules.py:665: "with big dash" is logged "with Big Dash"
    g = pos(side(ap=3, chars=["Test Twin"]), side(chars=["Danger"]))
    out = g.play("Ann", "Test Twin attacks Danger with big dash")
    assert out[0].startswith("Test Twin attacks Danger with Big Dash ·")


def test_an_attack_s_target_typed_otherwise_is_logged_in_full():
    # rules.py:666: the attacker typed in full, the target not: "attacks batman" is logged "attacks Batman"
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill", "Batman"]))
    out = g.play("Ann", "Spider-Man attacks batman")
    assert out[0].startswith("Spider-Man attacks Batman ·")


def test_an_attack_s_after_effect_on_its_target_hits_the_character_attacked(own_cards):
    # rules.py:684: Test Leech's Bite deals 5, then 3 more to its target ("to = target")
    g = pos(side(ap=3, chars=["Test Leech"]), side(chars=["Danger"]))
    g.play("Ann", "Test Leech attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 5 - 3


def test_an_attacker_its_own_after_effect_discards_keeps_no_combo(own_cards):
    # rules.py:688: Test Bomber's Last Blast hits, then deals 10 to the Bomber itself (10 HP): it is
    # discarded, and the attack's combo count has no character to go on
    g = pos(side(ap=3, chars=["Test Bomber"]), side(chars=["Danger"]))
    g.play("Ann", "Test Bomber attacks Danger")
    assert (g.char("Ben", "Danger").hp, g.ann.characters, g.ann.discards) == (30, [], ["Test Bomber"])


def test_attacking_a_city_card_of_a_side_with_characters_says_which_to_attack_instead():
    # rules.py:726: "City cards can't be targeted by standard character attacks": attack Nill (Ben's
    # character), not "Ben's CP", which Nill screens
    g = pos(side(ap=3, chars=["Spider-Man"]), side(cities=["Import Clinic"], chars=["Nill"]))
    message = g.refused("Ann", "Spider-Man attacks Import Clinic", "City cards can't be targeted")
    assert message.endswith("attack Nill")
    g = pos(side(ap=3, chars=["Spider-Man"]), side(cities=["Import Clinic"]))
    message = g.refused("Ann", "Spider-Man attacks Import Clinic", "City cards can't be targeted")
    assert message.endswith("attack Ben's CP")


# -- attack bonuses -----------------------------------------------------------------------------

def test_a_character_s_passive_attack_bonus_counts_when_it_is_the_only_character(own_cards):
    # rules.py:755: Test Captain's passive Rally gives Hero attacks +5; he is Ann's only character
    g = pos(side(ap=3, chars=["Test Captain"]), side(chars=["Danger"]))
    g.play("Ann", "Test Captain attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 5 - 5


def test_an_opponent_s_own_attack_bonus_does_not_boost_your_attacks():
    # rules.py:763: Federal Sponsorship ("your Hero characters") is Ben's: Ann's Hero deals 10, not 15
    g = pos(side(ap=3, chars=["Spider-Man"]), side(cities=["Federal Sponsorship"], chars=["Danger"]))
    g.play("Ann", "Spider-Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 30


def test_a_penalty_on_the_opponent_s_attacks_lowers_theirs_not_its_owner_s(own_cards):
    # rules.py:763: Ben's Test Jammer lowers Ann's attacks by 5 ("whose = opponent"), not Ben's own
    g = pos(side(ap=3, chars=["Spider-Man"]), side(ap=3, cities=["Test Jammer"], chars=["Batman"]))
    g.play("Ann", "Spider-Man attacks Batman; end turn")
    assert g.char("Ben", "Batman").hp == 20 - (10 - 5)
    g.play("Ben", "Batman attacks Spider-Man")
    assert g.char("Ann", "Spider-Man").hp == 15 - 10


def test_an_attack_bonus_without_an_amount_adds_nothing(own_cards):
    # rules.py:769: a modifier's amount defaults to 0
    g = pos(side(ap=3, cities=["Test Blank Banner"], chars=["Spider-Man"]), side(chars=["Danger"]))
    g.play("Ann", "Spider-Man attacks Danger")
    assert g.char("Ben", "Danger").hp == 30


def test_an_ice_attack_without_perfect_storm_deals_its_own_damage():
    # rules.py:770: Perfect Storm's +5 is only for the turn it is in effect: Captain Cold's Cold Gun
    # deals 7 on a turn without it
    g = pos(side(ap=3, chars=["Captain Cold"]), side(chars=["Danger"]))
    g.play("Ann", "Captain Cold attacks Danger")
    assert g.char("Ben", "Danger").hp == 40 - 7


def test_an_attack_of_1_deals_1_and_one_lowered_below_0_deals_nothing(own_cards):
    # rules.py:773: Test Pest's Nibble deals 1; Media Inquiry (-5 to Anti-Hero attacks) brings it to
    # -4, which deals 0 (never heals)
    g = pos(side(ap=3, chars=["Test Pest"]), side(chars=["Danger"]))
    g.play("Ann", "Test Pest attacks Danger")
    assert g.char("Ben", "Danger").hp == 39
    g = pos(side(ap=3, chars=["Test Pest"]), side(cities=["Media Inquiry"], chars=["Danger"]))
    g.play("Ann", "Test Pest attacks Danger")
    assert g.char("Ben", "Danger").hp == 40


# -- immunities and reductions (passive Abilities) ------------------------------------------------

def test_an_intangible_character_ignores_physical_attacks_but_not_others():
    # rules.py:791: Wandering Ghost's Intangible ("not affected by Physical attacks", the rulebook's
    # example): Batman's Batarang (Physical) does nothing; Captain Cold's Cold Gun (Ice, 7) hits
    g = pos(side(ap=3, chars=["Batman", "Captain Cold"]), side(chars=["Wandering Ghost"]))
    out = g.play("Ann", "Batman attacks Wandering Ghost")
    assert "Wandering Ghost is immune to Physical attacks" in out[0]
    assert g.char("Ben", "Wandering Ghost").hp == 10
    g.play("Ann", "Captain Cold attacks Wandering Ghost")
    assert g.char("Ben", "Wandering Ghost").hp == 3


def test_a_power_nullifier_is_harmed_by_physical_attacks():
    # rules.py:791: Leech is "affected by nothing but Physical attacks": Batman's Batarang discards it
    g = pos(side(ap=3, chars=["Batman"]), side(chars=["Leech"]))
    g.play("Ann", "Batman attacks Leech")
    assert g.ben.characters == [] and g.ben.discards == ["Leech"]


def test_riot_gear_takes_5_off_every_attack():
    # Security Guard's Riot Gear: "every attack on the Security Guard deals 5 less damage"; a 5 attack
    # (Cityzen Bob) does nothing, never heals
    g = pos(side(ap=3, chars=["Batman", "Cityzen Bob"]), side(chars=["Security Guard"]))
    g.play("Ann", "Batman attacks Security Guard")
    assert g.char("Ben", "Security Guard").hp == 10 - 5
    g.play("Ann", "Cityzen Bob attacks Security Guard")
    assert g.char("Ben", "Security Guard").hp == 5


def test_a_reduction_larger_than_the_attack_deals_nothing(own_cards):
    # rules.py:798: Test Pest's Nibble (1) on the Security Guard (Riot Gear -5) deals 0, never heals
    g = pos(side(ap=3, chars=["Test Pest"]), side(chars=[char("Security Guard", 5)]))
    g.play("Ann", "Test Pest attacks Security Guard")
    assert g.char("Ben", "Security Guard").hp == 5


def test_a_damage_reduction_without_an_amount_takes_nothing_off(own_cards):
    # rules.py:798: a modifier's amount defaults to 0
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Test Dummy"]))
    g.play("Ann", "Spider-Man attacks Test Dummy")
    assert g.char("Ben", "Test Dummy").hp == 20 - 10


# -- damage and healing -----------------------------------------------------------------------------

def test_a_character_left_at_1_hp_stays_in_play():
    # rules.py:811: "When a Character's HP reach 0, that Character is discarded": at 1 it stays
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=[char("Batman", 11)]))
    g.play("Ann", "Spider-Man attacks Batman")
    assert (g.char("Ben", "Batman").hp, g.ben.discards) == (1, [])


def test_an_after_effect_on_a_target_the_attack_discarded_does_nothing(own_cards):
    # rules.py:806: Test Leech's Bite (5) discards Cityzen Bob (5 HP); its 3 more "to target" find no one
    g = pos(side(ap=3, chars=["Test Leech"]), side(chars=["Cityzen Bob", "Danger"]))
    g.play("Ann", "Test Leech attacks Cityzen Bob")
    assert g.ben.discards == ["Cityzen Bob"] and g.char("Ben", "Danger").hp == 40


def test_a_heal_on_a_target_the_same_ability_discarded_does_nothing(own_cards):
    # rules.py:836: Test Medic's Triage deals 5 then heals 10: Cityzen Bob (5 HP) is discarded first
    g = pos(side(ap=3, chars=["Test Medic", "Cityzen Bob"]), side())
    g.play("Ann", "Test Medic uses Triage on Cityzen Bob")
    assert g.ann.discards == ["Cityzen Bob"] and [c.name for c in g.ann.characters] == ["Test Medic"]


# -- combo type effects ---------------------------------------------------------------------------

def test_freeze_takes_the_third_attack_s_target_when_it_is_still_in_play():
    # rules.py:858: "Combo type effects aim ... otherwise at the attack's target": Nill, not Danger
    g = pos(side(ap=3, chars=[char("Captain Cold", combo=2)]), side(chars=["Danger", "Nill"]))
    g.play("Ann", "Captain Cold attacks Nill")
    assert (g.char("Ben", "Nill").statuses, g.char("Ben", "Danger").statuses) == (["frozen"], [])


def test_freeze_falls_to_the_first_opposing_character_when_the_third_attack_discarded_its_target():
    # rules.py:858, 860: Nill (5 HP) is discarded by Cold Gun; "else the first opposing character":
    # Danger, not Batman
    g = pos(side(ap=3, chars=[char("Captain Cold", combo=2)]), side(chars=["Danger", char("Nill", 5), "Batman"]))
    g.play("Ann", "Captain Cold attacks Nill")
    assert g.ben.discards == ["Nill"]
    assert (g.char("Ben", "Danger").statuses, g.char("Ben", "Batman").statuses) == (["frozen"], [])


def test_hack_without_a_card_named_reveals_the_first_and_then_0_is_the_first_too():
    # rules.py:865: Hack reveals "a card of your choice"; none chosen is card 1, and 0 is read as 1
    ben = side(ap=3, chars=["Danger", "Nill"], hand=["Batman", "Storm", "Hawkeye"])
    g = pos(side(ap=5, chars=[char("Lex Luthor", combo=2)]), ben)
    out = g.play("Ann", "Lex Luthor attacks Nill")
    assert "Ben's hand card 1 is Batman" in out[0]
    g = pos(side(ap=5, chars=[char("Lex Luthor", combo=2)]), ben)
    out = g.play("Ann", "Lex Luthor attacks Nill then 0")
    assert "Ben's hand card 1 is Batman" in out[0]


def test_elemental_force_without_a_city_named_takes_the_newest_city_card():
    # rules.py:887: Construction Worker's third Jackhammer (Earth) destroys Ben's last City card
    g = pos(side(ap=3, chars=[char("Construction Worker", combo=2)]),
            side(cities=["Import Clinic", "City Hall"], chars=["Danger"]))
    g.play("Ann", "Construction Worker attacks Danger")
    assert (g.ben.cities, g.ben.discards) == (["The Porter", "Import Clinic"], ["City Hall"])


def test_pulse_on_an_attack_on_cp_adds_ten_to_the_cp():
    # rules.py:890: "Pulse: this attack does 10 extra damage": Iron Man's third Repulsor Blast (20) on
    # Ben's CP, no character in play, takes 30
    g = pos(side(ap=3, chars=[char("Iron Man", combo=2)]), side())
    g.play("Ann", "Iron Man attacks city")
    assert g.ben.cp == 100 - 20 - 10


def test_pulse_then_a_character_hits_that_character():
    # rules.py:890: "to a target of your choice": then Nill
    g = pos(side(ap=3, chars=[char("Iron Man", combo=2)]), side(chars=["Danger", "Nill"]))
    g.play("Ann", "Iron Man attacks Danger then Nill")
    assert (g.char("Ben", "Danger").hp, g.ben.discards) == (20, ["Nill"])


def test_discordant_on_an_attack_on_cp_deals_nothing_more():
    # rules.py:890: "Discordant: deals 5 extra damage to any Character card of your choice": with no
    # character in play, Black Canary's third Canary Cry on CP takes only its 10
    g = pos(side(ap=3, chars=[char("Black Canary", combo=2)]), side())
    g.play("Ann", "Black Canary attacks city")
    assert g.ben.cp == 90


# -- abilities ------------------------------------------------------------------------------------

def test_a_character_without_abilities_is_told_so():
    # rules.py:921: Spider-Man has an attack and no ability
    g = pos(side(ap=3, chars=["Spider-Man"]), side(chars=["Nill"]))
    g.refused("Ann", "Spider-Man uses Web Strike on Nill", "Spider-Man has no abilities")


def test_a_passive_ability_is_not_used():
    # rules.py:927: "It is important to specify if an Ability is passive (always in effect)"
    g = pos(side(ap=3, chars=["Captain America"]), side())
    g.refused("Ann", "Captain America uses Heroic Resolve",
              "Heroic Resolve is passive: it is always in effect and is not used")


def test_a_character_that_attacked_cannot_use_an_ability_the_same_turn():
    # rules.py:929: "Most characters can only Act once a turn": an attack, then an ability, is refused
    g = pos(side(ap=3, chars=["Batman"]), side(chars=["Danger", "Nill"]))
    g.play("Ann", "Batman attacks Danger")
    g.refused("Ann", "Batman uses Fear Tactics on Nill", "Batman has already acted this turn")


@pytest.mark.parametrize("typed", ["batman uses Fear Tactics on Nill", "Batman uses fear tactics on Nill",
                                   "Batman uses Fear Tactics on nill"])
def test_an_ability_move_typed_otherwise_is_logged_in_full(typed):
    # rules.py:933, 934: the user, the ability and its target are each written in full in the log
    g = pos(side(ap=3, chars=["Batman"]), side(chars=["Danger", "Nill"]))
    out = g.play("Ann", typed)
    assert out[0].startswith("Batman uses Fear Tactics on Nill ·")


def test_a_confused_character_s_ability_fails_and_it_takes_5():
    # rules.py:940: "The next time they try to Act their action will fail and they will inflict 5 HP on
    # themselves": an ability is an Act too; the AP is spent and the Confusion ends
    g = pos(side(ap=3, chars=[char("Batman", None, "confused")]), side(chars=["Nill"]))
    g.play("Ann", "Batman uses Fear Tactics on Nill")
    assert (g.char("Ann", "Batman").hp, g.char("Ann", "Batman").statuses) == (15, [])
    assert (g.char("Ben", "Nill").statuses, g.ann.ap) == ([], 2)


# -- the effect vocabulary's defaults (a player's own cards may leave amount and count out) ------------

def _after_playing(card: str, move: str, **ann):
    g = pos(side(ap=3, hand=[card], **ann), side(ap=3, chars=["Nill"] if "Nudge on Nill" in move else [],
                                                 hand=["Batman", "Storm"]))
    g.play("Ann", move)
    return g


@pytest.mark.parametrize("card, move, ann, seen", [
    ("Test Nudge", "play Test Nudge on Nill", {}, lambda g: g.char("Ben", "Nill").hp == 10),          # rules.py:968
    ("Test Nudge", "play Test Nudge on city", {}, lambda g: g.ben.cp == 100),                         # rules.py:966
    ("Test Balm", "play Test Balm on Batman", {"chars": [char("Batman", 5)]},
     lambda g: g.char("Ann", "Batman").hp == 5),                                                       # rules.py:972
    ("Test Pledge", "play Test Pledge", {}, lambda g: g.ann.cp == 100),                               # rules.py:974
    ("Test Hint", "play Test Hint", {}, lambda g: len(g.ann.hand) == 1 and g.ann.deck == 49),          # rules.py:978
    ("Test Taunt", "play Test Taunt", {}, lambda g: [p.count for p in g.state.pending] == [1]),       # rules.py:980
    ("Test Spark", "play Test Spark", {}, lambda g: g.ann.ap == 3),                                   # rules.py:982
    ("Test Drain", "play Test Drain", {}, lambda g: (g.ben.ap, g.ben.ap_next) == (3, 0)),             # rules.py:984
    ("Test Salvage", "play Test Salvage", {"discards": ["Nill", "Hawkeye"]},
     lambda g: (g.ann.hand, g.ann.discards) == (["Hawkeye"], ["Nill", "Test Salvage"])),             # rules.py:1004
])
def test_an_effect_without_its_amount_does_0_and_without_its_count_does_1(own_cards, card, move, ann, seen):
    assert seen(_after_playing(card, move, **ann))


@pytest.mark.parametrize("card, seen", [
    ("Test Wrecker", lambda g: g.ben.cities == ["The Porter", "Import Clinic"]),       # rules.py:987: no target
    ("Test Zap", lambda g: (g.ann.cp, g.ben.cp) == (100, 95)),                         # rules.py:1029
    ("Test Tithe", lambda g: (g.ann.cp, g.ben.cp) == (95, 100)),                       # rules.py:1031
    ("Test Group Hug", lambda g: [c.hp for c in g.ann.characters] == [10, 10]),        # rules.py:1035
])
def test_effects_on_no_target_on_either_side_s_cp_and_on_all_friendly(own_cards, card, seen):
    g = pos(side(ap=3, hand=[card], chars=[char("Batman", 5), char("Spider-Man", 5)]), side(cities=["Import Clinic"]))
    g.play("Ann", f"play {card}")
    assert seen(g)


def test_a_roll_without_its_sides_is_a_d6(own_cards):
    # rules.py:1009: Test Gamble rolls a die (no "sides": 6) and gains 7 CP on a 6; the seed is one whose
    # first roll is 6 on a d6 and not on a d5 or a d7
    from pbd import fairplay

    def first(text, sides):
        return fairplay.roll(fairplay.seed_from_text(text), 0, fairplay.beacon_text([("Ben", 0, "")]), sides)

    seed = next(f"gamble-{i}" for i in range(500)
                if first(f"gamble-{i}", 6) == 6 and 6 not in (first(f"gamble-{i}", 5), first(f"gamble-{i}", 7)))
    g = pos(side(ap=3, hand=["Test Gamble"], seed=seed), side())
    out = g.play("Ann", "play Test Gamble")
    assert "rolled 6 (d6)" in out[0] and g.ann.cp == 107


# -- cards that return characters to the hand, and effects on every character ------------------------

def test_dimensional_rift_returns_a_character_of_either_side_to_its_owner_s_hand():
    # rules.py:991: "Any character in play (yours or your opponent's) returns to its owner's hand"
    g = pos(side(ap=3, hand=["Dimensional Rift"]), side(chars=[char("Nill", 3), "Danger"]))
    g.play("Ann", "play Dimensional Rift on Nill")
    assert ([c.name for c in g.ben.characters], g.ben.hand) == (["Danger"], ["Nill"])
    g = pos(side(ap=3, hand=["Dimensional Rift"], chars=[char("Batman", 4)]), side())
    g.play("Ann", "play Dimensional Rift on Batman")
    assert (g.ann.characters, g.ann.hand) == ([], ["Batman"])


def test_hopelessness_hits_every_opposing_character_at_the_start_of_its_owner_s_turn():
    # rules.py:1034: NOHoPE (2.0)'s Hopelessness: 5 to all opposing characters each of Ann's turns
    g = pos(side(ap=3, chars=["NOHoPE (2.0)"]), side(chars=["Danger", "Batman", "Magneto"]), to_move=1)
    g.play("Ben", "end turn")
    assert [(c.name, c.hp) for c in g.ben.characters] == [("Danger", 35), ("Batman", 15), ("Magneto", 30)]


# -- Import Clinic's "most damaged character" ----------------------------------------------------------

def test_import_clinic_heals_the_most_damaged_character():
    # rules.py:1042, 1043: Batman (20, at 5: 15 down) is more damaged than Danger (40, at 35) and
    # Spider-Man (15, at 10): the Clinic heals Batman, the second of three
    g = pos(side(ap=3, hand=["Import Clinic"], chars=[char("Danger", 35), char("Batman", 5), char("Spider-Man", 10)]),
            side())
    g.play("Ann", "play Import Clinic")
    assert [c.hp for c in g.ann.characters] == [35, 15, 10]


def test_import_clinic_leaves_a_character_at_full_hp_alone():
    # rules.py:1041: nobody is damaged: nobody is healed, so a confused Batman at full HP stays confused
    # (healing cures Confusion)
    g = pos(side(ap=3, hand=["Import Clinic"], chars=[char("Batman", None, "confused")]), side())
    out = g.play("Ann", "play Import Clinic")
    assert g.char("Ann", "Batman").statuses == ["confused"] and "healed" not in out[0]


# -- AP taken and given ---------------------------------------------------------------------------------

def test_a_drain_paid_in_full_now_says_nothing_of_the_next_turn():
    # rules.py:1056: Annual Blackout takes 3 of Ben's 5 AP: nothing comes off his next income
    g = pos(side(hand=["Annual Blackout"]), side(ap=5))
    out = g.play("Ann", "play Annual Blackout")
    assert "Ben loses 3 AP ·" in out[0] + " ·" and "from next turn" not in out[0]


def test_an_ap_effect_of_0_is_a_gain_of_0(own_cards):
    # rules.py:1048: an "ap" effect with no amount gives 0: "gains 0 AP", nothing taken
    g = pos(side(ap=3, hand=["Test Spark"]), side())
    out = g.play("Ann", "play Test Spark")
    assert "Ann gains 0 AP" in out[0] and (g.ann.ap, g.ann.ap_next) == (3, 0)


# -- discards owed -----------------------------------------------------------------------------------

def test_discards_already_owed_count_against_the_hand_and_nothing_else_does():
    # rules.py:1091: Ben owes 2 of his 3 cards already (Sinister twice): Vulcanus Agents can take only
    # 1 more; a Hack reveal he owes is no discard and takes nothing off
    from cnc_helpers import Pending

    owed = [Pending("Ben", "discard", 2, source="Sinister")]
    g = pos(side(ap=3, hand=["Vulcanus Agents"]), side(hand=["Nill", "Batman", "Storm"]), pending=owed)
    g.play("Ann", "play Vulcanus Agents")
    assert [(p.kind, p.count) for p in g.state.pending] == [("discard", 2), ("discard", 1)]
    reveal = [Pending("Ben", "reveal", 2, source="Hack")]
    g = pos(side(ap=3, hand=["Vulcanus Agents"]), side(hand=["Nill", "Batman", "Storm"]), pending=reveal)
    g.play("Ann", "play Vulcanus Agents")
    assert [(p.kind, p.count) for p in g.state.pending] == [("reveal", 2), ("discard", 3)]


def test_hack_on_a_hand_this_pbd_cannot_see_is_left_to_its_owner():
    # rules.py:1100: Ann's pbd holds only Ann's secrets: whatever the state holds for Ben's hand, the
    # card is Ben's to reveal ("Pending"), never named by Ann's command
    ben = side(ap=3, chars=["Danger", "Nill"], hand=["Batman", "Storm", "Hawkeye"])
    g = pos(side(ap=5, chars=[char("Lex Luthor", combo=2)]), ben, secrets_for=("Ann",))
    out = g.play("Ann", "Lex Luthor attacks Nill then 2")
    assert [(p.player, p.kind, p.count) for p in g.state.pending] == [("Ben", "reveal", 2)]
    assert "Storm" not in out[0]


# -- the Porter ---------------------------------------------------------------------------------------

def test_the_porter_written_with_a_hyphen_is_still_the_porter():
    # rules.py:1133, 1134: "discard The-Porter" names The Porter (names forgive punctuation): refused
    g = pos(side(ap=3, cities=["Import Clinic"]), side())
    g.refused("Ann", "discard The-Porter", "the Porter stays in play for the whole game")


def test_a_side_whose_porter_was_edited_away_may_discard_its_first_city_card():
    # rules.py:1131: with no Porter in play (a board edited by hand; pbd check names it), no City card
    # is taken for the Porter
    g = pos(side(ap=3, cities=["Import Clinic", "City Hall"]), side())
    g.ann.cities.remove("The Porter")
    g.play("Ann", "discard Import Clinic")
    assert (g.ann.cities, g.ann.discards) == (["City Hall"], ["Import Clinic"])


def test_a_withdraw_not_written_in_full_picks_among_characters_and_city_cards_alike():
    # rules.py:1148: only a move the log writes in full (GAME.play's) picks a character first; a Ctx
    # that logs nothing (a dry run, the legal-move check) finds "cit" ambiguous between City Councilor
    # and City Hall
    from pbd.errors import AmbiguousNameError
    from pbd.games.cnc import GAME, rules

    g = pos(side(ap=3, cities=["City Hall"], chars=["City Councilor"]), side())
    ctx = rules.Ctx(g.state, GAME.catalogue, g.chance, "Ann")
    with pytest.raises(AmbiguousNameError):
        rules.apply(ctx, rules.parse_move("withdraw cit"))


def test_a_withdraw_by_a_character_s_alias_takes_the_character_before_a_city_card_it_starts(own_cards):
    # rules.py:1152: "withdraw Guard": Guard is the Security Guard's alias, and starts the City card
    # Guardhouse; a withdraw picks among your characters first
    g = pos(side(ap=3, cities=["Guardhouse"], chars=["Security Guard"]), side())
    out = g.play("Ann", "withdraw Guard")
    assert (g.ann.hand, g.ann.cities) == (["Security Guard"], ["The Porter", "Guardhouse"])
    assert out[0].startswith("withdraw Security Guard ·")


def test_withdrawing_a_second_copy_puts_the_card_itself_in_the_hand():
    # rules.py:1167: "withdraw Nill#2" returns a Nill to the hand
    g = pos(side(ap=3, chars=["Nill", "Nill"]), side())
    g.play("Ann", "withdraw Nill#2")
    assert (g.ann.hand, [c.name for c in g.ann.characters], g.state.turn.withdrawn) == (["Nill"], ["Nill"], ["Nill"])


def test_a_discard_from_the_hand_while_the_opponent_owes_discards_is_your_own():
    # rules.py:1183: Ben owes 3 (Vulcanus Agents); Ann's own discard from her hand costs her 1 AP and
    # pays nothing of Ben's
    g = pos(side(ap=3, hand=["Vulcanus Agents", "Nill"]), side(hand=["Batman", "Storm", "Hawkeye"]))
    g.play("Ann", "play Vulcanus Agents; discard Nill from hand")
    assert (g.ann.ap, g.ann.discards) == (0, ["Vulcanus Agents", "Nill"])
    assert [(p.player, p.count) for p in g.state.pending] == [("Ben", 3)]


def test_discarding_a_card_both_in_the_hand_and_in_play_asks_which():
    # rules.py:1189, 1190, 1192: Nill is in Ann's hand and on her field: "discard Nill" is notation to fix
    g = pos(side(ap=3, hand=["Nill"], chars=["Nill"]), side())
    with pytest.raises(NotationError) as err:
        g.play("Ann", "discard Nill")
    assert str(err.value).startswith("Nill is both in your hand and in play")
    assert (g.ann.hand, len(g.ann.characters), g.ann.ap) == (["Nill"], 1, 3)


def test_a_discard_of_a_name_made_only_of_punctuation_is_looked_for_in_the_hand():
    # rules.py:1238: "-" folds to nothing: it is on no field, so it is looked for in the hand
    g = pos(side(ap=3, hand=["Nill"], chars=["Batman"]), side())
    with pytest.raises(UnknownNameError) as err:
        g.play("Ann", "discard -")
    assert str(err.value).startswith("unknown card in your hand '-'")


# -- adjustments -----------------------------------------------------------------------------------

@pytest.mark.parametrize("reason", ["the Void (rolled 1", "the Void rolled 1)"])
def test_an_adjustment_s_reason_with_a_parenthesis_is_refused(reason):
    # rules.py:1255: the log keeps the reason after the move; a parenthesis is refused, either one alone
    g = pos(side(ap=3, chars=["The Sentry"]), side())
    with pytest.raises(NotationError, match="without parentheses"):
        g.play("Ann", f"adjust Ann CP -10: {reason}")
    assert g.ann.cp == 100 and g.state.pending == []


def test_the_proposer_cannot_accept_their_own_adjustment():
    # rules.py:1291, 1292: Ann's proposal waits for Ben; Ann's "accept" is refused and changes nothing
    g = pos(side(ap=3), side())
    g.play("Ann", "adjust Ben CP -10: a side bet")
    g.refused("Ann", "accept", "there is no proposed adjustment for you to accept or reject")
    assert g.ben.cp == 100 and [(p.player, p.kind) for p in g.state.pending] == [("Ben", "adjust")]


def test_an_adjustment_names_whose_character_it_is():
    # rules.py:1315, 1317: both players have a Nill; "Ben's Nill" is Ben's
    g = pos(side(ap=3, chars=["Nill"]), side(chars=["Nill"]))
    g.play("Ann", "adjust Ben's Nill HP -4: fell off a roof")
    g.play("Ben", "accept")
    assert (g.char("Ann", "Nill").hp, g.char("Ben", "Nill").hp) == (10, 6)


def test_an_adjustment_of_a_character_both_players_have_without_an_owner_takes_player_1_s():
    # rules.py:1320: "adjust Nill" with a Nill on each side and no owner named: the first seat's Nill
    g = pos(side(ap=3, chars=["Nill"]), side(chars=["Nill"]))
    g.play("Ann", "adjust Nill HP -4: fell off a roof")
    g.play("Ben", "accept")
    assert (g.char("Ann", "Nill").hp, g.char("Ben", "Nill").hp) == (6, 10)


def test_an_adjustment_without_an_owner_takes_player_1_s_even_when_player_2_is_called_like_the_card():
    # rules.py:1317: only "NAME's card" names an owner; a player called Nill does not make "adjust Nill" theirs
    g = pos(side(ap=3, chars=["Nill"]), side(chars=["Nill"]), names=("Ann", "Nill"))
    g.play("Ann", "adjust Nill HP -4: fell off a roof")
    g.play("Nill", "accept")
    assert (g.char("Ann", "Nill").hp, g.char("Nill", "Nill").hp) == (6, 10)


def test_an_adjustment_of_hp_minus_1_is_damage_not_healing():
    # rules.py:1321: -1 HP hurts (Nill 10 -> 9); healing would cure his Confusion
    g = pos(side(ap=3), side(chars=[char("Nill", None, "confused")]))
    g.play("Ann", "adjust Nill HP -1: a paper cut")
    out = g.play("Ben", "accept")
    assert (g.char("Ben", "Nill").hp, g.char("Ben", "Nill").statuses) == (9, ["confused"])
    assert "Nill HP 10→9" in out[0]


def test_an_adjustment_of_hp_1_is_healing():
    # rules.py:1323: +1 HP heals (Nill 7 -> 8) and so cures his Confusion
    g = pos(side(ap=3), side(chars=[char("Nill", 7, "confused")]))
    g.play("Ann", "adjust Nill HP +1: a plaster")
    g.play("Ben", "accept")
    assert (g.char("Ben", "Nill").hp, g.char("Ben", "Nill").statuses) == (8, [])


def test_an_adjustment_of_hp_0_is_no_healing():
    # rules.py:1321: "unless they ... receive healing": an agreed HP 0 changes nothing, Confusion stays
    g = pos(side(ap=3), side(chars=[char("Nill", None, "confused")]))
    g.play("Ann", "adjust Nill HP 0: nothing really")
    out = g.play("Ben", "accept")
    assert (g.char("Ben", "Nill").hp, g.char("Ben", "Nill").statuses) == (10, ["confused"])
    assert "HP 10→" not in out[0] and "healed" not in out[0], out         # no damage and no healing noted


# -- the end of a turn ----------------------------------------------------------------------------

def test_a_combo_begun_this_turn_is_kept_by_an_end_turn_in_a_new_process():
    # rules.py:1337: "A turn without attacking breaks it": Captain Cold attacked, so his combo level
    # stays; the end of the turn is a new pbd command, whose kept rows of keys start empty
    from pbd.games.cnc import state

    g = pos(side(ap=3, chars=["Captain Cold", "Nill"]), side(chars=["Danger"]))
    g.play("Ann", "Captain Cold attacks Danger")
    state._KEYS.clear()
    g.play("Ann", "end turn")
    assert (g.char("Ann", "Captain Cold").combo, g.char("Ann", "Captain Cold").combo_attack) == (1, "")


def test_the_turn_count_goes_up_by_one():
    # rules.py:1347: each end of a turn begins the next: turn 3 -> 4, shown on the status line
    g = pos(side(), side())
    g.play("Ann", "end turn")
    assert g.state.turn_number == 4 and GAME.status(g.state) == ["Turn 4: Ben to move with 6 AP."]


def test_overdrive_needs_cp_below_50_also_with_a_card_that_adds_income():
    # rules.py:1353: "When CP drops below 50": at exactly 50 the Porter gives 3, plus Avengers Mansion's
    # 1 for Spider-Man
    g = pos(side(), side(ap=0, cp=50, cities=["Avengers Mansion"], chars=["Spider-Man"]))
    g.play("Ann", "end turn")
    assert g.ben.ap == 3 + 1


def test_an_income_card_without_a_class_gives_its_amount_once(own_cards):
    # rules.py:1365: Test Power Plant gives 2 AP at once (City effects take hold the turn the card is
    # played) and 2 at the start of each of Ann's turns
    g = pos(side(ap=1, hand=["Test Power Plant"]), side())
    g.play("Ann", "play Test Power Plant")
    assert g.ann.ap == 0 + 2
    g.play("Ann", "end turn")
    g.play("Ben", "end turn")
    assert g.ann.ap == 2 + 3 + 2


def test_an_income_card_without_an_amount_gives_nothing(own_cards):
    # rules.py:1371: a modifier's amount defaults to 0
    g = pos(side(ap=1, hand=["Test Idle Plant"]), side())
    g.play("Ann", "play Test Idle Plant; end turn")
    g.play("Ben", "end turn")
    assert g.ann.ap == 0 + 3


def test_drains_larger_than_the_income_leave_0_ap():
    # rules.py:1385: Ben owes 5 of his next income (two Shutdowns and a Blackout's rest): 3 - 5 is 0 AP,
    # and the debt is gone
    g = pos(side(), side(ap=0, ap_next=-5))
    g.play("Ann", "end turn")
    assert (g.ben.ap, g.ben.ap_next) == (0, 0)


def test_an_extra_event_card_without_an_amount_allows_one_more(own_cards):
    # rules.py:1503: the amount of extra_event / extra_city defaults to 1: two Events, not a third
    g = pos(side(ap=5, cities=["Test Open Door"], hand=["Construction Project"] * 3), side())
    g.play("Ann", "play Construction Project; play Construction Project")
    g.refused("Ann", "play Construction Project", "only 2 Events may be played each turn")


# -- the end of the match ---------------------------------------------------------------------------

def test_destruction_at_0_while_the_winner_holds_1_cp_is_a_win_not_a_draw():
    # rules.py:1547: "until their City Points reach 0": Ann at CP 1 has not lost; Ben at 0 has
    g = pos(side(ap=3, cp=1, chars=["Spider-Man"]), side(cp=10))
    g.play("Ann", "Spider-Man attacks city")
    assert g.state.result == "Ann wins by Destruction (Ben's CP 0)"


# -- lines no test ran before (the full run's "not covered") -------------------------------------------

def test_a_ctx_of_the_one_seated_player_named_exactly_finds_their_side():
    # rules.py:155: before player 2 joins, a Ctx for "Ann" (as written) has her side
    from pbd.games.cnc import rules

    g = pos()
    del g.state.sides[1]
    assert rules.Ctx(g.state, GAME.catalogue, g.chance, "Ann").me is g.state.sides[0]


def test_a_card_that_is_no_character_is_told_apart_as_an_event_or_a_city_card():
    # rules.py:628: "Construction Project is an event card", "Import Clinic is a city card"
    g = pos(side(ap=3, hand=["Construction Project"], cities=["Import Clinic"], chars=["Spider-Man"]),
            side(chars=["Nill"]))
    g.refused("Ann", "Construction Project attacks Nill",
              "Construction Project is an event card, not a character: play it with 'play Construction Project'")
    message = g.refused("Ann", "Import Clinic attacks Nill", "Import Clinic is a city card, not a character")
    assert "play it" not in message


def test_hack_then_card_2_reveals_card_2():
    # rules.py:863: the card's number is the last word of "then ...": "then card 2" is card 2
    ben = side(ap=3, chars=["Danger", "Nill"], hand=["Batman", "Storm", "Hawkeye"])
    g = pos(side(ap=5, chars=[char("Lex Luthor", combo=2)]), ben)
    out = g.play("Ann", "Lex Luthor attacks Nill then card 2")
    assert "Ben's hand card 2 is Storm" in out[0]
