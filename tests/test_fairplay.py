"""Fair draws and dice, the log's hash chain and its tags: pure tests (no documents)."""

from __future__ import annotations

import hashlib
import re

import pytest

from pbd import audit, fairplay
from pbd.errors import IllegalMoveError
from layout_helpers import log_lines

from pbd.games.base import Chance, Event, LogEntry, Meta, Secrets, parse_meta, render_frame, split_frame

#: chi-square critical values at significance 0.001 (fixed, so the tests are deterministic)
CHI2_001 = {5: 20.515, 49: 85.351, 19: 43.820}


def chi_square(counts: list[int]) -> float:
    """Return Pearson's chi-square statistic of ``counts`` against the uniform distribution."""
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def seeds(n: int) -> list[bytes]:
    return [hashlib.sha256(f"chi-square {i}".encode()).digest() for i in range(n)]


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
        meta = Meta("cnc", "m")
        meta.seat("Ann", seed, sec.deck)
        meta.record("Ann", "new match")
        meta.seat("Ben", b"b" * 32, [])
        meta.record("Ben", "joined")
        chance = Chance(meta, {"Ann": sec})
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


def test_custom_faces_are_uniform_and_a_sicherman_die_shows_only_its_faces():
    sicherman = (1, 3, 4, 5, 6, 8)
    counts = {f: 0 for f in sicherman}
    for seed in seeds(300):
        for i in range(20):
            counts[fairplay.roll(seed, i, "b", sicherman)] += 1
    assert set(counts) == set(sicherman)
    assert chi_square(list(counts.values())) < CHI2_001[5]


def test_the_kinds_of_event_are_separate_streams():
    seed = seeds(1)[0]
    rolls = [fairplay.roll(seed, i, "b", 1000, kind) for kind in fairplay.KINDS for i in range(5)]
    assert len(set(rolls)) > 10                   # the same counter gives unrelated faces per kind


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
    assert fairplay.published_value(seed, 0) == head and fairplay.published_value(seed, 1) == one


def test_chains_renew_without_end(monkeypatch):
    monkeypatch.setattr(fairplay, "CHAIN_LENGTH", 4)
    seed = seeds(1)[0]
    values = [fairplay.published_value(seed, n) for n in range(13)]
    heads = {g: fairplay.head(seed, g) for g in range(4)}
    assert len(set(values)) == 13
    for n in range(1, 13):
        assert fairplay.chain_links(values[n], n, values[n - 1], n - 1, heads), n
        assert fairplay.chain_links(values[n], n, values[0], 0, heads)
        assert not fairplay.chain_links(values[n - 1], n, values[n - 1], n - 1, heads)
    assert fairplay.ends_generation(4) and not fairplay.ends_generation(5)
    assert not fairplay.chain_links(values[5], 5, values[4], 4, {**heads, 1: "0" * 64})


def test_commitment_binds_seed_and_deck_order():
    seed = seeds(1)[0]
    deck = ["A", "B", "C"]
    c = fairplay.commitment(seed, deck)
    assert c != fairplay.commitment(seed, ["B", "A", "C"])
    assert c != fairplay.commitment(seeds(2)[1], deck)


# -- dice notation -----------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("2d6", [(1, 2, 3, 4, 5, 6)] * 2), ("d20", [tuple(range(1, 21))]), (" 3D8 ", [tuple(range(1, 9))] * 3),
    ("d[1,3,4,5,6,8]", [(1, 3, 4, 5, 6, 8)]),
    ("d[1,2,2,3,3,4]+d[1,3,4,5,6,8]", [(1, 2, 2, 3, 3, 4), (1, 3, 4, 5, 6, 8)]),
])
def test_dice_notation(text, expected):
    assert audit.parse_dice(text) == expected
    assert audit.parse_dice(audit.dice_text(expected)) == expected


@pytest.mark.parametrize("text", ["2x6", "d1", "0d6", "101d6", "six", "d[]", "d[5]", "60d6+60d6"])
def test_bad_dice_notation(text):
    with pytest.raises(ValueError):
        audit.parse_dice(text)


# -- the log: tags and chain --------------------------------------------------------------

def _meta() -> Meta:
    meta = Meta("cnc", "abcd1234")
    meta.seat("Ann", b"a" * 32, ["A"])
    meta.record("Ann", "new match")
    meta.seat("Player 2", b"p" * 32, ["B"])
    meta.record("Player 2", "joined")
    meta.fairplay[0].chain_index, meta.fairplay[0].chain = 1, fairplay.published_value(b"a" * 32, 1)
    meta.pending_events = [Event("Ann", c, (0,)) for c in range(5)] + [Event("Ann", 0, (0,), "roll", (1, 2), 1,
                                                                             "first")]
    meta.record("Ann", "opening hand · a fair draw chose Ann to move first")
    meta.pending_events = [Event("Player 2", 0, (1,), "free", (1, 3, 4, 5, 6, 8), 8), Event("Player 2", 0, (1,))]
    meta.record("Ann", "end turn")
    for p, (d, r, f) in zip(meta.fairplay, ((5, 1, 0), (1, 0, 1))):
        p.draws, p.rolls, p.free = d, r, f
    return meta


def _round_trip(meta: Meta) -> Meta:
    text = render_frame(meta, "C&C Trading Card Game", [], ["board"])
    return parse_meta("cnc", split_frame(text)), text


