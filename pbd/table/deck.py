"""A shared face-down deck for 2..N seats, dealt without a dealer, every step proven.

The construction (see :mod:`pbd.table.group` for the arithmetic and the citations:
Barnett–Smart 2003 "Mental Poker Revisited", Chaum–Pedersen 1992):

* **Cards and codes.**  The game names its cards; card number ``i`` of the deck (the
  *manifest*, written in the document) has the public code ``H(match, i, card)`` in the
  group, so a code names exactly one card and anyone can read it.
* **Shuffle-in.**  Each seat in seat order locks every number of the new piles with a key
  of its own (one key per *generation*: each shuffle-in or reshuffle uses fresh keys, so a
  reshuffled card cannot be recognised by its old lock) and shuffles each pile secretly.
  The pass publishes the seat's public key ``Y = k·B``, each pile's numbers after it, and one
  proof of a shuffle (:mod:`pbd.table.shuffle`, Curdleproofs) that they are the
  numbers before it, each locked with ``k`` and permuted — card by card, so no number can be
  replaced, copied or made from others.  After every seat's pass nobody knows which slot
  holds which card.
* **Slots.**  A slot is a place for one card (ids 1..n, stable for the match).  Piles,
  hands and the cards set aside by a peek are lists of slot ids; the game passes the
  layout in and moves slots with the operations below.
* **Unlocks.**  A slot in a seat's hand must be unlocked by every other seat; the owner
  removes their own lock privately and reads the card.  A slot going face up is unlocked by
  every seat; the last unlock publishes the code itself (written as its manifest number).
  Every unlock is proven against the seat's public key for that generation: the unlocks one
  seat writes in one command over one generation share one batched Chaum–Pedersen proof
  (:func:`pbd.table.group.prove_batch`: a random linear combination with coefficients hashed
  from every public input, as Privacy Pass and RFC 9497 batch their DLEQ proofs; soundness error
  about 2^-127 per batch, the same order as one proof per unlock).
* **Pending work.**  Passes and unlocks that a seat owes are *duties*, derived from the
  public state (:attr:`SharedDeck.duties`); each seat's pbd does its own on its next command
  (:meth:`SharedDeck.settle`); :meth:`SharedDeck.waiting_on` says who is being waited for.
* **Verification.**  Each seat keeps a private copy of the deck as it last wrote it.  On
  every command :meth:`SharedDeck.verify` checks everything that changed since: every number
  in the group, no two slots with one number, every changed number reached from the recorded
  one by proven unlocks of the right seats (so numbers cannot be swapped between slots:
  that is how an unlock is never turned into an oracle), every pass's shuffle proof from the
  numbers it started with to the numbers on the board, every pass key (not the generator, not
  another seat's), slots taken only from the top of a face-down pile, nothing pruned before
  it was checked.
* **Audit.**  Once seeds are revealed, :meth:`SharedDeck.audit` re-derives every key, pass
  and permutation and checks every number and face-up card in the document.

Document size: numbers are 43 characters of base64, unlock proofs 64 (one per seat, write and
generation), a pass 43 per card (its numbers) and one shuffle proof for all its piles, of size
logarithmic in N (2,475 characters for 13 to 28 cards, 2,816 for 29 to 60: The Tower's 40, 2Xd6's 54,
Boys' Town's 60).  While a generation's last pass stands, a slot whose number is that pass's writes
``^`` for it (the number is written once, in the pass).  A proof, a pass's numbers and proof and a
retired slot are kept only until every other seat has written after it (``seen`` counters: each
seat's write stamps the deck with a clock tick, and a seat's pbd verifies before it writes;
while a player may still join, a generation's passes go only all together, once its last is
checked), then pruned: what stays is one number per live slot, one public key per seat and generation,
and the manifest.

What it does not protect against: a seat can stall by never doing its duties; whoever removes
the last lock of a face-up card sees it one write before the others; anyone who reads a
player's private state reads their hand.
"""

from __future__ import annotations

import re

from pbd import fairplay
from pbd.digest import hexdigest
from pbd.errors import CardOutOfSight, DeckMoveError, DeckSetupError, DocumentFormatError
from pbd.record import Record
from pbd.regex import pattern
from pbd.table import group
from pbd.table import shuffle as proofs
from pbd.table.shuffle import ShuffleProof

#: Bounds on what a document may hold (counts read from it are checked against these).
MAX_SEATS = 16
MAX_CARDS = 2000
MAX_STEPS = MAX_SEATS


class Step(Record):
    """One proven lock removal: ``seat`` took its lock off, leaving ``value``."""

    seat: str
    value: bytes | None
    proof: group.Proof | None
    stamp: int

    FIELDS = ("seat", "value", "proof", "stamp")

    def __init__(self, seat: str, value: bytes | None, proof: group.Proof | None, stamp: int):
        self.seat = seat
        self.value = value
        self.proof = proof
        self.stamp = stamp


class Slot(Record):
    """A place for one card: its number now, who unlocked it, and the card once face up."""

    id: int
    value: bytes | None
    opened: list[str]
    card: str | None
    gen: int
    base: bytes | None                 # the number before the unpruned steps
    steps: list[Step]
    want: str                        # "open": every seat owes an unlock (it goes face up)
    index: int | None                # manifest number of the card once face up

    FIELDS = ("id", "value", "opened", "card", "gen", "base", "steps", "want", "index")

    def __init__(self, id: int, value: bytes | None, opened: list[str] | None = None, card: str | None = None,
                 gen: int = 1, base: bytes | None = None, steps: list[Step] | None = None, want: str = "",
                 index: int | None = None):
        self.id = id
        self.value = value
        self.opened = [] if opened is None else opened
        self.card = card
        self.gen = gen
        self.base = base
        self.steps = [] if steps is None else steps
        self.want = want
        self.index = index


class Pass(Record):
    """One seat's lock-and-shuffle pass over a generation's piles."""

    seat: str
    key: bytes | None                # the seat's public key for this generation
    #: Each pile's numbers after the pass and, with the first pile, the proof that they are the numbers before it,
    #: each pile permuted within itself and locked with ``key`` (:mod:`pbd.table.shuffle`); None once pruned.
    piles: dict[str, tuple[list[bytes], ShuffleProof | None]] | None
    stamp: int

    FIELDS = ("seat", "key", "piles", "stamp")

    def __init__(self, seat: str, key: bytes | None,
                 piles: dict[str, tuple[list[bytes], ShuffleProof | None]] | None = None, stamp: int = 0):
        self.seat = seat
        self.key = key
        self.piles = piles
        self.stamp = stamp

    def outputs(self, gen: Gen) -> dict[int, bytes] | None:
        """Return ``{slot id: number}`` after this pass (None once pruned)."""
        if self.piles is None:
            return None
        return {i: v for name, (values, _) in self.piles.items() for i, v in zip(gen.piles[name], values)}


class Gen(Record):
    """A shuffle-in or reshuffle: the piles it made, the cards in them, the passes so far."""

    number: int
    piles: dict[str, list[int]]
    cards: list[int]                 # manifest numbers, in the order of the slots before any pass
    passes: list[Pass]

    FIELDS = ("number", "piles", "cards", "passes")

    def __init__(self, number: int, piles: dict[str, list[int]], cards: list[int], passes: list[Pass] | None = None):
        self.number = number
        self.piles = piles
        self.cards = cards
        self.passes = [] if passes is None else passes

    def slot_ids(self) -> list[int]:
        """Return the generation's slot ids, pile by pile."""
        return [i for ids in self.piles.values() for i in ids]


class Duty(Record):
    """Work a seat owes: a ``shuffle`` pass, an ``unlock`` toward ``owner``, or an ``open`` (face up)."""

    seat: str
    kind: str
    slot_ids: list[int]
    owner: str | None

    FIELDS = ("seat", "kind", "slot_ids", "owner")

    def __init__(self, seat: str, kind: str, slot_ids: list[int], owner: str | None = None):
        self.seat = seat
        self.kind = kind
        self.slot_ids = slot_ids
        self.owner = owner

    def describe(self) -> str:
        """Return the duty in words ("Ben: unlock 2 cards for Ann")."""
        n = len(self.slot_ids)
        what = {"shuffle": f"lock and shuffle {n} cards", "unlock": f"unlock {n} card(s) for {self.owner}",
                "open": f"unlock {n} card(s) to turn face up"}[self.kind]
        return f"{self.seat}: {what}"


