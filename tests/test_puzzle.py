"""The puzzle model: structure checks and impossible clues, each with a message a person understands."""
import pytest

from solver import Cage, Puzzle, PuzzleError, clue_problems


def test_cells_outside_the_grid_and_in_two_cages_are_refused():
    with pytest.raises(PuzzleError, match="outside the 4×4 grid"):
        Puzzle(4, (Cage(((0, 0), (0, 4)), "+", 3),))
    with pytest.raises(PuzzleError, match="r1c2 is in two cages"):
        Puzzle(4, (Cage(((0, 0), (0, 1)), "+", 3), Cage(((0, 1), (1, 1)), "+", 3)))


@pytest.mark.parametrize("size", [2, 17, "4", True])
def test_sizes_outside_3_to_16_are_refused(size):
    with pytest.raises(PuzzleError, match="size must be"):
        Puzzle(size, ())


def test_bad_cages_are_refused():
    with pytest.raises(PuzzleError, match="unknown operator"):
        Cage(((0, 0), (0, 1)), "%", 3)
    with pytest.raises(PuzzleError, match="needs exactly one cell"):
        Cage(((0, 0), (0, 1)), "=", 3)
    with pytest.raises(PuzzleError, match="whole number"):
        Cage(((0, 0),), "=", 2.5)


def test_disconnected_cages_and_uncovered_cells_are_warnings():
    puzzle = Puzzle(3, (Cage(((0, 0), (2, 2)), "+", 4),))
    notes = puzzle.warnings()
    assert any("not connected" in note for note in notes)
    assert any("7 cell(s) in no cage" in note for note in notes)


@pytest.mark.parametrize("cage, message", [
    (Cage(((0, 0), (0, 1)), "-", 6), "difference 6"),
    (Cage(((0, 0), (0, 1)), "/", 7), "quotient 7"),
    (Cage(((0, 0), (0, 1)), "/", 1), "quotient 1"),
    (Cage(((0, 0), (0, 1), (1, 0)), "*", 14), "prime factor 7"),
    (Cage(((0, 0),), "=", 7), "must hold 1..6"),
    (Cage(((0, 0), (0, 1)), "+", 13), "cannot add up to 13"),
    (Cage(((0, 0), (0, 1), (1, 1)), "-", 1), "needs Calcudoku rules"),
])
def test_impossible_clues_are_named(cage, message):
    problems = clue_problems(Puzzle(6, (cage,), calcudoku=False))
    assert len(problems) == 1 and message in problems[0]


def test_three_cell_minus_is_allowed_under_calcudoku_rules():
    cage = Cage(((0, 0), (0, 1), (1, 1)), "-", 1)
    assert clue_problems(Puzzle(6, (cage,), calcudoku=True)) == []
    assert Puzzle(6, (cage,)).long_minus_divide  # decided from the puzzle when not set


def test_entries_must_be_digits_of_the_grid():
    with pytest.raises(PuzzleError, match="entry at r1c2 must be a digit 1..3"):
        Puzzle(3, (), entries=((1, 4, None), (None,) * 3, (None,) * 3))
    with pytest.raises(PuzzleError, match="3 rows of 3 cells"):
        Puzzle(3, (), entries=((1, 2), (None,) * 3, (None,) * 3))
