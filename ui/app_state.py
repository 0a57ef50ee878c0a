"""The puzzle a person is correcting in the app: a :class:`Draft`, and the corrections made to it.

A draft is what was read (or typed) *as the person is fixing it*: unlike a :class:`~solver.Puzzle`
it may be unfinished — a cage whose clue is not known yet (``''``) or a clue typed wrong (``'12y'``)
is kept exactly as typed, so nothing typed is ever lost; :meth:`Draft.problems` says what still
stops it from being a puzzle and :meth:`Draft.to_puzzle` builds the puzzle once there is none.

Every correction is a pure function ``Draft → Draft`` (the app keeps the old drafts for undo) and
raises :class:`CorrectionError`, with a message for people, when it makes no sense. Cells are
``(row, col)`` from 0; people see them as ``r1c1`` (:func:`solver.puzzle.cell_name`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from solver import Cage, Puzzle, PuzzleError, cell_name
from solver.formats import puzzles_in
from solver.formats.json_schema import GLYPH_OPS
from solver.formats.text import CLUE
from solver.puzzle import MAX_SIZE, MIN_SIZE, OP_GLYPHS, Cell, Grid


class CorrectionError(ValueError):
    """A correction that cannot be made; the message says why, for people."""


@dataclass(frozen=True)
class DraftCage:
    """A group of cells and its clue as typed (``'12×'``, ``'3'``; ``''`` while not known)."""

    cells: tuple[Cell, ...]
    clue: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))

    @property
    def anchor(self) -> Cell:
        """The first cell in reading order, where the clue is printed."""
        return self.cells[0]


@dataclass(frozen=True)
class Draft:
    """A puzzle being corrected. ``cages`` are sorted by anchor and never share a cell; a cell may be
    in no cage. ``entries`` are the digits written in the grid (None where empty)."""

    size: int
    cages: tuple[DraftCage, ...]
    entries: Grid | None = None
    calcudoku: bool | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cages", tuple(sorted(self.cages, key=lambda cage: cage.anchor)))

    # --- looking things up ------------------------------------------------------------------

    def cage_index(self, cell: Cell) -> int | None:
        """The index of the cage holding ``cell``, None when it is in no cage."""
        for index, cage in enumerate(self.cages):
            if cell in cage.cells:
                return index
        return None

    def cage_of(self) -> dict[Cell, int]:
        """Every caged cell → the index of its cage."""
        return {cell: index for index, cage in enumerate(self.cages) for cell in cage.cells}

    def clue_at(self) -> dict[Cell, str]:
        """Anchor → clue as typed, for every cage."""
        return {cage.anchor: cage.clue for cage in self.cages}

    # --- towards a puzzle ---------------------------------------------------------------------

    def problems(self) -> list[str]:
        """What still stops this draft from being a puzzle, in words (empty when none)."""
        notes = []
        for cage in self.cages:
            try:
                parse_clue(cage.clue, len(cage.cells))
            except CorrectionError as err:
                notes.append(f"cage at {cell_name(cage.anchor)}: {err}")
        return notes

    def to_puzzle(self) -> Puzzle:
        """The puzzle of this draft. Raises PuzzleError listing every problem (missing or bad clues,
        a layout the model refuses). Operators count as shown when any clue shows one."""
        if problems := self.problems():
            raise PuzzleError("; ".join(problems))
        clues = [parse_clue(cage.clue, len(cage.cells)) for cage in self.cages]
        shown = any(op not in "=?" for op, _ in clues)
        cages = tuple(Cage(cage.cells, op, target) for cage, (op, target) in zip(self.cages, clues))
        return Puzzle(self.size, cages, shown, self.entries, self.calcudoku)

    def to_text(self) -> str:
        """The draft in kensnap's text format (clues as typed; a missing clue is written ``?`` so the
        person sees where one is needed)."""
        labels = _labels(len(self.cages))
        cage_of = self.cage_of()
        width = max((len(label) for label in labels), default=1)
        lines = [" ".join((labels[cage_of[(r, c)]] if (r, c) in cage_of else ".").ljust(width)
                          for c in range(self.size)).rstrip() for r in range(self.size)]
        clues = [f"{label} {cage.clue.replace(' ', '') or '?'}" for label, cage in zip(labels, self.cages)]
        lines += ["  ".join(clues[i:i + 8]) for i in range(0, len(clues), 8)]
        if self.calcudoku is not None:
            lines.append(f"rules: {'calcudoku' if self.calcudoku else 'classic'}")
        if self.entries is not None:
            lines.append("entries:")
            lines += [" ".join("." if v is None else str(v) for v in row) for row in self.entries]
        return "\n".join(lines) + "\n"


def clue_text(cage: Cage) -> str:
    """How the app shows a puzzle's clue for editing: ``'12×'``, ``'3'`` (given, or hidden operator)."""
    return f"{cage.target}{OP_GLYPHS[cage.op]}"


