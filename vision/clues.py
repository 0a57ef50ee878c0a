"""Reading clue labels (target number + operator) in the top-left corner of cells.

Algorithm, per cell:

1. *Patch* (:func:`cell_patch`): the cell of the rectified grid, with a margin of an eighth of a
   cell on each side, resampled to a fixed 64 px cell, as *darkness* (0 paper … 1 ink) after
   dividing by a local paper estimate (a grey dilation), so shadows and coloured screens flatten.
2. *Ink and walls* (:func:`ink_components`): darkness above a threshold; a component spanning most
   of the cell is a wall or grid line: its line rows (or columns) are removed and what is left of it
   (glyphs touching the wall) is kept; short thin bits along the cell edge (dotted lines) go.
3. *Label* (:func:`label_glyphs`): the leftmost digit-high component starting near the top-left
   (not above the cell's top line) is the anchor; components to its right on the same text line,
   each within a glyph's gap of the last, join it. Components overlapping in x form one glyph
   (÷, :); a glyph far wider than a digit is split at its thinnest column (touching digits).
4. *Read* (:mod:`vision.label_reader`): the label's strip (walls removed) is read whole — a
   small convolutional network scores every column, a grammar-constrained beam search spells the clue — giving
   alternatives with probabilities. (The glyph cuts of step 3 only bound the strip and the crop
   tesseract reads.)
   A cage whose label was not cut out is read at the puzzle's usual label place
   (:func:`assumed_label`); strips start no later than where the puzzle's labels usually start.
   A label found out of that place (far smaller, or higher or lower) is read again as found there
   and the surer reading kept, the other's texts as alternatives (:func:`_label_choices`).
5. *OCR* (:mod:`vision.tesseract`): the number of every label at least OCR_MIN_PX tall in the
   photo (the crop ends where the reader's frames read an operator: the stock model cannot read
   × ÷ −) is read by one tesseract run with a digit and operator whitelist; its share of the
   number's probability is its confidence times a weight that grows with the label's height in
   the photo (OCR_WEIGHT_PX), and a reading short of the crop's glyphs, or empty, has none
   (:func:`combine_texts`).
6. *No operators printed*: when under NO_OPS_SHARE of the labels read show an operator glyph,
   every label gets ``'?'``.

Public API: :func:`read_clues`, :func:`clue_presence`, :func:`label_glyphs`, :func:`rectify`.

Example::

    grid = rectify(photo, corners, size)            # or the grid finder's GridFind
    readings = read_clues(grid, [cage.anchor for cage in puzzle.cages])
    readings[(0, 0)].best                            # ('*', 12, 0.97)
"""
from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .grey import to_grey
from .grid import side_lengths
from .helper import two_core_map
from .model import Cell, ClueReading, GridFind
from .quantiles import quantile
from .glyphs import OPERATORS, Glyph
from .label_reader import decode, label_frames, operator_start, split_clue, without_operators
from .label_training import label_model
from .tesseract import DIGITS, OcrEngine, TesseractEngine

CELL = 64
"""Patch cell side in pixels."""
MARGIN = 8
"""Patch margin outside the cell lines, in pixels."""
PATCH = CELL + 2 * MARGIN
INK_THRESHOLD = 0.28
"""Darkness above which a pixel is surely ink."""
INK_WEAK = 0.15
"""The lowest ink threshold (for thin, light fonts)."""
DIGIT_ASPECT = 0.66
"""Typical clue glyph width over digit height, for cutting blobs of touching glyphs."""


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------

