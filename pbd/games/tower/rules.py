"""The Tower's rules as small pure functions (no I/O): geometry, placing, moving, effects, duels.

Rule readings (the rulebook leaves these open; the README's "The Tower" section repeats them):

* The cards are one shared deck, face down (the bundled deck of 40: kinds and counts in
  ``decks/tower/deck.toml``; or the creator's own, ``--deck FILE``), shuffled in by every seat as it joins; each seat is dealt
  one card when the match starts.  No one sees a card before it is theirs: with three or
  more seats, a first card waits on the unlocks of seats that have not had a command yet,
  so the first players may roll their first turn without it.
* A turn is: optionally place one tile card from your hand, then roll one die and move
  that many tiles along the path.  The turn's draw comes at its end: the top card of the
  shared pile is dealt to you face down, and the other seats' pbd unlock it on their next
  commands, so it is yours to read when your next turn comes (no turn waits for a card).
  ``draw`` at the start of a turn is accepted and changes nothing.
* When the draw pile is empty there is no draw; placed cards stay where they are, and
  played Swords and Shields and discarded cards are out of the game.
* You hold at most 5 cards: when the draw gives you a 6th, on your next turn you must
  discard one of your choice (or place one) before you roll; the discarded card is shown
  in the document and the log.
* A tile card goes on an empty tile: not the start, not the treasure, not past the treasure,
  not under a token, not on another card.  A Rope needs a tile above it (in play), a
  Trapdoor a tile below, a Guard a tile behind.  Swords and Shields are never placed.
* A placement that would make a token go round for ever (a Torch whose next tile has a
  Guard, a Rope under a Trapdoor, or any longer cycle of Torches, Guards, Ropes and
  Trapdoors) is refused, and the cycle is named.
* Every tile a token comes to — after a roll, a card's move or a duel — applies its card;
  so chains mix kinds (a Torch onto a Rope goes on up).  Passing over a tile does nothing.
* A token moved by an Arcane Trap stops at the other trap: that trap does not fire again.
* Arcane Trap: roll; 6 goes to the next Arcane Trap along the path, 1 or 2 to the previous
  one, if there is one; 3-5 stay.  A Shield, played after a 2 is seen, keeps you there
  (only a 1 sends you back).
* Magic Carpet: roll again and move that many tiles on from the carpet.
* Spider Web: on your next turn you may place a card, but you do not roll; a Sword played
  on that turn (``play Sword``) frees you and you roll as usual.  ``stay`` ends the
  webbed turn.
* Reaching the treasure: any move reaching or passing it wins; with ``-O exact-finish``
  the excess walks back from the treasure (``-O exact-finish=stay``: the token does not
  move); the tile it ends on then acts.
* Duels: when the mover's move (the roll, a Magic Carpet's roll, and the cards they lead
  to) comes to rest on a tile with another token (not the start tile), the two duel, after
  the tile's card acted; with several tokens there, the first in seat order.  Tokens moved
  by a duel apply the card they land on but start no other duel: at most one duel a turn
  (otherwise a crowd of tokens around a Torch could duel for ever).  In order the attacker (the token that came) may play a Sword, the defender may
  answer it with a Shield, the defender may play a Sword, the attacker may answer it with
  a Shield; each is answered ``play Sword`` / ``play Shield`` / ``pass``.  After the
  attacker's Sword the defender is asked once, both choices at a time: ``play Shield``,
  ``play Sword``, ``play Shield and Sword`` or ``pass``.
  Each duelist rolls one die, plus one more for an unanswered Sword, and adds them; ties
  are rolled again (Swords still count).  The winner moves one tile forward, the loser one
  tile back (not below tile 1); the winner's new tile acts first, then the loser's.
* A moment that asks another seat than the mover (the defender's Shield or Sword, a Guard
  or an Arcane Trap's 2 met by a token a duel moved) is a pending decision that seat
  answers on its next command (``Waiting on:``); the mover's own moments (a Guard, an
  Arcane Trap's 2, their Sword and Shield as attacker) are asked of the mover as its next
  move (``Asking:``).  Both are asked whether or not the seat holds the card, so the
  board never tells what is in a hand.
* Every die is rolled by the pbd of the player whose command it is (a duel's two dice too):
  the roll comes from that player's committed seed and the others' published chain values,
  so no one chooses it, and ``pbd audit`` re-derives it.
* A die that follows a choice in the same turn waits on a fresh random value (a chain value
  another player's pbd publishes after the choice), so no one can foresee it by trying the
  choice on a copy of the document: the move roll after a card is placed, a card
  discarded at the hand limit or a Sword played against a Spider Web (the mover rolls with
  ``roll`` once it is in), a duel's dice after its last Sword or Shield answer, and a
  Magic Carpet's or an Arcane Trap's die reached by passing on a Guard (the answerer's pbd
  rolls these itself, ``rolls the dice that waited``, on its next command or at once under
  ``pbd watch``).
* A chain stops after 200 card effects in one command (it cannot happen on a board without
  loops; it keeps a hand-edited board from running for ever).
"""

