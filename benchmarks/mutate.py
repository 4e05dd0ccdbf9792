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

Before the mutants, the tests run once on the unmutated copy, every Python process traced
(a ``sitecustomize`` on that run's ``PYTHONPATH`` sets a :func:`sys.settrace` tracer that looks
only at the mutated modules' frames; a small pytest plugin names the running test in the
environment, so each ``pbd`` subprocess a test starts records its lines under that test too).
That run learns, for every line, which tests execute it, and how long each test takes.  Each
mutant then runs only the tests that execute its lines (per-line test selection: the test
files holding them, the rest deselected, the fastest file and the fastest test first, ``-x``);
a mutant on a line no test executes, in process or in a subprocess, is *not covered* without
running anything.  Lines a shared set-up runs (a module- or session-scoped fixture, a
``copy_of_setup`` build of tests/conftest.py) count for every test that uses it, not only the
first, which built it; lines run on import (module constants, default arguments) or outside
any test select every test.  ``--confirm`` runs each survivor once more with every test (the
check that the selection missed nothing); ``--whole`` runs every test file for each covered
mutant, the tool's first way.

Why not mutmut or cosmic-ray: both mutate the package where it is imported from and run the
tests in process or through their own runners; pbd's tests start ``pbd`` in subprocesses from
the venv (an editable install of the working tree), build matches once per session in
conftest caches, and need the whole tree (templates, decks, tests' helpers) beside the
mutated module.  A copy of the tree plus ``PYTHONPATH`` gives every process the mutant and
leaves the working tree alone, in a few hundred lines.

It prints, per module: mutants (made and run; ``--max`` samples), killed, survived, not
covered, the share killed, and every survivor as ``file:line  before -> after``; each mutant's
line shows how many tests it ran.  Options: ``--list`` prints the mutants without running
anything; ``--jobs N`` runs N copies at once; ``--line N`` keeps the mutants of one line (to
re-check survivors after writing a test); ``--since REV`` keeps those on the lines changed since git
revision REV (a module run again after it changed).

The traced clean run is cached (``~/.cache/pbd-mutate``, one file per tree content, modules and
tests; ``--fresh`` ignores it): re-checking another line with the same tests on an unchanged
tree starts the mutants at once.  Any change to a file the copy takes (a new test, an edited
rule) makes a new traced run.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import hashlib
import json
import os
import random
import re
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

#: The traced run's ``sitecustomize.py``, on ``PYTHONPATH`` then only: every Python process started
#: (the pytest process and each ``pbd`` subprocess) traces the lines it runs of the modules named
#: in ``PBD_MUTATE_TRACE``, under the context ``PBD_MUTATE_CONTEXT`` names (the test running; the
#: plugin below keeps it current and subprocesses inherit it), and writes them to a file of its
#: own in ``PBD_MUTATE_TRACE_DIR`` on the way out.
SITE = """
import os, sys
_WANTED = frozenset(os.environ.get("PBD_MUTATE_TRACE", "").split(os.pathsep)) - {""}
SEEN = {}
IMPORT = set()
_cur = SEEN.setdefault(os.environ.get("PBD_MUTATE_CONTEXT", ""), set())


def set_context(label):
    global _cur
    os.environ["PBD_MUTATE_CONTEXT"] = label
    _cur = SEEN.setdefault(label, set())


def _local(frame, event, arg):
    if event == "line":
        _cur.add((frame.f_code.co_filename, frame.f_lineno))
    return _local


def _import(frame, event, arg):
    if event == "line":
        IMPORT.add((frame.f_code.co_filename, frame.f_lineno))
    return _import


def _global(frame, event, arg):
    code = frame.f_code
    if code.co_filename in _WANTED:
        return _local if code.co_flags & 2 else _import       # a function's frame, or a module's or class body's
    return None


_done = []


def dump():
    if _done:
        return
    _done.append(True)
    sys.settrace(None)
    name = os.path.join(os.environ["PBD_MUTATE_TRACE_DIR"], f"{os.getpid()}-{id(_done)}.txt")
    with open(name, "w") as fh:
        for ctx, lines in SEEN.items():
            fh.writelines(f"{ctx}\\t{f}\\t{n}\\n" for f, n in lines)
        fh.writelines(f"<import>\\t{f}\\t{n}\\n" for f, n in IMPORT)


if _WANTED:
    import atexit, threading
    _exit = os._exit

    def _leave(code):
        dump()
        _exit(code)

    os._exit = _leave
    atexit.register(dump)
    sys.settrace(_global)
    threading.settrace(_global)
"""

#: The traced run's pytest plugin: names the context (``test:NODEID``) while each test runs, and
#: a context of its own to each fixture wider than a function and to each of conftest's
#: ``copy_of_setup`` builds, which run once for the tests that share them; writes which tests
#: use which shared context, and each test's duration.
TRACE_PLUGIN = """
import json, os, sys
import pytest
import sitecustomize as _t

USES, PARENT, DURATION = {}, {}, {}
_stack = [""]


def _push(label):
    if label not in PARENT and _stack[-1] and not label.startswith("test:"):
        PARENT[label] = _stack[-1]
    _stack.append(label)
    _t.set_context(label)


def _pop():
    _stack.pop()
    _t.set_context(_stack[-1])


def _current_test():
    return next((c[5:] for c in reversed(_stack) if c.startswith("test:")), None)


def pytest_sessionstart(session):
    conftest = sys.modules.get("conftest")
    if conftest is None or not hasattr(conftest, "copy_of_setup"):
        return
    original = conftest.copy_of_setup

    def copy_of_setup(key, tmp_path, build):
        label = f"setup:{key!r}"
        test = _current_test()
        if test:
            USES.setdefault(test, set()).add(label)
        if key in conftest._SETUPS:
            return original(key, tmp_path, build)
        _push(label)
        try:
            return original(key, tmp_path, build)
        finally:
            _pop()

    conftest.copy_of_setup = copy_of_setup


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    uses = USES.setdefault(item.nodeid, set())
    for name in item.fixturenames:
        defs = item._fixtureinfo.name2fixturedefs.get(name)
        if defs and defs[-1].scope != "function":
            uses.add(f"fixture:{defs[-1].baseid}::{name}")
    _push("test:" + item.nodeid)
    try:
        yield
    finally:
        _pop()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    if fixturedef.scope == "function":
        yield
        return
    _push(f"fixture:{fixturedef.baseid}::{fixturedef.argname}")
    try:
        yield
    finally:
        _pop()


def pytest_runtest_logreport(report):
    DURATION[report.nodeid] = DURATION.get(report.nodeid, 0.0) + report.duration


def pytest_unconfigure(config):
    with open(os.path.join(os.environ["PBD_MUTATE_TRACE_DIR"], "plugin.json"), "w") as fh:
        json.dump({"uses": {k: sorted(v) for k, v in USES.items()}, "parent": PARENT, "duration": DURATION}, fh)
"""

#: The mutants' pytest plugin: runs only the tests ``PBD_MUTATE_SELECT``'s file names, in its order.
SELECT_PLUGIN = """
import os
import pytest


def pytest_collection_modifyitems(session, config, items):
    with open(os.environ["PBD_MUTATE_SELECT"]) as fh:
        rank = {n: i for i, n in enumerate(fh.read().splitlines())}
    keep = sorted((i for i in items if i.nodeid in rank), key=lambda i: rank[i.nodeid])
    config.hook.pytest_deselected(items=[i for i in items if i.nodeid not in rank])
    items[:] = keep
    if len(keep) < len(rank) and not session.testsfailed:
        pytest.exit("pbd_mutate_select: a chosen test was not collected", returncode=5)
"""


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
              plugins: tuple[str, ...] = (), path: tuple[Path, ...] = ()) -> tuple[str, float]:
    """Run the test files in ``tree``; return ``("passed" | "failed" | "timeout" | "error", seconds)``.

    "error" is pytest's exit 5 (no test ran: a chosen test was not collected), never a kill.
    """
    env = {**os.environ, **(extra_env or {}),
           "PYTHONPATH": os.pathsep.join(map(str, (*path, tree, tree / "tests")))}
    env.pop("PYTEST_ADDOPTS", None)
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    for plugin in plugins:
        cmd[3:3] = ["-p", plugin]
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
    return {0: "passed", 5: "error"}.get(code, "failed"), time.monotonic() - t0


