"""The Tower: a players' own deck (its content goes into the document), and hand edits the log does not explain.

A deck file is read once, by ``pbd new``; the document carries its name, kinds and counts
(the ``Cards:`` line) and every seat's pbd, the replay and the audit work from that.  A
hand edit of the ``Cards:`` line, the ``Asking:`` line, a token or a card on a tile is named
by the next command of another seat (a move is refused, exit 3, nothing written).
"""

from __future__ import annotations

import json

from tower_helpers import give, put, show, start, upcoming, write_tile


def _deck(tmp_path, text: str, name: str = "mine.toml"):
    path = tmp_path / "private-folder" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def _ben_edits(pbd, doc, edit) -> str:
    """Let Ann's pbd check the board, then apply Ben's hand edit; return the honest text."""
    pbd("hand", doc, "--as", "Ann", ok=True)
    honest = doc.read_text()
    doc.write_text(edit(honest))
    assert doc.read_text() != honest
    return honest


ROPES = 'name = "Ropes galore"\n[cards]\nRope = 6\n"magic carpet" = 2\nSword = 2\n'


def _play_to_the_end(pbd, doc, limit: int = 80) -> None:
    for _ in range(limit):
        data = show(pbd, doc)
        if data["result"]:
            return
        who = data["to_move"][0]
        moves = pbd.json("legal", doc, "--as", who)["moves"]
        if not moves:                       # only a duty: a chain value the mover's roll waits on
            pbd("status", doc, "--as", who, ok=True)
            continue
        place = [m for m in moves if " on " in m]
        pick = place[0] + "; roll" if place and "roll" in moves else \
            next((m for m in ("play Sword", "pass", "roll", "stay") if m in moves), moves[-1])
        assert pbd("move", doc, "--as", who, pick).exit_code == 0
    raise AssertionError("no result")


def test_own_deck_goes_into_the_document_plays_and_audits_clean(pbd, tmp_path):
    mine = _deck(tmp_path, ROPES)
    small = _deck(tmp_path, 'floors = 2\ntiles_per_floor = 5\n', "small.toml")
    doc = start(pbd, tmp_path, 2, "--deck", mine, "-O", f"board={small}")
    text = doc.read_text()
    assert "Cards: Ropes galore · Rope 6, Magic Carpet 2, Sword 2 (10 cards)" in text
    assert "private-folder" not in text and "mine.toml" not in text
    assert show(pbd, doc)["deck"] == {"name": "Ropes galore", "cards": {"Rope": 6, "Magic Carpet": 2, "Sword": 2}}
    assert set(pbd.json("hand", doc, "--as", "Ann")["hand"]) <= {"Rope", "Magic Carpet", "Sword"}
    _play_to_the_end(pbd, doc)
    assert pbd("check", doc).exit_code == 0
    pbd("reveal", doc, "--as", "Ann", ok=True)
    pbd("reveal", doc, "--as", "Ben", ok=True)
    result = pbd("audit", doc)
    assert result.exit_code == 0, result.output
    assert "every logged move replays to the board" in result.output


def test_own_deck_as_an_option_too(pbd, tmp_path):
    mine = _deck(tmp_path, '[cards]\nTorch = 3\nShield = 1\n')
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "-O", f"deck={mine}", ok=True)
    assert "Cards: custom deck · Torch 3, Shield 1 (4 cards)" in doc.read_text()
    other = _deck(tmp_path, ROPES, "other.toml")
    result = pbd("new", "tower", tmp_path / "n.txt", "--as", "Ann", "--deck", mine, "-O", f"deck={other}")
    assert result.exit_code == 2 and "give the deck once" in result.output
    assert not (tmp_path / "n.txt").exists() or not (tmp_path / "n.txt").read_text()


def test_a_malformed_deck_lists_every_problem_and_writes_nothing(pbd, tmp_path):
    bad = _deck(tmp_path, 'nme = "x"\n[cards]\nTorchh = 1\nRope = 1000000000\nGuard = -2\n')
    doc = tmp_path / "m.txt"
    result = pbd("new", "tower", doc, "--as", "Ann", "--deck", bad)
    assert result.exit_code == 3, result.output
    for words in ("unknown key 'nme'", "did you mean 'Torch'", "Rope: a count from 0 to 60, not 1000000000",
                  "Guard: a count from 0 to 60", "a deck has 1 to 300 cards, this one 0"):
        assert words in result.output, result.output
    assert not doc.exists() or not doc.read_text()
    doc.write_text("")
    big = _deck(tmp_path, "[cards]\n" + "\n".join(f'"{k}" = 60' for k in ("Torch", "Guard", "Rope", "Trapdoor",
                                                                          "Spider Web", "Arcane Trap")), "big.toml")
    result = pbd("new", "tower", doc, "--as", "Ann", "-O", f"deck={big}")
    assert result.exit_code == 3 and "a deck has 1 to 300 cards, this one 360" in result.output
    assert doc.read_text() == ""
    board = _deck(tmp_path, "floors = 1\n", "board.toml")
    result = pbd("new", "tower", doc, "--as", "Ann", "--deck", bad, "-O", f"board={board}")
    assert result.exit_code == 3 and "problem(s) in these files" in result.output
    assert "board.toml: floors must be from 2" in result.output
    assert "mine.toml: unknown key 'nme'" in result.output and doc.read_text() == ""
    result = pbd("new", "tower", doc, "--as", "Ann", "--deck", tmp_path / "nowhere.toml")
    assert result.exit_code == 3 and "no deck file here" in result.output and doc.read_text() == ""


