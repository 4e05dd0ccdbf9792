"""Hand edits: a status or count on the board that the log does not explain, named by every command.

Anyone with the link can edit the shared document; ``pbd audit`` and ``pbd replay`` rebuild
the whole board from the log, which takes seconds in a long match.  So each seat's pbd
keeps, in its private state (``extra["checked"]``), the last position it checked: the
number and hash of the last log entry then, and the board text as it was.  On every
command only the log entries after it are replayed (through the game's ``replay`` hook,
from that board) and the result is compared with the board read now:

* a command that writes (``move``, ``draw``, ``roll``, ``undo``, ``reveal``) refuses, exit 3,
  naming each difference ("Ben's CP was changed by hand from 100 to 90");
* a command that only reads (``hand``, ``legal``, ``show``, ``check``, ...) prints the
  same sentences on stderr as warnings and carries on;
* a board that agrees with its log becomes the new checked position (so the next command
  replays only what came after it); a board that does not is never adopted, so the
  difference is named again by every command until someone puts it back.

Without a private record (a spectator), ``pbd check`` replays from the start; ``pbd show``
compares only when this machine holds a seat of the match.  Games that cannot replay their
log are not checked.
"""

from __future__ import annotations

from pbd import private
from pbd.errors import DocumentFormatError, GameBug, PbdError

#: The key of the checked position in a seat's private state (``Secrets.extra``).
KEY = "checked"

#: How fields of a game's ``describe()`` read in a sentence (also in ``pbd status``).
LABELS = {"cp": "CP", "ap": "AP", "ap_next": "AP next turn", "hp": "HP", "max_hp": "maximum HP",
           "deck": "deck count", "hand": "hand count", "held": "hand on the shared deck", "discards": "discards",
           "statuses": "statuses",
           "cities": "city cards", "characters": "characters", "to_move": "player to move", "turn": "turn number"}


#: How a field reads where its key alone would mislead (the whole key path, as :func:`_sentence` sees it).
PHRASES = {"basic_square held": "the Basic Square's hold count", "basic_square holder": "the Basic Square's holder",
           "points": "the act's acting points", "quiet_acts": "the count of quiet acts",
           **{f"act {k}": f"the act's {v}" for k, v in (
               ("scene", "scene"), ("roll", "roll"), ("played", "count of cards played"),
               ("recycled", "count of cards recycled"), ("replaced", "count of cards replaced"),
               ("advanced", "advance mark"), ("targeted", "targeting mark"), ("tolls", "tolls paid"))}}

#: what :func:`pbd.audit.rebuild` says when replaying a logged move writes other words than the log
REPLAY_DISAGREES = "replaying the move gives"


def words(key: str) -> str:
    """Return how a field of a game's ``describe()`` reads in a sentence (``ap_next`` -> ``AP next turn``)."""
    return LABELS.get(key, key.replace("_", " "))


def record(snap_text: str, log) -> dict:
    """Return the checked-position record of a board whose text is ``snap_text`` and whose log is ``log``."""
    return {"n": len(log), "hash": log[-1].hash if log else "", "text": snap_text}


def differences(game, board, text: str, rec: dict | None, parse=None, why: list[str] | None = None,
                kept=None) -> list[str] | None:
    """Return every difference between ``board`` and what its log gives, in words (None: cannot tell).

    ``rec`` is a checked-position record (:func:`record`); the log is replayed from it when
    the board's log still begins with it, else from the start.  ``parse`` reads the record's
    board (default ``game.parse``; the pipeline gives :func:`pbd.match.parse_board`, which keeps
    boards in PBD_HOME's cache).  When the replay from the start stops at an entry it cannot get
    past (None returned), ``why`` (a list, if given) gets a sentence naming that entry and why.
    ``kept`` (given by the pipeline: :func:`pbd.match.board_kept`) says whether ``parse`` finds a
    board's text in the cache: see :func:`_replay_from`.
    """
    if rec and rec.get("text") == text:
        return []
    start = _start(game, board, _replay_from(rec, kept), parse)
    rebuilt = _rebuild(game, board, start) if start is not None else None
    if rebuilt is None or rebuilt.problems:
        # a take-back of an entry before the record, or a game whose replay cannot resume from a
        # parsed board (a shared deck replayed symbolically): replay from the start
        rebuilt = _rebuild(game, board, None, why)
    if rebuilt is None or not board.meta.log:
        return None if rebuilt is None else []
    found = describe_differences(game.describe(rebuilt.state), game.describe(board))
    disagree = [p for p in rebuilt.problems if REPLAY_DISAGREES in p]
    if found and disagree:      # signed log entries the replay rewrites: the game's replay, not a person
        return [f"{game.title}'s replay disagrees with its move ({disagree[0]}): a bug in the game, "
                "not a hand edit"]
    return found


