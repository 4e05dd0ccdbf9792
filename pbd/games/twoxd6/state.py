"""The 2Xd6 match state: plain records, no rules and no I/O."""

from __future__ import annotations

from pbd.games.base import Meta
from pbd.games.twoxd6.grid import Board
from pbd.record import Record
from pbd.regex import pattern
from pbd.table.decisions import Decision  # noqa: F401  (re-exported for the rules)
from pbd.table.deck import SharedDeck
from pbd.table.game import Table


class Options(Record):
    """Choices made at ``pbd new`` (``-O``): players, board, the Mod, house rules."""

    players: int
    board: str
    decks: int                     # the Mod: one deck per two players
    adjacency: int                 # 4: cells sharing a side; 8: corners too
    first_round_one: bool          # house rule: a first-round "1 card" means any Pip costing 1 (none in the deck)
    rc: str                        # best: pbd resists with the best Rc; stated: the defender states it first
    deck: str                      # the bundled deck's name, or a deck file's content hash (sha256:...)

    FIELDS = ("players", "board", "decks", "adjacency", "first_round_one", "rc", "deck")

    def __init__(self, players: int = 2, board: str = "standard", decks: int = 1, adjacency: int = 4,
                 first_round_one: bool = False, rc: str = "best", deck: str = "standard"):
        self.players = players
        self.board = board
        self.decks = decks
        self.adjacency = adjacency
        self.first_round_one = first_round_one
        self.rc = rc
        self.deck = deck

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


class Stack(Record):
    """The cards in one cell, bottom first, and whose they are."""

    owner: str
    cards: list[str]

    FIELDS = ("owner", "cards")

    def __init__(self, owner: str, cards: list[str]):
        self.owner = owner
        self.cards = cards


class Owe(Record):
    """A card ``giver`` must hand to ``receiver``: kind ``face`` (a Face or a 10) or ``pip``."""

    giver: str
    receiver: str
    kind: str

    FIELDS = ("giver", "receiver", "kind")

    def __init__(self, giver: str, receiver: str, kind: str):
        self.giver = giver
        self.receiver = receiver
        self.kind = kind


class Targeting(Record):
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

    FIELDS = ("attacker", "source", "target", "defender", "tc", "tc_text", "rc", "rc_text", "roll")

    def __init__(self, attacker: str, source: str, target: str, defender: str, tc: int | None, tc_text: str,
                 rc: int | None, rc_text: str, roll: tuple[int, int] | None):
        self.attacker = attacker
        self.source = source
        self.target = target
        self.defender = defender
        self.tc = tc
        self.tc_text = tc_text
        self.rc = rc
        self.rc_text = rc_text
        self.roll = roll


class Trade(Record):
    """A Scene 4 card offered for trade: the offering player, the card's slot, offers so far."""

    seat: str
    slot: int
    offers: dict[str, str]                                 # seat -> card offered, or "pass"

    FIELDS = ("seat", "slot", "offers")

    def __init__(self, seat: str, slot: int, offers: dict[str, str] | None = None):
        self.seat = seat
        self.slot = slot
        self.offers = {} if offers is None else offers


class Act(Record):
    """Where the current act stands."""

    round: int
    turn: int                      # index into State.order
    scene: str                     # roll | main
    points: int
    roll: tuple[int, int] | None
    played: int
    recycled: int
    replaced: int
    advanced: bool
    targeted: bool
    tolls: list[str]                                # players paid a toll this act

    FIELDS = ("round", "turn", "scene", "points", "roll", "played", "recycled", "replaced", "advanced", "targeted",
              "tolls")

    def __init__(self, round: int = 1, turn: int = 0, scene: str = "roll", points: int = 0,
                 roll: tuple[int, int] | None = None, played: int = 0, recycled: int = 0, replaced: int = 0,
                 advanced: bool = False, targeted: bool = False, tolls: list[str] | None = None):
        self.round = round
        self.turn = turn
        self.scene = scene
        self.points = points
        self.roll = roll
        self.played = played
        self.recycled = recycled
        self.replaced = replaced
        self.advanced = advanced
        self.targeted = targeted
        self.tolls = [] if tolls is None else tolls


#: how the ``deck=`` option names a deck: a bundled name, or ``sha256:`` and 16 hex digits of a deck file
DECK_REF = pattern(r"[a-z][a-z0-9-]{0,39}|sha256:[0-9a-f]{16}")


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


class State(Record, Table):
    """A whole match: the table's seats, deck, turn and decisions (:class:`~pbd.table.game.Table`), and the grid.

    ``order`` is the order of acts once rolled; the base's ``turn`` always names the seat
    that must act (the order roller, then the acting player).

    A record (:mod:`pbd.record`), not a dataclass: it is loaded by every command.  Its ``__init__``
    takes the table's fields first, in :class:`~pbd.table.game.Table`'s order.
    """

    board: Board | None
    order_rolls: dict[str, int]
    order: list[str]                                        # order of acts once decided (Player 1 first)
    phase: str                                              # joining | order | act | over
    act: Act
    cells: dict[str, Stack]
    shown: dict[str, list[str]]                                 # face-up cards in each hand
    cold: dict[str, list[int]]                                  # cold-comfort slots in each hand
    owed: list[Owe]
    targeting: Targeting | None
    trade: Trade | None
    holder: str
    held: int
    quiet: int                     # acts in a row with no card played, no advance and no targeting

    FIELDS = (*Table.TABLE_FIELDS, "board", "order_rolls",
              "order", "phase", "act", "cells", "shown", "cold", "owed", "targeting", "trade", "holder", "held",
              "quiet")

    def __init__(self, meta: Meta, seats: list[str] | None = None, players: int = 2, deck: SharedDeck | None = None,
                 turn: int = 0, decisions: list[Decision] | None = None, result: str = "",
                 options: list[str] | None = None, board: Board | None = None,
                 order_rolls: dict[str, int] | None = None, order: list[str] | None = None, phase: str = "joining",
                 act: Act | None = None, cells: dict[str, Stack] | None = None,
                 shown: dict[str, list[str]] | None = None, cold: dict[str, list[int]] | None = None,
                 owed: list[Owe] | None = None, targeting: Targeting | None = None, trade: Trade | None = None,
                 holder: str = "", held: int = 0, quiet: int = 0):
        self._set_table(meta, seats, players, deck, turn, decisions, result, options)
        self.board = board
        self.order_rolls = {} if order_rolls is None else order_rolls
        self.order = [] if order is None else order
        self.phase = phase
        self.act = Act() if act is None else act
        self.cells = {} if cells is None else cells
        self.shown = {} if shown is None else shown
        self.cold = {} if cold is None else cold
        self.owed = [] if owed is None else owed
        self.targeting = targeting
        self.trade = trade
        self.holder = holder
        self.held = held
        self.quiet = quiet

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
