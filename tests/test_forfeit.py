"""Issue 26 part 4: `pbd resign` and `pbd claim`, with the patience measured by the backend's own time.

Every game: a resign ends the match with the seats that stay winning, every later move is
refused, and the log replays.  A claim is refused before the match's patience has run out and
allowed after, the time being the document's modification time as its backend reports it
(the file's mtime, set here with os.utime; the test Docs server's Drive ``modifiedTime``),
never a time typed into the document.
"""

from __future__ import annotations

import os
import time

import pytest

GAMES = ["cnc", "ttc", "tower", "boystown", "2xd6"]
DAY = 86400


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """Return ``as_(name)``: switch PBD_HOME to that player's own folder (their own machine)."""
    def as_(name):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{name}"))
    return as_


def start(pbd, homes, doc, game, names=("Ann", "Ben"), options=()):
    """Seat ``names`` at a new match of ``game`` on ``doc``, each from their own PBD_HOME; every duty paid."""
    from pbd import games

    g = games.get(game)
    decks = g.sample_decks()
    homes(names[0])
    extra = ["--players", len(names)] if len(names) > 2 else []
    pbd("new", game, doc, "--as", names[0], *(["--deck", decks[0]] if decks else []), "--seed", "a", *extra,
        *options, ok=True)
    for i, name in enumerate(names[1:], 1):
        homes(name)
        pbd("join", doc, "--as", name, *(["--deck", decks[-1]] if g.join_needs_deck else []), "--seed", f"s{i}",
            ok=True)
    for _ in range(2):          # the duties of the start (opening hands, unlocks) paid by every seat
        for name in names:
            homes(name)
            pbd("status", doc, ok=True)


def waited_on(pbd, doc):
    return pbd.json("show", doc)["to_move"]


def back_in_time(doc, seconds):
    """Make the document look last changed ``seconds`` ago (as if nobody had touched it since)."""
    then = time.time() - seconds
    os.utime(doc, (then, then))


@pytest.mark.parametrize("game", GAMES)
def test_resign_ends_the_match_the_other_seat_wins_and_the_log_replays(pbd, homes, tmp_path, game):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, game)
    homes("Ben")
    done = pbd("resign", doc, ok=True)
    assert "Result: Ann wins: Ben resigned" in done.output
    view = pbd.json("show", doc)
    assert view["result"] == "Ann wins: Ben resigned" and view["to_move"] == []
    assert "resigns" in doc.read_text(encoding="utf-8")
    homes("Ann")
    before = doc.read_bytes()
    moved = pbd("move", doc, "end turn")
    assert moved.exit_code == 1 and "the match is over" in moved.output
    assert doc.read_bytes() == before
    again = pbd("resign", doc)
    assert again.exit_code == 1 and "over already" in again.output and doc.read_bytes() == before
    assert pbd.json("legal", doc)["moves"] == []
    pbd("reveal", doc, ok=True)
    homes("Ben")
    pbd("reveal", doc, ok=True)
    audit = pbd("audit", doc)
    assert audit.exit_code == 0 and "audit: clean" in audit.output, audit.output


def test_resign_at_three_seats_the_two_who_stay_share_the_win(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "boystown", names=("Ann", "Ben", "Cy"))
    homes("Cy")
    pbd("resign", doc, ok=True)
    assert pbd.json("show", doc)["result"] == "Ann and Ben win: Cy resigned"


def test_a_twin_tower_city_team_loses_with_its_player(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "ttc", names=("Ann", "Ben", "Cy", "Dee"), options=("-O", "team=2"))
    sides = {p["name"]: p.get("side") for p in pbd.json("show", doc)["players"]}
    homes("Ann")
    pbd("resign", doc, ok=True)
    others = [n for n, s in sides.items() if s != sides["Ann"]]
    assert pbd.json("show", doc)["result"] == f"{' and '.join(others)} win: Ann resigned"


