"""The caches that keep start-up short: parsed catalogues (PBD_HOME/cache) and compiled start-up code."""

from __future__ import annotations

import json
import re
import os
import pickle
import shutil
from pathlib import Path

import pytest
from fastpath_helpers import reads_slowly, needs_inline_attributes

from pbd import cache, paths
from pbd.digest import fingerprint
from pbd.games.cnc import cards
from pbd.games.ttc import catalogue as ttc_catalogue

BUNDLED = paths.resource_dir("decks") / "cnc" / "catalogue.toml"


def entries() -> list[Path]:
    folder = Path(cache.folder())
    return sorted(folder.glob("*.cache")) if folder.is_dir() else []


def test_a_catalogue_is_parsed_once_and_then_read_from_the_cache(monkeypatch):
    first = cards.load_catalogue(BUNDLED)
    assert len(entries()) == 1
    monkeypatch.setattr(cards, "_parse_catalogue", lambda *a: pytest.fail("parsed again"))
    monkeypatch.setattr(cards.Catalogue, "__init__", lambda *a: pytest.fail("lookups built again"))
    again = cards.load_catalogue(BUNDLED)
    assert again.cards == first.cards and again.source == str(BUNDLED)
    assert again.get("Spider-Man") == first.get("Spider-Man") and again.get("spiderman") == first.get("Spider-Man")
    assert again.mods_of("Spider-Man") == first.mods_of("Spider-Man")
    renamed = again.named("bundled")             # the merged catalogue of a PBD_HOME without catalogues of its own
    assert renamed.source == "bundled" and again.source == str(BUNDLED)
    assert renamed.get("spiderman") is again.get("Spider-Man")


@needs_inline_attributes
def test_a_catalogue_parsed_or_read_from_the_cache_keeps_its_records_on_the_fast_path():
    # issue 16: the records a command uses are the ones the cache gives, written or read, never the ones
    # pickled (pickling asks each for its ``__dict__``, and CPython then reads it the slow way every time)
    def held_dicts(cat):
        records = [cat, *cat.cards.values(), *(a for c in cat.cards.values() for a in (*c.attacks, *c.abilities))]
        return [r for r in records if reads_slowly(r)]

    parsed = cards.load_catalogue(BUNDLED)
    assert len(entries()) == 1 and held_dicts(parsed) == []
    again = cards.load_catalogue(BUNDLED)
    assert again.cards == parsed.cards and held_dicts(again) == []


def test_an_edited_catalogue_is_read_anew_and_its_old_entry_removed(tmp_path):
    own = tmp_path / "cards.toml"
    shutil.copyfile(BUNDLED, own)
    before = cards.load_catalogue(own)
    old = entries()
    own.write_text(own.read_text().replace('name = "Spider-Man"', 'name = "Spider-Woman"', 1))
    after = cards.load_catalogue(own)
    assert "Spider-Woman" in after and "Spider-Woman" not in before
    assert len(entries()) == 1 and entries() != old


@pytest.mark.parametrize("damage", ["truncate", "flip a byte", "garbage", "empty", "other class"])
def test_a_damaged_entry_is_a_miss_never_an_error(damage):
    good = cards.load_catalogue(BUNDLED)
    entry = entries()[0]
    blob = entry.read_bytes()
    head = len(cache.MAGIC) + 32
    if damage == "truncate":
        entry.write_bytes(blob[:len(blob) // 2])
    elif damage == "flip a byte":
        entry.write_bytes(blob[:-10] + bytes([blob[-10] ^ 1]) + blob[-9:])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(blob)))
    elif damage == "empty":
        entry.write_bytes(b"")
    else:   # a well-formed entry naming a class the caller does not allow: refused, never loaded
        import hashlib

        payload = pickle.dumps({"x": Path("/")})
        entry.write_bytes(cache.MAGIC + hashlib.sha256(payload).digest() + payload)
        assert blob[:head] != entry.read_bytes()[:head]
    assert cards.load_catalogue(BUNDLED).cards == good.cards
    assert entries()[0].read_bytes() == blob                       # rewritten as it should be


