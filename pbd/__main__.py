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
    from pbd.cli import main

    try:
        main()
    except SystemExit as exc:
        _leave(exc.code)
    _leave(0)


#: what :func:`_defer` leaves unloaded until first used (see the module's docstring): each module, with the
#: functions of it that click takes at load (``from gettext import gettext as _``) and a command seldom calls;
#: until the module is loaded, reading one gives a stand-in that loads the module when called
DEFERRED = {"inspect": (), "gettext": ("gettext", "ngettext")}
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


def _stand_in(module, name: str):
    """Return a function that loads ``module`` (if it is not yet) and calls its function ``name``."""
    def call(*args, **kwargs):
        return module.__dict__[name](*args, **kwargs)     # (reading __dict__ loads an unloaded module)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{module.__name__}.{name}, loaded when first called (see pbd.__main__)."
    return call


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
