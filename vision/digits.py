"""Reading the big digits written in cells (printed givens, typed entries and pen handwriting).

Algorithm, per cell:

1. *Ink* (:func:`vision.clues.ink_components`): the cell's darkness patch with walls and grid lines
   removed, cut into connected components.
2. *The digit* (:func:`digit_glyph`): the tallest component at least BIG of a cell (and 1.4 clue
   heights) high whose centre
   lies in the cell's middle is the digit; components overlapping it in x join it (broken pen
   strokes). Clue labels and pencil candidates are smaller than BIG, so they are ignored. A glyph
   that fades when the paper is estimated by a closing is a shadow's edge and no digit (SHADOW_STEP);
   the pixels of a digit's glyph that fade so are a shadow's edge crossing it, and are taken off
   (SHADOW_KEEP).
3. *Classify*: the glyph's ink, centred in a square window of its height and resized to 16×16,
   plus its aspect, stroke density and darkness, goes to a small perceptron (:class:`vision.mlp.Mlp`)
   fit on cells our renderer draws: typed and handwritten digits of every style and pen, with
   pencil marks in other cells, degraded like a phone photo (:func:`vision.glyphs.degrade`) and
   photographed by the phone-photo simulator (:func:`ui.photo.simulate`). Its tenth class, NONE,
   is what such a glyph is in a cell where nothing is written: the edge of a hard shadow across
   an empty cell, a smudge, a stray stroke. A cell whose glyph reads NONE has no digit.

The model is cached on disk under :data:`MODEL_VERSION` like the clue glyph model.

Example::

    readings = read_digits(grid)           # only cells with a big digit appear
    readings[(2, 3)].alternatives          # ((7, 0.93), (1, 0.04), ...)
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .clues import (CELL, INK_THRESHOLD, INK_WEAK, MARGIN, cell_ink, cell_patch, closed_ink, closed_patch,
                    ink_components, kept_on_closing, label_glyphs, rectify)
from .quantiles import percentile, quantile
from .model import Cell, DigitReading, GridFind
from .glyphs import cache_dir, degrade, grown_within, jittered, load_or_fit, training_puzzle
from .mlp import Mlp, fit_mlp, gather_rows

MODEL_VERSION = "big-digits-v10"
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
PAIRS = tuple(str(v) for v in range(10, 17))
NONE = "none"
CLASSES = DIGITS + PAIRS + (NONE,)
"""The model's classes: the nine digits, the two-glyph entries 10..16 of grids of PAIRS_FROM and
more, each read whole (see PAIRS_FROM), and NONE (a glyph in a cell where nothing is written)."""
PAIRS_FROM = 10
"""On grids this size and larger a cell may hold a two-glyph entry (10..16): a big glyph with another
beside it (:func:`_glyph_cut`'s partner) is cut as one and read whole as one of PAIRS. Whole,
because pen pairs touch and lean, so that no cut between their glyphs is sure (a blank column parts
1 of 19 pen pairs of a 12×12; the straight line crossing the least ink ran through the "0" of 2 of
12). Before, the tallest glyph alone was read ("12" as 2, "10" as 1), and a pen pair as one
digit, so no half-filled grid of ten or more could be checked. On smaller grids a glyph read as
one of PAIRS is no entry."""
PAIR_ASPECT = 0.6
"""A two-glyph entry's glyph cut narrower than this share of its height is one of its glyphs alone
(widths of drawn training glyphs: single digits 0.47–0.85 of their height, 5th to 95th percentile,
pairs 0.84–1.64); the model does not learn such a cut as the pair (the first fit did, and read a
lone printed "1" as "10")."""
PAIR_HEIGHT, PAIR_OVERLAP, PAIR_GAP = 0.6, 0.6, 0.5
"""A partner glyph is at least PAIR_HEIGHT of the big glyph's height, lies at least PAIR_OVERLAP of
its own height level with it, and at most PAIR_GAP of the big glyph's height away beside it. A pen's
"0" can be a small ring beside a tall "1" (hard k7676-0042: 18 of 32 px, so its "10" reads "1");
at 0.5 a fit read 555 instead of 551 of the 558 two-glyph entries of a first set of big grids
(seed 7676, true corners), but that fit missed a faint thin pen "1" on hand-held k5252-0086 that
this one reads (fits differ by a digit or two at random), so 0.6 was kept."""
LARGEST_ENTRY = 16
BIG_PUZZLES, BIG_PHOTO_PUZZLES, BIG_SIZES = 200, 400, (PAIRS_FROM, LARGEST_ENTRY + 1)
"""Training puzzles beside the TRAINING_PUZZLES and PHOTO_PUZZLES: grids of BIG_SIZES (10 to 16 a
side) with entries up to 16 (drawn ones) or their size (photographed ones), so that the model sees
two-glyph entries (the only place it learns PAIRS); the others are drawn as before."""
PHOTO_PUZZLES = 1600
"""Generated puzzles, half-filled, photographed by the simulator at PHOTO_LEVELS, that the model
also learns from (their empty cells' glyphs are NONE); about two minutes on two processes."""
PHOTO_LEVELS = ("clean", "handheld", "hard", "hard")
WINDOW = 16
BIG = 0.22
"""Least height of a big digit, as a share of the cell; it must also be 1.4 times the clue label's height
(clues and pencil marks are smaller), or BELOW_LABEL times it when it lies wholly below the label."""
BELOW_LABEL, BELOW_BIG = 0.9, 0.26
"""A digit wholly below the clue label need only be BELOW_LABEL label heights and BELOW_BIG of the
cell tall: sites print clues a third of a cell tall and the digit under them no taller (held-out
k700-0086: three typed digits as tall as their labels were not read), and a small pen digit can
be 0.28 of the cell under a label of 0.2 (k2323-0144). Apps' pencil marks are nearly as tall as
their labels too, but 0.23 of the cell at most (realdev's app screenshots)."""
FAINT = 0.55
"""When the cell's ink shows no big digit, or the digit cut from it reads as no digit, the digit
area (below the label) is thresholded again at this share of its own darkest ink: a pen digit much
fainter than the clue label falls apart into pieces at the label's threshold (held-out k700-0284),
and so does a light grey printed one on a hand-held photo, whose pieces read as no digit
(k6161-0032's "6"). The second look for a glyph read as no digit, measured 2026-11-27 end to end
on the five 300-photo sets: written digits read where they had been missed, 8 hand-held and hard;
one missed "5" read "4" instead (at 0.50, so named as unsure); half-filled hard photos with every
entry right 88 -> 90 of 119; no phantom digit on any photo with nothing written, there or on the
two 12-megapixel sets; boards and times the same."""


SHADOW_STEP = 0.4
"""A glyph that keeps less than this share of its darkness when the paper under it is estimated by
a grey closing instead of a dilation (:func:`vision.clues.closed_patch`) is the edge of a shadow,
not a digit: the dilation carries the lit paper into the shadow beside it, so the step reads as a
stroke; the closing follows the step (pen strokes are narrower than its window and keep their
darkness). Measured 2026-11-27 from the true corners: on the hand-held and hard photos of the five
300-photo sets, 23 of 27 glyphs read as digits in cells where nothing is written fall under 0.4
(0.06-0.15), and no digit read right does (the few written digits under it were already read as
NONE or as another digit, cut together with a shadow); on the two 12-megapixel sets, 9 of 27 such
glyphs (the others are no shadow: keypads and pencil marks) and no digit read right (the lowest,
a "7" crossed by a shadow's edge, keeps 0.45). End to end (``kensnap eval``): photos with nothing
written read without a phantom digit, hard 363 -> 373 of 376 and hand-held 370 -> 372 of 372 (five
sets), hard 47 -> 51 of 51 (12-MP sets); half-filled hard photos with every entry right 85 -> 86 of
119. The model still learns its NONE class from these glyphs too (``shadow_steps`` in training), so a
fresh machine fits the same model as before; with such a fit (fitted anew 2026-11-27) and the true
corners over the seven sets, phantom digits on hard photos 47 -> 19, hard photos with nothing
written and no phantom 400 -> 422 of 427, digits read right the same (1,970). Fitted without them,
the fit made more phantoms again (14 against 3 with the cached fit on the five sets' hard photos).
Tried beside it and not kept: thresholding the digit area once more at 0.6 of its darkest
ink when no big digit was cut (a shadow's band joined to a printed "3" made a blob as wide as the
cell, 12-MP k1313-0071): 2 digits more right over the seven sets, 3 missed ones read wrong instead.
A cut that is a shadow's edge no longer ends the search (:func:`cell_digit_glyph`): in a cell where
the edge runs beside a written digit, the edge was the tallest ink and the digit, whole in the
fainter ink or in the ink without the edge, was given up. Measured 2026-12-01 on the upright grids
found in the six 300-photo sets and 12-MP seed 1313: half-filled hard photos with every entry
right 134 -> 140 of 154 (digits missed 17 -> 9, read wrong 9 -> 10), hand-held 160 of 165 and clean
156 of 156 as before, and still no phantom digit on any of the 1,474 photos with nothing written.
On the held-out seeds 4646 and 700 (300 photos each, not looked at while choosing): hard 41 -> 44 of
48, hand-held 44 of 46 as before, and one phantom "1" (read at 0.69, so named unsure:
:data:`vision.read.SURE_ENTRY`) on one of 150 hard photos with nothing written, where a pen's
V-shaped shadow crossed an empty cell."""


def digit_glyph(dark: np.ndarray, pair: bool = False) -> np.ndarray | None:
    """The big digit's ink (float32 darkness, its bounding box) in a cell patch, or None when the
    cell holds no big digit; with ``pair``, a two-glyph entry's ink (see PAIRS_FROM)."""
    cut = _glyph_cut(dark, ink_components(dark), label_glyphs(None, None, dark), pair)
    return _without_faint_attachments(cut[0]) if cut is not None else None


def cell_digit_glyph(grid: GridFind, cell: Cell, shadow_steps: bool = False, faint: bool = False) -> np.ndarray | None:
    """:func:`digit_glyph` of the grid's cell, from the ink and label the clue reader worked out;
    when that ink shows no big digit, or with ``faint``, from the digit area's own fainter ink (see
    FAINT); when that shows none either, from the cell's ink less a shadow's edges (SHADOW_KEEP).
    A cut that is a shadow's edge (SHADOW_STEP) counts as none, so the next ink is looked at; None
    when every cut is none. With ``shadow_steps`` (training: the model's NONE class learns from
    shadows' edges too) the first cut is taken, edge or not. The glyph comes without the pixels a
    shadow's edge crossing the digit put there (SHADOW_KEEP). On a grid of PAIRS_FROM or more the
    ink of a two-glyph entry is cut whole (see PAIRS_FROM)."""
    pair = grid.size >= PAIRS_FROM
    labels, stats, lines = cell_ink(grid, cell)
    dark, label = cell_patch(grid, cell), label_glyphs(grid, cell)
    closed = closed_patch(grid, cell)
    inks = ([] if faint else [lambda: (labels, stats)]) + [
        lambda: _faint_ink(dark, lines, label), lambda: _shadowless_ink(dark, closed, labels > 0)]
    for ink in inks:
        cut = _glyph_cut(dark, ink(), label, pair)
        if cut is not None and (shadow_steps or kept_on_closing(closed, *cut) >= SHADOW_STEP):
            return _without_faint_attachments(_without_shadow_edge(cut[0], closed, cut[1]))
    return None


CLOSED_SURE = 0.6
"""Every cell's digit is also read on the closing's patch (:func:`closed_digit_glyph`), and that
reading replaces the cell's when it is a digit this sure and surer than what was read there (or
nothing was). Why: a shadow's narrow band or edge across a cell is a straight dark run as long as
a grid line, and the line mask took it away with the strokes of the written digit it crossed
(hard k7474-0096's "5" and "2" lost their lower halves and read "4" and "4"; hard k6161-0089's "3"
and "2" lost a column of strokes); on the closing's paper, which follows the shadow, the band is
no ink and the digits are whole. Measured 2026-12-01 on the upright grids found in the six
300-photo sets and 12-MP seed 1313: half-filled hard photos with every entry right 140 -> 147 of
154 (digits read wrong 10 -> 1, missed 9 -> 4), hand-held 160 of 165 as before (two of its digits
more right), no phantom digit on the 1,474 photos with nothing written; on the held-out seeds
4646 and 700 (300 photos each, not looked at while choosing): hand-held 44 -> 45 of 46, hard 44 of
48 as before (a "3" won; a "9" that read 0.49 against "5" at 0.48 read "5" at 0.86). Least
0.8 and 0.9 won one hard photo less; taking the closing's reading whenever it was surer (no least)
lost a hard "8" to a "4" read at 0.51; taking the closing's cut first in every cell whose line
mask reached inside lost four hand-held photos' faint pen digits, which the closing reads as
nothing; asking only in cells with a piece of line in their middle (0.25-0.8 of the cell from
its top and left lines) read three digits fewer right on the six sets and traded one for another
on the held-out ones."""


def closed_digit_glyph(grid: GridFind, cell: Cell) -> np.ndarray | None:
    """:func:`digit_glyph` of the grid's cell cut from the closing's patch and its ink
    (:func:`vision.clues.closed_ink`), where a shadow's edges and narrow bands are no ink; None
    when no big digit is there."""
    closed = closed_patch(grid, cell)
    labels, stats, _ = closed_ink(grid, cell)
    cut = _glyph_cut(closed, (labels, stats), label_glyphs(grid, cell), grid.size >= PAIRS_FROM)
    return _without_faint_attachments(cut[0]) if cut is not None else None


def _shadow_kept(ink: np.ndarray, closed: np.ndarray) -> np.ndarray:
    """Where ``ink`` (darkness, zero off the ink) keeps at least SHADOW_KEEP of its darkness on the
    ``closed`` patch cut to the same place, grown by a pixel within the ink (a stroke's soft edge)."""
    on = ink > 0
    return grown_within(on & (closed >= SHADOW_KEEP * ink), on)


def _shadowless_ink(dark: np.ndarray, closed: np.ndarray, ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Connected components (labels, stats) of the cell's ink (``ink``, a mask) without the pixels a
    shadow's edge put there (see SHADOW_KEEP): a digit crossed by one is joined to a band as wide
    as the cell, which is no big digit."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(
        _shadow_kept(np.where(ink, dark, 0), closed).astype(np.uint8), connectivity=8)
    return labels, stats


def _without_shadow_edge(glyph: np.ndarray, closed: np.ndarray, corner: tuple[int, int]) -> np.ndarray:
    """``glyph`` (cut at ``corner`` of the cell patch) without the pixels a shadow's edge put there
    (see SHADOW_KEEP) nor the specks that leaves (pieces under SPECK of the largest), cut to what is
    left; unchanged when nothing would be left."""
    y, x = corner
    kept = _shadow_kept(glyph, closed[y:y + glyph.shape[0], x:x + glyph.shape[1]])
    count, labels, stats, _ = cv2.connectedComponentsWithStats(kept.astype(np.uint8), connectivity=8)
    if count <= 1:
        return glyph
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.isin(labels, 1 + np.flatnonzero(areas >= SPECK * areas.max()))
    rows, cols = np.flatnonzero(keep.any(1)), np.flatnonzero(keep.any(0))
    return np.where(keep, glyph, 0)[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].astype(np.float32)


def _faint_ink(dark: np.ndarray, lines: np.ndarray, label) -> tuple[np.ndarray, np.ndarray]:
    """Connected components (labels, stats) of the ink below the clue label, thresholded at FAINT
    of that area's own darkest ink (never lower than the clue reader's weakest ink), walls and
    grid lines left out."""
    top = int(np.ceil(label.top + label.height)) if label is not None else MARGIN + int(0.3 * CELL)
    area = np.zeros(dark.shape, bool)
    area[max(top, MARGIN + 2):MARGIN + CELL - 2, MARGIN + 2:MARGIN + CELL - 2] = True
    area &= ~lines
    values = dark[area]
    if values.size == 0:
        return np.zeros(dark.shape, np.int32), np.zeros((1, 5), np.int32)
    threshold = max(INK_WEAK, min(INK_THRESHOLD, FAINT * float(quantile(values, 0.995))))
    _, labels, stats, _ = cv2.connectedComponentsWithStats((area & (dark > threshold)).astype(np.uint8), connectivity=8)
    return labels, stats


def _glyph_cut(dark: np.ndarray, ink: tuple[np.ndarray, np.ndarray], label,
               pair: bool = False) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The big digit among the ink components (``ink``: labels, stats) of a cell's darkness patch:
    its darkness (float32, zero off its components, cut to their box) and the box's top-left
    (row, column) in the patch; None when no component is a big digit (see BIG). With ``pair`` (a
    grid of PAIRS_FROM or more) a partner glyph beside it (see PAIR_HEIGHT) is cut with it."""
    labels, stats = ink
    least = max(BIG * CELL, 1.4 * label.height if label is not None else 0.0)
    below = max(BELOW_BIG * CELL, BELOW_LABEL * label.height) if label is not None else least
    best = None
    for i in range(1, len(stats)):
        x, y, w, h, area = stats[i]
        cx, cy = x + w / 2 - MARGIN, y + h / 2 - MARGIN
        tall = h >= (below if label is not None and y >= label.top + label.height else least)
        if (area and tall and h <= 0.95 * CELL and w < 0.9 * CELL
                and 0.2 * CELL <= cx <= 0.8 * CELL and 0.3 * CELL <= cy <= 0.88 * CELL):
            if best is None or h > stats[best, 3]:
                best = i
    if best is None:
        return None
    ids = _pieces(stats, best)
    partner = _partner(stats, best, ids) if pair else None
    if partner is not None:
        ids = sorted(set(ids) | set(_pieces(stats, partner)))
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
    return np.where(mask, dark[y0:y1, x0:x1], 0).astype(np.float32), (y0, x0)


def _pieces(stats: np.ndarray, main: int) -> list[int]:
    """The component ``main`` and the pieces of the same glyph: components mostly under or over it
    (overlapping it in x over half their width) within its height (broken pen strokes)."""
    x, y, w, h, _ = stats[main]
    return [j for j in range(1, len(stats)) if stats[j, 4] and j == main or (
        stats[j, 4] and min(x + w, stats[j, 0] + stats[j, 2]) - max(x, stats[j, 0]) > 0.5 * stats[j, 2]
        and stats[j, 1] >= y - 0.2 * h and stats[j, 1] + stats[j, 3] <= y + 1.2 * h)]


def _partner(stats: np.ndarray, best: int, taken: list[int]) -> int | None:
    """The tallest component beside the big glyph ``best`` that makes a two-glyph entry with it
    (see PAIR_HEIGHT), not among ``taken``; None when there is none."""
    x, y, w, h, _ = stats[best]
    found = None
    for j in range(1, len(stats)):
        jx, jy, jw, jh, area = stats[j]
        if not area or j in taken or jh < PAIR_HEIGHT * h:
            continue
        level = min(y + h, jy + jh) - max(y, jy)
        gap = max(jx - (x + w), x - (jx + jw))
        if level >= PAIR_OVERLAP * jh and -0.2 * jw <= gap <= PAIR_GAP * h and (found is None or jh > stats[found, 3]):
            found = j
    return found


SHADOW_KEEP = 0.5
"""A pixel of a glyph that keeps less than this share of its darkness on the closed patch
(:func:`vision.clues.closed_patch`) is a shadow's edge, not the digit (see SHADOW_STEP): on hard
photos a soft shadow's edge crossing a written digit was cut out with it as one glyph ("6" read
"3", "2" read "8"), or made it as wide as the cell, so that no digit was found at all. Such pixels
are taken off the glyph, and when no big digit is found, the cell's ink without them is looked at
once more. Measured 2026-11-28 on the grids found in the hand-held and hard photos of
nine generated sets: with the digit model then in use (v7), half-filled hard photos with every entry
right 166 -> 194 of 227 (digits read wrong 56 -> 17, missed 43 -> 29), hand-held 207 -> 207 of
216, and no more phantom digits (0.3: 178 hard photos right, 0.6: 184, 0.7: 182); with the model
fitted on glyphs cut this way (v9), 193 and 208, and no phantom digit on any of the 1,332 photos
with nothing written (4 before)."""
SPECK = 0.1
"""Pieces of a glyph left under this share of its largest piece, once a shadow's edge is taken off,
are specks of it, not the digit."""


SHADOW_TRIM = 0.5
"""A glyph's ink fainter than this share of its strokes' darkness (95th percentile) that lies more
than a pixel away from its stronger ink is not the digit: the soft edge of a shadow running into
the digit, joined to it at the ink threshold. On a phone-sized photo (k1212-0043, a 12-megapixel
hard photo) a shadow's edge 16 px soft crossed a printed "7" and "5", and the glyph cut out with it
read "3" and "3". Measured 2026-11-27 on the five 300-photo corpora from their true corners:
half-filled hard boards with every entry right 71 -> 78 of 119, empty hard boards with no phantom
digit 357 -> 361 of 376, hand-held unchanged (112 of 123, 372 of 372); 0.6 gained one more hard
board and lost two hand-held."""
SHADOW_BOX = 0.8
"""The faint ink is taken away only when the glyph's box without it is under this share of the box
with it: then something was joined to the digit; otherwise the glyph stays as it was cut (trimming
every glyph cost two hand-held boards)."""


def _without_faint_attachments(ink: np.ndarray) -> np.ndarray:
    """``ink`` (a glyph's darkness, zero off the glyph) with the faint ink that is no part of its
    strokes removed (see SHADOW_TRIM) and cut to what is left; a stroke's own soft edge, within a
    pixel of it, stays."""
    strokes = ink[ink > 0]
    if strokes.size == 0:
        return ink
    strong = ink >= SHADOW_TRIM * float(percentile(strokes, 95))
    keep = grown_within(strong, ink > 0)
    rows, cols = np.flatnonzero(keep.any(1)), np.flatnonzero(keep.any(0))
    if len(rows) * len(cols) > SHADOW_BOX * ink.size:
        return ink  # nothing joined to the digit: its own faint edges stay as the model learnt them
    trimmed = np.where(keep, ink, 0)[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return trimmed.astype(np.float32)


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


def stroke_darkness(ink: np.ndarray) -> tuple[float, float]:
    """``(peak, mean)`` darkness of a glyph's strokes (``ink``, zero off the glyph): their 95th
    percentile and mean; zeros for an empty glyph."""
    strokes = ink[ink > 0]
    return (float(percentile(strokes, 95)), float(strokes.mean())) if strokes.size else (0.0, 0.0)


def digit_features(ink: np.ndarray, darkness: float = 1.0) -> np.ndarray:
    """Feature vector (float32, WINDOW² + 5) of a big digit's ink: centred in a square of its height,
    resized, normalised; plus aspect, height share of the cell, ink density, and the ink's peak and
    mean darkness (a shadow's edge is far lighter than written ink), those two times ``darkness``
    (a photo's faint pen measured against a normal one's, see PEN_PEAK)."""
    h, w = ink.shape
    side = max(h, w)
    canvas = np.zeros((side, side), np.float32)
    canvas[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = ink
    small = cv2.resize(canvas, (WINDOW, WINDOW), interpolation=cv2.INTER_AREA)
    small = small / max(1e-3, float(small.max()))
    peak, mean = stroke_darkness(ink)
    shape = [w / h, h / CELL, float(ink.sum()) / (h * h), darkness * peak, darkness * mean]
    return np.concatenate([small.ravel(), 3.0 * np.array(shape, np.float32)]).astype(np.float32)


def read_digits(grid: GridFind, model: Mlp | None = None, cells=None) -> dict[Cell, DigitReading]:
    """The big digit in each cell that has one (cells without a big digit, or whose glyph reads
    NONE also when cut again from the cell's fainter ink, see FAINT, and against the photo's own
    pen, see PEN_PEAK, are absent; every cell is also read on the closing's patch, and that reading
    taken when it is surer, see CLOSED_SURE), with
    alternatives ``(digit, probability)`` best first (the top three entries, 1..16 on grids of
    PAIRS_FROM and more, see :func:`entry_probabilities`; the probability of no digit is left out,
    so they sum to less than 1 when the glyph might be no digit)."""
    model = model or big_digit_model()
    cells = [(r, c) for r in range(grid.size) for c in range(grid.size)] if cells is None else list(cells)
    pairs = grid.size >= PAIRS_FROM
    glyphs = {cell: cell_digit_glyph(grid, cell) for cell in cells}
    probs = entry_probabilities(model, glyphs, pairs)
    again = {cell: cell_digit_glyph(grid, cell, faint=True) for cell, p in probs.items() if np.argmax(p) == 0}
    probs.update(entry_probabilities(model, again, pairs))
    glyphs.update(again)
    probs.update(_faint_pen_probabilities(model, glyphs, probs, pairs))
    closed = {cell: closed_digit_glyph(grid, cell) for cell in cells}
    for cell, p in entry_probabilities(model, closed, pairs).items():
        best = int(np.argmax(p))
        if best != 0 and p[best] >= CLOSED_SURE and (
                cell not in probs or int(np.argmax(probs[cell])) == 0 or p[best] > probs[cell].max()):
            probs[cell] = p
    out = {}
    for cell, p in probs.items():
        if int(np.argmax(p)) == 0:
            continue
        order = sorted(range(1, len(p)), key=lambda v: -p[v])[:3]
        out[cell] = DigitReading(cell, tuple((v, round(float(p[v]), 4)) for v in order))
    return out


def entry_probabilities(model: Mlp, glyphs: dict[Cell, np.ndarray | None], pairs: bool = False,
                        darkness: float = 1.0) -> dict[Cell, np.ndarray]:
    """For each cell whose glyph is not None, the probability of each entry: index 0 no digit, index
    v the entry v (1..LARGEST_ENTRY), as the model reads the glyph; with ``pairs`` (a grid of
    PAIRS_FROM or more) its PAIRS are the entries 10..16, otherwise no entry can be one of them, so
    the others' probabilities are taken given that (a fit read a printed "2" of a 6×6 as "12" 0.52,
    "2" 0.47: it is a "2"). ``darkness`` scales the glyphs' darkness features (see :func:`digit_features`)."""
    cells = [cell for cell, ink in glyphs.items() if ink is not None]
    if not cells:
        return {}
    probs = model.probabilities(np.stack([digit_features(glyphs[cell], darkness) for cell in cells]))
    names = (NONE,) + DIGITS + (PAIRS if pairs else ())
    columns = [model.classes.index(name) for name in names]
    out = {}
    for cell, whole in zip(cells, probs):
        p = np.zeros(LARGEST_ENTRY + 1)
        p[:len(names)] = whole[columns]
        out[cell] = p / max(float(p.sum()), 1e-12)
    return out


PEN_PEAK, PEN_SURE, PEN_SEEN = 0.6, 0.9, 2
"""A photo's own pen sets what faint means. The model tells a written digit from a shadow's band or
a line's end partly by its darkness (:func:`digit_features`), and a thin pen on a hand-held photo
writes every digit as faint as those (peak darkness 0.25–0.35 against 0.6 and more for most pens),
so some of its digits read as no digit. When at least PEN_SEEN digits of the photo read at least
PEN_SURE sure and their median peak darkness is under PEN_PEAK, the glyphs that read as no digit
are read again with their darkness features scaled by PEN_PEAK over that median, and a digit read
PEN_SURE sure is taken. A photo with nothing written has no sure digit to scale by, so it cannot
gain a phantom this way. Measured 2026-12-01 on the upright grids found in the six 300-photo sets
and 12-MP seed 1313: digits missed on half-filled photos, hand-held 6 -> 3, hard 4 -> 3 (hard
photos with every entry right 147 -> 148 of 154), no phantom; the held-out seeds 4646 and 700 read
as before. The same with PEN_PEAK 0.7 or PEN_SURE 0.75; PEN_PEAK 0.8 won two hand-held photos more
but read a phantom "1" on a hard one. Of the 136 glyphs that read as no digit over those 2,100
photos, 11 are written digits; scaled by a fixed 0.5 peak instead of the photo's pen, 6 of them
read right, and 20 of the 125 that are no digit read as digits."""


def _faint_pen_probabilities(model: Mlp, glyphs: dict[Cell, np.ndarray | None], probs: dict[Cell, np.ndarray],
                             pairs: bool) -> dict[Cell, np.ndarray]:
    """Entry probabilities (:func:`entry_probabilities`) of the cells whose glyph (``glyphs``) read
    as no digit (``probs``), read again against the photo's own pen (see PEN_PEAK), for those now
    read as a digit PEN_SURE sure; empty when the photo's pen is not faint or too few of its digits
    are sure."""
    peaks = [stroke_darkness(glyphs[cell])[0] for cell, p in probs.items()
             if int(np.argmax(p)) != 0 and p.max() >= PEN_SURE]
    pen = float(np.median(peaks)) if len(peaks) >= PEN_SEEN else PEN_PEAK
    faint = {cell: glyphs[cell] for cell, p in probs.items() if int(np.argmax(p)) == 0}
    if pen >= PEN_PEAK or not faint:
        return {}
    return {cell: p for cell, p in entry_probabilities(model, faint, pairs, darkness=PEN_PEAK / pen).items()
            if int(np.argmax(p)) != 0 and p.max() >= PEN_SURE}


def model_files() -> tuple[Path]:
    """The big-digit model's cache file."""
    return (cache_dir() / f"{MODEL_VERSION}.npz",)


@lru_cache(maxsize=1)
def big_digit_model() -> Mlp:
    """The big-digit model, from the disk cache or fitted now (about five minutes)."""
    path, = model_files()

    def fit() -> Mlp:
        flat = gather_rows(training_digits, range(TRAINING_PUZZLES + BIG_PUZZLES))
        photos = gather_rows(training_photo_digits, range(PHOTO_PUZZLES + BIG_PHOTO_PUZZLES))
        features = np.concatenate([flat[0], photos[0]])
        labels = np.concatenate([flat[1], photos[1]])
        model = fit_mlp(features, labels, CLASSES, hidden=HIDDEN, epochs=40, seed=1)
        model.save(path)
        return model

    return load_or_fit(MODEL_VERSION, lambda: Mlp.load(path), fit)


def training_digits(seeds) -> tuple[list[np.ndarray], list[int]]:
    """Features and class indices (into CLASSES) of the glyphs of one rendered, degraded, rectified
    training puzzle per seed: about half the cells written (typed or pen, as the style's look
    says), pencil candidates in some of the others; a glyph found in a cell with nothing written
    (nor a given printed big) is NONE."""
    from ui.render import STYLES, render

    styles = [dataclasses.replace(style, digit_fonts=style.digit_fonts + HEAVY_FONTS) for style in STYLES.values()]

    rows, labels = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 4099])
        size = int(rng.integers(4, 8))
        if seed >= TRAINING_PUZZLES:
            size = int(rng.integers(*BIG_SIZES))
        puzzle = training_puzzle(size, rng)
        largest = LARGEST_ENTRY if size >= PAIRS_FROM else 9
        entries = tuple(tuple(int(rng.integers(1, largest + 1)) if rng.random() < 0.5 else None for _ in range(size))
                        for _ in range(size))
        pencil = [[set(int(d) for d in rng.choice(9, int(rng.integers(1, 5)), replace=False) + 1)
                   if entries[r][c] is None and rng.random() < 0.4 else None for c in range(size)]
                  for r in range(size)]
        style = styles[seed % len(styles)]
        rendering = render(puzzle, style, seed=int(seed) * 17 + 3, cell_px=80, entries=entries, pencil=pencil)
        image, corners = degrade(rendering.image, rendering.corners, size, rng)
        grid = rectify(image, jittered(corners, size, rng), size)
        _add_glyphs(rows, labels, grid, rendering, entries,
                    lambda cell: digit_glyph(cell_patch(grid, cell), size >= PAIRS_FROM))
    return rows, labels


