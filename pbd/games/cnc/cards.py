"""C&C cards: the catalogue model, its TOML schema and the effect vocabulary.

A catalogue is a TOML file of ``[[card]]`` tables::

    [[card]]
    name = "Spider-Man"
    kind = "character"        # character | city | event | porter
    class = "Hero"            # characters only: Hero, Anti-Hero, Civilian, Government,
                              #   Anti-Villain, Villain
    rarity = "uncommon"       # common | uncommon | rare   (the Porter: "porter")
    cost = 1                  # AP to play
    hp = 15                   # characters only, 1..50
    cp = 0                    # cities: CP gained when played
    text = "..."              # optional: the card text, shown to players
    aliases = ["Spidey"]      # optional other names

    [[card.attack]]           # characters: zero or more attacks
    name = "Web Strike"
    type = "Physical"         # one of ATTACK_TYPES
    cost = 1
    damage = 10               # 0..50
    after = [ ... effects ... ]   # optional: effects after the attack resolves

    [[card.ability]]          # characters: zero or more abilities; events: exactly one, the play effect
    name = "Mirror Trap"
    cost = 0
    passive = false           # passive abilities use `mods` and `each_turn`, never `effects`
    target = "opposing character"   # see TARGETS
    effects = [{ do = "status", status = "frozen" }]
    mods = []                 # passive: modifiers (see MODS)
    each_turn = []            # passive: effects at the start of the owner's turn (not roll,
                              #   draw, discard_hand, recover or manual: see PRIVATE_VERBS)

    # cities put `mods` and `each_turn` on the card itself; events put their play
    # `target` and `effects` on the card itself.

An effect is ``{do = VERB, ...}`` with one of the VERBS below; a modifier is
``{mod = NAME, ...}``.  A card text the vocabulary cannot express uses
``{do = "manual", text = "..."}``: the cost is charged and the outcome is recorded
with an explicit ``adjust`` move.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache

from pbd.errors import AmbiguousNameError, DeckFormatError, UnknownNameError
from pbd.record import FrozenRecord, Record

KINDS = ("character", "city", "event", "porter")
CLASSES = ("Hero", "Anti-Hero", "Civilian", "Government", "Anti-Villain", "Villain")
RARITIES = ("common", "uncommon", "rare", "porter")
ATTACK_TYPES = ("Physical", "Tech", "Psychic", "Fire", "Ice", "Electric", "Magic", "Toxic", "Air", "Earth",
                "Energy", "Speed", "Shadow", "Sound", "Water", "Magnetic", "Gravity")
STATUSES = ("confused", "frozen", "poisoned")
TARGETS = ("none", "opposing character", "friendly character", "any character", "opposing city",
           "own city", "opposing character or cp")

#: verb -> the keys it accepts besides ``do``
VERBS = {
    "damage": {"amount", "to"},          # to: target | opponent cp | all opposing characters | self | own cp
    "heal": {"amount", "to"},            # to: target | self | all friendly | most damaged friendly
    "cp": {"amount", "who"},             # who: self | opponent  (opponent: direct CP damage, not screened)
    "draw": {"count"},                   # the acting player draws, free
    "discard_hand": {"count", "who"},    # who: opponent | self   (the owner chooses which cards)
    "ap": {"amount", "who"},             # now: +gain / -drain (a drain beyond 0 comes off their next income)
    "ap_next": {"amount", "who"},        # change the next turn's income (Shutdown: who=opponent, amount=-2)
    "destroy_city": {"to"},              # to: target
    "return_to_hand": {"to"},            # to: target | self
    "status": {"status", "to"},          # to: target
    "cure": {"to"},                      # removes every status
    "recover": {"count"},                # take the newest cards of your discard pile back to your hand
    "roll": {"sides", "outcomes"},       # outcomes: [{on = [faces], effects = [...]}]
    "manual": {"text"},                  # not expressible: record the outcome with 'adjust'
}
#: modifier name -> the keys it accepts besides ``mod``
MODS = {
    "attack_bonus": {"amount", "class", "type", "whose"},   # whose: own (default) | opponent | all
    "ap_per_turn": {"amount", "per_class"},                  # extra AP at the start of each of your turns
    "character_limit": {"amount"},                           # MAC: 4
    "no_attrition_loss": set(),                              # Heroic Resolve
    "protect_cities": set(),                                 # Ninja Death Cult: destroy me first
    "extra_event": {"amount"},
    "extra_city": {"amount"},
    "immune": {"types"},                                     # attacks of these types do nothing to me
    "only_harmed_by": {"types"},                             # only attacks of these types harm me
    "damage_reduction": {"amount"},
}


class Attack(FrozenRecord):
    """A character's attack."""

    FIELDS = ("name", "type", "cost", "damage", "after")

    def __init__(self, name: str, type: str, cost: int, damage: int, after: tuple = ()):
        self._set(name=name, type=type, cost=cost, damage=damage, after=after)


