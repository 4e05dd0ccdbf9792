"""Fair play through the CLI: roll, log, reveal, audit (with a mutation test), replay and undo."""

from __future__ import annotations

import random
import re

import pytest

from pbd import private
from pbd.games.base import log_genesis, log_link, parse_meta, split_frame
from pbd.simulate import pick
from layout_helpers import log_lines, replace_entry, rewrite_log


def new_match(pbd, tmp_path, first="Ann"):
    doc = tmp_path / "match.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "ann", "--first", first, ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ben", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)       # the opening hands (and who moves first)
    pbd("hand", doc, "--as", "Ben", ok=True)
    return doc


def play_randomly(pbd, doc, rng, moves):
    """Make up to ``moves`` random legal moves, each by the player to move, through the CLI."""
    from pbd import match

    for _ in range(moves):
        _, game, state = match.load(match.open_document(str(doc)))
        actors = game.actors(state)
        if not actors:
            return True
        legal = pbd.json("legal", doc, "--as", actors[0])["moves"]
        if legal:                       # (none: the command only drew the opening hands; look again)
            pbd("move", doc, "--as", actors[0], pick(legal, rng, game.move_weights), ok=True)
    return False


def match_id(doc) -> str:
    return re.search(r"pbd match (\w+)", doc.read_text()).group(1)


def rechain(text: str) -> str:
    """Recompute every log hash, as a forger who knows the chain's recipe would (the MACs they cannot)."""
    frame = split_frame(text)
    meta = parse_meta("cnc", frame)
    previous = log_genesis(meta.match_id)
    for entry in meta.log:
        entry.hash = log_link(previous, entry)
        previous = entry.hash
    return rewrite_log(text, lambda lines: [entry.written() for entry in meta.log])


@pytest.fixture
def revealed(pbd, tmp_path):
    """A match 40 random moves in, both players revealed with --now (played once a run: seeds given, and copied)."""
    from conftest import copy_of_setup

    def build(pbd, folder):
        doc = new_match(pbd, folder, first="random")
        play_randomly(pbd, doc, random.Random(5), 40)
        pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
        pbd("reveal", doc, "--as", "Ben", ok=True)          # the opponent revealed: no --now needed
        return doc

    doc = copy_of_setup(("cnc revealed", "audit"), tmp_path, build)
    assert pbd("audit", doc).exit_code == 0
    return doc


# -- a whole game ---------------------------------------------------------------------

@pytest.mark.long          # (the default run audits whole CLI matches in test_gofish, test_highcard, test_boystown_audit)
def test_a_full_random_game_through_the_cli_audits_clean_and_replays_to_the_board(pbd, tmp_path):
    doc = new_match(pbd, tmp_path, first="random")
    assert play_randomly(pbd, doc, random.Random(1), 3000), "the game should end"
    assert "Result:" in pbd("show", doc).output or "wins" in doc.read_text()
    assert pbd("reveal", doc, "--as", "Ann", ok=True)
    pbd("reveal", doc, "--as", "Ben", ok=True)
    result = pbd("audit", doc, ok=True)
    assert "Ann: revealed" in result.output and "audit: clean" in result.output
    assert "replaying the" in pbd("replay", doc, ok=True).output
    assert "log chain: intact" in pbd("log", doc, ok=True).output


