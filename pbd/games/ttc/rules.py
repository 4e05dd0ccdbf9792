"""Twin Tower City rules: where a match stands, whose play it is, legal moves, applying a move.

Turn order (the rulebook's): a round starts by flipping its face-down pair; the first
player plays card 2, then the second player; for card 3 the order swaps (so the second
player plays twice in a row); the next round starts with the other player.  A side
with more items than warriors to wield them then nullifies the excess.  After five
rounds the side that won more rounds wins.
"""

from __future__ import annotations

from itertools import combinations, permutations
from operator import attrgetter
from typing import TYPE_CHECKING

from pbd.errors import DeckFormatError, IllegalMoveError, UnknownNameError
from pbd.games.ttc import deal, score
from pbd.games.ttc.catalogue import Catalogue
from pbd.games.ttc.state import PLAYS_PER_SIDE, SIDES, Options, Play, Round, State, other
from pbd.record import Record

if TYPE_CHECKING:   # annotations only: the notation module loads with the first move read
    from pbd.games.ttc.notation import Move

#: Cards on the table when a round's plays are done: the pair plus two per side.
FULL = 2 + 2 * PLAYS_PER_SIDE


def catalogue(state: State) -> Catalogue:
    """Return the catalogue the match (or hand-made board) uses (loaded once by the game, passed in the state).

    :raises DeckFormatError: the game could not load it.
    """
    lib = state.library
    if lib is None:
        raise DeckFormatError("no catalogue is loaded for this board")
    return getattr(lib, "catalogue", lib)


class Phase(Record):
    """Where the match stands: ``joining``, ``flip``, ``play``, ``nullify`` or ``over``."""

    name: str
    round: Round | None
    side: str | None               # play: the side to play; nullify: None (see ``nullify``)
    card: int                      # play: card 2 or 3
    nullify: tuple[str, ...]       # nullify: sides that still have to choose

    FIELDS = ("name", "round", "side", "card", "nullify")

    def __init__(self, name: str, round: Round | None = None, side: str | None = None, card: int = 0,
                 nullify: tuple[str, ...] = ()):
        self.name = name
        self.round = round
        self.side = side
        self.card = card
        self.nullify = nullify


def seated(state: State) -> bool:
    """Return True once every seat is taken and the deck is final."""
    return len(state.seats) == 2 * state.options.team and deal.laid_out(state)


def round_score(state: State, rnd: Round) -> score.Score:
    """Return the score of a round's cards.

    :raises IllegalMoveError: the cards on the board allow no score (a bad swap).
    """
    key = (state.catalogue, state.deck_name, _OPTION_FIELDS(state.options), tuple(map(_play_key, rnd.plays)),
           tuple((side, tuple(names)) for side, names in rnd.nullified.items()))
    hit = _SCORES.get(key)
    if hit is None:
        try:
            hit = score.score_round(rnd.plays, catalogue(state), state.options, rnd.nullified)
        except IllegalMoveError as exc:
            hit = exc
        if len(_SCORES) > 4096:
            _SCORES.clear()
        _SCORES[key] = hit
    if isinstance(hit, IllegalMoveError):
        raise IllegalMoveError(hit.message, hint=hit.hint)
    return hit


#: Scores by (catalogue, deck, options, cards, nullified): a round is scored many times per command.
_SCORES: dict[tuple, score.Score | IllegalMoveError] = {}


#: Every option of the match (all flags and numbers), read at once.
_OPTION_FIELDS = attrgetter(*Options.FIELDS)
#: Every field of a card in play but its swaps (a list), read at once.
_PLAY_FIELDS = attrgetter(*(f for f in Play.FIELDS if f != "swaps"))


def _play_key(play: Play) -> tuple:
    """Return every field of ``play`` as a hashable tuple (the score's key: a ``repr`` of each card cost a late
    ``pbd status`` of a 2-seat match, which asks the score of every round many times, a tenth of its CPU)."""
    return _PLAY_FIELDS(play), tuple(map(tuple, play.swaps))


def done(state: State, rnd: Round) -> bool:
    """Return True if every card of the round is played and every needed nullification chosen."""
    if len(rnd.plays) < FULL:
        return False
    s = round_score(state, rnd)
    return not (s.light.to_nullify or s.dark.to_nullify)


