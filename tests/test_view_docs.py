"""The docs show each game's document in its two parts as a player sees it; checked against what pbd writes.

Each game's page (docs/cnc.md, ttc.md, tower.md, boystown.md, 2xd6.md) has a ```document-GAME
block: the document after two seats started a match with fixed seeds and played two moves,
every long token (a hash, key, proof: 20 or more hex/base64 characters) cut to its first six
characters and ``…``, the header's ``Last entry:`` time shown as :data:`SHOWN_TIME`, each machinery section after its third line shown as ``  …`` and a machinery
line cut after 100 characters.
``python tests/test_view_docs.py GAME`` prints the block.
"""

from __future__ import annotations

import re
import sys

import pytest

sys.path.insert(0, __import__("os").path.dirname(__file__))

from readme_helpers import page  # noqa: E402

PAGES = {"cnc": "cnc", "ttc": "ttc", "tower": "tower", "boystown": "boystown", "2xd6": "2xd6"}
TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=-]{20,}(?![A-Za-z0-9_+/=-])")
SECTION_LINES = 3
#: the time the docs show on the ``Last entry:`` line (pbd writes the time of the write)
SHOWN_TIME = "29 Nov 2026 14:05 UTC"
#: a machinery line longer than this is cut (a deck's card list)
WIDTH = 100


def abbreviated(text: str) -> str:
    """Return a document as the docs show it: long tokens cut, the machinery's long sections cut."""
    text = re.sub(r"(?m)^Last entry: .*$", f"Last entry: {SHOWN_TIME}", text, count=1)
    text = TOKEN_RE.sub(lambda m: m.group(0)[:6] + "…" if any(c.isdigit() for c in m.group(0)) else m.group(0), text)
    out, machinery, count = [], False, 0
    for line in text.split("\n"):
        if line == "Machinery":
            machinery = True
        if machinery and line and not line[:1].isspace() and not line[:1].isdigit() and ":" not in line:
            count = 0                           # a machinery heading
        elif machinery and line:
            count += 1
            if count == SECTION_LINES + 1:
                out.append("  …")
            if count > SECTION_LINES:
                continue
        out.append(line if not machinery or len(line) <= WIDTH else line[:WIDTH] + "…")
    return "\n".join(out)


def document(pbd, folder, game: str) -> str:
    """Return the abbreviated document of a started match of ``game`` after two moves (fixed seeds)."""
    from test_view import one_move, start

    doc = folder / "match.txt"
    start(pbd, doc, game)
    for _ in range(2):
        one_move(pbd, doc)
    return abbreviated(doc.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", list(PAGES))
def test_each_games_page_shows_its_document_as_pbd_writes_it(pbd, tmp_path, game):
    block = re.search(rf"```document-{re.escape(game)}\n(.*?)```", page(PAGES[game]), re.S)
    assert block, f"docs/{PAGES[game]}.md has no ```document-{game} block"
    assert block.group(1) == document(pbd, tmp_path, game)


if __name__ == "__main__":                  # print the block for the docs
    import tempfile
    from pathlib import Path

    from click.testing import CliRunner

    from pbd.cli import cli

    class _Pbd:
        def __call__(self, *args, ok=None):
            result = CliRunner().invoke(cli, [str(a) for a in args])
            assert ok is None or (result.exit_code == 0) == ok, result.output
            return result

        def json(self, *args):
            import json

            return json.loads(self(*args).stdout)

    with tempfile.TemporaryDirectory() as tmp:
        import os

        os.environ["PBD_HOME"] = str(Path(tmp) / "home")
        print(document(_Pbd(), Path(tmp), sys.argv[1]), end="")
