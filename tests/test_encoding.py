"""The tuple table's clauses: what they are and in which order (the search's answers depend on it)."""
from hypothesis import given, settings, strategies as st

from solver import Cage
from solver.cage_tuples import allowed_tuples
from solver.encoding import _tuple_clauses, var


def spelled_out(cells, n, tuples, act, first):
    """The selector encoding as its docstring states it, one clause at a time."""
    clauses = [(-act, *range(first, first + len(tuples)))]
    for t, digits in enumerate(tuples):
        clauses += [(-(first + t), var(n, r, c, v)) for (r, c), v in zip(cells, digits)]
    for i, (r, c) in enumerate(cells):
        for v in range(1, n + 1):
            clauses.append((-act, -var(n, r, c, v), *(first + t for t, d in enumerate(tuples) if d[i] == v)))
    return clauses


SHAPES = [((0, 0), (0, 1)), ((1, 1), (2, 1), (2, 2)), ((0, 2), (0, 3), (1, 2), (1, 3)), ((3, 0), (3, 1), (3, 2), (2, 2), (1, 2))]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 9), shape=st.sampled_from(SHAPES), op=st.sampled_from("+-*/"), target=st.integers(1, 40),
       gap=st.integers(0, 5))
def test_tuple_clauses_are_the_selector_encoding_in_its_order(n, shape, op, target, gap):
    cage = Cage(shape, op, target)
    tuples = allowed_tuples(cage, n, True)
    act = n ** 3 + 7
    clauses, top = _tuple_clauses(cage, n, tuples, act, act + 1 + gap)
    assert clauses == (spelled_out(cage.cells, n, tuples, act, act + 1 + gap) if tuples else [(-act,)])
    assert top == (act + gap + len(tuples) if tuples else act + gap)
