"""Kakuro as CNF: where a run is encoded.

Variables: ``x(i, v)`` is true when the i-th white cell (in reading order) holds digit v; they are
numbered 1..9·W so a model decodes with one numpy reshape. Every white cell holds exactly one digit:
an at-least-one clause and one native at-most-one constraint (MiniCard), as for KenKen's cells.

A run (a sum cage whose digits 1..9 all differ) is encoded by its *combination table*, the sets of
``k`` different digits adding up to its clue — at most 12 for any run, where the ordered tuples of a
KenKen cage table would reach 9! = 362 880 for ``45 in nine``. One selector per combination:

* ``act → some selector`` (the run's digits are one of its combinations);
* ``selector → each of its digits stands in some cell of the run``: k cells and k required digits,
  so the cells hold exactly that set, all different, and the sum is right;
* ``act ∧ cell holds v → some selector whose combination has v`` (support): unit propagation alone
  removes every digit no combination allows, the seed's first step;
* ``act → no two cells hold the same digit`` (pairwise, for propagation: implied by the above).

Every clause of a run is guarded by its *activation literal*, so the engine can switch runs on and
off under assumptions and name the runs of an unsatisfiable core — the same scheme as
:mod:`solver.encoding`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..puzzle import Cell
from .model import KakuroPuzzle, Run, combinations


@dataclass(frozen=True)
class RunEncoding:
    """The clauses of one run, all guarded by ``activation``; ``top`` is the last variable used."""

    activation: int
    clauses: tuple[tuple[int, ...], ...]
    top: int


@dataclass(frozen=True)
class KakuroEncoding:
    """The whole puzzle: one exactly-one group per white cell, then each run's clauses (in
    ``puzzle.runs`` order). ``index`` maps a white cell to its number in the variables."""

    whites: tuple[Cell, ...]
    index: dict[Cell, int]
    groups: tuple[tuple[int, ...], ...]
    runs: tuple[RunEncoding, ...]
    top: int

    @property
    def cages(self) -> tuple[RunEncoding, ...]:
        """The runs, under the name the shared engine uses for groups with a clue."""
        return self.runs

    def literal(self, cell: Cell, v: int) -> int:
        """The literal 'white ``cell`` holds digit v'."""
        return self.index[cell] * 9 + v

    def entry_literal(self, r: int, c: int, v: int) -> int:
        """The literal asserting entry v at (r, c) (the name the shared engine uses)."""
        return self.literal((r, c), v)

    def size(self) -> tuple[int, int]:
        """(clauses, cardinality constraints) of the whole encoding."""
        return len(self.groups) + sum(len(run.clauses) for run in self.runs), len(self.groups)


def encode_run(run: Run, literal, top: int) -> RunEncoding:
    """Encode one run with fresh variables above ``top``; ``literal(cell, v)`` numbers the cell
    variables."""
    act = top + 1
    combos = combinations(len(run.cells), run.total)
    if not combos:
        return RunEncoding(act, ((-act,),), act)
    selectors = list(range(act + 1, act + 1 + len(combos)))
    clauses: list[tuple[int, ...]] = [(-act, *selectors)]
    for sel, combo in zip(selectors, combos):
        for v in sorted(combo):
            clauses.append((-sel, *(literal(cell, v) for cell in run.cells)))
    for cell in run.cells:
        for v in range(1, 10):
            support = [sel for sel, combo in zip(selectors, combos) if v in combo]
            clauses.append((-act, -literal(cell, v), *support))
    cells = run.cells
    for i in range(len(cells)):
        for j in range(i + 1, len(cells)):
            for v in set().union(*combos):
                clauses.append((-act, -literal(cells[i], v), -literal(cells[j], v)))
    return RunEncoding(act, tuple(clauses), selectors[-1])


def encode(puzzle: KakuroPuzzle) -> KakuroEncoding:
    """Encode a puzzle. Entries are not encoded: the engine assumes them when it checks a grid."""
    whites = puzzle.whites
    index = {cell: i for i, cell in enumerate(whites)}
    literal = lambda cell, v: index[cell] * 9 + v  # noqa: E731 - the one numbering of cell variables
    groups = tuple(tuple(i * 9 + v for v in range(1, 10)) for i in range(len(whites)))
    top = 9 * len(whites)
    runs = []
    for run in puzzle.runs:
        encoded = encode_run(run, literal, top)
        runs.append(encoded)
        top = encoded.top
    return KakuroEncoding(whites, index, groups, tuple(runs), top)
