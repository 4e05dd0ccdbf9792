"""Secret simultaneous choice: every seat commits to a hidden card of its hand, then all reveal.

A seat's pbd writes ``commit(seat, slot, nonce, match)`` — a SHA-256 hash of the match, the
seat, the chosen hand slot and a 128-bit nonce derived from the seat's seed — into the
document.  Nobody reveals before every seat has committed (:meth:`Choices.all_committed`);
then each seat's pbd publishes its slot and nonce on its next command, and every pbd checks
each reveal against its commitment and that the slot was in that seat's hand when it
committed (:meth:`Choices.check`).  A hash commitment hides the choice (the nonce is secret
and long) and binds it (another slot would need a SHA-256 collision).

A single seat's face-down card (:func:`face_down`) is the same commitment made by one move
and opened by a later entry of the same seat: the move's log entry carries
``(commitment HEX)``, the opening's ``CARD (slot N · nonce HEX)``.  A replay of the log, which
holds no one's private state, takes the slot and nonce from that opening (:func:`opening`).

What it does not protect against: a seat that never reveals stalls the choice (the game
decides what a stall means); the revealed slot is then turned face up through the shared
deck (:meth:`pbd.table.deck.SharedDeck.reveal`), whose proof shows the card.
"""

from __future__ import annotations

import re

from pbd.digest import sha256
from pbd.errors import DocumentFormatError
from pbd.fairplay import hmac_sha256
from pbd.record import Record
from pbd.regex import pattern

HEX_RE = pattern(r"^[0-9a-f]{64}$")
NONCE_RE = pattern(r"^[0-9a-f]{32}$")
#: how a log entry carries a face-down commitment
COMMITMENT_RE = pattern(r"\(commitment (?P<commitment>[0-9a-f]{64})\)")
#: how a log entry opens one: the game's words (ending with the card), its hand slot and the nonce
OPENING_RE = pattern(r"(?:^|; | — )(?P<card>[^;()]+?) \(slot (?P<slot>\d{1,6}) · nonce (?P<nonce>[0-9a-f]{32})\)")


def nonce(seed: bytes, match: str, label: str) -> str:
    """Return the secret nonce (32 hex digits) a seat uses for the choice ``label``, derived from its seed."""
    return hmac_sha256(seed, f"pbd-table-choice|{match}|{label}".encode()).hex()[:32]


def commit(seat: str, slot: int, nonce: str, match: str = "") -> str:
    """Return the commitment ``H(match|seat|slot|nonce)`` as 64 hex digits."""
    return sha256(f"pbd-table-commit|{match}|{seat}|{slot}|{nonce}".encode()).hexdigest()


def open_(seat: str, commitment: str, slot: int, nonce: str, hand=None, match: str = "") -> bool:
    """Return True if ``slot`` and ``nonce`` open ``commitment`` and ``slot`` is in ``hand`` (when given).

    Every value compared is public once the opening is written, so a plain comparison leaks nothing.
    """
    if commit(seat, slot, nonce, match) != commitment:
        return False
    return hand is None or slot in hand


class FaceDown(Record):
    """One seat's face-down card: the hand slot, the nonce and the commitment (and, opened in the log, the
    words that open it, which end with the card: ``flips Old Mill``)."""

    FIELDS = ("slot", "nonce", "commitment", "card")

    def __init__(self, slot: int | None, nonce: str, commitment: str, card: str = ""):
        self.slot, self.nonce, self.commitment, self.card = slot, nonce, commitment, card


def face_down(chance, match: str, seat: str, slot: int | None, hand: list[int]) -> FaceDown:
    """Commit ``seat`` to its face-down hand card in ``slot``, with a fresh 128-bit nonce; return it.

    The move's log entry must carry ``(commitment HEX)`` and a later entry of ``seat`` open it
    (``CARD (slot N · nonce HEX)``).  Replaying the log (``chance.replaying``), the slot and
    nonce are those of ``seat``'s next opening in the log: a card changed after the move then
    shows as another commitment (the caller refuses a slot not in ``hand``).  With no opening
    logged yet (revealed in the middle of a battle) the commitment the entry carries stands,
    on ``slot`` or the first of ``hand``.
    """
    if not getattr(chance, "replaying", False):
        import os

        nonce = os.urandom(16).hex()        # what secrets.token_hex(16) is, without importing hmac and OpenSSL
        return FaceDown(slot, nonce, commit(seat, slot, nonce, match))
    opened = opening(chance, seat, after=True)
    if opened is not None:
        return opened
    m = COMMITMENT_RE.search(chance.entry.text) if chance.entry is not None else None
    return FaceDown(slot if slot is not None else (hand[0] if hand else None), "", m.group(1) if m else "")


def opening(chance, seat: str, after: bool = False) -> FaceDown | None:
    """Return, replaying the log, ``seat``'s next opening of a face-down card: in the entry being replayed
    or a later one (``after``: only a later one).  None live, or when the log opens none."""
    if not getattr(chance, "replaying", False) or chance.entry is None:
        return None
    first = chance.entry.number + (1 if after else 0)
    for e in getattr(chance, "ahead", ()):
        m = OPENING_RE.search(e.text) if e.number >= first and e.player == seat else None
        if m:
            slot, nonce = int(m.group("slot")), m.group("nonce")
            return FaceDown(slot, nonce, commit(seat, slot, nonce, chance.meta.match_id), m.group("card").strip())
    return None


