"""The Boys' Town board: render a state as document text and read it back (tolerantly).

::

    pbd match 7f3a9c2e · Boys' Town
    Seats: Ann, Ben, Cy (3 of 3)                     (the table's header: seats, turn,
    Options: catalogue=standard                       decisions, owed unlocks)
    Turn: Ann
    Waiting on: Ben — defend against Ann with a card from hand · from 12

    Catalogue: standard (sha256:55932cd1ea50ed64)
    Round 2 · Ann's turn, Build Phase
    Phase: build · built 1 · builds 1 · requires tag:shop
    Draw pile: 31 · Discard pile: 9 (top: Rusty Bike)
    Owed: Ben draws 1 (lost the battle)

    Ann · hand 4 · turns 2
      Corner Shop (#12) · AP 1 · TP 3
      Old Mill (#40) · AP 3 · TP 7 (+3 combo Mill Town) · adjust TP +1
    Ben · hand 5 · turns 1
      (no Residents)

    Battle: Ann attacks Ben from hand · entry 12 · stage defend
      Ann: face down (committed)                   (the commitment: in log entry 12's machinery)

    Deck
    …                               (the table's own section)

The ``Round``, ``Draw pile`` and ``Waiting on`` lines and the AP/TP figures are derived: they
are rewritten on every move and only checked (``pbd check``) when read back.
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError
from pbd.games.base import Line
from pbd.games.boystown import battle, cards, effects, rules
from pbd.games.boystown.state import PHASES, Battle, Resident, Seat, State
from pbd.regex import pattern

TITLE = "Boys' Town"
MAX_LINES = 2000
MAX_LINE = 4000

CATALOGUE_RE = pattern(r"^catalogue:\s*(?P<ref>.+?)\s*$", re.I)
PHASE_RE = pattern(r"^phase:\s*(?P<body>.+?)\s*$", re.I)
OWED_RE = pattern(r"^owed:\s*(?P<body>.*?)\s*$", re.I)
SEAT_RE = pattern(r"^(?P<name>[^\s·:][^·:]*?)\s*·\s*hand\s+(?P<hand>\d+)\s*·\s*turns\s+(?P<turns>\d+)\s*$", re.I)
RESIDENT_RE = pattern(r"^\s+(?P<name>[^(#·]+?)\s*\(#(?P<slot>\d+)\)(?P<rest>.*)$")
BATTLE_RE = pattern(r"^battle:\s*(?P<att>.+?)\s+attacks\s+(?P<def>.+?)\s+from\s+(?P<src>hand|town)\s*·\s*"
                    r"entry\s+(?P<origin>\d+)\s*·\s*stage\s+(?P<stage>\w+)\s*$", re.I)
SIDE_RE = pattern(r"^\s+(?P<who>[^:]+?):\s*(?P<rest>.*)$")
#: how the board shows the attacker's card while it is face down (its commitment is in the log's attack entry)
FACE_DOWN = "face down (committed)"
#: what a Battle line of the previous layout adds: the side's commitment and nonce (read, then written without)
LEGACY_PARTS_RE = pattern(r"\s*·\s*(?:commitment|nonce)\s+[0-9a-f]+")
DERIVED_RE = pattern(r"^(round\s+\d+|draw pile:|\(no residents\))", re.I)


# -- render -----------------------------------------------------------------------------

def render(state: State) -> list[str]:
    """Return the board lines of ``state`` (the table writes the header and the deck's section)."""
    body = [f"Catalogue: {_ref(state)}"]
    if not state.people:
        return body
    body += [status_line(state), _phase_line(state)]
    if state.deck is not None or "draw" in (state.shown or {}):
        body.append(piles_line(state))
    if state.owed or state.mills:
        body.append("Owed: " + "; ".join([f"{w} draws 1 ({why})" for w, why in state.owed]
                                         + ([f"{state.mills} card(s) to the discard pile"] if state.mills else [])))
    for s in state.people:
        body += ["", *_seat_lines(state, s)]
    if state.battle:
        body += ["", *_battle_lines(state)]
    return body


def _ref(state: State) -> str:
    try:
        return rules.cat(state).ref
    except Exception:   # an unknown custom catalogue: keep what the document says
        return state.catalogue


def status_line(state: State) -> str:
    """Return the round, whose turn and the phase, in words (derived)."""
    if state.phase in ("joining", "shuffling", "over") or not state.mover:
        return f"Round {state.round} · {rules.phase_words(state)}"
    return f"Round {state.round} · {state.mover}'s turn, {rules.phase_words(state)}"


def _phase_line(state: State) -> str:
    parts = [state.phase]
    parts.append(f"round {state.round}")
    if state.built:
        parts.append(f"built {state.built}")
    if state.builds:
        parts.append(f"builds {state.builds}")
    if state.requires:
        parts.append(f"requires {state.requires}")
    for key, value in state.extra_penalty:
        parts.append(f"extra penalty {key} {value}")
    if state.skip_attack:
        parts.append("skip attack")
    if state.peeked is not None:
        parts.append(f"set aside #{state.peeked}")
    if state.redrawn:
        parts.append("redrawn")
    if state.emptied:
        parts.append(f"emptied {state.emptied}")
    return "Phase: " + " · ".join(parts)


def piles_line(state: State) -> str:
    """Return the draw and discard pile sizes and the top of the discard pile (face down until turned up);
    on a board typed without a match (no deck to count), as it shows them."""
    if state.deck is None:
        shown = state.shown or {}
        top = f" (top: {shown['top']})" if shown.get("top") else ""
        return f"Draw pile: {shown['draw']} · Discard pile: {shown['discard']}{top}"
    ids = cards.pile(state.deck, cards.DISCARD)
    top = ""
    if ids:
        c = rules.card_at(state, ids[0])
        top = f" (top: {c.name if c else 'face down'})"
    return f"Draw pile: {cards.size(state.deck, cards.DRAW)} · Discard pile: {len(ids)}{top}"


def _seat_lines(state: State, s: Seat) -> list[str]:
    out = [f"{s.name} · hand {rules.hand_size(state, s.name)} · turns {s.turns}"]
    cat = None
    try:
        cat = rules.cat(state)
    except Exception:
        pass
    for r in s.town:
        out.append("  " + resident_text(state, cat, s.name, r))
    if not s.town:
        out.append("  (no Residents)")
    return out


def resident_text(state: State, cat, seat: str, r: Resident) -> str:
    """Return a Resident's line: name, slot, AP and TP as modified, and its marks."""
    text = f"{r.name} (#{r.slot})"
    card = cat.cards.get(r.name) if cat else None
    if card:
        ap = effects.resident_ap(state, cat, seat, r, card)
        tp = effects.resident_tp(state, cat, seat, r, card)
        text += f" · AP {ap.value} · TP {card.tp + tp.value}"
        if tp.lines:
            text += " (" + ", ".join(tp.lines) + ")"
    if r.penalty:
        text += " · penalty"
    if r.extra_tp:
        text += f" · extra TP {r.extra_tp:+}"
    if r.adjust_ap or r.adjust_tp:
        text += " · adjust" + (f" AP {r.adjust_ap:+}" if r.adjust_ap else "") + (f" TP {r.adjust_tp:+}" if r.adjust_tp else "")
    return text


def _battle_lines(state: State) -> list[str]:
    b = state.battle
    out = [f"Battle: {b.attacker} attacks {b.defender} from {b.source} · entry {b.origin} · stage {b.stage}"]
    for who, slot, name, where, commit in (
            (b.attacker, b.attack_slot, b.attack_card, b.attack_from, b.attack_commit),
            (b.defender, b.defend_slot, b.defend_card, b.defend_from, b.defend_commit)):
        if slot is None and not commit:
            continue
        # the commitment and nonce are machinery: the log's attack and flip entries carry them (issue 27)
        out.append(f"  {who}: " + (FACE_DOWN if slot is None else f"{name} (#{slot}) from {where}"))
    extra = []
    if b.windows:
        extra.append("windows " + ", ".join(b.windows))
    if b.swapped:
        extra.append("swapped out " + " ".join(f"#{s}" for s in b.swapped))
    if b.used:
        extra.append("used " + " ".join(f"#{s}" for s in b.used))
    extra += [f"boost {who} {v:+}" for who, v in b.boosts.items()]
    if extra:
        out.append("  " + " · ".join(extra))
    return out


# -- parse --------------------------------------------------------------------------------

def parse(state: State, lines: list[Line]) -> None:
    """Read the board lines into ``state`` (its seats already read from the header).

    :raises DocumentFormatError: naming the line and what was expected.
    """
    if len(lines) > MAX_LINES:
        raise DocumentFormatError(f"the board has more than {MAX_LINES} lines; not a Boys' Town board")
    state.people = []
    state.shown = {"hand": {}, "figures": {}}
    reading: list = [None]
    for line in lines:
        if len(line.text) > MAX_LINE:
            raise DocumentFormatError(f"a line of {len(line.text)} characters", line=line.number)
        _read_line(state, line, reading)
        _read_shown(state.shown, line.text, reading[0])


PILES_RE = pattern(r"^draw pile:\s*(?P<draw>\d+)\s*·\s*discard pile:\s*(?P<discard>\d+)(?:\s*\(top:\s*(?P<top>.+?)\))?\s*$",
                   re.I)
FIGURES_RE = pattern(r"·\s*AP\s+(?P<ap>-?\d+)\s*·\s*TP\s+(?P<tp>-?\d+)")


def _read_shown(shown: dict, text: str, seat) -> None:
    """Note a derived figure as the document shows it (hand counts, the piles, a Town card's AP and TP)."""
    bare = text.strip()
    if m := SEAT_RE.match(bare):
        shown["hand"][m.group("name").strip()] = int(m.group("hand"))
    elif m := PILES_RE.match(bare):
        shown["draw"], shown["discard"] = int(m.group("draw")), int(m.group("discard"))
        shown["top"] = m.group("top") or ""
    elif isinstance(seat, Seat) and text.startswith(" ") and RESIDENT_RE.match(text):
        f = FIGURES_RE.search(text)
        shown["figures"].setdefault(seat.name, []).append((int(f.group("ap")), int(f.group("tp"))) if f else None)


def discard_top(state: State) -> str:
    """Return the name on top of the discard pile ('face down' until turned up, '' if empty)."""
    ids = cards.pile(state.deck, cards.DISCARD)
    if not ids:
        return ""
    c = rules.card_at(state, ids[0])
    return c.name if c else "face down"


def figures(state: State, seat: Seat) -> list[tuple[int, int] | None]:
    """Return the AP and TP each of ``seat``'s Town cards shows, as the rules give them (None: an unknown card)."""
    try:
        cat = rules.cat(state)
    except Exception:
        return [None for _ in seat.town]
    out = []
    for r in seat.town:
        card = cat.cards.get(r.name)
        out.append((effects.resident_ap(state, cat, seat.name, r, card).value,
                    card.tp + effects.resident_tp(state, cat, seat.name, r, card).value) if card else None)
    return out


def _read_line(state: State, line: Line, reading: list) -> None:
    text = line.text
    bare = text.strip()
    if not bare or DERIVED_RE.match(bare):
        return
    if CATALOGUE_RE.match(bare):
        return
    elif m := PHASE_RE.match(bare):
        _read_phase(state, m.group("body"), line)
    elif m := OWED_RE.match(bare):
        _read_owed(state, m.group("body"), line)
    elif m := SEAT_RE.match(bare):
        name = m.group("name").strip()
        if name not in state.seats or state.seat(name):
            raise DocumentFormatError(f"{name!r} is not a seat of the match, or is listed twice", line=line.number)
        seat = Seat(name, int(m.group("turns")))
        state.people.append(seat)
        reading[0] = seat
    elif m := BATTLE_RE.match(bare):
        state.battle = Battle(m.group("att").strip(), m.group("def").strip(), m.group("src").lower(),
                              int(m.group("origin")), m.group("stage").lower())
        reading[0] = state.battle
    elif text.startswith(" ") and isinstance(reading[0], Seat):
        _read_resident(reading[0], text, line)
    elif text.startswith(" ") and isinstance(reading[0], Battle):
        _read_battle_line(state, reading[0], text, line)
    else:
        raise DocumentFormatError(f"cannot read {bare[:60]!r} on a Boys' Town board",
                                  line=line.number, hint="expected a player line 'Ann · hand 4 · turns 1', a Town card "
                                                         "'  Old Mill (#12) · AP 3 · TP 4', or a Battle line")


def _read_phase(state: State, body: str, line: Line) -> None:
    parts = [p.strip() for p in body.split("·")]
    if parts[0] not in PHASES:
        raise DocumentFormatError(f"unknown phase {parts[0]!r} (expected one of {', '.join(PHASES)})", line=line.number)
    state.phase = parts[0]
    penalties = []
    for p in parts[1:]:
        key, _, value = p.partition(" ")
        try:
            if key == "round":
                state.round = int(value)
            elif key == "built":
                state.built = int(value)
            elif key == "builds":
                state.builds = int(value)
            elif key == "requires":
                state.requires = value
            elif p.startswith("extra penalty "):
                k, v = p[len("extra penalty "):].split()
                penalties.append((k, int(v)))
            elif p == "skip attack":
                state.skip_attack = True
            elif p.startswith("set aside #"):
                state.peeked = int(p[len("set aside #"):])
            elif p == "redrawn":
                state.redrawn = True
            elif key == "emptied":
                state.emptied = value
            else:
                raise ValueError(p)
        except ValueError:
            raise DocumentFormatError(f"cannot read {p[:40]!r} in the Phase line", line=line.number) from None
    state.extra_penalty = tuple(penalties)
    if state.round > 100_000 or state.built > 50 or state.builds > 50:
        raise DocumentFormatError("a number in the Phase line is out of range", line=line.number)


def _read_owed(state: State, body: str, line: Line) -> None:
    for part in [p.strip() for p in body.split(";") if p.strip()]:
        if m := re.match(r"^(?P<who>.+?) draws 1 \((?P<why>.+)\)$", part):
            state.owed.append([m.group("who"), m.group("why")])
        elif m := re.match(r"^(?P<n>\d{1,2}) card\(s\) to the discard pile$", part):
            state.mills = int(m.group("n"))
        else:
            raise DocumentFormatError(f"cannot read {part[:40]!r} in the Owed line", line=line.number)
    if len(state.owed) > 50:
        raise DocumentFormatError("too many owed draws", line=line.number)


def _read_resident(seat: Seat, text: str, line: Line) -> None:
    if text.strip() == "(no Residents)":
        return
    m = RESIDENT_RE.match(text)
    if not m:
        raise DocumentFormatError("expected a Town card like '  Old Mill (#12) · AP 3 · TP 4'", line=line.number)
    r = Resident(int(m.group("slot")), m.group("name").strip())
    rest = m.group("rest")
    r.penalty = bool(re.search(r"·\s*penalty\b", rest))
    if e := re.search(r"·\s*extra TP ([+-]\d+)", rest):
        r.extra_tp = int(e.group(1))
    if a := re.search(r"·\s*adjust(?: AP ([+-]\d+))?(?: TP ([+-]\d+))?", rest):
        r.adjust_ap, r.adjust_tp = int(a.group(1) or 0), int(a.group(2) or 0)
    if len(seat.town) >= 200:
        raise DocumentFormatError("too many Town cards", line=line.number)
    seat.town.append(r)


def _read_battle_line(state: State, b: Battle, text: str, line: Line) -> None:
    bare = text.strip()
    if not (m := SIDE_RE.match(text)) or m.group("who").strip() not in (b.attacker, b.defender) \
            and not bare.startswith(("windows", "swapped", "used", "boost")):
        _read_battle_extra(b, bare, line)
        return
    who, parts = m.group("who").strip(), [p.strip() for p in m.group("rest").split("·")]
    slot = where = commit = nonce = None
    name = ""
    for p in parts:
        if s := re.match(r"^(.*?)\s*\(#(\d+)\) from (hand|town)$", p):
            name, slot, where = s.group(1), int(s.group(2)), s.group(3)
        elif p.startswith("commitment "):
            commit = p.split()[1]
        elif p.startswith("nonce "):
            nonce = p.split()[1]
        elif p not in ("face down", FACE_DOWN):
            raise DocumentFormatError(f"cannot read {p[:40]!r} in the battle", line=line.number)
    if commit is not None or nonce is not None:
        # a line of the previous layout (its commitment, nonce on the board): read as the line it is now, so the
        # table does not keep it as a player's note, and written without them on the next write
        line.text = f"  {who}: " + (FACE_DOWN if slot is None else f"{name} (#{slot}) from {where}")
    if who == b.attacker:
        b.attack_slot, b.attack_card, b.attack_from = slot, name, where or ""
        if commit is None and b.source == "hand":       # the board shows no commitment: the log's entries carry it
            commit = battle.logged_commitment(state, b.origin)
            nonce = battle.logged_nonce(state, b.origin, who) if slot is not None else None
        b.attack_commit, b.attack_nonce = commit or "", nonce or ""
    else:
        b.defend_slot, b.defend_card, b.defend_from = slot, name, where or ""
        b.defend_commit, b.defend_nonce = commit or "", nonce or ""


def _read_battle_extra(b: Battle, bare: str, line: Line) -> None:
    for p in [p.strip() for p in bare.split("·")]:
        if p.startswith("windows "):
            b.windows = [w.strip() for w in p[8:].split(",")]
        elif p.startswith("swapped out "):
            b.swapped = [int(x.lstrip("#")) for x in p[12:].split()]
        elif p.startswith("used "):
            b.used = [int(x.lstrip("#")) for x in p[5:].split()]
        elif m := re.match(r"^boost (.+) ([+-]\d+)$", p):
            b.boosts[m.group(1)] = int(m.group(2))
        else:
            raise DocumentFormatError(f"cannot read {p[:40]!r} in the battle", line=line.number)
