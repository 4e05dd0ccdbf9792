"""Reading a small UTF-8 text file a player names (a deck list, a catalogue), bounded and with clear errors.

Kept apart from :mod:`pbd.decks` so that reading the bundled catalogue (every C&C command)
does not load the deck-list machinery.
"""

from __future__ import annotations

import os
import stat

from pbd.errors import DeckFormatError


def read_text_file(path: str | os.PathLike, what: str, limit: int = 1_000_000) -> str:
    """Return a deck list's or catalogue's text, refusing what is not a small UTF-8 regular file.

    Errors name the file and what is wrong, never its contents.

    :raises DeckFormatError: missing, not a regular file, too large, or not UTF-8 text.
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise DeckFormatError(f"not a {what} file (a folder, device or pipe)", source=str(path))
        if info.st_size > limit:
            raise DeckFormatError(f"the {what} is larger than {limit:,} bytes", source=str(path))
        with open(path, "rb") as fh:
            return fh.read(limit + 1).decode("utf-8")
    except UnicodeDecodeError:
        raise DeckFormatError(f"the {what} is not UTF-8 text", source=str(path)) from None
    except OSError as exc:
        raise DeckFormatError(f"cannot read the {what}: {exc.strerror or exc}", source=str(path)) from None
