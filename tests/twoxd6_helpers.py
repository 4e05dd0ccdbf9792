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


def last_log(doc: Path) -> str:
    """Return the text of the document's last log entry."""
    return GAME.parse(doc.read_text()).meta.log[-1].text


def rolls(text: str) -> list[tuple[int, int, int]]:
    """Return every ``a+b = total`` roll written in ``text``."""
    return [tuple(int(x) for x in m) for m in re.findall(r"\b(\d)\+(\d) = (\d+)", text)]


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
