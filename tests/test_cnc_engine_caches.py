"""The C&C engine's fast paths (issue 16) remember facts between moves: each is forgotten when what it
depends on changes, and the HMAC shortcut gives the standard bytes."""

from __future__ import annotations

import hmac
import random
import types

import pytest

import pbd.games.cnc as cnc
from pbd import fairplay
from pbd.errors import PbdError
from pbd.games.cnc import GAME
from pbd.games.cnc import rules
from pbd.games.cnc.cards import Catalogue, bundled_catalogue
from pbd.games.cnc.fullnames import full_names
from pbd.games.cnc.notation import parse_move
from pbd.games.cnc.state import Character
from pbd.simulate import seat

from cnc_helpers import CITYZEN_ALICE
from fastpath_helpers import reads_slowly, needs_inline_attributes


def _match():
    return seat(GAME, random.Random(3), decks=("forces-of-justice", "forces-of-corruption"))


def test_a_catalogue_installed_between_two_moves_on_one_state_is_used_by_the_second(tmp_path):
    state, chance = _match()
    GAME.play(state, "Ann", "draw", chance)          # the state's catalogue is looked up here
    state.side("Ann").hand.append("Cityzen Alice")
    with pytest.raises(PbdError, match="unknown card 'Cityzen Alice'"):
        GAME.play(state, "Ann", "play Cityzen Alice", chance)
    (tmp_path / "mine.toml").write_text(CITYZEN_ALICE, encoding="utf-8")
    cnc._install_catalogue(types.SimpleNamespace(catalogue_path=str(tmp_path / "mine.toml")))
    assert GAME.play(state, "Ann", "play Cityzen Alice", chance) == ["play Cityzen Alice · AP 2→1"]


def test_a_log_replaced_by_an_earlier_one_owes_the_opening_hands_again():
    state, chance = _match()
    GAME.play(state, "Ann", "end turn", chance)
    GAME.play(state, "Ben", "draw", chance)
    assert GAME.play(state, "Ben", "end turn", chance) == ["end turn"]     # both hands drawn: nothing owed
    state.meta.log = state.meta.log[:2]             # as a replay does: new match, joined
    assert GAME.play(state, "Ann", "end turn", chance) == ["opening hand · 5 cards drawn", "end turn"]


def test_a_name_is_resolved_against_the_catalogue_of_the_move_not_of_an_earlier_one():
    state, _ = _match()
    state.side("Ann").characters.append(Character("The Sentry", 40))
    state.side("Ben").characters.append(Character("Nill", 10))
    move = parse_move("Sentry attacks Nill")
    bundled = bundled_catalogue()
    no_alias = Catalogue({**bundled.cards, "The Sentry": bundled.get("The Sentry").replace(aliases=())})
    assert full_names(state, "Ann", move, bundled, rules).source == "The Sentry attacks Nill"
    assert full_names(state, "Ann", move, no_alias, rules) is move        # "Sentry" names nothing there
    assert full_names(state, "Ann", move, bundled, rules).source == "The Sentry attacks Nill"


@pytest.mark.parametrize("size", [0, 1, 31, 32, 64, 65, 200])
def test_the_hmac_shortcut_gives_the_standard_hmac(size):
    rng = random.Random(size)
    key, message = rng.randbytes(size), rng.randbytes(3 * size + 1)
    assert fairplay.hmac_sha256(key, message) == hmac.digest(key, message, "sha256")
    assert fairplay.hmac_sha256(bytearray(key), message) == hmac.digest(key, message, "sha256")


def test_matches_played_side_by_side_walk_each_seats_hash_chain_once():
    seated = [seat(GAME, random.Random(100 + k)) for k in range(40)]     # 80 seats, each chain walked once here
    before = fairplay._chain.cache_info().misses
    for state, chance in seated:
        for side in state.sides:
            chance.publish(side.name)       # value 1 of each seat's chain
    assert fairplay._chain.cache_info().misses == before


def test_the_undrawn_positions_follow_the_drawn_list_when_it_is_replaced_or_grown():
    from pbd.games.base import Secrets

    sec = Secrets("m", "Ann", "cnc", b"s" * 32, [f"card {i}" for i in range(1, 11)])
    assert sec.remaining() == list(range(1, 11))
    sec.drawn.append(4)                             # grown in place
    assert sec.remaining() == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    sec.drawn = [1, 2]                              # replaced (private state loaded again)
    assert sec.remaining() == list(range(3, 11))
    sec.deck = sec.deck[:5]                         # another deck
    assert sec.remaining() == [3, 4, 5]
    sec.remaining().clear()                         # the caller's own list
    assert sec.remaining() == [3, 4, 5]


