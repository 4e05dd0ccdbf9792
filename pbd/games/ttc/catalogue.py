"""Twin Tower City card catalogues (TOML) and deck lists.

A catalogue, in the shape players write by hand::

    [[warrior]]        # name, side = "dark" | "light", power
    name = "Don Triumph"
    side = "light"
    power = 9

    [[item]]           # name, side, power, bonus = [{wielder = NAME, plus = N} | {against = NAME, plus = N}]
    name = "Virus"
    side = "dark"
    power = 6
    bonus = [{ wielder = "Doctor Sickle", plus = 5 }, { against = "Don Triumph", plus = 5 }]

    [[environment]]    # name, side, power
    [[battle]]         # id, dark_warrior, dark_item, light_warrior, light_item, environment
    [[army]]           # id, side, warriors = [five names]
    [[levelled]]       # id, side, warrior (the base warrior it stands in for), level, power

A deck list names the 80 cards of one deck by id, one entry a line::

    # Twin Tower City sample deck
    catalogue: sample.toml        (relative to the deck file; default: the bundled catalogue)
    battle 1-50
    army 101-110
    warrior 201, 202, 203

``battle`` / ``army`` / ``warrior`` is optional (checked against the catalogue when
given); ``#`` starts a comment.  A ``.toml`` catalogue given as a deck is the deck of
all its cards.
"""

from __future__ import annotations

import os
import re
from functools import cached_property
from typing import TYPE_CHECKING

from pbd import paths
from pbd.digest import hexdigest
from pbd.errors import AmbiguousNameError, DeckFormatError, UnknownNameError
from pbd.record import FrozenRecord, Record
from pbd.regex import pattern

if TYPE_CHECKING:
    from pathlib import Path

SIDES = ("light", "dark")
KINDS = ("battle", "army", "warrior")
#: The composition of a deck: (kind, side or None) -> count.
COMPOSITION = {("battle", None): 50, ("army", "dark"): 10, ("warrior", "dark"): 5,
               ("army", "light"): 10, ("warrior", "light"): 5}
DEFAULT_CATALOGUE = "sample.toml"

# The cards and their parts are frozen records (hashable, immutable, compared by value), written
# out by hand: a named tuple compiles its constructor each time the module is imported (about
# 0.2 ms apiece, paid by every Twin Tower City command).  Their ``repr`` is a named tuple's,
# which ``Deck.fingerprint`` hashes: a fingerprint written in a document stays the same.


class Bonus(FrozenRecord):
    """An item bonus: ``plus`` when ``warrior`` wields it (``wielder``) or is its target (``against``)."""

    FIELDS = ("kind", "warrior", "plus")

    def __init__(self, kind: str, warrior: str, plus: int):
        self._set(kind=kind, warrior=warrior, plus=plus)


class Warrior(FrozenRecord):
    """A Dark or Light warrior with its Power."""

    FIELDS = ("name", "side", "power")

    def __init__(self, name: str, side: str, power: int):
        self._set(name=name, side=side, power=power)


class Item(FrozenRecord):
    """A Dark or Light item with its Power and bonuses."""

    FIELDS = ("name", "side", "power", "bonuses")

    def __init__(self, name: str, side: str, power: int, bonuses: tuple[Bonus, ...] = ()):
        self._set(name=name, side=side, power=power, bonuses=bonuses)


class Environment(FrozenRecord):
    """An environment: adds its Power to its own side."""

    FIELDS = ("name", "side", "power")

    def __init__(self, name: str, side: str, power: int):
        self._set(name=name, side=side, power=power)


class Battle(FrozenRecord):
    """A Battle Card: a Dark warrior and item, a Light warrior and item, an environment."""

    FIELDS = ("id", "dark_warrior", "dark_item", "light_warrior", "light_item", "environment", "kind")

    def __init__(self, id: int, dark_warrior: str, dark_item: str, light_warrior: str, light_item: str,
                 environment: str, kind: str = "battle"):
        self._set(id=id, dark_warrior=dark_warrior, dark_item=dark_item, light_warrior=light_warrior,
                  light_item=light_item, environment=environment, kind=kind)


class Army(FrozenRecord):
    """An Army Card: five warriors of one side."""

    FIELDS = ("id", "side", "warriors", "kind")

    def __init__(self, id: int, side: str, warriors: tuple[str, ...], kind: str = "army"):
        self._set(id=id, side=side, warriors=warriors, kind=kind)


