"""One pipeline, no import cycles, and files written the way a user expects (issue 8 item 9; issue 10, 11-12)."""

from __future__ import annotations

import ast
import functools
import os
import re
import stat
from pathlib import Path

import pytest

import pbd as package

PKG = Path(package.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every pbd module a file imports, at the top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pbd"):
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("pbd")}
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Return every pbd module's pbd imports (the sources read and parsed once a run: they do not change in one)."""
    modules = {}
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        modules[name] = path
    return {m: {i for i in _imports(p) if i in modules and i != m} for m, p in modules.items()}


def _reaches(graph, start, goal) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m == goal:
            return True
        if m not in seen:
            seen.add(m)
            todo += graph.get(m, ())
    return False


@pytest.mark.parametrize("a, b", [("pbd.private", "pbd.handdoc"), ("pbd.auth", "pbd.match"),
                                  ("pbd.private", "pbd.match"), ("pbd.documents.local", "pbd.match")])
def test_no_import_cycle(a, b):
    graph = _graph()
    assert not (_reaches(graph, a, b) and _reaches(graph, b, a)), f"{a} and {b} import each other"
    assert not _reaches(graph, "pbd.auth", "pbd.match")


def test_result_lives_outside_the_pipeline():
    from pbd.result import Result

    from pbd import match
    assert match.Result is Result


def test_the_read_apply_write_loop_exists_once():
    """Only the pipeline writes a document; handdoc writes one hand document once, without a loop."""
    writers = {}
    for path in PKG.rglob("*.py"):
        if "documents" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        writers[path.name] = len(re.findall(r"doc\.write\(", text))
    assert writers.pop("match.py") == 1
    assert writers.pop("handdoc.py") <= 1
    assert "for _ in range" not in (PKG / "handdoc.py").read_text()
    assert not any(writers.values()), writers


# -- the chain check runs for every command, undo included ---------------------------------------

def test_undo_checks_the_opponents_chain_values_like_every_command(pbd, match):
    move = next(m for m in pbd.json("legal", match, "--as", "Ann")["moves"] if m.startswith("play "))
    pbd("move", match, "--as", "Ann", move, ok=True)       # Ann's pbd notes Ben's published chain value
    text = match.read_text()
    ben = re.search(r"^Ben: commitment \w+ · chain 0 (\w+)", text, re.M).group(1)
    forged = text.replace(ben, "0" * 64)
    match.write_text(forged)
    result = pbd("undo", match, "--as", "Ann")
    assert result.exit_code == 3 and "does not follow" in result.output
    assert match.read_text() == forged


def test_audit_never_claims_moves_replayed_when_it_could_not_replay(pbd, match, monkeypatch):
    from pbd.games.cnc import GAME

    def cannot(*args, **kwargs):
        raise NotImplementedError("no replay")

    monkeypatch.setattr(type(GAME), "replay", cannot)
    result = pbd("audit", match)
    assert "cannot replay its log yet" in result.output
    assert "every logged move replays" not in result.output


# -- files: symlinks, permissions, Windows ---------------------------------------------------------

def test_a_symlinked_document_is_written_through_to_the_shared_file(pbd, tmp_path):
    shared = tmp_path / "shared" / "match.txt"
    shared.parent.mkdir()
    link = tmp_path / "match.txt"
    pbd("new", "cnc", shared, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    link.symlink_to(shared)
    pbd("join", link, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    pbd("move", link, "--as", "Ann", "draw", ok=True)
    assert link.is_symlink()
    assert "Ann: hand 6" in shared.read_text()


def test_a_new_document_takes_the_umask_and_private_folders_are_0700(pbd, tmp_path):
    old = os.umask(0o022)
    try:
        doc = tmp_path / "m.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(doc.stat().st_mode) == 0o644
    home = Path(os.environ["PBD_HOME"])
    for folder in (home, home / "matches", *(home / "matches").iterdir()):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for f in home.rglob("*.json"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def test_playing_works_where_os_fchmod_does_not_exist(pbd, tmp_path, monkeypatch):
    """Windows before Python 3.13 has no os.fchmod: new, join and move must not need it."""
    monkeypatch.delattr(os, "fchmod", raising=False)
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    assert "Ann: hand 6" in doc.read_text() and len(pbd.json("hand", doc, "--as", "Ann")["hand"]) == 6
    home = Path(os.environ["PBD_HOME"])
    saved = list(home.rglob("*.json"))
    assert saved and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in saved)   # still private without it


def test_locks_work_with_windows_semantics(pbd, match, monkeypatch):
    """msvcrt: an open lock file cannot be removed; the next holder reuses it."""
    from pbd import paths

    real_unlink = os.unlink

    def windows_unlink(path, *a, **k):
        if str(path).endswith("lock"):
            raise PermissionError(13, "The process cannot access the file because it is being used")
        return real_unlink(path, *a, **k)

    monkeypatch.setattr(os, "unlink", windows_unlink)
    for _ in range(3):
        pbd("roll", match, "--as", "Ann", "d6", ok=True)
    assert (match.parent / f".{match.name}.pbd-lock").exists()
    with paths.locked(match.parent / f".{match.name}.pbd-lock", wait=0):
        pass


def test_a_name_with_a_curly_apostrophe_is_refused_before_anything_is_written(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    result = pbd("new", "cnc", doc, "--as", "O\u2019Neil", "--deck", "forces-of-justice")
    assert result.exit_code == 2 and "O'Neil" in result.output and not doc.exists()
    pbd("new", "cnc", doc, "--as", "O'Neil", "--deck", "forces-of-justice", ok=True)
