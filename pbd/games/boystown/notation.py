"""Boys' Town move notation, as players write it in chat (case-insensitive)::

    draw · keep · redraw
    build Corner Shop · done                      (done: no more extra builds)
    attack Ben with Street Fighter from hand · attack Cy with Old Mill from town
    attack Ben from hand                          (as the log writes it: the card stays face down)
    defend with Bouncer
    flip                                          (the attacker turns their face-down card)
    swap Getaway Driver with Old Mill · use Bodyguard · pass      (after the flip)
    use Paperboy on Ben · use Rusty Bike · swap Graffiti Artist with Old Mill   (Hand effects)
    adjust Old Mill TP +1: Handyman               (a text the vocabulary cannot express)

Several moves are joined with ';'.  Names are resolved later, against the board.
"""

from __future__ import annotations

import re

from pbd.errors import NotationError
from pbd.record import FrozenRecord
from pbd.regex import pattern
from pbd.words import notation_hint

EXAMPLES = ("draw", "keep", "redraw", "build Corner Shop", "done", "attack Ben with Street Fighter from hand",
            "attack Cy with Old Mill from town", "defend with Bouncer", "flip", "swap Getaway Driver with Old Mill",
            "use Bodyguard", "use Paperboy on Ben", "pass", "adjust Old Mill TP +1: Handyman")

#: the words of the move forms, for "did you mean" (a misspelt ``atack`` or ``defnd``)
MOVE_WORDS = ("draw", "keep", "redraw", "build", "place", "done", "flip", "pass", "attack", "with", "from",
              "hand", "town", "defend", "swap", "use", "adjust")


class Move(FrozenRecord):
    """One move: ``kind`` plus the names it mentions."""

    kind: str                 # draw keep redraw build done attack defend flip swap use pass adjust
    card: str
    target: str               # attack: the player; swap: the Resident; use: the player
    source: str               # attack: hand | town | "" (find it)
    field: str                # adjust: ap | tp
    amount: int
    text: str                 # adjust: the reason

    FIELDS = ("kind", "card", "target", "source", "field", "amount", "text")

    def __init__(self, kind: str, card: str = "", target: str = "", source: str = "", field: str = "", amount: int = 0,
                 text: str = ""):
        self._set(kind=kind, card=card, target=target, source=source, field=field, amount=amount, text=text)


_PATTERNS = [
    ("draw", pattern(r"^draw(?:\s+(?:a|1|one)(?:\s+card)?)?$", re.I)),
    ("keep", pattern(r"^keep(?:\s+it)?$", re.I)),
    ("redraw", pattern(r"^(?:redraw|re-draw|discard\s+it|draw\s+again)$", re.I)),
    ("done", pattern(r"^(?:done|stop(?:\s+building)?|no\s+more\s+builds?|end\s+build(?:ing)?)$", re.I)),
    ("flip", pattern(r"^flip(?:\s+(?:my\s+)?card)?$", re.I)),
    ("pass", pattern(r"^pass$", re.I)),
    ("build", pattern(r"^(?:build|place)\s+(?P<card>.+)$", re.I)),
    ("attack", pattern(r"^attack\s+(?P<target>.+?)\s+with\s+(?P<card>.+?)"
                       r"(?:\s+from\s+(?:my\s+|the\s+)?(?P<source>hand|town))?$", re.I)),
    ("attack", pattern(r"^attack\s+(?P<target>.+?)\s+from\s+(?:my\s+|the\s+)?(?P<source>hand)$", re.I)),
    ("defend", pattern(r"^defend(?:\s+with)?\s+(?P<card>.+)$", re.I)),
    ("swap", pattern(r"^swap\s+(?P<card>.+?)\s+(?:with|for)\s+(?P<target>.+)$", re.I)),
    ("use", pattern(r"^use\s+(?P<card>.+?)(?:\s+on\s+(?P<target>.+))?$", re.I)),
    ("adjust", pattern(r"^adjust\s+(?P<card>.+?)\s+(?P<field>ap|tp)\s*(?P<amount>[+-]\s*\d+)\s*"
                       r"(?::\s*(?P<text>.*))?$", re.I)),
]


def split(notation: str) -> list[str]:
    """Return the moves of a ``;``-joined notation, stripped, empty ones dropped."""
    return [m.strip() for m in notation.split(";") if m.strip()]


def parse(text: str) -> Move:
    """Return the move ``text`` describes.

    :raises NotationError: not a move pbd can read (the shapes are in the hint).
    """
    words = " ".join(text.replace("’", "'").split())
    for kind, regex in _PATTERNS:
        m = regex.match(words)
        if not m:
            continue
        g = {k: (v or "").strip() for k, v in m.groupdict().items()}
        amount = int(g.get("amount", "0").replace(" ", "") or 0)
        if kind == "adjust" and not -20 <= amount <= 20:
            raise NotationError(f"adjust by -20..+20, not {amount}")
        return Move(kind, g.get("card", ""), g.get("target", ""), g.get("source", "").lower(),
                    g.get("field", "").lower(), amount, g.get("text", "")[:120])
    raise NotationError(f"cannot read the move {text!r}", hint=notation_hint(words, MOVE_WORDS, " · ".join(EXAMPLES)))
