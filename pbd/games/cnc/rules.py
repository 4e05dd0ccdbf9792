"""The C&C rules engine: apply a move to a state, or say which rule it breaks.

Every function takes a :class:`Ctx` (state, catalogue, chance, acting player) and
changes the state in place; the pipeline throws the state away if anything raises.
Rule readings where the rulebook is ambiguous (also in the README's rules notes):

* AP: the player to move receives their income at the start of their turn: 3, or 5
  while their CP is below 50 (Emergency Overdrive; exactly 50 gives 3), plus card
  bonuses, minus drains owed.  A drain larger than the AP a player has comes off
  their next income ("next turn -2" on the board).
* Freeze lasts until the end of the frozen character's owner's next turn.  Poison
  deals 1 HP at the start of its owner's turn.  Healing cures Confusion and Poison.
  A Confused character's next act fails: its AP is spent and it takes 5 HP.
* A combo is the same attack used on consecutive turns of its owner (or several
  times in one turn, with Hyperspeed); the third use fires the type effect and the
  count starts again.  A turn without attacking breaks it.  Physical never combos.
* Only the first player's very first turn forbids attacking CP.  Cards that take CP
  directly (Vanished Cops) are not attacks: characters do not screen them and the
  first turn allows them.  A card aimed at "a character or CP" is screened like an
  attack and obeys the first-turn rule.
* 50 is the cap: no bonus lifts an attack above 50 (a 50 attack is never boosted),
  but penalties such as Media Inquiry still lower it.  Pulse and Discordant are
  extra hits of 10 and 5, not bonuses to the attack.
* Combo type effects aim where the attacker says ("... attacks Nill then Batman",
  "then 2" for Hack's hand card); otherwise at the attack's target, else the first
  opposing character.  Elemental Force takes a guarding Ninja Death Cult first.
  The rulebook lists sixteen combo types besides Physical (its "fifteen" is a
  miscount); all sixteen are implemented.  A Confused act that fails is not an
  attack, so it does not keep a combo going.
* Names of cards in play match case-insensitively, by a unique prefix, or by the
  card's alias ("Cap", "Sentry"); a second copy in play is "Nill#2".
* Withdraw and discard work on characters and City cards (never the Porter); a card
  with the name of one played this turn may not be withdrawn, nor one withdrawn be
  played again, in the same turn.
* Cards that would go to a full hand (10) are discarded instead; draws stop at 10.
* Effects on the opponent's hand (discard, Hack, Banish) become "Pending" lines that
  the opponent's pbd resolves, because only it can see that hand.
* Destroy-City effects must take Ninja Death Cult first while it guards the City.
* A City card that raises the character limit (MAC) cannot be withdrawn or discarded
  while that would leave too many characters; if the opponent destroys it, the
  newest characters over the limit go to the discard pile.  Flood does not lower it.
* City effects take hold the turn the card is played ("By default ... City effects
  take hold the same turn the card is played"): Import Clinic heals, Farmers' Market
  and Protection Racket move CP, Haunted House drains, and Avengers Mansion gives its
  AP at once, then again at the start of each of the owner's turns.
* City cards cannot be attacked ("City cards can't be targeted by standard character
  attacks"): `Spider-Man attacks Import Clinic` is refused naming that rule (exit 1).
* ``adjust`` records what a card's text did that pbd cannot work out. It applies at
  once only for the player on turn whose reason names a card in play (or played this
  turn) that the catalogue marks as not expressible (Reality Warp, Body Swap); any
  other adjustment is a proposal (`Pending: Ben accepts or rejects adjust ...`) that
  the opponent answers with `accept adjustment` or `reject adjustment`. Either way it
  goes into the log with its reason.
* Outcome: Destruction (CP 0 or less), Construction (CP 200 or more), Attrition
  (25 discards, unless Heroic Resolve is in play).  If both players meet an end
  condition on the same move, the match is a draw.
"""

from __future__ import annotations

from functools import lru_cache
from operator import methodcaller

from pbd.errors import IllegalMoveError, NotationError, UnknownNameError
from pbd.games.base import Chance
from pbd.games.cnc.cards import Card, Catalogue, fold, match_name
from pbd.games.cnc.notation import Move, parse_move
from pbd.games.cnc.state import (_KEYS, ATTRITION_LIMIT, HAND_LIMIT, HIDDEN, Character, Pending, Side, State, _keys,
                                 find_key, key_of, keys_of, name_of, names_of, opening_owed)
from pbd.record import Record

BASE_INCOME, OVERDRIVE_INCOME, OVERDRIVE_BELOW = 3, 5, 50
CONSTRUCTION_CP = 200
#: the CP of a side while neither Destruction (0 or less) nor Construction has ended the match
#: (one ``in`` for :func:`apply`'s check after every move, where two comparisons cost twice as much)
_PLAYING_CP = range(1, CONSTRUCTION_CP)
CAP = 50
BASE_CHARACTER_LIMIT = 3
STORM_TYPES = ("Ice", "Air", "Water", "Electric")
TYPE_EFFECTS = {
    "Tech": "Hack", "Psychic": "Confusion", "Fire": "Firestorm", "Ice": "Freeze", "Electric": "Shutdown",
    "Magic": "Banish", "Toxic": "Poison", "Air": "Perfect Storm", "Earth": "Elemental Force", "Energy": "Pulse",
    "Speed": "Hyperspeed", "Shadow": "Sinister", "Sound": "Discordant", "Water": "Flood", "Magnetic": "Mend",
    "Gravity": "Summon",
}


class Ctx:
    """Everything a rule needs: the state, the cards, the dice, who is acting.

    A Ctx acts for one player: ``me`` (the acting player's side) and ``opp`` (the other) are
    kept in it, so acting for another player takes another Ctx (as :func:`start_turn` does).
    A rule never adds or replaces a side, so the kept sides stay the state's own.  The rules
    ask for them dozens of times a move, so they are slots found at once (an attribute
    behind a class-level descriptor is not: the interpreter looks it up in full each time);
    a Ctx whose sides are not both found by the player's exact name looks them up on first
    use instead (see :class:`_SeatsLater`).  ``__dict__`` leaves room for other attributes.

    ``naming`` is the move whose names the log writes in full, by ``full_names(state, player,
    move, cat)`` (the game sets both before a move it logs so): the move's handler sets it to
    None once the names are resolved as typed, or to the move written in full (see :func:`_in_full`).

    ``seated`` is True for a Ctx that found both sides at once: a started match, whose sides a
    rule or command never removes, so :func:`apply` need not count them again.

    ``other`` is the Ctx acting for the other player on the same state, cards and dice, made
    when first needed (:func:`_for_other`) and kept: a Ctx costs as much to build as a small rule.
    """

    __slots__ = ("state", "cat", "chance", "player", "notes", "me", "opp", "naming", "full_names", "other", "seated",
                 "__dict__")

    def __init__(self, state: State, cat: Catalogue, chance: Chance, player: str, notes: list[str] | None = None):
        self.state = state
        self.cat = cat
        self.chance = chance
        self.player = player
        self.notes = [] if notes is None else notes
        self.naming: Move | None = None
        self.full_names = None
        self.other: Ctx | None = None
        sides = state.sides
        if len(sides) == 2:         # the common case, looked up at once
            a, b = sides
            if a.name == player:
                self.me, self.opp, self.seated = a, b, True
                return
            if b.name == player:
                self.me, self.opp, self.seated = b, a, True
                return
        self.seated = False
        self.__class__ = _SeatsLater


class _Seat:
    """``me`` or ``opp`` of a :class:`_SeatsLater`: looked up on first use, then kept in the Ctx's slots.

    :raises KeyError: the acting player has no seat.
    :raises IndexError: ``opp`` while only one player is seated.
    """

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        self.slot = getattr(Ctx, name)          # where Ctx keeps it

    def __get__(self, ctx, owner=None):
        if ctx is None:
            return self
        try:
            return self.slot.__get__(ctx)
        except AttributeError:
            pass
        sides, player = ctx.state.sides, ctx.player
        if sides[0].name == player:
            me = sides[0]
        elif len(sides) > 1 and sides[1].name == player:
            me = sides[1]
        else:
            me = ctx.state.side(player)
        Ctx.me.__set__(ctx, me)
        if len(sides) == 2 or self.name == "opp":
            Ctx.opp.__set__(ctx, sides[1] if sides[0] is me else sides[0])
        return self.slot.__get__(ctx)


class _SeatsLater(Ctx):
    """A :class:`Ctx` whose sides are looked up on first use: one player seated, or the name written in another case."""

    __slots__ = ()
    me = _Seat()
    opp = _Seat()

def illegal(message: str) -> IllegalMoveError:
    """Return the error for a move a rule forbids."""
    return IllegalMoveError(message)


