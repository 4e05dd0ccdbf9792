"""Random legal Twin Tower City matches, in process, with every player's secrets held.

Invariants after every move: parse(render(s)) == s; each player's cards are conserved
(dealt = held + played); no card is played twice; a side plays three cards a round;
the round pairs stay unknown until their round; a finished match offers no legal move.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pbd import fairplay
from pbd.games.base import Chance
from pbd.games.ttc import GAME, board, deal, rules
from pbd.table import group
from pbd.table.deck import shuffle
from pbd.games.ttc.state import State

NAMES = ["Lia", "Max", "Ann", "Bo", "Cy", "Di"]


def seat(rng: random.Random, options: dict, team: int = 1):
    names = NAMES[:2 * team]
    opts = dict(options) | ({"team": str(team)} if team > 1 else {})
    seeds = [fairplay.seed_from_text(f"{rng.random()}") for _ in names]
    state, first = GAME.create(f"{rng.getrandbits(32):08x}", names[0], "sample", seeds[0], opts)
    secrets = {names[0]: first}
    for name, seed in zip(names[1:], seeds[1:]):
        state = GAME.parse(GAME.render(state))
        state, secrets[name] = GAME.join(state, name, None, seed)
    return state, secrets


def reload(state: State, secrets) -> State:
    text = GAME.render(state)
    again = GAME.parse(text)
    assert again == state
    assert GAME.render(again) == text
    assert GAME.describe(again) == GAME.describe(state)
    for sec in secrets.values():
        GAME.attach(again, sec)
    return again


def check_invariants(state: State, secrets) -> None:
    played = [(p.kind == "battle", p.card) for r in state.rounds for p in r.plays]
    assert len(played) == len(set(played)), "a card was played twice"
    unlocked = not any(deal.deal_duties(state, s.name) for s in state.seats)
    for name in secrets if unlocked else []:
        counts = board.hand_counts(state, name)
        assert sum(counts.values()) == len(state.hands[name]) and min(counts.values()) >= 0
    held = [c for h in state.hands.values() for c in h]
    assert len(held) == len(set(held))
    ph = rules.phase(state)
    for rnd in state.rounds:
        per_side = Counter(p.side for p in rnd.plays)
        assert per_side["light"] <= 3 and per_side["dark"] <= 3
        if rnd.number > (ph.round.number if ph.round else 5):
            assert not rnd.plays and all(s.card is None for s in deal.pair(state, rnd.number)) or \
                state.options.face_up


def play_out(seed: int, options: dict | None = None, team: int = 1, reparse_every: int = 1):
    rng = random.Random(seed)
    state, secrets = seat(rng, options or {}, team)
    chance = Chance(state.meta, secrets)
    for sec in secrets.values():
        GAME.attach(state, sec)
    moves = 0
    while True:
        actors = GAME.actors(state)
        options_now = [(who, m) for who in actors for m in GAME.legal(state, who)]
        if not options_now:
            break
        who, move = rng.choice(options_now)
        GAME.play(state, who, move, chance)
        GAME.detach(state, secrets[who])             # the mover's record of the deck, as the pipeline keeps it
        moves += 1
        if moves % reparse_every == 0:
            state = reload(state, secrets)
            chance = Chance(state.meta, secrets)
        check_invariants(state, secrets)
    return state, secrets


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.long), pytest.param(2, marks=pytest.mark.long)])
def test_random_two_player_matches_reach_the_end(seed):
    state, secrets = play_out(seed)
    assert rules.phase(state).name == "over"
    assert GAME.outcome(state)
    for name in secrets:
        assert GAME.legal(state, name) == []
        assert sum(board.hand_counts(state, name).values()) == 2    # 17 dealt, 15 played: 2 left
    assert GAME.actors(state) == []
    won = rules.rounds_won(state)
    w = rules.winner(state)
    assert w == (None if won["light"] == won["dark"] else max(won, key=won.get))
    assert len(rules.results(state)) == 5


@pytest.mark.long
@pytest.mark.parametrize("option", ["face-up", "open-hands", "no-environments", "no-bonuses"])
def test_random_matches_with_each_variation(option):
    state, _ = play_out(11, {option: "yes"}, reparse_every=3)
    assert rules.phase(state).name == "over"
    assert option in state.options.words()


@pytest.mark.long          # team play's deal and turns: tests/test_ttc_match.py and test_fairplay_attacks.py in the default run
def test_random_team_match_two_a_side():
    state, secrets = play_out(5, team=2, reparse_every=5)
    assert rules.phase(state).name == "over"
    assert {p.player for r in state.rounds for p in r.plays} - {""} <= set(secrets)


def test_locks_commute_and_peel_in_any_order():
    seeds = [fairplay.seed_from_text(t) for t in ("a", "b", "c")]
    keys = [group.derive_key(s, "m1|gen1") for s in seeds]
    x = group.code("m1|17|17")
    locked = x
    for k in keys:
        locked = group.lock(locked, k)
    for k in reversed(keys):
        locked = group.unlock(locked, k)
    assert locked == x
    assert group.is_member(x)                         # codes lie in the prime-order subgroup: nothing leaks
    assert group.decode(group.encode(x)) == x


def test_shuffle_is_a_permutation_fixed_by_the_seed():
    seed = fairplay.seed_from_text("s")
    out = shuffle(list(range(50)), seed, "m|battle")
    assert sorted(out) == list(range(50)) and out != list(range(50))
    assert out == shuffle(list(range(50)), seed, "m|battle")


def test_a_side_with_more_items_than_warriors_must_nullify_before_the_round_ends():
    from pbd.games.ttc import notation

    for seed in range(40):
        rng = random.Random(seed)
        state, secrets = seat(rng, {})
        chance = Chance(state.meta, secrets)
        for sec in secrets.values():
            GAME.attach(state, sec)
        while rules.phase(state).name not in ("nullify", "over"):
            who, move = rng.choice([(w, m) for w in GAME.actors(state) for m in GAME.legal(state, w)])
            GAME.play(state, who, move, chance)
        ph = rules.phase(state)
        if ph.name != "nullify":
            continue
        side = ph.nullify[0]
        player = deal.members(state, side)[0]
        other_player = deal.members(state, "dark" if side == "light" else "light")[0]
        moves = GAME.legal(state, player)
        assert moves and all(m.startswith("nullify ") for m in moves)
        if len(ph.nullify) == 1:
            assert GAME.legal(state, other_player) == []
        with pytest.raises(Exception, match="must nullify first"):
            rules.apply(state, player, notation.parse("play battle 1"))
        number = ph.round.number
        s = rules.round_score(state, ph.round).side(side)
        for _ in range(s.to_nullify):
            GAME.play(state, player, GAME.legal(state, player)[0], chance)
        assert rules.round_score(state, state.rounds[number - 1]).side(side).to_nullify == 0
        assert f"Nullified: {side.capitalize()}" in GAME.render(state)
        return
    pytest.fail("no random match needed a nullification")


def test_the_deal_audits_clean_once_every_seed_is_revealed_and_catches_tampering():
    from pbd.games.base import Reveal

    state, secrets = play_out(2, reparse_every=50)
    assert deal.audit(state) == []                                   # nobody revealed yet: nothing to check
    for name, sec in secrets.items():
        state.meta.revealed.append(Reveal(name, sec.seed.hex(), list(sec.deck)))
    assert deal.audit(state) == [] and GAME.problems(state) == []
    # a played card swapped for one dealt to the opponent
    lia_play = next(p for r in state.rounds for p in r.plays if p.player == "Lia" and p.kind == "battle")
    max_card = next(p.card for r in state.rounds for p in r.plays if p.player == "Max" and p.kind == "battle")
    original, lia_play.card = lia_play.card, max_card
    assert any("which the deal never gave Lia" in p for p in deal.audit(state))
    assert any("which the deal never gave Lia" in p for p in GAME.problems(state))
    lia_play.card = original
    # a locked number replaced by another one
    slot = next(s for s in state.deck.slots.values() if s.card is None and s.id not in state.deck.retired)
    other_slot = next(s for s in state.deck.slots.values() if s.card is None and s is not slot)
    slot.value = other_slot.value
    assert any(f"slot {slot.id}: its number is not the deal's" in p for p in deal.audit(state))
    # a revealed seed that is not the committed one
    state.meta.revealed[0].seed = fairplay.seed_from_text("other").hex()
    assert any("do not match their commitment" in p for p in deal.audit(state))


def test_a_side_keeps_a_battle_card_for_card_2_of_every_round_to_come():
    """Card 2 of every round is a Battle Card ("the second pair of Battle Cards"); Army and Warrior Cards come only
    as a third card.  A side dealt 8 Battle Cards that plays one as card 3 in rounds 1-3 has 1 left at round 4's
    card 3, and round 5's card 2 needs it: a Battle Card is refused there, offered everywhere else it is held."""
    from pbd.errors import IllegalMoveError
    from pbd.games.ttc import notation

    rng = random.Random(3)
    state, secrets = seat(rng, {})
    chance = Chance(state.meta, secrets)
    for sec in secrets.values():
        GAME.attach(state, sec)
    cat = rules.catalogue(state)
    offered = {}
    while (ph := rules.phase(state)).name != "over":
        who, moves = next((w, GAME.legal(state, w)) for w in GAME.actors(state) if GAME.legal(state, w))
        if ph.name == "play":
            side = rules.side_of(state, who)
            offered[(ph.round.number, ph.card, side)] = any(m.startswith("play battle") for m in moves)
            if (ph.round.number, ph.card) == (4, 3):
                card = next(c for c in state.hands[who] if cat.cards[c].kind == "battle")
                with pytest.raises(IllegalMoveError, match=rf"^{side.capitalize()} holds 1 Battle Card\(s\) and needs "
                                                           r"1 for card 2 of the rounds to come"):
                    rules.apply(state, who, notation.parse(f"play battle {card}"))
        GAME.play(state, who, moves[0], chance)       # a Battle Card whenever one is offered (they sort first)
    assert offered == {(r, c, side): (r, c) not in ((4, 3), (5, 3)) for r in range(1, 6) for c in (2, 3)
                       for side in ("light", "dark")}


