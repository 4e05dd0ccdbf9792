"""2Xd6 decks as data: load a deck TOML (bundled name or path), list every problem, fingerprint it.

A deck file, in the shape of ``decks/2xd6/standard.toml``::

    name = "standard"
    [[card]]
    rank = "7"            # 2..10, J, Q, K, A or ? (also 11..15 for the Faces)
    pips = 7              # what it costs to play (a 10 costs 1 onto a stack)
    power = 7             # the bottom-centre power number
    core = "Onyx"         # Onyx (black), Gold (yellow), Wyte (white), Pink (magenta), Cyan (blue)
    resistance = "Gold"   # the left box
    targeting = "Onyx"    # the right box
    id = "7O"             # optional: rank + core initial unless given

A deck has 54 cards: 36 Pip cards (2-10, four of each) and 18 Face cards (J, Q, K, A four
of each, two ?).  Card ids must be unique.  A document names a deck by its bundled name
or by its content hash (``sha256:`` and 16 hex digits), never by a file path.
"""

from __future__ import annotations

import os
from collections import Counter

from pbd import paths
from pbd.digest import sha256
from pbd.errors import DeckFormatError
from pbd.record import FrozenRecord, Record
from pbd.regex import pattern

COLOURS = ("Onyx", "Gold", "Wyte", "Pink", "Cyan")
ALIASES = {"black": "Onyx", "yellow": "Gold", "white": "Wyte", "magenta": "Pink", "blue": "Cyan"}
FACE_RANKS = ("J", "Q", "K", "A", "?")
RANKS = tuple(str(n) for n in range(2, 11)) + FACE_RANKS
RANK_ALIASES = {"11": "J", "12": "Q", "13": "K", "14": "A", "15": "?"}
COMPOSITION = {**{str(n): 4 for n in range(2, 11)}, "J": 4, "Q": 4, "K": 4, "A": 4, "?": 2}
MAX_BYTES = 200_000
MAX_CARDS = 600
DEFAULT = "standard"


class Card(FrozenRecord):
    """One 2Xd6 card: id, rank, pips (cost), power and its three colours."""

    id: str
    rank: str
    pips: int
    power: int
    core: str
    resistance: str
    targeting: str

    FIELDS = ("id", "rank", "pips", "power", "core", "resistance", "targeting")

    def __init__(self, id: str, rank: str, pips: int, power: int, core: str, resistance: str, targeting: str):
        self._set(id=id, rank=rank, pips=pips, power=power, core=core, resistance=resistance, targeting=targeting)

    @property
    def face(self) -> bool:
        """True for a Face card (J, Q, K, A, ?)."""
        return self.rank in FACE_RANKS

    @property
    def leader(self) -> bool:
        """True for a Face or a 10: the cards with an Advancement limit and a Targeting distance."""
        return self.face or self.rank == "10"

    @property
    def number(self) -> int:
        """The card's number for the stacking rule (2..10, J 11 ... ? 15)."""
        return RANKS.index(self.rank) + 2

    def label(self) -> str:
        """Return the card as the board shows it: ``Q Onyx (6, power 7, R Gold, T Onyx)``."""
        return (f"{self.id} {self.core} (pips {self.pips}, power {self.power}, "
                f"R {self.resistance}, T {self.targeting})")


