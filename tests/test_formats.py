"""Formats: the JSON schema (a contract), the typed text format, Keen IDs — round trips and errors."""
import json

import pytest

from conftest import SHARED, keen_ids, seed_puzzles
from solver import Cage, Puzzle, PuzzleError
from solver.formats import (dumps, entries_in, format_keen, format_text, loads, parse_keen, parse_text,
                            puzzle_from_json, puzzle_to_json, puzzles_in)

SEED_000_TEXT = """\
# seed 000's 4×4
a a b b
c a d e
c c d f
c g g f
a 12x  b 2/  c 11+  d 2-  e 2  f 4+  g 3-
"""


def test_text_format_reads_the_seed_000_example(seeds):
    puzzle, _ = seeds["seed000-4x4"]
    assert parse_text(SEED_000_TEXT) == puzzle


@pytest.mark.parametrize("clues", [
    "a 12×  b 2÷  c 11+  d 2−  e 2  f 4+  g 3–",
    "a 12*  b 2:  c +11  d -2  e 2  f 4+  g 3-",
    "a x12, b /2, c 11+, d 2-, e 2, f 4+, g 3-",
])
def test_text_format_accepts_the_glyphs_people_type(seeds, clues):
    text = SEED_000_TEXT.replace("a 12x  b 2/  c 11+  d 2-  e 2  f 4+  g 3-", clues)
    assert parse_text(text) == seeds["seed000-4x4"][0]


def test_text_format_map_without_spaces_rules_and_entries():
    text = "aab\ncdb\ncdd\na 3+ b 4/ c 5+ d 4+\nrules: calcudoku\nentries:\n1 . .\n. . .\n. 3 .\n"
    puzzle = parse_text(text)
    assert puzzle.size == 3 and puzzle.calcudoku is True
    assert puzzle.entries == ((1, None, None), (None, None, None), (None, 3, None))
    assert parse_text(format_text(puzzle)) == puzzle


def test_text_format_without_operators_is_operators_hidden():
    puzzle = parse_text("a a b\nc d b\nc d d\na 3 b 4 c 5 d 4\n")
    assert not puzzle.operators_shown
    assert {cage.op for cage in puzzle.cages} == {"?"}
    assert parse_text(format_text(puzzle)) == puzzle


@pytest.mark.parametrize("text, where, words", [
    ("a a b\nc d b\nc d d\na 3+ b 4/ c 5+\n", "line 2, column 3", "cage 'd' has no clue"),
    ("a a b\nc d b\nc d d\na 3+ b 4/ c 5+ d 4% \n", "line 4, column 18", "not a clue"),
    ("a a b\nc d b\nc d\na 3+\n", "line 3, column 1", "map row has 2 cells"),
    ("a a b\nc d b\nc d d\na 3+ b 4/ c 5+ e 4+\n", "line 4, column 16", "'e' is not a label"),
    ("a a b\nc d b\nc d d\na 3+ b 4/ c\n", "line 4, column 11", "clues come in pairs"),
    ("a a b\nc d b\nc d d\na 3+ b 4/ c 5+ d 4+\nentries:\n1 2 9\n. . .\n. . .\n", "line 6, column 5", "not a digit"),
])
def test_text_format_errors_name_line_and_column(text, where, words):
    with pytest.raises(PuzzleError) as err:
        parse_text(text)
    assert where in str(err.value) and words in str(err.value)


def test_text_format_error_counts_read_as_english():
    with pytest.raises(PuzzleError, match="line 1, column 17: the map needs 5 rows of 5 cells, found only 1 line$"):
        parse_text("not a puzzle at all\n")
    with pytest.raises(PuzzleError, match="found only 2 lines$"):
        parse_text("a a b c\na a b c\n")


def test_json_schema_round_trips_the_seed_puzzles():
    data = json.loads((SHARED / "puzzles" / "seed-puzzles.json").read_text())
    for item in data.values():
        puzzle = puzzle_from_json(item["puzzle"])
        assert loads(dumps(puzzle)) == puzzle
        written = puzzle_to_json(puzzle)
        assert sorted(map(str, written["cages"])) == sorted(
            str({"cells": sorted(c["cells"]), "op": c["op"], "target": c["target"]}) for c in item["puzzle"]["cages"])


