"""Render a 2Xd6 match as document text, and read it back (tolerant; line-numbered errors).

The body, after the frame's header::

    Order of acts: 1 Ann (rolled 12), 2 Ben (rolled 7)
    Act: round 2 · Ann · scene main · points 7 · roll 4+3 · played 1 · recycled 0 · replaced 0 · advanced no
    Basic Square: Ann, held 1 of 2 · quiet acts 0
    Board: standard · 6 x 3 · Basic Square B3 B4 · central columns 3 4
    Side 1: columns 1 2 · outermost A1 · forward right · up up
    | (a picture of the grid; ignored when read back)
    Cells
    A1 Ann: QO 7G
    A2 Ann: JO
    Chains: Ann A1+A2 (Onyx)
    Hands
    Ann: 10 cards · shown 7G · cold 14
    Debt: Ann to Ben face
    Targeting: Ann B3 B5 Ben · Tc 67 = 12 * 5 + 7 · Rc 60 = 7*8+4 · Onyx 3+4
    Targeting: Ann B3 B5 Ben · Tc - · Rc - · Onyx -      (-O rc=stated: waiting on Ben's Rc)
    Trade: Ann slot 17 · Ben 7G · Cid pass

The header (seats, turn, result, ``Waiting on:`` decisions, ``Owed:`` deck work) and the
shared deck's section are the table's (:mod:`pbd.table.game`).
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError
from pbd.games.base import Line
from pbd.games.twoxd6 import cards, grid, rules
from pbd.games.twoxd6.state import Act, Owe, Stack, State, Targeting, Trade
from pbd.regex import pattern

MAX_LINE = 2000
WIDTH = 9


def _act_line(state: State) -> str:
    a = state.act
    roll = f"{a.roll[0]}+{a.roll[1]}" if a.roll else "-"
    who = state.order[a.turn] if state.order else "-"
    return (f"Act: round {a.round} · {who} · scene {a.scene} · points {a.points} · roll {roll} · played {a.played}"
            f" · recycled {a.recycled} · replaced {a.replaced} · advanced {'yes' if a.advanced else 'no'}"
            f" · targeted {'yes' if a.targeted else 'no'} · tolls {' '.join(a.tolls) or '-'}")


def picture(state: State) -> list[str]:
    """Return the grid drawn in text: each cell's owner and top card, the Basic Square in brackets."""
    b = state.board
    out = [("|    " + "".join(f"{c:<{WIDTH}}" for c in range(1, b.columns + 1))).rstrip()]
    for r in range(b.rows, 0, -1):
        row = []
        for c in range(1, b.columns + 1):
            name = grid.cell(c, r)
            st = state.cells.get(name)
            text = f"{st.owner[:3]}:{st.cards[-1]}" if st else "."
            if name in b.basic:
                text = f"[{text}]"
            row.append(f"{text:<{WIDTH}}")
        out.append(f"| {chr(64 + r)}  " + "".join(row).rstrip())
    return out


def render(state: State) -> list[str]:
    """Return the body lines of ``state``."""
    out = []
    if state.order:
        out.append("Order of acts: " + ", ".join(f"{i} {s} (rolled {state.order_rolls[s]})"
                                                for i, s in enumerate(state.order, 1)))
    else:
        out.append("Order rolls: " + (", ".join(f"{s} {v}" for s, v in state.order_rolls.items()) or "-"))
    out.append(f"Phase: {state.phase}")
    out.append(_act_line(state))
    out.append(f"Basic Square: {state.holder or '-'}, held {state.held} of {state.opts.players} · quiet acts {state.quiet}")
    b = state.board
    out.append(f"Board: {b.name} · {b.columns} x {b.rows} · Basic Square {' '.join(b.basic)} · central columns "
               f"{' '.join(map(str, b.central))}")
    for n, seats in sorted(b.layouts.items()):
        for i, s in enumerate(seats, 1):
            out.append(f"Side {n}.{i}: columns {' '.join(map(str, s.columns))} · outermost {s.outermost} · "
                       f"forward {s.forward} · up {s.up}")
    out += [""] + picture(state) + ["", "Cells"]
    for name in b.cells():
        if name in state.cells:
            st = state.cells[name]
            out.append(f"{name} {st.owner}: {' '.join(st.cards)}")
    out += chains_lines(state)
    out += ["", "Hands"]
    for seat in state.seats:
        count = cards.hand_count(state.deck, seat) + len(state.shown.get(seat, [])) if state.deck else 0
        line = f"{seat}: {count} cards · shown {' '.join(state.shown.get(seat, [])) or '-'}"
        line += f" · cold {' '.join(map(str, state.cold.get(seat, []))) or '-'}"
        out.append(line)
    if state.deck is not None and state.phase not in ("joining",):
        out.append(f"Draw Patch: {cards.patch_size(state.deck)} cards · recycled {state.deck.size('recycled')}")
    for o in state.owed:
        out.append(f"Debt: {o.giver} to {o.receiver} {o.kind}")
    if t := state.targeting:
        tc = f"{t.tc} = {t.tc_text}" if t.tc is not None else "-"
        rc = f"{t.rc} = {t.rc_text}" if t.rc is not None else "-"
        onyx = f"{t.roll[0]}+{t.roll[1]}" if t.roll else "-"
        out.append(f"Targeting: {t.attacker} {t.source} {t.target} {t.defender} · Tc {tc} · Rc {rc} · Onyx {onyx}")
    if tr := state.trade:
        out.append(f"Trade: {tr.seat} slot {tr.slot}" + "".join(f" · {s} {c}" for s, c in tr.offers.items()))
    return out


