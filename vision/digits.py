"""Reading the big digits written in cells (printed givens, typed entries and pen handwriting).

Algorithm, per cell:

1. *Ink* (:func:`vision.clues.ink_components`): the cell's darkness patch with walls and grid lines
   removed, cut into connected components.
2. *The digit* (:func:`digit_glyph`): the tallest component at least BIG of a cell (and 1.4 clue
   heights) high whose centre
   lies in the cell's middle is the digit; components overlapping it in x join it (broken pen
   strokes). Clue labels and pencil candidates are smaller than BIG, so they are ignored.
3. *Classify*: the glyph's ink, centred in a square window of its height and resized to 16×16,
   plus its aspect and stroke density, goes to a small perceptron (:class:`vision.mlp.Mlp`)
   fit on cells our renderer draws: typed and handwritten digits of every style and pen, with
   pencil marks in other cells, degraded like a phone photo (:func:`vision.glyphs.degrade`).

The model is cached on disk under :data:`MODEL_VERSION` like the clue glyph model.

Example::

    readings = read_digits(grid)           # only cells with a big digit appear
    readings[(2, 3)].alternatives          # ((7, 0.93), (1, 0.04), ...)
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import cv2
import numpy as np

from .clues import CELL, MARGIN, cell_ink, cell_patch, ink_components, label_glyphs, rectify
from .model import Cell, DigitReading, GridFind
from .glyphs import cache_dir, degrade, jittered, training_puzzle
from .mlp import Mlp, fit_mlp

MODEL_VERSION = "big-digits-v6"
HEAVY_FONTS = ("LeagueSpartan-Black.otf", "Lato-Black.ttf", "Roboto-Black.ttf", "OpenSans-ExtraBold.ttf")
"""Typed digits heavier than the renderer's styles print, added to the model's training (apps and
sites print their digits in black faces: the solved realdev screenshot)."""
TRAINING_PUZZLES = 800
HIDDEN = (192, 96)
"""Rendered puzzles the big-digit model learns from and its hidden layers. Measured on 2,300 digits
of 150 other rendered puzzles and the 16 heavy typed digits of the solved realdev screenshot: the
k-nearest-neighbour model on 120 puzzles before, 13 of 16; on 400 puzzles with HEAVY_FONTS, 98.6 %
and 15 of 16; this perceptron 99.1 % and 15–16 of 16 (over four seeds). Fitted afresh on
2026-11-22 (v5, 400 puzzles) it read 15 of 16 (a "4" the operator touches as "5"); on 800 puzzles
(v6) 16 of 16, entries of the held-out photos as before (clean 24, hand-held 21, hard 10 of 26, 29,
19)."""
DIGITS = tuple(str(d) for d in range(1, 10))
WINDOW = 16
BIG = 0.22
"""Least height of a big digit, as a share of the cell; it must also be 1.4 times the clue label's height
(clues and pencil marks are smaller)."""


def digit_glyph(dark: np.ndarray) -> np.ndarray | None:
    """The big digit's ink (float32 darkness, its bounding box) in a cell patch, or None when the
    cell holds no big digit."""
    return _digit_glyph(dark, ink_components(dark), label_glyphs(None, None, dark))


def cell_digit_glyph(grid: GridFind, cell: Cell) -> np.ndarray | None:
    """:func:`digit_glyph` of the grid's cell, from the ink and label the clue reader worked out."""
    labels, stats, _ = cell_ink(grid, cell)
    return _digit_glyph(cell_patch(grid, cell), (labels, stats), label_glyphs(grid, cell))


def _digit_glyph(dark: np.ndarray, ink: tuple[np.ndarray, np.ndarray], label) -> np.ndarray | None:
    labels, stats = ink
    least = max(BIG * CELL, 1.4 * label.height if label is not None else 0.0)
    best = None
    for i in range(1, len(stats)):
        x, y, w, h, area = stats[i]
        cx, cy = x + w / 2 - MARGIN, y + h / 2 - MARGIN
        if (area and least <= h <= 0.95 * CELL and w < 0.9 * CELL
                and 0.2 * CELL <= cx <= 0.8 * CELL and 0.3 * CELL <= cy <= 0.88 * CELL):
            if best is None or h > stats[best, 3]:
                best = i
    if best is None:
        return None
    x, y, w, h, _ = stats[best]
    ids = [j for j in range(1, len(stats)) if stats[j, 4] and j == best or (
        stats[j, 4] and min(x + w, stats[j, 0] + stats[j, 2]) - max(x, stats[j, 0]) > 0.5 * stats[j, 2]
        and stats[j, 1] >= y - 0.2 * h and stats[j, 1] + stats[j, 3] <= y + 1.2 * h)]
    x0 = min(stats[j, 0] for j in ids)
    x1 = max(stats[j, 0] + stats[j, 2] for j in ids)
    y0 = min(stats[j, 1] for j in ids)
    y1 = max(stats[j, 1] + stats[j, 3] for j in ids)
    if label is not None:
        y0 = max(y0, _label_neck(labels == best, label, y0, y1))
    mask = np.isin(labels[y0:y1, x0:x1], ids)
    rows = np.flatnonzero(mask.any(1))
    if len(rows) == 0:
        return None
    y0, y1 = y0 + int(rows[0]), y0 + int(rows[-1]) + 1
    mask = np.isin(labels[y0:y1, x0:x1], ids)
    return np.where(mask, dark[y0:y1, x0:x1], 0).astype(np.float32)


