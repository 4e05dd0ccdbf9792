"""Card text in words (``pbd card NAME``): a card's full entry from every game's bundled catalogue.

Each game's catalogue is read from its bundled TOML file (``decks/<game>/``) and every
entry becomes a list of lines a player reads: cost, class, rarity, HP, attacks,
abilities, effects.  Names match case-insensitively, by alias, or by a unique prefix; a
misspelt name gets "did you mean ...".  Pure apart from reading the bundled files.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache

from pbd import paths
from pbd.errors import AmbiguousNameError, DeckFormatError, UnknownNameError, UsageError
from pbd.result import Result

#: The rulebook's own words for The Tower's cards (rules/the-tower.txt): its deck file has counts only.
TOWER_TEXT = {
    "Torch": "Placed on a tile. A move that ends on it continues to the next tile (and on, while the next "
             "tile has a torch too).",
    "Guard": "Placed on a tile. A move that ends on it goes back one tile (and on, while that tile has a "
             "guard too). A Shield negates it.",
    "Rope": "Placed on a tile. A move that ends on it goes up one floor (and on, while the tile above has a "
            "rope too).",
    "Trapdoor": "Placed on a tile. A move that ends on it goes down one floor (and on, while the tile below "
                "has a trapdoor too).",
    "Magic Carpet": "Placed on a tile. A move that ends on it rolls the die again and carries on.",
    "Spider Web": "Placed on a tile. A move that ends on it does not move on the next turn (a Sword "
                  "negates it).",
    "Arcane Trap": "Placed on a tile. A move that ends on it rolls a die: 6 goes to the next arcane trap, "
                   "1 or 2 to the previous one (if there is one). A Shield makes only a 1 go back.",
    "Sword": "Played at any time: roll an extra die in a duel, or negate a spider web.",
    "Shield": "Played at any time: negate a sword in a duel, or a guard, or make only a 1 send you back "
              "from an arcane trap.",
}


@dataclass(frozen=True)
class Entry:
    """One card of one game's catalogue: the name players use, other names, and its text in lines."""

    game: str
    title: str
    name: str
    aliases: tuple[str, ...]
    lines: tuple[str, ...]


def _toml(relative: str) -> dict:
    """Return a bundled TOML file's data.

    :raises DeckFormatError: it cannot be read.
    """
    path = paths.resource_dir("decks") / relative
    import tomllib  # here, not at the top: its import compiles regular expressions every command would pay for
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckFormatError(f"cannot read the bundled catalogue: {exc}", source=str(path)) from None


def _ap(n) -> str:
    return f"{n} AP"


# -- C&C -----------------------------------------------------------------------------

_WHO = {"self": "you", "opponent": "the opponent"}
_TO = {"target": "the target", "self": "this character", "opponent cp": "the opponent's CP", "own cp": "your CP",
       "most damaged friendly": "your most damaged character", "all friendly": "all your characters"}


def _whose(who) -> str:
    return "your" if who in (None, "self") else "the opponent's" if who == "opponent" else f"{who}'s"


def _signed(n) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n).replace("-", "−")


