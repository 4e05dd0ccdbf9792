"""Print what a move costs on Google Docs: HTTP requests, and bytes of the batchUpdate body.

Runs against the local Docs API server of the tests (tests/docs_server.py), through the
real googleapiclient, so the numbers are the ones pbd would send to Google:

* requests per move (the floor is 2: one documents.get, one guarded batchUpdate);
* the batchUpdate body for a one-line change in a document whose move log has
  1,000 entries, next to the same change with a 10-entry log: the body should be
  proportional to the change, not to the document;
* bytes received per move (median, C&C and Twin Tower City), with ``documents.get``
  asking for every field (before: how pbd read until the ``fields`` mask) and for the
  fields pbd reads (after: :data:`pbd.documents.gdocs.FIELDS`);
* calls for a move whose first write is refused (the floor is 4: read, refused write,
  re-read, write; the re-read is handed to the retry).

Usage: python benchmarks/bench_gdocs.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from docs_server import DocsServer


def requests_per_move(server: DocsServer, moves: int = 10) -> tuple[float, list[str]]:
    """Play ``moves`` C&C moves on a Google Doc; return requests per move and their kinds."""
    from pbd import match

    gid = server.create_document("")
    spec = f"gdoc:{gid}"
    match.new("cnc", spec, "Ann", "forces-of-justice", "bench-ann")
    match.join(spec, "Ben", "forces-of-corruption", "bench-ben")
    start = len(server.log)
    players = ["Ann", "Ben"]
    for i in range(moves):
        match.move(spec, players[i % 2], "end turn")
    calls = server.log[start:]
    kinds = sorted({f"{c.method} {'batchUpdate' if c.path.endswith(':batchUpdate') else 'documents.get'}"
                    for c in calls})
    return len(calls) / moves, kinds


def one_line_change(server: DocsServer, log_entries: int) -> tuple[int, int, int]:
    """Return ``(document chars, batchUpdate body bytes, requests)`` for appending one log line."""
    from pbd.documents import open_document
    from pbd.games.cnc import GAME

    lines = [f"{n}. {'Ann' if n % 2 else 'Ben'}: end turn" for n in range(1, log_entries + 1)]
    text = "pbd match 0badcafe · Bench\nHeader line\n\nBoard line\n\nLog\n" + "\n".join(lines) + "\n"
    gid = server.create_document(text)
    doc = open_document(f"gdoc:{gid}")
    snap = doc.read()
    new = text + f"{log_entries + 1}. Ann: draw · hand 6 · AP 3→2\n"
    before = len(server.log)
    doc.write(new, snap, styles=GAME.styles(new))
    body = [c.body_bytes for c in server.log[before:] if c.path.endswith(":batchUpdate")]
    return len(text), sum(body), len(server.log) - before + 1


def real_move(server: DocsServer, log_entries: int) -> tuple[int, int]:
    """Return ``(document chars, batchUpdate body bytes)`` of a C&C ``draw`` on a match with a long log.

    The log is played on a local file first (``end turn`` by each player in turn: every
    entry must be a real, sealed move), then the board is put into a Google Doc, where the
    players' pbd goes on with the same match (its private state is kept by match id).
    """
    from pbd import match

    with tempfile.TemporaryDirectory() as tmp:
        local = str(Path(tmp) / "long.txt")
        match.new("cnc", local, "Ann", "forces-of-justice", "bench-ann")
        match.join(local, "Ben", "forces-of-corruption", "bench-ben")
        for i in range(log_entries - 2):
            match.move(local, ["Ann", "Ben"][i % 2], "end turn")
        text = Path(local).read_text(encoding="utf-8")
    gid = server.create_document(text)
    who = "Ann" if "Ann to move" in text else "Ben"
    before = len(server.log)
    match.move(f"gdoc:{gid}", who, "draw")
    return len(text), sum(c.body_bytes for c in server.log[before:] if c.path.endswith(":batchUpdate"))


def bytes_per_move(server: DocsServer, game: str, moves: int = 8) -> float:
    """Return the median bytes received (all answers) per move of ``game`` on a Google Doc."""
    import statistics

    from pbd import match

    gid = server.create_document("")
    spec = f"gdoc:{gid}"
    deck = "forces-of-justice" if game == "cnc" else "sample"
    match.new(game, spec, "Ann", deck, "bench-ann")
    match.join(spec, "Ben", "forces-of-corruption" if game == "cnc" else None, "bench-ben")
    sizes = []
    for i in range(moves):
        before = len(server.log)
        if game == "cnc":
            match.move(spec, ["Ann", "Ben"][i % 2], "end turn")
        else:
            match.hand(spec, ["Ann", "Ben"][i % 2])
            match.roll(spec, ["Ann", "Ben"][i % 2], "d6")
        sizes.append(sum(c.resp_bytes for c in server.log[before:]))
    return statistics.median(sizes)


def refused_write_calls(server: DocsServer) -> int:
    """Return the calls of a C&C move whose first write is refused (the other player typed)."""
    from pbd import match

    gid = server.create_document("")
    spec = f"gdoc:{gid}"
    match.new("cnc", spec, "Ann", "forces-of-justice", "bench-ann")
    match.join(spec, "Ben", "forces-of-corruption", "bench-ben")
    server.before_write(lambda s, doc_id: s.append_text(doc_id, "\n\nBen: brb"))
    before = len(server.log)
    match.move(spec, "Ann", "end turn")
    return len(server.log) - before


def main() -> None:
    """Start the server, measure, print."""
    server = DocsServer().start()
    os.environ["PBD_DOCS_EMULATOR_HOST"] = server.host
    os.environ["PBD_HOME"] = tempfile.mkdtemp(prefix="pbd-bench-")
    try:
        per_move, kinds = requests_per_move(server)
        print(f"HTTP requests per move: {per_move:g} ({', '.join(kinds)}; floor 2)")
        for entries in (10, 1000):
            chars, body, requests = one_line_change(server, entries)
            print(f"one-line change, {entries:>5}-entry log: document {chars:>6} chars, "
                  f"batchUpdate body {body} bytes, {requests} requests")
        for entries in (10, 1000):
            chars, body = real_move(server, entries)
            print(f"C&C 'draw' (board, counters, fair play, log), {entries:>5}-entry log: document {chars:>6} chars, "
                  f"batchUpdate body {body} bytes")
        from pbd.documents import gdocs

        gdocs.BACKOFF.sleep = lambda seconds: None
        print(f"calls for a move whose first write is refused: {refused_write_calls(server)} (floor 4)")
        mask = gdocs.FIELDS
        for game, label in (("cnc", "C&C"), ("ttc", "TTC")):
            gdocs.FIELDS = "*"
            before = bytes_per_move(server, game)
            gdocs.FIELDS = mask
            after = bytes_per_move(server, game)
            print(f"bytes received per move, {label}: {before / 1000:.1f} KB with every field, "
                  f"{after / 1000:.1f} KB with pbd's fields mask ({after / before:.0%})")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