def test_a_hand_edited_cards_line_is_named_and_refuses_a_move(pbd, tmp_path):
    doc = start(pbd, tmp_path, 2, "--deck", _deck(tmp_path, ROPES))
    honest = _ben_edits(pbd, doc, lambda t: t.replace("Rope 6, Magic Carpet 2", "Rope 5, Magic Carpet 3"))
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3 and doc.read_bytes() == before
    assert "cards Rope was changed by hand from 6 to 5" in result.output, result.output
    # a spectator's pbd check (replaying from the start) names it against the deck the match was dealt
    checked = pbd("check", doc, "--json")
    problems = json.loads(checked.stdout)["problems"]
    assert checked.exit_code == 1
    assert any("the Cards line lists 10 cards (Rope 5, Magic Carpet 3, Sword 2), but the match was dealt 10 "
               "(Rope 6, Magic Carpet 2, Sword 2)" in p for p in problems), problems
    many = honest.replace("Rope 6, Magic Carpet 2, Sword 2", ", ".join(f"{k} 60" for k in (
        "Torch", "Guard", "Rope", "Trapdoor", "Spider Web", "Arcane Trap")))
    doc.write_text(many)
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3 and "the Cards line lists 360 cards (a deck has at most 300)" in result.output
    doc.write_text(honest)
    pbd("move", doc, "--as", "Ann", "roll", ok=True)


def _asked_to_answer_a_guard(pbd, tmp_path):
    """Return a match where Ann's roll met a Guard: the board asks her (Shield or pass)."""
    doc = start(pbd, tmp_path)
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face}, cards={20: "Guard"})
    pbd("move", doc, "--as", "Ann", "roll", ok=True)
    assert "Asking: Ann [guard]" in doc.read_text()
    pbd("hand", doc, "--as", "Ben", ok=True)        # Ben's pbd checks this position too
    return doc


def test_a_hand_edited_asking_line_is_named_by_the_next_command(pbd, tmp_path):
    doc = _asked_to_answer_a_guard(pbd, tmp_path)
    honest = doc.read_text()
    line = next(ln for ln in honest.split("\n") if ln.startswith("Asking:"))
    for edited in (honest.replace(line + "\n", ""), honest.replace("[guard]", "[arcane]")):
        doc.write_text(edited)                        # Ben edits the question away, or into another
        said = pbd("hand", doc, "--as", "Ann", ok=True).stderr
        assert "asking" in said and "changed by hand" in said, said
        before = doc.read_bytes()
        result = pbd("move", doc, "--as", "Ann", "pass")
        assert result.exit_code == 3 and "asking" in result.output and doc.read_bytes() == before, result.output
    doc.write_text(honest)
    pbd("move", doc, "--as", "Ann", "pass", ok=True)


def test_a_hand_moved_token_is_named_and_refuses_a_move(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    honest = _ben_edits(pbd, doc, lambda t: t.replace("| 1 Start (A B) |", "| 1 Start (A) |")
                        .replace("| 30 ", "| 30 (B) ", 1))           # Ben moves his token up to 30
    said = pbd("hand", doc, "--as", "Ann", ok=True).stderr
    assert "Ben's tile was changed by hand from 1 to 30" in said, said
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3 and doc.read_bytes() == before
    assert "Ben's tile was changed by hand from 1 to 30" in result.output, result.output
    doc.write_text(honest)
    pbd("move", doc, "--as", "Ann", "roll", ok=True)


def test_a_card_put_on_a_tile_by_hand_is_named_and_refuses_a_move(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    honest = _ben_edits(pbd, doc, lambda t: write_tile(t, 7, "7 Guard"))    # Ben puts a Guard on 7
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", "roll")
    assert result.exit_code == 3 and doc.read_bytes() == before
    assert "cards 7 was changed by hand from nothing to Guard" in result.output, result.output
    doc.write_text(honest)
    pbd("move", doc, "--as", "Ann", "roll", ok=True)


def test_hand_shows_each_card_with_a_one_line_summary(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ann", "Rope", "Shield")
    out = pbd("hand", doc, "--as", "Ann", ok=True).output
    assert "  Rope — tile card · a token that stops here climbs to the tile above (and on, up more ropes)" in out
    assert "  Shield — hand card · stops a duel's Sword, a Guard, or an Arcane Trap's 2" in out
    assert pbd.json("hand", doc, "--as", "Ann")["hand"].count("Rope") >= 1       # --json keeps the plain names


def _later_start(pbd, tmp_path, card: str):
    """A 2 x 5 tower whose tokens start on tile 3, every card of the deck a ``card``; Ann holds one."""
    deck = _deck(tmp_path, f'name = "{card}s"\n[cards]\n{card} = 6\n', f"{card}.toml")
    board = _deck(tmp_path, 'floors = 2\ntiles_per_floor = 5\nstart = 3\n', "later.toml")
    doc = start(pbd, tmp_path, 2, "--deck", deck, "-O", f"board={board}")
    assert pbd.json("hand", doc, "--as", "Ann")["hand"] == [card]
    return doc


def test_on_a_board_starting_past_tile_1_a_guard_on_tile_1_is_refused(pbd, tmp_path):
    doc = _later_start(pbd, tmp_path, "Guard")
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", "play Guard on 1")
    assert result.exit_code == 1 and "a Guard on tile 1 would send tokens back off the tower" in result.output
    assert doc.read_bytes() == before
    assert "play Guard on 1" not in pbd.json("legal", doc, "--as", "Ann")["moves"]
    pbd("move", doc, "--as", "Ann", "play Guard on 2", ok=True)


def test_on_a_board_starting_past_tile_1_tile_1_takes_a_card(pbd, tmp_path):
    doc = _later_start(pbd, tmp_path, "Torch")
    assert "play Torch on 1" in pbd.json("legal", doc, "--as", "Ann")["moves"]
    pbd("move", doc, "--as", "Ann", "play Torch on 1", ok=True)
    assert show(pbd, doc)["cards"]["1"] == "Torch"
