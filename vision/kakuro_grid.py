"""Find a Kakuro grid in a photo: its outline, its rows and columns, the cells square-on.

A Kakuro grid differs from a KenKen one in what makes its lines visible: between two white cells a
thin line, between a white and a dark cell (block or clue) the step from light to dark, between two
dark cells often nothing at all. So cell boundaries are found on *edge strength* (the brightness
gradient across the boundary, which both a thin line and a step give) rather than on line darkness,
and rows and columns are counted separately (the grid is R×C).

The algorithm, one function per step:

1. Candidates are the KenKen finder's (:func:`vision.grid.candidate_quads`): large quadrilaterals
   of ink, bright panels and long strokes in a working copy (when none passes, also the ink's blobs
   filled and opened — :func:`vision.grid.solid_quads`: an outline whose ink runs into a shadow's
   edge, a wall's or the page's text is one of them — and the candidates of a copy with its
   shadows flattened: :func:`flattened`); and the outline the whole KenKen
   finder settles on (:func:`vision.grid.find_grid`, which fits each side to the border's line, so
   it finds outlines a shadow or a light border breaks; probed always, not only when no candidate
   passes: under a shadow a part of the grid can pass for a smaller Kakuro).
2. :func:`probe` warps each candidate square and takes *boundary profiles*: for each column (row),
   the edge strength across it over horizontal (vertical) bands. :func:`lattice` finds the cell
   size from the profile's autocorrelation (a comb with missing teeth still repeats), the outer
   border as the strong teeth at the ends, and so the number of columns C (rows R).
3. A candidate is kept when it looks like a Kakuro: its first row and column mostly dark, a share of
   dark cells between DARK_SHARE bounds (a KenKen grid has none), and a diagonal in most dark cells
   that come right before a light one (:func:`clue_share`: a page of text has none) — or, blurred,
   in fewer of them but far clearer there than in the other cells (CLUE_SHARE_FAINT). The best
   score wins: contrast times the square root of the area, times EDGE_LIGHT for every light cell in
   the first row and column.
   When no candidate shows a Kakuro and the KenKen finder saw no grid, the largest candidates are
   *aligned* (:func:`aligned`) and probed again (not where it saw one: the shadows of hard KenKen
   photos give their grids a Kakuro's share of dark cells, 0.12–0.78, and aligning 16 candidates
   made a third of them 2–3.5 s slower, p95 2.5 → 3.9 s);
   the chosen candidate is aligned and probed again, and its lattice taken when it stands out
   CLEARER times more clearly than the first (a lesser gain is mostly the same lattice a pixel or
   two over, and read about as often better as worse). A candidate a few degrees off the
   grid's own outline (an app's panel with its keypad, a shadow's edge) smears each boundary over
   several columns of the profile, and the lattice is miscounted or not found at all. A part of the
   grid a shadow leaves lit can win; a candidate whose lattice holds the winner's as a part, with
   the grid's lines running on at its left or top, is taken instead (:func:`_whole`).
4. :func:`fitted_lines` fits the chosen lattice's count of lines to the grid's: a last row or
   column no boundary crosses (an app's light frame) is taken off, and a line the candidate cut off
   (a shadow's edge across the grid) is added where one more line of the grid's cells shows beyond
   the lattice (see :class:`_Beyond`); the outline is then probed again.
5. :func:`rectify_grid` warps the original image to C·CELL × R·CELL pixels and :func:`snap` moves
   each boundary to the strongest edge within a quarter of a cell (a weak or stray one onto a
   quadratic through the others).

Failure: :func:`find_kakuro_grid` raises :class:`~vision.errors.NoPuzzleFound`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .errors import NoPuzzleFound
from .grey import to_grey
from .helper import two_core_map
from .model import GridFind
from .orientation import in_photo_as_loaded
from .quantiles import percentile, quantile
from .grid import (candidate_quads, distinct, find_grid, flattened, locate_border, order_corners, pyramid, side_lengths,
                   solid_quads, square_homography, warp_square, work_copy)

PROBE_SIDE = 480
PROBE_MARGIN = 0.06
BANDS = 24
MIN_SIDE, MAX_SIDE = 3, 30
CELL = 64
"""Pixels per cell of the rectified grid."""
DARK_SHARE = (0.1, 0.9)
"""A Kakuro has between these shares of dark cells (blocks and clue cells)."""
EDGE_ROW_DARK = 0.5
"""Least share of dark cells (by tone or by a diagonal) in the first row and in the first column."""
CLUE_EDGE_DIAGONAL = 0.9
"""Diagonal strength above which a cell of the first row or column counts as a clue cell, whatever
its tone (:data:`vision.kakuro_cells.CLUE_DIAGONAL`; kdev clean: a light grey web Kakuro whose first
row passed for light)."""
CLUE_SHARE = 0.5
"""Least share of the clue places (dark cells before light ones) that show a diagonal."""
CLUE_SHARE_FAINT, CLUE_CONTRAST = 0.3, 3.0
"""A blurred or shadowed grid also passes with CLUE_SHARE_FAINT of its clue places showing a
diagonal when their upper-quartile diagonal strength is CLUE_CONTRAST times the other cells'
median (where a Kakuro has none; shadowed white cells taken for dark places pull the places'
median down); candidates on KenKen photos show at most a quarter."""
FIGURE_SHARE, FIGURE_STEP, FIGURE_HEIGHT, FIGURE_WIDTH = 0.7, 0.4, (0.15, 0.45), 0.45
"""A grid whose clue places show faint diagonals (between CLUE_SHARE_FAINT and CLUE_SHARE_SURE of
them) also passes when FIGURE_SHARE of them hold a light figure (:func:`_figure_share`)."""
CLUE_SHARE_SURE, CLUE_CONTRAST_LEAST = 0.7, 2.0
"""Unless CLUE_SHARE_SURE of the places show a diagonal, they must show it CLUE_CONTRAST_LEAST times
clearer than the other cells: a lattice over a column of newspaper text (a KenKen tuning photo) had
54% of its "places" showing one, 1.6 times clearer; the Kakuro grids the finder takes in kdev and
khard77 show theirs 2.5 to 120 times clearer (asking only below CLUE_SHARE_SURE spares most
photos the look at the other cells)."""
OTHER_CELLS = 16
"""About this many of the other cells (every k-th) are looked at for their median diagonal strength:
they are many, and every candidate with dark places is asked."""
SHADOW_REACH = 1
"""When the places of clue cells by the grid's white show too few diagonals, they are looked for
again with dark cells judged against the brightest cell at most this many rows and columns away
(:func:`dark_cells`): under a hard shadow over part of the grid, its white cells passed for dark
places without a diagonal. So are the first row and column when too few of them are dark
against the whole grid's white: a light grey fill in a corner brighter than the rest (kk5150-0071,
a hard web photo: fill 190–194 next to white 228, the grid's white 222 where light falls off)."""
CELL_ASPECT = 1.6
"""A lattice whose cells, measured along the candidate's sides in the photo, are more than this many
times wider than tall (or taller than wide) is no Kakuro: its cells are square (a tilt of 20°
foreshortens a side by 6%). On KenKen photos lattices of 10 × 3 and 13 × 4 cells passed the
other checks."""
FIT_REACH, FIT_GAIN = 0.4, 0.02
"""A lattice that does not stand out (MIN_CONTRAST) has its ends moved by up to FIT_REACH of a
cell (its count kept), where that makes its boundaries stand out from its cell middles by FIT_GAIN
more (edge strength units): a comb a pixel off per cell, or whose end tooth is an edge beside the
grid, lies half a cell off at its far end."""
NEXT_LINE = 0.25
"""How near (a share of a cell) an edge beyond a lattice's end tooth must lie to where the next tooth
would be for :func:`lattice` to end the lattice there instead."""
COMB_FRACTION = 0.4
"""Cell sizes whose comb stands out this share of the best compete; the smallest wins."""
EDGE_LIGHT = 0.8
"""A lattice's score is multiplied by this for every light cell in its first row and column, where a
Kakuro has none (its clue cells and blocks): a lattice run on over a row of light buttons below the
grid (kdev hand-held) loses to the grid's own."""
SQUARE_REACH = 1.25
"""When one direction's lattice has cells more than CELL_ASPECT times the other's, its comb is looked
for again among cell sizes within this factor of the other's: a hand-held app photo's rows had every
third boundary strong (white-to-block steps lined up there) and the three-row comb stood out 2.6
times more than the one-row comb (kk5150-0076, no Kakuro found)."""
FLAT_DIAGONALS = 3
"""Least cells of the first row and column showing a diagonal for :func:`flat_dark_cells` to be asked
(a Kakuro's first row and column are mostly clue cells; the held-out KenKen 300 read 9% slower,
median and p95 2.16 → 2.63 s, while every shadowed KenKen candidate was asked)."""
FLAT_DARK = 0.86
"""Tone (over the white level) under which a cell counts as dark in :func:`flat_dark_cells` (the
share :func:`dark_cells` asks)."""
MIDDLE = 0.4
"""Central share of a cell whose edges :func:`middle_edges` weighs against the lattice's boundaries;
a lattice's score is divided by that ratio when above 1 (eval sets kdev, keval, kfresh, kk77: 3
more grids found right, none lost)."""
CLEARER = 2.0
"""A candidate whose lattice stands out at least this many times more clearly (contrast) than the
best-scoring one's is taken instead: the score grows with the lattice's area, and a lattice run on
over a keypad or the page around the grid can outscore the grid's own at half its contrast (hard
kk9191-0042: a 15×9 lattice, contrast 0.29, over the 9×9 grid's 0.64). Over 1,500 photos (five
Kakuro sets, two KenKen sets) this changes that one pick; at 1.5 it also lost one (a 5×9 lattice at
1.3 times its 9×9 grid's contrast). Weighing contrast into every score instead (score × contrast)
gained that photo and lost another."""
MIN_CONTRAST = 0.08
"""Least contrast of a lattice's inner boundaries over its cell middles (edge strength units)."""
STRAY_DARK = 0.8
"""Least share of dark cells in the rest of a lattice's first column for light cells in its last row
to mark a keypad row, not the grid's (:func:`_keypad_row`)."""
KEYPAD_INK = 0.2
"""Least ink (:func:`_inked`) in each of those cells for them to hold a button's figure."""
KEYPAD_RUN, KEYPAD_SHARE, KEYPAD_BELOW, KEYPAD_FIRST, KEYPAD_HEIGHT, KEYPAD_EVEN = 4, 0.6, 0.5, (1, 2, 3), 0.2, 0.2
"""See :func:`_keypad_rows`."""
ALIGN_SIDE = 240
"""Side of the square a candidate is warped to while :func:`aligned` moves its corners."""
ALIGN_STEPS = (8, 4, 2, 1)
"""Corner moves :func:`aligned` tries, in working-copy pixels, coarse to fine."""
ALIGN_TRIES = 16
"""When no candidate shows a Kakuro, up to this many, largest first, are aligned and probed again
(hard kk8181-0132: the grid's own outline was the 11th largest of 16 candidates)."""
EXTEND_PX, EXTEND_SPAN, EXTEND_MOST = 24, 3, 2
"""Pixels per cell at which :class:`_Beyond` looks at a side of a lattice, over how many of its last
lines of cells, and the most lines :func:`fitted_lines` adds or takes off on a side."""
EXTEND_EDGE, EXTEND_HALF, EXTEND_CROSSING, EXTEND_FLOOR, EXTEND_CROSSED = 0.5, 0.7, 0.5, 0.05, 0.3
EXTEND_LIGHT, EXTEND_LIGHT_SHARE, EXTEND_CLUED = 0.86, 0.2, 0.5
"""See :meth:`_Beyond.shows_next` and :func:`fitted_lines`. A next line of big written digits and
clue diagonals makes edges half a cell on too: clean kk6868-0155's last column, 0.64 of the grid's
border one cell on, was not added at EXTEND_HALF 0.6 (fifty-eighth round: 0.7)."""
TRIM_SHARE, TRIM_CLEARER, TRIM_FLOOR = 0.5, 5.0, 0.1
""":func:`fitted_lines` takes off two or more, up to TRIM_SHARE, of a lattice's last columns (rows)
at its right (bottom) when boundaries cross each of them less than TRIM_FLOOR and cross the line
before them TRIM_CLEARER times more strongly than any of them (a candidate run on over the page in
a shadow beside the grid; see :func:`_uncrossed`)."""
WHOLE_SNAP, WHOLE_CONTRAST = 0.25, 0.5
"""A lattice that holds the chosen one as a part (:func:`_whole`) has points within WHOLE_SNAP of a
cell of the chosen one's corners, and shows its own WHOLE_CONTRAST as clearly at least."""
FIT_STEPS, FIT_ROUNDS, FIT_MOST, FIT_SAMPLES, FIT_LEAST, FIT_CAP = (2.0, 1.0, 0.5), 8, 0.5, 6, 0.25, 90
"""See :func:`lattice_fitted`."""
FAINT = 0.15
"""When no candidate's lattice stands out this clearly, the filled blobs and the flattened copy's
candidates are probed too, as when none shows a Kakuro (hard kk6464-0042: the outline of a
newspaper's 6×6 joined the crossword's below it, whose 10×6 lattice stood out 0.10; the 6×6's
filled blob stands out 0.47)."""
TURN_CLEARER = 2.0
"""How many times as often the clue places of a lattice turned (:func:`_turned`) must show diagonals
as those of the lattice as it lies for the turn to be taken (unless TURN_AGREE decides)."""
TURN_AGREE = 0.1
"""How much more often, in a lattice turned, the clue cells' numbers must stand where white runs go
(:func:`numbers_agree`) than in the lattice as it lies for the turn to be taken (unless TURN_CLEARER
decides). On the Kakuro seed 5454's 90 photos, rectified on their true corners, the share is
0.65–1.0 the right way up and lower by 0.17–0.62 turned half a turn."""
REFINE_TRIES = 2
"""A candidate that passes every check but the diagonals of its clue cells is probed again, up to
this many times, on the outline of its own lattice: an outline a tenth of a cell off cuts the faint
diagonals of a hard photo's clue cells with the probe's cell borders (held-out hard kk2026-0151:
an outline 0.13 cells off showed 57% of them, its lattice's outline 71%)."""


