"""The KenKen puzzle model: small, immutable, shared by every stage.

Naming contract, used everywhere in kensnap:

* *cell* — ``(row, col)``, both from 0 at the top-left corner.
* *N* / ``size`` — the grid is N×N and holds the digits 1..N once per row and column.
* *cage* — a group of cells with a *clue*: an operator ``op`` and a ``target``.
* *op* — ``+ - * / =`` or ``?`` (operator not printed: any of + − × ÷ that makes the target).
* *entries* — digits already written in the grid (``None`` where empty); pencil marks are not entries.
* *candidates* — the digits a cell may still hold.
* *rules* — classic (``-`` and ``/`` only on two cells) or Calcudoku (also on 3+ cells: the largest
  value minus, or divided by, all the others).

A :class:`Puzzle` checks its structure when built and raises :class:`PuzzleError` with a message a
person understands. Clues that no digits can make are reported by :func:`clue_problems`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

Cell = tuple[int, int]
Grid = tuple[tuple[int | None, ...], ...]

MIN_SIZE, MAX_SIZE = 3, 16
OPS = ("+", "-", "*", "/", "=", "?")
OP_WORDS = {"+": "sum", "-": "difference", "*": "product", "/": "quotient", "=": "given", "?": "hidden-operator clue"}
OP_GLYPHS = {"+": "+", "-": "−", "*": "×", "/": "÷", "=": "", "?": ""}


class PuzzleError(ValueError):
    """A puzzle that cannot be built or solved as given; the message is meant for a person."""


def cell_name(cell: Cell) -> str:
    """``(1, 2)`` → ``'r2c3'``: the 1-based name people use for a cell."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def digit_text(value: int | None) -> str:
    """A digit as printed: ``'7'``, ``'12'`` for sizes above 9, ``'.'`` for empty."""
    return "." if value is None else str(value)


@dataclass(frozen=True)
class Cage:
    """A group of cells and its clue. ``cells`` are kept in reading order (the first is the anchor,
    where the clue is printed)."""

    cells: tuple[Cell, ...]
    op: str
    target: int

    def __post_init__(self) -> None:
        cells = tuple(sorted((int(r), int(c)) for r, c in self.cells))
        object.__setattr__(self, "cells", cells)
        if not cells:
            raise PuzzleError("a cage has no cells")
        if len(set(cells)) != len(cells):
            raise PuzzleError(f"cage at {cell_name(cells[0])} lists a cell twice")
        if self.op not in OPS:
            raise PuzzleError(f"cage at {cell_name(cells[0])}: unknown operator {self.op!r} (use + - * / = ?)")
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 0:
            raise PuzzleError(f"cage at {cell_name(cells[0])}: target must be a whole number ≥ 0, not {self.target!r}")
        if self.op == "=" and len(cells) != 1:
            raise PuzzleError(f"cage at {cell_name(cells[0])}: '=' (a given digit) needs exactly one cell, it has {len(cells)}")

    @property
    def anchor(self) -> Cell:
        """The first cell in reading order, where the clue is printed."""
        return self.cells[0]

    @property
    def clue(self) -> str:
        """The clue as printed, for example ``'12×'``, ``'3'`` or ``'7?'`` for a hidden operator."""
        if len(self.cells) == 1 and self.op in "=?":
            return str(self.target)
        return f"{self.target}{OP_GLYPHS[self.op] or '?'}"

    @property
    def name(self) -> str:
        """How a person finds the cage: ``'12× at r1c1'``."""
        return f"{self.clue} at {cell_name(self.anchor)}"

    def is_connected(self) -> bool:
        """True when every cell can be reached from the anchor by orthogonal steps inside the cage."""
        cells, seen, todo = set(self.cells), {self.anchor}, [self.anchor]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return len(seen) == len(cells)


