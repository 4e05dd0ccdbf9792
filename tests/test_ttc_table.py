"""Twin Tower City on the shared deck, through the CLI: tampering caught before any unlock, undo, team play.

Each attack edits the Deal section the way a cheating opponent (or anyone with the link)
could; the next honest pbd must refuse with exit 3 naming the problem, before it removes
any lock, and leave the document byte for byte as it was.
"""

from __future__ import annotations

import json
import re

import pytest

from pbd.table import group
from pbd.table.deck import SharedDeck


def start(pbd, tmp_path, *options):
    from test_ttc_match import start

    return start(pbd, tmp_path, *options)


def slot_line(text, sid):
    return re.search(rf"^  slot {sid} .*$", text, re.MULTILINE).group(0)


def deal_lines(text):
    """Return the lines of the document's Deal section (the shared deck)."""
    return [ln for ln in text.split("\nDeal\n", 1)[1].splitlines() if ln.startswith("  ")]


def refused(pbd, doc, text, who, command, words):
    """The edit is refused with exit 3 and the document left as it was.

    Two layers catch a hand edit of the Deal: the log's seal over the deal lines (fair play)
    and the shared deck's own verification (``words``); tests/test_table_deck.py checks the
    second alone, at module level.
    """
    doc.write_text(text)
    r = pbd(command, doc, "--as", who)
    assert r.exit_code == 3, r.output
    assert words in r.output or "edited by hand" in r.output, r.output
    assert doc.read_text() == text


def test_a_non_residue_in_the_deal_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    line = slot_line(text, 5)                                 # Light's round-5 card, locked by both
    assert line.split()[2] == "^"                             # its number is Max's pass's, which still stands
    value = SharedDeck.parse(deal_lines(text)).slots[5].base
    bad = group.encode(group.add(value, bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")))      # an 8-torsion part
    refused(pbd, doc, text.replace(line, line.replace(" ^", f" {bad}", 1)), "Lia", "hand", "not a point of the dealing group")


def test_a_forged_unlock_proof_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    # Max unlocked Lia's hand and the first table card at his join, in one batch: one proof, on its first slot
    assert len(slot_line(text, 6).split(" · ")[1].split()) == 3          # Lia's hand card: no proof of its own
    line = slot_line(text, 1)
    proof = line.split(" · ")[1].split()[2]
    forged = proof[:-3] + ("AAA" if not proof.endswith("AAA") else "BBB")
    refused(pbd, doc, text.replace(line, line.replace(proof, forged)), "Lia", "hand", "no valid proof")


def test_a_wrong_unlock_naming_another_card_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)          # Lia's unlock is the last: it publishes the code
    text = doc.read_text()
    line = slot_line(text, 1)
    index = int(re.search(r" =(\d+) ", line).group(1))
    wrong = index % 50 + 1                                    # another Battle Card: a valid-looking card
    refused(pbd, doc, text.replace(line, line.replace(f" ={index} ", f" ={wrong} ")), "Max", "hand",
            "no valid proof")


def test_swapped_locked_numbers_are_refused_before_any_lock_is_removed(pbd, tmp_path):
    # issue 10 item 6: Max's hand card and Light's round-5 card trade numbers, so that Lia's
    # pbd would unlock the round card for Max; her private record of the deal catches it
    doc = start(pbd, tmp_path)
    pbd("hand", doc, "--as", "Lia", ok=True)                  # Lia publishes her unlocks; her record has the deal
    text = doc.read_text()
    hand_value = slot_line(text, 19).split(" · ")[0].split()[2]
    round_value = slot_line(text, 5).split()[2]
    swapped = text.replace(hand_value, "§").replace(round_value, hand_value).replace("§", round_value)
    refused(pbd, doc, swapped, "Lia", "legal", "numbers swapped or replaced")


def test_undo_then_replay_and_audit_are_clean(pbd, tmp_path):
    # issue 10 item 13: a taken-back play is in the log but not on the board
    doc = start(pbd, tmp_path)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    moves = pbd.json("legal", doc, "--as", "Lia")["moves"]
    pbd("move", doc, "--as", "Lia", moves[0], ok=True)
    pbd("undo", doc, "--as", "Lia", ok=True)
    pbd("move", doc, "--as", "Lia", moves[-1], ok=True)
    pbd("move", doc, "--as", "Max", pbd.json("legal", doc, "--as", "Max")["moves"][0], ok=True)
    r = pbd("replay", doc)
    assert r.exit_code == 0, r.output
    pbd.audit_clean(doc)


@pytest.mark.long
def test_a_two_against_two_team_match_plays_to_the_end_and_audits_clean(pbd, tmp_path):
    doc = tmp_path / "team.txt"
    names = ["Lia", "Max", "Ann", "Bo"]
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "lia", "-O", "team=2", ok=True)
    for who in names[1:]:
        pbd("join", doc, "--as", who, "--seed", who.lower(), ok=True)
    while True:
        for who in names:
            moves = pbd.json("legal", doc, "--as", who)["moves"]
            if moves:
                pbd("move", doc, "--as", who, moves[-1], ok=True)
                break
        else:
            break
    shown = json.loads(pbd("show", doc, "--json", ok=True).stdout)
    assert shown["turn"].startswith("over") and len([r for r in shown["rounds"] if r["finished"]]) == 5
    assert pbd("replay", doc).exit_code == 0
    for who in names:
        pbd("reveal", doc, "--as", who, ok=True)
    r = pbd("audit", doc)
    assert r.exit_code == 0, r.output
    r = pbd("check", doc)
    assert r.exit_code == 0, r.output


def test_a_four_seat_match_seats_every_joiner_whatever_the_seated_run_between_joins(pbd, tmp_path, monkeypatch):
    """Each seat on its own machine; Ann and Ben run pbd between the joins. A pass every seated player has checked
    is still needed by a player yet to join (who checks every pass from the first), so none is dropped before
    the deal (the third joiner was refused: 'a pass's proof was pruned before you checked it')."""
    doc = tmp_path / "m.txt"

    def as_(name, *args):
        monkeypatch.setenv("PBD_HOME", str(tmp_path / f"home-{name}"))
        return pbd(*args, "--as", name, ok=True)

    as_("Ann", "new", "ttc", doc, "--players", "4", "--deck", "sample", "--seed", "a")
    as_("Ben", "join", doc, "--seed", "b")
    as_("Ann", "status", doc)
    as_("Ben", "hand", doc)
    as_("Cy", "join", doc, "--seed", "c")
    as_("Ann", "status", doc)
    as_("Dee", "join", doc, "--seed", "d")
    assert [p["name"] for p in pbd.json("show", doc)["players"]] == ["Ann", "Ben", "Cy", "Dee"]
