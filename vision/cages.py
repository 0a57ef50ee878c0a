"""Which interior edges of a found grid are cage walls.

The algorithm:

1. :func:`edge_strengths` measures every interior edge in the rectified grid: in a strip across
   the edge (its ends trimmed, so crossing lines do not count) it finds the darkness ridge near the
   snapped line (a curled page moves it a little), sums the ridge's darkness across its width for
   every pixel along the edge, and keeps a low quantile of those sums. A cage wall is dark, wide
   and continuous, so its low quantile stays high; a thin, faint or dotted grid line drops to
   almost nothing; a clue or digit crossing the edge only raises a few sums.
2. :func:`wall_probabilities` splits the log strengths of one image into two groups (Otsu's
   threshold in 1-D: styles differ too much for fixed thresholds) and turns the distance to the
   threshold into a probability. When the two groups hardly differ, the outer border (always a
   wall) decides whether the edges are all walls or all grid lines.
3. :func:`cages_from_walls` joins cells across the edges that are not walls (connected components).
4. :func:`settle` uses the rule "every cage has exactly one clue, in its first cell in reading
   order" when the clue positions are known: a cage without a clue loses its weakest wall, a cage
   with two clues (or its clue not first) is cut along its cheapest edges (a minimum cut), and the
   edges flipped are those the probabilities doubt most. Along a shadow's edge a wall measured as
   absent is weak evidence there (:func:`shadow_steps`).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping

import cv2
import numpy as np

from .grey import to_grey
from .helper import two_core_map
from .model import CageWalls, Cell, Edge, GridFind
from .quantiles import quantile

TRIM = 0.2
"""Part of an edge's length ignored at each end (where other lines cross)."""
REACH = 0.14
"""How far (in cells) from the snapped line the ridge is searched."""
RIDGE = 0.1
"""Half-width (in cells) of the band summed across the ridge."""
LOW_QUANTILE = 0.3
"""The quantile of the along-edge sums kept as the edge strength."""
PEAK_QUANTILE = 0.25
"""The ridge is where this quantile of the along-edge darkness peaks (the median before): a line
runs the whole edge, a row of pencil marks or a clue beside it only most of it. Measured with true
corners on 180 tuning photos (seed 900): exact partitions 149 → 157 (0.15: 157, 0.35: 156); the
Mathdoku 8×8 screenshot's thin line under a row of pencil marks 0.997 → 0.09 a wall."""
SLOPES = (-0.12, -0.06, 0.0, 0.06, 0.12)
"""Leans (pixels across per pixel along) tried for a line inside one edge (a curled page)."""
SIDE = 3
"""Width (pixels) of the paper sampled on each side of the ridge band."""
PEAK_PULL = 0.3
"""The line is looked for where the darkness along it, less this share at REACH from the snapped
place (quadratically), peaks: a label printed right under a thin wall, darker and wider than it,
had drawn the ridge onto itself (k3131-0095)."""
CROSSED, MIN_CLEAN = 0.2, 0.3
"""A row with a side darker than CROSSED is touched by ink and left out, unless fewer than
MIN_CLEAN of the rows are left."""
MIN_SPLIT = 0.9
"""Smallest gap between the two groups' mean log strengths for them to count as two groups."""
MIN_GAP, TIGHT = 0.45, 5.0
"""A smaller gap still splits when both groups are tight: ``gap ≥ MIN_GAP`` and ``≥ TIGHT`` × the
larger within-group spread (a 3×3 grid whose thin lines are half as dark as its walls)."""
FLOOR = 0.02
"""Added to every strength, as a part of the strongest line's, before taking logs: a faint line
measured as nothing must not look farther from the thin lines than the walls are."""
PAPER_BLUR = 0.1
"""Width (in cells) of the smoothing of the paper estimate. The closing keeps a shadow's edge where
it is; smoothing over a third of a cell (as before) carried the lit paper over into the shadow
beside it, and the step along a thin line read as a wall. Held-out 300 (seed 700): cage partitions
89% -> 92%, hard boards 34 -> 38 of 99 (web hard partitions 58% -> 76%), hand-held 76 -> 77."""
SHARPNESS = 7.0
"""Wall log-odds per unit of ``(log strength − threshold) / (gap between the groups' means)``: a
logistic fit on dev900 edges (truth corners)."""
SETTLE_ROUNDS = 60
"""Most local-search steps :func:`settle` takes (each one strictly lowers the cost)."""
WALL_CAP = 5.0
"""Largest wall log-odds magnitude trusted (one edge never outweighs this much evidence)."""
ABSENT_LOGIT = -2.5
"""Log-odds that a cell with no clue label found is a cage's first cell. Over all cells it is about
-3.5 (dev900: 2.8 % are), but a cage closed by clear walls whose label the blur or a shadow hid
lost its wall to it then (a wall read at 0.94-0.97). Exact partitions, -3.5 → -2.5 → -2.0 → -1.5
→ -0.5: tuning d11 (240) 216 → 222 → 222 → 224 → 221, gdev2 (300) 279 → 282 → 283 → 283 → 282;
held-out 300 (seed 700) 92.0% → 94.7% → 95.0% → 95.0%. Not higher: two weak walls a shadow's
edge left (0.75 each) must still cost more together than a cage without a label."""
SET_PRESENT_LOGIT = 3.0
"""Log-odds for a cell in a plain set of clue cells (no probabilities given)."""
PRESENT_SLOPE, PRESENT_EVEN, PRESENCE_CAP = 30.0, 0.7, 5.0
"""Presence probability ``p ≥ 0.5`` → log-odds ``SLOPE × (p − EVEN)`` clipped to ±CAP (dev900:
0.5..0.7 mostly false, 0.7..0.8 80 % true, above 0.9 99.6 %)."""
PHOTO_EVEN_BELOW = 0.12
"""A photo whose labels are found at lower presences than most photos' moves its even point down to
this much under their median (see :func:`photo_even`). Replayed on the walls and presences of the
seven sets' found grids (1,705 photos): cage partitions hand-held 565 → 566 of 566 (k3131-0220),
hard 543 → 544 of 557 (k5252-0250), none lost; the same at 0.12, at 0.2 two hard ones lost. It
moves the even point on 39 hand-held and 18 hard photos, on no clean one.
Seventy-third round, 0.1 → 0.12: big blurred labels no longer taken for a shadow's edge
(:data:`vision.clues.BIG_GLYPH`) keep their presence, which raised some photos' medians and their
even points with them; hand-held k9494-0247 as made before the sixty-fourth round then lost its
label at 0.63. Replayed on the walls and presences captured from 2,169 found grids (seeds 8383,
9494, 6161 and 5151 as made now, the pen sets, and the hand-held and hard photos of seeds 9494,
3131, 5252 and 700 as made before): at 0.12 none changes with the old presences; with the new,
k5151-0049 wins and none is lost (0.15 the same)."""
GLARE_PAPER, GLARE_ABOVE, GLARE_GROUP = 248, 8, 6
"""An edge is under a glare when its cells' paper is at least GLARE_PAPER and GLARE_ABOVE grey
levels brighter than the grid's median paper; at least GLARE_GROUP such edges are split on their
own (:func:`split_glare`). Fifty-sixth round, 40 photos of seed 8383 with a lamp's glare (a bright
spot of 110 grey levels): edges wrong 160 → 135 (GLARE_ABOVE 5 and GLARE_PAPER 245: 148; 12 and
250: 148); on 80 of the same seed's photos as made, no edge under a glare."""
STEP_RATIO, STEP_NEAR, STEP_FAR = 0.8, 0.12, 0.3
"""An edge lies along a shadow's edge when the paper (:func:`_paper`) on one side of its line is
under STEP_RATIO of the other side's: medians over bands STEP_NEAR..STEP_FAR of a cell from the
line, along the edge's middle (TRIM off each end). See :func:`shadow_steps`."""
PEN_NEAR, PEN_TRIM, PEN_CLEAR = 0.08, 0.03, 0.15
"""An edge with a pen (:mod:`vision.pen`) within PEN_NEAR of a cell of its line is measured along
its whole length less PEN_TRIM at each end (not TRIM: the part the pen leaves may be near an end),
on the rows the pen leaves clear, when they are at least PEN_CLEAR of them (else on all, through
the pen). Sixty-ninth round, seed 8383's first 60 photos with a pen laid across (`kensnap corpus
--pen`, 56 grids found): partitions right 12 → 19 with the labels under the pen weighed as even
(:func:`settle`), → 26 with edges so measured (24 at 0.1, 0.05 and 0.2 with a cover 0.05 cells
wider); taken as unknown (probability 0.5) instead, the edges with too little left clear made 25
right, and 5–17 with wider covers (settle has little to decide them by)."""
STEP_CAP = 1.0
"""The wall log-odds :func:`settle` weighs for an edge along a shadow's edge are at least
-STEP_CAP: there a wall's darkness is measured against the shadow's, so a wall can read as absent
(a wall 0.015 hand-held k9494-0247, 0.027 hard k7474-0259), and the clue rule is what tells. A wall
read as present stays as sure (softened both ways, hard k7474-0240 lost a wall read at 0.93 along a
shadow's edge). Replayed on the walls and clue presences of the six 300-photo sets' found grids:
cage partitions hand-held 593 → 594 of 594 (k9494-0247), hard 580 → 582 of 593 (k5252-0026,
k7474-0259), none lost, the same for a cap of 0.5 to 1.5 and a ratio of 0.8 to 0.85 (at 0.7 the
hand-held one is not won)."""
MAX_PLAIN_CAGE, OVERSIZE_COST = 6, 2.0
"""Cages past MAX_PLAIN_CAGE cells cost OVERSIZE_COST per extra cell (printed cages rarely do)."""


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------

