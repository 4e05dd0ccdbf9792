"""Boys' Town audit: a match played to the end through the CLI, revealed by every seat, audits clean
(every logged move replayed on the deal the seeds re-derive); a changed face-down card or log entry is caught."""

from __future__ import annotations

import random
import re

import pytest

from boystown_helpers import QUICK, play_out


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A 2-seat match on the quick catalogue (first player by lot), played to the end and revealed by both
    seats: (doc, PBD_HOME)."""
    from conftest import Pbd

    base = tmp_path_factory.mktemp("audit")
    mp = pytest.MonkeyPatch()
    mp.setenv("PBD_HOME", str(base / "pbd-home"))
    pbd, doc = Pbd(), base / "match.txt"
    (base / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", base / "quick.toml", "--first", "random",
        ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    play_out(pbd, doc, random.Random(0))
    pbd("reveal", doc, "--as", "Ann", ok=True)
    (base / "half.txt").write_text(doc.read_text())         # revealed by Ann only
    pbd("reveal", doc, "--as", "Ben", ok=True)
    yield doc, base / "pbd-home"
    mp.undo()


@pytest.fixture
def match_doc(finished, monkeypatch, tmp_path):
    doc, home = finished
    monkeypatch.setenv("PBD_HOME", str(home))
    copy = tmp_path / "match.txt"
    copy.write_text(doc.read_text())
    return copy


def test_a_finished_revealed_match_audits_clean(pbd, match_doc):
    log = pbd("log", match_doc).output
    assert "flips " in log and "from town" in log and "game over" in log     # both kinds of battle happened
    assert "first player by lot" in log and "d2=" in log                      # the lot is a logged roll
    r = pbd("audit", match_doc)
    assert r.exit_code == 0, r.output
    assert "every logged move replays to the board" in r.output


def test_before_every_seat_reveals_the_moves_are_not_replayed(pbd, finished, match_doc):
    doc = match_doc
    doc.write_text((finished[0].parent / "half.txt").read_text())
    r = pbd("audit", doc)       # (Ben's pbd, sharing this PBD_HOME, also notes its reveal entry is gone)
    assert "Ben: not revealed" in r.output and "Boys' Town cannot replay its log yet" in r.output, r.output
    assert pbd("replay", doc).exit_code == 2


def test_a_changed_face_down_card_is_caught_by_the_audit(pbd, match_doc):
    text = match_doc.read_text()
    down = [m for m in re.finditer(r"^  slot (\d+) ([A-Za-z0-9_-]{40,})", text, re.M)]
    a, b = down[0], down[-1]               # swap two face-down cards' numbers
    edited = text.replace(a.group(0), "\0").replace(b.group(0), f"  slot {b.group(1)} {a.group(2)}")
    edited = edited.replace("\0", f"  slot {a.group(1)} {b.group(2)}")
    match_doc.write_text(edited)
    r = pbd("audit", match_doc)
    assert r.exit_code == 1
    assert "its number is not the deal's" in r.output


def test_a_changed_flip_in_the_log_is_caught(pbd, match_doc):
    text = match_doc.read_text()
    m = re.search(r"flips ([^(]+) \(slot (\d+) ·", text)
    match_doc.write_text(text.replace(m.group(0), f"flips {m.group(1)}(slot {int(m.group(2)) + 1} ·", 1))
    r = pbd("audit", match_doc)
    assert r.exit_code == 1
    assert "does not follow from the entry before" in r.output           # the log's hash chain
    assert "the flip the log shows for this attack opens slot" in r.output or "replaying the move gives" in r.output


def test_a_hand_attack_logs_its_commitment_and_the_flip_opens_it(pbd, match_doc):
    from pbd.games.boystown import GAME, cards

    state = GAME.parse(match_doc.read_text())
    log = state.meta.log
    attack = next(e for e in log if "from hand with a face-down card (commitment" in e.text)
    commit = re.search(r"commitment ([0-9a-f]{64})", attack.text).group(1)
    flip = next(e for e in log[attack.number:] if e.player == attack.player and "flips " in e.text)
    m = re.search(r"\(slot (\d+) · nonce ([0-9a-f]{32})\)", flip.text)
    assert cards.opens(state.meta.match_id, attack.player, commit, int(m.group(1)), m.group(2))


def test_an_edited_first_player_is_caught(pbd, match_doc):
    text = match_doc.read_text()
    chosen = re.search(r"starts=(\w+)", text).group(1)
    other = "Ann" if chosen == "Ben" else "Ben"
    match_doc.write_text(text.replace(f"starts={chosen}", f"starts={other}", 1))
    r = pbd("audit", match_doc)
    assert r.exit_code == 1 and "options" in r.output, r.output


def test_a_match_revealed_in_the_middle_of_a_hand_battle_audits_clean(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    (tmp_path / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", tmp_path / "quick.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    data = play_out(pbd, doc, random.Random(0), until="with a face-down card")
    assert data["result"] is None and "Battle:" in doc.read_text()          # the card is still face down
    for name in ("Ann", "Ben"):
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    r = pbd("audit", doc)
    assert r.exit_code == 0 and "every logged move replays to the board" in r.output, r.output


@pytest.mark.long
@pytest.mark.parametrize("n", [3, 6])
def test_random_matches_of_n_seats_audit_clean_after_every_reveal(pbd, tmp_path, n):
    from boystown_helpers import start

    doc = tmp_path / "m.txt"
    (tmp_path / "quick.toml").write_text(QUICK)
    names = start(pbd, doc, n, "--deck", tmp_path / "quick.toml", "--first", "random")
    play_out(pbd, doc, random.Random(n), limit=3000)
    for name in names:
        pbd("reveal", doc, "--as", name, ok=True)
    r = pbd("audit", doc)
    assert r.exit_code == 0, r.output
