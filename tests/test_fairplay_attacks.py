"""Issue 9: each attack by a player running a modified pbd, carried out as that player would.

A "modified player" here edits the shared document (and, where the attack needs it, their own
private state) exactly the way the attack did, with everything a forger can compute: they know
the recipe of every hash, their own seed (so their own MACs), never the victim's seed.  Each test
then says when the honest pbd catches it: on the victim's next command (exit 3, document left
alone) or at ``pbd audit`` once the seeds are revealed (exit 1).
"""

from __future__ import annotations

import hashlib
import re

import pytest
from layout_helpers import log_lines, whole

from pbd import fairplay, private
from pbd.games.base import REVEAL_TEXT, Chance, Reveal, log_genesis
from pbd.games.cnc import GAME
from pbd.games.cnc.deck import load_cnc_deck


def mid(doc) -> str:
    return re.search(r"pbd match (\w+)", doc.read_text()).group(1)


def forge(doc, change, signer: str | None = None):
    """Rewrite ``doc`` as a modified pbd would: ``change(state)`` edits the parsed match, then the
    last entry's seal, the forger's own MACs and every hash are recomputed (the others' MACs cannot be)."""
    state = GAME.parse(doc.read_text())
    change(state)
    meta = state.meta
    seed = private.load(meta.match_id, signer).seed if signer else None
    previous = log_genesis(meta.match_id)
    for i, e in enumerate(meta.log):
        e.fresh = False
        if i == len(meta.log) - 1:
            e.seal = fairplay.seal(meta.section_lines())
        if seed is not None and e.player == signer:
            e.mac = fairplay.entry_mac(seed, previous, f"{e.body()} · seal {e.seal}")
        e.hash = fairplay.log_link(previous, e.line())
        previous = e.hash
    doc.write_text(GAME.render(state))
    return doc.read_text()


def refused(pbd, doc, *args, words=()):
    """Run a victim's command: it must stop with exit 3, name every word, and leave the document alone."""
    before = doc.read_bytes()
    result = pbd(*args)
    assert result.exit_code == 3, result.output
    for w in words:
        assert re.search(w, result.output), (w, result.output)
    assert doc.read_bytes() == before
    return result.output


def audit_fails(pbd, doc, *words):
    result = pbd("audit", doc)
    assert result.exit_code == 1, result.output
    for w in words:
        assert re.search(w, result.output), (w, result.output)
    return result.output


def turns(pbd, doc, n):
    """Play ``n`` turns of nothing but 'end turn', each by the player to move."""
    for _ in range(n):
        who = re.search(r"Turn \d+: (\w+) to move", doc.read_text()).group(1)
        pbd("move", doc, "--as", who, "end turn", ok=True)


# -- 1. commitment swapped after the fact ---------------------------------------------------

def _rares_first(sec):
    """The attacker's new deck order: the best remaining cards at every position already drawn."""
    cat = GAME.catalogue
    deck = list(sec.deck)
    best = [i for i in range(len(deck)) if i + 1 not in sec.drawn and cat.get(deck[i]).rarity == "Rare"]
    drawn = [p for p in sorted(sec.drawn) if cat.get(deck[p - 1]).rarity != "Rare"]
    for pos, i in zip(drawn, best):
        deck[pos - 1], deck[i] = deck[i], deck[pos - 1]
    return deck if deck != sec.deck else deck[::-1]


def test_1_a_commitment_swapped_after_the_fact_is_refused_by_the_victims_next_command(pbd, match):
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    sec = private.load(mid(match), "Ann")
    deck = _rares_first(sec)
    forged = fairplay.commitment(sec.seed, [*deck, "Porter: The Porter"])

    def swap(state):
        old = state.meta.player("Ann").commitment
        state.meta.player("Ann").commitment = forged
        entry = state.meta.commit_entry("Ann")
        entry.commit = (forged, entry.commit[1])
        assert old != forged

    forge(match, swap, signer="Ann")
    sec.deck = deck
    private.save(sec)                           # Ann's modified pbd now draws from the new order
    refused(pbd, match, "move", match, "--as", "Ann", "end turn", words=["Ann's commitment changed"])
    # Ben's pbd first saw the old commitment: it refuses, naming Ann and the field
    refused(pbd, match, "hand", match, "--as", "Ben", words=["Ann's commitment changed since this pbd first saw it",
                                                            "log entry 2 that Ben's pbd wrote"])
    audit_fails(pbd, match, "Ann's commitment changed since this pbd first saw it")


# -- 2. draws chosen by burning free rolls --------------------------------------------------

