"""C&C Trading Card Game: the game object the registry loads (``GAME``).

This module is the edge of the game: it loads decks and catalogues and hands plain
objects to the pure parts (:mod:`.board`, :mod:`.notation`, :mod:`.rules`).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from pbd import fairplay, paths
from pbd.errors import BackendError, DocumentFormatError, IllegalMoveError, PbdError, UsageError
from pbd.games.base import (CHAIN_DUTY, ROLL_DUTY, Chance, Event, LogEntry, Meta, Playable, PlayerMeta, Reveal, Secrets,
                            published_after)
from pbd.games.cnc import board
from pbd.games.cnc.cards import Catalogue, bundled_catalogue, load_catalogue, match_name
from pbd.games.cnc.state import (HAND_LIMIT, HIDDEN, OPENING, OPENING_HAND, Character, Pending, Side, State, Turn,
                                 clone, key_of, keys_of, opening_owed)

DECK_SIZE = 50


def match_catalogue() -> Catalogue:
    """Return the bundled catalogue plus players' own from ``PBD_HOME/catalogues/*.toml``.

    The folder is read once per process and ``PBD_HOME`` (every command asks, and moves ask
    once per state: see :class:`_Played`); installing a catalogue through pbd
    (:func:`_install_catalogue`) reads it again.
    """
    return _for_home(os.environ.get("PBD_HOME"))


@lru_cache(maxsize=8)
def _for_home(home_env: str | None) -> Catalogue:
    """Return the merged catalogue for a value of ``PBD_HOME``."""
    folder = os.path.join(paths.home(), "catalogues")
    try:
        stamp = os.stat(folder).st_mtime_ns
    except OSError:
        stamp = None
    return _merged(folder, stamp)


@lru_cache(maxsize=4)
def _merged(folder: str, stamp: int | None) -> Catalogue:
    """Return the merged catalogue for a folder as it was at ``stamp`` (its modification time)."""
    bundled = bundled_catalogue()
    try:
        names = os.listdir(folder) if stamp is not None else []
    except OSError:     # not a folder after all: no catalogues of the player's own
        names = []
    files = sorted(os.path.join(folder, name) for name in names if name.endswith(".toml"))
    if not files:       # the common case: the bundled cards, their lookups shared rather than built again
        return bundled.named("bundled")
    cards = dict(bundled.cards)
    for path in files:
        cards.update(load_catalogue(path, require_porter=False).cards)
    return Catalogue(cards, "bundled" + "".join(f" + {p}" for p in files))


class _Played:
    """What :meth:`CncGame.play` (and :meth:`CncGame.is_legal`) found out about the state it last played on.

    A fast path: a bot, a simulation or a replay plays hundreds of moves on one state
    object, and these facts cost more to find out than the rest of a move's bookkeeping.

    * ``catalogue``: the match catalogue (reading ``PBD_HOME`` is the cost).  The state is a
      command's own, so its catalogue does not change while moves are played on it;
      installing a catalogue (:func:`_install_catalogue`) forgets it all the same.
    * ``settled``: the state's log, once both opening hands are drawn and the first player
      is chosen.  A log only grows (an earlier one is replaced by a new list), so nothing
      is owed again while that list is the state's log.
    * ``ctxs``: the rules' context (``rules.Ctx``) of each player's moves, by name, once
      both seats are taken (with another :class:`Chance`, a new one is made): a Ctx keeps
      the state's two sides, and no rule or command adds or replaces a side of a started
      match (building a Ctx anew costs as much as a small rule).  ``rules.apply`` gives the
      kept Ctx fresh notes each move.
    * ``rolling``: whether a text's moves hold one that may roll a die, by text
      (:func:`_rolls_memo` of the catalogue: :meth:`CncGame._rolling`).
    """

    def __init__(self):
        self.state: State | None = None
        self.catalogue: Catalogue | None = None
        self.settled: list | None = None
        self.ctxs: dict[str, object] = {}
        self.rolling: dict[str, bool] = {}

    def of(self, state: State) -> _Played:
        """Return the facts about ``state`` (found out anew for another state)."""
        if state is not self.state:
            self.state, self.catalogue, self.settled, self.ctxs = state, match_catalogue(), None, {}
            self.rolling = _rolls_memo(self.catalogue)[""]
        return self

    def ctx(self, player: str, chance: Chance):
        """Return the ``rules.Ctx`` of ``player``'s moves on the state with ``chance`` (see ``ctxs``)."""
        ctx = self.ctxs.get(player)
        if ctx is None or ctx.chance is not chance:
            rules = (_ENGINE or _engine())[0]
            ctx = rules.Ctx(self.state, self.catalogue, chance, player)
            ctx.full_names = _full_names        # the log writes a move's names in full (see rules.Ctx)
            if type(ctx) is rules.Ctx:      # both sides found (not a Ctx that looks them up later)
                self.ctxs[player] = ctx
        return ctx

    def forget(self) -> None:
        """Forget the state (its catalogue may have changed)."""
        self.state = self.catalogue = self.settled = None
        self.ctxs, self.rolling = {}, {}


