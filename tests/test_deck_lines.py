"""Issue 25: the deck's v4 lines, edited by hand — every new token refused where it does not hold, through the CLI.

Format v4 writes a slot's number as ``^`` while its generation's last shuffle pass stands in the
document (the number is that pass's, written once, in its proof lines), and one proof for the
unlocks one seat wrote in one command (a batch: the proof on the batch's first slot, the others'
steps without one).  A Twin Tower City match after Max's join has both: Max's pass stands, and
his join unlocked Lia's hand and the first table card in one batch.  Each edit below must be
refused by Lia's next command with exit 3, a message naming what is wrong (and the line), and
the document left byte for byte as it was.
"""

from __future__ import annotations

import re

from pbd.table import group
from pbd.table.deck import SharedDeck


def start(pbd, tmp_path):
    from test_ttc_match import start

    return start(pbd, tmp_path)


def slot_line(text, sid):
    return re.search(rf"^  slot {sid} .*$", text, re.MULTILINE).group(0)


def deal_lines(text):
    """Return the lines of the document's Deal section (the shared deck)."""
    return [ln for ln in text.split("\nDeal\n", 1)[1].splitlines() if ln.startswith("  ")]


def line_number(text, line):
    return text.splitlines().index(line) + 1


def refused(pbd, doc, text, words, slot=None):
    """Lia's next command refuses the edited document with exit 3 and ``words`` (naming the line of ``slot``, if
    given); the document stays as edited."""
    doc.write_text(text)
    r = pbd("hand", doc, "--as", "Lia")
    assert r.exit_code == 3, r.output
    assert re.search(words, r.output), r.output
    assert "Traceback" not in r.output
    assert doc.read_text() == text
    if slot is not None:
        assert f"line {line_number(text, slot_line(text, slot))}" in r.output, r.output
    return r.output


def test_after_the_join_numbers_are_written_once_and_max_s_unlocks_share_one_proof(pbd, tmp_path):
    text = start(pbd, tmp_path).read_text()
    deck = SharedDeck.parse(deal_lines(text))
    assert deck.gens[0].passes[-1].piles is not None                  # Max's pass stands
    assert all(slot_line(text, sid).split()[2] == "^" for sid in deck.slots)
    batch = [sid for sid in sorted(deck.slots) if deck.slots[sid].steps]
    assert len(batch) == 14                                           # Lia's 13 hand cards and the first table card
    assert len(slot_line(text, batch[0]).split(" · ")[1].split()) == 4          # seat, number, the proof, stamp
    assert all(len(slot_line(text, sid).split(" · ")[1].split()) == 3 for sid in batch[1:])
    assert len({deck.slots[sid].steps[0].proof for sid in batch}) == 1


def test_a_caret_where_no_pass_stands_is_refused_naming_the_line(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    pbd("hand", doc, "--as", "Lia", ok=True)            # Lia has checked Max's pass: it leaves the document
    text = doc.read_text()
    line = slot_line(text, 5)
    assert line.split()[2] != "^" and not re.search(r"^  pass 1 2 \S+ @", text, re.MULTILINE)
    edited = text.replace(line, line.replace(line.split()[2], "^"))
    refused(pbd, doc, edited, r"slot 5: '\^' stands for the number the last shuffle pass of generation 1 gave "
                              r"it, but no such pass stands in the document", slot=5)


def test_a_caret_pointing_at_a_number_the_pass_does_not_have_is_refused(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    # the dark-army pile's numbers of Max's pass taken out: its slots' '^' point at nothing
    edited = "\n".join(ln for ln in text.split("\n") if not ln.startswith("  proof 1 2 dark-army "))
    assert edited != text
    refused(pbd, doc, edited,
            r"slot 66: '\^' stands for the number Max's shuffle pass of generation 1 gave it, but that pass "
            r"has no number for slot 66 in the document", slot=66)


def test_a_batch_whose_proof_is_taken_out_is_refused_naming_the_line(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    line = slot_line(text, 1)
    proof = line.split(" · ")[1].split()[2]
    edited = text.replace(line, line.replace(f" {proof}", ""))
    refused(pbd, doc, edited,
            r"slot 1: Max's unlock @2 has no proof, and it is the first of Max's unlocks of generation 1 "
            r"written at @2, which carries their one proof", slot=1)


def test_a_second_proof_in_a_batch_is_refused_naming_the_line(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    text = doc.read_text()
    proof = slot_line(text, 1).split(" · ")[1].split()[2]
    line = slot_line(text, 6)
    edited = text.replace(line, line.replace(" @2", f" {proof} @2"))
    refused(pbd, doc, edited,
            r"slot 6: a second proof for Max's unlocks of generation 1 written at @2 \(they share one, written "
            r"on slot 1\)", slot=6)


def tower(pbd, tmp_path):
    """Return a 3-seat Tower match after Cy's join: Cy unlocked Ann's and Ben's first cards in one batch."""
    from tower_helpers import start as start_tower

    return start_tower(pbd, tmp_path, 3)


def refused_by_ann(pbd, doc, text, words):
    """Ann's next command refuses ``text`` with exit 3 and ``words`` (The Tower seals no deck line: the deck's own
    checks must catch it); the document stays as edited."""
    doc.write_text(text)
    r = pbd("hand", doc, "--as", "Ann")
    assert r.exit_code == 3, r.output
    assert re.search(words, r.output), r.output
    assert doc.read_text() == text


def test_two_unlocked_numbers_of_a_batch_swapped_fail_the_whole_batch_naming_the_seat(pbd, tmp_path):
    # the proof still stands on slot 1 and every number is a point of the group: only the batch check sees it
    doc = tower(pbd, tmp_path)
    text = doc.read_text()
    assert len(slot_line(text, 2).split(" · ")[1].split()) == 3      # slot 2's unlock: proven with slot 1's
    a, b = (slot_line(text, sid).split(" · ")[1].split()[1] for sid in (1, 2))
    refused_by_ann(pbd, doc, text.replace(a, "§").replace(b, a).replace("§", b),
                   r"slots 1-2: Cy's unlocks, proven together, carry no valid proof")


def test_one_unlocked_number_of_a_batch_replaced_fails_the_whole_batch_naming_the_seat(pbd, tmp_path):
    doc = tower(pbd, tmp_path)
    text = doc.read_text()
    a = slot_line(text, 2).split(" · ")[1].split()[1]
    refused_by_ann(pbd, doc, text.replace(a, group.encode(group.add(group.decode(a), group.G))),
                   r"slots 1-2: Cy's unlocks, proven together, carry no valid proof")
