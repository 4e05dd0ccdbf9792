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


def transact(doc: Document, player: str, step, undoable: bool = False) -> Result:
    """Read, apply ``step(game, state, chance)``, render and write once; retry if stale.

    ``step`` returns a :class:`Result`.  If the document changed between our read and
    our write, the step is replayed on the new board; if it is no longer legal there,
    that is reported as a conflict.  With ``undoable``, the board before the step is
    kept in the player's private state for ``pbd undo``.

    :raises ConflictError: the board kept changing, or the move became illegal.
    """
    for attempt in range(RETRIES):
        snap, game, state = load(doc)
        _need_match(state, doc.label)
        name = _seat(game, state, player)
        sec = private.load(state.meta.match_id, name)
        before = {"text": snap.text, "from": len(state.meta.log) + 1, "hand": list(sec.hand),
                  "drawn": list(sec.drawn)}
        game.attach(state, sec)
        _check_chains(state.meta, sec)
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
        _remember(sec, state, before if undoable else None)
        private.save(sec)
        return result
    raise ConflictError(f"{doc.label} kept changing while pbd tried to write; nothing was written",
                        hint="wait for the other player to finish editing and try again")


def _check_chains(meta, sec) -> None:
    """Check every other player's published chain value against the one we saw last, and note it.

    Each value must hash, once per turn in between, to the one published before it, back to
    the head committed at the start; anything else means the Fair play section was edited.

    :raises DocumentFormatError: a chain value that does not follow.
    """
    seen = sec.extra.setdefault("chains", {})
    for pub in meta.fairplay:
        if pub.name.casefold() == sec.player.casefold() or not pub.chain:
            continue
        last = seen.get(pub.name)
        if last and not (pub.chain_index >= last[0]
                         and fairplay.chain_reaches(pub.chain, pub.chain_index - last[0], last[1])):
            raise DocumentFormatError(
                f"{pub.name}'s published chain value {pub.chain_index} does not follow the value "
                f"{last[0]} published before it", hint="the Fair play section was edited; run pbd audit DOC")
        seen[pub.name] = [pub.chain_index, pub.chain]


def _remember(sec, state, before: dict | None) -> None:
    """Keep the log entry we last wrote (a witness for audits) and what undo needs."""
    log = state.meta.log
    if log:
        sec.extra["log"] = [len(log), log[-1].hash]
    sec.extra.pop("undo", None)
    if before is not None and len(log) >= before["from"]:
        sec.extra["undo"] = {**before, "to": len(log), "hash": log[-1].hash}


def _stopped(state) -> None:
    if state.meta.revealed and not getattr(state, "result", None):
        names = " and ".join(r.name for r in state.meta.revealed)
        raise IllegalMoveError(f"{names} revealed their seed, so the match is stopped: further draws would not be "
                               "secret", hint="run pbd audit DOC")


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
    options = dict(options or {})
    if "players" in options:
        options["players"] = _players(game, options["players"])
    doc = open_document(doc_spec, create=True, **(doc_options or {}))
    base: Snapshot | None = None
    if doc.exists():
        base = doc.read()
        if base.text.strip():
            raise UsageError(f"{doc.label} already has something in it; pbd new needs a new or empty document")
    match_id = _secrets.token_hex(4)
    state, sec = game.create(match_id, player, deck, _seed(seed_text), options)
    _write(doc, game, state, base)
    private.save(sec)
    return Result([f"{game.title}: match {match_id} started on {doc.label}; you are {player} (player 1).",
                   f"Your opponent joins with: pbd join {doc.label} --as NAME"
                   + (" --deck DECK" if game.join_needs_deck else "")],
                  {"match": match_id, "document": doc.label}, location=doc.label)


def _players(game, value) -> int:
    """Return ``--players N`` checked against the game's range of seats.

    :raises UsageError: not a number, or outside the game's range.
    """
    low, high = game.players
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"--players takes a number, not {value!r}") from None
    if not low <= n <= high:
        seats = f"exactly {low}" if low == high else f"{low} to {high}"
        raise UsageError(f"{game.title} is played by {seats} players, not {n}")
    return n


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
    return Result(game.render(state).rstrip("\n").split("\n"), game.view(state))


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
        _stopped(state)
        return Result(game.play(state, name, notation, chance))

    return transact(open_document(doc_spec), player, step, undoable=True)


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
    return Result(moves or ["(no legal moves for you now)", *game.status(state)], {"moves": moves})


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