def _effect_words(eff: dict) -> str:
    """Return one C&C catalogue effect or modifier in words ("10 damage to the target")."""
    g = eff.get
    who, to = _WHO.get(g("who", "self"), g("who")), _TO.get(g("to", "target"), g("to"))
    words = {
        "damage": lambda: f"{g('amount')} damage to {to}",
        "heal": lambda: f"heals {to} by {g('amount')} HP",
        "cp": lambda: f"{_whose(g('who'))} CP {_signed(g('amount'))}",
        "draw": lambda: f"you draw {g('count', 1)} card(s) free",
        "discard_hand": lambda: f"{who} discard{'s' if who != 'you' else ''} {g('count', 1)} card(s) from hand",
        "ap": lambda: f"{_whose(g('who'))} AP {_signed(g('amount'))}",
        "ap_next": lambda: f"{_whose(g('who'))} next turn's AP income {_signed(g('amount'))}",
        "destroy_city": lambda: f"destroys {to} (a City card)",
        "return_to_hand": lambda: f"returns {to} to its owner's hand",
        "status": lambda: f"{to} becomes {g('status')}",
        "cure": lambda: f"cures {to} of every status",
        "recover": lambda: f"you take the newest {g('count', 1)} card(s) of your discard pile back to your hand",
        "roll": lambda: f"roll a d{g('sides', 6)}: " + "; ".join(
            f"{'/'.join(map(str, c.get('on', ())))} → {_cnc_words(c.get('effects'))}" for c in g("outcomes") or ()),
        "manual": lambda: str(g("text", "see the card's text")),
        "attack_bonus": lambda: f"{_signed(g('amount'))} to {'your' if g('whose', 'own') == 'own' else g('whose')}"
                                f" {' '.join(filter(None, [g('class'), g('type')]))} attacks".replace("  ", " "),
        "ap_per_turn": lambda: f"{_signed(g('amount'))} AP at the start of each of your turns"
                               + (f" for every {g('per_class')} you have in play" if g("per_class") else ""),
        "character_limit": lambda: f"you may have {g('amount')} characters in play",
        "no_attrition_loss": lambda: "you do not lose by Attrition",
        "protect_cities": lambda: "an opponent must destroy it before any other City card of yours",
        "extra_event": lambda: f"{_signed(g('amount'))} event card(s) a turn",
        "extra_city": lambda: f"{_signed(g('amount'))} City card(s) a turn",
        "immune": lambda: f"immune to {', '.join(g('types') or ())} attacks",
        "only_harmed_by": lambda: f"harmed only by {', '.join(g('types') or ())} attacks",
        "damage_reduction": lambda: f"takes {g('amount')} less damage from each attack",
    }
    verb = g("do") or g("mod")
    if verb in words:
        return words[verb]()
    return " ".join([str(verb or "effect").replace("_", " ")] +
                    [f"{k.replace('_', ' ')} {v}" for k, v in eff.items() if k not in ("do", "mod")])


def _cnc_words(effects) -> str:
    """Return a C&C catalogue's effect data in words, joined by '; '."""
    return "; ".join(_effect_words(e) for e in effects or () if isinstance(e, dict))


def _cnc_entry(raw: dict) -> list[str]:
    kind = raw.get("kind", "card")
    head = [kind.capitalize()]
    if raw.get("class"):
        head.append(raw["class"])
    if raw.get("rarity"):
        head.append(raw["rarity"])
    lines = [" · ".join(head), f"Cost: {_ap(raw.get('cost', 0))} to play"]
    if kind == "character":
        lines.append(f"HP: {raw.get('hp', 0)}")
    if raw.get("cp"):
        lines.append(f"CP: +{raw['cp']} when played")
    for att in raw.get("attack") or ():
        extra = f" (then: {_cnc_words(att['after'])})" if att.get("after") else ""
        lines.append(f"Attack: {att['name']} — {att.get('type', '?')}, {_ap(att.get('cost', 0))}, "
                     f"{att.get('damage', 0)} damage{extra}")
    for ab in raw.get("ability") or ():
        how = "passive" if ab.get("passive") else _ap(ab.get("cost", 0))
        target = f", on {ab['target']}" if ab.get("target") and ab["target"] != "none" else ""
        what = _cnc_words(list(ab.get("effects") or ()) + list(ab.get("mods") or ()) + list(ab.get("each_turn") or ()))
        lines.append(f"Ability: {ab['name']} — {how}{target}" + (f": {what}" if what else ""))
    if raw.get("target") and raw["target"] != "none":
        lines.append(f"Target: {raw['target']}")
    effects = _cnc_words(list(raw.get("effects") or ()) + list(raw.get("mods") or ()))
    if effects:
        lines.append(f"Effects: {effects}")
    if raw.get("each_turn"):
        lines.append(f"Each of your turns: {_cnc_words(raw['each_turn'])}")
    if raw.get("text"):
        lines.append(f"Text: {' '.join(str(raw['text']).split())}")
    return lines


def _cnc() -> list[Entry]:
    data = _toml("cnc/catalogue.toml")
    return [Entry("cnc", "C&C Trading Card Game", raw["name"], tuple(raw.get("aliases") or ()), tuple(_cnc_entry(raw)))
            for raw in data.get("card") or () if isinstance(raw, dict) and raw.get("name")]


# -- Twin Tower City -------------------------------------------------------------------

