"""The one pipeline: read the document, parse, apply the rules, render, write once.

Each public function here backs one CLI command of the same name.  Failures before
the write leave the document byte-for-byte unchanged; private state is saved only
after the document write succeeded.
"""

from __future__ import annotations

import secrets as _secrets
from dataclasses import dataclass

from pbd import fairplay, games, private
from pbd.documents import Document, Snapshot, open_document
from pbd.errors import ConflictError, DocumentFormatError, IllegalMoveError, ProblemsFound, StaleRevision, UsageError
from pbd.games.base import Chance, split_frame

#: How many times a write refused as stale is rebuilt on the new board and retried.
RETRIES = 3


@dataclass
class Result:
    """What a command did: lines to print and data for ``--json``."""

    lines: list[str]
    data: dict | None = None
    location: str | None = None


# -- reading -----------------------------------------------------------------------

def identify(text: str, game_name: str | None = None):
    """Return the game a document belongs to: from its title line, else by sniffing.

    :raises DocumentFormatError: no registered game recognises the document.
    """
    if game_name:
        return games.get(game_name)
    frame = split_frame(text)
    if frame.title:
        for game in games.games():
            if frame.title.casefold() in (game.title.casefold(), game.name):
                return game
        raise DocumentFormatError(f"the title names an unknown game {frame.title!r}", line=1,
                                  hint="known games: " + ", ".join(games.registry()))
    for game in games.games():
        if game.sniff(text):
            return game
    raise DocumentFormatError("this is not a pbd match document or a board pbd recognises",
                              hint="start one with 'pbd new GAME DOC', or name the game with --game")


def load(doc: Document, game_name: str | None = None):
    """Return ``(snapshot, game, state)`` for a document."""
    snap = doc.read()
    game = identify(snap.text, game_name)
    return snap, game, game.parse(snap.text)


def _need_match(state, label: str) -> None:
    if not state.meta.match_id:
        raise DocumentFormatError(f"{label} has no 'pbd match ID' title line, so it is not a match pbd started",
                                  line=1, hint="'pbd check' reads hand-made boards; 'pbd new' starts a match")


def _seat(game, state, player: str) -> str:
    for name in game.player_names(state):
        if name.casefold() == player.casefold():
            return name
    raise UsageError(f"{player!r} is not playing in this match",
                     hint="players: " + ", ".join(game.player_names(state)))


# -- the write path ---------------------------------------------------------------

def _write(doc: Document, game, state, base: Snapshot | None) -> Snapshot:
    text = game.render(state)
    return doc.write(text, base, styles=game.styles(text))


def transact(doc: Document, player: str, step) -> Result:
    """Read, apply ``step(game, state, chance)``, render and write once; retry if stale.

    ``step`` returns a :class:`Result`.  If the document changed between our read and
    our write, the step is replayed on the new board; if it is no longer legal there,
    that is reported as a conflict.

    :raises ConflictError: the board kept changing, or the move became illegal.
    """
    for attempt in range(RETRIES):
        snap, game, state = load(doc)
        _need_match(state, doc.label)
        name = _seat(game, state, player)
        sec = private.load(state.meta.match_id, name)
        game.attach(state, sec)
        chance = Chance(state.meta, {name: sec})
        try:
            result = step(game, state, name, chance)
        except IllegalMoveError as exc:
            if attempt:
                raise ConflictError(f"the board changed while you moved, and now: {exc.message}") from None
            raise
        game.detach(state, sec)
        try:
            _write(doc, game, state, snap)
        except StaleRevision:
            continue
        private.save(sec)
        return result
    raise ConflictError(f"{doc.label} kept changing while pbd tried to write; nothing was written",
                        hint="wait for the other player to finish editing and try again")


# -- commands ----------------------------------------------------------------------

def games_list() -> Result:
    """List the registered games."""
    rows = [{"name": g.name, "title": g.title, "aliases": list(g.aliases), "summary": g.summary}
            for g in games.registry().values()]
    return Result([f"{r['name']:<8} {r['title']}" + (f" — {r['summary']}" if r["summary"] else "") for r in rows],
                  {"games": rows})


def template(game_name: str) -> Result:
    """Return the blank board of a game."""
    return Result([games.get(game_name).template().rstrip("\n")])


def _seed(seed_text: str | None) -> bytes:
    return fairplay.seed_from_text(seed_text) if seed_text is not None else fairplay.new_seed()


