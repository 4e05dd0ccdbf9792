"""What every game provides, and the parts of a match document all games share.

A game is metadata plus a small fixed interface (see :class:`Game`).  The document
frame common to all games is::

    pbd match 7f3a9c2e · C&C Trading Card Game
    <game header lines>

    <game body: the board>

    Fair play
    Ann: commitment 3fa1… · chain 2 91ab… · draws 7
    Ben: commitment …

    Revealed                      (only once someone ran ``pbd reveal``)
    Ann: seed 5c0e…
    Ann 1. Spider-Man
    …

    Log
    1. Ann: new match · rng 0-4@- · #1f0c3a9b
    2. Ben: joined · rng 0-4@0, 5@0 d2=1 · #77d2e410
    3. Ann: draw · hand 6 · AP 3→2 · rng 5@0 · #c4e1b0aa
    4. Ann: end turn · chain 1 · #0b9d51e3

Log entries end with optional fair-play tags and a hash:

* ``rng A-B@J`` — the entry used the player's random events number A..B (their public
  ``draws`` counter), with the opponent's chain value number J as beacon (``-``: no
  opponent seated yet); ``d6=4`` after an event is a die roll and its public result;
  a name before the numbers says whose events they were when not the entry's player.
* ``chain K`` — the player published chain value number K during this entry.
* ``#hhhhhhhh`` — the first 8 hex digits of SHA-256 over the previous entry's hash and
  this entry's line, so an edited, inserted or deleted entry breaks the chain.

Older documents without the tags parse as before (entries without a hash).

:func:`split_frame` and :func:`render_frame` handle the frame; games handle the rest.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pbd.errors import DocumentFormatError

TITLE_RE = re.compile(r"^\s*pbd match\s+(?P<id>[0-9a-f]{4,32})\s*(?:[·|-]\s*(?P<title>.*?))?\s*$", re.I)
FAIRPLAY_RE = re.compile(
    r"^(?P<name>.+?):\s*commitment\s+(?P<commit>[0-9a-f]{64})\s*·\s*chain\s+(?P<idx>\d+)\s+(?P<chain>[0-9a-f]{64})"
    r"(?:\s*·\s*draws\s+(?P<draws>\d+))?\s*$")
LOG_RE = re.compile(r"^\s*(?P<n>\d+)\.\s+(?P<player>[^:]+?):\s+(?P<text>.*?)\s*$")
HASH_RE = re.compile(r"\s*·?\s*#(?P<hash>[0-9a-f]{8})$")
_EVENT = r"(?:[^,@·]+?\s+)?\d+(?:-\d+)?@(?:\d+|-)(?:\s+d\d+=\d+)?"
RNG_RE = re.compile(rf"\s*·\s*rng\s+(?P<events>{_EVENT}(?:,\s*{_EVENT})*)$")
EVENT_RE = re.compile(r"^(?:(?P<name>[^,@·]+?)\s+)?(?P<a>\d+)(?:-(?P<b>\d+))?@(?P<j>\d+|-)(?:\s+d(?P<sides>\d+)=(?P<face>\d+))?$")
_PUB = r"(?:[^,·]+?\s+)?\d+"
CHAIN_TAG_RE = re.compile(rf"\s*·\s*chain\s+(?P<pubs>{_PUB}(?:,\s*{_PUB})*)$")
PUB_RE = re.compile(r"^(?:(?P<name>[^,·]+?)\s+)?(?P<k>\d+)$")
SEED_RE = re.compile(r"^(?P<name>[^:]+?):\s*seed\s+(?P<seed>[0-9a-f]{64})\s*$")
DECK_LINE_RE = re.compile(r"^(?P<name>.+?)\s+(?P<n>\d+)\.\s+(?P<card>.+?)\s*$")


@dataclass
class Line:
    """One line of a document, with its 1-based number as the player sees it."""

    number: int
    text: str


@dataclass
class PlayerMeta:
    """A player's public fair-play record: commitment, latest chain value, events so far."""

    name: str
    commitment: str = ""
    chain: str = ""
    chain_index: int = 0
    draws: int = 0


@dataclass
class Event:
    """One random event of a player: a draw (``sides == 0``) or a die roll and its face."""

    player: str
    counter: int
    beacon: int | None
    sides: int = 0
    face: int = 0