class Levelled(FrozenRecord):
    """A Warrior Card: a levelled-up warrior standing in for its base warrior."""

    FIELDS = ("id", "side", "warrior", "level", "power", "kind")

    def __init__(self, id: int, side: str, warrior: str, level: int, power: int, kind: str = "warrior"):
        self._set(id=id, side=side, warrior=warrior, level=level, power=power, kind=kind)

    @property
    def name(self) -> str:
        """Return the name players see: ``Level 10 Don Triumph``."""
        return f"Level {self.level} {self.warrior}"


class Catalogue(Record):
    """Every warrior, item, environment and card of a collection."""

    source: str
    warriors: dict[str, Warrior]
    items: dict[str, Item]
    environments: dict[str, Environment]
    cards: dict[int, Battle | Army | Levelled]

    FIELDS = ("source", "warriors", "items", "environments", "cards")

    def __init__(self, source: str = "", warriors: dict[str, Warrior] | None = None,
                 items: dict[str, Item] | None = None, environments: dict[str, Environment] | None = None,
                 cards: dict[int, Battle | Army | Levelled] | None = None):
        self.source = source
        self.warriors = {} if warriors is None else warriors
        self.items = {} if items is None else items
        self.environments = {} if environments is None else environments
        self.cards = {} if cards is None else cards

    def card(self, card_id: int, kind: str | None = None):
        """Return card ``card_id``, checking its kind when given.

        :raises UnknownNameError: no such card (of that kind).
        """
        card = self.cards.get(card_id)
        if card is None or (kind and card.kind != kind):
            what = f"{kind} card" if kind else "card"
            near = sorted((i for i, c in self.cards.items() if not kind or c.kind == kind),
                          key=lambda i: abs(i - card_id))[:3]
            raise UnknownNameError(what, str(card_id), [str(i) for i in near])
        return card

    def warrior(self, name: str, side: str | None = None) -> Warrior | Levelled:
        """Return the warrior called ``name`` (``Level N X`` finds a levelled warrior).

        :raises UnknownNameError: no such warrior; suggests close names.
        """
        # (scoring a round looks up every warrior: most names hold no "level", and need no pattern)
        m = re.fullmatch(r"\s*level\s+(\d+)\s+(.+?)\s*", name, re.IGNORECASE) if "level" in name.lower() else None
        if m:
            base = self.warrior(m.group(2), side)
            for c in self.cards.values():
                if c.kind == "warrior" and c.warrior == base.name and c.level == int(m.group(1)):
                    return c
            raise UnknownNameError("levelled warrior", name, [c.name for c in self.cards.values()
                                                                 if c.kind == "warrior" and c.warrior == base.name])
        return self._named("warriors", name, side, "warrior")

    def item(self, name: str, side: str | None = None) -> Item:
        """Return the item called ``name``.

        :raises UnknownNameError: no such item; suggests close names.
        """
        return self._named("items", name, side, "item")

    def environment(self, name: str) -> Environment:
        """Return the environment called ``name``.

        :raises UnknownNameError: no such environment; suggests close names.
        """
        return self._named("environments", name, None, "environment")

    def _named(self, table: str, name: str, side: str | None, kind: str):
        """Return the entry of ``table`` called ``name`` on ``side``, looked up once per catalogue and name.

        (``pbd legal`` scores a round once per move: a hundred moves looked up every name a hundred
        times.)  Kept outside the record's fields, as :meth:`_pool`; a name not found is never kept.

        :raises UnknownNameError: no such entry; suggests close names.
        """
        named = self.__dict__.setdefault("_found", {})
        found = named.get((table, name, side))
        if found is None:
            pool, folded = self._pool(table, side)
            what = f"{side} {kind}" if side and kind != "environment" else kind
            found = named[(table, name, side)] = pool[_lookup(pool, name, what, folded)]
        return found

    def _pool(self, table: str, side: str | None) -> tuple[dict, dict]:
        """Return ``(entries, {folded name: name})`` of a table on ``side`` (all sides: None).

        Worked out once per catalogue (scoring a board looks up every name); kept outside the
        record's fields, so equality and the cached form are unaffected.
        """
        pools = self.__dict__.setdefault("_pools", {})
        found = pools.get((table, side))
        if found is None:
            pool = {n: x for n, x in getattr(self, table).items() if not side or x.side == side}
            folded: dict[str, str] = {}
            for n in pool:
                folded.setdefault(n.casefold(), n)
            found = pools[(table, side)] = (pool, folded)
        return found

    def describe(self, card) -> str:
        """Return a card as a line: ``battle 17 · dark X + Y · light Z + W · env E``."""
        if card.kind == "battle":
            return (f"battle {card.id} · dark {card.dark_warrior} + {card.dark_item} · "
                    f"light {card.light_warrior} + {card.light_item} · env {card.environment}")
        if card.kind == "army":
            return f"army {card.id} · {card.side} · {', '.join(card.warriors)}"
        return f"warrior {card.id} · {card.side} · {card.name} ({card.power})"


