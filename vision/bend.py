"""How a curled page bends a grid's boundaries away from the straight lines of its lattice.

A rectified grid's lattice lines are straight; on a curled page the real boundaries bend smoothly
away from them, by up to a fifth of a cell at the far end of a line. Here each boundary's offset from
its straight line is measured in every band between the lines across it (the strongest response
within ``reach``, taken as a low percentile along the band's middle so that a digit touching the
line does not count), and a quadratic surface ``offset(at, along)`` is fitted to the clear
measurements, dropping outliers. The surface gives the offset everywhere, also where no boundary
shows (between two dark Kakuro cells), since a curl bends the whole page smoothly.

Used by the Kakuro cell reader (:mod:`vision.kakuro_cells`, on edge strength) and the KenKen grid
finder (:mod:`vision.grid`, on line darkness, to straighten the rectified image).

Example::

    dx = bend_field(edge_x, lines_x, lines_y, reach=0.3 * cell)   # vertical boundaries
    dx.at(x, y)                                                    # pixels right of the lattice
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ALONG_PERCENTILE = 30
"""A boundary runs along a band when this percentile of its response over the band's middle is high
(so a digit or a diagonal that touches a stretch of it does not count)."""
CLEAR = 0.5
"""Measurements weaker than this share of the typical one (a percentile of them all, see
:func:`bend_field`) are not fitted."""
MIN_LINES = 3
"""Clear measurements on fewer inner lines than this, and the lattice is taken as straight (the
outer border alone says nothing of how the inside bends)."""
OUTLIER = 0.08
"""A measurement farther than this share of a cell from the fitted surface is left out of it."""
MIN_POINTS = 8
"""Fewer clear measurements than this, and the lattice is taken as straight."""


@dataclass(frozen=True)
class Bend:
    """A fitted offset surface over ``(at, along)`` scaled by ``scale`` pixels (both measured from
    ``origin``): quadratic, or — ``pinned`` — ``a(1-a)(c0 + c1 a + c2 b + c3 b²)``, zero on the first
    and last line and bowing in between."""

    coef: np.ndarray
    scale: float
    origin: float = 0.0
    pinned: bool = False

    def at(self, at, along):
        """The offset (pixels) of the boundary near position ``at`` at ``along``; numbers or arrays."""
        value = _basis((np.asarray(at, float) - self.origin) / self.scale,
                       (np.asarray(along, float) - self.origin) / self.scale, self.pinned) @ self.coef
        return float(value) if np.ndim(value) == 0 else value

    def largest(self, lines: np.ndarray, across: np.ndarray) -> float:
        """The largest offset over the grid spanned by ``lines`` and ``across`` (pixels)."""
        a, b = np.meshgrid(np.linspace(lines[0], lines[-1], 9), np.linspace(across[0], across[-1], 9))
        return float(np.abs(self.at(a, b)).max())


def _seconded(places: list[tuple[int, int]], offsets: np.ndarray, within: float) -> np.ndarray:
    """Per measurement (``places``: its line and band), whether the measurement in a band next to it
    on the same line, clear or faint, lies ``within`` pixels of it. A line bends smoothly, so its
    neighbours agree; a bold label beside a faint line is one band long (hand-held k5252-0293: the
    only clear measurement of a web grid's first column was "144×" under its faint line, 10 px
    below it, and the surface bent that line's whole left end onto the label)."""
    at = {place: k for k, place in enumerate(places)}
    out = np.zeros(len(places), bool)
    for k, (i, j) in enumerate(places):
        out[k] = any((n := at.get((i, j + step))) is not None and abs(offsets[n] - offsets[k]) <= within
                     for step in (-1, 1))
    return out


def _basis(a: np.ndarray, b: np.ndarray, pinned: bool) -> np.ndarray:
    """The surface's terms at scaled positions ``a`` (across the lines) and ``b`` (along them),
    stacked on a last axis."""
    if pinned:
        bow = a * (1 - a)
        return np.stack([bow, bow * a, bow * b, bow * b * b], axis=-1)
    return np.stack([np.ones_like(a), a, b, a * a, a * b, b * b], axis=-1)


STRAIGHT = Bend(np.zeros(6), 1.0)
"""No bend at all."""


def band_profile(strength: np.ndarray, at: float, lo: float, hi: float, reach: float,
                 percentile: float = ALONG_PERCENTILE) -> tuple[int, np.ndarray]:
    """``(first position, responses)``: for every column of ``strength`` within ``reach`` of ``at``,
    the ``percentile`` of its values over rows ``lo``..``hi`` less a fifth at each end."""
    a, b = int(round(at - reach)), int(round(at + reach)) + 1
    a, b = max(0, a), min(strength.shape[1], b)
    r0, r1 = max(0, int(lo + 0.2 * (hi - lo))), min(strength.shape[0], int(hi - 0.2 * (hi - lo)) + 1)
    if b - a < 3 or r1 - r0 < 3:
        return a, np.zeros(0, np.float32)
    k = int(percentile / 100 * (r1 - r0 - 1))
    return a, np.partition(strength[r0:r1, a:b], k, axis=0)[k]


def bend_field(strength: np.ndarray, lines, across, reach: float, typical: float = 90,
               percentile: float = ALONG_PERCENTILE, even: bool = False, pin_borders: bool = False) -> Bend:
    """The bend of the boundaries at column positions ``lines`` (``strength``'s columns run across
    them, its rows along them; ``across`` are the positions of the boundaries that cut them into
    bands), measured within ``reach`` pixels. A measurement is clear when at least CLEAR of the
    ``typical`` percentile of them all (90 where many boundaries show nothing, as between dark
    Kakuro cells; 50 where every boundary is a line, thin or heavy), and it is fitted only when the
    measurement beside it on its line agrees (:func:`_seconded`). :data:`STRAIGHT` when too few
    are clear, on too few inner lines, or the fitted surface leaves ``reach`` somewhere on the grid.

    ``percentile``: see :func:`band_profile` (lower where boundaries are unbroken lines, so that a
    row of text, which has gaps, does not pass for one). ``even``: no measurement weighs more in the
    fit than a typical clear one (where a heavy stroke, a bold clue along a line, would otherwise
    outweigh the thin lines); else each weighs by its strength. ``pin_borders``: the first and last
    line stay where they are and are not measured (where the image's edge runs along the border's
    centre line, cutting it in half, so its response peaks inside it; the finder fitted it)."""
    lines, across = np.asarray(lines, float), np.asarray(across, float)
    cell = float(np.median(np.diff(lines)))
    points, offsets, weights, places = [], [], [], []
    for i, at in enumerate(lines[1:-1] if pin_borders else lines):
        for j, (lo, hi) in enumerate(zip(across[:-1], across[1:])):
            start, profile = band_profile(strength, at, lo, hi, reach, percentile)
            if len(profile) < 3:
                continue
            k = int(np.argmax(profile))
            points.append((at, 0.5 * (lo + hi)))
            offsets.append(start + k - at)
            weights.append(float(profile[k]))
            places.append((i, j))
    if len(points) < MIN_POINTS:
        return STRAIGHT
    points, offsets, weights = np.array(points), np.array(offsets, float), np.array(weights)
    keep = weights >= CLEAR * float(np.percentile(weights, typical))
    keep &= _seconded(places, offsets, OUTLIER * cell)
    if even:
        weights = np.minimum(weights, float(np.median(weights[keep])) if keep.any() else 0.0)
    inner = (points[:, 0] > lines[0]) & (points[:, 0] < lines[-1])
    origin, scale = float(lines[0]), max(1.0, float(lines[-1] - lines[0]))
    design = _basis((points[:, 0] - origin) / scale, (points[:, 1] - origin) / scale, pin_borders)
    coef = np.zeros(design.shape[1])
    for _ in range(3):
        if keep.sum() < MIN_POINTS or len(np.unique(points[keep & inner, 0])) < MIN_LINES:
            return STRAIGHT
        coef = np.linalg.lstsq(design[keep] * weights[keep, None], offsets[keep] * weights[keep], rcond=None)[0]
        keep &= np.abs(design @ coef - offsets) <= OUTLIER * cell
    fitted = Bend(coef, scale, origin, pin_borders)
    # A surface that leaves the reach it was measured in somewhere on the grid is extrapolated
    # nonsense (a lattice that is not the grid's): the straight lines stand.
    return fitted if fitted.largest(lines, across) <= reach else STRAIGHT