@dataclass
class LogEntry:
    """One numbered line of the move log, with its fair-play tags and chain hash."""

    number: int
    player: str
    text: str
    events: list[Event] = field(default_factory=list)
    published: dict[str, int] = field(default_factory=dict)
    hash: str = ""

    def line(self) -> str:
        """Return the entry as written in the document, without its hash."""
        out = f"{self.number}. {self.player}: {self.text}"
        if self.events:
            out += " · rng " + ", ".join(_event_tokens(self.player, self.events))
        if self.published:
            out += " · chain " + ", ".join(
                (str(k) if name == self.player else f"{name} {k}") for name, k in self.published.items())
        return out


@dataclass
class Reveal:
    """A player's revealed seed and committed deck list (the ``Revealed`` section)."""

    name: str
    seed: str
    deck: list[str] = field(default_factory=list)


def log_genesis(match_id: str = "") -> str:
    """Return the hash the first log entry chains to.

    It is the same for every match (so two matches played alike read alike); the
    entries themselves and the commitments tie a log to its match.
    """
    return hashlib.sha256(b"pbd-log-v1").hexdigest()[:8]


def log_link(previous: str, entry: LogEntry) -> str:
    """Return the hash of ``entry`` chained to the ``previous`` entry's hash."""
    return hashlib.sha256(f"{previous}|{entry.line()}".encode("utf-8")).hexdigest()[:8]


def _event_tokens(owner: str, events: list[Event]) -> list[str]:
    tokens: list[str] = []
    run: list[Event] = []

    def flush():
        if run:
            e = run[0]
            who = "" if e.player == owner else f"{e.player} "
            span = str(e.counter) if len(run) == 1 else f"{e.counter}-{run[-1].counter}"
            tokens.append(f"{who}{span}@{'-' if e.beacon is None else e.beacon}")
            run.clear()

    for e in events:
        if e.sides:
            flush()
            who = "" if e.player == owner else f"{e.player} "
            tokens.append(f"{who}{e.counter}@{'-' if e.beacon is None else e.beacon} d{e.sides}={e.face}")
        elif run and (run[-1].player, run[-1].beacon, run[-1].counter + 1) == (e.player, e.beacon, e.counter):
            run.append(e)
        else:
            flush()
            run.append(e)
    flush()
    return tokens


def _parse_entry(number: int, player: str, text: str) -> LogEntry:
    entry = LogEntry(number, player, text)
    if m := HASH_RE.search(text):
        entry.hash, text = m.group("hash"), text[:m.start()]
    if m := CHAIN_TAG_RE.search(text):
        for token in re.split(r",\s*", m.group("pubs")):
            p = PUB_RE.match(token.strip())
            entry.published[(p.group("name") or player).strip()] = int(p.group("k"))
        text = text[:m.start()]
    if m := RNG_RE.search(text):
        for token in re.split(r",\s*", m.group("events")):
            e = EVENT_RE.match(token.strip())
            who = (e.group("name") or player).strip()
            beacon = None if e.group("j") == "-" else int(e.group("j"))
            a = int(e.group("a"))
            b = int(e.group("b") or a)
            if e.group("sides"):
                entry.events.append(Event(who, a, beacon, int(e.group("sides")), int(e.group("face"))))
            else:
                entry.events += [Event(who, c, beacon) for c in range(a, b + 1)]
        text = text[:m.start()]
    entry.text = text.rstrip()
    return entry


@dataclass
class Meta:
    """What every match document has besides its board."""

    game: str
    match_id: str = ""
    fairplay: list[PlayerMeta] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    revealed: list[Reveal] = field(default_factory=list)
    #: random events since the last log entry (attached to the next one by :meth:`record`)
    pending_events: list[Event] = field(default_factory=list, compare=False, repr=False)
    #: each player's chain index as of the last log entry (to tag publications)
    published: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def record(self, player: str, text: str) -> LogEntry:
        """Append a log entry with the random events and chain publications since the last one.

        The entry is chained to the previous one by its hash (see :func:`log_link`).
        """
        entry = LogEntry(len(self.log) + 1, player, text, list(self.pending_events))
        self.pending_events.clear()
        for p in self.fairplay:
            if p.chain_index != self.published.get(p.name, 0):
                entry.published[p.name] = p.chain_index
                self.published[p.name] = p.chain_index
        entry.hash = log_link(self.last_hash(), entry)
        self.log.append(entry)
        return entry

    def last_hash(self) -> str:
        """Return the hash the next log entry chains to."""
        if not self.log:
            return log_genesis(self.match_id)
        if self.log[-1].hash:
            return self.log[-1].hash
        previous = log_genesis(self.match_id)
        for e in self.log:
            previous = log_link(previous, e)
        return previous

    def revealed_by(self, name: str) -> Reveal | None:
        """Return ``name``'s revealed seed and deck, if they revealed."""
        for r in self.revealed:
            if r.name.casefold() == name.casefold():
                return r
        return None

    def player(self, name: str) -> PlayerMeta | None:
        """Return the fair-play record of ``name`` (case-insensitive), if any."""
        for p in self.fairplay:
            if p.name.casefold() == name.casefold():
                return p
        return None


