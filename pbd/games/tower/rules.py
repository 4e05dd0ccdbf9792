"""The Tower's rules as small pure functions (no I/O): geometry, placing, moving, effects, duels.

Rule readings (the rulebook leaves these open; the README's "The Tower" section repeats them):

* A turn is: draw a card (skipped once your deck is empty), optionally place one tile card
  from your hand, then roll one die and move that many tiles along the path.
* You hold at most 5 cards: with a 6th you must discard one of your choice (or place one)
  before you roll; the discarded card is shown in the document and the log.
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
* Spider Web: on your next turn you draw and may place a card, but you do not roll; a
  Sword played on that turn (``play Sword``) frees you and you roll as usual.  ``stay``
  ends the webbed turn.
* Reaching the treasure: any move reaching or passing it wins; with ``-O exact-finish``
  the excess walks back from the treasure (``-O exact-finish=stay``: the token does not
  move); the tile it ends on then acts.
* Duels: when the mover's move (the roll, a Magic Carpet's roll, and the cards they lead
  to) comes to rest on a tile with another token (not the start tile), the two duel, after
  the tile's card acted; with several tokens there, the first in seat order.  Tokens moved
  by a duel apply the card they land on but start no other duel: at most one duel a turn
  (otherwise a crowd of tokens around a Torch could duel for ever).  In order the attacker (the token that came) may play a Sword, the defender may
  answer it with a Shield, the defender may play a Sword, the attacker may answer it with
  a Shield; each is a pending decision answered ``play Sword`` / ``play Shield`` / ``pass``.
  Each duelist rolls one die, plus one more for an unanswered Sword, and adds them; ties
  are rolled again (Swords still count).  The winner moves one tile forward, the loser one
  tile back (not below tile 1); the winner's new tile acts first, then the loser's.
* Decisions are asked whether or not the seat holds the card, so the board never tells
  what is in a hand; the player's own moments (a Guard, an Arcane Trap's 2, their Sword as
  attacker) are decisions too.
* Every die is rolled by the pbd of the player whose command it is (a duel's two dice
  too): the roll comes from that player's committed seed and the others' published chain
  values, so no one chooses it, and ``pbd audit`` re-derives it.
* A chain stops after 200 card effects in one command (it cannot happen on a board without
  loops; it keeps a hand-edited board from running for ever).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbd.errors import IllegalMoveError
from pbd.games.tower import cards
from pbd.games.tower.state import HAND_LIMIT, TILE_CARDS, Decision, Duel, Layout, Seat, State, Task

MAX_EFFECTS = 200
MAX_TIES = 100
MOVERS = ("Torch", "Guard", "Rope", "Trapdoor")


@dataclass
class Ctx:
    """One command's work: the state, the dice, whose command it is, and what happened."""

    state: State
    chance: object
    actor: str
    notes: list[str] = field(default_factory=list)
    effects: int = 0

    def note(self, text: str) -> None:
        """Add a phrase to the log entry being written."""
        self.notes.append(text)


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
    on = [s.name for s in state.seats if s.tile == tile]
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
    """Place a tile card from the mover's hand (once per turn, before the roll).

    :raises IllegalMoveError: not the time, not in hand, or the tile refuses it (the reason).
    """
    s, seat = ctx.state, _mover(ctx, "play a card")
    _need_main(s, "play a card")
    if s.placed:
        raise IllegalMoveError("you have already played a card this turn (one card a turn)")
    reason = placement_problem(s, kind, tile)
    if reason:
        raise IllegalMoveError(reason)
    cards.take(s, seat, kind)
    s.cards[tile] = [kind]
    s.placed = True
    return f"plays {kind} on {tile}"


# -- the turn ------------------------------------------------------------------------------

def _mover(ctx: Ctx, what: str) -> Seat:
    s = ctx.state
    if s.winner:
        raise IllegalMoveError(f"the match is over: {s.result}")
    if not s.started:
        raise IllegalMoveError(f"the match has not started: {len(s.seats)} of {s.players} players seated")
    if s.decisions:
        d = s.decisions[0]
        raise IllegalMoveError(f"waiting on {d.seat}: {d.prompt}")
    if s.mover.name.casefold() != ctx.actor.casefold():
        raise IllegalMoveError(f"it is {s.mover.name}'s turn; you cannot {what} now")
    return s.mover


def _need_main(s: State, what: str) -> None:
    if s.step == "draw":
        raise IllegalMoveError(f"draw first: a turn starts with a draw (then {what})")
    if s.step != "main":
        raise IllegalMoveError(f"you cannot {what} now: the roll is being resolved")


def start_turn(s: State) -> None:
    """Begin the mover's turn: a draw first, unless their deck is empty."""
    s.step = "draw" if cards.can_draw(s, s.mover) else "main"
    s.placed = s.dueled = False


