"""2Xd6 for pbd: a stack-chaining tower-defence card game for 2 to 6 players on a grid.

Modules: :mod:`.calc` (the Tc/Rc checker), :mod:`.dice`, :mod:`.deck` (decks as data),
:mod:`.grid` (boards as data, geometry), :mod:`.cards` (the one adapter to the shared deck),
:mod:`.rules`, :mod:`.notation`, :mod:`.board` (document text), :mod:`.svg` (picture).
"""

from __future__ import annotations

from pbd import fairplay
from pbd.errors import IllegalMoveError, NotationError, PbdError, UsageError
from pbd.games.base import Meta, Playable, PlayerMeta, Secrets, render_frame, split_frame
from pbd.games.twoxd6 import board, cards, calc, grid, notation, rules
from pbd.games.twoxd6.deck import DEFAULT, composition_problems, load
from pbd.games.twoxd6.state import Options, State

TITLE = "2Xd6"
OPTION_HELP = "board=standard|large|FILE, mod (one deck per two players), adjacency=4|8"


def parse_options(options: dict) -> Options:
    """Return the match options from ``pbd new``'s ``--players`` and ``-O`` options.

    :raises UsageError: an unknown option or value.
    """
    opts = Options(players=int(options.get("players", 2)))
    for raw, value in options.items():
        key = raw.strip().lower()
        if key == "players":
            continue
        if key == "board":
            opts.board = str(value)
        elif key == "mod":
            if opts.players % 2:
                raise UsageError("the Mod combines one deck per two players: it needs an even number of players")
            opts.decks = opts.players // 2
        elif key == "adjacency" and str(value) in ("4", "8"):
            opts.adjacency = int(value)
        else:
            raise UsageError(f"unknown 2Xd6 option {raw}={value}", hint=f"options: {OPTION_HELP}")
    if opts.players >= 4 and opts.board == "standard":
        opts.board = "large"
    return opts


