"""The Tower (rules/the-tower.txt): Snakes & Ladders with cards, for 2 to 6 players.

Modules: :mod:`.state` (plain data), :mod:`.data` (board and deck TOML), :mod:`.rules`
(pure rules, with every reading), :mod:`.notation`, :mod:`.board` (the board lines),
:mod:`.shared` (the one adapter to the table's shared deck), :mod:`.check`
(``pbd check``), :mod:`.svg`.

The game sits at pbd's table (:class:`pbd.table.game.CardGame`): the base seats the
players, shuffles the shared deck in, keeps the log, passes the turn and checks the
pending decisions; this module only says what The Tower's moves do.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pbd.errors import IllegalMoveError, NotationError, UsageError
from pbd.games.base import Chance, LogEntry, Secrets
from pbd.games.tower import board, check, data, notation, rules, shared
from pbd.games.tower import state as state_module
from pbd.games.tower.state import HAND_CARDS, KINDS, DeckSpec, State, marks
from pbd.table.decisions import Decision
from pbd.table.game import ROLL_DUTY, TABLE_CLASSES, CardGame, Move, defined_in

OPTION_HELP = "board=FILE, deck=FILE (or --deck FILE), exact-finish (=bounce, or =stay)"
FINISH_WORDS = {"yes": "exact-finish", "true": "exact-finish", "bounce": "exact-finish", "stay": "exact-finish=stay"}


@lru_cache(maxsize=1)
def default_deck() -> DeckSpec:
    """Return the bundled deck (``decks/tower/deck.toml``): the shared deck of every match."""
    return data.load_deck()


class TheTower(CardGame):
    """The Tower for pbd: the table hooks (see the module docstring)."""

    name = "tower"
    title = board.TITLE
    aliases = ("the-tower", "thetower", "the tower")
    summary = "Snakes & Ladders with cards: race up the tower to the treasure, 2 to 6 players"
    notation = """\
        draw                                            (accepted; your card comes at the end of your turn)
        play Rope on 17 · place Rope on 17
        roll                                            (ends your turn, once its move is done)
        discard Guard                                   (with 6 cards in hand)
        stay · play Sword                               (a turn held by a Spider Web)
        answers when pbd asks: play Sword · play Shield · play Shield and Sword · pass