from __future__ import annotations



from pbd.errors import IllegalMoveError
from pbd.games.tower import shared
from pbd.games.tower.state import HAND_LIMIT, TILE_CARDS, Duel, Layout, State, Task
from pbd.record import Record
from pbd.regex import pattern
from pbd.table.decisions import Decision

MAX_EFFECTS = 200
MAX_TIES = 100
MOVERS = ("Torch", "Guard", "Rope", "Trapdoor")
#: log entries the table writes for a seat's deck work (never a move that asks a question)
TABLE_LINES = ("new match for", "joined", "locked and shuffled", "published", "unlocked", "reveal")


class Ctx(Record):
    """One move's work: the state, the dice, whose command it is, and what happened."""

    state: State
    chance: object
    actor: str
    notes: list[str]
    effects: int
    #: the log entry of the choice this command's dice follow, once a fresh value came after it (see :func:`die`)
    after: int | None
    #: this command answers a question (a choice): a die it would roll waits (see :func:`wait_for_dice`)
    answering: bool
    #: the resolving stopped at a die that waits on a fresh random value
    waits: bool

    FIELDS = ("state", "chance", "actor", "notes", "effects", "after", "answering", "waits")

    def __init__(self, state: State, chance: object, actor: str, notes: list[str] | None = None, effects: int = 0,
                 after: int | None = None, answering: bool = False, waits: bool = False):
        self.state = state
        self.chance = chance
        self.actor = actor
        self.notes = [] if notes is None else notes
        self.effects = effects
        self.after = after
        self.answering = answering
        self.waits = waits

    def note(self, text: str) -> None:
        """Add a phrase to the log entry being written."""
        self.notes.append(text)

    def text(self) -> str:
        """Return what happened, as the log entry says it."""
        return "; ".join(self.notes)


# -- geometry ---------------------------------------------------------------------------

def floor_of(layout: Layout, tile: int) -> int:
    """Return the floor (1 = bottom) of ``tile``."""
    return (tile - 1) // layout.width + 1


def column(layout: Layout, tile: int) -> int:
    """Return the column (0 = left) of ``tile``, following its floor's direction."""
    i = (tile - 1) % layout.width
    return i if layout.directions[floor_of(layout, tile) - 1] == "right" else layout.width - 1 - i


def tile_at(layout: Layout, floor: int, col: int) -> int | None:
    """Return the tile in column ``col`` of ``floor`` (None off the tower)."""
    if not 1 <= floor <= layout.floors or not 0 <= col < layout.width:
        return None
    i = col if layout.directions[floor - 1] == "right" else layout.width - 1 - col
    return (floor - 1) * layout.width + i + 1


def above(layout: Layout, tile: int) -> int | None:
    """Return the tile directly above ``tile`` (None on the top floor)."""
    return tile_at(layout, floor_of(layout, tile) + 1, column(layout, tile))


def below(layout: Layout, tile: int) -> int | None:
    """Return the tile directly below ``tile`` (None on the bottom floor)."""
    return tile_at(layout, floor_of(layout, tile) - 1, column(layout, tile))


def row(layout: Layout, floor: int) -> list[int]:
    """Return the tiles of ``floor`` from left to right."""
    return [tile_at(layout, floor, c) for c in range(layout.width)]


def in_play(layout: Layout, tile: int | None) -> bool:
    """Return True for a tile a token can stand on (1 up to the treasure)."""
    return tile is not None and 1 <= tile <= layout.treasure


# -- placing a card ----------------------------------------------------------------------

def step_of(state: State, tile: int) -> int | None:
    """Return where the card on ``tile`` sends a token without a roll or a decision (None: it stays).

    Torch: the next tile; Guard: the tile behind; Rope: the tile above; Trapdoor: the tile below.
    """
    card, lay = state.card_at(tile), state.layout
    if card == "Torch":
        return tile + 1
    if card == "Guard":
        return tile - 1
    if card == "Rope":
        return above(lay, tile)
    if card == "Trapdoor":
        return below(lay, tile)
    return None


