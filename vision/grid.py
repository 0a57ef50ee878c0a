"""Find the puzzle grid in a photo or screenshot, rectify it, count its cells and snap its lines.

The algorithm, one function per step:

1. :func:`work_copy` shrinks the image to at most ``WORK_SIDE`` pixels and takes its grey levels.
2. :func:`candidate_quads` binarises the ink (adaptive threshold, robust to shadows and shading)
   and the bright panels (Otsu), and turns every large contour into a quadrilateral (its convex hull
   simplified to four corners); :func:`solid_quads` adds the outlines of the ink's filled blobs (a
   grid whose outline's ink runs into a shadow's edge or a keypad).
3. :func:`probe` warps each candidate square at ``PROBE_SIDE`` px with a margin and reads its
   *line profiles*: for each column (row) the median, over ``SEGMENTS`` slices along it, of the
   ink darkness (:func:`darkness_without_surround`: a dark page around a white panel is taken for
   paper near the border). A grid line runs through every slice, so it survives the median;
   clues, digits and pencil marks cover a few slices and vanish. The outer border is located in the profiles and
   re-fitted side by side (a quadratic per side, so a curled page still gets its true corners), and
   N is the largest count whose N-1 evenly spaced inner lines all stand out from the cell middles
   (:func:`count_cells`) — a 9×9 grid also has lines at every third, but 18 would need lines in
   the cell middles (as long as a 9×9's cells, when the finer comb stands out clearly less: a
   column of big digits is no line).
   When no candidate shows a grid, or only a faint one (FAINT_CONTRAST), the candidates of a copy
   flattened against a hard shadow are probed (:func:`flattened`); when none at all, as a last resort those outlines with one corner completed to a
   parallelogram (:func:`_completed_probes`: a shadow's edge can pull a corner along it).
4. :func:`choose` keeps the best-scoring grid; when two similar grids stand side by side (a puzzle
   and its solved copy) it keeps the one with less ink in the cell centres and says so in a note.
5. :func:`warped` warps the original image (from a copy near the target scale, so thin lines do
   not alias away) to a square of N·``CELL_PX`` with the border's centre line on its edges (a
   corner that a border followed as a straight line misses is first moved onto it,
   :func:`hinged_corners`); where a curled page bows the borders between the corners, the square
   is cut along them instead
   (:func:`border_bows`, :func:`unbowed`); :func:`snap_lines` moves each inner line to the nearest
   darkness peak (after a curl the lines are uneven); :func:`straightened` resamples the square along the bend a curl gives
   the lines, so they run straight on their snapped places.
6. :func:`_borders_on_lattice` checks the borders of that square against its inner lines once
   more, at full size, and a border a line lies off is moved onto it and the square warped again,
   unless the border is itself a line DARK_BORDER times as dark as the darkest inner one
   (:func:`_dark_borders`).

Failure: :func:`find_grid` raises :class:`~vision.errors.NoPuzzleFound` when no candidate shows a
grid of 3..16 cells.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .bend import bend_field
from .errors import NoPuzzleFound
from .grey import to_grey
from .helper import call, two_core_map
from .model import GridFind
from .quantiles import image_quantile, median, quantile

WORK_SIDE = 1000
"""Longest side of the working copy (pixels)."""
MIN_WORK_SIDE = 900
"""A smaller photo is enlarged to this longest side first, so that its lines are a few pixels wide
and the pixel sizes below (thresholds, openings, erosions) mean what they do on a larger photo."""
PROBE_SIDE = 384
"""Side of the square a candidate is warped to while probing it."""
PROBE_MARGIN = 0.06
"""Margin around the candidate in the probe, as a fraction of its side."""
SEGMENTS = 24
"""Slices along each line; the median over them ignores text and digits."""
MIN_N, MAX_N = 3, 16
CELL_PX = 56
"""Pixels per cell of the final rectified image."""
MIN_AREA = 0.01
"""Smallest candidate, as a fraction of the working image area."""
MAX_CANDIDATES = 12
SOLID_OPEN = 0.04
"""Width of the opening that leaves solid blobs only (:func:`solid_quads`), as a share of the
working copy's shorter side."""
MIN_CONTRAST = 0.02
"""Smallest line-versus-cell contrast (darkness units) for a grid to count as found (was 0.03
before MIN_TIDY kept outlines around a grid out; 0.02 finds 2 more of 159 dev hard photos)."""
FAINT_CONTRAST = 2 * MIN_CONTRAST
"""Below this contrast the grid found is faint (its confidence under 1), and the copy flattened
against its paper's tone is searched too, as when no grid is found: a hard shadow across a page can
cut the page into an outline whose faint lattice beats nothing, while the puzzle's own outline is
whole only in the flattened copy (12-MP hard web k1212-0053: the page read as a 4×4 at contrast
0.024, the 6×6 in the flattened copy at 0.141). Only a flattened copy's grid at least this clear
is taken then: an app's panel around a faint 3×3 showed as a 3×3 at 0.027 (hand-held k7474-0032)."""
OPEN_CELLS = 0.7
"""Length of the opening that keeps only lines, in cells (digits are shorter)."""
N_FRACTION = 0.35
"""An N counts when its lines' contrast is at least this fraction of the best N's."""
EDGE_PAD = 0.02
"""Light frame added around the working copy, as a fraction of its longer side."""
BORDER_SLACK = 0.12
"""How far (in cells) a border may sit from where evenly spaced inner lines put it."""
OPTION_FLOOR = 0.25
"""A ridge near a border counts as a place for it when at least this fraction of the strongest there."""
MAX_OPTIONS = 3
COMB_SHIFT, COMB_SHIFT_PX, COMB_SHIFT_STEPS = 0.25, 12.0, 3
"""Each border place is tried shifted by up to this fraction of a cell but no more than this many
probe pixels (a thin border beside a panel edge is a few pixels off it), in this many steps each way."""
SHIFT_UNIT = np.linspace(-1.0, 1.0, 2 * COMB_SHIFT_STEPS + 1)
"""Border shifts in units of the largest one (see COMB_SHIFT)."""
SHIFT_COST = 0.01
"""Contrast (darkness) given up per cell a border is shifted off its ridge: among combs that fit
alike, the one on the ridges wins."""
"""Most places tried for each border."""
BETWEEN_FRACTION = 0.5
"""See :func:`share_between`."""
SNAP_MIN_LINES = 2
"""Fewest clear inner lines for the smooth bend of :func:`snap_lines` to be fitted."""
SNAP_CLEAR = 0.3
"""A line is clear when its ridge is at least this fraction of the median line's."""
SNAP_OUTLIER = 0.08
"""A line farther than this (in cells) from the fitted bend is left out of the fit."""
FLAT_REACH = 0.1
"""When no candidate shows a grid, candidates are looked for again in a copy flattened against its
paper's local tone (:func:`flattened`; the paper's tone is the brightest within this share of the
shorter side): a hard shadow's edge across the grid cuts its ink outline, and the adaptive
threshold's band along that edge joins the grid's lines to it (hard k5252-0089 and k6161-0152:
no puzzle found). Only then: the Kakuro finder, which does this too, lost photos to
larger or smaller lattices when it always did (kk77-0053, kk2026-0132)."""
CLUTTER_LIMIT = 0.4
"""Line darkness in the cells' middles (see :func:`clutter`) at which a candidate's score drops to
nothing; on dev900 real grids show 0.02-0.08 there, an outline around a grid and more 0.4-0.8."""
TRACK_PX = 3.0
"""How far (probe pixels) a border may move from one slice to the next while it is followed."""
MIN_TIDY = 0.2
"""A candidate whose cells are cut by lines this much (tidy under this, clutter over 80 % of
CLUTTER_LIMIT) is no grid at all, whatever its contrast."""
SIDE_BEND = 0.05
"""Farthest a followed side may get from its middle, as a fraction of the probe's side (a curled
page bows a side by up to about 3 %, a candidate outline's own error adds some)."""
SIDE_COVER = 0.8
"""A side is fitted by a quadratic only when its followed points span this share of it."""
TRACK_FLOOR = 0.3
"""A slice shows the border when its ridge there is at least this fraction of the whole side's."""
BAND_CELLS = 0.25
"""A side's ridge whose darkness (the mean along the side) stays over BAND_FLAT of its height for
more than this share of a cell is a band of the page around the grid, not its border line. When it
lies beyond where the inner lines' lattice puts the border (:func:`evenly_spaced_borders`), the
border is looked for between the two, and the side followed, on ridges no wider than half of that
(at least 3 px, see :func:`fit_side`). A web page's blue band 3 px below the grid, 0.38 of a cell
thick in the probe, had been the bottom border's ridge, five times the thin line's (clean
k8383-0191: the bottom row's labels fell above their cells). Narrow ridges always lose a thin line with a label printed just under it (clean
k7474-0227), and a band the lattice's border lies in holds the border line or the lattice is off
(hand-held k5252-0194, hard k9494-0043: a shadow's edge)."""
BAND_FLAT = 0.8
"""See BAND_CELLS: a blurred line with a row of labels under it stays over half its height for a
quarter of a cell along a hand-held photo's top side (hand-held k5252-0014), a band is flat."""
TWIN_SCORE = 0.6
"""A second grid scoring at least this fraction of the best, of similar size, is a twin."""
CLEARER_INNER, INSIDE_SHARE = 1.3, 0.8
"""A grid found inside the best-scoring one (at most INSIDE_SHARE of its area) whose lines stand out
CLEARER_INNER times as much and whose cells are that much tidier is taken instead: the whole frame of
a hand-held photo, around a faint 3×3 on a phone screen, had scored higher as an untidy 5×5 for its
larger area (k7474-0032: contrast 0.021 against 0.031, tidy 0.36 against 0.93)."""
IN_A_CELL = 1.0
"""A grid found inside the chosen one, no larger than IN_A_CELL of its cells, standing out at least
FAINT_CONTRAST and about as tidy (see AS_TIDY), is taken instead: no puzzle's cell holds a grid, so
the chosen one is a frame around the puzzle (the edges of a page or a screen on a table passing for
a coarse grid's lines). Seed 6161's first 50 clean and 50 hand-held photos set small in a plain
frame (where it was chosen, fifty-seventh round): 7 grids read as the frame's 3×3 or 4×4 (k6161-0038,
a 9×9 at contrast 0.086 inside a 3×3 frame at 0.146) found with their N; over 2,459 other photos
(the seven sets, seed 7474 turned and small, realdev, the sweeps) no grid's N or corners change."""
IN_A_CELL_CLEAR = 0.3
"""A grid in one of the chosen one's cells (IN_A_CELL) is taken only when it stands out at least
IN_A_CELL_CLEAR times as much as the chosen one. A frame's coarse "grid" is drawn by a photo's or a
page's edges, no clearer than the puzzle's lines (the grid in its cell stands out 0.56–1.9 times as
much: seeds 6161 and 7474's first 50 clean and 50 hand-held set small, fifty-ninth round); a pen
digit in a cell of a clear grid, boxed by the cell's walls, is a faint "grid" beside it (fresh
clean k9494-0162: a 6×6 at contrast 0.61 was read as the 3×3 of one of its cells, 0.044: the 6
written there)."""
AROUND_SCORE, AROUND_SUPPORT, AROUND_ON_LINE = 0.8, 0.05, 0.15
"""A bigger grid around the chosen one, whose lines the chosen one's corners lie on (within
AROUND_ON_LINE of a cell: :func:`on_lines_of`), is taken instead when it scores at least
AROUND_SCORE times as much and its border is followed about as far (its support at most
AROUND_SUPPORT below): the chosen one was a block of the puzzle's cells, bounded on some sides by
inner lines. Hard k9494-0043, a 219×292-px app 5×5: its lower right 4×4 scored 37.9, the whole 5×5
34.2 (support 0.95 and 1.0), and the 4×4 was read. Over the six generated sets as made (1,800
photos) it is the only chosen grid that has such a grid around it, even at 0.3 of the score and
0.25 of a cell off the lines (sixtieth round)."""
ZOOM_CELL, ZOOM_MARGIN, ZOOM_CROP, ZOOM_SAME = 40.0, 0.35, 0.5, 0.5
"""A grid found in a working copy shrunk from the photo, with cells under ZOOM_CELL pixels there, is
looked for again in a crop of the photo around it (ZOOM_MARGIN of its side on each side, at most
ZOOM_CROP of the photo), at the crop's own finer working copy; that grid is taken when it covers
much the same place (intersection over union ZOOM_SAME or more). Clean k8383-0011 set small in a
frame 3.3 times as wide (an app's 6×6 above its keypad): shrunk to a third, the grid's outline ran
into the keys and its bottom border was put on theirs, a cell and a half low; zoomed in, within a
hundredth of a cell. Over 466 photos (seeds 7474, 6161 and 8383 small, the 12-megapixel sets,
realdev) 12 grids' corners moved by over 0.02 cell, 11 nearer the truth, one farther (0.006 → 0.1
cell); photos under WORK_SIDE never zoom. It costs 0.2–0.5 s where it runs."""
ZOOM_SIDE = 200.0
"""A grid found in such a copy under ZOOM_SIDE pixels a side is looked for again zoomed in too,
whatever its cells: clean k6161-0002 set small in a frame (a 9×9 of 19-px cells there) had no outline
of its own found, only a 3×3 over it (cells of 46 px); zoomed in, the 9×9 shows. Over the same 466
photos no other grid changes."""
CLEARER_FAR, AS_TIDY = 2.0, 0.9
"""A grid found inside the best-scoring one whose lines stand out CLEARER_FAR times as much is taken
instead when its cells are about as tidy (AS_TIDY times as tidy, or more): a tidy frame cannot be
beaten by CLEARER_INNER's tidier grid. A photo set small in a plain frame 3.3 times as wide (seed
7474's first 50 clean and 50 hand-held photos, fifty-seventh round): the frame with the photo's
edges in it passed for a tidy 3×3 (contrast 0.106, tidy 0.98) and outscored a clear 7×7 inside it
(0.269, 0.99) by its size; 6 of the 100 grids and 1 of 40 of seed 8383 were read so. With it, all 7
are found with their N; over 2,343 other photos (the seven sets, seed 7474 turned, the fifty-sixth
round's sweeps) no grid's N or corners change."""
COMPLETED_TIDY = 0.6
"""How tidy (see :func:`clutter`) a grid found by completing an outline's corner must be: a last
resort, so more than MIN_TIDY (a hard app photo's outline completed across its shadow found a
wrong 4×4 at 0.34; the 6×6 under a shadow's point, k8383-0224, was found at 0.78)."""
COMPLETED_SIDES = 1.6
"""Longest over shortest side of a completed outline worth probing (a square seen at up to 20° of
tilt is well inside it)."""
COMPLETED_SHIFT = 0.1
"""Least move of the completed corner, in mean sides of the outline, worth a probe (a nearly
parallel outline completed is the same outline, already probed)."""
BAND_CUT = 0.15
"""Share of an outline cut off one side at a time, the very last resort (:func:`_trimmed_probes`):
a phone app's panel holds its grid and a band beside it (a keypad below); where a hard shadow
crosses the grid's bottom border the photo's outline is the whole panel, whose probe finds no
grid (12-MP hard k1313-0070, an app's 9×9 above its keypad: no grid found; the panel less its
bottom 8–20 % shows the 9×9, corners within a quarter cell)."""
INSET_TIDY, INSETS = 0.8, (0.03, 0.06)
"""A candidate whose probe finds its cells this untidy (see :func:`clutter`) is probed again shrunk
by each of INSETS (shares of its side): a white card or panel with a margin around a faint grid
is outlined as a whole, and the probe's border search (half PROBE_MARGIN) does not reach in as far
as the grid; it then counted the panel's edge as the border (hand-held k7474-0184, an app's 3×3:
the top row's labels fell outside; k6161-0167, a web 5×5 on a white card read as a 4×4).
Only a shrunk probe that finds a grid no other probe found (a corner INSET_MOVED cells away, or
another N) joins the choice, and not one with fewer cells of the same side (within INSET_SAME_CELL): that is the
same grid less its outer row and column, which an untidy hard photo's grid had scored below
(k7474-0188, a 9×9 read as an 8×8; shrunk by 3 % its outline showed the 9×9 again, by 6 % the 8×8)
— unless no shrunk probe of that outline finds its N again: then the N came from a false outer row
and column, a hard shadow's edge along the grid (hard k7474-0115, an app's 8×8 half under a shadow,
outlined along its edge as an untidy 9×9, shrunk a clear 8×8, and without it a 4×4 won; hard
k6161-0115 and k4646-0188, 9×9 grids read as 10×10)."""
INSET_MOVED, INSET_SAME_CELL = 0.2, 0.15
INSET_BETTER = 2.0
"""A shrunk probe that finds a grid a probe already found (see INSETS) still joins the choice when
it scores more than this many times as much: the same corners, measured clearly. Hard app photo
k6464-0115 (a 5×5, 288×216 px): its outline's probe found the 5×5 at contrast 0.02, tidy 0.27
(score 1.3), shrunk at 0.149 and 0.80 (55); dropped as found already, a 3×3 in its corner won."""
BANDED_CONTRAST = FAINT_CONTRAST
"""An outline whose probe finds a lattice standing out this much in cells too untidy for a grid
(tidy under MIN_TIDY) is probed again less BAND_CUT off each side in turn (:func:`_unbanded_probes`):
a phone app's panel with its keypad below, outlined whole where a hard shadow cuts the grid's own
border, shows the grid's lines with the keys in its bottom cells. Hard app k9494-0205 (an 8×8, made
since the sixty-fourth round): the panel's probe found the 8×8 at contrast 0.061, tidy 0.07; less
its bottom 15 % at 0.099, tidy 0.74, corners within a pixel or two. A trimmed probe counts only
when it finds the outline's own N, tidy as a completed outline's (COMPLETED_TIDY) and no fainter
than FAINT_CONTRAST."""
COARSE_CUT = 0.3 * CLUTTER_LIMIT
"""A coarser comb whose cells are cut by long lines this much (see :func:`clutter`) is no grid of its
own, whatever the finer comb's extra lines measure (:func:`count_cells`). It was half CLUTTER_LIMIT:
a web 6×6 with faint lines and heavy cage walls on every other line (hand-held k8383-0149) was read
as a 3×3 at 0.18, its extra lines' median 0.46 of the shared ones'; real grids show 0.02-0.08."""
NO_LINES_BETWEEN = 0.25
"""A finer comb whose extra lines are under this share of the shared ones' (see
:func:`share_between`) shows no lines there at all: the coarser comb is taken however its cells are
cut (COARSE_CUT: the long lines that cut them are not where the finer comb puts its lines). A web
8×8 with big written digits photographed in dim light (k8383-0023 darkened to 0.35 with noise of
6 levels) was read as a 16×16: the extra lines measured 0.07–0.08 of the shared ones', but the
noise cut the 8×8's cells at 0.13–0.14, over COARSE_CUT. The one finer grid of the sets measured
near it showed 0.46 (k8383-0149, see COARSE_CUT); over the 2,071 photos of the seven sets as made,
seed 7474 turned and the sweeps of the fifty-sixth round, no photo's N changes."""
FINER_CLEAR = 2 / 3
"""A finer comb (2N cells over N) standing out less than this fraction of the coarser one's contrast
has its extra lines measured in the coarser comb's profiles (see :func:`count_cells`): a column of
big digits in the middles of a faint grid's cells passed for lines at the finer comb's length
(held-out k9090-0277, 8×8 read as 16×16, contrast ratio 0.61; k9090-0142 6 as 12, 0.35). A real
finer grid stood out at 0.71 of the coarser or more (k9090-0023, 6×6: 0.87, whose faint lines break
up at the coarser length)."""