class SharedDeck(Record):
    """Piles of face-down slots shared by the seats (see the module docstring)."""

    match_id: str
    seats: list[str]
    cards: list[str]
    slots: dict[int, Slot]
    piles: dict[str, list[int]]
    hands: dict[str, list[int]]
    aside: dict[str, list[int]]
    gens: list[Gen]
    retired: dict[int, int]                                   # slot id -> stamp (kept until pruned)
    gone: list[int]                                           # pruned slot ids
    clock: int
    seen: dict[str, int]
    #: Private, never rendered: cards the acting seat's pbd has read in its own hand.
    known: dict[int, str]
    known_index: dict[int, int]
    #: Replaying a log without seeds: the document's deck, for the cards unlocks made public.
    oracle: SharedDeck | None
    #: Replaying without seeds: the slots a later log entry opens by number (a hand attack's flip), which a card
    #: a move names now is not taken from (:meth:`named`).  Set by the game as it replays; never rendered.
    reserved: set[int]
    #: Replaying in an audit that holds every seat's revealed seed: every slot's card as the seeds deal it
    #: (:meth:`derive`), read where its holder's pbd could read it (:meth:`card`).  Never rendered.
    dealt: dict[int, str] | None
    writer: str | None

    FIELDS = ("match_id", "seats", "cards", "slots", "piles", "hands", "aside", "gens", "retired", "gone", "clock",
              "seen")

    def __init__(self, match_id: str, seats: list[str], cards: list[str], slots: dict[int, Slot] | None = None,
                 piles: dict[str, list[int]] | None = None, hands: dict[str, list[int]] | None = None,
                 aside: dict[str, list[int]] | None = None, gens: list[Gen] | None = None,
                 retired: dict[int, int] | None = None, gone: list[int] | None = None, clock: int = 0,
                 seen: dict[str, int] | None = None, known: dict[int, str] | None = None,
                 known_index: dict[int, int] | None = None, oracle: SharedDeck | None = None,
                 writer: str | None = None, dealt: dict[int, str] | None = None):
        self.match_id = match_id
        self.seats = seats
        self.cards = cards
        self.slots = {} if slots is None else slots
        self.piles = {} if piles is None else piles
        self.hands = {} if hands is None else hands
        self.aside = {} if aside is None else aside
        self.gens = [] if gens is None else gens
        self.retired = {} if retired is None else retired
        self.gone = [] if gone is None else gone
        self.clock = clock
        self.seen = {} if seen is None else seen
        self.known = {} if known is None else known
        self.known_index = {} if known_index is None else known_index
        self.oracle = oracle
        self.writer = writer
        self.dealt = dealt
        self.reserved = set()

    # -- creating ----------------------------------------------------------------------

    @classmethod
    def create(cls, match_id: str, seats: list[str], piles: dict[str, list[str]]) -> SharedDeck:
        """Return a deck of the game's piles (card ids, top first) that every seat must shuffle in, in order.

        Slot ``i`` starts with card ``i`` of the piles taken in order; each seat owes a
        pass (:meth:`settle`).

        :raises DeckSetupError: too many cards or seats, or a pile name that cannot be written.
        """
        manifest = [c for ids in piles.values() for c in ids]
        if not 1 <= len(seats) <= MAX_SEATS or len(manifest) > MAX_CARDS:
            raise DeckSetupError(f"a shared deck holds 1 to {MAX_CARDS} cards for 1 to {MAX_SEATS} seats")
        deck = cls(match_id, list(seats), manifest, seen={s: 0 for s in seats})
        layout, n = {}, 0
        for name, ids in piles.items():
            _check_name(name)
            layout[name] = list(range(n + 1, n + len(ids) + 1))
            n += len(ids)
        for i in range(1, n + 1):
            deck.slots[i] = Slot(i, deck.code(i), base=deck.code(i))
        deck.piles = {name: list(ids) for name, ids in layout.items()}
        deck.gens.append(Gen(1, layout, list(range(1, n + 1))))
        return deck

    def add_seat(self, seat: str) -> None:
        """Seat one more player, who owes a pass over every generation (only before anything is dealt).

        :raises DeckSetupError: cards were dealt or unlocked already, or the seat is taken.
        """
        if seat in self.seats or len(self.seats) >= MAX_SEATS:
            raise DeckSetupError(f"{seat} cannot take a seat at this deck")
        if not self.seating_open():
            raise DeckSetupError("a seat can join a shared deck only before anything is dealt")
        self.seats.append(seat)
        self.seen[seat] = 0

    def seating_open(self) -> bool:
        """Return True while another player may still take a seat (nothing dealt or unlocked yet)."""
        return not (any(s.opened or s.card for s in self.slots.values()) or any(self.hands.values()))

    # -- codes ------------------------------------------------------------------------

    def code(self, index: int) -> bytes:
        """Return the code of manifest card ``index`` (1-based), from the deck's code table (kept between commands)."""
        self.code_table()
        return _code(self.match_id, index, self.cards[index - 1])

    def code_table(self) -> dict[bytes, int]:
        """Return ``{code: manifest number}`` for every card."""
        return _table(self.match_id, tuple(self.cards))

    # -- where things are --------------------------------------------------------------

    def holder(self, slot_id: int) -> str | None:
        """Return the seat whose hand (or peek) holds ``slot_id``, if any."""
        for seat in self.seats:
            if slot_id in self.hands.get(seat, ()) or slot_id in self.aside.get(seat, ()):
                return seat
        return None

    def _holders(self) -> dict[int, str]:
        """Return ``{slot id: holder(slot id)}`` for every slot a hand or peek holds, in one pass over them.

        (:attr:`duties` asks for every slot, and a Twin Tower City show for the duties some ten times.)
        """
        out: dict[int, str] = {}
        for seat in reversed(self.seats):       # the first seat holding a slot is its holder, as in holder()
            for ids in (self.hands.get(seat, ()), self.aside.get(seat, ())):
                for slot_id in ids:
                    out[slot_id] = seat
        return out

    def pile_of(self, slot_id: int) -> str | None:
        """Return the pile that holds ``slot_id``, if any."""
        return next((name for name, ids in self.piles.items() if slot_id in ids), None)

    def gen_of(self, slot: Slot) -> Gen:
        """Return the generation a slot belongs to."""
        return self.gens[slot.gen - 1]

    def complete(self, gen: Gen) -> bool:
        """Return True once every seat has done its pass over ``gen``."""
        return len(gen.passes) >= len(self.seats)

    def ready(self, pile: str) -> bool:
        """Return True if ``pile`` can be dealt from (every seat has shuffled it in)."""
        ids = self.piles.get(pile, [])
        return all(self.complete(self.gen_of(self.slots[i])) for i in ids if i in self.slots)

    def size(self, pile: str) -> int:
        """Return the number of slots in ``pile``."""
        return len(self.piles.get(pile, []))

    def top(self, pile: str) -> int | None:
        """Return the top slot of ``pile`` (None when empty)."""
        ids = self.piles.get(pile, [])
        return ids[0] if ids else None

    # -- duties ------------------------------------------------------------------------

    @property
    def duties(self) -> list[Duty]:
        """Return the pending work of every seat, in seat order (derived from the public state)."""
        out: list[Duty] = []
        for gen in self.gens:
            if not self.complete(gen) and any(i in self.slots for i in gen.slot_ids()):
                out.append(Duty(self.seats[len(gen.passes)], "shuffle", gen.slot_ids()))
        owed: dict[tuple[str, str, str | None], list[int]] = {}
        held = self._holders()
        shuffled = [self.complete(gen) for gen in self.gens]    # complete(gen_of(slot)) by slot.gen, found once
        for slot in sorted(self.slots.values(), key=lambda s: s.id):
            if slot.card is not None or slot.id in self.retired or not shuffled[slot.gen - 1]:
                continue
            if slot.want == "open":
                for seat in self.seats:
                    if seat not in slot.opened:
                        owed.setdefault((seat, "open", None), []).append(slot.id)
            elif (owner := held.get(slot.id)) is not None:
                for seat in self.seats:
                    if seat != owner and seat not in slot.opened:
                        owed.setdefault((seat, "unlock", owner), []).append(slot.id)
        for seat in self.seats:
            out += [Duty(s, kind, ids, owner) for (s, kind, owner), ids in owed.items() if s == seat]
        return out

    def owed(self, seat: str) -> list[Duty]:
        """Return the duties of ``seat``."""
        return [d for d in self.duties if d.seat == seat]

    def waiting_on(self) -> list[str]:
        """Return the seats that owe work, in seat order."""
        owing = {d.seat for d in self.duties}
        return [s for s in self.seats if s in owing]

    # -- operations a game calls -------------------------------------------------------

    def deal(self, pile: str, seat: str, n: int = 1) -> list[int]:
        """Move the top ``n`` slots of ``pile`` face down into ``seat``'s hand; the others owe unlocks.

        :raises DeckMoveError: the pile is not shuffled in yet, too small, or the seat unknown.
        """
        ids = self._take(pile, n, seat)
        self.hands.setdefault(seat, []).extend(ids)
        return ids

    draw = deal

    def draw_face_up(self, pile: str, n: int = 1, to: str = "table") -> list[int]:
        """Move the top ``n`` slots of ``pile`` onto ``to`` (on top); every seat owes an unlock to turn them up.

        :raises DeckMoveError: the pile is not shuffled in yet, or too small.
        """
        ids = self._take(pile, n)
        for i in ids:
            self.slots[i].want = "open"
        _check_name(to)
        self.piles[to] = list(reversed(ids)) + self.piles.get(to, [])
        return ids

    def move_down(self, pile: str, to: str, n: int = 1) -> list[int]:
        """Move the top ``n`` slots of ``pile`` face down to the bottom of ``to`` (a layout on the table).

        :raises DeckMoveError: the pile is not shuffled in yet, or too small.
        """
        ids = self._take(pile, n)
        _check_name(to)
        self.piles[to] = self.piles.get(to, []) + ids
        return ids

    def peek(self, pile: str, seat: str) -> int:
        """Set the top slot of ``pile`` aside for ``seat`` alone (the others owe unlocks); then keep or discard.

        :raises DeckMoveError: the pile is not shuffled in yet, or empty.
        """
        (slot_id,) = self._take(pile, 1, seat)
        self.aside.setdefault(seat, []).append(slot_id)
        return slot_id

    def keep(self, seat: str, slot_id: int) -> None:
        """Put a peeked slot into ``seat``'s hand.

        :raises DeckMoveError: it is not set aside for ``seat``.
        """
        self._remove_from(self.aside, seat, slot_id)
        self.hands.setdefault(seat, []).append(slot_id)

    def discard(self, seat: str, slot_id: int, to: str = "discard") -> None:
        """Move a slot of ``seat``'s hand (or peek) face up onto pile ``to``: the owner reveals it.

        :raises DeckMoveError: ``seat`` does not hold the slot.
        """
        if slot_id in self.aside.get(seat, ()):
            self._remove_from(self.aside, seat, slot_id)
        else:
            self._remove_from(self.hands, seat, slot_id)
        _check_name(to)
        self.slots[slot_id].want = "open"
        self.piles[to] = [slot_id] + self.piles.get(to, [])

    def reveal(self, seat: str, slot_id: int) -> str | None:
        """Make a hand slot public (the owner publishes its unlock and proof); it stays in hand.

        Returns the card if this pbd has read it (the owner's), else None.

        :raises DeckMoveError: ``seat`` does not hold the slot.
        """
        if slot_id not in self.hands.get(seat, ()) and slot_id not in self.aside.get(seat, ()):
            raise DeckMoveError(f"{seat} does not hold slot {slot_id}")
        self.slots[slot_id].want = "open"
        return self.card(slot_id, seat)

    def show_hand(self, seat: str) -> list[str | None]:
        """Reveal every slot of ``seat``'s hand; return the cards this pbd can read."""
        return [self.reveal(seat, i) for i in list(self.hands.get(seat, []))]

    def move(self, slot_id: int, to_pile: str, top: bool = True) -> None:
        """Move a face-up slot from its pile to another (a public move).

        :raises DeckMoveError: the slot is not face up in a pile.
        """
        pile = self.pile_of(slot_id)
        if pile is None or self.slots[slot_id].want != "open":
            raise DeckMoveError(f"slot {slot_id} is not face up in a pile")
        self.piles[pile].remove(slot_id)
        _check_name(to_pile)
        dest = self.piles.setdefault(to_pile, [])
        dest.insert(0 if top else len(dest), slot_id)

    def take(self, slot_id: int, seat: str) -> None:
        """Move a face-up slot from its pile into ``seat``'s hand, where it stays face up (a public move).

        :raises DeckMoveError: the slot is not face up in a pile, or the seat unknown.
        """
        pile = self.pile_of(slot_id)
        if pile is None or self.slots[slot_id].want != "open":
            raise DeckMoveError(f"slot {slot_id} is not face up in a pile")
        if seat not in self.seats:
            raise DeckMoveError(f"{seat} has no seat at this deck")
        self.piles[pile].remove(slot_id)
        self.hands.setdefault(seat, []).append(slot_id)

    def reshuffle(self, src: str, dst: str, keep_top: int = 0) -> list[int]:
        """Turn the face-up pile ``src`` (but its top ``keep_top``) into a new face-down pile ``dst``.

        The cards get new slots; every seat owes a fresh lock-and-shuffle pass, in seat order
        (several document writes); ``dst`` is not :meth:`ready` until then.  Returns the new ids.

        :raises DeckMoveError: a card of ``src`` is not face up yet, or ``dst`` exists.
        """
        ids = self.piles.get(src, [])[keep_top:]
        if any(self.slots[i].index is None for i in ids):
            raise DeckMoveError(f"every card of {src} must be face up before it is reshuffled")
        if self.piles.get(dst):
            raise DeckMoveError(f"pile {dst} is not empty")
        _check_name(dst)
        self.piles[src] = self.piles[src][:keep_top]
        cards = sorted(self.slots[i].index for i in ids)
        first = max([*self.slots, *self.gone, 0]) + 1
        new = list(range(first, first + len(cards)))
        gen = Gen(len(self.gens) + 1, {dst: new}, cards)
        self.gens.append(gen)
        for i, c in zip(new, cards):
            self.slots[i] = Slot(i, self.code(c), gen=gen.number, base=self.code(c))
        for i in ids:
            self.retired[i] = self._stamp()
        self.piles[dst] = list(new)
        return new

    def box(self, pile: str) -> list[int]:
        """Put the rest of ``pile`` back in the box unread (its slots leave the document once all have seen it)."""
        ids = self.piles.pop(pile, [])
        for i in ids:
            self.retired[i] = self._stamp()
        return ids

    def _stamp(self) -> int:
        """Return the clock tick of the write under way (the next one if :meth:`begin` was not called yet)."""
        return self.clock if self.writer is not None else self.clock + 1

    def _take(self, pile: str, n: int, seat: str | None = None) -> list[int]:
        if seat is not None and seat not in self.seats:
            raise DeckMoveError(f"{seat} has no seat at this deck")
        ids = self.piles.get(pile, [])
        if not self.ready(pile):
            raise DeckMoveError(f"pile {pile} is still being shuffled (waiting on {', '.join(self.waiting_on())})")
        if n < 0 or len(ids) < n:
            raise DeckMoveError(f"pile {pile} has {len(ids)} card(s), not {n}")
        self.piles[pile] = ids[n:]
        return ids[:n]

    @staticmethod
    def _remove_from(where: dict[str, list[int]], seat: str, slot_id: int) -> None:
        if slot_id not in where.get(seat, ()):
            raise DeckMoveError(f"{seat} does not hold slot {slot_id}")
        where[seat].remove(slot_id)
        if not where[seat]:
            del where[seat]

    # -- reading ----------------------------------------------------------------------

    def card(self, slot_id: int, seat: str) -> str | None:
        """Return the card in ``slot_id`` if ``seat``'s pbd can read it now (public, or read in its own hand).

        This is the one call a game reads a card through.  Replaying the log, a hidden card
        reads, in this order: as the seeds deal it (:attr:`dealt`, in an audit that holds every
        seat's seed), where ``seat``'s own pbd could read it (its hand or peek, unlocked by every
        other seat); else, without the seeds (``pbd replay``, the hand-edit check: :attr:`oracle`
        is the document's deck), as what the log showed: the card the document shows face up in
        that slot (every card a move names was played, shown or handed over, so it turned up),
        else what the replay learned from the log's words (:attr:`known`, :meth:`named`); None
        only for a card nobody has seen (a hidden hand is then replayed by its count).
        """
        slot = self.slots.get(slot_id)
        if slot is None:
            return None
        if slot.card is not None:
            return slot.card
        if self.dealt is not None and slot_id in self.dealt and self.holder(slot_id) == seat \
                and set(self.seats) - {seat} <= set(slot.opened):
            return self.dealt[slot_id]
        if self.oracle is not None:
            shown = self.oracle.slots.get(slot_id)
            return shown.card if shown is not None and shown.card is not None else self.known.get(slot_id)
        return self.known.get(slot_id) if self.holder(slot_id) == seat else None

    def named(self, seat: str, card: str, slot_id: int | None = None, same=None) -> int | None:
        """Return the slot of ``seat``'s hand (or peek) that reads as ``card``, which a move names.

        ``same`` tells a card that counts as ``card`` (default: ``card`` itself; a game whose copies
        of a card are different cards of the deck passes its own).  ``slot_id``: only that slot.

        Live, the first slot ``seat``'s pbd reads as ``card``, in hand order (None: it holds no such
        card).  Replaying without the seeds (:attr:`oracle`), this replay reads only what the log
        and the document showed, so it may not know which slot the card truly left: it takes the
        first slot that reads as ``card`` or else a hidden slot its owner's pbd could read (every
        other seat unlocked it), which reads as ``card`` from then on (:attr:`known`).  The slot
        matters when a later entry opens a slot by number (a hand attack's flip names its slot):
        that slot stayed in the hand until then, so it is not the one a move names now, and any
        other is taken first (:attr:`reserved`, set by the game from the entries ahead; an audit
        that holds every seed reads every card its owner could, and takes the first as live).  Among
        the other candidates which one does not matter: each is a slot of that hand no entry
        names by number, hidden hands are replayed by their count, and a card named is checked
        by name against the document's board.  A slot number read from the log only steers this
        choice among the hand's own slots; an entry that opens a slot not in the hand is refused
        by the game, and the replay stops there (never vouched for).
        """
        same = same or card.__eq__
        held = [i for i in self.hands.get(seat, []) + self.aside.get(seat, [])
                if slot_id is None or i == slot_id]
        reads = {i: self.card(i, seat) for i in held}
        fits = [i for i in held if reads[i] is not None and same(reads[i])]
        if self.oracle is None or card not in self.cards:
            return fits[0] if fits else None
        others = set(self.seats) - {seat}
        hidden = [i for i in held if reads[i] is None and others <= set(self.slots[i].opened)]
        free = [i for i in fits + hidden if i not in self.reserved] if slot_id is None and self.dealt is None else []
        pick = next(iter(free or fits + hidden), None)
        if pick in hidden:
            self.known[pick] = card
        return pick

    def readable(self, seat: str, slot_id: int) -> bool:
        """Return True if ``seat``'s pbd can read ``slot_id`` now."""
        return self.card(slot_id, seat) is not None

    def hand_cards(self, seat: str) -> list[str | None]:
        """Return the cards of ``seat``'s hand as this pbd can read them (None: not readable)."""
        return [self.card(i, seat) for i in self.hands.get(seat, [])]

    def find(self, card: str) -> int | None:
        """Return the face-up slot showing ``card``, if any."""
        return next((s.id for s in self.slots.values() if s.card == card and s.id not in self.retired), None)

    # -- the framework's side: settle, learn ---------------------------------------------

    def begin(self, seat: str) -> None:
        """Open a write by ``seat``: tick the clock and note that ``seat`` has checked everything before it."""
        if self.writer != seat:
            self.writer = seat
            self.clock += 1
            self.seen[seat] = self.clock

    def settle(self, seat: str, secret: bytes | None, only=None) -> list[str]:
        """Do the work ``seat`` owes, in place; return summary lines.

        ``secret`` is the seat's seed (None replays symbolically: who did what is tracked,
        and a card turned face up is read from :attr:`oracle`).  ``only`` limits the
        unlocks to those slot ids (passes are always done).

        :raises DocumentFormatError: a number that should be a card's code is not
            (tampering upstream), or, replaying, the document does not show a card the log opened.
        """
        self.begin(seat)
        lines = []
        for gen in self.gens:
            if not self.complete(gen) and self.seats[len(gen.passes)] == seat:
                self._pass(gen, seat, secret)
                lines.append(f"locked and shuffled {len(gen.slot_ids())} cards")
        count = 0
        for duty in self.owed(seat):
            if duty.kind == "shuffle":
                continue
            for i in duty.slot_ids:
                if only is None or i in only:
                    self._unlock(self.slots[i], seat, secret)
                    count += 1
        if count:
            lines.append(f"unlocked {count} card{'s' if count != 1 else ''}")
            if secret is not None:
                self._prove_unlocks(seat, secret)
        self.prune()
        return lines

    def _prove_unlocks(self, seat: str, secret: bytes) -> None:
        """Give every unlock ``seat`` wrote in this write one proof per generation (a batch, :func:`group.prove_batch`).

        A batch is every step of one seat, one generation and one clock stamp (:func:`_batches`): the steps of
        one write, which pruning drops together (:meth:`prune`), so a batch is always whole in the document.
        """
        for (who, gen, stamp), members in _batches(self).items():
            if who == seat and stamp == self.clock:
                proof = group.prove_batch(self.key(secret, gen), _batch_pairs(members),
                                          _unlock_context(self.match_id, members))
                for slot, j in members:
                    slot.steps[j].proof = proof

    def _pass(self, gen: Gen, seat: str, secret: bytes | None) -> None:
        if secret is None:
            gen.passes.append(Pass(seat, None, stamp=self.clock))
            return
        k = self.key(secret, gen.number)
        done: dict[str, tuple[list[bytes], ShuffleProof | None]] = {}
        names, ids, perm = _proven_piles(gen), [], []
        for name in names:
            pile = gen.piles[name]
            perm += [len(ids) + j for j in shuffle(list(range(len(pile))), secret,
                                                   f"{self.match_id}|gen{gen.number}|{name}")]
            ids += pile
        if ids:         # one proof for every pile of the pass, each pile shuffled within itself
            values, proof = proofs.prove(k, [self.slots[i].value for i in ids], perm,
                                         _pass_context(self.match_id, gen.number, seat, names),
                                         tuple(len(gen.piles[name]) for name in names))
            for i, v in zip(ids, values):
                self.slots[i].value = self.slots[i].base = v
            for name in names:
                n = len(gen.piles[name])
                done[name], values = (values[:n], proof if name == names[0] else None), values[n:]
        gen.passes.append(Pass(seat, group.public_key(k), done, self.clock))

    def _unlock(self, slot: Slot, seat: str, secret: bytes | None) -> None:
        last = len(slot.opened) + 1 == len(self.seats)
        if secret is None:
            slot.opened.append(seat)
            slot.steps.append(Step(seat, None, None, self.clock))
            slot.value = None
            if last:
                shown = self.oracle.slots.get(slot.id) if self.oracle else None
                index = shown.index if shown is not None else None
                lost = self.known.get(slot.id) or (self.dealt or {}).get(slot.id)
                if index is None and lost in self.cards:      # a replayed reveal the board lost
                    index = self.cards.index(lost) + 1
                if index is None:
                    raise CardOutOfSight(f"the log turns slot {slot.id} face up, but the document's deck does "
                                              "not show its card")
                self._face_up(slot, index)
            return
        out = group.unlock(slot.value, self.key(secret, slot.gen))
        slot.opened.append(seat)
        slot.steps.append(Step(seat, out, None, self.clock))       # proven with the write's batch (settle)
        slot.value = out
        if last:
            index = self.code_table().get(out)
            if index is None:
                raise DocumentFormatError(f"slot {slot.id} of the shared deck does not unlock to a card (a number was "
                                          "replaced: the document was altered, or a player's pbd cheated)")
            self._face_up(slot, index)

    def _face_up(self, slot: Slot, index: int) -> None:
        slot.index = index
        slot.card = self.cards[index - 1]
        self.known.pop(slot.id, None)

    def key(self, secret: bytes, gen: int) -> int:
        """Return a seat's secret key for generation ``gen`` from its seed."""
        return group.derive_key(secret, f"{self.match_id}|gen{gen}")

    def learn(self, seat: str, secret: bytes, cache: dict | None = None) -> dict[int, str]:
        """Read privately the cards of ``seat``'s hand and peeks that every other seat has unlocked.

        ``cache`` (kept in the seat's private state) maps a number's tag to its card, so a
        card is decrypted once.  Returns ``{slot id: card}``.

        :raises DocumentFormatError: a number in the hand unlocks to no card, or to a card
            that is also elsewhere (tampering).
        """
        cache = {} if cache is None else cache
        others = set(self.seats) - {seat}
        for i in self.hands.get(seat, []) + self.aside.get(seat, []):
            slot = self.slots[i]
            if slot.card is not None or not others <= set(slot.opened) or slot.value is None or i in self.known:
                continue
            tag = _tag(slot.value)
            index = cache.get(tag)
            if index is None:
                index = self.code_table().get(group.unlock(slot.value, self.key(secret, slot.gen)))
                if index is None:
                    raise DocumentFormatError(f"slot {i} in {seat}'s hand does not unlock to a card of this deck "
                                              "(the document was altered, or a player's pbd cheated)")
                cache[tag] = index
            self.known[i], self.known_index[i] = self.cards[index - 1], index
        public = {s.index for s in self.slots.values() if s.index is not None and s.id not in self.retired}
        mine = [self.known_index[i] for i in self.known if i in self.known_index and self.slots[i].index is None]
        if len(set(mine)) != len(mine) or public & set(mine):
            raise DocumentFormatError("the shared deck is corrupt: a card in your hand is also elsewhere "
                                      "(the document was altered, or a player's pbd cheated)")
        return dict(self.known)

    # -- pruning ----------------------------------------------------------------------

    def checked_by_all(self, stamp: int, author: str | None) -> bool:
        """Return True once every seat but ``author`` has written after ``stamp`` (and so verified it)."""
        return len(self.seats) > 1 and all(self.seen.get(s, 0) > stamp for s in self.seats if s != author)

    def prune(self) -> None:
        """Drop unlock proofs, each pass's numbers and proof, and retired slots once every other seat has verified them.

        Passes are kept until something is dealt: before that a seat may still join (Twin Tower City seats
        its players one by one, :meth:`add_seat`), and a joiner checks every pass from the first.
        """
        # a batch of unlocks (one seat, one stamp: _batches) goes whole: its steps share the condition, and the
        # steps before one in its slot are other seats' with earlier stamps, checked by all whenever it is
        for slot in self.slots.values():
            # (a replay without the seeds knows no numbers: its steps, all None, go as the document's do, or its
            # deck would keep every slot of the match and an audit's snapshots grow with the log)
            while slot.steps and (slot.steps[0].value is not None or slot.value is None) and \
                    self.checked_by_all(slot.steps[0].stamp, slot.steps[0].seat):
                slot.base = slot.steps.pop(0).value
            if slot.index is not None and not slot.steps:
                slot.opened = list(self.seats)
        busy = set()
        seating = self.seating_open()
        for gen in self.gens:
            # a pass every other seat has checked is needed by nobody: a seat checks the passes after the last one
            # it knows from that one's numbers in its own record; while a player may still join, every pass stays
            # (a joiner checks them all, from the cards' codes)
            if gen.passes and self.complete(gen) and not seating:
                for p in gen.passes:
                    if p.piles is not None and self.checked_by_all(p.stamp, p.seat):
                        p.piles, p.stamp = None, 0
            if any(p.piles is not None for p in gen.passes) or not self.complete(gen):
                busy |= set(gen.slot_ids())
        for i, stamp in sorted(self.retired.items()):
            slot = self.slots.get(i)
            writer = next((s for s in self.seats if self.seen.get(s) == stamp), None)
            if slot is not None and not slot.steps and i not in busy and self.checked_by_all(stamp, writer):
                del self.slots[i]
                del self.retired[i]
                self.gone.append(i)

    # -- verification -----------------------------------------------------------------

    def verify(self, previous: SharedDeck | None, public_keys: dict[str, dict[int, bytes]] | None = None,
               seat: str | None = None) -> list[str]:
        """Return every problem with what changed since ``previous`` (the seat's private record).

        ``public_keys`` are keys known to be right (a seat's own, derived from its seed).
        Checked: numbers are group members (at parse) and distinct; every pass's proof and
        product; every number that changed was reached from the recorded one by proven
        unlocks; face-up cards stay; slots leave face-down piles only from the top; nothing
        disappears or is pruned before this seat checked it; with ``seat`` (the verifier),
        nobody else moved or asked to reveal a card of that seat's hand.
        """
        return _Verifier(self, previous, public_keys or {}, seat).run()

    # -- audit ------------------------------------------------------------------------

    def derive(self, seeds: dict[str, bytes]) -> tuple[dict[int, str], list[str]]:
        """Re-derive every generation from the seeds; return ``({slot: card}, problems)``.

        Checks every number and face-up card still in the document against the passes the
        seeds give and the unlocks recorded (locks are re-applied forward: no unlocking).
        """
        dealt: dict[int, str] = {}
        problems: list[str] = []
        for gen in self.gens:
            if [p.seat for p in gen.passes] != self.seats[:len(gen.passes)] or not set(self.seats) <= set(seeds):
                problems.append(f"generation {gen.number}: its passes are not one per seat in seat order")
                continue
            keys = {s: self.key(seeds[s], gen.number) for s in self.seats}
            order = _initial_order(gen)
            cards = {i: c for i, c in zip(order, gen.cards)}
            after: list[dict[int, int]] = []
            for p in gen.passes:
                if p.key is not None and p.key != group.public_key(keys[p.seat]):
                    problems.append(f"generation {gen.number}: {p.seat}'s published key is not the one their seed gives")
                for name, ids in gen.piles.items():
                    live = [i for i in _pile_at_start(gen, name)]
                    moved = shuffle([cards[i] for i in live], seeds[p.seat], f"{self.match_id}|gen{gen.number}|{name}")
                    cards.update(zip(live, moved))
                after.append(dict(cards))
            for i, c in cards.items():
                dealt[i] = self.cards[c - 1]
                slot = self.slots.get(i)
                if slot is None or slot.value is None:
                    continue
                if slot.index is not None:
                    if slot.index != c:
                        problems.append(f"slot {i}: the document shows {self.cards[slot.index - 1]}, the deal put "
                                        f"{self.cards[c - 1]} there")
                    continue
                problem = self._slot_derives(gen, slot, after, keys)
                if problem:
                    problems.append(f"slot {i}: {problem}")
        return dealt, problems

    def _slot_derives(self, gen: Gen, slot: Slot, after: list[dict[int, int]], keys: dict[str, int]) -> str | None:
        """Return whose pass or unlock gave ``slot`` a number the seeds do not (None if every number derives)."""
        def locked(card: int, seats) -> bytes:
            out = self.code(card)
            for s in seats:
                out = group.lock(out, keys[s])
            return out

        stepped = [st.seat for st in slot.steps]
        pruned = [s for s in slot.opened if s not in stepped]
        card = after[-1][slot.id]
        if slot.base != locked(card, [s for s in self.seats if s not in pruned]):
            for j, p in enumerate(gen.passes):
                out = p.outputs(gen)
                if out is not None and out.get(slot.id) != locked(after[j][slot.id], self.seats[:j + 1]):
                    return f"{p.seat}'s shuffle pass gave it a number the seeds do not give"
            return ("its number is not the deal's; the passes' proofs are pruned, so it was "
                    + (f"one of the unlocks by {', '.join(pruned)} or a pass" if pruned else "a pass"))
        gone = list(pruned)
        for st in slot.steps:
            gone.append(st.seat)
            if st.value is not None and st.value != locked(card, [s for s in self.seats if s not in gone]):
                return f"{st.seat}'s unlock left a number the seeds do not give"
        if slot.value != locked(card, [s for s in self.seats if s not in slot.opened]):
            return (f"its number is not the deal's with {', '.join(slot.opened) or 'no'} unlock(s) removed (the "
                    "document was altered)")
        return None

    def audit(self, seeds: dict[str, bytes]) -> list[str]:
        """Return every problem found re-deriving the deck from every seat's seed."""
        return self.derive(seeds)[1]

    # -- replay -----------------------------------------------------------------------

    def adopt(self, board: SharedDeck) -> None:
        """Take the numbers of ``board`` (the document's deck) where they agree with this symbolic replay."""
        self.clock, self.seen, self.gone = board.clock, dict(board.seen), list(board.gone)
        for gen, theirs in zip(self.gens, board.gens):
            for p, q in zip(gen.passes, theirs.passes):
                if p.seat == q.seat:
                    p.key, p.piles, p.stamp = q.key, q.piles, q.stamp
        for i, slot in list(self.slots.items()):
            theirs = board.slots.get(i)
            if theirs is None:
                if i in board.gone and i in self.retired:
                    del self.slots[i]
                    del self.retired[i]
                continue
            if set(theirs.opened) == set(slot.opened) and theirs.index == slot.index:
                slot.value, slot.base, slot.opened = theirs.value, theirs.base, list(theirs.opened)
                slot.steps = [Step(t.seat, t.value, t.proof, t.stamp) for t in theirs.steps]
        for i in list(self.retired):
            if i in board.retired:
                self.retired[i] = board.retired[i]

    # -- the document -----------------------------------------------------------------

    def render(self) -> list[str]:
        """Return the deck's document lines (indented two spaces; the caller writes a heading)."""
        return _render(self)

    @classmethod
    def parse(cls, lines) -> SharedDeck:
        """Return the deck written in ``lines`` (strings, or objects with ``number`` and ``text``).

        Linear in the input; every count bounded; every number checked to be a group member.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        return _parse(cls, lines)


# -- helpers ----------------------------------------------------------------------------------

def shuffle(values: list, seed: bytes, label: str) -> list:
    """Return ``values`` in a secret order fixed by ``seed`` and ``label`` (Fisher–Yates, unbiased)."""
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = fairplay.uniform(seed, f"pbd-table-shuffle|{label}|{i}", i + 1)
        out[i], out[j] = out[j], out[i]
    return out


_CODES: dict[tuple, bytes] = {}
_TABLES: dict[tuple, dict[bytes, int]] = {}


def _code(match_id: str, index: int, card: str) -> bytes:
    key = (match_id, index, card)
    if key not in _CODES:
        if len(_CODES) > 50000:
            _CODES.clear()
        _CODES[key] = group.code(f"{match_id}|{index}|{card}")
    return _CODES[key]


def _table(match_id: str, cards: tuple[str, ...]) -> dict[bytes, int]:
    key = (match_id, cards)
    if key not in _TABLES:
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[key] = table = _kept_table(match_id, cards)
        _CODES.update(((match_id, i, cards[i - 1]), code) for code, i in table.items())
    return _TABLES[key]


def _kept_table(match_id: str, cards: tuple[str, ...]) -> dict[bytes, int]:
    """Return ``{code: manifest number}``, kept in PBD_HOME's cache (:mod:`pbd.cache`) from one command to the next.

    Every code is a hash onto the group (about 80 µs): a deck of 80 cards costs the command
    that turns a card face up, or reads one in a hand, about 6 ms to make its table anew.
    """
    from pbd import cache

    return cache.cached("deck-codes-v2", f"/deck-codes/{match_id}", repr((match_id, cards)).encode(),
                        lambda: {_code(match_id, i, c): i for i, c in enumerate(cards, 1)}, (), dict)


def _tag(value: bytes) -> str:
    return hexdigest(value)[:16]


def _batches(deck: SharedDeck) -> dict[tuple[str, int, int], list[tuple[Slot, int]]]:
    """Return every batch of unlocks: ``{(seat, generation, stamp): [(slot, step index), …]}``, slots by id.

    The unlocks one seat wrote in one write (one clock stamp) over one generation's slots (one key) share one
    proof (:func:`group.prove_batch`).
    """
    out: dict[tuple[str, int, int], list[tuple[Slot, int]]] = {}
    for slot in sorted(deck.slots.values(), key=lambda s: s.id):
        for j, st in enumerate(slot.steps):
            out.setdefault((st.seat, slot.gen, st.stamp), []).append((slot, j))
    return out


def _batch_pairs(members: list[tuple[Slot, int]]) -> list[tuple[bytes | None, bytes | None]]:
    """Return each unlock's ``(number after, number before)``: the number before is ``k`` times the one after."""
    return [(slot.steps[j].value, slot.base if j == 0 else slot.steps[j - 1].value) for slot, j in members]


