"""pbd status: my matches, whose turn, what waits on me; --as left out when PBD_HOME holds one seat."""

from __future__ import annotations

import json
import os
import stat

import pytest


@pytest.fixture
def two_homes(tmp_path, monkeypatch):
    """Return ``as_(name)``: switch PBD_HOME to that player's own folder (two machines)."""
    def as_(name):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{name}"))
    return as_


@pytest.fixture
def duel(pbd, tmp_path, two_homes):
    """A C&C match on a local file, Ann and Ben on their own machines, opening hands drawn."""
    doc = tmp_path / "match.txt"
    two_homes("Ann")
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann-1", ok=True)
    two_homes("Ben")
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    two_homes("Ann")
    pbd("hand", doc, ok=True)
    two_homes("Ben")
    pbd("hand", doc, ok=True)
    return doc


def test_status_lists_my_matches_and_whose_turn(pbd, duel, two_homes, tmp_path):
    two_homes("Ann")
    out = pbd("status", ok=True).output
    assert "C&C Trading Card Game · Ann vs Ben" in out and "Ann to move" in out and "waiting on you: your move" in out
    two_homes("Ben")
    out = pbd("status", ok=True).output
    assert "Ben vs Ann" in out and "waiting on you" not in out
    home = tmp_path / "home-Ben"
    assert stat.S_IMODE(os.stat(home / "my-matches").st_mode) == 0o600
    data = pbd.json("status")
    assert data["matches"][0]["opponents"] == ["Ann"] and data["matches"][0]["to_move"] == ["Ann"]


def test_status_doc_says_what_changed_since_my_last_look_and_writes_nothing(pbd, duel, two_homes):
    two_homes("Ben")
    pbd("status", duel, ok=True)
    two_homes("Ann")
    pbd("move", duel, "draw; play Spider-Man; end turn", ok=True)
    two_homes("Ben")
    before = duel.read_bytes()
    out = pbd("status", duel, ok=True).output
    assert duel.read_bytes() == before
    assert "Ann: play Spider-Man" in out and "Waiting on you: your move" in out and "Ben to move with 3 AP" in out
    assert "Your hand (5)" in out and "You: CP 100 · AP 3 · hand count" in out
    again = pbd("status", duel, ok=True).output
    assert "Nothing new since your last look" in again


def test_as_may_be_left_out_with_one_seat_here_else_seats_are_listed(pbd, duel, two_homes, tmp_path):
    two_homes("Ann")
    assert "Spider-Man" in pbd("legal", duel, ok=True).output
    assert pbd("move", duel, "draw", ok=True).exit_code == 0
    two_homes("Both")              # one PBD_HOME holding both seats
    doc = tmp_path / "both.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    before = doc.read_bytes()
    r = pbd("move", doc, "draw")
    assert r.exit_code == 2 and "Ann, Ben" in r.output and "--as" in r.output and doc.read_bytes() == before
    assert pbd("status", doc).exit_code == 2
    two_homes("Nobody")
    r = pbd("hand", duel)
    assert r.exit_code == 2 and "players: Ann, Ben" in r.output


def test_an_unreadable_document_is_reported_not_fatal(pbd, duel, two_homes, tmp_path):
    two_homes("Ann")
    other = tmp_path / "other.txt"
    pbd("new", "cnc", other, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    other.write_text("garbage\n", encoding="utf-8")
    out = pbd("status", ok=True).output
    assert "other.txt: cannot be read" in out and "Ann vs Ben" in out


def test_status_on_the_docs_server(pbd, docs_server, monkeypatch, tmp_path):
    gid = docs_server.create_document("")
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "a"))
    pbd("new", "cnc", f"gdoc:{gid}", "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "b"))
    pbd("join", f"gdoc:{gid}", "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "a"))
    assert "Ann: opening hand" not in docs_server.text(gid)
    assert "Ann vs Ben" in pbd("status", ok=True).output           # like any command, status pays what Ann owes
    paid = docs_server.text(gid)
    assert "Ann: opening hand" in paid
    out = pbd("status", f"gdoc:{gid}", ok=True).output
    assert "Ben: joined" in out and "your move" in out and docs_server.text(gid) == paid    # nothing more owed


@pytest.mark.parametrize("game", ["cnc", "ttc", "tower", "boystown", "2xd6"])
def test_status_and_dry_run_work_for_every_game(pbd, tmp_path, two_homes, game):
    from pbd import games

    g = games.get(game)
    decks = g.sample_decks()
    doc = tmp_path / "m.txt"
    two_homes("Ann")
    pbd("new", game, doc, "--as", "Ann", *(["--deck", decks[0]] if decks else []), "--seed", "a", ok=True)
    two_homes("Ben")
    pbd("join", doc, "--as", "Ben", *(["--deck", decks[-1]] if g.join_needs_deck else []), "--seed", "b", ok=True)
    before = doc.read_bytes()
    listed = pbd.json("status")["matches"][0]
    assert listed["game"] == game and listed["opponents"] == ["Ann"]
    data = pbd.json("status", doc)
    assert data["player"] == "Ben" and data["game"] == game and isinstance(data["waiting"], list)
    assert doc.read_bytes() == before


def test_something_pending_on_me_off_turn_is_named_and_wakes_watch(pbd, duel, two_homes):
    two_homes("Ann")
    pbd("move", duel, "end turn", ok=True)
    two_homes("Ben")
    pbd("move", duel, "adjust Ben CP +10: a test", ok=True)       # a proposal Ann must answer
    two_homes("Ann")
    out = pbd("status", duel, ok=True).output
    assert "Waiting on you: pending: adjust Ben CP +10: a test (proposed by Ben)" in out
    assert "Ben to move" in out
    assert "Waiting on you: pending: adjust" in pbd("watch", duel, "--timeout", "0", ok=True).output
