"""What the catalogue's effects add up to: AP in a battle, TP of a Resident, nullified rules.

Pure functions over the state.  Every total comes with its explanation (``lines``) so
the board, ``pbd score`` and the battle's log line can say where each point came from.

Readings (also in the README's Boys' Town rule notes):

* Resident effects are continuous: they apply whenever their conditions hold, with no move.
* Effects that read the top of the discard pile read it when they apply: a battle when
  it is resolved (after the flip and the optional effects, before anything is
  discarded), a Resident's TP when the board or the score is computed.
* An effect that nullifies a rule does so for its owner's side: "the loser draws" is
  nullified by the loser's effects, "the winner is discarded" by the winner's, "a tie
  goes to the attacker" by the defender's (then a tie goes to the defender).
* Simultaneous modifiers simply add up; where two effects conflict (the defender's guard
  against the attacker's "defend with your weakest"), the defender's effect takes priority.
"""

from __future__ import annotations


from pbd.games.boystown import cards
from pbd.games.boystown.catalogue import Card, Catalogue, Effect
from pbd.games.boystown.state import Resident, State
from pbd.record import Record


class TopUnknown(Exception):
    """The top of the discard pile is still face down (the table owes its opening)."""


class Total(Record):
    """A number and where it came from."""

    value: int
    lines: list[str]

    FIELDS = ("value", "lines")

    def __init__(self, value: int = 0, lines: list[str] | None = None):
        self.value = value
        self.lines = [] if lines is None else lines

    def add(self, amount: int, why: str) -> None:
        """Add ``amount`` and note why (a zero is not noted)."""
        if amount:
            self.value += amount
            self.lines.append(f"{amount:+} {why}")


def top_card(state: State, cat: Catalogue) -> Card | None:
    """Return the card on top of the discard pile (None: the pile is empty).

    :raises TopUnknown: it is still face down.
    """
    ids = cards.pile(state.deck, cards.DISCARD) if state.deck is not None else []
    if not ids:
        return None
    cid = cards.card(state.deck, ids[0])
    if cid is None:
        raise TopUnknown()
    return cat.cards[cards.name_of(cat.deck(), cid)]


def town_cards(state: State, cat: Catalogue, seat: str) -> list[tuple[Resident, Card]]:
    """Return ``(resident, card)`` for every Resident of ``seat``'s Town, in build order."""
    s = state.seat(seat)
    out = []
    for r in s.town if s else []:
        if r.name in cat.cards:
            out.append((r, cat.cards[r.name]))
    return out


def holds(state: State, cat: Catalogue, e: Effect, seat: str, slot: int | None, role: str = "",
          source: str = "") -> bool:
    """Return True if effect ``e`` of the card in ``slot`` (owned by ``seat``) applies now.

    ``role`` (attacker|defender) and ``source`` (hand|town) describe the battle, if any.

    :raises TopUnknown: the effect reads a face-down top of the discard pile.
    """
    if e.as_ and e.as_ != role or e.from_ and e.from_ != source:
        return False
    if e.if_top:
        top = top_card(state, cat)
        if top is None or not top.matches(e.if_top):
            return False
    if e.with_:
        others = [c for r, c in town_cards(state, cat, seat) if r.slot != slot]
        if not any(c.matches(e.with_) for c in others):
            return False
    return True


def active_combos(state: State, cat: Catalogue, seat: str) -> list:
    """Return the combos whose every card is a Resident of ``seat``'s Town."""
    names = {c.name for _, c in town_cards(state, cat, seat)}
    return [combo for combo in cat.combos if set(combo.cards) <= names]


def resident_tp(state: State, cat: Catalogue, seat: str, r: Resident, card: Card) -> Total:
    """Return a Resident's TP bonuses (everything but its base TP), explained.

    Combos, Resident TP effects, its build penalty (unless swapped in), an extra build's
    penalty and the logged adjustments.
    """
    t = Total()
    for combo in active_combos(state, cat, seat):
        if card.name in combo.cards:
            t.add(combo.tp, f"combo {combo.name}")
    for e in card.effects_of("resident", "tp"):
        try:
            if not holds(state, cat, e, seat, r.slot):
                continue
        except TopUnknown:
            continue
        times = 1
        if e.per:
            times = sum(1 for o, c in town_cards(state, cat, seat) if o.slot != r.slot and c.matches(e.per))
        t.add(int(e.amount) * times, f"{card.name}'s Resident effect" + (f" ×{times}" if e.per else ""))
    if r.penalty:
        t.add(dict(card.penalty).get("tp", 0), "build penalty")
    t.add(r.extra_tp, "extra build penalty")
    t.add(r.adjust_tp, "adjust")
    return t