def _unlock_context(match_id: str, members: list[tuple[Slot, int]]) -> str:
    return f"{match_id}|unlock|{','.join(str(slot.id) for slot, _ in members)}"


def _pass_context(match_id: str, gen: int, seat: str, piles: list[str]) -> str:
    return f"{match_id}|pass|{gen}|{seat}|{','.join(piles)}"


def _proven_piles(gen: Gen) -> list[str]:
    """Return the names of the piles a pass of ``gen`` shuffles (those with cards), in order; the first carries the proof."""
    return [name for name, ids in gen.piles.items() if ids]


def _initial_order(gen: Gen) -> list[int]:
    return [i for name in gen.piles for i in _pile_at_start(gen, name)]


def _pile_at_start(gen: Gen, name: str) -> list[int]:
    return gen.piles[name]


NAME_RE = pattern(r"^[A-Za-z0-9][A-Za-z0-9_.:+/-]{0,39}$")


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise DeckSetupError(f"{name!r} cannot name a pile (letters, digits and - _ . : + / only)")


# -- the document format ------------------------------------------------------------------------
#
#   deck 7f3a9c2e v4 · seats Lia, Max · clock 5 · seen 5 4
#   cards 1-50 101-110 …                    the manifest (ids escaped; runs of integers as a-b)
#   gen 1 · battle 1-50 · army 51-60 · cards 1-60
#   pass 1 1 <key> @3                         generation, seat number, public key [, stamp while proven]
#   proof 1 1 battle <base64>                 the pile's numbers after the pass (and, with the first pile,
#                                             the pass's one shuffle proof for all its piles),
#                                             in lines of at most 4,000 characters (until pruned)
#   pile battle 27-50                         slot ids, top first ('-': empty)
#   hand 1 6-13 · aside 2 40
#   retired 7@5 9@5 · gone 51-60
#   slot 6 ^ · 2 <number> <proof> @4 · open
#   slot 7 ^ · 2 <number> @4
#   slot 9 <number> · 1 <number> <proof> @6 · by 2,1
#
# A slot line gives the number before its unpruned steps, then each step (seat number, the
# number it left, its proof, its clock stamp); '=N' is the code of manifest card N (face up);
# '^' is the number the last pass of the slot's generation gave it, while that pass stands in
# the document (its numbers are written once, in its proof lines).  The unlocks one seat wrote
# in one write over one generation share one proof (a batch, group.prove_batch), written on
# the step of the batch's first slot only.  'by' lists the seats that unlocked the slot when
# they are not just its steps' seats (some steps pruned).

