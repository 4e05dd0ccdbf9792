"""The pictures' words fit their boxes, none cut off; 2Xd6's picture says whose act it is (issue 27 part 4).

A picture's text is measured with :func:`pbd.picture.width`, a bound on how wide a line is
drawn in the fonts a picture uses (checked here against resvg's own drawing of the words,
where resvg-py is installed).  For every text element of a picture: it is wholly inside each
box it touches, it overlaps no other text, and it is not cut (no ellipsis).  Today's Twin
Tower City picture cut a card's line at 56 characters ("env City Hall P…") and ran its
longest lines into the Power figure; 2Xd6's picture had no title, no act and no hold count.
"""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
import zlib

import pytest

from pbd import picture
from twoxd6_helpers import duel, position, two  # noqa: F401  (fixtures)

NS = "{http://www.w3.org/2000/svg}"


def _box(el, inherited: dict) -> tuple[float, float, float, float, str]:
    """Return a text element's box ``(left, top, right, bottom, words)`` by :func:`pbd.picture.width`."""
    size = float(el.get("font-size") or inherited.get("font-size") or 16)
    bold = (el.get("font-weight") or inherited.get("font-weight")) == "bold"
    words = "".join(el.itertext())
    w = picture.width(words, size, bold)
    x, y = float(el.get("x")), float(el.get("y"))
    anchor = el.get("text-anchor") or "start"
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return left, y - 0.8 * size, left + w, y + 0.25 * size, words


def layout_problems(svg: str) -> list[str]:
    """Return every text of the picture that runs out of a box it touches, overlaps another, or was cut."""
    root = ET.fromstring(svg)
    texts = [_box(t, root.attrib) for t in root.iter(f"{NS}text")]
    rects = [(float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("x", 0)) + float(r.get("width")),
              float(r.get("y", 0)) + float(r.get("height"))) for r in root.iter(f"{NS}rect")]
    width, height = float(root.get("width")), float(root.get("height"))
    out = []
    for left, top, right, bottom, words in texts:
        if "…" in words:
            out.append(f"cut: {words!r}")
        if left < 0 or right > width or top < 0 or bottom > height:
            out.append(f"outside the picture: {words!r}")
        for x0, y0, x1, y1 in rects:
            touches = left < x1 and right > x0 and top < y1 and bottom > y0
            inside = left >= x0 and right <= x1 and top >= y0 and bottom <= y1
            if touches and not inside:
                out.append(f"runs out of the box {x0:g},{y0:g}-{x1:g},{y1:g}: {words!r} ({left:.0f}-{right:.0f})")
    for i, (l1, t1, r1, b1, w1) in enumerate(texts):
        for l2, t2, r2, b2, w2 in texts[i + 1:]:
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                out.append(f"overlap: {w1!r} and {w2!r}")
    return out


def _ttc(pbd, tmp_path):
    """A Twin Tower City match with round 1's pair face up (its Dark card's line is 59 characters long)."""
    from test_ttc_match import start

    doc = start(pbd, tmp_path)
    pbd("hand", doc, "--as", "Lia", ok=True)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    pbd("hand", doc, "--as", "Max", ok=True)
    return doc


def test_twin_tower_citys_picture_cuts_no_text_and_every_word_fits(pbd, tmp_path):
    doc = _ttc(pbd, tmp_path)
    pbd("show", doc, "--svg", tmp_path / "ttc.svg", ok=True)
    svg = (tmp_path / "ttc.svg").read_text()
    assert layout_problems(svg) == []
    # every card's words are all there, in order, however many lines they take
    root = ET.fromstring(svg)
    drawn = " ".join("".join(t.itertext()) for t in root.iter(f"{NS}text"))
    for line in pbd.json("show", doc)["rounds"][0]["cards"]:
        m = re.match(r"(Light|Dark) card \d+: (battle \d+) · dark (.+?) · light (.+?)(?: · env (.+))?$", line)
        side, ident, dark, light, env = m.groups()
        half = dark if side == "Dark" else light
        words = f"{ident} · {half}" + (f" · env {env}" if env else "")
        assert words in drawn, (words, drawn)


