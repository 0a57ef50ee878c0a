"""The puzzle generator: random Latin squares, connected cages, fitting clues, proved uniqueness."""
import random
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver import clue_problems, solve
from solver.cage_tuples import satisfies
from solver.generator import (GeneratedPuzzle, GeneratorOptions, generate, generate_many,
                              random_latin_square, random_partition)


def assert_sound(made: GeneratedPuzzle, options: GeneratorOptions) -> None:
    """The puzzle covers the grid with connected cages of at most max_cage cells, every clue is
    made by the solution's digits, and a fresh engine proves that solution the only one."""
    puzzle, solution, n = made.puzzle, made.solution, options.size
    assert puzzle.size == n and not puzzle.uncovered and not puzzle.warnings()
    assert not clue_problems(puzzle)
    assert_latin(solution)
    for cage in puzzle.cages:
        assert cage.is_connected() and len(cage.cells) <= options.max_cage, cage
        values = tuple(solution[r][c] for r, c in cage.cells)
        assert satisfies(cage.op, cage.target, values, options.calcudoku), cage
    result = solve(puzzle)
    assert result.status == "unique" and result.solution == solution


def assert_latin(grid) -> None:
    """Each row and column of the grid holds 1..N once."""
    digits = set(range(1, len(grid) + 1))
    assert all(set(row) == digits for row in grid)
    assert all({row[c] for row in grid} == digits for c in range(len(grid)))


# -- Latin squares and cages ---------------------------------------------------------------------
@pytest.mark.parametrize("n", range(3, 17))
def test_random_latin_square_is_latin(n):
    assert_latin(random_latin_square(n, random.Random(n)))


def test_latin_squares_of_4x4_reach_both_isotopy_classes_evenly():
    # 576 Latin squares of order 4: 432 isotopic to the cyclic group, 144 to the Klein group. Permuting
    # a cyclic square would never reach the second class; the Markov chain reaches almost all squares.
    rng = random.Random(4)
    squares = [random_latin_square(4, rng) for _ in range(3000)]
    assert len(set(squares)) >= 560
    klein = sum(_is_klein(square) for square in squares)
    assert 0.18 < klein / len(squares) < 0.32  # 144 / 576 = 0.25


def _is_klein(square) -> bool:
    """True when the 4×4 square is isotopic to the Klein group's table: the symbol map taking the first
    row to any other is an involution (for the cyclic group's it is a 4-cycle for two of the rows)."""
    first = square[0]
    for row in square[1:]:
        mapping = {a: b for a, b in zip(first, row)}
        if any(mapping[mapping[a]] != a for a in first):  # the row permutation is not an involution
            return False
    return True


@pytest.mark.parametrize("n, weights", [(6, (0, 1)), (9, (0, 0, 1)), (9, (0.1, 0.4, 0.3, 0.2))])
def test_random_partition_covers_the_grid_with_connected_cages_of_allowed_sizes(n, weights):
    from solver import Cage
    cages = random_partition(n, random.Random(1), weights)
    cells = [cell for cage in cages for cell in cage]
    assert sorted(cells) == [(r, c) for r in range(n) for c in range(n)]
    assert all(Cage(cage, "+", 0).is_connected() and len(cage) <= len(weights) for cage in cages)


def test_partition_keeps_mostly_to_the_wanted_sizes():
    cages = random_partition(9, random.Random(2), (0, 1))
    assert sum(len(cage) == 2 for cage in cages) >= 0.8 * len(cages)


# -- whole puzzles -------------------------------------------------------------------------------
@pytest.mark.parametrize("n, seeds", [(3, range(6)), (4, range(6)), (6, range(3)), (9, range(3)), (16, [1])])
def test_generated_puzzles_are_unique_and_kept_by_their_solution(n, seeds):
    options = GeneratorOptions(size=n)
    for seed in seeds:
        made = generate(options, seed)
        assert made.seed == seed and made.time_ms > 0
        assert_sound(made, options)


def test_twelve_by_twelve_with_small_cages():
    options = GeneratorOptions(size=12, max_cage=4)
    assert_sound(generate(options, 5), options)


