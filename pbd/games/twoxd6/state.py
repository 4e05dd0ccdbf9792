"""The 2Xd6 match state: plain dataclasses, no rules and no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbd.games.base import Meta
from pbd.games.twoxd6.grid import Board


@dataclass
class Options:
    """Choices made at ``pbd new`` (``-O``): players, board, the Mod, house rules."""

    players: int = 2
    board: str = "standard"
    decks: int = 1                 # the Mod: one deck per two players
    adjacency: int = 4             # 4: cells sharing a side; 8: corners too
    first_round_one: bool = False  # house rule: a first-round "1 card" means any Pip costing 1 (none in the deck)

    def words(self) -> list[str]:
        """Return the non-default options as ``-O`` words."""
        out = []
        if self.board != "standard":
            out.append(f"board={self.board}")
        if self.decks != 1:
            out.append(f"decks={self.decks}")
        if self.adjacency != 4:
            out.append(f"adjacency={self.adjacency}")
        return out


@dataclass
class Decision:
    """A pending decision: ``seat`` owes one of ``answers`` (TABLE_API.md); ``origin`` is its log entry."""

    seat: str
    prompt: str
    answers: list[str]
    origin: int


@dataclass
class Stack:
    """The cards in one cell, bottom first, and whose they are."""

    owner: str
    cards: list[str]


@dataclass
class Owe:
    """A card ``giver`` must hand to ``receiver``: kind ``face`` (a Face or a 10) or ``pip``."""

    giver: str
    receiver: str
    kind: str


@dataclass
class Targeting:
    """A targeting waiting for the resisting player's roll."""

    attacker: str
    source: str
    target: str
    defender: str
    tc: int
    tc_text: str
    rc: int
    rc_text: str
    roll: tuple[int, int]


@dataclass
class Trade:
    """A Scene 4 card offered for trade: the offering player, the card's slot, offers so far."""

    seat: str
    slot: int
    offers: dict[str, str] = field(default_factory=dict)   # seat -> card offered, or "pass"


@dataclass
class Act:
    """Where the current act stands."""

    round: int = 1
    turn: int = 0                  # index into State.order
    scene: str = "roll"            # roll | main
    points: int = 0
    roll: tuple[int, int] | None = None
    played: int = 0
    recycled: int = 0
    replaced: int = 0
    advanced: bool = False
    tolls: list[str] = field(default_factory=list)  # players paid a toll this act


@dataclass
class State:
    """A whole match: seats and order, the board's cells, hands' shown cards, the act, pending work."""

    meta: Meta
    options: Options = field(default_factory=Options)
    deck_name: str = "standard"
    board: Board | None = None
    seats: list[str] = field(default_factory=list)          # join order
    order_rolls: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)          # order of acts once decided (Player 1 first)
    phase: str = "joining"                                  # joining | dealing | order | act | over
    act: Act = field(default_factory=Act)
    cells: dict[str, Stack] = field(default_factory=dict)
    shown: dict[str, list[str]] = field(default_factory=dict)   # face-up cards in each hand
    cold: dict[str, list[int]] = field(default_factory=dict)    # cold-comfort slots in each hand
    owed: list[Owe] = field(default_factory=list)
    targeting: Targeting | None = None
    trade: Trade | None = None
    decisions: list[Decision] = field(default_factory=list)
    holder: str = ""
    held: int = 0
    result: str = ""
    #: The shared deck (pbd.table); rendered as its own section.
    deck: Any = field(default=None, compare=False, repr=False)
