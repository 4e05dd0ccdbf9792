"""What new Twin Tower City players tripped over (issue 30): pbd legal shows both sides and the margin."""

from __future__ import annotations

import random
import re

from pbd.games.base import Chance
from pbd.games.ttc import GAME, deal, present, rules

from test_ttc_match import legal, start
from test_ttc_sim import seat

VS = r"(Light|Dark) (-?\d+) v (Light|Dark) (-?\d+) \(([+-]\d+)\)"


def _third_card(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    pbd("move", doc, "--as", "Lia", legal(pbd, doc, "Lia")[0], ok=True)
    pbd("move", doc, "--as", "Max", legal(pbd, doc, "Max")[0], ok=True)
    return doc


def test_legal_shows_both_sides_power_and_the_margin_after_each_card(pbd, tmp_path):
    doc = _third_card(pbd, tmp_path)
    out = pbd("legal", doc, "--as", "Max", ok=True).output.splitlines()
    assert re.match(r"Dark has \d+ Power in round 1 so far, Light \d+; card 3 is yours to play", out[0])
    battle = next(ln for ln in out if ln.startswith("play battle N"))
    pairs = re.findall(r"(\d+) → " + VS, battle)
    assert pairs
    for _, mine, a, theirs, b, margin in pairs:
        assert (mine, theirs) == ("Dark", "Light") and int(margin) == int(a) - int(b)
    armies = [ln for ln in out if ln.startswith("play army ")]
    assert armies and all(re.search(r"— \d+ ways, margin [+-]\d+( to [+-]\d+)?; best: replacing .+: " + VS, ln)
                          for ln in armies)


def test_the_best_move_is_the_best_over_every_kind_of_card(pbd, tmp_path):
    doc = _third_card(pbd, tmp_path)
    out = pbd("legal", doc, "--as", "Max", ok=True).output
    margins = [int(m[-1]) for m in re.findall(VS, out.split("\nBest move: ")[0])]
    best = re.search(r"^Best move: (play .+) — " + VS + "$", out, re.M)
    assert best and int(best.group(6)) == max(margins)
    assert best.group(1) in legal(pbd, doc, "Max")


def test_legal_shows_both_sides_for_each_nullify_choice():
    for s in range(40):
        rng = random.Random(s)
        state, secrets = seat(rng, {})
        chance = Chance(state.meta, secrets)
        for sec in secrets.values():
            GAME.attach(state, sec)
        while rules.phase(state).name not in ("nullify", "over"):
            who, move = rng.choice([(w, m) for w in GAME.actors(state) for m in GAME.legal(state, w)])
            GAME.play(state, who, move, chance)
        ph = rules.phase(state)
        if ph.name != "nullify":
            continue
        player = deal.members(state, ph.nullify[0])[0]
        moves = GAME.legal(state, player)
        lines = present.legal_text(state, player, moves)
        assert "choose the item left out" in lines[0]
        shown = [ln for ln in lines if ln.startswith("  nullify ")]
        assert len(shown) == len(moves) and all(re.search(VS + "$", ln) for ln in shown)
        assert re.match(r"Best move: nullify .+ — " + VS + "$", lines[-1])
        return
    raise AssertionError("no random match needed a nullification")
