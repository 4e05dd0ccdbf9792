"""Audit and replay of a match document: pure functions over a parsed match, no I/O.

* :func:`log_problems` checks the log's hash chain, its numbering and the seal of the
  sections pbd writes.
* :func:`chain_problems` checks the commitments and chain heads the log carries against the
  Fair play section, every chain publication, and the beacon every random event used
  (``@J`` tags) against the order of the log.
* :func:`reveal_problems` checks that every logged reveal is still in the Revealed section.
  (These three, with :func:`mac_problems`, are :mod:`pbd.fairplay_checks`'s, imported here: every
  command that writes runs them, and needs nothing else of the audit.)
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

import os
import re

from pbd import fairplay
from pbd.errors import CardOutOfSight, GameBug, PbdError, RollWaits
# the document's own checks live with the checks every command runs (which need no more of the audit):
# part of the audit's interface too
from pbd.fairplay_checks import (OLD_LOG, chain_problems, commit_problems, log_problems, mac_problems,  # noqa: F401
                                 reveal_problems, sections)
from pbd.games.base import REVEAL_TEXT, Chance, LogEntry, Meta, PlayerMeta, Secrets, split_frame
from pbd.record import Record
from pbd.regex import pattern

ROLL_RE = pattern(r"^rolls (?P<dice>[\w\[\],+]+): (?P<faces>[\d +]+?)(?: = (?P<total>\d+))?$")
TAKEBACK_RE = pattern(r"^takes back (?P<a>\d+)(?:-(?P<b>\d+))?\b")
DICE_RE = pattern(r"^(?P<n>\d*)d(?:(?P<sides>\d+)|\[(?P<faces>\d+(?:,\d+)*)\])$")
HIDDEN = "?"


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


# -- replay -----------------------------------------------------------------------------------

class ReplayChance(Chance):
    """Chance that replays the random events a log entry records.

    Draws give the re-derived cards of revealed players and hidden cards (``?``) of the
    others; rolls give the logged faces (public from the start).  Asking for more events
    than the entry records is a problem (noted in :attr:`problems`).
    """

    #: a replay of the log: the table reads hidden cards and face-down openings from what the log showed
    replaying = True

    def __init__(self, meta: Meta, derived: dict[str, Derived], ahead: list[LogEntry] | None = None):
        super().__init__(meta, {})
        self.derived = derived
        #: the whole log being replayed (the table looks ahead in it for a face-down card's opening)
        self.ahead = [] if ahead is None else ahead
        #: True for the hand-edit check: only the public part of the position is compared
        self.public = False
        #: False past a problem already reported: a card the log shows played is put in the hand (see :meth:`shown`)
        self.strict = True
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

    def shown(self, hand: list, card, hidden=None, words: str = ""):
        """Return the card as the log shows it (see :meth:`Chance.shown`): a hidden card becomes the one the
        entry names (by name, or read from the entry's ``words`` at a position)."""
        if isinstance(card, int):
            if not 0 <= card < len(hand) or hand[card] != hidden or not words:
                return super().shown(hand, card, hidden, words)
            before, _, after = words.partition("{}")
            text = self.entry.text if self.entry is not None else ""
            if len(text) <= len(before) + len(after) or not text.startswith(before) or not text.endswith(after):
                return hidden
            hand[card] = text[len(before):len(text) - len(after)]
            return hand[card]
        if card in hand:
            return card
        if hidden in hand:
            hand[hand.index(hidden)] = card
        elif self.strict:
            return None
        else:
            hand.append(card)
        return card

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
    """The outcome of replaying a log: the state it leads to and every problem met.

    ``forged``: problems no honest pbd can have written (a die rolled before the chain value it
    had to wait for), which every command refuses, not only the audit.
    """

    FIELDS = ("state", "problems", "complete", "forged")

    #: the replay stopped at a card the document no longer shows (:class:`~pbd.errors.CardOutOfSight`)
    out_of_sight = False

    def __init__(self, state: object, problems: list[str], complete: bool, forged: list[str] | None = None):
        self.state, self.problems, self.complete = state, problems, complete
        self.forged = [] if forged is None else forged


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
    first entries of this one), only the entries after it are replayed, from that state, and the
    first entry refused ends the replay (not complete: the caller replays from the start).  With
    ``public`` (the hand-edit check), a game whose hands are hidden may replay only the public
    part of the position, before every seat has revealed (:attr:`ReplayChance.public`).
    """
    board_meta = board.meta
    state = start
    meta = start.meta if start is not None else Meta(board_meta.game, board_meta.match_id)
    first = len(meta.log) if start is not None else 0
    # A replay from a kept board (the hand-edit check: its caller replays from the start after any problem) keeps
    # the state only before the entries a later take-back names, and stops at an entry it refuses: a snapshot of a
    # 6-seat state before every entry was most of such a replay.  From the start: a snapshot before every entry.
    wanted = None if start is None else {int(m.group("a")) for e in board_meta.log[first:]
                                         if (m := TAKEBACK_RE.match(e.text))}
    chance = ReplayChance(meta, derived, board_meta.log)
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
        if wanted is None or entry.number in wanted:
            before[entry.number] = _Snapshot(state)
        meta.log = list(board_meta.log[:i])
        meta.pending_events = []
        meta.published = {p.name: p.chain_index for p in meta.fairplay}
        # (restored only if the entry is refused; deepcopy cost more)
        saved = pickle.dumps(meta.fairplay, 5) if wanted is None else None
        chance.start(entry, None)
        try:
            state = _replay_entry(game, state, entry, chance, board, before, strict=True)
        except RollWaits as exc:
            forged = (f"log entry {entry.number}: {entry.player}'s die was rolled before the chain value it had to "
                      f"wait for ({exc.message}): a modified pbd foresaw it")
            return Rebuilt(state, problems + [forged] + chance.problems, False, [forged])
        except GameBug:
            raise
        except PbdError as exc:
            problems.append(f"log entry {entry.number}: {entry.player}: {entry.text} — {exc.message}")
            if saved is None:               # a replay from a kept board: stopped here (see above)
                return Rebuilt(state, problems + chance.problems, False)
            meta.fairplay = pickle.loads(saved)
            state = before[entry.number].restore(meta)
            meta.log = list(board_meta.log[:i])
            meta.pending_events = []
            chance.start(entry, None)
            try:
                state = _replay_entry(game, state, entry, chance, board, before, strict=False)
            except GameBug:
                raise
            except PbdError as exc2:
                problems.append(f"log entry {entry.number}: cannot replay past this entry ({exc2.message})")
                out = Rebuilt(state, problems + chance.problems, False)
                out.out_of_sight = isinstance(exc2, CardOutOfSight)
                return out
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


class _Snapshot:
    """A replayed state as it was before a log entry, kept as a pickle that shares the replay's ``meta``.

    A replay keeps one before every entry (a take-back restores one; a refused entry is replayed
    again from one).  :func:`copy.deepcopy` of a 6-seat state at each of some 500 entries was
    nine tenths of a whole audit; pickling is done in C, and the pickle is loaded only when the
    state is wanted back.  Two objects stay out of the pickle, by reference: the meta (copying it
    would copy the whole log at every entry, quadratic in the log's length; every restore puts
    the replay's own back) and a shared deck's oracle (the document's deck, which the replay
    never changes).  A state that cannot be pickled is deep-copied instead.
    """

    def __init__(self, state):
        import io

        self.shared = [getattr(state, "meta", None), getattr(getattr(state, "deck", None), "oracle", None)]
        buffer = io.BytesIO()
        try:
            _SharingPickler(buffer, self.shared).dump(state)
            self.blob, self.copy = buffer.getvalue(), None
        except (pickle.PicklingError, TypeError, AttributeError):
            import copy     # replays only (a board the log explains copies nothing)

            self.blob, self.copy = None, copy.deepcopy(state, {id(o): o for o in self.shared if o is not None})

    def restore(self, meta):
        """Return a fresh copy of the state, its meta ``meta``."""
        import copy
        import io

        shared = [meta, *self.shared[1:]]
        if self.blob is None:
            memo = {id(old): new for old, new in zip(self.shared, shared) if old is not None}
            state = copy.deepcopy(self.copy, memo)
        else:
            state = _SharingUnpickler(io.BytesIO(self.blob), shared).load()
        if state is not None and hasattr(state, "meta"):
            state.meta = meta
        return state


try:  # the C pickler alone (see pbd.cache)
    import _pickle as pickle
except ImportError:  # pragma: no cover - a Python without it
    import pickle


class _SharingPickler(pickle.Pickler):
    """A pickler that leaves some objects (:attr:`_Snapshot.shared`) out, by reference.

    They are caught by a dispatch table on their types, which the C pickler looks up without
    calling back into Python for every other object (a ``persistent_id`` method was called for
    each object of each snapshot: half of a long match's audit).
    """

    def __init__(self, file, shared):
        super().__init__(file, protocol=5)
        refs = {id(o): i for i, o in enumerate(shared) if o is not None}

        def reduce(obj):
            i = refs.get(id(obj))
            return (_replay_ref, (i,)) if i is not None else obj.__reduce_ex__(5)

        self.dispatch_table = {type(o): reduce for o in shared if o is not None}


def _replay_ref(i):     # pragma: no cover - named by snapshots, replaced on load by _SharingUnpickler.find_class
    raise RuntimeError("a replay snapshot loaded without the objects it shares")


class _SharingUnpickler(pickle.Unpickler):
    """The unpickler of :class:`_SharingPickler`'s pickles: shared object ``i`` is ``shared[i]``."""

    def __init__(self, file, shared):
        super().__init__(file)
        self.shared = shared

    def find_class(self, module, name):
        if module == __name__ and name == "_replay_ref":
            return self.shared.__getitem__
        return super().find_class(module, name)


def is_forfeit_entry(text: str) -> bool:
    """Return True for a patience, resign or claim entry (:mod:`pbd.forfeit`), replayed here for every game."""
    from pbd.forfeit import RESIGN_TEXT

    return text == RESIGN_TEXT or text.startswith(("claims the match: ", "patience "))


def replay_log(game, board, derived: dict[str, Derived] | None = None, start=None, public: bool = False):
    """Return the board's log replayed (:func:`rebuild`), or None if ``game`` cannot replay its log.

    The one rebuild the audit, the pipeline and the hand-edit check use.

    :raises GameBug: the game's code crashed replaying an entry (exit 70, naming the game).
    """
    try:
        return rebuild(game, board, derived or {}, start, public)
    except NotImplementedError:
        return None


def _replay_entry(game, state, entry, chance, board, before, strict):
    try:
        return _replay_one(game, state, entry, chance, board, before, strict)
    except (PbdError, NotImplementedError):
        raise
    except Exception as exc:        # the game's code crashed: a bug in the game, never a problem of the document
        if os.environ.get("PBD_DEBUG"):
            raise
        raise GameBug(getattr(game, "title", str(game)), f"replaying log entry {entry.number} "
                      f"({entry.player}: {entry.text[:60]})", exc) from exc


def _replay_one(game, state, entry, chance, board, before, strict):
    meta = chance.meta
    text = entry.text
    if state is not None:
        game.seat_reads(state, entry.player)        # every command of the seat read the document first
    if text == REVEAL_TEXT:
        meta.record(entry.player, text)
        return state
    if m := ROLL_RE.match(text):
        dice = parse_dice(m.group("dice"))
        meta.record(entry.player, roll_text(dice, [chance.free_roll(entry.player, faces=d) for d in dice]))
        return state
    if is_forfeit_entry(text):
        from pbd import forfeit

        return forfeit.replay(game, state, entry, meta)
    if m := TAKEBACK_RE.match(text):
        first = int(m.group("a"))
        restored = before.get(first)
        if restored is None:
            raise PbdError(f"a take-back of entry {first}, which cannot be taken back")
        state = restored.restore(meta)
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
