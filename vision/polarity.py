"""Light print on a dark page (an app's or a site's dark mode): found and read with its tones inverted.

Every stage of the reader looks for dark ink on light paper. A dark-mode screenshot is the other
way round: light lines, walls and digits on a near-black page. There the grid finder finds no
grid, or a wrong one (the dark gaps between light cells taken for lines), and nothing else can
work. So the grid is looked for as usual first; when none is found, or the one found does not
have lines clearly darker than its cells (:func:`line_contrast` under CLEAR_LINES: a stray grid in
a dark page, the dark gaps of a keypad, has about none), it is looked for again in the negative of
the image, and that grid is taken when its lines are clearly darker there (and more so than the
first one's), its cells are not dark like a Kakuro's blocks (in the negative of a Kakuro or of a
shadowed page, a stray grid is; :func:`vision.kakuro_grid.block_share` under
:data:`vision.kakuro_grid.DARK_SHARE`'s first, each cell against those NEAR_CELLS around it: the
room's light reflected on a dark screen, a soft dark patch in the negative, darkens a few cells
against the grid's whitest but hardly against their neighbours), and the page around it is not
near black in the negative (:func:`light_around`). The reading then goes on in the negative (the grid's
``source`` is the negative), and the grid's notes say so (DARK_MODE_NOTE).

Why not decide from the image's tones alone: a photo of a page on a dark table is mostly dark too
(one in twenty of the generated photos has a median grey under 35), and a Kakuro's black blocks hold
light digits, so neither the share of dark pixels nor light strokes on dark tell the two apart;
the grid's own lines do.

Example::

    pixels, grid = find_grid_any_polarity(pixels)   # pixels: the negative when the page is dark

(:func:`vision.read_any.read_any` looks for a Kakuro in the photo first, and for a grid in the
negative only when it finds none it is sure of: a Kakuro photo's KenKen grid is seldom clear —
except in a mostly dark photo (:func:`dark_photo`), whose negative it looks at first
(:func:`look_in_negative`); it reads that negative, its tones :func:`stretched`, as a dark theme's
Kakuro when no KenKen is read surely there, first of all for a photo that looks like a dark theme's
screen (:func:`dark_theme`).)
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .errors import NoPuzzleFound
from .grey import to_grey
from .grid import find_grid
from .kakuro_grid import DARK_SHARE, block_share
from .model import GridFind
from .quantiles import image_quantile

CLEAR_LINES = 12.0
"""How many grey levels (0..255) darker than its cells' middles a grid's lines must be to be taken
as printed dark on light without looking at the negative (:func:`line_contrast`). Over the grids
found in 4,090 generated photos (thirty-eighth round) the median is 101, 64 are under 12 (most
of them stray grids in Kakuro photos) and 3 under 0; realdev's 16 screenshots, which is what the
negatives of their dark-mode looks show, measure 57 and more."""

NEAR_CELLS = 1
"""How many rows and columns away the cells lie that a cell of a grid found in the negative is
compared with to tell whether it is dark like a Kakuro's block (:func:`grid_in_negative`)."""

AROUND = 0.15
"""The band around a grid that :func:`light_around` looks at, in grid sides."""
AROUND_GREY = 80
"""Least median grey (0..255) of the band around a grid found in the negative: the page of a dark
mode is near black around its grid, light in the negative; a dark patch on a light page (a
Kakuro's blocks, a shadow) has near-black around it in the negative (median 21 on kk2727-0072; the
negatives of realdev's light-on-dark screenshots 123 and over)."""

DARK_MODE_NOTE = "the picture is light print on a dark page (a dark mode): it was read in negative"


