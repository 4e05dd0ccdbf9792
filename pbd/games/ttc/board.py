"""The Twin Tower City board: render a state as text and parse it back.

``parse(render(s)) == s`` for every reachable state.  The parser also reads a board typed
by hand by players who deal physical cards, with no pbd title, fair-play or log::

    Twin Tower City
    Catalogue: sample
    Options: no-environments

    Round 1
      Light: battle 17
      Dark: dark Doctor Sickle + Virus · light Don Triumph + Shield of Liberty · env Twin Towers
      Dark: army · Blamtifa Thug -> Doctor Sickle

The title line may be left out (the card lines say what the board is).  Between the parts of
a card line players may type ``·``, ``|``, ``/``, ``,``, ``•`` or a spaced ``-``; a replaced
warrior may be written ``OLD -> NEW``, ``OLD → NEW``, ``OLD with NEW`` or as the move says it,
``replacing OLD with NEW``; a levelled warrior is found by ``Level 9 Don Triumph``,
``Lvl 9 Don Triumph``, ``Don Triumph Lvl 9``, ``Don Triumph Lvl9`` or ``Don Triumph (Level 9)``.
A typed board names a catalogue that is bundled (``sample``) or installed by its content hash
with ``pbd catalogue add FILE`` (``sha256-…``): a document never names a file on anyone's machine.

Lines after a round's ``:`` on its heading, the ``Turn``/``Rounds won``/``Hands`` header
lines and the ``Score`` and ``Open hands`` sections are derived: pbd rewrites them.
"""

from __future__ import annotations

import re

from pbd.errors import DocumentFormatError, PbdError
from pbd.games.base import Frame, Line, Meta, parse_meta, split_frame
from pbd.games.ttc import deal, rules
from pbd.games.ttc.catalogue import Catalogue
from pbd.games.ttc.state import Options, Play, Seat, State
from pbd.regex import pattern
from pbd.table.deck import SharedDeck

TITLE = "Twin Tower City"
KEY_RE = pattern(r"^(players|deck|options|first|catalogue|catalog|turn|rounds won|hands)\s*:\s*(.*)$", re.IGNORECASE)
ROUND_RE = pattern(r"^round\s+(\d+)\s*(?:[:·—–-].*)?$", re.IGNORECASE)
PLAY_RE = pattern(r"^(?P<side>light|dark)(?:\s+card\s+\d+)?(?:\s*\((?P<player>[^)]*)\))?\s*:\s*(?P<rest>.*)$", re.IGNORECASE)
NULL_RE = pattern(r"^nullified\s*:\s*(.*)$", re.IGNORECASE)
SWAP_RE = pattern(r"^(?:replacing\s+)?(?:~~)?(?P<old>.+?)(?:~~)?\s*(?:->|→|\bwith\b)\s*(?P<new>.+)$", re.IGNORECASE)
#: The separators players type between the parts of a card line: · | / , • and a dash with spaces around it.
SEPARATORS = r"\s*[·|•,]\s*|\s+[/–—-]\s+"
#: A levelled warrior as players write it: "Don Triumph Lvl 9", "Don Triumph Lvl9", "Lvl 9 Don Triumph",
#: "Don Triumph (Level 9)"; read as the catalogue's "Level 9 Don Triumph".
LEVEL_AFTER = pattern(r"^(?P<name>.+?)\s*\(?\s*(?:level|lvl|lv)\.?\s*(?P<n>\d+)\s*\)?$", re.IGNORECASE)
LEVEL_BEFORE = pattern(r"^(?:level|lvl|lv)\.?\s*(?P<n>\d+)\s+(?P<name>.+)$", re.IGNORECASE)
OPTION_WORDS = {"face-up": "face_up", "open-hands": "open_hands", "no-environments": "environments",
                "no-bonuses": "bonuses"}


# -- render --------------------------------------------------------------------------------

