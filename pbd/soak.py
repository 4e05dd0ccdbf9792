"""A soak of random matches through the real CLI pipeline: every game and seat count, audited at the end.

Each match is played on a local document by every seat's own pbd (its own PBD_HOME): the
seats that may act (``to_move`` and seats owing a decision in ``pbd show --json``) list
their moves with ``pbd legal --json``, one (seat, move) is picked at random (rare kinds of
move weighted up) and played with ``pbd move``; a seat the table waits on (``waiting_on``:
unlocks, shuffle passes) pays with ``pbd hand``, as that seat's pbd would on any command, and
so does a seat on move that lists no move (a Boys' Town flip is owed that way, unnamed by
``waiting_on``): only if that changes nothing is it a stall.
At the end every seat reveals, and a spectator runs ``pbd audit``, ``pbd replay`` and
``pbd check``.  What counts as a failure: an exit 70 anywhere, any other refusal of a listed
move or duty, an audit/replay/check that does not exit 0, a stall (nobody has a legal move
and no duty is owed, or the move cap is hit, before a result) and a hand-edit warning
(:mod:`pbd.handedits`) on a match nobody edited by hand.

The commands run through ``run(home, args)``, given by the caller (a click ``CliRunner``
in benchmarks/soak.py and tests/test_soak.py: only the CLI module imports click), so this
module does no I/O of its own beyond the match folder.  Seeds are fixed: match ``k`` of a
game and seat count uses seed ``k`` (``--seed K`` replays it).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pbd.simulate import NAMES

#: seat counts soaked per game (the rest: 2, 3 and 6)
SEATS = {"ttc": (2, 4), "cnc": (2,)}
DEFAULT_SEATS = (2, 3, 6)

#: weight of each kind of move (see :func:`kind`), times the game's own ``move_weights``: rare kinds up
RARE = {"show": 40.0, "give": 8.0, "draw-offer": 6.0, "offer": 3.0, "accept": 3.0, "reject": 3.0,
        "withdraw": 3.0, "target": 6.0, "advance": 3.0, "resist": 3.0, "decide": 3.0,
        "redraw": 3.0, "nullify": 3.0, "resign": 1.0, "flip": 2.0}
#: a game's own weights on top (2Xd6: targeting and advancing up, so debts and shown hands happen)
GAME_WEIGHTS = {"2xd6": {"target": 30.0, "advance": 10.0, "recycle": 0.3, "draw": 0.5, "play": 2.0}}
#: a move that gets rid of a card the seat could pay a debt with (``recycle X`` while ``give X to N`` is
#: listed) is this much likelier: a seat left with no card to pay shows its hand
SHED = 300.0
#: kinds of move each game has (beside those seen offered during the soak), for "never played"
KINDS = {
    "2xd6": ("roll", "play", "recycle", "replace", "advance", "target", "give", "show", "draw", "draw-offer",
             "offer", "pass", "accept", "reject"),
    "tower": ("draw", "roll", "stay", "pass", "play", "discard"),
    "ttc": ("flip", "play", "nullify"),
    "boystown": ("draw", "keep", "redraw", "build", "done", "attack", "pass"),
    "cnc": ("draw", "play", "attack", "use", "withdraw", "discard", "end"),
}
#: the kinds of duty a seat's pbd pays on its own (a log entry's words -> the kind), for :attr:`Match.paid`
DUTY_KINDS = (("locked and shuffled", "shuffle pass"), ("unlocked", "unlock"), ("published", "publish"),
              ("a fresh random value for", "chain value"), ("rolls the dice that waited", "dice that waited"),
              ("flips ", "flip"), ("first player by lot", "lot"))


def duty_kinds(text: str) -> list[str]:
    """Return the kinds of duty a log entry's text pays (none for a move a person decided)."""
    return [k for words, k in DUTY_KINDS if words in text]


#: a move that starts with a card's name (C&C's ``Spider-Man attacks Nill``) is of the kind its verb says
INNER = {"attacks": "attack", "uses": "use"}
INNER_RE = re.compile(r"\s(attacks|uses)\s")
#: first words that are verbs, never card names (a ``play X`` whose card's name holds "uses" is a play)
VERBS = frozenset({"play", "cast", "put", "attack", "discard", "withdraw", "return",
                   "build", "defend", "give", "offer", "recycle"})
#: what ``pbd replay`` says for a game that cannot replay its log (a known limit, not a failure)
NO_REPLAY = "cannot replay its log yet"
#: what a hand-edit warning or refusal says (pbd.handedits._sentence)
HAND_EDIT_RE = re.compile(r"changed by hand|by hand \(the log does not explain it\)|replay disagrees with its move")
#: the most rounds of the seats' commands run to pay duties before a move, besides one per seat (a duty
#: may leave another seat one: a reshuffle's passes go round the table one seat after another)
DUTY_ROUNDS = 8

