"""Audit and replay of a match document: pure functions over a parsed match, no I/O.

* :func:`log_problems` checks the log's hash chain, its numbering and the seal of the
  sections pbd writes.
* :func:`chain_problems` checks the commitments and chain heads the log carries against the
  Fair play section, every chain publication, and the beacon every random event used
  (``@J`` tags) against the order of the log.
* :func:`reveal_problems` checks that every logged reveal is still in the Revealed section.
* :func:`derive` re-derives every draw and roll of a revealed player from their seed, the
  counters and the beacons, checks the seed against the commitment and the chains, and
  checks the MAC of every log entry they wrote.
* :func:`rebuild` replays the log through the game's :meth:`replay` hook with a
  :class:`ReplayChance` that hands out the re-derived cards (or hidden cards for a
  player who has not revealed), so a card played that was never drawn is caught.
* :func:`board_differences` names every difference between the rebuilt state and the
  board (field by field, and line by line).
"""

from __future__ import annotations

import re

from pbd import fairplay
from pbd.errors import PbdError
from pbd.games.base import (REVEAL_TEXT, Chance, LogEntry, Meta, PlayerMeta, Secrets, log_genesis, log_link,
                            split_frame)
from pbd.record import Record
from pbd.regex import pattern

ROLL_RE = pattern(r"^rolls (?P<dice>[\w\[\],+]+): (?P<faces>[\d +]+?)(?: = (?P<total>\d+))?$")
TAKEBACK_RE = pattern(r"^takes back (?P<a>\d+)(?:-(?P<b>\d+))?\b")
DICE_RE = pattern(r"^(?P<n>\d*)d(?:(?P<sides>\d+)|\[(?P<faces>\d+(?:,\d+)*)\])$")
HIDDEN = "?"
OLD_LOG = ("this match's log was written by an older pbd (8-digit hashes, no commitments in the log, "
           "no writer MACs): this pbd cannot carry it on or audit it")


class Derived(Record):
    """What a revealed player's seed says happened: the cards each entry drew, the problems found."""

    FIELDS = ("player", "cards", "problems")

    def __init__(self, player: str, cards: dict[int, list[str]] | None = None, problems: list[str] | None = None):
        self.player = player
        self.cards = {} if cards is None else cards
        self.problems = [] if problems is None else problems


# -- dice notation -----------------------------------------------------------------------

def parse_dice(text: str) -> list[tuple[int, ...]]:
    """Return the faces of each die of dice notation: ``2d6``, ``d20``, ``d[1,3,4,5,6,8]``, ``d6+d[...]``.

    :raises ValueError: not dice notation, or out of range (1-100 dice of 2-1000 faces).
    """
    dice: list[tuple[int, ...]] = []
    for group in re.sub(r"\s+", "", text.lower()).split("+"):
        m = DICE_RE.match(group)
        if not m:
            raise ValueError(f"{text!r} is not dice notation like 2d6, d20 or d[1,3,4,5,6,8]")
        n = int(m.group("n") or 1)
        faces = (tuple(range(1, int(m.group("sides")) + 1)) if m.group("sides")
                 else tuple(int(f) for f in m.group("faces").split(",")))
        if not 1 <= n <= 100 or not 2 <= len(faces) <= 1000 or max(faces) > 10 ** 6:
            raise ValueError("roll 1 to 100 dice of 2 to 1000 faces")
        dice += [faces] * n
    if len(dice) > 100:
        raise ValueError("roll 1 to 100 dice of 2 to 1000 faces")
    return dice


def dice_text(dice: list[tuple[int, ...]]) -> str:
    """Return dice as written in the log: ``2d6``, ``1d[1,3,4,5,6,8]``, ``1d6+1d[...]``."""
    groups: list[list] = []
    for faces in dice:
        if groups and groups[-1][1] == faces:
            groups[-1][0] += 1
        else:
            groups.append([1, faces])
    return "+".join(f"{n}d{len(f)}" if f == tuple(range(1, len(f) + 1)) else f"{n}d[{','.join(map(str, f))}]"
                    for n, f in groups)


def roll_text(dice: list[tuple[int, ...]], faces: list[int]) -> str:
    """Return the log text of a ``pbd roll``: ``rolls 2d6: 3 + 5 = 8``."""
    body = " + ".join(map(str, faces))
    return f"rolls {dice_text(dice)}: {body}" + (f" = {sum(faces)}" if len(faces) > 1 else "")


# -- the log chain -------------------------------------------------------------------------

