"""Which way up a found grid is: the quarter turns that bring its clue labels to the top left.

Why: a newspaper lying on a table is photographed from whichever side the person sits, and a phone
held sideways writes a turned photo whose EXIF turn a messaging app may have dropped. The grid
finder finds such a grid all the same (a square is a square), but every label then sits in another
corner of its cell than the top-left one the readers look in, and nothing reads right.

Method. In the rectified grid, the ink of small print is what a grey closing fills in (a black-hat
of the darkest channel, labels being often coloured, with a disc of INK_SPAN of a cell: strokes and
glyphs, not shadows, whose edges a closing keeps). Each cell's four corners — squares CORNER of
the cell's side, INSET in from its line centres, clear of the walls — are measured
(:func:`corner_ink`). A cell *votes* for a corner holding VOTE_SHARE times the ink of each of its
other corners and at least FLOOR of the grid's strong corners (its 90th percentile): a label, printed
in one corner of each cage's first cell. A cell with a written digit (ink in its middle) does not
vote: the digit's strokes reach into its corners. Pencil marks fill several corners and seldom vote.
:func:`quarter_turns` turns the photo when one corner clearly has the most votes (MARGIN, MIN_VOTES,
LONE_VOTES); :func:`turns_seen` also names a weaker sign (one label seen, elsewhere than the top
left), on which the reader reads the photo both ways and lets the solver settle it.

Example::

    k = quarter_turns(grid)                      # 1: the labels are top right, the photo was turned clockwise
    upright = np.rot90(pixels, k)                # read this one instead, the grid through
    corners = turned_corners(grid.corners, k, pixels.shape)  # these (the puzzle's top left first)
"""
from __future__ import annotations

import cv2
import numpy as np

from .model import GridFind

INSET, CORNER = 0.12, 0.28
"""Where a cell's corner square starts (from its line centres) and how wide it is, in cell sides:
the label of a KenKen cell starts 0.05–0.15 of a cell in from its top and left lines."""
INK_SPAN = 0.12
"""The closing's disc, in cell sides: wider than a label's glyphs' strokes and holes."""
VOTE_SHARE, FLOOR = 2.0, 0.4
MIDDLE, WRITTEN = 0.3, 2.0
"""A cell whose middle (a square MIDDLE of its side) holds more ink than WRITTEN times the floor holds
a written digit, whose strokes reach into its corners: it does not vote."""
MARGIN, MIN_VOTES, LONE_VOTES = 2.0, 3, 2
"""The photo is turned when one corner has at least MIN_VOTES and MARGIN times the votes of each
other corner, or at least LONE_VOTES while no other corner has any (a 3×3 or 4×4 has few labels).
Measured on the grids found in generated photos (``kensnap corpus``: seeds 8383, 6161, 3131, 5252,
7474, and the 12-megapixel seeds 1313 and 1212), each photo as made and turned by one, two or three
quarter turns (fifty-fourth round): none of the 1,708 upright photos turned, 1,682 of the 1,708
turned ones found (98.5 %), none turned wrongly. Chosen first on the first four seeds with MIN_VOTES
alone (1,163 of 1,199 found, none wrong; then on seed 7474 and the 12-megapixel seeds, held out,
493 of 509 and no upright photo turned); most of the rest were 3×3 and 4×4 grids with two label
votes, hence LONE_VOTES (a lone vote too would find 1,697 and turn none wrongly, but one vote is
one speck). Without the written-digit rule (WRITTEN) one upright half-filled photo was turned and
three turned ones turned wrongly. A photo it misses is read as found (wrongly: its labels are not
where the readers look), and also turned when :func:`turns_seen` gives a likely turn."""
CORNERS = ("top left", "top right", "bottom right", "bottom left")
"""The order of :func:`corner_ink`'s values; a photo whose labels are at ``CORNERS[k]`` is upright
after ``np.rot90(photo, k)`` (a quarter turn counter-clockwise each)."""


def corner_ink(darkest: np.ndarray, lines_x, lines_y) -> np.ndarray:
    """The small print's ink in the four corners of each cell of a rectified grid (``darkest``: its
    darkest channel; the lines' positions as :class:`~vision.model.GridFind`'s), and in its middle
    (a square MIDDLE of its side): ``n × n × 5``, mean ink per pixel, CORNERS' order then the middle."""
    n = len(lines_x) - 1
    cell = (lines_x[-1] - lines_x[0] + lines_y[-1] - lines_y[0]) / (2 * n)
    span = max(3, int(round(INK_SPAN * cell)) | 1)
    ink = cv2.morphologyEx(darkest, cv2.MORPH_BLACKHAT,
                           cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (span, span))).astype(np.float32)
    sums = cv2.integral(ink, sdepth=cv2.CV_64F)  # sums[y, x]: the ink above and left of (x, y)
    near_x, far_x, mid_x = _spans(lines_x)
    near_y, far_y, mid_y = _spans(lines_y)
    limit_y, limit_x = ink.shape

    def mean(ys, xs):  # the mean ink of the boxes rows ys[0]:ys[1] × columns xs[0]:xs[1], every cell
        top, bottom = (np.clip(v, 0, limit_y).astype(int)[:, None] for v in ys)
        left, right = (np.clip(v, 0, limit_x).astype(int)[None, :] for v in xs)
        area = np.maximum((bottom - top) * (right - left), 1)
        return (sums[bottom, right] - sums[top, right] - sums[bottom, left] + sums[top, left]) / area

    return np.stack([mean(near_y, near_x), mean(near_y, far_x), mean(far_y, far_x), mean(far_y, near_x),
                     mean(mid_y, mid_x)], axis=-1)


