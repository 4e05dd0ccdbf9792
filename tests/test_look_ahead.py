"""Issue 26 part 2: look-ahead unlocks, where the rules fix who receives a card before the turn it is drawn in.

The one such card among the shared-deck games is The Tower's turn card; every other draw's receiver
is fixed only at the draw, so nothing else is unlocked ahead.

Each shared-deck game, decided from its rulebook:

* Boys' Town: nothing.  The mover may use a Hand effect in the Draw Phase before drawing
  ("at any time while the card is in your Hand"): Rusty Bike discards the top card of the draw
  pile, Paperboy makes an opponent draw it, so the top card's receiver is fixed only by the draw
  itself (a card unlocked ahead would let the mover read its draw before deciding on those).  The
  card after a draw waits on the keep (discarded face up) or the redraw (into the hand).
* The Tower: the turn card is dealt at the end of the seat's previous turn (already so).
* 2Xd6: a draw's pile (of the Draw Patch's two) is picked by a fair roll made at the draw, and
  the act's replacement draws (the player's choice) come before its Scene 4 draw, so no card's
  receiver is fixed before it: nothing is unlocked ahead.
* Twin Tower City: every card is dealt at the start; nothing is drawn later.
* examples/highcard: a draw turns the card face up for everyone: unlocking it ahead would show it
  to the table before it is drawn, so nothing is unlocked ahead.

Every test inspects the deck as each seat's pbd holds it: the cards each seat can read (its
private state's seed), and that no card outside a hand or a set-aside draw carries any seat's
unlock.
"""

from __future__ import annotations

from pbd import games, private

NAMES = ["Ann", "Ben", "Cy"]


def seat(pbd, doc, game, names=NAMES, *extra):
    """Start ``game`` on ``doc`` with every seat in this PBD_HOME (the test reads every seat's state)."""
    g = games.get(game)
    decks = g.sample_decks()
    pbd("new", game, doc, "--as", names[0], "--players", len(names), "--seed", "a",
        *(["--deck", decks[0]] if decks else []), *extra, ok=True)
    for i, name in enumerate(names[1:], 1):
        pbd("join", doc, "--as", name, "--seed", f"s{i}", *(["--deck", decks[-1]] if g.join_needs_deck else []),
            ok=True)
    catch_up(pbd, doc, names)


def catch_up(pbd, doc, names):
    """Every seat runs a command (its pbd pays what it owes), until nobody owes anything."""
    for _ in range(4):
        for name in names:
            pbd("status", doc, "--as", name, ok=True)


def deck_of(doc, game):
    return games.get(game).parse(doc.read_text(encoding="utf-8")).deck


def reads(doc, game, name) -> dict[int, str]:
    """Return the slots ``name``'s pbd can read: its hand and set-aside draw (unlocked by the others), and public."""
    deck = deck_of(doc, game)
    match_id = games.get(game).parse(doc.read_text(encoding="utf-8")).meta.match_id
    own = deck.learn(name, private.load(match_id, name).seed, {})
    public = {s.id: s.card for s in deck.slots.values() if s.card is not None}
    return {**public, **own}


def assert_nothing_unlocked_ahead(deck):
    """No card outside a hand or a set-aside draw carries an unlock, but one turning face up for everyone."""
    for slot in deck.slots.values():
        if slot.card is not None or slot.want == "open" or slot.id in deck.retired:
            continue
        holder = deck.holder(slot.id)
        if holder is None:
            assert slot.opened == [], f"slot {slot.id} ({deck.pile_of(slot.id)}) was unlocked by {slot.opened}"
        else:
            assert holder not in slot.opened


def test_boys_town_unlocks_nothing_ahead_the_movers_hand_effects_may_take_the_top_card_first(pbd, tmp_path):
    """The mover may use a Hand effect in the Draw Phase before drawing (Rusty Bike mills the top card,
    Paperboy makes an opponent draw it), so the top card's receiver is fixed only by the draw itself:
    unlocked ahead, the mover would read its draw before deciding on those."""
    from pbd.games.boystown import cards

    doc = tmp_path / "m.txt"
    seat(pbd, doc, "boystown")
    deck = deck_of(doc, "boystown")
    assert not any(deck.aside.values())
    assert deck.slots[deck.piles[cards.DRAW][0]].opened == []
    assert_nothing_unlocked_ahead(deck)
    for name in NAMES:
        mine = set(deck.hands[name])
        assert mine <= set(reads(doc, "boystown", name))
        assert not [o for o in NAMES if o != name and mine & set(reads(doc, "boystown", o))]
    pbd("move", doc, "--as", "Ann", "draw", ok=True)
    deck = deck_of(doc, "boystown")
    (aside,) = deck.aside["Ann"]
    assert deck.slots[aside].opened == [] and deck.slots[deck.piles[cards.DRAW][0]].opened == []
    catch_up(pbd, doc, NAMES)
    assert aside in reads(doc, "boystown", "Ann") and aside not in reads(doc, "boystown", "Ben")
    pbd("move", doc, "--as", "Ann", "keep", ok=True)
    catch_up(pbd, doc, NAMES)
    assert_nothing_unlocked_ahead(deck_of(doc, "boystown"))


def test_the_towers_turn_card_comes_at_the_end_of_the_last_turn_and_nothing_else_is_unlocked(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    seat(pbd, doc, "tower")
    deck = deck_of(doc, "tower")
    for name in NAMES:
        hand = deck.hands.get(name, [])
        assert hand and all(i in reads(doc, "tower", name) for i in hand)
        others = [o for o in NAMES if o != name]
        assert not [i for i in hand for o in others if i in reads(doc, "tower", o)]
    assert_nothing_unlocked_ahead(deck)


def test_2xd6_unlocks_nothing_ahead_its_draws_pile_is_rolled_at_the_draw(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    seat(pbd, doc, "2xd6", NAMES[:2])
    deck = deck_of(doc, "2xd6")
    assert not any(deck.aside.values())
    assert_nothing_unlocked_ahead(deck)
    for name, other in (("Ann", "Ben"), ("Ben", "Ann")):
        mine = set(deck.hands.get(name, []))
        assert mine and mine <= set(reads(doc, "2xd6", name)) and not mine & set(reads(doc, "2xd6", other))


def test_twin_tower_city_deals_everything_at_the_start_and_unlocks_nothing_else(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    seat(pbd, doc, "ttc", NAMES[:2])
    deck = deck_of(doc, "ttc")
    assert_nothing_unlocked_ahead(deck)
    assert not any(deck.aside.values())
    for name, other in (("Ann", "Ben"), ("Ben", "Ann")):
        mine = set(deck.hands.get(name, []))
        assert mine and mine <= set(reads(doc, "ttc", name)) and not mine & set(reads(doc, "ttc", other))
