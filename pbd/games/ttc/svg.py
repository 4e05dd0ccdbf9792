"""A picture of a Twin Tower City match as SVG (standard library only), to paste into chat.

:func:`svg` draws the five rounds as rows: each side's cards in the round and its Power, the
round's winner highlighted, then the rounds won and whose turn it is.  Every text comes from
the document, which anyone can edit: it is escaped (:func:`xml.sax.saxutils.escape`) and cut.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from pbd.errors import PbdError
from pbd.games.ttc import board, rules
from pbd.games.ttc.state import SIDES, State

WIDTH = 1000
COL = (110, 555)                                   # the x of the Light and Dark columns
SIDE_FILL = {"light": "#fff7d6", "dark": "#e3e0f0"}
SIDE_INK = {"light": "#8a6d00", "dark": "#3b2f80"}
LINE = 16
MAX_TEXT = 56


def svg(state: State) -> str:
    """Return an SVG drawing of ``state``: the header, one row per round, the rounds won."""
    rows, y = [], 104
    for rnd in state.rounds[:9]:
        height = 44 + LINE * max(1, *(len(_cards(rnd, side)) for side in SIDES))
        rows += _round(state, rnd, y, height)
        y += height + 8
    total_h = y + 40
    players = " · ".join(f"{side.capitalize()}: " + (", ".join(_cut(s.name, 24) for s in state.seats
                                                               if s.side == side) or "(empty)") for side in SIDES)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{total_h}" '
           f'viewBox="0 0 {WIDTH} {total_h}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{total_h}" fill="#fbfaf6"/>',
           _text(10, 26, f"Twin Tower City · match {state.meta.match_id or '(hand-made board)'}", 18, bold=True),
           _text(10, 50, players, 14),
           _text(10, 72, f"Turn: {board.turn_line(state)}", 14, bold=True, fill="#1a237e"),
           _text(COL[0], 96, "Light", 14, bold=True, fill=SIDE_INK["light"]),
           _text(COL[1], 96, "Dark", 14, bold=True, fill=SIDE_INK["dark"]),
           *rows,
           _text(10, total_h - 14, f"Rounds won: {_won(state)}", 15, bold=True), "</svg>"]
    return "\n".join(out) + "\n"


def _won(state: State) -> str:
    try:
        won = rules.rounds_won(state)
    except PbdError:
        return "unknown"
    text = f"Light {won['light']}, Dark {won['dark']}"
    return text + (f" · {rules.result_line(state)}" if rules.phase(state).name == "over" else "")


def _cards(rnd, side: str) -> list[str]:
    """Return the lines of one side's cards in a round (the face-down card until it is flipped)."""
    return [_cut(_play_text(p, i)) for i, p in enumerate(rnd.plays) if p.side == side]


def _play_text(p, index: int) -> str:
    """Return what a card brings to its side: a Battle Card's half of that side, or an Army/Warrior Card's swaps."""
    if p.kind != "battle":
        return board.card_text(p, index).replace("~~", "")
    warrior, item = (p.light_warrior, p.light_item) if p.side == "light" else (p.dark_warrior, p.dark_item)
    ident = f"battle {p.card}" if p.card is not None else "battle"
    return f"{ident} · {warrior} + {item}" + (f" · env {p.environment}" if p.environment else "")


def _round(state: State, rnd, y: int, height: int) -> list[str]:
    """Return one round's row: its number and state, then each side's cards and Power (the winner framed)."""
    totals, leader, note = _score(state, rnd)
    out = [f'<g class="round" data-round="{rnd.number}">',
           f'<rect x="4" y="{y}" width="{WIDTH - 8}" height="{height}" rx="6" fill="#ffffff" stroke="#bbbbbb"/>',
           _text(12, y + 22, f"Round {rnd.number}", 14, bold=True),
           _text(12, y + 40, note, 11, fill="#555555")]
    for side, x in zip(SIDES, COL):
        won = leader == side
        out.append(f'<rect x="{x - 6}" y="{y + 4}" width="{WIDTH // 2 - 70}" height="{height - 8}" rx="4" '
                   f'fill="{SIDE_FILL[side]}" stroke="{"#c62828" if won else "none"}" stroke-width="2"/>')
        if side in totals:
            out.append(_text(x + WIDTH // 2 - 125, y + 26, f"{totals[side]}" + (" ★" if won else ""), 20, bold=True,
                             fill=SIDE_INK[side], cls=f"power-{side}"))
        for k, line in enumerate(_cards(rnd, side) or ["(no cards yet)"]):
            out.append(_text(x, y + 22 + k * LINE, line, 11))
    out.append("</g>")
    return out


def _score(state: State, rnd) -> tuple[dict[str, int], str | None, str]:
    """Return ``(Power by side, the winning side of a finished round, a word on the round)``."""
    if not rnd.plays:
        return {}, None, "face down"
    try:
        s = rules.round_score(state, rnd)
        finished = rules.done(state, rnd)
    except PbdError as exc:
        return {}, None, _cut(f"cannot be scored: {exc.message}", 30)
    lead = s.leader() if finished else None
    note = ("won by " + lead.capitalize() if lead else "level") if finished else "so far"
    return {"light": s.light.total, "dark": s.dark.total}, lead, note


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _text(x: int, y: int, text: str, size: int, bold: bool = False, fill: str = "#000000", cls: str = "") -> str:
    """Return an SVG text element; ``text`` is escaped (it may come from the document)."""
    extra = (' font-weight="bold"' if bold else "") + (f' class="{cls}"' if cls else "")
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra} fill="{fill}">{escape(_cut(text, 140))}</text>'
