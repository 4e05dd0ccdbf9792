"""2Xd6 for pbd: a stack-chaining tower-defence card game for 2 to 6 players on a grid.

Modules: :mod:`.calc` (the Tc/Rc checker), :mod:`.dice`, :mod:`.deck` (decks as data),
:mod:`.grid` (boards as data, geometry), :mod:`.cards` (the one adapter to the shared deck),
:mod:`.rules`, :mod:`.notation`, :mod:`.board` (document text), :mod:`.svg` (picture).

The game sits at pbd's table (:class:`pbd.table.game.CardGame`): the base seats the
players, shuffles the shared deck in, keeps the log, passes the turn and checks the
pending decisions; this module only says what 2Xd6's moves do.
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError, IllegalMoveError, NotationError, UsageError
from pbd.games.base import Secrets
from pbd.games.twoxd6 import board, cards, grid, notation, rules
from pbd.games.twoxd6.deck import DEFAULT, composition_problems, load
from pbd.games.twoxd6 import state as state_module
from pbd.games.twoxd6.state import State, options_of
from pbd.regex import pattern
from pbd.table.decisions import Decision
from pbd.table.game import ROLL_DUTY, TABLE_CLASSES, CardGame, Move, defined_in

TITLE = "2Xd6"
OPTION_HELP = "board=standard|large|FILE, mod (one deck per two players), adjacency=4|8, rc=best|stated"
#: "draw; offer" as players write it is one move (the base splits moves at ';')
DRAW_OFFER = pattern(r"\bdraw\s*;\s*offer\b", re.I)


def _flag(key: str, value):
    """Return an option's value, a bare ``-O mod`` (the CLI passes ``yes``) as the flag it is."""
    return None if key.strip().lower() == "mod" and str(value).strip().lower() in ("yes", "true") else value


