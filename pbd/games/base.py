"""What every game provides, and the parts of a match document all games share.

A game is metadata plus a small fixed interface (see :class:`Game`).  The document
frame common to all games has two parts, the players' view and the machinery::

    pbd match 7f3a9c2e · C&C Trading Card Game
    <game header lines>

    <game body: the board>

    Log
    1. Ann: new match · deck committed (Forces of Justice)
    2. Ben: joined · deck committed (Forces of Corruption)
    3. Ann: opening hand · 5 cards drawn

    Machinery
    Entries
    1 · commits 3fa1… head 77c0… · key … · seal 1f0c… · mac 9a0b… · #e3…
    2 · commits … head … · key … · seal … · mac … · #…
    3 · rng 0-4@0, r0@0 d2=2 (first) · chain 1 · seal … · mac … · #… · sig …
    4. Ann: unlocked 1 card · chain 2 · seal … · mac … · #…      (a duty entry: whole, here only)

    Deck                          (a game with a shared deck: its numbers and proofs)
      …

    Fair play
    Ann: commitment 3fa1… · chain 2 91ab… · draws 7 · rolls 1 · free 0
    Ben: commitment …

    Revealed                      (only once someone ran ``pbd reveal``)
    Ann: seed 5c0e…
    Ann 1. Spider-Man
    …

A log entry's line is its view line (number, player, words) followed by its machine fields
(the ``Entries`` line of the same number): :func:`split_frame` joins them, so hashes and
signatures cover what they always covered.  A long hex token in the words (a commitment, a
nonce) reads ``…`` in the view and stands in the fields after the number (``12 · hex 3fa1… ·
seal …``), in order (:func:`view_words`, :func:`joined_words`).  Entries that only serve the table
(:data:`DUTY_RE`: shuffle passes, unlocks, a chain value a die waited on) stand whole in the
machinery.

Log entries end with fair-play tags, in this order:

* ``commits C head H`` — the seat's full commitment and the head of its hash chain, in the
  first entry the seat writes (``new`` / ``join``).
* ``rng …`` — the random events the entry used, one token per event or run of draws:
  ``A-B@J`` draws number A..B of the seat's *draw* counter; ``rK@J d6=4`` the K-th roll the
  rules call for and its face; ``fK@J d6=4`` the K-th free roll (``pbd roll``); a die with
  custom faces is ``d(1 3 4 5 6 8)``; ``(purpose)`` after a roll names what it was for.
  ``J`` lists the value number of every other seat's latest chain value used as beacon, in
  seat order, joined by dots (``@3.0.2``); a name before the numbers says whose events
  they were when not the entry's player.
* ``chain K`` — the seat published chain value number K; ``chain K next H`` also publishes
  the head of its next chain (with the last value of the current one).
* ``key K`` — with ``commits``: the seat's Ed25519 verify key (:mod:`pbd.signing`), 43 base64url
  characters.
* ``seal S`` — 16 hex digits of SHA-256 over the Fair play and Revealed sections (and any
  section the game seals, like Twin Tower City's Deal) as this entry's write left them.
* ``mac M`` — the writer's MAC of the entry (a key derived from the writer's committed
  seed): only the writer's pbd can make it; anyone checks it after ``pbd reveal``.
* ``#hash`` — the full SHA-256 over the previous entry's hash and this entry's line; the
  chain starts from the match id, so an edited, inserted or deleted entry breaks it.
* ``sig S`` — after the hash, which does not cover it: the writer's Ed25519 signature of the
  entry up to its seal (:meth:`LogEntry.sealed`) and the previous entry's hash, checked by every
  seat at once; dropped once every other seat has written after the entry (:mod:`pbd.signing`).

Documents written by an older pbd (8-digit hashes) still parse; :attr:`Meta.version` says
which, and the fair-play checks refuse to carry such a match on.

Players' own text (notes) is kept, byte for byte and with its formatting: every line pbd
does not own is a note where it stands —

* above the ``pbd match`` title line (anything, blank lines included);
* under a ``Notes`` line between the header and the board (a paragraph) or after the board;
* the line right above the ``Log`` heading (slot ``"above log"``);
* inside the board: a line starting ``Note:`` in any game, and the lines a game tells apart
  from its board (:func:`board_note`; C&C's halves);
* anywhere in the view's log (kept after the entry above it: slot ``"entry N"``) and at its end;
* in the machinery, at the end of the section it stands in (slots ``"m SECTION"``) or of the document.

A document in the older, one-part layout (the board, the log with its tags, then Fair play)
is read by :func:`_split_legacy` and written in two parts; its notes after the log go to the
end of the view.

:func:`split_frame` and :func:`render_frame` handle the frame; games handle the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from pbd import fairplay
from pbd.errors import DocumentFormatError
from pbd.record import Record
from pbd.regex import pattern

TITLE_RE = pattern(r"^\s*pbd match\s+(?P<id>[0-9a-f]{4,32})\s*(?:[·|-]\s*(?P<title>.*?))?\s*$", re.I)
FAIRPLAY_RE = pattern(
    r"^(?P<name>.+?):\s*commitment\s+(?P<commit>[0-9a-f]{64})\s*·\s*chain\s+(?P<idx>\d+)\s+(?P<chain>[0-9a-f]{64})"
    r"(?:\s*·\s*draws\s+(?P<draws>\d+))?(?:\s*·\s*rolls\s+(?P<rolls>\d+))?(?:\s*·\s*free\s+(?P<free>\d+))?\s*$")
# (the text up to its last non-blank: a lazy ``.*?`` before ``\s*$`` tried the end at every character, the
# most costly pattern of a parse)
LOG_RE = pattern(r"^\s*(?P<n>\d+)\.\s+(?P<player>[^:]+?):\s+(?P<text>(?:.*\S)?)\s*$")
HASH_RE = pattern(r"\s*·?\s*#(?P<hash>[0-9a-f]{64}|[0-9a-f]{8})$")
MAC_RE = pattern(r"\s*·\s*mac\s+(?P<mac>[0-9a-f]{16})$")
SEAL_RE = pattern(r"\s*·\s*seal\s+(?P<seal>[0-9a-f]{16})$")
COMMIT_RE = pattern(r"\s*·\s*commits\s+(?P<commit>[0-9a-f]{64})\s+head\s+(?P<head>[0-9a-f]{64})$")
KEY_TAG_RE = pattern(r"\s*·\s*key\s+(?P<key>[A-Za-z0-9_-]{43})$")
SIG_TAG_RE = pattern(r"\s*·\s*sig\s+(?P<sig>[A-Za-z0-9_-]{86})$")
_BEACON = r"(?:-|\d+(?:\.\d+)*)"
_DIE = r"d(?:\d+|\(\d+(?: \d+)*\))"
_EVENT = rf"(?:[^,@·]+?\s+)?[rf]?\d+(?:-\d+)?@{_BEACON}(?:\s+{_DIE}=\d+(?:\s+\([a-z][a-z0-9-]*\))?)?"
RNG_RE = pattern(rf"\s*·\s*rng\s+(?P<events>{_EVENT}(?:,\s*{_EVENT})*)$")
EVENT_RE = pattern(
    rf"^(?:(?P<name>[^,@·]+?)\s+)??(?P<kind>[rf]?)(?P<a>\d+)(?:-(?P<b>\d+))?@(?P<j>{_BEACON})"
    r"(?:\s+d(?:(?P<sides>\d+)|\((?P<faces>\d+(?: \d+)*)\))=(?P<face>\d+)(?:\s+\((?P<purpose>[a-z][a-z0-9-]*)\))?)?$")
_PUB = r"(?:[^,·]+?\s+)?\d+(?:\s+next\s+[0-9a-f]{64})?"
CHAIN_TAG_RE = pattern(rf"\s*·\s*chain\s+(?P<pubs>{_PUB}(?:,\s*{_PUB})*)$")
PUB_RE = pattern(r"^(?:(?P<name>[^,·]+?)\s+)??(?P<k>\d+)(?:\s+next\s+(?P<next>[0-9a-f]{64}))?$")
SEED_RE = pattern(r"^(?P<name>[^:]+?):\s*seed\s+(?P<seed>[0-9a-f]{64})\s*$")
DECK_LINE_RE = pattern(r"^(?P<name>.+?)\s+(?P<n>\d+)\.\s+(?P<card>.+?)\s*$")
KIND_LETTER = {"draw": "", "roll": "r", "free": "f"}
LETTER_KIND = {v: k for k, v in KIND_LETTER.items()}
#: the log text of a reveal (``pbd reveal``)
REVEAL_TEXT = "revealed seed and deck list"


class Line(Record):
    """One line of a document, with its 1-based number as the player sees it."""

    FIELDS = ("number", "text")

    def __init__(self, number: int, text: str):
        self.number, self.text = number, text


#: the :class:`PlayerMeta` field counting each kind of random event
_COUNTERS = {"draw": "draws", "roll": "rolls", "free": "free"}


class PlayerMeta(Record):
    """A seat's public fair-play record: commitment, latest chain value, random events so far (per kind)."""

    FIELDS = ("name", "commitment", "chain", "chain_index", "draws", "rolls", "free")

    def __init__(self, name: str, commitment: str = "", chain: str = "", chain_index: int = 0, draws: int = 0,
                 rolls: int = 0, free: int = 0):
        self.name, self.commitment, self.chain, self.chain_index = name, commitment, chain, chain_index
        self.draws, self.rolls, self.free = draws, rolls, free
        #: the seat's verify key, for its first entry (set by :meth:`Meta.seat`; not in the Fair play line)
        self.key = ""

    def count(self, kind: str) -> int:
        """Return how many random events of ``kind`` (draw, roll, free) the seat made."""
        return getattr(self, _COUNTERS[kind])

    def advance(self, kind: str) -> None:
        """Count one more random event of ``kind``."""
        attr = _COUNTERS[kind]
        setattr(self, attr, getattr(self, attr) + 1)

    def line(self) -> str:
        """Return the seat's line of the Fair play section."""
        return (f"{self.name}: commitment {self.commitment} · chain {self.chain_index} {self.chain} · "
                f"draws {self.draws} · rolls {self.rolls} · free {self.free}")


#: makes an instance without calling its ``__init__`` (see :meth:`Meta.record` and :meth:`Chance.draw`)
_new = object.__new__
#: what an entry :meth:`Meta.record` makes holds when it publishes nothing (``published``, ``heads``) or used no
#: random event (``events``): one empty dict and list shared by all such entries, not two dicts and a list made
#: every move.  Nothing changes a recorded entry's tags (only :func:`_parse_entry` fills an entry's own, made by
#: :class:`LogEntry`), so they stay empty.
_UNTAGGED: dict = {}
_NO_EVENTS: list = []


class Event(Record):
    """One random event of a seat: a draw, or a roll (the rules' or a free one) and its face.

    ``beacon`` holds the value number of every other seat's chain value used, in seat
    order (empty: no other seat).
    """

    FIELDS = ("player", "counter", "beacon", "kind", "faces", "face", "purpose")

    def __init__(self, player: str, counter: int, beacon: tuple[int, ...] = (), kind: str = "draw",
                 faces: tuple[int, ...] = (), face: int = 0, purpose: str = ""):
        self.player, self.counter, self.beacon, self.kind = player, counter, beacon, kind
        self.faces, self.face, self.purpose = faces, face, purpose

    def token(self, owner: str) -> str:
        """Return the event as written after ``rng`` in an entry of ``owner``."""
        who = "" if self.player == owner else f"{self.player} "
        out = f"{who}{KIND_LETTER[self.kind]}{self.counter}@{_beacon_tag(self.beacon)}"
        if self.kind != "draw":
            out += f" {fairplay.die_spec(self.faces)}={self.face}" + (f" ({self.purpose})" if self.purpose else "")
        return out


def _beacon_tag(beacon: tuple[int, ...]) -> str:
    return ".".join(map(str, beacon)) if beacon else "-"


