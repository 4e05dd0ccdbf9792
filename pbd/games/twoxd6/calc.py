"""The Tc / Rc calculation checker: read a player's expression over power numbers and check it.

A Targeting (Tc) or Resistance (Rc) calculation is written over the power numbers of the
cards that may take part (the targeting chain and matching pottle cards, or the resisting
chain), e.g. ``12*5+7``.  The rulebook's constraints, as pbd reads them:

* ``+`` and ``-`` are always allowed; parentheses group as usual.
* ``*`` (also ``x``, ``×``) and ``/`` (``÷``) only combine cards of one *mark* colour (the
  Targeting colour for a Tc, the Resistance colour for an Rc): every card in a product
  must share it, and no sum may stand inside a product ("(12+3)*5" is refused).
* ``^`` (also ``**``, the rulebook's "exponentials") only between two single cards that
  share the mark colour *and* the core colour; ``a^b^c`` is refused.
* Every card is used at most once; a number stands for any card of that power, and pbd
  looks for an assignment of cards to numbers that satisfies every rule.
* Division need not come out even along the way, but the result must be a whole number.
* No unary minus: a calculation starts with a card.

:func:`check` checks one expression; :func:`reachable` lists every whole value the cards
allow (exact, by dynamic programming over subsets) with an expression for each.
Pure functions, no I/O.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from pbd.errors import IllegalMoveError, NotationError
from pbd.record import FrozenRecord, Record
from pbd.regex import pattern

#: Longest expression accepted (characters) and most numbers in it.
MAX_TEXT = 200
MAX_NUMBERS = 40
#: Biggest exponent :func:`check` computes (larger powers are refused, not computed).
MAX_EXPONENT = 64
#: :func:`reachable` considers at most this many cards (the highest powers).
MAX_REACH = 6

TOKEN_RE = pattern(r"\s*(?:(?P<num>\d+)|(?P<op>\*\*|[-+*/^()x×÷−–]))")
OPS = {"x": "*", "×": "*", "÷": "/", "**": "^", "−": "-", "–": "-"}


class Operand(FrozenRecord):
    """A card that may take part in a calculation: its label, power, core and mark colours."""

    label: str
    power: int
    core: str
    mark: str

    FIELDS = ("label", "power", "core", "mark")

    def __init__(self, label: str, power: int, core: str, mark: str):
        self._set(label=label, power=power, core=core, mark=mark)


class Calc(FrozenRecord):
    """A checked calculation: the text, its whole value and the labels of the cards used."""

    text: str
    value: int
    used: tuple[str, ...]

    FIELDS = ("text", "value", "used")

    def __init__(self, text: str, value: int, used: tuple[str, ...]):
        self._set(text=text, value=value, used=used)


class _Node(Record):
    op: str                  # "n" for a number, else one of + - * / ^
    power: int
    left: "_Node | None"
    right: "_Node | None"
    index: int               # leaf number, left to right

    FIELDS = ("op", "power", "left", "right", "index")

    def __init__(self, op: str, power: int = 0, left: "_Node | None" = None, right: "_Node | None" = None,
                 index: int = -1):
        self.op = op
        self.power = power
        self.left = left
        self.right = right
        self.index = index


# -- parsing ------------------------------------------------------------------------

def tokens(text: str) -> list[str]:
    """Return the tokens of ``text``: numbers, operators and parentheses, normalised.

    :raises NotationError: a character that is not part of a calculation, or the text is too long.
    """
    if len(text) > MAX_TEXT:
        raise NotationError(f"a calculation has at most {MAX_TEXT} characters")
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise NotationError(f"cannot read {text[pos:pos + 8]!r} in the calculation {text!r}",
                                hint="use power numbers with + - * / ^ and parentheses, e.g. 12*5+7")
        tok = m.group("num") or m.group("op")
        out.append(OPS.get(tok, tok))
        pos = m.end()
    if not out:
        raise NotationError("the calculation is empty", hint="e.g. 12*5+7")
    return out


class _Parser:
    def __init__(self, toks: list[str], text: str):
        self.toks, self.i, self.text, self.leaves = toks, 0, text, 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise NotationError(f"the calculation {self.text!r} ends too soon")
        self.i += 1
        return tok

    def expr(self) -> _Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = _Node(op, left=node, right=self.term())
        return node

    def term(self) -> _Node:
        node = self.factor()
        while self.peek() in ("*", "/"):
            op = self.take()
            node = _Node(op, left=node, right=self.factor())
        return node

    def factor(self) -> _Node:
        node = self.atom()
        if self.peek() == "^":
            self.take()
            node = _Node("^", left=node, right=self.factor())
        return node

    def atom(self) -> _Node:
        tok = self.take()
        if tok == "(":
            node = self.expr()
            if self.take() != ")":
                raise NotationError(f"a '(' is not closed in {self.text!r}")
            return node
        if tok.isdigit():
            self.leaves += 1
            if self.leaves > MAX_NUMBERS:
                raise NotationError(f"a calculation uses at most {MAX_NUMBERS} numbers")
            return _Node("n", power=int(tok), index=self.leaves - 1)
        if tok == "-":
            raise NotationError(f"no unary minus in {self.text!r}: a calculation starts with a card",
                                hint="write 12-5, not -5+12")
        raise NotationError(f"expected a power number or '(' where {self.text!r} has {tok!r}")


def parse(text: str) -> _Node:
    """Return the tree of a calculation (``^`` binds tightest and to the right).

    :raises NotationError: it cannot be read.
    """
    p = _Parser(tokens(text), text)
    node = p.expr()
    if p.peek() is not None:
        raise NotationError(f"unexpected {p.peek()!r} in the calculation {text!r}")
    return node


def leaves(node: _Node) -> list[_Node]:
    """Return the number leaves of a tree, left to right."""
    if node.op == "n":
        return [node]
    return leaves(node.left) + leaves(node.right)


# -- rules --------------------------------------------------------------------------

def _shape_problem(node: _Node) -> str | None:
    """Return what breaks the colour-independent rules (a sum in a product, a chained ^)."""
    if node.op == "n":
        return None
    if node.op == "^" and (node.left.op != "n" or node.right.op != "n"):
        return "^ only raises one card to the power of another card"
    if node.op in "*/":
        for side in (node.left, node.right):
            if side.op in "+-":
                return f"{'×' if node.op == '*' else '÷'} only combines cards: a sum cannot stand inside a product"
    return _shape_problem(node.left) or _shape_problem(node.right)


def _groups(node: _Node) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Return the leaf groups that must share a mark colour, and the ^ pairs (must share core too)."""
    groups: list[list[int]] = []
    pairs: list[tuple[int, int]] = []

    def walk(n: _Node, in_product: bool) -> None:
        if n.op == "n":
            return
        if n.op == "^":
            pairs.append((n.left.index, n.right.index))
        if n.op in "*/^" and not in_product:
            groups.append([leaf.index for leaf in leaves(n)])
        walk(n.left, in_product or n.op in "*/^")
        walk(n.right, in_product or n.op in "*/^")

    walk(node, False)
    return groups, pairs