@dataclass
class Coverage:
    """What the traced run of the unmutated tests learnt: which test runs which line, and how long each test takes."""

    by_line: dict[tuple[str, int], set[str]]    # (module, line) -> node ids of the tests that run it
    everyone: set[tuple[str, int]]              # lines run on import or outside any test: every test may need them
    duration: dict[str, float]                  # node id -> seconds (set-up, call and tear-down, traced)
    seconds: float                              # the traced run's wall time

    def tests_for(self, m: Mutant) -> list[str] | None:
        """Return the node ids that run the mutant's lines, fastest file first, fastest test first in a file.

        None means every test (a line run on import); an empty list, that no test runs them.
        """
        lines = [(m.path, n) for n in _lines_of(m)]
        if any(line in self.everyone for line in lines):
            return None
        chosen = set().union(*(self.by_line.get(line, set()) for line in lines))
        return _ordered(chosen, self.duration)


def _ordered(chosen, duration: dict[str, float]) -> list[str]:
    """Return node ids grouped by test file (the file whose chosen tests take least first), fastest first within."""
    files: dict[str, list[str]] = {}
    for node in chosen:
        files.setdefault(node.split("::")[0], []).append(node)
    groups = sorted(files.values(), key=lambda g: (sum(duration.get(n, 0.0) for n in g), g[0]))
    return [n for g in groups for n in sorted(g, key=lambda n: (duration.get(n, 0.0), n))]