def _pick(cat: Catalogue, text: str, names: list[str], kind: str) -> str:
    """Return the one of ``names`` meant by ``text``; a card's alias works too ("Sentry", "Cap#2").

    :raises UnknownNameError: nothing matches (close names suggested).
    :raises AmbiguousNameError: several names start with ``text``.
    """
    if _written_as(text, names) is not None:      # (the common case: written as the board holds it)
        return text
    try:
        return match_name(text, names, kind)
    except UnknownNameError:
        base, sep, n = text.partition("#")
        real = cat.get(base).name + sep + n.strip() if base.strip() and base in cat else text
        if real == text:
            raise
        try:
            return match_name(real, names, kind)
        except UnknownNameError:
            pass
        raise


def _written_as(text: str, names: list[str] | tuple[str, ...]) -> int | None:
    """Return where ``text`` is in ``names`` if it is one of them as written and :func:`match_name` would pick it.

    That is the first name that folds alike: ``text`` itself, unless a twin comes before it.
    None otherwise (the name is looked for in full).
    """
    if text in names:
        i = names.index(text)
        if not i or fold(text) not in map(fold, names[:i]):
            return i
    return None


# -- the names the log writes --------------------------------------------------------

def _in_full(ctx: Ctx, move: Move) -> Move | None:
    """Return ``move`` with its names written in full, as the log writes it; None if they are written so.

    The rules resolve a move's names anyway, so its handler, once they are all resolved and
    before it changes anything, sets ``ctx.naming`` (while that is the move): to None when
    every name resolved to what was typed (the common case: nothing more to do), else to
    this function's answer.  The names are resolved again here by ``ctx.full_names``
    (:func:`.fullnames.full_names`, which keeps a name as typed where the text written in
    full could read otherwise), on the state as it was before the move.
    """
    full = ctx.full_names(ctx.state, ctx.player, move, ctx.cat)
    return None if full is move else full


# -- entry point ------------------------------------------------------------------

def apply(ctx: Ctx, move: Move) -> str:
    """Apply one move for ``ctx.player``; return its public summary.

    :raises IllegalMoveError: which rule, with the numbers.
    :raises NotationError: a name that matches nothing on the board.
    """
    state = ctx.state
    if state.result:
        raise illegal(f"the match is over: {state.result}")
    if not ctx.seated and len(state.sides) != 2:     # (both sides found at once: a started match, not counted)
        raise illegal("the match has not started: waiting for player 2 to join")
    me = ctx.me
    ap_before = me.ap
    kind = move.kind
    notes = ctx.notes = [move.source or kind]      # the summary's parts: the move, then what it did
    if (state.sides[state.to_move] is not me or state.pending) and kind in _ON_TURN:
        _own_turn(ctx, _ON_TURN[kind])      # (the player to move, owing nothing: no call, no lookup)
    _HANDLERS[kind](ctx, move)
    after = me.ap
    if after != ap_before and kind != "end":
        try:                                # (kept: nearly every move writes one of a few, found by two subscripts)
            notes.append(_AP_NOTES[ap_before][after])
        except KeyError:
            notes.append(_ap_note(ap_before, after))
    opp = ctx.opp                           # (the state's other side: apply plays on a seated match)
    if (me.cp not in _PLAYING_CP or opp.cp not in _PLAYING_CP
            or len(me.discards) >= ATTRITION_LIMIT or len(opp.discards) >= ATTRITION_LIMIT):
        check_outcome(state, ctx.cat)       # (not called in the common case: nobody is near an end condition)
        if state.result:
            notes.append(state.result)
    return " · ".join(notes)                # (the move alone, when it notes nothing: join gives it back, no new string)


#: the notes of AP changes written so far: ``_AP_NOTES[before][after]`` (see :func:`_ap_note`)
_AP_NOTES: dict[int, dict[int, str]] = {}


def _ap_note(before: int, after: int) -> str:
    """Return (and keep in :data:`_AP_NOTES`) the note of a move that changed the player's AP."""
    note = f"AP {before}→{after}"
    row = _AP_NOTES.get(before)
    if row is None:
        if len(_AP_NOTES) >= 256:           # (a bound on what a long run of odd numbers can keep)
            _AP_NOTES.clear()
        row = _AP_NOTES[before] = {}
    if len(row) < 256:
        row[after] = note
    return note


#: the note of a hand that now holds ``n`` cards, by ``n`` (a hand holds at most HAND_LIMIT: see :func:`_hand_note`)
_HAND_NOTES = tuple(f"hand {n}" for n in range(HAND_LIMIT + 1))


def _hand_note(n: int) -> str:
    """Return the note of a hand that now holds ``n`` cards (the busiest callers index :data:`_HAND_NOTES`)."""
    return _HAND_NOTES[n] if 0 <= n <= HAND_LIMIT else f"hand {n}"


def _own_turn(ctx: Ctx, what: str) -> None:
    """Refuse ``what`` unless the acting player is to move and owes no discard (see :data:`_ON_TURN`).

    :raises IllegalMoveError: it is the other player's turn, or a discard is owed first.
    """
    state = ctx.state
    current = state.sides[state.to_move]
    if current is not ctx.me:       # (the seats' names differ: the same as comparing them, for less)
        raise illegal(f"it is {current.name}'s turn, not yours ({what} waits for your turn)")
    if not state.pending:
        return
    name = current.name
    p = next((p for p in state.pending if p.player == name and p.kind == "discard"), None)
    if p is not None:
        raise illegal(f"first discard {p.count} card{'s' if p.count > 1 else ''} from your hand ({p.source}): "
                      f"write 'discard CARD from hand'")


def _spend(ctx: Ctx, cost: int, what: str) -> None:
    """Take ``cost`` AP from the acting player for ``what`` (the busiest handlers do it in line, as here)."""
    me = ctx.me
    if me.ap < cost:
        raise _too_dear(what, cost, me.ap)
    me.ap -= cost


def _too_dear(what: str, cost: int, ap: int) -> IllegalMoveError:
    """Return the error for an act that costs more AP than the player has."""
    return illegal(f"{what} costs {cost} AP; you have {ap}")


# -- drawing -------------------------------------------------------------------------

def _draw(ctx: Ctx, move: Move) -> None:
    n = move.amount
    me = ctx.me
    if n < 1:
        raise NotationError("draw at least one card")
    if len(me.hand) + n > HAND_LIMIT:
        raise illegal(f"your hand would hold {len(me.hand) + n} cards; the limit is {HAND_LIMIT}")
    if me.deck < n:
        raise illegal(f"your deck has {me.deck} card{'s' if me.deck != 1 else ''} left")
    if me.ap < n:               # (_spend in line: most moves draw, play or attack)
        raise _too_dear("drawing 1 card" if n == 1 else f"drawing {n} cards", n, me.ap)
    me.ap -= n
    _deal(ctx, me, n)               # (not _take_cards: the checks above keep n within the hand limit and the deck)


def _take_cards(ctx: Ctx, side: Side, n: int) -> int:
    """Draw up to ``n`` cards into ``side``'s hand (stopping at the hand limit); return how many."""
    n = max(0, min(n, HAND_LIMIT - len(side.hand), side.deck))
    _deal(ctx, side, n)
    return n


def _deal(ctx: Ctx, side: Side, n: int) -> None:
    """Draw ``n`` cards into ``side``'s hand (``n`` no more than the hand limit and the deck allow) and note its size."""
    if n:
        side.hand += ctx.chance.draw(side.name, n)
        side.deck -= n
    size = len(side.hand)
    ctx.notes.append(_HAND_NOTES[size] if size <= HAND_LIMIT else _hand_note(size))


# -- playing cards --------------------------------------------------------------------

def _hand_card(ctx: Ctx, name: str) -> Card:
    hand, cat = ctx.me.hand, ctx.cat
    card = cat.by_name.get(name) or cat.find(name)     # (most names as the board holds them: no call)
    if card is not None:        # (a hidden card the move names is it, replaying: Chance.shown)
        if card.name == HIDDEN or ctx.chance.shown(hand, card.name, HIDDEN) is None:
            raise illegal(f"{card.name} is not in your hand")
        return card
    return cat.get(match_name(name, [c for c in hand if c != HIDDEN], "card in your hand"))