_PLAYED = _Played()


_ENGINE: tuple | None = None


def _engine() -> tuple:
    """Return ``(rules module, parse_moves, notation.READ)``, loaded with the first move rather than by every command."""
    global _ENGINE
    from pbd.games.cnc import rules
    from pbd.games.cnc.notation import READ, parse_moves

    _ENGINE = (rules, parse_moves, READ)
    return _ENGINE


_FULL_NAMES = None


def _namer():
    """Return :func:`.fullnames.full_names`, loaded with the first move that names a card."""
    global _FULL_NAMES
    from pbd.games.cnc.fullnames import full_names

    _FULL_NAMES = full_names
    return full_names


def deck_commitment(seed: bytes, cards: list[str], porter: str) -> str:
    """Return the commitment to a seed and a deck (the 50 numbered cards, then the Porter)."""
    return fairplay.commitment(seed, [*cards, f"Porter: {porter}"])


#: the words of a log entry that announces a move whose die waits on a fresh random value
ANNOUNCED = "its die waits on a fresh random value"


def _committed(meta: Meta, player: str) -> bool:
    """Return True if ``player`` committed to a seed in the match (not so: a position built in a test)."""
    pub = meta.player(player)
    return pub is not None and bool(pub.commitment)


#: the kinds of move whose card's text may roll a die (see :meth:`CncGame._may_roll`)
_ROLLING_KINDS = ("attack", "use", "play")


#: the most texts :meth:`CncGame._rolling` keeps answers for (as many as the notation keeps moves for)
_ROLLING_MOST = 4096


def _rolls_memo(cat: Catalogue) -> dict[str, dict[str, bool]]:
    """Return the answers of :meth:`CncGame._may_roll` kept with ``cat``: by kind, then by the card the move
    names; and under ``""``, :meth:`CncGame._rolling`'s, by text."""
    try:
        return cat.rolls_memo
    except AttributeError:
        memo = cat.rolls_memo = {kind: {} for kind in (*_ROLLING_KINDS, "")}
        return memo


def _rolls(effects) -> bool:
    """Return True if any of ``effects`` (the catalogue's effect dicts) rolls a die."""
    return any(isinstance(e, dict) and e.get("do") == "roll" for e in effects)


class _After:
    """A :class:`Chance` whose rule dice wait on a chain value published after log entry ``after``.

    (:meth:`Chance.roll_after`: an announced move's die, rolled once the fresh value is in.)
    """

    def __init__(self, chance: Chance, after: int):
        self._chance, self._after = chance, after

    def roll(self, player: str, sides: int = 6, faces=None, purpose: str = "") -> int:
        return self._chance.roll_after(player, self._after, sides, faces, purpose)

    def __getattr__(self, name):
        return getattr(self._chance, name)


class DryChance(Chance):
    """Chance for trying a move without consequences: draws are hidden, rolls show the first face; hand cards
    are read as ``reading`` reads them (a replay's trial reads what the log showed)."""

    def __init__(self, meta: Meta, reading: Chance | None = None):
        super().__init__(meta, {})
        self.reading = reading

    def shown(self, hand: list, card, hidden=None, words: str = ""):
        """Return the card as :attr:`reading` reads it (see :meth:`Chance.shown`)."""
        if self.reading is None:
            return super().shown(hand, card, hidden, words)
        return self.reading.shown(hand, card, hidden, words)

    def draw(self, player: str, n: int = 1) -> list[str]:
        return [HIDDEN] * n

    def _roll(self, player, kind, sides, faces, purpose) -> int:
        return faces[0] if faces else 1


