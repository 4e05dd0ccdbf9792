"""The one pipeline: read the document, parse, attach, apply the rules, render, write once.

Each public function here backs one CLI command of the same name.  Every command that
changes a match goes through :func:`_run` (read -> parse -> attach the player's private
state -> :data:`CHECKS` -> the command's step -> detach -> render -> guarded write), so
each guarantee holds for all of them:

* failures before the write leave the document byte-for-byte unchanged;
* a write refused as stale is rebuilt on the new board and retried;
* a move lands exactly once: the new private state is staged (keyed by the new log
  entry's hash) before the document is written and committed after; a lost answer
  (:class:`~pbd.errors.WriteUncertain`) makes pbd look for its own entry before it
  retries or reports; the next command settles what an interrupted one left staged;
* one command per player at a time (a lock in PBD_HOME), and compare-and-swap writes
  on the document, so two commands at once never lose or duplicate a move.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Callable


from pbd import fairplay, games, paths, private
from pbd.documents import Document, Snapshot, open_document
from pbd.errors import (BackendError, ConflictError, DocumentFormatError, IllegalMoveError, NotationError, PbdError,
                        ProblemsFound, StaleRevision, UsageError, WriteUncertain)
from pbd.games.base import Chance, Secrets, machinery_styles, title_of, view_of
from pbd.record import Record
from pbd.regex import pattern
from pbd.result import Result

__all__ = ["Result", "transact", "CHECKS"]

#: How many times a write refused as stale is rebuilt on the new board and retried.
RETRIES = 5

#: The longest player name (it appears in every log line and in file names).
MAX_NAME = 24
#: Characters that mean something in the board, the Fair play section or the log.
_SYNTAX = set(':·,@#()[]{}=|;"\\/<>*.\u2192')
_RESERVED_WORDS = {"vs", "player", "pending"}


def check_name(name: str) -> str:
    """Return ``name`` if it can be a player name, else say why not.

    A name shows up in the board, the Fair play section and every log line, so it is at
    most :data:`MAX_NAME` characters, words separated by single spaces, starting with
    neither a digit nor a dash, with none of the characters the document's syntax uses
    (``: · , @ # ( ) [ ] = | ; . / \\``) and not a word the board uses (``vs``).

    :raises UsageError: the name cannot be used.
    """
    shown = name if len(name) <= MAX_NAME + 8 else name[:MAX_NAME] + "…"
    if len(name) > MAX_NAME:
        raise UsageError(f"the name {shown!r} is longer than {MAX_NAME} characters")
    import unicodedata

    odd = sorted({c for c in name if c in _SYNTAX or (c.isspace() and c != " ") or unicodedata.category(c)[0] == "C"})
    if odd:
        raise UsageError(f"{shown!r} cannot be a player name: it uses {' '.join(map(repr, odd))}",
                         hint="the document's syntax uses : · , @ # ( ) [ ] = | ; . and slashes")
    if not name.strip() or name != name.strip() or "  " in name or name[0].isdigit() or name[0] in "-'_":
        raise UsageError(f"{shown!r} cannot be a player name",
                         hint="start with a letter; separate words by single spaces")
    from pbd.games.base import typed

    if typed(name) != name:     # a document reads ’ as ', so O’Neil would not be the O’Neil who wrote
        raise UsageError(f"{shown!r} cannot be a player name as typed", hint=f"write it {typed(name)!r}")
    reserved = _RESERVED_WORDS & {w.casefold() for w in name.split()}
    if reserved:
        raise UsageError(f"{shown!r} cannot be a player name: the board uses the word {sorted(reserved)[0]!r}")
    return name


# -- reading -----------------------------------------------------------------------

#: Bounds on what pbd reads from a document (anyone with the link can edit it).
MAX_CHARS = 1_000_000
MAX_LINES = 20_000
MAX_LINE = 10_000
MAX_DIGITS = 9
#: A run of more digits than any number pbd reads; 16 or 64 digits is a hex value pbd writes (a MAC;
#: a seed, commitment, chain value or hash) that happens to have no letter, so it is let through.
_BIG_NUMBER = pattern(rf"(?<![0-9A-Za-z])(?!(?:\d{{16}}|\d{{64}})(?![0-9A-Za-z]))\d{{{MAX_DIGITS + 1},}}"
                      r"(?![0-9A-Za-z])")
#: For :func:`_big_number`: UTF-8 text -> b"1" for each ASCII digit, b"0" for any other byte; ASCII bytes; letters
_DIGIT_MARKS = b"0" * 0x30 + b"1" * 10 + b"0" * (256 - 0x3A)       # (a literal: a loop at import costs 3.8k bytecodes)
_ASCII = bytes(range(128))
_ASCII_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def excerpt(text: str, limit: int = 40) -> str:
    """Return ``text`` cut to a short excerpt, for quoting input in an error."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def bound(text: str) -> str:
    """Return ``text`` if it is within pbd's documented bounds for a match document.

    :raises DocumentFormatError: too long, too many lines, a line too long, or a number
        of more than :data:`MAX_DIGITS` digits (naming the line, quoting a short excerpt).
    """
    if len(text) > MAX_CHARS:
        raise DocumentFormatError(f"the document has {len(text):,} characters; pbd reads at most {MAX_CHARS:,}")
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        raise DocumentFormatError(f"the document has {lines:,} lines; pbd reads at most {MAX_LINES:,}")
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE:
            raise DocumentFormatError(f"the line is {len(line):,} characters long; pbd reads lines of at most "
                                      f"{MAX_LINE:,} ({excerpt(line)!r})", line=number)
    if m := _big_number(text):
        number = text.count("\n", 0, m.start()) + 1
        raise DocumentFormatError(f"the number {excerpt(m.group(), 12)} is too large (pbd reads numbers of at "
                                  f"most {MAX_DIGITS} digits)", line=number)
    return text


def _big_number(text: str) -> re.Match | None:
    """Return ``_BIG_NUMBER.search(text)``, running that pattern only on a text where it may match.

    Fast path: every command checks its document, and the pattern cost it about 1M instructions
    to compile and as much again to run over a small board (more on a long one), while a board's
    long runs of digits are nearly always hex values pbd wrote.  A match lies inside a run of
    digits; with ASCII digits only (another script's go to the pattern), such a run can match
    only from its first digit, only whole (a shorter part is followed by a digit), only with no
    ASCII letter on either side and only if it is not 16 or 64 digits long.  Those runs are found
    in the text's UTF-8 bytes (where a character beyond ASCII holds no ASCII byte), and a run that
    may match is left to the pattern itself.
    """
    data = text.encode("utf-8")
    others = data.translate(None, _ASCII)        # the characters beyond ASCII, still UTF-8
    if others and any(c.isdecimal() for c in set(others.decode("utf-8"))):
        return _BIG_NUMBER.search(text)
    marks, run = data.translate(_DIGIT_MARKS), b"1" * (MAX_DIGITS + 1)
    start = marks.find(run)
    while start >= 0:
        end = marks.find(b"0", start)
        end = len(marks) if end < 0 else end
        if (end - start not in (16, 64) and (not start or data[start - 1] not in _ASCII_LETTERS)
                and (end == len(data) or data[end] not in _ASCII_LETTERS)):
            return _BIG_NUMBER.search(text)
        start = marks.find(run, end)
    return None


def identify(text: str, game_name: str | None = None):
    """Return the game a document belongs to (after checking it is within :func:`bound`).

    The title line names the game; a board without one is sniffed.

    :raises DocumentFormatError: no registered game recognises the document, or it is out of bounds.
    """
    bound(text)
    if game_name:
        return games.get(game_name)
    title = title_of(text)          # the title alone: a board read before is not split again (parse_board)
    if title:
        game = games.by_title(title)
        if game is not None:
            return game
        raise DocumentFormatError(f"the title names an unknown game {title[:40]!r}", line=1,
                                  hint="known games: " + ", ".join(games.registry()))
    for game in games.games():
        if game.sniff(text):
            return game
    raise DocumentFormatError("this is not a pbd match document or a board pbd recognises",
                              hint="start one with 'pbd new GAME DOC', or name the game with --game")


def load(doc: Document, game_name: str | None = None, snap: Snapshot | None = None):
    """Return ``(snapshot, game, state)`` for a document (``snap``: as it was read already)."""
    if snap is None:
        snap = doc.read()
    game = identify(snap.text, game_name)
    return snap, game, parse_board(game, snap.text, doc.label)


def parse_board(game, text: str, label: str):
    """Return ``game.parse(text)``, kept by the board's exact text if the game names its ``parsed_classes``.

    Reading an unchanged board again (``pbd show``, then ``pbd move``) then costs reading one
    small file instead of a parse: :func:`pbd.cache.cached` keys the entry by the text and by
    the code of those classes, keeps two boards per document (the one read now and the one
    before it, from which the hand-edit check replays what other seats wrote since:
    :mod:`pbd.handedits`), and loads nothing else.  A game
    with a shared deck first recalls the deck numbers this machine has already checked
    (:func:`pbd.cache.recall_points`), so a board that changed since is parsed without testing them again,
    and the proofs it has already verified (:func:`pbd.cache.recall_proofs`).

    :raises DocumentFormatError: what ``game.parse`` raises (nothing is kept then).
    """
    from pbd import cache

    if game.shares_a_deck:
        from pbd.table import group

        cache.recall_points(group.KNOWN)
        cache.recall_proofs(group.VERIFIED)
    if not game.parsed_classes:
        return game.parse(text)
    return cache.cached(f"board-{game.name}", label, text.encode("utf-8"), lambda: game.parse(text),
                        game.parsed_classes, game.parsed_classes[0], keep=2)


def board_kept(game, text: str, label: str) -> bool:
    """Return True if :func:`parse_board` would read this board from PBD_HOME's cache rather than parse it."""
    from pbd import cache

    return bool(game.parsed_classes) and cache.holds(f"board-{game.name}", label, text.encode("utf-8"),
                                                     game.parsed_classes)


def _need_match(state, label: str) -> None:
    if not state.meta.match_id:
        raise DocumentFormatError(f"{label} has no 'pbd match ID' title line, so it is not a match pbd started",
                                  line=1, hint="'pbd check' reads hand-made boards; 'pbd new' starts a match")


def _seat(game, state, player: str) -> str:
    for name in game.player_names(state):
        if name.casefold() == player.casefold():
            return name
    raise UsageError(f"{player[:MAX_NAME]!r} is not playing in this match",
                     hint="players: " + ", ".join(game.player_names(state)))


# -- the pipeline -----------------------------------------------------------------

class Turn(Record):
    """One pass of the pipeline over a match document: what was read and what the step works on.

    A step may replace ``state`` (``undo`` puts the earlier board back) or set ``sec``
    (``join`` seats a new player).  ``reading``: a read command, whose CHECKS warn (``warnings``)
    instead of refusing.  ``duty``: the step only does work the seat's pbd owed (the player read nothing).
    """

    FIELDS = ("doc", "snap", "game", "state", "name", "sec", "chance", "attached", "logged", "notes", "reading",
              "warnings", "duty")

    def __init__(self, doc: Document, snap: Snapshot | None, game: Any, state: Any, name: str = "",
                 sec: Secrets | None = None, chance: Chance | None = None, attached: bool = False, logged: int = 0,
                 notes: list[str] | None = None, reading: bool = False, warnings: list[str] | None = None,
                 duty: bool = False):
        self.doc, self.snap, self.game, self.state, self.name = doc, snap, game, state, name
        self.duty = duty
        self.sec, self.chance, self.attached, self.logged, self.reading = sec, chance, attached, logged, reading
        self.notes = [] if notes is None else notes
        self.warnings = [] if warnings is None else warnings
        #: hand edits the log does not explain, found by a reading command (a write would be refused)
        self.unexplained: list[str] = []
        #: what the duties this command paid were, in words (:func:`_paid`)
        self.paid: list[str] = []


#: Checks run by every command after the player's private state is attached and before
#: anything is applied; each raises a :class:`~pbd.errors.PbdError` to refuse.  Fair-play
#: checks of the document against the player's own record are added here.
CHECKS: list[Callable[[Turn], None]] = []


def _check_hand_edits(turn: Turn) -> None:
    """Name a status or count the log does not explain (:mod:`pbd.handedits`): a write refuses, a read warns."""
    from pbd import handedits

    handedits.check(turn, lambda text: parse_board(turn.game, text, turn.doc.label),
                    lambda text: board_kept(turn.game, text, turn.doc.label))


CHECKS.append(_check_hand_edits)


def _read(doc: Document, snap: Snapshot | None = None) -> Turn:
    """Return the document (as ``snap`` if it was read already) parsed; :raises DocumentFormatError: no match."""
    snap, game, state = load(doc, snap=snap)
    _need_match(state, doc.label)
    return Turn(doc, snap, game, state, logged=len(state.meta.log))


def _begin(turn: Turn, seated: bool, held: Secrets | None = None) -> dict | None:
    """Settle what an interrupted command left, attach the player's private state, run the checks.

    ``held``: the private state :func:`_held` read under this command's lock, used unless settling
    changed it (read again otherwise).  Returns what ``undo`` needs to restore the board as it is
    now (None if not seated).
    """
    meta = turn.state.meta
    if seated:
        _check_same_document(turn)
    settled = private.recover(meta.match_id, turn.name, [e.hash for e in meta.log])
    if settled == "adopted":
        turn.notes.append("(pbd first finished saving your private state from a command that was interrupted)")
    turn.chance = Chance(meta, {})
    if not seated:
        return None
    fresh = held is not None and settled != "adopted" and held.match_id == meta.match_id
    sec = held if fresh else private.load(meta.match_id, turn.name)
    _check_obligations(turn)
    before = {"text": turn.snap.text, "from": len(meta.log) + 1, "hand": list(sec.hand), "drawn": list(sec.drawn)}
    from pbd import fairplay_checks     # not loaded by commands that only read

    if fairplay.chain_store is not None and private.kept_here(sec):
        fairplay.chain_store.hold(sec.seed, sec.player)
    fairplay_checks.verify(turn.game, turn.state, sec)
    if turn.reading and fairplay_checks.checked(sec, meta):
        private.save(sec)               # a read command keeps what it checked too (a write keeps it when it lands)
    turn.game.attach(turn.state, sec)
    turn.sec, turn.attached = sec, True
    for check in CHECKS:
        check(turn)
    turn.chance = Chance(meta, {turn.name: sec})
    return before


def _check_same_document(turn: Turn) -> None:
    """Refuse a seat's command on a document other than the one this machine plays its match on (a copy).

    Paying an unlock or moving on a copy would leave the real document without an entry the
    seat's private state remembers, and every later command of the seat refused there.

    :raises DocumentFormatError: (exit 3) the match is recorded on another document for this seat.
    """
    from pbd import matchlist

    others = matchlist.elsewhere(turn.doc, turn.state.meta.match_id, turn.name)
    if others:
        raise DocumentFormatError(
            f"{turn.doc.label} holds match {turn.state.meta.match_id}, which {turn.name} plays on "
            f"{' and '.join(others)}: a copy of the match document is not the match, and pbd wrote nothing",
            hint=f"play on {others[0]}; if this document is the match now (the other was lost or moved), "
                 f"say so once: pbd status {turn.doc.label} --as {turn.name} --adopt")


def _obligations(game, state, name: str) -> list[dict]:
    """Return the pending items of the board that ``name``'s pbd would obey (``describe()["pending"]``)."""
    return [p for p in game.describe(state).get("pending") or [] if str(p.get("player", "")).casefold()
            == name.casefold()]


def _check_obligations(turn: Turn) -> None:
    """Refuse to obey a pending item (reveal, take, discard) that the logged moves do not create.

    Anyone can type a ``Pending:`` line into the document; before the player's pbd acts
    on one, the log is replayed and must give the same pending items for this player.

    :raises DocumentFormatError: a pending item the log does not explain (nothing is obeyed).
    """
    mine = _obligations(turn.game, turn.state, turn.name)
    if not mine:
        return
    rebuilt = _rebuild(turn.game, parse_board(turn.game, turn.snap.text, turn.doc.label), {})
    if rebuilt is None:
        return
    want = _obligations(turn.game, rebuilt.state, turn.name) if rebuilt.state is not None else []
    if want != mine:
        odd = [p for p in mine if p not in want] or mine
        what = ", ".join(f"{p.get('kind')} ({p.get('source') or 'no source'})" for p in odd)
        raise DocumentFormatError(f"the board asks {turn.name} to {what}, which is not explained by the log; "
                                  "pbd does not obey it", hint="someone typed a Pending line into the document; "
                                  "remove it, or run pbd replay DOC to compare the board with the log")


def _run(doc: Document, player: str, step: Callable[[Turn], Result], *, seated: bool = True,
         undoable: bool = False, duty: bool = False, read: Turn | None = None) -> Result:
    """Run ``step`` through the pipeline once, retrying on a board that changed meanwhile.

    If the step is no longer legal on the new board, that is reported as a conflict.  ``read``: the
    document as the caller has just read it (:func:`_read`; a duty's caller read it to see what is
    owed), used as this read, which is taken before the lock too; a retry reads again.

    :raises ConflictError: the board kept changing, or the move became illegal.
    """
    turn = read if read is not None else _read(doc)
    name = _seat(turn.game, turn.state, player) if seated else player
    with private.lock(turn.state.meta.match_id, name), _keeping_chains(turn.state.meta.match_id):
        for attempt in range(RETRIES):
            held = None if attempt else _held(turn.state.meta.match_id, name)   # a retry reads it again
            if attempt or _behind(turn, held):
                turn = _read(doc)
            turn.name = name
            turn.duty = duty
            before = _begin(turn, seated, held)
            try:
                result = step(turn)
            except IllegalMoveError as exc:
                if attempt:
                    raise ConflictError(f"the board changed while you moved, and now: {exc.message}") from None
                raise
            if _land(turn, before if undoable else None):
                result.lines += turn.notes
                return result
    raise ConflictError(f"{doc.label} kept changing while pbd tried to write; nothing was written",
                        hint="wait for the other player to finish editing and try again")


@contextmanager
def _keeping_chains(match_id: str):
    """Within: the hash chains of the seats this command holds (``ChainStore.hold``) are kept beside their
    private state between commands (:data:`pbd.fairplay.chain_store`; read, and written unless a dry run)."""
    before, fairplay.chain_store = fairplay.chain_store, private.ChainStore(match_id)
    try:
        yield fairplay.chain_store
    finally:
        fairplay.chain_store = before


def _held(match_id: str, name: str) -> Secrets | None:
    """Return the player's private state as this machine holds it now (None: it holds none).

    Read once under the command's lock, for :func:`_behind` and then :func:`_begin`: on a long
    match the file holds every entry the seat wrote, and parsing it again cost a move as much
    as its draw.
    """
    return private.load(match_id, name) if private.exists(match_id, name) else None


def _behind(turn: Turn, held: Secrets | None) -> bool:
    """Return True if this player's own record (``held``, see :func:`_held`) is ahead of what was read.

    The document is read before the player's lock is taken; a command of the same player
    that held the lock may have written since.  Reading again then is cheaper than being
    told that the entry it wrote "is gone".
    """
    wrote = held.extra.get("wrote") or [] if held is not None else []
    return bool(wrote) and max(n for n, *_ in wrote) > len(turn.state.meta.log)


def _land(turn: Turn, before: dict | None) -> bool:
    """Render and write the turn: stage the private state, write the document, commit.

    Returns False if the document moved since it was read (nothing written: try again).

    :raises WriteUncertain: the answer was lost and the document cannot be read to tell.
    :raises BackendError: the write failed; nothing was written.
    """
    game, state, sec = turn.game, turn.state, turn.sec
    if turn.attached:
        game.detach(state, sec)
    text = game.render(state)          # rendering seals, signs and hashes the new log entries
    log = state.meta.log
    entry = (len(log), log[-1].hash) if log and len(log) > turn.logged else None
    if sec is not None:
        _remember(sec, state, before)
        _remember_checked(turn, text)
        if entry:
            private.stage(sec, entry)
    try:
        styles = [*game.styles(text), *machinery_styles(text)] if turn.doc.styled else None
        turn.doc.write(text, turn.snap, styles=styles)
    except StaleRevision as exc:
        if not (exc.sent and _own_entry_landed(turn, entry)):     # a refused copy of a write that landed
            _unstage(turn)
            return False
    except WriteUncertain as exc:
        if not _landed(turn, entry, text, exc):
            _unstage(turn)
            return False
    except PbdError:
        _unstage(turn)
        raise
    if sec is not None:
        _commit(turn)
        _remember_match(turn)
    return True


def _remember_match(turn: Turn) -> None:
    """Add the match to the player's list of matches (``pbd status``), having seen its log up to here."""
    from pbd import matchlist

    try:
        seen = None if turn.duty else len(turn.state.meta.log)      # a duty paid: no one read the moves
        matchlist.remember(turn.doc, turn.game, turn.state, turn.sec.player, seen)
    except BackendError as exc:
        turn.notes.append(f"warning: {exc.message} (pbd status will not list this match)")


def _landed(turn: Turn, entry: tuple[int, str] | None, text: str, exc: WriteUncertain) -> bool:
    """After a lost answer, re-read the document and say whether our write is in it."""
    try:
        now = turn.doc.read().text
        log = turn.game.parse(now).meta.log
    except PbdError:
        raise WriteUncertain(
            f"{exc.message}; pbd cannot tell yet whether this command's write reached {turn.doc.label}",
            hint="run 'pbd show DOC' (or any pbd command) once it can be reached: it finds out and settles "
                 "your private state; do not repeat the move before that") from None
    if entry:
        number, digest = entry
        return len(log) >= number and log[number - 1].hash == digest
    return now == text


def _own_entry_landed(turn: Turn, entry: tuple[int, str] | None) -> bool:
    """After a refused or stale write, re-read and say whether this command's staged log entry is in it anyway.

    A write whose answer was lost may have landed, and a copy of it sent again (by the HTTP
    library, unasked) is then refused as stale: the staged private state is kept for such a
    write, never dropped blindly.  Without a new log entry there is nothing to look for.
    """
    if not entry:
        return False
    try:
        now = getattr(turn.doc, "peek", turn.doc.read)()      # Google Docs: the read the retry then uses
        log = turn.game.parse(now.text).meta.log
    except PbdError:
        return False
    number, digest = entry
    if len(log) >= number and log[number - 1].hash == digest:
        turn.doc.read()            # hand out the kept read: nothing later may take it for a fresh one
        return True
    return False


def _unstage(turn: Turn) -> None:
    if turn.sec is not None:
        private.unstage(turn.state.meta.match_id, turn.name)


def _commit(turn: Turn) -> None:
    try:
        private.commit(turn.sec)
    except BackendError as exc:
        turn.notes.append(f"warning: the move is in {turn.doc.label}, but saving your private state failed "
                          f"({exc.message}); it is kept pending, and your next pbd command saves it "
                          "(do not repeat the move)")


def transact(doc: Document, player: str, step, undoable: bool = False) -> Result:
    """Run ``step(game, state, name, chance)`` (returning a :class:`Result`) through the pipeline.

    With ``undoable``, the board before the step is kept in the player's private state
    for ``pbd undo``.

    :raises ConflictError: the board kept changing, or the move became illegal.
    """
    return _run(doc, player, lambda t: step(t.game, t.state, t.name, t.chance), undoable=undoable)


def _remember(sec, state, before: dict | None) -> None:
    """Keep what this pbd saw and wrote (checked on every command) and what undo needs."""
    from pbd import fairplay_checks

    log = state.meta.log
    fairplay_checks.remember(sec, state)
    sec.extra.pop("undo", None)
    if before is not None and len(log) >= before["from"]:
        sec.extra["undo"] = {**before, "to": len(log), "hash": log[-1].hash}


def _remember_checked(turn: Turn, text: str) -> None:
    """Keep the board written as the player's checked position, if the board read was (:mod:`pbd.handedits`)."""
    from pbd import handedits

    if turn.snap is not None:
        handedits.landed(turn.sec, turn.snap.text, text, turn.state.meta.log)


def _stopped(state) -> None:
    from pbd import forfeit

    if (entry := forfeit.ended(state.meta)) is not None:
        raise IllegalMoveError(f"the match is over: {entry.player} "
                               f"{'resigned' if entry.text == forfeit.RESIGN_TEXT else 'claimed it'} "
                               f"(log entry {entry.number})", hint="pbd reveal DOC, then pbd audit DOC")
    if state.meta.revealed and not getattr(state, "result", None):
        names = " and ".join(r.name for r in state.meta.revealed)
        raise IllegalMoveError(f"{names} revealed their seed, so the match is stopped: further draws would not be "
                               "secret", hint="run pbd audit DOC")


# -- commands ----------------------------------------------------------------------

def games_list() -> Result:
    """List the registered games."""
    rows = [{"name": g.name, "title": g.title, "aliases": list(g.aliases), "summary": g.summary}
            for g in games.registry().values()]
    bad = games.broken()
    lines = [f"{r['name']:<8} {r['title']}" + (f" — {r['summary']}" if r["summary"] else "") for r in rows]
    lines += [f"{name:<8} (cannot be used: {why})" for name, why in bad.items()]
    return Result(lines, {"games": rows, "broken": bad})


def template(game_name: str) -> Result:
    """Return the blank board of a game."""
    return Result([games.get(game_name).template().rstrip("\n")])


def notation(game_name: str) -> Result:
    """Return how a game's moves are written, the move that ends a turn among them."""
    import textwrap

    game = games.get(game_name)
    guide = textwrap.dedent(game.notation).strip("\n") or "(this game gives no notation guide)"
    lines = [f"{game.title} ({game.name}): the moves, as you type them in pbd move DOC --as NAME \"MOVE; MOVE\"",
             "", *guide.split("\n")]
    if game.turn_end:
        lines += ["", f"To end your turn: {game.turn_end}."]
    lines += ["Join several moves with ';' (all or nothing); pbd legal DOC --as NAME lists the moves legal now."]
    return Result(lines, {"game": game.name, "notation": guide.split("\n"), "turn_end": game.turn_end})


def _seed(seed_text: str | None, match_id: str) -> bytes:
    return fairplay.seed_from_text(seed_text, match_id) if seed_text is not None else fairplay.new_seed()


def new(game_name: str, doc_spec: str, player: str, deck: str | None, seed_text: str | None = None,
        options: dict | None = None, doc_options: dict | None = None) -> Result:
    """Start a match on a new (or empty) document, as player 1.

    :raises UsageError: a bad name, or the document has something in it.
    """
    check_name(player)
    game = games.get(game_name)
    options = dict(options or {})
    patience = _patience_option(options)
    if "players" in options:
        options["players"] = _players(game, options["players"])
    doc = open_document(doc_spec, create=True, **(doc_options or {}))
    base: Snapshot | None = None
    if doc.exists():
        base = doc.read()
        if base.text.strip():
            raise UsageError(f"{doc.label} already has something in it; pbd new needs a new or empty document")
    import secrets

    match_id = fairplay.match_id_from_text(seed_text) if seed_text is not None else secrets.token_hex(4)
    seed = _seed(seed_text, match_id)
    with private.lock(match_id, player), _keeping_chains(match_id) as chains:
        chains.hold(seed, player)
        state, sec = game.create(match_id, player, deck, seed, options)
        if patience is not None:
            from pbd import forfeit

            state.meta.record(player, forfeit.patience_text(patience))
        state.meta.signers[sec.player.casefold()] = sec.seed        # our entries carry our MAC
        if not _land(Turn(doc, base, game, state, player, sec), None):
            raise ConflictError(f"{doc.label} was filled by someone else meanwhile; nothing was written")
    return Result([f"{game.title}: match {match_id} started on {doc.label}; you are {player} (player 1).",
                   f"Your opponent joins with: pbd join {doc.label} --as NAME"
                   + (" --deck DECK" if game.join_needs_deck else "")],
                  {"match": match_id, "document": doc.label}, location=doc.label)


def _patience_option(options: dict) -> int | None:
    """Take ``-O patience=…`` out of ``options`` (a table option every game takes) and return it in seconds.

    :raises UsageError: not hours or days (:func:`pbd.forfeit.parse_patience`).
    """
    key = next((k for k in options if str(k).strip().lower() == "patience"), None)
    if key is None:
        return None
    from pbd import forfeit

    return forfeit.parse_patience(options.pop(key))


def _players(game, value) -> int:
    """Return ``--players N`` checked against the game's range of seats.

    :raises UsageError: not a number, or outside the game's range.
    """
    low, high = game.players
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"--players takes a number, not {value!r}") from None
    if not low <= n <= high:
        seats = f"exactly {low}" if low == high else f"{low} to {high}"
        raise UsageError(f"{game.title} is played by {seats} players, not {n}")
    return n


