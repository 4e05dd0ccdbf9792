"""Issue 28, point 1: the base replays every game (no game overrides it: tests/test_no_replay_override.py).

The replay runs the commands that wrote the log again without anyone's seed (create/join,
settle, play); a hidden hand card reads as what the log showed (``Chance.shown``, or a shared
deck's ``card``), and what a seat's pbd does when it reads the document (``seat_reads``) is
done before each of its entries.
"""

from __future__ import annotations


def _returned(pbd, match):
    """A C&C match where Ben's Dimensional Rift returns Ann's Hawkeye to her hand (the seeds deal both cards)."""
    pbd("new", "cnc", match, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann", ok=True)
    pbd("join", match, "--as", "Ben", "--deck", "forces-of-mystery", "--seed", "b1", ok=True)
    pbd("move", match, "--as", "Ann", "play Hawkeye; end turn", ok=True)
    pbd("move", match, "--as", "Ben", "play Dimensional Rift on Hawkeye", ok=True)
    assert "Pending: Ann takes Hawkeye into hand (returned)" in match.read_text()


def test_cards_returned_to_a_seat_whose_next_command_rolls_are_no_hand_edit(pbd, tmp_path):
    """Ann's pbd takes Hawkeye into her hand when it reads the board for her roll; the replay does so too.

    (Before, only a move of Ann's took it in the replay: Ben's next command called the missing
    Pending line a hand edit, and ``pbd replay`` exited 1; a soak of C&C met it when the seat
    that got cards back revealed at the end.)
    """
    match = tmp_path / "match.txt"
    _returned(pbd, match)
    pbd("roll", match, "2d6", "--as", "Ann", ok=True)
    assert "Pending:" not in match.read_text()
    before = match.read_bytes()
    legal = pbd("legal", match, "--as", "Ben", ok=True)
    assert "disagrees" not in legal.output and "play Graviton" in legal.output
    assert pbd("replay", match).exit_code == 0
    assert match.read_bytes() == before


def test_a_returned_card_is_played_again_and_replays(pbd, tmp_path):
    """The card Ann took back is hers to play (her pbd reads it); the replay reads it as the log showed it."""
    match = tmp_path / "match.txt"
    _returned(pbd, match)
    pbd("move", match, "--as", "Ben", "end turn", ok=True)
    pbd("move", match, "--as", "Ann", "play Hawkeye", ok=True)
    result = pbd("replay", match)
    assert result.exit_code == 0, result.output
    assert "gives exactly this board" in result.output
