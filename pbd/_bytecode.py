"""Keep code Python generates at start-up compiled between runs, as ``.pyc`` files keep a module's.

Two kinds of code are compiled anew by every Python process, whatever ``.pyc`` files
exist, and together they cost a pbd command about as much CPU as Python's own start:

* the regular expressions modules compile when imported (pbd's board and notation
  patterns, and click's and the standard library's): ``re`` parses each pattern and
  compiles it to a program for its matching engine, in Python;
* the methods ``dataclasses`` writes for each class (``__init__``, ``__repr__``,
  ``__eq__``, more for frozen ones), compiled from source with ``exec``.

:func:`install` (called by the command line before it imports anything else) keeps
both in one cache file beside pbd's bytecode, ``pbd/__pycache__/startup.<tag>.marshal``:
a regular expression found there is rebuilt from its stored engine program (the same
``_sre.compile`` call ``re`` ends with), a dataclass method is run from its stored code
object, and what a process had to compile is added when it exits.  The results are
the same objects Python would have made: a regular expression is stored only after
the rebuilt pattern compared equal (same program, flags and groups) to the one ``re``
compiled; generated source is compiled exactly as ``dataclasses`` would compile it.

The cache is trusted as the ``.pyc`` files beside it are (whoever can write one can
write the other), is tied to the exact Python build that wrote it, and is simply not
used when it is missing, damaged or from another build.  It is not written when
Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``) or the folder is read-only;
commands are then as correct, only slower to start.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
PATH = os.path.join(_FOLDER, f"startup.{sys.implementation.cache_tag}.marshal")
_HEADER = f"pbd-startup-v1 {sys.version}\n".encode()
#: the most entries of each kind kept (a program that makes patterns on the fly cannot grow it forever)
LIMIT = 2000
_CodeType = type((lambda: None).__code__)

_cache: dict[str, dict] = {"code": {}, "regex": {}}
_state = {"added": False, "installed": False}


def install() -> None:
    """Take regular expressions and dataclass methods from the cache from now on (once per process)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    import atexit
    import dataclasses
    import re

    loaded = _load()
    for kind in _cache:
        if type(loaded.get(kind)) is dict:
            _cache[kind].update(loaded[kind])
    dataclasses.exec = _exec
    compiler = getattr(re, "_compiler", None)
    if compiler is not None and hasattr(compiler, "_code") and hasattr(compiler, "compile"):
        _regex.original = compiler.compile
        compiler.compile = _regex
    atexit.register(save)


def _remember(kind: str, key, value) -> None:
    if len(_cache[kind]) < LIMIT:
        _cache[kind][key] = value
        _state["added"] = True


def _exec(source, globals=None, locals=None, /):
    """Run ``source`` as :func:`exec` does, compiling a source string only if the cache lacks it."""
    if type(source) is str:
        code = _cache["code"].get(source)
        if type(code) is not _CodeType:
            code = compile(source, "<string>", "exec")
            _remember("code", source, code)
        source = code
    if globals is None:
        import dataclasses

        globals = vars(dataclasses)
    return builtins.exec(source, globals, locals)


def _regex(pattern, flags=0):
    """Return ``re._compiler.compile(pattern, flags)``, rebuilt from the cache when it holds the program."""
    import _sre
    import re

    original = _regex.original
    if type(pattern) not in (str, bytes) or flags & re.DEBUG:
        return original(pattern, flags)
    key = (pattern, flags)
    args = _cache["regex"].get(key)
    if args is not None:
        try:
            return _sre.compile(pattern, *args)
        except Exception:  # a damaged entry: compile it afresh below
            pass
    compiled = original(pattern, flags)
    try:
        args = _program(pattern, flags)
        if _sre.compile(pattern, *args) == compiled:
            _remember("regex", key, args)
    except Exception:  # re's internals differ in this Python: just do without the cache
        pass
    return compiled


_regex.original = None


def _program(pattern, flags: int) -> tuple:
    """Return the arguments ``re`` passes to ``_sre.compile`` for ``pattern`` (the engine program)."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # plain ints: the opcodes are an int subclass
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _load() -> dict:
    """Return the cache file's contents, or nothing when it is missing, from another Python, or damaged."""
    try:
        with open(PATH, "rb") as fh:
            blob = fh.read()
    except OSError:
        return {}
    if not blob.startswith(_HEADER):
        return {}
    try:
        data = marshal.loads(blob[len(_HEADER):])
    except (EOFError, ValueError, TypeError):
        return {}
    return data if type(data) is dict else {}


def save() -> None:
    """Write the cache if this process compiled something new (never fails)."""
    if not _state["added"] or sys.dont_write_bytecode:
        return
    tmp = f"{PATH}.{os.getpid()}.tmp"
    try:
        os.makedirs(_FOLDER, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(_HEADER + marshal.dumps(_cache))
        os.replace(tmp, PATH)
        _state["added"] = False
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
