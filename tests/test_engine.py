"""The PySAT engine: known solutions, every Keen puzzle, uniqueness, minimal conflict cores."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import keen_ids, random_cages, random_latin, seed_puzzles
from solver import Cage, Engine, Puzzle, PuzzleError, solve
from solver.cage_tuples import satisfies
from solver.encoding import encode
from solver.engine import Undecided


def assert_solves(puzzle: Puzzle, grid) -> None:
    """The grid is a Latin square of 1..N that makes every cage's clue."""
    n = puzzle.size
    digits = set(range(1, n + 1))
    assert all(set(row) == digits for row in grid)
    assert all({grid[r][c] for r in range(n)} == digits for c in range(n))
    for cage in puzzle.cages:
        values = tuple(grid[r][c] for r, c in cage.cells)
        assert satisfies(cage.op, cage.target, values, puzzle.long_minus_divide), cage


@pytest.mark.parametrize("name", list(seed_puzzles()))
def test_seed_puzzles_have_their_known_unique_solution(name):
    puzzle, solution = seed_puzzles()[name]
    result = solve(puzzle)
    assert result.status == "unique"
    assert result.solution == solution


def test_seed_002_has_four_uncovered_cells_and_still_one_solution():
    puzzle, _ = seed_puzzles()["seed002-6x6-partial"]
    assert len(puzzle.uncovered) == 4
    assert any("4 cell(s) in no cage" in w for w in solve(puzzle).warnings)


def test_every_keen_puzzle_is_solved_uniquely_to_a_grid_that_keeps_every_clue():
    from solver.formats import parse_keen
    for game_id in keen_ids():
        puzzle = parse_keen(game_id)
        result = solve(puzzle)
        assert result.status == "unique", game_id
        assert_solves(puzzle, result.solution)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 9), seed=st.integers(0, 10 ** 6))
def test_the_square_a_puzzle_was_made_from_is_among_its_solutions(n, seed):
    rng = random.Random(seed)
    square = random_latin(n, rng)
    puzzle = Puzzle(n, tuple(random_cages(square, rng)))
    result = solve(puzzle)
    assert result.status in ("unique", "multiple")
    assert_solves(puzzle, result.solution)
    if result.status == "unique":
        assert result.solution == square
    else:
        assert_solves(puzzle, result.other)
        assert result.differ and all(result.solution[r][c] != result.other[r][c] for r, c in result.differ)
    with Engine(puzzle) as engine:  # the square itself satisfies the puzzle
        lits = [engine.encoding.entry_literal(r, c, square[r][c]) for r in range(n) for c in range(n)]
        assert engine.find(lits) == square


@settings(max_examples=30, deadline=None)
@given(half=st.integers(2, 5), seed=st.integers(0, 10 ** 6))
def test_a_puzzle_with_two_solutions_reports_multiple(half, seed):
    # An intercalate (a 2×2 sub-square a b / b a) left uncovered, every other cell given: two solutions.
    n, rng = 2 * half, random.Random(seed)
    rows, cols, syms = (rng.sample(range(n), n) for _ in range(3))
    square = [[syms[(rows[r] + cols[c]) % n] + 1 for c in range(n)] for r in range(n)]
    r0, r1 = rows.index(0), rows.index(half)
    c0, c1 = cols.index(0), cols.index(half)
    hole = {(r0, c0), (r0, c1), (r1, c0), (r1, c1)}
    cages = [Cage(((r, c),), "=", square[r][c]) for r in range(n) for c in range(n) if (r, c) not in hole]
    result = solve(Puzzle(n, tuple(cages)))
    assert result.status == "multiple"
    assert set(result.differ) == hole


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 8), seed=st.integers(0, 10 ** 6))
def test_a_contradicted_puzzle_reports_a_minimal_core_whose_removal_makes_it_solvable(n, seed):
    rng = random.Random(seed)
    square = random_latin(n, rng)
    row = rng.randrange(n)
    a, b = rng.sample(range(n), 2)
    # Cell b is given the digit of cell a in the same row: every conflict must involve b's cage.
    clash = [Cage(((row, a),), "=", square[row][a]), Cage(((row, b),), "=", square[row][a])]
    puzzle = Puzzle(n, tuple(random_cages(square, rng, skip={(row, a), (row, b)}) + clash))
    result = solve(puzzle)
    assert result.status == "none"
    core = result.conflict.cages
    assert puzzle.cage_of[(row, b)] in core and len(result.conflict.names) == len(core)
    without = puzzle
    for index in sorted(core, reverse=True):
        without = without.without_cage(index)
    assert solve(without).status != "none"
    only = lambda keep: Puzzle(n, tuple(puzzle.cages[i] for i in keep))
    assert solve(only(core)).status == "none"
    for index in core:  # minimal: without any one of its cages the core can hold
        assert solve(only([i for i in core if i != index])).status != "none"