MAX_SLOT_ID = 4 * MAX_CARDS
#: The deck format this pbd writes: ``v4`` (edwards25519, shuffles proven card by card with Curdleproofs,
#: a slot's number written once while its pass stands, one batched proof for one write's unlocks).
FORMAT = "v4"
#: A slot's number while its generation's last pass stands: that pass's number for the slot.
STANDING = "^"
#: Characters of a shuffle proof per document line (a Google Doc paragraph stays short).
PROOF_CHUNK = 4000
OLD_FORMAT = ("this match's shared deck was dealt by an earlier pbd (0.1), whose shuffles are proven only as a "
              "product; this pbd cannot check them card by card and will not play on it. Finish this match with "
              "pbd 0.1 (pip install 'pbd==0.1.*', or that release's checkout), or start a new match")
OLD_FORMAT_V2 = ("this match's shared deck was dealt by an earlier pbd (0.2: deck format v2, whose shuffle proofs are "
                 "Terelius–Wikström's, of a size that grows with the deck); this pbd checks the shorter "
                 "Curdleproofs proofs of format v4 and will not play on it. Finish this match with pbd 0.2 "
                 "(pip install 'pbd==0.2.*', or that release's checkout), or start a new match")
OLD_FORMAT_V3 = ("this match's shared deck was dealt by an earlier pbd (0.3: deck format v3, whose shuffle proofs are "
                 "Bayer–Groth's and whose unlocks are proven one by one); this pbd reads deck format v4 and will not "
                 "play on it. Finish this match with pbd 0.3 (pip install 'pbd==0.3.*', or that release's checkout), "
                 "or start a new match")
