"""Plain data of a Tower match: the board layout, the deck's counts, tokens, the turn's progress.

Nothing here knows the rules (:mod:`.rules`) or the document (:mod:`.board`).  The seats, the
seat on turn, the open decisions, the result and the shared deck itself are the table's
(:class:`pbd.table.game.Table`); where every card is lives in that deck (``state.deck``).
"""

from __future__ import annotations

from pbd.games.base import Meta
from pbd.record import Record
from pbd.table.decisions import Decision
from pbd.table.deck import SharedDeck
from pbd.table.game import Table

#: The card kinds of the rulebook, in the order the document lists them.
TILE_CARDS = ("Torch", "Guard", "Rope", "Trapdoor", "Magic Carpet", "Spider Web", "Arcane Trap")
HAND_CARDS = ("Sword", "Shield")
KINDS = TILE_CARDS + HAND_CARDS
#: Short names the board and the notation also accept (the document writes the full names).
SHORT = {"carpet": "Magic Carpet", "web": "Spider Web", "arcane": "Arcane Trap", "trap": "Trapdoor",
         "trap door": "Trapdoor", "spiderweb": "Spider Web", "magiccarpet": "Magic Carpet",
         "arcanetrap": "Arcane Trap"}
HAND_LIMIT = 5
#: Turn steps: ``main`` (may place one card, then roll), ``resolve`` (rolled: tile effects,
#: duels and decisions under way), ``over``; ``done`` only inside a move (the turn ends).
STEPS = ("main", "resolve", "over")
#: The moments that ask a seat for a card: Shield against a Guard, Shield after an Arcane
#: Trap's 2, a duelist's Sword, a Shield against the other duelist's Sword.
ASKS = ("guard", "arcane", "sword", "shield", "defend")


class Layout(Record):
    """The tower: floors of tiles along one path, each floor's direction, start and treasure.

    Tiles are numbered 1..floors*width along the path; floor 1 is the bottom floor.
    ``directions[f-1]`` is ``"right"`` when tile numbers grow to the right on floor f.
    """

    name: str
    floors: int
    width: int
    directions: list[str]
    start: int
    treasure: int

    FIELDS = ("name", "floors", "width", "directions", "start", "treasure")

    def __init__(self, name: str = "The Tower", floors: int = 6, width: int = 8, directions: list[str] | None = None,
                 start: int = 1, treasure: int = 48):
        self.name = name
        self.floors = floors
        self.width = width
        self.directions = ["right", "left"] * 3 if directions is None else directions
        self.start = start
        self.treasure = treasure

    @property
    def tiles(self) -> int:
        """Return how many tiles the tower has."""
        return self.floors * self.width


class DeckSpec(Record):
    """The deck: how many cards of each kind (``counts`` in :data:`KINDS` order)."""

    name: str
    counts: dict[str, int]

    FIELDS = ("name", "counts")

    def __init__(self, name: str = "pbd default deck", counts: dict[str, int] | None = None):
        self.name = name
        self.counts = {} if counts is None else counts

    def cards(self) -> list[str]:
        """Return the deck list, kind by kind (the shared deck's cards before the shuffle)."""
        return [kind for kind in KINDS for _ in range(self.counts.get(kind, 0))]

    @property
    def size(self) -> int:
        """Return the number of cards in the deck."""
        return sum(self.counts.values())


class Duel(Record):
    """A duel under way: who attacked whom on which tile, Swords and Shields played so far."""

    attacker: str
    defender: str
    tile: int
    swords: list[str]
    shields: list[str]
    #: how many of the four decision steps are done (attacker Sword, defender Shield,
    #: defender Sword, attacker Shield)
    step: int

    FIELDS = ("attacker", "defender", "tile", "swords", "shields", "step")

    def __init__(self, attacker: str, defender: str, tile: int, swords: list[str] | None = None,
                 shields: list[str] | None = None, step: int = 0):
        self.attacker = attacker
        self.defender = defender
        self.tile = tile
        self.swords = [] if swords is None else swords
        self.shields = [] if shields is None else shields
        self.step = step


class Task(Record):
    """A token waiting for its tile to act: ``arrive`` (apply the card) or ``rest`` (duel check)."""

    kind: str
    seat: str

    FIELDS = ("kind", "seat")

    def __init__(self, kind: str, seat: str):
        self.kind = kind
        self.seat = seat


