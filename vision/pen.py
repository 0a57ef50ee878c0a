"""A pen lying across the grid: where it covers the puzzle, so that what lies under it is not read.

Why: a person checking a half-filled grid often leaves the pen on the page. Its body is a band a
quarter to half a cell wide, darker or more coloured than the paper. Where it crossed a cell edge
at a shallow slant the wall finder took it for a cage wall, and where it crossed a cell's top left
its ink was taken for a clue label, so that the clue rule cut a cage in two (fifty-eighth round: 3 and 3 of 20 clean and hand-held photos with a dark stroke across them read
exact; sixty-ninth round, seed 8383's first 60 photos made with a pen by ``kensnap corpus --pen``:
partitions right 12, 26 with what follows).

Algorithm, on the rectified grid (:class:`vision.model.GridFind`), shrunk to about WORK_CELL pixels
a cell when it is larger:

1. *Sides.* Canny edges of the grey image, long straight segments among them (OpenCV's
   probabilistic Hough transform), kept when at least MIN_LENGTH cells long and slanted at least
   MIN_SLANT degrees off the grid's rows and columns: the grid's own lines, walls and labels run
   level or upright, and no glyph is a cell long.
2. *Pairs.* Two such segments within PARALLEL degrees of each other, WIDTH cells apart, beside each
   other for at least MIN_LENGTH cells, are a pen's two sides.
3. *A rod, not a shadow's edge.* The band between them is compared with the page on each side
   (the median colour of strips along it): it must differ from both by at least CONTRAST, and
   from the nearer by more than SIDES_SHARE of what the two sides differ by (a soft shadow's edge
   is a ramp between its two sides, with no band of its own).
4. *Where it lies.* Of the pairs left, the one of most contrast; its extent along its axis runs on
   from where its two sides lie beside each other while the middle of the band still looks more
   like the pen than the page, and then TIP widths further (the tip narrows to a point); the cover
   is the band, grown by MARGIN cells each way.

What the reader does with it: walls are measured where the pen leaves them clear
(:func:`vision.cages.edge_strengths`), labels under it count for nothing either way when the walls
are settled by the clue rule (:func:`hidden_labels`, :func:`vision.cages.settle`) and what was read
there is doubted when the clues are settled (:func:`doubted`), written digits
are read with the pen painted out (:func:`without_pen`) and not at all in the cells it hides
(:func:`hidden_digits`: ``Reading.hidden_entries``, so a check says they were not seen instead of
calling the pen's ink a digit), and the reading is never confident and says where the pen lies
(:mod:`vision.read`).

A light pen on white paper (white, silver) shows little contrast and is often not found; a pen
lying along a row or column is not looked for (it would be taken for a wall, as before).

Example::

    pen = find_pen(grid)
    if pen is not None:
        pen.mask            # True where the pen covers the rectified grid
        pen.covers(box)     # share of a box (x0, y0, x1, y1) under it
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from solver.puzzle import cell_name

from .cages import _cell_side
from .grey import to_grey
from .model import GridFind

WORK_CELL = 40.0
"""Pixels per cell the grid is looked at with (a larger rectified grid is shrunk first)."""
MIN_LENGTH = 1.2
"""Cells a pen's side must run straight, and its two sides beside each other."""
MIN_SLANT = 8.0
"""Degrees off the grid's rows and columns a pen's side must lean."""
PARALLEL = 3.0
"""Degrees a pen's two sides may differ in direction."""
WIDTH = (0.12, 0.9)
"""A pen's width in cells (its sides' distance), least and most."""
CONTRAST = 25.0
"""Least difference (RGB distance) between the band's median colour and the page's on each side."""
SIDES_SHARE = 0.6
"""The band must differ from the nearer side by more than this share of the sides' difference."""
MARGIN = 0.0
"""Cells the cover reaches past the band's sides and ends. Wider covers left fewer edges measured
where they are clear (:data:`vision.cages.PEN_CLEAR`): partitions right 26 of 60 at 0, 24 at 0.05,
18 at 0.1 with a third of the pen's width more for its shadow (sixty-ninth round)."""
TIP = 1.5
"""Widths the cover reaches past where the band is last seen: a pen's tip narrows to a point."""