def _play(ctx: Ctx, move: Move) -> None:
    me, turn = ctx.me, ctx.state.turn
    card = ctx.cat.by_name.get(move.card)
    if card is None or card.name != move.card or card.name not in me.hand:
        card = _hand_card(ctx, move.card)       # (else a card's own name, in the hand: found without a call)
    name = card.name            # (a local: read a dozen times)
    if name in turn.withdrawn:
        raise illegal(f"you withdrew {name} this turn; it cannot be played again until your next turn")
    kind = card.kind
    if kind == "character":
        if len(me.characters) >= BASE_CHARACTER_LIMIT:     # (no limit is lower: asked only from there)
            limit = character_limit(ctx.state, ctx.cat, me)
            if len(me.characters) >= limit:
                raise illegal(f"you already have {len(me.characters)} characters in play; the limit is {limit}"
                              + ("" if limit > BASE_CHARACTER_LIMIT else " (4 with MAC)"))
    elif kind == "porter":
        raise illegal(f"{name} is put into play at the start of the game, not played")
    elif kind == "city":
        if name in me.cities:
            raise illegal(f"{name} is already in play; only one of each City card at a time")
        allowed = 1 + _mod_total(ctx.state, ctx.cat, me, "extra_city")
        if len(turn.played) >= allowed and _played_of_kind(ctx, "city") >= allowed:    # (no more than were played)
            raise illegal(f"only {allowed} City card{'s' if allowed > 1 else ''} may be played each turn")
    elif kind == "event":
        allowed = 1 + _mod_total(ctx.state, ctx.cat, me, "extra_event")
        if len(turn.played) >= allowed and _played_of_kind(ctx, "event") >= allowed:    # (no more than were played)
            raise illegal(f"only {allowed} Event{'s' if allowed > 1 else ''} may be played each turn")
    if kind == "event":
        target = _target(ctx, card.target, move.target, name)
    elif move.target:
        raise illegal(f"{name} is a {card.kind} card; it takes no target")
    else:
        target = None
    if ctx.naming is move:      # (the names resolved, nothing changed yet: see _in_full)
        ctx.naming = (None if name == move.card and (target is None or target.key == move.target)
                      else _in_full(ctx, move))
    if me.ap < card.cost:       # (_spend in line: most moves draw, play or attack)
        raise _too_dear(name, card.cost, me.ap)
    me.ap -= card.cost
    me.hand.remove(name)
    turn.played.append(name)
    if kind == "character":
        me.characters.append(Character(name, card.hp))
    elif kind == "city":
        me.cities.append(name)
        if card.cp:
            me.cp += card.cp
            ctx.notes.append(f"CP {me.cp - card.cp}→{me.cp}")
        _take_hold(ctx, card)
    else:
        for eff in card.effects:    # (_run_effects in line: most events run one or two)
            run_effect(ctx, eff, target, None, name)
        me.discards.append(name)


def _take_hold(ctx: Ctx, card: Card) -> None:
    """Give a City card's per-turn effects the turn it is played.

    Rulebook: "By default, descriptions refer to cards currently in play and City effects
    take hold the same turn the card is played" — Import Clinic heals, Farmers' Market
    and Protection Racket move CP, Haunted House drains, Avengers Mansion gives its AP now.
    """
    for eff in card.all_each_turn():
        run_effect(ctx, eff, None, None, card.name)
    bonus = ap_bonus(ctx.cat, ctx.me, card.all_mods())
    if bonus:
        ctx.me.ap += bonus
        ctx.notes.append(f"{card.name}: +{bonus} AP this turn")


def _played_of_kind(ctx: Ctx, kind: str) -> int:
    cat, n = ctx.cat, 0
    for name in ctx.state.turn.played:
        card = cat.by_name.get(name) or cat.find(name)     # (played: a card's own name)
        if card is not None and card.kind == kind:
            n += 1
    return n


# -- targets ------------------------------------------------------------------------

class Target(Record):
    """A resolved target: a character on a side, a City card on a side, or a side's CP.

    An attack makes one only when something asks after its strike (see :func:`_attack`).
    """

    side: Side
    kind: str                  # character | city | cp
    key: str

    FIELDS = ("side", "kind", "key")

    def __init__(self, side: Side, kind: str, key: str = ""):
        self.side = side
        self.kind = kind
        self.key = key


def _target(ctx: Ctx, spec: str, text: str, what: str) -> Target | None:
    """Resolve the target named in ``text`` against the card's target ``spec``."""
    if spec == "none":
        if text:
            raise illegal(f"{what} takes no target")
        return None
    me, opp = ctx.me, ctx.opp
    if not text:
        if spec == "opposing character" and not opp.characters:
            raise illegal(f"{what} needs an opposing character to target, and {opp.name} has none in play")
        raise NotationError(f"{what} needs a target ({spec})", hint="write it as '... on NAME'")
    if spec == "opposing character or cp":
        return _target_of(opp, _attack_target(ctx, text))
    if spec == "opposing character":
        return _char_target(ctx.cat, opp, text)
    if spec == "friendly character":
        return _char_target(ctx.cat, me, text, "character among your characters")
    if spec == "any character":
        keys = [(s, k) for s in (opp, me) for k in keys_of(s.characters)]
        name = _pick(ctx.cat, text, [k for _, k in keys], "character in play")
        side = next(s for s, k in keys if k == name)
        return Target(side, "character", name)
    if spec in ("opposing city", "own city"):
        side = opp if spec == "opposing city" else me
        cities = [c for c in side.cities if ctx.cat.get(c).kind == "city"]
        if not cities:
            raise illegal(f"{side.name} has no City card that can be targeted (the Porter cannot)")
        return Target(side, "city", _pick(ctx.cat, text, cities, f"City card of {side.name}"))
    raise NotationError(f"{what} has an unknown target kind {spec!r}")


def _char_target(cat: Catalogue, side: Side, text: str, kind: str = "") -> Target:
    """Return the character of ``side`` that ``text`` names, as a Target (see :func:`_char_found`)."""
    found = _char_as_written(side.characters, text) or _char_found(cat, side, text, kind)    # (the usual first)
    return Target(side, "character", found[0])


def _char_found(cat: Catalogue, side: Side, text: str, kind: str = "") -> tuple[str, Character]:
    """Return ``(key, character)`` of the character of ``side`` that ``text`` names.

    ``kind`` is what an unknown name is called (by default "character among <side>'s
    characters", worked out only for a name not written as the board holds it).

    :raises IllegalMoveError: ``side`` has no characters in play.
    :raises NotationError: the name matches none of them (or several).
    """
    chars = side.characters
    if not chars:
        raise illegal(f"{side.name} has no characters in play")
    return _char_as_written(chars, text) or _picked_char(
        cat, chars, text, kind or f"character among {side.name}'s characters")


def _char_as_written(chars: list[Character], text: str) -> tuple[str, Character] | None:
    """Return ``(key, character)`` of the one of ``chars`` whose key ``text`` is, as :func:`_pick` would pick it.

    A fast path for every attack and use: a key written as the board holds it (no key before
    it folding alike) is found in the row's kept table (:data:`_WRITTEN_AT`) by one subscript,
    without calling :func:`_pick` or :func:`_written_as`.  None for any other name:
    :func:`_picked_char` finds it.
    """
    names = names_of(chars)
    at = _WRITTEN_AT.get(names)
    if at is None:
        at = _written_at(names)
    i = at.get(text)
    return None if i is None else (text, chars[i])


#: for each row of characters' names, the keys :func:`_written_as` finds among the row's keys, and where
#: (a match shows the same few rows again and again: see :func:`_written_at`)
_WRITTEN_AT: dict[tuple[str, ...], dict[str, int]] = {}


def _written_at(names: tuple[str, ...]) -> dict[str, int]:
    """Return (and keep in :data:`_WRITTEN_AT`) ``{key: i}`` for each key of the row ``names`` that
    :func:`_written_as` finds at ``i``: the first of the keys that fold alike."""
    keys = _KEYS.get(names) or _keys(names)
    if len(set(map(fold, keys))) == len(keys):      # (the usual row: no two keys fold alike, each is found where it is)
        at = dict(zip(keys, range(len(keys))))
    else:
        at, folded = {}, set()
        for i, key in enumerate(keys):
            f = fold(key)
            if f not in folded:
                at.setdefault(key, i)
                folded.add(f)
    if len(_WRITTEN_AT) >= 1024:
        _WRITTEN_AT.clear()
    _WRITTEN_AT[names] = at
    return at


def _picked_char(cat: Catalogue, chars: list[Character], text: str, kind: str) -> tuple[str, Character]:
    """Return ``(key, character)`` of the one of ``chars`` that ``text`` names (``kind``: what an unknown one is).

    :raises UnknownNameError: nothing matches (close names suggested).
    :raises AmbiguousNameError: several names start with ``text``.
    """
    keys = keys_of(chars)
    key = _pick(cat, text, keys, kind)
    return key, chars[keys.index(key)]


@lru_cache(maxsize=1024)
def _is_cp_word(text: str, opp: str) -> bool:
    """Return True if ``text`` names the CP of the player called ``opp`` ("city", "Ben's CP", "Ben").

    Kept: every attack asks, and a match names the same few targets again and again.
    """
    folded = text.casefold()
    words = folded.replace("'s", "").split()
    return bool(words) and (words[-1] in ("city", "cp", "porter") or folded == opp.casefold())


def _char(target: Target) -> Character | None:
    i = find_key(target.side.characters, target.key)
    return None if i is None else target.side.characters[i]


# -- characters acting ------------------------------------------------------------------

def _actor(ctx: Ctx, name: str) -> tuple[str, Character, Card]:
    """Return ``(key, character, card)`` of the character of yours that ``name`` names (``card``: its Card).

    A name that names a card refuses it unless that card is a character of yours in
    play.  For a move the log writes in full (``ctx.naming``), that is asked of the name
    it is written as: the character the name picks ("NOHoPE" is NOHoPE (2.0) while only
    that one is in play), or the name as typed if it picks none; otherwise of the name as typed.

    :raises IllegalMoveError: the card named is not a character of yours in play.
    :raises NotationError: the name matches none of your characters (or several).
    """
    chars, cat, typed = ctx.me.characters, ctx.cat, ctx.naming is None
    if typed:
        _not_your_character(ctx, name)
    try:
        key, ch = _char_as_written(chars, name) or _picked_char(cat, chars, name, "character of yours in play")
    except NotationError:
        if not typed:
            _not_your_character(ctx, name)
        raise
    card = cat.by_name.get(key)
    if not typed and (card is None or card.name != key):    # (a character's own name, in play: nothing to ask)
        _not_your_character(ctx, key)
    if card is None or key != ch.name:          # (else the lookup just made is the character's own)
        card = cat.by_name.get(ch.name) or cat.get(ch.name)
    return key, ch, card


