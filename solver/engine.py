"""Solve a KenKen with PySAT: the answer, a proof that it is the only one, or why there is none.

Algorithm. The puzzle is encoded once (:mod:`solver.encoding`) into one SAT solver that lives as long
as the :class:`Engine`. Every cage is switched on by an activation literal passed as an assumption,
and so is every entry being checked. A first model is the solution; uniqueness is proved by asking
for a model that differs in at least one *cell* literal — the blocking clause is guarded by a fresh
literal so the solver stays reusable (PySAT's ``enum_models`` would also block auxiliary variables and
report the same grid twice). Without a model, the solver's core over the assumptions is shrunk by
deletion to a minimal set of cages and entries that cannot hold together.

Import usage::

    with Engine(puzzle) as engine:
        result = engine.solve()        # Result(status='unique', solution=..., ...)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np
from pysat.solvers import Solver

from .encoding import PuzzleEncoding, encode
from .puzzle import Cell, Grid, Puzzle, PuzzleError, cell_name, clue_problems

SAT_BACKEND = "minicard"
"""The PySAT solver: MiniCard (MiniSat 2.2 with native cardinality constraints) adds the row, column
and cell at-most-one constraints in one call each; measured fastest here, see the README."""


@dataclass(frozen=True)
class Conflict:
    """A set of cages and entries that cannot all hold; when ``minimal``, removing any one of them
    helps (see :data:`SHRINK_CONFLICTS` for when it is not narrowed down that far).

    ``cages`` are indexes into ``puzzle.cages``; ``entries`` are cells whose written digit is part of it;
    ``names`` say the same in words.
    """

    cages: tuple[int, ...]
    entries: tuple[Cell, ...]
    names: tuple[str, ...]
    minimal: bool = True


@dataclass(frozen=True)
class Result:
    """What the engine found. ``status`` is ``'unique'``, ``'multiple'`` or ``'none'``.

    unique: ``solution``. multiple: ``solution`` and ``other`` (two different grids) and ``differ``
    (cells where they differ). none: ``conflict``. ``time_ms`` covers encoding, solving and the proof.
    """

    status: str
    solution: Grid | None = None
    other: Grid | None = None
    differ: tuple[Cell, ...] = ()
    conflict: Conflict | None = None
    time_ms: float = 0.0
    warnings: tuple[str, ...] = field(default=())


SHRINK_CONFLICTS = 10_000
"""Most conflicts the SAT solver may spend, all trials together, narrowing a puzzle's conflict down
to a minimal set (:meth:`Engine.conflict`); past them the conflict keeps the cages not yet tried
and says it is not minimal. The 94 seed and Keen puzzles, each with one clue mistyped (443 of them
without a solution): median 37, at most 4,837 (0.23 s). An 8×8 with a 24-cell cage and a sum off by
one (the kind of file a misread photo gives) was found to have no solution in 2 s, then the
narrowing ran on for minutes at some 1,200 conflicts a second, with no word; now 8.3 s in all
(14 s beside another run)."""


class Undecided(Exception):
    """The SAT solver spent its conflict budget on one question without an answer."""


class Engine:
    """One SAT solver for one puzzle, reused for every question about it. Use as a context manager.

    Raises :class:`PuzzleError` when a clue is impossible on its own (no digits can make it). With
    ``conflicts``, each question to the SAT solver may spend at most that many conflicts; a question
    it cannot answer within them raises :class:`Undecided` (a misread puzzle can be far harder than
    any printed one: a Kakuro photo read as a 13×13 KenKen kept the solver busy for over ten minutes).
    """

    def __init__(self, puzzle: Puzzle, check_clues: bool = True, conflicts: int | None = None):
        if check_clues:
            self._check(puzzle)
        self.puzzle = puzzle
        self.conflicts = conflicts
        self.encoding: PuzzleEncoding = self._encode(puzzle)
        self.top = self.encoding.top
        self.solver = Solver(name=SAT_BACKEND)
        for group in self.encoding.groups:
            self.solver.add_clause(group)
            self.solver.add_atmost(group, 1)
        for cage in self.encoding.cages:
            self.solver.append_formula(cage.clauses)
        self.activations = [cage.activation for cage in self.encoding.cages]

    # -- the steps a subclass for another puzzle overrides (with ``_literals`` and ``_decode``) -----
    def _check(self, puzzle: Puzzle) -> None:
        """Raise PuzzleError when a clue is impossible on its own."""
        if problems := clue_problems(puzzle):
            raise PuzzleError("; ".join(problems))

    def _encode(self, puzzle: Puzzle) -> PuzzleEncoding:
        """The puzzle's encoding: ``groups`` (exactly-one each), ``cages`` (each with ``clauses`` and
        an ``activation`` literal) and ``top`` (the highest variable used)."""
        return encode(puzzle)

    @property
    def n(self) -> int:
        """The KenKen's side."""
        return self.puzzle.size

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Release the SAT solver (idempotent)."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    # -- answers ------------------------------------------------------------------------------
    def find(self, assumptions: list[int]) -> Grid | None:
        """A solution grid under the assumptions (added to all cage activations), or None."""
        if not self._sat(self.activations + assumptions):
            return None
        return self._decode(self.solver.get_model())

    def find_other(self, grid: Grid, assumptions: list[int] = ()) -> Grid | None:
        """A solution that differs from ``grid`` in at least one cell, or None (grid is unique)."""
        self.top += 1
        guard = self.top
        self.solver.add_clause([-guard] + [-lit for lit in self._literals(grid)])
        found = self.find(list(assumptions) + [guard])
        self.solver.add_clause([-guard])  # retire the blocking clause for later questions
        return found

    def solve(self) -> Result:
        """Solve and prove uniqueness; see :class:`Result`."""
        start = time.perf_counter()
        first = self.find([])
        if first is None:
            return Result("none", conflict=self.conflict([]), time_ms=elapsed_ms(start))
        other = self.find_other(first)
        if other is None:
            return Result("unique", solution=first, time_ms=elapsed_ms(start))
        differ = tuple((r, c) for r in range(self.n) for c in range(self.n) if first[r][c] != other[r][c])
        return Result("multiple", solution=first, other=other, differ=differ, time_ms=elapsed_ms(start))

    def conflict(self, entry_cells: list[Cell]) -> Conflict:
        """A set of cages and of the given entries that together admit no solution, minimal unless
        narrowing it down spends :data:`SHRINK_CONFLICTS` (then ``minimal`` is False).

        Call only when ``find`` with those entries failed. Deletion-based shrinking of the core.
        """
        entries = self.puzzle.entries or ()
        lit_of = {cell: self.encoding.entry_literal(cell[0], cell[1], entries[cell[0]][cell[1]]) for cell in entry_cells}
        core = self._core(self.activations + list(lit_of.values()))
        spent = self._conflicts_spent()
        i, minimal = 0, True
        while i < len(core):  # every literal before i is needed; try to drop the i-th
            trial = core[:i] + core[i + 1:]
            left = SHRINK_CONFLICTS - (self._conflicts_spent() - spent)
            answer = self._sat_within(trial, left) if left > 0 else None
            if answer is None:  # too hard to tell: the literals from i on stay in
                minimal = False
                break
            if answer:
                i += 1
            else:
                smaller = set(self.solver.get_core() or ())
                core = [lit for lit in trial if lit in smaller]
        cage_index = {a: i for i, a in enumerate(self.activations)}
        cell_of = {lit: cell for cell, lit in lit_of.items()}
        cages = tuple(sorted(cage_index[lit] for lit in core if lit in cage_index))
        cells = tuple(sorted(cell_of[lit] for lit in core if lit in cell_of))
        names = tuple([f"cage {self.puzzle.cages[i].name}" for i in cages] +
                      [f"entry {entries[r][c]} at {cell_name((r, c))}" for r, c in cells])
        return Conflict(cages, cells, names, minimal)

    # -- internals ----------------------------------------------------------------------------
    def _sat(self, assumptions: list[int]) -> bool:
        """Whether the formula holds under ``assumptions``, within the conflict budget if any."""
        if self.conflicts is None:
            return bool(self.solver.solve(assumptions=assumptions))
        answer = self._sat_within(assumptions, self.conflicts)
        if answer is None:
            raise Undecided(f"the solver could not settle it within {self.conflicts} conflicts")
        return answer

    def _sat_within(self, assumptions: list[int], conflicts: int) -> bool | None:
        """Whether the formula holds under ``assumptions``; None when the SAT solver could not tell
        within ``conflicts`` (or the engine's own budget, if smaller)."""
        self.solver.conf_budget(min(conflicts, self.conflicts or conflicts))
        answer = self.solver.solve_limited(assumptions=assumptions)
        return None if answer is None else bool(answer)

    def _conflicts_spent(self) -> int:
        """Conflicts the SAT solver has spent so far, over all questions."""
        return int((self.solver.accum_stats() or {}).get("conflicts", 0))

    def _core(self, items: list[int]) -> list[int]:
        """The solver's core after a failed solve over exactly ``items``."""
        if self._sat(items):
            raise RuntimeError("conflict() called on a satisfiable question")
        return list(self.solver.get_core() or ())

    def _literals(self, grid: Grid) -> list[int]:
        n = self.n
        return [self.encoding.entry_literal(r, c, grid[r][c]) for r in range(n) for c in range(n)]

    def _decode(self, model: list[int]) -> Grid:
        n = self.n
        cube = np.asarray(model[: n ** 3]).reshape(n, n, n) > 0
        grid = cube.argmax(axis=2) + 1
        return tuple(tuple(int(v) for v in row) for row in grid)


def solve(puzzle: Puzzle, conflicts: int | None = None) -> Result:
    """Solve a puzzle (ignoring its entries) and prove uniqueness; see :class:`Result`.

    Raises :class:`PuzzleError` for a clue no digits can make, and with ``conflicts`` (a budget per
    question, see :class:`Engine`) :class:`Undecided` when one question takes more.
    """
    start = time.perf_counter()
    with Engine(puzzle, conflicts=conflicts) as engine:
        result = engine.solve()
    return replace(result, time_ms=elapsed_ms(start), warnings=tuple(puzzle.warnings()))


def elapsed_ms(start: float) -> float:
    """Milliseconds since ``start`` (a ``time.perf_counter()`` reading), rounded to microseconds."""
    return round((time.perf_counter() - start) * 1000, 3)
