"""The plain records every command loads (pbd.record) and the regexes compiled on first use (pbd.regex).

They replace dataclasses and module-level ``re.compile`` on the start-up path (issue 16), so
they must behave as those did: equality over the fields, unhashable unless frozen, a frozen
record refuses assignment; a lazy pattern matches exactly as the compiled one.
"""

from __future__ import annotations

import copy
import pickle
import re

import pytest
from fastpath_helpers import reads_slowly, needs_inline_attributes

from pbd.games.base import LogEntry, Meta
from pbd.games.cnc.cards import Attack, Card, bundled_catalogue
from pbd.regex import LazyPattern, pattern


def test_records_compare_their_fields_only_and_are_unhashable():
    a, b = LogEntry(1, "Ann", "draw"), LogEntry(1, "Ann", "draw", fresh=True)
    assert a == b                                   # ``fresh`` is bookkeeping, not a field
    assert a != LogEntry(2, "Ann", "draw") and a != "draw"
    with pytest.raises(TypeError):
        hash(a)
    assert repr(a).startswith("LogEntry(number=1, player='Ann', text='draw', events=[]")
    assert LogEntry(1, "Ann", "x").events is not LogEntry(1, "Ann", "x").events     # no shared default list


def test_meta_compares_the_match_not_its_working_state():
    one, two = Meta("cnc", "ab12"), Meta("cnc", "ab12")
    two.signers["ann"] = b"seed"
    two.pending_events.append("event")
    assert one == two and one != Meta("cnc", "cd34")


def test_frozen_records_are_hashable_and_refuse_assignment_but_copy_and_pickle():
    attack = Attack("Web", "melee", 1, 3)
    assert attack == Attack("Web", "melee", 1, 3) and hash(attack) == hash(Attack("Web", "melee", 1, 3))
    with pytest.raises(AttributeError):
        attack.damage = 99
    with pytest.raises(AttributeError):
        del attack.name
    card = next(iter(bundled_catalogue().cards.values()))
    assert copy.deepcopy(card) == card == pickle.loads(pickle.dumps(card))


def test_a_lazy_pattern_compiles_on_first_use_and_matches_as_re_does():
    lazy = pattern(r"^(?P<n>\d+)\.\s+(?P<who>\w+)", re.I)
    assert isinstance(lazy, LazyPattern) and "match" not in vars(lazy)
    m = lazy.match("12. Ann: draw")
    assert m.group("n", "who") == ("12", "Ann") and "match" in vars(lazy)
    compiled = re.compile(r"^(?P<n>\d+)\.\s+(?P<who>\w+)", re.I)
    for text in ("3. ben", "x. Ann", ""):
        assert bool(lazy.search(text)) == bool(compiled.search(text))
    assert lazy.groupindex == compiled.groupindex and lazy.sub("N", "7. Cy") == compiled.sub("N", "7. Cy")


def test_replace_makes_a_new_record_with_changes():
    attack = Attack("Web", "melee", 1, 3)
    stronger = attack.replace(damage=5)
    assert stronger == Attack("Web", "melee", 1, 5) and attack.damage == 3
    entry = LogEntry(4, "Ann", "draw")
    assert entry.replace(text="end turn") == LogEntry(4, "Ann", "end turn")


@needs_inline_attributes
def test_records_made_copied_or_unpickled_keep_their_attributes_on_the_fast_path():
    # issue 16: an instance whose ``__dict__`` was asked for (FrozenRecord._set, pickle's default restore,
    # copy) has every attribute read the slow way; the engine reads cards, moves and records all the time
    from pbd.games.base import PlayerMeta
    from pbd.games.cnc.notation import parse_move

    attack = Attack("Web", "melee", 1, 3)
    card = Card("Nill", "character", "common", 2, "Hero", 30, attacks=(attack,))
    seat = PlayerMeta("Ann", "c0ffee", "ab", 3)
    made = [card, attack, seat, parse_move("Nill attacks Ben")]
    assert not any(map(reads_slowly, made))
    for record in made:
        for again in (pickle.loads(pickle.dumps(record, protocol=5)), copy.copy(record), copy.deepcopy(record)):
            assert again == record and not reads_slowly(again), (record, again)
    with pytest.raises(AttributeError):
        pickle.loads(pickle.dumps(attack)).damage = 99     # a frozen record stays frozen
