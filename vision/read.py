"""Read a KenKen from a photo or screenshot: the recipe that chains the vision stages.

    load (image_io) → find the grid (grid), turned upright when its labels are in another corner
    (orientation) → a pen lying across the grid (pen: what it covers is not read as walls or labels,
    and the reading is not confident) → cage walls (cages) → which cells hold a clue label
    (clues.clue_presence) → walls settled by "one clue per cage, in its first cell" (cages.settle)
    → clue labels (clues.read_clues) → written digits (digits, when available) → the solver in the
    loop (reconcile) → :class:`Reading`

Every stage is timed. Failures are typed: :class:`~vision.errors.VisionError` subclasses with a
message for people (not an image, no puzzle found, tesseract missing).
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np

from solver import Puzzle
from solver.puzzle import Grid, cell_name

from . import cages as cage_stage
from . import clues as clue_stage
from .helper import two_core_map
from .image_io import load_image
from .model import Cell, ClueReading, Edge, GridFind
from .grid import grid_from_corners, side_lengths
from .polarity import find_grid_any_polarity
from .clue_candidates import WIDE_EXTRA, WIDE_MIN_RATIO, label_scorer, widened
from .errors import NoPuzzleFound
from .orientation import CORNERS, in_photo_as_loaded, quarter_turns, turned_corners, turns_seen
from .pen import PenCover, doubted, find_pen, hidden_digits, hidden_labels, pen_note, without_pen
from .reconcile import Change, reconcile


@dataclass(frozen=True, eq=False)
class Reading:
    """What kensnap read from one image and how sure it is.

    ``puzzle`` is the settled puzzle (with ``entries`` when written digits were read); ``status`` and
    ``solution`` are the solver's verdict on it; ``confident`` is True only for exactly one solution
    with no change and every clue and wall read with high probability (and, in a puzzle printed
    without operators, labels at least NO_OPS_SURE_PX tall), and no pen lying across the grid
    (:mod:`vision.pen`). ``changes`` lists what the
    solver changed in what was read. Confidences are probabilities 0..1.
    """

    puzzle: Puzzle
    status: str
    solution: Grid | None
    confident: bool
    changes: tuple[Change, ...]
    clues: dict[Cell, ClueReading]
    wall_probability: dict[Edge, float]
    entry_alternatives: dict[Cell, tuple[tuple[int, float], ...]]
    """Each written digit's alternatives ``(digit, probability)``, best first (its first is the entry)."""
    grid: GridFind
    seconds: dict[str, float]
    notes: tuple[str, ...] = ()
    debug: dict[str, np.ndarray] = field(default_factory=dict)
    unread_cages: tuple[tuple[Cell, ...], ...] = ()
    """Cages whose walls were found but whose clue could not be read: left out of ``puzzle`` (their
    cells are only bound by rows and columns there), listed here so nobody mistakes them for absent."""
    hidden_entries: tuple[Cell, ...] = ()
    """Cells whose written digit, if any, could not be seen (a pen lies over them, :mod:`vision.pen`):
    no entry is read there, so nobody takes them for empty, in reading order."""

    @property
    def entry_confidence(self) -> dict[Cell, float]:
        """Each written digit's probability (its first alternative's)."""
        return {cell: alternatives[0][1] for cell, alternatives in self.entry_alternatives.items()}

    def doubtful_entries(self) -> tuple[Cell, ...]:
        """The written digits a person should look at again, in reading order: those read with a
        probability under SURE_ENTRY, and those at odds with the puzzle's one solution while the
        reader gave the solution's digit at least MISREAD_SHARE (a misread there is about as likely
        as a wrong digit). Says nothing of which digit is right."""
        doubtful = set(unsure_entries(self.entry_confidence))
        if self.status == "unique" and self.solution is not None:
            for cell, alternatives in self.entry_alternatives.items():
                right = self.solution[cell[0]][cell[1]]
                if alternatives[0][0] != right and dict(alternatives).get(right, 0.0) >= MISREAD_SHARE:
                    doubtful.add(cell)
        return tuple(sorted(doubtful))

    @property
    def corners(self) -> np.ndarray:
        """The grid's outer corners in the original image: the puzzle's top left, top right, bottom
        right and bottom left (for a puzzle that lies turned in the photo, :mod:`vision.orientation`,
        its top left is another corner of the outline there)."""
        return self.grid.corners

    @property
    def time_ms(self) -> float:
        return round(1000 * sum(self.seconds.values()), 1)