def traced_run(tree: Path, modules: list[str], tests: list[str]) -> Coverage:
    """Run the tests once, unmutated, every process traced; return which test runs which line of the modules.

    The tracer (:data:`SITE`) is a ``sitecustomize`` on the run's ``PYTHONPATH`` only, so the
    ``pbd`` subprocesses a test starts trace their lines too, under the test's node id.
    Lines a shared set-up runs (a module- or session-scoped fixture, a ``copy_of_setup``
    build) count for every test that uses it, not only for the first, which built it.

    :raises SystemExit: the tests fail on the unmutated tree (nothing could be learnt from mutants).
    """
    site = tree / ".mutate-trace"
    out = tree / ".mutate-out"
    site.mkdir()
    out.mkdir()
    (site / "sitecustomize.py").write_text(SITE)
    (site / "pbd_mutate_trace.py").write_text(TRACE_PLUGIN)
    wanted = os.pathsep.join(str(tree / m) for m in modules)
    status, took = run_tests(tree, tests, None, {"PBD_MUTATE_TRACE": wanted, "PBD_MUTATE_TRACE_DIR": str(out),
                                                 "PBD_MUTATE_CONTEXT": ""},
                             plugins=("pbd_mutate_trace",), path=(site,))
    shutil.rmtree(site)
    meta = out / "plugin.json"
    if status != "passed" or not meta.exists():
        raise SystemExit(f"the tests do not pass on the unmutated tree ({status}): {' '.join(tests)}")
    plugin = json.loads(meta.read_text())
    meta.unlink()
    lines: dict[str, set[tuple[str, int]]] = {}
    for part in out.iterdir():
        for row in part.read_text().splitlines():
            ctx, name, line = row.rsplit("\t", 2)
            lines.setdefault(ctx, set()).add((str(Path(name).relative_to(tree)), int(line)))
    shutil.rmtree(out)
    for ctx in list(lines):                      # a shared set-up's lines count for the set-ups it ran within
        up = plugin["parent"].get(ctx)
        while up:
            lines.setdefault(up, set()).update(lines[ctx])
            up = plugin["parent"].get(up)
    by_line: dict[tuple[str, int], set[str]] = {}
    for node, uses in plugin["uses"].items():
        for ctx in ("test:" + node, *uses):
            for line in lines.get(ctx, ()):
                by_line.setdefault(line, set()).add(node)
    everyone = lines.get("<import>", set()) | lines.get("", set())
    return Coverage(by_line, everyone, plugin["duration"], took)


