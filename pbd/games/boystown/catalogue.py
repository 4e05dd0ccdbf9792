"""Boys' Town card catalogues: TOML files of cards, their effects as data, and combos.

The rulebook gives the mechanics but no card list, so a catalogue says what every card
does.  A catalogue, in the shape players write by hand::

    [catalogue]
    name = "standard"                 # a short name (letters, digits, '-')
    title = "Boys' Town standard deck"

    [[card]]
    name = "Street Fighter"           # unique; no ';', ':', '·', '|', '#', brackets or commas
    ap = 5                            # base Attack Points, 0..20
    tp = 1                            # base Town Points, 0..20
    copies = 3                        # 1..12 (default 1)
    tags = ["tough"]                  # words other effects can name as "tag:tough"
    text = "Battle: +1 AP when attacking."
    effects = [{ kind = "battle", do = "ap", amount = 1, as = "attacker" }]
    penalty = { tp = -2 }             # build penalty (optional): tp, ap, skip_attack

    [[combo]]
    name = "Mill Town"
    cards = ["Old Mill", "Mill Worker"]   # bonus while every one is a Resident of one Town
    tp = 3                                # added to each of those cards (ap too, optional)

Effects are small records ``{kind, do, ...}``; ``kind`` is when it applies (``build``,
``resident``, ``battle``, ``hand``) and ``do`` what it does — see :data:`VOCABULARY`.
A text the vocabulary cannot express is ``do = "adjust"`` with a ``text``: pbd logs it
when it applies and the player applies it with the logged ``adjust`` move.

A match document never names a file: it names a bundled catalogue by name or any
catalogue by its content hash (``sha256:`` and 16 hex digits); a player's own file is
remembered under PBD_HOME by that hash when they ``new``, ``join`` or ``deck check``
with it.
"""

from __future__ import annotations

import os
import re
import stat

from pbd import paths
from pbd.digest import sha256
from pbd.errors import AmbiguousNameError, DeckFormatError, UnknownNameError
from pbd.record import FrozenRecord, Record
from pbd.regex import pattern

KINDS = ("build", "resident", "battle", "hand")
#: ``do`` -> (kinds it may have, extra keys it takes).  Every effect may also carry
#: ``text`` and the conditions in :data:`CONDITIONS`.
VOCABULARY: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "ap": (("resident", "battle"), ("amount", "target")),
    "tp": (("resident",), ("amount", "per")),
    "extra_build": (("build",), ("count", "requires", "penalty")),
    "swap": (("battle", "hand"), ()),
    "draw": (("build", "battle", "hand"), ("count", "target")),
    "mill": (("build", "battle", "hand"), ("count",)),
    "nullify": (("resident", "battle"), ("rule",)),
    "guard": (("resident",), ()),
    "force_weakest": (("battle",), ()),
    "boost": (("resident",), ("amount",)),
    "goodcup": (("resident",), ()),
    "adjust": (KINDS, ()),
}
#: Conditions any effect may carry: ``as`` (attacker|defender), ``from`` (hand|town: the
#: battle's kind), ``if_top`` (a card name or ``tag:T`` on top of the discard pile),
#: ``with`` (a card name or ``tag:T`` among your other Residents).
CONDITIONS = ("as", "from", "if_top", "with")
#: The battle rules an effect may nullify (the rulebook's footnoted sentences).
RULES = {
    "attacker_wins_ties": "a tie goes to the attacker",
    "loser_discarded": "the losing card is discarded",
    "loser_draws": "the loser draws 1 card",
    "winner_discarded": "in a hand battle the winning card is discarded too",
    "defender_chooses": "the defender chooses the card to defend with",
}
AMOUNTS = ("top_ap", "top_tp")
TARGETS = {"ap": ("self", "rival", "battle"), "draw": ("self", "opponent", "rival")}
PENALTIES = ("tp", "ap", "skip_attack")
NAME_RE = pattern(r"^[A-Za-z0-9][A-Za-z0-9 '’.!&?-]{0,39}$")
CATALOGUE_NAME_RE = pattern(r"^[a-z0-9][a-z0-9-]{0,31}$")
HASH_RE = pattern(r"^sha256:[0-9a-f]{16}$")
MAX_BYTES = 256_000
MAX_CARDS = 240
MIN_CARDS = 24
MAX_EFFECTS = 6
GOODCUP = "The John Goodcup"


