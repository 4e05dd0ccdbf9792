"""Random legal play of any registered game, in process (contract tests, benchmarks).

Every seat's secrets are held, so every draw is real; no document is involved.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pbd import fairplay
from pbd.games.base import Chance



#: the names simulated seats take, in seat order
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def seat(game, rng: random.Random, decks: tuple[str, ...] | None = None, options: dict | None = None,
         players: int = 2):
    """Return ``(state, chance)`` for a new match of ``players`` seats (Ann, Ben, Cy, ...), every one joined.

    ``--players`` reaches the game as ``options["players"]`` when it is not 2, as on the CLI.
    """
    if decks is None:
        pool = game.sample_decks() or [None]
        decks = tuple(rng.choice(pool) for _ in range(players))
    options = dict(options or {})
    if players != 2:
        options.setdefault("players", players)
    names = NAMES[:players]
    match_id = f"{rng.getrandbits(32):08x}"
    seeds = [fairplay.seed_from_text(f"{rng.random()}", match_id) for _ in names]
    state, sec = game.create(match_id, names[0], decks[0], seeds[0], options)
    held = {names[0]: sec}
    for name, deck, seed in zip(names[1:], decks[1:], seeds[1:]):
        state, held[name] = game.join(state, name, deck if game.join_needs_deck else None, seed)
    return state, Chance(state.meta, held)


def pick(moves: list, rng: random.Random, weights: dict[str, float] | None = None) -> str | None:
    """Return a random move, each as likely as the game's ``move_weights`` say for its first word.

    ``weights`` maps a move's first word to its weight, ``"*"`` to the weight of every
    other word (1 when absent): C&C weights away from ending the turn and giving cards up.
    """
    if moves == [None]:
        return None
    weights = weights or {}
    other = weights.get("*", 1.0)
    return rng.choices(moves, [weights.get(m.split()[0].lower(), other) for m in moves])[0]


def random_game(game, rng: random.Random, max_moves: int = 3000, exhaustive: bool = True, choose=None,
                **seat_args) -> Iterator[tuple]:
    """Play random legal moves until the match ends; yield ``(state, player, move)`` after each.

    The mover is the first seat to move (:meth:`actors`) that has a legal move: in team
    play a side moves, and a member out of cards passes the move to the next.

    ``exhaustive`` lists every legal move before picking one (what ``pbd legal`` does);
    otherwise candidates are tried in random order until one is legal, which is much
    faster and picks among the same moves.  ``choose(moves, rng)`` picks among the listed
    moves instead of :func:`pick` (the soak weights rare kinds up: :func:`pbd.soak.pick`).
    """
    state, chance = seat(game, rng, **seat_args)
    yield from play_random(game, state, chance, rng, max_moves, exhaustive, choose)


def play_random(game, state, chance, rng: random.Random, max_moves: int = 3000, exhaustive: bool = True,
                choose=None) -> Iterator[tuple]:
    """Play random legal moves on a seated match (:func:`seat`) until it ends: see :func:`random_game`."""
    for _ in range(max_moves):
        settle_all(game, state, chance)
        for player in game.actors(state):
            if choose is not None:
                listed = game.legal(state, player)
                move = choose(listed, rng) if listed else None
            else:
                move = (pick(game.legal(state, player) or [None], rng, game.move_weights) if exhaustive
                        else _first_legal(game, state, player, rng))
            if move is not None:
                break
        else:
            return
        game.play(state, player, move, chance)
        yield state, player, move


def settle_all(game, state, chance) -> None:
    """Do the work every seat owes (unlocks, a chain value a die waits on), as their pbds would on their next commands."""
    for _ in range(4 * len(game.player_names(state)) + 1):  # one seat's work may leave another some
        owing = [p for p in game.actors(state) if game.pending(state, p)]
        if not owing:
            break
        for player in owing:  # what that seat's pbd does on its next command
            game.settle(state, player, chance)


def _first_legal(game, state, player: str, rng: random.Random) -> str | None:
    moves = game.candidates(state, player)
    while moves:
        move = pick(moves, rng, game.move_weights)
        if game.is_legal(state, player, move):
            return move
        moves.remove(move)
    return None
