"""Boys' Town moves: dispatch a parsed move to its rule, and list every legal move in notation."""

from __future__ import annotations

from pbd.errors import IllegalMoveError
from pbd.games.boystown import battle, rules
from pbd.games.boystown.notation import Move
from pbd.games.boystown.state import State


def apply(state: State, seat: str, move: Move) -> tuple[str, str]:
    """Apply one move for ``seat``; return ``(public log text, private note for the mover)``.

    :raises IllegalMoveError: the move breaks a rule.
    :raises NotationError: a name cannot be resolved.
    """
    if state.phase in ("joining", "shuffling"):
        raise IllegalMoveError(f"the game has not started: {rules.phase_words(state)}")
    k = move.kind
    if k == "adjust":
        return rules.do_adjust(state, seat, move), ""
    if state.battle is not None and k in ("swap", "use", "pass") and state.battle.stage == "effects":
        return battle.do_window(state, seat, move), ""
    if k == "attack":
        return battle.do_attack(state, seat, move.target, move.card, move.source)
    simple = {"draw": rules.do_draw, "keep": rules.do_keep, "redraw": rules.do_redraw, "done": rules.do_done}
    if k in simple:
        return simple[k](state, seat), ""
    if k == "build":
        return rules.do_build(state, seat, move.card), ""
    if k == "defend":
        return battle.do_defend(state, seat, move.card), ""
    if k == "flip":
        text = battle.do_flip(state, seat)
        if text is None:
            raise IllegalMoveError(f"you have no face-down card to flip: {rules.whose_move(state)}")
        return text, ""
    if k == "use":
        return rules.do_use_hand(state, seat, move.card, move.target), ""
    if k == "swap":
        return rules.do_swap_hand(state, seat, move.card, move.target), ""
    if k == "pass":
        raise IllegalMoveError(f"there is nothing to pass on: {rules.whose_move(state)}")
    raise IllegalMoveError(f"unknown move {k}")


def legal(state: State, seat: str) -> list[str]:
    """Return every move legal now for ``seat``, in notation (``adjust`` is free-form, never listed)."""
    if state.phase in ("over", "joining", "shuffling") or seat not in state.names():
        return []
    b = state.battle
    if b is not None:
        return _battle_moves(state, seat)
    if seat != state.mover:
        return []
    if state.phase == "drawn":
        return ["keep", "redraw"] if rules.card_at(state, state.peeked, seat) else []
    out = []
    if state.phase == "draw":
        out += ["draw"] if rules.can_draw(state) else []
    elif state.phase == "build":
        out += _builds(state, seat)
    elif state.phase == "attack":
        out += _attacks(state, seat)
    return out + _hand_effects(state, seat)


def _battle_moves(state: State, seat: str) -> list[str]:
    b = state.battle
    if b.stage == "reveal" and seat == b.attacker:
        return ["flip"]
    if b.stage == "effects" and b.windows and b.windows[0] == seat:
        return [*battle.options(state, seat), "pass"]
    if b.stage != "defend" or seat != b.defender:
        return []
    if b.source == "town" and state.seat(seat).town:
        return [f"defend with {n}" for n in _names(state, [r.slot for r in battle.defenders(state)])]
    return [f"defend with {c.name}" for c in _distinct(state, seat)]


def _names(state: State, slots: list[int]) -> list[str]:
    return list(dict.fromkeys(rules.card_at(state, s).name for s in slots))


def _distinct(state: State, seat: str):
    seen = {}
    for _, c in rules.hand(state, seat):
        if c is not None:
            seen.setdefault(c.name, c)
    return list(seen.values())


def _builds(state: State, seat: str) -> list[str]:
    if state.built and state.builds <= 0:
        return []
    out = [f"build {c.name}" for c in _distinct(state, seat)
           if not (state.built and state.requires and not c.matches(state.requires))]
    return out + (["done"] if state.built else [])


def _attacks(state: State, seat: str) -> list[str]:
    out = []
    for who, source in rules.targets(state, seat):
        if source == "hand":
            out += [f"attack {who} with {c.name} from hand" for c in _distinct(state, seat)]
        else:
            out += [f"attack {who} with {n} from town" for n in _names(state, [r.slot for r in state.seat(seat).town])]
    return out


def _hand_effects(state: State, seat: str) -> list[str]:
    out = []
    town = _names(state, [r.slot for r in state.seat(seat).town])
    for c in _distinct(state, seat):
        for e in c.effects_of("hand"):
            if e.do == "draw" and e.target == "opponent":
                out += [f"use {c.name} on {o}" for o in state.names() if o != seat]
            elif e.do in ("draw", "mill"):
                out.append(f"use {c.name}")
            elif e.do == "swap":
                out += [f"swap {c.name} with {n}" for n in town]
    return list(dict.fromkeys(out))
