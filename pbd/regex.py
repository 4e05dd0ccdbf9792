"""Regular expressions compiled when first used: :func:`pattern`, in place of :func:`re.compile`.

Compiling a pattern costs 0.1–0.6 ms of pure Python; pbd's modules define dozens at import
and a command uses some of them (``pbd show`` never reads a Pending line of a board that
has none, nor a roll in a log without one).  A :class:`LazyPattern` compiles on its first
use and then keeps the compiled pattern's own methods as its attributes, so later calls
cost the same as on a compiled pattern.

A command that parses a whole board still compiles forty or more (a seat paying a duty on a
document other seats changed: about a tenth of its instructions).  Most of that cost is
Python's own parse of the pattern into the regex engine's code, the same list of numbers
every time; so that list is kept in ``PBD_HOME/cache`` (:data:`CODES`, one file, written
back when a process that compiled a pattern not in it ends) and handed straight to the
engine (``_sre.compile``) by the next command.  The file is this machine's own: only
patterns of pbd's source go in (never text of a document), keyed by their exact source and
flags; it names the Python and engine version it was made with (another one: ignored), a
damaged file (its digest does not hold) is ignored and rewritten, and the engine validates
the code it is given; a code the engine refuses is compiled afresh.  A dry run
(:func:`pbd.cache.writing_nothing`) writes nothing.
"""

from __future__ import annotations

import os
import re
import sys

#: what a LazyPattern hands over from the compiled pattern on first use
_ATTRIBUTES = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags",
               "groups", "groupindex")
#: the file of compiled codes in PBD_HOME's cache folder
CODES = "regex-codes.bin"
_MAGIC = b"pbd-regex-v1\n"
#: the codes known in this process (read from :data:`CODES` on first use): (source, flags) -> the engine's arguments
_codes: dict | None = None
#: how many codes :data:`_codes` held when read (more at the end of the process: written back)
_read = 0


class LazyPattern:
    """A regular expression compiled on first use (see the module docstring)."""

    def __init__(self, source: str, flags: int = 0):
        self._source = (source, flags)

    def __getattr__(self, name: str):
        # only called for an attribute not set yet: the first use
        compiled = compile_kept(*self._source)
        for attr in _ATTRIBUTES:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def pattern(source: str, flags: int = 0) -> LazyPattern:
    """Return ``source`` as a pattern compiled when first used (:class:`LazyPattern`)."""
    return LazyPattern(source, flags)


def compile_kept(source: str, flags: int = 0) -> re.Pattern:
    """Return ``re.compile(source, flags)``, from the engine code kept in :data:`CODES` when it holds it."""
    global _read
    import _sre

    flags = int(flags)
    codes = _known()
    args = codes.get((source, flags))
    if args is not None:
        try:
            return _sre.compile(source, *args)
        except Exception:               # a code this engine does not take: compiled afresh below (and kept)
            del codes[(source, flags)]
            _read -= 1
    try:
        args = _engine_args(source, flags)
        compiled = _sre.compile(source, *args)
    except Exception:                   # another Python's compiler: compile as re does, keep nothing
        return re.compile(source, flags)
    codes[(source, flags)] = args
    return compiled


def _engine_args(source: str, flags: int) -> tuple:
    """Return what :func:`re._compiler.compile` hands the engine for ``source`` after the pattern (see its code)."""
    from re import _compiler, _parser

    parsed = _parser.parse(source, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    return int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1, dict(groupindex), tuple(indexgroup)


def _stamp() -> bytes:
    """Return what the kept codes depend on besides the patterns: this Python and its regex engine."""
    import _sre

    return f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}\n".encode()


def _path() -> str:
    from pbd import paths

    return os.path.join(paths.home(), "cache", CODES)


def _load(path: str) -> dict:
    """Return the codes kept at ``path`` ({} for none, a damaged file, or another Python's)."""
    import marshal

    from pbd.digest import fingerprint

    try:
        with open(path, "rb") as fh:
            blob = fh.read()
    except OSError:
        return {}
    head = _MAGIC + _stamp()
    body = blob[len(head) + 32:]
    if not blob.startswith(head) or fingerprint(body) != blob[len(head):len(head) + 32]:
        return {}
    try:
        table = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return {}
    return table if isinstance(table, dict) else {}


def _known() -> dict:
    """Return the codes of this process, read from :data:`CODES` the first time (and written back at exit)."""
    global _codes, _read
    if _codes is None:
        _codes = _load(_path())
        _read = len(_codes)
        import atexit

        atexit.register(_keep)
    return _codes


def _keep() -> None:
    """Write the codes back if this process compiled new ones (never under a dry run); never fail."""
    import marshal

    cache = sys.modules.get("pbd.cache")
    if _codes is None or len(_codes) <= _read or (cache is not None and (cache._READ_ONLY or cache._PROMISED)):
        return
    from pbd.digest import fingerprint

    path = _path()
    table = {**_load(path), **_codes}       # what another command kept meanwhile stays
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        body = marshal.dumps(table)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(_MAGIC + _stamp() + fingerprint(body) + body)
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
