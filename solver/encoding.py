"""KenKen as CNF: where a cage is encoded.

Variables: ``x(r, c, v)`` is true when cell (r, c) holds digit v; they are numbered 1..N³ so a model
decodes with one numpy reshape. Every cell holds one digit and every digit stands once per row and
column: one at-least-one clause and one native at-most-one constraint per group (MiniCard keeps
cardinality constraints natively, which propagates like the pairwise clauses at a fraction of the
size: a 16×16 needs 768 of each instead of ~90k clauses).

A cage is a list of allowed tuples (:mod:`solver.cage_tuples`) with one selector per tuple:
``selector → its digits`` and, per cell and digit, ``digit → some selector that has it`` (support),
so unit propagation alone removes every digit no tuple supports (arc consistency). A cage with too
many tuples (large sums on large grids) is encoded arithmetically instead: layers of partial sums or
products, one layer per cell. Every cage's clauses are guarded by an *activation literal*, so the
engine can switch cages on and off under assumptions and name the cages of an unsatisfiable core.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cage_tuples import TooManyTuples, allowed_tuples
from .puzzle import Cage, Puzzle

def table_digits(n: int) -> int:
    """How many digits (tuples × cells) a cage's tuple table may hold before the cage is encoded
    arithmetically. Tables propagate best, but on large grids building them costs more than the
    search they save (measured with ``kensnap bench``: 24k suits 9×9 unreasonable, 6k suits 12×12
    and 16×16)."""
    return 24000 if n <= 9 else 6000
CLAUSE_BUDGET = 100_000
"""Past this many clauses in all, the largest tables are replaced by arithmetic layers (16×16 sums)."""
LAYER_CLAUSES = 2000
"""A rough count of the clauses of one cage's arithmetic layers, for the budget."""


def var(n: int, r: int, c: int, v: int) -> int:
    """The variable of 'cell (r, c) holds v' (v from 1) in an N×N grid."""
    return (r * n + c) * n + v


@lru_cache(maxsize=16)
def latin_groups(n: int) -> tuple[tuple[int, ...], ...]:
    """The 3·N² groups of which exactly one literal is true: the digits of a cell, the cells of a row
    holding one digit, the cells of a column holding one digit. Built once per size."""
    groups = []
    for a in range(n):
        for b in range(n):
            groups.append(tuple(var(n, a, b, v) for v in range(1, n + 1)))   # cell (a, b)
            groups.append(tuple(var(n, a, c, b + 1) for c in range(n)))      # digit b+1 in row a
            groups.append(tuple(var(n, r, a, b + 1) for r in range(n)))      # digit b+1 in column a
    return tuple(groups)


@dataclass(frozen=True)
class CageEncoding:
    """The clauses of one cage, all guarded by ``activation``; ``tuples`` is None when the cage was
    encoded arithmetically (too many tuples)."""

    activation: int
    clauses: tuple[tuple[int, ...], ...]
    tuples: tuple[tuple[int, ...], ...] | None
    top: int


def encode_cage(cage: Cage, n: int, long_minus_divide: bool, top: int,
                tuples: tuple[tuple[int, ...], ...] | None | str = "auto") -> CageEncoding:
    """Encode one cage with fresh variables above ``top``: by its tuple table, or arithmetically when
    ``tuples`` is None (``"auto"`` lists the table, falling back to arithmetic when it is too big)."""
    act = top + 1
    if tuples == "auto":
        tuples = cage_table(cage, n, long_minus_divide)
    if tuples is None:
        clauses, new_top = _arithmetic_clauses(cage, n, long_minus_divide, act)
        return CageEncoding(act, tuple(clauses), None, new_top)
    clauses, new_top = _tuple_clauses(cage, n, tuples, act)
    return CageEncoding(act, tuple(clauses), tuples, new_top)


