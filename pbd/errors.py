"""One exception tree for pbd, split by cause; each cause carries its exit code.

The CLI translates these into messages and exit codes in one place
(:func:`pbd.cli.main`).  Library code raises them and never prints.

Exit codes: 0 ok, 1 rule broken / check found problems, 2 usage and notation,
3 document (or deck list) format, 4 conflict, 5 backend or auth, 6 ``watch --timeout``
passed with nothing waiting on the player, 70 a bug (in pbd or in a game: :class:`GameBug`).
"""

from __future__ import annotations


class PbdError(Exception):
    """Base of every error pbd reports to a user."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  {self.hint}"


# -- 1: the rules said no -----------------------------------------------------

class IllegalMoveError(PbdError):
    """A well-formed move that the rules forbid now ("needs 2 AP, you have 1")."""

    exit_code = 1


class RollWaits(IllegalMoveError):
    """A die rolled after a choice waits on a chain value another seat publishes after that choice."""

    def __init__(self, player: str, seats: list[str]):
        who = " or ".join(seats)
        super().__init__(f"{player}'s roll comes after a choice, so it waits on a random value that {who} "
                         "publishes after it (nobody can foresee the die)",
                         hint=f"{who}'s pbd publishes it with its next command (pbd watch at once); then roll")
        self.seats = seats


class DeckMoveError(IllegalMoveError, ValueError):
    """A shared-deck operation the deck cannot do now (a pile still being shuffled or too small,
    a slot the seat does not hold); also a ``ValueError`` for code written before it was typed."""


class ProblemsFound(PbdError):
    """``check`` or ``deck check`` found problems; ``problems`` lists every one."""

    exit_code = 1

    def __init__(self, message: str, problems: list[str], *, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.problems = problems

    def __str__(self) -> str:
        hint = [f"  {self.hint}"] if self.hint else []
        return "\n".join([self.message, *(f"  - {p}" for p in self.problems), *hint])


class DeckError(ProblemsFound):
    """A deck list that breaks the construction rules (every problem listed)."""


# -- 2: the user said something we cannot read ----------------------------------

class UsageError(PbdError):
    """Bad arguments or options."""

    exit_code = 2


class DeckSetupError(UsageError, ValueError):
    """A shared deck asked for what it cannot be: too many cards or seats, a pile name it cannot
    write, a seat that joins too late (exit 2); also a ``ValueError``."""


class NotationError(UsageError):
    """A move written in a way pbd cannot read."""


class UnknownNameError(NotationError):
    """A card or player name that matches nothing; suggests close names."""

    def __init__(self, kind: str, name: str, suggestions: list[str] | tuple = ()):
        hint = f"did you mean {_or_list(suggestions)}?" if suggestions else None
        super().__init__(f"unknown {kind} {name!r}", hint=hint)
        self.name = name
        self.suggestions = list(suggestions)


class AmbiguousNameError(NotationError):
    """A name that matches several things; lists them."""

    def __init__(self, kind: str, name: str, candidates: list[str]):
        super().__init__(f"{kind} {name!r} is ambiguous", hint=f"did you mean {_or_list(candidates)}?")
        self.candidates = list(candidates)


# -- 3: a file we read is not in the shape we expect -----------------------------

class FormatError(PbdError):
    """A document or deck list that cannot be parsed; names the line and what was expected."""

    exit_code = 3

    def __init__(self, message: str, *, line: int | None = None, source: str | None = None,
                 hint: str | None = None):
        where = ""
        if source and line:
            where = f"{source}, line {line}: "
        elif line:
            where = f"line {line}: "
        elif source:
            where = f"{source}: "
        super().__init__(where + message, hint=hint)
        self.line = line
        self.source = source


class DocumentFormatError(FormatError):
    """The match document is mangled or not a pbd board."""


class CardOutOfSight(DocumentFormatError):
    """Replaying without the players' seeds, the log opens a card the document no longer shows.

    Honest play leads there too (a card turned up, then shuffled back out of the document): a replay
    that meets it can go no further, and says so, but it is no fault of the board."""


class DeckFormatError(FormatError):
    """A deck list or card catalogue file that cannot be read."""


# -- 4: someone else changed the document -----------------------------------------

class ConflictError(PbdError):
    """The document changed since we read it (or the move is no longer legal on the new board)."""

    exit_code = 4


class StaleRevision(ConflictError):
    """A guarded write was refused because the revision moved; the pipeline may retry.

    ``sent``: the write went out before it was refused (an earlier copy of it may have
    landed, its answer lost), so the pipeline looks for its own log entry first.
    """

    sent = False


# -- 5: the outside world failed ---------------------------------------------------

class BackendError(PbdError):
    """The document store (file system, Google) failed."""

    exit_code = 5


class WriteUncertain(BackendError):
    """A write whose answer was lost: it may or may not have landed.

    The pipeline re-reads the document and looks for the log entry it meant to write
    before it retries or reports anything (a move lands exactly once).
    """


class AuthError(BackendError):
    """Missing, malformed, expired or revoked credentials."""


class MissingExtra(BackendError):
    """A feature whose optional extra is not installed here (``pbd show --png`` without ``pbd[png]``)."""


# -- 6: waited long enough ----------------------------------------------------------

class WatchTimeout(PbdError):
    """``pbd watch --timeout S`` passed before it was the player's turn or anything waited on them."""

    exit_code = 6


# -- 70: a bug ------------------------------------------------------------------------------

class GameBug(PbdError):
    """A game's own code crashed (replaying its log: ``pbd audit``, ``replay``, the hand-edit check):
    a bug in that game, named with it, never taken for a problem of the document (exit 70)."""

    exit_code = 70

    def __init__(self, game: str, where: str, exc: BaseException):
        super().__init__(f"a bug in the game {game}: {where} crashed ({type(exc).__name__}: {exc})",
                         hint="nothing was written; report it to the game's authors with the document "
                              "(PBD_DEBUG=1 shows the details)")
        self.game, self.cause = game, exc


def _or_list(items) -> str:
    items = [repr(i) if not str(i).startswith("'") else str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
