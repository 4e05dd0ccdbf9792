"""The Google Docs backend, through the real googleapiclient, against tests/docs_server.py."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbd.documents import Snapshot, open_document
from pbd.documents.gdocs import GoogleDocument, Read, document_text, plan
from pbd.errors import BackendError, StaleRevision, UsageError, WriteUncertain

BOARD = "pbd match 1a2b3c4d · Test\nAnn CP 7\nBen CP 9\n\nLog\n1. Ann: new match\n"
BOLD = {"bold": True}


def doc_for(server, text=BOARD):
    gid = server.create_document(text)
    return gid, open_document(f"gdoc:{gid}")


def test_read_gives_text_and_revision(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    assert snap.text == BOARD
    assert snap.revision == docs_server.document(gid)["revisionId"]


def test_urls_and_ids_open_the_same_document(docs_server):
    gid, _ = doc_for(docs_server)
    doc = open_document(f"https://docs.google.com/document/d/{gid}/edit#heading=h.x")
    assert doc.read().text == BOARD
    assert doc.label == f"https://docs.google.com/document/d/{gid}/edit"


def test_round_trip_with_emoji_and_non_bmp_names(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    new = BOARD.replace("Ann", "Ann 🦸\U0001F9D9‍♀️").replace("Ben", "𝔅𝔢𝔫 😈") + "2. 𝔅𝔢𝔫 😈: joined\n"
    written = doc.write(new, snap, styles=[(new.index("𝔅"), new.index("𝔅") + 3, "Red")])
    assert docs_server.text(gid) == new
    again = doc.read()
    assert again.text == new and again.revision == written.revision
    red = [t for t, s in docs_server.runs(gid) if "foregroundColor" in s]
    assert red == ["𝔅𝔢𝔫"]


def test_one_character_change_sends_one_small_batch(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    before = len(docs_server.log)
    doc.write(BOARD.replace("CP 7", "CP 5"), snap)
    calls = docs_server.log[before:]
    assert [c.path.endswith(":batchUpdate") for c in calls] == [True]
    assert calls[0].body_bytes < 300
    assert docs_server.text(gid) == BOARD.replace("CP 7", "CP 5")


def test_formatting_on_untouched_lines_survives_a_write(docs_server):
    gid, doc = doc_for(docs_server)
    # a player bolds Ben's line and underlines "Log" by hand
    start = 1 + BOARD.index("Ben CP 9")
    docs_server.edit(gid, [
        {"updateTextStyle": {"range": {"startIndex": start, "endIndex": start + 8}, "textStyle": BOLD,
                             "fields": "bold"}},
        {"updateTextStyle": {"range": {"startIndex": 1 + BOARD.index("Log"), "endIndex": 4 + BOARD.index("Log")},
                             "textStyle": {"underline": True}, "fields": "underline"}},
    ])
    snap = doc.read()
    new = BOARD.replace("CP 7", "CP 6") + "2. Ann: attack\n"
    doc.write(new, snap, styles=[(new.index("Log"), new.index("Log") + 3, "heading")])
    runs = dict(docs_server.runs(gid))
    assert runs["Ben CP 9"] == BOLD
    assert runs["Log"] == {"underline": True}
    assert docs_server.text(gid) == new


def test_styles_apply_to_changed_lines(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    new = BOARD.replace("Ann CP 7", "Ann CP 7 stunned") + "2. Ben: stun Ann\n"
    a = new.index("Ann CP")
    styles = [(a, a + 3, "bold"), (a, a + 3, "Blue"), (new.index("Log"), new.index("Log") + 3, "heading")]
    doc.write(new, snap, styles=styles)
    runs = docs_server.runs(gid)
    assert ("Ann", {"bold": True, "foregroundColor": {"color": {"rgbColor": {"red": 0.07, "green": 0.33,
                                                                              "blue": 0.8}}}}) in runs
    # inserted text does not inherit the bold of its neighbours
    assert all(not s for t, s in runs if "stun" in t)
    paras = dict(docs_server.paragraph_styles(gid))
    assert paras["2. Ben: stun Ann\n"] == "NORMAL_TEXT"


def test_new_document_is_created_written_and_shared(docs_server):
    doc = GoogleDocument("new", title="Ann v Ben", share=["ben@example.com"])
    assert not doc.exists()
    snap = doc.write(BOARD, None, styles=[(BOARD.index("Log"), BOARD.index("Log") + 3, "heading")])
    gid = doc.gid
    assert doc.label == f"https://docs.google.com/document/d/{gid}/edit"
    assert docs_server.docs[gid].title == "Ann v Ben"
    assert docs_server.text(gid) == BOARD == snap.text
    assert {"type": "user", "role": "writer", "emailAddress": "ben@example.com"}.items() <= \
        docs_server.permissions[gid][-1].items()
    assert dict(docs_server.paragraph_styles(gid))["Log\n"] == "HEADING_2"


def test_a_bad_share_address_is_refused_before_anything_is_created(docs_server):
    with pytest.raises(UsageError, match="'not-an-address' is not an email address") as info:
        GoogleDocument("new", share=["ben@example.com, not-an-address"])
    assert info.value.exit_code == 2
    assert docs_server.docs == {} and docs_server.log == []


def test_a_share_drive_refuses_leaves_no_document_behind(docs_server):
    docs_server.fail(1, status=400, match="/permissions")
    doc = GoogleDocument("new", share=["ben@example.com"])
    with pytest.raises(BackendError):
        doc.write(BOARD, None)
    assert docs_server.docs == {}


def test_several_people_and_anyone_with_the_link(docs_server):
    doc = GoogleDocument("new", share=["ben@example.com,cy@example.com", "ben@example.com"], anyone="reader")
    doc.write(BOARD, None)
    perms = [(p["type"], p["role"], p["emailAddress"]) for p in docs_server.permissions[doc.gid][1:]]
    assert perms == [("user", "writer", "ben@example.com"), ("user", "writer", "cy@example.com"),
                     ("anyone", "reader", "")]


def test_edit_by_the_other_player_between_read_and_write_is_kept(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.before_write(lambda server, doc_id: server.append_text(doc_id, "\nben was here"))
    with pytest.raises(StaleRevision):
        doc.write(BOARD.replace("CP 7", "CP 1"), snap)
    assert docs_server.text(gid) == BOARD + "ben was here\n"


def test_stale_snapshot_is_refused_without_sending_a_write(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.append_text(gid, "\nben was here")
    with pytest.raises(StaleRevision) as info:
        doc.write(BOARD.replace("CP 7", "CP 1"), Snapshot(snap.text, "some-old-revision"))
    assert info.value.exit_code == 4
    assert docs_server.text(gid) == BOARD + "ben was here\n"


def test_a_400_that_is_not_stale_is_a_backend_error(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail(1, status=400, match=":batchUpdate")
    with pytest.raises(BackendError) as info:
        doc.write(BOARD + "x\n", snap)
    assert not isinstance(info.value, StaleRevision) and info.value.exit_code == 5
    assert docs_server.text(gid) == BOARD


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_errors_are_retried_with_growing_backoff(docs_server, status):
    gid, doc = doc_for(docs_server)
    docs_server.fail(2, status=status)
    snap = doc.read()
    docs_server.fail(5, status=status, match=":batchUpdate")
    doc.write(BOARD + "2. Ben: joined\n", snap)
    assert docs_server.text(gid) == BOARD + "2. Ben: joined\n"
    assert len(docs_server.sleeps) == 7
    read_pauses, write_pauses = docs_server.sleeps[:2], docs_server.sleeps[2:]
    # Google's algorithm: 2**n seconds plus up to 1 s of jitter, capped at 32 s
    assert 1 <= read_pauses[0] <= 2 <= read_pauses[1] <= 3
    for n, pause in enumerate(write_pauses):
        assert 2 ** n <= pause <= min(2 ** n + 1, 32)


def test_backoff_is_capped_at_32_seconds_and_honours_retry_after(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail(5, status=429, match=":batchUpdate")
    docs_server.fail(1, status=503, match=":batchUpdate", retry_after=50)
    doc.write(BOARD + "x\n", snap)
    assert [int(p) for p in docs_server.sleeps] == [1, 2, 4, 8, 16, 50]  # the 6th would be 32: Google asked for 50
    assert docs_server.text(gid) == BOARD + "x\n"
    from pbd.documents import gdocs

    assert {gdocs.BACKOFF.delay(n) for n in range(5, 12)} == {32.0}


def test_a_retry_after_beyond_a_minute_gives_up_at_once_and_says_so(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail(1, status=429, match=":batchUpdate", retry_after=600)
    with pytest.raises(BackendError, match="wait 600 s") as info:
        doc.write(BOARD + "x\n", snap)
    assert not isinstance(info.value, WriteUncertain) and "was not changed" in str(info.value)
    assert docs_server.sleeps == [] and docs_server.text(gid) == BOARD


def test_a_write_whose_answer_was_lost_is_not_applied_twice(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail_after_write(1, status=503)
    doc.write(BOARD + "2. Ben: joined\n", snap)
    assert docs_server.text(gid) == BOARD + "2. Ben: joined\n"
    assert docs_server.count(":batchUpdate") == 2  # applied + lost answer, retry refused as stale


def test_drive_rate_limit_403_is_retried_but_a_permission_403_is_not(docs_server):
    docs_server.fail(2, status=403, match="/permissions")
    doc = GoogleDocument("new", share=["ben@example.com"])
    doc.write(BOARD, None)
    assert docs_server.permissions[doc.gid][-1]["emailAddress"] == "ben@example.com"
    assert len(docs_server.sleeps) == 2
    gid, doc = doc_for(docs_server)
    docs_server.forbid(gid)
    with pytest.raises(BackendError, match="no permission") as info:
        doc.read()
    assert "share it with you" in str(info.value) and len(docs_server.sleeps) == 2


def test_retries_are_bounded_and_leave_the_document_as_it_was(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    docs_server.fail(50, status=429, match=":batchUpdate")
    with pytest.raises(BackendError) as info:
        doc.write(BOARD + "x\n", snap)
    assert "429" in str(info.value) and info.value.exit_code == 5 and "was not changed" in str(info.value)
    assert not isinstance(info.value, WriteUncertain)
    assert docs_server.count(":batchUpdate") == 7
    assert docs_server.text(gid) == BOARD


def test_network_down_is_a_backend_error(docs_server, monkeypatch):
    gid, _ = doc_for(docs_server)
    docs_server.stop()
    with pytest.raises(BackendError) as info:
        open_document(f"gdoc:{gid}").read()
    assert info.value.exit_code == 5 and "cannot reach" in str(info.value)


def test_missing_document(docs_server):
    doc = open_document("gdoc:doesNotExist123")
    assert not doc.exists()
    with pytest.raises(BackendError, match="no such Google Doc"):
        doc.read()


def test_writes_go_around_images(docs_server):
    gid, doc = doc_for(docs_server)
    docs_server.insert_inline_object(gid, 1 + BOARD.index("Ben CP 9"))
    docs_server.insert_inline_object(gid, 1 + BOARD.index("Log"))
    snap = doc.read()
    assert snap.text == BOARD
    new = BOARD.replace("Ann CP 7\nBen CP 9\n\nLog", "Ann CP 3\nBen CP 2\n\nLogbook")
    doc.write(new, snap, styles=[])
    assert docs_server.text(gid) == new
    images = [e for c in docs_server.document(gid)["body"]["content"]
              for e in c.get("paragraph", {}).get("elements", []) if "inlineObjectElement" in e]
    assert len(images) == 2


def test_the_final_newline_is_never_deleted(docs_server):
    gid, doc = doc_for(docs_server)
    snap = doc.read()
    doc.write("", snap)
    assert docs_server.text(gid) == "\n"


def test_document_text_handles_tables_breaks_objects_and_suggestions():
    def para(start, *elements):
        return {"startIndex": start, "paragraph": {"elements": list(elements)}}

    def run(start, text, **extra):
        return {"startIndex": start, "textRun": {"content": text, **extra}}

    document = {"revisionId": "r1", "body": {"content": [
        {"endIndex": 1, "sectionBreak": {}},
        para(1, run(1, "a😀\n")),
        para(5, {"startIndex": 5, "inlineObjectElement": {"inlineObjectId": "kix.1"}},
             run(6, "new", suggestedInsertionIds=["s1"]), run(9, "b\x0b"),
             {"startIndex": 11, "pageBreak": {}}, run(12, "\n")),
        {"startIndex": 13, "table": {"tableRows": [{"tableCells": [
            {"content": [para(16, run(16, "c\n"))]}, {"content": [para(19, run(19, "d\n"))]}]}]}},
        {"startIndex": 21, "tableOfContents": {"content": [para(22, run(22, "toc\n"))]}},
        para(26, run(26, "\n")),
    ]}}
    read = document_text(document)
    assert read.text == "a😀\nb\n\nc\nd\n\n"
    assert read.index == [1, 2, 4, 9, 10, 12, 16, 17, 19, 20, 26]
    assert read.revision == "r1"
    assert document_text({}).text == ""


def test_plan_orders_edits_from_the_end_in_utf16_units():
    old = Read("😀a\nb😀c\n", "r", [1, 3, 4, 5, 6, 8, 9])
    requests = plan(old, "😀A\nb😀C\n")
    assert requests == [
        {"deleteContentRange": {"range": {"startIndex": 8, "endIndex": 9}}},
        {"insertText": {"text": "C", "location": {"index": 8}}},
        {"deleteContentRange": {"range": {"startIndex": 3, "endIndex": 4}}},
        {"insertText": {"text": "A", "location": {"index": 3}}},
    ]
    assert json.dumps(requests)


def test_plan_never_touches_the_final_newline():
    old = Read("abc\n", "r", [1, 2, 3, 4])
    requests = plan(old, "")
    assert requests == [{"deleteContentRange": {"range": {"startIndex": 1, "endIndex": 4}}}]


TEXT = st.text(st.sampled_from(list("ab \n·é😀\U0001F9D9")), max_size=40)


def _round_trip(docs_server, old, new, bold):
    gid = docs_server.create_document(old)
    doc = open_document(f"gdoc:{gid}")
    snap = doc.read()
    styles = [(0, min(bold, len(new)), "bold"), (0, min(bold, len(new)), "Green"), (0, 1, "heading")]
    doc.write(new, snap, styles=styles)
    expected = new if new.endswith("\n") else new + "\n"
    assert docs_server.text(gid) == expected
    assert doc.read().text == expected


_CASES = given(old=TEXT, new=TEXT, bold=st.integers(0, 40))
_FIXTURE = [HealthCheck.function_scoped_fixture]


@settings(max_examples=15, deadline=None, suppress_health_check=_FIXTURE)
@_CASES
def test_any_text_round_trips_through_the_server(docs_server, old, new, bold):
    _round_trip(docs_server, old, new, bold)


@pytest.mark.long
@settings(max_examples=300, deadline=None, suppress_health_check=_FIXTURE)
@_CASES
def test_any_text_round_trips_through_the_server_many_cases(docs_server, old, new, bold):
    _round_trip(docs_server, old, new, bold)


def test_the_server_refuses_what_google_would_and_answers_in_google_shapes(docs_server):
    import docs_server as emulator

    gid, doc = doc_for(docs_server)
    with pytest.raises(emulator.ApiError, match="Unknown name \"idx\""):
        docs_server.handle("POST", f"/v1/documents/{gid}:batchUpdate", {}, json.dumps(
            {"requests": [{"insertText": {"text": "x", "location": {"idx": 1}}}]}).encode())
    with pytest.raises(emulator.ApiError, match="Invalid value"):
        docs_server.handle("POST", f"/v1/documents/{gid}:batchUpdate", {}, json.dumps(
            {"requests": [{"updateTextStyle": {"range": {"startIndex": 1, "endIndex": 2},
                                               "textStyle": {"bold": "yes"}, "fields": "bold"}}]}).encode())
    # every request pbd sends passes the same check, and what the server answers fits the Document schema
    snap = doc.read()
    new = BOARD.replace("Ann CP 7", "Ann 😀 CP 6") + "2. Ben: joined\n"
    doc.write(new, snap, styles=[(0, 5, "bold"), (0, 5, "Orange"), (new.index("Log"), new.index("Log") + 3, "heading")])
    docs_server.insert_inline_object(gid, 3)
    emulator.validate(docs_server.document(gid), {"$ref": "Document"}, "docs.v1")
