"""2Xd6 rules: small pure functions over :class:`~pbd.games.twoxd6.state.State`.

Each ``do_*`` function applies one move in place and returns its log line, or raises
:class:`~pbd.errors.IllegalMoveError` naming the rule and the numbers.  The readings of
the rulebook's open points are given in each function's docstring (and in the README).
"""

from __future__ import annotations

from functools import lru_cache

from pbd.errors import IllegalMoveError
from pbd.games.twoxd6 import calc, cards, dice, grid
from pbd.games.twoxd6.deck import Card, Deck, bundled
from pbd.games.twoxd6.state import Act, Decision, Owe, Stack, State, Targeting, Trade

#: Cards dealt per number of players: (Face cards, Pip cards).
DEAL = {2: (5, 6), 3: (5, 6), 4: (4, 5), 5: (3, 5), 6: (3, 5)}
#: Advancement limits: rank -> (kind of path, most cells).
ADVANCE = {"10": ("any", 1), "J": ("linear", 2), "Q": ("turns", 3), "K": ("linear", 3), "A": ("turns", 4),
           "?": ("diagonal", 4)}
#: Targeting distances: rank -> (cells, any direction?); a J reaches 4 in any direction on a rolled pair.
TARGET = {"10": (1, True), "J": (2, False), "Q": (3, True), "K": (3, False), "A": (4, True), "?": (4, False)}
WINDOW = 10


# -- the deck and who is who ----------------------------------------------------------

@lru_cache(maxsize=8)
def _deck(name: str, copies: int) -> Deck:
    return bundled(name).copies(copies)


def deck_of(state: State) -> Deck:
    """Return the match's deck (with the Mod's copies)."""
    return _deck(state.deck_name, state.opts.decks)


def catalogue(state: State) -> dict[str, Card]:
    """Return the match's cards by id."""
    return deck_of(state).by_id()


def unknown_cards(state: State) -> list[str]:
    """Return the card ids on the board or in shown hands that are no card of the match's deck (a hand edit)."""
    cat = catalogue(state)
    ids = [c for st in state.cells.values() for c in st.cards] + [c for cs in state.shown.values() for c in cs]
    return list(dict.fromkeys(c for c in ids if c not in cat))


def acting(state: State) -> str:
    """Return the player whose act it is ('' before the order of acts is decided)."""
    return state.order[state.act.turn] if state.order and state.phase == "act" else ""


def layout(state: State, seat: str) -> grid.SeatLayout:
    """Return a player's side of the board (Player k gets the board's seat k)."""
    return grid.layout(state.board, state.opts.players)[state.order.index(seat)]


def side_owners(state: State, cell: str) -> list[str]:
    """Return the players whose side the cell is on."""
    col = grid.coords(cell)[0]
    return [s for s in state.order if col in layout(state, s).columns]


# -- hands ------------------------------------------------------------------------------

def hand(state: State, seat: str) -> list[tuple[int | None, str | None]]:
    """Return ``(slot, card)`` for the seat's hand: deck cards (card None while unreadable), then shown cards."""
    return cards.hand(state.deck, seat) + [(None, c) for c in state.shown.get(seat, [])]


def holding(state: State, seat: str, card: str, free: bool = False) -> tuple[int | None, str]:
    """Return ``(slot, card)`` of ``card`` in the seat's hand; with ``free``, not a cold-comfort card.

    :raises IllegalMoveError: the seat does not hold it (or it is their cold-comfort card).
    """
    for slot, c in hand(state, seat):
        if c == card:
            if free and slot is not None and slot in state.cold.get(seat, []):
                raise IllegalMoveError(f"{card} is {seat}'s cold-comfort card: it may not be traded, handed over "
                                       "or discarded, only played")
            return slot, c
    raise IllegalMoveError(f"{seat} has no {card} in hand")


def take_out(state: State, seat: str, slot: int | None, card: str, to: str) -> None:
    """Remove a card from the seat's hand onto pile ``to`` (board, recycled or open)."""
    if slot is None:
        state.shown[seat].remove(card)
        if to == "recycled":
            cards.recycle_public(state.deck, card)
        return
    if slot in state.cold.get(seat, []):
        state.cold[seat].remove(slot)
    if to == "board":
        cards.play(state.deck, seat, slot)
    elif to == "recycled":
        cards.recycle_slot(state.deck, seat, slot)
    else:
        cards.to_open(state.deck, seat, slot)


def hand_over(state: State, giver: str, slot: int | None, card: str, receiver: str) -> None:
    """Move a card from one hand to another, in the open (it joins the receiver's shown cards)."""
    take_out(state, giver, slot, card, "open")
    state.shown.setdefault(receiver, []).append(card)


# -- stacks and chains ----------------------------------------------------------------------

def top(state: State, cell: str) -> Card | None:
    """Return the top card of the stack in ``cell``, or None for an empty cell."""
    st = state.cells.get(cell)
    return catalogue(state).get(st.cards[-1]) if st and st.cards else None


