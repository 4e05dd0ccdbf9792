"""Twin Tower City boards typed by hand, without friction (issue 15 item 9).

Levelled warriors by the names players write, the separators they type, no title line, and
the move's own wording (``replacing X with Y``) on a card line.
"""

from __future__ import annotations

import pytest

BATTLE = "  Dark: dark Doctor Sickle + Virus · light Don Triumph + Shield of Liberty · env Twin Towers\n"


def _board(tmp_path, text: str):
    path = tmp_path / "typed.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", ["Level 10 Don Triumph", "Don Triumph Lvl 10", "Don Triumph Lvl10",
                                  "Lvl 10 Don Triumph", "Don Triumph (Level 10)", "level 10 don triumph"])
def test_a_levelled_warrior_is_found_by_the_names_players_write(pbd, tmp_path, name):
    board = _board(tmp_path, "Twin Tower City\nRound 1\n" + BATTLE + f"  Light: warrior 201 · Don Triumph -> {name}\n")
    shown = pbd("show", board, ok=True).stdout
    assert "warrior 201 · ~~Don Triumph~~ -> Level 10 Don Triumph" in shown


@pytest.mark.parametrize("sep", [" · ", " | ", " / ", ", ", " - ", " • "])
def test_the_separators_players_type_are_accepted(pbd, tmp_path, sep):
    line = sep.join(["dark Doctor Sickle + Virus", "light Don Triumph + Shield of Liberty", "env Twin Towers"])
    board = _board(tmp_path, f"Twin Tower City\nRound 1\n  Dark: {line}\n  Light: army 111{sep}Don Triumph -> "
                             "Patriot Anon\n")
    result = pbd("show", board)
    assert result.exit_code == 0, result.output
    assert "Dark card 1: battle · dark Doctor Sickle + Virus · light" in result.stdout
    assert "army 111 · ~~Don Triumph~~ -> Patriot Anon" in result.stdout


def test_a_board_without_its_title_is_recognised_by_its_content(pbd, tmp_path):
    board = _board(tmp_path, "Round 1\n" + BATTLE)
    shown = pbd("show", board, ok=True).stdout
    assert shown.startswith("Twin Tower City") and "Dark card 1: battle · dark Doctor Sickle + Virus" in shown


def test_the_move_wording_is_accepted_on_a_typed_board(pbd, tmp_path):
    board = _board(tmp_path, "Twin Tower City\nRound 1\n" + BATTLE
                   + "  Light: warrior 201 replacing Don Triumph\n"
                   + "  Dark: army 104 replacing Doctor Sickle with Blamtifa Thug\n")
    shown = pbd("show", board, ok=True).stdout
    assert "warrior 201 · ~~Don Triumph~~ -> Level 10 Don Triumph" in shown
    assert "army 104 · ~~Doctor Sickle~~ -> Blamtifa Thug" in shown


def test_a_typed_board_naming_a_catalogue_file_is_refused(pbd, tmp_path):
    """A document never names a file on a player's machine (issue 10 item 7): install it with pbd catalogue add."""
    secret = tmp_path / "cat.toml"
    secret.write_text("secret = 1\n")
    board = _board(tmp_path, f"Twin Tower City\nCatalogue: {secret}\nRound 1\n" + BATTLE)
    result = pbd("show", board)
    assert result.exit_code == 3 and "secret" not in result.output


def test_the_board_check_read_is_handed_out_again_as_a_copy_and_another_text_is_read_anew():
    """Each read of a board is its own copy (sharing the deck), and another text is read anew."""
    from pbd.games.ttc import GAME

    text = "Twin Tower City\nRound 1\n" + BATTLE
    assert GAME.check_text(text) == []
    first, again = GAME.parse(text), GAME.parse(text)
    assert first == again and first is not again and first.library is again.library
    first.rounds[0].plays.clear()                     # a copy: changing one board leaves the next read alone
    assert GAME.parse(text) == again and again.rounds[0].plays
    edited = text.replace("Doctor Sickle + Virus", "Doctor Sickle + Bribe")
    assert GAME.parse(edited).rounds[0].plays[0].dark_item == "Bribe"   # another text is parsed, not copied


def test_a_typed_board_naming_its_players_deals_them_no_hand(pbd, tmp_path):
    """Players typed on a board deal nobody a hand: a board without a deal shows no hand counts (issue 32)."""
    board = _board(tmp_path, "Twin Tower City\nPlayers: Lia (Light), Max (Dark)\nRound 1\n" + BATTLE)
    shown = pbd.json("show", board)
    assert [p["name"] for p in shown["players"]] == ["Lia", "Max"] and "hands" not in shown
    assert shown["turn"] == "round 1, card 2: Light to play (Lia)"     # nobody is waiting to join a typed board


def test_a_typed_board_naming_its_players_has_a_result_after_five_rounds(pbd, tmp_path):
    """"After five rounds, the player who won the most rounds is victorious", players named on the board or not
    (they were taken for a match still waiting for its players: "waiting for 0 more player(s) to join")."""
    light_wins = "".join(f"  {('Light', 'Dark')[i % 2]}: battle {c}\n" for i, c in enumerate([21, 39, 30, 8, 17, 14]))
    rounds = "".join(f"Round {n}\n" + light_wins for n in range(1, 6))
    for head in ("Twin Tower City\n", "Twin Tower City\nPlayers: Lia (Light), Max (Dark)\n"):
        shown = pbd.json("show", _board(tmp_path, head + rounds))
        assert shown["turn"] == "over: Light wins the match (Light 5 round(s), Dark 0)", head
        assert shown["winner"] == "light"