def test_an_entry_whose_digest_holds_but_names_a_class_not_allowed_is_refused():
    good = cards.load_catalogue(BUNDLED)
    entry = entries()[0]
    blob = entry.read_bytes()
    payload = pickle.dumps({"x": Path("/")})
    entry.write_bytes(cache.MAGIC + fingerprint(payload) + payload)     # sound in all but the class it names
    assert cache._read(str(entry), {}, dict) is None
    assert cards.load_catalogue(BUNDLED).cards == good.cards
    assert entries()[0].read_bytes() == blob


def test_a_python_without_blake2_fingerprints_with_sha256():
    import hashlib
    import subprocess
    import sys

    code = ("import sys\nsys.modules['_blake2'] = None\nfrom pbd import cache, digest\n"
            "print(digest.fingerprint(b'pbd').hex(), cache.fingerprint is digest.fingerprint)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == [hashlib.sha256(b"pbd").hexdigest(), "True"]
    assert fingerprint(b"pbd") == hashlib.blake2b(b"pbd", digest_size=32).digest()


def test_a_read_only_cache_folder_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "folder", lambda: str(tmp_path / "file-not-folder" / "cache"))
    (tmp_path / "file-not-folder").write_text("")
    assert "Spider-Man" in cards.load_catalogue(BUNDLED)


def test_a_twin_tower_city_catalogue_comes_back_equal_from_the_cache():
    first = ttc_catalogue.load_catalogue("sample")
    again = ttc_catalogue.load_catalogue("sample")
    assert again == first and again is not first
    assert again.warrior("don triumph") == first.warrior("Don Triumph")


def test_bad_catalogues_are_reported_and_never_cached(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]]\nname = 'X'\n")
    for _ in range(2):
        with pytest.raises(Exception, match="missing 'kind'"):
            cards.load_catalogue(bad, require_porter=False)
    assert entries() == []


def _boards() -> list[Path]:
    return [p for p in entries() if p.name.startswith("board-")]


def test_a_board_read_again_is_not_parsed_again_and_an_edit_is(pbd, match, monkeypatch):
    """A C&C board a command parsed is kept by its exact text: reading the same board again loads it;
    any edit changes the text, so it is parsed anew.  A document keeps two entries: the board read now and
    the one the hand-edit check replays from (the seat's checked board, here the first: an edit is not adopted)."""
    from pbd.games.cnc import CncGame

    original = match.read_text()
    first = pbd("show", match, "--json", ok=True).stdout
    assert len(_boards()) == 1
    real = CncGame.parse
    monkeypatch.setattr(CncGame, "parse", lambda self, text: pytest.fail("parsed again"))
    assert pbd("show", match, "--json", ok=True).stdout == first
    monkeypatch.setattr(CncGame, "parse", real)
    match.write_text(match.read_text().replace("CP = 100", "CP = 99", 1))
    edited = json.loads(pbd("show", match, "--json").stdout)
    assert [p["cp"] for p in edited["players"]] == [99, 100]
    assert len(_boards()) == 2
    match.write_text(match.read_text().replace("CP = 99", "CP = 98", 1))
    assert [p["cp"] for p in json.loads(pbd("show", match, "--json").stdout)["players"]] == [98, 100]
    assert len(_boards()) == 2
    monkeypatch.setattr(CncGame, "parse", lambda self, text: pytest.fail("parsed again"))
    match.write_text(original)                      # the checked board, which the hand-edit check read: kept
    assert pbd("show", match, "--json", ok=True).stdout == first


def test_a_damaged_board_entry_is_a_miss(pbd, match):
    first = pbd("show", match, "--json", ok=True).stdout
    entry = _boards()[0]
    entry.write_bytes(entry.read_bytes()[:-20] + os.urandom(20))
    assert pbd("show", match, "--json", ok=True).stdout == first


