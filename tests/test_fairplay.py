"""Fair draws and dice, the log's hash chain and its tags: pure tests (no documents)."""

from __future__ import annotations

import hashlib

import pytest

from pbd import audit, fairplay
from pbd.games.base import Chance, Event, LogEntry, Meta, PlayerMeta, Secrets, parse_meta, render_frame, split_frame

#: chi-square critical values at significance 0.001 (fixed, so the tests are deterministic)
CHI2_001 = {5: 20.515, 49: 85.351, 19: 43.820}


def chi_square(counts: list[int]) -> float:
    """Return Pearson's chi-square statistic of ``counts`` against the uniform distribution."""
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def seeds(n: int) -> list[bytes]:
    return [fairplay.seed_from_text(f"chi-square {i}") for i in range(n)]


def test_first_draw_is_uniform_over_fifty_positions_across_seeds():
    counts = [0] * 50
    for seed in seeds(5000):
        counts[fairplay.draw(seed, 0, "beacon", list(range(1, 51))) - 1] += 1
    assert chi_square(counts) < CHI2_001[49]


def test_a_draw_among_the_positions_left_is_uniform_and_never_repeats():
    remaining = list(range(1, 51, 2))[:20]           # 20 odd positions left
    counts = {p: 0 for p in remaining}
    for seed in seeds(4000):
        counts[fairplay.draw(seed, 7, "c", remaining)] += 1
    assert set(counts) == set(remaining)
    assert chi_square(list(counts.values())) < CHI2_001[19]


def test_a_whole_deck_drawn_through_chance_is_a_permutation_and_positions_are_uniform():
    counts = [[0] * 50 for _ in range(3)]             # where positions 1, 2 and 50 come out
    for seed in seeds(600):
        sec = Secrets("m", "Ann", "cnc", seed, [f"card {i}" for i in range(1, 51)])
        chance = Chance(Meta("cnc", "m", [PlayerMeta("Ann", "0" * 64, "1" * 64)]), {"Ann": sec})
        order = chance.draw("Ann", 50)
        assert sorted(order) == sorted(sec.deck)
        for k, card in enumerate(("card 1", "card 2", "card 50")):
            counts[k][order.index(card)] += 1
    for row in counts:
        assert chi_square(row) < CHI2_001[49]


def test_die_faces_are_uniform():
    counts = [0] * 6
    for seed in seeds(300):
        for i in range(20):
            counts[fairplay.roll(seed, i, "b", 6) - 1] += 1
    assert chi_square(counts) < CHI2_001[5]


def test_a_draw_depends_on_the_beacon_and_the_counter():
    seed = seeds(1)[0]
    deck = list(range(1, 51))
    by_beacon = {fairplay.draw(seed, 0, b, deck) for b in ("a", "b", "c", "d", "e", "f", "g", "h")}
    by_counter = {fairplay.draw(seed, i, "a", deck) for i in range(8)}
    assert len(by_beacon) > 1 and len(by_counter) > 1


def test_chain_values_hash_back_to_the_head():
    seed = seeds(1)[0]
    head = fairplay.chain_value(seed, fairplay.CHAIN_LENGTH)
    one = fairplay.chain_value(seed, fairplay.CHAIN_LENGTH - 1)
    assert fairplay.chain_follows(one, head)
    assert not fairplay.chain_follows(head, one)
    assert hashlib.sha256(bytes.fromhex(one)).hexdigest() == head


def test_commitment_binds_seed_and_deck_order():
    seed = seeds(1)[0]
    deck = ["A", "B", "C"]
    c = fairplay.commitment(seed, deck)
    assert c != fairplay.commitment(seed, ["B", "A", "C"])
    assert c != fairplay.commitment(seeds(2)[1], deck)


# -- dice notation -----------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [("2d6", (2, 6)), ("d20", (1, 20)), (" 3D8 ", (3, 8))])
def test_dice_notation(text, expected):
    assert audit.parse_dice(text) == expected


@pytest.mark.parametrize("text", ["2x6", "d1", "0d6", "101d6", "six"])
def test_bad_dice_notation(text):
    with pytest.raises(ValueError):
        audit.parse_dice(text)


# -- the log: tags and chain --------------------------------------------------------------

