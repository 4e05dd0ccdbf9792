"""Boys' Town battles: attack, defend, flip, optional effects, resolution, discards and draws.

A hand battle is a secret simultaneous choice: the attacker's pbd writes a commitment to
one hand slot (``H(match|seat|slot|nonce)``, pbd.table.secret); the defender chooses and
shows their card; the attacker's pbd then opens the commitment (slot and nonce in the
document, anyone can check) and shows the card.  A card that does not open the commitment
is caught (exit 3).  A Town battle is public: the attacker names a Resident, the defender
answers a pending decision.

Resolution, in the rulebook's order: higher AP wins, a tie goes to the attacker (unless the
defender's effects nullify that, then to the defender); discards — Residents used for an
effect, then the loser's card, then, in a hand battle, the winner's card; draws — draws
caused by effects (the defender's first), then the loser's.
"""

from __future__ import annotations


from pbd.errors import DocumentFormatError, IllegalMoveError
from pbd.games.boystown import cards, effects, rules
from pbd.games.boystown.state import Battle, Resident, State
from pbd.regex import pattern

#: how a hand attack's log entry carries the attacker's commitment, and a flip its opening
COMMIT_RE = pattern(r"\(commitment ([0-9a-f]{64})\)")
FLIP_RE = pattern(r"\bflips (?P<card>.+?) \(slot (?P<slot>\d{1,6}) · nonce (?P<nonce>[0-9a-f]{32})\)")


def do_attack(state: State, seat: str, target: str, name: str, source: str) -> tuple[str, str]:
    """Attack ``target`` with a card from hand (face down) or Town; return ``(log text, private line)``.

    :raises IllegalMoveError: not your Attack Phase; the target has nothing to defend with.
    """
    rules._need_phase(state, seat, "attack")
    who = rules.player(state, target)
    if who == seat:
        raise IllegalMoveError("attack an opponent, not yourself")
    source = source or _where(state, seat, name)
    if not name and source != "hand":
        raise IllegalMoveError("say which Town card attacks: attack NAME with CARD from town")
    if (who, source) not in rules.targets(state, seat):
        raise IllegalMoveError(f"{who} has no card to defend a {source} attack with")
    b = Battle(seat, who, source, origin=len(state.meta.log) + 1)
    state.phase = "battle"
    if source == "hand":
        chosen = state.private.get(seat, {}).get("slot")
        if name or chosen is None:
            slot = rules.in_hand(state, seat, name)
        elif chosen in cards.hand(state.deck, seat):
            slot = int(chosen)
        else:
            raise IllegalMoveError("your pbd does not know which card you put face down; name it")
        mine = state.private.get(seat, {})
        b.attack_commit, nonce = cards.commit(state.meta.match_id, seat, slot, mine.get("nonce"))
        b.attack_commit = mine.get("commit") or b.attack_commit     # a replay whose flip is not logged yet
        state.private[seat] = {"slot": slot, "nonce": nonce}
        state.battle = b
        c = rules.card_at(state, slot, seat)
        return (f"attacks {who} from hand with a face-down card (commitment {b.attack_commit})",
                f"(face down: {c.name if c else '?'})")
    r = rules.in_town(state, seat, name)
    b.attack_slot, b.attack_from, b.attack_card = r.slot, "town", r.name
    state.battle = b
    text = f"attacks {who} with {r.name} from town"
    forced = _forced_defender(state)
    if forced is not None:
        text += f"; {_set_defender(state, forced, 'town')}"
    return text, ""


def _where(state: State, seat: str, name: str) -> str:
    in_hand = in_town = True
    try:
        rules.in_hand(state, seat, name, claim=False)
    except IllegalMoveError:
        in_hand = False
    try:
        rules.in_town(state, seat, name)
    except IllegalMoveError:
        in_town = False
    if in_hand and in_town:
        raise IllegalMoveError(f"{name} is in your hand and in your Town: say 'from hand' or 'from town'")
    if not (in_hand or in_town):
        rules.in_hand(state, seat, name)
    return "hand" if in_hand else "town"


