"""How much of the players' view is board, log words and notes, per game and seat count (issue 27).

    python benchmarks/view_share.py                       # every game at 2 and 6 seats (2 and 4: ttc)
    python benchmarks/view_share.py --games tower --seats 2 --max-moves 80

Each match is played by pbd.soak's random player (every seat its own PBD_HOME, the real CLI
in process), with a player's note typed at the end of the view.  At the start (everyone
seated), mid-match (half the moves played) and at the end (a result, or ``--max-moves``),
it prints: the share of the view's characters that is board, log words and notes (target
>= 85%), whether a token of 20 or more hex/base64 characters appears in the view (target:
none), the view's size and the whole document's size.  The view is the text before the line
reading ``Machinery``; what counts against it is a long token (hex/base64 with a digit in
it), a duty entry in the view's log (a shuffle pass, unlocks) and any machinery section
heading (Deck, Fair play, Revealed, Deal) found in the view.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from soak import runner  # noqa: E402  (benchmarks/soak.py: the in-process CliRunner)

from pbd import games as registry  # noqa: E402
from pbd import soak  # noqa: E402
from pbd.games.base import DUTY_RE, LOG_RE, MACHINERY  # noqa: E402

#: seat counts measured per game (issue 27: 2 and 6 seats; Twin Tower City 2 and 4; C&C has 2)
SEATS = {"ttc": (2, 4), "cnc": (2,)}
DEFAULT_SEATS = (2, 6)
#: a run of hex/base64 characters (a hash, key, proof): counted if it holds a digit and is >= 20 long
TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=-]{20,}(?![A-Za-z0-9_+/=-])")
SECTION_RE = re.compile(r"^(Deck|Fair play|Revealed|Deal|Entries)\s*$")
NOTE = "Our note: Ben owes Ann a coffee"


def view_of(text: str) -> str:
    """Return the players' view of a document: everything before the line reading ``Machinery``."""
    lines = text.split("\n")
    cut = next((k for k, line in enumerate(lines) if line.strip() == MACHINERY), len(lines))
    return "\n".join(lines[:cut])


def machine_chars(view: str) -> tuple[int, bool]:
    """Return ``(characters of the view that are machinery, whether a long token appears)``."""
    count, token, section = 0, False, False
    for line in view.split("\n"):
        if SECTION_RE.match(line):
            section = True
        if section:
            count += len(line) + 1
            continue
        m = LOG_RE.match(line)
        if m and DUTY_RE.match(m.group("text")):
            count += len(line) + 1
            continue
        for t in TOKEN_RE.findall(line):
            if any(c.isdigit() for c in t):
                count += len(t)
                token = True
    return count, token


def figures(text: str) -> str:
    """Return the printed figures of one document."""
    view = view_of(text)
    machine, token = machine_chars(view)
    share = 100.0 * (len(view) - machine) / max(1, len(view))
    return (f"view {share:5.1f}% board/log/notes · long token: {'YES' if token else 'none'} · "
            f"view {len(view.encode()):6d} B · document {len(text.encode()):7d} B")


def measure(run, folder: Path, game, seats: int, max_moves: int) -> list[str]:
    """Play one random match; return the figures at the start, mid-match and at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    m = soak.Match(run, folder, game, seats, 0)
    if not m.start():
        return [f"  could not start: {m.report.failures[:1]}"]
    text = m.doc.read_text(encoding="utf-8")
    m.doc.write_text(text.replace("\n\n" + MACHINERY + "\n", "\n" + NOTE + "\n\n" + MACHINERY + "\n", 1),
                     encoding="utf-8")
    snaps = [m.doc.read_text(encoding="utf-8")]
    while m.report.moves < max_moves and m.step():
        snaps.append(m.doc.read_text(encoding="utf-8"))
    end = "end" if m.report.result else f"after {m.report.moves} moves (cap)"
    out = [f"  start   {figures(snaps[0])}", f"  mid     {figures(snaps[len(snaps) // 2])}",
           f"  {end:<7} {figures(snaps[-1])}"]
    if m.report.failures:
        out.append(f"  (soak failures: {m.report.failures[0].line()})")
    if NOTE not in snaps[-1]:
        out.append("  the note was lost!")
    return out


def main(argv=None) -> int:
    """Parse the options, measure and print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="", help="comma-separated game names (default: every registered game)")
    p.add_argument("--seats", default="", help="comma-separated seat counts (default: 2 and 6; ttc 2 and 4)")
    p.add_argument("--max-moves", type=int, default=400, help="moves before the 'end' is taken as it stands")
    a = p.parse_args(argv)
    names = [g for g in a.games.split(",") if g] or list(registry.registry())
    wanted = tuple(int(s) for s in a.seats.split(",") if s)
    run = runner()
    with tempfile.TemporaryDirectory(prefix="pbd-view-") as tmp:
        for name in names:
            game = registry.get(name)
            for n in SEATS.get(game.name, DEFAULT_SEATS):
                if wanted and n not in wanted:
                    continue
                print(f"{game.name} {n} seats", flush=True)
                for line in measure(run, Path(tmp) / f"{game.name}-{n}", game, n, a.max_moves):
                    print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
