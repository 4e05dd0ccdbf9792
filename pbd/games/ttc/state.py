"""The Twin Tower City match state: plain dataclasses, no rules and no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbd.games.base import Meta
from pbd.table.deck import SharedDeck

SIDES = ("light", "dark")
ROUNDS = 5
#: Cards each side plays in a round after its face-down card (card 2 and card 3).
PLAYS_PER_SIDE = 2
#: Battle positions: Light's round cards 1-5 and hand 6-13, Dark's round cards 14-18 and hand 19-26.
BATTLE_DEALT = 26
HAND_BATTLE = 8
#: Piles: name -> (kind, side, cards dealt to the side).
PILES = {"battle": ("battle", None, 13), "light-army": ("army", "light", 3), "light-warrior": ("warrior", "light", 1),
         "dark-army": ("army", "dark", 3), "dark-warrior": ("warrior", "dark", 1)}


def other(side: str) -> str:
    """Return the opposing side."""
    return "dark" if side == "light" else "light"


@dataclass
class Options:
    """The rulebook's variations chosen at ``new``, and team size."""

    face_up: bool = False
    open_hands: bool = False
    environments: bool = True
    bonuses: bool = True
    team: int = 1

    def words(self) -> list[str]:
        """Return the options as the words ``-O`` takes (empty for the standard game)."""
        out = []
        if self.face_up:
            out.append("face-up")
        if self.open_hands:
            out.append("open-hands")
        if not self.bonuses:
            out.append("no-bonuses")
        elif not self.environments:
            out.append("no-environments")
        if self.team != 1:
            out.append(f"team={self.team}")
        return out


@dataclass
class Play:
    """One card played in a round.

    A Battle Card carries its four halves and environment; an Army or Warrior Card
    carries ``swaps``: (warrior replaced, warrior brought in).
    """

    side: str
    kind: str
    card: int | None = None
    player: str = ""
    dark_warrior: str = ""
    dark_item: str = ""
    light_warrior: str = ""
    light_item: str = ""
    environment: str = ""
    swaps: list[tuple[str, str]] = field(default_factory=list)

    def label(self) -> str:
        """Return how the breakdown names this card: ``battle 17`` (or ``battle`` by hand)."""
        return f"{self.kind} {self.card}" if self.card is not None else f"{self.side.capitalize()}'s {self.kind}"


@dataclass
class Round:
    """One of the five rounds: the cards played in order and the items nullified by choice."""

    number: int
    plays: list[Play] = field(default_factory=list)
    nullified: dict[str, list[str]] = field(default_factory=lambda: {"light": [], "dark": []})


@dataclass
class Seat:
    """A player and the side they play."""

    name: str
    side: str


@dataclass
class State:
    """A whole match: seats, options, the deal, the five rounds and the document frame."""

    meta: Meta
    deck_name: str = "sample"
    fingerprint: str = ""
    options: Options = field(default_factory=Options)
    seats: list[Seat] = field(default_factory=list)
    first: str = "light"             # side that plays card 2 first in round 1, or "random"
    deck: SharedDeck | None = None   # the shared deck (pbd.table), once the match is started
    rounds: list[Round] = field(default_factory=lambda: [Round(n) for n in range(1, ROUNDS + 1)])
    catalogue: str = ""              # hand-made boards: the catalogue named on the board
    #: Private, never rendered: decrypted hands and seeds of the players whose secrets we hold
    #: (a seed of None: replaying the log symbolically), and the loaded deck or catalogue.
    hands: dict[str, list[int]] = field(default_factory=dict, compare=False, repr=False)
    seeds: dict[str, bytes | None] = field(default_factory=dict, compare=False, repr=False)
    library: Any = field(default=None, compare=False, repr=False)