def loop_from(state: State, tile: int) -> list[int] | None:
    """Return the cycle of tiles a token landing on ``tile`` would go round for ever, or None."""
    path, seen = [tile], {tile}
    current = tile
    for _ in range(state.layout.tiles + 1):
        nxt = step_of(state, current)
        if nxt is None or not in_play(state.layout, nxt) or nxt == state.layout.treasure:
            return None
        if nxt in seen:
            return path[path.index(nxt):] + [nxt]
        path.append(nxt)
        seen.add(nxt)
        current = nxt
    return None


def describe_loop(state: State, cycle: list[int]) -> str:
    """Return a cycle as ``17 (Torch) → 18 (Guard) → 17``."""
    return " → ".join(f"{t} ({state.card_at(t)})" for t in cycle[:-1]) + f" → {cycle[-1]}"


def placement_problem(state: State, kind: str, tile: int) -> str | None:
    """Return why ``kind`` cannot go on ``tile`` (None: it can).  Nothing is changed."""
    lay = state.layout
    if kind not in TILE_CARDS:
        return f"a {kind} is not placed on a tile: it is played in a duel" + (
            " or against a Spider Web" if kind == "Sword" else ", against a Guard or an Arcane Trap's 2")
    if not in_play(lay, tile):
        return f"tile {tile} is not on the path (tiles 1 to {lay.treasure})"
    if tile == lay.start:
        return f"tile {tile} is the start tile; no card goes there"
    if tile == lay.treasure:
        return f"tile {tile} is the treasure; no card goes there"
    if state.cards.get(tile):
        return f"tile {tile} already has a {state.card_at(tile)}; no card can be played on top of another"
    on = state.on_tile(tile)
    if on:
        return f"{' and '.join(on)} {'is' if len(on) == 1 else 'are'} on tile {tile}; a card goes on an empty tile"
    if kind == "Rope" and not in_play(lay, above(lay, tile)):
        return f"a Rope on {tile} would lead nowhere: there is no tile above it in play"
    if kind == "Trapdoor" and below(lay, tile) is None:
        return f"a Trapdoor on {tile} would lead nowhere: {tile} is on the bottom floor"
    if kind == "Guard" and tile == 1:
        return "a Guard on tile 1 would send tokens back off the tower"
    state.cards[tile] = [kind]
    try:
        if cycle := loop_from(state, tile):
            return f"a {kind} on {tile} would make an endless loop: {describe_loop(state, cycle)}"
    finally:
        del state.cards[tile]
    return None


def place(ctx: Ctx, kind: str, tile: int) -> str:
    """Place a tile card from the mover's hand face up (once per turn, before the roll).

    :raises IllegalMoveError: not the time, not in hand, or the tile refuses it (the reason).
    """
    s = ctx.state
    _need_main(s, "play a card")
    if s.placed:
        raise IllegalMoveError("you have already played a card this turn (one card a turn)")
    reason = placement_problem(s, kind, tile)
    if reason:
        raise IllegalMoveError(reason)
    shared.place(s.deck, s.mover, kind, tile)
    s.cards[tile] = [kind]
    s.placed = True
    return f"plays {kind} on {tile}"


# -- the turn ------------------------------------------------------------------------------

def _need_main(s: State, what: str) -> None:
    if s.ask:
        raise IllegalMoveError(f"answer first: {prompt(s, s.mover, s.ask)}")
    if s.step != "main":
        raise IllegalMoveError(f"you cannot {what} now: the roll is being resolved")


def hand_size(s: State, seat: str) -> int:
    """Return how many cards ``seat`` holds (public: the deck's hand); on a board typed without a match
    (no deck to count), what the board shows."""
    return shared.hand_size(s.deck, seat) if s.deck is not None else s.shown.get(seat, 0)


def begin_turn(s: State) -> None:
    """Begin the next turn: may place a card, then roll."""
    s.round += 1
    s.step, s.placed, s.dueled = "main", False, False


def end_turn(ctx: Ctx) -> None:
    """End the mover's turn with its draw: the top card of the shared pile, face down, to the mover."""
    s = ctx.state
    seat = s.mover
    if shared.draw(s.deck, seat) is None:
        ctx.note("the draw pile is empty: no draw")
    else:
        n = hand_size(s, seat)
        ctx.note(f"{seat} draws a card for the next turn (hand {n}" + (
            f", over the limit: discard one next turn" if n > HAND_LIMIT else "") + ")")
    s.step = "done"


