"""Hints in three levels and why an entry is wrong: mistakes first, no spoilers before level 3, every
digit a hint gives is the solution's, every chain sound."""
import random

import pytest

from conftest import SHARED, parse_keen, seed_puzzles
from solver import Cage, Puzzle, PuzzleError, solve
from solver.logic import explain, hint, why_wrong
from solver.logic.pencil import pencil_in


def blank(n):
    return [[None] * n for _ in range(n)]


def grid(rows):
    return tuple(tuple(row) for row in rows)


def partial(solution, fraction, rng):
    """The solution with about ``fraction`` of its cells left empty."""
    return grid([[v if rng.random() > fraction else None for v in row] for row in solution])


def test_levels_go_from_where_to_what_and_only_level_3_gives_the_digit(seeds):
    puzzle, solution = seeds["seed000-6x6"]
    one, two, three = (hint(puzzle, level=level) for level in (1, 2, 3))
    assert one.technique == two.technique == three.technique
    assert one.explanation.startswith("Look at ") and one.cell is None and one.value is None and not one.cells
    assert two.cells and two.cell is None and two.value is None
    assert TECHNIQUE_NAME(two.technique) in two.explanation
    assert three.cell is not None and three.value == solution[three.cell[0]][three.cell[1]]
    assert three.steps and three.steps[-1].text == three.explanation


def TECHNIQUE_NAME(key):
    from solver.logic import TECHNIQUES
    return TECHNIQUES[key].name


@pytest.mark.parametrize("name", sorted(seed_puzzles()))
def test_a_hint_digit_is_always_the_solutions_and_its_chain_sound(name):
    puzzle, solution = seed_puzzles()[name]
    rng = random.Random(name)
    for _ in range(4):
        entries = partial(solution, rng.uniform(0.3, 0.95), rng)
        if all(v is not None for row in entries for v in row):
            continue
        given = hint(puzzle, entries, level=3)
        assert given.value is not None and given.value == solution[given.cell[0]][given.cell[1]]
        assert entries[given.cell[0]][given.cell[1]] is None, "a hint gives a digit not yet written"
        for step in given.steps:
            assert all(solution[r][c] != d for (r, c), d in step.removed)


def test_a_wrong_entry_is_named_first_without_giving_the_right_digit(seeds):
    puzzle, solution = seeds["seed002-6x6-partial"]
    entries = blank(6)
    for r, c in [(0, 0), (0, 1), (1, 1)]:
        entries[r][c] = solution[r][c]
    entries[1][0] = 4  # seed 002: this 4 should have been a 2
    entries = grid(entries)
    one, two, three = (hint(puzzle, entries, level=level) for level in (1, 2, 3))
    assert {h.technique for h in (one, two, three)} == {"wrong_entry"}
    assert all(h.wrong_entries == ((1, 0),) for h in (one, two, three))
    assert one.explanation == "A digit you wrote in row 2 is wrong."
    assert "The 4 in r2c1 is wrong" in two.explanation and "12× cage" in two.explanation
    assert three.cell == (1, 0) and three.value is None
    assert three.explanation == "r2c1 cannot be 4: the 12× cage at r1c1 would make 6 × 1 × 4 = 24, not 12."


def test_why_wrong_names_a_row_clash(seeds):
    puzzle, solution = seeds["seed000-4x4"]
    entries = blank(4)
    entries[0][3] = solution[0][3]  # r1c4 = 4, right
    why = why_wrong(puzzle, (0, 0), 4, grid(entries))
    assert why.broken == "row 1 already has 4 at r1c4" and not why.steps


@pytest.mark.parametrize("key", ["seed000-9x9", "seed000-6x6"])
def test_why_wrong_chains_are_sound_and_end_with_the_digit_gone(key):
    puzzle, solution = seed_puzzles()[key]
    n = puzzle.size
    rng = random.Random(7)
    for _ in range(5):
        cell = (rng.randrange(n), rng.randrange(n))
        value = rng.choice([d for d in range(1, n + 1) if d != solution[cell[0]][cell[1]]])
        why = why_wrong(puzzle, cell, value, solution=solution)
        assert why.found and why.text.startswith(f"r{cell[0] + 1}c{cell[1] + 1} cannot be {value}")
        if why.broken:
            continue
        if why.supposed:
            assert why.steps[-1].technique == "contradiction"
        else:
            assert (cell, value) in why.steps[-1].removed
            for step in why.steps:
                assert all(solution[r][c] != d for (r, c), d in step.removed)