@dataclass(frozen=True, eq=False)
class PenCover:
    """A pen found across the rectified grid: its axis from ``start`` to ``end`` and its ``width``,
    in rectified pixels, and ``mask`` (bool, the rectified grid's shape), True where it covers the
    grid with its margin."""

    start: tuple[float, float]
    end: tuple[float, float]
    width: float
    mask: np.ndarray
    page: tuple[float, float, float] = (255.0, 255.0, 255.0)
    """The page's colour (RGB) beside the pen."""

    def covers(self, box: tuple[float, float, float, float]) -> float:
        """The share of ``box`` (x0, y0, x1, y1 in rectified pixels) under the cover."""
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        part = self.mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        return float(part.mean()) if part.size else 0.0

    def painted(self, image: np.ndarray, grow: float) -> np.ndarray:
        """A copy of ``image`` (the rectified grid, RGB) with the cover, grown by ``grow`` pixels each
        way (the pen's soft edges and shadow), painted in the page's colour: a written digit beside
        the pen is then cut without the pen's straight edges."""
        mask = self.mask
        if grow >= 1:
            size = 2 * int(round(grow)) + 1
            mask = cv2.dilate(mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))) > 0
        out = image.copy()
        out[mask] = np.clip(np.rint(self.page), 0, 255).astype(image.dtype)
        return out


@dataclass(frozen=True)
class _Side:
    """A straight edge segment from ``start`` to ``end`` (pixels), ``angle`` degrees (0..180)."""

    start: np.ndarray
    end: np.ndarray
    angle: float


def _slanted_sides(gray: np.ndarray, cell: float) -> list[_Side]:
    """Straight edge segments of ``gray`` at least MIN_LENGTH cells long, slanted at least MIN_SLANT
    degrees off level and upright (step 1)."""
    edges = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.0), 20, 60)
    found = cv2.HoughLinesP(edges, 1, np.pi / 360, max(8, int(0.6 * cell)), minLineLength=max(8, int(MIN_LENGTH * cell)),
                            maxLineGap=int(0.12 * cell) + 1)
    sides = []
    for x1, y1, x2, y2 in ([] if found is None else found.reshape(-1, 4).tolist()):
        angle = float(np.degrees(np.arctan2(y2 - y1, x2 - x1)) % 180)
        if min(angle % 90, 90 - angle % 90) >= MIN_SLANT:
            sides.append(_Side(np.array([x1, y1], float), np.array([x2, y2], float), angle))
    return sides


def _median_colour(image: np.ndarray, origin: np.ndarray, way: np.ndarray, normal: np.ndarray,
                   along: tuple[float, float], off: tuple[float, float]) -> np.ndarray | None:
    """The median colour of ``image`` over the strip ``along`` × ``off`` (pixels along ``way`` and
    ``normal`` from ``origin``), sampled on a 40 × 5 lattice; None when most of it is off the image."""
    u, v = np.meshgrid(np.linspace(*along, 40), np.linspace(*off, 5))
    points = origin + u.reshape(-1, 1) * way + v.reshape(-1, 1) * normal
    xy = np.rint(points).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] < image.shape[1]) & (xy[:, 1] < image.shape[0])
    if inside.sum() < 0.5 * len(xy):
        return None
    return np.median(image[xy[inside, 1], xy[inside, 0]].reshape(int(inside.sum()), -1), axis=0)


Band = tuple[float, np.ndarray, np.ndarray, float, tuple[float, float], np.ndarray, np.ndarray]
"""What :func:`_band_contrast` finds: contrast, axis origin, direction, width, extent along the axis
(pixels from the origin), the band's colour and the nearer page side's colour."""


def _band_contrast(image: np.ndarray, one: _Side, other: _Side, cell: float) -> Band | None:
    """For two sides (step 2), the band between them (:data:`Band`), its contrast the lesser of its
    differences from the page on each side (step 3); None when the two are no rod's sides."""
    if min(abs(one.angle - other.angle), 180 - abs(one.angle - other.angle)) > PARALLEL:
        return None
    way = (one.end - one.start) / max(1e-6, float(np.linalg.norm(one.end - one.start)))
    normal = np.array([-way[1], way[0]])
    apart = float(np.dot((other.start + other.end) / 2 - one.start, normal))
    width = abs(apart)
    if not WIDTH[0] * cell <= width <= WIDTH[1] * cell:
        return None
    normal = normal * np.sign(apart)  # from one side towards the other
    a = sorted((0.0, float(np.dot(one.end - one.start, way))))
    b = sorted(float(np.dot(p - one.start, way)) for p in (other.start, other.end))
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    if hi - lo < MIN_LENGTH * cell:
        return None
    band = _median_colour(image, one.start, way, normal, (lo, hi), (0.25 * width, 0.75 * width))
    before = _median_colour(image, one.start, way, normal, (lo, hi), (-0.6 * width - 2, -0.1 * width - 2))
    after = _median_colour(image, one.start, way, normal, (lo, hi), (1.1 * width + 2, 1.6 * width + 2))
    if band is None or before is None or after is None:
        return None
    near = min(float(np.linalg.norm(band - before)), float(np.linalg.norm(band - after)))
    sides = float(np.linalg.norm(before - after))
    if near < CONTRAST or near <= SIDES_SHARE * sides:
        return None
    origin = one.start + normal * width / 2
    page = before if np.linalg.norm(band - before) < np.linalg.norm(band - after) else after
    return near, origin, way, width, (lo, hi), band, page