def leaders(state: State, cell: str) -> list[Card]:
    """Return the Faces and 10s in a stack (the cards that chain, advance and target)."""
    cat = catalogue(state)
    return [cat[c] for c in state.cells[cell].cards if c in cat and cat[c].leader]


def chained(state: State, a: str, b: str) -> set[str]:
    """Return the colours two stacks chain by (empty: they do not chain).

    Reading: two stacks of one player chain when adjacent and each holds a Face (or a 10:
    pbd counts the 10 as a Face wherever the rulebook gives it a Face's role) of a common
    core colour.  Chains are the connected groups of this relation.
    """
    sa, sb = state.cells.get(a), state.cells.get(b)
    if not sa or not sb or sa.owner != sb.owner:
        return set()
    if b not in grid.neighbours(state.board, a, state.opts.adjacency == 8):
        return set()
    return {c.core for c in leaders(state, a)} & {c.core for c in leaders(state, b)}


def chain(state: State, cell: str) -> list[str]:
    """Return the cells of the stack chain ``cell`` belongs to (itself alone if it chains with none)."""
    seen, todo = {cell}, [cell]
    while todo:
        here = todo.pop()
        for nb in grid.neighbours(state.board, here, state.opts.adjacency == 8):
            if nb not in seen and chained(state, here, nb):
                seen.add(nb)
                todo.append(nb)
    return sorted(seen, key=lambda c: state.board.cells().index(c))


def chain_colours(state: State, cells_: list[str]) -> list[str]:
    """Return the colours the stacks of a chain are linked by (sorted; empty for a single stack)."""
    found = {colour for a in cells_ for b in cells_ if a < b for colour in chained(state, a, b)}
    return sorted(found)


def chain_cards(state: State, cells_: list[str]) -> list[Card]:
    """Return every card of the stacks in ``cells_``."""
    cat = catalogue(state)
    return [cat[c] for cell in cells_ for c in state.cells[cell].cards if c in cat]


def chains(state: State, seat: str) -> list[list[str]]:
    """Return the seat's stack chains (each a list of cells), in board order."""
    out, seen = [], set()
    for cell in state.board.cells():
        st = state.cells.get(cell)
        if st and st.owner == seat and cell not in seen:
            group = chain(state, cell)
            seen.update(group)
            out.append(group)
    return out


def advance_cost(state: State, cells_: list[str]) -> int:
    """Return the points one cell of Advancement costs: total power / cards, rounded half up."""
    cs = chain_cards(state, cells_)
    total, n = sum(c.power for c in cs), len(cs)
    return (2 * total + n) // (2 * n)


# -- the deal and the order of acts -----------------------------------------------------------

def deal(state: State) -> str:
    """Deal every seat its Face and Pip cards per the player-count table; the rest is the Draw Patch.

    With the Mod (``-O decks=N``), every player gets the 2-player amounts.
    """
    n = state.opts.players
    faces, pips = DEAL[2] if state.opts.decks > 1 else DEAL[n]
    for seat in state.seats:
        cards.deal(state.deck, seat, faces, pips)
        state.shown.setdefault(seat, [])
        state.cold.setdefault(seat, [])
    state.phase = "order"
    return f"dealt {faces} Face and {pips} Pip cards to each player; Draw Patch {cards.patch_size(state.deck)}"


def do_order_roll(state: State, seat: str, chance) -> str:
    """Roll 2Xd6 for the order of acts.

    Reading: every player rolls once (Sicherman high + standard, pairs doubled); the order of
    acts is by total, highest first, ties kept in seating order.  Player 1 (first) takes the
    board's first side (lower left), Player 2 the second, and so on.
    """
    if seat in state.order_rolls:
        raise IllegalMoveError(f"{seat} has already rolled for the order of acts ({state.order_rolls[seat]})")
    r = dice.act(chance, seat)
    state.order_rolls[seat] = r.total
    text = f"rolls for the order of acts: {r.text()}"
    if len(state.order_rolls) == len(state.seats):
        state.order = sorted(state.seats, key=lambda s: (-state.order_rolls[s], state.seats.index(s)))
        state.phase, state.act = "act", Act()
        text += "; order of acts: " + ", ".join(f"{i} {s}" for i, s in enumerate(state.order, 1))
    return text


# -- Scene 1 and Scene 2 -----------------------------------------------------------------------

def do_roll(state: State, seat: str, chance) -> str:
    """Scene 1: roll 2Xd6 for acting points (pairs doubled, at most 24)."""
    if state.act.scene != "roll":
        raise IllegalMoveError(f"{seat} has rolled this act already ({state.act.points} points left)")
    r = dice.act(chance, seat)
    state.act.roll, state.act.points, state.act.scene = r.faces, r.total, "main"
    return f"rolls {r.text()} acting points"


def _spend(state: State, cost: int, what: str) -> None:
    if cost > state.act.points:
        raise IllegalMoveError(f"{what} costs {cost} points; {acting(state)} has {state.act.points}")
    state.act.points -= cost


def play_cost(card: Card, onto_stack: bool) -> int:
    """Return what playing ``card`` costs: its pips; a 10 costs 10 into an empty cell, 1 onto a stack."""
    if card.rank == "10":
        return 1 if onto_stack else 10
    return card.pips


