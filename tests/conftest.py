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
