"""The logic solver: apply the simplest technique that makes progress, again and again.

Algorithm. Techniques are tried in the order of :data:`ORDER` (easiest first); the first one that
crosses out a candidate makes a :class:`~solver.logic.steps.Step`, the board is updated and the search
starts again from the easiest. It stops when every cell has one digit (solved), when no technique
applies (stuck: the puzzle needs guessing, or techniques this solver does not know), or when the
candidates contradict each other (a ``contradiction`` step: the puzzle, or the entries it started
from, has no solution). Nothing is guessed, so every step is a sound consequence of the start.

:func:`explain` runs it on a puzzle and falls back to the SAT engine for the answer when logic gets
stuck. :func:`prerequisites` finds the earlier steps a step depends on: those that crossed out a
candidate in a cell it reads (and, transitively, theirs).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

from ..engine import elapsed_ms, solve
from ..puzzle import Cell, Grid, Puzzle, PuzzleError, clue_problems
from .board import Board
from .cages import (find_cage_combinations, find_cage_confinement, find_cage_contradiction, find_cage_pair,
                    find_line_forces_cage)
from .lines import find_fish, find_hidden_single, find_hidden_subset, find_line_contradiction, find_naked_single, \
    find_naked_subset
from .steps import Step
from .totals import find_band_total, find_line_total

Candidates = tuple[tuple[frozenset[int], ...], ...]
"""A grid of candidate sets, ``candidates[row][col]``."""

ORDER: tuple[tuple[str, Callable[[Board], Iterator[Step]]], ...] = (
    ("single_cell_cage", lambda b: find_cage_combinations(b, single_cells=True)),
    ("naked_single", find_naked_single),
    ("hidden_single", find_hidden_single),
    ("cage_combinations", lambda b: find_cage_combinations(b, single_cells=False)),
    ("naked_pair", lambda b: find_naked_subset(b, 2)),
    ("hidden_pair", lambda b: find_hidden_subset(b, 2)),
    ("cage_confinement", find_cage_confinement),
    ("line_total", find_line_total),
    ("line_forces_cage", find_line_forces_cage),
    ("naked_triple", lambda b: find_naked_subset(b, 3)),
    ("hidden_triple", lambda b: find_hidden_subset(b, 3)),
    ("naked_quad", lambda b: find_naked_subset(b, 4)),
    ("hidden_quad", lambda b: find_hidden_subset(b, 4)),
    ("band_total", find_band_total),
    ("x_wing", lambda b: find_fish(b, 2)),
    ("swordfish", lambda b: find_fish(b, 3)),
    ("cage_pair", find_cage_pair),
)
"""Every technique, easiest first: (technique key, finder yielding its steps in scan order)."""
RANK = {key: rank for rank, (key, _) in enumerate(ORDER)}


def find_contradiction(board: Board) -> Step | None:
    """A ``contradiction`` step when the candidates cannot be completed in an obvious way, else None."""
    return find_line_contradiction(board) or find_cage_contradiction(board)


def next_step(board: Board, focus: set[Cell] | None = None) -> Step | None:
    """The step the easiest applicable technique makes (or a contradiction), None when stuck or solved.
    With ``focus``, a step reading one of those cells is preferred (the easiest such), if any."""
    bad = find_contradiction(board)
    if bad is not None:
        return bad
    if board.solved():
        return None
    if focus:
        for _, find in ORDER:
            for step in find(board):
                if not focus.isdisjoint(step.cells):
                    return step
    for _, find in ORDER:
        step = next(find(board), None)
        if step is not None:
            return step
    return None


def deduce(board: Board, max_steps: int = 100000, focus: set[Cell] | None = None) -> Iterator[Step]:
    """Steps from ``board`` on, applied to it as they are yielded; ends solved, stuck, or after a
    contradiction step. With ``focus`` (a set of cells, updated in place), steps that read a cell of
    it come first, and every cell a step changes joins it: the deductions spread out from there, as a
    person follows the consequences of one digit."""
    for _ in range(max_steps):
        step = next_step(board, focus)
        if step is None:
            return
        yield step
        if step.technique == "contradiction":
            return
        board.remove((board.geo.index(cell), d) for cell, d in step.removed)
        board.geo.trim()
        if focus is not None:
            focus.update(cell for cell, _ in step.removed)


def prerequisites(steps, target: int, cells: tuple[Cell, ...] = ()) -> list[int]:
    """Indexes of the steps before ``steps[target]`` it depends on: those that crossed out a candidate
    in a cell it reads (or in ``cells``), and, in turn, their own prerequisites. Replaying only those
    steps, in order, gives every one of them the same candidates to read, so each stays valid."""
    need = set(steps[target].cells) | set(cells)
    keep = []
    for j in range(target - 1, -1, -1):
        if any(cell in need for cell, _ in steps[j].removed):
            keep.append(j)
            need |= set(steps[j].cells)
    return keep[::-1]


@dataclass(frozen=True)
class Explanation:
    """How far logic gets on a puzzle, step by step.

    ``steps``: every deduction in order (the last is a ``contradiction`` step when the start cannot be
    completed). ``solved_by_logic``: the steps fill every cell. ``solution``: the grid they fill, or
    else the SAT engine's answer (None when there is none). ``status``: ``'unique'``, ``'multiple'`` or
    ``'none'`` (from the SAT engine unless logic solved it). ``start`` and ``end``: the candidates
    before the first and after the last step. ``time_ms``: logic and fallback together.
    """

    steps: tuple[Step, ...]
    solved_by_logic: bool
    solution: Grid | None
    status: str
    start: Candidates
    end: Candidates
    time_ms: float

    @property
    def hardest(self) -> Step | None:
        """The first step of the hardest technique used: highest level, then latest in :data:`ORDER`
        (None without steps)."""
        return max(self.steps, key=lambda s: (s.level, RANK.get(s.technique, -1)), default=None)

    def candidates_after(self, count: int) -> Candidates:
        """The candidates after the first ``count`` steps."""
        grid = [[set(cell) for cell in row] for row in self.start]
        for step in self.steps[:count]:
            for (r, c), d in step.removed:
                grid[r][c].discard(d)
        return tuple(tuple(frozenset(cell) for cell in row) for row in grid)

    def chain(self, index: int) -> list[int]:
        """Indexes of the steps step ``index`` depends on (see :func:`prerequisites`), placements
        included: a cell a step leaves with one digit counts as read."""
        step = self.steps[index]
        return prerequisites(self.steps, index, tuple(cell for cell, _ in step.placed))


def explain(puzzle: Puzzle, entries: Grid | None = None, pencil=None, fallback: bool = True) -> Explanation:
    """Solve ``puzzle`` by logic alone, from its clues and the given ``entries`` (digits taken as right;
    default none — the puzzle's own entries are not used) and ``pencil`` marks (``pencil[r][c]``: a set
    of digits, empty for none). With ``fallback``, when logic stops short the SAT engine supplies the
    answer of the puzzle itself (entries ignored). Raises :class:`PuzzleError` for a clue no digits can make."""
    start_time = time.perf_counter()
    if problems := clue_problems(puzzle):
        raise PuzzleError("; ".join(problems))
    board = Board.start(puzzle, entries, pencil)
    start = board.candidates()
    steps = tuple(deduce(board))
    solved = board.solved() and board.consistent_grid() and not (steps and steps[-1].technique == "contradiction")
    solution, status = (board.grid(), "unique") if solved else (None, "unknown")
    if not solved and fallback:
        result = solve(puzzle)
        solution, status = result.solution, result.status
    return Explanation(steps, solved, solution, status, start, board.candidates(), elapsed_ms(start_time))

