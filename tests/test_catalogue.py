"""The bundled C&C catalogue: every card the rulebook names, with the rulebook's numbers."""

from __future__ import annotations

import pytest

from pbd.errors import DeckFormatError, UnknownNameError
from pbd.games.cnc.cards import (ATTACK_TYPES, MODS, VERBS, Catalogue, fold, bundled_catalogue,
                                 load_catalogue)


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return bundled_catalogue()


def card(cat, name):
    return cat.get(name)


def effects_of(c):
    """Every effect anywhere on a card (plays, abilities, attacks' afters, per-turn, rolls)."""
    pending = [*c.effects, *c.each_turn]
    for a in c.attacks:
        pending += a.after
    for a in c.abilities:
        pending += [*a.effects, *a.each_turn]
    out = []
    while pending:
        e = pending.pop()
        out.append(e)
        if e["do"] == "roll":
            for outcome in e["outcomes"]:
                pending += outcome["effects"]
    return out


def only_attack(c):
    assert len(c.attacks) == 1, c.name
    return c.attacks[0]


def ability(c, name):
    return next(a for a in c.abilities if a.name == name)


# -- the catalogue as a whole ------------------------------------------------------------

def test_bundled_catalogue_loads_with_a_porter(cat):
    assert 60 <= len(cat.cards) <= 90
    porter = cat.porter()
    assert porter.name == "The Porter" and porter.kind == "porter" and porter.rarity == "porter"


def test_every_attack_type_appears(cat):
    used = {a.type for c in cat.cards.values() for a in c.attacks}
    assert used == set(ATTACK_TYPES)


def test_every_effect_verb_and_modifier_is_used(cat):
    verbs = {e["do"] for c in cat.cards.values() for e in effects_of(c)}
    mods = {m["mod"] for c in cat.cards.values() for m in c.all_mods()}
    assert verbs == set(VERBS)
    assert mods == set(MODS)


def test_manual_effects_are_few_and_explained(cat):
    manual = [c.name for c in cat.cards.values() for e in effects_of(c) if e["do"] == "manual"]
    assert 1 <= len(manual) <= 3
    for c in cat.cards.values():
        for e in effects_of(c):
            if e["do"] == "manual":
                assert e["text"].strip(), c.name


def test_power_scale(cat):
    """50 is the hard cap, and only Rares reach it, at a higher AP cost to play and to attack."""
    for c in cat.cards.values():
        assert c.hp <= 50
        for a in c.attacks:
            assert 0 < a.damage <= 50
            if a.damage >= 40:
                assert c.rarity == "rare" and a.cost >= 2, c.name
        if c.hp == 50 or any(a.damage == 50 for a in c.attacks):
            assert c.rarity == "rare" and c.cost >= 2, c.name
    bob = card(cat, "Cityzen Bob")
    characters = [c for c in cat.cards.values() if c.kind == "character"]
    assert min(c.hp for c in characters) == bob.hp
    assert min(a.damage for c in characters for a in c.attacks) == only_attack(bob).damage


def test_cards_are_well_formed_for_the_engine(cat):
    for c in cat.cards.values():
        assert c.text.strip(), f"{c.name} has no card text"
        if c.kind == "character":
            assert c.klass and c.hp > 0
            assert c.attacks or c.abilities, c.name
            assert not c.effects and not c.mods and not c.each_turn, c.name
        if c.kind == "event":
            assert c.effects and not c.attacks and c.cp == 0, c.name
        if c.kind == "city":
            assert not c.effects and c.cp >= 0, c.name
        for a in c.abilities:
            if a.passive:
                assert not a.effects and (a.mods or a.each_turn) and a.cost == 0, (c.name, a.name)
            else:
                assert a.effects and not a.mods and not a.each_turn, (c.name, a.name)
        names = [a.name for a in c.attacks] + [a.name for a in c.abilities]
        assert len(names) == len(set(names)), c.name


def test_start_of_turn_effects_need_no_private_state(cat):
    """Per-turn effects fire inside the *other* player's 'end turn', so they cannot draw, roll,
    or touch a hand: pbd then holds only the player ending the turn's private state."""
    for c in cat.cards.values():
        for e in c.all_each_turn():
            assert e["do"] not in {"roll", "draw", "discard_hand", "recover", "manual"}, c.name


