"""Print what pbd costs: start-up of a command against Python's own, and the C&C engine against python-chess.

* Start-up: CPU time (user + system) of ``pbd show`` and ``pbd move 'draw'`` on a fresh local
  C&C match and of ``pbd show`` on a Twin Tower City match, against ``python -c pass``:
  the median of 15 runs of each, taken in turn (so a busy machine slows them alike).
  The commands run as after ``pip install``: bytecode compiled and one warm-up run
  (which fills the start-up and catalogue caches), ``PYTHONDONTWRITEBYTECODE`` unset.
  The floor under any command is measured alongside: ``python -c "import click"`` and
  ``import click`` plus the standard-library modules ``pbd show`` needs beyond click's own
  (:data:`FLOOR_STDLIB`).
* Twin Tower City ``check`` and ``score`` on a finished five-round board: CPU time of the
  command itself, after start-up (``import pbd.cli`` with the collector off, as the ``pbd`` script
  loads it), in a fresh process; median of 5.
* Engine: C&C moves parsed, validated and applied per second in process (``Game.play``
  replaying 30 recorded random games, notation cache emptied before each pass), against
  python-chess's ``push_san`` replaying 200 random games in the same run; the best of 5
  alternating passes of each, in CPU time.  What seats owe between moves (a chain value a die
  waits on) is paid untimed where the game owes it, found once before the passes, and the runs
  of moves in between are timed whole, as python-chess's games are (:func:`settle_plan`).
  python-chess comes with ``pip install -e '.[bench]'``.
* Peak memory of ``pbd show``, the document with a 1,000-entry log, and which Google modules
  a local command imports (must be none).

The last three lines are always the three ratios, in this form, so runs can be compared::

    startup show/python-c-pass: X.XX
    startup move/python-c-pass: X.XX
    engine C&C/python-chess: X.XX

Usage: python benchmarks/bench_cnc.py [--engine]   (--engine: the engine part alone, its ratio last)
"""

from __future__ import annotations

import compileall
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

RUNS = 15
MOVE = "pbd move 'draw' (C&C)"
CLICK = "python -c 'import click'"
#: the standard-library modules ``pbd show`` imports beyond what click imports (the floor under any command)
FLOOR_STDLIB = "_pickle, _sha256, _json"
FLOOR = "python -c 'import click + stdlib pbd show needs'"


# -- engine ---------------------------------------------------------------------------------

#: the engines' clock: this process's CPU time (the time it waits while other processes of a busy machine
#: run is not counted; read about 250 times a pass, between runs of moves: :func:`settle_plan`)
clock = time.process_time


def recorded_cnc(games: int = 30) -> list[list[tuple[str, str]]]:
    """Return the moves of ``games`` random C&C games (recorded once; the timing covers replaying them)."""
    from pbd.games import get
    from pbd.simulate import random_game

    game = get("cnc")
    return [[(p, m) for _, p, m in random_game(game, random.Random(seed), exhaustive=False)]
            for seed in range(games)]


def settle_plan(recorded) -> list[tuple[list[list[tuple[str, str]]], int]]:
    """Return how to replay each recorded game: its runs of moves, each to play after a settle, and its log's length.

    Replaying, seats must be paid what they owe between moves, as in play (a die that follows a
    choice waits on the other seat's chain value: :func:`pbd.simulate.settle_all`).  Which moves
    find something owed is the same in every pass (the same seeds, the same moves), so it is found
    once here, untimed: a run starts at each such move (and at the first), and :func:`cnc_pass` times
    each run whole, as :func:`chess_pass` times python-chess's games, with no clock read and no other
    work between two moves.  The log's length at the end is how a pass shows it replayed the same game.
    """
    from pbd.games import get
    from pbd.games.cnc import notation
    from pbd.simulate import seat, settle_all

    game = get("cnc")
    notation.forget()
    plan = []
    for seed, moves in enumerate(recorded):
        state, chance = seat(game, random.Random(seed))
        runs: list[list[tuple[str, str]]] = []
        for i, (player, move) in enumerate(moves):
            if not i or any(game.pending(state, p) for p in game.actors(state)):     # (settle_all's own test)
                settle_all(game, state, chance)
                runs.append([])
            runs[-1].append((player, move))
            game.play(state, player, move, chance)
        plan.append((runs, len(state.meta.log)))
    return plan


