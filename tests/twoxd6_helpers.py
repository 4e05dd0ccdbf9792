"""Helpers for 2Xd6 CLI tests: a match built once per test module, copied per test, and positions set up directly.

A position is written the way a player would hand-edit the board: the document is read
(``GAME.parse``), the board's lines are changed (stacks, shown hand cards, the act's round,
scene and points, the Basic Square's count, debts) and the document is written back
(``GAME.render``).  The shared deck's section and the log are left as they are, so the next
``pbd move`` checks and applies exactly one rule on that position.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from pbd.games.twoxd6 import GAME
from pbd.games.twoxd6.state import Act, Owe, Stack
from agreed import agree
from conftest import moved_registry


def build(base: Path, names: list[str], seeds: list[str], *extra: str) -> Path:
    """Create a match in ``base`` (its own PBD_HOME): every seat joins and rolls for the order of acts."""
    from conftest import Pbd

    old = os.environ.get("PBD_HOME")
    os.environ["PBD_HOME"] = str(base / "pbd-home")
    try:
        pbd, doc = Pbd(), base / "match.txt"
        pbd("new", "2xd6", doc, "--as", names[0], "--seed", seeds[0], "--players", len(names), *extra, ok=True)
        for name, seed in zip(names[1:], seeds[1:]):
            pbd("join", doc, "--as", name, "--seed", seed, ok=True)
        for name in names:
            pbd("move", doc, "--as", name, "roll", ok=True)
    finally:
        if old is None:
            os.environ.pop("PBD_HOME", None)
        else:
            os.environ["PBD_HOME"] = old
    return base


def copy(built: Path, tmp_path: Path, monkeypatch, name: str = "m") -> Path:
    """Copy a built match (document and every seat's private state) to ``tmp_path/name``; return the document.

    PBD_HOME then points at the copy's private states.
    """
    shutil.copytree(built, tmp_path / name)
    moved_registry(tmp_path / name / "pbd-home", built, tmp_path / name)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / name / "pbd-home"))
    return tmp_path / name / "match.txt"


def order(doc: Path) -> list[str]:
    """Return the order of acts the document shows (Player 1 first)."""
    return list(GAME.parse(doc.read_text()).order)


def position(doc: Path, *, cells: dict[str, tuple[str, list[str]]] | None = None,
             shown: dict[str, list[str]] | None = None, round_: int = 2, points: int = 24,
             roll: tuple[int, int] = (3, 4), scene: str = "main", turn: int = 0, holder: str = "",
             held: int = 0, debts: list[tuple[str, str, str]] = ()) -> None:
    """Write a position into the document as a hand edit of its board would: see the module docstring.

    ``turn`` is the index in the order of acts of the acting player; ``debts`` are
    ``(giver, receiver, kind)`` with kind ``face`` or ``pip``.
    """
    state = GAME.parse(doc.read_text())
    state.cells = {cell: Stack(owner, list(cs)) for cell, (owner, cs) in (cells or {}).items()}
    for seat in state.seats:
        state.shown[seat] = list((shown or {}).get(seat, []))
    state.act = Act(round=round_, turn=turn, scene=scene, points=points, roll=roll if scene == "main" else None)
    state.turn = state.seats.index(state.order[turn])
    state.holder, state.held = holder, held
    state.owed = [Owe(*d) for d in debts]
    doc.write_text(GAME.render(state))
    agree(doc)


def last_log(doc: Path) -> str:
    """Return the text of the document's last log entry."""
    return GAME.parse(doc.read_text()).meta.log[-1].text


def rolls(text: str) -> list[tuple[int, int, int]]:
    """Return every ``a+b = total`` roll written in ``text``."""
    return [tuple(int(x) for x in m) for m in re.findall(r"\b(\d)\+(\d)(?: pair)? = (\d+)", text)]


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """A 2-seat match (Ann, Ben) with the order of acts rolled, built once per module."""
    return build(tmp_path_factory.mktemp("twoxd6-two"), ["Ann", "Ben"], ["ann", "ben"])


@pytest.fixture
def duel(two, tmp_path, monkeypatch):
    """A copy of the 2-seat match; returns ``(doc, p1, p2)`` in the order of acts."""
    doc = copy(two, tmp_path, monkeypatch)
    p1, p2 = order(doc)
    return doc, p1, p2


ROLL_RE = r"(\d)\+(\d)(?: pair)? = (\d+)"


def roll_off(pbd, built: Path, tmp_path: Path, monkeypatch, cells, source: str, target: str,
             win: bool) -> tuple[Path, str, str]:
    """Set up ``cells(attacker, defender)`` and target ``target`` from ``source`` so that the roll-off is ``win``.

    The dice do not depend on the Tc written (each seat's roll comes from its seed, its roll
    count and the other seats' published values), so a first run on a scratch copy tells the
    Onyx and Wyte rolls; the Tc is then picked inside the window so that Tc + Onyx > Rc + Wyte
    holds (``win``) or fails, and the targeting is made on a fresh copy.  Player 1 attacks, or
    Player 2; if neither's dice leave such a Tc, the attacker first recycles a card and draws its
    replacement (that draw's roll moves the attacker's later dice on).  Returns the document (the
    resisting player's roll still owed), the attacker and the defender.
    """
    from pbd.games.twoxd6 import calc, rules

    found, seats = [], order(built / "match.txt")[:2]
    for k, turn in ((k, turn) for k in range(3) for turn in (0, 1)):
        attacker, defender = seats[turn], seats[1 - turn]
        prelude = [f"recycle {c}; replace" for c in RECYCLE[:k]]
        scratch = copy(built, tmp_path, monkeypatch, f"scratch{k}{turn}")
        _prepare(pbd, scratch, cells(attacker, defender), turn, attacker, prelude)
        move = next(m for m in pbd.json("legal", scratch, "--as", attacker)["moves"]
                    if m.startswith(f"target {target} from {source} with "))
        pbd("move", scratch, "--as", attacker, move, ok=True)
        onyx_waited(pbd, scratch, attacker, defender)
        onyx = int(re.search("Onyx " + ROLL_RE, scratch.read_text()).group(3))
        wyte = int(re.search("Wyte " + ROLL_RE, pbd("move", scratch, "--as", defender, "roll", ok=True).output).group(3))
        found.append((onyx, wyte))
        shift = wyte - onyx + (1 if win else 0)
        if abs(shift) > rules.WINDOW:
            continue
        doc = copy(built, tmp_path, monkeypatch, "m")
        _prepare(pbd, doc, cells(attacker, defender), turn, attacker, prelude)
        state = GAME.parse(doc.read_text())
        rc, _ = rules.rc_of(state, target)
        text = calc.reachable(rules.tc_pool(state, attacker, source, target))[rc + shift]
        pbd("move", doc, "--as", attacker, f"target {target} from {source} with {text}", ok=True)
        onyx_waited(pbd, doc, attacker, defender)
        return doc, attacker, defender
    raise AssertionError(f"the dice (Onyx, Wyte) {found} leave no Tc in the window; pick other seeds")


def onyx_waited(pbd, doc: Path, attacker: str, defender: str) -> None:
    """Pay the Onyx dice that wait after a targeting: the defender's pbd publishes a fresh value, the attacker's rolls.

    (The test holds both seats, so it can know the dice before the Tc is written: the defender's
    next chain value is fixed by its seed.  A player holds one seat and cannot.)
    """
    assert "the Onyx dice wait on a fresh random value" in doc.read_text()
    pbd("status", doc, "--as", defender, ok=True)
    pbd("status", doc, "--as", attacker, ok=True)
    assert "rolls the dice that waited — Onyx " in doc.read_text()


#: shown cards an attacker may recycle to move its dice on (see :func:`roll_off`)
RECYCLE = ("2W", "2P")


def _prepare(pbd, doc: Path, cells: dict, turn: int, attacker: str, prelude: list[str]) -> None:
    position(doc, cells=cells, turn=turn, shown={attacker: list(RECYCLE[:len(prelude)])})
    if prelude:
        pbd("move", doc, "--as", attacker, "; ".join(prelude), ok=True)


def hand_ids(pbd, doc: Path, who: str) -> list[str]:
    """Return the card ids of a player's hand as ``pbd hand`` lists them."""
    return [h.split()[0] for h in pbd.json("hand", doc, "--as", who)["hand"]]


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """A 3-seat match (Ann, Ben, Cid) with the order of acts rolled, built once per module."""
    return build(tmp_path_factory.mktemp("twoxd6-three"), ["Ann", "Ben", "Cid"], ["ann", "ben", "cid"])