class State(Record, Table):
    """A whole Tower match: the table's part plus the tower, the tokens and the turn's progress.

    ``tokens`` maps a seat to its tile (None: a hand-edited board shows it nowhere);
    ``cards`` maps a tile to the cards the board shows on it (one in a legal position; the
    shared deck's ``tile-N`` piles hold the same cards); ``ask`` is the mover's own pending
    moment (one of :data:`ASKS`), answered by the mover's next move (``play CARD``/``pass``).

    A record (:mod:`pbd.record`), not a dataclass: it is loaded by every command.  Its ``__init__``
    takes the table's fields first, in :class:`~pbd.table.game.Table`'s order.
    """

    layout: Layout
    spec: DeckSpec
    tokens: dict[str, int | None]
    webbed: list[str]
    cards: dict[int, list[str]]
    #: Swords and Shields played, and cards discarded at the hand limit: (seat, card)
    spent: list[tuple[str, str]]
    discarded: list[tuple[str, str]]
    round: int
    step: str
    placed: bool
    #: the turn's duel has been fought (or is under way): no other duel this turn
    dueled: bool
    queue: list[Task]
    duel: Duel | None
    ask: str
    #: hand sizes as the board's Players lines show them (``pbd check`` compares them with the deck)
    shown: dict[str, int]
    #: what a tolerant reading of a hand-edited board noticed (for ``pbd check``)
    notes: list[str]

    FIELDS = (*Table.TABLE_FIELDS, "layout", "spec", "tokens",
              "webbed", "cards", "spent", "discarded", "round", "step", "placed", "dueled", "queue", "duel", "ask")

    def __init__(self, meta: Meta, seats: list[str] | None = None, players: int = 2, deck: SharedDeck | None = None,
                 turn: int = 0, decisions: list[Decision] | None = None, result: str = "",
                 options: list[str] | None = None, layout: Layout | None = None, spec: DeckSpec | None = None,
                 tokens: dict[str, int | None] | None = None, webbed: list[str] | None = None,
                 cards: dict[int, list[str]] | None = None, spent: list[tuple[str, str]] | None = None,
                 discarded: list[tuple[str, str]] | None = None, round: int = 0, step: str = "main",
                 placed: bool = False, dueled: bool = False, queue: list[Task] | None = None, duel: Duel | None = None,
                 ask: str = "", shown: dict[str, int] | None = None, notes: list[str] | None = None):
        self._set_table(meta, seats, players, deck, turn, decisions, result, options)
        self.layout = Layout() if layout is None else layout
        self.spec = DeckSpec() if spec is None else spec
        self.tokens = {} if tokens is None else tokens
        self.webbed = [] if webbed is None else webbed
        self.cards = {} if cards is None else cards
        self.spent = [] if spent is None else spent
        self.discarded = [] if discarded is None else discarded
        self.round = round
        self.step = step
        self.placed = placed
        self.dueled = dueled
        self.queue = [] if queue is None else queue
        self.duel = duel
        self.ask = ask
        self.shown = {} if shown is None else shown
        self.notes = [] if notes is None else notes

    @property
    def first_random(self) -> bool:
        """Return True while the first player is still to be drawn by lot (``--first random``)."""
        return "starts=random" in self.options

    @property
    def starts(self) -> str:
        """Return the seat ``--first NAME`` chose to move first (``starts=NAME``), or "" for the creator."""
        return next((w.split("=", 1)[1] for w in self.options if w.startswith("starts=")), "")

    @property
    def finish(self) -> str:
        """Return how the treasure is reached: ``reach``, ``bounce`` or ``stay`` (``-O exact-finish[=stay]``)."""
        for word in self.options:
            if word == "exact-finish" or word == "exact-finish=bounce":
                return "bounce"
            if word == "exact-finish=stay":
                return "stay"
        return "reach"

    @property
    def mover(self) -> str:
        """Return the name of the seat on turn ('' before the start and after the end)."""
        return self.on_turn or ""

    def tile_of(self, name: str) -> int | None:
        """Return the tile of ``name``'s token (the start tile until the board says otherwise)."""
        return self.tokens.get(name, self.layout.start)

    def on_tile(self, tile: int) -> list[str]:
        """Return the seats whose token is on ``tile``, in seat order."""
        return [s for s in self.seats if self.tile_of(s) == tile]

    def seat(self, name: str) -> str:
        """Return the seat called ``name`` as the match spells it (case-insensitive).

        :raises KeyError: no such seat.
        """
        for s in self.seats:
            if s.casefold() == name.casefold():
                return s
        raise KeyError(name)

    def card_at(self, tile: int) -> str | None:
        """Return the card on ``tile`` (the first one if a hand edit put several)."""
        cards = self.cards.get(tile)
        return cards[0] if cards else None


def marks(seats: list[str]) -> dict[str, str]:
    """Return each seat's token mark: its initial, else another letter of its name, else a digit."""
    out: dict[str, str] = {}
    for name in seats:
        taken = set(out.values())
        out[name] = next((ch for ch in name.upper() + "123456789" if ch.isascii() and ch.isalnum()
                          and ch not in taken), "0")
    return out
