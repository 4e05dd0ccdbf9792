"""Twin Tower City's deal on the shared deck (:mod:`pbd.table.deck`): its layout, duties and audit.

The five piles (Battle, and each side's Army and Warrior Cards) are shuffled in by every
player at ``new`` and ``join``; when the last player sits, the deal is laid out by
position, as the rulebook deals it: Battle positions 1-5 are Light's face-down round
cards, 6-13 Light's hand, 14-18 Dark's round cards, 19-26 Dark's hand; the first three
Army and the first Warrior Card of each side's piles go to that side.  In team play a
side's hand positions go to its players in turn.  The rest of each pile goes back in the
box unread.  A round's face-down pair is turned up by every player's ``flip``.

Pure functions over :class:`~pbd.games.ttc.state.State`: no keys but the ones the state
holds for the players whose secrets this pbd has, and no file I/O.
"""

from __future__ import annotations

from pbd.errors import DocumentFormatError
from pbd.games.ttc.state import BATTLE_DEALT, PILES, Play, State, other
from pbd.table.deck import SharedDeck

ROUND_PILES = {"light": "light-rounds", "dark": "dark-rounds"}
PLAYED = "played"
TABLE = "table"


def new_deck(match_id: str, player: str, deck) -> SharedDeck:
    """Return the shared deck of a new match: every pile of ``deck``, card ids as text."""
    return SharedDeck.create(match_id, [player], {name: [str(i) for i in deck.pile(kind, side)]
                                                  for name, (kind, side, _) in PILES.items()})


def position(state: State, slot_id: int) -> tuple[str, int]:
    """Return ``(pile, index)`` of a slot in the shuffled-in deck (index 1 is the top)."""
    for name, ids in state.deck.gens[0].piles.items():
        if slot_id in ids:
            return name, ids.index(slot_id) + 1
    raise KeyError(slot_id)


def slot_id(state: State, pile: str, index: int) -> int:
    """Return the slot at ``index`` of ``pile`` as shuffled in."""
    return state.deck.gens[0].piles[pile][index - 1]


def kind(state: State, sid: int) -> str:
    """Return the kind of card a slot holds (``battle``, ``army``, ``warrior``): public, from its pile."""
    return PILES[position(state, sid)[0]][0]


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
    kind_, side, _ = PILES[pile]
    return side, None, (8 + index - 1) if kind_ == "army" else 11


def members(state: State, side: str) -> list[str]:
    """Return the names of the players on ``side``, in seat order."""
    return [s.name for s in state.seats if s.side == side]


def owner(state: State, sid: int) -> str | None:
    """Return the player the deal gives slot ``sid`` to (None: a round card, or not dealt)."""
    pile, index = position(state, sid)
    if (pile, index) not in _DEALT:
        return None
    side, _, pos = role(pile, index)
    team = members(state, side)
    return team[pos % len(team)] if pos is not None and team else None


_DEALT = set(dealt_positions())


def lay_out(state: State) -> None:
    """Deal the shuffled-in deck by position (the last player to sit does it); turn up round 1's pair."""
    deck = state.deck
    for side in ("light", "dark"):
        team = members(state, side)
        deck.move_down("battle", ROUND_PILES[side], 5)
        for pos in range(8):
            deck.deal("battle", team[pos % len(team)])
    for name, (kind_, side, count) in PILES.items():
        if side:
            team = members(state, side)
            for i in range(count):
                deck.deal(name, team[role(name, i + 1)[2] % len(team)])
    for name in PILES:
        deck.box(name)
    if state.options.open_hands:
        for seat in state.seats:
            deck.show_hand(seat.name)
    for rnd in range(1, 6 if state.options.face_up else 2):
        open_round(state, rnd)


def open_round(state: State, rnd: int) -> None:
    """Put round ``rnd``'s face-down pair on the table: every player owes an unlock (a flip)."""
    for side in ("light", "dark"):
        if slot_id(state, "battle", rnd + (0 if side == "light" else 13)) in state.deck.piles[ROUND_PILES[side]]:
            state.deck.draw_face_up(ROUND_PILES[side], 1, to=TABLE)


