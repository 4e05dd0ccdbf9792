"""Boys' Town hand edits (issue 10 item 9): a Town card the log does not explain is named by every command.

Before every seat has revealed, Boys' Town replays the public part of its log for the check: a card a
move names is read from the document's deck (it ended face up there), hidden hands only by their count.
An honest random sequence of moves raises no warning; Ben's hand edit of Ann's Town is named by Ann's
next read (a warning) and refuses her move (exit 3, the document unchanged).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boystown_helpers import QUICK

WARN = "by hand"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 2-seat quick match, 14 honest random moves in, every command's stderr kept: (doc, home, stderrs)."""
    from conftest import Pbd

    base = tmp_path_factory.mktemp("handedits")
    mp = pytest.MonkeyPatch()
    mp.setenv("PBD_HOME", str(base / "pbd-home"))
    pbd, doc, rng, errs = Pbd(), base / "match.txt", random.Random(5), []
    (base / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", base / "quick.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    for _ in range(14):
        data = pbd.json("show", doc)
        who = data["to_move"][0]
        r = pbd("legal", doc, "--as", who, "--json")
        errs.append(r.stderr)
        import json

        moves = json.loads(r.stdout)["moves"]
        if moves:
            r = pbd("move", doc, "--as", who, rng.choice(moves), ok=True)
            errs.append(r.stderr)
        for seat in ("Ann", "Ben"):
            errs.append(pbd("hand", doc, "--as", seat, ok=True).stderr)
    yield doc, base / "pbd-home", errs
    mp.undo()


@pytest.fixture
def match_doc(played, monkeypatch, tmp_path):
    import shutil

    from conftest import moved_registry

    doc, home, _ = played
    own = tmp_path / "pbd-home"
    shutil.copytree(home, own, dirs_exist_ok=True)
    monkeypatch.setenv("PBD_HOME", str(own))
    copy = tmp_path / "match.txt"
    copy.write_text(doc.read_text())
    moved_registry(own, doc, copy)
    return copy


def _checked_up_to_date(doc, seats) -> None:
    """Assert every seat's pbd has checked the board up to its last log entry (the check did run, and found nothing)."""
    from pbd import handedits, private
    from pbd.games.boystown import GAME

    state = GAME.parse(doc.read_text())
    for seat in seats:
        rec = private.load(state.meta.match_id, seat).extra.get(handedits.KEY)
        assert rec and rec["n"] == len(state.meta.log), (seat, rec and rec["n"], len(state.meta.log))


def test_an_honest_sequence_of_moves_raises_no_warning(played, monkeypatch):
    doc, home, errs = played
    assert not [e for e in errs if WARN in e], errs
    monkeypatch.setenv("PBD_HOME", str(home))
    _checked_up_to_date(doc, ["Ann", "Ben"])


@pytest.mark.long
@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3)])
def test_an_honest_whole_match_raises_no_warning(pbd, tmp_path, players, seed):
    """Whole matches (discard piles reshuffled, their cards gone from the document): checked to the last entry."""
    import json

    from boystown_helpers import NAMES

    doc, rng = tmp_path / "match.txt", random.Random(seed)
    (tmp_path / "quick.toml").write_text(QUICK)
    pbd("new", "boystown", doc, "--as", "Ann", "--players", players, "--seed", "ann", "--deck", tmp_path / "quick.toml",
        ok=True)
    for name in NAMES[1:players]:
        pbd("join", doc, "--as", name, "--seed", name.lower(), ok=True)
    for _ in range(600):
        data = pbd.json("show", doc)
        if data["result"]:
            break
        who = data["to_move"][0]
        r = pbd("legal", doc, "--as", who, "--json")
        assert WARN not in r.stderr, r.stderr
        moves = json.loads(r.stdout)["moves"]
        if moves:
            r = pbd("move", doc, "--as", who, rng.choice(moves), ok=True)
            assert WARN not in r.stderr, r.stderr
    assert "reshuffled" in doc.read_text() or "rebuilt" in doc.read_text()
    for seat in NAMES[:players]:
        assert WARN not in pbd("hand", doc, "--as", seat, ok=True).stderr
    _checked_up_to_date(doc, NAMES[:players])


