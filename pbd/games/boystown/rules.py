"""Boys' Town rules: one small function per rule; pure apart from the shared deck they move.

Rule readings (each also in the README's Boys' Town rule notes, and tested):

* Footnote marks: "4I cards" is 4 cards with footnote I (the dealing mantra), not 41; "1I card"
  and "placeII" point at the Build Phase's two notes; in the Attack Phase, "I" and "II" mark the
  sentences an effect may nullify.
* The first round is every player's first turn: nobody attacks in it.
* The Attack Phase is not optional: a player who can attack must; with no opponent to attack
  (nobody holds a card or has a Town to defend with), it is skipped.
* A hand attack needs an opponent holding a card. In a Town battle the defender defends with a
  Resident of their Town (any one, unless an effect decides); with an empty Town, with a card from
  hand, shown.
* In a hand battle the defender's card is shown as soon as it is chosen (the attacker is already
  bound by the commitment in the document and in the log); the attacker's pbd opens the commitment
  on its next command. A card that does not open the commitment, or a commitment on the board that
  is not the one the attack logged, stops the game (exit 3).
* After the flip, each side may use one optional effect (a Battle swap, a Resident boost), the
  defender first; then the battle is resolved.
* Effects of the defender take priority: a defender's guard beats the attacker's "defend with your
  weakest"; a defender's effect nullifying "a tie goes to the attacker" gives ties to the defender.
* An effect nullifies a rule for its owner's side (the loser's "do not draw", the winner's "not
  discarded"). A card that is not discarded goes back where it came from.
* Simultaneous modifiers add up; effects reading the top of the discard pile read it when the
  battle is resolved (before anything is discarded), and when TP is counted.
* Resident effects are continuous: they apply whenever their conditions hold.
* A swap is not a build: no Build effect, and the card's build penalty is nullified. A card
  swapped out of a battle becomes a Resident (its Battle effects no longer apply); the Resident
  swapped in fights from hand.
* Hand effects are used on your own turn outside a battle; a Hand effect that makes someone draw
  targets any opponent, never yourself.
* Extra builds are optional (`done`); their requirement and penalty apply to the extra card.
* Discard order after a battle: Residents used for an effect, the loser's card, then (hand
  battle) the winner's card — so the winner's card ends on top. Draw order: draws caused by
  effects (the defender's first), then the loser.
* The game ends when the player whose turn it is has no card in hand after a build, a Hand effect
  or a battle's discards; owed draws still happen, then the score is taken. A hand emptied on
  someone else's turn does not end the game.
* An empty draw pile is rebuilt from all but the top discard, shuffled by every seat; with no
  such card, the draw is skipped.
* Score: base TP, ×2 with The John Goodcup (base TP only), + combo and Resident bonuses (build
  penalties and adjustments count here), −3 per card in hand. Equal top totals share the win.
* `--first random`: once every seat has shuffled the deck in, the creator's pbd rolls a die with
  one face per seat (logged as a roll for `first`); its seed was committed before any other seat's
  chain value existed and the roll mixes those values in, so nobody alone can steer it. The option
  `starts=random` becomes `starts=NAME`, then the cards are dealt.
* Audit: once every player has revealed (`pbd reveal`), `pbd audit` re-derives the whole deal from
  the seeds and replays every logged move on it; a hand attack's log entry carries its commitment,
  and the flip the slot and nonce that open it. Before that, and in `pbd replay` (which reads no
  seeds), the moves are not replayed, and pbd says so.
"""

from __future__ import annotations

from pbd.errors import IllegalMoveError
from pbd.games.boystown import cards, effects
from pbd.games.boystown.catalogue import Card, Catalogue, load
from pbd.games.boystown.notation import Move
from pbd.games.boystown.state import HAND_SIZE, Resident, State
from pbd.table.decisions import Decision


# -- reading the table ------------------------------------------------------------------

def cat(state: State) -> Catalogue:
    """Return the match's catalogue.

    :raises DeckFormatError: it cannot be found or read.
    """
    return load(state.catalogue, remember=False, from_document=True)


def card_at(state: State, slot: int, seat: str | None = None) -> Card | None:
    """Return the card in ``slot`` if ``seat`` (None: everyone) can read it, else None."""
    c = cat(state)
    cid = cards.card(state.deck, slot, seat)
    return c.cards[cards.name_of(c.deck(), cid)] if cid is not None else None


def hand(state: State, seat: str) -> list[tuple[int, Card | None]]:
    """Return ``(slot, card or None)`` for ``seat``'s hand as ``seat``'s pbd reads it."""
    return [(s, card_at(state, s, seat)) for s in cards.hand(state.deck, seat)] if state.deck else []