_ESCAPE = set(" ,;%·@#=\t")


def _esc(card: str) -> str:
    out = "".join(f"%{ord(c):02X}" if c in _ESCAPE or not c.isprintable() else c for c in card)
    first, _, second = out.partition("-")   # re.fullmatch(r"\d+-\d+", out), never compiled
    if first.isdecimal() and second.isdecimal() or not out:
        out = out.replace("-", "%2D") or "%"
    return out


def _unesc(token: str) -> str:
    if token == "%":
        return ""
    if "%" not in token:
        return token            # (nothing to unescape: the pattern is not compiled)
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), token)


def _ranges(ids) -> str:
    ids = list(ids)
    if not ids:
        return "-"
    out, start = [], 0
    for i in range(1, len(ids) + 1):
        if i == len(ids) or ids[i] != ids[i - 1] + 1:
            out.append(str(ids[start]) if i - 1 == start else f"{ids[start]}-{ids[i - 1]}")
            start = i
    return " ".join(out)


def _manifest(cards: list[str]) -> str:
    tokens, run = [], []
    for c in cards:
        if c.isdigit() and not c.startswith("0") and run and int(c) == int(run[-1]) + 1:
            run.append(c)
            continue
        if run:
            tokens.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [c] if c.isdigit() and not c.startswith("0") else []
        if not run:
            tokens.append(_esc(c))
    if run:
        tokens.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return " ".join(tokens)


