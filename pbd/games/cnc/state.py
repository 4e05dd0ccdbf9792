"""The C&C game state: plain records, no behaviour beyond small lookups.

A hand is a list of card names; cards pbd cannot see (the opponent's) are ``"?"``.
Per-turn facts (what was played, who acted) live in :class:`Turn` so that a turn
spread over several commands is judged the same as one command.
"""

from __future__ import annotations

from operator import attrgetter

from pbd.games.base import Meta, PlayerMeta
from pbd.record import Record

HIDDEN = "?"
START_CP = 100
HAND_LIMIT = 10
OPENING_HAND = 5
#: the log text of a seat's opening hand being drawn
OPENING = "opening hand"
ATTRITION_LIMIT = 25


class Character(Record):
    """A character card in play."""

    FIELDS = ("name", "hp", "statuses", "combo", "combo_attack")

    def __init__(self, name: str, hp: int, statuses: list[str] | None = None, combo: int = 0, combo_attack: str = ""):
        self.name, self.hp, self.combo, self.combo_attack = name, hp, combo, combo_attack
        self.statuses = [] if statuses is None else statuses


class Pending(Record):
    """Something a player owes the game that only their own pbd can do (their hand is private).

    ``kind``: "discard" (``count`` cards from hand), "take" (``card`` back to hand), "reveal"
    (hand card #n), "adjust" (accept or reject an adjustment) or "roll" (``card`` is a move whose
    die follows the choice: it waits on a fresh random value, see ``CncGame.awaited_roll``).
    """

    FIELDS = ("player", "kind", "count", "card", "source")

    def __init__(self, player: str, kind: str, count: int = 1, card: str = "", source: str = ""):
        self.player, self.kind, self.count, self.card, self.source = player, kind, count, card, source


class Side(Record):
    """One player's half of the board plus their public counts."""

    FIELDS = ("name", "cp", "ap", "ap_next", "cities", "characters", "discards", "hand", "deck")

    def __init__(self, name: str, cp: int = START_CP, ap: int = 0, ap_next: int = 0, cities: list[str] | None = None,
                 characters: list[Character] | None = None, discards: list[str] | None = None,
                 hand: list[str] | None = None, deck: int = 0):
        self.name, self.cp, self.ap, self.ap_next, self.deck = name, cp, ap, ap_next, deck
        self.cities = [] if cities is None else cities
        self.characters = [] if characters is None else characters
        self.discards = [] if discards is None else discards
        self.hand = [] if hand is None else hand


class Turn(Record):
    """What the player to move has done so far this turn (``effects``: "Perfect Storm", "Flood")."""

    FIELDS = ("played", "withdrawn", "acted", "attacked", "effects")

    def __init__(self, played: list[str] | None = None, withdrawn: list[str] | None = None,
                 acted: list[str] | None = None, attacked: list[str] | None = None, effects: list[str] | None = None):
        self.played = [] if played is None else played
        self.withdrawn = [] if withdrawn is None else withdrawn
        self.acted = [] if acted is None else acted
        self.attacked = [] if attacked is None else attacked
        self.effects = [] if effects is None else effects


class State(Record):
    """A whole C&C match: the board, whose turn it is, and the document's meta.

    ``first_choice`` is "random" while waiting for the opponent to join.
    """

    FIELDS = ("meta", "sides", "to_move", "turn_number", "first", "first_choice", "turn", "pending", "result")

    def __init__(self, meta: Meta, sides: list[Side] | None = None, to_move: int = 0, turn_number: int = 1,
                 first: int = 0, first_choice: str = "", turn: Turn | None = None, pending: list[Pending] | None = None,
                 result: str = ""):
        self.meta, self.to_move, self.turn_number, self.first = meta, to_move, turn_number, first
        self.first_choice, self.result = first_choice, result
        self.sides = [] if sides is None else sides
        self.turn = Turn() if turn is None else turn
        self.pending = [] if pending is None else pending

    def side(self, name: str) -> Side:
        """Return the side of the player called ``name`` (case-insensitive)."""
        sides = self.sides
        if sides and sides[0].name == name:
            return sides[0]             # the common case: found without casefolding
        folded = name.casefold()
        for s in sides:
            if s.name.casefold() == folded:
                return s
        raise KeyError(name)

    def index(self, name: str) -> int:
        """Return the seat index (0 or 1) of player ``name``."""
        side = self.side(name)
        for i, s in enumerate(self.sides):
            if s is side:           # (not ``list.index``: comparing whole sides field by field costs more)
                return i
        raise KeyError(name)

    def opponent(self, name: str) -> Side:
        """Return the other player's side."""
        return self.sides[1 - self.index(name)]

    @property
    def current(self) -> Side:
        """Return the side of the player to move."""
        return self.sides[self.to_move]

    @property
    def started(self) -> bool:
        """Return True once both players are seated."""
        return len(self.sides) == 2


def key_of(chars: list[Character], i: int) -> str:
    """Return the name that identifies ``chars[i]``: ``Name``, or ``Name#2`` for a second copy."""
    name = chars[i].name
    n = 0
    for c in chars[:i + 1]:
        if c.name == name:
            n += 1
    return name if n == 1 else f"{name}#{n}"


def keys_of(chars: list[Character]) -> list[str]:
    """Return the identifying names of ``chars`` in row order (``key_of`` of each): a new list."""
    names = names_of(chars)
    return list(_KEYS.get(names) or _keys(names))   # (a row seen before without a call)


