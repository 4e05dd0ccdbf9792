"""A picture of a C&C board as SVG (standard library only), to paste into chat.

:func:`svg` draws the two halves as the document has them (player 1 on top): each player's
name, CP and AP, hand and deck counts, discards toward Attrition, cities, and each character
as a card framed in its class colour with HP/max HP, a health bar and its statuses; the
header says whose turn it is (or the result).  Every text comes from the document, which
anyone can edit: it is escaped and cut to a bounded length (:mod:`pbd.picture`).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from pbd.games.cnc.cards import Catalogue
from pbd.games.cnc.state import ATTRITION_LIMIT, Side, State, key_of
from pbd.picture import cut as _cut
from pbd.picture import text as _text

WIDTH = 960
CARD_W, CARD_H, GAP = 132, 92, 10
HALF = 250
#: the rulebook's class colours, as the document's styles name them
COLOURS = {"Blue": "#1f5fbf", "Gray": "#777777", "Yellow": "#c9a400", "Green": "#2e8b3d", "Orange": "#e07b00",
           "Red": "#c62828", "Black": "#222222"}
STATUS_COLOURS = {"frozen": "#0097a7", "poisoned": "#2e7d32", "confused": "#8e24aa"}
PER_ROW = (WIDTH - 20) // (CARD_W + GAP)


def svg(state: State, cat: Catalogue) -> str:
    """Return an SVG drawing of ``state``: a header line, then player 1's half above player 2's."""
    sides = state.sides + [Side("Player 2")] * (2 - len(state.sides))
    height = 70 + 2 * HALF + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{height}" fill="#fbfaf6"/>',
           _text(10, 26, f"C&C Trading Card Game · match {state.meta.match_id}", 18, bold=True),
           _text(10, 50, _headline(state), 15, bold=True, fill="#b71c1c" if state.result else "#1a237e")]
    for i, side in enumerate(sides):
        out += _half(state, side, i, 70 + i * HALF, cat)
    out.append(f'<line x1="0" y1="{70 + HALF}" x2="{WIDTH}" y2="{70 + HALF}" stroke="#444" '
               'stroke-dasharray="8 4"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _headline(state: State) -> str:
    if state.result:
        return f"Result: {state.result}"
    if not state.started:
        return "Waiting for player 2 to join"
    line = f"Turn {state.turn_number}: {state.current.name} to move ({state.current.ap} AP)"
    owed = [f"{p.player} owes {p.kind}" + (f" {p.count}" if p.kind == "discard" else "") for p in state.pending[:3]]
    return " · ".join([line, *owed])


def _half(state: State, side: Side, index: int, y: int, cat: Catalogue) -> list[str]:
    """Return one player's half: the name line, counts, cities, then the characters as cards."""
    moving = state.started and not state.result and state.current is side
    name = f"{side.name} (player {index + 1})" + (" · to move" if moving else "")
    out = [f'<rect x="4" y="{y + 4}" width="{WIDTH - 8}" height="{HALF - 8}" rx="8" '
           f'fill="{"#eef3ff" if moving else "#ffffff"}" stroke="{"#1a237e" if moving else "#bbbbbb"}"/>',
           _text(14, y + 28, name, 16, bold=True),
           _text(14, y + 50, f"CP {side.cp} · AP {side.ap}" + (f" (next turn {side.ap_next:+d})" if side.ap_next
                                                              else "")
                 + f" · hand {len(side.hand)} · deck {side.deck} · discards {len(side.discards)}/{ATTRITION_LIMIT}",
                 13),
           _text(14, y + 72, "Cities: " + (", ".join(_cut(c) for c in side.cities[:12]) or "(none)"), 13)]
    for i, char in enumerate(side.characters[:2 * PER_ROW]):
        x = 14 + (i % PER_ROW) * (CARD_W + GAP)
        out += _card(char, key_of(side.characters, i), x, y + 86 + (i // PER_ROW) * (CARD_H + 8), cat)
    if len(side.characters) > 2 * PER_ROW:
        out.append(_text(WIDTH - 160, y + 28, f"+{len(side.characters) - 2 * PER_ROW} more characters", 12))
    if not side.characters:
        out.append(_text(14, y + 110, "No characters in play", 13, fill="#777777"))
    return out


def _card(char, key: str, x: int, y: int, cat: Catalogue) -> list[str]:
    """Return a character card: class-coloured frame, name, class, HP/max HP with a bar, statuses."""
    card = cat.get(char.name) if char.name in cat else None
    colour = COLOURS.get(card.colour if card else "Black", "#222222")
    top = max(card.hp if card else 0, char.hp, 1)
    bar = max(0, min(CARD_W - 16, round((CARD_W - 16) * max(char.hp, 0) / top)))
    out = [f'<g class="character" data-name={quoteattr(_cut(key))}>',
           f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#ffffff" stroke="{colour}" '
           'stroke-width="3"/>',
           f'<rect x="{x}" y="{y}" width="{CARD_W}" height="18" rx="6" fill="{colour}"/>',
           _text(x + 6, y + 13, _cut(key, 18), 11, bold=True, fill="#ffffff"),
           _text(x + 6, y + 33, (card.klass or card.kind.capitalize()) if card else "unknown card", 11, fill=colour),
           _text(x + 6, y + 50, f"HP {char.hp}/{card.hp if card else '?'}", 12, bold=True),
           f'<rect x="{x + 8}" y="{y + 56}" width="{CARD_W - 16}" height="6" fill="#e0e0e0"/>',
           f'<rect x="{x + 8}" y="{y + 56}" width="{bar}" height="6" fill="{colour}"/>']
    for k, status in enumerate(char.statuses[:3]):
        out.append(_text(x + 6 + k * 42, y + 78, _cut(status, 9), 10, bold=True,
                         fill=STATUS_COLOURS.get(status, "#000000")))
    if char.combo:
        out.append(_text(x + CARD_W - 30, y + 50, "+" * min(char.combo, 3), 12, bold=True))
    out.append("</g>")
    return out
