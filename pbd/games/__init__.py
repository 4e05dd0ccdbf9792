"""The game registry: the games pbd ships, plus every game another package registers.

A package adds a game by declaring, in its pyproject.toml::

    [project.entry-points."pbd.games"]
    mygame = "mypackage.mygame:GAME"

where ``GAME`` is an instance of :class:`pbd.games.base.Game`.

The games shipped with pbd are listed in :data:`BUNDLED` with their titles and
aliases, so a command finds its game without reading entry points (importing
:mod:`importlib.metadata` and scanning every installed package costs more than the
rest of a command) and imports only that game.  Entry points are read only for a
name or title no bundled game has, for a board no bundled game recognises, and for
the full list (``pbd games``).
"""

from __future__ import annotations

from functools import cache

GROUP = "pbd.games"

#: name -> (module holding ``GAME``, title, aliases) of every game shipped with pbd; the
#: same ``module:GAME`` is declared under the ``pbd.games`` entry points in pyproject.toml
#: (tests/test_registry.py checks that the two agree and match the loaded game).
BUNDLED: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "cnc": ("pbd.games.cnc", "C&C Trading Card Game", ("c&c", "cnc-tcg", "candc")),
    "ttc": ("pbd.games.ttc", "Twin Tower City", ("twin-tower-city", "twintowercity", "twin tower city")),
}


@cache
def _bundled(name: str):
    from importlib import import_module

    return import_module(BUNDLED[name][0]).GAME


@cache
def _entry_points() -> dict:
    """Return ``{name: entry point}`` of the games other packages register (bundled names excluded)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
            if ep.name not in BUNDLED}


@cache
def _plugin(name: str):
    return _entry_points()[name].load()


def _plugins():
    for name in _entry_points():
        yield _plugin(name)


def games():
    """Yield every installed game, the bundled ones first, importing each only when it is reached."""
    for name in BUNDLED:
        yield _bundled(name)
    yield from _plugins()


def registry() -> dict:
    """Return ``{name: Game}`` for every installed game, sorted by name."""
    return {game.name: game for game in sorted(games(), key=lambda g: g.name)}


def _bundled_named(key: str):
    """Return the bundled game whose name, alias or title is ``key`` (folded), or None."""
    for name, (_, title, aliases) in BUNDLED.items():
        if key == name or key in aliases or key == title.casefold():
            return _bundled(name)
    return None


def get(name: str):
    """Return the game called ``name`` (or one of its aliases), case-insensitively.

    :raises UnknownNameError: no such game; suggests close names.
    """
    key = name.strip().casefold()
    game = _bundled_named(key)
    if game is not None:
        return game
    if key in _entry_points():
        return _plugin(key)
    found = registry()
    for game in found.values():
        if key == game.name or key in game.aliases:
            return game
    import difflib

    from pbd.errors import UnknownNameError

    names = [*found, *(a for g in found.values() for a in g.aliases)]
    raise UnknownNameError("game", name, difflib.get_close_matches(key, names, n=3) or list(found))


def by_title(title: str):
    """Return the game whose title (or name) a document's title line gives, or None if none has it."""
    key = title.strip().casefold()
    for name, (_, bundled_title, _) in BUNDLED.items():
        if key in (bundled_title.casefold(), name):
            return _bundled(name)
    return next((g for g in _plugins() if key in (g.title.casefold(), g.name)), None)