def end_turn(s: State) -> None:
    """Pass the turn to the next seat in order."""
    s.current = (s.current + 1) % len(s.seats)
    s.turn += 1
    start_turn(s)


def draw(ctx: Ctx) -> str:
    """Draw the turn's card.

    :raises IllegalMoveError: not the time to draw.
    """
    s, seat = ctx.state, _mover(ctx, "draw")
    if s.step != "draw":
        raise IllegalMoveError("you have drawn this turn already" if cards.can_draw(s, seat)
                               else "your deck is empty: no more draws (place a card or roll)")
    cards.draw(s, seat, ctx.chance)
    s.step = "main"
    return f"draws a card (hand {seat.hand}" + (", over the limit: discard one" if seat.hand > HAND_LIMIT else "") \
        + ")"


def discard(ctx: Ctx, kind: str) -> str:
    """Discard a card of your choice at the hand limit (face up, in the log).

    :raises IllegalMoveError: not over the limit, or not in hand.
    """
    s, seat = ctx.state, _mover(ctx, "discard")
    _need_main(s, "discard")
    if seat.hand <= HAND_LIMIT:
        raise IllegalMoveError(f"you hold {seat.hand} cards; you discard only when over {HAND_LIMIT}")
    cards.take(s, seat, kind)
    s.discarded.append((seat.name, kind))
    return f"discards {kind} (hand limit {HAND_LIMIT})"


def _ready_to_move(seat: Seat) -> None:
    if seat.hand > HAND_LIMIT:
        raise IllegalMoveError(f"you hold {seat.hand} cards: discard one (or play one) first; "
                               f"the limit is {HAND_LIMIT}")


def roll(ctx: Ctx) -> str:
    """Roll one die and move; resolve everything that follows.

    :raises IllegalMoveError: not the time, a Spider Web holds you, or over the hand limit.
    """
    s, seat = ctx.state, _mover(ctx, "roll")
    _need_main(s, "roll")
    if seat.webbed:
        raise IllegalMoveError(f"a Spider Web holds {seat.name} this turn: 'stay', or 'play Sword' to cut free")
    _ready_to_move(seat)
    k = die(ctx, f"{seat.name}'s move")
    start = seat.tile
    seat.tile = advance(s, start, k)
    s.step, s.placed = "resolve", False
    ctx.note(f"rolls {k}: {start} → {seat.tile}" if seat.tile != start else f"rolls {k}: overshoots, stays on {start}")
    if seat.tile != start:
        s.queue.insert(0, Task("arrive", seat.name))
    run(ctx)
    return "; ".join(ctx.notes)


def stay(ctx: Ctx) -> str:
    """End a webbed turn without moving.

    :raises IllegalMoveError: no web holds you, or over the hand limit.
    """
    s, seat = ctx.state, _mover(ctx, "stay")
    _need_main(s, "stay")
    if not seat.webbed:
        raise IllegalMoveError("no Spider Web holds you: roll")
    _ready_to_move(seat)
    seat.webbed = False
    end_turn(s)
    return f"stays on {seat.tile} (Spider Web)"


def cut_web(ctx: Ctx) -> str:
    """Play a Sword against the Spider Web holding the mover (then roll as usual).

    :raises IllegalMoveError: no web holds you, or no Sword in hand.
    """
    s, seat = ctx.state, _mover(ctx, "play a Sword")
    _need_main(s, "play a Sword")
    if not seat.webbed:
        raise IllegalMoveError("a Sword is played in a duel or against a Spider Web holding you; neither is "
                               "the case now")
    cards.take(s, seat, "Sword")
    s.spent.append((seat.name, "Sword"))
    seat.webbed = False
    return "plays a Sword: cuts the Spider Web"


def advance(s: State, tile: int, k: int) -> int:
    """Return the tile ``k`` tiles on from ``tile``, by the match's finish rule."""
    dest, goal = tile + k, s.layout.treasure
    if dest <= goal or s.options.finish == "reach":
        return min(dest, goal)
    if s.options.finish == "bounce":
        return max(1, goal - (dest - goal))
    return tile


def die(ctx: Ctx, purpose: str) -> int:
    """Roll one fair six-sided die through the table's randomness (by the command's player)."""
    return ctx.chance.roll(ctx.actor, 6)


# -- resolving what a token comes to ----------------------------------------------------------

def run(ctx: Ctx) -> None:
    """Resolve waiting tokens and duels until a decision is needed, someone wins, or all is done."""
    s = ctx.state
    while not s.decisions and not s.winner:
        if s.duel:
            duel_step(ctx)
        elif s.queue:
            task = s.queue.pop(0)
            (arrive if task.kind == "arrive" else rest)(ctx, s.seat(task.seat))
        else:
            break
    if s.winner:
        s.queue, s.duel, s.decisions, s.step, s.placed, s.dueled = [], None, [], "over", False, False
    elif not s.decisions and s.step == "resolve":
        end_turn(s)