class TwoXd6(Playable):
    """2Xd6 for pbd: the metadata and the match hooks."""

    name = "2xd6"
    title = TITLE
    aliases = ("2x-d6", "twoxd6", "2xd6")
    summary = "stack-chaining tower defence on a grid, 2 to 6 players, one shared deck"
    players = (2, 6)
    join_needs_deck = False

    # -- documents ------------------------------------------------------------------------

    def template(self) -> str:
        """Return the blank board (templates/2xd6.txt)."""
        from pbd import paths

        return (paths.resource_dir("templates") / "2xd6.txt").read_text(encoding="utf-8")

    def sniff(self, text: str) -> bool:
        """Return True for a hand-made 2Xd6 board (first line '2Xd6')."""
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        return first.casefold() == TITLE.casefold()

    def parse(self, text: str) -> State:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        frame = split_frame(text)
        from pbd.games.base import parse_meta

        state = State(parse_meta(self.name, frame))
        body = frame.body
        header = frame.header
        if not frame.match_id:
            if body and body[0].text.strip().casefold() == TITLE.casefold():
                body = body[1:]
            header = [ln for ln in body if ln.text.strip().lower().startswith(("players:", "setup:"))]
            body = [ln for ln in body if ln not in header]
        board.parse_header(state, header)
        board.parse_body(state, body)
        return state

    def render(self, state: State) -> str:
        """Return the document text of ``state``."""
        body = board.render(state)
        if not state.meta.match_id:
            return "\n".join([TITLE, *board.header(state), "", *body]) + "\n"
        return render_frame(state.meta, self.title, board.header(state), body)

    # -- starting ------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match with the creator seated.

        :raises UsageError: a bad option or deck.
        :raises DeckFormatError: the board or deck file breaks a rule.
        """
        opts = parse_options(options)
        if deck and deck != DEFAULT:
            raise UsageError("2Xd6 matches use the bundled deck 'standard' for now",
                             hint="check your own deck with: pbd deck check FILE --game 2xd6")
        b = grid.load(opts.board)
        grid.layout(b, opts.players)
        state = State(Meta(self.name, match_id), options=opts, deck_name=DEFAULT, board=b)
        sec = self._seat(state, player, seed)
        state.meta.record(player, f"new match for {opts.players} players (board {b.name}, deck {DEFAULT})")
        return state, sec

    def _seat(self, state: State, player: str, seed: bytes) -> Secrets:
        state.seats.append(player)
        state.meta.fairplay.append(PlayerMeta(player, fairplay.commitment(seed, []),
                                              fairplay.chain_value(seed, fairplay.CHAIN_LENGTH)))
        return Secrets(state.meta.match_id, player, self.name, seed, [])

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; the last seat creates the shared deck (and deals once it is shuffled).

        :raises IllegalMoveError: the match is full, or the name is taken.
        """
        if len(state.seats) >= state.options.players:
            raise IllegalMoveError(f"the match is full ({', '.join(state.seats)})")
        if any(s.casefold() == player.casefold() for s in state.seats) or not player.strip() or \
                any(ch in player for ch in ",:;·|[]—"):
            raise IllegalMoveError(f"{player!r} cannot join: the name is taken or has , : ; · | [ ] —")
        sec = self._seat(state, player, seed)
        text = "joined"
        if len(state.seats) == state.options.players:
            d = rules.deck_of(state)
            state.deck = cards.create(state.meta.match_id, state.seats, [c.id for c in d.cards if c.face],
                                      [c.id for c in d.cards if not c.face])
            state.phase = "dealing"
            text += "; the shared deck is made"
            if cards.ready(state.deck):
                text += "; " + rules.deal(state)
        state.meta.record(player, text)
        return state, sec

    def attach(self, state: State, secrets: Secrets) -> None:
        """Nothing to attach: hands live in the shared deck, read with the seat's keys."""

    def detach(self, state: State, secrets: Secrets) -> None:
        """Copy the hand as the seat reads it into the private state (for ``pbd hand``)."""
        if state.deck is not None and secrets.player in state.seats:
            secrets.hand = [c or "?" for _, c in rules.hand(state, secrets.player)]

    def pending(self, state: State, player: str) -> bool:
        """Return True when the shuffled deck waits to be dealt (any seat's pbd may deal)."""
        return state.phase == "dealing" and state.deck is not None and cards.ready(state.deck)

    def settle(self, state: State, player: str, chance=None) -> list[str]:
        """Deal once the deck is shuffled; return the log lines."""
        if not self.pending(state, player):
            return []
        text = rules.deal(state)
        state.meta.record(player, text)
        return [text]

    # -- moves ---------------------------------------------------------------------------

    def play(self, state: State, player: str, text: str, chance=None) -> list[str]:
        """Parse and apply ``text`` (moves joined by ';') for ``player``, all or nothing.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule.
        """
        lines = self.settle(state, player, chance)
        moves = notation.split(text)
        if not moves:
            raise NotationError("no move given", hint=f"moves look like: {notation.EXAMPLES}")
        for raw in moves:
            move = notation.parse(raw)
            out = self._apply(state, player, move, chance)
            state.meta.record(player, out)
            lines.append(f"{player} {out}")
        if chance is not None and chance.can_draw_for(player):
            chance.publish(player)
        return lines

    def _apply(self, state: State, player: str, move, chance) -> str:
        if state.phase == "over":
            raise IllegalMoveError(f"the match is over: {state.result}")
        if state.phase in ("joining", "dealing"):
            raise IllegalMoveError("the match has not started: " + ("waiting for players to join"
                                   if state.phase == "joining" else "waiting for the deck to be shuffled"))
        if state.phase == "order":
            if move.verb != "roll":
                raise IllegalMoveError("first every player rolls for the order of acts: 'roll'")
            return rules.do_order_roll(state, player, chance)
        if state.decisions:
            return self._answer(state, player, move, chance)
        if player != rules.acting(state):
            raise IllegalMoveError(f"it is {rules.acting(state)}'s act, not {player}'s")
        return self._act(state, player, move, chance)

    def _answer(self, state: State, player: str, move, chance) -> str:
        mine = [d for d in state.decisions if d.seat == player]
        if not mine:
            raise IllegalMoveError("waiting on " + "; ".join(f"{d.seat}: {' or '.join(d.answers)}"
                                                               for d in state.decisions))
        if state.targeting and move.verb == "roll":
            return rules.do_resist(state, player, chance)
        if state.trade and player == state.trade.seat and move.verb in ("accept", "reject"):
            return rules.do_accept(state, player, move.verb == "accept")
        if state.trade and move.verb == "pass":
            return rules.do_offer(state, player, None)
        if state.trade and move.verb == "offer":
            card = self._card(state, player, move.card)
            return rules.do_offer(state, player, card)
        raise IllegalMoveError(f"{player} must answer: {' or '.join(mine[0].answers[:6])}")

    def _card(self, state: State, player: str, text: str) -> str:
        cat = rules.catalogue(state)
        held = [cat[c] for _, c in rules.hand(state, player) if c]
        return notation.resolve(text, held).id

    def _cell(self, state: State, text: str) -> str:
        cell = grid.norm(text, state.board)
        if cell is None:
            raise NotationError(f"{text} is not a cell of this {state.board.columns} x {state.board.rows} board")
        return cell

    def _act(self, state: State, player: str, move, chance) -> str:
        v = move.verb
        if v == "roll":
            return rules.do_roll(state, player, chance)
        if v == "play":
            return rules.do_play(state, player, self._card(state, player, move.card), self._cell(state, move.cell))
        if v == "recycle":
            return rules.do_recycle(state, player, self._card(state, player, move.card))
        if v == "replace":
            return rules.do_replace(state, player, chance)
        if v == "advance":
            rank = notation.rank_of(move.rank) if move.rank else None
            if move.rank and rank is None:
                raise NotationError(f"{move.rank!r} is not a rank (10, J, Q, K, A, ?)")
            return rules.do_advance(state, player, self._cell(state, move.cell), self._cell(state, move.cell2), rank)
        if v == "target":
            return rules.do_target(state, player, self._cell(state, move.cell2), self._cell(state, move.cell),
                                   move.expr, chance)
        if v == "give":
            name = next((s for s in state.order if s.casefold() == move.name.casefold()), None)
            if name is None:
                raise NotationError(f"{move.name!r} is not a player here", hint="players: " + ", ".join(state.order))
            return rules.do_give(state, player, self._card(state, player, move.card), name)
        if v == "show":
            return rules.do_show_hand(state, player)
        if v in ("draw", "draw-offer"):
            return rules.do_draw(state, player, chance, offer=v == "draw-offer")
        raise IllegalMoveError(f"'{v}' answers a trade; nothing to answer now")

    def legal(self, state: State, player: str) -> list[str]:
        """Return every move legal now for ``player``, in notation (targets with the best Tc in range)."""
        from pbd.games.twoxd6 import moves

        return moves.legal(state, player)

    def actors(self, state: State) -> list[str]:
        """Return who must act now: deciders of pending decisions first, else the acting player."""
        if state.phase == "order":
            return [s for s in state.seats if s not in state.order_rolls]
        if state.phase != "act":
            return []
        if state.decisions:
            return list(dict.fromkeys(d.seat for d in state.decisions))
        return [rules.acting(state)]

    def outcome(self, state: State) -> str | None:
        """Return the result once someone held the Basic Square long enough."""
        return state.result or None

    # -- reading -------------------------------------------------------------------------

    def problems(self, state: State) -> list[str]:
        """Return every rule the position breaks (for ``pbd check``)."""
        from pbd.games.twoxd6 import check

        return check.problems(state)

    def describe(self, state: State) -> dict:
        """Return the public state as JSON-able data."""
        return {"game": self.name, "match": state.meta.match_id,
                "players": [{"name": s, "player": (state.order.index(s) + 1) if s in state.order else None,
                             "hand": rules.hand_size(state, s) if state.deck is not None else 0}
                            for s in (state.order or state.seats)],
                "to_move": self.actors(state), "result": self.outcome(state), "phase": state.phase,
                "round": state.act.round, "points": state.act.points,
                "cells": {c: {"owner": st.owner, "cards": st.cards} for c, st in state.cells.items()},
                "basic_square": {"holder": state.holder or None, "held": state.held,
                                 "needed": state.options.players},
                "waiting_on": [{"seat": d.seat, "prompt": d.prompt, "answers": d.answers} for d in state.decisions],
                "draw_patch": cards.patch_size(state.deck) if state.deck is not None else None}

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's hand, each card described."""
        cat = rules.catalogue(state)
        seat = secrets.player
        held = rules.hand(state, seat) if state.deck is not None else []
        data = {"hand": [cat[c].label() + (" (cold comfort)" if s in state.cold.get(seat, []) else "")
                         if c else "(waiting on unlocks)" for s, c in held]}
        return data

    def player_names(self, state: State) -> list[str]:
        """Return the seated players, in seat order."""
        return list(state.seats)

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a 2Xd6 deck TOML (problems raise DeckFormatError, exit 3).

        :raises DeckFormatError: the file cannot be read or breaks the deck rules.
        """
        d = load(deck)
        return (f"{deck}: a legal 2Xd6 deck ({len(d.cards)} cards, {d.reference()})", composition_problems(d.cards))

    def status(self, state: State) -> list[str]:
        """Return where the match stands."""
        if state.result:
            return [f"Result: {state.result}"]
        who = self.actors(state)
        return [f"Phase: {state.phase}; to move: {', '.join(who) or '-'}"]

    def sample_decks(self) -> list[str]:
        """Return the bundled deck (one shared deck for everyone)."""
        return [DEFAULT]


GAME = TwoXd6()
