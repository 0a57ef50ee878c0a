"""Read a Kakuro from a photo or screenshot: the recipe that chains the Kakuro vision stages.

    load (image_io) → find the R×C grid (kakuro_grid) → white or dark cells (kakuro_cells tones,
    steps and diagonals, made to make sense by :func:`settle_layout`; a second opinion that trusts
    the tones more is read through too when it differs) → which clue numbers exist (from
    the layout) → the numbers and written digits (kakuro_cells
    glyphs, digit model and whole-number model; each number seen in two views, its ink over the
    cell's fill and over the local fill, and the two readings averaged: :func:`read_numbers`) →
    the solver in the loop (:func:`reconcile`) → :class:`KakuroReading`
    (read again without an outer row or column of nothing but blocks, when it has one: :func:`trimmed`)

The solver in the loop (:mod:`vision.kakuro_reconcile`) finds the likeliest reading of the numbers
(every number one of the values read for it) whose puzzle has exactly one solution; every number it
changes is reported.
A reading is *confident* only when it has exactly one solution with no change, no other reading
nearly as likely also has one (a close rival, see :mod:`vision.kakuro_reconcile`; nor the other
layout, when there were two), no outer row or column holds only blocks (BARE_EDGE_NOTE), and every
cell and number was read with high probability (a number: its reading averaged over both views, or
both views agreeing and one of them sure; where they disagree it is not sure). Every stage is timed.

Example::

    reading = read_kakuro("photo.jpg")
    reading.puzzle, reading.status, reading.solution, reading.confident
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from solver.kakuro.model import BLOCK, WHITE, Clue, KakuroPuzzle, sum_range
from solver.puzzle import Cell, Grid, PuzzleError, cell_name

from .errors import NoPuzzleFound
from .image_io import load_image
from .kakuro_cells import (CLUE_DIAGONAL, DIFFERENT_STEP, figure_tone, DigitModel, NumberGlyphs, cell_patches, cell_tones, classify, clue_glyphs, diagonal_strength,
                           digit_model, entry_glyph, entry_white, number_alternatives, number_model, segmentations, white_by_steps, whole_features,
                           boundary_steps, white_probabilities, TONE_WEIGHT, TRUSTED_TONE_WEIGHT)
from .kakuro_grid import KakuroGridFind, find_kakuro_grid, grid_from_corners
from .kakuro_light import flatten
from .kakuro_reconcile import Purse, ReadingSolver
from .model import GridFind
from .orientation import CORNERS
from .read import edge_advice, timed_stage, unsure_entries

SURE = 0.9
"""Least probability of every number (and of every cell's tone, see SURE_CELL) in a confident reading."""
SURE_CELL = 0.95
SPLIT_PENALTY = 0.05
"""Weight of the readings of a number's glyphs cut or joined (see
:func:`vision.kakuro_cells.segmentations`) against the glyphs as found."""
WHOLE_WEIGHT = 0.5
"""The whole-number model's share of a clue number's reading (:func:`with_whole_reading`). The digit
model reads a number's glyphs one by one after cutting touching digits apart at the faintest
column, which can fall in a digit's own hole ("34" read "31"); the whole-number model reads the
number's ink at once. Replayed over the hard photos of Kakuro seeds 7070, 8181 and 9191 (tenth
round, photos whose grid size was read right), with a first fit of the model (the same code on
rows drawn by a copy of it): numbers misread 150 → 139 at 0.5 (132 at 0.3, 157 by the whole model
alone), hand-held 23 → 11, boards hard 145 → 148 (0.3: 147); with the fit this code makes
(cached): 150 → 140, 23 → 10, boards 145 → 146. End to end with that fit and WHOLE_ASK, clean /
hand-held / hard of 60 and confident: seed 8181 60/60/53 → 60/60/53 (128 → 132), 9191 60/58/50 →
60/58/50 (128 → 130), 7070 60/58/45 → 60/58/46 (125 → 124), fresh seed 6262 60/59/46 → 60/60/46
(130 → 132); none confident and wrong. (The first fit read 9191 hard 51 and 6262 hard 47.)"""
WHOLE_ASK = 0.99
"""The whole-number model is asked only about numbers whose digit-by-digit reading is less sure than
this: a sure reading keeps its probability, so a clean photo stays confident (asked about every
number, the mix made 3 of 120 clean photos of seeds 8181 and 9191 not confident, when the whole
model was less sure than the digits). Boards exact in the replay: the same as asking always."""
WHOLE_FLOOR = 1e-3
"""Least probability of the whole-number model at which a value it reads joins a number's readings."""
SPLIT_ASPECT = 0.75
"""A lone glyph at least this many times as wide as tall, whose reading as found is not sure (under
SURE), has its reading cut in two weighed fully, not by SPLIT_PENALTY: "11" blurs into one blob 0.8
to 0.94 as wide as tall that the digit model reads as a doubtful "7" or "8" while its two halves
read as "1"s surely. Clue numbers read with true corners on four Kakuro sets (720 photos): the
number read first wrong on clean 11 → 0, hand-held 5 → 2, hard 78 → 64 lone glyphs. A single
digit's glyph is mostly 0.6 to 0.8 as wide as tall and read surely; weighing the cut fully also
when the glyph reads surely made a rival reading nearly as likely of 1,469 of them."""
SURE_DARK = 0.1
"""A cell whose probability of being white is below this is dark, whatever the layout says."""
SHADOW_ENTRY = 0.95
"""A written digit read with a probability under this whose ink is gone once the light is evened
out is a shadow's edge (:func:`read_entries`). Digits in white cells with true corners and layout,
seeds 5150 and 4242 (360 photos): of 641 glyphs read where nothing is written (630 on hard photos),
606 dropped; of 1,602 written digits, 5 read right and 9 read wrong dropped."""

UNDECIDED_NOTE = "the solver could not settle some readings of the numbers within its time budget"
"""How a reading's notes say the solver in the loop left questions undecided (see
:data:`vision.kakuro_reconcile.QUESTION_CONFLICTS`); their readings were dropped, none called unique."""

RIVAL_NOTE = "another reading nearly as likely also has exactly one solution"
"""How a reading's notes say the search found a close rival (such a reading is not confident)."""

Slot = tuple[Cell, str]
"""A clue number: its clue cell and ``'across'`` or ``'down'``."""


@dataclass(frozen=True)
class KakuroChange:
    """A number the solver changed: what was read, what is used, and why."""

    slot: Slot
    read: int | None
    used: int
    reason: str

    def describe(self) -> str:
        """'the across number at r2c3 from 17 to 11 (the puzzle had no solution)'."""
        (cell, direction) = self.slot
        return f"the {direction} number at {cell_name(cell)} from {self.read if self.read is not None else '?'} " \
               f"to {self.used} ({self.reason})"


@dataclass(frozen=True, eq=False)
class KakuroReading:
    """What kensnap read from one image and how sure it is (probabilities are 0..1).

    ``puzzle`` is the settled Kakuro (with ``entries`` when written digits were read); ``status`` and
    ``solution`` the engine's verdict on it; ``confident`` is True only for exactly one solution, no
    change, every cell and number read surely, and the layout the one the cells' tones say (a cell
    the layout rules turned is a doubt). ``numbers`` gives the alternatives read for every clue
    number, ``white`` the probability that each cell is white (0 for the first row and column and
    for cells showing a clear diagonal).
    """

    puzzle: KakuroPuzzle
    status: str
    solution: Grid | None
    confident: bool
    changes: tuple[KakuroChange, ...]
    numbers: dict[Slot, tuple[tuple[int, float], ...]]
    white: dict[Cell, float]
    entry_confidence: dict[Cell, float]
    grid: KakuroGridFind
    seconds: dict[str, float]
    notes: tuple[str, ...] = ()
    debug: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def corners(self) -> np.ndarray:
        """The grid's outer corners in the original image (TL, TR, BR, BL)."""
        return self.grid.corners

    @property
    def time_ms(self) -> float:
        return round(1000 * sum(self.seconds.values()), 1)

    def doubtful_entries(self) -> tuple[Cell, ...]:
        """The written digits a person should look at again: those read with a probability under
        SURE_ENTRY (as :meth:`vision.read.Reading.doubtful_entries`, which also weighs the solution)."""
        return unsure_entries(self.entry_confidence)

    @property
    def confidence(self) -> float:
        """The least probability of any cell's tone and any number as used."""
        used = {(cell, d): _value(self.puzzle, cell, d) for cell, d in self.numbers}
        probs = [dict(alts).get(used[slot], 0.0) for slot, alts in self.numbers.items()]
        probs += [max(p, 1 - p) for p in self.white.values()]
        return round(min(probs, default=0.0), 3)


def read_kakuro(image: str | Path | bytes | np.ndarray, *, debug: bool = False,
                kenken: tuple[GridFind, ...] | None = None, seconds: dict[str, float] | None = None) -> KakuroReading:
    """Read the Kakuro in ``image`` (a path, raw bytes, or an RGB array); ``kenken`` is what the
    KenKen grid finder found in it, when the caller already asked (see
    :func:`vision.kakuro_grid.find_kakuro_grid`), ``seconds`` the times of what the caller did
    before (counted in the reading's).

    Raises ImageError for a file that is not a usable image and NoPuzzleFound when no Kakuro grid
    is found."""
    seconds = dict(seconds or {})
    with timed_stage(seconds, "load"):
        pixels = image if isinstance(image, np.ndarray) else load_image(image)
    with timed_stage(seconds, "grid"):
        grid = find_kakuro_grid(pixels, kenken)
    reading = read_kakuro_in(grid, debug=debug, seconds=seconds)
    reading = trimmed(pixels, reading, debug=debug) or reading
    if not reading.confident:  # a Kakuro cut by the photo's edge mostly still reads with one solution
        reading = replace(reading, notes=reading.notes + edge_advice(grid.corners, grid.rows, grid.cols, pixels.shape))
    if grid.turns:
        reading = replace(reading, notes=(TURNED_NOTE.format(corner=CORNERS[grid.turns]),) + reading.notes)
    return reading


TURNED_NOTE = ("the puzzle lies turned in the photo (its first row and column, of clue cells and blocks, meet at "
               "the photo's {corner}): it was read turned upright")
"""How a reading's notes say the Kakuro was found turned (:attr:`vision.kakuro_grid.KakuroGridFind.turns`)."""


TRIM_NOTE = "an outer line of nothing but blocks was taken off the grid"
"""How a reading's notes say the grid finder's grid had a row or column too many: an outer line
that held only blocks (BARE_EDGE_NOTE) was taken off and the rest read again (such a reading is not
confident)."""


def trimmed(pixels: np.ndarray, reading: KakuroReading, *, debug: bool = False) -> KakuroReading | None:
    """``reading``'s grid (found in ``pixels``) without its outer lines that hold only blocks (see
    :func:`bare_edges`), read again: that reading, not confident and noted, when it has exactly one
    solution and no bare line of its own; else None (also when ``reading`` has no bare line). No
    Kakuro prints such a line, but a grid finder that took a frame, a margin or a shadow's edge for
    one more line of cells makes one (held-out kk8181-0089: a hard photo's 9×10 read as 10×10 with a
    row of blocks below it)."""
    grid, bare = reading.grid, bare_edges(reading.puzzle)
    if not bare:
        return None
    top, bottom = int("first row" in bare), int("last row" in bare)
    left, right = int("first column" in bare), int("last column" in bare)
    rows, cols = grid.rows - top - bottom, grid.cols - left - right
    if min(rows, cols) < 3:
        return None
    x0, x1 = grid.lines_x[left], grid.lines_x[grid.cols - right]
    y0, y1 = grid.lines_y[top], grid.lines_y[grid.rows - bottom]
    inner = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])
    corners = cv2.perspectiveTransform(inner, np.linalg.inv(grid.homography))[0].astype(np.float64)
    seconds = dict(reading.seconds)
    with timed_stage(seconds, "trim"):
        try:
            smaller = read_kakuro_in(replace(grid_from_corners(pixels, corners, rows, cols, grid.turns),
                                             confidence=grid.confidence),
                                     debug=debug)
        except NoPuzzleFound:
            return None
    if smaller.status != "unique" or bare_edges(smaller.puzzle):
        return None
    note = f"{TRIM_NOTE}: read as {rows}×{cols}, not {grid.rows}×{grid.cols} ({', '.join(bare)})"
    return replace(smaller, confident=False, seconds=seconds, notes=smaller.notes + (note,))


