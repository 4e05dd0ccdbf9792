"""A tiny C&C position builder for rules tests: real states, real draws and rolls.

    game = pos(ann=side(hand=["Spider-Man"], ap=3), ben=side(chars=["Nill"]))
    game.play("Ann", "play Spider-Man; Spider-Man attacks Nill")
    assert game.ben.discards == ["Nill"]

Both players' secrets are held (as in a simulation), so draws come from each player's
deck list through :mod:`pbd.fairplay`, and rolls are the players' real die rolls.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest

from pbd import fairplay
from pbd.errors import IllegalMoveError
from pbd.games.base import Chance, Meta, PlayerMeta, Secrets
from pbd.games.cnc import GAME
from pbd.games.cnc.state import Character, Pending, Side, State, Turn

PORTER = "The Porter"
#: a player's own catalogue entry (TOML): a Civilian the bundled catalogue does not have
CITYZEN_ALICE = '''
[[card]]
name = "Cityzen Alice"
kind = "character"
class = "Civilian"
rarity = "common"
hp = 5
text = "Bob's neighbour."

[[card.attack]]
name = "Slap"
type = "Physical"
cost = 1
damage = 5
'''

#: the default deck: 50 cards, one name per position, so a draw can be traced
DEFAULT_DECK = ["Cityzen Bob"] * 10 + ["Nill"] * 10 + ["Construction Project"] * 10 + ["Hawkeye"] * 10 + \
               ["Import Clinic"] * 10


def char(name: str, hp: int | None = None, *statuses: str, combo: int = 0, attack: str = "") -> Character:
    """Return a character in play (full HP unless ``hp`` is given)."""
    full = GAME.catalogue.get(name).hp
    return Character(name, full if hp is None else hp, sorted(statuses), combo, attack)


@dataclass
class SideSpec:
    """What one player's half looks like before the test's moves."""

    cp: int = 100
    ap: int = 3
    ap_next: int = 0
    cities: tuple = ()
    chars: tuple = ()
    hand: tuple = ()
    discards: tuple = ()
    deck: tuple | None = None
    seed: str = ""


def side(*, cp=100, ap=3, ap_next=0, cities=(), chars=(), hand=(), discards=(), deck=None, seed="") -> SideSpec:
    """Describe a half: ``cities`` besides the Porter, ``chars`` as names or :func:`char` values."""
    return SideSpec(cp, ap, ap_next, tuple(cities), tuple(chars), tuple(hand), tuple(discards),
                    None if deck is None else tuple(deck), seed)


class Game:
    """A position plus the Chance that holds both players' secrets."""

    def __init__(self, state: State, chance: Chance):
        self.state = state
        self.chance = chance

    @property
    def ann(self) -> Side:
        return self.state.sides[0]

    @property
    def ben(self) -> Side:
        return self.state.sides[1]

    def play(self, player: str, text: str) -> list[str]:
        """Apply moves (joined by ';') through the game's own entry point."""
        return GAME.play(self.state, player, text, self.chance)

    def refused(self, player: str, text: str, *fragments: str) -> str:
        """Assert the moves are illegal; return the message (which must contain every fragment).

        The moves are tried on a copy (as the pipeline does), so the position is kept.
        """
        before = GAME.render(self.state)
        trial_state, trial_chance = copy.deepcopy((self.state, self.chance))
        with pytest.raises(IllegalMoveError) as err:
            GAME.play(trial_state, player, text, trial_chance)
        assert GAME.render(self.state) == before
        message = str(err.value)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in {message!r}"
        return message

    def roll(self, player: str, sides: int = 6) -> int:
        """Return the die roll ``player``'s next random event would give (without using it)."""
        sec = self.chance.secrets[player.casefold()]
        pub = self.state.meta.player(player)
        return fairplay.roll(sec.seed, pub.rolls, self.chance.beacon(player), sides)

    def char(self, player: str, name: str) -> Character:
        side = self.state.side(player)
        return next(c for c in side.characters if c.name == name)

    def render(self) -> str:
        return GAME.render(self.state)

    def reparse(self) -> State:
        """Return the state read back from the rendered board (fair-play lines left out:
        the test players have no published commitments)."""
        saved = self.state.meta.fairplay
        self.state.meta.fairplay = []
        try:
            return GAME.parse(GAME.render(self.state))
        finally:
            self.state.meta.fairplay = saved


def pos(ann: SideSpec | None = None, ben: SideSpec | None = None, *, to_move: int = 0, turn_number: int = 3,
        first: int = 0, turn: Turn | None = None, pending=(), secrets_for=None,
        match_id: str = "c0ffee01", names: tuple[str, str] = ("Ann", "Ben")) -> Game:
    """Return a position between Ann (player 1) and Ben (player 2), or the two ``names``.

    ``turn_number`` 3 by default: past both players' first turns.  ``secrets_for``
    names the players whose hands and decks this pbd can see (by default both, as in a simulation).
    """
    specs = [ann or side(), ben or side()]
    meta = Meta("cnc", match_id, [PlayerMeta(n) for n in names])
    state = State(meta, to_move=to_move, turn_number=turn_number, first=first, turn=turn or Turn(),
                  pending=list(pending))
    secrets = {}
    for name, spec in zip(names, specs):
        deck = list(spec.deck if spec.deck is not None else DEFAULT_DECK)
        chars = [c if isinstance(c, Character) else char(c) for c in spec.chars]
        cities = list(spec.cities) if PORTER in spec.cities else [PORTER, *spec.cities]
        state.sides.append(Side(name, spec.cp, spec.ap, spec.ap_next, cities, chars, list(spec.discards),
                                list(spec.hand), len(deck)))
        seed = fairplay.seed_from_text(spec.seed or f"test-{name}")
        if name in (names if secrets_for is None else secrets_for):
            secrets[name] = Secrets(match_id, name, "cnc", seed, deck, hand=list(spec.hand))
    return Game(state, Chance(meta, secrets))


def seeded_for_roll(face: int, sides: int = 6, player: str = "Ann") -> str:
    """Return a seed text whose first die roll for ``player`` is ``face`` (deterministic search)."""
    for i in range(500):
        text = f"roll-{face}-{i}"
        other = "Ben" if player == "Ann" else "Ann"
        if fairplay.roll(fairplay.seed_from_text(text), 0, fairplay.beacon_text([(other, 0, "")]), sides) == face:
            return text
    raise AssertionError(f"no seed rolls {face}")


__all__ = ["Character", "Pending", "Turn", "char", "pos", "side", "seeded_for_roll", "GAME", "PORTER"]
