"""Pending decisions: a rule asks a seat that is not on turn to decide before play goes on.

A Shield against a Sword, a defender's card, a trade offer: the game creates a
:class:`Decision` while applying a move, keeps it in its state and writes it on its
board as one line a player can read::

    Waiting on: Ben — play Shield or pass (duel with Ann) · from 12

``from 12`` is the log entry whose move created it.  A game opens one with
:meth:`pbd.table.game.Table.ask` (``state.ask(seat, prompt, answers)``), which fills in
the origin; the answers it lists are public and travel in the document after the origin
(``· from 12 · answers: play Shield | pass``), so a decision read back has them.

Anyone with the link can edit the document, so a decision is never obeyed because the board says so: :func:`problems`
checks each one against the entry it names (that entry exists, was written by another
seat, and the game's ``explains`` hook agrees that this move asks this question), and
the pipeline refuses (exit 3) a document whose decisions the log does not explain.

While a decision is open its seat is among the seats to move (``to_move``), ``pbd legal``
lists its ``answers`` in exact notation, and the game allows only those (and whatever it
allows while waiting) until one is given.

Everything here is pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pbd.errors import DocumentFormatError
from pbd.record import Record
from pbd.regex import pattern

#: how a decision is written on a board
LINE_RE = pattern(r"^\s*Waiting on:\s*(?P<seat>[^—]+?)\s+—\s+(?P<prompt>.+?)\s*·\s*from\s+(?P<origin>\d{1,7})"
                  r"(?:\s*·\s*answers:\s*(?P<answers>[^·]{1,400}?))?\s*$")
#: at most this many answers may be listed on a decision's line
MAX_ANSWERS = 64
#: at most this many decisions may be open at once (a document is hostile input)
MAX_OPEN = 64


class Decision(Record):
    """A question a seat must answer: who, in words, the exact answers, and the log entry that asked it."""

    seat: str
    prompt: str
    answers: list[str]
    origin: int
    #: True: the answers are public and written on the line (a decision opened with ``state.ask``)
    listed: bool

    FIELDS = ("seat", "prompt", "answers", "origin", "listed")

    def __init__(self, seat: str, prompt: str, answers: list[str] | None = None, origin: int = 0, listed: bool = False):
        self.seat = seat
        self.prompt = prompt
        self.answers = [] if answers is None else answers
        self.origin = origin
        self.listed = listed

    def line(self) -> str:
        """Return the board line of this decision (with its answers when they are listed, see ``listed``)."""
        tail = f" · answers: {' | '.join(self.answers)}" if self.listed and self.answers else ""
        return f"Waiting on: {self.seat} — {self.prompt} · from {self.origin}{tail}"


def parse_line(text: str, number: int | None = None) -> Decision:
    """Return the decision a ``Waiting on:`` line shows (its listed answers, if any; else the game fills them in).

    :raises DocumentFormatError: the line is not ``Waiting on: SEAT — PROMPT · from N``.
    """
    m = LINE_RE.match(text)
    if not m:
        raise DocumentFormatError("expected 'Waiting on: NAME — what they decide · from N' (N: the log entry "
                                  "that asked)", line=number)
    listed = [a.strip() for a in (m.group("answers") or "").split("|") if a.strip()]
    if len(listed) > MAX_ANSWERS:
        raise DocumentFormatError(f"a decision lists {len(listed)} answers; at most {MAX_ANSWERS}", line=number)
    return Decision(m.group("seat").strip(), m.group("prompt").strip(), listed, int(m.group("origin")),
                    listed=bool(listed))


def parse_lines(lines: Iterable[tuple[int, str]]) -> list[Decision]:
    """Return the decisions of every ``Waiting on:`` line among ``(number, text)`` lines.

    :raises DocumentFormatError: a malformed line, or more than :data:`MAX_OPEN` of them.
    """
    out = [parse_line(text, number) for number, text in lines if text.strip().lower().startswith("waiting on:")]
    if len(out) > MAX_OPEN:
        raise DocumentFormatError(f"{len(out)} open decisions; a match has at most {MAX_OPEN}")
    return out


def seats_to_answer(decisions: Iterable[Decision]) -> list[str]:
    """Return the seats that owe an answer, each once, in the order their decisions were opened."""
    out: list[str] = []
    for d in decisions:
        if d.seat not in out:
            out.append(d.seat)
    return out


def for_seat(decisions: Iterable[Decision], seat: str) -> list[Decision]:
    """Return the open decisions ``seat`` must answer (names compared case-insensitively)."""
    return [d for d in decisions if d.seat.casefold() == seat.casefold()]


def problems(decisions: Iterable[Decision], log: list, seats: list[str],
             explains: Callable[[object, Decision], bool]) -> list[str]:
    """Return why any open decision is not explained by the log entry it names (empty: all are).

    ``log`` is the match's list of :class:`~pbd.games.base.LogEntry`; ``explains(entry,
    decision)`` is the game's word on whether that entry's move asks that question.
    """
    out = []
    folded = {s.casefold() for s in seats}
    for d in decisions:
        if d.seat.casefold() not in folded:
            out.append(f"'Waiting on: {d.seat}' names no seat of this match")
        elif not 1 <= d.origin <= len(log):
            out.append(f"{d.seat}'s pending decision names log entry {d.origin}, which does not exist")
        elif log[d.origin - 1].player.casefold() == d.seat.casefold():
            out.append(f"{d.seat}'s pending decision comes from {d.seat}'s own move (entry {d.origin}); "
                       f"only another seat's move can ask {d.seat} to decide")
        elif not explains(log[d.origin - 1], d):
            out.append(f"log entry {d.origin} ({log[d.origin - 1].text}) does not ask {d.seat} to "
                       f"{d.prompt}: the 'Waiting on' line was typed by hand")
    return out