def read(image: str | Path | bytes | np.ndarray, *, ocr_engine=None, debug: bool = False,
         grid: GridFind | None = None, seconds: dict[str, float] | None = None) -> Reading:
    """Read the puzzle in ``image`` (a path, raw bytes, or an RGB array); ``grid`` is what
    :func:`vision.polarity.find_grid_any_polarity` found in it, when the caller already asked (it
    is not asked again; a light-on-dark page is read in negative, see :mod:`vision.polarity`), and
    ``seconds`` the times of what the caller did before (counted in the reading's). A photo whose
    labels show that it lies turned is read turned upright (:mod:`vision.orientation`); one whose
    labels only hint at it (:func:`vision.orientation.turns_seen`) is read both ways unless the
    first reading is confident, and the surer reading kept (:func:`_surer`).

    Raises ImageError for a file that is not a usable image, NoPuzzleFound when no grid is found,
    TesseractMissing when OCR is needed and not installed.
    """
    seconds = dict(seconds or {})
    clock = lambda stage: timed_stage(seconds, stage)
    with clock("load"):
        pixels = image if isinstance(image, np.ndarray) else load_image(image)
    if grid is None:
        with clock("grid"):
            grid = find_grid_any_polarity(pixels)[1]
    with clock("orientation"):
        turns, likely = turns_seen(grid)
    found, turns = _upright(grid, turns, pixels, clock)
    reading = _read_found(found, turns, pixels, seconds, ocr_engine, debug)
    if likely and not reading.confident:  # a label's corner seen in one cell only: the solver settles it
        found, turns = _upright(grid, likely, pixels, clock)
        if turns:
            other = _read_found(found, turns, pixels, seconds, ocr_engine, debug)
            if _surer(other, reading):
                return replace(other, notes=other.notes + (LIKELY_TURN_NOTE,))
    return reading


LIKELY_TURN_NOTE = ("only one cell showed where the clue labels are, so the photo was read both as it lies "
                    "and turned: the turned reading was the surer")
"""How a reading's notes say it was taken turned on a weak sign (:func:`vision.orientation.turns_seen`)."""


def _surer(one: Reading, other: Reading) -> bool:
    """Whether reading ``one`` is surer than ``other``: confident first, then exactly one solution,
    then the smaller share of its clues the solver changed or left unread."""
    def rank(reading: Reading) -> tuple[bool, bool, float]:
        unread = len(reading.unread_cages)
        doubt = (len(reading.changes) + unread) / max(1, len(reading.puzzle.cages) + unread)
        return reading.confident, reading.status == "unique", -doubt
    return rank(one) > rank(other)


