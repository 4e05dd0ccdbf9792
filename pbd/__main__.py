"""The ``pbd`` console script and ``python -m pbd``: :func:`run`."""

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
    from pbd.cli import main

    try:
        main()
    except SystemExit as exc:
        _leave(exc.code)
    _leave(0)


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