def line_contrast(grid: GridFind) -> float:
    """How much darker ``grid``'s lines are than its cells: the median grey (0..255) of the middles
    of its cells (the central half of each) less that of its N+1 row and column lines (the pixel
    row or column at each line's centre). Positive for print on paper, negative for a dark mode."""
    grey = to_grey(grid.rectified)
    side_y, side_x = grey.shape
    xs = np.clip(np.round(grid.lines_x).astype(int), 0, side_x - 1)
    ys = np.clip(np.round(grid.lines_y).astype(int), 0, side_y - 1)
    lines = np.concatenate([grey[ys[0]:ys[-1] + 1, xs].ravel(), grey[ys, xs[0]:xs[-1] + 1].ravel()])
    middles = []
    for (y0, y1) in zip(grid.lines_y, grid.lines_y[1:]):
        for (x0, x1) in zip(grid.lines_x, grid.lines_x[1:]):
            middles.append(grey[int(y0 + 0.25 * (y1 - y0)):int(np.ceil(y1 - 0.25 * (y1 - y0))),
                                int(x0 + 0.25 * (x1 - x0)):int(np.ceil(x1 - 0.25 * (x1 - x0)))].ravel())
    cells = np.concatenate(middles)
    if lines.size == 0 or cells.size == 0:
        return 0.0
    return float(np.median(cells)) - float(np.median(lines))


