"""What the app shows about a draft: the solver's verdict, what to highlight, the pictures, the words.

Pure functions of a :class:`~ui.app_state.Draft` (and the reading of its photo, when there was
one), so they are tested without a browser; all drawing is done by :mod:`ui.render`.

Highlights on the review picture: orange for what was read with low probability (a clue, a wall,
a written digit) and not corrected since, violet for a clue the solver changed, red for the cages
of a conflict, purple for the cells where two solutions differ, cyan for a hint's cells.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from solver import Puzzle, PuzzleError, Result, cell_name, solve
from solver.check import CheckResult
from solver.puzzle import Cell, Grid

from .app_state import Draft, clue_text
from .render import MARK_RIGHT, MARK_WRONG, PEN_BLUE, draw_board, draw_solution
from .text_view import conflict_text

DOUBT = (245, 150, 0)
CHANGED = (125, 60, 225)
CONFLICT = (225, 35, 35)
DIFFER = (175, 60, 205)
HINT = (0, 165, 205)
SOLVED_INK = (30, 30, 30)
LOW_CLUE = 0.9
"""A clue read with a lower probability than this is shown as doubtful."""
DOUBTFUL_WALL = (0.25, 0.75)
"""A wall probability inside this range is shown as doubtful."""
MAX_SIDE = 1600
"""Pictures of photos are shown and downloaded at most this many pixels wide or high."""


@dataclass(frozen=True)
class Analysis:
    """The solver's verdict on a draft. ``puzzle`` is None while ``problems`` say what is missing;
    ``result`` is the solve of the puzzle without its entries."""

    puzzle: Puzzle | None
    problems: tuple[str, ...] = ()
    result: Result | None = None
    warnings: tuple[str, ...] = ()


def analyse(draft: Draft) -> Analysis:
    """Build the draft's puzzle and solve it (ms for the usual sizes). Never raises."""
    try:
        puzzle = draft.to_puzzle()
        result = solve(puzzle.with_entries(None))
    except PuzzleError as err:
        return Analysis(None, tuple(part.strip() for part in str(err).split("; ")))
    return Analysis(puzzle, (), result, tuple(puzzle.warnings()))


@dataclass(frozen=True)
class Doubts:
    """What was read with low probability (or changed by the solver) and is still as read."""

    clues: dict[Cell, float] = field(default_factory=dict)
    """anchor → probability of the clue read there."""
    walls: dict[tuple[Cell, Cell], float] = field(default_factory=dict)
    """edge → probability that it is a wall."""
    entries: dict[Cell, float] = field(default_factory=dict)
    changed: dict[Cell, str] = field(default_factory=dict)
    """anchor → the solver's change in words."""


def doubts(draft: Draft, reading, confirmed: frozenset = frozenset()) -> Doubts:
    """The doubtful parts of ``reading`` (a :class:`vision.Reading`, or None) that the person has not
    corrected yet: a corrected clue, wall or digit is no longer doubtful, nor a clue the person
    confirmed as read (``(anchor, clue)`` in ``confirmed``)."""
    if reading is None or draft.size != reading.puzzle.size:
        return Doubts()
    read_clues = {cage.anchor: clue_text(cage) for cage in reading.puzzle.cages}
    if not reading.puzzle.operators_shown:
        read_clues = {cage.anchor: str(cage.target) for cage in reading.puzzle.cages}
    now = draft.clue_at()
    clues = {}
    for anchor, found in reading.clues.items():
        p = found.best[2] if found.best else 0.0
        if p < LOW_CLUE and anchor in now and now[anchor] == read_clues.get(anchor) \
                and (anchor, now[anchor]) not in confirmed:
            clues[anchor] = p
    read_cage, cage_of = reading.puzzle.cage_of, draft.cage_of()
    walls = {}
    for (a, b), p in reading.wall_probability.items():
        same_now = a in cage_of and b in cage_of and cage_of[a] == cage_of[b]
        same_read = a in read_cage and b in read_cage and read_cage[a] == read_cage[b]
        if DOUBTFUL_WALL[0] < p < DOUBTFUL_WALL[1] and same_now == same_read:
            walls[(a, b)] = p
    read_entries = reading.puzzle.entries
    entries = {cell: reading.entry_confidence.get(cell, 0.0) for cell in reading.doubtful_entries()
               if read_entries is not None and draft.entries is not None
               and draft.entries[cell[0]][cell[1]] == read_entries[cell[0]][cell[1]]}
    changed = {}
    for change in reading.changes:
        if now.get(change.cell) == read_clues.get(change.cell):
            changed[change.cell] = change.describe()
    return Doubts(clues, walls, entries, changed)


def review_image(draft: Draft, reading, analysis: Analysis, found: Doubts, *,
                 hint_cells: tuple[Cell, ...] = (), cell_px: int = 84) -> np.ndarray:
    """The board to review: the draft's cages and clues drawn over the square-on photo (when the
    draft still has the photo's size), or on white, with the highlights of the module doc."""
    fills: dict[Cell, tuple[int, int, int]] = {}
    result = analysis.result
    if result is not None and result.status == "none" and result.conflict:
        for index in result.conflict.cages:
            fills.update({cell: CONFLICT for cell in analysis.puzzle.cages[index].cells})
    if result is not None and result.status == "multiple":
        fills.update({cell: DIFFER for cell in result.differ})
    fills.update({cell: DOUBT for cell in found.clues})
    fills.update({cell: HINT for cell in hint_cells})
    frames = {cell: CHANGED for cell in found.changed} | {cell: DOUBT for cell in found.clues}
    written = {}
    if draft.entries is not None:
        written = {(r, c): (v, DOUBT if (r, c) in found.entries else PEN_BLUE)
                   for r, row in enumerate(draft.entries) for c, v in enumerate(row) if v is not None}
    clues = {anchor: text or "?" for anchor, text in draft.clue_at().items()}
    kwargs = dict(cell_px=cell_px, fills=fills, edge_colors={e: DOUBT for e in found.walls}, clue_colors=frames)
    if on_photo(draft, reading):  # the written digits are in the photo: what was read goes in a corner
        grid = reading.grid
        notes = {cell: (str(value), color) for cell, (value, color) in written.items()}
        return draw_board(draft.size, draft.cage_of(), clues, background=grid.rectified,
                          lines=(grid.lines_x, grid.lines_y), notes=notes, **kwargs)
    return draw_board(draft.size, draft.cage_of(), clues, digits=written, **kwargs)