def phase(state: State) -> Phase:
    """Return where the match stands now (a board typed by hand, which has no match, is never waiting for players)."""
    if state.seats and state.meta.match_id and not seated(state):
        return Phase("joining")
    for rnd in state.rounds:
        if not rnd.plays:
            return Phase("flip", rnd)
        if len(rnd.plays) < FULL:
            i = len(rnd.plays) - 2
            first = deal.first_side(state, rnd.number)
            order = [first, other(first), other(first), first]
            return Phase("play", rnd, order[i], 2 if i < 2 else 3)
        s = round_score(state, rnd)
        pending = tuple(side for side in SIDES if s.side(side).to_nullify)
        if pending:
            return Phase("nullify", rnd, nullify=pending)
    return Phase("over")


def results(state: State) -> list[tuple[int, str | None, score.Score]]:
    """Return ``(round, winning side or None, score)`` for every finished round."""
    out = []
    for rnd in state.rounds:
        if rnd.plays and done(state, rnd):
            s = round_score(state, rnd)
            out.append((rnd.number, s.leader(), s))
    return out


def rounds_won(state: State) -> dict[str, int]:
    """Return how many rounds each side has won so far."""
    won = {"light": 0, "dark": 0}
    for _, side, _ in results(state):
        if side:
            won[side] += 1
    return won


def winner(state: State) -> str | None:
    """Return the winning side of a finished match (``None``: not finished, or a draw)."""
    if phase(state).name != "over":
        return None
    won = rounds_won(state)
    if won["light"] == won["dark"]:
        return None
    return "light" if won["light"] > won["dark"] else "dark"


def side_of(state: State, player: str) -> str:
    """Return the side ``player`` plays."""
    for seat in state.seats:
        if seat.name == player:
            return seat.side
    raise IllegalMoveError(f"{player} is not playing in this match")


# -- legal moves --------------------------------------------------------------------------

def legal(state: State, player: str) -> list[str]:
    """Return every move ``player`` may make now, in notation (none once the match is over)."""
    ph = phase(state)
    if ph.name in ("joining", "over"):
        return []
    if deal.deal_duties(state, player):
        return ["flip"]
    if ph.name == "flip":
        return ["flip"] if deal.flip_duties(state, player, ph.round.number) else []
    side = side_of(state, player)
    if ph.name == "nullify":
        if side not in ph.nullify:
            return []
        s = round_score(state, ph.round).side(side)
        names = dict.fromkeys(e.name for e in s.entries if e.kind == "item" and e.status in ("", "provisional"))
        return [f"nullify {n}" for n in names]
    if ph.side != side:
        return []
    cat = catalogue(state)
    out = []
    spare = reserve_ok(state, side, ph.round.number)
    for card_id in sorted(state.hands.get(player, [])):
        card = cat.cards[card_id]
        if card.kind == "battle":
            if spare:
                out.append(f"play battle {card_id}")
        elif ph.card == 3:
            out += _special_moves(state, ph.round, side, card, cat)
    return out


def battles_left(state: State, side: str) -> int:
    """Return how many Battle Cards ``side`` still holds (public: dealt minus played)."""
    team = set(deal.members(state, side))
    return sum(1 for seat in team for i in state.deck.hands.get(seat, []) if deal.kind(state, i) == "battle")


def reserve_ok(state: State, side: str, rnd: int) -> bool:
    """Return True if ``side`` may play a Battle Card now and still have one for card 2 of each later round."""
    return battles_left(state, side) - 1 >= len(state.rounds) - rnd


def _special_moves(state: State, rnd: Round, side: str, card, cat: Catalogue) -> list[str]:
    live = [e.name for e in score.warriors(rnd.plays, side, cat) if e.status != "replaced"]
    if card.kind == "warrior":
        return [f"play warrior {card.id} replacing {x}" for x in dict.fromkeys(live)]
    out = [f"play army {card.id} replacing {x} with {y}" for x in dict.fromkeys(live) for y in card.warriors]
    pairs = dict.fromkeys(tuple(sorted((live[i], live[j]))) for i, j in combinations(range(len(live)), 2))
    for x1, x2 in pairs:
        for y1, y2 in permutations(card.warriors, 2):
            out.append(f"play army {card.id} replacing {x1} with {y1}, {x2} with {y2}")
    return out


