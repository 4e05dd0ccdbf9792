"""No game under ``pbd/games/`` overrides ``replay`` (issue 28, part 1): the table's base replays them all.

Every game package under ``pbd/games/`` is listed here by walking the folder, so a game added later
is checked too.  Each class of the game's own package in its ``GAME``'s class hierarchy is looked at:
``'replay' in vars(cls)`` means the game defines ``replay`` itself (and a ``_replay…`` method would be
one under another name).
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import pbd.games

def _packages() -> list[str]:
    """Return the name of every game package under pbd/games/."""
    return sorted(m.name for m in pkgutil.iter_modules(pbd.games.__path__) if m.ispkg)


def test_the_packages_are_found():
    assert {"boystown", "tower", "twoxd6"} <= set(_packages())


@pytest.mark.parametrize("package", _packages())
def test_no_game_under_pbd_games_defines_replay(package):
    module = importlib.import_module(f"pbd.games.{package}")
    own = [cls for cls in type(module.GAME).__mro__ if cls.__module__.startswith(f"pbd.games.{package}")]
    assert own, f"{package}: GAME's class is not the package's own"
    defines = [f"{cls.__qualname__}.{attr}" for cls in own for attr in vars(cls)
               if attr == "replay" or attr.startswith("_replay")]
    assert not defines, f"{package}: {', '.join(defines)} replays by itself (the table's base replays every game)"
