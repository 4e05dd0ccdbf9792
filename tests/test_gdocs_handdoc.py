"""Part 7: a player's hand kept in their own Google Doc instead of PBD_HOME."""

import json
import os
from pathlib import Path

import pytest

from pbd import match
from pbd.errors import BackendError, UsageError


@pytest.fixture
def gmatch(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "s1", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "s2", ok=True)
    return spec


def _home_files():
    return {p: json.loads(p.read_text()) for p in Path(os.environ["PBD_HOME"]).rglob("*.json")}


def test_hand_moves_into_a_private_doc_and_play_goes_on(pbd, docs_server, gmatch):
    hand = pbd.json("hand", gmatch, "--as", "Ann")["hand"]
    result = match.keep_hand_in(gmatch, "ann", "gdoc:new")
    hand_gid = result.location.split("/d/")[1].split("/")[0]
    text = docs_server.text(hand_gid)
    assert all(card in text for card in hand) and f"Hand ({len(hand)})" in text
    assert [p["role"] for p in docs_server.permissions[hand_gid]] == ["owner"]  # not shared
    pointers = [d for d in _home_files().values() if "hand_doc" in d]
    assert pointers == [{"hand_doc": f"gdoc:{hand_gid}"}]  # no seed, no hand left in PBD_HOME
    assert pbd.json("hand", gmatch, "--as", "Ann")["hand"] == hand
    pbd("move", gmatch, "--as", "Ann", "draw; end turn", ok=True)
    assert "Hand (6)" in docs_server.text(hand_gid)
    assert len(pbd.json("hand", gmatch, "--as", "Ann")["hand"]) == 6


def test_a_doc_with_other_content_is_refused_and_nothing_moves(pbd, docs_server, gmatch):
    other = docs_server.create_document("my shopping list\n")
    before = _home_files()
    with pytest.raises(UsageError):
        match.keep_hand_in(gmatch, "Ann", f"gdoc:{other}")
    assert _home_files() == before and docs_server.text(other) == "my shopping list\n"


def test_a_failed_hand_doc_write_leaves_the_state_in_pbd_home(pbd, docs_server, gmatch):
    before = _home_files()
    count = len(docs_server.docs)
    docs_server.fail(100, status=500, match=":batchUpdate")
    with pytest.raises(BackendError):
        match.keep_hand_in(gmatch, "Ann", "gdoc:new")
    assert _home_files() == before and len(docs_server.docs) == count  # the new doc was removed


def test_a_damaged_hand_doc_is_a_backend_error(pbd, docs_server, gmatch):
    result = match.keep_hand_in(gmatch, "Ann", "gdoc:new")
    hand_gid = result.location.split("/d/")[1].split("/")[0]
    docs_server.set_text(hand_gid, "oops\n")
    out = pbd("hand", gmatch, "--as", "Ann")
    assert out.exit_code == 5 and "damaged" in out.output


def test_cli_new_and_join_with_hand_docs(pbd, docs_server):
    result = pbd("new", "cnc", "gdoc:new", "--as", "Ann", "--deck", "forces-of-justice", "--hand-doc", "gdoc:new",
                 ok=True)
    assert "kept in https://docs.google.com/document/d/" in result.output
    match_gid = next(g for g, d in docs_server.docs.items() if d.title == "pbd match")
    pbd("join", f"gdoc:{match_gid}", "--as", "Ben", "--deck", "forces-of-corruption", "--hand-doc", "gdoc:new",
        ok=True)
    hand_docs = [g for g, d in docs_server.docs.items() if d.title.startswith("pbd hand")]
    assert len(hand_docs) == 2
    assert not any("seed" in d for d in _home_files().values())
    pbd("move", f"gdoc:{match_gid}", "--as", "Ann", "draw; end turn", ok=True)
    assert len(pbd.json("hand", f"gdoc:{match_gid}", "--as", "Ann")["hand"]) == 6
