"""Hand edits the log does not explain are named by every command (issue 10 item 9, issue 15 item 6).

The attack: Ben edits the shared document by hand — Ann's CP, her character's HP, a
``frozen`` status — between pbd commands.  Every command of Ann's names it: read commands
on stderr (exit 0), a move refuses with exit 3 and writes nothing.  Each pbd keeps the last
checked position in its private state and replays only the log entries after it.
"""

from __future__ import annotations

import json
import random

import pytest

from pbd import games, handedits, simulate

WORDS = ["Ann's CP was changed by hand from 100 to 90", "Ann's Spider-Man's HP was changed by hand from 15 to 5",
         "Ann's Spider-Man was marked frozen by hand"]


def _opening(pbd, doc):
    """Ann plays Spider-Man and ends her turn; Ben draws: a position both pbds have checked."""
    pbd("move", doc, "--as", "Ann", "play Spider-Man; end turn", ok=True)
    pbd("move", doc, "--as", "Ben", "draw", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)


def _tamper(text: str) -> str:
    """Ben's hand edit: Ann's CP 100 -> 90, Spider-Man's HP down to 5 and frozen."""
    top = text.index("----")
    board, rest = text[:top], text[top:]
    assert "CP = 100" in board and "[Spider-Man HP=15/15]" in board
    return board.replace("CP = 100", "CP = 90", 1).replace("[Spider-Man HP=15/15]", "[Spider-Man HP=5/15 frozen]") + rest


def test_every_command_of_ann_names_a_hand_edit_and_a_move_is_refused(pbd, match):
    _opening(pbd, match)
    match.write_text(_tamper(match.read_text()))
    for args in (("show", match), ("hand", match, "--as", "Ann"), ("legal", match, "--as", "Ann"),
                 ("hand", match, "--as", "Ben")):
        result = pbd(*args)
        assert result.exit_code == 0, (args, result.output)
        for words in WORDS:
            assert words in result.stderr, (args, result.stderr)
        assert "changed by hand" not in result.stdout
    check = pbd("check", match)         # check lists them as problems (issue 27 part 3)
    assert check.exit_code == 1 and all(w in check.stderr for w in WORDS), check.output
    before = match.read_bytes()
    for who, move in (("Ben", "end turn"), ("Ann", "draw")):
        result = pbd("move", match, "--as", who, move)
        assert result.exit_code == 3, result.output
        assert "the log does not explain" in result.stderr and WORDS[0] in result.stderr
        assert match.read_bytes() == before
    # named again by the next command: a board the log does not explain never becomes the checked one
    assert WORDS[2] in pbd("hand", match, "--as", "Ann").stderr


def test_putting_the_board_back_lets_play_go_on(pbd, match):
    _opening(pbd, match)
    honest = match.read_text()
    match.write_text(_tamper(honest))
    assert pbd("move", match, "--as", "Ben", "end turn").exit_code == 3
    match.write_text(honest)
    result = pbd("move", match, "--as", "Ben", "end turn", ok=True)
    assert "changed by hand" not in result.stderr


def test_a_spectator_check_replays_from_the_start_and_show_stays_quiet(pbd, match, monkeypatch, tmp_path):
    _opening(pbd, match)
    match.write_text(_tamper(match.read_text()))
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    check = pbd("check", match)
    assert check.exit_code == 1 and all(w in check.stderr for w in WORDS)
    show = pbd("show", match, ok=True)
    assert "changed by hand" not in show.stderr       # no record here: show does not replay the whole log


def test_a_spectator_replays_a_board_once_and_a_changed_board_again(pbd, match, monkeypatch, tmp_path):
    """A clean full replay is remembered by the board's exact text (PBD_HOME/cache), so checking the same board
    again replays nothing; any edit changes the text, so it is replayed and named."""
    _opening(pbd, match)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    assert pbd("check", match, ok=True).stderr == ""
    markers = list((tmp_path / "spectator" / "cache" / "verified").iterdir())
    assert len(markers) == 1
    assert pbd("check", match, ok=True).stderr == ""
    match.write_text(_tamper(match.read_text()))
    check = pbd("check", match)
    assert check.exit_code == 1 and all(w in check.stderr for w in WORDS)
    assert len(list(markers[0].parent.iterdir())) == 1      # a board with differences is never marked clean


def test_the_checked_position_follows_the_match(pbd, match, tmp_path):
    """The record is the last board checked (or written): the next command replays only what came after."""
    _opening(pbd, match)
    home = tmp_path / "pbd-home" / "matches"
    ann = json.loads(next(home.glob("*/ann.json")).read_text())
    assert ann["extra"][handedits.KEY]["text"] == match.read_text()
    pbd("move", match, "--as", "Ben", "end turn", ok=True)
    ben = json.loads(next(home.glob("*/ben.json")).read_text())
    assert ben["extra"][handedits.KEY]["text"] == match.read_text()     # the board Ben's pbd wrote


