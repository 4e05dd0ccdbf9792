"""C&C: "City effects take hold the same turn the card is played", and City cards are not attack targets.

The rulebook (rules/cnc-tcg.txt): "By default, descriptions refer to cards currently in
play and City effects take hold the same turn the card is played"; "City cards can't be
targeted by standard character attacks".
"""

from __future__ import annotations

from cnc_helpers import char, pos, side


def test_import_clinic_heals_the_turn_it_is_played():
    g = pos(side(ap=3, hand=["Import Clinic"], chars=[char("Spider-Man", 5)]), side())
    g.play("Ann", "play Import Clinic")
    assert g.char("Ann", "Spider-Man").hp == 15


def test_avengers_mansion_gives_its_ap_the_turn_it_is_played():
    g = pos(side(ap=2, hand=["Avengers Mansion"], chars=["Spider-Man", "Hawkeye"]), side())
    g.play("Ann", "play Avengers Mansion")
    assert g.ann.ap == 0 + 2                  # 2 AP paid, 1 AP back per Hero in play


def test_farmers_market_protection_racket_and_haunted_house_take_hold_at_once():
    g = pos(side(ap=5, cities=["Zoning Board"], hand=["Farmers' Market", "Protection Racket"]),
            side(cp=100, ap_next=0))
    g.play("Ann", "play Farmers' Market; play Protection Racket")
    assert g.ann.cp == 100 + 5 + 5            # the Market's CP 5 on play, then +5 at once
    assert g.ben.cp == 95
    h = pos(side(ap=3, hand=["Haunted House"]), side(ap=0))
    h.play("Ann", "play Haunted House")
    assert h.ben.ap_next == -1                # Ben has no AP now: taken from his next turn


def test_a_city_effect_still_comes_each_turn_after_that():
    g = pos(side(ap=3, hand=["Farmers' Market"]), side())
    g.play("Ann", "play Farmers' Market; end turn")
    g.play("Ben", "end turn")
    assert g.ann.cp == 100 + 5 + 5 + 5


def test_attacking_a_city_card_names_the_rule():
    g = pos(side(ap=3, chars=["Spider-Man"]), side(cities=["Import Clinic"], chars=["Nill"]))
    message = g.refused("Ann", "Spider-Man attacks Import Clinic", "City cards can't be targeted")
    assert "unknown" not in message
    h = pos(side(ap=3, chars=["Spider-Man"]), side(cities=["Import Clinic"]))
    h.refused("Ann", "Spider-Man attacks Import Clinic", "City cards can't be targeted")