class LogEntry(Record):
    """One numbered line of the move log, with its fair-play tags, seal, MAC and chain hash.

    ``fresh``: recorded in this command and not yet sealed, signed and hashed (see
    :meth:`Meta.finalize`); not compared.  ``key``: the verify key a seat's first entry commits
    (with ``commit``); ``sig``: the writer's signature (after the hash, which does not cover it;
    '' once dropped, see :mod:`pbd.signing`); neither compared.
    """

    FIELDS = ("number", "player", "text", "events", "published", "heads", "commit", "seal", "mac", "hash")

    def __init__(self, number: int, player: str, text: str, events: list[Event] | None = None,
                 published: dict[str, int] | None = None, heads: dict[str, str] | None = None,
                 commit: tuple[str, str] | None = None, seal: str = "", mac: str = "", hash: str = "",
                 fresh: bool = False):
        self.number, self.player, self.text = number, player, text
        self.events = [] if events is None else events
        self.published = {} if published is None else published
        self.heads = {} if heads is None else heads
        self.commit, self.seal, self.mac, self.hash, self.fresh = commit, seal, mac, hash, fresh
        self.key, self.sig = "", ""

    def body(self) -> str:
        """Return what the move says: number, player, text and the commit, rng and chain tags."""
        out = f"{self.number}. {self.player}: {self.text}"
        if self.commit:
            out += f" · commits {self.commit[0]} head {self.commit[1]}"
        if self.events:
            out += " · rng " + ", ".join(_event_tokens(self.player, self.events))
        if self.published:
            out += " · chain " + ", ".join(
                ("" if name == self.player else f"{name} ") + str(k) + (
                    f" next {self.heads[name]}" if name in self.heads else "")
                for name, k in self.published.items())
        return out

    def sealed(self) -> str:
        """Return the body with its verify key and seal: what the writer's signature covers."""
        out = self.body()
        if self.key:
            out += f" · key {self.key}"
        if self.seal:
            out += f" · seal {self.seal}"
        return out

    def line(self) -> str:
        """Return the entry as written in the document, without its hash (what the hash covers)."""
        out = self.sealed()
        if self.mac:
            out += f" · mac {self.mac}"
        return out

    def written(self) -> str:
        """Return the whole line as written in the document."""
        return self.line() + (f" · #{self.hash}" if self.hash else "") + (f" · sig {self.sig}" if self.sig else "")


class Reveal(Record):
    """A player's revealed seed and committed deck list (the ``Revealed`` section)."""

    FIELDS = ("name", "seed", "deck")

    def __init__(self, name: str, seed: str, deck: list[str] | None = None):
        self.name, self.seed = name, seed
        self.deck = [] if deck is None else deck


def log_genesis(match_id: str = "") -> str:
    """Return the hash the first log entry chains to (a full SHA-256 of the match id)."""
    return fairplay.log_genesis(match_id)


def log_link(previous: str, entry: LogEntry) -> str:
    """Return the hash of ``entry`` chained to the ``previous`` entry's hash."""
    return fairplay.log_link(previous, entry.line())


def _event_tokens(owner: str, events: list[Event]) -> list[str]:
    tokens: list[str] = []
    run: list[Event] = []

    def flush():
        if run:
            e = run[0]
            who = "" if e.player == owner else f"{e.player} "
            span = str(e.counter) if len(run) == 1 else f"{e.counter}-{run[-1].counter}"
            tokens.append(f"{who}{span}@{_beacon_tag(e.beacon)}")
            run.clear()

    for e in events:
        if e.kind != "draw":
            flush()
            tokens.append(e.token(owner))
        elif run and (run[-1].player, run[-1].beacon, run[-1].counter + 1) == (e.player, e.beacon, e.counter):
            run.append(e)
        else:
            flush()
            run.append(e)
    flush()
    return tokens


def _tag_at_end(regex, text: str, mark: str) -> re.Match | None:
    """Return ``regex.search(text)`` for a tag anchored at the end that begins with blanks and ``mark`` (the hash's
    ``·`` optional before its ``#``) and holds no other ``mark``.

    Such a match can only begin in the blanks before the last ``mark`` (and, for ``#``, an optional ``·`` and the
    blanks before it): the search starts there, where the search from the start arrives after trying every
    character of the entry.
    """
    i = text.rfind(mark)
    if i < 0:
        return None
    while i and text[i - 1].isspace():
        i -= 1
    if mark == "#" and i and text[i - 1] == "·":
        i -= 1
        while i and text[i - 1].isspace():
            i -= 1
    return regex.search(text, i)


def _parse_entry(number: int, player: str, text: str) -> LogEntry:
    entry = LogEntry(number, player, text)
    # each tag's word is looked for first; its search starts where the tag can begin (:func:`_tag_at_end`)
    for regex, attr, word in ((SIG_TAG_RE, "sig", "sig"), (HASH_RE, "hash", "#"), (MAC_RE, "mac", "mac"),
                              (SEAL_RE, "seal", "seal"), (KEY_TAG_RE, "key", "key")):
        if word in text and (m := _tag_at_end(regex, text, "#" if attr == "hash" else "·")):
            setattr(entry, attr, m.group(attr))
            text = text[:m.start()]
    if "chain" in text and (m := CHAIN_TAG_RE.search(text)):
        for token in re.split(r",\s*", m.group("pubs")):
            p = PUB_RE.match(token.strip())
            who = (p.group("name") or player).strip()
            entry.published[who] = int(p.group("k"))
            if p.group("next"):
                entry.heads[who] = p.group("next")
        text = text[:m.start()]
    if "rng" in text and (m := RNG_RE.search(text)):
        for token in re.split(r",\s*", m.group("events")):
            entry.events += _parse_event(token.strip(), player)
        text = text[:m.start()]
    if "commits" in text and (m := COMMIT_RE.search(text)):
        entry.commit = (m.group("commit"), m.group("head"))
        text = text[:m.start()]
    entry.text = text.rstrip()
    return entry


def _parse_event(token: str, player: str) -> list[Event]:
    e = EVENT_RE.match(token)
    who = (e.group("name") or player).strip()
    beacon = () if e.group("j") == "-" else tuple(int(j) for j in e.group("j").split("."))
    a = int(e.group("a"))
    kind = LETTER_KIND[e.group("kind")]
    if e.group("face") is None:
        return [Event(who, c, beacon) for c in range(a, int(e.group("b") or a) + 1)]
    faces = (tuple(range(1, int(e.group("sides")) + 1)) if e.group("sides")
             else tuple(int(f) for f in e.group("faces").split()))
    return [Event(who, a, beacon, kind or "roll", faces, int(e.group("face")), e.group("purpose") or "")]


class _LogIndex:
    """What a log's entries say about commitments and published chain values, kept up to date as the log grows.

    The log only ever grows in place (an earlier log is replaced by a new list), so the
    index is rebuilt when the list, or the entry it last read, is not the one it knew.
    """

    def __init__(self, log: list[LogEntry]):
        self.log, self.count, self.last = log, 0, None
        self.commits: dict[str, LogEntry] = {}           # casefolded player -> first entry with a commitment
        self.latest_commit: int | None = None              # highest entry number carrying a commitment
        self.first_pub: dict[tuple[str, int], int] = {}    # (seat, value number) -> first entry publishing it
        self.last_pub: dict[tuple[str, int], int] = {}     # ... -> last entry publishing it
        #: seat -> the value number it published last, if no entry read after that one carries a commitment
        #: (the seat owes no new value while that is its latest: see :meth:`Meta._owes`)
        self.settled: dict[str, int] = {}
        #: a game's own facts about this log, kept while the log only grows (see ``cnc.state.opening_owed``)
        self.memo: dict = {}

    def fits(self, log: list[LogEntry]) -> bool:
        """Return True if ``log`` is the list this index read, grown at most."""
        return log is self.log and len(log) >= self.count and (not self.count or log[self.count - 1] is self.last)

    def catch_up(self) -> None:
        """Read the entries appended since the last call."""
        log = self.log
        for e in log[self.count:]:
            if e.commit or e.published:     # (most entries say nothing the index keeps)
                self.read(e)
        self.count = len(log)
        if log:
            self.last = log[-1]

    def read(self, e: LogEntry) -> None:
        """Take in the commitment and the publications of one entry (the caller counts it read)."""
        number = e.number
        if e.commit:
            self.commits.setdefault(e.player.casefold(), e)
            if self.latest_commit is None or number > self.latest_commit:
                self.latest_commit = number
            self.settled.clear()
        latest = self.latest_commit
        for who, k in e.published.items():
            key = who, k
            self.first_pub.setdefault(key, number)
            self.last_pub[key] = number
            if k and (latest is None or number >= latest):
                self.settled[who] = k


