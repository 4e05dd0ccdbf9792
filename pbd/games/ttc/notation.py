"""Twin Tower City move notation, as players write it in chat.

::

    flip
    play battle 17                      (also: play 17)
    play army 104 replacing Blamtifa Thug with Doctor Sickle, Rot Baron with Iron Regent
    play warrior 203 replacing Don Triumph
    nullify X22 Missile
"""

from __future__ import annotations

import re

from pbd.errors import NotationError
from pbd.record import Record
from pbd.regex import pattern
from pbd.words import notation_hint

EXAMPLES = ('flip · play battle 17 · play army 104 replacing Blamtifa Thug with Doctor Sickle · '
            'play warrior 203 replacing Don Triumph · nullify X22 Missile')

PLAY_RE = pattern(r"^play\s+(?:(?P<kind>battle|army|warrior)\s+)?(?:card\s+)?#?(?P<id>\d+)"
                     r"(?:\s+(?:replacing|replaces|replace)\s+(?P<swaps>.+))?$", re.IGNORECASE)
#: the words of the move forms, for "did you mean" (a misspelt ``plya`` or ``replacng``)
MOVE_WORDS = ("flip", "play", "battle", "army", "warrior", "card", "replacing", "with", "nullify")
SWAP_RE = pattern(r"^(?P<old>.+?)\s+(?:with|by|->|→)\s+(?P<new>.+)$", re.IGNORECASE)


class Move(Record):
    """One parsed move (a record, not a dataclass: a move is the only command that parses one, and
    :mod:`dataclasses` with the class it writes cost it about 4M instructions)."""

    FIELDS = ("verb", "kind", "card", "swaps", "replacing", "item")

    def __init__(self, verb: str, kind: str | None = None, card: int | None = None,
                 swaps: list[tuple[str, str]] | None = None, replacing: list[str] | None = None, item: str = ""):
        self.verb = verb                                    # flip | play | nullify
        self.kind = kind                                    # play: battle | army | warrior (None: look it up)
        self.card = card
        self.swaps = [] if swaps is None else swaps         # army: (old, new)
        self.replacing = [] if replacing is None else replacing     # warrior: [old]
        self.item = item


def split(notation: str) -> list[str]:
    """Return the moves of a ``;``-joined notation, stripped, empty ones dropped."""
    return [m.strip() for m in notation.split(";") if m.strip()]


def parse(text: str) -> Move:
    """Return the move ``text`` describes.

    :raises NotationError: it is not a move pbd can read (the shapes are in the hint).
    """
    words = " ".join(text.split())
    low = words.casefold()
    if low in ("flip", "flip cards", "flip pair"):
        return Move("flip")
    if low.startswith("nullify "):
        return Move("nullify", item=words[8:].strip())
    m = PLAY_RE.match(words)
    if not m:
        raise NotationError(f"cannot read the move {text!r}", hint=notation_hint(words, MOVE_WORDS, EXAMPLES))
    kind = m.group("kind").lower() if m.group("kind") else None
    move = Move("play", kind, int(m.group("id")))
    raw = m.group("swaps")
    if raw:
        parts = [p.strip() for p in re.split(r",|;|\band\b", raw, flags=re.IGNORECASE) if p.strip()]
        for part in parts:
            sm = SWAP_RE.match(part)
            if sm:
                move.swaps.append((sm.group("old").strip(), sm.group("new").strip()))
            else:
                move.replacing.append(part)
        if move.swaps and move.replacing:
            raise NotationError(f"cannot read {raw!r}: write 'replacing X with Y, X with Y' (Army Card) or "
                                "'replacing X' (Warrior Card)")
    return move
