"""Choosing among alternative clues by MaxSAT: the cheapest reading with exactly one solution."""
from __future__ import annotations

import random

import pytest

from solver.alternatives import cheapest_unique
from solver.generator import GeneratorOptions, generate


@pytest.mark.parametrize("size,wrong,seed", [(6, 3, 1), (9, 6, 2), (9, 9, 3)])
def test_several_misread_clues_are_repaired_at_once(size, wrong, seed):
    puzzle = generate(GeneratorOptions(size=size), seed).puzzle
    rnd = random.Random(seed)
    bad = set(rnd.sample(range(len(puzzle.cages)), wrong))
    layout, alternatives = [], []
    for i, cage in enumerate(puzzle.cages):
        layout.append(cage.cells)
        misread = (cage.op, cage.target + 1 + rnd.randrange(4), 0.0)
        right = (cage.op, cage.target, 0.7 if i in bad else 0.0)
        alternatives.append([misread, right] if i in bad else [right, misread[:2] + (1.5,)])
    found = cheapest_unique(size, layout, alternatives, max_changes=wrong, budget_s=30)
    assert found.status == "unique"
    assert [alts[k][:2] for alts, k in zip(alternatives, found.picks)] == [(c.op, c.target) for c in puzzle.cages]
    assert found.solution == generate(GeneratorOptions(size=size), seed).solution


def test_the_cap_on_changes_is_kept():
    puzzle = generate(GeneratorOptions(size=6), 4).puzzle
    layout = [cage.cells for cage in puzzle.cages]
    alternatives = [[(c.op, c.target + 1, 0.0), (c.op, c.target, 0.1)] if i < 4 else [(c.op, c.target, 0.0)]
                    for i, c in enumerate(puzzle.cages)]
    assert cheapest_unique(6, layout, alternatives, max_changes=4, budget_s=30).status == "unique"
    assert cheapest_unique(6, layout, alternatives, max_changes=2, budget_s=30).status != "unique"


def test_a_reading_with_several_solutions_is_passed_over():
    # On a 3×3, "3+" over the first two cells and a 3 below the first leave row 0 as 1 2 or 2 1:
    # two solutions. The costlier "2" below pins it: that reading is the one chosen, in round two.
    found = cheapest_unique(3, [((0, 0), (0, 1)), ((1, 0),)], [[("+", 3, 0.0)], [("=", 3, 0.0), ("=", 2, 1.0)]])
    assert found.status == "unique" and found.picks == (0, 1) and found.rounds == 2
    assert found.solution == ((1, 2, 3), (2, 3, 1), (3, 1, 2))


def test_no_reading_with_a_solution():
    found = cheapest_unique(3, [((0, 0), (0, 1)), ((0, 2),)], [[("+", 3, 0.0)], [("=", 1, 0.0), ("=", 2, 1.0)]])
    assert found.status == "none" and found.picks is None