def entry_lines(text: str) -> list[int]:
    """Return the document line number of each log entry."""
    return [line.number for line in split_frame(text).log]


def log_problems(meta: Meta, lines: list[int] | None = None, sections: list[str] | None = None) -> list[str]:
    """Return every break in the log's numbering and hash chain, and a seal the sections no longer match.

    ``sections`` are the lines the last entry's seal covers (see :meth:`Meta.section_lines`).
    """
    if meta.version < 2:
        return [OLD_LOG]
    out = []
    previous = log_genesis(meta.match_id)
    for i, e in enumerate(meta.log):
        where = f"log entry {e.number}" + (f" (line {lines[i]})" if lines and i < len(lines) else "")
        if e.number != i + 1:
            out.append(f"{where}: numbered {e.number} but it is entry {i + 1} — an entry was deleted or inserted")
        expected = log_link(previous, e)
        if not e.hash:
            out.append(f"{where}: no chain hash (expected #{expected[:12]}…)")
        elif e.hash != expected:
            out.append(f"{where}: hash #{e.hash[:12]}… does not follow from the entry before (expected "
                       f"#{expected[:12]}…) — this entry was edited, or one before it was edited, inserted or deleted")
        if not e.seal:
            out.append(f"{where}: no seal")
        previous = e.hash or expected
    if sections is not None and meta.log and meta.log[-1].seal and meta.log[-1].seal != fairplay.seal(sections):
        out.append(f"the Fair play, Revealed or deal lines are not as log entry {meta.log[-1].number} left them "
                   f"(its seal {meta.log[-1].seal} covers them) — they were edited by hand")
    return out


def sections(game, state) -> list[str]:
    """Return the lines the seal of the last log entry covers: Fair play, Revealed, the game's sealed lines."""
    return [*state.meta.section_lines(), *game.sealed_lines(state)]


def reveal_problems(meta: Meta) -> list[str]:
    """Return a problem for every logged reveal missing from the Revealed section, and every unlogged one."""
    out = []
    logged = {e.player.casefold(): e for e in meta.log if e.text == REVEAL_TEXT}
    for key, e in logged.items():
        if meta.revealed_by(e.player) is None:
            out.append(f"log entry {e.number}: {e.player} revealed their seed and deck list, but the Revealed "
                       f"section no longer has them — it was deleted")
    for r in meta.revealed:
        if r.name.casefold() not in logged:
            out.append(f"Revealed: {r.name}'s seed is there but no log entry records the reveal")
    return out


# -- chain values and beacons -------------------------------------------------------------

def chain_at(meta: Meta, name: str, k: int) -> str | None:
    """Return the chain value number ``k`` of player ``name`` (None if it cannot be known).

    From the revealed seed if there is one, else by hashing the latest published value
    back within its chain (value k-1 is the SHA-256 of value k), or the head the log carries.
    """
    pub = meta.player(name)
    if pub is None or k > pub.chain_index or k < 0:
        return None
    reveal = meta.revealed_by(name)
    if reveal:
        return fairplay.published_value(bytes.fromhex(reveal.seed), k)
    g = fairplay.generation(pub.chain_index)
    if k == 0 and g > 0:
        return meta.heads(name).get(0)
    if fairplay.generation(k) != g and k > 0:
        return None
    return fairplay.hash_back(pub.chain, pub.chain_index - k)


def commit_problems(meta: Meta) -> list[str]:
    """Return every seat whose commitment or chain head in Fair play is not the one its log entry carries."""
    out = []
    for p in meta.fairplay:
        entry = meta.commit_entry(p.name)
        if entry is None:
            out.append(f"Fair play: {p.name} has no log entry carrying their commitment and chain head")
            continue
        if entry.commit[0] != p.commitment:
            out.append(f"Fair play: {p.name}'s commitment is not the one log entry {entry.number} carries — "
                       f"it was changed")
        g = fairplay.generation(p.chain_index)
        head = meta.heads(p.name).get(g)
        if head is None:
            out.append(f"Fair play: {p.name}'s chain value {p.chain_index} belongs to a chain whose head the log "
                       f"never published")
        elif not fairplay.chain_reaches(p.chain, p.chain_index - g * fairplay.CHAIN_LENGTH, head):
            out.append(f"Fair play: {p.name}'s chain value {p.chain_index} does not hash back to the chain head "
                       f"the log carries — it was changed")
    return out


