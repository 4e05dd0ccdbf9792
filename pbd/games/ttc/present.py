"""Twin Tower City for the player's eyes: the legal moves grouped by card, each with its outcome.

At a third card a side may play any Army Card replacing one or two warriors in many ways
(hundreds of moves in all); the text view gives one line per card: the ways, the side's
Power after the card (its range), and the best way.  ``legal --json`` keeps every move.
Pure functions: the outcome is the round's score with the card added, on a copy.
"""

from __future__ import annotations

import copy
import re

from pbd.errors import PbdError
from pbd.games.ttc import deal, notation, rules, score
from pbd.games.ttc.state import Play, State


def legal_text(state: State, player: str, moves: list[str]) -> list[str]:
    """Return the legal moves of ``player``, one line per card (or the moves as they are, outside a play)."""
    ph = rules.phase(state)
    if ph.name != "play":
        return list(moves)
    side = rules.side_of(state, player)
    before = _total(state, ph.round.plays, side)
    groups: dict[str, list[tuple[str, int | None]]] = {}
    for move in moves:
        m = re.match(r"^play (battle|army|warrior) (\d+)(?: replacing (.+))?$", move)
        if not m:
            groups.setdefault(move, [])
            continue
        key = f"{m.group(1)} {m.group(2)}" if m.group(1) != "battle" else "battle"
        groups.setdefault(key, []).append((m.group(3) or m.group(2), _after(state, player, side, move)))
    mine = side.capitalize()
    lines = [f"{mine} has {before} Power in round {ph.round.number} so far; card {ph.card} is yours to play:"]
    for key, items in groups.items():
        lines.append(_line(state, key, items, mine) if items else key)
    return lines


def _total(state: State, plays: list[Play], side: str) -> int | None:
    try:
        return score.score_round(plays, rules.catalogue(state), state.options, None).side(side).total
    except PbdError:
        return None


def _after(state: State, player: str, side: str, move: str) -> int | None:
    """Return ``side``'s Power once ``move`` is played (on a copy of the round), or None if it cannot be scored."""
    ph = rules.phase(state)
    cat = rules.catalogue(state)
    try:
        parsed = notation.parse(move)
        card = cat.card(parsed.card, parsed.kind)
        if card.kind == "battle":
            play = deal.battle_play(cat, card.id, side, player)
        else:
            play = rules._special(state, copy.deepcopy(ph.round), side, player, card, parsed, cat)
    except PbdError:
        return None
    return _total(state, [*ph.round.plays, play], side)


def _line(state: State, key: str, items: list[tuple[str, int | None]], mine: str) -> str:
    """Return one card's line: what it is, the ways to play it, the Power it brings and the best way."""
    values = [v for _, v in items if v is not None]
    span = "" if not values else f"{mine} {min(values)}" + (f"–{max(values)}" if max(values) != min(values) else "")
    if key == "battle":
        cards = " · ".join(f"{cid} → {v}" if v is not None else cid for cid, v in items)
        return f"play battle N — {mine}'s Power after each: {cards}"
    cat = rules.catalogue(state)
    kind, cid = key.split()
    card = cat.card(int(cid), kind)
    what = cat.describe(card).split(" · ", 2)[-1]
    if len(items) == 1:
        return f"play {key} replacing {items[0][0]} ({what}) — {span}"
    best = max(items, key=lambda it: -1 if it[1] is None else it[1])
    olds = list(dict.fromkeys(re.sub(r" with .*", "", part).strip() for way, _ in items for part in way.split(", ")))
    how = "1 or 2 of" if any(", " in way for way, _ in items) else "one of"
    return (f"play {key} ({what}) replacing {how} {', '.join(olds)} — {len(items)} ways, {span}; "
            f"best: replacing {best[0]}")




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