def test_audit_before_anyone_revealed_checks_the_log_and_says_what_waits(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    play_randomly(pbd, doc, random.Random(2), 15)
    result = pbd("audit", doc)
    assert result.exit_code == 1, result.output                  # never "clean" before every seat revealed
    assert "Ann: not revealed" in result.output and "Ben: not revealed" in result.output
    assert "audit: incomplete" in result.output and "clean" not in result.output
    assert "Ann has not revealed" in result.output and "Ben has not revealed" in result.output
    pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
    result = pbd("audit", doc)
    assert result.exit_code == 1 and "Ben has not revealed" in result.output and "Ann has not" not in result.output


# -- the mutation test: every tampering is caught -------------------------------------------

def _entry(text: str, pattern: str) -> str:
    """Return the whole line (view words and machine fields) of the first log entry matching ``pattern``."""
    return next(line for line in log_lines(text) if re.search(pattern, line))


def tamper_roll(text):
    line = _entry(text, r"d2=\d")
    face = int(re.search(r"d2=(\d)", line).group(1))
    return replace_entry(text, line, line.replace(f"d2={face}", f"d2={3 - face}"))


def tamper_counter(text):
    line = _entry(text, r"^\d+\. Ann: draw · .*rng \d+@")
    n = int(re.search(r"rng (\d+)@", line).group(1))
    return replace_entry(text, line, line.replace(f"rng {n}@", f"rng {n + 1}@"))


def tamper_edit(text):
    line = _entry(text, r"AP \d→\d")
    return replace_entry(text, line,
                         re.sub(r"AP (\d)→(\d)", lambda m: f"AP {m.group(1)}→{int(m.group(2)) + 1}", line))


def tamper_delete(text):
    def delete(lines):
        i = lines.index(_entry(text, r"^\d+\. \w+: end turn"))
        del lines[i]
        for k in range(i, len(lines)):
            lines[k] = re.sub(r"^(\d+)\.", lambda m: f"{int(m.group(1)) - 1}.", lines[k])
        return lines

    return rewrite_log(text, delete)


def tamper_swap_deck(text):
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith("Ann 1. "))
    j = next(k for k in range(i, len(lines)) if lines[k].split(". ", 1)[1] != lines[i].split(". ", 1)[1])
    a, b = lines[i].split(". ", 1), lines[j].split(". ", 1)
    lines[i], lines[j] = f"{a[0]}. {b[1]}", f"{b[0]}. {a[1]}"
    return "\n".join(lines)


def tamper_seed(text):
    m = re.search(r"Ben: seed ([0-9a-f])", text)
    return text.replace(m.group(0), f"Ben: seed {'0' if m.group(1) != '0' else '1'}", 1)


MUTATIONS = {
    "a changed roll": (tamper_roll, r"roll \(roll \d+\) shows \d; the seed gives \d"),
    "a changed draw": (tamper_counter, r"draw \d+ where \d+ was next"),
    "an edited log entry": (tamper_edit, r"replaying the move gives|hash #\w+ does not follow"),
    "a deleted log entry": (tamper_delete, r"publications|published chain value|the log records"),
    "a swapped deck line": (tamper_swap_deck, r"do not match the commitment"),
    "a seed that does not match its commitment": (tamper_seed, r"do not match the commitment"),
}


#: a forger who recomputes the hash chain: the default run plays it on the two tamperings whose chain matters most
CHAIN_IN_DEFAULT_RUN = {"a changed draw", "an edited log entry"}


@pytest.mark.parametrize("name,forger", [
    pytest.param(name, forger, id=f"{'chain recomputed' if forger else 'as edited'}-{name}",
                 marks=pytest.mark.long if forger and name not in CHAIN_IN_DEFAULT_RUN else ())
    for forger in (False, True) for name in MUTATIONS])
def test_the_audit_catches_every_tampering(pbd, revealed, name, forger):
    tamper, expected = MUTATIONS[name]
    text = tamper(revealed.read_text())
    if forger:
        text = rechain(text)
    revealed.write_text(text)
    result = pbd("audit", revealed)
    assert result.exit_code == 1, result.output
    assert "problem(s) found" in result.output
    assert re.search(expected, result.output) or (not forger and "does not follow" in result.output), result.output