def chain_problems(meta: Meta) -> list[str]:
    """Return every chain publication out of order and every event with the wrong counter or beacon."""
    out = commit_problems(meta)
    names = [p.name for p in meta.fairplay]
    walk = _Walk({n: 0 for n in names}, {(n, k): 0 for n in names for k in fairplay.KINDS})
    for e in meta.log:
        if e.commit and e.player in walk.published and e.player not in walk.committed:
            walk.committed[e.player] = e.number
        before = dict(walk.published)
        for name, k in e.published.items():
            if name not in walk.published:
                out.append(f"log entry {e.number}: chain value {k} published by {name}, who is not in Fair play")
                continue
            if k != walk.published[name] + 1:
                out.append(f"log entry {e.number}: {name} published chain value {k} after {walk.published[name]}")
            if fairplay.ends_generation(k) != (name in e.heads):
                out.append(f"log entry {e.number}: {name}'s chain value {k} " + (
                    "ends a chain but no next head goes with it" if fairplay.ends_generation(k)
                    else "carries a next head in the middle of a chain"))
            walk.published[name] = k
            walk.at[(name, k)] = e.number
        for ev in e.events:
            out += _event_problems(e, ev, walk, before)
    for p in meta.fairplay:
        if walk.published.get(p.name, 0) != p.chain_index:
            out.append(f"Fair play: {p.name} shows chain value {p.chain_index}, the log records "
                       f"{walk.published.get(p.name, 0)} publications")
        for kind, word in (("draw", "draws"), ("roll", "rolls"), ("free", "free rolls")):
            if walk.counters.get((p.name, kind), 0) != p.count(kind):
                out.append(f"Fair play: {p.name} shows {p.count(kind)} {word}, the log records "
                           f"{walk.counters.get((p.name, kind), 0)}")
    return out


class _Walk:
    """What a walk through the log has seen so far: publications, counters, commitments.

    ``committed``: seat -> entry number of its commitment; ``at``: (seat, value number) -> entry number.
    """

    def __init__(self, published: dict[str, int], counters: dict[tuple[str, str], int]):
        self.published, self.counters = published, counters
        self.committed: dict[str, int] = {}
        self.at: dict[tuple[str, int], int] = {}


def _event_problems(e: LogEntry, ev, walk: _Walk, before: dict[str, int]) -> list[str]:
    key = (ev.player, ev.kind)
    if key not in walk.counters:
        return [f"log entry {e.number}: a random event of {ev.player}, who is not in Fair play"]
    out = []
    what = {"draw": "draw", "roll": "roll", "free": "free roll"}[ev.kind]
    if ev.counter != walk.counters[key]:
        out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} where {walk.counters[key]} was next — "
                   f"events were skipped, repeated or deleted")
    walk.counters[key] = ev.counter + 1
    others = [n for n in walk.committed if n != ev.player]
    if ev.player not in walk.committed or len(ev.beacon) != len(others) or not others:
        return out + [f"log entry {e.number}: {ev.player}'s {what} {ev.counter} names chain values of "
                      f"{len(ev.beacon)} other seat(s); {len(others)} had committed"]
    mine = walk.committed[ev.player]
    for name, j in zip(others, ev.beacon):
        if j not in (before[name], walk.published[name]):
            out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} used {name}'s chain value {j}, "
                       f"but the latest published was {walk.published[name]}")
        elif (walk.committed[name] if j == 0 else walk.at.get((name, j), 0)) <= mine:
            out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} used {name}'s chain value {j}, "
                       f"published before {ev.player} committed (so {ev.player} could choose a seed knowing it)")
    return out


def _beacon(meta: Meta, player: str, beacon: tuple[int, ...]) -> str | None:
    others = [p for p in meta.fairplay if p.name.casefold() != player.casefold()][:len(beacon)]
    values = [chain_at(meta, p.name, j) for p, j in zip(others, beacon)]
    if any(v is None for v in values):
        return None
    return fairplay.beacon_text([(p.name, j, v) for p, j, v in zip(others, beacon, values)])


