"""The 2Xd6 match state: plain dataclasses, no rules and no I/O."""

from __future__ import annotations

import re

from dataclasses import dataclass, field

from pbd.games.twoxd6.grid import Board
from pbd.table.decisions import Decision  # noqa: F401  (re-exported for the rules)
from pbd.table.game import TableState


@dataclass
class Options:
    """Choices made at ``pbd new`` (``-O``): players, board, the Mod, house rules."""

    players: int = 2
    board: str = "standard"
    decks: int = 1                 # the Mod: one deck per two players
    adjacency: int = 4             # 4: cells sharing a side; 8: corners too
    first_round_one: bool = False  # house rule: a first-round "1 card" means any Pip costing 1 (none in the deck)
    rc: str = "best"               # best: pbd resists with the best Rc; stated: the defender states it first
    deck: str = "standard"         # the bundled deck's name, or a deck file's content hash (sha256:...)

    def words(self) -> list[str]:
        """Return the non-default options as ``-O`` words."""
        out = []
        if self.board != "standard":
            out.append(f"board={self.board}")
        if self.decks != 1:
            out.append(f"decks={self.decks}")
        if self.adjacency != 4:
            out.append(f"adjacency={self.adjacency}")
        if self.rc != "best":
            out.append(f"rc={self.rc}")
        if self.deck != "standard":
            out.append(f"deck={self.deck}")
        return out


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
    """A targeting under way: waiting for the resisting player's roll.

    With ``-O rc=stated`` it is first waiting for the defender's Rc (``rc`` None), then for
    the acting player's Tc (``tc`` and ``roll`` None).
    """

    attacker: str
    source: str
    target: str
    defender: str
    tc: int | None
    tc_text: str
    rc: int | None
    rc_text: str
    roll: tuple[int, int] | None


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
    targeted: bool = False
    tolls: list[str] = field(default_factory=list)  # players paid a toll this act


#: how the ``deck=`` option names a deck: a bundled name, or ``sha256:`` and 16 hex digits of a deck file
DECK_REF = re.compile(r"[a-z][a-z0-9-]{0,39}|sha256:[0-9a-f]{16}")


def options_of(words: list[str], players: int) -> Options:
    """Return the match options the ``Options:`` words and the number of seats stand for.

    Words: ``board=NAME|FILE``, ``mod`` (one deck per two players), ``adjacency=4|8``,
    ``rc=best|stated`` (who gives the Rc of a targeted stack: pbd's best, or the defender).
    With 4 or more players the standard board becomes the large one.

    :raises ValueError: a word that is no 2Xd6 option.
    """
    opts = Options(players=players)
    for word in words:
        key, _, value = word.partition("=")
        if key == "board" and value:
            opts.board = value
        elif key == "mod" and not value:
            opts.decks = max(1, players // 2)
        elif key == "adjacency" and value in ("4", "8"):
            opts.adjacency = int(value)
        elif key == "rc" and value in ("best", "stated"):
            opts.rc = value
        elif key == "deck" and DECK_REF.fullmatch(value):
            opts.deck = value
        else:
            raise ValueError(word)
    if opts.players >= 4 and opts.board == "standard":
        opts.board = "large"
    return opts


@dataclass
class State(TableState):
    """A whole match: the table's seats, deck, turn and decisions (:class:`TableState`), and the grid.

    ``order`` is the order of acts once rolled; the base's ``turn`` always names the seat
    that must act (the order roller, then the acting player).
    """

    board: Board | None = None
    order_rolls: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)          # order of acts once decided (Player 1 first)
    phase: str = "joining"                                  # joining | order | act | over
    act: Act = field(default_factory=Act)
    cells: dict[str, Stack] = field(default_factory=dict)
    shown: dict[str, list[str]] = field(default_factory=dict)   # face-up cards in each hand
    cold: dict[str, list[int]] = field(default_factory=dict)    # cold-comfort slots in each hand
    owed: list[Owe] = field(default_factory=list)
    targeting: Targeting | None = None
    trade: Trade | None = None
    holder: str = ""
    held: int = 0
    quiet: int = 0                 # acts in a row with no card played, no advance and no targeting

    @property
    def deck_name(self) -> str:
        """Return how the match names its deck: ``standard``, or a deck file's content hash (``-O deck=``)."""
        return self.opts.deck

    @property
    def opts(self) -> Options:
        """Return the match options (from the ``Options:`` words and the number of seats)."""
        try:
            return options_of(self.options, self.players)
        except ValueError:
            return Options(players=self.players)