def _rebuild(game, board, start, why: list[str] | None = None):
    """Return the log replayed (from ``start``, or from the beginning), or None if it cannot be replayed to the end.

    ``why`` (a list, if given) gets the sentence of :func:`stopped` when the replay stops short.
    """
    from pbd import audit       # only when there is something to replay: a board already checked needs none

    try:
        rebuilt = audit.replay_log(game, board, {}, start, public=True)
    except GameBug:
        raise               # the game's own code crashed: a bug in the game, never swallowed (exit 70)
    except PbdError as exc:
        if why is not None:         # a replay that breaks on this board: pbd replay DOC says why
            why.append(stopped(f"the log cannot be replayed ({exc.message})"))
        return None
    if rebuilt is None:
        return None         # the game cannot replay its log
    if rebuilt.forged:
        raise DocumentFormatError("the log holds a move no honest pbd writes; nothing was written: "
                                  + "; ".join(rebuilt.forged), hint="see every problem with pbd audit DOC")
    if rebuilt.complete and rebuilt.state is not None:
        return rebuilt
    if why is not None:
        why.append(stopped(rebuilt.problems[-1] if rebuilt.problems else "the log cannot be replayed to its end",
                           rebuilt.out_of_sight))
    return None


#: how :func:`stopped` begins when the replay stopped at a card the document no longer shows (honest play leads
#: there: a note, not a problem)
OUT_OF_SIGHT = "not checked past"


def stopped(where: str, out_of_sight: bool = False) -> str:
    """Return the sentence saying that the hand-edit check's replay stopped short, ``where`` saying at which entry.

    The entries before it replayed as the rules allow; the board itself could not be compared with what the
    log gives, so no hand edit since is named, and the check vouches for nothing after that entry.  With
    ``out_of_sight`` the stop is no fault (a card the log opens has left the document since, as in honest
    play): the sentence begins with :data:`OUT_OF_SIGHT`.
    """
    if out_of_sight:
        return (f"{OUT_OF_SIGHT} {where}: that card has left the document since, and a replay without the "
                "players' seeds cannot read it")
    return (f"{where}: the board is checked against its log only up to there (a hand edit after it would not be "
            "named)")


def _replay_from(rec: dict | None, kept=None) -> dict | None:
    """Return the checked position to replay from: ``rec``, or the board read before the seat's last write.

    The board a write leaves (the record after :func:`landed`) was rendered, never parsed, by the
    command that wrote it, so the next command would parse it only to replay from it; the board
    that command read (``rec["before"]``, checked then, its log a beginning of the written one's)
    is in PBD_HOME's cache.  Replaying from it costs the seat's own entry once more, a fraction of
    a parse.  With ``kept`` not given, or the written board in the cache, or no earlier board: ``rec``.
    """
    before = rec.get("before") if rec else None
    if not before or kept is None or kept(rec.get("text", "")) or not kept(before.get("text", "")):
        return rec
    return before


def _start(game, board, rec: dict | None, parse=None):
    """Return the state to replay from: the record's board if this board's log extends it, else None."""
    log = board.meta.log
    if not rec or not rec.get("text"):
        return None
    n = int(rec.get("n", 0))
    if not 0 < n <= len(log) or log[n - 1].hash != rec.get("hash"):
        return None
    try:
        state = (parse or game.parse)(rec["text"])
    except PbdError:
        return None
    if len(state.meta.log) != n or (n and state.meta.log[-1].hash != rec.get("hash")):
        return None
    if not {p.casefold() for p in game.player_names(state)} <= {p.casefold() for p in game.player_names(board)}:
        return None         # a seat renamed since the record: replay from the start
    deck = getattr(state, "deck", None)
    if deck is not None and hasattr(deck, "oracle"):
        deck.oracle = getattr(board, "deck", None)      # a shared deck's cards turned up since, read from the board
    from pbd import audit

    for entry in log[n:]:
        m = audit.TAKEBACK_RE.match(entry.text)
        if m and int(m.group("a")) <= n:
            return None          # the take-back needs a board from before the record
    return state


