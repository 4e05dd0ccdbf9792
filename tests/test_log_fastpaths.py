"""The log's and the dice's fast paths (issue 16) give what the plain code gives: the same positions drawn,
the same log entries, built the same way."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbd import fairplay
from pbd.games.base import Chance, Event, LogEntry, Meta, PlayerMeta, Secrets


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
    assert entry == made and entry.fresh and repr(entry) == repr(made)
    assert entry.events is not meta.pending_events              # the next entry's events are another list
    chance.roll("Ben", purpose="first")
    assert meta.record("Ben", "roll").events[0].counter == 0 and entry.events == events


def test_a_draw_tags_and_counts_one_event_per_card_as_single_draws_do():
    meta, chance = _two_seats()
    cards = chance.draw("Ben", 3) + chance.draw("Ben", 1)
    sec = chance.secrets["ben"]
    assert [sec.deck[p - 1] for p in sec.drawn] == cards and meta.player("Ben").draws == 4
    made = [Event("Ben", c, (1,)) for c in range(4)]
    assert meta.pending_events == made and [vars(e) for e in meta.pending_events] == [vars(e) for e in made]
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


def test_a_seats_record_is_found_again_after_the_fair_play_list_is_replaced():
    meta, chance = _two_seats()
    assert meta.player("ben") is meta.fairplay[1] and meta.player("Ben") is meta.fairplay[1]
    saved = meta.fairplay
    meta.fairplay = [PlayerMeta(p.name, p.commitment, p.chain, p.chain_index) for p in saved]   # as a replay does
    assert meta.player("Ben") is meta.fairplay[1]
    entry = meta.record("Ben", "draw")              # the record found is the new list's: its value is unchanged
    assert entry.published == {} and meta.fairplay[1].chain_index == 0
    meta.fairplay[1].chain_index += 1               # (a seat of the new list publishes: the entry says so)
    assert meta.record("Ben", "end turn").published == {"Ben": 1}
    meta.fairplay = saved
    assert meta.player("ben") is saved[1] and meta.player("Cy") is None
    meta.seat("Cy", b"c" * 32, ["z"])               # a seat appended to the same list is found too
    assert meta.player("cy") is saved[2]


def test_a_published_value_is_the_chain_value_it_names():
    seed = b"s" * 32
    L = fairplay.CHAIN_LENGTH
    for n in (1, 2, L - 1, L, L + 1, 2 * L, 2 * L + 5):
        g = fairplay.generation(n)
        assert fairplay.published_value(seed, n) == fairplay.chain_value(seed, L - (n - g * L), g)
    assert fairplay.published_value(seed, 0) == fairplay.head(seed, 0)


def _index_facts(index):
    return (index.count, index.last, index.commits, index.latest_commit, index.first_pub, index.last_pub,
            index.settled)


def test_the_index_kept_up_by_record_is_the_index_read_anew_from_the_log():
    meta, chance = _two_seats()
    for turn in range(6):
        seat = ("Ann", "Ben")[turn % 2]
        chance.draw(seat, 1)
        meta.record(seat, "draw")
        meta.record(seat, "play something")         # (an entry the index has nothing to read in)
        chance.publish(seat)
        meta.record(seat, "end")
    meta.seat("Cy", b"c" * 32, ["z"])                 # a seat committing late: every seat owes a value again
    meta.record("Cy", "joined")
    meta.record("Ann", "end")
    kept = meta.log_index()
    anew = type(kept)(meta.log)
    anew.catch_up()
    assert _index_facts(kept) == _index_facts(anew) and kept.settled == {"Ann": 5}


def test_entries_that_publish_and_draw_nothing_stay_empty_while_later_ones_fill():
    meta, chance = _two_seats()
    quiet = meta.record("Ben", "play something")
    chance.draw("Ben", 2)
    drew = meta.record("Ben", "draw 2")
    chance.publish("Ben")
    ended = meta.record("Ben", "end")
    again = meta.record("Ann", "play something")
    assert quiet.events == [] and quiet.published == {} and quiet.heads == {}
    assert again.events == [] and again.published == {} and again.heads == {}
    assert len(drew.events) == 2 and ended.published == {"Ben": 1} and meta.pending_events == []
    assert quiet == LogEntry(quiet.number, "Ben", "play something", fresh=True)


def test_a_beacon_names_every_other_seats_value_in_seat_order_however_many_there_are():
    assert fairplay.beacon_text([]) == ""
    assert fairplay.beacon_text([("Ann", 3, "ab")]) == "Ann=3:ab"
    assert fairplay.beacon_text((("Ann", 3, "ab"), ("Cy", 0, "cd"))) == "Ann=3:ab;Cy=0:cd"


def test_a_draw_among_three_seats_uses_both_other_seats_values():
    meta, chance = _two_seats()
    meta.seat("Cy", b"c" * 32, ["z"] * 20)
    chance.secrets["cy"] = Secrets("m", "Cy", "cnc", b"c" * 32, ["z"] * 20)
    meta.record("Cy", "joined")
    chance.publish("Ben")
    meta.record("Ben", "end")
    chance.publish("Ann")
    meta.record("Ann", "end")
    chance.draw("Cy", 2)
    assert [e.beacon for e in meta.pending_events] == [(2, 1), (2, 1)]
    left = list(range(1, 21))
    beacon = chance.beacon("Cy")
    value = fairplay.published_value
    assert beacon == f"Ann=2:{value(b'a' * 32, 2)};Ben=1:{value(b'b' * 32, 1)}"
    for c, pos in enumerate(chance.secrets["cy"].drawn):
        assert fairplay.draw(b"c" * 32, c, beacon, left) == pos
        left.remove(pos)


def test_a_seat_appended_to_the_list_by_hand_is_tagged_as_from_value_0():
    meta, chance = _two_seats()
    meta.record("Ann", "new")
    meta.fairplay.append(PlayerMeta("Cy", "", "", 0))  # (as the audit and TTC do: never in Meta.published)
    assert meta.record("Ben", "join").published == {}   # value 0 of every seat, as before: nothing to tag
    meta.fairplay[2].chain_index = 1
    meta.fairplay.append(PlayerMeta("Dee", "", "", 2))
    assert meta.record("Ben", "draw").published == {"Cy": 1, "Dee": 2}
    assert meta.record("Ben", "draw").published == {}


def test_a_log_entrys_tags_are_found_at_the_end_as_a_search_from_the_start_finds_them():
    """The tags of an entry (sig, hash, mac, seal, key) are searched from where they can begin, and a log line's
    words read up to their last non-blank: the same spans and groups as the searches and the lazy pattern they
    replace, on tags written every way the patterns allow (blanks of every kind, the hash's optional dot)."""
    import random
    import re

    from pbd.games import base

    lazy = re.compile(r"^\s*(?P<n>\d+)\.\s+(?P<player>[^:]+?):\s+(?P<text>.*?)\s*$")
    rng = random.Random(7)
    parts = [" · ", "·", " ", "  ", "\u00a0", "\t", "#", "#" + "a" * 64, "#abcdef12", "·#" + "f" * 64, " mac ",
             "mac " + "0" * 16, " seal " + "1" * 16, " · seal 0123456789abcdef", " key " + "A" * 43,
             " sig " + "B" * 86, "seal", "mac", "x", ":", "12. Ann: ", "0" * 16]
    for _ in range(20000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        for regex, mark in ((base.SIG_TAG_RE, "·"), (base.HASH_RE, "#"), (base.MAC_RE, "·"), (base.SEAL_RE, "·"),
                            (base.KEY_TAG_RE, "·")):
            want, got = regex.search(text), base._tag_at_end(regex, text, mark)
            assert (want and (want.span(), want.groupdict())) == (got and (got.span(), got.groupdict())), text
        want, got = lazy.match(text), base.LOG_RE.match(text)
        assert (want and want.groupdict()) == (got and got.groupdict()), text
