"""Boys' Town for 2 to 6 players: Towns, builds and battles on one shared face-down deck.

Modules: :mod:`.catalogue` (TOML card catalogues: effects as data), :mod:`.cards` (the one
adapter to pbd.table's shared deck and secret choice), :mod:`.rules` (turns, draw and build
phases), :mod:`.battle` (attacks, flips, resolution), :mod:`.effects` (what effects add up
to), :mod:`.score` (the rulebook's four steps), :mod:`.moves`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations


from pbd.errors import IllegalMoveError, UsageError
from pbd.games.base import Chance, LogEntry, Secrets
from pbd.games.boystown import battle, board, cards, flow, notation, rules, score
from pbd.games.boystown import moves as mv
from pbd.games.boystown.catalogue import GOODCUP, Catalogue, load
from pbd.games.boystown import state as state_module
from pbd.games.boystown.state import State
from pbd.regex import pattern
from pbd.table import secret
from pbd.table.decisions import Decision
from pbd.table.game import TABLE_CLASSES, CardGame, Move, defined_in, logged, revealed_seeds


class BoysTown(CardGame):
    """Boys' Town at the table: the base does seats, the shared deck, turns, the log and decisions."""

    name = "boystown"
    title = "Boys' Town"
    aliases = ("boys-town", "boys town", "boys' town")
    summary = "build a Town, battle from hand or Town; 2-6 players on one shared deck"
    notation = """\
        draw · keep · redraw
        build Corner Shop · done                        (done: no more extra builds)
        attack Ben with Street Fighter from hand · attack Cy with Old Mill from town
        defend with Bouncer · flip
        swap Getaway Driver with Old Mill · use Bodyguard · pass      (after the flip)
        use Paperboy on Ben · use Rusty Bike            (Hand effects)
        adjust Old Mill TP +1: Handyman                 (a text the moves cannot express)
        Your turn ends when your attack is settled (or after your build when you cannot attack).
"""
    turn_end = 'your turn ends when your attack is settled (pass after the flip)'
    players = (2, 6)
    state_class = State
    parsed_classes = (State, *defined_in(state_module), *TABLE_CLASSES)
    waits_for_cards = False     # a seat moves around a card still locked (the rules say what it may do)
    replays_on_the_deal = True  # a hand attack rests on a card nobody else saw until its flip
    option_words = ("catalogue=", "starts=")

    # -- seats -----------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match; ``deck`` names the catalogue (default: standard).

        ``--first NAME`` is kept as the option ``starts=NAME`` (the table's seats otherwise
        move in seat order from the creator); ``--first random`` as ``starts=random``: once
        every seat has shuffled the deck in, the creator's pbd rolls a die with one face per
        seat (``purpose first``, logged, re-derived by ``pbd audit``) and the option becomes
        ``starts=NAME`` before the deal (see :meth:`_draw_first`).

        :raises UsageError: a bad name or option.
        :raises DeckFormatError: the catalogue cannot be read (every problem listed).
        """
        opts = dict(options)
        cat = load(deck or str(opts.pop("catalogue", "") or "standard"))
        opts["catalogue"] = cat.name if cat.bundled else cat.digest
        first = str(opts.pop("first", "") or "")
        if first.casefold() == "random":
            opts["starts"] = "random"
        elif first and first.casefold() not in (player.casefold(), "me"):
            opts["starts"] = first
        return super().create(match_id, player, None, seed, opts)

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; the last seat starts the game (4 cards dealt to each).

        :raises IllegalMoveError: the match is full, the name is taken, or the player chosen
            to begin has not joined and this is the last seat.
        :raises UsageError: a catalogue other than the match's.
        """
        if deck:
            cat = load(deck)
            if cat.digest not in rules.cat(state).ref:
                raise UsageError(f"this match is played with the catalogue {rules.cat(state).ref}; "
                                 f"{deck!r} is {cat.digest}")
        starts = next((w.split("=", 1)[1] for w in state.options if w.startswith("starts=")), "")
        seated = [*state.seats, player]
        if starts and starts != "random" and len(seated) == state.players \
                and starts.casefold() not in {s.casefold() for s in seated}:
            raise IllegalMoveError(f"this match was set up for {starts} to play first; join as {starts}")
        return super().join(state, player, None, seed)

    def piles(self, players: int, options: list[str]) -> dict[str, list[str]]:
        """Return the catalogue's deck, face down in the draw pile (card ids: positions in its deck list)."""
        ref = next((w.split("=", 1)[1] for w in options if w.startswith("catalogue=")), "standard")
        return cards.piles(load(ref, remember=False, from_document=True).deck())

    def start(self, state: State) -> None:
        """Deal 4 cards to each player and begin the first turn."""
        flow.start(state)
        self._sync(state)

    # -- private state -----------------------------------------------------------------------

    def attach(self, state: State, secrets: Secrets) -> None:
        """Check the table and read the hand (the base), then bring back a face-down battle card."""
        super().attach(state, secrets)
        name = self._name(state, secrets.player)
        if secrets.extra.get("battle"):
            state.private[name] = dict(secrets.extra["battle"])
        self._sync(state)

    def detach(self, state: State, secrets: Secrets) -> None:
        """Keep the table record (the base) and the face-down battle card in private state."""
        super().detach(state, secrets)
        name = self._name(state, secrets.player)
        if state.private.get(name, {}).get("nonce"):
            secrets.extra["battle"] = dict(state.private[name])
        else:
            secrets.extra.pop("battle", None)

    def _learn(self, state: State, chance) -> None:
        """Read the hand of every seat whose secrets this process holds (one seat on the CLI), and its
        face-down battle card; a replay holds no seed and reads nothing."""
        if getattr(chance, "replaying", False):
            return
        for sec in (getattr(chance, "secrets", {}) or {}).values():
            seat = self._name(state, sec.player)
            if sec.match_id != state.meta.match_id or seat not in state.seats or state.deck is None:
                continue
            state.deck.learn(seat, sec.seed, sec.extra.setdefault("cards", {}))
            if sec.extra.get("battle") and seat not in state.private:
                state.private[seat] = dict(sec.extra["battle"])

    @staticmethod
    def _reserve(state: State, chance: Chance) -> None:
        """Replaying without the seeds: keep a card a move names off the slots later entries open by number (a
        flip opens its slot, which stayed in the hand until then: :meth:`SharedDeck.named`)."""
        entry = getattr(chance, "entry", None)
        if not getattr(chance, "replaying", False) or entry is None or state.deck is None:
            return
        cards.reserve(state.deck, {int(m.group("slot")) for e in getattr(chance, "ahead", ())
                                   if e.number > entry.number and "· nonce " in e.text
                                   and (m := secret.OPENING_RE.search(e.text))})

    # -- owed steps ----------------------------------------------------------------------------

    def pending(self, state: State, player: str) -> bool:
        """Return True if ``player``'s pbd owes table work or the flip of its face-down card."""
        b = state.battle
        flip = bool(b and b.stage == "reveal" and b.attacker == self._name(state, player))
        return flip or self._owes_lot(state, self._name(state, player)) or super().pending(state, player)

    def own_duties(self, state: State) -> list[tuple[str, str]]:
        """Return the lot for the first player and the flip of a face-down card owed (see the base)."""
        b, out = state.battle, []
        if state.seats and self._owes_lot(state, state.seats[0]):
            out.append((state.seats[0], "the lot for the first player"))
        if b and b.stage == "reveal":
            out.append((b.attacker, "the flip of the face-down card"))
        return out

    def _owes_lot(self, state: State, seat: str) -> bool:
        """Return True if ``seat``'s pbd owes the roll for the first player (``--first random``)."""
        return state.first_random and state.phase == "shuffling" and bool(state.seats) \
            and seat == state.seats[0] and state.deck is not None and cards.ready(state.deck)

    def _draw_first(self, state: State, seat: str, chance) -> str | None:
        """Roll for the first player if ``seat`` owes it: one face per seat, ``purpose first``; return the log line.

        The creator rolls because its seed was committed before any other seat's chain value
        existed, and the roll mixes in every other seat's (the beacon): nobody alone can steer it.
        """
        if not self._owes_lot(state, seat):
            return None
        n = chance.roll(seat, len(state.seats), purpose="first")
        name = state.seats[n - 1]
        state.options = [f"starts={name}" if w == "starts=random" else w for w in state.options]
        return f"first player by lot: {n} on a {len(state.seats)}-sided die ({name})"

    def work_steps(self, state: State, seat: str, chance: Chance, worked: bool) -> list[str]:
        """Take, with ``seat``'s deck work, the lot for the first player and the flip of its face-down card,
        then every step that needs no choice; return their log words (the deck work's entry holds them)."""
        steps = [s for s in (self._draw_first(state, seat, chance), self._flip(state, seat, chance)) if s]
        return steps + flow.advance(state) if worked or steps else []

    def _flip(self, state: State, seat: str, chance: Chance) -> str | None:
        """Flip ``seat``'s face-down card if its pbd owes it (a replay: the slot and nonce of the log's opening)."""
        b = state.battle
        if not (b and b.stage == "reveal" and b.attacker == seat):
            return None
        opened = secret.opening(chance, seat)
        if opened is not None:
            if not state.private.get(seat, {}).get("nonce"):
                state.private[seat] = {"slot": opened.slot, "nonce": opened.nonce}
            rules.named(state, seat, opened.card.removeprefix("flips "), opened.slot)
        return battle.do_flip(state, seat)

    # -- moves -------------------------------------------------------------------------------

    def moves(self, state: State, seat: str) -> list[str]:
        """Return every move ``seat`` may make now, in notation."""
        return mv.legal(state, seat)

    def play(self, state: State, player: str, notation_text: str, chance: Chance) -> list[str]:
        """Play (the base does the chores); the attacker alone is told which card lies face down."""
        lines = super().play(state, player, notation_text, chance)
        seat, b = self._name(state, player), state.battle
        mine = state.private.get(seat, {})
        if b and b.attacker == seat and b.attack_slot is None and mine.get("slot") is not None:
            c = rules.card_at(state, int(mine["slot"]), seat)
            lines.append(f"(face down: {c.name if c else '?'})")
        return lines

    def _step(self, state: State, seat: str, text: str, chance: Chance) -> None:
        """Write the move in the log the way others may see it (a face-down card is never named)."""
        self._learn(state, chance)
        self._reserve(state, chance)
        canon = self._canon(state, seat, text)
        if canon is None:
            return
        super()._step(state, seat, canon, chance)

    def _canon(self, state: State, seat: str, text: str) -> str | None:
        """Return the move as logged: a decision's exact answer, a hand attack without its card.

        None: a ``flip`` already done by this command's owed steps.

        :raises NotationError: the move cannot be read.
        """
        move = notation.parse(text)
        b = state.battle
        if move.kind == "flip" and not (b and b.stage == "reveal" and b.attacker == seat) \
                and state.meta.log and state.meta.log[-1].player == seat and "flips " in state.meta.log[-1].text:
            return None
        mine = [d for d in state.decisions if d.seat == seat]
        if mine:
            key = self._key(state, move)
            return next((a for a in mine[0].answers if self._key(state, notation.parse(a)) == key), text)
        if move.kind == "attack" and move.card and state.on_turn == seat and state.phase == "attack" and not b:
            source = move.source or battle._where(state, seat, move.card)
            if source == "hand":
                state.private[seat] = {"slot": rules.in_hand(state, seat, move.card)}
                return f"attack {rules.player(state, move.target)} from hand"
        return text

    def _key(self, state: State, move) -> tuple:
        names = list(rules.cat(state).cards)
        card = Catalogue.resolve(move.card, names) if move.card else ""
        return move.kind, card, move.target.casefold(), move.source

    def apply(self, state: State, seat: str, move: str, chance: Chance) -> Move:
        """Apply one move of the seat on turn; the turn passes when the rules pass it.

        :raises NotationError: the move cannot be read.
        :raises IllegalMoveError: a rule forbids it (which, with the numbers).
        """
        turn = state.turn
        parsed = notation.parse(move)
        if parsed.kind == "attack" and parsed.source == "hand" and not parsed.card:    # the logged form
            held = cards.hand(state.deck, seat) if state.deck is not None else []
            down = secret.face_down(chance, state.meta.match_id, seat, state.private.get(seat, {}).get("slot"), held)
            if down.slot is not None and down.slot not in held:
                raise IllegalMoveError(f"the flip the log shows for this attack opens slot {down.slot}, which is not "
                                       f"in {seat}'s hand")
            state.private[seat] = {"slot": down.slot, "nonce": down.nonce, **({} if down.nonce else
                                                                               {"commit": down.commitment})}
        elif parsed.kind == "redraw" and state.peeked is not None and (m := REDRAW_RE.search(logged(chance))):
            rules.named(state, seat, m.group("card"), state.peeked)     # (a card the document no longer shows)
        text = self._do(state, seat, move)
        return Move(text, ends_turn=state.turn != turn or state.phase == "over")

    def answer(self, state: State, seat: str, decision: Decision, move: str, chance: Chance) -> Move:
        """Apply ``seat``'s answer to the battle's question (a defending card, an optional effect)."""
        return Move(self._do(state, seat, move))

    def _do(self, state: State, seat: str, move: str) -> str:
        public, _ = mv.apply(state, seat, notation.parse(move))
        text = "; ".join([public, *flow.advance(state)])
        self._sync(state)
        return text

    def next_seat(self, state: State) -> int:
        """Return the seat the rules passed the turn to (they do it themselves)."""
        return state.turn

    def update(self, state: State) -> None:
        """Keep the open decisions in step with the battle."""
        self._sync(state)

    def _sync(self, state: State) -> None:
        """Derive the open decisions from the battle, with the answers this pbd can list.

        (A state the rules touched describes its own figures, not those the document showed.)
        """
        state.shown = None
        found = rules.decisions(state)
        for d in found:
            d.answers = mv.legal(state, d.seat)
        state.decisions = found

    def _answers(self, state: State, decision: Decision) -> list[str]:
        return mv.legal(state, decision.seat)

    def answers_now(self, state: State, decision: Decision) -> list[str]:
        """Return the answers ``decision``'s seat may give now: its legal moves (the battle asks)."""
        return mv.legal(state, decision.seat)

    def from_document(self, state: State, board_: State) -> None:
        """A match whose log drew the first player by lot began with ``starts=random`` (the lot replaces it)."""
        if any(e.text.startswith("first player by lot") for e in board_.meta.log):
            state.options = [w for w in state.options if not w.startswith("starts=")] + ["starts=random"]

    def explains(self, entry: LogEntry, decision: Decision) -> bool:
        """Return True if ``entry`` is the attack that asks ``decision`` (the battle's questions)."""
        return entry.text.lower().startswith("attack ")

    # -- reading -------------------------------------------------------------------------------

    def board(self, state: State) -> list[str]:
        """Return the board lines: catalogue, round and phase, piles, owed draws, Towns, the battle."""
        return board.render(state)

    def read_board(self, state: State, lines: list) -> None:
        """Read the board lines back.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        board.parse(state, lines)

    def board_problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``), the questions asked included."""
        from pbd.games.boystown import check

        out = check.problems(state) + _deal_problems(state)
        want = [(d.seat, d.prompt, d.origin) for d in rules.decisions(state)]
        if [(d.seat, d.prompt, d.origin) for d in state.decisions] != want:
            out.append("the 'Waiting on' lines are not the questions the battle asks: "
                       + ("; ".join(f"{s} — {p} · from {o}" for s, p, o in want) or "none"))
        return out

    def check_text(self, text: str) -> list[str]:
        """Return every problem of a document as people left it (derived lines that were edited too).

        :raises DocumentFormatError: the document cannot be read at all.
        """
        from pbd.games.boystown import check

        state = self.parse(text)
        found = check.problems(state)
        return found if found else check.text_problems(state, text)

    def describe_board(self, state: State) -> dict:
        """Return the game's public data: catalogue, round, phase, Towns, piles, the questions asked."""
        shown = state.shown or {}
        data = {"players": [{"name": s, "seat": i + 1, "hand": shown.get("hand", {}).get(s, rules.hand_size(state, s)),
                             "held": rules.hand_size(state, s),
                             "town": [r.name for r in state.seat(s).town] if state.seat(s) else [],
                             "residents": _residents(state, s),
                             "turns": state.seat(s).turns if state.seat(s) else 0}
                            for i, s in enumerate(state.seats)],
                "catalogue": state.catalogue, "first": "random" if state.first_random else state.first,
                "round": state.round, "phase": state.phase,
                "towns": {s.name: [r.name for r in s.town] for s in state.people},
                "turns": {s.name: s.turns for s in state.people},
                "decisions": [{"seat": d.seat, "prompt": d.prompt, "from": d.origin} for d in state.decisions]}
        if state.deck is not None:
            data["draw_pile"] = shown.get("draw", cards.size(state.deck, cards.DRAW))
            data["discard_pile"] = shown.get("discard", cards.size(state.deck, cards.DISCARD))
            data["discard_top"] = shown.get("top", board.discard_top(state)) or None
        if state.phase == "over":
            data["winners"] = score.winners(state)
        return data

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's private view: their cards (with AP, TP and text), and a drawn card set aside."""
        name = self._name(state, secrets.player)
        held = rules.hand(state, name)
        data = {"hand": [_describe(c) if c else "(face down: waiting for the other players' unlocks)"
                         for _, c in held]}
        if state.peeked is not None and state.mover == name:
            c = rules.card_at(state, state.peeked, name)
            data["drawn"] = _describe(c) if c else "(waiting for unlocks)"
        mine = state.private.get(name)
        if mine and state.battle:
            c = rules.card_at(state, int(mine["slot"]), name)
            data["face_down"] = c.name if c else "?"
        return data

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a catalogue; a file is remembered by its hash.

        :raises DeckFormatError: it cannot be read, or it is not a valid catalogue (every problem listed).
        """
        cat = load(deck)
        distinct = len(cat.cards)
        note = "" if GOODCUP in cat.cards else f" (no {GOODCUP})"
        return (f"{deck}: a Boys' Town catalogue, {len(cat.deck())} cards, {distinct} distinct, "
                f"{len(cat.combos)} combos{note}; documents name it {cat.ref}"), []

    def score(self, state: State) -> tuple[list[str], dict]:
        """Return every player's score, the rulebook's four steps line by line."""
        rules.cat(state)
        if not state.people:
            return ["The match has not started: nothing to score."], {"final": False, "scores": [], "winners": []}
        all_ = score.scores(state)
        lines = [line for s in all_ for line in s.lines()]
        head = f"Final score: {state.result}" if state.result else "Score so far (the game goes on)"
        return [head, *lines], {"final": bool(state.result), "scores": [s.data() for s in all_],
                                "winners": score.winners(state) if state.deck is not None else []}

    def svg(self, state: State) -> str:
        """Return the table as an SVG picture (``pbd show --svg FILE``): Towns, hands, piles, whose turn."""
        from pbd.games.boystown.svg import svg

        return svg(state)

    def sample_decks(self) -> list[str]:
        """Return the bundled catalogue (one serves every seat)."""
        return ["standard"]



#: A redraw's entry names the card set aside (``discards NAME and draws again``).
REDRAW_RE = pattern(r"\bdiscards (?P<card>.+?) and draws again")


def _deal_problems(state: State) -> list[str]:
    """Return every number or face-up card of the deck that the revealed seeds do not give (once all revealed)."""
    seeds = revealed_seeds(state)
    return [f"the shared deck: {p}" for p in state.deck.derive(seeds)[1]] if seeds else []


def _residents(state: State, seat: str) -> list[dict]:
    """Return ``seat``'s Town cards with their AP and TP as the board shows them (as the rules give them
    for a replayed state): a hand edit of a figure is named by the hand-edit check."""
    s = state.seat(seat)
    if s is None:
        return []
    shown = (state.shown or {}).get("figures", {}).get(seat)
    figs = shown if shown is not None and len(shown) == len(s.town) else board.figures(state, s)
    return [{"name": r.name, **({"ap": f[0], "tp": f[1]} if f else {})} for r, f in zip(s.town, figs)]


def _describe(c) -> str:
    return f"{c.name} (AP {c.ap}, TP {c.tp})" + (f" — {c.text}" if c.text else "")


GAME = BoysTown()