def play_problem(state: State, seat: str, card: Card, cell: str) -> str | None:
    """Return why ``card`` may not go into ``cell`` now (None: it may), apart from its cost.

    Readings: in the first round of acts only a Face or a 10 (the rulebook's "1 card") may be
    played, and only into the player's outermost cell (onto their own stack there too).  Later,
    a card goes onto one of the player's own stacks anywhere, or into an empty cell on the
    player's side adjacent to one of their stacks.  Onto a stack whose top card has the same
    core colour, the new card must have a lower number.
    """
    st = state.cells.get(cell)
    if st and st.owner != seat:
        return f"{cell} is {st.owner}'s stack; cards go onto your own stacks"
    if state.act.round == 1:
        if not card.leader:
            return "in the first round of acts only a Face or a 10 may be played"
        if cell != layout(state, seat).outermost:
            return f"in the first round of acts cards go only into your outermost cell, {layout(state, seat).outermost}"
    elif not st:
        if grid.coords(cell)[0] not in layout(state, seat).columns:
            return f"{cell} is not on your side of the board (columns {layout(state, seat).columns})"
        mine = [nb for nb in grid.neighbours(state.board, cell, state.opts.adjacency == 8)
                if state.cells.get(nb) and state.cells[nb].owner == seat]
        if not mine:
            return f"{cell} is not adjacent to any of your stacks"
    t = top(state, cell)
    if t and t.core == card.core and card.number >= t.number:
        return (f"{card.id} onto {t.id}: on a stack of the same colour ({card.core}) the new card must be lower "
                f"({card.number} is not below {t.number})")
    return None


def _need_main(state: State, seat: str) -> None:
    if state.act.scene != "main":
        raise IllegalMoveError(f"{seat} rolls first (Scene 1: roll)")
    t = state.targeting
    if t and t.rc is None:
        raise IllegalMoveError(f"waiting for {t.defender} to state the Rc of {t.target}")
    if t and t.tc is None:
        raise IllegalMoveError(f"{seat} targets {t.target} from {t.source}: write the Tc "
                               f"('target {t.target} from {t.source} with CALC', {t.rc - WINDOW} to {t.rc + WINDOW}) "
                               "or 'withdraw'")
    if t and t.roll is None:
        raise IllegalMoveError(f"{seat}'s Onyx dice wait on a fresh random value from another player (their "
                               f"pbd publishes it with their next command, pbd watch at once; then {seat}'s pbd "
                               "rolls them)")
    if t:
        raise IllegalMoveError(f"waiting for {t.defender} to roll against the targeting")


def do_play(state: State, seat: str, card_id: str, cell: str) -> str:
    """Scene 2/3: play a card from hand into a cell, paying its cost."""
    _need_main(state, seat)
    card = catalogue(state)[card_id]
    problem = play_problem(state, seat, card, cell)
    if problem:
        raise IllegalMoveError(problem)
    slot, _ = holding(state, seat, card_id)
    cost = play_cost(card, cell in state.cells)
    _spend(state, cost, f"playing {card_id} {'onto' if cell in state.cells else 'into'} {cell}")
    take_out(state, seat, slot, card_id, "board")
    state.cells.setdefault(cell, Stack(seat, [])).cards.append(card_id)
    state.act.played += 1
    return f"plays {card_id} on {cell} ({cost} points, {state.act.points} left)"


def do_recycle(state: State, seat: str, card_id: str) -> str:
    """Recycle a hand card (1 point): it goes face up to the recycled pile; a replacement may be drawn."""
    _need_main(state, seat)
    slot, _ = holding(state, seat, card_id, free=True)
    _spend(state, 1, f"recycling {card_id}")
    take_out(state, seat, slot, card_id, "recycled")
    state.act.recycled += 1
    return f"recycles {card_id} (1 point, {state.act.points} left)"


def replacements(state: State) -> int:
    """Return the replacement draws still open this act.

    Reading: one per recycled card, plus one in all for the cards played this act (the
    rulebook's "one total to replace all played cards"); drawing one is free.
    """
    return state.act.recycled + (1 if state.act.played else 0) - state.act.replaced


def do_replace(state: State, seat: str, chance) -> str:
    """Scene 3: draw a replacement card."""
    _need_main(state, seat)
    if replacements(state) <= 0:
        raise IllegalMoveError("no replacement draw is open: one per recycled card, and one for all played cards")
    slot = cards.draw(state.deck, seat, chance, seat)
    state.act.replaced += 1
    return "draws a replacement card" if slot is not None else "the Draw Patch is empty: no replacement"


# -- Advancement ----------------------------------------------------------------------------------

def _moves(kind: str) -> list[tuple[int, int]]:
    return grid.DIAGONAL if kind == "diagonal" else grid.KING


