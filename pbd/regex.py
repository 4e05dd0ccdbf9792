"""Regular expressions compiled when first used: :func:`pattern`, in place of :func:`re.compile`.

Compiling a pattern costs 0.1–0.6 ms of pure Python; pbd's modules define dozens at import
and a command uses some of them (``pbd show`` never reads a Pending line of a board that
has none, nor a roll in a log without one).  A :class:`LazyPattern` compiles on its first
use and then keeps the compiled pattern's own methods as its attributes, so later calls
cost the same as on a compiled pattern.
"""

from __future__ import annotations

import re

#: what a LazyPattern hands over from the compiled pattern on first use
_ATTRIBUTES = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags",
               "groups", "groupindex")


class LazyPattern:
    """A regular expression compiled on first use (see the module docstring)."""

    def __init__(self, source: str, flags: int = 0):
        self._source = (source, flags)

    def __getattr__(self, name: str):
        # only called for an attribute not set yet: the first use
        compiled = re.compile(*self._source)
        for attr in _ATTRIBUTES:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def pattern(source: str, flags: int = 0) -> LazyPattern:
    """Return ``source`` as a pattern compiled when first used (:class:`LazyPattern`)."""
    return LazyPattern(source, flags)
