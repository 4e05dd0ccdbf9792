"""Plain data records for the classes every command loads: :class:`Record` and :class:`FrozenRecord`.

Why not dataclasses here: ``@dataclass`` writes and compiles its ``__init__``, ``__eq__``
and ``__repr__`` anew each time its module is imported (0.4–1.7 ms apiece on our machines).
The twenty-odd records on the path of every command (the log, the fair-play records, the
C&C board and cards, the pipeline's turn) cost ``pbd show`` an eighth of its whole CPU
time that way.  A record writes its ``__init__`` by hand and names its fields once, in
``FIELDS``; equality and ``repr`` are shared.  Records nothing loads at start-up stay
dataclasses.

The rules read records hundreds of times a move, so every record keeps CPython 3.11's fast
path for reading attributes.  It has two: attributes set one by one (kept in the instance
itself), and a dict given to the instance whole as its ``__dict__`` (a frozen record's fields,
set once).  What reads slowly, every read, is the dict CPython makes from attributes set one
by one when the instance's ``__dict__`` is asked for (``obj.__dict__``, ``vars``, pickle's
default restore, ``copy``) or when an attribute is added after many of its kind were made.  So
a record sets every attribute in ``__init__``; pickle and ``copy`` keep ``(None, attributes)``,
restored by ``setattr`` one by one (a frozen record: as one dict).  Pickling or copying a
record still asks for its own ``__dict__`` (nothing else lists its attributes): what the
engine keeps reading is made anew (see ``cnc.state.clone``) or is the copy (see ``pbd.cache``).
"""

from __future__ import annotations

from sys import intern as _intern

#: sets an attribute past a :class:`FrozenRecord`'s ``__setattr__`` (and never through ``__dict__``)
_setattr = object.__setattr__


class Record:
    """A mutable record: ``==`` compares the ``FIELDS`` (same class only), ``repr`` shows them.

    Like a dataclass with ``eq=True``: unhashable.  Fields left out of ``FIELDS`` (caches,
    bookkeeping) are neither compared nor shown.
    """

    FIELDS: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.FIELDS)})"

    def __getstate__(self) -> tuple[None, dict]:
        """Return what pickle and ``copy`` keep: ``(None, attributes)``, restored by ``setattr`` one by one.

        (The default, the ``__dict__`` itself, is restored into the new instance's ``__dict__``:
        see the module's docstring.)
        """
        return None, self.__dict__

    def replace(self, **changes):
        """Return a new record with the same ``FIELDS`` but ``changes`` (as :func:`dataclasses.replace`)."""
        return type(self)(**{**{f: getattr(self, f) for f in self.FIELDS}, **changes})


class FrozenRecord(Record):
    """An immutable record (like ``@dataclass(frozen=True)``): hashable, and assigning a field raises.

    ``__init__`` sets its fields with one call of :meth:`_set`.
    """

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def _set(self, **fields: object) -> None:
        """Give the record all its attributes at once: ``fields`` becomes its ``__dict__`` (one call, read fast)."""
        _setattr(self, "__dict__", fields)

    def __setstate__(self, state: tuple[None, dict]) -> None:
        # (restored as _set sets: pickle's own restore would call __setattr__, which refuses; and with the names
        # interned, as pickle's own restore interns them: CPython 3.11's fast read of an attribute from a dict given
        # whole finds its key by identity, and the strings pickle makes anew are not the names the code reads, so
        # every read of a card from a cached catalogue went the slow way)
        fields = state[1]
        _setattr(self, "__dict__", dict(zip(map(_intern, fields), fields.values())))

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self.FIELDS))
