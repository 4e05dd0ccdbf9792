"""The fair-play checks a seat's pbd runs on every command, against what it privately remembers.

The document is hostile input: anyone with the link can edit it, and an opponent may run a
modified pbd.  Before a command changes anything, :func:`verify` checks the document against
the seat's private record (kept in its private state under ``extra``) and the document's own
consistency; after a successful write, :func:`remember` updates the record.

* ``seen``: every seat's commitment, chain head and later chain heads, as first seen.
* ``chains``: every seat's latest chain value seen (number and value); later values must hash
  back to it (within a chain) or to the next head the log published.
* ``wrote``: every log entry this seat's pbd wrote (number, hash, text): each must still be
  there, unchanged; and every entry in the seat's name must carry the seat's own MAC.
* ``signed``: how far this seat's pbd has checked the entries' signatures (the number of
  entries and the last one's hash): every entry after that, in another seat's name, must carry
  that seat's signature (:func:`signature_problems`, :mod:`pbd.signing`).  Kept by every
  command, read commands too (:func:`checked`).

The document's own consistency checks (:func:`log_problems`, :func:`chain_problems`,
:func:`reveal_problems`, :func:`mac_problems`) are here too, and :mod:`pbd.audit` imports them
from here: a command needs them, but not the rest of the audit (its replay, its classes).

Pure functions over a parsed state and a :class:`~pbd.games.base.Secrets`; no I/O.
"""

from __future__ import annotations

from pbd import __version__, fairplay
from pbd.errors import DocumentFormatError
from pbd.games.base import REVEAL_TEXT, LogEntry, Meta, Secrets, log_genesis, log_link

OLD_LOG = ("this match's log was written by an older pbd (8-digit hashes, no commitments in the log, "
           "no writer MACs): this pbd cannot carry it on or audit it")


def verify(game, state, sec: Secrets | None) -> None:
    """Refuse a document that was tampered with, from this seat's point of view (``sec`` None: a joiner's).

    :raises DocumentFormatError: (exit 3) naming each problem: the player and the field.
    """
    found = problems(game, state, sec)
    if sec is not None:
        state.meta.signers[sec.player.casefold()] = sec.seed      # our entries carry our MAC
    if found:
        raise DocumentFormatError(
            "the match document was tampered with (nothing was written):\n" + "\n".join(f"  - {p}" for p in found),
            hint="run pbd audit DOC; compare with the document's version history")


def verify_signatures(state) -> None:
    """Refuse a match document holding an entry whose signature is missing or wrong (a command with no seat).

    :raises DocumentFormatError: (exit 3) naming each such entry and the seat whose name it bears.
    """
    meta = getattr(state, "meta", None)
    found = signature_problems(meta, None) if meta is not None and meta.match_id and meta.version >= 2 else []
    if found:
        raise DocumentFormatError(
            "the match document was tampered with:\n" + "\n".join(f"  - {p}" for p in found),
            hint="run pbd audit DOC; compare with the document's version history")


def problems(game, state, sec: Secrets | None) -> list[str]:
    """Return every sign of tampering this seat's pbd can see (empty: none); without ``sec``, the document's own."""
    meta = state.meta
    if meta.version < 2:
        return [OLD_LOG]
    out = log_problems(meta, sections=sections(game, state))
    out += signature_problems(meta, sec)
    out += reveal_problems(meta)
    if sec is not None:
        out += seen_problems(meta, sec) + own_problems(meta, sec)
    out += chain_problems(meta)
    return list(dict.fromkeys(out))


def seen_problems(meta, sec: Secrets) -> list[str]:
    """Return every commitment, chain head or chain value that differs from what this pbd saw before."""
    out = []
    seen = sec.extra.get("seen", {})
    chains = sec.extra.get("chains", {})
    for pub in meta.fairplay:
        was = seen.get(pub.name)
        entry = meta.commit_entry(pub.name)
        heads = meta.heads(pub.name)
        if was:
            if pub.commitment != was["commitment"] or entry and entry.commit[0] != was["commitment"]:
                out.append(f"{pub.name}'s commitment changed since this pbd first saw it "
                           f"({was['commitment'][:12]}…, now {pub.commitment[:12]}…)")
            key = entry.key if entry else ""
            if was.get("key") and key != was["key"]:
                out.append(f"{pub.name}'s signing key changed since this pbd first saw it "
                           f"({was['key'][:12]}…, now {(key or 'none')[:12]}…)")
            for g, head in was.get("heads", {}).items():
                if heads.get(int(g)) != head:
                    out.append(f"{pub.name}'s chain head {g} changed since this pbd first saw it "
                               f"({head[:12]}…, now {(heads.get(int(g)) or 'none')[:12]}…)")
        last = chains.get(pub.name)
        if last and not fairplay.chain_links(pub.chain, pub.chain_index, last[1], last[0],
                                             {**{int(g): h for g, h in (was or {}).get("heads", {}).items()},
                                              **heads}):
            out.append(f"{pub.name}'s published chain value {pub.chain_index} does not follow the value "
                       f"{last[0]} this pbd saw before")
    return out


