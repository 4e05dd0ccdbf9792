"""The Tc/Rc checker (pbd.games.twoxd6.calc) against a brute-force enumeration.

The brute force writes every calculation without parentheses over every ordered choice of
cards and operators, reads it with Python's own parser (ast), checks the colour rules on
that tree for every way of giving its numbers to cards, and evaluates it exactly.
"""

from __future__ import annotations

import ast
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbd.errors import IllegalMoveError, NotationError
from pbd.games.twoxd6 import calc
from pbd.games.twoxd6.calc import Operand

OPS = ["+", "-", "*", "/", "**"]


def _leaves(node):
    if isinstance(node, ast.Constant):
        return [node]
    return _leaves(node.left) + _leaves(node.right)


def _rules_ok(node, cards) -> bool:
    """The rulebook's rules on Python's tree; ``cards`` maps id(leaf) -> Operand."""
    if isinstance(node, ast.Constant):
        return True
    op = type(node.op)
    if op is ast.Pow:
        if not (isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Constant)):
            return False
        a, b = cards[id(node.left)], cards[id(node.right)]
        if a.mark != b.mark or a.core != b.core:
            return False
    if op in (ast.Mult, ast.Div):
        for side in (node.left, node.right):
            if isinstance(side, ast.BinOp) and type(side.op) in (ast.Add, ast.Sub):
                return False
        if len({cards[id(leaf)].mark for leaf in _leaves(node)}) != 1:
            return False
    return _rules_ok(node.left, cards) and _rules_ok(node.right, cards)


def _value(node):
    if isinstance(node, ast.Constant):
        return Fraction(node.value)
    a, b = _value(node.left), _value(node.right)
    return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
            ast.Div: lambda: a / b, ast.Pow: lambda: a ** int(b)}[type(node.op)]()


def brute(pool: list[Operand]) -> dict[str, Fraction | None]:
    """Return every parenthesis-free calculation over ``pool``: its value if legal, else None."""
    out: dict[str, Fraction | None] = {}
    for k in range(1, len(pool) + 1):
        for cards in itertools.permutations(pool, k):
            for ops in itertools.product(OPS, repeat=k - 1):
                text = str(cards[0].power) + "".join(o + str(c.power) for o, c in zip(ops, cards[1:]))
                if text in out and out[text] is not None:
                    continue
                tree = ast.parse(text, mode="eval").body
                found = None
                for assignment in itertools.permutations(pool, k):
                    leaves = _leaves(tree)
                    if [c.power for c in assignment] != [leaf.value for leaf in leaves]:
                        continue
                    if _rules_ok(tree, {id(leaf): c for leaf, c in zip(leaves, assignment)}):
                        found = _value(tree)
                        break
                out[text] = found
    return out


colours = st.sampled_from(["Onyx", "Gold"])
operands = st.builds(Operand, label=st.just(""), power=st.integers(1, 5), core=colours, mark=colours)
pools = st.lists(operands, min_size=1, max_size=3).map(
    lambda ops: [Operand(f"c{i}", o.power, o.core, o.mark) for i, o in enumerate(ops)])


@settings(max_examples=25, deadline=None)
@given(pools)
def test_check_agrees_with_brute_force_on_every_calculation(pool):
    for text, value in brute(pool).items():
        mine = text.replace("**", "^")
        if value is None or value.denominator != 1:
            with pytest.raises(IllegalMoveError):
                calc.check(mine, pool)
        else:
            result = calc.check(mine, pool)
            assert result.value == value, text
            assert len(set(result.used)) == len(result.used)


@settings(max_examples=25, deadline=None)
@given(pools)
def test_reachable_values_are_exactly_the_brute_force_values(pool):
    wanted = {int(v) for v in brute(pool).values() if v is not None and v.denominator == 1}
    got = calc.reachable(pool)
    assert set(got) == wanted
    for value, text in got.items():
        assert calc.check(text, pool).value == value


@pytest.mark.long
@settings(max_examples=200, deadline=None)
@given(st.lists(operands, min_size=4, max_size=4).map(
    lambda ops: [Operand(f"c{i}", o.power, o.core, o.mark) for i, o in enumerate(ops)]))
def test_four_cards_long(pool):
    test_check_agrees_with_brute_force_on_every_calculation.hypothesis.inner_test(pool)
    test_reachable_values_are_exactly_the_brute_force_values.hypothesis.inner_test(pool)


POOL = [Operand("QO", 12, "Onyx", "Gold"), Operand("5G", 5, "Gold", "Gold"), Operand("7P", 7, "Pink", "Cyan"),
        Operand("3P", 3, "Pink", "Cyan"), Operand("3G", 3, "Gold", "Gold")]


@pytest.mark.parametrize("text,value", [("12*5+7", 67), ("12 x 5 + 7", 67), ("12×5−7", 53), ("7^3", 343),
                                        ("12-(5+7)", 0), ("12/3*5", 20), ("(12*5)+7", 67), ("7**3-12", 331)])
def test_allowed(text, value):
    assert calc.check(text, POOL).value == value


@pytest.mark.parametrize("text,words", [
    ("12*7", "one Targeting colour"), ("12+12", "used 2 times"), ("9+5", "no card of power 9"),
    ("12^5", "same core colour"), ("(12+5)*7", "sum cannot stand"), ("12/5", "not a whole number"),
    ("7^3^12", "one card to the power")])
def test_refused(text, words):
    with pytest.raises(IllegalMoveError, match=words.replace("(", r"\(")):
        calc.check(text, POOL)


@pytest.mark.parametrize("text", ["", "12+", "-5+12", "12 + a", "(12+5", "12 5"])
def test_unreadable(text):
    with pytest.raises(NotationError):
        calc.check(text, POOL)


def test_best_within_a_window():
    value, text = calc.best(POOL, 50, 70)
    assert value == 70 and calc.check(text, POOL).value == 70