class Ability(FrozenRecord):
    """A character's ability (or an event's play effect)."""

    FIELDS = ("name", "cost", "passive", "target", "effects", "mods", "each_turn")

    def __init__(self, name: str, cost: int = 0, passive: bool = False, target: str = "none", effects: tuple = (),
                 mods: tuple = (), each_turn: tuple = ()):
        self._set(name=name, cost=cost, passive=passive, target=target, effects=effects, mods=mods,
                  each_turn=each_turn)


class Card(FrozenRecord):
    """One card of the catalogue."""

    FIELDS = ("name", "kind", "rarity", "cost", "klass", "hp", "cp", "text", "attacks", "abilities", "target",
              "effects", "mods", "each_turn", "aliases")

    def __init__(self, name: str, kind: str, rarity: str, cost: int = 1, klass: str | None = None, hp: int = 0,
                 cp: int = 0, text: str = "", attacks: tuple[Attack, ...] = (), abilities: tuple[Ability, ...] = (),
                 target: str = "none", effects: tuple = (), mods: tuple = (), each_turn: tuple = (),
                 aliases: tuple[str, ...] = ()):
        # the passive modifiers and each-turn effects worked out here, not on first use: the rules ask on every
        # move (and an attribute added later would send the card to CPython's slow reads: see pbd.record)
        passive = [a for a in abilities if a.passive]
        self._set(name=name, kind=kind, rarity=rarity, cost=cost, klass=klass, hp=hp, cp=cp, text=text,
                  attacks=attacks, abilities=abilities, target=target, effects=effects, mods=mods,
                  each_turn=each_turn, aliases=aliases,
                  _all_mods=mods + tuple(m for a in passive for m in a.mods),
                  _all_each_turn=each_turn + tuple(e for a in passive for e in a.each_turn))

    @property
    def colour(self) -> str:
        """Return the rulebook's colour code for the card."""
        return {"Hero": "Blue", "Anti-Hero": "Gray", "Civilian": "Yellow", "Government": "Green",
                "Anti-Villain": "Orange", "Villain": "Red"}.get(self.klass or "", "Black")

    def all_mods(self) -> tuple:
        """Return the card's passive modifiers (its own and its passive abilities'); not a field."""
        return self._all_mods

    def all_each_turn(self) -> tuple:
        """Return the effects this card triggers at the start of its owner's turn; not a field."""
        return self._all_each_turn