def draw(ctx: Ctx) -> str:
    """Accept ``draw`` at the start of a turn: the turn's card came at the end of the last one.

    :raises IllegalMoveError: not the start of the turn.
    """
    s = ctx.state
    _need_main(s, "draw")
    if s.placed:
        raise IllegalMoveError("a turn's draw comes at its end (after the roll), not after a card is played")
    return f"no draw now: {s.mover}'s card for this turn came at the end of the last one (hand {hand_size(s, s.mover)})"


def discard(ctx: Ctx, kind: str) -> str:
    """Discard a card of your choice at the hand limit (face up, in the log).

    :raises IllegalMoveError: not over the limit, or not in hand.
    """
    s = ctx.state
    _need_main(s, "discard")
    n = hand_size(s, s.mover)
    if n <= HAND_LIMIT:
        raise IllegalMoveError(f"you hold {n} cards; you discard only when over {HAND_LIMIT}")
    shared.throw_away(s.deck, s.mover, kind)
    s.discarded.append((s.mover, kind))
    return f"discards {kind} (hand limit {HAND_LIMIT})"


def over_limit(s: State, seat: str) -> bool:
    """Return True if ``seat`` must discard before moving (over the limit, with a card it can read)."""
    return hand_size(s, seat) > HAND_LIMIT and any(shared.hand(s.deck, seat))


def _ready_to_move(s: State) -> None:
    if over_limit(s, s.mover):
        raise IllegalMoveError(f"you hold {hand_size(s, s.mover)} cards: discard one (or play one) first; "
                               f"the limit is {HAND_LIMIT}")


def roll(ctx: Ctx) -> str:
    """Roll one die and move; resolve everything that follows.

    :raises IllegalMoveError: not the time, a Spider Web holds you, or over the hand limit.
    """
    s = ctx.state
    seat = s.mover
    _need_main(s, "roll")
    if seat in s.webbed:
        raise IllegalMoveError(f"a Spider Web holds {seat} this turn: 'stay', or 'play Sword' to cut free")
    _ready_to_move(s)
    chosen = choice_entry(s)
    k = ctx.chance.roll_after(ctx.actor, chosen, 6) if chosen else die(ctx)
    start = s.tile_of(seat)
    s.tokens[seat] = advance(s, start, k)
    s.step = "resolve"
    ctx.note(f"rolls {k}: {start} → {s.tokens[seat]}" if s.tokens[seat] != start
             else f"rolls {k}: overshoots, stays on {start}")
    if s.tokens[seat] != start:
        s.queue.insert(0, Task("arrive", seat))
    run(ctx)
    return ctx.text()


def stay(ctx: Ctx) -> str:
    """End a webbed turn without moving.

    :raises IllegalMoveError: no web holds you, or over the hand limit.
    """
    s = ctx.state
    seat = s.mover
    _need_main(s, "stay")
    if seat not in s.webbed:
        raise IllegalMoveError("no Spider Web holds you: roll")
    _ready_to_move(s)
    s.webbed.remove(seat)
    ctx.note(f"stays on {s.tile_of(seat)} (Spider Web)")
    end_turn(ctx)
    return ctx.text()


def cut_web(ctx: Ctx) -> str:
    """Play a Sword against the Spider Web holding the mover (then roll as usual).

    :raises IllegalMoveError: no web holds you, or no Sword in hand.
    """
    s = ctx.state
    seat = s.mover
    _need_main(s, "play a Sword")
    if seat not in s.webbed:
        raise IllegalMoveError("a Sword is played in a duel or against a Spider Web holding you; neither is "
                               "the case now")
    shared.spend(s.deck, seat, "Sword")
    s.spent.append((seat, "Sword"))
    s.webbed.remove(seat)
    return "plays a Sword: cuts the Spider Web"