def chains_lines(state: State) -> list[str]:
    """Return a ``Chains:`` line per player with chained stacks (``Chains: Ann A1+A2 (Gold)``).

    The line is derived from the stacks (read back, it is ignored).
    """
    out = []
    for seat in state.order or state.seats:
        linked = [g for g in rules.chains(state, seat) if len(g) > 1]
        if linked:
            out.append(f"Chains: {seat} " + ", ".join(f"{'+'.join(g)} ({' '.join(rules.chain_colours(state, g))})"
                                                     for g in linked))
    return out


# -- reading -------------------------------------------------------------------------

def _fail(line: Line, what: str):
    raise DocumentFormatError(f"expected {what}", line=line.number)


BOARD_RE = pattern(r"Board:\s*(?P<name>\S+)\s*·\s*(?P<c>\d+)\s*x\s*(?P<r>\d+)\s*·\s*Basic Square\s+(?P<basic>[A-Z0-9 ]+?)"
                   r"\s*·\s*central columns\s*(?P<central>[\d ]*)$", re.I)
SIDE_RE = pattern(r"Side\s+(?P<n>\d)\.(?P<i>\d):\s*columns\s+(?P<cols>[\d ]+?)\s*·\s*outermost\s+(?P<out>[A-Z]\d+)"
                  r"\s*·\s*forward\s+(?P<f>\w+)\s*·\s*up\s+(?P<u>\w+)$", re.I)


def parse_body(state: State, lines: list[Line]) -> None:
    """Read the body lines into ``state`` (the grid picture is ignored).

    :raises DocumentFormatError: a line that cannot be read, naming it.
    """
    section = ""
    for line in lines:
        text = line.text.strip()
        if len(line.text) > MAX_LINE:
            _fail(line, f"a line of at most {MAX_LINE} characters")
        if not text or text.startswith(("|", "Chains:")):
            continue
        if text in ("Cells", "Hands"):
            section = text.lower()
            continue
        if text.startswith("Side") and parse_side(state, text, line):
            continue
        _body_line(state, section, text, line)
    if state.board is None:
        raise DocumentFormatError("the board has no 'Board: ...' line")
    problems = grid.problems(state.board)
    if problems:
        raise DocumentFormatError("the Board lines break a board rule: " + "; ".join(problems))


def _body_line(state: State, section: str, text: str, line: Line) -> None:
    if section == "cells":
        m = re.fullmatch(r"([A-Z]\d{1,2})\s+(.+?):\s*(.+)", text, re.I)
        if not m:
            _fail(line, "a stack like 'A1 Ann: QO 7G'")
        state.cells[m.group(1).upper()] = Stack(m.group(2).strip(), m.group(3).split())
        return
    if section == "hands" and not text.startswith(("Draw Patch", "Debt", "Targeting", "Trade")):
        m = re.fullmatch(r"(.+?):\s*\d+ cards\s*·\s*shown\s+(.+?)\s*·\s*cold\s+(-|\d{1,3}(?:\s+\d{1,3})*)", text)
        if not m:
            _fail(line, "a hand like 'Ann: 10 cards · shown - · cold -'")
        state.shown[m.group(1)] = [] if m.group(2) == "-" else m.group(2).split()
        state.cold[m.group(1)] = [] if m.group(3) == "-" else [int(x) for x in m.group(3).split()]
        return
    key, _, rest = text.partition(":")
    rest = rest.strip()
    try:
        _KEYS[key.strip().lower()](state, rest)
    except KeyError:
        _fail(line, "a 2Xd6 board line (Order of acts, Phase, Act, Basic Square, Board, Side, Cells, Hands ...)")
    except (ValueError, AttributeError, IndexError, TypeError):
        _fail(line, f"a readable '{key.strip()}' line")