def _walked(image: np.ndarray, origin: np.ndarray, way: np.ndarray, width: float, extent: tuple[float, float],
            band: np.ndarray, page: np.ndarray, cell: float) -> tuple[float, float]:
    """``extent`` (pixels along ``way`` from ``origin``) carried on each way, a tenth of a cell at a
    time, while the middle of the band there looks more like the pen (``band``) than the page
    (``page``, its nearer side), then past the tip (TIP widths), which narrows to a point."""
    normal = np.array([-way[1], way[0]])
    step = max(1.0, 0.1 * cell)
    lo, hi = extent
    reach = float(np.hypot(*image.shape[:2]))
    for direction in (-1, 1):
        at = lo if direction < 0 else hi
        while abs(at) < reach:
            here = _median_colour(image, origin, way, normal, tuple(sorted((at, at + direction * 2 * step))),
                                  (-0.2 * width, 0.2 * width))
            if here is None or np.linalg.norm(here - band) >= np.linalg.norm(here - page):
                break
            at += direction * step
        lo, hi = (at, hi) if direction < 0 else (lo, at)
    return lo - TIP * width, hi + TIP * width


def find_pen(grid: GridFind) -> PenCover | None:
    """The pen lying across ``grid``'s rectified image (see the module docstring), or None."""
    image = grid.rectified
    cell = _cell_side(grid)
    scale = min(1.0, WORK_CELL / max(cell, 1e-6))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    small_cell = cell * scale
    sides = sorted(_slanted_sides(to_grey(small), small_cell), key=lambda s: -float(np.linalg.norm(s.end - s.start)))[:60]
    colours = small.astype(np.float32)
    best = None
    for i, one in enumerate(sides):
        for other in sides[i + 1:]:
            found = _band_contrast(colours, one, other, small_cell)
            if found is not None and (best is None or found[0] > best[0]):
                best = found
    if best is None:
        return None
    _, origin, way, width, (lo, hi), band, page = best
    lo, hi = _walked(colours, origin, way, width, (lo, hi), band, page, small_cell)
    normal = np.array([-way[1], way[0]])
    origin, width, lo, hi = origin / scale, width / scale, lo / scale, hi / scale
    grow = MARGIN * cell
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float32)
    along = (xs - origin[0]) * way[0] + (ys - origin[1]) * way[1]
    off = (xs - origin[0]) * normal[0] + (ys - origin[1]) * normal[1]
    mask = (np.abs(off) <= width / 2 + grow) & (along >= lo - grow) & (along <= hi + grow)
    start, end = origin + lo * way, origin + hi * way
    return PenCover((float(start[0]), float(start[1])), (float(end[0]), float(end[1])), float(width), mask,
                    tuple(float(v) for v in np.ravel(page)[:3]))


def _part_covered(grid: GridFind, pen: PenCover, cell: tuple[int, int], part: tuple[float, float, float, float]) -> float:
    """The share of ``cell``'s ``part`` (shares of the cell, x0, y0, x1, y1) under ``pen``."""
    x0, y0, x1, y1 = grid.cell_box(cell)
    a, b, e, f = part
    return pen.covers((x0 + a * (x1 - x0), y0 + b * (y1 - y0), x0 + e * (x1 - x0), y0 + f * (y1 - y0)))


LABEL_CORNER = (0.0, 0.0, 0.7, 0.45)
"""Where a cell's clue label is printed, as shares of the cell (x0, y0, x1, y1): its top left."""
LABEL_HIDDEN = 0.2
"""A label corner this much under a pen counts as hidden (:func:`hidden_labels`)."""


