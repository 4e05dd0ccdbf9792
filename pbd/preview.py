"""``pbd move --dry-run``: the board and log lines a move would give, with nothing written or revealed.

The match is read and checked exactly as for a real move, the player's private state is
read (never settled, locked or saved), and the move is applied to that copy in memory.
The seat's hash chain is read from where real commands keep it (:class:`pbd.private.ChainStore`)
rather than walked again; nothing is written there either.
A move that would draw a card or roll a die is not previewed: its outcome comes from the
player's seed, so showing it would tell the player their coming draws.  The document and
everything under PBD_HOME stay byte-for-byte as they were.
"""

from __future__ import annotations

import os

from pbd import fairplay_checks, private
from pbd.documents import open_document
from pbd.errors import UsageError
from pbd.games.base import Chance, split_frame
from pbd.result import Result


class NoChance(Chance):
    """A :class:`Chance` that refuses every draw and roll (a preview must not reveal or use any)."""

    def _refuse(self, what: str):
        raise UsageError(f"--dry-run does not preview a move that {what}: the result would come from your seed "
                         "and show you what is coming", hint="preview the moves before it, or make the move")

    def draw(self, player: str, n: int = 1) -> list[str]:
        """Refuse: a preview draws nothing.

        :raises UsageError: always.
        """
        self._refuse("draws a card")

    def roll(self, player, sides=6, faces=None, purpose=""):
        """Refuse: a preview rolls nothing.

        :raises UsageError: always.
        """
        self._refuse("rolls a die")

    def free_roll(self, player, sides=6, faces=None):
        """Refuse: a preview rolls nothing.

        :raises UsageError: always.
        """
        self._refuse("rolls a die")


def preview(doc_spec: str, player: str, notation: str) -> Result:
    """Return the board and the log lines ``notation`` would give, writing nothing anywhere.

    :raises UsageError: no move, a move that draws or rolls, or a half-finished earlier
        command still to settle (any ordinary pbd command settles it).
    :raises NotationError: a move cannot be read.
    :raises IllegalMoveError: a move breaks a rule.
    :raises DocumentFormatError: the document fails the checks a real move makes.
    """
    from pbd import cache

    if not notation.strip():
        raise UsageError("no move given", hint='for example: pbd move DOC --as Ann "play Spider-Man" --dry-run')
    with cache.writing_nothing():           # not even a parsed catalogue or board
        return _preview(doc_spec, player, notation)


def _preview(doc_spec: str, player: str, notation: str) -> Result:
    """Return :func:`preview`'s result (caches are read, never written, meanwhile)."""
    from pbd import match

    turn = match._read(open_document(doc_spec))
    game, state = turn.game, turn.state
    turn.name = name = match._seat(game, state, player)
    meta = state.meta
    if os.path.exists(private._pending_file(meta.match_id, name)):
        raise UsageError("an earlier pbd command of yours was interrupted and is not settled yet",
                         hint="run pbd hand DOC (it settles it), then preview again")
    sec = private.load(meta.match_id, name)
    match._check_obligations(turn)
    with match._keeping_chains(meta.match_id) as chains:
        if private.kept_here(sec):      # the seat's hash chain as the last command kept it (read, never written)
            chains.hold(sec.seed, sec.player)
        fairplay_checks.verify(game, state, sec)
        game.attach(state, sec)
        turn.sec, turn.attached = sec, True
        for check in match.CHECKS:
            check(turn)
        match._stopped(state)
        lines = game.play(state, name, notation, NoChance(meta, {name: sec}))
    game.detach(state, sec)
    entries = meta.log[turn.logged:]
    frame = split_frame(game.render(state))
    board = [ln.text for ln in frame.header + frame.body]
    out = ["Dry run: nothing was written, drawn, rolled or revealed. This move would give:", *lines,
           "Log lines it would add:", *(f"  {e.number}. {e.player}: {e.text}" for e in entries),
           *(f"Then: {s}" for s in game.status(state)), "The board after it:", *(f"  {b}" for b in board)]
    return Result(out, {"dry_run": True, "player": name, "lines": lines,
                        "log": [{"n": e.number, "player": e.player, "text": e.text} for e in entries],
                        "board": board, "status": game.status(state), "to_move": game.actors(state),
                        "result": game.outcome(state)})