class Deck(Record):
    """A loaded deck: its cards in file order and how the document names it."""

    name: str
    cards: list[Card]

    FIELDS = ("name", "cards")

    def __init__(self, name: str, cards: list[Card]):
        self.name = name
        self.cards = cards

    def by_id(self) -> dict[str, Card]:
        """Return the cards by id."""
        return {c.id: c for c in self.cards}

    def fingerprint(self) -> str:
        """Return ``sha256:`` + 16 hex digits of the deck's content (order and ids included)."""
        text = "\n".join(f"{c.id}|{c.rank}|{c.pips}|{c.power}|{c.core}|{c.resistance}|{c.targeting}"
                         for c in self.cards)
        return "sha256:" + sha256(text.encode()).hexdigest()[:16]

    def reference(self) -> str:
        """Return how a document names this deck: the bundled name, else the content hash."""
        try:
            if bundled(self.name).fingerprint() == self.fingerprint():
                return self.name
        except DeckFormatError:
            pass
        return self.fingerprint()

    def copies(self, n: int) -> "Deck":
        """Return ``n`` copies of the deck as one (the Mod), ids suffixed ``.2``, ``.3``..."""
        cards = [c if k == 1 else Card(f"{c.id}.{k}", c.rank, c.pips, c.power, c.core, c.resistance, c.targeting)
                 for k in range(1, n + 1) for c in self.cards]
        return Deck(self.name if n == 1 else f"{self.name} x{n}", cards)


def _colour(value, where: str, problems: list[str]) -> str:
    name = ALIASES.get(str(value).strip().lower(), str(value).strip().capitalize())
    if name not in COLOURS:
        problems.append(f"{where}: colour {value!r} is not one of {', '.join(COLOURS)}")
    return name


def _int(raw: dict, key: str, where: str, problems: list[str]) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 99:
        problems.append(f"{where}: {key} must be a whole number from 1 to 99, not {value!r}")
        return 1
    return value


def parse_cards(data: dict, problems: list[str]) -> list[Card]:
    """Return the cards of a parsed deck TOML, adding every problem found to ``problems``."""
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append("no [[card]] tables")
        return []
    if len(raw_cards) > MAX_CARDS:
        problems.append(f"{len(raw_cards)} cards; at most {MAX_CARDS}")
        return []
    cards = []
    for i, raw in enumerate(raw_cards, 1):
        where = f"card {i}"
        if not isinstance(raw, dict):
            problems.append(f"{where}: not a table")
            continue
        rank = RANK_ALIASES.get(str(raw.get("rank", "")).strip().upper(), str(raw.get("rank", "")).strip().upper())
        if rank not in RANKS:
            problems.append(f"{where}: rank {raw.get('rank')!r} is not one of 2-10, J, Q, K, A, ?")
        core = _colour(raw.get("core", ""), where, problems)
        card_id = str(raw.get("id") or f"{rank}{core[:1]}")
        if not 1 <= len(card_id) <= 12 or any(ch.isspace() or ch in ",;:()[]·" for ch in card_id):
            problems.append(f"{where}: id {card_id!r} must be 1-12 characters without spaces or , ; : ( ) [ ] ·")
        cards.append(Card(card_id, rank, _int(raw, "pips", where, problems), _int(raw, "power", where, problems),
                          core, _colour(raw.get("resistance", ""), where, problems),
                          _colour(raw.get("targeting", ""), where, problems)))
    return cards


def composition_problems(cards: list[Card]) -> list[str]:
    """Return what keeps ``cards`` from being a 54-card 2Xd6 deck (ranks counted, ids unique)."""
    out = []
    counts = Counter(c.rank for c in cards)
    for rank, want in COMPOSITION.items():
        if counts[rank] != want:
            out.append(f"{want} cards of rank {rank} expected, found {counts[rank]}")
    for card_id, n in Counter(c.id for c in cards).items():
        if n > 1:
            out.append(f"id {card_id!r} is used by {n} cards (give them distinct ids)")
    return out


