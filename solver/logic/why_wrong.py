"""Why a written digit is wrong, without giving away the right one.

Three kinds of reason, the first found wins:

1. a rule it breaks right away, with the other right entries: the same digit already in its row or
   column, or a cage that no digits can complete with it;
2. the shorter of two chains of logic steps: steps from the puzzle (and the other right entries) that
   cross the digit out of its cell, or steps that follow from *supposing* the digit and end in a
   contradiction. Only the steps the conclusion depends on are kept (see
   :func:`solver.logic.deduce.prerequisites`);
3. when no chain is found (logic gets stuck), only that the puzzle's one solution differs there.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

from ..engine import solve
from ..puzzle import Cell, Grid, Puzzle, PuzzleError, cell_name
from .board import Board, geometry
from .cages import cage_phrase
from .deduce import deduce, prerequisites
from .steps import Step


@dataclass(frozen=True)
class WhyWrong:
    """The reason ``value`` cannot go in ``cell``.

    ``broken``: the rule it breaks on its own, in words (None when it takes a chain). ``steps``: the
    chain (empty with ``broken``). ``supposed``: True when the chain starts by supposing the digit
    and ends in a contradiction, False when it crosses the digit out directly. ``found``: False when
    no reason short of the solution itself was found. ``text``: all of it for a person.
    """

    cell: Cell
    value: int
    broken: str | None
    steps: tuple[Step, ...]
    supposed: bool
    found: bool
    text: str

    def summary(self, limit: int = 10) -> str:
        """``text``, with a chain longer than ``limit`` steps cut to its first and last few."""
        if len(self.steps) <= limit:
            return self.text
        lines = self.text.split("\n")
        keep = limit // 2
        first, steps, last = lines[0], lines[1:1 + len(self.steps)], lines[1 + len(self.steps):]
        skipped = f"   … {len(steps) - 2 * keep} more steps …"
        return "\n".join([first, *steps[:keep], skipped, *steps[-keep:], *last])


def why_wrong(puzzle: Puzzle, cell: Cell, value: int, entries: Grid | None = None,
              solution: Grid | None = None) -> WhyWrong:
    """Why ``value`` in ``cell`` is wrong. ``entries`` (default: the puzzle's) other than ``cell`` that
    agree with the solution are used as known; ``solution`` saves a SAT solve when known. Raises
    :class:`PuzzleError` when the puzzle has no single solution to compare with, or when the digit is
    in fact right."""
    n = puzzle.size
    if solution is None:
        result = solve(puzzle)
        if result.status != "unique":
            raise PuzzleError(f"the puzzle has {'no' if result.status == 'none' else 'more than one'} solution, "
                              "so a digit cannot be called wrong by comparing")
        solution = result.solution
    r, c = cell
    if not (0 <= r < n and 0 <= c < n and 1 <= value <= n):
        raise PuzzleError(f"{cell_name(cell)} = {value} is outside the {n}×{n} grid")
    if solution[r][c] == value:
        raise PuzzleError(f"{cell_name(cell)} = {value} is right")
    entries = entries if entries is not None else puzzle.entries
    known = [[None] * n for _ in range(n)]
    if entries is not None:
        for rr in range(n):
            for cc in range(n):
                if (rr, cc) != cell and entries[rr][cc] is not None and entries[rr][cc] == solution[rr][cc]:
                    known[rr][cc] = entries[rr][cc]
    known_grid = tuple(tuple(row) for row in known)
    head = f"{cell_name(cell)} cannot be {value}"
    broken = broken_rule(puzzle, cell, value, known_grid)
    if broken:
        return WhyWrong(cell, value, broken, (), False, True, f"{head}: {broken}.")
    direct = _direct_chain(puzzle, cell, value, known_grid)
    supposed = _contradiction_chain(puzzle, cell, value, known_grid)
    options = [(len(chain), i, chain) for i, chain in enumerate((direct, supposed)) if chain]
    if not options:
        text = (f"{head}, but no chain of the techniques kensnap knows shows it from here; the puzzle's "
                "only solution (found by search) has another digit there.")
        return WhyWrong(cell, value, None, (), False, False, text)
    _, kind, chain = min(options)
    lines = [f"{i + 1}. {step.text}" for i, step in enumerate(chain)]
    if kind == 0:
        text = f"{head}:\n" + "\n".join(lines)
    else:
        text = (f"{head}. Suppose it were {value}:\n" + "\n".join(lines) +
                f"\nThat cannot be, so {cell_name(cell)} is not {value}.")
    return WhyWrong(cell, value, None, tuple(chain), kind == 1, True, text)


def broken_rule(puzzle: Puzzle, cell: Cell, value: int, known: Grid) -> str | None:
    """The rule ``value`` in ``cell`` breaks with the ``known`` digits alone, in words, or None."""
    n = puzzle.size
    r, c = cell
    for cc in range(n):
        if cc != c and known[r][cc] == value:
            return f"row {r + 1} already has {value} at {cell_name((r, cc))}"
    for rr in range(n):
        if rr != r and known[rr][c] == value:
            return f"column {c + 1} already has {value} at {cell_name((rr, c))}"
    k = puzzle.cage_of.get(cell)
    if k is None:
        return None
    geo = geometry(puzzle)
    info = geo.cages[k]
    masks = tuple((1 << value) if i == geo.index(cell) else
                  (1 << known[i // n][i % n]) if known[i // n][i % n] is not None else geo.full
                  for i in info.cells)
    tuples = geo.tuples(k, masks)
    if tuples is None or tuples:
        return None
    cage = info.cage
    digits = [(cl, value if cl == cell else known[cl[0]][cl[1]]) for cl in cage.cells]
    if all(d is not None for _, d in digits) and cage.op in "+*" and len(digits) > 1:
        values = [d for _, d in digits]
        made = sum(values) if cage.op == "+" else prod(values)
        shown = (" + " if cage.op == "+" else " × ").join(map(str, values))
        return f"{cage_phrase(cage)} would make {shown} = {made}, not {cage.target}"
    others = [f"{d} in {cell_name(cl)}" for cl, d in digits if d is not None and cl != cell]
    with_others = f" (with {', '.join(others)})" if others else ""
    return f"{cage_phrase(cage)} cannot be made with {value} in {cell_name(cell)}{with_others}"


def _direct_chain(puzzle: Puzzle, cell: Cell, value: int, known: Grid) -> list[Step] | None:
    """The steps, from the puzzle and the known digits, that cross ``value`` out of ``cell``."""
    board = Board.start(puzzle, known)
    steps: list[Step] = []
    for step in deduce(board):
        steps.append(step)
        if (cell, value) in step.removed:
            return [steps[i] for i in prerequisites(steps, len(steps) - 1)] + [step]
    return None


def _contradiction_chain(puzzle: Puzzle, cell: Cell, value: int, known: Grid) -> list[Step] | None:
    """The steps that follow from supposing ``value`` in ``cell`` and end in a contradiction: the
    shorter of two runs, one taking the easiest step anywhere, one spreading out from the cell."""
    chains = []
    for focus in (None, {cell}):
        board = Board.start(puzzle, known)
        board.masks[board.geo.index(cell)] = 1 << value
        steps = list(deduce(board, focus=focus))
        if steps and steps[-1].technique == "contradiction":
            chains.append([steps[i] for i in prerequisites(steps, len(steps) - 1)] + [steps[-1]])
    return min(chains, key=len, default=None)
