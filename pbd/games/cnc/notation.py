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
from pbd.record import FrozenRecord, _setattr
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
        # (FrozenRecord._set's work without its call or a dict of keywords: the parser builds a Move for every text)
        _setattr(self, "__dict__", {"kind": kind, "card": card, "target": target, "detail": detail, "then": then,
                                    "amount": amount, "text": text, "source": source})


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


#: the moves of each text :func:`parse_moves` read (a plain dict: ``READ.get(text)`` is how the engine asks first)
READ: dict[str, tuple[Move, ...]] = {}
_READ_MOST = 4096


def parse_moves(text: str) -> tuple[Move, ...]:
    """Return the moves in ``text`` (joined by ';' or new lines), in order.

    Kept per text in :data:`READ`, as :func:`parse_move` keeps its own (a bot or a replay
    plays the same texts again and again: the engine finds a repeated text without a call).

    :raises NotationError: a move matches no known form; the examples are listed.
    """
    moves = READ.get(text)
    if moves is not None:
        return moves
    if ";" not in text and "\n" not in text:      # the common case: one move (read here: no call more)
        one = text.strip()
        moves = (_read(one),) if one else ()    # (not kept by parse_move too: READ keeps the text)
    else:
        parts = [p.strip() for p in text.replace("\n", ";").split(";")]
        moves = tuple(map(parse_move, [p for p in parts if p]))
    if not moves:
        raise NotationError("no move given", hint="for example: " + "; ".join(EXAMPLES[:3]))
    if len(READ) >= _READ_MOST:
        READ.clear()
    READ[text] = moves
    return moves


def forget() -> None:
    """Forget every text read so far (the engine benchmark reads its moves anew in each pass)."""
    READ.clear()
    parse_move.cache_clear()


@lru_cache(maxsize=4096)
def parse_move(text: str) -> Move:
    """Return the one move written in ``text`` (a :class:`Move` is immutable, so a repeated text is read once).

    :raises NotationError: it matches no known form.
    """
    return _read(text)


def _read(text: str) -> Move:
    """Return the one move written in ``text`` (:func:`parse_move`, not kept).

    Most texts (play, withdraw, discard, an attack, a use) are read by their words, a fast
    path: reading a text with ``str.find`` and small searches costs a fraction of trying
    the regular expressions.  There ``clean`` is ASCII, its words joined by single spaces
    with none around them: every word of a form is found as itself between two spaces,
    compared as the pattern's ``re.I`` compares an ASCII word, and each part of the text
    has a word.  A text of one word, a text whose first word starts another form (draw,
    end, adjust, accept), a text whose verb is not a word of its own, and anything
    unusual go to the patterns.  The patterns stay the definition: a test reads texts both
    ways.

    :raises NotationError: it matches no known form.
    """
    clean = " ".join((text.replace("’", "'") if "’" in text else text).split())    # (most: no replace call)
    if clean[-1:] in ".!":      # ("" too: rstrip's answer without its call for most texts)
        clean = clean.rstrip(".!")
    low = clean.lower()
    whole = _WHOLE.get(low)         # (draw, end turn: a command's one move, read without compiling a pattern)
    if whole is not None:
        return Move(whole[0], "", "", "", "", whole[1], "", clean)
    space = clean.find(" ")
    if space > 0 and clean.isascii() and clean[-1] != " ":     # ("x ." leaves a space at the end)
        read = _READ_FIRST.get(low[:space], _named_first)     # (None: a form read by its pattern)
        if read and (move := read(clean, low, space)) is not None:
            return move
    for kind, pattern in _forms(clean):
        m = pattern.match(clean)
        if m:
            return _build(kind, m, clean)
    if m := re.match(r"^(?P<who>.+?)\s+attacks?$", clean, re.I):
        raise NotationError(f"say whom {m.group('who')} attacks",
                            hint=f"for example: {m.group('who')} attacks NAME, or {m.group('who')} attacks city")
    from pbd.words import notation_hint     # only for a move that cannot be read

    raise NotationError(f"cannot read the move {text.strip()!r}",
                        hint=notation_hint(clean, MOVE_WORDS, " | ".join(EXAMPLES)))