class TwoXd6(CardGame):
    """2Xd6 for pbd: the table hooks (see the module docstring)."""

    name = "2xd6"
    title = TITLE
    aliases = ("2x-d6", "twoxd6", "2xd6")
    summary = "stack-chaining tower defence on a grid, 2 to 6 players, one shared deck"
    notation = """\
        roll                                            (acting points for your act)
        play Q on A1 · play 7 gold on A2 · recycle 3 · replace
        advance A1 to B2 · advance A1 to B2 with Q
        target B5 from B3 with 12*5+7
        give Q to Ben · show hand
        draw · draw; offer                              (ends your act; offer: the card to all)
        end act · end turn                              (the same as draw: the act's draw ends it)
        answers when pbd asks: roll · offer 7G · pass · accept · reject
"""
    unnamed_roll = False
    turn_end = 'draw (or end act)'
    players = (2, 6)
    state_class = State
    parsed_classes = (State, *defined_in(state_module, grid), *TABLE_CLASSES)
    waits_for_cards = False     # a seat moves around a card still locked (the rules say what it may do)
    option_words = ("board=", "mod", "adjacency=", "rc=", "deck=")

    # -- starting ------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match; the board is laid out from ``-O board=``.

        ``deck`` is the bundled deck's name or a deck file (``--deck``): the file is kept under
        PBD_HOME by its fingerprint, which the document names (``Options: deck=sha256:...``).

        :raises UsageError: a bad option.
        :raises DeckFormatError: the board or deck file breaks a rule.
        """
        players = int(options.get("players", self.players[0]))
        given = {k: _flag(k, v) for k, v in options.items()}
        if deck:
            given["deck"] = load(deck, remember=True).reference()
            if given["deck"] == DEFAULT:
                del given["deck"]
        words = self.parse_options({k: v for k, v in given.items() if k not in ("players", "first")})
        try:
            opts = options_of(words, players)
        except ValueError as exc:
            raise UsageError(f"2Xd6 option {exc} cannot be used", hint=f"options: {OPTION_HELP}") from None
        if opts.decks > 1 and players % 2:
            raise UsageError("the Mod combines one deck per two players: it needs an even number of players")
        b = grid.seated(grid.load(opts.board), players)
        if not grid.is_bundled(opts.board):     # a board of the player's own: the document carries it, not its path
            given = {**given, "board": "custom"}
        state, sec = super().create(match_id, player, None, seed, given)
        state.board = b
        return state, sec

    def option_problem(self, words: list[str], players: int) -> str:
        """Return what is wrong with a document's ``Options:`` words ('' if nothing): unknown words or values."""
        problem = super().option_problem(words, players)
        if problem:
            return problem
        try:
            options_of(words, players)
        except ValueError as exc:
            return f"{str(exc)[:40]!r} is no 2Xd6 option ({OPTION_HELP})"
        return ""

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; ``deck``, if given, must be the match's deck (a file is then kept by its hash).

        :raises UsageError: a deck other than the match's.
        :raises DeckFormatError: the deck file breaks a rule.
        """
        if deck:
            mine = load(deck, remember=True).reference()
            if mine != state.deck_name:
                raise UsageError(f"this match is played with the deck {state.deck_name}; {deck!r} is {mine}",
                                 hint="join without --deck to use the match's deck")
        return super().join(state, player, None, seed)

    def install(self, path: str) -> str:
        """Keep the deck file ``path`` under PBD_HOME by its fingerprint; return the fingerprint.

        :raises DeckFormatError: the file cannot be read or breaks the deck rules.
        """
        return load(path, remember=True).fingerprint()

    def piles(self, players: int, options: list[str]) -> dict[str, list[str]]:
        """Return the Face and Pip stacks of the match's deck (one deck per two players with the Mod)."""
        opts = options_of(options, players)
        d = rules._deck(opts.deck, opts.decks)
        return {"faces": [c.id for c in d.cards if c.face], "pips": [c.id for c in d.cards if not c.face]}

    def start(self, state: State) -> None:
        """Deal every seat its Face and Pip cards; then everyone rolls for the order of acts."""
        if state.board is None:
            state.board = grid.seated(grid.load(state.opts.board, from_document=True), state.players)
        rules.deal(state)
        state.turn = 0

    # -- moves ---------------------------------------------------------------------------

    def play(self, state: State, player: str, notation_text: str, chance) -> list[str]:
        """Apply moves joined by ';' (``draw; offer`` is one move: draw and offer for trade).

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule.
        """
        text = DRAW_OFFER.sub("draw and offer", notation_text)
        if state.trade and state.deck is not None:
            seat = self._name(state, player)
            text = ";".join(self._offer(state, seat, part) for part in text.split(";"))
        return super().play(state, player, text, chance)

    def _offer(self, state: State, seat: str, part: str) -> str:
        """Return ``offer CARD`` with the card as the seat's hand names it (``offer 7`` -> ``offer 7G``)."""
        m = re.fullmatch(r"\s*offer\s+(.+?)\s*", part, re.I)
        if not m or seat == state.trade.seat or not any(d.seat == seat for d in state.decisions):
            return part
        return f"offer {self._card(state, seat, m.group(1))}"

    def moves(self, state: State, seat: str) -> list[str]:
        """Return every move ``seat`` may make now (targets with the best Tc in range)."""
        from pbd.games.twoxd6 import moves

        self._need_known_cards(state)
        return moves.legal(state, seat)

    def legal_text(self, state: State, player: str, moves_: list[str]) -> list[str]:
        """Return ``pbd legal``'s lines: in an act, each move with its acting-point cost and what it leaves."""
        from pbd.games.twoxd6 import moves

        return moves.legal_text(state, self._name(state, player), moves_)

    @staticmethod
    def _need_known_cards(state: State) -> None:
        """Refuse to play on a board whose stacks or shown hands name cards the deck does not have.

        :raises DocumentFormatError: naming the cards (``pbd check`` lists them too).
        """
        unknown = rules.unknown_cards(state)
        if unknown:
            raise DocumentFormatError(f"the board names {', '.join(unknown[:5])}, which the {state.deck_name} deck "
                                      "does not have", hint="someone edited the board by hand; run pbd check DOC")

    def apply(self, state: State, seat: str, move: str, chance) -> Move:
        """Apply one move of the seat on turn (the order roll, or a move of the act).

        :raises NotationError: the move cannot be read.
        :raises IllegalMoveError: the rules forbid it now.
        :raises DocumentFormatError: the board names cards the deck does not have.
        """
        parsed = notation.parse(move)
        before = self._mover(state)
        self._need_known_cards(state)
        if state.phase == "order":
            if parsed.verb != "roll":
                raise IllegalMoveError("first every player rolls for the order of acts: 'roll'")
            text = rules.do_order_roll(state, seat, chance)
        else:
            text = self._act(state, seat, parsed, chance)
        return Move(text, ends_turn=self._mover(state) != before)

    def answer(self, state: State, seat: str, decision: Decision, move: str, chance) -> Move:
        """Apply an answer: the stated Rc, the resisting roll, a trade offer or pass, accept or reject.

        :raises IllegalMoveError: the answer does not fit the decision.
        :raises DocumentFormatError: the board names cards the deck does not have.
        """
        parsed = notation.parse(move)
        before = self._mover(state)
        self._need_known_cards(state)
        if state.targeting and parsed.verb == "resist" and state.targeting.rc is None:
            text = rules.do_state_rc(state, seat, parsed.expr)
        elif state.targeting and parsed.verb == "roll" and state.targeting.tc is not None:
            text = rules.do_resist(state, seat, chance)
        elif state.trade and seat == state.trade.seat and parsed.verb in ("accept", "reject"):
            text = rules.do_accept(state, seat, parsed.verb == "accept")
        elif state.trade and parsed.verb == "pass":
            text = rules.do_offer(state, seat, None)
        elif state.trade and parsed.verb == "offer":
            text = rules.do_offer(state, seat, self._card(state, seat, parsed.card))
        else:
            raise IllegalMoveError(f"{seat} must answer: {decision.prompt}")
        return Move(text, ends_turn=self._mover(state) != before)

    def answers_now(self, state: State, decision: Decision) -> list[str]:
        """Return the answers the deciding seat may give now: a trade offer names its hand cards; an Rc
        statement lists the best Rc (any checked calculation is accepted: :meth:`_one`)."""
        if state.trade and decision.seat != state.trade.seat:
            return rules.offer_answers(state, decision.seat)
        if self._stating(state, decision):
            return [f"resist with {rules.rc_of(state, state.targeting.target)[1]}"]
        return list(decision.answers)

    @staticmethod
    def _stating(state: State, decision: Decision) -> bool:
        """Return True if ``decision`` asks the defender to state an Rc (``-O rc=stated``)."""
        t = state.targeting
        return bool(t and decision.seat == t.defender and t.rc is None)

    def open_answer(self, state: State, decision: Decision, text: str) -> bool:
        """Return True for an Rc statement: it answers its decision with any calculation, which
        :func:`rules.do_state_rc` checks (the base accepts only answers listed exactly).

        :raises NotationError: the statement cannot be read.
        """
        return self._stating(state, decision) and notation.parse(text).verb == "resist"

    def _answers(self, state: State, decision: Decision) -> list[str]:
        """Return a read-back decision's public answers (what the board's move asked)."""
        if state.targeting and decision.seat == state.targeting.defender:
            return [rules.STATE_RC] if state.targeting.rc is None else ["roll"]
        if state.trade and decision.seat == state.trade.seat:
            return ["accept", "reject"]
        if state.trade:
            return list(rules.OFFER_ANSWERS)
        return []

    def explains(self, entry, decision: Decision) -> bool:
        """Return True if log entry ``entry`` asks ``decision``: a targeting asks for the resisting
        roll, ``draw and offer`` asks for offers, the last offer asks the drawer to accept or reject."""
        move = entry.text.split(" — ")[0].strip().lower()
        prompt = decision.prompt.lower()
        if prompt.startswith("roll 2 wyte") and entry.text.startswith(ROLL_DUTY):
            return True                     # the Onyx dice that waited, rolled by the acting player's pbd
        if prompt.startswith(("roll 2 wyte", "state your rc")):
            return move.startswith("target ")
        if prompt.startswith("offer a card"):
            return move.startswith("draw and offer") or DRAW_OFFER.match(move) is not None
        if prompt.startswith("accept "):
            return move.startswith(("offer ", "pass"))
        return False

    def awaited_roll(self, state: State) -> tuple[str, int] | None:
        """Return who rolls the next die that follows a choice, and that choice's entry (None: no such die).

        The acting player's Onyx dice after the targeting move that wrote the Tc; with ``-O
        rc=stated``, the resisting player's Wyte dice after their Rc statement.
        """
        t = state.targeting
        if rules.onyx_waits(state):
            chosen = rules.choice_entry(state, t.attacker, "target ")
            return (t.attacker, chosen.number) if chosen else None
        if t and t.roll is not None and state.opts.rc == "stated" and not state.result:
            chosen = rules.choice_entry(state, t.defender, "resist with")
            return (t.defender, chosen.number) if chosen else None
        return None

    def rolls_itself(self, state: State) -> bool:
        """Return True while a targeting's Onyx dice wait: the acting player's pbd rolls them (a duty)."""
        return rules.onyx_waits(state)

    def roll_awaited(self, state: State, seat: str, chance) -> Move:
        """Roll the Onyx dice that waited and ask the resisting player for the Wyte roll."""
        return Move(rules.roll_onyx(state, seat, chance, self.awaited_roll(state)[1]))

    def _mover(self, state: State) -> str:
        """Return who acts next when no decision is open (the order roller, or the acting player)."""
        if state.phase == "order":
            return next((s for s in state.seats if s not in state.order_rolls), "")
        return rules.acting(state)

    def next_seat(self, state: State) -> int:
        """Return the seat whose move it is: the next to roll for the order, else the acting player."""
        who = self._mover(state)
        return state.seats.index(who) if who in state.seats else state.turn

    def update(self, state: State) -> None:
        """Keep the table's turn on the acting player (an act can end on another seat's answer)."""
        who = self._mover(state)
        if who in state.seats and not state.result:
            state.turn = state.seats.index(who)

    def _card(self, state: State, player: str, text: str) -> str:
        cat = rules.catalogue(state)
        held = [cat[c] for _, c in rules.hand(state, player) if c]
        return notation.resolve(text, held).id

    def _cell(self, state: State, text: str) -> str:
        cell = grid.norm(text, state.board)
        if cell is None:
            raise NotationError(f"{text} is not a cell of this {state.board.columns} x {state.board.rows} board")
        return cell

    def _act(self, state: State, player: str, move, chance) -> str:  # noqa: C901
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
        if v == "target" and not move.expr:
            return rules.do_announce(state, player, self._cell(state, move.cell2), self._cell(state, move.cell))
        if v == "target":
            return rules.do_target(state, player, self._cell(state, move.cell2), self._cell(state, move.cell),
                                   move.expr, chance)
        if v == "withdraw":
            return rules.do_withdraw(state, player)
        if v == "give":
            name = next((s for s in state.order if s.casefold() == move.name.casefold()), None)
            if name is None:
                raise NotationError(f"{move.name!r} is not a player here", hint="players: " + ", ".join(state.order))
            return rules.do_give(state, player, self._card(state, player, move.card), name)
        if v == "show":
            return rules.do_show_hand(state, player)
        if v in ("draw", "draw-offer"):
            return rules.do_draw(state, player, chance, offer=v == "draw-offer")
        raise IllegalMoveError(f"'{v}' answers a pending decision; nothing to answer now")

    # -- the document ----------------------------------------------------------------------

    def board(self, state: State) -> list[str]:
        """Return the board lines: order of acts, the act, the Basic Square, the grid, stacks, hands."""
        if state.board is None:
            import copy  # (here, as below: most commands copy nothing)

            state = copy.copy(state)
            state.board = grid.seated(grid.load(state.opts.board, from_document=True), state.players)
        return board.render(state)

    def read_board(self, state: State, lines: list) -> None:
        """Read the board lines back.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        board.parse_body(state, lines)

    def board_problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``)."""
        from pbd.games.twoxd6 import check

        return check.problems(state)

    def svg(self, state: State) -> str:
        """Return the board as an SVG picture (``pbd show --svg FILE``)."""
        from pbd.games.twoxd6 import svg

        return svg.svg(state)

    def describe_board(self, state: State) -> dict:
        """Return the grid's public data for ``pbd show --json``."""
        return {"phase": state.phase, "order": list(state.order), "round": state.act.round,
                "acting": rules.acting(state) or None, "points": state.act.points,
                "cells": {c: {"owner": st.owner, "cards": st.cards} for c, st in state.cells.items()},
                "chains": {s: rules.chains(state, s) for s in state.order} if state.board else {},
                "act": _act(state.act),
                "basic_square": {"holder": state.holder or None, "held": state.held, "needed": state.players},
                "quiet_acts": state.quiet,
                "shown": {s: list(v) for s, v in state.shown.items()},
                "targeting": _targeting(state),
                "draw_patch": cards.patch_size(state.deck) if state.deck is not None else None}

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's hand, each card described."""
        cat = rules.catalogue(state)
        seat = self._name(state, secrets.player)
        held = rules.hand(state, seat) if state.deck is not None else []
        data = {"hand": [cat[c].label() + (" (cold comfort)" if s in state.cold.get(seat, []) else "")
                         if c else "(waiting on unlocks)" for s, c in held]}
        return data

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a 2Xd6 deck TOML (problems raise DeckFormatError, exit 3).

        :raises DeckFormatError: the file cannot be read or breaks the deck rules.
        """
        d = load(deck)
        return (f"{deck}: a legal 2Xd6 deck ({len(d.cards)} cards, {d.reference()})", composition_problems(d.cards))

    def from_document(self, state: State, board_state: State) -> None:
        """Take the grid from the document (the log never repeats it)."""
        import copy

        state.board = copy.deepcopy(board_state.board)


def _act(act) -> dict:
    """Return the act's counts and marks for ``pbd show --json`` (and the hand-edit check, which compares them)."""
    return {"scene": act.scene, "roll": list(act.roll) if act.roll else None, "played": act.played,
            "recycled": act.recycled, "replaced": act.replaced, "advanced": act.advanced,
            "targeted": act.targeted, "tolls": list(act.tolls)}


def _targeting(state: State) -> dict | None:
    """Return a targeting under way for ``pbd show --json`` (None when there is none); unknown parts are None."""
    t = state.targeting
    if t is None:
        return None
    return {"attacker": t.attacker, "from": t.source, "target": t.target, "defender": t.defender,
            "tc": t.tc, "tc_text": t.tc_text or None, "rc": t.rc, "rc_text": t.rc_text or None,
            "onyx": list(t.roll) if t.roll else None}


GAME = TwoXd6()
