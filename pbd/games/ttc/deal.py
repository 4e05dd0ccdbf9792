"""Who owns each dealt position, and the peels each player owes (see :mod:`.sra`).

Pure functions over :class:`~pbd.games.ttc.state.State`; the arithmetic is in :mod:`.sra`.
"""

from __future__ import annotations

from pbd.errors import DocumentFormatError
from pbd.games.ttc import sra
from pbd.games.ttc.catalogue import Deck
from pbd.games.ttc.state import BATTLE_DEALT, PILES, Play, Slot, State, other


def pile_cards(deck: Deck) -> dict[str, list[int]]:
    """Return the card ids of each pile of ``deck``, in deck order."""
    return {name: deck.pile(kind, side) for name, (kind, side, _) in PILES.items()}


def codes(match_id: str, deck: Deck) -> dict[str, list[int]]:
    """Return the public codes of every pile, in deck order."""
    return {name: [sra.code(match_id, name, i) for i in ids] for name, ids in pile_cards(deck).items()}


def code_table(match_id: str, deck: Deck) -> dict[str, dict[int, int]]:
    """Return, per pile, ``{code: card id}`` (to read a fully peeled number)."""
    key = (match_id, deck.fingerprint())
    if key not in _TABLES:
        _TABLES[key] = {name: {sra.code(match_id, name, i): i for i in ids} for name, ids in pile_cards(deck).items()}
    return _TABLES[key]


_TABLES: dict[tuple[str, str], dict[str, dict[int, int]]] = {}


def dealt_positions() -> list[tuple[str, int]]:
    """Return the positions that are dealt: Battle 1-26, Army 1-3 and Warrior 1 of each side."""
    out = [("battle", i) for i in range(1, BATTLE_DEALT + 1)]
    for name, (_, side, count) in PILES.items():
        if side:
            out += [(name, i) for i in range(1, count + 1)]
    return out


def role(pile: str, index: int) -> tuple[str, int | None, int | None]:
    """Return ``(side, round, hand position)`` of a dealt position (one of the two is None)."""
    if pile == "battle":
        side = "light" if index <= 13 else "dark"
        local = index if side == "light" else index - 13
        return (side, local, None) if local <= 5 else (side, None, local - 6)
    kind, side, _ = PILES[pile]
    return side, None, (8 + index - 1) if kind == "army" else 11


def members(state: State, side: str) -> list[str]:
    """Return the names of the players on ``side``, in seat order."""
    return [s.name for s in state.seats if s.side == side]


def owner(state: State, slot: Slot) -> str | None:
    """Return the player a hand position is dealt to (``None`` for a round card)."""
    side, _, pos = role(slot.pile, slot.index)
    if pos is None:
        return None
    team = members(state, side)
    return team[pos % len(team)] if team else None


def pair(state: State, rnd: int) -> list[Slot]:
    """Return the Light and Dark face-down slots of round ``rnd``."""
    want = {("battle", rnd), ("battle", 13 + rnd)}
    return sorted((s for s in state.slots if (s.pile, s.index) in want), key=lambda s: s.index)


def deal_duties(state: State, player: str) -> list[Slot]:
    """Return the slots ``player`` must peel now, apart from flips.

    Everyone peels every hand position but their own (open hands: their own too);
    with face-up starting cards, every round card as well.
    """
    out = []
    for slot in state.slots:
        if slot.card is not None or player in slot.peeled:
            continue
        _, rnd, pos = role(slot.pile, slot.index)
        if pos is not None and (owner(state, slot) != player or state.options.open_hands) or rnd is not None and state.options.face_up:
            out.append(slot)
    return out


def flip_duties(state: State, player: str, rnd: int) -> list[Slot]:
    """Return the slots of round ``rnd``'s pair that ``player`` has not peeled yet."""
    return [s for s in pair(state, rnd) if s.card is None and player not in s.peeled]


def apply_peels(state: State, player: str, slots: list[Slot], key: int | None,
                table: dict[str, dict[int, int]]) -> int:
    """Peel ``player``'s lock off ``slots``; a slot peeled by everyone becomes a public card.

    With ``key`` None the peel is symbolic (replaying a log without the seeds): who peeled
    is tracked, and a card that becomes public is taken from ``state.oracle`` (the board's
    slots).
    Returns how many cards became public.

    :raises DocumentFormatError: a fully peeled number is no card of this deck (tampering),
        or (symbolic) the board does not show a card the log made public.
    """
    unkey = sra.unkey(key) if key is not None else None
    opened = 0
    for slot in {id(s): s for s in slots}.values():
        if unkey is not None:
            slot.value = pow(slot.value, unkey, sra.P)
        slot.peeled.append(player)
        if len(slot.peeled) == len(state.seats):
            if unkey is None:
                card = getattr(state.oracle.get((slot.pile, slot.index)), "card", None)
                if card is None:
                    raise DocumentFormatError(f"the log makes {slot.pile} {slot.index} public, but the board's "
                                              "Deal section does not show its card")
                slot.card = card
            else:
                slot.card = read(table, slot, slot.value)
            slot.value = None
            slot.peeled = [s.name for s in state.seats]
            opened += 1
    reveal_pairs(state)
    return opened


def read(table: dict[str, dict[int, int]], slot: Slot, value: int) -> int:
    """Return the card a fully peeled number stands for.

    :raises DocumentFormatError: it is not the code of a card of the pile.
    """
    card = table[slot.pile].get(value)
    if card is None:
        raise DocumentFormatError(f"the deal is corrupt: {slot.pile} {slot.index} does not unlock to a card of "
                                  "this deck (the document was altered, or a player's pbd cheated)")
    return card


