"""A seat's worked-out hash chain, kept beside its private state between commands (pbd.private.ChainStore).

Walking a chain is 1,025 hashes in every command that publishes or checks a chain value;
the command pipeline keeps it in ``PBD_HOME/matches/<id>/<seat>.chain-<g>`` (0600), checks
it on read, and writes none in a dry run or in library use.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pbd import cache, fairplay, private


@pytest.fixture
def walks(monkeypatch):
    """Count the chains worked out (``fairplay._walk``), with the process's in-memory chains forgotten."""
    calls = []
    walk = fairplay._walk

    def counted(seed, generation, length):
        calls.append(generation)
        return walk(seed, generation, length)

    monkeypatch.setattr(fairplay, "_walk", counted)
    fairplay._chain.cache_clear()
    yield calls
    fairplay._chain.cache_clear()


def _folder(doc: Path) -> Path:
    from pbd.documents import open_document
    from pbd.match import load

    _, _, state = load(open_document(str(doc)))
    return Path(os.environ["PBD_HOME"]) / "matches" / state.meta.match_id


def _command(pbd, *args):
    """Run a command as a new process would: with no chain in memory."""
    fairplay._chain.cache_clear()
    return pbd(*args, ok=True)


def test_new_and_join_keep_the_chain_and_a_move_reads_it_instead_of_walking_it(pbd, tmp_path, walks):
    doc = tmp_path / "m.txt"
    _command(pbd, "new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a")
    _command(pbd, "join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b")
    assert walks == [0, 0]                  # each seat's generation 0, once, when its head was published
    folder = _folder(doc)
    for seat in ("ann", "ben"):
        path = folder / f"{seat}.chain-0"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    walks.clear()
    _command(pbd, "move", doc, "--as", "Ann", "draw")
    _command(pbd, "move", doc, "--as", "Ann", "end")
    _command(pbd, "hand", doc, "--as", "Ben")
    assert walks == []
    assert fairplay.chain_store is None      # the command's store is gone with it (library use keeps none)


@pytest.mark.parametrize("damage", ["flip a value", "flip the digest", "truncate", "empty", "another seat's",
                                    "another magic"])
def test_a_damaged_or_foreign_chain_file_is_ignored_and_rewritten(pbd, match, walks, damage):
    path = _folder(match) / "ann.chain-0"
    good = path.read_bytes()
    data = bytearray(good)
    if damage == "flip a value":
        data[-40] ^= 1
    elif damage == "flip the digest":
        data[len(private.ChainStore.MAGIC)] ^= 1
    elif damage == "truncate":
        data = data[:-32]
    elif damage == "empty":
        data = bytearray()
    elif damage == "another seat's":
        data = bytearray((path.parent / "ben.chain-0").read_bytes())
    else:
        data[0] ^= 1
    path.write_bytes(bytes(data))
    _command(pbd, "move", match, "--as", "Ann", "draw")
    assert walks == [0]
    assert path.read_bytes() == good


def test_a_chain_file_that_passes_its_digest_but_not_the_chain_start_is_not_used(pbd, match, walks):
    """Even a file with a sound digest is checked against the chain's first value (one HMAC) before use."""
    path = _folder(match) / "ann.chain-0"
    good = path.read_bytes()
    seed = private.load(_folder(match).name, "Ann").seed
    bad = bytes(32) + good[len(private.ChainStore.MAGIC) + 64:]
    store = private.ChainStore(_folder(match).name)
    store.hold(seed, "Ann")
    path.write_bytes(store.MAGIC + store._digest(seed, 0, fairplay.CHAIN_LENGTH, bad) + bad)
    assert store.load(seed, 0, fairplay.CHAIN_LENGTH) == bad          # the store alone would give it
    _command(pbd, "move", match, "--as", "Ann", "draw")
    assert walks == [0]
    assert path.read_bytes() == good


def test_the_document_is_byte_identical_with_and_without_kept_chains(pbd, tmp_path, monkeypatch):
    def play(folder: Path, keep: bool) -> bytes:
        monkeypatch.setenv("PBD_HOME", str(folder / "home"))
        folder.mkdir()
        doc = folder / "m.txt"
        steps = [("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a"),
                 ("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b"),
                 ("move", doc, "--as", "Ann", "draw"), ("move", doc, "--as", "Ann", "end"),
                 ("move", doc, "--as", "Ben", "draw"), ("move", doc, "--as", "Ben", "end"),
                 ("move", doc, "--as", "Ann", "draw")]
        for step in steps:
            if not keep:
                for kept in (folder / "home").rglob("*.chain-*"):
                    kept.unlink()
            _command(pbd, *step)
        assert any((folder / "home").rglob("*.chain-*"))
        return doc.read_bytes().replace(str(folder).encode(), b"")

    assert play(tmp_path / "kept", True) == play(tmp_path / "walked", False)


def test_a_dry_run_writes_no_chain(pbd, match):
    for kept in _folder(match).glob("*.chain-*"):
        kept.unlink()
    pbd("move", match, "--as", "Ann", "play Spider-Man", "--dry-run", ok=True)
    assert not list(_folder(match).glob("*.chain-*"))


def test_the_store_writes_nothing_while_writing_nothing_holds(tmp_path):
    store = private.ChainStore("abcd1234")
    seed = bytes(range(32))
    store.hold(seed, "Ann")
    chain = fairplay._walk(seed, 0, 4)
    with cache.writing_nothing():
        store.save(seed, 0, 4, chain)
    assert store.load(seed, 0, 4) is None
    store.save(seed, 0, 4, chain)
    assert store.load(seed, 0, 4) == chain
    assert store.load(seed, 0, 5) is None and store.load(seed, 1, 4) is None     # another length, generation
    assert store.load(bytes(32), 0, 4) is None                                    # a seed it does not hold


def test_library_use_writes_no_file(tmp_path):
    assert fairplay.chain_store is None
    fairplay._chain.cache_clear()
    fairplay.published_value(bytes(range(32)), 3)
    assert not (Path(os.environ["PBD_HOME"])).exists()


def test_a_hand_document_takes_the_seats_kept_chains_away(pbd, match):
    """A seat whose private state moves to a hand document keeps no chain (a secret of its seed) in PBD_HOME."""
    folder = _folder(match)
    (folder / "ann.chain-7").write_bytes(b"x")
    (folder / "ann.chain-x").write_bytes(b"x")
    private.link_hand_doc(folder.name, "Ann", "gdoc:abc")
    assert sorted(p.name for p in folder.glob("ann.chain-*")) == ["ann.chain-x"]
    assert (folder / "ben.chain-0").exists()


def test_seats_with_hand_documents_keep_no_chain_in_pbd_home(pbd, docs_server):
    home = Path(os.environ["PBD_HOME"])
    pbd("new", "cnc", "gdoc:new", "--as", "Ann", "--deck", "forces-of-justice", "--hand-doc", "gdoc:new", ok=True)
    match_gid = next(g for g, d in docs_server.docs.items() if d.title == "pbd match")
    pbd("join", f"gdoc:{match_gid}", "--as", "Ben", "--deck", "forces-of-corruption", "--hand-doc", "gdoc:new",
        ok=True)
    assert not list(home.rglob("*.chain-*"))
    fairplay._chain.cache_clear()
    pbd("move", f"gdoc:{match_gid}", "--as", "Ann", "draw; end turn", ok=True)
    pbd("hand", f"gdoc:{match_gid}", "--as", "Ben", ok=True)
    assert not list(home.rglob("*.chain-*"))