def read_kakuro_in(grid: KakuroGridFind, *, debug: bool = False, seconds: dict[str, float] | None = None) -> KakuroReading:
    """Read the Kakuro of a grid already found (the stages after the grid finder; a grid from known
    corners, :func:`vision.kakuro_grid.grid_from_corners`, measures them alone). ``seconds`` holds
    the times of earlier stages.

    The layout is settled twice: with the boundary steps weighing most (they see white cells the
    light leaves dim) and, as a second opinion, with the cells' tones weighing more (a shadow's
    edge along a cell boundary makes a step lie); the clue cells' figures weigh in both
    (:func:`runs_by_figures`), and each is also read with its runs made long enough for the numbers
    read surely (:func:`lengthened`). When these differ, all are read and the one :func:`_better`
    ranks first is kept; another, if it also has exactly one solution, is a rival and the reading
    is not confident. When the best needs a number whose clue cell shows none, or has no single
    solution, layouts with cells turned (:func:`repaired_layouts`) are read too, for up to
    REPAIR_ROUNDS rounds; a repaired layout is kept only when its reading is likelier than the best
    of the first layouts, or those had no single solution. Each layout keeps the probabilities of
    white its tones and steps gave, so a repaired one is not confident where they disagree."""
    seconds = dict(seconds or {})
    with timed_stage(seconds, "cells"):
        patches = cell_patches(grid)
        flat = flatten(patches)
        tones, flat_level = cell_tones(flat)  # the tones without the shadows; steps and figures as seen
        _, level = cell_tones(patches)
        edge = frozenset((r, c) for r in range(grid.rows) for c in range(grid.cols) if r == 0 or c == 0)
        diagonal = {cell: diagonal_strength(patch) for cell, patch in patches.items()}
        tone_white, steps = white_probabilities(tones), boundary_steps(patches, level)
        options: list[tuple[frozenset[Cell], dict[Cell, float]]] = []
        tone = figure_tone(patches, diagonal)
        figures, model = Figures(patches, level, light_figures=tone), digit_model()
        views = (NumberView(figures, model),
                 NumberView(Figures(patches, level, local=True, light_figures=tone), digit_model(local=True)))
        said, sure = runs_by_figures(figures, diagonal, model)
        for weight in (TONE_WEIGHT, TRUSTED_TONE_WEIGHT):
            white = white_by_steps(tone_white, steps, edge, weight, said)
            layout = settle_layout(grid.rows, grid.cols, white, diagonal)
            white = {(r, c): 0.0 if r == 0 or c == 0 or diagonal[(r, c)] >= FIGURE_DIAGONAL else p
                     for (r, c), p in white.items()}  # the first row and column, and clear diagonals, are dark
            if all(layout != other for other, _ in options):
                options.append((layout, white))
        for layout, white in list(options):  # and each made long enough for its sure numbers
            longer = lengthened(grid.rows, grid.cols, layout, sure, diagonal)
            if all(longer != other for other, _ in options):
                options.append((longer, white))
    failure: list[NoPuzzleFound] = []
    purse = Purse()

    def read_layout(layout: frozenset[Cell], white: dict[Cell, float]) -> _Outcome | None:
        """The layout read through: its numbers, entries and the solver's verdict (None, and the
        error kept, when the cells so read make no Kakuro; None when the photo's searches have
        spent LOOK_CONFLICTS, see :class:`vision.kakuro_reconcile.Purse`)."""
        if purse.empty:
            return None
        with timed_stage(seconds, "numbers"):
            numbers, sure_numbers = read_numbers(layout, views)
            entries, entry_conf = read_entries(layout, patches, level, model, (flat, flat_level))
        with timed_stage(seconds, "solve"):
            try:
                result = reconcile(grid.rows, grid.cols, layout, numbers, entries, purse)
            except NoPuzzleFound as err:
                failure.append(err)
                return None
        missing = sum(1 for alts in numbers.values() if not alts)
        return _Outcome(layout, white, numbers, entry_conf, *result, missing, sure_numbers)

    outcomes = [outcome for layout, white in options if (outcome := read_layout(layout, white)) is not None]
    tried = {layout for layout, _ in options}
    told_by: dict[frozenset[Cell], dict[Cell, tuple[int, float]]] = {}  # a repaired layout's turns, with what the figures said
    parent = min((outcome for outcome in outcomes if outcome.status != "unique" or outcome.missing), key=_better,
                 default=None)
    for _ in range(REPAIR_ROUNDS):  # layouts that need numbers the photo does not show: turn cells
        if parent is None or ((best := min(outcomes, key=_better)).status == "unique" and not best.missing
                              and best.cost <= REPAIR_COST):
            break
        repairs = []
        with timed_stage(seconds, "cells"):
            for layout, told in repaired_layouts(parent, tone_white, steps, edge, told_by.get(parent.layout, said),
                                                 sure, diagonal, grid.rows, grid.cols):
                if layout not in tried:
                    tried.add(layout)
                    told_by[layout] = told
                    repairs.append(layout)
        found = [outcome for layout in repairs[:REPAIRS] if (outcome := read_layout(layout, parent.white)) is not None]
        outcomes += found
        parent = min(found, key=_better, default=None)
    if not outcomes:
        raise failure[-1] if failure else NoPuzzleFound("the cells read do not make a Kakuro")
    best = min(outcomes, key=_better)
    first = min((outcome for outcome in outcomes if outcome.layout not in told_by), key=_better, default=best)
    if best is not first and first.status == "unique" and first.cost <= best.cost:
        best = first  # a repair is kept only when its reading is likelier, or the layouts read first had none
    notes = list(best.notes)
    if any(other is not best and other.status == "unique" for other in outcomes):
        notes.append(LAYOUT_RIVAL_NOTE)
    if bare := bare_edges(best.puzzle):
        notes.append(f"{BARE_EDGE_NOTE} ({', '.join(bare)})")
    sure = (best.status == "unique" and not best.changes and not any(note.startswith(DOUBTS)
                                                                      for note in notes)
            and all(max(p, 1 - p) >= SURE_CELL and (p >= 0.5) == (cell in best.layout) for cell, p in best.white.items())
            and all(slot in best.sure_numbers for slot in best.numbers))  # the layout as the tones say
    extra = {"rectified": grid.rectified} if debug else {}
    return KakuroReading(best.puzzle, best.status, best.solution, sure, tuple(best.changes), best.numbers, best.white,
                         best.entry_confidence, grid, seconds, tuple(notes), extra)


