"""``pbd show --svg FILE``: a picture of the board, for the games that draw one."""

import xml.etree.ElementTree as ET


def test_tower_board_is_drawn_as_svg(pbd, tmp_path):
    doc, picture = tmp_path / "m.txt", tmp_path / "tower.svg"
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    before = doc.read_bytes()
    out = pbd("show", doc, "--svg", picture, ok=True).output
    assert "picture written to" in out
    root = ET.fromstring(picture.read_text())
    assert root.tag.endswith("svg")
    assert doc.read_bytes() == before


def test_a_game_without_a_picture_says_so(pbd, tmp_path):
    import pytest

    from pbd.games import get as load_game

    game = next((g for g in ("boystown", "twoxd6", "tower", "ttc", "cnc") if not hasattr(load_game(g), "svg")), None)
    if game is None:
        pytest.skip("every bundled game draws a picture")
    doc, picture = tmp_path / "m.txt", tmp_path / "c.svg"
    deck = load_game(game).sample_decks()[0]
    pbd("new", game, doc, "--as", "Ann", "--deck", deck, "--seed", "a", ok=True)
    result = pbd("show", doc, "--svg", picture)
    assert result.exit_code == 2 and "no picture" in result.output
    assert not picture.exists()


def test_an_unwritable_picture_path_is_named(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    result = pbd("show", doc, "--svg", tmp_path / "missing" / "x.svg")
    assert result.exit_code == 2 and "cannot write the picture" in result.output