def choice_entry(s: State) -> int | None:
    """Return the log entry of the mover's last choice this turn before its move roll, if any.

    A choice is a card placed, a card discarded at the hand limit, or a Sword played against a
    Spider Web.  That roll must not be foreseeable when the choice is made, so it waits on a
    chain value another seat publishes after this entry (:meth:`pbd.games.base.Chance.roll_after`).
    A roll with no choice before it this turn is rolled at once (reading: nothing was chosen, so
    nothing could be chosen knowing it).  The turn's entries are the mover's own moves since
    another seat's move (the seats' table work between them is skipped).
    """
    if s.step != "main" or s.ask or s.decisions:
        return None
    from pbd.table.game import CHAIN_DUTY, ROLL_DUTY

    skip = (*TABLE_LINES, CHAIN_DUTY, ROLL_DUTY, "first player by lot")
    for e in reversed(s.meta.log):
        if e.text.startswith(skip):
            continue
        done = e.text.split(" — ", 1)[-1]
        if e.player != s.mover or not _BEFORE_ROLL.match(done):
            return None
        if not done.startswith("no draw now"):
            return e.number
    return None


#: what the mover's moves of a turn before its roll did, as logged (all but the first choose something)
_BEFORE_ROLL = pattern(r"^(?:no draw now: |plays [^;]+ on \d+$|discards \S.* \(hand limit \d+\)$"
                       r"|plays a Sword: cuts the Spider Web$)")



def advance(s: State, tile: int, k: int) -> int:
    """Return the tile ``k`` tiles on from ``tile``, by the match's finish rule."""
    dest, goal = tile + k, s.layout.treasure
    if dest <= goal or s.finish == "reach":
        return min(dest, goal)
    if s.finish == "bounce":
        return max(1, goal - (dest - goal))
    return tile


def die(ctx: Ctx) -> int:
    """Roll one fair six-sided die through the table's randomness (by the command's player).

    A die that waited on a fresh value (``ctx.after``) is rolled with
    :meth:`~pbd.games.base.Chance.roll_after`, which refuses it if no such value is in.
    """
    if ctx.after is not None:
        return ctx.chance.roll_after(ctx.actor, ctx.after, 6)
    return ctx.chance.roll(ctx.actor, 6)


def wait_for_dice(ctx: Ctx, what: str) -> None:
    """Stop resolving at a die that follows a choice made in this command (an answer).

    Rolled now, it could be foreseen by the one choosing (copy the document, try the answer on
    the copy, then choose): it waits on a chain value another seat publishes after this entry,
    then the chooser's pbd rolls it (:func:`roll_waited`).
    """
    ctx.waits = True
    ctx.note(f"{what} wait{'s' if 'dice' not in what else ''} on a fresh random value from another player")


def dice_wait(s: State) -> bool:
    """Return True if resolving stopped at a die that waits on a fresh value (no question open, work left)."""
    return (s.started and s.step == "resolve" and not s.decisions and not s.ask and not s.result
            and (s.duel is not None or bool(s.queue)))


def last_choice(s: State):
    """Return the log entry of the last move (not a seat's table work): the choice a waiting die follows."""
    from pbd.table.game import CHAIN_DUTY, ROLL_DUTY

    skip = (*TABLE_LINES, CHAIN_DUTY, ROLL_DUTY, "first player by lot")
    return next((e for e in reversed(s.meta.log) if not e.text.startswith(skip)), None)


def roll_waited(ctx: Ctx) -> str:
    """Roll the dice that waited (``ctx.after`` names the choice they follow) and go on resolving."""
    run(ctx)
    return ctx.text()


# -- resolving what a token comes to ----------------------------------------------------------

def run(ctx: Ctx) -> None:
    """Resolve waiting tokens and duels until a question is asked, someone wins, or all is done."""
    s = ctx.state
    while not s.decisions and not s.ask and not s.result and not ctx.waits:
        if s.duel:
            duel_step(ctx)
        elif s.queue:
            task = s.queue.pop(0)
            (arrive if task.kind == "arrive" else rest)(ctx, task.seat)
        else:
            break
    if s.result:
        s.queue, s.duel, s.decisions, s.ask, s.step, s.placed, s.dueled = [], None, [], "", "over", False, False
    elif not s.decisions and not s.ask and not ctx.waits and s.step == "resolve":
        end_turn(ctx)


def _go(ctx: Ctx, seat: str, tile: int, why: str, kind: str = "arrive") -> None:
    ctx.note(f"{why}: {seat} → {tile}")
    ctx.state.tokens[seat] = tile
    ctx.state.queue.insert(0, Task(kind, seat))