class CncGame(Playable):
    """The C&C Trading Card Game (rules/cnc-tcg.txt)."""

    name = "cnc"
    notation_ends = (" · ",)
    title = board.TITLE
    aliases = ("c&c", "cnc-tcg", "candc")
    summary = "two players, 51-card decks, CP/AP, characters, City and Event cards"
    notation = """\
        draw · draw 2                                   (1 AP a card)
        play Spider-Man · play Carnivorous Plants on Nill
        Spider-Man attacks Nill · Spider-Man attacks city
        Iron Man attacks Nill with Repulsor Blast then Batman
        Mirror Master uses Mirror Trap on Batman
        withdraw Batman · discard Nill · discard Nill from hand   (1 AP)
        adjust Ben CP -10: the Sentry's Void            (what a card's text does that pbd cannot)
        end turn                                        (ends your turn)
"""
    turn_end = 'end turn'
    #: random play ends its turn and gives cards up less often than it plays them
    move_weights = {"end": 1.0, "withdraw": 0.2, "discard": 0.3, "*": 3.0}
    parsed_classes = (State, Side, Character, Turn, Pending, Meta, PlayerMeta, LogEntry, Event, Reveal)

    @property
    def catalogue(self) -> Catalogue:
        return match_catalogue()

    # -- documents ----------------------------------------------------------------

    def sniff(self, text: str) -> bool:
        return bool(re.search(r"^\s*CP\s*[=:]\s*-?\d+", text, re.M | re.I)) and bool(
            re.search(r"^\s*(City|Character) Cards\s*$", text, re.M | re.I))

    def template(self) -> str:
        import jinja2

        env = jinja2.Environment(loader=jinja2.FileSystemLoader(paths.resource_dir("templates")),
                                 keep_trailing_newline=True, trim_blocks=True)
        return env.get_template("cnc.txt.j2").render(player2="Player 2")

    def parse(self, text: str) -> State:
        return board.parse(text, self.catalogue)

    def render(self, state: State) -> str:
        return board.render(state, self.catalogue)

    def styles(self, text: str) -> list[tuple[int, int, str]]:
        return board.styles(text, self.catalogue)

    # -- starting ---------------------------------------------------------------------

    def _deck(self, spec):
        from pbd.games.cnc.deck import load_cnc_deck

        if spec is not None and not isinstance(spec, str):
            return spec                     # a replay: the deck as the document shows it (seat_from_document)
        if not spec:
            from pbd.decks import bundled_decks

            raise UsageError("a C&C player needs a deck: --deck FILE or a bundled deck",
                             hint="bundled decks: " + ", ".join(bundled_decks("cnc")))
        deck = load_cnc_deck(spec)
        _install_catalogue(deck)
        return deck

    def _seat(self, state: State, match_id: str, player: str, deck, seed: bytes) -> Secrets:
        """Seat ``player``: commit to the seed and deck; the opening hand is drawn later (see :func:`opening_owed`)."""
        sec = Secrets(match_id, player, self.name, seed, list(deck.cards))
        state.meta.seat(player, seed, [*deck.cards, f"Porter: {deck.porter}"])
        state.sides.append(Side(player, cities=[deck.porter] if deck.porter else [], deck=len(deck.cards) - OPENING_HAND,
                                hand=[HIDDEN] * OPENING_HAND))
        return sec

    def create(self, match_id, player, deck, seed, options):
        _check_name(player)
        unknown = set(options) - {"first", "players"}
        if unknown:
            raise UsageError(f"C&C has no option {', '.join(sorted(unknown))}")
        loaded = self._deck(deck)
        state = State(Meta(self.name, match_id))
        first = options.get("first") or ""
        if first and first.casefold() not in (player.casefold(), "me"):
            state.first_choice = "random" if first.casefold() == "random" else first
        sec = self._seat(state, match_id, player, loaded, seed)
        state.meta.record(player, f"new match · deck committed ({loaded.title})")
        return state, sec

    def join(self, state: State, player: str, deck, seed):
        _check_name(player)
        if state.started:
            raise IllegalMoveError("this match already has two players: "
                                   + " and ".join(s.name for s in state.sides))
        if state.sides[0].name.casefold() == player.casefold():
            raise IllegalMoveError(f"{state.sides[0].name} is already playing; choose another name")
        choice = state.first_choice
        if choice and choice != "random" and choice.casefold() != player.casefold():
            raise IllegalMoveError(f"this match was set up for {choice} to move first; join as {choice}")
        loaded = self._deck(deck)
        sec = self._seat(state, state.meta.match_id, player, loaded, seed)
        if choice != "random":           # a random first player is drawn with the creator's opening hand
            self._start(state, 1 if choice else 0, player)
        state.meta.record(player, f"joined · deck committed ({loaded.title})")
        return state, sec

    def _start(self, state: State, first: int, player: str) -> None:
        from pbd.games.cnc import rules

        state.first, state.first_choice = first, ""
        state.to_move, state.turn_number = first, 1
        rules.start_turn(rules.Ctx(state, self.catalogue, DryChance(state.meta), player))

    # -- opening hands ----------------------------------------------------------------------

    def pending(self, state: State, player: str) -> bool:
        """Return True if ``player``'s pbd owes work it does on its next command: its opening hand (see
        :func:`opening_owed`), a fresh random value the opponent's die waits on, or the die that waited."""
        if state.pending and self._owes_dice(state, player):
            return True
        return self._opening_owed(state, player)

    def _opening_owed(self, state: State, player: str) -> bool:
        """Return True if ``player``'s pbd can draw its opening hand now."""
        if not state.started or not opening_owed(state, player):
            return False
        return state.index(player) == 0 or not Chance(state.meta, {}).waiting_on(player)

    # -- dice that follow a choice -------------------------------------------------------------

    @staticmethod
    def _may_roll(move, cat: Catalogue) -> bool:
        """Return True if ``move`` (an attack, an ability, an event played) may roll a die its card's text asks for.

        Such a die follows the player's choice of move, so the move is announced first and
        rolled once a fresh random value is in (:meth:`_announce`).  The answer is kept per
        kind and card (:func:`_rolls_memo`); :meth:`play` asks first whether a text holds such a move
        (:meth:`_rolling`).
        """
        if move.kind not in _ROLLING_KINDS or not move.card:
            return False
        memo = _rolls_memo(cat)[move.kind]
        found = memo.get(move.card)
        if found is None:
            name = re.sub(r"#\d+$", "", move.card)
            card = cat.get(name) if name in cat else None
            found = memo[move.card] = card is not None and _rolls(
                {"attack": lambda: [e for a in card.attacks for e in a.after],
                 "use": lambda: [e for a in card.abilities for e in a.effects],
                 "play": lambda: list(card.effects)}[move.kind]())
        return found

    def _rolling(self, notation: str, moves, played: _Played) -> bool:
        """Return True if one of ``moves`` (those of ``notation``) may roll a die (:meth:`_may_roll`), and keep the
        answer by text in ``played.rolling`` (:meth:`play` reads it there: most texts roll nothing)."""
        found = any(self._may_roll(move, played.catalogue) for move in moves)
        if len(played.rolling) >= _ROLLING_MOST:
            played.rolling.clear()
        played.rolling[notation] = found
        return found

    def awaited_roll(self, state: State) -> tuple[str, int] | None:
        """Return the player whose announced move waits on a fresh random value, and the announcing entry."""
        p = next((p for p in state.pending if p.kind == "roll"), None) if state.pending else None
        if p is None or state.result:
            return None
        entry = next((e for e in reversed(state.meta.log) if e.player == p.player and ANNOUNCED in e.text), None)
        return (p.player, entry.number) if entry is not None else None

    def roll_waits_on(self, state: State) -> list[str]:
        """Return the player who may publish the fresh value an announced move's die waits on (none: no die waits)."""
        return [s.name for s in state.sides if self._owes_chain(state, s.name)]

    def _owes_chain(self, state: State, seat: str) -> bool:
        awaited = self.awaited_roll(state)
        return (awaited is not None and awaited[0].casefold() != seat.casefold()
                and not published_after(state.meta, awaited[0], awaited[1]))

    def _owes_roll(self, state: State, seat: str) -> bool:
        awaited = self.awaited_roll(state)
        return (awaited is not None and awaited[0].casefold() == seat.casefold()
                and bool(published_after(state.meta, awaited[0], awaited[1])))

    def _owes_dice(self, state: State, seat: str) -> bool:
        return self._owes_chain(state, seat) or self._owes_roll(state, seat)

    def _announce(self, state: State, player: str, move, chance: Chance) -> str:
        """Log ``move`` as chosen, its die to come: nothing changes but a pending roll (see :meth:`_may_roll`).

        The move is tried on a copy first (refused as it would be), so the choice in the log is a
        legal one; it is played for real when the die is rolled (:meth:`_roll_due`), on the same
        position: nothing else may happen in between.
        """
        rules = (_ENGINE or _engine())[0]
        trial = clone(state)
        ctx = rules.Ctx(trial, _PLAYED.of(state).catalogue, DryChance(trial.meta, chance), player)
        ctx.full_names = _full_names
        ctx.naming = None if chance.replaying else move
        rules.apply(ctx, move)
        named = ctx.naming
        text = named.source if named is not None and named is not move else move.source
        opp = state.opponent(player).name
        state.pending.append(Pending(state.side(player).name, "roll", card=text,
                                     source=f"waits on a fresh random value from {opp}"))
        entry = state.meta.record(player, f"{text} · {ANNOUNCED} from {opp}")
        return entry.text

    def _roll_due(self, state: State, player: str, chance: Chance) -> str:
        """Play the announced move whose fresh random value is in, rolling its die (``rolls the dice that waited``)."""
        rules, parse_moves, _ = _ENGINE or _engine()
        after = self.awaited_roll(state)[1]
        p = next(p for p in state.pending if p.kind == "roll")
        state.pending.remove(p)
        ctx = rules.Ctx(state, _PLAYED.of(state).catalogue, _After(chance, after), player)
        ctx.full_names = _full_names
        summary = rules.apply(ctx, parse_moves(p.card)[0])
        return state.meta.record(player, f"{ROLL_DUTY} — {summary}").text

    def _pay_dice(self, state: State, player: str, chance: Chance) -> list[str]:
        """Do what ``player``'s pbd owes for a die that follows a choice: roll it, or publish its fresh value."""
        out = []
        if self._owes_roll(state, player) and chance.can_draw_for(player):
            out.append(self._roll_due(state, player, chance))
        if self._owes_chain(state, player) and chance.can_draw_for(player):
            chance.publish(player)
            out.append(state.meta.record(player, f"{CHAIN_DUTY}{self.awaited_roll(state)[0]}'s roll").text)
        return out

    def settle(self, state: State, player: str, chance: Chance) -> list[str]:
        """Draw ``player``'s opening hand (the creator first publishes a chain value and draws who moves first);
        pay what a die that follows a choice owes (:meth:`_pay_dice`); else show the hand cards a Hack asked for
        (a step of the seat's next move, taken here when a replay meets it)."""
        if state.pending and self._owes_dice(state, player):
            return self._pay_dice(state, player, chance)
        if not self._opening_owed(state, player):
            return _resolve_reveals(_PLAYED.of(state).ctx(player, chance)) if state.pending else []
        side = state.side(player)
        creator = state.index(player) == 0
        if creator:
            chance.publish(player)
        side.hand = chance.draw(player, OPENING_HAND) + side.hand[OPENING_HAND:]
        note = ""
        if creator and state.first_choice == "random":
            self._start(state, chance.roll(player, 2, purpose="first") - 1, player)
            note = f" · a fair draw chose {state.sides[state.first].name} to move first"
        text = f"{OPENING} · {OPENING_HAND} cards drawn{note}"
        state.meta.record(side.name, text)
        return [text]

    def _need_opening(self, state: State, player: str, chance: Chance) -> list[str]:
        owed = opening_owed(state, player)
        if not owed and not state.first_choice:
            return []                       # the common case: both hands drawn, the first player chosen
        out = self.settle(state, player, chance) if owed else []    # nothing to settle once drawn (see pending)
        if owed and opening_owed(state, player):
            creator = state.sides[0].name
            raise IllegalMoveError(f"{player}'s opening hand is not drawn yet: {creator}'s pbd must take a step "
                                   f"first, on {creator}'s next command",
                                   hint=f"{creator} runs any pbd command on the match (pbd hand, for example)")
        if state.first_choice:
            raise IllegalMoveError(f"who moves first is not drawn yet: {state.sides[0].name}'s pbd draws it on "
                                   f"{state.sides[0].name}'s next command")
        return out

    def _opening(self, state: State, player: str, chance: Chance, played: _Played) -> list[str]:
        """Return :meth:`_need_opening`'s lines, and remember once nothing is owed any more (see :class:`_Played`)."""
        out = self._need_opening(state, player, chance)
        if state.started and not state.first_choice and not any(opening_owed(state, s.name) for s in state.sides):
            played.settled = state.meta.log
        return out

    # -- private hands ----------------------------------------------------------------------

    def attach(self, state: State, secrets: Secrets) -> None:
        side = state.side(secrets.player)
        takes = [p for p in state.pending if p.player == side.name and p.kind == "take"]
        owed = OPENING_HAND if opening_owed(state, side.name) else 0
        expected = len(secrets.hand) + len(takes) + owed
        if len(side.hand) != expected:
            raise DocumentFormatError(
                f"the board says {side.name} holds {len(side.hand)} cards, but {side.name}'s private hand "
                f"has {expected}", hint="was the 'hand' count edited by hand? put it back, or run pbd check")
        drawn = len(secrets.deck) - len(secrets.drawn) - owed
        if side.deck != drawn:
            raise DocumentFormatError(f"the board says {side.name}'s deck has {side.deck} cards, but "
                                      f"{drawn} are left undrawn", hint="was the 'deck' count edited by hand?")
        side.hand = [HIDDEN] * owed + list(secrets.hand) + [p.card for p in takes]
        state.pending = [p for p in state.pending if p not in takes]

    def seat_reads(self, state: State, seat: str) -> None:
        """Take into ``seat``'s hand the cards the opponent returned to it (as its :meth:`attach` does)."""
        for p in [p for p in state.pending if p.player.casefold() == seat.casefold() and p.kind == "take"]:
            hand = state.side(seat).hand
            if HIDDEN in hand:
                hand.remove(HIDDEN)
            hand.append(p.card)
            state.pending.remove(p)

    def detach(self, state: State, secrets: Secrets) -> None:
        side = state.side(secrets.player)
        secrets.hand = list(side.hand[OPENING_HAND:] if opening_owed(state, side.name) else side.hand)

    # -- moves ------------------------------------------------------------------------------

    def play(self, state: State, player: str, notation: str, chance: Chance) -> list[str]:
        """Apply the moves of ``notation``; return their summaries (logged in full card names)."""
        rules, parse_moves, read = _ENGINE or _engine()
        moves = read.get(notation) or parse_moves(notation)     # (a text read before: found without a call)
        meta = state.meta
        played = _PLAYED if _PLAYED.state is state else _PLAYED.of(state)
        out = [] if played.settled is meta.log else self._opening(state, player, chance, played)
        ctx = played.ctxs.get(player)       # (played.ctx's own first step, without the call)
        if ctx is None or ctx.chance is not chance:
            ctx = played.ctx(player, chance)
        if state.pending:                   # (most moves leave nothing pending)
            out += self._pay_dice(state, player, chance)
            awaited = self.awaited_roll(state)
            if awaited is not None and awaited[0] == state.side(player).name:
                from pbd.errors import RollWaits

                raise RollWaits(awaited[0], [state.opponent(player).name])
            out += _resolve_reveals(ctx)
        before = len(out)                   # (the lines of moves played before this one: see the error below)
        # a move whose card may roll a die waits for a fresh random value: whether the text holds one is kept by
        # text (read here without a call: most texts roll nothing, and their moves ask no more)
        rolling = played.rolling.get(notation)
        if rolling is None:
            rolling = self._rolling(notation, moves, played)
        for move in moves:
            if rolling and self._may_roll(move, played.catalogue) and _committed(meta, player):
                rest = moves[len(out) - before + 1:]    # (each move played before it wrote one line)
                out.append(self._announce(state, player, move, chance))
                if rest:
                    out.append(f"(the moves after it wait for its die: {'; '.join(m.source for m in rest)})")
                break
            ctx.naming = None if chance.replaying else move     # the rules write its names in full (rules.Ctx)
            try:
                summary = rules.apply(ctx, move)
            except PbdError as exc:
                if len(moves) > 1:
                    exc.message = (f"move {len(out) - before + 1} of {len(moves)} ({_logged(ctx, move).source!r}): "
                                   f"{exc.message}")
                    exc.args = (exc.message,)
                raise
            named = ctx.naming
            if named is not None and named is not move:      # (a name typed otherwise: rare; most are None)
                summary = named.source + summary[len(move.source):]
            meta.record(player, summary)      # (a method called, not a bound one kept: the interpreter's fast path)
            out.append(summary)
        return out

    def legal(self, state: State, player: str) -> list[str]:
        return [m for m in self.candidates(state, player) if self.is_legal(state, player, m)]

    def candidates(self, state: State, player: str) -> list[str]:
        if state.first_choice or opening_owed(state, player) and not self.pending(state, player):
            return []                       # nothing can be played before the opening hands are drawn
        if state.pending and (awaited := self.awaited_roll(state)) and awaited[0] == state.side(player).name:
            return []                       # nothing until the die of the move it announced is rolled
        return candidates(state, _PLAYED.of(state).catalogue, player)

    def is_legal(self, state: State, player: str, move: str) -> bool:
        rules, parse_moves, _ = _ENGINE or _engine()
        cat = _PLAYED.of(state).catalogue          # the trial is a copy: the state's own catalogue
        trial = clone(state)
        try:
            rules.apply(rules.Ctx(trial, cat, DryChance(trial.meta), player), parse_moves(move)[0])
        except PbdError:
            return False
        return True

    def problems(self, state: State) -> list[str]:
        from pbd.games.cnc.check import problems

        return problems(state, self.catalogue)

    def check_text(self, text: str) -> list[str]:
        unknown: list[str] = []
        state = board.parse(text, self.catalogue, unknown)
        return unknown + self.problems(state)

    # -- views ------------------------------------------------------------------------------

    def describe(self, state: State) -> dict:
        cat = self.catalogue

        def char(side, i):
            c = side.characters[i]
            return {"name": c.name, "key": key_of(side.characters, i), "hp": c.hp,
                    "max_hp": cat.get(c.name).hp if c.name in cat else None,
                    "class": cat.get(c.name).klass if c.name in cat else None,
                    "statuses": c.statuses, "combo": c.combo, "combo_attack": c.combo_attack}

        return {
            "game": self.name, "match": state.meta.match_id, "turn": state.turn_number,
            "to_move": state.current.name if state.started else None,
            "first": state.sides[state.first].name if state.started and not state.first_choice else None,
            "result": state.result or None,
            "players": [{"name": s.name, "seat": i + 1, "cp": s.cp, "ap": s.ap, "ap_next": s.ap_next,
                         "hand": len(s.hand), "deck": s.deck, "cities": s.cities,
                         "characters": [char(s, j) for j in range(len(s.characters))], "discards": s.discards}
                        for i, s in enumerate(state.sides)],
            "this_turn": {"played": state.turn.played, "withdrew": state.turn.withdrawn,
                          "acted": state.turn.acted, "attacked": state.turn.attacked, "effects": state.turn.effects},
            "pending": [{"player": p.player, "kind": p.kind, "count": p.count, "card": p.card or None,
                         "source": p.source} for p in state.pending],
            "log": [{"n": e.number, "player": e.player, "text": e.text} for e in state.meta.log],
        }

    def hand(self, state: State, secrets: Secrets) -> dict:
        side = state.side(secrets.player)
        data = {"hand": [c for c in side.hand if c != HIDDEN], "deck": side.deck, "ap": side.ap, "cp": side.cp}
        if opening_owed(state, side.name):
            creator = state.sides[0].name
            data["note"] = ("your opening hand is drawn on your next command, once "
                            + ("the opponent has joined" if not state.started else f"{creator} has run "
                               f"a pbd command on the match"))
        return data

    def svg(self, state: State) -> str:
        """Return the board as an SVG picture (``pbd show --svg FILE``)."""
        from pbd.games.cnc.svg import svg

        return svg(state, self.catalogue)

    def card_names(self) -> list[str]:
        """Return every card name of the catalogue (for shell completion)."""
        return sorted(c.name for c in self.catalogue.cards.values())

    def card_line(self, state: State, card: str, player: str) -> str:
        """Return a hand card in one line: its cost and a summary (``pbd hand``)."""
        from pbd.games.cnc.present import card_line

        return card_line(self.catalogue, card)

    def legal_text(self, state: State, player: str, moves: list[str]) -> list[str]:
        """Return the legal moves grouped, with costs and outcomes (``pbd legal``'s text view)."""
        from pbd.games.cnc.present import legal_text

        return legal_text(state, self.catalogue, player, moves)

    def player_names(self, state: State) -> list[str]:
        return [s.name for s in state.sides]

    def status(self, state: State) -> list[str]:
        if state.result:
            return [f"Result: {state.result}"]
        if not state.started:
            return [f"Waiting for player 2 to join ({state.sides[0].name} is player 1)."]
        if opening_owed(state, state.sides[0].name):
            return [f"Waiting for {state.sides[0].name}'s pbd to draw the opening hands"
                    + (" and who moves first" if state.first_choice else "") + f" ({state.sides[0].name}'s next "
                    f"command)."]
        return [f"Turn {state.turn_number}: {state.current.name} to move with {state.current.ap} AP."]

    def actors(self, state: State) -> list[str]:
        if not state.started or state.result:
            return []
        if opening_owed(state, state.sides[0].name):     # the creator's next command draws the opening hands
            return [s.name for s in state.sides]
        owing = [p.player for p in state.pending if p.kind in ("discard", "adjust")]
        dice = [s.name for s in state.sides if self._owes_dice(state, s.name)] if state.pending else []
        return list(dict.fromkeys([*owing, *dice, state.current.name]))

    def sample_decks(self) -> list[str]:
        return ["forces-of-justice", "forces-of-corruption", "forces-of-peace", "forces-of-punishment",
                "forces-of-mystery"]

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        from pbd.games.cnc.deck import deck_report

        return deck_report(deck)

    # -- fair play: reveal, replay, take-backs ----------------------------------------------------

    def committed(self, state: State, secrets: Secrets) -> list[str]:
        porter = next((c for c in state.side(secrets.player).cities
                       if c in self.catalogue and self.catalogue.get(c).kind == "porter"), "")
        return [*secrets.deck, f"Porter: {porter}"]

    def drawable(self, committed: list[str]) -> list[str]:
        return [c for c in committed if not c.startswith("Porter: ")]

    def committed_problems(self, state: State, name: str, committed: list[str]) -> list[str]:
        """Return the construction rules a revealed list breaks, and how it differs from the deck the log names."""
        from collections import Counter

        from pbd.decks import DeckList
        from pbd.games.cnc.deck import deck_problems

        cards = self.drawable(committed)
        porter = next((c[len("Porter: "):] for c in committed if c.startswith("Porter: ")), None)
        out = deck_problems(DeckList("", porter, cards), self.catalogue)
        entry = state.meta.commit_entry(name)
        m = re.search(r"deck committed \((.+?)\)", entry.text) if entry else None
        named = self._bundled(m.group(1)) if m else None
        if named is not None and (Counter(named.cards) != Counter(cards) or named.porter != porter):
            extra = sorted((Counter(cards) - Counter(named.cards)).items())
            out.append(f"the log names the deck {m.group(1)}, but the revealed list is not that deck"
                       + (" (more " + ", ".join(f"{c} ×{n}" for c, n in extra) + ")" if extra else ""))
        return out

    def _bundled(self, title: str):
        from pbd.games.cnc.deck import load_cnc_deck

        for name in self.sample_decks():
            deck = load_cnc_deck(name)
            if deck.title == title:
                return deck
        return None

    def informative(self, entry) -> bool:
        # a move whose die waits cannot be taken back: once the fresh value is out, its die is known
        return super().informative(entry) or entry.text.startswith(("reveals hand card", ROLL_DUTY, CHAIN_DUTY)) \
            or ANNOUNCED in entry.text

    def seat_from_document(self, board: State, entry) -> tuple:
        """Return the seat's deck as a replay sees it — the title the log names, the Porter the board shows,
        fifty hidden cards — and who moves first (``--first``: the board's, or a fair draw the log shows)."""
        title = re.search(r"deck committed \((.*)\)$", entry.text)
        cities = next((s.cities for s in board.sides if s.name == entry.player), [])
        porter = next((c for c in cities if c in self.catalogue and self.catalogue.get(c).kind == "porter"), None)
        deck = _ShownDeck(title.group(1) if title else "", porter, [HIDDEN] * DECK_SIZE)
        if board.first_choice == "random" or any("a fair draw chose" in e.text for e in board.meta.log):
            return deck, {"first": "random"}
        return deck, {"first": board.sides[board.first].name if board.started else board.first_choice}