def _go(ctx: Ctx, seat: Seat, tile: int, why: str, kind: str = "arrive") -> None:
    ctx.note(f"{why}: {seat.name} → {tile}")
    seat.tile = tile
    ctx.state.queue.insert(0, Task(kind, seat.name))


def arrive(ctx: Ctx, seat: Seat) -> None:
    """Apply the card of the tile ``seat``'s token came to (a chain goes on through the queue)."""
    s = ctx.state
    t = seat.tile
    if t == s.layout.treasure:
        s.winner = seat.name
        ctx.note(f"{seat.name} reaches the treasure and wins")
        return
    ctx.effects += 1
    card = s.card_at(t)
    if card and ctx.effects > MAX_EFFECTS:
        ctx.note(f"the chain stops after {MAX_EFFECTS} card effects")
        card = None
    if card in ("Torch", "Rope", "Trapdoor"):
        _go(ctx, seat, step_of(s, t), f"{card} on {t}")
    elif card == "Guard":
        ask(ctx, seat.name, "guard")
    elif card == "Magic Carpet":
        k = die(ctx, "Magic Carpet")
        dest = advance(s, t, k)
        if dest == t:
            ctx.note(f"Magic Carpet on {t}: rolls {k}, overshoots, stays")
            rest(ctx, seat)
        else:
            _go(ctx, seat, dest, f"Magic Carpet on {t}: rolls {k}")
    elif card == "Spider Web":
        seat.webbed = True
        ctx.note(f"Spider Web on {t}: {seat.name} misses the next move")
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


def arcane(ctx: Ctx, seat: Seat) -> None:
    """Roll for an Arcane Trap: 6 → next trap, 1-2 → previous trap (a 2 may be Shielded)."""
    s, t = ctx.state, seat.tile
    k = die(ctx, "Arcane Trap")
    nxt, prev = next_trap(s, t), previous_trap(s, t)
    if k == 6 and nxt:
        _go(ctx, seat, nxt, f"Arcane Trap on {t}: rolls 6, to the next trap", kind="rest")
    elif k == 1 and prev:
        _go(ctx, seat, prev, f"Arcane Trap on {t}: rolls 1, to the previous trap", kind="rest")
    elif k == 2 and prev:
        ctx.note(f"Arcane Trap on {t}: rolls 2")
        ask(ctx, seat.name, "arcane")
    else:
        ctx.note(f"Arcane Trap on {t}: rolls {k}, stays")
        rest(ctx, seat)


def rest(ctx: Ctx, seat: Seat) -> None:
    """A token comes to rest: the mover meeting another token (not on the start tile) starts the turn's duel."""
    s = ctx.state
    if seat.tile == s.layout.start or seat is not s.mover or s.dueled:
        return
    n = len(s.seats)
    others = [s.seats[(s.current + i) % n] for i in range(1, n)]
    other = next((o for o in others if o.tile == seat.tile), None)
    if other:
        s.duel, s.dueled = Duel(seat.name, other.name, seat.tile), True
        ctx.note(f"duel on {seat.tile}: {seat.name} against {other.name}")


# -- decisions --------------------------------------------------------------------------------

def prompt(s: State, seat: str, kind: str) -> str:
    """Return the question a decision asks (rebuilt from the state, so it is never stored)."""
    me = s.seat(seat)
    if kind == "guard":
        return f"play Shield to stay on {me.tile} despite the Guard, or pass (back to {me.tile - 1})"
    if kind == "arcane":
        return (f"play Shield so that only a 1 sends you back, or pass (to the previous Arcane Trap, "
                f"{previous_trap(s, me.tile)})")
    d = s.duel
    foe = d.defender if seat == d.attacker else d.attacker
    if kind == "sword":
        return f"play Sword (an extra die in the duel with {foe} on {d.tile}), or pass"
    return f"play Shield against {foe}'s Sword in the duel on {d.tile}, or pass"


def ask(ctx: Ctx, seat: str, kind: str) -> None:
    """Open a pending decision for ``seat`` (answered by their next command)."""
    s = ctx.state
    card = "Sword" if kind == "sword" else "Shield"
    origin = len(s.meta.log) + 1
    s.decisions.append(Decision(seat, prompt(s, seat, kind), [f"play {card}", "pass"], origin, kind))
    ctx.note(f"waiting on {seat}: {card} or pass")


