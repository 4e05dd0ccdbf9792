"""The README's Twin Tower City tutorial, executed as written on the real shared deck."""

from __future__ import annotations

from readme_helpers import run_block


def test_the_ttc_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_block(pbd, "console-ttc")
    assert "Rounds won: Light 0, Dark 1" in (tmp_path / "match.txt").read_text()