Run = Callable[[Path, list], "Outcome"]


@dataclass
class Outcome:
    """What one pbd command gave: its exit code and what it printed."""

    code: int
    out: str
    err: str = ""

    @property
    def text(self) -> str:
        """Return stdout and stderr together."""
        return self.out + self.err


@dataclass
class Failure:
    """A thing that went wrong in a match: its category, the command and a short excerpt of the output."""

    what: str
    command: str
    excerpt: str

    def line(self) -> str:
        """Return the failure in one line."""
        return f"{self.what}: pbd {self.command}: {self.excerpt}"


@dataclass
class MatchReport:
    """The figures of one match."""

    game: str
    seats: int
    seed: int
    moves: int = 0
    result: str = ""
    played: Counter = field(default_factory=Counter)
    offered: set = field(default_factory=set)
    failures: list[Failure] = field(default_factory=list)
    #: the duties the seats' duty command paid (see :func:`duty_kinds`), counted when :class:`Match` tracks them
    paid: Counter = field(default_factory=Counter)

    def count(self, what: str) -> int:
        """Return how many failures of kind ``what`` the match had."""
        return sum(f.what == what for f in self.failures)


#: failure kinds, in the order the report prints them
CATEGORIES = ("exit 70", "refused", "audit", "stall", "false warning")
#: how each failure kind is counted in the report
LABELS = {"exit 70": "exit 70s", "refused": "refusals", "audit": "audit failures", "stall": "stalls",
          "false warning": "false warnings"}


def seat_counts(game) -> tuple[int, ...]:
    """Return the seat counts soaked for ``game`` (within what it seats)."""
    lo, hi = game.players
    return tuple(n for n in SEATS.get(game.name, DEFAULT_SEATS) if lo <= n <= hi)


def kind(move: str) -> str:
    """Return a move's kind: its first word, lowercased (``draw and offer`` is ``draw-offer``)."""
    text = move.strip().lower()
    if re.match(r"draw\s*(?:;|and|,)\s*offer", text):
        return "draw-offer"
    inner = INNER_RE.search(text)
    if inner and text.split()[0] not in VERBS:
        return INNER[inner.group(1)]
    return text.split()[0] if text else ""


def weight(game, move: str, payable: set[str] = frozenset()) -> float:
    """Return how likely ``move`` is picked: the game's ``move_weights`` for its first word times :data:`RARE`
    and :data:`GAME_WEIGHTS`, times :data:`SHED` for recycling a card in ``payable`` (one a debt could take)."""
    own = game.move_weights
    words = move.split()
    first = words[0].lower() if words else ""
    w = own.get(first, own.get("*", 1.0)) * RARE.get(kind(move), 1.0) * GAME_WEIGHTS.get(game.name, {}).get(first, 1.0)
    return w * SHED if first == "recycle" and len(words) > 1 and words[1] in payable else w


def pick(game, options: list[tuple[str, str]], rng: random.Random) -> tuple[str, str]:
    """Return a random ``(seat, move)``: a seat with a move uniformly, then its move by :func:`weight`."""
    seats = list(dict.fromkeys(s for s, _ in options))
    seat = rng.choice(seats)
    moves = [m for s, m in options if s == seat]
    payable = {m.split()[1] for m in moves if m.startswith("give ") and len(m.split()) > 1}
    return seat, rng.choices(moves, [weight(game, m, payable) for m in moves])[0]