# -- applying moves -----------------------------------------------------------------------

def apply(state: State, player: str, move: Move) -> list[str]:
    """Apply one move for ``player`` in place; return the public summary lines.

    :raises IllegalMoveError: the move breaks a rule (which one, with the numbers).
    :raises UnknownNameError: a card or name the catalogue does not have.
    """
    ph = phase(state)
    if ph.name == "joining":
        raise IllegalMoveError("the match has not started: waiting for players to join")
    if ph.name == "over":
        raise IllegalMoveError("the match is over: " + result_line(state))
    if move.verb == "flip":
        return _flip(state, player, ph)
    if deal.deal_duties(state, player) or (ph.name == "flip" and deal.flip_duties(state, player, ph.round.number)):
        raise IllegalMoveError("flip first: the round's face-down pair is not revealed yet")
    if ph.name == "flip":
        waiting = [s.name for s in state.seats if deal.flip_duties(state, s.name, ph.round.number)]
        raise IllegalMoveError(f"round {ph.round.number} has not been flipped yet: waiting for "
                               f"{', '.join(waiting)} to flip")
    side = side_of(state, player)
    if move.verb == "nullify":
        return _nullify(state, player, side, ph, move)
    return _play(state, player, side, ph, move)


def _flip(state: State, player: str, ph: Phase) -> list[str]:
    duties = deal.deal_duties(state, player)
    if ph.name == "flip":
        duties += deal.flip_duties(state, player, ph.round.number)
    if not duties:
        raise IllegalMoveError("there is nothing for you to flip now" +
                               (f" (round {ph.round.number} is already face up)" if ph.round else ""))
    if player not in state.seeds:
        raise IllegalMoveError(f"pbd does not hold {player}'s key here")
    deal.settle(state, player, duties)
    lines = [f"flip: unlocked {len(duties)} card{'s' if len(duties) != 1 else ''}"]
    if ph.name == "flip" and ph.round.plays:
        p = ph.round.plays
        lines.append(f"round {ph.round.number} face up: Light battle {p[0].card}, Dark battle {p[1].card}")
    return lines


def _nullify(state: State, player: str, side: str, ph: Phase, move: Move) -> list[str]:
    if ph.name != "nullify" or side not in ph.nullify:
        raise IllegalMoveError(f"{side.capitalize()} has no item to nullify now: a side nullifies only when the "
                               "round's cards are all played and it has more items than warriors to wield them")
    item = catalogue(state).item(move.item, side)
    ph.round.nullified[side].append(item.name)
    try:
        round_score(state, ph.round)
    except IllegalMoveError:
        ph.round.nullified[side].pop()
        raise
    return [f"nullify {item.name}", *_after(state, player, ph.round)]


def _play(state: State, player: str, side: str, ph: Phase, move: Move) -> list[str]:
    if ph.name == "nullify":
        raise IllegalMoveError(f"round {ph.round.number}'s cards are all played; "
                               f"{' and '.join(s.capitalize() for s in ph.nullify)} must nullify first")
    if ph.side != side:
        whom = ", ".join(n for n in deal.members(state, ph.side))
        raise IllegalMoveError(f"it is {ph.side.capitalize()}'s turn ({whom}) to play card {ph.card} "
                               f"of round {ph.round.number}")
    cat = catalogue(state)
    try:
        card = cat.card(move.card, move.kind)
    except UnknownNameError as exc:
        raise IllegalMoveError(f"{exc.message}: that is not a card of this deck", hint=exc.hint) from None
    hand = state.hands.get(player)
    if hand is None:
        raise IllegalMoveError(f"pbd does not hold {player}'s hand here")
    if card.id not in hand and (state.deck is None or deal.hand_slot(state, player, card.id) is None):
        raise IllegalMoveError(f"{card.kind} {card.id} is not in your hand")
    if card.kind == "battle":
        if move.swaps or move.replacing:
            raise IllegalMoveError("a Battle Card replaces nobody: write 'play battle N'")
        if not reserve_ok(state, side, ph.round.number):
            later = len(state.rounds) - ph.round.number
            raise IllegalMoveError(f"{side.capitalize()} holds {battles_left(state, side)} Battle Card(s) and needs "
                                   f"{later} for card 2 of the rounds to come: play an Army or Warrior Card now")
        play = deal.battle_play(cat, card.id, side, player)
    else:
        if ph.card != 3:
            raise IllegalMoveError(f"Army and Warrior Cards can only be played as the third card "
                                   f"(this is card {ph.card})")
        play = _special(state, ph.round, side, player, card, move, cat)
    ph.round.plays.append(play)
    try:
        round_score(state, ph.round)
    except IllegalMoveError:
        ph.round.plays.pop()
        raise
    if card.id in hand:                 # (replaying, a hand nobody reads: the deck's slot, SharedDeck.card)
        hand.remove(card.id)
    deal.play_card(state, player, card.id)
    text = f"play {card.kind} {card.id}"
    if play.swaps:
        text += " replacing " + ", ".join(f"{o} with {n}" if card.kind == "army" else o for o, n in play.swaps)
    return [text, *_after(state, player, ph.round)]


