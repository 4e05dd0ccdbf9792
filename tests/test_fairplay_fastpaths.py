"""The draw and roll fast paths of :class:`pbd.games.base.Chance` (issue 16) notice every change they depend on:
what a seat's next event is made from is kept per seat, and found anew for a new log, a new list of seats or a
seat sat down; the beacon itself follows every chain value published."""

from __future__ import annotations

import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbd import fairplay
from pbd.errors import IllegalMoveError
from pbd.games.base import Chance, Meta, PlayerMeta, Secrets

SEEDS = {"Ann": b"a" * 32, "Ben": b"b" * 32, "Cy": b"c" * 32}


def _deck(name: str) -> list[str]:
    return [f"{name} card {i}" for i in range(1, 21)]


def _meta(order: list[tuple[str, str]]) -> tuple[Meta, Chance]:
    """Return a match of Ann and Ben whose log is ``order``: ``(player, "new" | "join" | "publish")`` steps."""
    meta = Meta("cnc", "m")
    for name in ("Ann", "Ben"):
        meta.seat(name, SEEDS[name], _deck(name))
    chance = Chance(meta, {n: Secrets("m", n, "cnc", SEEDS[n], _deck(n)) for n in ("Ann", "Ben")})
    for player, step in order:
        if step == "publish":
            chance.publish(player)
        meta.record(player, step)
    return meta, chance


def _two_seats() -> tuple[Meta, Chance]:
    """Ann creates, Ben joins, then Ann publishes value 1: fresh for Ben's draws."""
    return _meta([("Ann", "new"), ("Ben", "join"), ("Ann", "publish")])


def test_a_draw_counts_on_the_new_record_after_the_fair_play_list_is_replaced():
    meta, chance = _two_seats()
    chance.draw("Ben", 1)
    meta.fairplay = [PlayerMeta(p.name, p.commitment, p.chain, p.chain_index, p.draws) for p in meta.fairplay]
    chance.draw("Ben", 2)
    assert meta.fairplay[1].draws == 3 and [e.counter for e in meta.pending_events] == [0, 1, 2]


def test_a_draw_is_refused_after_the_log_is_replaced_by_one_where_the_value_came_before_the_commitment():
    meta, chance = _two_seats()
    chance.draw("Ben", 1)                           # Ann's value 1 (entry 3) came after Ben committed (entry 2)
    earlier, _ = _meta([("Ann", "new"), ("Ann", "publish"), ("Ben", "join")])
    del meta.signers["ann"]                         # (Ben's own pbd: it holds no other seed)
    meta.log = earlier.log                          # Ann's value 1 (entry 2) before Ben committed (entry 3)
    with pytest.raises(IllegalMoveError, match="wait on a step Ann.s pbd takes first"):
        chance.draw("Ben", 1)
    assert meta.fairplay[1].draws == 1


def test_a_seat_sat_down_after_a_draw_is_in_the_next_beacon():
    meta, chance = _two_seats()
    chance.draw("Ben", 1)
    meta.seat("Cy", SEEDS["Cy"], _deck("Cy"))       # appended to the same list: Cy has not committed in the log
    with pytest.raises(IllegalMoveError, match="wait on a step Cy.s pbd takes"):
        chance.draw("Ben", 1)


def test_each_draw_uses_the_latest_value_of_the_other_seat():
    meta, chance = _two_seats()
    chance.draw("Ben", 1)
    chance.publish("Ann")
    events = meta.record("Ann", "end").events       # Ann's value 2, published after Ben committed
    chance.draw("Ben", 1)
    assert [e.beacon for e in events + meta.pending_events] == [(1,), (2,)]
    sec = chance.secrets["ben"]
    left = list(range(1, 21))
    for counter, value in enumerate((1, 2)):
        beacon = fairplay.beacon_text([("Ann", value, fairplay.published_value(SEEDS["Ann"], value))])
        assert fairplay.draw(sec.seed, counter, beacon, left) == sec.drawn[counter]
        left.remove(sec.drawn[counter])


def test_a_roll_uses_the_latest_value_and_the_new_record_too():
    meta, chance = _two_seats()
    chance.roll("Ben")
    chance.publish("Ann")
    events = meta.record("Ann", "end").events
    meta.fairplay = [PlayerMeta(p.name, p.commitment, p.chain, p.chain_index, rolls=p.rolls) for p in meta.fairplay]
    chance.roll("Ben")
    assert [(e.counter, e.beacon) for e in events + meta.pending_events] == [(0, (1,)), (1, (2,))]
    assert meta.fairplay[1].rolls == 2


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 500), st.text(max_size=30),
       st.lists(st.integers(1, 80), min_size=1, max_size=30, unique=True), st.data())
