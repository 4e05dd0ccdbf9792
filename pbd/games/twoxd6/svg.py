"""The 2Xd6 grid as an SVG picture (stdlib only): a title, whose act it is, the Basic Square's hold count, then the
cells, the Basic Square, stacks with owner and top card."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pbd.games.twoxd6 import grid, rules
from pbd.games.twoxd6.state import State
from pbd.picture import text, wrap

CELL = 90
FILL = {"Onyx": "#222222", "Gold": "#d4a017", "Wyte": "#f4f4f4", "Pink": "#e754a4", "Cyan": "#27b5d9"}
INK = {"Onyx": "#ffffff", "Gold": "#000000", "Wyte": "#000000", "Pink": "#000000", "Cyan": "#000000"}


def svg(state: State) -> str:
    """Return an SVG drawing of the board under a title, whose act it is and the Basic Square's hold count.

    Rows A (bottom) up, columns 1 (left) on.
    """
    b = state.board
    width = (b.columns + 1) * CELL + 10
    head = _header(state, width - 20)
    top = 16 + 22 * len(head)
    height = top + b.rows * CELL + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>']
    for k, (line, size, bold, fill) in enumerate(head):
        out.append(text(10, 28 + 22 * k, line, size, bold=bold, fill=fill))
    cat = rules.catalogue(state)
    for c in range(1, b.columns + 1):
        out.append(f'<text x="{c * CELL + CELL // 2}" y="{height - 14}" text-anchor="middle">{c}</text>')
    for r in range(1, b.rows + 1):
        y = top + (b.rows - r) * CELL
        out.append(f'<text x="{CELL // 2}" y="{y + CELL // 2}" text-anchor="middle">{chr(64 + r)}</text>')
        for c in range(1, b.columns + 1):
            name, x = grid.cell(c, r), c * CELL
            basic = name in b.basic
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{"#fff3c4" if basic else "#ffffff"}"'
                       f' stroke="#555" stroke-width="{3 if basic else 1}"/>')
            st = state.cells.get(name)
            if not st:
                continue
            card = cat.get(st.cards[-1])
            colour = card.core if card else "Wyte"
            out.append(f'<rect x="{x + 12}" y="{y + 12}" width="{CELL - 24}" height="{CELL - 24}" rx="6" '
                       f'fill="{FILL[colour]}" stroke="#000"/>')
            out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2}" text-anchor="middle" fill="{INK[colour]}" '
                       f'font-weight="bold">{escape(st.cards[-1])}</text>')
            out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 16}" text-anchor="middle" fill="{INK[colour]}">'
                       f'{escape(st.owner[:8])} ×{len(st.cards)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _header(state: State, room: int) -> list[tuple[str, int, bool, str]]:
    """Return the picture's header lines, each ``(words, size, bold, colour)``, wrapped to ``room`` pixels.

    The title; whose act it is (or the result, or the roll for the order of acts); the Basic
    Square: who holds it and for how many of the full turns that win (one per player).
    """
    lines = [(f"2Xd6 · match {state.meta.match_id or '(hand-made board)'}", 18, True, "#000000")]
    a = state.act
    if state.result:
        where = f"Result: {state.result}"
    elif state.phase == "act" and rules.acting(state):
        where = f"Round {a.round} · {rules.acting(state)}'s act · scene {a.scene} · {a.points} acting points left"
    else:
        where = "Rolling for the order of acts" + (
            f" · rolled: {', '.join(f'{s} {v}' for s, v in state.order_rolls.items())}" if state.order_rolls else "")
    lines.append((where, 15, True, "#1a237e"))
    needed = state.opts.players
    held = (f"Basic Square: held by {state.holder}, {state.held} of {needed} full turns" if state.holder
            else f"Basic Square: held by nobody, {state.held} of {needed} full turns")
    lines.append((held, 14, False, "#000000"))
    return [(part, size, bold, fill) for words, size, bold, fill in lines
            for part in wrap(words, size, room, bold=bold)]
