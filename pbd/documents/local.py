"""The local text-file backend: the embedded default that needs no account."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pbd.documents import Snapshot
from pbd.paths import write_atomic
from pbd.errors import BackendError, DocumentFormatError, StaleRevision


class LocalDocument:
    """A match document stored as a UTF-8 text file; the revision is a content hash."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.label = str(path)

    def exists(self) -> bool:
        """Return True if the file exists and is not empty."""
        return self.path.exists() and self.path.stat().st_size > 0

    def read(self) -> Snapshot:
        """Return the file's text and the SHA-256 of its bytes.

        :raises BackendError: the file is missing or unreadable.
        :raises DocumentFormatError: the file is not UTF-8 text.
        """
        data = self._read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DocumentFormatError(f"not UTF-8 text (byte {exc.start})", source=self.label) from None
        return Snapshot(text.replace("\r\n", "\n"), _digest(data))

    def write(self, text: str, base: Snapshot | None, styles=None) -> Snapshot:
        """Atomically replace the file (temp file + rename) if it still hashes to ``base``.

        ``base=None`` creates the document: it must not exist or be empty.
        ``styles`` (see :meth:`pbd.games.base.Game.styles`) mean nothing to a text file.

        :raises StaleRevision: the file changed since ``base`` was read.
        :raises BackendError: the file could not be written; it is left as it was.
        """
        if base is None:
            if self.exists():
                raise StaleRevision(f"{self.label} already exists")
        elif not self.path.exists():
            raise StaleRevision(f"{self.label} was removed since it was read")
        elif _digest(self._read_bytes()) != base.revision:
            raise StaleRevision(f"{self.label} changed since it was read (someone else edited it)")
        data = text.encode("utf-8")
        try:
            write_atomic(self.path, data)
        except OSError as exc:
            raise BackendError(f"cannot write {self.label}: {exc.strerror or exc}") from None
        return Snapshot(text, _digest(data))

    def _read_bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            raise BackendError(f"no such document: {self.label}") from None
        except IsADirectoryError:
            raise BackendError(f"{self.label} is a folder, not a document") from None
        except OSError as exc:
            raise BackendError(f"cannot read {self.label}: {exc.strerror or exc}") from None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
