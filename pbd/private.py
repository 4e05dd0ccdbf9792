"""The private state store: each player's seed, deck order, drawn positions and hand.

Files live at ``PBD_HOME/matches/<match id>/<player>.json`` with mode 0600, written
atomically.  Nothing here ever goes into the shared document.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbd import paths
from pbd.errors import BackendError, UsageError
from pbd.games.base import Secrets


def _file(match_id: str, player: str) -> Path:
    safe = re.sub(r"[^\w.-]+", "_", player.casefold()) or "_"
    return paths.home() / "matches" / match_id / f"{safe}.json"


def exists(match_id: str, player: str) -> bool:
    """Return True if we hold ``player``'s secrets for this match."""
    return _file(match_id, player).exists()


def load(match_id: str, player: str) -> Secrets:
    """Return ``player``'s secrets for the match.

    :raises UsageError: this machine does not hold them (wrong name, or another machine).
    :raises BackendError: the file is unreadable or damaged.
    """
    import json

    path = _file(match_id, player)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(
            f"this machine holds no private state for {player!r} in match {match_id}",
            hint=f"run pbd as the player who created or joined the match (looked in {path.parent})") from None
    except (OSError, ValueError) as exc:
        raise BackendError(f"private state {path} is unreadable: {exc}") from None
    if isinstance(data, dict) and "hand_doc" in data:  # kept in the player's own Google Doc
        from pbd import handdoc

        data = handdoc.load(data["hand_doc"])
    try:
        return Secrets(data["match_id"], data["player"], data["game"], bytes.fromhex(data["seed"]),
                       list(data["deck"]), list(data["drawn"]), list(data["hand"]), dict(data.get("extra", {})))
    except (KeyError, TypeError, ValueError) as exc:
        raise BackendError(f"private state {path} is damaged ({exc})") from None


def save(sec: Secrets) -> None:
    """Write ``sec`` atomically with owner-only permissions (or into the player's hand document).

    :raises BackendError: PBD_HOME cannot be written.
    """
    path = _file(sec.match_id, sec.player)
    data = as_dict(sec)
    pointer = _hand_doc(path)
    if pointer:
        from pbd import handdoc

        handdoc.save(pointer, data)
        return
    _write_json(path, data)


def as_dict(sec: Secrets) -> dict:
    """Return ``sec`` as the JSON-able dict that is stored."""
    return {"match_id": sec.match_id, "player": sec.player, "game": sec.game, "seed": sec.seed.hex(),
            "deck": sec.deck, "drawn": sec.drawn, "hand": sec.hand, "extra": sec.extra}


def link_hand_doc(match_id: str, player: str, spec: str) -> None:
    """Keep ``player``'s private state in the Google Doc ``spec``; PBD_HOME holds only this pointer.

    :raises BackendError: PBD_HOME cannot be written.
    """
    _write_json(_file(match_id, player), {"hand_doc": spec})


def _hand_doc(path: Path) -> str | None:
    """Return the hand document a private-state file points to, if it is such a pointer."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("hand_doc") if isinstance(data, dict) else None


def _write_json(path: Path, data: dict) -> None:
    import json

    try:
        paths.write_private(path, json.dumps(data, indent=1).encode("utf-8"))
    except OSError as exc:
        raise BackendError(f"cannot save private state under {paths.home()}: {exc}") from None