def test_a_hand_edit_is_named_on_a_google_doc(pbd, docs_server):
    gid = docs_server.create_document("")
    doc = f"gdoc:{gid}"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann-1", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    _opening(pbd, doc)
    docs_server.set_text(gid, _tamper(docs_server.text(gid)))
    assert all(w in pbd("hand", doc, "--as", "Ann", ok=True).stderr for w in WORDS)
    before = docs_server.text(gid)
    assert pbd("move", doc, "--as", "Ben", "end turn").exit_code == 3
    assert docs_server.text(gid) == before


@pytest.mark.parametrize("name", ["cnc", "ttc", "2xd6"])
def test_replaying_from_any_earlier_board_finds_nothing_in_honest_play(name):
    """No false alarm: from earlier boards of a random match, replaying only the entries since gives the board."""
    game = games.get(name)
    texts = []
    for i, (state, _, _) in enumerate(simulate.random_game(game, random.Random(7), exhaustive=False)):
        texts.append(game.render(state))
        if i >= 24:
            break
    for k in range(2, len(texts), 3):
        board = game.parse(texts[k])
        rec = handedits.record(texts[k - 2], game.parse(texts[k - 2]).meta.log)
        start = handedits._start(game, board, rec)
        assert start is not None and not handedits._rebuild(game, board, start).problems   # no replay from the start
        assert handedits.differences(game, board, texts[k], rec) == []


def test_a_twin_tower_city_hand_edit_is_named_too(pbd, tmp_path):
    doc = tmp_path / "ttc.txt"
    pbd("new", "ttc", doc, "--as", "Lia", "--deck", "sample", "--seed", "l", ok=True)
    pbd("join", doc, "--as", "Max", "--seed", "m", ok=True)
    pbd("hand", doc, "--as", "Lia", ok=True)
    pbd("move", doc, "--as", "Lia", "flip", ok=True)
    pbd("hand", doc, "--as", "Max", ok=True)
    honest = doc.read_text()
    legal = pbd.json("legal", doc, "--as", "Lia")["moves"][0]
    doc.write_text(honest.replace("Round 2: face down", "  Nullified: Dark Virus\nRound 2: face down", 1))
    said = pbd("hand", doc, "--as", "Lia", ok=True).stderr
    assert "round 1's nullified dark gained Virus by hand" in said
    assert pbd.json("legal", doc, "--as", "Lia")["moves"] == []       # every move would be refused: none listed
    before = doc.read_bytes()
    assert pbd("move", doc, "--as", "Lia", legal).exit_code == 3 and doc.read_bytes() == before
    doc.write_text(honest)
    pbd("move", doc, "--as", "Lia", legal, ok=True)


def test_a_players_show_remembers_a_board_it_found_clean(pbd, match, tmp_path):
    """A read that replayed a board and found it clean remembers it by its exact text, whoever looks (a seat held
    here too, not only a spectator): showing the same board again replays nothing; an edited board is named
    every time and never remembered."""
    pbd("move", match, "--as", "Ann", "draw", ok=True)         # Ben's pbd has not checked this board
    verified = tmp_path / "pbd-home" / "cache" / "verified"
    assert pbd("show", match, ok=True).stderr == ""
    assert len(list(verified.iterdir())) == 1
    text = match.read_text()
    top = text.index("----")
    match.write_text(text[:top].replace("CP = 100", "CP = 90", 1) + text[top:])
    for _ in range(2):
        assert WORDS[0] in pbd("show", match, ok=True).stderr
    assert len(list(verified.iterdir())) == 1


def test_a_move_on_a_board_this_machine_found_clean_replays_nothing(pbd, match, monkeypatch):
    """pbd show replayed the board and remembered it clean; Ben's move on that same board takes it as his
    checked position without replaying the log again."""
    pbd("move", match, "--as", "Ann", "draw; end turn", ok=True)
    assert pbd("show", match, ok=True).stderr == ""
    monkeypatch.setattr(handedits, "differences", lambda *a: pytest.fail("replayed again"))
    pbd("move", match, "--as", "Ben", "draw", ok=True)


def test_a_replay_that_cannot_tell_vouches_for_nothing(pbd, match, monkeypatch, tmp_path):
    """A board whose replay could not tell (it broke, or the game cannot resume one) is never remembered as
    clean: a later move on it replays again instead of taking it as its checked position."""
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    monkeypatch.setattr(handedits, "differences", lambda *a: None)
    assert pbd("show", match, ok=True).stderr == ""
    assert not (tmp_path / "pbd-home" / "cache" / "verified").exists()
