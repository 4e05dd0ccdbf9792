"""The Tower (rules/the-tower.txt): Snakes & Ladders with cards, for 2 to 6 players.

Modules: :mod:`.state` (plain data), :mod:`.data` (board and deck TOML), :mod:`.rules`
(pure rules, with every reading), :mod:`.notation`, :mod:`.board` (the document),
:mod:`.cards` (the one adapter to the deck), :mod:`.check` (``pbd check``), :mod:`.svg`.
"""

from __future__ import annotations

import re

from pbd import fairplay
from pbd.errors import DocumentFormatError, IllegalMoveError, NotationError, PbdError, UsageError
from pbd.games.base import Chance, Meta, Playable, PlayerMeta, Secrets, render_frame
from pbd.games.tower import board, check, data, notation, rules
from pbd.games.tower.state import HAND_CARDS, State, Seat

OPTION_HELP = "board=FILE, exact-finish (=bounce, or =stay)"
NAME_RE = re.compile(r"^[^\s,;:·|\[\]()—+][^,;:·|\[\]()—+]{0,29}$")
NEW_RE = re.compile(r"^new match: (?P<n>\d) players(?:, first: (?P<first>.+))?$")
JOIN_RE = re.compile(r"^joins \(seat \d\)")


def parse_options(options: dict, creator: str) -> dict:
    """Return the match settings from ``pbd new``'s options (``board``, ``exact-finish``, ``players``, ``first``).

    :raises UsageError: an unknown option or value.
    """
    out = {"board": "default", "finish": "reach", "players": 2, "first": ""}
    for raw, value in options.items():
        key = raw.strip().lower().replace("_", "-")
        if key == "board":
            out["board"] = str(value)
        elif key in ("exact-finish", "exact"):
            v = str(value).lower()
            if v not in ("yes", "bounce", "stay", "true"):
                raise UsageError(f"exact-finish is 'bounce' (the default) or 'stay', not {value!r}")
            out["finish"] = "stay" if v == "stay" else "bounce"
        elif key == "players":
            out["players"] = int(value)
        elif key == "first":
            v = str(value).strip()
            out["first"] = "" if v.casefold() in (creator.casefold(), "me") else ("random" if v.lower() == "random" else v)
        else:
            raise UsageError(f"unknown Tower option {raw!r}", hint=f"options: {OPTION_HELP}")
    return out


