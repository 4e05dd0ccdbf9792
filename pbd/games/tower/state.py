"""Plain data of a Tower match: the board layout, the deck, the seats and the turn.

Nothing here knows the rules (:mod:`.rules`) or the document (:mod:`.board`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The card kinds of the rulebook, in the order the document lists them.
TILE_CARDS = ("Torch", "Guard", "Rope", "Trapdoor", "Magic Carpet", "Spider Web", "Arcane Trap")
HAND_CARDS = ("Sword", "Shield")
KINDS = TILE_CARDS + HAND_CARDS
#: Short names the board and the notation also accept (the document writes the full names).
SHORT = {"carpet": "Magic Carpet", "web": "Spider Web", "arcane": "Arcane Trap", "trap": "Trapdoor",
         "trap door": "Trapdoor", "spiderweb": "Spider Web", "magiccarpet": "Magic Carpet",
         "arcanetrap": "Arcane Trap"}
HAND_LIMIT = 5
#: Turn steps: ``draw`` (the turn's first move), ``main`` (drew: may place one card, then roll),
#: ``resolve`` (rolled: tile effects, duels and decisions under way), ``over``.
STEPS = ("draw", "main", "resolve", "over")


@dataclass
class Layout:
    """The tower: floors of tiles along one path, each floor's direction, start and treasure.

    Tiles are numbered 1..floors*width along the path; floor 1 is the bottom floor.
    ``directions[f-1]`` is ``"right"`` when tile numbers grow to the right on floor f.
    """

    name: str = "The Tower"
    floors: int = 6
    width: int = 8
    directions: list[str] = field(default_factory=lambda: ["right", "left"] * 3)
    start: int = 1
    treasure: int = 48

    @property
    def tiles(self) -> int:
        """Return how many tiles the tower has."""
        return self.floors * self.width


@dataclass
class DeckSpec:
    """The deck: how many cards of each kind (``counts`` in :data:`KINDS` order)."""

    name: str = "pbd default deck"
    counts: dict[str, int] = field(default_factory=dict)

    def cards(self) -> list[str]:
        """Return the deck list, kind by kind (the list each seat's commitment covers)."""
        return [kind for kind in KINDS for _ in range(self.counts.get(kind, 0))]

    @property
    def size(self) -> int:
        """Return the number of cards in the deck."""
        return sum(self.counts.values())


@dataclass
class Options:
    """Match options: how the treasure is reached (``-O exact-finish``)."""

    #: ``"reach"`` (any roll reaching or passing the treasure wins), ``"bounce"`` (exact:
    #: the excess walks back), ``"stay"`` (exact: a roll that overshoots is not moved)
    finish: str = "reach"


@dataclass
class Seat:
    """A player at the table: token mark, tile, public hand count, deck left, web."""

    name: str
    mark: str
    tile: int | None = 1
    hand: int = 0
    deck: int = 0
    webbed: bool = False
    #: the cards in hand, for the seats whose private state we hold (never rendered)
    cards: list[str] | None = field(default=None, compare=False, repr=False)


@dataclass
class Decision:
    """A pending decision (TABLE_API ``Decision`` plus ``kind``): ``seat`` must answer.

    ``kind`` says which rule moment it is: ``guard`` (Shield against a Guard),
    ``arcane`` (Shield: only a 1 sends you back), ``sword`` (a duelist's Sword),
    ``shield`` (a Shield against the other duelist's Sword).
    """

    seat: str
    prompt: str
    answers: list[str]
    origin: int
    kind: str


@dataclass
class Duel:
    """A duel under way: who attacked whom on which tile, Swords and Shields played so far."""

    attacker: str
    defender: str
    tile: int
    swords: list[str] = field(default_factory=list)
    shields: list[str] = field(default_factory=list)
    #: how many of the four decision steps are done (attacker Sword, defender Shield,
    #: defender Sword, attacker Shield)
    step: int = 0


@dataclass
class Task:
    """A token waiting for its tile to act: ``arrive`` (apply the card) or ``rest`` (duel check)."""

    kind: str
    seat: str


@dataclass
class State:
    """A whole Tower match (``meta`` is the common document frame)."""

    meta: object
    layout: Layout = field(default_factory=Layout)
    deck: DeckSpec = field(default_factory=DeckSpec)
    options: Options = field(default_factory=Options)
    players: int = 2
    first: str = ""
    seats: list[Seat] = field(default_factory=list)
    #: tile -> the cards on it (one in a legal position; a hand-edited board may show more)
    cards: dict[int, list[str]] = field(default_factory=dict)
    #: Swords and Shields played, and cards discarded at the hand limit: (seat, card)
    spent: list[tuple[str, str]] = field(default_factory=list)
    discarded: list[tuple[str, str]] = field(default_factory=list)
    turn: int = 0
    current: int = 0
    step: str = "draw"
    placed: bool = False
    #: the turn's duel has been fought (or is under way): no other duel this turn
    dueled: bool = False
    queue: list[Task] = field(default_factory=list)
    duel: Duel | None = None
    decisions: list[Decision] = field(default_factory=list)
    winner: str = ""
    #: what a tolerant reading of a hand-edited board noticed (for ``pbd check``)
    notes: list[str] = field(default_factory=list, compare=False, repr=False)

    def seat(self, name: str) -> Seat:
        """Return the seat called ``name`` (case-insensitive).

        :raises KeyError: no such seat.
        """
        for s in self.seats:
            if s.name.casefold() == name.casefold():
                return s
        raise KeyError(name)

    @property
    def started(self) -> bool:
        """Return True once every seat is taken."""
        return len(self.seats) >= self.players and self.turn > 0

    @property
    def mover(self) -> Seat | None:
        """Return the seat whose turn it is (None before the start)."""
        return self.seats[self.current] if self.started and self.seats else None

    @property
    def result(self) -> str:
        """Return the result line once someone reached the treasure ('' before)."""
        return f"{self.winner} reached the treasure and wins" if self.winner else ""

    def card_at(self, tile: int) -> str | None:
        """Return the card on ``tile`` (the first one if a hand edit put several)."""
        cards = self.cards.get(tile)
        return cards[0] if cards else None
