"""A command's fair-play checks load none of the audit (its replay and classes cost every move about 0.9M
instructions): the document's own checks live in pbd.fairplay_checks, and pbd.audit imports them from there."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_move_loads_no_audit(tmp_path):
    doc, env = tmp_path / "m.txt", {**os.environ, "PBD_HOME": str(tmp_path / "home")}
    subprocess.run([sys.executable, "-m", "pbd", "new", "cnc", str(doc), "--as", "Ann", "--deck", "forces-of-justice",
                    "--seed", "a"], env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "pbd", "join", str(doc), "--as", "Ben", "--deck", "forces-of-corruption",
                    "--seed", "b"], env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "pbd", "move", str(doc), "--as", "Ann", "draw"], env=env, check=True,
                   capture_output=True)     # (replays Ben's join, which the audit's replay does: checked from here on)
    probe = ("import sys\nfrom pbd.cli import main\nsys.argv = ['pbd'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "print('LOADED', 'pbd.fairplay_checks' in sys.modules, 'pbd.audit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe, "move", str(doc), "--as", "Ann", "end"], env=env,
                         capture_output=True, text=True)
    assert "LOADED True False" in out.stdout, (out.stdout, out.stderr[-500:])


def test_the_audit_still_offers_the_documents_own_checks():
    from pbd import audit, fairplay_checks

    for name in ("OLD_LOG", "log_problems", "sections", "reveal_problems", "commit_problems", "chain_problems",
                 "mac_problems"):
        assert getattr(audit, name) is getattr(fairplay_checks, name)
