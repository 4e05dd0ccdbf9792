"""Where pbd keeps private state and finds its bundled templates and decks."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def home() -> Path:
    """Return PBD_HOME, the private state folder (created on demand by writers)."""
    return _home(os.environ.get("PBD_HOME"))


@lru_cache(maxsize=8)
def _home(env: str | None) -> Path:
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "pbd"


def resource_dir(name: str) -> Path:
    """Return the bundled ``templates`` or ``decks`` folder.

    In a wheel they are installed inside the package; in a source checkout
    (editable install) they stay at the top level beside ``pbd/``.
    """
    inside = _PKG / name
    return inside if inside.is_dir() else _PKG.parent / name