def _edit(doc, old: str, new: str) -> None:
    text = doc.read_text()
    assert old in text, text
    doc.write_text(text.replace(old, new, 1))


def _first_resident(doc, seat: str) -> str:
    lines = doc.read_text().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{seat} · hand"))
    assert lines[start + 1].startswith("  "), "Ann has built nothing in this match"
    return lines[start + 1]


def _town_edit(doc, how: str) -> str:
    """Ben's hand edit of Ann's first Town card (removed, another added, renamed, its AP raised); return the words
    named."""
    line = _first_resident(doc, "Ann")
    name = line.strip().split(" (#")[0]
    other = "Brawler" if name != "Brawler" else "Shopkeeper"
    ap = int(line.split("· AP ")[1].split(" ")[0])
    new, words = {"removed": ("", f"Ann's town lost {name} by hand"),
                  "added": (f"{line}\n  {other} (#99) · AP 1 · TP 1", "Ann's town"),
                  "renamed": (line.replace(name, other, 1), "Ann's town"),
                  "AP": (line.replace(f"· AP {ap} ", f"· AP {ap + 5} ", 1),
                         f"Ann's {name}'s AP was changed by hand from {ap} to {ap + 5}")}[how]
    _edit(doc, line + "\n", new + "\n" if new else "")
    return words


def _count_edit(doc, how: str) -> str:
    """Ben's hand edit of a count: Ann's hand, the discard pile, its top card; return the words named."""
    text = doc.read_text()
    if how == "hand":
        n = int(text.split("Ann · hand ")[1].split(" ")[0])
        _edit(doc, f"Ann · hand {n} ", f"Ann · hand {n + 1} ")
        return f"Ann's hand count was changed by hand from {n} to {n + 1}"
    n = int(text.split("Discard pile: ")[1].split(" ")[0])
    if how == "discard":
        _edit(doc, f"Discard pile: {n}", f"Discard pile: {n + 2}")
        return f"discard pile was changed by hand from {n} to {n + 2}"
    top = text.split("(top: ")[1].split(")")[0]
    other = "Brawler" if top != "Brawler" else "Shopkeeper"
    _edit(doc, f"(top: {top})", f"(top: {other})")
    return f"discard top was changed by hand from {top} to {other}"


@pytest.mark.parametrize("how", ["removed", "added", "renamed", "AP", "hand", "discard", "top"])
def test_ben_edits_the_board_and_every_command_of_ann_names_it(pbd, match_doc, how):
    words = _town_edit(match_doc, how) if how in ("removed", "added", "renamed", "AP") else _count_edit(match_doc, how)
    before = match_doc.read_bytes()
    for args in (("hand", match_doc, "--as", "Ann"), ("show", match_doc), ("legal", match_doc, "--as", "Ann")):
        r = pbd(*args)
        assert r.exit_code == 0, (args, r.output)
        assert words in r.stderr and WARN in r.stderr, (args, r.stderr)
        assert WARN not in r.stdout
    who = pbd.json("show", match_doc)["to_move"][0]
    r = pbd("move", match_doc, "--as", "Ann", "end turn" if who == "Ann" else "draw")
    assert r.exit_code == 3, r.output
    assert "the log does not explain" in r.stderr and words in r.stderr, r.stderr
    assert match_doc.read_bytes() == before


#: A plain catalogue (no Builders, so a match lasts until the draw pile is rebuilt from the discards): twelve
#: one-copy cards and twelve copies of a Kid (a card a move names is one card id, or one of several copies).
LONG = '[catalogue]\nname = "long"\n\n[[card]]\nname = "Kid"\nap = 2\ntp = 2\ncopies = 12\n' + "".join(
    f'\n[[card]]\nname = "{name}"\nap = {1 + i % 3}\ntp = {3 - i % 3}\n'
    for i, name in enumerate("Ace Bea Cal Dot Eli Fay Gus Hal Ida Jay Lou Max".split()))