def load(spec: str, remember: bool = False) -> Deck:
    """Return the deck ``spec`` names: a bundled deck name, a deck file's hash, or a path to a deck TOML.

    With ``remember``, a deck file is kept under PBD_HOME by its fingerprint, so that later
    commands find the deck a document names by that hash (:func:`by_hash`).

    :raises DeckFormatError: the file cannot be read, or any problem (all listed); a hash this
        machine has not seen.
    """
    if HASH_RE.fullmatch(spec):
        return by_hash(spec)
    path = _locate(spec)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise DeckFormatError(f"cannot read the deck: {exc.strerror}", source=spec) from None
    if len(raw) > MAX_BYTES:
        raise DeckFormatError(f"the deck file is over {MAX_BYTES} bytes", source=spec)
    from pbd import cache

    stem = os.path.splitext(os.path.basename(path))[0]
    deck = cache.cached("2xd6-deck", path, raw, lambda: _parse(raw, spec, stem), (Deck, Card), Deck)
    if remember and deck.reference() != DEFAULT:
        target = os.path.join(_store(), f"{deck.fingerprint().split(':')[1]}.toml")
        if not os.path.exists(target):
            paths.write_private(target, raw)
    return deck


def _parse(raw: bytes, spec: str, stem: str) -> Deck:
    """Return the deck the TOML ``raw`` describes (``spec`` names it in messages, ``stem`` is its default name).

    :raises DeckFormatError: it is not TOML or breaks a deck rule (every problem listed).
    """
    import tomllib  # here, not at the top: its import compiles regular expressions every command would pay for

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DeckFormatError(f"not a TOML deck: {exc}", source=spec) from None
    problems: list[str] = []
    cards = parse_cards(data, problems)
    problems += composition_problems(cards) if cards else []
    if problems:
        raise DeckFormatError(f"{len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems),
                              source=spec)
    return Deck(str(data.get("name") or stem), cards)


#: how a document names a deck file: its fingerprint (:meth:`Deck.fingerprint`)
HASH_RE = pattern(r"sha256:[0-9a-f]{16}")


def _store() -> str:
    return os.path.join(paths.home(), "decks", "2xd6")


def by_hash(ref: str) -> Deck:
    """Return the deck file this machine kept under the fingerprint ``ref``.

    :raises DeckFormatError: no such deck was given here (with ``--deck FILE``) yet.
    """
    stored = os.path.join(_store(), f"{ref.split(':')[1]}.toml")
    deck = load(stored) if os.path.isfile(stored) else None
    if deck is None or deck.fingerprint() != ref:
        raise DeckFormatError(f"this match uses the deck file {ref}, which this machine has not seen",
                              hint="give your copy once: pbd join DOC --deck FILE, or pbd catalogue add FILE "
                                   "--game 2xd6")
    return deck


def bundled(name: str) -> Deck:
    """Return a bundled deck by name.

    :raises DeckFormatError: there is no such bundled deck.
    """
    if HASH_RE.fullmatch(name):
        return by_hash(name)
    return load(name) if os.path.isfile(_bundled_path(name)) else _no_such(name)


def _no_such(name: str):
    raise DeckFormatError(f"no bundled 2Xd6 deck {name!r}", hint=f"bundled: {DEFAULT}; or give a path to a deck TOML")


def _bundled_path(name: str) -> str:
    """Return the path of a bundled deck (paths are strings here: :mod:`pathlib` costs a command ~5 ms to load)."""
    return paths.resource("decks", "2xd6", f"{name}.toml")


def _locate(spec: str) -> str:
    if "/" not in spec and "\\" not in spec and not spec.endswith(".toml"):
        path = _bundled_path(spec)
        if os.path.isfile(path):
            return path
        _no_such(spec)
    return os.path.normpath(spec)


def resolve(reference: str, offered: str | None = None) -> Deck:
    """Return the deck a document names (bundled name or content hash); ``offered`` supplies a file.

    :raises DeckFormatError: the reference is a hash and no matching deck file was offered.
    """
    if not reference.startswith("sha256:"):
        return bundled(reference)
    if offered:
        deck = load(offered)
        if deck.fingerprint() == reference:
            return deck
        raise DeckFormatError(f"{offered} is not the deck this match uses ({deck.fingerprint()}, the document "
                              f"says {reference})")
    raise DeckFormatError(f"this match uses a custom deck ({reference}); give its file with --deck FILE")
