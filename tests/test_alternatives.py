"""Choosing among alternative clues by MaxSAT: the cheapest reading with exactly one solution."""
from __future__ import annotations

import random

import pytest

from solver.alternatives import FREE, cheapest_unique
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


def test_patience_stops_new_rounds_but_not_the_first():
    # The same 3×3: its first round finds the cheap reading with two solutions. With no patience
    # left no second round starts, though the first ran (k6161-0004, a hand-held 9×9 misread in
    # five places, had been cut off in its first round at the search's half-time and gave up).
    layout, alternatives = [((0, 0), (0, 1)), ((1, 0),)], [[("+", 3, 0.0)], [("=", 3, 0.0), ("=", 2, 1.0)]]
    hasty = cheapest_unique(3, layout, alternatives, budget_s=30, patience_s=0.0)
    assert hasty.status == "gave up" and hasty.rounds == 1
    assert cheapest_unique(3, layout, alternatives, budget_s=0.0, patience_s=0.0).rounds == 0
    assert cheapest_unique(3, layout, alternatives, budget_s=30, patience_s=30).status == "unique"


def test_no_reading_with_a_solution():
    found = cheapest_unique(3, [((0, 0), (0, 1)), ((0, 2),)], [[("+", 3, 0.0)], [("=", 1, 0.0), ("=", 2, 1.0)]])
    assert found.status == "none" and found.picks is None


def test_a_cage_left_free_constrains_nothing_and_is_chosen_only_when_needed():
    # A 6×6 whose first cage's list lacks its printed clue: no listed reading has a solution, and
    # leaving the cage's clue unknown does (the others settle the same solution). When the list
    # holds the printed clue more cheaply than leaving the cage free, that is the choice.
    made = generate(GeneratorOptions(size=6), 5)
    puzzle = made.puzzle
    i = next(i for i, c in enumerate(puzzle.cages) if len(c.cells) > 1)
    layout = [cage.cells for cage in puzzle.cages]
    truth = [[(c.op, c.target, 0.0)] for c in puzzle.cages]
    wrong = (puzzle.cages[i].op, puzzle.cages[i].target + 100, 0.0)
    lacking = truth[:i] + [[wrong]] + truth[i + 1:]
    assert cheapest_unique(6, layout, lacking, budget_s=30).status == "none"
    freed = cheapest_unique(6, layout, truth[:i] + [[wrong, (*FREE, 5.0)]] + truth[i + 1:], budget_s=30)
    assert freed.status == "unique" and freed.picks[i] == 1 and freed.solution == made.solution
    right = (puzzle.cages[i].op, puzzle.cages[i].target, 2.0)
    listed = cheapest_unique(6, layout, truth[:i] + [[wrong, right, (*FREE, 5.0)]] + truth[i + 1:], budget_s=30)
    assert listed.status == "unique" and listed.picks[i] == 1
    # Two cages lacking their clues: both left free, unless at most one may be.
    j = next(j for j, c in enumerate(puzzle.cages) if j > i and len(c.cells) > 1)
    two = [list(a) for a in truth]
    for k in (i, j):
        two[k] = [(puzzle.cages[k].op, puzzle.cages[k].target + 100, 0.0), (*FREE, 5.0)]
    assert cheapest_unique(6, layout, two, budget_s=30).status == "unique"
    assert cheapest_unique(6, layout, two, budget_s=30, max_free=1).status == "none"


def test_the_search_budget_is_work_not_time():
    # A reading near the budget must get the same answer on a second run, a busy machine or a slow
    # one (hand-held k3131-0230 and hard k3131-0269 came out either way from run to run on a budget
    # of processor time). The budget counts the SAT solvers' propagations and the clauses built:
    # the same search stops at the same place, and no SAT call starts once it is spent.
    from solver.alternatives import Effort

    puzzle = generate(GeneratorOptions(size=9), 5).puzzle
    layout = [cage.cells for cage in puzzle.cages]
    alternatives = [[(c.op, c.target + 1, 0.0), (c.op, c.target + 2, 0.05), (c.op, c.target, 0.1)]
                    for c in puzzle.cages]
    runs = []
    for _ in range(2):
        effort = Effort()
        found = cheapest_unique(9, layout, alternatives, max_changes=len(layout), budget_s=0.3, effort=effort)
        runs.append((found, effort.propagations, effort.clauses))
        assert found.status == "gave up" and 0.3 <= effort.seconds() < 0.35
    assert runs[0] == runs[1] and runs[0][1] > 0
    assert cheapest_unique(9, layout, alternatives, max_changes=len(layout), budget_s=1.5).status == "unique"


def test_a_search_out_of_budget_gives_up():
    puzzle = generate(GeneratorOptions(size=9), 5).puzzle
    layout = [cage.cells for cage in puzzle.cages]
    alternatives = [[(c.op, c.target + 1, 0.0), (c.op, c.target, 0.1)] for c in puzzle.cages]
    assert cheapest_unique(9, layout, alternatives, max_changes=len(layout), budget_s=0.0).status == "gave up"