def test_a_run_of_draws_takes_what_the_documented_derivation_gives(seed, counter, beacon, positions, data):
    n = data.draw(st.integers(1, len(positions)))
    left, expected = sorted(positions), []
    for c in range(counter, counter + n):           # HMAC(seed, message|block) by the standard library, block 0 on
        message = fairplay.event_message("draw", c, beacon)
        limit = (1 << 64) - (1 << 64) % len(left)
        blocks = (int.from_bytes(hmac.digest(seed, f"{message}|{b}".encode(), "sha256")[o:o + 8], "big")
                  for b in range(4) for o in (0, 8, 16, 24))
        expected.append(left.pop(next(x for x in blocks if x < limit) % len(left)))
    remaining = sorted(positions)
    assert fairplay.draws(seed, counter, beacon, remaining, n) == expected and remaining == left


class _Rejected:
    """A SHA-256 state whose digest is all ones: a first block every size but a power of two rejects."""

    def copy(self):
        return self

    def update(self, data: bytes) -> None:
        pass

    def digest(self) -> bytes:
        return b"\xff" * 32


def test_a_draw_whose_first_block_is_rejected_takes_uniforms_answer(monkeypatch):
    seed, asked = b"s" * 32, []

    def uniform(key: bytes, message: str, n: int) -> int:
        asked.append((key, message, n))
        return 2

    monkeypatch.setitem(fairplay._PADS, seed, (_Rejected(), _Rejected()))
    monkeypatch.setattr(fairplay, "uniform", uniform)
    remaining = [4, 5, 6]
    assert fairplay.draws(seed, 7, "Ann=1:ab", remaining, 1) == [6] and remaining == [4, 5]
    assert asked == [(seed, fairplay.event_message("draw", 7, "Ann=1:ab"), 3)]


def test_a_run_of_more_draws_than_positions_takes_none():
    remaining = [1, 2]
    with pytest.raises(ValueError, match="cannot draw 3 of 2 positions"):
        fairplay.draws(b"s", 0, "", remaining, 3)
    assert remaining == [1, 2]


def test_a_seat_refused_before_it_committed_has_its_beacons_checked_in_line_once_it_has(monkeypatch):
    meta = Meta("cnc", "m")
    for name in ("Ann", "Ben"):
        meta.seat(name, SEEDS[name], _deck(name))
    chance = Chance(meta, {"Ann": Secrets("m", "Ann", "cnc", SEEDS["Ann"], _deck("Ann"))})
    with pytest.raises(IllegalMoveError, match="wait on a step Ben.s pbd takes first"):
        chance.draw("Ann", 1)                       # nothing in the log yet: Ann has not committed
    meta.record("Ann", "new")
    meta.record("Ben", "join")
    meta.fairplay[1].chain_index, meta.fairplay[1].chain = 1, fairplay.published_value(SEEDS["Ben"], 1)
    meta.record("Ben", "end")                       # Ben's value 1, after Ann committed
    full = []
    monkeypatch.setattr(chance, "_beacon_or_refuse", lambda player: full.append(player))
    assert len(chance.draw("Ann", 2)) == 2 and full == []
    assert [e.beacon for e in meta.pending_events] == [(1,), (1,)]


def _reference_uniform(seed: bytes, message: str, n: int) -> int:
    """Return uniform's answer by the standard library's HMAC and the whole rejection sampling."""
    limit = (1 << 64) - (1 << 64) % n
    blocks = (int.from_bytes(hmac.digest(seed, f"{message}|{b}".encode(), "sha256")[o:o + 8], "big")
              for b in range(8) for o in (0, 8, 16, 24))
    return next(x for x in blocks if x < limit) % n


@pytest.mark.parametrize("n", [1, 2, 3, 6, 50, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, (1 << 63) + 1, 3 << 62])
def test_uniform_takes_the_same_blocks_as_the_whole_rejection_sampling_for_any_n(n):
    seed = b"u" * 32
    for i in range(40):                             # (n near 2**63: half the first blocks are rejected)
        assert fairplay.uniform(seed, f"m{i}", n) == _reference_uniform(seed, f"m{i}", n)


class _Block(_Rejected):
    """A SHA-256 state whose digest starts with a given 8-byte block."""

    def __init__(self, block: int):
        self.block = block

    def digest(self) -> bytes:
        return self.block.to_bytes(8, "big") * 4


@pytest.mark.parametrize("block", [(1 << 64) - (1 << 32) - 1, (1 << 64) - (1 << 32), (1 << 64) - 2])
def test_a_first_block_at_or_past_the_fast_paths_bound_is_taken_when_under_ns(monkeypatch, block):
    seed = b"v" * 32
    monkeypatch.setitem(fairplay._PADS, seed, (_Block(block), _Block(block)))
    sizes = [n for n in (3, 5, 7, 50, 51) if block < (1 << 64) - (1 << 64) % n]    # (every block is this one)
    assert len(sizes) >= 3
    assert [fairplay.uniform(seed, "m", n) for n in sizes] == [block % n for n in sizes]


def test_a_seat_publishing_before_its_first_entry_is_found_past_the_memo():
    meta, chance = _meta([("Ann", "new")])          # (Meta.player's memo holds Ann alone)
    chance.publish("ben")
    assert meta.fairplay[1].chain_index == 1 and meta.fairplay[1].chain == fairplay.published_value(SEEDS["Ben"], 1)
    assert meta.record("Ben", "join").published == {"Ben": 1}
