"""The Boys' Town match state: plain records, no rules and no I/O.

Card names of Town cards and battle cards are kept here as well as in the deck: the mover's
pbd writes them when it shows the card, and ``pbd check`` compares them with the deck's
public cards (a table may open a shown card a command later).

Where every card is lives in the shared deck (``state.deck``, pbd.table's SharedDeck):
the draw pile ``draw``, the discard pile ``discard``, each player's Town ``town Ann`` and
each player's hand.  The state here adds what the deck does not know: turn and phase,
each Resident's build penalty and adjustments, the battle in progress, owed draws.
"""

from __future__ import annotations

from pbd.games.base import Meta
from pbd.record import Record
from pbd.table.decisions import Decision
from pbd.table.deck import SharedDeck
from pbd.table.game import Table

#: Phases of a turn, in order; ``joining``/``shuffling`` before the first turn, ``over`` at the end.
PHASES = ("joining", "shuffling", "draw", "drawn", "build", "attack", "battle", "over")
HAND_SIZE = 4


class Resident(Record):
    """What the deck does not know about a card in a Town: its build penalty and adjustments."""

    slot: int
    name: str                    # the card (public: a Town is face up)
    penalty: bool                # built (not swapped in): its card's penalty applies
    extra_tp: int                # an extra build's penalty (Clubhouse: -1 TP)
    adjust_ap: int               # the logged ``adjust`` moves
    adjust_tp: int

    FIELDS = ("slot", "name", "penalty", "extra_tp", "adjust_ap", "adjust_tp")

    def __init__(self, slot: int, name: str = "", penalty: bool = False, extra_tp: int = 0, adjust_ap: int = 0,
                 adjust_tp: int = 0):
        self.slot = slot
        self.name = name
        self.penalty = penalty
        self.extra_tp = extra_tp
        self.adjust_ap = adjust_ap
        self.adjust_tp = adjust_tp


class Seat(Record):
    """A player: name, turns started, and the Residents of their Town (in build order)."""

    name: str
    turns: int
    town: list[Resident]

    FIELDS = ("name", "turns", "town")

    def __init__(self, name: str, turns: int = 0, town: list[Resident] | None = None):
        self.name = name
        self.turns = turns
        self.town = [] if town is None else town


class Battle(Record):
    """The battle in progress.

    ``source`` is ``hand`` or ``town`` (what the attacker attacks with).  In a hand battle
    each side's card is first a commitment (``*_commit``) and its slot None until revealed.
    ``stage``: ``defend`` (the defender owes a card), ``reveal`` (the attacker's pbd owes
    its reveal), ``effects`` (optional effects: ``windows`` lists who still decides,
    defender first), ``resolve`` (waiting only on the table: a face-down top of discard).
    """

    attacker: str
    defender: str
    source: str
    origin: int
    stage: str
    attack_slot: int | None
    attack_card: str                 # the card's name once shown
    attack_commit: str
    attack_nonce: str                # published when the attacker flips (anyone can check)
    defend_slot: int | None
    defend_card: str
    defend_commit: str
    defend_nonce: str
    defend_from: str                 # where the defending card came from: hand or town
    attack_from: str                 # hand or town (changes when a card is swapped in)
    windows: list[str]
    swapped: list[int]                                  # slots swapped out of this battle
    used: list[int]                                     # Residents discarded for their effect
    boosts: dict[str, int]

    FIELDS = ("attacker", "defender", "source", "origin", "stage", "attack_slot", "attack_card", "attack_commit",
              "attack_nonce", "defend_slot", "defend_card", "defend_commit", "defend_nonce", "defend_from",
              "attack_from", "windows", "swapped", "used", "boosts")

    def __init__(self, attacker: str, defender: str, source: str, origin: int, stage: str = "defend",
                 attack_slot: int | None = None, attack_card: str = "", attack_commit: str = "", attack_nonce: str = "",
                 defend_slot: int | None = None, defend_card: str = "", defend_commit: str = "", defend_nonce: str = "",
                 defend_from: str = "", attack_from: str = "", windows: list[str] | None = None,
                 swapped: list[int] | None = None, used: list[int] | None = None, boosts: dict[str, int] | None = None):
        self.attacker = attacker
        self.defender = defender
        self.source = source
        self.origin = origin
        self.stage = stage
        self.attack_slot = attack_slot
        self.attack_card = attack_card
        self.attack_commit = attack_commit
        self.attack_nonce = attack_nonce
        self.defend_slot = defend_slot
        self.defend_card = defend_card
        self.defend_commit = defend_commit
        self.defend_nonce = defend_nonce
        self.defend_from = defend_from
        self.attack_from = attack_from
        self.windows = [] if windows is None else windows
        self.swapped = [] if swapped is None else swapped
        self.used = [] if used is None else used
        self.boosts = {} if boosts is None else boosts


