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


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once (temp file, fsync, rename); never half-written.

    ``mode`` sets the permissions (0o600 for secrets); by default an existing file keeps its own.

    :raises OSError: the file cannot be written; whatever was there is left as it was.
    """
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode is None and path.exists():
            mode = path.stat().st_mode & 0o777
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_private(path: Path, data: bytes) -> None:
    """Write a secret file (mode 0600) atomically, creating its private folder (0700) if needed.

    :raises OSError: it cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_atomic(path, data, mode=0o600)