def _meta() -> Meta:
    meta = Meta("cnc", "abcd1234", [PlayerMeta("Ann", "a" * 64, "b" * 64, 0, 0),
                                    PlayerMeta("Player 2", "c" * 64, "d" * 64, 0, 0)])
    meta.pending_events = [Event("Ann", c, None) for c in range(5)]
    meta.record("Ann", "new match")
    meta.pending_events = [Event("Player 2", c, 0) for c in range(5)] + [Event("Player 2", 5, 0, 2, 1)]
    meta.record("Player 2", "joined · a fair draw chose Ann to move first")
    meta.fairplay[0].chain_index = 1
    meta.pending_events = [Event("Player 2", 6, 1, 6, 6), Event("Player 2", 7, 1)]
    meta.record("Ann", "end turn")
    return meta


def _round_trip(meta: Meta) -> Meta:
    text = render_frame(meta, "C&C Trading Card Game", [], ["board"])
    return parse_meta("cnc", split_frame(text)), text


def test_log_tags_render_readably_and_parse_back():
    meta = _meta()
    back, text = _round_trip(meta)
    lines = text.split("\n")
    assert any(line.startswith("1. Ann: new match · rng 0-4@- · #") for line in lines)
    assert any(line.startswith("2. Player 2: joined · a fair draw chose Ann to move first · rng 0-4@0, 5@0 d2=1 · #")
               for line in lines)
    assert any(line.startswith("3. Ann: end turn · rng Player 2 6@1 d6=6, Player 2 7@1 · chain 1 · #")
               for line in lines)
    assert back.log == meta.log
    assert audit.log_problems(back) == []


def test_old_logs_without_tags_still_parse():
    text = "pbd match abcd1234 · C&C Trading Card Game\n\nboard\n\nLog\n1. Ann: new match\n2. Ben: joined\n"
    meta = parse_meta("cnc", split_frame(text))
    assert [(e.number, e.player, e.text, e.hash) for e in meta.log] == [(1, "Ann", "new match", ""),
                                                                        (2, "Ben", "joined", "")]
    assert len(audit.log_problems(meta)) == 2          # reported as entries without a hash
    meta.record("Ann", "draw")
    assert meta.log[-1].hash


def test_the_chain_catches_an_edited_a_deleted_and_an_inserted_entry():
    meta = _meta()
    edited, _ = _round_trip(meta)
    edited.log[1].text = "joined · a fair draw chose Player 2 to move first"
    assert any("entry 2" in p and "edited" in p for p in audit.log_problems(edited))
    deleted, _ = _round_trip(meta)
    del deleted.log[1]
    problems = audit.log_problems(deleted)
    assert any("numbered 3 but it is entry 2" in p for p in problems)
    inserted, _ = _round_trip(meta)
    inserted.log.insert(1, LogEntry(2, "Ann", "adjust Ann CP +100", hash="00000000"))
    assert audit.log_problems(inserted)


def test_chain_problems_catch_a_skipped_event_and_a_stale_beacon():
    meta = _meta()
    meta.fairplay[0].draws, meta.fairplay[1].draws = 5, 8
    assert audit.chain_problems(meta) == []
    meta.log[2].events[1].counter = 9
    assert any("event 9 where 7 was next" in p for p in audit.chain_problems(meta))
    meta = _meta()
    meta.fairplay[0].draws, meta.fairplay[1].draws = 5, 8
    meta.log[1].events[0].beacon = None          # the joiner's opening hand ignoring Ann's head
    meta.log[2].events[0].beacon = 2             # a value Ann never published
    problems = audit.chain_problems(meta)
    assert any("Player 2's event 0 used Ann's chain value -, but the latest published was 0" in p for p in problems)
    assert any("Player 2's event 6 used Ann's chain value 2, but the latest published was 1" in p for p in problems)


def test_each_players_pbd_checks_the_opponents_chain_values_as_they_are_published(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("move", doc, "--as", "Ann", "draw", ok=True)          # Ann's pbd notes Ben's chain head
    pbd("move", doc, "--as", "Ann", "end turn", ok=True)
    pbd("move", doc, "--as", "Ben", "end turn", ok=True)      # Ben publishes chain value 1
    pbd("move", doc, "--as", "Ann", "draw", ok=True)          # it follows: accepted
    text = doc.read_text()
    ben = next(line for line in text.split("\n") if line.startswith("Ben: commitment"))
    value = ben.split(" · chain 1 ")[1].split(" ")[0]
    forged = text.replace(value, "0" * 64)
    doc.write_text(forged)
    result = pbd("move", doc, "--as", "Ann", "end turn")
    assert result.exit_code == 3
    assert "does not follow" in result.output
    assert doc.read_text() == forged
