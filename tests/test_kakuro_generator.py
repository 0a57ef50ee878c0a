"""The Kakuro generator: unique puzzles (proved by the engine, checked by brute force when small),
legal layouts, the same seed gives the same puzzle, `kensnap generate --kakuro`."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from solver.kakuro import kakuro_from_json, parse_kakuro_text
from solver.kakuro.engine import solve_kakuro
from solver.kakuro.generator import KakuroOptions, generate_kakuro, generate_kakuros, random_layout
from solver.kakuro.model import Clue
from test_kakuro_engine import brute_force, keeps_every_run
from ui.cli import main


def assert_legal(made) -> None:
    """Unique by the engine, the stored solution keeps every run, runs of 2..max_run cells, one group."""
    puzzle = made.puzzle
    result = solve_kakuro(puzzle)
    assert result.status == "unique" and result.solution == made.solution
    assert keeps_every_run(puzzle, made.solution)
    assert all(2 <= len(run.cells) <= KakuroOptions().max_run for run in puzzle.runs)
    assert puzzle.warnings() == []
    assert not any(puzzle.is_white((0, c)) for c in range(puzzle.cols))
    assert not any(puzzle.is_white((r, 0)) for r in range(puzzle.rows))
    if min(puzzle.rows, puzzle.cols) >= 5:  # three or four cells across: rarely possible, given up after a while
        assert not bare_lines(puzzle)


def bare_lines(puzzle) -> list[str]:
    """The outer rows and columns that hold nothing but blocks (no printed Kakuro has one)."""
    lines = {"first row": [(0, c) for c in range(puzzle.cols)], "last row": [(puzzle.rows - 1, c) for c in range(puzzle.cols)],
             "first column": [(r, 0) for r in range(puzzle.rows)], "last column": [(r, puzzle.cols - 1) for r in range(puzzle.rows)]}
    return [name for name, cells in lines.items() if all(puzzle.grid[r][c] == "#" for r, c in cells)]


def test_no_outer_line_of_nothing_but_blocks():
    # Corpus puzzles kk8181-0179 (7×8) and kk7070-0097 (9×9): hard repairs blocked every white cell
    # of an outer line, leaving a column of plain blocks no printed Kakuro has (a photo reader
    # rightly takes such a line for a margin).
    for rows, cols, seed in ((7, 8, 34919509), (9, 9, 312491841)):
        made = generate_kakuro(KakuroOptions(rows=rows, cols=cols), seed)
        assert (made.puzzle.rows, made.puzzle.cols) == (rows, cols)
        assert_legal(made)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 8), st.integers(3, 8), st.integers(0, 2 ** 32))
def test_generated_puzzles_are_unique_and_legal(rows, cols, seed):
    made = generate_kakuro(KakuroOptions(rows=rows, cols=cols), seed)
    assert (made.puzzle.rows, made.puzzle.cols) == (rows, cols)
    assert_legal(made)
    if len(made.puzzle.whites) <= 10:
        assert len(brute_force(made.puzzle)) == 1


def test_a_fifteen_by_fifteen_is_unique_and_mostly_white():
    made = generate_kakuro(KakuroOptions(rows=15, cols=15), 2026)
    assert_legal(made)
    assert len(made.puzzle.whites) >= 0.5 * 14 * 14


def test_the_same_seed_gives_the_same_puzzle():
    first = generate_kakuro(KakuroOptions(rows=9, cols=9), 7)
    again = generate_kakuro(KakuroOptions(rows=9, cols=9), 7)
    assert first.puzzle == again.puzzle and first.solution == again.solution
    assert [m.puzzle for m in generate_kakuros(KakuroOptions(rows=6, cols=6), 2, 1)] == \
        [m.puzzle for m in generate_kakuros(KakuroOptions(rows=6, cols=6), 2, 1)]


def test_layouts_keep_runs_short_and_the_block_share():
    import random
    options = KakuroOptions(rows=12, cols=12, max_run=5)
    whites = random_layout(options, random.Random(4))
    inner = 11 * 11
    assert 0.5 * inner <= len(whites) <= (1 - options.blocks) * inner + 2
    made = generate_kakuro(options, 4)
    assert max(len(run.cells) for run in made.puzzle.runs) <= 5


@pytest.mark.parametrize("kwargs, words", [
    ({"rows": 2}, "rows must be a whole number from 3 to 15"),
    ({"cols": 16}, "cols must be a whole number from 3 to 15"),
    ({"max_run": 1}, "max_run must be a whole number from 2 to 9"),
    ({"blocks": 0.9}, "blocks must be a share from 0 to 0.8"),
    ({"search_budget": 0}, "search_budget must be at least 1"),
])
def test_impossible_options_are_refused_in_words(kwargs, words):
    with pytest.raises(ValueError, match=words):
        KakuroOptions(**kwargs)


def test_cli_generate_prints_puzzles_that_read_back(capsys):
    assert main(["generate", "--kakuro", "--rows", "6", "--cols", "8", "--count", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    chunks = [chunk for chunk in out.split("\n\n") if chunk.strip()]
    assert len(chunks) == 2 and all(chunk.startswith("# kakuro ") for chunk in chunks)
    puzzles = [parse_kakuro_text(chunk) for chunk in chunks]
    assert all((p.rows, p.cols) == (6, 8) and solve_kakuro(p).status == "unique" for p in puzzles)
    assert main(["generate", "--kakuro", "--rows", "6", "--cols", "8", "--count", "2", "--seed", "5", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [kakuro_from_json(json.loads(line)) for line in lines] == puzzles


def test_cli_generate_refuses_bad_sizes(capsys):
    assert main(["generate", "--kakuro", "--rows", "20"]) == 2
    assert "rows must be a whole number from 3 to 15" in capsys.readouterr().err


def test_clue_cells_hold_the_sums_of_the_solution():
    made = generate_kakuro(KakuroOptions(rows=7, cols=7), 11)
    for run in made.puzzle.runs:
        clue = made.puzzle.grid[run.clue_cell[0]][run.clue_cell[1]]
        assert isinstance(clue, Clue) and clue.total(run.direction) == sum(made.solution[r][c] for r, c in run.cells)
