"""Issue 25, attack 2: an entry written in another seat's name, refused by every honest seat at once.

The attacker runs a modified pbd: it builds a log entry the way pbd would, in Ben's name, and
seals, MACs, signs and chains it with everything the attacker has — Cy's own seed and signing
key (a seat of the match), or a key of its own (a non-player editing the document) — never
Ben's.  Before signed entries, a third seat's pbd could not tell (the MAC is checked only after
Ben reveals his seed) and carried on (exit 0).  Now every seat checks the signature of every
entry new to it on its next command, read-only ones included, and refuses (exit 3), leaving the
document byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbd import private
from pbd.games.base import LogEntry

ROOT = Path(__file__).resolve().parent.parent
REFUSAL = (r"log entry {n} is written in Ben's name but Ben's key did not sign it: the document was altered "
           r"or a player's pbd cheated")


def mid(doc: Path) -> str:
    import re

    return re.search(r"pbd match (\w+)", doc.read_text()).group(1)


def forge_in_name(doc: Path, game, victim: str, text: str, seed: bytes) -> int:
    """Append, as a modified pbd would, an entry in ``victim``'s name: sealed, MACed and signed with
    ``seed`` (the forger's own, not the victim's), the chain hash recomputed.  Returns its number."""
    state = game.parse(doc.read_text())
    meta = state.meta
    meta.signers = {victim.casefold(): seed}        # what the forger has, under the victim's name
    entry = LogEntry(len(meta.log) + 1, victim, text, fresh=True)
    meta.log.append(entry)
    doc.write_text(game.render(state))
    return entry.number


def refused_by(run, doc: Path, n: int, *args) -> str:
    """Run an honest seat's command: exit 3, the forged entry named, the document unchanged."""
    import re

    before = doc.read_bytes()
    code, out = run(*args)
    assert code == 3, out
    assert re.search(REFUSAL.format(n=n), out), out
    assert doc.read_bytes() == before
    return out


def _cli(pbd):
    def run(*args):
        result = pbd(*args)
        return result.exit_code, result.output
    return run


# -- the games on the shared deck, 3 seats (Twin Tower City: 2 seats and a non-player) ----------

def _tower(pbd, tmp_path):
    from tower_helpers import start

    from pbd.games.tower import GAME

    doc = start(pbd, tmp_path, 3)
    return doc, GAME, "passes"


def _boystown(pbd, tmp_path):
    from boystown_helpers import start

    from pbd.games.boystown import GAME

    doc = tmp_path / "m.txt"
    start(pbd, doc, 3)
    return doc, GAME, "pass"