def test_2_free_rolls_do_not_move_the_next_draw(pbd, match):
    sec = private.load(mid(match), "Ann")
    state = GAME.parse(match.read_text())
    chance = Chance(state.meta, {"Ann": sec})
    foreseen = sec.deck[fairplay.draw(sec.seed, state.meta.player("Ann").draws, chance.beacon("Ann"),
                                      sec.remaining()) - 1]
    for _ in range(4):                          # the burn: rolls a player may make at any time
        pbd("roll", match, "--as", "Ann", "d2", ok=True)
    pbd("move", match, "--as", "Ann", "draw", ok=True)
    assert private.load(mid(match), "Ann").hand[-1] == foreseen
    fair = next(line for line in match.read_text().split("\n") if line.startswith("Ann: commitment"))
    assert fair.endswith("draws 6 · rolls 0 · free 4")


def test_2_a_roll_the_rules_call_for_is_made_by_the_move_on_its_own_counter():
    from cnc_helpers import pos, side

    g = pos(side(ap=3, chars=["The Sentry"]), side(chars=["Danger"]))
    g.state.meta.player("Ann").free = 7               # free rolls made before: no bearing on the Sentry's die
    out = g.play("Ann", "The Sentry attacks Danger")
    assert re.search(r"rolled \d \(d6\)", out[0])
    event = g.state.meta.log[-1].events[0]
    assert (event.kind, event.counter) == ("roll", 0)


# -- 3. the joiner grinds the opening hand ------------------------------------------------------