def test_json_schema_reads_the_realdev_truth_wrappers():
    for path in sorted((SHARED / "realdev").glob("*.json")):
        data = json.loads(path.read_text())
        puzzle = puzzle_from_json(data)
        assert puzzle.size == data["truth"]["size"]
        assert len(puzzle.cages) == len(data["truth"]["cages"])


@pytest.mark.parametrize("doc, words", [
    ('{"size": 4}', "no 'cages'"),
    ('{"size": "4", "cages": []}', "'size' must be a whole number"),
    ('{"size": 4, "cages": [{"cells": [[0, 0]], "op": "%", "target": 1}]}', "cages[0].op"),
    ('{"size": 4, "cages": [{"cells": [0, 0], "op": "+", "target": 1}]}', "cages[0].cells"),
    ('{"size": 4, "cages": [{"cells": [[0, 0]], "op": "=", "target": "1"}]}', "cages[0].target"),
    ('{"size": 4, "cages": [], "entries": [[1, "x"]]}', "'entries' holds 'x'"),
    ('{"size": 4, "cages": [', "not valid JSON"),
])
def test_malformed_json_gets_one_clear_message(doc, words):
    with pytest.raises(PuzzleError) as err:
        loads(doc)
    assert words in str(err.value)


def test_every_keen_puzzle_round_trips_through_every_format():
    ids = keen_ids()
    assert len(ids) == 90
    for game_id in ids:
        puzzle = parse_keen(game_id)
        assert format_keen(puzzle) == game_id
        assert parse_text(format_text(puzzle)) == puzzle
        assert loads(dumps(puzzle)) == puzzle


def test_seed_puzzles_round_trip_through_text_and_keen_where_keen_can_hold_them():
    for name, (puzzle, _) in seed_puzzles().items():
        assert parse_text(format_text(puzzle)) == puzzle
        if puzzle.uncovered:
            with pytest.raises(PuzzleError, match="in no cage"):
                format_keen(puzzle)
        else:
            assert parse_keen(format_keen(puzzle)) == puzzle


def test_keen_errors_are_clear():
    with pytest.raises(PuzzleError, match="has 9 cages but 1 clue$"):
        parse_keen("3:_13,a1")
    with pytest.raises(PuzzleError, match="not a Keen game ID"):
        parse_keen("hello")
    with pytest.raises(PuzzleError, match="walk"):
        parse_keen("4:a_7a__a_aab,d2s1a6a5m4d2s2m12")


def test_keen_cannot_hold_hidden_operators():
    cells = [(r, c) for r in range(3) for c in range(3)]
    cages = [Cage(((0, 0), (0, 1)), "?", 3)] + [Cage((cell,), "=", 1) for cell in cells[2:]]
    puzzle = Puzzle(3, tuple(cages), operators_shown=False)
    with pytest.raises(PuzzleError, match="hidden operators"):
        format_keen(puzzle)


def test_detection_tells_json_lines_keen_lines_and_text_apart(seeds):
    puzzle = seeds["seed000-4x4"][0]
    many = "\n".join([dumps(puzzle), "{bad", dumps(puzzle)])
    items = puzzles_in(many, "in")
    assert [label for label, _ in items] == ["in:1", "in:2", "in:3"]
    assert isinstance(items[1][1], PuzzleError) and items[2][1] == puzzle
    keen = "\n".join(keen_ids()[:3])
    assert [type(p) for _, p in puzzles_in(keen, "k")] == [Puzzle] * 3
    assert puzzles_in(SEED_000_TEXT, "t") == [("t", puzzle)]
    named = puzzles_in((SHARED / "puzzles" / "seed-puzzles.json").read_text(), "s")
    assert len(named) == 4 and all(isinstance(p, Puzzle) for _, p in named)


def test_entries_from_json_and_text_rows():
    assert entries_in("[[1, null, null], [null, 2, null], [null, null, 3]]", 3) == ((1, None, None), (None, 2, None), (None, None, 3))
    assert entries_in("1..\n.2.\n..3\n", 3) == ((1, None, None), (None, 2, None), (None, None, 3))
    with pytest.raises(PuzzleError, match="3 rows of 3"):
        entries_in("1..\n.2.\n", 3)
    with pytest.raises(PuzzleError, match="digits 1..3"):
        entries_in("[[1, null, null], [null, 4, null], [null, null, 3]]", 3)