def cnc_pass(recorded, plan=None) -> float:
    """Return the CPU seconds ``Game.play`` takes to replay every recorded game (seating and settling not counted).

    ``plan`` is :func:`settle_plan`'s (found here, untimed, when not given): what seats owe is
    paid before each run of moves, untimed, and each run is timed whole.

    :raises SystemExit: a game's replay did not follow its plan (a move refused, or a log of another length).
    """
    from pbd.errors import PbdError
    from pbd.games import get
    from pbd.games.cnc import notation
    from pbd.simulate import seat, settle_all

    if plan is None:
        plan = settle_plan(recorded)
    game = get("cnc")
    notation.forget()
    elapsed = 0.0
    for seed, (runs, length) in enumerate(plan):
        state, chance = seat(game, random.Random(seed))
        try:
            for run in runs:
                settle_all(game, state, chance)     # (not timed: a die that waits on a chain value gets it, as in play)
                start = clock()
                for player, move in run:
                    game.play(state, player, move, chance)
                elapsed += clock() - start
        except PbdError as exc:
            raise SystemExit(f"C&C game {seed} did not replay as planned: {exc}") from exc
        if len(state.meta.log) != length:
            raise SystemExit(f"C&C game {seed} did not replay as planned: a log of {len(state.meta.log)} entries, "
                             f"not {length}")
    return elapsed


def recorded_chess(games: int = 200):
    """Return the SAN moves of ``games`` random chess games (None without python-chess)."""
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
    return recorded


def chess_pass(recorded) -> float:
    """Return the CPU seconds python-chess's ``push_san`` takes to replay every recorded game."""
    import chess

    start = clock()
    for sans in recorded:
        board = chess.Board()
        for san in sans:
            board.push_san(san)
    return clock() - start


def engine(rounds: int = 5) -> float | None:
    """Print both engines' rates; return the ratio C&C / python-chess (None without python-chess)."""
    cnc = recorded_cnc()
    chess_games = recorded_chess()
    cnc_moves = sum(map(len, cnc))
    plan = settle_plan(cnc)
    if chess_games is None:
        print(f"C&C engine: {cnc_moves / cnc_pass(cnc, plan):,.0f} moves/s")
        print("python-chess push_san: not installed (pip install -e '.[bench]')")
        return None
    chess_moves = sum(map(len, chess_games))
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(cnc_pass(cnc, plan))
        theirs.append(chess_pass(chess_games))
    rate, chess_rate = cnc_moves / min(ours), chess_moves / min(theirs)
    print(f"C&C engine: {rate:,.0f} moves/s (parse + validate + apply, {cnc_moves} moves of 30 random games)")
    print(f"python-chess push_san: {chess_rate:,.0f} moves/s ({chess_moves} moves of 200 random games)")
    return rate / chess_rate


# -- commands ----------------------------------------------------------------------------------

def pbd_command() -> list[str]:
    """Return how to run pbd: the installed console script, else ``python -m pbd``."""
    script = Path(sys.executable).with_name("pbd")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pbd"]


