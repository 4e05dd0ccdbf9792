"""A player's private state kept in their own Google Doc (``--hand-doc``) instead of PBD_HOME.

The rulebook suggests each player keeps their hand "in another doc".  With
``--hand-doc gdoc:ID`` (or ``gdoc:new``) pbd does that: the document shows the hand
for the player to read, and carries pbd's private state (seed, deck order, drawn
positions) as one JSON line under a marker.  PBD_HOME then only holds a pointer to
the document.  The document is never shared by pbd.
"""

from __future__ import annotations

import json

from pbd.errors import BackendError, UsageError

MARKER = "pbd private state (do not edit or share)"


def render(data: dict) -> str:
    """Return the hand document's text for a player's private state ``data``."""
    hand = list(data.get("hand", []))
    lines = [f"pbd private hand · match {data['match_id']} · {data['player']}",
             "Keep this document to yourself: it holds your hand and your secret seed.",
             "", f"Hand ({len(hand)})", *(hand or ["(empty)"]),
             "", MARKER, json.dumps(data, ensure_ascii=False, separators=(",", ":"))]
    return "\n".join(lines) + "\n"


def parse(text: str, label: str) -> dict:
    """Return the private state stored in a hand document's text.

    :raises BackendError: the marker or the JSON line is missing or damaged.
    """
    lines = text.split("\n")
    try:
        at = lines.index(MARKER)
        data = json.loads(lines[at + 1])
    except (ValueError, IndexError):
        raise BackendError(f"the hand document {label} is damaged (no readable private state under "
                           f"'{MARKER}')") from None
    if not isinstance(data, dict):
        raise BackendError(f"the hand document {label} is damaged")
    return data


def prepare(spec: str, title: str):
    """Return the hand document for ``spec`` (``gdoc:ID``, a Docs URL, or ``gdoc:new`` -> created now).

    :raises UsageError: ``spec`` is not a Google Doc.
    :raises BackendError: it cannot be created or read.
    """
    from pbd.documents import GDOC_URL, open_document

    if not (spec.startswith("gdoc:") or GDOC_URL.match(spec)):
        raise UsageError("--hand-doc takes a Google Doc: gdoc:new, gdoc:ID or a Docs URL")
    doc = open_document(spec, create=True, title=title)
    if getattr(doc, "gid", None) is None:  # gdoc:new: create it empty now, fill it on save
        doc.create_empty()
        return doc
    text = doc.read().text
    if text.strip() and MARKER not in text:
        raise UsageError(f"{doc.label} already has something in it; --hand-doc needs gdoc:new, an empty "
                         "document or a pbd hand document")
    return doc


def discard(doc) -> None:
    """Delete a hand document created by :func:`prepare` (best effort, after a failed command)."""
    remove = getattr(doc, "discard", None)
    if remove:
        remove()


def load(spec: str) -> dict:
    """Return the private state kept in the hand document ``spec``.

    :raises BackendError: the document cannot be read or is damaged.
    """
    from pbd.documents import open_document

    doc = open_document(spec)
    return parse(doc.read().text, doc.label)


def save(spec: str, data: dict) -> None:
    """Write ``data`` into the hand document ``spec`` (a minimal edit; nobody else writes it).

    One guarded write, no loop of its own: the pipeline keeps the private state pending
    when it fails, and the next command saves it.  A document that already holds ``data``
    (a write whose answer was lost, made again) is left alone.

    :raises BackendError: the document cannot be written, changed meanwhile, or Google did
        not confirm the write; the message says that it is the hand document that was not
        updated (the match document may already show the move).
    """
    from pbd.documents import open_document
    from pbd.errors import StaleRevision, WriteUncertain

    doc = open_document(spec)
    wanted = render(data)
    try:
        snap = doc.read()
        if snap.text != wanted:
            doc.write(wanted, snap, styles=None)
    except (StaleRevision, WriteUncertain) as exc:
        raise BackendError(f"your hand document {doc.label} was not updated yet ({exc.message}); "
                           "your private state is kept pending and your next pbd command saves it") from None
    except BackendError as exc:
        raise type(exc)(f"your hand document {doc.label} was not updated: {exc.message}", hint=exc.hint) from None
