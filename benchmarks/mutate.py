"""Mutation testing of pbd's rules: break one rule at a time in a copy of the tree and see whether the tests notice.

Usage (from the repository root, the project's venv active)::

    nice python benchmarks/mutate.py --module pbd/table/decisions.py --tests tests/test_decisions.py
    nice python benchmarks/mutate.py --module pbd/games/tower/rules.py \\
        --tests tests/test_tower_cli.py --tests tests/test_tower_games.py --max 40

For each module it parses the source with :mod:`ast` and makes one mutant per change of a
handful of operators (see :data:`OPERATORS`): a comparison flipped (``<`` <-> ``<=``, ``>`` <->
``>=``, ``==`` <-> ``!=``, ``in`` <-> ``not in``), an integer constant off by one (``+1`` and
``-1``), ``and`` <-> ``or``, ``True`` <-> ``False``, ``not x`` -> ``x``, ``+`` <-> ``-``, and a
guard removed (``if C: return/raise ...`` whose condition becomes ``False``).  Each mutant is
written in place into a temporary copy of the tree (made once per job, never in the working
tree), and the given test files run there with ``python -m pytest -x -q`` and ``PYTHONPATH``
set to the copy, so that tests which run the ``pbd`` CLI in a subprocess import the copy too
(nothing is installed).  A mutant is *killed* when pytest fails (or runs past the timeout,
counted apart), *survives* when every test passes.

Before the mutants, the tests run once on the unmutated copy under a line tracer (a tiny pytest
plugin, :mod:`sys.settrace`): a mutant on a line those tests never execute in the pytest
process is reported as a survivor *not covered* without running it.  A line that only a
``pbd`` subprocess executes is counted so too: the figure can only err low, never high.

Why not mutmut or cosmic-ray: both mutate the package where it is imported from and run the
tests in process or through their own runners; pbd's tests start ``pbd`` in subprocesses from
the venv (an editable install of the working tree), build matches once per session in
conftest caches, and need the whole tree (templates, decks, tests' helpers) beside the
mutated module.  A copy of the tree plus ``PYTHONPATH`` gives every process the mutant and
leaves the working tree alone, in a few hundred lines.

It prints, per module: mutants (made and run; ``--max`` samples), killed, survived, the share
killed, and every survivor as ``file:line  before -> after``.  A run on one rules module with
its own test files and ``--max 40`` takes 5 to 15 minutes on the 2-core VM (a survivor costs a
whole run of the test files; a killed mutant stops at the first failure).  Options:
``--list`` prints the mutants without running anything; ``--jobs N`` runs N copies at once;
``--line N`` keeps the mutants of one line (to re-check survivors after writing a test).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What is not copied into the temporary tree.
IGNORE = shutil.ignore_patterns(".git", ".venv", "venv", "__pycache__", ".pytest_cache", "*.egg-info", "build",
                                "dist", ".mypy_cache", ".ruff_cache")
FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
#: The operators, by the name a survivor's line shows.
OPERATORS = ("compare", "number", "boolop", "bool", "not", "arith", "guard")


@dataclass(frozen=True)
class Mutant:
    """One change to a module: the source span replaced and the text put there."""

    path: str                 # relative to the tree's root
    line: int
    operator: str
    start: tuple[int, int]    # (line, column) of the span, 1-based lines, 0-based UTF-8 columns
    end: tuple[int, int]
    before: str
    after: str

    def describe(self) -> str:
        """Return ``file:line  before -> after`` (the change as one short line)."""
        def short(text: str) -> str:
            text = " ".join(text.split())
            return text if len(text) <= 70 else text[:67] + "..."
        return f"{self.path}:{self.line}  [{self.operator}] {short(self.before)}  ->  {short(self.after)}"


# -- making mutants ---------------------------------------------------------------------------

def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _skipped(node: ast.AST, parents: dict) -> bool:
    """Return True for a node no mutant touches: inside an f-string, an annotation or a docstring."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.JoinedStr):
            return True
        if isinstance(parent, (ast.arg, ast.AnnAssign)) and node is getattr(parent, "annotation", None):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is parent.returns:
            return True
        node = parent
    return False


def _changes(node: ast.AST) -> list[tuple[str, ast.AST, str]]:
    """Return ``(operator, node replaced, new source)`` for every mutant of one node."""
    out = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in FLIP:
                ops = list(node.ops)
                ops[i] = FLIP[type(op)]()
                out.append(("compare", node, ast.unparse(ast.Compare(node.left, ops, node.comparators))))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        out += [("number", node, repr(node.value + 1)), ("number", node, repr(node.value - 1))]
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        out.append(("bool", node, repr(not node.value)))
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(("boolop", node, ast.unparse(ast.BoolOp(other, node.values))))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("not", node, ast.unparse(node.operand)))
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) \
            and not any(isinstance(v, ast.JoinedStr) or isinstance(v, ast.Constant) and isinstance(v.value, str)
                        for v in (node.left, node.right)):                # text joined, not arithmetic
        other = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        out.append(("arith", node, ast.unparse(ast.BinOp(node.left, other, node.right))))
    elif isinstance(node, ast.If) and len(node.body) == 1 and isinstance(node.body[0], (ast.Return, ast.Raise)):
        out.append(("guard", node.test, "False"))
    return out


