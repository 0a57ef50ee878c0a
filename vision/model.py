"""The typed results passed between vision stages (all immutable).

Stages: ``grid`` (find and rectify the puzzle, N, line positions) → ``cages`` (which interior edges
are cage walls) → ``clues`` (number + operator in each cage's first cell) and ``digits`` (big written
digits) → ``reconcile`` (the solver checks and repairs what was read) → :class:`Reading`.

Coordinates: images are RGB uint8 numpy arrays; points are ``(x, y)`` floats; cells are
``(row, col)``. The *rectified* image is the grid seen square-on: ``side × side`` pixels with the
outer border's centre line on its edges (``lines[0] = 0``, ``lines[N] = side - 1`` roughly).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Cell = tuple[int, int]


@dataclass(frozen=True, eq=False)
class GridFind:
    """Where the puzzle grid is and what it looks like square-on."""

    corners: np.ndarray
    """4×2 float, outer grid corners in the original image: top-left, top-right, bottom-right, bottom-left."""
    size: int
    """N, the number of rows (= columns)."""
    rectified: np.ndarray
    """The grid warped square (RGB uint8), ``side × side``."""
    lines_x: tuple[float, ...]
    """N+1 column-line positions in the rectified image (snapped to the real lines, so uneven after curl)."""
    lines_y: tuple[float, ...]
    """N+1 row-line positions in the rectified image."""
    homography: np.ndarray
    """3×3 mapping original-image points to rectified points."""
    confidence: float
    """0..1: how sure we are of the grid and of N."""
    notes: tuple[str, ...] = ()
    """Warnings for people (e.g. 'two grids found, took the one with clues')."""
    flattened: bool = False
    """Found only in the copy flattened against its paper's tone (:func:`vision.grid.flattened`):
    no outline showed in the photo itself, so whatever else the photo holds is looked for too."""
    source: np.ndarray | None = None
    """The photo the grid was found in (RGB, as loaded), kept so that small print can be cut from it
    at the photo's own resolution (:func:`vision.clues.with_fine_ink`); None when not at hand."""
    bend: tuple[np.ndarray, np.ndarray] | None = None
    """Where each pixel of ``rectified`` was sampled from in the unbent square the homography maps
    the photo to (``map_x``, ``map_y``: the cut along bowed borders, :func:`vision.grid.unbowed`, and
    the straightening of bent lines, :func:`vision.grid.straightened`, composed), or None when the
    page was not curled enough for either."""

    def cell_box(self, cell: Cell) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of a cell in the rectified image, between its line centres."""
        r, c = cell
        return self.lines_x[c], self.lines_y[r], self.lines_x[c + 1], self.lines_y[r + 1]


Edge = tuple[Cell, Cell]
"""Two orthogonally adjacent cells, the smaller first."""


@dataclass(frozen=True)
class CageWalls:
    """Every interior edge with the probability that it is a cage wall."""

    wall_probability: dict[Edge, float]
    on_shadow_edge: frozenset[Edge] = frozenset()
    """Edges along a shadow's edge, where a wall measured as absent may be hidden in the shadow's
    step (:func:`vision.cages.shadow_steps`; :func:`vision.cages.settle` weighs them so)."""

    def walls(self, threshold: float = 0.5) -> frozenset[Edge]:
        """The edges taken as walls."""
        return frozenset(e for e, p in self.wall_probability.items() if p >= threshold)


@dataclass(frozen=True)
class ClueReading:
    """What is printed in one cell's clue corner: alternatives ``(op, target, probability)``, best
    first. ``op`` uses the schema's symbols; ``'?'`` means no operator printed; an empty tuple means
    no clue seen."""

    cell: Cell
    alternatives: tuple[tuple[str, int, float], ...]
    frames: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The whole-label reader's frame probabilities (strip columns × its classes), for scoring
    other texts (:mod:`vision.clue_candidates`); None when no label was read."""

    @property
    def best(self) -> tuple[str, int, float] | None:
        return self.alternatives[0] if self.alternatives else None


@dataclass(frozen=True)
class DigitReading:
    """A big digit written in a cell (printed given or pen; on grids of ten and more also an entry
    10..16): alternatives ``(digit, probability)``."""

    cell: Cell
    alternatives: tuple[tuple[int, float], ...]
