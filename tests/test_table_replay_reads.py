"""The table's replay reads what a game cannot see itself (issue 28, part 1, for Boys' Town's hidden hands).

* :attr:`SharedDeck.dealt`: in an audit holding every seat's seed, a hidden card reads as the seeds deal
  it, but only where its holder's pbd could read it (its own hand, unlocked by every other seat);
* :meth:`SharedDeck.named`: replaying without the seeds, a card a logged move names in a hand the replay
  cannot read is taken to be one of that hand's hidden slots; live, a seat names only what it holds;
* :func:`pbd.table.secret.face_down` / :func:`~pbd.table.secret.opening`: a face-down commitment a move
  makes is remade, in a replay, from the slot and nonce of the seat's next opening in the log.
"""

from __future__ import annotations

import copy

from pbd.games.base import LogEntry, Meta
from pbd.table import secret
from pbd.table.deck import SharedDeck
from test_table_deck import SEATS, SEEDS, Table


def _dealt_table():
    t = Table({"draw": [f"c{i}" for i in range(6)]})
    for seat in SEATS:
        t.write(seat)
    t.write("Ann", lambda d: d.deal("draw", "Ann", 2))
    t.write("Ben")                      # Ben unlocks Ann's cards; Cy has not yet
    return t


def _replayed(deck: SharedDeck) -> SharedDeck:
    """Return ``deck`` as a replay without anyone's seed holds it: nothing read, the document as its oracle."""
    out = copy.deepcopy(deck)
    out.known.clear()
    out.known_index.clear()
    out.oracle = SharedDeck.parse(deck.render())
    return out


def test_the_deal_reads_a_hidden_card_only_where_its_holder_could_read_it():
    t = _dealt_table()
    slots = list(t.deck.hands["Ann"])
    replayed = _replayed(t.deck)
    replayed.dealt = t.deck.derive(SEEDS)[0]
    assert [replayed.card(s, "Ann") for s in slots] == [None, None]     # Cy has not unlocked them yet
    t.write("Cy")
    t.deck.learn("Ann", SEEDS["Ann"])
    truth = [t.deck.card(s, "Ann") for s in slots]
    replayed = _replayed(t.deck)
    assert [replayed.card(s, "Ann") for s in slots] == [None, None]     # without the seeds: hidden
    replayed.dealt = t.deck.derive(SEEDS)[0]
    assert [replayed.card(s, "Ann") for s in slots] == truth and None not in truth
    assert [replayed.card(s, "Ben") for s in slots] == [None, None]     # Ben's pbd never read Ann's hand


def test_a_card_a_move_names_is_taken_from_the_hidden_hand_only_in_a_replay():
    t = _dealt_table()
    t.write("Cy")
    slots = list(t.deck.hands["Ann"])
    t.deck.learn("Ann", SEEDS["Ann"])
    held = t.deck.card(slots[1], "Ann")
    absent = next(c for c in t.deck.cards if c not in [t.deck.card(s, "Ann") for s in slots])
    assert t.deck.named("Ann", held) == slots[1]            # live: the slot that holds it
    assert t.deck.named("Ann", absent) is None              # live: a card Ann does not hold is not hers
    replayed = _replayed(t.deck)
    slot = replayed.named("Ann", absent)
    assert slot in slots and replayed.card(slot, "Ann") == absent          # replaying: counted in her hand
    assert replayed.named("Ben", absent) is None            # Ben holds nothing to take it from


class _Replay:
    """What the table's face-down helpers read of a replay's chance."""

    replaying = True

    def __init__(self, entry: LogEntry, ahead: list[LogEntry]):
        self.entry, self.ahead, self.meta = entry, ahead, Meta("boystown", "m1")


def test_a_replayed_face_down_card_is_remade_from_the_logs_opening():
    down = secret.face_down(None, "m1", "Ann", 7, [3, 7])          # live: a fresh nonce
    assert down.slot == 7 and len(down.nonce) == 32 and down.commitment == secret.commit("Ann", 7, down.nonce, "m1")
    attack = LogEntry(5, "Ann", f"attack Ben from hand — attacks Ben (commitment {down.commitment})")
    flip = LogEntry(7, "Ann", f"unlocked 1 card; flips Old Mill (slot 7 · nonce {down.nonce})")
    other = LogEntry(6, "Ben", f"flips Bouncer (slot 9 · nonce {'0' * 32})")   # another seat's opening
    again = secret.face_down(_Replay(attack, [attack, other, flip]), "m1", "Ann", None, [3, 7])
    assert (again.slot, again.nonce, again.commitment, again.card) == (7, down.nonce, down.commitment, "flips Old Mill")
    assert secret.opening(_Replay(flip, [attack, other, flip]), "Ann").slot == 7
    early = secret.face_down(_Replay(attack, [attack]), "m1", "Ann", None, [3, 7])     # revealed before the flip
    assert (early.slot, early.commitment) == (3, down.commitment)
