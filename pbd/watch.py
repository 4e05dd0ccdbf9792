"""``pbd watch DOC``: wait politely until it is my turn or something waits on me, then say what changed.

A local file is looked at every second or so (its size and modification time; it is read
only when they change).  A Google Doc is read at most every 10 seconds, and less often
(doubling up to a minute) while nothing changes or Google is busy: a handful of reads a
minute, far inside the quota of 300.  Nothing is ever written to the document; the
summary at the end is :func:`pbd.status.status`'s (which remembers what was seen).
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


def _look(doc, doc_spec: str, name: str | None) -> tuple[str, bool, str]:
    """Read the match once; return (the player's name, whether something waits on them or the match is over,
    the document's revision).

    :raises PbdError: the document cannot be read or parsed; the player is not in the match.
    """
    from pbd import match

    snap, game, state = match.load(doc)
    match._need_match(state, doc.label)
    name = match._seat(game, state, name) if name else status.whoami(doc_spec)
    return name, bool(game.outcome(state) or status.waiting(game, state, name)), snap.revision


def watch(doc_spec: str, player: str | None = None, timeout: float | None = None, interval: float | None = None,
          sleep=time.sleep, clock=time.monotonic) -> Result:
    """Wait until it is the player's turn, something waits on them, or the match is over; return the status.

    :raises WatchTimeout: ``timeout`` seconds passed first (exit 6).
    :raises UsageError: a bad interval or timeout; ``--as`` is needed; not a player of the match.
    :raises PbdError: the document cannot be read at the first look; Google refuses the credentials.
    """
    if timeout is not None and timeout < 0:
        raise UsageError("--timeout takes a number of seconds, 0 or more")
    doc = open_document(doc_spec)
    first, longest = _interval(doc, interval)
    pause, start, name = first, clock(), player
    seen, revision = object(), None
    while True:
        stamp = _stamp(doc)
        if stamp is None or stamp != seen:
            try:
                name, ready, now = _look(doc, doc_spec, name)
            except AuthError:
                raise
            except (BackendError, DocumentFormatError):
                if revision is None:
                    raise                              # not even the first look worked: say why
                pause = min(pause * 2, longest)        # Google busy, or a half-typed edit: look again later
            else:
                if ready:
                    return status.status(doc_spec, name)
                seen = stamp
                if stamp is None:                      # Google: back off while nothing changes
                    pause = first if now != revision else min(pause * 2, longest)
                revision = now
        waited = clock() - start
        if timeout is not None and waited + 1e-9 >= timeout:
            raise WatchTimeout(f"nothing waits on {name or 'you'} after {timeout:g} s of watching {doc.label}",
                               hint="pbd status DOC shows where the match stands")
        sleep(min(pause, timeout - waited) if timeout is not None else pause)


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