@dataclass(frozen=True)
class Probe:
    """What probing one candidate quadrilateral found (working-copy coordinates)."""

    corners: np.ndarray
    """4×2 refined outer corners on the border's centre line, TL, TR, BR, BL."""
    size: int
    score: float
    """Contrast of the inner lines over the cell middles, times the candidate's side."""
    contrast: float
    centre_ink: float
    """Mean darkness in the cell centres (big digits raise it)."""
    support: float = 1.0
    """Share of slices along the four sides where the border ridge was followed."""
    tidy: float = 1.0
    """1 when the cells' middles hold no long lines, down to 0.02 when they do (see :func:`clutter`)."""
    quad: np.ndarray | None = None
    """The candidate quadrilateral probed (working-copy coordinates)."""


# ---------------------------------------------------------------------------------------------
# 1-2. Candidates
# ---------------------------------------------------------------------------------------------

def work_copy(image: np.ndarray, min_side: int = 0) -> tuple[np.ndarray, float]:
    """The image as grey levels at most ``WORK_SIDE`` px long (and, when it is shorter than
    ``min_side``, enlarged to that), and the scale factor applied."""
    gray = to_grey(image)
    scale = min(1.0, WORK_SIDE / max(gray.shape))
    if scale < 1.0:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    elif max(gray.shape) < min_side:
        scale = min_side / max(gray.shape)
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return gray, scale


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points ordered top-left, top-right, bottom-right, bottom-left (clockwise on screen)."""
    pts = np.asarray(points, np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def quad_of(contour: np.ndarray) -> np.ndarray | None:
    """The quadrilateral that a contour's convex hull simplifies to, or None if it is no quad."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.035, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return order_corners(approx[:, 0, :])
        if len(approx) < 4:
            break
    pts = hull[:, 0, :].astype(np.float64)
    s, d = pts.sum(axis=1), pts[:, 0] - pts[:, 1]
    quad = np.array([pts[np.argmin(s)], pts[np.argmax(d)], pts[np.argmax(s)], pts[np.argmin(d)]])
    return quad if cv2.contourArea(quad.astype(np.float32)) > 0.8 * cv2.contourArea(hull) else None