def advance_options(state: State, seat: str, source: str, only: str | None = None) -> dict[str, tuple[int, str]]:
    """Return ``{destination of source: (cells moved, rank used)}`` for the chain of ``source``.

    Readings: the whole stack chain moves together, every stack by the same steps; every step
    must bring ``source`` strictly closer to the Basic Square; no stack may pass through or
    land on a cell occupied by anyone else; the fewest cells are taken.  10: one step any
    way; J, K: up to 2 / 3 steps in one straight line (side or diagonal); Q, A: up to 3 / 4
    steps with turns; ?: up to 4 diagonal steps.
    """
    group = chain(state, source)
    ranks = {c.rank for c in chain_cards(state, group) if c.leader}
    found: dict[str, tuple[int, str]] = {}
    for rank in sorted(ranks, key=lambda r: list(ADVANCE).index(r)):
        if only and rank != only:
            continue
        kind, most = ADVANCE[rank]
        frontier = [((0, 0), None)]
        for n in range(1, most + 1):
            nxt = []
            for (dc, dr), last in frontier:
                for step in _moves(kind):
                    if kind == "linear" and last is not None and step != last:
                        continue
                    off = (dc + step[0], dr + step[1])
                    dest = _shift(state, group, source, (dc, dr), off)
                    if dest is None:
                        continue
                    nxt.append((off, step))
                    if dest not in found or found[dest][0] > n:
                        found[dest] = (n, rank)
            frontier = nxt
    return found


def _shift(state: State, group: list[str], source: str, before, after) -> str | None:
    """Return where ``source`` lands after a step from offset ``before`` to ``after``, or None if blocked."""
    for cell in group:
        c, r = grid.coords(cell)
        if not state.board.on(c + after[0], r + after[1]):
            return None
        there = grid.cell(c + after[0], r + after[1])
        if there in state.cells and there not in group:
            return None
    c, r = grid.coords(source)
    was, now = grid.cell(c + before[0], r + before[1]), grid.cell(c + after[0], r + after[1])
    if grid.to_basic(state.board, now) >= grid.to_basic(state.board, was):
        return None
    return now


def do_advance(state: State, seat: str, source: str, dest: str, rank: str | None = None) -> str:
    """Scene 3: advance the stack chain of ``source`` so that ``source`` ends on ``dest``.

    Reading: one Advancement per act (one Face's limit per act); the cost is
    ``round(total power / cards)`` of the chain per cell moved.
    """
    _need_main(state, seat)
    st = state.cells.get(source)
    if not st or st.owner != seat:
        raise IllegalMoveError(f"{source} holds no stack of {seat}'s")
    if state.act.advanced:
        raise IllegalMoveError("only one Advancement per act (one Face's limit per act)")
    group = chain(state, source)
    if rank and rank not in {c.rank for c in chain_cards(state, group)}:
        raise IllegalMoveError(f"the chain of {source} has no {rank} to advance with")
    options = advance_options(state, seat, source, rank)
    if dest not in options:
        limits = ", ".join(f"{c.rank}: {ADVANCE[c.rank][1]} {ADVANCE[c.rank][0]}"
                           for c in chain_cards(state, group) if c.leader) or "none (no Face or 10)"
        raise IllegalMoveError(f"the chain of {source} cannot advance to {dest} (limits {limits}; towards the "
                               "Basic Square, into empty cells only)")
    cells_moved, used = options[dest]
    per = advance_cost(state, group)
    _spend(state, per * cells_moved, f"advancing {cells_moved} cell(s) at {per} a cell")
    (c0, r0), (c1, r1) = grid.coords(source), grid.coords(dest)
    moved = {cell: state.cells.pop(cell) for cell in group}
    for cell, stack in moved.items():
        c, r = grid.coords(cell)
        state.cells[grid.cell(c + c1 - c0, r + r1 - r0)] = stack
    state.act.advanced = True
    return (f"advances {source} to {dest} with {used} ({len(group)} stack(s), {cells_moved} cell(s) at {per}, "
            f"{state.act.points} points left)")


# -- Targeting ------------------------------------------------------------------------------------

def reach(state: State, seat: str, source: str, target: str) -> str | None:
    """Return the rank whose Targeting distance reaches ``target`` from ``source`` (None: out of reach).

    Readings: any Face or 10 in the targeting chain may lend its distance; "forward or
    upward" means no step backward or downward for the player (straight, diagonal, or any
    line between); a J reaches 4 any way when this act's Scene 1 roll was a pair.
    """
    d = grid.steps(source, target)
    pair = bool(state.act.roll and state.act.roll[0] == state.act.roll[1])
    for c in chain_cards(state, chain(state, source)):
        if not c.leader:
            continue
        most, anyway = TARGET[c.rank]
        if c.rank == "J" and pair:
            most, anyway = 4, True
        if d <= most and (anyway or grid.facing(layout(state, seat), source, target)):
            return c.rank
    return None


def tc_pool(state: State, seat: str, source: str, target: str) -> list[calc.Operand]:
    """Return the cards a Tc may use: the targeting chain, and the player's pottle stacks' cards
    whose core colour matches a core colour of the chain's cards (Targeting colour as the mark)."""
    group = chain(state, source)
    own = chain_cards(state, group)
    colours = {c.core for c in own}
    extra = [c for cell in grid.pottle(source, target) if cell in state.cells and cell not in group
             and state.cells[cell].owner == seat for c in chain_cards(state, [cell]) if c.core in colours]
    return [calc.Operand(c.id, c.power, c.core, c.targeting) for c in own + extra]