def _num(value: bytes | None, deck: SharedDeck, index: int | None = None) -> str:
    if index is not None:
        return f"={index}"
    return "?" if value is None else group.encode(value)


def _standing(deck: SharedDeck) -> dict[int, bytes]:
    """Return ``{slot id: number}`` that the standing last pass of each generation gave (what ``^`` stands for)."""
    out: dict[int, bytes] = {}
    for gen in deck.gens:
        if gen.passes and gen.passes[-1].piles is not None:
            out.update(gen.passes[-1].outputs(gen))
    return out


def _render(deck: SharedDeck) -> list[str]:
    no = {s: str(i) for i, s in enumerate(deck.seats, 1)}
    lines = [f"  deck {deck.match_id} {FORMAT} · seats {', '.join(_esc(s) for s in deck.seats)} · clock {deck.clock} · seen "
             + " ".join(str(deck.seen.get(s, 0)) for s in deck.seats),
             f"  cards {_manifest(deck.cards)}"]
    for gen in deck.gens:
        piles = " · ".join(f"{name} {_ranges(ids)}" for name, ids in gen.piles.items())
        lines.append(f"  gen {gen.number} · {piles} · cards {_ranges(gen.cards)}")
        for p in gen.passes:
            tail = "" if p.piles is None else f" @{p.stamp}"
            lines.append(f"  pass {gen.number} {no[p.seat]} {_num(p.key, deck)}{tail}")
            for name, (values, proof) in (p.piles or {}).items():
                blob = group.b64(b"".join(values) + (b"" if proof is None else proofs.to_bytes(proof)))
                lines += [f"  proof {gen.number} {no[p.seat]} {name} {blob[i:i + PROOF_CHUNK]}"
                          for i in range(0, len(blob), PROOF_CHUNK)]
    lines += [f"  pile {name} {_ranges(ids)}" for name, ids in deck.piles.items()]
    for kind, where in (("hand", deck.hands), ("aside", deck.aside)):
        lines += [f"  {kind} {no[s]} {_ranges(where[s])}" for s in deck.seats if where.get(s)]
    if deck.retired:
        lines.append("  retired " + " ".join(f"{i}@{t}" for i, t in sorted(deck.retired.items())))
    if deck.gone:
        lines.append(f"  gone {_ranges(sorted(deck.gone))}")
    standing = _standing(deck)
    first = {(members[0][0].id, members[0][1]) for members in _batches(deck).values()}
    for slot in sorted(deck.slots.values(), key=lambda s: s.id):
        last = len(slot.steps) - 1
        if slot.base is not None and standing.get(slot.id) == slot.base and (slot.index is None or slot.steps):
            base = STANDING
        else:
            base = _num(slot.base, deck, slot.index if not slot.steps else None)
        parts = [f"  slot {slot.id} {base}"]
        for j, st in enumerate(slot.steps):
            proof = "" if (slot.id, j) not in first else " -" if st.proof is None else f" {group.encode_proof(st.proof)}"
            parts.append(f"{no[st.seat]} {_num(st.value, deck, slot.index if j == last else None)}{proof} @{st.stamp}")
        stepped = [st.seat for st in slot.steps]
        if slot.opened and not (slot.index is not None and not slot.steps) and slot.opened != stepped:
            parts.append("by " + ",".join(no[s] for s in slot.opened))
        if slot.want:
            parts.append(slot.want)
        lines.append(" · ".join(parts))
    return lines


class _Reader:
    """Parse state: the current line number, for errors."""

    def __init__(self):
        self.number: int | None = None
        self.blobs: dict[tuple[int, str, str], list[str]] = {}
        self.last_blob: tuple[int, str, str] | None = None
        self.slot_lines: dict[int, int | None] = {}        # slot id -> its line, for errors found after the last line
        self.standing: list[int] = []                      # slots whose number is written '^' (the standing pass's)
        self.batched: set[tuple[int, int]] = set()         # (slot id, step index) written without a proof

    def fail(self, message: str):
        raise DocumentFormatError(f"shared deck: {message}", line=self.number)

    def int_(self, text: str, limit: int, what: str) -> int:
        if not text.isdigit() or len(text) > 9 or int(text) > limit:
            self.fail(f"expected {what} (a number up to {limit}), not {text[:20]!r}")
        return int(text)

    def ids(self, text: str, limit: int = MAX_SLOT_ID) -> list[int]:
        if text.strip() == "-":
            return []
        out: list[int] = []
        for token in text.split():
            a, dash, b = token.partition("-")
            lo = self.int_(a, limit, "a slot number")
            hi = self.int_(b, limit, "a slot number") if dash else lo
            if hi < lo or len(out) + hi - lo >= limit:
                self.fail(f"the range {token[:20]!r} is not valid")
            out.extend(range(lo, hi + 1))
        return out

    def element(self, text: str, deck: SharedDeck | None = None) -> tuple[bytes | None, int | None]:
        """Return ``(value, manifest index)`` of a number token."""
        if text == "?":
            return None, None
        if text.startswith("=") and deck is not None:
            index = self.int_(text[1:], len(deck.cards), "a card number")
            if index < 1:
                self.fail("card numbers start at 1")
            return deck.code(index), index
        try:
            return group.decode(text), None
        except ValueError as exc:
            self.fail(str(exc))

    def proof(self, text: str) -> group.Proof | None:
        if text == "-":
            return None
        try:
            return group.decode_proof(text)
        except ValueError as exc:
            self.fail(str(exc))

    def seat(self, text: str, deck: SharedDeck) -> str:
        return deck.seats[self.int_(text, len(deck.seats), "a seat number") - 1] if text != "0" else self.fail(
            "seat numbers start at 1")

    def stamp(self, text: str) -> int:
        if not text.startswith("@"):
            self.fail(f"expected a clock stamp like '@4', not {text[:20]!r}")
        return self.int_(text[1:], 10 ** 9, "a clock stamp")


def _parse(cls, lines) -> SharedDeck:
    rd = _Reader()
    deck: SharedDeck | None = None
    seen_ids: set[int] = set()
    for i, raw in enumerate(lines, 1):
        number, text = (raw.number, raw.text) if hasattr(raw, "text") else (i, raw)
        rd.number = number
        text = text.strip()
        if not text:
            continue
        if len(text) > 20000:
            rd.fail("a line is too long")
        word, _, rest = text.partition(" ")
        if deck is None:
            if word != "deck":
                rd.fail("expected the deck's first line: 'deck MATCH · seats A, B · clock N · seen …'")
            deck = _parse_head(cls, rd, rest)
            continue
        handler = _LINES.get(word)
        if handler is None:
            rd.fail(f"expected a deck line (cards, gen, pass, proof, pile, hand, aside, retired, gone, slot), "
                    f"not {word[:20]!r}")
        handler(deck, rd, rest, seen_ids)
    if deck is None:
        raise DocumentFormatError("shared deck: the section is empty")
    rd.number = None
    _attach_proofs(deck, rd)
    _check_structure(deck, rd)
    _resolve_standing(deck, rd)
    _resolve_batches(deck, rd)
    return deck


def _resolve_standing(deck: SharedDeck, rd: _Reader) -> None:
    """Give each slot written ``^`` the number its generation's last pass gave it (that pass must stand)."""
    standing = _standing(deck)
    for sid in rd.standing:
        rd.number = rd.slot_lines[sid]
        slot = deck.slots[sid]
        gen = deck.gens[slot.gen - 1]
        if not gen.passes or gen.passes[-1].piles is None:
            rd.fail(f"slot {sid}: '{STANDING}' stands for the number the last shuffle pass of generation {gen.number} "
                    "gave it, but no such pass stands in the document")
        if sid not in standing:
            rd.fail(f"slot {sid}: '{STANDING}' stands for the number {gen.passes[-1].seat}'s shuffle pass of "
                    f"generation {gen.number} gave it, but that pass has no number for slot {sid} in the document")
        slot.base = standing[sid]
        if not slot.steps:
            slot.value = slot.base
    rd.number = None


def _resolve_batches(deck: SharedDeck, rd: _Reader) -> None:
    """Give every unlock of a batch the proof written on its first slot's step; refuse a batch proven twice or never."""
    for (seat, gen, stamp), members in _batches(deck).items():
        for n, (slot, j) in enumerate(members):
            written = (slot.id, j) not in rd.batched
            if n == 0 and not written:
                rd.number = rd.slot_lines.get(slot.id)
                rd.fail(f"slot {slot.id}: {seat}'s unlock @{stamp} has no proof, and it is the first of {seat}'s "
                        f"unlocks of generation {gen} written at @{stamp}, which carries their one proof")
            if n > 0 and written:
                rd.number = rd.slot_lines.get(slot.id)
                rd.fail(f"slot {slot.id}: a second proof for {seat}'s unlocks of generation {gen} written at @{stamp} "
                        f"(they share one, written on slot {members[0][0].id})")
            slot.steps[j].proof = members[0][0].steps[members[0][1]].proof
    rd.number = None


def _parse_head(cls, rd: _Reader, rest: str) -> SharedDeck:
    m = re.fullmatch(r"(\S+) v4 · seats (.+?) · clock (\d+) · seen ([\d ]+)", rest)
    if not m:       # (an older layout's head never reads as v4's: those patterns are compiled only to say which)
        if re.fullmatch(r"\S+ · seats .*", rest):
            rd.fail(OLD_FORMAT)
        if re.fullmatch(r"\S+ v2 · seats .*", rest):
            rd.fail(OLD_FORMAT_V2)
        if re.fullmatch(r"\S+ v3 · seats .*", rest):
            rd.fail(OLD_FORMAT_V3)
        rd.fail("expected 'deck MATCH v4 · seats A, B · clock N · seen N N'")
    seats = [_unesc(s.strip()) for s in m.group(2).split(",")]
    seen = m.group(4).split()
    if not 1 <= len(seats) <= MAX_SEATS or len(set(seats)) != len(seats) or len(seen) != len(seats):
        rd.fail("the seats must be 1 to 16 different names, with one 'seen' number each")
    deck = cls(m.group(1), seats, [])
    deck.clock = rd.int_(m.group(3), 10 ** 9, "the clock")
    deck.seen = {s: rd.int_(n, deck.clock, "a seen number (at most the clock)") for s, n in zip(seats, seen)}
    return deck


