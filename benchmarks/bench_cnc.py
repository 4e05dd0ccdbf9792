"""Print what a C&C move costs: in-process rate, and wall time of the CLI on a local document.

* Moves parsed, validated and applied per second in process (random legal games, the
  way ``pbd move`` applies them), side by side with python-chess's ``push_san`` rate
  on random chess games in the same run (a well-made pure-Python rules engine; we aim
  at or above it).  python-chess comes with ``pip install -e '.[bench]'``.
* Wall time of ``pbd show`` and ``pbd move`` on a local document against
  ``python -c pass``, for a fresh match and for one with a 1,000-entry move log.
* Which Google modules a local command imports (must be none).

Usage: python benchmarks/bench_cnc.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def engine_rate(games: int = 30) -> tuple[float, int]:
    """Return moves per second for parse + validate + apply of moves from random C&C games."""
    from pbd.games import get
    from pbd.simulate import random_game

    game = get("cnc")
    recorded = []
    for seed in range(games):          # record the games first: the timing covers play() only
        recorded.append([(p, m) for _, p, m in random_game(game, random.Random(seed), exhaustive=False)])
    total = 0
    elapsed = 0.0
    from pbd.simulate import seat

    for seed, moves in enumerate(recorded):
        state, chance = seat(game, random.Random(seed))
        start = time.perf_counter()
        for player, move in moves:
            game.play(state, player, move, chance)
        elapsed += time.perf_counter() - start
        total += len(moves)
    return total / elapsed, total


def chess_rate(games: int = 200) -> float | None:
    """Return python-chess push_san moves per second over random games (None if not installed)."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    recorded = []
    for _ in range(games):
        board = chess.Board()
        sans = []
        while not board.is_game_over() and len(sans) < 200:
            move = rng.choice(list(board.legal_moves))
            sans.append(board.san(move))
            board.push(move)
        recorded.append(sans)
    total = sum(map(len, recorded))
    start = time.perf_counter()
    for sans in recorded:
        board = chess.Board()
        for san in sans:
            board.push_san(san)
    return total / (time.perf_counter() - start)


def wall(cmd: list[str], env: dict, runs: int = 7, reset=None) -> float:
    """Return the median wall time of a command in milliseconds."""
    times = []
    for _ in range(runs):
        if reset:
            reset()
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def long_log_match(folder: Path, env: dict) -> Path:
    """Return a match document whose log has at least 1,000 entries."""
    from pbd import match

    doc = folder / "long.txt"
    os.environ["PBD_HOME"] = env["PBD_HOME"]
    match.new("cnc", str(doc), "Ann", "forces-of-justice", "bench-ann")
    match.join(str(doc), "Ben", "forces-of-corruption", "bench-ben")
    players = ["Ann", "Ben"]
    i = 0
    while doc.read_text().count("\n") < 1100:
        match.move(str(doc), players[i % 2], "end turn; " * 0 + "end turn")
        i += 1
    return doc


def google_imports(env: dict, doc: Path) -> list[str]:
    """Return the Google modules imported by ``pbd show`` on a local document."""
    code = ("import sys, runpy; sys.argv=['pbd','show',%r]\n"
            "try:\n  from pbd.cli import main; main()\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('google', 'googleapiclient'))))") % str(doc)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return eval(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rate, moves = engine_rate()
    print(f"C&C engine: {rate:,.0f} moves/s (parse + validate + apply, {moves} moves of random games)")
    crate = chess_rate()
    print(f"python-chess push_san: {crate:,.0f} moves/s" if crate else
          "python-chess push_san: not installed (pip install -e '.[bench]')")
    if crate:
        print(f"ratio C&C / chess: {rate / crate:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "PBD_HOME": str(folder / "home")}
        pbd = [sys.executable, "-m", "pbd"]
        doc = folder / "m.txt"
        subprocess.run(pbd + ["new", "cnc", str(doc), "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a"],
                       env=env, check=True, capture_output=True)
        subprocess.run(pbd + ["join", str(doc), "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b"],
                       env=env, check=True, capture_output=True)
        base = wall([sys.executable, "-c", "pass"], env)
        print(f"python -c pass: {base:.0f} ms")
        fresh = doc.read_bytes()
        home = {p: p.read_bytes() for p in (folder / "home").rglob("*.json")}

        def reset(path=doc, data=fresh, saved=home):
            path.write_bytes(data)
            for p, d in saved.items():
                p.write_bytes(d)

        print(f"pbd show (fresh match): {wall(pbd + ['show', str(doc)], env):.0f} ms")
        print(f"pbd move 'draw' (fresh match): "
              f"{wall(pbd + ['move', str(doc), '--as', 'Ann', 'draw'], env, reset=reset):.0f} ms")
        reset()
        long = long_log_match(folder, env)
        entries = long.read_text().split("\nLog\n")[1].count("\n")
        data = long.read_bytes()
        saved = {p: p.read_bytes() for p in (folder / "home").rglob("*.json")}
        who = "Ann" if "Ann to move" in long.read_text() else "Ben"
        print(f"pbd show ({entries}-entry log): {wall(pbd + ['show', str(long)], env):.0f} ms")
        print(f"pbd move 'draw' ({entries}-entry log): "
              f"{wall(pbd + ['move', str(long), '--as', who, 'draw'], env, reset=lambda: reset(long, data, saved)):.0f} ms")
        print(f"Google modules imported by a local 'pbd show': {google_imports(env, doc) or 'none'}")


if __name__ == "__main__":
    main()
