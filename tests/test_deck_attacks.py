"""Issue 25: attacks on the shared deck by a seat running a modified pbd, in every game dealt from it.

The modified pbd is pbd itself with one function replaced, run as a subprocess, exactly as a
player who edited their copy of pbd would run it.  The honest seats run this pbd; each attack
must be refused by every honest seat on its next command (exit 3, naming the seat and the
pass), before that seat's pbd removes a lock or shows a card — the document is left unchanged.

1. **The last seat's oracle pass.**  The last seat to shuffle writes, into a slot of its pass,
   the sum of two other slots' numbers and puts the difference into a fourth slot, so the sum
   of the pile (what the previous pbd's product proof covered) is unchanged.  Unlocked "as its
   card", that slot would tell the cheater which two cards the others hold.
2. **A key that locks nothing.**  A seat whose pass uses the key 1: its public key is the
   group's generator, its proof is valid, and its "lock" does nothing.
3. **A pass that is not a shuffle, with a proof made for it.**  The modified pbd runs the real
   prover on inputs it bent — a foreign number swapped in for a card, a card copied over
   another, a card dropped for a fresh number — or locks with another key than the one it
   publishes, and writes what comes out; or it writes an honest pass whose proof has one
   point or one scalar changed.  The Bayer–Groth argument holds the pass to its real inputs
   and its published key, so every one is refused.
4. **A wrong unlock in a batch.**  The unlocks one seat writes in one command share one
   batched proof; the modified pbd writes one of them wrong and proves the batch as it wrote it:
   the batch fails as a whole, naming the seat.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

ORACLE = """
from pbd.table import deck as D, group
honest = D.SharedDeck._pass
def cheating_pass(self, gen, seat, secret):
    honest(self, gen, seat, secret)
    if secret is None:
        return
    p = gen.passes[-1]
    name = next(n for n, (values, _) in p.piles.items() if len(values) >= 4)
    values, proof = p.piles[name]
    a, b, c, d = values[:4]
    values = [group.add(b, c), b, c, group.sub(group.add(a, d), group.add(b, c))] + values[4:]
    p.piles[name] = (values, proof)
    for i, v in zip(gen.piles[name], values):
        self.slots[i].value = self.slots[i].base = v
D.SharedDeck._pass = cheating_pass
"""

NO_LOCK = """
from pbd.table import deck as D
D.SharedDeck.key = lambda self, secret, gen: 1
"""

BENT = """
from pbd.table import deck as D, group, shuffle as S
real = S.prove
def bent_prove(k, xs, perm, context, sizes=None):
    return real(%s, %s, perm, context, sizes)
D.proofs.prove = bent_prove
"""
#: the prover run on inputs bent (a foreign number, a card twice, a card dropped) or with another key
FOREIGN = BENT % ("k", "[group.code('foreign')] + xs[1:]")
COPIED = BENT % ("k", "[xs[0], xs[0]] + xs[2:]")
DROPPED = BENT % ("k", "xs[:-1] + [group.hash_to_group('a number nobody can unlock')]")
OTHER_KEY = BENT % ("k + 1", "xs")

TAMPERED = """
from pbd.table import deck as D, group, shuffle as S
real = S.prove
def tampered_prove(k, xs, perm, context, sizes=None):
    ys, proof = real(k, xs, perm, context, sizes)
    points, scalars = list(proof.points), list(proof.scalars)
    %s
    return ys, S.ShuffleProof(points, scalars)
D.proofs.prove = tampered_prove
"""
TAMPERED_POINT = TAMPERED % "points[len(points) // 2] = group.add(points[len(points) // 2], group.G)"
TAMPERED_SCALAR = TAMPERED % "scalars[-1] = (scalars[-1] + 1) % group.L"

#: a wrong unlock inside a batch: the cheater's pbd writes, for the second card it unlocks in its write, a number
#: that is not that card with its lock removed, and runs the honest batch prover over what it wrote
FORGED_IN_BATCH = """
from pbd.table import deck as D, group
honest = D.SharedDeck._unlock
def cheating_unlock(self, slot, seat, secret):
    honest(self, slot, seat, secret)
    done = [s for s in self.slots.values() if s.steps and s.steps[-1].seat == seat and s.steps[-1].stamp == self.clock]
    if secret is None or len(done) != 2:
        return
    if slot.card is None:
        slot.steps[-1].value = slot.value = group.add(slot.value, group.G)
    else:                                   # its last lock: the card it shows is another one
        other = slot.index % len(self.cards) + 1
        slot.steps[-1].value = slot.value = self.code(other)
        self._face_up(slot, other)
D.SharedDeck._unlock = cheating_unlock
"""

RUN = "\nimport sys\nfrom pbd.cli import main\nsys.argv = ['pbd'] + sys.argv[1:]\nmain()\n"

#: game, the seats in joining order (the last one cheats), extra options of `new`
GAMES = [("tower", ["Ann", "Ben", "Cy"]), ("boystown", ["Ann", "Ben", "Cy"]), ("2xd6", ["Ann", "Ben", "Cy"]),
         ("ttc", ["Lia", "Max"]), ("highcard", ["Ann", "Ben", "Cy"])]


@pytest.fixture
def site(highcard_site):
    """A scratch site folder with examples/highcard installed (the plugin game)."""
    return highcard_site


def run(site, tmp_path, seat, *args, patch: str = ""):
    """Run pbd (modified by ``patch`` when given) as ``seat``, with that seat's own PBD_HOME."""
    env = {**os.environ, "PYTHONPATH": str(site), "PBD_HOME": str(tmp_path / f"home-{seat}")}
    command = [sys.executable, "-c", patch + RUN] if patch else [sys.executable, "-m", "pbd"]
    return subprocess.run([*command, *map(str, args), "--as", seat], cwd=tmp_path, env=env,
                          capture_output=True, text=True)


