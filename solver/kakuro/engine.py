"""Solve a Kakuro with PySAT: the answer, a proof that it is the only one, or the runs that clash.

The KenKen engine's machinery is shared, not copied: :class:`KakuroEngine` is a
:class:`solver.engine.Engine` over the Kakuro encoding (:mod:`.encoding`). It inherits the questions —
``find`` (a grid under assumptions, every run switched on by its activation literal), ``find_other``
(a grid that differs in at least one white cell, through a blocking clause guarded by a fresh
literal so the solver stays reusable) and the deletion-based shrinking of an unsatisfiable core —
and supplies what differs: how the clues are checked and the puzzle is encoded (``_check``,
``_encode``; the encoding names its runs ``cages`` as the engine does), how a model becomes an R×C
grid, and how the runs are named. Results are the engine's own :class:`~solver.engine.Result` and
:class:`~solver.engine.Conflict` (``cages`` are indexes into ``puzzle.runs``).

Import usage::

    with KakuroEngine(puzzle) as engine:
        result = engine.solve()        # Result(status='unique', solution=..., ...)
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..engine import Conflict, Engine, Result, elapsed_ms
from ..puzzle import Cell, Grid, PuzzleError, cell_name
from .encoding import KakuroEncoding, encode
from .model import KakuroPuzzle, clue_problems


class KakuroEngine(Engine):
    """One SAT solver for one Kakuro, reused for every question about it. Use as a context manager.

    Raises :class:`PuzzleError` when a clue is impossible on its own (no digits can make it).
    """

    encoding: KakuroEncoding
    puzzle: KakuroPuzzle

    def _check(self, puzzle: KakuroPuzzle) -> None:
        if problems := clue_problems(puzzle):
            raise PuzzleError("; ".join(problems))

    def _encode(self, puzzle: KakuroPuzzle) -> KakuroEncoding:
        return encode(puzzle)

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
