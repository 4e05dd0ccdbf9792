"""A picture of a Twin Tower City match as SVG (standard library only), to paste into chat.

:func:`svg` draws the five rounds as rows: each side's cards in the round and its Power, the
round's winner highlighted, then the rounds won and whose turn it is.  Every text comes from
the document, which anyone can edit: it is escaped (:func:`xml.sax.saxutils.escape`) and
wrapped to the room it has (:func:`pbd.picture.wrap`: only a hostile length is cut).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from pbd.errors import PbdError
from pbd.games.ttc import board, rules
from pbd.picture import wrap
from pbd.games.ttc.state import SIDES, State

WIDTH = 1000
COL = (110, 555)                                   # the x of the Light and Dark columns
SIDE_FILL = {"light": "#fff7d6", "dark": "#e3e0f0"}
SIDE_INK = {"light": "#8a6d00", "dark": "#3b2f80"}
LINE = 16
NOTE_LINE = 13
BOX_W = WIDTH // 2 - 70                            # a side's box in a round's row
POWER_W = 84                                       # the room at the right of a side's box kept for its Power
CARD_ROOM = BOX_W - 6 - POWER_W - 8                # a card's text: from the column's x to the Power's room
LABEL_ROOM = COL[0] - 6 - 12 - 6                   # a round's name and note: left of the Light box
TEXT_ROOM = WIDTH - 20                             # a line across the picture


def svg(state: State) -> str:
    """Return an SVG drawing of ``state``: the header, one row per round, the rounds won.

    Every text is wrapped to the room it has (measured with :func:`pbd.picture.width`), never cut.
    """
    players = " · ".join(f"{side.capitalize()}: " + (", ".join(s.name for s in state.seats if s.side == side)
                                                     or "(empty)") for side in SIDES)
    head = [_text(10, 26, f"Twin Tower City · match {state.meta.match_id or '(hand-made board)'}", 18, bold=True)]
    y = 26
    for line in wrap(players, 14, TEXT_ROOM):
        y += 22
        head.append(_text(10, y, line, 14))
    for line in wrap(f"Turn: {board.turn_line(state)}", 14, TEXT_ROOM, bold=True):
        y += 22
        head.append(_text(10, y, line, 14, bold=True, fill="#1a237e"))
    y += 24
    head += [_text(COL[0], y, "Light", 14, bold=True, fill=SIDE_INK["light"]),
             _text(COL[1], y, "Dark", 14, bold=True, fill=SIDE_INK["dark"])]
    rows, y = [], y + 8
    for rnd in state.rounds[:9]:
        row, height = _round(state, rnd, y)
        rows += row
        y += height + 8
    won = wrap(f"Rounds won: {_won(state)}", 15, TEXT_ROOM, bold=True)
    foot = [_text(10, y + 26 + 20 * k, line, 15, bold=True) for k, line in enumerate(won)]
    total_h = y + 40 + 20 * (len(won) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{total_h}" '
           f'viewBox="0 0 {WIDTH} {total_h}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{total_h}" fill="#fbfaf6"/>', *head, *rows, *foot, "</svg>"]
    return "\n".join(out) + "\n"


def _won(state: State) -> str:
    try:
        won = rules.rounds_won(state)
    except PbdError:
        return "unknown"
    text = f"Light {won['light']}, Dark {won['dark']}"
    return text + (f" · {rules.result_line(state)}" if rules.phase(state).name == "over" else "")


def _cards(rnd, side: str) -> list[str]:
    """Return the lines of one side's cards in a round (the face-down card until it is flipped), each card's
    text wrapped to the room left of the Power."""
    return [line for i, p in enumerate(rnd.plays) if p.side == side for line in wrap(_play_text(p, i), 11, CARD_ROOM)]


def _play_text(p, index: int) -> str:
    """Return what a card brings to its side: a Battle Card's half of that side, or an Army/Warrior Card's swaps."""
    if p.kind != "battle":
        return board.card_text(p, index).replace("~~", "")
    warrior, item = (p.light_warrior, p.light_item) if p.side == "light" else (p.dark_warrior, p.dark_item)
    ident = f"battle {p.card}" if p.card is not None else "battle"
    return f"{ident} · {warrior} + {item}" + (f" · env {p.environment}" if p.environment else "")


def _round(state: State, rnd, y: int) -> tuple[list[str], int]:
    """Return one round's row and its height: its number and state, then each side's cards and Power (the winner
    framed)."""
    totals, leader, note = _score(state, rnd)
    notes = wrap(note, 11, LABEL_ROOM)
    cards = {side: _cards(rnd, side) or ["(no cards yet)"] for side in SIDES}
    height = max(44 + LINE * max(map(len, cards.values())), 34 + NOTE_LINE * len(notes))
    out = [f'<g class="round" data-round="{rnd.number}">',
           f'<rect x="4" y="{y}" width="{WIDTH - 8}" height="{height}" rx="6" fill="#ffffff" stroke="#bbbbbb"/>',
           _text(12, y + 22, f"Round {rnd.number}", 14, bold=True),
           *(_text(12, y + 40 + NOTE_LINE * k, line, 11, fill="#555555") for k, line in enumerate(notes))]
    for side, x in zip(SIDES, COL):
        won = leader == side
        out.append(f'<rect x="{x - 6}" y="{y + 4}" width="{BOX_W}" height="{height - 8}" rx="4" '
                   f'fill="{SIDE_FILL[side]}" stroke="{"#c62828" if won else "none"}" stroke-width="2"/>')
        if side in totals:
            out.append(_text(x - 6 + BOX_W - 8, y + 26, f"{totals[side]}" + (" ★" if won else ""), 20, bold=True,
                             fill=SIDE_INK[side], cls=f"power-{side}", anchor="end"))
        for k, line in enumerate(cards[side]):
            out.append(_text(x, y + 22 + k * LINE, line, 11))
    out.append("</g>")
    return out, height


def _score(state: State, rnd) -> tuple[dict[str, int], str | None, str]:
    """Return ``(Power by side, the winning side of a finished round, a word on the round)``."""
    if not rnd.plays:
        return {}, None, "face down"
    try:
        s = rules.round_score(state, rnd)
        finished = rules.done(state, rnd)
    except PbdError as exc:
        return {}, None, f"cannot be scored: {exc.message}"
    lead = s.leader() if finished else None
    note = ("won by " + lead.capitalize() if lead else "level") if finished else "so far"
    return {"light": s.light.total, "dark": s.dark.total}, lead, note


def _text(x: int, y: int, text: str, size: int, bold: bool = False, fill: str = "#000000", cls: str = "",
          anchor: str = "") -> str:
    """Return an SVG text element; ``text`` is escaped (it may come from the document)."""
    extra = ((' font-weight="bold"' if bold else "") + (f' class="{cls}"' if cls else "")
             + (f' text-anchor="{anchor}"' if anchor else ""))
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra} fill="{fill}">{escape(text)}</text>'