def test_resign_before_the_match_starts_is_refused(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    homes("Ann")
    pbd("new", "tower", doc, "--as", "Ann", "--seed", "a", ok=True)
    before = doc.read_bytes()
    done = pbd("resign", doc)
    assert done.exit_code == 1 and "has not started" in done.output and doc.read_bytes() == before


@pytest.mark.parametrize("game", GAMES)
def test_claim_is_refused_before_the_patience_and_allowed_after(pbd, homes, tmp_path, game):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, game, options=("-O", "patience=72h"))
    absent = waited_on(pbd, doc)
    assert len(absent) == 1
    claimer = "Ben" if absent == ["Ann"] else "Ann"
    homes(claimer)
    before = doc.read_bytes()
    early = pbd("claim", doc)
    assert early.exit_code == 1 and "patience is 3 days" in early.output and "under an hour" in early.output
    assert doc.read_bytes() == before
    back_in_time(doc, 2 * DAY)
    assert pbd("claim", doc).exit_code == 1 and doc.read_bytes() == before
    back_in_time(doc, 3 * DAY + 60)
    done = pbd("claim", doc, ok=True)
    result = f"{claimer} wins: {absent[0]} forfeited (no answer within the patience of 3 days)"
    assert result in done.output and pbd.json("show", doc)["result"] == result
    text = doc.read_text(encoding="utf-8")
    assert f"{claimer}: claims the match: {absent[0]} has not answered since " in text
    assert f"longer than the patience of 3 days; {absent[0]} forfeits" in text
    homes(absent[0])
    late = pbd("move", doc, "end turn")
    assert late.exit_code == 1 and "the match is over" in late.output
    pbd("reveal", doc, ok=True)          # the claim replays in every seat's audit, once both have revealed
    homes(claimer)
    pbd("reveal", doc, ok=True)
    audit = pbd("audit", doc)
    assert audit.exit_code == 0 and "audit: clean" in audit.output, audit.output


