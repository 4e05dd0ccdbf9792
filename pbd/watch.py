"""``pbd watch``: pay the seat's duties as soon as they appear; wake the player only when a person must decide.

``pbd watch DOC`` watches one match: while it runs, every duty the seat's pbd owes there
(unlocks, shuffle passes: the work that used to wait for the player's next command) is done at
once, in one guarded write each, and the watch returns with ``pbd status DOC`` when a person must
decide (their turn, a question put to them, the match's end).  ``pbd watch`` with no DOC watches
every match ``pbd status`` lists (one inbox): it pays duties everywhere, prints one line per
match when a person must decide there (the CLI adds a terminal bell and a desktop notification),
keeps going until ``--timeout`` or Ctrl-C, and names a match it cannot read without stopping the
others.  ``--once`` does one pass and exits (for cron or a login script).

A new version whose lines ask nothing of the seat (no ``Turn:``, ``Waiting on:``, ``Owed:`` line
naming it, no ``Result:``: :meth:`pbd.games.base.Playable.asks`) is skipped unparsed, and so is one
whose such lines are the very ones of the last version read whole, where nothing was owed (what
that read found still stands: the seat on move is named on every version of its turn): at six
seats most versions are other seats' business.  Those lines are written by whoever wrote last and
anyone can edit them, so a version skipped is read whole once 120 pauses (at most 5 minutes) have
passed since the last whole read (:func:`_whole_every`: 2 minutes for a local file): a line left out
by hand, or by a modified pbd, delays a duty by that much, never loses it (and the next write by any
pbd puts the line back).

A local file is looked at every second or so (its size and modification time; it is read only
when they change).  A Google Doc is read at most every 10 seconds, and less often (doubling up
to a minute) while nothing changes or Google is busy: a handful of reads a minute per match, far
inside the quota of 300 (and a write only when a duty is owed, against 60).
"""

from __future__ import annotations

import os
import time

from pbd import status
from pbd.documents import open_document
from pbd.errors import AuthError, BackendError, DocumentFormatError, UsageError, WatchTimeout
from pbd.result import Result

#: Seconds between looks at a local file, and the shortest between reads of a Google Doc.
LOCAL_INTERVAL = 1.0
GOOGLE_INTERVAL = 10.0
#: The longest pause between two reads of a Google Doc while nothing changes.
GOOGLE_MAX = 60.0
#: A version skipped unread is read whole once this many of the first pause, at most WHOLE_MOST seconds, have
#: passed since the last whole read, even if the document did not change again.
WHOLE_PAUSES = 120
WHOLE_MOST = 300.0


#: The longest a watch leaves its seat's work for each seat before it that owes work on the same version (seconds;
#: the first pause if shorter): the seats' watches then write one after the other, not all at once.
QUEUE_STEP = 1.0


def _whole_every(first: float) -> float:
    """Return the seconds after which a version skipped unread is read whole (a local file: 2 minutes)."""
    return min(WHOLE_PAUSES * first, WHOLE_MOST)


def _interval(doc, interval: float | None) -> tuple[float, float]:
    """Return the first and the longest pause between looks (``PBD_WATCH_INTERVAL`` or ``--interval`` first).

    Against real Google the pause is never below :data:`GOOGLE_INTERVAL`.
    """
    if interval is None and os.environ.get("PBD_WATCH_INTERVAL"):
        try:
            interval = float(os.environ["PBD_WATCH_INTERVAL"])
        except ValueError:
            raise UsageError(f"PBD_WATCH_INTERVAL is not a number of seconds: "
                             f"{os.environ['PBD_WATCH_INTERVAL'][:20]!r}") from None
    if interval is not None and interval <= 0:
        raise UsageError("the poll interval must be more than 0 seconds")
    if getattr(doc, "path", None) is not None:
        first = interval or LOCAL_INTERVAL
        return first, first
    first = interval or GOOGLE_INTERVAL
    if not os.environ.get("PBD_DOCS_EMULATOR_HOST"):
        first = max(first, GOOGLE_INTERVAL)
    return first, max(first, GOOGLE_MAX if not interval else first * 6)


def _stamp(doc):
    """Return what tells a local file changed without reading it (size, mtime), or None for other documents."""
    path = getattr(doc, "path", None)
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return ("missing",)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


