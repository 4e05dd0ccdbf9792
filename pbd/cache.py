"""Parsed files kept under ``PBD_HOME/cache``, keyed by the file's content, so commands start fast.

Reading a TOML catalogue and checking it card by card costs more than the rest of a
command, and the same file is read by every command.  :func:`cached` keeps what a
parse returned in a file whose name carries a hash (:func:`~pbd.digest.fingerprint`) of the file's bytes: an
edited file has a new key, so a stale entry is never read, and the entry left by the
old content of the same file is removed when the new one is written.

An entry is a pickle, and it is never trusted blindly: it is used only if it starts
with this format's magic line, its payload matches the digest stored beside it, it
names no class but the ones its caller allows (never a function, so loading it runs
no code of its choosing), the classes' own source files are the ones it was made
with, and it loads into the type the caller expects.  Anything else (truncated, corrupt, edited, from
another version of pbd) is a miss: the file is parsed again and the entry rewritten.
A cache that cannot be written (read-only ``PBD_HOME``) is skipped silently; the
result is the same, only slower.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from contextlib import contextmanager
from typing import TypeVar

from pbd import paths
from pbd.digest import fingerprint, sha256

try:  # the C pickler alone: importing the pickle module costs a command more than using it
    import _pickle as pickle
except ImportError:  # pragma: no cover - Pythons without the C accelerator
    import pickle

T = TypeVar("T")
PROTOCOL = 5
MAGIC = b"pbd-cache-v2\n"       # (v2: BLAKE2b keys and checks; records pickled attribute by attribute)
_DIGEST = 32
#: set while a command that promises to write nothing runs (:func:`writing_nothing`)
_READ_ONLY = False
#: set once :func:`writing_nothing` was entered in this process: the points it checked are not written at its end
_PROMISED = False


class _Unpickler(pickle.Unpickler):
    """An unpickler that finds only the classes it is given (nothing callable besides them)."""

    def __init__(self, data: bytes, allowed: dict[str, type]):
        super().__init__(io.BytesIO(data))
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        found = self.allowed.get(f"{module}.{name}")
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a pbd cache")
        return found


@contextmanager
def writing_nothing():
    """Within: entries are read as usual but none is written (``pbd move --dry-run`` leaves PBD_HOME as it was)."""
    global _READ_ONLY, _PROMISED
    before, _READ_ONLY, _PROMISED = _READ_ONLY, True, True
    try:
        yield
    finally:
        _READ_ONLY = before


def writable() -> bool:
    """Return False while :func:`writing_nothing` holds (then nothing may be added to the cache)."""
    return not _READ_ONLY


def folder() -> str:
    """Return the cache folder (``PBD_HOME/cache``)."""
    return os.path.join(paths.home(), "cache")


def _code_stamp(classes: tuple[type, ...]) -> str:
    """Return what identifies the code of ``classes`` (size and time of their modules' files)."""
    out = []
    for module in sorted({cls.__module__ for cls in classes}):
        try:
            st = os.stat(sys.modules[module].__file__)
            out.append(f"{module}:{st.st_size}:{st.st_mtime_ns}")
        except (KeyError, TypeError, OSError):
            out.append(f"{module}:?")
    return "|".join(out)


def cached(kind: str, source: str, data: bytes, parse: Callable[[], T], classes: tuple[type, ...],
           expect: type, keep: int = 1) -> T:
    """Return ``parse()`` for the file ``source`` whose bytes are ``data``, from the cache when it holds it.

    ``kind`` names what is parsed (and how: a flag that changes the result belongs in
    it); ``classes`` are the only classes the result may contain; the result must be
    an ``expect``.  Errors raised by ``parse`` propagate and nothing is cached.  ``keep``:
    how many contents of the same ``source`` stay cached (the newest; a match document keeps
    two, see :func:`pbd.match.parse_board`).

    :raises PbdError: whatever ``parse`` raises.
    """
    path, prefix = _entry(kind, source, data, classes)
    allowed = {_name(cls): cls for cls in classes}
    hit = _read(path, allowed, expect)
    if hit is not None:
        return hit
    value = parse()
    payload = _write(path, value, prefix, keep)
    # what is used is what the cache gives, written or read: pickling an instance asks for its
    # ``__dict__``, after which CPython reads its attributes the slow way (see pbd.record)
    if payload is None:
        return value
    try:
        return _Unpickler(payload, allowed).load()
    except pickle.UnpicklingError:      # it holds a class the caller did not list: never read it back
        _drop(path)
        return value


def _entry(kind: str, source: str, data: bytes, classes: tuple[type, ...]) -> tuple[str, str]:
    """Return the path of the entry :func:`cached` keeps for these bytes, and the prefix of every entry of ``source``."""
    stamp = _code_stamp(classes)
    key = fingerprint(b"\0".join([MAGIC, kind.encode(), stamp.encode(), data])).hex()
    # (SHA-256 as before: entries an older pbd left for the same file still share the prefix and are removed)
    where = sha256(f"{kind}\0{os.path.abspath(source)}".encode()).hexdigest()[:12]
    return os.path.join(folder(), f"{kind}-{where}-{key[:32]}.cache"), f"{kind}-{where}-"


def holds(kind: str, source: str, data: bytes, classes: tuple[type, ...]) -> bool:
    """Return True if :func:`cached` finds an entry for these bytes (one that turns out unsound is a miss even so)."""
    return os.path.exists(_entry(kind, source, data, classes)[0])


def _drop(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _read(path: str, allowed: dict[str, type], expect: type):
    """Return the entry at ``path`` if it is sound, else None (a miss)."""
    try:
        with open(path, "rb") as fh:
            blob = fh.read()
    except OSError:
        return None
    head = len(MAGIC) + _DIGEST
    if not blob.startswith(MAGIC) or fingerprint(blob[head:]) != blob[len(MAGIC):head]:
        return None
    try:
        value = _Unpickler(blob[head:], allowed).load()
    except Exception:  # a damaged entry is a miss, whatever the unpickler makes of it
        return None
    return value if isinstance(value, expect) else None


def _write(path: str, value, prefix: str, keep: int = 1) -> bytes | None:
    """Store ``value`` at ``path`` and drop the entries of the same file's older content but the newest
    ``keep - 1``; never fail.

    Return the pickle of ``value`` (written or not), None if there is none.
    """
    if _READ_ONLY:
        return None
    try:
        payload = pickle.dumps(value, protocol=PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    folder_ = os.path.dirname(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder_, mode=0o700, exist_ok=True)
        older = [os.path.join(folder_, name) for name in os.listdir(folder_)
                 if name.startswith(prefix) and name != os.path.basename(path) and not name.endswith(".tmp")]
        if len(older) >= keep:
            older.sort(key=os.path.getmtime, reverse=True)
            for name in older[keep - 1:]:
                os.unlink(name)
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + fingerprint(payload) + payload)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return payload


#: The file of group elements this machine found to be valid, and how many it keeps.
POINTS = "points.bin"
POINTS_MAX = 8192
_POINT = 32
#: The file of the proofs this machine found to hold (32-byte digests of their statements: :func:`recall_proofs`).
PROOFS = "proofs.bin"
_recalled: dict[str, set] = {}


def recall_proofs(known: set) -> None:
    """Fill ``known`` with the digests of the unlock proofs earlier commands on this machine verified, once a process.

    A read-only command checks again every proof other seats wrote since this seat's last write
    (four scalar multiplications each, about 1 ms): :func:`pbd.table.group.verify` adds the
    digest of every statement it found to hold to ``known`` and skips the check for one already
    in it.  Kept as :func:`recall_points` keeps the points: this machine's own checks only, in
    its own PBD_HOME, written back at the end of the process, a damaged file ignored.
    """
    _recall(known, PROOFS)


def recall_points(known: set) -> None:
    """Fill ``known`` with the 32-byte group elements earlier commands on this machine found valid, once a process.

    Testing that a number read from a document is a point of the dealing group costs about as
    much as a scalar multiplication, and a table game's document holds a hundred or more numbers,
    most of them there at the last command too: :func:`pbd.table.group.is_member` adds every
    number it accepts to ``known`` and skips the test for one already in it.  What is added is
    written back when the process ends (the file carries a digest; a damaged one is ignored and
    rewritten).  Only this machine's own checks are kept, in its own PBD_HOME.
    """
    _recall(known, POINTS)


def _recall(known: set, name: str) -> None:
    """Fill ``known`` with the 32-byte items of the file ``name`` (once a process); write it back at exit if it grew."""
    if name in _recalled:
        return
    _recalled[name] = known
    path = os.path.join(folder(), name)
    try:
        with open(path, "rb") as fh:
            blob = fh.read()
    except OSError:
        blob = b""
    head = len(MAGIC) + _DIGEST
    body = blob[head:]
    if blob.startswith(MAGIC) and len(body) % _POINT == 0 and fingerprint(body) == blob[len(MAGIC):head]:
        known.update(body[i:i + _POINT] for i in range(0, len(body), _POINT))
    before = len(known)
    import atexit

    atexit.register(_keep_points, known, before, path)


def _keep_points(known: set, before: int, path: str) -> None:
    """Write ``known`` back to ``path`` if it grew (at most :data:`POINTS_MAX` of them); never fail."""
    if len(known) == before or _READ_ONLY or _PROMISED:
        return
    body = b"".join(list(known)[:POINTS_MAX])
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + fingerprint(body) + body)
        os.replace(tmp, path)
    except OSError:
        _drop(tmp)