def _order(state: State, rest: str) -> None:
    for item in rest.split(","):
        m = re.fullmatch(r"\s*\d+\s+(.+?)\s+\(rolled (\d+)\)\s*", item)
        state.order.append(m.group(1))
        state.order_rolls[m.group(1)] = int(m.group(2))


def _order_rolls(state: State, rest: str) -> None:
    if rest != "-":
        for item in rest.split(","):
            name, value = item.strip().rsplit(" ", 1)
            state.order_rolls[name] = int(value)


def _act(state: State, rest: str) -> None:
    parts = [p.strip() for p in rest.split("·")]
    f = {p.split(" ", 1)[0]: p.split(" ", 1)[1] if " " in p else "" for p in parts}
    who = parts[1]
    roll = None if f["roll"] == "-" else tuple(int(x) for x in f["roll"].split("+"))
    state.act = Act(int(f["round"]), state.order.index(who) if who in state.order else 0, f["scene"],
                    int(f["points"]), roll, int(f["played"]), int(f["recycled"]), int(f["replaced"]),
                    f["advanced"] == "yes", f["targeted"] == "yes", [] if f["tolls"] == "-" else f["tolls"].split())


def _basic(state: State, rest: str) -> None:
    m = re.fullmatch(r"(.+?),\s*held (\d+) of \d+ · quiet acts (\d+)", rest)
    state.holder = "" if m.group(1) == "-" else m.group(1)
    state.held, state.quiet = int(m.group(2)), int(m.group(3))


def _board(state: State, rest: str) -> None:
    m = BOARD_RE.fullmatch("Board: " + rest)
    state.board = grid.Board(m.group("name"), int(m.group("c")), int(m.group("r")), m.group("basic").split(),
                             [int(x) for x in m.group("central").split()])


def _owed(state: State, rest: str) -> None:
    m = re.fullmatch(r"(.+?) to (.+) (face|pip)", rest)
    state.owed.append(Owe(m.group(1), m.group(2), m.group(3)))


def _targeting(state: State, rest: str) -> None:
    m = re.fullmatch(r"(.+?) ([A-Z]\d+) ([A-Z]\d+) (.+?) · Tc (?:-|(-?\d+) = (.+?)) · Rc (?:-|(-?\d+) = (.+?))"
                     r" · Onyx (?:-|(\d)\+(\d))", rest)
    roll = (int(m.group(9)), int(m.group(10))) if m.group(9) else None
    state.targeting = Targeting(m.group(1), m.group(2), m.group(3), m.group(4), _int(m.group(5)), m.group(6) or "",
                                _int(m.group(7)), m.group(8) or "", roll)


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def _trade(state: State, rest: str) -> None:
    parts = [p.strip() for p in rest.split("·")]
    seat, slot = parts[0].rsplit(" slot ", 1)
    state.trade = Trade(seat, int(slot), {p.rsplit(" ", 1)[0]: p.rsplit(" ", 1)[1] for p in parts[1:]})


def _phase(state: State, rest: str) -> None:
    if rest not in ("joining", "order", "act", "over"):
        raise ValueError(rest)
    state.phase = rest


_KEYS = {"order of acts": _order, "order rolls": _order_rolls, "phase": _phase, "act": _act,
         "basic square": _basic, "board": _board, "debt": _owed, "targeting": _targeting, "trade": _trade,
         "draw patch": lambda s, r: None}


def parse_side(state: State, text: str, line: Line) -> bool:
    """Read a ``Side N.I:`` line into the board's layouts; return False if it is not one."""
    m = SIDE_RE.fullmatch(text)
    if not m:
        return False
    if state.board is None:
        _fail(line, "the 'Board:' line before the 'Side' lines")
    seats = state.board.layouts.setdefault(int(m.group("n")), [])
    seats.append(grid.SeatLayout([int(x) for x in m.group("cols").split()], m.group("out").upper(), m.group("f"),
                                 m.group("u")))
    return True
