"""No game under ``pbd/games/`` overrides ``replay`` (issue 28, part 1): the table's base replays them all.

Every game package under ``pbd/games/`` is listed here by walking the folder, so a game added later
is checked too.  Each class of the game's own package in its ``GAME``'s class hierarchy is looked at:
``'replay' in vars(cls)`` means the game defines ``replay`` itself.

This test must pass in full once both branches of issue 28's point 1 have landed: ``replay-bt``
(Boys' Town) and ``replay-cc`` (C&C and Twin Tower City).  Until ``replay-cc`` lands, those two
games are marked xfail by name (strict: the mark must be taken off when they stop overriding).
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import pbd.games

#: the games another branch (replay-cc) takes off their own replay; remove once it lands
PENDING = {"cnc": "C&C's own replay goes on branch replay-cc (issue 28.1)",
           "ttc": "Twin Tower City's own replay goes on branch replay-cc (issue 28.1)"}


def _packages() -> list[str]:
    """Return the name of every game package under pbd/games/."""
    return sorted(m.name for m in pkgutil.iter_modules(pbd.games.__path__) if m.ispkg)


def _params():
    return [pytest.param(name, marks=pytest.mark.xfail(reason=PENDING[name], strict=True)) if name in PENDING
            else name for name in _packages()]


def test_the_packages_are_found():
    assert {"boystown", "tower", "twoxd6"} <= set(_packages())


@pytest.mark.parametrize("package", _params())
def test_no_game_under_pbd_games_defines_replay(package):
    module = importlib.import_module(f"pbd.games.{package}")
    own = [cls for cls in type(module.GAME).__mro__ if cls.__module__.startswith(f"pbd.games.{package}")]
    assert own, f"{package}: GAME's class is not the package's own"
    defines = [cls.__qualname__ for cls in own if "replay" in vars(cls)]
    assert not defines, f"{package}: {', '.join(defines)} defines replay (the table's base replays every game)"
