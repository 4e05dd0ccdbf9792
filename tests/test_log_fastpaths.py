"""The log's and the dice's fast paths (issue 16) give what the plain code gives: the same positions drawn,
the same log entries, built the same way."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbd import fairplay
from pbd.games.base import Chance, Event, LogEntry, Meta, Secrets


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 500), st.text(max_size=30),
       st.lists(st.integers(1, 80), min_size=1, max_size=30, unique=True), st.data())
def test_a_run_of_draws_takes_the_positions_single_draws_take(seed, counter, beacon, positions, data):
    n = data.draw(st.integers(1, len(positions)))
    left = list(positions)
    one_by_one = []
    for c in range(counter, counter + n):
        one_by_one.append(fairplay.draw(seed, c, beacon, left))
        left.remove(one_by_one[-1])
    remaining = sorted(positions)
    assert fairplay.draws(seed, counter, beacon, remaining, n) == one_by_one
    assert remaining == sorted(left)


def test_the_event_message_is_the_documented_one():
    assert fairplay.event_message("roll", 3, "Ben=2:ab", "d6", "first") == "pbd-v2|roll|3|d6|first|Ben=2:ab"
    assert fairplay.event_message("draw", 0, "") == "pbd-v2|draw|0|||"


def _two_seats():
    meta = Meta("cnc", "m")
    secrets = {}
    for name, byte in (("Ann", b"a"), ("Ben", b"b")):
        deck = [f"{name} card {i}" for i in range(1, 21)]
        meta.seat(name, byte * 32, deck)
        secrets[name] = Secrets("m", name, "cnc", byte * 32, deck)
    chance = Chance(meta, secrets)
    meta.record("Ann", "new match")
    meta.record("Ben", "joined")
    chance.publish("Ann")
    meta.record("Ann", "opening")
    return meta, chance


def test_a_recorded_entry_is_the_entry_its_constructor_makes():
    meta, chance = _two_seats()
    chance.draw("Ben", 2)
    events = list(meta.pending_events)
    entry = meta.record("Ben", "draw 2")
    made = LogEntry(entry.number, "Ben", "draw 2", events, fresh=True)
    assert entry == made and vars(entry) == vars(made)          # every attribute, `fresh` too
    assert entry.events is not meta.pending_events              # the next entry's events are another list
    chance.roll("Ben", purpose="first")
    assert meta.record("Ben", "roll").events[0].counter == 0 and entry.events == events


def test_a_draw_tags_and_counts_one_event_per_card_as_single_draws_do():
    meta, chance = _two_seats()
    cards = chance.draw("Ben", 3) + chance.draw("Ben", 1)
    sec = chance.secrets["ben"]
    assert [sec.deck[p - 1] for p in sec.drawn] == cards and meta.player("Ben").draws == 4
    assert meta.pending_events == [Event("Ben", c, (1,)) for c in range(4)]
    beacon = chance.beacon("Ben")
    left = list(range(1, 21))
    for c, pos in enumerate(sec.drawn):
        assert fairplay.draw(sec.seed, c, beacon, left) == pos
        left.remove(pos)


def test_a_draw_of_more_cards_than_are_left_takes_the_rest():
    meta, chance = _two_seats()
    assert len(chance.draw("Ben", 25)) == 20 and chance.draw("Ben", 1) == []
    assert sorted(chance.secrets["ben"].drawn) == list(range(1, 21)) and meta.player("Ben").draws == 20


def test_uniform_rejects_blocks_at_or_above_the_largest_multiple():
    # n just above 2**63: about half of all blocks are rejected, so later blocks and HMACs are reached
    n = (1 << 63) + 1
    limit = (1 << 64) - (1 << 64) % n
    rng = random.Random(1)
    for _ in range(20):
        seed, message = rng.randbytes(8), str(rng.random())
        digests = [fairplay.hmac_sha256(seed, f"{message}|{b}".encode()) for b in range(4)]
        blocks = [int.from_bytes(d[o:o + 8], "big") for d in digests for o in (0, 8, 16, 24)]
        assert fairplay.uniform(seed, message, n) == next(b for b in blocks if b < limit) % n
