"""Shell completion: the words a shell offers after ``pbd ... <TAB>`` (card names, documents).

Each function has click's ``shell_complete(ctx, param, incomplete)`` shape and returns plain
strings, so this module needs no click; :mod:`pbd.cli` attaches them to parameters
(``documents`` to every ``DOC`` argument, ``card_names`` to ``pbd card NAME``).  They never
raise: a shell's Tab must not print a traceback.
"""

from __future__ import annotations

import os

#: at most this many words are offered (a folder of thousands of files stays quick)
LIMIT = 200
#: documents look like this when they are local files
DOC_SUFFIXES = (".txt", ".md", ".pbd")


def card_names(ctx, param, incomplete: str) -> list[str]:
    """Return the card names starting with ``incomplete`` (any case), from the game ``--game`` names or every game."""
    game = (getattr(ctx, "params", None) or {}).get("game")
    try:
        names = names_of(game)
    except Exception:       # noqa: BLE001 - completion must never fail the shell
        return []
    low = incomplete.casefold()
    return sorted(n for n in names if n.casefold().startswith(low))[:LIMIT]


def names_of(game_name: str | None) -> list[str]:
    """Return every card name ``pbd card`` knows in ``game_name`` (or in every bundled game): the bundled
    catalogues (:mod:`pbd.cards_text`) and the names a game's ``card_names()`` hook adds (players' own)."""
    from pbd import cards_text, games

    out: list[str] = []
    for name in [game_name] if game_name else list(games.BUNDLED):
        game = games.get(name)
        hook = getattr(game, "card_names", None)
        if hook is not None:
            out += hook()
        if game.name in cards_text.SOURCES:
            out += [e.name for e in cards_text.entries(game.name)]
    return list(dict.fromkeys(out))


def documents(ctx, param, incomplete: str) -> list[str]:
    """Return the match documents whose name starts with ``incomplete``: the matches pbd remembers
    (``pbd status``'s list under PBD_HOME: files, Google Docs), local files and folders; ``gdoc:`` too."""
    out = remembered(incomplete)
    if not (incomplete.startswith("gdoc:") or incomplete.startswith("http")):
        out += local_files(incomplete)
    return sorted(dict.fromkeys(out))[:LIMIT]


def remembered(incomplete: str) -> list[str]:
    """Return the remembered documents starting with ``incomplete``: a file (still there) under the current
    folder by its relative path, as a player types it, another by its absolute path; a Google Doc by its URL."""
    try:
        from pbd import status

        docs, here = status.remembered_documents(), os.getcwd()
    except Exception:       # noqa: BLE001 - completion must never fail the shell
        return []
    out = []
    for doc in docs[:LIMIT]:
        if os.path.isabs(doc):
            if not os.path.isfile(doc):
                continue
            inside = os.path.dirname(doc) == here or doc.startswith(here.rstrip(os.sep) + os.sep)
            doc = os.path.relpath(doc, here) if inside and not incomplete.startswith(os.sep) else doc
        if doc.startswith(incomplete):
            out.append(doc)
    return out


def local_files(incomplete: str) -> list[str]:
    """Return local match documents (and folders) whose path starts with ``incomplete``; ``gdoc:`` is offered too."""
    folder, _, stem = incomplete.rpartition(os.sep)
    base = folder or "."
    out = ["gdoc:"] if "gdoc:".startswith(incomplete) and incomplete else []
    try:
        with os.scandir(os.path.expanduser(base) if base != os.sep else os.sep) as entries:
            for entry in entries:
                if len(out) >= LIMIT:
                    break
                if not entry.name.startswith(stem) or entry.name.startswith(".") and not stem.startswith("."):
                    continue
                path = (folder + os.sep if folder or incomplete.startswith(os.sep) else "") + entry.name
                if entry.is_dir():
                    out.append(path + os.sep)
                elif entry.name.endswith(DOC_SUFFIXES):
                    out.append(path)
    except OSError:
        return out
    return out
