"""2Xd6 through the CLI, as players run it, on the real shared deck (pbd.table)."""

from __future__ import annotations

import random
import shutil

import pytest

from pbd.games.twoxd6 import GAME
from conftest import moved_registry


@pytest.fixture(scope="module")
def _built(tmp_path_factory):
    """One 2-seat match with the order of acts rolled, built once (the shared deck's crypto is slow)."""
    import os

    from conftest import Pbd

    base = tmp_path_factory.mktemp("twoxd6-started")
    old = os.environ.get("PBD_HOME")
    os.environ["PBD_HOME"] = str(base / "pbd-home")
    try:
        doc = base / "match.txt"
        for args in (["new", "2xd6", str(doc), "--as", "Ann", "--seed", "ann"],
                     ["join", str(doc), "--as", "Ben", "--seed", "ben"],
                     ["move", str(doc), "--as", "Ann", "roll"], ["move", str(doc), "--as", "Ben", "roll"]):
            Pbd()(*args, ok=True)
    finally:
        if old is None:
            os.environ.pop("PBD_HOME", None)
        else:
            os.environ["PBD_HOME"] = old
    return base


@pytest.fixture
def started(pbd, tmp_path, _built, monkeypatch):
    """A copy of the built match (document and private state); returns (doc, first, second)."""
    shutil.copytree(_built, tmp_path / "m")
    moved_registry(tmp_path / "m" / "pbd-home", _built, tmp_path / "m")
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "m" / "pbd-home"))
    doc = tmp_path / "m" / "match.txt"
    order = pbd.json("show", doc)["order"]
    return doc, order[0], order[1]


def test_new_join_deal_and_order(pbd, started):
    doc, first, second = started
    data = pbd.json("show", doc)
    assert data["game"] == "2xd6" and data["to_move"] == [first] and data["result"] is None
    assert [p["hand"] for p in data["players"]] == [11, 11]          # 5 Faces + 6 Pips each
    assert data["draw_patch"] == 54 - 22
    assert pbd.json("legal", doc, "--as", first)["moves"] == ["roll"]
    assert pbd.json("legal", doc, "--as", second)["moves"] == []


def test_first_round_plays_only_a_face_or_10_in_the_outermost_cell(pbd, started):
    doc, first, _ = started
    pbd("move", doc, "--as", first, "roll", ok=True)
    moves = pbd.json("legal", doc, "--as", first)["moves"]
    plays = [m for m in moves if m.startswith("play")]
    assert all(m.endswith(" on A1") for m in plays)                    # Player 1's outermost cell
    assert all(m.split()[1][0] in "JQKA?1" for m in plays)
    hand = pbd.json("hand", doc, "--as", first)["hand"]
    pip = next(h.split()[0] for h in hand if h[0] in "23456789")
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", first, f"play {pip} on A1")
    assert result.exit_code == 1 and "only a Face or a 10" in result.output
    assert doc.read_bytes() == before


def test_a_whole_act_roll_play_draw_passes_the_turn(pbd, started):
    doc, first, second = started
    pbd("move", doc, "--as", first, "roll", ok=True)
    moves = pbd.json("legal", doc, "--as", first)["moves"]
    play = next((m for m in moves if m.startswith("play")), None)
    if play:
        pbd("move", doc, "--as", first, play, ok=True)
    pbd("move", doc, "--as", first, "draw", ok=True)
    data = pbd.json("show", doc)
    assert data["to_move"] == [second]
    assert pbd("check", doc).exit_code == 0


@pytest.mark.long
def test_random_two_player_games_read_back(pbd, tmp_path):
    for seed in range(1):
        doc = tmp_path / f"m{seed}.txt"
        pbd("new", "2xd6", doc, "--as", "Ann", "--seed", f"a{seed}", ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", f"b{seed}", ok=True)
        rng = random.Random(seed)
        for _ in range(40):
            data = pbd.json("show", doc)
            if data["result"]:
                break
            for who in data["to_move"]:   # 'legal' first does the unlocks that seat's pbd owes
                moves = pbd.json("legal", doc, "--as", who)["moves"]
                if moves:
                    break
            assert moves, data
            busy = [m for m in moves if not m.startswith("draw")]
            pick = rng.choice(busy if busy and rng.random() < 0.7 else moves)
            pbd("move", doc, "--as", who, pick, ok=True)
        text = doc.read_text()
        assert GAME.render(GAME.parse(text)) == text


@pytest.mark.long       # the default run plays a random 2-seat match in the contract (tests/games/test_contract.py)
def test_a_random_two_seat_match_keeps_the_table_contract_in_process():
    """Every position of a random 2-seat match reads back, keeps hands private and passes the check."""
    from pbd.testing import check_random_match

    check_random_match(GAME, 2, random.Random("2xd6|2|1"))


@pytest.mark.long
def test_the_whole_contract_for_2_and_6_seats_with_reveal_and_audit():
    """pbd.testing.check_game: random matches at 2 and 6 seats, and one through the pipeline, audited clean."""
    from pbd.testing import check_game

    check_game(GAME, matches=1)


def test_draw_offer_with_no_offer_keeps_the_card_and_passes_the_act(pbd, started):
    doc, first, second = started
    pbd("move", doc, "--as", first, "roll", ok=True)
    pbd("move", doc, "--as", first, "draw; offer", ok=True)
    data = pbd.json("show", doc)
    assert data["to_move"][0] == second and data["decisions"][0]["seat"] == second
    assert f"Waiting on: {second} — offer a card for {first}'s drawn card, or pass" in doc.read_text()
    answers = pbd.json("legal", doc, "--as", second)["moves"]
    assert answers[-1] == "pass" and all(a.startswith("offer ") for a in answers[:-1]) and len(answers) > 1
    pbd("move", doc, "--as", second, "pass", ok=True)
    data = pbd.json("show", doc)
    assert data["decisions"] == [] and data["acting"] == second and data["to_move"][-1] == second


def test_one_offer_accepted_swaps_the_cards_in_the_open(pbd, started):
    doc, first, second = started
    pbd("move", doc, "--as", first, "roll", ok=True)
    pbd("move", doc, "--as", first, "draw and offer", ok=True)
    offer = pbd.json("legal", doc, "--as", second)["moves"][0]
    hand = pbd.json("hand", doc, "--as", second)["hand"]
    rank = offer.split()[1][:-1]                        # 'offer 7G' written the short way: 'offer 7'
    pbd("move", doc, "--as", second, f"offer {rank}" if sum(h.startswith(rank) for h in hand) == 1 else offer,
        ok=True)
    assert pbd.json("legal", doc, "--as", first)["moves"] == ["accept", "reject"]
    pbd("move", doc, "--as", first, "accept", ok=True)
    data = pbd.json("show", doc)
    card = offer.split()[1]
    assert card in data["shown"][first] and len(data["shown"][second]) == 1
    assert pbd("check", doc).exit_code == 0


def test_a_waiting_on_line_typed_into_the_document_is_refused(pbd, started):
    doc, first, second = started
    text = doc.read_text()
    forged = text.replace(f"Turn: {first}\n",
                          f"Turn: {first}\nWaiting on: {first} — roll 2 Wyte dice to resist {second}'s targeting "
                          "of A1 · from 3\n")
    assert forged != text
    doc.write_text(forged)
    result = pbd("move", doc, "--as", second, "roll")
    assert result.exit_code == 3 and "typed by hand" in result.output
    assert doc.read_text() == forged