@dataclass
class Frame:
    """A document split into its parts (each a list of numbered lines)."""

    match_id: str
    title: str
    header: list[Line]
    body: list[Line]
    fairplay: list[Line]
    log: list[Line]
    revealed: list[Line] = field(default_factory=list)


def split_frame(text: str) -> Frame:
    """Split a document into title, header, body, fair-play and log parts.

    A document without the ``pbd match`` title line (a board typed by hand, or the
    rulebook's example) is all body.  The header runs from the title to the first
    blank line; ``Fair play`` and ``Log`` headings start their sections.
    """
    lines = [Line(i, t.rstrip()) for i, t in enumerate(text.split("\n"), 1)]
    match_id = title = ""
    header: list[Line] = []
    start = 0
    while start < len(lines) and not lines[start].text.strip():
        start += 1
    if start < len(lines) and (m := TITLE_RE.match(lines[start].text)):
        match_id, title = m.group("id"), (m.group("title") or "").strip()
        start += 1
        while start < len(lines) and lines[start].text.strip():
            header.append(lines[start])
            start += 1
    parts: dict[str, list[Line]] = {"body": [], "fair play": [], "revealed": [], "log": []}
    current = "body"
    for line in lines[start:]:
        key = line.text.strip().lower().rstrip(":")
        if key in ("fair play", "log") and current != "log" or key == "revealed" and current == "fair play":
            current = key
            continue
        parts[current].append(line)
    return Frame(match_id, title, header, _trim(parts["body"]), _trim(parts["fair play"]), _trim(parts["log"]),
                 _trim(parts["revealed"]))


def parse_meta(game: str, frame: Frame) -> Meta:
    """Return the :class:`Meta` of a split document.

    :raises DocumentFormatError: a fair-play or log line that cannot be read.
    """
    meta = Meta(game, frame.match_id)
    for line in frame.fairplay:
        m = FAIRPLAY_RE.match(line.text.strip())
        if not m:
            raise DocumentFormatError(
                "expected 'NAME: commitment <64 hex> · chain N <64 hex>' in the Fair play section", line=line.number)
        meta.fairplay.append(PlayerMeta(m.group("name").strip(), m.group("commit"), m.group("chain"),
                                        int(m.group("idx")), int(m.group("draws") or 0)))
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
    return meta


def render_frame(meta: Meta, title: str, header: list[str], body: list[str]) -> str:
    """Return the whole document text for a game's header and body lines."""
    out = [f"pbd match {meta.match_id} · {title}" if meta.match_id else title, *header, "", *body]
    if meta.fairplay:
        out += ["", "Fair play"]
        out += [f"{p.name}: commitment {p.commitment} · chain {p.chain_index} {p.chain} · draws {p.draws}"
                for p in meta.fairplay]
    if meta.revealed:
        out += ["", "Revealed"]
        for r in meta.revealed:
            out += [f"{r.name}: seed {r.seed}", *(f"{r.name} {i}. {card}" for i, card in enumerate(r.deck, 1))]
    out += ["", "Log"]
    out += [e.line() + (f" · #{e.hash}" if e.hash else "") for e in meta.log]
    return "\n".join(out) + "\n"


def _trim(lines: list[Line]) -> list[Line]:
    while lines and not lines[0].text.strip():
        lines = lines[1:]
    while lines and not lines[-1].text.strip():
        lines = lines[:-1]
    return lines


@dataclass
class Secrets:
    """One player's private state for one match (kept under PBD_HOME, never in the document)."""

    match_id: str
    player: str
    game: str
    seed: bytes
    deck: list[str]
    drawn: list[int] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def remaining(self) -> list[int]:
        """Return the 1-based deck positions not drawn yet."""
        taken = set(self.drawn)
        return [i for i in range(1, len(self.deck) + 1) if i not in taken]


