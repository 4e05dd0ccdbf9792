"""C&C deck construction: a deck list resolved against the catalogue and checked by the rules.

The rulebook's construction rules: fifty cards plus the Porter (fifty-one in all), at most
10 Rare and 15 Uncommon cards (Commons unlimited), at most five copies of any card.  A deck
may name its own catalogue with a ``Catalogue: FILE`` line; its cards are added to the
bundled ones (a card of the same name replaces the bundled card).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pbd.decks import DeckList, load_deck_list
from pbd.errors import DeckError, DeckFormatError, UnknownNameError
from pbd.games.cnc.cards import Card, Catalogue, bundled_catalogue, load_catalogue, suggest

GAME = "cnc"
DECK_SIZE = 50
MAX_RARE = 10
MAX_UNCOMMON = 15
MAX_COPIES = 5


@dataclass
class CncDeck:
    """A legal C&C deck: the Porter's name and the 50 cards' canonical names, in list order."""

    title: str
    porter: str
    cards: list[str]
    catalogue: Catalogue
    source: str = ""
    #: the player's own catalogue file named by the list's ``Catalogue:`` line, if any
    catalogue_path: str | None = None


def load_cnc_deck(spec: str) -> CncDeck:
    """Return the legal deck that ``spec`` (a deck list path or bundled deck name) lists.

    :raises DeckFormatError: the list or its catalogue cannot be found, read or parsed.
    :raises DeckError: the deck breaks construction rules; every problem is listed.
    """
    deck_list = load_deck_list(spec, GAME)
    catalogue = deck_catalogue(deck_list)
    problems = deck_problems(deck_list, catalogue)
    if problems:
        raise DeckError(f"{deck_list.source}: not a legal C&C deck "
                        f"({len(problems)} problem{'s' if len(problems) != 1 else ''})", problems)
    return CncDeck(title=deck_list.title, porter=catalogue.get(deck_list.porter).name,
                   cards=[catalogue.get(name).name for name in deck_list.cards],
                   catalogue=catalogue, source=deck_list.source, catalogue_path=deck_list.catalogue)


def deck_report(spec: str) -> tuple[str, list[str]]:
    """Return a one-line summary of the deck ``spec`` and its construction problems (empty if legal).

    :raises DeckFormatError: the list or its catalogue cannot be found, read or parsed.
    """
    deck_list = load_deck_list(spec, GAME)
    catalogue = deck_catalogue(deck_list)
    return deck_summary(deck_list, catalogue), deck_problems(deck_list, catalogue)


# -- the catalogue a deck plays with ----------------------------------------------------

def deck_catalogue(deck_list: DeckList) -> Catalogue:
    """Return the bundled catalogue, merged with the deck's own ``Catalogue:`` file if it names one.

    :raises DeckFormatError: the deck's catalogue cannot be read or breaks the schema.
    """
    bundled = bundled_catalogue()
    if not deck_list.catalogue:
        return bundled
    return merge_catalogues(bundled, _load_own_catalogue(deck_list.catalogue))


def merge_catalogues(base: Catalogue, own: Catalogue) -> Catalogue:
    """Return ``base`` with ``own``'s cards added; an own card replaces a base card it names."""
    kept = {name: card for name, card in base.cards.items() if name not in own}
    return Catalogue({**kept, **own.cards}, source=f"{base.source} + {own.source}")


def _load_own_catalogue(path: str) -> Catalogue:
    """Return a player's catalogue file (it need not define a Porter).

    :raises DeckFormatError: missing, unreadable, not TOML, or a card breaks the schema.
    """
    try:
        return load_catalogue(path, require_porter=False)
    except DeckFormatError:
        raise
    except OSError as exc:
        raise DeckFormatError(f"cannot read the catalogue ({exc.strerror or exc})", source=path) from None
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise DeckFormatError(f"a card breaks the catalogue schema ({exc})", source=path) from None


# -- the construction rules --------------------------------------------------------------

def deck_problems(deck_list: DeckList, catalogue: Catalogue) -> list[str]:
    """Return every way the deck breaks the construction rules, in the players' words."""
    cards, unknown = _resolve(deck_list, catalogue)
    return [
        *_porter_problems(deck_list.porter, catalogue),
        *_unknown_problems(unknown, catalogue),
        *_porters_in_deck(deck_list, cards),
        *_count_problems(len(deck_list.cards)),
        *_rarity_problems(cards),
        *_copy_problems(cards),
    ]