#: the keys of each row of names :func:`_keys` worked out (a match shows the same few rows again and again)
_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _keys(names: tuple[str, ...]) -> tuple[str, ...]:
    """Return (and keep in :data:`_KEYS`) the keys of the characters called ``names``."""
    keys = _KEYS.get(names)
    if keys is None:
        keys = names if len(set(names)) == len(names) else tuple(_numbered_keys(names))   # (no twins: own names)
        if len(_KEYS) >= 1024:
            _KEYS.clear()
        _KEYS[names] = keys
    return keys


def _numbered_keys(names: tuple[str, ...]) -> list[str]:
    """Return the keys of the characters called ``names`` when a name comes twice: ``Name``, then ``Name#2``..."""
    seen: dict[str, int] = {}
    keys = []
    for name in names:
        n = seen[name] = seen.get(name, 0) + 1
        keys.append(name if n == 1 else f"{name}#{n}")
    return keys


#: ``name_of(x)`` is ``x.name`` (for ``map`` where a move seldom asks: see :func:`names_of`)
name_of = attrgetter("name")


def names_of(chars: list[Character]) -> tuple[str, ...]:
    """Return the names of ``chars`` in row order.

    The rules ask several times a move: a row of up to three (nearly every row a match shows)
    is read into its tuple at once, a longer one by a loop (``map(name_of, ...)`` costs more in
    CPython 3.11, which calls an ``attrgetter`` through a new argument tuple for each item).
    """
    n = len(chars)
    if n == 1:
        return chars[0].name,
    if n == 2:
        return chars[0].name, chars[1].name
    if n == 3:
        return chars[0].name, chars[1].name, chars[2].name
    names = []
    for c in chars:
        names.append(c.name)
    return tuple(names)


def find_key(chars: list[Character], key: str) -> int | None:
    """Return the index of the character identified by ``key``, or None."""
    if "#" in key:
        keys = _keys(names_of(chars))
        return keys.index(key) if key in keys else None
    for i, c in enumerate(chars):       # (the first copy, by its own name: a loop, no row of names made)
        if c.name == key:
            return i
    return None


def clone(state: State) -> State:
    """Return a copy of ``state`` deep enough for a trial move (the log is shared, not copied)."""
    # (each seat's record made anew, not copied: copying a record reads its __dict__, which sends the
    # state's own record to CPython's slow attribute reads for the rest of the process; see pbd.record)
    meta = Meta(state.meta.game, state.meta.match_id,
                [PlayerMeta(p.name, p.commitment, p.chain, p.chain_index, p.draws, p.rolls, p.free)
                 for p in state.meta.fairplay],
                state.meta.log)
    sides = [Side(s.name, s.cp, s.ap, s.ap_next, s.cities[:],
                  [Character(c.name, c.hp, c.statuses[:], c.combo, c.combo_attack) for c in s.characters],
                  s.discards[:], s.hand[:], s.deck) for s in state.sides]
    t = state.turn
    turn = Turn(t.played[:], t.withdrawn[:], t.acted[:], t.attacked[:], t.effects[:])
    return State(meta, sides, state.to_move, state.turn_number, state.first, state.first_choice, turn,
                 [Pending(p.player, p.kind, p.count, p.card, p.source) for p in state.pending], state.result)


class _Opened:
    """The seats whose opening hands a log shows drawn, as :func:`opening_owed` last found them.

    A fast path for the end of every turn, which asks about the opponent: a log only ever
    grows in place (an earlier one is replaced by a new list), so a hand drawn in ``log``
    stays drawn while that list is the state's log.  ``names`` holds the seats' names as
    :func:`opening_owed` was asked them (kept alive with ``log``, so ``is`` cannot mistake
    a new list for it).
    """

    def __init__(self):
        self.log: list | None = None
        self.names: set[str] = set()


#: see :class:`_Opened` (:func:`opening_owed` asks it first)
OPENED = _Opened()


def opening_owed(state: State, name: str) -> bool:
    """Return True while ``name``'s opening hand is not drawn (its five cards are on the board, face down).

    Opening hands are drawn after every seat has committed, each from a chain value the
    other seat published after that: the creator's from the joiner's head (on the creator's
    next command), the joiner's from the creator's next value (on the joiner's next command).
    The creator publishes no other value before the joiner's hand is drawn, so the joiner
    cannot choose between two hands by choosing when to draw.
    """
    log = state.meta.log
    if OPENED.log is log and name in OPENED.names:
        return False                                # (known drawn in this log: see _Opened)
    folded = name.casefold()
    index = state.meta.log_index()                  # (one step while nothing was appended)
    if folded not in index.commits:
        return False
    drawn = index.memo.get("cnc-openings")
    if drawn is None or drawn[0] < index.count:     # read the entries not read yet: once drawn, always drawn
        seen = set() if drawn is None else drawn[1]
        seen.update(e.player.casefold() for e in index.log[drawn[0] if drawn else 0:] if e.text.startswith(OPENING))
        drawn = index.memo["cnc-openings"] = (index.count, seen)
    if folded not in drawn[1]:
        return True
    if OPENED.log is not log:
        OPENED.log, OPENED.names = log, set()
    OPENED.names.add(name)
    return False
