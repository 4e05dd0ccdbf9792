"""What a document store hands back: a document's text and the revision it was read at.

Its own module, so the backends (:mod:`.local`, :mod:`.gdocs`) import it without importing
the package that opens them: the imports run one way.
"""

from __future__ import annotations

from pbd.record import FrozenRecord


class Snapshot(FrozenRecord):
    """The text of a document and the revision it was read at."""

    FIELDS = ("text", "revision")

    def __init__(self, text: str, revision: str):
        self._set(text=text, revision=revision)
