"""``pbd check`` for Boys' Town: every rule a board (hand-edited or not) breaks."""

from __future__ import annotations

from pbd.errors import PbdError
from pbd.games.boystown import battle, board, cards, rules
from pbd.games.boystown.state import State


def problems(state: State) -> list[str]:
    """Return every rule the position breaks, in words."""
    out: list[str] = []
    try:
        cat = rules.cat(state)
    except PbdError as exc:
        return [f"catalogue: {exc.message}"]
    out += _seats(state)
    out += _towns(state, cat)
    out += _phase(state)
    out += battle.check_commitments(state) if state.deck is not None else []
    return out


def text_problems(state: State, text: str) -> list[str]:
    """Return the derived lines (AP/TP, piles, whose turn) that differ from what the rules give."""
    want = {ln.strip() for ln in board.render(state)}
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        bare = board.LEGACY_PARTS_RE.sub("", line.strip())       # (a Battle line of the previous layout)
        derived = board.DERIVED_RE.match(bare) or board.SEAT_RE.match(bare) or board.RESIDENT_RE.match(line)
        if bare and derived and bare not in want:
            out.append(f"line {number}: the board shows '{bare[:80]}', which the rules do not give")
    return out


def _seats(state: State) -> list[str]:
    out = []
    if len(state.seats) > state.players:
        out.append(f"{len(state.seats)} players sit at a {state.players}-player match")
    if state.mover and not state.seat(state.mover):
        out.append(f"the turn is {state.mover}'s, who is not playing")
    seated = {n.casefold() for n in state.seats}
    if state.first and state.first.casefold() not in seated and state.first.casefold() != "random":
        out.append(f"first player {state.first} is not playing")
    return out


def _towns(state: State, cat) -> list[str]:
    out = []
    seen: dict[int, str] = {}
    for s in state.people:
        pile = cards.pile(state.deck, cards.town(state.deck, s.name)) if state.deck is not None else None
        for r in s.town:
            if r.name not in cat.cards:
                out.append(f"{s.name}'s Town: {r.name!r} is not a card of the catalogue")
            if r.slot in seen:
                out.append(f"card #{r.slot} is in {seen[r.slot]}'s Town and in {s.name}'s")
            seen[r.slot] = s.name
            if pile is not None and r.slot not in pile:
                out.append(f"{s.name}'s Town: {r.name} (#{r.slot}) is not in {s.name}'s Town on the shared deck")
            elif pile is not None and (c := rules.card_at(state, r.slot)) and c.name != r.name:
                out.append(f"{s.name}'s Town: #{r.slot} is {c.name} on the shared deck, not {r.name}")
            if r.penalty and r.name in cat.cards and not cat.cards[r.name].penalty:
                out.append(f"{s.name}'s {r.name} is marked with a penalty, but it has none")
        if pile is not None and len(pile) != len(s.town):
            out.append(f"{s.name}'s Town has {len(pile)} cards on the shared deck and {len(s.town)} on the board")
    return out


def _phase(state: State) -> list[str]:
    out = []
    seat = state.seat(state.mover) if state.mover else None
    if state.phase == "attack" and seat and seat.turns <= 1:
        out.append(f"{seat.name} is in the Attack Phase in their first round, which skips it")
    if state.phase in ("build", "attack") and state.built > 1 + state.builds + 5:
        out.append(f"{state.built} builds this turn")
    b = state.battle
    if b is not None:
        if b.attacker != state.mover:
            out.append(f"the battle's attacker {b.attacker} does not have the turn")
        if not state.seat(b.defender) or b.defender == b.attacker:
            out.append(f"the battle's defender {b.defender} is not an opponent")
        if seat and seat.turns <= 1:
            out.append(f"{seat.name} attacks in their first round, which skips the Attack Phase")
    if state.phase == "over" and not state.result:
        out.append("the game is over but the board names no result")
    return out
