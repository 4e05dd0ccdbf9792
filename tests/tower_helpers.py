"""Helpers for The Tower's tests: seat N players in process and play random legal games."""

from __future__ import annotations

import random
from pathlib import Path

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


# -- CLI tests: a real match on a file, edited between commands the way a player could -----

def start(pbd, tmp_path, n: int = 2, *extra, suffix: str = "") -> "Path":
    """Start a match of ``n`` players (Ann, Ben, ...; seeds are their names + ``suffix``) and return the document."""
    doc = tmp_path / f"match{suffix}.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--seed", f"ann{suffix}", "--players", n, *extra, ok=True)
    for name in NAMES[1:n]:
        pbd("join", doc, "--as", name, "--seed", f"{name.lower()}{suffix}", ok=True)
    return doc


def start_rolling(pbd, tmp_path, who: str, wanted, k: int, n: int = 2, *extra) -> tuple:
    """Start matches under other seeds until ``wanted(who's next k rule dice)`` holds; return ``(doc, faces, suffix)``.

    Rule dice cannot be steered once a match runs (free rolls count apart), so a test that
    needs given faces picks the seeds that give them, as a player could not.
    """
    for i in range(120):
        doc = start(pbd, tmp_path, n, *extra, suffix=f"-{i}")
        faces = upcoming(doc, who, k, suffix=f"-{i}")
        if wanted(faces):
            return doc, faces, f"-{i}"
    raise AssertionError("no seeds give such dice within 120 matches")


def edit(doc, change) -> None:
    """Rewrite the document after ``change(state)`` (tokens moved, cards put on tiles)."""
    state = GAME.parse(doc.read_text())
    change(state)
    doc.write_text(GAME.render(state))


def put(doc, tiles: dict | None = None, cards: dict | None = None) -> None:
    """Move tokens (``{"Ann": 12}``) and put cards on tiles (``{17: "Rope"}``)."""
    def change(state):
        for name, tile in (tiles or {}).items():
            state.seat(name).tile = tile
        for tile, card in (cards or {}).items():
            state.cards[tile] = [card]
    edit(doc, change)


def give(doc, name: str, *cards: str) -> None:
    """Put ``cards`` into ``name``'s hand (private state and the board's hand count together)."""
    from pbd import private

    state = GAME.parse(doc.read_text())
    sec = private.load(state.meta.match_id, name)
    sec.hand += list(cards)
    private.save(sec)
    edit(doc, lambda s: setattr(s.seat(name), "hand", s.seat(name).hand + len(cards)))


def upcoming(doc, name: str, k: int = 1, suffix: str = "") -> list[int]:
    """Return the next ``k`` dice ``name``'s pbd will roll (seed ``name.lower() + suffix``), as pbd computes them."""
    from pbd.games.base import Secrets

    state = GAME.parse(doc.read_text())
    sec = Secrets(state.meta.match_id, name, "tower", fairplay.seed_from_text(name.lower() + suffix, state.meta.match_id), [])
    chance = Chance(state.meta, {name: sec})
    return [chance.roll(name, 6) for _ in range(k)]


def draw_turn(pbd, doc, name: str = "Ann") -> None:
    """Make ``name``'s turn-opening draw."""
    pbd("move", doc, "--as", name, "draw", ok=True)


def show(pbd, doc) -> dict:
    """Return ``pbd show --json``."""
    return pbd.json("show", doc)


def tile_of(pbd, doc, name: str) -> int:
    """Return where ``name``'s token is."""
    return next(p["tile"] for p in show(pbd, doc)["players"] if p["name"] == name)