def _ttc_bonus(bonuses) -> list[str]:
    out = []
    for b in bonuses or ():
        if "wielder" in b:
            out.append(f"Bonus: +{b.get('plus', 0)} Power when {b['wielder']} wields it")
        elif "against" in b:
            out.append(f"Bonus: +{b.get('plus', 0)} Power against {b['against']}")
    return out


def _ttc() -> list[Entry]:
    data = _toml("ttc/sample.toml")
    title, out = "Twin Tower City", []
    for kind in ("warrior", "item", "environment"):
        for raw in data.get(kind) or ():
            if not isinstance(raw, dict) or not raw.get("name"):
                continue
            lines = [f"{str(raw.get('side', '')).capitalize()} {kind}", f"Power: {raw.get('power', 0)}"]
            if kind == "environment":
                lines.append("Adds its Power to its own side's total")
            lines += _ttc_bonus(raw.get("bonus"))
            out.append(Entry("ttc", title, raw["name"], (), tuple(lines)))
    for raw in data.get("levelled") or ():
        if not isinstance(raw, dict) or not raw.get("warrior"):
            continue
        name = f"Level {raw.get('level', '?')} {raw['warrior']}"
        lines = [f"{str(raw.get('side', '')).capitalize()} Warrior Card (levelled up)",
                 f"Power: {raw.get('power', 0)}", f"Stands in for {raw['warrior']}"]
        aliases = (f"{raw['warrior']} Lvl {raw.get('level', '?')}", f"warrior {raw.get('id', '')}")
        out.append(Entry("ttc", title, name, aliases, tuple(lines)))
    return out + _ttc_numbered(data, title)


def _ttc_numbered(data: dict, title: str) -> list[Entry]:
    """Return Twin Tower City's numbered cards: Battle Cards (``battle 4``) and Army Cards (``army 105``)."""
    power = {str(r.get("name")): r.get("power") for kind in ("warrior", "item", "environment")
             for r in data.get(kind) or () if isinstance(r, dict)}

    def named(name) -> str:
        return f"{name} (Power {power[name]})" if power.get(name) is not None else str(name)

    out = []
    for raw in data.get("battle") or ():
        if isinstance(raw, dict) and "id" in raw:
            lines = ["Battle Card",
                     f"Dark: {named(raw.get('dark_warrior'))} with {named(raw.get('dark_item'))}",
                     f"Light: {named(raw.get('light_warrior'))} with {named(raw.get('light_item'))}",
                     f"Environment: {named(raw.get('environment'))}"]
            out.append(Entry("ttc", title, f"battle {raw['id']}", (), tuple(lines)))
    for raw in data.get("army") or ():
        if isinstance(raw, dict) and "id" in raw:
            lines = [f"{str(raw.get('side', '')).capitalize()} Army Card",
                     "Warriors: " + ", ".join(named(w) for w in raw.get("warriors") or ())]
            out.append(Entry("ttc", title, f"army {raw['id']}", (), tuple(lines)))
    return out


# -- Boys' Town --------------------------------------------------------------------------

def _boystown() -> list[Entry]:
    data = _toml("boystown/standard.toml")
    combos = [c for c in data.get("combo") or () if isinstance(c, dict)]
    out = []
    for raw in data.get("card") or ():
        if not isinstance(raw, dict) or not raw.get("name"):
            continue
        lines = [f"AP (attack): {raw.get('ap', 0)}", f"TP (town points): {raw.get('tp', 0)}",
                 f"Copies in the deck: {raw.get('copies', 1)}"]
        if raw.get("tags"):
            lines.append("Tags: " + ", ".join(raw["tags"]))
        if raw.get("text"):
            lines.append(f"Text: {' '.join(str(raw['text']).split())}")
        for combo in combos:
            if raw["name"] in (combo.get("cards") or ()):
                others = ", ".join(c for c in combo["cards"] if c != raw["name"])
                lines.append(f"Combo {combo.get('name', '')}: +{combo.get('tp', 0)} TP with {others}")
        out.append(Entry("boystown", "Boys' Town", raw["name"], (), tuple(lines)))
    return out


# -- 2Xd6 -------------------------------------------------------------------------------

