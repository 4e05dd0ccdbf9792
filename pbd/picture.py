"""What every game's SVG picture shares (standard library only): text taken from the document, escaped and cut.

A match document is hostile input: a name in it may hold ``<``, ``&`` or a thousand
characters.  :func:`text` escapes what it draws (:func:`xml.sax.saxutils.escape`) and
:func:`cut` bounds it, so a picture is always well-formed and its layout never breaks.

:func:`png` turns the same picture into a PNG (chat apps show no SVG) through resvg, a
well-kept renderer, installed only with the optional extra: ``pip install 'pbd[png]'``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

#: the longest name drawn from the document (names are cut, never the picture's layout)
MAX_TEXT = 40


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """Return ``text`` on one line, cut to ``limit`` characters (an ellipsis marks the cut)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: how wide a character is drawn, in ems, at most, in the fonts a picture is drawn in (DejaVu Sans, the widest of
#: them, rounded up): a line measured with these never runs past its box in any of them
_NARROW, _WIDE = frozenset(" il.,:;'|!Ijt()[]f·-r/"), frozenset("mwMW@%")
#: bold text is this much wider
BOLD = 1.15


def char_width(ch: str) -> float:
    """Return how wide ``ch`` is drawn, in ems, at most (see :data:`_NARROW`)."""
    if ch in _NARROW:
        return 0.42
    if ch in _WIDE:
        return 1.0
    if ch.isascii() and (ch.isdigit() or ch.islower()):
        return 0.66
    if ch.isascii() and ch.isupper():
        return 0.8
    return 1.0         # symbols, and letters of other scripts: a full em


def width(words: str, size: float, bold: bool = False) -> float:
    """Return how wide ``words`` are drawn at ``size`` pixels, at most (an estimate that never falls short)."""
    return sum(map(char_width, words)) * size * (BOLD if bold else 1.0)


def wrap(words: str, size: float, room: float, bold: bool = False, limit: int = 400) -> list[str]:
    """Return ``words`` broken into lines that each fit ``room`` pixels at ``size`` (none cut off).

    Lines break at spaces; a word too long for a line is broken inside.  Only text past
    ``limit`` characters (a hostile document) is cut, with an ellipsis.
    """
    words = cut(words, limit)
    lines: list[str] = []
    line = ""
    for word in words.split(" "):
        trial = f"{line} {word}" if line else word
        if width(trial, size, bold) <= room:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:             # a word that fits no line is broken where the line is full
            if line and width(line + ch, size, bold) > room:
                lines.append(line)
                line = ""
            line += ch
    if line or not lines:
        lines.append(line)
    return lines


def text(x: int, y: int, words: str, size: int, bold: bool = False, fill: str = "#000000") -> str:
    """Return an SVG text element; ``words`` is escaped (it may come from the document) and cut to 120 characters."""
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" font-size="{size}"{weight} fill="{fill}">{escape(cut(words, 120))}</text>'


#: the optional extra that brings the PNG renderer, as ``pip`` spells it
PNG_EXTRA = "pbd[png]"
#: how much larger than the SVG's own size a PNG is drawn (sharp on phones and high-density screens)
PNG_ZOOM = 2
#: the PNG's background (an SVG's bare canvas would be transparent: unreadable in a dark-mode chat)
PNG_BACKGROUND = "#ffffff"


def png_renderer():
    """Return resvg's ``svg_to_bytes``, the function that draws an SVG as PNG bytes.

    Called before anything is drawn or written, so a command without the extra changes nothing.

    :raises MissingExtra: resvg-py is not installed (exit 5), naming the extra that installs it.
    """
    from pbd.errors import MissingExtra

    try:
        from resvg_py import svg_to_bytes
    except ImportError:
        raise MissingExtra("pbd show --png needs the PNG renderer (resvg-py), which is not installed here",
                           hint=f"install it with: pip install '{PNG_EXTRA}' (or pip install resvg-py); "
                                "pbd show --svg FILE draws the same picture as SVG without it") from None
    return svg_to_bytes


#: the fonts a PNG's text is drawn in, the first one installed (resvg's own "sans-serif" is Arial alone: on a
#: machine without Arial every word would be left out of the picture)
PNG_FONTS = ('"DejaVu Sans", "Liberation Sans", "Noto Sans", Arial, Helvetica, "Segoe UI", Verdana, '
             '"Nimbus Sans", FreeSans, sans-serif')
#: the style sheet that gives a picture those fonts (the pictures name their font once, on the root element)
PNG_STYLE = f"svg {{ font-family: {PNG_FONTS} }}"
#: a word drawn alone, to tell whether any of those fonts is installed
_PROBE = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
          '<text x="2" y="15" font-size="14">pbd</text></svg>')
_BLANK = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"></svg>'


def png(svg: str, render=None) -> bytes:
    """Return the SVG picture ``svg`` drawn as a PNG, twice its size, on a white background, its text in
    the first of :data:`PNG_FONTS` installed here.

    :raises MissingExtra: no renderer is installed (see :func:`png_renderer`).
    :raises BackendError: no font installed here can draw the picture's words (exit 5).
    """
    from pbd.errors import BackendError

    render = render or png_renderer()

    def draw(text: str, zoom: int = PNG_ZOOM) -> bytes:
        return bytes(render(svg_string=text, zoom=zoom, background=PNG_BACKGROUND, style_sheet=PNG_STYLE))

    if draw(_PROBE, 1) == draw(_BLANK, 1):
        raise BackendError("no font installed here draws the picture's words, so the PNG would hold no text",
                           hint=f"install one of: {PNG_FONTS.replace(chr(34), '')}; or draw an SVG with --svg FILE")
    return draw(svg)