def render(state: State) -> tuple[list[str], list[str]]:
    """Return ``(header lines, body lines)`` of the board."""
    options = f"Options: {', '.join(state.options.words()) or 'standard'}"
    if not state.meta.match_id:                       # a board typed by hand: no seats, no deal
        source = f"Catalogue: {state.catalogue}" if state.catalogue else f"Deck: {state.deck_name}"
        body = []
        for rnd in state.rounds:
            body.append(f"Round {rnd.number}: {_round_note(state, rnd)}")
            body += [f"  {line}" for line in play_lines(rnd.plays, _cat(state))]
            marks = [f"{side.capitalize()} {name}" for side in ("light", "dark") for name in rnd.nullified[side]]
            if marks:
                body.append(f"  Nullified: {', '.join(marks)}")
        scores = score_section(state)
        return [source, options, f"Rounds won: {_won(state)}"], body + ([""] + scores if scores else [])
    header = [f"Players: {', '.join(f'{s.name} ({s.side.capitalize()})' for s in state.seats)}",
              f"Deck: {state.deck_name} · {state.fingerprint}",
              options,
              f"First: {state.first.capitalize()}",
              f"Turn: {turn_line(state)}",
              f"Rounds won: {_won(state)}"]
    if rules.seated(state):
        header.append("Hands: " + "; ".join(f"{s.name} {_counts(state, s.name)}" for s in state.seats))
    body: list[str] = []
    for rnd in state.rounds:
        body.append(f"Round {rnd.number}: {_round_note(state, rnd)}")
        if not rnd.plays and deal.laid_out(state):
            body += ["  Light card 1: face down", "  Dark card 1: face down"]
        body += [f"  {line}" for line in play_lines(rnd.plays, _cat(state))]
        marks = [f"{side.capitalize()} {name}" for side in ("light", "dark") for name in rnd.nullified[side]]
        if marks:
            body.append(f"  Nullified: {', '.join(marks)}")
    scores = score_section(state)
    if scores:
        body += ["", *scores]
    if state.options.open_hands and rules.seated(state):
        body += ["", "Open hands"] + [f"  {s.name}: {_open_hand(state, s.name)}" for s in state.seats]
    if state.deck is not None:
        body += ["", "Deal", *state.deck.render()]
    while body and not body[0]:
        body.pop(0)
    return header, body


def play_lines(plays: list[Play], cat: Catalogue | None = None) -> list[str]:
    """Return one line per card played, numbered per side (the face-down card is card 1).

    With the catalogue, a warrior replaced by an Army or Warrior Card is struck out on its
    Battle Card (the rulebook's coin on top).
    """
    struck = _struck(plays, cat) if cat is not None else set()
    count = {"light": 0, "dark": 0}
    out = []
    for i, p in enumerate(plays):
        count[p.side] += 1
        who = f" ({p.player})" if p.player else ""
        out.append(f"{p.side.capitalize()} card {count[p.side]}{who}: {card_text(p, i, struck)}")
    return out


def _struck(plays: list[Play], cat: Catalogue) -> set[tuple[int, str]]:
    from pbd.games.ttc import score

    try:
        return {(e.play, side) for side in ("light", "dark") for e in score.warriors(plays, side, cat)
                if e.status == "replaced" and e.play >= 0}
    except PbdError:
        return set()


def card_text(p: Play, index: int = -1, struck: set = frozenset()) -> str:
    """Return what a played card shows, as on the board (replaced warriors as ``~~Name~~``)."""
    ident = f"{p.kind} {p.card}" if p.card is not None else p.kind
    if p.kind == "battle":
        dark = f"~~{p.dark_warrior}~~" if (index, "dark") in struck else p.dark_warrior
        light = f"~~{p.light_warrior}~~" if (index, "light") in struck else p.light_warrior
        return (f"{ident} · dark {dark} + {p.dark_item} · light {light} + {p.light_item}"
                f" · env {p.environment}")
    return f"{ident} · " + ", ".join(f"~~{o}~~ -> {n}" for o, n in p.swaps)


