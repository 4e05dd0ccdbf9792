"""The Tower: tests for the mutation survivors of issue 32 (pbd/games/tower/rules.py).

Each test holds a rule that a mutant of the full run broke without any test noticing; the
comment above it names the line and the mutant (re-checked with ``benchmarks/mutate.py --line``).
The survivors shown equivalent, with the reasons, are in benchmarks/notes/muttower.md.  Dice and
cards are never faked: as in tests/test_tower_cli.py, a test reads the faces a player's pbd will
roll next and sets the board up around them (``put``), or picks the seeds that roll them.
"""

from __future__ import annotations

from tower_helpers import give, put, roll_waited, start, start_rolling, tile_of, upcoming

from pbd import private
from pbd.games.tower import GAME, rules
from pbd.table.decisions import Decision


def move(pbd, doc, who, text, code=0):
    result = pbd("move", doc, "--as", who, text)
    assert result.exit_code == code, result.output
    return result


def log_of(doc) -> str:
    return doc.read_text().split("\nLog")[-1].split("\nMachinery")[0]


def _duel_on_20(pbd, doc):
    """Ann's roll lands on Ben's tile 20; Ann passes her Sword, Ben his: the duel's dice wait on a fresh value."""
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face, "Ben": 20})
    move(pbd, doc, "Ann", "roll; pass")
    move(pbd, doc, "Ben", "pass")


def _winner(doc) -> tuple[str, str]:
    winner = "Ann" if "Ann wins the duel" in log_of(doc) else "Ben"
    assert f"{winner} wins the duel" in log_of(doc)
    return winner, {"Ann": "Ben", "Ben": "Ann"}[winner]


def _tiny_board(tmp_path, name, text):
    board = tmp_path / name
    board.write_text(f'name = "Tiny"\n{text}')
    return board


# -- a duel's two arrivals: the winner's chain first, then the loser's -------------------------------

