"""2Xd6 dice: one helper over ``chance.roll`` for dice with any faces; pairs double.

Scene 1 rolls one Sicherman high die (faces 1, 3, 4, 5, 6, 8) and one standard die; a
Targeting roll-off rolls two standard dice a side (Onyx for the acting player, Wyte for the
resisting one).  Both dice showing the same face is a pair: the sum is doubled (so at most
(6+6)*2 = 24 acting points).
"""

from __future__ import annotations

from pbd.record import FrozenRecord

SICHERMAN_HIGH = (1, 3, 4, 5, 6, 8)
STANDARD = (1, 2, 3, 4, 5, 6)


class Roll(FrozenRecord):
    """Two dice: their faces, whether they pair, and the total (doubled on a pair)."""

    faces: tuple[int, int]

    FIELDS = ("faces",)

    def __init__(self, faces: tuple[int, int]):
        self._set(faces=faces)

    @property
    def pair(self) -> bool:
        """True when both dice show the same face."""
        return self.faces[0] == self.faces[1]

    @property
    def total(self) -> int:
        """The sum of the faces, doubled on a pair."""
        return sum(self.faces) * (2 if self.pair else 1)

    def text(self) -> str:
        """Return the roll as the log writes it: ``4+4 pair = 16``."""
        return f"{self.faces[0]}+{self.faces[1]}{' pair' if self.pair else ''} = {self.total}"


def die(chance, seat: str, faces: tuple[int, ...], purpose: str = "", after: int | None = None) -> int:
    """Roll one die with ``faces`` for ``seat`` through ``chance.roll`` (logged with the next entry).

    ``purpose`` is the word the log gives the roll (a lower-case word: ``high``, ``onyx``).  ``after``:
    the log entry of the choice the die follows; it is rolled with ``chance.roll_after``, which
    refuses it until another seat published a chain value after that entry.
    """
    if after is not None:
        return chance.roll_after(seat, after, len(faces), faces=faces, purpose=purpose)
    return chance.roll(seat, len(faces), faces=faces, purpose=purpose)


def act(chance, seat: str) -> Roll:
    """Return a Scene 1 roll: the Sicherman high die and a standard die."""
    return Roll((die(chance, seat, SICHERMAN_HIGH, "high"), die(chance, seat, STANDARD, "standard")))


def resist(chance, seat: str, colour: str, after: int | None = None) -> Roll:
    """Return a roll-off roll: two standard dice (``colour`` names them in the log: Onyx, Wyte).

    ``after``: the entry of the choice the roll follows (see :func:`die`).
    """
    word = colour.lower()
    return Roll((die(chance, seat, STANDARD, word, after), die(chance, seat, STANDARD, word, after)))