def _special(state: State, rnd: Round, side: str, player: str, card, move: Move, cat: Catalogue) -> Play:
    live = [e for e in score.warriors(rnd.plays, side, cat) if e.status != "replaced"]

    def own(name: str) -> str:
        key = " ".join(name.split()).casefold()
        for e in live:
            if key in (e.name.casefold(), e.identity.casefold()):
                return e.name
        raise IllegalMoveError(f"{name} is not one of your warriors on the table "
                               f"(yours: {', '.join(dict.fromkeys(e.name for e in live))})")

    if card.kind == "warrior":
        if len(move.replacing) != 1 or move.swaps:
            raise IllegalMoveError(f"a Warrior Card replaces one warrior: write 'play warrior {card.id} "
                                   f"replacing NAME'")
        return Play(side, "warrior", card.id, player, swaps=[(own(move.replacing[0]), card.name)])
    if not 1 <= len(move.swaps) <= 2 or move.replacing:
        raise IllegalMoveError(f"an Army Card replaces one or two of your warriors: write 'play army {card.id} "
                               "replacing X with Y, X with Y'")
    swaps = []
    for old, new in move.swaps:
        hit = next((w for w in card.warriors if w.casefold() == " ".join(new.split()).casefold()), None)
        if hit is None:
            raise IllegalMoveError(f"army {card.id} shows {', '.join(card.warriors)}; {new} is not one of them")
        swaps.append((own(old), hit))
    if len(swaps) == 2 and swaps[0][1] == swaps[1][1]:
        raise IllegalMoveError(f"each warrior of army {card.id} can come in once, not {swaps[0][1]} twice")
    return Play(side, "army", card.id, player, swaps=swaps)


def _after(state: State, player: str, rnd: Round) -> list[str]:
    """Finish a round if its last card or nullification is in; flip the next pair for ``player``."""
    if not done(state, rnd):
        return []
    s = round_score(state, rnd)
    lead = s.leader()
    lines = [f"round {rnd.number}: Light {s.light.total}, Dark {s.dark.total} — "
             + (f"{lead.capitalize()} wins the round" if lead else "nobody wins the round (equal Power)")]
    ph = phase(state)
    if ph.name == "flip":
        deal.open_round(state, ph.round.number)
    if ph.name == "flip" and player in state.seeds:
        duties = deal.flip_duties(state, player, ph.round.number)
        if duties:
            deal.settle(state, player, duties)
            lines.append(f"flip round {ph.round.number}: unlocked {len(duties)} card{'s' if len(duties) != 1 else ''}")
    elif ph.name == "over":
        lines.append(result_line(state))
    return lines


def result_line(state: State) -> str:
    """Return the match result, or the rounds won so far."""
    won = rounds_won(state)
    score_text = f"Light {won['light']} round(s), Dark {won['dark']}"
    if phase(state).name != "over":
        return f"rounds won: {score_text}"
    w = winner(state)
    return f"{w.capitalize()} wins the match ({score_text})" if w else f"the match is drawn ({score_text})"