def new(game_name: str, doc_spec: str, player: str, deck: str | None, seed_text: str | None = None,
        options: dict | None = None, doc_options: dict | None = None) -> Result:
    """Start a match on a new (or empty) document, as player 1."""
    game = games.get(game_name)
    doc = open_document(doc_spec, create=True, **(doc_options or {}))
    base: Snapshot | None = None
    if doc.exists():
        base = doc.read()
        if base.text.strip():
            raise UsageError(f"{doc.label} already has something in it; pbd new needs a new or empty document")
    match_id = _secrets.token_hex(4)
    state, sec = game.create(match_id, player, deck, _seed(seed_text), dict(options or {}))
    _write(doc, game, state, base)
    private.save(sec)
    return Result([f"{game.title}: match {match_id} started on {doc.label}; you are {player} (player 1).",
                   "Your opponent joins with: pbd join DOC --as NAME --deck DECK"],
                  {"match": match_id, "document": doc.label}, location=doc.label)


def join(doc_spec: str, player: str, deck: str | None, seed_text: str | None = None) -> Result:
    """Join the match on a document as the next player; deals their hand privately."""
    doc = open_document(doc_spec)
    seed = _seed(seed_text)
    for _ in range(RETRIES):
        snap, game, state = load(doc)
        _need_match(state, doc.label)
        state, sec = game.join(state, player, deck, seed)
        try:
            _write(doc, game, state, snap)
        except StaleRevision:
            continue
        private.save(sec)
        return Result([f"{player} joined match {state.meta.match_id}.", *game.status(state)])
    raise ConflictError(f"{doc.label} kept changing while joining; nothing was written")


def show(doc_spec: str, game_name: str | None = None) -> Result:
    """Parse the board and return it pretty-printed and as data."""
    _, game, state = load(open_document(doc_spec), game_name)
    return Result(game.render(state).rstrip("\n").split("\n"), game.describe(state))


def _settle(doc: Document, player: str):
    """Return ``(game, state, name)``, after writing what the player's pbd owes (``Playable.pending``).

    A game may need a step only this player's pbd can take (Twin Tower City: the unlocks
    of a shared deal); read commands given ``--as`` take it first, in one guarded write.
    """
    _, game, state = load(doc)
    _need_match(state, doc.label)
    name = _seat(game, state, player)
    if game.pending(state, name):
        transact(doc, name, lambda g, s, n, c: Result(g.settle(s, n, c)))
        _, game, state = load(doc)
    return game, state, name


def hand(doc_spec: str, player: str) -> Result:
    """Return a player's private hand."""
    game, state, name = _settle(open_document(doc_spec), player)
    sec = private.load(state.meta.match_id, name)
    game.attach(state, sec)
    data = game.hand(state, sec)
    lines = [f"{name}'s hand ({len(data['hand'])}):", *(f"  {c}" for c in data["hand"])]
    lines += [f"{k.replace('_', ' ')}: {v}" for k, v in data.items() if k != "hand"]
    return Result(lines, data)


def move(doc_spec: str, player: str, notation: str) -> Result:
    """Apply one or more moves (joined by ';'), all or nothing."""
    if not notation.strip():
        raise UsageError("no move given", hint='for example: pbd move DOC --as Ann "draw; play Spider-Man"')

    def step(game, state, name, chance):
        return Result(game.play(state, name, notation, chance))

    return transact(open_document(doc_spec), player, step)


def draw(doc_spec: str, player: str, count: int = 1) -> Result:
    """Draw ``count`` cards (the game's draw move)."""
    if count < 1:
        raise UsageError("draw at least 1 card")
    return move(doc_spec, player, "draw" if count == 1 else f"draw {count}")


def legal(doc_spec: str, player: str) -> Result:
    """List every move legal now for the player."""
    game, state, name = _settle(open_document(doc_spec), player)
    game.attach(state, private.load(state.meta.match_id, name))
    moves = game.legal(state, name)
    return Result(moves or ["(no legal moves now)"], {"moves": moves})


def check(doc_spec: str, game_name: str | None = None) -> Result:
    """Validate a board as people left it; every broken rule is listed.

    :raises ProblemsFound: the position breaks rules (exit 1).
    """
    snap = open_document(doc_spec).read()
    problems = identify(snap.text, game_name).check_text(snap.text)
    if problems:
        raise ProblemsFound(f"{doc_spec}: {len(problems)} problem(s) found", problems)
    return Result([f"{doc_spec}: the board is consistent with the rules."], {"problems": []})


def deck_check(deck: str, game_name: str | None = None) -> Result:
    """Validate a deck list against a game's construction rules.

    :raises DeckError: the deck breaks construction rules (exit 1).
    """
    from pbd.errors import DeckError

    game = games.get(game_name or "cnc")
    summary, problems = game.deck_check(deck)
    if problems:
        raise DeckError(f"{deck}: not a legal {game.title} deck", problems)
    return Result([summary])


def score(doc_spec: str, game_name: str | None = None) -> Result:
    """Return the score breakdown of the current round of any board, hand-made ones included.

    :raises UsageError: the game has no scoring to explain.
    """
    _, game, state = load(open_document(doc_spec), game_name)
    lines, data = game.score(state)
    return Result(lines, data)