def interior_edges(n: int) -> list[Edge]:
    """Every pair of orthogonally adjacent cells of an N×N grid, the smaller cell first."""
    edges = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                edges.append(((r, c), (r, c + 1)))
            if r + 1 < n:
                edges.append(((r, c), (r + 1, c)))
    return edges


def _paper(gray: np.ndarray, cell: float) -> np.ndarray:
    """The paper's tone under the ink: a grey closing wider than any wall."""
    k = max(3, int(0.35 * cell) | 1)
    return cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))


def _darkness(gray: np.ndarray, paper: np.ndarray, cell: float) -> np.ndarray:
    """Ink darkness 0..1 of ``gray`` against its local ``paper`` (:func:`_paper`), smoothed."""
    b = max(3, int(PAPER_BLUR * cell) | 1)
    paper = cv2.blur(cv2.blur(paper, (b, b)), (b, b)).astype(np.float32)  # ≈ a Gaussian, O(1) per pixel
    return np.clip((paper - gray.astype(np.float32)) / np.maximum(paper, 16.0), 0.0, 1.0)


def _cell_side(grid: GridFind) -> float:
    """The grid's mean cell side in the rectified image."""
    return (grid.lines_x[-1] - grid.lines_x[0]) / grid.size


def grid_tones(grid: GridFind) -> tuple[np.ndarray, np.ndarray]:
    """The rectified grid in grey and its paper (:func:`_paper`) at its mean cell side: what the
    darkness (:func:`grid_darkness`) and the glare (:func:`glared_edges`, :func:`glared_cells`) are
    measured from, worked out once for them all by the reader."""
    gray = to_grey(grid.rectified)
    return gray, _paper(gray, _cell_side(grid))


