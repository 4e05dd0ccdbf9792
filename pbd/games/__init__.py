"""The game registry: every game, built-in or third-party, registers an entry point.

A package adds a game by declaring, in its pyproject.toml::

    [project.entry-points."pbd.games"]
    mygame = "mypackage.mygame:GAME"

where ``GAME`` is an instance of :class:`pbd.games.base.Game`.
"""

from __future__ import annotations

import difflib
from functools import cache
from importlib.metadata import entry_points

from pbd.errors import UnknownNameError

GROUP = "pbd.games"


@cache
def _entry_points() -> dict:
    return {ep.name: ep for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)}


@cache
def _load(name: str):
    return _entry_points()[name].load()


def games():
    """Yield every installed game, importing each only when it is reached (start-up stays light)."""
    for name in _entry_points():
        yield _load(name)


def registry() -> dict:
    """Return ``{name: Game}`` for every installed game."""
    return {game.name: game for game in games()}


def get(name: str):
    """Return the game called ``name`` (or one of its aliases), case-insensitively.

    :raises UnknownNameError: no such game; suggests close names.
    """
    key = name.strip().lower()
    if key in _entry_points():
        return _load(key)
    games = registry()
    for game in games.values():
        if key == game.name or key in game.aliases:
            return game
    names = [*games, *(a for g in games.values() for a in g.aliases)]
    raise UnknownNameError("game", name, difflib.get_close_matches(key, names, n=3) or list(games))
