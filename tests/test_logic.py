"""The logic solver: every step sound (the known solution survives it), seeds and Keen hard solved by
logic alone, steps valid on their own prerequisites, techniques on hand-made states, grades ordered."""
from statistics import mean

import pytest

from conftest import SHARED, parse_keen, seed_puzzles
from solver import Cage, Puzzle, PuzzleError, solve
from solver.generator import GeneratorOptions, generate
from solver.logic import TECHNIQUES, explain, grade, grade_of
from solver.logic.board import Board
from solver.logic.cages import find_cage_confinement, find_cage_pair
from solver.logic.deduce import ORDER
from solver.logic.lines import find_hidden_single, find_naked_subset
from solver.logic.totals import find_line_total


def keen_set(name):
    """The puzzles of one Keen file, e.g. '9h'."""
    return [parse_keen(line) for line in (SHARED / "puzzles" / "keen" / f"{name}.txt").read_text().split()]


KEEN_SETS = {name: keen_set(name) for name in ("4e", "5h", "6h", "6x", "7x", "8x", "9h", "9u", "9x")}
HARD, EXTREME, UNREASONABLE = ("5h", "6h", "9h"), ("6x", "7x", "8x", "9x"), ("9u",)


def assert_sound(explanation, solution):
    """No step crosses out the solution's digit, and a logic solution is the solution."""
    for number, step in enumerate(explanation.steps):
        assert step.technique != "contradiction", step.text
        for (r, c), d in step.removed:
            assert solution[r][c] != d, f"step {number + 1} ({step.technique}) removed the answer: {step.text}"
        for (r, c), d in step.placed:
            assert solution[r][c] == d, step.text
        assert step.removed, "a step that removes nothing is no progress"
    if explanation.solved_by_logic:
        assert explanation.solution == solution


@pytest.mark.parametrize("name", sorted(seed_puzzles()))
def test_every_seed_puzzle_is_solved_by_logic_alone_and_soundly(name):
    puzzle, solution = seed_puzzles()[name]
    found = explain(puzzle)
    assert found.solved_by_logic and found.status == "unique"
    assert_sound(found, solution)


@pytest.mark.parametrize("name", sorted(KEEN_SETS))
def test_every_step_on_every_keen_puzzle_keeps_the_solution(name):
    for puzzle in KEEN_SETS[name]:
        found = explain(puzzle)
        assert_sound(found, solve(puzzle).solution)
        assert found.solution == solve(puzzle).solution  # the SAT answer when logic stops short


def test_keen_hard_puzzles_are_solved_by_logic_alone():
    puzzles = [p for name in HARD for p in KEEN_SETS[name]]
    solved = sum(explain(p, fallback=False).solved_by_logic for p in puzzles)
    assert solved >= 0.95 * len(puzzles)


def test_keen_sets_grade_in_order_hard_extreme_unreasonable():
    levels = {kind: mean(grade(p).level for name in names for p in KEEN_SETS[name])
              for kind, names in (("hard", HARD), ("extreme", EXTREME), ("unreasonable", UNREASONABLE))}
    assert levels["hard"] < levels["extreme"] < levels["unreasonable"], levels
    assert {grade(p).level for p in KEEN_SETS["4e"]} == {1}


GENERATED = [(GeneratorOptions(size=n), n) for n in (4, 5, 6, 7, 8, 9)] + [
    (GeneratorOptions(size=6, hidden_ops=True), 11), (GeneratorOptions(size=7, calcudoku=True), 12),
    (GeneratorOptions(size=6, multiplication_only=True), 13), (GeneratorOptions(size=8, max_cage=4), 14)]


@pytest.mark.parametrize("options,seed", GENERATED, ids=lambda x: str(x) if isinstance(x, int) else "")
def test_steps_on_generated_puzzles_keep_the_solution(options, seed):
    made = generate(options, seed=seed)
    found = explain(made.puzzle)
    assert_sound(found, made.solution)
    assert found.solution == made.solution


def test_a_step_still_holds_after_only_its_prerequisites():
    # The cells a step reads are exactly what it depends on: replaying only its prerequisites gives
    # the same technique the same deduction (at least the same eliminations).
    finders = dict(ORDER)
    for puzzle in (seed_puzzles()["seed000-9x9"][0], KEEN_SETS["9u"][0], KEEN_SETS["7x"][2]):
        found = explain(puzzle, fallback=False)
        for index in range(0, len(found.steps), 3):
            step = found.steps[index]
            board = Board.start(puzzle)
            for j in found.chain(index):
                board.remove((board.geo.index(cell), d) for cell, d in found.steps[j].removed)
            again = [s for s in finders[step.technique](board) if s.cells == step.cells]
            assert any(set(step.removed) <= set(s.removed) for s in again), step.text