def rectify(image: np.ndarray, corners: np.ndarray, size: int, cell_px: int = CELL) -> GridFind:
    """A GridFind from known outer corners (TL, TR, BR, BL): the grid warped to ``size·cell_px``
    square with evenly spaced lines. For rendered or simulated images whose corners are known."""
    side = size * cell_px
    dst = np.float32([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]])
    h = cv2.getPerspectiveTransform(np.float32(corners), dst)
    rgb = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    warped = cv2.warpPerspective(rgb, h, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lines = tuple(float(i * (side - 1) / size) for i in range(size + 1))
    return GridFind(np.float64(corners), size, warped, lines, lines, h, 1.0)


_PER_GRID: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""What was worked out per cell of a grid (patch, ink, label), kept as long as the grid lives:
the cage finder, the clue reader and the digit reader all look at every cell's ink and label."""


def _memo(grid: GridFind, key: tuple, make: Callable[[], object]) -> object:
    """``make()`` once per grid and key (a GridFind is immutable)."""
    store = _PER_GRID.setdefault(grid, {})
    if key not in store:
        store[key] = make()
    return store[key]


def cell_patch(grid: GridFind, cell: Cell) -> np.ndarray:
    """The cell's darkness patch (PATCH×PATCH float32, 0 paper … 1 ink); the cell lines sit at
    MARGIN and MARGIN + CELL. Computed once per grid and cell; read-only."""
    return _memo(grid, ("patch", cell), lambda: _read_only(_cell_patch(grid, cell)))


def closed_patch(grid: GridFind, cell: Cell) -> np.ndarray:
    """The cell's darkness over the grey closing's paper (see :func:`_cell_patch`), computed once per
    grid and cell (a label at a shadow's edge is looked for on it, and a faded one checked); read-only."""
    return _memo(grid, ("closed", cell), lambda: _read_only(_cell_patch(grid, cell, closing=True)))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


CLOSING = 15
"""The side of the grey closing's square, in patch pixels: the closing takes any dark patch holding
such a square for paper, so only what is narrower than it comes out as ink over that paper."""


def _cell_patch(grid: GridFind, cell: Cell, closing: bool = False, square: int = CLOSING) -> np.ndarray:
    """The darkness patch over a paper estimate that is a grey dilation (blurred), or with
    ``closing`` a grey closing over a ``square`` of patch pixels: a dilation carries lit paper a few
    pixels into a shadow beside it, so a shadow's edge comes out as ink; a closing keeps the edge
    where it is (see :func:`clue_presence`)."""
    x0, y0, x1, y1 = grid.cell_box(cell)
    sx, sy = CELL / max(1.0, x1 - x0), CELL / max(1.0, y1 - y0)
    m = np.float32([[sx, 0, MARGIN - x0 * sx], [0, sy, MARGIN - y0 * sy]])
    grey = _memo(grid, ("grey",), lambda: to_grey(grid.rectified))  # once per grid, not per cell
    patch = cv2.warpAffine(grey, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    patch = patch.astype(np.float32)
    return np.clip(1 - patch / np.maximum(_paper(patch, closing, square), 1), 0, 1)


def _paper(patch: np.ndarray, closing: bool, square: int = CLOSING) -> np.ndarray:
    """The paper's grey under a PATCH-sized grey patch (float32): a blurred grey dilation, or with
    ``closing`` a grey closing over a ``square`` (see :func:`_cell_patch`)."""
    if closing:
        return cv2.GaussianBlur(cv2.morphologyEx(patch, cv2.MORPH_CLOSE, np.ones((square, square), np.uint8)), (0, 0), 1)
    return cv2.GaussianBlur(cv2.dilate(patch, np.ones((15, 15), np.uint8)), (0, 0), 3)


# ---------------------------------------------------------------------------------------------
# Ink, walls and labels
# ---------------------------------------------------------------------------------------------

LINE_RUN = 0.7
"""Shortest straight run (in cells) that counts as a wall or grid line rather than a glyph stroke."""
DASH_BAND, DASH_COVER, DASH_THICK = 0.1, 0.4, 0.1
"""Dotted lines: rows/columns this near (in cells) a cell line, inked over this part of the cell,
in a band at most this thick (see :func:`_dash_lines`)."""


def _faint_lines(weak: np.ndarray, found_rows: np.ndarray, found_cols: np.ndarray, run: int) -> np.ndarray:
    """Lines that only the faint ink mask ``weak`` (darkness over INK_WEAK) shows: straight runs
    (:func:`_runs`, then :func:`_spanning` and :func:`_standing`) in its rows, and its columns,
    inked over LINE_SPAN of the cell, in thin bands along the cell's lines that hold no row (column)
    where the ink mask showed a line (``found_rows``, ``found_cols``; see :func:`_thin_bands_at_lines`).

    A thin grey line half a pixel off the patch's rows is two rows each under INK_THRESHOLD, where
    a dark label beside it puts the patch's ink threshold (see :func:`_ink_and_lines`); the line's
    pieces over that were cut out as a label (clean k6161-0226: "6720×" under such a wall read
    "2" from them). A label's rows cover less of the cell or run on below the line; a found line's
    faint edge is left alone (taken, it cut the top rows off labels printed against it, web style:
    "2880×" read "2÷", hand-held k8383-0167); rows and columns are kept apart (a wall's faint edge
    beside a label's first digit joined its rows into runs as long as a line's, hand-held
    k3131-0212)."""
    inside = slice(MARGIN, MARGIN + CELL)
    rows = _thin_bands_at_lines(weak[:, inside].sum(1) >= LINE_SPAN * CELL, found_rows)
    cols = _thin_bands_at_lines(weak[inside, :].sum(0) >= LINE_SPAN * CELL, found_cols)
    flat, upright = _runs((weak & rows[:, None]).astype(np.uint8), (weak & cols[None, :]).astype(np.uint8), run)
    return _spanning(flat) | _standing(upright)


def _thin_bands_at_lines(inked: np.ndarray, found: np.ndarray) -> np.ndarray:
    """``inked`` (a bool per patch row or column) kept only in runs at most DASH_THICK of a cell
    thick that lie within DASH_BAND of a cell line, hold no ``found`` row (column) nor touch one,
    and lie nearer the cell line than any found one: a bold, wide, blurred label's rows inked across
    its cell run on far below the line above it, and a cell edge holds one line (hand-held
    k8383-0167: the top line found, the tops of a bold web "2880×" three rows under it, inked across
    the cell at INK_WEAK, were cut off as a second line and the label read "2660×"; see SOLID_NEAR
    for the dotted-line test's own such rule)."""
    out = np.zeros_like(inked)
    rows = np.flatnonzero(found)
    for start, stop in _true_runs(inked):
        middle = (start + stop - 1) / 2
        line = MARGIN if abs(middle - MARGIN) <= abs(middle - MARGIN - CELL) else MARGIN + CELL
        away = abs(middle - line)
        nearest = np.abs(rows - line).min() if rows.size else np.inf
        alone = not found[max(0, start - 1):stop + 1].any() and away < nearest
        out[start:stop] = away <= DASH_BAND * CELL and alone and stop - start <= DASH_THICK * CELL
    return out


def _line_mask(mask: np.ndarray, weak: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of wall and grid lines in an ink mask, grown by a pixel so anti-aliased edges go too
    (not the lines only ``weak`` shows: their edge is fainter still), and the solid vertical lines'
    part of it.

    Solid lines are straight runs at least LINE_RUN of a cell long (a morphological opening with a
    1-px-thick kernel, also one pixel slanted either way for rectifications a little off), in the
    mask, and lines only the faint mask ``weak`` shows (:func:`_faint_lines`); glyph strokes are
    shorter, so a glyph touching a line keeps everything but the touching pixels.
    Dotted and dashed lines are rows (columns) within DASH_BAND of a cell line whose ink covers at
    least DASH_COVER of the cell's width (height): a text row there covers less, except the top rows
    of a wide bold label printed just under the line (see :func:`_dash_lines`)."""
    run = int(LINE_RUN * CELL)
    m = mask.astype(np.uint8)
    lines, vertical = _runs(m, m, run)
    across = _spanning(lines)
    vertical = _standing(vertical)
    lines = across | vertical
    inside = slice(MARGIN, MARGIN + CELL)
    index = np.arange(PATCH)
    top_band = np.abs(index - MARGIN) <= DASH_BAND * CELL
    band = top_band | (np.abs(index - MARGIN - CELL) <= DASH_BAND * CELL)
    outer = MARGIN - 3  # the neighbouring cells' side of the patch, clear of this cell's lines
    row_ink = m[:, inside].sum(1)
    covered = row_ink >= DASH_COVER * CELL
    # Labels sit under the top line: there a covered row must look like a line (see _dash_lines).
    through = m[:, :outer].any(1) & m[:, PATCH - outer:].any(1)
    top_dashes = _dash_lines(top_band, covered, through, _even(m[:, inside], top_band & covered))
    solid = np.flatnonzero(top_band & (across[:, inside].any(1) | ((row_ink >= LINE_SPAN * CELL) & through)))
    if solid.size and top_dashes.size:  # the top edge is a solid line: dashes only as its broken pieces
        top_dashes = top_dashes[np.abs(top_dashes[:, None] - solid[None, :]).min(1) <= SOLID_NEAR]
    rows = np.union1d(np.flatnonzero(band & ~top_band & covered), top_dashes)
    cols = np.flatnonzero(band & (m[inside, :].sum(0) >= DASH_COVER * CELL))  # no label is that tall
    lines[rows, :] |= m[rows, :]
    lines[:, cols] |= m[:, cols]
    grow = np.ones((3, 3), np.uint8)
    lines = cv2.dilate(lines, grow).astype(bool)
    if weak is not None:  # not grown: a faint line's edge is fainter still
        found_rows, found_cols = across[:, inside].any(1), vertical[inside, :].any(0)
        found_rows[rows], found_cols[cols] = True, True
        lines |= _faint_lines(weak, found_rows, found_cols, run).astype(bool)
    return lines, cv2.dilate(vertical, grow).astype(bool)


def _runs(flat: np.ndarray, upright: np.ndarray, run: int) -> tuple[np.ndarray, np.ndarray]:
    """The straight horizontal runs of ``flat`` and vertical runs of ``upright`` (uint8 masks) at
    least ``run`` px long: openings with 1-px kernels, straight and slanted by a pixel."""
    across_runs, down_runs = np.zeros_like(flat), np.zeros_like(upright)
    kernels = _line_kernels(run)
    for across, down in zip(kernels[::2], kernels[1::2]):
        across_runs |= cv2.morphologyEx(flat, cv2.MORPH_OPEN, across, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        down_runs |= cv2.morphologyEx(upright, cv2.MORPH_OPEN, down, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return across_runs, down_runs


SOLID_NEAR = 2
"""Rows from a solid line found in the top band within which covered rows may still be taken as
the same line's broken pieces; further down they are a label's, as a cell edge holds one line
(a wide bold "168×" under a web grid's top border lost a row through its digits to the dotted-line
test and read "10737×", clean k6161-0227; "120×" read "34177×", hand-held k3131-0212). A row
inked over LINE_SPAN of the cell and into both neighbours is such a line too, though no straight
run found it: a top line slanting 4 px across a curled cell (hand-held k5252-0248) was no run at
all, and "1008×" just under it lost five rows of its digits to the dotted-line test and read "80×"."""


LINE_SPAN = 0.85
"""A horizontal run the opening found is a line only when its piece reaches this share of the cell
across: a wall or grid line crosses the whole cell, while the middle rows of a wide, bold, blurred
label ("10080×" on a hand-held web photo, its zeros' holes filled) are solid for most of the label's
width, which LINE_RUN alone took for a line: the digits lost their middles and read "125−"."""


LINE_NEAR = 0.15
"""A horizontal run the opening found is a line only when its piece crosses the whole cell or its
middle row is within this share of a cell from the cell's top or bottom line: a bold, blurred label
whose digits run into the left wall is one solid piece as wide as a line, well below the top line,
that ends inside the cell (hand-held k8383-0194: "400×" lost its lower half and read "4−"). A
border the rectification put a sixth of a cell off crosses the whole cell (hard k7474-0105)."""


def _spanning(across: np.ndarray) -> np.ndarray:
    """The pieces of a horizontal-run mask at least LINE_SPAN of a cell wide that cross the cell
    or lie along its top or bottom line (see LINE_NEAR)."""
    return _along_lines(across, LINE_SPAN * CELL)


def _standing(down: np.ndarray) -> np.ndarray:
    """The pieces of a vertical-run mask that cross the cell from top to bottom or lie along its
    left or right line (within LINE_NEAR of a cell). A pen "1" whose foot runs into the bottom wall
    makes one vertical run with the wall's thickness and what lies below it, as long as LINE_RUN,
    in the middle of the cell: it was taken for a line and the digit was lost (12-MP clean
    k1212-0027, "1" read as no digit)."""
    return _along_lines(np.ascontiguousarray(down.T), 0.0).T


def _along_lines(runs: np.ndarray, least: float) -> np.ndarray:
    """The pieces of a mask of horizontal runs (a vertical one transposed) at least ``least`` px
    wide that cross the cell or whose middle row lies within LINE_NEAR of a cell of its top or
    bottom line."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(runs, connectivity=8)
    x, w = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_WIDTH]
    middle = stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT] / 2
    near = np.minimum(np.abs(middle - MARGIN), np.abs(middle - MARGIN - CELL)) <= LINE_NEAR * CELL
    crossing = (x <= MARGIN) & (x + w >= MARGIN + CELL)
    stray = np.flatnonzero((w < least) | ~(near | crossing))
    stray = stray[stray > 0]
    if not stray.size:
        return runs
    return np.where(np.isin(labels, stray), 0, runs).astype(runs.dtype)


DASH_GAP = 0.3
"""A dotted line leaves no gap in its row longer than this share of the cell (nor before its first
dash or after its last); see :func:`_even`. A faint grid line that the ink threshold broke into
pieces leaves gaps of up to 15 patch px (0.23 of a cell: held-out k700-0293, whose labels lost
their "1" to the pieces at 0.2), the label beside a wall piece of k9090-0230 one of 25 px."""


def _even(inside: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``rows`` (bool per row) left only where the row of ``inside`` (the cell's columns of an ink
    mask) runs across the cell with no gap over DASH_GAP of a cell, as a dotted line's does. Near
    the top line a label's row beside a piece of the next cell's wall (the grid found a pixel or two
    off) covered as much of the row as a dotted line, in a run as thin, and was cut out of the label
    (hand-held k9090-0230: "120×" lost its middle rows and read "5"); its gap between label and
    wall is wide."""
    even = np.zeros(len(inside), bool)
    picked = np.flatnonzero(rows)
    if not picked.size:
        return even
    padded = np.ones((len(picked), inside.shape[1] + 2), bool)
    padded[:, 1:-1] = inside[picked]
    # Each pixel's distance from the last ink at or before it, in its row; the longest is the gap.
    column = np.arange(padded.shape[1])
    last_ink = np.maximum.accumulate(np.where(padded, column, 0), axis=1)
    even[picked] = (column - last_ink).max(axis=1) <= DASH_GAP * CELL
    return even


def _dash_lines(band: np.ndarray, covered: np.ndarray, through: np.ndarray, even: np.ndarray) -> np.ndarray:
    """Indices of the rows (columns) taken as a dotted line: ``covered`` ones in ``band`` that are
    either ``even`` (see :func:`_even`) in a run of covered rows at most DASH_THICK of a cell thick,
    or inked ``through`` into the neighbouring cells on both sides. A wide bold label printed just
    under the line covers as much of its top rows, but in a run as tall as its digits and inside
    its cell."""
    thin = np.zeros_like(covered)
    for start, stop in _true_runs(covered):
        thin[start:stop] = stop - start <= DASH_THICK * CELL
    return np.flatnonzero(band & covered & ((thin & even) | through))


def _true_runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """``(start, stop)`` of each run of true values in the bool array ``flags``, ``stop`` exclusive."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], flags.astype(np.int8), [0]])))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


GLYPH_OVER_LINE = 0.15
"""A pixel the line mask took that is this much darker than its line is along the line's length
is a glyph's stroke touching the line, not the line's own edge (see :func:`_glyph_edge`)."""
ALONG = CELL // 3
"""Rows either side over which a vertical line's darkness is taken (its median there)."""


def _glyph_edge(dark: np.ndarray, vertical: np.ndarray, ink: np.ndarray, high: float) -> np.ndarray:
    """The pixels of the ``vertical`` lines' mask (left half of the cell) that belong to a glyph
    touching the line: the line mask is grown by a pixel and takes a faint line's edge as line,
    which can eat the first column of a digit printed against the cell's left wall (a 6 whose left
    stroke goes reads as 5). A line's darkness is about constant along it (the median of its column
    over ALONG rows either side); a pixel clearly darker than that, and within two pixels of ink
    outside the mask, is given back (joined any further, line edges of photographed pages come back
    too). Horizontal lines are left alone: on a curled page they drift across rows and their edge
    would come back along a label's whole top."""
    spare = vertical & (dark > high)
    spare[:, MARGIN + CELL // 2:] = False
    cols = np.flatnonzero(spare.any(axis=0))
    if not cols.size:
        return spare
    padded = cv2.copyMakeBorder(np.ascontiguousarray(dark[:, cols]), ALONG, ALONG, 0, 0, cv2.BORDER_REPLICATE)
    along = np.median(np.lib.stride_tricks.sliding_window_view(padded, 2 * ALONG + 1, axis=0), axis=-1)
    spare[:, cols] &= dark[:, cols] > along + GLYPH_OVER_LINE
    grown = np.zeros_like(spare)
    for _ in range(2):
        grown = spare & cv2.dilate((ink | grown).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return grown


def _line_kernels(run: int) -> list[np.ndarray]:
    """Horizontal and vertical 1-px kernels ``run`` long, straight and slanted by one pixel, in
    pairs: horizontal, then the same kernel turned vertical."""
    kernels = []
    for slant in (0, 1, -1):
        k = np.zeros((2 if slant else 1, run), np.uint8)
        if slant:
            half = run // 2
            k[0 if slant > 0 else 1, :half] = 1
            k[1 if slant > 0 else 0, half:] = 1
        else:
            k[0, :] = 1
        kernels += [k, np.ascontiguousarray(k.T)]
    return kernels


def ink_components(dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Connected ink components of a patch after wall removal; ink is darker than about half the
    corner's darkest text, clamped to INK_WEAK..INK_THRESHOLD: ``(labels, stats)`` as OpenCV gives
    them, with dotted-line dashes, specks (area < 3) and blobs centred outside the cell (line
    crossings) given label 0."""
    labels, stats, _ = _ink_and_lines(dark)
    return labels, stats


ENTRY_HEIGHT, ENTRY_WIDTH, ENTRY_TOP = 0.35, 0.15, 0.25
"""A component at least this tall and wide (in cells) that starts this far below the cell's top
line is a big written digit, not clue text."""


def _corner_peaks(dark: np.ndarray) -> tuple[float, float, np.ndarray]:
    """``(peak, label_peak, entry)``: the darkest text in the cell's top-left corner (its 99.5%
    quantile), the same without a big written digit that reaches up into it, and that digit's
    pixels. A light grey clue label beside a pen digit was thresholded at the pen's darkness, fell
    apart into specks and was not found (held-out hand-held app photos, whose cage walls were then
    settled wrongly around the cage that seemed to have no clue); the digit itself keeps the
    threshold it had (written digits are read from the same ink)."""
    corner = (slice(MARGIN + 4, MARGIN + CELL // 2), slice(MARGIN + 4, MARGIN + CELL - 4))
    values = dark[corner]
    peak = float(quantile(values, 0.995))
    count, labels, stats, _ = cv2.connectedComponentsWithStats((dark > INK_WEAK).astype(np.uint8), connectivity=8)
    big = [i for i in range(1, count) if stats[i, 3] >= ENTRY_HEIGHT * CELL and stats[i, 2] >= ENTRY_WIDTH * CELL
           and stats[i, 1] >= MARGIN + ENTRY_TOP * CELL]
    if not big:
        return peak, peak, np.zeros(dark.shape, bool)
    entry = np.isin(labels, big)
    rest = values[~entry[corner]]
    return peak, (float(quantile(rest, 0.995)) if rest.size else 0.0), entry


def _ink_and_lines(dark: np.ndarray, inset: int = 0, left_only: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`ink_components` and the mask of the wall and grid-line pixels it removed; with an
    ``inset`` only ink at least that many pixels inside the cell lines (``left_only``: inside the
    left line) is kept."""
    peak, label_peak, entry = _corner_peaks(dark)
    high = max(INK_WEAK, min(INK_THRESHOLD, 0.55 * peak))
    label_high = max(INK_WEAK, min(INK_THRESHOLD, 0.55 * label_peak))
    inked = dark > high
    if label_high < high:  # a fainter label beside a big written digit: its own threshold, the digit's unchanged
        top = slice(None, MARGIN + CELL // 2)
        inked[top] |= (dark[top] > label_high) & ~entry[top]
    lines, vertical = _line_mask(inked, dark > INK_WEAK)
    mask = inked & ~lines
    mask |= _glyph_edge(dark, vertical, mask, high)
    if inset:
        inside = np.zeros_like(mask)
        if left_only:
            inside[:, MARGIN + inset:] = True
        else:
            inside[MARGIN + inset:MARGIN + CELL - inset, MARGIN + inset:MARGIN + CELL - inset] = True
        mask &= inside
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    edge_lo, edge_hi = MARGIN + 4, MARGIN + CELL - 4
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        cx, cy = x + w / 2, y + h / 2
        thin = min(w, h) <= 3 and area < 14
        near_edge = cx < edge_lo or cy < edge_lo or cx > edge_hi or cy > edge_hi
        outside = cx < MARGIN or cy < MARGIN or cx > MARGIN + CELL or cy > MARGIN + CELL
        if area < 3 or (thin and near_edge) or outside:
            labels[labels == i] = 0
            stats[i, 4] = 0
    return labels, stats, lines


@dataclass(frozen=True, eq=False)
class Label:
    """A clue label cut into glyphs, left to right."""

    glyphs: tuple[Glyph, ...]
    top: float
    """Row where its digits start (patch pixels)."""
    height: float
    """Digit height (patch pixels)."""
    dark: np.ndarray
    """The cell's darkness patch it was cut from."""
    anchor_strength: float
    """0..1: how clearly the first glyph looks like clue text (height and contrast); 0 for a label
    only assumed at the puzzle's usual place (:func:`assumed_label`)."""
    ink: np.ndarray
    """The patch's darkness with wall and grid-line pixels set to zero (faint strokes and soft
    edges kept): what :mod:`vision.label_reader` reads. The ink the line mask takes from a glyph is
    not what limits the reader (fifty-third round, 7,840 held-out hand-held and hard labels): labels
    with no masked pixel inside their glyphs' box read right 92.6 / 79.3 % (hand-held / hard), those
    with 10 or more 94.4 / 82.9 %, so a line mask that subtracts the line instead (and a refit of the
    label network for it) was not tried."""
    fine: tuple[np.ndarray, int] | None = None
    """``(ink, f)``: the same ink cut from the photo at ``f`` times the patch's resolution
    (:func:`with_fine_ink`), which :mod:`vision.label_reader` reads instead when present."""

    @property
    def assumed(self) -> bool:
        """Whether the label was only assumed at the usual place, not found."""
        return self.anchor_strength == 0.0


ANCHOR_TOP = 0.3
"""A label's first glyph starts above this share of the cell below its top line (0.22 before: on
curled pages labels sit lower; cage partitions exact with true corners 146 → 149 of 180 tuning
photos, 249 → 252 of 300 held out, labels not found on hard newspaper photos 10% → 7%)."""


ANCHOR_ABOVE = 2
"""A label's first glyph starts at most this many patch pixels above the cell's top line: the
line's ink is removed, so a mark crossing it — the tail of a pen digit from the cell above — is not
a label printed in this cell."""
ANCHOR_RIGHT = 3
"""A label's first glyph is centred at least this many patch pixels right of the cell's left line:
labels are printed inside the cell, and a mark centred on the line is what is left of a line
crossing (held-out hand-held k9090-0050: such a speck 9 px tall was the label's first glyph, the
"12×" beside it, taller, was not on its text line, and the label read "1"). 2 before: a speck 4 px
wide centred 2 px in, where a hard shadow's edge meets the lines, was taken for a label and "one
clue per cage" split a cage (hard k6161-0080). At 3, over seeds 8383, 7474, 6161, 5252 and 3131
hard 312 → 314 boards exact, none lost."""
SMALL_LABEL, PLACE_SLACK = 0.6, 0.5
"""A label under SMALL_LABEL of the puzzle's usual label height, or starting more than PLACE_SLACK
of it above or below the usual top, is looked for again at the usual place (see
:func:`_label_choices`): a speck left of the real label — a grid line's remains, the tail of a pen
digit from the cell above — had been taken for its first glyph and the label read as that speck."""
PLACE_TRUST = 0.6
"""See :func:`_trusted`."""
OTHER_SHARE = 0.3
"""Weight of the texts of the label not kept when two were read in a cell (see :func:`_merged`)."""
LABEL_INSET = 3
"""Patch pixels inside the cell lines kept when a label is looked for a second time (see
:func:`label_glyphs`)."""


def _in_place(top: float, height: float, near: tuple[float, float]) -> bool:
    """Whether text starting at ``top`` and ``height`` tall (patch pixels) sits at the puzzle's
    usual label place ``near = (top, height)``: at least SMALL_LABEL of its height, its top within
    PLACE_SLACK heights."""
    return height >= SMALL_LABEL * near[1] and abs(top - near[0]) <= PLACE_SLACK * near[1]


def _line_members(stats: np.ndarray, near: tuple[float, float] | None = None) -> list[int] | None:
    """Component indices of the clue label's text line, left to right, or None when no component
    starts a label near the cell's top-left — with ``near = (top, height)``, none starting within
    PLACE_SLACK label-heights of that top and at least SMALL_LABEL of that height tall."""
    order = [i for i in np.argsort(stats[:, 0], kind="stable") if i > 0 and stats[i, 4] > 0]
    anchor = None
    for i in order:
        x, y, w, h, _ = stats[i]
        if near is not None and not _in_place(y, h, near):
            continue
        if (MARGIN - ANCHOR_ABOVE <= y < MARGIN + ANCHOR_TOP * CELL and y + h > MARGIN + 1
                and 0.08 * CELL <= h <= 0.45 * CELL and MARGIN - 2 <= x < MARGIN + 0.32 * CELL and w < 0.85 * CELL
                and x + w / 2 >= MARGIN + ANCHOR_RIGHT):
            anchor = i
            break
    if anchor is None:
        return None
    top, height = stats[anchor, 1], stats[anchor, 3]
    bottom, right = top + height, stats[anchor, 0] + stats[anchor, 2]
    members = [anchor]
    for i in order:
        x, y, w, h, _ = stats[i]
        if i == anchor or x < stats[anchor, 0]:
            continue
        cy = y + h / 2
        if (top - 0.35 * height <= cy <= bottom + 0.35 * height and y >= top - 0.6 * height
                and y + h <= bottom + 0.6 * height and x <= right + 0.9 * height and x < MARGIN + CELL):
            members.append(i)
            right = max(right, x + w)
    return members


def _group(members: list[int], stats: np.ndarray) -> list[list[int]]:
    """Components merged into glyphs where their x ranges overlap by 30% of the narrower one."""
    groups: list[list[int]] = []
    for i in sorted(members, key=lambda j: stats[j, 0]):
        x, w = stats[i, 0], stats[i, 2]
        if groups:
            gx0 = min(stats[j, 0] for j in groups[-1])
            gx1 = max(stats[j, 0] + stats[j, 2] for j in groups[-1])
            overlap = min(gx1, x + w) - max(gx0, x)
            if overlap >= 0.3 * min(w, gx1 - gx0):
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


def _glyph(ids: list[int], labels: np.ndarray, stats: np.ndarray, dark: np.ndarray,
           cols: tuple[int, int] | None = None) -> Glyph:
    """The glyph made of components ``ids`` (optionally only columns ``cols`` of them)."""
    x0 = min(stats[i, 0] for i in ids)
    x1 = max(stats[i, 0] + stats[i, 2] for i in ids)
    if cols:
        x0, x1 = max(x0, cols[0]), min(x1, cols[1])
    mask = np.isin(labels[:, x0:x1], ids)
    rows = np.flatnonzero(mask.any(1))
    y0, y1 = (int(rows[0]), int(rows[-1]) + 1) if len(rows) else (0, 1)
    ink = np.where(mask[y0:y1], dark[y0:y1, x0:x1], 0).astype(np.float32)
    return Glyph((int(x0), y0, int(x1), y1), ink, len(ids))


def _split_wide(ids: list[int], labels, stats, dark, height: float,
                cols: tuple[int, int] | None = None) -> list[Glyph]:
    """One glyph, or several when it is wider than a digit (touching glyphs): a clear valley in the
    darkest-pixel-per-column profile is cut and both halves are split again; a blob with no clear
    valley but room for ``k`` glyphs of about DIGIT_ASPECT·height is cut at the ``k - 1`` lightest
    columns near its even divisions."""
    glyph = _glyph(ids, labels, stats, dark, cols)
    x0, _, x1, _ = glyph.box
    width = x1 - x0
    if width <= 0.85 * height or width < 6:
        return [glyph]
    profile = glyph.ink.max(0)
    lo, hi = int(0.2 * width), int(np.ceil(0.8 * width))
    cut = lo + int(np.argmin(profile[lo:hi]))
    if profile[cut] < 0.6 * min(profile[:cut].max(), profile[cut + 1:].max()):
        return (_split_wide(ids, labels, stats, dark, height, (x0, x0 + cut))
                + _split_wide(ids, labels, stats, dark, height, (x0 + cut, x1)))
    pieces = int(round(width / (DIGIT_ASPECT * height)))
    if pieces < 2:
        return [glyph]
    mass = glyph.ink.sum(0)
    step, reach = width / pieces, max(1, int(0.25 * width / pieces))
    cuts = []
    for i in range(1, pieces):
        guess = int(round(i * step))
        a, b = max(1, guess - reach), min(width - 1, guess + reach + 1)
        cuts.append(a + int(np.argmin(mass[a:b])))
    bounds = [0] + sorted(set(cuts)) + [width]
    return [_glyph(ids, labels, stats, dark, (x0 + a, x0 + b)) for a, b in zip(bounds, bounds[1:]) if b - a >= 2]


def label_glyphs(grid: GridFind, cell: Cell, dark: np.ndarray | None = None,
                 near: tuple[float, float] | None = None) -> Label | None:
    """The clue label in ``cell``'s top-left corner cut into glyphs, or None when there is none;
    with ``near = (top, height)`` (patch pixels: where this puzzle prints its labels) only a label
    starting there is taken. From ``dark`` when given, else from the grid's cell (worked out once
    per grid, cell and ``near``)."""
    if dark is None:
        return _memo(grid, ("label", cell, near),
                     lambda: _label(cell_patch(grid, cell), cell_ink(grid, cell), near)
                     or _shadowed_label(grid, cell, near))
    return _label(dark, _ink_and_lines(dark), near)


def _shadowed_label(grid: GridFind, cell: Cell, near: tuple[float, float] | None) -> Label | None:
    """The label of a cell whose top-left corner lies under a shadow's edge, or None: when the
    patch's ink holds a blob where a label starts that is too big to be one (the dilation's lit
    paper reaches into the shadow, and the shadow with the label in it comes out as one blob of
    ink), the label is looked for on the grey closing's patch, which follows the shadow (see
    :func:`_cell_patch`). Held-out hard k9090-0125: "840" and "5" at a shadow's edge were not
    found, and "one clue per cage" took a wall away."""
    _, stats, _ = cell_ink(grid, cell)
    if not any(area and x < MARGIN + 0.32 * CELL and y < MARGIN + ANCHOR_TOP * CELL
               and (h > 0.45 * CELL or w >= 0.85 * CELL) for x, y, w, h, area in stats[1:]):
        return None
    closed = closed_patch(grid, cell)
    return _label(closed, closed_ink(grid, cell), near)


def cell_ink(grid: GridFind, cell: Cell) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`ink_components` of the grid's cell and the line mask (see :func:`_ink_and_lines`),
    worked out once per grid and cell; read-only."""
    return _memo(grid, ("ink", cell), lambda: tuple(map(_read_only, _ink_and_lines(cell_patch(grid, cell)))))


def closed_ink(grid: GridFind, cell: Cell) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cell_ink` of the closing's patch (:func:`closed_patch`), worked out once per grid and
    cell; read-only. A shadow's edge or a narrow shadow's band is no ink there."""
    return _memo(grid, ("closed ink", cell), lambda: tuple(map(_read_only, _ink_and_lines(closed_patch(grid, cell)))))


def _joined_on_left(stats: np.ndarray, members: list[int]) -> bool:
    """Whether a blob that starts outside the cell's left line reaches in up to the label's first
    glyph, beside it: a first glyph printed against the wall, joined to what is left of the wall's
    blurred edge (clean web k8383-0191: "21+" and "16+" were cut out as "1+" and "6+", and
    Tesseract, given the "1" alone, overruled the reader's sure "21+")."""
    x, y, w, h = stats[members[0], :4]
    return any(i not in members and area > 0 and bx < MARGIN - 2 and bx + bw > MARGIN + 1
               and bx + bw >= x - 0.9 * h and by < y + h and by + bh > y and bh < 0.45 * CELL
               for i, (bx, by, bw, bh, area) in enumerate(stats) if i > 0)


FINE_MAX = 4
"""The finest cut of a label's ink from the photo, in multiples of the patch's resolution."""


def with_fine_ink(grid: GridFind, cell: Cell, label: Label | None) -> Label | None:
    """``label`` with its ink cut again from the photo at ``f`` times the patch's resolution (``f``
    the photo's pixels per cell over CELL, at most FINE_MAX) when the photo has at least twice the
    patch's: a phone photo holds a cell in 150–500 pixels, the patch in 64, and a newspaper label
    an eighth of a cell tall comes out 8 px in the patch against 40 in the photo. Wall and grid-line
    pixels are left out as in ``label.ink``. Unchanged when the photo is not at hand or not that
    fine (every photo of the small-photo corpora)."""
    if label is None or grid.source is None:
        return label
    f = min(FINE_MAX, int(photo_cell_px(grid) // CELL))
    if f < 2:
        return label
    # A label is cut from the cell's patch or, at a shadow's edge, from its closing's (_shadowed_label).
    closing = label.dark is not cell_patch(grid, cell)
    dark = _memo(grid, ("fine", cell, f, closing), lambda: _read_only(_fine_patch(grid, cell, f, closing)))
    kept = ~((label.ink == 0) & (label.dark > 0))            # not a wall or grid-line pixel
    kept = cv2.resize(kept.astype(np.uint8), (PATCH * f, PATCH * f), interpolation=cv2.INTER_NEAREST)
    return replace(label, fine=(np.where(kept > 0, dark, 0).astype(np.float32), f))


def _fine_patch(grid: GridFind, cell: Cell, f: int, closing: bool = False) -> np.ndarray:
    """The cell's darkness patch as :func:`_cell_patch` makes it (with ``closing`` or not), at ``f``
    times its resolution, sampled from ``grid.source`` through the straightening map and the
    homography."""
    x0, y0, x1, y1 = grid.cell_box(cell)
    sx, sy = CELL / max(1.0, x1 - x0), CELL / max(1.0, y1 - y0)
    u = (np.arange(PATCH * f, dtype=np.float32) + 0.5) / f - 0.5
    px, py = np.meshgrid(u, u)
    xr, yr = (px - MARGIN) / sx + x0, (py - MARGIN) / sy + y0
    if grid.bend is not None:
        map_x, map_y = grid.bend
        xr, yr = (cv2.remap(m, xr, yr, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) for m in (map_x, map_y))
    points = np.stack([xr, yr], axis=-1).reshape(-1, 1, 2).astype(np.float64)
    photo = cv2.perspectiveTransform(points, np.linalg.inv(grid.homography)).reshape(PATCH * f, PATCH * f, 2)
    patch = cv2.remap(grid.source, photo[..., 0].astype(np.float32), photo[..., 1].astype(np.float32),
                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    patch = to_grey(patch).astype(np.float32)
    # The paper as _cell_patch estimates it, at the patch's resolution (a fifth of the time), enlarged.
    small = cv2.resize(patch, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    paper = cv2.resize(_paper(small, closing), (PATCH * f, PATCH * f), interpolation=cv2.INTER_LINEAR)
    return np.clip(1 - patch / np.maximum(paper, 1), 0, 1)


def _label(dark: np.ndarray, ink: tuple[np.ndarray, np.ndarray, np.ndarray],
           near: tuple[float, float] | None = None) -> Label | None:
    """:func:`label_glyphs` of a patch whose :func:`_ink_and_lines` is ``ink``."""
    labels, stats, lines = ink
    members = _line_members(stats, near)
    joined = bool(members) and _joined_on_left(stats, members)
    if not members or joined:
        # The blurred edge of a wall left beside the label joins it, or its first glyph, into one
        # big blob: cut the cell's border band (the left one, beside a first glyph) off and look again.
        labels_in, stats_in, lines_in = _ink_and_lines(dark, LABEL_INSET, left_only=joined)
        again = _line_members(stats_in, near)
        if again and (not members or stats_in[again[0], 0] < stats[members[0], 0]):
            labels, stats, lines, members = labels_in, stats_in, lines_in, again
    if not members:
        return None
    a = members[0]
    # Digits are the members about as tall as the first glyph and starting no lower than 0.3 of
    # its height below its top: an operator is centred lower (hard k6161-0079: a faint "1" cut to
    # its top 10 px, the "×" 7 px tall, the label measured 10 px instead of the "00"'s 17).
    digit_like = [i for i in members if stats[i, 3] >= 0.7 * stats[a, 3]
                  and stats[i, 1] <= stats[a, 1] + 0.3 * stats[a, 3]]
    height = float(np.median(stats[digit_like, 3]))
    top = float(np.median(stats[digit_like, 1]))
    glyphs = [g for ids in _group(members, stats) for g in _split_wide(ids, labels, stats, dark, height)]
    contrast = float(np.percentile(dark[labels == a], 90)) if (labels == a).any() else 0.0
    strength = float(np.clip(contrast / 0.5, 0, 1) * np.clip(stats[a, 3] / (0.12 * CELL), 0, 1))
    return Label(tuple(glyphs), top, height, dark, strength, np.where(lines, 0, dark).astype(np.float32))


# ---------------------------------------------------------------------------------------------
# Presence
# ---------------------------------------------------------------------------------------------

FADED = 0.8
"""A label's first glyph whose darkness over the closing's paper is under this share of its darkness
over the dilation's is looked for again on the closing's patch (:func:`clue_presence`). A printed
glyph keeps most of it (median 0.95; a tenth of the labels on 60 photos fall under 0.8), a shadow's
edge little. Looking again at every label found the same partitions (and 0.7 one fewer on seed
700), but took 0.11 s a photo more than this (0.03 s): seed 9090's p95 went over the time goal."""


def _first_glyph_kept(label: Label, closed: np.ndarray) -> float:
    """The share of its ink ``label``'s first glyph keeps on the ``closed`` patch (faded under FADED)."""
    x0, y0, _, _ = label.glyphs[0].box
    return kept_on_closing(closed, label.glyphs[0].ink, (y0, x0))


BIG_KEPT = 0.45
"""A first glyph at least BIG_GLYPH tall that keeps this share of its ink over the closing's paper
and WIDER_KEPT over a wider closing's is not faded (:func:`_kept_on_wider_closing`)."""
BIG_GLYPH = 11
"""See BIG_KEPT. It was CLOSING (15) until the seventy-third round, and a faded glyph the closing's
patch still showed a label in was looked for again there: hand-held app k5151-0049 blurs its
"5376×" and "2352×" (glyphs 14–15 px tall in the patch) into bars the closing takes for paper
(kept 0.62–0.67 of their ink, over 1.0 on the wider closing), so one was lost and the other found
again as a stub of one glyph (presence 0.64), and "one clue per cage" joined three cages into one.
Partitions replayed on the found grids of seeds 8383, 9494, 6161 and 5151 (1,200 photos; the
presences moved on 203) and the pen sets (200; on 47): that partition won, none lost (on the pen
sets the same with 8 or 13 px); with :data:`vision.cages.PHOTO_EVEN_BELOW` (which see) none lost on older photos."""
WIDER_KEPT = 0.7
"""See BIG_KEPT. It was FADED (0.8) in the sixty-fifth round: hard app k6161-0223 (both corpora) blurs
its "24×" into a "2" 16 px tall in the patch that keeps 0.64 on the closing and 0.785 over the wider
one, so it was taken for a shadow's edge and "one clue per cage" joined its cage to the one beside
it. Partitions replayed on the cached grids of both corpora (4,350): at 0.75, 0.7 and 0.6 that
board's partition won in each corpus and none lost (sixty-sixth round)."""


def _kept_on_wider_closing(grid: GridFind, cell: Cell, label: Label, kept: float) -> bool:
    """Whether ``label``'s first glyph is at least BIG_GLYPH tall, kept BIG_KEPT of its ink on the
    closing's patch (``kept``, :func:`_first_glyph_kept`) and keeps WIDER_KEPT over a closing whose
    square is twice the glyph's height. The closing takes the inside of a glyph that big and bold
    for paper (its ink holds a CLOSING square), so the glyph keeps only its rim there; a shadow's
    edge keeps far less (on the eight photos whose partitions a wider closing alone moved, the
    shadows' edges kept 0.04–0.31, such labels 0.6–0.75), and a wider closing keeps most of the
    labels. Hand-held app k5252-0175: "28×", 17 px tall in the patch, kept 0.64 of its ink, was
    looked for again on the closing's patch and not found, and "one clue per cage" joined its cage
    to the one beside it."""
    glyph = label.glyphs[0]
    x0, y0, _, y1 = glyph.box
    if y1 - y0 < BIG_GLYPH or kept < BIG_KEPT:
        return False
    wider = _cell_patch(grid, cell, closing=True, square=2 * (y1 - y0) + 1)
    return kept_on_closing(wider, glyph.ink, (y0, x0)) >= WIDER_KEPT


def kept_on_closing(closed: np.ndarray, ink: np.ndarray, corner: tuple[int, int]) -> float:
    """The share of a glyph's darkness (``ink``, zero off the glyph, cut at ``corner`` = (row,
    column) of the cell patch) that the same pixels keep on the ``closed`` patch
    (:func:`closed_patch`; 0..1, and 1 for an empty glyph): a printed or written stroke keeps
    most of it, a shadow's edge little."""
    y, x = corner
    on = ink > 0
    total = float(ink[on].sum())
    if total <= 0:
        return 1.0
    return float(closed[y:y + ink.shape[0], x:x + ink.shape[1]][on].sum()) / total


def clue_presence(grid: GridFind) -> dict[Cell, float]:
    """For every cell, the probability (0..1) that a clue label is printed in its top-left corner.
    Cheap: segmentation only, no OCR and no classifier.

    A label whose first glyph fades over a paper estimate that follows a shadow's edge (a grey
    closing, :func:`_cell_patch`; see FADED) must be found again on that patch, which then
    gives its strength. Why: on hard photos the corner of a hard shadow in an empty cell was found
    as a label (the dilation's lit paper reaches into the shadow and its edge reads as ink), and
    settling the walls by "one clue per cage" then put a wall through a cage there. Held-out
    hard photos with true corners, cage partitions wrong: seed 9090 12 → 6 of 99, seed 700 15 → 8.
    The labels themselves are read on the first patch, the one the label model learnt from. A first
    glyph too big and bold for the closing is kept when a wider one keeps it
    (:func:`_kept_on_wider_closing`), whatever the closing's patch shows. A label found well below the puzzle's usual
    label place, smaller, with a glyph as small below it, is taken for pencil candidates
    (:data:`PENCIL_PRESENCE`)."""
    cells = [(r, c) for r in range(grid.size) for c in range(grid.size)]
    # Half the cells are worked out by the helper process when it runs (vision.helper): each cell's
    # look needs only the rectified grid and its lines, and what it works out (patches, ink, label)
    # comes back into this grid's store for the readers after.
    lean = replace(grid, source=None, bend=None)
    store = _PER_GRID.setdefault(grid, {})
    out = {}
    for cell, (probability, worked) in zip(cells, two_core_map(cell_presence, [(lean, cell) for cell in cells])):
        for key, value in worked.items():
            store.setdefault(key, _frozen(value))
        out[cell] = probability
    found = {cell: label for cell, p in out.items()
             if p >= 0.5 and (label := label_glyphs(grid, cell)) is not None}
    place = usual_place(list(found.values()))
    for cell, label in found.items():
        if _pencil_candidate(grid, cell, label, place[:2]):
            out[cell] = min(out[cell], PENCIL_PRESENCE)
    return out


PENCIL_LOWER, PENCIL_SMALLER, PENCIL_PRESENCE = 1.0, 0.9, 0.6
"""A label found more than PENCIL_LOWER of the puzzle's usual label height below its usual top,
under PENCIL_SMALLER of that height, with another glyph about as tall (0.6–1.4 of it) below it, is
the first of a cell's pencil candidates, and its presence is at most PENCIL_PRESENCE (under the
even point, :data:`vision.cages.PRESENT_EVEN`). Clean k7676-0072 of ``kensnap corpus --big``, a
newspaper 14×14: candidates in four-by-four slots put a "1" at the top-left slot of nine cells, 7 px
tall and 14 px below the labels' usual top (9 px tall), found as labels at 0.91–0.93, and "one
clue per cage" split their cages. Without the glyph below, a true label found that low on a hard
page (old-corpus hard k7474-0114, 27 / 7 px against 16 / 9) was lost; with it, partitions
replayed on the 4,350 cached grids of both corpora's sets: none won or lost."""


def _pencil_candidate(grid: GridFind, cell: Cell, label: Label, place: tuple[float, float]) -> bool:
    """Whether ``label``, found in ``cell``, is the first of pencil candidates (see PENCIL_LOWER);
    ``place`` is the puzzle's usual label ``(top, height)``."""
    if label.top - place[0] <= PENCIL_LOWER * place[1] or label.height >= PENCIL_SMALLER * place[1]:
        return False
    _, stats, _ = cell_ink(grid, cell)
    bottom = label.top + label.height
    return any(area and y >= bottom - 1 and 0.6 * label.height <= h <= 1.4 * label.height
               for x, y, w, h, area in stats[1:])


def cell_presence(grid: GridFind, cell: Cell) -> tuple[float, dict[tuple, object]]:
    """``(probability, worked)``: :func:`clue_presence` of one cell, and what was worked out for it
    on the way (this grid's store entries of the cell: its patch, ink, label, closing's patch)."""
    label = label_glyphs(grid, cell)
    if label is not None:
        closed = closed_patch(grid, cell)
        kept = _first_glyph_kept(label, closed)
        if kept < FADED and not _kept_on_wider_closing(grid, cell, label, kept):
            label = _label(closed, closed_ink(grid, cell))
    probability = 0.03 if label is None else float(0.5 + 0.47 * label.anchor_strength)
    return probability, {key: value for key, value in _PER_GRID.get(grid, {}).items() if key[1:2] == (cell,)}


def _frozen(value: object) -> object:
    """A store entry that came through a pipe (arrays made writable again) read-only as stored:
    an array, or a tuple of them; other entries (labels) as they are."""
    if isinstance(value, np.ndarray):
        return _read_only(value)
    if isinstance(value, tuple):
        return tuple(_frozen(v) for v in value)
    return value


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

def number_glyphs(label: Label, end: float | None = None) -> tuple[tuple[Glyph, ...], int]:
    """The glyphs of ``label`` before ``end`` (a patch x where its operator starts; None: all of
    them) and the patch x where they end: the glyphs whose middle is before ``end``, cut NUMBER_GAP
    label-heights before it when the last of them reaches past it (an operator joined to the last
    digit). All the glyphs when none is left of ``end``."""
    glyphs = label.glyphs
    x1 = max(g.box[2] for g in glyphs)
    if end is not None:
        before = tuple(g for g in glyphs if (g.box[0] + g.box[2]) / 2 < end)
        if before:
            glyphs = before
            x1 = max(min(g.box[0] for g in glyphs) + 1,
                     min(max(g.box[2] for g in glyphs), int(end - NUMBER_GAP * label.height)))
    return glyphs, x1


def label_crop(label: Label, end: float | None = None) -> np.ndarray:
    """The label as a grey image, dark ink on white, a little padded: the whole label, or with
    ``end`` only its :func:`number_glyphs` (where its operator starts: Tesseract reads the number)."""
    return _glyphs_crop(label, *number_glyphs(label, end))


def _glyphs_crop(label: Label, glyphs: tuple[Glyph, ...], x1: int) -> np.ndarray:
    """:func:`label_crop` of ``glyphs`` of ``label``, ending at patch column ``x1``."""
    x0 = min(g.box[0] for g in glyphs)
    y0 = int(max(0, label.top - 0.3 * label.height))
    y1 = int(min(PATCH, label.top + 1.3 * label.height))
    ink = np.zeros((y1 - y0, x1 - x0), np.float32)
    for g in glyphs:
        gx0, gy0, gx1, gy1 = g.box
        ys, ye = max(gy0, y0), min(gy1, y1)
        xe = min(gx1, x1)
        if ye > ys and xe > gx0:
            region = ink[ys - y0:ye - y0, gx0 - x0:xe - x0]
            np.maximum(region, g.ink[ys - gy0:ye - gy0, :xe - gx0], out=region)
    grey = (255 * (1 - np.clip(ink / 0.6, 0, 1))).astype(np.uint8)
    pad = max(2, int(0.3 * label.height))
    side = pad + int(CROP_SIDE * (grey.shape[0] + 2 * pad))
    return cv2.copyMakeBorder(grey, pad, pad, side, side, cv2.BORDER_CONSTANT, value=255)


def usual_place(found: list[Label]) -> tuple[float, float, int, int]:
    """Where this puzzle prints its labels, from the labels found: ``(top, height, x0, x1)`` in
    patch pixels (medians of top, height and left end; the widest label's right end), or a
    typical place when fewer than three were found."""
    if len(found) < 3:
        return MARGIN + 0.08 * CELL, 0.2 * CELL, MARGIN + 3, MARGIN + int(0.8 * CELL)
    x0 = int(np.median([min(g.box[0] for g in lab.glyphs) for lab in found]))
    x1 = max(max(g.box[2] for g in lab.glyphs) for lab in found)
    return (float(np.median([lab.top for lab in found])), float(np.median([lab.height for lab in found])),
            x0, max(x1, x0 + 4))


def assumed_label(dark: np.ndarray, top: float, height: float, x0: int, x1: int) -> Label:
    """A label at the puzzle's usual place in a cell where none was cut out (a shadow, a faint print
    under a dark entry digit or a blurred wall joined to it): one glyph spanning the place, its ink
    the patch's darkness without wall and grid-line pixels, for the whole-label reader to spell.
    Every cage has a clue, so this is only asked for cells that start a cage."""
    _, _, lines = _ink_and_lines(dark)
    ink = np.where(lines, 0, dark).astype(np.float32)
    y0, y1 = int(max(0, top)), int(min(PATCH, top + height))
    glyph = Glyph((x0, y0, x1, y1), ink[y0:y1, x0:x1], 1)
    return Label((glyph,), top, height, dark, 0.0, ink)


def _label_choices(grid: GridFind, cell: Cell, label: Label | None, place: tuple[float, float, int, int],
                   dark: np.ndarray) -> list[Label]:
    """The labels of ``cell`` worth reading: ``label`` when it sits at the puzzle's usual ``place``;
    when it is out of it (under SMALL_LABEL of its height, or its top more than PLACE_SLACK heights
    off) also the label found again at that place, or the :func:`assumed_label` there when none is;
    only the assumed label when no label was found. :func:`_read_choices` settles between two."""
    if label is None:
        return [assumed_label(dark, *place)]
    if _in_place(label.top, label.height, place[:2]):
        shaded = _cut_under_shadow(grid, cell, label, place)
        return [label] if shaded is None else [label, shaded]
    return [label, label_glyphs(grid, cell, near=place[:2]) or assumed_label(dark, *place)]


SHADED_TALL, SHADED_LOST = 1.25, 0.15
"""A label at the usual place at least SHADED_TALL of the usual height whose first glyph loses at
least SHADED_LOST of its ink on the closing's patch has a shadow's edge run into it
(:func:`_cut_under_shadow`). Seventy-fifth round: a scan of every labelled cell of 3,006 photos
(seeds 8383, 9494, 6161, 5151, 4141 and 3939, the 200 pen photos, dark KenKen seed 4242, the Kakuro
seeds 2727, 6868 and 6060, realdev, 12-megapixel seed 1313) found it on 102 photos (pen photos the
most: a pen's shadow has such an edge); read both ways, boards 6 won and 1 lost (hand-held pen
k6161-0022: its "144×", at the end of the pen, cut again read "5×", and the search gave up), 7 more right and
confident, none confident and wrong."""


def _cut_under_shadow(grid: GridFind, cell: Cell, label: Label, place: tuple[float, float, int, int]) -> Label | None:
    """The label cut again from the closing's patch (:func:`closed_patch`) when a hard shadow's
    edge runs into ``label`` (see SHADED_TALL), else None. The dilation's paper carries the lit page
    a few pixels into the shadow, so the shadow's edge comes out as ink; where it passes just above a
    label it joins the tops of its glyphs (hand-held web k3939-0005: the "2" of "24×" 21 px tall for
    the usual 15, its top a bar, read "5+"); the closing's paper follows the shadow and cuts the
    label clean. Read beside the first cut (:func:`_read_choices`), the surer reading is kept."""
    if label.assumed or label.dark is not cell_patch(grid, cell) or label.height < SHADED_TALL * place[1]:
        return None
    closed = closed_patch(grid, cell)
    glyph = label.glyphs[0]
    x0, y0, _, _ = glyph.box
    on = glyph.ink > 0
    box = (slice(y0, y0 + on.shape[0]), slice(x0, x0 + on.shape[1]))
    lost = on & (closed[box] < 0.5 * label.dark[box])
    if lost.sum() < SHADED_LOST * max(int(on.sum()), 1):
        return None
    again = _label(closed, closed_ink(grid, cell), place[:2])
    if again is None or [g.box for g in again.glyphs] == [g.box for g in label.glyphs]:
        return None
    return again


def read_labels(labels: list[Label], model, left: float | None = None,
                right: float | None = None) -> list[tuple[np.ndarray, list[tuple[str, float]]]]:
    """``(frames, texts)`` of each label: its frame probabilities by ``model``
    (:func:`vision.label_reader.label_frames`, strips from ``left`` toward ``right``) and the texts
    decoded from them (best first). The later half of the labels is decoded by the helper process
    when it runs (:func:`vision.helper.two_core_map`; the network shares its batches with it too)."""
    frames = label_frames(labels, model, left=left, right=right)
    return list(zip(frames, two_core_map(decode, [(f,) for f in frames])))


def _read_choices(choices: list[tuple[Cell, Label]], model, place: tuple[float, float, int, int],
                  labels: dict, frames: dict, found: dict) -> None:
    """Read the labels of ``choices`` (a cell's label at the usual place after the one found out of
    it) and update ``labels``, ``frames`` and ``found`` (decoded texts) per cell: a cell read
    before keeps its reading unless the new one is :func:`_trusted`, and the texts of both stay."""
    if not choices:
        return
    for (cell, lab), (f, texts_read) in zip(choices, read_labels([lab for _, lab in choices], model, place[2])):
        if cell not in labels:
            labels[cell], frames[cell], found[cell] = lab, f, texts_read
        elif _trusted(texts_read, found[cell], assumed=lab.assumed):
            labels[cell], frames[cell], found[cell] = lab, f, _merged(texts_read, found[cell])
        else:
            found[cell] = _merged(found[cell], texts_read)


SECOND_LOOK_BELOW = 0.6
"""A label whose best reading is less likely than this (or that read as nothing) is read again as the
label at the usual place (:func:`_second_look`); the surer reading is kept (:func:`_trusted`). A
grid line's remains on top of a clean "6720×" read as nothing with one pair of label networks and
as "2" (0.57) with another (clean k6161-0226)."""


def _unsure(texts: list[tuple[str, float]]) -> bool:
    """Whether a label's decoded texts (best first) are worth a :func:`_second_look`."""
    return not texts or texts[0][1] < SECOND_LOOK_BELOW


def _second_look(grid: GridFind, cell: Cell, label: Label, place: tuple[float, float, int, int],
                 dark: np.ndarray) -> Label | None:
    """Another label for a ``cell`` whose ``label`` read as nothing or unsure: the label found at the usual
    place when that is not the same one, else the label assumed there (None when ``label`` was
    already assumed)."""
    if label.assumed:
        return None
    there = label_glyphs(grid, cell, near=place[:2])
    if there is not None and [g.box for g in there.glyphs] != [g.box for g in label.glyphs]:
        return there
    return assumed_label(dark, *place)


def _operator_look(labels: dict, frames: dict, found: dict, model, place: tuple[float, float, int, int]) -> None:
    """In a puzzle whose labels mostly show an operator (not :func:`_printed_bare`, which the caller
    asks), read each label that read without one again with its strip reaching toward the puzzle's
    widest label end (:func:`vision.label_reader.label_strip`: a faint operator the label finder did
    not cut out, realdev declan 9×9 "9÷"); when that reading ends in an operator it is taken (the
    first one's texts kept at OTHER_SHARE). Updates ``frames`` and ``found``."""
    bare = [c for c, t in found.items() if t and not _shows_operator(t)]
    for cell, (f, again) in zip(bare, read_labels([labels[c] for c in bare], model, place[2], place[3])):
        if _shows_operator(again):
            frames[cell], found[cell] = f, _merged(again, found[cell])


def _printed_bare(texts: list[list[tuple[str, float]]]) -> bool:
    """Whether the labels' decoded texts (each best first) show the puzzle printed without operators:
    under NO_OPS_SHARE of them read best with one (the reader's own share, before Tesseract's)."""
    shown = sum(1 for t in texts if _shows_operator(t))
    return bool(texts) and shown < NO_OPS_SHARE * len(texts)


def _shows_operator(texts: list[tuple[str, float]]) -> bool:
    """Whether a label's decoded texts (best first) read best with an operator."""
    return bool(texts) and texts[0][0][-1] in OPERATORS


def _merged(kept: list[tuple[str, float]], other: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The texts of the reading ``kept`` with those of the ``other`` reading of the same cell at
    OTHER_SHARE of their probability (the solver may still need them), renormalised, best first."""
    total: dict[str, float] = {}
    for texts, share in ((kept, 1.0), (other, OTHER_SHARE)):
        for text, p in texts:
            total[text] = total.get(text, 0.0) + share * p
    mass = sum(total.values()) or 1.0
    return sorted(((t, p / mass) for t, p in total.items()), key=lambda tp: -tp[1])


def _trusted(at_place: list[tuple[str, float]], found: list[tuple[str, float]], assumed: bool) -> bool:
    """Whether the reading of a label at the usual place (decoded texts, best first) is taken over
    the reading of the label first found out of it: when it is surer than the other, or — when a
    label was found there, not just assumed — at least PLACE_TRUST sure (a grid line's remains read
    as a sure "1" must not win over a "60×" at 0.8; a long clue printed smaller than the others
    must not lose to the blur assumed at the usual place)."""
    p = at_place[0][1] if at_place else 0.0
    return p >= (found[0][1] if found else 0.0) or (not assumed and p >= PLACE_TRUST)


NO_OPS_SHARE = 0.3
"""Below this share of labels showing an operator, the puzzle is taken as printed without them
(a stray mark read as an operator in one or two labels does not count)."""
OCR_WEIGHT_PX = ((8.0, 0.15), (16.0, 0.6))
"""Tesseract's weight by the label's height in the photo's own pixels, interpolated between these
points (its share of a number is this times its confidence, :func:`combine_texts`): measured on
generated photos and realdev, tesseract reads big crisp labels in unfamiliar fonts better than our
classifier and small blurred ones worse. (On generated labels alone a lower weight would do: the
reader is right on 99.5% of those Tesseract is asked about, Tesseract on 87.6%; on realdev the
reader 91.6%, Tesseract 99.1%.)"""


def photo_cell_px(grid: GridFind) -> float:
    """A cell's side in the photo's own pixels (the mean of the grid's four sides over N)."""
    corners = np.asarray(grid.corners, float)
    return float(side_lengths(corners).mean()) / grid.size


def label_height_px(label: Label, grid: GridFind) -> float:
    """The label's digit height in the photo's own pixels."""
    return label.height * photo_cell_px(grid) / CELL


def labels_px(grid: GridFind, cells: Iterable[Cell]) -> float | None:
    """The median digit height, in the photo's own pixels, of the clue labels found in ``cells``'
    top-left corners (None when none is found there)."""
    heights = [label_height_px(label, grid) for cell in cells if (label := label_glyphs(grid, cell)) is not None]
    return float(np.median(heights)) if heights else None


def ocr_weight(label: Label, grid: GridFind) -> float:
    """Tesseract's share for this label (see OCR_WEIGHT_PX)."""
    (h0, w0), (h1, w1) = OCR_WEIGHT_PX
    return float(np.interp(label_height_px(label, grid), [h0, h1], [w0, w1]))
OCR_MIN_PX = 8.0
"""Labels shorter than this in the photo's own pixels are not sent to Tesseract: it reads them worse
than the whole-label reader and took most of the clue stage's time (0.20 of 0.25 s per image).
Measured on the 300 held-out photos: boards exact unchanged (61.7%), solved 65.0% → 65.7%,
median 1.03 → 1.00 s, p95 2.33 → 2.13 s."""
CROP_SIDE = 1.0
"""White added on each side of a crop for Tesseract, in crop heights: with room around it, it
reads a tight bold "15" as "415" and a "36" as "26" less often. On the realdev labels, with
the mosaic's taller text (:func:`vision.tesseract.build_mosaic`): numbers right 97.4 → 99.1%,
readings at 0.6 or more that overrule a right reader 4 → 0; on 2,650 generated clean and
hand-held labels 86.5 → 87.6% (the reader is right on 99.5% of those, 91.6% of realdev's)."""
NUMBER_GAP = 0.2
"""Where an operator joined to the last digit starts, the number's crop for Tesseract ends this many
label-heights before the operator's first frame (its frames mark the middle half of its ink)."""
OCR_CHARS = DIGITS + "+-x*/:"
OCR_OPS = {"+": "+", "-": "-", "x": "*", "*": "*", "/": "/", ":": "/"}


def _usable(text: str, glyphs: tuple[Glyph, ...]) -> bool:
    """Whether Tesseract's ``text`` for a label's number crop of ``glyphs`` is a reading to weigh: a
    number with at least as many digits as the crop has separate glyphs. Tesseract drops a "1" beside
    another ("11" read as "1" at 0.8, k7474-0037), and a reading that lost a digit is no evidence."""
    number, _ = split_text(text)
    return number is not None and len(str(number)) >= len(glyphs)


def split_text(text: str) -> tuple[int | None, str | None]:
    """Tesseract's label text as ``(number, op)``: the leading digits and the operator its first
    non-digit stands for (None for either when absent or unreadable)."""
    digits = ""
    for ch in text:
        if not ch.isdigit():
            break
        digits += ch
    rest = text[len(digits):]
    number = int(digits) if digits and not (len(digits) > 1 and digits[0] == "0") else None
    return number, (OCR_OPS.get(rest[0]) if rest else None)


def combine_texts(cell: Cell, texts: list[tuple[str, float]], ocr: tuple[str, float] | None, no_ops: bool,
                  ocr_weight: float = 0.25, keep: int = 8) -> ClueReading:
    """The alternatives ``(op, target, probability)`` of one label, best first, from the whole-label
    reader's ``texts`` (``('12*', p)``, see :mod:`vision.label_reader`) and tesseract's ``(text,
    confidence)``. Tesseract's share is ``ocr_weight`` × its confidence: its number gets that share
    and every number the reader read gets the rest of its own probability, so a reading Tesseract is
    unsure of moves little and one that agrees never lowers the reader's (a clean "5" Tesseract read
    at 0.0 had cut a sure reading to 0.48). Without a Tesseract reading (a label too small to ask)
    the reader's numbers get ``1 - ocr_weight`` of their probability. The operators of each number
    keep the reader's shares (tesseract's operator, else the label's, for a number only tesseract
    read). (Over 2,650 generated clean and hand-held labels the share rule left the same labels
    right and 14 more sure, none of them wrong; on realdev's 227, one more sure.)"""
    by_number: dict[int, dict[str, float]] = {}
    for text, p in texts:
        number, op = split_clue(text)
        ops = by_number.setdefault(number, {})
        ops[op or "="] = ops.get(op or "=", 0.0) + p
    if not by_number:
        return ClueReading(cell, ())
    t_number, t_op = split_text(ocr[0]) if ocr else (None, None)
    share = ocr_weight * ocr[1] if t_number is not None else ocr_weight
    numbers = {n: (1 - share) * sum(ops.values()) for n, ops in by_number.items()}
    if t_number is not None:
        numbers[t_number] = numbers.get(t_number, 0.0) + share
        if t_number not in by_number:
            label_ops: dict[str, float] = {}
            for ops in by_number.values():
                for op, p in ops.items():
                    label_ops[op] = label_ops.get(op, 0.0) + p
            by_number[t_number] = {t_op: 1.0} if t_op else label_ops
    alts = []
    for n, pn in numbers.items():
        ops = by_number[n]
        total = sum(ops.values()) or 1.0
        for op, po in ops.items():
            alts.append(("?" if no_ops else op, n, pn * po / total))
    alts.sort(key=lambda a: -a[2])
    merged: dict[tuple[str, int], float] = {}
    for op, n, p in alts:
        merged[(op, n)] = merged.get((op, n), 0.0) + p
    best = sorted(merged.items(), key=lambda kv: -kv[1])[:keep]
    return ClueReading(cell, tuple((op, n, float(p)) for (op, n), p in best))


def read_clues(grid: GridFind, cells: Iterable[Cell], *, engine: OcrEngine | None = None,
               ocr: str = "always", lone: Iterable[Cell] = ()) -> dict[Cell, ClueReading]:
    """Read the clue label in the top-left corner of each of ``cells``.

    Returns one :class:`ClueReading` per cell (empty alternatives when no label is seen there).
    Each label is read whole by :mod:`vision.label_reader`; with ``ocr='always'`` (not ``'never'``)
    the labels are also read by one batched tesseract run of ``engine`` (default
    :class:`TesseractEngine`), weighed by the label's height (see :func:`combine_texts`). When under
    NO_OPS_SHARE of the labels show an operator the puzzle is taken as printed without operators,
    every label is read as a bare number (:func:`vision.label_reader.without_operators`) and every
    op is ``'?'``; otherwise a label without an operator reads ``'='``. ``lone`` are the cells
    of one-cell cages, when known: they print no operator, so that share is measured over the other
    labels (a 3×3 with two given digits shows an operator on three labels of five at most). Raises
    TesseractMissing/TesseractFailed from the engine.
    """
    model = label_model()
    if ocr != "never":
        engine = engine or TesseractEngine()
        engine.prepare(OCR_CHARS)  # tesseract loads its model while the labels are found
    cells = list(cells)
    patches = {cell: cell_patch(grid, cell) for cell in cells}
    first = {cell: label_glyphs(grid, cell) for cell in cells}
    place = usual_place([lab for lab in first.values() if lab is not None])
    choices = {cell: [with_fine_ink(grid, cell, lab) for lab in _label_choices(grid, cell, lab, place, patches[cell])]
               for cell, lab in first.items()}
    labels, frames, found = {}, {}, {}
    _read_choices([(cell, lab) for cell, labs in choices.items() for lab in labs], model, place, labels, frames, found)
    # Every cell asked for starts a cage, so it carries a clue: a label found at the usual place that
    # read as nothing or unsure (a grid line's remains beside the label) is read again as the label there.
    _read_choices([(cell, again) for cell in cells if _unsure(found[cell]) and len(choices[cell]) == 1
                   and (again := with_fine_ink(grid, cell, _second_look(grid, cell, labels[cell], place,
                                                                       patches[cell]))) is not None],
                  model, place, labels, frames, found)
    lone = set(lone)
    counted = [c for c in found if c not in lone] or list(found)
    bare = _printed_bare([found[c] for c in counted])  # as the reader alone sees it, before Tesseract
    if not bare:  # the look only adds operators, so the puzzle still shows them after it
        _operator_look(labels, frames, found, model, place)
    texts: dict[Cell, tuple[str, float]] = {}
    asked = [c for c, t in found.items() if t and label_height_px(labels[c], grid) >= OCR_MIN_PX]
    if asked and ocr != "never":
        # Tesseract reads the number only: the stock model cannot read × ÷ −, and an operator it
        # misreads drags the whole word's confidence to nothing or joins the number ("13+" as "134").
        # In a puzzle the reader sees printed without operators it reads the whole label: a column
        # of a "7" read likeliest as "÷" would end the number before it ("17" read "1", 0.94).
        numbers = [number_glyphs(labels[c], None if bare else operator_start(labels[c], frames[c], place[2]))
                   for c in asked]
        readings = engine.read_lines([_glyphs_crop(labels[c], *number) for c, number in zip(asked, numbers)],
                                     whitelist=OCR_CHARS)
        texts = {c: (r.text, r.confidence) for c, r, (glyphs, _) in zip(asked, readings, numbers)
                 if _usable(r.text, glyphs)}
    with_op = sum(bool(_shows_operator(found[c]) or split_text(texts.get(c, ("", 0))[0])[1])
                  for c in counted)
    no_ops = bool(found) and with_op < NO_OPS_SHARE * len(counted)
    if no_ops:
        # What a label's frames read as an operator is then a stroke misread, most often a digit:
        # the label is decoded as a bare number (hand-held k8383-0264: the second "1" of a blurred
        # "11" read as "×", so "1×", taken as "1", at 0.76). On the 102 photos printed without
        # operators of seeds 8383, 9494 and 6161, boards exact 85 → 89, none confident and wrong.
        read = [c for c, t in found.items() if t]
        for c, as_number in zip(read, two_core_map(decode, [(without_operators(frames[c]),) for c in read])):
            found[c] = as_number or found[c]
    # Tesseract's share counts where it read a number; a label it was asked about and read nothing
    # usable in is the reader's alone (a lone clean "5" often comes back empty). A label too small to
    # ask keeps the smallest share as a discount: the reader is less sure of those than it says.
    weights = {c: 0.0 if c in asked and c not in texts else ocr_weight(labels[c], grid) for c in found}
    return {cell: (replace(combine_texts(cell, found[cell], texts.get(cell), no_ops, weights[cell]),
                           frames=frames[cell])
                   if found.get(cell) else ClueReading(cell, (), frames.get(cell)))
            for cell in cells}
