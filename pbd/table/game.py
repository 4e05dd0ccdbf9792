"""The base every game at the table builds on: :class:`CardGame`.

A game for 2..N seats that deals from one shared face-down deck subclasses
:class:`CardGame` and writes only what is its own: the deck's piles, how the match
starts, the moves legal now, what a move does, and its board lines.  The base owns
the chores (python-chess's ``Board`` variants and boardgame.io's ``setup``/``moves``
are the models):

* **seats** — ``pbd new --players N`` fixes the number; each ``join`` takes the next seat
  and shuffles the deck in; the match starts when the last seat is taken;
* **the shared deck** (:class:`~pbd.table.deck.SharedDeck`) — every seat's shuffle pass,
  the unlocks a seat owes (done by its pbd on its next command, before its move), the
  check of everything other seats changed since this seat's private record, and the
  cards this seat's pbd can read (its hand);
* **turns and the log** — one log entry per move; when a move ends the turn, the seat
  publishes its next chain value and the turn passes (:meth:`CardGame.next_seat`);
* **pending decisions** (:mod:`pbd.table.decisions`) — a game opens one with
  ``state.ask(seat, prompt, answers)``; its seat is to move, its answers (written in the
  document and read back) are the legal moves, and each is checked against the log entry
  that asked it; after an answer the turn stays unless the answer's :class:`Move` ends it;
* **waiting** — a seat whose hand holds a card other seats have not unlocked yet has no
  moves and no answers until they do (:attr:`CardGame.waits_for_cards`);
* **replay** — every command replays the log without anyone's seed (:meth:`CardGame.replay`,
  which no game overrides): the rules run again and a hidden card reads as the seeds deal it
  (an audit that holds every seat's), else as what the log showed
  (:meth:`~pbd.table.deck.SharedDeck.card`, :meth:`~pbd.table.deck.SharedDeck.named`); a seat's
  deck work is done again symbolically with the steps that come with it (:meth:`CardGame.work_steps`);
  a face-down card is remade from the log's opening (:func:`pbd.table.secret.face_down`);
* **the document** — a header (seats, turn or result, who is waited on, decisions),
  the game's board lines, then the deck's section;
* **views** — ``describe``, ``hand``, ``status``, ``actors``, ``outcome`` and the rest.

Required hooks are abstract: a game that lacks one cannot be instantiated, and the
registry names what is missing when it loads the game.  See ``docs/writing-a-game.md``
and ``examples/highcard``.
"""

from __future__ import annotations

import re
from abc import ABCMeta, abstractmethod
from typing import ClassVar

from pbd.errors import DocumentFormatError, IllegalMoveError, NotationError, RollWaits, UsageError
from pbd.games.base import (CHAIN_DUTY, NOTE_HINT, ROLL_DUTY, Chance, Event, LogEntry, Meta, Playable,  # noqa: F401
                            PlayerMeta, Reveal, Secrets, board_note, published_after, render_frame, split_frame,
                            typed)
from pbd.record import Record
from pbd.regex import pattern
from pbd.table.decisions import Decision, parse_line, problems as decision_problems, seats_to_answer
from pbd.table import deck as _deck
from pbd.table.deck import SharedDeck

#: A seat's name: what the board and the log can hold without ambiguity.
NAME_RE = pattern(r"^[A-Za-z0-9À-ɏ' ._-]{1,24}$")
SEATS_RE = pattern(r"^Seats:\s*(?P<names>.*?)\s*\((?P<n>\d{1,2}) of (?P<of>\d{1,2})\)\s*$")
TURN_RE = pattern(r"^Turn:\s*(?P<name>.+?)\s*$")
RESULT_RE = pattern(r"^Result:\s*(?P<text>.+?)\s*$")
OPTIONS_RE = pattern(r"^Options:\s*(?P<words>.*?)\s*$")
#: The lines that ask something of a seat, wherever they stand (:meth:`CardGame.asks`).
ASKS_RE = pattern(r"^[ \t]*(?:turn|waiting on|owed|result)[ \t]*:[^\n]*", re.MULTILINE | re.IGNORECASE)


def _asking(text: str) -> list[str]:
    """Return the lines of ``text`` that ask something of a seat (:data:`ASKS_RE`), as pbd reads its own, lower case."""
    return [typed(m.group(0)).strip().casefold() for m in ASKS_RE.finditer(text)]


def _owes_on(line: str, name: str) -> bool:
    """Return True if a lower-case asking line names ``name`` (lower case) but as the seat whose cards another
    unlocks (``owed: ben: unlock 1 card(s) for ann``: Ann's pbd owes nothing there; her move was asked already)."""
    return name in line.replace(f"card(s) for {name}", "")
#: an option's value in a document: a short name or a content hash, never a path
OPTION_VALUE_RE = pattern(r"^[A-Za-z0-9][A-Za-z0-9:'’._-]{0,39}$")
DECK_HEADING = "Deck"
#: The classes of the table every parsed state may hold: a game's ``parsed_classes`` are its own and these
#: (its state class first), so that :func:`pbd.match.parse_board` keeps the parsed board by its text.
TABLE_CLASSES = (Meta, PlayerMeta, LogEntry, Event, Reveal, Decision, *_deck.PARSED_CLASSES)


def defined_in(*modules) -> tuple[type, ...]:
    """Return every class the ``modules`` define (not the ones they import): a game's own ``parsed_classes``."""
    return tuple(v for m in modules for v in vars(m).values() if isinstance(v, type) and v.__module__ == m.__name__)




