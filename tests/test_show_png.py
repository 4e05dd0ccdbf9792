"""``pbd show --png FILE``: the board's picture as a PNG, for chat apps that show no SVG (issue 27 part 4).

The PNG is the SVG pbd draws (``pbd show --svg``) rendered by resvg, installed with the
optional extra ``pbd[png]``.  The tests that render are skipped only where resvg-py is not
installed; CI installs the extra (``.ci/run`` runs the README's test command).  Without it,
``--png`` says which extra to install, exit 5, nothing written and no traceback.
"""

from __future__ import annotations

import re
import struct
import sys
import tomllib
import zlib
from pathlib import Path

import pytest

from pbd import picture

ROOT = Path(__file__).resolve().parent.parent
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _size(data: bytes) -> tuple[int, int]:
    """Return a PNG's width and height, read from its IHDR chunk (which must come first)."""
    assert data[:8] == SIGNATURE, data[:8]
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    assert zlib.crc32(data[12:29]) == struct.unpack(">I", data[29:33])[0]
    return struct.unpack(">II", data[16:24])


def _svg_size(svg: str) -> tuple[int, int]:
    m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    return int(m.group(1)), int(m.group(2))


@pytest.fixture
def renderer():
    return pytest.importorskip("resvg_py")


def test_a_png_of_the_board_is_written_twice_the_svgs_size(pbd, match, tmp_path, renderer):
    before = match.read_bytes()
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    result = pbd("show", match, "--png", png, "--svg", svg, ok=True)
    assert f"(picture written to {png})" in result.stdout and f"(picture written to {svg})" in result.stdout
    width, height = _svg_size(svg.read_text())
    assert _size(png.read_bytes()) == (width * picture.PNG_ZOOM, height * picture.PNG_ZOOM)
    assert match.read_bytes() == before


def test_every_game_that_draws_an_svg_draws_a_png(pbd, tmp_path, renderer):
    from tower_helpers import start

    doc = start(pbd, tmp_path)
    png, svg = tmp_path / "tower.png", tmp_path / "tower.svg"
    pbd("show", doc, "--png", png, ok=True)
    pbd("show", doc, "--svg", svg, ok=True)
    width, height = _svg_size(svg.read_text())
    assert _size(png.read_bytes()) == (width * 2, height * 2)


def test_the_pngs_words_are_drawn(pbd, match, tmp_path, renderer):
    """resvg's own "sans-serif" is Arial alone; where Arial is missing every word would vanish. The style sheet
    names fonts a machine has: the picture with its words differs from the picture without them."""
    pbd("show", match, "--svg", tmp_path / "b.svg", ok=True)
    svg = (tmp_path / "b.svg").read_text()
    bare = re.sub(r"<text\b[^>]*>.*?</text>", "", svg)
    assert bare != svg
    assert picture.png(svg) != picture.png(bare)


def test_no_font_for_the_words_is_named_not_a_blank_picture(pbd, match, tmp_path, renderer, monkeypatch):
    monkeypatch.setattr(picture, "PNG_STYLE", 'svg { font-family: "No Such Font Anywhere" }')
    png = tmp_path / "b.png"
    result = pbd("show", match, "--png", png)
    assert result.exit_code == 5, result.output
    assert "no font installed here draws the picture's words" in result.stderr and "DejaVu Sans" in result.stderr
    assert "Traceback" not in result.output and not png.exists()


def test_without_the_extra_png_names_it_and_writes_nothing(pbd, match, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "resvg_py", None)        # as if resvg-py were not installed
    before = match.read_bytes()
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    result = pbd("show", match, "--png", png, "--svg", svg)
    assert result.exit_code == 5, result.output
    assert result.stdout == ""
    assert "pbd show --png needs the PNG renderer (resvg-py), which is not installed here" in result.stderr
    assert "pip install 'pbd[png]'" in result.stderr
    assert "Traceback" not in result.output
    assert not png.exists() and not svg.exists() and match.read_bytes() == before
    pbd("show", match, "--svg", svg, ok=True)            # the SVG needs no extra


def test_the_png_extra_installs_resvg_and_ci_installs_it():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(dep.startswith("resvg-py") for dep in extras["png"])
    command = "pip install -e '.[test,png]' && python -m pytest -q"
    assert command in (ROOT / ".ci" / "run").read_text()
    assert command in (ROOT / "README.md").read_text()