#: whole texts (lower-cased) read without their patterns: the kind and amount the pattern gives them
_WHOLE = {"draw": ("draw", 1), "draw a card": ("draw", 1), "draw 1": ("draw", 1),
          **dict.fromkeys(("end", "end turn", "end my turn", "end of turn", "end of my turn", "pass", "done"),
                          ("end", 0))}


def _words(*words: str) -> LazyPattern:
    """Return a pattern that finds the first of ``words`` (lower-case regular expressions) between two spaces."""
    return LazyPattern(f" (?:{'|'.join(words)}) ")


#: the words that end a played card's name (the target follows)
_PLAY_TARGET = _words("on", "at", "against", "targeting")


def _play(clean: str, low: str, space: int) -> Move:
    """Read ``play CARD [on TARGET]``: the card ends at the first of the target's opening words."""
    m = _PLAY_TARGET.search(low, space + 1)
    if m is None:
        return Move("play", clean[space + 1:], "", "", "", 0, "", clean)
    return Move("play", clean[space + 1:m.start()], clean[m.end():], "", "", 0, "", clean)


def _withdraw(clean: str, low: str, space: int) -> Move:
    """Read ``withdraw CARD [to [my] hand]``: the card is the rest of the text but those words ending it."""
    head, _, tail = low.rpartition(" to ")
    end = len(head) if tail in ("hand", "my hand") and len(head) > space else len(clean)
    return Move("withdraw", clean[space + 1:end], "", "", "", 0, "", clean)


#: the words that may end a discard after ``from``, and the place each names
_PLACES = {f"{whose}{word}": ("field" if word == "play" else word)
           for whose in ("", "my ", "the ") for word in ("hand", "field", "play")}


def _discard(clean: str, low: str, space: int) -> Move:
    """Read ``discard CARD [from [my|the] hand|field|play]``: the card is the rest of the text but those words."""
    head, _, tail = low.rpartition(" from ")
    place = _PLACES.get(tail, "") if len(head) > space else ""
    end = len(head) if place else len(clean)
    return Move("discard", clean[space + 1:end], "", place, "", 0, "", clean)


#: the forms that start with a card name, read by their words (see :func:`_named_first`): the words that end
#: the card's name, the part after them (the other part is the optional one), the words that end that part
#: (the optional part's opening words and ``then``)
_READ_BY_WORDS = {"use": (_words("uses"), "detail", _words("on", "at", "against", "then")),
                  "attack": (_words("attacks?"), "target", _words("with", "then"))}


def _named_first(clean: str, low: str, space: int) -> Move | None:
    """Read an attack or a use (the forms that start with a card name); None if its verb is not a word in it.

    The pattern's parts are lazy (``.+?``), so each part ends at the first of its closing
    words; ``then`` closes the optional part, or the first part when there is none.
    """
    kind = "use" if "uses" in low else "attack"     # (the use form is tried first; reading it fails as it does)
    verb, first, closing = _READ_BY_WORDS[kind]
    m = verb.search(low)
    if m is None:
        return None
    stop, start = m.span()              # (one call for both ends)
    card = clean[:stop]
    m = closing.search(low, start)
    if m is None:
        one, two, then = clean[start:], "", ""
    elif low.startswith(" then ", (span := m.span())[0]):
        one, two, then = clean[start:span[0]], "", clean[span[1]:]
    else:                               # an opening word: the optional part follows, maybe then ``then``
        one, start = clean[start:span[0]], span[1]
        end = low.find(" then ", start)
        two, then = (clean[start:end], clean[end + 6:]) if end >= 0 else (clean[start:], "")
    target, detail = (one, two) if first == "target" else (two, one)
    return Move(kind, card, target, detail, then, 0, "", clean)


#: the reader of each fixed first word (None: its form is read by its pattern)
_READ_FIRST = {**{word: None for words in _FIRST_WORDS.values() for word in words},
               **dict.fromkeys(("play", "cast", "put"), _play), **dict.fromkeys(("withdraw", "return"), _withdraw),
               "discard": _discard}


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
