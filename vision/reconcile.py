"""The solver in the loop: turn what was read into a puzzle with exactly one solution, or say why not.

Input: the cage partition and, for every cage, the clue alternatives the reader saw (best first, with
probabilities). First every alternative that no digits can make is dropped (``3−`` on a 4×4 cage,
``7÷`` on a 6×6, a product with a prime factor above N). If the best reading then has exactly one
solution, that is the answer. Otherwise a best-first search over the alternatives (ranked
enumeration: the cost of a change is how much less likely the alternative is than the best reading)
looks for the cheapest set of at most ``MAX_CHANGES`` changes that gives exactly one solution; when
the reading has no solution, the next change is taken among the cages of its conflict core, since
any repair must touch one of them. Every change is reported. A result is *confident* only when the
puzzle has exactly one solution, nothing was changed and every clue and wall was read with high
probability — a solution found by guessing is never called certain.
"""
from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass

from solver import Cage, Puzzle, PuzzleError, solve
from solver.puzzle import Grid, cell_name, clue_problem

from .model import Cell

MAX_CHANGES = 3
MAX_TRIES = 150
TIME_BUDGET_S = 2.0
CONFIDENT_CLUE = 0.9
"""A clue read with a lower probability than this makes the reading not confident, solution or not."""


@dataclass(frozen=True)
class Change:
    """One clue the reconciler changed: at the cage whose first cell is ``cell``."""

    cell: Cell
    read: tuple[str, int]
    used: tuple[str, int]
    reason: str

    def describe(self) -> str:
        """'r1c2: read 12+, used 12×' for people."""
        return f"{cell_name(self.cell)}: read {_clue(*self.read)}, used {_clue(*self.used)} ({self.reason})"


@dataclass(frozen=True)
class Reconciled:
    """The puzzle kensnap settles on and how sure it is."""

    puzzle: Puzzle
    status: str
    """'unique', 'multiple' or 'none' for the settled puzzle."""
    solution: Grid | None
    changes: tuple[Change, ...]
    confident: bool
    tries: int
    notes: tuple[str, ...] = ()


def _clue(op: str, target: int) -> str:
    glyph = {"+": "+", "-": "−", "*": "×", "/": "÷", "?": "?", "=": ""}[op]
    return f"{target}{glyph}"


def reconcile(size: int, cages: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
              operators_shown: bool = True, entries: Grid | None = None, calcudoku: bool | None = None,
              min_wall_probability: float = 1.0) -> Reconciled:
    """Settle the clues of ``cages`` (each with its ``alternatives``, best first) as described above.

    Raises PuzzleError when the cages themselves are not a valid puzzle layout.
    """
    lmd = calcudoku if calcudoku is not None else any(
        len(cells) > 2 and alts and alts[0][0] in "-/" for cells, alts in zip(cages, alternatives))
    options: list[list[tuple[str, int, float]]] = []
    notes: list[str] = []
    for cells, alts in zip(cages, alternatives):
        alts = [_normalised(cells, op, target, p) for op, target, p in alts]
        plausible = [a for a in alts if clue_problem(Cage(cells, a[0], a[1]), size, lmd) is None]
        if alts and plausible and plausible[0] != alts[0]:
            notes.append(f"{cell_name(min(cells))}: {_clue(*alts[0][:2])} is impossible here")
        options.append(_unique(plausible) or [("?", 0, 0.0)])
    start = time.perf_counter()
    first_reading = [(_normalised(cells, *a[0]) if a else ("?", 0, 0.0)) for cells, a in zip(cages, alternatives)]

    def build(choice: tuple[int, ...]) -> Puzzle:
        built = [Cage(cells, *options[i][k][:2]) for i, (cells, k) in enumerate(zip(cages, choice))
                 if options[i][k][2] > 0 or options[i][k][0] != "?"]
        return Puzzle(size, tuple(built), operators_shown, entries, calcudoku)

    def cost(choice: tuple[int, ...]) -> float:
        return sum(math.log(max(options[i][0][2], 1e-6)) - math.log(max(options[i][k][2], 1e-6))
                   for i, k in enumerate(choice) if k)

    base = tuple(0 for _ in cages)
    heap = [(0.0, base)]
    seen = {base}
    tries, first = 0, None
    while heap and tries < MAX_TRIES and time.perf_counter() - start < TIME_BUDGET_S:
        _, choice = heapq.heappop(heap)
        puzzle = build(choice)
        try:
            result = solve(puzzle.with_entries(None))
        except PuzzleError:
            continue
        tries += 1
        if first is None:
            first = (puzzle, result)
        if result.status == "unique":
            return _settled(puzzle, result.solution, choice, options, first_reading, cages, tries, notes,
                            min_wall_probability)
        suspects = range(len(cages))
        if result.status == "none" and result.conflict is not None:
            suspects = [i for i, cage in enumerate(cages) if _index_in(puzzle, cage) in result.conflict.cages]
        if sum(1 for k in choice if k) >= MAX_CHANGES:
            continue
        for i in suspects:
            if choice[i] + 1 < len(options[i]):
                nxt = choice[:i] + (choice[i] + 1,) + choice[i + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost(nxt), nxt))
    puzzle, result = first if first else (build(base), None)
    status = result.status if result else "none"
    notes.append(f"no reading with exactly one solution within {MAX_CHANGES} changes ({tries} tried)")
    return Reconciled(puzzle, status, result.solution if result else None, (), False, tries, tuple(notes))


def _settled(puzzle, solution, choice, options, first_reading, cages, tries, notes, min_wall) -> Reconciled:
    """The result for a choice that gives exactly one solution."""
    changes = []
    for i, k in enumerate(choice):
        used = options[i][k][:2]
        read = first_reading[i][:2]
        if used != read:
            reason = "the solver needed it" if k else "the reading is impossible"
            changes.append(Change(min(cages[i]), read, used, reason))
    weakest = min((options[i][k][2] for i, k in enumerate(choice)), default=1.0)
    confident = not changes and weakest >= CONFIDENT_CLUE and min_wall >= CONFIDENT_CLUE
    if not changes and not confident:
        notes = list(notes) + ["exactly one solution, but some clues or walls were read with low confidence"]
    return Reconciled(puzzle, "unique", solution, tuple(changes), confident, tries, tuple(notes))


def _normalised(cells, op: str, target: int, p: float) -> tuple[str, int, float]:
    """A single cell's clue is a given digit, whatever operator was read next to it; a bare number
    on a larger cage means its operator was not seen (``?``)."""
    if len(cells) == 1:
        return ("=", target, p)
    return ("?", target, p) if op == "=" else (op, target, p)


def _unique(alts: list[tuple[str, int, float]]) -> list[tuple[str, int, float]]:
    """Alternatives without repeated clues, keeping the first (most likely) of each."""
    out, seen = [], set()
    for a in alts:
        if a[:2] not in seen:
            seen.add(a[:2])
            out.append(a)
    return out


def _index_in(puzzle: Puzzle, cells: tuple[Cell, ...]) -> int:
    """The index in ``puzzle.cages`` of the cage covering ``cells`` (-1 when absent)."""
    return puzzle.cage_of.get(min(cells), -1)