def test_log_tags_render_readably_and_parse_back():
    meta = _meta()
    back, text = _round_trip(meta)
    view = text.split("\n\nMachinery\n")[0].split("\n")
    assert "3. Ann: opening hand · a fair draw chose Ann to move first" in view      # the view: words only
    assert not any(" · seal " in line or "#" in line for line in view)
    lines = log_lines(text)                   # each entry's view line joined with its machine fields
    assert any(line.startswith(f"1. Ann: new match · commits {meta.fairplay[0].commitment} head ") for line in lines)
    assert any(line.startswith("3. Ann: opening hand · a fair draw chose Ann to move first · rng 0-4@0, "
                               "r0@0 d2=1 (first) · chain 1 · seal ") for line in lines)
    assert any(line.startswith("4. Ann: end turn · rng Player 2 f0@1 d(1 3 4 5 6 8)=8, Player 2 0@1 · seal ")
               for line in lines)
    assert all(re.search(r" (?:· key [A-Za-z0-9_-]{43} )?· seal [0-9a-f]{16} · mac [0-9a-f]{16} · #[0-9a-f]{64}"
                         r"(?: · sig [A-Za-z0-9_-]{86})?$", line)
               for line in lines if re.match(r"\d+\. ", line))
    assert back.log == meta.log
    assert [bool(e.key) for e in back.log] == [True, True, False, False]        # with each seat's commitment
    assert [(e.key, e.sig) for e in back.log] == [(e.key, e.sig) for e in meta.log]
    assert audit.log_problems(back, sections=back.section_lines()) == []
    assert audit.chain_problems(back) == []


def test_logs_of_an_older_pbd_are_named_as_such():
    text = ("pbd match abcd1234 · C&C Trading Card Game\n\nboard\n\nLog\n1. Ann: new match · #1f0c3a9b\n"
            "2. Ben: joined · #77d2e410\n")
    meta = parse_meta("cnc", split_frame(text))
    assert [(e.number, e.player, e.text, e.hash) for e in meta.log] == [(1, "Ann", "new match", "1f0c3a9b"),
                                                                        (2, "Ben", "joined", "77d2e410")]
    assert meta.version == 1
    assert audit.log_problems(meta) == [audit.OLD_LOG]


def test_the_chain_catches_an_edited_a_deleted_and_an_inserted_entry():
    meta = _meta()
    edited, _ = _round_trip(meta)
    edited.log[2].text = "opening hand · a fair draw chose Player 2 to move first"
    assert any("entry 3" in p and "edited" in p for p in audit.log_problems(edited))
    deleted, _ = _round_trip(meta)
    del deleted.log[1]
    problems = audit.log_problems(deleted)
    assert any("numbered 3 but it is entry 2" in p for p in problems)
    inserted, _ = _round_trip(meta)
    inserted.log.insert(1, LogEntry(2, "Ann", "adjust Ann CP +100", seal="0" * 16, hash="0" * 64))
    assert audit.log_problems(inserted)


def test_the_seal_covers_fair_play_and_revealed():
    meta = _meta()
    back, _ = _round_trip(meta)
    assert audit.log_problems(back, sections=back.section_lines()) == []
    back.fairplay[1].free = 0
    assert any("edited by hand" in p for p in audit.log_problems(back, sections=back.section_lines()))


def test_chain_problems_catch_a_skipped_event_and_a_stale_beacon():
    meta = _meta()
    assert audit.chain_problems(meta) == []
    meta.log[2].events[1].counter = 9
    assert any("draw 9 where 1 was next" in p for p in audit.chain_problems(meta))
    meta = _meta()
    meta.log[3].events[1].beacon = (0,)          # Ann's head: public before Player 2 committed
    meta.log[2].events[0].beacon = (2,)          # a value Player 2 never published
    problems = audit.chain_problems(meta)
    assert any("Player 2's draw 0 used Ann's chain value 0, but the latest published was 1" in p for p in problems)
    assert any("Ann's draw 0 used Player 2's chain value 2, but the latest published was 0" in p for p in problems)


def test_a_draw_needs_a_value_every_other_seat_published_after_it_committed():
    meta = Meta("cnc", "abcd1234")
    for name in ("Ann", "Ben", "Cy"):
        meta.seat(name, name.encode() * 11, ["x", "y"])
        meta.record(name, "joined")
    secrets = {n: Secrets("abcd1234", n, "cnc", n.encode() * 11, ["x", "y"]) for n in ("Ann", "Ben", "Cy")}
    chance = Chance(meta, secrets)
    assert chance.waiting_on("Ann") == [] and chance.waiting_on("Cy") == ["Ann", "Ben"]
    assert chance.waiting_on("Ben") == ["Ann"]
    chance.publish("Ann")
    meta.record("Ann", "opening")
    assert chance.waiting_on("Ben") == [] and chance.waiting_on("Cy") == ["Ben"]
    with pytest.raises(IllegalMoveError, match="a step Ben.s pbd takes first"):
        chance.roll("Cy")
    chance.publish("Ben")
    meta.record("Ben", "opening")
    face = chance.roll("Cy", faces=(1, 3, 4, 5, 6, 8), purpose="move")
    meta.record("Cy", "rolls")
    assert meta.log[-1].events[0].beacon == (1, 1) and face in (1, 3, 4, 5, 6, 8)
    assert audit.chain_problems(meta) == []


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
