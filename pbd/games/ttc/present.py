"""Twin Tower City for the player's eyes: the legal moves grouped by card, each with its outcome.

At a third card a side may play any Army Card replacing one or two warriors in many ways
(hundreds of moves in all); the text view gives one line per card: the ways, the side's
Power after the card (its range), and the best way.  ``legal --json`` keeps every move.
Pure functions: the outcome is the round's score with the card added, on a copy.
"""

from __future__ import annotations

import re

try:  # the C pickler alone (as pbd.cache)
    import _pickle
except ImportError:  # pragma: no cover - Pythons without the C accelerator
    import pickle as _pickle

from pbd.errors import PbdError
from pbd.games.ttc import deal, notation, rules, score
from pbd.games.ttc.state import Play, State


def legal_text(state: State, player: str, moves: list[str]) -> list[str]:
    """Return the legal moves of ``player``: one line per card with both sides' Power and the margin, and the best.

    While a side chooses the item to nullify, each choice with both sides' Power after it.
    Outside a play or a nullification, the moves as they are.
    """
    ph = rules.phase(state)
    side = rules.side_of(state, player) if ph.name in ("play", "nullify") else None
    if ph.name == "nullify" and side in ph.nullify:
        return _nullify_text(state, side, ph, moves)
    if ph.name != "play":
        return list(moves)
    before = _powers(state, ph.round.plays, side)
    frozen = _pickle.dumps(ph.round, protocol=5)           # each move's outcome is scored on a copy of the round
    groups: dict[str, list[tuple[str, tuple[int, int] | None, str]]] = {}
    for move in moves:
        m = re.match(r"^play (battle|army|warrior) (\d+)(?: replacing (.+))?$", move)
        if not m:
            groups.setdefault(move, [])
            continue
        key = f"{m.group(1)} {m.group(2)}" if m.group(1) != "battle" else "battle"
        groups.setdefault(key, []).append((m.group(3) or m.group(2), _after(state, player, side, move, ph, frozen), move))
    mine, theirs = side.capitalize(), rules.other(side).capitalize()
    lines = [f"{mine} has {before[0] if before else '?'} Power in round {ph.round.number} so far, "
             f"{theirs} {before[1] if before else '?'}; card {ph.card} is yours to play "
             f"(after each card: {mine} v {theirs}, and the margin):"]
    for key, items in groups.items():
        lines.append(_line(state, key, items, mine) if items else key)
    scored = [(after, move) for items in groups.values() for _, after, move in items if after is not None]
    if scored:
        after, move = max(scored, key=lambda it: (it[0][0] - it[0][1], it[0][0]))
        lines.append(f"Best move: {move} — {_vs(after, mine, theirs)}")
    return lines


def _nullify_text(state: State, side: str, ph, moves: list[str]) -> list[str]:
    """Return each ``nullify ITEM`` with both sides' Power once it is left out, and the best choice."""
    mine, theirs = side.capitalize(), rules.other(side).capitalize()
    lines = [f"{mine} has more items than warriors to wield them in round {ph.round.number}: choose the item "
             f"left out (after each: {mine} v {theirs}, and the margin):"]
    scored = []
    for move in moves:
        nullified = {k: list(v) for k, v in ph.round.nullified.items()}
        nullified.setdefault(side, []).append(move.removeprefix("nullify "))
        after = _powers(state, ph.round.plays, side, nullified)
        lines.append(f"  {move} — {_vs(after, mine, theirs)}" if after else f"  {move}")
        if after:
            scored.append((after, move))
    if scored:
        after, move = max(scored, key=lambda it: (it[0][0] - it[0][1], it[0][0]))
        lines.append(f"Best move: {move} — {_vs(after, mine, theirs)}")
    return lines


def _vs(after: tuple[int, int], mine: str, theirs: str) -> str:
    """Return ``Light 45 v Dark 40 (+5)``."""
    return f"{mine} {after[0]} v {theirs} {after[1]} ({after[0] - after[1]:+d})"


def _powers(state: State, plays: list[Play], side: str, nullified=None) -> tuple[int, int] | None:
    """Return ``(side's Power, the other side's)`` of ``plays`` (None if they cannot be scored)."""
    try:
        s = score.score_round(plays, rules.catalogue(state), state.options,
                              nullified if nullified is not None else None)
    except PbdError:
        return None
    return s.side(side).total, s.side(rules.other(side)).total


