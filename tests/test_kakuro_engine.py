"""The Kakuro engine and checks: the seed sample's known solution, agreement with brute force on small
random puzzles, several solutions, minimal conflicts that name runs, wrong entries without spoilers."""
import pytest
from hypothesis import given, settings, strategies as st

from solver.puzzle import PuzzleError
from solver.kakuro import BLOCK, WHITE, Clue, KakuroPuzzle, parse_kakuro_text
from solver.kakuro.check import check_kakuro
from solver.kakuro.encoding import encode
from solver.kakuro.engine import KakuroEngine, solve_kakuro
from test_kakuro_model import SMALL, seed_puzzle

SEED_SOLUTION = {  # the seed's steps give the first five: 1D+2D=17, 1D+1E=10, 2D+2E=15, 3E=7
    (1, 3): 8, (1, 4): 2, (2, 3): 9, (2, 4): 6, (3, 4): 7, (3, 5): 3, (3, 6): 1, (4, 1): 1, (4, 2): 7, (4, 3): 5,
    (4, 5): 8, (4, 6): 5, (5, 1): 8, (5, 2): 9, (5, 3): 6, (5, 4): 4, (5, 5): 7, (5, 6): 3, (6, 3): 9, (6, 4): 6,
}


def keeps_every_run(puzzle: KakuroPuzzle, grid) -> bool:
    """Digits on exactly the white cells; every run different digits adding up to its clue."""
    if any((grid[r][c] is not None) != puzzle.is_white((r, c)) for r, c in puzzle.cells):
        return False
    for run in puzzle.runs:
        digits = [grid[r][c] for r, c in run.cells]
        if len(set(digits)) != len(digits) or sum(digits) != run.total or not set(digits) <= set(range(1, 10)):
            return False
    return True


def brute_force(puzzle: KakuroPuzzle, limit: int = 2) -> list[dict]:
    """Up to ``limit`` solutions by plain backtracking (an independent check of the engine)."""
    whites, found, value = puzzle.whites, [], {}

    def fits(cell) -> bool:
        for run in puzzle.runs_through(cell):
            digits = [value[c] for c in run.cells if c in value]
            if len(set(digits)) != len(digits) or sum(digits) > run.total:
                return False
            if len(digits) == len(run.cells) and sum(digits) != run.total:
                return False
        return True

    def extend(i: int) -> None:
        if len(found) >= limit:
            return
        if i == len(whites):
            found.append(dict(value))
            return
        for v in range(1, 10):
            value[whites[i]] = v
            if fits(whites[i]):
                extend(i + 1)
            del value[whites[i]]

    extend(0)
    return found


def test_the_seed_sample_has_its_known_unique_solution():
    result = solve_kakuro(seed_puzzle())
    assert result.status == "unique"
    assert {cell: result.solution[cell[0]][cell[1]] for cell in seed_puzzle().whites} == SEED_SOLUTION
    assert keeps_every_run(seed_puzzle(), result.solution)
    assert result.solution[0][0] is None and result.time_ms > 0


def test_a_two_by_two_of_fours_has_two_solutions_that_differ_everywhere():
    puzzle = parse_kakuro_text("X 4\\ 4\\\n\\4 . .\n\\4 . .\n")
    result = solve_kakuro(puzzle)
    assert result.status == "multiple" and result.solution != result.other
    assert set(result.differ) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    assert keeps_every_run(puzzle, result.solution) and keeps_every_run(puzzle, result.other)


def test_no_solution_gives_a_minimal_set_of_runs_by_name():
    # 3 across is 1+2 and each 4 down is 1+3: both cells of the 3 would be 1; the 4 across is innocent
    puzzle = parse_kakuro_text("X 4\\ 4\\\n\\3 . .\n\\4 . .\n")
    result = solve_kakuro(puzzle)
    assert result.status == "none"
    assert result.conflict.names == ("run 3 across at r2c1", "run 4 down at r1c2", "run 4 down at r1c3")
    with KakuroEngine(puzzle) as engine:  # minimal: without any one of them a solution exists
        for i in result.conflict.cages:
            rest = [engine.activations[j] for j in result.conflict.cages if j != i]
            assert engine.solver.solve(assumptions=rest)


def test_an_impossible_clue_is_bad_input_in_words():
    with pytest.raises(PuzzleError, match="run 18 down at r1c3: 2 different digits 1..9 add up to 3..17, not 18"):
        solve_kakuro(parse_kakuro_text("X 4\\ 18\\\n\\3 . .\n\\4 . .\n"))


def test_runs_are_encoded_by_their_combinations_not_their_permutations():
    # two rows of '45 in nine': 9! orderings each, one combination; the encoding stays small
    first, second = list(range(1, 10)), list(range(2, 10)) + [1]
    text = "X " + " ".join(f"{a + b}\\" for a, b in zip(first, second)) + "\n" + ("\\45 " + ". " * 9 + "\n") * 2
    puzzle = parse_kakuro_text(text)
    clauses, _ = encode(puzzle).size()
    assert clauses < 3000
    result = solve_kakuro(puzzle)
    assert result.status in ("unique", "multiple") and keeps_every_run(puzzle, result.solution)


