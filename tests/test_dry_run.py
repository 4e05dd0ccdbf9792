"""pbd move --dry-run: the resulting board and log lines; the document and PBD_HOME byte-identical afterwards."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _home() -> dict:
    home = Path(os.environ["PBD_HOME"])
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def test_dry_run_shows_the_board_and_log_and_changes_nothing(pbd, match):
    doc, home = match.read_bytes(), _home()
    out = pbd("move", match, "--as", "Ann", "play Spider-Man", "--dry-run", ok=True).output
    assert "Dry run: nothing was written" in out
    assert "Ann: play Spider-Man · AP" in out and "[Spider-Man HP=15/15]" in out
    assert match.read_bytes() == doc and _home() == home
    data = pbd.json("move", match, "--as", "Ann", "play Spider-Man", "--dry-run")
    assert data["dry_run"] is True and data["log"][0]["text"].startswith("play Spider-Man")
    # the real move gives the same log line
    real = pbd.json("move", match, "--as", "Ann", "play Spider-Man")
    assert real["log"][0]["text"] == data["log"][0]["text"]


@pytest.mark.parametrize("moves, code", [("draw; play Spider-Man", 2), ("Spider-Man attacks city", 1),
                                         ("fly away", 2)])
def test_dry_run_of_a_draw_or_an_illegal_move_refuses_and_changes_nothing(pbd, match, moves, code):
    doc, home = match.read_bytes(), _home()
    r = pbd("move", match, "--as", "Ann", moves, "--dry-run")
    assert r.exit_code == code and "Traceback" not in r.output
    assert match.read_bytes() == doc and _home() == home


def test_dry_run_on_the_docs_server_writes_nothing(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("hand", spec, "--as", "Ann", ok=True)
    text, revision, home = docs_server.text(gid), docs_server.docs[gid].revision, _home()
    out = pbd("move", spec, "--as", "Ann", "play Spider-Man; end turn", "--dry-run", ok=True).output
    assert "Ann: end turn" in out and "Turn 2: Ben to move" in out
    assert docs_server.text(gid) == text and docs_server.docs[gid].revision == revision and _home() == home


def test_dry_run_reads_the_hash_chain_a_real_command_kept_instead_of_walking_it(pbd, match, monkeypatch):
    """Walking a seat's chain is 1,025 hashes; the chain store beside the private state serves a dry run, read-only."""
    from pbd import fairplay

    fairplay._chain.cache_clear()           # (a chain an earlier test walked in this process would not be kept)
    pbd("move", match, "--as", "Ann", "play Spider-Man", ok=True)       # a real command keeps Ann's chain
    kept = sorted(p.name for p in (Path(os.environ["PBD_HOME"]) / "matches").rglob("*.chain-*"))
    assert kept
    doc, home = match.read_bytes(), _home()
    fairplay._chain.cache_clear()           # (the in-process memo of the real move's chain)
    monkeypatch.setattr(fairplay, "_walk", lambda *a: pytest.fail("the chain was walked again"))
    out = pbd("move", match, "--as", "Ann", "end turn", "--dry-run", ok=True).output
    assert "Ann: end turn" in out
    assert match.read_bytes() == doc and _home() == home


def test_dry_run_without_a_kept_chain_walks_it_and_still_writes_nothing(pbd, match):
    from pbd import fairplay

    pbd("move", match, "--as", "Ann", "play Spider-Man", ok=True)
    for p in (Path(os.environ["PBD_HOME"]) / "matches").rglob("*.chain-*"):
        p.unlink()
    doc, home = match.read_bytes(), _home()
    fairplay._chain.cache_clear()
    out = pbd("move", match, "--as", "Ann", "end turn", "--dry-run", ok=True).output
    assert "Ann: end turn" in out
    assert match.read_bytes() == doc and _home() == home
