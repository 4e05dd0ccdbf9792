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

Pure functions over a parsed state and a :class:`~pbd.games.base.Secrets`; no I/O.
"""

from __future__ import annotations

from pbd import audit, fairplay
from pbd.errors import DocumentFormatError
from pbd.games.base import Secrets


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


def problems(game, state, sec: Secrets | None) -> list[str]:
    """Return every sign of tampering this seat's pbd can see (empty: none); without ``sec``, the document's own."""
    meta = state.meta
    if meta.version < 2:
        return [audit.OLD_LOG]
    out = audit.log_problems(meta, sections=audit.sections(game, state))
    out += audit.reveal_problems(meta)
    if sec is not None:
        out += seen_problems(meta, sec) + own_problems(meta, sec)
    out += audit.chain_problems(meta)
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
    out += audit.mac_problems(meta, me.name, sec.seed)
    return out


def remember(sec: Secrets, state) -> None:
    """Note, after a successful write, every seat's commitment, heads and chain value, and our own entries."""
    meta = state.meta
    seen = sec.extra.setdefault("seen", {})
    chains = sec.extra.setdefault("chains", {})
    for pub in meta.fairplay:
        record = seen.setdefault(pub.name, {"commitment": pub.commitment, "heads": {}})
        for g, head in meta.heads(pub.name).items():
            record["heads"].setdefault(str(g), head)
        chains[pub.name] = [pub.chain_index, pub.chain]
    known = {n for n, _, _ in sec.extra.get("wrote", [])}
    wrote = sec.extra.setdefault("wrote", [])
    for e in meta.log:
        if e.player.casefold() == sec.player.casefold() and e.number not in known and e.hash:
            wrote.append([e.number, e.hash, e.text[:60]])