def _lookup(pool: dict, name: str, kind: str, folded: dict | None = None) -> str:
    key = " ".join(name.split()).casefold()
    if folded is not None:
        if key in folded:
            return folded[key]
    else:
        for n in pool:
            if n.casefold() == key:
                return n
    starts = [n for n in pool if n.casefold().startswith(key)] if key else []
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise AmbiguousNameError(kind, name, starts)
    import difflib

    raise UnknownNameError(kind, name, difflib.get_close_matches(name, list(pool), n=3, cutoff=0.5))


# -- loading ---------------------------------------------------------------------------

def bundled_dir() -> Path:
    """Return the folder of the bundled Twin Tower City catalogues and decks."""
    return paths.resource_dir("decks") / "ttc"


def load_catalogue(spec: str | Path | None = None, from_document: bool = False) -> Catalogue:
    """Return the catalogue at ``spec`` (a path, or a bundled name like ``sample``).

    With ``from_document`` the name was read from a match document: only a bundled or
    installed catalogue is opened (:func:`pbd.decks.document_file`).

    :raises DeckFormatError: the file is missing, not TOML, or breaks the schema (every problem listed).
    """
    from pbd import cache
    from pbd.decks import document_file
    from pbd.textfile import read_text_file

    if from_document:
        path = document_file(str(spec or DEFAULT_CATALOGUE), "ttc", (".toml",))
    else:
        path = _resolve(spec or DEFAULT_CATALOGUE, ".toml")
    text = read_text_file(path, "catalogue")
    cat = cache.cached("ttc-catalogue", path, text.encode("utf-8"), lambda: parse_catalogue(text, path),
                       (Catalogue, Warrior, Item, Environment, Battle, Army, Levelled, Bonus), Catalogue)
    cat.source = path
    return cat


def _resolve(spec: str | Path, suffix: str) -> str:
    """Return the file ``spec`` names: a path (``~`` expanded), else a bundled name (with or without ``suffix``)."""
    path = os.path.normpath(os.path.expanduser(spec))
    if os.path.exists(path):
        return path
    name = str(spec)
    for cand in (paths.resource("decks", "ttc", name), paths.resource("decks", "ttc", f"{name}{suffix}")):
        if os.path.isfile(cand):
            return cand
    return path


