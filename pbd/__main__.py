"""The ``pbd`` console script and ``python -m pbd``: :func:`run`.

Before click is loaded, :func:`_defer` installs the standard library modules click imports
but a command does not use (:data:`DEFERRED`) as modules not yet loaded: each is an empty
module until the first time one of its attributes is read, which loads it whole, just as the
import would have.  :mod:`inspect` is one: click imports it for ``inspect.cleandoc`` (help
texts: ``--help``, and options, whose help :class:`pbd.cli.PbdOption` cleans itself) and
``inspect.isfunction`` (shown defaults, again in ``--help``); with :mod:`ast`, :mod:`dis` and
:mod:`tokenize` it is about 20M instructions of every command (a tenth of a table game's).

Why not :class:`importlib.util.LazyLoader` itself: its module loads on any attribute read,
``__spec__`` too, and an ``import inspect`` statement reads ``__spec__`` of the module it
finds in :data:`sys.modules` (to see whether another thread is still loading it), so click's
own ``import inspect`` would load it at once (CPython 3.11 to 3.13).  :class:`_Unloaded` is
LazyLoader's module with ``__spec__`` read as it is.  :mod:`gettext` is the other: click takes
``gettext`` and ``ngettext`` from it as it loads, and calls them only for its own messages (a
usage error); pbd's own texts never go through them.  Those two names give stand-ins that load
the module when called (its import compiles a regular expression: about 3.5M instructions).
:mod:`uuid` (with :mod:`platform`, about 11M) and :mod:`datetime` (with :mod:`math`, about 5M)
are the others: click reads ``uuid.UUID`` and ``datetime.datetime`` while it loads, to name
what its ``UUID`` and ``DateTime`` parameter types give (``ParamType[uuid.UUID]``), and uses
them only when such a parameter converts a value, which no pbd command has.

A stand-in is a class of :class:`_Forwarding`: calling it, ``isinstance`` against it and
reading one of its attributes (``datetime.strptime``) load the module and go to the real
function or class, so click's ``DateTime`` and ``UUID`` types work as before.  The stand-ins
serve click's load only: once :mod:`pbd.cli` is loaded, reading a deferred module's attribute
loads it (click's own names keep their stand-ins).

:func:`_load_click` then imports click with the annotations of its ``TypedDict`` classes left
as strings (as every other annotation of click is).

Only the script does this: a program that imports :mod:`pbd.cli` (the tests' ``CliRunner``)
imports what it imports as usual.  A module already loaded, or not found, is left as it is.
"""

from __future__ import annotations

import os
import sys


def run() -> None:
    """Run the command line with the cyclic garbage collector off while its modules load, then leave at once.

    Loading click and pbd allocates tens of thousands of long-lived objects; every
    collection pass during start-up walks them all again, for nothing.  :func:`pbd.cli.main`
    turns the collector back on once everything is loaded.  When the command is done,
    :func:`_leave` ends the process.
    """
    import gc

    gc.disable()
    _defer(DEFERRED)
    _load_click()
    from pbd.cli import main

    _STAND_INS.clear()          # click has taken what it takes as it loads: any other read loads the module

    try:
        main()
    except SystemExit as exc:
        _leave(exc.code)
    _leave(0)


#: what :func:`_defer` leaves unloaded until first used (see the module's docstring): each module, with the
#: functions and classes of it that click takes at load (``from gettext import gettext as _``,
#: ``ParamType[uuid.UUID]``) and a command seldom uses; until the module is loaded, reading one gives a
#: stand-in that loads the module when used
DEFERRED = {"inspect": (), "gettext": ("gettext", "ngettext"), "uuid": ("UUID",), "datetime": ("datetime",)}
#: the stand-ins of :data:`DEFERRED`'s functions, by module and name
_STAND_INS: dict[str, dict[str, object]] = {}


