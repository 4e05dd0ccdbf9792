"""My matches: which matches this machine plays, whose turn it is, and what changed since I last looked.

pbd remembers each match a player creates, joins or moves in (the document, the match id,
the game and the seats held here) in ``PBD_HOME/my-matches`` (JSON, 0600, folders 0700),
together with the log position each seat last saw.  ``pbd status`` lists them;
``pbd status DOC`` explains one.  Like any pbd command, ``status`` first does the work the
seat's pbd owes on a match (unlocks, shuffle passes: :func:`pbd.match.pay_duties`), so "your
move" is said only when a person must decide; that is the only write it makes.
"""

from __future__ import annotations

from pbd import private
from pbd.errors import BackendError, PbdError, UsageError
# the list of matches itself: in pbd.matchlist, which a move updates without loading this module
from pbd.matchlist import REGISTRY, _entry, _read, doc_key, remember, remembered_documents  # noqa: F401
from pbd.result import Result

def seats_here(doc, state) -> list[str]:
    """Return the seats of the match on ``doc`` that this machine holds (registry, else private state files)."""
    entry = _entry(_read(), doc_key(doc), state.meta.match_id)
    names = list(entry["seats"]) if entry else []
    for name in _player_names(state):
        if name not in names and state.meta.match_id and private.exists(state.meta.match_id, name):
            names.append(name)
    return [n for n in _player_names(state) if n.casefold() in {x.casefold() for x in names}]


def _player_names(state) -> list[str]:
    from pbd import games

    try:
        return list(games.get(state.meta.game).player_names(state))
    except (PbdError, NotImplementedError):
        return [p.name for p in state.meta.fairplay]


def whoami(doc_spec: str) -> str:
    """Return the one seat this machine holds in the match on ``doc_spec`` (for a command given no ``--as``).

    :raises UsageError: this machine holds no seat there, or several (listing them).
    :raises PbdError: the document cannot be read.
    """
    from pbd import match
    from pbd.documents import open_document

    doc = open_document(doc_spec)
    known = [m for m in _read()["matches"] if m["doc"] == doc_key(doc)]
    if len(known) == 1 and len(known[0]["seats"]) == 1:
        return known[0]["seats"][0]
    _, _, state = match.load(doc)
    mine = seats_here(doc, state)
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise UsageError(f"no seat of the match on {doc.label} is played from this PBD_HOME, so --as NAME is needed",
                         hint="players: " + ", ".join(_player_names(state)))
    raise UsageError(f"this PBD_HOME holds {len(mine)} seats of the match on {doc.label}: {', '.join(mine)}; "
                     "say which with --as NAME")


# -- what waits on a seat -------------------------------------------------------------------

def waiting(game, state, name: str) -> list[str]:
    """Return what waits on ``name`` now, in words (empty: nothing): pending items and decisions, else their move."""
    if game.outcome(state):
        return []
    out = []
    view = game.view(state)
    for p in view.get("pending") or ():
        if isinstance(p, dict) and str(p.get("player", "")).casefold() == name.casefold():
            what = " ".join(str(p[k]) for k in ("kind", "card") if p.get(k)) or "a decision"
            out.append(f"pending: {what}" + (f" ({p['source']})" if p.get("source") else ""))
    for d in view.get("decisions") or ():
        if isinstance(d, dict) and str(d.get("seat", "")).casefold() == name.casefold() and d.get("prompt"):
            out.append(f"decide: {d['prompt']}")
    waits_on = getattr(game, "roll_waits_on", lambda state: [])(state)
    if not out and waits_on and game.awaited_roll(state)[0].casefold() == name.casefold():
        out.append("your roll waits on another player's random value (their pbd publishes it; pbd watch at once)")
    if not out and name.casefold() in (n.casefold() for n in view.get("to_move") or ()):
        turn = view.get("turn")
        if game.pending(state, name) and isinstance(turn, str) and turn.casefold() != name.casefold():
            out.append("your pbd owes work on the deck (pbd watch does it at once; so does any pbd command here)")
        else:
            out.append("your move")
    return list(dict.fromkeys(out))


def _line(entry: dict, game, state, edits: list[str] = ()) -> tuple[str, dict]:
    """Return one match's line of ``pbd status`` and its data (``edits``: the hand edits the log does not explain)."""
    view = game.view(state)
    seats = [s for s in entry["seats"]]
    others = [n for n in game.player_names(state) if n.casefold() not in {s.casefold() for s in seats}]
    waits = {s: waiting(game, state, s) for s in seats}
    turn = " ".join(game.status(state))
    mine = "; ".join(f"{s}: {', '.join(w)}" if len(seats) > 1 else ", ".join(w) for s, w in waits.items() if w)
    text = (f"{game.title} · {', '.join(seats)} vs {', '.join(others) or ('(no opponent yet)' if len(seats) < 2 else 'each other')} · {turn}"
            + (f" · waiting on you: {mine}" if mine else "")
            + (f" · changed by hand, the log does not explain it: {'; '.join(edits)}" if edits else "")
            + f" · {entry['doc']}")
    return text, {"doc": entry["doc"], "match": entry.get("match"), "game": game.name, "seats": seats,
                  "opponents": others, "to_move": view.get("to_move"), "result": view.get("result"),
                  "status": game.status(state), "waiting": waits, "hand_edits": list(edits)}


