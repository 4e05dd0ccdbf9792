"""C&C move notation: what players write in chat, read into :class:`Move` objects.

    draw | draw 2
    play Spider-Man | play Carnivorous Plants on Nill
    Spider-Man attacks Nill | Spider-Man attacks city | Iron Man attacks Nill with Unibeam then Batman
    Mirror Master uses Mirror Trap on Batman
    withdraw Batman | discard Nill | discard Nill from hand
    adjust Ben CP -10: the Sentry's Void | adjust Nill HP -5: fell off a roof
    end turn

Several moves are joined with ';'.  Names are resolved later, against the board.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pbd.errors import NotationError
from pbd.record import FrozenRecord
from pbd.regex import LazyPattern

EXAMPLES = ('draw', 'draw 2', 'play Spider-Man', 'play Carnivorous Plants on Nill', 'Spider-Man attacks Nill',
            'Spider-Man attacks city', 'Mirror Master uses Mirror Trap on Batman', 'withdraw Batman',
            'discard Nill', 'discard Nill from hand', 'adjust Ben CP -10: reason', 'end turn')

#: the words of the move forms, for "did you mean" (a misspelt ``drwa`` or ``atack``)
MOVE_WORDS = ("draw", "play", "cast", "put", "attack", "attacks", "uses", "withdraw", "return", "discard",
              "end", "turn", "pass", "done", "accept", "reject", "adjust", "with", "then", "from", "hand", "city")


class Move(FrozenRecord):
    """One move: ``kind`` plus the names and numbers it mentions."""

    kind: str                 # draw | play | attack | use | withdraw | discard | adjust | end
    card: str                 # the card played / acting character / withdrawn or discarded card
    target: str
    detail: str               # attack or ability name; discard place ("hand"/"field"); adjust field
    then: str                 # combo effect target
    amount: int
    text: str                 # adjust reason
    source: str               # the notation as written

    FIELDS = ("kind", "card", "target", "detail", "then", "amount", "text", "source")

    def __init__(self, kind: str, card: str = "", target: str = "", detail: str = "", then: str = "", amount: int = 0,
                 text: str = "", source: str = ""):
        # (FrozenRecord._set's work without its call: the parser builds a Move for every text it reads)
        self.__dict__.update(kind=kind, card=card, target=target, detail=detail, then=then, amount=amount,
                             text=text, source=source)


#: the forms a move can take, tried in order (compiled when first needed: a command reads one move)
_PATTERNS = [
    ("end", r"^(?:end(?:\s+(?:of\s+)?(?:my\s+)?turn)?|pass|done)$"),
    ("decide", r"^(?P<detail>accept|reject)(?:\s+(?:the\s+)?(?:adjust(?:ment)?|proposal))?$"),
    ("draw", r"^draw(?:\s+(?P<n>\d+|a|one|two|three))?(?:\s+cards?)?$"),
    ("adjust", r"^adjust\s+(?P<who>.+?)\s+(?P<field>cp|ap|hp)\s*(?P<amount>[+-]?\s*\d+)\s*"
               r"(?::\s*(?P<reason>.*))?$"),
    ("play", r"^(?:play|cast|put)\s+(?P<card>.+?)(?:\s+(?:on|at|against|targeting)\s+(?P<target>.+))?$"),
    ("withdraw", r"^(?:withdraw|return)\s+(?P<card>.+?)(?:\s+to\s+(?:my\s+)?hand)?$"),
    ("discard", r"^discard\s+(?P<card>.+?)(?:\s+from\s+(?:my\s+|the\s+)?(?P<place>hand|field|play))?$"),
    ("use", r"^(?P<card>.+?)\s+uses\s+(?P<detail>.+?)(?:\s+(?:on|at|against)\s+(?P<target>.+?))?"
            r"(?:\s+then\s+(?P<then>.+))?$"),
    ("attack", r"^(?P<card>.+?)\s+attacks?\s+(?P<target>.+?)(?:\s+with\s+(?P<detail>.+?))?"
               r"(?:\s+then\s+(?P<then>.+))?$"),
]
_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3}
#: the first words each form needs (the forms not listed start with a card name: always tried)
_FIRST_WORDS = {"end": ("end", "pass", "done"), "decide": ("accept", "reject"), "draw": ("draw",),
                "adjust": ("adjust",), "play": ("play", "cast", "put"), "withdraw": ("withdraw", "return"),
                "discard": ("discard",)}
#: a word the other forms need somewhere in the text (an ASCII text without it cannot match them)
_INNER_WORDS = {"use": "uses", "attack": "attack"}
#: those words, each once, in order (``_NAMED_BY_WORDS`` is keyed by which of them a text holds)
_INNER = tuple(dict.fromkeys(_INNER_WORDS.values()))
#: the compiled forms, made when a text first tries one: every form in order, the forms each fixed first
#: word starts, and the forms that start with a card name with the word each needs inside the text
_COMPILED: list[tuple[str, LazyPattern]] = []
_BY_FIRST: dict[str, list[tuple[str, LazyPattern]]] = {}
_NAMED_FIRST: list[tuple[str, LazyPattern, str]] = []
#: the forms of :data:`_NAMED_FIRST` a text may take, by whether it holds each word of :data:`_INNER`
#: (a tuple of booleans; None: every one, for a text that is not ASCII)
_NAMED_BY_WORDS: dict[tuple[bool, ...] | None, list[tuple[str, LazyPattern]]] = {}
#: the forms whose parts are all names, kept as written (most texts)
_NAMES_ONLY = frozenset(("end", "play", "withdraw", "use", "attack"))
#: the parts of those forms, in the order :class:`Move` takes them, and a "" for each
_NAME_PARTS, _NO_PARTS = ("card", "target", "detail", "then"), ("",) * 4


def _compile() -> None:
    """Fill :data:`_COMPILED`, :data:`_BY_FIRST`, :data:`_NAMED_FIRST` and :data:`_NAMED_BY_WORDS`.

    Each pattern compiles when a text first tries it.
    """
    from itertools import product

    for kind, source in _PATTERNS:
        form = (kind, LazyPattern(source, re.I))
        if kind in _FIRST_WORDS:
            for word in _FIRST_WORDS[kind]:
                _BY_FIRST.setdefault(word, []).append(form)
        else:
            _NAMED_FIRST.append((*form, _INNER_WORDS[kind]))
        _COMPILED.append(form)
    for held in product((False, True), repeat=len(_INNER)):
        words = {word for word, there in zip(_INNER, held) if there}
        _NAMED_BY_WORDS[held] = [(kind, pattern) for kind, pattern, word in _NAMED_FIRST if word in words]
    _NAMED_BY_WORDS[None] = [(kind, pattern) for kind, pattern, _ in _NAMED_FIRST]


def _forms(clean: str) -> list[tuple[str, LazyPattern]]:
    """Return the move forms, compiled, that ``clean`` could match, in the order they are tried.

    A form that starts with fixed words is tried only when the text's first word is one of
    them (an ASCII word compared case-insensitively, as the pattern would): the first word
    picks it from :data:`_BY_FIRST` rather than every form being tried in turn; any other
    first word tries every form.  In an ASCII text, a form that needs a word inside the
    text (``uses``, ``attack``) is skipped when the text lacks it (trying the pattern
    costs more than looking).  The forms with fixed first words come first in
    :data:`_PATTERNS`, so the order is the same as trying them all.
    """
    if not _COMPILED:      # each compiled when a text first tries it (most moves try one or three forms)
        _compile()
    first = clean.split(" ", 1)[0].lower()
    if not first.isascii():
        return _COMPILED
    named = _NAMED_BY_WORDS[tuple(map(clean.lower().__contains__, _INNER)) if clean.isascii() else None]
    fixed = _BY_FIRST.get(first)
    return fixed + named if fixed else named


@lru_cache(maxsize=4096)
def parse_moves(text: str) -> tuple[Move, ...]:
    """Return the moves in ``text`` (joined by ';' or new lines), in order.

    Kept per text, as :func:`parse_move` is (a bot or a replay plays the same texts again
    and again: a repeated text costs no Python frame at all).

    :raises NotationError: a move matches no known form; the examples are listed.
    """
    if ";" not in text and "\n" not in text:      # the common case: one move
        one = text.strip()
        if one:
            return (parse_move(one),)
        parts = []
    else:
        parts = [p.strip() for p in text.replace("\n", ";").split(";")]
        parts = [p for p in parts if p]
    if not parts:
        raise NotationError("no move given", hint="for example: " + "; ".join(EXAMPLES[:3]))
    return tuple(map(parse_move, parts))


def forget() -> None:
    """Forget every text read so far (the engine benchmark reads its moves anew in each pass)."""
    parse_moves.cache_clear()
    parse_move.cache_clear()


@lru_cache(maxsize=4096)
def parse_move(text: str) -> Move:
    """Return the one move written in ``text`` (a :class:`Move` is immutable, so a repeated text is read once).

    :raises NotationError: it matches no known form.
    """
    clean = " ".join(text.replace("’", "'").split()).rstrip(".!")
    forms = _forms(clean)
    if len(forms) == 1 and forms[0][0] in _READ_BY_WORDS and clean.isascii():     # (most texts: see _by_words)
        parts = _by_words(forms[0][0], clean)
        if parts is not None:
            return Move(forms[0][0], *parts, 0, "", clean)
    for kind, pattern in forms:
        m = pattern.match(clean)
        if m:
            return _build(kind, m, clean)
    if m := re.match(r"^(?P<who>.+?)\s+attacks?$", clean, re.I):
        raise NotationError(f"say whom {m.group('who')} attacks",
                            hint=f"for example: {m.group('who')} attacks NAME, or {m.group('who')} attacks city")
    from pbd.words import notation_hint     # only for a move that cannot be read

    raise NotationError(f"cannot read the move {text.strip()!r}",
                        hint=notation_hint(clean, MOVE_WORDS, " | ".join(EXAMPLES)))


#: the forms that start with a card name, read by their words (see :func:`_by_words`): the words that end the
#: card's name, the part after them, the words that start the optional part, that part (each word with the
#: single spaces around it that it has in a clean text)
_READ_BY_WORDS = {"use": ((" uses ",), "detail", (" on ", " at ", " against "), "target"),
                  "attack": ((" attack ", " attacks "), "target", (" with ",), "detail")}


def _by_words(kind: str, clean: str) -> tuple[str, str, str, str] | None:
    """Return (card, target, detail, then) of ``clean`` as ``kind``'s pattern reads them; None if it does not match.

    A fast path for the forms most texts take (an attack, a use): the pattern's parts are
    lazy (``.+?``), so each part ends at the first of its closing words (compared as the
    pattern's ``re.I`` compares an ASCII word) that has a word after it; ``then`` closes
    the optional part, or the first part when there is none.  ``clean`` is ASCII, its words
    joined by single spaces with none around them (as :func:`parse_move` leaves it), so a
    closing word is found as itself between two spaces, and it always has a word before
    and after it.  The patterns stay the definition: a test reads texts both ways.
    """
    verbs, first, openers, second = _READ_BY_WORDS[kind]
    low = clean.lower()
    at, verb = _first_of(low, verbs, 0)
    if at < 0:
        return None
    parts = {"card": clean[:at], "target": "", "detail": "", "then": ""}
    start = at + len(verb)
    end, word = _first_of(low, (*openers, " then "), start)
    parts[first] = clean[start:end] if end >= 0 else clean[start:]
    if end >= 0 and word != " then ":
        start = end + len(word)
        end, word = _first_of(low, (" then ",), start)
        parts[second] = clean[start:end] if end >= 0 else clean[start:]
    if end >= 0:
        parts["then"] = clean[end + len(word):]
    return parts["card"], parts["target"], parts["detail"], parts["then"]


def _first_of(low: str, words: tuple[str, ...], start: int) -> tuple[int, str]:
    """Return where in ``low``, from ``start``, the first of ``words`` is, and which it is ((-1, "") if none is)."""
    found, which = -1, ""
    for word in words:
        at = low.find(word, start)
        if at >= 0 and (found < 0 or at < found):
            found, which = at, word
    return found, which


def form_of(text: str) -> re.Match | None:
    """Return the match of the first move form ``text`` (a move's ``source``) takes: its named parts and their spans."""
    return next((m for _, pattern in _PATTERNS if (m := re.match(pattern, text, re.I))), None)


def _build(kind: str, m: re.Match, source: str) -> Move:
    g = m.groupdict("")
    if kind in _NAMES_ONLY:     # (most texts, asked first; a part its form lacks is ""; map: no Python loop)
        return Move(kind, *map(str.strip, map(g.get, _NAME_PARTS, _NO_PARTS)), 0, "", source)
    if kind == "draw":
        n = g.get("n") or "1"
        return Move("draw", amount=int(_WORDS.get(n.lower(), n)), source=source)
    if kind == "adjust":
        reason = (g.get("reason") or "").strip()
        if not reason:
            raise NotationError("an adjustment needs a reason after a colon",
                                hint="for example: adjust Ben CP -10: the Sentry's Void")
        return Move("adjust", card=g["who"].strip(), detail=g["field"].lower(),
                    amount=int(g["amount"].replace(" ", "")), text=reason, source=source)
    if kind == "decide":
        return Move("decide", detail=g["detail"].lower(), source=source)
    place = (g.get("place") or "").lower().replace("play", "field")     # (discard: the last form)
    return Move("discard", card=g["card"].strip(), detail=place, source=source)