class Meta(Record):
    """What every match document has besides its board.

    Compared and shown: ``game``, ``match_id``, ``fairplay``, ``log``, ``revealed``.  Besides:
    ``pending_events`` (random events since the last log entry, attached to the next one by
    :meth:`record`), ``published`` (each player's chain index as of the last log entry, to tag
    publications), ``pending_heads`` (heads of next chains published since the last log entry),
    ``signers`` (seeds of the seats whose entries this pbd signs: casefolded name -> seed),
    ``version`` (2 for this pbd's log format; 1 for a log an older pbd wrote, with 8-digit hashes)
    and ``notes`` (players' own text, kept where they typed it: see :class:`Frame` ``notes``).
    """

    FIELDS = ("game", "match_id", "fairplay", "log", "revealed")

    def __init__(self, game: str, match_id: str = "", fairplay: list[PlayerMeta] | None = None,
                 log: list[LogEntry] | None = None, revealed: list[Reveal] | None = None):
        self.game, self.match_id, self.version = game, match_id, 2
        self.fairplay = [] if fairplay is None else fairplay
        self.log = [] if log is None else log
        self.revealed = [] if revealed is None else revealed
        self.pending_events: list[Event] = []
        self.published: dict[str, int] = {}
        self.pending_heads: dict[str, str] = {}
        self.signers: dict[str, bytes] = {}
        self.notes: dict[str, list[str]] = {}
        #: when the log last grew, as the header's ``Last entry:`` line says it (:data:`LAST_ENTRY_FORMAT`,
        #: the writer's clock; '' if unknown): shown to players only, never trusted (see :mod:`pbd.forfeit`)
        self.last_entry = ""
        # every attribute set here, none left to the class: every move reads them, and an attribute
        # the instance holds from the start is read by the interpreter's fast path (one read through
        # ``__dict__``, or a default of the class, sends every Meta to the slow one)
        #: the index of the log (see :meth:`log_index`), made on first use
        self._log_index: _LogIndex | None = None
        #: :meth:`player`'s answers (name as asked -> record), kept while ``fairplay`` is the list
        #: ``_found_in`` (seats are only ever appended to it: a seat appended cannot come before an answer)
        self._found: dict[str, PlayerMeta] = {}
        self._found_in: list[PlayerMeta] | None = None

    def seat(self, name: str, seed: bytes | None, committed: list[str]) -> PlayerMeta | None:
        """Add a seat's fair-play record: its commitment to ``seed`` and ``committed``, its chain head.

        The commitment and head also go into the seat's first log entry (see :meth:`record`).  With no
        ``seed`` (a replay of the log, :meth:`Playable.replay`) the document's record stands: it is returned.
        """
        if seed is None:
            return self.player(name)
        pub = PlayerMeta(name, fairplay.commitment(seed, committed), fairplay.head(seed, 0))
        if self.signed():                   # (a match an older pbd started: no keys, no signatures)
            from pbd import signing

            pub.key = signing.verify_key(seed, self.match_id)
        self.fairplay.append(pub)
        self.signers[name.casefold()] = seed
        return pub

    def record(self, player: str, text: str) -> LogEntry:
        """Append a log entry with the random events and chain publications since the last one.

        A seat's first entry carries its commitment and chain head.  The entry is sealed,
        signed and chained when the document is rendered (:meth:`finalize`).
        """
        # the fast path of every move (issue 16): the seat's record, the log's index and the new entry are had
        # without a call when they can be (player's memo, log_index's own check, LogEntry's fields set here)
        fp, log, index = self.fairplay, self.log, self._log_index
        try:                                # (a subscript, not a call of get: no name is missing but the first time)
            pub = self._found[player] if self._found_in is fp else self.player(player)
        except KeyError:
            pub = self.player(player)
        n = len(log)
        # (log[n - 1], not log[-1]: the interpreter's fast subscript of a list takes no negative index)
        if index is None or index.log is not log or index.count != n or n and log[n - 1] is not index.last:
            index = self.log_index()
        commit = None
        # most entries: the seat published its latest value after every commitment (the index's ``settled``, never
        # value 0), so it owes no value (_owes's first answer, without the call) and its commitment is in the log
        if pub is not None and index.settled.get(pub.name) != pub.chain_index:
            if self.published.get(pub.name, 0) == pub.chain_index and self._owes(pub, index):
                self._publish(pub.name)
            if pub.chain_index == 0 and pub.commitment and pub.name.casefold() not in index.commits:
                commit = pub.commitment, pub.chain      # the seat's first entry
        tags, published = _UNTAGGED, self.published
        for p in fp:
            k = p.chain_index
            if k != published.get(p.name, 0):      # (a seat not tagged yet: as value 0)
                if tags is _UNTAGGED:
                    tags = {}
                tags[p.name] = published[p.name] = k
        events = self.pending_events
        if events:
            self.pending_events = []
        else:                               # (most moves: no list made, the pending one stays empty)
            events = _NO_EVENTS
        entry = _new(LogEntry)              # LogEntry(len(log) + 1, player, text, events, tags, commit, fresh=True)
        n += 1
        entry.number = n                    # (one field a statement: four at once would build a tuple)
        entry.player = player
        entry.text = text
        entry.events = events
        entry.published, entry.heads, entry.commit = tags, _UNTAGGED, commit
        # every field set, none left to the class: an attribute read through the class, or one an entry gains
        # later, is read the slow way (see pbd.record)
        entry.seal, entry.mac, entry.hash, entry.fresh = "", "", "", True
        entry.key = pub.key if commit else ""
        entry.sig = ""
        heads = self.pending_heads
        if heads:                           # (a loop, not a comprehension: that would make ``tags`` a cell
            kept = entry.heads = {}         # in every call, which costs each move an allocation)
            for k, v in heads.items():
                if k in tags:
                    kept[k] = v
            heads.clear()
        log.append(entry)
        if commit or tags:
            index.read(entry)
        index.count, index.last = n, entry  # (the index read every entry before it)
        return entry

    def owes_value(self, name: str) -> bool:
        """Return True if a seat committed after ``name``'s latest chain value was published.

        That seat cannot use the value (it was public when it chose its seed), so ``name``'s
        next log entry publishes a new one: every seat then has a value each other seat may use.
        """
        pub = self.player(name)
        return pub is not None and self._owes(pub, self.log_index())

    def _owes(self, pub: PlayerMeta, index: _LogIndex) -> bool:
        """Return :meth:`owes_value` for a seat's record, with the log's index up to date."""
        if index.settled.get(pub.name) == pub.chain_index:
            return False                    # the fast path: published after every commitment, so nobody owed
        if not pub.chain or self.published.get(pub.name, 0) != pub.chain_index or index.latest_commit is None:
            return False
        if pub.chain_index == 0:
            entry = index.commits.get(pub.name.casefold())
            last = entry.number if entry else None
        else:
            last = index.last_pub.get((pub.name, pub.chain_index))
        return last is not None and index.latest_commit > last

    def log_index(self) -> _LogIndex:
        """Return the index of the log's commitments and publications (brought up to date)."""
        index, log = self._log_index, self.log
        if index is not None and index.log is log and index.count == len(log) and (
                not index.count or log[-1] is index.last):
            return index                    # nothing appended since the last call
        if index is None or not index.fits(log):
            index = self._log_index = _LogIndex(log)
        index.catch_up()
        return index

    def _publish(self, name: str) -> None:
        pub = self.player(name)
        seed = self.signers.get(pub.name.casefold())
        pub.chain_index += 1
        pub.chain = fairplay.published_value(seed, pub.chain_index) if seed else pub.chain
        if seed and fairplay.ends_generation(pub.chain_index):
            self.pending_heads[pub.name] = fairplay.head(seed, pub.chain_index // fairplay.CHAIN_LENGTH)

    def finalize(self, sections: Sequence[str]) -> None:
        """Seal, MAC, sign (for the seats we hold seeds of) and hash the entries recorded in this command;
        drop the signatures every other seat has written after (see :mod:`pbd.signing`)."""
        seal = fairplay.seal(sections)
        previous = log_genesis(self.match_id)
        signed = self.signed()
        fresh = False
        for entry in self.log:
            if entry.fresh:
                fresh = True
                entry.seal = seal
                seed = self.signers.get(entry.player.casefold())
                if entry.commit and not entry.key and seed and (signed or entry.number == 1):
                    from pbd import signing

                    entry.key = signing.verify_key(seed, self.match_id)
                    signed = True
                entry.mac = fairplay.entry_mac(seed, previous, f"{entry.body()} · seal {seal}") if seed else ""
                if seed and signed:
                    from pbd import signing

                    entry.sig = signing.sign(seed, self.match_id, previous, entry.sealed())
                entry.hash = fairplay.log_link(previous, entry.line())
                entry.fresh = False
            previous = entry.hash or previous
        if fresh:
            self.last_entry = last_entry_now()
        if fresh and signed:
            droppable = self.droppable()
            for entry in self.log:
                if entry.sig and droppable(entry):
                    entry.sig = ""

    def signed(self) -> bool:
        """Return True if the match's entries are signed: its first entry commits a key (or it has none yet)."""
        return not self.log or bool(self.log[0].key)

    def droppable(self) -> Callable[[LogEntry], bool]:
        """Return a test of whether an entry's signature may be dropped: every other seat wrote after it.

        Each of them then checked it (a seat checks every entry new to it before it writes), so the
        rule is read from the document alone: see :mod:`pbd.signing`.
        """
        last: dict[str, int] = {}
        for e in self.log:
            last[e.player.casefold()] = e.number
        seats = [p.name.casefold() for p in self.fairplay]

        def test(entry: LogEntry) -> bool:
            writer = entry.player.casefold()
            return all(last.get(s, 0) > entry.number for s in seats if s != writer)

        return test

    def section_lines(self) -> list[str]:
        """Return the Fair play and Revealed lines as pbd writes them (what a seal covers, with the game's)."""
        out = [p.line() for p in self.fairplay]
        for r in self.revealed:
            out += [f"{r.name}: seed {r.seed}", *(f"{r.name} {i}. {card}" for i, card in enumerate(r.deck, 1))]
        return out

    def commit_entry(self, name: str) -> LogEntry | None:
        """Return the log entry that carries ``name``'s commitment and chain head, if any."""
        return self.log_index().commits.get(name.casefold())

    def heads(self, name: str) -> dict[int, str]:
        """Return ``{generation: head}`` of ``name``'s chains as the log publishes them."""
        out: dict[int, str] = {}
        for e in self.log:
            if e.commit and e.player.casefold() == name.casefold():
                out.setdefault(0, e.commit[1])
            for who, head in e.heads.items():
                if who.casefold() == name.casefold():
                    out.setdefault(e.published[who] // fairplay.CHAIN_LENGTH, head)
        return out

    def last_hash(self) -> str:
        """Return the hash the next log entry chains to."""
        previous = log_genesis(self.match_id)
        for e in self.log:
            previous = e.hash or log_link(previous, e)
        return previous

    def revealed_by(self, name: str) -> Reveal | None:
        """Return ``name``'s revealed seed and deck, if they revealed."""
        for r in self.revealed:
            if r.name.casefold() == name.casefold():
                return r
        return None

    def player(self, name: str) -> PlayerMeta | None:
        """Return the fair-play record of ``name`` (case-insensitive), if any."""
        fp = self.fairplay
        if self._found_in is fp and name in self._found:
            return self._found[name]
        folded = name.casefold()
        for p in fp:
            if p.name == name or p.name.casefold() == folded:    # same answer: equal names fold alike
                if self._found_in is not fp:
                    self._found, self._found_in = {}, fp     # (another list: its answers anew)
                self._found[name] = p
                return p
        return None


class Frame(Record):
    """A document split into its parts (each a list of numbered lines) and the players' notes.

    ``log`` holds each entry's whole line (the view's words joined with the machinery's fields,
    numbered as the view line); ``body`` the board, then (a game with a shared deck) the
    machinery's Deck section; ``tail`` a game's section after Revealed (the Deal).
    ``notes`` maps where free text sits to its blocks of raw lines (exactly as typed):
    ``"top"`` (above the title), ``"header"`` (between the header and the board),
    ``"body"`` (a Notes block after the board), ``"above log"`` (the line right above
    ``Log``), ``"board …"`` (inside the board: see :func:`board_note`), ``"entry N"`` (in the
    view's log after entry N; ``"entry 0"`` before the first), ``"m SECTION"`` (in the
    machinery, at the end of that section; ``"m "`` before its first heading) and, in a
    document of the older layout, ``"after log"``, ``"fair play"``, ``"revealed"`` and
    ``"log"`` (the end of the document).  ``"top"`` holds one block, blank lines included.
    """

    FIELDS = ("match_id", "title", "header", "body", "fairplay", "log", "revealed", "notes", "tail")

    def __init__(self, match_id: str, title: str, header: list[Line], body: list[Line], fairplay: list[Line],
                 log: list[Line], revealed: list[Line] | None = None, notes: dict[str, list[list[str]]] | None = None,
                 tail: list[Line] | None = None):
        self.match_id, self.title, self.header, self.body, self.fairplay, self.log = (
            match_id, title, header, body, fairplay, log)
        self.revealed = [] if revealed is None else revealed
        self.notes = {} if notes is None else notes
        self.tail = [] if tail is None else tail
        #: the document's lines exactly as typed (a note keeps its bytes); board notes by line number
        self.raw: list[str] = []
        self.board_notes: dict[int, None] = {}
        #: the board's lines notes included (:attr:`body` leaves the notes out once they are found)
        self.board: list[Line] = []
        #: the time the header's ``Last entry:`` line gives ('' without one, or one pbd does not write)
        self.last_entry = ""


#: The header's first line after the title: when the log last grew, by the clock of the pbd that wrote then.
#: It tells players since when the seats the header names (``Turn:``, ``Owed:``, ``Waiting on:``) have been
#: waited on; it is never trusted: ``pbd status`` and ``pbd claim`` measure waits by the backend's own time.
LAST_ENTRY = "Last entry:"
LAST_ENTRY_FORMAT = "%d %b %Y %H:%M UTC"
LAST_ENTRY_RE = pattern(r"^Last entry: (?P<when>\d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC)$")


def last_entry_now() -> str:
    """Return the time now as the ``Last entry:`` line writes it (UTC, to the minute)."""
    import time

    return time.strftime(LAST_ENTRY_FORMAT, time.gmtime())


#: Headings of the sections pbd writes after the board, and the notes heading.
SECTIONS = ("fair play", "revealed", "log")
NOTES = "notes"
#: Headings of a game's own fair-play material, written after Fair play (``render_frame(tail=...)``).
TAIL_HEADINGS = ("deal",)
#: A heading pbd writes inside the log to group it (``— Turn 3 · Ann —``); derived from the log, never read.
LOG_GROUP_RE = pattern(r"^\s*—\s+.*\s+—\s*$")


def _key(text: str) -> str:
    """Return a line as a heading key: stripped, lower case, without a trailing colon."""
    return text.strip().lower().rstrip(":").strip()


#: What an editor does to typed text, undone before pbd reads its own lines (notes are left alone):
#: curly quotes and apostrophes, no-break and narrow spaces, zero-width characters, Shift+Enter.
TYPED = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201b": "'", "\u02bc": "'", "\u2032": "'",
                       "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00a0": " ", "\u2007": " ",
                       "\u202f": " ", "\u2009": " ", "\u200b": None, "\u200c": None, "\u200d": None,
                       "\ufeff": None, "\u000b": " "})


