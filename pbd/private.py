"""The private state store: each player's seed, deck order, drawn positions and hand.

Files live at ``PBD_HOME/matches/<match id>/<player>.json`` with mode 0600 (folders
0700), written atomically; the player's name is percent-encoded into the file name.
Nothing here ever goes into the shared document.

A command's new private state is first *staged* (``<player>.pending.json``), keyed by
the log entry it goes with, then the document is written, then the state is
*committed*.  If pbd stops in between, the next command settles it with
:func:`recover`: the document holds that entry -> the staged state is adopted; it does
not -> the staged state is dropped.  Either way the document and the private state agree.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager

from pbd import jsonfile, paths
from pbd.errors import BackendError, ConflictError, UsageError
from pbd.games.base import Secrets


def _folder(match_id: str) -> str:
    if not (match_id and 4 <= len(match_id) <= 32 and match_id.strip("0123456789abcdef") == ""):
        raise UsageError(f"{match_id!r} is not a match id")
    return os.path.join(paths.home(), "matches", match_id)


#: the bytes :func:`urllib.parse.quote` leaves as they are with ``safe=""``
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")


def _stem(player: str) -> str:
    """Return the file name stem of ``player``: the casefolded name as ``urllib.parse.quote(name, safe="")`` gives it.

    Written out rather than imported: ``urllib.parse`` (with ``ipaddress``) would cost every command.
    """
    return "".join(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in player.casefold().encode("utf-8")) or "_"


def _file(match_id: str, player: str) -> str:
    """Return the file of ``player``'s private state (under the name an older pbd gave it, if only that exists)."""
    folder = _folder(match_id)
    path = os.path.join(folder, f"{_stem(player)}.json")
    if os.path.exists(path):
        return path
    legacy = os.path.join(folder, (re.sub(r"[^\w.-]+", "_", player.casefold()) or "_") + ".json")
    return legacy if os.path.exists(legacy) else path


def _pending_file(match_id: str, player: str) -> str:
    return os.path.join(_folder(match_id), f"{_stem(player)}.pending.json")


def exists(match_id: str, player: str) -> bool:
    """Return True if we hold ``player``'s secrets for this match."""
    return os.path.exists(_file(match_id, player))


@contextmanager
def lock(match_id: str, player: str):
    """Hold ``player``'s private-state lock for this match: one pbd command per player at a time.

    :raises ConflictError: another command of the same player kept it too long.
    :raises BackendError: PBD_HOME cannot be written.
    """
    folder = _folder(match_id)
    try:
        paths.private_dir(folder)
        with paths.locked(os.path.join(folder, f"{_stem(player)}.lock")):
            _sweep(folder, _stem(player))
            yield
    except TimeoutError:
        raise ConflictError(f"another pbd command for {player} in match {match_id} is still running",
                            hint="wait for it to finish, then try again") from None
    except OSError as exc:
        raise BackendError(f"cannot lock private state under {paths.home()}: {exc}") from None


def _sweep(folder: str, stem: str) -> None:
    """Remove the temp files a killed command of this seat left beside its private files (they hold its seed).

    Called with the seat's lock held: every write of the seat's private state, pending state
    and kept chains happens under that lock, so no live command owns such a file now.
    """
    temps = [name for name in os.listdir(folder) if name.endswith(".tmp")]
    if not temps:
        return                  # (the usual case: the pattern is not compiled)
    pattern = re.compile(rf"^\.{re.escape(stem)}\.(?:json|pending\.json|chain-\d+)\.[0-9a-f]{{12}}\.tmp$")
    for name in temps:
        if pattern.match(name):
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:
                pass


def load(match_id: str, player: str) -> Secrets:
    """Return ``player``'s secrets for the match.

    :raises UsageError: this machine does not hold them (wrong name, or another machine).
    :raises BackendError: the file is unreadable or damaged.
    """
    global _LOADED
    path = _file(match_id, player)
    try:
        version = _version(path)        # before the read: a file replaced meanwhile has another
        data = jsonfile.read(path)
    except FileNotFoundError:
        raise UsageError(
            f"this machine holds no private state for {player!r} in match {match_id}",
            hint=f"run pbd as the player who created or joined the match (looked in {os.path.dirname(path)})"
        ) from None
    except (OSError, ValueError) as exc:
        raise BackendError(f"private state {path} is unreadable: {exc}") from None
    _LOADED = (path, version, data.get("hand_doc") if isinstance(data, dict) else None)   # as _hand_doc(path)
    if isinstance(data, dict) and "hand_doc" in data:  # kept in the player's own Google Doc
        from pbd import handdoc

        data = handdoc.load(data["hand_doc"])
    return _secrets(data, path)


