"""The C&C game state: plain dataclasses, no behaviour beyond small lookups.

A hand is a list of card names; cards pbd cannot see (the opponent's) are ``"?"``.
Per-turn facts (what was played, who acted) live in :class:`Turn` so that a turn
spread over several commands is judged the same as one command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from pbd.games.base import Meta

HIDDEN = "?"
START_CP = 100
HAND_LIMIT = 10
OPENING_HAND = 5
#: the log text of a seat's opening hand being drawn
OPENING = "opening hand"
ATTRITION_LIMIT = 25


@dataclass
class Character:
    """A character card in play."""

    name: str
    hp: int
    statuses: list[str] = field(default_factory=list)
    combo: int = 0
    combo_attack: str = ""


@dataclass
class Pending:
    """Something a player owes the game that only their own pbd can do (their hand is private)."""

    player: str
    kind: str          # "discard" (count cards from hand) | "take" (card back to hand) | "reveal" (hand card #n)
    count: int = 1
    card: str = ""
    source: str = ""


@dataclass
class Side:
    """One player's half of the board plus their public counts."""

    name: str
    cp: int = START_CP
    ap: int = 0
    ap_next: int = 0
    cities: list[str] = field(default_factory=list)
    characters: list[Character] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    deck: int = 0


@dataclass
class Turn:
    """What the player to move has done so far this turn."""

    played: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)
    attacked: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)   # "Perfect Storm", "Flood"


@dataclass
class State:
    """A whole C&C match: the board, whose turn it is, and the document's meta."""

    meta: Meta
    sides: list[Side] = field(default_factory=list)
    to_move: int = 0
    turn_number: int = 1
    first: int = 0
    first_choice: str = ""          # "random" while waiting for the opponent to join
    turn: Turn = field(default_factory=Turn)
    pending: list[Pending] = field(default_factory=list)
    result: str = ""

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
    """Return the identifying names of ``chars`` in row order (``key_of`` of each)."""
    names = list(map(name_of, chars))      # (no Python frame: the rules ask several times a move)
    if len(set(names)) == len(names):
        return names        # no second copies: each is known by its name
    seen: dict[str, int] = {}
    keys = []
    for c in chars:
        n = seen[c.name] = seen.get(c.name, 0) + 1
        keys.append(c.name if n == 1 else f"{c.name}#{n}")
    return keys


#: ``name_of(x)`` is ``x.name`` (for ``map``: no Python frame per item)
name_of = attrgetter("name")


def find_key(chars: list[Character], key: str) -> int | None:
    """Return the index of the character identified by ``key``, or None."""
    if "#" not in key:      # the first copy of that name (a later copy's key has '#n')
        names = list(map(name_of, chars))
        return names.index(key) if key in names else None
    keys = keys_of(chars)
    return keys.index(key) if key in keys else None


def clone(state: State) -> State:
    """Return a copy of ``state`` deep enough for a trial move (the log is shared, not copied)."""
    import dataclasses

    from pbd.games.base import Meta

    meta = Meta(state.meta.game, state.meta.match_id,
                [dataclasses.replace(p) for p in state.meta.fairplay],
                state.meta.log)
    sides = [Side(s.name, s.cp, s.ap, s.ap_next, s.cities[:],
                  [Character(c.name, c.hp, c.statuses[:], c.combo, c.combo_attack) for c in s.characters],
                  s.discards[:], s.hand[:], s.deck) for s in state.sides]
    t = state.turn
    turn = Turn(t.played[:], t.withdrawn[:], t.acted[:], t.attacked[:], t.effects[:])
    return State(meta, sides, state.to_move, state.turn_number, state.first, state.first_choice, turn,
                 [Pending(p.player, p.kind, p.count, p.card, p.source) for p in state.pending], state.result)


def opening_owed(state: State, name: str) -> bool:
    """Return True while ``name``'s opening hand is not drawn (its five cards are on the board, face down).

    Opening hands are drawn after every seat has committed, each from a chain value the
    other seat published after that: the creator's from the joiner's head (on the creator's
    next command), the joiner's from the creator's next value (on the joiner's next command).
    The creator publishes no other value before the joiner's hand is drawn, so the joiner
    cannot choose between two hands by choosing when to draw.
    """
    folded = name.casefold()
    index = state.meta.__dict__.get("_log_index")
    if index is not None and index.fits(state.meta.log):
        drawn = index.memo.get("cnc-openings")
        if drawn is not None and folded in drawn[1]:
            return False                            # drawn already (the log only grows while the index fits)
    index = state.meta.log_index()
    if folded not in index.commits:
        return False
    drawn = index.memo.get("cnc-openings")
    if drawn is None or drawn[0] < index.count:     # read the entries not read yet: once drawn, always drawn
        seen = set() if drawn is None else drawn[1]
        seen.update(e.player.casefold() for e in index.log[drawn[0] if drawn else 0:] if e.text.startswith(OPENING))
        drawn = index.memo["cnc-openings"] = (index.count, seen)
    return folded not in drawn[1]