def _line_cards(deck, rd, rest, _):
    cards: list[str] = []
    for token in rest.split():
        m = re.fullmatch(r"(\d+)-(\d+)", token) if "-" in token else None
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo or len(cards) + hi - lo >= MAX_CARDS:
                rd.fail(f"the card range {token[:20]!r} is not valid")
            cards += [str(n) for n in range(lo, hi + 1)]
        else:
            cards.append(_unesc(token))
        if len(cards) > MAX_CARDS:
            rd.fail(f"a shared deck holds at most {MAX_CARDS} cards")
    deck.cards = cards


def _line_gen(deck, rd, rest, _):
    parts = [p.strip() for p in rest.split(" · ")]
    number = rd.int_(parts[0], 10 ** 4, "a generation number")
    if number != len(deck.gens) + 1 or len(parts) < 3 or not parts[-1].startswith("cards "):
        rd.fail(f"expected 'gen {len(deck.gens) + 1} · PILE IDS · … · cards N-M'")
    piles = {}
    for p in parts[1:-1]:
        name, _, ids = p.partition(" ")
        if not NAME_RE.match(name) or name in piles:
            rd.fail(f"{name[:20]!r} cannot name a pile here")
        piles[name] = rd.ids(ids)
    cards = rd.ids(parts[-1][6:], len(deck.cards))
    if len(cards) != sum(map(len, piles.values())) or not all(1 <= c for c in cards):
        rd.fail(f"generation {number} lists {len(cards)} cards for {sum(map(len, piles.values()))} slots")
    deck.gens.append(Gen(number, piles, cards))


def _line_pass(deck, rd, rest, _):
    tokens = rest.split()
    if len(tokens) not in (3, 4):
        rd.fail("expected 'pass GEN SEAT KEY [@STAMP]'")
    number = rd.int_(tokens[0], len(deck.gens), "a generation number")
    if number < 1:
        rd.fail("generations start at 1")
    gen = deck.gens[number - 1]
    seat = rd.seat(tokens[1], deck)
    key, _ = rd.element(tokens[2])
    p = Pass(seat, key)
    if len(tokens) == 4:
        p.piles, p.stamp = {}, rd.stamp(tokens[3])
    if len(gen.passes) >= len(deck.seats) or deck.seats[len(gen.passes)] != seat:
        rd.fail(f"generation {number}: the passes go in seat order, one per seat ({', '.join(deck.seats)})")
    gen.passes.append(p)


def _line_proof(deck, rd, rest, _):
    tokens = rest.split()
    if len(tokens) != 4:
        rd.fail("expected 'proof GEN SEAT PILE DIGITS'")
    number = rd.int_(tokens[0], len(deck.gens), "a generation number")
    seat = rd.seat(tokens[1], deck)
    gen = deck.gens[number - 1] if number else None
    p = next((p for p in gen.passes if p.seat == seat), None) if gen else None
    if p is None or p.piles is None or not gen.piles.get(tokens[2]):
        rd.fail(f"a shuffle proof for no pass of {seat} over a pile {tokens[2][:20]!r} of generation {number}")
    key = (number, seat, tokens[2])
    parts = rd.blobs.setdefault(key, [])
    if parts and rd.last_blob != key:
        rd.fail("the lines of one shuffle proof must follow each other")
    rd.last_blob = key
    parts.append(tokens[3])


def _attach_proofs(deck: SharedDeck, rd: _Reader) -> None:
    """Decode the shuffle proofs read (each pile's numbers after the pass, then its proof) into their passes."""
    for (number, seat, name), parts in rd.blobs.items():
        gen = deck.gens[number - 1]
        p = next(p for p in gen.passes if p.seat == seat)
        n, names = len(gen.piles[name]), _proven_piles(gen)
        try:
            raw = group.unb64("".join(parts))
            values = [raw[i:i + group.BYTES] for i in range(0, min(len(raw), n * group.BYTES), group.BYTES)]
            if len(values) != n or not all(map(group.is_member, values)):
                raise ValueError("its numbers are not points of the dealing group")
            proof = None
            if name == names[0]:
                proof = proofs.from_bytes(raw[n * group.BYTES:], sum(len(gen.piles[other]) for other in names))
            elif len(raw) != n * group.BYTES:
                raise ValueError(f"the pass's proof goes with its first pile, {names[0]}")
            p.piles[name] = (values, proof)
        except ValueError as exc:
            rd.fail(f"generation {number}: {seat}'s shuffle proof of {name} is damaged ({exc})")


def _line_pile(deck, rd, rest, _):
    name, _, ids = rest.partition(" ")
    if not NAME_RE.match(name) or name in deck.piles:
        rd.fail(f"{name[:20]!r} cannot name a pile here (or the pile is listed twice)")
    deck.piles[name] = rd.ids(ids)


def _line_hand(kind):
    def handler(deck, rd, rest, _):
        seat_no, _, ids = rest.partition(" ")
        seat = rd.seat(seat_no, deck)
        where = deck.hands if kind == "hand" else deck.aside
        if seat in where:
            rd.fail(f"{seat}'s {kind} is listed twice")
        where[seat] = rd.ids(ids)
    return handler


def _line_retired(deck, rd, rest, _):
    for token in rest.split():
        a, at, t = token.partition("@")
        if not at:
            rd.fail("expected 'retired ID@STAMP …'")
        deck.retired[rd.int_(a, MAX_SLOT_ID, "a slot number")] = rd.int_(t, 10 ** 9, "a clock stamp")


def _line_gone(deck, rd, rest, _):
    deck.gone = rd.ids(rest)


def _line_slot(deck, rd, rest, seen_ids):
    parts = [p.strip() for p in rest.split(" · ")]
    head = parts[0].split()
    if len(head) != 2:
        rd.fail("expected 'slot ID NUMBER · …'")
    sid = rd.int_(head[0], MAX_SLOT_ID, "a slot number")
    if sid in seen_ids or sid < 1:
        rd.fail(f"slot {sid} is listed twice")
    seen_ids.add(sid)
    rd.slot_lines[sid] = rd.number
    if head[1] == STANDING:
        base, base_index = None, None
        rd.standing.append(sid)
    else:
        base, base_index = rd.element(head[1], deck)
    slot = Slot(sid, base, base=base, index=base_index)
    by, indices = None, []
    for part in parts[1:]:
        tokens = part.split()
        if tokens == ["open"]:
            slot.want = "open"
        elif tokens and tokens[0] == "by" and len(tokens) == 2:
            by = [rd.seat(t, deck) for t in tokens[1].split(",")]
        elif len(tokens) in (3, 4):
            if len(slot.steps) >= MAX_STEPS:
                rd.fail(f"slot {sid} has too many unlocks")
            seat = rd.seat(tokens[0], deck)
            value, index = rd.element(tokens[1], deck)
            if len(tokens) == 3:
                rd.batched.add((sid, len(slot.steps)))
            proof = rd.proof(tokens[2]) if len(tokens) == 4 else None
            slot.steps.append(Step(seat, value, proof, rd.stamp(tokens[-1])))
            indices.append(index)
        else:
            rd.fail(f"slot {sid}: expected 'SEAT NUMBER [PROOF] @STAMP', 'by SEATS' or 'open', not {part[:30]!r}")
    if slot.steps:
        if base_index is not None or any(x is not None for x in indices[:-1]):
            rd.fail(f"slot {sid}: only its last unlock can show the card")
        slot.value, slot.index = slot.steps[-1].value, indices[-1]
    if by is not None:
        slot.opened = by
    else:
        slot.opened = [st.seat for st in slot.steps] or (list(deck.seats) if slot.index is not None else [])
    if len(set(slot.opened)) != len(slot.opened) or not {s.seat for s in slot.steps} <= set(slot.opened):
        rd.fail(f"slot {sid}: 'by' must list each seat that unlocked it once, its steps' seats included")
    if slot.index is not None:
        slot.card = deck.cards[slot.index - 1]
    deck.slots[sid] = slot


_LINES = {"cards": _line_cards, "gen": _line_gen, "pass": _line_pass, "proof": _line_proof, "pile": _line_pile,
          "hand": _line_hand("hand"), "aside": _line_hand("aside"), "retired": _line_retired, "gone": _line_gone, "slot": _line_slot}


def _check_structure(deck: SharedDeck, rd: _Reader) -> None:
    """Check the deck's parts agree: every slot in one place and one generation, face-up cards whole."""
    owner: dict[int, int] = {}
    for gen in deck.gens:
        for i in gen.slot_ids():
            if i in owner:
                rd.fail(f"slot {i} is in two generations")
            owner[i] = gen.number
        if any(c > len(deck.cards) for c in gen.cards):
            rd.fail(f"generation {gen.number} names a card the manifest does not have")
    for i, slot in deck.slots.items():
        if i not in owner:
            rd.fail(f"slot {i} belongs to no generation")
        slot.gen = owner[i]
        if slot.index is not None and set(slot.opened) != set(deck.seats):
            rd.fail(f"slot {i} shows a card but not every seat has unlocked it")
        if slot.index is None and len(slot.opened) == len(deck.seats) and slot.steps and slot.value is not None:
            rd.fail(f"slot {i} is unlocked by every seat but shows no card")
    places: dict[int, str] = {}
    where = [(f"pile {n}", ids) for n, ids in deck.piles.items()]
    where += [(f"{s}'s hand", ids) for s, ids in deck.hands.items()]
    where += [(f"{s}'s peek", ids) for s, ids in deck.aside.items()]
    where += [("retired", list(deck.retired))]
    for label, ids in where:
        for i in ids:
            if i in places:
                rd.fail(f"slot {i} is in two places ({places[i]} and {label})")
            if i not in deck.slots:
                rd.fail(f"{label} lists slot {i}, which has no slot line")
            places[i] = label
    for i in deck.gone:
        if i in deck.slots or i not in owner:
            rd.fail(f"slot {i} is listed as gone")
    for i in deck.slots:
        if i not in places:
            rd.fail(f"slot {i} is in no pile or hand")