def _spans(lines) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Along one axis, every cell's near corner, far corner and middle as (start, end) pixel arrays,
    from the line centres ``lines`` (INSET, CORNER, MIDDLE)."""
    lo, hi = np.asarray(lines[:-1], float), np.asarray(lines[1:], float)
    size = hi - lo
    near = (np.round(lo + INSET * size), np.round(lo + (INSET + CORNER) * size))
    far = (np.round(hi - (INSET + CORNER) * size), np.round(hi - INSET * size))
    middle = (np.round(lo + (0.5 - MIDDLE / 2) * size), np.round(lo + (0.5 + MIDDLE / 2) * size))
    return near, far, middle


def corner_votes(ink: np.ndarray) -> np.ndarray:
    """How many cells vote for each corner (see the module docstring), from :func:`corner_ink`."""
    per_cell, middle = ink.reshape(-1, 5)[:, :4], ink.reshape(-1, 5)[:, 4]
    ranked = np.sort(per_cell, axis=1)
    floor = FLOOR * np.percentile(per_cell.max(axis=1), 90)
    strong = (ranked[:, -1] >= VOTE_SHARE * ranked[:, -2]) & (ranked[:, -1] > floor) & (middle <= WRITTEN * floor)
    return np.bincount(np.argmax(per_cell, axis=1)[strong], minlength=4)


def quarter_turns(grid: GridFind) -> int:
    """How many quarter turns counter-clockwise (``np.rot90``'s ``k``) bring the grid's labels to its
    cells' top left: 0 when they are there, or when no corner clearly has the most votes (MARGIN,
    MIN_VOTES, LONE_VOTES)."""
    return turns_seen(grid)[0]


def turns_seen(grid: GridFind) -> tuple[int, int]:
    """``(sure, likely)``: :func:`quarter_turns`, and when that is 0, the turns of another corner that
    has the most votes while the top left has none (a single label seen, as in many a 3×3–5×5
    turned), else 0 — a sign for the solver to settle (:func:`vision.read.read` reads such a photo
    both ways). Of the generated photos above, no upright one gave a likely turn; of the 26 turned
    ones missed, 18 gave the right one, 2 a wrong one."""
    rectified = grid.rectified
    darkest = rectified.min(axis=2) if rectified.ndim == 3 else rectified
    votes = corner_votes(corner_ink(darkest, grid.lines_x, grid.lines_y))
    k = int(np.argmax(votes))
    others = np.delete(votes, k).max()
    clear = (votes[k] >= MIN_VOTES and votes[k] >= MARGIN * others) or (votes[k] >= LONE_VOTES and others == 0)
    if k and clear:
        return k, 0
    return 0, (k if k and votes[0] == 0 else 0)


def turned_corners(corners: np.ndarray, turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """A grid's outer ``corners`` (TL, TR, BR, BL as found in a photo of ``shape``) where they are in
    ``np.rot90(photo, turns)``, named again for a grid whose labels lie at its cells'
    ``CORNERS[turns]``: that corner of the outline is the puzzle's top left there, the others follow
    clockwise. The grid need not be found again in the turned photo — which, for a grid lying near
    45°, can name its corners from another one again."""
    points = np.c_[np.asarray(corners, dtype=np.float64), np.ones(len(corners))] @ _to_turned(turns, shape).T
    return np.roll(points[:, :2] / points[:, 2:], -(turns % 4), axis=0)


def _to_turned(turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """The 3×3 map of a photo of ``shape``'s points to ``np.rot90(photo, turns)``'s."""
    to_turned = np.eye(3)
    height, width = shape[:2]
    for _ in range(turns % 4):  # one quarter turn counter-clockwise takes (x, y) to (y, width - 1 - x)
        to_turned = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, width - 1.0], [0.0, 0.0, 1.0]]) @ to_turned
        height, width = width, height
    return to_turned


def in_photo_as_loaded(corners: np.ndarray, homography: np.ndarray, turns: int,
                       shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """A grid's outer ``corners`` and ``homography`` (photo → rectified) found in the photo turned
    upright (``np.rot90(photo, turns)``), given back in the photo as loaded (of ``shape``): the
    corners stay in the puzzle's order (its top left first, wherever that lies in the photo), so a
    solution drawn through them lies turned with the puzzle."""
    to_turned = _to_turned(turns, shape)
    points = np.c_[np.asarray(corners, dtype=np.float64), np.ones(len(corners))] @ np.linalg.inv(to_turned).T
    return points[:, :2] / points[:, 2:], np.asarray(homography, dtype=np.float64) @ to_turned
