"""Even out the light on the cells of a rectified Kakuro grid: hard shadows and shading divided out.

Inside one cell the paper (or the fill of a block or clue cell) has one tone, so where brightness
changes between two places *of the same cell*, the light changed (a shadow's edge, shading). Across
the boundary between two cells brightness also changes with the cells' tones, so there the light is
only assumed to go on smoothly. The light is solved for on a grid of BLOCK-px blocks (SIDE×SIDE per
cell), in logs, by weighted least squares:

* two blocks of one cell: their log light differs by the difference of their log brightness, with
  a weight that falls for dark blocks (a black fill says little about the light on it); a
  block's grey is a percentile away from the cell's figures, so strokes do not count as light;
* two blocks on either side of a cell boundary: the light is the same, with a small weight
  CROSS_WEIGHT, so the light of a cell no edge crosses comes from its neighbours; reweighted
  (robustly, ROUNDS times) where the fit says the light jumps there after all (a shadow's edge
  passing between two cells, which the cells it crosses elsewhere along its length show).

:func:`flatten` divides every patch by its light (bilinearly spread over the patch), scaled so the
light most cells see counts as 1: a white cell in a shadow becomes about as bright as one outside
it. :mod:`vision.kakuro` reads the cells' tones on flattened patches (hard tuning photos with true
corners: layouts exact 60 → 64 of 78); the steps between neighbours and the figures are read on the
patches as seen (the digit model learns from those, and a step is a ratio the light cancels from
anyway). A shadow edge that runs right along a cell boundary is not seen (nothing inside a cell
crosses it) and stays as it was.

Example::

    flat = flatten(patches)     # {(r, c): 64×64 float32}, same keys
"""
from __future__ import annotations

import numpy as np

from .quantiles import percentile

Cell = tuple[int, int]

INNER = (4, 60)
"""The part of a CELL-px patch (rows and columns) split into blocks: grid lines stay out."""
SIDE = 7
"""Blocks per cell along each side (of INNER)."""
BLOCK = (INNER[1] - INNER[0]) // SIDE
OFFSET = 8.0
"""Added to grey levels before taking logs (noise on a black fill is not a change of light)."""
CROSS_WEIGHT = 0.05
"""Weight of 'the light goes on' across a cell boundary, against 1 for two bright blocks of one cell."""
INK_PERCENTILE = 75
"""The percentile of a block's grey taken as its brightness when figures are darker than the fill."""
ROBUST = 0.08
"""Scale (log units) of the Cauchy reweighting of 'the light goes on' across a boundary where the
fit says it does not (a shadow's edge that runs between two cells)."""
ROUNDS = 6
"""Reweighting rounds (a shadow whose slanted edge crosses cells and boundaries of a synthetic grid:
white cells in and out of it differ 1.49-fold after one round, 1.20 after three, 1.17 after six)."""
ITERATIONS = 400
"""Most conjugate-gradient steps per solve."""


def block_grid(patches: dict[Cell, np.ndarray]) -> tuple[np.ndarray, int, int]:
    """``(values, rows, cols)``: the grey of every block, as a (rows·SIDE) × (cols·SIDE) array laid
    out like the grid. A block's grey is a percentile away from the cell's ink (INK_PERCENTILE, or
    100 minus it in a cell whose figures are lighter than its fill), so strokes of digits and the
    diagonal do not pass for light."""
    rows = max(r for r, _ in patches) + 1
    cols = max(c for _, c in patches) + 1
    out = np.zeros((rows * SIDE, cols * SIDE), np.float32)
    a = INNER[0]
    for (r, c), patch in patches.items():
        inner = patch[a:a + SIDE * BLOCK, a:a + SIDE * BLOCK]
        middle, low, high = (percentile(inner, p) for p in (50, 1, 99))
        q = 100 - INK_PERCENTILE if high - middle > middle - low else INK_PERCENTILE
        blocks = inner.reshape(SIDE, BLOCK, SIDE, BLOCK).transpose(0, 2, 1, 3).reshape(SIDE, SIDE, -1)
        out[r * SIDE:(r + 1) * SIDE, c * SIDE:(c + 1) * SIDE] = percentile(blocks, q, axis=2)
    return out, rows, cols


