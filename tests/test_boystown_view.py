"""Boys' Town's players' view holds no long hex token (issue 27): a hand battle's commitment and nonce
live in the machinery, where the hash chain and signatures still cover them."""

from __future__ import annotations

import re

from boystown_helpers import arrange, catch_up, start

from pbd.games.base import view_of

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


def test_a_hand_battle_shows_no_commitment_or_nonce_in_the_view_and_audits_clean(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    start(pbd, doc, 2)
    arrange(doc, hands={"Ann": ["Street Fighter", "Gym"], "Ben": ["Bouncer", "Arcade"]}, turn="Ann",
            phase="attack", turns={"Ann": 2, "Ben": 1})
    pbd("move", doc, "--as", "Ann", "attack Ben with Street Fighter from hand", ok=True)
    text = doc.read_text()
    view = view_of(text)
    assert re.search(r"commitment [0-9a-f]{64}", text)                 # kept, in the machinery
    assert "Ann: face down" in view and "face-down card" in view and tokens(doc) == []
    move(pbd, doc, "Ben", "defend with Bouncer")                      # Ann's pbd flips
    text = doc.read_text()
    assert re.search(r"nonce [0-9a-f]{32}", text) and "flips Street Fighter" in view_of(text)
    assert tokens(doc) == []
    for name in ("Ann", "Ben"):
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    assert tokens(doc) == []
    r = pbd("audit", doc)
    assert r.exit_code == 0 and "every logged move replays to the board" in r.output, r.output
