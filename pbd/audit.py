"""Audit and replay of a match document: pure functions over a parsed match, no I/O.

* :func:`log_problems` checks the log's hash chain and numbering.
* :func:`chain_problems` checks the chain publications and the beacon every random
  event used (``@J`` tags) against the order of the log.
* :func:`derive` re-derives every draw and roll of a revealed player from their seed,
  the counters and the beacons, and checks the seed against the commitment.
* :func:`rebuild` replays the log through the game's :meth:`replay` hook with a
  :class:`ReplayChance` that hands out the re-derived cards (or hidden cards for a
  player who has not revealed), so a card played that was never drawn is caught.
* :func:`board_differences` names every difference between the rebuilt state and the
  board (field by field, and line by line).
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import re
from dataclasses import dataclass, field

from pbd import fairplay
from pbd.errors import PbdError
from pbd.games.base import Chance, LogEntry, Meta, PlayerMeta, Secrets, log_genesis, log_link, split_frame

ROLL_RE = re.compile(r"^rolls (?P<n>\d+)d(?P<sides>\d+): (?P<faces>[\d +]+?)(?: = (?P<total>\d+))?$")
REVEAL_TEXT = "revealed seed and deck list"
TAKEBACK_RE = re.compile(r"^takes back (?P<a>\d+)(?:-(?P<b>\d+))?\b")
DICE_RE = re.compile(r"^\s*(?P<n>\d*)\s*d\s*(?P<sides>\d+)\s*$", re.I)
HIDDEN = "?"


@dataclass
class Derived:
    """What a revealed player's seed says happened: the cards each entry drew, the problems found."""

    player: str
    cards: dict[int, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


# -- dice notation -----------------------------------------------------------------------

def parse_dice(text: str) -> tuple[int, int]:
    """Return ``(count, sides)`` of dice notation like ``2d6`` or ``d20``.

    :raises ValueError: not NdS, or out of range (1-100 dice of 2-1000 sides).
    """
    m = DICE_RE.match(text)
    if not m:
        raise ValueError(f"{text!r} is not dice notation like 2d6 or d20")
    n, sides = int(m.group("n") or 1), int(m.group("sides"))
    if not 1 <= n <= 100 or not 2 <= sides <= 1000:
        raise ValueError("roll 1 to 100 dice of 2 to 1000 sides")
    return n, sides


def roll_text(sides: int, faces: list[int]) -> str:
    """Return the log text of a ``pbd roll``: ``rolls 2d6: 3 + 5 = 8``."""
    body = " + ".join(map(str, faces))
    return f"rolls {len(faces)}d{sides}: {body}" + (f" = {sum(faces)}" if len(faces) > 1 else "")


# -- the log chain -------------------------------------------------------------------------

def entry_lines(text: str) -> list[int]:
    """Return the document line number of each log entry."""
    return [line.number for line in split_frame(text).log]


def log_problems(meta: Meta, lines: list[int] | None = None) -> list[str]:
    """Return every break in the log's numbering and hash chain."""
    out = []
    previous = log_genesis(meta.match_id)
    for i, e in enumerate(meta.log):
        where = f"log entry {e.number}" + (f" (line {lines[i]})" if lines and i < len(lines) else "")
        if e.number != i + 1:
            out.append(f"{where}: numbered {e.number} but it is entry {i + 1} — an entry was deleted or inserted")
        expected = log_link(previous, e)
        if not e.hash:
            out.append(f"{where}: no chain hash (expected #{expected})")
        elif e.hash != expected:
            out.append(f"{where}: hash #{e.hash} does not follow from the entry before (expected #{expected}) — "
                       f"this entry was edited, or one before it was edited, inserted or deleted")
        previous = e.hash or expected
    return out


def witness_problems(meta: Meta, sec: Secrets) -> list[str]:
    """Return a problem if the log no longer holds the entry this player's pbd last wrote."""
    seen = sec.extra.get("log")
    if not seen:
        return []
    n, digest = seen
    if len(meta.log) < n:
        return [f"{sec.player}'s pbd last wrote log entry {n} (#{digest}); the log now ends at entry {len(meta.log)}"]
    if meta.log[n - 1].hash != digest:
        return [f"{sec.player}'s pbd wrote log entry {n} with hash #{digest}; the log now has "
                f"#{meta.log[n - 1].hash or 'none'} there — the log was rewritten"]
    return []


# -- chain values and beacons -------------------------------------------------------------

def _opponent(meta: Meta, name: str) -> PlayerMeta | None:
    return next((p for p in meta.fairplay if p.name.casefold() != name.casefold()), None)


def chain_at(meta: Meta, name: str, k: int) -> str | None:
    """Return the chain value number ``k`` of player ``name`` (None if it cannot be known).

    From the revealed seed if there is one, else by hashing the latest published value
    back (value k-1 is the SHA-256 of value k).
    """
    pub = meta.player(name)
    if pub is None or k > pub.chain_index or k < 0:
        return None
    reveal = meta.revealed_by(name)
    if reveal:
        return fairplay.chain_value(bytes.fromhex(reveal.seed), fairplay.CHAIN_LENGTH - k)
    value = bytes.fromhex(pub.chain)
    for _ in range(pub.chain_index - k):
        value = hashlib.sha256(value).digest()
    return value.hex()


def chain_problems(meta: Meta) -> list[str]:
    """Return every chain publication out of order and every event with the wrong beacon."""
    out = []
    names = [p.name for p in meta.fairplay]
    published = {n: 0 for n in names}
    seated: set[str] = set()
    counters = {n: 0 for n in names}
    for e in meta.log:
        seated.add(e.player)
        before = dict(published)
        for name, k in e.published.items():
            if name not in published:
                out.append(f"log entry {e.number}: chain value {k} published by {name}, who is not in Fair play")
                continue
            if k != published[name] + 1:
                out.append(f"log entry {e.number}: {name} published chain value {k} after {published[name]}")
            published[name] = k
        for ev in e.events:
            if ev.player not in counters:
                out.append(f"log entry {e.number}: a random event of {ev.player}, who is not in Fair play")
                continue
            if ev.counter != counters[ev.player]:
                out.append(f"log entry {e.number}: {ev.player}'s random event {ev.counter} where "
                           f"{counters[ev.player]} was next — events were skipped, repeated or deleted")
            counters[ev.player] = ev.counter + 1
            opp = _opponent(meta, ev.player)
            if opp is None or opp.name not in seated:
                if ev.beacon is not None:
                    out.append(f"log entry {e.number}: {ev.player}'s event {ev.counter} names a beacon before "
                               f"the opponent was seated")
            elif ev.beacon not in (before[opp.name], published[opp.name]):
                out.append(f"log entry {e.number}: {ev.player}'s event {ev.counter} used {opp.name}'s chain value "
                           f"{'-' if ev.beacon is None else ev.beacon}, but the latest published was "
                           f"{published[opp.name]}")
    for p in meta.fairplay:
        if published.get(p.name, 0) != p.chain_index:
            out.append(f"Fair play: {p.name} shows chain value {p.chain_index}, the log records "
                       f"{published.get(p.name, 0)} publications")
        if counters.get(p.name, 0) != p.draws:
            out.append(f"Fair play: {p.name} shows {p.draws} draws, the log records {counters.get(p.name, 0)}")
    return out


def _beacon(meta: Meta, player: str, index: int | None) -> str | None:
    if index is None:
        return ""
    opp = _opponent(meta, player)
    return chain_at(meta, opp.name, index) if opp else None


def derive(meta: Meta, name: str, drawable: list[str]) -> Derived:
    """Re-derive every random event of revealed player ``name`` and check the reveal.

    ``drawable`` is the part of the revealed list that draws come from (a game may
    commit to more, like C&C's Porter line).
    """
    reveal, pub = meta.revealed_by(name), meta.player(name)
    out = Derived(pub.name if pub else name)
    seed = bytes.fromhex(reveal.seed)
    if fairplay.commitment(seed, reveal.deck) != pub.commitment:
        out.problems.append(f"{pub.name}'s revealed seed and deck list do not match the commitment "
                            f"{pub.commitment[:12]}… — the seed or the deck list (its order) was changed")
    expected = fairplay.chain_value(seed, fairplay.CHAIN_LENGTH - pub.chain_index)
    if pub.chain and expected != pub.chain:
        out.problems.append(f"{pub.name}'s published chain value {pub.chain_index} does not come from the "
                            f"revealed seed")
    remaining = list(range(1, len(drawable) + 1))
    for e in meta.log:
        for ev in e.events:
            if ev.player != out.player:
                continue
            beacon = _beacon(meta, ev.player, ev.beacon)
            if beacon is None:
                out.problems.append(f"log entry {e.number}: {ev.player}'s event {ev.counter} used a chain value "
                                    f"{ev.beacon} that was never published")
                beacon = ""
            if ev.sides:
                face = fairplay.roll(seed, ev.counter, beacon, ev.sides)
                if face != ev.face:
                    out.problems.append(f"log entry {e.number}: {ev.player}'s d{ev.sides} roll (event "
                                        f"{ev.counter}) shows {ev.face}; the seed gives {face}")
            elif not remaining:
                out.problems.append(f"log entry {e.number}: {ev.player} drew from an empty deck")
            else:
                pos = fairplay.draw(seed, ev.counter, beacon, remaining)
                remaining.remove(pos)
                out.cards.setdefault(e.number, []).append(drawable[pos - 1])
    return out


# -- replay -----------------------------------------------------------------------------------

class ReplayChance(Chance):
    """Chance that replays the random events a log entry records.

    Draws give the re-derived cards of revealed players and hidden cards (``?``) of the
    others; rolls give the logged faces (public from the start).  Asking for more events
    than the entry records is a problem (noted in :attr:`problems`).
    """

    def __init__(self, meta: Meta, derived: dict[str, Derived]):
        super().__init__(meta, {})
        self.derived = derived
        self.entry: LogEntry | None = None
        self.queue: list = []
        self.problems: list[str] = []

    def start(self, entry: LogEntry, actor_secrets: Secrets | None) -> None:
        """Begin replaying ``entry`` (its events are handed out in order)."""
        self.entry = entry
        self.queue = list(entry.events)
        self.cards = {name: list(d.cards.get(entry.number, [])) for name, d in self.derived.items()}
        # the acting player's pbd held their secrets (a stand-in seed: published values are
        # taken from the log afterwards)
        self.secrets = {entry.player.casefold(): actor_secrets or Secrets(
            self.meta.match_id, entry.player, self.meta.game, bytes(32), [])}

    def _next(self, player: str, sides: int):
        for i, ev in enumerate(self.queue):
            if ev.player.casefold() == player.casefold() and bool(ev.sides) == bool(sides):
                return self.queue.pop(i)
        what = f"a d{sides} roll" if sides else "a draw"
        self.problems.append(f"log entry {self.entry.number}: the move makes {what} for {player} that the log "
                             f"does not record")
        return None

    def _advance(self, player: str, ev) -> None:
        pub = self.meta.player(player)
        if pub:
            pub.draws += 1
        if ev is not None:
            self.meta.pending_events.append(copy.copy(ev))

    def draw(self, player: str, n: int = 1) -> list[str]:
        out = []
        for _ in range(n):
            ev = self._next(player, 0)
            self._advance(player, ev)
            pub = self.meta.player(player)
            queue = self.cards.get(pub.name if pub else player)
            out.append(queue.pop(0) if queue else HIDDEN)
        return out

    def roll(self, player: str, sides: int = 6) -> int:
        ev = self._next(player, sides)
        self._advance(player, ev)
        return ev.face if ev is not None else 1

    def publish(self, player: str) -> None:
        pub = self.meta.player(player)
        if pub is not None:
            pub.chain_index += 1


@dataclass
class Rebuilt:
    """The outcome of replaying a log: the state it leads to and every problem met."""

    state: object
    problems: list[str]
    complete: bool


def _seat_meta(board_meta: Meta, meta: Meta, name: str) -> None:
    pub = board_meta.player(name)
    if pub is None or meta.player(name) is not None:
        return
    head = chain_at(board_meta, pub.name, 0) or pub.chain
    meta.fairplay.append(PlayerMeta(pub.name, pub.commitment, head, 0, 0))


def rebuild(game, board, derived: dict[str, Derived]) -> Rebuilt:
    """Replay the board's log from the start through ``game.replay``; return the state it gives.

    Every entry is checked: the replayed move must be legal (a revealed player can only
    play cards they drew), and must write the same log line as the document has.
    """
    board_meta = board.meta
    meta = Meta(board_meta.game, board_meta.match_id)
    chance = ReplayChance(meta, derived)
    problems: list[str] = []
    state = None
    before: dict[int, object] = {}
    seated = {n.casefold() for n in game.player_names(board)}
    for i, entry in enumerate(board_meta.log):
        if entry.player.casefold() not in seated:
            problems.append(f"log entry {entry.number} is by {entry.player[:40]!r}, who is not playing in this match")
            return Rebuilt(state, problems + chance.problems, False)
        _seat_meta(board_meta, meta, entry.player)
        for name in entry.published:
            _seat_meta(board_meta, meta, name)
        before[entry.number] = copy.deepcopy(state) if state is not None else None
        meta.log = list(board_meta.log[:i])
        meta.pending_events = []
        meta.published = {p.name: p.chain_index for p in meta.fairplay}
        saved = copy.deepcopy((state, meta.fairplay))
        chance.start(entry, None)
        try:
            state = _replay_entry(game, state, entry, chance, board, before, strict=True)
        except PbdError as exc:
            problems.append(f"log entry {entry.number}: {entry.player}: {entry.text} — {exc.message}")
            state, meta.fairplay = copy.deepcopy(saved)
            if state is not None:
                state.meta = meta
            meta.log = list(board_meta.log[:i])
            meta.pending_events = []
            chance.start(entry, None)
            try:
                state = _replay_entry(game, state, entry, chance, board, before, strict=False)
            except PbdError as exc2:
                problems.append(f"log entry {entry.number}: cannot replay past this entry ({exc2.message})")
                return Rebuilt(state, problems + chance.problems, False)
        written = meta.log[i:]
        if len(written) != 1 or written[0].line() != entry.line():
            got = " / ".join(w.line() for w in written) or "nothing"
            problems.append(f"log entry {entry.number}: the log says '{entry.line()}', replaying the move gives "
                            f"'{got}'")
        if chance.queue:
            problems.append(f"log entry {entry.number}: records random events the move does not make")
        for name, k in entry.published.items():
            pub = meta.player(name)
            if pub is not None:
                pub.chain_index = k
                pub.chain = chain_at(board_meta, name, k) or pub.chain
    meta.log = list(board_meta.log)
    return Rebuilt(state, problems + chance.problems, True)


def _replay_entry(game, state, entry, chance, board, before, strict):
    meta = chance.meta
    text = entry.text
    if text == REVEAL_TEXT:
        meta.record(entry.player, text)
        return state
    if m := ROLL_RE.match(text):
        faces = [chance.roll(entry.player, int(m.group("sides"))) for _ in range(int(m.group("n")))]
        meta.record(entry.player, roll_text(int(m.group("sides")), faces))
        return state
    if m := TAKEBACK_RE.match(text):
        first = int(m.group("a"))
        restored = before.get(first)
        if restored is None:
            raise PbdError(f"a take-back of entry {first}, which cannot be taken back")
        state = copy.deepcopy(restored)
        state.meta = meta
        meta.record(entry.player, text)
        return state
    return game.replay(state, entry, chance, board, strict)


def board_differences(game, rebuilt_state, board) -> list[str]:
    """Return every difference between the state the log gives and the board, by field."""
    want, have = game.describe(rebuilt_state), game.describe(board)
    want.pop("log", None)
    have.pop("log", None)
    out: list[str] = []
    _diff("", want, have, out)
    return out


def _diff(path: str, want, have, out: list[str]) -> None:
    if isinstance(want, dict) and isinstance(have, dict):
        for k in dict.fromkeys([*want, *have]):
            _diff(f"{path}.{k}" if path else str(k), want.get(k), have.get(k), out)
    elif isinstance(want, list) and isinstance(have, list) and all(isinstance(x, dict) for x in want + have) \
            and len(want) == len(have):
        for i, (w, h) in enumerate(zip(want, have)):
            _diff(f"{path}[{i}]", w, h, out)
    elif want != have:
        out.append(f"{path}: the board shows {have!r}, the log gives {want!r}")


def line_differences(game, rebuilt_state, board, text: str) -> list[str]:
    """Return the document lines that differ from the board the log gives, with line numbers."""
    rebuilt_state.meta = board.meta
    ours = game.render(rebuilt_state).split("\n")
    theirs = text.split("\n")
    out = []
    matcher = difflib.SequenceMatcher(a=theirs, b=ours, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(a1 - a0, b1 - b0)):
            have = theirs[a0 + k] if a0 + k < a1 else None
            want = ours[b0 + k] if b0 + k < b1 else None
            if have is not None and want is not None:
                out.append(f"line {a0 + k + 1}: {have!r} — the log gives {want!r}")
            elif have is not None:
                out.append(f"line {a0 + k + 1}: {have!r} — the log gives no such line")
            else:
                out.append(f"line {a0 + 1}: missing {want!r}")
    return out