def own_problems(meta, sec: Secrets) -> list[str]:
    """Return every change to this seat's own record: commitment, chain value, entries it wrote."""
    out = []
    me = meta.player(sec.player)
    if me is None:
        return [f"{sec.player} is no longer in the Fair play section"]
    if me.chain and me.chain != fairplay.published_value(sec.seed, me.chain_index):
        out.append(f"{me.name}'s chain value {me.chain_index} in Fair play is not the one {me.name}'s pbd "
                   f"published")
    ours = sec.extra.get("chains", {}).get(me.name)
    if ours and me.chain_index < ours[0]:
        out.append(f"{me.name}'s chain went back from value {ours[0]} to {me.chain_index}")
    gone = [(n, text) for n, _, text in sec.extra.get("wrote", []) if n > len(meta.log)]
    altered = [(n, text) for n, digest, text in sec.extra.get("wrote", [])
               if n <= len(meta.log) and meta.log[n - 1].hash != digest]
    if gone:
        n, text = gone[0]
        out.append(f"log entry {n} that {me.name}'s pbd wrote ({text}) is gone: the log now ends at entry "
                   f"{len(meta.log)}" + (f" ({len(gone)} of {me.name}'s entries are gone)" if len(gone) > 1 else ""))
    if altered:
        n, text = altered[0]
        now = meta.log[n - 1].text[:60]
        how = "its hash changed: the log was re-chained" if now == text[:60] else f"now: {now}"
        out.append(f"log entry {n} that {me.name}'s pbd wrote ({text}) was altered or replaced ({how})"
                   + (f"; so were {len(altered) - 1} later entries of {me.name}'s" if len(altered) > 1 else ""))
    out += mac_problems(meta, me.name, sec.seed)
    return out


def remember(sec: Secrets, state) -> None:
    """Note, after a successful write, every seat's commitment, heads and chain value, and our own entries."""
    meta = state.meta
    seen = sec.extra.setdefault("seen", {})
    chains = sec.extra.setdefault("chains", {})
    for pub in meta.fairplay:
        record = seen.setdefault(pub.name, {"commitment": pub.commitment, "heads": {}})
        entry = meta.commit_entry(pub.name)
        if entry is not None and entry.key:
            record.setdefault("key", entry.key)
        for g, head in meta.heads(pub.name).items():
            record["heads"].setdefault(str(g), head)
        chains[pub.name] = [pub.chain_index, pub.chain]
    checked(sec, meta)
    known = {n for n, _, _ in sec.extra.get("wrote", [])}
    wrote = sec.extra.setdefault("wrote", [])
    for e in meta.log:
        if e.player.casefold() == sec.player.casefold() and e.number not in known and e.hash:
            wrote.append([e.number, e.hash, e.text[:60]])


# -- the document's own consistency (also :mod:`pbd.audit`'s, which imports them from here) --------

def log_problems(meta: Meta, lines: list[int] | None = None, sections: list[str] | None = None) -> list[str]:
    """Return every break in the log's numbering and hash chain, and a seal the sections no longer match.

    ``sections`` are the lines the last entry's seal covers (see :meth:`Meta.section_lines`).
    """
    if meta.version < 2:
        return [OLD_LOG]
    out = []
    previous = log_genesis(meta.match_id)
    for i, e in enumerate(meta.log):
        where = f"log entry {e.number}" + (f" (line {lines[i]})" if lines and i < len(lines) else "")
        if e.number != i + 1:
            out.append(f"{where}: numbered {e.number} but it is entry {i + 1} — an entry was deleted or inserted")
        expected = log_link(previous, e)
        if not e.hash:
            out.append(f"{where}: no chain hash (expected #{expected[:12]}…)")
        elif e.hash != expected:
            out.append(f"{where}: hash #{e.hash[:12]}… does not follow from the entry before (expected "
                       f"#{expected[:12]}…) — this entry was edited, or one before it was edited, inserted or deleted")
        if not e.seal:
            out.append(f"{where}: no seal")
        previous = e.hash or expected
    if sections is not None and meta.log and meta.log[-1].seal and meta.log[-1].seal != fairplay.seal(sections):
        out.append(f"the Fair play, Revealed or deal lines are not as log entry {meta.log[-1].number} left them "
                   f"(its seal {meta.log[-1].seal} covers them) — they were edited by hand")
    return out


