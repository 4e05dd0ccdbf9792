"""docs/boystown.md: the Boys' Town tutorial, executed as written, and its rule notes checked against the engine."""

from __future__ import annotations

import re
import shlex
from pathlib import Path


from pbd.games.boystown import rules

README = (Path(__file__).parent.parent / "docs" / "boystown.md").read_text(encoding="utf-8")
SECTION = README.split("## Boys' Town")[1].split("\n## ")[0]


def test_the_boystown_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = []
    for block in re.findall(r"```shell-session\n(.*?)```", SECTION, re.S):
        for line in block.splitlines():
            if line.startswith("$ pbd "):
                command, _, comment = line[2:].partition("  #")
                m = re.search(r"exit (\d)", comment)
                lines.append((command.strip(), int(m.group(1)) if m else 0))
    assert len(lines) >= 10
    for command, code in lines:
        result = pbd(*shlex.split(command)[1:])
        assert result.exit_code == code, f"{command}\n{result.output}"


def test_every_rule_reading_in_the_docstring_is_in_the_readme():
    bullets = re.findall(r"^\* (.*?)(?=^\* |\Z)", rules.__doc__, re.S | re.M)
    assert len(bullets) >= 15
    notes = " ".join(SECTION.split("### Rule notes (Boys' Town)")[1].split())
    for bullet in bullets:
        assert " ".join(bullet.split()) in notes, bullet
