"""Shared pytest fixtures."""


# -- the pbd processes the tests start: compiled modules, as an installed pbd has --------------

def pytest_sessionstart(session):
    """Compile pbd's modules once a run (the ``.pyc`` files beside them, where an install puts them).

    Many tests run ``pbd`` in a process of its own.  Where ``PYTHONDONTWRITEBYTECODE`` is set (or
    the ``.pyc`` files are missing or stale, as in a clean clone) each of those processes would
    compile every pbd module it imports from source, about 0.3 s of CPU a process, where a
    user's installed pbd (pip compiles a wheel's modules) reads them compiled.  Only the ``.pyc``
    files missing or older than their source are written; what the processes run is the same code.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("pbd")
    for folder in spec.submodule_search_locations or ():
        try:
            compileall.compile_dir(folder, quiet=1)
        except OSError:             # a folder we may not write (an install's): its .pyc come with it
            pass


# -- Google Docs: a local Docs/Drive API server (tests/docs_server.py) ----------------

import pytest as _pytest_gdocs


#: The port the last test's Docs server listened on (see :func:`docs_server`).
_DOCS_PORT = [0]


@_pytest_gdocs.fixture
def docs_server(monkeypatch, tmp_path):
    """Start a local Docs/Drive API server; point pbd at it; isolate PBD_HOME; no retry sleeps.

    Each test gets a new server (nothing kept from another test) on the port the previous
    test's server used, when it is free: pbd builds its API client once per process and
    endpoint (``gdocs.collection``), so the tests of a run share one build as a user's
    commands share one per process, instead of paying about 0.15 s of CPU for it each.
    """
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    from docs_server import DocsServer

    from pbd.documents import gdocs

    server = DocsServer().start(port=_DOCS_PORT[0])
    _DOCS_PORT[0] = int(server.host.rsplit(":", 1)[1])
    monkeypatch.setenv("PBD_DOCS_EMULATOR_HOST", server.host)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "pbd-home"))
    sleeps: list[float] = []
    monkeypatch.setattr(gdocs, "BACKOFF", gdocs.Backoff(sleep=sleeps.append))
    server.sleeps = sleeps
    yield server
    server.stop()


# -- every test: a private PBD_HOME, and a way to run the CLI as a user would -----------

import json as _json

import pytest as _pytest


@_pytest.fixture(autouse=True)
def _isolated_home(monkeypatch, tmp_path):
    """Give every test its own PBD_HOME so nothing touches the real user data dir."""
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "pbd-home"))


class Pbd:
    """Run ``pbd`` through click's CliRunner; ``pbd("show", doc)`` returns the click Result."""

    def __init__(self):
        from click.testing import CliRunner

        self.runner = CliRunner()

    def __call__(self, *args, ok: bool | None = None):
        from pbd.cli import cli

        result = self.runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
        if ok is True:
            assert result.exit_code == 0, f"pbd {' '.join(map(str, args))} -> {result.exit_code}\n{result.output}"
        return result

    def json(self, *args):
        """Run a command with --json and return the parsed output."""
        return _json.loads(self(*args, "--json", ok=True).stdout)

    def audit_clean(self, doc):
        """Run ``pbd audit DOC``: it must find nothing wrong — "clean" (exit 0) once every seat revealed,
        else "incomplete" (exit 1: the audit never says clean early) naming who has not revealed."""
        result = self("audit", doc)
        if "audit: incomplete" in result.output:
            assert result.exit_code == 1 and "nothing wrong found so far" in result.output, result.output
        else:
            assert result.exit_code == 0 and "audit: clean" in result.output, result.output
        return result


_SETUPS: dict[tuple, tuple] = {}


def copy_of_setup(key: tuple, tmp_path, build):
    """Return what ``build(pbd, folder)`` returns (a document in ``folder``), as if it had run in ``tmp_path``.

    For set-ups that give the same bytes every time (seeds given, match ids derived from them),
    such as starting a match: the first call of a test run with ``key`` runs ``build`` in a
    folder of its own, with its own PBD_HOME; every call copies that folder's files into
    ``tmp_path``, and its PBD_HOME (but ``cache/``, which only saves time) into this test's,
    modes kept, with the remembered documents (``my-matches``) naming the copies next to
    any this PBD_HOME remembers already.  The copy is what ``build`` would have made here,
    for a fraction of the CPU (new and join seat players with real cryptography).
    """
    import json
    import os
    import shutil
    import tempfile
    from pathlib import Path

    if key not in _SETUPS:
        import atexit

        folder = Path(tempfile.mkdtemp(prefix="pbd-setup-"))
        atexit.register(shutil.rmtree, folder, True)
        saved = os.environ.get("PBD_HOME")
        os.environ["PBD_HOME"] = str(folder / "pbd-home")
        try:
            made = build(Pbd(), folder)
        finally:
            if saved is None:
                del os.environ["PBD_HOME"]
            else:
                os.environ["PBD_HOME"] = saved
        _SETUPS[key] = folder, made
    folder, made = _SETUPS[key]
    home = Path(os.environ["PBD_HOME"])
    registry = home / "my-matches"
    known = json.loads(registry.read_text(encoding="utf-8"))["matches"] if registry.exists() else []
    for path in folder.iterdir():
        if path.name != "pbd-home":
            shutil.copy2(path, tmp_path / path.name)
    shutil.copytree(folder / "pbd-home", home, dirs_exist_ok=True, ignore=shutil.ignore_patterns("cache"))
    if registry.exists():
        ours = json.loads(registry.read_text(encoding="utf-8").replace(str(folder), str(tmp_path)))["matches"]
        docs = {m["doc"] for m in ours}
        registry.write_text(json.dumps({"matches": [m for m in known if m["doc"] not in docs] + ours}, indent=1),
                            encoding="utf-8")
    return tmp_path / made.relative_to(folder)