class Table:
    """What every match at the table has; a game's state subclasses it (as a record, or as a :class:`TableState`).

    ``meta`` is the match's header and log; ``seats`` the names seated, in order; ``players``
    how many seats the match has; ``deck`` the shared deck; ``turn`` is the index in ``seats``
    of the seat on turn; ``decisions`` are open questions other seats must answer; ``result``
    is set when the match ends; ``options`` are the match's ``-O`` words.  The game's own
    fields come after these.

    The games pbd ships build their state as a :class:`pbd.record.Record` on this class
    (``class State(Record, Table)``, setting these fields with :meth:`_set_table`): the
    dataclass :class:`TableState` costs every command loading :mod:`dataclasses`.
    """

    #: the table's own fields, in order: what a game's record state sets first (:meth:`_set_table`)
    TABLE_FIELDS = ("meta", "seats", "players", "deck", "turn", "decisions", "result", "options")

    def _set_table(self, meta: Meta, seats: list[str] | None, players: int, deck: SharedDeck | None, turn: int,
                   decisions: list[Decision] | None, result: str, options: list[str] | None) -> None:
        """Set the table's fields (for a game whose state is a :class:`pbd.record.Record`, from its ``__init__``)."""
        self.meta = meta
        self.seats = [] if seats is None else seats
        self.players = players
        self.deck = deck
        self.turn = turn
        self.decisions = [] if decisions is None else decisions
        self.result = result
        self.options = [] if options is None else options

    @property
    def started(self) -> bool:
        """Return True once every seat is taken."""
        return len(self.seats) == self.players

    @property
    def on_turn(self) -> str | None:
        """Return the seat on turn (None before the match starts or after it ends)."""
        return self.seats[self.turn] if self.started and not self.result else None

    def ask(self, seat: str, prompt: str, answers: list[str]) -> Decision:
        """Open a decision: ``seat`` must answer ``prompt`` with one of ``answers`` before play goes on.

        Call it from ``apply`` (or ``answer``): the decision's origin is the log entry the
        move being applied is about to write.  The answers are public: they are written on the
        ``Waiting on:`` line and read back with it (:meth:`CardGame.answers_now` narrows them to
        what the seat's hand allows).  The base then lists them as ``seat``'s legal moves and
        calls the game's ``answer`` hook with the one given.
        """
        decision = Decision(seat, prompt, list(answers), len(self.meta.log) + 1, listed=True)
        self.decisions.append(decision)
        return decision


def _table_state() -> type:
    """Return :class:`TableState`, made the first time it is asked for (see :func:`__getattr__`)."""
    from dataclasses import dataclass, field

    @dataclass
    class TableState(Table):
        """What every match at the table has, as a dataclass: a game's ``@dataclass`` state subclasses it.

        ``turn`` is the index in ``seats`` of the seat on turn; ``decisions`` are open
        questions other seats must answer; ``result`` is set when the match ends.
        """

        meta: Meta
        seats: list[str] = field(default_factory=list)
        players: int = 2
        deck: SharedDeck | None = None
        turn: int = 0
        decisions: list[Decision] = field(default_factory=list)
        result: str = ""
        options: list[str] = field(default_factory=list)

    TableState.__qualname__ = "TableState"         # (pickle finds it as pbd.table.game.TableState)
    globals()["TableState"] = TableState
    return TableState


def __getattr__(name: str):
    """Make :class:`TableState` when a game first asks for it (``from pbd.table.game import TableState``).

    It is a dataclass, and :mod:`dataclasses` with the class it writes costs a command about
    8M instructions: the games pbd ships subclass :class:`Table` instead, and a command of
    theirs never loads it.
    """
    if name == "TableState":
        return _table_state()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _DefaultState:
    """:attr:`CardGame.state_class` until a game sets its own: :class:`TableState`, made when first read."""

    def __get__(self, instance, owner) -> type:
        return globals().get("TableState") or _table_state()


class Move(Record):
    """What a move did, as the game reports it: the log text and whether the turn passes."""

    FIELDS = ("text", "ends_turn")

    def __init__(self, text: str, ends_turn: bool = False):
        self.text = text
        self.ends_turn = ends_turn


