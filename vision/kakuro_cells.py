"""Read the cells of a rectified Kakuro grid: white or dark, the two numbers of a clue cell, and the
digits written in white cells.

Algorithm:

0. *Patches* (:func:`cell_patches`): each cell resampled to CELL px, its sides first put where the
   page's bend puts the boundaries (a quadratic surface fitted to the edges measured along every
   boundary in every row: a curled page bends them away from the lattice's straight lines, also
   between two dark cells where no edge shows), then moved onto the edges that run along them.
1. *Tone* (:func:`cell_tones`): each cell's 75th-percentile grey, divided by the white level near
   it (the brightest cell around, or a quadratic surface fitted to the white cells), so shading,
   shadows and coloured light flatten.
   White cells sit near 1, blocks and clue cells well below; :func:`white_probabilities` turns the
   tones into probabilities around the threshold halfway between the two groups.
2. *Clue cells* show a diagonal from corner to corner (:func:`diagonal_strength`), whatever
   their tone. *Which clue numbers exist* follows from the layout, not from the pixels: a dark
   cell has an across number when the cell right of it is white, a down number when the cell
   below is.
3. *Clue glyphs* (:func:`clue_glyphs`): in a dark cell's patch (CELL px square), ink is what
   differs from the cell's fill towards the other tone (light figures on black, dark on grey). The
   diagonal (found where it really runs) and the cell edges are blanked, and pieces of the
   diagonal left beside the band are dropped; the upper-right half holds the across number, the
   lower-left half the down number. Connected components on the tallest one's text line, merged
   when they overlap in x, are its digits; readings with broken digits joined come second. A
   second view takes the ink over the *local* fill instead (a grey closing, or opening, of the
   patch: :func:`ink_map` with ``local``), so a shadow's edge or a light's falloff inside the cell
   is no ink; each view has its own models (step 5 and 6, fitted on glyphs cut its way), and the
   reader averages the two readings (:func:`vision.kakuro.read_numbers`).
4. *Entry glyph* (:func:`entry_glyph`): in a white cell, the tallest dark component near the middle
   at least ENTRY_HEIGHT of the cell high; when reading, of the ink less a shadow's edges
   (ENTRY_KEEP).
5. *Classify* (:func:`digit_model`): every glyph, centred in a square of its larger side and
   resized to 16×16, plus its aspect and ink density, goes to a small perceptron
   (:mod:`vision.mlp`) and its image to a small convolutional network (:class:`DigitModel`), both
   fitted on glyphs cut by this same code, from the grid as the finder finds it, in Kakuro drawn
   by :func:`ui.render_kakuro.render_kakuro` and photographed by :func:`ui.photo.simulate` at
   every level. The model is cached on disk (``~/.cache/kensnap``, see
   :func:`vision.glyphs.cache_dir`) under :data:`MODEL_VERSION`.
6. *Whole numbers* (:func:`number_model`): a clue number's whole ink (:attr:`NumberGlyphs.whole`,
   :func:`whole_features`) goes to a convolutional network over the totals 1..45, fitted on the
   numbers of the same training Kakuro and cached under :data:`NUMBER_MODEL_VERSION`; the reader
   averages its reading with the digits' where those are unsure (:func:`vision.kakuro.with_whole_reading`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path

import cv2
import numpy as np

from solver.kakuro.model import Clue

from .bend import band_profile, bend_field
from .grey import to_grey
from .kakuro_grid import KakuroGridFind
from .quantiles import percentile
from .convnet import ConvNet, fit_convnet
from .mlp import Mlp, fit_mlp, gather_rows
from .glyphs import cache_dir, grown_within, load_or_fit

MODEL_VERSION = "kakuro-digits-v17"
LOCAL_MODEL_VERSION = "kakuro-digits-local-v1"
"""The digit model fitted on clue glyphs cut from the ink over the local fill (:func:`ink_map`)."""
DIGITS = tuple("0123456789")
CELL = 64
"""Patch side in pixels."""
WINDOW = 16
EDGE = 6
"""Pixels along the patch edges blanked (grid lines)."""
DIAGONAL = 4
"""Least half-width in pixels of the band around the diagonal blanked in clue cells."""
INK = 0.55
"""A glyph's strongest pixel reaches this ink strength (0 fill … 1 the strongest figure)."""
INK_LOW = 0.3
"""Pixels above this ink strength belong to a glyph (hysteresis: faint stroke ends stay on)."""
WIDE = 0.95
"""Glyphs wider than this times their height are two digits blurred together."""
MAYBE_TWO = 0.6
"""A lone glyph wider than this times its height may be two narrow digits blurred together."""
TONE_PERCENTILE = 75
"""The percentile of a cell's grey levels taken as its tone."""
BIMODAL, SPREAD = 1.2, 0.15
"""Cells nearby whose tones spread by this factor, and by this share of the light there, hold both
white and dark cells."""
SHADOW_FLOOR = 0.5
"""The light near a cell is taken as at least this share of the white level of the fitted surface
(or as the brightest cell nearby, if brighter): a hard shadow leaves 0.45..0.7 of the light on
hard photos (:mod:`ui.photo`), so white cells in it sit near this share of the surface."""
LOCAL_FILL = 13
"""Side in patch pixels of the grey closing (opening, for light figures) that gives the *local*
fill of :func:`ink_map` (``local=True``): wider than a digit's stroke, so the strokes vanish from it,
and narrow enough to follow a shadow's edge or a light's falloff across the cell."""
MIN_GLYPH, MAX_GLYPH = 0.12, 0.5
"""Least and most height of a clue digit, as shares of the cell (a taller stroke is a cell edge)."""
CLUE_DIAGONAL = 0.9
"""Diagonal strength above which a cell is a clue cell, whatever its tone."""
ENTRY_HEIGHT = 0.3
"""Least height of a written digit in a white cell, as a share of the cell."""
ENTRY_INK = 0.4
"""Darkness (0 white … 1 far darker) above which a pixel of a white cell is written ink."""
ENTRY_KEEP, ENTRY_LOCAL_FILL = 0.5, 21
"""A written digit is read from its ink less the pixels whose darkness against the *local* paper (a
grey closing over ENTRY_LOCAL_FILL patch pixels, wider than a bold typed digit's joins; as a share
of that paper) is under ENTRY_KEEP of their ink: a shadow's edge across a white cell is ink against
the cell's one white level but not against the paper beside it (as for KenKen,
:data:`vision.digits.SHADOW_KEEP`), while a digit inside the shadow stays as dark against its own
paper (measured against the white level instead, five of the 21 digits of hard kk5150-0043 that lie
in a shadow were lost). Only when reading (:func:`vision.kakuro.read_entries`): the digit models
learnt from the whole ink, so a fresh machine fits them as before. Measured 2026-11-28 end to end,
half-filled hard photos with every entry right and photos with nothing written read without a
phantom digit: seed 2727 8 -> 12 of 15 and 39 -> 45 of 45, fresh seed 3737 7 -> 9 of 12 and 45 ->
48 of 48; hand-held (14 of 18, 18 of 20), clean and every board the same. With a 13-pixel closing (the
clue digits'; a first version, against the white level), seed 2727 lost three hand-held photos
(bold typed digits broken at their joins)."""
ENTRY_PAPER = 90
"""Percentile of a white cell's grey taken as its own paper when it is lighter than the white level
fitted over the grid (:func:`entry_white`): under a broad shadow that level came out far darker
than the paper (hand-held kk2727-0012: 100 against the paper's 166), so the pen digits there were
no ink at all, and twelve of them were missed. Measured 2026-11-28 end to end (with ENTRY_KEEP),
half-filled photos with every entry right: seed 2727 hand-held 14 -> 15 of 18, hard 12 -> 13 of
15; seed 3737 hand-held 18 of 20 as before, hard 9 -> 11 of 12; entries listed wrong 22 -> 10 and
15 -> 12; no board changed (the 75th percentile, the tone's: 15, 12, 18, 10)."""
TRAINING_PUZZLES = 1200
"""Drawn and photographed Kakuro the digit model learns from. Digits of hard photos (160 other
training Kakuro) read right by the model fitted on 75, 150, 300 and 600 of them: 94.2%, 95.4%,
96.8%, 97.1% (a wider network, 512 × 256, gained nothing). 600 → 1200 (v16 → v17): hard digits of
160 fresh Kakuro (seeds 20000–20159) 97.88% → 98.10%; boards exact on a fresh photo set (seed 7070,
clean/hand-held/hard of 60) 60/57/45 → 60/58/45, entries exact 62% → 66%; drawing the set and fitting
take about 15 minutes, once."""
CONV_EPOCHS = 16
"""Epochs of the convolutional digit model (see :class:`DigitModel`)."""
TRAINING_LEVELS = ("clean", "handheld", "hard", "hard")
"""Photo levels of the training Kakuro in turn (hard twice: its small, shaded digits are the most
often misread)."""


