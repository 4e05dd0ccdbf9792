"""2Xd6 moves as players write them (case-insensitive), and card names resolved against a hand.

::

    roll                               Scene 1 (also: the order-of-acts roll, and a resisting roll)
    play Q on A1 · play 7 Gold on A2   Scene 2/3 (a card by id, rank, or rank and colour)
    recycle 3                          1 point; opens a replacement draw
    replace                            draw an open replacement card
    advance A1 to B2 [with Q]          the chain of A1 moves so that A1 lands on B2
    target B5 from B3 with 12*5+7      the Tc as a calculation over power numbers
    target B5 from B3 · resist with 7*8+4 · withdraw
                                       -O rc=stated: announce, the defender states the Rc, then the Tc
    give Q to Ben · show hand          pay a hand-over or a toll; or prove you hold no such card
    draw · draw; offer                 Scene 4 (offer: put the drawn card up for trade)
    offer 7 · pass · accept · reject   answers to a trade
"""

from __future__ import annotations

import re

from pbd.errors import AmbiguousNameError, NotationError, UnknownNameError
from pbd.games.twoxd6.deck import ALIASES, COLOURS, RANK_ALIASES, Card
from pbd.record import Record

EXAMPLES = "roll · play Q on A1 · advance A1 to B2 · target B5 from B3 with 12*5+7 · give 7 to Ben · draw; offer"


class Move(Record):
    """A parsed move: the verb and its parts (raw card text, cells, rank, calculation, player)."""

    verb: str
    card: str
    cell: str
    cell2: str
    rank: str
    expr: str
    name: str

    FIELDS = ("verb", "card", "cell", "cell2", "rank", "expr", "name")

    def __init__(self, verb: str, card: str = "", cell: str = "", cell2: str = "", rank: str = "", expr: str = "",
                 name: str = ""):
        self.verb = verb
        self.card = card
        self.cell = cell
        self.cell2 = cell2
        self.rank = rank
        self.expr = expr
        self.name = name


PATTERNS = [
    ("roll", r"roll(?: 2x?d6)?"),
    ("play", r"play\s+(?P<card>.+?)\s+(?:on|onto|into|in|to|at)\s+(?P<cell>[a-z]\d{1,2})"),
    ("recycle", r"recycle\s+(?P<card>.+)"),
    ("replace", r"(?:replace|draw (?:a )?replacement)"),
    ("advance", r"advance\s+(?P<cell>[a-z]\d{1,2})\s+(?:to|->|→)\s+(?P<cell2>[a-z]\d{1,2})"
                r"(?:\s+(?:with|by|using)\s+(?P<rank>\S+))?"),
    ("target", r"target\s+(?P<cell2>[a-z]\d{1,2})\s+from\s+(?P<cell>[a-z]\d{1,2})(?:\s+(?:with|tc|using)\s+(?P<expr>.+))?"),
    ("resist", r"(?:resist\s+with|rc)\s+(?P<expr>.+)"),
    ("withdraw", r"withdraw(?: the targeting)?"),
    ("give", r"(?:give|hand over|hand)\s+(?P<card>.+?)\s+to\s+(?P<name>.+)"),
    ("show", r"show(?: my)? hand"),
    ("draw-offer", r"draw\s*(?:;|and|,)\s*offer(?: it)?(?: for trade)?"),
    ("draw", r"draw|end (?:act|turn|scene)"),
    ("offer", r"offer\s+(?P<card>.+)"),
    ("pass", r"pass"),
    ("accept", r"accept"),
    ("reject", r"reject"),
]


def split(text: str) -> list[str]:
    """Return the moves of ``text`` (joined by ';'), keeping ``draw; offer`` together."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    out: list[str] = []
    for p in parts:
        if out and out[-1].lower() == "draw" and re.fullmatch(r"offer(?: it)?(?: for trade)?", p, re.I):
            out[-1] = "draw; offer"
        else:
            out.append(p)
    return out


def parse(text: str) -> Move:
    """Return the move ``text`` describes.

    :raises NotationError: it matches no move pattern.
    """
    bare = " ".join(text.split())
    for verb, pattern in PATTERNS:
        m = re.fullmatch(pattern, bare, re.IGNORECASE)
        if m:
            g = {k: (v or "") for k, v in m.groupdict().items()}
            return Move(verb, g.get("card", "").strip(), g.get("cell", "").upper(), g.get("cell2", "").upper(),
                        g.get("rank", "").strip(), g.get("expr", "").strip(), g.get("name", "").strip())
    word = bare.split(" ")[0].lower() if bare else ""
    import difflib      # only to suggest a name for one that matches none
    close = difflib.get_close_matches(word, [v.split("-")[0] for v, _ in PATTERNS], n=1)
    hint = f"did you mean '{close[0]}'? moves look like: {EXAMPLES}" if close else f"moves look like: {EXAMPLES}"
    raise NotationError(f"cannot read the move {bare!r}", hint=hint)


def rank_of(text: str) -> str | None:
    """Return the rank a word names (``q``, ``12`` -> ``Q``), or None."""
    t = text.strip().upper()
    t = RANK_ALIASES.get(t, t)
    return t if t in {str(n) for n in range(2, 11)} | {"J", "Q", "K", "A", "?"} else None


def colour_of(text: str) -> str | None:
    """Return the colour a word or initial names (``gold``, ``yellow``, ``g``), or None."""
    t = text.strip().lower()
    if t in ALIASES:
        return ALIASES[t]
    return next((c for c in COLOURS if c.lower() == t or c[0].lower() == t), None)


def resolve(text: str, hand: list[Card]) -> Card:
    """Return the card of ``hand`` that ``text`` names: an id (``QO``), a rank, or rank and colour.

    :raises UnknownNameError: no card matches.
    :raises AmbiguousNameError: several cards of different ids match.
    """
    t = text.strip()
    for c in hand:
        if c.id.casefold() == t.casefold():
            return c
    m = re.fullmatch(r"(10|1[1-5]|[2-9]|[jqka?])\s*(?:of\s+)?([a-z]*)", t, re.IGNORECASE)
    if m:
        rank, colour = rank_of(m.group(1)), colour_of(m.group(2)) if m.group(2) else None
        found = [c for c in hand if c.rank == rank and (colour is None or c.core == colour)]
        if len({c.id for c in found}) == 1:
            return found[0]
        if found:
            raise AmbiguousNameError("card", text, sorted({c.id for c in found}))
    import difflib      # only to suggest a name for one that matches none
    raise UnknownNameError("card in your hand", text, difflib.get_close_matches(t, [c.id for c in hand], n=3))
