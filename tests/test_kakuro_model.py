"""The Kakuro model and its formats: runs found from the layout, readable errors, JSON and text
round trips, combination tables."""
import json
from itertools import combinations as subsets

import pytest
from hypothesis import given, settings, strategies as st

from conftest import REPO
from solver.puzzle import PuzzleError
from solver.kakuro import (BLOCK, WHITE, Clue, KakuroPuzzle, clue_problems, combinations, format_kakuro_text,
                           is_kakuro_json, kakuro_entries_in, kakuro_from_json, kakuro_to_json,
                           looks_like_kakuro_text, parse_kakuro_text)
from solver.kakuro.model import sum_range

SEED_SAMPLE = REPO / "samples" / "kakuro-seed003.txt"
SMALL = "X 4\\ 3\\\n\\3 . .\n\\4 . 1\n"


def seed_puzzle() -> KakuroPuzzle:
    return parse_kakuro_text(SEED_SAMPLE.read_text())


def test_the_seed_sample_has_the_runs_the_seed_describes():
    puzzle = seed_puzzle()
    assert (puzzle.rows, puzzle.cols) == (7, 7)
    names = {run.name: run.cells for run in puzzle.runs}
    # "1D+1E=10 because of 1C across", "1D+2D=17 because of 0D", 0E covers 1E, 2E and 3E
    assert names["10 across at r2c3"] == ((1, 3), (1, 4))
    assert names["17 down at r1c4"] == ((1, 3), (2, 3))
    assert names["15 down at r1c5"] == ((1, 4), (2, 4), (3, 4))
    assert names["11 across at r4c4"] == ((3, 4), (3, 5), (3, 6))
    assert len(puzzle.whites) == 20 and len(puzzle.runs) == 15 and puzzle.warnings() == []
    for cell in puzzle.whites:  # every white cell lies in one across and one down run
        across, down = puzzle.runs_through(cell)
        assert across.direction == "across" and down.direction == "down"
        assert cell in across.cells and cell in down.cells


def test_the_small_text_reads_its_entry_and_round_trips():
    puzzle = parse_kakuro_text(SMALL)
    assert puzzle.grid[0] == (BLOCK, Clue(down=4), Clue(down=3))
    assert puzzle.grid[1] == (Clue(across=3), WHITE, WHITE)
    assert puzzle.entries[2][2] == 1 and sum(v is not None for row in puzzle.entries for v in row) == 1
    again = parse_kakuro_text(format_kakuro_text(puzzle))
    assert again == puzzle


def test_json_round_trip_and_shape_of_the_contract():
    puzzle = seed_puzzle().with_entries(None)
    data = kakuro_to_json(puzzle)
    assert data["puzzle"] == "kakuro" and data["rows"] == 7 and data["cols"] == 7
    assert data["grid"][0][3] == {"down": 17} and data["grid"][3][3] == {"down": 20, "across": 11}
    assert data["grid"][0][0] == "#" and data["grid"][1][3] == "."
    assert "entries" not in data
    text = json.dumps(data)
    assert kakuro_from_json(json.loads(text)) == puzzle
    assert is_kakuro_json(data) and is_kakuro_json({"truth": data, "puzzle": "kakuro"})
    assert not is_kakuro_json({"size": 4, "cages": []})


def test_ascii_drawings_paste_as_they_are():
    drawing = """
    +-----+-----+-----+
    |XXXXX| 4\\  | 3\\  |
    +-----+-----+-----+
    | \\3  | ___ | ___ |
    +-----+-----+-----+
    | \\4  | ___ | ___ |
    +-----+-----+-----+
    """
    assert looks_like_kakuro_text(drawing)
    assert parse_kakuro_text(drawing) == parse_kakuro_text(SMALL).with_entries(None)


def test_kenken_text_is_not_taken_for_kakuro():
    assert not looks_like_kakuro_text((REPO / "samples" / "seed000-4x4.txt").read_text())