def test_why_wrong_refuses_a_right_digit(seeds):
    puzzle, solution = seeds["seed000-4x4"]
    with pytest.raises(PuzzleError, match="is right"):
        why_wrong(puzzle, (0, 0), solution[0][0])


def test_pencil_marks_without_the_digit_are_pointed_out(seeds):
    puzzle, solution = seeds["seed000-4x4"]
    pencil = [[set() for _ in range(4)] for _ in range(4)]
    pencil[2][1] = {d for d in range(1, 5) if d != solution[2][1]}
    given = hint(puzzle, pencil=pencil, level=2)
    assert given.technique == "wrong_pencil" and given.cells == ((2, 1),)


def test_with_pencil_marks_the_hint_changes_them_or_places_a_digit(seeds):
    puzzle, solution = seeds["seed000-9x9"]
    found = explain(puzzle)
    middle = found.candidates_after(len(found.steps) // 3)
    pencil = [[set(cell) if len(cell) > 1 else set() for cell in row] for row in middle]
    entries = grid([[next(iter(cell)) if len(cell) == 1 else None for cell in row] for row in middle])
    given = hint(puzzle, entries, pencil, level=3)
    step = given.steps[-1]
    marked = {(r, c) for r in range(9) for c in range(9) if pencil[r][c]}
    assert step.placed or any(cell in marked for cell, _ in step.removed)
    assert all(solution[r][c] != d for (r, c), d in step.removed)


def test_when_logic_is_stuck_the_hint_says_so_and_gives_a_searched_digit():
    puzzle = parse_keen((SHARED / "puzzles" / "keen" / "9u.txt").read_text().split()[1])
    found = explain(puzzle)
    assert not found.solved_by_logic
    pencil = [[set(cell) if len(cell) > 1 else set() for cell in row] for row in found.end]
    entries = grid([[next(iter(cell)) if len(cell) == 1 else None for cell in row] for row in found.end])
    one = hint(puzzle, entries, pencil, level=1)
    three = hint(puzzle, entries, pencil, level=3)
    assert one.technique == "stuck" and one.value is None and "trial and error" in one.explanation
    assert three.value == found.solution[three.cell[0]][three.cell[1]]


def test_a_full_right_grid_is_solved_and_a_bad_level_is_refused(seeds):
    puzzle, solution = seeds["seed000-4x4"]
    assert hint(puzzle, solution).technique == "solved"
    with pytest.raises(PuzzleError, match="level"):
        hint(puzzle, level=4)


def test_a_puzzle_without_solution_says_so():
    puzzle = Puzzle(4, (Cage(((0, 0),), "=", 2), Cage(((0, 1),), "=", 2)))
    assert hint(puzzle).technique == "no_solution"


def test_several_solutions_still_give_sound_hints():
    puzzle = Puzzle(4, (Cage(((0, 0), (0, 1)), "+", 3),))
    given = hint(puzzle, level=3)
    assert given.technique in ("cage_combinations", "stuck", "naked_single", "hidden_single")
    if given.value is not None:
        assert given.value in {1, 2, 3, 4}


def test_pencil_marks_read_from_json_and_text():
    text = "12 . 3\n. 123 .\n1,2 - 3\n"
    marks = pencil_in(text, 3)
    assert marks[0][0] == {1, 2} and marks[0][1] == frozenset() and marks[2][0] == {1, 2} and marks[1][1] == {1, 2, 3}
    assert pencil_in('{"pencil": [[[1], [], []], [[], [], []], [[], [], [3]]]}', 3)[2][2] == {3}
    with pytest.raises(PuzzleError, match="3 rows of 3"):
        pencil_in("12 3", 3)
    with pytest.raises(PuzzleError, match="digits 1..3"):
        pencil_in("[[[4], [], []], [[], [], []], [[], [], []]]", 3)


def test_hints_follow_the_puzzle_not_a_stored_answer():
    # The same cage layout with another clue gives another hint digit: nothing is hard-coded.
    a = Puzzle(4, (Cage(((0, 0),), "=", 1),))
    b = Puzzle(4, (Cage(((0, 0),), "=", 3),))
    assert hint(a, level=3).value == 1 and hint(b, level=3).value == 3
    assert solve(a).status == "multiple"