def parse_clue(text: str, cells: int) -> tuple[str, int]:
    """``(op, target)`` of a clue as people type it (``12x``, ``×12``, ``3-``, ``2÷``, ``7``; spaces
    allowed). No operator means a given digit on one cell, a hidden operator on several.
    Raises CorrectionError saying what is wrong."""
    compact = "".join(text.split())
    if not compact:
        raise CorrectionError("no clue yet: type one, like 12x, 3-, 2/, 11+ or 4")
    match = CLUE.match(compact)
    if not match or (match["pre"] and match["post"]):
        raise CorrectionError(f"'{text.strip()}' is not a clue: write a number with an operator, like 12x, 3-, 2/, 11+")
    glyph = match["pre"] or match["post"]
    if glyph:
        op = GLYPH_OPS[glyph]
    else:
        op = "=" if cells == 1 else "?"
    if op == "=" and cells != 1:
        raise CorrectionError(f"'{text.strip()}': '=' marks a given digit and needs a cage of one cell")
    return op, int(match["num"])


def _labels(count: int) -> list[str]:
    """a..z, A..Z, then two-letter labels (as the text format writes them)."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    return (letters + [a + b for a in letters for b in letters])[:count]


def labels(draft: Draft) -> list[str]:
    """One short label per cage of ``draft`` (the letters of its text form)."""
    return _labels(len(draft.cages))


# --- making drafts ----------------------------------------------------------------------------

def draft_from_puzzle(puzzle: Puzzle) -> Draft:
    """The draft of a finished puzzle (its clues shown as :func:`clue_text`). A puzzle printed
    without operators keeps only numbers, which read back as hidden operators."""
    cages = tuple(DraftCage(cage.cells, clue_text(cage) if puzzle.operators_shown else str(cage.target))
                  for cage in puzzle.cages)
    return Draft(puzzle.size, cages, puzzle.entries, puzzle.calcudoku)


def draft_from_text(text: str) -> Draft:
    """The draft of a typed puzzle: kensnap's text format, the JSON schema or a Keen game ID (the
    first puzzle when the text holds several). Raises CorrectionError with the parser's message."""
    found = puzzles_in(text, "typed")
    label, item = found[0]
    if isinstance(item, PuzzleError):
        raise CorrectionError(str(item).removeprefix("typed: "))
    if not isinstance(item, Puzzle):
        raise CorrectionError("this is not a KenKen (the app reads KenKen puzzles; 'kensnap solve' takes the others)")
    return draft_from_puzzle(item)


def blank_draft(size: int) -> Draft:
    """Every cell a cage of its own without a clue: a start for typing a puzzle cell by cell."""
    _check_size(size)
    return Draft(size, tuple(DraftCage(((r, c),), "") for r in range(size) for c in range(size)))


# --- corrections ------------------------------------------------------------------------------

def set_clue(draft: Draft, cell: Cell, text: str) -> Draft:
    """The cage holding ``cell`` gets the clue ``text``, kept as typed (see :meth:`Draft.problems`)."""
    index = _cage_holding(draft, cell)
    cages = list(draft.cages)
    cages[index] = replace(cages[index], clue=text.strip())
    return replace(draft, cages=tuple(cages))


def merge(draft: Draft, cells: list[Cell]) -> Draft:
    """One cage from every cage that holds one of ``cells`` (and those cells not in a cage). It keeps
    the clue printed in its new anchor's cage, else the first clue in reading order."""
    _check_cells(draft, cells)
    chosen = {i for cell in cells if (i := draft.cage_index(cell)) is not None}
    loose = [cell for cell in cells if draft.cage_index(cell) is None]
    if len(chosen) + len(loose) < 2:
        raise CorrectionError("pick cells of at least two different cages to merge")
    joined = sorted({cell for i in chosen for cell in draft.cages[i].cells} | set(loose))
    old = [draft.cages[i] for i in sorted(chosen)]
    clue = next((cage.clue for cage in old if cage.anchor == joined[0]), "") or \
        next((cage.clue for cage in old if cage.clue), "")
    rest = [cage for i, cage in enumerate(draft.cages) if i not in chosen]
    return replace(draft, cages=tuple(rest + [DraftCage(tuple(joined), clue)]))


def split_off(draft: Draft, cells: list[Cell]) -> Draft:
    """``cells`` become a cage of their own; what is left of each cage they came from is cut into
    its connected parts. A part keeps its old cage's clue when it holds that cage's anchor (the clue
    is printed there); the other parts start without a clue."""
    _check_cells(draft, cells)
    chosen = set(cells)
    touched = sorted({i for cell in cells if (i := draft.cage_index(cell)) is not None})
    if len(touched) == 1 and set(draft.cages[touched[0]].cells) == chosen:
        raise CorrectionError("these cells already are a cage: pick fewer cells to split them off")
    old = [draft.cages[i] for i in touched]
    new = []
    for part in [chosen] + [set(cage.cells) - chosen for cage in old]:
        for piece in _connected_parts(part) if part is not chosen else [sorted(part)]:
            clue = next((cage.clue for cage in old if cage.anchor in piece), "")
            new.append(DraftCage(tuple(piece), clue))
    rest = [cage for i, cage in enumerate(draft.cages) if i not in touched]
    return replace(draft, cages=tuple(rest + new))


