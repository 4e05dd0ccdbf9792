"""Helpers for The Tower's tests: seat N players in process and play random legal games."""

from __future__ import annotations

import random

from pbd import fairplay
from pbd.games.base import Chance
from pbd.games.tower import GAME

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def seat(n: int, rng: random.Random, **options):
    """Return ``(state, chance)`` of a started match of ``n`` players whose secrets we all hold."""
    seeds = [fairplay.seed_from_text(f"{rng.random()}") for _ in range(n)]
    state, first = GAME.create(f"{rng.getrandbits(32):08x}", NAMES[0], None, seeds[0], {"players": n, **options})
    secrets = {NAMES[0]: first}
    for name, seed in zip(NAMES[1:n], seeds[1:]):
        state, secrets[name] = GAME.join(state, name, None, seed)
    return state, Chance(state.meta, secrets)


def random_game(n: int, seed: int, max_moves: int = 5000, **options):
    """Play random legal moves to the end; yield ``(state, player, move)`` after each."""
    rng = random.Random(seed)
    state, chance = seat(n, rng, **options)
    for _ in range(max_moves):
        actors = GAME.actors(state)
        if not actors:
            return
        player = actors[0]
        moves = GAME.legal(state, player)
        assert moves, f"{player} must act but has no legal move"
        weights = [0.3 if m.startswith("play") and " on " in m else 1.0 for m in moves]
        move = rng.choices(moves, weights)[0]
        GAME.play(state, player, move, chance)
        yield state, player, move