def status_all() -> Result:
    """List every match this machine plays: game, opponents, whose turn, what waits on me.

    A document that cannot be read is reported on its line; the others are still listed.
    """
    from pbd import fairplay_checks, match
    from pbd.documents import open_document

    entries = _read()["matches"]
    if not entries:
        return Result(["You have no matches in this PBD_HOME yet (pbd new GAME DOC --as NAME, or pbd join DOC "
                       "--as NAME)."], {"matches": []})
    lines, rows = [], []
    for entry in entries:
        try:
            doc = open_document(entry["doc"])
            for seat in entry["seats"]:
                match.pay_duties(doc, seat)
            snap, game, state = match.load(doc)
            fairplay_checks.verify_signatures(state)
            if state.meta.match_id != entry.get("match"):
                raise UsageError(f"it now holds another match ({state.meta.match_id or 'none'}, not "
                                 f"{entry.get('match')})")
            text, row = _line(entry, game, state, match._hand_edits(game, doc, snap.text, False, state))
            from pbd import forfeit

            held = forfeit.waiting_line(game, state, doc)
            if held:
                text, row["held_up"] = f"{text} · {held[0].lower()}{held[1:]}", held
        except PbdError as exc:
            text = f"{entry['doc']}: cannot be read ({exc.message})"
            row = {"doc": entry["doc"], "match": entry.get("match"), "error": exc.message}
        lines.append(text)
        rows.append(row)
    return Result(lines, {"matches": rows})


# -- one match in detail ---------------------------------------------------------------------

def _value(v) -> str | None:
    """Return a public value of a seat in words: a number or word, or a list of names (with HP if any)."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, str)):
        return str(v)
    if isinstance(v, list):
        names = []
        for item in v:
            if isinstance(item, dict) and item.get("name"):
                hp = f" {item['hp']}/{item['max_hp']} HP" if "hp" in item and "max_hp" in item else (
                    f" {item['hp']} HP" if "hp" in item else "")
                extra = f" ({', '.join(map(str, item['statuses']))})" if item.get("statuses") else ""
                names.append(f"{item['name']}{hp}{extra}")
            elif isinstance(item, (str, int)):
                names.append(str(item))
        return ", ".join(names) if names else None
    return None


#: fields a seat's line leaves out while they are 0 (a change to come, not a number worth reading every time)
QUIET_WHEN_ZERO = frozenset({"ap_next"})


def _resources(view: dict, name: str) -> str:
    """Return a seat's public numbers and cards from the game's view ("CP 100 · AP 3 · hand count 5 · ...")."""
    for p in view.get("players") or ():
        if isinstance(p, dict) and str(p.get("name", "")).casefold() == name.casefold():
            from pbd.handedits import words

            parts = [(words(k), _value(v)) for k, v in p.items() if k not in ("name", "seat", "key")
                     and not (k in QUIET_WHEN_ZERO and v == 0)]
            return " · ".join(f"{k} {v}" for k, v in parts if v)
    return ""


def _hand(game, state, name: str) -> tuple[list[str], dict]:
    """Return the seat's hand lines and data, read from PBD_HOME without changing anything."""
    try:
        sec = private.load(state.meta.match_id, name)
        game.attach(state, sec)
        data = game.hand(state, sec)
    except PbdError as exc:
        return [f"Your hand: cannot be read here ({exc.message})"], {}
    cards = data.get("hand") or []
    text = ", ".join(map(str, cards))
    if len(text) <= 100:
        lines = [f"Your hand ({len(cards)}): " + (text or "(empty)")]
    else:
        lines = [f"Your hand ({len(cards)}):", *(f"  - {c}" for c in cards)]
    if data.get("note"):
        lines.append(f"  ({data['note']})")
    return lines, data


def changes(state, name: str, seen: int | None) -> list[dict]:
    """Return the log entries written by others after position ``seen`` (None: the last 5 of theirs)."""
    log = state.meta.log
    theirs = [e for e in log if e.player.casefold() != name.casefold()]
    if seen is None:
        return [{"n": e.number, "player": e.player, "text": e.text} for e in theirs[-5:]]
    return [{"n": e.number, "player": e.player, "text": e.text} for e in theirs if e.number > seen]


