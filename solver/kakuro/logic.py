"""Human-style Kakuro solving, the way seed 003 describes it, with the KenKen logic solver's API.

Techniques (seed 003's steps, easiest first):

* *naked single* — a decided cell's digit is in no other cell of its two runs (step 3);
* *run combinations* — only the digits of the combination table that fit the candidates remain
  (steps 2 and 5: a combination needing a digit no cell can hold is dropped);
* *required digit* — a digit every fitting combination needs, which only one cell of the run can
  hold, goes there (step 4);
* *run permutations* — the orderings of the digits that fit cell by cell leave each position only
  the digits some ordering puts there (the seed's "ordered lists rather than unordered lists");
* *box* — across runs whose cells all lie in a set of down runs (or the other way round): the
  difference of the two totals is the sum of the cells the second set has in addition (the seed's
  2×2 "box with a tail": 1D+2D+1E+2E = 10+15 and 1D+2D+1E+2E+3E = 17+15, so 3E = 7).

The loop is the KenKen solver's (:mod:`solver.logic.deduce`): the easiest technique that crosses out a
candidate makes a step, the board is updated, and the search starts again from the easiest; it
ends solved, stuck, or at a contradiction. Nothing is guessed. The results are the KenKen solver's
own types — :class:`~solver.logic.deduce.Explanation` and :class:`~solver.logic.difficulty.Grade` —
with steps of :class:`KakuroStep`, a :class:`~solver.logic.steps.Step` whose technique comes from
:data:`TECHNIQUES` here; ``cages`` of a step are indexes into ``puzzle.runs``.

Import usage::

    from solver.kakuro.logic import explain_kakuro, grade_kakuro
    explanation = explain_kakuro(puzzle)     # Explanation(steps, solved_by_logic, solution, status, ...)
    grade_kakuro(puzzle)                     # Grade(level=2, name='moderate', hardest='run_permutations', ...)
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import reduce
from typing import Callable, Iterator

from ..engine import elapsed_ms
from ..logic.deduce import Explanation
from ..logic.difficulty import Grade, grade_of
from ..logic.steps import Step, Technique, cell_list, combos_text, digit_set, placed_text, removal_text
from ..puzzle import Cell, Grid, PuzzleError, cell_name
from .engine import solve_kakuro
from .model import KakuroPuzzle, clue_problems, combinations

FULL = 0b1111111110
"""The mask of the digits 1..9 (bit d for digit d)."""
PERMUTATION_LIMIT = 20_000
"""Most orderings listed for one run; a run with more is skipped by the permutation technique."""
BOX_RUNS = 3
"""Most runs on the first side of a box."""

TECHNIQUES: dict[str, Technique] = {t.key: t for t in (
    Technique("naked_single", "naked single", 1,
              "a cell with one candidate left holds it, so no other cell of its two runs does"),
    Technique("run_combinations", "run combinations", 1,
              "only the digits of the combinations that make the clue and fit the cells remain"),
    Technique("required_digit", "digit every combination needs", 1,
              "a digit all fitting combinations need, which only one cell of the run can hold, goes there"),
    Technique("run_permutations", "run permutations", 2,
              "each cell keeps only the digits that some ordering of a fitting combination puts there"),
    Technique("box", "box", 3,
              "runs one way that lie inside runs the other way: the difference of the totals is the "
              "sum of the cells left over"),
    Technique("contradiction", "contradiction", 0, "the candidates left cannot hold together"),
)}


@dataclass(frozen=True)
class KakuroStep(Step):
    """A :class:`~solver.logic.steps.Step` of the Kakuro solver (its technique is a key of
    :data:`TECHNIQUES`; ``cages`` are indexes into ``puzzle.runs``)."""

    @property
    def level(self) -> int:
        return TECHNIQUES[self.technique].level

    @property
    def name(self) -> str:
        return TECHNIQUES[self.technique].name


def digits(mask: int) -> tuple[int, ...]:
    """The digits whose bits are set, ascending."""
    return tuple(d for d in range(1, 10) if mask >> d & 1)


def mask_of(values) -> int:
    """The mask of the digits given."""
    return reduce(lambda m, d: m | 1 << d, values, 0)


def single(mask: int) -> bool:
    """True when the mask holds exactly one digit."""
    return mask != 0 and mask & (mask - 1) == 0


class Board:
    """One candidate mask per white cell; the only mutable object of the Kakuro logic solver."""

    def __init__(self, puzzle: KakuroPuzzle, masks: dict[Cell, int]):
        self.puzzle = puzzle
        self.masks = dict(masks)
        self.combos = [tuple(mask_of(c) for c in combinations(len(run.cells), run.total)) for run in puzzle.runs]
        self._fitting: dict[tuple[int, tuple[int, ...]], list[int]] = {}

    @classmethod
    def start(cls, puzzle: KakuroPuzzle, entries: Grid | None = None, pencil=None) -> "Board":
        """Every digit in every white cell, narrowed to ``entries`` (a digit: only it) and ``pencil``
        marks (a non-empty set: only those digits); nothing else is deduced."""
        masks = {}
        for r, c in puzzle.whites:
            if entries is not None and entries[r][c] is not None:
                masks[(r, c)] = 1 << entries[r][c]
            elif pencil is not None and pencil[r][c]:
                masks[(r, c)] = mask_of(d for d in pencil[r][c] if 1 <= d <= 9) or FULL
            else:
                masks[(r, c)] = FULL
        return cls(puzzle, masks)

    def remove(self, removed) -> None:
        """Cross out ``(cell, digit)`` pairs."""
        for cell, d in removed:
            self.masks[cell] &= ~(1 << d)

    def solved(self) -> bool:
        return all(single(m) for m in self.masks.values())

    def grid(self) -> Grid:
        """The digits of single-candidate cells (None elsewhere)."""
        grid = self.puzzle.empty_grid()
        for (r, c), m in self.masks.items():
            grid[r][c] = m.bit_length() - 1 if single(m) else None
        return tuple(map(tuple, grid))

    def candidates(self) -> tuple[tuple[frozenset[int], ...], ...]:
        """The candidates as an R×C grid of digit sets (empty for cells that are not white)."""
        return tuple(tuple(frozenset(digits(self.masks.get((r, c), 0))) for c in range(self.puzzle.cols))
                     for r in range(self.puzzle.rows))

    def consistent(self) -> bool:
        """For a solved board: every run holds different digits adding up to its clue."""
        for run in self.puzzle.runs:
            values = [self.masks[cell].bit_length() - 1 for cell in run.cells]
            if len(set(values)) != len(values) or sum(values) != run.total:
                return False
        return True

    def fitting(self, k: int) -> list[int]:
        """The combinations (masks) of run ``k`` that its cells can hold: each cell a different
        digit of the combination, from its candidates."""
        cells = tuple(self.masks[cell] for cell in self.puzzle.runs[k].cells)
        key = (k, cells)
        if key not in self._fitting:
            self._fitting[key] = [combo for combo in self.combos[k] if _matches([m & combo for m in cells], combo)]
        return self._fitting[key]

    def step(self, technique: str, reason: str, reads, runs, focus: str, removed) -> KakuroStep:
        """A step crossing out ``removed`` (cell, digit) pairs; its text is ``reason``, what is crossed
        out and the cells that leaves with one digit."""
        after: dict[Cell, int] = {}
        for cell, d in removed:
            after[cell] = after.get(cell, self.masks[cell]) & ~(1 << d)
        placed = sorted((cell, m.bit_length() - 1) for cell, m in after.items() if single(m))
        removed = tuple(sorted(set(removed)))
        text = f"{reason}: {removal_text(list(removed))}{placed_text(placed)}."
        return KakuroStep(technique, text, tuple(sorted(set(reads))), tuple(sorted(set(runs))), focus,
                          removed, tuple(placed))


def _matches(masks: list[int], combo: int) -> bool:
    """True when every cell can take a different digit of ``combo`` from its mask (a perfect matching:
    Hall's condition over every subset of cells, fine for runs of at most nine)."""
    if any(m == 0 for m in masks):
        return False
    k = len(masks)
    for subset in range(1, 1 << k):
        union = 0
        for i in range(k):
            if subset >> i & 1:
                union |= masks[i]
        if union.bit_count() < subset.bit_count():
            return False
    return combo.bit_count() == k


# -- the techniques ------------------------------------------------------------------------------
def find_naked_single(board: Board) -> Iterator[KakuroStep]:
    """A decided cell's digit crossed out of the other cells of its two runs (seed step 3)."""
    puzzle = board.puzzle
    for cell in puzzle.whites:
        m = board.masks[cell]
        if not single(m):
            continue
        d = m.bit_length() - 1
        across, down = puzzle.runs_of[cell]
        others = [x for k in (across, down) for x in puzzle.runs[k].cells if x != cell]
        removed = [(x, d) for x in others if board.masks[x] >> d & 1]
        if removed:
            names = f"{puzzle.runs[across].name} or {puzzle.runs[down].name}"
            yield board.step("naked_single", f"{cell_name(cell)} holds {d}, so no other cell of {names} does",
                             [cell], [across, down], cell_name(cell), removed)


def find_run_combinations(board: Board) -> Iterator[KakuroStep]:
    """Digits no fitting combination of the run has, crossed out (seed steps 2 and 5)."""
    for k, run in enumerate(board.puzzle.runs):
        fits = board.fitting(k)
        allowed = reduce(lambda a, b: a | b, fits, 0)
        removed = [(cell, d) for cell in run.cells for d in digits(board.masks[cell] & ~allowed)]
        if removed:
            combos = combos_text([digits(c) for c in fits]) if fits else "no combination"
            yield board.step("run_combinations", f"{run.name} can only be {combos}", run.cells, [k],
                             f"the run {run.name}", removed)


def find_required_digit(board: Board) -> Iterator[KakuroStep]:
    """A digit every fitting combination needs, that only one cell can hold, placed (seed step 4)."""
    for k, run in enumerate(board.puzzle.runs):
        fits = board.fitting(k)
        if not fits:
            continue
        needed = reduce(lambda a, b: a & b, fits)
        for d in digits(needed):
            holders = [cell for cell in run.cells if board.masks[cell] >> d & 1]
            if len(holders) == 1 and not single(board.masks[holders[0]]):
                cell = holders[0]
                removed = [(cell, v) for v in digits(board.masks[cell]) if v != d]
                combos = combos_text([digits(c) for c in fits])
                reason = (f"every combination of {run.name} that fits ({combos}) needs {d}, and only "
                          f"{cell_name(cell)} can hold it")
                yield board.step("required_digit", reason, run.cells, [k], f"the run {run.name}", removed)


def orderings(masks: list[int], total: int, limit: int = PERMUTATION_LIMIT) -> list[tuple[int, ...]] | None:
    """Every tuple of different digits, one from each mask, adding up to ``total``; None when there
    are more than ``limit``."""
    k, found, values = len(masks), [], []

    def extend(i: int, used: int, left: int) -> bool:
        if i == k:
            if left == 0:
                found.append(tuple(values))
            return len(found) <= limit
        rest = k - i - 1
        for d in digits(masks[i] & ~used):
            low = rest * (rest + 1) // 2  # the smallest sum the other cells can still make
            if d + low > left:
                break
            if d + rest * 9 < left:
                continue
            values.append(d)
            ok = extend(i + 1, used | 1 << d, left - d)
            values.pop()
            if not ok:
                return False
        return True

    return found if extend(0, 0, total) else None


def find_run_permutations(board: Board) -> Iterator[KakuroStep]:
    """Digits no fitting ordering puts in a cell, crossed out (the seed's ordered lists)."""
    for k, run in enumerate(board.puzzle.runs):
        masks = [board.masks[cell] for cell in run.cells]
        if all(single(m) for m in masks):
            continue
        found = orderings(masks, run.total)
        if found is None:
            continue
        at = [mask_of(t[i] for t in found) for i in range(len(masks))]
        removed = [(cell, d) for cell, m, a in zip(run.cells, masks, at) for d in digits(m & ~a)]
        if removed:
            shown = " or ".join("".join(map(str, t)) for t in found[:4])
            many = f"{len(found)} orderings" if len(found) > 4 else shown
            reason = (f"in the order of its cells ({cell_list(run.cells)}), {run.name} can only be {many}"
                      if found else f"no ordering of {run.name} fits its cells' candidates")
            yield board.step("run_permutations", reason, run.cells, [k], f"the run {run.name}", removed)


def find_box(board: Board) -> Iterator[KakuroStep]:
    """Runs one way lying inside runs the other way: the cells left over add up to the difference of
    the two totals (seed 003's box technique). From each run, sets of runs one way are grown one
    run at a time (a run holding a leftover cell), breadth first, up to BOX_RUNS runs; a leftover of
    one to three undecided cells that crosses something out gives the step (one cell: its digit;
    more: the digits their sum allows)."""
    puzzle = board.puzzle
    seen: set[frozenset[int]] = set()
    for first in range(len(puzzle.runs)):
        direction = puzzle.runs[first].direction
        queue = [frozenset({first})]
        while queue:
            side = queue.pop(0)
            if side in seen:
                continue
            seen.add(side)
            inner = {cell for k in side for cell in puzzle.runs[k].cells}
            other = frozenset(_run_of(puzzle, cell, direction) for cell in inner)
            extra = sorted({cell for k in other for cell in puzzle.runs[k].cells} - inner)
            if not extra:
                continue
            step = _box_step(board, side, other, extra)
            if step is not None:
                yield step
            if len(side) < BOX_RUNS:
                queue += [side | {k} for k in sorted({_run_of(puzzle, cell, direction, same=True) for cell in extra})]


def _run_of(puzzle: KakuroPuzzle, cell: Cell, direction: str, same: bool = False) -> int:
    """The index of the cell's run across the other way from ``direction`` (or the same way)."""
    across, down = puzzle.runs_of[cell]
    if same:
        return across if direction == "across" else down
    return down if direction == "across" else across


def _box_step(board: Board, side: frozenset[int], other: frozenset[int], extra: list[Cell]) -> KakuroStep | None:
    """The box step of runs ``side`` inside runs ``other`` with leftover cells ``extra``, or None when
    it crosses nothing out."""
    puzzle = board.puzzle
    total = sum(puzzle.runs[k].total for k in other) - sum(puzzle.runs[k].total for k in side)
    known = [cell for cell in extra if single(board.masks[cell])]
    open_cells = [cell for cell in extra if cell not in known]
    left = total - sum(board.masks[cell].bit_length() - 1 for cell in known)
    if not 1 <= len(open_cells) <= 3:
        return None
    masks = [board.masks[cell] for cell in open_cells]
    fits = [t for t in _assignments(masks, left) if _different_in_runs(puzzle, open_cells, t)]
    at = [mask_of(t[i] for t in fits) for i in range(len(open_cells))]
    removed = [(cell, d) for cell, m, a in zip(open_cells, masks, at) for d in digits(m & ~a)]
    if not removed:
        return None
    names = lambda ks: " + ".join(puzzle.runs[k].name for k in sorted(ks))  # noqa: E731
    sum_side = sum(puzzle.runs[k].total for k in side)
    sum_other = sum(puzzle.runs[k].total for k in other)
    what = f"{cell_name(open_cells[0])} = {left}" if len(open_cells) == 1 else \
        f"{cell_list(open_cells)} add up to {left}"
    given = f" (less the decided {cell_list(known)})" if known else ""
    reason = (f"the cells of {names(side)} (total {sum_side}) all lie in {names(other)} (total {sum_other}), "
              f"which also hold {cell_list(extra)}: so {what}{given}")
    reads = {cell for k in side | other for cell in puzzle.runs[k].cells}
    return board.step("box", reason, reads, side | other, f"the box around {cell_name(extra[0])}", removed)


def _assignments(masks: list[int], total: int) -> list[tuple[int, ...]]:
    """Tuples with a digit from each mask adding up to ``total`` (digits may repeat)."""
    found: list[tuple[int, ...]] = [()]
    for m in masks:
        found = [t + (d,) for t in found for d in digits(m)]
    return [t for t in found if sum(t) == total]


def _different_in_runs(puzzle: KakuroPuzzle, cells: list[Cell], values: tuple[int, ...]) -> bool:
    """True when no two of the cells that share a run hold the same digit."""
    for i in range(len(cells)):
        for j in range(i + 1, len(cells)):
            if values[i] == values[j] and set(puzzle.runs_of[cells[i]]) & set(puzzle.runs_of[cells[j]]):
                return False
    return True


def find_contradiction(board: Board) -> KakuroStep | None:
    """A ``contradiction`` step when a cell has no candidate or a run no fitting combination."""
    puzzle = board.puzzle
    for cell in puzzle.whites:
        if board.masks[cell] == 0:
            return KakuroStep("contradiction", f"{cell_name(cell)} has no candidate left.", (cell,), (),
                              cell_name(cell), ())
    for k, run in enumerate(puzzle.runs):
        if not board.fitting(k):
            cands = "; ".join(f"{cell_name(c)} {digit_set(digits(board.masks[c]))}" for c in run.cells)
            return KakuroStep("contradiction", f"no combination of {run.name} fits its cells ({cands}).",
                              run.cells, (k,), f"the run {run.name}", ())
    return None


ORDER: tuple[tuple[str, Callable[[Board], Iterator[KakuroStep]]], ...] = (
    ("naked_single", find_naked_single),
    ("run_combinations", find_run_combinations),
    ("required_digit", find_required_digit),
    ("run_permutations", find_run_permutations),
    ("box", find_box),
)
"""Every technique, easiest first: (technique key, finder yielding its steps in scan order)."""


RANK = {key: rank for rank, (key, _) in enumerate(ORDER)}


# -- the loop --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KakuroExplanation(Explanation):
    """The KenKen solver's :class:`~solver.logic.deduce.Explanation`, ranking Kakuro techniques."""

    @property
    def hardest(self) -> KakuroStep | None:
        """The first step of the hardest technique used: highest level, then latest in :data:`ORDER`."""
        return max(self.steps, key=lambda s: (s.level, RANK.get(s.technique, -1)), default=None)

def next_step(board: Board) -> KakuroStep | None:
    """The step the easiest applicable technique makes (or a contradiction), None when stuck or solved."""
    bad = find_contradiction(board)
    if bad is not None:
        return bad
    if board.solved():
        return None
    for _, find in ORDER:
        step = next(find(board), None)
        if step is not None:
            return step
    return None


def deduce(board: Board, max_steps: int = 100_000) -> Iterator[KakuroStep]:
    """Steps from ``board`` on, applied to it as they are yielded; ends solved, stuck, or after a
    contradiction step."""
    for _ in range(max_steps):
        step = next_step(board)
        if step is None:
            return
        yield step
        if step.technique == "contradiction":
            return
        board.remove(step.removed)


def explain_kakuro(puzzle: KakuroPuzzle, entries: Grid | None = None, pencil=None,
                   fallback: bool = True) -> KakuroExplanation:
    """Solve ``puzzle`` by logic alone from its clues and the given ``entries`` (taken as right;
    default none) and ``pencil`` marks; with ``fallback`` the SAT engine supplies the answer when
    logic stops short. Raises :class:`PuzzleError` for a clue no digits can make."""
    start_time = time.perf_counter()
    if problems := clue_problems(puzzle):
        raise PuzzleError("; ".join(problems))
    board = Board.start(puzzle, entries, pencil)
    start = board.candidates()
    steps = tuple(deduce(board))
    solved = board.solved() and board.consistent() and not (steps and steps[-1].technique == "contradiction")
    solution, status = (board.grid(), "unique") if solved else (None, "unknown")
    if not solved and fallback:
        result = solve_kakuro(puzzle)
        solution, status = result.solution, result.status
    return KakuroExplanation(steps, solved, solution, status, start, board.candidates(), elapsed_ms(start_time))


def grade_kakuro(puzzle: KakuroPuzzle) -> Grade:
    """The difficulty of a Kakuro, on the KenKen scale: 1 easy (singles, combinations, a required
    digit), 2 moderate (permutations), 3 tricky (the box technique), 5 when these do not finish it.
    Raises PuzzleError for an impossible clue."""
    return grade_of(explain_kakuro(puzzle))


def technique_name(key: str | None) -> str:
    """The name of a Kakuro technique key for people ('none' for None)."""
    return TECHNIQUES[key].name if key else "none"


__all__ = ["Board", "KakuroStep", "TECHNIQUES", "deduce", "explain_kakuro", "grade_kakuro", "orderings",
           "technique_name"]
