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
    """Rename Ann everywhere in the document to :data:`HOSTILE`, as anyone with the link could, and sign the
    entries that still carry a signature again with each seat's own key (as the seats' own modified pbds
    would: a rename alone is refused by ``pbd show`` for its signatures, before any picture is drawn)."""
    text = re.sub(r"(?<![\w+/-])Ann(?![\w+/=-])", lambda m: HOSTILE, doc.read_text(encoding="utf-8"))
    doc.write_text(_signed_again(text, {HOSTILE: "Ann"}), encoding="utf-8")


def _signed_again(text: str, names: dict[str, str]) -> str:
    """Return ``text`` with every signature made again over the entry as it now reads (``names``: a seat's
    name in the document -> its name in PBD_HOME)."""
    from pbd import private, signing
    from pbd.games.base import log_genesis, log_link
    from pbd.match import identify

    meta = identify(text).parse(text).meta
    previous = log_genesis(meta.match_id)
    for e in meta.log:
        if e.sig:
            seed = private.load(meta.match_id, names.get(e.player, e.player)).seed
            text = text.replace(e.sig, signing.sign(seed, meta.match_id, previous, e.sealed()))
        previous = e.hash or log_link(previous, e)
    return text
