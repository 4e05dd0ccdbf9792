"""Running a README or docs/ tutorial block (```console-GAME) as written: each ``$ pbd ...`` line, its exit code
checked.  The README keeps what a newcomer needs; each game's tutorial lives in its page under ``docs/``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).parent.parent
#: the README and every docs/ page, one text (fence names are unique across them)
README = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


def page(name: str) -> str:
    """Return the text of ``docs/NAME.md``."""
    return (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")


def run_block(pbd, fence: str, at_least: int = 10) -> None:
    """Run every ``$ pbd`` line of the README's ```FENCE block; a ``# exit N`` comment gives the code expected."""
    block = re.search(rf"```{re.escape(fence)}\n(.*?)```", README, re.S).group(1)
    lines = [ln for ln in block.splitlines() if ln.startswith("$ pbd ")]
    assert len(lines) >= at_least
    for line in lines:
        command, _, comment = line[2:].partition("  #")
        m = re.search(r"exit (\d)", comment)
        result = pbd(*shlex.split(command)[1:])
        assert result.exit_code == (int(m.group(1)) if m else 0), f"{command}\n{result.output}"