class State(Record, Table):
    """A whole match: the table's seats, turn and deck, plus turn phase, Towns, the battle, owed draws.

    ``seats``/``turn``/``deck``/``decisions``/``result``/``options`` are the table's
    (:class:`~pbd.table.game.Table`); ``people`` holds each seat's Town and turns
    started, ``mover`` the name of the seat on turn.

    A record (:mod:`pbd.record`), not a dataclass: it is loaded by every command.  Its ``__init__``
    takes the table's fields first, in :class:`~pbd.table.game.Table`'s order.
    """

    people: list[Seat]
    round: int
    phase: str
    peeked: int | None               # the draw-phase card set aside for the player
    redrawn: bool
    builds: int                      # extra builds left in this Build Phase
    requires: str                    # what an extra build must be (a name or tag:T)
    extra_penalty: tuple[tuple[str, int], ...]
    skip_attack: bool
    built: int                       # cards built this Build Phase
    battle: Battle | None
    owed: list[list[str]]            # [seat, why] draws owed, in draw order
    mills: int                       # cards owed from the draw pile to the discard pile
    emptied: str                     # the player whose hand emptied on their turn (the game ends)
    #: Private, never rendered: each held seat's face-down choice ``{"slot": n, "nonce": hex}``.
    private: dict[str, dict]
    #: The derived figures as a document showed them when read (hand counts, piles, Town AP/TP), so that
    #: ``describe`` names a hand edit of one; None for a state the rules made (a replay).
    shown: dict | None

    FIELDS = (*Table.TABLE_FIELDS, "people", "round", "phase",
              "peeked", "redrawn", "builds", "requires", "extra_penalty", "skip_attack", "built", "battle", "owed",
              "mills", "emptied")

    def __init__(self, meta: Meta, seats: list[str] | None = None, players: int = 2, deck: SharedDeck | None = None,
                 turn: int = 0, decisions: list[Decision] | None = None, result: str = "",
                 options: list[str] | None = None, people: list[Seat] | None = None, round: int = 0,
                 phase: str = "joining", peeked: int | None = None, redrawn: bool = False, builds: int = 0,
                 requires: str = "", extra_penalty: tuple[tuple[str, int], ...] = (), skip_attack: bool = False,
                 built: int = 0, battle: Battle | None = None, owed: list[list[str]] | None = None, mills: int = 0,
                 emptied: str = "", private: dict[str, dict] | None = None, shown: dict | None = None):
        self._set_table(meta, seats, players, deck, turn, decisions, result, options)
        self.people = [] if people is None else people
        self.round = round
        self.phase = phase
        self.peeked = peeked
        self.redrawn = redrawn
        self.builds = builds
        self.requires = requires
        self.extra_penalty = extra_penalty
        self.skip_attack = skip_attack
        self.built = built
        self.battle = battle
        self.owed = [] if owed is None else owed
        self.mills = mills
        self.emptied = emptied
        self.private = {} if private is None else private
        self.shown = shown

    @property
    def catalogue(self) -> str:
        """Return the match's catalogue reference (the ``catalogue=`` option; default ``standard``)."""
        return next((w.split("=", 1)[1] for w in self.options if w.startswith("catalogue=")), "standard")

    @property
    def first(self) -> str:
        """Return the seat chosen to play first (``starts=`` option, from ``--first``), or the creator's."""
        chosen = next((w.split("=", 1)[1] for w in self.options if w.startswith("starts=")), "")
        return next((s for s in self.seats if s.casefold() == chosen.casefold()), self.seats[0] if self.seats else "")

    @property
    def first_random(self) -> bool:
        """Return True while the first player is still to be drawn by lot (``--first random``)."""
        return "starts=random" in self.options

    @property
    def mover(self) -> str:
        """Return the name of the seat on turn ("" before the first turn and after the end)."""
        if self.phase in ("joining", "shuffling", "over") or not self.seats:
            return ""
        return self.seats[self.turn]

    @mover.setter
    def mover(self, name: str) -> None:
        if name:
            self.turn = self.seats.index(name)

    def seat(self, name: str) -> Seat | None:
        """Return the seat of ``name`` (case-insensitive), or None."""
        for s in self.people:
            if s.name.casefold() == name.casefold():
                return s
        return None

    def names(self) -> list[str]:
        """Return the seated players' names in seat order."""
        return list(self.seats)
