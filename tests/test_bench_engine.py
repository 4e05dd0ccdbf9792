"""benchmarks/bench_cnc.py's engine figure replays recorded C&C games through ``Game.play``; since a die that
follows a choice waits on the other seat's chain value (issue 25), the replay must pay what seats owe between
moves as play does (:func:`pbd.simulate.settle_all`), or it stops with RollWaits and prints no engine figure.
Where seats owe is found once (``settle_plan``) and the runs of moves in between are timed whole; a pass that
does not replay the game as planned stops rather than print a figure of other work."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_cnc  # noqa: E402


def test_the_engine_benchmark_replays_recorded_games_to_their_end():
    recorded = bench_cnc.recorded_cnc(3)
    assert sum(map(len, recorded)) > 100
    assert bench_cnc.cnc_pass(recorded) > 0


def test_the_plan_settles_where_seats_owe_and_every_move_is_in_one_run():
    recorded = bench_cnc.recorded_cnc(3)
    plan = bench_cnc.settle_plan(recorded)
    assert [[m for run in runs for m in run] for runs, _ in plan] == recorded
    # the opening hands are owed before the first move; a die after a choice waits later in some game
    assert all(len(runs) > 1 for runs, _ in plan)
    assert bench_cnc.cnc_pass(recorded, plan) > 0


def test_a_pass_that_does_not_settle_where_seats_owe_stops():
    recorded = bench_cnc.recorded_cnc(3)
    plan = bench_cnc.settle_plan(recorded)
    runs, length = plan[0]
    merged = [runs[0], [m for run in runs[1:] for m in run]]    # nothing paid after the first run
    with pytest.raises(SystemExit, match="did not replay as planned"):
        bench_cnc.cnc_pass(recorded, [(merged, length), *plan[1:]])


def test_a_pass_whose_log_differs_from_the_plan_stops():
    recorded = bench_cnc.recorded_cnc(3)
    plan = bench_cnc.settle_plan(recorded)
    runs, length = plan[0]
    with pytest.raises(SystemExit, match=f"a log of {length} entries, not {length + 1}"):
        bench_cnc.cnc_pass(recorded, [(runs, length + 1), *plan[1:]])