class Effect(FrozenRecord):
    """One effect of a card: when it applies (``kind``), what it does (``do``) and its data."""

    kind: str
    do: str
    amount: int | str
    count: int
    target: str
    per: str
    requires: str
    penalty: tuple[tuple[str, int], ...]
    rule: str
    as_: str
    from_: str
    if_top: str
    with_: str
    text: str

    FIELDS = ("kind", "do", "amount", "count", "target", "per", "requires", "penalty", "rule", "as_", "from_", "if_top",
              "with_", "text")

    def __init__(self, kind: str, do: str, amount: int | str = 0, count: int = 1, target: str = "self", per: str = "",
                 requires: str = "", penalty: tuple[tuple[str, int], ...] = (), rule: str = "", as_: str = "",
                 from_: str = "", if_top: str = "", with_: str = "", text: str = ""):
        self._set(kind=kind, do=do, amount=amount, count=count, target=target, per=per, requires=requires,
                  penalty=penalty, rule=rule, as_=as_, from_=from_, if_top=if_top, with_=with_, text=text)

    def describe(self) -> str:
        """Return the effect in words (its ``text`` if the catalogue gives one)."""
        if self.text:
            return self.text
        words = f"{self.kind.capitalize()}: {self.do.replace('_', ' ')}"
        if self.do in ("ap", "tp", "boost"):
            words += f" {self.amount:+}" if isinstance(self.amount, int) else f" + {self.amount.replace('_', ' ')}"
        elif self.do == "nullify":
            words += f" '{RULES.get(self.rule, self.rule)}'"
        elif self.do in ("draw", "mill", "extra_build"):
            words += f" {self.count}"
        return words


class Card(FrozenRecord):
    """A card of a catalogue: base AP and TP, tags, effects and its build penalty."""

    name: str
    ap: int
    tp: int
    copies: int
    tags: tuple[str, ...]
    text: str
    effects: tuple[Effect, ...]
    penalty: tuple[tuple[str, int], ...]

    FIELDS = ("name", "ap", "tp", "copies", "tags", "text", "effects", "penalty")

    def __init__(self, name: str, ap: int, tp: int, copies: int = 1, tags: tuple[str, ...] = (), text: str = "",
                 effects: tuple[Effect, ...] = (), penalty: tuple[tuple[str, int], ...] = ()):
        self._set(name=name, ap=ap, tp=tp, copies=copies, tags=tags, text=text, effects=effects, penalty=penalty)

    def effects_of(self, kind: str, do: str | None = None) -> list[Effect]:
        """Return the card's effects of ``kind`` (and ``do``), in catalogue order."""
        return [e for e in self.effects if e.kind == kind and (do is None or e.do == do)]

    def matches(self, spec: str) -> bool:
        """Return True if ``spec`` (a card name or ``tag:T``) names this card."""
        if spec.lower().startswith("tag:"):
            return spec[4:].strip().lower() in self.tags
        return spec.casefold() == self.name.casefold()


class Combo(FrozenRecord):
    """A set of cards that give each of themselves a bonus while all are Residents of one Town."""

    name: str
    cards: tuple[str, ...]
    tp: int
    ap: int

    FIELDS = ("name", "cards", "tp", "ap")

    def __init__(self, name: str, cards: tuple[str, ...], tp: int = 0, ap: int = 0):
        self._set(name=name, cards=cards, tp=tp, ap=ap)


