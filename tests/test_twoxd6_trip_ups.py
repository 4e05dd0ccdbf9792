"""What new 2Xd6 players tripped over (issue 30), through the CLI on the real shared deck."""

from __future__ import annotations

import pytest

from twoxd6_helpers import build, copy, order


@pytest.fixture(scope="module")
def _built(tmp_path_factory):
    return build(tmp_path_factory.mktemp("twoxd6-trips"), ["Ann", "Ben"], ["ann", "ben"])


@pytest.fixture
def acting(pbd, tmp_path, _built, monkeypatch):
    """A copy of the built match with Player 1's acting points rolled: ``(doc, player 1)``."""
    doc = copy(_built, tmp_path, monkeypatch)
    first = order(doc)[0]
    pbd("move", doc, "--as", first, "roll", ok=True)
    return doc, first


@pytest.mark.parametrize("words", ["end act", "end turn", "End Act"])
def test_end_act_and_end_turn_do_the_acts_draw(pbd, acting, words):
    doc, first = acting
    out = pbd("move", doc, "--as", first, words, ok=True).output
    assert "draws a card" in out
    assert pbd.json("show", doc)["to_move"] != [first]


def test_a_refused_move_names_draw_as_the_end_of_the_act(pbd, acting):
    doc, first = acting
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", first, "finish act")
    assert result.exit_code == 2 and "To end your turn: draw (or end act)" in result.output
    assert doc.read_bytes() == before


def test_legal_shows_each_moves_cost_and_the_points_left(pbd, acting):
    doc, first = acting
    out = pbd("legal", doc, "--as", first, ok=True).output
    points = int(out.split(" has ")[1].split(" acting point")[0])
    assert "recycle" in out and f"(1 point, {points - 1} left)" in out
    draws = [line.split() for line in out.splitlines() if line.split()[:1] == ["draw"]]
    assert [d[:-3] for d in draws] == [["draw"], ["draw", "and", "offer"]]
    assert all(d[-3:] == ["(ends", "the", "act)"] for d in draws)
    play = next(line for line in out.splitlines() if line.strip().startswith("play "))
    cost = int(play.split("(")[1].split(" point")[0])
    assert f"{points - cost} left)" in play
    assert pbd.json("legal", doc, "--as", first)["moves"][-1] == "draw and offer"     # the plain list for bots


def test_the_header_shows_only_the_seating_layout_in_use(pbd, acting):
    doc, _ = acting
    text = doc.read_text()
    assert "Side 2.1:" in text and "Side 2.2:" in text
    assert "Side 3." not in text
    assert "Side 3." not in pbd("show", doc, ok=True).output


def test_the_acts_roll_is_said_but_the_tables_pile_pick_is_not(pbd, acting):
    doc, first = acting
    out = pbd("move", doc, "--as", first, "draw", ok=True).output
    assert "You rolled d" not in out


def test_a_deck_file_is_accepted_as_the_other_games_do(pbd, tmp_path, monkeypatch):
    from pbd import paths

    deck = tmp_path / "house.toml"
    bundled = (paths.resource_dir("decks") / "2xd6" / "standard.toml").read_text()
    deck.write_text(bundled.replace('name = "standard"', 'name = "house"'))
    doc = tmp_path / "m.txt"
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "ann"))
    pbd("new", "2xd6", doc, "--as", "Ann", "--deck", deck, "--seed", "a", ok=True)
    assert "Options: deck=sha256:" in doc.read_text()
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "ben"))
    before = doc.read_bytes()
    refused = pbd("join", doc, "--as", "Ben", "--deck", "standard", "--seed", "b")
    assert refused.exit_code == 2 and "this match is played with the deck sha256:" in refused.output
    assert doc.read_bytes() == before
    pbd("join", doc, "--as", "Ben", "--deck", deck, "--seed", "b", ok=True)
    assert len(pbd.json("hand", doc, "--as", "Ben")["hand"]) > 0


def test_a_seat_without_the_deck_file_is_told_how_to_give_it(pbd, tmp_path, monkeypatch):
    from pbd import paths

    deck = tmp_path / "house.toml"
    deck.write_text((paths.resource_dir("decks") / "2xd6" / "standard.toml").read_text()
                    .replace('name = "standard"', 'name = "house"'))
    doc = tmp_path / "m.txt"
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "ann"))
    pbd("new", "2xd6", doc, "--as", "Ann", "--deck", deck, "--seed", "a", ok=True)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "ben"))
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    from pbd.games.twoxd6 import rules

    rules._deck.cache_clear()           # Ben's pbd runs in a process of its own: it has not read Ann's file
    result = pbd("hand", doc, "--as", "Ben")
    assert result.exit_code == 3 and "which this machine has not seen" in result.output
    assert "pbd catalogue add FILE --game 2xd6" in result.output
    pbd("catalogue", "add", deck, "--game", "2xd6", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