def test_a_cage_no_digits_can_make_is_refused_before_solving():
    with pytest.raises(PuzzleError, match="prime factor 7"):
        solve(Puzzle(6, (Cage(((0, 0), (0, 1)), "*", 14),)))


def test_calcudoku_cages_are_solved_with_the_largest_first_meaning():
    square = ((1, 2, 3), (2, 3, 1), (3, 1, 2))
    cages = (Cage(((0, 0), (0, 1), (1, 0)), "/", 1),   # 2 / 1 / 2 = 1 (the L-shape repeats 2)
             Cage(((1, 1), (1, 2), (2, 2)), "-", 0),   # 3 - 1 - 2 = 0
             Cage(((0, 2),), "=", 3),
             Cage(((2, 0), (2, 1)), "+", 4))
    puzzle = Puzzle(3, cages, calcudoku=True)
    result = solve(puzzle)
    assert result.status in ("unique", "multiple")
    assert_solves(puzzle, result.solution)
    with Engine(puzzle) as engine:  # the square the clues were taken from is a solution
        lits = [engine.encoding.entry_literal(r, c, square[r][c]) for r in range(3) for c in range(3)]
        assert engine.find(lits) == square
    with pytest.raises(PuzzleError, match="needs Calcudoku rules"):
        solve(Puzzle(3, cages, calcudoku=False))


def test_clause_counts_stay_small_up_to_16x16():
    rng = random.Random(7)
    square = random_latin(16, rng)
    puzzle = Puzzle(16, tuple(random_cages(square, rng)))
    clauses, cardinality = encode(puzzle).size()
    assert clauses < 100_000 and cardinality == 3 * 16 * 16
    assert solve(puzzle).solution is not None


def test_large_sum_cages_switch_to_the_arithmetic_encoding_and_stay_correct():
    rng = random.Random(3)
    n = 12
    square = random_latin(n, rng)
    big = [(0, c) for c in range(6)]
    cages = [Cage(tuple(big), "+", sum(square[0][c] for c in range(6)))]
    cages += random_cages(square, rng, skip=set(big))
    puzzle = Puzzle(n, tuple(cages))
    enc = encode(puzzle)
    assert enc.cages[0].tuples is None  # arithmetic layers, not a tuple table
    result = solve(puzzle)
    assert_solves(puzzle, result.solution)
    with Engine(puzzle) as engine:
        lits = [engine.encoding.entry_literal(r, c, square[r][c]) for r in range(n) for c in range(n)]
        assert engine.find(lits) == square


@pytest.mark.parametrize("op, target", [("+", 11), ("*", 24), ("+", 4), ("*", 1)])
def test_the_layered_encoding_admits_exactly_the_tuples_that_make_the_clue(op, target):
    # Four cells of a 5×5, no rows or columns: every digit tuple is tried against the cage's layers
    # alone (each state's predecessor clause must name every state that steps into it).
    import itertools

    from pysat.solvers import Solver

    from solver.encoding import _layers, var

    n, cells = 5, ((0, 0), (1, 1), (2, 2), (3, 3))
    clauses, _ = _layers(Cage(cells, op, target), n, op, 1000, 1000, 1000)
    admitted = set()
    for digits in itertools.product(range(1, n + 1), repeat=len(cells)):
        with Solver(name="g3", bootstrap_with=clauses) as sat:
            if sat.solve(assumptions=[1000] + [var(n, r, c, v) for (r, c), v in zip(cells, digits)]):
                admitted.add(digits)
    made = {d for d in itertools.product(range(1, n + 1), repeat=len(cells)) if satisfies(op, target, d, True)}
    assert admitted == made and made


