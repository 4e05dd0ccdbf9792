"""An in-memory stand-in for pbd.table.deck.SharedDeck, for 2Xd6's pure rule tests only.

It honours the names 2Xd6's adapter (pbd/games/twoxd6/cards.py) calls but hides nothing:
every seat reads its own hand at once (no unlock duties), so a rule test can build a
position directly.  Every CLI test runs on the real shared deck.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field


@dataclass
class Slot:
    id: int
    value: int
    opened: list[str] = field(default_factory=list)
    card: str | None = None
    secret: str = ""


@dataclass
class FakeDeck:
    seats: list[str]
    slots: dict[int, Slot] = field(default_factory=dict)
    piles: dict[str, list[int]] = field(default_factory=dict)
    hands: dict[str, list[int]] = field(default_factory=dict)
    duties: list = field(default_factory=list)

    @classmethod
    def create(cls, match_id, seats, piles):
        deck = cls(list(seats))
        rng = random.Random(match_id)
        n = 0
        for name, ids in piles.items():
            ids = list(ids)
            rng.shuffle(ids)
            deck.piles[name] = []
            for card in ids:
                n += 1
                deck.slots[n] = Slot(n, n, secret=card)
                deck.piles[name].append(n)
        deck.hands = {s: [] for s in seats}
        return deck

    def ready(self, pile):
        return True

    def size(self, pile):
        return len(self.piles.get(pile, []))

    def deal(self, pile, seat, n=1):
        taken, self.piles[pile] = self.piles[pile][:n], self.piles[pile][n:]
        self.hands.setdefault(seat, []).extend(taken)
        return taken

    draw = deal

    def card(self, slot, seat):
        s = self.slots[slot]
        if s.card is not None or slot in self.hands.get(seat, []):
            return s.secret
        return None

    def reveal(self, seat, slot):
        self.slots[slot].card = self.slots[slot].secret
        return self.slots[slot].card

    def show_hand(self, seat):
        return [self.reveal(seat, s) for s in self.hands[seat]]

    def discard(self, seat, slot, to="discard"):
        self.reveal(seat, slot)
        self.hands[seat].remove(slot)
        self.piles.setdefault(to, []).insert(0, slot)

    def move(self, slot, to_pile, top=True):
        for ids in self.piles.values():
            if slot in ids:
                ids.remove(slot)
        self.piles.setdefault(to_pile, []).insert(0 if top else len(self.piles.get(to_pile, [])), slot)

    def waiting_on(self):
        return []

    def render(self):
        out = [f"seats {' '.join(self.seats)}"]
        where = {sid: f"pile {name}" for name, ids in self.piles.items() for sid in ids}
        where |= {sid: f"hand {seat}" for seat, ids in self.hands.items() for sid in ids}
        order = [sid for ids in self.piles.values() for sid in ids] + [sid for ids in self.hands.values() for sid in ids]
        for sid in order:
            s = self.slots[sid]
            out.append(f"slot {sid} {s.secret} {'up' if s.card else 'down'} {where[sid]}")
        return out

    @classmethod
    def parse(cls, lines):
        deck = cls([])
        for line in lines:
            text = line.strip()
            if not text:
                continue
            if text.startswith("seats "):
                deck.seats = text.split()[1:]
                deck.hands = {s: [] for s in deck.seats}
                continue
            m = re.fullmatch(r"slot (\d+) (\S+) (up|down) (pile|hand) (.+)", text)
            sid = int(m.group(1))
            deck.slots[sid] = Slot(sid, sid, card=m.group(2) if m.group(3) == "up" else None, secret=m.group(2))
            target = deck.piles if m.group(4) == "pile" else deck.hands
            target.setdefault(m.group(5), []).append(sid)
        return deck