def _not_your_character(ctx: Ctx, name: str) -> None:
    """Refuse ``name`` if it is the name of a card other than a character of yours in play, saying what it is.

    The key of a second copy of yours ("NOHoPE#2") is that character, though the name may
    fold like another card's alias ("NOHoPE 2" is NOHoPE (2.0)).
    """
    if "#" in name and name in keys_of(ctx.me.characters):
        return
    cat = ctx.cat
    card = cat.by_name.get(name) or cat.find(name)
    if card is not None and card.name not in map(name_of, ctx.me.characters):
        in_hand = card.name in ctx.me.hand
        if card.kind != "character":
            article = "an" if card.kind[0] in "aeiou" else "a"
            raise illegal(f"{card.name} is {article} {card.kind} card, not a character"
                          + (f": play it with 'play {card.name}'" if in_hand else ""))
        raise illegal(f"{card.name} is " + ("in your hand: play it first" if in_hand else "not in play"))


def _can_act(ctx: Ctx, key: str, ch: Character) -> None:
    """Refuse an act of a character that acted this turn already or is frozen."""
    if key in ctx.state.turn.acted:
        raise illegal(f"{key} has already acted this turn; characters act once a turn")
    if "frozen" in ch.statuses:
        raise illegal(f"{key} is frozen and cannot act this turn")


def _confused(ctx: Ctx, key: str, ch: Character) -> bool:
    """Resolve Confusion if ``ch`` has it: the act fails and it takes 5 HP. Return True if so."""
    if "confused" not in ch.statuses:
        return False
    ch.statuses.remove("confused")
    ctx.state.turn.acted.append(key)
    ctx.notes.append(f"{key} is confused: the act fails and {key} takes 5 HP")
    _hurt(ctx, ctx.me, key, 5, ch)
    return True


def _attack(ctx: Ctx, move: Move) -> None:
    key, ch, card = _actor(ctx, move.card)
    if not card.attacks:
        raise illegal(f"{ch.name} has no attack; use one of its abilities")
    attack = card.attacks[0]
    if move.detail:
        attack = next(a for a in card.attacks if a.name == match_name(move.detail, [a.name for a in card.attacks],
                                                                        f"attack of {ch.name}"))
    if ch.statuses or key in ctx.state.turn.acted:     # (_can_act refuses only then: asked without a call)
        _can_act(ctx, key, ch)
    found = _attack_target(ctx, move.target)       # (key, character) hit, or None: the opponent's CP
    if ctx.naming is move:      # (the names resolved, nothing changed yet: see _in_full)
        ctx.naming = (None if key == move.card and (not move.detail or attack.name == move.detail)
                      and (found is None or found[0] == move.target) else _in_full(ctx, move))
    me = ctx.me
    if me.ap < attack.cost:     # (_spend in line: most moves draw, play or attack)
        raise _too_dear(f"{key}'s {attack.name}", attack.cost, me.ap)
    me.ap -= attack.cost
    if "confused" in ch.statuses and _confused(ctx, key, ch):    # (asked here first: rarely confused)
        return
    turn = ctx.state.turn
    turn.acted.append(key)
    if key not in turn.attacked:
        turn.attacked.append(key)
    amount = attack_damage(ctx.state, ctx.cat, me, card, attack)
    opp, target = ctx.opp, None     # (the Target made only if asked for after the strike: most attacks need none)
    if found is None:
        _strike(ctx, target := _target_of(opp, found), amount, attack.type)
    else:
        _hit(ctx, opp, found[0], found[1], amount, attack.type)      # (found just now: nothing has moved)
    if attack.after:            # (they may move or remove the attacker: found again by its key)
        _run_effects(ctx, attack.after, target or _target_of(opp, found), key, f"{key}'s {attack.name}")
        chars = me.characters
        i = find_key(chars, key)
        ch = None if i is None else chars[i]
    if ch is None:              # (a strike moves only the opponent's characters: only the effects after it can)
        return
    # the combo (here, not in a function of its own: every attack counts it)
    if attack.type == "Physical":
        ch.combo, ch.combo_attack = 0, ""
        return
    label = attack.name if len(card.attacks) > 1 else ""
    ch.combo = ch.combo + 1 if ch.combo and ch.combo_attack == label else 1
    ch.combo_attack = label
    if ch.combo >= 3:
        ch.combo, ch.combo_attack = 0, ""
        ctx.notes.append(f"combo: {TYPE_EFFECTS[attack.type]}")
        type_effect(ctx, attack.type, key, target or _target_of(opp, found), move.then, attack.cost)


def _attack_target(ctx: Ctx, text: str) -> tuple[str, Character] | None:
    """Return ``(key, character)`` of the opposing character an attack on ``text`` hits; None: the opponent's CP.

    :raises IllegalMoveError: the CP is screened or not yet to be attacked, or ``text`` names a City card.
    :raises NotationError: the name matches nothing the attack can hit.
    """
    opp = ctx.opp
    if _is_cp_word(text, opp.name):
        if opp.characters:
            raise illegal(f"{opp.name}'s characters screen their CP: attack "
                          + " or ".join(keys_of(opp.characters)) + " first")
        if ctx.state.turn_number == 1:
            raise illegal("the first player cannot attack CP on their very first turn")
        return None
    found = _char_as_written(opp.characters, text)      # (the usual: a name as the board holds it, no call more)
    if found is not None:
        return found
    try:
        return _char_found(ctx.cat, opp, text)
    except (NotationError, IllegalMoveError):
        city = _named_city(ctx, opp, text)
        if city is None:
            raise
        instead = " or ".join(keys_of(opp.characters)) or f"{opp.name}'s CP"
        raise illegal(f"{city} is a City card: City cards can't be targeted by standard character attacks "
                      f"(rulebook); attack {instead}") from None


def _target_of(side: Side, found: tuple[str, Character] | None) -> Target:
    """Return the Target of :func:`_attack_target`'s answer for ``side``: the character ``found``, or (None) the CP."""
    return Target(side, "cp") if found is None else Target(side, "character", found[0])


def _named_city(ctx: Ctx, side: Side, text: str) -> str | None:
    """Return the City card (or Porter) of ``side`` that ``text`` names, if it names one."""
    try:
        return _pick(ctx.cat, text, list(side.cities), "City card")
    except NotationError:
        return None


def attack_damage(state: State, cat: Catalogue, side: Side, card: Card, attack) -> int:
    """Return an attack's damage with City and Perfect Storm bonuses, capped at 50.

    No bonus raises an attack past 50, so a 50-strength attack (the rulebook's top
    tier) is never boosted; penalties (Media Inquiry) still lower it.
    """
    bonus = 0
    plain = cat.without["attack_bonus"]     # (_none_in_play in line, for both sides: every attack asks)
    for owner in state.sides:
        if plain.issuperset(owner.cities):
            for ch in owner.characters:     # (a loop, as _none_in_play's: map and attrgetter cost more)
                if ch.name not in plain:
                    break
            else:
                continue                    # (the common case: nothing of this side's adds to an attack)
        for mod in active_mods(state, cat, owner):
            if mod["mod"] != "attack_bonus":
                continue
            whose = mod.get("whose", "own")
            if (whose == "own" and owner is not side) or (whose == "opponent" and owner is side):
                continue
            if "class" in mod and mod["class"] != card.klass:
                continue
            if "type" in mod and mod["type"] != attack.type:
                continue
            bonus += mod.get("amount", 0)
    if "Perfect Storm" in state.turn.effects and state.current is side and attack.type in STORM_TYPES:
        bonus += 5
    damage = attack.damage + bonus          # (max(0, min(CAP, ...)) without two calls)
    return CAP if damage > CAP else damage if damage > 0 else 0


def _strike(ctx: Ctx, target: Target, amount: int, attack_type: str | None) -> None:
    """Deal attack damage: to a character (immunities apply: see :func:`_hit`), or to CP.  No spillover."""
    if target.kind == "cp":
        target.side.cp -= amount
        ctx.notes.append(f"{target.side.name}'s CP {target.side.cp + amount}→{target.side.cp}")
        return
    ch = _char(target)
    if ch is not None:
        _hit(ctx, target.side, target.key, ch, amount, attack_type)


