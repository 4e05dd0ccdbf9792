"""Write the old-layout fixtures: a two-seat match of every game as main's pbd (before issue 27) left it.

    python tests/data/old_layout/make.py /work/main/.venv/bin/pbd

Each game gets ``<game>/match.txt`` (its board, Fair play and Log in one part, with a
player's note after the log and one under a ``Notes`` line above the board) and the seats'
PBD_HOMEs ``<game>/home-Ann`` and ``<game>/home-Ben``, after two moves.  Run once with the
old pbd; the tests read the files with today's pbd (tests/test_view.py).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
GAMES = {"cnc": ["--deck", "forces-of-justice"], "ttc": ["--deck", "sample"], "tower": [], "boystown": [],
         "2xd6": []}
JOIN = {"cnc": ["--deck", "forces-of-corruption"]}
#: the players' notes, in the old layout's places
ABOVE = "Notes\nBen: remember the house rule\n"
AFTER = "GG so far — an old note after the log\n"


def run(pbd, home, *args):
    env = {**os.environ, "PBD_HOME": str(home)}
    out = subprocess.run([pbd, *map(str, args)], env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{args}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def main(pbd):
    for game, deck in GAMES.items():
        folder = HERE / game
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        doc, homes = folder / "match.txt", {n: folder / f"home-{n}" for n in ("Ann", "Ben")}
        run(pbd, homes["Ann"], "new", game, doc, "--as", "Ann", "--seed", f"{game}-a", "--players", 2, *deck)
        run(pbd, homes["Ben"], "join", doc, "--as", "Ben", "--seed", f"{game}-b", *JOIN.get(game, []))
        for _ in range(2):
            for name in homes:
                moves = json.loads(run(pbd, homes[name], "legal", doc, "--as", name, "--json"))["moves"]
                if moves:
                    run(pbd, homes[name], "move", doc, "--as", name, moves[-1])
                    break
        text = doc.read_text(encoding="utf-8")
        cut = text.index("\n\n") + 2
        for home in homes.values():
            shutil.rmtree(home / "cache", ignore_errors=True)     # (caches are rebuilt on demand)
            (home / "my-matches").unlink()          # (where the document was made: the tests copy it elsewhere)
        doc.write_text(text[:cut] + ABOVE + "\n" + text[cut:] + "\n" + AFTER, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