class _Skim:
    """What a watch keeps between its looks at one seat of one match to leave versions unparsed (see the module)."""

    def __init__(self, first: float, queue: bool = True):
        self.every, self.step, self.queue = _whole_every(first), min(first, QUEUE_STEP), queue
        #: the seat's name, when the match was last read whole and the lines that asked the seat something then
        #: (None: something was paid, or the read failed), whether a version was left unparsed since
        self.name: str | None = None
        self.whole = float("-inf")
        self.known: tuple[str, ...] | None = None
        self.skimmed = False
        #: until when the seat's work waits for the seats before it that owe work too (None: it does not wait),
        #: and which seats those are
        self.hold: float | None = None
        self.after: tuple[str, ...] = ()

    def due(self, clock) -> bool:
        """Return True if the match must be read again though the document did not change: a version was
        skipped long enough ago, or the seat's work has waited long enough for the seats before it."""
        return self.skimmed and clock() - self.whole >= self.every or self.hold is not None and clock() >= self.hold

    def pause(self, clock, pause: float) -> float:
        """Return how long to sleep before the next look: ``pause``, or less to pay the work that waits."""
        return pause if self.hold is None else max(0.0, min(pause, self.hold - clock()))

    def look(self, doc, player: str | None, clock):
        """Pay the seat's duties and read the match (:func:`pbd.match.look`, leaving it unparsed where it may).

        :raises PbdError: the document cannot be read or parsed; the player is not in the match.
        """
        from pbd import match

        fresh = clock() - self.whole < self.every
        known, self.known = self.known, None
        holding = self.hold is not None and clock() < self.hold
        got = match.look(doc, player or self.name or status.whoami(doc.label), self.name if fresh else None, known,
                         queue=self.queue and (self.hold is None or holding), after=self.after if holding else ())
        self.skimmed = got.state is None
        if not got.ahead:
            self.hold, self.after = None, ()
        elif self.hold is None:
            self.hold, self.after = clock() + len(got.ahead) * self.step, got.ahead
        if got.state is None:
            self.known = known
        else:
            match._need_match(got.state, doc.label)
            self.name, self.whole, self.known = got.name, clock(), got.asks
        return got


def _waits(got) -> list[str] | None:
    """Return what a person must decide by a look (the match's end too); None: as the last whole read found
    (or the seat's work waits for the seats before it: it is paid before anything is said)."""
    if got.ahead:
        return None
    if got.state is None:
        return None if got.asks else []
    if got.game.outcome(got.state):
        return [f"the match is over: {got.game.outcome(got.state)}"]
    return status.waiting(got.game, got.state, got.name)


def watch(doc_spec: str | None, player: str | None = None, timeout: float | None = None,
          interval: float | None = None, once: bool = False, say=None, sleep=time.sleep,
          clock=time.monotonic) -> Result:
    """Pay duties and wait until a person must decide (see the module); return the status, or the inbox's lines.

    ``say(line, wake)`` is called for each line of the inbox as it happens (``wake``: a person
    must decide).

    :raises WatchTimeout: one match: ``timeout`` seconds passed first (exit 6).
    :raises UsageError: a bad interval or timeout; ``--as`` is needed; not a player of the match.
    :raises PbdError: one match: the document cannot be read at the first look; Google refuses the credentials.
    """
    if timeout is not None and timeout < 0:
        raise UsageError("--timeout takes a number of seconds, 0 or more")
    if doc_spec is None:
        return _inbox(player, timeout, interval, once, say or (lambda line, wake: None), sleep, clock)
    doc = open_document(doc_spec)
    first, longest = _interval(doc, interval)
    pause, start, skim = first, clock(), _Skim(first, queue=not once)
    seen, revision = object(), None
    while True:
        stamp = _stamp(doc)
        if stamp is None or stamp != seen or skim.due(clock):
            try:
                got = skim.look(doc, player, clock)
            except AuthError:
                raise
            except (BackendError, DocumentFormatError):
                if revision is None:
                    raise                              # not even the first look worked: say why
                pause = min(pause * 2, longest)        # Google busy, or a half-typed edit: look again later
            else:
                if once or _waits(got):
                    return status.status(doc_spec, got.name)
                seen = _stamp(doc)                     # (after our own write, if a duty was paid)
                if stamp is None:                      # Google: back off while nothing changes
                    pause = first if got.snap.revision != revision else min(pause * 2, longest)
                revision = got.snap.revision
        waited = clock() - start
        if timeout is not None and waited + 1e-9 >= timeout:
            raise WatchTimeout(f"nothing waits on {skim.name or player or 'you'} after {timeout:g} s of watching "
                               f"{doc.label}",
                               hint="pbd status DOC shows where the match stands")
        nap = skim.pause(clock, pause)
        sleep(min(nap, timeout - waited) if timeout is not None else nap)