BARE_EDGE_NOTE = "the grid may have been taken a row or column too large: an outer line holds only blocks"
"""How a reading's notes say an outer row or column holds nothing but plain blocks (such a reading is
not confident): no Kakuro prints one (the next line in would have no clue for its white cells), but
a frame or margin beside the grid read as a line of blocks makes one, and the rest of the puzzle,
read one cell over, may still have one solution (held-out clean kk5150-0082: 12×12 read as 12×13
with a column of blocks over the white frame, confidently)."""


def bare_edges(puzzle: KakuroPuzzle) -> tuple[str, ...]:
    """Which outer lines of ``puzzle`` ('first row', 'last row', 'first column', 'last column') hold
    nothing but plain blocks."""
    grid = puzzle.grid
    lines = {"first row": grid[0], "last row": grid[-1], "first column": [row[0] for row in grid],
             "last column": [row[-1] for row in grid]}
    return tuple(name for name, squares in lines.items() if all(square == BLOCK for square in squares))


LAYOUT_RIVAL_NOTE = "another layout of the white cells also has exactly one solution"
"""How a reading's notes say a second opinion on the white cells also made a puzzle with one solution."""

DOUBTS = (RIVAL_NOTE, LAYOUT_RIVAL_NOTE, BARE_EDGE_NOTE, UNDECIDED_NOTE)
"""The notes that keep a reading from being confident, even with exactly one solution and no change:
a rival reading or layout, an outer line of nothing but blocks, a question the solver left open.
:func:`vision.read_any.read_any` also does not count such a reading as settled against a KenKen
reading (held-out hard k9090-0106: a 4×4 KenKen read as a Kakuro with a bare outer line)."""


