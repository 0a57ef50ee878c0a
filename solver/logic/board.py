"""Candidates of a half-solved KenKen as bitmasks, and the fixed geometry they live on.

Words: a *cell index* ``i = r * N + c`` stands for the cell ``(r, c)``; a *mask* holds bit ``d`` for each
digit ``d`` still possible (bit 0 is unused); a *line* is a row (``0..N-1``) or a column
(``N..2N-1``); a cage *tuple* gives one digit per cage cell in the cage's cell order.

:class:`Geometry` is built once per puzzle (lines, peers, the cage tuple tables from
:func:`solver.cage_tuples.allowed_tuples`) and caches the tuples that survive a set of candidate masks,
so techniques can ask for them over and over cheaply. :class:`Board` is the mutable working state: one
mask per cell. Techniques read a board and return steps; only :meth:`Board.remove` changes it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from ..cage_tuples import TooManyTuples, allowed_tuples, conflict_pattern, satisfies
from ..puzzle import Cage, Cell, Grid, Puzzle
from .steps import Step, placed_text, removal_text

TABLE_LIMIT = 20000
"""Tuples listed once per cage; a cage with more is enumerated under its current candidates."""
LAZY_LIMIT = 60000
"""Most candidate combinations tried for a cage whose table was too big; past it the cage is skipped."""


@lru_cache(maxsize=None)
def digits_of(mask: int) -> tuple[int, ...]:
    """The digits whose bits are set, ascending."""
    return tuple(d for d in range(1, mask.bit_length()) if mask >> d & 1)


def mask_of(digits) -> int:
    """The mask with a bit for every digit given."""
    mask = 0
    for d in digits:
        mask |= 1 << d
    return mask


@dataclass(frozen=True)
class CageInfo:
    """A cage as techniques need it. ``table`` is None when the cage has too many tuples to list."""

    index: int
    cage: Cage
    cells: tuple[int, ...]
    table: tuple[tuple[int, ...], ...] | None
    pattern: tuple[tuple[int, int], ...]
    """Pairs of cage positions on a common row or column (their digits differ)."""
    lines: dict[int, tuple[int, ...]]
    """Line → the cage positions on it."""


@dataclass(eq=False)
class Geometry:
    """Everything about a puzzle that never changes while solving it. Build with :func:`geometry`."""

    puzzle: Puzzle
    n: int
    full: int
    lines: tuple[tuple[int, ...], ...]
    line_of: tuple[tuple[int, int], ...]
    peers: tuple[tuple[int, ...], ...]
    cages: tuple[CageInfo, ...]
    cage_of: tuple[int, ...]
    """Cell index → cage index, -1 for a cell in no cage."""
    memo: dict = field(default_factory=dict, repr=False)
    """Results of techniques keyed by the candidate masks they read (cleared when it grows large)."""
    _tuple_cache: dict = field(default_factory=dict, repr=False)
    _pairs: list | None = field(default=None, repr=False)

    def cell(self, i: int) -> Cell:
        """The (row, col) of a cell index."""
        return divmod(i, self.n)

    def index(self, cell: Cell) -> int:
        """The cell index of (row, col)."""
        return cell[0] * self.n + cell[1]

    def line_name(self, line: int) -> str:
        """'row 2' or 'column 5' (1-based, as people count)."""
        return f"row {line + 1}" if line < self.n else f"column {line - self.n + 1}"

    def tuples(self, k: int, masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...] | None:
        """The tuples of cage ``k`` allowed by the cells' candidate ``masks``; None when there are too
        many to enumerate (the cage is then left to other techniques)."""
        key = (k, masks)
        found = self._tuple_cache.get(key)
        if found is None and key not in self._tuple_cache:
            info = self.cages[k]
            if info.table is not None:
                found = tuple(t for t in info.table if all(masks[j] >> d & 1 for j, d in enumerate(t)))
            else:
                found = _enumerate(info, masks, self.puzzle.long_minus_divide)
            if len(self._tuple_cache) > 200000:
                self._tuple_cache.clear()
            self._tuple_cache[key] = found
        return found


    def cage_pairs(self) -> list[tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...]]]:
        """Every pair of cages ``(a, b, conflicts, lines)`` with a < b that share a row or column:
        ``conflicts`` are position pairs (in a, in b) on a common line, ``lines`` the shared lines."""
        if self._pairs is None:
            pairs = []
            for a in self.cages:
                for b in self.cages[a.index + 1:]:
                    lines = tuple(sorted(set(a.lines) & set(b.lines)))
                    if not lines:
                        continue
                    conflicts = tuple((p, q) for p, i in enumerate(a.cells) for q, j in enumerate(b.cells)
                                      if set(self.line_of[i]) & set(self.line_of[j]))
                    pairs.append((a.index, b.index, conflicts, lines))
            self._pairs = pairs
        return self._pairs

    def trim(self) -> None:
        """Forget memoised results when they grow large."""
        if len(self.memo) > 100000:
            self.memo.clear()


def _enumerate(info: CageInfo, masks: tuple[int, ...], lmd: bool) -> tuple[tuple[int, ...], ...] | None:
    """Tuples of a cage too big for a table, from its current candidates; None past LAZY_LIMIT."""
    options = [digits_of(m) for m in masks]
    count = 1
    for o in options:
        count *= len(o)
    if count > LAZY_LIMIT:
        return None
    cage = info.cage
    return tuple(t for t in product(*options)
                 if all(t[i] != t[j] for i, j in info.pattern) and satisfies(cage.op, cage.target, t, lmd))


_GEOMETRY_CACHE: dict[int, tuple[Puzzle, Geometry]] = {}


def geometry(puzzle: Puzzle) -> Geometry:
    """The geometry of a puzzle (cached for the last few puzzles, keyed by identity and equality)."""
    hit = _GEOMETRY_CACHE.get(id(puzzle))
    if hit is not None and hit[0] == puzzle:
        return hit[1]
    n = puzzle.size
    lines = tuple(tuple(r * n + c for c in range(n)) for r in range(n)) + \
        tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    line_of = tuple((i // n, n + i % n) for i in range(n * n))
    peers = tuple(tuple(sorted((set(lines[line_of[i][0]]) | set(lines[line_of[i][1]])) - {i})) for i in range(n * n))
    cage_of = [-1] * (n * n)
    infos = []
    for k, cage in enumerate(puzzle.cages):
        cells = tuple(r * n + c for r, c in cage.cells)
        for i in cells:
            cage_of[i] = k
        try:
            table = allowed_tuples(cage, n, puzzle.long_minus_divide, limit=TABLE_LIMIT)
        except TooManyTuples:
            table = None
        by_line: dict[int, list[int]] = {}
        for pos, i in enumerate(cells):
            for line in line_of[i]:
                by_line.setdefault(line, []).append(pos)
        infos.append(CageInfo(k, cage, cells, table, conflict_pattern(cage.cells),
                              {line: tuple(p) for line, p in by_line.items()}))
    geo = Geometry(puzzle, n, (1 << (n + 1)) - 2, lines, line_of, peers, tuple(infos), tuple(cage_of))
    if len(_GEOMETRY_CACHE) > 8:
        _GEOMETRY_CACHE.clear()
    _GEOMETRY_CACHE[id(puzzle)] = (puzzle, geo)
    return geo


class Board:
    """One candidate mask per cell of a puzzle; the only mutable object of the logic solver."""

    def __init__(self, geo: Geometry, masks: list[int]):
        self.geo = geo
        self.n = geo.n
        self.masks = list(masks)

    @classmethod
    def start(cls, puzzle: Puzzle, entries: Grid | None = None, pencil=None) -> "Board":
        """Every digit everywhere, narrowed to ``entries`` (a digit: only it) and ``pencil`` marks
        (a non-empty set: only those digits); nothing else is deduced."""
        geo = geometry(puzzle)
        n = geo.n
        masks = [geo.full] * (n * n)
        for r in range(n):
            for c in range(n):
                if entries is not None and entries[r][c] is not None:
                    masks[r * n + c] = 1 << entries[r][c]
                elif pencil is not None and pencil[r][c]:
                    masks[r * n + c] = mask_of(d for d in pencil[r][c] if 1 <= d <= n) or geo.full
        return cls(geo, masks)

    def copy(self) -> "Board":
        """An independent board with the same candidates."""
        return Board(self.geo, self.masks)

    def remove(self, removed) -> None:
        """Cross out ``(cell index, digit)`` pairs."""
        for i, d in removed:
            self.masks[i] &= ~(1 << d)

    def cage_masks(self, k: int) -> tuple[int, ...]:
        """The masks of cage ``k``'s cells, in cage order."""
        return tuple(self.masks[i] for i in self.geo.cages[k].cells)

    def cage_tuples(self, k: int):
        """Tuples of cage ``k`` that fit the current candidates (None: too many to list)."""
        return self.geo.tuples(k, self.cage_masks(k))

    def is_single(self, i: int) -> bool:
        """True when cell ``i`` has exactly one candidate."""
        m = self.masks[i]
        return m != 0 and m & (m - 1) == 0

    def value(self, i: int) -> int | None:
        """The digit of a cell with one candidate, else None."""
        return self.masks[i].bit_length() - 1 if self.is_single(i) else None

    def solved(self) -> bool:
        """True when every cell has exactly one candidate."""
        return all(m and m & (m - 1) == 0 for m in self.masks)

    def grid(self) -> Grid:
        """The digits of single-candidate cells (None elsewhere), as a grid."""
        n = self.n
        return tuple(tuple(self.value(r * n + c) for c in range(n)) for r in range(n))

    def candidates(self) -> tuple[tuple[frozenset[int], ...], ...]:
        """The candidates as a grid of digit sets (for drawing and for callers)."""
        n = self.n
        return tuple(tuple(frozenset(digits_of(self.masks[r * n + c])) for c in range(n)) for r in range(n))

    def consistent_grid(self) -> bool:
        """For a solved board: every row and column holds each digit once and every cage's clue holds."""
        geo = self.geo
        if any(mask_of(self.value(i) for i in line) != geo.full for line in geo.lines):
            return False
        return all(satisfies(info.cage.op, info.cage.target, tuple(self.value(i) for i in info.cells),
                             geo.puzzle.long_minus_divide) for info in geo.cages)

    # -- building steps -----------------------------------------------------------------------
    def step(self, technique: str, reason: str, reads, cages, focus: str, removed,
             say_removed: bool = True, say_placed: bool = True) -> Step:
        """A :class:`Step` crossing out ``removed`` (cell index, digit) pairs, read from the cell
        indexes ``reads``; its text is ``reason``, then (``say_removed``) what is crossed out, then
        (``say_placed``) which cells that leaves with one digit."""
        after: dict[int, int] = {}
        for i, d in removed:
            after[i] = after.get(i, self.masks[i]) & ~(1 << d)
        placed = sorted((self.geo.cell(i), m.bit_length() - 1) for i, m in after.items() if m and m & (m - 1) == 0)
        cells_removed = sorted((self.geo.cell(i), d) for i, d in set(removed))
        text = reason
        if say_removed:
            text += ": " + removal_text(cells_removed)
        text += (placed_text(placed) if say_placed else "") + "."
        return Step(technique, text, tuple(self.geo.cell(i) for i in sorted(set(reads))), tuple(sorted(set(cages))),
                    focus, tuple(cells_removed), tuple(placed))
