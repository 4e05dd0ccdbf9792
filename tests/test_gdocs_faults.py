"""Faults on Google Docs where a write may have landed although no answer says so (issue 10, item 3).

The backend never claims "nothing was changed" unless it re-read the document and saw so: it
recognises its own text, or raises WriteUncertain for the pipeline to look for its log entry.
"""

from __future__ import annotations

import pytest

from pbd.documents import open_document
from pbd.documents import gdocs
from pbd.documents.gdocs import GoogleDocument
from pbd.errors import BackendError, WriteUncertain

BOARD = "pbd match 1a2b3c4d · Test\nAnn CP 7\n\nLog\n1. Ann: new match\n"
MOVE = BOARD + "2. Ann: roll 2d6 = 7\n"


def doc_for(server):
    gid = server.create_document(BOARD)
    return gid, open_document(f"gdoc:{gid}")


def opponent_types_during_the_first_pause(server, gid, monkeypatch):
    """Make "the other player" type a line while pbd waits before its first retry."""
    typed = []

    def sleep(seconds):
        server.sleeps.append(seconds)
        if not typed:
            typed.append(server.append_text(gid, "\nBen was here"))

    monkeypatch.setattr(gdocs.BACKOFF, "sleep", sleep)


def test_a_lost_answer_then_an_opponent_edit_is_uncertain_not_stale(docs_server, monkeypatch):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail_after_write(1, status=500)
    opponent_types_during_the_first_pause(docs_server, gid, monkeypatch)
    with pytest.raises(WriteUncertain) as info:
        doc.write(MOVE, snap)
    assert info.value.exit_code == 5 and "may or may not have landed" in str(info.value)
    assert "nothing was changed" not in str(info.value)
    assert docs_server.text(gid).count("2. Ann: roll 2d6 = 7") == 1  # it did land, once


def then_500s(server, monkeypatch, also=None):
    """After the first pause, answer every batchUpdate with 500 (and run ``also`` once)."""
    def sleep(seconds):
        if not server.sleeps:
            server.fail(100, status=500, match=":batchUpdate")
            if also:
                also()
        server.sleeps.append(seconds)

    monkeypatch.setattr(gdocs.BACKOFF, "sleep", sleep)


def test_500s_after_an_applied_write_are_recognised_as_ours(docs_server, monkeypatch):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail_after_write(1, status=503)
    then_500s(docs_server, monkeypatch)
    written = doc.write(MOVE, snap)
    assert docs_server.text(gid) == MOVE == written.text
    assert docs_server.count(":batchUpdate") == gdocs.BACKOFF.attempts


def test_500s_after_an_applied_write_and_an_edit_are_uncertain(docs_server, monkeypatch):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail_after_write(1, status=500)
    then_500s(docs_server, monkeypatch, also=lambda: docs_server.append_text(gid, "\nBen was here"))
    with pytest.raises(WriteUncertain) as info:
        doc.write(MOVE, snap)
    assert "nothing was changed" not in str(info.value) and "was not changed" not in str(info.value)


def test_500s_that_changed_nothing_say_so_truthfully(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail(10, status=500, match=":batchUpdate")
    with pytest.raises(BackendError) as info:
        doc.write(MOVE, snap)
    assert not isinstance(info.value, WriteUncertain) and "was not changed" in str(info.value)
    assert docs_server.text(gid) == BOARD


def test_never_an_empty_required_revision(docs_server):
    from pbd.documents.gdocs import Read

    gid, doc = doc_for(docs_server)
    read = doc._read()
    doc._reads = {"": Read(read.text, "", read.index, read.tab)}
    with pytest.raises(BackendError, match="no revision"):
        doc.write(MOVE, doc._reads[""].snapshot())
    assert docs_server.count(":batchUpdate") == 0 and docs_server.text(gid) == BOARD


def test_a_lost_create_answer_leaves_no_orphan(docs_server):
    docs_server.fail_after_write(1, status=500, match="/drive/v3/files")
    doc = GoogleDocument("new", title="Ann v Ben")
    doc.write(BOARD, None)
    assert list(docs_server.docs) == [doc.gid]  # found again by its tag, not created twice
    assert docs_server.text(doc.gid) == BOARD
    assert docs_server.count("/drive/v3/files", method="GET") == 1


def test_a_refused_write_waits_a_moment_and_costs_four_calls(pbd, docs_server):
    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    pbd("new", "cnc", spec, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", spec, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    docs_server.before_write(lambda server, doc_id: server.append_text(doc_id, "\n\nBen: brb"))
    before = len(docs_server.log)
    pbd("move", spec, "--as", "Ann", "draw; end turn", ok=True)
    calls = [c.path.endswith(":batchUpdate") for c in docs_server.log[before:]]
    assert calls == [False, True, False, True]  # read, refused write, re-read, write
    assert len(docs_server.sleeps) == 1 and 0.25 <= docs_server.sleeps[0] <= 2  # a short random pause
    assert "Ben: brb" in docs_server.text(gid)


def test_reads_ask_for_the_fields_pbd_uses_with_suggestions_inline(docs_server):
    gid, doc = doc_for(docs_server)
    doc.read()
    get = [c for c in docs_server.log if c.method == "GET"][-1]
    assert "suggestionsViewMode=SUGGESTIONS_INLINE" in get.query and "includeTabsContent=true" in get.query
    assert "fields=" in get.query
    docs_server.set_text(gid, BOARD * 20)
    doc.read()
    get = [c for c in docs_server.log if c.method == "GET"][-1]
    full = len(__import__("json").dumps(docs_server.document(gid, tabs=True)))
    assert get.resp_bytes < full / 2


def test_a_hand_doc_write_whose_answer_was_lost_is_settled_by_reading_it(pbd, docs_server):
    from pbd import handdoc

    gid = docs_server.create_document("")
    spec = f"gdoc:{gid}"
    data = {"match_id": "1a2b3c4d", "player": "Ann", "hand": ["Batman"], "seed": "00"}
    docs_server.fail_after_write(1, status=500)
    handdoc.save(spec, data)
    assert handdoc.parse(docs_server.text(gid), spec) == data
    assert docs_server.text(gid) == handdoc.render(data)  # landed once; the retry was refused, not doubled


def test_a_failing_hand_doc_names_the_hand_doc_not_nothing_changed(pbd, docs_server):
    from pbd import handdoc

    gid = docs_server.create_document("")
    docs_server.fail(100, status=429, match=":batchUpdate")
    with pytest.raises(BackendError) as info:
        handdoc.save(f"gdoc:{gid}", {"match_id": "1a2b3c4d", "player": "Ann", "hand": []})
    assert "your hand document" in str(info.value) and "nothing was changed" not in str(info.value)
