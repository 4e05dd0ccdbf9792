"""The Twin Tower City match state: plain records, no rules and no I/O."""

from __future__ import annotations

from typing import Any

from pbd.games.base import Meta
from pbd.record import Record
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


class Options(Record):
    """The rulebook's variations chosen at ``new``, and team size."""

    face_up: bool
    open_hands: bool
    environments: bool
    bonuses: bool
    team: int

    FIELDS = ("face_up", "open_hands", "environments", "bonuses", "team")

    def __init__(self, face_up: bool = False, open_hands: bool = False, environments: bool = True, bonuses: bool = True,
                 team: int = 1):
        self.face_up = face_up
        self.open_hands = open_hands
        self.environments = environments
        self.bonuses = bonuses
        self.team = team

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


class Play(Record):
    """One card played in a round.

    A Battle Card carries its four halves and environment; an Army or Warrior Card
    carries ``swaps``: (warrior replaced, warrior brought in).
    """

    side: str
    kind: str
    card: int | None
    player: str
    dark_warrior: str
    dark_item: str
    light_warrior: str
    light_item: str
    environment: str
    swaps: list[tuple[str, str]]

    FIELDS = ("side", "kind", "card", "player", "dark_warrior", "dark_item", "light_warrior", "light_item",
              "environment", "swaps")

    def __init__(self, side: str, kind: str, card: int | None = None, player: str = "", dark_warrior: str = "",
                 dark_item: str = "", light_warrior: str = "", light_item: str = "", environment: str = "",
                 swaps: list[tuple[str, str]] | None = None):
        self.side = side
        self.kind = kind
        self.card = card
        self.player = player
        self.dark_warrior = dark_warrior
        self.dark_item = dark_item
        self.light_warrior = light_warrior
        self.light_item = light_item
        self.environment = environment
        self.swaps = [] if swaps is None else swaps

    def label(self) -> str:
        """Return how the breakdown names this card: ``battle 17`` (or ``battle`` by hand)."""
        return f"{self.kind} {self.card}" if self.card is not None else f"{self.side.capitalize()}'s {self.kind}"


class Round(Record):
    """One of the five rounds: the cards played in order and the items nullified by choice."""

    number: int
    plays: list[Play]
    nullified: dict[str, list[str]]

    FIELDS = ("number", "plays", "nullified")

    def __init__(self, number: int, plays: list[Play] | None = None, nullified: dict[str, list[str]] | None = None):
        self.number = number
        self.plays = [] if plays is None else plays
        self.nullified = {"light": [], "dark": []} if nullified is None else nullified


class Seat(Record):
    """A player and the side they play."""

    name: str
    side: str

    FIELDS = ("name", "side")

    def __init__(self, name: str, side: str):
        self.name = name
        self.side = side


class State(Record):
    """A whole match: seats, options, the deal, the five rounds and the document frame."""

    meta: Meta
    deck_name: str
    fingerprint: str
    options: Options
    seats: list[Seat]
    first: str                       # side that plays card 2 first in round 1, or "random"
    deck: SharedDeck | None          # the shared deck (pbd.table), once the match is started
    rounds: list[Round]
    catalogue: str                   # hand-made boards: the catalogue named on the board
    #: Private, never rendered: decrypted hands and seeds of the players whose secrets we hold
    #: (a seed of None: replaying the log symbolically), and the loaded deck or catalogue.
    hands: dict[str, list[int]]
    seeds: dict[str, bytes | None]
    library: Any

    FIELDS = ("meta", "deck_name", "fingerprint", "options", "seats", "first", "deck", "rounds", "catalogue")

    def __init__(self, meta: Meta, deck_name: str = "sample", fingerprint: str = "", options: Options | None = None,
                 seats: list[Seat] | None = None, first: str = "light", deck: SharedDeck | None = None,
                 rounds: list[Round] | None = None, catalogue: str = "", hands: dict[str, list[int]] | None = None,
                 seeds: dict[str, bytes | None] | None = None, library: Any = None):
        self.meta = meta
        self.deck_name = deck_name
        self.fingerprint = fingerprint
        self.options = Options() if options is None else options
        self.seats = [] if seats is None else seats
        self.first = first
        self.deck = deck
        self.rounds = [Round(n) for n in range(1, ROUNDS + 1)] if rounds is None else rounds
        self.catalogue = catalogue
        self.hands = {} if hands is None else hands
        self.seeds = {} if seeds is None else seeds
        self.library = library
