"""Soak every registered game with random legal matches through the real CLI, then audit each (issue 33).

    python benchmarks/soak.py --matches 20
    python benchmarks/soak.py --games 2xd6 --seats 3 --seed 7      # replay one match

Per game and seat count it prints: matches, moves, the kinds of move never played, and the
exit 70s, refusals, audit failures, stalls and false hand-edit warnings, with the seed of any
failing match.  Exits 1 if anything failed.  The soak itself is pbd.soak; the commands run
in process through click's CliRunner, each seat with its own PBD_HOME.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

from click.testing import CliRunner

from pbd import games as registry
from pbd import soak
from pbd.cli import cli


def runner():
    """Return ``run(home, args)`` for :mod:`pbd.soak`: one pbd command in process with PBD_HOME=home."""
    cli_runner = CliRunner()

    def run(home: Path, args: list) -> soak.Outcome:
        result = cli_runner.invoke(cli, args, env={"PBD_HOME": str(home), "PBD_DEBUG": "1"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            return soak.Outcome(70, result.stdout, _where(result.exc_info))   # what pbd reports as exit 70
        return soak.Outcome(result.exit_code, result.stdout, result.stderr)

    return run


def _where(exc_info) -> str:
    """Return an internal error in one line: the exception and the pbd frame it came from."""
    kind, exc, tb = exc_info
    frames = [f for f in traceback.extract_tb(tb) if "/pbd/" in f.filename]
    at = f" at {frames[-1].filename.split('/pbd/')[-1]}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return f"internal error ({kind.__name__}: {exc}){at}"


def main(argv=None) -> int:
    """Parse the options, run the soak and print its figures; return 1 if anything failed."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=2, help="matches per game and seat count (seeds 0..N-1)")
    p.add_argument("--games", default="", help="comma-separated game names (default: every registered game)")
    p.add_argument("--seats", default="", help="comma-separated seat counts (default: each game's)")
    p.add_argument("--seed", type=int, action="append", help="play only this seed (repeatable)")
    p.add_argument("--max-moves", type=int, default=2000, help="moves before a match counts as a stall")
    p.add_argument("--keep", help="keep the match folders under this directory")
    p.add_argument("--duty", choices=("hand", "watch"), default="hand",
                   help="what a seat runs to pay what it owes: 'pbd hand' (default) or 'pbd watch DOC --once' "
                        "(then the duties it paid are counted and printed)")
    a = p.parse_args(argv)
    names = [g for g in a.games.split(",") if g] or list(registry.registry())
    chosen = [registry.get(n) for n in names]
    seats = tuple(int(s) for s in a.seats.split(",") if s) or None
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbd-soak-") as tmp:
        folder = Path(a.keep) if a.keep else Path(tmp)
        found = soak.soak(runner(), folder, chosen, a.matches, seats, a.seed, a.max_moves,
                          echo=lambda text: print(text, flush=True),
                          duty=("watch", "--once") if a.duty == "watch" else ("hand",))
    bad = sum(s.counts[c] for s in found for c in soak.CATEGORIES)
    print(f"total: {sum(s.matches for s in found)} matches, {sum(s.moves for s in found)} moves, "
          f"{bad} failures, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
