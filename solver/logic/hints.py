"""Hints for a half-solved puzzle, in three levels, without spoiling more than asked.

The state a hint starts from is the puzzle, the digits written so far (*entries*) and, optionally,
pencil marks. First come mistakes: an entry the solution does not have (the hint says so before
anything else, and why with :func:`~solver.logic.why_wrong.why_wrong`), then pencil marks that leave
out a cell's digit. Otherwise the logic solver runs from the right entries and good pencil marks, and
the hint is the easiest next step that shows in the grid:

* without pencil marks, a step that fixes the digit of an empty cell (nothing else can be written
  down); among the first few, the one needing the easiest techniques and the fewest earlier steps;
* with pencil marks, the first step that fixes a digit or crosses out a pencil mark.

Levels: 1 says where to look, 2 names the technique and its cells, 3 gives the deduction (and the
digit, when the step fixes one) with the earlier steps it builds on. When logic gets stuck the hint
says so, and level 3 gives one digit of the solution found by search.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..check import check
from ..engine import solve
from ..puzzle import Cell, Grid, Puzzle, PuzzleError, cell_name, clue_problems
from .board import Board
from .deduce import deduce, prerequisites
from .steps import TECHNIQUES, Step, cell_list, digit_set
from .why_wrong import why_wrong

CHOICES = 6
"""How many of the first steps that show in the grid are compared to pick the easiest."""


@dataclass(frozen=True)
class Hint:
    """One hint.

    ``level`` 1..3 as asked. ``technique``: a key of :data:`~solver.logic.steps.TECHNIQUES`, or
    ``'wrong_entry'``, ``'wrong_pencil'``, ``'solved'``, ``'stuck'`` (logic gets no further),
    ``'no_solution'``. ``explanation``: the text for a person at that level. ``cells``: the cells to
    look at (empty at level 1, which names a place in words). ``cell`` and ``value``: at level 3, the
    cell whose digit the hint gives and the digit (None when the hint places nothing; for a wrong
    entry ``cell`` is that entry and ``value`` None). ``wrong_entries``: every written digit the
    solution does not have (at every level: it is a fact about what was written). ``steps``: at
    level 3, the earlier steps the deduction builds on, then the deduction itself.
    """

    level: int
    technique: str
    explanation: str
    cells: tuple[Cell, ...] = ()
    cell: Cell | None = None
    value: int | None = None
    wrong_entries: tuple[Cell, ...] = ()
    steps: tuple[Step, ...] = ()

    def to_json(self) -> dict:
        """The hint as a JSON-ready object (``cell`` and ``value`` only when set)."""
        obj = {"level": self.level, "technique": self.technique, "explanation": self.explanation,
               "cells": [list(c) for c in self.cells], "wrong_entries": [list(c) for c in self.wrong_entries]}
        if self.cell is not None:
            obj["cell"] = list(self.cell)
        if self.value is not None:
            obj["value"] = self.value
        if self.steps:
            obj["steps"] = [step.to_json() for step in self.steps]
        return obj


def hint(puzzle: Puzzle, entries: Grid | None = None, pencil=None, level: int = 1) -> Hint:
    """A hint at ``level`` (1 where to look, 2 technique and cells, 3 the deduction or digit) for the
    state ``entries`` (default: the puzzle's own; None for an empty grid) plus optional ``pencil``
    marks (``pencil[r][c]``: a set of digits, empty for a cell without marks).

    Raises :class:`PuzzleError` for a bad level, malformed entries or an impossible clue.
    """
    if level not in (1, 2, 3):
        raise PuzzleError(f"hint level must be 1, 2 or 3, not {level!r}")
    if problems := clue_problems(puzzle):
        raise PuzzleError("; ".join(problems))
    n = puzzle.size
    entries = entries if entries is not None else puzzle.entries
    entries = puzzle.with_entries(entries).entries if entries is not None else tuple((None,) * n for _ in range(n))
    result = solve(puzzle)
    if result.status == "none":
        names = ", ".join(result.conflict.names) if result.conflict else "its cages"
        return Hint(level, "no_solution", f"This puzzle has no solution: {names} cannot all hold.")
    wrong = _wrong_entries(puzzle, entries, result)
    if wrong:
        return _wrong_entry_hint(puzzle, entries, wrong, result.solution if result.status == "unique" else None, level)
    filled = [(r, c) for r in range(n) for c in range(n) if entries[r][c] is not None]
    if len(filled) == n * n:
        return Hint(level, "solved", "The grid is complete and every digit is right.")
    bad_pencil = _bad_pencil(pencil, entries, result.solution) if result.status == "unique" and pencil else []
    if bad_pencil:
        return wrong_pencil_hint(bad_pencil, pencil, level)
    single = _single_marks(pencil, entries)
    if single:
        cell, value = single
        text = f"The pencil marks of {cell_name(cell)} leave only {value}: write it in."
        if level == 1:
            return Hint(1, "naked_single", f"Look at {cell_name(cell)}.")
        return Hint(level, "naked_single", text, (cell,), cell if level == 3 else None, value if level == 3 else None)
    if result.status == "multiple":
        result = _with_solution_keeping(puzzle, entries, result)
    return _next_step_hint(puzzle, entries, pencil, result, level)


def _single_marks(pencil, entries: Grid) -> tuple[Cell, int] | None:
    """An empty cell whose pencil marks hold one digit, and that digit (None when there is none)."""
    if pencil is None:
        return None
    n = len(entries)
    for r in range(n):
        for c in range(n):
            if entries[r][c] is None and pencil[r][c] and len(pencil[r][c]) == 1:
                return (r, c), next(iter(pencil[r][c]))
    return None


def _with_solution_keeping(puzzle: Puzzle, entries: Grid, result):
    """``result`` with a solution that keeps every entry (the puzzle has several)."""
    from dataclasses import replace

    from ..engine import Engine
    n = puzzle.size
    with Engine(puzzle) as engine:
        literals = [engine.encoding.entry_literal(r, c, entries[r][c]) for r in range(n) for c in range(n)
                    if entries[r][c] is not None]
        found = engine.find(literals)
    return replace(result, solution=found) if found is not None else result


def _wrong_entries(puzzle: Puzzle, entries: Grid, result) -> tuple[Cell, ...]:
    """Entries no solution has: those that differ from the only solution, or (several solutions)
    those the check finds wrong."""
    n = puzzle.size
    if result.status == "unique":
        return tuple((r, c) for r in range(n) for c in range(n)
                     if entries[r][c] is not None and entries[r][c] != result.solution[r][c])
    if not any(v is not None for row in entries for v in row):
        return ()
    return check(puzzle, entries).wrong


def _wrong_entry_hint(puzzle: Puzzle, entries: Grid, wrong: tuple[Cell, ...], solution: Grid | None,
                      level: int) -> Hint:
    """The hint about the first wrong entry."""
    cell = wrong[0]
    value = entries[cell[0]][cell[1]]
    many = f" ({len(wrong)} of your digits are wrong)" if len(wrong) > 1 else ""
    if level == 1:
        return Hint(1, "wrong_entry", f"A digit you wrote in row {cell[0] + 1} is wrong{many}.",
                    wrong_entries=wrong)
    if solution is None:
        text = f"The {value} in {cell_name(cell)} is in no solution of this puzzle{many}."
        return Hint(level, "wrong_entry", text, (cell,), cell if level == 3 else None, None, wrong)
    why = why_wrong(puzzle, cell, value, entries, solution)
    if level == 2:
        if why.broken:
            how = f"it breaks a rule: {why.broken}"
        elif why.found:
            names = sorted({step.name for step in why.steps if step.technique != "contradiction"})
            how = (f"{'supposing it leads to a contradiction' if why.supposed else 'logic rules it out'} "
                   f"in {len(why.steps)} step{'s' if len(why.steps) != 1 else ''} ({', '.join(names)})")
        else:
            how = "the puzzle's only solution has another digit there"
        return Hint(2, "wrong_entry", f"The {value} in {cell_name(cell)} is wrong{many}: {how}.", (cell,),
                    wrong_entries=wrong)
    return Hint(3, "wrong_entry", why.summary(), (cell,), cell, None, wrong, why.steps)


def _bad_pencil(pencil, entries: Grid, solution: Grid) -> list[Cell]:
    """Empty cells whose pencil marks leave out the solution's digit."""
    n = len(solution)
    return [(r, c) for r in range(n) for c in range(n)
            if entries[r][c] is None and pencil[r][c] and solution[r][c] not in pencil[r][c]]


def wrong_pencil_hint(cells: list[Cell], pencil, level: int) -> Hint:
    """The hint about pencil marks that leave out a cell's digit (``cells``: every such cell, the
    first named); KenKen and Kakuro alike."""
    cell = cells[0]
    if level == 1:
        return Hint(1, "wrong_pencil", f"Some pencil marks in row {cell[0] + 1} leave out the digit that goes there.")
    marks = digit_set(pencil[cell[0]][cell[1]])
    text = f"The pencil marks {marks} in {cell_name(cell)} leave out the digit that goes there"
    if len(cells) > 1:
        text += f" (so do those in {cell_list(cells[1:])})"
    return Hint(level, "wrong_pencil", text + ".", tuple(cells), cell if level == 3 else None)


def easiest_step(deduction: Iterable, marked: set[Cell]) -> tuple[list, int] | None:
    """The steps ``deduction`` (a logic solver's, in order) yielded, up to and including the
    easiest one that shows in the grid, and that step's index; None when none shows (see the module docstring: with pencil marks in
    ``marked`` cells, the first step that fixes a digit or crosses one of them out; without, of the
    first CHOICES that fix a digit, the one needing the easiest techniques and the fewest earlier
    steps). Steps are KenKen or Kakuro steps: anything with ``technique``, ``level``, ``placed`` and
    ``removed`` that :func:`~solver.logic.deduce.prerequisites` follows."""
    steps: list = []
    choices: list[tuple[tuple[int, int, int], int]] = []
    for step in deduction:
        steps.append(step)
        shows = step.placed or any(cell in marked for cell, _ in step.removed)
        if step.technique == "contradiction" or not shows:
            continue
        index = len(steps) - 1
        chain = prerequisites(steps, index, tuple(cell for cell, _ in step.placed))
        levels = [steps[j].level for j in chain] + [step.level]
        choices.append(((max(levels), len(chain), index), index))
        if marked or len(choices) >= CHOICES:
            break
    return (steps, min(choices)[1]) if choices else None


def step_hint(steps: list, index: int, techniques: dict, level: int) -> Hint:
    """The hint at ``level`` of ``steps[index]`` (:func:`easiest_step`), its technique described in
    ``techniques``: level 1 where to look, 2 the technique and its cells, 3 the deduction, the digit
    and the earlier steps it builds on."""
    step = steps[index]
    chain = prerequisites(steps, index, tuple(cell for cell, _ in step.placed))
    technique = techniques[step.technique]
    if level == 1:
        return Hint(1, step.technique, f"Look at {step.focus}.")
    cells = tuple(sorted(set(step.cells) | {cell for cell, _ in step.placed}))
    if level == 2:
        text = f"Try {technique.name} on {step.focus}: {technique.idea}."
        if chain:
            text += f" It builds on {len(chain)} earlier step{'s' if len(chain) > 1 else ''}."
        return Hint(2, step.technique, text, cells)
    cell, value = step.placed[0] if step.placed else (None, None)
    return Hint(3, step.technique, step.text, cells, cell, value, (), tuple(steps[j] for j in chain) + (step,))


def stuck_hint(result, level: int, open_cell: Callable[[], Cell]) -> Hint:
    """Logic gets no further: say so, and at level 3 give the digit the solution found by search
    (``result``) has in ``open_cell()`` (asked only then)."""
    text = ("The techniques kensnap knows get no further from here: the next digit needs trial and error "
            "(or a technique kensnap does not know).")
    if level < 3 or result.solution is None:
        return Hint(level, "stuck", text)
    cell = open_cell()
    value = result.solution[cell[0]][cell[1]]
    extra = " (the puzzle has more than one solution; this is one of them)" if result.status == "multiple" else ""
    return Hint(3, "stuck", f"{text} The solution found by search has {value} in {cell_name(cell)}{extra}.",
                (cell,), cell, value)


def _next_step_hint(puzzle: Puzzle, entries: Grid, pencil, result, level: int) -> Hint:
    """The hint of the easiest next step that shows in the grid (see the module docstring)."""
    n = puzzle.size
    board = Board.start(puzzle, entries, pencil)
    marked = {(r, c) for r in range(n) for c in range(n)
              if pencil is not None and entries[r][c] is None and pencil[r][c]}
    found = easiest_step(deduce(board), marked)
    if found is None:
        return stuck_hint(result, level, lambda: _most_settled_open_cell(board))
    return step_hint(*found, TECHNIQUES, level)


def _most_settled_open_cell(board: Board) -> Cell:
    """The open cell with the fewest candidates left (the first such in reading order)."""
    open_cells = [i for i, m in enumerate(board.masks) if m & (m - 1)]
    return board.geo.cell(min(open_cells, key=lambda j: (board.masks[j].bit_count(), j)))