def hand_cards(state: State, player: str, key: int, table: dict[str, dict[int, int]]) -> list[tuple[Slot, int]]:
    """Return ``(slot, card)`` for every hand position of ``player`` that every other player has peeled.

    :raises DocumentFormatError: a number that unlocks to no card (tampering).
    """
    out = []
    others = {s.name for s in state.seats} - {player}
    for slot in state.slots:
        if owner(state, slot) != player:
            continue
        if slot.card is not None:
            out.append((slot, slot.card))
        elif others <= set(slot.peeled):
            out.append((slot, read(table, slot, pow(slot.value, sra.unkey(key), sra.P))))
    return out


def reveal_pairs(state: State) -> None:
    """Put every fully revealed round pair on the table as the round's first two cards."""
    for rnd in state.rounds:
        slots = pair(state, rnd.number)
        if rnd.plays or len(slots) != 2 or any(s.card is None for s in slots):
            continue
        cat = load_deck_cached(state.deck).catalogue
        rnd.plays = [battle_play(cat, slots[0].card, "light"), battle_play(cat, slots[1].card, "dark")]
        if rnd.number == 1 and state.first == "random":
            state.first = "light" if (slots[0].card + slots[1].card) % 2 == 0 else "dark"


def battle_play(cat, card_id: int, side: str, player: str = "") -> Play:
    """Return the play of Battle Card ``card_id`` by ``side``."""
    c = cat.card(card_id, "battle")
    return Play(side, "battle", c.id, player, c.dark_warrior, c.dark_item, c.light_warrior, c.light_item,
                c.environment)


_DECKS: dict[str, Deck] = {}


def load_deck_cached(spec: str) -> Deck:
    """Return the deck ``spec`` names, loaded once per process.

    :raises DeckFormatError: it cannot be read.
    """
    from pbd.games.ttc.catalogue import load_deck

    if spec not in _DECKS:
        _DECKS[spec] = load_deck(spec, from_document=True)
    return _DECKS[spec]


def first_side(state: State, rnd: int) -> str:
    """Return the side that plays card 2 first in round ``rnd`` (it alternates round to round)."""
    first = state.first if state.first in ("light", "dark") else "light"
    return first if rnd % 2 else other(first)


def audit(state: State) -> list[str]:
    """Re-derive the whole deal from the revealed seeds and check the document against it.

    Needs every seated player's seed (``pbd reveal``); returns [] while any is missing.
    Checks each seed against its commitment, re-does every lock and shuffle in join order,
    checks every number in the Deal section is the final deck with exactly the recorded
    unlocks removed, that every public card is the card dealt there, and that every card a
    player played was dealt to that player (the round pairs to their side).
    """
    from pbd import fairplay

    seeds: dict[str, bytes] = {}
    problems: list[str] = []
    for seat in state.seats:
        rev = state.meta.revealed_by(seat.name) if hasattr(state.meta, "revealed_by") else None
        if rev is None:
            return []
        pub = state.meta.player(seat.name)
        seed = bytes.fromhex(rev.seed)
        if pub is None or fairplay.commitment(seed, list(rev.deck)) != pub.commitment:
            problems.append(f"{seat.name}'s revealed seed and deck do not match their commitment")
        seeds[seat.name] = seed
    if problems or not state.slots:
        return problems
    match_id = state.meta.match_id
    d = load_deck_cached(state.deck)
    piles = codes(match_id, d)
    for name in state.layers:
        piles = {pile: sra.lock_and_shuffle(values, seeds[name], match_id, pile) for pile, values in piles.items()}
    keys = {name: sra.key(seed, match_id) for name, seed in seeds.items()}
    table = code_table(match_id, d)
    dealt: dict[tuple[str, int], int] = {}
    for slot in state.slots:
        final = piles[slot.pile][slot.index - 1]
        where = f"{slot.pile} {slot.index}"
        clear = final
        for name in state.layers:
            clear = sra.peel(clear, keys[name])
        card = table[slot.pile].get(clear)
        if card is None:
            problems.append(f"{where}: the re-derived deal does not unlock to a card")
            continue
        dealt[(slot.pile, slot.index)] = card
        if slot.card is not None:
            if slot.card != card:
                problems.append(f"{where}: the document shows card {slot.card}, the deal put card {card} there")
            continue
        expected = final
        for name in slot.peeled:
            expected = sra.peel(expected, keys[name])
        if slot.value != expected:
            problems.append(f"{where}: the number in the document is not the deal's number with "
                            f"{', '.join(slot.peeled) or 'no'} unlock(s) removed")
    owned: dict[str, set[int]] = {}
    for slot in state.slots:
        holder = owner(state, slot)
        if holder and (slot.pile, slot.index) in dealt:
            owned.setdefault(holder, set()).add(dealt[(slot.pile, slot.index)])
    for rnd in state.rounds:
        for i, play in enumerate(rnd.plays):
            if not play.player:
                want = [dealt.get(("battle", rnd.number)), dealt.get(("battle", 13 + rnd.number))]
                if i < 2 and play.card != want[i]:
                    problems.append(f"round {rnd.number}: {play.side.capitalize()}'s face-down card was "
                                    f"battle {want[i]}, the board shows {play.card}")
            elif play.card not in owned.get(play.player, set()):
                problems.append(f"round {rnd.number}: {play.player} played {play.kind} {play.card}, "
                                f"which the deal never gave {play.player}")
    return problems