def arrive(ctx: Ctx, seat: str) -> None:
    """Apply the card of the tile ``seat``'s token came to (a chain goes on through the queue)."""
    s = ctx.state
    t = s.tile_of(seat)
    if t == s.layout.treasure:
        s.result = f"{seat} reached the treasure and wins"
        ctx.note(f"{seat} reaches the treasure and wins")
        return
    ctx.effects += 1
    card = s.card_at(t)
    if card and ctx.effects > MAX_EFFECTS:
        ctx.note(f"the chain stops after {MAX_EFFECTS} card effects")
        card = None
    if card in ("Torch", "Rope", "Trapdoor"):
        _go(ctx, seat, step_of(s, t), f"{card} on {t}")
    elif card == "Guard":
        ask(ctx, seat, "guard")
    elif card in ("Magic Carpet", "Arcane Trap") and ctx.answering and ctx.after is None:
        s.queue.insert(0, Task("arrive", seat))       # its die follows the answer: it waits
        wait_for_dice(ctx, f"the {card}'s die on {t}")
    elif card == "Magic Carpet":
        k = die(ctx)
        dest = advance(s, t, k)
        if dest == t:
            ctx.note(f"Magic Carpet on {t}: rolls {k}, overshoots, stays")
            rest(ctx, seat)
        else:
            _go(ctx, seat, dest, f"Magic Carpet on {t}: rolls {k}")
    elif card == "Spider Web":
        if seat not in s.webbed:
            s.webbed.append(seat)
        ctx.note(f"Spider Web on {t}: {seat} misses the next move")
        rest(ctx, seat)
    elif card == "Arcane Trap":
        arcane(ctx, seat)
    else:
        rest(ctx, seat)


def traps(s: State) -> list[int]:
    """Return the tiles with an Arcane Trap, along the path."""
    return sorted(t for t in s.cards if s.card_at(t) == "Arcane Trap")


def next_trap(s: State, tile: int) -> int | None:
    """Return the next Arcane Trap after ``tile`` along the path (None if none)."""
    return next((t for t in traps(s) if t > tile), None)


def previous_trap(s: State, tile: int) -> int | None:
    """Return the previous Arcane Trap before ``tile`` along the path (None if none)."""
    return next((t for t in reversed(traps(s)) if t < tile), None)


def arcane(ctx: Ctx, seat: str) -> None:
    """Roll for an Arcane Trap: 6 → next trap, 1-2 → previous trap (a 2 may be Shielded)."""
    s = ctx.state
    t = s.tile_of(seat)
    k = die(ctx)
    nxt, prev = next_trap(s, t), previous_trap(s, t)
    if k == 6 and nxt:
        _go(ctx, seat, nxt, f"Arcane Trap on {t}: rolls 6, to the next trap", kind="rest")
    elif k == 1 and prev:
        _go(ctx, seat, prev, f"Arcane Trap on {t}: rolls 1, to the previous trap", kind="rest")
    elif k == 2 and prev:
        ctx.note(f"Arcane Trap on {t}: rolls 2")
        ask(ctx, seat, "arcane")
    else:
        ctx.note(f"Arcane Trap on {t}: rolls {k}, stays")
        rest(ctx, seat)


def rest(ctx: Ctx, seat: str) -> None:
    """A token comes to rest: the mover meeting another token (not on the start tile) starts the turn's duel."""
    s = ctx.state
    tile = s.tile_of(seat)
    if tile == s.layout.start or seat != s.mover or s.dueled:
        return
    n = len(s.seats)
    others = [s.seats[(s.turn + i) % n] for i in range(1, n)]
    other = next((o for o in others if s.tile_of(o) == tile), None)
    if other:
        s.duel, s.dueled = Duel(seat, other, tile), True
        ctx.note(f"duel on {tile}: {seat} against {other}")


# -- questions: the mover's own moments and other seats' decisions -------------------------------

#: the answer that plays both cards a defender is asked for at once (``defend``)
BOTH = "Shield+Sword"


def card_asked(kind: str) -> str:
    """Return the card a moment asks for: a Sword for a duelist's Sword, else a Shield (``defend``: either)."""
    return "Sword" if kind == "sword" else "Shield"


def cards_asked(kind: str) -> tuple[str, ...]:
    """Return every answer card of a moment: the defender's ``defend`` takes a Shield, a Sword or both."""
    return ("Shield", "Sword", BOTH) if kind == "defend" else (card_asked(kind),)


def card_words(card: str) -> str:
    """Return an answer card as a move names it: ``Shield and Sword`` for both."""
    return "Shield and Sword" if card == BOTH else card


