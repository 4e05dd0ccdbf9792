"""The Tower's document: render a state as text and read it back (tolerant, line-numbered errors).

The header carries the board and the deck themselves (never a file name)::

    Board: The Tower · 6 floors × 8 tiles · start 1 · treasure 48 · paths 1→ 2← 3→ 4← 5→ 6←
    Deck: pbd default deck · Torch 5, Guard 5, Rope 4, ...
    Rules: 3 players · finish: reach

The body draws the tower floor by floor, top floor first, each floor's tiles from left to
right (so a tile stands above the tile below it), with the card on each tile and the
tokens on it by their mark::

    Players
      A Ann · hand 2 · deck 37
      B Ben · hand 1 · deck 38 · webbed

    Floor 6 ← | 48 Treasure | 47 | 46 Torch | 45 (B) | ...
    ...
    Floor 1 → | 1 Start (A) | 2 | 3 Rope | ...

    Spent: Ann Sword
    Discarded: Ben Guard
    Turn 7: Ann — may play a card, then roll
    Duel on 17: Ann against Ben · Swords: Ann · Shields: none · step 1
    Then: Ben arrives, Ann rests
    Waiting on: Ben [shield, entry 12] — play Shield against Ann's Sword in the duel on 17, or pass
    Winner: Ann reached the treasure and wins
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError
from pbd.games.base import Meta, parse_meta, split_frame
from pbd.games.tower import rules
from pbd.games.tower.data import kind_named
from pbd.games.tower.state import KINDS, DeckSpec, Decision, Duel, Layout, Options, Seat, State, Task

TITLE = "The Tower"
ARROW = {"right": "→", "left": "←"}
FINISH = {"reach": "reach", "bounce": "exact (bounce back)", "stay": "exact (stay)"}
PHASES = {("draw", False): "draw a card", ("main", False): "may play a card, then roll",
          ("main", True): "card played, now roll", ("resolve", False): "rolled, resolving",
          ("resolve", True): "rolled, resolving", ("over", False): "over", ("over", True): "over"}
DUELLED = "; the turn's duel fought"
MAX_LINE = 2000
MAX_HAND = 99
MAX_COUNT = 300

BOARD_RE = re.compile(r"^Board:\s*(?P<name>[^·]*?)\s*·\s*(?P<floors>\d{1,3})\s*floors?\s*[×x*]\s*(?P<width>\d{1,3})"
                      r"\s*tiles?\s*·\s*start\s+(?P<start>\d{1,4})\s*·\s*treasure\s+(?P<treasure>\d{1,4})"
                      r"\s*·\s*paths?\s+(?P<paths>.*)$", re.I)
PATH_RE = re.compile(r"(\d{1,3})\s*([→←<>])")
DECK_RE = re.compile(r"^Deck:\s*(?P<name>[^·]*?)\s*·\s*(?P<cards>.*)$", re.I)
RULES_RE = re.compile(r"^Rules:\s*(?P<n>\d)\s*players?\s*·\s*finish:\s*(?P<finish>[^·]*?)\s*"
                      r"(?:·\s*first:\s*(?P<first>.+?))?\s*$", re.I)
PLAYER_RE = re.compile(r"^\s*(?P<mark>[A-Z0-9])\s+(?P<name>[^·]+?)\s*·\s*hand\s+(?P<hand>\d{1,6})\s*·\s*deck\s+"
                       r"(?P<deck>\d{1,6})(?P<web>\s*·\s*webbed)?\s*$")
LOOKS_LIKE_PLAYER = re.compile(r"^\s+\S+\s+.*·\s*hand\b", re.I)
FLOOR_RE = re.compile(r"^\s*Floor\s+(?P<floor>\d{1,3})\s*[→←<>]?\s*\|(?P<cells>.*)$", re.I)
CELL_RE = re.compile(r"^\s*(?P<tile>\d{1,4})\b(?P<cards>[^()]*?)\s*(?:\((?P<marks>[^)]*)\))?\s*$")
TURN_RE = re.compile(r"^Turn\s+(?P<turn>\d{1,6}):\s*(?P<name>.+?)\s*—\s*(?P<phase>.+?)\s*$")
WAIT_TURN_RE = re.compile(r"^Turn:\s*waiting for", re.I)
DUEL_RE = re.compile(r"^Duel on\s+(?P<tile>\d{1,4}):\s*(?P<a>.+?)\s+against\s+(?P<b>.+?)\s*·\s*Swords:\s*(?P<sw>.*?)"
                     r"\s*·\s*Shields:\s*(?P<sh>.*?)\s*·\s*step\s+(?P<step>\d)\s*$")
THEN_RE = re.compile(r"^Then:\s*(?P<tasks>.*)$")
TASK_RE = re.compile(r"^(?P<name>.+?)\s+(?P<kind>arrives|rests)$")
WAITING_RE = re.compile(r"^Waiting on:\s*(?P<name>.+?)\s*\[(?P<kind>guard|arcane|sword|shield),\s*entry\s+"
                        r"(?P<origin>\d{1,6})\]")
WINNER_RE = re.compile(r"^Winner:\s*(?P<name>.+?)\s+reached the treasure")


# -- rendering ------------------------------------------------------------------------------

def header(state: State) -> list[str]:
    """Return the header lines: the board, the deck, the rules of this match."""
    lay, deck = state.layout, state.deck
    paths = " ".join(f"{f}{ARROW[d]}" for f, d in enumerate(lay.directions, 1))
    counts = ", ".join(f"{k} {n}" for k, n in deck.counts.items())
    first = f" · first: {state.first}" if state.first and not state.started else ""
    return [f"Board: {lay.name} · {lay.floors} floors × {lay.width} tiles · start {lay.start} · "
            f"treasure {lay.treasure} · paths {paths}",
            f"Deck: {deck.name} · {counts} ({deck.size} cards)",
            f"Rules: {state.players} players · finish: {FINISH[state.options.finish]}{first}"]


def cell(state: State, tile: int) -> str:
    """Return one tile as the board writes it: number, card(s), tokens."""
    lay = state.layout
    if tile > lay.treasure:
        return f"{tile} -"
    names = list(state.cards.get(tile, []))
    if not names and tile == lay.start:
        names = ["Start"]
    if not names and tile == lay.treasure:
        names = ["Treasure"]
    marks = " ".join(s.mark for s in state.seats if s.tile == tile)
    return " ".join([str(tile), " + ".join(names)]).strip() + (f" ({marks})" if marks else "")


def body(state: State) -> list[str]:
    """Return the body lines: players, the tower top floor first, the turn and what is pending."""
    out = ["Players"]
    out += [f"  {s.mark} {s.name} · hand {s.hand} · deck {s.deck}" + (" · webbed" if s.webbed else "")
            for s in state.seats]
    out.append("")
    lay = state.layout
    for f in range(lay.floors, 0, -1):
        out.append(f"Floor {f} {ARROW[lay.directions[f - 1]]} | " + " | ".join(cell(state, t) for t in rules.row(lay, f)))
    out.append("")
    if state.spent:
        out.append("Spent: " + ", ".join(f"{n} {c}" for n, c in state.spent))
    if state.discarded:
        out.append("Discarded: " + ", ".join(f"{n} {c}" for n, c in state.discarded))
    out.append(turn_line(state))
    if state.duel:
        d = state.duel
        out.append(f"Duel on {d.tile}: {d.attacker} against {d.defender} · Swords: {', '.join(d.swords) or 'none'}"
                   f" · Shields: {', '.join(d.shields) or 'none'} · step {d.step}")
    if state.queue:
        out.append("Then: " + ", ".join(f"{t.seat} {'arrives' if t.kind == 'arrive' else 'rests'}"
                                        for t in state.queue))
    out += [f"Waiting on: {d.seat} [{d.kind}, entry {d.origin}] — {d.prompt}" for d in state.decisions]
    if state.winner:
        out.append(f"Winner: {state.result}")
    return out


def turn_line(state: State) -> str:
    """Return the ``Turn`` line: number, whose turn, and the step of the turn."""
    if not state.started:
        return f"Turn: waiting for {state.players - len(state.seats)} more player(s) to join"
    return f"Turn {state.turn}: {state.mover.name} — {PHASES[(state.step, state.placed)]}" + (
        DUELLED if state.dueled else "")


# -- reading ------------------------------------------------------------------------------------

def parse(text: str, game: str) -> State:
    """Return the state a document shows.

    :raises DocumentFormatError: a line that cannot be read (its number and what was expected).
    """
    frame = split_frame(text)
    meta = parse_meta(game, frame) if frame.match_id else Meta(game)
    lines = [ln for ln in frame.header + frame.body if ln.text.strip()]
    for ln in lines:
        if len(ln.text) > MAX_LINE:
            raise DocumentFormatError(f"a line of {len(ln.text)} characters (at most {MAX_LINE})", line=ln.number)
    state = State(meta)
    _read_header(state, lines)
    _read_players(state, lines)
    _read_floors(state, lines)
    _read_rest(state, lines)
    return state


def _find(lines, regex, what: str, required: bool = True):
    for ln in lines:
        if m := regex.match(ln.text.strip()):
            return ln, m
    if required:
        raise DocumentFormatError(f"no {what} line", line=lines[0].number if lines else None,
                                  hint="every Tower document has 'Board:', 'Deck:' and 'Rules:' lines at the top")
    return None, None


def _read_header(state: State, lines) -> None:
    ln, m = _find(lines, BOARD_RE, "'Board: NAME · F floors × W tiles · start S · treasure T · paths 1→ 2← ...'")
    floors, width = int(m.group("floors")), int(m.group("width"))
    start, treasure = int(m.group("start")), int(m.group("treasure"))
    paths = dict((int(f), "right" if a in "→>" else "left") for f, a in PATH_RE.findall(m.group("paths")))
    if not (2 <= floors <= 20 and 2 <= width <= 20 and 1 <= start < treasure <= floors * width) \
            or sorted(paths) != list(range(1, floors + 1)):
        raise DocumentFormatError("the Board line does not describe a tower (2-20 floors of 2-20 tiles, "
                                  "start before treasure, one path arrow per floor)", line=ln.number)
    state.layout = Layout(m.group("name").strip() or TITLE, floors, width, [paths[f] for f in sorted(paths)],
                          start, treasure)
    ln, m = _find(lines, DECK_RE, "'Deck: NAME · Torch 5, Guard 5, ...'")
    counts: dict[str, int] = {}
    body_ = re.sub(r"\(\d+ cards?\)\s*$", "", m.group("cards")).strip()
    for item in filter(None, (i.strip() for i in body_.split(","))):
        im = re.match(r"^(?P<kind>.+?)\s+(?P<n>\d{1,3})$", item)
        kind = kind_named(im.group("kind")) if im else None
        if kind is None or int(im.group("n")) > 60 or kind in counts:
            raise DocumentFormatError(f"cannot read {item[:40]!r} in the Deck line (expected 'Kind N')",
                                      line=ln.number)
        counts[kind] = int(im.group("n"))
    state.deck = DeckSpec(m.group("name").strip(), {k: counts[k] for k in KINDS if k in counts})
    ln, m = _find(lines, RULES_RE, "'Rules: N players · finish: reach'")
    state.players = int(m.group("n"))
    if not 2 <= state.players <= 6:
        raise DocumentFormatError("The Tower is played by 2 to 6 players", line=ln.number)
    fin = m.group("finish").lower()
    state.options = Options("bounce" if "bounce" in fin else "stay" if "stay" in fin else "reach")
    state.first = (m.group("first") or "").strip()


def _read_players(state: State, lines) -> None:
    for ln in lines:
        m = PLAYER_RE.match(ln.text)
        if not m:
            if LOOKS_LIKE_PLAYER.match(ln.text):
                raise DocumentFormatError("cannot read this player line (expected 'A Ann · hand 2 · deck 37', "
                                          "with '· webbed' if a web holds them)", line=ln.number)
            continue
        hand, deck = int(m.group("hand")), int(m.group("deck"))
        if hand > MAX_HAND or deck > MAX_COUNT:
            raise DocumentFormatError(f"hand {hand} / deck {deck}: more cards than a Tower match has", line=ln.number)
        if len(state.seats) >= 6:
            raise DocumentFormatError("more than 6 players", line=ln.number)
        name, mark = m.group("name").strip(), m.group("mark")
        if any(s.name.casefold() == name.casefold() or s.mark == mark for s in state.seats):
            raise DocumentFormatError(f"a second player line for {name} / token {mark}", line=ln.number)
        state.seats.append(Seat(name, mark, None, hand, deck, bool(m.group("web"))))


def _read_floors(state: State, lines) -> None:
    lay = state.layout
    seen_tiles: set[int] = set()
    marks = {s.mark: s for s in state.seats}
    placed: dict[str, int] = {}
    for ln in lines:
        m = FLOOR_RE.match(ln.text)
        if not m:
            continue
        for raw in m.group("cells").split("|"):
            c = CELL_RE.match(raw)
            if not c or not 1 <= int(c.group("tile")) <= lay.tiles:
                raise DocumentFormatError(f"cannot read the tile {raw.strip()[:30]!r} (expected 'N', 'N Card' or "
                                          f"'N Card (A B)', N from 1 to {lay.tiles})", line=ln.number)
            tile = int(c.group("tile"))
            if tile in seen_tiles:
                state.notes.append(f"tile {tile} is drawn twice (line {ln.number})")
            seen_tiles.add(tile)
            _read_cards(state, tile, c.group("cards"), ln.number)
            for mark in re.findall(r"[A-Z0-9]", (c.group("marks") or "").upper()):
                seat = marks.get(mark)
                if seat is None:
                    state.notes.append(f"tile {tile} shows a token {mark} that belongs to no player")
                elif mark in placed:
                    state.notes.append(f"{seat.name}'s token ({mark}) is on two tiles, {placed[mark]} and {tile}")
                else:
                    placed[mark] = tile
                    seat.tile = tile
    for seat in state.seats:
        if seat.tile is None:
            state.notes.append(f"{seat.name}'s token ({seat.mark}) is on no tile")


def _read_cards(state: State, tile: int, text: str, line: int) -> None:
    for name in filter(None, (n.strip() for n in text.split("+"))):
        if name.lower() in ("start", "treasure", "-"):
            continue
        kind = kind_named(name)
        if kind is None:
            raise DocumentFormatError(f"tile {tile}: {name[:30]!r} is not a card of The Tower "
                                      f"({', '.join(KINDS)})", line=line)
        state.cards.setdefault(tile, []).append(kind)


def _pairs(text: str, line: int) -> list[tuple[str, str]]:
    out = []
    for item in filter(None, (i.strip() for i in text.split(","))):
        kind = next((k for k in KINDS if item.lower().endswith(" " + k.lower())), None)
        if kind is None:
            raise DocumentFormatError(f"cannot read {item[:40]!r} (expected 'NAME Card')", line=line)
        out.append((item[: -len(kind)].strip(), kind))
    return out


def _read_rest(state: State, lines) -> None:
    names = {s.name.casefold(): s.name for s in state.seats}

    def who(name: str, line: int) -> str:
        if name.strip().casefold() not in names:
            raise DocumentFormatError(f"{name.strip()[:30]!r} is not a player of this match", line=line)
        return names[name.strip().casefold()]

    for ln in lines:
        t = ln.text.strip()
        if t.startswith("Spent:"):
            state.spent = [(who(n, ln.number), c) for n, c in _pairs(t[6:], ln.number)]
        elif t.startswith("Discarded:"):
            state.discarded = [(who(n, ln.number), c) for n, c in _pairs(t[10:], ln.number)]
        elif m := TURN_RE.match(t):
            _read_turn(state, m, who(m.group("name"), ln.number), ln.number)
        elif m := DUEL_RE.match(t):
            split_ = (lambda x: [] if x.strip().lower() == "none" else [who(n, ln.number) for n in x.split(",")])
            state.duel = Duel(who(m.group("a"), ln.number), who(m.group("b"), ln.number), int(m.group("tile")),
                              split_(m.group("sw")), split_(m.group("sh")), int(m.group("step")))
        elif m := THEN_RE.match(t):
            for item in filter(None, (i.strip() for i in m.group("tasks").split(","))):
                tm = TASK_RE.match(item)
                if not tm or len(state.queue) > 12:
                    raise DocumentFormatError(f"cannot read {item[:40]!r} (expected 'NAME arrives' or 'NAME rests')",
                                              line=ln.number)
                state.queue.append(Task("arrive" if tm.group("kind") == "arrives" else "rest",
                                        who(tm.group("name"), ln.number)))
        elif m := WAITING_RE.match(t):
            if len(state.decisions) >= 4:
                raise DocumentFormatError("too many pending decisions", line=ln.number)
            kind = m.group("kind")
            card = "Sword" if kind == "sword" else "Shield"
            state.decisions.append(Decision(who(m.group("name"), ln.number), "", [f"play {card}", "pass"],
                                            int(m.group("origin")), kind))
        elif m := WINNER_RE.match(t):
            state.winner = who(m.group("name"), ln.number)
    for d in state.decisions:
        d.prompt = safe_prompt(state, d)


def _read_turn(state: State, m, name: str, line: int) -> None:
    phase = m.group("phase").strip().lower()
    state.dueled = phase.endswith(DUELLED.lower())
    phase = phase.removesuffix(DUELLED.lower()).strip()
    found = [key for key, words in PHASES.items() if words == phase]
    if not found:
        raise DocumentFormatError(f"cannot read the turn step {phase[:40]!r} (expected one of: "
                                  f"{', '.join(dict.fromkeys(PHASES.values()))})", line=line)
    state.step, state.placed = found[0]
    state.turn = int(m.group("turn"))
    state.current = next(i for i, s in enumerate(state.seats) if s.name == name)


def safe_prompt(state: State, d: Decision) -> str:
    """Return a decision's prompt, or a note when a hand-edited board makes it meaningless."""
    try:
        return rules.prompt(state, d.seat, d.kind)
    except (AttributeError, KeyError, TypeError):
        return "(this decision does not fit the board)"