"""
    turn_end = 'roll'
    players = (2, 6)
    state_class = State
    parsed_classes = (State, *defined_in(state_module), *TABLE_CLASSES)
    waits_for_cards = False     # a seat moves around a card still locked (the rules say what it may do)
    option_words = ("exact-finish", "exact-finish=", "starts=")
    move_weights = {"play": 0.4, "discard": 1.0, "*": 1.0}

    # -- starting ------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match; the tower comes from ``-O board=FILE`` and the
        shared deck from ``--deck FILE`` (or ``-O deck=FILE``): their content, read here once.

        :raises UsageError: a bad option, or two different decks given.
        :raises DeckFormatError: the board or deck file cannot be read (every problem listed).
        """
        opts = {k.strip().lower().replace("_", "-"): v for k, v in options.items()}
        first = str(opts.pop("first", "") or "").strip()
        if first and first.casefold() not in (player.casefold(), "me"):
            opts["starts"] = first
        layout, spec = self._files(str(opts.pop("board", "default")), deck, opts.pop("deck", None))
        for key in ("exact-finish", "exact"):
            if key in opts:
                value = str(opts.pop(key)).strip().lower()
                if value not in FINISH_WORDS:
                    raise UsageError(f"exact-finish is 'bounce' (the default) or 'stay', not {value!r}")
                opts[FINISH_WORDS[value]] = "yes"
        self._dealing = spec
        try:
            state, sec = super().create(match_id, player, None, seed, opts)
        except UsageError as exc:
            exc.hint = exc.hint or f"options: {OPTION_HELP}"
            raise
        finally:
            self._dealing = None
        state.layout, state.spec = layout, spec
        return state, sec

    def _files(self, board_file: str, deck: str | None, deck_option) -> tuple:
        """Return ``(layout, deck)`` of the match: the board and deck files read, every problem of both listed.

        :raises UsageError: two different decks given.
        :raises DeckFormatError: a file cannot be read (:class:`~.data.DataProblems`: every problem listed).
        """
        found: list[data.DataProblems] = []
        layout = spec = None
        try:
            layout = data.load_layout(board_file)
        except data.DataProblems as exc:
            found.append(exc)
        try:
            spec = self._own_deck(deck, deck_option)
        except data.DataProblems as exc:
            found.append(exc)
        if len(found) == 2:
            raise data.DataProblems(f"{found[0].source} and {found[1].source}",
                                    [f"{e.source}: {p}" for e in found for p in e.problems], files=2)
        if found:
            raise found[0]
        return layout, spec

    @staticmethod
    def _own_deck(deck: str | None, option) -> DeckSpec:
        """Return the deck of ``--deck FILE`` or ``-O deck=FILE`` (the bundled one if neither).

        :raises UsageError: both given, naming different files.
        :raises DeckFormatError: the file cannot be read (every problem listed).
        """
        given = [str(d).strip() for d in (deck, option) if d not in (None, "", True)]
        if len(set(given)) > 1:
            raise UsageError("give the deck once: --deck FILE or -O deck=FILE", hint=f"options: {OPTION_HELP}")
        if not given or given[0].lower() == "default":
            return default_deck()
        return data.load_deck(given[0])

    def parse_options(self, options: dict) -> list[str]:
        """Return the option words (``exact-finish`` or ``exact-finish=stay``).

        :raises UsageError: an option The Tower does not take.
        """
        words = []
        for key, value in options.items():
            if key in ("exact-finish", "exact-finish=stay"):
                words.append(key)
            elif key == "starts" and value:
                words.append(f"starts={_first_name(str(value))}")
            else:
                raise UsageError(f"The Tower has no option {key!r}", hint=f"options: {OPTION_HELP}")
        return words

    #: the deck being dealt by :meth:`create` or rebuilt by :meth:`replay` (None: the bundled deck)
    _dealing: DeckSpec | None = None

    def piles(self, players: int, options: list[str]) -> dict[str, list[str]]:
        """Return the shared deck at the start: the match's deck (the bundled one unless the creator
        brought one), face down in the draw pile."""
        return shared.piles((self._dealing or default_deck()).cards())

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; the last seat starts the match.

        :raises IllegalMoveError: the match is full or the name taken; or this is the last seat
            and the player chosen to move first (``--first NAME``) has not joined.
        """
        starts = state.starts
        seated = [*state.seats, player]
        if starts and starts != "random" and len(seated) == state.players \
                and starts.casefold() not in {s.casefold() for s in seated}:
            raise IllegalMoveError(f"this match was set up for {starts} to move first; join as {starts}")
        return super().join(state, player, deck, seed)

    # -- the first player by lot (``--first random``) ----------------------------------------

    step_owed = "the lot for the first player"

    def owes_step(self, state: State, seat: str) -> bool:
        """Return True if ``seat`` (the creator) owes the lot for the first player: every seat sits, none moved."""
        return state.started and not state.result and state.first_random and seat == state.seats[0]

    def owed_step(self, state: State, seat: str, chance: Chance) -> str | None:
        """Draw the first player by lot: one die face per seat, ``purpose first``.

        The creator's pbd rolls: its seed was committed before any other seat's chain value
        existed, and the roll mixes in every other seat's (the beacon), so nobody alone can
        steer it.  The option becomes ``starts=NAME``; return the log line.
        """
        n = chance.roll(seat, len(state.seats), purpose="first")
        name = state.seats[n - 1]
        state.options = [f"starts={name}" if w == "starts=random" else w for w in state.options]
        state.turn = n - 1
        return f"first player by lot: {n} on a {len(state.seats)}-sided die ({name})"

    def play(self, state: State, player: str, notation_text: str, chance: Chance) -> list[str]:
        """Refuse a move before the lot for the first player is drawn (the creator's pbd draws it first).

        :raises IllegalMoveError: the lot is still to be drawn, by another seat's pbd.
        """
        seat = self._name(state, player)
        if state.started and state.first_random and not self.owes_step(state, seat):
            creator = state.seats[0]
            raise IllegalMoveError(f"the first player is not drawn yet: {creator}'s pbd draws the lot on "
                                   f"{creator}'s next command", hint=f"{creator} runs any pbd command on the match")
        return super().play(state, player, notation_text, chance)

    def start(self, state: State) -> None:
        """Put every token on the start tile and deal each seat one card; the first turn begins.

        The first turn is the creator's, or that of the seat ``--first NAME`` chose (``starts=NAME``).
        """
        for seat in state.seats:
            state.tokens[seat] = state.layout.start
            shared.draw(state.deck, seat)
        folded = [s.casefold() for s in state.seats]
        state.turn = folded.index(state.starts.casefold()) if state.starts.casefold() in folded else 0
        rules.begin_turn(state)

    # -- moves ---------------------------------------------------------------------------

    def moves(self, state: State, seat: str) -> list[str]:
        """Return every move the seat on turn may make now, in notation."""
        return rules.moves(state, seat)

    def awaited_roll(self, state: State) -> tuple[str, int] | None:
        """Return who rolls the next die that follows a choice, and that choice's entry (None: no such die).

        The mover's roll after a card placed this turn; or, resolving stopped at a die that
        follows an answer (a duel's dice after its Swords and Shields, a Magic Carpet or an
        Arcane Trap reached by a Guard passed), the answerer's.  Each waits on a fresh value.
        """
        if rules.dice_wait(state):
            chosen = rules.last_choice(state)
            return (chosen.player, chosen.number) if chosen is not None else None
        chosen = rules.choice_entry(state)
        return (state.mover, chosen) if chosen and state.mover not in state.webbed else None

    def rolls_itself(self, state: State) -> bool:
        """Return True while resolving waits on a die after an answer: the answerer's pbd rolls it (a duty)."""
        return rules.dice_wait(state)

    def roll_awaited(self, state: State, seat: str, chance: Chance) -> Move:
        """Roll the dice that waited after an answer and go on resolving (see :meth:`CardGame.roll_awaited`)."""
        ctx = rules.Ctx(state, chance, seat, after=self.awaited_roll(state)[1])
        return self._done(state, rules.roll_waited(ctx))

    def apply(self, state: State, seat: str, move: str, chance: Chance) -> Move:
        """Apply one move of the seat on turn; the turn passes when its draw is dealt.

        :raises NotationError: the move cannot be read.
        :raises IllegalMoveError: the rules forbid it now (which rule, with the numbers).
        """
        ctx = rules.Ctx(state, chance, seat)
        return self._done(state, self._do(ctx, notation.parse(move)))

    def _do(self, ctx: rules.Ctx, move: notation.Move) -> str:  # noqa: C901
        verb = move.verb
        if verb == "draw":
            return rules.draw(ctx)
        if verb == "roll":
            return rules.roll(ctx)
        if verb == "stay":
            return rules.stay(ctx)
        if verb == "discard":
            return rules.discard(ctx, move.card)
        if verb == "pass":
            return rules.answer_own(ctx, None)
        if move.tile is not None:
            return rules.place(ctx, move.card, move.tile)
        if move.card not in (*HAND_CARDS, rules.BOTH):
            raise NotationError(f"say where the {move.card} goes: 'play {move.card} on 17'")
        if ctx.state.ask or move.card in ("Shield", rules.BOTH):
            return rules.answer_own(ctx, move.card)
        return rules.cut_web(ctx)

    def _done(self, state: State, text: str) -> Move:
        ended = state.step == "done"
        if ended:
            rules.begin_turn(state)
        return Move(text, ends_turn=ended)

    def answer(self, state: State, seat: str, decision: Decision, move: str, chance: Chance) -> Move:
        """Apply ``seat``'s answer (``play Sword``/``play Shield``/``pass``) to a pending decision.

        :raises IllegalMoveError: the answer does not fit the decision, or the card is not in hand.
        """
        parsed = notation.parse(move)
        kind = rules.kind_of(decision.prompt)
        card = None if parsed.verb == "pass" else parsed.card
        return self._done(state, rules.answer(rules.Ctx(state, chance, seat), seat, kind, card))

    def answers_now(self, state: State, decision: Decision) -> list[str]:
        """Return the answers the deciding seat may give now: ``play CARD`` only if its hand holds one."""
        return rules.decision_answers(state, decision)

    def _answers(self, state: State, decision: Decision) -> list[str]:
        """Return a read-back decision's public answers (``play CARD``, ``pass``)."""
        kind = rules.kind_of(decision.prompt)
        return rules.answers(kind) if kind else []

    def explains(self, entry: LogEntry, decision: Decision) -> bool:
        """Return True if ``entry`` is a move of the mover that can ask ``decision``: a roll, an answer
        (``play Sword``/``play Shield``/``pass``) or a Sword against a web, each leading on to a duel."""
        if not rules.kind_of(decision.prompt):
            return False
        if entry.text.startswith(ROLL_DUTY):             # the dice that waited: a duel can move a token onto a Guard
            return True
        try:
            move = notation.parse(entry.text.split(" — ")[0])
        except NotationError:
            return False
        return move.verb in ("roll", "pass") or (move.verb == "play" and move.tile is None)

    # -- the document ----------------------------------------------------------------------

    def board(self, state: State) -> list[str]:
        """Return the board lines: the tower's layout and deck, players, floors, the turn's progress."""
        return board.render(state, state.spec if state.spec.counts else default_deck())

    def read_board(self, state: State, lines: list) -> None:
        """Read the board lines back.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        board.read(state, lines)

    def board_problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``)."""
        return check.problems(state)

    def styles(self, text: str) -> list[tuple[int, int, str]]:
        """Return headings for the title and the Players line, bold for the turn and question lines."""
        spans, offset = [], 0
        for line in text.split("\n"):
            if line.startswith("pbd match") or line in ("Players", board.TITLE):
                spans.append((offset, offset + len(line), "heading"))
            elif re.match(r"^(Turn|Waiting on|Result|Asking|Duel)\b", line):
                spans.append((offset, offset + len(line), "bold"))
            offset += len(line) + 1
        return spans

    def svg(self, state: State) -> str:
        """Return the board as an SVG picture (``pbd show --svg FILE``)."""
        from pbd.games.tower import svg

        return svg.svg(state)

    def describe(self, state: State) -> dict:
        """Return the public state (the table's view, each player with token mark, tile and web)."""
        data_ = super().describe(state)
        mk = marks(state.seats)
        for p in data_["players"]:
            p.update(mark=mk[p["name"]], tile=state.tile_of(p["name"]), webbed=p["name"] in state.webbed)
        return data_

    def describe_board(self, state: State) -> dict:
        """Return the tower's public data for ``pbd show --json``."""
        lay, spec = state.layout, state.spec if state.spec.counts else default_deck()
        winner = state.result.split(" reached the treasure")[0] if state.result else None
        return {
            "winner": winner, "round": state.round, "step": state.step if state.started else "joining",
            "duel_fought": state.dueled, "finish": state.finish,
            "board": {"name": lay.name, "floors": lay.floors, "tiles_per_floor": lay.width,
                      "directions": lay.directions, "start": lay.start, "treasure": lay.treasure},
            "deck": {"name": spec.name, "cards": spec.counts},
            "cards": {str(t): c if len(c) > 1 else c[0] for t, c in sorted(state.cards.items()) if c},
            "spent": [list(p) for p in state.spent], "discarded": [list(p) for p in state.discarded],
            "duel": None if not state.duel else dict(vars(state.duel)),
            "asking": {"seat": state.mover, "question": state.ask,
                       "prompt": board.safe_prompt(state, state.mover, state.ask)} if state.ask else None,
        }

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's private view: the cards its pbd reads, where its token stands."""
        out = super().hand(state, secrets)
        out["tile"] = state.tile_of(self._name(state, secrets.player))
        if state.deck is not None:
            out["draw_pile"] = state.deck.size(shared.DRAW)
        return out

    def card_line(self, state: State, card: str, player: str) -> str:
        """Return a hand card in one line for ``pbd hand``: what it does, in pbd's reading."""
        from pbd.games.tower.present import card_line

        return card_line(card)

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a Tower deck file (or ``default``).

        :raises DeckFormatError: the file cannot be read.
        """
        table, source = data.read_toml(deck, "deck")
        spec, problems = data.deck_from(table)
        counts = ", ".join(f"{k} {n}" for k, n in spec.counts.items())
        return f"{source}: a Tower deck of {spec.size} cards ({counts}).", problems

    def from_document(self, state: State, board_state: State) -> None:
        """Take the tower's layout and deck from the document (the log never repeats them).

        The ``Cards:`` line is the deal's where they disagree (the Deck section's manifest, which
        every seat's pbd checks against its own record and the audit against the seeds), so a
        hand edit of it is named; a lot drawn for the first player puts ``starts=random`` back.
        """
        import copy  # (here: a command that replays nothing does not load it)

        state.layout, state.spec = copy.deepcopy(board_state.layout), dealt_spec(board_state)
        if any(e.text.startswith("first player by lot") for e in board_state.meta.log):
            state.options = [w for w in state.options if not w.startswith("starts=")] + ["starts=random"]


def dealt_spec(board_state: State) -> DeckSpec:
    """Return the deck a document's match was dealt: its ``Cards:`` line, unless the Deck section's
    manifest (the cards actually shuffled in) says otherwise."""
    spec = board_state.spec if board_state.spec.counts else default_deck()
    deck = getattr(board_state, "deck", None)
    if deck is None or list(deck.cards) == spec.cards():
        return spec
    counts = {k: n for k in KINDS if (n := deck.cards.count(k))}
    return DeckSpec(spec.name, counts)


GAME = TheTower()


def _first_name(value: str) -> str:
    """Return the name ``--first`` gives, checked as a seat name is.

    :raises UsageError: not a name a seat may have (``random``: drawn by lot once every seat joined).
    """
    if value.casefold() == "random":
        return "random"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _.'-]{0,23}", value):
        raise UsageError(f"--first {value!r} is not a player name")
    return value