#: The most differences named (the rest are counted; ``pbd replay DOC`` lists them all).
MAX_NAMED = 6
#: Fields derived from the rest of the board (a score): a difference there follows from another one.
_DERIVED = {"score", "leader", "finished"}


def describe_differences(want: dict, have: dict) -> list[str]:
    """Return each difference between the described board the log gives (``want``) and the one read (``have``).

    (The walk only reads the two: no copy is made, the log left out by key.)
    """
    want, have = ({k: v for k, v in d.items() if k != "log"} for d in (want, have))
    out: list[str] = []
    _walk([], want, have, out)
    if len(out) > MAX_NAMED:
        out = out[:MAX_NAMED] + [f"... and {len(out) - MAX_NAMED} more (pbd replay DOC lists every difference)"]
    return out


def _walk(owner: list[str], want, have, out: list[str], key: str = "") -> None:
    if _empty(want) and _empty(have):
        return          # nothing either way: a seat with no entry yet reads as one with an empty list
    if isinstance(want, dict) and isinstance(have, dict):
        keys = list(dict.fromkeys([*want, *have]))
        plain = [k for k in keys if k not in _DERIVED and want.get(k) != have.get(k)]
        for k in keys:
            if k not in _DERIVED or not plain:
                _walk(owner, want.get(k), have.get(k), out, f"{key} {k}" if key else k)
    elif _records(want) and _records(have) and len(want) == len(have) and want:
        labels = _labels(want)
        if labels != _labels(have):
            out.append(_sentence(owner, key, [x for x in labels], _labels(have)))
            return
        for label, w, h in zip(labels, want, have):
            _walk(owner + [label], w, h, out)
    elif _records(want) and _records(have) and want != have:
        out.append(_sentence(owner, key, _labels(want), _labels(have)))     # rows added or removed: named
    elif want != have:
        out.append(_sentence(owner, key, want, have))


def _empty(value) -> bool:
    """Return True for a field that holds nothing: None, or an empty list or mapping."""
    return value is None or (isinstance(value, (list, dict)) and not value)


def _records(value) -> bool:
    return isinstance(value, list) and all(isinstance(x, dict) for x in value)


def _labels(rows: list[dict]) -> list[str]:
    """Return how each row of a described list is named: its name (numbered if repeated), its round, or its place."""
    out, counts = [], {}
    for i, row in enumerate(rows, 1):
        if isinstance(row.get("name"), str):
            base = row["name"]
        elif "round" in row:
            base = f"round {row['round']}"
        else:
            base = f"#{i}"
        counts[base] = counts.get(base, 0) + 1
        out.append(base + (f" ({counts[base]})" if counts[base] > 1 else ""))
    return out


def _sentence(owner: list[str], key: str, want, have) -> str:
    whose = "".join(f"{o}'s " for o in owner)
    label = PHRASES.get(key) or " ".join(map(words, key.split(" ")))
    if isinstance(want, list) and isinstance(have, list) and all(isinstance(x, str) for x in want + have):
        added = [x for x in have if x not in want]
        gone = [x for x in want if x not in have]
        if added and not gone and owner:
            if key.endswith("statuses"):
                return f"{whose[:-3]} was marked {', '.join(added)} by hand (the log does not explain it)"
            return f"{whose}{label} gained {', '.join(added)} by hand (the log does not explain it)"
        if gone and not added and owner:
            return f"{whose}{label} lost {', '.join(gone)} by hand (the log does not explain it)"
    return f"{whose}{label} was changed by hand from {_shown(want)} to {_shown(have)}"


def _shown(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, list):
        text = "[" + ", ".join(map(str, value)) + "]" if value else "none"
    else:
        text = str(value)
    return text if len(text) <= 80 else text[:80] + "…"


# -- the pipeline check and the read-only comparisons ---------------------------------------