def hand_size(state: State, seat: str) -> int:
    """Return how many cards ``seat`` holds: on a board typed without a match (no deck to count), what it shows."""
    if state.deck is None:
        return (state.shown or {}).get("hand", {}).get(seat, 0)
    return len(cards.hand(state.deck, seat))


def named(state: State, seat: str, name: str, slot: int | None = None) -> int | None:
    """Return the slot of ``seat``'s hand (or ``slot``) holding a card called ``name``, which a move names;
    replaying without the seeds, a hidden one reads as it from then on (:meth:`SharedDeck.named`)."""
    ids, name = cat(state).deck(), name.strip()
    if state.deck is None or name not in ids:
        return None
    return cards.named(state.deck, seat, ids, name, slot)


def in_hand(state: State, seat: str, name: str, claim: bool = True) -> int:
    """Return the slot of a card called ``name`` in ``seat``'s hand (readable by ``seat``).

    ``claim``: replaying without the seeds, a hidden card of the hand may be it (:func:`named`).

    :raises IllegalMoveError: no such card in hand; :raises UnknownNameError: no such card at all.
    """
    wanted = Catalogue.resolve(name, list(cat(state).cards))
    taken = named(state, seat, wanted) if claim else None      # (replaying: the copy the replay takes it to be)
    if taken is not None and taken in cards.hand(state.deck, seat):
        return taken
    held = [(s, c) for s, c in hand(state, seat) if c is not None]
    for s, c in held:
        if c.name == wanted:
            return s
    raise IllegalMoveError(f"{wanted} is not in your hand",
                           hint="your hand: " + (", ".join(c.name for _, c in held) or "empty"))


def in_town(state: State, seat: str, name: str) -> Resident:
    """Return the Resident called ``name`` in ``seat``'s Town.

    :raises IllegalMoveError: no such Resident.
    """
    town = effects.town_cards(state, cat(state), seat)
    wanted = Catalogue.resolve(name, list(cat(state).cards))
    for r, c in town:
        if c.name == wanted:
            return r
    raise IllegalMoveError(f"{wanted} is not in {seat}'s Town",
                           hint=f"{seat}'s Town: " + (", ".join(c.name for _, c in town) or "empty"))


def player(state: State, name: str) -> str:
    """Return the seated player ``name`` means.

    :raises UnknownNameError: no such player.
    """
    return Catalogue.resolve(name, state.names(), "player")


# -- starting -----------------------------------------------------------------------------

def _deal(state: State) -> str:
    """Deal 4 cards to each player (one at a time, in seat order) and start the first turn."""
    for _ in range(HAND_SIZE):
        for s in state.people:
            cards.deal(state.deck, s.name, 1)
    state.round, state.phase = 1, "draw"
    state.mover = state.first or state.seats[0]
    _begin_turn(state)
    return f"{HAND_SIZE} cards dealt to each player; {state.mover} begins"


# -- automatic steps ----------------------------------------------------------------------

def pay_owed(state: State) -> list[str]:
    """Discard owed cards from the draw pile and make owed draws, in order, while cards are available."""
    out: list[str] = []
    while state.mills or state.owed:
        if not _card_available(state, out):
            if not cards.ready(state.deck) or not discards_up(state):
                return out
            out.append("no card left to draw or discard: skipped")
            state.mills, state.owed = 0, []
            break
        if state.mills:
            cards.mill(state.deck)
            state.mills -= 1
        else:
            who, why = state.owed.pop(0)
            cards.draw(state.deck, who)
            out.append(f"{who} draws 1 ({why})")
    return out


def discards_up(state: State) -> bool:
    """Return True once every discard but the top one is face up (they can be reshuffled)."""
    return all(cards.card(state.deck, i) is not None for i in cards.pile(state.deck, cards.DISCARD)[1:])


def can_draw(state: State) -> bool:
    """Return True if the draw pile is shuffled in and holds a card."""
    return cards.ready(state.deck) and cards.size(state.deck, cards.DRAW) > 0


def _card_available(state: State, out: list[str]) -> bool:
    """Return True if the draw pile has a card now; rebuild it from the discards when empty."""
    if not cards.ready(state.deck):
        return False
    if cards.size(state.deck, cards.DRAW):
        return True
    if cards.size(state.deck, cards.DISCARD) > 1 and discards_up(state):
        n = cards.size(state.deck, cards.DISCARD) - 1
        cards.reshuffle(state.deck)
        out.append(f"draw pile rebuilt from {n} discards (the top discard stays)")
        return cards.ready(state.deck) and cards.size(state.deck, cards.DRAW) > 0
    return False