def test_a_draw_takes_only_undrawn_positions_after_the_drawn_list_was_replaced():
    state, chance = _match()
    GAME.play(state, "Ann", "draw", chance)
    sec = chance.secrets["ann"]
    sec.drawn = list(range(1, len(sec.deck)))       # every position but the last, as another command left it
    GAME.play(state, "Ann", "draw", chance)
    assert sec.drawn[-1] == len(sec.deck) and state.side("Ann").hand[-1] == sec.deck[-1]


def test_a_seat_owes_a_new_chain_value_again_once_another_seat_commits_after_its_latest():
    from pbd.games.base import Chance, Meta, Secrets

    meta = Meta("cnc", "m")
    meta.seat("Ann", b"a" * 32, ["x"])
    chance = Chance(meta, {"Ann": Secrets("m", "Ann", "cnc", b"a" * 32, ["x"])})
    meta.record("Ann", "new match")
    chance.publish("Ann")
    assert meta.record("Ann", "draw").published == {"Ann": 1}
    assert not meta.owes_value("Ann")               # value 1 was published after every commitment so far
    meta.seat("Ben", b"b" * 32, ["y"])
    assert meta.record("Ben", "joined").commit     # Ben commits after Ann's value 1 was public
    assert meta.owes_value("Ann")
    assert meta.record("Ann", "draw").published == {"Ann": 2}
    assert not meta.owes_value("Ann")


def test_a_text_read_again_is_the_same_moves_and_forget_reads_it_anew():
    from pbd.games.cnc import notation

    first = notation.parse_moves("play Nill; end turn")
    assert notation.parse_moves("play Nill; end turn") is first           # kept: read once
    assert [m.kind for m in first] == ["play", "end"]
    notation.forget()
    again = notation.parse_moves("play Nill; end turn")
    assert again is not first and again == first
    assert notation.parse_move("end turn") is not first[1]                 # both caches forgotten


def test_a_move_with_other_dice_on_the_same_state_uses_those_dice():
    from pbd.games.base import Chance

    state, chance = _match()
    GAME.play(state, "Ann", "draw", chance)                 # Ann's moves with her own pbd's dice
    with pytest.raises(PbdError, match="only Ann's own pbd can draw"):
        GAME.play(state, "Ann", "draw", Chance(state.meta, {}))     # a pbd that holds nobody's secrets


def test_a_match_joined_after_a_refused_move_plays_with_both_seats():
    from pbd import fairplay
    from pbd.games.base import Chance

    state, sec = GAME.create("0badcafe", "Ann", "forces-of-justice", fairplay.seed_from_text("a", "0badcafe"), {})
    one_seat = Chance(state.meta, {"Ann": sec})
    with pytest.raises(PbdError, match="opening hand is not drawn"):
        GAME.play(state, "Ann", "end turn", one_seat)          # refused before anything is kept
    state, ben = GAME.join(state, "Ben", "forces-of-corruption", fairplay.seed_from_text("b", "0badcafe"))
    chance = Chance(state.meta, {"Ann": sec, "Ben": ben})
    for player in ("Ann", "Ben"):
        GAME.settle(state, player, chance)                  # each pbd draws its opening hand
    mover = state.sides[state.to_move].name
    assert GAME.play(state, mover, "end turn", chance)[-1].startswith("end turn")


def test_the_end_of_a_turn_publishes_nothing_while_the_opponents_opening_hand_is_owed_in_a_replaced_log():
    state, chance = _match()
    GAME.play(state, "Ann", "end turn", chance)
    GAME.play(state, "Ben", "draw", chance)
    GAME.play(state, "Ben", "end turn", chance)
    assert state.meta.log[-1].published             # both hands drawn: the end of a turn publishes a value
    GAME.play(state, "Ann", "end turn", chance)     # (Ben's hand known drawn in this log now: see state.OPENED)
    GAME.play(state, "Ben", "end turn", chance)
    state.meta.log = state.meta.log[:2]             # as a replay does: new match, joined; Ben's hand not drawn
    rules.apply(rules.Ctx(state, cnc._PLAYED.of(state).catalogue, chance, "Ann"), parse_move("end turn"))
    state.meta.record("Ann", "end turn")            # (the rules alone: nothing else asks about this log first)
    assert not state.meta.log[-1].published


@needs_inline_attributes
def test_trying_moves_leaves_the_states_own_records_on_the_fast_path():
    # issue 16: a bot or a simulation asks legal() between moves; its trial copy of the state is made
    # anew, never by copying the seats' records (copying reads their __dict__, which slows every later move)
    state, chance = _match()
    GAME.play(state, "Ann", "draw", chance)
    assert GAME.legal(state, "Ann")
    assert not any(map(reads_slowly, [*state.meta.fairplay, *state.sides, state.meta, state.turn]))
