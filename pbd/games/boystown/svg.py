"""A picture of a Boys' Town table as SVG (standard library only), to paste into chat.

:func:`svg` draws what the board says: a header with the round and whose turn it is (or the
question a player must answer, or the result), the draw and discard piles with the top of
the discard pile, then one band per player — name, hand size, turns taken, the Town's TP —
with each Resident as a card showing its AP and TP as modified, and the battle in progress.
Every text comes from the document, which anyone can edit: it is escaped
and cut to a bounded length (:mod:`pbd.picture`).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from pbd.games.boystown import board, effects, rules
from pbd.games.boystown.state import Seat, State
from pbd.picture import cut as _cut
from pbd.picture import text as _text

WIDTH = 960
CARD_W, CARD_H, GAP = 140, 58, 10
PER_ROW = (WIDTH - 28) // (CARD_W + GAP)
ROWS = 2


def svg(state: State) -> str:
    """Return an SVG drawing of ``state``: header, piles, one band per player in seat order, the battle."""
    cat = _catalogue(state)
    people = state.people or []
    bands = [_band_height(s) for s in people]
    battle = 60 if state.battle else 0
    height = 96 + sum(bands) + battle + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{height}" fill="#fbfaf6"/>',
           _text(10, 26, f"Boys' Town · match {state.meta.match_id}", 18, bold=True),
           _text(10, 50, _headline(state), 15, bold=True, fill="#b71c1c" if state.result else "#1a237e"),
           _text(10, 74, _piles(state), 13)]
    y = 90
    for seat, h in zip(people, bands):
        out += _band(state, seat, y, h, cat)
        y += h
    if state.battle:
        out += _battle(state, y)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _catalogue(state: State):
    try:
        return rules.cat(state)
    except Exception:   # an unknown custom catalogue: draw the names the document gives
        return None


def _headline(state: State) -> str:
    """Return the round and whose turn it is, the questions asked, or the result."""
    if state.result:
        return f"Result: {state.result}"
    line = (f"Round {state.round} · " if state.round else "") + rules.whose_move(state)
    asked = [f"{d.seat}: {d.prompt}" for d in state.decisions[1:3]]
    return " · ".join([line, *(f"then {a}" for a in asked)])


def _piles(state: State) -> str:
    return board.piles_line(state) if state.deck is not None else "The deck is not dealt yet"


def _band_height(seat: Seat) -> int:
    rows = min(ROWS, max(1, -(-len(seat.town) // PER_ROW)))
    return 44 + rows * (CARD_H + 8) + 6


def _band(state: State, seat: Seat, y: int, height: int, cat) -> list[str]:
    """Return one player's band: the name line (hand, turns, Town TP), then the Residents as cards."""
    moving = not state.result and state.mover == seat.name
    asked = any(d.seat == seat.name for d in state.decisions)
    shown = [(r, _resident(state, cat, seat.name, r)) for r in seat.town]
    town_tp = sum(tp for _, (_, tp) in shown if tp is not None)
    head = (f"{seat.name} · hand {rules.hand_size(state, seat.name)} · turns {seat.turns}"
            f" · Town {town_tp} TP" + (" · to move" if moving else "") + (" · to answer" if asked else ""))
    out = [f'<g class="player" data-name={quoteattr(_cut(seat.name))}>',
           f'<rect x="4" y="{y + 2}" width="{WIDTH - 8}" height="{height - 4}" rx="8" '
           f'fill="{"#eef3ff" if moving or asked else "#ffffff"}" stroke="{"#1a237e" if moving else "#bbbbbb"}"/>',
           _text(14, y + 26, head, 15, bold=True)]
    for i, (r, (ap, tp)) in enumerate(shown[:ROWS * PER_ROW]):
        x = 14 + (i % PER_ROW) * (CARD_W + GAP)
        out += _card(r.name, r.slot, ap, tp, x, y + 38 + (i // PER_ROW) * (CARD_H + 8))
    if len(shown) > ROWS * PER_ROW:
        out.append(_text(WIDTH - 170, y + 26, f"+{len(shown) - ROWS * PER_ROW} more Residents", 12))
    if not shown:
        out.append(_text(14, y + 60, "No Residents yet", 13, fill="#777777"))
    out.append("</g>")
    return out


def _resident(state: State, cat, seat: str, r) -> tuple[int | None, int | None]:
    """Return a Resident's AP and TP as modified (None where the catalogue does not know the card)."""
    card = cat.cards.get(r.name) if cat else None
    if card is None:
        return None, None
    ap = effects.resident_ap(state, cat, seat, r, card).value
    return ap, card.tp + effects.resident_tp(state, cat, seat, r, card).value


def _card(name: str, slot: int, ap, tp, x: int, y: int) -> list[str]:
    figures = f"AP {'?' if ap is None else ap} · TP {'?' if tp is None else tp}"
    return [f'<g class="resident" data-name={quoteattr(_cut(name))}>',
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#ffffff" stroke="#8d6e63" '
            'stroke-width="2"/>',
            _text(x + 6, y + 18, _cut(name, 19), 12, bold=True),
            _text(x + 6, y + 36, figures, 12),
            _text(x + 6, y + 51, f"#{slot}", 10, fill="#777777"),
            "</g>"]


def _battle(state: State, y: int) -> list[str]:
    b = state.battle
    sides = []
    for who, slot, name, commit in ((b.attacker, b.attack_slot, b.attack_card, b.attack_commit),
                                    (b.defender, b.defend_slot, b.defend_card, b.defend_commit)):
        shown = name or f"#{slot}" if slot is not None else "face down" if commit else "to choose"
        sides.append(f"{who}: {shown}")
    return [f'<rect x="4" y="{y + 2}" width="{WIDTH - 8}" height="52" rx="8" fill="#fff3e0" stroke="#e65100"/>',
            _text(14, y + 24, f"Battle: {b.attacker} attacks {b.defender} from {b.source} · {b.stage}", 14, bold=True),
            _text(14, y + 44, " · ".join(sides), 13)]
