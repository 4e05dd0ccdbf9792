"""Test set-up: a position written into a document by hand, then agreed by every seat.

Rule tests build the position they need by editing the board (cards on tiles, stacks in
cells, cards in hand).  pbd names such an edit on every command, since the log does not
explain it (:mod:`pbd.handedits`); real players would have to put it back.  A test that
means the edit as its starting position records it, in every seat's private state, as the
last checked position — what each seat's pbd would hold had the log led there.
"""

from pathlib import Path

from pbd import handedits, match, private
from pbd.documents import open_document


def agree(doc: Path) -> None:
    """Make the board now in ``doc`` every seat's checked position (test set-up only)."""
    snap, game, state = match.load(open_document(str(doc)))
    meta = state.meta
    for name in game.player_names(state):
        if private.exists(meta.match_id, name):
            sec = private.load(meta.match_id, name)
            sec.extra[handedits.KEY] = handedits.record(snap.text, meta.log)
            private.save(sec)