def _secrets(data, where: str) -> Secrets:
    try:
        return Secrets(data["match_id"], data["player"], data["game"], bytes.fromhex(data["seed"]),
                       list(data["deck"]), list(data["drawn"]), list(data["hand"]), dict(data.get("extra", {})))
    except (KeyError, TypeError, ValueError) as exc:
        raise BackendError(f"private state {where} is damaged ({exc})") from None


def save(sec: Secrets, text: str | None = None) -> None:
    """Write ``sec`` atomically with owner-only permissions (or into the player's hand document).

    ``text``: ``sec`` as JSON already (:func:`commit` has it from :func:`stage`).

    :raises BackendError: PBD_HOME (or the hand document) cannot be written.
    """
    path = _file(sec.match_id, sec.player)
    pointer = _LOADED[2] if _LOADED[:2] == (path, _version(path)) else _hand_doc(path)
    if pointer:
        from pbd import handdoc

        handdoc.save(pointer, as_dict(sec))
        return
    _write_text(path, jsonfile.dumps(as_dict(sec)) if text is None else text)


#: ``(Secrets, its JSON text)`` this process staged last, for :func:`commit` (cleared by :func:`unstage`)
_STAGED: tuple = (None, "")


def stage(sec: Secrets, entry: tuple[int, str]) -> None:
    """Keep ``sec`` as pending, to be committed once the document holds log entry ``entry`` (number, hash).

    The state's JSON text is kept for :func:`commit`, which saves ``sec`` as staged without
    encoding it again (on a long match it holds every entry the seat wrote and the board before
    the move): the pending file is ``{"entry": ..., "state": ...}`` with that text inside.

    :raises BackendError: PBD_HOME cannot be written (then nothing else is written either).
    """
    global _STAGED
    text = jsonfile.dumps(as_dict(sec))
    _write_text(_pending_file(sec.match_id, sec.player),
                '{"entry":' + jsonfile.dumps(list(entry)) + ',"state":' + text + "}")
    _STAGED = (sec, text)


def commit(sec: Secrets) -> None:
    """Save ``sec`` for good, as it was staged, and forget the pending copy (the document now holds its entry).

    :raises BackendError: it cannot be saved; the pending copy stays for the next command.
    """
    staged, text = _STAGED
    save(sec, text if staged is sec else None)
    unstage(sec.match_id, sec.player)


def unstage(match_id: str, player: str) -> None:
    """Drop the pending private state (its document write did not happen)."""
    global _STAGED
    _STAGED = (None, "")
    try:
        os.unlink(_pending_file(match_id, player))
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise BackendError(f"cannot remove pending private state under {paths.home()}: {exc}") from None


