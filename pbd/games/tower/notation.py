"""The Tower's moves, written the way players write them (any case, ``;`` between moves).

``draw`` · ``play Rope on 17`` (also ``place Rope on 17``, ``Rope on 17``) · ``roll`` ·
``discard Guard`` · ``stay`` (a turn held by a Spider Web) · ``play Sword`` /
``play Shield`` · ``pass`` (answers to a pending decision).
"""

from __future__ import annotations


from pbd.errors import NotationError, UnknownNameError
from pbd.games.tower.data import kind_named
from pbd.games.tower.state import KINDS
from pbd.record import Record
from pbd.regex import pattern

EXAMPLES = "draw; play Rope on 17; roll · discard Guard · stay · play Shield · pass"
VERBS = ("draw", "roll", "stay", "pass", "play", "discard")
PLAY_RE = pattern(r"^(?:(?:play|place|put)\s+)?(?P<card>[a-z][a-z \-_]*?)\s+(?:on|at)\s+(?:tile\s+)?(?P<tile>\d{1,4})$")
MAX_MOVES = 12
#: a defender's answer playing both cards asked for at once (``play Shield and Sword``, either order)
BOTH_RE = pattern(r"^play\s+(?:shield\s+(?:and|&|\+)\s+sword|sword\s+(?:and|&|\+)\s+shield)$")


class Move(Record):
    """One parsed move: ``verb`` and, where it takes them, a card kind and a tile."""

    verb: str
    card: str | None
    tile: int | None
    source: str

    FIELDS = ("verb", "card", "tile", "source")

    def __init__(self, verb: str, card: str | None = None, tile: int | None = None, source: str = ""):
        self.verb = verb
        self.card = card
        self.tile = tile
        self.source = source


def split(text: str) -> list[str]:
    """Return the moves of ``text`` (separated by ``;``), without blanks."""
    return [m.strip() for m in text.split(";") if m.strip()]


def card(name: str) -> str:
    """Return the card kind ``name`` names.

    :raises UnknownNameError: no such card (close names suggested).
    """
    kind = kind_named(name)
    if kind is None:
        import difflib      # only to suggest a name for one that matches none
        raise UnknownNameError("card", name.strip(), difflib.get_close_matches(name.strip().title(), KINDS, n=2))
    return kind


def parse(text: str) -> Move:
    """Return the move ``text`` describes.

    :raises NotationError: the move cannot be read.
    """
    raw = " ".join(text.split())
    low = raw.lower()
    if low in ("draw", "roll", "stay", "pass"):
        return Move(low, source=raw)
    if low in ("wait", "skip"):
        return Move("stay", source=raw)
    if m := PLAY_RE.match(low):
        return Move("play", card(m.group("card")), int(m.group("tile")), raw)
    if m := BOTH_RE.match(low):
        return Move("play", "Shield+Sword", source=raw)
    words = low.split(" ", 1)
    if words[0] in ("play", "discard") and len(words) == 2:
        return Move(words[0], card(words[1]), source=raw)
    if words[0] in ("play", "place", "discard"):
        raise NotationError(f"say which card: '{words[0]} Rope on 17'" if words[0] != "discard"
                            else "say which card: 'discard Guard'")
    import difflib      # only to suggest a name for one that matches none
    close = difflib.get_close_matches(words[0], VERBS, n=1)
    raise NotationError(f"cannot read the move {raw[:60]!r}",
                        hint=(f"did you mean {close[0]!r}? " if close else "") + f"moves look like: {EXAMPLES}")


def parse_all(text: str) -> list[Move]:
    """Return every move of ``text``.

    :raises NotationError: no move, too many, or one cannot be read.
    """
    moves = split(text)
    if not moves:
        raise NotationError("no move given", hint=f"moves look like: {EXAMPLES}")
    if len(moves) > MAX_MOVES:
        raise NotationError(f"at most {MAX_MOVES} moves in one command")
    return [parse(m) for m in moves]