def _hit(ctx: Ctx, side: Side, key: str, ch: Character, amount: int, attack_type: str | None) -> None:
    """Deal attack damage to ``side``'s character ``ch`` (its key ``key``), unless it is immune."""
    known = ctx.cat.mods_by_name
    for mod in known[ch.name] if ch.name in known else ctx.cat.mods_of(ch.name):
        if attack_type and mod["mod"] == "immune" and attack_type in mod.get("types", ()):
            ctx.notes.append(f"{ch.name} is immune to {attack_type} attacks")
            return
        if attack_type and mod["mod"] == "only_harmed_by" and attack_type not in mod.get("types", ()):
            ctx.notes.append(f"{ch.name} is only harmed by {', '.join(mod.get('types', ()))} attacks")
            return
        if mod["mod"] == "damage_reduction":
            amount = max(0, amount - mod.get("amount", 0))
    _hurt(ctx, side, key, amount, ch)


def _hurt(ctx: Ctx, side: Side, key: str, amount: int, ch: Character | None = None) -> None:
    """Take ``amount`` HP from ``side``'s character ``key`` (``ch`` if found already); at 0 it goes to the discards."""
    if ch is None:
        i = find_key(side.characters, key)
        if i is None:
            return
        ch = side.characters[i]
    before = ch.hp
    ch.hp -= amount
    if ch.hp <= 0:
        _remove_character(ctx, side, key)
        side.discards.append(ch.name)
        ctx.notes.append(f"{key} HP {before}→0, discarded")
    else:
        ctx.notes.append(f"{key} HP {before}→{ch.hp}")


def _remove_character(ctx: Ctx, side: Side, key: str) -> Character:
    """Take a character off the field; the turn's records follow later copies' new names."""
    if side is not ctx.state.sides[ctx.state.to_move]:
        return side.characters.pop(find_key(side.characters, key))      # (no records of this turn to follow)
    before = keys_of(side.characters)
    ch = side.characters.pop(find_key(side.characters, key))
    renamed = dict(zip([k for k in before if k != key], keys_of(side.characters)))
    turn = ctx.state.turn
    if turn.acted:              # (an empty record stays so: no list comprehension's frame)
        turn.acted[:] = [renamed[k] for k in turn.acted if k in renamed]
    if turn.attacked:
        turn.attacked[:] = [renamed[k] for k in turn.attacked if k in renamed]
    return ch


def _heal(ctx: Ctx, side: Side, key: str, amount: int) -> None:
    i = find_key(side.characters, key)
    if i is None:
        return
    ch = side.characters[i]
    top = (ctx.cat.by_name.get(ch.name) or ctx.cat.get(ch.name)).hp     # (a name as the board holds it: no call)
    before = ch.hp
    ch.hp = min(top, ch.hp + amount)
    ch.statuses = ["frozen"] * ch.statuses.count("frozen")     # (healing cures the rest: no comprehension's frame)
    ctx.notes.append(f"{key} healed HP {before}→{ch.hp}")


# -- combos -----------------------------------------------------------------------------

def type_effect(ctx: Ctx, attack_type: str, key: str, target: Target, then: str, cost: int = 0) -> None:
    """Unleash the Type Effect of a level-3 combo (the rulebook's list, one per type).

    ``cost`` is what the third attack cost (Hyperspeed gives it back).
    """
    opp, me = ctx.opp, ctx.me

    def pick_char() -> Target | None:
        if then:
            return _char_target(ctx.cat, opp, then)
        if target.kind == "character" and _char(target) is not None:
            return target
        return Target(opp, "character", keys_of(opp.characters)[0]) if opp.characters else None

    if attack_type == "Tech":
        pos = int(then.split()[-1]) if then and then.split()[-1].isdigit() else 1
        if opp.hand:
            _reveal(ctx, opp, min(max(pos, 1), len(opp.hand)), "Hack")
    elif attack_type in ("Psychic", "Ice", "Toxic"):
        t = pick_char()
        status = {"Psychic": "confused", "Ice": "frozen", "Toxic": "poisoned"}[attack_type]
        if t is not None:
            _add_status(ctx, t, status)
    elif attack_type == "Fire":
        _strike(ctx, Target(opp, "cp"), 10, None)
    elif attack_type == "Electric":
        opp.ap_next -= 2
        ctx.notes.append(f"{opp.name} receives 2 fewer AP next turn")
    elif attack_type == "Magic":
        t = pick_char()
        if t is not None:
            _return_to_hand(ctx, t)
    elif attack_type == "Air":
        if "Perfect Storm" not in ctx.state.turn.effects:
            ctx.state.turn.effects.append("Perfect Storm")
    elif attack_type == "Earth":
        cities = [c for c in opp.cities if ctx.cat.get(c).kind == "city"]
        if cities:
            guards = [c for c in cities if _has_mod(ctx.cat, c, "protect_cities") and not _flooded(ctx.state, opp)]
            choice = _pick(ctx.cat, then, cities, "City card") if then else (guards or cities)[-1]
            _destroy_city(ctx, Target(opp, "city", choice))
    elif attack_type in ("Energy", "Sound"):
        t = pick_char() if attack_type == "Sound" or then or target.kind == "character" else target
        if t is not None:
            _strike(ctx, t, 10 if attack_type == "Energy" else 5, None)
    elif attack_type == "Speed":
        me.ap += cost
        ctx.state.turn.acted.remove(key)
        ctx.notes.append(f"{key} may act again; {cost} AP refunded")
    elif attack_type == "Shadow":
        _owe_discard(ctx, opp, 1, "Sinister")
    elif attack_type == "Water":
        if "Flood" not in ctx.state.turn.effects:
            ctx.state.turn.effects.append("Flood")
    elif attack_type == "Magnetic":
        me.cp += 10
        ctx.notes.append(f"CP {me.cp - 10}→{me.cp}")
    elif attack_type == "Gravity":
        _take_cards(ctx, me, 1)


def _add_status(ctx: Ctx, target: Target, status: str) -> None:
    ch = _char(target)
    if ch is not None and status not in ch.statuses:
        ch.statuses = sorted([*ch.statuses, status])
        ctx.notes.append(f"{target.key} is {status}")


# -- abilities ---------------------------------------------------------------------------

def _use(ctx: Ctx, move: Move) -> None:
    key, ch, card = _actor(ctx, move.card)
    names = names_of(card.abilities)
    if not names:
        raise illegal(f"{ch.name} has no abilities")
    i = _written_as(move.detail, names)     # (as match_name finds a name written as the card has it)
    if i is None:
        i = names.index(match_name(move.detail, names, f"ability of {ch.name}"))
    ability = card.abilities[i]
    if ability.passive:
        raise illegal(f"{ability.name} is passive: it is always in effect and is not used")
    if ch.statuses or key in ctx.state.turn.acted:     # (_can_act refuses only then: asked without a call)
        _can_act(ctx, key, ch)
    target = _target(ctx, ability.target, move.target, ability.name)
    if ctx.naming is move:      # (the names resolved, nothing changed yet: see _in_full)
        ctx.naming = (None if key == move.card and ability.name == move.detail
                      and (target is None or target.kind == "cp" or target.key == move.target)
                      else _in_full(ctx, move))
    me = ctx.me
    if me.ap < ability.cost:    # (_spend in line, as _attack does: the act's name written only for a refusal)
        raise _too_dear(f"{key}'s {ability.name}", ability.cost, me.ap)
    me.ap -= ability.cost
    if "confused" in ch.statuses and _confused(ctx, key, ch):    # (asked here first: rarely confused)
        return
    ctx.state.turn.acted.append(key)
    for eff in ability.effects:     # (_run_effects in line: every use runs one or two)
        run_effect(ctx, eff, target, key, ability.name)


# -- effects -----------------------------------------------------------------------------

def _run_effects(ctx: Ctx, effects, target: Target | None, actor: str | None, source: str) -> None:
    for eff in effects:
        run_effect(ctx, eff, target, actor, source)


def run_effect(ctx: Ctx, eff: dict, target: Target | None, actor: str | None, source: str) -> None:
    """Carry out one effect of the catalogue's vocabulary (see :mod:`pbd.games.cnc.cards`)."""
    me, verb = ctx.me, eff["do"]
    # the side or the targets an effect acts on, found only for the verbs that have them (an effect's target: no call)
    if verb in _ON_A_SIDE:
        who = ctx.opp if eff.get("who") == "opponent" else me
    elif verb in _ON_TARGETS:
        to = eff.get("to", "target")
        targets = (() if target is None else (target,)) if to == "target" else _effect_targets(ctx, to, target, actor)
    if verb == "damage":
        for t in targets:
            if t.kind == "cp":
                _strike(ctx, t, eff.get("amount", 0), None)
            else:
                _hurt(ctx, t.side, t.key, eff.get("amount", 0))
    elif verb == "heal":
        for t in targets:
            if t.kind == "character":
                _heal(ctx, t.side, t.key, eff.get("amount", 0))
    elif verb == "cp":
        amount = eff.get("amount", 0)
        who.cp += amount
        ctx.notes.append(f"{who.name}'s CP {who.cp - amount}→{who.cp}")
    elif verb == "draw":
        _take_cards(ctx, me, eff.get("count", 1))
    elif verb == "discard_hand":
        _owe_discard(ctx, who, eff.get("count", 1), source)
    elif verb == "ap":
        _change_ap(ctx, who, eff.get("amount", 0))
    elif verb == "ap_next":
        who.ap_next += eff.get("amount", 0)
        ctx.notes.append(f"{who.name}'s next income {eff.get('amount', 0):+d}")
    elif verb == "destroy_city":
        if target is not None and target.kind == "city":
            _destroy_city(ctx, target)
    elif verb == "return_to_hand":
        for t in targets:
            if t.kind == "character":
                _return_to_hand(ctx, t)
    elif verb == "status":
        for t in targets:
            if t.kind == "character":
                _add_status(ctx, t, eff["status"])
    elif verb == "cure":
        for t in targets:
            ch = _char(t) if t.kind == "character" else None
            if ch is not None:
                ch.statuses = []
                ctx.notes.append(f"{t.key} is cured")
    elif verb == "recover":
        n = min(eff.get("count", 1), len(me.discards), HAND_LIMIT - len(me.hand))
        for _ in range(n):
            me.hand.append(me.discards.pop())
        ctx.notes.append(f"{n} card{'s' if n != 1 else ''} back from the discard pile")
    elif verb == "roll":
        face = ctx.chance.roll(me.name, eff.get("sides", 6))
        ctx.notes.append(f"rolled {face} (d{eff.get('sides', 6)})")
        for outcome in eff.get("outcomes", ()):
            if face in outcome.get("on", ()):
                _run_effects(ctx, outcome.get("effects", ()), target, actor, source)
    elif verb == "manual":
        ctx.notes.append(f"{source}: {eff.get('text', '')} — record the outcome with 'adjust'")