def derive(meta: Meta, name: str, drawable: list[str]) -> Derived:
    """Re-derive every random event of revealed player ``name`` and check the reveal.

    ``drawable`` is the part of the revealed list that draws come from (a game may
    commit to more, like C&C's Porter line).  Also checks the seed against the
    commitment, the chain heads and values, and the MAC of every entry the player wrote.
    """
    reveal, pub = meta.revealed_by(name), meta.player(name)
    out = Derived(pub.name if pub else name)
    seed = bytes.fromhex(reveal.seed)
    if fairplay.commitment(seed, reveal.deck) != pub.commitment:
        out.problems.append(f"{pub.name}'s revealed seed and deck list do not match the commitment "
                            f"{pub.commitment[:12]}… — the seed or the deck list (its order) was changed")
    if pub.chain and fairplay.published_value(seed, pub.chain_index) != pub.chain:
        out.problems.append(f"{pub.name}'s published chain value {pub.chain_index} does not come from the "
                            f"revealed seed")
    for g, head in meta.heads(pub.name).items():
        if fairplay.head(seed, g) != head:
            out.problems.append(f"{pub.name}'s chain head {g} in the log does not come from the revealed seed")
    out.problems += mac_problems(meta, pub.name, seed)
    remaining = list(range(1, len(drawable) + 1))
    for e in meta.log:
        for ev in e.events:
            if ev.player == out.player:
                _derive_event(meta, e, ev, seed, drawable, remaining, out)
    return out


def _derive_event(meta, e, ev, seed, drawable, remaining, out) -> None:
    beacon = _beacon(meta, ev.player, ev.beacon)
    if beacon is None:
        out.problems.append(f"log entry {e.number}: {ev.player}'s event {ev.counter} used a chain value "
                            f"{'.'.join(map(str, ev.beacon))} that cannot be recomputed (never published, or "
                            f"from an earlier chain of a player who has not revealed)")
        beacon = ""
    if ev.kind != "draw":
        face = fairplay.roll(seed, ev.counter, beacon, ev.faces, ev.kind, ev.purpose)
        if face != ev.face:
            out.problems.append(f"log entry {e.number}: {ev.player}'s {fairplay.die_spec(ev.faces)} roll "
                                f"({ev.kind} {ev.counter}) shows {ev.face}; the seed gives {face}")
    elif not remaining:
        out.problems.append(f"log entry {e.number}: {ev.player} drew from an empty deck")
    else:
        pos = fairplay.draw(seed, ev.counter, beacon, remaining)
        remaining.remove(pos)
        out.cards.setdefault(e.number, []).append(drawable[pos - 1])


def mac_problems(meta: Meta, name: str, seed: bytes) -> list[str]:
    """Return every log entry in ``name``'s name whose MAC was not made with ``name``'s seed (forged)."""
    out = []
    previous = log_genesis(meta.match_id)
    for e in meta.log:
        if e.player.casefold() == name.casefold():
            want = fairplay.entry_mac(seed, previous, f"{e.body()} · seal {e.seal}")
            if e.mac != want:
                out.append(f"log entry {e.number} ({e.text[:40]}) is in {e.player}'s name but {e.player}'s pbd did "
                           f"not write it (its MAC is {'missing' if not e.mac else 'wrong'}) — it was forged or "
                           f"altered")
        previous = e.hash or log_link(previous, e)
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
        #: True for the hand-edit check: only the public part of the position is compared
        self.public = False
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

    def _next(self, player: str, kind: str, faces: tuple[int, ...] = ()):
        for i, ev in enumerate(self.queue):
            if ev.player.casefold() == player.casefold() and ev.kind == kind:
                return self.queue.pop(i)
        what = f"a {fairplay.die_spec(faces)} roll" if kind != "draw" else "a draw"
        self.problems.append(f"log entry {self.entry.number}: the move makes {what} for {player} that the log "
                             f"does not record")
        return None

    def _advance(self, player: str, kind: str, ev) -> None:
        import copy     # replays only (a board the log explains copies nothing)

        pub = self.meta.player(player)
        if pub:
            pub.advance(kind)
        if ev is not None:
            self.meta.pending_events.append(copy.copy(ev))

    def draw(self, player: str, n: int = 1) -> list[str]:
        out = []
        for _ in range(n):
            ev = self._next(player, "draw")
            self._advance(player, "draw", ev)
            pub = self.meta.player(player)
            queue = self.cards.get(pub.name if pub else player)
            out.append(queue.pop(0) if queue else HIDDEN)
        return out

    def _roll(self, player, kind, sides, faces, purpose) -> int:
        faces = tuple(faces) if faces is not None else tuple(range(1, sides + 1))
        ev = self._next(player, kind, faces)
        self._advance(player, kind, ev)
        return ev.face if ev is not None else faces[0]

    def publish(self, player: str) -> None:
        pub = self.meta.player(player)
        if pub is not None:
            pub.chain_index += 1
            head = self.entry.heads.get(pub.name) if self.entry else None
            if head:
                self.meta.pending_heads[pub.name] = head