def test_a_finished_twin_tower_city_board_comes_back_equal_from_the_cache(pbd, ttc_finished, monkeypatch):
    """Every class a played board holds (plays, swaps, draws, the shared deck) is one the game names: the entry
    is read back, equal to a fresh parse, instead of being rewritten at every command."""
    from pbd import match as pipeline
    from pbd.documents import open_document
    from pbd.games.ttc import TwinTowerCity

    doc = open_document(str(ttc_finished / "match.txt"))
    _, game, first = pipeline.load(doc)
    monkeypatch.setattr(TwinTowerCity, "parse", lambda self, text: pytest.fail("parsed again"))
    _, _, again = pipeline.load(doc)
    assert again == first and again is not first


def test_a_value_holding_a_class_not_listed_is_returned_and_never_kept(tmp_path):
    """A parse whose result holds a class its caller did not name is used as parsed, not an error, and not kept."""
    value = cache.cached("test-unlisted", str(tmp_path / "f"), b"data", lambda: {"x": Path("/")}, (), dict)
    assert value == {"x": Path("/")}
    assert not [e for e in entries() if e.name.startswith("test-unlisted")]


@pytest.mark.parametrize("game", ["tower", "boystown", "2xd6"])
def test_a_shared_deck_board_read_again_comes_back_equal_from_the_cache(pbd, tmp_path, monkeypatch, game):
    """Every class a table game's parsed board holds (its state, the deck, the log) is one the game names."""
    from pbd import match as pipeline
    from pbd.documents import open_document

    doc = tmp_path / "m.txt"
    pbd("new", game, doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    _, played, first = pipeline.load(open_document(str(doc)))
    monkeypatch.setattr(type(played), "parse", lambda self, text: pytest.fail("parsed again"))
    _, _, again = pipeline.load(open_document(str(doc)))
    assert again == first and again is not first


def _pbd_process(home: Path, *args) -> "subprocess.CompletedProcess":
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "pbd", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "PBD_HOME": str(home)}, cwd=home.parent)