def check(turn, parse=None, kept=None) -> None:
    """Name every hand edit the log does not explain: refuse a write, warn a read (see the module).

    Registered in :data:`pbd.match.CHECKS`; runs with the player's private state attached.
    ``parse`` reads a board afresh from its text (default ``turn.game.parse``; the pipeline gives
    :func:`pbd.match.parse_board`: the board the command read is then not parsed a second time);
    ``kept`` says whether it finds a text in the cache (:func:`_replay_from`).

    :raises DocumentFormatError: (exit 3) a command that writes, on a board the log does not explain.
    """
    sec = turn.sec
    if sec is None or turn.snap is None:
        return
    text = turn.snap.text
    rec = sec.extra.get(KEY)
    if rec and rec.get("text") == text:
        return
    if _verified(text):         # this machine replayed exactly this board from the start and found it clean
        _checked(turn, record(text, turn.state.meta.log))
        return
    board = (parse or turn.game.parse)(text)
    found = differences(turn.game, board, text, rec, parse, kept=kept)
    if found is None:
        return
    if not found:
        _checked(turn, record(text, board.meta.log))
        return
    if getattr(turn, "reading", False):
        turn.warnings.extend(found)
        turn.unexplained = found
        return
    raise DocumentFormatError(
        "the board was changed by hand in a way the log does not explain; nothing was written:\n"
        + "\n".join(f"  - {p}" for p in found),
        hint="put it back as the log gives it (anyone can edit the document), or see every difference with "
             "pbd replay DOC")


def landed(sec, read_text: str, written_text: str, log) -> None:
    """After a write lands: if the board read was the checked one, the board written becomes it.

    (So the player's next command, if nobody moved meanwhile, compares nothing.)  The board read
    is kept beside it (``"before"``): the next command may replay from it (:func:`_replay_from`).
    """
    rec = sec.extra.get(KEY)
    if rec and rec.get("text") == read_text:
        before = {k: rec[k] for k in ("n", "hash", "text") if k in rec}
        sec.extra[KEY] = {**record(written_text, log), "before": before}


def _checked(turn, rec: dict) -> None:
    """Make ``rec`` the seat's checked position (kept with the command's private state; a read saves it now)."""
    turn.sec.extra[KEY] = rec
    if getattr(turn, "reading", False):
        _save(turn.sec, rec)


def _save(sec, rec: dict) -> None:
    """Keep ``rec`` as the seat's checked position (a read command: only this key of the private state changes)."""
    try:
        fresh = private.load(sec.match_id, sec.player)
        fresh.extra[KEY] = rec
        private.save(fresh)
    except PbdError:
        pass            # the record only saves time: the next command replays a little more


def observe(game, state, text: str, from_start: bool, parse=None, why: list[str] | None = None) -> list[str]:
    """Return the hand edits a read-only command names (no seat given): from a seat's record held here.

    With no seat of this match in PBD_HOME, the log is replayed from the start only if
    ``from_start`` (``pbd check``); otherwise nothing is compared.  A board found clean is
    remembered by its exact text (:func:`_mark_verified`), whoever looked: the next read of
    the same board replays nothing.  ``parse`` reads the board afresh (default ``game.parse``).
    ``why`` (a list, if given) gets a sentence when the log was replayed and could not be to its end
    (the board was not compared: :func:`stopped`), so ``pbd check`` never vouches for it in silence.
    """
    meta = getattr(state, "meta", None)
    if meta is None or not meta.match_id or not meta.log or _verified(text):
        return []
    rec = None
    held = False
    for name in game.player_names(state):
        try:
            if private.exists(meta.match_id, name):
                held = True
                rec = private.load(meta.match_id, name).extra.get(KEY) or rec
        except PbdError:
            continue
    if not held and not from_start:
        return []
    if rec and rec.get("text") == text:     # a seat here checked this very board
        _mark_verified(text)
        return []
    board = (parse or game.parse)(text)
    told: list[str] = []
    found = differences(game, board, text, rec, parse, told)
    if found == []:         # a replay that could not tell (None) vouches for nothing
        _mark_verified(text)
    elif found is None and why is not None:
        why.extend(told)        # (nothing when the game does not replay its log: it is never checked)
    return found or []


def _verified_marker(text: str) -> str:
    """Return the path of the marker saying this machine replayed a board with exactly ``text`` and found it clean."""
    import os

    from pbd import cache
    from pbd.digest import hexdigest

    return os.path.join(cache.folder(), "verified", hexdigest(text.encode("utf-8")))


def _verified(text: str) -> bool:
    """Return True if a spectator's full replay of a board with exactly this text found nothing (kept in PBD_HOME/cache).

    The text holds the whole log, so a marker can only vouch for a board that is byte for byte the one
    replayed; a spectator who checks the same board again (``pbd check`` in a loop) replays nothing.
    """
    import os

    return os.path.exists(_verified_marker(text))


def _mark_verified(text: str) -> None:
    """Remember that a full replay of the board with this text found nothing (best effort: only saves time)."""
    from pbd import cache, paths

    if not cache.writable():
        return
    try:
        paths.write_private(_verified_marker(text), b"")
    except OSError:
        pass