def test_the_layout_check_finds_todays_faults():
    """The check itself: a line cut with an ellipsis, a line running out of its box, two texts on each other."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" font-family="sans-serif">'
           '<rect x="10" y="10" width="100" height="40"/>'
           '<text x="14" y="30" font-size="11">battle 22 · Iron Regent + Iron Decree · env City Hall P…</text>'
           '<text x="150" y="80" font-size="20">41</text><text x="140" y="82" font-size="11">Plaza</text></svg>')
    found = layout_problems(svg)
    assert any(p.startswith("cut:") for p in found)
    assert any(p.startswith("runs out of the box") for p in found)
    assert any(p.startswith("overlap:") for p in found)


def test_a_long_name_wraps_instead_of_being_cut():
    lines = picture.wrap("battle 22 · Iron Regent + Iron Decree · env City Hall Plaza", 11, 200)
    assert len(lines) > 1 and " ".join(lines) == "battle 22 · Iron Regent + Iron Decree · env City Hall Plaza"
    assert all(picture.width(line, 11) <= 200 for line in lines)
    assert picture.wrap("x" * 80, 11, 100) == ["x" * 13] * 6 + ["xx"]       # a word too long for any line
    assert picture.wrap("y" * 1000, 11, 5000)[-1].endswith("…")     # only a hostile length is cut


def test_two_x_d6s_picture_has_a_title_whose_act_and_the_hold_count(pbd, duel, tmp_path):
    doc, p1, p2 = duel
    position(doc, cells={"B3": (p2, ["KP"])}, turn=1, holder=p2, held=1, points=5)
    pbd("show", doc, "--svg", tmp_path / "x.svg", ok=True)
    svg = (tmp_path / "x.svg").read_text()
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    match_id = pbd.json("show", doc)["match"]
    assert texts[:3] == [f"2Xd6 · match {match_id}", f"Round 2 · {p2}'s act · scene main · 5 acting points left",
                         f"Basic Square: held by {p2}, 1 of 2 full turns"]
    assert layout_problems(svg) == []


def test_two_x_d6s_picture_before_the_order_of_acts(pbd, tmp_path):
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = folder / "match.txt"
        pbd("new", "2xd6", doc, "--as", "Ann", "--seed", "ann", "--players", 2, ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
        return doc

    doc = copy_of_setup(("2xd6", "seated"), tmp_path, build)
    pbd("show", doc, "--svg", tmp_path / "x.svg", ok=True)
    root = ET.fromstring((tmp_path / "x.svg").read_text())
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert texts[1] == "Rolling for the order of acts"
    assert texts[2] == "Basic Square: held by nobody, 0 of 2 full turns"


def test_the_towers_floor_labels_end_before_the_tiles(pbd, tmp_path):
    """The Tower's "Floor 5 →" ran under its first tile (the arrow hidden) in today's picture."""
    from tower_helpers import start

    doc = start(pbd, tmp_path)
    pbd("show", doc, "--svg", tmp_path / "t.svg", ok=True)
    found = layout_problems((tmp_path / "t.svg").read_text())
    assert [p for p in found if "'Floor " in p] == []


# -- the width bound, against resvg's own drawing ------------------------------------------------

def _ink(png: bytes) -> tuple[int, int]:
    """Return the leftmost and rightmost column holding a non-white pixel of an 8-bit RGBA PNG."""
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert (depth, kind) == (8, 6)
    data, at = b"", 8
    while at < len(png):
        length, chunk = struct.unpack(">I4s", png[at:at + 8])
        if chunk == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride, prev, cols = zlib.decompress(data), width * 4, bytearray(width * 4), []
    for row in range(height):
        line = raw[row * (stride + 1):(row + 1) * (stride + 1)]
        f, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if f == 1:
                cur[i] = (cur[i] + a) & 255
            elif f == 2:
                cur[i] = (cur[i] + b) & 255
            elif f == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        cols += [i // 4 for i in range(0, stride, 4) if min(cur[i:i + 3]) < 200]
        prev = cur
    return min(cols), max(cols)


@pytest.mark.parametrize("words", ["battle 22 · Iron Regent + Iron Decree · env City Hall Plaza", "41 ★",
                                   "WWW MMM mmm www @@@ %%%", "Basic Square: held by nobody, 0 of 2 full turns",
                                   "Turn: round 1, card 2: Light to play (Lia)", "0123456789 ÄÖÜ éèà",
                                   "Floor 6 ← Floor 5 →"])
@pytest.mark.parametrize("bold", [False, True])
def test_the_width_bound_holds_for_the_font_resvg_draws_in(words, bold):
    resvg = pytest.importorskip("resvg_py")
    size, weight = 20, ' font-weight="bold"' if bold else ""
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="36" font-family="sans-serif">'
           f'<text x="10" y="26" font-size="{size}"{weight}>{words}</text></svg>')
    left, right = _ink(resvg.svg_to_bytes(svg_string=svg, background="#ffffff", style_sheet=picture.PNG_STYLE))
    drawn = right - left + 1
    assert drawn <= picture.width(words, size, bold), (words, drawn, picture.width(words, size, bold))
    assert drawn >= 0.5 * picture.width(words, size, bold)      # and not wildly larger than needed


def test_the_png_extra_draws_todays_pictures(pbd, tmp_path):
    """The pictures changed here still render (resvg reads them)."""
    pytest.importorskip("resvg_py")
    doc = _ttc(pbd, tmp_path)
    pbd("show", doc, "--png", tmp_path / "ttc.png", ok=True)
    assert (tmp_path / "ttc.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
