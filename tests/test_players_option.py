"""``pbd new GAME DOC --players N``: every game takes it and checks it against its range of seats."""

from __future__ import annotations


def test_cnc_is_two_players_only(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    result = pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--players", "3")
    assert result.exit_code == 2
    assert "exactly 2 players, not 3" in result.output
    assert not doc.exists()
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--players", "2", ok=True)


def test_ttc_four_players_is_a_two_against_two_match(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "ttc", doc, "--as", "Ann", "--deck", "sample", "--players", "4", ok=True)
    for name in ("Ben", "Cy", "Dee"):
        pbd("join", doc, "--as", name, ok=True)
    data = pbd.json("show", doc)
    assert [p["side"] for p in data["players"]] == ["light", "dark", "light", "dark"]
    assert "team=2" in data["options"]
    assert pbd("join", doc, "--as", "Eve").exit_code == 1


def test_ttc_needs_two_equal_sides(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    result = pbd("new", "ttc", doc, "--as", "Ann", "--deck", "sample", "--players", "3")
    assert result.exit_code == 2 and "two sides" in result.output
    assert not doc.exists()
    result = pbd("new", "ttc", doc, "--as", "Ann", "--deck", "sample", "--players", "4", "-O", "team=1")
    assert result.exit_code == 2
