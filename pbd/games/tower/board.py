"""The Tower's board lines: render them and read them back (tolerant, line-numbered errors).

The table's header (seats, options, turn or result, ``Waiting on:`` decisions, deck work
owed) comes first and the shared deck's section last (:class:`pbd.table.game.CardGame`);
between them the board carries the tower and the deck's counts themselves (never a file
name)::

    Board: The Tower · 6 floors × 8 tiles · start 1 · treasure 48 · paths 1→ 2← 3→ 4← 5→ 6←
    Cards: pbd default deck · Torch 5, Guard 5, Rope 4, ... (40 cards)

then the players (token mark, name, cards in hand), the tower floor by floor, top floor
first, each floor's tiles from left to right (so a tile stands above the tile below it),
with the card on each tile and the tokens on it by their mark, and the turn's progress::

    Players
      A Ann · hand 2
      B Ben · hand 1 · webbed

    Floor 6 ← | 48 Treasure | 47 | 46 Torch | 45 (B) | ...
    ...
    Floor 1 → | 1 Start (A) | 2 | 3 Rope | ...

    Spent: Ann Sword
    Discarded: Ben Guard
    Turn 7: may play a card, then roll
    Duel on 17: Ann against Ben · Swords: Ann · Shields: none · step 1
    Then: Ben arrives, Ann rests
    Asking: Ann [guard] — play Shield to stay on 20 despite the Guard, or pass (back to 19)
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError
from pbd.games.tower import rules
from pbd.games.tower.data import MAX_DECK, kind_named
from pbd.games.tower.state import ASKS, KINDS, DeckSpec, Duel, Layout, State, Task, marks
from pbd.regex import pattern

TITLE = "The Tower"
ARROW = {"right": "→", "left": "←"}
PHASES = {("main", False): "may play a card, then roll", ("main", True): "card played, now roll",
          ("resolve", False): "rolled, resolving", ("resolve", True): "rolled, resolving",
          ("over", False): "over", ("over", True): "over"}
DUELLED = "; the turn's duel fought"
MAX_LINE = 2000
MAX_HAND = 99

BOARD_RE = pattern(r"^Board:\s*(?P<name>[^·]*?)\s*·\s*(?P<floors>\d{1,3})\s*floors?\s*[×x*]\s*(?P<width>\d{1,3})"
                   r"\s*tiles?\s*·\s*start\s+(?P<start>\d{1,4})\s*·\s*treasure\s+(?P<treasure>\d{1,4})"
                   r"\s*·\s*paths?\s+(?P<paths>.*)$", re.I)
PATH_RE = pattern(r"(\d{1,3})\s*([→←<>])")
CARDS_RE = pattern(r"^Cards:\s*(?P<name>[^·]*?)\s*·\s*(?P<cards>.*)$", re.I)
PLAYER_RE = pattern(r"^\s*(?P<mark>[A-Z0-9])\s+(?P<name>[^·]+?)\s*·\s*hand\s+(?P<hand>\d{1,6})"
                    r"(?P<web>\s*·\s*webbed)?\s*$")
LOOKS_LIKE_PLAYER = pattern(r"^\s+\S+\s+.*·\s*hand\b", re.I)
FLOOR_RE = pattern(r"^\s*Floor\s+(?P<floor>\d{1,3})\s*[→←<>]?\s*\|(?P<cells>.*)$", re.I)
CELL_RE = pattern(r"^\s*(?P<tile>\d{1,4})\b(?P<cards>[^()]*?)\s*(?:\((?P<marks>[^)]*)\))?\s*$")
ROUND_RE = pattern(r"^Turn\s+(?P<round>\d{1,6}):\s*(?P<phase>.+?)\s*$")
DUEL_RE = pattern(r"^Duel on\s+(?P<tile>\d{1,4}):\s*(?P<a>.+?)\s+against\s+(?P<b>.+?)\s*·\s*Swords:\s*(?P<sw>.*?)"
                  r"\s*·\s*Shields:\s*(?P<sh>.*?)\s*·\s*step\s+(?P<step>\d)\s*$")
THEN_RE = pattern(r"^Then:\s*(?P<tasks>.*)$")
TASK_RE = pattern(r"^(?P<name>.+?)\s+(?P<kind>arrives|rests)$")
ASKING_RE = pattern(r"^Asking:\s*(?P<name>.+?)\s*\[(?P<kind>[a-z]+)\]")


# -- rendering ------------------------------------------------------------------------------

def render(state: State, spec: DeckSpec) -> list[str]:
    """Return the board lines of ``state`` (``spec``: the deck's counts to write)."""
    lay = state.layout
    paths = " ".join(f"{f}{ARROW[d]}" for f, d in enumerate(lay.directions, 1))
    counts = ", ".join(f"{k} {n}" for k, n in spec.counts.items())
    out = [f"Board: {lay.name} · {lay.floors} floors × {lay.width} tiles · start {lay.start} · "
           f"treasure {lay.treasure} · paths {paths}",
           f"Cards: {spec.name} · {counts} ({spec.size} cards)", "", "Players"]
    mk = marks(state.seats)
    out += [f"  {mk[s]} {s} · hand {rules.hand_size(state, s)}" + (" · webbed" if s in state.webbed else "")
            for s in state.seats]
    out.append("")
    return out + floor_lines(state, mk) + _progress(state)


def floor_lines(state: State, mk: dict[str, str]) -> list[str]:
    """Return the tower, top floor first, each column padded so that a tile stands above the tile below it."""
    lay = state.layout
    rows = [(f, [cell(state, t, mk) for t in rules.row(lay, f)]) for f in range(lay.floors, 0, -1)]
    widths = [max(len(cells[i]) for _, cells in rows) for i in range(lay.width)]
    heads = [f"Floor {f} {ARROW[lay.directions[f - 1]]}" for f, _ in rows]
    width = max(map(len, heads))
    return [(f"{head:<{width}} | " + " | ".join(c.ljust(w) for c, w in zip(cells, widths))).rstrip()
            for head, (_, cells) in zip(heads, rows)]


def cell(state: State, tile: int, mk: dict[str, str]) -> str:
    """Return one tile as the board writes it: number, card(s), tokens."""
    lay = state.layout
    if tile > lay.treasure:
        return f"{tile} -"
    names = list(state.cards.get(tile, []))
    if not names and tile == lay.start:
        names = ["Start"]
    if not names and tile == lay.treasure:
        names = ["Treasure"]
    on = " ".join(mk[s] for s in state.on_tile(tile))
    return " ".join([str(tile), " + ".join(names)]).strip() + (f" ({on})" if on else "")


def _progress(state: State) -> list[str]:
    out = []
    if state.spent:
        out.append("Spent: " + ", ".join(f"{n} {c}" for n, c in state.spent))
    if state.discarded:
        out.append("Discarded: " + ", ".join(f"{n} {c}" for n, c in state.discarded))
    if state.started:
        out.append(f"Turn {state.round}: {PHASES[(state.step, state.placed)]}" + (DUELLED if state.dueled else ""))
    if state.duel:
        d = state.duel
        out.append(f"Duel on {d.tile}: {d.attacker} against {d.defender} · Swords: {', '.join(d.swords) or 'none'}"
                   f" · Shields: {', '.join(d.shields) or 'none'} · step {d.step}")
    if state.queue:
        out.append("Then: " + ", ".join(f"{t.seat} {'arrives' if t.kind == 'arrive' else 'rests'}"
                                        for t in state.queue))
    if state.ask:
        out.append(f"Asking: {state.mover} [{state.ask}] — {safe_prompt(state, state.mover, state.ask)}")
    return [""] + out if out else []


# -- reading ------------------------------------------------------------------------------------

def read(state: State, lines: list) -> None:
    """Read the board lines (``Line`` objects) into ``state``.

    :raises DocumentFormatError: a line that cannot be read (its number and what was expected).
    """
    lines = [ln for ln in lines if ln.text.strip()]
    for ln in lines:
        if len(ln.text) > MAX_LINE:
            raise DocumentFormatError(f"a line of {len(ln.text)} characters (at most {MAX_LINE})", line=ln.number)
    _read_layout(state, lines)
    _read_players(state, lines)
    _read_floors(state, lines)
    _read_rest(state, lines)


def _find(lines, regex, what: str):
    for ln in lines:
        if m := regex.match(ln.text.strip()):
            return ln, m
    raise DocumentFormatError(f"no {what} line", line=lines[0].number if lines else None,
                              hint="every Tower board has 'Board:' and 'Cards:' lines at the top")


def _read_layout(state: State, lines) -> None:
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
    ln, m = _find(lines, CARDS_RE, "'Cards: NAME · Torch 5, Guard 5, ...'")
    counts: dict[str, int] = {}
    body_ = re.sub(r"\(\d+ cards?\)\s*$", "", m.group("cards")).strip()
    for item in filter(None, (i.strip() for i in body_.split(","))):
        im = re.match(r"^(?P<kind>.+?)\s+(?P<n>\d{1,3})$", item)
        kind = kind_named(im.group("kind")) if im else None
        if kind is None or int(im.group("n")) > 60 or kind in counts:
            raise DocumentFormatError(f"cannot read {item[:40]!r} in the Cards line (expected 'Kind N')",
                                      line=ln.number)
        counts[kind] = int(im.group("n"))
    if sum(counts.values()) > MAX_DECK:
        raise DocumentFormatError(f"the Cards line lists {sum(counts.values())} cards (a deck has at most {MAX_DECK})",
                                  line=ln.number)
    state.spec = DeckSpec(m.group("name").strip(), {k: counts[k] for k in KINDS if k in counts})


def _read_players(state: State, lines) -> None:
    mk = marks(state.seats)
    for ln in lines:
        m = PLAYER_RE.match(ln.text)
        if not m:
            if LOOKS_LIKE_PLAYER.match(ln.text):
                raise DocumentFormatError("cannot read this player line (expected 'A Ann · hand 2', "
                                          "with '· webbed' if a web holds them)", line=ln.number)
            continue
        name = m.group("name").strip()
        seat = next((s for s in state.seats if s.casefold() == name.casefold()), None)
        if seat is None:
            raise DocumentFormatError(f"{name[:30]!r} has no seat in this match (Seats: {', '.join(state.seats)})",
                                      line=ln.number)
        if m.group("mark") != mk[seat]:
            raise DocumentFormatError(f"{seat}'s token is {mk[seat]}, not {m.group('mark')}", line=ln.number)
        hand = int(m.group("hand"))
        if hand > MAX_HAND:
            raise DocumentFormatError(f"hand {hand}: more cards than a Tower match has", line=ln.number)
        state.shown[seat] = hand
        if m.group("web") and seat not in state.webbed:
            state.webbed.append(seat)


def _read_floors(state: State, lines) -> None:
    lay = state.layout
    seen_tiles: set[int] = set()
    by_mark = {m: s for s, m in marks(state.seats).items()}
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
                seat = by_mark.get(mark)
                if seat is None:
                    state.notes.append(f"tile {tile} shows a token {mark} that belongs to no player")
                elif mark in placed:
                    state.notes.append(f"{seat}'s token ({mark}) is on two tiles, {placed[mark]} and {tile}")
                else:
                    placed[mark] = tile
                    state.tokens[seat] = tile
    for seat, mark in marks(state.seats).items():
        if mark not in placed:
            state.tokens[seat] = None
            state.notes.append(f"{seat}'s token ({mark}) is on no tile")


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


def _read_rest(state: State, lines) -> None:  # noqa: C901
    names = {s.casefold(): s for s in state.seats}

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
        elif m := ROUND_RE.match(t):
            _read_round(state, m, ln.number)
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
        elif m := ASKING_RE.match(t):
            if m.group("kind") not in ASKS:
                raise DocumentFormatError(f"cannot read the question [{m.group('kind')[:20]}] (expected one of: "
                                          f"{', '.join(ASKS)})", line=ln.number)
            if state.started and who(m.group("name"), ln.number) != state.mover:
                state.notes.append(f"the board asks {m.group('name')}, who is not on turn, for a card")
            state.ask = m.group("kind")


def _read_round(state: State, m, line: int) -> None:
    phase = m.group("phase").strip().lower()
    state.dueled = phase.endswith(DUELLED.lower())
    phase = phase.removesuffix(DUELLED.lower()).strip()
    found = [key for key, words in PHASES.items() if words == phase]
    if not found:
        raise DocumentFormatError(f"cannot read the turn step {phase[:40]!r} (expected one of: "
                                  f"{', '.join(dict.fromkeys(PHASES.values()))})", line=line)
    state.step, state.placed = found[0]
    state.round = int(m.group("round"))


def safe_prompt(state: State, seat: str, kind: str) -> str:
    """Return a question's prompt, or a note when a hand-edited board makes it meaningless."""
    try:
        return rules.prompt(state, seat, kind)
    except (AttributeError, KeyError, TypeError):
        return "(this question does not fit the board)"