def _read_found(grid: GridFind, turns: int, loaded: np.ndarray, seconds: dict[str, float], ocr_engine,
                debug: bool) -> Reading:
    """The reading of ``grid`` (in the photo as ``loaded`` turned ``turns`` quarter turns,
    :func:`_upright`), its stages timed into ``seconds``."""
    clock = lambda stage: timed_stage(seconds, stage)
    with clock("cages"):
        tones = cage_stage.grid_tones(grid)
        pen = find_pen(grid)
        walls = cage_stage.find_walls(grid, tones, None if pen is None else pen.mask)
        presence = clue_stage.clue_presence(grid)
        hidden = () if pen is None else hidden_labels(grid, pen)
        walls = cage_stage.settle(grid, walls, presence, hidden)
        cells_of_cages = cage_stage.cages_from_walls(grid.size, walls)
    with clock("clues"):
        anchors = [cells[0] for cells in cells_of_cages]
        readings = clue_stage.read_clues(grid, anchors, engine=ocr_engine,
                                         lone=[cells[0] for cells in cells_of_cages if len(cells) == 1])
    covered = () if pen is None else hidden_digits(grid, pen)
    entries, entry_alts = _digits(grid, clock, pen, covered)
    with clock("solve"):
        shown = any(r.alternatives and r.alternatives[0][0] not in "?=" for r in readings.values())
        # Each cage's clues scored against its label, half the cages by the helper when it runs.
        cages_read = [(readings[cells[0]], cells, grid.size, shown) for cells in cells_of_cages]
        alternatives = doubted(two_core_map(widened, cages_read), cells_of_cages, hidden)
        wider = lambda: doubted(two_core_map(partial(widened, extra=WIDE_EXTRA, min_ratio=WIDE_MIN_RATIO), cages_read),
                                cells_of_cages, hidden)
        doubt = min((min(p, 1 - p) for p in walls.wall_probability.values()), default=0.0)
        settled = reconcile(grid.size, cells_of_cages, alternatives, operators_shown=shown,
                            entries=entries, min_wall_probability=1 - doubt, wider=wider,
                            score=label_scorer(readings, cells_of_cages))
    extra = {"rectified": grid.rectified} if debug else {}
    unread = tuple(cells for cells in cells_of_cages if min(cells) not in settled.puzzle.cage_of)
    confident = settled.confident and not unread and pen is None
    # The labels' height is measured (the labels found again) only where it can change the outcome.
    label_px = None if confident and settled.puzzle.operators_shown else clue_stage.labels_px(grid, anchors)
    if confident and label_px is not None and label_px < NO_OPS_SURE_PX:
        confident = False  # printed without operators, labels too small: see NO_OPS_SURE_PX
    washed = washed_out(grid, readings, anchors, tones[1]) if confident else ()
    confident = confident and not washed
    advice = () if confident else retake_advice(label_px)
    advice += (f"a glare washes out part of the grid: the clue label{'s' if len(washed) > 1 else ''} at "
               f"{', '.join(map(cell_name, washed))} {'were' if len(washed) > 1 else 'was'} read unsure, "
               "so the solution is not certain",) if washed else ()
    turned = (f"the puzzle lies turned in the photo (its clue labels at its cells' {CORNERS[turns]}): "
              "it was read turned upright",) if turns else ()
    seen = _as_loaded(grid, turns, loaded)
    advice += edge_advice(seen.corners, seen.size, seen.size, loaded.shape) if settled.status == "none" else ()
    advice += () if pen is None else (pen_note(grid, pen),)
    return Reading(settled.puzzle, settled.status, settled.solution, confident,
                   settled.changes, readings, dict(walls.wall_probability), entry_alts,
                   seen, seconds, turned + tuple(grid.notes) + settled.notes + advice, extra, unread, covered)


def _upright(grid: GridFind, turns: int, pixels: np.ndarray, clock) -> tuple[GridFind, int]:
    """The grid in the photo ``pixels`` turned ``turns`` quarter turns (``np.rot90``'s ``k``: so that
    the clue labels are at the cells' top left, :func:`vision.orientation.turns_seen`), and the
    turns taken. The grid is found again in the turned photo (the finder is surer of an upright
    grid's outline: seed 7474 turned, hard 64 → 67 of 99 exact against taking ``grid``'s outline
    turned); where it is not found again, or found with its corners named from another one (a grid
    lying near 45°, whose labels are then still not at the top left), ``grid``'s own outline is
    taken turned (:func:`vision.orientation.turned_corners`). As it is (0 turns) when ``turns`` is
    0, or when the labels are still not at the top left."""
    if not turns:
        return grid, 0
    turned = np.ascontiguousarray(np.rot90(pixels, turns))
    with clock("grid"):
        try:
            again = find_grid_any_polarity(turned)[1]
        except NoPuzzleFound:
            again = None
    if again is not None and again.size == grid.size and not quarter_turns(again):
        return again, turns
    with clock("orientation"):
        source = turned if grid.source is None else np.ascontiguousarray(np.rot90(grid.source, turns))
        again = grid_from_corners(source, turned_corners(grid.corners, turns, pixels.shape), grid.size,
                                  grid.confidence, grid.notes)
    if quarter_turns(again):
        return grid, 0
    return replace(again, flattened=grid.flattened), turns


def _as_loaded(grid: GridFind, turns: int, loaded: np.ndarray) -> GridFind:
    """``grid``, found in the photo turned ``turns`` quarter turns (:func:`_upright`), with its corners
    and homography given back in the photo as loaded (``loaded``), its source that photo."""
    if not turns:
        return grid
    corners, homography = in_photo_as_loaded(grid.corners, grid.homography, turns, loaded.shape)
    return replace(grid, corners=corners, homography=homography, source=loaded if grid.source is not None else None)