def hidden_labels(grid: GridFind, pen: PenCover) -> tuple[tuple[int, int], ...]:
    """The cells of ``grid`` whose label corner (LABEL_CORNER) lies at least LABEL_HIDDEN under
    ``pen``, in reading order."""
    return tuple((r, c) for r in range(grid.size) for c in range(grid.size)
                 if _part_covered(grid, pen, (r, c), LABEL_CORNER) >= LABEL_HIDDEN)


HIDDEN_LABEL_POWER = 0.3
"""A clue label the pen hides was read from the pen's ink as much as from the label, so its
alternatives' probabilities are raised to this power (:func:`doubted`): nearer each other, the
solver in the loop changes that clue at less cost than one read in the clear. Seventieth round,
photos with a pen (seeds 8383 and 7474, 60 each): boards exact 17 and 21 as read, 18 and 23 at
0.3, 18 and 22 at 0.5, 17 and 22 at 0.1; solved right 24 and 31, 25 and 32 at 0.3."""


def doubted(alternatives: list[list[tuple[str, int, float]]], cages: list[tuple[tuple[int, int], ...]],
            hidden: tuple[tuple[int, int], ...]) -> list[list[tuple[str, int, float]]]:
    """Each cage's clue ``alternatives`` ``(op, target, p)``, best first, those of a cage whose label
    cell (its first) is in ``hidden`` flattened (HIDDEN_LABEL_POWER) and sorted again."""
    if not hidden:
        return alternatives
    return [sorted(((op, target, p ** HIDDEN_LABEL_POWER) for op, target, p in alts), key=lambda a: -a[2])
            if cells[0] in hidden else alts for alts, cells in zip(alternatives, cages)]


DIGIT_AREA = (0.2, 0.25, 0.8, 0.92)
"""Where a cell's big written digit lies, as shares of the cell (x0, y0, x1, y1)."""
DIGIT_HIDDEN = 0.25
"""A cell whose digit area lies this much under a pen has its written digit hidden (:func:`hidden_digits`).
At 0.15 a few more digits read wrong are left unread (seed 8383's 60: 16 -> 13 phantom or wrong, held
out 17 -> 15) and more written digits go unread (12 -> 21, 24 -> 27)."""
PAINT_GROW = 0.12
"""Cells the cover is grown by when it is painted out before written digits are read
(:meth:`PenCover.painted`): its soft edges and shadow beside it. Seventieth round, seed 8383's first
60 photos with a pen (seed 7474's 60 held out), digits read where none is written, without the pen
painted out and its cells left unread 122 (111), with both at 0.06 24, at 0.12 11 (10), at 0.18
10, at 0.25 9 (the written digits beside it then lose strokes: missed 3 -> 11)."""


def hidden_digits(grid: GridFind, pen: PenCover) -> tuple[tuple[int, int], ...]:
    """The cells of ``grid`` whose digit area (DIGIT_AREA) lies at least DIGIT_HIDDEN under ``pen``,
    in reading order: a digit written there cannot be read, nor its absence told."""
    return tuple((r, c) for r in range(grid.size) for c in range(grid.size)
                 if _part_covered(grid, pen, (r, c), DIGIT_AREA) >= DIGIT_HIDDEN)


def without_pen(grid: GridFind, pen: PenCover) -> GridFind:
    """``grid`` with the pen painted out of its rectified image (PAINT_GROW), for reading the
    written digits beside it."""
    return replace(grid, rectified=pen.painted(grid.rectified, PAINT_GROW * _cell_side(grid)))


PEN_NOTE = "something lies across the grid (a pen?)"
"""How a reading's note about a pen begins (:func:`pen_note`)."""
COVERED = 0.15
"""A cell this much under a pen is named in the note (:func:`pen_note`)."""


def pen_note(grid: GridFind, pen: PenCover) -> str:
    """The note of a reading with ``pen`` across ``grid``: where it lies (the cells at least COVERED
    under it, the first and last in reading order and how many), that what is under it could not be
    read surely, and to move it."""
    cells = [(r, c) for r in range(grid.size) for c in range(grid.size) if pen.covers(grid.cell_box((r, c))) >= COVERED]
    where = (f" over {len(cells)} cells from {cell_name(cells[0])} to {cell_name(cells[-1])}" if len(cells) > 1
             else f" over {cell_name(cells[0])}" if cells else "")
    return (f"{PEN_NOTE}{where}: the cage walls, clue labels and written digits under it could not be read "
            "surely, so the solution is not certain; move it and take the photo again")
