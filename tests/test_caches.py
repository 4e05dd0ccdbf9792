"""The caches that keep start-up short: parsed catalogues (PBD_HOME/cache) and compiled start-up code."""

from __future__ import annotations

import dataclasses
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbd import _bytecode, cache, paths
from pbd.games.cnc import cards
from pbd.games.ttc import catalogue as ttc_catalogue

BUNDLED = paths.resource_dir("decks") / "cnc" / "catalogue.toml"


def entries() -> list[Path]:
    folder = Path(cache.folder())
    return sorted(folder.glob("*.cache")) if folder.is_dir() else []


def test_a_catalogue_is_parsed_once_and_then_read_from_the_cache(monkeypatch):
    first = cards.load_catalogue(BUNDLED)
    assert len(entries()) == 1
    monkeypatch.setattr(cards, "_parse_catalogue", lambda *a: pytest.fail("parsed again"))
    again = cards.load_catalogue(BUNDLED)
    assert again.cards == first.cards and again.source == str(BUNDLED)
    assert again.get("Spider-Man") == first.get("Spider-Man")


def test_an_edited_catalogue_is_read_anew_and_its_old_entry_removed(tmp_path):
    own = tmp_path / "cards.toml"
    shutil.copyfile(BUNDLED, own)
    before = cards.load_catalogue(own)
    old = entries()
    own.write_text(own.read_text().replace('name = "Spider-Man"', 'name = "Spider-Woman"', 1))
    after = cards.load_catalogue(own)
    assert "Spider-Woman" in after and "Spider-Woman" not in before
    assert len(entries()) == 1 and entries() != old


@pytest.mark.parametrize("damage", ["truncate", "flip a byte", "garbage", "empty", "other class"])
def test_a_damaged_entry_is_a_miss_never_an_error(damage):
    good = cards.load_catalogue(BUNDLED)
    entry = entries()[0]
    blob = entry.read_bytes()
    head = len(cache.MAGIC) + 32
    if damage == "truncate":
        entry.write_bytes(blob[:len(blob) // 2])
    elif damage == "flip a byte":
        entry.write_bytes(blob[:-10] + bytes([blob[-10] ^ 1]) + blob[-9:])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(blob)))
    elif damage == "empty":
        entry.write_bytes(b"")
    else:   # a well-formed entry naming a class the caller does not allow: refused, never loaded
        import hashlib

        payload = pickle.dumps({"x": Path("/")})
        entry.write_bytes(cache.MAGIC + hashlib.sha256(payload).digest() + payload)
        assert blob[:head] != entry.read_bytes()[:head]
    assert cards.load_catalogue(BUNDLED).cards == good.cards
    assert entries()[0].read_bytes() == blob                       # rewritten as it should be


def test_a_read_only_cache_folder_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "folder", lambda: str(tmp_path / "file-not-folder" / "cache"))
    (tmp_path / "file-not-folder").write_text("")
    assert "Spider-Man" in cards.load_catalogue(BUNDLED)


def test_a_twin_tower_city_catalogue_comes_back_equal_from_the_cache():
    first = ttc_catalogue.load_catalogue("sample")
    again = ttc_catalogue.load_catalogue("sample")
    assert again == first and again is not first
    assert again.warrior("don triumph") == first.warrior("Don Triumph")


def test_bad_catalogues_are_reported_and_never_cached(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]]\nname = 'X'\n")
    for _ in range(2):
        with pytest.raises(Exception, match="missing 'kind'"):
            cards.load_catalogue(bad, require_porter=False)
    assert entries() == []


# -- compiled start-up code ---------------------------------------------------------------------

PATTERNS = [r"^\s*CP\s*[=:]\s*(?P<cp>-?\d+)", r"(?i)\[([^\]]*)\]\s*(\+*)", r"(a)|(?P<b>b)+?", rb"\x00+[^\x00]",
            r"^(?:(?P<name>[^,@·]+?)\s+)?(?P<a>\d+)(?:-(?P<b>\d+))?@(?P<j>\d+|-)$", r"(?x) a  b # comment"]


def test_regular_expressions_rebuilt_from_the_cache_equal_freshly_compiled_ones(monkeypatch):
    original = _bytecode._regex.original or re._compiler.compile     # the CLI may have installed the cache
    monkeypatch.setattr(_bytecode, "_cache", {"code": {}, "regex": {}})
    monkeypatch.setattr(_bytecode._regex, "original", original)
    for pattern in PATTERNS:
        fresh = original(pattern, 0)
        assert _bytecode._regex(pattern, 0) == fresh                     # a miss: compiled, then stored
        assert (pattern, 0) in _bytecode._cache["regex"]
        again = _bytecode._regex(pattern, 0)                             # a hit: rebuilt from the program
        assert again == fresh and again is not fresh
        assert (again.groups, again.groupindex, again.flags) == (fresh.groups, fresh.groupindex, fresh.flags)
    _bytecode._cache["regex"][(PATTERNS[0], 0)] = (0, [99999], 0, {}, ())     # a damaged program
    assert _bytecode._regex(PATTERNS[0], 0) == original(PATTERNS[0], 0)


def test_dataclasses_made_with_cached_code_behave_the_same(monkeypatch):
    monkeypatch.setattr(_bytecode, "_cache", {"code": {}, "regex": {}})
    monkeypatch.setattr(dataclasses, "exec", _bytecode._exec, raising=False)

    def make():
        @dataclasses.dataclass(frozen=True)
        class Point:
            """A point."""

            x: int
            y: int = 0
            tags: tuple = dataclasses.field(default=(), compare=False)

        return Point

    first, second = make(), make()
    assert _bytecode._cache["code"]                                     # the second class reused the code
    p, q = first(1, 2, ("a",)), second(1, 2)
    assert (p.x, p.y, q.tags) == (1, 2, ()) and repr(q).endswith("Point(x=1, y=2, tags=())")
    assert p == first(1, 2) and hash(p) == hash(first(1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3


def test_the_start_up_cache_is_written_once_and_a_damaged_one_ignored(tmp_path):
    root = tmp_path / "src"
    shutil.copytree(paths.resource_dir("decks").parent / "pbd", root / "pbd",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("decks", "templates"):
        shutil.copytree(paths.resource_dir(name), root / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(root), "PBD_HOME": str(tmp_path / "home")}
    marshal_file = root / "pbd" / "__pycache__" / Path(_bytecode.PATH).name

    def template():
        out = subprocess.run([sys.executable, "-m", "pbd", "template", "cnc"], env=env, capture_output=True,
                             text=True, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout

    blank = template()
    assert marshal_file.exists()
    stamp = marshal_file.stat().st_mtime_ns
    assert template() == blank and marshal_file.stat().st_mtime_ns == stamp     # nothing new: not rewritten
    marshal_file.write_bytes(marshal_file.read_bytes()[:200])
    assert template() == blank
    marshal_file.write_bytes(b"\0" * 100)
    assert template() == blank
    out = subprocess.run([sys.executable, "-m", "pbd", "template", "cnc"], capture_output=True, text=True,
                         env=env | {"PYTHONDONTWRITEBYTECODE": "1"}, cwd=tmp_path)
    assert out.stdout == blank