def _twoxd6(pbd, tmp_path):
    from pbd.games.twoxd6 import GAME

    doc = tmp_path / "m.txt"
    pbd("new", "2xd6", doc, "--as", "Ann", "--seed", "ann", "--players", 3, ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    pbd("join", doc, "--as", "Cy", "--seed", "cy", ok=True)
    return doc, GAME, "pass"


GAMES = {"tower": _tower, "boystown": _boystown, "2xd6": _twoxd6}


@pytest.mark.parametrize("game", list(GAMES))
def test_an_entry_cy_writes_in_bens_name_is_refused_by_ann_at_once(pbd, tmp_path, game):
    doc, module, text = GAMES[game](pbd, tmp_path)
    for seat in ("Ann", "Ben", "Cy"):                  # every seat's pbd has read the match (and paid what it owed)
        pbd("hand", doc, "--as", seat, ok=True)
    cy = private.load(mid(doc), "Cy").seed
    n = forge_in_name(doc, module, "Ben", text, cy)
    refused_by(_cli(pbd), doc, n, "hand", doc, "--as", "Ann")          # a read-only command
    refused_by(_cli(pbd), doc, n, "legal", doc, "--as", "Ann")
    refused_by(_cli(pbd), doc, n, "show", doc)                          # no seat at all: the document's own
    refused_by(_cli(pbd), doc, n, "status", doc, "--as", "Ann")
    assert "cannot be read" in pbd("status", ok=True).output             # every match: that one unreadable
    before = doc.read_bytes()
    result = pbd("hand", doc, "--as", "Ben")                            # Ben's own pbd, by its MAC as before
    assert result.exit_code == 3
    assert f"log entry {n} ({text}) is in Ben's name but Ben's pbd did not write it" in result.output
    assert doc.read_bytes() == before


def test_the_tower_cy_answers_bens_pending_duel_in_bens_name_and_ann_refuses_it(pbd, tmp_path):
    """The issue's attack as found: Ann's roll lands on Ben's tile, the duel waits on Ben's answer, and Cy's
    modified pbd answers ``pass`` for him, the way pbd would play it but with dice from Cy's own seed (a
    cheater tries seeds on copies until they suit), publishing nothing Cy cannot make.  Ann's pbd used to
    move her token back on it (exit 0)."""
    from tower_helpers import put, upcoming

    from pbd.games.base import Chance, Secrets
    from pbd.games.tower import GAME

    doc = _tower(pbd, tmp_path)[0]
    for seat in ("Ann", "Ben", "Cy"):
        pbd("hand", doc, "--as", seat, ok=True)
    put(doc, tiles={"Ann": 20 - upcoming(doc, "Ann", 1)[0], "Ben": 20})
    pbd("move", doc, "--as", "Ann", "roll; pass", ok=True)
    assert "Waiting on: Ben — play Sword (an extra die in the duel with Ann on 20), or pass" in doc.read_text()
    state = GAME.parse(doc.read_text())
    meta = state.meta
    cy = private.load(meta.match_id, "Cy").seed
    chance = Chance(meta, {"Ben": Secrets(meta.match_id, "Ben", "tower", cy, [])})
    chance.publish = lambda seat: None              # Ben's next chain value: Cy cannot make it, so leaves it out
    meta.signers = {}
    GAME._step(state, "Ben", "pass", chance)        # the answer, as pbd plays it (Ben's own duties skipped)
    meta.signers = {"ben": cy}                      # sealed, MACed and signed with what Cy has
    doc.write_text(GAME.render(state))
    n = len(meta.log)
    assert meta.log[-1].text.startswith("pass — passes; the duel's dice wait")     # (they follow the answer)
    refused_by(_cli(pbd), doc, n, "hand", doc, "--as", "Ann")
    refused_by(_cli(pbd), doc, n, "move", doc, "--as", "Ann", "roll")
    refused_by(_cli(pbd), doc, n, "show", doc)


def test_twin_tower_city_an_entry_a_non_player_writes_in_bens_name_is_refused(pbd, tmp_path):
    from test_ttc_match import start

    from pbd.games.ttc import GAME

    doc = start(pbd, tmp_path)
    doc = doc.rename(doc.with_name("m.txt"))
    for seat in ("Lia", "Max"):
        pbd("hand", doc, "--as", seat, ok=True)
    n = forge_in_name(doc, GAME, "Max", "passes", os.urandom(32))     # a key of the intruder's own
    refused = REFUSAL.replace("Ben", "Max")
    import re

    for args in (("hand", doc, "--as", "Lia"), ("legal", doc, "--as", "Lia"), ("show", doc)):
        before = doc.read_bytes()
        result = pbd(*args)
        assert result.exit_code == 3, result.output
        assert re.search(refused.format(n=n), result.output), result.output
        assert doc.read_bytes() == before


# -- examples/highcard, installed as a plugin and run as a subprocess -------------------------

@pytest.fixture
def plugin(highcard_site):
    return highcard_site


def test_highcard_an_entry_cy_writes_in_bens_name_is_refused_by_ann_at_once(plugin, tmp_path, monkeypatch):
    env = {**os.environ, "PYTHONPATH": str(plugin), "PBD_HOME": os.environ["PBD_HOME"]}

    def run(*args):
        done = subprocess.run([sys.executable, "-m", "pbd", *map(str, args)], cwd=tmp_path, env=env,
                              capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr

    doc = tmp_path / "m.txt"
    assert run("new", "highcard", doc, "--as", "Ann", "--players", 3, "--seed", "ann")[0] == 0
    assert run("join", doc, "--as", "Ben", "--seed", "ben")[0] == 0
    assert run("join", doc, "--as", "Cy", "--seed", "cy")[0] == 0
    for seat in ("Ann", "Ben", "Cy"):
        assert run("hand", doc, "--as", seat)[0] == 0
    monkeypatch.syspath_prepend(str(plugin))
    from highcard import GAME

    n = forge_in_name(doc, GAME, "Ben", "passes", private.load(mid(doc), "Cy").seed)
    refused_by(run, doc, n, "hand", doc, "--as", "Ann")
    refused_by(run, doc, n, "show", doc)
    assert json.loads(run("log", doc, "--json")[1])["entries"][-1]["player"] == "Ben"


# -- what is signed, what is kept, what is dropped --------------------------------------------

def _play(pbd, doc, moves: int) -> None:
    """Play ``moves`` moves, each the first legal move of the first seat to act."""
    for _ in range(moves):
        view = pbd.json("show", doc)
        for seat in view["to_move"]:
            legal = pbd.json("legal", doc, "--as", seat)["moves"]
            if legal:
                pbd("move", doc, "--as", seat, legal[0], ok=True)
                break


def test_every_seat_commits_a_key_signs_its_entries_and_signatures_are_dropped_once_all_wrote_after(pbd, tmp_path):
    from tower_helpers import start

    from pbd import signing
    from pbd.games.tower import GAME

    doc = start(pbd, tmp_path, 3)
    _play(pbd, doc, 12)
    meta = GAME.parse(doc.read_text()).meta
    keys = {e.player: e.key for e in meta.log if e.commit}
    assert sorted(keys) == ["Ann", "Ben", "Cy"]
    for name, key in keys.items():
        assert key == signing.verify_key(private.load(meta.match_id, name).seed, meta.match_id)
        assert len(key) == 43 and signing.key_problem(key) == ""
    last = {}
    for e in meta.log:
        last[e.player] = e.number
    signed = [e for e in meta.log if e.sig]
    assert signed and len(signed) < len(meta.log) // 2       # most signatures are gone: the document stays small
    for e in meta.log:
        others_wrote_after = all(n > e.number for who, n in last.items() if who != e.player)
        assert bool(e.sig) == (not others_wrote_after), e.written()
        if e.sig:
            assert len(e.sig) == 86
    assert pbd("log", doc, ok=True).output.count("log chain: intact")
    for seat in ("Ann", "Ben", "Cy"):
        pbd("hand", doc, "--as", seat, ok=True)


def test_a_seat_checks_each_entry_once_and_keeps_its_progress_on_read_commands(pbd, match, monkeypatch):
    from pbd import signing
    from pbd.games.cnc import GAME

    checked = []
    real = signing.verifies
    monkeypatch.setattr(signing, "verifies", lambda *a: checked.append(a) or real(*a))
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    checked.clear()
    before = match.read_bytes()
    pbd("hand", match, "--as", "Ben", ok=True)
    assert match.read_bytes() == before                     # a read: Ben's pbd wrote nothing
    meta = GAME.parse(match.read_text()).meta
    assert len(checked) == 1 and checked[0][-1] == meta.log[-1].sig     # Ann's new entry, checked by Ben
    assert private.load(meta.match_id, "Ben").extra["signed"] == [len(meta.log), meta.log[-1].hash]
    checked.clear()
    pbd("legal", match, "--as", "Ben", ok=True)
    pbd("hand", match, "--as", "Ben", ok=True)
    assert checked == []                                     # never twice
    assert match.read_bytes() == before


def test_a_verify_key_that_is_another_seats_or_not_a_valid_point_is_refused(pbd, tmp_path, monkeypatch):
    import base64

    from pbd import signing

    for bad, words in ((None, "Cy's signing key is Ann's: refused"),
                       (base64.urlsafe_b64encode(b"\x01" + bytes(31)).rstrip(b"=").decode(),
                        "Cy's signing key is not a valid Ed25519 public key")):
        folder = tmp_path / ("same" if bad is None else "small")
        folder.mkdir()
        doc = folder / "m.txt"
        pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--seed", "ann", ok=True)
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
        real = signing.verify_key
        key = bad or real(private.load(mid(doc), "Ann").seed, mid(doc))
        with monkeypatch.context() as m:                       # Cy's modified pbd commits that key
            m.setattr(signing, "verify_key", lambda seed, match_id: key)
            pbd("join", doc, "--as", "Cy", "--seed", "cy", ok=True)
        before = doc.read_bytes()
        result = pbd("hand", doc, "--as", "Ann")
        assert result.exit_code == 3 and words in result.output, result.output
        assert doc.read_bytes() == before
        assert pbd("show", doc).exit_code == 3


def test_a_match_an_older_pbd_started_is_played_on_unsigned(pbd, tmp_path, monkeypatch):
    """Our choice for old documents: a match whose first entry commits no key (an older pbd started it) is
    carried on with no signatures (the MACs and the seats' private records check it as before)."""
    from pbd import signing
    from pbd.games.tower import GAME

    doc = tmp_path / "m.txt"
    with monkeypatch.context() as m:                            # the older pbd: no key, no signature
        m.setattr(signing, "verify_key", lambda seed, match_id: "")
        m.setattr(signing, "sign", lambda *a: "")
        pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--seed", "ann", ok=True)
    assert " key " not in doc.read_text() and " sig " not in doc.read_text()
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    pbd("join", doc, "--as", "Cy", "--seed", "cy", ok=True)
    _play(pbd, doc, 4)
    meta = GAME.parse(doc.read_text()).meta
    assert len(meta.log) > 4 and not any(e.key or e.sig for e in meta.log)
    assert pbd("log", doc, ok=True).output.count("log chain: intact")


def test_in_a_signed_match_a_seat_whose_pbd_commits_no_key_is_refused(pbd, tmp_path, monkeypatch):
    from pbd import signing

    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--seed", "ann", ok=True)
    with monkeypatch.context() as m:                            # Ben runs the older pbd
        m.setattr(signing, "verify_key", lambda seed, match_id: "")
        m.setattr(signing, "sign", lambda *a: "")
        pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    before = doc.read_bytes()
    result = pbd("hand", doc, "--as", "Ann")
    assert result.exit_code == 3, result.output
    assert ("log entry 2: Ben's first entry commits no signing key, so Ben's pbd is older than this one"
            in result.output)
    from pbd import __version__

    assert f"(pbd {__version__}, which signs every entry)" in result.output
    assert "Ben must update pbd, and the match be started again" in result.output
    assert doc.read_bytes() == before


def test_pbd_log_and_audit_name_the_entry_whose_signature_fails(pbd, tmp_path):
    from tower_helpers import start

    from pbd.games.tower import GAME

    doc = start(pbd, tmp_path, 3)
    n = forge_in_name(doc, GAME, "Ben", "passes", private.load(mid(doc), "Cy").seed)
    result = pbd("log", doc)
    assert "log chain: BROKEN" in result.output
    assert f"log entry {n} is written in Ben's name but Ben's key did not sign it" in result.output
    result = pbd("audit", doc)
    assert result.exit_code == 1 and f"log entry {n} is written in Ben's name but Ben's key did not sign it" in \
        result.output


def test_a_joiner_checks_every_signature_in_the_document_before_it_joins(pbd, tmp_path):
    from pbd.games.tower import GAME

    doc = tmp_path / "m.txt"
    pbd("new", "tower", doc, "--as", "Ann", "--players", 3, "--seed", "ann", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    n = forge_in_name(doc, GAME, "Ben", "passes", os.urandom(32))     # an intruder's key
    before = doc.read_bytes()
    result = pbd("join", doc, "--as", "Cy", "--seed", "cy")
    assert result.exit_code == 3, result.output
    assert f"log entry {n} is written in Ben's name but Ben's key did not sign it" in result.output
    assert doc.read_bytes() == before


def test_an_entry_in_bens_name_with_its_signature_left_out_is_refused_too(pbd, tmp_path):
    import re

    from tower_helpers import start

    from pbd.games.tower import GAME

    doc = start(pbd, tmp_path, 3)
    n = forge_in_name(doc, GAME, "Ben", "passes", private.load(mid(doc), "Cy").seed)
    doc.write_text(re.sub(r" · sig [\w-]{86}$", "", doc.read_text(), flags=re.M))   # no signature at all
    for args in (("hand", doc, "--as", "Ann"), ("show", doc)):
        out = refused_by(_cli(pbd), doc, n, *args)
        assert f"log entry {n} is written in Ben's name" in out and "(its signature is missing)" in out