WASHED_SURE = 0.7
"""A clue label in a cell under a glare (:func:`vision.cages.glared_cells`) read with a lower
probability than this makes the reading not confident (:func:`washed_out`). Fifty-sixth round, 80
generated photos under a lamp's glare (seeds 8383 and 7474, clean and hand-held): of the confident
readings, one was wrong ("3−" under the glare read "1−" at 0.68, and the puzzle so read had one
solution, another one); at 0.7 it and two right ones (0.59, 0.63) are not confident, the next
right one read its label at 0.77. Of the 1,710 photos of seven generated sets as made, none changes."""


def washed_out(grid: GridFind, readings: dict[Cell, ClueReading], anchors: list[Cell],
               paper: np.ndarray | None = None) -> tuple[Cell, ...]:
    """The cages' first cells (``anchors``) under a glare whose label was read with a probability
    under WASHED_SURE, in reading order (``paper``: :func:`vision.cages.grid_tones`' when the caller
    has it)."""
    glared = cage_stage.glared_cells(grid, paper)
    return tuple(sorted(cell for cell in anchors if cell in glared and readings.get(cell) is not None
                        and readings[cell].best and readings[cell].best[2] < WASHED_SURE))


SURE_ENTRY = 0.75
"""A written digit read with a lower probability than this is doubtful (:meth:`Reading.doubtful_entries`;
the app shows it so, `check PHOTO` lists it as unsure). On the five sets' half-filled photos, it
names 7 of 9 digits read wrong on hand-held photos and 20 of 33 on hard ones, and 13 of 1,943 and
10 of 1,696 digits read right. With MISREAD_SHARE, 24 of the 33 hard ones."""


def unsure_entries(confidence: dict[Cell, float]) -> tuple[Cell, ...]:
    """The cells whose written digit was read with a probability under SURE_ENTRY, in reading order."""
    return tuple(sorted(cell for cell, p in confidence.items() if p < SURE_ENTRY))


MISREAD_SHARE = 0.01
"""A written digit at odds with the solution is doubtful when the reader gave the solution's digit at
least this probability (:meth:`Reading.doubtful_entries`). On the five sets' half-filled photos
read with the right solution, of the digits called wrong: hard misreads 20, of which SURE_ENTRY
names 10 and this 4 more; digits really written wrong 182 hard, 279 hand-held, 292 clean, none of
them named by it (at 0.001: 1 hard and 1 clean; at 0.1: 2 misreads more instead of 4). Hand-held
misreads 7, 6 named either way."""


RETAKE_PX = 7.0
"""Clue labels whose digits are shorter than this in the photo's own pixels are often misread.
Measured on the generated photos of seeds 7474 and 8383 (599 KenKen photos with a grid found), by
the labels' median height as :func:`vision.clues.labels_px` measures it: under 7 px, 109 of 200
boards were read exactly; from 7 px up, 392 of 399. Of the 98 readings neither confident nor
right, 91 had labels under 7 px."""


NO_OPS_SURE_PX = 5.0
"""In a puzzle printed without operators, clue labels shorter than this (median digit height in the
photo's own pixels, :func:`vision.clues.labels_px`) make the reading not confident. There the
solver's check is weak: every number fits several operators, so a misread number often still
leaves exactly one solution. Measured over seeds 8383, 7474, 6161, 5252 and 3131 (four label
networks): of the confident readings of such puzzles with labels under 5 px (as printed), one of
three was wrong (hard k3131-0060, 4.0 px measured: "2?" and "5?" read "7?" and "1?" at 0.84 and
0.62); with operators printed, 6 of 6 were right."""


RETAKE_NOTE = "the clue numbers are only"
"""How :func:`retake_advice`'s note starts (the app shows it as a warning)."""


def retake_advice(label_px: float | None) -> tuple[str, ...]:
    """A note for a reading that is not confident, when the clue labels (median digit height
    ``label_px`` in the photo's pixels) are under RETAKE_PX: what would help (empty otherwise)."""
    if label_px is None or label_px >= RETAKE_PX:
        return ()
    return (f"{RETAKE_NOTE} about {label_px:.0f} px tall in this photo, too small to read "
            f"surely: a closer or sharper photo (numbers at least {RETAKE_PX:.0f} px tall) reads them much better",)


