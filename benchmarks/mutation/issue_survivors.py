"""Apply each mutant issue 32 names to a copy of the tree and run its game's tests: each run must fail.

    python benchmarks/mutation/issue_survivors.py      # from the repository root, in the project's venv

Prints one line per mutant: the exit code of its tests (1: a test failed, as it must) and the first
test that failed.  The copy is on ``PYTHONPATH``, so the ``pbd`` the tests start in subprocesses runs
it too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOWER, TWOXD6, BOYSTOWN = "pbd/games/tower/rules.py", "pbd/games/twoxd6/rules.py", "pbd/games/boystown/rules.py"

#: (what the mutant breaks, module, text, the text instead, the game's test files)
CASES = [
    ("The Tower: an Arcane Trap's 5 also jumps (k == 6 -> k >= 5)", TOWER,
     "if k == 6 and nxt:", "if k >= 5 and nxt:", "test_tower_*.py"),
    ("The Tower: an Arcane Trap's 3 sends you back (k == 1 -> k in (1, 3))", TOWER,
     "elif k == 1 and prev:", "elif k in (1, 3) and prev:", "test_tower_*.py"),
    ("2Xd6: the J's advancement limit 2 -> 3", TWOXD6, '"J": ("linear", 2)', '"J": ("linear", 3)', "test_twoxd6_*.py"),
    ("2Xd6: the K's advancement limit 3 -> 2", TWOXD6, '"K": ("linear", 3)', '"K": ("linear", 2)', "test_twoxd6_*.py"),
    ("2Xd6: an equal number stacks on its colour (>= -> >)", TWOXD6,
     "card.number >= t.number:", "card.number > t.number:", "test_twoxd6_*.py"),
    ("Boys' Town: after a redraw, keep or redraw again (phase 'build' -> 'drawn')", BOYSTOWN,
     'state.peeked, state.phase, state.redrawn = None, "build", True',
     'state.peeked, state.phase, state.redrawn = None, "drawn", True', "test_boystown_rules.py"),
]


def run(work: Path, module: str, old: str, new: str, tests: str) -> tuple[int, str]:
    """Return the exit code of ``tests`` on a copy of the tree with ``old`` made ``new``, and the first failure."""
    tree = work / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
    source = (tree / module).read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{module} no longer holds {old!r} once"
    (tree / module).write_text(source.replace(old, new), encoding="utf-8")
    files = sorted(str(p) for p in (tree / "tests").glob(tests))
    done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *files],
                          cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True)
    failed = [ln for ln in done.stdout.splitlines() if ln.startswith("FAILED")]
    return done.returncode, (failed[0] if failed else done.stdout.strip().splitlines()[-1]).replace(f"{tree}/", "")


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbd-issue32-"))
    try:
        for name, module, old, new, tests in CASES:
            code, first = run(work, module, old, new, tests)
            print(f"{name}: exit {code}; {first}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
