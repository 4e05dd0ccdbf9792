"""A read that pays a duty first (``pbd legal``/``pbd hand`` of a seat that owes an unlock) answers from the board it
wrote, and the seat's next command replays from the board the paying command read (issue 29, the round per seat).

* The answer is the one a read of the written board gives: the document and every line printed are those of paying
  with ``pbd watch --once`` and then reading.
* What the read back was there for still holds: a hand edit made the moment after the write is named by the seat's
  next read (a warning) and refuses its next write (exit 3, the document unchanged).
* The seat's next command, after other seats wrote, parses only the board it reads: it replays from the board the
  paying command read (in PBD_HOME's cache), its own entry included, and names a hand edit as before.
"""

from __future__ import annotations

import json
import random
import shutil

import pytest

from boystown_helpers import QUICK

SEATS = ("Ann", "Ben")


def _owing(pbd, tmp_path, monkeypatch, game: str = "boystown"):
    """A 2-seat match of ``game`` (Boys' Town: its quick deck), each seat with its own PBD_HOME, played until a seat
    not on turn owes a duty: (run, doc, the seat that owes)."""
    from pbd import games as registry

    rules = registry.get(game)

    def run(seat, *args, ok=None):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{seat}"))
        return pbd(*args, "--as", seat, ok=ok)

    doc, rng = tmp_path / "match.txt", random.Random(3)
    deck = []
    if game == "boystown":
        (tmp_path / "quick.toml").write_text(QUICK)
        deck = ["--deck", tmp_path / "quick.toml"]
    elif rules.sample_decks():
        deck = ["--deck", rules.sample_decks()[0]]
    run("Ann", "new", game, doc, "--players", "2", "--seed", "ann", *deck, ok=True)
    run("Ben", "join", doc, "--seed", "ben", *(deck if rules.join_needs_deck else []), ok=True)
    for _ in range(80):
        state = rules.parse(doc.read_text())
        owing = [s for s in SEATS if rules.pending(state, s) and state.on_turn != s]
        if owing and len(state.meta.log) > 12:
            return run, doc, owing[0]
        for seat in owing:                              # early in the match: paid as the bench pays them
            run(seat, "legal", doc, ok=True)
        who = state.on_turn
        moves = json.loads(run(who, "legal", doc, "--json", ok=True).stdout)["moves"]
        if moves:
            run(who, "move", doc, rng.choice(moves), ok=True)
        else:
            run(next(s for s in SEATS if s != who), "legal", doc, ok=True)
    pytest.fail(f"no seat of {game} came to owe a duty")


@pytest.fixture
def table(pbd, tmp_path, monkeypatch):
    """Boys' Town, played until a seat owes an unlock (:func:`_owing`)."""
    return _owing(pbd, tmp_path, monkeypatch)


def _snapshot(folder):
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _restore(folder, snap) -> None:
    for p in list(folder.rglob("*")):
        if p.is_file() and p not in snap:
            p.unlink()
    for p, data in snap.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


@pytest.mark.parametrize("game", ["boystown", "tower", "2xd6"])
def test_a_read_that_pays_answers_as_a_read_of_the_board_it_wrote(pbd, tmp_path, monkeypatch, game):
    run, doc, seat = _owing(pbd, tmp_path, monkeypatch, game)
    snap = _snapshot(tmp_path)
    paying = [run(seat, "legal", doc, "--json", ok=True).stdout]
    written = doc.read_bytes()
    assert written != snap[doc]                                             # the duty was paid
    paying.append(run(seat, "hand", doc, "--json", ok=True).stdout)
    _restore(tmp_path, snap)
    assert run(seat, "watch", doc, "--once", ok=True).exit_code == 0       # pays, prints nothing of the board
    assert doc.read_bytes() == written
    reading = [run(seat, "legal", doc, "--json", ok=True).stdout, run(seat, "hand", doc, "--json", ok=True).stdout]
    assert paying == reading