def _cat(state: State) -> Catalogue | None:
    try:
        return rules.catalogue(state)
    except PbdError:
        return None


def turn_line(state: State) -> str:
    """Return whose action it is, in words."""
    from pbd import forfeit

    if (entry := forfeit.ended(state.meta)) is not None:
        from pbd import games

        return "over: " + forfeit.result_text(games.get("ttc"), state, entry)
    try:
        ph = rules.phase(state)
    except PbdError as exc:
        return f"unknown: {exc.message}"
    if ph.name == "joining":
        missing = 2 * state.options.team - len(state.seats)
        return f"waiting for {missing} more player(s) to join (pbd join DOC --as NAME)"
    if ph.name == "flip":
        waiting = [s.name for s in state.seats if deal.flip_duties(state, s.name, ph.round.number)
                   or deal.deal_duties(state, s.name)]
        return f"round {ph.round.number}: flip" + (f" (waiting for {', '.join(waiting)})" if waiting else "")
    if ph.name == "play":
        names = ", ".join(deal.members(state, ph.side))
        return f"round {ph.round.number}, card {ph.card}: {ph.side.capitalize()} to play" + (
            f" ({names})" if names else "")
    if ph.name == "nullify":
        return f"round {ph.round.number}: " + " and ".join(
            f"{side.capitalize()} must nullify" for side in ph.nullify)
    return "over: " + rules.result_line(state)


def _won(state: State) -> str:
    try:
        won = rules.rounds_won(state)
    except PbdError:
        return "unknown"
    return f"Light {won['light']}, Dark {won['dark']}"


def _round_note(state: State, rnd) -> str:
    if not rnd.plays:
        return "face down" if deal.laid_out(state) else "not played"
    try:
        s = rules.round_score(state, rnd)
        finished = rules.done(state, rnd)
    except PbdError as exc:
        return f"cannot be scored: {exc.message}"
    text = f"Light {s.light.total}, Dark {s.dark.total}"
    if not finished:
        return text + " so far"
    lead = s.leader()
    return text + (f" · {lead.capitalize()} wins" if lead else " · nobody wins (equal Power)")


def score_section(state: State) -> list[str]:
    """Return the ``Score`` section: the full breakdown of the current (or last) round."""
    rnd = scored_round(state)
    if rnd is None:
        return []
    try:
        s = rules.round_score(state, rnd)
        finished = rules.done(state, rnd)
    except PbdError as exc:
        return [f"Score, round {rnd.number}", f"  cannot be scored: {exc.message}"]
    return [f"Score, round {rnd.number}" + ("" if finished else " (so far)"), *(f"  {x}" for x in s.lines())]


def scored_round(state: State):
    """Return the round the score is about: the current one, else the last with cards."""
    try:
        ph = rules.phase(state)
    except PbdError:
        ph = None
    if ph and ph.round is not None and ph.round.plays:
        return ph.round
    played = [r for r in state.rounds if r.plays]
    if ph and ph.name == "flip" and played:
        return played[-1]
    return played[-1] if played else None


def hand_counts(state: State, player: str) -> dict[str, int]:
    """Return how many Battle, Army and Warrior Cards ``player`` still holds (public: the deck's hand slots)."""
    counts = {"battle": 0, "army": 0, "warrior": 0}
    for i in state.deck.hands.get(player, []) if state.deck is not None else []:
        counts[deal.kind(state, i)] += 1
    return counts


def _counts(state: State, player: str) -> str:
    c = hand_counts(state, player)
    return f"{c['battle']} Battle, {c['army']} Army, {c['warrior']} Warrior"


def open_hand(state: State, player: str) -> list[int]:
    """Return the cards of ``player``'s hand that are public (open hands), unplayed."""
    deck = state.deck
    return [int(deck.slots[i].card) for i in deck.hands.get(player, []) if deck.slots[i].card is not None]


def _open_hand(state: State, player: str) -> str:
    cards = open_hand(state, player)
    return ", ".join(str(c) for c in cards) or "(empty)"