# -- turns ----------------------------------------------------------------------------------

def _begin_turn(state: State) -> None:
    state.seat(state.mover).turns += 1
    state.phase, state.peeked, state.redrawn = "draw", None, False
    state.builds, state.requires, state.extra_penalty, state.skip_attack, state.built = 0, "", (), False, 0


def _draw_possible(state: State) -> bool:
    return cards.size(state.deck, cards.DRAW) > 0 or cards.size(state.deck, cards.DISCARD) > 1 \
        or not cards.ready(state.deck)


def _owed_to(state: State, seat: str) -> int:
    return sum(1 for who, _ in state.owed if who == seat)


def end_turn(state: State) -> list[str]:
    """Pass the turn to the next seat (a new round after the last seat)."""
    names = state.names()
    i = (names.index(state.mover) + 1) % len(names)
    if names[i] == (state.first or names[0]):
        state.round += 1
    state.mover = names[i]
    _begin_turn(state)
    return [] if state.emptied else [f"{state.mover}'s turn"]


def check_emptied(state: State, seat: str) -> None:
    """Note that the game ends if ``seat`` has the turn and an empty hand (nothing owed to it)."""
    if seat == state.mover and not hand_size(state, seat) and not _owed_to(state, seat):
        state.emptied = seat


# -- the draw phase -------------------------------------------------------------------------

def do_draw(state: State, seat: str) -> str:
    """Draw 1 card (only the player sees it) and set it aside for ``keep`` or ``redraw``.

    :raises IllegalMoveError: not the Draw Phase, or the draw pile is still being shuffled.
    """
    _need_phase(state, seat, "draw")
    out: list[str] = []
    if not _card_available(state, out):
        raise IllegalMoveError("the draw pile is still being shuffled",
                               hint="waiting on " + ", ".join(cards.waiting_on(state.deck)))
    state.peeked = cards.peek(state.deck, seat)
    state.phase = "drawn"
    return "; ".join([*out, "draws a card"])


def do_keep(state: State, seat: str) -> str:
    """Keep the drawn card; the next card of the draw pile is discarded face up."""
    _need_drawn(state, seat)
    cards.keep(state.deck, seat, state.peeked)
    state.peeked, state.phase = None, "build"
    state.mills += 1
    return "keeps it; the next card of the draw pile is discarded"


def do_redraw(state: State, seat: str) -> str:
    """Discard the drawn card face up and draw another, which must be kept."""
    _need_drawn(state, seat)
    c = card_at(state, state.peeked, seat)
    cards.discard_own(state.deck, seat, state.peeked)
    state.peeked, state.phase, state.redrawn = None, "build", True
    state.owed.append([seat, "redraw"])
    return f"discards {c.name} and draws again"


def _need_drawn(state: State, seat: str) -> None:
    _need_phase(state, seat, "drawn")
    if card_at(state, state.peeked, seat) is None and not _unlocked_in_replay(state, state.peeked, seat):
        raise IllegalMoveError("you cannot see your drawn card yet",
                               hint="waiting on " + ", ".join(cards.waiting_on(state.deck)) + " to unlock it")


def _unlocked_in_replay(state: State, slot: int, seat: str) -> bool:
    """Return True if, replaying the log before the seeds are revealed (the hand-edit check: the deck reads
    face-up cards from the document, its :attr:`oracle`), every other seat has unlocked ``slot`` for ``seat``.

    Such a replay cannot read a card that stays hidden in a hand, but knows that its owner's pbd could.
    """
    deck = state.deck
    if deck is None or getattr(deck, "oracle", None) is None or slot not in deck.slots:
        return False
    return set(deck.seats) - {seat} <= set(deck.slots[slot].opened)


def _need_phase(state: State, seat: str, *phases: str) -> None:
    if state.phase == "over":
        raise IllegalMoveError(f"the game is over: {state.result}")
    if state.mover != seat:
        raise IllegalMoveError(f"it is not your turn to move: {whose_move(state)}")
    if state.battle is not None:
        raise IllegalMoveError(f"the battle is not over: {whose_move(state)}; 'pbd legal' lists what you may do now")
    if state.phase not in phases:
        raise IllegalMoveError(f"that is a move of the {' or '.join(phases)} phase; now: {phase_words(state)}")


# -- the build phase ---------------------------------------------------------------------