class Choices(Record):
    """One simultaneous choice: the seats that choose, their commitments, their reveals."""

    label: str
    seats: list[str]
    commitments: dict[str, str]
    hands: dict[str, list[int]]                                    # each hand when its seat committed
    reveals: dict[str, tuple[int, str]]

    FIELDS = ("label", "seats", "commitments", "hands", "reveals")

    def __init__(self, label: str, seats: list[str], commitments: dict[str, str] | None = None,
                 hands: dict[str, list[int]] | None = None, reveals: dict[str, tuple[int, str]] | None = None):
        self.label = label
        self.seats = seats
        self.commitments = {} if commitments is None else commitments
        self.hands = {} if hands is None else hands
        self.reveals = {} if reveals is None else reveals

    def choose(self, seat: str, slot: int, hand: list[int], seed: bytes, match: str) -> str:
        """Commit ``seat`` to ``slot`` of its ``hand``; return the commitment.

        :raises ValueError: the slot is not in the hand, or the seat chose already.
        """
        if seat not in self.seats or seat in self.commitments:
            raise ValueError(f"{seat} has no choice to make here")
        if slot not in hand:
            raise ValueError(f"slot {slot} is not in {seat}'s hand")
        self.commitments[seat] = commit(seat, slot, nonce(seed, match, self.label), match)
        self.hands[seat] = list(hand)
        return self.commitments[seat]

    def all_committed(self) -> bool:
        """Return True once every seat has committed."""
        return all(s in self.commitments for s in self.seats)

    def waiting_on(self) -> list[str]:
        """Return the seats still to commit, or (once all have) still to reveal."""
        if not self.all_committed():
            return [s for s in self.seats if s not in self.commitments]
        return [s for s in self.seats if s not in self.reveals]

    def reveal(self, seat: str, slot: int, seed: bytes, match: str) -> None:
        """Publish ``seat``'s choice (its pbd does this on its next command once all have committed).

        :raises ValueError: not everyone has committed yet, or the choice does not open the commitment.
        """
        if not self.all_committed():
            raise ValueError(f"waiting for {', '.join(self.waiting_on())} to choose: nobody reveals before all have")
        n = nonce(seed, match, self.label)
        if not open_(seat, self.commitments[seat], slot, n, self.hands.get(seat), match):
            raise ValueError(f"slot {slot} is not what {seat} committed to")
        self.reveals[seat] = (slot, n)

    def check(self, match: str) -> list[str]:
        """Return every reveal that does not open its commitment, or names a slot not in that hand."""
        out = []
        if self.reveals and not self.all_committed():
            out.append("a choice was revealed before every seat had committed")
        for seat, (slot, n) in self.reveals.items():
            if seat not in self.commitments:
                out.append(f"{seat} revealed a choice without committing to one")
            elif not open_(seat, self.commitments[seat], slot, n, None, match):
                out.append(f"{seat}'s revealed choice (slot {slot}) does not match {seat}'s commitment")
            elif slot not in self.hands.get(seat, []):
                out.append(f"{seat}'s revealed choice (slot {slot}) was not in {seat}'s hand")
        return out

    def chosen(self) -> dict[str, int]:
        """Return the revealed slot of each seat that has revealed."""
        return {s: slot for s, (slot, _) in self.reveals.items()}

    # -- the document -----------------------------------------------------------------

    def render(self) -> list[str]:
        """Return the choice's document lines: one per seat (commitment, hand, reveal)."""
        out = [f"  choice {self.label} · " + ", ".join(self.seats)]
        for s in self.seats:
            if s in self.commitments:
                hand = " ".join(map(str, self.hands.get(s, [])))
                tail = f" · slot {self.reveals[s][0]} nonce {self.reveals[s][1]}" if s in self.reveals else ""
                out.append(f"  {s}: {self.commitments[s]} · hand {hand}{tail}")
        return out

    @classmethod
    def parse(cls, lines) -> Choices:
        """Return the choice written in ``lines`` (strings, or objects with ``number`` and ``text``).

        :raises DocumentFormatError: naming the line and what was expected.
        """
        choice = None
        for i, raw in enumerate(lines, 1):
            number, text = (raw.number, raw.text) if hasattr(raw, "text") else (i, raw)
            text = text.strip()
            if choice is None:
                m = re.fullmatch(r"choice (\S{1,40}) · (.{1,800})", text)
                if not m:
                    raise DocumentFormatError("expected 'choice LABEL · SEAT, SEAT'", line=number)
                choice = cls(m.group(1), [s.strip() for s in m.group(2).split(",")][:16])
                continue
            m = re.fullmatch(r"(.{1,60}?): ([0-9a-f]{64}) · hand ([\d ]{0,2000}?)(?: · slot (\d{1,6}) nonce ([0-9a-f]{32}))?",
                             text)
            if not m or m.group(1) not in choice.seats:
                raise DocumentFormatError("expected 'SEAT: <64 hex> · hand SLOTS [· slot N nonce <32 hex>]'",
                                          line=number)
            seat = m.group(1)
            choice.commitments[seat] = m.group(2)
            choice.hands[seat] = [int(x) for x in m.group(3).split()]
            if m.group(4):
                choice.reveals[seat] = (int(m.group(4)), m.group(5))
        if choice is None:
            raise DocumentFormatError("a secret choice section is empty")
        return choice
