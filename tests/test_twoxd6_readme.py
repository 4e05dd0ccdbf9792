"""The README's 2Xd6 tutorial, executed on the real shared deck."""

from __future__ import annotations

from readme_helpers import run_block


def test_the_2xd6_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_block(pbd, "console-2xd6")