def cpu(cmd: list[str], env: dict) -> float:
    """Return the CPU milliseconds (user + system) of one run of ``cmd``."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}")
    return (usage.ru_utime + usage.ru_stime) * 1000


#: starts a command from a bare interpreter and prints its peak RSS in KB (see :func:`peak_rss`)
LAUNCH = ("import os, sys\n"
          "quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]\n"
          "pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=quiet)\n"
          "_, status, usage = os.wait4(pid, 0)\n"
          "print(usage.ru_maxrss if os.waitstatus_to_exitcode(status) == 0 else -1)\n")


def peak_rss(cmd: list[str], env: dict, runs: int = 5) -> int:
    """Return the largest peak RSS in KB of ``runs`` runs of ``cmd``, each started by a bare interpreter.

    The kernel's peak RSS of a child counts the memory of the process that started it (the
    child begins as a copy of it): started from this benchmark, which holds far more than pbd,
    every command would show the benchmark's size.  So ``cmd`` is started by ``python -c``
    running :data:`LAUNCH`, whose own size (that of ``python -c pass``, printed beside) is below pbd's.
    """
    peaks = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", LAUNCH, *cmd], env=env, capture_output=True, text=True)
        peak = int(out.stdout.strip() or -1)
        if peak < 0:
            raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
        peaks.append(peak)
    return max(peaks)


class Match:
    """A match document and its players' private state, put back as they were before each run."""

    def __init__(self, doc: Path, home: Path):
        self.doc, self.home = doc, home
        self.text = doc.read_bytes()
        self.saved = {p: p.read_bytes() for p in home.rglob("*.json")}

    def reset(self) -> None:
        self.doc.write_bytes(self.text)
        for p, data in self.saved.items():
            p.write_bytes(data)


