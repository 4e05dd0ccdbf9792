"""The contract every game must keep, as one function a game author runs: :func:`check_game`.

Shipped in the wheel, so a third-party game tests itself the way pbd tests its own::

    from pbd.testing import check_game
    from mygame import GAME

    def test_mygame_keeps_the_contract():
        check_game(GAME)

It plays random legal matches for the fewest and the most seats the game allows, and
after every move checks what pbd relies on:

* the document reads back: ``render(parse(render(s))) == render(s)`` and the parsed
  state describes the same public position;
* ``pbd show --json`` carries ``game``, ``players`` (seat order), ``to_move`` and
  ``result`` (see :meth:`~pbd.games.base.Playable.view`);
* every position reached passes the game's own check (``problems``);
* no seat's hidden cards are in the document: when the game keeps hands in a shared
  deck (``state.deck``), no seat can read a card in another seat's hand;
* a finished match has a result, offers no legal move and has no one to move.

Then it plays one match through the pipeline the CLI uses (a real local document,
private state in a scratch ``PBD_HOME``): new, join for every seat, moves from
``legal`` to the end, ``reveal`` by everyone and a clean ``audit``; and checks that
``undo`` refuses to take back a move that revealed information.

It fails fast and says why: a match where no seat has a legal move and none is owed
("stalled"), a position that keeps coming back (:data:`REPEATS`), a move budget
(:data:`MAX_MOVES`) that fails in seconds, the keys that differ when a document reads back
as another position, and — replaying each finished match's log the way every command
does, without anyone's seed — "the game's replay disagrees with its move" (or raises).

A broken promise raises :class:`ContractError` naming the game, the seats, the move
and what went wrong.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import tempfile
from pathlib import Path

from pbd.errors import IllegalMoveError, PbdError
from pbd.simulate import NAMES, pick, random_game


class ContractError(AssertionError):
    """A game broke a promise of the contract (the message says which, and where)."""


#: the default move budget of one match (a random match of every built-in game ends well within it)
MAX_MOVES = 1500
#: a public position seen this many times in one match: the match goes round in circles
REPEATS = 30


def check_game(game, *, seats: list[int] | None = None, matches: int = 2, seed: int = 0,
               max_moves: int = MAX_MOVES, pipeline: bool = True) -> None:
    """Check ``game`` against the contract (see the module docstring).

    ``seats`` defaults to the fewest and the most the game allows; ``matches`` random
    matches are played for each.  With ``pipeline``, one more match per seat count is
    played through the document pipeline, revealed and audited.

    :raises ContractError: the first broken promise.
    """
    low, high = game.players
    for n in seats or sorted({low, high}):
        for i in range(matches):
            check_random_match(game, n, random.Random(f"{seed}|{n}|{i}"), max_moves)
        if pipeline:
            check_match_through_pipeline(game, n, random.Random(f"{seed}|{n}|pipeline"), max_moves)


def check_random_match(game, players: int, rng: random.Random, max_moves: int = MAX_MOVES) -> None:
    """Play one random legal match in process, check every position reached, then replay its log.

    :raises ContractError: a position breaks the contract, the match stalls, goes round in
        circles or does not end, or its replay disagrees with it.
    """
    where = f"{game.name} with {players} seats"
    state, moves, seen = None, 0, {}
    for state, player, move in random_game(game, rng, max_moves=max_moves, players=players):
        moves += 1
        after = f"{where}, after {player}: {move}"
        _check_position(game, state, after)
        key = _position_key(game, state)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= REPEATS:
            raise ContractError(f"{after}: this position came back {REPEATS} times: the match goes round in circles")
    if state is None:
        raise ContractError(f"{where}: no seat had a legal move at the start")
    if not game.outcome(state):
        if moves < max_moves:
            raise ContractError(f"{where}: stalled after {moves} moves: no seat has a legal move and the match "
                                f"has no result (to move: {', '.join(game.actors(state)) or 'no one'})")
        raise ContractError(f"{where}: the match did not end within {max_moves} moves")
    for name in game.player_names(state):
        if game.legal(state, name):
            raise ContractError(f"{where}: the match is over but {name} still has legal moves")
    if game.actors(state):
        raise ContractError(f"{where}: the match is over but {game.actors(state)} are still to move")
    from pbd.table.game import CardGame

    if isinstance(game, CardGame):      # C&C's in-process play (every seed held) resolves a Hack at once
        check_replay(game, state, where)


def _position_key(game, state) -> str:
    """Return the public position and who is to move, as one comparable text."""
    return json.dumps([game.describe(state), game.actors(state)], sort_keys=True, default=str)


def check_replay(game, state, where: str = "") -> None:
    """Replay the log of ``state``'s document as every command does (no one's seed) and compare.

    A log the document alone cannot replay to the end (a card that turned face up was since
    reshuffled off the document) is left to the audit, which reads the revealed seeds.

    :raises ContractError: the replay raises (a bug in the game), writes other words than a
        logged move, or ends in another public position than the document's (the keys named).
    """
    from pbd import audit
    from pbd.errors import GameBug

    where = where or game.name
    board = game.parse(game.render(state))
    try:
        rebuilt = audit.replay_log(game, board, public=True)
    except GameBug as exc:
        raise ContractError(f"{where}: the game's replay raises: {exc.message}") from None
    if rebuilt is None:
        return
    disagree = [p for p in rebuilt.problems if "replaying the move gives" in p]
    if disagree:
        raise ContractError(f"{where}: the game's replay disagrees with its move: {disagree[0]}")
    if rebuilt.problems or not rebuilt.complete:
        # the document no longer holds what a seedless replay needs (a card reshuffled away): pbd's
        # own hand-edit check cannot tell either, and says nothing; only the audit (seeds revealed) can
        return
    differ = audit.board_differences(game, rebuilt.state, board)
    if differ:
        raise ContractError(f"{where}: the game's replay ends in another position than its moves: "
                            + "; ".join(differ[:6]))


def _check_position(game, state, where: str) -> None:
    text = game.render(state)
    try:
        again = game.parse(text)
    except PbdError as exc:
        raise ContractError(f"{where}: the document cannot be read back: {exc}") from None
    if game.render(again) != text:
        raise ContractError(f"{where}: the document does not read back the same")
    if game.describe(again) != game.describe(state):
        from pbd.audit import board_differences

        differ = board_differences(game, state, again)
        raise ContractError(f"{where}: the document read back describes another position: "
                            + "; ".join(d.replace("the log gives", "the state has") for d in differ[:6]))
    view = game.view(again)
    for key in ("game", "players", "to_move", "result"):
        if key not in view:
            raise ContractError(f"{where}: 'pbd show --json' lacks {key!r}")
    names = [p["name"] if isinstance(p, dict) else p for p in view["players"]]
    if names != game.player_names(state):
        raise ContractError(f"{where}: 'players' is not the seats in order: {names}")
    found = game.problems(again)
    if found:
        raise ContractError(f"{where}: the game's own check finds problems: {found}")
    _check_privacy(state, where)


def _check_privacy(state, where: str) -> None:
    deck = getattr(state, "deck", None)
    if deck is None or not hasattr(deck, "hands") or not hasattr(deck, "card"):
        return
    for owner, slots in deck.hands.items():
        for other in deck.hands:
            if other == owner:
                continue
            for slot in slots:
                card = deck.card(slot, other)
                if card is not None and getattr(deck.slots[slot], "card", None) is None:
                    raise ContractError(f"{where}: {other} can read {owner}'s hidden card in slot {slot}")


# -- one match through the pipeline the CLI uses ------------------------------------------------

@contextlib.contextmanager
def _scratch_home():
    old = os.environ.get("PBD_HOME")
    with tempfile.TemporaryDirectory(prefix="pbd-contract-") as tmp:
        os.environ["PBD_HOME"] = str(Path(tmp) / "home")
        try:
            yield Path(tmp)
        finally:
            if old is None:
                os.environ.pop("PBD_HOME", None)
            else:
                os.environ["PBD_HOME"] = old


def check_match_through_pipeline(game, players: int, rng: random.Random, max_moves: int = MAX_MOVES) -> None:
    """Play one match on a real local document through :mod:`pbd.match`, reveal it and audit it.

    :raises ContractError: a command fails where it should not, undo takes back revealed
        information, or the audit is not clean.
    """
    from pbd import match

    where = f"{game.name} with {players} seats, through the pipeline"
    names = NAMES[:players]
    with _scratch_home() as tmp:
        doc = str(tmp / "match.txt")
        pool = game.sample_decks() or [None]
        options = {"players": players} if players != 2 else {}
        _run(where, "new", match.new, game.name, doc, names[0], rng.choice(pool), f"{rng.random()}", options)
        for name in names[1:]:
            _run(where, f"join {name}", match.join, doc, name,
                 rng.choice(pool) if game.join_needs_deck else None, f"{rng.random()}")
        stalls, moved = 0, None
        for _ in range(max_moves):
            _, g, state = match.load(match.open_document(doc))
            if moved is not None:       # the move just made, checked on the state read for the next one
                _check_undo(where, match, g, state, doc, moved)
                moved = None
            if g.outcome(state):
                break
            actors = g.actors(state)
            if not actors:
                raise ContractError(f"{where}: no one is to move and the match has no result")
            moves = []
            for player in actors:  # 'legal' first does what that seat's pbd owes (its next command)
                listed = _run(where, f"legal {player}", match.legal, doc, player)
                _no_warnings(where, f"legal {player}", listed)
                moves = listed.data["moves"]
                if moves:
                    break
            if not moves:
                stalls += 1
                if stalls > len(names):
                    raise ContractError(f"{where}: stalled: {', '.join(actors)} are to move but none has a legal "
                                        "move, and no duty is owed")
                continue
            stalls = 0
            move = pick(moves, rng, g.move_weights)
            done = _run(where, f"{player}: {move}", match.move, doc, player, move)
            _no_warnings(where, f"{player}: {move}", done)
            moved = player
        else:
            raise ContractError(f"{where}: the match did not end within {max_moves} moves")
        for name in names:
            _run(where, f"reveal {name}", match.reveal, doc, name)
        _run(where, "audit", match.audit, doc)


def _check_undo(where: str, match, game, state, doc: str, player: str) -> None:
    """After an informative move (the last entry of ``state``, just read from ``doc``), undo must refuse.

    Its refusal must leave the document as it was.
    """
    last = state.meta.log[-1]
    if not game.informative(last):
        return
    before = Path(doc).read_bytes()
    try:
        match.undo(doc, player)
    except IllegalMoveError:
        if Path(doc).read_bytes() != before:
            raise ContractError(f"{where}: a refused undo changed the document") from None
        return
    except PbdError as exc:
        raise ContractError(f"{where}: undo after '{last.text}' failed oddly: {exc}") from None
    raise ContractError(f"{where}: undo took back '{last.text}', which revealed information")


def _no_warnings(where: str, what: str, result) -> None:
    """Refuse a move after which pbd warns (the hand-edit check found its replay disagreeing)."""
    warned = [w for w in getattr(result, "warnings", []) if "by hand" in w or "replay disagrees" in w]
    if warned:
        raise ContractError(f"{where}: after {what}: " + "; ".join(warned[:3]))


def _run(where: str, what: str, fn, *args):
    try:
        return fn(*args)
    except PbdError as exc:
        raise ContractError(f"{where}: {what} failed: {exc}") from None