def defenders(state: State) -> list[Resident]:
    """Return the Residents that may defend in the current Town battle (all, unless an effect says).

    Footnote I: effects can take the choice away.  The defender's guards take priority;
    else the attacker's "defend with your weakest" leaves the weakest Residents.
    """
    b = state.battle
    cat = rules.cat(state)
    town = effects.town_cards(state, cat, b.defender)
    guards = [r for r, c in town if c.effects_of("resident", "guard")]
    if guards:
        return guards
    _, attacking = effects.battle_card(state, cat, "attacker")
    if attacking and any(e.do == "force_weakest" for e in attacking.effects_of("battle")) and town:
        aps = {r.slot: effects.resident_ap(state, cat, b.defender, r, c).value for r, c in town}
        low = min(aps.values())
        return [r for r, _ in town if aps[r.slot] == low]
    return [r for r, _ in town]


def _forced_defender(state: State) -> Resident | None:
    town = state.seat(state.battle.defender).town
    allowed = defenders(state)
    return allowed[0] if town and len(allowed) == 1 and len(allowed) < len(town) else None


def _set_defender(state: State, r_or_slot, where: str) -> str:
    b = state.battle
    if isinstance(r_or_slot, Resident):
        b.defend_slot, b.defend_card = r_or_slot.slot, r_or_slot.name
    else:
        b.defend_slot, b.defend_card = r_or_slot, rules.card_at(state, r_or_slot, b.defender).name
    b.defend_from = where
    text = f"{b.defender} defends with {b.defend_card}"
    open_windows(state)
    return text


def do_defend(state: State, seat: str, name: str) -> str:
    """Choose the defending card: a hand card (hand battle, or a Town battle with an empty Town) or a Resident.

    :raises IllegalMoveError: not your decision; that card may not defend.
    """
    b = state.battle
    if b is None or b.stage != "defend" or b.defender != seat:
        raise IllegalMoveError(f"nobody asked you to defend: {rules.whose_move(state)}")
    if b.source == "town" and state.seat(seat).town:
        r = rules.in_town(state, seat, name)
        allowed = defenders(state)
        if r not in allowed:
            names = ", ".join(a.name for a in allowed)
            raise IllegalMoveError(f"an effect decides who defends: {names}")
        return _set_defender(state, r, "town").split(" ", 1)[1]
    slot = rules.in_hand(state, seat, name)
    if b.source == "hand":
        b.defend_commit, nonce = cards.commit(state.meta.match_id, seat, slot)
        b.defend_nonce = nonce
    text = _set_defender(state, slot, "hand").split(" ", 1)[1]
    cards.reveal(state.deck, seat, slot)
    if b.source == "hand":
        b.stage = "reveal"
        b.windows = []
        text += " (face down, flipped at once); waiting on " + b.attacker + " to flip"
    return text


def do_flip(state: State, seat: str) -> str | None:
    """Open the attacker's commitment and show the card (the attacker's pbd owes this).

    Returns None if nothing is owed.

    :raises DocumentFormatError: the face-down card does not match its commitment (changed).
    """
    b = state.battle
    if b is None or b.stage != "reveal" or b.attacker != seat:
        return None
    mine = state.private.get(seat)
    if not mine:
        raise DocumentFormatError(f"{seat}'s pbd does not know which card it put face down (private state lost)")
    slot, nonce = int(mine["slot"]), str(mine["nonce"])
    logged = logged_commitment(state, b.origin)
    if logged is not None and logged != b.attack_commit:
        raise DocumentFormatError(f"the board's commitment of {seat}'s face-down card is not the one log entry "
                                  f"{b.origin} carries", hint="the board was edited after the attack")
    if not cards.opens(state.meta.match_id, seat, b.attack_commit, slot, nonce):
        raise DocumentFormatError(f"{seat}'s face-down card does not match the commitment in the document",
                                  hint="the commitment or the card was changed after it was placed")
    if slot not in cards.hand(state.deck, seat):
        raise DocumentFormatError(f"{seat}'s face-down card is no longer in {seat}'s hand")
    name = rules.card_at(state, slot, seat).name
    cards.reveal(state.deck, seat, slot)
    b.attack_slot, b.attack_from, b.attack_nonce, b.attack_card = slot, "hand", nonce, name
    state.private.pop(seat, None)
    open_windows(state)
    return f"flips {name} (slot {slot} · nonce {nonce})"