def test_the_claimer_cannot_claim_while_the_match_waits_on_them(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=1h"))
    mover = waited_on(pbd, doc)[0]
    homes(mover)
    back_in_time(doc, 2 * DAY)
    before = doc.read_bytes()
    done = pbd("claim", doc)
    assert done.exit_code == 1 and f"waits on {mover} too" in done.output and doc.read_bytes() == before


def test_the_default_patience_is_seven_days(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower")
    claimer = "Ben" if waited_on(pbd, doc) == ["Ann"] else "Ann"
    homes(claimer)
    back_in_time(doc, 6 * DAY)
    assert "patience is 7 days" in pbd("claim", doc).output
    back_in_time(doc, 7 * DAY + 60)
    pbd("claim", doc, ok=True)


def test_a_time_typed_into_the_document_is_ignored(pbd, homes, tmp_path):
    """A note saying the absent seat left long ago changes nothing: the file changed just now."""
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=72h"))
    claimer = "Ben" if waited_on(pbd, doc) == ["Ann"] else "Ann"
    homes(claimer)
    back_in_time(doc, 4 * DAY)
    with open(doc, "a", encoding="utf-8") as fh:
        fh.write("\nWaited on: Ann, since 01 Jan 2020 00:00 UTC (patience 1 hour)\n")
    before = doc.read_bytes()
    done = pbd("claim", doc)
    assert done.exit_code == 1 and "under an hour" in done.output and doc.read_bytes() == before


def test_a_patience_retyped_in_the_log_breaks_the_chain_and_nothing_is_claimed(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=72h"))
    claimer = "Ben" if waited_on(pbd, doc) == ["Ann"] else "Ann"
    homes(claimer)
    doc.write_text(doc.read_text(encoding="utf-8").replace("patience 3 days", "patience 1 hour"), encoding="utf-8")
    back_in_time(doc, 2 * 3600)
    before = doc.read_bytes()
    done = pbd("claim", doc)
    assert done.exit_code == 3 and doc.read_bytes() == before


@pytest.mark.parametrize("value", ["soon", "30m", "0h", "400d"])
def test_a_bad_patience_is_refused_at_new(pbd, tmp_path, value):
    doc = tmp_path / "m.txt"
    done = pbd("new", "tower", doc, "--as", "Ann", "-O", f"patience={value}")
    assert done.exit_code == 2 and "patience" in done.output and not doc.exists()


def test_a_forged_claim_against_a_seat_not_waited_on_is_named_by_the_audit(pbd, homes, tmp_path):
    """A modified pbd writes a claim against the seat that was not waited on: the audit and pbd replay name it."""
    from pbd import forfeit, match
    from pbd.documents import open_document
    from pbd.result import Result

    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=1h"))
    mover = waited_on(pbd, doc)[0]
    other = "Ben" if mover == "Ann" else "Ann"
    homes(mover)

    def forged(turn):
        turn.state.meta.record(mover, forfeit.claim_text([other], time.time() - DAY, 3600))
        turn.game.forfeit(turn.state, f"{mover} wins: {other} forfeited")
        return Result([])

    match._run(open_document(str(doc)), mover, forged)
    done = pbd("audit", doc)
    assert done.exit_code == 1 and f"log entry 5: {mover}: claims the match" in done.output
    assert f"the match waits on {mover} too, so {mover} cannot claim it" in done.output
    replayed = pbd("replay", doc)
    assert replayed.exit_code == 1 and f"the match waits on {mover} too" in replayed.output


def test_after_a_claim_the_absent_seats_cards_stay_face_down_and_the_audit_names_it(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "boystown", options=("-O", "patience=72h"))
    absent = waited_on(pbd, doc)[0]
    claimer = "Ben" if absent == "Ann" else "Ann"
    homes(absent)
    their_cards = pbd.json("hand", doc)["hand"]
    homes(claimer)
    mine = pbd.json("hand", doc)["hand"]
    back_in_time(doc, 4 * DAY)
    pbd("claim", doc, ok=True)
    pbd("reveal", doc, ok=True)
    text = doc.read_text(encoding="utf-8")
    view = pbd.json("show", doc)
    hidden = [c for c in their_cards if c not in mine]
    assert hidden and not [c for c in hidden if str(c).split(" (")[0] in text]
    assert [p["hand"] for p in view["players"] if p["name"] == absent] == [len(their_cards)]
    audit = pbd("audit", doc)
    assert audit.exit_code == 1 and "audit: incomplete" in audit.output and f"{absent} has not revealed" in audit.output
    assert "problem(s) found" not in audit.output


def test_status_says_who_holds_the_table_up_and_since_when(pbd, homes, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=72h"))
    absent = waited_on(pbd, doc)[0]
    claimer = "Ben" if absent == "Ann" else "Ann"
    homes(claimer)
    back_in_time(doc, 4 * DAY)
    then = time.strftime("%d %b %Y", time.gmtime(time.time() - 4 * DAY))
    out = pbd("status", doc, ok=True).output
    assert f"Waited on: {absent}, since {then}" in out and "(4 days; patience 3 days)" in out
    assert "may claim the match" in out
    assert f"waited on: {absent}, since {then}" in pbd("status", ok=True).output
    assert pbd.json("status", doc)["held_up"].startswith(f"Waited on: {absent}")


def test_claim_on_a_google_doc_uses_drives_modified_time(pbd, docs_server, homes, tmp_path):
    gid = docs_server.create_document("")
    doc = f"gdoc:{gid}"
    start(pbd, homes, doc, "tower", options=("-O", "patience=72h"))
    claimer = "Ben" if waited_on(pbd, doc) == ["Ann"] else "Ann"
    homes(claimer)
    before = docs_server.text(gid)
    early = pbd("claim", doc)
    assert early.exit_code == 1 and "patience is 3 days" in early.output and docs_server.text(gid) == before
    docs_server.set_modified(gid, time.time() - 3 * DAY - 60)
    pbd("claim", doc, ok=True)
    assert "claims the match" in docs_server.text(gid)
    assert "forfeited" in pbd.json("show", doc)["result"]


def test_the_commands_pages_resign_and_claim_example_runs_as_written(pbd, tmp_path, monkeypatch):
    """docs/commands.md's example, each line with the exit code its comment gives; 'later' is time passing."""
    import re
    import shlex
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    block = re.search(r"```console-forfeit\n(.*?)```", page, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    lines = [line[2:] for line in block.splitlines() if line.startswith("$ pbd ")]
    assert len(lines) >= 8
    for line in lines:
        command, _, comment = line.partition("  #")
        if "days later" in comment:
            back_in_time(tmp_path / "match.txt", 3 * DAY + 60)
        m = re.search(r"exit (\d)", comment)
        result = pbd(*shlex.split(command)[1:])
        assert result.exit_code == (int(m.group(1)) if m else 0), f"{command}\n{result.output}"
        for words in re.findall(r"(Waited on: Ann, since|under an hour; patience 3 days|Ben wins|the match is over|"
                                r"incomplete)", comment):
            assert words in result.output, f"{command}: {words!r} not in\n{result.output}"


def test_a_google_doc_whose_drive_time_is_not_told_cannot_be_claimed_and_status_says_so(pbd, docs_server, homes,
                                                                                         tmp_path):
    gid = docs_server.create_document("")
    doc = f"gdoc:{gid}"
    start(pbd, homes, doc, "tower", options=("-O", "patience=1h"))
    claimer = "Ben" if waited_on(pbd, doc) == ["Ann"] else "Ann"
    homes(claimer)
    docs_server.set_modified(gid, time.time() - 2 * DAY)
    before = docs_server.text(gid)
    docs_server.fail(1, 404, match="/drive/v3/files/")         # Drive will not say (not this account's file)
    done = pbd("claim", doc)
    assert done.exit_code == 5 and "does not tell this account" in done.output and docs_server.text(gid) == before
    docs_server.fail(1, 404, match="/drive/v3/files/")
    assert "since when: the document's store does not say" in pbd("status", doc, ok=True).output


@pytest.mark.parametrize("game", GAMES)
def test_the_header_says_since_when_the_seats_it_names_are_waited_on(pbd, homes, tmp_path, game):
    """Issue 26 part 3: under the title, ``Last entry:`` gives when the log last grew (the writer's clock,
    UTC to the minute); the header's own lines below it name who is waited on."""
    doc = tmp_path / "m.txt"
    before = time.time()
    start(pbd, homes, doc, game)
    lines = doc.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("pbd match ") and lines[1].startswith("Last entry: ")
    stamp = time.mktime(time.strptime(lines[1][len("Last entry: "):], "%d %b %Y %H:%M UTC")) - time.timezone
    assert before - 60 <= stamp <= time.time()
    absent = waited_on(pbd, doc)
    assert absent and any(name in "\n".join(lines[2:8]) for name in absent)


def test_a_last_entry_line_typed_by_hand_is_not_trusted_and_the_next_entry_rewrites_it(pbd, homes, tmp_path):
    """The line only informs: claims go by the backend's time, and pbd writes the time anew with the next entry."""
    doc = tmp_path / "m.txt"
    start(pbd, homes, doc, "tower", options=("-O", "patience=72h"))
    absent = waited_on(pbd, doc)[0]
    text = doc.read_text(encoding="utf-8").split("\n")
    text[1] = "Last entry: 01 Jan 2020 00:00 UTC"
    doc.write_text("\n".join(text), encoding="utf-8")
    homes("Ben" if absent == "Ann" else "Ann")
    before = doc.read_bytes()
    done = pbd("claim", doc)
    assert done.exit_code == 1 and "under an hour" in done.output and doc.read_bytes() == before
    assert pbd("check", doc).exit_code == 0
    homes(absent)
    pbd("move", doc, "roll", ok=True)
    assert doc.read_text(encoding="utf-8").split("\n")[1] != "Last entry: 01 Jan 2020 00:00 UTC"