class CardGame(Playable, metaclass=ABCMeta):
    """A game at the table (see the module docstring); override the abstract hooks."""

    shares_a_deck: ClassVar[bool] = True
    players: ClassVar[tuple[int, int]] = (2, 6)
    join_needs_deck: ClassVar[bool] = False
    #: the state class of the game (a subclass of :class:`Table`; default :class:`TableState`)
    state_class: ClassVar[type] = _DefaultState()
    #: the ``-O`` options the game takes (words; ``key=value`` ones are written ``key=``)
    option_words: ClassVar[tuple[str, ...]] = ()
    #: True: a seat whose hand holds a card still locked by other seats waits (no moves, no answers)
    #: until they unlock it, so ``moves`` and ``answers_now`` never see a ``None`` card
    #: (:meth:`waiting_for`); a game whose seats may move around a locked card sets it False.
    waits_for_cards: ClassVar[bool] = True
    #: True: a move may rest on a hand card nobody else saw (Boys' Town's face-down attack), so the log
    #: is replayed in full only by ``pbd audit``, on the deal every seat's revealed seed gives
    #: (:attr:`SharedDeck.dealt`); before that the hand-edit check replays its public part (hidden
    #: hands by their count) and ``pbd replay`` says it cannot replay the log yet.
    replays_on_the_deal: ClassVar[bool] = False

    # -- required hooks -------------------------------------------------------------------

    @abstractmethod
    def piles(self, players: int, options: list[str]) -> dict[str, list[str]]:
        """Return the shared deck's piles at the start: pile name -> card ids, top first."""

    @abstractmethod
    def start(self, state: Table) -> None:
        """Begin the match once every seat is taken: deal, set up the board (in place)."""

    @abstractmethod
    def moves(self, state: Table, seat: str) -> list[str]:
        """Return every move ``seat`` may make now, in exact notation (decision answers are the base's)."""

    @abstractmethod
    def apply(self, state: Table, seat: str, move: str, chance: Chance) -> Move:
        """Apply one move of ``seat`` in place and report it.

        :raises NotationError: the move cannot be read.
        :raises IllegalMoveError: the rules forbid it now (which rule, with the numbers).
        """

    @abstractmethod
    def board(self, state: Table) -> list[str]:
        """Return the game's board lines (between the header and the deck's section)."""

    @abstractmethod
    def read_board(self, state: Table, lines: list) -> None:
        """Read the board lines (:class:`~pbd.games.base.Line` objects) back into ``state``.

        :raises DocumentFormatError: naming the line and what was expected.
        """

    # -- hooks with defaults ----------------------------------------------------------------

    def next_seat(self, state: Table) -> int:
        """Return the index of the seat whose turn comes after the current one (seat order)."""
        return (state.turn + 1) % len(state.seats)

    def update(self, state: Table) -> None:
        """Carry the match on after the deck changed (cards unlocked by another seat's command); in place.

        Called after every seat's deck work and every move: a game whose next step waits for
        cards to turn face up (who won the round) takes it here.
        """

    def answer(self, state: Table, seat: str, decision: Decision, move: str, chance: Chance) -> Move:
        """Apply ``seat``'s answer ``move`` (one of ``decision.answers``) to an open decision.

        :raises IllegalMoveError: the game has no decisions (a game that opens them overrides this).
        """
        raise IllegalMoveError(f"{self.title} has no decisions to answer")

    def answers_now(self, state: Table, decision: Decision) -> list[str]:
        """Return the answers ``decision``'s seat may give now (default: the decision's own list).

        A game whose answers depend on what only the deciding seat can read (its hand)
        narrows them here; it never sees a locked card (the seat is waiting until its hand
        is readable).  ``decision.answers`` stays the public list: written on the board by
        :meth:`Table.ask` and read back with it, and what a replay (which reads no one's
        hand) checks an answer against.
        """
        return list(decision.answers)

    def open_answer(self, state: Table, decision: Decision, text: str) -> bool:
        """Return True if ``text`` answers ``decision`` although no listed answer is it (default: never).

        For an answer that is free text checked by the game's own rules (2Xd6's stated Rc, a
        calculation); :meth:`answer` gets the text as written.
        """
        return False

    def explains(self, entry: LogEntry, decision: Decision) -> bool:
        """Return True if log entry ``entry``'s move asks ``decision`` (see :mod:`pbd.table.decisions`).

        Default: for a decision opened with :meth:`Table.ask`, any move of another seat (not
        the deck's or the seats' work); the replay of the log (the hand-edit check) compares
        the decision itself.  A game that writes its own ``Waiting on:`` lines says more here.
        """
        return decision.listed and not _chore(entry.text)

    def board_problems(self, state: Table) -> list[str]:
        """Return every rule the board breaks beyond what the base checks (for ``pbd check``)."""
        return []

    def describe_board(self, state: Table) -> dict:
        """Return the game's own public data for ``pbd show --json``."""
        return {}

    # -- documents ------------------------------------------------------------------------

    def template(self) -> str:
        """Return a blank board: the header of a match nobody has joined yet."""
        state = self.state_class(Meta(self.name), players=self.players[0])
        return "\n".join([self.title, *self._header(state), "", *self.board(state)]).rstrip() + "\n"

    def render(self, state: Table) -> str:
        """Return the document: the frame around the header, the board and the deck's section."""
        deck = [DECK_HEADING, *state.deck.render()] if state.deck is not None else []
        return render_frame(state.meta, self.title, self._header(state), list(self.board(state)), machinery=deck)

    def _header(self, state: Table) -> list[str]:
        out = [f"Seats: {', '.join(state.seats)} ({len(state.seats)} of {state.players})"]
        if state.options:
            out.append(f"Options: {' '.join(state.options)}")
        if state.result:
            out.append(f"Result: {state.result}")
        elif state.on_turn:
            out.append(f"Turn: {state.on_turn}")
        out += [d.line() for d in state.decisions]
        if state.deck is not None:
            out += [f"Owed: {d.describe()}" for d in state.deck.duties]
        owing = self.roll_waits_on(state)
        if owing:
            out.append(f"Owed: {' or '.join(owing)}: a fresh random value for {self.awaited_roll(state)[0]}'s roll")
        elif self.roll_owed(state):
            out.append(f"Owed: {self.awaited_roll(state)[0]}: the dice that waited (their fresh random value is in)")
        out += [f"Owed: {seat}: {what}" for seat, what in self.own_duties(state)]
        return out

    def parse(self, text: str) -> Table:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        from pbd.games.base import parse_meta

        frame = split_frame(text)
        state = self.state_class(parse_meta(self.name, frame))
        header, body = frame.header, frame.body
        if not frame.match_id:
            header, body = _blank_board(body, self.title)
        self._read_header(state, header)
        board, deck = _split_deck(body)
        if deck is None and frame.match_id:
            raise DocumentFormatError(
                f"the match has no '{DECK_HEADING}' section: it holds every card of the match and cannot be left out",
                line=body[-1].number if body else None,
                hint="put it back from the document's version history")
        if deck is not None:
            state.deck = SharedDeck.parse(deck)
            if state.deck.seats != state.seats:
                raise DocumentFormatError("the Deck section's seats are not the seats of the match",
                                          line=deck[0].number if deck else None)
        try:
            self.read_board(state, board)
        except DocumentFormatError as exc:
            if frame.match_id and any(ln.number == exc.line for ln in board):
                exc.hint = (exc.hint + "; " if exc.hint else "") + NOTE_HINT
            raise
        for d in state.decisions:
            d.answers = self._answers(state, d)
        if frame.match_id:
            _keep_unread(frame, state, board, self.board(state))
        return state

    def _read_header(self, state: Table, lines: list) -> None:
        seen_seats, options_line = False, None
        for line in lines:
            text = line.text.strip()
            if m := SEATS_RE.match(text):
                state.seats = [n.strip() for n in m.group("names").split(",") if n.strip()]
                state.players = int(m.group("of"))
                low, high = self.players
                if len(state.seats) != int(m.group("n")) or not low <= state.players <= high \
                        or len(state.seats) > state.players:
                    raise DocumentFormatError(f"the Seats line does not add up ({self.title} seats {low} to {high})",
                                              line=line.number)
                seen_seats = True
            elif m := OPTIONS_RE.match(text):
                state.options = m.group("words").split()
                options_line = line.number
            elif m := RESULT_RE.match(text):
                state.result = m.group("text")
            elif m := TURN_RE.match(text):
                if m.group("name") not in state.seats:
                    raise DocumentFormatError(f"the Turn line names {m.group('name')!r}, who has no seat",
                                              line=line.number)
                state.turn = state.seats.index(m.group("name"))
            elif text.lower().startswith("waiting on:"):
                state.decisions.append(parse_line(text, line.number))
            elif not text.startswith("Owed:"):
                raise DocumentFormatError("expected 'Seats:', 'Options:', 'Turn:', 'Result:', 'Waiting on:' or "
                                          "'Owed:' in the header", line=line.number)
        if not seen_seats:
            raise DocumentFormatError("the header has no 'Seats: NAME, NAME (n of N)' line", line=1)
        if state.options and (problem := self.option_problem(state.options, state.players)):
            raise DocumentFormatError(f"the Options line: {problem}", line=options_line,
                                      hint=f"{self.title} options: {', '.join(self.option_words) or 'none'}")

    def option_problem(self, words: list[str], players: int) -> str:
        """Return what is wrong with the ``Options:`` words a document shows ('' if nothing).

        A word is one of :attr:`option_words` (``key=`` ones with any value a game's override
        does not refuse); a document never names a file, so a value is never opened here.
        """
        for word in words:
            key = word.split("=", 1)[0].lower()
            if word.lower() not in self.option_words and f"{key}=" not in self.option_words:
                return f"{_short(word)!r} is no option of {self.title}"
            if "=" in word and not OPTION_VALUE_RE.match(word.split("=", 1)[1]):
                return f"{_short(word)!r}: an option's value is a short name (letters, digits, . _ - :), never a file"
        return ""

    def sniff(self, text: str) -> bool:
        """Return True for a blank board of this game (its title on the first line)."""
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        return first.casefold() == self.title.casefold()

    # -- starting ---------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match: the creator's seat and shuffle pass.

        :raises UsageError: a deck given (the table deals from its own), a bad name or option.
        """
        if deck:
            raise UsageError(f"{self.title} deals every seat from one shared deck: leave out --deck")
        opts = dict(options)
        players = int(opts.pop("players", self.players[0]))
        first = opts.pop("first", None)
        words = self.parse_options(opts)
        _check_name(player)
        state = self.state_class(Meta(self.name, match_id), seats=[player], players=players, options=words)
        if first and first.casefold() not in (player.casefold(), "me"):
            raise UsageError(f"{self.title}: the seats move in seat order; the creator moves first",
                             hint="the players who join take seats 2, 3, ... in the order they join")
        state.deck = SharedDeck.create(match_id, [player], self.piles(players, words))
        sec = self._sit(state, player, seed)
        state.meta.record(player, f"new match for {players} · shuffled the deck in")
        self.detach(state, sec)
        return state, sec

    def parse_options(self, options: dict) -> list[str]:
        """Return ``-O`` options as words (``key`` or ``key=value``), checked against :attr:`option_words`.

        :raises UsageError: an option the game does not take.
        """
        words = []
        for key, value in options.items():
            word = key.strip().lower() if value in (None, "", True) else f"{key.strip().lower()}={value}"
            if word not in self.option_words and f"{key.strip().lower()}=" not in self.option_words:
                raise UsageError(f"{self.title} has no option {key!r}",
                                 hint=f"options: {', '.join(self.option_words) or 'none'}")
            words.append(word)
        return words

    def join(self, state: Table, player: str, deck: str | None, seed: bytes):
        """Seat ``player`` and shuffle the deck in; the last to sit starts the match.

        :raises IllegalMoveError: the match is full, or the name is taken.
        :raises UsageError: a deck given, or a bad name.
        """
        if deck:
            raise UsageError(f"{self.title} deals every seat from one shared deck: join without --deck")
        _check_name(player)
        if state.started:
            raise IllegalMoveError(f"the match is full ({', '.join(state.seats)})")
        if any(s.casefold() == player.casefold() for s in state.seats):
            raise IllegalMoveError(f"{player} is already playing in this match; choose another name")
        state.seats.append(player)
        state.deck.add_seat(player)
        sec = self._sit(state, player, seed)
        text = "joined · shuffled the deck in"
        if state.started:
            self.start(state)
            state.deck.settle(player, seed)
            text += f" · the match starts; {state.on_turn} to move"
        state.meta.record(player, text)
        self.detach(state, sec)
        return state, sec

    def _sit(self, state: Table, player: str, seed: bytes) -> Secrets:
        state.meta.seat(player, seed, [])
        state.deck.settle(player, seed)
        return Secrets(state.meta.match_id, player, self.name, seed, [])

    # -- a seat's private view ------------------------------------------------------------------

    def attach(self, state: Table, secrets: Secrets) -> None:
        """Check what other seats changed since this seat's record, then read this seat's hand.

        :raises DocumentFormatError: the deck was altered (every problem named), or the
            decisions on the board are not what the log asked.
        """
        seat = self._name(state, secrets.player)
        if state.deck is None:
            return
        record = secrets.extra.get("deck")
        previous = _recorded_deck(state.meta.match_id, seat, record) if record else None
        keys = {seat: {g.number: _public_key(state.deck, secrets.seed, g.number) for g in state.deck.gens}}
        found = state.deck.verify(previous, keys, seat) + self._decision_problems(state)
        if found:
            raise DocumentFormatError("the shared deck or the board was altered since your last command: "
                                      + "; ".join(found[:5]), hint="nothing was written; run pbd audit DOC")
        state.deck.learn(seat, secrets.seed, secrets.extra.setdefault("cards", {}))

    def _decision_problems(self, state: Table) -> list[str]:
        return decision_problems(state.decisions, state.meta.log, state.seats, self.explains)

    def detach(self, state: Table, secrets: Secrets) -> None:
        """Keep this seat's record of the deck (to check the next command against) and its hand."""
        seat = self._name(state, secrets.player)
        if state.deck is not None:
            secrets.extra["deck"] = state.deck.render()
            secrets.hand = [c for c in state.deck.hand_cards(seat) if c is not None]

    def awaited_roll(self, state: Table) -> tuple[str, int] | None:
        """Return ``(seat, entry)`` if ``seat``'s next die follows a choice logged in ``entry`` (None: no such die).

        Such a die is rolled with :meth:`Chance.roll_after`: it waits on a chain value another seat
        publishes after ``entry``, and the base makes that publication a duty of the other seats
        (paid by any command of theirs, or at once by ``pbd watch``).  Default: none.
        """
        return None

    def rolls_itself(self, state: Table) -> bool:
        """Return True if the awaited die (:meth:`awaited_roll`) is rolled by its seat's pbd as a duty, not by a move.

        A die the rules roll in the middle of resolving (a duel after its Swords and Shields, a
        targeting's dice) has no move of its own: once a fresh value is in, the seat's next pbd
        command (or ``pbd watch``) rolls it through :meth:`roll_awaited`.  Default: False (the
        seat rolls it with a move, as The Tower's ``roll`` after a card is placed).
        """
        return False

    def roll_awaited(self, state: Table, seat: str, chance: Chance) -> Move:
        """Roll the die that waited (:meth:`rolls_itself`) and go on resolving; return what happened.

        The game rolls it with :meth:`Chance.roll_after` and the entry :meth:`awaited_roll` names.
        """
        raise NotImplementedError(f"{self.title} has no die its pbd rolls by itself")

    def roll_owed(self, state: Table) -> bool:
        """Return True if the awaited die's seat owes it now: its pbd rolls it itself and its fresh value is in."""
        awaited = self.awaited_roll(state)
        return (awaited is not None and not state.result and self.rolls_itself(state)
                and bool(published_after(state.meta, awaited[0], awaited[1])))

    def _owes_roll(self, state: Table, seat: str) -> bool:
        """Return True if ``seat``'s pbd owes the dice that waited (:meth:`roll_owed`)."""
        return self.roll_owed(state) and self.awaited_roll(state)[0].casefold() == seat.casefold()

    def _roll_due(self, state: Table, seat: str, chance: Chance) -> str:
        """Roll the dice that waited, for ``seat``, with the chores of a move (the turn, the log); return the entry."""
        if state.deck is not None:
            state.deck.begin(seat)
        done = self.roll_awaited(state, seat, chance)
        if done.ends_turn and not state.result:
            chance.publish(seat)
            state.turn = self.next_seat(state)
        entry = state.meta.record(seat, f"{ROLL_DUTY} — {done.text}" if done.text else ROLL_DUTY)
        self.update(state)
        return entry.text

    def _owes_chain(self, state: Table, seat: str) -> bool:
        """Return True if ``seat`` owes a chain value for another seat's die that follows a choice."""
        awaited = self.awaited_roll(state)
        if awaited is None or state.result or awaited[0].casefold() == seat.casefold():
            return False
        return not published_after(state.meta, awaited[0], awaited[1])

    def roll_waits_on(self, state: Table) -> list[str]:
        """Return the seats any of whom may publish the fresh value a die waits on (none: no die waits)."""
        if not state.started or state.result or self.awaited_roll(state) is None:
            return []
        return [s for s in state.seats if self._owes_chain(state, s)]

    def keep_checked(self, state: Table, secrets: Secrets) -> bool:
        """Keep the deck this command verified as the seat's record (see :meth:`Playable.keep_checked`)."""
        if state.deck is None:
            return False
        text = state.deck.render()
        if secrets.extra.get("deck") == text:
            return False
        secrets.extra["deck"] = text
        return True

    def asks(self, text: str, seat: str) -> tuple[str, ...]:
        """Return the ``Turn:``, ``Waiting on:`` and ``Result:`` lines of ``text`` and the ``Owed:`` lines that name
        ``seat`` as the one who owes, if one of them names it so or is a ``Result:`` line; else none
        (see :meth:`pbd.games.base.Playable.asks`).

        Every duty of a card game on the table is named on an ``Owed:`` line (the deck's work, a
        fresh value for a die, a draw Boys' Town owes, the game's own steps: :meth:`own_duties`),
        every decision on a ``Waiting on:`` line and the seat on move on the ``Turn:`` line; a
        ``Result:`` line asks every seat to look.  A seat named only as the one whose cards another
        unlocks (``Ben: unlock 1 card(s) for Ann``) is not asked anything by it.  The lines naming other seats come
        too but for their duties: a question put to another seat holds up the seat on move.  A name
        inside a longer one (Ann in Anne) only makes a look that finds nothing.
        """
        name = seat.casefold()
        lines = tuple(line for line in _asking(text) if not line.startswith("owed") or _owes_on(line, name))
        return lines if any(_owes_on(line, name) or line.startswith("result") for line in lines) else ()

    def may_owe(self, text: str, seat: str) -> bool:
        """Return False only if no ``Owed:`` line of ``text`` names ``seat`` as the one who owes (see the base)."""
        name = seat.casefold()
        return any(line.startswith("owed") and _owes_on(line, name) for line in _asking(text))

    def pending(self, state: Table, player: str) -> bool:
        """Return True if ``player``'s pbd owes work on the deck or a chain value for a die (done by its next command)."""
        seat = self._name(state, player)
        return state.deck is not None and bool(state.deck.owed(seat)) or self._owes_chain(state, seat) \
            or self._owes_roll(state, seat) \
            or self.owes_step(state, seat)

    def settle(self, state: Table, player: str, chance: Chance) -> list[str]:
        """Do the work ``player`` owes (a chain value a die waits on, the deck's), in place, and log it; return the summary."""
        seat = self._name(state, player)
        done = []
        if self._owes_roll(state, seat) and chance.can_draw_for(seat):
            done.append(self._roll_due(state, seat, chance))       # (it may leave another seat's die waiting)
        if self._owes_chain(state, seat) and chance.can_draw_for(seat):
            chance.publish(seat)
            done.append(state.meta.record(seat, f"{CHAIN_DUTY}{self.awaited_roll(state)[0]}'s roll").text)
        if state.deck is not None:
            done += self._work(state, seat, chance)
        if self.owes_step(state, seat) and (step := self.owed_step(state, seat, chance)):
            state.meta.record(seat, step)
            done.append(step)
        return done

    def _work(self, state: Table, seat: str, chance: Chance) -> list[str]:
        """Do ``seat``'s deck work and the steps that come with it (:meth:`work_steps`), logged as one
        entry, in place; return its lines.  Replaying the log, the work is done symbolically (no seed)."""
        deck, lines = state.deck, []
        if deck.owed(seat):
            lines = deck.settle(seat, None if getattr(chance, "replaying", False)
                                else chance.secrets[seat.casefold()].seed)
        self._learn(state, chance)
        steps = self.work_steps(state, seat, chance, bool(lines))
        if lines or steps:
            state.meta.record(seat, "; ".join(lines + steps))
            self.update(state)
        return ["; ".join(lines + steps)] if steps else lines

    def work_steps(self, state: Table, seat: str, chance: Chance, worked: bool) -> list[str]:
        """Take the steps that need no choice which ``seat``'s pbd takes with its deck work (``worked``: it
        did some), in place; return their log words, written in the same entry.  Default: none.

        (Boys' Town's: the lot for the first player, the flip of the seat's face-down card, and what
        follows from the cards just unlocked.)  A step logged as an entry of its own is :meth:`owed_step`.
        """
        return []

    def _learn(self, state: Table, chance: Chance) -> None:
        """Read the hands of the seats whose seeds ``chance`` holds (a simulation holds every seat's;
        a player's pbd holds its own, whose hand :meth:`attach` read already; a replay holds none)."""
        if getattr(chance, "replaying", False):
            return
        for sec in chance.secrets.values():
            name = self._name(state, sec.player)
            if name in state.seats and sec.seed is not None:
                state.deck.learn(name, sec.seed)

    # -- moves ----------------------------------------------------------------------------------

    def play(self, state: Table, player: str, notation: str, chance: Chance) -> list[str]:
        """Apply ``notation`` (moves joined by ';') for ``player``, all or nothing; the base does the chores.

        One exception to "all or nothing": a die that follows a choice and must wait for another
        seat's chain value (:class:`~pbd.errors.RollWaits`) stops the moves there; those before it stand.

        First the seat's owed deck work; then each move (an answer to an open decision, or
        the game's move), logged; a move that ends the turn publishes the seat's next chain
        value and passes the turn.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move is not legal now.
        """
        seat = self._name(state, player)
        moves = [m.strip() for m in notation.split(";") if m.strip()]
        if not moves:
            raise NotationError("no move given", hint=f"legal now: {', '.join(self.legal(state, seat)[:5])}")
        lines = self.settle(state, seat, chance)
        for i, text in enumerate(moves):
            if state.result:
                raise IllegalMoveError(f"the match is over: {state.result}")
            try:
                self._step(state, seat, text, chance)
            except RollWaits as exc:
                if not i:
                    raise
                lines.append(f"{text}: {exc.message}; {exc.hint}")   # the moves before it stand
                break
            lines.append(state.meta.log[-1].text)
            if state.deck is not None and state.deck.owed(seat):
                lines += self.settle(state, seat, chance)
        return lines

    def _step(self, state: Table, seat: str, text: str, chance: Chance) -> None:
        """Apply one move and do its chores: the log entry (``MOVE — what happened``), the turn."""
        if state.deck is not None:
            state.deck.begin(seat)
        done = self._one(state, seat, text, chance)
        if done.ends_turn and not state.result:
            chance.publish(seat)
            state.turn = self.next_seat(state)
        state.meta.record(seat, f"{text} — {done.text}" if done.text else text)
        self.update(state)

    def waiting_for(self, state: Table, seat: str) -> list[str]:
        """Return the seats ``seat`` waits on to unlock its hand (none: it is not waiting).

        Only a game that :attr:`waits_for_cards`, and never in a replay (which reads no one's
        hand: there a decision's answers are its public list, :meth:`answers_now` is not asked).
        """
        deck = state.deck
        if not self.waits_for_cards or deck is None or deck.oracle is not None or None not in deck.hand_cards(seat):
            return []
        held = set(deck.hands.get(seat, []))
        return [d.seat for d in deck.duties if d.kind == "unlock" and held & set(d.slot_ids)] or deck.waiting_on()

    def _one(self, state: Table, seat: str, text: str, chance: Chance) -> Move:
        mine = [d for d in state.decisions if d.seat == seat]
        if (mine or state.on_turn == seat and not state.decisions) and (wait := self.waiting_for(state, seat)):
            raise IllegalMoveError(f"{seat} is waiting on {', '.join(wait)} to unlock {seat}'s cards",
                                   hint=f"their next pbd command does it (pbd watch at once); then move")
        if mine:
            decision = mine[0]
            replaying = state.deck is not None and state.deck.oracle is not None
            answers = list(decision.answers) if replaying and decision.listed else self.answers_now(state, decision)
            answer = text if self.open_answer(state, decision, text) else next(
                (a for a in answers if a.casefold() == text.casefold()), None)
            if answer is None and replaying and not decision.listed and None in state.deck.hand_cards(seat):
                answer = text       # a hand this replay cannot read: the game's rules check what they can
            if answer is None:
                raise IllegalMoveError(f"{seat} must first answer: {decision.prompt}",
                                       hint=f"answers: {', '.join(answers)}")
            state.decisions.remove(decision)
            return self.answer(state, seat, decision, answer, chance)
        if not state.started:
            raise IllegalMoveError(f"the match starts when all {state.players} seats are taken "
                                   f"({len(state.seats)} so far)")
        if state.decisions:
            raise IllegalMoveError(f"waiting on {', '.join(seats_to_answer(state.decisions))} to answer first")
        if state.on_turn != seat:
            raise IllegalMoveError(f"it is {state.on_turn}'s turn, not {seat}'s")
        return self.apply(state, seat, text, chance)

    def legal(self, state: Table, player: str) -> list[str]:
        """Return every move legal now for ``player`` (answers first), in exact notation."""
        seat = self._name(state, player)
        if state.result or not state.started:
            return []
        mine = [d for d in state.decisions if d.seat == seat]
        if not (mine or not state.decisions and state.on_turn == seat) or self.waiting_for(state, seat):
            return []
        return self.answers_now(state, mine[0]) if mine else self.moves(state, seat)

    def _answers(self, state: Table, decision: Decision) -> list[str]:
        """Return the answers a parsed decision allows (the game says; default: none known)."""
        return list(decision.answers)

    def actors(self, state: Table) -> list[str]:
        """Return the seats that must act now: deciders, then seats owing deck work, then the seat on turn."""
        if not state.started or state.result:
            return []
        out = seats_to_answer(state.decisions)
        if state.deck is not None:
            out += [s for s in state.deck.waiting_on() if s not in out]
        out += [s for s in state.seats if s not in out and (self._owes_chain(state, s) or self._owes_roll(state, s))]
        if not state.decisions and state.on_turn not in out:
            out.append(state.on_turn)
        return out

    def outcome(self, state: Table) -> str | None:
        """Return the result once the match is over, else None."""
        return state.result or None

    # -- views ------------------------------------------------------------------------------------

    def describe(self, state: Table) -> dict:
        """Return the public state as JSON-able data: seats, hand sizes, piles, decisions, the game's own."""
        deck = state.deck
        return {
            "game": self.name, "match": state.meta.match_id, "options": list(state.options),
            "players": [{"name": s, "seat": i + 1, "hand": len(deck.hands.get(s, [])) if deck else 0}
                        for i, s in enumerate(state.seats)],
            "seats": state.players, "turn": state.on_turn, "result": state.result or None,
            "piles": {name: len(ids) for name, ids in deck.piles.items()} if deck else {},
            "decisions": [{"seat": d.seat, "prompt": d.prompt, "answers": d.answers, "from": d.origin}
                          for d in state.decisions],
            "waiting_on": deck.waiting_on() if deck else [],
            **self.describe_board(state),
        }

    def hand(self, state: Table, secrets: Secrets) -> dict:
        """Return the seat's private view: the cards its pbd can read, and how many are still locked."""
        seat = self._name(state, secrets.player)
        cards = state.deck.hand_cards(seat) if state.deck else []
        data = {"hand": [c for c in cards if c is not None]}
        if None in cards:
            data["note"] = (f"{cards.count(None)} card(s) still locked: waiting on "
                            f"{', '.join(state.deck.waiting_on())} to unlock them (their next pbd command)")
        return data

    def player_names(self, state: Table) -> list[str]:
        """Return the seats in order."""
        return list(state.seats)

    def status(self, state: Table) -> list[str]:
        """Return a line on where the match stands."""
        if state.result:
            return [f"Result: {state.result}"]
        if not state.started:
            return [f"Waiting for {state.players - len(state.seats)} more player(s) to join "
                    "(pbd join DOC --as NAME)."]
        waiting = self.actors(state)
        return [f"{', '.join(waiting)} to act" + (f" ({state.on_turn}'s turn)" if state.on_turn else "") + "."]

    def problems(self, state: Table) -> list[str]:
        """Return every rule the position breaks (for ``pbd check``)."""
        out = self._decision_problems(state)
        if state.started and not state.result and not 0 <= state.turn < len(state.seats):
            out.append("the turn names no seat")
        return out + self.board_problems(state)

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Games at the table deal from their own deck: there is no deck list to check.

        :raises UsageError: always.
        """
        raise UsageError(f"{self.title} deals every seat from one shared deck; there is no deck list to check")

    def sample_decks(self) -> list[str]:
        """Return no decks: seats join without one."""
        return []

    def informative(self, entry: LogEntry) -> bool:
        """Return True: a move at the table may have turned cards or unlocked them, so none is taken back."""
        return True

    # -- replay and audit -------------------------------------------------------------------------

    def replay(self, state, entry: LogEntry, chance: Chance, board, strict: bool = True):
        """Apply one log entry to ``state`` (None before the first) for ``pbd replay``, ``pbd audit`` and
        the hand-edit check; every game at the table is replayed here (a game overrides none of it).

        The rules run again without anyone's seed.  Seating and deck work are replayed
        symbolically (who locked, shuffled and unlocked what); the deck is the one the document's
        Deck section was dealt (every seat's pbd checked it against its own record, the audit
        against the seeds); a hidden card reads as the seeds deal it in an audit that derived
        every seat's revealed seed (:attr:`~pbd.table.deck.SharedDeck.dealt`), else as what the
        log showed (:meth:`~pbd.table.deck.SharedDeck.card`, with the document's deck as its
        oracle).  An entry of a seat that owes work is that work, done again with the steps
        that come with it (:meth:`work_steps`); a seat's own owed step (:meth:`owed_step`) is
        taken again; a move is replayed from its notation, the part of the entry before
        `` — ``; facts the log never repeats come from the document (:meth:`from_document`).

        :raises NotImplementedError: the game :attr:`replays_on_the_deal` and this is neither an
            audit holding every seat's seed nor the hand-edit check (``chance.public``).
        :raises PbdError: the entry breaks a rule.
        """
        text, seat = entry.text, entry.player
        if state is None:
            m = re.match(r"new match for (\d+)", text)
            if not m:
                raise IllegalMoveError("the log does not start with 'new match for N'")
            dealt = _deal_of(board, getattr(chance, "derived", None))
            if dealt is None and self.replays_on_the_deal and not getattr(chance, "public", False):
                raise NotImplementedError(f"{self.title}'s log is replayed by pbd audit once every player has revealed")
            state = self.state_class(chance.meta, seats=[seat], players=int(m.group(1)), options=list(board.options))
            self.from_document(state, board)
            state.deck = SharedDeck.create(chance.meta.match_id, [seat], self._dealt(state, board))
            state.deck.oracle, state.deck.dealt = board.deck, dealt
            state.deck.settle(seat, None)
        elif text.startswith("joined"):
            state.seats.append(seat)
            state.deck.add_seat(seat)
            state.deck.settle(seat, None)
            if state.started:
                self.start(state)
                state.deck.settle(seat, None)
        elif text.startswith(CHAIN_DUTY):
            if not self._owes_chain(state, seat):
                raise IllegalMoveError(f"{seat} owed no chain value for a roll here")
            chance.publish(seat)
        elif text.startswith(ROLL_DUTY):
            awaited = self.awaited_roll(state)
            if awaited is None or not self.rolls_itself(state) or awaited[0].casefold() != seat.casefold():
                raise IllegalMoveError(f"{seat} owed no roll here")
            if not published_after(state.meta, awaited[0], awaited[1]):
                raise RollWaits(seat, [s for s in state.seats if s.casefold() != seat.casefold()])
            self._roll_due(state, seat, chance)
            return state
        elif (text.startswith(WORK) or self.pending(state, seat)) and self._work(state, seat, chance):
            return state
        elif text.startswith(WORK):
            raise IllegalMoveError(f"{seat} owed no work on the deck here")
        elif self.owes_step(state, seat):
            text = self.owed_step(state, seat, chance) or ""
        else:
            self._step(state, seat, text.split(" — ")[0], chance)
            return state
        state.meta.record(seat, text)
        return state

    def _dealt(self, state: Table, board) -> dict[str, list[str]]:
        """Return the piles a replayed match starts with: those the document's deck was dealt, if it
        shows them (a deck the creator brought), else the game's (:meth:`piles`)."""
        deck = getattr(board, "deck", None)
        if deck is None or not deck.gens:
            return self.piles(state.players, state.options)
        return {name: [deck.cards[i - 1] for i in ids] for name, ids in deck.gens[0].piles.items()
                if all(0 < i <= len(deck.cards) for i in ids)}

    def from_document(self, state: Table, board: TableState) -> None:
        """Copy onto a replayed match, at its first entry, what the log never says and the document
        holds (a tower's layout, a grid); in place.  Default: nothing."""

    def owes_step(self, state: Table, seat: str) -> bool:
        """Return True if ``seat``'s pbd owes a step of the game's own before anything else (a lot for
        who moves first); taken by :meth:`owed_step` on its next command.  Default: never."""
        return False

    def own_duties(self, state: Table) -> list[tuple[str, str]]:
        """Return ``(seat, what, in words)`` for every step of the game's own a seat's pbd owes (:meth:`pending`
        beyond the deck's work and the dice): the header writes each on an ``Owed:`` line, which is what
        tells ``pbd watch`` to read the match (:meth:`asks`).  Default: :meth:`owes_step`, in the words of
        :attr:`step_owed`."""
        return [(seat, self.step_owed) for seat in state.seats if self.owes_step(state, seat)] if state.started else []

    #: what :meth:`owes_step` owes, in words (an ``Owed:`` line of the header)
    step_owed = "a step of the game"

    def owed_step(self, state: Table, seat: str, chance: Chance) -> str | None:
        """Take the step ``seat`` owes (see :meth:`owes_step`), in place; return its log words."""
        return None

    def _name(self, state: Table, player: str) -> str:
        return next((s for s in state.seats if s.casefold() == player.casefold()), player)


