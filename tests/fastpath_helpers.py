"""What the tests ask of CPython's attribute fast path (issue 16: records the engine reads all the time)."""

from __future__ import annotations

import gc
import sys

import pytest

#: CPython 3.11+ keeps the attributes of an instance in the instance itself until its ``__dict__`` is asked for
needs_inline_attributes = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info < (3, 11),
    reason="how CPython 3.11+ keeps an instance's attributes")


def holds_its_dict(record) -> bool:
    """Return True if ``record``'s attributes live in a ``__dict__`` of its own (CPython then reads them slowly).

    Kept in the instance itself, the attributes are what the garbage collector sees of it;
    once its ``__dict__`` was asked for, it sees that dict (``vars`` then gives the same one;
    asked of an instance without, ``vars`` makes a new one, which no referent can be).
    """
    seen = gc.get_referents(record)
    return any(x is vars(record) for x in seen)