def logged_commitment(state: State, origin: int) -> str | None:
    """Return the commitment the attack logged as entry ``origin`` carries (None: no such entry in the log)."""
    entry = next((e for e in state.meta.log if e.number == origin), None)
    m = COMMIT_RE.search(entry.text) if entry is not None else None
    return m.group(1) if m else None


def logged_nonce(state: State, origin: int, seat: str) -> str | None:
    """Return the nonce ``seat``'s flip after the attack logged as entry ``origin`` published (None: no flip yet)."""
    for e in state.meta.log:
        m = FLIP_RE.search(e.text) if e.number > origin and e.player == seat else None
        if m:
            return m.group("nonce")
    return None


def check_commitments(state: State) -> list[str]:
    """Return a problem for every flipped hand-battle card that does not open its commitment."""
    b = state.battle
    out = []
    if b is None or b.source != "hand":
        return out
    for who, commit, slot, nonce in ((b.attacker, b.attack_commit, b.attack_slot, b.attack_nonce),
                                     (b.defender, b.defend_commit, b.defend_slot, b.defend_nonce)):
        if commit and slot is not None and not cards.opens(state.meta.match_id, who, commit, slot, nonce):
            out.append(f"{who}'s battle card (slot {slot}) does not match {who}'s face-down commitment")
    return out


# -- optional effects after the flip ------------------------------------------------------------

def options(state: State, seat: str) -> list[str]:
    """Return the optional effects ``seat`` may use in the battle now, in notation (plus ``pass``)."""
    b = state.battle
    side = "attacker" if seat == b.attacker else "defender"
    cat = rules.cat(state)
    slot, card = effects.battle_card(state, cat, side)
    came_from = b.attack_from if side == "attacker" else b.defend_from
    out = []
    town = effects.town_cards(state, cat, seat)
    if card and came_from == "hand" and card.effects_of("battle", "swap"):
        out += [f"swap {card.name} with {c.name}" for r, c in town]
    out += [f"use {c.name}" for r, c in town if c.effects_of("resident", "boost") and r.slot != slot
            and r.slot not in b.used]
    return list(dict.fromkeys(out))


def open_windows(state: State) -> None:
    """After the flip: the defender, then the attacker, may use one optional effect each."""
    b = state.battle
    b.stage = "effects"
    b.windows = [s for s in (b.defender, b.attacker) if options(state, s)]
    if not b.windows:
        b.stage = "resolve"


def do_window(state: State, seat: str, move) -> str:
    """Use an optional effect (``swap``/``use``) or ``pass`` in your window after the flip.

    :raises IllegalMoveError: not your window; not one of your options.
    """
    b = state.battle
    if b is None or b.stage != "effects" or b.windows[0] != seat:
        raise IllegalMoveError(f"not your battle decision: {rules.whose_move(state)}")
    text = "passes"
    if move.kind != "pass":
        text = _use_option(state, seat, move)
    b.windows.pop(0)
    if not b.windows:
        b.stage = "resolve"
    return text


