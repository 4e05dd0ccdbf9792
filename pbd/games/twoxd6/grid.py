"""The 2Xd6 board as data, and the geometry the rules need (pure functions).

Cells are named by row letter and column number: ``B3`` is row B (rows run A at the bottom
upward), column 3 (columns run 1 at the left).  A board file (``decks/2xd6/boards/*.toml``)
gives ``columns``, ``rows``, ``basic`` (the Basic Square's cells), ``central`` (the central
columns) and, per number of players, a layout: each seat's side (``columns``), its
``outermost`` cell and its ``forward`` and ``up`` directions (``left``/``right``/``up``/``down``).

Readings (documented in the README's 2Xd6 notes):

* Adjacent means sharing a side (``-O adjacency=8`` counts diagonals too).
* Distances are counted in king steps (a diagonal step is one cell).
* The pottle is the straight line of cells strictly between the targeting and the targeted
  cell, traced by rounding ``i/d`` of the way along (half away from zero).
* "Towards the Basic Square": every step of an Advancement must bring the named cell
  strictly closer (in side-steps) to the nearest Basic Square cell.
* A board must be symmetric: its Basic Square and central columns look the same turned
  half round or mirrored left to right.
"""

from __future__ import annotations

import re

from pbd import paths
from pbd.errors import DeckFormatError
from pbd.record import Record
from pbd.regex import pattern

