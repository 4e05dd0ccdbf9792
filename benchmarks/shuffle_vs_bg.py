"""Print the shuffle proof of this tree against Bayer–Groth's (pbd's v3 module, read from git), side by side.

For passes of 18, 40, 18 + 36 (one proof) and 60 cards: the proof's characters, and the CPU to
prove and to check it, best of 3, both modules in one process (so a loaded machine slows them alike).

Run: python benchmarks/shuffle_vs_bg.py [--rev 77cd8f4]   (a commit whose pbd/table/shuffle.py is Bayer–Groth's)
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbd.table import group, shuffle  # noqa: E402


def load(rev: str) -> types.ModuleType:
    """Return the shuffle module of commit ``rev``, as a module of its own."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:pbd/table/shuffle.py"], capture_output=True,
                            text=True, check=True).stdout
    module = types.ModuleType("shuffle_at_" + rev)
    exec(compile(source, f"{rev}:pbd/table/shuffle.py", "exec"), module.__dict__)
    return module


def measure(module, n: int, sizes: tuple[int, ...] | None, runs: int = 3) -> tuple[int, float, float]:
    """Return the proof's characters and the best CPU (ms) to prove and to check a pass of ``n`` cards."""
    k = group.derive_key(b"s" * 32, "bench")
    xs = [group.code(f"c{i}") for i in range(n)]
    best_prove = best_check = float("inf")
    for run in range(runs):
        rng = random.Random(run)
        piles = sizes or (n,)
        perm = [j for start, size in zip([0, *piles], piles) for j in rng.sample(range(start, start + size), size)]
        t0 = time.process_time()
        ys, proof = module._Prover(k, xs, perm, "bench", sizes or ()).run()
        t1 = time.process_time()
        assert module._check(group.public_key(k), xs, ys, proof, "bench", sizes)
        t2 = time.process_time()
        best_prove, best_check = min(best_prove, t1 - t0), min(best_check, t2 - t1)
    return len(group.b64(module.to_bytes(proof))), best_prove * 1000, best_check * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="77cd8f4", help="a commit whose shuffle module is Bayer–Groth's")
    args = parser.parse_args()
    old = load(args.rev)
    for n, sizes in ((18, None), (40, None), (54, (18, 36)), (60, None)):
        for name, module in (("Bayer-Groth", old), ("this tree", shuffle)):
            measure(module, n, sizes, 1)                 # the generators hashed once, before the timing
            chars, prove, check = measure(module, n, sizes)
            label = "+".join(map(str, sizes)) if sizes else str(n)
            print(f"{label:>6} cards  {name:<12} proof {chars:5d} chars  prove {prove:6.1f} ms  check {check:6.1f} ms CPU")


if __name__ == "__main__":
    main()
