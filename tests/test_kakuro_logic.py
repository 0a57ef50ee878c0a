"""Kakuro logic: seed 003's steps as techniques (combinations, required digit, permutations, box),
sound on every state, explanations, grades and hints in the KenKen solver's types."""
import random

from hypothesis import given, settings, strategies as st

from solver.kakuro import parse_kakuro_text
from solver.kakuro.generator import KakuroOptions, generate_kakuro
from solver.kakuro.hints import hint_kakuro
from solver.kakuro.logic import (ORDER, TECHNIQUES, Board, KakuroStep, explain_kakuro, find_box,
                                 find_run_combinations, find_run_permutations, grade_kakuro, orderings)
from solver.logic.hints import Hint
from test_kakuro_engine import SEED_SOLUTION
from test_kakuro_model import seed_puzzle

TWO_WAYS = "X 4\\ 4\\\n\\4 . .\n\\4 . .\n"


def test_combination_tables_give_the_seeds_first_deductions():
    # "1D+2D=17 because of 0D, hence 1D and 2D can be at most [8,9]"
    board = Board.start(seed_puzzle())
    steps = list(find_run_combinations(board))
    down17 = next(step for step in steps if "17 down at r1c4" in step.text)
    assert "can only be {8,9}" in down17.text
    assert {d for cell, d in down17.removed if cell == (1, 3)} == set(range(1, 8))


def test_permutations_leave_r2c5_only_1_or_2_as_the_seed_says():
    # "1E can't be 8 or 9; it can only be 1 or 2, since 1D can be 9 or 8" (the seed's ordered lists)
    board = Board.start(seed_puzzle())
    board.masks[(1, 3)] = 1 << 8 | 1 << 9
    board.masks[(1, 4)] = 1 << 1 | 1 << 2 | 1 << 8 | 1 << 9
    step = next(step for step in find_run_permutations(board) if "10 across at r2c3" in step.text)
    assert step.removed == (((1, 4), 8), ((1, 4), 9)) and step.technique == "run_permutations"
    assert orderings([1 << 8 | 1 << 9, 1 << 1 | 1 << 2 | 1 << 8 | 1 << 9], 10) == [(8, 2), (9, 1)]


def test_the_box_technique_places_r4c5_from_the_start():
    # 1D+2D+1E+2E = 10+15 = 25 and 1D+2D+1E+2E+3E = 17+15 = 32, so 3E = 7 (r4c5 here)
    steps = list(find_box(Board.start(seed_puzzle())))
    box = next(step for step in steps if step.placed == (((3, 4), 7),))
    assert "10 across at r2c3 + 15 across at r3c3 (total 25)" in box.text
    assert "17 down at r1c4 + 15 down at r1c5 (total 32)" in box.text and "r4c5 = 7" in box.text
    assert box.level == 3 and box.name == "box"


def test_the_seed_sample_is_solved_by_logic_and_graded_tricky():
    explanation = explain_kakuro(seed_puzzle())
    assert explanation.solved_by_logic and explanation.status == "unique"
    assert {c: explanation.solution[c[0]][c[1]] for c in SEED_SOLUTION} == SEED_SOLUTION
    assert all(isinstance(step, KakuroStep) and step.technique in TECHNIQUES for step in explanation.steps)
    grade = grade_kakuro(seed_puzzle())
    assert (grade.level, grade.name, grade.hardest, grade.solved_by_logic) == (3, "tricky", "box", True)
    assert explanation.steps[0].to_json()["name"] == explanation.steps[0].name


def test_a_puzzle_with_two_solutions_gets_stuck_and_is_graded_5():
    puzzle = parse_kakuro_text(TWO_WAYS)
    explanation = explain_kakuro(puzzle)
    assert not explanation.solved_by_logic and explanation.status == "multiple"
    assert grade_kakuro(puzzle).level == 5
    tip = hint_kakuro(puzzle, level=3)
    assert tip.technique == "stuck" and tip.value is not None and "more than one solution" in tip.explanation