@dataclass(frozen=True, eq=False)
class _Outcome:
    """One layout of the white cells read through: its numbers, entries and the solver's verdict;
    ``missing`` counts the numbers the layout needs of which no figure was seen (or none a run of its
    length can make)."""

    layout: frozenset[Cell]
    white: dict[Cell, float]
    numbers: dict[Slot, tuple[tuple[int, float], ...]]
    entry_confidence: dict[Cell, float]
    puzzle: KakuroPuzzle
    status: str
    solution: Grid | None
    changes: list[KakuroChange]
    notes: list[str]
    cost: float
    missing: int
    sure_numbers: frozenset[Slot] = frozenset()
    """The numbers read surely (see :func:`read_numbers`)."""


def _better(outcome: _Outcome) -> tuple[bool, int, float]:
    """Rank of a layout's outcome, best first: exactly one solution, then fewer numbers the photo does
    not show where the layout needs them, then the likelier reading of the numbers."""
    return outcome.status != "unique", outcome.missing, outcome.cost


def settle_layout(rows: int, cols: int, white: dict[Cell, float], diagonal: dict[Cell, float]) -> frozenset[Cell]:
    """The white cells: by tone (``white`` probability ≥ ½), except that no cell of the first row or
    column is white, a cell showing a diagonal is a clue cell (unless its tone is surely white: a
    shadow's edge can run along the diagonal), and the layout is made to make
    sense, the less sure cell giving way: a dark cell without a diagonal (a block) cannot come
    right before a white cell (that place holds a clue: a surely dark one is taken for a clue cell
    whose diagonal did not show); a clue cell needs a white cell right of it or below it (never one of
    the first row or column, which hold clue cells and blocks only); no white cell is alone in its
    run across or down (:func:`_no_lone_whites`)."""
    clue = {cell for cell, d in diagonal.items() if d >= CLUE_DIAGONAL and white[cell] < SURE_CELL}
    whites = {cell for cell, p in white.items() if p >= 0.5 and cell not in clue and cell[0] > 0 and cell[1] > 0}
    doubt = lambda cell: min(white[cell], 1 - white[cell])  # noqa: E731
    for _ in range(rows * cols):
        changed = False
        for r in range(rows):
            for c in range(cols):
                cell = (r, c)
                if cell in whites:
                    continue
                after = [x for x in ((r, c + 1), (r + 1, c)) if x in whites]
                if cell not in clue and after:  # a block before a white cell
                    if white[cell] < SURE_DARK or r == 0 or c == 0:
                        clue.add(cell)  # surely dark: a clue cell whose diagonal did not show
                        continue
                    worst = max([cell] + after, key=doubt)
                    if worst == cell:
                        whites.add(cell)
                    else:
                        whites.discard(worst)
                    changed = True
                elif cell in clue and not after:  # a clue cell with nothing to clue
                    options = [x for x in ((r, c + 1), (r + 1, c))
                               if x in white and x not in clue and x[0] > 0 and x[1] > 0]
                    if options:
                        whites.add(max(options, key=lambda x: white[x]))
                        changed = True
        changed |= _no_lone_whites(rows, cols, whites, clue, doubt)
        if not changed:
            break
    return frozenset(whites)


