"""The dealing group gives the same numbers on GMP and on CPython's own integers."""

import random

from hypothesis import given, settings, strategies as st

from pbd.table import group


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=group.P - 1), st.integers(min_value=-(1 << 130), max_value=1 << 600))
def test_gmp_and_pure_python_powers_agree(x, e):
    x = group._pure_pow(x, 2, group.P)        # a square: invertible, a member
    assert group._gmp_pow(x, e, group.P) == group._pure_pow(x, e, group.P)


def test_gmp_and_pure_python_legendre_symbols_agree():
    rng = random.Random(7)
    for _ in range(40):
        a = rng.randrange(1, group.P)
        assert int(group._gmpy2.legendre(a, group.P)) == group._pure_legendre(a)


def test_gmp_is_in_use_where_installed():
    assert group.FAST and group._pow is group._gmp_pow
