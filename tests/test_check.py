"""Checking a half-filled grid: wrong digits, completable or not, the minimal conflict — no spoilers."""
import random

from hypothesis import given, settings, strategies as st

from conftest import random_cages, random_latin, seed_puzzles
from solver import Cage, Puzzle
from solver.check import check


def blank(n):
    return [[None] * n for _ in range(n)]


def test_seed_002_the_4_that_should_have_been_a_2():
    # Seed 002: the pen-filled 6×6 where a 4 in the first column was wrong (it should have been a 2).
    puzzle, solution = seed_puzzles()["seed002-6x6-partial"]
    entries = blank(6)
    for r, c in [(0, 0), (0, 1), (1, 1), (2, 3), (3, 0), (5, 5)]:
        entries[r][c] = solution[r][c]
    entries[1][0] = 4  # the solution has 2 here
    result = check(puzzle, tuple(map(tuple, entries)))
    assert result.status == "unique"
    assert result.wrong == ((1, 0),)
    assert not result.completable
    assert (1, 0) in result.conflict.entries


def test_right_entries_are_completable_and_nothing_is_wrong(seeds):
    puzzle, solution = seeds["seed000-6x6"]
    entries = blank(6)
    for r in range(6):
        entries[r][(r * 2) % 6] = solution[r][(r * 2) % 6]
    result = check(puzzle, tuple(map(tuple, entries)))
    assert result.completable and result.wrong == () and result.conflict is None
    assert result.filled == 6


def test_a_repeated_digit_in_a_row_is_named(seeds):
    puzzle, solution = seeds["seed000-4x4"]
    entries = blank(4)
    entries[2][0] = entries[2][3] = 1
    result = check(puzzle, tuple(map(tuple, entries)))
    assert not result.completable
    assert result.clashes == ("row 3 holds 1 2 times (r3c1, r3c4)",)


def test_with_several_solutions_an_entry_is_wrong_only_if_no_solution_has_it():
    # 4×4 with no cages: any Latin square. Two digits that merely differ from one solution are fine.
    puzzle = Puzzle(4, ())
    entries = blank(4)
    entries[0][0], entries[1][1] = 2, 2
    result = check(puzzle, tuple(map(tuple, entries)))
    assert result.status == "multiple" and result.completable and result.wrong == ()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 7), seed=st.integers(0, 10 ** 6))
def test_one_changed_digit_of_a_unique_puzzle_is_found_and_nothing_else(n, seed):
    rng = random.Random(seed)
    square = random_latin(n, rng)
    # Every cell given except a few: the puzzle is unique, entries are judged against the square.
    cages = [Cage(((r, c),), "=", square[r][c]) for r in range(n) for c in range(n) if (r + c) % 3]
    cages += random_cages(square, rng, skip={cell for cage in cages for cell in cage.cells})
    puzzle = Puzzle(n, tuple(cages))
    cells = rng.sample([(r, c) for r in range(n) for c in range(n)], n)
    entries = blank(n)
    for r, c in cells:
        entries[r][c] = square[r][c]
    r, c = cells[0]
    entries[r][c] = square[r][c] % n + 1
    result = check(puzzle, tuple(map(tuple, entries)))
    assert result.status == "unique"
    assert result.wrong == ((r, c),)
    assert not result.completable and (r, c) in result.conflict.entries


def test_a_grid_with_nothing_written_reports_the_puzzles_real_status():
    empty = tuple((None,) * 4 for _ in range(4))
    result = check(Puzzle(4, ()), empty)  # no cages: many Latin squares
    assert result.status == "multiple" and result.completable and result.filled == 0
    puzzle, _ = seed_puzzles()["seed000-4x4"]
    assert check(puzzle, empty).status == "unique"