@dataclass(frozen=True, eq=False)
class KakuroGridFind:
    """Where the Kakuro grid is and what it looks like square-on."""

    corners: np.ndarray
    """4×2 float, outer corners in the original image: TL, TR, BR, BL."""
    rows: int
    cols: int
    rectified: np.ndarray
    """The grid warped to C·CELL × R·CELL (RGB uint8)."""
    lines_x: tuple[float, ...]
    """C+1 column boundaries in the rectified image."""
    lines_y: tuple[float, ...]
    """R+1 row boundaries in the rectified image."""
    homography: np.ndarray
    """3×3 mapping original-image points to rectified points."""
    confidence: float
    """0..1: how clearly the boundaries stand out at the counts found."""
    turns: int = 0
    """Quarter turns counter-clockwise (``np.rot90``'s ``k``) that bring the photo upright: 0, or a
    Kakuro photographed from another side (:func:`find_kakuro_grid`), whose ``corners`` are then its
    own top left, top right, bottom right and bottom left wherever they lie in the photo."""

    @property
    def size(self) -> int:
        """The longer side in cells."""
        return max(self.rows, self.cols)

    def cell_box(self, cell: tuple[int, int]) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of a cell in the rectified image."""
        r, c = cell
        return self.lines_x[c], self.lines_y[r], self.lines_x[c + 1], self.lines_y[r + 1]


@dataclass(frozen=True)
class Probe:
    """What probing one candidate found (working-copy coordinates)."""

    corners: np.ndarray
    rows: int
    cols: int
    contrast: float
    score: float
    dark_share: float
    turns: int = 0
    """Quarter turns after which the candidate shows a Kakuro (:func:`_turned`): 0 when it does as
    it lies."""


def boundary_profiles(gray: np.ndarray, rows: tuple[int, int], cols: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Column and row profiles of edge strength: for each column, over the image rows in ``rows``
    (for each row, over the columns in ``cols``), the 0.6-quantile over BANDS bands of the mean
    absolute gradient across it, normalised by the image's brightness range (a boundary hidden
    between two dark cells in some bands still counts)."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    low, high = (percentile(g[::2, ::2], p) for p in (5, 95))  # a quarter of the pixels tells the range as well
    spread = max(20.0, float(high - low))
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)) / spread
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)) / spread

    def along(d: np.ndarray, span: tuple[int, int]) -> np.ndarray:
        bands = np.array_split(d[span[0]:span[1]], BANDS, axis=0)
        return quantile(np.stack([b.mean(axis=0) for b in bands]), 0.6, axis=0)

    return along(gx, rows), along(gy.T, cols)


def lattice(profile: np.ndarray, lo: int, hi: int, near_step: float | None = None) -> tuple[float, float, int, float]:
    """``(a, b, n, contrast)``: the outer boundaries and cell count of the evenly spaced boundaries
    in ``profile`` around [lo, hi); (0, 0, 0, 0) when the profile shows no period. With
    ``near_step``, only cell sizes within SQUARE_REACH of it compete, and the best comb among them wins
    (the other direction's cell size, see :func:`_probe_once`).

    Every peak of the profile's autocorrelation is a candidate cell size (a comb with missing teeth
    still repeats at its spacing); the one whose best comb stands out most from the points halfway
    between its teeth competes (see :func:`_comb`); the smallest within COMB_FRACTION of the best
    wins (a divisor puts halfway points on boundaries and scores low; an odd multiple of the cell
    scores about as well as the cell itself). The outer boundaries are the strong teeth nearest
    ``lo`` and ``hi`` (the step from the page to the dark first row or column is always strong),
    or the strongest edge there when no tooth is (a curled page drifts off the comb) or when it is
    twice as strong as the nearest tooth and half a cell nearer the end (on a curled page the comb's
    last tooth can fall on an inner boundary's tail, kk5150-0051), or where the comb's next tooth
    would be (within NEXT_LINE of a cell) and no weaker than the nearest (a cell size estimated 3%
    long drifts the comb's last tooth onto the last inner line: hard kk9191-0015, 9 rows found as 8
    on its true outline), refitted on the edges near every boundary."""
    p, grown = _smoothed(profile)
    seg = p[lo:hi] - p[lo:hi].mean()
    length = len(seg)
    lags = np.arange(6, max(7, length // MIN_SIDE + 1))
    ac = np.correlate(seg, seg, "full")[length - 1 + lags] / (length - lags)
    if ac.max() <= 0:
        return 0.0, 0.0, 0, 0.0
    combs = []
    for i in range(1, len(ac) - 1):  # every autocorrelation peak is a candidate cell size
        if not (ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1] and ac[i] >= 0.2 * ac.max()):
            continue
        denom = ac[i - 1] - 2 * ac[i] + ac[i + 1]
        step = float(lags[i] + (0.5 * (ac[i - 1] - ac[i + 1]) / denom if denom < 0 else 0.0))
        combs.append((step, *_comb(p, grown, step, lo, hi)))
    if near_step is not None:
        combs = [c for c in combs if abs(np.log(c[0] / near_step)) <= np.log(SQUARE_REACH)]
    top = max((c[2] for c in combs), default=0.0)
    if top <= 0:
        return 0.0, 0.0, 0, 0.0
    fraction = 1.0 if near_step is not None else COMB_FRACTION
    step, off, _ = min(c for c in combs if c[2] >= fraction * top)
    positions = np.arange(off, len(p) - 1, step)
    values = grown[np.round(positions).astype(int)]
    floor = 0.5 * float(percentile(p[lo:hi], 99))
    near = lambda x: [q for q, v in zip(positions, values) if abs(q - x) <= 0.75 * step + 4 and v >= floor]  # noqa: E731
    ends = []
    for end in (lo, hi):  # a tooth, or (a curled page drifts off the comb) the strongest edge there
        teeth = near(end)
        edge = locate_border(p, end, 0.75 * step + 4)
        tooth = min(teeth, key=lambda q: abs(q - end)) if teeth else None
        beyond = tooth is not None and abs(edge - end) < abs(tooth - end) - 0.5 * step
        strength = p[int(round(edge))] / max(1e-6, float(grown[int(round(tooth))])) if beyond else 0.0
        next_line = beyond and abs(abs(edge - tooth) - step) <= NEXT_LINE * step
        if tooth is None or strength >= 2 or (next_line and strength >= 1):
            ends.append(edge)  # no tooth, or a far stronger edge far nearer the end, or the next line and no weaker
        else:
            ends.append(float(tooth))
    a, b = ends
    n = int(round((b - a) / step))
    if not MIN_SIDE <= n <= MAX_SIDE:
        return 0.0, 0.0, 0, 0.0
    a, b = _refined(p, a, b, n)
    contrast = float(_contrast(p, grown, np.array([a]), np.array([b]), n)[0])
    return (a, b, n, contrast) if contrast >= MIN_CONTRAST else _best_fit(p, grown, a, b, n, step, contrast)


def _smoothed(profile: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p, grown)``: a boundary profile blurred a little, and that grown by two samples each way
    (a tooth a pixel or two off a boundary still counts)."""
    p = cv2.GaussianBlur(profile.astype(np.float32).reshape(1, -1), (0, 0), 1.2).ravel()
    return p, cv2.dilate(p.reshape(1, -1), np.ones((1, 5), np.uint8)).ravel()


def _contrast(p: np.ndarray, grown: np.ndarray, a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """For lattices of n cells from each ``a`` to each ``b`` (arrays of the same shape): the median
    edge strength at the inner boundaries less the upper quartile at the cell middles."""
    at = lambda x: np.clip(np.round(x), 0, len(p) - 1).astype(int)  # noqa: E731
    k = np.arange(1, n)
    inner = grown[at(a[..., None] + k * ((b - a) / n)[..., None])]
    mids = p[at(a[..., None] + (np.arange(n) + 0.5) * ((b - a) / n)[..., None])]
    return np.quantile(inner, 0.5, axis=-1) - np.quantile(mids, 0.75, axis=-1)


def _best_fit(p: np.ndarray, grown: np.ndarray, a: float, b: float, n: int, step: float,
              contrast: float) -> tuple[float, float, int, float]:
    """``(a, b, n, contrast)``: the ends within FIT_REACH of a cell of ``a`` and ``b`` whose lattice
    of n cells stands out most (:func:`_contrast`), when it stands out FIT_GAIN more than the lattice
    as found (of ``contrast``); else the lattice as found."""
    shifts = np.arange(-FIT_REACH * step, FIT_REACH * step + 0.5, 1.0)
    aa, bb = np.meshgrid(a + shifts, b + shifts, indexing="ij")
    scores = _contrast(p, grown, aa, bb, n)
    i = np.unravel_index(int(np.argmax(scores)), scores.shape)
    if scores[i] > contrast + FIT_GAIN:
        return float(aa[i]), float(bb[i]), n, float(scores[i])
    return a, b, n, contrast


def _comb(p: np.ndarray, grown: np.ndarray, step: float, lo: int, hi: int) -> tuple[float, float]:
    """``(offset, contrast)`` of the best comb of spacing ``step``: the offset whose teeth collect
    the most edge strength, and how much more that is than halfway between teeth. Only the inner
    four fifths of [lo, hi) count, so the strong outer border does not favour wide combs."""
    inner_lo, inner_hi = lo + 0.1 * (hi - lo), hi - 0.1 * (hi - lo)
    offsets = np.arange(0.0, step, 0.5)
    count = int((inner_hi - inner_lo) / step) + 2
    teeth = inner_lo + offsets[:, None] + step * np.arange(count)[None, :]   # one row per offset
    halves = teeth + step / 2
    on_teeth, on_halves = teeth < inner_hi, halves < inner_hi
    at = lambda xs, profile: profile[np.clip(np.round(xs).astype(int), 0, len(profile) - 1)]
    n_teeth, n_halves = on_teeth.sum(1), on_halves.sum(1)
    usable = (n_teeth >= 2) & (n_halves >= 1)
    if not usable.any():
        return inner_lo % step, -1.0
    contrast = ((at(teeth, grown) * on_teeth).sum(1) / np.maximum(n_teeth, 1)
                - (at(halves, p) * on_halves).sum(1) / np.maximum(n_halves, 1))
    contrast = np.where(usable, contrast, -np.inf)
    k = int(np.argmax(contrast))
    best = (float(offsets[k]), float(contrast[k])) if contrast[k] > -1.0 else (0.0, -1.0)
    return (best[0] + inner_lo) % step, best[1]


def _refined(p: np.ndarray, a: float, b: float, n: int) -> tuple[float, float]:
    """The ends ``a`` and ``b`` of an n-cell lattice moved (least squares over the local maxima near
    each tooth) so the teeth sit on the profile's peaks."""
    step = (b - a) / n
    ks, xs = [], []
    for k in range(n + 1):
        x = a + k * step
        lo, hi = max(0, int(x - 0.2 * step)), min(len(p), int(x + 0.2 * step) + 1)
        if hi - lo < 2:
            continue
        window = p[lo:hi]
        if window.max() > 0.3 * p.max():
            ks.append(k)
            xs.append(lo + float(np.argmax(window)))
    if len(ks) < 3:
        return a, b
    slope, origin = np.polyfit(ks, xs, 1)
    return float(origin), float(origin + n * slope)


def dark_cells(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, reach: int | None = None) -> np.ndarray:
    """R×C booleans: cells whose central area is much darker than the brightest cells (white) — of
    the grid, or with ``reach``, of the cells at most that many rows and columns away (a white cell
    under a shadow is dark next to white cells in the light, not next to its shadowed neighbours)."""
    def middle(a: float, b: float, limit: int) -> slice:
        lo = int(np.clip(a + 0.3 * (b - a), 0, limit - 1))
        return slice(lo, max(lo + 1, int(np.clip(b - 0.3 * (b - a), 0, limit - 1)) + 1))

    h, w = gray.shape
    medians = np.array([[np.median(gray[middle(y0, y1, h), middle(x0, x1, w)])
                         for x0, x1 in zip(xs[:-1], xs[1:])] for y0, y1 in zip(ys[:-1], ys[1:])], np.float32)
    if reach is None:
        white = float(percentile(medians, 90))
    else:
        white = cv2.dilate(medians, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8), borderType=cv2.BORDER_REPLICATE)
    return medians < 0.86 * white


def block_share(grid: GridFind, reach: int | None = None) -> float:
    """The share of the KenKen grid's cells that are dark like a Kakuro's blocks
    (:func:`dark_cells`, in the grid's own lines; with ``reach``, next to the cells that near)."""
    grey = to_grey(grid.rectified)
    return float(dark_cells(grey, np.asarray(grid.lines_x), np.asarray(grid.lines_y), reach).mean())


def kakuro_clue_share(grid: GridFind) -> float:
    """:func:`clue_share` of the KenKen grid found, in its own lines and dark cells: whether it
    shows a Kakuro's clue cells. A Kakuro photographed sideways shows them only turned, a quarter
    turn either way (:func:`turned_lattice`; its diagonals run the other way, and half a turn keeps
    their direction): when both those views show CLUE_SHARE of them, the lesser of the two is taken
    if greater. On the grids the KenKen finder found in seeds 8383, 7474 and 6161 (900 KenKen
    photos), both reached CLUE_SHARE on none (the most 0.44); on the turned Kakuro of seed 5454,
    14 of the 18 whose grid showed too few clue cells upright."""
    grey = to_grey(grid.rectified)

    def share(k: int) -> float:
        turned, xs, ys = turned_lattice(grey, grid.lines_x, grid.lines_y, k)
        return clue_share(turned, xs, ys, dark_cells(turned, xs, ys))

    upright = share(0)
    if upright >= CLUE_SHARE:
        return upright
    sideways = min(share(1), share(3))
    return sideways if sideways >= CLUE_SHARE else upright


def clue_share(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray, contrast: bool = False):
    """Of the dark cells right before (left of, or above) a light one — where a Kakuro has its clue
    cells — the share that shows a diagonal (:func:`vision.kakuro_cells.diagonal_strength`); 0 when
    there is none. A page of text or another grid with dark patches has few. With ``contrast``,
    ``(share, contrast)``: also the upper quartile of those places' diagonal strength over the
    other cells' median (a sample of OTHER_CELLS of them)."""
    places, strength = _clue_places(gray, xs, ys, dark)
    share = _share(strength)
    return (share, _clue_contrast(gray, xs, ys, dark, places, strength)) if contrast else share


def _clue_places(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray) -> tuple[list, np.ndarray]:
    """The places of clue cells (see :func:`clue_share`) and their diagonal strengths."""
    rows, cols = dark.shape
    places = [(r, c) for r in range(rows) for c in range(cols) if dark[r, c]
              and ((c + 1 < cols and not dark[r, c + 1]) or (r + 1 < rows and not dark[r + 1, c]))]
    return places, _diagonals(gray, xs, ys, places)


def _share(strength: np.ndarray) -> float:
    """The share of clue places whose diagonal shows (0 when there are none)."""
    from .kakuro_cells import CLUE_DIAGONAL
    return float(np.mean(strength >= CLUE_DIAGONAL)) if len(strength) else 0.0


def _clue_contrast(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray, places: list,
                   strength: np.ndarray) -> float:
    """The places' upper-quartile diagonal strength over the other cells' median (0 without places)."""
    if not places:
        return 0.0
    rows, cols = dark.shape
    chosen = set(places)
    rest = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in chosen]
    others = _diagonals(gray, xs, ys, rest[::max(1, len(rest) // OTHER_CELLS)])
    return float(np.quantile(strength, 0.75) / max(0.05, float(np.median(others)) if len(others) else 1.0))


def _diagonals(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, cells: list[tuple[int, int]]) -> np.ndarray:
    """The diagonal strength of each cell (lattice boundaries ``xs``, ``ys`` in ``gray``)."""
    from .kakuro_cells import diagonal_strength
    return np.array([diagonal_strength(_lattice_patch(gray, xs, ys, cell, cv2.INTER_AREA)) for cell in cells])


def _lattice_patch(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, cell: tuple[int, int], interpolation: int) -> np.ndarray:
    """The cell of the lattice (boundaries ``xs``, ``ys`` in ``gray``) resampled to the reader's
    patch size (:data:`vision.kakuro_cells.CELL`), float32."""
    from .kakuro_cells import CELL as PATCH
    r, c = cell
    sx, sy = PATCH / max(1.0, xs[c + 1] - xs[c]), PATCH / max(1.0, ys[r + 1] - ys[r])
    m = np.float32([[sx, 0, -xs[c] * sx], [0, sy, -ys[r] * sy]])
    return cv2.warpAffine(gray, m, (PATCH, PATCH), flags=interpolation, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def _shows_clues(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray) -> bool:
    """True when the places where ``dark`` says clue cells go show diagonals: CLUE_SHARE_SURE of
    them, or CLUE_SHARE of them clearer than the other cells by CLUE_CONTRAST_LEAST, or
    CLUE_SHARE_FAINT of them far clearer (CLUE_CONTRAST; see :func:`clue_share`)."""
    places, strength = _clue_places(gray, xs, ys, dark)
    clues = _share(strength)
    if clues >= CLUE_SHARE_SURE or clues < CLUE_SHARE_FAINT:
        return clues >= CLUE_SHARE_SURE
    contrast = _clue_contrast(gray, xs, ys, dark, places, strength)
    return contrast >= CLUE_CONTRAST or (clues >= CLUE_SHARE and contrast >= CLUE_CONTRAST_LEAST) \
        or _figure_share(gray, xs, ys, dark, places) >= FIGURE_SHARE


def _figure_share(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray, places: list) -> float:
    """The share of clue places (see :func:`clue_share`) that hold a light figure where their
    number goes — the upper right half before a light cell on the right, the lower left before one
    below: a blob brighter than the cell's fill by FIGURE_STEP of the way to the grid's white,
    FIGURE_HEIGHT of a cell tall and at most FIGURE_WIDTH wide (a digit, not a gap in text)."""
    from .kakuro_cells import CELL as PATCH
    if not places:
        return 0.0
    rows, cols = dark.shape
    white = float(percentile(gray, 90))
    v, u = np.mgrid[0:PATCH, 0:PATCH]
    upper = (u - v > 0.12 * PATCH) & (v > 0.06 * PATCH) & (u < 0.94 * PATCH)
    lower = (v - u > 0.12 * PATCH) & (u > 0.06 * PATCH) & (v < 0.94 * PATCH)
    shown = 0
    for r, c in places:
        patch = _lattice_patch(gray, xs, ys, (r, c), cv2.INTER_AREA)
        fill = float(np.median(patch))
        bright = patch > fill + FIGURE_STEP * max(20.0, white - fill)
        halves = ([upper] if c + 1 < cols and not dark[r, c + 1] else []) + ([lower] if r + 1 < rows and not dark[r + 1, c] else [])
        for half in halves:
            count, _, stats, _ = cv2.connectedComponentsWithStats((bright & half).astype(np.uint8), connectivity=8)
            if any(FIGURE_HEIGHT[0] * PATCH <= h <= FIGURE_HEIGHT[1] * PATCH and w <= FIGURE_WIDTH * PATCH
                   for _, _, w, h, _ in stats[1:]):
                shown += 1
                break
    return shown / len(places)


def _dark_edges(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray, least: float = EDGE_ROW_DARK) -> bool:
    """True when ``least`` of the first row and of the first column (EDGE_ROW_DARK; 1: all) are clue
    cells or blocks: dark by tone, or showing a diagonal (a fill only a little darker than the paper,
    as light grey web Kakuro have, can pass for light by tone alone)."""
    rows, cols = dark.shape
    for cells in ([(0, c) for c in range(cols)], [(r, 0) for r in range(rows)]):
        if np.mean([dark[cell] for cell in cells]) >= least:
            continue  # dark enough by tone alone (the diagonals are looked at only when needed)
        light = [cell for cell in cells if not dark[cell]]
        clue = int((_diagonals(gray, xs, ys, light) >= CLUE_EDGE_DIAGONAL).sum())
        if (len(cells) - len(light) + clue) / len(cells) < least:
            return False
    return True


def _turned(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, maps: list[np.ndarray]) -> int:
    """The quarter turns (``np.rot90``'s ``k``, 1–3) after which a lattice (boundaries ``xs``, ``ys``
    in the square ``gray``) shows a Kakuro: a dark first row and column (:func:`_dark_edges`) and
    diagonals where its clue cells go (:func:`_shows_clues`), by any of the dark-cell ``maps``;
    of several, the turn and map whose clue places show the most diagonals
    (:func:`clue_share`). It is taken only when at least CLUE_SHARE of them show one, and TURN_CLEARER
    times as often as those of the lattice as it lies (by its best map), or its clue cells' numbers
    stand where its white runs go more often by TURN_AGREE (:func:`numbers_agree`; half a turn keeps
    the diagonals, not the numbers' places). 0 when no turn is taken. A Kakuro
    photographed from another side of the table, or sideways without its EXIF turn, has its blocks
    along two other sides, and its diagonals run the other way after an odd number of turns."""
    own: list[np.ndarray] = []
    for dark in maps:  # the maps that differ (they are often the same)
        if not any(np.array_equal(dark, other) for other in own):
            own.append(dark)
    best, most = None, CLUE_SHARE
    for k in (1, 2, 3):
        turned, txs, tys = turned_lattice(gray, xs, ys, k)
        for dark in (np.rot90(dark, k) for dark in own):
            if (shown := clue_share(turned, txs, tys, dark)) < most or best is not None and shown == most:
                continue  # (the cheapest look first: a turn needs CLUE_SHARE of them)
            if _dark_edges(turned, txs, tys, dark) and _shows_clues(turned, txs, tys, dark):
                best, most = (k, turned, txs, tys, dark), shown
    if best is None:
        return 0
    k, turned, txs, tys, seen = best
    if most >= TURN_CLEARER * max(clue_share(gray, xs, ys, dark) for dark in own):
        return k
    agree = numbers_agree(turned, txs, tys, seen)
    return k if agree >= max(numbers_agree(gray, xs, ys, dark) for dark in own) + TURN_AGREE else 0


def turned_lattice(gray: np.ndarray, xs, ys, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(turned, xs, ys)``: the image ``gray`` after ``np.rot90(gray, k)`` and its lattice's column
    and row boundaries there (``xs``, ``ys`` before)."""
    turned, xs, ys = gray, np.asarray(xs, np.float64), np.asarray(ys, np.float64)
    for _ in range(k % 4):  # a quarter turn counter-clockwise takes (x, y) to (y, width - 1 - x)
        xs, ys, turned = ys, (turned.shape[1] - 1 - xs)[::-1], np.rot90(turned)
    return np.ascontiguousarray(turned), xs, ys


def numbers_agree(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray) -> float:
    """Of the halves of the lattice's clue cells (dark cells showing a diagonal; the across half upper
    right, the down half lower left), the share that hold a number (ink reaching FIGURE_INK from the
    half's fill) exactly when a white cell follows on that side: all of them, nearly, in a Kakuro
    the right way up; about half in one turned half a turn (0 without clue cells)."""
    from .kakuro_cells import CLUE_DIAGONAL, FIGURE_INK, clue_half
    rows, cols = dark.shape
    cells = [(r, c) for r in range(rows) for c in range(cols) if dark[r, c]]
    agree = []
    for (r, c), strength in zip(cells, _diagonals(gray, xs, ys, cells)):
        if strength < CLUE_DIAGONAL:
            continue
        patch = _lattice_patch(gray, xs, ys, (r, c), cv2.INTER_AREA)
        for direction, (nr, nc) in (("across", (r, c + 1)), ("down", (r + 1, c))):
            half = clue_half(patch, direction)[0]
            ink = float(percentile(np.abs(patch[half] - float(np.median(patch[half]))), 99))
            agree.append((ink >= FIGURE_INK) == (nr < rows and nc < cols and not dark[nr, nc]))
    return float(np.mean(agree)) if agree else 0.0


def probe(levels: list[np.ndarray], quad: np.ndarray) -> Probe | None:
    """Warp ``quad`` square and read it: refined corners, R and C; None if it shows no Kakuro (also
    when probed again on its lattice's outline, REFINE_TRIES times)."""
    for _ in range(REFINE_TRIES + 1):
        found, outline = _probe_once(levels, quad)
        if found is not None or outline is None:
            return found
        quad = outline
    return None


def _probe_once(levels: list[np.ndarray], quad: np.ndarray) -> tuple[Probe | None, np.ndarray | None]:
    """``(probe, None)`` when ``quad`` shows a Kakuro; ``(None, outline)`` when it shows a lattice
    with dark cells where a Kakuro has them whose clue places show too few diagonals (``outline``:
    the lattice's, in working-copy coordinates); ``(None, None)`` otherwise."""
    side, margin = PROBE_SIDE, PROBE_MARGIN * PROBE_SIDE
    warped = warp_square(levels, quad, side, margin)
    lo, hi = int(margin), int(side - margin)
    col, row = boundary_profiles(warped, (lo, hi), (lo, hi))
    x0, x1, cols, cx = lattice(col, lo, hi)
    y0, y1, rows, cy = lattice(row, lo, hi)
    if not cols or not rows or min(cx, cy) < MIN_CONTRAST:
        return None, None
    width, height = (np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in (0, 1))  # TL-TR, TR-BR
    aspect = (width * (x1 - x0) / cols) / (height * (y1 - y0) / rows)
    if aspect < 1 / CELL_ASPECT:  # rows several cells tall: look for square cells' comb among the rows'
        y0, y1, rows, cy = lattice(row, lo, hi, near_step=(x1 - x0) / cols * width / height)
    elif aspect > CELL_ASPECT:
        x0, x1, cols, cx = lattice(col, lo, hi, near_step=(y1 - y0) / rows * height / width)
    if not cols or not rows or min(cx, cy) < MIN_CONTRAST:
        return None, None
    aspect = (width * (x1 - x0) / cols) / (height * (y1 - y0) / rows)
    if not 1 / CELL_ASPECT <= aspect <= CELL_ASPECT:
        return None, None
    h = square_homography(quad, side, margin)
    inner = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    back = cv2.perspectiveTransform(inner.reshape(1, 4, 2), np.linalg.inv(h))[0]
    xs, ys = np.linspace(x0, x1, cols + 1), np.linspace(y0, y1, rows + 1)
    dark = dark_cells(warped, xs, ys)
    share = float(dark.mean())
    if not DARK_SHARE[0] <= share <= DARK_SHARE[1]:
        return None, None
    # Dark cells judged three ways, each looked at only when the ones before fail: against the
    # grid's white, against the nearby white (SHADOW_REACH), by tone with the light evened out
    # (:func:`flat_dark_cells`; only where the first row and column show FLAT_DIAGONALS diagonals,
    # which a KenKen grid does not: it costs 35–100 ms).
    def flat() -> np.ndarray | None:
        edge = [(0, c) for c in range(cols)] + [(r, 0) for r in range(1, rows)]
        shown = int((_diagonals(warped, xs, ys, edge) >= CLUE_EDGE_DIAGONAL).sum())
        return flat_dark_cells(warped, xs, ys) if shown >= FLAT_DIAGONALS else None

    maps = _Lazy([lambda: dark, lambda: dark_cells(warped, xs, ys, SHADOW_REACH), flat])
    edges = next((m for m in maps if m is not None and _dark_edges(warped, xs, ys, m)), None)  # the first that passes
    shown = edges is not None and any(m is not None and _shows_clues(warped, xs, ys, m) for m in maps)

    def scored(outline: np.ndarray, first: np.ndarray, turns: int = 0) -> Probe:  # first: dark cells, upright
        light_edge = int((~first[0]).sum() + (~first[:, 0]).sum())
        crossed = max(middle_edges(col, x0, x1, cols), middle_edges(row, y0, y1, rows))
        score = min(cx, cy) * np.sqrt(cv2.contourArea(outline.astype(np.float32))) * EDGE_LIGHT ** light_edge
        return Probe(outline, rows, cols, min(cx, cy), score / max(1.0, crossed), share, turns)

    made = [m for m in maps.made if m is not None]  # (the maps looked at so far; no more are made)
    # Every upright Kakuro's first row and column are all clue cells or blocks; a turned one's hold
    # its last row or column, which no Kakuro prints without a white cell: only then look at turns.
    complete = shown and _dark_edges(warped, xs, ys, np.logical_or.reduce(made), least=1.0)
    if not complete and (turns := _turned(warped, xs, ys, made)):
        return scored(back, np.rot90(dark, turns), turns), None
    if not shown:
        return None, (None if edges is None else back)
    if rows > MIN_SIDE and _keypad_row(warped, xs, ys, edges):
        rows, y1, ys, dark = rows - 1, ys[-2], ys[:-1], dark[:-1]
    inner = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    return scored(cv2.perspectiveTransform(inner.reshape(1, 4, 2), np.linalg.inv(h))[0], dark), None


def _keypad_row(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, dark: np.ndarray) -> bool:
    """True when the lattice's last row is an app's keypad below the grid, not a row of it: its first
    two cells light, without a diagonal and with a figure in them (:func:`_inked`), while
    STRAY_DARK of the rest of the first column is dark (``dark``: the lattice's dark cells). In a
    Kakuro the first cell of every row is a block or a clue cell (a diagonal), and a white cell
    right after a block cannot be (its run would have no clue), so two light cells with figures
    there are buttons (hard kk8181-0169: a 10×10 grid found as 11×10 with the keypad). The figures
    tell buttons from a light grey web Kakuro's blank blocks, which also pass for light (hard
    kk6262-0008: its last row begins with five of them; ink 0.03 against the buttons' 0.4 to 0.9)."""
    last = dark.shape[0] - 1
    if dark[last, 0] or dark[last, 1] or float(dark[:last, 0].mean()) < STRAY_DARK:
        return False
    cells = [(last, 0), (last, 1)]
    return all(_inked(gray, xs, ys, cell) >= KEYPAD_INK for cell in cells) and \
        bool((_diagonals(gray, xs, ys, cells) < CLUE_EDGE_DIAGONAL).all())


def _inked(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, cell: tuple[int, int]) -> float:
    """How much darker the darkest ink in the middle of a cell (its central three fifths) is than the
    cell's tone: (median − 5th percentile) / median there; near 0 for a blank cell."""
    r, c = cell
    (y0, y1), (x0, x1) = (ys[r], ys[r + 1]), (xs[c], xs[c + 1])
    middle = gray[int(y0 + 0.2 * (y1 - y0)):int(y1 - 0.2 * (y1 - y0)) + 1,
                  int(x0 + 0.2 * (x1 - x0)):int(x1 - 0.2 * (x1 - x0)) + 1].astype(np.float32)
    if middle.size == 0:
        return 0.0
    tone = float(np.median(middle))
    return (tone - float(percentile(middle, 5))) / max(1.0, tone)


def middle_edges(profile: np.ndarray, a: float, b: float, n: int) -> float:
    """The strongest edge across the middles of a lattice's cells (their central MIDDLE share),
    over the median edge at its inner boundaries: a lattice whose cells straddle the grid's
    own boundaries has edges as strong inside its cells as on its boundaries (a lattice over the
    whole photo, of about the grid's cell size; one column wider than the grid, over the page's
    edge beside it), a grid's own lattice far weaker ones (its digits and diagonals run along no
    whole row or column)."""
    p, grown = _smoothed(profile)
    step = (b - a) / n
    inner = grown[np.clip(np.round(a + np.arange(1, n) * step), 0, len(p) - 1).astype(int)]
    peaks = []
    for k in range(n):
        lo = max(0, int(round(a + (k + 0.5 - MIDDLE / 2) * step)))
        hi = min(len(p), int(round(a + (k + 0.5 + MIDDLE / 2) * step)) + 1)
        if hi > lo:
            peaks.append(float(p[lo:hi].max()))
    return float(max(peaks, default=0.0) / max(float(np.median(inner)), 1e-6))


class _Lazy:
    """The values of ``makers`` (functions of no argument) in order, each made once, on first need
    (iterated again, the ones made are not made again)."""

    def __init__(self, makers):
        self.makers, self.made = list(makers), []

    def __iter__(self):
        for i, make in enumerate(self.makers):
            if i == len(self.made):
                self.made.append(make())
            yield self.made[i]


def flat_dark_cells(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """R×C booleans: cells darker than FLAT_DARK of the white by their tone on patches whose light
    is evened out (:func:`vision.kakuro_light.flatten`, :func:`vision.kakuro_cells.cell_tones`, as
    the reader judges them): under a hard shadow over much of a grid, white cells pass for dark
    against the grid's white and even against their neighbours'."""
    from .kakuro_cells import cell_tones
    from .kakuro_light import flatten
    patches = {(r, c): _lattice_patch(gray, xs, ys, (r, c), cv2.INTER_LINEAR)
               for r in range(len(ys) - 1) for c in range(len(xs) - 1)}
    tones, _ = cell_tones(flatten(patches))
    dark = np.zeros((len(ys) - 1, len(xs) - 1), bool)
    for cell, tone in tones.items():
        dark[cell] = tone < FLAT_DARK
    return dark


def rectify_grid(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rectified RGB C·CELL × R·CELL, homography original → rectified)``."""
    rgb = image if image.ndim == 3 else np.repeat(image[..., None], 3, axis=2)
    rgb = np.ascontiguousarray(rgb[..., :3])
    w, h = cols * CELL, rows * CELL
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    edge = side_lengths(corners).max()
    shrink = min(1.0, 1.5 * max(w, h) / max(edge, 1.0))
    src, pts = rgb, corners
    if shrink < 0.9:
        src = cv2.resize(rgb, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        pts = (corners + 0.5) * shrink - 0.5
    warped = cv2.warpPerspective(src, cv2.getPerspectiveTransform(np.float32(pts), dst), (w, h),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return warped, cv2.getPerspectiveTransform(np.float32(corners), dst)


def snap(profile: np.ndarray, n: int, length: int) -> tuple[float, ...]:
    """n+1 boundary positions along ``length`` pixels: each moved to the strongest edge within a
    quarter of a cell of where even spacing puts it. Boundaries whose edge is weak (two dark cells
    side by side), or that stray from a quadratic through the strong ones (a curled page bends
    spacing smoothly), are put on that quadratic instead."""
    step = (length - 1) / n
    found, strength = [], []
    for i in range(n + 1):
        guess = i * step
        a, b = max(0, int(guess - 0.25 * step)), min(len(profile), int(guess + 0.25 * step) + 1)
        window = profile[a:b]
        k = int(np.argmax(window)) if window.size else 0
        found.append(float(a + k) if window.size else guess)
        strength.append(float(window[k]) if window.size else 0.0)
    strength = np.array(strength)
    strong = strength >= 0.3 * float(percentile(strength, 90))
    index = np.arange(n + 1)
    if strong.sum() >= 4:
        fit = np.polyval(np.polyfit(index[strong], np.array(found)[strong], 2), index)
        keep = strong & (np.abs(np.array(found) - fit) <= 0.15 * step)
        out = np.where(keep, found, fit)
    else:
        out = index * step
    return tuple(float(np.clip(x, 0, length - 1)) for x in out)


def find_kakuro_grid(image: np.ndarray, kenken: tuple[GridFind, ...] | None = None,
                     keypad: bool = True) -> KakuroGridFind:
    """The Kakuro grid in an RGB image; raises NoPuzzleFound when no candidate looks like one.
    ``kenken``: what the KenKen finder (:func:`vision.grid.find_grid`) found in this image when the
    caller already asked it (an empty tuple: nothing) — its outline is one more candidate; None:
    it is asked here. ``keypad``: look for an app's keypad under the grid, which reads its figures
    with the Kakuro digit model (False while that model's training photos are cut: the model
    cannot be asked while it is being fitted).

    When a candidate that shows a Kakuro turned (:func:`_turned`: photographed from another side)
    is chosen over those that show one as it lies, the grid is found again in the photo turned
    upright (when it is not found there, the one found as it lies is taken, if any): its
    ``rectified`` image is upright, its ``corners`` and ``homography`` are in the photo as given
    (the corners the puzzle's own, see :attr:`KakuroGridFind.turns`)."""
    found, turns = _found(image, kenken, keypad)
    if turns and (upright := _found(np.ascontiguousarray(np.rot90(image, turns)), None, keypad)[0]) is not None:
        corners, homography = in_photo_as_loaded(upright.corners, upright.homography, turns, image.shape)
        found = replace(upright, corners=corners, homography=homography, turns=turns)
    if found is None:
        raise NoPuzzleFound("no Kakuro grid found (dark clue cells in the first row and column)")
    return found


def _found(image: np.ndarray, kenken: tuple[GridFind, ...] | None, keypad: bool) -> tuple[KakuroGridFind | None, int]:
    """:func:`find_kakuro_grid`'s look at the photo as it lies: ``(grid, turns)``, the grid None when
    no candidate shows a Kakuro as it lies, ``turns`` those of the candidate showing one turned that
    is chosen (:func:`_chosen`) over every one that shows it as it lies (0: none is)."""
    gray, scale = work_copy(image)
    levels = pyramid(gray)
    if kenken is None:
        kenken = _kenken_grid(image)
    quads = candidate_quads(gray) + _fitted_outline(scale, kenken)
    turned: list[tuple[np.ndarray, Probe]] = []

    def probed(candidates: list[np.ndarray]) -> list[tuple[np.ndarray, Probe]]:
        shown = _probed(levels, candidates)
        turned.extend(f for f in shown if f[1].turns)
        return [f for f in shown if not f[1].turns]

    found = probed(quads)
    if not found or max(probe.contrast for _, probe in found) < FAINT:
        seen = distinct(quads)
        fresh = distinct(seen + solid_quads(gray) + candidate_quads(flattened(gray)))
        found += probed(fresh[len(seen):])
        if not found and not kenken and not turned:
            largest = sorted(fresh, key=lambda q: -cv2.contourArea(q.astype(np.float32)))[:ALIGN_TRIES]
            found = probed([aligned(levels, quad) for quad in largest])
    turns = _chosen(turned)[1].turns if turned and (not found or _chosen(found + turned)[1].turns) else 0
    if not found:
        return None, turns
    quad, best = _whole(gray, found, _chosen(found))
    if (again := probed([aligned(levels, quad)])) and again[0][1].contrast >= CLEARER * best.contrast:
        best = again[0][1]  # a far clearer lattice (a smaller gain is mostly an outline a pixel over)
    if (fitted := fitted_lines(gray, best, keypad)) is not best:
        again = probe(levels, fitted.corners)  # its lines fitted to the photo's edges again
        best = again if again is not None and not again.turns and (again.rows, again.cols) == (fitted.rows, fitted.cols) \
            else fitted
    best = lattice_fitted(gray, best)
    corners = order_corners((best.corners + 0.5) / scale - 0.5)
    rectified, homography = rectify_grid(image, corners, best.rows, best.cols)
    grey = to_grey(rectified)
    col, row = boundary_profiles(grey, (0, grey.shape[0]), (0, grey.shape[1]))
    lines_x = snap(col, best.cols, grey.shape[1])
    lines_y = snap(row, best.rows, grey.shape[0])
    confidence = float(np.clip(best.contrast / 0.2, 0.0, 1.0))
    return KakuroGridFind(corners, best.rows, best.cols, rectified, lines_x, lines_y, homography, confidence), turns


def lattice_fitted(gray: np.ndarray, found: Probe) -> Probe:
    """``found`` with its outline's corners moved (FIT_STEPS working-copy pixels at a time, one
    coordinate at a time, each corner at most FIT_MOST of a cell) while the lattice's lines lie on
    stronger edges against its cells' middle lines (:func:`_on_lines`), when that moves a corner
    FIT_LEAST of a cell or more; else ``found`` as it is. A candidate's outline is the grid's border,
    and on a curled page the border's straight fit can put the far lines of the lattice half a cell
    off the grid's (hard kk6262-0116: 0.78 of a cell, fitted 0.39). Smaller moves are left to
    :func:`snap`, which moves each line up to a quarter of a cell: taken too, they changed as many
    readings from right to wrong as back (five Kakuro sets, hard boards 250 → 249; from a quarter of
    a cell 250 → 252). Edges are capped at the FIT_CAP percentile of those along the lattice's
    lines as found: a web page's light frame against a dark screen is a far stronger edge than the
    grid's thin border inside it, and drew the outline onto itself (hand-held kk6464-0158: a corner
    half a cell off, 0.42 → 0.26)."""
    blurred = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    edges = cv2.magnitude(cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3))
    lines, middles = _lattice_points(found.rows, found.cols)
    start = np.array(found.corners, np.float64)
    edges = np.minimum(edges, float(percentile(_edges_at(edges, _lattice_map(found), lines), FIT_CAP)))
    cell = float(np.mean([np.linalg.norm(start[i] - start[(i + 1) % 4]) for i in range(4)])) / max(found.rows, found.cols)
    corners = _climbed(start, lambda quad: _on_lines(edges, quad, found, lines, middles), FIT_STEPS,
                       keep=lambda quad: float(np.abs(quad - start).max()) <= FIT_MOST * cell, rounds=FIT_ROUNDS)
    if np.abs(corners - start).max() < FIT_LEAST * cell:
        return found  # within what snapping each line (:func:`snap`) mends
    return Probe(corners, found.rows, found.cols, found.contrast, found.score, found.dark_share)


def _lattice_points(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Points (lattice coordinates, FIT_SAMPLES a cell) along every line of an R×C lattice, and along
    the middle lines of its cells."""
    def along(n_lines: np.ndarray, length: int, vertical: bool) -> np.ndarray:
        t = (np.arange(length * FIT_SAMPLES) + 0.5) / FIT_SAMPLES
        a, b = np.meshgrid(n_lines, t, indexing="ij")
        return np.stack([a, b] if vertical else [b, a], -1).reshape(-1, 2)

    lines = np.concatenate([along(np.arange(cols + 1.0), rows, True), along(np.arange(rows + 1.0), cols, False)])
    middles = np.concatenate([along(np.arange(cols) + 0.5, rows, True), along(np.arange(rows) + 0.5, cols, False)])
    return lines, middles


def _on_lines(edges: np.ndarray, corners: np.ndarray, found: Probe, lines: np.ndarray, middles: np.ndarray) -> float:
    """Mean edge strength along the lattice's lines less that along its cells' middle lines, for the
    lattice of ``found``'s counts in the outline ``corners``."""
    h = _lattice_map(found, corners)
    return float(_edges_at(edges, h, lines).mean() - _edges_at(edges, h, middles).mean())


def _edges_at(edges: np.ndarray, h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The edge strengths at ``points`` (lattice coordinates) mapped into the photo by ``h``."""
    xy = cv2.perspectiveTransform(points.reshape(1, -1, 2), h)[0].astype(np.float32)
    return cv2.remap(edges, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)[0]


def fitted_lines(gray: np.ndarray, found: Probe, keypad: bool = True) -> Probe:
    """``found`` with its lattice's lines of cells fitted to the grid's: an app's keypad taken off
    (:func:`_keypad_rows`, when ``keypad``); on the right and at the bottom, last lines that no boundary crosses taken
    off (:func:`_uncrossed`: an app's light frame round the grid, or the page in a shadow beside it;
    no line of a Kakuro's cells is uniform); then on each side up to EXTEND_MOST lines added while
    the next one looks like the grid's (a candidate that covers only part of the grid — a shadow's
    edge across it — gives a lattice a line short), but not an app's keypad under the grid. On the
    left and at the top a line is added only when the lattice's first line holds light cells, as no
    Kakuro's first line does (the first row and column hold only blocks and clue cells, between which
    often no boundary shows)."""
    counts = {"right": 0, "left": 0, "bottom": -_keypad_rows(gray, found) if keypad else 0, "top": 0}
    for side in ("right", "bottom"):
        counts[side] -= _uncrossed(gray, found, counts, side)
    for side in counts:
        added = 0
        while added < EXTEND_MOST and counts[side] >= 0 and (look := _Beyond.look(gray, found, counts, side)) is not None \
                and look.shows_next(side):
            counts[side] += 1
            added += 1
    if not any(counts.values()):
        return found
    fitted = _widened(found, counts)
    if keypad and counts["bottom"] > 0 and (buttons := min(counts["bottom"], _keypad_rows(gray, fitted))):
        counts["bottom"] -= buttons  # a row added that is an app's keypad
        fitted = _widened(found, counts) if any(counts.values()) else found
    return fitted


def _widened(found: Probe, counts: dict[str, int]) -> Probe:
    """``found`` with ``counts`` lines of cells added on each side (taken off where negative)."""
    rows, cols = _size(found, counts)
    outline = np.float32([[-counts["left"], -counts["top"]], [found.cols + counts["right"], -counts["top"]],
                          [found.cols + counts["right"], found.rows + counts["bottom"]],
                          [-counts["left"], found.rows + counts["bottom"]]])
    corners = cv2.perspectiveTransform(outline.reshape(1, 4, 2), _lattice_map(found))[0].astype(np.float64)
    return Probe(corners, rows, cols, found.contrast, found.score, found.dark_share)


def _uncrossed(gray: np.ndarray, found: Probe, counts: dict[str, int], side: str) -> int:
    """How many of the last lines at ``side`` (right or bottom) of ``found``'s lattice, widened by
    ``counts``, are not the grid's: the last one when no boundary crosses it (under EXTEND_FLOOR)
    and some cross the line before it; or the last k ≥ 2 (up to TRIM_SHARE of the lattice) when
    boundaries cross each of them less than TRIM_FLOOR and the line before them TRIM_CLEARER times
    more strongly than any of them. A shadow's edge or the paper's grain crosses a page beside the
    grid a little (hard kk5858-0097: 0.06 against the grid's 0.56); a last column of a newspaper's
    black blocks with one white cell is crossed as little (kk4747-0114: 0.07 against 0.92), so one
    line is taken off by the first rule only."""
    most = max(EXTEND_MOST, int(TRIM_SHARE * (found.cols if side == "right" else found.rows)))
    trial, beyond = dict(counts), []
    while len(beyond) < most:
        inward = dict(trial, **{side: trial[side] - 1})
        if min(_size(found, inward)) < MIN_SIDE or (look := _Beyond.look(gray, found, inward, side)) is None:
            break
        beyond.append(look.crossing[1])
        last = look.crossing[0]
        if len(beyond) == 1 and beyond[0] < EXTEND_FLOOR <= last:
            return 1
        if len(beyond) > 1 and last >= EXTEND_FLOOR and TRIM_CLEARER * max(beyond) <= last:
            return len(beyond)
        if max(beyond) >= TRIM_FLOOR:
            break
        trial = inward
    return 0


def _keypad_rows(gray: np.ndarray, found: Probe) -> int:
    """How many of the lattice's last rows are an app's keypad (0 when none): when the figures along
    one line across its last two rows (and KEYPAD_BELOW of a cell below them), read left to right by
    the Kakuro digit model, count 1, 2, 3, … (KEYPAD_RUN of them in place at least, and KEYPAD_SHARE
    of those read), every row that reaches down to the buttons (half a cell above that line). A
    Kakuro's rows never read so, and the keypad's buttons can line up with the grid's columns so
    well that boundaries cross their row as they cross the grid's, or sit in a shadow (four of the
    six grids the then fresh seed 5858 found a row or two too long were app photos with the keypad
    taken in; this rule takes it off three of them). The figures are the ink over the strip's paper
    tone, and failing that the dark holes in its light areas (:func:`_holes`); which of them count,
    :func:`_keypad_figures`."""
    from .kakuro_cells import CELL as PATCH, ENTRY_INK, written_ink
    span = min(2, found.rows - MIN_SIDE)
    if span <= 0:
        return 0
    top, bottom = found.rows - span, found.rows + KEYPAD_BELOW  # the buttons' figures can sit under the lattice's end
    strip = _lattice_region(gray, found, (0, top, found.cols, bottom), (found.cols * PATCH, int(round((bottom - top) * PATCH))))
    ink = written_ink(strip, float(percentile(strip, 90)))
    for marks in ((ink > ENTRY_INK).astype(np.uint8), _holes(strip)):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
        figures = [(x, y + h / 2, ink[y:y + h, x:x + w] * (labels[y:y + h, x:x + w] == i)) for i, (x, y, w, h, _) in enumerate(stats)
                   if i and KEYPAD_HEIGHT * PATCH <= h <= 0.9 * PATCH and w <= 0.8 * PATCH]
        if rows := _keypad_figures(figures, found, top):
            return rows
    return 0


def _holes(strip: np.ndarray) -> np.ndarray:
    """The dark marks inside light areas of ``strip`` (dark and light split by Otsu's threshold),
    that is the dark blobs that do not reach its border: the figures on an app's light buttons over
    a dark page, which the ink over the strip's paper tone joins to the page around the buttons."""
    _, light = cv2.threshold(np.clip(strip, 0, 255).astype(np.uint8), 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - light, connectivity=8)
    height, width = strip.shape
    inside = [i for i, (x, y, w, h, _) in enumerate(stats) if i and x > 0 and y > 0 and x + w < width and y + h < height]
    return np.isin(labels, inside).astype(np.uint8)


def _keypad_figures(figures: list[tuple[float, float, np.ndarray]], found: Probe, top: int) -> int:
    """The rows of ``found`` from the keypad on, when ``figures`` (x, y middle, ink; in the strip
    :func:`_keypad_rows` looks at, from lattice row ``top``) along one line read 1, 2, 3, … (or 2,
    3, 4, … or 3, 4, 5, …: the lattice can end right of the keypad's first buttons), KEYPAD_RUN of
    them at least and KEYPAD_SHARE of those on the line, the ones in place evenly spaced (within
    KEYPAD_EVEN of their spacing: a row of written digits "2 3 4 _ 6" is not); else 0."""
    from .kakuro_cells import CELL as PATCH, classify, digit_model
    seen: set[tuple[int, ...]] = set()
    for _, line, _ in figures:  # the figures along each line in turn
        on_line = sorted((f for f in figures if abs(f[1] - line) <= 0.2 * PATCH), key=lambda f: f[0])
        key = tuple(id(f) for f in on_line)
        if len(on_line) < KEYPAD_RUN or key in seen:
            continue
        seen.add(key)
        digits = classify(digit_model(), [g for *_, g in on_line]).argmax(axis=1)
        for first in KEYPAD_FIRST:
            places = [(k, on_line[k][0]) for k, d in enumerate(digits) if int(d) == k + first]
            if len(places) >= max(KEYPAD_RUN, KEYPAD_SHARE * len(digits)) and _evenly_spaced(places):
                middle = top + float(np.median([y for _, y, _ in on_line])) / PATCH
                return found.rows - max(MIN_SIDE, int(np.floor(middle - 0.5)))
    return 0


def _evenly_spaced(places: list[tuple[int, float]]) -> bool:
    """Whether the x positions of ``places`` (index, x) lie on a line x = a + b·index, b > 0, each
    within KEYPAD_EVEN of b."""
    k, x = np.array(places, np.float64).T
    b, a = np.polyfit(k, x, 1)
    return bool(b > 0 and np.abs(x - (a + b * k)).max() <= KEYPAD_EVEN * b)


def _size(found: Probe, counts: dict[str, int]) -> tuple[int, int]:
    """``(rows, cols)`` of ``found``'s lattice with ``counts`` lines of cells added on each side."""
    return found.rows + counts["top"] + counts["bottom"], found.cols + counts["left"] + counts["right"]


def _lattice_map(found: Probe, corners: np.ndarray | None = None) -> np.ndarray:
    """The homography from lattice coordinates (column, row; the outline's corners at (0, 0) and
    (cols, rows)) to the working copy, for ``found``'s lattice in its outline or in ``corners``."""
    unit = np.float32([[0, 0], [found.cols, 0], [found.cols, found.rows], [0, found.rows]])
    return cv2.getPerspectiveTransform(unit, np.float32(found.corners if corners is None else corners))


def _lattice_region(gray: np.ndarray, found: Probe, box: tuple[float, float, float, float], size: tuple[int, int]) -> np.ndarray:
    """The part ``box`` = (u0, v0, u1, v1) of ``found``'s lattice (lattice coordinates, see
    :func:`_lattice_map`) warped square-on to ``size`` = (width, height) pixels, float32."""
    (u0, v0, u1, v1), (w, h) = box, size
    unit = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    region = np.float32([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
    to_photo = _lattice_map(found) @ cv2.getPerspectiveTransform(unit, region)
    return cv2.warpPerspective(gray, to_photo, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def _cell_diagonal(gray: np.ndarray, found: Probe, cell: tuple[int, int]) -> float:
    """The diagonal strength (:func:`vision.kakuro_cells.diagonal_strength`) of the cell at lattice
    coordinates ``cell`` = (column, row) of ``found``'s lattice."""
    from .kakuro_cells import CELL as PATCH, diagonal_strength
    u, v = cell
    return diagonal_strength(_lattice_region(gray, found, (u, v, u + 1, v + 1), (PATCH, PATCH)))


@dataclass(frozen=True)
class _Beyond:
    """What the photo shows at one side of a lattice (widened by ``counts`` lines of cells) and one
    cell beyond it, looked at square-on with the side turned to the right (:meth:`look`).

    ``teeth``: boundary strengths (the 0.6-quantile over the bands along the side of the mean
    gradient across, normalised by the strip's brightness range) at the lattice's last EXTEND_SPAN
    boundaries, its end, and one cell on; ``half``: half a cell on; ``light``: for the lattice's last
    line and the next one, which cells are light (median tone of the middle over EXTEND_LIGHT of the
    lattice's white; at the left and the top a light cell showing a clue diagonal does not count);
    ``crossing``: for the same two lines, the mean strength of the boundaries that cross them
    (between their cells) less the median at their cells' middles; ``clued``: at the left and the top,
    the share of the next line's cells beside the light ones that show a clue diagonal."""

    teeth: tuple[float, ...]
    half: float
    light: tuple[np.ndarray, np.ndarray]
    crossing: tuple[float, float]
    clued: float

    def _next_boundary(self) -> bool:
        """A boundary one cell on (EXTEND_EDGE of the lattice's last ones) and none half a cell on
        (EXTEND_HALF of that)."""
        beyond = self.teeth[-1]
        return beyond >= EXTEND_EDGE * float(np.median(self.teeth[:-1])) and self.half <= EXTEND_HALF * beyond

    def crossed(self) -> bool:
        """A boundary one cell on and none half a cell on, and boundaries crossing the next line as
        they cross the lattice's last (see :meth:`shows_next`): the grid's lines run on there."""
        last, new = self.crossing
        return self._next_boundary() and last >= EXTEND_FLOOR and new >= max(EXTEND_CROSSED, EXTEND_CROSSING * last)

    def shows_next(self, side: str) -> bool:
        """One more line of the grid's cells lies beyond: a boundary one cell on (EXTEND_EDGE of the
        lattice's last ones) and none half a cell on (EXTEND_HALF of that); at the left or the top,
        light cells in the lattice's first line (EXTEND_LIGHT_SHARE of them; no Kakuro's first line
        holds white cells) with clue cells before them (EXTEND_CLUED of those: a white cell's run
        begins with a clue);
        at the right or the bottom, boundaries crossing both lines (a frame's, a keypad's or the
        page's do not line up with the grid's columns), and not only light cells in the next."""
        if side in ("left", "top"):
            return self._next_boundary() and self.light[0].mean() >= EXTEND_LIGHT_SHARE and self.clued >= EXTEND_CLUED
        return not self.light[1].all() and self.crossed()

    @staticmethod
    def look(gray: np.ndarray, found: Probe, counts: dict[str, int], side: str) -> "_Beyond | None":
        """The view at ``side`` of ``found``'s lattice widened by ``counts``; None when the next line
        of cells would run off the photo (past it, the photo's edge is carried on)."""
        px, span = EXTEND_PX, EXTEND_SPAN
        rows, cols = _size(found, counts)
        along, across = (cols, rows) if side in ("right", "left") else (rows, cols)
        w, h = int((span + 1.5) * px), int(across * px)
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) / px + (along - span), np.arange(h, dtype=np.float32) / px)
        u0, v0 = -counts["left"], -counts["top"]
        u, v = {"right": (u0 + xs, v0 + ys), "left": (u0 + cols - xs, v0 + ys),
                "bottom": (u0 + ys, v0 + xs), "top": (u0 + ys, v0 + rows - xs)}[side]
        points = np.stack([u, v], -1).reshape(1, -1, 2).astype(np.float64)
        mapped = cv2.perspectiveTransform(points, _lattice_map(found))[0].astype(np.float32)
        mx, my = mapped[:, 0].reshape(h, w), mapped[:, 1].reshape(h, w)
        inside = slice(0, (span + 1) * px)
        if mx[:, inside].min() < 0 or my[:, inside].min() < 0 or mx[:, inside].max() > gray.shape[1] - 1 \
                or my[:, inside].max() > gray.shape[0] - 1:
            return None
        strip = cv2.remap(gray, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        strip = cv2.GaussianBlur(strip.astype(np.float32), (0, 0), 1.0)
        low, high = (percentile(strip, p) for p in (5, 95))
        spread = max(20.0, float(high - low))
        gx = np.abs(cv2.Sobel(strip, cv2.CV_32F, 1, 0, ksize=3)) / spread
        gy = np.abs(cv2.Sobel(strip, cv2.CV_32F, 0, 1, ksize=3)) / spread
        profile = quantile(np.stack([b.mean(axis=0) for b in np.array_split(gx, max(1, across), axis=0)]), 0.6, axis=0)
        at = lambda p, x: float(p[max(0, int(round(x)) - 2):int(round(x)) + 3].max())  # noqa: E731
        tones = np.array([[np.median(strip[int((r + 0.3) * px):int((r + 0.7) * px), int((k + 0.3) * px):int((k + 0.7) * px)])
                           for r in range(across)] for k in range(span + 1)])
        light = tones >= EXTEND_LIGHT * float(percentile(tones[:span], 90))
        clued = 0.0
        if side in ("left", "top"):  # a light clue cell (a pale fill in a hard light) shows its diagonal
            first = [(-counts["left"], k - counts["top"]) if side == "left" else (k - counts["left"], -counts["top"])
                     for k in range(across)]
            light[span - 1] &= np.array([_cell_diagonal(gray, found, cell) < CLUE_EDGE_DIAGONAL if lit else True
                                         for cell, lit in zip(first, light[span - 1])])
            before = [(u - 1, v) if side == "left" else (u, v - 1) for (u, v), lit in zip(first, light[span - 1]) if lit]
            clued = float(np.mean([_cell_diagonal(gray, found, cell) >= CLUE_EDGE_DIAGONAL for cell in before])) if before else 0.0

        middle = (np.arange(h) % px >= 0.3 * px) & (np.arange(h) % px < 0.7 * px)

        def crossing(x0: float) -> float:
            along_line = gy[:, int(x0 + 0.2 * px):int(x0 + 0.8 * px)].mean(axis=1)
            reach = int(0.2 * px)  # a line the lattice meets at a slant (a curled page) is found too
            teeth = [float(along_line[max(0, k * px - reach):k * px + reach + 1].max()) for k in range(1, across)]
            return float(np.mean(teeth)) - float(np.median(along_line[middle]))

        return _Beyond(tuple(at(profile, k * px) for k in range(span + 2)), at(profile, (span + 0.5) * px),
                       (light[span - 1], light[span]), (crossing((span - 1) * px), crossing(span * px)), clued)


def _probed(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[tuple[np.ndarray, Probe]]:
    """``(quad, probe)`` for every quad that shows a Kakuro (:func:`probe`), half of them probed by
    the helper process when it runs (:func:`vision.helper.two_core_map`)."""
    found = two_core_map(probe, [(levels, quad) for quad in quads])
    return [(quad, probe_) for quad, probe_ in zip(quads, found) if probe_ is not None]


def aligned(levels: list[np.ndarray], quad: np.ndarray) -> np.ndarray:
    """``quad`` with its corners moved (by ALIGN_STEPS, one coordinate at a time, while it helps) so
    that the edges of the square it warps to gather most sharply on single rows and columns
    (:func:`concentration`): a grid's lines then run straight along the square's sides."""
    return _climbed(quad, lambda trial: concentration(levels, trial), ALIGN_STEPS, gain=1e-4)


def _climbed(quad: np.ndarray, score, steps, keep=lambda quad: True, rounds: int | None = None,
             gain: float = 1e-6) -> np.ndarray:
    """``quad`` (4×2) with its corners moved by each of ``steps`` in turn, one coordinate at a time,
    while that raises ``score(quad)`` by more than ``gain``: passes over the eight coordinates until
    one moves none (at most ``rounds`` passes a step); moves ``keep`` refuses are not tried."""
    quad = np.array(quad, np.float64)
    best = score(quad)
    for step in steps:
        passes, moved = 0, True
        while moved and (rounds is None or passes < rounds):
            moved, passes = False, passes + 1
            for i in range(4):
                for j in range(2):
                    for d in (step, -step):
                        trial = quad.copy()
                        trial[i, j] += d
                        if not keep(trial):
                            continue
                        value = score(trial)
                        if value > best + gain:
                            best, quad, moved = value, trial, True
    return quad


def concentration(levels: list[np.ndarray], quad: np.ndarray) -> float:
    """How sharply the edges of ``quad`` warped square (ALIGN_SIDE) gather on single columns and
    rows: for the column and the row profile of edge strength, the sum of squares over the square
    of the sum, times the length (1 for an even spread; a slant spreads each line's edge over
    several columns and lowers it)."""
    margin = PROBE_MARGIN * ALIGN_SIDE
    warped = cv2.GaussianBlur(warp_square(levels, quad, ALIGN_SIDE, margin).astype(np.float32), (0, 0), 0.7)
    lo, hi = int(margin), int(ALIGN_SIDE - margin)
    col = np.abs(cv2.Sobel(warped, cv2.CV_32F, 1, 0, ksize=3))[lo:hi].mean(axis=0)
    row = np.abs(cv2.Sobel(warped, cv2.CV_32F, 0, 1, ksize=3))[:, lo:hi].mean(axis=1)
    return sum(float(len(p) * (p ** 2).sum() / max(1e-6, float(p.sum()) ** 2)) for p in (col, row))


def _chosen(found: list[tuple[np.ndarray, Probe]]) -> tuple[np.ndarray, Probe]:
    """The ``(quad, probe)`` whose probe scores best, unless others stand out CLEARER times more
    clearly: then the best-scoring of those."""
    best = max(found, key=lambda f: f[1].score)
    clearer = [f for f in found if f[1].contrast >= CLEARER * best[1].contrast]
    return max(clearer, key=lambda f: f[1].score) if clearer else best


def _whole(gray: np.ndarray, found: list[tuple[np.ndarray, Probe]],
           best: tuple[np.ndarray, Probe]) -> tuple[np.ndarray, Probe]:
    """The largest of ``found`` whose lattice holds ``best``'s as a part of it that does not begin
    at its top left: ``best``'s corners within WHOLE_SNAP of a cell of its lattice's points, its
    rows and columns a block of them, and lines of it before them at the left or the top, where the
    photo shows the grid's lines running on from ``best``'s (:meth:`_Beyond.crossed`); and that
    shows its lattice at least WHOLE_CONTRAST as clearly. ``best`` when none does.

    A hard shadow across a Kakuro leaves its lit part the clearer lattice, and a part of a Kakuro
    that begins with a clue row and column passes for one; the grid round it, found as well, is
    the puzzle (hand-held kk5757-0032: 10×6 of a 10×11 taken, the outline of the whole at 0.68 of
    its contrast). A lattice over the whole photo whose cells happen to be the grid's size, or
    one with an app's light frame for a column, holds the grid too: no lines cross what it adds.
    Lines beyond the right or the bottom are not taken so: there an app's keypad lines up with the
    grid's columns, and :func:`fitted_lines` looks at what lies beyond."""
    probe, wholes = best[1], []
    for outer in found:
        around = outer[1]
        if around.rows < probe.rows or around.cols < probe.cols or (around.rows, around.cols) == (probe.rows, probe.cols) \
                or around.contrast < WHOLE_CONTRAST * probe.contrast:
            continue
        at = cv2.perspectiveTransform(np.float64(probe.corners).reshape(1, 4, 2), np.linalg.inv(_lattice_map(around)))[0]
        points = np.round(at)
        if np.abs(at - points).max() <= WHOLE_SNAP and points.min() >= 0 and (points[:, 0] <= around.cols).all() \
                and (points[:, 1] <= around.rows).all() and points[1, 0] - points[0, 0] == probe.cols \
                and points[3, 1] - points[0, 1] == probe.rows and _lines_run_on(gray, probe, points[0]):
            wholes.append(outer)
    return max(wholes, key=lambda f: f[1].rows * f[1].cols) if wholes else best


def _lines_run_on(gray: np.ndarray, probe: Probe, start: np.ndarray) -> bool:
    """Whether the grid's lines run on beyond ``probe``'s lattice at its left (when ``start``, the
    lattice's top left in a larger one, has columns before it) or at its top (rows above it)."""
    unchanged = {"right": 0, "left": 0, "bottom": 0, "top": 0}
    return any(before > 0 and (look := _Beyond.look(gray, probe, unchanged, side)) is not None and look.crossed()
               for before, side in zip(start, ("left", "top")))


def _kenken_grid(image: np.ndarray) -> tuple[GridFind, ...]:
    """What the KenKen finder (:func:`vision.grid.find_grid`) finds in ``image``: one grid or none."""
    try:
        return (find_grid(image),)
    except NoPuzzleFound:
        return ()


def _fitted_outline(scale: float, kenken: tuple[GridFind, ...]) -> list[np.ndarray]:
    """The outlines the KenKen finder fitted (``kenken``; its sides are fitted to the border line,
    whatever N it counts inside), in working-copy coordinates (``scale`` of the original)."""
    return [(np.asarray(found.corners, np.float64) + 0.5) * scale - 0.5 for found in kenken]


def grid_from_corners(image: np.ndarray, corners: np.ndarray, rows: int, cols: int, turns: int = 0) -> KakuroGridFind:
    """The grid of known outer corners (TL, TR, BR, BL in ``image``) and counts, its boundaries
    snapped as :func:`find_kakuro_grid` snaps them (to measure the later stages alone, and to cut
    training glyphs). With ``turns`` (:attr:`KakuroGridFind.turns`), the corners are the puzzle's
    own, in its order, and kept so; else they are put in the photo's order."""
    corners = np.asarray(corners, np.float64) if turns else order_corners(np.asarray(corners, np.float64))
    rectified, homography = rectify_grid(image, corners, rows, cols)
    grey = to_grey(rectified)
    col, row = boundary_profiles(grey, (0, grey.shape[0]), (0, grey.shape[1]))
    return KakuroGridFind(corners, rows, cols, rectified, snap(col, cols, grey.shape[1]), snap(row, rows, grey.shape[0]),
                          homography, 1.0, turns)