REPAIR_ROUNDS = 2
"""Rounds of :func:`repaired_layouts` after the first layouts are read: the first from the best of
those that has no single solution or needs a number unseen, the second from the best layout the
first round read (its turns kept: hand-held kk5858-0023 needed two cells turned)."""
REPAIRS = 6
"""Most repaired layouts read in one round."""
REPAIR_COST = 10.0
"""Layouts are also repaired when the best reading has one solution and needs no number unseen,
if it costs more than this (nats): it changed numbers read surely, and another layout read needs a
number unseen (hard kk4747-0170: 13.9 nats, four numbers changed; the repaired layout, the true one,
3.4 nats)."""
FORCED_COST = 50.0
"""What the boundary steps and tones must outweigh (nats) to label a cell against a repair's turn:
more than they can."""


def repaired_layouts(best: _Outcome, tone_white: dict[Cell, float], steps: dict, edge: frozenset[Cell],
                     said: dict[Cell, tuple[int, float]], sure: dict[Slot, int], diagonal: dict[Cell, float],
                     rows: int, cols: int) -> list[tuple[frozenset[Cell], dict[Cell, tuple[int, float]]]]:
    """Layouts to read when ``best`` needs a number that its clue cell does not show (no figure, or
    none its run can add up to), or has no single solution. Each has one cell turned:

    * for a number not shown whose clue cell shows no diagonal and is not in the first row or
      column: that cell white (a white cell under a shadow as dark as a block), or the cell after it
      dark (a block in a glare: kk7575-0098) — not by a clue cell whose diagonal shows, whose figure
      may just be too faint to see;
    * for any number not shown: the cell after its run white (a run cut short by a shadow);
    * when ``best`` has no solution or several: the cell after any run that differs from the run's
      last cell by less than DIFFERENT_STEP across their boundary white, likest first.

    The turned cell is told to :func:`vision.kakuro_cells.white_by_steps` at FORCED_COST, so the
    steps and tones settle its neighbours with it (both tone weights), and each layout is also
    :func:`lengthened`. ``said`` is what the figures say (:func:`runs_by_figures`) with the turns
    that made ``best``'s layout, if any; each layout comes with them and its own turn."""
    turns = []
    for ((r, c), direction), alts in sorted(best.numbers.items()):
        if alts:
            continue
        after = (r, c + 1) if direction == "across" else (r + 1, c)
        _, end = _run_end(best.layout, (r, c), direction)
        if (r, c) not in edge and diagonal[(r, c)] < CLUE_DIAGONAL:  # no clue cell: a white one, or a block
            turns.append(((r, c), 1))
            if said.get(after, (0, 0.0))[0] != 1:  # not the cell a number read surely says is white
                turns.append((after, 0))
        if end in diagonal and end not in edge and diagonal[end] < CLUE_DIAGONAL:  # a run too short for its figures
            turns.append((end, 1))
    if best.status != "unique":  # runs whose next cell looks like their last one: a shadow over both
        ends = []
        for cell, direction in sorted(best.numbers):
            last, end = _run_end(best.layout, cell, direction)
            step = abs(steps.get((last, end), DIFFERENT_STEP))
            if end in diagonal and end not in edge and diagonal[end] < CLUE_DIAGONAL and step < DIFFERENT_STEP:
                ends.append((step, end))
        turns += [(end, 1) for _, end in sorted(ends)]
    out: list[tuple[frozenset[Cell], dict[Cell, tuple[int, float]]]] = []
    for cell, label in dict.fromkeys(turns):
        told = {**said, cell: (label, FORCED_COST)}
        for weight in (TONE_WEIGHT, TRUSTED_TONE_WEIGHT):
            layout = settle_layout(rows, cols, white_by_steps(tone_white, steps, edge, weight, told), diagonal)
            for candidate in (layout, lengthened(rows, cols, layout, sure, diagonal)):
                if candidate != best.layout and all(candidate != other for other, _ in out):
                    out.append((candidate, told))
    return out


def _run_end(layout: frozenset[Cell], cell: Cell, direction: str) -> tuple[Cell, Cell]:
    """``(last, after)``: the last white cell of the run a clue cell begins (the clue cell itself
    when it begins none) and the cell after it."""
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    last, after = cell, (cell[0] + dr, cell[1] + dc)
    while after in layout:
        last, after = after, (after[0] + dr, after[1] + dc)
    return last, after