def logged(chance: Chance) -> str:
    """Return what the log says the move being replayed did (its words after `` — ``); '' outside a replay.

    Where a move turns up a card the document no longer shows (a reshuffle took it off), a
    replay without the seeds reads the card from these words (:meth:`SharedDeck.named`).
    """
    entry = getattr(chance, "entry", None) if getattr(chance, "replaying", False) else None
    return entry.text.split(" — ", 1)[1] if entry is not None and " — " in entry.text else ""


#: how a seat's deck work begins its log entry
WORK = ("locked and shuffled", "unlocked", "published")


def revealed_seeds(state: Table) -> dict[str, bytes] | None:
    """Return every seat's revealed seed, by seat (None: the match has no deck yet, or a seat has not revealed)."""
    if state.deck is None or not state.seats or len(state.seats) != state.players:
        return None
    seeds = {}
    for seat in state.seats:
        rev = state.meta.revealed_by(seat)
        try:
            seeds[seat] = bytes.fromhex(rev.seed) if rev is not None else None
        except ValueError:
            return None
    return None if None in seeds.values() else seeds


def _deal_of(board: TableState, derived) -> dict[int, str] | None:
    """Return every slot's card as the seeds deal it, for an audit that derived every seat's revealed seed
    (``derived``, by name), else None."""
    if getattr(board, "deck", None) is None or not derived:
        return None
    seeds = revealed_seeds(board)
    folded = {n.casefold() for n in derived}
    if seeds is None or not all(s.casefold() in folded for s in seeds):
        return None
    return board.deck.derive(seeds)[0]


