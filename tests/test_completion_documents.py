"""Shell completion of DOC: the matches pbd remembers under PBD_HOME are offered besides local files."""

from __future__ import annotations

from pbd.completion import documents


def _new(pbd, doc, seed):
    doc.parent.mkdir(parents=True, exist_ok=True)
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", seed, ok=True)


def test_remembered_documents_complete_from_anywhere(pbd, tmp_path, monkeypatch):
    here, mine, theirs = tmp_path / "here", tmp_path / "here" / "games" / "mine.txt", tmp_path / "away" / "t.txt"
    _new(pbd, mine, "a")
    _new(pbd, theirs, "b")
    gone = tmp_path / "away" / "gone.txt"
    _new(pbd, gone, "c")
    gone.unlink()
    (here / "notes.txt").write_text("not a match, but a local document-like file")
    monkeypatch.chdir(here)
    offered = documents(None, None, "")
    assert "games/mine.txt" in offered and str(theirs) in offered        # relative inside, absolute outside
    assert "notes.txt" in offered and "games/" in offered                 # local files as before
    assert str(gone) not in offered
    assert documents(None, None, "games/m") == ["games/mine.txt"]
    assert documents(None, None, str(tmp_path / "away") + "/") == [str(theirs)]
    assert documents(None, None, str(tmp_path / "aw")) == [str(tmp_path / "away") + "/", str(theirs)]
    monkeypatch.chdir(tmp_path / "away")
    assert documents(None, None, "t") == ["t.txt"]


def test_a_remembered_google_doc_completes_by_its_url(pbd, docs_server, tmp_path, monkeypatch):
    gid = docs_server.create_document("")
    pbd("new", "tower", f"gdoc:{gid}", "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    monkeypatch.chdir(tmp_path)
    offered = documents(None, None, "http")
    assert len(offered) == 1 and gid in offered[0]
    assert offered[0] in documents(None, None, "")


def test_a_damaged_list_of_matches_completes_local_files_only(pbd, tmp_path, monkeypatch):
    home = tmp_path / "pbd-home"
    home.mkdir(exist_ok=True)
    (home / "my-matches").write_text("{not json")
    (tmp_path / "m.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert documents(None, None, "m") == ["m.txt"]