class Match:
    """One soaked match: its folder, each seat's PBD_HOME and a spectator's, and the report."""

    def __init__(self, run: Run, folder: Path, game, seats: int, seed: int, duty: tuple[str, ...] = ("hand",)):
        """``duty``: the command (with its options) a seat runs to pay what it owes, ``pbd hand`` by default;
        any other (``("watch", "--once")``) has what it wrote counted in :attr:`MatchReport.paid`."""
        self.run, self.game, self.duty = run, game, duty
        self.doc = folder / "match.txt"
        self.names = list(NAMES[:seats])
        self.homes = {n: folder / f"home-{n}" for n in self.names}
        self.spectator = folder / "home-spectator"
        self.rng = random.Random(f"soak|{game.name}|{seats}|{seed}")
        self.report = MatchReport(game.name, seats, seed)

    def cmd(self, home: Path, *args, what: str = "refused") -> Outcome:
        """Run one pbd command; note an exit 70 (or, unless ``what`` is None, any non-zero exit) and hand-edit words."""
        args = [str(a) for a in args]
        got = self.run(home, args)
        line = " ".join(args[:1] + args[2:])
        if got.code == 70:
            self.report.failures.append(Failure("exit 70", line, _excerpt(got.text)))
        elif got.code and what:
            self.report.failures.append(Failure(what, line, f"exit {got.code}: {_excerpt(got.text)}"))
        found = HAND_EDIT_RE.search(got.text)
        if found:
            self.report.failures.append(Failure("false warning", line, _excerpt(got.text[found.start():])))
        return got

    def start(self) -> bool:
        """Create the match and seat everyone; return False if that failed."""
        tag = f"{self.game.name}-{len(self.names)}-{self.report.seed}"
        decks = self.game.sample_decks()
        deck = ["--deck", self.rng.choice(decks)] if decks else []
        first = self.names[0]
        if self.cmd(self.homes[first], "new", self.game.name, self.doc, "--as", first, "--seed", f"{tag}-{first}",
                    "--players", len(self.names), *deck).code:
            return False
        for name in self.names[1:]:
            deck = ["--deck", self.rng.choice(decks)] if decks and self.game.join_needs_deck else []
            if self.cmd(self.homes[name], "join", self.doc, "--as", name, "--seed", f"{tag}-{name}", *deck).code:
                return False
        return True

    def show(self) -> dict | None:
        """Return ``pbd show --json`` as the spectator reads it (None if it failed)."""
        got = self.cmd(self.spectator, "show", self.doc, "--json")
        return json.loads(got.out) if got.code == 0 else None

    def pay_duties(self, data: dict) -> dict | None:
        """Let every seat the table waits on run a command (``pbd hand``) until none is owed; return the board."""
        rounds = DUTY_ROUNDS + len(self.names)
        for done in range(rounds + 1):
            owing = [n for n in data.get("waiting_on") or () if n in self.homes]
            if not owing or data.get("result"):
                return data
            if done == rounds:
                break
            for name in owing:
                if self.pay(name).code:
                    return None
            data = self.show()
            if data is None:
                return None
        self.report.failures.append(Failure("stall", "hand", f"duties still owed by {data.get('waiting_on')}"))
        return None

    def pay(self, name: str) -> Outcome:
        """Run ``name``'s duty command; count the duties it wrote unless it is ``pbd hand``."""
        if self.duty == ("hand",):
            return self.cmd(self.homes[name], "hand", self.doc, "--as", name)
        before = len(self.log())
        got = self.cmd(self.homes[name], self.duty[0], self.doc, "--as", name, *self.duty[1:])
        for player, text in self.log()[before:]:
            if player == name:
                self.report.paid.update(duty_kinds(text))
        return got

    def log(self) -> list[tuple[str, str]]:
        """Return the document's log as ``(player, text)`` pairs (read in process, as any pbd reads it)."""
        from pbd.games.base import parse_meta, split_frame

        return [(e.player, e.text) for e in parse_meta(self.game.name, split_frame(self.doc.read_text("utf-8"))).log]

    def legal(self, names) -> list[tuple[str, str]]:
        """Return every ``(seat, move)`` that ``pbd legal --json`` lists for the seats ``names``."""
        out = []
        for name in names:
            got = self.cmd(self.homes[name], "legal", self.doc, "--as", name, "--json")
            if got.code == 0:
                out += [(name, m) for m in json.loads(got.out)["moves"]]
        return out

    def step(self) -> bool:
        """Play one move (after paying duties); return False when the match is over or cannot go on."""
        data = self.show()
        data = self.pay_duties(data) if data is not None else None
        if data is None or data.get("result"):
            if data is not None:
                self.report.result = str(data["result"])
            return False
        likely = [n for n in self.names if n in (data.get("to_move") or ())
                  or any(isinstance(d, dict) and d.get("seat") == n for d in data.get("decisions") or ())]
        before = self.doc.read_bytes()
        options = self.legal(likely) or self.legal([n for n in self.names if n not in likely])
        if not options:
            return self.unstick(likely, data, before)
        self.report.offered.update(kind(m) for _, m in options)
        seat, move = pick(self.game, options, self.rng)
        if self.cmd(self.homes[seat], "move", self.doc, "--as", seat, move).code:
            return False
        self.report.moves += 1
        self.report.played[kind(move)] += 1
        return True

    def unstick(self, names: list[str], data: dict, before: bytes) -> bool:
        """Let the seats on move that list no move run a command (a duty ``waiting_on`` does not name, such
        as a Boys' Town flip, is paid by the seat's next command); return True if the document changed since
        ``before`` (the seats' ``pbd legal`` pays duties too: a value a die waited on, the dice that waited,
        which can give another seat the move after its own listing), else count a stall."""
        for name in names:
            self.pay(name)
        if self.doc.read_bytes() != before:
            return True
        self.report.failures.append(Failure("stall", "legal", f"no seat has a legal move (to_move "
                                                              f"{data.get('to_move')}), no duty owed"))
        return False

    def finish(self) -> None:
        """Every seat reveals; a spectator audits, replays and checks the document (each must exit 0)."""
        for name in self.names:
            self.cmd(self.homes[name], "reveal", self.doc, "--as", name, what="audit")
        self.cmd(self.spectator, "audit", self.doc, what="audit")
        got = self.cmd(self.spectator, "replay", self.doc, what=None)
        if got.code not in (0, 70) and not (got.code == 2 and NO_REPLAY in got.err):
            self.report.failures.append(Failure("audit", "replay", f"exit {got.code}: {_excerpt(got.text)}"))
        self.cmd(self.spectator, "check", self.doc, what="audit")