def answer(ctx: Ctx, card: str | None) -> str:
    """Answer the open decision with ``play CARD`` (``card``) or ``pass`` (None); go on resolving.

    :raises IllegalMoveError: no decision is waiting on you, the wrong card, or not in hand.
    """
    s = ctx.state
    if s.winner:
        raise IllegalMoveError(f"the match is over: {s.result}")
    if not s.decisions or s.decisions[0].seat.casefold() != ctx.actor.casefold():
        who = f"it waits on {s.decisions[0].seat}" if s.decisions else "nothing waits on an answer"
        raise IllegalMoveError(f"no decision waits on you ({who})")
    d = s.decisions[0]
    want = "Sword" if d.kind == "sword" else "Shield"
    if card is not None and card != want:
        raise IllegalMoveError(f"the decision is: {d.prompt} — a {card} does not answer it")
    seat = s.seat(d.seat)
    if card:
        cards.take(s, seat, card)
        s.spent.append((seat.name, card))
    s.decisions.pop(0)
    ctx.note(f"plays a {card}" if card else "passes")
    _settle_decision(ctx, seat, d.kind, card is not None)
    run(ctx)
    return "; ".join(ctx.notes)


def _settle_decision(ctx: Ctx, seat: Seat, kind: str, played: bool) -> None:
    s = ctx.state
    if kind == "guard":
        if played:
            ctx.note(f"stays on {seat.tile} despite the Guard")
            rest(ctx, seat)
        else:
            _go(ctx, seat, seat.tile - 1, f"Guard on {seat.tile}")
    elif kind == "arcane":
        if played:
            ctx.note(f"stays on {seat.tile}")
            rest(ctx, seat)
        else:
            _go(ctx, seat, previous_trap(s, seat.tile), "Arcane Trap: to the previous trap", kind="rest")
    else:
        if played:
            (s.duel.swords if kind == "sword" else s.duel.shields).append(seat.name)
        s.duel.step += 1


# -- duels ---------------------------------------------------------------------------------------

def duel_step(ctx: Ctx) -> None:
    """Ask the duel's next Sword or Shield decision, or fight once all are answered."""
    d = ctx.state.duel
    steps = [(d.attacker, "sword", True), (d.defender, "shield", d.attacker in d.swords),
             (d.defender, "sword", True), (d.attacker, "shield", d.defender in d.swords)]
    while d.step < len(steps) and not steps[d.step][2]:
        d.step += 1
    if d.step < len(steps):
        ask(ctx, steps[d.step][0], steps[d.step][1])
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
    a, b = s.seat(d.attacker), s.seat(d.defender)
    for _ in range(MAX_TIES):
        ra = [die(ctx, f"{a.name}'s duel die") for _ in range(dice_of(d, a.name))]
        rb = [die(ctx, f"{b.name}'s duel die") for _ in range(dice_of(d, b.name))]
        ctx.note(f"duel: {a.name} {'+'.join(map(str, ra))}, {b.name} {'+'.join(map(str, rb))}"
                 + (" (tie, again)" if sum(ra) == sum(rb) else ""))
        if sum(ra) != sum(rb):
            break
    winner, loser = (a, b) if sum(ra) > sum(rb) else (b, a)
    s.duel = None
    ctx.note(f"{winner.name} wins the duel")
    back = max(1, loser.tile - 1)
    if back != loser.tile:
        loser.tile = back
        s.queue.insert(0, Task("arrive", loser.name))
    winner.tile = advance(s, winner.tile, 1)
    s.queue.insert(0, Task("arrive", winner.name))
    ctx.note(f"{winner.name} → {winner.tile}, {loser.name} → {loser.tile}")


# -- what may be played now ----------------------------------------------------------------------

def legal(s: State, player: str) -> list[str]:
    """Return every move ``player`` may make now, in notation (answers first while a decision waits)."""
    if s.winner or not s.started:
        return []
    if s.decisions:
        d = s.decisions[0]
        if d.seat.casefold() != player.casefold():
            return []
        card = d.answers[0].split()[-1]
        return [a for a in d.answers if a == "pass" or cards.holds(s, s.seat(d.seat), card) is not False]
    seat = s.mover
    if seat.name.casefold() != player.casefold() or s.step == "resolve":
        return []
    if s.step == "draw":
        return ["draw"]
    hand = cards.known(s, seat)
    out = []
    if seat.hand > HAND_LIMIT:
        out += [f"discard {k}" for k in dict.fromkeys(hand)]
    if not s.placed:
        for kind in dict.fromkeys(k for k in hand if k in TILE_CARDS):
            out += [f"play {kind} on {t}" for t in range(1, s.layout.treasure + 1)
                    if placement_problem(s, kind, t) is None]
    if seat.webbed and "Sword" in hand:
        out.append("play Sword")
    if seat.hand <= HAND_LIMIT:
        out.append("stay" if seat.webbed else "roll")
    return out


def actors(s: State) -> list[str]:
    """Return who must act now: the deciding seat while a decision waits, else the mover."""
    if s.winner or not s.started:
        return []
    if s.decisions:
        return [s.decisions[0].seat]
    return [s.mover.name]