def _label_neck(mask: np.ndarray, label, y0: int, y1: int) -> int:
    """First row of the big digit when the clue label's last glyph touches it (its operator
    printed against the digit, as in a solved-grid screenshot): the narrowest row of the joined
    ink between the label's middle and just below the label; ``y0`` when the digit starts below
    the label's middle (nothing joined)."""
    lo, hi = int(label.top + 0.5 * label.height), int(label.top + 1.3 * label.height)
    if y0 >= lo or y1 <= hi:
        return y0
    widths = mask[lo:hi].sum(1)
    return lo + int(np.argmin(widths))


def digit_features(ink: np.ndarray) -> np.ndarray:
    """Feature vector (float32, WINDOW² + 3) of a big digit's ink: centred in a square of its height,
    resized, normalised; plus aspect, height share of the cell and ink density."""
    h, w = ink.shape
    side = max(h, w)
    canvas = np.zeros((side, side), np.float32)
    canvas[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = ink
    small = cv2.resize(canvas, (WINDOW, WINDOW), interpolation=cv2.INTER_AREA)
    small = small / max(1e-3, float(small.max()))
    shape = [w / h, h / CELL, float(ink.sum()) / (h * h)]
    return np.concatenate([small.ravel(), 3.0 * np.array(shape, np.float32)]).astype(np.float32)


def read_digits(grid: GridFind, model: Mlp | None = None, cells=None) -> dict[Cell, DigitReading]:
    """The big digit in each cell that has one (cells without a big digit are absent), with
    alternatives ``(digit, probability)`` best first (the top three)."""
    model = model or big_digit_model()
    cells = [(r, c) for r in range(grid.size) for c in range(grid.size)] if cells is None else list(cells)
    found = {}
    for cell in cells:
        ink = cell_digit_glyph(grid, cell)
        if ink is not None:
            found[cell] = digit_features(ink)
    if not found:
        return {}
    probs = model.probabilities(np.stack(list(found.values())))
    out = {}
    for cell, p in zip(found, probs):
        order = np.argsort(-p)[:3]
        out[cell] = DigitReading(cell, tuple((int(model.classes[i]), round(float(p[i]), 4)) for i in order))
    return out


@lru_cache(maxsize=1)
def big_digit_model() -> Mlp:
    """The big-digit model, from the disk cache or fitted now (about a minute and a half)."""
    path = cache_dir() / f"{MODEL_VERSION}.npz"
    model = Mlp.load(path)
    if model is None:
        features, labels = training_digits(range(TRAINING_PUZZLES))
        model = fit_mlp(features, labels, DIGITS, hidden=HIDDEN, epochs=40, seed=1)
        model.save(path)
    return model


def training_digits(seeds) -> tuple[np.ndarray, np.ndarray]:
    """Features and class indices (into DIGITS) of the big digits of one rendered, degraded,
    rectified training puzzle per seed: about half the cells written (typed or pen, as the style's
    look says), pencil candidates in some of the others."""
    from ui.render import STYLES, render

    styles = [dataclasses.replace(style, digit_fonts=style.digit_fonts + HEAVY_FONTS) for style in STYLES.values()]

    rows, labels = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 4099])
        size = int(rng.integers(4, 8))
        puzzle = training_puzzle(size, rng)
        entries = tuple(tuple(int(rng.integers(1, 10)) if rng.random() < 0.5 else None for _ in range(size))
                        for _ in range(size))
        pencil = [[set(int(d) for d in rng.choice(9, int(rng.integers(1, 5)), replace=False) + 1)
                   if entries[r][c] is None and rng.random() < 0.4 else None for c in range(size)]
                  for r in range(size)]
        style = styles[seed % len(styles)]
        rendering = render(puzzle, style, seed=int(seed) * 17 + 3, cell_px=80, entries=entries, pencil=pencil)
        image, corners = degrade(rendering.image, rendering.corners, size, rng)
        grid = rectify(image, jittered(corners, size, rng), size)
        for r in range(size):
            for c in range(size):
                if entries[r][c] is None:
                    continue
                ink = digit_glyph(cell_patch(grid, (r, c)))
                if ink is not None:
                    rows.append(digit_features(ink))
                    labels.append(entries[r][c] - 1)
    return np.array(rows, np.float32), np.array(labels, np.int32)