def test_a_pbd_refuses_to_move_for_a_seat_whose_key_or_hand_it_does_not_hold():
    from pbd.errors import DeckFormatError, IllegalMoveError
    from pbd.games.base import Meta

    rng = random.Random(4)
    state, secrets = seat(rng, {})                    # each join reads the document: only Max's secrets are held
    assert "Lia" not in state.seeds and "Lia" in [d.split()[0] for d in GAME.actors(state)]
    with pytest.raises(IllegalMoveError, match="pbd does not hold Lia's key here"):
        GAME.play(state, "Lia", "flip")
    for sec in secrets.values():
        GAME.attach(state, sec)
    GAME.play(state, "Lia", "flip", Chance(state.meta, secrets))
    GAME.detach(state, secrets["Lia"])
    card = next(c for c in state.hands["Lia"] if rules.catalogue(state).cards[c].kind == "battle")
    again = GAME.parse(GAME.render(state))            # Max's machine: Lia's hand is not held there
    GAME.attach(again, secrets["Max"])
    assert rules.phase(again).side == "light"
    with pytest.raises(IllegalMoveError, match="pbd does not hold Lia's hand here"):
        GAME.play(again, "Lia", f"play battle {card}")
    with pytest.raises(DeckFormatError, match="no catalogue is loaded for this board"):
        rules.catalogue(State(Meta("ttc", "")))