def _use_option(state: State, seat: str, move) -> str:
    b = state.battle
    cat = rules.cat(state)
    side = "attacker" if seat == b.attacker else "defender"
    slot, card = effects.battle_card(state, cat, side)
    if move.kind == "swap":
        if f"swap {card.name} with " not in " ".join(options(state, seat)) or \
                cat.resolve(move.card, list(cat.cards)) != card.name:
            raise IllegalMoveError(f"{card.name} in battle has no swap effect to use now")
        r = rules.in_town(state, seat, move.target)
        rules.swap_in(state, seat, slot, r)
        b.swapped.append(slot)
        if side == "attacker":
            b.attack_slot, b.attack_from, b.attack_card = r.slot, "hand", r.name
        else:
            b.defend_slot, b.defend_from, b.defend_card = r.slot, "hand", r.name
        return f"swaps {card.name} out of the battle; {r.name} fights instead"
    r = rules.in_town(state, seat, move.card)
    c = rules.cat(state).cards[r.name]
    boost = c.effects_of("resident", "boost")
    if not boost or r.slot == slot or r.slot in b.used:
        raise IllegalMoveError(f"{c.name} has no Resident effect to use in this battle")
    b.used.append(r.slot)
    b.boosts[seat] = b.boosts.get(seat, 0) + int(boost[0].amount)
    return f"uses {c.name}: {int(boost[0].amount):+} AP (discarded after the battle)"


# -- resolution -------------------------------------------------------------------------------

def resolve(state: State) -> str | None:
    """Resolve the battle: winner, discards and draws in the rulebook's order; end the turn.

    Returns the log line, or None while the top of the discard pile an effect reads is face down.
    """
    b = state.battle
    cat = rules.cat(state)
    try:
        ap = {side: effects.battle_ap(state, cat, side) for side in ("attacker", "defender")}
    except effects.TopUnknown:
        return None
    null = {side: effects.nullified(state, cat, side) for side in ("attacker", "defender")}
    a, d = ap["attacker"].value, ap["defender"].value
    attacker_wins = a > d or a == d and "attacker_wins_ties" not in null["defender"]
    win, lose = ("attacker", "defender") if attacker_wins else ("defender", "attacker")
    seat_of = {"attacker": b.attacker, "defender": b.defender}
    names = {side: effects.battle_card(state, cat, side)[1].name for side in ap}
    words = [f"{names['attacker']} (AP {a}) against {names['defender']} (AP {d}): {seat_of[win]} wins"
             + (" the tie" if a == d else "")]
    words += _discards(state, cat, win, lose, null)
    rules.check_emptied(state, b.attacker)
    _draws(state, cat, lose, null)
    state.battle = None
    state.phase = "attack"
    words += rules.pay_owed(state)
    if not state.emptied:
        words += rules.end_turn(state)
    return "; ".join(words)


def _discards(state: State, cat, win: str, lose: str, null: dict) -> list[str]:
    b = state.battle
    out = []
    for slot in b.used:
        name = next((r.name for s in state.people for r in s.town if r.slot == slot), "?")
        _discard_slot(state, slot)
        out.append(f"{name} discarded (used)")
    order = [(lose, "loser_discarded")]
    if b.source == "hand":
        order.append((win, "winner_discarded"))
    for side, rule in order:
        slot, card = effects.battle_card(state, cat, side)
        if rule in null[side]:
            out.append(f"{card.name} is not discarded (nullified)")
            continue
        _discard_slot(state, slot)
        out.append(f"{card.name} discarded")
    return out


def _discard_slot(state: State, slot: int) -> None:
    for s in state.people:
        s.town = [r for r in s.town if r.slot != slot]
    cards.to_pile(state.deck, slot, cards.DISCARD)


def _draws(state: State, cat, lose: str, null: dict) -> None:
    b = state.battle
    seat_of = {"attacker": b.attacker, "defender": b.defender}
    for side in ("defender", "attacker"):
        _, card = effects.battle_card(state, cat, side)
        rival = seat_of["attacker" if side == "defender" else "defender"]
        for e in card.effects_of("battle", "draw"):
            who = rival if e.target == "rival" else seat_of[side]
            state.owed += [[who, f"Battle effect of {card.name}"]] * e.count
    if "loser_draws" not in null[lose]:
        state.owed.append([seat_of[lose], "lost the battle"])
