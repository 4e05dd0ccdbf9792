"""A C&C document people read (issue 15 item 6): halves named, discards toward Attrition, maximum HP,
the log in full card names, the header saying the match is over; older documents still read."""

from __future__ import annotations

from layout_helpers import log_lines

from pbd.games.cnc import GAME

OLD_LAYOUT = """pbd match 2415753c · C&C Trading Card Game
Players: Ann (player 1) vs Ben (player 2)
Turn 2: Ben to move · Ann moved first
Ann: hand 5 · deck 44
Ben: hand 5 · deck 44

Discarded cards
Nill
CP = 100 AP= 1
City Cards
[The Porter]
Character Cards
[Spider-Man HP=15]
----
[Hired Goon HP=10 frozen]
Character Cards
[The Porter]
City Cards
CP = 90 AP= 1
Discarded cards
(none)
Player 2

Log
"""


def test_each_half_names_its_player_with_discards_toward_attrition_and_maximum_hp(pbd, match):
    pbd("move", match, "--as", "Ann", "play spider; end turn", ok=True)
    lines = match.read_text().split("\n")
    top, bottom = lines.index("Ann (player 1)"), lines.index("Ben (player 2)")
    assert lines[top + 1] == "Discarded cards (0/25)"
    assert "[Spider-Man HP=15/15]" in lines[top:bottom]
    assert lines[bottom - 2] == "Discarded cards (0/25)"      # the rulebook's mirrored half, named at its end
    assert pbd.json("show", match)["players"][0]["characters"][0]["hp"] == 15


def test_the_log_says_the_full_names_of_the_cards(pbd, match):
    result = pbd("move", match, "--as", "Ann", "play spider; end turn", ok=True)
    assert "play Spider-Man" in result.stdout
    assert "Ann: play Spider-Man · AP 3→2" in match.read_text()
    assert "play spider" not in match.read_text()
    pbd("move", match, "--as", "Ben", "play hired; end turn", ok=True)
    pbd("move", match, "--as", "Ann", "spider attacks hired", ok=True)
    assert "Ann: Spider-Man attacks Hired Goon · " in match.read_text()
    pbd("replay", match, ok=True)



def test_an_older_document_reads_the_same_and_round_trips_in_the_new_layout():
    state = GAME.parse(OLD_LAYOUT)
    assert [s.name for s in state.sides] == ["Ann", "Ben"]
    assert state.sides[0].discards == ["Nill"] and state.sides[1].cp == 90
    assert state.sides[1].characters[0].statuses == ["frozen"]
    text = GAME.render(state)
    assert "Discarded cards (1/25)" in text and "[Hired Goon HP=10/10 frozen]" in text
    assert GAME.render(GAME.parse(text)) == text


def test_a_board_typed_without_a_header_takes_its_players_from_the_halves(pbd, tmp_path):
    typed = OLD_LAYOUT.split("\n\n", 1)[1].split("\nLog")[0].replace("Player 2", "Ben (player 2)")
    board = tmp_path / "typed.txt"
    board.write_text("Ann (player 1)\n" + typed + "\n")
    data = pbd.json("show", board)
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben"]


def test_the_header_says_the_match_is_over():
    state = GAME.parse(OLD_LAYOUT.replace("CP = 100 AP= 1", "CP = 200 AP= 1", 1))
    state.result = "Ann wins by Construction (Ann's CP 200)"
    text = GAME.render(state)
    header = text.split("\n\n", 1)[0].split("\n")
    assert header[1] == "Match over: Ann wins by Construction (Ann's CP 200)"
    assert "Ended on turn 2 (Ben's turn) · Ann moved first" in header
    assert not any(line.startswith("Turn 2: Ben to move") for line in header)
    back = GAME.parse(text)
    assert back.result == state.result and back.turn_number == 2 and back.current.name == "Ben"
    assert GAME.render(back) == text


def _old_layout(text: str) -> str:
    """Return a document as an older pbd wrote it: one part, Fair play before the Log, whole log lines, not grouped."""
    board = text.split("\nLog\n", 1)[0]
    fair = text.split("\n\nFair play\n", 1)[1]
    log = "\n".join(log_lines(text))
    return f"{board}\nFair play\n{fair.rstrip()}\n\nLog\n{log}\n\nGG so far.\n"


def test_the_log_comes_first_grouped_by_turn_and_fair_play_at_the_end(pbd, match):
    pbd("move", match, "--as", "Ann", "draw; end turn", ok=True)
    pbd("move", match, "--as", "Ben", "draw", ok=True)
    text = match.read_text()
    assert text.index("\nLog\n") < text.index("\nMachinery\n") < text.index("\nFair play\n")
    log = text.split("\nLog\n", 1)[1].split("\n\nMachinery\n")[0].split("\n")
    assert log[0] == "— Setup —" and "— Turn 1 · Ann —" in log and log[-2] == "— Turn 2 · Ben —"
    pbd("replay", match, ok=True)
    pbd.audit_clean(match)


def test_an_older_layout_in_progress_is_read_and_carried_on(pbd, match):
    pbd("move", match, "--as", "Ann", "draw; end turn", ok=True)
    new = match.read_text()
    match.write_text(_old_layout(new))
    assert pbd.json("show", match)["players"][0]["hand"] == 6
    pbd("replay", match, ok=True)                # a change of layout is not taken for a hand edit
    pbd("move", match, "--as", "Ben", "draw", ok=True)           # every check passes on the old layout
    text = match.read_text()
    assert text.index("\nLog\n") < text.index("\nMachinery\n") < text.index("\nFair play\n")
    assert "\n\nGG so far.\n\nMachinery\n" in text           # the note after the log: at the end of the view
    pbd.audit_clean(match)


def test_an_older_log_with_names_as_typed_still_replays(pbd, match, monkeypatch):
    """A replay logs each move as the log wrote it (a match begun by an older pbd logged names as typed)."""
    import pbd.games.cnc as cnc

    with monkeypatch.context() as m:
        m.setattr(cnc, "_full_names", lambda state, player, move, catalogue: move)   # an older pbd
        pbd("move", match, "--as", "Ann", "play Spider-Man; end turn", ok=True)
        pbd("move", match, "--as", "Ben", "play Hired Goon; end turn", ok=True)
        pbd("move", match, "--as", "Ann", "spider attacks hired", ok=True)
    assert "Ann: spider attacks hired · " in match.read_text()
    pbd("replay", match, ok=True)
    pbd("move", match, "--as", "Ann", "end turn", ok=True)        # and the hand-edit check replays it too


def test_the_log_names_abilities_attack_names_targets_and_discards_in_full(pbd, match):
    pbd("move", match, "--as", "Ann", "play iron; iron uses armour; end turn", ok=True)
    pbd("move", match, "--as", "Ben", "play mirror; mirror uses mirror t on iron; discard hired; end turn", ok=True)
    out = pbd("move", match, "--as", "Ann", "play aqua; aqua attacks mirror with water; discard aqua", ok=True).stdout
    assert "Aqualad attacks Mirror Master with Water-Bearers · " in out
    text = match.read_text()
    for line in ("Ann: Iron Man uses Armour Repair · ", "Ben: Mirror Master uses Mirror Trap on Iron Man · ",
                 "Ben: discard Hired Goon · ", "Ann: Aqualad attacks Mirror Master with Water-Bearers · ",
                 "Ann: discard Aqualad · "):
        assert line in text, line
    assert "armour ·" not in text and "discard hired" not in text and "with water ·" not in text
    pbd("replay", match, ok=True)