def play(run: Run, folder: Path, game, seats: int, seed: int, max_moves: int = 2000,
         duty: tuple[str, ...] = ("hand",)) -> MatchReport:
    """Play one random match to a result through ``run``, then reveal, audit, replay and check; return its figures.

    ``duty``: the command each seat pays its duties with (see :class:`Match`).
    """
    folder.mkdir(parents=True, exist_ok=True)
    m = Match(run, folder, game, seats, seed, duty)
    if not m.start():
        return m.report
    while m.step():
        if m.report.moves >= max_moves:
            m.report.failures.append(Failure("stall", "move", f"no result after {max_moves} moves (the cap)"))
            break
    if not m.report.result and not m.report.failures:
        m.report.failures.append(Failure("stall", "show", "the match stopped without a result"))
    m.finish()
    return m.report


@dataclass
class Summary:
    """The figures of one game and seat count over its matches."""

    game: str
    seats: int
    matches: int = 0
    moves: int = 0
    played: Counter = field(default_factory=Counter)
    offered: set = field(default_factory=set)
    counts: Counter = field(default_factory=Counter)
    failed: list[tuple[int, str]] = field(default_factory=list)      # (seed, first failure)
    paid: Counter = field(default_factory=Counter)

    def add(self, rep: MatchReport) -> None:
        """Add one match's figures."""
        self.matches += 1
        self.moves += rep.moves
        self.played += rep.played
        self.offered |= rep.offered
        self.paid += rep.paid
        for what in CATEGORIES:
            self.counts[what] += rep.count(what)
        if rep.failures:
            self.failed.append((rep.seed, rep.failures[0].line()))

    def never_played(self) -> list[str]:
        """Return the kinds of move the game has (or that were offered) that no match played."""
        kinds = list(dict.fromkeys([*KINDS.get(self.game, ()), *sorted(self.offered)]))
        return [k for k in kinds if not self.played[k]]

    def lines(self) -> list[str]:
        """Return the summary as printed lines."""
        figures = ", ".join(f"{self.counts[c]} {LABELS[c]}" for c in CATEGORIES)
        never = [k + ("" if k in self.offered else " (never offered)") for k in self.never_played()]
        out = [f"{self.game} {self.seats} seats: {self.matches} matches, {self.moves} moves; {figures}",
               f"  never played: {', '.join(never) or 'none'}"]
        if self.paid:
            out.append("  duties the duty command paid: " + ", ".join(f"{k} {n}" for k, n in sorted(self.paid.items())))
        out += [f"  seed {seed}: {line}" for seed, line in self.failed]
        return out


def soak(run: Run, folder: Path, games, matches: int, seats: tuple[int, ...] | None = None,
         seeds: list[int] | None = None, max_moves: int = 2000, echo=None,
         duty: tuple[str, ...] = ("hand",)) -> list[Summary]:
    """Soak every game in ``games`` at each of its seat counts; return one :class:`Summary` each.

    ``seeds`` replaces ``range(matches)``; ``echo`` (if given) is called with each summary's lines;
    ``duty`` is the command seats pay their duties with (see :class:`Match`).
    """
    out = []
    for game in games:
        for n in seat_counts(game):
            if seats and n not in seats:
                continue
            summary = Summary(game.name, n)
            for seed in seeds if seeds is not None else range(matches):
                summary.add(play(run, folder / f"{game.name}-{n}-{seed}", game, n, seed, max_moves, duty))
            out.append(summary)
            if echo:
                echo("\n".join(summary.lines()))
    return out


def _excerpt(text: str, limit: int = 240) -> str:
    """Return the first lines of ``text`` in one short line."""
    one = " | ".join(ln.strip() for ln in text.strip().splitlines()[:4] if ln.strip())
    return one if len(one) <= limit else one[:limit] + "…"