# -- parse ----------------------------------------------------------------------------------

def parse(text: str, game: str, load) -> State:
    """Return the state a document (or a hand-made board) shows; ``load(state)`` gives its deck or catalogue.

    :raises DocumentFormatError: a line that is not what the board allows, naming it.
    """
    frame = split_frame(text)
    meta = parse_meta(game, frame)
    state = State(meta)
    if not frame.match_id:
        state.deck_name = ""
    lines = frame.header + frame.body + frame.tail      # the Deal: after the log (in older documents, in the body)
    _read_keys(state, [ln for ln in lines if KEY_RE.match(ln.text.strip())])
    if not frame.match_id and not state.catalogue and not state.deck_name:
        state.catalogue = "sample"
    try:
        state.library = load(state)
        cat = rules.catalogue(state)
    except PbdError as exc:
        raise DocumentFormatError(f"the board's catalogue cannot be used: {exc.message}") from None
    _read_body(state, lines, cat, frame)
    return state


def _read_keys(state: State, lines: list[Line]) -> None:
    for line in lines:
        key, value = KEY_RE.match(line.text.strip()).groups()
        key, value = key.lower(), value.strip()
        if key == "players":
            state.seats = []
            for part in filter(None, (p.strip() for p in value.split(","))):
                m = re.fullmatch(r"(.+?)\s*\((light|dark)\)", part, re.IGNORECASE)
                if not m:
                    raise DocumentFormatError(f"expected players like 'Lia (Light), Max (Dark)', not {part!r}",
                                              line=line.number)
                state.seats.append(Seat(m.group(1).strip(), m.group(2).lower()))
        elif key == "deck":
            name, _, fp = value.partition("·")
            state.deck_name, state.fingerprint = name.strip(), fp.strip()
        elif key == "options":
            state.options = parse_options(value, line.number)
        elif key == "first":
            if value.lower() not in ("light", "dark", "random"):
                raise DocumentFormatError(f"expected 'First: Light', 'Dark' or 'Random', not {value!r}",
                                          line=line.number)
            state.first = value.lower()
        elif key in ("catalogue", "catalog"):
            state.catalogue = value


def parse_options(value: str, number: int | None = None) -> Options:
    """Return the options an ``Options:`` line lists.

    :raises DocumentFormatError: an option pbd does not know.
    """
    opts = Options()
    for word in filter(None, (w.strip().lower() for w in value.split(","))):
        if word in ("standard", "none"):
            continue
        if word.startswith("team="):
            try:
                opts.team = int(word[5:])
            except ValueError:
                raise DocumentFormatError(f"team must be a number, not {word[5:]!r}", line=number) from None
            continue
        attr = OPTION_WORDS.get(word)
        if attr is None:
            raise DocumentFormatError(f"unknown option {word!r}", line=number,
                                      hint="options: standard, " + ", ".join(OPTION_WORDS) + ", team=N")
        setattr(opts, attr, attr in ("face_up", "open_hands"))
        if attr == "bonuses":
            opts.environments = False
    return opts


