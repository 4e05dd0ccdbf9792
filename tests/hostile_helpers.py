"""Helpers for the hostile-document tests (issue 31): a started match of every game, and a record of opened files.

:func:`opened` records every file the process opens while it is active (``sys.addaudithook``:
the ``open`` event), so a test can show that a document never made pbd open a file outside
PBD_HOME, the document's own folder, pbd's bundled data and the Python installation.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from conftest import copy_of_setup

#: the files opened while :func:`opened` is active (None: not recording)
_OPENED: list[str] | None = None
_HOOKED = False

#: a started match of each game: (new's extra arguments, join's extra arguments)
GAMES = {
    "cnc": (["--deck", "forces-of-justice"], ["--deck", "forces-of-corruption"]),
    "ttc": (["--deck", "sample"], ["--deck", "sample"]),
    "tower": ([], []),
    "2xd6": ([], []),
    "boystown": ([], []),
}
#: a file outside every folder pbd may read: valid TOML, with a word that must never be echoed
SECRET = 'name = "TOPSECRET-31"\ntitle = "TOPSECRET-31"\n[catalogue]\nname = "TOPSECRET-31"\n'


def _hook(event: str, args) -> None:
    if event == "open" and _OPENED is not None and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


@contextlib.contextmanager
def opened():
    """Yield the list of files opened inside the ``with`` block (absolute paths)."""
    global _OPENED, _HOOKED
    if not _HOOKED:
        sys.addaudithook(_hook)
        _HOOKED = True
    _OPENED = []
    try:
        yield _OPENED
    finally:
        seen, _OPENED = _OPENED, None
        seen[:] = [os.path.abspath(p) for p in seen]


def allowed_roots(*folders: Path) -> list[str]:
    """Return the folders a command may open files in: ``folders``, pbd's package and Python's installation."""
    import pbd
    from pbd.paths import resource_dir

    roots = [str(f) for f in folders] + [os.path.dirname(pbd.__file__), str(resource_dir("decks")),
                                         str(resource_dir("templates")), sys.prefix, sys.base_prefix,
                                         sys.exec_prefix, "/dev/"]
    roots += [p for p in sys.path if p and os.path.isdir(p) and "site-packages" in p]
    return [os.path.realpath(r) for r in roots]


def outside(paths: list[str], roots: list[str], doc: Path | None = None) -> list[str]:
    """Return the paths in ``paths`` that lie in none of ``roots`` and are not ``doc`` (or its lock and temp files)."""
    own = os.path.join(os.path.realpath(doc.parent), "." + doc.name + ".") if doc else None

    def inside(p: str) -> bool:
        real = os.path.realpath(p)
        if doc and (real == os.path.realpath(doc) or real.startswith(own)):
            return True
        return any(real == r or real.startswith(r.rstrip("/") + "/") for r in roots)

    return sorted({p for p in paths if not inside(p)})


def started(game: str, tmp_path: Path) -> Path:
    """Return a started 2-seat match of ``game`` on a local file in ``tmp_path`` (made through the CLI)."""
    mine, theirs = GAMES[game]

    def build(pbd, folder):
        doc = folder / "m.txt"
        pbd("new", game, doc, "--as", "Ann", "--seed", "ann", *mine, ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", *theirs, ok=True)
        return doc

    return copy_of_setup(("hostile", game), tmp_path, build)