# -- fair play ------------------------------------------------------------------------

def roll(doc_spec: str, player: str, dice: str) -> Result:
    """Roll dice (``2d6``, ``d20``) for the player; the result is logged and public at once.

    :raises UsageError: not dice notation.
    """
    from pbd import audit

    try:
        n, sides = audit.parse_dice(dice)
    except ValueError as exc:
        raise UsageError(str(exc), hint="for example: pbd roll DOC --as Ann 2d6") from None

    def step(game, state, name, chance):
        _stopped(state)
        faces = [chance.roll(name, sides) for _ in range(n)]
        text = audit.roll_text(sides, faces)
        state.meta.record(name, text)
        return Result([f"{name} {text}"], {"dice": f"{n}d{sides}", "faces": faces, "total": sum(faces)})

    return transact(open_document(doc_spec), player, step)


def log(doc_spec: str) -> Result:
    """Return the move log with its hash chain checked."""
    from pbd import audit

    snap = open_document(doc_spec).read()
    state = identify(snap.text).parse(snap.text)
    problems = audit.log_problems(state.meta, audit.entry_lines(snap.text))
    lines = [e.line() + (f" · #{e.hash}" if e.hash else "") for e in state.meta.log] or ["(the log is empty)"]
    lines.append(f"log chain: {'intact' if not problems else 'BROKEN'} ({len(state.meta.log)} entries)")
    lines += [f"  - {p}" for p in problems]
    entries = [{"n": e.number, "player": e.player, "text": e.text, "hash": e.hash,
                "events": [vars(ev) for ev in e.events], "published": e.published} for e in state.meta.log]
    return Result(lines, {"entries": entries, "problems": problems})


def reveal(doc_spec: str, player: str, now: bool = False) -> Result:
    """Publish the player's seed and committed deck list (at the end, or with ``now``).

    :raises IllegalMoveError: the match is still on and ``now`` was not given.
    :raises ProblemsFound: the private state does not match the published commitment.
    """
    from pbd.games.base import Reveal

    def step(game, state, name, chance):
        meta = state.meta
        if meta.revealed_by(name):
            raise UsageError(f"{name} has already revealed")
        if not game.outcome(state) and not now and not meta.revealed:
            raise IllegalMoveError("the match is still on; reveal once it has a result, or with --now when both "
                                   "players agree to stop here (your coming draws become public)")
        sec = chance.secrets[name.casefold()]
        committed = game.committed(state, sec)
        pub = meta.player(name)
        if pub is None or fairplay.commitment(sec.seed, committed) != pub.commitment:
            raise ProblemsFound("your private state does not match your published commitment; nothing revealed",
                                [f"{name}'s commitment in the document: {pub.commitment if pub else 'none'}"])
        meta.revealed.append(Reveal(pub.name, sec.seed.hex(), committed))
        meta.record(pub.name, "revealed seed and deck list")
        return Result([f"{pub.name} revealed the seed and the {len(committed)}-line deck list.",
                       "Anyone can now check the draws: pbd audit DOC"])

    return transact(open_document(doc_spec), player, step)


def _rebuild(game, state, derived):
    from pbd import audit

    try:
        return audit.rebuild(game, state, derived)
    except NotImplementedError:
        return None