@st.composite
def small_puzzles(draw):
    """A random small layout, its runs clued from a random fill of different digits."""
    rows, cols = draw(st.integers(3, 5)), draw(st.integers(3, 5))
    white = [[r > 0 and c > 0 and draw(st.integers(0, 3)) > 0 for c in range(cols)] for r in range(rows)]
    for r in range(rows):  # no run of one cell: it would be a given in disguise
        for c in range(cols):
            if white[r][c]:
                alone_across = not (c > 1 and white[r][c - 1]) and not (c + 1 < cols and white[r][c + 1])
                alone_down = not (r > 1 and white[r - 1][c]) and not (r + 1 < rows and white[r + 1][c])
                if alone_across or alone_down:
                    white[r][c] = False
    cells = [(r, c) for r in range(rows) for c in range(cols) if white[r][c]]
    if not cells:
        return None
    fill = {}
    for cell in cells:
        fill[cell] = draw(st.integers(1, 9))
    grid = [[WHITE if white[r][c] else BLOCK for c in range(cols)] for r in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if white[r][c]:
                continue
            across = [fill[(r, x)] for x in range(c + 1, cols) if all(white[r][y] for y in range(c + 1, x + 1))]
            down = [fill[(y, c)] for y in range(r + 1, rows) if all(white[z][c] for z in range(r + 1, y + 1))]
            if across or down:
                grid[r][c] = Clue(sum(down) or None, sum(across) or None)
    try:
        return KakuroPuzzle(rows, cols, tuple(map(tuple, grid)))
    except PuzzleError:
        return None


@settings(max_examples=150, deadline=None)
@given(small_puzzles())
def test_the_engine_agrees_with_brute_force(puzzle):
    if puzzle is None or len(puzzle.whites) > 9:
        return
    try:
        result = solve_kakuro(puzzle)
    except PuzzleError:  # a clue made by repeated digits may be out of range: brute force agrees
        assert brute_force(puzzle, 1) == []
        return
    found = brute_force(puzzle)
    assert result.status == {0: "none", 1: "unique", 2: "multiple"}[len(found)]
    if result.solution is not None:
        assert keeps_every_run(puzzle, result.solution)
    if result.other is not None:
        assert keeps_every_run(puzzle, result.other) and result.other != result.solution


def entries_with(puzzle: KakuroPuzzle, digits: dict) -> tuple:
    grid = puzzle.empty_grid()
    for (r, c), v in digits.items():
        grid[r][c] = v
    return tuple(map(tuple, grid))


def test_right_entries_are_completable_and_nothing_is_wrong():
    puzzle = seed_puzzle()
    chosen = {cell: SEED_SOLUTION[cell] for cell in list(SEED_SOLUTION)[::3]}
    result = check_kakuro(puzzle, entries_with(puzzle, chosen))
    assert result.status == "unique" and result.completable and result.wrong == () and result.conflict is None
    assert result.filled == len(chosen) and result.clashes == ()


def test_a_wrong_entry_is_named_and_the_conflict_holds_it():
    puzzle = seed_puzzle()
    digits = {(1, 3): 8, (3, 4): 6, (4, 1): 1}  # r4c5 should be 7
    result = check_kakuro(puzzle, entries_with(puzzle, digits))
    assert result.status == "unique" and not result.completable
    assert result.wrong == ((3, 4),)
    assert (3, 4) in result.conflict.entries
    assert any(name == "entry 6 at r4c5" for name in result.conflict.names)
    assert all(name.startswith(("run ", "entry ")) for name in result.conflict.names)


def test_repeated_digits_and_full_runs_with_the_wrong_sum_are_clashes():
    puzzle = parse_kakuro_text(SMALL).with_entries(None)
    result = check_kakuro(puzzle, entries_with(puzzle, {(1, 1): 2, (1, 2): 2}))
    assert result.clashes == ("run 3 across at r2c1 holds 2 2 times (r2c2, r2c3)", "run 3 across at r2c1 is full but adds up to 4")
    assert not result.completable and set(result.wrong) <= {(1, 1), (1, 2)} and result.wrong


def test_with_several_solutions_an_entry_is_wrong_only_if_no_solution_has_it():
    puzzle = parse_kakuro_text("X 4\\ 4\\\n\\4 . .\n\\4 . .\n")
    fine = check_kakuro(puzzle, entries_with(puzzle, {(1, 1): 3}))
    assert fine.status == "multiple" and fine.completable and fine.wrong == ()
    bad = check_kakuro(puzzle, entries_with(puzzle, {(1, 1): 2}))
    assert bad.wrong == ((1, 1),) and not bad.completable


def test_check_needs_entries():
    with pytest.raises(PuzzleError, match="no entries to check"):
        check_kakuro(seed_puzzle())