@dataclass(frozen=True)
class Puzzle:
    """An N×N KenKen: cages with clues, optionally digits already written in (``entries``).

    ``calcudoku`` is the rule setting for 3+-cell ``-`` and ``/``: True allows them (Calcudoku style),
    False forbids them (classic newspaper style), None decides from the puzzle (allowed when a cage
    shows one). Cells in no cage are allowed; only their row and column constrain them.
    Raises :class:`PuzzleError` for a cell outside the grid, a cell in two cages, bad entries.
    """

    size: int
    cages: tuple[Cage, ...]
    operators_shown: bool = True
    entries: Grid | None = None
    calcudoku: bool | None = None
    cage_of: dict[Cell, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        n = self.size
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
            raise PuzzleError(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {n!r}")
        cages = tuple(sorted(self.cages, key=lambda cage: cage.anchor))
        object.__setattr__(self, "cages", cages)
        cage_of: dict[Cell, int] = {}
        for index, cage in enumerate(cages):
            for cell in cage.cells:
                if not (0 <= cell[0] < n and 0 <= cell[1] < n):
                    raise PuzzleError(f"cage {cage.name}: cell [{cell[0]}, {cell[1]}] is outside the {n}×{n} grid")
                if cell in cage_of:
                    other = cages[cage_of[cell]]
                    raise PuzzleError(f"cell {cell_name(cell)} is in two cages: {other.name} and {cage.name}")
                cage_of[cell] = index
        object.__setattr__(self, "cage_of", cage_of)
        if self.entries is not None:
            object.__setattr__(self, "entries", _checked_entries(self.entries, n))

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell in reading order."""
        return tuple((r, c) for r in range(self.size) for c in range(self.size))

    @property
    def uncovered(self) -> tuple[Cell, ...]:
        """Cells that belong to no cage."""
        return tuple(cell for cell in self.cells if cell not in self.cage_of)

    @property
    def long_minus_divide(self) -> bool:
        """Whether 3+-cell ``-`` and ``/`` are allowed under this puzzle's rules."""
        if self.calcudoku is not None:
            return self.calcudoku
        return any(len(cage.cells) > 2 and cage.op in "-/" for cage in self.cages)

    def with_entries(self, entries: Grid | None) -> "Puzzle":
        """The same puzzle with other entries (None removes them)."""
        return Puzzle(self.size, self.cages, self.operators_shown, entries, self.calcudoku)

    def without_cage(self, index: int) -> "Puzzle":
        """The same puzzle with one cage removed (its cells become uncovered)."""
        cages = self.cages[:index] + self.cages[index + 1:]
        return Puzzle(self.size, cages, self.operators_shown, self.entries, self.calcudoku)

    def warnings(self) -> list[str]:
        """Things that are legal but probably a mistake: disconnected cages, uncovered cells."""
        notes = [f"cage {cage.name} is not connected" for cage in self.cages if not cage.is_connected()]
        if self.uncovered:
            names = ", ".join(cell_name(cell) for cell in self.uncovered[:8])
            more = "…" if len(self.uncovered) > 8 else ""
            notes.append(f"{len(self.uncovered)} cell(s) in no cage ({names}{more}): only their row and column constrain them")
        return notes


def _checked_entries(entries: Grid, n: int) -> Grid:
    """Entries as a tuple grid; raises PuzzleError unless they are N rows of N digits 1..N or None."""
    rows = tuple(tuple(row) for row in entries)
    if len(rows) != n or any(len(row) != n for row in rows):
        raise PuzzleError(f"entries must be {n} rows of {n} cells")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n):
                raise PuzzleError(f"entry at {cell_name((r, c))} must be a digit 1..{n} or empty, not {value!r}")
    return rows


def _prime_factors(value: int) -> set[int]:
    """The prime factors of a positive integer."""
    factors, p = set(), 2
    while p * p <= value:
        while value % p == 0:
            factors.add(p)
            value //= p
        p += 1
    if value > 1:
        factors.add(value)
    return factors


def clue_problem(cage: Cage, n: int, long_minus_divide: bool) -> str | None:
    """Why no digits 1..N can make this cage's clue, in words; None when the clue is possible.

    Fast arithmetic bounds only: a clue that passes may still have no tuple once rows and columns
    are taken into account (the engine reports that as a conflict).
    """
    k, t, op, where = len(cage.cells), cage.target, cage.op, cage.name
    if k == 1 and op in "=?+*":
        return None if 1 <= t <= n else f"{where}: a single cell must hold 1..{n}, not {t}"
    if k == 1:
        return f"{where}: '{op}' needs at least two cells"
    if op in "-/" and k > 2 and not long_minus_divide:
        return f"{where}: '{op}' on {k} cells needs Calcudoku rules (classic puzzles use it on two cells only)"
    if op == "+":
        return None if k <= t <= k * n else f"{where}: {k} digits 1..{n} cannot add up to {t}"
    if op == "*":
        if t == 0 or any(p > n for p in _prime_factors(t)):
            big = max(_prime_factors(t)) if t > 1 else 0
            return f"{where}: product {t} has the prime factor {big}, larger than {n}" if t else f"{where}: a product cannot be 0"
        return None if t <= n ** k else f"{where}: {k} digits 1..{n} cannot multiply to {t}"
    if op == "-":
        return None if t <= n - (k - 1) and (t > 0 or k > 2) else f"{where}: no digits 1..{n} have difference {t}"
    if op == "/":
        ok = 2 <= t <= n if k == 2 else 1 <= t <= n
        return None if ok else f"{where}: no digits 1..{n} have quotient {t}"
    return None  # '?': checked by tuple enumeration in the engine


def clue_problems(puzzle: Puzzle) -> list[str]:
    """Every impossible clue of the puzzle, in words (empty when all clues are possible)."""
    lmd = puzzle.long_minus_divide
    return [p for cage in puzzle.cages if (p := clue_problem(cage, puzzle.size, lmd))]


def product(values) -> int:
    """The product of an iterable of integers (1 when empty)."""
    return prod(values)
