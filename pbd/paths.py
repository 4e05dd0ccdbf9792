"""Where pbd keeps private state and finds its bundled templates and decks; safe file writes and locks.

Paths here are plain strings built with :mod:`os.path` (a :class:`~pathlib.Path` is accepted
wherever a path is taken): every command passes through this module, and importing
:mod:`pathlib` (with ``urllib.parse`` and ``ipaddress``) would cost each one about 5 ms.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

_PKG = os.path.dirname(os.path.realpath(__file__))

#: How long a command waits for another pbd command holding the same lock (seconds).
LOCK_WAIT = 15.0


def home() -> str:
    """Return PBD_HOME, the private state folder (created on demand by writers)."""
    return _home(os.environ.get("PBD_HOME"))


@lru_cache(maxsize=8)
def _home(env: str | None) -> str:
    if env:
        return os.path.expanduser(env)
    user = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("APPDATA", os.path.join(user, "AppData", "Roaming"))
    elif sys.platform == "darwin":
        base = os.path.join(user, "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME", os.path.join(user, ".local", "share"))
    return os.path.join(base, "pbd")


def resource(name: str, *parts: str) -> str:
    """Return a path inside the bundled ``templates`` or ``decks`` folder (``parts`` joined on).

    In a wheel they are installed inside the package; in a source checkout
    (editable install) they stay at the top level beside ``pbd/``.
    """
    inside = os.path.join(_PKG, name)
    return os.path.join(inside if os.path.isdir(inside) else os.path.join(os.path.dirname(_PKG), name), *parts)


def resource_dir(name: str) -> Path:
    """Return the bundled ``templates`` or ``decks`` folder as a :class:`~pathlib.Path` (see :func:`resource`)."""
    from pathlib import Path

    return Path(resource(name))


def shared_mode() -> int:
    """Return the permissions a new shared file gets: 0666 less the user's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str | Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once (temp file, fsync, rename); never half-written.

    ``mode`` sets the permissions (0o600 for secrets); by default an existing file keeps
    its own and a new file takes the user's umask, as any file the user creates.  A
    symbolic link is written through: its target is replaced, the link stays.

    :raises OSError: the file cannot be written; whatever was there is left as it was.
    """
    path = os.path.realpath(path)
    fd, tmp = _temp_file(path)
    try:
        if mode is None:
            mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else shared_mode()
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


def _temp_file(path: str) -> tuple[int, str]:
    """Create and open a new file beside ``path``, readable by its owner only (as ``tempfile.mkstemp``).

    Not ``tempfile`` itself: importing it (with shutil and random) costs a command more than the write.

    :raises OSError: no file can be created there.
    """
    for _ in range(100):
        folder, name = os.path.split(path)
        tmp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _TEMP_FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name beside {path}")


def private_dir(path: str | Path) -> str:
    """Create ``path`` and every missing folder up to PBD_HOME with owner-only permissions (0700).

    :raises OSError: it cannot be created.
    """
    path = os.path.abspath(path)
    root = os.path.abspath(home())
    missing = []
    folder = path
    while not os.path.exists(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for folder in reversed(missing):
        ours = folder == root or folder.startswith(os.path.join(root, ""))
        try:
            os.mkdir(folder, 0o700 if ours else 0o777)
        except FileExistsError:
            if not os.path.isdir(folder):
                raise
        if ours:
            os.chmod(folder, 0o700)  # mkdir's mode is cut by the umask
    return path


def write_private(path: str | Path, data: bytes) -> None:
    """Write a secret file (mode 0600) atomically, creating its private folders (0700) if needed.

    :raises OSError: it cannot be written.
    """
    private_dir(os.path.dirname(os.path.abspath(path)))
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
def locked(path: str | Path, wait: float | None = None):
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


def _same_file(fd: int, path: str | Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False
