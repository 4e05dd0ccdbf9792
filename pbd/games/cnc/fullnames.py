"""A C&C move rewritten in full card names, so the log reads "play Spider-Man", not "play spider".

:func:`full_names` resolves each name of a move the way the rules will — the card in your
hand, your character, the opposing character, an attack or ability of the acting character,
the card a discard takes — and writes the full name in place of what was typed, keeping the
rest of the text (the verb, "from hand", "then ...") as the player wrote it.  A name it cannot
resolve the way the rules do is left as typed: the rules then say what is wrong with it.
"""

from __future__ import annotations


from pbd.errors import PbdError
from pbd.games.cnc.cards import Catalogue, fold, match_name
from pbd.games.cnc.notation import Move, form_of, parse_move
from pbd.games.cnc.state import HIDDEN, Side, State, find_key, keys_of

#: the errors of a name that does not resolve (left as typed)
_UNRESOLVED = (PbdError, KeyError, ValueError, StopIteration, TypeError)


def full_names(state: State, player: str, move: Move, cat: Catalogue, rules) -> Move:
    """Return ``move`` with its names written in full, or ``move`` itself where nothing changes or is sure.

    ``rules`` is the rules module (loaded lazily by the game).  The rules ask for a move with
    a name they resolved to another text than typed (see ``rules._in_full``), and the game
    for a move refused among several before its names were resolved: a move typed in full
    names, the common case, does not come here.
    """
    if len(state.sides) != 2:
        return move
    me, opp = _seats(state, player)
    changes = _Names(cat, rules, me, opp, state).changes(move)
    if not changes:
        return move
    try:
        full = parse_move(_rewrite(move.source, changes))
    except PbdError:
        return move
    same = full == move.replace(**changes, source=full.source)
    return full if same and (move.kind != "play" or full.card in me.hand) else move


def _is_first(name: str, names: list[str]) -> bool:
    """Return True if ``name`` is one of ``names`` and the first that folds like it (what a match returns)."""
    return name in names and _first_of_its_kind(name, names)


def _seats(state: State, player: str) -> tuple[Side, Side]:
    """Return ``(player's side, the opponent's)`` of a two-seat state, found as :meth:`State.side` finds it.

    :raises KeyError: no seat has that name.
    """
    first, second = state.sides
    if first.name == player:                # the usual case: the name as seated
        return first, second
    if second.name == player and first.name.casefold() != player.casefold():
        return second, first
    folded = player.casefold()
    if first.name.casefold() == folded:
        return first, second
    if second.name.casefold() == folded:
        return second, first
    raise KeyError(player)


class _Picks:
    """What a name resolves to among a list of names, remembered for one catalogue.

    A fast path: every move is rewritten before the rules see it, and a match's moves
    resolve the same few names against the same few boards again and again.  The answer
    depends only on the catalogue, the text and the names (``rules._pick`` and
    ``match_name`` are pure), so it is kept until another catalogue is used; a name that
    does not resolve is remembered as ``None``.
    """

    LIMIT = 4096

    def __init__(self):
        self.cat: Catalogue | None = None
        self.known: dict[tuple, str | None] = {}

    def one(self, rules, cat: Catalogue, text: str, names: list[str], aliases: bool) -> str:
        """Return the one of ``names`` that ``text`` means (a card's alias too when ``aliases``).

        :raises ValueError: it means none, or several.
        """
        if _is_first(text, names):
            return text                     # written as one of the names: what any match returns
        if cat is not self.cat or len(self.known) > self.LIMIT:
            self.cat, self.known = cat, {}
        key = (text, *names, aliases)
        found = self.known.get(key, False)
        if found is False:
            try:
                found = rules._pick(cat, text, names, "card") if aliases else match_name(text, names)
            except _UNRESOLVED:
                found = None
            self.known[key] = found
        if found is None:
            raise ValueError(text)
        return found


_PICKS = _Picks()


def _first_of_its_kind(name: str, names: list[str]) -> bool:
    """Return True if no name before ``name`` in ``names`` folds to the same text (``match_name`` takes the first)."""
    if names[0] == name:
        return True
    key = fold(name)
    for other in names:
        if other == name:
            return True
        if fold(other) == key:
            return False
    return True


def _rewrite(text: str, changes: dict[str, str]) -> str:
    """Return ``text`` with the parts of the move form named in ``changes`` replaced, right to left."""
    m = form_of(text)
    if m is None:
        return text
    spans = sorted(((m.span(f), new) for f, new in changes.items() if m.groupdict().get(f)), reverse=True)
    for (start, end), new in spans:
        text = text[:start] + new + text[end:]
    return text