def grid_darkness(grid: GridFind, tones: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """:func:`_darkness` of the rectified grid at its mean cell side (``tones`` :func:`grid_tones`
    when the caller has them): what the edges and the border are measured in."""
    gray, paper = grid_tones(grid) if tones is None else tones
    return _darkness(gray, paper, _cell_side(grid))


def _sheared(strip: np.ndarray, slopes: tuple[float, ...]) -> np.ndarray:
    """``strip`` once per slope of ``slopes`` (a ``len(slopes) × rows × columns`` stack): row ``i``
    shifted across by ``slope × (i − middle)`` pixels (edge pixels repeated), so a line leaning by
    that slope stands straight."""
    rows, cols = strip.shape
    shift = np.rint(np.asarray(slopes)[:, None] * (np.arange(rows) - (rows - 1) / 2)).astype(int)
    index = np.clip(np.arange(cols)[None, None, :] + shift[:, :, None], 0, cols - 1)
    return np.take_along_axis(np.broadcast_to(strip, index.shape), index, axis=2)


def ridge_strength(strip: np.ndarray, centre: float, cell: float) -> float:
    """Strength of the line running down ``strip`` (rows along the edge, columns across it) near
    column ``centre``: the line is found where the along-edge PEAK_QUANTILE of darkness, pulled
    towards ``centre`` (PEAK_PULL), peaks (a straight line, leaning by one of ``SLOPES``, within
    ``REACH`` of ``centre``); for every row the
    darkness summed over the ridge's band less the paper beside it (each half of the band less
    its own side, so the step at a coloured cell's edge is no ridge); rows where ink touches the
    line (a side darker than ``CROSSED``) are left out — where that leaves too few, the rows with
    one clear side count that side's half twice (a label printed right under a wall along most of
    it: k3131-0140); the ``LOW_QUANTILE`` of what is left. 0 for an empty strip."""
    if strip.shape[0] < 2 or strip.shape[1] < 3:
        return 0.0
    reach, half = max(1, int(REACH * cell)), max(1, int(round(RIDGE * cell)))
    a, b = max(0, int(centre) - reach), min(strip.shape[1], int(centre) + reach + 1)
    if b <= a:
        return 0.0
    best = (-1.0, strip, a)
    pull = 1.0 - PEAK_PULL * ((np.arange(a, b) - centre) / reach) ** 2
    sheared = _sheared(strip, SLOPES)
    for straight, along in zip(sheared, quantile(sheared, PEAK_QUANTILE, axis=1)):
        weighed = along[a:b] * pull
        peak = _inner_peak(weighed, a == 0, b == strip.shape[1])
        if weighed[peak] > best[0]:
            best = (float(weighed[peak]), straight, a + peak)
    _, straight, peak = best
    lo, hi = max(0, peak - half), min(straight.shape[1], peak + half + 1)
    left, right = straight[:, max(0, lo - SIDE):lo], straight[:, hi:hi + SIDE]
    side_l = left.mean(axis=1) if left.size else np.zeros(len(straight))
    side_r = right.mean(axis=1) if right.size else side_l
    if not left.size:
        side_l = side_r
    band = straight[:, lo:hi]
    cols = np.arange(lo, hi)[None, :]
    paper = np.where(cols < peak, side_l[:, None], np.where(cols > peak, side_r[:, None],
                                                            np.minimum(side_l, side_r)[:, None]))
    excess = np.clip(band - paper, 0.0, None)
    sums = excess.sum(axis=1)
    clean_l, clean_r = side_l < CROSSED, side_r < CROSSED
    clean = clean_l & clean_r
    if clean.mean() >= MIN_CLEAN:
        return float(quantile(sums[clean], LOW_QUANTILE))
    if (clean_l | clean_r).mean() >= MIN_CLEAN:
        # A label or digit along one side of the line (a clue printed right under it): where only
        # one side is clear, the line's half on that side, doubled, is its strength there.
        middle = excess[:, cols[0] == peak].sum(axis=1)
        left = 2 * excess[:, cols[0] < peak].sum(axis=1) + middle
        right = 2 * excess[:, cols[0] > peak].sum(axis=1) + middle
        one_sided = np.where(clean, sums, np.where(clean_l, left, right))
        return float(quantile(one_sided[clean_l | clean_r], LOW_QUANTILE))
    return float(quantile(sums, LOW_QUANTILE))


def _inner_peak(weighed: np.ndarray, open_start: bool, open_end: bool) -> int:
    """Index of the highest peak of ``weighed`` (a value at least as high as its neighbours); an end
    of it counts only when it is open (the strip itself ends there, as at the grid's border). A
    maximum at a closed end is something rising beyond the searched span, not a line there: the
    foot of a big pen "1" a seventh of a cell above a thin line, leaning as one of SLOPES leans,
    had been taken for the line and read as a wall (12-MP hand-held k1313-0039). The highest value
    when no peak is left."""
    high = np.ones(len(weighed), bool)
    high[1:] &= weighed[1:] >= weighed[:-1]
    high[:-1] &= weighed[:-1] >= weighed[1:]
    high[0] &= open_start or len(weighed) == 1
    high[-1] &= open_end or len(weighed) == 1
    inner = np.flatnonzero(high)
    return int(inner[np.argmax(weighed[inner])]) if len(inner) else int(np.argmax(weighed))


def edge_strengths(grid: GridFind, dark: np.ndarray | None = None,
                   hidden: np.ndarray | None = None) -> dict[Edge, float]:
    """The measured strength of every interior edge (the border is measured by
    :func:`border_strength`); ``dark`` is :func:`grid_darkness` when the caller has it. An edge
    near where ``hidden`` (bool, the rectified grid's shape: a pen's cover, :mod:`vision.pen`) is
    True is measured where the pen leaves it clear (PEN_NEAR, PEN_TRIM, PEN_CLEAR)."""
    cell = _cell_side(grid)
    dark = grid_darkness(grid) if dark is None else dark
    span = int(round(REACH * cell + RIDGE * cell)) + SIDE + 2
    near = int(round(PEN_NEAR * cell)) + 1
    strips = {}
    for edge in interior_edges(grid.size):
        covered = hidden is not None and across(hidden, grid, edge, -near, near + 1)[0].any()
        strip, centre = across(dark, grid, edge, -span, span + 1, PEN_TRIM if covered else TRIM)
        if covered:
            clear = ~across(hidden, grid, edge, -near, near + 1, PEN_TRIM)[0].any(axis=1)
            if clear.sum() >= max(2, PEN_CLEAR * len(clear)):
                strip = strip[clear]
        strips[edge] = (strip, centre, cell)
    # Half the strips are measured by the helper process when it runs (vision.helper).
    return dict(zip(strips, two_core_map(ridge_strength, strips.values())))


def across(image: np.ndarray, grid: GridFind, edge: Edge, lo: int, hi: int, trim: float = TRIM) -> tuple[np.ndarray, float]:
    """``(strip, centre)``: the part of ``image`` (the rectified grid's size) across ``edge``'s line,
    from ``lo`` to ``hi`` pixels off the line's whole pixel (cut at the image's edge), along the
    edge less ``trim`` of its length at each end — rows along the edge, columns across it (a
    horizontal line's strip turned) — and the line's position in the strip's columns."""
    (r, c), (r2, _) = edge
    if r2 == r:  # vertical line right of (r, c)
        at, a, b = grid.lines_x[c + 1], grid.lines_y[r], grid.lines_y[r + 1]
    else:  # horizontal line below (r, c)
        at, a, b = grid.lines_y[r + 1], grid.lines_x[c], grid.lines_x[c + 1]
    t = trim * (b - a)
    along, start = slice(int(a + t), int(b - t)), max(0, int(at) + lo)
    off = slice(start, max(0, int(at) + hi))
    return (image[along, off] if r2 == r else image[off, along].T), at - start


def border_strength(grid: GridFind, dark: np.ndarray | None = None) -> float:
    """Strength of the outer border (a wall by definition), measured like an edge on its inner half
    doubled, the median over the four sides' cells (``dark`` as for :func:`edge_strengths`)."""
    n, xs, ys = grid.size, grid.lines_x, grid.lines_y
    cell = _cell_side(grid)
    dark = grid_darkness(grid) if dark is None else dark
    span = int(round(REACH * cell + RIDGE * cell)) + 2
    strips = []
    for i in range(n):
        t = TRIM * cell
        a, b = int(ys[i] + t), int(ys[i + 1] - t)
        strips += [dark[a:b, :span], dark[a:b, -span:][:, ::-1]]
        a, b = int(xs[i] + t), int(xs[i + 1] - t)
        strips += [dark[:span, a:b].T, dark[-span:, a:b][::-1].T]
    return 2.0 * float(np.median(two_core_map(ridge_strength, [(strip, 0, cell) for strip in strips])))


# ---------------------------------------------------------------------------------------------
# Classifying
# ---------------------------------------------------------------------------------------------

def otsu_split(values: np.ndarray) -> tuple[float, float, float]:
    """``(threshold, low mean, high mean)`` of 1-D values split where the between-group variance
    is largest; for fewer than two distinct values the threshold is their maximum."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return float(v[-1]), float(v[0]), float(v[-1])
    best, cut = -1.0, 1
    for i in range(1, len(v)):
        lo, hi = v[:i], v[i:]
        score = len(lo) * len(hi) * (lo.mean() - hi.mean()) ** 2
        if score > best:
            best, cut = score, i
    return float((v[cut - 1] + v[cut]) / 2), float(v[:cut].mean()), float(v[cut:].mean())


def wall_probabilities(strengths: dict[Edge, float], border: float) -> dict[Edge, float]:
    """Each edge's probability of being a wall from its strength, by a 2-group split of the log
    strengths of this image (see the module docstring)."""
    edges = list(strengths)
    if not edges:
        return {}
    floor = FLOOR * max(border, max(strengths.values()), 1e-6)
    logs = np.log(np.array([strengths[e] for e in edges]) + floor)
    thr, lo, hi = otsu_split(logs)
    groups = [logs[logs < thr], logs[logs >= thr]]
    within = max([float(np.std(g)) for g in groups if len(g)] + [0.02])
    if hi - lo < MIN_SPLIT and not (hi - lo >= MIN_GAP and hi - lo >= TIGHT * within):
        all_walls = np.median(logs) > np.log(border + floor) - MIN_SPLIT
        return {e: 0.9 if all_walls else 0.1 for e in edges}
    scale = (hi - lo) / SHARPNESS
    return {e: float(1.0 / (1.0 + np.exp(-(x - thr) / scale))) for e, x in zip(edges, logs)}


def _glare_tones(grid: GridFind, paper: np.ndarray | None) -> tuple[np.ndarray, float] | None:
    """The rectified grid's ``paper`` (:func:`grid_tones`, worked out when None) and its median, or
    None when the median is within GLARE_ABOVE of white (a screenshot's white page is as bright
    everywhere: no glare shows)."""
    paper = grid_tones(grid)[1] if paper is None else paper
    typical = float(np.median(paper))
    return None if typical + GLARE_ABOVE > 255 else (paper, typical)


def _glared(tones: tuple[np.ndarray, float], box: tuple[float, float, float, float]) -> bool:
    """Whether the paper's median in ``box`` (x0, y0, x1, y1) is at least GLARE_PAPER and GLARE_ABOVE
    grey levels brighter than the grid's median paper."""
    paper, typical = tones
    x0, y0, x1, y1 = box
    tone = float(np.median(paper[int(y0):int(y1), int(x0):int(x1)]))
    return tone >= GLARE_PAPER and tone >= typical + GLARE_ABOVE


def glared_edges(grid: GridFind, paper: np.ndarray | None = None) -> list[Edge]:
    """The interior edges of ``grid`` under a glare: the paper of their two cells together glared
    (:func:`_glared`); ``paper`` is :func:`grid_tones`' when the caller has it."""
    tones = _glare_tones(grid, paper)
    if tones is None:
        return []
    xs, ys = grid.lines_x, grid.lines_y
    return [((r, c), (r2, c2)) for (r, c), (r2, c2) in interior_edges(grid.size)
            if _glared(tones, (xs[c], ys[r], xs[c2 + 1], ys[r2 + 1]))]


def glared_cells(grid: GridFind, paper: np.ndarray | None = None) -> set[Cell]:
    """The cells of ``grid`` whose paper is under a glare (:func:`_glared`), where a label may be
    washed out (:func:`vision.read.washed_out`); ``paper`` is :func:`grid_tones`' when the caller
    has it."""
    tones = _glare_tones(grid, paper)
    if tones is None:
        return set()
    return {(r, c) for r in range(grid.size) for c in range(grid.size) if _glared(tones, grid.cell_box((r, c)))}


def split_glare(probabilities: dict[Edge, float], strengths: dict[Edge, float],
                glared: list[Edge]) -> dict[Edge, float]:
    """``probabilities`` with the ``glared`` edges' taken from a split of their own strengths, when
    there are at least GLARE_GROUP of them (and not every edge) and their log strengths fall
    clearly into two groups (MIN_SPLIT). Under a glare the paper saturates: a wall's darkness
    against it falls among the thin lines' elsewhere, while the thin lines there vanish."""
    if not GLARE_GROUP <= len(glared) < len(strengths):
        return probabilities
    own = {e: strengths[e] for e in glared}
    _, lo, hi = otsu_split(np.log(np.array(list(own.values())) + FLOOR * max(max(own.values()), 1e-6)))
    if hi - lo < MIN_SPLIT:
        return probabilities
    return {**probabilities, **wall_probabilities(own, max(own.values()))}


def shadow_steps(grid: GridFind, paper: np.ndarray) -> frozenset[Edge]:
    """The interior edges of ``grid`` that lie along a shadow's edge: the ``paper``
    (:func:`grid_tones`') beside the line on one side under STEP_RATIO of the other side's (see
    there)."""
    cell = _cell_side(grid)
    near, far = int(STEP_NEAR * cell), max(int(STEP_NEAR * cell) + 1, int(STEP_FAR * cell))
    median_of = lambda band: float(np.median(band)) if band.size else 0.0
    steps = set()
    for edge in interior_edges(grid.size):
        low, high = sorted(median_of(across(paper, grid, edge, *off)[0]) for off in ((-far, -near), (near, far)))
        if low < STEP_RATIO * high:
            steps.add(edge)
    return frozenset(steps)


def find_walls(grid: GridFind, tones: tuple[np.ndarray, np.ndarray] | None = None,
               hidden: np.ndarray | None = None) -> CageWalls:
    """The probability that each interior edge of ``grid`` is a cage wall. Never fails: an image
    without visible walls gives every edge a low probability. Edges under a glare are split on
    their own (:func:`split_glare`); the edges along a shadow's edge are named
    (:func:`shadow_steps`). ``tones``: :func:`grid_tones`' when the caller has them; ``hidden``:
    a pen's cover (:attr:`vision.pen.PenCover.mask`), see :func:`edge_strengths`."""
    tones = grid_tones(grid) if tones is None else tones
    dark = grid_darkness(grid, tones)
    strengths = edge_strengths(grid, dark, hidden)
    probabilities = wall_probabilities(strengths, border_strength(grid, dark))
    return CageWalls(split_glare(probabilities, strengths, glared_edges(grid, tones[1])),
                     shadow_steps(grid, tones[1]))


# ---------------------------------------------------------------------------------------------
# Cages from walls
# ---------------------------------------------------------------------------------------------

def cages_from_walls(size: int, walls: CageWalls, threshold: float = 0.5) -> list[tuple[Cell, ...]]:
    """The cages the walls make: cells joined across every edge whose wall probability is below
    ``threshold`` (connected components), each in reading order, listed by their first cell."""
    parent = {(r, c): (r, c) for r in range(size) for c in range(size)}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for a, b in interior_edges(size):
        if walls.wall_probability.get((a, b), 1.0) < threshold:
            parent[root(a)] = root(b)
    groups: dict[Cell, list[Cell]] = {}
    for cell in sorted(parent):
        groups.setdefault(root(cell), []).append(cell)
    return sorted((tuple(cells) for cells in groups.values()), key=lambda cells: cells[0])


def _min_cut(cells: tuple[Cell, ...], sources: Collection[Cell], sink: Cell, capacity: dict[Edge, float]) -> set[Edge]:
    """The cheapest set of edges inside ``cells`` whose removal separates every cell of ``sources``
    from ``sink`` (Edmonds–Karp on the cell graph; ``capacity`` per undirected edge)."""
    inside = set(cells)
    flow: dict[tuple[Cell, Cell], float] = {}
    cap: dict[tuple[Cell, Cell], float] = {}
    nbrs: dict[Cell, list[Cell]] = {c: [] for c in cells}
    for (a, b), w in capacity.items():
        if a in inside and b in inside:
            cap[(a, b)] = cap[(b, a)] = w
            nbrs[a].append(b)
            nbrs[b].append(a)

    def residual(u: Cell, v: Cell) -> float:
        return cap[(u, v)] - flow.get((u, v), 0.0)

    while True:
        prev = {source: source for source in sources}
        queue = deque(sources)
        while queue and sink not in prev:
            u = queue.popleft()
            for v in nbrs[u]:
                if v not in prev and residual(u, v) > 1e-9:
                    prev[v] = u
                    queue.append(v)
        if sink not in prev:
            break
        path, v = [], sink
        while prev[v] != v:
            path.append((prev[v], v))
            v = prev[v]
        push = min(residual(u, v) for u, v in path)
        for u, v in path:
            flow[(u, v)] = flow.get((u, v), 0.0) + push
            flow[(v, u)] = flow.get((v, u), 0.0) - push
    reach = set(prev)
    return {e for e in capacity if e[0] in inside and e[1] in inside and (e[0] in reach) != (e[1] in reach)}


def _logit(p: float, cap: float) -> float:
    """``log(p / (1 - p))`` clipped to ``±cap``."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    return float(np.clip(np.log(p / (1 - p)), -cap, cap))


def presence_logit(p: float, even: float = PRESENT_EVEN) -> float:
    """Calibrated log-odds that a cell whose clue-presence probability (``clues.clue_presence``) is
    ``p`` really is a cage's first cell. Measured on dev900: below 0.5 (no label found) 2.8 % are
    first cells; at 0.5..0.7 (a faint or small blob) few are; at 0.9.. nearly all. ``even``: the
    presence taken as even odds (:func:`photo_even`)."""
    if p < 0.5:
        return ABSENT_LOGIT
    return float(np.clip(PRESENT_SLOPE * (p - even), -PRESENCE_CAP, PRESENCE_CAP))


def photo_even(presence: Mapping[Cell, float]) -> float:
    """The presence at which a cell of this photo is as likely a cage's first cell as not:
    PRESENT_EVEN, or PHOTO_EVEN_BELOW under the median presence of the cells where a label was
    found (``p ≥ 0.5``) when that is lower. The labels of one photo share their font, size and
    blur, so their presences cluster: a cell scoring like the photo's other labels holds one, even
    under the even point measured over many photos (hand-held k3131-0220: its 14 labels at
    0.66–0.80, every other cell 0.03; the label of r3c1 at 0.705 was worth nothing against a thin
    wall read at 0.165, and two cages were read as one)."""
    found = [p for p in presence.values() if p >= 0.5]
    if not found:
        return PRESENT_EVEN
    return min(PRESENT_EVEN, float(np.median(found)) - PHOTO_EVEN_BELOW)


class _Partition:
    """Cells of an N×N grid split into cages (connected sets), with the settle cost:
    ``Σ over walls (edges between cages) of −wall_logit + Σ over cages of (−clue_logit of its first
    cell + size penalty)``; lower is better. ``wall_logit`` and ``clue_logit`` are log-odds."""

    def __init__(self, size: int, cages: list[tuple[Cell, ...]], wall_logit: dict[Edge, float],
                 clue_logit: dict[Cell, float]):
        self.size, self.wall_logit, self.clue_logit = size, wall_logit, clue_logit
        self.cages: dict[int, frozenset[Cell]] = {i: frozenset(cells) for i, cells in enumerate(cages)}
        self.of = {cell: i for i, cells in self.cages.items() for cell in cells}
        self.next_id = len(cages)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The orthogonal neighbours of ``cell`` inside the grid."""
        r, c = cell
        return [(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < self.size and 0 <= b < self.size]

    def edge_logit(self, a: Cell, b: Cell) -> float:
        """The wall log-odds of the edge between adjacent cells ``a`` and ``b``."""
        return self.wall_logit[(a, b) if a < b else (b, a)]

    def cage_cost(self, cells) -> float:
        """A cage's own cost: its first cell must hold a clue; oversized cages are unlikely."""
        return -self.clue_logit[min(cells)] + OVERSIZE_COST * max(0, len(cells) - MAX_PLAIN_CAGE)

    def components(self, cells: set[Cell]) -> list[frozenset[Cell]]:
        """The connected parts of a set of cells."""
        left, parts = set(cells), []
        while left:
            seed = left.pop()
            part, todo = {seed}, [seed]
            while todo:
                for nb in self.neighbours(todo.pop()):
                    if nb in left:
                        left.discard(nb)
                        part.add(nb)
                        todo.append(nb)
            parts.append(frozenset(part))
        return parts

    def total(self) -> float:
        """The cost of the whole partition."""
        walls = sum(-w for (a, b), w in self.wall_logit.items() if self.of[a] != self.of[b])
        return walls + sum(self.cage_cost(cells) for cells in self.cages.values())

    def move_delta(self, cell: Cell, target: int | None) -> float:
        """Cost change of moving ``cell`` into cage ``target`` (None: a cage of its own)."""
        home = self.of[cell]
        delta = 0.0
        for nb in self.neighbours(cell):
            before, after = self.of[nb] != home, self.of[nb] != target
            delta += (after - before) * -self.edge_logit(cell, nb)
        rest = set(self.cages[home]) - {cell}
        delta -= self.cage_cost(self.cages[home])
        delta += sum(self.cage_cost(part) for part in self.components(rest))
        if target is None:
            delta += self.cage_cost((cell,))
        else:
            delta += self.cage_cost(self.cages[target] | {cell}) - self.cage_cost(self.cages[target])
        return delta

    def merge_delta(self, a: int, b: int) -> float:
        """Cost change of joining adjacent cages ``a`` and ``b``."""
        walls = sum(self.edge_logit(x, y) for x in self.cages[a] for y in self.neighbours(x) if self.of[y] == b)
        return walls + self.cage_cost(self.cages[a] | self.cages[b]) - self.cage_cost(self.cages[a]) - self.cage_cost(self.cages[b])

    def split_delta(self, home: int, cut: set[Edge]) -> tuple[float, list[frozenset[Cell]]]:
        """Cost change of cutting cage ``home`` along the edges ``cut``, and its new parts."""
        cells = self.cages[home]
        parent = {c: c for c in cells}

        def root(c):
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c
        for x in cells:
            for y in self.neighbours(x):
                if y in cells and x < y and (x, y) not in cut:
                    parent[root(x)] = root(y)
        groups: dict[Cell, set[Cell]] = {}
        for c in cells:
            groups.setdefault(root(c), set()).add(c)
        parts = [frozenset(g) for g in groups.values()]
        walls = sum(-w for (x, y), w in ((e, self.wall_logit[e]) for e in cut) if root(x) != root(y))
        return walls + sum(self.cage_cost(p) for p in parts) - self.cage_cost(cells), parts

    def replace(self, old: list[int], parts: list[frozenset[Cell]]) -> None:
        """Swap cages ``old`` for ``parts`` (each part becomes one cage)."""
        for i in old:
            del self.cages[i]
        for part in parts:
            for piece in self.components(set(part)):
                self.cages[self.next_id] = piece
                for cell in piece:
                    self.of[cell] = self.next_id
                self.next_id += 1

    def moves(self):
        """Every candidate change as ``(delta, apply)``: cell moves, merges, and min-cut splits."""
        out = []
        for cell, home in list(self.of.items()):
            targets = {self.of[nb] for nb in self.neighbours(cell)} - {home}
            options = list(targets) + ([None] if len(self.cages[home]) > 1 else [])
            for target in options:
                out.append((self.move_delta(cell, target), ("move", cell, target)))
        seen = set()
        for (a, b) in self.wall_logit:
            i, j = self.of[a], self.of[b]
            if i != j and (min(i, j), max(i, j)) not in seen:
                seen.add((min(i, j), max(i, j)))
                out.append((self.merge_delta(i, j), ("merge", i, j)))
        for home, cells in list(self.cages.items()):
            first = min(cells)
            for other in cells:
                if other != first and self.clue_logit[other] > 0:
                    cap = {e: max(1e-3, -w) for e, w in self.wall_logit.items() if e[0] in cells and e[1] in cells}
                    # Cut from the first cell, and from every cell before ``other`` (so that it is
                    # its part's first cell: k3131-0140, whose only wall between two labelled cells
                    # read weaker than an open edge beside the first cell).
                    before = [c for c in cells if c < other]
                    for sources in ([first], before) if len(before) > 1 else ([first],):
                        cut = _min_cut(tuple(sorted(cells)), sources, other, cap)
                        delta, parts = self.split_delta(home, cut)
                        out.append((delta, ("split", home, parts)))
        return out

    def apply(self, move) -> None:
        """Carry out one move from :meth:`moves`."""
        kind = move[0]
        if kind == "move":
            _, cell, target = move
            home = self.of[cell]
            rest = set(self.cages[home]) - {cell}
            if target is None:
                self.replace([home], [frozenset({cell})] + ([frozenset(rest)] if rest else []))
            else:
                grown = self.cages[target] | {cell}
                self.replace([home, target], [grown] + ([frozenset(rest)] if rest else []))
        elif kind == "merge":
            _, i, j = move
            self.replace([i, j], [self.cages[i] | self.cages[j]])
        else:
            _, home, parts = move
            self.replace([home], parts)

    def walls(self) -> set[Edge]:
        """The edges between different cages."""
        return {e for e in self.wall_logit if self.of[e[0]] != self.of[e[1]]}


def settle(grid: GridFind, walls: CageWalls, clue_cells: set[Cell] | Mapping[Cell, float] | None,
           hidden_labels: Collection[Cell] = ()) -> CageWalls:
    """Walls made consistent with the clue rule ("every cage has exactly one clue, in its first
    cell in reading order"): the partition of the cells that best explains both the wall
    probabilities and the clue evidence, found by a greedy local search (cell moves, cage merges,
    min-cut splits) from the walls as read. ``clue_cells`` is either each cell's clue-presence
    probability (``clues.clue_presence``, best) or the set of cells holding a clue label. An edge
    along a shadow's edge (``walls.on_shadow_edge``) is weighed as a wall at least STEP_CAP
    log-odds likely (see there). Edges whose side changed get probability ``1 - p`` (``p`` as
    weighed); walls left inside a cage drop below 0.5. Without clue evidence the walls come back
    unchanged. The cells of ``hidden_labels`` (their label corner under a pen, :mod:`vision.pen`)
    count as even odds of holding a clue, whatever was seen there."""
    probs = dict(walls.wall_probability)
    if not clue_cells or not probs:
        return walls
    n = grid.size
    if isinstance(clue_cells, Mapping):
        even = photo_even(clue_cells)
        clue_logit = {(r, c): presence_logit(clue_cells.get((r, c), 0.0), even) for r in range(n) for c in range(n)}
    else:
        clue_logit = {(r, c): (SET_PRESENT_LOGIT if (r, c) in clue_cells else ABSENT_LOGIT) for r in range(n) for c in range(n)}
    clue_logit.update(dict.fromkeys(hidden_labels, 0.0))
    least = 1.0 / (1.0 + np.exp(STEP_CAP))
    probs = {e: max(p, least) if e in walls.on_shadow_edge else p for e, p in probs.items()}
    wall_logit = {e: _logit(p, WALL_CAP) for e, p in probs.items()}
    part = _Partition(n, cages_from_walls(n, walls), wall_logit, clue_logit)
    for _ in range(SETTLE_ROUNDS):
        options = part.moves()
        delta, move = min(options, key=lambda o: o[0]) if options else (0.0, None)
        if move is None or delta > -1e-9:
            break
        part.apply(move)
    chosen = part.walls()
    read = walls.wall_probability
    out = {e: (read[e] if (p >= 0.5) == (e in chosen) else 1.0 - p) for e, p in probs.items()}
    for e in out:
        if e not in chosen:
            out[e] = min(out[e], 0.49)
        else:
            out[e] = max(out[e], 0.5)
    return CageWalls(out, walls.on_shadow_edge)