#: Where the traced runs are kept, one JSON file per tree content and arguments (see :func:`cached_trace`).
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pbd-mutate"
#: Folders whose files never change what the tests run (kept out of the cache key).
UNKEYED = ("benchmarks/notes/", "benchmarks/mutation/", "benchmarks/rounds/")     # records no test reads


def tree_key(modules: list[str], tests: list[str]) -> str:
    """Return a hash of what a traced run depends on: the files the copy takes (not notes/), and the arguments."""
    digest = hashlib.sha256(json.dumps([sys.version, sorted(modules), tests]).encode())
    for folder, dirs, files in os.walk(ROOT):
        ignored = IGNORE(folder, dirs + files)
        dirs[:] = sorted(d for d in dirs if d not in ignored)
        for name in sorted(f for f in files if f not in ignored):
            rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
            if rel.startswith(UNKEYED):
                continue
            digest.update(rel.encode() + b"\0" + Path(folder, name).read_bytes() + b"\0")
    return digest.hexdigest()


def cached_trace(tree: Path, modules: list[str], tests: list[str], key: str, fresh: bool = False
                 ) -> tuple[Coverage, bool]:
    """Return the traced run's coverage, from the cache when the tree and arguments are unchanged since it was made.

    ``key`` is :func:`tree_key` taken before the tree was copied.  The second value says whether
    it came from the cache.  A cached run is reused only for exactly
    the same file contents, modules and tests (a new or edited test file means a new traced run).
    """
    path = CACHE / f"{key}.json"
    if not fresh and path.exists():
        data = json.loads(path.read_text())
        by_line = {(f, n): set(nodes) for f, n, nodes in data["by_line"]}
        return Coverage(by_line, {tuple(x) for x in data["everyone"]}, data["duration"], data["seconds"]), True
    cover = traced_run(tree, modules, tests)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"by_line": [[f, n, sorted(nodes)] for (f, n), nodes in cover.by_line.items()],
                               "everyone": sorted(cover.everyone), "duration": cover.duration,
                               "seconds": cover.seconds}))
    tmp.replace(path)
    return cover, False


def _lines_of(m: Mutant) -> range:
    return range(m.start[0], m.end[0] + 1)


