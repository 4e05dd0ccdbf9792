"""C&C end to end through the CLI, on real files, as players run it."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "cnc"


def hand(pbd, doc, who):
    return pbd.json("hand", doc, "--as", who)["hand"]


def board(pbd, doc):
    return pbd.json("show", doc)


def side(pbd, doc, who):
    return next(p for p in board(pbd, doc)["players"] if p["name"] == who)


def test_new_writes_the_board_and_deals_a_private_hand(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    result = pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", ok=True)
    assert "player 1" in result.output
    text = doc.read_text()
    assert "Discarded cards" in text and "CP = 100 AP= 0" in text and "[The Porter]" in text
    assert hand(pbd, doc, "Ann") == []           # drawn once the opponent has joined (see the README)
    assert "Ann: hand 5 · deck 45" in text
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", ok=True)
    cards = hand(pbd, doc, "Ann")
    assert len(cards) == 5
    text = doc.read_text()
    # the hand is private: no card of it is named in the shared document
    board_part = text.split("Fair play")[0]
    for card in set(cards):
        assert card not in board_part.split("Discarded cards", 1)[1]


def test_join_deals_and_starts_play(pbd, match):
    text = match.read_text()
    assert "Turn 1: Ann to move · Ann moved first" in text
    assert len(hand(pbd, match, "Ben")) == 5
    assert side(pbd, match, "Ann")["ap"] == 3
    assert side(pbd, match, "Ben")["ap"] == 0


def test_the_same_seeds_deal_the_same_hands(pbd, tmp_path):
    hands = []
    for name in ("a.txt", "b.txt"):
        doc = tmp_path / name
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "s", ok=True)
        hands.append(hand(pbd, doc, "Ann"))
    assert hands[0] == hands[1]


def test_draw_and_play_in_one_command(pbd, match):
    card = next(c for c in hand(pbd, match, "Ann") if c not in ("Captain America", "The Sentry"))
    result = pbd("move", match, "--as", "Ann", f"draw; play {card}", ok=True)
    assert "draw" in result.output
    mine = hand(pbd, match, "Ann")
    assert len(mine) == 5
    text = match.read_text()
    assert "Ann: hand 5 · deck 44" in text
    assert f"{len(text.split(chr(10)))}"  # the document is still text


def test_draw_command_costs_ap_and_keeps_cards_private(pbd, match):
    pbd("draw", match, "--as", "Ann", "2", ok=True)
    assert len(hand(pbd, match, "Ann")) == 7
    assert side(pbd, match, "Ann")["ap"] == 1
    log = match.read_text().split("\nLog\n")[1]
    assert "draw 2 · hand 7 · AP 3→1" in log
    for card in hand(pbd, match, "Ann"):
        assert card not in log


def test_vanished_cops_example_from_the_rulebook(pbd, tmp_path):
    """Player 2 at 3 AP plays Vanished Cops: AP 1, player 1's CP 100 -> 80, the card in player 2's discards."""
    for attempt in range(40):
        doc = tmp_path / f"m{attempt}.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", f"a{attempt}", ok=True)
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", f"b{attempt}", ok=True)
        pbd("hand", doc, "--as", "Ann", ok=True)       # Ann's opening hand first, then Ben's can be drawn
        if "Vanished Cops" in hand(pbd, doc, "Ben"):
            break
    else:
        pytest.fail("no seed dealt Ben a Vanished Cops")
    pbd("move", doc, "--as", "Ann", "end turn", ok=True)
    assert side(pbd, doc, "Ben")["ap"] == 3
    pbd("move", doc, "--as", "Ben", "play Vanished Cops", ok=True)
    ben, ann = side(pbd, doc, "Ben"), side(pbd, doc, "Ann")
    assert ben["ap"] == 1
    assert ann["cp"] == 80
    assert ben["discards"] == ["Vanished Cops"]
    text = doc.read_text()
    assert "CP = 80 AP= 3" in text and "CP = 100 AP= 1" in text  # Ann stockpiled her unspent 3 AP


def test_it_is_not_your_turn(pbd, match):
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ben", "draw")
    assert result.exit_code == 1
    assert "Ann's turn" in result.output
    assert match.read_bytes() == before


@pytest.mark.parametrize("moves, code, words", [
    ("draw; draw; draw; draw", 1, "costs 1 AP; you have 0"),
    ("fly to the moon", 2, "cannot read the move"),
    ("play Spydor-Man", 2, "did you mean"),
    ("play Vanished Cops", 1, "not in your hand"),
    ("withdraw The Porter", 1, "Porter stays in play"),
    ("draw; end turn; draw", 1, "Ben's turn"),
    ("adjust Ben CP -10", 2, "needs a reason"),
    ("", 2, "no move given"),
])
def test_rejected_commands_leave_the_document_byte_identical(pbd, match, moves, code, words):
    before = match.read_bytes()
    home = sorted(p.read_bytes() for p in Path(match.parent / "pbd-home").rglob("*.json"))
    result = pbd("move", match, "--as", "Ann", moves)
    assert result.exit_code == code, result.output
    assert words in result.output
    assert match.read_bytes() == before
    assert sorted(p.read_bytes() for p in Path(match.parent / "pbd-home").rglob("*.json")) == home


def test_a_stranger_cannot_move(pbd, match):
    result = pbd("move", match, "--as", "Cat", "draw")
    assert result.exit_code == 2
    assert "not playing" in result.output


def test_legal_lists_moves_in_notation_that_all_work(pbd, match, tmp_path):
    moves = pbd.json("legal", match, "--as", "Ann")["moves"]
    assert "end turn" in moves and "draw" in moves
    assert any(m.startswith("play ") for m in moves)
    assert not any("attacks" in m for m in moves)  # nobody is in play yet
    files = [match, *Path(match.parent / "pbd-home").rglob("*.json")]
    saved = {f: f.read_bytes() for f in files}
    for move in moves:
        for f, data in saved.items():
            f.write_bytes(data)
        result = pbd("move", match, "--as", "Ann", move)
        assert result.exit_code == 0, (move, result.output)


def test_show_pretty_prints_and_json(pbd, match):
    result = pbd("show", match, ok=True)
    assert "CP = 100 AP= 3" in result.output
    data = board(pbd, match)
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben"]
    assert data["to_move"] == ["Ann"]


def test_check_a_fresh_match_is_clean(pbd, match):
    assert pbd("check", match).exit_code == 0


def test_check_finds_a_hand_edit(pbd, match):
    text = match.read_text().replace("[The Porter]\nCharacter Cards\n(none)",
                                     "[The Porter] [MAC]\nCharacter Cards\n[Nill HP=12] [Batman HP=99]", 1)
    match.write_text(text)
    result = pbd("check", match)
    assert result.exit_code == 1
    assert "above the card's maximum" in result.output
    assert "add up to" in result.output


def test_template_and_output_file(pbd, tmp_path):
    result = pbd("template", "cnc", ok=True)
    assert result.output.startswith("Discarded cards\n")
    out = tmp_path / "blank.txt"
    pbd("template", "cnc", "-o", out, ok=True)
    assert out.read_text().splitlines()[2] == "CP = 100 AP= 3"
    assert pbd("check", out).exit_code == 0


def test_new_refuses_an_illegal_deck_listing_every_problem(pbd, tmp_path):
    deck = tmp_path / "bad.txt"
    deck.write_text("Porter: The Porter\n" + "6x Spider-Man\n" + "44x Nill\n" + "\n")
    doc = tmp_path / "m.txt"
    result = pbd("new", "cnc", doc, "--as", "Ann", "--deck", deck)
    assert result.exit_code == 1
    assert "Spider-Man" in result.output and "Nill" in result.output
    assert not doc.exists()


def test_new_refuses_a_document_with_content(pbd, match):
    before = match.read_bytes()
    result = pbd("new", "cnc", match, "--as", "Ann", "--deck", "forces-of-justice")
    assert result.exit_code == 2
    assert match.read_bytes() == before


def test_join_twice_or_a_taken_name(pbd, match):
    before = match.read_bytes()
    assert pbd("join", match, "--as", "Cat", "--deck", "forces-of-peace").exit_code == 1
    assert match.read_bytes() == before


def test_first_random_is_drawn_after_the_join(pbd, tmp_path):
    firsts = set()
    for i in range(12):
        doc = tmp_path / f"m{i}.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--first", "random", ok=True)
        assert "First player: random" in doc.read_text()
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-peace", ok=True)
        assert board(pbd, doc)["first"] is None
        pbd("hand", doc, "--as", "Ann", ok=True)        # the creator's next command draws it
        firsts.add(board(pbd, doc)["first"])
    assert firsts == {"Ann", "Ben"}


def test_first_can_be_the_opponent(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--first", "Ben", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-peace", ok=True)
    assert board(pbd, doc)["to_move"][0] == "Ann"     # Ann's pbd owes the opening hands first
    pbd("hand", doc, "--as", "Ann", ok=True)
    assert board(pbd, doc)["to_move"] == ["Ben"]
    assert side(pbd, doc, "Ben")["ap"] == 3


def test_an_edited_hand_count_is_caught(pbd, match):
    match.write_text(match.read_text().replace("Ann: hand 5", "Ann: hand 6"))
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", "draw")
    assert result.exit_code == 3
    assert "holds 6 cards" in result.output
    assert match.read_bytes() == before


def test_a_mangled_document_names_the_line(pbd, match):
    lines = match.read_text().split("\n")
    i = lines.index("City Cards")
    lines[i] = "Citty Cardz"
    match.write_text("\n".join(lines))
    result = pbd("show", match)
    assert result.exit_code == 3
    assert "line" in result.output


def test_missing_document_and_private_state(pbd, tmp_path, match, monkeypatch):
    assert pbd("show", tmp_path / "nope.txt").exit_code == 5
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "elsewhere"))
    result = pbd("hand", match, "--as", "Ann")
    assert result.exit_code == 2
    assert "private state" in result.output


# -- scripted matches to each win condition, with a player's own catalogue --------------------

def _start(pbd, tmp_path, ann_deck, ben_deck):
    doc = tmp_path / "win.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", DATA / ann_deck, "--seed", "1", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", DATA / ben_deck, "--seed", "2", ok=True)
    return doc


def test_construction_win(pbd, tmp_path):
    doc = _start(pbd, tmp_path, "towers.txt", "fillers.txt")
    towers = sorted(set(hand(pbd, doc, "Ann")))
    pbd("move", doc, "--as", "Ann", f"play {towers[0]}; end turn", ok=True)
    assert side(pbd, doc, "Ann")["cp"] == 150
    pbd("move", doc, "--as", "Ben", "end turn", ok=True)
    if len(towers) == 1:
        pbd("draw", doc, "--as", "Ann", ok=True)
        towers = sorted(set(hand(pbd, doc, "Ann")) - {towers[0]})
    else:
        towers = towers[1:]
    result = pbd("move", doc, "--as", "Ann", f"play {towers[0]}", ok=True)
    assert "Ann wins by Construction" in result.output
    assert "Match over: Ann wins by Construction (Ann's CP 200)" in doc.read_text()
    after = pbd("move", doc, "--as", "Ben", "end turn")
    assert after.exit_code == 1 and "the match is over" in after.output
    assert pbd.json("legal", doc, "--as", "Ben")["moves"] == []


def test_destruction_win(pbd, tmp_path):
    doc = _start(pbd, tmp_path, "brutes.txt", "fillers.txt")
    brute = hand(pbd, doc, "Ann")[0]
    refused = pbd("move", doc, "--as", "Ann", f"play {brute}; {brute} attacks city")
    assert refused.exit_code == 1 and "very first turn" in refused.output
    pbd("move", doc, "--as", "Ann", f"play {brute}; end turn", ok=True)
    pbd("move", doc, "--as", "Ben", "end turn", ok=True)
    pbd("move", doc, "--as", "Ann", f"{brute} attacks Ben; end turn", ok=True)
    assert side(pbd, doc, "Ben")["cp"] == 50
    pbd("move", doc, "--as", "Ben", "end turn", ok=True)
    result = pbd("move", doc, "--as", "Ann", f"{brute} attacks city", ok=True)
    assert "Ann wins by Destruction (Ben's CP 0)" in result.output


def test_attrition_loss(pbd, tmp_path):
    doc = _start(pbd, tmp_path, "towers.txt", "fillers.txt")
    pbd("move", doc, "--as", "Ann", "end turn", ok=True)
    for _ in range(40):
        cards = hand(pbd, doc, "Ben")
        ben = side(pbd, doc, "Ben")
        ap, room = ben["ap"], 25 - len(ben["discards"])
        if cards:
            moves = [f"discard {c} from hand" for c in cards[:min(ap, room)]]
            result = pbd("move", doc, "--as", "Ben", "; ".join(moves), ok=True)
            if "wins" in result.output:
                break
            ap = side(pbd, doc, "Ben")["ap"]
        if ap:
            pbd("draw", doc, "--as", "Ben", str(min(ap, 5)), ok=True)
        pbd("move", doc, "--as", "Ben", "end turn", ok=True)
        pbd("move", doc, "--as", "Ann", "end turn", ok=True)
    assert "Ann wins by Attrition (Ben has 25 discards)" in doc.read_text()


def test_a_hand_made_board_without_the_separator_is_recognised_and_named(pbd, tmp_path):
    board_file = tmp_path / "b.txt"
    board_file.write_text("\n".join(line for line in pbd("template", "cnc", ok=True).output.split("\n")
                                    if line != "----"))
    result = pbd("check", board_file)
    assert result.exit_code == 3
    assert "no '----' line" in result.output


def test_a_bug_is_reported_without_a_traceback(pbd, match, monkeypatch):
    from pbd import match as pipeline

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(pipeline, "show", broken)
    result = pbd("show", match)
    assert result.exit_code == 70
    assert "internal error" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("moves, words, code", [
    ("Hawkeye attacks", "say whom Hawkeye attacks", 2),          # notation: the move cannot be read
    ("Batman attacks Nill", "Batman is not in play", 1),         # read, and breaks a rule
])
def test_messages_say_what_a_player_got_wrong(pbd, match, moves, words, code):
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", moves)
    assert result.exit_code == code, result.output
    assert words in result.output
    assert match.read_bytes() == before


def test_a_character_in_hand_must_be_played_before_it_acts(pbd, match):
    card = next(c for c in hand(pbd, match, "Ann") if c in ("Hawkeye", "Spider-Man", "Iron Man", "Thor", "Storm",
                                                             "The Flash", "Black Canary", "Captain America"))
    result = pbd("move", match, "--as", "Ann", f"{card} attacks city")
    assert result.exit_code == 1
    assert f"{card} is in your hand: play it first" in result.output


def test_private_state_is_readable_by_its_owner_only(pbd, match):
    files = list((match.parent / "pbd-home").rglob("*.json"))
    assert files
    for f in files:
        assert f.stat().st_mode & 0o777 == 0o600
        assert f.parent.stat().st_mode & 0o777 == 0o700


def test_the_second_copy_of_a_character_whose_name_folds_like_an_alias_attacks_by_its_key(pbd, tmp_path):
    """'NOHoPE#2' is the second NOHoPE in play (its key), not NOHoPE (2.0), whose alias 'NOHoPE 2' folds alike."""
    for attempt in range(60):
        doc = tmp_path / f"m{attempt}.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-mystery", "--seed", f"n{attempt}", ok=True)
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", f"m{attempt}", ok=True)
        if hand(pbd, doc, "Ann").count("NOHoPE") >= 2:
            break
    else:
        pytest.fail("no seed dealt Ann two NOHoPE")
    pbd("move", doc, "--as", "Ann", "play NOHoPE; play NOHoPE; end turn", ok=True)
    pbd("move", doc, "--as", "Ben", "end turn", ok=True)
    result = pbd("move", doc, "--as", "Ann", "NOHoPE#2 attacks Ben", ok=True)
    assert "NOHoPE#2 attacks Ben" in result.output
    assert side(pbd, doc, "Ben")["cp"] == 90
    assert "NOHoPE#2 attacks Ben" in doc.read_text()
    pbd.audit_clean(doc)          # the log replays as written
