"""Boys' Town's players' view holds no long hex token (issue 27): a hand battle's commitment and nonce
live in the machinery, where the hash chain and signatures still cover them."""

from __future__ import annotations

import random
import re

from boystown_helpers import QUICK, arrange, catch_up, play_out, start

from pbd.games.base import view_of
from pbd.games.boystown import GAME, cards


def log_text(doc) -> str:
    """Return the words of every log entry as pbd reads them (the view's words joined with the machinery's)."""
    return "\n".join(e.text for e in GAME.parse(doc.read_text()).meta.log)

#: a run of 20 or more hex/base64 characters holding a digit (a hash, commitment, nonce, key)
TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_+/=-])(?=[A-Za-z0-9_+/=-]*\d)[A-Za-z0-9_+/=-]{20,}(?![A-Za-z0-9_+/=-])")


def move(pbd, doc, who, text):
    """Play as ``who``; then every seat's pbd does what it owes."""
    r = pbd("move", doc, "--as", who, text)
    assert r.exit_code == 0, r.output
    catch_up(doc)


def tokens(doc) -> list[str]:
    """Return the long hex/base64 tokens of ``doc``'s players' view."""
    return TOKEN_RE.findall(view_of(doc.read_text()))


def _attacked(pbd, tmp_path):
    """Return a 2-seat match's document where Ann has just attacked Ben with Street Fighter from hand."""
    doc = tmp_path / "m.txt"
    start(pbd, doc, 2)
    arrange(doc, hands={"Ann": ["Street Fighter", "Gym"], "Ben": ["Bouncer", "Arcade"]}, turn="Ann",
            phase="attack", turns={"Ann": 2, "Ben": 1})
    pbd("move", doc, "--as", "Ann", "attack Ben with Street Fighter from hand", ok=True)
    return doc


def test_a_hand_battle_shows_no_commitment_or_nonce_in_the_view_and_audits_clean(pbd, tmp_path):
    doc = _attacked(pbd, tmp_path)
    text = doc.read_text()
    view = view_of(text)
    commit = re.search(r"face-down card \(commitment ([0-9a-f]{64})\)", log_text(doc)).group(1)
    assert commit in text.split("\nMachinery\n")[1]                   # kept, in the machinery
    assert "Ann: face down (committed)" in view and "face-down card (commitment …)" in view and tokens(doc) == []
    move(pbd, doc, "Ben", "defend with Bouncer")                      # Ann's pbd flips
    text = doc.read_text()
    flip = re.search(r"flips Street Fighter \(slot (\d+) · nonce ([0-9a-f]{32})\)", log_text(doc))
    assert cards.opens(GAME.parse(text).meta.match_id, "Ann", commit, int(flip.group(1)), flip.group(2))
    assert "flips Street Fighter (slot " in view_of(text) and tokens(doc) == []