def test_a_wrong_entry_leads_to_a_contradiction_step():
    puzzle = seed_puzzle()
    grid = puzzle.empty_grid()
    grid[3][4] = 6
    explanation = explain_kakuro(puzzle, tuple(map(tuple, grid)), fallback=False)
    assert explanation.steps[-1].technique == "contradiction" and not explanation.solved_by_logic


def random_state(puzzle, solution, rng: random.Random, keep: float):
    """Pencil marks holding each cell's solution digit plus random others."""
    pencil = puzzle.empty_grid()
    for r, c in puzzle.whites:
        others = {d for d in range(1, 10) if rng.random() < keep}
        pencil[r][c] = frozenset(others | {solution[r][c]})
    return pencil


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 8), st.integers(0, 2 ** 31), st.floats(0.1, 0.9))
def test_every_technique_is_sound_on_states_that_keep_the_solution(size, seed, keep):
    made = generate_kakuro(KakuroOptions(rows=size, cols=size), seed)
    board = Board.start(made.puzzle, pencil=random_state(made.puzzle, made.solution, random.Random(seed), keep))
    for _, find in ORDER:
        for step in find(board):
            assert all(made.solution[r][c] != d for (r, c), d in step.removed), step.text
            assert all(made.solution[r][c] == d for (r, c), d in step.placed), step.text


@settings(max_examples=15, deadline=None)
@given(st.integers(4, 9), st.integers(0, 2 ** 31))
def test_explanations_of_generated_puzzles_end_at_their_solution(size, seed):
    made = generate_kakuro(KakuroOptions(rows=size, cols=size), seed)
    explanation = explain_kakuro(made.puzzle)
    assert explanation.solution == made.solution and explanation.status == "unique"
    for step in explanation.steps:
        assert step.technique != "contradiction"
        assert all(made.solution[r][c] != d for (r, c), d in step.removed)
    if explanation.solved_by_logic:
        assert grade_kakuro(made.puzzle).level in (1, 2, 3)


def test_hints_at_three_levels_say_more_and_more():
    puzzle = seed_puzzle()
    one, two, three = (hint_kakuro(puzzle, level=level) for level in (1, 2, 3))
    assert all(isinstance(h, Hint) for h in (one, two, three))
    assert one.explanation.startswith("Look at ") and one.cells == () and one.value is None
    assert two.explanation.startswith(f"Try {TECHNIQUES[two.technique].name} on ")
    assert three.value == SEED_SOLUTION[three.cell] and three.steps[-1].placed
    assert three.to_json()["value"] == three.value


def test_a_hint_names_a_wrong_entry_first_and_says_why():
    puzzle = seed_puzzle()
    grid = puzzle.empty_grid()
    grid[1][3], grid[2][3] = 8, 8  # r3c4 repeats the 8 of its down run
    tip = hint_kakuro(puzzle, tuple(map(tuple, grid)), level=3)
    assert tip.technique == "wrong_entry" and tip.cell == (2, 3) and tip.wrong_entries == ((2, 3),)
    assert "17 down at r1c4 already holds 8 in r2c4" in tip.explanation
    grid = puzzle.empty_grid()
    grid[3][4] = 6
    tip = hint_kakuro(puzzle, tuple(map(tuple, grid)), level=3)
    assert tip.cell == (3, 4) and "contradiction" in tip.explanation and tip.steps[-1].technique == "contradiction"
    assert hint_kakuro(puzzle, tuple(map(tuple, grid)), level=1).explanation == "A digit you wrote in row 4 is wrong."


def test_a_full_right_grid_is_solved_and_wrong_pencil_marks_are_named():
    puzzle = seed_puzzle()
    grid = puzzle.empty_grid()
    for (r, c), v in SEED_SOLUTION.items():
        grid[r][c] = v
    assert hint_kakuro(puzzle, tuple(map(tuple, grid))).technique == "solved"
    pencil = puzzle.empty_grid()
    for r, c in puzzle.whites:
        pencil[r][c] = frozenset()
    pencil[1][3] = frozenset({9})
    tip = hint_kakuro(puzzle, None, pencil, level=3)
    assert tip.technique == "wrong_pencil" and tip.cell == (1, 3)
