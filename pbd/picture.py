"""What every game's SVG picture shares (standard library only): text taken from the document, escaped and cut.

A match document is hostile input: a name in it may hold ``<``, ``&`` or a thousand
characters.  :func:`text` escapes what it draws (:func:`xml.sax.saxutils.escape`) and
:func:`cut` bounds it, so a picture is always well-formed and its layout never breaks.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

#: the longest name drawn from the document (names are cut, never the picture's layout)
MAX_TEXT = 40


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """Return ``text`` on one line, cut to ``limit`` characters (an ellipsis marks the cut)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def text(x: int, y: int, words: str, size: int, bold: bool = False, fill: str = "#000000") -> str:
    """Return an SVG text element; ``words`` is escaped (it may come from the document) and cut to 120 characters."""
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" font-size="{size}"{weight} fill="{fill}">{escape(cut(words, 120))}</text>'