def _twoxd6() -> list[Entry]:
    data = _toml("2xd6/standard.toml")
    out = []
    for raw in data.get("card") or ():
        if not isinstance(raw, dict) or "rank" not in raw:
            continue
        rank, core = str(raw["rank"]).upper(), str(raw.get("core", ""))
        card_id = str(raw.get("id") or f"{rank}{core[:1]}")
        lines = [f"Rank {rank} · {'Face' if rank in ('J', 'Q', 'K', 'A', '?') else 'Pip'} card",
                 f"Pips (cost to play): {raw.get('pips', 0)}", f"Power: {raw.get('power', 0)}",
                 f"Core colour: {core}", f"Resistance colour: {raw.get('resistance', '')}",
                 f"Targeting colour: {raw.get('targeting', '')}"]
        out.append(Entry("2xd6", "2Xd6", f"{rank} {core}", (card_id,), tuple(lines)))
    return out


# -- The Tower ----------------------------------------------------------------------------

def _tower() -> list[Entry]:
    data = _toml("tower/deck.toml")
    counts = data.get("cards") or {}
    out = []
    for name, text in TOWER_TEXT.items():
        where = "Tile card" if name not in ("Sword", "Shield") else "Hand card"
        lines = [where, f"Copies in the default deck: {counts.get(name, 0)}", f"Text: {text}"]
        out.append(Entry("tower", "The Tower", name, (), tuple(lines)))
    return out


SOURCES = {"cnc": _cnc, "ttc": _ttc, "boystown": _boystown, "2xd6": _twoxd6, "tower": _tower}


@cache
def entries(game: str) -> tuple[Entry, ...]:
    """Return every card of ``game``'s bundled catalogue.

    :raises UsageError: pbd has no card catalogue for that game.
    :raises DeckFormatError: the bundled file cannot be read.
    """
    if game not in SOURCES:
        raise UsageError(f"pbd has no card catalogue for {game!r}", hint="games with cards: " + ", ".join(SOURCES))
    return tuple(SOURCES[game]())


def _fold(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").replace("-", " ").split())


def find(name: str, game: str | None = None) -> list[Entry]:
    """Return the cards ``name`` means: an exact name or alias in each game, else a unique prefix.

    Several games may have a card of that name; all are returned (one per game).

    :raises UnknownNameError: no card is called that (with the closest names).
    :raises AmbiguousNameError: the name is the prefix of several cards.
    :raises UsageError: ``game`` is not a game with cards.
    """
    key = _fold(name)
    if not key:
        raise UsageError("name a card, e.g. pbd card Spider-Man")
    pool = [e for g in ([_game(game)] if game else SOURCES) for e in entries(g)]
    exact = [e for e in pool if key in {_fold(e.name), *map(_fold, e.aliases)}]
    if exact:
        return exact
    prefix = [e for e in pool if _fold(e.name).startswith(key)]
    names = sorted({e.name for e in prefix})
    if len(names) == 1:
        return prefix
    if names:
        raise AmbiguousNameError("card", name, names[:8])
    close = difflib.get_close_matches(key, {_fold(e.name): e.name for e in pool}, n=3, cutoff=0.6)
    folded = {_fold(e.name): e.name for e in pool}
    raise UnknownNameError("card", name, [folded[c] for c in close])


def _game(game: str) -> str:
    """Return the game id ``game`` names (its id, title or an alias, any case).

    :raises UsageError: no game with a card catalogue is called that.
    """
    from pbd.games import BUNDLED

    key = game.strip().casefold()
    for name, (_, title, aliases) in BUNDLED.items():
        if key in (name, title.casefold(), *aliases) and name in SOURCES:
            return name
    raise UsageError(f"pbd has no card catalogue for {game!r}", hint="games with cards: " + ", ".join(SOURCES))


def card(name: str, game: str | None = None) -> Result:
    """Return the full entry of every card ``name`` means, saying which game it is from.

    :raises UnknownNameError: no card is called that (with the closest names).
    :raises AmbiguousNameError: the name is the prefix of several cards.
    :raises UsageError: ``game`` is not a game with cards.
    """
    found = find(name, game)
    lines: list[str] = []
    for e in found:
        if lines:
            lines.append("")
        lines.append(f"{e.name} — {e.title} ({e.game})")
        if e.aliases:
            lines.append("Also called: " + ", ".join(e.aliases))
        lines += [f"  {ln}" for ln in e.lines]
    data = {"cards": [{"game": e.game, "name": e.name, "aliases": list(e.aliases), "lines": list(e.lines)}
                      for e in found]}
    return Result(lines, data)