def test_candidates_after_replays_the_steps():
    puzzle, solution = seed_puzzles()["seed000-6x6"]
    found = explain(puzzle)
    assert found.candidates_after(0) == found.start
    assert found.candidates_after(len(found.steps)) == found.end
    assert all(found.end[r][c] == {solution[r][c]} for r in range(6) for c in range(6))


def row_puzzle(cages, n=6):
    """A puzzle with the given cages and no others (the rest of the grid is free)."""
    return Puzzle(n, tuple(cages))


def test_cage_confinement_in_the_words_of_the_issue():
    # 11+ in three cells of row 2: {1,4,6}, {2,3,6} or {2,4,5}; with 3 gone from those cells only
    # {2,4,5} and {1,4,6} remain, and both need 4.
    puzzle = row_puzzle([Cage(((1, 0), (1, 1), (1, 2)), "+", 11)])
    pencil = [[set()] * 6 for _ in range(6)]
    pencil[1] = [{1, 2, 4, 5, 6}] * 3 + [set()] * 3
    board = Board.start(puzzle, pencil=pencil)
    step = next(find_cage_confinement(board))
    assert step.text == ("11+ in 3 cells of row 2 must be {1,4,6} or {2,4,5}: both need 4, so no other cell of "
                         "row 2 is 4.")
    assert set(step.removed) == {((1, c), 4) for c in (3, 4, 5)}
    assert step.cages == (0,) and set(step.cells) == {(1, 0), (1, 1), (1, 2)}


def test_a_row_total_fixes_the_last_cell():
    # Row 1 of a 4×4: 7+ over three cells leaves r1c4 = 10 − 7 = 3.
    puzzle = row_puzzle([Cage(((0, 0), (0, 1), (0, 2)), "+", 7)], n=4)
    step = next(find_line_total(Board.start(puzzle)))
    assert step.placed == (((0, 3), 3),)
    assert "r1c4 = 10 − 7 = 3" in step.text and step.technique == "line_total"


def test_naked_pair_and_hidden_single():
    puzzle = row_puzzle([], n=4)
    pencil = [[{1, 2}, {1, 2}, set(), set()], [set()] * 4, [set()] * 4, [set()] * 4]
    board = Board.start(puzzle, pencil=pencil)
    step = next(find_naked_subset(board, 2))
    assert set(step.removed) == {((0, 2), 1), ((0, 2), 2), ((0, 3), 1), ((0, 3), 2)}
    board = Board.start(puzzle, pencil=[[{1, 2}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}]] + [[set()] * 4] * 3)
    single = next(find_hidden_single(board))
    assert single.placed == (((0, 3), 4),) and single.text == "In row 1, 4 fits only in r1c4, so r1c4 is 4."


def test_a_pair_of_cages_drops_combinations_that_clash():
    # 2÷ down column 1 (r1c1, r2c1) and 3+ across row 1 (r1c2, r1c3). The 3+ is {1,2} in row 1, so
    # tried together the 2÷ can only be r1c1 = 4, r2c1 = 2.
    puzzle = row_puzzle([Cage(((0, 0), (1, 0)), "/", 2), Cage(((0, 1), (0, 2)), "+", 3)], n=4)
    step = next(find_cage_pair(Board.start(puzzle)))
    assert {((0, 0), 1), ((0, 0), 2), ((1, 0), 1), ((1, 0), 4)} <= set(step.removed)
    assert set(step.placed) == {((0, 0), 4), ((1, 0), 2)}
    assert step.technique == "cage_pair" and step.cages == (0, 1)
    assert step.text.startswith("The 2÷ cage at r1c1 and the 3+ cage at r1c2 share row 1")


def test_contradictions_end_the_explanation():
    # Two one-cell cages with the same digit in one row: no solution.
    puzzle = Puzzle(4, (Cage(((0, 0),), "=", 2), Cage(((0, 1),), "=", 2)))
    found = explain(puzzle)
    assert not found.solved_by_logic and found.status == "none"
    assert found.steps[-1].technique == "contradiction" and found.solution is None


def test_a_puzzle_with_several_solutions_is_not_solved_by_logic():
    found = explain(Puzzle(4, ()))
    assert not found.solved_by_logic and found.status == "multiple"
    assert found.solution is not None and grade_of(found).level == 5


def test_an_impossible_clue_is_a_puzzle_error():
    with pytest.raises(PuzzleError, match="cannot"):
        explain(Puzzle(4, (Cage(((0, 0), (0, 1)), "+", 9),)))


def test_every_technique_has_a_name_and_a_level_and_is_ordered_by_level():
    levels = [TECHNIQUES[key].level for key, _ in ORDER]
    assert levels == sorted(levels)
    assert all(1 <= level <= 4 for level in levels)


def test_explaining_a_9x9_is_fast():
    import time
    start = time.perf_counter()
    for puzzle in KEEN_SETS["9h"]:
        explain(puzzle, fallback=False)
    assert (time.perf_counter() - start) / len(KEEN_SETS["9h"]) < 0.5