def parse_catalogue(text: str, source: str = "catalogue") -> Catalogue:
    """Return the catalogue a TOML text describes.

    :raises DeckFormatError: not TOML, or any entry breaks the schema (all listed).
    """
    from pbd.decks import load_toml

    data = load_toml(text, source)
    problems: list[str] = []
    cat = Catalogue(source)
    unknown = set(data) - {"warrior", "item", "environment", "battle", "army", "levelled"}
    problems += [f"unknown table [[{k}]] (expected warrior, item, environment, battle, army, levelled)"
                 for k in sorted(unknown)]
    for i, row in enumerate(_rows(data, "warrior", problems), 1):
        if (v := _fields(row, f"warrior #{i}", {"name": str, "side": str, "power": int}, problems)):
            _add(cat.warriors, Warrior(v["name"], v["side"], v["power"]), f"warrior #{i}", problems)
    for i, row in enumerate(_rows(data, "environment", problems), 1):
        if (v := _fields(row, f"environment #{i}", {"name": str, "side": str, "power": int}, problems)):
            _add(cat.environments, Environment(v["name"], v["side"], v["power"]), f"environment #{i}", problems)
    for i, row in enumerate(_rows(data, "item", problems), 1):
        where = f"item #{i}"
        v = _fields(row, where, {"name": str, "side": str, "power": int, "bonus": list}, problems, optional={"bonus"})
        if v:
            bonuses = tuple(b for b in (_bonus(b, v, cat, f"{where} ({v['name']})", problems)
                                        for b in v.get("bonus", [])) if b)
            _add(cat.items, Item(v["name"], v["side"], v["power"], bonuses), where, problems)
    for i, row in enumerate(_rows(data, "battle", problems), 1):
        where = f"battle #{i}"
        spec = {"id": int, "dark_warrior": str, "dark_item": str, "light_warrior": str, "light_item": str,
                "environment": str}
        if (v := _fields(row, where, spec, problems)):
            where = f"battle {v['id']}"
            ok = all(_ref(pool, v[key], side, where, key, problems) for key, pool, side in (
                ("dark_warrior", cat.warriors, "dark"), ("dark_item", cat.items, "dark"),
                ("light_warrior", cat.warriors, "light"), ("light_item", cat.items, "light"),
                ("environment", cat.environments, None)))
            if ok:
                _card(cat, Battle(v["id"], v["dark_warrior"], v["dark_item"], v["light_warrior"], v["light_item"],
                                  v["environment"]), problems)
    for i, row in enumerate(_rows(data, "army", problems), 1):
        if (v := _fields(row, f"army #{i}", {"id": int, "side": str, "warriors": list}, problems)):
            where = f"army {v['id']}"
            names = v["warriors"]
            if len(names) != 5 or not all(isinstance(n, str) for n in names):
                problems.append(f"{where}: warriors must be a list of five names (found {len(names)})")
            elif len({n.casefold() for n in names}) != 5:
                problems.append(f"{where}: the five warriors must be different")
            elif all(_ref(cat.warriors, n, v["side"], where, "warriors", problems) for n in names):
                _card(cat, Army(v["id"], v["side"], tuple(names)), problems)
    for i, row in enumerate(_rows(data, "levelled", problems), 1):
        spec = {"id": int, "side": str, "warrior": str, "level": int, "power": int}
        if (v := _fields(row, f"levelled #{i}", spec, problems)):
            if _ref(cat.warriors, v["warrior"], v["side"], f"levelled {v['id']}", "warrior", problems):
                _card(cat, Levelled(v["id"], v["side"], v["warrior"], v["level"], v["power"]), problems)
    if problems:
        raise DeckFormatError(f"{len(problems)} problem(s) in the catalogue:\n  - " + "\n  - ".join(problems),
                              source=source)
    return cat


