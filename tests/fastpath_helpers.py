"""What the tests ask of CPython's attribute fast path (issue 16: records the engine reads all the time)."""

from __future__ import annotations

import gc
import sys

import pytest

#: CPython 3.11+ keeps the attributes of an instance in the instance itself until its ``__dict__`` is asked for
needs_inline_attributes = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info < (3, 11),
    reason="how CPython 3.11+ keeps an instance's attributes")


def reads_slowly(record) -> bool:
    """Return True if CPython reads ``record``'s attributes the slow way (see ``pbd.record``).

    Attributes set one by one live in the instance itself: the garbage collector then sees
    the values, and no dict.  Asking for its ``__dict__`` makes a dict that shares its keys
    with the class's other instances (a "split" dict, smaller than a dict of its own), which
    CPython's fast path cannot read.  A dict given whole as ``__dict__`` is a dict of its own
    and reads fast, but only if its keys are the names the code reads (interned): the fast
    path finds a key by identity, and a string made anew (by pickle, say) is not the name.
    (``vars`` here comes after the referents are taken: on an instance without a dict it
    makes a new one, which no referent can be.)
    """
    seen = gc.get_referents(record)
    own = [x for x in seen if x is vars(record)]
    if not own:
        return False
    return sys.getsizeof(own[0]) < sys.getsizeof(dict(own[0])) or any(k is not sys.intern(k) for k in own[0])