def test_same_seed_same_puzzle_and_other_seeds_other_puzzles():
    options = GeneratorOptions(size=6)
    first, again = generate(options, 42), generate(options, 42)
    assert first == again and first.puzzle.cages == again.puzzle.cages
    others = {generate(options, seed).puzzle.cages for seed in range(43, 48)}
    assert first.puzzle.cages not in others and len(others) == 5


def test_generate_many_derives_each_seed_from_the_first():
    options = GeneratorOptions(size=4)
    made = list(generate_many(options, 4, seed=9))
    assert len(made) == 4 and len({m.seed for m in made}) == 4
    assert made == list(generate_many(options, 4, seed=9))
    assert made[2] == generate(options, made[2].seed)
    assert [m.seed for m in made] != [m.seed for m in generate_many(options, 4, seed=10)]


def test_max_cage_is_respected_and_never_above_n():
    for options in (GeneratorOptions(size=9, max_cage=3), GeneratorOptions(size=4)):
        for seed in range(3):
            cages = generate(options, seed).puzzle.cages
            assert max(len(cage.cells) for cage in cages) <= min(options.max_cage, options.size)


def test_classic_clues_look_like_newspaper_ones():
    options = GeneratorOptions(size=9)
    puzzles = [generate(options, seed).puzzle for seed in range(6)]
    cages = [cage for puzzle in puzzles for cage in puzzle.cages]
    assert all(puzzle.operators_shown and puzzle.calcudoku is False for puzzle in puzzles)
    assert all(len(cage.cells) == 2 for cage in cages if cage.op in "-/")
    assert all(len(cage.cells) == 1 for cage in cages if cage.op == "=")
    assert all(cage.target <= options.max_product for cage in cages if cage.op == "*")
    assert {cage.op for cage in cages} == set("+-*/=")
    singles = sum(len(cage.cells) == 1 for cage in cages)
    assert singles < 0.15 * len(cages)  # few givens, like real puzzles


def test_hidden_operators():
    options = GeneratorOptions(size=6, hidden_ops=True)
    for seed in range(3):
        made = generate(options, seed)
        assert made.puzzle.operators_shown is False
        assert all(cage.op == ("=" if len(cage.cells) == 1 else "?") for cage in made.puzzle.cages)
        assert_sound(made, options)


def test_multiplication_only():
    options = GeneratorOptions(size=7, multiplication_only=True)
    for seed in range(3):
        made = generate(options, seed)
        assert all(cage.op == ("=" if len(cage.cells) == 1 else "*") for cage in made.puzzle.cages)
        assert_sound(made, options)


def test_calcudoku_puzzles_use_long_differences_and_quotients():
    options = GeneratorOptions(size=6, calcudoku=True)
    made = [generate(options, seed) for seed in range(12)]
    long = [cage for m in made for cage in m.puzzle.cages if len(cage.cells) > 2 and cage.op in "-/"]
    assert long and all(m.puzzle.calcudoku for m in made)
    for m in made[:4]:
        assert_sound(m, options)


def test_an_engine_that_gives_up_early_still_ends_with_a_proved_unique_puzzle(monkeypatch):
    # A budget of one conflict leaves the engine undecided often: the loosest cages get tightened.
    import solver.generator as generator
    tightened = []
    original = generator.tighten
    monkeypatch.setattr(generator, "tighten", lambda *args: tightened.append(1) or original(*args))
    options = GeneratorOptions(size=7, search_budget=1)
    made = generate(options, 3)
    assert tightened and made.repairs >= len(tightened)
    assert_sound(made, options)


@pytest.mark.parametrize("bad", [dict(size=2), dict(size=17), dict(size=True), dict(max_cage=0),
                                 dict(cage_weights=(0, 0, 0)), dict(cage_weights=(1, -1))])
def test_impossible_options_are_refused(bad):
    with pytest.raises(ValueError):
        GeneratorOptions(**bad)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 63 - 1), n=st.integers(3, 7), hidden=st.booleans(), calcudoku=st.booleans(),
       times=st.booleans(), max_cage=st.integers(1, 6))
def test_any_seed_and_setting_gives_a_sound_unique_puzzle(seed, n, hidden, calcudoku, times, max_cage):
    options = GeneratorOptions(size=n, hidden_ops=hidden, calcudoku=calcudoku, multiplication_only=times,
                               max_cage=max_cage)
    made = generate(options, seed)
    assert_sound(made, options)
    assert made == generate(options, seed)