def candidate_quads(gray: np.ndarray, pad: int = 0, bridge: bool = False) -> list[np.ndarray]:
    """Large quadrilaterals in the working copy that may be a grid's outline, biggest first.
    ``pad``: width of the light frame added around the photo (dark for the bright-blob mask).
    ``bridge``: also the outlines of the long strokes once gaps along them are closed (a faint thin
    line that the threshold broke into dashes: the KenKen finder's, held-out k9090-0086. The Kakuro
    finder does without: on seeds 7070, 8181 and 9191 it gained two boards and lost three)."""
    h, w = gray.shape
    ink = ink_mask(gray)
    _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # A light grid on a dark screen: its lines closed over, the whole grid is one bright blob.
    shut = max(5, (min(h, w) // 60) | 1)
    whole = cv2.erode(cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((shut, shut), np.uint8)),
                      np.ones((5, 5), np.uint8))
    if pad:
        whole[:pad + 2], whole[-pad - 2:], whole[:, :pad + 2], whole[:, -pad - 2:] = 0, 0, 0, 0
    bright = cv2.erode(bright, np.ones((5, 5), np.uint8))
    reach = max(15, min(h, w) // 25)
    masks = [(ink, cv2.RETR_LIST), (bright, cv2.RETR_LIST), (whole, cv2.RETR_EXTERNAL),
             (long_strokes(ink, reach), cv2.RETR_EXTERNAL)]  # long strokes only: text and shadow blobs go
    if bridge:  # faint thin lines broken into dashes, closed along their direction first
        masks.append((long_strokes(ink, reach, gap=max(5, min(h, w) // 60)), cv2.RETR_EXTERNAL))
    quads = []
    for mask, mode in masks:
        contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < MIN_AREA * h * w:
                continue
            quad = quad_of(contour)
            if quad is not None and _plausible(quad, h, w):
                quads.append(quad)
    quads.append(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64))  # a tight crop
    quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return distinct(quads)[:MAX_CANDIDATES]


def long_strokes(ink: np.ndarray, reach: int, gap: int = 0) -> np.ndarray:
    """The across and down strokes of ``ink`` at least ``reach`` pixels long (with ``gap``, gaps up
    to that long along them closed first), grown by two pixels."""
    strokes = np.zeros_like(ink)
    for opening, closing in (((1, reach), (1, gap)), ((reach, 1), (gap, 1))):
        along = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones(closing, np.uint8)) if gap else ink
        strokes = cv2.bitwise_or(strokes, cv2.morphologyEx(along, cv2.MORPH_OPEN, np.ones(opening, np.uint8)))
    return cv2.dilate(strokes, np.ones((5, 5), np.uint8))


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """255 where the working copy is darker than its surroundings (adaptive threshold, robust to
    shadows and shading), grown by a pixel."""
    h, w = gray.shape
    block = max(15, (min(h, w) // 40) | 1)
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 10)
    return cv2.dilate(ink, np.ones((3, 3), np.uint8))


def solid_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Outlines of the ink's blobs with their holes filled and thin strokes opened away (an opening
    SOLID_OPEN of the shorter side wide), biggest first: a grid whose outline's ink touches a wall's
    edge, a shadow's edge or a keypad is one blob with them in :func:`candidate_quads`, its hull
    no quad; filled, it is a solid square that those thin links do not survive."""
    h, w = gray.shape
    contours, _ = cv2.findContours(ink_mask(gray), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    solid = cv2.drawContours(np.zeros((h, w), np.uint8), contours, -1, 255, cv2.FILLED)
    k = max(3, int(min(h, w) * SOLID_OPEN) | 1)
    solid = cv2.morphologyEx(solid, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = [q for c in contours if cv2.contourArea(c) >= MIN_AREA * h * w
             and (q := quad_of(c)) is not None and _plausible(q, h, w)]
    return sorted(quads, key=lambda q: -cv2.contourArea(q.astype(np.float32)))


def _plausible(quad: np.ndarray, h: int, w: int) -> bool:
    """True if a quadrilateral is convex and not too thin."""
    sides = side_lengths(quad)
    return sides.min() >= 0.4 * sides.max() and cv2.isContourConvex(quad.astype(np.float32))


def distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quads without near-duplicates (all corners within 2 % of the side of an earlier one)."""
    kept: list[np.ndarray] = []
    for quad in quads:
        side = np.linalg.norm(quad[0] - quad[2])
        if all(np.abs(quad - other).max() > 0.02 * side for other in kept):
            kept.append(quad)
    return kept


# ---------------------------------------------------------------------------------------------
# 3. Probing a candidate
# ---------------------------------------------------------------------------------------------

def square_homography(quad: np.ndarray, side: float, margin: float) -> np.ndarray:
    """The homography taking ``quad`` (TL, TR, BR, BL) to the square [margin, side-1-margin]²."""
    lo, hi = margin, side - 1 - margin
    target = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)
    return cv2.getPerspectiveTransform(quad.astype(np.float32), target)


def darkness(gray: np.ndarray, line_px: int) -> np.ndarray:
    """Ink darkness 0..1 relative to the local paper (a grey closing wider than ``line_px``)."""
    k = max(3, 2 * line_px + 1)
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(cv2.blur(paper, (k, k)), (k, k)).astype(np.float32)  # ≈ a Gaussian, O(1) per pixel
    ink = gray.astype(np.float32)
    np.subtract(paper, ink, out=ink)
    ink /= np.maximum(paper, 16.0, out=paper)
    return np.clip(ink, 0.0, 1.0, out=ink)


def flattened(gray: np.ndarray) -> np.ndarray:
    """``gray`` over its local paper tone (:func:`darkness` with a closing over FLAT_REACH of the
    shorter side): a shadow's edge is gone, the ink stays dark."""
    reach = max(1, int(min(gray.shape) * FLAT_REACH / 2))
    return (230.0 * (1.0 - darkness(gray, reach))).astype(np.uint8)


SURROUND_DARK, SURROUND_GREY = 0.3, 0.35
"""A surround is darker than SURROUND_DARK relative to the paper beside it (see :func:`darkness`)
and than SURROUND_GREY of the probe's paper grey."""
SURROUND_EDGE_PX = 3
"""How far a surround is grown over darkness above SURROUND_DARK (its blurred edge)."""
SURROUND_LINE_STEP = 12
"""Grey levels a line along a surround must be darker than the surround's median to stay."""
SURROUND_LINE_RUN = 0.25
"""...and run at least this share of the probe's side."""
SURROUND_PX = 12
"""Dark regions at least this thick (probe pixels, both ways) are a surround, not lines."""


def darkness_without_surround(gray: np.ndarray, line_px: int, inner: tuple[int, int]) -> np.ndarray:
    """:func:`darkness` of ``gray`` with the broad dark surround (see :func:`surround`) taken for
    paper: the dark table or screen around a white panel is darker than the panel's paper beside
    it, so the band along the panel's edge was a ridge stronger than the thin border line a few
    pixels inside, the border was put into it, and the surround darkened the paper estimate so
    that line looked faint. The surround is zero darkness here, and for the paper estimate it is
    filled with the paper beside it (the brightest grey that stays within a line width; farther
    out the page's paper grey), so a shadowed panel's edge does not look like ink either."""
    dark = darkness(gray, line_px)
    page = image_quantile(gray, 0.9)
    removed = surround(dark, gray, inner, page)
    if not removed.any():
        return dark
    k = np.ones((2 * line_px + 1, 2 * line_px + 1), np.uint8)
    beside = cv2.dilate(np.where(removed, 0, gray).astype(np.uint8), k)
    filled = np.where(removed, np.where(beside > 0, beside, np.uint8(page)), gray).astype(np.uint8)
    return np.where(removed, 0.0, darkness(filled, line_px)).astype(dark.dtype)


def surround(dark: np.ndarray, gray: np.ndarray, inner: tuple[int, int], page: float | None = None) -> np.ndarray:
    """The mask of broad dark regions in the band where the border is looked for, outside the
    square ``inner`` = ``(lo, hi)``: darker than SURROUND_DARK and SURROUND_GREY of the paper grey
    (``page``, the 90 % quantile of ``gray``; worked out when not given), at least SURROUND_PX
    thick both ways (lines, even heavy ones, are thinner), grown over their blurred edge. A shadow
    across the grid is left alone inside (its lines count for the comb), and a long line along the
    surround that is darker than it (a black border under a dark app bar) is the border, not the
    surround's edge."""
    page = image_quantile(gray, 0.9) if page is None else page
    deep = (dark > SURROUND_DARK) & (gray < SURROUND_GREY * page)
    lo, hi = inner
    deep[lo:hi, lo:hi] = False
    solid = cv2.morphologyEx(deep.astype(np.uint8), cv2.MORPH_OPEN, np.ones((SURROUND_PX, SURROUND_PX), np.uint8))
    if not solid.any():
        return solid.astype(bool)
    edge = (dark > SURROUND_DARK).astype(np.uint8)
    for _ in range(SURROUND_EDGE_PX):
        solid = cv2.dilate(solid, np.ones((3, 3), np.uint8)) & edge
    removed = cv2.dilate(solid, np.ones((3, 3), np.uint8)).astype(bool)
    darker = (removed & (gray < float(np.median(gray[solid.astype(bool)])) - SURROUND_LINE_STEP)).astype(np.uint8)
    run = max(5, int(SURROUND_LINE_RUN * len(dark)))
    lines = (cv2.morphologyEx(cv2.dilate(darker, np.ones((3, 1), np.uint8)), cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
             | cv2.morphologyEx(cv2.dilate(darker, np.ones((1, 3), np.uint8)), cv2.MORPH_OPEN, np.ones((run, 1), np.uint8)))
    return removed & ~(darker & lines).astype(bool)


def line_profiles(dark: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Column and row profiles: the median over ``SEGMENTS`` slices of [lo, hi) of the mean darkness
    (the slices as ``np.array_split`` cuts them: the first few one longer when they do not come out even)."""
    size, longer = divmod(hi - lo, SEGMENTS)

    def along(axis: int) -> np.ndarray:
        means = [slice_means(dark, axis, lo, size + 1, longer),
                 slice_means(dark, axis, lo + longer * (size + 1), size, SEGMENTS - longer)]
        return np.median(np.concatenate([m for m in means if len(m)]), axis=0)
    return along(0), along(1)


def slice_means(image: np.ndarray, axis: int, start: int, width: int, count: int) -> np.ndarray:
    """The mean of each of ``count`` consecutive slices of ``image``, ``width`` rows (``axis=0``) or
    columns (``axis=1``) each, from ``start`` on, as a C-ordered ``count`` × length array: row ``i``
    is ``slice.mean(axis=axis)`` of slice ``i`` bit for bit, as numpy reduces all the slices at once
    in the memory layout each has alone, so it adds up each in the same order. The slices must lie
    inside the image."""
    if axis == 0:
        return image[start:start + count * width].reshape(count, width, image.shape[1]).mean(axis=1)
    block = image[:, start:start + count * width].reshape(image.shape[0], count, width)
    return np.ascontiguousarray(block.mean(axis=2).T)


def ridges(profile: np.ndarray, widths: tuple[int, ...] = (3, 6, 12)) -> np.ndarray:
    """The profile's ridges: how much each point is darker than both points ``w`` away (the ends
    repeated beyond the profile), the best over ``widths`` (a line is a ridge; the edge of a dark
    surround is not). A 2-d ``profile`` holds one profile per row, each taken on its own."""
    out = np.zeros_like(profile)
    n = profile.shape[-1]
    for w in widths:
        w = min(w, n)
        below_left, below_right = np.empty_like(profile), np.empty_like(profile)
        below_left[..., :w] = profile[..., :w] - profile[..., :1]
        below_left[..., w:] = profile[..., w:] - profile[..., :n - w]
        below_right[..., :n - w] = profile[..., :n - w] - profile[..., w:]
        below_right[..., n - w:] = profile[..., n - w:] - profile[..., -1:]
        np.maximum(out, np.minimum(below_left, below_right, out=below_left), out=out)
    return np.clip(out, 0.0, None)


def locate_border(profile: np.ndarray, guess: float, reach: float) -> float:
    """The centre of the strongest ridge of ``profile`` within ``reach`` of ``guess`` (centroid of
    its part above half its height); ``guess`` when there is nothing there."""
    n = len(profile)
    a, b = max(0, int(guess - reach)), min(n, int(guess + reach) + 1)
    if b - a < 3:
        return guess
    window = profile[a:b]
    peak = int(window.argmax())
    top = window[peak]
    if top <= 0:
        return guess
    left, right = run_around((window >= top / 2).tolist(), peak)
    part = window[left:right + 1]
    return a + float((np.arange(left, right + 1) * part).sum() / part.sum())


def nearest_index(position: float, length: int) -> int:
    """The index nearest ``position`` (rounded half to even) in an array ``length`` long."""
    return min(max(round(position), 0), length - 1)


def line_profiles_at(widened: tuple[np.ndarray, np.ndarray], lo: int, hi: int,
                     ns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column and row ridge profiles of [lo, hi) for a grid of each ``n`` of ``ns`` cells, one row
    per n: the darkness (``widened`` by :func:`widen`) opened by a line ``OPEN_CELLS`` of a cell long
    (:func:`opening_length`), averaged along. Digits, clues and pencil marks are shorter than the
    kernel and vanish; grid lines, faint or not, run the whole way and stay."""
    lengths = np.array([opening_length(lo, hi, int(n)) for n in ns])
    cols = opened_sums(widened[0], lengths, lo, hi)
    rows = opened_sums(cv2.transpose(widened[1]), lengths, lo, hi)  # opened across: the transpose down
    # The mean as numpy gives it for uint8 (bit for bit): the exact sum over the count.
    return ridges(cols / (hi - lo) / 255.0), ridges(rows / (hi - lo) / 255.0)


def opening_length(lo: int, hi: int, n: int) -> int:
    """Length (pixels) of the line opening that keeps only the lines of an ``n``-cell grid over
    [lo, hi): ``OPEN_CELLS`` of a cell, at least 5."""
    return max(5, int(OPEN_CELLS * (hi - lo) / n))


def opened_sums(image: np.ndarray, lengths: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Row ``i``: the sum down each column, over rows [lo, hi), of the uint8 ``image`` opened by a
    vertical line ``lengths[i]`` long, exactly as ``cv2.morphologyEx(image, cv2.MORPH_OPEN,
    np.ones((k, 1), np.uint8))`` opens it: an erosion, then a dilation, each over the rows ``k // 2``
    back to ``k - 1 - k // 2`` ahead (what lies beyond the image left out), done by :func:`sliding`.
    The erosions are chained from the shortest line up, each the previous one eroded by the
    difference (the minimum over a window is the minimum of the minima over windows that make it
    up), so together they cost about one erosion by the longest line."""
    sums = np.empty((len(lengths), image.shape[1]))
    eroded, before, after = image, 0, 0  # its window reaches `before` rows back, `after` ahead
    for k in sorted(set(lengths.tolist())):
        back, ahead = k // 2, k - 1 - k // 2
        eroded = sliding(np.minimum, eroded, back - before, ahead - after, 255, (0, len(image)))
        before, after = back, ahead
        opened = sliding(np.maximum, eroded, back, ahead, 0, (lo, hi))
        sums[lengths == k] = cv2.reduce(opened, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]
    return sums


def sliding(op: np.ufunc, image: np.ndarray, back: int, ahead: int, fill: int, rows: tuple[int, int]) -> np.ndarray:
    """``op`` (``np.minimum`` or ``np.maximum``) over the rows of ``image`` from ``back`` before to
    ``ahead`` after each row of ``rows`` = ``(first, end)``, the rows beyond the image left out
    (``fill``, the identity of ``op`` for the dtype, stands for them): an erosion or a dilation by a
    vertical line. By doubling: ``op`` over runs of 2 rows, 4, ... up to the longest power of two
    ``p`` in the window, then over the two runs of ``p`` that cover it; a few array operations
    whatever the window's length."""
    first, end = rows
    length = back + ahead + 1
    start, stop = first - back, end + ahead  # the rows the windows cover
    runs = np.empty((stop - start, image.shape[1]), image.dtype)
    inside, beyond = max(0, start), min(len(image), stop)
    runs[:inside - start], runs[beyond - start:] = fill, fill
    runs[inside - start:beyond - start] = image[inside:beyond]
    spare = np.empty_like(runs)
    p, count = 1, len(runs)  # runs[i] is op over rows start + i .. start + i + p - 1, for i < count
    while 2 * p <= length:
        op(runs[:count - p], runs[p:count], out=spare[:count - p])
        runs, spare = spare, runs
        count -= p
        p *= 2
    return op(runs[:end - first], runs[length - p:length - p + end - first])


def clutter(widened: tuple[np.ndarray, np.ndarray], lo: int, hi: int, span: tuple[float, ...], n: int) -> float:
    """How much the cells' middles hold long lines (the 80 % quantile over the n×n cells of the
    strongest line crossing a cell's central half, darkness 0..1, in the darkness opened as in
    :func:`line_profiles_at`). Near 0 for a real grid (digits and clues are short); high when a
    candidate's cells are cut by lines of something else (a grid seen inside a larger outline)."""
    k = opening_length(lo, hi, n)
    vertical = cv2.morphologyEx(widened[0], cv2.MORPH_OPEN, np.ones((k, 1), np.uint8))
    horizontal = cv2.morphologyEx(widened[1], cv2.MORPH_OPEN, np.ones((1, k), np.uint8))
    x0, x1, y0, y1 = span
    xs, ys = np.linspace(x0, x1, 4 * n + 1), np.linspace(y0, y1, 4 * n + 1)
    worst = []
    for r in range(n):
        ya, yb = int(round(ys[4 * r + 1])), int(round(ys[4 * r + 3])) + 1
        for c in range(n):
            xa, xb = int(round(xs[4 * c + 1])), int(round(xs[4 * c + 3])) + 1
            if yb - ya < 2 or xb - xa < 2:
                continue
            worst.append(max(vertical[ya:yb, xa:xb].mean(axis=0).max(), horizontal[ya:yb, xa:xb].mean(axis=1).max()))
    return float(np.quantile(worst, 0.8)) / 255.0 if worst else 0.0


def widen(dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The darkness as uint8, widened 3 px across vertical and across horizontal lines (so a
    slightly slanted line survives a long opening along it)."""
    d8 = np.round(dark * 255).astype(np.uint8)
    return cv2.dilate(d8, np.ones((1, 3), np.uint8)), cv2.dilate(d8, np.ones((3, 1), np.uint8))


def border_options(profile: np.ndarray, guess: float, reach: float) -> list[float]:
    """Where a border may be: the strongest ridge of ``profile`` within ``reach`` of ``guess``
    (:func:`locate_border`) and the other ridges there at least ``OPTION_FLOOR`` as strong, the
    strongest first, at most ``MAX_OPTIONS``. A screen's panel edge or a shadow beside a thin
    border is often the stronger ridge; the comb of inner lines (:func:`count_cells`) decides."""
    n = len(profile)
    a, b = max(0, int(guess - reach)), min(n, int(guess + reach) + 1)
    options = [locate_border(profile, guess, reach)]
    if b - a < 5 or profile[a:b].max() <= 0:
        return options
    window = profile[a:b]
    floor = OPTION_FLOOR * window.max()
    peaks = sorted((i for i in range(len(window)) if window[i] >= floor
                    and window[i] == window[max(0, i - 2):i + 3].max()), key=lambda i: -window[i])
    for i in peaks:
        pos = locate_border(profile, a + i, 2.0)
        if all(abs(pos - o) > 2.5 for o in options):
            options.append(pos)
    return options[:MAX_OPTIONS]


def window_filters(profiles: np.ndarray, tols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(max, mean)`` of each row of ``profiles`` over the window ``[i - tol, i + tol]`` around every
    index, ``tol`` the row's entry of ``tols`` (the window clipped at the ends); the max in float32."""
    m, length = profiles.shape
    top = profiles.astype(np.float32)
    grown = top.copy()
    for t in np.unique(tols[tols > 0]).tolist():  # a dilation leaves out what lies beyond the ends
        rows = tols == t
        grown[rows] = cv2.dilate(top[rows], np.ones((1, 2 * t + 1), np.uint8))
    sums = np.concatenate([np.zeros((m, 1)), np.cumsum(profiles, axis=1, dtype=np.float64)], axis=1)
    idx = np.arange(length)[None, :]
    a, b = np.maximum(idx - tols[:, None], 0), np.minimum(idx + tols[:, None] + 1, length)
    rows = np.arange(m)[:, None]
    return grown, (sums[rows, b] - sums[rows, a]) / (b - a)


def row_quantile(ordered: np.ndarray, q: float, counts: np.ndarray) -> np.ndarray:
    """The ``q`` quantile (linear interpolation between the order statistics around ``q·(count-1)``,
    in ``ordered``'s dtype) of each row of ``ordered[i]`` whose first ``counts[i]`` entries are its
    values sorted, for every ``i``: an ``len(counts)`` × rows array."""
    pos = q * (counts - 1)
    k = np.floor(pos).astype(int)
    frac = pos - k
    below = np.take_along_axis(ordered, k[:, None, None], axis=2)[..., 0]
    above = np.take_along_axis(ordered, np.minimum(k + 1, counts - 1)[:, None, None], axis=2)[..., 0]
    weights = (1 - frac).astype(ordered.dtype)[:, None], frac.astype(ordered.dtype)[:, None]
    return np.where((frac == 0)[:, None], below, below * weights[0] + above * weights[1])


def comb_entries(values: np.ndarray, origins: np.ndarray, spacings: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``values[i, j]`` for each comb ``c`` of row ``i`` and each of ``offsets``, ``j`` the position
    ``origins[i, c] + spacings[i, c]·offset`` rounded (half to even) and clipped to the row: a rows ×
    combs × offsets array."""
    positions = spacings[:, :, None] * offsets
    positions += origins[:, :, None]
    np.rint(positions, out=positions)
    np.clip(positions, 0, values.shape[1] - 1, out=positions)
    index = positions.astype(np.intp)
    index += (np.arange(len(values)) * values.shape[1])[:, None, None]
    return values.ravel()[index]


def best_combs(profiles: np.ndarray, ns: np.ndarray, starts: list[float], ends: list[float]) -> list[tuple[float, float, np.ndarray, np.ndarray]]:
    """For each ``n`` of ``ns``, ``(a, b, lines, mids)`` of the n-cell comb that stands out most in
    its row of ``profiles``: borders ``a`` near one of ``starts`` and ``b`` near one of ``ends`` (each
    shifted by up to ``COMB_SHIFT`` of a cell, a thin border beside a stronger panel edge is often no
    ridge of its own), ``lines`` the profile's strongest value near each of the n+1 evenly spaced
    lines (the borders included: a border that is no line spoils the comb), ``mids`` its mean near
    each of the n cell middles. Stands out: the 20 % quantile of the lines over the 80 % quantile of
    the middles. All n are worked out at once (the combs of n cells padded to the largest)."""
    span = median(ends) - median(starts)
    nf = ns.astype(float)
    step = np.maximum(span / nf, 4.0)
    tols = np.maximum(1, np.round(0.08 * step).astype(int))
    top, mean = window_filters(profiles, tols)
    shifts = SHIFT_UNIT[None, :] * np.minimum(COMB_SHIFT * step, COMB_SHIFT_PX)[:, None]  # n × shifts
    starts_, ends_ = np.asarray(starts, float), np.asarray(ends, float)
    a_all = (starts_[None, :, None] + shifts[:, None, :]).reshape(len(ns), -1)  # n × (starts·shifts)
    b_all = (ends_[None, :, None] + shifts[:, None, :]).reshape(len(ns), -1)
    moved = (np.tile(np.abs(shifts), len(ends))[:, :, None] + np.tile(np.abs(shifts), len(starts))[:, None, :])
    a = np.broadcast_to(a_all[:, None, :], moved.shape).reshape(len(ns), -1)  # the meshgrid's order
    b = np.broadcast_to(b_all[:, :, None], moved.shape).reshape(len(ns), -1)
    moved = moved.reshape(len(ns), -1)
    ok = b - a >= 4 * nf[:, None]
    none = ~ok.any(axis=1)
    if none.any():  # no comb long enough: the first start with the shortest comb
        b = b.copy()
        b[none, 0] = a[none, 0] + 4 * nf[none]
        ok[none, 0] = True
    width = int(ns.max())
    spacing = (b - a) / nf[:, None]
    lines = comb_entries(top, a, spacing, np.arange(width + 1))
    mids = comb_entries(mean, a, spacing, np.arange(width) + 0.5)
    lines_sorted = np.where(np.arange(width + 1) <= ns[:, None, None], lines, np.inf)
    lines_sorted.sort(axis=2)
    mids_sorted = np.where(np.arange(width) < ns[:, None, None], mids, np.inf)
    mids_sorted.sort(axis=2)
    value = row_quantile(lines_sorted, 0.2, ns + 1) - row_quantile(mids_sorted, 0.8, ns)
    best = np.argmax(np.where(ok, value - SHIFT_COST * moved / step[:, None], -np.inf), axis=1)
    return [(float(a[i, k]), float(b[i, k]), lines[i, k, :n + 1], mids[i, k, :n])
            for i, (n, k) in enumerate(zip(ns.tolist(), best.tolist()))]


def count_cells(dark: np.ndarray, lo: int, hi: int,
                options: tuple[list[float], list[float], list[float], list[float]]) -> tuple[int, float, float, tuple[float, ...], float]:
    """``(N, score, contrast, span)``: the largest N in 3..16 whose evenly spaced inner lines stand
    out from the cell middles (in profiles opened for that N, see :func:`line_profiles_at`) by at
    least ``N_FRACTION`` of the best contrast of any N, and its borders ``span = (x0, x1, y0, y1)``,
    each picked from its ``options`` (see :func:`border_options`) so the comb fits best, and how
    firm its borders are (their strength over the inner lines', at most 1). A passing N that is a
    multiple of a smaller passing one must show lines between the coarser comb's (see
    :func:`share_between`) unless the coarser one's cells are cut by long lines (COARSE_CUT, :func:`clutter`:
    thin lines beside thick cage walls are weaker, but they are lines). ``(0, 0, 0, (), 0)`` when no N shows any contrast."""
    contrasts, spans, comb_lines = {}, {}, {}
    widened = widen(dark)
    ns = np.arange(MIN_N, MAX_N + 1)
    cols, rows = line_profiles_at(widened, lo, hi, ns)
    col_combs = best_combs(cols, ns, options[0], options[1])
    row_combs = best_combs(rows, ns, options[2], options[3])
    for n, (x0, x1, col_lines, col_mids), (y0, y1, row_lines, row_mids) in zip(ns.tolist(), col_combs, row_combs):
        lines, mids = np.concatenate([col_lines, row_lines]), np.concatenate([col_mids, row_mids])
        contrasts[n] = float(quantile(lines, 0.2) - quantile(mids, 0.8))
        spans[n] = (x0, x1, y0, y1)
        comb_lines[n] = (col_lines, row_lines)
    best = max(contrasts.values())
    if best <= 0:
        return 0, 0.0, 0.0, (), 0.0
    passing = sorted((k for k, v in contrasts.items() if v >= N_FRACTION * best), reverse=True)
    n = passing[0]
    for m in passing[1:]:
        if n % m:
            continue
        inner = tuple(c[1:-1] for c in comb_lines[n])
        if contrasts[n] < FINER_CLEAR * contrasts[m]:
            # The finer comb's lines as long as the coarser comb's cells (in its profiles, opened by
            # a line OPEN_CELLS of its cell long): a grid line runs on, a column of big digits does not.
            x0, x1, y0, y1 = spans[n]
            inner = (_inner_lines(cols[m - MIN_N], x0, x1, n), _inner_lines(rows[m - MIN_N], y0, y1, n))
        share = share_between(inner, n // m)
        if share < BETWEEN_FRACTION and (share < NO_LINES_BETWEEN or clutter(widened, lo, hi, spans[m], m) < COARSE_CUT):
            n = m  # the finer comb's extra lines are digit strokes, not lines
    return n, float(best), contrasts[n], spans[n], firmness(*comb_lines[n])


def _inner_lines(profile: np.ndarray, a: float, b: float, n: int) -> np.ndarray:
    """The ``profile``'s strongest value near each of the n - 1 inner lines of the n-cell comb from
    ``a`` to ``b`` (within 8 % of a cell, as :func:`best_combs` looks)."""
    step = (b - a) / n
    tol = max(1, round(0.08 * step))
    places = [nearest_index(a + j * step, len(profile)) for j in range(1, n)]
    return np.array([profile[max(0, p - tol):p + tol + 1].max() for p in places])


def firmness(col_lines: np.ndarray, row_lines: np.ndarray) -> float:
    """How firm a comb's borders are: the mean strength of its four borders (the ends of the
    column and row comb's ``lines``, see :func:`best_combs`) over the median of its inner lines'
    strength, 0..1."""
    borders = np.array([col_lines[0], col_lines[-1], row_lines[0], row_lines[-1]])
    inner = np.concatenate([col_lines[1:-1], row_lines[1:-1]])
    return float(np.clip(borders.mean() / max(float(np.median(inner)), 1e-3), 0.0, 1.0))


def share_between(inner: tuple[np.ndarray, np.ndarray], k: int) -> float:
    """How strong a comb's lines that a ``k`` times coarser comb lacks (inner lines of both axes,
    see :func:`count_cells`) are: their median over the median of the lines both share. They are
    lines too at ``BETWEEN_FRACTION`` or more; a grid of 2N read over a grid of N puts its extra
    lines on the big digits' strokes."""
    shared, extra = [], []
    for values in inner:
        for i, v in enumerate(values, start=1):
            (shared if i % k == 0 else extra).append(v)
    return float(np.median(extra)) / max(float(np.median(shared)), 1e-6)


def fit_side(dark: np.ndarray, axis: int, guess: float, reach: float, lo: int, hi: int,
             cell: float) -> tuple[np.ndarray | None, float]:
    """``(coefficients, support)``: the quadratic (``np.polyfit`` order) of one border side near
    ``guess`` (the comb's border, already on the lines' lattice) in the probe, for a vertical side (``axis=0``) x as a function of y, else y of x (None when too few
    slices show it), and the share of slices whose ridge lies on it (a real border runs the whole
    way; a panel edge, a row of keys or a shadow does not).

    The side is followed slice by slice from the middle outwards, each slice looking for the ridge
    (:func:`ridges`: a line, not the edge of a dark surround) within ``TRACK_PX`` of where the
    previous one found it, so a panel edge or shadow beside a thin border never takes over, and
    stops where it gets farther than ``SIDE_BEND`` from the middle one. When the ridge found is a
    band wider than ``BAND_CELLS`` of a ``cell`` (probe pixels) beyond ``guess``, the border is
    looked for between the two and followed on narrower ridges (see BAND_CELLS)."""
    d = dark if axis == 0 else dark.T
    width = max(4, (hi - lo) // SEGMENTS)
    starts = list(range(lo, hi - 4, width))
    whole_slices = sum(s + width <= d.shape[0] for s in starts)  # the last may be cut off by the edge
    means = [slice_means(dark, axis, lo, width, whole_slices)] + [d[s:s + width].mean(axis=0)[None]
                                                                  for s in starts[whole_slices:]]
    darkness_along = np.concatenate(means)  # one row per slice
    profiles = ridges(darkness_along)
    middle = len(starts) // 2
    whole = np.mean(profiles, axis=0)  # the side as a whole: one slice may hold a clue
    centre = locate_border(whole, guess, reach)
    left, right = dark_run(np.mean(darkness_along, axis=0), centre, BAND_FLAT)
    outward = 1 if guess > (lo + hi) / 2 else -1  # from the grid's middle across this side
    edge = left if outward > 0 else right  # the run's edge toward the grid's middle
    if right - left + 1 > BAND_CELLS * cell and (edge - guess) * outward > 0:
        # A band beyond where the lattice puts the border: the line is between the two.
        narrow = tuple(w for w in (3, 6, 12) if w <= max(3.0, BAND_CELLS * cell / 2))
        profiles = ridges(darkness_along, narrow)
        whole = np.mean(profiles, axis=0)
        inner = guess - outward * reach
        centre = locate_border(whole, (inner + edge) / 2, abs(edge - inner) / 2)
    strength = max(float(whole[nearest_index(centre, d.shape[1])]), 1e-3)
    found: dict[int, float] = {}
    for order in (range(middle, len(starts)), range(middle - 1, -1, -1)):
        pos = centre
        for i in order:
            p = locate_border(profiles[i], pos, TRACK_PX)
            if abs(p - centre) > SIDE_BEND * (hi - lo):
                break  # wandered off to something else (a clue, an inner line)
            if profiles[i][nearest_index(p, d.shape[1])] >= TRACK_FLOOR * strength:
                found[i] = pos = p
    if len(found) < 6:
        return None, len(found) / len(starts)
    ts = np.array([starts[i] + width / 2 for i in found])
    ps = np.array(list(found.values()))
    keep = np.abs(ps - np.median(ps)) < reach
    for _ in range(2):
        if keep.sum() < 6:
            return None, float(keep.sum()) / len(starts)
        coef = np.polyfit(ts[keep], ps[keep], 2)
        keep = np.abs(np.polyval(coef, ts) - ps) < max(1.5, 2.5 * np.std(np.polyval(coef, ts[keep]) - ps[keep]))
    support = float(keep.sum()) / len(starts)
    return (side_curve(ts[keep], ps[keep], lo, hi) if keep.sum() >= 6 else None), support


def dark_run(profile: np.ndarray, at: float, share: float) -> tuple[int, int]:
    """The first and last index of the points of ``profile`` around ``at``, in a row, that are at
    least ``share`` of its value there."""
    i = nearest_index(at, len(profile))
    return run_around((profile >= share * profile[i]).tolist(), i)


def run_around(high: list[bool], i: int) -> tuple[int, int]:
    """The first and last index of the run of true values in ``high`` through index ``i``."""
    left = i
    while left > 0 and high[left - 1]:
        left -= 1
    right = i
    while right < len(high) - 1 and high[right + 1]:
        right += 1
    return left, right


def side_curve(ts: np.ndarray, ps: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Quadratic coefficients through a side's points (``np.polyfit`` order, degree 2 padded): a
    quadratic when the points cover most of [lo, hi) and it bows no more than ``SIDE_BEND`` of the
    side there, a straight line otherwise (a parabola through part of a side flies off beyond it)."""
    line = np.concatenate([[0.0], np.polyfit(ts, ps, 1)])
    if ts.max() - ts.min() < SIDE_COVER * (hi - lo):
        return line
    coef = np.polyfit(ts, ps, 2)
    span = np.linspace(lo, hi, 9)
    if np.abs(np.polyval(coef, span) - np.polyval(line, span)).max() > SIDE_BEND * (hi - lo):
        return line
    return coef


def evenly_spaced_borders(profile: np.ndarray, a: float, b: float, n: int) -> tuple[float, float]:
    """The border positions ``(a, b)`` checked against the inner lines: the ridges between them are
    fitted by evenly spaced positions ``o + k·s`` (weighted by their strength: a 3×3's two lines
    had been outweighed by six specks of noise, and its top border moved onto a speck 50 times
    fainter, cutting the top row's labels in half: hand-held k6161-0202), and a border farther
    than BORDER_SLACK·s from where the fit puts it (a panel edge or shadow taken for a thin
    border) moves to the ridge there, when there is one. Returns the positions unchanged when the inner lines are too few."""
    step = (b - a) / n
    if n < 3 or step < 4:
        return a, b
    lo, hi = int(a + 0.5 * step), int(b - 0.5 * step)
    window = profile[lo:hi]
    if len(window) < 5 or window.max() <= 0:
        return a, b
    floor = 0.3 * float(np.percentile(window, 99))
    peaks = [lo + i for i in range(2, len(window) - 2)
             if window[i] >= floor and window[i] == window[i - 2:i + 3].max()]
    if len(peaks) < max(2, (n - 1) // 2):
        return a, b
    pos = np.array(peaks, float)
    weight = np.sqrt(profile[peaks])  # least squares weighted by strength: faint specks barely count
    origin, spacing = a, step
    for _ in range(3):
        k = np.round((pos - origin) / spacing)
        good = (k >= 1) & (k <= n - 1) & (np.abs(pos - origin - k * spacing) < 0.25 * spacing)
        if good.sum() < 2 or len(set(k[good])) < 2:
            return a, b
        spacing, origin = np.polyfit(k[good], pos[good], 1, w=weight[good])
    out = []
    for border, expected in ((a, origin), (b, origin + n * spacing)):
        if abs(border - expected) > BORDER_SLACK * spacing:
            moved = locate_border(profile, expected, BORDER_SLACK * spacing)
            if profile[nearest_index(moved, len(profile))] >= floor:
                border = moved
        out.append(float(border))
    return out[0], out[1]


def side_corners(sides: list[np.ndarray]) -> np.ndarray:
    """Corners where the fitted sides (left, right: x of y; top, bottom: y of x) meet, TL TR BR BL."""
    left, right, top, bottom = sides
    corners = []
    for vertical, horizontal in ((left, top), (right, top), (right, bottom), (left, bottom)):
        x, y = polyval(vertical, 0.0), polyval(horizontal, 0.0)
        for _ in range(20):
            x = polyval(vertical, y)
            y = polyval(horizontal, x)
        corners.append((x, y))
    return np.array(corners)


def polyval(coefficients: np.ndarray, x: float) -> float:
    """``np.polyval(coefficients, x)`` for one number, bit for bit (the same Horner steps in double
    precision), without numpy's cost per call."""
    y = 0.0
    for c in coefficients.tolist():
        y = y * x + c
    return y


def pyramid(gray: np.ndarray, levels: int = 4) -> list[np.ndarray]:
    """The image halved ``levels`` times (level k is 2**-k of the original), smallest last."""
    out = [gray]
    for _ in range(levels - 1):
        if min(out[-1].shape) < 64:
            break
        out.append(cv2.pyrDown(out[-1]))
    return out


def warp_square(levels: list[np.ndarray], quad: np.ndarray, side: int, margin: float) -> np.ndarray:
    """``quad`` (level-0 coordinates) warped to a square of ``side`` with ``margin``, sampled from
    the pyramid level nearest above the target scale so thin lines are averaged, not skipped; the
    outside is filled with the median grey (paper), not replicated."""
    edge = side_lengths(quad).max()
    shrink = (side - 2 * margin) / max(edge, 1.0)
    k = int(np.clip(np.floor(np.log2(1.0 / max(shrink, 1e-6))), 0, len(levels) - 1))
    f = 0.5 ** k
    src = levels[k]
    h = square_homography((quad + 0.5) * f - 0.5, side, margin)
    fill = image_quantile(levels[-1], 0.95)
    return cv2.warpPerspective(src, h, (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


def probe(levels: list[np.ndarray], quad: np.ndarray) -> Probe | None:
    """Warp ``quad`` square and read it: refined corners, N and scores; None if it shows no grid."""
    return probe_square(warp_square(levels, quad, PROBE_SIDE, PROBE_MARGIN * PROBE_SIDE), quad)


def probe_square(warped: np.ndarray, quad: np.ndarray) -> Probe | None:
    """:func:`probe` of ``quad`` once warped (by :func:`warp_square`, PROBE_SIDE with PROBE_MARGIN)."""
    side, margin = PROBE_SIDE, PROBE_MARGIN * PROBE_SIDE
    h = square_homography(quad, side, margin)
    lo, hi = int(margin), int(side - margin)
    reach = 0.5 * margin + 2
    dark = darkness_without_surround(warped, side // 24, (int(lo + reach), int(hi - reach)))
    col, row = (ridges(p) for p in line_profiles(dark, lo, hi))
    options = (border_options(col, margin, reach), border_options(col, side - 1 - margin, reach),
               border_options(row, margin, reach), border_options(row, side - 1 - margin, reach))
    n, _, contrast, span, firm = count_cells(dark, lo, hi, options)
    if n == 0 or contrast < MIN_CONTRAST * 0.5:
        return None
    x0, x1, y0, y1 = span
    x0, x1 = evenly_spaced_borders(col, x0, x1, n)
    y0, y1 = evenly_spaced_borders(row, y0, y1, n)
    # Each side is followed close to its border: a panel edge or shadow a third of a cell away
    # must not pull a thin border line over to it.
    rx, ry = min(reach, 1.5 * BORDER_SLACK * (x1 - x0) / n), min(reach, 1.5 * BORDER_SLACK * (y1 - y0) / n)
    cx, cy = (x1 - x0) / n, (y1 - y0) / n
    fitted = [fit_side(dark, 0, x0, rx, lo, hi, cx), fit_side(dark, 0, x1, rx, lo, hi, cx),
              fit_side(dark, 1, y0, ry, lo, hi, cy), fit_side(dark, 1, y1, ry, lo, hi, cy)]
    fits = [f for f, _ in fitted]
    support = float(np.mean([s for _, s in fitted]))
    defaults = [np.array([0, 0, x0]), np.array([0, 0, x1]), np.array([0, 0, y0]), np.array([0, 0, y1])]
    sides = [f if f is not None else d for f, d in zip(fits, defaults)]
    inner = side_corners(sides)
    back = cv2.perspectiveTransform(inner.reshape(1, 4, 2).astype(np.float64), np.linalg.inv(h))[0]
    area = cv2.contourArea(back.astype(np.float32))
    cells = _cell_centres(dark, (x0, x1, y0, y1), n)
    tidy = float(np.clip(1.0 - clutter(widen(dark), lo, hi, span, n) / CLUTTER_LIMIT, 0.02, 1.0))
    return Probe(back, n, contrast * np.sqrt(area) * firm * tidy, contrast, cells, support, tidy, quad)


def _cell_centres(dark: np.ndarray, span: tuple[float, float, float, float], n: int) -> float:
    """Mean darkness of the central third of every cell (big digits make it high)."""
    x0, x1, y0, y1 = span
    xs = np.linspace(x0, x1, 3 * n + 1)[1::3]
    ys = np.linspace(y0, y1, 3 * n + 1)[1::3]
    step = (x1 - x0) / (3 * n)
    total = [dark[int(y):int(y + step) + 1, int(x):int(x + step) + 1].mean() for y in ys for x in xs]
    return float(np.mean(total))


# ---------------------------------------------------------------------------------------------
# 4. Choosing
# ---------------------------------------------------------------------------------------------

def choose(probes: list[Probe]) -> tuple[Probe, tuple[str, ...]]:
    """The best probe and notes for people. A far clearer and tidier grid inside the best-scoring
    one is taken instead (CLEARER_INNER), or a clearer still and about as tidy one (CLEARER_FAR),
    and then a grid that fits in one of the chosen grid's cells (IN_A_CELL) and is not far fainter
    (IN_A_CELL_CLEAR), and then a bigger grid on whose lines the chosen one lies (AROUND_SCORE).
    Among grids of similar score and size that do not overlap (a puzzle beside its solved copy) the
    one with the least ink in its cell centres wins."""
    best = max(probes, key=lambda p: p.score)
    inner = [p for p in probes if _inside(p.corners, best.corners) and (
             p.contrast >= CLEARER_INNER * best.contrast and p.tidy >= CLEARER_INNER * best.tidy
             or p.contrast >= CLEARER_FAR * best.contrast and p.tidy >= AS_TIDY * best.tidy)]
    if inner:  # the frame around a grid read as a coarser, untidy grid: the clear grid inside it
        best = max(inner, key=lambda p: p.score)
    cell = _area(best.corners) / best.size ** 2
    in_a_cell = [p for p in probes if p.contrast >= max(FAINT_CONTRAST, IN_A_CELL_CLEAR * best.contrast)
                 and p.tidy >= AS_TIDY * best.tidy and _area(p.corners) <= IN_A_CELL * cell
                 and _inside(p.corners, best.corners)]
    if in_a_cell:  # no puzzle's cell holds a grid: the "grid" is a frame around the puzzle
        best = max(in_a_cell, key=lambda p: p.score)
    around = [p for p in probes if p.size > best.size and p.score >= AROUND_SCORE * best.score
              and p.support >= best.support - AROUND_SUPPORT and on_lines_of(best, p)]
    if around:  # a block of the puzzle's cells read as the grid: the whole grid around it
        best = max(around, key=lambda p: p.score)
    twins = [p for p in probes if p.score >= TWIN_SCORE * best.score and p.size == best.size
             and _disjoint(p.corners, best.corners)]
    if not twins:
        return best, ()
    pick = min([best] + twins, key=lambda p: p.centre_ink)
    return pick, (f"{len(twins) + 1} grids found side by side; took the one with clues and fewer digits",)


def on_lines_of(block: Probe, grid: Probe) -> bool:
    """True when ``block``'s corners lie on crossings of ``grid``'s lines (within AROUND_ON_LINE of a
    cell), ``block.size`` cells apart, all within ``grid``: the block is a square of its cells."""
    to_cells = square_homography(grid.corners, grid.size + 1, 0.0)  # grid → [0, size]²
    at = cv2.perspectiveTransform(block.corners.astype(np.float64).reshape(-1, 1, 2), to_cells).reshape(-1, 2)
    crossing = np.round(at)
    if np.abs(at - crossing).max() > AROUND_ON_LINE or crossing.min() < 0 or crossing.max() > grid.size:
        return False
    (x, y), n = crossing[0], block.size
    return bool(np.array_equal(crossing, [[x, y], [x + n, y], [x + n, y + n], [x, y + n]]))


def _area(quad: np.ndarray) -> float:
    """The area of a quad."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def _inside(a: np.ndarray, b: np.ndarray) -> bool:
    """True if quad ``a`` lies within quad ``b`` and covers at most INSIDE_SHARE of it."""
    outline = b.astype(np.float32).reshape(-1, 1, 2)
    within = all(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in a)
    return within and cv2.contourArea(a.astype(np.float32)) <= INSIDE_SHARE * cv2.contourArea(outline)


def _disjoint(a: np.ndarray, b: np.ndarray) -> bool:
    """True if two quads hardly overlap (their boxes share under 10 % of the smaller one)."""
    ax0, ay0, ax1, ay1 = *a.min(axis=0), *a.max(axis=0)
    bx0, by0, bx1, by1 = *b.min(axis=0), *b.max(axis=0)
    ix = max(0.0, min(ax1, bx1) - max(ax0, bx0))
    iy = max(0.0, min(ay1, by1) - max(ay0, by0))
    smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
    return ix * iy < 0.1 * smaller


# ---------------------------------------------------------------------------------------------
# 5. Rectifying and snapping
# ---------------------------------------------------------------------------------------------

def warp_source(image: np.ndarray, corners: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """``(RGB copy, corners in it)``: ``image`` shrunk near the scale of a side×side square of
    ``corners`` (not shrunk when it is near already), for :func:`warped`: warped from a copy near
    the target scale, thin lines are averaged, not skipped."""
    rgb = image if image.ndim == 3 else np.repeat(image[..., None], 3, axis=2)
    rgb = np.ascontiguousarray(rgb[..., :3])
    edge = side_lengths(corners).max()
    shrink = min(1.0, 1.5 * side / max(edge, 1.0))
    if shrink < 0.9:
        return cv2.resize(rgb, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), (corners + 0.5) * shrink - 0.5
    return rgb, corners


def warped(source: tuple[np.ndarray, np.ndarray], side: int, margin: int = 0) -> np.ndarray:
    """The :func:`warp_source` copy warped so that the corners lie on the edges of the square
    [0, side-1]²; with a ``margin`` the image is (side + 2·margin)² and the square sits ``margin``
    pixels in from its edges, with the photo around it."""
    src, pts = source
    h_small = square_homography(pts, side, 0.0)
    if margin:
        h_small = np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], np.float64) @ h_small
    out = side + 2 * margin
    return cv2.warpPerspective(src, h_small, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


BOW_MARGIN = 0.75
"""How much of the photo around the grid (in cells) is rectified with it to look for bowed borders
(:func:`border_bows`)."""
BOW_REACH = 0.6
"""How far (in cells) either side of its straight line a border is followed."""
BOW_SLICE, BOW_TRACK, BOW_FLOOR = 8, 3.0, 0.3
"""A border is followed in slices BOW_SLICE pixels wide, each one's ridge within BOW_TRACK pixels of
the last one's, and at least BOW_FLOOR of the typical slice's ridge (else the slice is skipped)."""
BOW_AGREE, BOW_COVER = 2.0, 0.7
"""A border counts as followed when the two ways along it (from either corner) agree within
BOW_AGREE pixels on at least BOW_COVER of the slices."""
BOW_INSIDE = 0.3
"""A border is followed only when the photo reaches this far (in cells) beyond it: a screenshot's
border at the image's edge has no paper beyond it, and something else is followed instead (realdev
Blog38, a 7×7 whose top border is 3 px from the image's top: its row of labels, a 10-px "bow")."""
BOW_MIN_PX = 3.0
"""Bows smaller than this everywhere (pixels of the rectified square) are left alone."""
BOW_PAIR = 0.5
"""A page curls like a cylinder, so opposite borders bow the same way: a border's bow is taken only
when the opposite one's differs from it by at most this share of the larger (or BOW_MIN_PX)
everywhere. A lone bowed border is something else followed (the edge of an app's panel beside its
left border, 11 px, hand-held k7474-0139, whose "2÷" then read "1−")."""


def border_profiles(dark: np.ndarray, margin: int, side: int) -> list[np.ndarray]:
    """The ridges (:func:`ridges`) across each border (top, bottom, left, right) of the square in
    ``dark``, the darkness of the square rectified with ``margin`` pixels of the photo around it
    (:func:`warped`): per border one row per BOW_SLICE pixels along it (its mean darkness across),
    one column per offset within BOW_REACH of a cell of the straight side, from outside the square
    to inside (the middle column on the side). :func:`border_bows` and :func:`followed_lines`
    follow the borders on them."""
    reach = int(BOW_REACH * CELL_PX)
    count = side // BOW_SLICE
    profiles = []
    for view in (dark, dark[::-1], dark.T, dark.T[::-1]):
        band = view[margin - reach:margin + reach + 1, margin:margin + count * BOW_SLICE]
        profiles.append(ridges(band.reshape(len(band), count, BOW_SLICE).mean(axis=2).T))
    return profiles


def border_bows(profiles: list[np.ndarray], side: int, inside: tuple[bool, bool, bool, bool]) -> list[np.ndarray] | None:
    """How far each border of the rectified square bows away from its straight side, pixel by pixel
    along it (top and bottom: rows below the straight side, per column; left and right: columns right
    of it, per row), or None when no border bows BOW_MIN_PX or more. ``profiles`` are the ridges
    across the borders (:func:`border_profiles`); ``inside`` says for each border (top, bottom,
    left, right) whether the band it is followed in lies within the photo (a screenshot's border at
    the image's edge is not followed).

    A page curled like a cylinder bows its top and bottom borders (and every row between them) by up
    to half a cell, while the corners stay where they are (12-MP hard newspaper k1313-0006, an 8×8:
    the rows rose 16 px, 0.3 of a cell, in the middle). Each border is followed from each corner, where
    it is on its straight side, slice by slice (:func:`locate_border` on :func:`ridges`, so the edge of a
    dark surround is not taken for it); where the two ways agree, a smooth bow pinned at both corners
    (``u(1-u)(a + bu + cu²)``) is fitted. A border not followed (cut by the photo's edge, faint, run
    into by a dark panel) is taken as straight."""
    reach = int(BOW_REACH * CELL_PX)
    half = BOW_SLICE // 2
    centres = np.arange(half, side - half + 1, BOW_SLICE)
    u = centres / max(1, side - 1)
    basis = (u * (1 - u))[:, None] * np.stack([np.ones_like(u), u, u * u], axis=1)
    along = np.arange(side) / max(1, side - 1)
    whole = (along * (1 - along))[:, None] * np.stack([np.ones_like(along), along, along * along], axis=1)
    bows = []
    for border, sign, within in zip(profiles, (1.0, -1.0, 1.0, -1.0), inside):
        if not within:
            bows.append(np.zeros(side))
            continue
        typical = float(np.median(border.max(axis=1)))
        ways = []
        for order in (range(len(centres)), range(len(centres) - 1, -1, -1)):
            pos, found = float(reach), np.full(len(centres), np.nan)
            for i in order:
                p = locate_border(border[i], pos, BOW_TRACK)
                if typical > 0 and border[i][nearest_index(p, border.shape[1])] >= BOW_FLOOR * typical:
                    found[i] = pos = p
            ways.append(found - reach)
        agree = np.abs(ways[0] - ways[1]) <= BOW_AGREE
        if agree.mean() < BOW_COVER:
            bows.append(np.zeros(side))
            continue
        coef = np.linalg.lstsq(basis[agree], (0.5 * (ways[0] + ways[1]))[agree], rcond=None)[0]
        bows.append(sign * (whole @ coef))
    for a, b in ((0, 1), (2, 3)):
        larger = max(float(np.abs(bows[a]).max()), float(np.abs(bows[b]).max()))
        if float(np.abs(bows[a] - bows[b]).max()) > max(BOW_MIN_PX, BOW_PAIR * larger):
            bows[a], bows[b] = np.zeros(side), np.zeros(side)
    if max(float(np.abs(b).max()) for b in bows) < BOW_MIN_PX:
        return None
    return bows


HINGE_THROUGH, HINGE_MISS = 0.05, 0.15
"""A border followed as a straight line that passes within HINGE_THROUGH of a cell of one of its
corners and more than HINGE_MISS from the other moves that other corner onto the line
(:func:`hinged_corners`)."""
HINGE_COVER = 0.7
"""A border counts as followed by a straight line when the line passes through a ridge (within the
last of HINGE_NEAR) in at least this share of its slices."""
HINGE_NEAR = (12.0, 6.0, 3.0, 2.0)
"""The line along a border is fitted again and again to the ridge of each slice nearest to it within
these distances (rectified pixels), the first time to the median of each slice's strongest ridge."""


def followed_lines(profiles: list[np.ndarray], side: int) -> list[tuple[float, float] | None]:
    """For each border of the square (top, bottom, left, right), the straight line its ridges
    (``profiles``, :func:`border_profiles`) follow, as the line's offsets into the square (pixels)
    at the border's two ends (the left or top end first); None for a border not followed so (faint,
    cut by the photo's edge, or not straight). Unlike a bow, the line is not pinned at the corners."""
    reach = int(BOW_REACH * CELL_PX)
    along = (np.arange(side // BOW_SLICE) * BOW_SLICE + BOW_SLICE / 2) / max(1, side - 1)
    across = np.arange(-reach + 1, reach, dtype=np.float64)  # the offsets a ridge can be found at
    return [_straight_line(border, along, across) for border in profiles]


def _straight_line(profiles: np.ndarray, along: np.ndarray, across: np.ndarray) -> tuple[float, float] | None:
    """The straight line through the ridges of ``profiles`` (one row per slice along a border, at
    positions ``along`` 0..1; columns at offsets -reach..reach, of which ``across`` are the inner
    ones) as its offsets at 0 and 1, or None (see :func:`followed_lines`)."""
    tops = profiles.max(axis=1)
    typical = float(np.median(tops))
    if typical <= 0:
        return None
    inner = profiles[:, 1:-1]
    peak = (inner >= BOW_FLOOR * typical) & (inner >= profiles[:, :-2]) & (inner >= profiles[:, 2:])
    has = peak.any(axis=1)
    if has.sum() < 5:
        return None
    strongest = np.where(peak, inner, -1.0).argmax(axis=1)
    slope, start = 0.0, float(np.median(across[strongest[has]]))
    rows = np.arange(len(along))
    for near in HINGE_NEAR:
        distance = np.where(peak, np.abs(across[None, :] - (start + slope * along)[:, None]), np.inf)
        nearest = distance.argmin(axis=1)
        on = distance[rows, nearest] <= near
        if on.sum() < 5:
            return None
        x, y = along[on], across[nearest[on]]  # least squares: the line through them
        slope = float(((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum())
        start = float(y.mean() - slope * x.mean())
    if on.sum() < HINGE_COVER * len(along):
        return None
    return start, start + slope


def hinged_corners(lines: list[tuple[float, float] | None], side: int, homography: np.ndarray) -> np.ndarray | None:
    """New corners (photo pixels, TL TR BR BL) for the square [0, side-1]² that ``homography`` maps the
    photo to, when a border's followed line (``lines``, :func:`followed_lines`) passes through one of
    its corners and misses the other (HINGE_THROUGH, HINGE_MISS): the corners where that line meets
    the sides beside it; None when no border is hinged so. One corner found off along a side is
    what this mends (hand-held web k5151-0014, a 6×6 on a curled page: its faint bottom-left corner
    was found 0.4 of a cell up the left border, and the bottom row's labels were cut in half); a
    border off at both ends is left alone (an outline beside the grid is such a line too)."""
    through, miss = HINGE_THROUGH * CELL_PX, HINGE_MISS * CELL_PX
    ends = [line if line is not None and min(map(abs, line)) <= through < miss < max(map(abs, line))
            else (0.0, 0.0) for line in lines]
    if all(end == (0.0, 0.0) for end in ends):
        return None
    s = side - 1.0
    (t0, t1), (b0, b1), (l0, l1), (r0, r1) = ends
    top, bottom = ((0.0, t0), (s, t1)), ((0.0, s - b0), (s, s - b1))
    left, right = ((l0, 0.0), (l1, s)), ((s - r0, 0.0), (s - r1, s))
    square = np.array([[_crossing(top, left), _crossing(top, right), _crossing(bottom, right),
                        _crossing(bottom, left)]], np.float64)
    return cv2.perspectiveTransform(square, np.linalg.inv(homography))[0]


def _crossing(one: tuple[tuple[float, float], tuple[float, float]],
              other: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
    """Where the lines through the two point pairs cross (they are near perpendicular here)."""
    (x1, y1), (x2, y2) = one
    (x3, y3), (x4, y4) = other
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / d
    return x1 + t * (x2 - x1), y1 + t * (y2 - y1)


def bands_inside(shape: tuple[int, ...], homography: np.ndarray, side: int, reach: float) -> tuple[bool, bool, bool, bool]:
    """For each border of the square [0, side-1]² (top, bottom, left, right), whether the band
    ``reach`` pixels either side of it maps into a photo of ``shape`` through the inverse of
    ``homography`` (photo → square)."""
    h, w = shape[:2]
    ends = np.linspace(0, side - 1, 9)
    lo, hi = -reach, side - 1 + reach
    sides = ([(x, lo) for x in ends], [(x, hi) for x in ends], [(lo, y) for y in ends], [(hi, y) for y in ends])
    back = np.linalg.inv(homography)
    out = []
    for points in sides:
        photo = cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), back).reshape(-1, 2)
        out.append(bool((photo[:, 0] >= 0).all() and (photo[:, 0] <= w - 1).all()
                        and (photo[:, 1] >= 0).all() and (photo[:, 1] <= h - 1).all()))
    return tuple(out)


def unbowed(wide: np.ndarray, margin: int, side: int, bows: list[np.ndarray]) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``(image, map)``: the side×side square cut from ``wide`` (rectified with ``margin``) along the
    bowed borders (:func:`border_bows`), every row and column between them bowed in proportion (a
    Coons patch: the bows of the top and bottom borders blended down the square, of the left and right
    ones across it); ``map`` is where each pixel was sampled from, in the square's coordinates."""
    top, bottom, left, right = bows
    t = (np.arange(side, dtype=np.float32) / max(1, side - 1))
    x, y = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32))
    map_x = x + ((1 - t)[None, :] * left[:, None] + t[None, :] * right[:, None]).astype(np.float32)
    map_y = y + ((1 - t)[:, None] * top[None, :] + t[:, None] * bottom[None, :]).astype(np.float32)
    image = cv2.remap(wide, map_x + margin, map_y + margin, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return image, (map_x, map_y)


def snap_lines(profile: np.ndarray, n: int) -> tuple[float, ...]:
    """N+1 line positions: the ends fixed on the border, the inner lines where a smooth bend of
    the even spacing puts them. Each inner line's ridge within a quarter cell of its even place is
    found (:func:`locate_border` on :func:`ridges`), and the shifts of the clear ones are fitted by
    ``t(1-t)(c0 + c1 t)`` (t the line's place 0..1; zero at the borders): a curled page stretches
    cells smoothly, so one stray ridge (a clue, a wall's shadow) cannot move its line alone. With
    fewer than ``SNAP_MIN_LINES`` clear lines the spacing stays even."""
    side = len(profile)
    step = (side - 1) / n
    ridge = ridges(profile)
    even = np.arange(n + 1) * step
    t, shift, weight = [], [], []
    for i in range(1, n):
        pos = locate_border(ridge, even[i], 0.25 * step)
        strength = float(ridge[nearest_index(pos, side)])
        if strength > 0 and abs(pos - even[i]) < 0.25 * step:
            t.append(i / n), shift.append(pos - even[i]), weight.append(strength)
    if len(t) < SNAP_MIN_LINES:
        return tuple(float(x) for x in even)
    t, shift, weight = np.array(t), np.array(shift), np.array(weight)
    keep = weight >= SNAP_CLEAR * np.median(weight)
    coef = np.zeros(2)
    for _ in range(2):
        if keep.sum() < SNAP_MIN_LINES:
            return tuple(float(x) for x in even)
        base = (t * (1 - t))[:, None] * np.stack([np.ones_like(t), t], axis=1)
        w = np.sqrt(weight[keep])
        coef = np.linalg.lstsq(base[keep] * w[:, None], shift[keep] * w, rcond=None)[0]
        keep &= np.abs(base @ coef - shift) < SNAP_OUTLIER * step
    grid_t = np.arange(n + 1) / n
    bend = grid_t * (1 - grid_t) * (coef[0] + coef[1] * grid_t)
    return tuple(float(x) for x in even + bend)


# ---------------------------------------------------------------------------------------------
# The stage
# ---------------------------------------------------------------------------------------------

def find_grid(image: np.ndarray) -> GridFind:
    """Find the KenKen grid in an RGB (or grey) image: corners, N, rectified square, snapped lines.

    Raises :class:`NoPuzzleFound` (with a message for people) when no candidate outline shows a
    grid of 3..16 cells with visible lines, holding what was searched when the image was (its
    ``search``, for the last resort :func:`grid_in_bands`). (The Kakuro finder probes
    this outline too; a caller that looks for both asks once, :func:`vision.read_any.read_any`.)
    """
    if image is None or image.size == 0 or min(image.shape[:2]) < 32:
        raise NoPuzzleFound("The image is empty or too small to hold a puzzle.")
    search, probes, flat = _searched(image)
    if not probes and not flat:
        raise NoPuzzleFound("No puzzle grid found: no square outline with evenly spaced lines inside. Is the whole "
                            "grid in the photo, with a little margin round it?", search)
    return _found(search, probes + flat, flat)


def _searched(image: np.ndarray) -> tuple["_Search", list[Probe], list[Probe]]:
    """What :func:`find_grid` searched in ``image`` and the probes that show a grid: those of the
    photo's outlines and, where only a faint grid showed, those of the flattened copy's (``flat``)."""
    gray, scale = work_copy(image, MIN_WORK_SIDE)
    # A light frame around the working copy closes the outline of a grid that runs to the image's
    # edges (a phone screenshot whose grid spans the screen's width).
    pad = max(4, int(EDGE_PAD * max(gray.shape)))
    gray = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=int(image_quantile(gray, 0.95)))
    levels = pyramid(gray)
    # The two outline searches side by side, the second by the helper process when it runs.
    quads, solid = two_core_map(call, [(candidate_quads, gray, pad, True), (solid_quads, gray)])
    quads = quads + distinct(quads + solid)[len(quads):]
    every = _probed_all(levels, quads)
    probes = [p for p in every if _shows_a_grid(p)]
    probes = probes + _inset_probes(levels, probes) + _unbanded_probes(levels, every)
    flat: list[Probe] = []
    if max((p.contrast for p in probes), default=0.0) < FAINT_CONTRAST:
        # A hard shadow across the grid: its outline is whole in the flattened copy. Looked for also
        # when only a faint grid was found (the shadow's edge cut up the page around the puzzle).
        seen = distinct(quads)
        quads = distinct(seen + candidate_quads(flattened(gray), pad, bridge=True))
        flat = _probed(levels, quads[len(seen):])
        if probes:  # only a clear grid there beats the faint one (not a faint panel around it)
            flat = [p for p in flat if p.contrast >= FAINT_CONTRAST]
        elif not flat:
            flat = _completed_probes(levels, quads[len(seen):])
    return _Search(image, levels, tuple(quads), pad, scale), probes, flat


@dataclass(frozen=True, eq=False)
class _Search:
    """What :func:`find_grid` searched: the image, the working copy's pyramid (padded by ``pad``,
    ``scale`` times the image) and every distinct outline it probed (the photo's, then the
    flattened copy's)."""

    image: np.ndarray
    levels: list[np.ndarray]
    quads: tuple[np.ndarray, ...]
    pad: int
    scale: float


def grid_in_bands(failure: NoPuzzleFound) -> GridFind:
    """The last resort after :func:`find_grid` raised ``failure``: the outlines it probed, each less
    BAND_CUT off one side at a time (:func:`_trimmed_probes`), without searching the image again.
    For a photo in which no Kakuro was found either (most Kakuro photos show no KenKen grid, and
    these probes cost them 0.1–1.5 s). Raises ``failure`` when none shows a grid (or it holds no
    search: the image was too small)."""
    search = failure.search
    found = _trimmed_probes(search.levels, list(search.quads)) if search is not None else []
    if not found:
        raise failure
    return _found(search, found, found)


def _found(search: _Search, probes: list[Probe], flat: list[Probe]) -> GridFind:
    """The grid of the best of ``probes`` (:func:`choose`) in the searched image, or of the grid
    found again zoomed in on it (:func:`_zoomed_in`); marked ``flattened`` when it is one of
    ``flat`` (a last resort's, not a plain find)."""
    best, notes = choose(probes)
    corners = _in_image(search, best.corners)
    flattened = any(p is best for p in flat)
    if (zoomed := _zoomed_in(search, best, corners)) is not None:
        corners, best, flattened = zoomed
    confidence = float(np.clip(best.contrast / (2 * MIN_CONTRAST), 0.0, 1.0))
    found = grid_from_corners(search.image, corners, best.size, confidence, notes, hinges=True)
    if (moved := _borders_on_lattice(search.image, found)) is not None:
        found = grid_from_corners(search.image, moved, best.size, confidence, notes)
    return replace(found, flattened=True) if flattened else found


def _borders_on_lattice(image: np.ndarray, grid: GridFind) -> np.ndarray | None:
    """New corners for ``grid`` (found in ``image``) when a border of its rectified square lies more
    than BORDER_SLACK of a cell from where the inner lines' even lattice puts it and a line is there
    (:func:`evenly_spaced_borders`, on the rectified grid's own line profiles), unless the border is
    itself a line DARK_BORDER times as dark as the darkest inner one (:func:`_dark_borders`); None
    when no border moves. The probes check their borders the same way, but on a coarse copy whose
    darkness took a thin outer line beside a coloured page for part of the page: hand-held
    k5151-0032, a web 7×7 on a white card on a blue page, was outlined a third of a cell into the
    blue, and its top row's labels were read from the wrong place. The corners are mapped back by
    the homography alone, a curled page's bend (``grid.bend``) left aside."""
    n = grid.size
    side = n * CELL_PX
    ends = (0.0, side - 1.0)
    dark = darkness(to_grey(grid.rectified), CELL_PX // 3)
    placed = [evenly_spaced_borders(ridges(p), *ends, n) for p in line_profiles(dark, 0, side)]
    if all(borders == ends for borders in placed):
        return None
    kept = _dark_borders(image, grid)
    (x0, x1), (y0, y1) = ([end if keep else border for border, end, keep in zip(borders, ends, keeps)]
                          for borders, keeps in zip(placed, kept))
    if (x0, x1, y0, y1) == (*ends, *ends):
        return None
    square = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)  # the square is [0, side-1]²
    return cv2.perspectiveTransform(square, np.linalg.inv(grid.homography))[0]


LATTICE_MARGIN = 0.5
"""How much of the photo around the grid (in cells) :func:`_dark_borders` rectifies with it."""
DARK_BORDER = 1.5
"""A border at least this many times as dark as the darkest inner line or wall is a line of its own
(:func:`_dark_borders`): a heavy border around thin lines is two to three times as dark, while an
app's border is about as dark as its cage walls and may be off its lattice like any other."""


def _dark_borders(image: np.ndarray, grid: GridFind) -> list[tuple[bool, bool]]:
    """Whether each border of ``grid`` ((left, right), (top, bottom)) is a line DARK_BORDER times as
    dark as the darkest of its inner lines and walls, measured on the square rectified with
    LATTICE_MARGIN of the photo around it (on the square alone a border is half a ridge). Such a
    border is a line and stays where it is, whatever the lattice of fainter inner lines says: pen
    photo k7474-0029, a web 4×4 under a pen, whose faint dotted inner lines fitted a lattice 5 %
    narrow, had its heavy left border moved a sixth of a cell into its cells. A border about as
    dark as the walls may move (hard app k9494-0133's, found a third of a cell off)."""
    n = grid.size
    side = n * CELL_PX
    margin = int(LATTICE_MARGIN * CELL_PX)
    wide = warped(warp_source(image, grid.corners, side), side, margin)
    dark = darkness(to_grey(wide), CELL_PX // 3)
    out = []
    for profile in (ridges(p) for p in line_profiles(dark, margin, margin + side)):
        inner = float(profile[margin + CELL_PX // 4:margin + side - CELL_PX // 4].max())
        out.append(tuple(float(profile[e - 2:e + 3].max()) >= DARK_BORDER * inner for e in (margin, margin + side - 1)))
    return out


def _in_image(search: _Search, corners: np.ndarray) -> np.ndarray:
    """Working-copy ``corners`` of ``search`` in its image's pixels."""
    return (corners - search.pad + 0.5) / search.scale - 0.5


def _zoomed_in(search: _Search, best: Probe, corners: np.ndarray) -> tuple[np.ndarray, Probe, bool] | None:
    """``(corners, probe, flattened)`` of the grid found again in a crop of the image around
    ``corners`` (ZOOM_MARGIN of its side on each side), when ``best`` was found in a working copy
    shrunk from the image with cells under ZOOM_CELL pixels there (or its side under ZOOM_SIDE) and
    the crop's grid covers much the same place (ZOOM_SAME); else None. See ZOOM_CELL."""
    side = float(side_lengths(best.corners).mean())
    if search.scale >= 1.0 or (side / best.size >= ZOOM_CELL and side >= ZOOM_SIDE):
        return None
    image = search.image
    low, high = corners.min(axis=0), corners.max(axis=0)
    reach = ZOOM_MARGIN * float((high - low).max())
    x0, y0 = (int(v) for v in np.maximum(np.floor(low - reach), 0))
    x1, y1 = (int(v) for v in np.minimum(np.ceil(high + reach), (image.shape[1], image.shape[0])))
    if (x1 - x0) * (y1 - y0) > ZOOM_CROP * image.shape[0] * image.shape[1] or min(x1 - x0, y1 - y0) < 32:
        return None
    crop, probes, flat = _searched(image[y0:y1, x0:x1])
    if not probes and not flat:
        return None
    pick, _ = choose(probes + flat)
    found = _in_image(crop, pick.corners) + (x0, y0)
    if _overlap(found, corners) < ZOOM_SAME:
        return None
    return found, pick, any(p is pick for p in flat)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    shared, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = _area(a) + _area(b) - shared
    return float(shared / union) if union > 0 else 0.0


def inset(quad: np.ndarray, share: float) -> np.ndarray:
    """``quad`` shrunk by ``share`` of its side on every side, in its own perspective."""
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad.astype(np.float32))
    inner = np.float32([[share, share], [1 - share, share], [1 - share, 1 - share], [share, 1 - share]])
    return cv2.perspectiveTransform(inner.reshape(1, 4, 2), h)[0].astype(np.float64)


def _inset_probes(levels: list[np.ndarray], probes: list[Probe]) -> list[Probe]:
    """Probes of the untidy ``probes``' candidates shrunk by INSETS that find a grid no probe found (a
    corner INSET_MOVED cells or more away, or another N) or find it scoring INSET_BETTER times as
    much: one that finds a grid again, a pixel off, would only stir the choice among near-equals."""
    found = []
    for p in probes:
        if p.tidy >= INSET_TIDY:
            continue
        cell = _cell_side(p)
        shrunk = _probed(levels, [inset(p.quad, share) for share in INSETS])
        again = any(q.size == p.size for q in shrunk)  # its N is the outline's own, not a false row
        for q in shrunk:
            if q.size < p.size and abs(_cell_side(q) / cell - 1) < INSET_SAME_CELL and again:
                continue  # the same lattice less its outer cells
            if not any(o.size == q.size and np.linalg.norm(q.corners - o.corners, axis=1).max() < INSET_MOVED * _cell_side(o)
                       and q.score <= INSET_BETTER * o.score for o in probes + found):
                found.append(q)
    return found


def completions(quad: np.ndarray) -> list[np.ndarray]:
    """``quad`` with each corner in turn moved to where the other three make it a parallelogram."""
    quad = np.asarray(quad, np.float64)
    out = []
    for k in range(4):
        done = quad.copy()
        done[k] = quad[(k + 1) % 4] + quad[(k + 3) % 4] - quad[(k + 2) % 4]
        out.append(done)
    return out


def _completed_probes(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[Probe]:
    """The last resort when no candidate shows a grid: the probes of the flattened copy's new
    ``quads`` with one corner completed (:func:`completions`) that find a grid at least
    COMPLETED_TIDY tidy. A hard shadow's edge across a grid's corner can pull the outline's corner
    along it, in the photo and in the flattened copy alike (hard web k8383-0224, a 6×6 under a
    shadow's point: no grid was found). Only the flattened copy's outlines are completed: the
    photo's own, completed too, took a Kakuro photo's search for a KenKen grid 0.2 s longer on
    average (seed 2727) and found no more KenKen grids."""
    h, w = levels[0].shape[:2]
    shaped = [c for q in quads for c in completions(q)
              if c.min() >= 0 and c[:, 0].max() < w and c[:, 1].max() < h and _squarish(c)
              and np.abs(c - q).max() >= COMPLETED_SHIFT * side_lengths(q).mean()]
    return [p for p in _probed(levels, shaped) if p.tidy >= COMPLETED_TIDY]


def trimmed(quad: np.ndarray, side: int, share: float) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL) less ``share`` of it on one ``side`` (0 top, 1 bottom, 2 left,
    3 right), in its own perspective."""
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.asarray(quad, np.float32))
    x0, y0, x1, y1 = ((0, share, 1, 1), (0, 0, 1, 1 - share), (share, 0, 1, 1), (0, 0, 1 - share, 1))[side]
    kept = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])
    return cv2.perspectiveTransform(kept, h)[0].astype(np.float64)


def _trimmed_probes(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[Probe]:
    """The last resort after :func:`_completed_probes`: the probes of every outline (the photo's and
    the flattened copy's) with BAND_CUT of it cut off one side at a time that find a grid at least
    COMPLETED_TIDY tidy (see BAND_CUT). About 10 ms a probe: asked for only when nothing else
    found a grid, not even a Kakuro's (:func:`grid_in_bands`)."""
    cut = [trimmed(order_corners(q), side, BAND_CUT) for q in quads for side in range(4)]
    return [p for p in _probed(levels, cut) if p.tidy >= COMPLETED_TIDY]


def _unbanded_probes(levels: list[np.ndarray], every: list[Probe]) -> list[Probe]:
    """The probes of the outlines in ``every`` whose lattice stood out (BANDED_CONTRAST) in cells too
    untidy for a grid (under MIN_TIDY), each less BAND_CUT off one side at a time, that find the
    outline's N at least COMPLETED_TIDY tidy and FAINT_CONTRAST clear (see BANDED_CONTRAST)."""
    banded = [p for p in every if p.contrast >= BANDED_CONTRAST and p.tidy < MIN_TIDY]
    cut = [trimmed(order_corners(p.quad), side, BAND_CUT) for p in banded for side in range(4)]
    sizes = [p.size for p in banded for _ in range(4)]
    return [p for p, n in zip(_probes_of(levels, cut), sizes) if p is not None
            and p.size == n and p.tidy >= COMPLETED_TIDY and p.contrast >= FAINT_CONTRAST]


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of ``quad``'s four sides (4×2 corners), from its first corner round: with corners
    TL, TR, BR, BL, the top, right, bottom and left sides."""
    return np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)


def _squarish(quad: np.ndarray) -> bool:
    """Whether no side of ``quad`` is more than COMPLETED_SIDES times as long as another."""
    sides = side_lengths(quad)
    return bool(sides.min() > 0 and sides.max() <= COMPLETED_SIDES * sides.min())


def _cell_side(p: Probe) -> float:
    """The mean side of a probe's cells (working-copy pixels)."""
    return float(side_lengths(p.corners).mean()) / p.size


def _probed(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[Probe]:
    """The probes of ``quads`` that show a grid clearly enough (MIN_CONTRAST, MIN_TIDY)."""
    return [p for p in _probed_all(levels, quads) if _shows_a_grid(p)]


def _shows_a_grid(p: Probe) -> bool:
    """Whether a probe's lattice stands out enough (MIN_CONTRAST) in cells tidy enough (MIN_TIDY)."""
    return p.contrast >= MIN_CONTRAST and p.tidy >= MIN_TIDY


def _probed_all(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[Probe]:
    """Every probe of ``quads`` that found a lattice at all."""
    return [p for p in _probes_of(levels, quads) if p is not None]


def _probes_of(levels: list[np.ndarray], quads: list[np.ndarray]) -> list[Probe | None]:
    """The probe of each of ``quads`` in turn (None where no lattice was found), half of them worked
    out by the helper process when it runs (:func:`vision.helper.two_core_map`)."""
    squares = [(warp_square(levels, q, PROBE_SIDE, PROBE_MARGIN * PROBE_SIDE), q) for q in quads]
    return two_core_map(probe_square, squares)


def grid_from_corners(image: np.ndarray, corners: np.ndarray, n: int, confidence: float = 1.0,
                      notes: tuple[str, ...] = (), hinges: bool = False) -> GridFind:
    """The :class:`GridFind` of an N×N grid whose outer corners (TL, TR, BR, BL, on the border's
    centre line) are known: rectified at CELL_PX per cell (cut along the borders where a curled page
    bows them, :func:`border_bows`), lines snapped, bent inner lines straightened. ``find_grid``
    ends here, and with ``hinges`` a corner that a border followed as a straight line misses is
    moved onto it first (:func:`hinged_corners`); training and tests with known corners start here."""
    corners = np.asarray(corners, np.float64)
    side = n * CELL_PX
    source = warp_source(image, corners, side)
    homography = square_homography(corners, side, 0.0)
    margin = int(BOW_MARGIN * CELL_PX)
    wide = warped(source, side, margin)
    profiles = border_profiles(darkness(to_grey(wide), CELL_PX // 3), margin, side)
    if hinges and (moved := hinged_corners(followed_lines(profiles, side), side, homography)) is not None:
        return grid_from_corners(image, moved, n, confidence, notes)
    inside = bands_inside(image.shape, homography, side, BOW_INSIDE * CELL_PX)
    bows = border_bows(profiles, side, inside)
    if bows is None:  # warped on its own: the middle of ``wide`` differs from it in the last bits
        rectified, bow = warped(source, side), None
    else:
        rectified, bow = unbowed(wide, margin, side, bows)
    dark = darkness(to_grey(rectified), CELL_PX // 3)
    col, row = line_profiles(dark, 0, side)
    lines_x, lines_y = snap_lines(col, n), snap_lines(row, n)
    rectified, bend = straightened(rectified, dark, lines_x, lines_y)
    bend = _composed(bow, bend)
    return GridFind(corners=corners, size=n, rectified=rectified, lines_x=lines_x,
                    lines_y=lines_y, homography=homography, confidence=confidence, notes=tuple(notes),
                    source=image, bend=bend)


def _composed(first: tuple[np.ndarray, np.ndarray] | None,
              then: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray] | None:
    """The sampling map of two resamplings one after the other (``then`` samples the image that
    ``first`` made), either of them None when it left its image unchanged."""
    if first is None or then is None:
        return then if first is None else first
    return tuple(cv2.remap(m, then[0], then[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) for m in first)


BEND_REACH = 0.25
"""How far (in cells) a line is looked for either side of its snapped place when measuring how a
curl bends it (:func:`straightened`)."""
BEND_ALONG = 10
"""Percentile of a line's darkness along a band taken as its strength there (a line is unbroken; a
bold clue printed along it has gaps between and inside its characters)."""
BEND_MIN_PX = 2.0
"""A bend smaller than this everywhere (pixels of the rectified image) is left alone."""


def straightened(rectified: np.ndarray, dark: np.ndarray, lines_x: tuple[float, ...],
                 lines_y: tuple[float, ...]) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """``(image, map)``: the rectified grid with a curled page's bent lines made straight, onto ``lines_x`` and
    ``lines_y``: the snapped lines are straight, the real ones on a curled page bend away from them
    by up to a fifth of a cell at a line's far end, so a cell's box cut a neighbour's wall or clue
    into it. The bend of the vertical and of the horizontal lines is measured on the line darkness
    ``dark`` (:func:`vision.bend.bend_field`) and the image resampled along it; unchanged when the
    bend stays under BEND_MIN_PX. ``map`` is where each pixel was sampled from (``map_x``, ``map_y``
    for :func:`cv2.remap`), None when unchanged. (The homography still maps the photo onto the unbent square: off
    by the bend, a few pixels, where the page curls.)"""
    xs, ys = np.asarray(lines_x, float), np.asarray(lines_y, float)
    reach = BEND_REACH * float(np.median(np.diff(xs)))
    dx = bend_field(dark, xs, ys, reach, typical=50, percentile=BEND_ALONG, even=True, pin_borders=True)
    dy = bend_field(dark.T, ys, xs, reach, typical=50, percentile=BEND_ALONG, even=True, pin_borders=True)
    if max(dx.largest(xs, ys), dy.largest(ys, xs)) < BEND_MIN_PX:
        return rectified, None
    h, w = rectified.shape[:2]
    x, y = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    map_x = (x + dx.at(x, y)).astype(np.float32)
    map_y = (y + dy.at(y, x)).astype(np.float32)
    return cv2.remap(rectified, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), (map_x, map_y)
