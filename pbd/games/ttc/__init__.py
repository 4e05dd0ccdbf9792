"""Twin Tower City: deal from one shared deck, play and score five rounds on a match document.

Modules: :mod:`.catalogue` (TOML catalogues, deck lists), :mod:`.score` (exact, explained
scoring), :mod:`.deal` (the deal, on the shared deck of :mod:`pbd.table`), :mod:`.rules` (turn
order, legal moves), :mod:`.notation`, :mod:`.board` (render/parse).
"""

from __future__ import annotations

import re

from pbd import fairplay
from pbd.errors import (
    DeckError,
    DocumentFormatError,
    IllegalMoveError,
    NotationError,
    PbdError,
    UsageError,
)
from pbd.games.base import Event, LogEntry, Meta, Playable, PlayerMeta, Reveal, Secrets, render_frame
from pbd.games.ttc import board, catalogue, deal, rules
from pbd.games.ttc.catalogue import deck_problems, document_name, install_deck, load_deck
from pbd.games.ttc.state import Options, Play, Round, Seat, State, other
from pbd.regex import pattern
from pbd.table import group
from pbd.table.deck import Gen, Pass, SharedDeck, Slot, Step
from pbd.table.shuffle import ShuffleProof

OPTION_HELP = "face-up, open-hands, no-environments, no-bonuses, team=N, side=light|dark"
NAME_RE = pattern(r"^[^(),:;·|]+$")


def parse_new_options(options: dict, creator: str) -> tuple[Options, str, str]:
    """Return ``(options, creator's side, first side)`` from ``pbd new``'s ``-O`` options and ``--first``.

    :raises UsageError: an unknown option or value.
    """
    opts, side, first, players = Options(), "light", None, None
    for raw_key, value in options.items():
        key = raw_key.strip().lower().replace("_", "-")
        if key in ("face-up", "faceup", "starting-face-up"):
            opts.face_up = True
        elif key in ("open-hands", "open-hand", "open"):
            opts.open_hands = True
        elif key in ("no-environments", "no-environment", "no-env"):
            opts.environments = False
        elif key in ("no-bonuses", "no-bonus"):
            opts.bonuses = opts.environments = False
        elif key in ("team", "team-size", "players-per-side"):
            if not str(value).isdigit() or not 1 <= int(value) <= 4:
                raise UsageError(f"team must be 1 to 4 players a side, not {value!r}")
            opts.team = int(value)
        elif key == "side":
            if str(value).lower() not in ("light", "dark"):
                raise UsageError(f"side must be light or dark, not {value!r}")
            side = str(value).lower()
        elif key == "first":
            first = str(value)
        elif key == "players":
            players = int(value)
        else:
            raise UsageError(f"unknown Twin Tower City option {raw_key!r}", hint=f"options: {OPTION_HELP}")
    if players is not None:
        if "team" not in {k.strip().lower() for k in options} and players % 2 == 0:
            opts.team = players // 2
        if players != 2 * opts.team:
            raise UsageError(f"{players} players cannot make two sides of {opts.team}",
                             hint="Twin Tower City seats two equal sides: --players 2, 4 (-O team=2), 6 or 8")
    if first is None or first.casefold() == creator.casefold():
        first_side = side
    elif first.lower() in ("random", "light", "dark"):
        first_side = first.lower()
    else:
        first_side = other(side)
    return opts, side, first_side


