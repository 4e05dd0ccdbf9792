"""Scoring a round exactly as the rulebook states, explained line by line.

The rules applied (each one tested in tests/test_ttc_score.py):

* every warrior and item on the cards in play counts its base Power;
* an item gains a bonus when its preferred wielder appears on any card in play
  (``wielder``), and another when the warrior it is strong against appears there
  (``against``); a warrior replaced by an Army or Warrior Card no longer appears;
* each warrior takes part once per battle: of several copies (a levelled warrior is a
  copy of its base warrior) the strongest takes part, the others score nothing;
* items count only while a warrior of their side can wield them: a side with more items
  than taking-part warriors nullifies the excess (the side's player chooses with
  ``nullify``; until then the weakest items are set aside provisionally);
* each environment adds its Power to its own side (Army and Warrior Cards carry none);
* the variations switch environments, or all bonuses and environments, off;
* the side with the greater total wins the round (equal totals: nobody wins it).
"""

from __future__ import annotations


from pbd.errors import IllegalMoveError
from pbd.games.ttc.catalogue import Catalogue
from pbd.games.ttc.state import SIDES, Options, Play, other
from pbd.record import Record


class Entry(Record):
    """One line of a side's breakdown."""

    kind: str                 # warrior | item | environment
    name: str
    card: str
    base: int
    bonuses: list[tuple[int, str]]
    status: str               # "" counts; replaced | duplicate | nullified | provisional | off
    note: str
    identity: str             # warriors: the base warrior name (for copies and bonuses)
    play: int                 # the index of the card it is on, among the cards in play

    FIELDS = ("kind", "name", "card", "base", "bonuses", "status", "note", "identity", "play")

    def __init__(self, kind: str, name: str, card: str, base: int, bonuses: list[tuple[int, str]] | None = None,
                 status: str = "", note: str = "", identity: str = "", play: int = -1):
        self.kind = kind
        self.name = name
        self.card = card
        self.base = base
        self.bonuses = [] if bonuses is None else bonuses
        self.status = status
        self.note = note
        self.identity = identity
        self.play = play

    @property
    def value(self) -> int:
        """Return the Power this line adds to its side."""
        return 0 if self.status else self.base + sum(p for p, _ in self.bonuses)

    def text(self) -> str:
        """Return the line as players read it."""
        name = f"~~{self.name}~~" if self.status == "replaced" else self.name
        where = f" ({'environment, ' if self.kind == 'environment' else ''}{self.card})" if self.card else ""
        if self.status:
            return f"{name}{where}: 0 — {self.note}"
        parts = [str(self.base)] + [f"+{p} {why}" for p, why in self.bonuses]
        tail = f" = {self.value}" if self.bonuses else ""
        sign = "+" if self.kind == "environment" else ""
        return f"{name}{where}: {sign}{' '.join(parts)}{tail}"

    def data(self) -> dict:
        """Return the line as JSON-able data."""
        return {"kind": self.kind, "name": self.name, "card": self.card, "base": self.base,
                "bonuses": [{"plus": p, "why": w} for p, w in self.bonuses], "status": self.status,
                "note": self.note, "value": self.value}


class SideScore(Record):
    """A side's total and every line behind it."""

    side: str
    entries: list[Entry]
    to_nullify: int           # items the side still has to choose to nullify

    FIELDS = ("side", "entries", "to_nullify")

    def __init__(self, side: str, entries: list[Entry], to_nullify: int = 0):
        self.side = side
        self.entries = entries
        self.to_nullify = to_nullify

    @property
    def total(self) -> int:
        """Return the side's Power."""
        return sum(e.value for e in self.entries)


class Score(Record):
    """Both sides' scores for one round."""

    light: SideScore
    dark: SideScore

    FIELDS = ("light", "dark")

    def __init__(self, light: SideScore, dark: SideScore):
        self.light = light
        self.dark = dark

    def side(self, side: str) -> SideScore:
        """Return one side's score."""
        return self.light if side == "light" else self.dark

    def leader(self) -> str | None:
        """Return the side ahead (``None`` on equal totals)."""
        if self.light.total == self.dark.total:
            return None
        return "light" if self.light.total > self.dark.total else "dark"

    def lines(self) -> list[str]:
        """Return the breakdown, one line per warrior, item and environment."""
        out = []
        for s in (self.light, self.dark):
            head = f"{s.side.capitalize()} {s.total}"
            if s.to_nullify:
                head += f" (provisional: {s.side.capitalize()} must nullify {s.to_nullify} item(s))"
            out.append(head)
            out += [f"  {e.text()}" for e in s.entries]
        return out

    def data(self) -> dict:
        """Return the breakdown as JSON-able data."""
        return {s.side: {"total": s.total, "to_nullify": s.to_nullify, "lines": [e.data() for e in s.entries]}
                for s in (self.light, self.dark)} | {"leader": self.leader()}


