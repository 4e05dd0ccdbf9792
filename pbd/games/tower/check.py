"""``pbd check`` for The Tower: every rule a board (hand-edited or not) breaks, in plain words."""

from __future__ import annotations

from collections import Counter

from pbd.games.tower import rules
from pbd.games.tower.state import HAND_LIMIT, KINDS, TILE_CARDS, State


def problems(state: State) -> list[str]:
    """Return every rule the board breaks."""
    return [*state.notes, *_tiles(state), *_loops(state), *_tokens(state), *_hands(state), *_counts(state),
            *_pending(state)]


def _tiles(s: State) -> list[str]:
    out = []
    lay = s.layout
    for tile, cards in sorted(s.cards.items()):
        if len(cards) > 1:
            out.append(f"tile {tile} has {len(cards)} cards ({', '.join(cards)}); no card is played on top of another")
        kind = cards[0]
        if kind not in TILE_CARDS:
            out.append(f"tile {tile} has a {kind}, which is never placed on a tile")
        elif tile in (lay.start, lay.treasure) or not rules.in_play(lay, tile):
            out.append(f"tile {tile} has a {kind}, but no card goes on the start, the treasure or past it")
        elif kind == "Rope" and not rules.in_play(lay, rules.above(lay, tile)):
            out.append(f"the Rope on {tile} has no tile above it in play")
        elif kind == "Trapdoor" and rules.below(lay, tile) is None:
            out.append(f"the Trapdoor on {tile} is on the bottom floor")
        elif kind == "Guard" and tile == 1:
            out.append("the Guard on tile 1 has no tile behind it")
    return out


def _loops(s: State) -> list[str]:
    out, seen = [], set()
    for tile in sorted(s.cards):
        cycle = rules.loop_from(s, tile)
        if cycle and frozenset(cycle) not in seen:
            seen.add(frozenset(cycle))
            out.append(f"the cards make an endless loop: {rules.describe_loop(s, cycle)}")
    return out


def _tokens(s: State) -> list[str]:
    out = []
    lay = s.layout
    for seat in s.seats:
        if seat.tile is not None and not rules.in_play(lay, seat.tile):
            out.append(f"{seat.name}'s token is on {seat.tile}, past the treasure ({lay.treasure})")
        if seat.tile == lay.treasure and s.winner != seat.name:
            out.append(f"{seat.name}'s token is on the treasure, but the board names no such winner")
    if s.winner and s.seat(s.winner).tile != lay.treasure:
        out.append(f"{s.winner} is named the winner, but their token is not on the treasure ({lay.treasure})")
    return out


def _hands(s: State) -> list[str]:
    out = []
    for seat in s.seats:
        may = HAND_LIMIT + 1 if s.started and seat is s.mover and s.step == "main" else HAND_LIMIT
        if seat.hand > may:
            out.append(f"{seat.name} holds {seat.hand} cards; the limit is {HAND_LIMIT}")
        if seat.hand + seat.deck > s.deck.size:
            out.append(f"{seat.name} shows {seat.hand} in hand and {seat.deck} to draw: more than the "
                       f"{s.deck.size}-card deck")
    return out


def _counts(s: State) -> list[str]:
    seen = Counter(c for cards in s.cards.values() for c in cards)
    seen.update(c for _, c in s.spent)
    seen.update(c for _, c in s.discarded)
    copies = max(1, len(s.seats))
    return [f"{seen[k]} {k} cards are out, but the deck has {s.deck.counts.get(k, 0)} for each of {copies} players"
            for k in KINDS if seen[k] > s.deck.counts.get(k, 0) * copies]


def _pending(s: State) -> list[str]:
    out = []
    for d in s.decisions:
        if s.meta.match_id and d.origin > len(s.meta.log):
            out.append(f"the decision waiting on {d.seat} names log entry {d.origin}; the log has "
                       f"{len(s.meta.log)} entries")
        if d.kind in ("sword", "shield") and not s.duel:
            out.append(f"a duel decision waits on {d.seat}, but no duel is under way")
    if s.duel and not s.decisions and s.started:
        out.append("a duel is under way but no decision waits")
    return out
