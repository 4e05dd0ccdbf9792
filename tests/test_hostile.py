"""A hostile document harms no one, and plain failures get their exit code (issue 10, items 5, 7, 8, 10).

Each test is the attack or input that found the problem: the opponent (or anyone with
the link) edits the shared document; a player feeds pbd a strange file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def _ttc(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "lia", ok=True)
    pbd("join", doc, "--as", "Max", "--seed", "max", ok=True)
    return doc


# -- 7. paths from the document -----------------------------------------------------------------

@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "environ"
    path.write_text("GOOGLE_TOKEN=ya29.SECRET-TOKEN\nbattle 1-50\n")
    return path


@pytest.mark.parametrize("target", ["secret", "/dev/zero", "fifo", "/etc/passwd"])
def test_a_ttc_document_naming_a_file_never_opens_it(pbd, tmp_path, secret_file, target):
    doc = _ttc(pbd, tmp_path)
    if target == "secret":
        target = str(secret_file)
    elif target == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    text = re.sub(r"^Deck: \S+", f"Deck: {target}", doc.read_text(), flags=re.M)
    doc.write_text(text)
    for command in (["hand", doc, "--as", "Lia"], ["show", doc], ["check", doc], ["move", doc, "--as", "Lia", "x"]):
        result = pbd(*command)
        assert result.exit_code == 3, result.output
        assert "never opens a file a document names" in result.output
        assert "SECRET" not in result.output and "root:" not in result.output
    assert doc.read_text() == text


def test_a_hand_made_board_naming_a_catalogue_file_is_refused(pbd, tmp_path, secret_file):
    doc = tmp_path / "board.txt"
    doc.write_text(f"Twin Tower City\nCatalogue: {secret_file}\n\nRound 1\n")
    result = pbd("check", doc)
    assert result.exit_code == 3 and "SECRET" not in result.output


def test_a_custom_deck_is_named_by_its_hash_and_the_opponent_installs_it(pbd, tmp_path, monkeypatch):
    from pbd.games.ttc.catalogue import bundled_dir

    (tmp_path / "mine.toml").write_text((bundled_dir() / "sample.toml").read_text())
    deck = tmp_path / "mine.txt"
    deck.write_text((bundled_dir() / "sample.txt").read_text().replace("catalogue: sample.toml", "catalogue: mine.toml"))
    doc = tmp_path / "m.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", deck, ok=True)
    name = re.search(r"^Deck: (\S+)", doc.read_text(), re.M).group(1)
    assert re.fullmatch(r"sha256-[0-9a-f]{16}", name) and str(tmp_path) not in doc.read_text()
    from pbd.games import ttc

    ttc._LIBRARY.clear()                                              # Max's machine: another process
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "max-home"))
    result = pbd("join", doc, "--as", "Max")
    assert result.exit_code == 3 and "pbd catalogue add" in result.output
    out = pbd("catalogue", "add", deck, ok=True)
    assert name in out.output
    pbd("join", doc, "--as", "Max", ok=True)


# -- 8. sizes from the document -----------------------------------------------------------------

def test_a_huge_hand_count_is_refused_at_once(pbd, match):
    text = match.read_text().replace("Ben: hand 5", "Ben: hand 300000000")
    match.write_text(text)
    result = pbd("show", match)
    assert result.exit_code == 3 and "more than 100" in result.output


def test_many_blank_lines_are_read_in_linear_time_and_too_many_are_refused(pbd, match):
    text = match.read_text()
    match.write_text(text.replace("\nLog\n", "\nLog\n" + "\n" * 19_000))
    pbd("show", match, ok=True)
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    match.write_text(text.replace("\nLog\n", "\nLog\n" + "\n" * 100_000))
    result = pbd("show", match)
    assert result.exit_code == 3 and "at most 20,000" in result.output


def test_a_huge_line_is_not_echoed(pbd, match):
    text = match.read_text().replace("Discarded cards", "Discarded cards " + "X" * 200_000, 1)
    match.write_text(text)
    result = pbd("show", match)
    assert result.exit_code == 3 and len(result.output) < 500


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("CP = 100", "CP = " + "9" * 5000, 1),
    lambda t: t.replace("Ben: hand 5", "Ben: hand " + "9" * 4400),
    lambda t: re.sub(r"· draws (\d+)", "· draws " + "1" * 30, t, count=1),
], ids=["cp", "hand", "draws"])
def test_integers_over_4300_digits_or_beyond_any_count_are_a_format_error(pbd, match, edit):
    text = edit(match.read_text())
    match.write_text(text)
    for command in (["show", match], ["log", match], ["audit", match], ["move", match, "--as", "Ann", "draw"]):
        result = pbd(*command)
        assert result.exit_code == 3 and "too large" in result.output and len(result.output) < 500
    assert match.read_text() == text


# -- 10. plain failures: never exit 70 --------------------------------------------------------------

def test_piping_into_head_is_not_an_error(match, tmp_path):
    pbd_exe = Path(sys.executable).parent / "pbd"
    for args in (["log", str(match)], ["legal", str(match), "--as", "Ann"]):
        proc = subprocess.Popen([str(pbd_exe), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()                                  # the reader is gone before pbd writes
        err = proc.stderr.read().decode()
        assert proc.wait() == 0 and "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize("text, why", [
    ("catalogue: deep.toml\nbattle 1\n", "nested too deeply"),
    ("catalogue: inf.toml\nbattle 1-50\narmy 101-120\nwarrior 201-210\n", "whole number"),
    ("battle 1-30000000\n", "longer than 1000 cards"),
    ("battle " + "1" * 5000 + "\n", "longer than 1000 cards"),
    (b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary", "not UTF-8"),
], ids=["deep-toml", "inf", "huge-range", "huge-int", "binary"])
def test_strange_ttc_deck_lists_get_a_format_error(pbd, tmp_path, text, why):
    from pbd.games.ttc.catalogue import bundled_dir

    (tmp_path / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp_path / "inf.toml").write_text((bundled_dir() / "sample.toml").read_text().replace("power = 18", "power = inf"))
    deck = tmp_path / "deck.txt"
    deck.write_bytes(text if isinstance(text, bytes) else text.encode())
    for command in (["deck", "check", deck, "--game", "ttc"], ["new", "ttc", tmp_path / "m.txt", "--as", "Lia",
                                                                 "--deck", deck]):
        result = pbd(*command)
        assert result.exit_code == 3 and why in result.output, result.output
    assert not (tmp_path / "m.txt").exists()


@pytest.mark.parametrize("toml, why", [
    ("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deeply"),
    (None, "wrong kind"),
], ids=["deep-toml", "inf"])
def test_strange_cnc_catalogues_get_a_format_error(pbd, tmp_path, toml, why):
    from pbd.paths import resource_dir

    if toml is None:
        toml = (resource_dir("decks") / "cnc" / "catalogue.toml").read_text().replace("hp = 15", "hp = inf", 1)
    (tmp_path / "cards.toml").write_text(toml)
    deck = tmp_path / "deck.txt"
    deck.write_text("Catalogue: cards.toml\nPorter: The Porter\n1. Spider-Man\n")
    result = pbd("deck", "check", deck)
    assert result.exit_code == 3 and why in result.output, result.output


def test_a_log_entry_by_someone_who_is_not_playing(pbd, match):
    text = re.sub(r"^3\. Ann:", "3. Zed:", match.read_text(), count=1, flags=re.M)
    assert "3. Zed: opening hand" in text
    match.write_text(text)
    before = match.read_bytes()
    for command in ("audit", "replay"):                     # the log's checkers name the stranger: exit 1
        result = pbd(command, match)
        assert result.exit_code == 1, (command, result.output)
        assert "log entry 3 is by 'Zed', who is not playing in this match" in result.output, (command, result.output)
    result = pbd("log", match)                              # the log is listed (exit 0), its chain shown broken
    assert result.exit_code == 0 and "log chain: BROKEN" in result.output, result.output
    result = pbd("hand", match, "--as", "Ben")              # a seat's pbd refuses to act on it: tampering
    assert result.exit_code == 3 and "tampered" in result.output and "published by Zed" in result.output, result.output
    # show checks the log's signatures: Ben's join signature, dropped once Ann wrote after it, now looks
    # missing (entry 3 no longer says Ann wrote it): tampering, exit 3; check reads only the board: exit 0
    result = pbd("show", match)
    assert result.exit_code == 3 and "Ben's key did not sign it" in result.output, result.output
    assert pbd("check", match).exit_code == 0
    assert match.read_bytes() == before


def test_http_401_from_the_docs_server_is_an_auth_error(pbd, docs_server):
    gid = docs_server.create_document("")
    pbd("new", "cnc", f"gdoc:{gid}", "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    docs_server.fail(10, status=401)
    result = pbd("show", f"gdoc:{gid}")
    assert result.exit_code == 5 and "internal error" not in result.output


# -- 5. pending obligations are checked against the move that created them --------------------------

@pytest.mark.parametrize("line, command", [
    ("Pending: Ann reveals hand card 1 (Hack)", ["move", "--as", "Ann", "end turn"]),
    ("Pending: Ann takes Thanos into hand (returned)", ["hand", "--as", "Ann"]),
    ("Pending: Ann discards 2 cards from hand (Vulcanus Agents)", ["legal", "--as", "Ann"]),
], ids=["reveal", "take", "discard"])
def test_a_pending_obligation_typed_into_the_header_is_refused(pbd, match, line, command):
    hand = pbd.json("hand", match, "--as", "Ann")["hand"]
    text = re.sub(r"^(Ben: hand 5 · deck 45)$", rf"\1\n{line}", match.read_text(), flags=re.M)
    match.write_text(text)
    result = pbd(command[0], match, *command[1:])
    assert result.exit_code == 3 and "not explained by the log" in result.output, result.output
    assert match.read_text() == text
    assert not any(card in result.output for card in hand if command[0] != "hand")


def test_a_pending_discard_created_by_a_logged_move_is_obeyed(pbd, tmp_path):
    """The honest case: Ben plays a discard event; Ann's pbd finds it in the log and lets her discard."""
    match = tmp_path / "match.txt"     # seeds with which Ben holds Vulcanus Agents from his first turn
    pbd("new", "cnc", match, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann", ok=True)
    pbd("join", match, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    for _ in range(45):
        for who in ("Ann", "Ben"):
            moves = pbd.json("legal", match, "--as", who)["moves"]
            event = next((m for m in moves if m in ("play Smear Campaign", "play Vulcanus Agents")), None)
            if who == "Ben" and event:
                pbd("move", match, "--as", "Ben", event, ok=True)
                assert "Pending: Ann discards" in match.read_text()
                moves = pbd.json("legal", match, "--as", "Ann")["moves"]
                discard = next(m for m in moves if m.startswith("discard "))
                pbd("move", match, "--as", "Ann", discard, ok=True)
                return
            room = [m for m in moves if m.startswith("play ")] or [m for m in moves if m.endswith(" from hand")]
            if who == "Ben" and room:               # keep Ben's hand under the limit so he goes on drawing
                pbd("move", match, "--as", who, room[0], ok=True)
                moves = pbd.json("legal", match, "--as", who)["moves"]
            pbd("move", match, "--as", who, "; ".join(m for m in ("draw", "end turn") if m in moves), ok=True)
    pytest.fail("Ben never held a discard event")


# -- 9. an adjust is a proposal unless the catalogue says pbd cannot work the card out ---------------

def test_an_adjust_off_turn_is_only_a_proposal_the_opponent_rejects(pbd, match):
    result = pbd("move", match, "--as", "Ben", "adjust Ben CP +100: Construction, please", ok=True)
    assert "proposed" in result.output
    assert pbd.json("show", match)["players"][1]["cp"] == 100
    assert {"accept adjustment", "reject adjustment"} <= set(pbd.json("legal", match, "--as", "Ann")["moves"])
    pbd("move", match, "--as", "Ann", "reject adjustment", ok=True)
    assert pbd.json("show", match)["players"][1]["cp"] == 100 and "Pending" not in match.read_text()
    pbd("replay", match, ok=True)
