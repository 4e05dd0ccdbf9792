"""Reading a picture ``pbd show DOC --svg FILE`` wrote, for the picture tests of every game."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
#: what a hand edit of the document may put where a player's name goes (pbd itself refuses such names)
HOSTILE = "<script>&Ann"


def texts(root) -> list[str]:
    """Return the words of every text element under ``root``, in order."""
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def picture(pbd, doc, path):
    """Run ``pbd show DOC --svg PATH``; check the document is unchanged; return the parsed picture."""
    before = doc.read_bytes()
    assert f"picture written to {path}" in pbd("show", doc, "--svg", path, ok=True).output
    assert doc.read_bytes() == before
    return ET.fromstring(path.read_text(encoding="utf-8"))


def hostile(doc) -> None:
    """Rename Ann everywhere in the document to :data:`HOSTILE`, as anyone with the link could."""
    text = re.sub(r"(?<![\w+/])Ann(?![\w+/=])", lambda m: HOSTILE, doc.read_text(encoding="utf-8"))
    doc.write_text(text, encoding="utf-8")
