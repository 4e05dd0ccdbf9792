"""Deck lists for any game: the DESIGN.md list format, reading it, and finding bundled decks.

A deck list is the rulebook's "cards listed and numbered, 1 to 50", one card a line::

    # Forces of Justice                 <- the first comment is the title
    Porter: The Porter                  <- optional, for games that have one
    Catalogue: my-cards.toml            <- optional: the player's own cards (relative to this file)
    1. Spider-Man
    2. Spider-Man
    3x Hawkeye                          <- shorthand: positions 3, 4 and 5
    2 Storm                             <- shorthand too: positions 6 and 7

Numbered lines must run 1, 2, 3, ... without gaps or repeats; shorthand lines take the
next positions.  Blank lines and ``#`` comments are ignored.  Names are kept as written:
resolving them against a catalogue, and the construction rules, belong to each game.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from pbd.errors import DeckFormatError
from pbd.paths import resource, resource_dir
from pbd.record import Record
from pbd.regex import pattern
from pbd.textfile import read_text_file  # noqa: F401  (read_text_file stays importable from here)

if TYPE_CHECKING:
    from pathlib import Path

#: the most copies one shorthand line may ask for (a guard against "99999999x Nill")
MAX_SHORTHAND = 999

_NUMBERED = pattern(r"^(\d+)\s*[.)]\s*(.*)$")
_SHORTHAND = pattern(r"^(\d+)\s*(?:[x×*]\s+|\s+)(.*)$", re.IGNORECASE)
_KEYED = pattern(r"^(porter|catalogue|catalog)\s*:\s*(.*)$", re.IGNORECASE)
_TRAILING_COMMENT = pattern(r"\s+#.*$")

EXPECTED = ("expected '12. Card name', '3x Card name', 'Porter: NAME', 'Catalogue: FILE', "
            "a '# comment' or a blank line")


class DeckList(Record):
    """A parsed deck list: card names as written, in position order 1..N."""

    title: str
    porter: str | None
    cards: list[str]
    source: str
    catalogue: str | None
    #: the line of the list each card came from (same order as ``cards``)
    lines: list[int]

    FIELDS = ("title", "porter", "cards", "source", "catalogue", "lines")

    def __init__(self, title: str, porter: str | None, cards: list[str], source: str = "", catalogue: str | None = None,
                 lines: list[int] | None = None):
        self.title = title
        self.porter = porter
        self.cards = cards
        self.source = source
        self.catalogue = catalogue
        self.lines = [] if lines is None else lines

    def line_of(self, position: int) -> int | None:
        """Return the source line of the card at 1-based ``position`` (None if unknown)."""
        return self.lines[position - 1] if 0 < position <= len(self.lines) else None


#: Bounds on a deck list (a C&C deck has 50 cards).
MAX_LINE = 300
MAX_CARDS = 1000


def parse_deck_list(text: str, source: str = "") -> DeckList:
    """Return the deck list in ``text`` (the DESIGN.md format).

    ``source`` names the file in messages and anchors a relative ``Catalogue:`` path.

    :raises DeckFormatError: a line is none of the accepted forms, a number is out of
        order, or a ``Porter:`` / ``Catalogue:`` line is empty or repeated (the error names
        the line and what was expected).
    """
    title: str | None = None
    porter: tuple[str, int] | None = None
    catalogue: tuple[str, int] | None = None
    cards: list[str] = []
    lines: list[int] = []

    def fail(lineno: int, message: str) -> DeckFormatError:
        return DeckFormatError(message, line=lineno, source=source or None)

    for lineno, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if title is None:
                title = line.lstrip("#").strip()
            continue
        line = _TRAILING_COMMENT.sub("", line)
        if len(line) > MAX_LINE or (len(cards) > MAX_CARDS and not _KEYED.match(line)):
            raise fail(lineno, f"a deck list has lines of at most {MAX_LINE} characters and at most "
                               f"{MAX_CARDS} cards")
        if re.match(r"\d{7,}", line):
            raise fail(lineno, f"the number {line[:12]}… is too large for a deck list")
        keyed = _KEYED.match(line)
        if keyed:
            key, value = keyed.group(1).lower(), keyed.group(2).strip()
            if key == "porter":
                porter = _keyed_value(porter, "Porter", value, lineno, fail)
            else:
                catalogue = _keyed_value(catalogue, "Catalogue", value, lineno, fail)
            continue
        numbered = _NUMBERED.match(line)
        if numbered:
            number, name = int(numbered.group(1)), numbered.group(2).strip()
            expected = len(cards) + 1
            if number != expected:
                raise fail(lineno, _order_message(number, expected))
            if not name:
                raise fail(lineno, f"card {number} has no name; expected '{number}. Card name'")
            cards.append(name)
            lines.append(lineno)
            continue
        short = _SHORTHAND.match(line)
        if short and short.group(2).strip():
            count, name = int(short.group(1)), short.group(2).strip()
            if not 1 <= count <= MAX_SHORTHAND:
                raise fail(lineno, f"'{line}' asks for {count} copies; expected 1 to {MAX_SHORTHAND}")
            cards.extend([name] * count)
            lines.extend([lineno] * count)
            continue
        shown = raw.strip() if len(raw.strip()) <= 60 else raw.strip()[:60] + "…"
        raise fail(lineno, f"cannot read {shown!r}; {EXPECTED}")

    return DeckList(
        title=title if title else (os.path.splitext(os.path.basename(source))[0] if source else ""),
        porter=porter[0] if porter else None,
        cards=cards,
        source=source,
        catalogue=_relative_to(catalogue[0], source) if catalogue else None,
        lines=lines,
    )


def _keyed_value(previous: tuple[str, int] | None, key: str, value: str, lineno: int, fail):
    """Return ``(value, lineno)`` for a ``Key: value`` line, refusing empties and repeats."""
    if not value:
        raise fail(lineno, f"the {key} line is empty; expected '{key}: NAME'")
    if previous is not None:
        raise fail(lineno, f"a second {key} line (the first is on line {previous[1]}); "
                           f"a deck has one {key}")
    return value, lineno


def _order_message(number: int, expected: int) -> str:
    """Return the message for a numbered line out of order."""
    if number < expected:
        return (f"card number {number} again (or out of order); expected {expected} next -- "
                "number the cards 1, 2, 3, ... without repeats")
    return (f"card number {number} skips {_span(expected, number - 1)}; expected {expected} next -- "
            "number the cards 1, 2, 3, ... without gaps")


def _span(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}-{b}"


def _relative_to(path: str, source: str) -> str:
    """Return ``path`` resolved against the folder of the deck file ``source``."""
    from pathlib import Path

    p = Path(path).expanduser()
    if p.is_absolute() or not source:
        return str(p)
    return str(Path(source).parent / p)


# -- files and bundled decks ------------------------------------------------------------

def bundled_decks(game: str) -> list[str]:
    """Return the names of the decks bundled for ``game`` (sorted; empty if none)."""
    folder = resource_dir("decks") / game
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.txt") if p.is_file())


def find_deck(spec: str, game: str) -> Path:
    """Return the deck file ``spec`` means: an existing path, else a bundled deck of ``game``.

    A bundled deck is named without its folder or ``.txt`` (``forces-of-justice``);
    case is forgiven.

    :raises DeckFormatError: no such file and no bundled deck of that name (the bundled
        names are listed, with the closest first).
    """
    from pathlib import Path

    path = Path(spec).expanduser()
    if path.is_file():
        return path
    if path.exists():
        raise DeckFormatError("not a deck list file (it is a folder)", source=spec)
    names = bundled_decks(game)
    stem = spec[:-4] if spec.lower().endswith(".txt") else spec
    for name in names:
        if name.casefold() == stem.casefold():
            return resource_dir("decks") / game / f"{name}.txt"
    import difflib

    close = difflib.get_close_matches(stem.casefold(), names, n=1, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    hint += f"bundled {game} decks: {', '.join(names)}" if names else f"no decks are bundled for {game}"
    if any(sep in spec for sep in ("/", "\\")) or spec.lower().endswith(".txt"):
        raise DeckFormatError("deck list file not found", source=spec, hint=hint)
    raise DeckFormatError(f"no deck file {spec!r}, and no bundled {game} deck of that name",
                          hint=hint)


def read_deck_list(path: str | Path) -> DeckList:
    """Return the deck list in the file at ``path``.

    :raises DeckFormatError: the file is missing or unreadable, or a line cannot be parsed.
    """
    source = str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise DeckFormatError("deck list file not found", source=source) from None
    except IsADirectoryError:
        raise DeckFormatError("not a deck list file (it is a folder)", source=source) from None
    except UnicodeDecodeError:
        raise DeckFormatError("not a text file (expected UTF-8 text)", source=source) from None
    except OSError as exc:
        raise DeckFormatError(f"cannot read the deck list ({exc.strerror or exc})", source=source) from None
    return parse_deck_list(text, source)


def load_deck_list(spec: str, game: str) -> DeckList:
    """Return the deck list ``spec`` names (a path, or a bundled deck of ``game``).

    :raises DeckFormatError: not found, unreadable, or a line cannot be parsed.
    """
    return read_deck_list(find_deck(spec, game))


# -- files a document names --------------------------------------------------------------

#: How a document names a catalogue or deck list installed by content hash.
HASH_NAME = pattern(r"sha256-[0-9a-f]{16}")
_BUNDLED_NAME = pattern(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}(?:\.(?:txt|toml))?")


def installed_dir() -> str:
    """Return PBD_HOME/catalogues, where ``pbd catalogue add`` keeps files under their content hash."""
    from pbd.paths import home

    return os.path.join(home(), "catalogues")


def document_file(spec: str, game: str, suffixes: tuple[str, ...] = (".txt", ".toml")) -> str:
    """Return the file a match document names as its deck or catalogue: bundled, or installed by hash.

    The document is shared (anyone with the link can edit it), so what it names is never
    opened as a path: only a bundled name of ``game`` (``sample``) or a content-hash name
    (``sha256-…``) that this player installed with ``pbd catalogue add FILE``.

    :raises DeckFormatError: anything else (quoted as a short excerpt, never opened).
    """
    if HASH_NAME.fullmatch(spec):
        for suffix in suffixes:
            if os.path.isfile(path := os.path.join(installed_dir(), f"{spec}{suffix}")):
                return path
        raise DeckFormatError(f"the document uses the catalogue or deck {spec}, which is not installed here "
                              "(get the file from your opponent and run: pbd catalogue add FILE)")
    if _BUNDLED_NAME.fullmatch(spec):
        for name in (spec, *(f"{spec}{suffix}" for suffix in suffixes)):
            if os.path.isfile(path := resource("decks", game, name)):
                return path
    shown = spec if len(spec) <= 40 else spec[:40] + "…"
    raise DeckFormatError(f"the document names {shown!r} as its deck or catalogue, which is neither bundled nor "
                          "installed by content hash; pbd never opens a file a document names",
                          hint="bundled: " + ", ".join(sorted(p.name for p in (resource_dir("decks") / game).glob("*")))
                          + "; others: pbd catalogue add FILE")


def install(text: str, suffix: str) -> str:
    """Keep ``text`` in PBD_HOME/catalogues under its content hash; return the name documents use.

    :raises DeckFormatError: PBD_HOME cannot be written.
    """
    from pbd.digest import hexdigest
    from pbd.paths import write_private

    data = text.encode("utf-8")
    name = "sha256-" + hexdigest(data)[:16]
    try:
        write_private(os.path.join(installed_dir(), f"{name}{suffix}"), data)
    except OSError as exc:
        raise DeckFormatError(f"cannot install into {installed_dir()}: {exc.strerror or exc}") from None
    return name


def load_toml(text: str, source: str) -> dict:
    """Return the TOML document ``text`` as data.

    :raises DeckFormatError: not TOML, or nested too deeply to read (never a crash).
    """
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckFormatError(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise DeckFormatError("the TOML is nested too deeply to read", source=source) from None