def seat_table(site, tmp_path, game, seats, patch):
    """Ann starts, the others join in order; the last joins with the modified pbd.

    The honest part (``new`` and the joins before the last) is set up once a run and copied: seeds given."""
    from conftest import copy_of_folder

    players = ["--players", len(seats)] if game != "ttc" else ["--deck", "sample"]

    def build(folder):
        done = run(site, folder, seats[0], "new", game, folder / "m.txt", *players, "--seed", seats[0])
        assert done.returncode == 0, done.stderr
        for seat in seats[1:-1]:
            done = run(site, folder, seat, "join", folder / "m.txt", "--seed", seat)
            assert done.returncode == 0, (seat, done.stderr)

    copy_of_folder(("deck attacks", game, tuple(seats)), tmp_path, build)
    doc = tmp_path / "m.txt"
    done = run(site, tmp_path, seats[-1], "join", doc, "--seed", seats[-1], patch=patch)
    assert done.returncode == 0, (seats[-1], done.stderr)
    return doc


CASES = [pytest.param(game, seats, attack, words, id=f"{name}-{game}",
                      # the default run plays the attack on every game; the other pass forgeries, which
                      # tests/test_shuffle_argument.py refuses at the proof, play through the CLI with -m long
                      marks=() if attack is ORACLE else pytest.mark.long)
         for game, seats in GAMES
         for name, attack, words in (("oracle-pass", ORACLE, "shuffle pass of .* carries no valid proof"),
                                     ("key-that-locks-nothing", NO_LOCK,
                                      "public key is refused: it is the group's generator"),
                                     ("foreign-number", FOREIGN, "shuffle pass of .* carries no valid proof"),
                                     ("card-copied", COPIED, "shuffle pass of .* carries no valid proof"),
                                     ("card-dropped", DROPPED, "shuffle pass of .* carries no valid proof"),
                                     ("another-key", OTHER_KEY, "shuffle pass of .* carries no valid proof"),
                                     ("proof-point-changed", TAMPERED_POINT, "shuffle pass of .* carries no valid proof"),
                                     ("proof-scalar-changed", TAMPERED_SCALAR,
                                      "shuffle pass of .* carries no valid proof"))]


@pytest.mark.parametrize("game,seats,attack,words", CASES)
def test_every_honest_seat_refuses_a_cheating_pass_before_it_unlocks_anything(site, tmp_path, game, seats, attack,
                                                                             words):
    doc = seat_table(site, tmp_path, game, seats, attack)
    cheater = seats[-1]
    for seat in seats[:-1]:
        before = doc.read_bytes()
        done = run(site, tmp_path, seat, "hand", doc)
        assert done.returncode == 3, (seat, done.stdout, done.stderr)
        message = done.stderr + done.stdout
        assert cheater in message and "generation 1" in message, message
        assert re.search(words, message), message
        assert doc.read_bytes() == before           # no unlock written: no card shown to anyone


@pytest.mark.parametrize("game,seats", [pytest.param(game, seats, id=game, marks=() if game in ("tower", "ttc") else
                                                     pytest.mark.long) for game, seats in GAMES])
def test_a_wrong_unlock_in_a_batch_fails_the_whole_batch_and_names_the_seat(site, tmp_path, game, seats):
    """Issue 25: one seat's unlocks of one write share one proof; one wrong unlock among them fails them all."""
    doc = seat_table(site, tmp_path, game, seats, FORGED_IN_BATCH)
    cheater = seats[-1]
    if game == "highcard":                  # nothing is dealt at the join: Ann and Ben each draw a card face up,
        for seat in seats[:-1]:             # and the cheater's next command unlocks both in one write
            assert run(site, tmp_path, seat, "move", doc, "draw").returncode == 0
        assert run(site, tmp_path, cheater, "status", doc, patch=FORGED_IN_BATCH).returncode == 0
    for seat in seats[:-1]:
        before = doc.read_bytes()
        done = run(site, tmp_path, seat, "hand", doc)
        assert done.returncode == 3, (seat, done.stdout, done.stderr)
        message = done.stderr + done.stdout
        assert re.search(rf"slots [\d ,-]+: {cheater}'s unlocks( \(.*?\))?, proven together, carry no valid proof", message), message
        assert doc.read_bytes() == before           # nothing unlocked on top of it: no card shown


@pytest.mark.parametrize("version,words", [("v3", r"earlier pbd \(0\.3: deck format v3, whose shuffle proofs are Bayer–Groth's"),
                                           pytest.param("v2", r"earlier pbd \(0\.2: deck format v2, whose shuffle proofs are "
                                                        "Terelius–Wikström's", marks=pytest.mark.long),
                                           pytest.param("", r"earlier pbd \(0\.1\)", marks=pytest.mark.long)])
def test_a_deck_dealt_by_an_earlier_pbd_is_refused_naming_its_version(site, tmp_path, version, words):
    """Issue 25 (old documents): a v3 deck (Bayer–Groth proofs), a v2 deck (Terelius–Wikström proofs) or a v1 deck is
    refused, the document kept."""
    doc = seat_table(site, tmp_path, "tower", ["Ann", "Ben"], "")
    text = doc.read_text()
    assert re.search(r"deck \S+ v4 · seats", text)
    doc.write_text(re.sub(r"(deck \S+) v4 · seats", lambda m: f"{m.group(1)}{' ' + version if version else ''} · seats",
                          text))
    before = doc.read_bytes()
    for seat in ("Ann", "Ben"):
        done = run(site, tmp_path, seat, "hand", doc)
        assert done.returncode == 3, (done.stdout, done.stderr)
        assert re.search(words, done.stderr) and "start a new match" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert doc.read_bytes() == before