class _Names:
    """Resolve the names of one move against a position (each resolver raises where the rules would)."""

    def __init__(self, cat: Catalogue, rules, me: Side, opp: Side, state: State):
        self.cat, self.rules, self.me, self.opp, self.state = cat, rules, me, opp, state
        self._acting: tuple | None = None       # (typed, card) of the acting character (see _card_of)

    @property
    def owed(self) -> bool:
        """Return True if the player owes a discard from hand (an unplaced discard then takes from the hand)."""
        return any(p.player == self.me.name and p.kind == "discard" for p in self.state.pending)

    def changes(self, move: Move) -> dict[str, str]:
        """Return ``{field: full name}`` for the fields of ``move`` that resolve to another text than typed."""
        out: dict[str, str] = {}
        resolvers = getattr(self, f"_{move.kind}", None)
        for field_, resolve in resolvers(move) if resolvers else ():
            typed = getattr(move, field_)
            if not typed:
                continue
            try:
                full = resolve(typed)
            except _UNRESOLVED:
                continue
            if full and full != typed:
                out[field_] = full
        return out

    # each resolver lists ``(field, resolve)``: ``resolve(typed)`` returns the full name or raises as the rules would

    def _play(self, move: Move) -> list:
        if HIDDEN in self.me.hand:
            return []
        try:
            name = self._hand_card(move.card)
        except _UNRESOLVED:
            return []                       # the card stays as typed
        out = [("card", lambda t: name)]
        try:
            card = self.cat.get(name)
        except _UNRESOLVED:
            return out
        if card.kind == "event":
            out.append(("target", lambda t: self._target(card.target, t)))
        return out

    def _attack(self, move: Move) -> list:
        out = [("card", self._actor)]
        if not self.rules._is_cp_word(move.target, self.opp.name):
            out.append(("target", lambda t: self._pick(t, keys_of(self.opp.characters))))
        out.append(("detail", lambda t: self._match(t, [a.name for a in self._card_of(move.card).attacks])))
        return out

    def _use(self, move: Move) -> list:
        return [("card", self._actor), ("detail", lambda t: self._ability(move.card, t).name),
                ("target", lambda t: self._target(self._ability(move.card, move.detail).target, t))]

    def _withdraw(self, move: Move) -> list:
        return [("card", self._actor)]

    def _discard(self, move: Move) -> list:
        place = move.detail or self._place(move.card)
        if place == "hand":
            return [("card", lambda t: self._hand_name(t, move.detail))]
        if place == "field":
            return [("card", lambda t: self._field_name(t, move.detail))]
        return []

    # -- helpers -------------------------------------------------------------------------

    def _actor(self, text: str) -> str:
        """Return the key of the character of yours ``text`` names."""
        return self._pick(text, keys_of(self.me.characters))

    def _hand_card(self, text: str) -> str:
        """Return the name of the card ``text`` plays (a catalogue name, else one in your hand)."""
        return self.cat.get(text).name if text in self.cat else self._match(text, self.me.hand)

    def _pick(self, text: str, names: list[str]) -> str:
        """Return the one of ``names`` ``text`` means, as the rules pick it (a card's alias works too)."""
        return _PICKS.one(self.rules, self.cat, text, names, True)

    def _match(self, text: str, names: list[str]) -> str:
        """Return the one of ``names`` ``text`` means (:func:`match_name`)."""
        return _PICKS.one(self.rules, self.cat, text, names, False)

    def _card_of(self, typed: str):
        """Return the catalogue card of the acting character ``typed`` names (looked up once per move)."""
        if self._acting is None or self._acting[0] != typed:
            chars = self.me.characters
            self._acting = (typed, self.cat.get(chars[find_key(chars, self._actor(typed))].name))
        return self._acting[1]

    def _ability(self, typed_actor: str, typed: str):
        abilities = self._card_of(typed_actor).abilities
        wanted = self._match(typed, [a.name for a in abilities])
        return next(a for a in abilities if a.name == wanted)

    def _target(self, spec: str, text: str) -> str:
        """Return the full name of a target of kind ``spec`` (a CP word stays as typed).

        :raises KeyError: no such kind of target.
        """
        names = self._targets(spec, text)
        return text if names is None else self._pick(text, names)

    def _targets(self, spec: str, text: str) -> list[str] | None:
        """Return the names a target of kind ``spec`` is chosen among; None for a CP word (kept as typed).

        :raises KeyError: no such kind of target.
        """
        me, opp = self.me, self.opp
        if spec == "opposing character or cp" and self.rules._is_cp_word(text, opp.name):
            return None
        sides = {"opposing character or cp": [opp], "opposing character": [opp], "friendly character": [me],
                 "any character": [opp, me]}.get(spec)
        if sides is not None:
            return [k for s in sides for k in keys_of(s.characters)]
        side = {"opposing city": opp, "own city": me}[spec]
        return [c for c in side.cities if self.cat.get(c).kind == "city"]

    def _field_keys(self) -> list[str]:
        """Return the keys of your characters and your City cards (not the Porter): what a discard from play names."""
        return keys_of(self.me.characters) + [c for c in self.me.cities if self.cat.get(c).kind != "porter"]

    def _place(self, typed: str) -> str:
        """Return where an unplaced discard takes its card from, as the rules decide ("" when they ask)."""
        on_field = self.rules._on_field(None, self.me, typed)
        in_hand = self.rules._in_hand(self.me, typed)
        if on_field and in_hand:
            return "hand" if self.owed else ""
        return "field" if on_field else "hand"

    def _hand_name(self, text: str, placed: str) -> str:
        """Return the card in your hand ``text`` names; unplaced, the full name must lead the rules to the hand too.

        :raises ValueError: it would not.
        """
        name = self.cat.get(text).name if text in self.cat else self._match(text, [c for c in self.me.hand
                                                                                  if c != HIDDEN])
        if not placed and self._place(name) != "hand":
            raise ValueError(name)
        return name

    def _field_name(self, text: str, placed: str) -> str:
        """Return the key of a card of yours in play; unplaced, the full name must lead the rules to the field too.

        :raises ValueError: it would not.
        """
        name = self._pick(text, self._field_keys())
        if not placed and self._place(name) != "field":
            raise ValueError(name)
        return name