def pair(state: State, rnd: int) -> list:
    """Return the Light and Dark slots of round ``rnd``'s face-down pair."""
    return [state.deck.slots[slot_id(state, "battle", rnd)], state.deck.slots[slot_id(state, "battle", 13 + rnd)]]


def _owed(state: State, player: str) -> list[int]:
    return [i for d in state.deck.owed(player) if d.kind != "shuffle" for i in d.slot_ids]


def deal_duties(state: State, player: str) -> list[int]:
    """Return the slots ``player`` must unlock now, apart from flips (done by any command)."""
    if state.deck is None or not laid_out(state):
        return []
    rounds = set() if state.options.face_up else {s.id for r in range(1, 6) for s in pair(state, r)}
    return [i for i in _owed(state, player) if i not in rounds]


def flip_duties(state: State, player: str, rnd: int) -> list[int]:
    """Return the slots of round ``rnd``'s pair that ``player`` still has to unlock."""
    if state.deck is None or not laid_out(state):
        return []
    want = {s.id for s in pair(state, rnd)}
    return [i for i in _owed(state, player) if i in want]


def laid_out(state: State) -> bool:
    """Return True once the deal is laid out (every player sat and shuffled)."""
    return state.deck is not None and ROUND_PILES["light"] in state.deck.piles


def settle(state: State, player: str, slots: list[int]) -> int:
    """Publish ``player``'s unlocks of ``slots`` (symbolic when replaying without seeds); return how many.

    :raises DocumentFormatError: a number that unlocks to no card (tampering upstream).
    """
    state.deck.settle(player, state.seeds.get(player), only=set(slots))
    reveal_pairs(state)
    return len(slots)


def play_card(state: State, player: str, card_id: int) -> None:
    """Reveal ``player``'s hand card ``card_id`` (its unlock and proof) and put it on the played pile.

    :raises DocumentFormatError: the card is in no slot of the player's hand.
    """
    deck = state.deck
    sid = hand_slot(state, player, card_id)
    if sid is None:
        raise DocumentFormatError(f"{player}'s pbd cannot find card {card_id} in the shared deck")
    deck.discard(player, sid, to=PLAYED)
    deck.settle(player, state.seeds.get(player), only={sid})


def hand_slot(state: State, player: str, card_id: int) -> int | None:
    """Return the slot of ``player``'s hand holding ``card_id`` as this pbd reads it (:meth:`SharedDeck.card`), or
    None; replaying, the slot the document shows it in, else one nobody has seen (the log shows it played)."""
    deck = state.deck
    sid = next((i for i in deck.hands.get(player, []) if deck.card(i, player) == str(card_id)), None)
    if sid is None and deck.oracle is not None:
        sid = _replayed_slot(state, player, card_id)
    return sid


def hand_of(state: State, player: str) -> list[int]:
    """Return the cards of ``player``'s hand this pbd can read (its own, or public ones)."""
    return [int(c) for c in state.deck.hand_cards(player) if c is not None]


def _replayed_slot(state: State, player: str, card_id: int) -> int | None:
    """Return the slot a replayed play came from: the one the document shows, else any unknown one of its kind."""
    deck, text = state.deck, str(card_id)
    shown = deck.oracle.find(text)
    hand = deck.hands.get(player, [])
    card = state.library.catalogue.cards.get(card_id)
    want = card.kind if card is not None else None
    sid = shown if shown in hand else next(
        (i for i in hand if (deck.oracle.slots.get(i) is None or deck.oracle.slots[i].card is None)
         and kind(state, i) == want), None)
    if sid is not None:
        deck.known[sid] = text
    return sid


def reveal_pairs(state: State) -> None:
    """Put every fully revealed round pair on the table as the round's first two cards."""
    if not laid_out(state):
        return
    for rnd in state.rounds:
        slots = pair(state, rnd.number)
        if rnd.plays or any(s.card is None for s in slots):
            continue
        cat = state.library.catalogue
        rnd.plays = [battle_play(cat, int(slots[0].card), "light"), battle_play(cat, int(slots[1].card), "dark")]
        if rnd.number == 1 and state.first == "random":
            state.first = "light" if (int(slots[0].card) + int(slots[1].card)) % 2 == 0 else "dark"