#: the verbs of effects that act on a side (``who``: the opponent's, else the acting player's) and on targets (``to``)
_ON_A_SIDE = frozenset(("cp", "discard_hand", "ap", "ap_next"))
_ON_TARGETS = frozenset(("damage", "heal", "return_to_hand", "status", "cure"))


def _effect_targets(ctx: Ctx, to: str, target: Target | None, actor: str | None) -> list[Target]:
    me, opp = ctx.me, ctx.opp
    if to == "target":
        return [target] if target is not None else []
    if to == "self":
        return [Target(me, "character", actor)] if actor else []
    if to == "opponent cp":
        return [Target(opp, "cp")]
    if to == "own cp":
        return [Target(me, "cp")]
    if to == "all opposing characters":
        return [Target(opp, "character", k) for k in keys_of(opp.characters)][::-1]
    if to == "all friendly":
        return [Target(me, "character", k) for k in keys_of(me.characters)]
    if to == "most damaged friendly":
        cat, hurt = ctx.cat, []
        for i, c in enumerate(me.characters):      # (a loop: each card found once, most without a call)
            top = (cat.by_name.get(c.name) or cat.get(c.name)).hp
            if c.hp < top:
                hurt.append((top - c.hp, -i, i))
        return [Target(me, "character", key_of(me.characters, max(hurt)[2]))] if hurt else []   # (-i: no ties)
    raise NotationError(f"unknown effect destination {to!r} in the catalogue")


def _change_ap(ctx: Ctx, side: Side, amount: int) -> None:
    if amount >= 0:
        side.ap += amount
        ctx.notes.append(f"{side.name} gains {amount} AP")
        return
    take = min(side.ap, -amount)
    side.ap -= take
    side.ap_next -= (-amount - take)
    ctx.notes.append(f"{side.name} loses {-amount} AP"
                     + (f" ({-amount - take} from next turn)" if -amount > take else ""))


def _destroy_city(ctx: Ctx, target: Target) -> None:
    side = target.side
    guards = [c for c in side.cities if c != target.key and _has_mod(ctx.cat, c, "protect_cities")
              and not _flooded(ctx.state, side)]
    if guards:
        raise illegal(f"{guards[0]} guards {side.name}'s City cards: destroy {guards[0]} first")
    side.cities.remove(target.key)
    side.discards.append(target.key)
    ctx.notes.append(f"{side.name}'s {target.key} destroyed")
    _enforce_character_limit(ctx, side)


def _has_mod(cat: Catalogue, name: str, mod: str) -> bool:
    return any(m["mod"] == mod for m in cat.mods_of(name))


def _return_to_hand(ctx: Ctx, target: Target) -> None:
    side = target.side
    ch = _remove_character(ctx, side, target.key)
    if len(side.hand) >= HAND_LIMIT:
        side.discards.append(ch.name)
        ctx.notes.append(f"{target.key} returned, but {side.name}'s hand is full: discarded")
        return
    if ctx.chance.can_draw_for(side.name) or side is ctx.me:
        side.hand.append(ch.name)
    else:
        side.hand.append(HIDDEN)
        ctx.state.pending.append(Pending(side.name, "take", card=ch.name, source="returned"))
    ctx.notes.append(f"{target.key} returned to {side.name}'s hand")


def _owe_discard(ctx: Ctx, side: Side, count: int, source: str) -> None:
    owed = sum(p.count for p in ctx.state.pending if p.player == side.name and p.kind == "discard")
    count = min(count, len(side.hand) - owed)
    if count > 0:
        ctx.state.pending.append(Pending(side.name, "discard", count, source=source))
        ctx.notes.append(f"{side.name} must discard {count} card{'s' if count > 1 else ''} from hand")


def _reveal(ctx: Ctx, side: Side, pos: int, source: str) -> None:
    card = side.hand[pos - 1]
    if card != HIDDEN and (side is ctx.me or ctx.chance.can_draw_for(side.name)):     # (as the mover's pbd sees it)
        ctx.notes.append(f"{source}: {side.name}'s hand card {pos} is {card}")
    else:
        ctx.state.pending.append(Pending(side.name, "reveal", pos, source=source))
        ctx.notes.append(f"{side.name} must reveal hand card {pos}")


# -- withdrawing and discarding ---------------------------------------------------------------

def _field_card(ctx: Ctx, side: Side, name: str) -> tuple[str, str]:
    """Return ``(kind, key)`` of a non-Porter card on ``side``'s field."""
    cat, known = ctx.cat, ctx.cat.by_name
    chars = keys_of(side.characters)
    cities = []
    for city in side.cities:    # (a loop, not a list comprehension's frame; most found without a call)
        if (known.get(city) or cat.get(city)).kind != "porter":
            cities.append(city)
    _not_the_porter(ctx, side, name)
    key = _pick(cat, name, chars + cities, "card of yours in play")
    return ("character" if key in chars else "city"), key


def _not_the_porter(ctx: Ctx, side: Side, name: str) -> None:
    """Refuse ``name`` if it names the Porter of ``side`` (its first City card of the porter kind).

    :raises IllegalMoveError: it does.
    :raises UnknownNameError: a City card of ``side`` the catalogue does not know.
    """
    cat, known = ctx.cat, ctx.cat.by_name
    porter = None
    for city in side.cities:    # (every city looked up, as _field_card does; a loop: no list comprehension's frame)
        if (known.get(city) or cat.get(city)).kind == "porter" and porter is None:
            porter = city
    if porter is not None and (name.casefold() in ("porter", "the porter")      # (card: cat.get(name) if name in cat)
                               or ((card := known.get(name) or cat.find(name)) is not None and card.name == porter)):
        raise illegal("the Porter stays in play for the whole game")


def _withdrawn_card(ctx: Ctx, side: Side, name: str) -> tuple[str, str]:
    """Return ``(kind, key)`` of the card a withdraw takes: a character of yours ``name`` picks, else a City card.

    For a move the log writes in full (``ctx.naming``), characters first, as the log has
    always written a withdraw in full: "withdraw cit" is City Councilor even with City Hall
    in play.

    :raises NotationError: the name picks no card of yours in play (or several).
    :raises IllegalMoveError: it names the Porter.
    """
    if ctx.naming is None:
        return _field_card(ctx, side, name)
    keys, cat = keys_of(side.characters), ctx.cat
    if name not in keys:        # a pick that fails costs its suggestions: tried only if a character may start so
        base = name.partition("#")[0]
        starts = [fold(name), fold(cat.get(base).name) if base.strip() and base in cat else ""]   # (an alias's card)
        if not any(f and fold(k).startswith(f) for k in keys for f in starts):
            return _field_card(ctx, side, name)
    try:
        return "character", _pick(cat, name, keys, "character of yours in play")
    except NotationError:
        return _field_card(ctx, side, name)


def _withdraw(ctx: Ctx, move: Move) -> None:
    me, turn = ctx.me, ctx.state.turn
    kind, key = _withdrawn_card(ctx, me, move.card)
    if ctx.naming is move:      # (the name resolved, nothing changed yet: see _in_full)
        ctx.naming = None if key == move.card else _in_full(ctx, move)
    name = key.split("#")[0]
    if name in turn.played:
        raise illegal(f"you played {name} this turn; a card cannot be played and withdrawn in the same turn")
    if key in turn.acted or key in turn.attacked:
        raise illegal(f"{key} acted this turn: no acting then withdrawing")
    if len(me.hand) >= HAND_LIMIT:
        raise illegal(f"your hand is full ({HAND_LIMIT} cards)")
    _spend(ctx, 1, "withdrawing a card")
    _leave_field(ctx, me, kind, key)
    me.hand.append(name)
    turn.withdrawn.append(name)