FIGURE_DIAGONAL = 2 * CLUE_DIAGONAL
"""A cell whose diagonal is this clear is a clue cell: no figure in one of its halves says no run
begins after it there (hard tuning photos, grids as found: no figure in 409 halves before a dark
cell and in 1 before a white one; 2 of 3163 white cells have such a diagonal)."""
FIGURE_SURE = 0.99
"""A number read this surely in a clue cell's half says its run begins after it (hard tuning
photos, grids as found: 1701 halves before a white cell, 2 before a dark one; at 0.9 it was 72
more before a white cell and 4 more before a dark one, which lost 4 boards)."""
SAID_WHITE_COST, SAID_DARK_COST = 6.0, 3.0
"""What the boundary steps and the tone must outweigh (nats) to label a cell against what the
figures before it say: a sure number more than a missing one (a shadow's edge along a white cell's
diagonal looks like a clue cell's; boards on the hard tuning photos were the same from 1.5 to 5)."""


def runs_by_figures(figures: Figures, diagonal: dict, model) -> tuple[dict[Cell, tuple[int, float]], dict[Slot, int]]:
    """``(said, sure)``: ``said`` maps ``cell → (label, cost)`` (1 white, 0 dark) for the cells
    the clue cells' figures speak for: the cell right of a clue cell (by its across half) and the
    one below it (by its down half), when not in the first row or column. A number read surely
    (FIGURE_SURE) there says its run begins: the cell is white, by a clue cell whose diagonal shows
    (CLUE_DIAGONAL) or any cell of the first row or column. No figure there, in a cell whose
    diagonal is clear (FIGURE_DIAGONAL), says no run begins: the cell is dark (a white cell after a
    dark one begins a run, and every run has its number). A cell told both is left to its tone and
    steps. ``sure`` holds the numbers so read, by slot."""
    dark, seen = set(), []
    for (r, c), strength in diagonal.items():
        edge = r == 0 or c == 0
        if strength < CLUE_DIAGONAL and not edge:
            continue
        for direction, after in (("across", (r, c + 1)), ("down", (r + 1, c))):
            if after not in diagonal or after[0] == 0 or after[1] == 0:
                continue
            number = figures((r, c), direction)
            if number is None:
                if strength >= FIGURE_DIAGONAL:
                    dark.add(after)
            elif len(number.glyphs) <= 2:
                seen.append((((r, c), direction), after, number.glyphs))
    sure = {slot: best[0][0] for (slot, _, _), probs in zip(seen, classify_all(model, [glyphs for _, _, glyphs in seen]))
            if (best := number_alternatives(probs, keep=1)) and best[0][1] >= FIGURE_SURE}
    white = {after for slot, after, _ in seen if slot in sure}
    said = {cell: (1, SAID_WHITE_COST) for cell in white - dark}
    said.update({cell: (0, SAID_DARK_COST) for cell in dark - white})
    return said, sure


def lengthened(rows: int, cols: int, layout: frozenset[Cell], sure: dict[Slot, int], diagonal: dict) -> frozenset[Cell]:
    """The layout with every run too short for the number read surely in its clue cell (``sure``:
    a total more than its cells can add up to) made longer, cell by cell, over the dark cells after
    it (none of the first row or column, none whose diagonal is clear: FIGURE_DIAGONAL). A shadow's
    edge across a run can make its last cells look dark (kk2026-0053: "34" before three cells)."""
    whites = set(layout)
    for ((r, c), direction), total in sorted(sure.items()):
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        run, cell = [], (r + dr, c + dc)
        while cell in whites:
            run, cell = run + [cell], (cell[0] + dr, cell[1] + dc)
        if not run:
            continue
        while (sum_range(min(len(run), 9))[1] < total and cell[0] < rows and cell[1] < cols
               and cell not in whites and diagonal[cell] < FIGURE_DIAGONAL):
            whites.add(cell)
            run, cell = run + [cell], (cell[0] + dr, cell[1] + dc)
            while cell in whites:  # joined onto a run that went on beyond
                run, cell = run + [cell], (cell[0] + dr, cell[1] + dc)
    return frozenset(whites)


def _no_lone_whites(rows: int, cols: int, whites: set[Cell], clue: set[Cell], doubt) -> bool:
    """Give way where a white cell is alone in its row's or its column's run (a Kakuro's runs have
    two cells or more): the least sure of the lone cell and the dark cell after it (when that one is
    no clue cell and not in the first row or column) turns. True when a cell turned."""
    for r, c in sorted(whites):
        for dr, dc in ((0, 1), (1, 0)):
            before, after = (r - dr, c - dc), (r + dr, c + dc)
            if before in whites or after in whites:
                continue
            options = [(r, c)] + ([after] if after[0] < rows and after[1] < cols and after not in clue else [])
            worst = max(options, key=doubt)
            if worst == (r, c):
                whites.discard(worst)
            else:
                whites.add(worst)
            return True
    return False


def slots(layout: frozenset[Cell], rows: int, cols: int) -> dict[Slot, int]:
    """Every clue number the layout needs, with the length of its run."""
    out = {}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in layout:
                continue
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                k, cell = 0, (r + dr, c + dc)
                while cell in layout:
                    k, cell = k + 1, (cell[0] + dr, cell[1] + dc)
                if k:
                    out[((r, c), direction)] = k
    return out


@dataclass(frozen=True, eq=False)
class NumberView:
    """One way of seeing the clue numbers: their figures cut from the cells with one ink map
    (``figures``; its ``local`` says which, see :func:`vision.kakuro_cells.ink_map`) and the digit
    ``model`` fitted on figures cut so (the whole-number model likewise)."""

    figures: Figures
    model: DigitModel