def cage_table(cage: Cage, n: int, long_minus_divide: bool) -> tuple[tuple[int, ...], ...] | None:
    """The cage's tuple table, or None when it would hold more than ``table_digits(n)`` digits."""
    try:
        return allowed_tuples(cage, n, long_minus_divide, limit=table_digits(n) // len(cage.cells))
    except TooManyTuples:
        return None


def _tuple_clauses(cage: Cage, n: int, tuples, act: int, first: int | None = None) -> tuple[list, int]:
    """Selector encoding of a tuple table under the guard ``act`` (arc consistent under unit
    propagation); selectors are numbered from ``first`` (default: right after ``act``). Returns the
    clauses and the new top variable. The clauses, in this order: the guard's 'some selector'; each
    selector's digits (selector by selector, cell by cell); each cell's digits' supports (cell by
    cell, digit by digit, the supporting selectors ascending). The search's answers depend on the
    order, and the tables of a hard photo's alternatives run to a million clauses: built with plain
    lists, not :func:`var` per digit."""
    cells = cage.cells
    first = act + 1 if first is None else first
    if not tuples:
        return [(-act,)], max(act, first - 1)
    clauses: list[tuple[int, ...]] = [(-act, *range(first, first + len(tuples)))]
    bases = [var(n, r, c, 0) for r, c in cells]  # each cell's base: var(n, r, c, v) = base + v
    support: list[list[int]] = [[] for _ in range(len(cells) * n)]  # selectors by (cell i, digit v)
    for sel, digits in enumerate(tuples, start=first):
        for i, v in enumerate(digits):
            clauses.append((-sel, bases[i] + v))
            support[i * n + v - 1].append(sel)
    for i, base in enumerate(bases):
        for v in range(1, n + 1):
            sels = support[i * n + v - 1]
            clauses.append((-act, -(base + v), *sels) if sels else (-act, -(base + v)))
    return clauses, first + len(tuples) - 1


def _arithmetic_clauses(cage: Cage, n: int, lmd: bool, act: int) -> tuple[list, int]:
    """A cage whose tuple table is too large: ``+`` and ``*`` as layers of partial sums or products;
    ``-`` and ``/`` (whose tables stay far smaller: the others must add or multiply up to at most N)
    by their own full table. ``?`` chooses one operator with a selector and encodes each possible one
    under it."""
    k = len(cage.cells)
    if cage.op != "?":
        ops = [cage.op]
    else:
        ops = ["+", "*"] + (["-", "/"] if k == 2 or lmd else [])
    top = act
    clauses: list[tuple[int, ...]] = []
    if len(ops) > 1:
        sels = list(range(top + 1, top + 1 + len(ops)))
        top += len(ops)
        clauses.append((-act, *sels))
    else:
        sels = [act]
    for op, guard in zip(ops, sels):
        if op in "+*":
            extra, top = _layers(cage, n, op, guard, act, top)
        else:
            table = allowed_tuples(Cage(cage.cells, op, cage.target), n, lmd, limit=10 ** 7)
            extra, top = _tuple_clauses(cage, n, table, guard, first=top + 1)
        clauses.extend(extra)
    return clauses, top


def _layers(cage: Cage, n: int, op: str, guard: int, act: int, top: int) -> tuple[list, int]:
    """State-layer encoding of ``+`` or ``*`` under ``guard``: state s after j cells, s ⊕ v after j+1."""
    k, t, cells = len(cage.cells), cage.target, cage.cells
    if op == "+":
        step = lambda s, v: s + v
        ok = lambda j, s: s + (k - j) <= t and s + (k - j) * n >= t
        start = 0
    else:
        step = lambda s, v: s * v
        ok = lambda j, s: t % s == 0
        start = 1
    layers = [{start}]
    for j in range(k):
        layers.append({step(s, v) for s in layers[-1] for v in range(1, n + 1) if ok(j + 1, step(s, v))})
    layers[k] &= {t}
    for j in range(k - 1, -1, -1):  # keep states that can still reach the target
        layers[j] = {s for s in layers[j] if any(step(s, v) in layers[j + 1] for v in range(1, n + 1))}
    ids: list[dict[int, int]] = []
    for layer in layers:
        ids.append({s: top + 1 + i for i, s in enumerate(sorted(layer))})
        top += len(layer)
    clauses: list[tuple[int, ...]] = []
    if not layers[0]:
        return [(-guard,)], top
    clauses.append((-guard, ids[0][start]))
    for j, (r, c) in enumerate(cells):
        preds: dict[int, list[int]] = {s2: [] for s2 in ids[j + 1]}
        for s, sv in ids[j].items():
            for v in range(1, n + 1):
                after = step(s, v)
                nxt = ids[j + 1].get(after)
                x = var(n, r, c, v)
                clauses.append((-guard, -sv, -x, nxt) if nxt else (-guard, -sv, -x))
                if nxt:
                    preds[after].append(sv)
        for s2, sv2 in ids[j + 1].items():  # a state needs a predecessor and a digit to reach it
            clauses.append((-guard, -sv2, *preds[s2]))
    return clauses, top


@dataclass(frozen=True)
class PuzzleEncoding:
    """The whole puzzle: exactly-one groups (each an at-least-one clause plus an at-most-one
    constraint), then each cage's clauses (in ``puzzle.cages`` order)."""

    n: int
    groups: tuple[tuple[int, ...], ...]
    cages: tuple[CageEncoding, ...]
    top: int

    def size(self) -> tuple[int, int]:
        """(clauses, cardinality constraints) of the whole encoding."""
        return len(self.groups) + sum(len(c.clauses) for c in self.cages), len(self.groups)

    def entry_literal(self, r: int, c: int, v: int) -> int:
        """The literal asserting entry v at (r, c) (used as an assumption)."""
        return var(self.n, r, c, v)


def encode(puzzle: Puzzle) -> PuzzleEncoding:
    """Encode a puzzle. Entries are not encoded: the engine assumes them when it checks a grid.

    Tables propagate best, so every cage keeps its table unless the whole encoding would pass
    CLAUSE_BUDGET; then the largest tables give way to arithmetic layers, largest first.
    """
    n = puzzle.size
    lmd = puzzle.long_minus_divide
    tables = [cage_table(cage, n, lmd) for cage in puzzle.cages]
    cost = lambda i: len(tables[i]) * len(puzzle.cages[i].cells) + len(puzzle.cages[i].cells) * n + 1
    total = 3 * n * n + sum(cost(i) if t is not None else LAYER_CLAUSES for i, t in enumerate(tables))
    for i in sorted((i for i, t in enumerate(tables) if t is not None), key=cost, reverse=True):
        if total <= CLAUSE_BUDGET:
            break
        total -= cost(i) - LAYER_CLAUSES
        tables[i] = None
    top = n ** 3
    cages = []
    for cage, table in zip(puzzle.cages, tables):
        enc = encode_cage(cage, n, lmd, top, table)
        cages.append(enc)
        top = enc.top
    return PuzzleEncoding(n, latin_groups(n), tuple(cages), top)