def on_photo(draft: Draft, reading) -> bool:
    """True when the review is drawn over the photo (a reading whose size the draft still has)."""
    return reading is not None and draft.size == reading.puzzle.size


def clean_image(draft: Draft, digits: Grid | None, *, colors: dict[Cell, tuple[int, int, int]] | None = None,
                fills: dict[Cell, tuple[int, int, int]] | None = None, cell_px: int = 72) -> np.ndarray:
    """The puzzle drawn plainly with ``digits`` written in (entries in pen blue, others dark, or
    ``colors[cell]``)."""
    written = {}
    for r in range(draft.size):
        for c in range(draft.size):
            value = digits[r][c] if digits is not None else None
            if value is None:
                continue
            entry = draft.entries is not None and draft.entries[r][c] is not None
            color = (colors or {}).get((r, c), PEN_BLUE if entry else SOLVED_INK)
            written[(r, c)] = (value, color)
    return draw_board(draft.size, draft.cage_of(), draft.clue_at(), digits=written, fills=fills, cell_px=cell_px)


def overlay_image(photo: np.ndarray, reading, draft: Draft, solution: Grid, scale: float = 1.0) -> np.ndarray:
    """The solution written into the photo's cells, in perspective: digits of empty cells in pen
    blue, the right digit in red where a written one is wrong, nothing over a right written digit.
    ``scale`` is the size of ``photo`` relative to the image that was read (its corners are scaled)."""
    n = draft.size
    entries = draft.entries
    digits, marks = [[None] * n for _ in range(n)], [[None] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            written = entries[r][c] if entries is not None else None
            if written is None:
                digits[r][c] = solution[r][c]
            elif written != solution[r][c]:
                digits[r][c], marks[r][c] = solution[r][c], MARK_WRONG
    small = fit(photo)  # drawn at the size shown: a 12 MP photo would take seconds on every rerun
    scale *= small.shape[1] / photo.shape[1]
    return draw_solution(small, np.asarray(reading.corners, dtype=np.float64) * scale, n, digits, marks)


def check_colors(entries: Grid, result: CheckResult) -> dict[Cell, tuple[int, int, int]]:
    """Green for every written digit some solution has, red for the wrong ones."""
    wrong = set(result.wrong)
    return {(r, c): (MARK_WRONG if (r, c) in wrong else MARK_RIGHT)
            for r, row in enumerate(entries) for c, v in enumerate(row) if v is not None}


def check_image(draft: Draft, entries: Grid, result: CheckResult, revealed: dict[Cell, int]) -> np.ndarray:
    """The written digits marked green (right) or red (wrong), and the cells revealed on request
    (dark on cyan, over a wrong digit too); nothing else of the solution."""
    shown = [list(row) for row in entries]
    colors = check_colors(entries, result)
    fills = {cell: tuple(int(v) for v in (np.array(color) * 0.4 + 153)) for cell, color in colors.items()}
    for (r, c), value in revealed.items():
        shown[r][c] = value
        colors[(r, c)], fills[(r, c)] = SOLVED_INK, HINT
    return clean_image(draft, tuple(map(tuple, shown)), colors=colors, fills=fills)


def status_message(analysis: Analysis, reading, solving: bool = True) -> tuple[str, str]:
    """``(kind, text)`` for the solver's verdict; kind is 'success', 'warning' or 'error'. Not
    ``solving`` (checking or hinting), a unique solution is announced without saying "solved"."""
    if analysis.puzzle is None:
        return "error", "Not a complete puzzle yet: " + "; ".join(analysis.problems)
    result = analysis.result
    if result.status == "unique":
        text = (f"Solved: the solution is unique ({result.time_ms:.0f} ms)." if solving else
                "The puzzle has exactly one solution: kensnap can check your digits and give hints.")
        if reading is not None and not reading.confident:
            text += (" The photo was not read with full confidence: compare the highlighted clues with "
                     "the puzzle before you trust it.")
        return "success", text
    if result.status == "multiple":
        where = ", ".join(cell_name(cell) for cell in result.differ[:12])
        more = "…" if len(result.differ) > 12 else ""
        return "warning", (f"Several solutions: two of them differ in {len(result.differ)} cells ({where}{more}). "
                           "A real puzzle has one, so a clue or a cage wall is probably misread near them.")
    names = conflict_text(result.conflict)
    return "error", (f"No solution: these cannot all hold together — {names}. One of them is probably misread: "
                     "compare them with the puzzle and fix it below.")


def fit(image: np.ndarray, max_side: int = MAX_SIDE) -> np.ndarray:
    """``image`` shrunk to at most ``max_side`` pixels on its long side (unchanged when smaller)."""
    height, width = image.shape[:2]
    scale = max_side / max(height, width)
    if scale >= 1:
        return image
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return np.asarray(Image.fromarray(image).resize(size, Image.LANCZOS))


def png_bytes(image: np.ndarray) -> bytes:
    """An RGB array as PNG file bytes (for downloads)."""
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return buffer.getvalue()