def sections(game, state) -> list[str]:
    """Return the lines the seal of the last log entry covers: Fair play, Revealed, the game's sealed lines."""
    return [*state.meta.section_lines(), *game.sealed_lines(state)]


def reveal_problems(meta: Meta) -> list[str]:
    """Return a problem for every logged reveal missing from the Revealed section, and every unlogged one."""
    out = []
    logged = {e.player.casefold(): e for e in meta.log if e.text == REVEAL_TEXT}
    for key, e in logged.items():
        if meta.revealed_by(e.player) is None:
            out.append(f"log entry {e.number}: {e.player} revealed their seed and deck list, but the Revealed "
                       f"section no longer has them — it was deleted")
    for r in meta.revealed:
        if r.name.casefold() not in logged:
            out.append(f"Revealed: {r.name}'s seed is there but no log entry records the reveal")
    return out


def commit_problems(meta: Meta) -> list[str]:
    """Return every seat whose commitment or chain head in Fair play is not the one its log entry carries."""
    out = []
    for p in meta.fairplay:
        entry = meta.commit_entry(p.name)
        if entry is None:
            out.append(f"Fair play: {p.name} has no log entry carrying their commitment and chain head")
            continue
        if entry.commit[0] != p.commitment:
            out.append(f"Fair play: {p.name}'s commitment is not the one log entry {entry.number} carries — "
                       f"it was changed")
        g = fairplay.generation(p.chain_index)
        head = meta.heads(p.name).get(g)
        if head is None:
            out.append(f"Fair play: {p.name}'s chain value {p.chain_index} belongs to a chain whose head the log "
                       f"never published")
        elif not fairplay.chain_reaches(p.chain, p.chain_index - g * fairplay.CHAIN_LENGTH, head):
            out.append(f"Fair play: {p.name}'s chain value {p.chain_index} does not hash back to the chain head "
                       f"the log carries — it was changed")
    return out


def chain_problems(meta: Meta) -> list[str]:
    """Return every chain publication out of order and every event with the wrong counter or beacon."""
    out = commit_problems(meta)
    names = [p.name for p in meta.fairplay]
    walk = _Walk({n: 0 for n in names}, {(n, k): 0 for n in names for k in fairplay.KINDS})
    for e in meta.log:
        if e.commit and e.player in walk.published and e.player not in walk.committed:
            walk.committed[e.player] = e.number
        before = dict(walk.published)
        for name, k in e.published.items():
            if name not in walk.published:
                out.append(f"log entry {e.number}: chain value {k} published by {name}, who is not in Fair play")
                continue
            if k != walk.published[name] + 1:
                out.append(f"log entry {e.number}: {name} published chain value {k} after {walk.published[name]}")
            if fairplay.ends_generation(k) != (name in e.heads):
                out.append(f"log entry {e.number}: {name}'s chain value {k} " + (
                    "ends a chain but no next head goes with it" if fairplay.ends_generation(k)
                    else "carries a next head in the middle of a chain"))
            walk.published[name] = k
            walk.at[(name, k)] = e.number
        for ev in e.events:
            out += _event_problems(e, ev, walk, before)
    for p in meta.fairplay:
        if walk.published.get(p.name, 0) != p.chain_index:
            out.append(f"Fair play: {p.name} shows chain value {p.chain_index}, the log records "
                       f"{walk.published.get(p.name, 0)} publications")
        for kind, word in (("draw", "draws"), ("roll", "rolls"), ("free", "free rolls")):
            if walk.counters.get((p.name, kind), 0) != p.count(kind):
                out.append(f"Fair play: {p.name} shows {p.count(kind)} {word}, the log records "
                           f"{walk.counters.get((p.name, kind), 0)}")
    return out


class _Walk:
    """What a walk through the log has seen so far: publications, counters, commitments.

    ``committed``: seat -> entry number of its commitment; ``at``: (seat, value number) -> entry number.
    """

    def __init__(self, published: dict[str, int], counters: dict[tuple[str, str], int]):
        self.published, self.counters = published, counters
        self.committed: dict[str, int] = {}
        self.at: dict[tuple[str, int], int] = {}