def summary(doc, game, state, name: str, seen: int | None, edits: list[str] = ()) -> tuple[list[str], dict]:
    """Return the status of one seat: whose turn, what waits on it, changes since ``seen``, resources, hand.

    ``edits`` are the hand edits the log does not explain (:mod:`pbd.handedits`): named after
    the numbers they touch, so a count nobody played is never read without a word.
    """
    moved = changes(state, name, seen)
    waits = waiting(game, state, name)
    from pbd import forfeit

    lines = [f"{game.title} on {doc.label} · you are {name}", *game.status(state)]
    held = forfeit.waiting_line(game, state, doc)
    if held:
        lines.append(held)
    lines.append("Waiting on you: " + ("; ".join(waits) if waits else "nothing"))
    if seen is None:
        lines.append("The others' latest moves:" if moved else "The others have not moved yet.")
    else:
        lines.append(f"Since your last look (log entry {seen}):" if moved else
                     f"Nothing new since your last look (log entry {seen}).")
    lines += [f"  {m['n']}. {m['player']}: {m['text']}" for m in moved]
    view = game.view(state)             # (a game's view of a 6-seat board costs a command about 1 ms: made once)
    res = _resources(view, name)
    if res:
        lines.append(f"You: {res}")
    for other in game.player_names(state):
        theirs = _resources(view, other) if other.casefold() != name.casefold() else ""
        if theirs:
            lines.append(f"{other}: {theirs}")
    if edits:
        lines.append("Changed by hand (the log does not explain it; put it back as the log gives it, "
                     "pbd replay DOC lists every difference):")
        lines += [f"  - {e}" for e in edits]
    hand_lines, hand = _hand(game, state, name)
    lines += hand_lines
    view = game.view(state)             # (again: the seat's hand is attached now)
    data = {"game": game.name, "doc": doc.label, "player": name, "status": game.status(state),
            "to_move": view.get("to_move"), "result": game.outcome(state), "waiting": waits,
            "changes": moved, "hand": hand.get("hand"), "log": len(state.meta.log), "held_up": held or None,
            "players": view.get("players"), "hand_edits": list(edits)}
    return lines, data


def status(doc_spec: str | None, player: str | None = None, adopt: bool = False) -> Result:
    """Return ``pbd status``: every match (no ``doc_spec``), or what changed in one since I last looked.

    Reading one match remembers how far its log was seen (in PBD_HOME).  The document is
    written only to do the work the seat's pbd owes there (:func:`pbd.match.pay_duties`).  A
    document holding a match this machine plays on another document (a copy) is named with both
    and never written; ``adopt`` makes it the match's document from now on.  A document holding
    an entry whose signature fails is refused (listed as unreadable, among every match).

    :raises UsageError: ``--as`` is needed (several seats here, or none), or names no player.
    :raises PbdError: the document cannot be read or parsed.
    """
    if doc_spec is None:
        return status_all()
    from pbd import fairplay_checks, match
    from pbd.documents import open_document
    from pbd.matchlist import adopt as adopt_here, elsewhere

    doc = open_document(doc_spec)
    snap, game, state = match.load(doc)
    match._need_match(state, doc.label)
    fairplay_checks.verify_signatures(state)        # (a forged entry is never listed as a player's move)
    name = match._seat(game, state, player) if player else whoami(doc_spec)
    others = elsewhere(doc, state.meta.match_id, name)
    paid: list[str] = []
    if not others or adopt:
        if others:
            dropped = adopt_here(doc, game, state, name)
        name, paid = match.pay_duties(doc, name)
        if paid:
            snap, game, state = match.load(doc)
    entry = _entry(_read(), doc_key(doc), state.meta.match_id)
    seen = (entry or {}).get("seen", {}).get(name.casefold())
    lines, data = summary(doc, game, state, name, seen, match._hand_edits(game, doc, snap.text, False, state))
    data["elsewhere"] = others if not adopt else []
    if paid:
        lines.insert(1, f"Your pbd just did what it owed here: {'; '.join(paid)}.")
    if others and not adopt:
        lines += [f"Copy: {name} plays match {state.meta.match_id} on {' and '.join(others)}, not on {doc.label}; "
                  "pbd refuses your commands here and writes nothing to it",
                  f"  if this document is the match now: pbd status {doc.label} --as {name} --adopt"]
        return Result(lines, data)
    try:
        if others:
            lines.append(f"Adopted: {doc.label} is now the document of match {state.meta.match_id} for {name} "
                         f"(instead of {' and '.join(dropped)})")
        remember(doc, game, state, name, len(state.meta.log))
    except BackendError as exc:
        lines.append(f"(warning: {exc.message}; the next status shows these moves again)")
    return Result(lines, data)
