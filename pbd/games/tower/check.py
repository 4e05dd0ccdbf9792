"""``pbd check`` for The Tower: every rule a board (hand-edited or not) breaks, in plain words.

The table checks its own part (seats, the turn, decisions against the log, the deck's
numbers); this module checks the tower: cards on tiles (and that they are the cards the
shared deck placed there), loops, tokens, hand sizes, the turn's progress.
"""

from __future__ import annotations

from collections import Counter

from pbd.games.tower import rules, shared
from pbd.games.tower.state import HAND_LIMIT, KINDS, TILE_CARDS, State


def problems(state: State) -> list[str]:
    """Return every rule the board breaks."""
    return [*state.notes, *_dealt(state), *_tiles(state), *_deck_tiles(state), *_loops(state), *_tokens(state), *_hands(state),
            *_counts(state), *_pending(state)]


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


def _dealt(s: State) -> list[str]:
    """Return a problem if the ``Cards:`` line is not the deck the match was dealt (the Deck section's manifest)."""
    if s.deck is None or not s.spec.counts or list(s.deck.cards) == s.spec.cards():
        return []
    dealt = Counter(s.deck.cards)
    return [f"the Cards line lists {s.spec.size} cards ({_counted(s.spec.counts)}), but the match was dealt "
            f"{len(s.deck.cards)} ({_counted({k: dealt[k] for k in KINDS if dealt[k]})})"]


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in counts.items())


def _deck_tiles(s: State) -> list[str]:
    """Return where the board's tiles disagree with the cards the shared deck placed."""
    if s.deck is None:
        return []
    placed = shared.tiles(s.deck)
    out = []
    for tile in sorted(set(placed) | set(s.cards)):
        dealt = [c for c in placed.get(tile, []) if c is not None]
        if len(dealt) == len(placed.get(tile, [])) and dealt != s.cards.get(tile, []):
            out.append(f"tile {tile} shows {' + '.join(s.cards.get(tile, [])) or 'no card'}, but the shared deck "
                       f"placed {' + '.join(dealt) or 'no card'} there")
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
    winner = s.result.split(" reached the treasure")[0] if s.result else ""
    for seat in s.seats:
        tile = s.tile_of(seat)
        if tile is not None and not rules.in_play(lay, tile):
            out.append(f"{seat}'s token is on {tile}, past the treasure ({lay.treasure})")
        if tile == lay.treasure and winner != seat:
            out.append(f"{seat}'s token is on the treasure, but the board names no such winner")
    if winner and winner in s.seats and s.tile_of(winner) != lay.treasure:
        out.append(f"{winner} is named the winner, but their token is not on the treasure ({lay.treasure})")
    return out


def _hands(s: State) -> list[str]:
    out = []
    for seat in s.seats:
        held = rules.hand_size(s, seat)
        shown = s.shown.get(seat, held)
        if shown != held:
            out.append(f"the board says {seat} holds {shown} cards; the shared deck's hand has {held}")
        may = HAND_LIMIT if seat == s.mover and s.step == "resolve" else HAND_LIMIT + 1
        if max(shown, held) > may:
            out.append(f"{seat} holds {max(shown, held)} cards; the limit is {HAND_LIMIT}"
                       + (" (a 6th only until their next turn's discard)" if may > HAND_LIMIT else ""))
    return out


def _counts(s: State) -> list[str]:
    seen = Counter(c for cards in s.cards.values() for c in cards)
    seen.update(c for _, c in s.spent)
    seen.update(c for _, c in s.discarded)
    return [f"{seen[k]} {k} cards are out, but the deck has {s.spec.counts.get(k, 0)}"
            for k in KINDS if seen[k] > s.spec.counts.get(k, 0)]


def _pending(s: State) -> list[str]:
    out = []
    for d in s.decisions:
        kind = rules.kind_of(d.prompt)
        if not kind:
            out.append(f"the decision waiting on {d.seat} asks nothing The Tower asks: {d.prompt[:60]!r}")
        elif kind in ("sword", "shield") and not s.duel:
            out.append(f"a duel decision waits on {d.seat}, but no duel is under way")
    if s.ask in ("sword", "shield") and not s.duel:
        out.append(f"the board asks {s.mover} about a duel, but no duel is under way")
    if s.duel and not s.decisions and not s.ask and s.started and s.step != "resolve":
        out.append("a duel is under way but no one is asked")       # (resolving: its dice wait on a fresh value)
    return out