def test_the_deck_numbers_a_command_checked_are_kept_and_a_damaged_file_is_ignored(pbd, tmp_path):
    """The membership test of every deck number read is kept in PBD_HOME/cache/points.bin when a command ends, so
    the next command skips it for the numbers still there; only numbers libsodium accepted go in; a damaged
    file is a miss, rewritten; a dry run writes none."""
    from pbd import sodium
    from pbd.table import group

    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    seats = Path(os.environ["PBD_HOME"])                            # the seats' own (the fixture's)
    assert not (seats / "cache" / cache.POINTS).exists()
    play = next(m for m in pbd.json("legal", doc, "--as", "Ann")["moves"] if m.startswith("play"))
    (seats / "cache").mkdir(exist_ok=True)
    for entry in (seats / "cache").glob("board-*"):
        entry.unlink()                                              # so that the dry run parses the deck
    dry = _pbd_process(seats, "move", doc, "--as", "Ann", play, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert not (seats / "cache" / cache.POINTS).exists()
    home = tmp_path / "spectator"
    points = home / "cache" / cache.POINTS
    assert _pbd_process(home, "show", doc).returncode == 0
    blob = points.read_bytes()
    kept = _points(blob)
    slots = [line for line in doc.read_text().splitlines() if line.strip().startswith("slot ")]
    numbers = {group.decode(t) for line in slots for t in re.findall(r"(?<![\w-])[\w-]{43}(?![\w-])", line)}
    assert numbers and numbers <= kept and all(sodium.is_valid_point(p) for p in kept)
    points.write_bytes(blob[:-5])                                   # damaged: ignored, then rewritten whole
    for entry in (home / "cache").glob("board-*"):
        entry.unlink()
    assert _pbd_process(home, "show", doc).returncode == 0
    assert _points(points.read_bytes()) == kept


def _points(blob: bytes) -> set[bytes]:
    head = len(cache.MAGIC) + 32
    body = blob[head:]
    assert blob.startswith(cache.MAGIC) and fingerprint(body) == blob[len(cache.MAGIC):head]
    return {body[i:i + 32] for i in range(0, len(body), 32)}


def test_a_decks_code_table_is_made_once_then_read_from_the_cache_and_a_damaged_entry_made_again(monkeypatch):
    """Hashing 80 card codes onto the group costs a command about 6 ms: the table is kept in PBD_HOME's cache."""
    from pbd.table import deck, group

    cards = tuple(f"card {i}" for i in range(1, 41))
    first = deck._table("m1", cards)
    assert first == {group.code(f"m1|{i}|{c}"): i for i, c in enumerate(cards, 1)}
    [entry] = [p for p in entries() if p.name.startswith("deck-codes-v2-")]
    deck._TABLES.clear()
    deck._CODES.clear()
    with monkeypatch.context() as m:
        m.setattr(group, "code", lambda label: pytest.fail("hashed again"))
        assert deck._table("m1", cards) == first
    entry.write_bytes(entry.read_bytes()[:-1] + b"\0")           # damaged: made again, never trusted
    deck._TABLES.clear()
    deck._CODES.clear()
    assert deck._table("m1", cards) == first
    other = deck._table("m2", cards)                               # another match: its own codes, its own entry
    assert set(other.values()) == set(first.values()) and not set(other) & set(first)
    assert len([p for p in entries() if p.name.startswith("deck-codes-v2-")]) == 2


def test_a_verified_proof_is_kept_and_not_checked_again_while_a_changed_one_is_checked(monkeypatch):
    """A read-only command re-verifies the unlock proofs written since its seat's last write: one found to hold
    is kept (PBD_HOME/cache/proofs.bin), so the next command does not multiply again; anything changed is checked."""
    from pbd import sodium
    from pbd.table import group

    k = group.derive_key(b"seed", "test")
    x = group.code("card|test")
    locked = group.lock(x, k)
    y, proof = group.public_key(k), group.prove(k, x, locked, "ctx")
    monkeypatch.setattr(group, "VERIFIED", set())
    group.verify.cache_clear()
    assert group.verify(y, x, locked, proof, "ctx") and len(group.VERIFIED) == 1
    group.verify.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(sodium, "scalarmult_noclamp", lambda *a: pytest.fail("checked again"))
        assert group.verify(y, x, locked, proof, "ctx")
    group.verify.cache_clear()
    assert not group.verify(y, x, locked, (proof[0], proof[1] + 1), "ctx")
    assert not group.verify(y, x, locked, proof, "other context")
    assert not group.verify(y, x, group.lock(x, k + 1), proof, "ctx")
    assert len(group.VERIFIED) == 1
    path = os.path.join(cache.folder(), cache.PROOFS)                # kept at exit as points.bin is; read back once
    monkeypatch.setattr(cache, "_PROMISED", False)      # (a dry run earlier in this process keeps nothing at its end)
    cache._keep_points(group.VERIFIED, 0, path)
    monkeypatch.setattr(cache, "_recalled", {})
    again: set = set()
    cache.recall_proofs(again)
    assert again == group.VERIFIED
    group.verify.cache_clear()


def test_a_seats_record_of_the_shared_deck_is_parsed_once_then_read_from_the_cache(pbd, tmp_path, monkeypatch):
    """Every command of a seat checks the deck against the seat's own record of it: the record's parse is kept
    by its text (``deck-record-*``), as a board is, and read back equal."""
    from pbd.table import game as table
    from pbd.table.deck import SharedDeck

    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    hand = pbd("hand", doc, "--as", "Ann", ok=True).stdout
    assert [p for p in entries() if p.name.startswith("deck-record-")]
    assert pbd("hand", doc, "--as", "Ann", ok=True).stdout == hand  # (the first paid a duty: the board it wrote,
    parsed = []                                                     # never read back, is parsed by this one)
    real = SharedDeck.parse.__func__
    monkeypatch.setattr(SharedDeck, "parse", classmethod(lambda cls, lines: parsed.append(1) or real(cls, lines)))
    recorded = []
    keep = table._recorded_deck
    monkeypatch.setattr(table, "_recorded_deck", lambda *a: recorded.append(keep(*a)) or recorded[-1])
    assert pbd("hand", doc, "--as", "Ann", ok=True).stdout == hand
    assert parsed == [] and len(recorded) == 1                  # the board and the record: both from the cache
    assert real(SharedDeck, recorded[0].render()) == recorded[0]


def test_the_regex_codes_a_command_compiled_are_kept_equal_to_a_fresh_compile_and_a_damaged_file_is_ignored(
        pbd, tmp_path):
    """A board parsed anew compiles forty patterns; the engine code of each is kept in PBD_HOME/cache (pbd.regex):
    every kept code is the one Python's compiler gives for that source now, a command given the file behaves the
    same, a damaged file is ignored and rewritten sound, and a dry run writes none."""
    import _sre

    from pbd import regex

    doc = tmp_path / "m.txt"
    pbd("new", "boystown", doc, "--as", "Ann", "--players", "2", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "b", ok=True)
    home = tmp_path / "seat"
    shutil.copytree(os.environ["PBD_HOME"], home)
    kept = home / "cache" / regex.CODES
    dry = _pbd_process(home, "move", doc, "--as", "Ann", "draw", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert not kept.exists()                                    # a dry run writes nothing, not even this
    for entry in (home / "cache").glob("*.cache"):
        entry.unlink()                                          # so that the board is parsed
    shown = _pbd_process(home, "show", doc, "--as", "Ann")
    assert shown.returncode == 0, shown.stderr
    table = regex._load(str(kept))
    assert len(table) >= 20, sorted(os.listdir(home / "cache"))
    for (source, flags), args in table.items():
        assert args == regex._engine_args(source, flags), source
        fresh, given = re.compile(source, flags), _sre.compile(source, *args)
        assert (given.pattern, given.flags, given.groups, given.groupindex) == \
               (fresh.pattern, fresh.flags, fresh.groups, fresh.groupindex)
    again = _pbd_process(home, "show", doc, "--as", "Ann")
    assert (again.returncode, again.stdout) == (0, shown.stdout)
    blob = kept.read_bytes()
    kept.write_bytes(blob[:-3] + bytes(b ^ 0xFF for b in blob[-3:]))     # damaged: a miss, then rewritten whole
    assert regex._load(str(kept)) == {}
    for entry in (home / "cache").glob("*.cache"):
        entry.unlink()                                          # so that the board is parsed again
    damaged = _pbd_process(home, "show", doc, "--as", "Ann")
    assert (damaged.returncode, damaged.stdout) == (0, shown.stdout)
    rewritten = regex._load(str(kept))
    assert rewritten and all(args == regex._engine_args(*key) for key, args in rewritten.items())


def test_a_kept_regex_code_the_engine_refuses_is_compiled_afresh(monkeypatch):
    """A code the regex engine does not take (another engine's, or nonsense whose digest was made to hold) is never
    used: the pattern is compiled from its source, and matches as re.compile's does."""
    from pbd import regex

    source = r"^slot (?P<n>\d+): (?P<who>\w+)$"
    monkeypatch.setattr(regex, "_codes", {(source, 0): (32, [999, 1, 2], 2, {"n": 1, "who": 2}, (None, "n", "who"))})
    monkeypatch.setattr(regex, "_read", 1)
    got = regex.pattern(source).match("slot 12: Ann")
    assert got is not None and got.group("n", "who") == ("12", "Ann")
    assert regex._codes[(source, 0)] == regex._engine_args(source, 0)
    assert len(regex._codes) > regex._read                          # so the sound code is written back at exit
