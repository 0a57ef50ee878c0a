"""``kensnap corpus``: labelled images of generated puzzles, for building and measuring vision.

Each item is a generated unique puzzle, rendered in a style (newspaper, app, web), optionally
half-filled with written digits (some wrong) and pencil marks, photographed by the simulator at a
level (clean, handheld, hard). It is written as ``<id>.jpg`` + ``<id>.json``, the layout of
``../shared/realdev``: the JSON holds ``image``, ``truth`` (the puzzle schema with ``entries`` when
digits are written), ``solution``, the grid ``corners`` in the photo, and how it was made.

Everything follows from the corpus seed: the same ``--count`` and ``--seed`` give the same items
(the bytes also depend on the installed fonts). Items are made on both cores.
"""
from __future__ import annotations

import json
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from solver.formats import puzzle_to_json
from solver.generator import GeneratorOptions, generate

from .photo import LEVELS as PHOTO_LEVELS, PhotoLevel, pen_across, simulate
from .render import Rendering, clue_glyph_boxes, make_entries, make_pencil, render, seeded_rng

STYLES = ("newspaper", "app", "web")
LEVELS = ("clean", "handheld", "hard")
SIZE_WEIGHTS = {3: 1, 4: 3, 5: 3, 6: 4, 7: 3, 8: 2, 9: 3}
BIG_SIZE_WEIGHTS = {n: 1 for n in range(10, 17)}
"""Sizes of a corpus of big grids (``kensnap corpus --big``): 10 to 16, each as often."""


@dataclass(frozen=True)
class ItemSpec:
    """How one corpus item is made; every choice is here, so an item can be made again alone."""

    id: str
    seed: int
    size: int
    style: str
    level: str
    hidden_ops: bool = False
    calcudoku: bool = False
    filled: float = 0.0
    """Share of cells with a written digit (0: none)."""
    wrong: float = 0.0
    """Share of written digits that are wrong."""
    pencil: bool = False
    max_side: int = 0
    """Downscale the photo so its longer side is at most this (0: keep)."""
    megapixels: float = 0.0
    """A phone-sized photo: the frame about this many megapixels, the grid filling PHONE_FILL of its
    shorter side (0: the level's own pixels per cell, a small photo)."""
    dark: bool = False
    """A screen (app or web look) in dark mode: light print on a near-black page (ui.photo.compose_page)."""
    pen: bool = False
    """A pen lies across the grid (ui.photo.pen_across, ui.photo.lay_pen)."""


