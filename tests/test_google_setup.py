"""The Google set-up page (issue 30, item 7): both ways to an OAuth client, and what pbd says without one."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOCS = Path(__file__).parent.parent / "docs"


def _google_text() -> str:
    page = DOCS / "google.md"
    if page.exists():
        return page.read_text(encoding="utf-8")
    return (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_without_a_client_file_pbd_says_where_it_looked_and_both_ways_to_get_one(pbd, tmp_path, monkeypatch):
    monkeypatch.delenv("PBD_GOOGLE_CLIENT", raising=False)
    result = pbd("auth", "login", "--no-browser")
    assert result.exit_code == 5
    assert f"no OAuth client file at {tmp_path / 'pbd-home' / 'google-client.json'}" in result.output
    assert "the one a friend shares as google-client.json in PBD_HOME" in result.output
    assert "docs/google.md" in result.output and "Traceback" not in result.output


def test_a_friends_client_file_saved_in_pbd_home_is_the_one_login_reads(pbd, tmp_path, monkeypatch):
    monkeypatch.delenv("PBD_GOOGLE_CLIENT", raising=False)
    home = tmp_path / "pbd-home"
    home.mkdir()
    (home / "google-client.json").write_text(json.dumps({"installed": {"client_id": "x"}}))
    result = pbd("auth", "login", "--no-browser")
    assert result.exit_code == 5 and "no OAuth client file" not in result.output     # found, then judged


def test_the_set_up_page_walks_the_consoles_screens_in_order():
    text = _google_text()
    steps = ["**New project**", "**Google Docs API**", "**Google Drive API**", "**OAuth consent screen**",
             "**Get started**", "**Audience**", "**External**", "**Test users**", "**Add users**",
             "**Publish app**", "**Clients**", "**Create client**", "**Desktop app**", "**Download JSON**"]
    at = [text.find(s) for s in steps]
    assert -1 not in at, [s for s, i in zip(steps, at) if i < 0]
    assert at == sorted(at)


def test_the_set_up_page_says_what_sharing_a_client_file_means():
    text = " ".join(_google_text().split())
    said = re.search(r"\*\*Sharing one client file with friends: what it means\.\*\*(.*?)\n\n", _google_text(), re.S)
    assert said
    for fact in ("grants no access by itself", "their own `PBD_HOME`", "quotas", "7 days", "delete the client"):
        assert fact in " ".join(said.group(1).split()), fact
    assert "google-client.json" in text
