"""The 2Xd6 grid as an SVG picture (stdlib only): cells, the Basic Square, stacks with owner and top card."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pbd.games.twoxd6 import grid, rules
from pbd.games.twoxd6.state import State

CELL = 90
FILL = {"Onyx": "#222222", "Gold": "#d4a017", "Wyte": "#f4f4f4", "Pink": "#e754a4", "Cyan": "#27b5d9"}
INK = {"Onyx": "#ffffff", "Gold": "#000000", "Wyte": "#000000", "Pink": "#000000", "Cyan": "#000000"}


def svg(state: State) -> str:
    """Return an SVG drawing of the board: rows A (bottom) up, columns 1 (left) on."""
    b = state.board
    width, height = (b.columns + 1) * CELL, (b.rows + 1) * CELL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">']
    cat = rules.catalogue(state)
    for c in range(1, b.columns + 1):
        out.append(f'<text x="{c * CELL + CELL // 2}" y="{height - 20}" text-anchor="middle">{c}</text>')
    for r in range(1, b.rows + 1):
        y = (b.rows - r) * CELL + 10
        out.append(f'<text x="{CELL // 2}" y="{y + CELL // 2}" text-anchor="middle">{chr(64 + r)}</text>')
        for c in range(1, b.columns + 1):
            name, x = grid.cell(c, r), c * CELL
            basic = name in b.basic
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{"#fff3c4" if basic else "#ffffff"}"'
                       f' stroke="#555" stroke-width="{3 if basic else 1}"/>')
            st = state.cells.get(name)
            if not st:
                continue
            top = cat.get(st.cards[-1])
            colour = top.core if top else "Wyte"
            out.append(f'<rect x="{x + 12}" y="{y + 12}" width="{CELL - 24}" height="{CELL - 24}" rx="6" '
                       f'fill="{FILL[colour]}" stroke="#000"/>')
            out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2}" text-anchor="middle" fill="{INK[colour]}" '
                       f'font-weight="bold">{escape(st.cards[-1])}</text>')
            out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 16}" text-anchor="middle" fill="{INK[colour]}">'
                       f'{escape(st.owner[:8])} ×{len(st.cards)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
