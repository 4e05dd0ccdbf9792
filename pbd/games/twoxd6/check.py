"""What a hand-edited 2Xd6 board breaks (for ``pbd check``): pure checks over the parsed state."""

from __future__ import annotations

from collections import Counter

from pbd.games.twoxd6 import grid, rules
from pbd.games.twoxd6.state import State


def problems(state: State) -> list[str]:
    """Return every rule the position breaks: unknown or repeated cards, bad stacks, cells off the board."""
    out = []
    cat = rules.catalogue(state)
    players = set(state.seats) | set(state.order)
    seen = Counter()
    for cell, st in state.cells.items():
        if grid.norm(cell, state.board) is None:
            out.append(f"{cell} is not a cell of the {state.board.columns} x {state.board.rows} board")
        if players and st.owner not in players:
            out.append(f"{cell}: {st.owner} is not a player of this match")
        if not st.cards:
            out.append(f"{cell}: an empty stack")
        for i, card_id in enumerate(st.cards):
            seen[card_id] += 1
            if card_id not in cat:
                out.append(f"{cell}: {card_id} is no card of the {state.deck_name} deck")
                continue
            if i:
                below = cat.get(st.cards[i - 1])
                card = cat[card_id]
                if below and below.core == card.core and card.number >= below.number:
                    out.append(f"{cell}: {card_id} on {below.id} breaks the stacking order (same colour "
                               f"{card.core}, must be lower)")
    for seat, shown in state.shown.items():
        for card_id in shown:
            seen[card_id] += 1
            if card_id not in cat:
                out.append(f"{seat}'s shown cards: {card_id} is no card of the {state.deck_name} deck")
    for card_id, n in seen.items():
        if n > 1:
            out.append(f"{card_id} appears {n} times (on the board and in shown hands)")
    if state.holder and state.held > len(players or state.seats) and not state.result:
        out.append(f"{state.holder} held the Basic Square {state.held} turns without the match ending")
    return out