class TwinTowerCity(Playable):
    """Twin Tower City for pbd: the metadata and the match hooks."""

    name = "ttc"
    title = "Twin Tower City"
    aliases = ("twin-tower-city", "twintowercity", "twin tower city")
    join_needs_deck = False
    notation_ends = ("; ", ": ")
    summary = "five rounds of three cards a side, dealt from one shared 80-card deck"
    notation = """\
        flip                                            (turn the round's face-down pair)
        play battle 17                                  (a card by its number in your hand)
        play army 104 replacing Blamtifa Thug with Doctor Sickle
        play warrior 203 replacing Don Triumph
        nullify X22 Missile                             (the item left out, when pbd asks)
        Each card you play ends your turn.
"""
    turn_end = 'each card you play ends your turn (play battle N)'
    players = (2, 8)
    shares_a_deck = True
    parsed_classes = (State, Options, Play, Round, Seat, Meta, PlayerMeta, LogEntry, Event, Reveal,
                      SharedDeck, Slot, Step, Pass, Gen, ShuffleProof, catalogue.Deck, catalogue.Catalogue,
                      catalogue.Warrior, catalogue.Item, catalogue.Environment, catalogue.Bonus, catalogue.Battle, catalogue.Army,
                      catalogue.Levelled)

    # -- documents -------------------------------------------------------------------------

    def sniff(self, text: str) -> bool:
        """Return True for a hand-made board: titled Twin Tower City, or with TTC card lines."""
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        if first.lower().rstrip(".:!") == board.TITLE.lower():
            return True
        if re.search(r"^\s*(light|dark)\b[^:\n]*:\s*(battle|army|warrior)\b", text, re.IGNORECASE | re.MULTILINE):
            return True
        # no title and no card ids: rounds, and a battle card written out ("Dark: dark W + I · light W + I ...")
        return bool(re.search(r"^\s*round\s+\d+\b", text, re.IGNORECASE | re.MULTILINE)) and bool(re.search(
            r"^\s*(light|dark)\b[^:\n]*:\s*dark\b[^\n]*\+[^\n]*\blight\b[^\n]*\+", text,
            re.IGNORECASE | re.MULTILINE))

    def template(self) -> str:
        """Return the blank board (templates/ttc.txt)."""
        from pbd import paths

        path = paths.resource_dir("templates") / "ttc.txt"
        return path.read_text(encoding="utf-8")

    def parse(self, text: str) -> State:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        return board.parse(text, self.name, library)

    def render(self, state: State) -> str:
        """Return the document text of ``state``."""
        header, body = board.render(state)
        if not state.meta.match_id:
            return "\n".join([board.TITLE, *header, "", *body]) + "\n"
        deal_ = _deal_lines(body)
        main = body[:len(body) - len(deal_)]
        while main and not main[-1]:
            main.pop()
        return render_frame(state.meta, self.title, header, main, sealed=deal_, tail=deal_,
                            groups=_log_groups(state.meta.log))

    def styles(self, text: str) -> list[tuple[int, int, str]]:
        """Return headings for rounds and sections, bold for the side totals of the score."""
        spans, offset = [], 0
        for line in text.split("\n"):
            bare = line.strip()
            if re.match(r"^(Round \d+|Score, round \d+|Deal|Open hands)\b", line):
                spans.append((offset, offset + len(line), "heading"))
            elif re.match(r"^  (Light|Dark) \d+", line):
                spans.append((offset + 2, offset + len(line), "bold"))
            elif bare and line.startswith("pbd match"):
                spans.append((offset, offset + len(line), "heading"))
            offset += len(line) + 1
        return spans

    # -- starting ----------------------------------------------------------------------------

    def install(self, path: str) -> str:
        """Install a deck list or catalogue by content hash (``pbd catalogue add``); return its name.

        :raises DeckFormatError: it cannot be read or is not valid.
        """
        return install_deck(path)

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match: the deck locked and shuffled by the creator.

        :raises UsageError: no deck, a bad name or option.
        :raises DeckError: the deck is not an 80-card Twin Tower City deck.
        """
        if not deck:
            raise UsageError("a Twin Tower City match needs the deck: --deck sample (or a deck list / catalogue)")
        _check_name(player)
        opts, side, first = parse_new_options(options, player)
        d = load_deck(deck) if seed is not None else _load(("deck", deck))     # a replay: the deck the document names
        problems = deck_problems(d)
        if problems:
            raise DeckError(f"{deck}: not a legal Twin Tower City deck", problems)
        deck = document_name(deck, d) if seed is not None else deck
        _LIBRARY[("deck", deck)] = d
        meta = Meta(self.name, match_id)
        state = State(meta, deck_name=deck, fingerprint=d.fingerprint(), options=opts, seats=[Seat(player, side)],
                      first=first, library=d)
        state.deck = deal.new_deck(match_id, player, d)
        sec = self._secrets(state, player, seed, d)
        state.deck.settle(player, seed)
        meta.record(player, f"new match ({side.capitalize()}, first: {first.capitalize()}); deck {deck} locked and "
                            "shuffled")
        self.detach(state, sec)
        return state, sec

    def _secrets(self, state: State, player: str, seed: bytes, d) -> Secrets:
        ids = [str(i) for i in d.ids]
        if seed is not None:                # (a replay: the document's record of the seat stands)
            state.meta.fairplay.append(PlayerMeta(player, fairplay.commitment(seed, ids),
                                                  fairplay.chain_value(seed, fairplay.CHAIN_LENGTH)))
        state.seeds[player] = seed
        state.hands[player] = []
        return Secrets(state.meta.match_id, player, self.name, seed, ids)

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``, lock and shuffle the deck again; the last joiner deals.

        :raises IllegalMoveError: the match is full, or the name is taken.
        :raises UsageError: a deck other than the match's.
        """
        _check_name(player)
        if rules.seated(state) or len(state.seats) >= 2 * state.options.team:
            raise IllegalMoveError(f"the match is full ({', '.join(s.name for s in state.seats)})")
        if any(s.name.casefold() == player.casefold() for s in state.seats):
            raise IllegalMoveError(f"{player} is already playing in this match; choose another name")
        d = state.library
        if d.fingerprint() != state.fingerprint:
            raise DocumentFormatError(f"the deck '{state.deck_name}' here differs from the one the match was created "
                                      f"with (fingerprint {d.fingerprint()}, the document says {state.fingerprint})")
        if deck:
            mine = load_deck(deck)
            if mine.fingerprint() != state.fingerprint:
                raise UsageError(f"this match is played with the deck '{state.deck_name}' ({state.fingerprint}); "
                                 f"'{deck}' is a different deck",
                                 hint="Twin Tower City deals both sides from one deck: join without --deck")
        side = _next_side(state)
        if seed is not None:                # (a replay checks the passes once every seed is revealed: the audit)
            self._verify_first_sight(state)
        sec = self._secrets(state, player, seed, d)
        state.meta.record(player, self._sit(state, player, side))
        self.detach(state, sec)
        return state, sec

    def _verify_first_sight(self, state: State) -> None:
        """Check the shuffle passes so far, as a joiner sees the deck for the first time.

        :raises DocumentFormatError: a pass or number that does not verify.
        """
        problems = state.deck.verify(None)
        if problems:
            raise DocumentFormatError("the shared deck does not verify: " + "; ".join(problems[:4]),
                                      hint="the document was altered, or a player's pbd cheated; you did not join")

    def _sit(self, state: State, player: str, side: str) -> str:
        """Seat ``player`` on ``side``: lock and shuffle; the last to sit deals and publishes unlocks. Return the log text."""
        state.seats.append(Seat(player, side))
        state.deck.add_seat(player)
        state.seeds.setdefault(player, None)
        state.deck.settle(player, state.seeds[player])
        text = f"joined ({side.capitalize()}); deck locked and shuffled again"
        if len(state.seats) == 2 * state.options.team:
            deal.lay_out(state)
            duties = deal.deal_duties(state, player) + deal.flip_duties(state, player, 1)
            deal.settle(state, player, duties)
            text += f"; cards dealt, {len(duties)} card{'s' if len(duties) != 1 else ''} unlocked"
        return text

    def seat_from_document(self, board: State, entry) -> tuple:
        """Return the match's deck (its first entry) and the ``-O`` options the document shows, with the creator's
        side and who plays first as the first entry names them, for a replay of :meth:`create` / :meth:`join`."""
        options = dict(word.partition("=")[::2] for word in board.options.words())
        m = re.match(r"new match \((Light|Dark), first: (Light|Dark|Random)\)", entry.text)
        if not m:
            return None, options
        return board.deck_name, options | {"side": m.group(1).lower(), "first": m.group(2).lower()}

    # -- private state -----------------------------------------------------------------------

    def attach(self, state: State, secrets: Secrets) -> None:
        """Check the shared deck against the player's private record of it, then read their hand.

        :raises DocumentFormatError: the deck does not verify (numbers swapped or replaced, a
            wrong unlock, a forged proof), a number unlocks to no card, or the board shows a
            play the deck does not.
        """
        name = _name(state, secrets.player)
        state.seeds[name] = secrets.seed
        if state.deck is None:
            state.hands[name] = []
            return
        _verify(state, name, secrets)
        state.deck.learn(name, secrets.seed, secrets.extra.setdefault("cards", {}))
        problems = deal.played_problems(state)
        if problems:
            raise DocumentFormatError(problems[0])
        state.hands[name] = deal.hand_of(state, name)

    def seat_reads(self, state: State, seat: str) -> None:
        """Hold ``seat``'s hand as its pbd reads it without its seed (a replay, from any board: see :meth:`attach`)."""
        if any(s.name == seat for s in state.seats):
            state.seeds.setdefault(seat, None)
            state.hands.setdefault(seat, [])

    def detach(self, state: State, secrets: Secrets) -> None:
        """Copy the player's hand and the deck as now written (their record of it) into their private state."""
        name = _name(state, secrets.player)
        secrets.hand = [str(c) for c in state.hands.get(name, [])]
        if state.deck is not None:
            now = state.deck.render()
            record = secrets.extra.get("table") or {}
            secrets.extra["table"] = {"after": now, "before": getattr(state, "_seen", None) or record.get("after") or now}

    def pending(self, state: State, player: str) -> bool:
        """Return True if ``player``'s pbd owes unlocks of the deal (written by its next command)."""
        return rules.seated(state) and bool(deal.deal_duties(state, player))

    def settle(self, state: State, player: str, chance=None) -> list[str]:
        """Publish the unlocks ``player`` owes for the other players' hands; return the summary."""
        duties = deal.deal_duties(state, player) if rules.seated(state) else []
        if state.deck is not None and player in state.seeds:
            state.deck.begin(player)
        if not duties or player not in state.seeds:
            return []
        deal.settle(state, player, duties)
        text = f"unlocked {len(duties)} card{'s' if len(duties) != 1 else ''} of the deal"
        state.meta.record(player, text)
        return [text]

    # -- moves -------------------------------------------------------------------------------

    def play(self, state: State, player: str, text: str, chance=None) -> list[str]:
        """Parse and apply ``text`` (moves joined by ';') for ``player``, all or nothing.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule.
        """
        from pbd.games.ttc import notation   # here, not at the top: check, score and show read no moves

        moves = notation.split(text)
        if not moves:
            raise NotationError("no move given", hint=f"moves look like: {notation.EXAMPLES}")
        parsed = [notation.parse(m) for m in moves]
        lines = [] if parsed[0].verb == "flip" else self.settle(state, player, chance)
        if state.deck is not None and player in state.seeds:
            state.deck.begin(player)
        for move in parsed:
            out = rules.apply(state, player, move)
            state.meta.record(player, "; ".join(out))
            lines += out
        if state.deck is not None:
            state.deck.prune()
            for name, seed in state.seeds.items():
                if seed is not None:
                    state.deck.learn(name, seed)
                    state.hands[name] = deal.hand_of(state, name)
        return lines

    def sealed_lines(self, state: State) -> list[str]:
        """Return the Deal section's lines: the log's seal covers them (see :meth:`Playable.sealed_lines`)."""
        return _deal_lines(board.render(state)[1])

    def committed_problems(self, state: State, name: str, committed: list[str]) -> list[str]:
        """Return a problem if a revealed list is not the card ids of the match's deck, in deck order."""
        ids = [str(i) for i in library(state).ids]
        return [] if committed == ids else [f"the revealed list is not the deck {state.deck_name} ({state.fingerprint}) "
                                            "the match is played with"]

    def informative(self, entry) -> bool:
        """Return True for a log entry that published unlocks (cards became visible): no take-back."""
        return "unlock" in entry.text or super().informative(entry)

    def outcome(self, state: State) -> str | None:
        """Return the result of a finished match (one a seat left: :mod:`pbd.forfeit`), or None while it goes on."""
        from pbd import forfeit

        left = forfeit.result(self, state)
        if left:
            return left
        try:
            return rules.result_line(state) if rules.phase(state).name == "over" and state.seats else None
        except PbdError:
            return None

    def actors(self, state: State) -> list[str]:
        """Return the players who may move now (every player who owes a flip; the side to play)."""
        from pbd import forfeit

        ph = rules.phase(state)
        if ph.name in ("joining", "over") or forfeit.ended(state.meta):
            return []
        owing = [s.name for s in state.seats if deal.deal_duties(state, s.name)]
        if owing:
            return owing
        if ph.name == "flip":
            return [s.name for s in state.seats if deal.flip_duties(state, s.name, ph.round.number)]
        sides = ph.nullify if ph.name == "nullify" else (ph.side,)
        return [s.name for s in state.seats if s.side in sides]

    def sample_decks(self) -> list[str]:
        """Return the bundled deck (one deck serves both sides)."""
        return ["sample"]

    def legal(self, state: State, player: str) -> list[str]:
        """Return every move legal now for ``player``, in notation."""
        return rules.legal(state, player)

    def card_names(self) -> list[str]:
        """Return the warriors, items and environments of the bundled deck (for shell completion).

        :raises DeckFormatError: the bundled deck cannot be read.
        """
        cat = load_deck("sample").catalogue
        return sorted({*cat.warriors, *cat.items, *cat.environments})

    def card_line(self, state: State, card: str, player: str) -> str:
        """Return a hand card with the Power of its warriors and items, the player's half first (``pbd hand``)."""
        from pbd.games.ttc.present import card_line

        return card_line(state, card, _name(state, player))

    def svg(self, state: State) -> str:
        """Return the rounds and score as an SVG picture (``pbd show --svg FILE``)."""
        from pbd.games.ttc.svg import svg

        return svg(state)

    def legal_text(self, state: State, player: str, moves: list[str]) -> list[str]:
        """Return the legal moves one line per card, with the Power each brings (``pbd legal``'s text view)."""
        from pbd.games.ttc.present import legal_text

        return legal_text(state, _name(state, player), moves)

    def problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``)."""
        out = []
        seen: dict[tuple[str, int], int] = {}
        unfinished = None
        for rnd in state.rounds:
            if len(rnd.plays) > 2 and unfinished is not None:
                out.append(f"round {rnd.number} has cards while round {unfinished} is not finished")
            per_side = {"light": [], "dark": []}
            for p in rnd.plays:
                per_side[p.side].append(p)
                if p.card is not None:
                    key = ("battle" if p.kind == "battle" else "special", p.card)
                    if key in seen:
                        out.append(f"{p.kind} {p.card} is played twice (round {seen[key]} and round {rnd.number})")
                    seen[key] = rnd.number
            limit = 1 + 2 * state.options.team if not state.seats else 3
            for side, plays in per_side.items():
                if len(plays) > limit:
                    out.append(f"round {rnd.number}: {side.capitalize()} has {len(plays)} cards; a side plays "
                               f"{limit} a round")
                for i, p in enumerate(plays, 1):
                    if p.kind != "battle" and i < 3:
                        out.append(f"round {rnd.number}: {p.kind} {p.card or ''} is {side.capitalize()}'s card {i}; "
                                   "Army and Warrior Cards can only be the third card".replace("  ", " "))
            try:
                rules.round_score(state, rnd)
                finished = rules.done(state, rnd)
            except PbdError as exc:
                out.append(f"round {rnd.number}: {exc.message}")
                finished = False
            if rnd.plays and not finished and unfinished is None or not rnd.plays and unfinished is None:
                unfinished = rnd.number
        if state.meta.match_id and state.seats:
            try:
                out += deal.played_problems(state) if state.deck is not None else []
                out += deal.audit(state)
            except PbdError as exc:
                out.append(f"the deal cannot be audited: {exc.message}")
        return out

    def describe(self, state: State) -> dict:
        """Return the public state as JSON-able data."""
        rounds = []
        for rnd in state.rounds:
            entry = {"round": rnd.number, "cards": board.play_lines(rnd.plays, rules.catalogue(state)),
                     "nullified": rnd.nullified, "finished": False}
            if rnd.plays:
                try:
                    s = rules.round_score(state, rnd)
                    entry |= {"score": s.data(), "finished": rules.done(state, rnd)}
                    if entry["finished"]:
                        entry["winner"] = s.leader()
                except PbdError as exc:
                    entry["error"] = exc.message
            rounds.append(entry)
        data = {"game": self.name, "match": state.meta.match_id,
                "players": [{"name": s.name, "side": s.side} for s in state.seats],
                "options": state.options.words(), "first": state.first, "turn": board.turn_line(state),
                "rounds": rounds}
        try:
            data |= {"rounds_won": rules.rounds_won(state), "winner": rules.winner(state)}
        except PbdError as exc:
            data["error"] = exc.message
        if rules.seated(state):
            data["hands"] = {s.name: board.hand_counts(state, s.name) for s in state.seats}
            if state.options.open_hands:
                data["open_hands"] = {s.name: board.open_hand(state, s.name) for s in state.seats}
        return data

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's private view: their cards, described."""
        name = next((s.name for s in state.seats if s.name.casefold() == secrets.player.casefold()), secrets.player)
        cat = rules.catalogue(state)
        cards = sorted(state.hands.get(name, []), key=lambda c: (cat.cards[c].kind != "battle", c))
        data = {"hand": [cat.describe(cat.cards[c]) for c in cards]}
        kinds = [cat.cards[c].kind for c in cards]
        data["holding"] = f"{kinds.count('battle')} Battle, {kinds.count('army')} Army, {kinds.count('warrior')} Warrior"
        try:
            data["side"] = rules.side_of(state, name)
        except PbdError:
            pass
        if rules.seated(state) and not cards:
            others = [s.name for s in state.seats if s.name != name]
            data["note"] = f"your cards unlock once {', '.join(others)} published their unlocks (their next command)"
        return data

    def forfeit_winners(self, state: State, leavers: list[str]) -> list[str]:
        """Return the seats of the other side: a side whose player resigns or forfeits loses the match."""
        sides = {s.side for s in state.seats if s.name in leavers}
        return [s.name for s in state.seats if s.side not in sides]

    def forfeit(self, state: State, result: str) -> None:
        """Nothing to set: the match's result is read from the log (:meth:`outcome`)."""

    def player_names(self, state: State) -> list[str]:
        """Return the seated players in seat order."""
        return [s.name for s in state.seats]

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a deck list, bundled deck or catalogue.

        :raises DeckFormatError: the file cannot be read.
        """
        d = load_deck(deck)
        problems = deck_problems(d)
        counts = ", ".join(f"{len(d.pile(k, s))} {(s or '').capitalize()} {k.capitalize()}".replace("  ", " ")
                           for k, s in (("battle", None), ("army", "dark"), ("warrior", "dark"),
                                        ("army", "light"), ("warrior", "light")))
        return f"{deck}: a legal Twin Tower City deck ({len(d.ids)} cards: {counts}).", problems

    def status(self, state: State) -> list[str]:
        """Return where the match stands."""
        return [f"Turn: {board.turn_line(state)}", f"Rounds won: {board._won(state)}"]

    def score(self, state: State) -> tuple[list[str], dict]:
        """Return the breakdown of the current round (the last played one when the match is over).

        :raises IllegalMoveError: the cards on the board cannot be scored (a bad swap).
        """
        rnd = board.scored_round(state)
        if rnd is None:
            return ["No cards on the board yet: nothing to score."], {"round": None}
        s = rules.round_score(state, rnd)
        finished = rules.done(state, rnd)
        head = f"Round {rnd.number}" + ("" if finished else " (so far)")
        lead = s.leader()
        verdict = (f"{lead.capitalize()} leads" if not finished else f"{lead.capitalize()} wins the round") if lead \
            else "level"
        lines = [head, *s.lines(), f"{verdict}: Light {s.light.total}, Dark {s.dark.total}",
                 f"Rounds won: {board._won(state)}"]
        return lines, {"round": rnd.number, "finished": finished, "score": s.data(),
                       "rounds_won": rules.rounds_won(state)}


def _next_side(state: State) -> str:
    """Return the side the next player joins: the side with fewer players (ties: the creator's)."""
    counts = {side: len(deal.members(state, side)) for side in ("light", "dark")}
    if counts["light"] != counts["dark"]:
        return "light" if counts["light"] < counts["dark"] else "dark"
    return state.seats[0].side


def _check_name(name: str) -> None:
    if not name.strip() or not NAME_RE.match(name):
        raise UsageError(f"{name!r} cannot be a player name here (no commas, brackets, colons or '·')")


def _name(state: State, player: str) -> str:
    return next((s.name for s in state.seats if s.name.casefold() == player.casefold()), player)


def _verify(state: State, name: str, secrets: Secrets) -> None:
    """Check the deck against the player's private record (as last written, or as seen before that write).

    The second record lets ``pbd undo`` restore the deck as it was before the player's own
    last move; anything else must be reached from a record by proven steps.

    :raises DocumentFormatError: naming the first problems found.
    """
    deck = state.deck
    record = secrets.extra.get("table") or {}
    mine = {name: {g.number: group.public_key(deck.key(secrets.seed, g.number)) for g in deck.gens
                   if any(p.seat == name for p in g.passes)}}
    problems = None
    for lines in dict.fromkeys(tuple(record.get(k) or ()) for k in ("after", "before")):
        previous = SharedDeck.parse(list(lines)) if lines else None
        found = deck.verify(previous, mine, seat=name)
        if problems is None or not found:
            problems = found
        if not found:
            break
    if problems:
        raise DocumentFormatError("the shared deck does not verify: " + "; ".join(problems[:4]),
                                  hint="the document was altered, or a player's pbd cheated; nothing was unlocked")
    state._seen = deck.render()


_LIBRARY: dict[tuple[str, str], object] = {}


def library(state: State):
    """Return the deck (a match) or catalogue (a hand-made board) ``state`` names, loaded once per process.

    The one place Twin Tower City reads files: the rules get it in ``state.library``.

    :raises DeckFormatError: it cannot be read.
    """
    return _load(("catalogue", state.catalogue) if state.catalogue else ("deck", state.deck_name))


def _load(key: tuple[str, str]):
    """Return the deck or catalogue a document names (``key``: its kind and name), loaded once per process.

    :raises DeckFormatError: it cannot be read.
    """
    from pbd.games.ttc.catalogue import load_catalogue

    if key not in _LIBRARY:
        _LIBRARY[key] = (load_catalogue(key[1], from_document=True) if key[0] == "catalogue"
                         else load_deck(key[1], from_document=True))
    return _LIBRARY[key]


GAME = TwinTowerCity()


def _log_groups(log) -> dict[int, str]:
    """Return the headings that group the log by round: "Setup", then "Round N" at the flip that turns it up."""
    out = {1: "Setup"} if log else {}
    for e in log:
        if "face up" in e.text and (m := re.search(r"\bround (\d+) face up\b", e.text)):   # (compiled when needed)
            out[e.number] = f"Round {m.group(1)}"
    return out


def _deal_lines(body: list[str]) -> list[str]:
    """Return the Deal section of a rendered body (from its heading to the end)."""
    return body[body.index("Deal"):] if "Deal" in body else []