def read_numbers(layout, views: tuple[NumberView, ...]) -> tuple[dict[Slot, tuple[tuple[int, float], ...]], frozenset[Slot]]:
    """``(numbers, sure)``: alternatives for every clue number the layout needs, best first, each
    view's (:func:`numbers_seen`) averaged over the views that see the number (a value one of them
    does not give counts 0 there); and the numbers read surely: the averaged best value at SURE, or
    the best value of every view that sees the number and at SURE in one of them (the views agree,
    one is sure). Two views, the ink over the cell's fill and over the local fill, each read by the
    models fitted on it, are wrong on different numbers (hard photos of five Kakuro sets, true
    layouts, grids as found, 8,061 numbers: read right 7,823 and 7,804 alone, 7,860 averaged; the
    truth among the alternatives 7,939 and 7,951 alone, 7,976 averaged)."""
    seen = [numbers_seen(layout, view.figures, view.model) for view in views]
    out, sure = {}, set()
    for slot in seen[0]:
        read = [dict(numbers[slot]) for numbers in seen if numbers[slot]]
        values = {v: sum(r.get(v, 0.0) for r in read) / len(read) for r in read for v in r}
        out[slot] = tuple(sorted(values.items(), key=lambda vp: -vp[1])[:8])
        tops = [numbers[slot][0] for numbers in seen if numbers[slot]]
        if out[slot] and (out[slot][0][1] >= SURE or (all(v == out[slot][0][0] for v, _ in tops)
                                                      and max(p for _, p in tops) >= SURE)):
            sure.add(slot)
    return out, frozenset(sure)


def numbers_seen(layout, figures: Figures, model) -> dict[Slot, tuple[tuple[int, float], ...]]:
    """Alternatives for every clue number the layout needs: the digit model's readings (of every
    segmentation of its glyphs) that a run of its length can make, best first (none when no digit
    is seen), averaged with the whole-number model's (of ``figures.local``) where those are unsure."""
    needed = slots(layout, figures.rows, figures.cols)
    readings = [(slot, number, k, glyphs) for slot in needed if (number := figures(*slot)) is not None
                for k, glyphs in enumerate(segmentations(number)) if len(glyphs) <= 2]
    probs = classify_all(model, [glyphs for *_, glyphs in readings])
    found: dict[Slot, dict[int, float]] = {slot: {} for slot in needed}
    as_found = {slot: float(np.prod(p.max(axis=1))) for (slot, _, k, _), p in zip(readings, probs) if k == 0}
    for (slot, number, k, _), p_digits in zip(readings, probs):
        low, high = sum_range(min(needed[slot], 9))
        weight = _segmentation_weight(number, k, as_found.get(slot, 0.0))
        for value, p in number_alternatives(p_digits, keep=8, lowest=low, highest=high):
            found[slot][value] = max(found[slot].get(value, 0.0), p * weight)
    wholes = {slot: number.whole for slot in needed if (number := figures(*slot)) is not None and number.whole is not None
              and max(found[slot].values(), default=0.0) < WHOLE_ASK}
    if wholes:
        for slot, p_whole in zip(wholes, number_model(figures.local).probabilities(np.stack([whole_features(w) for w in wholes.values()]))):
            found[slot] = with_whole_reading(found[slot], p_whole, sum_range(min(needed[slot], 9)))
    return {slot: tuple(sorted(values.items(), key=lambda vp: -vp[1])[:8]) for slot, values in found.items()}


def with_whole_reading(by_digits: dict[int, float], p_whole: np.ndarray, span: tuple[int, int]) -> dict[int, float]:
    """A number's values read digit by digit (value → probability) averaged with the whole-number
    model's probabilities (``p_whole`` over 1..45, :func:`vision.kakuro_cells.number_model`), at
    WHOLE_WEIGHT, for the values ``span`` allows that either reading gives (the whole model's from
    WHOLE_FLOOR)."""
    low, high = span
    values = set(by_digits) | {v for v in range(low, high + 1) if p_whole[v - 1] > WHOLE_FLOOR}
    return {v: (1 - WHOLE_WEIGHT) * by_digits.get(v, 0.0) + WHOLE_WEIGHT * float(p_whole[v - 1])
            for v in values if low <= v <= high}


def _segmentation_weight(number: NumberGlyphs, k: int, sure: float) -> float:
    """The weight of the ``k``-th of :func:`vision.kakuro_cells.segmentations` of ``number``, whose
    glyphs as found read at best with probability ``sure``: 1 for the glyphs as found, and for a
    lone glyph cut in two when it is SPLIT_ASPECT wide and ``sure`` is under SURE; else
    SPLIT_PENALTY (a forced cut or join is a second thought)."""
    if k == 0:
        return 1.0
    lone = number.glyphs[0] if len(number.glyphs) == 1 else None
    wide = lone is not None and lone.shape[1] >= SPLIT_ASPECT * lone.shape[0]
    return 1.0 if k == 1 and wide and sure < SURE else SPLIT_PENALTY


class Figures:
    """The glyphs of a clue cell's number in one of its halves (:func:`clue_glyphs`), each half
    looked at once however often it is asked for: ``figures(cell, direction)``; ``light_figures``
    is the tone of the grid's figures (:func:`vision.kakuro_cells.figure_tone`)."""

    def __init__(self, patches: dict, level: dict, local: bool = False, light_figures: bool | None = None):
        self.patches, self.level, self.local, self.light_figures = patches, level, local, light_figures
        self.rows = max(r for r, _ in patches) + 1
        self.cols = max(c for _, c in patches) + 1
        self._seen: dict[Slot, NumberGlyphs | None] = {}

    def __call__(self, cell: Cell, direction: str) -> NumberGlyphs | None:
        if (cell, direction) not in self._seen:
            self._seen[(cell, direction)] = clue_glyphs(self.patches[cell], self.level[cell], direction, self.local,
                                                        self.light_figures)
        return self._seen[(cell, direction)]