def test_targeted_effects_have_a_target(cat):
    """An effect aimed at 'target' sits on a play or ability that chooses one, and vice versa."""

    def aims(effects):
        found = []
        pending = list(effects)
        while pending:
            e = pending.pop()
            found.append(e.get("to"))
            if e["do"] == "roll":
                for o in e["outcomes"]:
                    pending += o["effects"]
        return "target" in found

    for c in cat.cards.values():
        assert aims(c.effects) == (c.target != "none"), c.name
        for a in c.abilities:
            assert aims(a.effects) == (a.target != "none"), (c.name, a.name)


def test_names_and_aliases_do_not_collide(cat):
    seen: dict[str, str] = {}
    for c in cat.cards.values():
        for key in (c.name, *c.aliases):
            owner = seen.setdefault(fold(key), c.name)
            assert owner == c.name, f"{key!r} names both {owner} and {c.name}"


def test_lookup_forgives_case_and_punctuation_and_suggests(cat):
    assert cat.get("spider-man").name == "Spider-Man"
    assert cat.get("SPIDER MAN").name == "Spider-Man"
    assert cat.get("Spidey").name == "Spider-Man"
    assert cat.get("ImPort Clinic").name == "Import Clinic"
    assert cat.get("Bob").name == "Cityzen Bob"
    with pytest.raises(UnknownNameError) as err:
        cat.get("Spiderman Noir")
    assert "Spider-Man" in err.value.suggestions


# -- the rulebook's cards, with the rulebook's numbers -----------------------------------

def test_spider_man(cat):
    c = card(cat, "Spider-Man")
    assert (c.kind, c.klass, c.cost, c.hp) == ("character", "Hero", 1, 15)
    a = only_attack(c)
    assert (a.cost, a.damage) == (1, 10)


def test_vanished_cops(cat):
    c = card(cat, "Vanished Cops")
    assert (c.kind, c.cost) == ("event", 2)
    assert list(c.effects) == [{"do": "cp", "amount": -20, "who": "opponent"}]


def test_import_clinic(cat):
    c = card(cat, "Import Clinic")
    assert (c.kind, c.cp) == ("city", 10)
    assert list(c.each_turn) == [{"do": "heal", "amount": 10, "to": "most damaged friendly"}]


def test_mirror_master_and_mirror_trap_cost_nothing(cat):
    c = card(cat, "Mirror Master")
    assert (c.kind, c.cost) == ("character", 0)
    trap = ability(c, "Mirror Trap")
    assert (trap.cost, trap.passive, trap.target) == (0, False, "opposing character")
    assert list(trap.effects) == [{"do": "status", "status": "frozen", "to": "target"}]


def test_the_sentry_50_attack_and_the_void(cat):
    c = card(cat, "The Sentry")
    assert c.rarity == "rare" and c.cost >= 2
    a = only_attack(c)
    assert a.damage == 50 and a.cost >= 2
    (roll,) = a.after
    assert roll["do"] == "roll" and roll["sides"] == 6
    void = [o for o in roll["outcomes"] if 1 in o["on"]]
    assert void and list(void[0]["effects"]) == [{"do": "cp", "amount": -10, "who": "self"}]
    assert all(1 not in o["on"] for o in roll["outcomes"] if o is not void[0])


def test_cityzen_bob_is_the_baseline(cat):
    c = card(cat, "Cityzen Bob")
    assert (c.klass, c.rarity, c.hp) == ("Civilian", "common", 5)
    a = only_attack(c)
    assert (a.type, a.damage) == ("Physical", 5)


def test_danger_has_40_hp(cat):
    assert card(cat, "Danger").hp == 40


def test_captain_america_heroic_resolve(cat):
    c = card(cat, "Captain America")
    assert (c.klass, c.rarity) == ("Hero", "rare")
    resolve = ability(c, "Heroic Resolve")
    assert resolve.passive and resolve.cost == 0
    assert {"mod": "no_attrition_loss"} in c.all_mods()


def test_avengers_mansion(cat):
    c = card(cat, "Avengers Mansion")
    assert c.kind == "city"
    assert list(c.mods) == [{"mod": "ap_per_turn", "amount": 1, "per_class": "Hero"}]


def test_annual_blackout(cat):
    c = card(cat, "Annual Blackout")
    assert c.kind == "event"
    assert list(c.effects) == [{"do": "ap", "amount": -3, "who": "opponent"}]


def test_vulcanus_agents(cat):
    assert list(card(cat, "Vulcanus Agents").effects) == [{"do": "discard_hand", "count": 3, "who": "opponent"}]


def test_port_in_wave(cat):
    assert list(card(cat, "Port-In Wave").effects) == [{"do": "draw", "count": 3}]