def _vouched_then_names_a_turns_edit(pbd, doc, tmp_path, seat: str) -> None:
    """A spectator's ``pbd check`` of ``doc`` vouches for it; of a copy with ``seat``'s turns raised by one, names the edit."""
    import re

    text = doc.read_text()
    r = pbd("check", doc)
    assert r.exit_code == 0 and "the board is consistent with the rules" in r.output, r.output
    m = re.search(rf"{seat} · hand (\d+) · turns (\d+)", text)
    turns = int(m.group(2))
    edited = tmp_path / "edited.txt"
    edited.write_text(text.replace(m.group(0), f"{seat} · hand {m.group(1)} · turns {turns + 1}", 1))
    r = pbd("check", edited)
    assert r.exit_code == 1 and f"{seat}'s turns was changed by hand from {turns} to {turns + 1}" in r.output, r.output


def test_a_spectators_check_replays_through_cards_the_rebuilt_draw_pile_took_out_of_the_document(pbd, tmp_path,
                                                                                                  monkeypatch):
    """A card a redraw or a defence named and that was then shuffled into a rebuilt draw pile leaves the document;
    a spectator's ``pbd check`` replays the log from the start, where such a hidden card reads as the log named it
    (``rules.named``): the replay reaches the end and names a hand edit (about 30 moves of a small deck, ~2 s)."""
    import re

    (tmp_path / "long.toml").write_text(LONG)
    doc = tmp_path / "m.txt"
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", tmp_path / "long.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    rng, moved, rebuilt_at = random.Random(1), 0, None
    while rebuilt_at is None or moved < rebuilt_at + 4:
        assert moved < 80
        data = pbd.json("show", doc)
        assert not data["result"]
        if rebuilt_at is None and "rebuilt" in doc.read_text():
            rebuilt_at = moved
        who = data["to_move"][0]
        moves = pbd.json("legal", doc, "--as", who)["moves"]
        if moves:       # redraws name the cards they discard; no hand attack (its flip names a slot)
            pick = [m for m in moves if m == "redraw" or m.endswith("from town")] or \
                   [m for m in moves if not m.endswith("from hand")]
            pbd("move", doc, "--as", who, rng.choice(pick), ok=True)
            moved += 1
    for seat in ("Ann", "Ben"):
        pbd("hand", doc, "--as", seat, ok=True)
    text = doc.read_text()
    assert "draw pile rebuilt from" in text and re.search(r"discards \w+ and draws again", text)
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    pbd("deck", "check", tmp_path / "long.toml", "--game", "boystown", ok=True)
    _vouched_then_names_a_turns_edit(pbd, doc, tmp_path, "Ann")


#: Twelve Kids and twelve Shops: a card a move names is one of twelve copies, most of them hidden from a spectator.
KIDS_AND_SHOPS = ('[catalogue]\nname = "kids-and-shops"\n\n[[card]]\nname = "Kid"\nap = 2\ntp = 1\ncopies = 12\n'
                  '\n[[card]]\nname = "Shop"\nap = 1\ntp = 3\ncopies = 12\n')

#: A 2-seat match of KIDS_AND_SHOPS (``--seed ann`` / ``ben``), moves found with ``random.Random(1)`` among redraws,
#: hand attacks and defences: Ben's Kid built in entry 36 is a hidden card of his hand (the Kid of his Town was his
#: defence in entry 26, as far as the document shows), his attack of entry 38 flips slot 2 (entry 41), and the draw
#: pile is rebuilt from the discards (entry 67), which takes every card of those battles out of the document.
HAND_ATTACKS = [("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Kid"), ("Ben", "draw"), ("Ben", "redraw"),
                ("Ben", "build Kid"), ("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Shop"),
                ("Ann", "attack Ben with Shop from hand"), ("Ben", "defend with Kid"), ("Ben", "draw"),
                ("Ben", "redraw"), ("Ben", "build Kid"), ("Ben", "attack Ann with Shop from hand"),
                ("Ann", "defend with Kid"), ("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Shop"),
                ("Ann", "attack Ben with Kid from hand"), ("Ben", "defend with Shop"), ("Ben", "draw"),
                ("Ben", "redraw"), ("Ben", "build Shop"), ("Ben", "attack Ann with Shop from hand"),
                ("Ann", "defend with Kid"), ("Ann", "draw")]

