"""Where pbd keeps private state and finds its bundled templates and decks; safe file writes and locks."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent

#: How long a command waits for another pbd command holding the same lock (seconds).
LOCK_WAIT = 15.0


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


def shared_mode() -> int:
    """Return the permissions a new shared file gets: 0666 less the user's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once (temp file, fsync, rename); never half-written.

    ``mode`` sets the permissions (0o600 for secrets); by default an existing file keeps
    its own and a new file takes the user's umask, as any file the user creates.  A
    symbolic link is written through: its target is replaced, the link stays.

    :raises OSError: the file cannot be written; whatever was there is left as it was.
    """
    path = Path(os.path.realpath(path))
    fd, tmp = _temp_file(path)
    try:
        if mode is None:
            mode = path.stat().st_mode & 0o777 if path.exists() else shared_mode()
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)  # os.chmod, not os.fchmod: the latter is missing on Windows before 3.13
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


_TEMP_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def _temp_file(path: Path) -> tuple[int, str]:
    """Create and open a new file beside ``path``, readable by its owner only (as ``tempfile.mkstemp``).

    Not ``tempfile`` itself: importing it (with shutil and random) costs a command more than the write.

    :raises OSError: no file can be created there.
    """
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _TEMP_FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name beside {path}")


def private_dir(path: Path) -> Path:
    """Create ``path`` and every missing folder up to PBD_HOME with owner-only permissions (0700).

    :raises OSError: it cannot be created.
    """
    root = home()
    missing = []
    for folder in [path, *path.parents]:
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):
        ours = folder == root or root in folder.parents
        folder.mkdir(mode=0o700 if ours else 0o777, exist_ok=True)
        if ours:
            os.chmod(folder, 0o700)  # mkdir's mode is cut by the umask
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write a secret file (mode 0600) atomically, creating its private folders (0700) if needed.

    :raises OSError: it cannot be written.
    """
    private_dir(path.parent)
    write_atomic(path, data, mode=0o600)


# -- locks --------------------------------------------------------------------------------

def _try_lock(fd: int) -> bool:
    """Take an exclusive OS lock on an open file without waiting; return False if another holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


@contextmanager
def locked(path: Path, wait: float | None = None):
    """Hold an exclusive lock named by the file ``path`` for the block (created, and removed after).

    The lock is an OS lock (``flock``, ``msvcrt.locking`` on Windows) on that file, so a
    holder that dies releases it; after taking it we check that the file is still the
    one at ``path`` (a holder that finished may have removed it), else we try again.

    :raises TimeoutError: another holder kept it for ``wait`` seconds (default :data:`LOCK_WAIT`).
    :raises OSError: the lock file cannot be created.
    """
    deadline = time.monotonic() + (LOCK_WAIT if wait is None else wait)
    pause = 0.002
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        if _try_lock(fd) and _same_file(fd, path):
            break
        os.close(fd)
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} is held by another pbd command")
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
    try:
        yield
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass  # Windows keeps an open file; the next holder reuses it
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False