def test_3_the_joiners_hand_waits_for_a_value_the_creator_publishes_after_the_join(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", "--first", "random", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    data = pbd.json("hand", doc, "--as", "Ben")
    assert data["hand"] == [] and "once Ann has run a pbd command on the match" in data["note"]
    assert "rng" not in doc.read_text()                     # nothing was drawn, nobody chose the first player
    assert pbd("move", doc, "--as", "Ben", "end turn").exit_code == 1
    pbd("hand", doc, "--as", "Ann", ok=True)                # Ann: her hand from Ben's head, the first player too
    assert re.search(r"^3\. Ann: opening hand · 5 cards drawn · a fair draw chose \w+ to move first · "
                     r"rng 0-4@0, r0@0 d2=\d \(first\) · chain 1 ", whole(doc.read_text()), re.M)
    pbd("roll", doc, "--as", "Ben", "d6", ok=True)         # any command before Ben's hand is drawn
    assert len(pbd.json("hand", doc, "--as", "Ben")["hand"]) == 5
    assert re.search(r"^5\. Ben: opening hand · 5 cards drawn · rng 0-4@1 ", whole(doc.read_text()), re.M)


def test_3_the_joiner_cannot_pick_which_value_draws_its_hand(pbd, tmp_path):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("move", doc, "--as", "Ann", "end turn", ok=True)   # Ann's opening (chain 1), then her turn ends
    assert re.search(r"^4\. Ann: end turn · seal ", whole(doc.read_text()), re.M)     # no value 2 while Ben's hand waits
    pbd("hand", doc, "--as", "Ben", ok=True)
    assert re.search(r"^5\. Ben: opening hand · 5 cards drawn · rng 0-4@1 ", whole(doc.read_text()), re.M)


def test_3_a_joiner_whose_pbd_draws_its_hand_from_the_creators_head_is_caught(pbd, tmp_path, monkeypatch):
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    sec = private.load(mid(doc), "Ben")
    state = GAME.parse(doc.read_text())
    with monkeypatch.context() as m:
        m.setattr(Chance, "waiting_on", lambda self, player: [])   # the modified pbd's shortcut
        side = state.side("Ben")
        side.hand = Chance(state.meta, {"Ben": sec}).draw("Ben", 5)
    state.meta.record("Ben", "opening hand · 5 cards drawn")
    doc.write_text(GAME.render(state))
    sec.hand = list(side.hand)
    private.save(sec)
    refused(pbd, doc, "hand", doc, "--as", "Ann", words=["Ben's draw 0 used Ann's chain value 0, published before "
                                                         "Ben committed"])


# -- 4. log entries forged or erased -----------------------------------------------------------

def _before_and_after_bens_move(pbd, match):
    pbd("move", match, "--as", "Ann", "end turn", ok=True)
    before = match.read_text()
    pbd("move", match, "--as", "Ben", "draw", ok=True)
    return before


def test_4_an_erased_and_replaced_move_is_refused_by_the_victims_next_command(pbd, match):
    before = _before_and_after_bens_move(pbd, match)
    match.write_text(before)                            # the board reverted, Ben's draw erased

    def in_bens_name(state):
        side = state.side("Ben")
        side.ap -= 1
        state.meta.record("Ben", "withdraw nothing · AP 3→2")
        state.meta.log[-1].mac = "0" * 16               # Ann cannot make Ben's MAC

    forge(match, in_bens_name)
    refused(pbd, match, "hand", match, "--as", "Ben",
            words=[r"log entry 6 that Ben's pbd wrote \(draw · hand 6 · AP 3→2\) was altered or replaced",
                   r"log entry 6 \(withdraw nothing.*\) is in Ben's name but Ben's pbd did not write it"])


def test_4_dropping_the_last_entry_is_refused_by_its_writers_next_command(pbd, match):
    before = _before_and_after_bens_move(pbd, match)
    match.write_text(before)
    refused(pbd, match, "hand", match, "--as", "Ben", words=[r"log entry 6 that Ben's pbd wrote \(draw · hand 6 · "
                                                             r"AP 3→2\) is gone: the log now ends at entry 5"])


def test_4_a_forged_entry_shows_at_audit_once_its_supposed_writer_reveals(pbd, match, tmp_path, monkeypatch):
    pbd("move", match, "--as", "Ann", "end turn", ok=True)

    def in_bens_name(state):
        state.meta.record("Ben", "adjust Ben CP -50: conceded")
        state.side("Ben").cp -= 50
        state.meta.log[-1].mac = "0" * 16

    forge(match, in_bens_name)
    sec = private.load(mid(match), "Ben")
    state = GAME.parse(match.read_text())       # Ben publishes his seed (by hand: his pbd refuses this document)
    state.meta.revealed.append(Reveal("Ben", sec.seed.hex(), [*sec.deck, "Porter: The Porter"]))
    state.meta.signers["ben"] = sec.seed
    state.meta.record("Ben", REVEAL_TEXT)
    match.write_text(GAME.render(state))
    monkeypatch.setenv("PBD_HOME", str(tmp_path / "auditor"))      # anyone: no private state at all
    audit_fails(pbd, match, r"log entry 6 \(adjust Ben CP -50: conceded\) is in Ben's name but Ben's pbd did not "
                            r"write it")


# -- 5. an illegal deck behind a legal name ------------------------------------------------------

def test_5_the_audit_checks_every_revealed_deck_and_the_deck_the_log_names(pbd, tmp_path, monkeypatch):
    cheat = tmp_path / "cheat.txt"
    cheat.write_text("# Forces of Justice\nPorter: The Porter\n25x The Sentry\n25x Thor\n")
    from pbd.games.cnc import deck as deck_module

    doc = tmp_path / "m.txt"
    with monkeypatch.context() as m:                        # Ann's modified pbd skips the construction check
        m.setattr(deck_module, "deck_problems", lambda deck_list, catalogue: [])
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", cheat, "--seed", "a", ok=True)
    assert "deck committed (Forces of Justice)" in doc.read_text()
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)
    pbd("reveal", doc, "--as", "Ann", "--now", ok=True)
    audit_fails(pbd, doc, r"Ann's revealed deck: .*(Rare|copies)",
                r"Ann's revealed deck: the log names the deck Forces of Justice, but the revealed list is not that "
                r"deck \(more The Sentry ×\d+, Thor ×\d+\)")


def test_5_an_honest_deck_audits_clean():
    deck = load_cnc_deck("forces-of-justice")
    state = GAME.parse(GAME.render(GAME.create("abcd0123", "Ann", "forces-of-justice", b"s" * 32, {})[0]))
    assert GAME.committed_problems(state, "Ann", [*deck.cards, f"Porter: {deck.porter}"]) == []


# -- 6. an audit that skips the deal --------------------------------------------------------------

def test_6_the_audit_includes_the_deal_audit_and_the_position_check(pbd, tmp_path, ttc_finished):
    from test_ttc_match import finished_copy

    doc = finished_copy(ttc_finished, tmp_path)      # a match played to the end, shared by the test run
    pbd("reveal", doc, "--as", "Lia", ok=True)
    pbd("reveal", doc, "--as", "Max", ok=True)
    pbd("audit", doc, ok=True)
    text = doc.read_text()
    m = re.search(r"^  Light card 2 \(Lia\): battle (\d+) ·.*$", text, re.M)
    other = re.search(r"^  Dark card 2 \(Max\): (battle \d+ ·.*)$", text, re.M)
    doc.write_text(text.replace(m.group(0), f"  Light card 2 (Lia): {other.group(1)}", 1))
    audit_fails(pbd, doc, "position: .*which the deal never gave Lia")