def _chore(text: str) -> bool:
    """Return True for a log entry of the table's own work (seating, deck work, chain values), not a move."""
    return text.startswith(("new match for", "joined", "locked and shuffled", "unlocked", "published", CHAIN_DUTY))


def _keep_unread(frame, state: Table, board: list, rendered: list[str]) -> None:
    """Keep as players' notes the board lines the game's reader passed over (kept where they stand).

    A line is passed over when the board read back does not write it again, even with its
    spacing and case aside: the next write would drop it, and pbd never deletes a line it
    did not write.
    """
    wanted = {_plain(text) for text in rendered}
    for line in board:
        if line.text.strip() and _plain(line.text) not in wanted:
            board_note(frame, line, state.meta)


def _plain(text: str) -> str:
    """Return a board line with its spacing and case aside (what a reader that tolerates both reads)."""
    return " ".join(text.split()).casefold()


def _blank_board(lines: list, title: str) -> tuple[list, list]:
    """Return ``(header, board)`` of a blank board (:meth:`CardGame.template`): the title, the
    header lines up to the first blank line, then the board lines."""
    rest = [ln for ln in lines]
    while rest and (not rest[0].text.strip() or rest[0].text.strip().casefold() == title.casefold()):
        rest = rest[1:]
    end = next((i for i, ln in enumerate(rest) if not ln.text.strip()), len(rest))
    return rest[:end], rest[end:]