class Catalogue(Record):
    """Cards by name, with case-insensitive lookup and suggestions."""

    FIELDS = ("cards", "source")

    def __init__(self, cards: dict[str, Card] | None = None, source: str = ""):
        self.cards = {} if cards is None else cards
        self.source = source
        self._index = {}
        for card in self.cards.values():
            for key in (card.name, *card.aliases):
                self._index[fold(key)] = card
        # the rules look up names as the board holds them (a card's own name) many times a
        # move: those skip folding, and find the card the folded lookup would find
        self._exact = {key: self._index[fold(key)]
                       for card in self.cards.values() for key in (card.name, *card.aliases)}
        #: a card's own name (or alias), exactly as written → the card (``get(name)`` for such a name, without a call)
        self.by_name = self._exact
        #: a card's own name (or alias) → its passive modifiers (``get(name).all_mods()``)
        self.mods_by_name = {key: card.all_mods() for key, card in self._exact.items()}
        #: a card's own name (or alias) → the effects it triggers each turn (``get(name).all_each_turn()``)
        self.each_turn_by_name = {key: card.all_each_turn() for key, card in self._exact.items()}
        #: a kind of modifier (see :data:`MODS`) or "each_turn" (and "turn_start": :meth:`add_turn_start`) → the
        #: names (as above) of the cards without one (a fast path: a board whose names all lie in it has none, asked in one set operation)
        self.without = {kind: frozenset(k for k, mods in self.mods_by_name.items()
                                        if all(m["mod"] != kind for m in mods)) for kind in MODS}
        self.without["each_turn"] = frozenset(k for k, effects in self.each_turn_by_name.items() if not effects)

    def add_turn_start(self) -> None:
        """Add the row "turn_start" to :attr:`without`: the cards with neither an ``ap_per_turn`` modifier nor an
        effect each turn (the start of most turns asks once for both).

        Made when the rules first ask, not here: the cached catalogue every command loads stays as it was.
        """
        self.without["turn_start"] = self.without["ap_per_turn"] & self.without["each_turn"]

    def named(self, source: str) -> Catalogue:
        """Return this catalogue under the name ``source``, sharing its cards and lookups (none is built again)."""
        twin = object.__new__(Catalogue)
        for name, value in self.__dict__.items():
            setattr(twin, name, value)      # (not twin.__dict__, which slows every read of the catalogue)
        twin.source = source
        return twin

    def __contains__(self, name: str) -> bool:
        return name in self._exact or fold(name) in self._index

    def find(self, name: str) -> Card | None:
        """Return the card called ``name`` (case, spacing and punctuation forgiven), None if there is none."""
        return self._exact.get(name) or self._index.get(fold(name))

    def get(self, name: str) -> Card:
        """Return the card called ``name`` (case, spacing and punctuation forgiven).

        :raises UnknownNameError: no such card, with close names suggested.
        """
        card = self.find(name)
        if card is None:
            raise UnknownNameError("card", name, suggest(name, [c.name for c in self.cards.values()]))
        return card

    def mods_of(self, name: str) -> tuple:
        """Return ``get(name).all_mods()``, found in one step for a name as the board holds it.

        :raises UnknownNameError: no such card.
        """
        mods = self.mods_by_name.get(name)
        return self.get(name).all_mods() if mods is None else mods

    def each_turn_of(self, name: str) -> tuple:
        """Return ``get(name).all_each_turn()``, found in one step for a name as the board holds it.

        :raises UnknownNameError: no such card.
        """
        effects = self.each_turn_by_name.get(name)
        return self.get(name).all_each_turn() if effects is None else effects

    def porter(self) -> Card:
        """Return the catalogue's Porter card."""
        return next(c for c in self.cards.values() if c.kind == "porter")


@lru_cache(maxsize=4096)
def fold(name: str) -> str:
    """Return ``name`` reduced to lower-case letters and digits (how names are compared)."""
    return "".join(filter(str.isalnum, name.casefold()))     # (filter: no Python frame per character)


def suggest(name: str, names: list[str], n: int = 3) -> list[str]:
    """Return up to ``n`` names close to ``name`` (for "did you mean ...")."""
    import difflib

    folded = {fold(x): x for x in names}
    hits = difflib.get_close_matches(fold(name), list(folded), n=n, cutoff=0.6)
    prefix = [x for k, x in folded.items() if k.startswith(fold(name)) and fold(name)]
    return list(dict.fromkeys([*prefix[:n], *(folded[h] for h in hits)]))[:n]


