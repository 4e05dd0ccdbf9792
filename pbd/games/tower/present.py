"""The Tower for the player's eyes: a hand card in one line (``pbd hand``).

Pure: the card's kind and pbd's reading of its effect in a few words (the rulebook's own
words are ``pbd card NAME``; the readings are the README's).
"""

from __future__ import annotations

#: What each card does, in pbd's reading, shortest first (a tile card acts on any token that stops on it).
SUMMARY = {
    "Torch": "tile card · a token that stops here moves on to the next tile (and on, over more torches)",
    "Guard": "tile card · a token that stops here goes back one tile (and on); a Shield stops it",
    "Rope": "tile card · a token that stops here climbs to the tile above (and on, up more ropes)",
    "Trapdoor": "tile card · a token that stops here falls to the tile below (and on)",
    "Magic Carpet": "tile card · a token that stops here rolls again and moves on",
    "Spider Web": "tile card · a token that stops here misses its next turn; a Sword cuts it",
    "Arcane Trap": "tile card · roll: 6 to the next Arcane Trap, 1-2 to the previous one (Shield: only 1)",
    "Sword": "hand card · an extra die in a duel, or cut yourself free of a Spider Web",
    "Shield": "hand card · stops a duel's Sword, a Guard, or an Arcane Trap's 2",
}


def card_line(card: str) -> str:
    """Return a hand card in one line: ``Rope — tile card · a token that stops here climbs ...``."""
    summary = SUMMARY.get(card)
    return f"{card} — {summary}" if summary else card
