"""A picture of the tower as SVG (standard library only): :func:`svg` draws the same board as the text."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pbd.games.tower import rules
from pbd.games.tower.state import State, marks

CELL, GAP, TOP = 86, 4, 40
LEFT = 96           # the tiles' left edge: room for "Floor 12 ←" at 13 px (:func:`pbd.picture.width`)
COLOURS = {"Torch": "#f6c453", "Guard": "#c0504d", "Rope": "#8fbf6a", "Trapdoor": "#7f6a55",
           "Magic Carpet": "#b48ad6", "Spider Web": "#bbbbbb", "Arcane Trap": "#5b8bd6"}
TOKENS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf")


def svg(state: State) -> str:
    """Return an SVG drawing of ``state``: floors top first, cards on tiles, tokens, the turn line."""
    lay = state.layout
    width = lay.width * (CELL + GAP) + LEFT + 4
    height = TOP + lay.floors * (CELL + GAP) + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
           f'<text x="10" y="26" font-size="18" font-weight="bold">{escape(lay.name)}</text>']
    for f in range(lay.floors, 0, -1):
        y = TOP + (lay.floors - f) * (CELL + GAP)
        arrow = "→" if lay.directions[f - 1] == "right" else "←"
        out.append(f'<text x="10" y="{y + CELL // 2}" font-size="13">Floor {f} {arrow}</text>')
        for col, tile in enumerate(rules.row(lay, f)):
            out += _tile(state, tile, LEFT + col * (CELL + GAP), y)
    out.append(f'<text x="10" y="{height - 30}" font-size="14">{escape(_footer(state))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _tile(state: State, tile: int, x: int, y: int) -> list[str]:
    lay = state.layout
    card = state.card_at(tile)
    fill = "#eeeeee" if tile > lay.treasure else "#ffe680" if tile == lay.treasure else COLOURS.get(card, "#ffffff")
    out = [f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="6" fill="{fill}" stroke="#444"/>',
           f'<text x="{x + 6}" y="{y + 16}" font-size="13" font-weight="bold">{tile}</text>']
    label = card or ("Start" if tile == lay.start else "Treasure" if tile == lay.treasure else "")
    if label:
        out.append(f'<text x="{x + 6}" y="{y + 34}" font-size="11">{escape(label)}</text>')
    mk = marks(state.seats)
    on = [(i, s) for i, s in enumerate(state.seats) if state.tile_of(s) == tile]
    for k, (i, seat) in enumerate(on):
        cx, cy = x + 14 + (k % 3) * 26, y + 52 + (k // 3) * 24
        out.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="{TOKENS[i % len(TOKENS)]}" stroke="#222"/>')
        out.append(f'<text x="{cx}" y="{cy + 4}" font-size="11" fill="white" text-anchor="middle">'
                   f'{escape(mk[seat])}</text>')
    return out


def _footer(state: State) -> str:
    from pbd.games.tower import board

    if state.result:
        return f"Result: {state.result}"
    if state.decisions:
        return f"Waiting on {state.decisions[0].seat}: {state.decisions[0].prompt}"
    if state.ask:
        return f"Asking {state.mover}: {board.safe_prompt(state, state.mover, state.ask)}"
    if not state.started:
        return f"Waiting for {state.players - len(state.seats)} more player(s) to join"
    return f"Turn {state.round}: {state.mover} — {board.PHASES[(state.step, state.placed)]}"