def match_name(name: str, names: list[str], kind: str = "card") -> str:
    """Return the one of ``names`` that ``name`` means: exact (folded), else a unique prefix.

    :raises UnknownNameError: nothing matches.
    :raises AmbiguousNameError: several names start with it.
    """
    key = fold(name)
    for x in names:
        if x == name or fold(x) == key:     # (the name as written folds alike: no fold to work out)
            return x        # the first exact match (usually the name as written)
    starts = [x for x in dict.fromkeys(names) if key and fold(x).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise AmbiguousNameError(kind, name, starts)
    raise UnknownNameError(kind, name, suggest(name, list(dict.fromkeys(names))))


# -- loading -------------------------------------------------------------------------

#: The most cards a catalogue may define.
MAX_CARDS = 5000


def load_catalogue(path: str | os.PathLike, require_porter: bool = True) -> Catalogue:
    """Return the catalogue in a TOML file, validated against the schema above.

    ``require_porter=False`` accepts a partial catalogue (a player's own cards, merged
    over the bundled one, need not define a Porter).

    :raises DeckFormatError: the file is missing, not TOML, or a card breaks the schema.
    """
    from pbd import cache
    from pbd.textfile import read_text_file

    path = os.fspath(path)
    if not os.path.exists(path):
        raise DeckFormatError("catalogue not found", source=path)
    text = read_text_file(path, "catalogue")
    # kept whole, its lookups with it: building them again costs a command more than reading them
    cat = cache.cached(f"cnc-catalogue{'' if require_porter else '-partial'}", path, text.encode("utf-8"),
                       lambda: Catalogue(_parse_catalogue(text, path, require_porter), path),
                       (Catalogue, Card, Attack, Ability, FrozenDict), Catalogue)
    cat.source = path
    return cat


def _parse_catalogue(text: str, path: str, require_porter: bool) -> dict[str, Card]:
    """Return the cards of a catalogue file's text, validated (see :func:`load_catalogue`).

    :raises DeckFormatError: not TOML (or nested too deep, or a non-finite number), or a card breaks the schema.
    """
    from pbd.decks import load_toml

    data = load_toml(text, str(path))
    cards: dict[str, Card] = {}
    rows = data.get("card", [])
    if not isinstance(rows, list) or len(rows) > MAX_CARDS:
        raise DeckFormatError(f"'card' must be a list of at most {MAX_CARDS} [[card]] tables", source=str(path))
    for i, raw in enumerate(rows, 1):
        try:
            card = _card(raw, f"{os.path.basename(path)}: card #{i}")
        except (ValueError, TypeError, OverflowError, AttributeError) as exc:
            raise DeckFormatError(f"card #{i}: a value of the wrong kind ({str(exc)[:80]})", source=str(path)) from None
        if card.name in cards:
            raise DeckFormatError(f"card {card.name!r} is defined twice", source=str(path))
        cards[card.name] = card
    if require_porter and not any(c.kind == "porter" for c in cards.values()):
        raise DeckFormatError("the catalogue has no Porter (kind = \"porter\")", source=str(path))
    return cards


@cache
def bundled_catalogue() -> Catalogue:
    """Return the catalogue shipped in decks/cnc/catalogue.toml."""
    from pbd.paths import resource

    return load_catalogue(resource("decks", "cnc", "catalogue.toml"))


def _card(raw: dict, where: str) -> Card:
    def need(key, kind=str):
        if key not in raw:
            raise DeckFormatError(f"{where}: missing '{key}'")
        if not isinstance(raw[key], kind):
            raise DeckFormatError(f"{where}: '{key}' should be a {kind.__name__}")
        return raw[key]

    name = need("name")
    where = f"{where} ({name})"
    kind = need("kind")
    if kind not in KINDS:
        raise DeckFormatError(f"{where}: kind must be one of {', '.join(KINDS)}")
    rarity = raw.get("rarity", "porter" if kind == "porter" else None)
    if rarity not in RARITIES:
        raise DeckFormatError(f"{where}: rarity must be common, uncommon or rare")
    klass = raw.get("class")
    if kind == "character" and klass not in CLASSES:
        raise DeckFormatError(f"{where}: class must be one of {', '.join(CLASSES)}")
    hp = int(raw.get("hp", 0))
    if kind == "character" and not 1 <= hp <= 50:
        raise DeckFormatError(f"{where}: hp must be 1..50 (50 is the hard cap)")
    attacks = tuple(_attack(a, where) for a in raw.get("attack", []))
    abilities = tuple(_ability(a, where) for a in raw.get("ability", []))
    return Card(
        name=name, kind=kind, rarity=rarity, cost=int(raw.get("cost", 0 if kind == "porter" else 1)),
        klass=klass, hp=hp, cp=int(raw.get("cp", 0)), text=str(raw.get("text", "")),
        attacks=attacks, abilities=abilities, target=_target(raw.get("target", "none"), where),
        effects=tuple(_effects(raw.get("effects", []), where)), mods=tuple(_mods(raw.get("mods", []), where)),
        each_turn=tuple(_each_turn(raw.get("each_turn", []), where)), aliases=tuple(raw.get("aliases", ())))


def _attack(raw: dict, where: str) -> Attack:
    try:
        attack = Attack(str(raw["name"]), str(raw["type"]), int(raw.get("cost", 1)), int(raw["damage"]),
                        tuple(_effects(raw.get("after", []), where)))
    except (KeyError, ValueError, TypeError) as exc:
        raise DeckFormatError(f"{where}: an attack needs name, type, cost and damage ({exc})") from None
    if attack.type not in ATTACK_TYPES:
        raise DeckFormatError(f"{where}: attack type {attack.type!r} is not one of {', '.join(ATTACK_TYPES)}")
    if not 0 <= attack.damage <= 50:
        raise DeckFormatError(f"{where}: attack damage must be 0..50 (50 is the hard cap)")
    return attack


def _ability(raw: dict, where: str) -> Ability:
    if "name" not in raw:
        raise DeckFormatError(f"{where}: an ability needs a name")
    return Ability(str(raw["name"]), int(raw.get("cost", 0 if raw.get("passive") else 1)), bool(raw.get("passive", False)),
                   _target(raw.get("target", "none"), where), tuple(_effects(raw.get("effects", []), where)),
                   tuple(_mods(raw.get("mods", []), where)), tuple(_each_turn(raw.get("each_turn", []), where)))


def _target(value, where: str) -> str:
    if value not in TARGETS:
        raise DeckFormatError(f"{where}: target {value!r} is not one of {', '.join(TARGETS)}")
    return value


def _checked(item, key: str, table: dict, what: str, where: str) -> str:
    """Return the verb or modifier name of a catalogue entry, checking its keys against ``table``."""
    name = item.get(key) if isinstance(item, dict) else None
    if name not in table:
        raise DeckFormatError(f"{where}: {what} {item!r} needs {key} = one of {', '.join(table)}")
    extra = set(item) - table[name] - {key}
    if extra:
        raise DeckFormatError(f"{where}: {what} '{name}' does not take {', '.join(sorted(extra))}")
    return name


def _effects(items: list, where: str):
    for item in items:
        verb = _checked(item, "do", VERBS, "effect", where)
        if verb == "roll":
            for outcome in item.get("outcomes", []):
                list(_effects(outcome.get("effects", []), where))
        if verb == "status" and item.get("status") not in STATUSES:
            raise DeckFormatError(f"{where}: status must be one of {', '.join(STATUSES)}")
        yield _freeze(item)


#: verbs a start-of-turn effect may not use: they need the owner's private hand or dice,
#: and the turn starts inside the other player's command
PRIVATE_VERBS = ("roll", "draw", "discard_hand", "recover", "manual")


def _each_turn(items: list, where: str):
    effects = list(_effects(items, where))
    for eff in effects:
        if eff["do"] in PRIVATE_VERBS:
            raise DeckFormatError(f"{where}: a start-of-turn effect cannot '{eff['do']}' (it runs during the "
                                  f"other player's command, where the owner's hand and dice are not at hand)")
    return effects


def _mods(items: list, where: str):
    for item in items:
        _checked(item, "mod", MODS, "modifier", where)
        yield _freeze(item)


def _freeze(value):
    """Return ``value`` with dicts and lists made hashable (frozen records hold these)."""
    if isinstance(value, dict):
        return FrozenDict((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


class FrozenDict(dict):
    """A dict that can sit in a frozen record (hashable by identity of content)."""

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))