def test_a_match_played_past_a_hand_battle_and_revealed_shows_no_token_and_audits_clean(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    (tmp_path / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", tmp_path / "quick.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    play_out(pbd, doc, random.Random(0), until="face down (committed)")
    assert "face-down card (commitment …)" in view_of(doc.read_text()) and tokens(doc) == []
    play_out(pbd, doc, random.Random(1), until="flips ")
    assert re.search(r"flips .+ \(slot \d+ · nonce …\)", view_of(doc.read_text())) and tokens(doc) == []
    for name in ("Ann", "Ben"):
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    assert tokens(doc) == []
    r = pbd("audit", doc)
    assert r.exit_code == 0 and "every logged move replays to the board" in r.output, r.output


def test_a_document_of_the_previous_layout_with_the_tokens_in_the_view_is_read_and_rewritten_without(pbd, tmp_path):
    doc = _attacked(pbd, tmp_path)
    text = doc.read_text()
    n, commit = re.search(r"\n(\d+) · hex ([0-9a-f]{64}) ·", text).groups()
    old = (text.replace("(commitment …)", f"(commitment {commit})")          # as the previous pbd wrote it
           .replace(f"\n{n} · hex {commit} ·", f"\n{n} ·")
           .replace("Ann: face down (committed)", f"Ann: face down · commitment {commit}"))
    doc.write_text(old)
    assert set(tokens(doc)) == {commit}                              # the log line and the board
    move(pbd, doc, "Ben", "defend with Bouncer")                      # Ann's pbd flips
    assert "flips Street Fighter (slot " in view_of(doc.read_text()) and tokens(doc) == []
    assert "Street Fighter (AP 7) against Bouncer (AP 5): Ann wins" in log_text(doc)
    assert pbd("check", doc).exit_code == 0


def test_a_flipped_battle_card_of_the_previous_layout_passes_check_and_is_rewritten(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, doc, 2)
    arrange(doc, hands={"Ann": ["Gym", "Arcade"], "Ben": ["Street Fighter", "Paperboy"]}, turn="Ann",
            phase="attack", turns={"Ann": 2, "Ben": 1}, towns={"Ann": ["Bodyguard"]})
    move(pbd, doc, "Ann", "attack Ben with Gym from hand")
    move(pbd, doc, "Ben", "defend with Street Fighter")                  # Ann's pbd flips; her window is open
    text = doc.read_text()
    commit = re.search(r"face-down card \(commitment ([0-9a-f]{64})\)", log_text(doc)).group(1)
    nonce = re.search(r"flips Gym \(slot \d+ · nonce ([0-9a-f]{32})\)", log_text(doc)).group(1)
    line = re.search(r"\n(  Ann: Gym \(#\d+\) from hand)\n", text).group(1)
    old = text.replace(line, f"{line} · commitment {commit} · nonce {nonce}")   # as the previous pbd wrote it
    doc.write_text(old)
    r = pbd("check", doc)
    assert r.exit_code == 0, r.output
    move(pbd, doc, "Ann", "use Bodyguard")
    assert tokens(doc) == [] and "Bodyguard" in log_text(doc)


TYPED = """Boys' Town
Seats: Ann, Ben (2 of 2)
Turn: Ann

Catalogue: standard
Round 1 · Ann's turn, Draw Phase
Phase: draw · round 1
Draw pile: 41 · Discard pile: 3 (top: Rusty Bike)

Ann · hand 4 · turns 1
  (no Residents)

Ben · hand 5 · turns 0
  (no Residents)
"""


def test_a_board_typed_without_a_match_keeps_the_hands_and_piles_it_shows(pbd, tmp_path):
    # rules.hand_size and board.piles_line: with no shared deck to count, a typed board's hands and piles are
    # what it shows (not 0 and gone): show prints them, check finds them consistent, --json counts them
    board = tmp_path / "typed.txt"
    board.write_text(TYPED, encoding="utf-8")
    shown = pbd("show", board, "--game", "boystown", ok=True).output
    assert "Ann · hand 4 · turns 1" in shown and "Ben · hand 5 · turns 0" in shown, shown
    assert "Draw pile: 41 · Discard pile: 3 (top: Rusty Bike)" in shown, shown
    assert pbd("check", board, "--game", "boystown", ok=True).output.strip().endswith("consistent with the rules.")
    seats = pbd.json("show", board, "--game", "boystown")["players"]
    assert [(s["name"], s["hand"], s["held"]) for s in seats] == [("Ann", 4, 4), ("Ben", 5, 5)]
    assert board.read_text(encoding="utf-8") == TYPED
    # a seat whose lines are not typed yet holds no card
    board.write_text(TYPED.split("\nBen ·")[0] + "\n", encoding="utf-8")
    seats = pbd.json("show", board, "--game", "boystown")["players"]
    assert [(s["name"], s["hand"], s["held"]) for s in seats] == [("Ann", 4, 4), ("Ben", 0, 0)]
