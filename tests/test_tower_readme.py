"""The README's Tower section: its tutorial runs as written, its rule notes are the engine's readings."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pbd.games.tower import rules

README = (Path(__file__).parent.parent / "docs" / "tower.md").read_text(encoding="utf-8")
SECTION = README.split("## The Tower\n")[1].split("\n## ")[0]


def test_the_tower_tutorial_runs_as_written(pbd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deck = next(b for b in re.findall(r"```toml\n(.*?)```", SECTION, re.S) if "[cards]" in b)
    (tmp_path / "ropes.toml").write_text(deck)          # the README's own deck, as a player saves it
    blocks = re.findall(r"```shell-session\n(.*?)```", SECTION, re.S)
    lines = [ln[2:] for block in blocks for ln in block.splitlines() if ln.startswith("$ pbd ")]
    assert len(blocks) == 2 and len(lines) >= 14
    for line in lines:
        command, _, comment = line.partition("  #")
        m = re.search(r"exit (\d)", comment)
        result = pbd(*shlex.split(command)[1:])
        assert result.exit_code == (int(m.group(1)) if m else 0), f"{command}\n{result.output}"
    text = (tmp_path / "tower.txt").read_text()
    for row in re.findall(r"^Floor \d .*$", SECTION, re.M):
        assert row in text
    own = (tmp_path / "ropes.txt").read_text()
    assert "Cards: Ropes galore · Rope 6, Magic Carpet 2, Sword 2 (10 cards)" in own and "ropes.toml" not in own


def test_the_rules_notes_are_the_engines_readings():
    bullets = re.findall(r"^\* (.*?)(?=^\* |\Z)", rules.__doc__, re.S | re.M)
    notes = " ".join(SECTION.split("**Rules notes (The Tower)**")[1].split())
    assert len(bullets) >= 10
    for bullet in bullets:
        assert " ".join(bullet.split()) in notes, bullet
