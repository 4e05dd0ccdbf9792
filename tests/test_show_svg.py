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


def test_a_game_without_a_picture_says_so(pbd, tmp_path, monkeypatch):
    """Every bundled game draws one; the plugin tutorial's High Card (examples/highcard) does not."""
    from importlib.metadata import EntryPoint
    from pathlib import Path

    from pbd import games

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "examples" / "highcard"))
    monkeypatch.setattr(games, "_entry_points",
                        lambda: {"highcard": EntryPoint("highcard", "highcard:GAME", games.GROUP)})
    games._plugin.cache_clear()
    try:
        assert all(hasattr(games.get(name), "svg") for name in games.BUNDLED)
        assert not hasattr(games.get("highcard"), "svg")
        doc, picture = tmp_path / "m.txt", tmp_path / "h.svg"
        pbd("new", "highcard", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
        before = doc.read_bytes()
        result = pbd("show", doc, "--svg", picture)
        assert result.exit_code == 2 and "High Card has no picture yet" in result.output
        assert not picture.exists() and doc.read_bytes() == before
    finally:
        games._plugin.cache_clear()


def test_an_unwritable_picture_path_is_named(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    result = pbd("show", doc, "--svg", tmp_path / "missing" / "x.svg")
    assert result.exit_code == 2 and "cannot write the picture" in result.output
