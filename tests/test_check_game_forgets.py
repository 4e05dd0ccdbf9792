"""check_game names a game's silent forgets, fast and with the reason (issue 28, part 5).

Each broken game is a small variant of the tutorial's Go Fish (examples/gofish) that forgets
one thing the table asks of it: to open its decision with ``state.ask`` (so the answers travel
in the document), to read cards through the deck's one call (``deck.card``, which falls back to
what the log showed when the log is replayed), or to keep its replay from crashing.  A crash in
replay is a bug in the game: the CLI exits 70 naming it, and the hand-edit check never swallows it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbd.errors import GameBug
from pbd.table.decisions import Decision
from pbd.table.game import Move
from pbd.testing import ContractError, check_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "gofish"))
import gofish  # noqa: E402


class ForgetsAnswers(gofish.GoFish):
    """Opens its decision by hand, without ``state.ask``: the answers are not in the document."""

    def apply(self, state, seat, move, chance):
        done = super().apply(state, seat, move, chance)
        for d in state.decisions:
            state.decisions[state.decisions.index(d)] = Decision(d.seat, d.prompt, d.answers, d.origin)
        return done


class SkipsTheFallback(gofish.GoFish):
    """Reads cards from its own pbd's record of the hands, not through ``deck.card``."""

    def answer(self, state, seat, decision, move, chance):
        if move == "go fish":
            return super().answer(state, seat, decision, move, chance)
        rank, asker = decision.prompt.split()[2], state.on_turn
        given = [s for s in gofish._slots(state, seat) if (state.deck.known.get(s) or
                                                            state.deck.slots[s].card or "?")[0] == rank]
        for slot in given:
            gofish._put(state, seat, slot, gofish._pile(state, "shown", asker))
        return Move(f"{seat} gives {len(given)} card(s)")


class RaisesInReplay(gofish.GoFish):
    """Names the cards given from its own record of the hands: a KeyError once no one's seed is held."""

    def answer(self, state, seat, decision, move, chance):
        hand = list(state.deck.hands.get(seat, []))
        done = super().answer(state, seat, decision, move, chance)
        if move == "give":
            gone = [s for s in hand if s not in state.deck.hands.get(seat, [])]
            done.text += ": " + " ".join(state.deck.known[s] for s in gone)
        return done


def _named(game, match):
    with pytest.raises(ContractError, match=match) as info:
        check_game(game, seats=[2], matches=1, pipeline=False)
    assert game.name in str(info.value)
    return str(info.value)


def test_the_tutorials_go_fish_keeps_the_contract_in_process():
    check_game(gofish.GAME, seats=[2], matches=2, pipeline=False)


def test_a_game_that_forgets_its_answers_is_named_with_the_keys_that_differ():
    _named(ForgetsAnswers(), r"read back describes another position: decisions\[0\]\.answers")


def test_a_game_that_skips_the_decks_fallback_is_named_as_its_replay_disagreeing():
    message = _named(SkipsTheFallback(), "the game's replay disagrees with its move")
    assert "by hand" not in message


def test_a_game_that_raises_in_replay_is_named_as_a_bug_in_the_game():
    _named(RaisesInReplay(), "the game's replay raises: a bug in the game Go Fish: .*KeyError")


def test_a_crash_in_a_built_in_games_replay_exits_70_naming_the_game(pbd, tmp_path, monkeypatch):
    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    before = doc.read_bytes()

    def broken(self, state, board):
        raise TypeError("a bug planted by the test")

    monkeypatch.setattr(type(__import__("pbd.games", fromlist=["get"]).get("tower")), "from_document", broken)
    monkeypatch.delenv("PBD_DEBUG", raising=False)
    for args in (("replay", doc), ("check", doc)):
        result = pbd(*args)
        assert result.exit_code == 70, (args, result.output)
        assert "a bug in the game The Tower" in result.output and "TypeError" in result.output
        assert "Traceback" not in result.output
    assert doc.read_bytes() == before
    assert issubclass(GameBug, Exception) and GameBug.exit_code == 70
