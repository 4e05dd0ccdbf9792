"""benchmarks/bench_cnc.py's engine figure replays recorded C&C games through ``Game.play``; since a die that
follows a choice waits on the other seat's chain value (issue 25), the replay must pay what seats owe between
moves as play does (:func:`pbd.simulate.settle_all`), or it stops with RollWaits and prints no engine figure."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_cnc  # noqa: E402


def test_the_engine_benchmark_replays_recorded_games_to_their_end():
    recorded = bench_cnc.recorded_cnc(3)
    assert sum(map(len, recorded)) > 100
    assert bench_cnc.cnc_pass(recorded) > 0