def _discard(ctx: Ctx, move: Move) -> None:
    me = ctx.me
    pending = ctx.state.pending
    owed = next((p for p in pending if p.player == me.name and p.kind == "discard"), None) if pending else None
    place = move.detail
    if place != "hand":
        _not_the_porter(ctx, me, move.card)
    if not place:
        on_field = _on_field(ctx, me, move.card)
        in_hand = "#" not in move.card and _in_hand(me, move.card)     # (NAME#2 is a copy in play, never a hand card)
        if owed and in_hand:
            place = "hand"
        elif on_field and in_hand:
            raise NotationError(f"{move.card} is both in your hand and in play",
                                hint=f"write 'discard {move.card} from hand' or 'discard {move.card} from field'")
        else:
            place = "field" if on_field else "hand"
    if place != "hand":
        owed = None             # (a discard owed from the hand waits: _own_turn says so)
    if owed is None and (pending or ctx.state.sides[ctx.state.to_move] is not me):
        _own_turn(ctx, "discarding")        # (it refuses only then: asked without a call, as apply does)
    if place == "hand":         # (a card's own name, in the hand: found without _hand_card's call, as _play does)
        card = ctx.cat.by_name.get(move.card)
        kind, key = "hand", (move.card if card is not None and card.name == move.card and move.card in me.hand
                             and move.card != HIDDEN else _hand_card(ctx, move.card).name)
    else:
        kind, key = _field_card(ctx, me, move.card)
    if ctx.naming is move:      # (the name resolved, nothing changed yet: see _in_full)
        ctx.naming = None if key == move.card else _in_full(ctx, move)
    if owed is None:            # (always so for a card on the field; _spend in line: a discard is a common move)
        if me.ap < 1:
            raise _too_dear("discarding a card", 1, me.ap)
        me.ap -= 1
    if kind != "hand":
        _leave_field(ctx, me, kind, key)
        me.discards.append(key.split("#")[0])
        return
    me.hand.remove(key)
    me.discards.append(key)
    if owed is not None:
        owed.count -= 1
        if owed.count <= 0:
            ctx.state.pending.remove(owed)
        ctx.notes.append(f"discarded {key} from hand ({owed.source})")


def _leave_field(ctx: Ctx, side: Side, kind: str, key: str) -> None:
    """Take a character or City card off ``side``'s field (a City only if the limit allows)."""
    if kind == "character":
        _remove_character(ctx, side, key)
    else:
        _city_may_leave(ctx, side, key)
        side.cities.remove(key)


def _on_field(ctx: Ctx, side: Side, name: str) -> bool:
    key = fold(name)        # (map, not a generator: no Python frame per name)
    names = keys_of(side.characters) + side.cities
    return any(map(methodcaller("startswith", key), map(fold, names))) if key else False


def _in_hand(side: Side, name: str) -> bool:
    key = fold(name)        # (a hidden card folds to "", which starts with no key: as _on_field)
    return any(map(methodcaller("startswith", key), map(fold, side.hand))) if key else False


# -- adjustments ------------------------------------------------------------------------------

def _adjust(ctx: Ctx, move: Move) -> None:
    """Record the outcome of a card text the vocabulary cannot express: at once, or as a proposal.

    It applies at once only for the player on turn, citing (in the reason) a card in play
    or played this turn whose effect the catalogue marks as not expressible (``manual``).
    Anything else is a proposal: a pending decision the opponent accepts or rejects.
    """
    if "(" in move.text or ")" in move.text:
        raise NotationError("write the adjustment's reason without parentheses")
    cited = _inexpressible_cited(ctx, move.text)
    if cited and ctx.state.current is ctx.me:
        _apply_adjust(ctx, move)
        return
    import copy     # an adjustment's trial only (the copy module costs every command that loads the rules)

    trial = Ctx(copy.deepcopy(ctx.state), ctx.cat, ctx.chance, ctx.player)
    _apply_adjust(trial, move)  # refuse now what could never be applied
    other = ctx.opp
    ctx.state.pending.append(Pending(other.name, "adjust", card=move.source.split(" ", 1)[1],
                                     source=f"proposed by {ctx.me.name}"))
    ctx.notes.append(f"proposed: {other.name} accepts or rejects it"
             + ("" if cited else " (no card in play that pbd cannot work out is named)"))


def _inexpressible_cited(ctx: Ctx, reason: str) -> str | None:
    """Return the card in play (or played this turn) with a ``manual`` effect that ``reason`` names."""
    names = [c.name for s in ctx.state.sides for c in s.characters] + \
            [c for s in ctx.state.sides for c in s.cities] + list(ctx.state.turn.played)
    for name in dict.fromkeys(names):
        card = ctx.cat.get(name) if name in ctx.cat else None
        if card and name.casefold() in reason.casefold() and _is_manual(card):
            return name
    return None


def _is_manual(card: Card) -> bool:
    effects = list(card.effects) + list(card.all_each_turn())
    effects += [e for a in card.attacks for e in a.after] + [e for a in card.abilities for e in getattr(a, "effects", ())]
    return any(e.get("do") == "manual" for e in effects)


def _decide(ctx: Ctx, move: Move) -> None:
    """Accept or reject the adjustment the opponent proposed (a pending decision)."""
    proposal = next((p for p in ctx.state.pending if p.player == ctx.me.name and p.kind == "adjust"), None)
    if proposal is None:
        raise illegal("there is no proposed adjustment for you to accept or reject")
    ctx.state.pending.remove(proposal)
    if move.detail == "accept":
        _apply_adjust(ctx, parse_move(f"adjust {proposal.card}"))
    ctx.notes.append(f"{move.detail}s: adjust {proposal.card}")


def _apply_adjust(ctx: Ctx, move: Move) -> None:
    state = ctx.state
    if move.detail in ("cp", "ap"):
        side = state.sides[[s.name for s in state.sides].index(
            match_name(move.card, [s.name for s in state.sides], "player"))]
        if move.detail == "cp":
            side.cp += move.amount
            ctx.notes.append(f"{side.name}'s CP {side.cp - move.amount}→{side.cp}")
        else:
            if side.ap + move.amount < 0:
                raise illegal(f"{side.name} has {side.ap} AP; AP cannot go below 0")
            side.ap += move.amount
            ctx.notes.append(f"{side.name}'s AP {side.ap - move.amount}→{side.ap}")
        return
    keys = [(s, k) for s in state.sides for k in keys_of(s.characters)]
    name = _pick(ctx.cat, move.card.split("'s ")[-1], [k for _, k in keys], "character in play")
    owners = [s for s, k in keys if k == name]
    if len(owners) > 1 and "'s " in move.card:
        owner_name = move.card.split("'s ")[0]
        owners = [s for s in owners if s.name.casefold() == owner_name.casefold()] or owners
    side = owners[0]
    if move.amount < 0:
        _hurt(ctx, side, name, -move.amount)
    elif move.amount > 0:           # HP 0 is no healing: Confusion and Poison stay ("unless they ... receive healing")
        _heal(ctx, side, name, move.amount)


# -- the end of a turn -----------------------------------------------------------------------

def _end(ctx: Ctx, move: Move) -> None:
    state, me, opp = ctx.state, ctx.me, ctx.opp
    chars, turn = me.characters, state.turn
    keys = None
    for i, ch in enumerate(chars):      # the marks the turn leaves end: a combo unless it attacked, Freeze
        if ch.combo or ch.combo_attack:
            if keys is None and turn.attacked:      # (the keys only for a combo in a turn that attacked:
                names = names_of(chars)             # the row's kept ones, no new list)
                keys = _KEYS.get(names) or _keys(names)
            if keys is None or keys[i] not in turn.attacked:
                ch.combo, ch.combo_attack = 0, ""
        if ch.statuses and "frozen" in ch.statuses:
            ch.statuses.remove("frozen")
    if not opening_owed(state, opp.name):
        ctx.chance.publish(me.name)     # (not before: the opponent could pick which value draws its hand)
    # a fresh turn, in the record the state holds (nothing else holds it: the rules find it in the state)
    turn.played, turn.withdrawn, turn.acted, turn.attacked, turn.effects = [], [], [], [], []
    state.to_move = 1 - state.to_move
    state.turn_number += 1
    start_turn(ctx)


def income(state: State, cat: Catalogue, side: Side) -> int:
    """Return the AP a side receives at the start of its turn, before drains."""
    base = OVERDRIVE_INCOME if side.cp < OVERDRIVE_BELOW else BASE_INCOME
    if _none_in_play(cat, "ap_per_turn", side):
        return base
    return base + ap_bonus(cat, side, active_mods(state, cat, side))


def ap_bonus(cat: Catalogue, side: Side, mods: list[dict]) -> int:
    """Return the extra AP per turn that ``mods`` (``ap_per_turn``, maybe per character class) give a side."""
    bonus = 0
    for mod in mods:
        if mod["mod"] == "ap_per_turn":
            per = mod.get("per_class")
            count = 1
            if per:             # (a loop, each card found by its name as the board holds it: no generator, no call)
                count = 0
                for c in side.characters:
                    if (cat.by_name.get(c.name) or cat.get(c.name)).klass == per:
                        count += 1
            bonus += mod.get("amount", 0) * count
    return bonus