def join(doc_spec: str, player: str, deck: str | None, seed_text: str | None = None) -> Result:
    """Join the match on a document as the next player; deals their hand privately.

    :raises UsageError: a bad name.
    :raises DocumentFormatError: the document fails the fair-play checks (an older pbd's log, say).
    """
    check_name(player)

    def step(turn: Turn) -> Result:
        from pbd import fairplay_checks

        fairplay_checks.verify(turn.game, turn.state, None)
        seed = _seed(seed_text, turn.state.meta.match_id)
        fairplay.chain_store.hold(seed, turn.name)
        turn.state, turn.sec = turn.game.join(turn.state, turn.name, deck, seed)
        turn.state.meta.signers[turn.sec.player.casefold()] = turn.sec.seed
        return Result([f"{turn.name} joined match {turn.state.meta.match_id}.", *turn.game.status(turn.state)])

    return _run(open_document(doc_spec), player, step, seated=False)


def show(doc_spec: str, game_name: str | None = None, svg_path: str | None = None,
         player: str | None = None, png_path: str | None = None) -> Result:
    """Parse the board and return it pretty-printed and as data; with ``svg_path`` or ``png_path``, also draw it.

    With ``player``, the seat's own view follows the board: its private hand (``pbd hand``).

    :raises UsageError: the game draws no picture, or the picture file cannot be written.
    :raises MissingExtra: a PNG was asked for and its renderer is not installed (nothing is read or written).
    """
    render = None
    if png_path:        # before anything: a missing extra changes nothing (and only --png loads the picture module)
        from pbd import picture

        render = picture.png_renderer()
    own = hand(doc_spec, player) if player is not None else None      # first: its pbd may settle what it owes
    doc = open_document(doc_spec)
    snap, game, state = load(doc, game_name)
    from pbd import fairplay_checks

    fairplay_checks.verify_signatures(state)
    data = game.view(state) if hasattr(game, "view") else game.describe(state)   # a board-only game: no seats
    text = game.render(state)
    lines = view_of(text).rstrip("\n").split("\n")     # the players' view (the machinery is for pbd)
    if svg_path:
        lines.append(f"(picture written to {_draw(game, state, svg_path)})")
    if png_path:
        lines.append(f"(picture written to {_draw(game, state, png_path, lambda svg: picture.png(svg, render))})")
    warnings = _hand_edits(game, doc, snap.text, from_start=False, state=state)
    if own is not None:
        lines += ["", *own.lines]
        data = {**data, "player": _seat(game, state, player), "hand": own.data}
        warnings += own.warnings
    return Result(lines, data, styles=(lambda: game.styles(text)) if hasattr(game, "styles") else None,
                  warnings=warnings)