def log_light(values: np.ndarray) -> np.ndarray:
    """The log light on every block of a :func:`block_grid` (up to a constant): the weighted least
    squares fit described in the module docstring, by conjugate gradients."""
    g = np.log(values + OFFSET)
    bright = np.clip(values / max(1.0, float(percentile(values, 95))), 0.0, 1.0)
    same_x = (np.arange(values.shape[1] - 1) % SIDE) != SIDE - 1   # right neighbour in the same cell
    same_y = (np.arange(values.shape[0] - 1) % SIDE) != SIDE - 1
    base_x = np.where(same_x[None, :], np.minimum(bright[:, :-1], bright[:, 1:]), CROSS_WEIGHT)
    base_y = np.where(same_y[:, None], np.minimum(bright[:-1], bright[1:]), CROSS_WEIGHT)
    dx = np.where(same_x[None, :], g[:, :-1] - g[:, 1:], 0.0)
    dy = np.where(same_y[:, None], g[:-1] - g[1:], 0.0)
    light = np.zeros_like(g)
    wx, wy = base_x, base_y
    for _ in range(ROUNDS):
        light = _solve(wx, wy, dx, dy, light)
        rx = light[:, :-1] - light[:, 1:] - dx
        ry = light[:-1] - light[1:] - dy
        wx = np.where(same_x[None, :], base_x, base_x / (1 + (rx / ROBUST) ** 2))
        wy = np.where(same_y[:, None], base_y, base_y / (1 + (ry / ROBUST) ** 2))
    return light


def _solve(wx: np.ndarray, wy: np.ndarray, dx: np.ndarray, dy: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The l of least ``Σ wx (l[:, j] - l[:, j+1] - dx)² + Σ wy (l[i] - l[i+1] - dy)²`` (plus a
    tiny pull to 0 that fixes the constant), by conjugate gradients from ``start``."""
    def apply(l: np.ndarray) -> np.ndarray:
        out = 1e-4 * l
        fx = wx * (l[:, :-1] - l[:, 1:])
        fy = wy * (l[:-1] - l[1:])
        out[:, :-1] += fx
        out[:, 1:] -= fx
        out[:-1] += fy
        out[1:] -= fy
        return out

    rhs = np.zeros_like(start)
    rhs[:, :-1] += wx * dx
    rhs[:, 1:] -= wx * dx
    rhs[:-1] += wy * dy
    rhs[1:] -= wy * dy
    x = start.copy()
    r = rhs - apply(x)
    p = r.copy()
    rr = float((r * r).sum())
    for _ in range(ITERATIONS):
        if rr < 1e-10 * rhs.size:
            break
        q = apply(p)
        alpha = rr / float((p * q).sum())
        x += alpha * p
        r -= alpha * q
        new = float((r * r).sum())
        p = r + (new / rr) * p
        rr = new
    return x


def flatten(patches: dict[Cell, np.ndarray]) -> dict[Cell, np.ndarray]:
    """Every CELL-px patch divided by the light on it (:func:`log_light`, spread bilinearly over
    the patch), scaled so the median block's light counts as 1; grey levels stay float32 (they
    may pass 255 where a shadow was deep). An empty dict gives an empty dict."""
    if not patches:
        return {}
    values, _, _ = block_grid(patches)
    light = log_light(values)
    light -= float(np.median(light))
    spread = _spreading(next(iter(patches.values())).shape[0])
    out = {}
    for (r, c), patch in patches.items():
        own = light[r * SIDE:(r + 1) * SIDE, c * SIDE:(c + 1) * SIDE]
        out[(r, c)] = (patch * np.exp(-(spread @ own @ spread.T))).astype(np.float32)
    return out


def _spreading(side: int) -> np.ndarray:
    """The side × SIDE matrix that interpolates block values linearly to pixels (block centres at
    their true places, held flat beyond the first and last)."""
    centres = INNER[0] + BLOCK * (np.arange(SIDE) + 0.5)
    eye = np.eye(SIDE)
    return np.stack([np.interp(np.arange(side) + 0.5, centres, eye[k]) for k in range(SIDE)], axis=1)


__all__ = ["block_grid", "flatten", "log_light"]