def light_around(grid: GridFind, image: np.ndarray) -> bool:
    """Whether the page around ``grid`` in ``image`` (RGB or grey, as the grid was found in it) is
    not near black: the median grey of the band AROUND grid sides wide outside its outline (the
    part inside the image, from 0.03 of a side off the border line) is at least AROUND_GREY, or
    there is hardly such a band (a screenshot filled by its grid)."""
    grey = to_grey(image)
    x0, x1, y0, y1 = grid.lines_x[0], grid.lines_x[-1], grid.lines_y[0], grid.lines_y[-1]
    side = max(x1 - x0, y1 - y0)
    margin = AROUND * side
    width, height = int(np.ceil(x1 - x0 + 2 * margin)), int(np.ceil(y1 - y0 + 2 * margin))
    shift = np.array([[1, 0, margin - x0], [0, 1, margin - y0], [0, 0, 1]], np.float64)
    warp = dict(dsize=(width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    around = cv2.warpPerspective(grey.astype(np.float32), shift @ grid.homography, **warp)
    gap = 0.03 * side
    ys, xs = np.mgrid[0:height, 0:width]
    outside = (xs < margin - gap) | (xs > width - margin + gap) | (ys < margin - gap) | (ys > height - margin + gap)
    band = around[outside & (around >= 0)]
    return band.size < 0.05 * outside.sum() or float(np.median(band)) >= AROUND_GREY


DARK_PHOTO = 70
"""Greatest median grey (0..255) of a photo that :func:`dark_photo` calls mostly dark. Photos of dark
screens (seed 4242's 200 made with ``kensnap corpus --dark``) measure 11–57; of light pages, a
seventh are under it (a dark table or app background around a small grid)."""


def dark_photo(pixels: np.ndarray) -> bool:
    """Whether ``pixels`` (RGB or grey) are mostly dark, like a photo of a dark-mode screen
    (median grey under DARK_PHOTO, on every fourth pixel of every fourth row; read off the grey
    levels' histogram, the same number as ``np.median``, see :func:`vision.quantiles.image_quantile`)."""
    return image_quantile(to_grey(pixels[::4, ::4]), 0.5) < DARK_PHOTO


DARK_THEME = 90
"""Greatest 90th percentile of grey (0..255) of a photo that :func:`dark_theme` calls a dark theme's
screen. Seed 6060's 120 dark Kakuro screens measure 52–166 (89 of them under it); the light Kakuro
photos of seed 2727 that :func:`dark_photo` calls mostly dark (43, an app's dark blocks and
background) 99–247: their white cells are light."""


def dark_theme(pixels: np.ndarray) -> bool:
    """Whether ``pixels`` (RGB or grey) look like a dark theme's screen: even their 90th percentile
    of grey (every fourth pixel of every fourth row) is under DARK_THEME, its light print and lines
    being thin (a light page's Kakuro with dark blocks shows its white cells)."""
    return image_quantile(to_grey(pixels[::4, ::4]), 0.9) < DARK_THEME


def clear_lines(grid: GridFind | None) -> bool:
    """Whether ``grid`` was found with lines clearly darker than its cells (CLEAR_LINES)."""
    return grid is not None and line_contrast(grid) >= CLEAR_LINES


@dataclass(frozen=True)
class NegativeLook:
    """What the KenKen grid finder found in a photo's negative (:func:`look_in_negative`)."""

    negative: np.ndarray
    """The photo's negative (255 less each value)."""
    grid: GridFind | None
    """The grid :func:`vision.grid.find_grid` found in it, None for none."""
    kenken: bool
    """Whether that grid passes as a dark-mode KenKen's (the checks of the module docstring); its
    notes then end with DARK_MODE_NOTE."""


STRETCH_PERCENTILES = (1.0, 99.0)
"""The percentiles of a photo's grey (every fourth pixel of every fourth row) that :func:`stretched`
takes to black and white."""


def stretched(pixels: np.ndarray) -> np.ndarray:
    """``pixels`` (uint8) with their tones spread over 0..255: the STRETCH_PERCENTILES of their grey
    become 0 and 255, every channel the same way, the rest clipped. A dark screen's photo spans
    little of the range (a dark theme's page at 10–50, its print at 190–240, its Kakuro blocks 20–40
    over the page), and the Kakuro finder judges a cell dark by fixed steps of grey."""
    lo, hi = np.percentile(to_grey(pixels[::4, ::4]), STRETCH_PERCENTILES)
    gain = 255.0 / max(1.0, float(hi - lo))
    return np.clip((pixels.astype(np.float32) - float(lo)) * gain + 0.5, 0, 255).astype(np.uint8)


def look_in_negative(pixels: np.ndarray, grid: GridFind | None) -> NegativeLook | None:
    """When ``grid`` (what :func:`vision.grid.find_grid` found in ``pixels``, None for nothing) has
    no lines clearly darker than its cells: the negative of ``pixels`` and what was found there;
    else None (the photo is print on paper, its negative is not looked at)."""
    contrast = line_contrast(grid) if grid is not None else 0.0
    if contrast >= CLEAR_LINES:
        return None
    negative = 255 - pixels
    try:
        other = find_grid(negative)
    except NoPuzzleFound:
        return NegativeLook(negative, None, False)
    if (line_contrast(other) >= max(CLEAR_LINES, contrast) and block_share(other, NEAR_CELLS) < DARK_SHARE[0]
            and light_around(other, negative)):
        return NegativeLook(negative, replace(other, notes=other.notes + (DARK_MODE_NOTE,)), True)
    return NegativeLook(negative, other, False)


def grid_in_negative(pixels: np.ndarray, grid: GridFind | None) -> tuple[np.ndarray, GridFind] | None:
    """The negative of ``pixels`` and the grid found there when it passes as a dark-mode KenKen's
    (:func:`look_in_negative`), its notes ending with DARK_MODE_NOTE; else None."""
    look = look_in_negative(pixels, grid)
    return (look.negative, look.grid) if look is not None and look.kenken else None


def find_grid_any_polarity(pixels: np.ndarray) -> tuple[np.ndarray, GridFind]:
    """The grid in ``pixels`` (RGB uint8) as :func:`vision.grid.find_grid` finds it, or in their
    negative when the page is light on dark (:func:`grid_in_negative`), with the pixels it was
    found in: ``pixels`` themselves, or their negative. Raises the first search's NoPuzzleFound
    when neither finds a grid."""
    try:
        grid, missing = find_grid(pixels), None
    except NoPuzzleFound as err:
        grid, missing = None, err
    dark = grid_in_negative(pixels, grid)
    if dark is not None:
        return dark
    if grid is None:
        raise missing
    return pixels, grid
