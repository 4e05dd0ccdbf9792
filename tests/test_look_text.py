"""What a player reads: the hand in words with each card's cost, legal moves grouped with costs and outcomes,
"did you mean" for a misspelt move word, the reveal hint naming the document (issue 15 items 3 and 7)."""

from __future__ import annotations

import re

import pytest


def _play(pbd, doc, who, moves):
    pbd("move", doc, "--as", who, moves, ok=True)


def test_hand_shows_each_card_cost_and_summary_and_words_not_keys(pbd, match):
    out = pbd("hand", match, "--as", "Ann", ok=True).output
    cards = pbd.json("hand", match, "--as", "Ann")["hand"]
    for card in cards:
        assert re.search(rf"^  {re.escape(card)} — \d+ AP · \S", out, re.M), out
    assert "Action points: 3" in out and "City points: 100" in out and "Cards left in your deck: 45" in out
    assert not re.search(r"^(ap|cp|deck): ", out, re.M)
    assert pbd.json("hand", match, "--as", "Ann")["ap"] == 3          # --json keeps the keys


def test_legal_shows_costs_and_outcomes_grouped_by_card(pbd, match):
    for who in ("Ann", "Ben"):
        plays = [m for m in pbd.json("legal", match, "--as", who)["moves"] if m.startswith("play ")]
        chars = [m for m in plays if " HP" in pbd("hand", match, "--as", who).output.split(m[5:] + " — ")[1]
                 .split("\n")[0]]
        _play(pbd, match, who, f"{chars[0]}; end turn")
    moves = pbd.json("legal", match, "--as", "Ann")["moves"]
    out = pbd("legal", match, "--as", "Ann", ok=True).output.splitlines()
    assert len(out) < len(moves)
    assert any(ln.startswith("end turn — Ben to move with ") for ln in out)
    assert any(re.fullmatch(r"draw 1–\d — 1 AP a card", ln) for ln in out)
    attack = next(ln for ln in out if " attacks — " in ln)
    assert re.search(r" attacks — \d+ AP: .+ \(HP \d+ → \d+", attack), attack
    assert all(re.search(r"— \d+ AP", ln) for ln in out if ln.startswith("play "))
    assert "draw 2" in moves and any(" attacks " in m for m in moves)    # --json: every move, one by one


def test_legal_of_twin_tower_city_at_a_third_card_is_one_line_a_card(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    pbd("new", "ttc", doc, "--as", "Ann", "--deck", "sample", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    _play(pbd, doc, "Ann", "flip")
    _play(pbd, doc, "Ann", pbd.json("legal", doc, "--as", "Ann")["moves"][0])
    _play(pbd, doc, "Ben", pbd.json("legal", doc, "--as", "Ben")["moves"][0])
    moves = pbd.json("legal", doc, "--as", "Ben")["moves"]
    out = pbd("legal", doc, "--as", "Ben", ok=True).output.splitlines()
    assert len(moves) > 100 and len(out) <= 8, out
    assert re.match(r"Dark has \d+ Power in round 1 so far, Light \d+; card 3 is yours to play", out[0])
    armies = [ln for ln in out if ln.startswith("play army ")]
    assert armies and all(re.search(r"— \d+ ways, margin [+-]\d+( to [+-]\d+)?; best: replacing .+ with ", ln)
                          for ln in armies)
    assert re.search(r"^play battle N — after each: \d+ → Dark \d+ v Light \d+", "\n".join(out), re.M)


@pytest.mark.parametrize("move, meant", [("drwa", "draw"), ("Spider-Man atack city", "Spider-Man attack city"),
                                         ("ned turn", None)])
def test_a_misspelt_move_word_gets_did_you_mean(pbd, match, move, meant):
    before = match.read_text()
    r = pbd("move", match, "--as", "Ann", move)
    assert r.exit_code == 2 and match.read_text() == before
    assert (f"did you mean {meant!r}?" in r.output) if meant else "did you mean" not in r.output


def test_did_you_mean_in_twin_tower_city_and_boys_town_notation():
    from pbd.errors import NotationError
    from pbd.games.boystown.notation import parse as boys
    from pbd.games.ttc.notation import parse as ttc

    for parse, text, meant in ((ttc, "plya battle 17", "play battle 17"), (ttc, "nulify X22 Missile",
                               "nullify X22 Missile"), (boys, "atack Ben with Gym", "attack Ben with Gym")):
        with pytest.raises(NotationError) as err:
            parse(text)
        assert f"did you mean {meant!r}?" in err.value.hint


def test_reveal_names_the_document_in_its_hint(pbd, tmp_path, match):
    named = tmp_path / "our match.txt"
    match.rename(named)
    out = pbd("reveal", named, "--as", "Ann", "--now", ok=True).output
    assert f"pbd audit '{named}'" in out and "DOC" not in out


def test_a_long_legal_list_of_another_game_is_folded_by_target(pbd, tmp_path):
    for attempt in range(20):        # a seed whose first shared-deck card can be placed (not a Sword or Shield)
        doc = tmp_path / f"tower{attempt}.txt"
        pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", f"ann{attempt}", ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
        moves = pbd.json("legal", doc, "--as", "Ann")["moves"]
        if any(m.startswith("play ") for m in moves):
            break
    out = pbd("legal", doc, "--as", "Ann", ok=True).output.splitlines()
    places = [m for m in moves if m.startswith("play ")]
    assert len(places) > 12 and "roll" in out
    card = places[0].split(" on ")[0]
    line = next(ln for ln in out if ln.startswith(card + " on "))
    assert re.fullmatch(rf"{card} on \d+(–\d+)?(, \d+(–\d+)?)*", line), line
    assert len(out) < len(moves)


def test_twin_tower_city_hand_shows_power_own_half_first(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    pbd("new", "ttc", doc, "--as", "Ann", "--deck", "sample", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    for who, mine, theirs in (("Ann", "light", "dark"), ("Ben", "dark", "light")):
        out = pbd("hand", doc, "--as", who, ok=True).output
        battles = [ln for ln in out.splitlines() if ln.startswith("  battle ")]
        assert battles, out
        for line in battles:
            assert re.fullmatch(rf"  battle \d+ · {mine} .+ \d+ \+ .+ \d+ · {theirs} .+ \d+ \+ .+ \d+ · env .+ "
                                r"\((light|dark) \+\d+\)", line), line
        assert re.search(rf"^  army \d+ · {mine} · (.+ \d+, ){{4}}.+ \d+$", out, re.M), out
        assert f"Side: {mine}" in out and "Holding: " in out
