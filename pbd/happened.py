"""Say what happened: a private summary of what a command did for the player, and its ``--json`` shape.

A command that changes the match (``move``, ``draw``, ``roll``) prints its public log lines;
:func:`wrap` adds what only this player may see or would otherwise work out by hand: the
cards they drew ("You drew Batman, Port-In Wave"), every die rolled with what it was for,
and who is to move next ("Ben to move with 3 AP").  The same facts, with the new log
entries, are the stable ``--json`` shape documented in the README (``move``/``draw``/``roll``):

``{"player", "lines", "log": [{"n", "player", "text"}], "drew": [card], "rolls": [{"die", "face",
"purpose"}], "hand": [card] | null, "status": [line], "to_move": [name], "result": str | null}``
(``roll`` adds ``dice``, ``faces`` and ``total``).
"""

from __future__ import annotations

from collections import Counter

from pbd import fairplay
from pbd.errors import PbdError
from pbd.result import Result


def _hand(game, state, chance, name: str) -> list[str] | None:
    """Return the player's hand as their pbd sees it now (None if the game cannot say)."""
    sec = chance.secrets.get(name.casefold()) if chance is not None else None
    if sec is None:
        return None
    try:
        return [str(c) for c in game.hand(state, sec).get("hand") or []]
    except (PbdError, NotImplementedError, AttributeError, KeyError, TypeError):
        return None


def _drawn(chance, name: str, before: int) -> list[str]:
    """Return the cards drawn from the player's own deck since ``before`` positions had been drawn."""
    sec = chance.secrets.get(name.casefold()) if chance is not None else None
    if sec is None:
        return []
    return [sec.deck[pos - 1] for pos in sec.drawn[before:] if 0 < pos <= len(sec.deck)]


def _gained(before: list[str] | None, after: list[str] | None) -> list[str]:
    """Return the cards in ``after`` that were not in ``before`` (as a multiset)."""
    if before is None or after is None:
        return []
    extra = Counter(after) - Counter(before)
    out = []
    for card in after:
        if extra[card] > 0:
            out.append(card)
            extra[card] -= 1
    return out


def _rolls(entries, name: str) -> list[dict]:
    """Return every die the player rolled in ``entries``: its faces, the face and what it was for."""
    out = []
    for e in entries:
        for ev in e.events:
            if ev.kind != "draw" and ev.player.casefold() == name.casefold():
                purpose = ev.purpose or ("a free roll (pbd roll)" if ev.kind == "free" else "your move")
                out.append({"die": fairplay.die_spec(ev.faces), "face": ev.face, "purpose": purpose,
                            "entry": e.number})
    return out


def summary(game, state, name: str, drew: list[str], rolls: list[dict]) -> list[str]:
    """Return the private lines: what the player drew, what they rolled and for what, who moves next."""
    lines = []
    if drew:
        lines.append(f"You drew {', '.join(drew)}.")
    for r in rolls:
        if r["purpose"] == "your move" and not game.unnamed_roll:
            continue                                        # the table's own pick (2Xd6's pile), not a die to read
        if not r["purpose"].startswith("a free roll"):     # a free roll's own log line says it all
            lines.append(f"You rolled {r['die']}: {r['face']} (for {r['purpose']}).")
    lines += [f"Now: {line}" for line in game.status(state)]
    return lines


def wrap(step):
    """Return ``step(game, state, name, chance)`` that also says privately what happened, with JSON data."""

    def wrapped(game, state, name, chance):
        logged = len(state.meta.log)
        sec = chance.secrets.get(name.casefold()) if chance is not None else None
        drawn_before = len(sec.drawn) if sec is not None else 0
        hand_before = _hand(game, state, chance, name)
        result = step(game, state, name, chance)
        hand_after = _hand(game, state, chance, name)
        entries = state.meta.log[logged:]
        drew = _drawn(chance, name, drawn_before) or _gained(hand_before, hand_after)
        rolls = _rolls(entries, name)
        private = summary(game, state, name, drew, rolls)
        data = {"player": name, "lines": list(result.lines),
                "log": [{"n": e.number, "player": e.player, "text": e.text} for e in entries],
                "drew": drew, "rolls": rolls, "hand": hand_after, "status": game.status(state),
                "to_move": game.actors(state), "result": game.outcome(state)}
        if isinstance(result.data, dict):
            data.update({k: v for k, v in result.data.items() if k not in data})
        return Result(list(result.lines) + private, data, location=result.location)

    return wrapped
