"""The local text-file backend: the embedded default that needs no account."""

from __future__ import annotations

import os
import stat

from pbd.digest import fingerprint
from pbd.documents.snapshot import Snapshot
from pbd.errors import BackendError, ConflictError, DocumentFormatError, StaleRevision
from pbd.paths import locked, write_atomic

#: The largest match document pbd reads (bytes); a bigger file is refused, not read.
MAX_BYTES = 2_000_000


class LocalDocument:
    """A match document stored as a UTF-8 text file; the revision is a content hash (:func:`_revision`).

    Writes are compare-and-swap under a lock file beside the document (``.NAME.pbd-lock``,
    an OS lock that the system releases if pbd dies), so two players writing at once on a
    shared folder never lose a move: the second sees the first's write and is replayed on
    it, or told to try again.  A symbolic link is read and written through to its target.
    """

    styled = False

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self.label = str(path)

    def exists(self) -> bool:
        """Return True if the file exists and is not empty."""
        return os.path.exists(self.path) and os.stat(self.path).st_size > 0

    def read(self) -> Snapshot:
        """Return the file's text and its revision (a hash of its bytes).

        :raises BackendError: the file is missing or unreadable.
        :raises DocumentFormatError: the file is not UTF-8 text.
        """
        data = self._read_bytes()
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0   # dropped, as the "utf-8-sig" codec would (not loaded)
        try:
            text = data[bom:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DocumentFormatError(f"not UTF-8 text (byte {exc.start})", source=self.label) from None
        return Snapshot(text.replace("\r\n", "\n"), _revision(data))

    def modified(self) -> float:
        """Return when the file was last changed, as the file system reports it (seconds since the epoch).

        The time a forfeit's patience is measured by (:mod:`pbd.forfeit`), never a time typed into the text.

        :raises BackendError: the file is missing or cannot be read.
        """
        try:
            return os.stat(self.path).st_mtime
        except FileNotFoundError:
            raise BackendError(f"no such document: {self.label}") from None
        except OSError as exc:
            raise BackendError(f"cannot read {self.label}: {exc.strerror or exc}") from None

    def write(self, text: str, base: Snapshot | None, styles=None) -> Snapshot:
        """Atomically replace the file (temp file + rename) if it still hashes to ``base``, under the lock.

        ``base=None`` creates the document: it must not exist or be empty.
        ``styles`` (see :meth:`pbd.games.base.Game.styles`) mean nothing to a text file.

        :raises StaleRevision: the file changed since ``base`` was read.
        :raises ConflictError: another pbd command held the lock too long.
        :raises BackendError: the file could not be written; it is left as it was.
        """
        data = text.encode("utf-8")
        target = os.path.realpath(self.path)
        folder, name = os.path.split(target)
        try:
            with locked(os.path.join(folder, f".{name}.pbd-lock")):
                self._check(base)
                write_atomic(target, data)
        except TimeoutError:
            raise ConflictError(f"another pbd command kept {self.label} locked; nothing was written",
                                hint="try again in a moment") from None
        except OSError as exc:
            raise BackendError(f"cannot write {self.label}: {exc.strerror or exc}") from None
        return Snapshot(text, _revision(data))

    def _check(self, base: Snapshot | None) -> None:
        if base is None:
            if self.exists():
                raise StaleRevision(f"{self.label} already exists")
        elif not os.path.exists(self.path):
            raise StaleRevision(f"{self.label} was removed since it was read")
        elif _revision(self._read_bytes()) != base.revision:
            raise StaleRevision(f"{self.label} changed since it was read (someone else edited it)")

    def _read_bytes(self) -> bytes:
        try:
            info = os.stat(self.path)
            if stat.S_ISDIR(info.st_mode):
                raise BackendError(f"{self.label} is a folder, not a document")
            if not stat.S_ISREG(info.st_mode):
                raise BackendError(f"{self.label} is not a regular file (a device or pipe?); pbd does not read it")
            if info.st_size > MAX_BYTES:
                raise BackendError(f"{self.label} is larger than {MAX_BYTES // 1_000_000} MB; "
                                   "a match document is far smaller, so pbd does not read it")
            with open(self.path, "rb") as fh:
                return fh.read(MAX_BYTES + 1)
        except FileNotFoundError:
            raise BackendError(f"no such document: {self.label}") from None
        except OSError as exc:
            raise BackendError(f"cannot read {self.label}: {exc.strerror or exc}") from None


def _revision(data: bytes) -> str:
    """Return a file's revision: a hash of its bytes, compared only within one pbd process (so any hash serves).

    BLAKE2b (:func:`~pbd.digest.fingerprint`), not SHA-256: a move hashes the document three times
    (read, checked again under the lock, written), which costs a third as much.
    """
    return fingerprint(data).hex()
