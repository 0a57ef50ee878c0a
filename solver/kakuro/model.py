"""The Kakuro puzzle model: small, immutable, checked when built.

Naming contract (KenKen's words where they mean the same):

* *cell* — ``(row, col)`` from 0 at the top-left corner; ``r2c3`` is its 1-based name.
* *square* — what a cell is: :data:`BLOCK` (``"#"``), :data:`WHITE` (``"."``, a digit goes here) or a
  :class:`Clue` (a clue cell, split by its diagonal: ``down`` below-left, ``across`` above-right).
* *run* — the white cells right of (``across``) or below (``down``) a clue cell, up to the next
  non-white cell. Its digits 1..9 all differ and add up to the clue: a run is a sum cage whose
  digits all differ (:meth:`Run.cage`).
* *entries* — digits already written in white cells (``None`` elsewhere and where empty).
* *solution* — a grid of the same shape with a digit on every white cell and ``None`` elsewhere.

A :class:`KakuroPuzzle` raises :class:`~solver.puzzle.PuzzleError` with a message a person
understands for a structure no Kakuro can have (a white cell without a clue in one direction, a clue
that points at no white cell, a run of more than nine cells, bad entries). Clues that no digits can
make are reported by :func:`clue_problems`, as for KenKen.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations as _combinations

from ..puzzle import Cage, Cell, Grid, PuzzleError, cell_name

BLOCK, WHITE = "#", "."
DIGITS = range(1, 10)
MIN_SIDE, MAX_SIDE = 2, 40
MAX_RUN = 9
"""A run holds different digits 1..9, so it has at most nine cells."""
DIRECTIONS = ("across", "down")
STEP = {"across": (0, 1), "down": (1, 0)}


@dataclass(frozen=True)
class Clue:
    """A clue cell: the sum of the run below it (``down``) and right of it (``across``); None where
    that half of the cell is empty."""

    down: int | None = None
    across: int | None = None

    def __post_init__(self) -> None:
        for key in DIRECTIONS:
            value = getattr(self, key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise PuzzleError(f"a {key} clue must be a whole number ≥ 1, not {value!r}")

    def total(self, direction: str) -> int | None:
        """The clue for ``'across'`` or ``'down'`` (None when that half is empty)."""
        return self.across if direction == "across" else self.down

    @property
    def text(self) -> str:
        """The clue as typed in the text format: ``'17\\10'``, ``'17\\'``, ``'\\10'``."""
        return f"{'' if self.down is None else self.down}\\{'' if self.across is None else self.across}"


Square = "str | Clue"
Layout = tuple[tuple["str | Clue", ...], ...]


@dataclass(frozen=True)
class Run:
    """The white cells one clue adds up: ``direction`` ``'across'`` or ``'down'``, the ``clue_cell``
    it is printed in, the ``cells`` in order away from the clue, and the ``total`` they add up to."""

    direction: str
    clue_cell: Cell
    cells: tuple[Cell, ...]
    total: int

    @property
    def name(self) -> str:
        """How a person finds the run: ``'10 across at r2c3'`` (the clue cell)."""
        return f"{self.total} {self.direction} at {cell_name(self.clue_cell)}"

    @property
    def cage(self) -> Cage:
        """The run as a KenKen sum cage (its cells share a row or column, so their digits differ):
        the shared cage arithmetic (:mod:`solver.cage_tuples`) applies to it unchanged."""
        return Cage(self.cells, "+", self.total)


@dataclass(frozen=True)
class KakuroPuzzle:
    """An R×C Kakuro: a layout of blocks, white cells and clue cells, optionally with ``entries``.

    ``grid[r][c]`` is :data:`BLOCK`, :data:`WHITE` or a :class:`Clue` (a clue with neither half is
    kept as a block). ``runs`` are derived: across runs first in reading order of their clue cells,
    then down runs. Raises PuzzleError for a layout no Kakuro can have.
    """

    rows: int
    cols: int
    grid: Layout
    entries: Grid | None = None
    runs: tuple[Run, ...] = field(init=False, repr=False, compare=False, hash=False)
    runs_of: dict[Cell, tuple[int, int]] = field(init=False, repr=False, compare=False, hash=False)
    """White cell → (index of its across run, index of its down run) in ``runs``."""

    def __post_init__(self) -> None:
        for key in ("rows", "cols"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
                raise PuzzleError(f"'{key}' must be a whole number from {MIN_SIDE} to {MAX_SIDE}, not {value!r}")
        object.__setattr__(self, "grid", _checked_layout(self.grid, self.rows, self.cols))
        runs = _runs(self.grid)
        object.__setattr__(self, "runs", runs)
        runs_of: dict[Cell, list[int]] = {}
        for index, run in enumerate(runs):
            for cell in run.cells:
                runs_of.setdefault(cell, [-1, -1])[DIRECTIONS.index(run.direction)] = index
        object.__setattr__(self, "runs_of", {cell: (a, d) for cell, (a, d) in runs_of.items()})
        if not self.whites:
            raise PuzzleError("the puzzle has no white cells to fill")
        if self.entries is not None:
            object.__setattr__(self, "entries", self._checked_entries(self.entries))

    # -- what the puzzle is made of -------------------------------------------------------------
    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell in reading order."""
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    @property
    def whites(self) -> tuple[Cell, ...]:
        """The white cells (where digits go) in reading order."""
        return tuple(cell for cell in self.cells if self.grid[cell[0]][cell[1]] == WHITE)

    @property
    def cages(self) -> tuple[Run, ...]:
        """The runs, under the name the shared engine uses for groups with a clue."""
        return self.runs

    def is_white(self, cell: Cell) -> bool:
        """True when digits go in ``cell`` (False outside the grid)."""
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols and self.grid[r][c] == WHITE

    def runs_through(self, cell: Cell) -> tuple[Run, Run]:
        """The across and the down run of a white cell."""
        across, down = self.runs_of[cell]
        return self.runs[across], self.runs[down]

    def with_entries(self, entries: Grid | None) -> "KakuroPuzzle":
        """The same puzzle with other entries (None removes them)."""
        return KakuroPuzzle(self.rows, self.cols, self.grid, entries)

    def empty_grid(self) -> list[list[int | None]]:
        """A mutable R×C grid of None, to fill white cells into."""
        return [[None] * self.cols for _ in range(self.rows)]

    def warnings(self) -> list[str]:
        """Things that are legal but probably a mistake: white cells in several separate groups."""
        groups = white_groups(set(self.whites))
        if len(groups) > 1:
            return [f"the white cells form {len(groups)} separate groups (the puzzle is several puzzles)"]
        return []

    def _checked_entries(self, entries: Grid) -> Grid:
        """Entries as a tuple grid; raises PuzzleError unless R rows of C cells, digits 1..9 on white
        cells only."""
        rows = tuple(tuple(row) for row in entries)
        if len(rows) != self.rows or any(len(row) != self.cols for row in rows):
            raise PuzzleError(f"entries must be {self.rows} rows of {self.cols} cells")
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is None:
                    continue
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
                    raise PuzzleError(f"entry at {cell_name((r, c))} must be a digit 1..9 or empty, not {value!r}")
                if self.grid[r][c] != WHITE:
                    raise PuzzleError(f"entry {value} at {cell_name((r, c))}: that cell is not a white cell")
        return rows