#: The same recipe with ``random.Random(8)``, played to the end of the match: when Ben defends with a Kid (entry 50)
#: the spectator reads two Kids in his hand (slots 8 and 15, face up in the document at the end), and his attack of
#: entry 62 flips slot 8: the defence must be played from the other copy.
WHOLE_MATCH = [("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Kid"), ("Ben", "draw"), ("Ben", "redraw"),
               ("Ben", "build Shop"), ("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Shop"),
               ("Ann", "attack Ben with Shop from hand"), ("Ben", "defend with Shop"), ("Ben", "draw"),
               ("Ben", "redraw"), ("Ben", "build Shop"), ("Ben", "attack Ann with Kid from hand"),
               ("Ann", "defend with Kid"), ("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Kid"),
               ("Ann", "attack Ben with Shop from hand"), ("Ben", "defend with Kid"), ("Ben", "draw"),
               ("Ben", "redraw"), ("Ben", "build Shop"), ("Ben", "attack Ann with Kid from hand"),
               ("Ann", "defend with Kid"), ("Ann", "draw"), ("Ann", "redraw"), ("Ann", "build Kid"),
               ("Ann", "attack Ben with Shop from hand"), ("Ben", "defend with Kid"), ("Ben", "draw"),
               ("Ben", "redraw"), ("Ben", "build Kid")]


def _kids_and_shops(tmp_path_factory, script: list[tuple[str, str]]) -> tuple[str, object]:
    """Play ``script`` on a 2-seat KIDS_AND_SHOPS match, every seat's owed work done: (document text, catalogue)."""
    from boystown_helpers import catch_up
    from conftest import Pbd

    base = tmp_path_factory.mktemp("kids-and-shops")
    mp = pytest.MonkeyPatch()
    mp.setenv("PBD_HOME", str(base / "pbd-home"))
    pbd, doc = Pbd(), base / "m.txt"
    (base / "kids.toml").write_text(KIDS_AND_SHOPS)
    pbd("new", "boystown", doc, "--as", "Ann", "--seed", "ann", "--deck", base / "kids.toml", ok=True)
    pbd("join", doc, "--as", "Ben", "--seed", "ben", ok=True)
    for who, move in script:
        catch_up(doc)          # every seat's pbd does the work it owes (unlocks, shuffle passes, a flip)
        pbd("move", doc, "--as", who, move, ok=True)
    catch_up(doc)
    mp.undo()
    return doc.read_text(), base / "kids.toml"


@pytest.fixture(scope="module")
def hand_attacks(tmp_path_factory):
    """The match of :data:`HAND_ATTACKS`: (document text, catalogue file)."""
    return _kids_and_shops(tmp_path_factory, HAND_ATTACKS)


@pytest.fixture(scope="module")
def whole_match(tmp_path_factory):
    """The match of :data:`WHOLE_MATCH`, over: (document text, catalogue file)."""
    return _kids_and_shops(tmp_path_factory, WHOLE_MATCH)


@pytest.mark.parametrize("played,flip", [("hand_attacks", "Ben: flips Shop (slot 2 · "),
                                         ("whole_match", "Ben: flips Kid (slot 8 · ")], ids=["rebuilt", "over"])
