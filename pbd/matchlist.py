"""The list of this machine's matches (``PBD_HOME/my-matches``): what every command that changes a match updates.

Kept apart from :mod:`pbd.status`, which reads it to say whose turn it is and what changed: a move
records its match here and needs none of that (importing it cost a move about 0.5M instructions).
"""

from __future__ import annotations

import os

from pbd import jsonfile, paths
from pbd.errors import BackendError

#: The file (in PBD_HOME) that lists this machine's matches.
REGISTRY = "my-matches"


def _path() -> str:
    return os.path.join(paths.home(), REGISTRY)


def _read() -> dict:
    """Return the registry (empty if there is none or it is damaged: it is only a convenience)."""
    try:
        data = jsonfile.read(_path())
    except (OSError, ValueError):
        return {"matches": []}
    if not isinstance(data, dict) or not isinstance(data.get("matches"), list):
        return {"matches": []}
    data["matches"] = [m for m in data["matches"] if isinstance(m, dict) and isinstance(m.get("doc"), str)]
    return data


def _update(change) -> None:
    """Apply ``change(data)`` to the registry under its lock and save it (0600).

    :raises BackendError: PBD_HOME cannot be written.
    """
    try:
        paths.private_dir(paths.home())
        with paths.locked(os.path.join(paths.home(), ".my-matches.lock")):
            data = _read()
            change(data)
            paths.write_private(_path(), jsonfile.dumps(data).encode("utf-8"))
    except (OSError, TimeoutError) as exc:
        raise BackendError(f"cannot save the list of your matches under {paths.home()}: {exc}") from None


def doc_key(doc) -> str:
    """Return how the registry names a document: a local file's absolute path, else its label (URL)."""
    path = getattr(doc, "path", None)
    return os.path.abspath(path) if path is not None else doc.label


def _entry(data: dict, key: str, match_id: str | None = None) -> dict | None:
    for m in data["matches"]:
        if m["doc"] == key and (match_id is None or m.get("match") == match_id):
            return m
    return None


def remember(doc, game, state, name: str, seen: int | None = None) -> None:
    """Record that ``name`` plays the match on ``doc`` from this machine (and has seen its log up to ``seen``).

    :raises BackendError: PBD_HOME cannot be written.
    """
    key, match_id = doc_key(doc), state.meta.match_id

    def change(data):
        entry = _entry(data, key)
        if entry is None or entry.get("match") != match_id:
            if entry is not None:
                data["matches"].remove(entry)
            entry = {"doc": key, "match": match_id, "game": game.name, "seats": [], "seen": {}}
            data["matches"].append(entry)
        if name.casefold() not in (s.casefold() for s in entry["seats"]):
            entry["seats"].append(name)
        if seen is not None:
            entry.setdefault("seen", {})[name.casefold()] = seen

    _update(change)


def remembered_documents() -> list[str]:
    """Return the documents of the matches this machine remembers (local paths absolute, Google Docs as URLs)."""
    return list(dict.fromkeys(m["doc"] for m in _read()["matches"]))


def elsewhere(doc, match_id: str, name: str) -> list[str]:
    """Return the documents this machine records ``name`` playing ``match_id`` on, when ``doc`` is none of them.

    Empty when the seat plays the match on ``doc`` (or on no recorded document): a non-empty
    answer means ``doc`` is a copy of the match document (or the match moved there).
    """
    key, folded = _same(doc_key(doc)), name.casefold()
    docs = [m["doc"] for m in _read()["matches"] if m.get("match") == match_id
            and folded in (str(s).casefold() for s in m.get("seats") or [])]
    if key in map(_same, docs):
        return []
    return [d for d in dict.fromkeys(docs) if not os.path.isabs(d) or os.path.exists(d)]   # a file renamed: moved


def _same(key: str) -> str:
    """Return ``key`` as one file's name however it is reached (a symbolic link to the match's file is that file)."""
    return os.path.realpath(key) if os.path.isabs(key) else key


def adopt(doc, game, state, name: str) -> list[str]:
    """Record ``doc`` as the one document of ``name``'s match (it moved there); return the documents it replaces.

    :raises BackendError: PBD_HOME cannot be written.
    """
    key, match_id, folded = doc_key(doc), state.meta.match_id, name.casefold()
    dropped: list[str] = []

    def change(data):
        for m in list(data["matches"]):
            if m.get("match") == match_id and m["doc"] != key:
                seats = [s for s in m.get("seats") or [] if str(s).casefold() != folded]
                if len(seats) != len(m.get("seats") or []):
                    dropped.append(m["doc"])
                m["seats"] = seats
                if not seats:
                    data["matches"].remove(m)

    _update(change)
    remember(doc, game, state, name, len(state.meta.log))
    return dropped
