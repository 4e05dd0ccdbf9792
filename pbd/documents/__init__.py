"""The document interface: read text with a revision, write guarded by that revision.

A backend is chosen from the DOC argument by :func:`open_document`:

* ``gdoc:ID``, ``gdoc:new`` or a ``https://docs.google.com/document/d/ID/...`` URL
  -> Google Docs (imported lazily, so local commands never load the Google client);
* anything else -> a local text file.

Every backend guarantees: ``write`` either replaces the whole document text with
the new text or changes nothing, and raises :class:`~pbd.errors.StaleRevision`
when the document moved since the snapshot it was given.
"""

from __future__ import annotations

import re
from typing import Protocol

from pbd.errors import UsageError
from pbd.documents.snapshot import Snapshot
from pbd.regex import pattern

GDOC_URL = pattern(r"^https?://docs\.google\.com/document/(?:u/\d+/)?d/([A-Za-z0-9_-]+)")


class Document(Protocol):
    """What the match pipeline needs from a document store."""

    #: How to name the document to a user (path or URL).
    label: str
    #: True if :meth:`write` applies ``styles`` (a plain text file has none: the game need not compute them).
    styled: bool

    def exists(self) -> bool:
        """Return True if the document exists (``new`` refuses to overwrite one with content)."""

    def read(self) -> Snapshot:
        """Return the current text and revision.

        :raises BackendError: the store cannot be reached or read.
        """

    def write(self, text: str, base: Snapshot | None, styles=None) -> Snapshot:
        """Replace the text, only if the document is still at ``base.revision``.

        ``base=None`` creates the document (``gdoc:new``) or fills an empty one.
        ``styles`` are ``Game.styles(text)`` spans; rich backends apply them to new text.

        :raises StaleRevision: someone changed the document since ``base``.
        :raises BackendError: the store failed; nothing was written.
        """


def open_document(spec: str, *, create: bool = False, **options) -> Document:
    """Return the backend for DOC ``spec`` (path, Docs URL, ``gdoc:ID`` or ``gdoc:new``).

    A Docs URL's ``?tab=t.xxx`` selects that tab of the document.

    :raises UsageError: ``gdoc:new`` outside ``new``, an empty spec, or Google-only options
        (``title``, ``share``, ``anyone``, ``tab``) for a local file.
    """
    if not spec:
        raise UsageError("no document given")
    gid = _google_id(spec)
    if gid is not None:
        if gid == "new" and not create:
            raise UsageError("gdoc:new only makes sense with 'pbd new'")
        from pbd.documents.gdocs import GoogleDocument  # lazy: keeps local commands light

        tab = _google_tab(spec)
        if tab and not options.get("tab"):
            options = {**options, "tab": tab}
        return GoogleDocument(gid, **options)
    if any(options.values()):
        names = {"anyone": "share-anyone-with-link"}
        raise UsageError(f"{' and '.join('--' + names.get(k, k.replace('_', '-')) for k, v in options.items() if v)}"
                         ": Google Docs only (DOC must be gdoc:new, gdoc:ID or a Docs URL)")
    from pbd.documents.local import LocalDocument

    return LocalDocument(spec)


def _google_tab(spec: str) -> str | None:
    """Return the tab id a pasted Docs URL names (``...?tab=t.abc123``), if any."""
    m = re.search(r"[?&#]tab=(t\.[A-Za-z0-9_-]+)", spec) if GDOC_URL.match(spec) else None
    return m.group(1) if m else None


def _google_id(spec: str) -> str | None:
    if spec.startswith("gdoc:"):
        ident = spec[5:]
        if not ident or not re.fullmatch(r"[A-Za-z0-9_-]+", ident):
            raise UsageError(f"{spec!r} is not a Google Docs id (expected gdoc:ID or gdoc:new)")
        return ident
    m = GDOC_URL.match(spec) if spec.startswith(("http://", "https://")) else None   # a file: no regex compiled
    return m.group(1) if m else None