class _Unloaded(type(sys)):
    """A module not loaded yet: reading an attribute loads it, and it is a plain module again.

    Except what the import system reads of a module it finds already in :data:`sys.modules`:
    ``__spec__`` (as it is) and, for ``from M import NAME``, ``__path__`` (a plain module has
    none); and the stand-ins of the functions :data:`DEFERRED` names.
    """

    def __getattribute__(self, attr: str):
        spec = object.__getattribute__(self, "__spec__")
        if attr == "__spec__":
            return spec
        if attr == "__path__" and spec.submodule_search_locations is None:
            raise AttributeError(attr)
        stand_in = _STAND_INS.get(spec.name, {}).get(attr)
        if stand_in is not None:
            return stand_in
        object.__setattr__(self, "__class__", type(sys))
        try:
            spec.loader.exec_module(self)
        except BaseException:
            sys.modules.pop(spec.name, None)        # as a failed import leaves it: not there
            raise
        return getattr(self, attr)


class _Forwarding(type):
    """The type of a stand-in (:func:`_stand_in`): what is done with one is done with the real thing, loaded then.

    Calling it, ``isinstance``/``issubclass`` against it and reading an attribute it lacks
    (``datetime.strptime``) go to the function or class it stands for; reading a dunder name
    does not (``typing`` asks a class in ``ParamType[...]`` for ``__typing_subst__`` and such:
    that must not load the module).
    """

    def _real(cls):
        return cls._deferred_module.__dict__[cls.__name__]    # (reading __dict__ loads an unloaded module)

    def __call__(cls, *args, **kwargs):
        return cls._real()(*args, **kwargs)

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, cls._real())

    def __subclasscheck__(cls, sub) -> bool:
        return issubclass(sub, cls._real())

    def __getattr__(cls, attr: str):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return getattr(cls._real(), attr)


def _stand_in(module, name: str):
    """Return a stand-in for ``module``'s function or class ``name``: using it loads ``module`` (if it is not yet)."""
    return _Forwarding(name, (), {"_deferred_module": module, "__qualname__": name, "__module__": module.__name__,
                                  "__doc__": f"{module.__name__}.{name}, loaded when first used (see pbd.__main__)."})


def _defer(names) -> None:
    """Put each module of ``names`` (:data:`DEFERRED`) not loaded yet in :data:`sys.modules`, :class:`_Unloaded`."""
    import importlib.util

    for name, functions in dict(names).items():
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or not hasattr(spec.loader, "exec_module"):
            continue
        module = importlib.util.module_from_spec(spec)
        _STAND_INS[name] = {f: _stand_in(module, f) for f in functions}
        module.__class__ = _Unloaded
        sys.modules[name] = module


def _load_click() -> None:
    """Import click, :mod:`typing` keeping the annotations of its ``TypedDict`` classes as the strings they are.

    click's modules are written with ``from __future__ import annotations``: every annotation
    is a string that nothing evaluates, except in a ``TypedDict`` class (click has nine,
    the shapes of ``to_info_dict()`` and of an option's help extras), where :mod:`typing`
    makes each string a ``ForwardRef`` at once, compiling it (about 12M instructions, a
    twentieth of a command).  Left a string, it reads as it would in any other class:
    ``typing.get_type_hints`` evaluates either when asked.  Other arguments are checked as
    usual, and only while click loads.
    """
    import typing

    check = getattr(typing, "_type_check", None)
    if check is None:           # a Python whose typing checks its arguments some other way: import as usual
        import click  # noqa: F401
        return

    def keep_strings(arg, msg, *args, **kwargs):
        return arg if type(arg) is str else check(arg, msg, *args, **kwargs)

    typing._type_check = keep_strings
    try:
        import click  # noqa: F401
    finally:
        typing._type_check = check


def _leave(code) -> None:
    """End the process with exit status ``code`` (as ``sys.exit(code)`` would), skipping the interpreter's teardown.

    Tearing the interpreter down frees every object of every module one by one (about 1.5 ms
    of a command, more of a game with more modules); the operating system takes the memory
    back at once.  Nothing is left to finish by then: every file pbd writes is written, synced
    and closed before the command returns.  What must happen still happens: the output is
    flushed (a reader that went away is not an error, as in :func:`pbd.cli.main`) and the
    functions registered with :mod:`atexit` run.  With a thread still running, the usual exit waits for it.
    """
    import atexit
    import threading

    if threading.active_count() > 1:
        sys.exit(code)
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):   # a closed pipe or stream, or none at all
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