class _ShownDeck:
    """A seat's deck as a replay sees it (:meth:`CncGame.seat_from_document`): its title, Porter and hidden cards."""

    def __init__(self, title: str, porter: str | None, cards: list[str]):
        self.title, self.porter, self.cards = title, porter, cards


#: the move kinds whose card names :func:`_full_names` writes in full
_NAMED = frozenset(("play", "attack", "use", "withdraw", "discard"))


def _full_names(state: State, player: str, move, catalogue: Catalogue):
    """Return ``move`` with its cards, attacks and abilities written by their full names ("play spider" ->
    "play Spider-Man", "spider attacks nill" -> "Spider-Man attacks Nill", "discard nill" -> "discard Nill").

    The log records the move as written, so the log reads in full names.  A name is
    resolved the way the rules resolve it, else left as typed (:mod:`.fullnames`).
    """
    return (_FULL_NAMES or _namer())(state, player, move, catalogue, (_ENGINE or _engine())[0])


def _logged(ctx, move):
    """Return ``move`` as the log writes it, its names in full (the rules write them: see ``rules.Ctx``).

    A move the rules refused before resolving all its names has changed nothing, so its
    names are written in full here.
    """
    if ctx.naming is move and move.kind in _NAMED:
        return _full_names(ctx.state, ctx.player, move, ctx.cat)
    return ctx.naming or move