def _rows(data: dict, key: str, problems: list[str]) -> list[dict]:
    rows = data.get(key, [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        problems.append(f"{key} must be written as [[{key}]] tables")
        return []
    return rows


def _fields(row: dict, where: str, spec: dict, problems: list[str], optional: set = frozenset()) -> dict | None:
    out, ok = {}, True
    for key in row:
        if key not in spec:
            problems.append(f"{where}: unknown key {key!r} (expected {', '.join(spec)})")
            ok = False
    for key, typ in spec.items():
        if key not in row:
            if key not in optional:
                problems.append(f"{where}: missing {key}")
                ok = False
            continue
        value = row[key]
        if typ is int and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(f"{where}: {key} must be a whole number, not {value!r}")
            ok = False
        elif typ is not int and not isinstance(value, typ):
            problems.append(f"{where}: {key} must be a {typ.__name__}, not {value!r}")
            ok = False
        else:
            out[key] = value.strip() if isinstance(value, str) else value
    if ok and "side" in out:
        out["side"] = out["side"].lower()
        if out["side"] not in SIDES:
            problems.append(f"{where}: side must be \"dark\" or \"light\", not {row['side']!r}")
            ok = False
    if ok and "power" in out and out["power"] < 0:
        problems.append(f"{where}: power must not be negative")
        ok = False
    return out if ok else None


def _add(pool: dict, entry, where: str, problems: list[str]) -> None:
    if any(n.casefold() == entry.name.casefold() for n in pool):
        problems.append(f"{where}: {entry.name!r} is listed twice")
    else:
        pool[entry.name] = entry


def _ref(pool: dict, name: str, side: str | None, where: str, key: str, problems: list[str]) -> bool:
    hit = next((v for n, v in pool.items() if n.casefold() == name.casefold()), None)
    if hit is None:
        import difflib

        near = difflib.get_close_matches(name, list(pool), n=3, cutoff=0.5)
        problems.append(f"{where}: {key} {name!r} is not in the catalogue"
                        + (f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""))
        return False
    if side and hit.side != side:
        problems.append(f"{where}: {key} {hit.name!r} is a {hit.side} card, not {side}")
        return False
    return True


def _bonus(raw, item: dict, cat: Catalogue, where: str, problems: list[str]) -> Bonus | None:
    if not isinstance(raw, dict) or "plus" not in raw or len(raw) != 2 or not ({"wielder", "against"} & set(raw)):
        problems.append(f"{where}: a bonus is {{wielder = NAME, plus = N}} or {{against = NAME, plus = N}}, "
                        f"not {raw!r}")
        return None
    kind = "wielder" if "wielder" in raw else "against"
    name, plus = raw[kind], raw["plus"]
    if not isinstance(plus, int) or isinstance(plus, bool):
        problems.append(f"{where}: bonus plus must be a whole number, not {plus!r}")
        return None
    side = item["side"] if kind == "wielder" else ("dark" if item["side"] == "light" else "light")
    if not isinstance(name, str) or not _ref(cat.warriors, name, side, where, kind, problems):
        return None
    canonical = next(n for n in cat.warriors if n.casefold() == name.casefold())
    return Bonus(kind, canonical, plus)


def _card(cat: Catalogue, card, problems: list[str]) -> None:
    if card.id in cat.cards:
        problems.append(f"{card.kind} {card.id}: id {card.id} is used twice")
    else:
        cat.cards[card.id] = card


# -- decks -------------------------------------------------------------------------------

class Deck(Record):
    """An 80-card deck: card ids in the order listed, and the catalogue they come from."""

    name: str
    catalogue: Catalogue
    ids: list[int]
    catalogue_spec: str

    FIELDS = ("name", "catalogue", "ids", "catalogue_spec")

    def __init__(self, name: str, catalogue: Catalogue, ids: list[int], catalogue_spec: str = ""):
        self.name = name
        self.catalogue = catalogue
        self.ids = ids
        self.catalogue_spec = catalogue_spec

    def pile(self, kind: str, side: str | None = None) -> list[int]:
        """Return the ids of one pile (``battle``; ``army``/``warrior`` of a side), in deck order."""
        out = []
        for i in self.ids:
            card = self.catalogue.cards.get(i)
            if card and card.kind == kind and (side is None or card.side == side):
                out.append(i)
        return out

    @cached_property
    def _fingerprint(self) -> str:
        cat = self.catalogue
        body = "\n".join([*sorted(repr(cat.cards[i]) for i in self.ids if i in cat.cards),
                          *sorted(repr(x) for pool in (cat.warriors, cat.items, cat.environments)
                                  for x in pool.values())])
        return hexdigest(body.encode())[:12]

    def fingerprint(self) -> str:
        """Return a short hash of the deck's cards and everything they score with (order aside)."""
        return self._fingerprint


#: The most cards a deck list may list (a deck has 80; more is refused before it is expanded).
MAX_DECK_LINES = 1000

DECK_LINE = pattern(r"^(?:(?P<kind>battle|army|warrior)s?\s+)?(?P<ids>\d[\d\s,\-–]*)$", re.IGNORECASE)


def load_deck(spec: str, from_document: bool = False) -> Deck:
    """Return the deck at ``spec``: a deck list path, a bundled deck name, or a catalogue (.toml).

    With ``from_document`` the name was read from a match document: only a bundled or
    installed deck is opened (:func:`pbd.decks.document_file`), and so is its catalogue.

    :raises DeckFormatError: unreadable, or a line that is not a deck entry.
    :raises UnknownNameError: a card id the catalogue does not have.
    """
    from pbd.decks import document_file
    from pbd.textfile import read_text_file

    path = document_file(spec, "ttc") if from_document else _resolve(spec, ".txt")
    if path.lower().endswith(".toml") and os.path.isfile(path):
        cat = load_catalogue(path) if not from_document else parse_catalogue(read_text_file(path, "catalogue"), path)
        return Deck(spec, cat, sorted(cat.cards), path)
    if not os.path.exists(path):
        raise DeckFormatError("cannot read the deck list: no such file", source=str(spec),
                              hint="bundled Twin Tower City decks: "
                                   + ", ".join(p.stem for p in sorted(bundled_dir().glob("*.txt"))))
    text = read_text_file(path, "deck list")
    return parse_deck(text, path, os.path.dirname(path), name=str(spec), from_document=from_document)


def install_deck(path: str | Path) -> str:
    """Install a catalogue or deck list (and the catalogue it names) by content hash; return its name.

    A deck list's ``catalogue:`` line is rewritten to the installed catalogue's name, so
    the installed deck names no file either.

    :raises DeckFormatError: the file (or its catalogue) cannot be read or is not valid.
    """
    from pbd.decks import install
    from pbd.textfile import read_text_file

    path = os.path.normpath(os.path.expanduser(path))
    toml = path.lower().endswith(".toml")
    text = read_text_file(path, "catalogue" if toml else "deck list")
    if toml:
        parse_catalogue(text, path)
        return install(text, ".toml")
    deck = parse_deck(text, path, os.path.dirname(path))
    lines = []
    for raw in text.split("\n"):
        key = raw.split("#", 1)[0].strip().lower()
        if key.startswith(("catalogue:", "catalog:")):
            raw = f"catalogue: {_installed_catalogue(deck.catalogue.source)}"
        lines.append(raw)
    return install("\n".join(lines), ".txt")


def document_name(spec: str, deck: Deck) -> str:
    """Return how a match document names the deck the creator gave as ``spec`` (a name or a path).

    A bundled deck keeps its name; a deck list or catalogue of the creator's is installed
    by content hash (the opponent installs the same file with ``pbd catalogue add``).

    :raises DeckFormatError: it cannot be installed.
    """
    from pbd.decks import document_file

    try:
        document_file(spec, "ttc")
        return spec
    except DeckFormatError:
        return install_deck(spec)


def _installed_catalogue(source: str) -> str:
    from pbd.decks import install
    from pbd.textfile import read_text_file

    if os.path.dirname(source) == paths.resource("decks", "ttc"):
        return os.path.splitext(os.path.basename(source))[0]
    return install(read_text_file(source, "catalogue"), ".toml")


def parse_deck(text: str, source: str, base: str | None = None, name: str = "",
               from_document: bool = False) -> Deck:
    """Return the deck a deck list text describes.

    :raises DeckFormatError: a line that is not a deck entry (line number given).
    :raises UnknownNameError: an id the catalogue does not have.
    """
    cat_spec: str | None = None
    entries: list[tuple[int, str | None, int]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("catalogue:") or line.lower().startswith("catalog:"):
            cat_spec = line.split(":", 1)[1].strip()
            continue
        m = DECK_LINE.match(line)
        if not m:
            shown = line if len(line) <= 40 else line[:40] + "…"
            raise DeckFormatError(f"expected a deck entry like 'battle 1-50', 'army 104' or '17', not {shown!r}",
                                  line=number, source=source)
        kind = m.group("kind").lower() if m.group("kind") else None
        for part in re.split(r"[,\s]+", re.sub(r"\s*[-–]\s*", "-", m.group("ids").strip())):
            if not part:
                continue
            lo, _, hi = part.partition("-")
            if not lo.isdigit() or (hi and not hi.isdigit()) or (hi and int(hi) < int(lo)):
                raise DeckFormatError(f"{part!r} is not a card id or a range like 1-50", line=number, source=source)
            if len(lo) > 6 or len(hi) > 6 or len(entries) + int(hi or lo) - int(lo) >= MAX_DECK_LINES:
                raise DeckFormatError(f"{part[:20]!r} makes the deck longer than {MAX_DECK_LINES} cards",
                                      line=number, source=source)
            entries += [(number, kind, i) for i in range(int(lo), int(hi or lo) + 1)]
    if cat_spec and from_document:
        cat = load_catalogue(cat_spec.removesuffix(".toml"), from_document=True)
    elif cat_spec:
        local = os.path.join(base, cat_spec) if base else cat_spec
        cat = load_catalogue(local if os.path.exists(local) else cat_spec)
    else:
        cat = load_catalogue(None)
    for number, kind, i in entries:
        try:
            cat.card(i, kind)
        except UnknownNameError as exc:
            raise DeckFormatError(f"{exc.message}", line=number, source=source, hint=exc.hint) from None
    return Deck(name or source, cat, [i for _, _, i in entries], cat_spec or DEFAULT_CATALOGUE)


def deck_problems(deck: Deck) -> list[str]:
    """Return every way ``deck`` breaks the 80-card composition (empty when legal)."""
    problems = []
    seen: set[int] = set()
    for i in deck.ids:
        if i in seen:
            problems.append(f"card {i} is listed more than once")
        seen.add(i)
    for (kind, side), want in COMPOSITION.items():
        have = len(set(deck.pile(kind, side)))
        label = f"{side.capitalize()} {kind.capitalize()}" if side else "Battle"
        if have != want:
            problems.append(f"{label} Cards: {have}, a deck needs {want}")
    if len(deck.ids) != 80 and not problems:
        problems.append(f"{len(deck.ids)} cards, a deck has 80")
    return problems
