"""C&C for the player's eyes: a hand card in one line, and the legal moves with their cost and outcome.

Pure functions over a state and the catalogue.  An outcome is found by trying the move on a
copy of the state (draws stay hidden; a die shows its first face, so an outcome that depends on
a roll says so instead of showing numbers).
"""

from __future__ import annotations

import re

from pbd.errors import PbdError
from pbd.games.base import Chance
from pbd.games.cnc import rules
from pbd.games.cnc.cards import Catalogue
from pbd.games.cnc.notation import parse_moves
from pbd.games.cnc.state import HIDDEN, State, clone, key_of

#: a one-line summary is cut to this many characters
SUMMARY_LIMIT = 110


def card_line(cat: Catalogue, name: str) -> str:
    """Return a hand card in one line: name, cost and what it is (``Spider-Man — 1 AP · Hero, 15 HP · ...``)."""
    if name not in cat:
        return name
    card = cat.get(name)
    if card.kind == "character":
        parts = [f"{card.klass}, {card.hp} HP"]
        parts += [f"{a.name} {a.damage} ({a.type}, {a.cost} AP)" for a in card.attacks]
        parts += [f"{b.name}" + (" (passive)" if b.passive else f" ({b.cost} AP)") for b in card.abilities]
    elif card.kind == "city":
        parts = ["City" + (f", +{card.cp} CP" if card.cp else ""), _sentence(card.text)]
    elif card.kind == "event":
        parts = ["Event", _sentence(card.text)]
    else:
        return f"{card.name} · {card.kind.capitalize()}"
    text = f"{card.name} — {card.cost} AP · " + " · ".join(p for p in parts if p)
    return text if len(text) <= SUMMARY_LIMIT else text[:SUMMARY_LIMIT - 1] + "…"


def _sentence(text: str) -> str:
    """Return the first sentence of a card text that is not its cost or CP (already shown)."""
    for sentence in re.split(r"(?<=[.!?])\s", " ".join(text.split()))[:6] if text else []:
        if not re.match(r"^(costs? \d+ AP|CP \d+|no CP value)\b", sentence, re.I):
            return sentence.rstrip(".")
    return ""


class _Dice(Chance):
    """Chance for a preview: draws stay hidden; every die shows its first face, and is counted."""

    def __init__(self, meta):
        super().__init__(meta, {})
        self.rolled = 0

    def draw(self, player: str, n: int = 1) -> list[str]:
        return [HIDDEN] * n

    def _roll(self, player, kind, sides, faces, purpose) -> int:
        self.rolled += 1
        return faces[0] if faces else 1


def outcome(state: State, cat: Catalogue, player: str, move: str) -> tuple[int, list[str]]:
    """Return ``(AP spent, what changes)`` of ``move`` tried on a copy of ``state``.

    :raises PbdError: the move is not legal now.
    """
    trial = clone(state)
    origin = {id(c): i for s in trial.sides for i, c in enumerate(s.characters)}   # who each copy was before
    dice = _Dice(trial.meta)
    rules.apply(rules.Ctx(trial, cat, dice, player), parse_moves(move)[0])
    me = state.index(player)
    spent = state.sides[me].ap - trial.sides[me].ap
    parsed = parse_moves(move)[0]
    printed = cat.get(parsed.card).cost if parsed.kind == "play" and parsed.card in cat else spent
    gained = [f"+{printed - spent} AP this turn"] if printed > spent else []
    if dice.rolled:
        return printed, gained + ["a die decides"]
    changes = _changes(state, trial, player, origin)
    if parsed.kind == "end" and trial.started and not trial.result:
        nxt = trial.current
        changes = [f"{nxt.name} to move with {nxt.ap} AP",
                   *(c for c in changes if not c.startswith(f"{nxt.name}'s AP"))]
    return printed, gained + changes