def do_build(state: State, seat: str, name: str) -> str:
    """Build a card from hand into the Town; resolve its Build effects and penalty.

    :raises IllegalMoveError: not the Build Phase, no build left, the requirement is not met.
    """
    _need_phase(state, seat, "build")
    if state.owed and state.owed[0][0] == seat and not hand(state, seat):
        raise IllegalMoveError("your card is still on its way", hint="waiting on the table")
    extra = state.built > 0
    if extra and state.builds <= 0:
        raise IllegalMoveError("you have built this turn; no effect allows another build")
    slot = in_hand(state, seat, name)
    c = card_at(state, slot, seat)
    if extra and state.requires and not c.matches(state.requires):
        raise IllegalMoveError(f"this extra build must be {_spec(state.requires)}; {c.name} is not")
    cards.discard_own(state.deck, seat, slot, to=cards.town(state.deck, seat))
    resident = Resident(slot, c.name, penalty=bool(c.penalty))
    state.seat(seat).town.append(resident)
    notes = _penalty_notes(state, c, resident, extra)
    state.built += 1
    if extra:
        state.builds -= 1
    notes += _build_effects(state, seat, c)
    check_emptied(state, seat)
    text = f"builds {c.name}" + (" (extra build)" if extra else "") + "".join(f"; {n}" for n in notes)
    if not state.emptied and state.builds <= 0:
        text += "".join(f"; {n}" for n in enter_attack(state))
    return text


def _spec(spec: str) -> str:
    return f"a {spec[4:]} card" if spec.lower().startswith("tag:") else spec


def _penalty_notes(state: State, c: Card, resident: Resident, extra: bool) -> list[str]:
    notes = []
    for key, value in c.penalty:
        if key == "skip_attack":
            state.skip_attack = True
            notes.append("penalty: no Attack Phase this turn")
        else:
            notes.append(f"penalty {value:+} {key.upper()}")
    if extra:
        for key, value in state.extra_penalty:
            if key == "skip_attack":
                state.skip_attack = True
                notes.append("extra build penalty: no Attack Phase this turn")
            elif key == "tp":
                resident.extra_tp += value
                notes.append(f"extra build penalty {value:+} TP")
            else:
                resident.adjust_ap += value
                notes.append(f"extra build penalty {value:+} AP")
    return notes


def _build_effects(state: State, seat: str, c: Card) -> list[str]:
    notes = []
    for e in c.effects_of("build"):
        if e.do == "extra_build":
            state.builds += e.count
            state.requires, state.extra_penalty = e.requires, e.penalty
            notes.append(f"may build {e.count} more" + (f" ({_spec(e.requires)})" if e.requires else ""))
        elif e.do == "draw":
            state.owed += [[seat, f"Build effect of {c.name}"]] * e.count
        elif e.do == "mill":
            state.mills += e.count
            notes.append(f"{e.count} card(s) of the draw pile discarded")
        elif e.do == "adjust":
            notes.append(f"{c.name}: {e.text} — apply it with 'adjust'")
    return notes


def do_done(state: State, seat: str) -> str:
    """Stop building (extra builds are optional) and go on to the Attack Phase."""
    _need_phase(state, seat, "build")
    if not state.built:
        raise IllegalMoveError("build a card first: every Build Phase places 1 card in your Town")
    return "; ".join(["stops building", *enter_attack(state)])


def enter_attack(state: State) -> list[str]:
    """Start the Attack Phase, or skip it (first round, a penalty, nobody to attack): end the turn."""
    state.builds = 0
    seat = state.seat(state.mover)
    why = ("first round: no attack" if seat.turns == 1 else "no Attack Phase (penalty)" if state.skip_attack
           else "" if targets(state, seat.name) else "nobody can be attacked")
    if not why:
        state.phase = "attack"
        return []
    return [why, *end_turn(state)]


def targets(state: State, seat: str) -> list[tuple[str, str]]:
    """Return ``(opponent, source)`` pairs ``seat`` can attack now (hand and/or town)."""
    out = []
    for s in state.people:
        if s.name == seat:
            continue
        if hand_size(state, seat) and hand_size(state, s.name):
            out.append((s.name, "hand"))
        if state.seat(seat).town and (s.town or hand_size(state, s.name)):
            out.append((s.name, "town"))
    return out


# -- Hand effects and adjustments ----------------------------------------------------------

