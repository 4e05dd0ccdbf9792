"""Every legal 2Xd6 move for a player now, in notation (pure; for ``pbd legal``).

Targets are listed with the best Tc pbd finds within 10 of the target's Rc: the highest
value in the window (see :func:`pbd.games.twoxd6.calc.best`).  With ``-O rc=stated`` a
target is listed as its announcement (``target B5 from B3``); once the defender stated the
Rc, the best Tc in its window and ``withdraw``.
"""

from __future__ import annotations

from pbd.errors import PbdError
from pbd.games.twoxd6 import calc, grid, rules
from pbd.games.twoxd6.state import State


def legal(state: State, player: str) -> list[str]:
    """Return every move legal now for ``player``."""
    if state.phase == "order":
        return [] if player in state.order_rolls else ["roll"]
    if state.phase != "act":
        return []
    if state.decisions:
        return _answers(state, player)
    if player != rules.acting(state):
        return []
    if state.act.scene == "roll":
        return ["roll"]
    if state.targeting:
        return tc_answers(state, player)
    out = plays(state, player) + recycles(state, player)
    if rules.replacements(state) > 0:
        out.append("replace")
    out += advances(state, player) + targets(state, player) + gives(state, player)
    if rules.debts(state, player):
        if any(not rules.payable(state, player, k) for _, k in rules.debts(state, player)):
            out.append("show hand")
    else:
        out += ["draw", "draw and offer"]
    return out


def _answers(state: State, player: str) -> list[str]:
    mine = [d for d in state.decisions if d.seat == player]
    if not mine:
        return []
    if state.trade and player != state.trade.seat:
        return rules.offer_answers(state, player)
    return list(mine[0].answers)


def _readable(state: State, player: str) -> list[str]:
    return list(dict.fromkeys(c for _, c in rules.hand(state, player) if c))


def plays(state: State, player: str) -> list[str]:
    """Return ``play CARD on CELL`` for every affordable, allowed placement."""
    cat = rules.catalogue(state)
    out = []
    for card_id in _readable(state, player):
        card = cat[card_id]
        for cell in state.board.cells():
            if rules.play_cost(card, cell in state.cells) > state.act.points:
                continue
            if rules.play_problem(state, player, card, cell) is None:
                out.append(f"play {card_id} on {cell}")
    return out


def recycles(state: State, player: str) -> list[str]:
    """Return ``recycle CARD`` for every tradeable card, while a point is left."""
    if state.act.points < 1:
        return []
    return [f"recycle {c}" for slot, c in rules.hand(state, player) if c and slot not in state.cold.get(player, [])]


def advances(state: State, player: str) -> list[str]:
    """Return ``advance CELL to CELL`` for every affordable Advancement."""
    if state.act.advanced:
        return []
    out = []
    for group in rules.chains(state, player):
        per = rules.advance_cost(state, group)
        for source in group:
            for dest, (n, _) in sorted(rules.advance_options(state, player, source).items()):
                if n * per <= state.act.points:
                    out.append(f"advance {source} to {dest}")
    return out


def targets(state: State, player: str) -> list[str]:
    """Return ``target CELL from CELL with TC`` for every target in range, with the best Tc in the window."""
    out = []
    mine = [c for c, st in state.cells.items() if st.owner == player]
    theirs = [c for c, st in state.cells.items() if st.owner != player]
    for source in mine:
        for target in theirs:
            if rules.target_problem(state, player, source, target):
                continue
            if len(grid.pottle(source, target)) > state.act.points:
                continue
            if state.opts.rc == "stated":
                out.append(f"target {target} from {source}")
                continue
            try:
                rc, _ = rules.rc_of(state, target)
                found = calc.best(rules.tc_pool(state, player, source, target), rc - rules.WINDOW, rc + rules.WINDOW)
            except PbdError:
                continue
            if found:
                out.append(f"target {target} from {source} with {found[1]}")
    return out


def tc_answers(state: State, player: str) -> list[str]:
    """Return the Tc moves once the defender stated the Rc (``-O rc=stated``): the best Tc in the window
    (if the chain reaches one) and ``withdraw``."""
    t = state.targeting
    if t.rc is None or t.tc is not None:
        return []
    try:
        found = calc.best(rules.tc_pool(state, player, t.source, t.target), t.rc - rules.WINDOW, t.rc + rules.WINDOW)
    except PbdError:
        found = None
    return ([f"target {t.target} from {t.source} with {found[1]}"] if found else []) + ["withdraw"]


def gives(state: State, player: str) -> list[str]:
    """Return ``give CARD to NAME`` for every card that pays one of the player's debts."""
    out = []
    for receiver, kind in rules.debts(state, player):
        out += [f"give {c} to {receiver}" for c in rules.payable(state, player, kind)]
    return list(dict.fromkeys(out))


def cost(state: State, player: str, move: str) -> int:
    """Return the acting points ``move`` (as :func:`legal` writes it) costs ``player`` now (0: free)."""
    words = move.split()
    if state.phase != "act" or state.targeting or state.decisions or len(words) < 2:
        return 0
    if words[0] == "play" and len(words) == 4:
        return rules.play_cost(rules.catalogue(state)[words[1]], words[3] in state.cells)
    if words[0] == "recycle":
        return 1
    if words[0] == "advance" and len(words) >= 4:
        source, dest = words[1], words[3]
        group = next((g for g in rules.chains(state, player) if source in g), None)
        option = rules.advance_options(state, player, source).get(dest) if group else None
        return option[0] * rules.advance_cost(state, group) if option else 0
    if words[0] == "target" and len(words) >= 4:
        return len(grid.pottle(words[3], words[1]))
    return 0


def legal_text(state: State, player: str, moves: list[str]) -> list[str]:
    """Return ``pbd legal``'s lines: each move with its acting-point cost and the points it leaves."""
    if state.phase != "act" or state.act.scene != "main" or state.decisions or state.targeting \
            or player != rules.acting(state):
        return list(moves)
    left = state.act.points
    out = [f"{player} has {left} acting point{'s' if left != 1 else ''} this act:"]
    width = max(len(m) for m in moves)
    for move in moves:
        n = cost(state, player, move)
        what = ("ends the act" if move.startswith("draw") else "free") if not n else \
            f"{n} point{'s' if n != 1 else ''}, {left - n} left"
        out.append(f"  {move:<{width}}  ({what})")
    return out