class Rebuilt(Record):
    """The outcome of replaying a log: the state it leads to and every problem met."""

    FIELDS = ("state", "problems", "complete")

    def __init__(self, state: object, problems: list[str], complete: bool):
        self.state, self.problems, self.complete = state, problems, complete


def _seat_meta(board_meta: Meta, meta: Meta, name: str) -> None:
    pub = board_meta.player(name)
    if pub is None or meta.player(name) is not None:
        return
    head = board_meta.heads(pub.name).get(0) or chain_at(board_meta, pub.name, 0) or pub.chain
    meta.fairplay.append(PlayerMeta(pub.name, pub.commitment, head, 0))


def rebuild(game, board, derived: dict[str, Derived], start=None, public: bool = False) -> Rebuilt:
    """Replay the board's log from the start through ``game.replay``; return the state it gives.

    Every entry is checked: the replayed move must be legal (a revealed player can only
    play cards they drew), and must write the same log line as the document has.  With
    ``start`` (a state parsed from an earlier board of the same match, whose log is the
    first entries of this one), only the entries after it are replayed, from that state.  With
    ``public`` (the hand-edit check), a game whose hands are hidden may replay only the public
    part of the position, before every seat has revealed (:attr:`ReplayChance.public`).
    """
    import copy     # replays only (a board the log explains copies nothing)

    board_meta = board.meta
    state = start
    meta = start.meta if start is not None else Meta(board_meta.game, board_meta.match_id)
    first = len(meta.log) if start is not None else 0
    chance = ReplayChance(meta, derived)
    chance.public = public
    problems: list[str] = []
    before: dict[int, object] = {}
    seated = {n.casefold() for n in game.player_names(board)}
    for i, entry in enumerate(board_meta.log[first:], first):
        if entry.player.casefold() not in seated:
            problems.append(f"log entry {entry.number} is by {entry.player[:40]!r}, who is not playing in this match")
            return Rebuilt(state, problems + chance.problems, False)
        _seat_meta(board_meta, meta, entry.player)
        for name in entry.published:
            _seat_meta(board_meta, meta, name)
        before[entry.number] = _snapshot(state)
        meta.log = list(board_meta.log[:i])
        meta.pending_events = []
        meta.published = {p.name: p.chain_index for p in meta.fairplay}
        saved = copy.deepcopy(meta.fairplay)
        chance.start(entry, None)
        try:
            state = _replay_entry(game, state, entry, chance, board, before, strict=True)
        except PbdError as exc:
            problems.append(f"log entry {entry.number}: {entry.player}: {entry.text} — {exc.message}")
            state, meta.fairplay = _snapshot(before[entry.number]), copy.deepcopy(saved)
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
        if len(written) != 1 or written[0].body() != entry.body():
            got = " / ".join(w.body() for w in written) or "nothing"
            problems.append(f"log entry {entry.number}: the log says '{entry.body()}', replaying the move gives "
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


def _snapshot(state):
    """Return a deep copy of a replayed ``state`` that shares its ``meta`` (every restore puts the replay's back).

    Copying the meta would copy the whole log at every entry (quadratic in the log's length).
    """
    import copy     # replays only (a board the log explains copies nothing)

    if state is None:
        return None
    meta = getattr(state, "meta", None)
    return copy.deepcopy(state, {id(meta): meta} if meta is not None else None)


def _replay_entry(game, state, entry, chance, board, before, strict):
    meta = chance.meta
    text = entry.text
    if text == REVEAL_TEXT:
        meta.record(entry.player, text)
        return state
    if m := ROLL_RE.match(text):
        dice = parse_dice(m.group("dice"))
        meta.record(entry.player, roll_text(dice, [chance.free_roll(entry.player, faces=d) for d in dice]))
        return state
    if m := TAKEBACK_RE.match(text):
        first = int(m.group("a"))
        restored = before.get(first)
        if restored is None:
            raise PbdError(f"a take-back of entry {first}, which cannot be taken back")
        state = _snapshot(restored)
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
    """Return the document lines that differ from the board the log gives, with line numbers.

    A document in an older layout (it does not read back as pbd writes it now) is compared
    as pbd would write it, so a change of layout is not taken for a hand edit.
    """
    import copy     # replays only (a board the log explains copies nothing)

    import difflib          # only when a board differs from its log

    rebuilt_state.meta = board.meta
    ours = game.render(rebuilt_state).split("\n")
    written = game.render(copy.deepcopy(board))
    theirs = (text if written == text else written).split("\n")
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