def recover(match_id: str, player: str, log_hashes: list[str]) -> str | None:
    """Settle a pending state left by an interrupted command against the document's log hashes.

    Returns ``"adopted"`` (the document holds its entry: it becomes the private state),
    ``"dropped"`` (it does not: the write never happened) or None (nothing pending).

    :raises BackendError: the pending file is damaged or cannot be settled.
    """
    path = _pending_file(match_id, player)
    try:
        data = jsonfile.read(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise BackendError(f"pending private state {path} is unreadable: {exc}") from None
    try:
        number, digest = data["entry"]
        landed = 0 < int(number) <= len(log_hashes) and log_hashes[int(number) - 1] == digest
    except (KeyError, TypeError, ValueError) as exc:
        raise BackendError(f"pending private state {path} is damaged ({exc})") from None
    if landed:
        commit(_secrets(data.get("state"), path))
        return "adopted"
    unstage(match_id, player)
    return "dropped"


def as_dict(sec: Secrets) -> dict:
    """Return ``sec`` as the JSON-able dict that is stored."""
    return {"match_id": sec.match_id, "player": sec.player, "game": sec.game, "seed": sec.seed.hex(),
            "deck": sec.deck, "drawn": sec.drawn, "hand": sec.hand, "extra": sec.extra}


def link_hand_doc(match_id: str, player: str, spec: str) -> None:
    """Keep ``player``'s private state in the Google Doc ``spec``; PBD_HOME holds only this pointer.

    The seat's chains kept beside the private state (:class:`ChainStore`) go too: they are
    secrets of the seed, which no longer stays in PBD_HOME.

    :raises BackendError: PBD_HOME cannot be written.
    """
    _write_json(_file(match_id, player), {"hand_doc": spec})
    ChainStore(match_id).forget(player)


def kept_here(sec: Secrets) -> bool:
    """Return True if ``sec`` is what :func:`load` last read from PBD_HOME itself (not from a hand document)."""
    return _LOADED[0] == _file(sec.match_id, sec.player) and not _LOADED[2]


class ChainStore:
    """A command's seats' worked-out hash chains, kept beside their private state (:data:`pbd.fairplay.chain_store`).

    A file per seat and generation, ``<player>.chain-<g>``, mode 0600 like the private state
    (a chain's values are secret until published: whoever knows them sees the beacons to come),
    written atomically: this format's magic line, a BLAKE2b digest over the seed, the generation,
    the length and the values, then the values.  A file that is short, damaged, or made for
    another seed, generation or length is not used (the chain is walked again and the file
    rewritten).  Only seats :meth:`hold` names are kept, and nothing is written while
    :func:`pbd.cache.writing_nothing` holds (a dry run).
    """

    MAGIC = b"pbd-chain-v1\n"

    def __init__(self, match_id: str):
        self.match_id, self.seats = match_id, {}

    def hold(self, seed: bytes, player: str) -> None:
        """Keep the chains of ``seed``, ``player``'s (whose private state is kept in PBD_HOME)."""
        self.seats[seed] = player

    def _path(self, player: str, generation: int) -> str:
        return os.path.join(_folder(self.match_id), f"{_stem(player)}.chain-{generation}")

    def _digest(self, seed: bytes, generation: int, length: int, chain: bytes) -> bytes:
        from pbd.digest import fingerprint

        return fingerprint(b"%s%d|%d|%s%s" % (self.MAGIC, generation, length, seed, chain))

    def load(self, seed: bytes, generation: int, length: int) -> bytes | None:
        """Return the chain kept for ``seed``'s ``generation`` (None: none kept, or not sound)."""
        player = self.seats.get(seed)
        if player is None:
            return None
        try:
            with open(self._path(player, generation), "rb") as f:
                data = f.read()
        except OSError:
            return None
        magic, start = self.MAGIC, len(self.MAGIC) + 32
        chain = data[start:]
        if (not data.startswith(magic) or len(chain) != 32 * (length + 1)
                or data[len(magic):start] != self._digest(seed, generation, length, chain)):
            return None
        return chain

    def save(self, seed: bytes, generation: int, length: int, chain: bytes) -> None:
        """Keep ``chain`` for the next command (nothing in a dry run, or for a seat not held; a failure is
        silent: the next command walks the chain again)."""
        from pbd import cache

        player = self.seats.get(seed)
        if player is None or not cache.writable():
            return
        try:
            paths.write_private(self._path(player, generation),
                                self.MAGIC + self._digest(seed, generation, length, chain) + chain)
        except OSError:
            pass

    def forget(self, player: str) -> None:
        """Remove every chain kept for ``player`` (``<player>.chain-<digits>``: no other seat's file)."""
        folder = _folder(self.match_id)
        prefix = f"{_stem(player)}.chain-"
        try:
            names = [n for n in os.listdir(folder) if n.startswith(prefix) and n[len(prefix):].isdigit()]
            for name in names:
                os.unlink(os.path.join(folder, name))
        except OSError as exc:
            raise BackendError(f"cannot remove kept chains under {paths.home()}: {exc}") from None


#: ``(path, version, hand document)`` of the last private-state file :func:`load` read, so that :func:`save`
#: knows whether that file is a pointer to a hand document without parsing it again (a long match's file
#: holds every entry its seat wrote); any change to the file since (another version) makes save read it.
_LOADED: tuple = ("", None, None)


def _version(path: str) -> tuple | None:
    """Return what tells one content of the file at ``path`` from another: its inode, size and change times."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _hand_doc(path: str) -> str | None:
    """Return the hand document a private-state file points to, if it is such a pointer."""
    try:
        data = jsonfile.read(path)
    except (OSError, ValueError):
        return None
    return data.get("hand_doc") if isinstance(data, dict) else None


def _write_json(path: str, data: dict) -> None:
    _write_text(path, jsonfile.dumps(data))


def _write_text(path: str, text: str) -> None:
    try:
        paths.write_private(path, text.encode("utf-8"))
    except OSError as exc:
        raise BackendError(f"cannot save private state under {paths.home()}: {exc}") from None