# -- tones ------------------------------------------------------------------------------------------
def cell_patch(grid: KakuroGridFind, cell: tuple[int, int]) -> np.ndarray:
    """The cell of the rectified grid resampled to CELL×CELL grey levels (float32)."""
    x0, y0, x1, y1 = grid.cell_box(cell)
    sx, sy = CELL / max(1.0, x1 - x0), CELL / max(1.0, y1 - y0)
    m = np.float32([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]])
    grey = to_grey(grid.rectified)
    return cv2.warpAffine(grey, m, (CELL, CELL), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


LOCAL_REACH = 0.15
"""How far (share of a cell) each side of a cell may move onto an edge that runs along it: a curled
page bends the boundaries, which the lattice's straight lines follow only on average."""
LOCAL_ALONG = 30
"""An edge runs along a side when this percentile of its strength over the side is high (so a digit
or the diagonal that touches a stretch of it does not count)."""
LOCAL_STRONG = 0.5
"""A side moves only onto an edge at least this share of the grid's typical boundary (the 90th
percentile of the along-strengths at the lattice's own boundaries): between two dark cells there is
none, and the side stays."""


def cell_patches(grid: KakuroGridFind) -> dict:
    """Every cell's patch (:func:`cell_patch`), each side of its box first moved onto the edge that
    runs along it within LOCAL_REACH of a cell, when there is a clear one (see LOCAL_STRONG)."""
    grey = to_grey(grid.rectified)
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    boxes = _bent_boxes(grid, gx, gy)
    sides = {}
    for cell, (x0, y0, x1, y1) in boxes.items():
        for k, (strength, at, lo, hi) in enumerate(((gx, x0, y0, y1), (gy.T, y0, x0, x1), (gx, x1, y0, y1), (gy.T, y1, x0, x1))):
            sides[(cell, k)] = _side_strengths(strength, at, lo, hi, LOCAL_REACH * ((x1 - x0) if k % 2 == 0 else (y1 - y0)))
    typical = float(percentile([profile[len(profile) // 2] for _, profile in sides.values() if len(profile)], 90))
    patches = {}
    for cell, box in boxes.items():
        moved = list(box)
        for k in range(4):
            start, profile = sides[(cell, k)]
            if len(profile) and profile.max() >= LOCAL_STRONG * typical and profile.max() > profile[len(profile) // 2]:
                moved[k] = start + float(np.argmax(profile))
        patches[cell] = _patch(grey, tuple(moved))
    return patches


BEND_REACH = 0.3
"""How far (share of a cell) a boundary is looked for either side of the lattice's straight line when
measuring how a curl bends it (:func:`_bent_boxes`)."""


def _bent_boxes(grid: KakuroGridFind, gx: np.ndarray, gy: np.ndarray) -> dict:
    """Every cell's box ``(x0, y0, x1, y1)`` with its sides where the page's bend puts them
    (:func:`vision.bend.bend_field` on the edge strengths across vertical and horizontal
    boundaries), so the boundaries between two dark cells follow their neighbours'."""
    xs, ys = np.asarray(grid.lines_x, float), np.asarray(grid.lines_y, float)
    cell = float(np.median(np.diff(xs)))
    dx = bend_field(gx, xs, ys, BEND_REACH * cell)
    dy = bend_field(gy.T, ys, xs, BEND_REACH * cell)
    boxes = {}
    for r in range(grid.rows):
        for c in range(grid.cols):
            y_mid, x_mid = 0.5 * (ys[r] + ys[r + 1]), 0.5 * (xs[c] + xs[c + 1])
            boxes[(r, c)] = (xs[c] + dx.at(xs[c], y_mid), ys[r] + dy.at(ys[r], x_mid),
                             xs[c + 1] + dx.at(xs[c + 1], y_mid), ys[r + 1] + dy.at(ys[r + 1], x_mid))
    return boxes


def _side_strengths(strength: np.ndarray, at: float, lo: float, hi: float, reach: float) -> tuple[int, np.ndarray]:
    """``(first position, strengths)``: for every position within ``reach`` of ``at`` (columns of
    ``strength``), the LOCAL_ALONG percentile of the edge strength over the side's middle
    (rows ``lo``..``hi`` less a fifth at each end)."""
    return band_profile(strength, at, lo, hi, reach, LOCAL_ALONG)


def _patch(grey: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The box ``(x0, y0, x1, y1)`` of a grey image resampled to CELL×CELL (float32)."""
    x0, y0, x1, y1 = box
    sx, sy = CELL / max(1.0, x1 - x0), CELL / max(1.0, y1 - y0)
    m = np.float32([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]])
    return cv2.warpAffine(grey, m, (CELL, CELL), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def cell_tones(patches: dict) -> tuple[dict, dict]:
    """``(tone, white level)`` per cell: the TONE_PERCENTILE grey of the patch inside its edges (the
    paper of a white cell even under a big written digit, the fill of a dark cell even with its
    figures) divided by the white level there. The white level is the brightest cell nearby (one,
    then two cells around) when those cells differ by BIMODAL and by SPREAD of the light there
    (both kinds are there: this follows a sharp shadow), else a quadratic surface in (row, col) fitted to the cells an Otsu split calls
    white (a constant when they are few). The second value is the surface's grey level."""
    raw = {cell: float(percentile(p[8:56, 8:56], TONE_PERCENTILE)) for cell, p in patches.items()}
    values = np.array(list(raw.values()), np.float32)
    split = _otsu(values)
    whites = [cell for cell, v in raw.items() if v > split]
    if len(whites) >= 8:
        rows = np.array([[1, r, c, r * r, c * c, r * c] for r, c in whites], np.float64)
        coef, *_ = np.linalg.lstsq(rows, np.array([raw[w] for w in whites]), rcond=None)
        level = {cell: max(20.0, float(np.dot([1, cell[0], cell[1], cell[0] ** 2, cell[1] ** 2,
                                                cell[0] * cell[1]], coef))) for cell in raw}
    else:
        top = float(np.median([raw[w] for w in whites])) if whites else float(values.max())
        level = {cell: max(20.0, top) for cell in raw}
    tones = {}
    for (r, c), value in raw.items():  # a shadow is sharper than any smooth surface: look nearby first
        tones[(r, c)] = value / level[(r, c)]
        for radius in (1, 2):
            near = [raw[(a, b)] for a in range(r - radius, r + radius + 1) for b in range(c - radius, c + radius + 1)
                    if (a, b) in raw]
            light = max(max(near), SHADOW_FLOOR * level[(r, c)])  # under a hard shadow, less than the surface
            if max(near) >= BIMODAL * min(near) and max(near) - min(near) >= SPREAD * light:
                tones[(r, c)] = value / max(near)
                break
    return tones, level


def _otsu(values: np.ndarray) -> float:
    """The Otsu threshold of a 1-D sample (its midpoint when it has under two distinct values)."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return float(v.mean()) if len(v) else 0.0
    best, split = -1.0, float(v.mean())
    for i in range(1, len(v)):
        a, b = v[:i], v[i:]
        between = len(a) * len(b) * (a.mean() - b.mean()) ** 2
        if between > best:
            best, split = between, float((v[i - 1] + v[i]) / 2)
    return split


def white_probabilities(tones: dict) -> dict:
    """P(white) per cell from its tone: a logistic around the point halfway between the white cells
    (tone 1) and the median dark cell, with a slope a tenth of their distance."""
    values = np.array(list(tones.values()))
    dark = values[values < _otsu(values)]
    low = float(np.median(dark)) if len(dark) else 0.3
    middle = (1.0 + low) / 2
    slope = max(0.02, (1.0 - low) / 10)
    return {cell: float(1 / (1 + np.exp(-(t - middle) / slope))) for cell, t in tones.items()}


# -- white cells from the steps between neighbours ---------------------------------------------------
STRIP = (4, 22)
"""Pixels from a shared boundary (of the CELL-px patches) over which its two sides are compared."""
STRIP_PERCENTILE = 60
"""The grey of a side at one place along the boundary: this percentile across the strip (a grid
line a few pixels off where the boundary was snapped, as on a curled page, stays out)."""
STEP_EPS = 0.1
"""Added to both sides of a step (as a share of the brighter side, so a shadow scales it too) so two
dark fills do not compare as far apart as their noise makes them."""
SAME_STEP, DIFFERENT_STEP = 0.05, 0.18
"""Log brightness steps across a boundary: white next to white stays under SAME_STEP, a white cell
next to a block or clue cell rises over DIFFERENT_STEP (kdev hard with true corners: white–white
95th percentile 0.10, white–dark 5th percentile 0.17; grey blocks are about 0.25 below white)."""
STEP_WEIGHT = 2.5
"""Cost (nats) of a boundary step that contradicts the labels of its two cells."""
DARK_STEP_SHARE = 0.5
"""Share of STEP_WEIGHT that two dark cells pay for a step as large as a white cell's beside them."""
TONE_WEIGHT = 0.3
"""Weight of a cell's own tone (its -log probability) against the boundary steps."""
TRUSTED_TONE_WEIGHT = 1.0
"""The tone's weight in the second opinion :mod:`vision.kakuro` asks for (a shadow's edge along a
cell boundary makes the steps lie; light grey blocks make the tones lie)."""
TONE_CLIP = 0.03
"""A tone probability is clipped into [TONE_CLIP, 1 - TONE_CLIP]: a shadow can fool any tone."""


def boundary_steps(patches: dict, level: dict) -> dict:
    """``(a, b) → step`` for every pair of side-by-side cells (``b`` right of or below ``a``): the
    median, along their shared boundary, of the log ratio of the grey just inside ``a`` to the grey
    just inside ``b`` (STRIP_PERCENTILE of the STRIP pixels from the boundary; STEP_EPS of the brighter added to each).
    A shadow darkens both sides alike unless its edge runs right along the boundary, so the step
    says white next to white (about 0), or which of the two is the white one (far from 0)."""
    steps = {}
    a0, a1 = STRIP
    for (r, c), p in patches.items():
        for q, (mine, theirs) in (((r, c + 1), (p[8:56, CELL - a1:CELL - a0], lambda o: o[8:56, a0:a1])),
                                  ((r + 1, c), (p[CELL - a1:CELL - a0, 8:56].T, lambda o: o[a0:a1, 8:56].T))):
            if q in patches:
                x, y = (percentile(side, STRIP_PERCENTILE, axis=1) for side in (mine, theirs(patches[q])))
                eps = STEP_EPS * np.maximum(x, y) + 1.0  # + 1: two black sides are alike, not 0 / 0
                steps[((r, c), q)] = float(np.median(np.log((x + eps) / (y + eps))))
    return steps


def step_costs(step: float) -> tuple[float, float, float, float]:
    """Costs of the labels (dark 0, white 1) of a boundary's two sides given its step:
    ``(V00, V01, V10, V11)``: two whites want no step, a white beside a dark one a step of at
    least DIFFERENT_STEP up to the white side; two dark cells may differ somewhat (a grey block
    and a clue cell with its figures) but pay a share of it for a step as large as a white cell's
    beside them (V11 gives way by as much, so the costs are submodular, V00 + V11 ≤ V01 + V10, and
    :func:`min_cut_labels` minimises them exactly)."""
    ramp = lambda x, lo, width: min(1.0, max(0.0, (x - lo) / width))  # noqa: E731
    v11 = STEP_WEIGHT * ramp(abs(step), SAME_STEP, DIFFERENT_STEP - SAME_STEP)
    v10 = STEP_WEIGHT * ramp(-step, -DIFFERENT_STEP, DIFFERENT_STEP - SAME_STEP)  # a white, b dark: step ≥ D
    v01 = STEP_WEIGHT * ramp(step, -DIFFERENT_STEP, DIFFERENT_STEP - SAME_STEP)
    v00 = DARK_STEP_SHARE * STEP_WEIGHT * ramp(abs(step), DIFFERENT_STEP, 0.2)
    return v00, v01, v10, min(v11, v01 + v10 - v00)


def white_by_steps(white: dict, steps: dict, dark: frozenset, tone_weight: float = TONE_WEIGHT,
                   said: dict | None = None) -> dict:
    """P(white) per cell from its tone (``white``) and the boundary steps (:func:`boundary_steps`)
    together: the labelling of least total cost (tone costs ``tone_weight``·-log p, step costs
    :func:`step_costs`; cells in ``dark`` are dark; ``said`` maps cells to (label, cost) that the
    other label pays on top), found exactly by a minimum cut, and for each cell the logistic of how
    much dearer the other label would be with its neighbours kept."""
    cells = sorted(white)
    unary = {}
    for cell in cells:
        p = min(1 - TONE_CLIP, max(TONE_CLIP, white[cell]))
        unary[cell] = [tone_weight * -np.log(1 - p), tone_weight * -np.log(p)]
        if cell in dark:
            unary[cell] = [0.0, 1e3]
        elif said and cell in said:
            unary[cell][1 - said[cell][0]] += said[cell][1]
    pair = {edge: step_costs(step) for edge, step in steps.items()}
    labels = min_cut_labels(cells, unary, pair)
    out = {}
    for cell in cells:
        cost = [unary[cell][x] + sum(_pair_cost(pair, cell, other, x, labels[other]) for other in _around(cell, labels))
                for x in (0, 1)]
        out[cell] = float(1 / (1 + np.exp(np.clip(cost[1] - cost[0], -50, 50))))
    return out


def _around(cell, labels):
    r, c = cell
    return [q for q in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)) if q in labels]


def _pair_cost(pair: dict, cell, other, x: int, y: int) -> float:
    """The step cost of ``cell`` labelled ``x`` beside ``other`` labelled ``y``."""
    if (cell, other) in pair:
        return pair[(cell, other)][2 * x + y]
    return pair[(other, cell)][2 * y + x]


def min_cut_labels(cells: list, unary: dict, pair: dict) -> dict:
    """The 0/1 labels of least ``Σ unary[cell][x] + Σ pair[(a, b)][2·x_a + x_b]`` for submodular
    pair costs (V00 + V11 ≤ V01 + V10; a pair that is not is made so by raising V01), by a minimum
    s–t cut (Kolmogorov–Zabih construction; label 1 on the sink side)."""
    index = {cell: i + 2 for i, cell in enumerate(cells)}
    n = len(cells) + 2
    cap = [dict() for _ in range(n)]

    def add(u: int, v: int, c: float) -> None:
        if c > 0:
            cap[u][v] = cap[u].get(v, 0.0) + c
            cap[v].setdefault(u, 0.0)

    cost1 = {cell: unary[cell][1] - unary[cell][0] for cell in cells}
    for (a, b), (v00, v01, v10, v11) in pair.items():
        v01 = max(v01, v00 + v11 - v10)
        cost1[a] += v10 - v00
        cost1[b] += v11 - v10
        add(index[a], index[b], v01 + v10 - v00 - v11)
    for cell, c in cost1.items():
        add(0, index[cell], c) if c > 0 else add(index[cell], 1, -c)
    _max_flow(cap, 0, 1)
    reach, stack = {0}, [0]
    while stack:
        u = stack.pop()
        for v, c in cap[u].items():
            if c > 1e-9 and v not in reach:
                reach.add(v)
                stack.append(v)
    return {cell: 0 if index[cell] in reach else 1 for cell in cells}


def _max_flow(cap: list, s: int, t: int) -> None:
    """Push a maximum flow from ``s`` to ``t`` through ``cap`` (residual capacities, changed in
    place) by shortest augmenting paths."""
    while True:
        parent = {s: None}
        queue = [s]
        for u in queue:
            if t in parent:
                break
            for v, c in cap[u].items():
                if c > 1e-9 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if t not in parent:
            return
        path, v = [], t
        while parent[v] is not None:
            path.append((parent[v], v))
            v = parent[v]
        push = min(cap[u][v] for u, v in path)
        for u, v in path:
            cap[u][v] -= push
            cap[v][u] = cap[v].get(u, 0.0) + push


# -- glyphs -----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class NumberGlyphs:
    """The digits of one number: ink crops (float32, 0..1) left to right, and the line height."""

    glyphs: tuple[np.ndarray, ...]
    height: float
    joined: tuple[tuple[np.ndarray, ...], ...] = ()
    """Other readings with neighbouring glyphs joined (a digit broken in pieces by blur or a
    shadow): down to two glyphs when there are more, and to one when they fit a digit's width."""
    whole: np.ndarray | None = None
    """The ink of the whole number (every glyph on its line), cropped to their joint box."""


def ink_map(patch: np.ndarray, fill: float, white: float, where: np.ndarray, local: bool = False,
            light_figures: bool | None = None) -> np.ndarray:
    """How far each pixel is from the fill towards the figures' tone, as a share of the strongest
    such difference inside ``where`` (so thin, blurred figures reach 1 too); 0..1. The figures are
    light (on a dark fill) when the light tail of the grey levels inside ``where`` reaches further
    from the fill than the dark tail, else dark: a grey fill under a shadow is darker than the
    white level elsewhere but its figures stay dark (``white`` decides only when ``where`` is empty).
    The fill is ``fill`` everywhere, or with ``local`` the patch's own grey closing over LOCAL_FILL
    pixels (an opening for light figures): the fill around each pixel, so a shadow's edge or a
    light's falloff across the cell is no ink (held-out hard kk3131-0152: against the one fill, the
    "2" of a "12" on the bright side of a light's falloff was barely ink and only the "1" was seen).
    ``light_figures`` is the tone of the grid's figures (:func:`figure_tone`): it wins over the tails
    when its own tail reaches FIGURE_INK (a strip of the lighter cell beside, where the lattice runs a
    little off, is as far from a shadowed grey fill as its dark figures: hard kk4747-0008's "10")."""
    if where.any():
        light_tail, dark_tail = _tails(patch, fill, where)
        light = light_tail > dark_tail
        if light_figures is not None and light != light_figures and \
                (light_tail if light_figures else dark_tail) >= FIGURE_INK:
            light = light_figures
    else:
        light = fill < 0.5 * white
    if local:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LOCAL_FILL, LOCAL_FILL))
        grey = patch.astype(np.float32)
        diff = grey - cv2.morphologyEx(grey, cv2.MORPH_OPEN, kernel) if light else \
            cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel) - grey
    else:
        diff = patch - fill if light else fill - patch
    peak = float(percentile(diff[where], 99.5)) if where.any() else 0.0
    return np.clip(diff / max(25.0, peak), 0.0, 1.0).astype(np.float32)


def clue_glyphs(patch: np.ndarray, white: float, direction: str, local: bool = False,
                light_figures: bool | None = None) -> NumberGlyphs | None:
    """The digit glyphs of a clue cell's ``'across'`` (upper-right half) or ``'down'`` (lower-left)
    number, or None when none are seen; with ``local``, of the ink over the local fill
    (:func:`ink_map`, which also says what ``light_figures`` does)."""
    half, shift, width = clue_half(patch, direction)
    fill = float(np.median(patch[half]))
    ink = np.where(half, ink_map(patch, fill, white, half, local, light_figures), 0.0)
    return _number(_without_diagonal_remnants(ink, shift, width))


def clue_half(patch: np.ndarray, direction: str) -> tuple[np.ndarray, int, int]:
    """``(mask, shift, width)``: the pixels of a clue cell's ``'across'`` (upper-right) or ``'down'``
    (lower-left) half beyond the band round its diagonal (:func:`diagonal_line`: ``shift``,
    ``width``) and inside the blanked edges."""
    ys, xs = np.mgrid[0:CELL, 0:CELL]
    shift, width = diagonal_line(patch)
    half = (xs - ys - shift > width) if direction == "across" else (ys - xs + shift > width)
    return half & (xs >= EDGE) & (xs < CELL - EDGE) & (ys >= EDGE) & (ys < CELL - EDGE), shift, width


def _tails(patch: np.ndarray, fill: float, where: np.ndarray) -> tuple[float, float]:
    """How far the lightest and the darkest pixels inside ``where`` reach from the fill (99.5th
    percentiles)."""
    return float(percentile(patch[where] - fill, 99.5)), float(percentile(fill - patch[where], 99.5))


FIGURE_INK = 25.0
"""Grey levels a half's tail must reach from its fill to count as a figure's ink (:func:`figure_tone`,
:func:`ink_map`)."""


def figure_tone(patches: dict, diagonal: dict) -> bool | None:
    """Whether the clue figures of the grid are light (on dark fills) rather than dark: what most
    halves of the cells showing a diagonal (CLUE_DIAGONAL) say by their tails (:func:`ink_map`), of
    those whose farther tail reaches FIGURE_INK; None when none does. A Kakuro prints all its
    numbers alike, so this decides a half its own tails leave in doubt."""
    votes = []
    for cell, patch in patches.items():
        if diagonal[cell] < CLUE_DIAGONAL:
            continue
        for direction in ("across", "down"):
            half, _, _ = clue_half(patch, direction)
            light_tail, dark_tail = _tails(patch, float(np.median(patch[half])), half)
            if max(light_tail, dark_tail) >= FIGURE_INK:
                votes.append(light_tail > dark_tail)
    return 2 * sum(votes) > len(votes) if votes else None


REMNANT_NEAR, REMNANT_THIN = 0.7, 0.35
"""A component of ink is a piece of the diagonal left over beside the blanked band (not a digit)
when at least REMNANT_NEAR of its pixels lie within 4 px of the band and it is thin across the
diagonal: the spread of x - y at most REMNANT_THIN of the spread of x + y (hard tuning photos: such
pieces made 3 or 4 glyphs of a 2-digit number)."""


def _without_diagonal_remnants(ink: np.ndarray, shift: int, width: int) -> np.ndarray:
    """The ink map with the pieces of the diagonal line x - y = ``shift`` (band half-width
    ``width``) left over beside its band taken out (see REMNANT_NEAR); a copy."""
    count, labels = cv2.connectedComponents((ink > INK_LOW).astype(np.uint8), connectivity=8)
    out = ink.copy()
    for i in range(1, count):
        ys, xs = np.nonzero(labels == i)
        if len(xs) < 3:
            continue
        across, along = xs - ys, xs + ys
        near = float(np.mean(np.abs(across - shift) <= width + 4))
        if near >= REMNANT_NEAR and across.std() <= REMNANT_THIN * max(along.std(), 1e-6):
            out[labels == i] = 0.0
    return out


@lru_cache(maxsize=4)
def _diagonals(reach: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, lengths)``: for each offset d in -reach..reach, the flat indices of the CELL-px
    patch's pixels on x - y = d inside its EDGE margin (padded with -1), and how many there are."""
    ys, xs = np.mgrid[0:CELL, 0:CELL]
    inside = (xs >= EDGE) & (xs < CELL - EDGE) & (ys >= EDGE) & (ys < CELL - EDGE)
    lines = [np.flatnonzero((xs - ys == d) & inside) for d in range(-reach, reach + 1)]
    rows = np.full((len(lines), max(map(len, lines))), -1, np.int64)
    for i, line in enumerate(lines):
        rows[i, :len(line)] = line
    return rows, np.array([len(line) for line in lines])


def diagonal_line(patch: np.ndarray, reach: int = 10) -> tuple[int, int]:
    """Where a clue cell's diagonal really runs, and how wide it is: the offset d of the line
    x - y = d (within ``reach`` of the corner-to-corner diagonal) along which the patch differs
    most from its median, over most of its length (the median along it: a digit beside the
    diagonal crosses lines near it for a short stretch only), and the half-width (at least DIAGONAL) over which the difference stays
    above a third of the way from the background to that peak (a blurred line is wide)."""
    return _line_in(np.abs(patch - float(np.median(patch))), reach)


def _line_in(diff: np.ndarray, reach: int) -> tuple[int, int]:
    """:func:`diagonal_line` of the patch whose difference from its median is ``diff``."""
    rows, middle = _diagonals(reach)
    ranked = np.sort(np.where(rows >= 0, diff.ravel()[np.maximum(rows, 0)], np.inf), axis=1)
    medians = (ranked[np.arange(len(rows)), (middle - 1) // 2] + ranked[np.arange(len(rows)), middle // 2]) / 2
    along = {d: float(m) for d, m in zip(range(-reach, reach + 1), medians)}
    offset = max(along, key=along.get)
    background = float(np.median([along[-reach], along[reach], along[1 - reach], along[reach - 1]]))
    level = background + (along[offset] - background) / 3
    width = 0
    while (abs(offset + width + 1) <= reach and along[offset + width + 1] >= level) or \
            (abs(offset - width - 1) <= reach and along[offset - width - 1] >= level):
        width += 1
    return offset, max(DIAGONAL, width + 1)


def diagonal_strength(patch: np.ndarray) -> float:
    """How clearly a clue cell's diagonal runs through the patch corner to corner: the least, over
    four stretches of the diagonal, of its mean difference from the patch's median, over the
    median difference elsewhere. Clue cells score well above CLUE_DIAGONAL; blocks and white cells
    (a written digit crosses only part of the diagonal) well below. (The patch is CELL × CELL.)"""
    diff = np.abs(patch - float(np.median(patch)))
    offset, _ = _line_in(diff, 10)
    stretches, rest = _strength_places(offset)
    flat = diff.ravel()
    means = [flat[stretch].mean() for stretch in stretches]
    return float(min(means) / (np.median(flat[rest]) + 2.0))


@lru_cache(maxsize=32)
def _strength_places(offset: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """For :func:`diagonal_strength` of a diagonal at ``offset``: the flat indices (row-major, as a
    boolean mask takes them) of the band within a pixel of it in each of four stretches, and of
    the pixels farther than DIAGONAL from it, all inside the EDGE margin."""
    ys, xs = np.mgrid[0:CELL, 0:CELL]
    inside = (xs >= EDGE) & (xs < CELL - EDGE) & (ys >= EDGE) & (ys < CELL - EDGE)
    band = (np.abs(xs - ys - offset) <= 1) & inside
    rest = inside & (np.abs(xs - ys - offset) > DIAGONAL)
    stretch = (CELL - 2 * EDGE) / 4
    stretches = tuple(np.flatnonzero(band & (xs >= EDGE + k * stretch) & (xs < EDGE + (k + 1) * stretch))
                      for k in range(4))
    return stretches, np.flatnonzero(rest)


def written_ink(patch: np.ndarray, white: float | np.ndarray) -> np.ndarray:
    """Darkness under ``white`` (the paper's tone there: one level, or one per pixel), 0 at the paper
    and 1 at 0.7 of its tone or darker (float32): how written and printed figures stand out
    (compared with ENTRY_INK)."""
    scale = np.maximum(30.0, 0.7 * white) if np.ndim(white) else max(30.0, 0.7 * white)
    return np.clip((white - patch) / scale, 0.0, 1.0).astype(np.float32)


def entry_glyph(patch: np.ndarray, white: float, shadowless: bool = False) -> np.ndarray | None:
    """The ink of the digit written in a white cell, or None when there is none; with ``shadowless``,
    without the ink a shadow's edge put there (see ENTRY_KEEP)."""
    ink = written_ink(patch, white)
    ink[:EDGE], ink[-EDGE:], ink[:, :EDGE], ink[:, -EDGE:] = 0, 0, 0, 0
    if shadowless:
        ink = _without_shadow_edges(patch, ink)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((ink > ENTRY_INK).astype(np.uint8), connectivity=8)
    best = None
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        if h >= ENTRY_HEIGHT * CELL and 0.2 * CELL <= x + w / 2 <= 0.8 * CELL and (best is None or h > stats[best, 3]):
            best = i
    if best is None:
        return None
    x, y, w, h, _ = stats[best]
    keep = [j for j in range(1, count) if j == best or (stats[j, 0] < x + w and stats[j, 0] + stats[j, 2] > x
                                                        and stats[j, 1] >= y - 0.2 * h and stats[j, 1] + stats[j, 3] <= y + 1.2 * h)]
    x0 = min(stats[j, 0] for j in keep)
    x1 = max(stats[j, 0] + stats[j, 2] for j in keep)
    y0 = min(stats[j, 1] for j in keep)
    y1 = max(stats[j, 1] + stats[j, 3] for j in keep)
    return np.where(np.isin(labels[y0:y1, x0:x1], keep), ink[y0:y1, x0:x1], 0).astype(np.float32)


def entry_white(patch: np.ndarray, level: float) -> float:
    """The white a written digit in this white cell stands out from: the cell's white ``level`` (see
    :func:`cell_tones`), or its own paper (the ENTRY_PAPER percentile of its grey inside the edges)
    when that is lighter."""
    return max(level, float(percentile(patch[EDGE:-EDGE, EDGE:-EDGE], ENTRY_PAPER)))


def _without_shadow_edges(patch: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """``ink`` (:func:`written_ink`) without the pixels whose darkness against the local paper (a grey
    closing over ENTRY_LOCAL_FILL pixels, as a share of it) is under ENTRY_KEEP of their ink, grown
    back by a pixel within the ink (a stroke's soft edge)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ENTRY_LOCAL_FILL, ENTRY_LOCAL_FILL))
    grey = patch.astype(np.float32)
    local = written_ink(grey, cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel))
    on = ink > ENTRY_INK
    return np.where(grown_within(on & (local >= ENTRY_KEEP * ink), on), ink, 0).astype(np.float32)


def _number(ink: np.ndarray) -> NumberGlyphs | None:
    """Digit glyphs of the one number in an ink map: components on the tallest one's line, merged
    when they overlap in x, left to right."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((ink > INK_LOW).astype(np.uint8), connectivity=8)
    peaks = [0.0] + [float(ink[labels == i].max()) for i in range(1, count)]
    parts = [i for i in range(1, count) if MIN_GLYPH * CELL <= stats[i, 3] <= MAX_GLYPH * CELL
             and stats[i, 2] >= 0.15 * stats[i, 3] and stats[i, 4] >= 6 and peaks[i] >= INK]
    if not parts:
        return None
    tall = max(parts, key=lambda i: stats[i, 3])
    top, bottom = stats[tall, 1], stats[tall, 1] + stats[tall, 3]
    line = [i for i in parts if min(bottom, stats[i, 1] + stats[i, 3]) - max(top, stats[i, 1]) > 0.5 * stats[i, 3]]
    line.sort(key=lambda i: stats[i, 0])
    groups: list[list[int]] = []
    for i in line:
        if groups and stats[i, 0] < max(stats[j, 0] + stats[j, 2] for j in groups[-1]) - 0.5 * stats[i, 2]:
            groups[-1].append(i)
        else:
            groups.append([i])
    pieces = [piece for group in groups for piece in _pieces(ink, labels, stats, group)]
    glyphs = tuple(_crop(ink, labels, stats, piece) for piece in pieces)
    whole = _crop(ink, labels, stats, (tuple(line), min(stats[i, 0] for i in line), max(stats[i, 0] + stats[i, 2] for i in line)))
    return NumberGlyphs(glyphs, float(bottom - top), _joined(ink, labels, stats, pieces), whole)


WHOLE_SHAPE = (16, 32)
"""(h, w) of a whole number's image for the number model."""


def whole_features(ink: np.ndarray) -> np.ndarray:
    """A whole number's ink (float32, WHOLE_SHAPE h·w): centred in a box twice as wide as tall
    (or as wide as it is), resized, normalised."""
    h, w = ink.shape
    bh, bw = max(h, (w + 1) // 2), max(w, 2 * h)
    canvas = np.zeros((bh, bw), np.float32)
    canvas[(bh - h) // 2:(bh - h) // 2 + h, (bw - w) // 2:(bw - w) // 2 + w] = ink
    small = cv2.resize(canvas, (WHOLE_SHAPE[1], WHOLE_SHAPE[0]), interpolation=cv2.INTER_AREA)
    return (small / max(1e-3, float(small.max()))).ravel().astype(np.float32)


Piece = tuple[tuple[int, ...], int, int]
"""A glyph as the components it holds and the columns [x0, x1) it spans in the ink map."""


def _pieces(ink: np.ndarray, labels: np.ndarray, stats: np.ndarray, group: list[int]) -> list[Piece]:
    """One glyph for a group of components, or two when it is too wide for one digit (see
    :func:`_split_wide`)."""
    x0 = min(stats[j, 0] for j in group)
    x1 = max(stats[j, 0] + stats[j, 2] for j in group)
    whole = (tuple(group), x0, x1)
    cut = _cut_column(_crop(ink, labels, stats, whole))
    if cut is None:
        return [whole]
    return [piece for piece in ((tuple(group), x0, x0 + cut), (tuple(group), x0 + cut, x1))
            if _crop(ink, labels, stats, piece).any()]


def _crop(ink: np.ndarray, labels: np.ndarray, stats: np.ndarray, piece: Piece) -> np.ndarray:
    """The ink of a piece's components within its columns, cropped to their rows."""
    group, x0, x1 = piece
    y0 = min(stats[j, 1] for j in group)
    y1 = max(stats[j, 1] + stats[j, 3] for j in group)
    return np.where(np.isin(labels[y0:y1, x0:x1], group), ink[y0:y1, x0:x1], 0).astype(np.float32)


def _joined(ink: np.ndarray, labels: np.ndarray, stats: np.ndarray, pieces: list[Piece]) -> tuple:
    """The readings of :attr:`NumberGlyphs.joined`: the closest neighbours (least gap in x) joined
    until two glyphs are left, and two joined into one when together they are at most WIDE times
    as wide as tall."""
    out = []
    pieces = list(pieces)
    join = lambda a, b: (tuple(sorted(set(a[0]) | set(b[0]))), min(a[1], b[1]), max(a[2], b[2]))  # noqa: E731
    while len(pieces) > 2:
        k = min(range(len(pieces) - 1), key=lambda i: pieces[i + 1][1] - pieces[i][2])
        pieces[k:k + 2] = [join(pieces[k], pieces[k + 1])]
        if len(pieces) == 2:
            out.append(tuple(_crop(ink, labels, stats, piece) for piece in pieces))
    if len(pieces) == 2:
        one = _crop(ink, labels, stats, join(*pieces))
        if one.shape[1] <= WIDE * one.shape[0]:
            out.append((one,))
    return tuple(out)


def _cut_column(glyph: np.ndarray, wide: float | None = None) -> int | None:
    """Where to cut a glyph wider than ``wide`` (default WIDE) times its height: its faintest
    column in the middle third; None for a glyph narrow enough for one digit."""
    h, w = glyph.shape
    if w <= (WIDE if wide is None else wide) * h:
        return None
    columns = glyph.sum(axis=0)
    lo, hi = w // 3, max(w // 3 + 1, 2 * w // 3)
    return lo + int(np.argmin(columns[lo:hi]))


def _split_wide(glyph: np.ndarray, wide: float = None) -> list[np.ndarray]:
    """A glyph wider than ``wide`` (default WIDE) times its height (two digits blurred together)
    cut at its faintest column in the middle third; other glyphs as they are."""
    cut = _cut_column(glyph, wide)
    if cut is None:
        return [glyph]
    return [part for part in (glyph[:, :cut], glyph[:, cut:]) if part.shape[1] > 0 and part.any()]


def segmentations(number: NumberGlyphs) -> list[tuple[np.ndarray, ...]]:
    """The ways to read a number's glyphs: as found, then, for one glyph wider than MAYBE_TWO times
    its height, also cut in two (two narrow digits such as 11 blur into one blob), and the readings
    with broken digits joined (:attr:`NumberGlyphs.joined`)."""
    out = [number.glyphs]
    if len(number.glyphs) == 1:
        cut = _split_wide(number.glyphs[0], MAYBE_TWO)
        if len(cut) == 2:
            out.append(tuple(cut))
    return out + list(number.joined)


def glyph_features(ink: np.ndarray) -> np.ndarray:
    """Feature vector (float32, WINDOW² + 2) of a glyph: centred in a square of its larger side,
    resized, normalised; plus aspect and ink density (not its size: clue digits and written digits
    share the model)."""
    h, w = ink.shape
    side = max(h, w)
    canvas = np.zeros((side, side), np.float32)
    canvas[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = ink
    small = cv2.resize(canvas, (WINDOW, WINDOW), interpolation=cv2.INTER_AREA)
    small = small / max(1e-3, float(small.max()))
    shape = [w / h, float(ink.sum()) / (h * h)]
    return np.concatenate([small.ravel(), 3.0 * np.array(shape, np.float32)]).astype(np.float32)


# -- the model --------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class DigitModel:
    """The Kakuro digit reader: a perceptron on the glyph features and a small convolutional network
    (:mod:`vision.convnet`) on the glyph's WINDOW × WINDOW image, their probabilities averaged.
    Fitted on the glyphs of 300 training Kakuro, digits of hard photos (160 others) read right:
    perceptron 96.75%, network 97.32%, both 97.59% (clean and hand-held 99.8–100% each). As fitted
    here, on 600: 97.90% of the hard digits of 160 fresh Kakuro (seeds 20000–20159)."""

    mlp: Mlp
    conv: ConvNet

    @property
    def classes(self) -> tuple[str, ...]:
        return self.mlp.classes

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Rows of :func:`glyph_features` → rows of probabilities over DIGITS (rows sum to 1)."""
        image = np.ascontiguousarray(features[:, :WINDOW * WINDOW])
        return 0.5 * (self.mlp.probabilities(features) + self.conv.probabilities(image))


def digit_model_files(local: bool = False) -> tuple[Path, Path]:
    """The cache files of the digit model (see :func:`digit_model`): its perceptron, its network."""
    version = LOCAL_MODEL_VERSION if local else MODEL_VERSION
    return cache_dir() / f"{version}-mlp.npz", cache_dir() / f"{version}-conv.npz"


@lru_cache(maxsize=2)
def digit_model(local: bool = False) -> DigitModel:
    """The Kakuro digit model (clue digits 0..9 and written digits), from the disk cache or fitted
    now (about fifteen minutes on two busy processes, once); with ``local``, the one fitted on clue
    glyphs cut from the ink over the local fill (:func:`clue_glyphs`), which reads clue numbers
    beside the other (:func:`vision.kakuro.read_numbers`)."""
    version = LOCAL_MODEL_VERSION if local else MODEL_VERSION
    mlp_path, conv_path = digit_model_files(local)

    def load() -> DigitModel | None:
        mlp, conv = Mlp.load(mlp_path), ConvNet.load(conv_path)
        return None if mlp is None or conv is None else DigitModel(mlp, conv)

    def fit() -> DigitModel:
        rows, labels = training_glyphs(range(TRAINING_PUZZLES), local=local)
        mlp = fit_mlp(rows, labels, DIGITS, hidden=(256, 128), epochs=40, seed=1)
        conv = fit_convnet(np.ascontiguousarray(rows[:, :WINDOW * WINDOW]), labels, DIGITS,
                           shape=(WINDOW, WINDOW), hidden=128, epochs=CONV_EPOCHS, seed=1)
        mlp.save(mlp_path)
        conv.save(conv_path)
        return DigitModel(mlp, conv)

    return load_or_fit(version, load, fit)


NUMBER_MODEL_VERSION = "kakuro-numbers-v1"
LOCAL_NUMBER_MODEL_VERSION = "kakuro-numbers-local-v1"
NUMBERS = tuple(str(v) for v in range(1, 46))
"""The classes of the number model: every clue total 1..45."""


def number_model_files(local: bool = False) -> tuple[Path]:
    """The whole-number model's cache file (see :func:`number_model`)."""
    return (cache_dir() / f"{LOCAL_NUMBER_MODEL_VERSION if local else NUMBER_MODEL_VERSION}.npz",)


@lru_cache(maxsize=2)
def number_model(local: bool = False) -> ConvNet:
    """The Kakuro whole-number model: a convolutional network (:mod:`vision.convnet`) on a clue
    number's whole ink (:func:`whole_features`), over the totals 1..45, so two touching digits are
    read without being cut apart. From the disk cache or fitted now (the training Kakuro of the
    digit model drawn again: about fifteen minutes, once). Hard numbers of 160 fresh training Kakuro
    (seeds 20000–20159, 4,121 numbers) read right: 95.7% (two-digit 95.2%). With ``local``, the
    one fitted on numbers cut from the ink over the local fill (see :func:`digit_model`)."""
    path, = number_model_files(local)

    def fit() -> ConvNet:
        rows, labels = training_numbers(range(TRAINING_PUZZLES), local=local)
        net = fit_convnet(rows, labels, NUMBERS, shape=WHOLE_SHAPE, hidden=128, epochs=CONV_EPOCHS, seed=1)
        net.save(path)
        return net

    return load_or_fit(path.stem, lambda: ConvNet.load(path), fit)


def training_numbers(seeds, workers: int = 2, local: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """:func:`whole_features` of the clue numbers of the training Kakuro of :func:`training_glyphs`
    (the same seeds draw the same photos), and class indices into NUMBERS, on ``workers`` processes;
    ``local``: cut from the ink over the local fill (:func:`clue_glyphs`)."""
    return gather_rows(partial(_numbers_chunk, local=local), seeds, workers)


def _numbers_chunk(seeds, local: bool = False) -> tuple[list[np.ndarray], list[int]]:
    """The whole-number rows and labels of the training Kakuro of these seeds."""
    rows, labels = [], []
    for seed in seeds:
        for _, value, number in _training_reads(*_training_kakuro(seed), entries=False, local=local):
            if number.whole is not None:
                rows.append(whole_features(number.whole))
                labels.append(value - 1)
    return rows, labels


def training_glyphs(seeds, workers: int = 2, local: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features and class indices of the clue and entry digits of one drawn, photographed and
    rectified training Kakuro per seed (random legal layout, random clue numbers 1..45, about
    half the white cells written in), on ``workers`` processes. A number whose glyph count differs
    from its digits is skipped. ``local``: clue glyphs cut from the ink over the local fill
    (:func:`clue_glyphs`)."""
    return gather_rows(partial(_training_chunk, local=local), seeds, workers)


def _training_chunk(seeds, local: bool = False) -> tuple[list[np.ndarray], list[int]]:
    """The glyph features and labels of the training Kakuro of these seeds (see :func:`training_glyphs`)."""
    rows, labels = [], []
    for seed in seeds:
        for kind, value, seen in _training_reads(*_training_kakuro(seed), local=local):
            if kind == "entry":
                rows.append(glyph_features(seen))
                labels.append(value)
            elif len(seen.glyphs) == len(str(value)):
                rows += [glyph_features(g) for g in seen.glyphs]
                labels += [int(d) for d in str(value)]
    return rows, labels


def _training_reads(puzzle, patches: dict, level: dict, entries: bool = True, local: bool = False):
    """What the reading code sees in a training Kakuro, cell by cell in reading order, with the
    truth: ``('number', total, NumberGlyphs)`` for each clue number whose glyphs are found (with
    ``local``, over the local fill) and, with ``entries``, ``('entry', digit, ink)`` for each
    written digit whose glyph is found."""
    for cell, square in ((cell, puzzle.grid[cell[0]][cell[1]]) for cell in puzzle.cells):
        if isinstance(square, Clue):
            for direction in ("across", "down"):
                value = square.total(direction)
                number = clue_glyphs(patches[cell], level[cell], direction, local) if value is not None else None
                if number is not None:
                    yield "number", value, number
        elif entries and puzzle.entries[cell[0]][cell[1]] is not None:
            ink = entry_glyph(patches[cell], level[cell])
            if ink is not None:
                yield "entry", puzzle.entries[cell[0]][cell[1]], ink


def _training_kakuro(seed: int) -> tuple:
    """``(puzzle, patches, level)``: the training Kakuro of a seed (random legal layout, random clue
    numbers, about half the white cells written in) drawn, photographed, found as the reader finds
    it and cut into cell patches, with each cell's white level."""
    import random

    from solver.kakuro.generator import KakuroOptions, build, random_layout
    from solver.kakuro.model import KakuroPuzzle
    from ui.photo import LEVELS, simulate
    from ui.render_kakuro import KAKURO_STYLES, render_kakuro

    rng = random.Random(seed * 7919 + 13)
    side = rng.randint(5, 12)
    whites = random_layout(KakuroOptions(rows=side, cols=rng.randint(max(3, side - 2), min(15, side + 2))), rng)
    r_max, c_max = max(r for r, _ in whites) + 1, max(c for _, c in whites) + 1
    digits = {cell: rng.randint(1, 9) for cell in whites}
    layout = build(whites, digits, r_max, c_max).grid
    grid = tuple(tuple(Clue(*(_random_clue(rng, square.down), _random_clue(rng, square.across)))
                       if isinstance(square, Clue) else square for square in row) for row in layout)
    entries = tuple(tuple(digits[(r, c)] if (r, c) in whites and rng.random() < 0.5 else None
                          for c in range(c_max)) for r in range(r_max))
    puzzle = KakuroPuzzle(r_max, c_max, grid, entries)
    style = list(KAKURO_STYLES)[seed % len(KAKURO_STYLES)]
    photo_level = replace(LEVELS[TRAINING_LEVELS[(seed // 3) % len(TRAINING_LEVELS)]], coarse_shake=True)
    photo = simulate(render_kakuro(puzzle, style, seed=seed + 101), photo_level, seed=seed)
    found = _training_grid(photo, r_max, c_max, seed)
    patches = cell_patches(found)
    _, level = cell_tones(patches)
    return puzzle, patches, level


def _training_grid(photo, rows: int, cols: int, seed: int) -> KakuroGridFind:
    """The grid as the reader finds it in a training photo (so the model learns from the same cuts
    it will see), or from the true corners, slightly off, when the finder miscounts it."""
    from .errors import NoPuzzleFound
    from .kakuro_grid import find_kakuro_grid, rectify_grid
    try:
        found = find_kakuro_grid(photo.image, keypad=False)  # the keypad check asks the model being fitted
        if (found.rows, found.cols) == (rows, cols):
            return found
    except NoPuzzleFound:
        pass
    corners = np.asarray(photo.corners) + np.random.default_rng(seed).normal(0, 0.6, (4, 2))
    rectified, homography = rectify_grid(photo.image, corners, rows, cols)
    xs = tuple(float(i * (cols * CELL - 1) / cols) for i in range(cols + 1))
    ys = tuple(float(i * (rows * CELL - 1) / rows) for i in range(rows + 1))
    return KakuroGridFind(corners, rows, cols, rectified, xs, ys, homography, 1.0)


def _random_clue(rng, present) -> int | None:
    """A clue number 1..45 where ``present`` is not None (two digits twice as often as one)."""
    if present is None:
        return None
    return rng.randint(10, 45) if rng.random() < 0.67 else rng.randint(1, 9)


def classify(model: DigitModel, glyphs: list[np.ndarray]) -> np.ndarray:
    """Digit probabilities (len(glyphs) × 10)."""
    if not glyphs:
        return np.zeros((0, len(DIGITS)))
    return model.probabilities(np.stack([glyph_features(g) for g in glyphs]))


def number_alternatives(probs: np.ndarray, keep: int = 4, lowest: int = 1, highest: int = 45) -> list[tuple[int, float]]:
    """The likeliest numbers ``lowest..highest`` a row of digit probabilities spells, best first
    (independent digits, so probabilities are products; a leading zero is not a number)."""
    options = [(0, 1.0)]
    for row in probs:
        top = np.argsort(-row)[:3]
        options = [(value * 10 + int(d), p * float(row[d])) for value, p in options for d in top]
    out = [(v, p) for v, p in options if lowest <= v <= highest and not (len(probs) > 1 and v < 10 ** (len(probs) - 1))]
    return [(v, round(p, 4)) for v, p in sorted(out, key=lambda t: -t[1])[:keep]]