@pytest.mark.parametrize("text, words", [
    ("X 4\\ 3\\\n\\3 . .\n\\4 . .\n. X X\n", "r4c1 has no across clue: it is on the grid's edge"),
    ("X 4\\ X\n\\3 . .\n\\4 . .\n", "white cell r2c3 has no down clue: r1c3 before it is a block"),
    ("5\\ 4\\ 3\\\n\\3 . .\n\\4 . .\n", "clue cell r1c1 gives 5 down but no white cell follows it"),
    ("X 4\\ 3\\\n\\3 . .\n\\4 . ab\n", "line 3, column 6: 'ab' is not a Kakuro cell"),
    ("X 4\\ 3\\\n\\3 . .\n\\4 .\n", "line 3, column 1: this row has 2 cells, the first row has 3"),
    ("", "the Kakuro text is empty"),
    ("X " + "X " * 10 + "\n\\45 " + ". " * 10 + "\n", "has 10 cells: at most 9 different digits fit"),
])
def test_bad_text_gives_one_readable_message(text, words):
    with pytest.raises(PuzzleError) as err:
        parse_kakuro_text(text)
    assert words in str(err.value)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("rows"), "the Kakuro has no 'rows'"),
    (lambda d: d.update(cols=2.5), "'cols' must be a whole number"),
    (lambda d: d["grid"][1].__setitem__(1, "W"), "grid[1][1] is 'W'"),
    (lambda d: d["grid"][0].__setitem__(1, {"down": 4, "right": 3}), "grid[0][1] has unknown key(s) right"),
    (lambda d: d["grid"][0].__setitem__(1, {"down": 0}), "grid[0][1]: a down clue must be a whole number ≥ 1"),
    (lambda d: d["grid"].pop(), "the grid must be 3 rows of 3 cells"),
    (lambda d: d.update(entries=[[None] * 3, [None, 10, None], [None] * 3]), "entry at r2c2 must be a digit 1..9"),
    (lambda d: d.update(entries=[[5, None, None], [None] * 3, [None] * 3]), "entry 5 at r1c1: that cell is not a white cell"),
    (lambda d: d.update(puzzle="sudoku"), "'puzzle' must be \"kakuro\""),
])
def test_bad_json_names_the_key_at_fault(change, words):
    data = kakuro_to_json(parse_kakuro_text(SMALL).with_entries(None))
    change(data)
    with pytest.raises(PuzzleError) as err:
        kakuro_from_json(data)
    assert words in str(err.value)


def test_impossible_clues_are_reported_in_words():
    puzzle = parse_kakuro_text("X 4\\ 18\\\n\\3 . .\n\\4 . .\n")
    assert clue_problems(puzzle) == ["run 18 down at r1c3: 2 different digits 1..9 add up to 3..17, not 18"]
    assert clue_problems(seed_puzzle()) == []


def test_entries_from_a_grid_of_tokens_from_json_and_from_the_text_format():
    puzzle = parse_kakuro_text(SMALL).with_entries(None)
    expected = ((None, None, None), (None, 2, None), (None, None, 1))
    assert kakuro_entries_in("X X X\nX 2 .\nX . 1\n", puzzle) == expected
    assert kakuro_entries_in(json.dumps([[None] * 3, [None, 2, None], [None, None, 1]]), puzzle) == expected
    assert kakuro_entries_in("X 4\\ 3\\\n\\3 2 .\n\\4 . 1\n", puzzle) == expected
    with pytest.raises(PuzzleError, match="layout differs"):
        kakuro_entries_in("X 4\\ 3\\\n\\3 2 .\n\\5 . 1\n", puzzle)
    with pytest.raises(PuzzleError, match="entries must be 3 rows of 3 cells"):
        kakuro_entries_in("X X\nX 2\n", puzzle)


def test_an_empty_clue_is_a_block_and_a_puzzle_needs_white_cells():
    assert parse_kakuro_text(SMALL + "\\ X X\n").grid[3][0] == BLOCK
    with pytest.raises(PuzzleError, match="no white cells"):
        KakuroPuzzle(2, 2, ((BLOCK, BLOCK), (BLOCK, BLOCK)))


@given(st.integers(1, 9), st.integers(1, 45))
def test_combination_tables_hold_every_set_of_different_digits_with_the_sum(k, total):
    table = combinations(k, total)
    expected = {frozenset(s) for s in subsets(range(1, 10), k) if sum(s) == total}
    assert set(table) == expected and len(table) == len(expected)
    low, high = sum_range(k)
    assert bool(table) == (low <= total <= high)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_layouts_round_trip_through_json_and_text(data):
    rows, cols = data.draw(st.integers(3, 8)), data.draw(st.integers(3, 8))
    grid = [[BLOCK] * cols for _ in range(rows)]
    for r in range(1, rows):  # white cells: a random subset of the interior, runs clued where they start
        for c in range(1, cols):
            grid[r][c] = WHITE if data.draw(st.booleans()) else BLOCK
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == WHITE:
                continue
            across = c + 1 < cols and grid[r][c + 1] == WHITE
            down = r + 1 < rows and grid[r + 1][c] == WHITE
            if across or down:
                grid[r][c] = Clue(data.draw(st.integers(3, 40)) if down else None,
                                  data.draw(st.integers(3, 40)) if across else None)
    try:
        puzzle = KakuroPuzzle(rows, cols, tuple(map(tuple, grid)))
    except PuzzleError as err:  # only two structures are refused here: no white cell, a run of 10+
        assert "no white cells" in str(err) or "different digits fit" in str(err)
        return
    assert kakuro_from_json(json.loads(json.dumps(kakuro_to_json(puzzle)))) == puzzle
    assert parse_kakuro_text(format_kakuro_text(puzzle)) == puzzle
    assert sorted(c for run in puzzle.runs for c in run.cells) == sorted(puzzle.whites * 2)
