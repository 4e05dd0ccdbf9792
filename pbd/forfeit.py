"""Resign, claim and patience: how a seat leaves a match, and how the others end a match a seat has left.

``pbd resign DOC`` ends the match for the seat that runs it; ``pbd claim DOC`` lets any other
seat end it once a seat has left its turn, a question or a duty unanswered longer than the
match's *patience* (``-O patience=72h`` at ``pbd new``; default :data:`DEFAULT_PATIENCE`).
lichess correspondence's "claim victory" is the model.

Why the match ends rather than going on without the seat: every card of a shared deck is
locked by every seat, and only a seat's own pbd can take its lock off, so once a seat has
left nobody can draw again; C&C and the two-seat games have nobody left to play anyway.
The seats that stay win (:meth:`~pbd.games.base.Playable.forfeit_winners`: Twin Tower City's
other side); the cards the leaver still locks stay face down for good.

What is written, and what is trusted:

* the patience is a log entry of the creator right after the match's first one
  (``patience 3 days``), so it is hashed, signed and replayed like any move, never read
  from a line anyone could retype;
* ``resigns`` and ``claims the match: …; Ann forfeits`` are log entries too; the replay
  (``pbd audit``, and ``pbd replay`` in the games that replay without the seeds) accepts a claim
  only against seats the log shows were waited on then, by a seat that was not;
* the time is the document's modification time as its backend reports it (the local file's
  mtime, Google Drive's ``modifiedTime``), never a time typed into the document.  A seat
  waited on counts as waited on since the log last grew: the earliest of the backend time at
  which this PBD_HOME first saw the log as it is now (kept in ``PBD_HOME/waits``) and the
  document's modification time now.  Both are at or after the entry's write, so an honest
  claim is never early; a note typed into the document since only makes the wait look shorter.

What no check can give: the claim's time is measured by the claimer's pbd, so a modified pbd
(or a clock set ahead) can claim early; the other seats see the claim, and the seat claimed
against sees the entry and the time it names, but no seat can prove when a document changed.
"""

from __future__ import annotations

import os
import re
import time

from pbd.errors import IllegalMoveError, PbdError, UsageError
from pbd.regex import pattern

#: the patience of a match whose creator named none: 7 days (in seconds)
DEFAULT_PATIENCE = 7 * 24 * 3600
#: bounds of ``-O patience=``: one hour to a year
MIN_PATIENCE, MAX_PATIENCE = 3600, 365 * 24 * 3600
_OPTION_RE = pattern(r"^(\d{1,5})\s*(h|hours?|d|days?)$", re.I)
PATIENCE_RE = pattern(r"^patience (?P<n>\d{1,5}) (?P<unit>hours?|days?)$")
RESIGN_TEXT = "resigns"
CLAIM_RE = pattern(r"^claims the match: (?P<absent>.+?) (?:has|have) not answered since (?P<since>[^;]{1,40}), "
                      r"longer than the patience of (?P<patience>\d{1,5} (?:hours?|days?)); (?P=absent) forfeits?$")
_CLAIM = "claims the match: "
#: the log text of a reveal (kept here to stay light: the same as :data:`pbd.games.base.REVEAL_TEXT`)
_REVEAL = "revealed seed and deck list"
#: the file in PBD_HOME that keeps when this machine first saw each match's log as it is now
WAITS = "waits"


# -- patience ----------------------------------------------------------------------------------

def parse_patience(value: str) -> int:
    """Return ``-O patience=VALUE`` in seconds (``72h``, ``3d``, ``3 days``).

    :raises UsageError: not hours or days, or outside one hour to a year.
    """
    m = _OPTION_RE.match(str(value).strip())
    if not m:
        raise UsageError(f"patience={str(value)[:20]!r} is not a time: write hours or days, e.g. -O patience=72h "
                         "or -O patience=3d")
    seconds = int(m.group(1)) * (3600 if m.group(2)[0].lower() == "h" else 86400)
    if not MIN_PATIENCE <= seconds <= MAX_PATIENCE:
        raise UsageError(f"patience={value}: the patience is at least 1 hour and at most 365 days")
    return seconds


def words(seconds: float) -> str:
    """Return a patience or a wait in words: whole days when it is some, else hours ("3 days", "5 hours")."""
    seconds = int(seconds)
    if seconds >= 86400 and seconds % 86400 == 0:
        n, unit = seconds // 86400, "day"
    else:
        n, unit = seconds // 3600, "hour"
    return f"{n} {unit}{'' if n == 1 else 's'}"


def patience_text(seconds: int) -> str:
    """Return the log text of the creator's patience entry."""
    return f"patience {words(seconds)}"


def _entry_seconds(text: str) -> int | None:
    m = PATIENCE_RE.match(text)
    if not m:
        return None
    return int(m.group("n")) * (86400 if m.group("unit").startswith("day") else 3600)


