"""Solve a Kakuro with PySAT: the answer, a proof that it is the only one, or the runs that clash.

The KenKen engine's machinery is shared, not copied: :class:`KakuroEngine` is a
:class:`solver.engine.Engine` over the Kakuro encoding (:mod:`.encoding`). It inherits the questions —
``find`` (a grid under assumptions, every run switched on by its activation literal), ``find_other``
(a grid that differs in at least one white cell, through a blocking clause guarded by a fresh
literal so the solver stays reusable) and the deletion-based shrinking of an unsatisfiable core —
and supplies what differs: how the puzzle is encoded, how a model becomes an R×C grid, and how the
runs are named. Results are the engine's own :class:`~solver.engine.Result` and
:class:`~solver.engine.Conflict` (``cages`` are indexes into ``puzzle.runs``).

Import usage::

    with KakuroEngine(puzzle) as engine:
        result = engine.solve()        # Result(status='unique', solution=..., ...)
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
from pysat.solvers import Solver

from ..engine import SAT_BACKEND, Conflict, Engine, Result, elapsed_ms
from ..puzzle import Cell, Grid, PuzzleError, cell_name
from .encoding import KakuroEncoding, encode
from .model import KakuroPuzzle, clue_problems


class KakuroEngine(Engine):
    """One SAT solver for one Kakuro, reused for every question about it. Use as a context manager.

    Raises :class:`PuzzleError` when a clue is impossible on its own (no digits can make it).
    """

    def __init__(self, puzzle: KakuroPuzzle, check_clues: bool = True):  # noqa: super().__init__ encodes KenKen
        if check_clues and (problems := clue_problems(puzzle)):
            raise PuzzleError("; ".join(problems))
        self.puzzle = puzzle
        self.encoding: KakuroEncoding = encode(puzzle)
        self.top = self.encoding.top
        self.solver = Solver(name=SAT_BACKEND)
        for group in self.encoding.groups:
            self.solver.add_clause(group)
            self.solver.add_atmost(group, 1)
        for run in self.encoding.runs:
            self.solver.append_formula(run.clauses)
        self.activations = [run.activation for run in self.encoding.runs]

    def solve(self) -> Result:
        """Solve and prove uniqueness; see :class:`~solver.engine.Result` (``differ``: white cells
        where the two solutions differ)."""
        start = time.perf_counter()
        first = self.find([])
        if first is None:
            return Result("none", conflict=self.conflict([]), time_ms=elapsed_ms(start))
        other = self.find_other(first)
        if other is None:
            return Result("unique", solution=first, time_ms=elapsed_ms(start))
        differ = tuple((r, c) for r, c in self.puzzle.whites if first[r][c] != other[r][c])
        return Result("multiple", solution=first, other=other, differ=differ, time_ms=elapsed_ms(start))

    def conflict(self, entry_cells: list[Cell]) -> Conflict:
        """A minimal set of runs and of the given entries that together admit no solution, named
        ``'run 10 across at r2c3'`` and ``'entry 4 at r3c5'``. Call only when ``find`` failed."""
        found = super().conflict(entry_cells)
        entries = self.puzzle.entries or ()
        names = tuple([f"run {self.puzzle.runs[i].name}" for i in found.cages] +
                      [f"entry {entries[r][c]} at {cell_name((r, c))}" for r, c in found.entries])
        return Conflict(found.cages, found.entries, names)

    def _literals(self, grid: Grid) -> list[int]:
        return [self.encoding.literal(cell, grid[cell[0]][cell[1]]) for cell in self.puzzle.whites]

    def _decode(self, model: list[int]) -> Grid:
        whites = self.puzzle.whites
        digits = (np.asarray(model[: 9 * len(whites)]).reshape(len(whites), 9) > 0).argmax(axis=1) + 1
        grid = self.puzzle.empty_grid()
        for (r, c), v in zip(whites, digits):
            grid[r][c] = int(v)
        return tuple(tuple(row) for row in grid)


def solve_kakuro(puzzle: KakuroPuzzle) -> Result:
    """Solve a Kakuro (ignoring its entries) and prove uniqueness; see :class:`~solver.engine.Result`.

    Raises :class:`PuzzleError` for a clue no digits can make.
    """
    start = time.perf_counter()
    with KakuroEngine(puzzle) as engine:
        result = engine.solve()
    return replace(result, time_ms=elapsed_ms(start), warnings=tuple(puzzle.warnings()))