def start_turn(ctx: Ctx) -> None:
    """Begin the turn of the player now to move: income, Poison, City triggers."""
    state, cat = ctx.state, ctx.cat
    side = state.sides[state.to_move]
    # most turns, no card in play adds to the income or acts each turn: asked once for both ("turn_start")
    if "turn_start" not in cat.without:
        cat.add_turn_start()
    quiet = _none_in_play(cat, "turn_start", side)
    ap = side.ap + side.ap_next + ((OVERDRIVE_INCOME if side.cp < OVERDRIVE_BELOW else BASE_INCOME) if quiet
                                   else income(state, cat, side))     # (income's own answer when quiet)
    side.ap = ap if ap > 0 else 0           # (max(0, ...) without its call)
    side.ap_next = 0
    for ch in side.characters:
        if ch.statuses and "poisoned" in ch.statuses:      # (the common case, no status, asks nothing more)
            _poison(ctx, side)
            break
    # after Poison (a card it takes away acts no more; one it leaves in play stays quiet)
    effects = None if quiet else _each_turn(cat, side)
    if effects:         # they act for the side's owner, whoever ended the turn
        owner = _for_other(ctx) if side is ctx.opp else Ctx(state, cat, ctx.chance, side.name, ctx.notes)
        for name, eff in effects:
            run_effect(owner, eff, None, None, name)


def _for_other(ctx: Ctx) -> Ctx:
    """Return the Ctx acting for the other player than ``ctx``'s, writing ``ctx``'s notes (kept in ``ctx.other``).

    A Ctx's state, cards and dice never change, nor do a started match's sides, so the
    one made first serves every later turn; only the notes are the move's own.
    """
    other = ctx.other
    if other is None:
        other = ctx.other = Ctx(ctx.state, ctx.cat, ctx.chance, ctx.opp.name)
    other.notes = ctx.notes
    return other


def _poison(ctx: Ctx, side: Side) -> None:
    """Take 1 HP from each of ``side``'s poisoned characters, the last first (so the keys of the rest stay)."""
    for i in reversed(range(len(side.characters))):
        if "poisoned" in side.characters[i].statuses:
            _hurt(ctx, side, key_of(side.characters, i), 1)


def _each_turn(cat: Catalogue, side: Side) -> list[tuple[str, dict]]:
    """Return ``(name, effect)`` for each effect ``side``'s cards trigger at the start of its turn, Cities first.

    :raises UnknownNameError: a card in play that the catalogue does not know.
    """
    known, effects = cat.each_turn_by_name, []
    try:        # the names as the board holds them, one subscript each (most give nothing; loops: no comprehension's frame)
        for name in side.cities:
            for eff in known[name]:
                effects.append((name, eff))
        for ch in side.characters:
            for eff in known[ch.name]:
                effects.append((ch.name, eff))
        return effects
    except KeyError:        # a name written otherwise, or unknown: looked up in full
        return [(name, eff) for name in [*side.cities, *map(name_of, side.characters)]
                for eff in cat.each_turn_of(name)]


# -- modifiers and limits ---------------------------------------------------------------------

def _flooded(state: State, side: Side) -> bool:
    return "Flood" in state.turn.effects and state.sides[state.to_move] is not side


def _mods_of(cat: Catalogue, names) -> list[dict]:
    """Return the passive modifiers of the cards called ``names`` (a list), in order.

    The names the board holds are found in the catalogue's table without a call each (the
    rules ask several times a move); if any other name is among them, every name goes
    through :meth:`Catalogue.mods_of`.

    :raises UnknownNameError: a name the catalogue does not know.
    """
    known, mods = cat.mods_by_name, []
    try:        # the names as the board holds them, one subscript each (most give nothing)
        for name in names:
            found = known[name]
            if found:
                mods += found
        return mods
    except KeyError:        # a name written otherwise, or unknown: looked up in full
        return [mod for name in names for mod in cat.mods_of(name)]


def active_mods(state: State, cat: Catalogue, side: Side) -> list[dict]:
    """Return the passive modifiers in force for a side (its Cities unless Flooded, its characters)."""
    known = cat.mods_by_name
    try:        # every move asks: the names as the board holds them, one subscript each (most give nothing)
        mods = []
        if "Flood" not in state.turn.effects or state.sides[state.to_move] is side:     # (not _flooded: no call)
            for name in side.cities:
                found = known[name]
                if found:
                    mods += found
        for ch in side.characters:
            found = known[ch.name]
            if found:
                mods += found
        return mods
    except KeyError:        # a name written otherwise, or unknown: looked up in full
        return _mods_of(cat, [*([] if _flooded(state, side) else side.cities), *map(name_of, side.characters)])


def _none_in_play(cat: Catalogue, kind: str, side: Side) -> bool:
    """Return True if none of ``side``'s cards in play has a modifier of ``kind`` (or "each_turn": an effect each turn;
    "turn_start": either that or an ``ap_per_turn`` modifier).

    The common case, answered in one set operation per row (:attr:`Catalogue.without`); a
    name the set lacks (one with such a modifier, or written otherwise) answers False, and
    the caller looks the cards up in full.
    """
    plain = cat.without[kind]
    if not plain.issuperset(side.cities):
        return False
    for ch in side.characters:      # (a loop: map and attrgetter cost a move more, in allocations and calls)
        if ch.name not in plain:
            return False
    return True


def _mod_total(state: State, cat: Catalogue, side: Side, name: str) -> int:
    if _none_in_play(cat, name, side):
        return 0
    return sum(m.get("amount", 1) for m in active_mods(state, cat, side) if m["mod"] == name)


def character_limit(state: State, cat: Catalogue, side: Side, without: str = "") -> int:
    """Return how many characters a side may have in play (3; MAC makes it 4).

    Flood does not lower it (it only matters on the owner's own turn); ``without``
    names a City card to leave out (to ask what the limit would be without it).
    """
    cities = [c for c in side.cities if c != without] if without else side.cities
    limit = BASE_CHARACTER_LIMIT
    for m in _mods_of(cat, [*cities, *map(name_of, side.characters)]):
        if m["mod"] == "character_limit":
            limit = max(limit, m.get("amount", BASE_CHARACTER_LIMIT))
    return limit


def _city_may_leave(ctx: Ctx, side: Side, city: str) -> None:
    """Refuse to withdraw or discard a City card whose loss would break the character limit."""
    limit = character_limit(ctx.state, ctx.cat, side, without=city)
    if len(side.characters) > limit:
        raise illegal(f"without {city} the limit is {limit} characters and you have {len(side.characters)}: "
                      f"remove a character first")


def _enforce_character_limit(ctx: Ctx, side: Side) -> None:
    """After a City card like MAC is destroyed, the newest characters over the limit are discarded."""
    limit = character_limit(ctx.state, ctx.cat, side)
    while len(side.characters) > limit:
        key = key_of(side.characters, len(side.characters) - 1)
        ch = _remove_character(ctx, side, key)
        side.discards.append(ch.name)
        ctx.notes.append(f"{side.name} is over the limit of {limit} characters: {key} discarded")


def heroic_resolve(state: State, cat: Catalogue, side: Side) -> bool:
    """Return True if the side cannot lose by Attrition now."""
    return any(m["mod"] == "no_attrition_loss" for m in active_mods(state, cat, side))


# -- the end of the match -----------------------------------------------------------------------

def losing_reason(state: State, cat: Catalogue, side: Side) -> str:
    """Return why ``side`` has lost ('' if it has not)."""
    if side.cp <= 0:
        return f"Destruction ({side.name}'s CP {side.cp})"
    if len(side.discards) >= ATTRITION_LIMIT and not heroic_resolve(state, cat, side):
        return f"Attrition ({side.name} has {len(side.discards)} discards)"
    return ""


def check_outcome(state: State, cat: Catalogue) -> None:
    """Set ``state.result`` if a win condition is met."""
    if state.result or len(state.sides) != 2:
        return
    wins = []
    for i, side in enumerate(state.sides):
        other = state.sides[1 - i]
        if side.cp >= CONSTRUCTION_CP:
            wins.append((side.name, f"Construction ({side.name}'s CP {side.cp})"))
        reason = losing_reason(state, cat, other)
        if reason:
            wins.append((side.name, reason))
    winners = {w for w, _ in wins}
    if len(winners) == 1:
        state.result = f"{wins[0][0]} wins by {wins[0][1]}"
    elif len(winners) == 2:
        state.result = "draw: " + "; ".join(r for _, r in wins)


#: the moves only the player to move makes (checked by :func:`apply` before the move's handler runs), and
#: how :func:`_own_turn`'s refusal names each
_ON_TURN = {"draw": "drawing", "play": "playing a card", "attack": "attacking", "use": "using an ability",
            "withdraw": "withdrawing", "end": "ending the turn"}
_HANDLERS = {"draw": _draw, "play": _play, "attack": _attack, "use": _use, "withdraw": _withdraw,
             "discard": _discard, "adjust": _adjust, "decide": _decide, "end": _end}