def do_use_hand(state: State, seat: str, name: str, target: str) -> str:
    """Use a Hand effect: the card is discarded for its effect (draw for an opponent, mill).

    :raises IllegalMoveError: outside your turn or in a battle; the card has no such effect.
    """
    _need_phase(state, seat, "draw", "build", "attack")
    slot = in_hand(state, seat, name)
    c = card_at(state, slot, seat)
    usable = [e for e in c.effects_of("hand") if e.do in ("draw", "mill")]
    if not usable:
        raise IllegalMoveError(f"{c.name} has no Hand effect to use this way",
                               hint="a Hand swap is written 'swap CARD with RESIDENT'")
    e = usable[0]
    if e.do == "draw" and e.target == "opponent":
        if not target:
            raise IllegalMoveError(f"say which opponent: 'use {c.name} on NAME'")
        who = player(state, target)
        if who == seat:
            raise IllegalMoveError(f"{c.name}'s effect targets an opponent, not you")
    else:
        who = seat
    cards.discard_own(state.deck, seat, slot)
    if e.do == "draw":
        state.owed += [[who, f"Hand effect of {c.name}"]] * e.count
        text = f"uses {c.name}: {who} draws {e.count}"
    else:
        state.mills += e.count
        text = f"uses {c.name}: {e.count} card(s) of the draw pile discarded"
    check_emptied(state, seat)
    return text


def do_swap_hand(state: State, seat: str, name: str, resident: str) -> str:
    """Use a Hand swap: the card goes into the Town (no Build effect, no penalty), the Resident to hand."""
    _need_phase(state, seat, "draw", "build", "attack")
    slot = in_hand(state, seat, name)
    c = card_at(state, slot, seat)
    if not c.effects_of("hand", "swap"):
        raise IllegalMoveError(f"{c.name} has no Hand swap effect")
    r = in_town(state, seat, resident)
    swap_in(state, seat, slot, r)
    return f"swaps {c.name} (from hand) with {r.name} (to hand)"


def swap_in(state: State, seat: str, slot: int, r: Resident) -> None:
    """Swap hand card ``slot`` into the Town in ``r``'s place; ``r`` goes to the hand."""
    name = card_at(state, slot, seat).name
    town = state.seat(seat).town
    i = town.index(r)
    cards.to_hand(state.deck, r.slot, seat)
    cards.discard_own(state.deck, seat, slot, to=cards.town(state.deck, seat))
    town[i] = Resident(slot, name)


def do_adjust(state: State, seat: str, move: Move) -> str:
    """Apply a logged adjustment to one of your own Residents (a text the vocabulary cannot express).

    :raises IllegalMoveError: not your Resident, or the game is over.
    """
    if state.phase == "over":
        raise IllegalMoveError(f"the game is over: {state.result}")
    r = in_town(state, seat, move.card)
    if move.field == "ap":
        r.adjust_ap += move.amount
    else:
        r.adjust_tp += move.amount
    reason = f": {move.text}" if move.text else ""
    return f"adjusts {r.name} {move.field.upper()} {move.amount:+}{reason}"


# -- what is asked of whom ------------------------------------------------------------------

def decisions(state: State) -> list[Decision]:
    """Return the open decisions (derived from the battle): who must answer what."""
    b = state.battle
    if b is None:
        return []
    if b.stage == "defend":
        where = "a card from hand" if b.source == "hand" or not state.seat(b.defender).town else "a Resident"
        return [Decision(b.defender, f"defend against {b.attacker} with {where}", [], b.origin)]
    if b.stage == "effects" and b.windows and b.windows[0] == b.defender:
        return [Decision(b.defender, "use an optional effect in the battle, or pass", [], b.origin)]
    return []


def whose_move(state: State) -> str:
    """Return who is to move, in words."""
    if state.phase == "over":
        return f"the game is over: {state.result}"
    b = state.battle
    if b and b.stage == "reveal":
        return f"waiting on {b.attacker} to flip their face-down card"
    if d := decisions(state):
        return f"waiting on {d[0].seat}: {d[0].prompt}"
    if state.phase in ("joining", "shuffling"):
        return phase_words(state)
    return f"{state.mover}'s turn, {phase_words(state)}"


def phase_words(state: State) -> str:
    """Return the phase in words."""
    shuffling = "the deck is being shuffled"
    if state.first_random and cards.ready(state.deck):
        shuffling = f"the first player is drawn by lot on {state.seats[0]}'s next pbd command"
    return {"joining": f"waiting for {state.players - len(state.seats)} more player(s) to join",
            "shuffling": shuffling, "draw": "Draw Phase", "drawn": "Draw Phase (keep or redraw)",
            "build": "Build Phase", "attack": "Attack Phase", "battle": "battle", "over": "game over"}[state.phase]