def test_a_hand_edit_right_after_the_duty_is_named_by_the_seats_next_command(table):
    """The edit a read back would have seen: the next read names it, the next write refuses, nothing written."""
    run, doc, seat = table
    run(seat, "legal", doc, ok=True)
    text = doc.read_text()
    line = next(ln for ln in text.split("\n") if ln.startswith(f"{seat} · hand"))
    count = int(line.split("hand ")[1].split(" ")[0])
    edited = text.replace(line, line.replace(f"hand {count} ", f"hand {count + 2} ", 1), 1)
    assert edited != text
    doc.write_text(edited)
    warned = run(seat, "hand", doc, ok=True)
    assert f"{seat}'s hand count was changed by hand from {count} to {count + 2}" in warned.stderr
    refused = run(seat, "resign", doc)
    assert refused.exit_code == 3 and "changed by hand" in refused.stderr
    assert doc.read_text() == edited


def test_the_next_command_after_other_seats_wrote_parses_only_the_board_it_reads(table, monkeypatch):
    from pbd import handedits, private
    from pbd.games.boystown import GAME

    run, doc, seat = table
    run(seat, "legal", doc, ok=True)
    state = GAME.parse(doc.read_text())
    rec = private.load(state.meta.match_id, seat).extra[handedits.KEY]
    assert rec["n"] == len(state.meta.log) and rec["before"]["n"] < rec["n"]   # the board read, kept beside
    other = next(s for s in SEATS if s != seat)
    for _ in range(4):                                  # the other seat plays on (its duties paid by its commands)
        if len(GAME.parse(doc.read_text()).meta.log) > rec["n"]:
            break
        moves = json.loads(run(other, "legal", doc, "--json", ok=True).stdout)["moves"]
        if moves:
            run(other, "move", doc, moves[0], ok=True)
    assert len(GAME.parse(doc.read_text()).meta.log) > rec["n"]
    parsed = []
    real = type(GAME).parse
    monkeypatch.setattr(type(GAME), "parse", lambda self, text: parsed.append(text) or real(self, text))
    monkeypatch.setenv("PBD_HOME", str(doc.parent / f"home-{seat}"))
    clean = run(seat, "hand", doc, ok=True)
    assert "by hand" not in clean.stderr
    assert parsed == [doc.read_text()]                  # only the board read: the replay starts from a kept one
    state = GAME.parse(doc.read_text())
    assert private.load(state.meta.match_id, seat).extra[handedits.KEY]["n"] == len(state.meta.log)


def test_an_entry_refused_after_the_checked_board_is_judged_as_a_replay_from_the_start_judges_it(table):
    """The replay from a kept board snapshots no state and stops at an entry it refuses (not complete), so the check
    replays from the start: the same words as a check with no record."""
    from pbd import audit, handedits, private
    from pbd.games.boystown import GAME

    run, doc, seat = table
    run(seat, "legal", doc, ok=True)
    rec = private.load(GAME.parse(doc.read_text()).meta.match_id, seat).extra[handedits.KEY]
    other = next(s for s in SEATS if s != seat)
    for _ in range(4):
        if len(GAME.parse(doc.read_text()).meta.log) > rec["n"]:
            break
        moves = json.loads(run(other, "legal", doc, "--json", ok=True).stdout)["moves"]
        if moves:
            run(other, "move", doc, moves[0], ok=True)
    text = doc.read_text()
    entry = GAME.parse(text).meta.log[rec["n"]]
    line = next(ln for ln in text.split("\n") if ln.startswith(f"{entry.number}. {entry.player}: "))
    forged = text.replace(line, f"{entry.number}. {entry.player}: build Nowhere", 1)
    board = GAME.parse(forged)
    stopped = audit.replay_log(GAME, board, {}, GAME.parse(rec["text"]), public=True)
    assert not stopped.complete and "build Nowhere" in stopped.problems[0]
    assert handedits.differences(GAME, board, forged, rec, GAME.parse) == \
        handedits.differences(GAME, board, forged, None, GAME.parse)