def _value(node: _Node) -> Fraction:
    from fractions import Fraction  # here: fractions (with decimal) costs a command ~10M instructions

    if node.op == "n":
        return Fraction(node.power)
    a, b = _value(node.left), _value(node.right)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if node.op == "/":
        return a / b
    if b > MAX_EXPONENT:
        raise IllegalMoveError(f"pbd computes powers up to ^{MAX_EXPONENT}, not ^{b}")
    return a ** int(b)


def _assign(powers: list[int], groups, pairs, pool: list[Operand]) -> list[Operand] | None:
    """Return one card per leaf (distinct cards) meeting the colour rules, or None.

    Cards alike in power and colours are interchangeable, so the search runs over kinds.
    """
    kinds = Counter((o.power, o.core, o.mark) for o in pool)
    group_of = {i: g for g in groups for i in g}
    partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    order = sorted(range(len(powers)), key=lambda i: (i not in group_of, i))
    chosen: dict[int, tuple[int, str, str]] = {}

    def ok(i: int, kind) -> bool:
        for j in group_of.get(i, []):
            if j in chosen and chosen[j][2] != kind[2]:
                return False
        j = partner.get(i)
        return not (j is not None and j in chosen and chosen[j][1] != kind[1])

    def search(k: int) -> bool:
        if k == len(order):
            return True
        i = order[k]
        for kind in [kd for kd in kinds if kd[0] == powers[i] and kinds[kd] > 0]:
            if ok(i, kind):
                kinds[kind] -= 1
                chosen[i] = kind
                if search(k + 1):
                    return True
                kinds[kind] += 1
                del chosen[i]
        return False

    if not search(0):
        return None
    free = {kd: [o for o in pool if (o.power, o.core, o.mark) == kd] for kd in kinds}
    return [free[chosen[i]].pop(0) for i in range(len(powers))]


def _explain(powers: list[int], groups, pairs, pool: list[Operand], mark_name: str) -> str:
    """Return why no assignment exists: a missing power, too few cards, or colours."""
    have = Counter(o.power for o in pool)
    for p, n in sorted(Counter(powers).items()):
        if not have[p]:
            listed = ", ".join(str(x) for x in sorted(have)) or "none"
            return f"no card of power {p} may take part here (powers available: {listed})"
        if n > have[p]:
            return f"{p} is used {n} times but only {have[p]} card(s) of power {p} may take part (each card once)"
    for a, b in pairs:
        if _assign([powers[a], powers[b]], [[0, 1]], [(0, 1)], pool) is None:
            return (f"{powers[a]}^{powers[b]}: a power needs two cards of the same {mark_name} colour "
                    "and the same core colour")
    for g in groups:
        if _assign([powers[i] for i in g], [list(range(len(g)))], [], pool) is None:
            nums = ", ".join(str(powers[i]) for i in g)
            return f"× and ÷ only combine cards of one {mark_name} colour: no such cards for {nums}"
    return f"no choice of cards satisfies every colour rule at once (each card used once, × ÷ by {mark_name} colour)"