def _read_body(state: State, lines: list[Line], cat: Catalogue, frame: Frame) -> None:
    rnd = None
    section = "board"
    deal_lines: list[Line] = []
    for line in lines:
        raw = line.text
        text = raw.strip()
        if not text or KEY_RE.match(text) or (section != "deal" and text.startswith("#")):
            continue
        if section == "skip" and raw[:1].isspace():
            continue
        low = text.lower()
        if low.startswith("score"):
            section = "skip"
            continue
        if low == "open hands":
            section = "skip"
            continue
        if low == "deal":
            section = "deal"
            continue
        if section == "deal":
            deal_lines.append(line)
            continue
        section = "board"
        if low.rstrip(".:!") == TITLE.lower():
            continue
        if (m := ROUND_RE.match(text)):
            n = int(m.group(1))
            if not 1 <= n <= len(state.rounds):
                raise DocumentFormatError(f"there are rounds 1 to {len(state.rounds)}, not {n}", line=line.number)
            rnd = state.rounds[n - 1]
            continue
        if rnd is None:
            raise DocumentFormatError(f"expected 'Round 1' (or a 'Players:', 'Deck:', 'Options:', 'Catalogue:' line) "
                                      f"before {text!r}", line=line.number)
        if (m := NULL_RE.match(text)):
            for part in filter(None, (p.strip() for p in m.group(1).split(","))):
                side, _, name = part.partition(" ")
                if side.lower() not in ("light", "dark") or not name:
                    raise DocumentFormatError(f"expected 'Nullified: Light ITEM, Dark ITEM', not {part!r}",
                                              line=line.number)
                rnd.nullified[side.lower()].append(_name(cat.item, name, side.lower(), line))
            continue
        if (m := PLAY_RE.match(text)):
            play = _read_play(m, cat, line)
            if play is not None:
                rnd.plays.append(play)
            continue
        raise DocumentFormatError(f"expected a card line like 'Light card 2 (Lia): battle 17', not {text!r}",
                                  line=line.number)
    if deal_lines:
        state.deck = SharedDeck.parse(deal_lines)
    if frame.match_id:
        _check_deal(state, frame)


def _check_deal(state: State, frame: Frame) -> None:
    """Check the Deal section agrees with the match: its seats are the players, its layout Twin Tower City's.

    :raises DocumentFormatError: naming what is missing or wrong.
    """
    names = [s.name for s in state.seats]
    line = frame.body[-1].number if frame.body else None
    if state.deck is None:
        if state.seats:
            raise DocumentFormatError("the document has no Deal section (the shared deck)", line=line)
        return
    if state.deck.seats != names or state.deck.match_id != frame.match_id:
        raise DocumentFormatError(f"the Deal section's deck is shuffled by {', '.join(state.deck.seats)} for match "
                                  f"{state.deck.match_id}, but the players are {', '.join(names)}", line=line)
    problems = deal.layout_problems(state)
    if problems:
        raise DocumentFormatError("the Deal section does not follow the deal: " + "; ".join(problems[:3]), line=line)


def levelled(name: str) -> str:
    """Return a warrior's name as the catalogue writes a levelled one (``Don Triumph Lvl9`` -> ``Level 9 Don Triumph``)."""
    name = name.strip()
    m = LEVEL_BEFORE.match(name) or LEVEL_AFTER.match(name)
    return f"Level {int(m.group('n'))} {m.group('name').strip()}" if m else name


def _warrior(cat: Catalogue, name: str, side: str, line: Line) -> str:
    return _name(cat.warrior, levelled(name.strip().strip("~").strip()), side, line)


def _name(lookup, name: str, side, line: Line) -> str:
    try:
        return lookup(name, side).name if side is not None else lookup(name).name
    except PbdError as exc:
        raise DocumentFormatError(exc.message, line=line.number, hint=exc.hint) from None