def test_each_layer_state_names_every_state_that_steps_into_it():
    # A 40-cell sum cage on a 13×13 (a Kakuro photo read as a KenKen made such cages): each
    # forward clause "state s and digit v give state s2" has its s among the predecessors that the
    # clause "s2 needs one of them" lists, and no predecessor is listed without a forward clause.
    from solver.encoding import _layers

    n, cells = 13, tuple((i // 13, i % 13) for i in range(40))
    top = n ** 3 + 1  # state variables above every cell variable
    clauses, _ = _layers(Cage(cells, "+", 280), n, "+", top, top, top)
    steps = {(-clause[1], clause[3]) for clause in clauses if len(clause) == 4 and abs(clause[2]) <= n ** 3}
    listed = {(s, clause[1] * -1) for clause in clauses if len(clause) > 2 and abs(clause[2]) > n ** 3
              for s in clause[2:]}
    assert steps and steps == listed


@pytest.mark.parametrize("op, shown", [("-", True), ("?", False), ("/", True)])
def test_oversized_minus_divide_and_hidden_cages_keep_their_meaning(op, shown):
    # A 6-cell Calcudoku cage on a 16×16: 16 1 2 / 3 4 5 makes "1-" (16-1-2-3-4-5, too many tuples
    # for a table, so the fallback encoding must keep the meaning) and 16 1 2 / 2 4 1 makes "1/".
    digits = {"-": (16, 1, 2, 3, 4, 5), "?": (16, 1, 2, 3, 4, 5), "/": (16, 1, 2, 2, 4, 1)}[op]
    target = 1
    cells = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    cage = Cage(cells, op, target)
    puzzle = Puzzle(16, (cage,), operators_shown=shown, calcudoku=True)
    assert satisfies(op, target, digits, True)
    if op in "-?":
        assert encode(puzzle).cages[0].tuples is None  # the fallback encoding is what is tested
    with Engine(puzzle) as engine:
        lits = [engine.encoding.entry_literal(r, c, v) for (r, c), v in zip(cells, digits)]
        found = engine.find(lits)
    assert found is not None and tuple(found[r][c] for r, c in cells) == digits


def _rows_of_sums(n: int = 9) -> Puzzle:
    """A 9×9 whose rows are three 15+ cages each: a great many solutions."""
    cages = tuple(Cage(tuple((r, 3 * k + j) for j in range(3)), "+", 15) for r in range(n) for k in range(3))
    return Puzzle(n, cages, True, None, False)


def test_a_question_past_its_conflict_budget_is_undecided_not_answered():
    # A misread photo can make a puzzle far harder than any printed one (a Kakuro photo read as a
    # 13×13 KenKen kept the solver busy for over ten minutes): with a budget, the engine stops.
    puzzle = _rows_of_sums()
    with pytest.raises(Undecided):
        solve(puzzle, conflicts=1)
    assert solve(puzzle, conflicts=10_000).status == solve(puzzle).status == "multiple"


def test_a_conflict_too_hard_to_narrow_down_keeps_its_cages_and_says_it_is_not_minimal(monkeypatch):
    # An 8×8 with a 24-cell cage and a sum off by one (a misread photo's kind) was found to have no
    # solution in 2 s, then narrowing its conflict down ran on for minutes (SHRINK_CONFLICTS). Here
    # a plain contradicted puzzle with no conflicts to spend: the core as the solver gave it.
    import solver.engine as engine
    square = random_latin(5, random.Random(3))
    clash = [Cage(((0, 0),), "=", square[0][0]), Cage(((0, 1),), "=", square[0][0])]
    puzzle = Puzzle(5, tuple(random_cages(square, random.Random(4), skip={(0, 0), (0, 1)}) + clash))
    narrowed = solve(puzzle).conflict
    assert narrowed.minimal
    monkeypatch.setattr(engine, "SHRINK_CONFLICTS", 0)
    kept = solve(puzzle).conflict
    assert not kept.minimal and set(narrowed.cages) <= set(kept.cages)
    assert solve(Puzzle(5, tuple(puzzle.cages[i] for i in kept.cages))).status == "none"
