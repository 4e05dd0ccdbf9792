"""No import cycle in pbd, and the move path runs one way: pipeline -> game -> table -> deck (issue 28, part 7).

Every import statement of every module is read with ast — those inside functions too (a lazy
import still ties two modules together) — and the graph must have no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pbd

ROOT = Path(pbd.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ("pbd", *path.relative_to(ROOT).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Return the pbd modules ``name`` imports anywhere in its code (a name imported from a package counts
    as that submodule when there is one)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (Tarjan, iteratively)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(root):
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_the_reader_sees_the_imports_it_must():
    assert "pbd.games.base" in GRAPH["pbd.table.game"] and "pbd.table.deck" in GRAPH["pbd.table.game"]
    assert "pbd.documents.local" in GRAPH["pbd.documents"]      # a lazy import, inside a function
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_pbd_has_no_import_cycle():
    assert _cycles(GRAPH) == []


def _reaches(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for m in GRAPH[todo.pop()] - seen:
            seen.add(m)
            todo.append(m)
    return seen


def test_the_move_path_runs_one_way_pipeline_game_table_deck():
    above_games = {"pbd.match", "pbd.audit", "pbd.handedits", "pbd.preview", "pbd.status", "pbd.watch", "pbd.cli"}
    games = {m for m in MODULES if m.startswith("pbd.games.") and m != "pbd.games.base"}
    table = {m for m in MODULES if m.startswith("pbd.table.")}
    for game in games:
        assert not _reaches(game) & above_games, game
    for module in table:
        assert not _reaches(module) & (above_games | games), module
    assert not _reaches("pbd.table.deck") & {"pbd.table.game", "pbd.table.decisions", "pbd.games.base"}
