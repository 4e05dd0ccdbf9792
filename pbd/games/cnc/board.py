"""The C&C board as text: the rulebook's layout plus a short header and pbd's log.

Layout of the body (player 2's half mirrored, as in "Playing Through Google"), each half
named by its player, discards counted toward the Attrition Limit, maximum HP beside HP::

    Ann (player 1)
    Discarded cards (2/25)
    Nill, Vanished Cops
    CP = 100 AP= 3
    City Cards
    [The Porter] [Import Clinic]
    Character Cards
    [Spider-Man HP=15/25] [Batman HP=20/30 frozen] ++
    ----
    [Danger HP=40/40]
    Character Cards
    [The Porter]
    City Cards
    CP = 100 AP= 0
    Discarded cards (0/25)
    (none)
    Ben (player 2)

The names, counts and maximum HP are written for people and ignored when read (a board of
an older pbd, without them, reads the same); a name line on a board typed without a
header names that half's player.

Reading is tolerant of how people type: any case and spacing, ``AP= 3`` / ``AP = 3``,
the rulebook's placeholders (``[Character HP=]``, ``[City Card]``, "Defeated
Character, Destroyed City Card"), ``+``/``++`` combo marks with or without a space,
``*bold*`` names, and a trailing "Player 2" line.  A blank HP (``[Nill HP=]``) means
the card's full HP.
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError
from pbd.games.base import NOTE_HINT, Line, board_note, parse_meta, render_frame, split_frame
from pbd.games.cnc.cards import STATUSES, Catalogue, suggest
from pbd.games.cnc.state import ATTRITION_LIMIT, Character, Pending, Side, State, Turn, find_key, key_of
from pbd.regex import pattern

TITLE = "C&C Trading Card Game"
SEPARATOR = pattern(r"^\s*[-–—=_]{3,}\s*$")
CP_LINE = pattern(r"^\s*CP\s*[=:]\s*(?P<cp>-?\d+)\s*,?\s*AP\s*[=:]\s*(?P<ap>-?\d+)"
                     r"\s*(?:\(\s*next turn\s*(?P<next>[+-]\s*\d+)\s*\))?\s*$", re.I)
CP_START = pattern(r"^\s*(?:CP|AP)\s*[=:]", re.I)
BRACKET = pattern(r"\[([^\]]*)\]\s*(\+*)(?:\s*\(([^)]*)\))?")
LABELS = {"discarded cards": "discards", "discards": "discards", "discard pile": "discards",
          "city cards": "cities", "cities": "cities", "character cards": "characters", "characters": "characters"}
PLACEHOLDER_CARDS = {"character", "character card", "city card", "city", "card", ""}
PLACEHOLDER_DISCARDS = {"defeated character", "destroyed city card", "discarded card", "used event card",
                        "(none)", "none", "-", "—", "nothing"}
PLAYER_LINE = pattern(r"^\s*(?P<name>.+?):\s*hand\s+(?P<hand>\d+)\s*·\s*deck\s+(?P<deck>\d+)\s*$", re.I)
PLAYERS_LINE = pattern(r"^\s*Players:\s*(?P<rest>.*)$", re.I)
TURN_LINE = pattern(r"^\s*Turn\s+(?P<n>\d+):\s*(?P<name>.+?)\s+to move\s*·\s*(?P<first>.+?)\s+moved first\s*$", re.I)
FIRST_LINE = pattern(r"^\s*First player:\s*(?P<who>.+?)\s*$", re.I)
PENDING_LINE = pattern(
    r"^\s*Pending:\s*(?P<player>.+?)\s+(?:(?P<discard>discards)\s+(?P<n>\d+)\s+cards? from hand"
    r"|(?P<take>takes)\s+(?P<card>.+?)\s+into hand|(?P<reveal>reveals)\s+hand card\s+(?P<pos>\d+)"
    r"|(?P<decide>accepts or rejects)\s+adjust\s+(?P<adjust>[^()]+?)|(?P<roll>rolls the die of)\s+(?P<move>.+?))"
    r"\s*(?:\((?P<source>[^)]*)\))?\s*$", re.I)
RESULT_LINE = pattern(r"^\s*(?:Result|Match over)\s*:\s*(?P<text>.+?)\s*$", re.I)
ENDED_LINE = pattern(r"^\s*Ended on turn\s+(?P<n>\d+)\s*\((?P<name>.+?)'s turn\)\s*·\s*(?P<first>.+?)\s+moved first\s*$",
                        re.I)
#: A half's name line: "Ann (player 1)", or the rulebook's "Player 2".
HALF_NAME = pattern(r"^\s*(?:(?P<name>.+?)\s*\(\s*player\s*(?P<seat>[12])\s*\)|player\s*2|p2)\s*$", re.I)
#: "(2/25)" after a "Discarded cards" label: the count toward the Attrition Limit.
ATTRITION_COUNT = pattern(r"\s*\(\s*\d+\s*/\s*\d+\s*\)\s*$")
THIS_TURN = pattern(r"^\s*This turn:\s*(?P<rest>.*)$", re.I)


# -- rendering ------------------------------------------------------------------

def render(state: State, catalogue: Catalogue | None = None) -> str:
    """Return the whole document text for ``state`` (with ``catalogue``, each character's maximum HP beside its HP)."""
    return render_frame(state.meta, TITLE, header_lines(state), body_lines(state, catalogue),
                        groups=log_groups(state.meta.log))


#: Log entries that set the match up, before turn 1.
_SETUP = ("new match", "joined", "opening hand")


def log_groups(log) -> dict[int, str]:
    """Return the headings that group the log by turn: ``{entry number: "Turn 3 · Ann"}`` ("Setup" first).

    A turn starts with the first entry after the set-up or after an ``end turn``; it is
    named by the player of that entry.
    """
    out: dict[int, str] = {}
    turn, ended = 0, True
    for e in log:
        if e.number == 1:
            out[1] = "Setup"
        if e.text.startswith(_SETUP) and not turn:
            continue
        if ended:
            turn += 1
            out[e.number] = f"Turn {turn} · {e.player}"
        ended = e.text.startswith("end turn")
    return out


def header_lines(state: State) -> list[str]:
    """Return the header: the result once the match is over, players, whose turn, counts, this turn, pending."""
    names = [s.name for s in state.sides]
    players = " vs ".join(f"{n} (player {i})" for i, n in enumerate(names, 1))
    out = [f"Match over: {state.result}"] if state.result else []
    out.append(f"Players: {players}" + ("" if state.started else " · waiting for player 2"))
    if state.started and not state.first_choice and state.result:
        out.append(f"Ended on turn {state.turn_number} ({state.current.name}'s turn) · "
                   f"{state.sides[state.first].name} moved first")
    elif state.started and not state.first_choice:
        out.append(f"Turn {state.turn_number}: {state.current.name} to move · "
                   f"{state.sides[state.first].name} moved first")
    elif state.first_choice:
        out.append(f"First player: {state.first_choice}")
    out += [f"{s.name}: hand {len(s.hand)} · deck {s.deck}" for s in state.sides]
    turn = _turn_text(state)
    if turn:
        out.append(f"This turn: {turn}")
    out += [_pending_text(p) for p in state.pending]
    return out


def _turn_text(state: State) -> str:
    t = state.turn
    parts = [f"{label} {', '.join(items)}" for label, items in
             (("played", t.played), ("withdrew", t.withdrawn), ("acted", t.acted), ("attacked", t.attacked))
             if items]
    return " · ".join(parts + t.effects)


def _pending_text(p: Pending) -> str:
    what = {"discard": f"discards {p.count} card{'s' if p.count != 1 else ''} from hand",
            "take": f"takes {p.card} into hand", "reveal": f"reveals hand card {p.count}",
            "adjust": f"accepts or rejects adjust {p.card}", "roll": f"rolls the die of {p.card}"}[p.kind]
    return f"Pending: {p.player} {what}" + (f" ({p.source})" if p.source else "")


def body_lines(state: State, catalogue: Catalogue | None = None) -> list[str]:
    """Return the rulebook board: player 1's half, ``----``, player 2's half mirrored, each named by its player."""
    top = state.sides[0] if state.sides else Side("Player 1")
    bottom = state.sides[1] if len(state.sides) > 1 else None
    other = bottom or Side("Player 2")
    return [
        f"{top.name} (player 1)", _discard_label(top), _discards(top), _cp(top), "City Cards", _cities(top),
        "Character Cards", _chars(top, catalogue),
        "----",
        _chars(other, catalogue), "Character Cards", _cities(other), "City Cards", _cp(other), _discard_label(other),
        _discards(other), f"{bottom.name} (player 2)" if bottom else "Player 2",
    ]


def _discard_label(side: Side) -> str:
    return f"Discarded cards ({len(side.discards)}/{ATTRITION_LIMIT})"


def _discards(side: Side) -> str:
    return ", ".join(side.discards) if side.discards else "(none)"


def _cp(side: Side) -> str:
    text = f"CP = {side.cp} AP= {side.ap}"
    return text + (f" (next turn {side.ap_next:+d})" if side.ap_next else "")


def _cities(side: Side) -> str:
    return " ".join(f"[{c}]" for c in side.cities) if side.cities else "(none)"


def _chars(side: Side, catalogue: Catalogue | None = None) -> str:
    return " ".join(_char(c, catalogue) for c in side.characters) if side.characters else "(none)"


def _char(c: Character, catalogue: Catalogue | None = None) -> str:
    status = "".join(f" {s}" for s in c.statuses)
    combo = " " + "+" * c.combo if c.combo else ""
    attack = f" ({c.combo_attack})" if c.combo and c.combo_attack else ""
    most = f"/{catalogue.get(c.name).hp}" if catalogue is not None and c.name in catalogue else ""
    return f"[{c.name} HP={c.hp}{most}{status}]{combo}{attack}"


# -- parsing ----------------------------------------------------------------------

def parse(text: str, catalogue: Catalogue, unknown: list[str] | None = None) -> State:
    """Return the state a document shows.

    With ``unknown`` (a list), cards missing from the catalogue are left off the board
    and described in it instead of raising (``pbd check`` lists them as problems).

    :raises DocumentFormatError: naming the line and what was expected.
    """
    catalogue = _Lenient(catalogue, unknown) if unknown is not None else catalogue
    frame = split_frame(text)
    meta = parse_meta("cnc", frame)
    _take_notes(frame, meta)
    state = State(meta)
    _parse_header(state, frame.header)
    tops, bottoms = _split_halves(frame.body)
    halves = [_parse_half(tops, False, catalogue), _parse_half(bottoms, True, catalogue)]
    if not state.sides:       # a board typed by hand: no header (its halves may name the players)
        state.sides = [Side(halves[0]["name"] or "Player 1"), Side(halves[1]["name"] or "Player 2")]
    for side, half in zip(state.sides, halves):
        side.cp, side.ap, side.ap_next = half["cp"], half["ap"], half["next"]
        side.cities, side.characters, side.discards = half["cities"], half["characters"], half["discards"]
    if len(state.sides) == 1 and (halves[1]["cities"] or halves[1]["characters"] or halves[1]["discards"]):
        raise DocumentFormatError("player 2's half has cards but nobody has joined as player 2",
                                  line=bottoms[0].number if bottoms else None)
    _resolve_turn_keys(state, frame.header)
    return state


#: The largest hand or deck count a board may show (a deck has 50 cards).
MAX_COUNT = 100


def _parse_header(state: State, lines: list[Line]) -> None:
    counts = {}
    for line in lines:
        text = line.text
        if m := PLAYERS_LINE.match(text):
            names = re.findall(r"(.+?)\s*\(player\s*\d\)", m.group("rest").split("·")[0].replace(" vs ", "  "))
            state.sides = [Side(n.strip()) for n in names]
            if not state.sides:
                raise DocumentFormatError("expected 'Players: NAME (player 1) vs NAME (player 2)'", line=line.number)
        elif m := TURN_LINE.match(text) or ENDED_LINE.match(text):
            state.turn_number = int(m.group("n"))
            state.to_move = _seat(state, m.group("name"), line)
            state.first = _seat(state, m.group("first"), line)
        elif m := FIRST_LINE.match(text):
            state.first_choice = m.group("who")
        elif m := PLAYER_LINE.match(text):
            counts[_seat(state, m.group("name"), line)] = (int(m.group("hand")), int(m.group("deck")), line.number)
        elif m := THIS_TURN.match(text):
            state.turn = _parse_turn(m.group("rest"), line)
        elif m := PENDING_LINE.match(text):
            state.pending.append(_parse_pending(state, m, line))
        elif m := RESULT_LINE.match(text):
            state.result = m.group("text")
        else:
            raise DocumentFormatError(
                f"unexpected header line {text.strip()!r}",
                line=line.number, hint="header lines are Players:, Turn N:, NAME: hand N · deck N, This turn:, "
                                       "Pending:, Result: (a blank line ends the header)")
    for i, side in enumerate(state.sides):
        hand, side.deck, number = counts.get(i, (0, 0, None))
        if max(hand, side.deck) > MAX_COUNT:
            raise DocumentFormatError(f"{side.name}'s hand or deck count ({max(hand, side.deck)}) is more than "
                                      f"{MAX_COUNT}: a C&C deck has 50 cards", line=number)
        side.hand = ["?"] * hand


def _seat(state: State, name: str, line: Line) -> int:
    for i, s in enumerate(state.sides):
        if s.name.casefold() == name.strip().casefold():
            return i
    raise DocumentFormatError(f"{name.strip()!r} is not one of the players", line=line.number)


def _parse_turn(rest: str, line: Line) -> Turn:
    turn = Turn()
    fields = {"played": turn.played, "withdrew": turn.withdrawn, "acted": turn.acted, "attacked": turn.attacked}
    for part in filter(None, (p.strip() for p in rest.split("·"))):
        word, _, items = part.partition(" ")
        if word.lower() in fields:
            fields[word.lower()].extend(i.strip() for i in items.split(",") if i.strip())
        elif part in ("Perfect Storm", "Flood"):
            turn.effects.append(part)
        else:
            raise DocumentFormatError(f"cannot read {part!r} in 'This turn'", line=line.number,
                                      hint="expected played/withdrew/acted/attacked NAMES, Perfect Storm or Flood")
    return turn


def _parse_pending(state: State, m: re.Match, line: Line) -> Pending:
    player = state.sides[_seat(state, m.group("player"), line)].name
    source = m.group("source") or ""
    if m.group("discard"):
        return Pending(player, "discard", int(m.group("n")), source=source)
    if m.group("take"):
        return Pending(player, "take", card=m.group("card").strip(), source=source)
    if m.group("decide"):
        return Pending(player, "adjust", card=m.group("adjust").strip(), source=source)
    if m.group("roll"):
        return Pending(player, "roll", card=m.group("move").strip(), source=source)
    return Pending(player, "reveal", int(m.group("pos")), source=source)


def _resolve_turn_keys(state: State, header: list[Line]) -> None:
    if not state.started:
        return
    chars = state.current.characters
    for key in state.turn.acted + state.turn.attacked:
        if find_key(chars, key) is None:
            line = next((ln.number for ln in header if THIS_TURN.match(ln.text)), None)
            raise DocumentFormatError(f"'This turn' names {key!r}, who is not among "
                                      f"{state.current.name}'s characters", line=line)


def _take_notes(frame, meta) -> None:
    """Set aside a player's own lines typed inside the halves (kept where they stand: :func:`board_note`).

    Such a line is one no half reads: not a label, a ``CP = .. AP= ..`` line, a half's name
    line, the ``----`` line or a placeholder, outside the discards (whose card names have no
    brackets: there a line of one's own must start with ``Note:``) and without a ``[`` (a
    card in play).
    """
    zone = ""
    for line in frame.body:
        text = line.text.strip()
        if not text:
            continue
        label = LABELS.get(_label_key(text))
        if label:
            zone = label
        elif SEPARATOR.match(text) or HALF_NAME.match(text) or CP_START.match(text):
            zone = ""
        elif zone != "discards" and "[" not in text and text.lower() not in PLACEHOLDER_DISCARDS | {"(none)"}:
            board_note(frame, line, meta)
    if frame.board_notes:
        frame.body = [ln for ln in frame.body if ln.number not in frame.board_notes]


def _split_halves(body: list[Line]) -> tuple[list[Line], list[Line]]:
    lines = [ln for ln in body if ln.text.strip()]
    seps = [i for i, ln in enumerate(lines) if SEPARATOR.match(ln.text)]
    if len(seps) != 1:
        where = lines[seps[1]].number if len(seps) > 1 else (lines[0].number if lines else 1)
        raise DocumentFormatError("expected exactly one '----' line between the two halves of the board"
                                  if seps else "no '----' line between the two halves of the board", line=where)
    return lines[:seps[0]], lines[seps[0] + 1:]


def _parse_half(lines: list[Line], mirrored: bool, catalogue: Catalogue) -> dict:
    """Read one half.  Data lines belong to the label before them (player 1, and
    player 2's discards) or after them (player 2's cities and characters)."""
    half = {"cp": 100, "ap": 0, "next": 0, "cities": [], "characters": [], "discards": [], "name": ""}
    lines = _named(lines, mirrored, half)
    seen = set()
    pending: list[Line] = []
    owner = None
    for line in lines:
        label = LABELS.get(_label_key(line.text))
        if label:
            if mirrored and label != "discards":
                _assign(half, label, pending, catalogue)
                pending, owner = [], None
            else:
                if pending and owner:
                    _assign(half, owner, pending, catalogue)
                pending, owner = [], label
            seen.add(label)
        elif m := CP_LINE.match(line.text):
            half["cp"], half["ap"] = int(m.group("cp")), int(m.group("ap"))
            half["next"] = int(m.group("next").replace(" ", "")) if m.group("next") else 0
            seen.add("cp")
            if owner:
                _assign(half, owner, pending, catalogue)
                pending, owner = [], None
        elif CP_START.match(line.text):
            raise DocumentFormatError(f"cannot read {line.text.strip()!r}", line=line.number,
                                      hint="expected a line like 'CP = 100 AP= 3'")
        else:
            pending.append(line)
    if pending:
        if not owner:
            raise DocumentFormatError(f"unexpected line {pending[0].text.strip()!r}", line=pending[0].number,
                                      hint="expected a 'Discarded cards', 'City Cards' or 'Character Cards' label")
        _assign(half, owner, pending, catalogue)
    missing = [name for name in ("discards", "cp", "cities", "characters") if name not in seen]
    if missing:
        where = lines[0].number if lines else None
        raise DocumentFormatError(f"player {2 if mirrored else 1}'s half has no "
                                  + ", ".join({"discards": "'Discarded cards'", "cp": "'CP = .. AP= ..' line",
                                               "cities": "'City Cards'", "characters": "'Character Cards'"}[x]
                                              for x in missing), line=where)
    return half


def _label_key(text: str) -> str:
    """Return a line as a label key: no bold marks or colon, no "(2/25)" count after it, lower case."""
    return ATTRITION_COUNT.sub("", text.strip().strip("*").strip().rstrip(":")).strip().rstrip(":").lower()


def _named(lines: list[Line], mirrored: bool, half: dict) -> list[Line]:
    """Return a half's lines without its name line (first of player 1's half, last of player 2's), noting the name."""
    at = -1 if mirrored else 0
    if lines and (m := HALF_NAME.match(lines[at].text)) and not LABELS.get(_label_key(lines[at].text)):
        if m.group("name") and m.group("seat") == ("2" if mirrored else "1"):
            half["name"] = m.group("name").strip()
        return lines[:-1] if mirrored else lines[1:]
    return lines


def _assign(half: dict, label: str, lines: list[Line], catalogue: Catalogue) -> None:
    for line in lines:
        if label == "discards":
            half["discards"] += _discard_names(line, catalogue)
        elif label == "cities":
            half["cities"] += [_card_name(n, line, catalogue) for n, *_ in _brackets(line)
                               if _card_name(n, line, catalogue)]
        else:
            half["characters"] += [c for c in (_character(b, line, catalogue) for b in _brackets(line)) if c]


def _brackets(line: Line) -> list[tuple[str, str, str]]:
    text = line.text.strip()
    if text.lower() in PLACEHOLDER_DISCARDS:
        return []
    found = BRACKET.findall(text)
    rest = BRACKET.sub("", text).strip(" ,")
    if rest or not found:
        raise DocumentFormatError(f"cannot read {rest or text!r}", line=line.number,
                                  hint="cards in play are written in brackets, like [Spider-Man HP=15]")
    return found


def _card_name(raw: str, line: Line, catalogue: Catalogue) -> str:
    name = raw.strip().strip("*_").strip()
    if name.lower() in PLACEHOLDER_CARDS:
        return ""
    if name not in catalogue:
        close = suggest(name, [c.name for c in catalogue.cards.values()])
        hint = f"did you mean {' or '.join(map(repr, close))}?" if close else None
        if isinstance(catalogue, _Lenient):
            catalogue.unknown.append(f"line {line.number}: unknown card {name!r}" + (f" ({hint})" if hint else ""))
            return ""
        raise DocumentFormatError(f"unknown card {name!r}", line=line.number, hint=hint)
    return catalogue.get(name).name


class _Lenient(Catalogue):
    """A catalogue view that records unknown names instead of failing (for ``check``)."""

    def __init__(self, inner: Catalogue, unknown: list[str]):
        super().__init__(inner.cards, inner.source)
        self.unknown = unknown


def _character(bracket: tuple[str, str, str], line: Line, catalogue: Catalogue) -> Character | None:
    inner, plus, attack = bracket
    m = re.fullmatch(r"\s*(?P<name>.*?)\s*(?:HP\s*[=:]\s*(?P<hp>-?\d*)\s*(?:/\s*\d+\s*)?(?P<rest>.*?))?\s*", inner,
                     re.I)
    name = _card_name(m.group("name"), line, catalogue)
    if not name:
        return None
    card = catalogue.get(name)
    if card.kind != "character":
        raise DocumentFormatError(f"{name} is a {card.kind} card, not a character", line=line.number)
    hp = int(m.group("hp")) if m.group("hp") else card.hp
    statuses = []
    for word in re.split(r"[\s,]+", (m.group("rest") or "").strip().lower()):
        if not word:
            continue
        if word not in STATUSES:
            raise DocumentFormatError(f"unknown status {word!r} on {name}", line=line.number,
                                      hint="statuses are " + ", ".join(STATUSES))
        statuses.append(word)
    return Character(name, hp, sorted(set(statuses)), len(plus), attack.strip() if plus else "")


def _discard_names(line: Line, catalogue: Catalogue) -> list[str]:
    names = []
    for raw in line.text.split(","):
        name = raw.strip().strip("*_").strip()
        if name.lower() in PLACEHOLDER_DISCARDS or not name:
            continue
        try:
            names.append(_card_name(name, line, catalogue))
        except DocumentFormatError as exc:
            exc.hint = (exc.hint + "; " if exc.hint else "") + NOTE_HINT
            raise
    return names


def character_keys(side: Side) -> list[str]:
    """Return the identifying names of a side's characters, in row order."""
    return [key_of(side.characters, i) for i in range(len(side.characters))]


HEADINGS = {"discarded cards", "city cards", "character cards", "fair play", "revealed", "log"}


def styles(text: str, catalogue: Catalogue) -> list[tuple[int, int, str]]:
    """Return style spans for a rendered C&C document (see :meth:`pbd.games.base.Game.styles`).

    Section headings and the title are headings; each card in a row gets its class
    colour (City and Event cards black); a character under a status effect is bold,
    as the rulebook marks it.
    """
    spans = []
    offset = 0
    for i, line in enumerate(text.split("\n")):
        stripped = _label_key(line)
        if stripped in HEADINGS or (i == 0 and line.startswith("pbd match")):
            spans.append((offset, offset + len(line), "heading"))
        elif line.startswith("["):
            for m in BRACKET.finditer(line):
                inner = m.group(1)
                name = re.split(r"\s+HP\s*=", inner, maxsplit=1, flags=re.I)[0].strip()
                start = offset + m.start(1)
                end = start + len(name)
                if name in catalogue:
                    spans.append((start, end, catalogue.get(name).colour))
                if "HP=" in inner and any(s in inner.split("HP=", 1)[1] for s in STATUSES):
                    spans.append((offset + m.start(), offset + m.end(1) + 1, "bold"))
        offset += len(line) + 1
    return spans
