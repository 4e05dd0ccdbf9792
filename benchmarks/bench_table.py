"""Print what the shared deck costs: the group, the shuffle proof, a 6-seat deal and match per game.

For The Tower, Boys' Town and 2Xd6, at 2 and at 6 seats: every seat joins, then random legal
moves are played through the real CLI (each command a fresh ``python -m pbd`` process with the
seat's own PBD_HOME, as players run it), every seat that owes a duty running ``pbd legal``
(which pays it first) after each move.  With ``--watch`` each match is played a second time
with every seat's ``pbd watch`` running for the whole match and paying the duties, as the
README has players keep it; the round figure is then printed both ways, each counted from the first
move (the deal's duties, once a match, and the watchers' start-up are printed apart).  Printed per
game: the peak document size (target at most 40 KB at 6 seats),
the median CPU of a command at 6 seats against 2 seats (target at most 1.5x), and the shuffle
proof's size and check time per pass for that game's piles.

Run: python benchmarks/bench_table.py [--moves N] [--games tower,boystown,2xd6] [--startup-games ...]
(figures only; nothing is asserted; a seat's commands are taken with the machine's noise)

``--no-site`` times the start-up figures' ``python -c pass`` and ``python -m pbd`` both with
``python -S`` and pbd's packages on PYTHONPATH: on a machine whose site-packages hold a ``.pth``
file that loads modules into every Python process (this VM's loads certifi, pathlib, re and
more: ``python -c pass`` costs 45-60 ms there instead of 10-15), the ratio would otherwise
compare that file's cost, paid by both, rather than pbd's start-up.  (PYTHONPATH comes before
the standard library on ``sys.path``, which costs pbd's command a little more than ``site``
would: the figures err against pbd.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbd.table import group, shuffle  # noqa: E402

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
#: how often the watchers look at the file (PBD_WATCH_INTERVAL), and how long the document must stay unchanged
#: before the next move (their duties paid)
WATCH_INTERVAL = 0.1
WATCH_QUIET = 1.5
#: how the start-up figures start Python, and what they add to its environment (see ``--no-site``)
PYTHON = [sys.executable]
PYTHON_ENV: dict[str, str] = {}


def _no_site() -> None:
    """Time the start-up figures with ``python -S``, the folders ``site`` would add (and pbd's) on PYTHONPATH."""
    import sysconfig

    std = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")}
    skip = std | {os.path.join(d, "lib-dynload") for d in std} | {os.path.realpath(os.path.dirname(__file__))}
    dirs = [str(ROOT)] + [p for p in sys.path if p and os.path.isdir(p) and os.path.realpath(p) not in skip
                          and p != str(ROOT)]
    PYTHON[:] = [sys.executable, "-S"]
    PYTHON_ENV["PYTHONPATH"] = os.pathsep.join(dirs)


def timed(label: str, fn, n: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    ms = (time.perf_counter() - start) / n * 1000
    print(f"{label:<52} {ms:8.2f} ms")
    return ms


def group_figures() -> None:
    k = group.derive_key(b"s" * 32, "bench")
    x = group.code("card")
    y = group.public_key(k)
    locked = group.lock(x, k)
    proof = group.prove(k, x, locked)
    timed("membership test (libsodium)", lambda: group.is_member(x), 200)
    timed("lock (scalar multiplication)", lambda: group.lock(x, k), 200)
    timed("unlock (scalar multiplication)", lambda: group.unlock(locked, k), 200)
    timed("prove an unlock (Chaum-Pedersen)", lambda: group.prove(k, x, locked), 50)
    timed("verify an unlock (Chaum-Pedersen)", lambda: group.verify.__wrapped__(y, x, locked, proof), 50)


def pass_figures(game: str) -> None:
    """Print the shuffle proof of one pass of ``game`` (one proof for all its piles): size and check time."""
    sizes = tuple(PILES[game])
    n = sum(sizes)
    k = group.derive_key(b"s" * 32, "bench")
    xs = [group.code(f"c{i}") for i in range(n)]
    perm = [j for start, size in zip([0, *sizes], sizes) for j in range(start + size - 1, start - 1, -1)]
    ys, proof = shuffle.prove(k, xs, perm, "bench-pass", sizes)
    t0 = time.process_time()
    assert shuffle._check(group.public_key(k), xs, ys, proof, "bench-pass", sizes)
    cpu = time.process_time() - t0
    print(f"{'shuffle proof of a ' + game + ' pass (' + '+'.join(map(str, sizes)) + ' cards)':<52} "
          f"{len(group.b64(shuffle.to_bytes(proof))):8d} chars (its numbers: {len(group.b64(b''.join(ys)))} more), "
          f"check {cpu * 1000:6.1f} ms CPU")


def shuffle_figures(n: int) -> tuple[int, float]:
    """Print and return the size (characters) and check time (ms) of the proof of one pile of ``n`` cards."""
    k = group.derive_key(b"s" * 32, "bench")
    xs = [group.code(f"c{i}") for i in range(n)]
    perm = list(range(n))
    random.Random(n).shuffle(perm)
    t0 = time.process_time()
    ys, proof = shuffle.prove(k, xs, perm, "bench")
    t1 = time.process_time()
    assert shuffle.verify(group.public_key(k), xs, ys, proof, "bench")
    t2 = time.process_time()
    chars = len(group.b64(b"".join(ys) + shuffle.to_bytes(proof)))
    print(f"{'shuffle pass of ' + str(n) + ' cards: proof (with its numbers)':<52} {chars:8d} chars, "
          f"prove {(t1 - t0) * 1000:6.1f} ms, check {(t2 - t1) * 1000:6.1f} ms CPU")
    return chars, (t2 - t1) * 1000


def _ids(ranges: str) -> int:
    """Return how many slot ids a deck line's ranges (``1-18 20``) name."""
    count = 0
    for token in ranges.split():
        first, _, last = token.partition("-")
        count += int(last) - int(first) + 1 if last else token != "-"
    return count


def breakdown(text: str) -> dict[str, int]:
    """Return where a document's bytes go: pass numbers, shuffle proofs, unlocks, signatures, the rest."""
    parts = dict.fromkeys(("pass numbers", "shuffle proofs", "unlock numbers", "unlock proofs (Chaum-Pedersen)",
                           "signatures", "other log tokens (commits, heads, keys, seals, MACs, hashes)",
                           "everything else (board, log words, deck layout)"), 0)
    piles: dict[tuple[str, str], int] = {}
    blobs: dict[tuple[str, str, str], int] = {}
    for line in text.splitlines(True):
        size, words = len(line.encode()), line.split()
        rest = size
        if words[:1] == ["gen"]:
            for part in line.strip().split(" · ")[1:]:
                name, _, ranges = part.partition(" ")
                piles[(words[1], name)] = _ids(ranges)
        elif words[:1] == ["proof"] and len(words) == 5:
            blobs[(words[1], words[2], words[3])] = blobs.get((words[1], words[2], words[3]), 0) + len(words[4])
            rest -= len(words[4])
        elif words[:1] == ["slot"]:
            for w in words[2:]:
                if len(w) == group.ELEMENT_CHARS:
                    parts["unlock numbers"] += len(w)
                    rest -= len(w)
                elif len(w) == 64:
                    parts["unlock proofs (Chaum-Pedersen)"] += len(w)
                    rest -= len(w)
        else:
            for before, w in zip(words, words[1:]):
                if before == "sig":
                    parts["signatures"] += len(w)
                    rest -= len(w)
                elif before in ("commits", "head", "key", "seal", "mac") or (w.startswith("#") and len(w) > 16):
                    parts["other log tokens (commits, heads, keys, seals, MACs, hashes)"] += len(w)
                    rest -= len(w)
        parts["everything else (board, log words, deck layout)"] += rest
    for (gen, _, name), chars in blobs.items():
        numbers = -(-piles.get((gen, name), 0) * group.BYTES * 4 // 3)
        parts["pass numbers"] += min(numbers, chars)
        parts["shuffle proofs"] += max(0, chars - numbers)
    return parts


class Table:
    """Seats playing one match through subprocesses; CPU of every command kept by kind."""

    def __init__(self, folder: Path, game: str, seats: int, seed: int):
        self.folder, self.game, self.names = folder, game, NAMES[:seats]
        folder.mkdir(parents=True, exist_ok=True)
        self.doc = folder / "m.txt"
        self.cpu: dict[str, list[float]] = {}
        self.seat_cpu = 0.0
        self.peak = 0
        self.peak_text = ""
        self.rng = random.Random(seed)
        self.watchers: list[subprocess.Popen] = []
        #: the CPU seconds spent before the first move (the deal: every seat's shuffle pass and the opening
        #: hands' unlocks; the watchers' start-up): the seats' commands', the watchers'
        self.dealt: tuple[float, float] | None = None

    def watch(self, interval: float = WATCH_INTERVAL) -> None:
        """Start every seat's ``pbd watch`` (every match of its PBD_HOME), as the README has players keep it running.

        Each pays its seat's duties (unlocks, shuffle passes, chain values) as they appear, in one
        process for the whole match: what a seat's pbd costs then is that process's CPU, start-up
        once, a look at the file every ``interval`` seconds, a read of every new version, and the
        duties' work.
        """
        for seat in self.names:
            env = {**os.environ, "PBD_HOME": str(self.folder / f"home-{seat}"), "PBD_WATCH_INTERVAL": str(interval)}
            self.watchers.append(subprocess.Popen([sys.executable, "-m", "pbd", "watch", "--as", seat],
                                                  cwd=self.folder, env=env, stdin=subprocess.DEVNULL,
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def watchers_cpu(self) -> float:
        """Return the CPU seconds the running watchers have spent so far (Linux's /proc)."""
        tick, spent = os.sysconf("SC_CLK_TCK"), 0
        for proc in self.watchers:
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            spent += int(fields[11]) + int(fields[12])         # utime, stime (the 14th and 15th fields)
        return spent / tick

    def unwatch(self) -> float:
        """Stop the watchers (Ctrl-C, as a player would) and return the CPU seconds they spent, all of them."""
        import signal

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for proc in self.watchers:
            proc.send_signal(signal.SIGINT)
        for proc in self.watchers:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.watchers = []
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    def quiet(self, still: float = WATCH_QUIET, limit: float = 120.0) -> None:
        """Wait until the document has not changed for ``still`` seconds (the watchers have paid what was owed)."""
        def stamp():
            st = self.doc.stat()
            return st.st_size, st.st_mtime_ns
        start, last, since = time.monotonic(), stamp(), time.monotonic()
        while time.monotonic() - since < still and time.monotonic() - start < limit:
            time.sleep(still / 10)
            now = stamp()
            if now != last:
                last, since = now, time.monotonic()

    def pbd(self, seat: str | None, *args, counted: bool = True) -> subprocess.CompletedProcess:
        """Run one command (``counted``: its CPU kept by kind; the bench's own looks between duties are not)."""
        env = {**os.environ, "PBD_HOME": str(self.folder / f"home-{seat or 'all'}")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "pbd", *map(str, args), *(["--as", seat] if seat else [])],
                              cwd=self.folder, env=env, capture_output=True, text=True)
        if not counted:
            return done
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        self.cpu.setdefault(args[0], []).append(cpu)
        if seat is not None and args[0] not in ("new", "join"):
            self.seat_cpu += cpu                    # what the players' own commands cost (not the bench's looks)
        size = self.doc.stat().st_size if self.doc.exists() else 0
        if size > self.peak:
            self.peak, self.peak_text = size, self.doc.read_text()
        return done

    def start(self) -> None:
        from pbd import games as registry

        game = registry.get(self.game)
        decks = game.sample_decks()
        deck = ["--deck", decks[0]] if decks else []
        self.pbd(self.names[0], "new", self.game, self.doc, "--players", len(self.names), "--seed", self.names[0],
                 *deck)
        for name in self.names[1:]:
            self.pbd(name, "join", self.doc, "--seed", name, *(deck if game.join_needs_deck else []))

    def play(self, moves: int) -> int:
        """Play up to ``moves`` random legal moves (duties paid after each); return how many were played.

        With watchers running (:meth:`watch`), each look waits first until they have paid what
        the last write made owed; without, the seat that owes runs ``pbd legal``, which pays it.
        After a seat that only paid, the board is looked at again (not counted) and only the seats
        still waited on run a command: a duty any of several seats may pay (The Tower's fresh
        value for a die) is paid by the first, and the others owe nothing then.
        """
        played = 0
        while played < moves:
            if self.watchers:
                self.quiet()
            view = json.loads(self.pbd(None, "show", self.doc, "--json").stdout)
            if view.get("result"):
                break
            movers = [s for s in view.get("to_move", []) if s in self.names]
            moved, before, ran = False, self.doc.read_bytes(), set()
            while movers:
                seat = movers[0]
                ran.add(seat)
                mark = (self.seat_cpu, self.watchers_cpu())
                # 'pbd legal' pays what the seat owes first: a seat that only owes duties runs that one command
                listed = json.loads(self.pbd(seat, "legal", self.doc, "--json").stdout or "{}").get("moves", [])
                if listed:
                    if self.dealt is None:
                        self.dealt = mark                   # (the first move's legal is the round's)
                    self.pbd(seat, "move", self.doc, self.rng.choice(listed))
                    played, moved = played + 1, True
                    break
                view = json.loads(self.pbd(None, "show", self.doc, "--json", counted=False).stdout)
                movers = [s for s in view.get("to_move", []) if s in self.names and s not in ran]
            if not moved and (not ran or self.doc.read_bytes() == before):
                break                                       # nobody can move and nothing was paid: a stall
        return played


def match_figures(game: str, moves: int, watched: bool = False) -> None:
    sizes: dict[int, int] = {}
    medians: dict[int, float] = {}
    deals: dict[int, int] = {}
    per_turn: dict[int, float] = {}
    watch_turn: dict[int, float] = {}
    for seats in (2, 6):
        with tempfile.TemporaryDirectory() as tmp:
            table = Table(Path(tmp), game, seats, seed=seats)
            table.start()
            deals[seats] = table.peak
            played = table.play(moves)
            sizes[seats] = table.peak
            dealt = table.dealt[0] if table.dealt else table.seat_cpu
            per_turn[seats] = (table.seat_cpu - dealt) / played if played else 0.0
            every = [c for kind in ("show", "legal", "move", "status") for c in table.cpu.get(kind, [])]
            medians[seats] = statistics.median(every) * 1000 if every else 0.0
            print(f"{game}/{seats}: {played} moves; after the deal {deals[seats] / 1024:6.1f} KB, peak document "
                  f"{sizes[seats] / 1024:6.1f} KB; median CPU a command {medians[seats]:6.1f} ms "
                  f"(join {statistics.median(table.cpu['join']) * 1000:6.1f} ms); the deal's duties {dealt:.2f} s")
            if seats == 6:
                for part, size in breakdown(table.peak_text).items():
                    print(f"  {game}/6 peak: {part:<62} {size / 1024:6.1f} KB")
        if watched:
            with tempfile.TemporaryDirectory() as tmp:
                table = Table(Path(tmp), game, seats, seed=seats)
                table.start()
                table.watch()
                table.seat_cpu = 0.0
                try:
                    done = table.play(moves)
                finally:
                    spent = table.unwatch()
                dealt = table.dealt or (table.seat_cpu, spent)
                watch_turn[seats] = (table.seat_cpu - dealt[0] + spent - dealt[1]) / done if done else 0.0
                print(f"{game}/{seats} with every seat's pbd watch: {done} moves; the movers' commands "
                      f"{table.seat_cpu - dealt[0]:.2f} s, the watchers {spent - dealt[1]:.2f} s of CPU (before the "
                      f"first move: the watchers' start-up and the deal's duties, {sum(dealt):.2f} s)")
    ratio = medians[6] / medians[2] if medians[2] else float("nan")
    print(f"peak document {game}/6: {sizes[6] / 1024:.1f} KB (target 40)")
    print(f"cpu per command {game} 6 seats/2 seats: {ratio:.2f} (target 1.50)")
    # a round is every seat's turn: per seat, the CPU of a round is the CPU of one turn (the move and the duties
    # every seat's pbd pays for it); counted from the first move's `legal`, so the deal (each seat's shuffle pass,
    # the opening hands' unlocks: once a match, printed above) and the watchers' start-up are not in it
    turn = per_turn[6] / per_turn[2] if per_turn[2] else float("nan")
    print(f"round {game} per seat, 6 seats/2 seats, a command per duty: {turn:.2f} ({per_turn[6]:.2f} / "
          f"{per_turn[2]:.2f} s a turn; target 2.00)")
    if watched:
        # the duties paid as players have them paid: by each seat's pbd watch, one process for the match
        turn = watch_turn[6] / watch_turn[2] if watch_turn[2] else float("nan")
        print(f"round {game} per seat, 6 seats/2 seats, duties paid by pbd watch: {turn:.2f} ({watch_turn[6]:.2f} / "
              f"{watch_turn[2]:.2f} s a turn; target 2.00)")


PILES = {"tower": [40], "boystown": [60], "2xd6": [18, 36]}


def _cpu(command: list[str], folder: Path, home: Path) -> tuple[float, int]:
    """Return the CPU seconds one run of ``command`` takes (in ``folder``, with PBD_HOME ``home``) and its exit code."""
    env = {**os.environ, **PYTHON_ENV, "PBD_HOME": str(home)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done.returncode


def startup_figures(game: str, seats: int, late_moves: int, runs: int) -> float:
    """Print and return the largest CPU ratio of show/legal/status/hand/move to ``python -c pass``.

    Taken at the start of a match and after ``late_moves`` random moves.  Each command runs in
    the match's own folder (a copy of a match document elsewhere is refused as a copy, so it is
    never measured there), which is put back from a snapshot before every run so that a move is
    the same move every run and each command meets what a player's would: the boards and decks
    this seat's pbd has already read kept in its cache, the document itself new to it.  Runs
    alternate with ``python -c pass``; medians of ``runs`` runs.  A command that fails is named.
    """
    import shutil

    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Path(tmp) / "m", game, seats, seed=seats)
        table.start()
        snapshot = Path(tmp) / "snapshot"
        for snap in ("start", "late"):
            if snap == "late":
                table.play(late_moves)
            view = json.loads(table.pbd(None, "show", table.doc, "--json").stdout)
            seat = next((s for s in view.get("to_move", []) if s in table.names), table.names[0])
            table.pbd(seat, "status", table.doc)                    # its duties paid: the commands only read
            listed = json.loads(table.pbd(seat, "legal", table.doc, "--json").stdout or "{}").get("moves", [])
            commands = {"show": ["show", "m.txt"], "legal": ["legal", "m.txt", "--as", seat],
                        "status": ["status", "m.txt", "--as", seat], "hand": ["hand", "m.txt", "--as", seat]}
            if listed:
                commands["move"] = ["move", "m.txt", "--as", seat, listed[0]]
            shutil.rmtree(snapshot, ignore_errors=True)
            shutil.copytree(table.folder, snapshot)
            home = table.folder / f"home-{seat}"
            ratios = {}
            for kind, args in commands.items():
                base, cost = [], []
                for _ in range(runs):
                    shutil.rmtree(table.folder)
                    shutil.copytree(snapshot, table.folder)
                    base.append(_cpu([*PYTHON, "-c", "pass"], table.folder, home)[0])
                    spent, code = _cpu([*PYTHON, "-m", "pbd", *args], table.folder, home)
                    if code not in (0, 1):
                        print(f"  ({game}/{seats} {snap}: pbd {' '.join(args)} exited {code})")
                    cost.append(spent)
                ratios[kind] = statistics.median(cost) / statistics.median(base)
            shutil.rmtree(table.folder)
            shutil.copytree(snapshot, table.folder)
            print(f"  {game}/{seats} {snap}: " + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()))
            worst = max(worst, *ratios.values())
    return worst


def audit_figure(game: str, seats: int) -> float:
    """Return the CPU seconds (median of 3) of ``pbd audit`` on a whole ``seats``-seat match of ``game``.

    The match is a random one of :mod:`pbd.soak` (seed 0), played in process to its result and
    revealed by every seat; the audit runs as a spectator's fresh ``python -m pbd`` process.
    """
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from soak import runner

    from pbd import games as registry
    from pbd import soak

    with tempfile.TemporaryDirectory() as tmp:
        report = soak.play(runner(), Path(tmp), registry.get(game), seats, 0)
        if report.failures:
            print(f"  ({game}/{seats}: the soaked match failed: {report.failures[0].line()})")
        spectator = Path(tmp) / "home-audit"
        runs = [_cpu([sys.executable, "-m", "pbd", "audit", "match.txt"], Path(tmp), spectator) for _ in range(3)]
        if any(code for _, code in runs):
            print(f"  ({game}/{seats}: pbd audit exited {runs[0][1]})")
        print(f"  {game}/{seats}: a whole match of {report.moves} moves")
        return statistics.median(spent for spent, _ in runs)


#: the most seats each game is measured at (Twin Tower City's table is measured at 4, as issue 29 asks)
MOST = {"ttc": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="random moves a match plays (default 40)")
    parser.add_argument("--games", default="tower,boystown,2xd6")
    parser.add_argument("--startup-games", default="tower,boystown,2xd6,ttc",
                        help="games whose commands' start-up and whole-match audit are measured")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command for the start-up medians")
    parser.add_argument("--skip-matches", action="store_true", help="only the group, proofs and start-up figures")
    parser.add_argument("--skip-audit", action="store_true", help="leave out the whole-match audit figures")
    parser.add_argument("--no-site", action="store_true",
                        help="time the start-up figures with python -S (see the module's docstring)")
    parser.add_argument("--watch", action="store_true",
                        help="also play each match with every seat's pbd watch paying its duties (the round figure "
                             "as players who keep pbd watch running have it)")
    args = parser.parse_args()
    if args.no_site:
        _no_site()
        print(f"start-up figures with {' '.join(PYTHON)}, PYTHONPATH={PYTHON_ENV['PYTHONPATH']}")
    group_figures()
    games = args.games.split(",")
    for game in games:
        for n in PILES[game]:
            shuffle_figures(n)
        pass_figures(game)
    if not args.skip_matches:
        for game in games:
            match_figures(game, args.moves, args.watch)
    timed_games = [g for g in args.startup_games.split(",") if g]
    worst = {(game, seats): startup_figures(game, seats, args.moves, args.runs)
             for game in timed_games for seats in (2, MOST.get(game, 6))}
    audits = {} if args.skip_audit else {game: audit_figure(game, MOST.get(game, 6)) for game in timed_games}
    for (game, seats), ratio in worst.items():
        print(f"startup {game}/{seats} max/python-c-pass: {ratio:.2f}")
    for game, spent in audits.items():
        print(f"audit {game}/{MOST.get(game, 6)} cpu: {spent:.2f} s")


if __name__ == "__main__":
    main()