class Game:
    """The interface every game implements (metadata + a small fixed set of functions).

    State objects are game-specific dataclasses with a ``meta: Meta`` attribute.
    ``parse(render(s)) == s`` must hold for every reachable state.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    players: ClassVar[tuple[int, int]] = (2, 2)
    #: whether a joining player brings a deck of their own (Twin Tower City shares one)
    join_needs_deck: ClassVar[bool] = True

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
    """Draws and rolls for the players whose secrets we hold, derived by :mod:`pbd.fairplay`.

    In a real match pbd holds only the acting player's secrets; a simulation holds both.
    Each event advances the player's public counter (``PlayerMeta.draws``) so that an
    audit can re-derive it once the seed is revealed.
    """

    def __init__(self, meta: Meta, secrets: dict[str, Secrets]):
        self.meta = meta
        self.secrets = {k.casefold(): v for k, v in secrets.items()}

    def _secrets(self, player: str) -> Secrets:
        try:
            return self.secrets[player.casefold()]
        except KeyError:
            from pbd.errors import IllegalMoveError

            raise IllegalMoveError(f"only {player}'s own pbd can draw cards or roll dice for {player}") from None

    def can_draw_for(self, player: str) -> bool:
        """Return True if we hold ``player``'s secrets."""
        return player.casefold() in self.secrets

    def beacon(self, player: str) -> str:
        """Return the opponent's latest published chain value ('' before anyone published)."""
        others = [p.chain for p in self.meta.fairplay if p.name.casefold() != player.casefold()]
        return others[0] if others else ""

    def beacon_index(self, player: str) -> int | None:
        """Return the number of the opponent's chain value :meth:`beacon` gives (None: no opponent)."""
        others = [p.chain_index for p in self.meta.fairplay if p.name.casefold() != player.casefold()]
        return others[0] if others else None

    def _note(self, player: str, counter: int, sides: int = 0, face: int = 0) -> None:
        pub = self.meta.player(player)
        self.meta.pending_events.append(
            Event(pub.name if pub else player, counter, self.beacon_index(player), sides, face))

    def publish(self, player: str) -> None:
        """Publish ``player``'s next chain value (at the end of each of their turns).

        Value number k is ``c_{N-k}`` of :func:`pbd.fairplay.chain_value`: each one hashes to
        the one before, so anyone can check it; only the seed's holder can compute it.
        """
        from pbd import fairplay

        pub = self.meta.player(player)
        sec = self.secrets.get(player.casefold())
        if pub is None or sec is None or not pub.chain or pub.chain_index >= fairplay.CHAIN_LENGTH:
            return
        pub.chain_index += 1
        pub.chain = fairplay.chain_value(sec.seed, fairplay.CHAIN_LENGTH - pub.chain_index)

    def draw(self, player: str, n: int = 1) -> list[str]:
        """Draw ``n`` cards for ``player`` uniformly among the positions not yet drawn."""
        from pbd import fairplay

        sec = self._secrets(player)
        pub = self.meta.player(player)
        cards = []
        for _ in range(n):
            remaining = sec.remaining()
            if not remaining:
                break
            counter = pub.draws if pub else len(sec.drawn)
            pos = fairplay.draw(sec.seed, counter, self.beacon(player), remaining)
            self._note(player, counter)
            sec.drawn.append(pos)
            if pub:
                pub.draws += 1
            cards.append(sec.deck[pos - 1])
        return cards

    def roll(self, player: str, sides: int = 6) -> int:
        """Roll a die of ``sides`` faces for ``player``."""
        from pbd import fairplay

        sec = self._secrets(player)
        pub = self.meta.player(player)
        counter = pub.draws if pub else 0
        face = fairplay.roll(sec.seed, counter, self.beacon(player), sides)
        self._note(player, counter, sides, face)
        if pub:
            pub.draws += 1
        return face


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

    def score(self, state) -> tuple[list[str], dict]:
        """Return ``(lines, data)``: the current score explained line by line.

        :raises UsageError: the game keeps no score to explain.
        """
        from pbd.errors import UsageError

        raise UsageError(f"{self.title} has no score breakdown; try 'pbd show'")

    def outcome(self, state) -> str | None:
        """Return the result of a finished match ("Ann wins by ..."), or None while it goes on."""
        return getattr(state, "result", None) or None

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

    def informative(self, entry: LogEntry) -> bool:
        """Return True if a log entry revealed information, so its move cannot be taken back."""
        return bool(entry.events or entry.published)

    def replay(self, state, entry: LogEntry, chance: Chance, board, strict: bool = True):
        """Apply one log entry to ``state`` (None before the first) and return the new state.

        ``chance`` hands out the entry's recorded random events (hidden cards for players
        who have not revealed); ``board`` is the document's state, for facts the log does
        not repeat (a Porter's name).  The entry must be re-recorded through
        ``state.meta.record``.  With ``strict`` False, a card the player is not known to
        hold may be played anyway (to carry on past a problem already reported).

        :raises PbdError: the entry cannot be applied (which rule it breaks).
        """
        raise NotImplementedError(f"{self.title} cannot replay its log yet")
