"""Random legal play of any registered game, in process (contract tests, benchmarks).

Both players' secrets are held, so every draw is real; no document is involved.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pbd import fairplay
from pbd.games.base import Chance

#: how much more likely a random player is to pick a move starting with these words
WEIGHTS = {"end": 1.0, "withdraw": 0.2, "discard": 0.3}


def seat(game, rng: random.Random, decks: tuple[str, str] | None = None, options: dict | None = None):
    """Return ``(state, chance)`` for a new two-player match between Ann and Ben."""
    if decks is None:
        pool = game.sample_decks()
        decks = tuple(rng.sample(pool, 2)) if len(pool) > 1 else (pool[0], pool[0])
    match_id = f"{rng.getrandbits(32):08x}"
    seeds = [fairplay.seed_from_text(f"{rng.random()}", match_id) for _ in range(2)]
    state, ann = game.create(match_id, "Ann", decks[0], seeds[0], dict(options or {}))
    state, ben = game.join(state, "Ben", decks[1], seeds[1])
    return state, Chance(state.meta, {"Ann": ann, "Ben": ben})


def pick(moves: list, rng: random.Random) -> str | None:
    """Return a random move, weighting away from ending the turn and giving cards up."""
    if moves == [None]:
        return None
    weights = [WEIGHTS.get(m.split()[0].lower(), 3.0) for m in moves]
    return rng.choices(moves, weights)[0]


def random_game(game, rng: random.Random, max_moves: int = 3000, exhaustive: bool = True,
                **seat_args) -> Iterator[tuple]:
    """Play random legal moves until the match ends; yield ``(state, player, move)`` after each.

    ``exhaustive`` lists every legal move before picking one (what ``pbd legal`` does);
    otherwise candidates are tried in random order until one is legal, which is much
    faster and picks among the same moves.
    """
    state, chance = seat(game, rng, **seat_args)
    for _ in range(max_moves):
        actors = game.actors(state)
        if not actors:
            return
        player = actors[0]
        if game.pending(state, player) and game.settle(state, player, chance):   # as the pipeline does
            continue
        move = (pick(game.legal(state, player) or [None], rng) if exhaustive
                else _first_legal(game, state, player, rng))
        if move is None:
            return
        game.play(state, player, move, chance)
        yield state, player, move


def _first_legal(game, state, player: str, rng: random.Random) -> str | None:
    moves = game.candidates(state, player)
    while moves:
        move = pick(moves, rng)
        if game.is_legal(state, player, move):
            return move
        moves.remove(move)
    return None
