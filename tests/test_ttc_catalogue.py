"""Twin Tower City catalogues and deck lists: the bundled sample, hand-written ones, bad ones."""

from __future__ import annotations

import pytest

from pbd.errors import DeckFormatError
from pbd.games.ttc.catalogue import (
    bundled_dir,
    deck_problems,
    load_catalogue,
    load_deck,
    parse_catalogue,
)


def test_the_sample_catalogue_names_everything_the_rulebook_and_issue_name():
    cat = load_catalogue("sample")
    for name in ("Doctor Sickle", "Don Triumph", "Patriot Anon", "Blamtifa Thug"):
        assert name in cat.warriors
    virus = cat.items["Virus"]
    assert virus.power == 6 and {(b.kind, b.warrior, b.plus) for b in virus.bonuses} == {
        ("wielder", "Doctor Sickle", 5), ("against", "Don Triumph", 5)}
    assert "X22 Missile" in cat.items
    assert cat.warriors["Patriot Anon"].power == 4
    assert cat.warrior("Level 10 Don Triumph").power == 18
    assert len(cat.environments) >= 2


def test_the_sample_deck_is_a_legal_80_card_deck():
    deck = load_deck("sample")
    assert deck_problems(deck) == []
    assert [len(deck.pile(k, s)) for k, s in (("battle", None), ("army", "dark"), ("warrior", "dark"),
                                             ("army", "light"), ("warrior", "light"))] == [50, 10, 5, 10, 5]


def test_a_catalogue_given_as_the_deck_is_all_its_cards(tmp_path):
    deck = load_deck(str(bundled_dir() / "sample.toml"))
    assert len(deck.ids) == 80 and deck_problems(deck) == []


def test_deck_check_through_the_cli(pbd, tmp_path):
    r = pbd("deck", "check", "sample", "--game", "ttc", ok=True)
    assert "50 Battle, 10 Dark Army, 5 Dark Warrior, 10 Light Army, 5 Light Warrior" in r.output
    short = tmp_path / "short.txt"
    short.write_text("battle 1-49\nbattle 1\narmy 101-110 # dark\nwarrior 206-210\narmy 111-119\nwarrior 201-205\n")
    r = pbd("deck", "check", short, "--game", "ttc")
    assert r.exit_code == 1
    assert "card 1 is listed more than once" in r.output
    assert "Battle Cards: 49, a deck needs 50" in r.output and "Light Army Cards: 9, a deck needs 10" in r.output


@pytest.mark.parametrize("text,words", [
    ("battle 1-50\nbattle 7x\n", "line 2"),
    ("battle 999\n", "unknown battle card"),
    ("army 17\n", "unknown army card"),
    ("catalogue: nowhere.toml\nbattle 1\n", "cannot read the catalogue"),
])
def test_bad_deck_lists_are_format_errors(pbd, tmp_path, text, words):
    f = tmp_path / "deck.txt"
    f.write_text(text)
    r = pbd("deck", "check", f, "--game", "ttc")
    assert r.exit_code == 3, r.output
    assert words in r.output


def test_a_missing_deck_is_named(pbd):
    r = pbd("deck", "check", "no-such-deck", "--game", "ttc")
    assert r.exit_code == 3 and "sample" in r.output


GOOD = """
[[warrior]]
name = "A"
side = "dark"
power = 3
[[warrior]]
name = "B"
side = "light"
power = 4
[[item]]
name = "Knife"
side = "dark"
power = 2
bonus = [{ wielder = "A", plus = 1 }, { against = "B", plus = 2 }]
[[item]]
name = "Cup"
side = "light"
power = 1
[[environment]]
name = "Park"
side = "light"
power = 1
[[battle]]
id = 1
dark_warrior = "A"
dark_item = "Knife"
light_warrior = "B"
light_item = "Cup"
environment = "Park"
"""


