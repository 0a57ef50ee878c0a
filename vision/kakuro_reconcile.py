"""The solver in the loop for Kakuro photos: the likeliest reading of the clue numbers that makes a
puzzle with exactly one solution.

Algorithm (core-guided best-first search). One SAT solver holds the white cells' digits (exactly
one each) and, for every clue number and every value read for it, the run encoded with that total
under a selector literal (:func:`solver.kakuro.encoding.encode_run`, as the engine encodes runs);
a number not read at all gets every total its run can make, equally likely. A *free* selector per
number (its digits only differ, any total) stands for a number read wrong in every alternative. A reading picks one selector per number; its cost is the sum over numbers of
minus the log of the probability of the value picked (FREE_COST for a free one). Readings are taken
from a priority queue, cheapest first, starting with the best value of every number:

* the solver, assuming the reading's selectors, finds no grid: its core names the numbers that
  cannot hold together, and the reading with each of those moved to its next value is queued;
* it finds a grid: a second question, with that grid blocked by a guarded clause, says whether it
  is the only one. Only then is the reading returned; otherwise the numbers of the runs through the
  cells where the two grids differ are moved like a core's.

Each question is one incremental SAT call under assumptions, so hundreds are cheap. The search
stops after MAX_QUESTIONS, or when its questions have spent SEARCH_CONFLICTS conflicts (or what is
left of the photo's LOOK_CONFLICTS, :class:`Purse`), and then returns the reading as read (its
status says what is wrong). A question the solver cannot settle within QUESTION_CONFLICTS
conflicts is left undecided: that reading is dropped, and never called unique.

Once a reading is found, the search goes on (every number of that reading also moved to its next
value) for a *rival*: another reading with exactly one solution that costs at most RIVAL_MARGIN
more. A rival means the photo does not tell the two apart, so the reading is not confident.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
from pysat.solvers import Solver

from solver.engine import SAT_BACKEND
from solver.kakuro.encoding import encode_run
from solver.kakuro.model import KakuroPuzzle, Run, sum_range
from solver.puzzle import Cell

Slot = tuple[Cell, str]
MAX_QUESTIONS = 400
"""Most SAT questions one reconciliation asks."""
QUESTION_CONFLICTS = 20_000
"""Most conflicts the SAT solver may spend on one question (about 1.5 s on this machine's CPU); a
question it cannot settle within them is undecided. Most questions take none or a few hundred; a
grid read a column short (kk7070-0044 read as 10×9) asked questions of 27,000 to 93,000 conflicts
(2 to 23 s each) and took 17 minutes to read."""
SEARCH_CONFLICTS = 60_000
"""Most conflicts one reconciliation's questions may spend together (about 5 s)."""
LOOK_CONFLICTS = 120_000
"""Most conflicts the reconciliations of one photo's layouts may spend together (:class:`Purse`).
Every layout of a KenKen photo looked at as a Kakuro can spend SEARCH_CONFLICTS in vain, and a hard
photo was read in 2 to 12 layouts: the look took up to 12 s (hard k5252-0276: 12 layouts, 660,000
conflicts). The 180 Kakuro photos of seed 2727 spend at most 3,374 together (kk2727-0161, 7
layouts), the median 9."""
FREE_COST = 12.0
"""Cost of a number whose value none of its readings has (a reading of probability e^-12)."""
FLOOR = 1e-4
"""Least probability a reading's value counts with."""


UNDECIDED = object()
"""What :meth:`ReadingSolver._other_grid` returns when the solver could not tell."""

RIVAL_MARGIN = 3.0
"""A reading with one solution whose cost is within this of the best one's (a probability ratio of
e^3 ≈ 20) is a close rival: the photo does not settle which of the two it shows."""


class Purse:
    """Conflicts the reconciliations of one photo may still spend (LOOK_CONFLICTS at first). A
    :class:`ReadingSolver` given it searches within what is left (at most SEARCH_CONFLICTS) and takes
    what it spent out when it closes."""

    def __init__(self, conflicts: int | None = None):
        self.left = LOOK_CONFLICTS if conflicts is None else conflicts

    @property
    def empty(self) -> bool:
        return self.left <= 0


@dataclass(frozen=True)
class Settled:
    """The outcome: ``reading`` (slot → value), ``status`` of the puzzle it makes (``'unique'``,
    ``'multiple'`` or ``'none'``; 'none' also when every question was undecided), ``solution`` when
    unique, ``questions`` asked, and ``rival``: a
    different reading that also has exactly one solution and costs at most RIVAL_MARGIN more
    (None when the search found none); ``cost`` is the reading's (minus the log of its
    probability; infinite when none was found)."""

    reading: dict[Slot, int]
    status: str
    solution: dict[Cell, int] | None
    questions: int
    rival: dict[Slot, int] | None = None
    cost: float = float("inf")
    undecided: int = 0
    """Questions the solver could not settle within its conflict budget (their readings dropped)."""


class ReadingSolver:
    """One SAT solver over every alternative reading of a layout's numbers. Use as a context manager."""

    def __init__(self, layout: KakuroPuzzle, numbers: dict[Slot, tuple[tuple[int, float], ...]],
                 purse: Purse | None = None):
        self.layout = layout
        self.purse = purse
        self.budget = SEARCH_CONFLICTS if purse is None else max(0, min(SEARCH_CONFLICTS, purse.left))
        """Most conflicts this search's questions may spend together."""
        self.index = {cell: i for i, cell in enumerate(layout.whites)}
        self.solver = Solver(name=SAT_BACKEND)
        for i in range(len(self.index)):
            group = [i * 9 + v for v in range(1, 10)]
            self.solver.add_clause(group)
            self.solver.add_atmost(group, 1)
        self.top = 9 * len(self.index)
        self.options: dict[Slot, list[tuple[float, int | None, int]]] = {}
        """slot → (cost, value or None for free, selector), cheapest first."""
        self.runs = {(run.clue_cell, run.direction): run for run in layout.runs}
        for slot, run in self.runs.items():
            options = []
            low, high = sum_range(len(run.cells))
            read = numbers.get(slot, ()) or tuple((v, 1 / (high - low + 1)) for v in range(low, high + 1))
            for value, p in read:
                encoded = encode_run(Run(run.direction, run.clue_cell, run.cells, value), self.literal, self.top)
                self.solver.append_formula(encoded.clauses)
                self.top = encoded.top
                options.append((-float(np.log(max(p, FLOOR))), value, encoded.activation))
            self.top += 1
            free = self.top
            for i, a in enumerate(run.cells):
                for b in run.cells[i + 1:]:
                    for v in range(1, 10):
                        self.solver.add_clause([-free, -self.literal(a, v), -self.literal(b, v)])
            options.append((self._free_cost(read, high - low + 1), None, free))
            # cheapest first; on a tie a value read goes before the free pick (None is no number)
            self.options[slot] = sorted(options, key=lambda option: (option[0], option[1] is None))
        self.slot_of = {sel: slot for slot, opts in self.options.items() for _, _, sel in opts}
        self.fixed: dict[tuple[Slot, int], int] = {}
        self.spent, self.undecided = 0, 0
        """Conflicts the questions have spent so far; questions left undecided."""

    @staticmethod
    def _free_cost(read: tuple[tuple[int, float], ...], values: int) -> float:
        """Cost of a number read as none of ``read``: minus the log of the probability the reading
        left over, shared evenly by the ``values`` totals its run can make that were not read, at
        most FREE_COST (a sure reading leaves nearly nothing over; an unsure one leaves much)."""
        left = max(0.0, 1.0 - sum(p for _, p in read))
        share = left / max(1, values - len(read))
        return min(FREE_COST, -float(np.log(max(share, float(np.exp(-FREE_COST))))))

    def literal(self, cell: Cell, v: int) -> int:
        return self.index[cell] * 9 + v

    def __enter__(self) -> "ReadingSolver":
        return self

    def __exit__(self, *exc) -> None:
        self.solver.delete()
        if self.purse is not None:
            self.purse.left -= self.spent

    def settle(self) -> Settled:
        """The cheapest reading whose puzzle has exactly one solution (see the module docstring)."""
        slots = sorted(self.options)
        start = tuple(0 for _ in slots)
        queue = [(self._cost(slots, start), start)]
        seen = {start}
        questions = 0
        first_status = None
        while queue and questions < MAX_QUESTIONS and self.spent < self.budget:
            _, picks = heapq.heappop(queue)
            assumptions = [self.options[slot][k][2] for slot, k in zip(slots, picks)]
            questions += 1
            answer = self._ask(assumptions)
            if answer is None:  # undecided: this reading is dropped
                self.undecided += 1
                continue
            if not answer:
                doubt = {self.slot_of[lit] for lit in (self.solver.get_core() or []) if lit in self.slot_of}
                status = "none"
            else:
                grid = self._grid(self.solver.get_model())
                assumptions = self._fixed(slots, picks, grid, assumptions)
                questions += 1
                differ = self._other_grid(grid, assumptions)
                if differ is UNDECIDED:
                    self.undecided += 1
                    continue
                if differ is None:
                    reading = self._reading(slots, picks, grid)
                    rival, asked = self._rival(slots, picks, queue, seen, MAX_QUESTIONS - questions, reading)
                    return Settled(reading, "unique", grid, questions + asked, rival, self._cost(slots, picks),
                                   self.undecided)
                status = "multiple"
                cells = [cell for cell in grid if grid[cell] != differ[cell]]
                doubt = {(run.clue_cell, run.direction) for cell in cells for run in self.layout.runs_through(cell)}
            first_status = first_status or status
            self._queue_moved(slots, picks, doubt, queue, seen)
        if queue and self.spent >= self.budget:
            self.undecided += 1  # the budget ran out with readings left to ask
        reading = {slot: self.options[slot][0][1] for slot in slots}
        return Settled(reading, first_status or "none", None, questions, undecided=self.undecided)

    def _rival(self, slots: list[Slot], picks: tuple[int, ...], queue: list, seen: set, budget: int,
               best: dict[Slot, int]) -> tuple[dict[Slot, int] | None, int]:
        """``(rival, questions)``: the search carried on past the best reading (of cost c, whose
        every number is also moved to its next value) until a different reading with exactly one
        solution turns up (the rival) or every reading left costs more than c + RIVAL_MARGIN."""
        limit = self._cost(slots, picks) + RIVAL_MARGIN
        self._queue_moved(slots, picks, set(slots), queue, seen)
        asked = 0
        while queue and asked < budget and self.spent < self.budget:
            cost, picks = heapq.heappop(queue)
            if cost > limit:
                break
            assumptions = [self.options[slot][k][2] for slot, k in zip(slots, picks)]
            asked += 1
            answer = self._ask(assumptions)
            if answer is None:
                self.undecided += 1
                continue
            if not answer:
                doubt = {self.slot_of[lit] for lit in (self.solver.get_core() or []) if lit in self.slot_of}
            else:
                grid = self._grid(self.solver.get_model())
                reading = self._reading(slots, picks, grid)
                if reading == best:  # a free pick that adds up to the best reading's number
                    doubt = set(slots)
                else:
                    assumptions = self._fixed(slots, picks, grid, assumptions)
                    asked += 1
                    differ = self._other_grid(grid, assumptions)
                    if differ is UNDECIDED:
                        self.undecided += 1
                        continue
                    if differ is None:
                        return reading, asked
                    cells = [cell for cell in grid if grid[cell] != differ[cell]]
                    doubt = {(run.clue_cell, run.direction) for cell in cells for run in self.layout.runs_through(cell)}
            self._queue_moved(slots, picks, doubt, queue, seen)
        if self.spent >= self.budget and queue and queue[0][0] <= limit:
            self.undecided += 1  # the budget ran out before every close reading was asked
        return None, asked

    def _queue_moved(self, slots: list[Slot], picks: tuple[int, ...], doubt: set[Slot], queue: list, seen: set) -> None:
        """Queue (by cost) each reading not seen before that is ``picks`` with one number of ``doubt``
        moved to its next value."""
        for i, slot in enumerate(slots):
            if slot in doubt and picks[i] + 1 < len(self.options[slot]):
                moved = picks[:i] + (picks[i] + 1,) + picks[i + 1:]
                if moved not in seen:
                    seen.add(moved)
                    heapq.heappush(queue, (self._cost(slots, moved), moved))

    def _fixed(self, slots: list[Slot], picks: tuple[int, ...], grid: dict[Cell, int], assumptions: list[int]) -> list[int]:
        """The assumptions with every free pick replaced by its run encoded with the total its digits
        have in ``grid`` (so uniqueness is asked of the puzzle with that number printed)."""
        fixed = list(assumptions)
        for i, (slot, k) in enumerate(zip(slots, picks)):
            if self.options[slot][k][1] is None:
                run = self.runs[slot]
                total = sum(grid[cell] for cell in run.cells)
                if (slot, total) not in self.fixed:
                    encoded = encode_run(Run(run.direction, run.clue_cell, run.cells, total), self.literal, self.top)
                    self.solver.append_formula(encoded.clauses)
                    self.top = encoded.top
                    self.fixed[(slot, total)] = encoded.activation
                fixed[i] = self.fixed[(slot, total)]
        return fixed

    def _cost(self, slots: list[Slot], picks: tuple[int, ...]) -> float:
        return sum(self.options[slot][k][0] for slot, k in zip(slots, picks))

    def _ask(self, assumptions: list[int]) -> bool | None:
        """Whether the clauses hold under ``assumptions``; None when the solver cannot tell within
        QUESTION_CONFLICTS conflicts or what is left of its budget."""
        left = self.budget - self.spent
        if left <= 0:
            return None
        before = self.solver.accum_stats()["conflicts"]
        self.solver.conf_budget(max(1, min(QUESTION_CONFLICTS, left)))  # pysat reads 0 as no budget
        answer = self.solver.solve_limited(assumptions=assumptions)
        self.spent += self.solver.accum_stats()["conflicts"] - before
        return answer

    def _other_grid(self, grid: dict[Cell, int], assumptions: list[int]) -> dict[Cell, int] | None | object:
        """Another solution than ``grid`` under ``assumptions``, None when ``grid`` is the only one,
        UNDECIDED when the solver cannot tell (the blocking clause is guarded by a fresh literal
        and switched off afterwards)."""
        self.top += 1
        guard = self.top
        self.solver.add_clause([-guard] + [-self.literal(cell, v) for cell, v in grid.items()])
        other = self._ask(assumptions + [guard])
        differ = UNDECIDED if other is None else self._grid(self.solver.get_model()) if other else None
        self.solver.add_clause([-guard])
        return differ

    def _grid(self, model: list[int]) -> dict[Cell, int]:
        true = set(lit for lit in model[: 9 * len(self.index)] if lit > 0)
        return {cell: next(v for v in range(1, 10) if i * 9 + v in true) for cell, i in self.index.items()}

    def _reading(self, slots: list[Slot], picks: tuple[int, ...], grid: dict[Cell, int]) -> dict[Slot, int]:
        """slot → value; a free pick gets what its digits add up to in ``grid``."""
        out = {}
        for slot, k in zip(slots, picks):
            value = self.options[slot][k][1]
            out[slot] = value if value is not None else sum(grid[cell] for cell in self.runs[slot].cells)
        return out