_TYPED_CHARS = tuple(map(chr, TYPED))


def typed(text: str) -> str:
    """Return ``text`` as pbd reads a line it owns: the editor's typography undone (``’`` -> ``'``, no-break
    space -> space, zero-width characters dropped), the same way card names are read."""
    if any(c in text for c in _TYPED_CHARS):      # translate is slow, even with nothing to do
        return text.translate(TYPED)
    return text


def _title_line(lines: list[str]) -> tuple[int, re.Match] | None:
    """Return the index and match of the first ``pbd match`` title line among ``lines`` (typed), if any.

    Only a line holding the words is matched against :data:`TITLE_RE` (the expression is then
    compiled only for a document that has a title).
    """
    for k, line in enumerate(lines):
        if "pbd match" in line.lower() and (m := TITLE_RE.match(line)):
            return k, m
    return None


def title_of(text: str) -> str:
    """Return the title a document's ``pbd match`` line gives ('' without one): :func:`split_frame`'s, alone.

    Fast path: every command reads the title, and compiling :data:`TITLE_RE` costs it about 1M
    instructions.  A first ``pbd match`` line as pbd writes it (``pbd match <id> · <title>``, the id
    in lower-case hex) is read by hand, with the same result; any other goes through the expression.
    """
    lines = typed(text).split("\n")
    for line in lines:
        if "pbd match" in line.lower():
            if line.startswith("pbd match "):
                match_id, dot, title = line[len("pbd match "):].partition(" · ")
                if dot and 4 <= len(match_id) <= 32 and not match_id.strip("0123456789abcdef"):
                    return title.strip()
            break
    found = _title_line(lines)
    return (found[1].group("title") or "").strip() if found else ""


#: The line that starts the machinery, the last part of a local document: what pbd reads and players need not.
MACHINERY = "Machinery"
#: The machinery's heading of the log entries' machine fields (by entry number) and of the table's duty entries.
ENTRIES = "Entries"
#: The headings of the machinery's sections (as :func:`_key` reads them), in the order pbd writes them.
MACHINE_SECTIONS = ("entries", "deck", "fair play", "revealed") + TAIL_HEADINGS
#: A log entry that only serves the table — a shuffle pass, unlocks, a chain value a die waited on, published
#: deal cards: kept whole in the machinery, out of the players' view (a move's line shows what it did).
DUTY_RE = pattern(r"^(?:(?:locked and shuffled \d+ cards?|unlocked \d+ cards?(?: of the deal)?|published \d+ [^;]*"
                  r"|a fresh random value for [^;]*)(?:; |$))+$")
#: A machinery line holding a view entry's machine fields: its number, the long hex tokens its words hold (in
#: order; the view shows each as :data:`ELIDED`), then its tags (`` · chain 3 · seal …``).
FIELDS_RE = pattern(r"^(?P<n>\d+)(?:\s+·\s+hex\s+(?P<hex>[0-9a-f]{20,}(?:\s+[0-9a-f]{20,})*)(?=\s+·\s|$))?"
                    r"(?P<rest>\s+·\s.*)?$")
#: A long hex token in a log entry's words (a commitment, a nonce): machinery, not words (issue 27).
HEX_WORD_RE = pattern(r"(?<![0-9A-Za-z_+/=-])[0-9a-f]{20,}(?![0-9A-Za-z_+/=-])")
#: What the players' view shows where an entry's words hold a long hex token (the token is in the machinery).
ELIDED = "…"
#: A line of the Fair play or Revealed section as pbd writes it (a malformed one is then named, not kept as a note).
_OWN_FAIRPLAY_RE = pattern(r"^[^:]{1,40}:\s*commitment\b")
_OWN_REVEALED_RE = pattern(r"^(?:[^:]{1,40}:\s*seed\b|.{1,40}\s\d+\.\s)")


def is_duty(entry: LogEntry) -> bool:
    """Return True if ``entry`` only serves the table (see :data:`DUTY_RE`): the machinery keeps it whole."""
    return bool(DUTY_RE.match(entry.text))


def view_words(text: str) -> tuple[str, list[str]]:
    """Return ``(words, tokens)``: an entry's ``text`` as the view shows it, each long hex token elided, and the tokens.

    Words that already hold :data:`ELIDED` are shown whole (the tokens could not be put back in place).
    """
    tokens = HEX_WORD_RE.findall(text)
    if not tokens or ELIDED in text:
        return text, []
    return HEX_WORD_RE.sub(ELIDED, text), tokens


def joined_words(words: str, tokens: Sequence[str]) -> str:
    """Return an entry's text from its view ``words`` and the machinery's ``tokens`` (the inverse of :func:`view_words`).

    Each :data:`ELIDED` takes the next token, in order; a count that does not match leaves the text as it
    is, so the entry's hash names the change.
    """
    parts = words.split(ELIDED)
    if not tokens or len(parts) != len(tokens) + 1:
        return words
    return "".join(p + t for p, t in zip(parts, [*tokens, ""]))


def _machine_owns(section: str, text: str) -> bool:
    """Return True if ``text`` (a non-blank line of the machinery's ``section``) is one pbd writes there."""
    if section == "entries":
        return bool(FIELDS_RE.match(text.strip()) or LOG_RE.match(text))
    if section in ("fair play",):
        return bool(_OWN_FAIRPLAY_RE.match(text.strip()))
    if section == "revealed":
        return bool(_OWN_REVEALED_RE.match(text.strip()))
    return section != "" and text[:1].isspace()      # the Deck and the Deal: indented under their heading


class _Runs:
    """Sorts a part's lines into pbd's and the players' runs of notes (blank lines before a note are its own)."""

    def __init__(self, notes: dict[str, list[list[str]]]):
        self.notes, self.pending, self.blanks = notes, [], []

    def note(self, raw: str) -> None:
        """Take a non-blank line pbd does not own."""
        self.pending += [*self.blanks, raw]
        self.blanks = []

    def blank(self, raw: str) -> None:
        """Take a blank line (pbd's separator unless a note follows it)."""
        self.blanks.append(raw)

    def flush(self, slot: str) -> None:
        """End the run of notes (a line pbd owns follows): keep it under ``slot``."""
        if self.pending:
            self.notes.setdefault(slot, []).append(self.pending)
        self.pending, self.blanks = [], []


def _split_parts(text: str) -> Frame | None:
    """Return the :class:`Frame` of a document in two parts (the players' view, then the machinery), or None.

    :raises DocumentFormatError: a log entry's machine fields without its line in the view, or twice.
    """
    raw = text.split("\n")
    lines = [Line(i, t.rstrip()) for i, t in enumerate(typed(text).split("\n"), 1)]
    found = _title_line([line.text for line in lines])
    if found is None:
        return None
    log_at = next((k for k in range(found[0] + 1, len(lines)) if _key(lines[k].text) == "log"), None)
    if log_at is None:
        return None
    cut = next((k for k in range(log_at + 1, len(lines)) if lines[k].text.strip() == MACHINERY), None)
    if cut is None:
        return None
    frame = _split_legacy("\n".join(raw[:log_at]))
    notes = frame.notes
    fields, whole, sections = _read_machinery(lines, raw, cut + 1, notes)
    entries: dict[int, Line] = {}
    runs, anchor = _Runs(notes), 0
    for k in range(log_at + 1, cut):
        line = lines[k]
        text_k = line.text
        m = LOG_RE.match(text_k) if text_k[:1].isdigit() else None
        if m and int(m.group("n")) in fields and int(m.group("n")) not in entries:
            runs.flush(f"entry {anchor}")
            anchor = int(m.group("n"))
            entries[anchor] = Line(line.number, joined_words(text_k.strip(), fields[anchor][2]) + fields[anchor][1])
        elif LOG_GROUP_RE.match(text_k):
            runs.flush(f"entry {anchor}")
        elif text_k.strip():
            runs.note(raw[k])
        else:
            runs.blank(raw[k])
    runs.flush(f"entry {anchor}")
    for n, (number, _rest, _hex) in fields.items():
        if n not in entries:
            raise DocumentFormatError(
                f"log entry {n} has its machine fields in the machinery but no line in the view's log: put its "
                f"line back ('{n}. NAME: WORDS' after entry {n - 1})", line=number)
    for n, line in whole.items():
        if n in entries:
            raise DocumentFormatError(f"log entry {n} is in the machinery twice", line=line.number)
        entries[n] = line
    frame.log = [entries[n] for n in sorted(entries)]
    frame.fairplay, frame.revealed = sections["fair play"], sections["revealed"]
    _take_board_notes(frame, text)
    if sections["deck"]:
        frame.body = [*frame.body, Line(0, ""), *sections["deck"]]
    frame.tail = sections["tail"]
    return frame


def _read_machinery(lines: list[Line], raw: list[str], start: int, notes: dict[str, list[list[str]]]):
    """Return ``(fields, whole, sections)`` of the machinery from line index ``start``; its notes go into ``notes``.

    ``fields`` maps an entry number to ``(line number, tags, hex tokens of its words)``; ``whole`` maps a duty entry's number to its
    line; ``sections`` holds the Deck (heading included), Fair play, Revealed and tail (a game's
    section after Revealed, heading included) lines.

    :raises DocumentFormatError: two machinery lines for one entry.
    """
    fields: dict[int, tuple[int, str, list[str]]] = {}
    whole: dict[int, Line] = {}
    sections: dict[str, list[Line]] = {"deck": [], "fair play": [], "revealed": [], "tail": []}
    runs, section = _Runs(notes), ""
    for k in range(start, len(lines)):
        line = lines[k]
        text = line.text
        key = _key(text) if not text[:1].isspace() else ""
        if key in MACHINE_SECTIONS:
            runs.flush(f"m {section}")
            section = key
            if key == "deck" or key in TAIL_HEADINGS:
                sections["deck" if key == "deck" else "tail"].append(line)
            continue
        if not text.strip():
            runs.blank(raw[k])
            continue
        if not _machine_owns(section, text):
            runs.note(raw[k])
            continue
        runs.flush(f"m {section}")
        if section != "entries":
            sections["deck" if section == "deck" else "tail" if section in TAIL_HEADINGS else section].append(line)
            continue
        m = FIELDS_RE.match(text.strip())
        n = int(m.group("n")) if m else int(LOG_RE.match(text).group("n"))
        if n in fields or n in whole:
            raise DocumentFormatError(f"log entry {n} has two lines in the machinery", line=line.number)
        if m:
            fields[n] = (line.number, m.group("rest") or "", (m.group("hex") or "").split())
        else:
            whole[n] = Line(line.number, text.strip())
    runs.flush(f"m {section}")
    return fields, whole, sections


#: A line of the board a player marks as their own: ``Note: …`` (any game, anywhere in the board).
NOTE_LINE_RE = pattern(r"^\s*notes?\s*:\s*\S", re.I)
#: What a refusal of a line in the board adds: how to keep it as one's own
NOTE_HINT = "a line of your own here: start it with 'Note:' to keep it as a note"
#: How a note inside the board names where it stands: after the ``k``-th non-blank board line reading ``text``
#: (``board 0|`` before the first); see :func:`board_note` and :func:`_place_board_notes`.
BOARD_SLOT = "board "
#: how many board lines above a note name its place (the nearest first: a line the next move rewrites, a card's
#: HP say, leaves the next one), and what joins them in its slot
ANCHORS = 4
ANCHOR_SEP = "\x1f"


