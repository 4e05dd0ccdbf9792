"""C&C move notation: every form players write in chat, and what happens to bad notation."""

from __future__ import annotations

import pytest

from pbd.errors import NotationError
from pbd.games.cnc.notation import EXAMPLES, Move, parse_move, parse_moves


@pytest.mark.parametrize("text, expected", [
    ("draw", Move("draw", amount=1, source="draw")),
    ("draw 2", Move("draw", amount=2, source="draw 2")),
    ("draw a card", Move("draw", amount=1, source="draw a card")),
    ("Draw three cards", Move("draw", amount=3, source="Draw three cards")),
    ("play Spider-Man", Move("play", card="Spider-Man", source="play Spider-Man")),
    ("play Carnivorous Plants on Nill",
     Move("play", card="Carnivorous Plants", target="Nill", source="play Carnivorous Plants on Nill")),
    ("Spider-Man attacks Nill", Move("attack", card="Spider-Man", target="Nill", source="Spider-Man attacks Nill")),
    ("Spider-Man attacks city", Move("attack", card="Spider-Man", target="city", source="Spider-Man attacks city")),
    ("Iron Man attacks Nill with Repulsor Blast then Batman",
     Move("attack", card="Iron Man", target="Nill", detail="Repulsor Blast", then="Batman",
          source="Iron Man attacks Nill with Repulsor Blast then Batman")),
    ("Mirror Master uses Mirror Trap on Batman",
     Move("use", card="Mirror Master", detail="Mirror Trap", target="Batman",
          source="Mirror Master uses Mirror Trap on Batman")),
    ("Bruce Wayne uses Wayne Foundation",
     Move("use", card="Bruce Wayne", detail="Wayne Foundation", source="Bruce Wayne uses Wayne Foundation")),
    ("withdraw Batman", Move("withdraw", card="Batman", source="withdraw Batman")),
    ("return Batman to my hand", Move("withdraw", card="Batman", source="return Batman to my hand")),
    ("discard Nill", Move("discard", card="Nill", source="discard Nill")),
    ("discard Nill from hand", Move("discard", card="Nill", detail="hand", source="discard Nill from hand")),
    ("discard Nill from play", Move("discard", card="Nill", detail="field", source="discard Nill from play")),
    ("end turn", Move("end", source="end turn")),
    ("End of my turn.", Move("end", source="End of my turn")),
    ("pass", Move("end", source="pass")),
    ("adjust Ben CP -10: the Sentry's Void",
     Move("adjust", card="Ben", detail="cp", amount=-10, text="the Sentry's Void",
          source="adjust Ben CP -10: the Sentry's Void")),
    ("adjust Nill HP +5: healed by a friend",
     Move("adjust", card="Nill", detail="hp", amount=5, text="healed by a friend",
          source="adjust Nill HP +5: healed by a friend")),
    ("adjust Ann AP 2: refund", Move("adjust", card="Ann", detail="ap", amount=2, text="refund",
                                     source="adjust Ann AP 2: refund")),
])
def test_every_notation_form(text, expected):
    assert parse_move(text) == expected


def test_spacing_and_curly_apostrophes_are_forgiven():
    move = parse_move("  adjust   Ben CP  - 10 :  the Sentry’s Void ")
    assert (move.kind, move.amount, move.text) == ("adjust", -10, "the Sentry's Void")
    assert parse_move("Spider-Man   attacks    Nill").target == "Nill"


def test_several_moves_join_with_semicolons_or_new_lines():
    moves = parse_moves("draw; play Spider-Man;\nSpider-Man attacks Nill ;; end turn")
    assert [m.kind for m in moves] == ["draw", "play", "attack", "end"]


def test_every_documented_example_parses():
    assert all(parse_move(example) for example in EXAMPLES)


@pytest.mark.parametrize("text", ["", " ; ", "dance wildly", "Spider-Man", "draw x", "adjust Ben CP -10",
                                  "adjust Ben XP -10: reason", "attack", "withdraw"])
def test_bad_notation_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse_moves(text)


def test_a_notation_error_lists_the_forms():
    with pytest.raises(NotationError) as err:
        parse_moves("dance wildly")
    assert "cannot read the move 'dance wildly'" in str(err.value)
    assert "play Carnivorous Plants on Nill" in str(err.value)


def test_an_adjustment_without_a_reason_says_so():
    with pytest.raises(NotationError, match="needs a reason after a colon"):
        parse_move("adjust Ben CP -10")


# -- through the CLI -----------------------------------------------------------------------------

def test_bad_notation_exits_2_and_leaves_the_file_alone(match, pbd):
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", "draw; dance wildly")
    assert result.exit_code == 2
    assert "cannot read the move 'dance wildly'" in result.output
    assert match.read_bytes() == before


def test_an_unknown_card_exits_2_with_did_you_mean(match, pbd):
    hand = pbd.json("hand", match, "--as", "Ann")["hand"]
    card = hand[0]
    before = match.read_bytes()
    result = pbd("move", match, "--as", "Ann", f"play {card[:-1]}x{card[-1]}")
    assert result.exit_code == 2
    assert "did you mean" in result.output and card in result.output
    assert match.read_bytes() == before


def test_good_notation_through_the_cli(match, pbd):
    result = pbd("move", match, "--as", "Ann", "DRAW; end   turn", ok=True)
    assert "draw" in result.output.lower()
    assert pbd.json("show", match)["to_move"] == ["Ben"]
