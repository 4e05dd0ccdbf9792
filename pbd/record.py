"""Plain data records for the classes every command loads: :class:`Record` and :class:`FrozenRecord`.

Why not dataclasses here: ``@dataclass`` writes and compiles its ``__init__``, ``__eq__``
and ``__repr__`` anew each time its module is imported (0.4–1.7 ms apiece on our machines).
The twenty-odd records on the path of every command (the log, the fair-play records, the
C&C board and cards, the pipeline's turn) cost ``pbd show`` an eighth of its whole CPU
time that way.  A record writes its ``__init__`` by hand and names its fields once, in
``FIELDS``; equality and ``repr`` are shared.  Records nothing loads at start-up stay
dataclasses.
"""

from __future__ import annotations


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

    def replace(self, **changes):
        """Return a new record with the same ``FIELDS`` but ``changes`` (as :func:`dataclasses.replace`)."""
        return type(self)(**{**{f: getattr(self, f) for f in self.FIELDS}, **changes})


class FrozenRecord(Record):
    """An immutable record (like ``@dataclass(frozen=True)``): hashable, and assigning a field raises.

    ``__init__`` sets its fields with :meth:`_set`.
    """

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def _set(self, **fields: object) -> None:
        self.__dict__.update(fields)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self.FIELDS))