def board_note(frame: Frame, line: Line, meta: Meta | None = None) -> None:
    """Keep ``line`` of ``frame.body`` as a player's note where it stands in the board (exactly as typed).

    Its place is named by the board lines above it that are not notes (the nearest
    :data:`ANCHORS` of them, each by its text and which occurrence of that text it is: a line
    the next move rewrites leaves the next one); notes on consecutive lines make one block.
    The notes are recorded in ``frame.notes`` and, when given, ``meta.notes`` (a game that
    finds one while reading its board, after :func:`parse_meta`).
    """
    frame.board_notes[line.number] = None
    for notes in (frame.notes, meta.notes if meta is not None else None):
        if notes is not None:
            for slot in [s for s in notes if s.startswith(BOARD_SLOT)]:
                del notes[slot]
    raw = frame.raw
    if not frame.board:
        frame.board = list(frame.body)
    body = [ln for ln in frame.board if ln.text.strip()]
    kept: list[Line] = []
    block: list[str] | None = None
    for ln in body:
        if ln.number not in frame.board_notes:
            kept.append(ln)
            block = None
            continue
        text = raw[ln.number - 1] if 0 < ln.number <= len(raw) else ln.text
        if block is not None:
            block.append(text)
            continue
        anchors = []
        for i in range(len(kept) - 1, max(-1, len(kept) - 1 - ANCHORS), -1):
            anchors.append(f"{sum(1 for k in kept[:i + 1] if k.text == kept[i].text)}|{kept[i].text}")
        block = [text]
        frame.notes.setdefault(BOARD_SLOT + (ANCHOR_SEP.join(anchors) or "0|"), []).append(block)
    if meta is not None:
        for slot, blocks in frame.notes.items():
            if slot.startswith(BOARD_SLOT):
                meta.notes[slot] = ["\n".join(b) for b in blocks]


def _nth(lines: list[str], text: str, k: int) -> int | None:
    """Return the index of the ``k``-th line (1-based) reading ``text`` (trailing spaces aside), if any."""
    for i, line in enumerate(lines):
        if line.rstrip() == text:
            k -= 1
            if not k:
                return i
    return None


def _place_board_notes(body: list[str], notes: dict[str, list[str]]) -> list[str]:
    """Return ``body`` with the notes typed inside the board put back after the lines they stood under."""
    slots = [s for s in notes if s.startswith(BOARD_SLOT)]
    if not slots:
        return body
    after: dict[int, list[str]] = {}
    lost: list[str] = []
    for slot in slots:
        where = None
        for anchor in slot[len(BOARD_SLOT):].split(ANCHOR_SEP):
            k, _, text = anchor.partition("|")
            where = -1 if not text else _nth(body, text, int(k or 0))
            if where is not None:
                break
        if where is None:
            lost += notes[slot]
        else:
            after.setdefault(where, []).extend(notes[slot])
    out = list(after.get(-1, ()))
    for i, text in enumerate(body):
        out.append(text)
        out += after.get(i, ())
    return out + lost


def view_of(text: str) -> str:
    """Return the players' view of a rendered document: its text before the blank line and ``Machinery``."""
    at = text.find(f"\n\n{MACHINERY}\n")
    return text if at < 0 else text[:at + 1]


def machinery_styles(text: str) -> list[tuple[int, int, str]]:
    """Return the style span of a rendered document's machinery: from its ``Machinery`` line to the end.

    A Google Doc shows it as the last part of the document in small grey text (style
    ``"machinery"``), not a tab of its own: a second tab would need every read, write and
    guarded retry to span two tabs at once (the backend reads and writes one), and a player
    opening the document sees the first tab only, where the view then is whole.
    """
    at = text.find(f"\n\n{MACHINERY}\n")
    return [(at + 2, len(text), "machinery")] if at >= 0 else []


def split_frame(text: str) -> Frame:
    """Split a document into title, header, body, fair-play and log parts, and notes.

    A document in two parts (see the module docstring) has its view's log lines joined with
    their machine fields, the Deck section put back at the end of the body and the Deal in
    :attr:`Frame.tail`, so games read it as before; any other document (an older pbd's, a
    board typed by hand) is read by :func:`_split_legacy`.  Players' notes go into
    :attr:`Frame.notes` by where they stand.

    :raises DocumentFormatError: a log entry's machine fields without its line in the view.
    """
    frame = _split_parts(text) if MACHINERY in text else None
    if frame is None:
        frame = _split_legacy(text)
        if frame.match_id:
            _take_board_notes(frame, text)
    if frame.header and frame.header[0].text.startswith(LAST_ENTRY):
        line = frame.header.pop(0)
        if m := LAST_ENTRY_RE.match(line.text):
            frame.last_entry = m.group("when")
    return frame


def _take_board_notes(frame: Frame, text: str) -> None:
    """Set aside the players' lines in the board that any game can tell apart from it.

    Those are the lines marked ``Note: …`` (kept where they stand, see :func:`board_note`)
    and the line right above the ``Log`` heading (slot ``"above log"``): pbd writes a blank
    line there, so a line typed on it, or after it, is a player's.  (Only that one line: a
    line above it cannot be told from the board's last paragraph.)
    """
    frame.raw = raw = text.split("\n")
    body = frame.body
    if not body:
        return
    heading = body[-1].number                     # the line after the board: the Log heading (or a blank)
    while heading < len(raw) and not raw[heading].strip():
        heading += 1
    end = len(body)
    if heading < len(raw) and heading == body[-1].number and _key(typed(raw[heading])) == "log" and end > 1:
        end -= 1                                # the line right above Log: pbd writes a blank line there
        frame.notes.setdefault("above log", []).append([raw[body[end].number - 1]])
    frame.body = frame.board = body[:end]
    for line in list(frame.body):
        if NOTE_LINE_RE.match(line.text):
            board_note(frame, line)
    if frame.board_notes:
        frame.body = [ln for ln in frame.body if ln.number not in frame.board_notes]


def _split_legacy(text: str) -> Frame:
    """Split a document into title, header, body, fair-play and log parts, and notes.

    A document without the ``pbd match`` title line (a board typed by hand, or the
    rulebook's example) is all body.  Lines above the title are notes; the header runs
    from the title to the first blank line (or a ``Notes`` line); ``Fair play``,
    ``Revealed`` and ``Log`` headings start their sections; ``Notes`` blocks and text
    after the log are set aside in :attr:`Frame.notes` (see the module docstring).
    pbd's own lines are read through :func:`typed`; notes are kept exactly as typed.
    """
    raw = text.split("\n")
    lines = [Line(i, t.rstrip()) for i, t in enumerate(typed(text).split("\n"), 1)]   # typed() keeps every newline
    match_id = title = ""
    header: list[Line] = []
    notes: dict[str, list[list[str]]] = {}
    found = _title_line([line.text for line in lines])
    if found is None:
        start = 0
    else:
        start, m = found
        if any(line.text.strip() for line in lines[:start]):
            notes["top"] = [raw[:start]]
        match_id, title = m.group("id"), (m.group("title") or "").strip()
        start += 1
        while start < len(lines) and lines[start].text.strip() and _key(lines[start].text) != NOTES:
            header.append(lines[start])
            start += 1
    parts: dict[str, list[Line]] = {"body": [], "fair play": [], "revealed": [], "log": [], "tail": []}
    current, k, seen = "body", start, set()
    while k < len(lines):
        line, key = lines[k], _key(lines[k].text)
        if key in TAIL_HEADINGS and "log" in seen and "tail" not in seen:
            current = "tail"
            seen.add("tail")
            parts["tail"].append(line)
            k += 1
            continue
        if key in ("fair play", "log") and key not in seen or key == "revealed" and current == "fair play":
            current = key
            seen.add(key)
            k += 1
            continue
        if key == NOTES or current != "body" and _trailing_note(lines, k, current, seen):
            slot = "header" if current == "body" and not any(x.text.strip() for x in parts["body"]) else current
            if current == "log" and "fair play" not in seen:
                slot = "after log"              # between the log and the fair-play material after it
            elif key != NOTES and "log" in seen and "fair play" in seen:
                slot = "log"                    # the players' text at the end of the document
            end = _note_end(lines, k, slot, seen)
            notes.setdefault(slot, []).append(raw[k:end])
            k = end
            continue
        if not (current == "log" and LOG_GROUP_RE.match(line.text)):
            parts[current].append(line)
        k += 1
    for slot, blocks in notes.items():
        for block in blocks:
            while slot != "top" and len(block) > 1 and not block[-1].strip():
                block.pop()
    return Frame(match_id, title, header, _trim(parts["body"]), _trim(parts["fair play"]), _trim(parts["log"]),
                 _trim(parts["revealed"]), notes, _trim(parts["tail"]))


#: What a line pbd owns looks like in each section after the board.
_OWN_LINE = {"log": LOG_RE, "fair play": FAIRPLAY_RE}


def _trailing_note(lines: list[Line], k: int, current: str, seen: set[str]) -> bool:
    """Return True if line ``k`` of a section after the board starts the free text after pbd's lines.

    That is a line that is not one of pbd's (a log entry, a Fair play or Revealed line),
    right after a blank line, with no log entry after it (in the log) or no section heading
    still to come after it (in Fair play or Revealed).
    """
    if not (k and lines[k].text.strip() and not lines[k - 1].text.strip()):
        return False
    text = lines[k].text
    if current == "tail" and text[:1].isspace():
        return False                            # a game's material is indented under its heading
    own = _OWN_LINE.get(current)
    if own.match(text.strip()) if own else SEED_RE.match(text.strip()) or DECK_LINE_RE.match(text.strip()):
        return False
    later = lines[k + 1:]
    if current == "log":
        return not any(LOG_RE.match(line.text) for line in later)
    return not any(_key(line.text) in SECTIONS and _key(line.text) not in seen for line in later)


def _note_end(lines: list[Line], k: int, slot: str, seen: set[str] = frozenset()) -> int:
    """Return where the notes starting at line ``k`` end (the index of the first line after them)."""
    end = k + 1
    while end < len(lines):
        key = _key(lines[end].text)
        if slot == "header" and not lines[end].text.strip() or key == NOTES and slot not in ("log", "after log") \
                or key in SECTIONS and (key not in seen or slot != "log"):
            break
        end += 1
    return end


def note_spans(text: str) -> list[tuple[int, int]]:
    """Return ``(start, end)`` string offsets of the players' own text in a document (see :func:`split_frame`).

    Rich backends keep these spans untouched (no edit, no restyle) when they write.
    """
    frame = split_frame(text)
    blocks = ["\n".join(b).lstrip("\n") for slot in frame.notes.values() for b in slot]   # (from its first line)
    spans, pos = [], 0
    for block in sorted(blocks, key=text.find):
        at = text.find(block, pos)
        if at < 0 or not block:
            continue
        spans.append((at, at + len(block)))
        pos = at + len(block)
    return spans


def parse_meta(game: str, frame: Frame) -> Meta:
    """Return the :class:`Meta` of a split document.

    :raises DocumentFormatError: a fair-play or log line that cannot be read.
    """
    meta = Meta(game, frame.match_id)
    meta.last_entry = frame.last_entry
    meta.notes = {slot: ["\n".join(block) for block in blocks] for slot, blocks in frame.notes.items()}
    for line in frame.fairplay:
        m = FAIRPLAY_RE.match(line.text.strip())
        if not m:
            raise DocumentFormatError(
                "expected 'NAME: commitment <64 hex> · chain N <64 hex> · draws N · rolls N · free N' in the Fair "
                "play section", line=line.number)
        meta.fairplay.append(PlayerMeta(m.group("name").strip(), m.group("commit"), m.group("chain"),
                                        int(m.group("idx")), *(int(m.group(k) or 0) for k in ("draws", "rolls",
                                                                                              "free"))))
    meta.published = {p.name: p.chain_index for p in meta.fairplay}
    for line in frame.revealed:
        text = line.text.strip()
        if m := SEED_RE.match(text):
            meta.revealed.append(Reveal(m.group("name").strip(), m.group("seed")))
        elif (m := DECK_LINE_RE.match(text)) and meta.revealed_by(m.group("name").strip()):
            meta.revealed_by(m.group("name").strip()).deck.append(m.group("card"))
        else:
            raise DocumentFormatError("expected 'NAME: seed <64 hex>' or 'NAME 12. CARD' in the Revealed section",
                                      line=line.number)
    for line in frame.log:
        m = LOG_RE.match(line.text)
        if not m:
            raise DocumentFormatError("expected a log entry like '12. Ann: draw'", line=line.number)
        meta.log.append(_parse_entry(int(m.group("n")), m.group("player").strip(), m.group("text")))
    if any(len(e.hash) == 8 for e in meta.log):
        meta.version = 1
    return meta