CELL_RE = pattern(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
DIRS = {"right": (1, 0), "left": (-1, 0), "up": (0, 1), "down": (0, -1)}
KING = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
MAX_SIDE = 26


class SeatLayout(Record):
    """One seat's part of the board: its side's columns, outermost cell and facing."""

    columns: list[int]
    outermost: str
    forward: str
    up: str

    FIELDS = ("columns", "outermost", "forward", "up")

    def __init__(self, columns: list[int], outermost: str, forward: str = "right", up: str = "up"):
        self.columns = columns
        self.outermost = outermost
        self.forward = forward
        self.up = up


class Board(Record):
    """A board: size, Basic Square, central columns, and seat layouts per number of players."""

    name: str
    columns: int
    rows: int
    basic: list[str]
    central: list[int]
    layouts: dict[int, list[SeatLayout]]

    FIELDS = ("name", "columns", "rows", "basic", "central", "layouts")

    def __init__(self, name: str, columns: int, rows: int, basic: list[str], central: list[int],
                 layouts: dict[int, list[SeatLayout]] | None = None):
        self.name = name
        self.columns = columns
        self.rows = rows
        self.basic = basic
        self.central = central
        self.layouts = {} if layouts is None else layouts

    def cells(self) -> list[str]:
        """Return every cell, row by row from the top row down, left to right."""
        return [cell(c, r) for r in range(self.rows, 0, -1) for c in range(1, self.columns + 1)]

    def on(self, col: int, row: int) -> bool:
        """Return True if (column, row) is on the board."""
        return 1 <= col <= self.columns and 1 <= row <= self.rows


def cell(col: int, row: int) -> str:
    """Return the name of the cell at (column, row), both 1-based."""
    return f"{chr(64 + row)}{col}"


def coords(name: str) -> tuple[int, int]:
    """Return (column, row) of a cell name like ``B3``.

    :raises ValueError: not a cell name.
    """
    m = CELL_RE.match(name)
    if not m:
        raise ValueError(f"{name!r} is not a cell like B3")
    return int(m.group(2)), ord(m.group(1).upper()) - 64


def norm(name: str, board: Board) -> str | None:
    """Return the canonical name of a cell on ``board`` (``b3`` -> ``B3``), or None."""
    try:
        c, r = coords(name)
    except ValueError:
        return None
    return cell(c, r) if board.on(c, r) else None


def neighbours(board: Board, name: str, diagonal: bool = False) -> list[str]:
    """Return the cells adjacent to ``name`` (sharing a side; corners too with ``diagonal``)."""
    c, r = coords(name)
    return [cell(c + dc, r + dr) for dc, dr in (KING if diagonal else ROOK) if board.on(c + dc, r + dr)]


def steps(a: str, b: str) -> int:
    """Return the king-step distance between two cells."""
    (c1, r1), (c2, r2) = coords(a), coords(b)
    return max(abs(c1 - c2), abs(r1 - r2))


def to_basic(board: Board, name: str) -> int:
    """Return the side-step distance from ``name`` to the nearest Basic Square cell."""
    c, r = coords(name)
    return min(abs(c - bc) + abs(r - br) for bc, br in map(coords, board.basic))


def _round(n: int, d: int) -> int:
    """Return ``n / d`` (``d > 0``) rounded to the nearest whole number, halves away from zero, in exact integers."""
    return (2 * n + d) // (2 * d) if n >= 0 else -((d - 2 * n) // (2 * d))


def pottle(a: str, b: str) -> list[str]:
    """Return the cells strictly between ``a`` and ``b`` on the straight line joining them."""
    (c1, r1), (c2, r2) = coords(a), coords(b)
    d = max(abs(c2 - c1), abs(r2 - r1))
    return [cell(c1 + _round(i * (c2 - c1), d), r1 + _round(i * (r2 - r1), d))
            for i in range(1, d)]


def facing(layout: SeatLayout, a: str, b: str) -> bool:
    """Return True if ``b`` lies forward and/or upward of ``a`` for a seat (never back or down)."""
    (c1, r1), (c2, r2) = coords(a), coords(b)
    dc, dr = c2 - c1, r2 - r1
    fwd, up = DIRS[layout.forward], DIRS[layout.up]
    f = dc * fwd[0] + dr * fwd[1]
    u = dc * up[0] + dr * up[1]
    return (dc or dr) and f >= 0 and u >= 0


# -- loading ------------------------------------------------------------------------

def problems(board: Board) -> list[str]:
    """Return what is wrong with a board: sizes, cells off the board, layouts, symmetry."""
    out = []
    if not (1 <= board.columns <= MAX_SIDE and 1 <= board.rows <= MAX_SIDE):
        return [f"a board is 1 to {MAX_SIDE} columns and rows, not {board.columns} x {board.rows}"]
    if not board.basic:
        out.append("no Basic Square cells")
    for name in board.basic:
        if norm(name, board) is None:
            out.append(f"Basic Square cell {name!r} is not on the board")
    for col in board.central:
        if not 1 <= col <= board.columns:
            out.append(f"central column {col} is not on the board")
    if out:
        return out
    basic = {coords(n) for n in board.basic}
    half_turn = {(board.columns + 1 - c, board.rows + 1 - r) for c, r in basic}
    mirror = {(board.columns + 1 - c, r) for c, r in basic}
    central_mirror = {board.columns + 1 - c for c in board.central}
    if (half_turn != basic and mirror != basic) or central_mirror != set(board.central):
        out.append("the board is not symmetric: its Basic Square and central columns must look the same turned "
                   "half round or mirrored left to right")
    for n, seats in board.layouts.items():
        if len(seats) != n:
            out.append(f"the layout for {n} players has {len(seats)} seats")
        for i, s in enumerate(seats, 1):
            where = f"layout for {n} players, seat {i}"
            if norm(s.outermost, board) is None:
                out.append(f"{where}: outermost cell {s.outermost!r} is not on the board")
            elif coords(s.outermost)[0] not in s.columns:
                out.append(f"{where}: outermost cell {s.outermost} is not in the seat's columns")
            if any(not 1 <= c <= board.columns for c in s.columns) or set(s.columns) & set(board.central):
                out.append(f"{where}: side columns {s.columns} must be on the board and not central")
            if s.forward not in DIRS or s.up not in DIRS or (DIRS[s.forward][0] == 0) == (DIRS[s.up][0] == 0):
                out.append(f"{where}: forward and up must be one of left/right and one of up/down")
    return out


def from_data(data: dict, default_name: str) -> Board:
    """Return the board a parsed board TOML describes (unchecked: see :func:`problems`).

    :raises DeckFormatError: a field of the wrong type.
    """
    try:
        board = Board(str(data.get("name") or default_name), int(data["columns"]), int(data["rows"]),
                      [str(c).upper() for c in data["basic"]], [int(c) for c in data.get("central", [])])
        for lay in data.get("layout", []):
            board.layouts[int(lay["players"])] = [
                SeatLayout([int(c) for c in s["columns"]], str(s["outermost"]).upper(),
                           str(s.get("forward", "right")), str(s.get("up", "up"))) for s in lay["seats"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise DeckFormatError(f"a board needs columns, rows, basic, central and layouts ({exc!r} is wrong)") from None
    return board


def is_bundled(name: str) -> bool:
    """Return True if ``name`` is a bundled board's name (``standard``, ``large``)."""
    return bool(re.fullmatch(r"[a-z0-9-]{1,32}", name)) and \
        (paths.resource_dir("decks") / "2xd6" / "boards" / f"{name}.toml").is_file()


def load(spec: str, from_document: bool = False) -> Board:
    """Return the board ``spec`` names: a bundled board name or a path to a board TOML.

    With ``from_document`` the name was read from a match document: only a bundled board
    is opened (a document carries a board of a player's own line by line, never a file).

    :raises DeckFormatError: it cannot be read or breaks a board rule (every problem listed);
        a document naming anything but a bundled board.
    """
    if from_document and not is_bundled(spec):
        raise DeckFormatError(f"the document names the board {spec[:40]!r} and has no 'Board:' lines; "
                              "a document names a bundled board (standard, large) or carries its own")
    from pathlib import Path  # here: a command that reads no board file does not load pathlib

    bundled = paths.resource_dir("decks") / "2xd6" / "boards" / f"{spec}.toml"
    path = bundled if "/" not in spec and not spec.endswith(".toml") else Path(spec)
    import tomllib  # here, not at the top: its import compiles regular expressions every command would pay for
    try:
        raw = path.read_bytes()
        if len(raw) > 50_000:
            raise DeckFormatError("the board file is over 50000 bytes", source=spec)
        data = tomllib.loads(raw.decode("utf-8"))
    except OSError:
        raise DeckFormatError("no such board (bundled: standard, large; or a path to a board TOML)",
                              source=spec) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DeckFormatError(f"not a TOML board: {exc}", source=spec) from None
    board = from_data(data, path.stem)
    found = problems(board)
    if found:
        raise DeckFormatError(f"{len(found)} problem(s):\n" + "\n".join(f"  - {p}" for p in found), source=spec)
    return board


def layout(board: Board, players: int) -> list[SeatLayout]:
    """Return the seats' layouts for ``players`` players.

    :raises DeckFormatError: the board has no layout for that many players.
    """
    if players not in board.layouts:
        raise DeckFormatError(f"the board {board.name!r} has no layout for {players} players "
                              f"(it has: {', '.join(map(str, sorted(board.layouts))) or 'none'})",
                              hint="-O board=large seats 4 to 6")
    return board.layouts[players]


def seated(board: Board, players: int) -> Board:
    """Return ``board`` keeping only the seats' layout for ``players`` players (the one a match uses).

    :raises DeckFormatError: the board has no layout for that many players.
    """
    board.layouts = {players: layout(board, players)}
    return board