class Catalogue(Record):
    """A loaded catalogue: its reference (name or hash), cards by name, combos, and the deck list."""

    name: str
    title: str
    digest: str
    cards: dict[str, Card]
    combos: list[Combo]
    bundled: bool

    FIELDS = ("name", "title", "digest", "cards", "combos", "bundled")

    def __init__(self, name: str, title: str, digest: str, cards: dict[str, Card] | None = None,
                 combos: list[Combo] | None = None, bundled: bool = False):
        self.name = name
        self.title = title
        self.digest = digest
        self.cards = {} if cards is None else cards
        self.combos = [] if combos is None else combos
        self.bundled = bundled

    @property
    def ref(self) -> str:
        """Return how a document names this catalogue: ``standard (sha256:…)`` or ``sha256:…``."""
        return f"{self.name} ({self.digest})" if self.bundled else self.digest

    def deck(self) -> list[str]:
        """Return the card names of the whole deck, every copy, in catalogue order (ids are 1-based)."""
        return [c.name for c in self.cards.values() for _ in range(c.copies)]

    def card(self, name: str) -> Card:
        """Return the card called ``name`` (case-insensitive, unique prefix accepted).

        :raises UnknownNameError: no such card; suggests close names.
        :raises AmbiguousNameError: a prefix of several cards.
        """
        return self.cards[self.resolve(name, list(self.cards))]

    @staticmethod
    def resolve(name: str, names: list[str], kind: str = "card") -> str:
        """Return the one of ``names`` that ``name`` means (exact, then unique prefix).

        :raises UnknownNameError: none; :raises AmbiguousNameError: several.
        """
        key = " ".join(name.split()).casefold().replace("’", "'")
        exact = [n for n in names if n.casefold().replace("’", "'") == key]
        if exact:
            return exact[0]
        prefix = sorted({n for n in names if n.casefold().replace("’", "'").startswith(key)})
        if len(prefix) == 1:
            return prefix[0]
        if prefix:
            raise AmbiguousNameError(kind, name, prefix)
        import difflib      # only to suggest a name for one that matches none
        raise UnknownNameError(kind, name, difflib.get_close_matches(name, names, n=3, cutoff=0.5))

    def combos_of(self, name: str) -> list[Combo]:
        """Return the combos that list the card ``name``."""
        return [c for c in self.combos if name in c.cards]


def digest(data: bytes) -> str:
    """Return the content hash a document names a catalogue by (``sha256:`` + 16 hex digits)."""
    return "sha256:" + sha256(data).hexdigest()[:16]


def bundled_dir() -> str:
    """Return the folder of the bundled Boys' Town catalogues.

    (Paths here are strings: :mod:`pathlib` would cost every Boys' Town command about 5 ms to load.)
    """
    return paths.resource("decks", "boystown")


def _bundled(name: str) -> str:
    return os.path.join(bundled_dir(), f"{name}.toml")


def bundled_names() -> list[str]:
    """Return the names of the bundled catalogues."""
    return sorted(n[:-5] for n in os.listdir(bundled_dir()) if n.endswith(".toml"))


def _store() -> str:
    return os.path.join(paths.home(), "catalogues", "boystown")


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


_CACHE: dict[str, Catalogue] = {}


def load(spec: str, remember: bool = True, from_document: bool = False) -> Catalogue:
    """Return the catalogue ``spec`` names: a bundled name, a content hash, or a file path.

    A file is remembered under PBD_HOME by its hash (``remember``), so that later commands
    find it by the hash the document names.  With ``from_document`` the name was read from
    a match document: only a bundled name or a hash is accepted, and no file is opened.

    :raises DeckFormatError: not found, unreadable, or not a valid catalogue (every problem listed);
        a document naming anything but a bundled catalogue or a hash.
    """
    spec = spec.strip()
    ref = _hash_in(spec)
    if ref:
        return _by_hash(ref)
    if CATALOGUE_NAME_RE.match(spec) and (found := _bundled_catalogue(spec)) is not None:
        return found
    if from_document:
        raise DeckFormatError(f"the document names the catalogue {_excerpt(spec)!r}, which is neither bundled "
                              "nor a content hash; a match never names a file",
                              hint="bundled: " + ", ".join(bundled_names())
                                   + "; a player's own catalogue is named by its hash (sha256:...)")
    path = os.path.expanduser(spec)
    if not os.path.isfile(path):
        raise DeckFormatError(f"no Boys' Town catalogue {spec!r}",
                              hint="bundled: " + ", ".join(bundled_names()) + "; or a path to a .toml file")
    if os.path.getsize(path) > MAX_BYTES:
        raise DeckFormatError(f"{spec} is larger than {MAX_BYTES // 1000} kB; not a card catalogue")
    data = _read_bytes(path)
    cat = _from_bytes(data, os.path.basename(path), where=path)
    if remember and not cat.bundled:
        target = os.path.join(_store(), f"{cat.digest.split(':')[1]}.toml")
        if not os.path.exists(target):
            paths.write_private(target, data)
    return cat