def check(text: str, pool: list[Operand], mark_name: str = "Targeting") -> Calc:
    """Return the checked calculation ``text`` over the cards in ``pool``.

    :raises NotationError: the text cannot be read.
    :raises IllegalMoveError: it breaks a rule (a card used twice, an operator the colours do
        not allow, a power number no card has) or does not come to a whole number.
    """
    tree = parse(text)
    problem = _shape_problem(tree)
    if problem:
        raise IllegalMoveError(f"{text}: {problem}")
    powers = [leaf.power for leaf in leaves(tree)]
    groups, pairs = _groups(tree)
    cards = _assign(powers, groups, pairs, pool)
    if cards is None:
        raise IllegalMoveError(f"{text}: {_explain(powers, groups, pairs, pool, mark_name)}")
    value = _value(tree)
    if value.denominator != 1:
        raise IllegalMoveError(f"{text} comes to {value}, not a whole number")
    return Calc(" ".join(tokens(text)).replace("( ", "(").replace(" )", ")"), int(value),
                tuple(c.label for c in cards))


# -- every value the cards allow --------------------------------------------------------

def _factor_values(pool: list[Operand], mask: int) -> dict[Fraction, str]:
    """Return the factors over exactly the cards in ``mask``: one card, or a power of two cards."""
    from fractions import Fraction  # here: fractions (with decimal) costs a command ~10M instructions

    idx = [i for i in range(len(pool)) if mask >> i & 1]
    if len(idx) == 1:
        return {Fraction(pool[idx[0]].power): str(pool[idx[0]].power)}
    out: dict[Fraction, str] = {}
    if len(idx) == 2:
        a, b = pool[idx[0]], pool[idx[1]]
        if a.mark == b.mark and a.core == b.core:
            for x, y in ((a, b), (b, a)):
                if y.power <= MAX_EXPONENT:
                    out.setdefault(Fraction(x.power) ** y.power, f"{x.power}^{y.power}")
    return out


def _submasks(mask: int):
    sub = mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


def reachable(pool: list[Operand]) -> dict[int, str]:
    """Return every whole value a calculation over ``pool`` can reach, with one expression for each.

    Exact for up to :data:`MAX_REACH` cards (beyond that, the highest powers are kept: the
    suggestion may miss a value a longer calculation reaches, which :func:`check` still accepts).
    """
    key = tuple(sorted((o.power, o.core, o.mark, o.label) for o in pool))
    return dict(_reachable(key))


@lru_cache(maxsize=256)
def _reachable(key: tuple) -> tuple:
    from fractions import Fraction  # here: fractions (with decimal) costs a command ~10M instructions

    pool = sorted((Operand(label, power, core, mark) for power, core, mark, label in key),
                  key=lambda o: -o.power)[:MAX_REACH]
    n = len(pool)
    terms: dict[int, dict[Fraction, str]] = {}
    for mask in range(1, 1 << n):
        cards = [pool[i] for i in range(n) if mask >> i & 1]
        t = dict(_factor_values(pool, mask)) if len(cards) <= 2 else {}
        if len(cards) > 1 and len({c.mark for c in cards}) == 1:
            for fac in _submasks(mask):
                rest = mask & ~fac
                if not rest:
                    continue
                for fv, fs in _factor_values(pool, fac).items():
                    for rv, rs in terms.get(rest, {}).items():
                        t.setdefault(rv * fv, f"{rs}*{fs}")
                        t.setdefault(rv / fv, f"{rs}/{fs}")
        terms[mask] = t
    signed: dict[int, dict[Fraction, str]] = {0: {Fraction(0): ""}}
    positive: dict[int, dict[Fraction, str]] = {}
    for mask in range(1, 1 << n):
        low = mask & -mask
        w: dict[Fraction, str] = {}
        e: dict[Fraction, str] = {}
        for chunk in _submasks(mask):
            if not chunk & low:
                continue
            rest = mask & ~chunk
            for tv, ts in terms[chunk].items():
                for rv, rs in signed[rest].items():
                    w.setdefault(rv + tv, f"{rs} + {ts}")
                    w.setdefault(rv - tv, f"{rs} - {ts}")
                    e.setdefault(tv + rv, ts + rs)
                for rv, rs in positive.get(rest, {}).items():
                    e.setdefault(rv - tv, f"{rs} - {ts}")
        signed[mask], positive[mask] = w, e
    out: dict[int, str] = {}
    for e in positive.values():
        for v, s in e.items():
            if v.denominator == 1:
                out.setdefault(int(v), s)
    return tuple(out.items())


def best(pool: list[Operand], low: int, high: int) -> tuple[int, str] | None:
    """Return the highest reachable value in ``low..high`` and an expression for it, or None."""
    fits = [(v, s) for v, s in reachable(pool).items() if low <= v <= high]
    return max(fits, key=lambda vs: (vs[0], -len(vs[1]))) if fits else None


def highest(pool: list[Operand]) -> tuple[int, str] | None:
    """Return the highest reachable value and an expression for it (None for no cards)."""
    values = reachable(pool)
    if not values:
        return None
    v = max(values)
    return v, values[v]