def _split_deck(lines: list) -> tuple[list, list | None]:
    for i, line in enumerate(lines):
        if line.text.strip() == DECK_HEADING:
            return lines[:i], lines[i + 1:]
    return lines, None


def _recorded_deck(match_id: str, seat: str, record: list[str]) -> SharedDeck:
    """Return the deck as this seat's pbd recorded it at its last command (:meth:`CardGame.detach`), parsed.

    Every command of the seat checks the document's deck against it; parsing it again each time
    cost a command as much as its own board (decoding every number), so the parse is kept in
    PBD_HOME's cache by the record's exact text, as a board is (:func:`pbd.cache.cached`: one
    entry a seat, the classes of a deck only).
    """
    from pbd import cache

    return cache.cached("deck-record", f"/deck-record/{match_id}/{seat}", "\n".join(record).encode("utf-8"),
                        lambda: SharedDeck.parse(record), _deck.PARSED_CLASSES, SharedDeck)


def _public_key(deck: SharedDeck, seed: bytes, gen: int) -> int:
    from pbd.table import group

    return group.public_key(deck.key(seed, gen))


def _short(text: str, limit: int = 40) -> str:
    """Return ``text`` cut to ``limit`` characters (an excerpt of the document for a message)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _check_name(name: str) -> None:
    if not NAME_RE.match(name) or not name.strip():
        raise UsageError(f"{name!r} cannot be a player name: 1 to 24 letters, digits, spaces, ' . _ -")
