"""The soak of random matches (issue 33) and the failures it found, each a fast test of its own.

The soak itself (:mod:`pbd.soak`, ``benchmarks/soak.py``) plays every registered game at each
seat count through the CLI, every seat with its own PBD_HOME, and audits each match at the
end; it runs here with one match per game and seat count (``pytest -m long``).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from pbd import games, simulate, soak
from pbd.games.base import Reveal

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import soak as soak_script  # noqa: E402  (benchmarks/soak.py: the CliRunner that runs each command)


def _reveal_all(game, state, chance) -> None:
    """Publish every seat's seed and deck list, as each seat's ``pbd reveal --now`` would."""
    for name in game.player_names(state):
        sec = chance.secrets[name.casefold()]
        state.meta.revealed.append(Reveal(name, sec.seed.hex(), game.committed(state, sec)))
        state.meta.record(name, "revealed seed and deck list")


def _played_until(game, kind: str, players: int, seeds) -> tuple:
    """Return ``(state, chance)`` of the first random match (soak weights, every seat's secrets held) that
    plays a move of ``kind``, stopped right after it."""
    choose = lambda moves, rng: soak.pick(game, [("", m) for m in moves], rng)[1]   # noqa: E731
    for seed in seeds:
        rng = random.Random(seed)
        state, chance = simulate.seat(game, rng, players=players)
        for state, _, move in simulate.play_random(game, state, chance, rng, 400, choose=choose):
            if soak.kind(move) == kind:
                return state, chance
    pytest.fail(f"no random {game.name} match of {players} seats played '{kind}'; try other seeds")


def test_a_shown_hand_replays_in_the_audit_from_the_cards_the_log_names(pbd, tmp_path, monkeypatch):
    """2Xd6: a player owes a Face card, has none and shows the hand; every seat reveals; the audit
    (a spectator's, with no hand to read) replays that entry (it exited 70: the hand's cards were None)."""
    game = games.get("2xd6")
    state, chance = _played_until(game, "show", 2, (12, *range(40)))
    entry = next(e for e in reversed(state.meta.log) if e.text.startswith("show hand"))
    assert entry.text.startswith("show hand — shows the hand (") and "no a Face or 10" in entry.text
    _reveal_all(game, state, chance)
    doc = tmp_path / "m.txt"
    doc.write_text(game.render(state))
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    before = doc.read_bytes()
    audit = pbd("audit", doc)
    assert audit.exit_code == 0, audit.output
    assert "every logged move replays to the board" in audit.output
    assert pbd("replay", doc).exit_code == 0
    assert doc.read_bytes() == before


@pytest.mark.parametrize("name", ["tower", "2xd6"])
def test_pbd_replay_of_an_honest_shared_deck_match_gives_exactly_the_board(name, tmp_path):
    """``pbd replay`` on a match of a shared-deck game, every seat on its own PBD_HOME: the deck's
    numbers (which a replay without the seeds cannot recompute) are not named as differences."""
    run = soak_script.runner()
    m = soak.Match(run, tmp_path, games.get(name), 2, seed=0)
    assert m.start()
    while m.report.moves < 12 and m.step():
        pass
    assert m.report.failures == []
    got = run(m.spectator, ["replay", str(m.doc)])
    assert got.code == 0, got.text
    assert "gives exactly this board" in got.out


@pytest.mark.long
def test_the_soak_plays_every_game_and_seat_count_clean(tmp_path):
    """One random match per game and seat count through the CLI: no exit 70, refusal, audit failure,
    stall or false hand-edit warning."""
    found = soak.soak(soak_script.runner(), tmp_path, games.registry().values(), matches=1, max_moves=1500)
    assert {(s.game, s.seats) for s in found} >= {("2xd6", 6), ("ttc", 4), ("cnc", 2), ("tower", 3)}
    bad = [line for s in found for line in s.lines() if s.failed]
    assert bad == []
    assert all(s.matches == 1 and s.moves > 0 for s in found)


@pytest.mark.long
def test_a_3_seat_2xd6_match_through_the_cli_shows_a_hand_and_audits_clean(tmp_path):
    """The issue's match: 2Xd6, 3 seats, every seat's own pbd, until someone shows the hand; all reveal."""
    run = soak_script.runner()
    m = soak.Match(run, tmp_path, games.get("2xd6"), 3, seed=6)
    assert m.start()
    while not m.report.played["show"] and m.report.moves < 200 and m.step():
        pass
    assert m.report.played["show"] == 1
    for name in m.names:
        assert run(m.homes[name], ["reveal", str(m.doc), "--as", name, "--now"]).code == 0
    audit = run(m.spectator, ["audit", str(m.doc)])
    assert audit.code == 0, audit.text
    assert m.report.failures == []


def test_the_soak_counts_an_internal_error_and_names_the_seed_that_replays_it(tmp_path, monkeypatch):
    """A rule that crashes (here the order-of-acts roll) is counted as an exit 70, with the match's seed."""
    from pbd.games.twoxd6 import rules

    def crash(state, seat, chance):
        raise TypeError("sequence item 0: expected str instance, NoneType found")

    monkeypatch.setattr(rules, "do_order_roll", crash)
    [summary] = soak.soak(soak_script.runner(), tmp_path, [games.get("2xd6")], matches=1, seats=(2,), seeds=[5])
    assert summary.counts["exit 70"] == 1 and summary.matches == 1
    seed, line = summary.failed[0]
    assert seed == 5 and line.startswith("exit 70: pbd move") and "TypeError" in line
    assert "seed 5: exit 70: pbd move" in "\n".join(summary.lines())


def test_the_soak_counts_a_hand_edit_warning(tmp_path):
    """A board edited by hand mid-match (acting points raised) is named by the next command: a warning counted."""
    from pbd.games.twoxd6 import GAME

    m = soak.Match(soak_script.runner(), tmp_path, games.get("2xd6"), 2, seed=1)
    assert m.start()
    while m.report.moves < 4 and m.step():
        pass
    assert m.report.failures == []
    state = GAME.parse(m.doc.read_text())
    state.act.points += 5
    m.doc.write_text(GAME.render(state))
    m.step()
    assert m.report.count("false warning") >= 1
    assert any("changed by hand" in f.excerpt for f in m.report.failures if f.what == "false warning")


@pytest.mark.parametrize("move, kind", [("Spider-Man attacks Nill", "attack"), ("draw; offer", "draw-offer"),
                                        ("Mirror Master uses Mirror Trap on Batman", "use"), ("show hand", "show"),
                                        ("attack Ann with Bully from hand", "attack"), ("play Guard on 7", "play")])
def test_a_move_s_kind_is_its_verb(move, kind):
    assert soak.kind(move) == kind


def test_discarding_a_second_copy_in_play_is_not_taken_for_a_hand_card_whose_name_it_begins():
    """Found by the soak (``benchmarks/soak.py --games cnc --seed 2``): ``pbd legal`` lists ``discard NOHoPE#2``
    for the second NOHoPE in play, but a hand holding NOHoPE (2.0) made it "both in your hand and in play"
    (names fold to ``nohope2`` and ``nohope20``), so the audit's replay, which counts every card the log
    shows a player with as possibly in hand, could not replay past it."""
    sys.path.insert(0, str(Path(__file__).parent))
    from cnc_helpers import pos, side

    g = pos(side(ap=3, chars=["NOHoPE", "NOHoPE"], hand=["NOHoPE (2.0)"]), side())
    g.play("Ann", "discard NOHoPE#2")
    assert g.ann.hand == ["NOHoPE (2.0)"]
    assert [c.name for c in g.ann.characters] == ["NOHoPE"]
    assert g.ann.discards[-1] == "NOHoPE"


def test_a_reshuffle_going_round_six_seats_is_no_stall(tmp_path):
    """The soak's Boys' Town at 6 seats, seeds 4, 5, 6, 14 and 17 (2026-11-29): a reshuffle's passes go round
    the table one seat after another, then the unlocks; the driver gave duties 8 rounds and called the match
    stalled when the 8th round had just paid the last one ("duties still owed by []").  Now it gives one round
    per seat besides, and looks once more after the last: a table that needs 13 rounds at 6 seats is paid."""
    shows = iter([*([{"waiting_on": ["Ann"]}] * (soak.DUTY_ROUNDS + 5)), {"waiting_on": []}])

    def run(home, args):
        return soak.Outcome(0, json.dumps(next(shows)) if args[0] == "show" else "")

    m = soak.Match(run, tmp_path, games.get("boystown"), 6, 0)
    assert m.pay_duties({"waiting_on": ["Ann"]}) == {"waiting_on": []} and not m.report.failures
    shows = iter([{"waiting_on": ["Ann"]}] * (soak.DUTY_ROUNDS + 7))
    assert m.pay_duties({"waiting_on": ["Ann"]}) is None and m.report.failures[0].what == "stall"
