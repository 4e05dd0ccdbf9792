"""Boys' Town for 2 to 6 players: Towns, builds and battles on one shared face-down deck.

Modules: :mod:`.catalogue` (TOML card catalogues: effects as data), :mod:`.cards` (the one
adapter to pbd.table's shared deck and secret choice), :mod:`.rules` (turns, draw and build
phases), :mod:`.battle` (attacks, flips, resolution), :mod:`.effects` (what effects add up
to), :mod:`.score` (the rulebook's four steps), :mod:`.moves`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations

import re

from pbd import fairplay
from pbd.errors import DocumentFormatError, IllegalMoveError, PbdError, UsageError
from pbd.games.base import Chance, Meta, Playable, PlayerMeta, Secrets, render_frame
from pbd.games.boystown import battle, board, cards, moves, notation, rules, score
from pbd.games.boystown.catalogue import GOODCUP, load
from pbd.games.boystown.state import Seat, State

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_'-]{0,23}$")


class BoysTown(Playable):
    """Boys' Town for pbd: the metadata and the match hooks."""

    name = "boystown"
    title = "Boys' Town"
    aliases = ("boys-town", "boys town", "boys' town")
    summary = "build a Town, battle from hand or Town; 2-6 players on one shared deck"
    players = (2, 6)
    join_needs_deck = False

    # -- documents -------------------------------------------------------------------------

    def sniff(self, text: str) -> bool:
        """Return True for a hand-made board titled Boys' Town."""
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        return first.lower() == board.TITLE.lower()

    def template(self) -> str:
        """Return the blank board (templates/boystown.txt)."""
        from pbd import paths

        return (paths.resource_dir("templates") / "boystown.txt").read_text(encoding="utf-8")

    def parse(self, text: str) -> State:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        return board.parse(text, self.name)

    def render(self, state: State) -> str:
        """Return the document text of ``state``."""
        header, body = board.render(state)
        if not state.meta.match_id:
            return "\n".join([board.TITLE, *header, "", *body]) + "\n"
        return render_frame(state.meta, self.title, header, body)

    # -- seats -----------------------------------------------------------------------------

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` of a new match; ``deck`` names the catalogue (default: standard).

        :raises UsageError: a bad name or option.
        :raises DeckFormatError: the catalogue cannot be read (every problem listed).
        """
        _check_name(player)
        unknown = set(options) - {"first", "players"}
        if unknown:
            raise UsageError(f"Boys' Town has no option {', '.join(sorted(unknown))}",
                             hint="options: --players N, --first NAME|random")
        cat = load(deck or "standard")
        state = State(Meta(self.name, match_id), catalogue=cat.ref, players=int(options.get("players", 2)))
        state.first = str(options.get("first", "") or "")
        if state.first.casefold() in (player.casefold(), "me"):
            state.first = player
        sec = self._seat(state, player, seed)
        state.meta.record(player, f"new match for {state.players} players · catalogue {cat.ref}")
        return state, sec

    def _seat(self, state: State, player: str, seed: bytes) -> Secrets:
        committed = [f"catalogue {state.catalogue}"]
        state.meta.fairplay.append(PlayerMeta(player, fairplay.commitment(seed, committed),
                                              fairplay.chain_value(seed, fairplay.CHAIN_LENGTH)))
        state.seats.append(Seat(player))
        return Secrets(state.meta.match_id, player, self.name, seed, committed)

    def join(self, state: State, player: str, deck: str | None, seed: bytes):
        """Seat ``player``; the last seat starts the game (shuffle, then deal 4 each).

        :raises IllegalMoveError: the match is full, or the name is taken.
        :raises UsageError: a catalogue other than the match's.
        """
        _check_name(player)
        if state.phase != "joining" or len(state.seats) >= state.players:
            raise IllegalMoveError(f"the match is full ({', '.join(state.names())})")
        if state.seat(player):
            raise IllegalMoveError(f"{player} is already playing in this match; choose another name")
        cat = load(deck) if deck else rules.cat(state)
        if cat.digest not in state.catalogue:
            raise UsageError(f"this match is played with the catalogue {state.catalogue}; {deck!r} is {cat.digest}")
        sec = self._seat(state, player, seed)
        lines = [f"joined (seat {len(state.seats)} of {state.players})"]
        if len(state.seats) == state.players:
            lines += self._first(state, player, sec)
            lines += rules.start(state)
        state.meta.record(player, "; ".join(lines))
        return state, sec

    def _first(self, state: State, player: str, sec: Secrets) -> list[str]:
        """Settle who plays first: ``--first NAME``, ``random`` (a fair roll), or the creator."""
        choice = state.first
        if choice.casefold() == "random":
            face = Chance(state.meta, {player: sec}).roll(player, len(state.seats))
            state.first = state.seats[face - 1].name
            return [f"a fair roll chose {state.first} to play first"]
        if choice and not state.seat(choice):
            raise IllegalMoveError(f"this match was set up for {choice} to play first; join as {choice}")
        state.first = state.seat(choice).name if choice else state.seats[0].name
        return []

    # -- private state -----------------------------------------------------------------------

    def attach(self, state: State, secrets: Secrets) -> None:
        """Bring the player's private choice (a face-down battle card) into ``state``."""
        name = self._name(state, secrets.player)
        if secrets.extra.get("battle"):
            state.private[name] = dict(secrets.extra["battle"])
        cards.hold(state.deck, name, secrets.seed)

    def detach(self, state: State, secrets: Secrets) -> None:
        """Copy the player's private choice back into their private state."""
        name = self._name(state, secrets.player)
        if state.private.get(name):
            secrets.extra["battle"] = dict(state.private[name])
        else:
            secrets.extra.pop("battle", None)
        secrets.hand = [c.name if c else "?" for _, c in rules.hand(state, name)] if state.deck else []

    def _name(self, state: State, player: str) -> str:
        seat = state.seat(player)
        return seat.name if seat else player

    # -- moves -------------------------------------------------------------------------------

    def play(self, state: State, player: str, text: str, chance: Chance) -> list[str]:
        """Parse and apply ``text`` (moves joined by ';') for ``player``, all or nothing.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule.
        """
        parsed = [notation.parse(m) for m in notation.split(text)]
        if not parsed:
            raise UsageError("no move given", hint="moves look like: " + " · ".join(notation.EXAMPLES))
        self._held(state, chance)
        out = self.settle(state, player, chance)
        for i, move in enumerate(parsed, 1):
            if move.kind == "flip" and out and not (state.battle and state.battle.stage == "reveal"):
                continue          # the flip was owed and settled first
            try:
                public, private = moves.apply(state, player, move)
            except PbdError as exc:
                if len(parsed) > 1:
                    exc.message = f"move {i} of {len(parsed)}: {exc.message}"
                    exc.args = (exc.message,)
                raise
            public = "; ".join([public, *rules.advance(state)])
            state.meta.record(player, public)
            out.append(public + (f" {private}" if private else ""))
        return out

    def _held(self, state: State, chance) -> None:
        for sec in getattr(chance, "secrets", {}).values():
            if sec.match_id == state.meta.match_id and state.seat(sec.player) and sec.player not in state.private:
                self.attach(state, sec)

    def pending(self, state: State, player: str) -> bool:
        """Return True if ``player``'s pbd owes a step only it can take (a flip, table work)."""
        b = state.battle
        return bool(b and b.stage == "reveal" and b.attacker == player) or player in cards.waiting_on(state.deck)

    def settle(self, state: State, player: str, chance=None) -> list[str]:
        """Take the steps ``player`` owes: the table's work, the flip of a face-down card; log them."""
        if chance is not None:
            self._held(state, chance)
        lines = []
        if state.deck is not None and player in cards.waiting_on(state.deck):
            sec = (getattr(chance, "secrets", {}) or {}).get(player.casefold())
            lines += cards.settle(state.deck, player, sec.seed if sec else b"")
        flip = battle.do_flip(state, player)
        if flip:
            lines.append(flip)
        if lines or (state.deck is not None and state.phase == "shuffling"):
            lines += rules.advance(state)
        if lines:
            text = "; ".join(lines)
            state.meta.record(player, text)
            return [text]
        return []

    def legal(self, state: State, player: str) -> list[str]:
        """Return every move legal now for ``player``, in notation."""
        return moves.legal(state, self._name(state, player))

    def actors(self, state: State) -> list[str]:
        """Return the players who must act now (deciders first, then the turn, then table duties)."""
        return rules.actors(state)

    def outcome(self, state: State) -> str | None:
        """Return the result of a finished game, or None while it goes on."""
        return state.result or None

    def informative(self, entry) -> bool:
        """Return True for an entry that showed a card or drew: it cannot be taken back."""
        words = ("draws", "flips", "builds", "defends", "discard", "dealt", "keeps", "uses", "swaps", "attacks")
        return any(w in entry.text for w in words) or super().informative(entry)

    # -- reading -------------------------------------------------------------------------------

    def problems(self, state: State) -> list[str]:
        """Return every rule the board breaks (for ``pbd check``)."""
        from pbd.games.boystown import check

        return check.problems(state)

    def check_text(self, text: str) -> list[str]:
        """Return every problem of a document as people left it (derived lines that were edited too).

        :raises DocumentFormatError: the document cannot be read at all.
        """
        from pbd.games.boystown import check

        state = self.parse(text)
        found = check.problems(state)
        return found if found else check.text_problems(state, text)

    def describe(self, state: State) -> dict:
        """Return the public state as JSON-able data (game, players, to_move, result, Towns, piles)."""
        data = {"game": self.name, "match": state.meta.match_id, "catalogue": state.catalogue,
                "players": [{"name": s.name, "hand": rules.hand_size(state, s.name), "turns": s.turns,
                             "town": [r.name for r in s.town]} for s in state.seats],
                "seats": state.players, "first": state.first, "round": state.round, "turn": state.turn or None,
                "phase": state.phase, "to_move": rules.actors(state), "result": state.result or None,
                "waiting": [{"seat": d.seat, "prompt": d.prompt, "origin": d.origin} for d in rules.decisions(state)]}
        if state.deck is not None:
            data["draw_pile"] = cards.size(state.deck, cards.DRAW)
            data["discard_pile"] = cards.size(state.deck, cards.DISCARD)
        if state.phase == "over":
            data["winners"] = score.winners(state)
        return data

    def hand(self, state: State, secrets: Secrets) -> dict:
        """Return the player's private view: their cards (with AP, TP and text), and a drawn card set aside."""
        name = self._name(state, secrets.player)
        held = rules.hand(state, name)
        data = {"hand": [_describe(c) if c else "(face down: waiting for the other players' unlocks)"
                         for _, c in held]}
        if state.peeked is not None and state.turn == name:
            c = rules.card_at(state, state.peeked, name)
            data["drawn"] = _describe(c) if c else "(waiting for unlocks)"
        mine = state.private.get(name)
        if mine and state.battle:
            c = rules.card_at(state, int(mine["slot"]), name)
            data["face_down"] = c.name if c else "?"
        return data

    def player_names(self, state: State) -> list[str]:
        """Return the seated players in seat order."""
        return state.names()

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a catalogue; a file is remembered by its hash.

        :raises DeckFormatError: it cannot be read, or it is not a valid catalogue (every problem listed).
        """
        cat = load(deck)
        distinct = len(cat.cards)
        note = "" if GOODCUP in cat.cards else f" (no {GOODCUP})"
        return (f"{deck}: a Boys' Town catalogue, {len(cat.deck())} cards, {distinct} distinct, "
                f"{len(cat.combos)} combos{note}; documents name it {cat.ref}"), []

    def status(self, state: State) -> list[str]:
        """Return where the game stands."""
        return [rules.whose_move(state)]

    def score(self, state: State) -> tuple[list[str], dict]:
        """Return every player's score, the rulebook's four steps line by line."""
        if not state.seats:
            return ["No players yet: nothing to score."], {"scores": []}
        all_ = score.scores(state)
        lines = [line for s in all_ for line in s.lines()]
        head = f"Final score: {state.result}" if state.result else "Score so far (the game goes on)"
        return [head, *lines], {"final": bool(state.result), "scores": [s.data() for s in all_],
                                "winners": score.winners(state) if state.deck is not None else []}

    def sample_decks(self) -> list[str]:
        """Return the bundled catalogue (one serves every seat)."""
        return ["standard"]


def _describe(c) -> str:
    return f"{c.name} (AP {c.ap}, TP {c.tp})" + (f" — {c.text}" if c.text else "")


def _check_name(name: str) -> None:
    if not NAME_RE.match(name or ""):
        raise UsageError(f"{name!r} cannot be a Boys' Town player name (a letter, then letters, digits, _ ' -)")


GAME = BoysTown()