def rc_pool(state: State, target: str) -> list[calc.Operand]:
    """Return the cards an Rc may use: the resisting chain's (Resistance colour as the mark)."""
    return [calc.Operand(c.id, c.power, c.core, c.resistance) for c in chain_cards(state, chain(state, target))]


def rc_of(state: State, target: str) -> tuple[int, str]:
    """Return the resisting chain's best Rc and its calculation.

    Reading (the default, ``-O rc=best``): the resisting player always resists with the
    highest Rc their chain reaches; pbd computes it, so no one waits for it.  With
    ``-O rc=stated`` the defender states it instead (:func:`do_state_rc`).
    """
    return calc.highest(rc_pool(state, target))


def target_problem(state: State, seat: str, source: str, target: str) -> str | None:
    """Return why ``target`` cannot be targeted from ``source`` (range and pottle), or None."""
    st, tt = state.cells.get(source), state.cells.get(target)
    if not st or st.owner != seat:
        return f"{source} holds no stack of {seat}'s"
    if not tt or tt.owner == seat:
        return f"{target} holds no opposing stack"
    if reach(state, seat, source, target) is None:
        return f"{target} is out of targeting distance of the chain of {source}"
    blocked = [c for c in grid.pottle(source, target) if c in state.cells and state.cells[c].owner != seat]
    if blocked:
        return f"the pottle from {source} to {target} passes Resistance-occupied {', '.join(blocked)}"
    return None


def do_target(state: State, seat: str, target: str, source: str, text: str, chance) -> str:
    """Scene 3: target an opposing stack; the Tc must be within 10 of the Rc; roll 2 Onyx d6.

    The pottle costs 1 point per cell strictly between the two cells.  The resisting
    player then owes a roll (a pending decision).  With ``-O rc=stated`` this is the third
    step: the Tc written after the defender stated the Rc (:func:`do_announce`).
    """
    if state.opts.rc == "stated":
        return _stated_tc(state, seat, target, source, text, chance)
    _need_main(state, seat)
    problem = target_problem(state, seat, source, target)
    if problem:
        raise IllegalMoveError(problem)
    tc = calc.check(text, tc_pool(state, seat, source, target))
    rc, rc_text = rc_of(state, target)
    _window(tc.value, rc, rc_text, target)
    cost = len(grid.pottle(source, target))
    _spend(state, cost, f"targeting across {cost} pottle cell(s)")
    state.act.targeted = True
    defender = state.cells[target].owner
    state.targeting = Targeting(seat, source, target, defender, tc.value, tc.text, rc, rc_text, None)
    return _aimed(state) + f"; {cost} point(s), {state.act.points} left"


def _window(tc: int, rc: int, rc_text: str, target: str) -> None:
    if abs(tc - rc) > WINDOW:
        raise IllegalMoveError(f"Tc {tc} is not within {WINDOW} of {target}'s Rc {rc} ({rc_text}): "
                               f"it must be {rc - WINDOW} to {rc + WINDOW}")


def _aimed(state: State) -> str:
    """Return the log words of a targeting whose Tc is written: its Onyx dice wait (:func:`roll_onyx`).

    Reading (issue 25): the Onyx dice follow the acting player's choice of target and Tc in the
    same command, so rolled at once they could be foreseen (try the targeting on a copy of the
    document, then choose).  They wait on a chain value another player's pbd publishes after
    this entry; then the acting player's pbd rolls them itself (on its next command, or at once
    under ``pbd watch``) and the resisting player is asked for the Wyte roll.
    """
    t = state.targeting
    return (f"targets {t.target} from {t.source}: Tc {t.tc_text} = {t.tc} against Rc {t.rc}; the Onyx dice wait on a "
            "fresh random value from another player")


def onyx_waits(state: State) -> bool:
    """Return True if a targeting's Tc is written and its Onyx dice wait on a fresh value."""
    t = state.targeting
    return bool(t and t.tc is not None and t.roll is None and not state.result)


def choice_entry(state: State, seat: str, start: str):
    """Return the last log entry of ``seat`` whose move starts with ``start`` (the choice a roll follows), or None."""
    return next((e for e in reversed(state.meta.log) if e.player == seat and e.text.lower().startswith(start)), None)


def roll_onyx(state: State, seat: str, chance, after: int) -> str:
    """Roll the acting player's 2 Onyx d6 that waited on a value published after entry ``after``; ask the
    resisting player for the Wyte roll."""
    t = state.targeting
    r = dice.resist(chance, seat, "Onyx", after)
    t.roll = r.faces
    origin = len(state.meta.log) + 1
    state.decisions.append(Decision(t.defender, f"roll 2 Wyte dice to resist {seat}'s targeting of "
                                                f"{t.target}", ["roll"], origin))
    return f"Onyx {r.text()} for the targeting of {t.target}; {t.defender} rolls 2 Wyte dice"


