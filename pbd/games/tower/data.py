"""The Tower's data files: the board (floors, tiles, directions, start, treasure) and the deck.

Both are TOML (``decks/tower/board.toml`` is the default board, ``decks/tower/deck.toml`` the
default deck, one shared face-down pile).  ``pbd new tower`` reads a player's own board
(``-O board=FILE``) and deck (``--deck FILE`` or ``-O deck=FILE``) once, on the creating
player's machine; their *content* goes into the match document (the ``Board:`` line; the
deck's name, kinds and counts in the ``Cards:`` line), so a document never names a file and
every seat's pbd, the replay and the audit rebuild the same tower and piles from it.  Every
problem of a file is listed at once (exit 3, nothing written).

Board file::

    name = "The Tower"
    floors = 6                 # 2..20
    tiles_per_floor = 8        # 2..20
    directions = ["right", "left", "right", "left", "right", "left"]   # bottom floor first
    start = 1                  # where every token starts
    treasure = 48              # reaching it wins

``directions`` is optional (alternating, floor 1 running right); ``start`` defaults to 1 and
``treasure`` to the last tile.  The tile above a tile is the tile of the next floor in the
same column; that is where a Rope leads (and a Trapdoor leads to the tile below).

Deck file::

    name = "pbd default deck"
    [cards]
    Torch = 5
    ...

Every kind of :data:`~pbd.games.tower.state.KINDS` may appear (0..60 each, 1..300 in all).
"""

from __future__ import annotations


from pbd.errors import DeckFormatError
from pbd.games.tower.state import KINDS, DeckSpec, Layout
from pbd.regex import pattern

MAX_SIDE = 20
MAX_KIND = 60
MAX_DECK = 300
MAX_FILE = 64 * 1024
NAME_RE = pattern(r"^[^\n·|\[\]]{1,60}$")


class DataProblems(DeckFormatError):
    """A board or deck file with problems; ``problems`` lists every one (exit 3)."""

    def __init__(self, source: str, problems: list[str], files: int = 1):
        super().__init__(f"{len(problems)} problem(s) in " + ("this file" if files == 1 else "these files"),
                         source=source)
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join([self.message, *(f"  - {p}" for p in self.problems)])


def bundled(name: str) -> Path:
    """Return the path of a bundled data file (``board`` or ``deck``)."""
    from pbd import paths  # (and pathlib, at :func:`pbd.paths.resource_dir`: only the commands that read a file)

    return paths.resource_dir("decks") / "tower" / f"{name}.toml"


def read_toml(spec: str, kind: str) -> tuple[dict, str]:
    """Return ``(table, source)`` of a TOML file: a path, or ``default`` for the bundled one.

    :raises DeckFormatError: the file is missing, too big, or not TOML.
    """
    from pathlib import Path

    path = bundled(kind) if spec.strip().lower() in ("default", "") else Path(spec).expanduser()
    source = "default " + kind if path == bundled(kind) else spec
    try:
        if not path.is_file():
            raise DeckFormatError(f"no {kind} file here", source=source,
                                  hint=f"give a TOML {kind} file, or 'default'")
        if path.stat().st_size > MAX_FILE:
            raise DeckFormatError(f"a {kind} file is at most {MAX_FILE // 1024} KB", source=source)
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DeckFormatError("not a text file (expected UTF-8 TOML)", source=source) from None
    except OSError as exc:
        raise DeckFormatError(f"cannot read the {kind} file ({exc.strerror or exc})", source=source) from None
    import tomllib  # here, not at the top: its import compiles regular expressions every command would pay for
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as exc:
        raise DeckFormatError(f"not valid TOML: {exc}", source=source) from None


def load_layout(spec: str = "default") -> Layout:
    """Return the board a TOML file describes.

    :raises DeckFormatError: the file cannot be read; :class:`DataProblems` lists every problem.
    """
    return _load(spec, "board", layout_from)


def _load(spec: str, kind: str, build):
    table, source = read_toml(spec, kind)
    value, problems = build(table)
    if problems:
        raise DataProblems(source, problems)
    return value