def plan(count: int, seed: int, megapixels: float = 0.0, dark: bool = False, big: bool = False,
         pen: bool = False) -> list[ItemSpec]:
    """``count`` varied specs: styles and levels in turn, sizes 3..9 weighted like real puzzles
    (with ``big``, 10..16 each as often), some without operators, some Calcudoku, a quarter
    half-filled; phone-sized photos of about ``megapixels`` when given, and with ``dark`` the
    screens (app and web looks, two in three) in dark mode (the same puzzles and looks as without
    either); with ``pen`` a pen lies across every grid (again the same puzzles, looks and photos
    otherwise)."""
    rng = random.Random(seed)
    sizes, weights = zip(*(BIG_SIZE_WEIGHTS if big else SIZE_WEIGHTS).items())
    specs = []
    for i in range(count):
        filled = rng.random() < 0.25
        specs.append(ItemSpec(
            id=f"k{seed}-{i:04d}", seed=rng.randrange(2 ** 31), size=rng.choices(sizes, weights)[0],
            style=STYLES[i % 3], level=LEVELS[(i // 3) % 3], hidden_ops=rng.random() < 0.12,
            calcudoku=rng.random() < 0.1, filled=rng.uniform(0.2, 0.6) if filled else 0.0,
            wrong=0.15 if filled else 0.0, pencil=filled and rng.random() < 0.5, megapixels=megapixels,
            dark=dark and STYLES[i % 3] != "newspaper", pen=pen))
    return specs


SAMPLES = (
    ItemSpec("newspaper-6x6-clean", 11, 6, "newspaper", "clean", max_side=900),
    ItemSpec("newspaper-6x6-handheld", 12, 6, "newspaper", "handheld", max_side=900),
    ItemSpec("newspaper-9x9-hard", 13, 9, "newspaper", "hard", max_side=900),
    ItemSpec("newspaper-6x6-halffilled", 14, 6, "newspaper", "handheld", filled=0.45, wrong=0.15, pencil=True,
             megapixels=1.0, max_side=900),
    ItemSpec("app-4x4-clean", 21, 4, "app", "clean", max_side=900),
    ItemSpec("app-7x7-handheld", 22, 7, "app", "handheld", max_side=900),
    ItemSpec("app-5x5-hard", 23, 5, "app", "hard", max_side=900),
    ItemSpec("web-3x3-clean", 31, 3, "web", "clean", max_side=900),
    ItemSpec("web-8x8-handheld", 32, 8, "web", "handheld", max_side=900),
    ItemSpec("web-5x5-nooperators", 33, 5, "web", "clean", hidden_ops=True, max_side=900),
    ItemSpec("web-9x9-hard", 34, 9, "web", "hard", max_side=900),
    ItemSpec("app-6x6-calcudoku", 35, 6, "app", "handheld", calcudoku=True, max_side=900),
)
"""The committed ``samples/``: each style and level, a half-filled one, a no-operator one, sizes 3..9."""


PHONE_FILL = (0.35, 0.8)
"""How much of a phone photo's shorter side the grid fills (``ItemSpec.megapixels``): from a page
held at arm's length to a puzzle framed close."""


def make_item(spec: ItemSpec) -> tuple[np.ndarray, dict]:
    """The photo (RGB) and the truth document of one spec."""
    level: PhotoLevel | str = spec.level
    cell_px = 80
    if spec.megapixels:
        level, cell_px = phone_level(spec)
    rendering, solution = _rendering(spec, cell_px)
    puzzle = rendering.puzzle
    photo = simulate(rendering, level, seed=spec.seed, dark=spec.dark, pen=spec.pen)
    image, corners = photo.image, np.asarray(photo.corners, float)
    pen = pen_across(corners, spec.size, spec.seed) if spec.pen else None
    scale = 1.0
    if spec.max_side and max(image.shape[:2]) > spec.max_side:
        scale = spec.max_side / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners = corners * scale
    cell_px = corners_cell_px(corners, spec.size, spec.size)
    truth = {
        "id": spec.id, "image": f"{spec.id}.jpg", "puzzle": "kenken",
        "kind": f"generated: {spec.style} style, {spec.level} photo" + (", half-filled" if spec.filled else "")
                + (f", phone size ({spec.megapixels:g} MP)" if spec.megapixels else "")
                + (", dark mode" if spec.dark else "") + (", a pen across the grid" if spec.pen else ""),
        "truth": puzzle_to_json(puzzle), "solution": [list(row) for row in solution],
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "clue_px": clue_digit_px(rendering, cell_px),
        "spec": asdict(spec),
    }
    if pen:
        truth["pen"] = {"tip": [round(v * scale, 2) for v in pen.tip], "end": [round(v * scale, 2) for v in pen.end],
                        "width": round(pen.width * scale, 2)}
    return image, truth


def corners_cell_px(corners, rows: int, cols: int) -> float:
    """Pixels per cell of a grid of ``rows`` × ``cols`` cells with outer ``corners`` (TL, TR, BR,
    BL): the mean of its sides' lengths across and down, each over its count of cells."""
    (a, b, c, d) = np.asarray(corners, float).reshape(4, 2)
    across = (np.linalg.norm(b - a) + np.linalg.norm(c - d)) / 2 / cols  # top and bottom sides
    down = (np.linalg.norm(d - a) + np.linalg.norm(c - b)) / 2 / rows    # left and right sides
    return float((across + down) / 2)


def phone_level(spec: ItemSpec) -> tuple[PhotoLevel, int]:
    """The spec's photo level made phone-sized (see ``ItemSpec.megapixels``): the grid fills a
    share PHONE_FILL of a 3:4 frame of about that many megapixels, with the level's blur, noise,
    light and angles in the frame's own pixels; and the page's pixels per cell that such a photo
    needs (the simulator never enlarges the page, which would blur it)."""
    base = PHOTO_LEVELS[spec.level]
    fill = seeded_rng(spec.seed, "phone-fill").uniform(*PHONE_FILL)
    short_side = (spec.megapixels * 1e6 * 3 / 4) ** 0.5
    target = fill * short_side / spec.size
    margin = (1 / fill - 1) / 2
    level = replace(base, px_per_cell=(target, target), surround=(0.8 * margin, margin))
    return level, int(np.ceil(1.25 * target))


def _rendering(spec: ItemSpec, cell_px: int = 80) -> tuple[Rendering, tuple[tuple[int, ...], ...]]:
    """The spec's puzzle (with its written digits) drawn on the page at ``cell_px`` pixels per cell,
    and its solution."""
    options = GeneratorOptions(size=spec.size, hidden_ops=spec.hidden_ops, calcudoku=spec.calcudoku)
    made = generate(options, spec.seed)
    solution = made.solution
    entries = make_entries(solution, spec.filled, spec.wrong, seed=spec.seed) if spec.filled else None
    pencil = make_pencil(solution, entries, seed=spec.seed) if spec.pencil else None
    return render(made.puzzle.with_entries(entries), spec.style, seed=spec.seed, pencil=pencil, cell_px=cell_px), solution


def clue_digit_px(rendering: Rendering, photo_cell_px: float) -> float | None:
    """How tall the clue labels' digits are in the photo, in pixels: the median height of their ink
    boxes on the page (:func:`ui.render.clue_glyph_boxes`) times the photo's pixels per cell over
    the page's. None for a puzzle without clue digits. (Below about 7 px a label is hard to read
    for anyone; ``kensnap eval`` groups its boards by it.)"""
    heights = [box[3] - box[1] for cage in rendering.puzzle.cages
               for char, box in clue_glyph_boxes(rendering, cage) if char.isdigit()]
    return round(float(np.median(heights)) * photo_cell_px / rendering.cell_px, 1) if heights else None


def spec_clue_digit_px(spec: dict, photo_cell_px: float) -> float | None:
    """:func:`clue_digit_px` of a corpus item made before truth files held it, drawn again from its
    ``spec`` (the truth file's); None when the spec is not one of ours."""
    try:
        item = ItemSpec(**spec)
    except TypeError:
        return None
    return clue_digit_px(_rendering(item)[0], photo_cell_px)


def write_item(spec: ItemSpec, folder: Path, quality: int = 92, make=make_item) -> Path:
    """Make one item with ``make(spec) -> (RGB image, truth document)`` and write ``<id>.jpg`` and
    ``<id>.json`` into ``folder``; returns the JSON path."""
    image, truth = make(spec)
    cv2.imwrite(str(folder / truth["image"]), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    path = folder / f"{spec.id}.json"
    path.write_text(json.dumps(truth, indent=1) + "\n")
    return path


def write_corpus(folder: Path, specs: list, workers: int = 2, quality: int = 92, make=make_item) -> list[Path]:
    """Write every spec's item (made by ``make``, a module-level function: KenKen's
    :func:`make_item` unless told) into ``folder`` (created), on ``workers`` processes."""
    folder.mkdir(parents=True, exist_ok=True)
    if workers <= 1:
        return [write_item(spec, folder, quality, make) for spec in specs]
    with ProcessPoolExecutor(workers) as pool:
        n = len(specs)
        return list(pool.map(write_item, specs, [folder] * n, [quality] * n, [make] * n))