def do_announce(state: State, seat: str, target: str, source: str) -> str:
    """``-O rc=stated``, step 1: announce a targeting (range, pottle and its cost as usual).

    Reading: the Tc must fall within 10 of the Rc, so under this option the defender
    states the Rc first, as a pending decision (``resist with CALC``, checked by the same
    rules over their chain, Resistance colour as the mark); then the acting player writes
    the Tc (``target B5 from B3 with CALC``) or withdraws.  The pottle's points are paid
    on announcing and are not given back on withdrawing.
    """
    if state.opts.rc != "stated":
        raise IllegalMoveError(f"write the Tc: 'target {target} from {source} with CALC' "
                               "(the defender states the Rc only with -O rc=stated)")
    _need_main(state, seat)
    problem = target_problem(state, seat, source, target)
    if problem:
        raise IllegalMoveError(problem)
    cost = len(grid.pottle(source, target))
    _spend(state, cost, f"targeting across {cost} pottle cell(s)")
    state.act.targeted = True
    defender = state.cells[target].owner
    state.targeting = Targeting(seat, source, target, defender, None, "", None, "", None)
    state.decisions.append(Decision(defender, f"state your Rc for {target} against {seat}'s targeting from "
                                              f"{source} (resist with CALC)", [STATE_RC],
                                    len(state.meta.log) + 1))
    return f"targets {target} from {source}; {cost} point(s), {state.act.points} left; {defender} states the Rc"


#: the public answer to an Rc decision (any checked calculation)
STATE_RC = "resist with CALC"


def do_state_rc(state: State, seat: str, text: str) -> str:
    """``-O rc=stated``, step 2: the defender states the Rc as a calculation over their chain."""
    t = state.targeting
    rc = calc.check(text, rc_pool(state, t.target), "Resistance")
    t.rc, t.rc_text = rc.value, rc.text
    return (f"states Rc {rc.text} = {rc.value} for {t.target}; {t.attacker} writes a Tc from {rc.value - WINDOW} "
            f"to {rc.value + WINDOW}, or withdraws")


def _stated_tc(state: State, seat: str, target: str, source: str, text: str, chance) -> str:
    t = state.targeting
    if t is None or t.rc is None or t.tc is not None:
        _need_main(state, seat)
        raise IllegalMoveError(f"with -O rc=stated the defender states the Rc first: announce with "
                               f"'target {target} from {source}'")
    if (t.source, t.target) != (source, target):
        raise IllegalMoveError(f"{seat} is targeting {t.target} from {t.source}; write that Tc or 'withdraw'")
    tc = calc.check(text, tc_pool(state, seat, source, target))
    _window(tc.value, t.rc, t.rc_text, target)
    t.tc, t.tc_text = tc.value, tc.text
    return _aimed(state)


def do_withdraw(state: State, seat: str) -> str:
    """``-O rc=stated``: call off a targeting whose Rc is stated and no Tc written (its points stay spent)."""
    t = state.targeting
    if t is None or t.rc is None or t.tc is not None:
        raise IllegalMoveError("there is no targeting waiting for your Tc to withdraw")
    state.targeting = None
    return f"withdraws the targeting of {t.target} (Rc {t.rc} stated)"


def do_resist(state: State, seat: str, chance) -> str:
    """The resisting player's roll; settles the targeting.

    Success (Tc + roll > Rc + roll): the acting player collects the whole stack into their
    hand (in the open) and owes the targeted player a Face or a 10.  Failure: they owe a
    Face/10 and a Pip, and draw a cold-comfort card that may not be traded or discarded.

    Reading (issue 25): with ``-O rc=stated`` the Wyte dice follow the resisting player's own
    choice of Rc in the same act, so they wait on a chain value another player publishes after
    that statement (the roll is refused until then, naming who owes it).
    """
    t = state.targeting
    stated = choice_entry(state, seat, "resist with") if state.opts.rc == "stated" else None
    r = dice.resist(chance, seat, "Wyte", stated.number if stated else None)
    attack = t.tc + dice.Roll(t.roll).total
    defend = t.rc + r.total
    state.targeting = None
    state.decisions = [d for d in state.decisions if d.seat != seat]
    if attack > defend:
        taken = state.cells.pop(t.target).cards
        state.shown.setdefault(t.attacker, []).extend(taken)
        state.owed.append(Owe(t.attacker, seat, "face"))
        return (f"resists with Wyte {r.text()}: {attack} beats {defend}; {t.attacker} collects {t.target} "
                f"({' '.join(taken)}) and owes {seat} a Face or 10")
    state.owed += [Owe(t.attacker, seat, "face"), Owe(t.attacker, seat, "pip")]
    slot = cards.draw(state.deck, t.attacker, chance, seat)
    if slot is not None:
        state.cold.setdefault(t.attacker, []).append(slot)
    return (f"resists with Wyte {r.text()}: {attack} does not beat {defend}; {t.attacker} owes {seat} a Face/10 "
            f"and a Pip, and draws a cold-comfort card")


# -- hand-overs and tolls ------------------------------------------------------------------------

