"""Shared pytest fixtures."""


# -- Google Docs: a local Docs/Drive API server (tests/docs_server.py) ----------------

import pytest as _pytest_gdocs


@_pytest_gdocs.fixture
def docs_server(monkeypatch, tmp_path):
    """Start a local Docs/Drive API server; point pbd at it; isolate PBD_HOME; no retry sleeps."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    from docs_server import DocsServer

    from pbd.documents import gdocs

    server = DocsServer().start()
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


@_pytest.fixture
def pbd():
    """The CLI, run in process as a user would run it."""
    return Pbd()


@_pytest.fixture
def match(pbd, tmp_path):
    """A started C&C match on a local file: Ann (Forces of Justice) moves first against Ben (Forces of Corruption)."""
    doc = tmp_path / "match.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann-1", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)       # Ann's pbd draws her opening hand, publishes a chain value
    pbd("hand", doc, "--as", "Ben", ok=True)       # which Ben's opening hand needs
    return doc


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