def _checked_layout(grid, rows: int, cols: int) -> Layout:
    """The layout as tuples with clues as :class:`Clue` (an empty clue becomes a block); raises
    PuzzleError for a wrong shape or a square that is none of block, white, clue."""
    try:
        layout = tuple(tuple(row) for row in grid)
    except TypeError:
        raise PuzzleError(f"the grid must be {rows} rows of {cols} cells") from None
    if len(layout) != rows or any(len(row) != cols for row in layout):
        found = ", ".join(str(len(row)) for row in layout[:6])
        raise PuzzleError(f"the grid must be {rows} rows of {cols} cells (found {len(layout)} rows of {found})")
    out = []
    for r, row in enumerate(layout):
        line = []
        for c, square in enumerate(row):
            if isinstance(square, Clue):
                line.append(BLOCK if square.down is None and square.across is None else square)
            elif square in (BLOCK, WHITE):
                line.append(square)
            else:
                raise PuzzleError(f"cell {cell_name((r, c))} is {square!r}: use '#' (block), '.' (white) or a clue")
        out.append(tuple(line))
    return tuple(out)


def _runs(grid: Layout) -> tuple[Run, ...]:
    """Every run of the layout; raises PuzzleError for a white cell outside any run in a direction,
    a clue that points at no white cell, or a run longer than nine cells."""
    rows, cols = len(grid), len(grid[0])
    found: list[Run] = []
    for direction in DIRECTIONS:
        dr, dc = STEP[direction]
        for r in range(rows):
            for c in range(cols):
                square = grid[r][c]
                if square == WHITE:
                    _check_clue_before(grid, (r, c), direction)
                elif isinstance(square, Clue) and (total := square.total(direction)) is not None:
                    cells = []
                    cell = (r + dr, c + dc)
                    while cell[0] < rows and cell[1] < cols and grid[cell[0]][cell[1]] == WHITE:
                        cells.append(cell)
                        cell = (cell[0] + dr, cell[1] + dc)
                    if not cells:
                        raise PuzzleError(f"clue cell {cell_name((r, c))} gives {total} {direction} "
                                          f"but no white cell follows it")
                    if len(cells) > MAX_RUN:
                        raise PuzzleError(f"the {direction} run at {cell_name((r, c))} has {len(cells)} cells: "
                                          f"at most {MAX_RUN} different digits fit")
                    found.append(Run(direction, (r, c), tuple(cells), total))
    return tuple(found)


