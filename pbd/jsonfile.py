"""JSON for pbd's own small files (private state, the match list), through the standard library's C codec.

Importing :mod:`json` loads four modules and compiles six regular expressions, which costs
a move (it reads and writes both files) more than the reading and writing do.  The work is
done by the C codec underneath (``_json``) in either case: :func:`loads` and :func:`dumps`
call it as :mod:`json` does (strict strings, ``NaN``/``Infinity`` read as floats, ASCII
output, no spaces), and give the same values and text as ``json.loads`` and
``json.dumps(data, separators=(",", ":"))``.  Where the C codec is missing or different
(another Python), they are those very functions.
"""

from __future__ import annotations

_WHITESPACE = " \t\n\r"


class _Reading:
    """What the C scanner reads from a ``json.JSONDecoder``: its defaults."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = staticmethod({"-Infinity": float("-inf"), "Infinity": float("inf"),
                                   "NaN": float("nan")}.__getitem__)
    memo: dict = {}


def _unserialisable(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner

    _scan = make_scanner(_Reading())
    _encode = make_encoder(None, _unserialisable, encode_basestring_ascii, None, ":", ",", False, False, True)
except (ImportError, TypeError):  # pragma: no cover - a Python without CPython's codec
    _scan = _encode = None


def loads(text: str):
    """Return the value of the JSON document ``text`` (as ``json.loads``).

    :raises ValueError: not one JSON value (with only whitespace around it).
    """
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"expecting a JSON value at character {exc.value}") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value, at character {end}")
    return value


def read(path: str):
    """Return the value of the JSON file at ``path`` (UTF-8).

    :raises OSError: it cannot be read.
    :raises ValueError: it is not one JSON value (or not UTF-8 text).
    """
    with open(path, encoding="utf-8") as fh:
        return loads(fh.read())


def dumps(data) -> str:
    """Return ``data`` as compact JSON text (as ``json.dumps(data, separators=(",", ":"))``).

    :raises TypeError: it holds something JSON cannot say.
    """
    if _encode is None:  # pragma: no cover
        import json

        return json.dumps(data, separators=(",", ":"))
    if isinstance(data, str):
        return encode_basestring_ascii(data)
    return "".join(_encode(data, 0))
