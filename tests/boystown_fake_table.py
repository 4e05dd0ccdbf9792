"""An in-memory stand-in for pbd.table's SharedDeck (TABLE_API.md), for Boys' Town tests only.

It honours the interface the game uses (deal, draw, peek/keep, discard, draw_face_up,
reveal, move, take, reshuffle, ready/size/top/card, waiting_on/settle/verify, render/parse)
with no cryptography: card ids are written in the clear and every operation is immediate,
so the rules can be tested before the real table lands.  Never used outside tests.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from pbd.errors import DocumentFormatError


@dataclass
class Slot:
    id: int
    card: str
    up: bool = False


@dataclass
class FakeDeck:
    match_id: str
    seats: list[str]
    slots: dict[int, Slot] = field(default_factory=dict)
    piles: dict[str, list[int]] = field(default_factory=dict)
    hands: dict[str, list[int]] = field(default_factory=dict)
    aside: dict[str, int] = field(default_factory=dict)
    shuffles: int = 0

    @classmethod
    def create(cls, match_id, seats, piles):
        deck = cls(match_id, list(seats), hands={s: [] for s in seats})
        n = 0
        for name, cards in piles.items():
            deck.piles[name] = []
            for c in cards:
                n += 1
                deck.slots[n] = Slot(n, c)
                deck.piles[name].append(n)
        random.Random(match_id).shuffle(deck.piles.get("draw", []))
        return deck

    # -- operations -------------------------------------------------------------------
    def _take(self, slot):
        for ids in [*self.piles.values(), *self.hands.values()]:
            if slot in ids:
                ids.remove(slot)
                return
        for seat, s in list(self.aside.items()):
            if s == slot:
                del self.aside[seat]
                return
        raise KeyError(slot)

    def deal(self, pile, seat, n=1):
        out = []
        for _ in range(n):
            if not self.piles[pile]:
                break
            slot = self.piles[pile].pop(0)
            self.hands[seat].append(slot)
            out.append(slot)
        return out

    draw = deal

    def draw_face_up(self, pile, n=1, to="discard"):
        out = []
        for _ in range(n):
            slot = self.piles[pile].pop(0)
            self.slots[slot].up = True
            self.piles[to].insert(0, slot)
            out.append(slot)
        return out

    def peek(self, pile, seat):
        slot = self.piles[pile].pop(0)
        self.aside[seat] = slot
        return slot

    def keep(self, seat, slot):
        assert self.aside.get(seat) == slot
        del self.aside[seat]
        self.hands[seat].append(slot)

    def discard(self, seat, slot, to="discard"):
        self.move(slot, to, top=True)

    def reveal(self, seat, slot):
        assert slot in self.hands[seat]
        self.slots[slot].up = True
        return self.slots[slot].card

    def show_hand(self, seat):
        return [self.reveal(seat, s) for s in self.hands[seat]]

    def move(self, slot, to_pile, top=True):
        self._take(slot)
        self.slots[slot].up = True
        if top:
            self.piles[to_pile].insert(0, slot)
        else:
            self.piles[to_pile].append(slot)

    def take(self, slot, seat):
        self._take(slot)
        self.hands[seat].append(slot)

    def reshuffle(self, src, dst, keep_top=0):
        moved = self.piles[src][keep_top:]
        self.piles[src] = self.piles[src][:keep_top]
        for s in moved:
            self.slots[s].up = False
        self.shuffles += 1
        random.Random(f"{self.match_id}|{self.shuffles}").shuffle(moved)
        self.piles[dst] = self.piles[dst] + moved

    # -- reading ----------------------------------------------------------------------
    def ready(self, pile):
        return True

    def size(self, pile):
        return len(self.piles.get(pile, []))

    def top(self, pile):
        return self.piles[pile][0] if self.piles.get(pile) else None

    def card(self, slot, seat):
        s = self.slots[slot]
        if s.up or slot in self.hands.get(seat, []) or self.aside.get(seat) == slot:
            return s.card
        return None

    def readable(self, seat, slot):
        return self.card(slot, seat) is not None

    def hand_cards(self, seat):
        return [self.card(s, seat) for s in self.hands[seat]]

    def waiting_on(self):
        return []

    def settle(self, seat, key):
        return []

    def verify(self, previous, public_keys=None):
        return []

    # -- document ---------------------------------------------------------------------
    def render(self):
        out = [f"Shared deck (test stand-in) {self.match_id} · {', '.join(self.seats)} · shuffles {self.shuffles}"]
        out += [f"pile {name}: {' '.join(map(str, ids))}".rstrip() for name, ids in self.piles.items()]
        out += [f"hand {seat}: {' '.join(map(str, ids))}".rstrip() for seat, ids in self.hands.items()]
        out += [f"aside {seat}: {slot}" for seat, slot in self.aside.items()]
        out += [" ".join(f"{s.id}={s.card}{'^' if s.up else ''}" for s in self.slots.values())]
        return out

    @classmethod
    def parse(cls, lines):
        lines = [ln for ln in lines if ln.strip()]
        m = re.match(r"Shared deck \(test stand-in\) (\S+) · (.*) · shuffles (\d+)$", lines[0] if lines else "")
        if not m:
            raise DocumentFormatError("expected the shared deck section")
        deck = cls(m.group(1), m.group(2).split(", "), shuffles=int(m.group(3)))
        for ln in lines[1:-1]:
            kind, _, rest = ln.partition(" ")
            name, _, ids = rest.partition(":")
            ids = [int(x) for x in ids.split()]
            if kind == "pile":
                deck.piles[name] = ids
            elif kind == "hand":
                deck.hands[name] = ids
            elif kind == "aside":
                deck.aside[name] = ids[0]
            else:
                raise DocumentFormatError(f"bad deck line {ln!r}")
        for tok in lines[-1].split():
            sid, _, card = tok.partition("=")
            up = card.endswith("^")
            deck.slots[int(sid)] = Slot(int(sid), card.rstrip("^"), up)
        return deck