EDGE_CELLS = 0.75
"""A grid whose outline comes within this share of a cell of the photo's edge may run off it
(:func:`edge_advice`)."""
EDGE_NOTE = "the grid reaches the photo's"
"""How the note of :func:`edge_advice` begins."""


def edge_advice(corners: np.ndarray, rows: int, cols: int, shape: tuple[int, ...]) -> tuple[str, ...]:
    """A note for a reading with no solution, when the grid's outline (``corners`` TL, TR, BR, BL in
    a photo of ``shape``; ``rows`` × ``cols`` cells) comes within EDGE_CELLS of a cell of the
    photo's edge: part of the puzzle may be cut off (empty otherwise).

    Fifty-eighth round: seed 7474's first 20 clean and 20 hand-held photos, cut 0.6 of a cell
    inside the grid's last column (and again its last row), were read one size smaller or as a
    part of the grid, never confident, and nothing told the person why; 52 of the 72 read have no
    solution, and 51 of those get this note. Of seed 8383's 101 readings that are not confident, 24
    have their grid this near an edge (125 of its 300 grids lie so, nothing cut off), but only 2 of
    those have no solution: the note is kept to readings without one. A Kakuro cut so mostly still
    reads with one solution (of the part in view), not confident, so :func:`vision.kakuro.read_kakuro`
    asks for the note for every Kakuro reading that is not confident: seventy-fifth round, Kakuro seed
    2727's first 40 photos cut so (80): 12 read whole and confident (the part of the last line in view
    is enough), 59 read as Kakuro not confident, all 59 with the note (none had it before), 9 read
    as KenKen (6 with it); over the uncut Kakuro photos of seeds 2727, 6868 and 6060 (the 140 read
    not confident) 8 got it with nothing cut off."""
    corners = np.asarray(corners, np.float64)
    sides = side_lengths(corners)  # top, right, bottom, left
    cell = float(np.mean([(sides[0] + sides[2]) / (2 * cols), (sides[1] + sides[3]) / (2 * rows)]))
    height, width = shape[:2]
    gaps = {"left": corners[:, 0].min(), "top": corners[:, 1].min(),
            "right": width - 1 - corners[:, 0].max(), "bottom": height - 1 - corners[:, 1].max()}
    near = [side for side, gap in gaps.items() if gap < EDGE_CELLS * cell]
    if not near:
        return ()
    return (f"{EDGE_NOTE} {' and '.join(near)} edge{'s' if len(near) > 1 else ''}: if part of the puzzle is "
            "cut off, take the photo again with the whole puzzle in view",)


def _digits(grid: GridFind, clock, pen: PenCover | None = None,
            hidden: tuple[Cell, ...] = ()) -> tuple[Grid | None, dict[Cell, tuple[tuple[int, float], ...]]]:
    """Written digits as entries (None when the digit reader is not available or reads none) and
    each one's alternatives, best first; a digit outside 1..N is not a possible entry, so the best
    possible alternative stands for it. With a ``pen`` across the grid they are read with it painted
    out (:func:`vision.pen.without_pen`), and the ``hidden`` cells are not read."""
    try:
        from .digits import read_digits
    except ImportError:
        return None, {}
    with clock("digits"):
        found = read_digits(grid if pen is None else without_pen(grid, pen),
                            cells=[(r, c) for r in range(grid.size) for c in range(grid.size) if (r, c) not in hidden])
    n = grid.size
    rows = [[None] * n for _ in range(n)]
    alternatives = {}
    for cell, reading in found.items():
        usable = tuple((d, p) for d, p in reading.alternatives if 1 <= d <= n)
        if usable:
            rows[cell[0]][cell[1]] = usable[0][0]
            alternatives[cell] = usable
    if not alternatives:
        return None, {}
    return tuple(tuple(row) for row in rows), alternatives


@contextmanager
def timed_stage(seconds: dict[str, float], stage: str):
    """Add the wall time of the ``with`` block to ``seconds[stage]`` (both readers' stage clock)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds[stage] = round(seconds.get(stage, 0.0) + time.perf_counter() - start, 4)