def _check_clue_before(grid: Layout, cell: Cell, direction: str) -> None:
    """Raise PuzzleError unless the white ``cell`` follows a white cell or a clue for ``direction``."""
    dr, dc = STEP[direction]
    r, c = cell[0] - dr, cell[1] - dc
    if r < 0 or c < 0:
        raise PuzzleError(f"white cell {cell_name(cell)} has no {direction} clue: it is on the grid's edge")
    square = grid[r][c]
    if square == WHITE or (isinstance(square, Clue) and square.total(direction) is not None):
        return
    what = "a block" if square == BLOCK else f"a clue cell without an {direction} clue" if direction == "across" \
        else f"a clue cell without a {direction} clue"
    raise PuzzleError(f"white cell {cell_name(cell)} has no {direction} clue: {cell_name((r, c))} before it is {what}")


def white_groups(whites: set[Cell]) -> list[set[Cell]]:
    """The orthogonally connected groups of a set of (white) cells, in reading order of their first cells."""
    groups, seen = [], set()
    for start in sorted(whites):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in whites and nb not in group:
                    group.add(nb)
                    todo.append(nb)
        seen |= group
        groups.append(group)
    return groups


# -- the arithmetic of runs ---------------------------------------------------------------------
def sum_range(k: int) -> tuple[int, int]:
    """The smallest and largest total of ``k`` different digits 1..9."""
    return k * (k + 1) // 2, k * (19 - k) // 2


@lru_cache(maxsize=None)
def combinations(k: int, total: int) -> tuple[frozenset[int], ...]:
    """Every set of ``k`` different digits 1..9 adding up to ``total`` (the combination table),
    smallest digits first; empty when there is none."""
    return tuple(frozenset(combo) for combo in _combinations(DIGITS, k) if sum(combo) == total)


def clue_problem(run: Run) -> str | None:
    """Why no digits can make this run's clue, in words; None when some combination does."""
    k = len(run.cells)
    low, high = sum_range(k)
    if low <= run.total <= high:
        return None
    return f"run {run.name}: {k} different digits 1..9 add up to {low}..{high}, not {run.total}"


def clue_problems(puzzle: KakuroPuzzle) -> list[str]:
    """Every impossible clue of the puzzle, in words (empty when all clues are possible)."""
    return [p for run in puzzle.runs if (p := clue_problem(run))]