def tolls_due(state: State, seat: str) -> list[str]:
    """Return the players ``seat`` owes a Pip card for occupying their side.

    Reading: ending an act with any stack in another player's side columns (outside your own
    and the central columns) costs one Pip card to each player whose side it is, once per act.
    """
    mine = {c for c, st in state.cells.items() if st.owner == seat}
    own = set(layout(state, seat).columns) | set(state.board.central)
    due = []
    for cell in sorted(mine):
        if grid.coords(cell)[0] in own:
            continue
        for other in side_owners(state, cell):
            if other != seat and other not in due and other not in state.act.tolls:
                due.append(other)
    return due


def debts(state: State, seat: str) -> list[tuple[str, str]]:
    """Return ``(receiver, kind)`` of every card ``seat`` owes now (hand-overs, then tolls)."""
    return [(o.receiver, o.kind) for o in state.owed if o.giver == seat] + \
        [(other, "toll") for other in tolls_due(state, seat)]


def fits(card: Card, kind: str) -> bool:
    """Return True if ``card`` pays a debt of ``kind`` (face: a Face or a 10; pip and toll: a Pip card)."""
    return card.leader if kind == "face" else not card.face


def do_give(state: State, seat: str, card_id: str, receiver: str) -> str:
    """Hand a card over to pay a debt (a Face/10 or a Pip after targeting, a Pip as a toll)."""
    card = catalogue(state)[card_id]
    owing = [(r, k) for r, k in debts(state, seat) if r == receiver and fits(card, k)]
    if not owing:
        raise IllegalMoveError(f"{seat} owes {receiver} no card {card_id} could pay"
                               + (f" (owed: {_debt_words(debts(state, seat))})" if debts(state, seat) else ""))
    slot, _ = holding(state, seat, card_id, free=True)
    hand_over(state, seat, slot, card_id, receiver)
    _settle_debt(state, seat, *owing[0])
    return f"gives {card_id} to {receiver}"


def _settle_debt(state: State, seat: str, receiver: str, kind: str) -> None:
    if kind == "toll":
        state.act.tolls.append(receiver)
        return
    for i, o in enumerate(state.owed):
        if (o.giver, o.receiver, o.kind) == (seat, receiver, kind):
            del state.owed[i]
            return


def _debt_words(items) -> str:
    words = {"face": "a Face or 10", "pip": "a Pip", "toll": "a Pip (toll)"}
    return ", ".join(f"{words[k]} to {r}" for r, k in items)


def payable(state: State, seat: str, kind: str) -> list[str]:
    """Return the readable, tradeable hand cards that pay a debt of ``kind``."""
    cat = catalogue(state)
    return [c for slot, c in hand(state, seat) if c and slot not in state.cold.get(seat, [])
            and fits(cat[c], kind)]


def do_show_hand(state: State, seat: str) -> str:
    """Show the whole hand to prove there is no card to pay a debt with; such debts are then cleared."""
    items = debts(state, seat)
    unpayable = [(r, k) for r, k in items if not payable(state, seat, k)]
    if not unpayable:
        raise IllegalMoveError(f"{seat} can pay every debt ({_debt_words(items) or 'none'}); showing the hand "
                               "proves nothing")
    if any(c is None for _, c in hand(state, seat)):
        raise IllegalMoveError(f"{seat} cannot read every hand card yet (waiting on unlocks)")
    shown = cards.show_hand(state.deck, seat) + state.shown.get(seat, [])
    for r, k in unpayable:
        _settle_debt(state, seat, r, k)
    return f"shows the hand ({' '.join(shown) or 'empty'}): no {_debt_words(unpayable)}"


# -- Scene 4 and trades ------------------------------------------------------------------------

def do_draw(state: State, seat: str, chance, offer: bool = False) -> str:
    """Scene 4: draw the act's last card (after every debt is paid); ``offer`` puts it up for trade.

    Reading: the card put up for trade is shown to everyone; every other player answers (offer a hand card, or pass); no offer
    keeps the card; one offer may be accepted or rejected (a rejected trade sends the drawn
    card to the recycled pile, free); with several, the best is taken: the highest number
    (? A K Q J 10 ... 2), then the highest power, then the earliest in the order of acts
    after the drawing player.  Cards that change hands are shown to all.
    """
    _need_main(state, seat)
    if debts(state, seat):
        raise IllegalMoveError(f"{seat} owes {_debt_words(debts(state, seat))}: give them first "
                               "('give CARD to NAME', or 'show hand' if you have none)")
    slot = cards.draw(state.deck, seat, chance, seat)
    if offer and slot is not None:
        cards.reveal(state.deck, seat, slot)   # the card offered is shown to everyone, so they can bid
        state.trade = Trade(seat, slot)
        origin = len(state.meta.log) + 1
        for other in _after(state, seat):
            state.decisions.append(Decision(other, f"offer a card for {seat}'s drawn card, or pass",
                                            list(OFFER_ANSWERS), origin))
        return "draws a card and offers it for trade"
    text = "draws a card" if slot is not None else "the Draw Patch is empty: no card"
    return text + end_act(state)