def prompt(s: State, seat: str, kind: str) -> str:
    """Return the question a moment asks (rebuilt from the state)."""
    tile = s.tile_of(seat)
    if kind == "guard":
        return f"play Shield to stay on {tile} despite the Guard, or pass (back to {tile - 1})"
    if kind == "arcane":
        return (f"play Shield so that only a 1 sends you back, or pass (to the previous Arcane Trap, "
                f"{previous_trap(s, tile)})")
    d = s.duel
    foe = d.defender if seat == d.attacker else d.attacker
    if kind == "defend":
        return (f"answer {foe}'s Sword in the duel on {d.tile}: play Shield (against it), play Sword (an extra "
                f"die), play Shield and Sword, or pass")
    if kind == "sword":
        return f"play Sword (an extra die in the duel with {foe} on {d.tile}), or pass"
    return f"play Shield against {foe}'s Sword in the duel on {d.tile}, or pass"


def kind_of(text: str) -> str:
    """Return the moment a prompt asks about (``guard``, ``arcane``, ``sword``, ``shield``; '' if none)."""
    low = text.lower()
    for start, kind in (("play sword (an extra die", "sword"), ("play shield against", "shield"), ("answer ", "defend"),
                        ("play shield to stay", "guard"), ("play shield so that only a 1", "arcane")):
        if low.startswith(start):
            return kind
    return ""


def answers(kind: str) -> list[str]:
    """Return the public answers of a moment: ``play CARD`` (each card it takes) and ``pass``."""
    return [f"play {card_words(c)}" for c in cards_asked(kind)] + ["pass"]


def ask(ctx: Ctx, seat: str, kind: str) -> None:
    """Ask ``seat`` for a card: the mover as its next move, another seat as a pending decision."""
    s = ctx.state
    ctx.note(f"{seat}: {' or '.join(card_words(c) for c in cards_asked(kind)[:2])} or pass"
             if kind == "defend" else f"{seat}: {card_asked(kind)} or pass")
    if seat == s.mover:
        s.ask = kind
        return
    s.decisions.append(Decision(seat, prompt(s, seat, kind), answers(kind), _origin(ctx, seat)))


def _origin(ctx: Ctx, seat: str) -> int:
    """Return the log entry that asks ``seat``: this move's, or the mover's last move when ``seat`` is acting."""
    log = ctx.state.meta.log
    if ctx.actor.casefold() != seat.casefold():
        return len(log) + 1
    from pbd.table.game import CHAIN_DUTY, ROLL_DUTY

    return next((e.number for e in reversed(log) if e.player.casefold() != seat.casefold()
                 and not e.text.startswith((*TABLE_LINES, CHAIN_DUTY, ROLL_DUTY))), len(log) + 1)


def answer(ctx: Ctx, seat: str, kind: str, card: str | None) -> str:
    """Answer a moment with ``play CARD`` (``card``) or ``pass`` (None); go on resolving.

    :raises IllegalMoveError: the wrong card, or not in hand.
    """
    s = ctx.state
    ctx.answering = True
    if card is not None and card not in cards_asked(kind):
        raise IllegalMoveError(f"the question is: {prompt(s, seat, kind)} — a {card_words(card)} does not answer it")
    played = [] if card is None else card.split("+")
    for one in played:
        shared.spend(s.deck, seat, one)
        s.spent.append((seat, one))
    ctx.note(f"plays {' and '.join('a ' + c for c in played)}" if played else "passes")
    if kind == "defend":
        s.duel.shields += [seat] if "Shield" in played else []
        s.duel.swords += [seat] if "Sword" in played else []
        s.duel.step += 2                             # the defender's Shield and Sword, asked as one
        run(ctx)
        return ctx.text()
    _settle(ctx, seat, kind, card is not None)
    run(ctx)
    return ctx.text()


def answer_own(ctx: Ctx, card: str | None) -> str:
    """The mover answers its own moment (``s.ask``).

    :raises IllegalMoveError: nothing is asked, the wrong card, or not in hand.
    """
    s = ctx.state
    if not s.ask:
        raise IllegalMoveError("nothing waits on an answer: " + ("a Shield is played when pbd asks for it: against "
                               "a Sword in a duel, a Guard, or an Arcane Trap's 2" if card else "roll"))
    kind = s.ask
    if card is not None and card not in cards_asked(kind):
        raise IllegalMoveError(f"the question is: {prompt(s, s.mover, kind)} — a {card_words(card)} does not "
                               "answer it")
    s.ask = ""
    return answer(ctx, s.mover, kind, card)


