"""Hints for the app, in three levels: where to look → which technique → the digit.

:func:`hint` is the one function the app calls. It asks the human-style engine (``solver.logic``)
when that package is importable and has an answer, and otherwise gives a plain *solver hint*:

1. a written digit that the solution does not have is pointed at first (a hint on a wrong grid
   would only lead further astray);
2. else an empty cell whose digit follows from one cage and its row and column: the cage's possible
   digit combinations (:func:`solver.cage_tuples.allowed_tuples`) cut by the digits written in the
   cage, its rows and columns leave one digit ("only digit left"), or a digit has one possible cell
   left in a row or column ("only place left");
3. else the empty cell with the fewest possible digits, with the solver's digit and an honest
   "no simple step found" explanation.

The answer never names a digit below level 3. Contract: level 1..3; raises
:class:`~solver.PuzzleError` when the puzzle cannot be solved or has several solutions (a hint needs
the one answer), or when the grid is already full and right.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from solver import Puzzle, PuzzleError, cell_name, solve
from solver.cage_tuples import TooManyTuples, allowed_tuples
from solver.puzzle import Cell, Grid

LEVELS = {1: "where to look", 2: "which technique", 3: "the digit"}


@dataclass(frozen=True)
class AppHint:
    """One hint at one level. ``cells`` are where to look (highlighted at every level); ``cell`` and
    ``value`` are the answer, filled only at level 3. ``text`` is what to tell the person."""

    level: int
    text: str
    technique: str
    cells: tuple[Cell, ...]
    cell: Cell | None = None
    value: int | None = None
    source: str = "solver"
    """'logic' (human-style engine) or 'solver' (plain hints)."""
    steps: tuple[str, ...] = ()
    """At level 3 from the logic engine: the earlier deductions this one builds on, in words."""


def hint(puzzle: Puzzle, entries: Grid | None, level: int) -> AppHint:
    """The next hint for ``puzzle`` with ``entries`` written, at ``level`` (see the module doc)."""
    if level not in LEVELS:
        raise ValueError(f"hint level must be 1, 2 or 3, not {level!r}")
    logic = _logic_module()
    if logic is not None:
        try:
            found = logic.hint(puzzle, entries=entries, level=level)
        except PuzzleError:
            raise
        except Exception:  # a failure of the young engine must not cost the person a hint
            found = None
        if found is not None:
            return _from_logic(found, level, getattr(logic, "TECHNIQUES", {}))
    return solver_hint(puzzle, entries, level)


def _logic_module():
    """``solver.logic`` when it is installed and offers ``hint``, else None."""
    try:
        module = importlib.import_module("solver.logic")
    except ImportError:
        return None
    return module if callable(getattr(module, "hint", None)) else None


def _from_logic(found, level: int, names: dict) -> AppHint:
    """The human-style engine's hint in the app's shape (attributes read defensively; technique keys
    shown by their names for people)."""
    cells = tuple(getattr(found, "cells", ()) or ())
    cell = getattr(found, "cell", None)
    key = str(getattr(found, "technique", "") or "")
    technique = str(getattr(names.get(key), "name", key.replace("_", " ")))
    text = str(getattr(found, "explanation", "") or technique)
    steps = tuple(str(getattr(step, "text", step)) for step in getattr(found, "steps", ()) or ())
    if level < 3:
        return AppHint(level, text, technique, cells, source="logic")
    earlier = tuple(step for step in steps[:-1] if step not in text)  # not those the text already tells
    return AppHint(level, text, technique, cells, cell, getattr(found, "value", None), "logic", earlier)


def solver_hint(puzzle: Puzzle, entries: Grid | None, level: int) -> AppHint:
    """A plain hint from the solver and simple elimination (see the module doc)."""
    n = puzzle.size
    result = solve(puzzle.with_entries(None))
    if result.status == "none":
        raise PuzzleError("the puzzle has no solution as it stands, so there is nothing to hint: fix the clues first")
    if result.status == "multiple":
        raise PuzzleError("the puzzle has several solutions as it stands: fix the clues before asking for a hint")
    solution = result.solution
    grid = entries if entries is not None else ((None,) * n,) * n
    wrong = [(r, c) for r in range(n) for c in range(n) if grid[r][c] is not None and grid[r][c] != solution[r][c]]
    if wrong:
        cell = wrong[0]
        return _at_level(level, (cell,), cell, solution[cell[0]][cell[1]], "a wrong digit",
                         f"look at {cell_name(cell)}",
                         f"the digit written in {cell_name(cell)} is wrong: no solution has it",
                         f"the digit in {cell_name(cell)} should be {solution[cell[0]][cell[1]]}, "
                         f"not {grid[cell[0]][cell[1]]}")
    empty = [(r, c) for r in range(n) for c in range(n) if grid[r][c] is None]
    if not empty:
        raise PuzzleError("every cell is filled and right: nothing left to hint")
    options = candidates(puzzle, grid)
    for cell in empty:
        if len(options[cell]) == 1:
            cage = puzzle.cages[puzzle.cage_of[cell]] if cell in puzzle.cage_of else None
            where = cage.cells if cage else (cell,)
            what = f"the cage {cage.name}" if cage else cell_name(cell)
            value = solution[cell[0]][cell[1]]
            if cage is not None and len(cage.cells) == 1:
                return _at_level(level, where, cell, value, "one-cell cage", f"look at {what}",
                                 "one-cell cage: a cage of one cell holds the number of its clue",
                                 f"write {value} in {cell_name(cell)}")
            return _at_level(level, where, cell, value, "only digit left", f"look at {what}",
                             f"only digit left: of the digits the clue of {what} allows in {cell_name(cell)}, "
                             "its row and column rule out all but one",
                             f"write {value} in {cell_name(cell)}")
    for line, name in _lines(n):
        for digit in range(1, n + 1):
            if any(grid[r][c] == digit for r, c in line):
                continue
            spots = [cell for cell in line if grid[cell[0]][cell[1]] is None and digit in options[cell]]
            if len(spots) == 1:
                cell = spots[0]
                return _at_level(level, tuple(line), cell, digit, "only place left",
                                 f"look at {name}",
                                 f"only place left: one digit has a single cell in {name} where its cage "
                                 f"and column or row allow it",
                                 f"write {digit} in {cell_name(cell)}")
    cell = min(empty, key=lambda c: (len(options[c]), c))
    return _at_level(level, (cell,), cell, solution[cell[0]][cell[1]], "solver",
                     f"look at {cell_name(cell)}: it has the fewest possible digits",
                     "no simple step found here: this needs a longer chain of reasoning (the solver's answer "
                     "follows at the next level)",
                     f"write {solution[cell[0]][cell[1]]} in {cell_name(cell)}")


def _at_level(level: int, cells: tuple[Cell, ...], cell: Cell, value: int, technique: str,
              where: str, how: str, digit: str) -> AppHint:
    """The hint text of one level; the answer is given only at level 3."""
    if level == 1:
        return AppHint(1, where[0].upper() + where[1:] + ".", technique, cells)
    if level == 2:
        return AppHint(2, how[0].upper() + how[1:] + ".", technique, cells)
    return AppHint(3, digit[0].upper() + digit[1:] + ".", technique, cells, cell, value)


def candidates(puzzle: Puzzle, grid: Grid) -> dict[Cell, frozenset[int]]:
    """The digits each empty cell may hold given one cage at a time and the written digits of its
    row and column (cells of too large cages get every digit not in their row or column)."""
    n = puzzle.size
    used_row = [{v for v in grid[r] if v is not None} for r in range(n)]
    used_col = [{grid[r][c] for r in range(n) if grid[r][c] is not None} for c in range(n)]
    free = {(r, c): frozenset(set(range(1, n + 1)) - used_row[r] - used_col[c])
            for r in range(n) for c in range(n) if grid[r][c] is None}
    for cage in puzzle.cages:
        try:
            tuples = allowed_tuples(cage, n, puzzle.long_minus_divide)
        except TooManyTuples:
            continue
        fitting = [t for t in tuples if all(
            (grid[r][c] == v) if grid[r][c] is not None else v in free[(r, c)] for (r, c), v in zip(cage.cells, t))]
        for k, cell in enumerate(cage.cells):
            if cell in free:
                free[cell] = frozenset(t[k] for t in fitting)
    return free


def _lines(n: int):
    """Every row and column as (cells, name)."""
    for r in range(n):
        yield [(r, c) for c in range(n)], f"row {r + 1}"
    for c in range(n):
        yield [(r, c) for r in range(n)], f"column {c + 1}"