def _draw(game, state, svg_path: str, encode=None) -> str:
    """Write the game's picture of ``state`` to ``svg_path`` and return the path.

    ``encode`` turns the SVG text into the file's bytes (default: the SVG itself, in UTF-8; for a PNG,
    :func:`pbd.picture.png`).

    :raises UsageError: the game has no picture, or the file cannot be written.
    """
    if not hasattr(game, "svg"):
        raise UsageError(f"{game.title} has no picture yet (--svg, --png); `pbd show` prints the board as text")
    svg = game.svg(state)
    try:
        paths.write_atomic(svg_path, encode(svg) if encode else svg.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot write the picture to {svg_path}: {exc.strerror or exc}") from None
    return svg_path


def _settle(doc: Document, player: str) -> Turn:
    """Return the match with the player's private state attached, after settling what is owed.

    A command interrupted earlier is settled first (its staged private state adopted or
    dropped).  A game may need a step only this player's pbd can take (Twin Tower City:
    the unlocks of a shared deal, ``Playable.pending``); read commands given ``--as``
    take it first, in one guarded write, whose :data:`CHECKS` ran on the board it read and
    whose board written is the one returned (:func:`_paid`).  Otherwise :data:`CHECKS` run
    as for any command.
    """
    turn = _read(doc)
    turn.name = _seat(turn.game, turn.state, player)
    meta = turn.state.meta
    if _owes(turn, turn.name):
        return _paid(doc, turn.name, turn)
    with private.lock(meta.match_id, turn.name), _keeping_chains(meta.match_id):
        held = _held(meta.match_id, turn.name)
        if _behind(turn, held):
            name, turn = turn.name, _read(doc)
            turn.name = name
        turn.reading = True
        _begin(turn, seated=True, held=held)
        _keep_checked(turn)
    return turn


def _paid(doc: Document, name: str, read: Turn | None = None, duty: bool = False) -> Turn:
    """Pay what ``name``'s pbd owes in one guarded write; return the board written, attached, for the read that follows.

    The board this command just wrote is the one it reads: it was read, checked (the seat's
    record, the hand edits, the pending items) and changed by this seat's own pbd, so reading
    it back and checking it again would only parse the text it rendered and find its own
    record in it (about a sixth of such a command's instructions).  What the read back was
    for stays: the write is refused or retried on a document that moved meanwhile
    (:func:`_run`), and a write whose answer was lost is looked for in the document
    (:func:`_landed`).  A seat that writes after this one is read by the seat's next command,
    as it would be a moment after a read back.  ``read``: the document as the caller read it (see :func:`_run`);
    ``duty``: only the duty is done (``pbd watch``: no person read the moves, :func:`_remember_match`).
    """
    written: list[Turn] = []

    def step(turn: Turn) -> Result:
        written.append(turn)
        return Result(turn.game.settle(turn.state, turn.name, turn.chance))

    done = _run(doc, name, step, read=read, duty=duty)
    turn = written[-1]
    turn.paid = [line for line in done.lines if line]
    meta = turn.state.meta
    # still attached: detaching (before the render) copies the seat's private part out into its state, never
    # out of the board, so the hand the read shows is on it; and what the read verified was kept by the write
    # (nothing for :func:`_keep_checked`, which is for a command that writes no document)
    turn.reading, turn.attached = True, True
    turn.chance = Chance(meta, {turn.name: turn.sec})
    return turn


def _keep_checked(turn: Turn) -> None:
    """Save what a reading command verified (PBD_HOME only, never under --dry-run), so the next starts there."""
    from pbd import cache

    if cache.writable() and private.kept_here(turn.sec) and turn.game.keep_checked(turn.state, turn.sec):
        private.save(turn.sec)


def pay_duties(doc: Document, player: str) -> tuple[str, list[str]]:
    """Do the work ``player``'s pbd owes on the match (unlocks, shuffle passes), as any command would.

    Returns ``(the seat's name, what was done in words)`` — nothing done when nothing is owed.
    (A caller given no seat asks :func:`pbd.status.whoami` first: the pipeline imports no command above it.)

    :raises PbdError: the document cannot be read, or what was owed cannot be done (tampering).
    """
    got = look(doc, player)
    return got.name, got.paid


class Look(Record):
    """What one look of ``pbd watch`` found (:func:`look`).

    ``name``: the seat's; ``paid``: the duties paid, in words; ``state``: the match (None: the
    version was left unparsed); ``asks``: the lines of the version that ask something of the seat
    (:meth:`~pbd.games.base.Playable.asks`), None after paying, when a duty was left for later, when
    the look was given no ``seat`` or when the game cannot tell; ``ahead``: the seats before this one that owe work too (its own was
    left for them to pay first).
    """

    FIELDS = ("name", "paid", "snap", "game", "state", "asks", "ahead")

    def __init__(self, name: str, paid: list[str], snap: Snapshot, game: Any, state: Any,
                 asks: tuple[str, ...] | None, ahead: tuple[str, ...] = ()):
        self.name, self.paid, self.snap, self.game, self.state, self.asks = name, paid, snap, game, state, asks
        self.ahead = ahead


def look(doc: Document, player: str, seat: str | None = None, known: tuple[str, ...] | None = None,
         queue: bool = False, after: tuple[str, ...] = ()) -> Look:
    """Pay what ``player``'s pbd owes (:func:`pay_duties`); return what the document shows then (``pbd watch``,
    at every new version of it; with only ``doc`` and ``player``, :func:`pay_duties`).

    ``seat``: the seat's name as an earlier look found it; ``known``: the lines that asked something of
    it in the last version read whole, where nothing was owed.  A version with no such line, or with
    just ``known``, is left unparsed (:meth:`~pbd.games.base.Playable.asks`): nothing owed, and
    nothing to decide but what the last whole read found.

    ``queue``: while seats before this one (in seat order) owe work too, leave the seat's own for
    after theirs (``ahead``): watchers that all saw a draw at once would otherwise all write at
    once, and all but one write again on the board the first changed (:func:`_run`).  ``after``: the
    seats an earlier look left the work for; while the text may still have one of them owe
    (:meth:`~pbd.games.base.Playable.may_owe`), the version is left unparsed and the work waits.

    :raises PbdError: as :func:`pay_duties`.
    """
    snap = doc.read()
    game = identify(snap.text)
    if seat is not None and after:
        if any(game.may_owe(snap.text, s) for s in after):
            return Look(seat, [], snap, game, None, None, after)
    elif seat is not None:
        asks = game.asks(snap.text, seat)
        if asks is not None and (not asks or asks == known):
            return Look(seat, [], snap, game, None, asks)
    turn = _read(doc, snap)
    name = _seat(turn.game, turn.state, player)
    if not _owes(turn, name):     # (the lines only for a watch that skims: not for pay_duties)
        return Look(name, [], snap, game, turn.state, game.asks(snap.text, name) if seat is not None else None)
    seats = game.player_names(turn.state)
    ahead = tuple(s for s in seats[:seats.index(name)] if game.pending(turn.state, s)) if queue else ()
    if ahead:
        return Look(name, [], snap, game, turn.state, None, ahead)
    turn = _paid(doc, name, turn, duty=True)
    return Look(name, turn.paid, turn.snap, game, turn.state, None)


def _owes(turn: Turn, name: str) -> bool:
    """Return True if ``name``'s pbd owes work on the match as read (none once a seat left it)."""
    return turn.game.pending(turn.state, name) and not _left(turn.state)


def _left(state) -> bool:
    """Return True if a seat resigned or was claimed against (:mod:`pbd.forfeit`): no duty is owed any more."""
    from pbd import forfeit

    return forfeit.ended(state.meta) is not None


def resign(doc_spec: str, player: str) -> Result:
    """End the match for ``player``: the seats that stay win (:mod:`pbd.forfeit`).

    :raises IllegalMoveError: the match has not started or is over.
    """
    from pbd import forfeit

    def step(turn: Turn) -> Result:
        text = forfeit.resign(turn.game, turn.state, turn.name)
        return Result([f"{turn.name} resigned. Result: {text}",
                       f"Everyone may now reveal and audit: pbd reveal {_quoted(doc_spec)}"], {"result": text})

    return _run(open_document(doc_spec), player, step)


def claim(doc_spec: str, player: str) -> Result:
    """End the match by forfeit of the seats that left it waiting longer than its patience (:mod:`pbd.forfeit`).

    The claimer's pbd first does what it owes itself.  The wait is measured from the backend's time
    (:func:`pbd.forfeit.since`), never from a time typed into the document.

    :raises IllegalMoveError: nobody else is waited on, the claimer is, or the patience has not run out.
    :raises BackendError: the backend does not say when the document changed.
    """
    import time

    from pbd import forfeit

    doc = open_document(doc_spec)
    name, _ = pay_duties(doc, player)

    def step(turn: Turn) -> Result:
        since = forfeit.since(turn.doc, turn.state)
        text = forfeit.claim(turn.game, turn.state, turn.name, since, time.time())
        return Result([f"{turn.name} claimed the match. Result: {text}",
                       f"{turn.state.meta.log[-1].text}"], {"result": text})

    return _run(doc, name, step)


def hand(doc_spec: str, player: str) -> Result:
    """Return a player's private hand."""
    turn = _settle(open_document(doc_spec), player)
    data = turn.game.hand(turn.state, turn.sec)
    from pbd.presenting import hand_lines

    return Result(hand_lines(turn.game, turn.state, turn.name, data) + turn.notes, data, warnings=turn.warnings)


def move(doc_spec: str, player: str, notation: str) -> Result:
    """Apply one or more moves (joined by ';'), all or nothing (``pbd move --dry-run``: :func:`pbd.preview.preview`)."""
    if not notation.strip():
        raise UsageError("no move given", hint='for example: pbd move DOC --as Ann "draw; play Spider-Man"')

    def step(game, state, name, chance):
        _stopped(state)
        try:
            return Result(game.play(state, name, notation, chance))
        except NotationError as exc:
            raise _naming_turn_end(exc, game) from None
        except IllegalMoveError as exc:         # the turn's own mover only: "it is Ben's turn" needs no more
            raise (_naming_turn_end(exc, game) if _on_turn(game, state, name) else exc) from None

    from pbd import happened

    return transact(open_document(doc_spec), player, happened.wrap(step), undoable=True)


def _on_turn(game, state, name: str) -> bool:
    """Return True if ``name`` holds the turn: the table's seat on turn, else one of the game's actors."""
    if hasattr(state, "on_turn"):
        return state.on_turn == name
    return name in game.actors(state)


def _naming_turn_end(exc: PbdError, game) -> PbdError:
    """Return the refusal ``exc`` with a last hint line naming the game's way to end the turn and its guide."""
    if not game.turn_end or "To end your turn" in (exc.hint or ""):
        return exc
    where = f"To end your turn: {game.turn_end} · every move: pbd help {game.name}"
    exc.hint = f"{exc.hint}\n  {where}" if exc.hint else where
    return exc


def draw(doc_spec: str, player: str, count: int = 1) -> Result:
    """Draw ``count`` cards (the game's draw move)."""
    if count < 1:
        raise UsageError("draw at least 1 card")
    return move(doc_spec, player, "draw" if count == 1 else f"draw {count}")


def legal(doc_spec: str, player: str) -> Result:
    """List every move legal now for the player."""
    turn = _settle(open_document(doc_spec), player)
    game, state, name = turn.game, turn.state, turn.name
    if _left(state):
        return Result(["(no legal moves: the match is over)", *game.status(state)], {"moves": []})
    if turn.unexplained:     # every move would be refused on this board: list none (pbd move says why)
        return Result(["(no legal moves for you now: the board disagrees with its log, see the warning, "
                       "so pbd writes no move on it)",
                       "put it back as the log gives it, or see every difference with pbd replay DOC"],
                      {"moves": []}, warnings=turn.warnings)
    moves = game.legal(state, name)
    if not moves:
        return Result(["(no legal moves for you now)", *game.status(state)], {"moves": moves},
                      warnings=turn.warnings)
    from pbd.presenting import legal_lines

    return Result(legal_lines(game, state, name, moves), {"moves": moves}, warnings=turn.warnings)


#: what a replay without the seeds cannot check, the audit does (the hint of a check that stopped short)
WHOLE_LOG = "pbd audit DOC replays the whole log once every player has revealed"


def check(doc_spec: str, game_name: str | None = None) -> Result:
    """Validate a board as people left it; every broken rule, and every hand edit its log does not explain, is listed.

    A status or count the log does not explain (:mod:`pbd.handedits`, replayed from the start
    when no seat is held here) is a problem like a broken rule: the board is not what the
    match gave.

    :raises ProblemsFound: the position breaks rules, or says what its log does not (exit 1).
    """
    doc = open_document(doc_spec)
    snap = doc.read()
    game = identify(snap.text, game_name)
    problems = game.check_text(snap.text)
    from pbd import handedits

    stopped: list[str] = []         # the log could not be replayed to its end: the board is not vouched for
    edits = _hand_edits(game, doc, snap.text, from_start=True, why=stopped)
    unseen = [s for s in stopped if s.startswith(handedits.OUT_OF_SIGHT)]    # honest play leads there: a note
    stopped = [s for s in stopped if s not in unseen]
    if problems or edits or stopped:
        found = problems + [f"{e} (the log does not explain it)" if "the log does not explain" not in e else e
                            for e in edits] + stopped
        raise ProblemsFound(f"{doc_spec}: {len(found)} problem(s) found", found,
                            hint="a hand edit: put it back as the log gives it, or see every difference with pbd "
                            "replay DOC" if edits else WHOLE_LOG if stopped else None)
    lines = [f"{doc_spec}: the board is consistent with the rules"
             + (" as far as its log replays without the players' seeds:" if unseen else ".")]
    lines += [f"  {s}; {WHOLE_LOG}" for s in unseen]
    if (waiting := _waiting_for(game, snap.text, doc.label)):
        lines.append(waiting)
    return Result(lines, {"problems": [], **({"not_checked": unseen} if unseen else {})})


def _waiting_for(game, text: str, label: str) -> str:
    """Return a line saying how many seats are still empty at a table waiting for players ('' if none)."""
    try:
        state = parse_board(game, text, label)
    except PbdError:
        return ""
    seats, players = getattr(state, "seats", None), getattr(state, "players", None)
    if not isinstance(seats, list) or not isinstance(players, int) or len(seats) >= players:
        return ""
    return (f"waiting for players: {len(seats)} of {players} seated ({', '.join(seats)}); "
            f"the match starts when {players - len(seats)} more join")


def _hand_edits(game, doc: Document, text: str, from_start: bool, state=None,
                why: list[str] | None = None) -> list[str]:
    """Return the hand edits the log does not explain, for a command given no seat (see :mod:`pbd.handedits`).

    ``state`` is the board already parsed from ``text``, if the command has it (it is only read).
    Every read of the board goes through :func:`parse_board`, so the same text is parsed once.
    ``why`` (a list, if given) gets a sentence if the log could not be replayed to its end.
    """
    from pbd import handedits

    def parse(board_text: str):
        return parse_board(game, board_text, doc.label)

    if state is None:
        try:
            state = parse(text)
        except PbdError:
            return []
    return handedits.observe(game, state, text, from_start, parse, why)


def deck_check(deck: str, game_name: str | None = None) -> Result:
    """Validate a deck list against a game's construction rules.

    :raises DeckError: the deck breaks construction rules (exit 1).
    """
    from pbd.errors import DeckError

    game = games.get(game_name) if game_name else _deck_game(deck)
    summary, problems = game.deck_check(deck)
    if problems:
        raise DeckError(f"{deck}: not a legal {game.title} deck", problems)
    return Result([summary])


def _deck_game(deck: str):
    """Return the game whose deck lists ``deck`` reads as (without ``--game``): the first that can read it.

    :raises DeckFormatError: no game reads it (each game's reason given).
    """
    from pbd.errors import DeckFormatError, UsageError

    failed = []
    for game in games.registry().values():
        try:
            game.deck_check(deck)
        except UsageError:          # a game dealt from its own deck: no deck lists to check
            continue
        except DeckFormatError as exc:
            failed.append((game, exc))
            continue
        return game
    if not failed:
        raise UsageError(f"no game pbd knows checks deck lists like {excerpt(deck)}")
    # the reason worth reading is the one of a game whose players bring their own decks
    game, exc = next(((g, e) for g, e in failed if g.join_needs_deck), failed[0])
    exc.hint = " ".join(filter(None, [exc.hint, f"(read as a {game.title} deck list; another game: --game GAME)"]))
    raise exc


def catalogue_add(path: str, game_name: str = "ttc") -> Result:
    """Install a catalogue or deck list under its content hash, so documents can name it safely.

    A match document never names a file (anyone can edit it); it names a bundled deck
    or catalogue, or one installed here by its content hash.

    :raises UsageError: the game's documents name no catalogues.
    :raises DeckFormatError: the file cannot be read or is not valid.
    """
    game = games.get(game_name)
    installer = getattr(game, "install", None)
    if installer is None:
        raise UsageError(f"{game.title} documents name no catalogue or deck file; nothing to install")
    name = installer(path)
    return Result([f"installed {path} as {name}: documents naming {name} now use it"], {"name": name})


def score(doc_spec: str, game_name: str | None = None) -> Result:
    """Return the score breakdown of the current round of any board, hand-made ones included.

    :raises UsageError: the game has no scoring to explain.
    """
    _, game, state = load(open_document(doc_spec), game_name)
    from pbd import fairplay_checks

    fairplay_checks.verify_signatures(state)
    lines, data = game.score(state)
    return Result(lines, data)


# -- fair play ------------------------------------------------------------------------

def roll(doc_spec: str, player: str, dice: str) -> Result:
    """Roll dice (``2d6``, ``d20``) for the player; the result is logged and public at once.

    :raises UsageError: not dice notation.
    """
    from pbd import audit

    try:
        dice_ = audit.parse_dice(dice)
    except ValueError as exc:
        raise UsageError(str(exc), hint="for example: pbd roll DOC --as Ann 2d6 (or d[1,3,4,5,6,8])") from None

    def step(game, state, name, chance):
        _stopped(state)
        faces = [chance.free_roll(name, faces=d) for d in dice_]
        text = audit.roll_text(dice_, faces)
        state.meta.record(name, text)
        return Result([f"{name} {text}"], {"dice": audit.dice_text(dice_), "faces": faces, "total": sum(faces)})

    from pbd import happened

    return transact(open_document(doc_spec), player, happened.wrap(step))


def log(doc_spec: str) -> Result:
    """Return the move log with its hash chain checked."""
    from pbd import audit

    snap = open_document(doc_spec).read()
    game = identify(snap.text)
    state = game.parse(snap.text)
    problems = audit.log_problems(state.meta, audit.entry_lines(snap.text), audit.sections(game, state))
    if state.meta.version >= 2:
        from pbd import fairplay_checks

        problems += fairplay_checks.signature_problems(state.meta, None)
    lines = [_short(e) for e in state.meta.log] or ["(the log is empty)"]
    lines.append(f"log chain: {'intact' if not problems else 'BROKEN'} ({len(state.meta.log)} entries)")
    lines += [f"  - {p}" for p in problems]
    entries = [{"n": e.number, "player": e.player, "text": e.text, "hash": e.hash, "seal": e.seal, "mac": e.mac,
                "key": e.key, "sig": e.sig,
                "commit": list(e.commit) if e.commit else None, "heads": e.heads,
                "events": [vars(ev) for ev in e.events], "published": e.published} for e in state.meta.log]
    return Result(lines, {"entries": entries, "problems": problems})


def _short(entry) -> str:
    """Return a log entry for the screen: 64-digit hex values shortened to 12 digits."""
    import re

    return re.sub(r"\b([0-9a-f]{12})[0-9a-f]{52}\b", r"\1…", entry.written())


def reveal(doc_spec: str, player: str, now: bool = False) -> Result:
    """Publish the player's seed and committed deck list (at the end, or with ``now``).

    :raises IllegalMoveError: the match is still on and ``now`` was not given.
    :raises ProblemsFound: the private state does not match the published commitment.
    """
    from pbd.games.base import Reveal

    def step(game, state, name, chance):
        meta = state.meta
        if meta.revealed_by(name):
            raise UsageError(f"{name} has already revealed")
        if not game.outcome(state) and not now and not meta.revealed:
            raise IllegalMoveError("the match is still on; reveal once it has a result, or with --now when both "
                                   "players agree to stop here (your coming draws become public)")
        sec = chance.secrets[name.casefold()]
        committed = game.committed(state, sec)
        pub = meta.player(name)
        if pub is None or fairplay.commitment(sec.seed, committed) != pub.commitment:
            raise ProblemsFound("your private state does not match your published commitment; nothing revealed",
                                [f"{name}'s commitment in the document: {pub.commitment if pub else 'none'}"])
        meta.revealed.append(Reveal(pub.name, sec.seed.hex(), committed))
        meta.record(pub.name, "revealed seed and deck list")
        what = f"the seed and the {len(committed)}-card deck list" if committed else "the seed"
        return Result([f"{pub.name} revealed {what}.",
                       f"Anyone can now check the draws: pbd audit {_quoted(doc_spec)}"])

    return transact(open_document(doc_spec), player, step)


def _quoted(doc_spec: str) -> str:
    """Return a document's name as a shell would need it typed (quoted if it has spaces or symbols)."""
    import shlex

    return shlex.quote(doc_spec)


def _counts(pub) -> str:
    """Return a seat's draws and rolls in words, leaving out what it never did ("3 draws, 1 roll")."""
    parts = [f"{n} {word}{'' if n == 1 else 's'}" for n, word in ((pub.draws, "draw"), (pub.rolls, "roll"),
                                                                  (pub.free, "free roll")) if n]
    return ", ".join(parts) or "nothing drawn or rolled from the seed"


def _rebuild(game, state, derived):
    from pbd import audit

    return audit.replay_log(game, state, derived)


def audit(doc_spec: str) -> Result:
    """Check the fair play of a match: log chain and seal, commitments, chain values, every revealed draw
    and roll, every entry's writer, every revealed deck, every play, and the game's own position check.

    :raises ProblemsFound: any discrepancy (exit 1), each one listed.
    """
    from pbd import audit as au

    snap = open_document(doc_spec).read()
    game = identify(snap.text)
    state = game.parse(snap.text)
    _need_match(state, doc_spec)
    meta = state.meta
    if meta.version < 2:
        raise ProblemsFound(f"{doc_spec}: cannot be audited", [au.OLD_LOG])
    problems = au.log_problems(meta, au.entry_lines(snap.text), au.sections(game, state))
    problems += au.chain_problems(meta) + au.reveal_problems(meta)
    from pbd import fairplay_checks

    problems += fairplay_checks.signature_problems(meta, None)
    for p in meta.fairplay:
        if private.exists(meta.match_id, p.name):
            sec = private.load(meta.match_id, p.name)
            problems += fairplay_checks.seen_problems(meta, sec) + fairplay_checks.own_problems(meta, sec)
    derived, lines = {}, []
    for p in meta.fairplay:
        r = meta.revealed_by(p.name)
        if r is None:
            lines.append(f"{p.name}: not revealed — {_counts(p)}; checked once {p.name} runs pbd reveal")
            continue
        d = au.derive(meta, p.name, game.drawable(r.deck))
        derived[d.player] = d
        problems += d.problems + [f"{p.name}'s revealed deck: {x}" for x in game.committed_problems(state, p.name,
                                                                                                   r.deck)]
        lines.append(f"{p.name}: revealed — {_counts(p)}" + (" re-derived from the seed" if p.draws + p.rolls + p.free
                                                             else ""))
    rebuilt = _rebuild(game, state, derived)
    if rebuilt is None:
        lines.append(f"{game.title} cannot replay its log yet: the plays were not checked against the hands")
    else:
        problems += rebuilt.problems
        if rebuilt.complete and rebuilt.state is not None:
            problems += au.board_differences(game, rebuilt.state, state)
    problems += [f"position: {x}" for x in game.problems(state)]
    problems += _deal_problems(state)
    problems = list(dict.fromkeys(problems))
    lines.insert(0, f"{doc_spec}: {len(meta.log)} log entries")
    if problems:
        raise ProblemsFound("\n".join(lines + [f"audit: {len(problems)} problem(s) found"]), problems)
    unrevealed = [p.name for p in meta.fairplay if meta.revealed_by(p.name) is None]
    if unrevealed:
        raise ProblemsFound("\n".join(lines + [
            f"audit: incomplete — nothing wrong found so far, but {', '.join(unrevealed)} "
            f"{'has' if len(unrevealed) == 1 else 'have'} not revealed, so what "
            f"{'they' if len(unrevealed) > 1 else unrevealed[0]} did"
            f"{' and the deal' if getattr(state, 'deck', None) is not None else ''} cannot be checked yet"]),
            [f"{name} has not revealed: pbd reveal {doc_spec} --as {name} (once the match is over)"
             for name in unrevealed])
    replays = (", every logged move replays to the board" if rebuilt is not None else
               " (the moves themselves were not replayed)")
    lines.append("audit: clean — the log chain and its seal hold, every commitment, chain value, entry writer, "
                 f"revealed deck, draw and roll checks out{replays}, and the position breaks no rule")
    return Result(lines, {"problems": [], "players": [p.name for p in meta.fairplay],
                          "revealed": [r.name for r in meta.revealed]})


def _deal_problems(state) -> list[str]:
    """Return every slot of a shared deck that the revealed seeds do not derive (once every seat revealed).

    The table's own check, run by the audit for every game dealt from a shared deck: no game can skip it.
    """
    from pbd.table.deck import SharedDeck

    deck = getattr(state, "deck", None)
    if not isinstance(deck, SharedDeck):
        return []
    seeds = {}
    for seat in deck.seats:
        reveal = state.meta.revealed_by(seat)
        if reveal is None:
            return []
        try:
            seeds[seat] = bytes.fromhex(reveal.seed)
        except ValueError:
            return [f"the shared deck: {seat}'s revealed seed is not hex"]
    return [f"the shared deck: {p}" for p in deck.audit(seeds)]


def replay(doc_spec: str) -> Result:
    """Rebuild the public state from the log and name every difference from the board.

    :raises ProblemsFound: the board differs from what the log gives (exit 1).
    """
    from pbd import audit as au

    snap = open_document(doc_spec).read()
    game = identify(snap.text)
    state = game.parse(snap.text)
    _need_match(state, doc_spec)
    rebuilt = _rebuild(game, state, {})
    if rebuilt is None:
        raise UsageError(f"{game.title} cannot replay its log yet")
    problems = list(rebuilt.problems)
    if rebuilt.complete and rebuilt.state is not None:
        problems += au.board_differences(game, rebuilt.state, state)
        _adopt_deck(rebuilt.state, state)
        problems += au.line_differences(game, rebuilt.state, state, snap.text)
    if problems:
        raise ProblemsFound(f"{doc_spec}: the board is not what the log gives ({len(problems)} difference(s))",
                            problems)
    return Result([f"{doc_spec}: replaying the {len(state.meta.log)} log entries gives exactly this board."],
                  {"problems": []})


def _adopt_deck(rebuilt, board) -> None:
    """Give a shared deck replayed symbolically the board's numbers where the replay agrees with them.

    A replay without the seeds cannot recompute the locked numbers, proofs and clock of the
    machinery (``pbd audit`` checks those against the revealed seeds); without this, every
    such line of a shared-deck game would be named as a difference.
    """
    deck, theirs = getattr(rebuilt, "deck", None), getattr(board, "deck", None)
    if deck is not None and theirs is not None and hasattr(deck, "adopt"):
        deck.adopt(theirs)


def undo(doc_spec: str, player: str) -> Result:
    """Take back the player's last move while the opponent has not moved and it revealed nothing.

    The board before the move comes from the player's private state; the move stays in
    the log, followed by a take-back entry.

    :raises IllegalMoveError: nothing to take back, the opponent moved since, or the move
        drew, rolled, published a chain value or showed a hand card.
    """

    def step(turn: Turn) -> Result:
        game, state, name, sec = turn.game, turn.state, turn.name, turn.sec
        rec = sec.extra.get("undo")
        log_ = state.meta.log
        if not rec:
            raise IllegalMoveError(f"{name} has no move to take back (only your last 'pbd move' can be, once)")
        if len(log_) != rec["to"] or log_[-1].hash != rec["hash"]:
            raise IllegalMoveError("the match went on after your last move (or the log was edited); "
                                   "it can no longer be taken back")
        entries = log_[rec["from"] - 1:rec["to"]]
        for e in entries:
            if game.informative(e):
                raise IllegalMoveError(f"log entry {e.number} ({e.text}) revealed new information (a draw, a roll, "
                                       "a chain value or a hand card); it cannot be taken back")
        previous = game.parse(rec["text"])
        previous.meta = state.meta
        a, b = rec["from"], rec["to"]
        span = f"{a}" if a == b else f"{a}-{b}"
        moves = "; ".join(e.text.split(" · ")[0] for e in entries)
        state.meta.record(name, f"takes back {span}: {moves}")
        sec.hand, sec.drawn = list(rec["hand"]), list(rec["drawn"])
        game.attach(previous, sec)
        turn.state = previous
        return Result([f"{name} took back {moves} (log entries {span}).", *game.status(previous)])

    return _run(open_document(doc_spec), player, step)


def keep_hand_in(doc_spec: str, player: str, spec: str) -> Result:
    """Move ``player``'s private state for the match on ``doc_spec`` into the hand document ``spec``.

    The hand document is written first; only then does PBD_HOME's copy become a pointer
    to it, so a failure leaves the private state where it was.

    :raises UsageError: ``spec`` is not a Google Doc, has other content, or the player is not seated.
    :raises BackendError: the hand document cannot be created or written.
    """
    from pbd import handdoc

    _, game, state = load(open_document(doc_spec))
    names = [n for n in game.player_names(state) if n.casefold() == player.casefold()]
    if not names or not state.meta.match_id:
        raise UsageError(f"{player[:MAX_NAME]!r} is not playing in the match on {doc_spec}")
    name, match_id = names[0], state.meta.match_id
    with private.lock(match_id, name):
        private.recover(match_id, name, [e.hash for e in state.meta.log])
        sec = private.load(match_id, name)
        doc = handdoc.prepare(spec, f"pbd hand · {name} · match {match_id}")
        try:
            handdoc.save(f"gdoc:{doc.gid}", private.as_dict(sec))
        except BackendError:
            if spec == "gdoc:new":
                handdoc.discard(doc)
            raise
        private.link_hand_doc(match_id, name, f"gdoc:{doc.gid}")
    return Result([f"{name}'s hand and private state for match {match_id} are kept in {doc.label}",
                   "(your own document: pbd does not share it; PBD_HOME keeps only a pointer to it)."],
                  {"hand_doc": doc.label}, location=doc.label)