def test_a_hand_written_catalogue_loads():
    cat = parse_catalogue(GOOD)
    assert cat.cards[1].dark_item == "Knife" and cat.items["Knife"].bonuses[1].warrior == "B"


@pytest.mark.parametrize("change,words", [
    (("power = 3", "power = -1"), "power must not be negative"),
    (("power = 3", 'power = "three"'), "power must be a whole number"),
    (('side = "dark"\npower = 3', 'side = "grey"\npower = 3'), 'side must be "dark" or "light"'),
    (('dark_item = "Knife"', 'dark_item = "Knif"'), "did you mean 'Knife'"),
    (('dark_item = "Knife"', 'dark_item = "Cup"'), "is a light card, not dark"),
    (('{ against = "B", plus = 2 }', '{ against = "A", plus = 2 }'), "is a dark card, not light"),
    (('{ against = "B", plus = 2 }', '{ enemy = "B", plus = 2 }'), "a bonus is {wielder"),
    (("[[battle]]\nid = 1", "[[battle]]\nid = 1\ncolour = 2"), "unknown key 'colour'"),
    (("[[battle]]", "[[monster]]\nname = 1\n[[battle]]"), "unknown table [[monster]]"),
    (("[[battle]]\nid = 1", "[[battle]]\n"), "missing id"),
    (('name = "B"', 'name = "a"'), "listed twice"),
    (("[[warrior]]", "[[warrior\n"), "not valid TOML"),
])
def test_bad_catalogues_list_every_problem(change, words):
    with pytest.raises(DeckFormatError) as err:
        parse_catalogue(GOOD.replace(*change, 1), "mine.toml")
    assert words in str(err.value) and "mine.toml" in str(err.value)
    assert err.value.exit_code == 3


def test_army_cards_need_five_different_warriors_of_their_side():
    text = GOOD + '[[army]]\nid = 101\nside = "dark"\nwarriors = ["A", "A", "A", "A", "A"]\n'
    with pytest.raises(DeckFormatError, match="must be different"):
        parse_catalogue(text)
    text = GOOD + '[[army]]\nid = 101\nside = "dark"\nwarriors = ["A"]\n'
    with pytest.raises(DeckFormatError, match="five names"):
        parse_catalogue(text)


def test_a_bad_catalogue_at_new_changes_nothing(pbd, tmp_path):
    (tmp_path / "bad.toml").write_text(GOOD.replace("power = 3", "power = -3"))
    doc = tmp_path / "m.txt"
    r = pbd("new", "ttc", doc, "--as", "Lia", "--deck", tmp_path / "bad.toml")
    assert r.exit_code == 3 and "power must not be negative" in r.output and not doc.exists()
    (tmp_path / "small.toml").write_text(GOOD)
    r = pbd("new", "ttc", doc, "--as", "Lia", "--deck", tmp_path / "small.toml")
    assert r.exit_code == 1 and "Battle Cards: 1, a deck needs 50" in r.output and not doc.exists()


def test_the_sample_decks_fingerprint_and_card_texts_stay_as_documents_hold_them():
    """A match document names its deck with this fingerprint: it hashes the cards' texts, which must not change."""
    from pbd.games.ttc.catalogue import Bonus, Item, Levelled, Warrior, load_deck

    assert load_deck("sample").fingerprint() == "6a4e158633e8"
    assert repr(Item("Blade", "dark", 3, (Bonus("wielder", "Rot Baron", 2),))) == \
        "Item(name='Blade', side='dark', power=3, bonuses=(Bonus(kind='wielder', warrior='Rot Baron', plus=2),))"
    assert repr(Levelled(7, "light", "Don Triumph", 10, 9)) == \
        "Levelled(id=7, side='light', warrior='Don Triumph', level=10, power=9, kind='warrior')"
    assert Warrior("A", "dark", 1) == Warrior("A", "dark", 1) and len({Warrior("A", "dark", 1), Warrior("A", "dark", 1)}) == 1