def test_the_audit_catches_a_card_played_that_was_never_drawn(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    mid = match_id(doc)
    sec = private.load(mid, "Ann")
    held = set(sec.hand)
    never = next(c for i, c in enumerate(sec.deck, 1) if i not in sec.drawn and c not in held
                 and c in ("Spider-Man", "Batman", "Captain America", "Nightwing", "Robin", "Daredevil")
                 or (i not in sec.drawn and c not in held and not c.startswith("Porter")))
    sec.hand[0] = never                                 # a doctored private state
    private.save(sec)
    result = pbd("move", doc, "--as", "Ann", f"play {never}")
    assert result.exit_code == 0, result.output        # the opponent's pbd cannot see the hand
    pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
    result = pbd("audit", doc)
    assert result.exit_code == 1
    assert f"{never} is not in your hand" in result.output


def test_the_audit_catches_a_deleted_last_entry_through_the_witness_and_the_counters(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    # the last log entry, deleted from both parts of the document
    doc.write_text(rewrite_log(doc.read_text(), lambda lines: [ln for ln in lines
                                                             if not ln.startswith("5. Ann: draw")]))
    result = pbd("audit", doc)
    assert result.exit_code == 1
    assert "the log now ends at entry 4" in result.output and "shows 6 draws, the log records 5" in result.output


# -- roll, reveal, log --------------------------------------------------------------------------

def test_roll_is_logged_public_and_audited(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    result = pbd("roll", doc, "--as", "Ben", "2d6", ok=True)
    m = re.match(r"Ben rolls 2d6: (\d) \+ (\d) = (\d+)", result.output)
    assert m and int(m.group(1)) + int(m.group(2)) == int(m.group(3))
    assert re.search(r"\d+\. Ben: rolls 2d6: .* · rng f0@1 d6=\d, f1@1 d6=\d · seal \w+ · mac \w+ · #[0-9a-f]{64}",
                     "\n".join(log_lines(doc.read_text())))
    data = pbd.json("roll", doc, "--as", "Ann", "d20")
    assert 1 <= data["total"] <= 20
    pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
    pbd("reveal", doc, "--as", "Ben", ok=True)
    pbd.audit_clean(doc)


@pytest.mark.parametrize("dice", ["2x6", "d1", "lots"])
def test_bad_dice_are_refused_and_the_document_is_unchanged(pbd, tmp_path, dice):
    doc = new_match(pbd, tmp_path)
    before = doc.read_bytes()
    assert pbd("roll", doc, "--as", "Ann", dice).exit_code == 2
    assert doc.read_bytes() == before


def test_reveal_waits_for_the_end_unless_both_agree_and_then_the_match_stops(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    before = doc.read_bytes()
    result = pbd("reveal", doc, "--as", "Ann")
    assert result.exit_code == 1 and "--now" in result.output
    assert doc.read_bytes() == before
    pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
    text = doc.read_text()
    assert re.search(r"^Revealed\nAnn: seed [0-9a-f]{64}\nAnn 1\. ", text, re.M)
    assert "Ann 51. Porter: The Porter" in text
    assert pbd("reveal", doc, "--as", "Ann").exit_code == 2
    before = doc.read_bytes()
    result = pbd("move", doc, "--as", "Ann", "draw")
    assert result.exit_code == 1 and "match is stopped" in result.output
    assert doc.read_bytes() == before
    pbd("reveal", doc, "--as", "Ben", ok=True)
    pbd.audit_clean(doc)


def test_log_prints_the_entries_and_flags_a_broken_chain(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    out = pbd("log", doc, ok=True).output
    assert out.startswith("1. Ann: new match") and "log chain: intact (4 entries)" in out
    text = doc.read_text()
    assert "4. Ben: opening hand · 5 cards drawn\n" in text          # a word of the view's log, edited
    doc.write_text(text.replace("4. Ben: opening hand · 5 cards drawn\n", "4. Ben: opening hand · 6 cards drawn\n"))
    out = pbd("log", doc).output
    assert "log chain: BROKEN" in out and "log entry 4" in out
    assert pbd.json("log", doc)["problems"]


# -- replay -----------------------------------------------------------------------------------

def test_replay_names_a_hand_edit_by_line_and_field(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    assert pbd("replay", doc).exit_code == 0
    text = doc.read_text()
    doc.write_text(text.replace("CP = 100 AP= 2", "CP = 120 AP= 2", 1))
    result = pbd("replay", doc)
    assert result.exit_code == 1
    assert "players[0].cp: the board shows 120, the log gives 100" in result.output
    line = text.split("\n").index("CP = 100 AP= 2") + 1
    assert f"line {line}: 'CP = 120 AP= 2' — the log gives 'CP = 100 AP= 2'" in result.output


# -- undo ---------------------------------------------------------------------------------------

def _playable(pbd, doc, player):
    return next(m for m in pbd.json("legal", doc, "--as", player)["moves"] if m.startswith("play "))


def test_undo_takes_back_a_move_that_revealed_nothing(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    before = doc.read_text()
    hand = pbd.json("hand", doc, "--as", "Ann")["hand"]
    move = _playable(pbd, doc, "Ann")
    pbd("move", doc, "--as", "Ann", move, ok=True)
    result = pbd("undo", doc, "--as", "Ann", ok=True)
    assert "took back" in result.output
    after = doc.read_text()
    board = lambda t: t.split("\nLog\n")[0]  # noqa: E731
    assert board(after) == board(before)
    assert re.search(rf"^6\. Ann: takes back 5: {re.escape(move)} · seal \w+ · mac \w+ · #[0-9a-f]{{64}}"
                     rf"(?: · sig [\w-]{{86}})?$", "\n".join(log_lines(after)), re.M)
    assert pbd.json("hand", doc, "--as", "Ann")["hand"] == hand
    assert pbd("undo", doc, "--as", "Ann").exit_code == 1           # once only
    pbd("move", doc, "--as", "Ann", move, ok=True)                   # the move can be made again
    pbd.audit_clean(doc)
    pbd("replay", doc, ok=True)


@pytest.mark.parametrize("moves, reason", [
    ("draw", "revealed new information"),
    ("end turn", "revealed new information"),
])
def test_undo_refuses_a_draw_or_a_turn_end(pbd, tmp_path, moves, reason):
    doc = new_match(pbd, tmp_path)
    pbd("move", doc, "--as", "Ann", moves, ok=True)
    before = doc.read_bytes()
    result = pbd("undo", doc, "--as", "Ann")
    assert result.exit_code == 1 and reason in result.output
    assert doc.read_bytes() == before


def test_undo_refuses_once_the_opponent_moved_and_after_a_roll(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    pbd("move", doc, "--as", "Ann", _playable(pbd, doc, "Ann"), ok=True)
    pbd("roll", doc, "--as", "Ben", "d6", ok=True)
    before = doc.read_bytes()
    result = pbd("undo", doc, "--as", "Ann")
    assert result.exit_code == 1 and "went on after your last move" in result.output
    assert doc.read_bytes() == before
    assert pbd("undo", doc, "--as", "Ben").exit_code == 1           # Ben's last command was a roll


def test_undo_with_nothing_to_take_back(pbd, tmp_path):
    doc = new_match(pbd, tmp_path)
    result = pbd("undo", doc, "--as", "Ben")
    assert result.exit_code == 1 and "no move to take back" in result.output


def test_a_replay_snapshot_shares_the_meta_and_copies_the_rest_even_of_a_state_pickle_cannot_take():
    """The state kept before each replayed entry comes back as a copy whose meta is the replay's own, pickled
    or (a state holding something pickle refuses) deep-copied."""
    from types import SimpleNamespace

    from pbd.audit import _Snapshot
    from pbd.games.base import Meta

    for held in ([1, 2], lambda: 0):
        state, meta, other = SimpleNamespace(), Meta("tower", "m1"), Meta("tower", "m2")
        state.meta, state.board, state.held = meta, {"a": [1]}, held
        snap = _Snapshot(state)
        assert (snap.blob is None) == callable(held)
        state.board["a"].append(2)
        back = snap.restore(other)
        assert back.meta is other and back.board == {"a": [1]} and back is not state
