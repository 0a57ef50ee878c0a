"""Cage arithmetic: every allowed tuple makes its clue, none is missing, 3+-cell − and ÷ as in seed 004."""
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from solver import Cage
from solver.cage_tuples import TooManyTuples, allowed_tuples, conflict_pattern, satisfies

SHAPES = [((0, 0), (0, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (1, 0), (1, 1)),
          ((0, 0), (1, 0), (2, 0), (2, 1))]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 7), shape=st.sampled_from(SHAPES), op=st.sampled_from("+-*/?"),
       target=st.integers(0, 60), lmd=st.booleans())
def test_tuples_are_exactly_the_brute_force_ones(n, shape, op, target, lmd):
    cage = Cage(shape, op, target)
    pairs = conflict_pattern(cage.cells)
    brute = [t for t in itertools.product(range(1, n + 1), repeat=len(shape))
             if all(t[i] != t[j] for i, j in pairs) and satisfies(op, target, t, lmd)]
    assert sorted(allowed_tuples(cage, n, lmd)) == sorted(brute)


def test_seed_004_generalised_subtraction_and_division():
    # Seed 004: D1, E1, E2 form a quotient of 1; D3, E3, F3 a difference of 0 (largest first).
    assert satisfies("/", 1, (2, 1, 2))          # (2 / 1) / 2 = 1, an L-shaped cage may repeat a digit
    assert satisfies("-", 0, (3, 1, 2))          # 3 - 1 - 2 = 0
    assert not satisfies("-", 0, (3, 1, 2), long_minus_divide=False)
    assert satisfies("-", 1, (6, 2, 3))          # 6 - 2 - 3 = 1
    assert satisfies("/", 2, (6, 3, 1))          # 6 / 3 / 1 = 2
    assert not satisfies("/", 2, (6, 4, 1))


def test_distinctness_inside_rows_and_columns_prunes_tuples():
    line = allowed_tuples(Cage(((0, 0), (0, 1)), "+", 4), 6, False)
    assert (2, 2) not in line and (1, 3) in line
    ell = allowed_tuples(Cage(((0, 0), (0, 1), (1, 1)), "+", 5), 6, False)
    assert (2, 1, 2) in ell  # (0,0) and (1,1) share neither row nor column


def test_huge_tables_raise_too_many_tuples():
    cage = Cage(((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)), "+", 51)
    with pytest.raises(TooManyTuples):
        allowed_tuples(cage, 16, False, limit=1000)


def test_a_search_among_many_dead_ends_gives_up_and_the_cage_is_encoded_arithmetically():
    # A cage partition misread from a hard photo: 19 cells summing to 57 on a 9×9. Its valid tuples
    # hide among so many dead ends that listing them took minutes (the reader hung on that photo).
    from solver.encoding import encode_cage
    cells = ((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5), (4, 6), (4, 7), (4, 8), (5, 3), (5, 4), (5, 5),
             (5, 6), (5, 7), (5, 8), (6, 4), (6, 6), (6, 7), (6, 8))
    with pytest.raises(TooManyTuples):
        allowed_tuples(Cage(cells, "+", 57), 9, False, limit=1000)
    assert encode_cage(Cage(cells, "+", 57), 9, False, 9 ** 3).tuples is None