def _read_play(m: re.Match, cat: Catalogue, line: Line) -> Play | None:
    side, player = m.group("side").lower(), (m.group("player") or "").strip()
    rest = m.group("rest").strip()
    if re.fullmatch(r"\(?\s*(face[ -]?down|\?|\.\.\.|…)?\s*\)?", rest, re.IGNORECASE) or rest.startswith("<"):
        return None
    km = re.match(rf"^(battle|army|warrior)\b\s*#?(\d+)?(?:{SEPARATORS}|\s*:\s*|\s+|$)(.*)$", rest, re.IGNORECASE)
    kind, card_id, detail = ("battle", None, rest) if not km else (
        km.group(1).lower(), int(km.group(2)) if km.group(2) else None, km.group(3).strip())
    card = None
    if card_id is not None:
        try:
            card = cat.card(card_id, kind)
        except PbdError as exc:
            raise DocumentFormatError(exc.message, line=line.number, hint=exc.hint) from None
    if kind == "battle":
        return _read_battle(side, player, card, detail, cat, line)
    if card is not None and card.side != side:
        raise DocumentFormatError(f"{kind} {card_id} is a {card.side} card, on a {side} line", line=line.number)
    detail = re.sub(r"^replacing\s+", "", detail, flags=re.IGNORECASE)
    if kind == "warrior" and card is not None and detail and not SWAP_RE.match(detail):
        detail = f"{detail} -> {card.name}"        # "warrior 203 replacing Don Triumph", as the move says it
    swaps = []
    for part in filter(None, (p.strip() for p in re.split(r"\s*[,•|]\s*", detail))):
        sm = SWAP_RE.match(part)
        if not sm:
            raise DocumentFormatError(f"expected 'OLD -> NEW' for a replaced warrior, not {part!r}", line=line.number)
        swaps.append((_warrior(cat, sm.group("old"), side, line), _warrior(cat, sm.group("new"), side, line)))
    if kind == "warrior" and card is not None:
        if len(swaps) != 1 or swaps[0][1] != card.name:
            raise DocumentFormatError(f"warrior {card.id} brings in {card.name}: expected '~~OLD~~ -> {card.name}'",
                                      line=line.number)
    if not swaps:
        raise DocumentFormatError(f"an {kind} card line needs the warriors it replaces: 'OLD -> NEW'",
                                  line=line.number)
    return Play(side, kind, card_id, player, swaps=swaps)


def _read_battle(side: str, player: str, card, detail: str, cat: Catalogue, line: Line) -> Play:
    parts = [p.strip() for p in re.split(SEPARATORS, detail) if p.strip()]
    fields: dict[str, str] = {}
    order = ["dark", "light", "env"]
    keyed = [bool(re.match(r"^(dark|light|env|environment)\b", p, re.IGNORECASE)) for p in parts]
    if any(keyed) and not all(keyed) or len(parts) > 3:
        raise DocumentFormatError(f"a battle card shows 'dark W + I · light W + I · env E', not {detail!r}",
                                  line=line.number)
    for i, part in enumerate(parts):         # at most 3 parts, all keyed or none
        pm = re.match(r"^(dark|light|env|environment)\b\s*:?\s*(.*)$", part, re.IGNORECASE)
        key, value = (pm.group(1).lower().replace("environment", "env"), pm.group(2)) if pm else (order[i], part)
        fields[key] = value.strip()
    play = Play(side, "battle", card.id if card else None, player)
    if card is not None:
        play.dark_warrior, play.dark_item, play.light_warrior, play.light_item, play.environment = (
            card.dark_warrior, card.dark_item, card.light_warrior, card.light_item, card.environment)
    elif set(fields) != set(order):
        raise DocumentFormatError("a battle card line needs its id ('battle 17') or what it shows: "
                                  "'dark W + I · light W + I · env E'", line=line.number)
    for half in ("dark", "light"):
        if half in fields:
            w, plus, item = fields[half].partition("+")
            if not plus:
                raise DocumentFormatError(f"expected '{half} WARRIOR + ITEM', not {fields[half]!r}", line=line.number)
            got = (_warrior(cat, w, half, line), _name(cat.item, item.strip(), half, line))
            if card is not None and got != (getattr(play, f"{half}_warrior"), getattr(play, f"{half}_item")):
                raise DocumentFormatError(f"battle {card.id} shows {half} {getattr(play, f'{half}_warrior')} + "
                                          f"{getattr(play, f'{half}_item')}, not {got[0]} + {got[1]}",
                                          line=line.number)
            setattr(play, f"{half}_warrior", got[0])
            setattr(play, f"{half}_item", got[1])
    if "env" in fields:
        env = _name(cat.environment, fields["env"], None, line)
        if card is not None and env != play.environment:
            raise DocumentFormatError(f"battle {card.id} shows env {play.environment}, not {env}", line=line.number)
        play.environment = env
    return play


def parse_state_meta(text: str) -> Meta:
    """Return just the frame metadata of a document (match id, fair play, log)."""
    return parse_meta("ttc", split_frame(text))
