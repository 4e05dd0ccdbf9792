"""Issue 25 item 6: a command that writes nothing keeps what it verified, so the next one starts there.

A seat that owes nothing used to re-verify every proof since its last *write* on every read
(every `pbd legal` of a 6-seat 2Xd6 match re-checked the same passes until the seat moved).
"""

from __future__ import annotations

import pytest

from pbd.table import shuffle


@pytest.fixture
def checks(monkeypatch):
    """Count the shuffle proofs checked by the commands run in this process."""
    calls = []
    real = shuffle.verify
    monkeypatch.setattr(shuffle, "verify", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_a_read_only_command_checks_each_shuffle_proof_once(pbd, tmp_path, checks):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)       # Cy has not joined: Ann owes nothing
    before = doc.read_bytes()
    checks.clear()
    pbd("hand", doc, "--as", "Ann", ok=True)
    assert len(checks) == 1                             # Ben's pass, new to Ann: checked
    for command in ("hand", "legal", "status"):
        checks.clear()
        pbd(command, doc, "--as", "Ann", ok=True)
        assert checks == [], command                    # nothing new since: nothing checked again
    assert doc.read_bytes() == before


def test_dry_run_keeps_pbd_home_as_it_was(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 2, "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    home = tmp_path / "pbd-home"
    moves = pbd.json("legal", doc, "--as", "Ann")["moves"]
    snapshot = {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and "cache" not in p.parts}
    assert pbd("move", doc, "--as", "Ann", moves[0], "--dry-run").exit_code == 0
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and "cache" not in p.parts} == snapshot