def classify_all(model, glyph_sets: list[tuple[np.ndarray, ...]]) -> list[np.ndarray]:
    """Digit probabilities of every set of glyphs (len × 10 each), in one call of the model."""
    probs = classify(model, [glyph for glyphs in glyph_sets for glyph in glyphs])
    ends = np.cumsum([len(glyphs) for glyphs in glyph_sets])
    return np.split(probs, ends[:-1]) if glyph_sets else []


def read_entries(layout, patches, level, model, flat: tuple[dict, dict] | None = None) -> tuple[Grid | None, dict[Cell, float]]:
    """Digits written in white cells (None when there are none) and their probabilities, read from
    their ink against the cell's own paper (:func:`vision.kakuro_cells.entry_white`) without a
    shadow's edges (:data:`vision.kakuro_cells.ENTRY_KEEP`). With
    ``flat`` (the patches with the light evened out, :func:`vision.kakuro_light.flatten`, and their
    white levels), a glyph that is gone there and reads under SHADOW_ENTRY is a shadow's edge, not
    a digit, and is dropped."""
    rows = max(r for r, _ in patches) + 1
    cols = max(c for _, c in patches) + 1
    whites = {cell: entry_white(patches[cell], level[cell]) for cell in layout}
    found = {cell: ink for cell in sorted(layout)
             if (ink := entry_glyph(patches[cell], whites[cell], shadowless=True)) is not None}
    if not found:
        return None, {}
    probs = classify(model, list(found.values()))[:, 1:]  # digits 1..9
    probs = probs / probs.sum(axis=1, keepdims=True)
    grid = [[None] * cols for _ in range(rows)]
    confidence = {}
    for (r, c), p in zip(found, probs):
        if flat is not None and p.max() < SHADOW_ENTRY and \
                entry_glyph(flat[0][(r, c)], flat[1][(r, c)], shadowless=True) is None:
            continue
        grid[r][c] = int(np.argmax(p)) + 1
        confidence[(r, c)] = round(float(p.max()), 4)
    if not confidence:
        return None, {}
    return tuple(map(tuple, grid)), confidence


def build_puzzle(rows: int, cols: int, layout, choice: dict[Slot, int], entries: Grid | None) -> KakuroPuzzle:
    """The Kakuro of a layout and a value for every clue number; raises PuzzleError for a layout no
    Kakuro can have."""
    grid = []
    for r in range(rows):
        line = []
        for c in range(cols):
            if (r, c) in layout:
                line.append(WHITE)
            else:
                down, across = choice.get(((r, c), "down")), choice.get(((r, c), "across"))
                line.append(BLOCK if down is None and across is None else Clue(down, across))
        grid.append(tuple(line))
    return KakuroPuzzle(rows, cols, tuple(grid), entries)


def reconcile(rows: int, cols: int, layout, numbers: dict[Slot, tuple[tuple[int, float], ...]],
              entries: Grid | None, purse: Purse | None = None,
              ) -> tuple[KakuroPuzzle, str, Grid | None, list[KakuroChange], list[str], float]:
    """The solver in the loop (:mod:`vision.kakuro_reconcile`): ``(puzzle, status, solution,
    changes, notes, cost)`` for the likeliest reading of the numbers whose puzzle has exactly one
    solution (``cost``: minus the log of its probability), or the reading as read (and its status,
    cost infinite) when none is found. Raises NoPuzzleFound when the layout read is no Kakuro (a run
    of ten cells). With ``purse``, the search spends at most what is left in it, and takes that out."""
    read = {slot: alts[0][0] if alts else None for slot, alts in numbers.items()}
    try:  # the shape of the puzzle (an unread number stands in as 1)
        puzzle = build_puzzle(rows, cols, layout, {slot: v or 1 for slot, v in read.items()}, None)
    except PuzzleError as err:
        raise NoPuzzleFound(f"the cells read do not make a Kakuro: {err}") from None
    with ReadingSolver(puzzle, numbers, purse) as search:
        settled = search.settle()
    notes: list[str] = []
    changes: list[KakuroChange] = []
    solution = None
    if settled.status == "unique":
        puzzle = build_puzzle(rows, cols, layout, settled.reading, None)
        grid = puzzle.empty_grid()
        for (r, c), v in settled.solution.items():
            grid[r][c] = v
        solution = tuple(map(tuple, grid))
        reason = "the numbers as read gave no solution or several, or were not read"
        changes = [KakuroChange(slot, read[slot], value, reason) for slot, value in sorted(settled.reading.items())
                   if value != read[slot]]
        if settled.rival is not None:
            differ = [f"the {d} number at {cell_name(cell)} as {v}" for (cell, d), v in sorted(settled.rival.items())
                      if v != settled.reading[(cell, d)]]
            notes.append(f"{RIVAL_NOTE}: {', '.join(differ)}")
    else:
        notes.append(f"no reading of the numbers found with exactly one solution (as read: "
                     f"{'no' if settled.status == 'none' else 'more than one'} solution)")
    if settled.undecided:
        notes.append(f"{UNDECIDED_NOTE} ({settled.undecided} of {settled.questions} questions)")
    if entries is not None:
        puzzle = puzzle.with_entries(entries)
    return puzzle, settled.status, solution, changes, notes, settled.cost


def _value(puzzle: KakuroPuzzle, cell: Cell, direction: str) -> int | None:
    """The number the puzzle uses in a clue slot."""
    square = puzzle.grid[cell[0]][cell[1]]
    return square.total(direction) if isinstance(square, Clue) else None


__all__ = ["KakuroChange", "KakuroReading", "read_kakuro", "read_kakuro_in", "reconcile", "trimmed"]
