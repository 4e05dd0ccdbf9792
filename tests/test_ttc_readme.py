"""The README's Twin Tower City tutorial, executed as written on the real shared deck."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_the_ttc_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    block = re.search(r"```console-ttc\n(.*?)```", README, re.S).group(1)
    lines = [ln for ln in block.splitlines() if ln.startswith("$ pbd ")]
    assert len(lines) >= 10
    for line in lines:
        command, _, comment = line[2:].partition("  #")
        m = re.search(r"exit (\d)", comment)
        result = pbd(*shlex.split(command)[1:])
        assert result.exit_code == (int(m.group(1)) if m else 0), f"{command}\n{result.output}"
    assert "Rounds won: Light 0, Dark 1" in (tmp_path / "match.txt").read_text()