# -- 7. a guessable --seed ----------------------------------------------------------------------

def test_7_seed_text_is_salted_with_the_match_id_and_stretched(pbd, tmp_path):
    docs = []
    for i in range(2):
        doc = tmp_path / f"m{i}.txt"
        pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", ok=True)     # a random match id
        pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "ann2024", ok=True)
        docs.append(doc)
    commits = [re.search(r"^Ben: commitment (\w+)", d.read_text(), re.M).group(1) for d in docs]
    assert commits[0] != commits[1]                        # the same text, another match: another seed
    deck = [*load_cnc_deck("forces-of-corruption").cards, "Porter: The Porter"]
    old_recipe = hashlib.sha256(b"pbd-seed-v1\nann2024").digest()
    assert fairplay.commitment(old_recipe, deck) not in commits        # the published dictionary attack fails
    salt = b"pbd-seed-v2|" + mid(docs[0]).encode()
    stretched = hashlib.pbkdf2_hmac("sha256", b"ann2024", salt, fairplay.SEED_ITERATIONS)
    assert fairplay.commitment(stretched, deck) == commits[0] and fairplay.SEED_ITERATIONS >= 4096
    for command in ("new", "join"):
        assert "tutorials and tests" in " ".join(pbd(command, "--help").output.split())


# -- 8. chain exhaustion ----------------------------------------------------------------------

def _short_chains(pbd, tmp_path, monkeypatch):
    monkeypatch.setattr(fairplay, "CHAIN_LENGTH", 3)
    doc = tmp_path / "m.txt"
    pbd("new", "cnc", doc, "--as", "Ann", "--deck", "forces-of-justice", "--seed", "a", ok=True)
    pbd("join", doc, "--as", "Ben", "--deck", "forces-of-corruption", "--seed", "b", ok=True)
    pbd("hand", doc, "--as", "Ann", ok=True)
    pbd("hand", doc, "--as", "Ben", ok=True)
    return doc


def test_8_chains_renew_before_they_run_out(pbd, tmp_path, monkeypatch):
    match = _short_chains(pbd, tmp_path, monkeypatch)
    turns(pbd, match, 12)                                  # 6 turns each: two renewals each
    text = match.read_text()
    assert re.search(r"^Ann: commitment \w+ · chain 7 ", text, re.M)
    assert re.search(r"· chain 3 next [0-9a-f]{64} ·", text) and re.search(r"· chain 6 next [0-9a-f]{64} ·", text)
    pbd("reveal", match, "--as", "Ann", "--now", ok=True)
    pbd("reveal", match, "--as", "Ben", ok=True)
    pbd("audit", match, ok=True)


def test_8_a_swapped_next_head_is_refused(pbd, tmp_path, monkeypatch):
    match = _short_chains(pbd, tmp_path, monkeypatch)
    turns(pbd, match, 5)                                   # Ann publishes value 3 with her next head

    def other_head(state):
        entry = next(e for e in state.meta.log if "Ann" in e.heads)
        entry.heads["Ann"] = "ab" * 32

    forge(match, other_head, signer="Ann")
    turns_as = re.search(r"Turn \d+: (\w+) to move", match.read_text()).group(1)
    refused(pbd, match, "hand", match, "--as", "Ben", words=["Ann's chain head 1 changed since this pbd first saw it"])
    assert turns_as


def test_8_your_own_chain_rolled_back_is_refused_by_your_next_command(pbd, match):
    turns(pbd, match, 2)                                   # Ann published values 1 (opening) and 2

    def roll_back(state):
        ann = state.meta.player("Ann")
        ann.chain_index -= 1                               # her next value would repeat a public one
        ann.chain = fairplay.published_value(private.load(state.meta.match_id, "Ann").seed, ann.chain_index)

    forge(match, roll_back)
    refused(pbd, match, "hand", match, "--as", "Ann", words=["Ann's chain went back from value 2 to 1"])


# -- 9. the log hash -----------------------------------------------------------------------------

def test_9_full_digests_chained_from_the_match_id_and_a_seal_over_fair_play(pbd, match):
    entries = log_lines(match.read_text())
    assert all(re.search(r" · #[0-9a-f]{64}(?: · sig [A-Za-z0-9_-]{86})?$", line) for line in entries)
    first = entries[0].split(" · sig ")[0].rsplit(" · #", 1)[1]       # (the hash does not cover a signature)
    assert first == fairplay.log_link(log_genesis(mid(match)), entries[0].rsplit(" · #", 1)[0])
    text = match.read_text()
    edited = text.replace("draws 5 · rolls 0 · free 0", "draws 4 · rolls 0 · free 0", 1)
    match.write_text(edited)
    out = refused(pbd, match, "hand", match, "--as", "Ann", words=["edited by hand"])
    assert "Traceback" not in out
    assert "log chain: BROKEN" in pbd("log", match).output


