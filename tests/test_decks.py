"""Deck lists (pbd.decks), C&C deck construction (pbd.games.cnc.deck) and `pbd deck check`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbd.cli import cli
from pbd.decks import (DeckList, bundled_decks, find_deck, load_deck_list, parse_deck_list,
                       read_deck_list)
from pbd.errors import DeckError, DeckFormatError
from pbd.games.cnc.cards import bundled_catalogue
from pbd.games.cnc.deck import deck_report, load_cnc_deck

from cnc_helpers import CITYZEN_ALICE

STARTERS = ["forces-of-corruption", "forces-of-justice", "forces-of-mystery", "forces-of-peace",
            "forces-of-punishment"]

#: a legal deck: exactly 10 Rare, 15 Uncommon, 25 Common, 5 copies each
LEGAL = {
    "Captain America": 5, "The Sentry": 5,                      # rare
    "The Flash": 5, "Storm": 5, "Black Canary": 5,              # uncommon
    "Spider-Man": 5, "Hawkeye": 5, "Aqualad": 5, "Cityzen Bob": 5, "Nill": 5,   # common
}


def deck_text(counts: dict[str, int], porter: str | None = "The Porter", extra: str = "") -> str:
    """Return a numbered deck list with ``counts`` copies of each card."""
    lines = ["# Test deck", extra]
    if porter:
        lines.append(f"Porter: {porter}")
    n = 0
    for name, copies in counts.items():
        for _ in range(copies):
            n += 1
            lines.append(f"{n}. {name}")
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, text: str, name: str = "deck.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def problems_of(tmp_path, counts, **kw) -> list[str]:
    summary, problems = deck_report(write(tmp_path, deck_text(counts, **kw)))
    assert summary
    return problems


def with_changes(**changes) -> dict[str, int]:
    counts = dict(LEGAL)
    for name, n in changes.items():
        counts[name.replace("_", " ")] = n
    return {k: v for k, v in counts.items() if v}


# -- parsing the list format ---------------------------------------------------------------

def test_parse_numbered_list_with_title_porter_and_comments():
    text = ("\ufeff# Forces of Testing\n# a second comment is not the title\n\nPorter: The Porter\n"
            "1. Spider-Man\n2.  Nill   # cheap\n\n3) Cityzen Bob\n")
    deck = parse_deck_list(text, "decks/test.txt")
    assert deck == DeckList(title="Forces of Testing", porter="The Porter",
                            cards=["Spider-Man", "Nill", "Cityzen Bob"], source="decks/test.txt",
                            catalogue=None, lines=[5, 6, 8])
    assert deck.line_of(3) == 8 and deck.line_of(4) is None


def test_shorthand_is_numbered_in_order():
    deck = parse_deck_list("Porter: The Porter\n1. Storm\n3x Spider-Man\n2 Nill\n7. Hawkeye\n4 X Aqualad\n"
                           "1 Xavier's School\n", "d.txt")
    assert deck.cards == ["Storm", *["Spider-Man"] * 3, "Nill", "Nill", "Hawkeye", *["Aqualad"] * 4,
                          "Xavier's School"]
    assert deck.lines[:7] == [2, 3, 3, 3, 4, 4, 5]


def test_title_defaults_to_the_file_name():
    assert parse_deck_list("1. Nill\n", "some/dir/my-deck.txt").title == "my-deck"


def test_catalogue_line_is_relative_to_the_deck_file():
    deck = parse_deck_list("Catalogue: cards/mine.toml\n1. Nill\n", "/home/ann/decks/d.txt")
    assert deck.catalogue == "/home/ann/decks/cards/mine.toml"
    assert parse_deck_list("Catalog: /abs/mine.toml\n", "d.txt").catalogue == "/abs/mine.toml"


@pytest.mark.parametrize("text, line, expected", [
    ("Porter: The Porter\n1. Nill\n3. Nill\n", 3, "skips 2; expected 2"),
    ("1. Nill\n2. Nill\n2. Nill\n", 3, "again"),
    ("# t\n\n2. Nill\n", 3, "expected 1"),
    ("1. Nill\nSpider-Man\n", 2, "expected '12. Card name'"),
    ("1. Nill\n0x Storm\n", 2, "copies"),
    ("1. Nill\n2.\n", 2, "no name"),
    ("Porter:\n1. Nill\n", 1, "Porter line is empty"),
    ("Porter: The Porter\n1. Nill\nPorter: The Porter\n", 3, "second Porter line (the first is on line 1)"),
    ("Catalogue: a.toml\nCatalogue: b.toml\n", 2, "second Catalogue line"),
    ("1. Nill\n3x\n", 2, "cannot read"),
])
def test_malformed_lines_name_the_line_and_what_was_expected(text, line, expected):
    with pytest.raises(DeckFormatError) as err:
        parse_deck_list(text, "bad.txt")
    assert err.value.line == line
    assert f"bad.txt, line {line}:" in str(err.value)
    assert expected in str(err.value)
    assert err.value.exit_code == 3


# -- finding and reading deck files ----------------------------------------------------------

def test_bundled_decks_are_the_five_starters():
    assert bundled_decks("cnc") == STARTERS
    assert bundled_decks("no-such-game") == []


def test_find_deck_by_bundled_name_or_path(tmp_path):
    assert find_deck("forces-of-justice", "cnc").name == "forces-of-justice.txt"
    assert find_deck("Forces-Of-Justice.txt", "cnc").name == "forces-of-justice.txt"
    mine = write(tmp_path, "1. Nill\n")
    assert find_deck(mine, "cnc") == Path(mine)


def test_an_unknown_deck_lists_the_bundled_ones():
    with pytest.raises(DeckFormatError) as err:
        find_deck("forces-of-justise", "cnc")
    message = str(err.value)
    assert "did you mean forces-of-justice" in message
    for name in STARTERS:
        assert name in message


def test_unreadable_deck_files(tmp_path):
    with pytest.raises(DeckFormatError, match="not found"):
        read_deck_list(tmp_path / "missing.txt")
    with pytest.raises(DeckFormatError, match="folder"):
        read_deck_list(tmp_path)
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(DeckFormatError, match="UTF-8"):
        read_deck_list(binary)
    with pytest.raises(DeckFormatError, match="folder"):
        load_deck_list(str(tmp_path), "cnc")


# -- the five starter decks --------------------------------------------------------------------

@pytest.mark.parametrize("name", STARTERS)
def test_starter_decks_are_legal_and_playable(name):
    summary, problems = deck_report(name)
    assert problems == []
    assert "50 cards + The Porter" in summary
    deck = load_cnc_deck(name)
    assert deck.porter == "The Porter" and len(deck.cards) == 50
    cards = [deck.catalogue.get(n) for n in deck.cards]
    rarity = Counter(c.rarity for c in cards)
    assert rarity["rare"] <= 10 and rarity["uncommon"] <= 15 and rarity["porter"] == 0
    assert max(Counter(deck.cards).values()) <= 5
    assert sum(c.kind == "character" for c in cards) >= 18, "enough characters for games to happen"
    assert deck.title.startswith("Forces of ")


def test_starter_decks_follow_their_themes():
    def classes(name):
        deck = load_cnc_deck(name)
        return Counter(deck.catalogue.get(n).klass for n in deck.cards if deck.catalogue.get(n).klass)

    assert classes("forces-of-justice").most_common(1)[0][0] == "Hero"
    assert classes("forces-of-corruption").most_common(1)[0][0] == "Villain"
    assert classes("forces-of-punishment").most_common(1)[0][0] == "Anti-Hero"
    peace = classes("forces-of-peace")
    assert peace["Civilian"] + peace["Government"] > sum(peace.values()) / 2


def test_the_rulebook_starter_decks_use_the_rulebook_cards():
    used = {n for name in STARTERS for n in load_cnc_deck(name).cards}
    for card in ("Spider-Man", "Vanished Cops", "Import Clinic", "Mirror Master", "The Sentry",
                 "Cityzen Bob", "Danger", "Captain America", "Avengers Mansion", "Annual Blackout",
                 "Vulcanus Agents", "Port-In Wave", "Carnivorous Plants", "Construction Project",
                 "Bomb Plot", "Ladd Russo", "Ninja Death Cult", "MAC", "City Hall", "Federal Sponsorship",
                 "Well of Eternity", "Nill", "Jack Bauer", "Bruce Wayne", "Batman", "Tony Stark",
                 "Iron Man", "NOHoPE", "Quicksilver", "The Flash"):
        assert card in used, card


# -- construction rules: each one refuses a deck that breaks only it -----------------------------

def test_the_reference_deck_is_legal(tmp_path):
    assert problems_of(tmp_path, LEGAL) == []
    deck = load_cnc_deck(write(tmp_path, deck_text(LEGAL)))
    assert deck.cards[0] == "Captain America" and deck.title == "Test deck"


def test_fifty_cards_exactly(tmp_path):
    (short,) = problems_of(tmp_path, with_changes(Nill=4))
    assert "49 cards" in short and "50" in short
    (long_,) = problems_of(tmp_path, with_changes(**{"Construction Project": 1}))
    assert "51 cards" in long_


def test_at_most_ten_rares(tmp_path):
    (problem,) = problems_of(tmp_path, with_changes(Nill=4, Danger=1))
    assert "11 Rare" in problem and "at most 10" in problem


def test_at_most_fifteen_uncommons(tmp_path):
    (problem,) = problems_of(tmp_path, with_changes(Nill=4, Batman=1))
    assert "16 Uncommon" in problem and "at most 15" in problem


def test_commons_are_unlimited(tmp_path):
    counts = {name: 5 for name in ("Spider-Man", "Hawkeye", "Aqualad", "Cityzen Bob", "Nill", "Jack Bauer",
                                   "Hired Goon", "Captain Cold", "Rorschach", "Huntress")}
    assert problems_of(tmp_path, counts) == []


def test_at_most_five_copies(tmp_path):
    (problem,) = problems_of(tmp_path, with_changes(Nill=6, Hawkeye=4))
    assert "6 copies of Nill" in problem and "at most 5" in problem


def test_copies_are_counted_through_aliases_and_case(tmp_path):
    text = deck_text(with_changes(Nill=4, Hawkeye=4)) + "49. nill\n50. SPIDEY\n"
    _, problems = deck_report(write(tmp_path, text))
    assert problems == ["6 copies of Spider-Man; at most 5 copies of a card are allowed"]


def test_the_porter_is_required(tmp_path):
    (problem,) = problems_of(tmp_path, LEGAL, porter=None)
    assert "no Porter" in problem and "Porter: The Porter" in problem


def test_the_porter_line_must_name_a_porter(tmp_path):
    (problem,) = problems_of(tmp_path, LEGAL, porter="Spider-Man")
    assert "Spider-Man" in problem and "not a Porter" in problem
    (unknown,) = problems_of(tmp_path, LEGAL, porter="The Portr")
    assert "not a card" in unknown and "The Porter" in unknown


def test_a_porter_is_not_one_of_the_fifty(tmp_path):
    problems = problems_of(tmp_path, with_changes(Nill=4, **{"The Porter": 1}))
    assert problems == ["The Porter is a Porter: it goes on the 'Porter:' line, not among the 50 cards "
                        "(1 copy listed)"]


def test_unknown_cards_suggest_close_names(tmp_path):
    counts = with_changes(**{"Spider-Man": 3, "Spidrman": 2})
    (problem,) = problems_of(tmp_path, counts)
    assert "unknown card 'Spidrman'" in problem
    assert "did you mean 'Spider-Man'" in problem
    assert "lines " in problem   # both lines named in one problem


def test_every_problem_is_listed_at_once(tmp_path):
    counts = with_changes(Nill=7, Danger=2, Batman=2, Spidrman=1)
    path = write(tmp_path, deck_text(counts, porter="Spider-Man"))
    with pytest.raises(DeckError) as err:
        load_cnc_deck(path)
    problems = err.value.problems
    assert len(problems) == 6
    text = "\n".join(problems)
    for expected in ("not a Porter", "unknown card 'Spidrman'", "57 cards", "12 Rare", "17 Uncommon",
                     "7 copies of Nill"):
        assert expected in text
    assert err.value.exit_code == 1
    assert all(p in str(err.value) for p in problems)


def test_aliases_resolve_to_catalogue_names(tmp_path):
    text = deck_text(with_changes(**{"Spider-Man": 0, "Spidey": 5}), porter="porter")
    deck = load_cnc_deck(write(tmp_path, text))
    assert deck.porter == "The Porter"
    assert deck.cards.count("Spider-Man") == 5 and "Spidey" not in deck.cards


# -- a player's own catalogue -------------------------------------------------------------------

OWN = CITYZEN_ALICE + '''
[[card]]
name = "Spider-Man"
kind = "character"
class = "Hero"
rarity = "rare"
hp = 20
text = "A house-ruled Spider-Man."

[[card.attack]]
name = "Web Strike"
type = "Physical"
damage = 10
'''


def test_own_catalogue_adds_and_overrides_cards(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "mine.toml").write_text(OWN, encoding="utf-8")
    counts = with_changes(Nill=0, **{"Cityzen Alice": 5})
    path = write(tmp_path, deck_text(counts, extra="Catalogue: cards/mine.toml"))
    summary, problems = deck_report(path)
    # the house-ruled Spider-Man is Rare: 5 more Rares than the reference deck
    assert problems == ["15 Rare cards; at most 10 are allowed (Captain America x5, The Sentry x5, Spider-Man x5)"]
    counts = with_changes(Nill=0, **{"Cityzen Alice": 5, "Spider-Man": 0, "Jack Bauer": 5})
    path = write(tmp_path, deck_text(counts, extra="Catalogue: cards/mine.toml"))
    deck = load_cnc_deck(path)
    assert "Cityzen Alice" in deck.cards
    assert deck.catalogue.get("Spider-Man").hp == 20
    assert deck.catalogue.get("Nill").hp == bundled_catalogue().get("Nill").hp
    assert bundled_catalogue().get("Spider-Man").hp == 15, "the bundled catalogue is untouched"


def test_own_catalogue_errors_are_format_errors(tmp_path):
    path = write(tmp_path, deck_text(LEGAL, extra="Catalogue: missing.toml"))
    with pytest.raises(DeckFormatError, match="not found"):
        deck_report(path)
    (tmp_path / "bad.toml").write_text("[[card]\nname = ", encoding="utf-8")
    path = write(tmp_path, deck_text(LEGAL, extra="Catalogue: bad.toml"))
    with pytest.raises(DeckFormatError, match="TOML"):
        load_cnc_deck(path)
    (tmp_path / "schema.toml").write_text('[[card]]\nname = "X"\nkind = "character"\nclass = "Hero"\n'
                                         'rarity = "common"\nhp = "lots"\n', encoding="utf-8")
    path = write(tmp_path, deck_text(LEGAL, extra="Catalogue: schema.toml"))
    with pytest.raises(DeckFormatError):
        load_cnc_deck(path)


# -- `pbd deck check` -------------------------------------------------------------------------

def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.parametrize("name", STARTERS)
def test_cli_deck_check_bundled_starters(name):
    code, output = run("deck", "check", name)
    assert code == 0, output
    assert "50 cards + The Porter" in output


def test_cli_deck_check_file_and_game_option(tmp_path):
    code, output = run("deck", "check", write(tmp_path, deck_text(LEGAL)), "--game", "cnc")
    assert code == 0, output
    assert "Test deck: 50 cards + The Porter -- 10 Rare, 15 Uncommon, 25 Common" in output


def test_cli_deck_check_lists_every_problem_and_exits_1(tmp_path):
    counts = with_changes(Nill=7, Danger=2, Batman=2, Spidrman=1)
    path = write(tmp_path, deck_text(counts, porter="Spider-Man"))
    code, output = run("deck", "check", path)
    assert code == 1
    for expected in ("not a Porter", "unknown card 'Spidrman'", "did you mean 'Spider-Man'", "57 cards",
                     "12 Rare", "17 Uncommon", "7 copies of Nill"):
        assert expected in output, expected


def test_cli_deck_check_unreadable_exits_3(tmp_path):
    code, output = run("deck", "check", write(tmp_path, "1. Nill\nthree Spider-Men\n"))
    assert code == 3
    assert "line 2" in output
    code, output = run("deck", "check", str(tmp_path / "nowhere.txt"))
    assert code == 3
    code, output = run("deck", "check", "forces-of-nothing")
    assert code == 3
    assert "forces-of-justice" in output