def test_carnivorous_plants(cat):
    c = card(cat, "Carnivorous Plants")
    assert c.target == "opposing character"
    assert list(c.effects) == [{"do": "damage", "amount": 10, "to": "target"}]


def test_construction_project(cat):
    assert list(card(cat, "Construction Project").effects) == [{"do": "cp", "amount": 10, "who": "self"}]


def test_bomb_plot_and_arson_destroy_cities(cat):
    bomb = card(cat, "Bomb Plot")
    assert bomb.kind == "event" and bomb.target == "opposing city"
    assert list(bomb.effects) == [{"do": "destroy_city", "to": "target"}]
    ladd = card(cat, "Ladd Russo")
    assert ladd.klass == "Villain"
    arson = ability(ladd, "Arson")
    assert arson.target == "opposing city" and not arson.passive
    assert list(arson.effects) == [{"do": "destroy_city", "to": "target"}]


def test_ninja_death_cult_has_no_cp_and_guards_cities(cat):
    c = card(cat, "Ninja Death Cult")
    assert (c.kind, c.cp) == ("city", 0)
    assert list(c.mods) == [{"mod": "protect_cities"}]


def test_mac_allows_four_characters(cat):
    c = card(cat, "MAC")
    assert c.kind == "city"
    assert list(c.mods) == [{"mod": "character_limit", "amount": 4}]


def test_city_hall_has_cp(cat):
    c = card(cat, "City Hall")
    assert c.kind == "city" and c.cp > 0


def test_class_and_type_bonus_cities(cat):
    (fed,) = card(cat, "Federal Sponsorship").mods
    assert fed["mod"] == "attack_bonus" and fed["amount"] > 0 and fed["class"] == "Hero"
    (media,) = card(cat, "Media Inquiry").mods
    assert media["mod"] == "attack_bonus" and media["amount"] < 0 and media["class"] == "Anti-Hero"
    assert media["whose"] == "all"
    (well,) = card(cat, "Well of Eternity").mods
    assert well["mod"] == "attack_bonus" and well["amount"] > 0 and well["type"] == "Magic"


def test_nill_and_jack_bauer_are_common(cat):
    assert card(cat, "Nill").rarity == "common"
    jack = card(cat, "Jack Bauer")
    assert jack.rarity == "common"
    assert any(e["do"] == "roll" for a in jack.abilities for e in a.effects), "an unreliable ability"
    assert max(a.damage for a in jack.attacks) < 10 and jack.hp <= 10, "weak stats"


def test_bruce_wayne_and_batman_are_two_cards(cat):
    assert card(cat, "Bruce Wayne").klass == "Civilian"
    assert card(cat, "Batman").klass == "Anti-Hero"


def test_tony_stark_and_iron_man(cat):
    tony = card(cat, "Tony Stark")
    assert tony.klass == "Civilian" and not tony.attacks and len(tony.abilities) == 2
    iron = card(cat, "Iron Man")
    assert iron.klass == "Hero" and len(iron.attacks) == 1 and len(iron.abilities) == 1


def test_speedsters(cat):
    for name in ("Quicksilver", "The Flash"):
        c = card(cat, name)
        assert only_attack(c).type == "Speed"
        assert c.cost == 0, "a speedster dashes onto the field"


def test_nohope_and_its_second_version(cat):
    assert card(cat, "NOHoPE").kind == "character"
    assert card(cat, "NOHoPE (2.0)").kind == "character"


# -- the loader's guard rails --------------------------------------------------------------

def test_a_partial_catalogue_needs_no_porter_only_when_asked(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[[card]]\nname = "Cityzen Alice"\nkind = "character"\nclass = "Civilian"\n'
                    'rarity = "common"\nhp = 5\n', encoding="utf-8")
    with pytest.raises(DeckFormatError, match="Porter"):
        load_catalogue(path)
    assert "Cityzen Alice" in load_catalogue(path, require_porter=False)


def test_a_players_catalogue_cannot_give_a_city_a_random_start_of_turn_effect(tmp_path):
    from pbd.errors import DeckFormatError
    from pbd.games.cnc.cards import load_catalogue

    path = tmp_path / "mine.toml"
    path.write_text('[[card]]\nname = "Dice House"\nkind = "city"\nrarity = "common"\n'
                    'each_turn = [{ do = "roll", sides = 6, outcomes = [] }]\n')
    with pytest.raises(DeckFormatError, match="start-of-turn effect cannot 'roll'"):
        load_catalogue(path, require_porter=False)