class TheTower(Playable):
    """The Tower for pbd: metadata and the match hooks."""

    name = "tower"
    title = board.TITLE
    aliases = ("the-tower", "thetower", "the tower")
    summary = "Snakes & Ladders with cards: race up the tower to the treasure, 2 to 6 players"
    players = (2, 6)
    join_needs_deck = False

    # -- documents ------------------------------------------------------------------------

    def sniff(self, text: str) -> bool:
        """Return True for a Tower board without a pbd title (a template, a hand-made board)."""
        return bool(re.search(r"^\s*Board:.*floors?\s*[×x*]\s*\d+\s*tiles", text, re.M | re.I)) and \
            bool(re.search(r"^\s*Floor\s+\d+", text, re.M | re.I))

    def template(self) -> str:
        """Return the blank default board (templates/tower.txt)."""
        from pbd import paths

        return (paths.resource_dir("templates") / "tower.txt").read_text(encoding="utf-8")

    def blank(self) -> State:
        """Return the unseated default board (what the template shows)."""
        return State(Meta(self.name), data.load_layout(), data.load_deck())

    def parse(self, text: str) -> State:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        return board.parse(text, self.name)

    def render(self, state: State) -> str:
        """Return the document text of ``state``."""
        if not state.meta.match_id:
            return "\n".join([board.TITLE, *board.header(state), "", *board.body(state)]) + "\n"
        return render_frame(state.meta, self.title, board.header(state), board.body(state))

    def styles(self, text: str) -> list[tuple[int, int, str]]:
        """Return headings for the title and the Players line, bold for the turn and pending lines."""
        spans, offset = [], 0
        for line in text.split("\n"):
            if line.startswith("pbd match") or line in ("Players", board.TITLE):
                spans.append((offset, offset + len(line), "heading"))
            elif re.match(r"^(Turn|Waiting on|Winner|Duel)\b", line):
                spans.append((offset, offset + len(line), "bold"))
            offset += len(line) + 1
        return spans

    # -- starting ---------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match: the board and deck copied into the document.

        :raises UsageError: a bad name or option.
        :raises DeckFormatError: the board or deck file cannot be read (every problem listed).
        """
        _check_name(player)
        opts = parse_options(options, player)
        state = State(Meta(self.name, match_id), data.load_layout(opts["board"]), data.load_deck(deck or "default"))
        state.options.finish, state.players, state.first = opts["finish"], opts["players"], opts["first"]
        sec = self._sit(state, player, seed)
        text = f"new match: {state.players} players" + (f", first: {state.first}" if state.first else "")
        state.meta.record(player, text)
        return state, sec

    def _sit(self, state: State, player: str, seed: bytes | None) -> Secrets | None:
        """Seat ``player`` on the start tile with a full deck; commit their seed to the deck list."""
        cards = state.deck.cards()
        state.seats.append(Seat(player, _mark(state, player), state.layout.start, 0, len(cards), cards=[]))
        if seed is None:
            return None
        state.meta.fairplay.append(PlayerMeta(player, fairplay.commitment(seed, cards),
                                              fairplay.chain_value(seed, fairplay.CHAIN_LENGTH)))
        return Secrets(state.meta.match_id, player, self.name, seed, cards)

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; the last seat starts the match (a fair roll if the first player is random).

        :raises IllegalMoveError: the match is full, the name is taken, or someone else must sit last.
        :raises UsageError: a deck is given (the match's deck is in the document).
        """
        _check_name(player)
        if len(state.seats) >= state.players:
            raise IllegalMoveError(f"the match is full ({', '.join(s.name for s in state.seats)})")
        if any(s.name.casefold() == player.casefold() for s in state.seats):
            raise IllegalMoveError(f"{player} is already playing in this match; choose another name")
        if deck and deck.strip().lower() != "default":
            raise UsageError("The Tower's deck is in the match document: join without --deck")
        last = len(state.seats) + 1 == state.players
        first = state.first
        if last and first not in ("", "random") and first.casefold() != player.casefold() \
                and all(s.name.casefold() != first.casefold() for s in state.seats):
            raise IllegalMoveError(f"this match was set up for {first} to move first; {first} takes the last seat")
        sec = self._sit(state, player, seed)
        text = f"joins (seat {len(state.seats)})" + (self._start(state, Chance(state.meta, {player: sec}), player)
                                                     if last else "")
        state.meta.record(player, text)
        return state, sec

    def _start(self, state: State, chance: Chance, player: str) -> str:
        """Start the match once every seat is taken; return what the log says."""
        if state.first == "random":
            state.current = chance.roll(player, len(state.seats)) - 1
        elif state.first:
            state.current = next(i for i, s in enumerate(state.seats) if s.name.casefold() == state.first.casefold())
        state.turn = 1
        state.first = ""
        rules.start_turn(state)
        return f"; the match starts: {state.mover.name} moves first"

    # -- private hands ---------------------------------------------------------------------------

    def _own(self, state: State, secrets: Secrets) -> Seat:
        try:
            return state.seat(secrets.player)
        except KeyError:
            raise DocumentFormatError(f"{secrets.player} has no Players line in this document") from None

    def attach(self, state: State, secrets: Secrets) -> None:
        """Put the player's hand into the state.

        :raises DocumentFormatError: the board's hand or deck count disagrees with the private state.
        """
        seat = self._own(state, secrets)
        if seat.hand != len(secrets.hand):
            raise DocumentFormatError(f"the board says {seat.name} holds {seat.hand} cards; {seat.name}'s private "
                                      f"hand has {len(secrets.hand)}", hint="was the hand count edited? run pbd check")
        if seat.deck != len(secrets.remaining()):
            raise DocumentFormatError(f"the board says {seat.name} has {seat.deck} cards left to draw; "
                                      f"{len(secrets.remaining())} are left", hint="was the deck count edited?")
        seat.cards = list(secrets.hand)

    def detach(self, state: State, secrets: Secrets) -> None:
        """Copy the player's hand back into their private state."""
        secrets.hand = list(self._own(state, secrets).cards or [])

    # -- moves --------------------------------------------------------------------------------------

    def play(self, state: State, player: str, text: str, chance: Chance) -> list[str]:
        """Parse and apply ``text`` (moves joined by ';') for ``player``, in place; one log entry a move.

        The player's next chain value is published with the command's last move.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule (which one).
        """
        moves = notation.parse_all(text)
        out = []
        for i, move in enumerate(moves, 1):
            if i == len(moves) and chance.can_draw_for(player):
                chance.publish(player)
            try:
                summary = self._apply(rules.Ctx(state, chance, player), move)
            except PbdError as exc:
                if len(moves) > 1:
                    exc.message = f"move {i} of {len(moves)} ({move.source!r}): {exc.message}"
                    exc.args = (exc.message,)
                raise
            state.meta.record(player, summary)
            out.append(f"{player} {summary}")
        return out

    def _apply(self, ctx: rules.Ctx, move: notation.Move) -> str:
        s, verb = ctx.state, move.verb
        if verb == "draw":
            return rules.draw(ctx)
        if verb == "roll":
            return rules.roll(ctx)
        if verb == "stay":
            return rules.stay(ctx)
        if verb == "discard":
            return rules.discard(ctx, move.card)
        if verb == "pass":
            return rules.answer(ctx, None)
        if move.tile is not None:
            return rules.place(ctx, move.card, move.tile)
        if move.card not in HAND_CARDS:
            raise NotationError(f"say where the {move.card} goes: 'play {move.card} on 17'")
        if s.decisions:
            return rules.answer(ctx, move.card)
        if move.card == "Sword":
            return rules.cut_web(ctx)
        raise IllegalMoveError("a Shield is played when pbd asks for it: against a Sword in a duel, a Guard, "
                               "or an Arcane Trap's 2")

    def legal(self, state: State, player: str) -> list[str]:
        """Return every move legal now for ``player``, in notation."""
        return rules.legal(state, player)

    def actors(self, state: State) -> list[str]:
        """Return who must act: the deciding seat while a decision waits, else the player to move."""
        return rules.actors(state)

    def outcome(self, state: State) -> str | None:
        """Return the result once someone reached the treasure."""
        return state.result or None

    def informative(self, entry) -> bool:
        """Return True for entries that drew, rolled or published (no take-back)."""
        return super().informative(entry)

    # -- reading the board ------------------------------------------------------------------------------

    def problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``)."""
        return check.problems(state)

    def svg(self, state: State) -> str:
        """Return the board as an SVG picture (``pbd show --svg FILE``)."""
        from pbd.games.tower import svg

        return svg.svg(state)

    def describe(self, state: State) -> dict:
        """Return the public state as JSON-able data."""
        lay = state.layout
        return {
            "game": self.name, "match": state.meta.match_id,
            "players": [{"name": s.name, "mark": s.mark, "tile": s.tile, "hand": s.hand, "deck": s.deck,
                         "webbed": s.webbed} for s in state.seats],
            "to_move": self.actors(state), "result": state.result or None, "winner": state.winner or None,
            "turn": state.turn, "step": state.step if state.started else "joining", "duel_fought": state.dueled,
            "board": {"name": lay.name, "floors": lay.floors, "tiles_per_floor": lay.width,
                      "directions": lay.directions, "start": lay.start, "treasure": lay.treasure},
            "deck": {"name": state.deck.name, "cards": state.deck.counts}, "finish": state.options.finish,
            "seats": state.players,
            "cards": {str(t): c if len(c) > 1 else c[0] for t, c in sorted(state.cards.items()) if c},
            "spent": [list(p) for p in state.spent], "discarded": [list(p) for p in state.discarded],
            "duel": None if not state.duel else vars(state.duel) | {},
            "decisions": [{"seat": d.seat, "prompt": d.prompt, "answers": d.answers, "origin": d.origin}
                          for d in state.decisions],
        }

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's private view: their cards and the cards left to draw."""
        seat = self._own(state, secrets)
        return {"hand": sorted(seat.cards or []), "deck": seat.deck, "tile": seat.tile}

    def player_names(self, state: State) -> list[str]:
        """Return the seated players in seat order."""
        return [s.name for s in state.seats]

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a Tower deck file (or ``default``).

        :raises DeckFormatError: the file cannot be read.
        """
        table, source = data.read_toml(deck, "deck")
        spec, problems = data.deck_from(table)
        counts = ", ".join(f"{k} {n}" for k, n in spec.counts.items())
        return f"{source}: a Tower deck of {spec.size} cards ({counts}).", problems

    def status(self, state: State) -> list[str]:
        """Return where the match stands: the turn, a pending decision, the winner."""
        out = [board.turn_line(state)]
        out += [f"Waiting on {d.seat}: {d.prompt}" for d in state.decisions]
        if state.winner:
            out.append(f"Winner: {state.result}")
        return out

    def sample_decks(self) -> list[str]:
        """Return the bundled deck."""
        return ["default"]


def _check_name(name: str) -> None:
    if not NAME_RE.match(name.strip()) or name != name.strip():
        raise UsageError(f"{name!r} cannot be a Tower player name (1-30 characters; no commas, semicolons, colons, "
                         "brackets, '+', '|', '·' or '—')")


def _mark(state: State, name: str) -> str:
    """Return the token mark of a new seat: its initial, else another letter of its name, else a digit."""
    taken = {s.mark for s in state.seats}
    for ch in name.upper() + "123456789":
        if (ch.isascii() and ch.isalnum()) and ch not in taken:
            return ch
    return "0"


GAME = TheTower()
