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
    "2xd6": ("pbd.games.twoxd6", "2Xd6", ("2x-d6", "twoxd6", "2xd6")),
    "tower": ("pbd.games.tower", "The Tower", ("the-tower", "thetower", "the tower")),
    "boystown": ("pbd.games.boystown", "Boys' Town", ("boys-town", "boys town", "boys' town")),
}

#: The hooks a game must define itself (the base only says it is missing them): a board-only game
#: (``pbd template``, ``show``, ``check``) needs the first three; a playable one all of them.
REQUIRED = ("template", "parse", "render", "create", "join", "attach", "detach", "play", "legal", "problems",
            "describe", "hand", "player_names", "deck_check", "status", "actors")


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
    """Return the game an entry point names, checked (see :func:`problems`).

    :raises UsageError: it cannot be imported, or it is not a complete game (naming what is missing).
    """
    from pbd.errors import UsageError

    ep = _entry_points()[name]
    try:
        game = ep.load()
    except Exception as exc:  # a third party's bug: name it, never exit 70
        raise UsageError(f"the game {name!r} ({ep.value}) cannot be loaded: {type(exc).__name__}: {exc}") from None
    found = problems(game)
    if found:
        raise UsageError(f"the game {name!r} ({ep.value}) is not a complete pbd game: {'; '.join(found)}",
                         hint="see docs/writing-a-game.md") from None
    return game


def problems(game) -> list[str]:
    """Return what keeps ``game`` from being a pbd game: not a Playable, no name or title, hooks it lacks."""
    from pbd.games.base import Game, Playable

    if not isinstance(game, Game):
        return [f"GAME is a {type(game).__name__}, not a pbd game (subclass pbd.table.game.CardGame)"]
    out = [f"it has no {attr}" for attr in ("name", "title") if not getattr(game, attr, "")]
    base, hooks = (Playable, REQUIRED) if isinstance(game, Playable) else (Game, REQUIRED[:3])
    missing = [hook for hook in hooks if getattr(type(game), hook) is getattr(base, hook)]
    if missing:
        out.append("it does not define " + ", ".join(missing))
    return out


def broken() -> dict[str, str]:
    """Return ``{name: why}`` for every installed game that cannot be loaded."""
    from pbd.errors import PbdError

    out = {}
    for name in _entry_points():
        try:
            _plugin(name)
        except PbdError as exc:
            out[name] = exc.message
    return out


def _plugins():
    for name in _entry_points():
        try:
            yield _plugin(name)
        except Exception:  # listed by broken(); a broken plugin never hides the others
            continue


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