def test_encoding_the_alternatives_counts_against_the_budget(monkeypatch):
    # Held-out k9090-0277 (hard, an 8×8 taken for a 16×16): encoding 1,068 clue alternatives took
    # 8 s of the reading's 11, and then the search, out of budget, gave up without a try. It now
    # stops encoding once the budget is spent.
    import solver.alternatives as alternatives_module

    calls = []
    real = alternatives_module.encode_cage
    monkeypatch.setattr(alternatives_module, "encode_cage",
                        lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    puzzle = generate(GeneratorOptions(size=9), 5).puzzle
    layout = [cage.cells for cage in puzzle.cages]
    alternatives = [[(c.op, c.target, 0.0), (c.op, c.target + 1, 0.1)] for c in puzzle.cages]
    assert cheapest_unique(9, layout, alternatives, budget_s=0.0).status == "gave up"
    assert calls == []
    assert cheapest_unique(9, layout, alternatives, budget_s=30).status == "unique"
    assert len(calls) == 2 * len(layout)


# The search as realdev Blog28 (6×6, operators not shown) was read on a fresh machine: r1c4's "1"
# read as "4" (0.51 against 0.40). The reading as seen has two solutions; the right one is one cheap
# change away. Adding the block to the running RC2Stratified lost it (pysat issue #203): the search
# said no choice was left.
BLOG28 = [("0010", [("?", 10, 0.0), ("?", 110, 6.19)]), ("0111", [("?", 5, 0.0), ("?", 55, 7.4)]),
          ("0212", [("?", 3, 0.0), ("?", 5, 0.4)]), ("0304", [("?", 4, 0.0), ("?", 1, 0.25), ("?", 11, 6.93)]),
          ("0515", [("?", 2, 0.0), ("?", 22, 8.09)]), ("1323", [("?", 2, 0.0), ("?", 22, 7.8)]),
          ("1424", [("?", 3, 0.0), ("?", 5, 0.38)]), ("2030", [("?", 18, 0.0), ("?", 118, 6.99)]),
          ("2131", [("?", 6, 0.0), ("?", 66, 6.99)]), ("2232", [("?", 20, 0.0), ("?", 200, 7.58)]),
          ("2535", [("?", 3, 0.0), ("?", 5, 0.38)]), ("3343", [("?", 4, 0.0), ("?", 44, 6.14)]),
          ("3444", [("?", 8, 0.0), ("?", 88, 8.08)]), ("4050", [("?", 4, 0.0), ("?", 44, 6.24)]),
          ("4142", [("?", 2, 0.0), ("?", 22, 8.09)]), ("4555", [("?", 1, 0.0), ("?", 11, 7.4)]),
          ("5152", [("?", 7, 0.0), ("?", 77, 7.8)]), ("5354", [("?", 7, 0.0), ("?", 77, 7.8)])]


def test_a_blocked_choice_does_not_hide_the_next_one():
    layout = [((int(c[0]), int(c[1])), (int(c[2]), int(c[3]))) for c, _ in BLOG28]
    found = cheapest_unique(6, layout, [alts for _, alts in BLOG28], operators_shown=False, max_changes=4,
                            budget_s=30)
    assert found.status == "unique" and found.rounds == 2
    assert [alts[k][1] for (_, alts), k in zip(BLOG28, found.picks)][3] == 1
    assert sum(found.picks) == 1


def test_long_sums_and_products_are_searched_by_layers_to_the_same_reading(monkeypatch):
    # A generated 7×7 with four cages of 5 or 6 cells (sums and products), each read with a misread
    # clue first and its printed one second, and other targets near it as further alternatives, as
    # a reader gives them: the alternatives of sums and products of LAYERED_FROM cells or more are
    # encoded by layers, a fraction of the clauses of their tables, and the search picks the same
    # reading as with tables, the printed one.
    import solver.alternatives as alternatives_module
    from solver.alternatives import Effort

    generated = generate(GeneratorOptions(size=7), 15)
    puzzle = generated.puzzle
    long = [c for c in puzzle.cages if len(c.cells) >= alternatives_module.LAYERED_FROM and c.op in "+*"]
    assert len(long) == 4
    layout, alternatives = [cage.cells for cage in puzzle.cages], []
    for cage in puzzle.cages:
        if cage in long:
            near = [cage.target + d for d in (2, -2, 4, -4, 6, 8, -6, 10) if cage.target + d > 0]
            alternatives.append([(cage.op, near[0], 0.0), (cage.op, cage.target, 0.5)]
                                + [(cage.op, t, 2.0 + k) for k, t in enumerate(near[1:])])
        else:
            alternatives.append([(cage.op, cage.target, 0.0)])

    def search(layered_from):
        monkeypatch.setattr(alternatives_module, "LAYERED_FROM", layered_from)
        effort = Effort()
        return cheapest_unique(7, layout, alternatives, max_changes=4, budget_s=60, effort=effort), effort.clauses

    (layered, few), (tabled, many) = search(5), search(99)
    assert layered.status == tabled.status == "unique" and layered.picks == tabled.picks
    assert [alts[k][:2] for alts, k in zip(alternatives, layered.picks)] == [(c.op, c.target) for c in puzzle.cages]
    assert layered.solution == generated.solution
    assert few < many / 2