def training_photo_digits(seeds) -> tuple[list[np.ndarray], list[int]]:
    """Like :func:`training_digits`, from generated puzzles (real cage shapes, entries some of them
    wrong as people write them, pencil marks in half) photographed by the phone-photo simulator
    at PHOTO_LEVELS (without page curl, so that the true corners rectify the cells exactly); the
    glyphs are found as when reading (:func:`cell_digit_glyph`). Hard photos' shadows cross
    empty cells: their edges are most of the NONE glyphs."""
    from solver.generator import GeneratorOptions, generate
    from ui.photo import LEVELS, simulate
    from ui.render import STYLES, make_entries, make_pencil, render

    from .grid import grid_from_corners

    rows, labels = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 7919])
        size = int(rng.integers(4, 9))
        if seed >= PHOTO_PUZZLES:
            size = int(rng.integers(*BIG_SIZES))
        made = generate(GeneratorOptions(size=size), int(seed) + 50_000)
        entries = make_entries(made.solution, float(rng.uniform(0.0, 0.7)), 0.15, seed=int(seed))
        pencil = make_pencil(made.solution, entries, seed=int(seed)) if rng.random() < 0.5 else None
        style = list(STYLES)[seed % len(STYLES)]
        rendering = render(made.puzzle.with_entries(entries), style, seed=int(seed) * 29 + 5, pencil=pencil)
        level = LEVELS[PHOTO_LEVELS[(seed // len(STYLES)) % len(PHOTO_LEVELS)]]
        photo = simulate(rendering, dataclasses.replace(level, curl=(0, 0), coarse_shake=True),
                         seed=int(seed) * 31 + 3)
        corners = jittered(np.asarray(photo.corners, float), size, rng, 0.015)
        grid = grid_from_corners(photo.image, corners, size)
        _add_glyphs(rows, labels, grid, rendering, entries,
                    lambda cell: cell_digit_glyph(grid, cell, shadow_steps=True))
    return rows, labels


def _add_glyphs(rows: list, labels: list, grid: GridFind, rendering, entries, glyph) -> None:
    """Append the features and class of every cell's glyph (``glyph(cell)``, None for none): the
    entry written or printed big there (one of PAIRS for 10..16, unless cut narrower than
    PAIR_ASPECT), else NONE."""
    givens = {cage.anchor: cage.target for cage in rendering.puzzle.cages
              if cage.op == "=" and rendering.look.big_givens}
    for r in range(grid.size):
        for c in range(grid.size):
            ink = glyph((r, c))
            if ink is None:
                continue
            digit = entries[r][c] if entries[r][c] is not None else givens.get((r, c))
            if digit is not None and digit >= 10 and ink.shape[1] < PAIR_ASPECT * ink.shape[0]:
                continue  # one glyph of the pair cut alone
            rows.append(digit_features(ink))
            labels.append(CLASSES.index(str(digit) if digit is not None else NONE))