def changed_lines(rev: str, rel: str) -> set[int]:
    """Return the line numbers (the file as it is now) of every hunk of ``git diff -U0 rev`` of module ``rel``.

    :raises SystemExit: git cannot diff against ``rev``.
    """
    diff = subprocess.run(["git", "diff", "-U0", rev, "--", rel], cwd=ROOT, capture_output=True, text=True)
    if diff.returncode:
        raise SystemExit(f"mutate.py: git diff {rev}: {diff.stderr.strip()}")
    lines: set[int] = set()
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff.stdout, re.M):
        start, count = int(m.group(1)), int(m.group(2) or 1)
        lines.update(range(start, start + count))
    return lines


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
    ap.add_argument("--since", metavar="REV",
                    help="only the mutants on lines changed since git revision REV (a module's run again after "
                         "changes: the lines of every hunk of 'git diff -U0 REV', the file's side now)")
    ap.add_argument("--whole", action="store_true",
                    help="run every test file for each covered mutant (the tool's first way), not only the tests "
                         "that run its line")
    ap.add_argument("--confirm", action="store_true",
                    help="run each survivor of the chosen tests again with every test file (checks the selection)")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--fresh", action="store_true",
                    help="trace the clean run again even if the same tree and tests were traced before (cached "
                         "under ~/.cache/pbd-mutate)")
    args = ap.parse_args(argv)

    chosen: dict[str, tuple[int, list[Mutant]]] = {}
    for module in args.module:
        rel = str(Path(module).resolve().relative_to(ROOT))
        every = mutants_of(rel, (ROOT / rel).read_text())
        lines = set(args.line) | (changed_lines(args.since, rel) if args.since else set())
        if args.line or args.since:
            every = [m for m in every if m.line in lines]
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
    key = tree_key(list(chosen), args.tests)
    base = Path(tempfile.mkdtemp(prefix="pbd-mutate-"))
    try:
        trees = [make_copy(base) for _ in range(max(1, args.jobs))]
        cover, cached = cached_trace(trees[0], list(chosen), args.tests, key, args.fresh)
        timeout = args.timeout or 3 * cover.seconds + 30
        print(f"clean run (traced{', cached' if cached else ''}): {cover.seconds:.0f} s, {len(cover.duration)} tests; "
              f"timeout per mutant "
              f"{timeout:.0f} s; tests: {' '.join(args.tests)}", flush=True)
        free = list(trees)
        results: dict[Mutant, str] = {}

        def one(job: tuple[Mutant, list[str] | None]) -> str:
            m, nodes = job
            tree = free.pop()
            path = tree / m.path
            original = path.read_text()
            try:
                path.write_text(apply(original, m))
                if nodes is None:
                    return run_tests(tree, args.tests, timeout)[0]
                (tree / ".mutate-select").write_text("\n".join(nodes) + "\n")
                (tree / "tests" / "pbd_mutate_select.py").write_text(SELECT_PLUGIN)
                files = list(dict.fromkeys(n.split("::")[0] for n in nodes))     # only these files are collected
                return run_tests(tree, files, timeout, {"PBD_MUTATE_SELECT": str(tree / ".mutate-select")},
                                 plugins=("pbd_mutate_select",))[0]
            finally:
                path.write_text(original)
                free.append(tree)

        todo = []
        for rel, (_, pick) in chosen.items():
            for m in pick:
                nodes = cover.tests_for(m)
                if nodes == []:
                    results[m] = "not covered"
                    continue
                if args.whole:
                    nodes = None
                todo.append((m, nodes))
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(trees)) as pool:
            try:
                for (m, nodes), status in zip(todo, pool.map(one, todo)):
                    results[m] = status
                    print(f"  {status:8} {m.describe()}  ({'every' if nodes is None else len(nodes)} tests)",
                          flush=True)
                if args.confirm:
                    again = [(m, None) for m, nodes in todo if nodes is not None and results[m] == "passed"]
                    for (m, _), status in zip(again, pool.map(one, again)):
                        print(f"  confirm {status:8} {m.describe()}  (every test)", flush=True)
                        if status != "passed":
                            results[m] = status + " (confirm)"
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
        killed = sum(s.startswith(("failed", "timeout")) for s in got)
        timeouts = sum(s.startswith("timeout") for s in got)
        confirmed = sum(s.endswith("(confirm)") for s in got)
        errors = sum(s == "error" for s in got)
        share = 100 * killed / len(pick) if pick else 100.0
        print(f"{rel}: {total} mutants, {len(pick)} run, {killed} killed ({timeouts} by timeout, {confirmed} only by "
              f"the confirming run of every test), {len(pick) - killed - errors} survived "
              f"({sum(s == 'not covered' for s in got)} not covered), {errors} errors: {share:.1f}% killed")
        for m in pick:
            if results[m] in ("passed", "not covered", "error"):
                label = {"passed": "survived", "not covered": "survived (not covered)", "error": "error"}[results[m]]
                print(f"  {label}: {m.describe()}")
            elif results[m].endswith("(confirm)"):
                print(f"  killed only by every test: {m.describe()}")


if __name__ == "__main__":
    sys.exit(main())