# -- verification -----------------------------------------------------------------------------

class _Verifier:
    """Check a deck against the verifying seat's private record of it (see :meth:`SharedDeck.verify`)."""

    def __init__(self, deck: SharedDeck, prev: SharedDeck | None, keys: dict[str, dict[int, bytes]], seat: str | None):
        self.d, self.r, self.keys, self.me = deck, prev, keys, seat
        self.problems: list[str] = []
        self.owed: set[tuple[str, int, int]] = set()       # batches of unlocks to check (_slot, then _unlocks)

    def run(self) -> list[str]:
        """Return the problems found."""
        d, r = self.d, self.r
        if r is not None:
            if r.match_id != d.match_id or r.cards != d.cards:
                return ["the deck's cards are not the ones you saw (its manifest was changed)"]
            if d.seats[:len(r.seats)] != r.seats:
                return [f"the deck's seats changed from {', '.join(r.seats)} to {', '.join(d.seats)}"]
            if d.clock < r.clock or any(d.seen.get(s, 0) < n for s, n in r.seen.items()):
                self.problems.append("the deck's clock went back")
        for gen in d.gens:
            self._gen(gen)
        fresh = {g.number for g in d.gens if self._gen_new(g)}
        for slot in d.slots.values():
            self._slot(slot, fresh)
        self._unlocks()
        self._distinct()
        if r is not None:
            self._layout()
        return self.problems

    def _gen_new(self, gen: Gen) -> bool:
        r = self.r
        rg = r.gens[gen.number - 1] if r is not None and len(r.gens) >= gen.number else None
        return rg is None or len(rg.passes) < len(gen.passes) or not r.complete(rg)

    def _gen(self, gen: Gen) -> None:
        d, r = self.d, self.r
        rg = r.gens[gen.number - 1] if r is not None and len(r.gens) >= gen.number else None
        known = 0
        if rg is not None:
            if rg.piles != gen.piles or rg.cards != gen.cards:
                self.problems.append(f"generation {gen.number}'s piles or cards changed")
                return
            if [(p.seat, p.key) for p in rg.passes] != [(p.seat, p.key) for p in gen.passes[:len(rg.passes)]] or any(
                    q.piles is not None and p.piles is not None and q.outputs(gen) != p.outputs(gen)
                    for p, q in zip(gen.passes, rg.passes)):
                self.problems.append(f"generation {gen.number}: a pass you saw was changed")
                return
            known = len(rg.passes)
        keys = [p.key for p in gen.passes]
        for j, p in enumerate(gen.passes):
            mine = self.keys.get(p.seat, {}).get(gen.number)
            if mine is not None and p.key != mine:
                self.problems.append(f"generation {gen.number}: {p.seat}'s public key is not {p.seat}'s")
            elif p.key is not None and (why := group.key_problem(p.key, keys[:j] + keys[j + 1:])):
                self.problems.append(f"generation {gen.number}: {p.seat}'s public key is refused: {why}")
        if known == len(gen.passes) and (rg is None or d.complete(gen) == r.complete(rg)):
            return
        if r is None and all(p.piles is None for p in gen.passes):
            return
        if any(p.piles is None or p.key is None for p in gen.passes[known:]):
            self.problems.append(f"generation {gen.number}: a pass's proof was pruned before you checked it")
            return
        if any(i not in d.slots for i in gen.slot_ids()):
            self.problems.append(f"generation {gen.number}: slots were pruned before you checked its passes")
            return
        numbers = self._numbers_before(gen, rg, known)
        if numbers is None:
            self.problems.append(f"generation {gen.number}: a pass's proof was pruned before you checked it")
            return
        for p in gen.passes[known:]:
            numbers = self._check_pass(gen, p, numbers)
            if numbers is None:
                return
        if any(d.slots[i].base != v for i, v in numbers.items()):
            self.problems.append(f"generation {gen.number}: the numbers are not the ones {gen.passes[-1].seat}'s pass "
                                 "produced (swapped or replaced)")

    def _numbers_before(self, gen: Gen, rg: Gen | None, known: int) -> dict[int, bytes] | None:
        """Return the numbers the first pass not yet checked started from (the codes, or what you checked last)."""
        if known == 0:
            return {i: self.d.code(c) for i, c in zip(_initial_order(gen), gen.cards)}
        return rg.passes[known - 1].outputs(gen)

    def _check_pass(self, gen: Gen, p: Pass, before: dict[int, bytes]) -> dict[int, bytes] | None:
        """Check a pass's shuffle proof (one for all its piles); return the numbers after it (None: a problem noted)."""
        names = _proven_piles(gen)
        if set(p.piles) != set(names):
            self.problems.append(f"generation {gen.number}: {p.seat}'s shuffle pass does not cover every pile")
            return None
        if names:
            proof = p.piles[names[0]][1]
            ids = [i for name in names for i in gen.piles[name]]
            values = [v for name in names for v in p.piles[name][0]]
            if proof is None or not proofs.verify(p.key, [before[i] for i in ids], values, proof,
                                                  _pass_context(self.d.match_id, gen.number, p.seat, names),
                                                  tuple(len(gen.piles[name]) for name in names)):
                self.problems.append(f"generation {gen.number}: {p.seat}'s shuffle pass of {' and '.join(names)} "
                                     "carries no valid proof (its numbers are not the previous ones, each locked with "
                                     "its key and shuffled within its pile: the document was altered, or a player's "
                                     "pbd cheated)")
                return None
        return p.outputs(gen)

    def _slot(self, slot: Slot, fresh: set[int]) -> None:
        d, r = self.d, self.r
        chain = [slot.base] + [s.value for s in slot.steps]
        rs = r.slots.get(slot.id) if r is not None else None
        start = 0
        if rs is not None and slot.gen not in fresh:
            if rs.gen != slot.gen:
                self.problems.append(f"slot {slot.id} changed generation")
                return
            if rs.index is not None:
                if slot.index != rs.index:
                    self.problems.append(f"slot {slot.id} showed {rs.card}, now {slot.card or 'no card'}")
                return
            if not set(rs.opened) <= set(slot.opened):
                self.problems.append(f"slot {slot.id}: an unlock you saw is gone")
                return
            if rs.value not in chain:
                self.problems.append(f"slot {slot.id}: its number changed since you last saw it, with no proof "
                                     "(numbers swapped or replaced)")
                return
            start = chain.index(rs.value)
        elif r is not None and rs is None and slot.gen not in fresh:
            self.problems.append(f"slot {slot.id} appeared out of nowhere")
            return
        for st in slot.steps[start:]:
            if st.proof is None or st.value is None:
                self.problems.append(f"slot {slot.id}: {st.seat}'s unlock has no proof")
                return
            self.owed.add((st.seat, slot.gen, st.stamp))

    def _unlocks(self) -> None:
        """Check every batch of unlocks a step not yet checked belongs to: all its steps, with their one proof."""
        d = self.d
        for key, members in _batches(d).items():
            if key not in self.owed:
                continue
            seat, gen, _ = key
            keys = {p.seat: p.key for p in d.gens[gen - 1].passes}
            proof = members[0][0].steps[members[0][1]].proof
            if proof is not None and all(slot.steps[j].proof == proof for slot, j in members) and group.verify_batch(
                    keys.get(seat), _batch_pairs(members), proof, _unlock_context(d.match_id, members)):
                continue
            claims = "".join(f" and claims {slot.card}" if len(members) == 1 else
                             f" (slot {slot.id} claims {slot.card})"
                             for slot, j in members if j == len(slot.steps) - 1 and slot.card)
            if len(members) == 1:
                self.problems.append(f"slot {members[0][0].id}: {seat}'s unlock{claims} carries no valid proof (a "
                                     "wrong unlock or a forged proof)")
            else:
                ids = ", ".join(_ranges(slot.id for slot, _ in members).split())
                self.problems.append(f"slots {ids}: {seat}'s unlocks{claims}, proven together, carry no valid proof "
                                     "(one of them is a wrong unlock, or the proof is forged)")

    def _distinct(self) -> None:
        live = [s for s in self.d.slots.values() if s.id not in self.d.retired]
        values = [s.value for s in live if s.index is None and s.value is not None]
        if len(set(values)) != len(values):
            self.problems.append("two slots hold the same number (a duplicated card)")
        shown = [s.index for s in live if s.index is not None]
        if len(set(shown)) != len(shown):
            self.problems.append("one card is face up in two slots")

    def _layout(self) -> None:
        d, r = self.d, self.r
        for i in r.slots:
            if i not in d.slots and i not in d.gone:
                self.problems.append(f"slot {i} disappeared")
            elif i not in d.slots and i not in r.retired:
                self.problems.append(f"slot {i} was removed before you checked it")
        for name, ids in r.piles.items():
            if any(r.slots[i].want == "open" for i in ids if i in r.slots):
                continue
            still = [i for i in ids if i in d.piles.get(name, [])]
            if still != ids[len(ids) - len(still):]:
                self.problems.append(f"pile {name}: cards were taken from below the top")
        for seat in d.seats:
            for i in d.hands.get(seat, []) + d.aside.get(seat, []):
                before = r.holder(i)
                if before not in (None, seat):
                    self.problems.append(f"slot {i} moved from {before}'s hand to {seat}'s")
        if self.me is None:
            return
        for i in r.hands.get(self.me, []) + r.aside.get(self.me, []):
            slot = d.slots.get(i)
            if slot is not None and slot.want == "open" and r.slots[i].want != "open":
                self.problems.append(f"slot {i} of your hand is marked to be turned face up, which only you can do")
            elif d.holder(i) != self.me and (slot is None or slot.want != "open"):
                self.problems.append(f"slot {i} left your hand without you")


#: Every class a parsed deck holds: what a board kept by :mod:`pbd.cache` may contain of the deck.
PARSED_CLASSES = (SharedDeck, Slot, Step, Pass, Gen, Duty, ShuffleProof)