def resident_ap(state: State, cat: Catalogue, seat: str, r: Resident, card: Card) -> Total:
    """Return a Resident's AP as it stands in its Town (base AP included), explained."""
    t = Total(card.ap, [f"{card.ap} base"])
    for combo in active_combos(state, cat, seat):
        if card.name in combo.cards:
            t.add(combo.ap, f"combo {combo.name}")
    if r.penalty:
        t.add(dict(card.penalty).get("ap", 0), "build penalty")
    t.add(r.adjust_ap, "adjust")
    return t


def battle_card(state: State, cat: Catalogue, side: str) -> tuple[int | None, Card | None]:
    """Return ``(slot, card)`` of the attacker's or the defender's card in the battle."""
    b = state.battle
    slot, name = (b.attack_slot, b.attack_card) if side == "attacker" else (b.defend_slot, b.defend_card)
    if slot is None:
        return None, None
    return slot, cat.cards.get(name)


def _source(state: State, side: str) -> str:
    b = state.battle
    return b.attack_from if side == "attacker" else b.defend_from


def battle_ap(state: State, cat: Catalogue, side: str) -> Total:
    """Return the AP of ``side``'s card in the battle, explained.

    Base AP (a Resident: as it stands in its Town), its own Battle effects, the rival
    card's Battle effects aimed at it, its owner's Resident effects, and Resident boosts.

    :raises TopUnknown: an effect that applies reads a face-down top of the discard pile.
    """
    b = state.battle
    seat = b.attacker if side == "attacker" else b.defender
    rival_side = "defender" if side == "attacker" else "attacker"
    slot, card = battle_card(state, cat, side)
    resident = next((r for r in state.seat(seat).town if r.slot == slot), None)
    t = resident_ap(state, cat, seat, resident, card) if resident else Total(card.ap, [f"{card.ap} base"])
    for e in card.effects_of("battle", "ap"):
        if e.target == "self" and holds(state, cat, e, seat, slot, side, b.source):
            t.add(_amount(state, cat, e), f"{card.name}'s Battle effect")
    _, rival = battle_card(state, cat, rival_side)
    rival_seat = b.defender if side == "attacker" else b.attacker
    for e in rival.effects_of("battle", "ap") if rival else []:
        if e.target == "rival" and holds(state, cat, e, rival_seat, None, rival_side, b.source):
            t.add(_amount(state, cat, e), f"{rival.name}'s Battle effect")
    for r, c in town_cards(state, cat, seat):
        for e in c.effects_of("resident", "ap"):
            if e.target == "battle" and r.slot != slot and holds(state, cat, e, seat, r.slot, side, b.source):
                t.add(_amount(state, cat, e), f"{c.name}'s Resident effect")
    t.add(b.boosts.get(seat, 0), "Resident boost")
    return t


def _amount(state: State, cat: Catalogue, e: Effect) -> int:
    if isinstance(e.amount, int):
        return e.amount
    top = top_card(state, cat)
    if top is None:
        return 0
    return top.ap if e.amount == "top_ap" else top.tp


def nullified(state: State, cat: Catalogue, side: str) -> set[str]:
    """Return the battle rules nullified for ``side`` by its own card's and Residents' effects."""
    b = state.battle
    seat = b.attacker if side == "attacker" else b.defender
    slot, card = battle_card(state, cat, side)
    rules = set()
    found = [(e, slot) for e in (card.effects_of("battle", "nullify") if card else [])]
    found += [(e, r.slot) for r, c in town_cards(state, cat, seat) for e in c.effects_of("resident", "nullify")]
    for e, owner_slot in found:
        try:
            if holds(state, cat, e, seat, owner_slot, side, b.source):
                rules.add(e.rule)
        except TopUnknown:
            continue
    return rules


def goodcup(state: State, cat: Catalogue, seat: str) -> bool:
    """Return True if a Resident of ``seat``'s Town doubles base TP (The John Goodcup)."""
    return any(c.effects_of("resident", "goodcup") for _, c in town_cards(state, cat, seat))
