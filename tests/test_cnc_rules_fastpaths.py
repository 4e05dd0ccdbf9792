"""The C&C rules' fast paths (issue 16) give what the full lookups give.

The rules look the cards in play up by the names the board holds, one subscript each; a
name written otherwise (another case) falls back to the catalogue's full lookup, and a name
the catalogue does not know is still refused.  The Ctx keeps the acting player's sides in
slots; one made for a name in another case looks them up on first use.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from cnc_helpers import char, pos, side

from pbd.errors import UnknownNameError
from pbd.games.cnc import GAME, rules
from pbd.games.cnc.state import Turn


def test_a_city_written_in_another_case_gives_its_modifiers():
    exact = pos(side(cities=["Avengers Mansion"], chars=["Captain America"]))
    other = pos(side(cities=["avengers mansion"], chars=[char("Captain America")]))
    other.ann.characters[0].name = "captain america"
    mods = rules.active_mods(exact.state, GAME.catalogue, exact.ann)
    assert mods and rules.active_mods(other.state, GAME.catalogue, other.ann) == mods
    assert rules.income(other.state, GAME.catalogue, other.ann) == rules.income(exact.state, GAME.catalogue, exact.ann)


def test_a_card_in_play_the_catalogue_does_not_know_is_refused():
    g = pos(side(cities=["Import Clinic"]))
    g.ann.cities.append("Nowhere Tower")
    with pytest.raises(UnknownNameError, match="Nowhere Tower"):
        rules.active_mods(g.state, GAME.catalogue, g.ann)


def test_start_of_turn_effects_of_a_city_written_in_another_case_still_act():
    # Ben's Protection Racket takes 5 CP from Ann at the start of Ben's turn, however the board spells it
    g = pos(side(), side(cities=["protection racket"]))
    g.play("Ann", "end turn")
    assert g.ann.cp == 95


def test_a_ctx_for_a_name_in_another_case_finds_its_seats_on_first_use():
    g = pos()
    ctx = rules.Ctx(g.state, GAME.catalogue, g.chance, "ben")
    assert type(ctx) is not rules.Ctx and isinstance(ctx, rules.Ctx)
    assert (ctx.me, ctx.opp) == (g.ben, g.ann) and ctx.me is g.ben
    exact = rules.Ctx(g.state, GAME.catalogue, g.chance, "Ben")
    assert type(exact) is rules.Ctx and exact.me is g.ben and exact.opp is g.ann


def test_flood_switches_off_the_cities_of_the_side_not_on_turn_only():
    g = pos(side(cities=["Avengers Mansion"]), side(cities=["Avengers Mansion"], chars=["Captain America"]),
            turn=Turn(effects=["Flood"]))
    cap = list(GAME.catalogue.get("Captain America").all_mods())
    mansion = list(GAME.catalogue.get("Avengers Mansion").all_mods())
    assert rules.active_mods(g.state, GAME.catalogue, g.ann) == mansion
    assert rules.active_mods(g.state, GAME.catalogue, g.ben) == cap


def test_poison_hurts_every_poisoned_character_once_even_when_one_dies():
    g = pos(side(), side(chars=[char("Nill", 1, "poisoned"), "Danger", char("Nill", 3, "poisoned")]))
    g.play("Ann", "end turn")
    assert [(c.name, c.hp) for c in g.ben.characters] == [("Danger", 40), ("Nill", 2)]
    assert g.ben.discards == ["Nill"]


def test_an_attack_bonus_of_a_city_written_in_another_case_still_counts():
    # Black Market Arms: +5 to Physical attacks; the catalogue's set of names without a bonus holds only exact names
    exact = pos(side(ap=5, cities=["Black Market Arms"], chars=["Cityzen Bob"]), side(chars=["Danger"]))
    other = pos(side(ap=5, cities=["black market arms"], chars=["Cityzen Bob"]), side(chars=["Danger"]))
    plain = pos(side(ap=5, chars=["Cityzen Bob"]), side(chars=["Danger"]))
    hurt = [g.play("Ann", "Cityzen Bob attacks Danger")[0].split(" · ")[1] for g in (exact, other, plain)]
    assert hurt[0] == hurt[1] != hurt[2]


def test_income_and_attacks_still_refuse_a_card_in_play_the_catalogue_does_not_know():
    g = pos(side(cities=["Import Clinic"], chars=["Nill"]), side(chars=["Danger"]))
    g.ben.cities.append("Nowhere Tower")
    with pytest.raises(UnknownNameError, match="Nowhere Tower"):
        rules.income(g.state, GAME.catalogue, g.ben)
    with pytest.raises(UnknownNameError, match="Nowhere Tower"):
        g.play("Ann", "Nill attacks Danger")


def test_whether_a_target_names_the_cp_depends_on_whose_cp():
    assert rules._is_cp_word("Ann", "Ann") and not rules._is_cp_word("Ann", "Ben")
    assert rules._is_cp_word("Ben's CP", "Ann") and not rules._is_cp_word("Nill", "Ann")


def test_an_attack_with_effects_after_it_still_counts_towards_the_attackers_combo():
    # the attacker is found again by its key after its attack's own effects (they may move it)
    g = pos(side(ap=5, chars=["Nill", "The Sentry"]), side(chars=["Danger"]))
    g.play("Ann", "The Sentry attacks Danger")
    assert g.char("Ann", "The Sentry").combo == 1


def test_a_strike_hurts_the_copy_its_key_names():
    g = pos(side(ap=5, chars=["Cityzen Bob"]), side(chars=["Nill", "Danger", char("Nill", 9)]))
    g.play("Ann", "Cityzen Bob attacks Nill#2")
    assert [(c.name, c.hp) for c in g.ben.characters] == [("Nill", 10), ("Danger", 40), ("Nill", 4)]


def test_the_catalogues_names_without_a_modifier_leave_out_the_cards_that_have_one_by_name_and_alias():
    from pbd.games.cnc.cards import Catalogue

    bundled = GAME.catalogue
    mansion, sentry = bundled.get("Avengers Mansion"), bundled.get("The Sentry")
    cat = Catalogue({"Avengers Mansion": mansion, "The Sentry": sentry})
    plain = cat.without["ap_per_turn"]
    assert "The Sentry" in plain and set(sentry.aliases) <= plain
    assert "Avengers Mansion" not in plain and "avengers mansion" not in plain    # (written otherwise: looked up)
    assert {"Avengers Mansion", "The Sentry"} <= cat.without["attack_bonus"]
    without_mansion = Catalogue({"The Sentry": sentry})
    assert without_mansion.without["ap_per_turn"] == {"The Sentry", *sentry.aliases}

    assert "turn_start" not in without_mansion.without       # (made when the rules first ask: not cached)
    without_mansion.add_turn_start()
    assert without_mansion.without["turn_start"] == without_mansion.without["ap_per_turn"]
    clinic = bundled.get("Import Clinic")
    both = Catalogue({"Avengers Mansion": mansion, "Import Clinic": clinic, "The Sentry": sentry})
    both.add_turn_start()
    assert both.without["turn_start"] == {"The Sentry", *sentry.aliases}      # (neither income nor effects)


@pytest.mark.parametrize("cards", [["Avengers Mansion"], ["Import Clinic"], ["Avengers Mansion", "Import Clinic"]])
def test_the_start_of_a_turn_still_gives_a_city_s_income_and_effects(cards):
    quiet = pos(side(), side(ap=0, chars=[char("Spider-Man", 5)]))
    loud = pos(side(), side(ap=0, cities=cards, chars=[char("Spider-Man", 5)]))
    for g in (quiet, loud):
        g.play("Ann", "end turn")
    assert loud.ben.ap == quiet.ben.ap + ("Avengers Mansion" in cards)         # (+1 AP a Hero)
    assert loud.ben.characters[0].hp == (15 if "Import Clinic" in cards else 5)   # (healed 10)


#: names for rows of characters: twins, a card and its alias, and names that fold alike ("nill" is not a card)
_ROW_NAMES = ["Nill", "Danger", "The Sentry", "Cityzen Bob", "nill", "NILL"]
#: texts to name one of them by: keys, other cases, prefixes, aliases, keys of later copies, unknown names
_ROW_TEXTS = [*_ROW_NAMES, "Nill#2", "Nill#3", "nill#2", "Sentry", "Cityzen", "Ci", "N", "Danger#2", "Hawkeye", ""]


def _found_in_full(text, chars):
    """Return the character a name picks, found the long way (_pick over a new list of keys), or the error raised."""
    from pbd.games.cnc.state import keys_of

    keys = keys_of(chars)
    try:
        key = rules._pick(GAME.catalogue, text, keys, "character")
    except Exception as e:      # the same error, with the same message
        return type(e), str(e)
    return key, chars[keys.index(key)]


def _found_fast(text, chars):
    try:
        return rules._char_as_written(chars, text) or rules._picked_char(GAME.catalogue, chars, text, "character")
    except Exception as e:
        return type(e), str(e)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_ROW_NAMES), min_size=1, max_size=4), st.sampled_from(_ROW_TEXTS))
def test_a_character_is_found_as_picking_among_the_rows_keys_finds_it(names, text):
    from pbd.games.cnc.state import Character

    chars = [Character(name, 10) for name in names]
    found = _found_fast(text, chars)
    assert found == _found_in_full(text, chars)
    if not isinstance(found[0], type):
        assert found[1] is _found_in_full(text, chars)[1]      # the character itself, not one alike


def test_a_row_s_table_of_keys_written_as_the_board_holds_them_is_kept_and_answers_for_any_list_of_that_row():
    from pbd.games.cnc.state import Character

    names = ("Nill", "nill", "Danger", "Nill")       # ("nill" folds as Nill does: only the first is found as written)
    rules._WRITTEN_AT.pop(names, None)
    first = [Character(name, 10) for name in names]
    assert rules._char_as_written(first, "Nill") == ("Nill", first[0])
    assert rules._WRITTEN_AT[names] == {"Nill": 0, "Danger": 2, "Nill#2": 3}
    again = [Character(name, 5) for name in names]          # another list, the same row: the kept table
    assert rules._char_as_written(again, "Nill#2") == ("Nill#2", again[3])
    assert rules._char_as_written(again, "nill") is None       # (found the long way: _pick)


def test_a_discard_out_of_turn_is_refused_naming_whose_turn_it_is():
    # a discard asks _own_turn only when it may refuse: the player not to move, or something pending
    from pbd.errors import IllegalMoveError

    g = pos(side(hand=["Nill"]), side(hand=["Nill"], chars=["Danger"]))
    for text in ("discard Nill", "discard Nill from hand", "discard Danger from field"):
        with pytest.raises(IllegalMoveError, match=r"it is Ann's turn, not yours \(discarding waits for your turn\)"):
            g.play("Ben", text)
    g.play("Ann", "discard Nill")
    assert g.ann.discards == ["Nill"]


@pytest.mark.parametrize("written, gained", [("Zap", 1), ("ZAP", 1), ("zap", 1), ("Zip", 3), ("Z", None)])
def test_an_ability_written_as_the_card_has_it_is_the_first_that_folds_alike(written, gained):
    # a use finds an ability written as the card has it without match_name, unless one before it folds alike
    from pbd.errors import AmbiguousNameError
    from pbd.games.cnc.cards import Ability, Card, Catalogue
    from pbd.games.cnc.notation import parse_move

    def cp(name, amount):
        return Ability(name, cost=1, target="none", effects=({"do": "cp", "amount": amount, "who": "self"},))

    bundled = GAME.catalogue
    zapper = Card("Jack Bauer", "character", "common", hp=10, abilities=(cp("Zap", 1), cp("ZAP", 2), cp("Zip", 3)))
    cat = Catalogue({**bundled.cards, "Jack Bauer": zapper})
    g = pos(side(chars=["Jack Bauer"]), side())
    ctx = rules.Ctx(g.state, cat, g.chance, "Ann")
    if gained is None:
        with pytest.raises(AmbiguousNameError):
            rules.apply(ctx, parse_move(f"Jack Bauer uses {written}"))
        return
    rules.apply(ctx, parse_move(f"Jack Bauer uses {written}"))
    assert g.ann.cp == 100 + gained


@pytest.mark.parametrize("names, at", [
    (("Zap", "Zip"), {"Zap": 0, "Zip": 1}),
    (("Zap", "ZAP", "Zip"), {"Zap": 0, "Zip": 2}),          # (ZAP folds as Zap: match_name picks Zap for it)
    (("Zap", "Zap"), {"Zap": 0, "Zap#2": 1}), ((), {}),
])
def test_a_row_s_table_holds_the_keys_a_text_picks_as_written_the_first_of_those_folding_alike(names, at):
    from pbd.games.cnc.cards import match_name
    from pbd.games.cnc.state import Character, keys_of

    rules._WRITTEN_AT.pop(names, None)
    assert rules._written_at(names) == at
    keys = keys_of([Character(name, 10) for name in names])
    assert all(match_name(key, keys) == key and keys.index(key) == i for key, i in at.items())