def resize(draft: Draft, size: int) -> Draft:
    """The grid made ``size``×``size``: cages cut to the cells that remain (each cut into its
    connected parts; the part with the old anchor keeps the clue), new cells each a cage of their own
    without a clue, entries kept where they still fit."""
    _check_size(size)
    if size == draft.size:
        return draft
    inside = lambda cell: cell[0] < size and cell[1] < size
    cages = []
    for cage in draft.cages:
        for piece in _connected_parts({cell for cell in cage.cells if inside(cell)}):
            cages.append(DraftCage(tuple(piece), cage.clue if cage.anchor in piece else ""))
    covered = {cell for cage in cages for cell in cage.cells}
    cages += [DraftCage(((r, c),), "") for r in range(size) for c in range(size)
              if (r, c) not in covered and (r >= draft.size or c >= draft.size)]
    entries = None
    if draft.entries is not None:
        old = draft.entries
        entries = tuple(tuple(old[r][c] if r < draft.size and c < draft.size and old[r][c] is not None
                              and old[r][c] <= size else None for c in range(size)) for r in range(size))
        entries = entries if any(v is not None for row in entries for v in row) else None
    return Draft(size, tuple(cages), entries, draft.calcudoku)


def set_entry(draft: Draft, cell: Cell, value: int | None) -> Draft:
    """The digit written in ``cell`` becomes ``value`` (None: the cell is empty)."""
    _check_cells(draft, [cell])
    if value is not None and not 1 <= value <= draft.size:
        raise CorrectionError(f"{cell_name(cell)}: a digit must be 1..{draft.size}")
    rows = [list(row) for row in (draft.entries or [[None] * draft.size for _ in range(draft.size)])]
    rows[cell[0]][cell[1]] = value
    return _with_entries(draft, rows)


def set_entries_text(draft: Draft, text: str) -> Draft:
    """All written digits from text: N rows of N digits (``.`` or ``0`` empty), separated by spaces
    or, up to 9×9, written together (``1.3.``). Raises CorrectionError naming the row."""
    n = draft.size
    rows = [line.split() for line in text.splitlines() if line.strip()]
    rows = [list(row[0]) if len(row) == 1 and n <= 9 else row for row in rows]
    if len(rows) != n:
        raise CorrectionError(f"write {n} rows of {n} digits ('.' for an empty cell), not {len(rows)} rows")
    grid = []
    for r, row in enumerate(rows):
        if len(row) != n:
            raise CorrectionError(f"row {r + 1} has {len(row)} cells, not {n}")
        values = []
        for token in row:
            if token in (".", "0", "_", "-"):
                values.append(None)
            elif token.isdigit() and 1 <= int(token) <= n:
                values.append(int(token))
            else:
                raise CorrectionError(f"row {r + 1}: '{token}' is not a digit 1..{n} or '.'")
        grid.append(values)
    return _with_entries(draft, grid)


def entries_text(draft: Draft) -> str:
    """The written digits as :func:`set_entries_text` reads them."""
    rows = draft.entries or [[None] * draft.size for _ in range(draft.size)]
    return "\n".join(" ".join("." if v is None else str(v) for v in row) for row in rows)


def set_rules(draft: Draft, calcudoku: bool | None) -> Draft:
    """Classic (False), Calcudoku (True) or decided from the clues (None)."""
    return replace(draft, calcudoku=calcudoku)


# --- helpers ----------------------------------------------------------------------------------

def _with_entries(draft: Draft, rows) -> Draft:
    grid = tuple(tuple(row) for row in rows)
    return replace(draft, entries=grid if any(v is not None for row in grid for v in row) else None)


def _cage_holding(draft: Draft, cell: Cell) -> int:
    _check_cells(draft, [cell])
    index = draft.cage_index(cell)
    if index is None:
        raise CorrectionError(f"{cell_name(cell)} is in no cage: merge it into one first")
    return index


def _check_cells(draft: Draft, cells: list[Cell]) -> None:
    if not cells:
        raise CorrectionError("pick at least one cell")
    for r, c in cells:
        if not (0 <= r < draft.size and 0 <= c < draft.size):
            raise CorrectionError(f"{cell_name((r, c))} is outside the {draft.size}×{draft.size} grid")


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise CorrectionError(f"the size must be {MIN_SIZE} to {MAX_SIZE}")


def _connected_parts(cells: set[Cell]) -> list[list[Cell]]:
    """The orthogonally connected parts of ``cells``, each sorted, in reading order of their anchors."""
    left, parts = set(cells), []
    while left:
        start = min(left)
        part, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left and nb not in part:
                    part.add(nb)
                    todo.append(nb)
        left -= part
        parts.append(sorted(part))
    return sorted(parts)