def test_9_a_document_of_an_older_pbd_gets_a_clear_message(pbd, match):
    text = re.sub(r" · seal \w+ · mac \w+ · #([0-9a-f]{8})[0-9a-f]{56}", r" · #\1", match.read_text())
    match.write_text(text)
    refused(pbd, match, "hand", match, "--as", "Ann", words=["written by an older pbd"])
    result = pbd("audit", match)
    assert result.exit_code == 1 and "written by an older pbd" in result.output


# -- 10. a deleted Revealed section ---------------------------------------------------------------

def test_10_a_deleted_revealed_section_is_tampering(pbd, match):
    pbd("reveal", match, "--as", "Ann", "--now", ok=True)
    text = match.read_text()
    cut = re.sub(r"\nRevealed\n(?:Ann.*\n)+", "\n", text)
    assert cut != text
    match.write_text(cut)
    audit_fails(pbd, match, "Ann revealed their seed and deck list, but the Revealed section no longer has them")
    refused(pbd, match, "hand", match, "--as", "Ben", words=["the Revealed section no longer has them"])


# -- many seats ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 8])
def test_every_seats_events_are_re_derived_by_the_audit(seats):
    from pbd import audit
    from pbd.games.base import Meta, Reveal, Secrets, parse_meta, render_frame, split_frame

    names = [f"P{i}" for i in range(seats)]
    secrets = {n: Secrets("abcd0123", n, "x", hashlib.sha256(n.encode()).digest(), [f"c{i}" for i in range(20)])
               for n in names}
    meta = Meta("x", "abcd0123")
    for n in names:
        meta.seat(n, secrets[n].seed, secrets[n].deck)
        meta.record(n, "joined")
    chance = Chance(meta, secrets)
    for turn in range(3):
        for n in names:
            if chance.ready(n):
                chance.draw(n, 2)
                chance.roll(n, faces=(1, 3, 4, 5, 6, 8), purpose="move")
                chance.free_roll(n, 20)
            chance.publish(n)
            meta.record(n, f"turn {turn}")
    meta.revealed = [Reveal(n, secrets[n].seed.hex(), secrets[n].deck) for n in names]
    back = parse_meta("x", split_frame(render_frame(meta, "X", [], ["board"])))
    assert audit.log_problems(back, sections=back.section_lines()) == []
    assert audit.chain_problems(back) == []
    for n in names:
        d = audit.derive(back, n, secrets[n].deck)
        assert d.problems == [] and sum(len(c) for c in d.cards.values()) == back.player(n).draws > 0
    assert any(len(e.beacon) == seats - 1 for e in back.log[-1].events)


@pytest.mark.parametrize("team", [2, pytest.param(4, marks=pytest.mark.long)])
def test_a_twin_tower_city_team_table_rolls_and_audits_clean(pbd, tmp_path, team):
    """Four or eight seats: every roll depends on every other seat's latest chain value; the audit re-derives it."""
    doc = tmp_path / "m.txt"
    names = ["Lia", "Max", "Ona", "Pia", "Quin", "Rae", "Sol", "Tam"][:2 * team]
    pbd("new", "ttc", doc, "--as", names[0], "--deck", "sample", "--seed", "s0", "-O", f"team={team}", ok=True)
    for i, name in enumerate(names[1:], 1):
        pbd("join", doc, "--as", name, "--seed", f"s{i}", ok=True)
    assert pbd("roll", doc, "--as", "Max", "d6").exit_code == 1        # Lia has not published since Max joined
    for name in names:                                                 # in seat order, each publishes as it rolls
        pbd("roll", doc, "--as", name, "d[1,3,4,5,6,8]", ok=True)
    tags = re.findall(r"rng f0@([\d.]+) d\(1 3 4 5 6 8\)=\d", doc.read_text())
    assert len(tags) == len(names) and all(len(t.split(".")) == len(names) - 1 for t in tags)
    for name in names:
        pbd("reveal", doc, "--as", name, "--now", ok=True)
    result = pbd("audit", doc, ok=True)
    assert "audit: clean" in result.output and f"{names[-1]}: revealed — 1 free roll re-derived" in result.output