def _after(state: State, player: str, side: str, move: str, ph, frozen: bytes) -> tuple[int, int] | None:
    """Return both sides' Power once ``move`` is played (on a copy of the round), or None if it cannot be scored.

    ``ph`` is :func:`rules.phase` of ``state``, found once for all the moves (a late round's phase
    scores every round before it: a hundred moves asked it a hundred times); ``frozen`` is the
    round pickled, a copy of which (C pickle: several times faster than :func:`copy.deepcopy`)
    a card that replaces warriors is played on.
    """
    cat = rules.catalogue(state)
    try:
        parsed = notation.parse(move)
        card = cat.card(parsed.card, parsed.kind)
        if card.kind == "battle":
            play = deal.battle_play(cat, card.id, side, player)
        else:
            play = rules._special(state, _pickle.loads(frozen), side, player, card, parsed, cat)
    except PbdError:
        return None
    return _powers(state, [*ph.round.plays, play], side)


def _line(state: State, key: str, items: list, mine: str) -> str:
    """Return one card's line: what it is, the ways to play it, both sides' Power after it and its best way."""
    theirs = "Dark" if mine == "Light" else "Light"
    values = [v for _, v, _ in items if v is not None]
    margins = [a - b for a, b in values]
    span = "" if not values else f"margin {min(margins):+d}" + (f" to {max(margins):+d}" if max(margins) != min(margins)
                                                                else "")
    if key == "battle":
        cards = " · ".join(f"{cid} → {_vs(v, mine, theirs)}" if v is not None else cid for cid, v, _ in items)
        return f"play battle N — after each: {cards}"
    cat = rules.catalogue(state)
    kind, cid = key.split()
    card = cat.card(int(cid), kind)
    what = cat.describe(card).split(" · ", 2)[-1]
    if len(items) == 1:
        after = items[0][1]
        return f"play {key} replacing {items[0][0]} ({what}) — " + (_vs(after, mine, theirs) if after else "?")
    best = max(items, key=lambda it: (-10**9,) if it[1] is None else (it[1][0] - it[1][1], it[1][0]))
    olds = list(dict.fromkeys(re.sub(r" with .*", "", part).strip() for way, _, _ in items for part in way.split(", ")))
    how = "1 or 2 of" if any(", " in way for way, _, _ in items) else "one of"
    return (f"play {key} ({what}) replacing {how} {', '.join(olds)} — {len(items)} ways, {span}; "
            f"best: replacing {best[0]}" + (f": {_vs(best[1], mine, theirs)}" if best[1] else ""))


def card_line(state: State, text: str, player: str) -> str:
    """Return a hand card (as the hand lists it: ``battle 17 · ...``) with the Power of what it brings.

    A Battle Card shows the player's side first: ``battle 2 · light Don Triumph 9 + Liberty Bell 3 · dark ...``;
    an Army Card lists its warriors' Power.  Anything unexpected is returned as it was.
    """
    m = re.match(r"^(battle|army|warrior) (\d+)\b", text)
    if not m:
        return text
    try:
        cat = rules.catalogue(state)
        card = cat.card(int(m.group(2)), m.group(1))
    except PbdError:
        return text
    power = _power(cat)
    if card.kind == "battle":
        env = cat.environments.get(card.environment)
        halves = {"light": f"light {power(card.light_warrior)} + {power(card.light_item, 'items')}",
                  "dark": f"dark {power(card.dark_warrior)} + {power(card.dark_item, 'items')}"}
        mine = next((s.side for s in state.seats if s.name == player), None)
        order = [mine, "dark" if mine == "light" else "light"] if mine in halves else ["light", "dark"]
        tail = f" · env {card.environment}" + (f" ({env.side} +{env.power})" if env else "")
        return f"battle {card.id} · " + " · ".join(halves[s] for s in order) + tail
    if card.kind == "army":
        return f"army {card.id} · {card.side} · " + ", ".join(power(w) for w in card.warriors)
    return text


def _power(cat):
    def power(name: str, table: str = "warriors") -> str:
        found = getattr(cat, table).get(name)
        return f"{name} {found.power}" if found is not None else name
    return power