def patience_of(meta) -> int:
    """Return the match's patience in seconds: the creator's entry 2 if it names one, else the default."""
    log = meta.log
    if len(log) >= 2 and log[1].player == log[0].player:
        seconds = _entry_seconds(log[1].text)
        if seconds is not None:
            return seconds
    return DEFAULT_PATIENCE


# -- the entries -------------------------------------------------------------------------------

def ended(meta):
    """Return the log entry that ended the match by a resign or a claim (None: none did).

    Only reveals follow such an entry (every move is refused after it), so the log is read
    from its end back past them.
    """
    for entry in reversed(meta.log):
        if entry.text == _REVEAL:
            continue
        text = entry.text
        return entry if text == RESIGN_TEXT or text.startswith(_CLAIM) and CLAIM_RE.match(text) else None
    return None


def leavers(entry) -> list[str]:
    """Return the seats a resign or claim entry takes out of the match."""
    if entry.text == RESIGN_TEXT:
        return [entry.player]
    return _names(CLAIM_RE.match(entry.text).group("absent"))


def _names(text: str) -> list[str]:
    head, _, last = text.rpartition(" and ")
    return [*(n for n in head.split(", ") if n), last] if head else [last]


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_text(game, state, entry) -> str:
    """Return the result a resign or claim entry gives: the seats that stay win ("Ben wins: Ann resigned")."""
    gone = leavers(entry)
    winners = game.forfeit_winners(state, gone)
    verb = "wins" if len(winners) == 1 else "win"
    if entry.text == RESIGN_TEXT:
        why = f"{gone[0]} resigned"
    else:
        why = f"{_joined(gone)} forfeited (no answer within the patience of {CLAIM_RE.match(entry.text)['patience']})"
    return f"{_joined(winners)} {verb}: {why}" if winners else f"no winner: {why}"


def result(game, state) -> str | None:
    """Return the result of a match a resign or a claim ended (None: none did)."""
    entry = ended(state.meta)
    return result_text(game, state, entry) if entry is not None else None


def waited_on(game, state) -> list[str]:
    """Return the seats the match waits on now (its actors), none once it is over."""
    if game.outcome(state) or result(game, state):
        return []
    return list(game.actors(state))


def _playing(game, state, seat: str) -> None:
    """Refuse to end a match that has not started or is over.

    :raises IllegalMoveError: naming why.
    """
    over = game.outcome(state) or result(game, state)
    if over:
        raise IllegalMoveError(f"the match is over already: {over}")
    if not game.actors(state):
        raise IllegalMoveError("the match has not started: every seat must join first",
                               hint="a seat that has not joined can simply not join")


def check_claim(game, state, claimer: str, absent: list[str]) -> None:
    """Check that ``claimer`` may claim against ``absent`` on ``state`` (the time is checked apart).

    :raises IllegalMoveError: the match is not on, nobody else is waited on, or the claimer is.
    """
    _playing(game, state, claimer)
    waiting = waited_on(game, state)
    if claimer.casefold() in (w.casefold() for w in waiting):
        raise IllegalMoveError(f"the match waits on {claimer} too, so {claimer} cannot claim it",
                               hint="pbd status DOC says what waits on you")
    wrong = [a for a in absent if a not in waiting]
    if not absent:
        raise IllegalMoveError("the match waits on nobody else, so there is nobody to claim against")
    if wrong:
        raise IllegalMoveError(f"{_joined(wrong)} {'is' if len(wrong) == 1 else 'are'} not waited on here, "
                               "so there is nobody to claim against")


def resign(game, state, seat: str) -> str:
    """End the match for ``seat``, in place: log ``resigns`` and set the result; return the result.

    :raises IllegalMoveError: the match has not started or is over.
    """
    _playing(game, state, seat)
    entry = state.meta.record(seat, RESIGN_TEXT)
    text = result_text(game, state, entry)
    game.forfeit(state, text)
    return text


def claim_text(absent: list[str], since: float, patience: int) -> str:
    """Return the log text of a claim (the time in words for people; pbd never reads it back)."""
    when = time.strftime("%d %b %Y %H:%M UTC", time.gmtime(since))
    verb = ("has", "forfeits") if len(absent) == 1 else ("have", "forfeit")
    return (f"claims the match: {_joined(absent)} {verb[0]} not answered since {when}, longer than the patience of "
            f"{words(patience)}; {_joined(absent)} {verb[1]}")