#: the bundled catalogues this process read, by file: its size and time, and the catalogue
_BUNDLED: dict[str, tuple[tuple[int, int], Catalogue]] = {}


def _bundled_catalogue(name: str) -> Catalogue | None:
    """Return the bundled catalogue ``name`` (None: there is no such file), read once a process while the file stays.

    A board names its catalogue on every seat line it renders and the rules ask for it again and
    again: reading and hashing the file each time was about a twentieth of a Boys' Town command
    that reads a changed document.  The file is looked at each time (its size and time); a
    changed one is read again.
    """
    where = _bundled(name)
    try:
        st = os.stat(where)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    kept = _BUNDLED.get(where)
    if kept is not None and kept[0] == (st.st_size, st.st_mtime_ns):
        return kept[1]
    cat = _from_bytes(_read_bytes(where), name, bundled=True, where=where)
    _BUNDLED[where] = ((st.st_size, st.st_mtime_ns), cat)
    return cat


def _excerpt(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _hash_in(spec: str) -> str:
    m = re.search(r"sha256:[0-9a-f]{16}", spec)
    return m.group(0) if m and (HASH_RE.match(spec) or spec.endswith(f"({m.group(0)})")) else ""


def _by_hash(ref: str) -> Catalogue:
    if ref in _CACHE:
        return _CACHE[ref]
    for name in bundled_names():
        data = _read_bytes(_bundled(name))
        if digest(data) == ref:
            return _from_bytes(data, name, bundled=True, where=_bundled(name))
    stored = os.path.join(_store(), f"{ref.split(':')[1]}.toml")
    if os.path.isfile(stored):
        return _from_bytes(_read_bytes(stored), ref, where=stored)
    raise DeckFormatError(f"this match uses the catalogue {ref}, which this machine has not seen",
                          hint="give your copy once: pbd deck check FILE --game boystown")


def _from_bytes(data: bytes, source: str, bundled: bool = False, where: str = "") -> Catalogue:
    """Return the catalogue the TOML ``data`` holds (kept by :mod:`pbd.cache` under the file ``where``).

    :raises DeckFormatError: not TOML, or breaks the schema (every problem listed).
    """
    ref = digest(data)
    if ref in _CACHE:
        return _CACHE[ref]
    from pbd import cache

    cat = cache.cached("boystown-catalogue", where or source, data, lambda: _parse(data, source, ref),
                       (Catalogue, Card, Effect, Combo), Catalogue)
    cat.bundled = bundled
    _CACHE[ref] = cat
    return cat


def _parse(data: bytes, source: str, ref: str) -> Catalogue:
    import tomllib  # here, not at the top: its import compiles regular expressions every command would pay for

    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DeckFormatError(f"not a TOML catalogue: {exc}", source=source) from None
    cat, problems = build(raw, ref)
    if problems:
        raise DeckFormatError(f"{len(problems)} problem(s) in the catalogue:\n  - " + "\n  - ".join(problems),
                              source=source)
    return cat


def build(raw: dict, ref: str = "") -> tuple[Catalogue, list[str]]:
    """Return ``(catalogue, problems)`` for parsed TOML; every problem is listed."""
    problems: list[str] = []
    head = raw.get("catalogue", {})
    if not isinstance(head, dict):
        head, problems = {}, ["[catalogue] must be a table"]
    name = str(head.get("name", "custom"))
    if not CATALOGUE_NAME_RE.match(name):
        problems.append(f"[catalogue] name {name!r}: use lower-case letters, digits and '-'")
    cat = Catalogue(name, str(head.get("title", name))[:80], ref)
    problems += [f"unknown top-level key {k!r} (expected catalogue, card, combo)"
                 for k in raw if k not in ("catalogue", "card", "combo")]
    cards = raw.get("card", [])
    if not isinstance(cards, list) or not cards:
        return cat, problems + ["no [[card]] entries"]
    for i, entry in enumerate(cards[:MAX_CARDS], 1):
        card, errs = _card(entry, i)
        problems += errs
        if card and card.name in cat.cards:
            problems.append(f"card {i}: {card.name!r} appears twice")
        elif card:
            cat.cards[card.name] = card
    total = sum(c.copies for c in cat.cards.values())
    if not MIN_CARDS <= total <= MAX_CARDS:
        problems.append(f"the deck has {total} cards; a catalogue needs {MIN_CARDS} to {MAX_CARDS}")
    for j, entry in enumerate(raw.get("combo", []) if isinstance(raw.get("combo", []), list) else [], 1):
        combo, errs = _combo(entry, j, cat)
        problems += errs
        if combo:
            cat.combos.append(combo)
    problems += _cross_checks(cat)
    return cat, problems


def _int(entry: dict, key: str, where: str, low: int, high: int, default: int | None = None,
         problems: list[str] | None = None) -> int:
    value = entry.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(f"{where}: {key} must be a whole number {low}..{high}, not {value!r}")
        return default or 0
    return value


def _card(entry, i: int) -> tuple[Card | None, list[str]]:
    problems: list[str] = []
    if not isinstance(entry, dict):
        return None, [f"card {i}: not a table"]
    name = entry.get("name")
    where = f"card {i} ({name})" if isinstance(name, str) else f"card {i}"
    if not isinstance(name, str) or not NAME_RE.match(name):
        problems.append(f"{where}: name must be 1-40 letters, digits, spaces and ' . ! & ? -")
    allowed = {"name", "ap", "tp", "copies", "tags", "text", "effects", "penalty"}
    problems += [f"{where}: unknown key {k!r}" for k in entry if k not in allowed]
    ap = _int(entry, "ap", where, 0, 20, None, problems)
    tp = _int(entry, "tp", where, 0, 20, None, problems)
    copies = _int(entry, "copies", where, 1, 12, 1, problems)
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and re.match(r"^[a-z][a-z-]{0,19}$", t) for t in tags):
        problems.append(f"{where}: tags must be a list of lower-case words")
        tags = []
    text = entry.get("text", "")
    if not isinstance(text, str) or len(text) > 300:
        problems.append(f"{where}: text must be a string of at most 300 characters")
        text = ""
    effects = []
    raw_effects = entry.get("effects", [])
    if not isinstance(raw_effects, list) or len(raw_effects) > MAX_EFFECTS:
        problems.append(f"{where}: effects must be a list of at most {MAX_EFFECTS} tables")
        raw_effects = []
    for k, raw in enumerate(raw_effects, 1):
        effect, errs = _effect(raw, f"{where} effect {k}")
        problems += errs
        if effect:
            effects.append(effect)
    penalty = _penalty(entry.get("penalty", {}), where, problems)
    if problems:
        return None, problems
    return Card(name, ap, tp, copies, tuple(tags), text, tuple(effects), penalty), []