# rules.py:481 `s.queue.pop(0)` -> `pop(-1)`, :767 the winner's `queue.insert(0, …)` -> `insert(1, …)` (the loser
# arrives first) and :494 `_go`'s `queue.insert(0, …)` -> `insert(1, …)` (the loser arrives between two steps of
# the winner's chain): the log's order of the card effects shows each
def test_a_duels_winner_goes_through_its_chain_before_the_loser_arrives(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    put(doc, cards={21: "Torch", 22: "Torch", 19: "Rope"})          # 19's Rope leads up to 30
    _duel_on_20(pbd, doc)
    roll_waited(pbd, doc, "Ben")
    winner, loser = _winner(doc)
    assert (f"{winner} wins the duel; {winner} → 21, {loser} → 19; Torch on 21: {winner} → 22; "
            f"Torch on 22: {winner} → 23; Rope on 19: {loser} → 30; Ann draws a card") in log_of(doc), log_of(doc)
    assert (tile_of(pbd, doc, winner), tile_of(pbd, doc, loser)) == (23, 30)


# -- a roll with no choice before it this turn is rolled at once ---------------------------------------

# rules.py:407 `e.player != s.mover or not _BEFORE_ROLL.match(done)` -> `and`: when the mover's own last entry
# is an answer (not a card placed or discarded), its roll is no choice's: it must not wait on a fresh value.  A
# duel moves Ben (the defender) onto a Guard; Ben's `pass` is the last move of Ann's turn, then Ben rolls.
def test_a_roll_after_the_movers_own_answer_to_a_decision_is_rolled_at_once(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    _duel_on_20(pbd, doc)
    pbd("status", doc, "--as", "Ann", ok=True)          # Ann's pbd publishes the value the duel's dice wait on
    a, b = upcoming(doc, "Ben", 2)                      # the faces Ben's pbd rolls for Ann and for Ben
    assert a != b                                       # these seeds roll no tie
    put(doc, cards={21 if b > a else 19: "Guard"})      # where Ben lands, winner or loser
    pbd("status", doc, "--as", "Ben", ok=True)          # Ben's pbd rolls the duel's dice
    assert "Waiting on: Ben — play Shield to stay on" in doc.read_text()
    move(pbd, doc, "Ben", "pass")                       # back one tile; Ann's turn ends with Ben's answer
    last = rules.last_choice(GAME.parse(doc.read_text()))          # the last move (table work left out)
    assert last.player == "Ben" and last.text.startswith("pass — ") and "Ann draws a card" in last.text
    before = tile_of(pbd, doc, "Ben")
    face = upcoming(doc, "Ben", 1)[0]
    out = move(pbd, doc, "Ben", "roll").output
    assert "waits on a random value" not in out, out
    assert f"roll — rolls {face}: {before} → {before + face}" in log_of(doc), log_of(doc)


# -- a bounce and a duel's loser stay on the path ------------------------------------------------------

# rules.py:426 `max(1, goal - (dest - goal))` -> `max(0, …)`: with the treasure on tile 5, a 6 from tile 4 walks
# five tiles back from the treasure, which would be tile 0: the token stops at tile 1
def test_an_exact_finish_bounce_past_tile_1_stops_at_tile_1(pbd, tmp_path):
    tiny = _tiny_board(tmp_path, "five.toml", "floors = 2\ntiles_per_floor = 3\ntreasure = 5\n")
    doc, _ = start_rolling(pbd, tmp_path, "Ann", lambda f: f[0] == 6, 1, 2, "-O", f"board={tiny}",
                           "-O", "exact-finish")
    assert "start 1 · treasure 5" in doc.read_text()
    put(doc, tiles={"Ann": 4})
    move(pbd, doc, "Ann", "roll")
    assert "roll — rolls 6: 4 → 1;" in log_of(doc), log_of(doc)
    assert tile_of(pbd, doc, "Ann") == 1


# rules.py:762 the duel loser's `max(1, tile - 1)` -> `max(0, …)`: on a board starting on tile 3, a Trapdoor on 6
# drops Ann onto tile 1, where Ben stands; the loser of the duel there stays on tile 1
def test_the_loser_of_a_duel_on_tile_1_stays_on_tile_1(pbd, tmp_path):
    tiny = _tiny_board(tmp_path, "low.toml", "floors = 3\ntiles_per_floor = 3\nstart = 3\n")
    doc, (face,) = start_rolling(pbd, tmp_path, "Ann", lambda f: 2 <= f[0] <= 4, 1, 2, "-O", f"board={tiny}")
    assert "start 3 · treasure 9" in doc.read_text()
    assert rules.below(GAME.parse(doc.read_text()).layout, 6) == 1
    put(doc, tiles={"Ann": 6 - face, "Ben": 1}, cards={6: "Trapdoor"})
    move(pbd, doc, "Ann", "roll; pass")
    assert "Trapdoor on 6: Ann → 1; duel on 1: Ann against Ben" in log_of(doc), log_of(doc)
    move(pbd, doc, "Ben", "pass")
    roll_waited(pbd, doc, "Ben")
    winner, loser = _winner(doc)
    assert f"{winner} wins the duel; {winner} → 2, {loser} → 1;" in log_of(doc), log_of(doc)
    assert (tile_of(pbd, doc, winner), tile_of(pbd, doc, loser)) == (2, 1)


# -- the answers of a decision (on the rules: the table refuses a board whose decision no move asked) ----

# rules.py:800 `if not kind: return ["pass"]` removed: a decision whose prompt names no moment of The Tower asks
# for no card, so its seat may only pass, even holding a Shield.  (Through the CLI such a 'Waiting on' line is
# refused before the rules see it: the log does not explain it, exit 3.)
def test_a_decision_that_asks_for_no_card_is_answered_only_by_pass(pbd, tmp_path):
    doc = start(pbd, tmp_path)
    give(doc, "Ben", "Shield")
    state = GAME.parse(doc.read_text())
    state.deck.learn("Ben", private.load(state.meta.match_id, "Ben").seed)
    assert "Shield" in [c for c in state.deck.hand_cards("Ben") if c]
    guard = Decision("Ben", rules.prompt(state, "Ben", "guard"), rules.answers("guard"), 3)
    assert rules.decision_answers(state, guard) == ["play Shield", "pass"]
    assert rules.decision_answers(state, Decision("Ben", "say whether you agree", ["pass"], 3)) == ["pass"]


def test_a_waiting_line_whose_prompt_no_move_asks_is_refused(pbd, tmp_path):
    # the CLI half of the test above: such a decision never reaches the rules' answers
    doc = start(pbd, tmp_path)
    face = upcoming(doc, "Ann", 1)[0]
    put(doc, tiles={"Ann": 20 - face, "Ben": 20})
    move(pbd, doc, "Ann", "roll; pass")
    asked = "play Sword (an extra die in the duel with Ann on 20), or pass"
    assert f"Waiting on: Ben — {asked}" in doc.read_text()
    doc.write_text(doc.read_text().replace(asked, "say whether you agree"))
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ben", "pass")
    assert result.exit_code == 3, result.output
    assert "does not ask Ben to say whether you agree: the 'Waiting on' line was typed by hand" in result.output
    assert doc.read_bytes() == before
