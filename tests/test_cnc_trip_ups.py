"""What new C&C players tripped over (issue 30): pbd legal's labels, through the CLI."""

from __future__ import annotations

import re

from conftest import copy_of_setup


def _turn_three(pbd, tmp_path, ben_moves: str):
    """Return a match at Ann's third turn: Spider-Man in play; Ben (two Captain Colds in hand) made ``ben_moves``."""
    def build(pbd, folder):
        doc = folder / "match.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "colds-ann", ok=True)
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "cold-21", ok=True)
        pbd("move", doc, "--as", "Ann", "draw; play Spider-Man; end turn", ok=True)
        assert pbd.json("hand", doc, "--as", "Ben")["hand"].count("Captain Cold") == 2
        pbd("move", doc, "--as", "Ben", ben_moves, ok=True)
        return doc

    return copy_of_setup(("cnc two colds", ben_moves), tmp_path, build)


def test_legal_names_the_copy_an_attack_defeats_as_the_move_names_it(pbd, tmp_path):
    doc = _turn_three(pbd, tmp_path, "play Captain Cold; play Captain Cold; end turn")
    out = pbd("legal", doc, "--as", "Ann", ok=True).output
    attack = next(ln for ln in out.splitlines() if ln.startswith("Spider-Man attacks"))
    assert "Captain Cold (HP 10 → 0, defeated)" in attack
    assert "Captain Cold (Captain Cold#2" not in attack
    assert "Captain Cold#2 (HP 10 → 0, defeated)" in attack


def test_legal_names_the_city_target_as_the_notation_does(pbd, tmp_path):
    doc = _turn_three(pbd, tmp_path, "end turn")
    moves = pbd.json("legal", doc, "--as", "Ann")["moves"]
    assert "Spider-Man attacks city" in moves and "Spider-Man attacks Ben" not in moves
    out = pbd("legal", doc, "--as", "Ann", ok=True).output
    assert re.search(r"^Spider-Man attacks — 1 AP: city \(Ben's CP 100 → \d+\)$", out, re.M), out
    pbd("move", doc, "--as", "Ann", "Spider-Man attacks city", ok=True)
