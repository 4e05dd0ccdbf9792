"""``pbd check`` for C&C: every rule a board breaks, in the players' words."""

from __future__ import annotations

from collections import Counter

from pbd.games.cnc import rules
from pbd.games.cnc.cards import Catalogue
from pbd.games.cnc.state import HAND_LIMIT, Side, State

CARDS_PER_PLAYER = 51


def problems(state: State, cat: Catalogue) -> list[str]:
    """Return every rule the position breaks (empty if none)."""
    out = []
    for side in state.sides:
        out += side_problems(state, cat, side)
    if state.started and not state.result:
        for side in state.sides:
            reason = rules.losing_reason(state, cat, side)
            if reason:
                out.append(f"{side.name} has lost by {reason}, but no result is recorded")
            if side.cp >= rules.CONSTRUCTION_CP:
                out.append(f"{side.name} has won by Construction (CP {side.cp}), but no result is recorded")
    return out


def side_problems(state: State, cat: Catalogue, side: Side) -> list[str]:
    """Return the problems on one player's half of the board."""
    who = side.name
    out = []
    if side.ap < 0:
        out.append(f"{who} has {side.ap} AP; AP cannot be negative")
    porters = [c for c in side.cities if cat.get(c).kind == "porter"]
    if len(porters) != 1:
        out.append(f"{who} has {len(porters)} Porters in play; there is exactly one")
    for name, n in Counter(side.cities).items():
        if n > 1:
            out.append(f"{who} has {n} copies of {name} in play; only one of each City card at a time")
    for name in side.cities:
        if cat.get(name).kind not in ("city", "porter"):
            out.append(f"{name} is a {cat.get(name).kind} card, not a City card, but is in {who}'s City Cards")
    limit = rules.character_limit(state, cat, side)
    if len(side.characters) > limit:
        extra = "" if limit > rules.BASE_CHARACTER_LIMIT else " without MAC"
        out.append(f"{who} has {len(side.characters)} characters in play; the limit is {limit}{extra}")
    for ch in side.characters:
        card = cat.get(ch.name)
        if ch.hp > card.hp:
            out.append(f"{who}'s {ch.name} has HP {ch.hp}, above the card's maximum of {card.hp}")
        if ch.hp <= 0:
            out.append(f"{who}'s {ch.name} has HP {ch.hp}; a character at 0 HP goes to the discard pile")
        if ch.combo >= 3:
            out.append(f"{who}'s {ch.name} shows a level-{ch.combo} combo; the third attack fires the effect")
        if ch.combo and all(a.type == "Physical" for a in card.attacks):
            out.append(f"{who}'s {ch.name} shows a combo, but Physical attacks never combo")
    if len(side.hand) > HAND_LIMIT:
        out.append(f"{who} holds {len(side.hand)} cards; the hand limit is {HAND_LIMIT}")
    if state.meta.match_id:
        total = side.deck + len(side.hand) + len(side.cities) + len(side.characters) + len(side.discards)
        if total != CARDS_PER_PLAYER:
            out.append(f"{who}'s cards add up to {total} (deck {side.deck}, hand {len(side.hand)}, "
                       f"in play {len(side.cities) + len(side.characters)}, discards {len(side.discards)}), "
                       f"not {CARDS_PER_PLAYER}")
    return out