def deck_summary(deck_list: DeckList, catalogue: Catalogue) -> str:
    """Return one line: title, card count + Porter, and counts per rarity and per kind."""
    cards, unknown = _resolve(deck_list, catalogue)
    rarity = Counter(c.rarity for c in cards)
    kinds = Counter(c.kind for c in cards)
    porter = deck_list.porter or "no Porter"
    parts = [f"{rarity[r]} {r.capitalize()}" for r in ("rare", "uncommon", "common") if rarity[r]]
    kind_parts = [_plural(kinds[k], k) for k in ("character", "city", "event") if kinds[k]]
    extra = f", {len(unknown)} unknown" if unknown else ""
    return (f"{deck_list.title or deck_list.source}: {len(deck_list.cards)} cards + {porter} -- "
            f"{', '.join(parts) or 'no known cards'}{extra}; {', '.join(kind_parts) or 'nothing playable'}")


def _plural(n: int, kind: str) -> str:
    word = {"character": "characters", "city": "cities", "event": "events"}[kind]
    return f"{n} {word if n != 1 else kind}"


def _resolve(deck_list: DeckList, catalogue: Catalogue) -> tuple[list[Card], dict[str, list[int]]]:
    """Return the known cards of the list and the unknown names with the lines they are on."""
    cards: list[Card] = []
    unknown: dict[str, list[int]] = {}
    for position, name in enumerate(deck_list.cards, 1):
        if name in catalogue:
            cards.append(catalogue.get(name))
        else:
            unknown.setdefault(name, []).append(deck_list.line_of(position) or position)
    return cards, unknown


def _porter_problems(porter: str | None, catalogue: Catalogue) -> list[str]:
    if not porter:
        return [f"no Porter: a deck is 50 cards plus its Porter -- add the line "
                f"'Porter: {_default_porter(catalogue)}'"]
    try:
        card = catalogue.get(porter)
    except UnknownNameError as exc:
        return [f"the Porter {porter!r} is not a card{_did_you_mean(exc.suggestions)}"]
    if card.kind != "porter":
        return [f"the Porter line names {card.name}, a {card.kind} card, not a Porter "
                f"(try 'Porter: {_default_porter(catalogue)}')"]
    return []


def _default_porter(catalogue: Catalogue) -> str:
    try:
        return catalogue.porter().name
    except StopIteration:
        return "The Porter"


def _unknown_problems(unknown: dict[str, list[int]], catalogue: Catalogue) -> list[str]:
    names = [c.name for c in catalogue.cards.values()]
    problems = []
    for name, lines in unknown.items():
        where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, dict.fromkeys(lines)))}"
        problems.append(f"{where}: unknown card {name!r}{_did_you_mean(suggest(name, names))}")
    return problems


def _did_you_mean(suggestions: list[str]) -> str:
    if not suggestions:
        return ""
    quoted = [repr(s) for s in suggestions]
    return " -- did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"


def _porters_in_deck(deck_list: DeckList, cards: list[Card]) -> list[str]:
    counts = Counter(c.name for c in cards if c.kind == "porter")
    return [f"{name} is a Porter: it goes on the 'Porter:' line, not among the 50 cards "
            f"({_copies(n)} listed)" for name, n in counts.items()]


def _count_problems(count: int) -> list[str]:
    if count == DECK_SIZE:
        return []
    return [f"the deck lists {_plural_cards(count)}; it needs exactly {DECK_SIZE} "
            f"(plus the Porter, 51 in all)"]


def _plural_cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _rarity_problems(cards: list[Card]) -> list[str]:
    problems = []
    for rarity, limit in (("rare", MAX_RARE), ("uncommon", MAX_UNCOMMON)):
        these = Counter(c.name for c in cards if c.rarity == rarity)
        total = sum(these.values())
        if total > limit:
            detail = ", ".join(f"{name} x{n}" for name, n in these.items())
            problems.append(f"{total} {rarity.capitalize()} cards; at most {limit} are allowed ({detail})")
    return problems


def _copy_problems(cards: list[Card]) -> list[str]:
    counts = Counter(c.name for c in cards if c.kind != "porter")
    return [f"{_copies(n)} of {name}; at most {MAX_COPIES} copies of a card are allowed"
            for name, n in counts.items() if n > MAX_COPIES]


def _copies(n: int) -> str:
    return f"{n} cop{'ies' if n != 1 else 'y'}"

