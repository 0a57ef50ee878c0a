"""Hints for a half-solved Kakuro, in three levels, as for KenKen (:mod:`solver.logic.hints`).

The state is the puzzle, the digits written so far (*entries*) and optional pencil marks. First
come mistakes: an entry the solution does not have (level 3 says why: supposing it, the logic
solver reaches a contradiction, or the digit breaks a run outright), then pencil marks that leave
out a cell's digit. Otherwise the Kakuro logic solver (:mod:`.logic`) runs from the right entries
and pencil marks, and the hint is the easiest next step that shows in the grid (fixes a digit; with
pencil marks, also crosses one out): level 1 says where to look, level 2 names the technique, level 3
gives the deduction, the digit and the earlier steps it builds on. When logic gets stuck, level 3
gives one digit of the solution found by the SAT engine.

The result is the KenKen :class:`~solver.logic.hints.Hint`.
"""
from __future__ import annotations

from ..logic.deduce import prerequisites
from ..logic.hints import Hint, easiest_step, step_hint, stuck_hint, wrong_pencil_hint
from ..logic.steps import cell_list
from ..puzzle import Cell, Grid, PuzzleError, cell_name
from .check import check_kakuro
from .engine import solve_kakuro
from .logic import TECHNIQUES, Board, KakuroStep, deduce
from .model import KakuroPuzzle, clue_problems


def hint_kakuro(puzzle: KakuroPuzzle, entries: Grid | None = None, pencil=None, level: int = 1) -> Hint:
    """A hint at ``level`` (1 where to look, 2 technique and cells, 3 the deduction or digit) for
    ``entries`` (default: the puzzle's own; None for an empty grid) and optional ``pencil`` marks
    (``pencil[r][c]``: a set of digits, empty for none). Raises PuzzleError for a bad level,
    malformed entries or an impossible clue."""
    if level not in (1, 2, 3):
        raise PuzzleError(f"hint level must be 1, 2 or 3, not {level!r}")
    if problems := clue_problems(puzzle):
        raise PuzzleError("; ".join(problems))
    entries = entries if entries is not None else puzzle.entries
    entries = puzzle.with_entries(entries).entries if entries is not None else tuple(map(tuple, puzzle.empty_grid()))
    result = solve_kakuro(puzzle)
    if result.status == "none":
        names = ", ".join(result.conflict.names) if result.conflict else "its runs"
        return Hint(level, "no_solution", f"This puzzle has no solution: {names} cannot all hold.")
    written = [(r, c) for r, c in puzzle.whites if entries[r][c] is not None]
    if result.status == "unique":
        wrong = tuple(cell for cell in written if entries[cell[0]][cell[1]] != result.solution[cell[0]][cell[1]])
    else:
        wrong = check_kakuro(puzzle, entries).wrong if written else ()
    if wrong:
        return _wrong_entry_hint(puzzle, entries, wrong, result.solution if result.status == "unique" else None, level)
    if len(written) == len(puzzle.whites):
        return Hint(level, "solved", "The grid is complete and every digit is right.")
    if pencil is not None and result.status == "unique":
        bad = [(r, c) for r, c in puzzle.whites
               if entries[r][c] is None and pencil[r][c] and result.solution[r][c] not in pencil[r][c]]
        if bad:
            return wrong_pencil_hint(bad, pencil, level)
    return _next_step_hint(puzzle, entries, pencil, result, level)


def _wrong_entry_hint(puzzle: KakuroPuzzle, entries: Grid, wrong: tuple[Cell, ...], solution: Grid | None,
                      level: int) -> Hint:
    """The hint about the first wrong entry (level 3: why, by a rule it breaks or by logic)."""
    cell = wrong[0]
    value = entries[cell[0]][cell[1]]
    many = f" ({len(wrong)} of your digits are wrong)" if len(wrong) > 1 else ""
    if level == 1:
        return Hint(1, "wrong_entry", f"A digit you wrote in row {cell[0] + 1} is wrong{many}.", wrong_entries=wrong)
    broken = _broken_rule(puzzle, entries, cell)
    steps: tuple[KakuroStep, ...] = ()
    if broken:
        why = f"it breaks a rule: {broken}"
    else:
        steps = _contradiction_from(puzzle, entries, wrong, cell)
        why = (f"supposing it, logic reaches a contradiction in {len(steps)} step{'s' if len(steps) != 1 else ''}: "
               f"{steps[-1].text}" if steps else
               "the puzzle's only solution has another digit there" if solution is not None
               else "no solution of the puzzle has it")
    text = f"The {value} in {cell_name(cell)} is wrong{many}: {why}"
    if level == 2:
        short = why.split(":")[0] if steps else why
        return Hint(2, "wrong_entry", f"The {value} in {cell_name(cell)} is wrong{many}: {short}.", (cell,),
                    wrong_entries=wrong)
    return Hint(3, "wrong_entry", text if text.endswith(".") else text + ".", (cell,), cell, None, wrong, steps)


def _broken_rule(puzzle: KakuroPuzzle, entries: Grid, cell: Cell) -> str | None:
    """How the entry at ``cell`` breaks a run outright (a repeated digit, a full run with the wrong
    sum, more than the clue already), in words; None when it breaks none."""
    value = entries[cell[0]][cell[1]]
    for run in puzzle.runs_through(cell):
        same = [x for x in run.cells if x != cell and entries[x[0]][x[1]] == value]
        if same:
            return f"{run.name} already holds {value} in {cell_list(same)}"
        known = [entries[r][c] for r, c in run.cells if entries[r][c] is not None]
        missing = len(run.cells) - len(known)
        if sum(known) + missing * (missing + 1) // 2 > run.total:
            return f"{run.name} would add up to more than {run.total}"
        if missing == 0 and sum(known) != run.total:
            return f"{run.name} is full but adds up to {sum(known)}, not {run.total}"
    return None


def _contradiction_from(puzzle: KakuroPuzzle, entries: Grid, wrong: tuple[Cell, ...],
                        cell: Cell) -> tuple[KakuroStep, ...]:
    """The steps (the contradiction and what it builds on) by which logic refutes the entry at
    ``cell``, starting from it and the right entries; empty when logic does not get there."""
    grid = [list(row) for row in entries]
    for r, c in wrong:
        if (r, c) != cell:
            grid[r][c] = None
    steps = list(deduce(Board.start(puzzle, tuple(map(tuple, grid)))))
    if not steps or steps[-1].technique != "contradiction":
        return ()
    chain = prerequisites(steps, len(steps) - 1)
    return tuple(steps[j] for j in chain) + (steps[-1],)


def _next_step_hint(puzzle: KakuroPuzzle, entries: Grid, pencil, result, level: int) -> Hint:
    """The hint of the easiest next step that shows in the grid (see the module docstring)."""
    board = Board.start(puzzle, entries, pencil)
    marked = {(r, c) for r, c in puzzle.whites if pencil is not None and entries[r][c] is None and pencil[r][c]}
    found = easiest_step(deduce(board), marked)
    if found is None:
        return stuck_hint(result, level, lambda: _most_settled_open_cell(puzzle, board))
    return step_hint(*found, TECHNIQUES, level)


def _most_settled_open_cell(puzzle: KakuroPuzzle, board: Board) -> Cell:
    """The open white cell with the fewest candidates left (the first such in reading order)."""
    open_cells = [cell for cell in puzzle.whites if board.masks[cell] & (board.masks[cell] - 1)]
    return min(open_cells, key=lambda x: (board.masks[x].bit_count(), x))