def _changes(before: State, after: State, player: str, origin: dict[int, int] | None = None) -> list[str]:
    """Return what differs between two states, in words (CP, HP, statuses, characters leaving play, the result).

    ``origin`` maps each character object of ``after`` (by ``id``) to its place on its side in
    ``before``: with two copies of a card in play, the one that left is named as the move named
    it (``Captain Cold``), not by the label the copy that stays takes afterwards.  Without it,
    characters are paired by label.
    """
    out = []
    for old, new in zip(before.sides, after.sides):
        if old.cp != new.cp:
            out.append(f"{old.name}'s CP {old.cp} → {new.cp}")
        if origin is None:
            now = {key_of(new.characters, i): c for i, c in enumerate(new.characters)}
        else:
            now = {key_of(old.characters, origin[id(c)]): c for c in new.characters if id(c) in origin}
        for i, c in enumerate(old.characters):
            key = key_of(old.characters, i)
            n = now.get(key)
            if n is None:
                gone = len(new.discards) > len(old.discards) and c.name in new.discards
                out.append(f"{key} HP {c.hp} → 0, defeated" if gone else f"{key} leaves play")
                continue
            if n.hp != c.hp:
                out.append(f"{key} HP {c.hp} → {n.hp}")
            out += [f"{key} {s}" for s in n.statuses if s not in c.statuses]
            out += [f"{key} no longer {s}" for s in c.statuses if s not in n.statuses]
        if old.name != player and old.ap != new.ap:
            out.append(f"{old.name}'s AP {old.ap} → {new.ap}")
        if old.ap_next != new.ap_next:
            out.append(f"{old.name}'s next turn AP {new.ap_next - old.ap_next:+d}")
        out += [f"{c} destroyed" for c in old.cities if c not in new.cities and c in new.discards]
        out += [f"+ {c}" for c in new.cities if c not in old.cities and old.name != player]
        if len(new.hand) > len(old.hand) and old.name == player:
            out.append(f"+{len(new.hand) - len(old.hand)} card(s) to your hand")
        if old.name != player and len(new.hand) < len(old.hand):
            out.append(f"{old.name} discards {len(old.hand) - len(new.hand)}")
    if after.result and not before.result:
        out.append(after.result)
    return out


def legal_text(state: State, cat: Catalogue, player: str, moves: list[str]) -> list[str]:
    """Return the legal moves grouped for the screen, each group with its AP cost and each target with its outcome.

    ``draw``, ``draw 2`` ... share a line; so do the targets of one play, attack or ability,
    and the cards one may withdraw or discard.
    """
    groups: dict[str, list[tuple[str, int, list[str]]]] = {}
    for move in moves:
        head, target = _head(move)
        try:
            cost, changes = outcome(state, cat, player, move)
        except PbdError:
            cost, changes = 0, []
        groups.setdefault(head, []).append((target, cost, changes))
    order = sorted(groups, key=lambda h: next((i for i, w in enumerate(ORDER) if re.search(w, h)), len(ORDER)))
    return [_group_line(head, groups[head]) for head in order]


#: the order of the groups on the screen: answers, the end, drawing, playing, attacks, abilities, taking back
ORDER = (r"^(accept|reject)", r"^end turn$", r"^draw$", r"^play ", r" attacks", r" uses ", r"^withdraw$",
         r"^discard$", r"^discard from hand$")


def _head(move: str) -> tuple[str, str]:
    """Return ``(group, target)`` of a legal move as :func:`pbd.games.cnc.candidates` writes them."""
    if m := re.match(r"^draw(?: (\d+))?$", move):
        return "draw", m.group(1) or "1"
    if m := re.match(r"^(discard) (.+) from hand$", move):
        return "discard from hand", m.group(2)
    if m := re.match(r"^(withdraw|discard) (.+)$", move):
        return m.group(1), m.group(2)
    if m := re.match(r"^(.+? attacks) (.+?)( with .+)?$", move):
        return m.group(1) + (m.group(3) or ""), m.group(2)
    if m := re.match(r"^(.+?) on (.+)$", move):
        return m.group(1), m.group(2)
    return move, ""


def _group_line(head: str, items: list[tuple[str, int, list[str]]]) -> str:
    """Return one line: the head, its cost (one figure, or per target when they differ), the targets and outcomes."""
    costs = {cost for _, cost, _ in items}
    cost = f"{costs.pop()} AP" if len(costs) == 1 else ""
    if cost == "0 AP" and head.startswith(("end turn", "accept", "reject")):
        cost = ""                                        # not an action that costs: no figure to show
    if head == "draw":
        counts = [t for t, _, _ in items]
        return f"draw {counts[0]}–{counts[-1]} — 1 AP a card" if len(counts) > 1 else "draw — 1 AP"
    if len(items) == 1 and not items[0][0]:
        _, _, changes = items[0]
        return head + _tail([cost] if cost else [], changes)
    if head in ("withdraw", "discard", "discard from hand"):
        return f"{head} {' | '.join(t for t, _, _ in items)}" + (f" — {cost}" if cost else "")
    parts = []
    for target, each, changes in items:
        own = [c[len(target) + 1:] if c.startswith(target + " ") else c for c in changes]
        extra = [] if cost else [f"{each} AP"]
        parts.append(target + (f" ({', '.join(extra + own)})" if extra or own else ""))
    return f"{head} — {cost + ': ' if cost else ''}" + " · ".join(parts)


def _tail(first: list[str], changes: list[str]) -> str:
    words = first + changes
    return " — " + ", ".join(words) if words else ""