def _int(table: dict, key: str, low: int, high: int, problems: list[str], default: int | None = None) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{key} must be a whole number from {low} to {high}, not {value!r}"[:120])
        return low
    if not low <= value <= high:
        problems.append(f"{key} must be from {low} to {high}, not {value}")
        return max(low, min(high, value))
    return value


def layout_from(table: dict) -> tuple[Layout, list[str]]:
    """Return ``(layout, problems)`` for a parsed board table (every problem listed)."""
    problems: list[str] = []
    known = {"name", "floors", "tiles_per_floor", "directions", "start", "treasure"}
    problems += [f"unknown key {k!r}" + _close(k, known) for k in table if k not in known]
    name = table.get("name", "The Tower")
    if not isinstance(name, str) or not NAME_RE.match(name):
        problems.append("name must be 1 to 60 characters, without '·', '|', brackets or line breaks")
        name = "The Tower"
    floors = _int(table, "floors", 2, MAX_SIDE, problems)
    width = _int(table, "tiles_per_floor", 2, MAX_SIDE, problems)
    default = [("right", "left")[i % 2] for i in range(floors)]
    directions = table.get("directions", default)
    if not isinstance(directions, list) or not all(d in ("right", "left") for d in directions):
        problems.append('directions must be a list of "right" / "left", one per floor (bottom floor first)')
        directions = default
    elif len(directions) != floors:
        problems.append(f"directions lists {len(directions)} floors; the board has {floors}")
        directions = (directions + default)[:floors]
    start = _int(table, "start", 1, floors * width, problems, default=1)
    treasure = _int(table, "treasure", 1, floors * width, problems, default=floors * width)
    if start >= treasure:
        problems.append(f"the start ({start}) must come before the treasure ({treasure})")
    return Layout(name, floors, width, list(directions), start, treasure), problems


def load_deck(spec: str = "default") -> DeckSpec:
    """Return the deck a TOML file describes.

    :raises DeckFormatError: the file cannot be read; :class:`DataProblems` lists every problem.
    """
    return _load(spec, "deck", deck_from)


def deck_from(table: dict) -> tuple[DeckSpec, list[str]]:
    """Return ``(deck, problems)`` for a parsed deck table (every problem listed)."""
    problems = [f"unknown key {k!r}" + _close(k, {"name", "cards"}) for k in table if k not in ("name", "cards")]
    name = table.get("name", "custom deck")
    if not isinstance(name, str) or not NAME_RE.match(name):
        problems.append("name must be 1 to 60 characters, without '·', '|', brackets or line breaks")
        name = "custom deck"
    cards = table.get("cards")
    if not isinstance(cards, dict):
        return DeckSpec(name), problems + ["a [cards] table is needed: one 'Kind = count' line per kind"]
    counts: dict[str, int] = {}
    for key, value in cards.items():
        kind = kind_named(key)
        if kind is None:
            problems.append(f"unknown card kind {key!r}" + _close(key, KINDS))
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_KIND:
            problems.append(f"{kind}: a count from 0 to {MAX_KIND}, not {value!r}"[:120])
        elif kind in counts:
            problems.append(f"{kind} is listed twice")
        else:
            counts[kind] = value
    ordered = {k: counts[k] for k in KINDS if counts.get(k)}
    total = sum(ordered.values())
    if not 1 <= total <= MAX_DECK:
        problems.append(f"a deck has 1 to {MAX_DECK} cards, this one {total}")
    return DeckSpec(name, ordered), problems


def kind_named(text: str) -> str | None:
    """Return the card kind ``text`` names (any case, spaces or dashes, short names), or None."""
    from pbd.games.tower.state import SHORT

    key = " ".join(str(text).replace("-", " ").replace("_", " ").split()).casefold()
    for kind in KINDS:
        if key in (kind.casefold(), kind.casefold().replace(" ", "")):
            return kind
    return SHORT.get(key) or SHORT.get(key.replace(" ", ""))


def _close(word: str, options) -> str:
    import difflib      # only to suggest a name for one that matches none
    close = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