def battle_play(cat, card_id: int, side: str, player: str = "") -> Play:
    """Return the play of Battle Card ``card_id`` by ``side``."""
    c = cat.card(card_id, "battle")
    return Play(side, "battle", c.id, player, c.dark_warrior, c.dark_item, c.light_warrior, c.light_item,
                c.environment)


def first_side(state: State, rnd: int) -> str:
    """Return the side that plays card 2 first in round ``rnd`` (it alternates round to round)."""
    first = state.first if state.first in ("light", "dark") else "light"
    return first if rnd % 2 else other(first)


def layout_problems(state: State) -> list[str]:
    """Return where the deck's layout differs from Twin Tower City's deal (hands, round cards, played pile)."""
    deck, out = state.deck, []
    if [(n, len(ids)) for n, ids in deck.gens[0].piles.items()] != [(n, len(state.library.pile(k, s)))
                                                                     for n, (k, s, _) in PILES.items()]:
        return ["the shared deck's piles are not this deck's"]
    if not laid_out(state):
        return out
    for seat in state.seats:
        for i in deck.hands.get(seat.name, []) + deck.aside.get(seat.name, []):
            if owner(state, i) != seat.name:
                out.append(f"slot {i} is in {seat.name}'s hand, but the deal did not give it to {seat.name}")
    for i in deck.piles.get(PLAYED, []):
        if owner(state, i) is None:
            out.append(f"slot {i} was played, but the deal put it in nobody's hand")
    rounds = {s.id for r in range(1, 6) for s in pair(state, r)}
    if not set(deck.piles.get(TABLE, [])) <= rounds:
        out.append("a card on the table is not a round card")
    return out


def played_problems(state: State) -> list[str]:
    """Return every card the board shows a player playing that the deck does not show from that player's hand."""
    out = []
    for rnd in state.rounds:
        shown = [s.card for s in pair(state, rnd.number)] if laid_out(state) else [None, None]
        for i, p in enumerate(rnd.plays):
            if not p.player:
                if i > 1 or str(p.card) != shown[i]:
                    out.append(f"round {rnd.number}: the board shows {p.side.capitalize()}'s face-down card as "
                               f"{p.kind} {p.card}, the shared deck does not")
                continue
            sid = state.deck.find(str(p.card))
            if sid is None or sid not in state.deck.piles.get(PLAYED, []) or owner(state, sid) != p.player:
                out.append(f"the board says {p.player} played {p.kind} {p.card}, which {p.player} was never dealt "
                           "(the board was edited by hand?)")
    return out


def audit(state: State) -> list[str]:
    """Re-derive the whole deal from the revealed seeds and check the document against it.

    Needs every seated player's seed (``pbd reveal``); returns [] while any is missing.
    Checks each seed against its commitment, re-does every lock and shuffle, checks every
    number and public card in the deck section, and that every card a player played was
    dealt to that player (the round pairs to their side).
    """
    from pbd import fairplay

    seeds: dict[str, bytes] = {}
    problems: list[str] = []
    for seat in state.seats:
        rev = state.meta.revealed_by(seat.name)
        if rev is None:
            return []
        pub = state.meta.player(seat.name)
        seed = bytes.fromhex(rev.seed)
        if pub is None or fairplay.commitment(seed, list(rev.deck)) != pub.commitment:
            problems.append(f"{seat.name}'s revealed seed and deck do not match their commitment")
        seeds[seat.name] = seed
    if problems or state.deck is None:
        return problems
    dealt, problems = state.deck.derive(seeds)
    if not laid_out(state):
        return problems
    for rnd in state.rounds:
        for i, play in enumerate(rnd.plays):
            if not play.player:
                want = dealt.get(pair(state, rnd.number)[i].id) if i < 2 else None
                if i < 2 and str(play.card) != want:
                    problems.append(f"round {rnd.number}: {play.side.capitalize()}'s face-down card was "
                                    f"battle {want}, the board shows {play.card}")
            elif not any(str(play.card) == card and owner(state, sid) == play.player for sid, card in dealt.items()):
                problems.append(f"round {rnd.number}: {play.player} played {play.kind} {play.card}, "
                                f"which the deal never gave {play.player}")
    return problems