def audit(doc_spec: str) -> Result:
    """Check the fair play of a match: log chain, chain values, every revealed draw and roll, every play.

    :raises ProblemsFound: any discrepancy (exit 1), each one listed.
    """
    from pbd import audit as au

    snap = open_document(doc_spec).read()
    game = identify(snap.text)
    state = game.parse(snap.text)
    _need_match(state, doc_spec)
    meta = state.meta
    problems = au.log_problems(meta, au.entry_lines(snap.text)) + au.chain_problems(meta)
    for p in meta.fairplay:
        if private.exists(meta.match_id, p.name):
            problems += au.witness_problems(meta, private.load(meta.match_id, p.name))
    derived, lines = {}, []
    for p in meta.fairplay:
        r = meta.revealed_by(p.name)
        if r is None:
            lines.append(f"{p.name}: not revealed — {p.draws} random events; their draws are checked once "
                         f"{p.name} runs pbd reveal")
            continue
        d = au.derive(meta, p.name, game.drawable(r.deck))
        derived[d.player] = d
        problems += d.problems
        lines.append(f"{p.name}: revealed — {p.draws} random events re-derived from the seed")
    for r in meta.revealed:
        if meta.player(r.name) is None:
            problems.append(f"Revealed: {r.name} is not a player of this match")
    rebuilt = _rebuild(game, state, derived)
    if rebuilt is None:
        lines.append(f"{game.title} cannot replay its log yet: the plays were not checked against the hands")
    else:
        problems += rebuilt.problems
        if rebuilt.complete and rebuilt.state is not None:
            problems += au.board_differences(game, rebuilt.state, state)
    lines.insert(0, f"{doc_spec}: {len(meta.log)} log entries")
    if problems:
        raise ProblemsFound("\n".join(lines + [f"audit: {len(problems)} problem(s) found"]), problems)
    lines.append("audit: clean — the log chain holds, every chain value and revealed draw and roll checks out, "
                 "and every logged move replays to the board")
    return Result(lines, {"problems": [], "players": [p.name for p in meta.fairplay],
                          "revealed": [r.name for r in meta.revealed]})


def replay(doc_spec: str) -> Result:
    """Rebuild the public state from the log and name every difference from the board.

    :raises ProblemsFound: the board differs from what the log gives (exit 1).
    """
    from pbd import audit as au

    snap = open_document(doc_spec).read()
    game = identify(snap.text)
    state = game.parse(snap.text)
    _need_match(state, doc_spec)
    rebuilt = _rebuild(game, state, {})
    if rebuilt is None:
        raise UsageError(f"{game.title} cannot replay its log yet")
    problems = list(rebuilt.problems)
    if rebuilt.complete and rebuilt.state is not None:
        problems += au.board_differences(game, rebuilt.state, state)
        problems += au.line_differences(game, rebuilt.state, state, snap.text)
    if problems:
        raise ProblemsFound(f"{doc_spec}: the board is not what the log gives ({len(problems)} difference(s))",
                            problems)
    return Result([f"{doc_spec}: replaying the {len(state.meta.log)} log entries gives exactly this board."],
                  {"problems": []})


def undo(doc_spec: str, player: str) -> Result:
    """Take back the player's last move while the opponent has not moved and it revealed nothing.

    The board before the move comes from the player's private state; the move stays in
    the log, followed by a take-back entry.

    :raises IllegalMoveError: nothing to take back, the opponent moved since, or the move
        drew, rolled, published a chain value or showed a hand card.
    """
    doc = open_document(doc_spec)
    for _ in range(RETRIES):
        snap, game, state = load(doc)
        _need_match(state, doc.label)
        name = _seat(game, state, player)
        sec = private.load(state.meta.match_id, name)
        rec = sec.extra.get("undo")
        log_ = state.meta.log
        if not rec:
            raise IllegalMoveError(f"{name} has no move to take back (only your last 'pbd move' can be, once)")
        if len(log_) != rec["to"] or log_[-1].hash != rec["hash"]:
            raise IllegalMoveError("the match went on after your last move (or the log was edited); "
                                   "it can no longer be taken back")
        entries = log_[rec["from"] - 1:rec["to"]]
        for e in entries:
            if game.informative(e):
                raise IllegalMoveError(f"log entry {e.number} ({e.text}) revealed new information (a draw, a roll, "
                                       "a chain value or a hand card); it cannot be taken back")
        previous = game.parse(rec["text"])
        previous.meta = state.meta
        a, b = rec["from"], rec["to"]
        span = f"{a}" if a == b else f"{a}-{b}"
        moves = "; ".join(e.text.split(" · ")[0] for e in entries)
        state.meta.record(name, f"takes back {span}: {moves}")
        sec.hand, sec.drawn = list(rec["hand"]), list(rec["drawn"])
        game.attach(previous, sec)
        game.detach(previous, sec)
        try:
            _write(doc, game, previous, snap)
        except StaleRevision:
            continue
        _remember(sec, previous, None)
        private.save(sec)
        return Result([f"{name} took back {moves} (log entries {span}).", *game.status(previous)])
    raise ConflictError(f"{doc.label} kept changing while taking back; nothing was written")
