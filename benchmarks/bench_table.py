"""Print what the shared deck costs: group operations, a Twin Tower City deal, document size.

Run: python benchmarks/bench_table.py   (figures only; nothing is asserted)
"""

from __future__ import annotations

import time

from pbd import fairplay
from pbd.games.base import Chance
from pbd.games.ttc import GAME
from pbd.table import group


def timed(label: str, fn, n: int = 5) -> None:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    print(f"{label:<42} {(time.perf_counter() - start) / n * 1000:8.1f} ms")


def group_figures() -> None:
    k = group.derive_key(b"s" * 32, "bench")
    x = group.code("card")
    y = group.public_key(k)
    locked = group.lock(x, k)
    proof = group.prove(k, x, locked)
    timed("membership (Legendre symbol)", lambda: group._legendre.__wrapped__(x), 20)
    timed("lock (256-bit exponent)", lambda: group.lock(x, k))
    timed("unlock (2048-bit exponent)", lambda: group.unlock(locked, k))
    timed("prove (Chaum-Pedersen)", lambda: group.prove(k, x, locked))
    timed("verify (Chaum-Pedersen)", lambda: group.verify.__wrapped__(y, x, locked, proof))


def ttc_figures() -> None:
    seeds = [fairplay.seed_from_text(t) for t in ("lia", "max")]
    t0 = time.perf_counter()
    state, lia = GAME.create("be0c4001", "Lia", "sample", seeds[0], {})
    t1 = time.perf_counter()
    state = GAME.parse(GAME.render(state))
    state, mx = GAME.join(state, "Max", None, seeds[1])
    t2 = time.perf_counter()
    text = GAME.render(state)
    print(f"{'TTC new (lock and shuffle 80 cards)':<42} {(t1 - t0) * 1000:8.1f} ms")
    print(f"{'TTC join (verify, shuffle, deal, unlock)':<42} {(t2 - t1) * 1000:8.1f} ms")
    print(f"{'document after the join':<42} {len(text):8d} chars")
    state = GAME.parse(text)
    t3 = time.perf_counter()
    GAME.attach(state, lia)
    GAME.play(state, "Lia", "flip", Chance(state.meta, {"Lia": lia}))
    GAME.detach(state, lia)
    t4 = time.perf_counter()
    print(f"{'TTC Lia: verify, read hand, unlock, flip':<42} {(t4 - t3) * 1000:8.1f} ms")
    text = GAME.render(state)
    print(f"{'document after Lia wrote (proofs pruned)':<42} {len(text):8d} chars")
    state = GAME.parse(text)
    t5 = time.perf_counter()
    GAME.attach(state, mx)
    t6 = time.perf_counter()
    print(f"{'TTC Max: verify and read his hand':<42} {(t6 - t5) * 1000:8.1f} ms")


if __name__ == "__main__":
    group_figures()
    ttc_figures()