class _Watched:
    """One seat of one match in the inbox: when to look next, what was said last."""

    def __init__(self, doc_spec: str, seat: str):
        self.spec, self.seat = doc_spec, seat
        self.doc = None
        self.stamp: object = object()
        self.due = 0.0
        self.pause = self.first = self.longest = 1.0
        self.revision = None
        self.said: str | None = None
        self.skim: _Skim | None = None


def _inbox(player: str | None, timeout: float | None, interval: float | None, once: bool, say, sleep,
           clock) -> Result:
    """Watch every match of this PBD_HOME (see the module); return every line said."""
    from pbd.matchlist import _read

    lines: list[str] = []

    def tell(line: str, wake: bool) -> None:
        lines.append(line)
        say(line, wake)

    watched = [_Watched(m["doc"], seat) for m in _read()["matches"] for seat in m["seats"]
               if player is None or seat.casefold() == player.casefold()]
    if not watched:
        raise UsageError("no match to watch in this PBD_HOME" + (f" for {player}" if player else ""),
                         hint="pbd new GAME DOC --as NAME, or pbd join DOC --as NAME")
    start = clock()
    while True:
        for w in watched:
            if clock() >= w.due:
                _inbox_look(w, interval, once, tell, clock)
        if once:
            return Result(lines or ["Nothing waits on you."], {"lines": lines})
        waited = clock() - start
        if timeout is not None and waited + 1e-9 >= timeout:
            return Result(lines + [f"(watched {len(watched)} seat(s) for {timeout:g} s)"], {"lines": lines})
        pause = max(0.0, min(w.due for w in watched) - clock())
        sleep(min(pause, timeout - waited) if timeout is not None else pause)


def _inbox_look(w: _Watched, interval: float | None, once: bool, tell, clock) -> None:
    """Look at one watched seat once: pay its duties, say (once) what a person must decide, or why it cannot
    (``once``: this is the only look, so the seat's work never waits for the seats before it)."""
    from pbd import match
    from pbd.errors import PbdError

    try:
        if w.doc is None:
            w.doc = open_document(w.spec)
            w.first, w.longest = _interval(w.doc, interval)
            w.pause, w.skim = w.first, _Skim(w.first, queue=not once)
        stamp = _stamp(w.doc)
        if stamp is not None and stamp == w.stamp and not w.skim.due(clock):
            w.due = clock() + w.skim.pause(clock, w.pause)
            return
        got = w.skim.look(w.doc, w.seat, clock)
    except PbdError as exc:
        line = f"{w.spec}: cannot be read ({exc.message})"
        if line != w.said:
            tell(line, False)
            w.said = line
        w.pause = min(w.pause * 2, w.longest)
        w.due = clock() + w.pause
        return
    for what in got.paid:
        tell(f"{got.game.title} on {w.spec}: {got.name}'s pbd {what}", False)
    waits = _waits(got)
    if waits is not None:                             # (None: what the last whole read said still stands)
        line = f"{got.game.title} on {w.spec}: {got.name}: {'; '.join(waits)}" if waits else None
        if line is not None and line != w.said:
            tell(line, True)
        w.said = line
    w.stamp = _stamp(w.doc)
    if w.stamp is None:                               # Google: back off while nothing changes
        w.pause = w.first if got.snap.revision != w.revision else min(w.pause * 2, w.longest)
        w.revision = got.snap.revision
    w.due = clock() + w.skim.pause(clock, w.pause)


def notify(text: str) -> None:
    """Show ``text`` as a desktop notification where the system offers one (notify-send, macOS); never fails.

    The text goes as an argument, never into a script: it holds names read from the document.
    """
    import shutil
    import subprocess
    import sys

    if sys.platform == "darwin" and shutil.which("osascript"):
        cmd = ["osascript", "-e", "on run argv", "-e", 'display notification (item 1 of argv) with title "pbd"',
               "-e", "end run", text]
    elif shutil.which("notify-send"):
        cmd = ["notify-send", "--", "pbd", text]
    else:
        return
    try:
        subprocess.run(cmd, timeout=5, check=False, capture_output=True)
    except (OSError, subprocess.SubprocessError):
        pass