def mutants_of(path: str, source: str) -> list[Mutant]:
    """Return every mutant of a module's source, in source order.

    :raises SyntaxError: the module does not parse.
    """
    tree = ast.parse(source)
    parents = _parents(tree)
    docstrings = {id(b.body[0].value) for b in ast.walk(tree)
                  if isinstance(b, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and b.body and isinstance(b.body[0], ast.Expr) and isinstance(b.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if id(node) in docstrings or _skipped(node, parents):
            continue
        for operator, target, text in _changes(node):
            start, end = (target.lineno, target.col_offset), (target.end_lineno, target.end_col_offset)
            before = _span(source, start, end)
            if isinstance(target, ast.expr) and operator not in ("number", "bool") or text.startswith("-"):
                text = f"({text})"              # keeps the precedence the original span had
            found.append(Mutant(path, target.lineno, operator, start, end, before, text))
    return sorted((m for m in found if _compiles(source, m)), key=lambda m: (m.start, m.operator, m.after))


def _compiles(source: str, m: Mutant) -> bool:
    """Return True if the mutant is valid Python (a span the change cannot stand in is dropped)."""
    try:
        compile(apply(source, m), m.path, "exec")
    except SyntaxError:
        return False
    return True


def _offset(source: bytes, pos: tuple[int, int]) -> int:
    """Return the byte offset of a (1-based line, UTF-8 column) position, as :mod:`ast` gives them."""
    start = 0
    for _ in range(pos[0] - 1):
        start = source.index(b"\n", start) + 1
    return start + pos[1]


def _span(source: str, start: tuple[int, int], end: tuple[int, int]) -> str:
    """Return the source between two positions."""
    raw = source.encode()
    return raw[_offset(raw, start):_offset(raw, end)].decode()


def apply(source: str, m: Mutant) -> str:
    """Return the source with the mutant's span replaced."""
    raw = source.encode()
    return (raw[:_offset(raw, m.start)] + m.after.encode() + raw[_offset(raw, m.end):]).decode()


# -- running ----------------------------------------------------------------------------------

TRACER = '''
import os, sys
WANTED = set(os.environ["PBD_MUTATE_TRACE"].split(os.pathsep))
SEEN = set()

def _local(frame, event, arg):
    if event == "line":
        SEEN.add((frame.f_code.co_filename, frame.f_lineno))
    return _local

def _global(frame, event, arg):
    return _local if frame.f_code.co_filename in WANTED else None

def pytest_configure(config):
    import threading
    sys.settrace(_global)
    threading.settrace(_global)

def pytest_unconfigure(config):
    sys.settrace(None)
    with open(os.environ["PBD_MUTATE_TRACE_OUT"], "w") as fh:
        fh.writelines(f"{f}\\t{n}\\n" for f, n in sorted(SEEN))
'''


#: the test runs going on now, and whether the run was interrupted (Ctrl-C or kill): no new ones then
LIVE: set[subprocess.Popen] = set()
STOP: list[bool] = []


def _end(proc: subprocess.Popen) -> None:
    """Kill a test run's whole process group if it still runs (a timeout or an interrupted script)."""
    LIVE.discard(proc)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def make_copy(base: Path) -> Path:
    """Copy the tree to a fresh folder under ``base``; return it."""
    dest = Path(tempfile.mkdtemp(prefix="tree-", dir=base))
    shutil.copytree(ROOT, dest, ignore=IGNORE, dirs_exist_ok=True)
    return dest


def run_tests(tree: Path, tests: list[str], timeout: float | None, extra_env: dict | None = None,
              plugin: bool = False) -> tuple[str, float]:
    """Run the test files in ``tree``; return ``("passed" | "failed" | "timeout", seconds)``."""
    env = {**os.environ, "PYTHONPATH": str(tree) + os.pathsep + str(tree / "tests"), **(extra_env or {})}
    env.pop("PYTEST_ADDOPTS", None)
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    if plugin:
        cmd[3:3] = ["-p", "pbd_mutate_trace"]
    t0 = time.monotonic()
    if STOP:
        return "stopped", 0.0
    proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    LIVE.add(proc)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0
    finally:
        _end(proc)
    return ("passed" if code == 0 else "failed"), time.monotonic() - t0


def covered_lines(tree: Path, modules: list[str], tests: list[str]) -> tuple[set[tuple[str, int]], float]:
    """Run the tests once, unmutated, under the line tracer; return the (module, line) pairs run and the time.

    :raises SystemExit: the tests fail on the unmutated tree (nothing could be learnt from mutants).
    """
    (tree / "tests" / "pbd_mutate_trace.py").write_text(TRACER)
    out = tree / "trace.txt"
    wanted = os.pathsep.join(str(tree / m) for m in modules)
    status, took = run_tests(tree, tests, None, {"PBD_MUTATE_TRACE": wanted, "PBD_MUTATE_TRACE_OUT": str(out)},
                             plugin=True)
    (tree / "tests" / "pbd_mutate_trace.py").unlink()
    if status != "passed" or not out.exists():
        raise SystemExit(f"the tests do not pass on the unmutated tree ({status}): {' '.join(tests)}")
    seen = set()
    for row in out.read_text().splitlines():
        name, line = row.rsplit("\t", 1)
        seen.add((str(Path(name).relative_to(tree)), int(line)))
    return seen, took


def _lines_of(m: Mutant) -> range:
    return range(m.start[0], m.end[0] + 1)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants of the given modules against the given tests and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", required=True, help="a module to mutate (repeatable)")
    ap.add_argument("--tests", action="append", required=True, help="a test file or node to run (repeatable)")
    ap.add_argument("--max", type=int, default=0, help="run at most N mutants per module (a random sample)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy")
    ap.add_argument("--seed", default="pbd", help="the sample's seed (default: pbd)")
    ap.add_argument("--timeout", type=float, default=0, help="seconds per mutant (default: 3x the clean run + 30)")
    ap.add_argument("--line", type=int, action="append", default=[],
                    help="only the mutants on this line (repeatable; re-checks survivors after a new test)")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = ap.parse_args(argv)

    chosen: dict[str, tuple[int, list[Mutant]]] = {}
    for module in args.module:
        rel = str(Path(module).resolve().relative_to(ROOT))
        every = mutants_of(rel, (ROOT / rel).read_text())
        if args.line:
            every = [m for m in every if m.line in args.line]
        pick = every
        if args.max and len(every) > args.max:
            pick = sorted(random.Random(f"{args.seed}:{rel}").sample(every, args.max), key=lambda m: m.start)
        chosen[rel] = (len(every), pick)
    if args.list:
        for rel, (total, pick) in chosen.items():
            print(f"{rel}: {total} mutants, {len(pick)} chosen")
            for m in pick:
                print("  " + m.describe())
        return 0

    signal.signal(signal.SIGTERM, signal.default_int_handler)      # kill PID: tidy up as on Ctrl-C
    base = Path(tempfile.mkdtemp(prefix="pbd-mutate-"))
    try:
        trees = [make_copy(base) for _ in range(max(1, args.jobs))]
        seen, clean = covered_lines(trees[0], list(chosen), args.tests)
        timeout = args.timeout or 3 * clean + 30
        print(f"clean run (traced): {clean:.0f} s; timeout per mutant {timeout:.0f} s; "
              f"tests: {' '.join(args.tests)}", flush=True)
        free = list(trees)
        results: dict[Mutant, str] = {}

        def one(m: Mutant) -> str:
            tree = free.pop()
            path = tree / m.path
            original = path.read_text()
            try:
                path.write_text(apply(original, m))
                return run_tests(tree, args.tests, timeout)[0]
            finally:
                path.write_text(original)
                free.append(tree)

        todo = []
        for rel, (_, pick) in chosen.items():
            for m in pick:
                if not any((rel, n) in seen for n in _lines_of(m)):
                    results[m] = "not covered"
                else:
                    todo.append(m)
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(trees)) as pool:
            try:
                for m, status in zip(todo, pool.map(one, todo)):
                    results[m] = status
                    print(f"  {status:8} {m.describe()}", flush=True)
            except KeyboardInterrupt:
                STOP.append(True)
                for proc in list(LIVE):
                    _end(proc)
                pool.shutdown(cancel_futures=True)
                print("interrupted: the figures below count only the mutants run so far", flush=True)
        _report(chosen, results)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def _report(chosen: dict, results: dict) -> None:
    """Print each module's figures and survivors."""
    print()
    for rel, (total, pick) in chosen.items():
        pick = [m for m in pick if results.get(m, "stopped") != "stopped"]
        got = [results[m] for m in pick]
        killed = sum(s in ("failed", "timeout") for s in got)
        timeouts = sum(s == "timeout" for s in got)
        share = 100 * killed / len(pick) if pick else 100.0
        print(f"{rel}: {total} mutants, {len(pick)} run, {killed} killed ({timeouts} by timeout), "
              f"{len(pick) - killed} survived ({sum(s == 'not covered' for s in got)} not covered): {share:.1f}% killed")
        for m in pick:
            if results[m] in ("passed", "not covered"):
                print(f"  survived{' (not covered)' if results[m] == 'not covered' else ''}: {m.describe()}")


if __name__ == "__main__":
    sys.exit(main())
