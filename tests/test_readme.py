"""The README's tutorial (and C&C's rules notes in docs/cnc.md), executed and checked so they cannot rot."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pbd.games.cnc import rules

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def tutorial_lines() -> list[tuple[str, int]]:
    """Return each ``$ pbd ...`` line of the README's console blocks with its expected exit code."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        for line in block.splitlines():
            if not line.startswith("$ pbd "):
                continue
            command, _, comment = line[2:].partition("  #")
            m = re.search(r"exit (\d)", comment)
            out.append((command.strip(), int(m.group(1)) if m else 0))
    return out


def test_the_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = tutorial_lines()
    assert len(lines) >= 8
    for command, code in lines:
        args = shlex.split(command)[1:]
        result = pbd(*args)
        assert result.exit_code == code, f"{command}\n{result.output}"


def test_the_set_up_commands_are_the_ones_ci_runs():
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text()
    test_command = re.findall(r"```sh\n(.*?)\n```", README, re.S)[1]
    assert test_command in ci


def test_the_rules_notes_match_the_engine():
    bullets = re.findall(r"^\* (.*?)(?=^\* |\Z)", rules.__doc__, re.S | re.M)
    assert bullets
    cnc = (Path(__file__).parent.parent / "docs" / "cnc.md").read_text(encoding="utf-8")
    notes = " ".join(cnc.split("## Rules notes (C&C)")[1].split("\n## ")[0].split())
    for bullet in bullets:
        assert " ".join(bullet.split()) in notes, bullet


def test_the_readme_is_what_a_newcomer_needs_and_points_at_every_docs_page():
    root = Path(__file__).parent.parent
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings == ["Set up", "A C&C match, step by step", "Commands", "Where to read more"]
    assert len(README.splitlines()) < 200
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)\)", README))
    assert linked == {f"docs/{p.name}" for p in (root / "docs").glob("*.md")}
    for page in linked:
        for target in re.findall(r"\]\(([\w./-]+\.md)\)", (root / page).read_text(encoding="utf-8")):
            assert (root / "docs" / target).resolve().exists(), (page, target)