def startup(folder: Path, env: dict) -> dict[str, float]:
    """Print and return the median CPU of each command and of ``python -c pass`` (15 runs each, in turn)."""
    pbd = pbd_command()
    run = lambda *args: subprocess.run(pbd + [str(a) for a in args], env=env, check=True,  # noqa: E731
                                       capture_output=True)
    cnc, ttc = folder / "cnc.txt", folder / "ttc.txt"
    run("new", "cnc", cnc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a")
    run("join", cnc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b")
    run("new", "ttc", ttc, "--as", "Lia", "--deck", "sample", "--seed", "lia")
    run("join", ttc, "--as", "Max", "--seed", "max")
    run("hand", ttc, "--as", "Lia")            # Lia's pbd publishes the unlocks it owes
    match = Match(cnc, folder / "home")
    commands = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        CLICK: ([sys.executable, "-c", "import click"], None),
        FLOOR: ([sys.executable, "-c", f"import click, {FLOOR_STDLIB}"], None),
        "pbd show (C&C)": (pbd + ["show", str(cnc)], None),
        MOVE: (pbd + ["move", str(cnc), "--as", "Ann", "draw"], match.reset),
        "pbd show (Twin Tower City)": (pbd + ["show", str(ttc)], None),
    }
    for cmd, reset in commands.values():       # warm-up: bytecode, start-up and catalogue caches
        if reset:
            reset()
        cpu(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(RUNS):
        for name, (cmd, reset) in commands.items():
            if reset:
                reset()
            times[name].append(cpu(cmd, env))
    medians = {name: statistics.median(ms) for name, ms in times.items()}
    base = medians["python -c pass"]
    for name, ms in medians.items():
        print(f"{name}: {ms:.1f} ms CPU ({ms / base:.2f}x python -c pass; median of {RUNS})")
    print(f"peak RSS of pbd show (C&C): {peak_rss(commands['pbd show (C&C)'][0], env) / 1024:.1f} MB "
          f"(python -c pass: {peak_rss(commands['python -c pass'][0], env) / 1024:.1f} MB)")
    match.reset()
    return medians


def five_round_board(folder: Path) -> Path:
    """Return a finished Twin Tower City board (five rounds), played at random in process."""
    from pbd.games import get
    from pbd.simulate import random_game

    game = get("ttc")
    state = None
    for state, _, _ in random_game(game, random.Random(5)):
        pass
    doc = folder / "ttc-five-rounds.txt"
    doc.write_text(game.render(state), encoding="utf-8")
    return doc


def ttc_commands(folder: Path, env: dict) -> None:
    """Print the CPU time of ``pbd check`` and ``pbd score`` on a five-round board, beyond start-up."""
    doc = five_round_board(folder)
    # started as the pbd script starts (pbd.__main__.run: the collector off while modules load), timed from
    # there on: pbd.cli.main freezes what start-up made and runs the command
    probe = ("import gc, sys, time\ngc.disable()\nimport pbd.cli\nt = time.process_time()\n"
             "sys.argv = ['pbd', *sys.argv[1:]]\n"
             "try:\n    pbd.cli.main()\nexcept SystemExit:\n    pass\n"
             "sys.stderr.write(f'CPU {(time.process_time() - t) * 1000:.3f}\\n')\n")
    for command in ("check", "score"):
        spent = []
        for _ in range(6):
            out = subprocess.run([sys.executable, "-c", probe, command, str(doc)], env=env, capture_output=True,
                                 text=True)
            spent.append(float(out.stderr.strip().rsplit("CPU ", 1)[1]))
        print(f"Twin Tower City pbd {command} (five-round board): {statistics.median(spent[1:]):.1f} ms CPU "
              f"beyond start-up (median of 5)")


def long_log(folder: Path, env: dict) -> None:
    """Print the CPU of ``pbd show`` and ``pbd move`` on a match whose log has 1,000 entries."""
    from pbd import match

    home = folder / "long-home"
    os.environ["PBD_HOME"] = str(home)
    doc = folder / "long.txt"
    match.new("cnc", str(doc), "Ann", "forces-of-justice", "bench-ann")
    match.join(str(doc), "Ben", "forces-of-corruption", "bench-ben")
    players = ["Ann", "Ben"]
    i = 0
    while doc.read_text().count("\n") < 1100:
        match.move(str(doc), players[i % 2], "end turn")
        i += 1
    env = {**env, "PBD_HOME": str(home)}
    state = Match(doc, home)
    who = "Ann" if "Ann to move" in doc.read_text() else "Ben"
    entries = doc.read_text().split("\nLog\n")[1].count("\n")
    pbd = pbd_command()
    for label, cmd in (("show", pbd + ["show", str(doc)]), ("move 'draw'", pbd + ["move", str(doc), "--as", who, "draw"])):
        spent = []
        for _ in range(5):
            state.reset()
            spent.append(cpu(cmd, env))
        print(f"pbd {label} ({entries}-entry log): {statistics.median(spent):.1f} ms CPU")


def google_imports(env: dict, doc: Path) -> list[str]:
    """Return the Google modules imported by ``pbd show`` on a local document."""
    code = ("import sys\nsys.argv=['pbd','show',%r]\n"
            "try:\n  from pbd.cli import main; main()\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('google', 'googleapiclient'))))") % str(doc)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return eval(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Run every measurement; the three ratios come last (with ``--engine``, the engine part alone)."""
    compileall.compile_dir(str(ROOT / "pbd"), quiet=1)
    if sys.argv[1:] == ["--engine"]:
        ratio = engine()
        print(f"engine C&C/python-chess: {ratio:.2f}" if ratio is not None else
              "engine C&C/python-chess: n/a (python-chess not installed)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PBD_HOME"] = str(folder / "home")
        medians = startup(folder, env)
        ttc_commands(folder, env)
        long_log(folder, env)
        print(f"Google modules imported by a local 'pbd show': {google_imports(env, folder / 'cnc.txt') or 'none'}")
        ratio = engine()
    base = medians["python -c pass"]
    print(f"startup show/python-c-pass: {medians['pbd show (C&C)'] / base:.2f}")
    print(f"startup move/python-c-pass: {medians[MOVE] / base:.2f}")
    print(f"engine C&C/python-chess: {ratio:.2f}" if ratio is not None else
          "engine C&C/python-chess: n/a (python-chess not installed)")


if __name__ == "__main__":
    main()