def _penalty(raw, where: str, problems: list[str]) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, dict):
        problems.append(f"{where}: penalty must be a table like {{ tp = -2 }}")
        return ()
    out = []
    for key, value in raw.items():
        if key not in PENALTIES:
            problems.append(f"{where}: unknown penalty {key!r} (expected {', '.join(PENALTIES)})")
        elif key == "skip_attack" and value is not True:
            problems.append(f"{where}: penalty skip_attack must be true")
        elif key != "skip_attack" and (not isinstance(value, int) or isinstance(value, bool) or not -10 <= value <= 10):
            problems.append(f"{where}: penalty {key} must be a whole number -10..10")
        else:
            out.append((key, int(value)))
    return tuple(out)


def _effect(raw, where: str) -> tuple[Effect | None, list[str]]:
    if not isinstance(raw, dict):
        return None, [f"{where}: not a table"]
    problems: list[str] = []
    kind, do = raw.get("kind"), raw.get("do")
    if kind not in KINDS:
        problems.append(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if do not in VOCABULARY:
        problems.append(f"{where}: do must be one of {', '.join(VOCABULARY)}, not {do!r}")
        return None, problems
    kinds, keys = VOCABULARY[do]
    if kind in KINDS and kind not in kinds:
        problems.append(f"{where}: a {kind} effect cannot {do} (it can be {', '.join(kinds)})")
    allowed = {"kind", "do", "text", *CONDITIONS, *keys}
    problems += [f"{where}: {do} takes no key {k!r}" for k in raw if k not in allowed]
    if do == "adjust" and not raw.get("text"):
        problems.append(f"{where}: an adjust effect needs the text players apply by hand")
    amount = raw.get("amount", 0)
    if not (isinstance(amount, int) and not isinstance(amount, bool) and -20 <= amount <= 20 or amount in AMOUNTS):
        problems.append(f"{where}: amount must be -20..20 or one of {', '.join(AMOUNTS)}")
    count = raw.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 5:
        problems.append(f"{where}: count must be 1..5")
    target = raw.get("target", "self")
    if target not in TARGETS.get(do, ("self",)):
        problems.append(f"{where}: target must be one of {', '.join(TARGETS.get(do, ('self',)))}")
    if do == "nullify" and raw.get("rule") not in RULES:
        problems.append(f"{where}: rule must be one of {', '.join(RULES)}")
    if raw.get("as", "attacker") not in ("attacker", "defender") or raw.get("from", "hand") not in ("hand", "town"):
        problems.append(f"{where}: 'as' is attacker|defender and 'from' is hand|town")
    for key in ("if_top", "with", "requires", "per", "text"):
        if not isinstance(raw.get(key, ""), str) or len(raw.get(key, "")) > 300:
            problems.append(f"{where}: {key} must be a short string")
    penalty = _penalty(raw.get("penalty", {}), where, problems)
    if problems:
        return None, problems
    return Effect(kind, do, amount, count, target, raw.get("per", ""), raw.get("requires", ""), penalty,
                  raw.get("rule", ""), raw.get("as", ""), raw.get("from", ""), raw.get("if_top", ""),
                  raw.get("with", ""), raw.get("text", "")), []


def _combo(raw, j: int, cat: Catalogue) -> tuple[Combo | None, list[str]]:
    where = f"combo {j}"
    if not isinstance(raw, dict):
        return None, [f"{where}: not a table"]
    problems: list[str] = [f"{where}: unknown key {k!r}" for k in raw if k not in ("name", "cards", "tp", "ap")]
    name = raw.get("name", f"combo {j}")
    cards = raw.get("cards")
    if not isinstance(cards, list) or not 2 <= len(cards) <= 6 or not all(isinstance(c, str) for c in cards):
        return None, problems + [f"{where}: cards must list 2 to 6 card names"]
    problems += [f"{where}: no card {c!r} in the catalogue" for c in cards if c not in cat.cards]
    tp = _int(raw, "tp", where, -10, 20, 0, problems)
    ap = _int(raw, "ap", where, -10, 20, 0, problems)
    return (None if problems else Combo(str(name)[:40], tuple(cards), tp, ap)), problems


def _cross_checks(cat: Catalogue) -> list[str]:
    """Return problems between cards: names and tags that effects refer to must exist."""
    problems = []
    tags = {t for c in cat.cards.values() for t in c.tags}
    for card in cat.cards.values():
        for e in card.effects:
            for key, spec in (("if_top", e.if_top), ("with", e.with_), ("requires", e.requires), ("per", e.per)):
                if not spec:
                    continue
                if spec.lower().startswith("tag:"):
                    if spec[4:].strip().lower() not in tags:
                        problems.append(f"{card.name}: {key} names tag {spec[4:]!r}, which no card has")
                elif spec not in cat.cards:
                    problems.append(f"{card.name}: {key} names {spec!r}, which is not a card of the catalogue")
    return problems