def _check_name(player: str) -> None:
    if not player.strip() or any(ch in player for ch in ":()·[]\n") or player.strip() != player:
        raise UsageError(f"{player!r} cannot be a player name",
                         hint="use letters, digits, spaces and dashes (no ':', '(', ')', '·' or brackets)")


def _install_catalogue(deck) -> None:
    """Keep a player's own catalogue under PBD_HOME/catalogues so later commands know its cards."""
    if deck.catalogue_path:
        source = deck.catalogue_path
        folder = os.path.join(paths.home(), "catalogues")
        try:
            os.makedirs(folder, exist_ok=True)
            import shutil

            shutil.copyfile(source, os.path.join(folder, os.path.basename(source)))
            _merged.cache_clear()
            _for_home.cache_clear()
            _PLAYED.forget()
        except OSError as exc:
            raise BackendError(f"cannot keep a copy of {source} under {folder}: {exc}") from None


def _resolve_reveals(ctx) -> list[str]:
    """Reveal the hand cards the opponent's Hack asked for (only our pbd can see them)."""
    out: list[str] = []
    if not ctx.state.pending:
        return out
    for p in [p for p in ctx.state.pending if p.player == ctx.me.name and p.kind == "reveal"]:
        hand = ctx.me.hand
        card = ctx.chance.shown(hand, min(p.count, len(hand)) - 1, HIDDEN, f"reveals hand card {p.count}: {{}} "
                                f"({p.source})") if hand else "nothing (empty hand)"
        text = f"reveals hand card {p.count}: {card} ({p.source})"
        ctx.state.meta.record(ctx.me.name, text)
        out.append(text)
        ctx.state.pending.remove(p)
    return out


