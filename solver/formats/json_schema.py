"""The puzzle JSON schema of ``../shared/FORMAT.md``, read and written exactly (it is a contract).

:func:`puzzle_from_json` accepts the schema object itself, or a wrapper that holds it under
``"truth"`` or ``"puzzle"`` (corpus and seed files). Every problem raises :class:`PuzzleError`
naming the key at fault.
"""
from __future__ import annotations

import json
from typing import Any

from ..puzzle import Cage, Grid, Puzzle, PuzzleError

GLYPH_OPS = {"+": "+", "-": "-", "−": "-", "–": "-", "*": "*", "×": "*", "x": "*", "X": "*", "·": "*",
             "/": "/", "÷": "/", ":": "/", "=": "=", "?": "?"}
"""Printed operator glyphs → schema operators."""


def puzzle_from_json(data: Any) -> Puzzle:
    """Build a Puzzle from a parsed JSON value; raises PuzzleError with the key at fault."""
    if isinstance(data, dict) and "size" not in data:
        for key in ("truth", "puzzle"):
            if isinstance(data.get(key), dict):
                return puzzle_from_json(data[key])
    if not isinstance(data, dict):
        raise PuzzleError("a puzzle must be a JSON object with 'size' and 'cages'")
    size = _require(data, "size", int)
    cages_json = _require(data, "cages", list)
    cages = tuple(_cage_from_json(item, i) for i, item in enumerate(cages_json))
    shown = data.get("operators_shown", True)
    if not isinstance(shown, bool):
        raise PuzzleError("'operators_shown' must be true or false")
    calcudoku = data.get("calcudoku")
    if calcudoku is not None and not isinstance(calcudoku, bool):
        raise PuzzleError("'calcudoku' must be true, false or absent")
    entries = data.get("entries")
    if entries is not None:
        entries = _grid(entries, "entries")
    return Puzzle(size, cages, shown, entries, calcudoku)


def _require(data: dict, key: str, kind: type) -> Any:
    if key not in data:
        raise PuzzleError(f"the puzzle has no '{key}'")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PuzzleError(f"'{key}' must be {'a whole number' if kind is int else 'a list'}, not {value!r}")
    return value


def _cage_from_json(item: Any, index: int) -> Cage:
    where = f"cages[{index}]"
    if not isinstance(item, dict):
        raise PuzzleError(f"{where} must be an object with 'cells', 'op' and 'target'")
    cells = item.get("cells")
    if not isinstance(cells, list) or not cells or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
            for c in cells):
        raise PuzzleError(f"{where}.cells must be a non-empty list of [row, column] pairs")
    op = item.get("op")
    if op not in GLYPH_OPS:
        raise PuzzleError(f"{where}.op must be one of + - * / = ?, not {op!r}")
    target = item.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        raise PuzzleError(f"{where}.target must be a whole number, not {target!r}")
    return Cage(tuple((r, c) for r, c in cells), GLYPH_OPS[op], target)


def _grid(value: Any, key: str) -> Grid:
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise PuzzleError(f"'{key}' must be a list of rows")
    for row in value:
        for v in row:
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise PuzzleError(f"'{key}' holds {v!r}: use digits or null")
    return tuple(tuple(row) for row in value)


def puzzle_to_json(puzzle: Puzzle) -> dict:
    """The schema object of a puzzle (``entries`` only when present, ``calcudoku`` only when set)."""
    data: dict[str, Any] = {
        "size": puzzle.size,
        "operators_shown": puzzle.operators_shown,
        "cages": [{"cells": [list(c) for c in cage.cells], "op": cage.op, "target": cage.target}
                  for cage in puzzle.cages],
    }
    if puzzle.entries is not None:
        data["entries"] = [list(row) for row in puzzle.entries]
    if puzzle.calcudoku is not None:
        data["calcudoku"] = puzzle.calcudoku
    return data


def loads(text: str) -> Puzzle:
    """Parse one JSON document into a Puzzle; raises PuzzleError with the line and column of bad JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    return puzzle_from_json(data)


def dumps(puzzle: Puzzle) -> str:
    """One-line JSON of a puzzle."""
    return json.dumps(puzzle_to_json(puzzle), separators=(", ", ": "))