def _after(state: State, seat: str) -> list[str]:
    i = state.order.index(seat)
    return state.order[i + 1:] + state.order[:i]


#: a trade offer's answers as the board lists them (the seat's own list names its cards: offer_answers)
OFFER_ANSWERS = ("offer CARD", "pass")


def offer_answers(state: State, seat: str) -> list[str]:
    """Return a player's answers to a trade: ``offer CARD`` per tradeable readable card, and ``pass``."""
    return [f"offer {c}" for slot, c in hand(state, seat) if c and slot not in state.cold.get(seat, [])] + ["pass"]


def best_offer(state: State) -> str:
    """Return the seat whose offer is best (see :func:`do_draw`)."""
    cat = catalogue(state)
    offers = [(s, c) for s, c in state.trade.offers.items() if c != "pass"]
    order = _after(state, state.trade.seat)
    return max(offers, key=lambda sc: (cat[sc[1]].number, cat[sc[1]].power, -order.index(sc[0])))[0]


def do_offer(state: State, seat: str, card_id: str | None) -> str:
    """Answer a trade: offer a hand card (shown to all at once) or pass (``card_id`` None)."""
    t = state.trade
    if card_id is None:
        t.offers[seat] = "pass"
        text = "passes on the trade"
    else:
        slot, _ = holding(state, seat, card_id, free=True)
        if slot is not None:
            cards.reveal(state.deck, seat, slot)
        t.offers[seat] = card_id
        text = f"offers {card_id} for {t.seat}'s card"
    state.decisions = [d for d in state.decisions if d.seat != seat]
    if len(t.offers) < len(state.order) - 1:
        return text
    offers = [s for s, c in t.offers.items() if c != "pass"]
    if not offers:
        state.trade = None
        return text + f"; no offers: {t.seat} keeps the card" + end_act(state)
    if len(offers) == 1:
        state.decisions.append(Decision(t.seat, f"accept {offers[0]}'s {t.offers[offers[0]]} or reject "
                                                f"(a rejected trade recycles your drawn card)",
                                        ["accept", "reject"], len(state.meta.log) + 1))
        return text
    return text + "; " + _exchange(state, best_offer(state))


def _exchange(state: State, other: str) -> str:
    t = state.trade
    theirs = t.offers[other]
    drawn = cards.to_open(state.deck, t.seat, t.slot)
    state.shown.setdefault(other, []).append(drawn)
    slot, _ = holding(state, other, theirs)
    hand_over(state, other, slot, theirs, t.seat)
    state.trade = None
    return f"{t.seat} trades {drawn} for {other}'s {theirs}" + end_act(state)


def do_accept(state: State, seat: str, accept: bool) -> str:
    """The drawing player's answer to a single offer."""
    t = state.trade
    state.decisions = [d for d in state.decisions if d.seat != seat]
    other = next(s for s, c in t.offers.items() if c != "pass")
    if accept:
        return "accepts: " + _exchange(state, other)
    cards.recycle_slot(state.deck, seat, t.slot)
    state.trade = None
    return f"rejects {other}'s offer and recycles the drawn card" + end_act(state)


# -- the end of an act, and winning ---------------------------------------------------------------

def occupant(state: State) -> str:
    """Return the player alone on the Basic Square ('' if nobody, or more than one player).

    Reading: a player occupies the Basic Square when they hold a stack on at least one of its
    cells and nobody else holds any.
    """
    owners = {state.cells[c].owner for c in state.board.basic if c in state.cells}
    return owners.pop() if len(owners) == 1 else ""


def end_act(state: State) -> str:
    """Close the act: count the Basic Square's hold, check the win, pass to the next act.

    Reading: a "full turn" is one act.  The hold count starts at 0 at the end of the act in
    which a player takes the Basic Square alone and rises by one at the end of every act
    they still hold it; at as many as there are players, they win (having held it a whole
    round of acts).

    Reading (a locked board): once the Draw Patch is empty, a whole round of acts in which
    nobody plays a card, advances or targets ends the match in a draw (no new card can
    come, and nobody moves).
    """
    who = occupant(state)
    if who and who == state.holder:
        state.held += 1
    else:
        state.holder, state.held = who, 0
    text = ""
    if who:
        text = f"; {who} holds the Basic Square ({state.held} of {len(state.order)})"
    if who and state.held >= len(state.order):
        state.phase = "over"
        state.result = f"{who} wins: held the Basic Square for {state.held} full turns"
        return text + "; " + state.result
    a = state.act
    busy = a.played or a.advanced or a.targeted or cards.patch_size(state.deck) > 0
    state.quiet = 0 if busy else state.quiet + 1
    if state.quiet >= len(state.order):
        state.phase = "over"
        state.result = (f"a draw: a whole round of acts ({state.quiet}) with no card played, no advance and no "
                        "targeting (the board is locked)")
        return text + "; " + state.result
    turn = (a.turn + 1) % len(state.order)
    state.act = Act(round=a.round + (1 if turn == 0 else 0), turn=turn)
    return text + f"; {state.order[turn]}'s act"