def warriors(plays: list[Play], side: str, cat: Catalogue) -> list[Entry]:
    """Return ``side``'s warriors in play order, with Army and Warrior Card swaps applied.

    :raises IllegalMoveError: a swap replaces a warrior that is not on the table, or
        brings in one its card does not show.
    """
    out: list[Entry] = []
    for index, play in enumerate(plays):
        if play.kind == "battle":
            w = cat.warrior(getattr(play, f"{side}_warrior"), side)
            out.append(Entry("warrior", w.name, play.label(), w.power, identity=getattr(w, "warrior", w.name),
                             play=index))
            continue
        if play.side != side:
            continue
        before = len(out)
        for old, new in play.swaps:
            target = _find(out[:before], old)
            if target is None:
                raise IllegalMoveError(f"{old} is not one of {side.capitalize()}'s warriors on the table "
                                       f"(they are: {', '.join(e.name for e in out if e.status != 'replaced')})")
            if play.kind == "army" and play.card is not None:
                shown = cat.card(play.card, "army").warriors
                if " ".join(new.split()).casefold() not in [n.casefold() for n in shown]:
                    raise IllegalMoveError(f"army {play.card} shows {', '.join(shown)}, not {new}")
            w = cat.warrior(new, side)
            identity = getattr(w, "warrior", w.name)
            target.status, target.note = "replaced", f"replaced by {w.name} ({play.label()})"
            out.append(Entry("warrior", w.name, play.label(), w.power, identity=identity))
    return out


def _find(entries: list[Entry], name: str) -> Entry | None:
    key = " ".join(name.split()).casefold()
    live = [e for e in entries if e.status != "replaced"]
    for e in live:
        if e.name.casefold() == key:
            return e
    for e in live:
        if e.identity.casefold() == key:
            return e
    return None


def _mark_copies(entries: list[Entry]) -> None:
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        if e.status != "replaced":
            groups.setdefault(e.identity, []).append(e)
    for copies in groups.values():
        keep = max(copies, key=lambda e: e.base)      # the strongest copy takes part (first on ties)
        for e in copies:
            if e is not keep:
                e.status, e.note = "duplicate", f"nullified: another {e.identity} already takes part"


def items(plays: list[Play], side: str, cat: Catalogue, present: dict[str, set[str]], bonuses: bool) -> list[Entry]:
    """Return ``side``'s items with their bonuses; ``present`` maps a side to the warriors that appear."""
    out = []
    for play in plays:
        if play.kind != "battle":
            continue
        item = cat.item(getattr(play, f"{side}_item"), side)
        entry = Entry("item", item.name, play.label(), item.power)
        if bonuses:
            for b in item.bonuses:
                if b.kind == "wielder" and b.warrior in present[side]:
                    entry.bonuses.append((b.plus, f"wielded by {b.warrior}"))
                elif b.kind == "against" and b.warrior in present[other(side)]:
                    entry.bonuses.append((b.plus, f"against {b.warrior}"))
        out.append(entry)
    return out


def _nullify(entries: list[Entry], capacity: int, chosen: list[str], side: str) -> int:
    """Mark items beyond ``capacity``: the ``chosen`` names first, then the weakest (provisional).

    Returns how many items the side still has to choose.

    :raises IllegalMoveError: a chosen name is not one of the side's items, or more were chosen than needed.
    """
    excess = max(0, len(entries) - capacity)
    if len(chosen) > excess:
        raise IllegalMoveError(f"{side.capitalize()} may nullify {excess} item(s) "
                               f"({len(entries)} items, {capacity} warriors to wield them), not {len(chosen)}")
    for name in chosen:
        hit = next((e for e in entries if not e.status and e.name.casefold() == name.casefold()), None)
        if hit is None:
            raise IllegalMoveError(f"{name} is not one of {side.capitalize()}'s items in play")
        hit.status, hit.note = "nullified", f"nullified by {side.capitalize()}: no warrior left to wield it"
    left = excess - len(chosen)
    for e in sorted((e for e in entries if not e.status), key=lambda e: e.value)[:left]:
        e.status, e.note = "provisional", (f"set aside for now: {side.capitalize()} has more items than warriors "
                                           "and must choose which to nullify")
    return left


def score_round(plays: list[Play], cat: Catalogue, options: Options | None = None,
                nullified: dict[str, list[str]] | None = None) -> Score:
    """Return the exact score of the cards in play, with every line explained.

    :raises IllegalMoveError: a swap or a nullification the cards do not allow.
    :raises UnknownNameError: a name the catalogue does not have.
    """
    options = options or Options()
    nullified = nullified or {}
    ws = {side: warriors(plays, side, cat) for side in SIDES}
    for side in SIDES:
        _mark_copies(ws[side])
    present = {side: {e.identity for e in ws[side] if e.status != "replaced"} for side in SIDES}
    sides = {}
    for side in SIDES:
        its = items(plays, side, cat, present, options.bonuses)
        capacity = sum(1 for e in ws[side] if not e.status)
        left = _nullify(its, capacity, list(nullified.get(side, [])), side)
        envs = []
        for play in plays:
            if play.kind == "battle" and play.environment:
                env = cat.environment(play.environment)
                if env.side == side:
                    entry = Entry("environment", env.name, play.label(), env.power)
                    if not (options.environments and options.bonuses):
                        entry.status, entry.note = "off", "environment bonuses are off in this match"
                    envs.append(entry)
        sides[side] = SideScore(side, ws[side] + its + envs, left)
    return Score(sides["light"], sides["dark"])