def test_a_spectators_check_replays_a_hand_attack_whose_hand_lost_named_cards_to_a_rebuilt_pile(pbd, tmp_path,
                                                                                                  monkeypatch,
                                                                                                  request, played,
                                                                                                  flip):
    """A spectator's ``pbd check`` (no seat, no seed: a replay from the start) reads a card a move names in a hidden
    hand as one of that hand's slots (hidden, or read from the document's end); a later flip opens a slot by number,
    so the replay must not have spent that slot on an earlier named card, nor played another copy than the one it
    took: it replays the whole log, vouches for the board and names a later hand edit (~2 s of CPU each)."""
    text, catalogue = request.getfixturevalue(played)
    assert flip in text and "draw pile rebuilt from" in text
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    pbd("deck", "check", catalogue, "--game", "boystown", ok=True)
    doc = tmp_path / "m.txt"
    doc.write_text(text)
    _vouched_then_names_a_turns_edit(pbd, doc, tmp_path, "Ben")


def test_a_spectators_check_says_where_the_log_stops_replaying(pbd, tmp_path, monkeypatch, hand_attacks):
    """A log whose replay stops short (here Ben's flip forged to open a slot of Ann's Town, which no honest pbd
    writes) is never vouched for in silence: ``pbd check`` names the entry it cannot replay past and says the board
    is checked only up to there (exit 1, a problem found); the document is left as it was."""
    import re

    text, catalogue = hand_attacks
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    pbd("deck", "check", catalogue, "--game", "boystown", ok=True)
    ann_town = re.search(r"Ann · hand \d+ · turns \d+\n  \w+ \(#(\d+)\)", text).group(1)
    assert "Ben: flips Shop (slot 2 · " in text and ann_town != "2"
    doc = tmp_path / "forged.txt"
    doc.write_text(text.replace("Ben: flips Shop (slot 2 · ", f"Ben: flips Shop (slot {ann_town} · ", 1))
    before = doc.read_bytes()
    attack = re.search(r"(\d+)\. Ben: attack Ann from hand — ", text).group(1)
    r = pbd("check", doc)
    assert r.exit_code == 1, r.output
    assert "the board is consistent" not in r.output
    assert (f"log entry {attack}: cannot replay past this entry (the flip the log shows for this attack opens slot "
            f"{ann_town}, which is not in Ben's hand): the board is checked against its log only up to there") \
        in r.output, r.output
    assert doc.read_bytes() == before
    r = pbd("check", doc, "--json")
    assert r.exit_code == 1 and f"log entry {attack}: cannot replay past this entry" in r.output, r.output


def test_a_spectators_check_of_an_honest_match_whose_opened_card_left_the_document_is_a_note(pbd, tmp_path,
                                                                                             monkeypatch):
    """A soaked 6-seat match (benchmarks/soak.py, seed 0): its log opens slot 33, whose card was shuffled out of
    the document since.  A replay without the seeds cannot go past that entry; honest play leads there, so
    ``pbd check`` says the board is consistent as far as its log replays and names the entry (exit 0), where it
    reported a problem (exit 1) — and before that, vouched for the whole board in silence."""
    import json
    import shutil

    monkeypatch.setenv("PBD_HOME", str(tmp_path / "spectator"))
    doc = tmp_path / "match.txt"
    shutil.copy(Path(__file__).parent / "data" / "boystown" / "six-seats-a-card-out-of-sight.txt", doc)
    before = doc.read_bytes()
    r = pbd("check", doc)
    assert r.exit_code == 0, r.output
    assert "the board is consistent with the rules as far as its log replays without the players' seeds:" in r.output
    assert ("not checked past log entry 76: cannot replay past this entry (the log turns slot 33 face up, but the "
            "document's deck does not show its card): that card has left the document since") in r.output, r.output
    assert "pbd audit DOC replays the whole log once every player has revealed" in r.output
    data = json.loads(pbd("check", doc, "--json").output)
    assert data["problems"] == [] and len(data["not_checked"]) == 1 and "log entry 76" in data["not_checked"][0]
    assert doc.read_bytes() == before
