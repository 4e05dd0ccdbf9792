"""Print how many pbd commands a player runs per turn of a scripted C&C match, before and after status/--dry-run.

Two players (the same simple strategy, the same seeds) play C&C through the CLI in
process, the way issue 15 saw new players play:

* **before**: each turn ``show`` (the board), ``hand``, ``legal``, then ``move`` with a plan
  built from the moves ``legal`` lists one by one (draw while the hand is small, play the
  characters and cities it offers, attack with every character, end the turn); a plan that
  breaks a rule mid-way ("costs 2 AP; you have 1") is retried without the move that failed.
* **after**: each turn ``status DOC`` (what the opponent did, AP, hand and both boards in
  one command), ``card NAME`` once per card never seen before (its cost and attacks), then
  a plan kept within the AP the cards cost, and ``move`` (retried only for other rules).
* **after + dry-run**: as *after*, but the plan is checked with ``move --dry-run`` first
  (a draw is not previewed, so it goes first in a move of its own).

The last three lines are always in this form, so runs can be compared::

    before: X.XX commands per turn
    after: X.XX commands per turn
    after+dry-run: X.XX commands per turn

Usage: python benchmarks/commands_per_turn.py [TURNS]   (default 30 turns, or until the match ends)
       python benchmarks/commands_per_turn.py --table [TURNS]   (the shared-deck games at 3 and 6 seats,
       without and with pbd watch at the other seats; default 12 turns)
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbd.cli import cli  # noqa: E402

COST = re.compile(r"^Cost: (\d+) AP")
ATTACK = re.compile(r"^Attack: (.+?) — [^,]+, (\d+) AP, (\d+) damage")
FAILED = re.compile(r"move (\d+) of (\d+)")
DISCARD = re.compile(r"discard (\d+) cards? from your hand")


class Player:
    """One player at the table: runs pbd commands and counts them."""

    def __init__(self, runner: CliRunner, doc: str, name: str):
        self.runner, self.doc, self.name = runner, doc, name
        self.commands = 0
        self.kinds: dict[str, int] = {}
        self.known: dict[str, dict] = {}
        self.hand: list[str] = []

    def run(self, *args) -> tuple[int, str]:
        """Run one pbd command as this player; return (exit code, output)."""
        self.commands += 1
        kind = args[0] + (" --dry-run" if "--dry-run" in args else "")
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        r = self.runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
        return r.exit_code, r.output

    def json(self, *args) -> dict:
        code, out = self.run(*args, "--json")
        return json.loads(out) if code == 0 else {}

    # -- what the player learns --------------------------------------------------------

    def learn(self, card: str) -> dict:
        """Look a card up once (``pbd card``): its kind, cost and attacks."""
        if card not in self.known:
            data = self.json("card", card, "--game", "cnc")
            lines = data["cards"][0]["lines"] if data.get("cards") else []
            info = {"kind": lines[0].split(" · ")[0].lower() if lines else "?", "cost": 1, "attacks": []}
            for line in lines:
                if m := COST.match(line):
                    info["cost"] = int(m.group(1))
                if m := ATTACK.match(line):
                    info["attacks"].append((m.group(1), int(m.group(2))))
            self.known[card] = info
        return self.known[card]

    # -- turns ---------------------------------------------------------------------------

    def turn_before(self) -> None:
        board = self.json("show", self.doc)
        hand = self.json("hand", self.doc, "--as", self.name)
        self.hand = list(hand.get("hand", []))
        legal = self.json("legal", self.doc, "--as", self.name).get("moves", [])
        plan = []
        if len(hand.get("hand", [])) < 4 and "draw" in legal:
            plan.append("draw")
        plan += [m for m in legal if m.startswith("play ") and " on " not in m][:2]
        plan += _attacks(board, self.name, [m for m in legal if " attacks " in m])
        self.submit(plan + ["end turn"], dry_run=False)

    def turn_after(self, dry_run: bool) -> None:
        status = self.json("status", self.doc, "--as", self.name)
        me = next(p for p in status["players"] if p["name"] == self.name)
        self.hand = list(status.get("hand") or [])
        ap, plan = me["ap"], []
        if len(status.get("hand") or []) < 4 and ap >= 1:
            plan.append("draw")
            ap -= 1
        for card in (status.get("hand") or [])[:4]:
            info = self.learn(card)
            if info["kind"] in ("character", "city") and info["cost"] <= ap and len(plan) < 3:
                plan.append(f"play {card}")
                ap -= info["cost"]
        for ch in me.get("characters", []):
            info = self.learn(ch["name"])
            if info["attacks"] and info["attacks"][0][1] <= ap:
                plan.append(f"{ch['key']} attacks {_target(status, self.name)}")
                ap -= info["attacks"][0][1]
        if dry_run and plan and plan[0] == "draw":
            self.submit(["draw"], dry_run=False)
            plan = plan[1:]
        self.submit(plan + ["end turn"], dry_run=dry_run)

    def submit(self, plan: list[str], dry_run: bool) -> None:
        """Make the moves; on a broken rule drop the move that failed and try again."""
        while plan:
            if dry_run:
                code, out = self.run("move", self.doc, "--as", self.name, "; ".join(plan), "--dry-run")
            else:
                code, out = self.run("move", self.doc, "--as", self.name, "; ".join(plan))
            if code == 0:
                if dry_run:
                    dry_run = False
                    continue
                return
            if m := DISCARD.search(out):      # an effect made me discard first: the message says how many
                plan = [f"discard {c} from hand" for c in self.hand[-int(m.group(1)):]] + ["end turn"]
                continue
            m = FAILED.search(out)
            k = int(m.group(1)) - 1 if m and int(m.group(1)) <= len(plan) else max(len(plan) - 2, 0)
            if plan[k] == "end turn" and "match is over" not in out:
                raise SystemExit(f"{self.name} cannot end the turn: {out}")
            plan = plan[:k] + plan[k + 1:]


def _target(status: dict, me: str) -> str:
    other = next(p for p in status["players"] if p["name"] != me)
    return other["characters"][0]["key"] if other.get("characters") else "city"


def _attacks(board: dict, me: str, offered: list[str]) -> list[str]:
    """Return one attack per character of ``me`` among the moves ``legal`` offers (the first target)."""
    mine = next(p for p in board["players"] if p["name"] == me)
    out = []
    for ch in mine.get("characters", []):
        move = next((m for m in offered if m.startswith(f"{ch['key']} attacks ")), None)
        if move:
            out.append(move)
    return out


def play(mode: str, turns: int) -> tuple[int, int, dict]:
    """Play up to ``turns`` turns in ``mode``; return (commands, turns played, commands by kind)."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PBD_HOME"] = str(Path(tmp) / "home")
        doc = str(Path(tmp) / "match.txt")
        runner = CliRunner()
        ann, ben = Player(runner, doc, "Ann"), Player(runner, doc, "Ben")
        ann.run("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "bench-ann")
        ben.run("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "bench-ben")
        ann.commands = ben.commands = 0            # setting up is not a turn
        ann.kinds, ben.kinds = {}, {}
        played = 0
        for n in range(turns):
            player = (ann, ben)[n % 2]
            if mode == "before":
                player.turn_before()
            else:
                player.turn_after(dry_run=mode == "after+dry-run")
            played += 1
            if json.loads(runner.invoke(cli, ["show", doc, "--json"]).output).get("result"):
                break
        kinds = {k: ann.kinds.get(k, 0) + ben.kinds.get(k, 0) for k in {**ann.kinds, **ben.kinds}}
        return ann.commands + ben.commands, played, kinds


def table_figures(game_name: str, seats: int, turns: int) -> tuple[float, float]:
    """Return the commands people type per turn of a random match on the shared deck, without and with watch.

    A match of :mod:`pbd.soak` (random legal moves through the CLI, each seat its own PBD_HOME)
    is played for ``turns`` turns.  Without ``pbd watch`` every seat that owes a duty (an unlock,
    a shuffle pass, a value a roll waits on) types a command to pay it; with ``pbd watch`` running
    at every other seat those are paid in the background, and people type only the moves and
    answers that are theirs to decide.
    """
    from pbd import games, soak

    runner = CliRunner()

    def run(home, args):
        got = runner.invoke(cli, args, env={"PBD_HOME": str(home)})
        return soak.Outcome(got.exit_code, got.stdout, got.stderr)

    with tempfile.TemporaryDirectory(prefix="pbd-cpt-") as tmp:
        m = soak.Match(run, Path(tmp), games.get(game_name), seats, seed=1)
        duties = 0
        pay = m.pay_duties

        def counted(data):
            nonlocal duties
            before = len(m.report.failures)
            for _ in range(soak.DUTY_ROUNDS):
                owing = [n for n in (data or {}).get("waiting_on") or () if n in m.homes]
                if not owing or data.get("result"):
                    break
                duties += len(owing)
                for name in owing:
                    m.cmd(m.homes[name], "hand", m.doc, "--as", name)
                data = m.show()
            return pay(data) if len(m.report.failures) == before else None

        m.pay_duties = counted
        assert m.start(), m.report.failures
        seen_turns, last = 0, None
        while seen_turns < turns and m.step():
            turn = (m.show() or {}).get("turn")
            if turn != last:
                seen_turns, last = seen_turns + 1, turn
    turns_played = max(seen_turns, 1)
    return (m.report.moves + duties) / turns_played, m.report.moves / turns_played


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        turns = int(sys.argv[2]) if len(sys.argv) > 2 else 12
        for game in ("tower", "boystown", "2xd6"):
            for seats in (3, 6):
                without, with_watch = table_figures(game, seats, turns)
                print(f"{game}/{seats}: {without:.2f} commands per turn without watch, {with_watch:.2f} with watch "
                      "(the moves and answers people decide)")
        return
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    figures = []
    for mode in ("before", "after", "after+dry-run"):
        commands, played, kinds = play(mode, turns)
        print(f"{mode}: {commands} commands in {played} turns ("
              + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])) + ")")
        figures.append((mode, commands / played))
    for mode, per_turn in figures:
        print(f"{mode}: {per_turn:.2f} commands per turn")


if __name__ == "__main__":
    main()