def render_frame(meta: Meta, title: str, header: list[str], body: list[str], sealed: Sequence[str] = (),
                 groups: dict[int, str] | None = None, tail: Sequence[str] = (), machinery: Sequence[str] = ()) -> str:
    """Return the whole document text for a game's header and body lines, the players' notes kept in place.

    The players' view comes first: the header, the board and the log in words (each entry's
    number, player and text; ``groups`` maps an entry's number to a heading written before it,
    ``— Turn 3 · Ann —``).  Then, after a line reading :data:`MACHINERY`, the machinery: each
    view entry's machine fields by number and the duty entries whole (:data:`ENTRIES`), the
    game's ``machinery`` section (the table's Deck), Fair play, Revealed, then ``tail`` (the
    game's own fair-play material: a heading from :data:`TAIL_HEADINGS`, then indented lines).
    Joining a view line and its fields gives the entry's line as the hash and signature cover it.
    ``sealed`` are game lines the log's seal covers besides Fair play and Revealed (a deal).
    Entries recorded in this command are sealed, signed and hashed here (:meth:`Meta.finalize`).
    Notes of a document in the older layout (after the log, between the fair-play sections)
    are written at the end of the view.
    """
    meta.finalize([*meta.section_lines(), *sealed])
    notes = meta.notes
    groups = groups or {}

    def kept(slot: str) -> list[str]:
        return [line for block in notes.get(slot, ()) for line in ("", block)]

    def at(slot: str) -> list[str]:
        return list(notes.get(slot, ()))

    out = [*notes.get("top", ()), f"pbd match {meta.match_id} · {title}" if meta.match_id else title]
    if meta.last_entry and meta.match_id:
        out.append(f"{LAST_ENTRY} {meta.last_entry}")
    out += header
    out += [*kept("header"), "", *_place_board_notes(body, notes), *kept("body")]
    out += ["", *at("above log"), "Log", *at("entry 0")]
    machine = ["", MACHINERY, *at("m "), ENTRIES]
    numbers = set()
    for e in meta.log:
        numbers.add(e.number)
        written = e.written()
        if e.number in groups:
            out.append(f"— {groups[e.number]} —")
        if is_duty(e):
            machine.append(written)
        else:
            head = f"{e.number}. {e.player}: {e.text}"
            words, tokens = view_words(e.text)
            out.append(f"{e.number}. {e.player}: {words}")
            machine.append(f"{e.number}{' · hex ' + ' '.join(tokens) if tokens else ''}{written[len(head):]}")
        out += at(f"entry {e.number}")
    for slot in sorted((s for s in notes if s.startswith("entry ") and s != "entry 0"), key=lambda s: int(s[6:])):
        if int(slot[6:]) not in numbers:         # (an entry taken back by undo: its notes stay at the end)
            out += at(slot)
    for slot in ("after log", "fair play", "revealed", "log"):   # (a document in the older layout)
        out += kept(slot)
    machine += at("m entries")
    if machinery:
        machine += ["", *machinery, *at(f"m {_key(machinery[0])}")]
    if meta.fairplay:
        machine += ["", "Fair play", *(p.line() for p in meta.fairplay), *at("m fair play")]
    if meta.revealed:
        machine += ["", "Revealed"]
        for r in meta.revealed:
            machine += [f"{r.name}: seed {r.seed}", *(f"{r.name} {i}. {card}" for i, card in enumerate(r.deck, 1))]
        machine += at("m revealed")
    if tail:
        machine += ["", *tail, *at(f"m {_key(tail[0])}")]
    written_slots = {"m ", "m entries", "m fair play" if meta.fairplay else "", "m revealed" if meta.revealed else "",
                     f"m {_key(machinery[0])}" if machinery else "", f"m {_key(tail[0])}" if tail else ""}
    for slot in notes:
        if slot.startswith("m ") and slot not in written_slots:
            machine += at(slot)                 # (a section no longer written: its notes at the end)
    return "\n".join(out + machine) + "\n"


def _trim(lines: list[Line]) -> list[Line]:
    """Return ``lines`` without blank lines at either end (in linear time)."""
    start, end = 0, len(lines)
    while start < end and not lines[start].text.strip():
        start += 1
    while end > start and not lines[end - 1].text.strip():
        end -= 1
    return lines[start:end]


class Secrets(Record):
    """One player's private state for one match (kept under PBD_HOME, never in the document)."""

    FIELDS = ("match_id", "player", "game", "seed", "deck", "drawn", "hand", "extra")

    def __init__(self, match_id: str, player: str, game: str, seed: bytes, deck: list[str],
                 drawn: list[int] | None = None, hand: list[str] | None = None, extra: dict[str, Any] | None = None):
        self.match_id, self.player, self.game, self.seed, self.deck = match_id, player, game, seed, deck
        self.drawn = [] if drawn is None else drawn
        self.hand = [] if hand is None else hand
        self.extra = {} if extra is None else extra
        #: :meth:`_undrawn`'s list and what it was made from: ``[deck, its length, drawn, its length, positions]``
        #: (set here, not left to the class: an attribute the class holds makes every read of the instance's slower)
        self._undrawn_memo: list | None = None

    def remaining(self) -> list[int]:
        """Return the 1-based deck positions not drawn yet (a list of the caller's own)."""
        return list(self._undrawn())

    def _undrawn(self) -> list[int]:
        """Return the positions not drawn yet: the list itself, which :meth:`Chance.draw` keeps up to date.

        A fast path: a deck has 50 positions to look through, and each draw takes one.  The
        list is kept while the deck and the drawn positions are the same lists of the same
        lengths (draws only append to ``drawn``; loading private state replaces the lists).
        """
        deck, drawn, memo = self.deck, self.drawn, self._undrawn_memo
        if (memo is None or memo[0] is not deck or memo[1] != len(deck) or memo[2] is not drawn
                or memo[3] != len(drawn)):
            memo = self._undrawn_memo = [deck, len(deck), drawn, len(drawn), _left(len(deck), drawn)]
        return memo[4]


def _left(size: int, drawn: list[int]) -> list[int]:
    """Return the positions ``1..size`` not in ``drawn``, ascending (its own function: see :meth:`Meta.record`'s loop)."""
    if not drawn:                           # (a new match: nothing drawn)
        return list(range(1, size + 1))
    taken = set(drawn)
    return [i for i in range(1, size + 1) if i not in taken]


class Game:
    """The interface every game implements (metadata + a small fixed set of functions).

    State objects are game-specific dataclasses with a ``meta: Meta`` attribute.
    ``parse(render(s)) == s`` must hold for every reachable state.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    #: the game's moves as a player types them, a few lines (``pbd help GAME``, ``pbd move --help --game GAME``)
    notation: ClassVar[str] = ""
    #: the move that ends a player's turn (or act), named when a move is refused
    turn_end: ClassVar[str] = ""
    #: whether a roll no rule names is a die the player reads ("You rolled d6: 4 (for your move)"); False
    #: where such rolls are the table's own picks (2Xd6 picks the draw pile by one), kept out of the summary
    unnamed_roll: ClassVar[bool] = True
    players: ClassVar[tuple[int, int]] = (2, 2)
    #: whether a joining player brings a deck of their own (Twin Tower City shares one)
    join_needs_deck: ClassVar[bool] = True
    #: how likely a simulated player is to pick a move, by its first word (``"*"``: any other word);
    #: see :func:`pbd.simulate.pick`
    move_weights: ClassVar[dict[str, float]] = {}
    #: the classes a parsed board is made of, its state class first: a game that names them has a board
    #: it parsed kept by its exact text (:func:`pbd.match.parse_board`), so reading it again skips the parse
    parsed_classes: ClassVar[tuple[type, ...]] = ()
    #: a game whose document holds a shared deck (:mod:`pbd.table.deck`): its numbers' membership tests are
    #: kept between commands (:func:`pbd.cache.recall_points`)
    shares_a_deck: ClassVar[bool] = False

    def sniff(self, text: str) -> bool:
        """Return True if a document without a pbd title looks like this game's board."""
        return False

    def template(self) -> str:
        """Return the blank board."""
        raise NotImplementedError

    def parse(self, text: str) -> Any:
        """Return the state a document shows.

        :raises DocumentFormatError: naming the line and what was expected.
        """
        raise NotImplementedError

    def render(self, state: Any) -> str:
        """Return the document text of ``state``."""
        raise NotImplementedError

    def styles(self, text: str) -> list[tuple[int, int, str]]:
        """Return ``(start, end, style)`` spans of a rendered document for rich backends.

        Offsets are Python string indexes into ``text``; ``style`` is ``"heading"``,
        ``"bold"`` or a rulebook colour name (``"Blue"``, ``"Gray"``, ``"Yellow"``,
        ``"Green"``, ``"Orange"``, ``"Red"``, ``"Black"``).  Plain-text backends ignore it.
        """
        return []


