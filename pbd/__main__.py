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
LazyLoader's module with ``__spec__`` read as it is.  Only the script does this: a program
that imports :mod:`pbd.cli` (the tests' ``CliRunner``) imports what it imports as usual.  A
module already loaded, or not found, is left as it is.
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


#: what :func:`_defer` leaves unloaded until first used (see the module's docstring)
DEFERRED = ("inspect",)


class _Unloaded(type(sys)):
    """A module not loaded yet: reading any attribute but ``__spec__`` loads it, and it is a plain module again."""

    def __getattribute__(self, attr: str):
        spec = object.__getattribute__(self, "__spec__")
        if attr == "__spec__":
            return spec
        object.__setattr__(self, "__class__", type(sys))
        try:
            spec.loader.exec_module(self)
        except BaseException:
            sys.modules.pop(spec.name, None)        # as a failed import leaves it: not there
            raise
        return getattr(self, attr)


def _defer(names) -> None:
    """Put each module of ``names`` not loaded yet in :data:`sys.modules` as an :class:`_Unloaded` module."""
    import importlib.util

    for name in names:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or not hasattr(spec.loader, "exec_module"):
            continue
        module = importlib.util.module_from_spec(spec)
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