def _settle(ctx: Ctx, seat: str, kind: str, played: bool) -> None:
    s = ctx.state
    tile = s.tile_of(seat)
    if kind == "guard":
        if played:
            ctx.note(f"stays on {tile} despite the Guard")
            rest(ctx, seat)
        else:
            _go(ctx, seat, tile - 1, f"Guard on {tile}")
    elif kind == "arcane":
        if played:
            ctx.note(f"stays on {tile}")
            rest(ctx, seat)
        else:
            _go(ctx, seat, previous_trap(s, tile), "Arcane Trap: to the previous trap", kind="rest")
    else:
        if played:
            (s.duel.swords if kind == "sword" else s.duel.shields).append(seat)
        s.duel.step += 1


# -- duels ---------------------------------------------------------------------------------------

def duel_step(ctx: Ctx) -> None:
    """Ask the duel's next Sword or Shield, or fight once all are answered."""
    d = ctx.state.duel
    steps = [(d.attacker, "sword", True), (d.defender, "shield", d.attacker in d.swords),
             (d.defender, "sword", True), (d.attacker, "shield", d.defender in d.swords)]
    while d.step < len(steps) and not steps[d.step][2]:
        d.step += 1
    if d.step == 1:                                  # after the attacker's Sword: the defender's two, at once
        ask(ctx, d.defender, "defend")
    elif d.step < len(steps):
        ask(ctx, steps[d.step][0], steps[d.step][1])
    elif ctx.after is None:                          # the dice follow the last answer: they wait
        wait_for_dice(ctx, "the duel's dice")
    else:
        fight(ctx)


def dice_of(d: Duel, seat: str) -> int:
    """Return how many dice ``seat`` rolls in duel ``d``: one, plus an unanswered Sword."""
    foe = d.defender if seat == d.attacker else d.attacker
    return 1 + (seat in d.swords and foe not in d.shields)


def fight(ctx: Ctx) -> None:
    """Roll the duel (ties again), move the winner one tile on and the loser one tile back."""
    s = ctx.state
    d = s.duel
    a, b = d.attacker, d.defender
    for _ in range(MAX_TIES):
        ra = [die(ctx) for _ in range(dice_of(d, a))]
        rb = [die(ctx) for _ in range(dice_of(d, b))]
        ctx.note(f"duel: {a} {'+'.join(map(str, ra))}, {b} {'+'.join(map(str, rb))}"
                 + (" (tie, again)" if sum(ra) == sum(rb) else ""))
        if sum(ra) != sum(rb):
            break
    winner, loser = (a, b) if sum(ra) > sum(rb) else (b, a)
    s.duel = None
    ctx.note(f"{winner} wins the duel")
    back = max(1, s.tile_of(loser) - 1)
    if back != s.tile_of(loser):
        s.tokens[loser] = back
        s.queue.insert(0, Task("arrive", loser))
    s.tokens[winner] = advance(s, s.tile_of(winner), 1)
    s.queue.insert(0, Task("arrive", winner))
    ctx.note(f"{winner} → {s.tile_of(winner)}, {loser} → {s.tile_of(loser)}")


# -- what may be played now ----------------------------------------------------------------------

def moves(s: State, seat: str) -> list[str]:
    """Return every move the seat on turn may make now, in notation (the answers while asked)."""
    hand = [c for c in shared.hand(s.deck, seat) if c]
    if s.ask:
        return [f"play {card_words(c)}" for c in cards_asked(s.ask) if all(x in hand for x in c.split("+"))] \
            + ["pass"]
    if s.step != "main":
        return []
    out = []
    over = over_limit(s, seat)
    if over:
        out += [f"discard {k}" for k in dict.fromkeys(hand)]
    if not s.placed:
        for kind in dict.fromkeys(k for k in hand if k in TILE_CARDS):
            out += [f"play {kind} on {t}" for t in range(1, s.layout.treasure + 1)
                    if placement_problem(s, kind, t) is None]
    webbed = seat in s.webbed
    if webbed and "Sword" in hand:
        out.append("play Sword")
    if not over:
        out.append("stay" if webbed else "roll")
    return out


def decision_answers(s: State, decision: Decision) -> list[str]:
    """Return the answers a pending decision's seat may give now (``play CARD`` only if it holds one)."""
    kind = kind_of(decision.prompt)
    if not kind:
        return ["pass"]
    return [f"play {card_words(c)}" for c in cards_asked(kind)
            if all(shared.holds(s.deck, decision.seat, x) for x in c.split("+"))] + ["pass"]