_FOLDERS: dict[tuple, tuple] = {}


def copy_of_folder(key: tuple, dest, build):
    """Fill the folder ``dest`` with what ``build(folder)`` leaves in an empty folder, and return what it returns.

    For a set-up whose seats each run pbd with a PBD_HOME of their own inside the folder (``home-NAME``)
    next to the document, with seeds given (the same bytes every time): the first call of a test run
    with ``key`` runs ``build`` in a folder of its own; every call copies that folder, PBD_HOMEs whole
    (their caches too, as the seats' commands left them), times kept, into ``dest``, each PBD_HOME's
    remembered documents (``my-matches``) naming the copies.  ``build`` must not depend on
    ``PBD_HOME``, ``os.environ`` or the current folder beyond what it is given.
    """
    import shutil
    import tempfile
    from pathlib import Path

    if key not in _FOLDERS:
        import atexit

        folder = Path(tempfile.mkdtemp(prefix="pbd-folder-"))
        atexit.register(shutil.rmtree, folder, True)
        _FOLDERS[key] = folder, build(folder)
    folder, made = _FOLDERS[key]
    dest = Path(dest)
    shutil.copytree(folder, dest, dirs_exist_ok=True)
    for registry in dest.rglob("my-matches"):
        moved_registry(registry.parent, folder, dest)
    return made


def moved_registry(home, old, new) -> None:
    """Make the copied PBD_HOME ``home`` name documents under folder ``new`` where its original named ``old``.

    pbd records the document each match is played on (``my-matches``) and refuses a seat's
    command on another document holding the match (a copy); a test that copies a started
    match (document and private state) to a folder of its own moves that record with it.
    """
    from pathlib import Path

    registry = Path(home) / "my-matches"
    if registry.exists():
        registry.write_text(registry.read_text(encoding="utf-8").replace(str(old), str(new)), encoding="utf-8")


def forget_documents(home) -> None:
    """Make the copied PBD_HOME ``home`` remember no document (the match's next document is the one it plays on)."""
    from pathlib import Path

    (Path(home) / "my-matches").unlink(missing_ok=True)


@_pytest.fixture
def pbd():
    """The CLI, run in process as a user would run it."""
    return Pbd()


@_pytest.fixture
def match(pbd, tmp_path):
    """A started C&C match on a local file: Ann (Forces of Justice) moves first against Ben (Forces of Corruption)."""
    def build(pbd, folder):
        doc = folder / "match.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann-1", ok=True)
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
        pbd("hand", doc, "--as", "Ann", ok=True)       # Ann's pbd draws her opening hand, publishes a chain value
        pbd("hand", doc, "--as", "Ben", ok=True)       # which Ben's opening hand needs
        return doc

    return copy_of_setup(("cnc match",), tmp_path, build)


@_pytest.fixture(scope="session")
def ttc_finished(tmp_path_factory):
    """A Twin Tower City match played to the end once per test run (first player by lot): the folder holding
    ``match.txt`` and its ``pbd-home``.  Tests work on their own copy (``test_ttc_match.finished_copy``)."""
    import os

    from test_ttc_match import start, step

    folder = tmp_path_factory.mktemp("ttc-finished")
    saved = os.environ.get("PBD_HOME")
    os.environ["PBD_HOME"] = str(folder / "pbd-home")
    try:
        pbd = Pbd()
        doc = start(pbd, folder, first="random")
        while step(pbd, doc, pick=lambda m: m[-1]) is not None:
            pass
    finally:
        if saved is None:
            del os.environ["PBD_HOME"]
        else:
            os.environ["PBD_HOME"] = saved
    return folder


# -- examples/highcard installed as a plugin, once a run ---------------------------------------

@_pytest.fixture(scope="session")
def highcard_site(tmp_path_factory):
    """Return a scratch site folder with examples/highcard installed (put it on PYTHONPATH to play it)."""
    import subprocess
    import sys
    from pathlib import Path

    site = tmp_path_factory.mktemp("highcard-site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target",
                    str(site), str(Path(__file__).resolve().parent.parent / "examples" / "highcard")], check=True,
                   capture_output=True)
    return site