def claim(game, state, claimer: str, since: float, now: float) -> str:
    """End the match by forfeit of the seats waited on, in place, if they were waited on longer than the patience.

    ``since``: when the wait began by the backend's time (:func:`since`); ``now``: the time now.
    Returns the result.

    :raises IllegalMoveError: nobody else is waited on, the claimer is, or the patience has not run out
        (saying when it does).
    """
    absent = [s for s in waited_on(game, state) if s.casefold() != claimer.casefold()]
    check_claim(game, state, claimer, absent)
    patience = patience_of(state.meta)
    if now - since < patience:
        at = time.strftime("%d %b %Y %H:%M UTC", time.gmtime(since + patience))
        raise IllegalMoveError(
            f"{_joined(absent)} {'has' if len(absent) == 1 else 'have'} been waited on for {_wait(now - since)} "
            f"(since {time.strftime('%d %b %Y %H:%M UTC', time.gmtime(since))}); the match's patience is "
            f"{words(patience)}, so a claim can be made from {at}",
            hint="the time is the document's own modification time; any change to the document starts it again")
    entry = state.meta.record(claimer, claim_text(absent, since, patience))
    text = result_text(game, state, entry)
    game.forfeit(state, text)
    return text


def replay(game, state, entry, meta):
    """Replay a patience, resign or claim entry on ``state`` and re-record it (for :func:`pbd.audit.rebuild`).

    :raises PbdError: the entry is out of place: a patience entry other than the creator's second one,
        a resign or claim of a match not on, or a claim against a seat the log does not show was waited on.
    """
    text, seat = entry.text, entry.player
    if text.startswith("patience "):
        if _entry_seconds(text) is None or entry.number != 2 or not meta.log or meta.log[0].player != seat:
            raise PbdError("a patience entry is the creator's second entry, 'patience N hours|days'")
    elif text == RESIGN_TEXT:
        _playing(game, state, seat)
        meta.record(seat, text)
        game.forfeit(state, result_text(game, state, meta.log[-1]))
        return state
    else:
        m = CLAIM_RE.match(text)
        if not m or m.group("patience") != words(patience_of(meta)):
            raise PbdError("a claim names the match's patience: 'claims the match: NAME has not answered since "
                           "WHEN, longer than the patience of N days; NAME forfeits'")
        check_claim(game, state, seat, _names(m.group("absent")))
        meta.record(seat, text)
        game.forfeit(state, result_text(game, state, meta.log[-1]))
        return state
    meta.record(seat, text)
    return state


# -- the time the wait began -------------------------------------------------------------------

def _waits_path() -> str:
    from pbd import paths

    return os.path.join(paths.home(), WAITS)


def _read_waits() -> dict:
    from pbd import jsonfile

    try:
        data = jsonfile.read(_waits_path())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def since(doc, state) -> float:
    """Return when the match's current wait began, by the backend's time: when its log last grew.

    The earliest of the backend time at which this PBD_HOME first saw the log as it is now
    (kept in ``PBD_HOME/waits``) and the document's modification time now (:meth:`modified`).

    :raises BackendError: the backend does not say when the document changed.
    """
    log = state.meta.log
    position = [len(log), log[-1].hash if log else ""]
    modified = getattr(doc, "modified", None)
    if modified is None:
        from pbd.errors import BackendError

        raise BackendError(f"{getattr(doc, 'label', 'this document')}'s store does not say when it last changed")
    now = modified()
    key = f"{state.meta.match_id} {getattr(doc, 'label', '')}"
    data = _read_waits()
    kept = data.get(key)
    if isinstance(kept, dict) and kept.get("at") == position and isinstance(kept.get("since"), (int, float)):
        if kept["since"] <= now:
            return float(kept["since"])
    data[key] = {"at": position, "since": now}
    _save_waits(data)
    return now


def _save_waits(data: dict) -> None:
    """Save the waits file (0600); a PBD_HOME that cannot be written only loses the earlier first sight."""
    from pbd import jsonfile, paths

    from pbd import cache

    if not cache.writable():        # a dry run writes nothing in PBD_HOME
        return
    if len(data) > 200:         # one line per match and document: keep the newest 200
        data = dict(list(data.items())[-200:])
    try:
        paths.private_dir(paths.home())
        paths.write_private(_waits_path(), jsonfile.dumps(data).encode("utf-8"))
    except OSError:
        pass


def waiting_line(game, state, doc) -> str:
    """Return "Waited on: Ann, since 28 Nov 2026 10:00 UTC (2 days; patience 7 days)" ('' if nobody is)."""
    waiting = waited_on(game, state)
    if not waiting:
        return ""
    try:
        start = since(doc, state)
    except PbdError:
        return f"Waited on: {_joined(waiting)} (since when: the document's store does not say)"
    gone = time.time() - start
    patience = patience_of(state.meta)
    due = " — the others may claim the match (pbd claim DOC)" if gone >= patience else ""
    return (f"Waited on: {_joined(waiting)}, since {time.strftime('%d %b %Y %H:%M UTC', time.gmtime(start))} "
            f"({_wait(gone)}; patience {words(patience)}){due}")


def _wait(seconds: float) -> str:
    """Return a wait in words ("under an hour", "5 hours", "2 days")."""
    if seconds < 3600:
        return "under an hour"
    return words(seconds) if seconds < 2 * 86400 else f"{int(seconds // 86400)} days"