def candidates(state: State, cat: Catalogue, player: str) -> list[str]:
    """Return every move worth trying for ``player`` now (legality is checked by trying)."""
    if not state.started or state.result:
        return []
    me, opp = state.side(player), state.opponent(player)
    mine = [key_of(me.characters, i) for i in range(len(me.characters))]
    theirs = [key_of(opp.characters, i) for i in range(len(opp.characters))]
    owed = any(p.player == me.name and p.kind == "discard" for p in state.pending)
    hand = sorted({c for c in me.hand if c != HIDDEN and c in cat})
    decide = ["accept adjustment", "reject adjustment"] if any(
        p.player == me.name and p.kind == "adjust" for p in state.pending) else []
    if owed:
        return decide + [f"discard {c} from hand" for c in hand]
    out = decide + ["end turn"] + [f"draw {n}" if n > 1 else "draw" for n in range(1, min(me.ap, HAND_LIMIT) + 1)]
    for name in hand:
        card = cat.get(name)
        out += _with_targets(f"play {name}", card.target, state, cat, me, opp, "on")
    for key in mine:
        card = cat.get(key.split("#")[0])
        for attack in card.attacks:
            suffix = f" with {attack.name}" if len(card.attacks) > 1 else ""
            out += [f"{key} attacks {t}{suffix}" for t in (theirs or ["city"])]
        for ability in card.abilities:
            if not ability.passive:
                out += _with_targets(f"{key} uses {ability.name}", ability.target, state, cat, me, opp, "on")
        out += [f"withdraw {key}", f"discard {key}"]
    for city in me.cities:
        if cat.get(city).kind != "porter":
            out += [f"withdraw {city}", f"discard {city}"]
    out += [f"discard {c} from hand" for c in hand]
    return out


def _with_targets(prefix, spec, state, cat, me, opp, word) -> list[str]:
    keys = lambda side: [key_of(side.characters, i) for i in range(len(side.characters))]  # noqa: E731
    targets = {
        "none": [""], "opposing character": keys(opp), "friendly character": keys(me),
        "any character": keys(opp) + keys(me),
        "opposing city": [c for c in opp.cities if cat.get(c).kind == "city"],
        "own city": [c for c in me.cities if cat.get(c).kind == "city"],
        "opposing character or cp": keys(opp) + ["city"],
    }.get(spec, [])
    return [f"{prefix} {word} {t}" if t else prefix for t in dict.fromkeys(targets)]


GAME = CncGame()