def _event_problems(e: LogEntry, ev, walk: _Walk, before: dict[str, int]) -> list[str]:
    key = (ev.player, ev.kind)
    if key not in walk.counters:
        return [f"log entry {e.number}: a random event of {ev.player}, who is not in Fair play"]
    out = []
    what = {"draw": "draw", "roll": "roll", "free": "free roll"}[ev.kind]
    if ev.counter != walk.counters[key]:
        out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} where {walk.counters[key]} was next — "
                   f"events were skipped, repeated or deleted")
    walk.counters[key] = ev.counter + 1
    others = [n for n in walk.committed if n != ev.player]
    if ev.player not in walk.committed or len(ev.beacon) != len(others) or not others:
        return out + [f"log entry {e.number}: {ev.player}'s {what} {ev.counter} names chain values of "
                      f"{len(ev.beacon)} other seat(s); {len(others)} had committed"]
    mine = walk.committed[ev.player]
    for name, j in zip(others, ev.beacon):
        if j not in (before[name], walk.published[name]):
            out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} used {name}'s chain value {j}, "
                       f"but the latest published was {walk.published[name]}")
        elif (walk.committed[name] if j == 0 else walk.at.get((name, j), 0)) <= mine:
            out.append(f"log entry {e.number}: {ev.player}'s {what} {ev.counter} used {name}'s chain value {j}, "
                       f"published before {ev.player} committed (so {ev.player} could choose a seed knowing it)")
    return out


def mac_problems(meta: Meta, name: str, seed: bytes) -> list[str]:
    """Return every log entry in ``name``'s name whose MAC was not made with ``name``'s seed (forged)."""
    out = []
    previous = log_genesis(meta.match_id)
    for e in meta.log:
        if e.player.casefold() == name.casefold():
            want = fairplay.entry_mac(seed, previous, f"{e.body()} · seal {e.seal}")
            if e.mac != want:
                out.append(f"log entry {e.number} ({e.text[:40]}) is in {e.player}'s name but {e.player}'s pbd did "
                           f"not write it (its MAC is {'missing' if not e.mac else 'wrong'}) — it was forged or "
                           f"altered")
        previous = e.hash or log_link(previous, e)
    return out


# -- signatures (:mod:`pbd.signing`) -----------------------------------------------------------

SIGNED_BY = ("log entry {n} is written in {who}'s name but {who}'s key did not sign it: the document was altered "
             "or a player's pbd cheated")


def signature_problems(meta: Meta, sec: Secrets | None) -> list[str]:
    """Return every entry new to this seat (all, without ``sec``) whose signature is missing or wrong, and every
    seat's verify key that is malformed, shared with another seat, or missing in a match of signed entries.

    An entry of this seat's own is left to :func:`own_problems`; one whose signature was dropped is accepted
    where every other seat wrote after it (:mod:`pbd.signing`); a match an older pbd started (its first entry
    commits no key) has no signatures to check.
    """
    from pbd import signing

    log = meta.log
    if not log or not log[0].key:
        return []
    out, keys, owners = [], {}, {}
    start = _progress(meta, sec)
    for p in meta.fairplay:
        entry = meta.commit_entry(p.name)
        if entry is None:
            continue                        # (commit_problems names it)
        if entry.number <= start:           # checked before, on an earlier command (about 0.15 ms a key)
            why = ""
        elif not entry.key:
            out.append(f"log entry {entry.number}: {p.name}'s first entry commits no signing key, so {p.name}'s "
                       f"pbd is older than this one (pbd {__version__}, which signs every entry) and entries in "
                       f"{p.name}'s name cannot be told from forgeries: {p.name} must update pbd, and the match "
                       f"be started again (or finished by everyone with the older pbd)")
            continue
        else:
            why = signing.key_problem(entry.key)
        if why:
            out.append(f"log entry {entry.number}: {p.name}'s signing key {why}")
            continue
        if entry.key in owners:
            out.append(f"log entry {entry.number}: {p.name}'s signing key is {owners[entry.key]}'s: refused")
            continue
        owners[entry.key] = p.name
        keys[p.name.casefold()] = entry.key
    me = sec.player.casefold() if sec is not None else None
    droppable = meta.droppable()
    previous = log[start - 1].hash if start else log_genesis(meta.match_id)
    for e in log[start:]:
        who = e.player.casefold()
        key = keys.get(who)
        if who != me and key is not None and (e.sig or not droppable(e)) and not (
                e.sig and signing.verifies(key, meta.match_id, previous, e.sealed(), e.sig)):
            out.append(SIGNED_BY.format(n=e.number, who=e.player) + (" (its signature is missing)" if not e.sig
                                                                     else " (its signature does not verify)"))
        previous = e.hash or log_link(previous, e)
    return out


def _progress(meta: Meta, sec: Secrets | None) -> int:
    """Return how many entries, from the first, this seat's pbd already checked the signatures of (0: none)."""
    kept = sec.extra.get("signed") if sec is not None else None
    if not kept:
        return 0
    n, digest = kept
    return n if 0 < n <= len(meta.log) and meta.log[n - 1].hash == digest else 0


def checked(sec: Secrets, meta: Meta) -> bool:
    """Note that this seat has checked every entry of ``meta``'s log; return True if that is news."""
    log = meta.log
    if not log or not log[-1].hash:
        return False
    now = [len(log), log[-1].hash]
    if sec.extra.get("signed") == now:
        return False
    sec.extra["signed"] = now
    return True
