"""The private state store: each player's seed, deck order, drawn positions and hand.

Files live at ``PBD_HOME/matches/<match id>/<player>.json`` with mode 0600, written
atomically.  Nothing here ever goes into the shared document.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
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
    path = _file(match_id, player)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(
            f"this machine holds no private state for {player!r} in match {match_id}",
            hint=f"run pbd as the player who created or joined the match (looked in {path.parent})") from None
    except (OSError, ValueError) as exc:
        raise BackendError(f"private state {path} is unreadable: {exc}") from None
    try:
        return Secrets(data["match_id"], data["player"], data["game"], bytes.fromhex(data["seed"]),
                       list(data["deck"]), list(data["drawn"]), list(data["hand"]), dict(data.get("extra", {})))
    except (KeyError, TypeError, ValueError) as exc:
        raise BackendError(f"private state {path} is damaged ({exc})") from None


def save(sec: Secrets) -> None:
    """Write ``sec`` atomically with owner-only permissions.

    :raises BackendError: PBD_HOME cannot be written.
    """
    path = _file(sec.match_id, sec.player)
    data = {"match_id": sec.match_id, "player": sec.player, "game": sec.game, "seed": sec.seed.hex(),
            "deck": sec.deck, "drawn": sec.drawn, "hand": sec.hand, "extra": sec.extra}
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except OSError as exc:
        raise BackendError(f"cannot save private state under {paths.home()}: {exc}") from None