class Chance:
    """Draws and rolls for the seats whose secrets we hold, derived by :mod:`pbd.fairplay`.

    In a real match pbd holds only the acting seat's secrets; a simulation holds every seat's.
    Each event advances the seat's public counter of its kind (``PlayerMeta.draws``,
    ``rolls``, ``free``) and is tagged in the next log entry, so that an audit can re-derive
    it once the seed is revealed.  Its beacon is every other seat's latest published chain
    value, and each of those must have been published after the seat committed (else the
    seat could have chosen its seed knowing it): until then the event is refused.
    """

    #: True while the log is replayed (:class:`pbd.audit.ReplayChance`): a move keeps the words the log wrote it in
    #: (a subclass sets it; each instance keeps its class's: CPython 3.11 reads an instance's own attribute at
    #: once, a class's through a full lookup every time, and a game asks every move)
    replaying: bool = False

    def __init__(self, meta: Meta, secrets: dict[str, Secrets]):
        self.replaying = type(self).replaying
        self.meta = meta
        self.secrets = {k.casefold(): v for k, v in secrets.items()}
        for sec in self.secrets.values():
            meta.signers.setdefault(sec.player.casefold(), sec.seed)
        #: what :meth:`_seat` keeps for a seat (name as asked), see :meth:`_keep_seat`
        self._seats: dict[str, tuple] = {}

    def _secrets(self, player: str) -> Secrets:
        try:
            return self.secrets[player.casefold()]
        except KeyError:
            from pbd.errors import IllegalMoveError

            raise IllegalMoveError(f"only {player}'s own pbd can draw cards or roll dice for {player}") from None

    def can_draw_for(self, player: str) -> bool:
        """Return True if we hold ``player``'s secrets."""
        return player.casefold() in self.secrets

    def shown(self, hand: list, card, hidden=None, words: str = ""):
        """Return the card of ``hand`` a move names, as the log shows it, or None if ``hand`` does not hold it.

        The one way a game that keeps its hands itself (C&C) reads a hand card (a game on a shared
        deck reads :meth:`pbd.table.deck.SharedDeck.card`).  ``card`` is the card's name, or its
        position in ``hand`` (an int from 0).  A seat's pbd reads its own hand, so here (a command)
        the card is held or it is not.  Replaying the log without the seat's seed
        (:class:`pbd.audit.ReplayChance`), a card nobody has seen is ``hidden`` in ``hand`` and reads as
        what the log showed: by name, one hidden card becomes the card the move names; by position,
        the card the entry names, ``words`` being the entry's words with ``{}`` where the card stands.
        """
        if isinstance(card, int):
            return hand[card] if 0 <= card < len(hand) else None
        return card if card in hand else None

    def _others(self, player: str) -> list[PlayerMeta]:
        folded = player.casefold()
        return [p for p in self.meta.fairplay if p.name.casefold() != folded]

    def beacon(self, player: str) -> str:
        """Return the beacon of ``player``'s next event: every other seat's latest published chain value."""
        return self._beacon(self._others(player))

    @staticmethod
    def _beacon(others: list[PlayerMeta]) -> str:
        """Return the beacon made of ``others``' latest published chain values (see :meth:`beacon`)."""
        return fairplay.beacon_text([(p.name, p.chain_index, p.chain) for p in others])

    def beacon_index(self, player: str) -> tuple[int, ...]:
        """Return the value numbers :meth:`beacon` uses, in seat order."""
        return tuple(p.chain_index for p in self._others(player))

    def waiting_on(self, player: str) -> list[str]:
        """Return the seats whose latest chain value ``player`` may not use yet (published before it committed).

        An empty list with no other seat at all is reported as ``["another player"]``.
        """
        others = self._others(player)
        if not others:
            return ["another player"]
        return _stale(self.meta, player, others)

    def ready(self, player: str) -> bool:
        """Return True if ``player`` can make a random event now."""
        return not self.waiting_on(player)

    def _beacon_or_refuse(self, player: str) -> tuple[str, tuple[int, ...]]:
        """Return the beacon of ``player``'s next event and the value numbers it uses (:meth:`beacon_index`).

        (:meth:`_seat` answers the common case without it.)

        :raises IllegalMoveError: a value it needs may not be used yet (see :meth:`waiting_on`).
        """
        waiting = self.waiting_on(player)
        if waiting:
            from pbd.errors import IllegalMoveError

            raise IllegalMoveError(
                f"{player}'s draws and rolls wait on a step {' and '.join(waiting)}'s pbd "
                f"{'takes' if len(waiting) == 1 else 'take'} first (so that nobody can foresee them)",
                hint=f"it comes with {' and '.join(waiting)}'s next pbd command")
        others = self._others(player)
        return self._beacon(others), tuple(p.chain_index for p in others)

    def _seat(self, player: str) -> tuple[PlayerMeta | None, str, tuple[int, ...]]:
        """Return ``player``'s fair-play record and the beacon of its next event (:meth:`_beacon_or_refuse`'s answer).

        A fast path (every draw and roll asks, and the beacon changes with every turn): the
        seat's record, the other seats and the log entry carrying its commitment are kept with
        the log and the list of seats (the log only grows, a new log is a new list; seats are
        only appended to the list); each other seat's latest value is then plainly fresh when
        the log's index has it published in an entry after that commitment (:func:`_fresh`'s
        answer for it).  Anything else (a value not seen published yet, a seat that has not
        committed, no other seat) goes through :meth:`_beacon_or_refuse`.

        :raises IllegalMoveError: a value the beacon needs may not be used yet (see :meth:`waiting_on`).
        """
        meta = self.meta
        log, fp = meta.log, meta.fairplay
        kept = self._seats.get(player)
        if kept is None or kept[0] is not log or kept[1] is not fp or kept[2] != len(fp):
            kept = self._keep_seat(player)
        _, _, _, pub, others, first, mine = kept
        values = numbers = ()               # (tuples grown a seat at a time: with one other seat, no list made)
        for p in others:
            k = p.chain_index
            if not k or first.get((p.name, k), 0) <= mine:
                return pub, *self._beacon_or_refuse(player)     # not plainly fresh: the full check
            values += (p.name, k, p.chain),
            numbers += k,
        if not values:
            return pub, *self._beacon_or_refuse(player)
        return pub, fairplay.beacon_text(values), numbers

    def _keep_seat(self, player: str) -> tuple:
        """Return what :meth:`_seat` keeps: ``(log, seats, their number, record, others, first, commit)``.

        ``first`` is the log index's ``first_pub`` (kept up to date as the log grows); ``commit`` the
        number of the entry carrying the seat's commitment.  It is kept only once that entry is in
        the log: before, ``commit`` is above every entry number (no value is plainly fresh) and the
        seat is asked anew next time (it may commit later in this log).
        """
        meta = self.meta
        index = meta.log_index()
        mine = index.commits.get(player.casefold())
        kept = (meta.log, meta.fairplay, len(meta.fairplay), meta.player(player), self._others(player),
                index.first_pub, mine.number if mine else 1 << 62)
        if mine is not None:
            self._seats[player] = kept
        return kept

    def _note(self, player: str, kind: str, counter: int, faces: tuple[int, ...] = (), face: int = 0,
              purpose: str = "", pub: PlayerMeta | None = None, beacon: tuple[int, ...] | None = None) -> None:
        """Tag the event for the next log entry and count it (``pub`` and ``beacon``: the seat's record and
        :meth:`beacon_index`, when the caller has them)."""
        pub = pub or self.meta.player(player)
        beacon = self.beacon_index(player) if beacon is None else beacon
        self.meta.pending_events.append(
            Event(pub.name if pub else player, counter, beacon, kind, faces, face, purpose))
        if pub:
            pub.advance(kind)

    def publish(self, player: str) -> None:
        """Publish ``player``'s next chain value (at the end of each of their turns).

        Each value hashes to the one before it, so anyone can check it; only the seed's
        holder can compute it.  With the last value of a chain goes the head of the next.
        """
        meta = self.meta
        pub = meta.player(player)
        sec = self.secrets.get(player.casefold())
        if pub is None or sec is None or not pub.chain:
            return
        k = pub.chain_index = pub.chain_index + 1
        pub.chain = fairplay.published_value(sec.seed, k)
        if not k % fairplay.CHAIN_LENGTH:   # (fairplay.ends_generation(k), k > 0, without a call: every turn)
            meta.pending_heads[pub.name] = fairplay.head(sec.seed, k // fairplay.CHAIN_LENGTH)

    def draw(self, player: str, n: int = 1) -> list[str]:
        """Draw ``n`` cards for ``player`` uniformly among the positions not yet drawn."""
        sec = self.secrets.get(player.casefold()) or self._secrets(player)    # (the call only to refuse)
        remaining = sec._undrawn() if n > 0 else ()
        size = len(remaining)
        if not size:
            return []
        if n > size:
            n = size
        pub, beacon, index = self._seat(player)     # no chain value is published between the cards
        drawn = sec.drawn
        counter = pub.draws if pub else len(drawn)
        positions = fairplay.draws(sec.seed, counter, beacon, remaining, n)
        # the events are tagged and counted here, not through _note: one draw is one run of cards
        name = pub.name if pub else player  # (one name a statement: four at once would build a tuple)
        events = self.meta.pending_events
        deck = sec.deck
        cards = []
        for counter, pos in enumerate(positions, counter):
            event = _new(Event)             # Event(name, counter, index), without a call to __init__ (one a card)
            event.player = name
            event.counter = counter
            event.beacon = index
            event.kind = "draw"
            event.faces, event.face, event.purpose = (), 0, ""
            events.append(event)
            cards.append(deck[pos - 1])
        if pub:
            pub.draws += n
        drawn += positions
        sec._undrawn_memo[3] += n           # (remaining is the memo's list, kept up to date: see _undrawn)
        return cards

    def roll(self, player: str, sides: int = 6, faces: Sequence[int] | None = None, purpose: str = "") -> int:
        """Roll a die the rules call for: ``sides`` faces 1..n, or the given ``faces`` (a Sicherman die).

        ``purpose`` (lower-case word, like ``first``) is written in the log and mixed into
        the derivation.

        :raises ValueError: a die with fewer than 2 faces, or a bad purpose word.
        """
        return self._roll(player, "roll", sides, faces, purpose)

    def roll_after(self, player: str, entry: int, sides: int = 6, faces: Sequence[int] | None = None,
                   purpose: str = "") -> int:
        """Roll a die that follows a choice logged in ``entry``: its beacon must hold a chain value published after it.

        Such a die could be foreseen otherwise (copy the document, try the move on the copy, then
        choose).  The other seats owe that value (:func:`published_after`).

        :raises RollWaits: no other seat has published a chain value after ``entry`` yet.
        """
        if not published_after(self.meta, player, entry):
            from pbd.errors import RollWaits

            raise RollWaits(player, [p.name for p in self._others(player)])
        return self.roll(player, sides, faces, purpose)

    def free_roll(self, player: str, sides: int = 6, faces: Sequence[int] | None = None) -> int:
        """Roll a die of ``pbd roll`` (no rule asked for it): its own counter, so it moves no other event."""
        return self._roll(player, "free", sides, faces, "")

    def _roll(self, player: str, kind: str, sides: int, faces: Sequence[int] | None, purpose: str) -> int:
        faces = tuple(faces) if faces is not None else tuple(range(1, sides + 1))
        if len(faces) < 2 or purpose and not fairplay.PURPOSE_RE.match(purpose):
            raise ValueError(f"a die needs 2 or more faces and a purpose like 'first' (got {faces}, {purpose!r})")
        sec = self._secrets(player)
        pub, beacon, index = self._seat(player)
        counter = pub.count(kind) if pub else 0
        face = fairplay.roll(sec.seed, counter, beacon, faces, kind, purpose)
        self._note(player, kind, counter, faces, face, purpose, pub, index)
        return face


def fresh_for(meta: Meta, player: str, other: str, index: int) -> bool:
    """Return True if ``other``'s chain value number ``index`` was published after ``player`` committed.

    A value published before (or a seat that has not committed in the log yet) could have
    been known when ``player`` chose its seed.
    """
    log_index = meta.log_index()
    return _fresh(meta, log_index, log_index.commits.get(player.casefold()), player, other, index)


def _stale(meta: Meta, player: str, others: list[PlayerMeta]) -> list[str]:
    """Return the names of ``others`` whose latest chain value ``player`` may not use yet (see :func:`fresh_for`)."""
    log_index = meta.log_index()
    mine = log_index.commits.get(player.casefold())
    return [p.name for p in others if not _fresh(meta, log_index, mine, player, p.name, p.chain_index)]


#: The start of a log entry in which a seat publishes a chain value another seat's die waits on.
CHAIN_DUTY = "a fresh random value for "
#: The start of a log entry in which a seat's pbd rolls the dice that waited on such a value (no move of its own).
ROLL_DUTY = "rolls the dice that waited"


def published_after(meta: Meta, player: str, entry: int) -> list[str]:
    """Return the other seats whose latest chain value was first published after log entry ``entry``.

    A die rolled after a choice logged in ``entry`` takes such a value into its beacon
    (:meth:`Chance.roll_after`): nobody could know it when the choice was made, not even the
    roller with a copy of the document.  A value not yet in any entry (published in this command,
    by a seat whose seed this pbd holds) counts too.
    """
    index = meta.log_index()
    out = []
    for p in meta.fairplay:
        if p.name.casefold() != player.casefold() and p.chain_index:
            where = index.first_pub.get((p.name, p.chain_index))
            if where is None or where > entry:
                out.append(p.name)
    return out


def _fresh(meta: Meta, log_index: _LogIndex, mine: LogEntry | None, player: str, other: str, index: int) -> bool:
    """Return :func:`fresh_for`'s answer, given the log's index (up to date) and ``player``'s commit entry."""
    if mine is None:                        # no commitment at all: a position built in a test, not a match
        pub = meta.player(player)
        return pub is None or not pub.commitment
    if index == 0:
        theirs = log_index.commits.get(other.casefold())
        return theirs is not None and theirs.number > mine.number
    where = log_index.first_pub.get((other, index))
    if where is None:                       # published in this command, by a seat we hold
        return other.casefold() in meta.signers
    return where > mine.number


class Playable(Game):
    """The match hooks the pipeline (:mod:`pbd.match`) calls; states carry ``meta: Meta``.

    Every hook is pure apart from the :class:`Chance` it is handed: no files, no network.
    """

    def create(self, match_id: str, player: str, deck: str | None, seed: bytes, options: dict):
        """Return ``(state, secrets)`` for a new match created by ``player``.

        :raises DeckError: the deck breaks the construction rules.
        """
        raise NotImplementedError

    def join(self, state, player: str, deck: str | None, seed: bytes):
        """Return ``(state, secrets)`` after ``player`` joins; the state is changed in place.

        :raises IllegalMoveError: the match is full, or the name is taken.
        """
        raise NotImplementedError

    def attach(self, state, secrets: Secrets) -> None:
        """Put a player's private information (their hand) into ``state``.

        :raises DocumentFormatError: the board disagrees with the private state.
        """
        raise NotImplementedError

    def detach(self, state, secrets: Secrets) -> None:
        """Copy a player's private information back out of ``state`` into ``secrets``."""
        raise NotImplementedError

    def keep_checked(self, state, secrets: Secrets) -> bool:
        """Note in ``secrets`` what :meth:`attach` verified, for a command that writes no document.

        The next command then checks only what changed since (a shared deck's proofs are checked
        once per seat, not on every read until the seat writes).  Returns True if ``secrets``
        changed (the pipeline then saves it).  Default: nothing to keep.
        """
        return False

    def play(self, state, player: str, notation: str, chance: Chance) -> list[str]:
        """Parse and apply ``notation`` (moves joined by ';') for ``player``, in place.

        Returns one public summary line per move.

        :raises NotationError: a move cannot be read.
        :raises IllegalMoveError: a move breaks a rule (which one, with the numbers).
        """
        raise NotImplementedError

    def legal(self, state, player: str) -> list[str]:
        """Return every move legal now for ``player``, in notation."""
        raise NotImplementedError

    def candidates(self, state, player: str) -> list[str]:
        """Return moves worth trying for ``player``; every legal move is among them."""
        return self.legal(state, player)

    def is_legal(self, state, player: str, move: str) -> bool:
        """Return True if ``move`` is legal for ``player`` now (without changing ``state``)."""
        return move in self.legal(state, player)

    def problems(self, state) -> list[str]:
        """Return every rule the position breaks (for ``pbd check``)."""
        raise NotImplementedError

    def check_text(self, text: str) -> list[str]:
        """Return every problem of a document as people left it (unknown cards included).

        :raises DocumentFormatError: the document cannot be read at all.
        """
        return self.problems(self.parse(text))

    def describe(self, state) -> dict:
        """Return the public state as plain JSON-able data (for ``--json``)."""
        raise NotImplementedError

    def view(self, state) -> dict:
        """Return :meth:`describe` with the keys ``pbd show --json`` carries for every game.

        ``game``; ``players`` in seat order (each at least ``{"name": ...}``); ``to_move``,
        the seats that must act now (pending decisions and owed steps included, see
        :meth:`actors`); ``result``, None until the match ends, then who won and how.
        """
        data = self.describe(state)
        data["game"] = self.name
        if not isinstance(data.get("players"), list):
            data["players"] = [{"name": n} for n in self.player_names(state)]
        data["to_move"] = self.actors(state)
        data["result"] = self.outcome(state)
        return data

    def hand(self, state, secrets: Secrets) -> dict:
        """Return the player's private view: hand and deck counts."""
        raise NotImplementedError

    def player_names(self, state) -> list[str]:
        """Return the names of the seated players, in seat order."""
        raise NotImplementedError

    def deck_check(self, deck: str) -> tuple[str, list[str]]:
        """Return ``(summary, problems)`` for a deck list path or bundled deck name.

        :raises DeckFormatError: the file cannot be read.
        """
        raise NotImplementedError

    def status(self, state) -> list[str]:
        """Return a line or two on where the match stands (whose turn, result)."""
        raise NotImplementedError

    def pending(self, state, player: str) -> bool:
        """Return True if ``player``'s pbd owes a step only it can take (written by its next command)."""
        return False

    def settle(self, state, player: str, chance: Chance) -> list[str]:
        """Take the steps ``player`` owes (see :meth:`pending`), in place; return summary lines."""
        return []

    def asks(self, text: str, seat: str) -> tuple[str, ...] | None:
        """Return the lines of the document's ``text`` that say what it asks of ``seat`` (None: the game cannot tell).

        ``pbd watch`` leaves unparsed a version that returns no line (no duty owed, :meth:`pending`;
        no decision or move waited on, :func:`pbd.status.waiting`; the match not over), and one that
        returns the same lines as the last version it read whole and owed nothing on (what it
        found there still stands): a look at every new version was most of a watcher's CPU at six
        seats.  Both must hold wherever a parse would find otherwise (a test per game plays matches
        and asks at every version); None, which a game that says nothing more returns, is always right.
        """
        return None

    def may_owe(self, text: str, seat: str) -> bool:
        """Return False only if ``seat``'s pbd owes no work on the document's ``text`` (:meth:`pending`): a watch
        whose own work waits for that seat's stops waiting then (True, which is always right: until its wait ends).
        """
        return True

    def score(self, state) -> tuple[list[str], dict]:
        """Return ``(lines, data)``: the current score explained line by line.

        :raises UsageError: the game keeps no score to explain.
        """
        from pbd.errors import UsageError

        raise UsageError(f"{self.title} has no score breakdown; try 'pbd show'")

    def outcome(self, state) -> str | None:
        """Return the result of a finished match ("Ann wins by ..."), or None while it goes on."""
        return getattr(state, "result", None) or None

    def forfeit_winners(self, state, leavers: list[str]) -> list[str]:
        """Return who wins when ``leavers`` resign or forfeit (:mod:`pbd.forfeit`): every other seat by default."""
        gone = {n.casefold() for n in leavers}
        return [n for n in self.player_names(state) if n.casefold() not in gone]

    def forfeit(self, state, result: str) -> None:
        """End the match with ``result`` because a seat resigned or forfeited (:mod:`pbd.forfeit`), in place.

        Default: the state's ``result`` (the header's result line); a game whose result is worked out
        from the board instead overrides this and :meth:`outcome`, which :func:`pbd.forfeit.result` serves.
        """
        state.result = result

    def actors(self, state) -> list[str]:
        """Return the players who may move now (the player to move, plus any who owe a move)."""
        raise NotImplementedError

    def sample_decks(self) -> list[str]:
        """Return bundled deck names to seat players with in simulations and tutorials."""
        raise NotImplementedError

    # -- fair play: reveal, audit, replay, take-backs -------------------------------------

    def committed(self, state, secrets: Secrets) -> list[str]:
        """Return the exact list the player's commitment covers (published by ``pbd reveal``)."""
        return list(secrets.deck)

    def drawable(self, committed: list[str]) -> list[str]:
        """Return the part of a committed list that draws are made from (positions 1..n)."""
        return list(committed)

    def committed_problems(self, state, name: str, committed: list[str]) -> list[str]:
        """Return why a revealed list is not a legal deck for ``name``, or not the deck the log names.

        ``pbd audit`` runs it on every revealed list (a modified pbd could commit to any list).
        """
        return []

    def sealed_lines(self, state) -> list[str]:
        """Return the game's own lines the log's seal covers besides Fair play and Revealed (a deal)."""
        return []

    def informative(self, entry: LogEntry) -> bool:
        """Return True if a log entry revealed information, so its move cannot be taken back."""
        return bool(entry.events or entry.published)

    def replay(self, state, entry: LogEntry, chance: Chance, board, strict: bool = True):
        """Apply one log entry to ``state`` (None before the first) and return the new state.

        The one replay of every game (``pbd replay``, ``pbd audit``, the hand-edit check); a game
        overrides none of it.  The commands that wrote the log run again, without anyone's seed:

        * the first entry and every ``joined``: :meth:`create` and :meth:`join` with no seed, given
          the deck and options the seat brought as the document shows them (:meth:`seat_from_document`);
        * a chain value a die waited on (:data:`CHAIN_DUTY`) and the die that waited (:data:`ROLL_DUTY`):
          checked against :meth:`awaited_roll`, then :meth:`settle` takes the step again;
        * a move: :meth:`play` on the entry's notation (its words before :attr:`notation_ends`);
          an entry that is no move (its notation cannot be read) is a step the seat's pbd owed on
          its own (an opening hand, a shared deal's unlocks, a hand card shown): :meth:`settle`.

        ``chance`` hands out the entry's recorded random events (hidden cards for seats that have
        not revealed), and a hidden hand card reads as what the log showed (:meth:`Chance.shown`;
        on a shared deck, its :meth:`~pbd.table.deck.SharedDeck.card` with the document's deck as
        oracle).  With ``strict`` False a card the seat is not known to hold may be played anyway
        (to carry on past a problem already reported).

        :raises PbdError: the entry cannot be applied (which rule it breaks).
        """
        from pbd.errors import NotationError

        chance.strict = strict
        text, seat = entry.text, entry.player
        shown = getattr(board, "deck", None) if self.shares_a_deck else None   # the deck the document shows
        if state is not None and shown is not None and state.deck is not None:
            state.deck.oracle = shown
        if state is None or text.startswith("joined"):
            state = self._replay_seat(state, entry, chance, board)
        elif text.startswith((CHAIN_DUTY, ROLL_DUTY)):
            self._replay_dice(state, entry, chance)
        else:
            try:
                self.play(state, seat, self.notation_of(text), chance)
            except NotationError:
                if not self.settle(state, seat, chance):
                    raise
        if shown is not None and state.deck is not None:
            state.deck.oracle = shown
            state.deck.adopt(shown)             # the locked numbers only the seeds give, where the replay agrees
        return state

    #: the words that end a move's notation in its log entry (what follows says what the move did)
    notation_ends: ClassVar[tuple[str, ...]] = (" — ",)

    def notation_of(self, text: str) -> str:
        """Return the notation of the move a log entry's ``text`` records (its words before :attr:`notation_ends`)."""
        ends = [i for i in (text.find(w) for w in self.notation_ends) if i >= 0]
        return text[:min(ends)] if ends else text

    def seat_from_document(self, board, entry: LogEntry) -> tuple[Any, dict]:
        """Return ``(deck, options)``: what ``entry``'s seat brought to the match (:meth:`create`'s or
        :meth:`join`'s), as the document ``board`` shows it, for a replay (the log names neither in full).

        Default: no deck, no options.
        """
        return None, {}

    def seat_reads(self, state, seat: str) -> None:
        """Do to ``state`` what ``seat``'s pbd does when it reads the document, as far as it can be done without
        the seat's private state (:meth:`attach`: C&C takes into the hand the cards the opponent returned to it;
        Twin Tower City holds the seat's hand as the deck reads it); a replay does it before each entry of the
        seat, from the first entry or from any board.  Default: nothing."""

    def awaited_roll(self, state) -> tuple[str, int] | None:
        """Return the seat whose announced move waits on a fresh random value (:data:`CHAIN_DUTY`), and the
        announcing entry's number; None when no die waits.  Default: no die ever waits."""
        return None

    def _replay_seat(self, state, entry: LogEntry, chance: Chance, board):
        """Replay a seat's first entry: :meth:`create` (the match's first entry) or :meth:`join`, without a seed."""
        from pbd.errors import IllegalMoveError

        deck, options = self.seat_from_document(board, entry)
        if state is not None:
            return self.join(state, entry.player, deck, None)[0]
        if not entry.text.startswith("new match"):
            raise IllegalMoveError("the log does not start with 'new match'")
        state = self.create(chance.meta.match_id, entry.player, deck, None, options)[0]
        written, state.meta = state.meta.log, chance.meta      # the replay's own record of the log
        for e in written:
            chance.meta.record(e.player, e.text)
        return state

    def _replay_dice(self, state, entry: LogEntry, chance: Chance) -> None:
        """Replay a chain value a die waited on, or the die that waited (:meth:`settle` takes either step).

        :raises RollWaits: the die was rolled before a fresh value came (no honest pbd writes that).
        """
        from pbd.errors import IllegalMoveError, RollWaits

        seat, awaited = entry.player, self.awaited_roll(state)
        mine = awaited is not None and awaited[0].casefold() == seat.casefold()
        fresh = awaited is not None and bool(published_after(state.meta, awaited[0], awaited[1]))
        if entry.text.startswith(CHAIN_DUTY) and (awaited is None or mine or fresh):
            raise IllegalMoveError(f"{seat} owed no random value for a roll here")
        if entry.text.startswith(ROLL_DUTY):
            if not mine:
                raise IllegalMoveError(f"{seat} had no announced move whose die waited")
            if not fresh:
                raise RollWaits(seat, [n for n in self.player_names(state) if n.casefold() != seat.casefold()])
        self.settle(state, seat, chance)
