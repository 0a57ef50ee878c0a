"""``kensnap corpus --kakuro``: labelled photos of generated Kakuro, like :mod:`ui.corpus` for KenKen.

Each item is a generated unique Kakuro, drawn in a style (newspaper, app, web) by
:func:`ui.render_kakuro.render_kakuro`, sometimes half-filled with written digits (some wrong), and
photographed by the simulator (:func:`ui.photo.simulate`, under a Kakuro title) at a level (clean,
handheld, hard). It is
written as ``<id>.jpg`` + ``<id>.json`` in the layout of ``../shared/realdev``: the JSON holds
``image``, ``puzzle: "kakuro"``, ``truth`` (the Kakuro JSON object, with ``entries`` when digits are
written), ``solution``, the grid ``corners`` in the photo and the spec it was made from. The same
``--count`` and ``--seed`` give the same items (the bytes also depend on the installed fonts).
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from solver.kakuro.formats import kakuro_to_json
from solver.kakuro.generator import KakuroOptions, generate_kakuro

from .corpus import write_corpus
from .photo import simulate
from .render_kakuro import make_kakuro_entries, render_kakuro

STYLES = ("newspaper", "app", "web")
LEVELS = ("clean", "handheld", "hard")
TITLES = ("KAKURO", "Kakuro", "CROSS SUMS", "Cross Sums", "KAKURO®", "Cross Additions", "CROSS SUMS Kakuro")
"""The page titles of a simulated Kakuro photo (KenKen's are :data:`ui.photo.TITLES`)."""
SIDES = {6: 2, 7: 3, 8: 3, 9: 3, 10: 3, 11: 2, 12: 2}
"""Relative weights of the grid side (rows; columns differ by up to two)."""


@dataclass(frozen=True)
class KakuroSpec:
    """How one Kakuro corpus item is made; every choice is here, so an item can be made again alone."""

    id: str
    seed: int
    rows: int
    cols: int
    style: str
    level: str
    filled: float = 0.0
    """Share of white cells with a written digit (0: none)."""
    wrong: float = 0.0
    """Share of written digits that are wrong."""
    max_side: int = 0
    """Downscale the photo so its longer side is at most this (0: keep)."""
    dark: bool = False
    """A screen (app or web look) in dark mode: light print and grey blocks on a near-black page."""


def plan_kakuro(count: int, seed: int, dark: bool = False) -> list[KakuroSpec]:
    """``count`` varied specs: styles and levels in turn, sides 6..12, a quarter half-filled; with
    ``dark``, the screens (app and web looks, two in three) in dark mode (the same puzzles)."""
    rng = random.Random(seed)
    sides, weights = zip(*SIDES.items())
    specs = []
    for i in range(count):
        rows = rng.choices(sides, weights)[0]
        cols = max(5, min(13, rows + rng.choice((-2, -1, 0, 0, 0, 1, 2))))
        filled = rng.random() < 0.25
        specs.append(KakuroSpec(id=f"kk{seed}-{i:04d}", seed=rng.randrange(2 ** 31), rows=rows, cols=cols,
                                style=STYLES[i % 3], level=LEVELS[(i // 3) % 3],
                                filled=rng.uniform(0.2, 0.6) if filled else 0.0, wrong=0.15 if filled else 0.0,
                                dark=dark and STYLES[i % 3] != "newspaper"))
    return specs


def make_kakuro_item(spec: KakuroSpec) -> tuple[np.ndarray, dict]:
    """The photo (RGB) and the truth document of one spec."""
    made = generate_kakuro(KakuroOptions(rows=spec.rows, cols=spec.cols), spec.seed)
    puzzle, solution = made.puzzle, made.solution
    if spec.filled:
        puzzle = puzzle.with_entries(make_kakuro_entries(puzzle, solution, spec.filled, spec.wrong, seed=spec.seed))
    rendering = render_kakuro(puzzle, spec.style, seed=spec.seed, for_dark_mode=spec.dark)
    photo = simulate(rendering, spec.level, seed=spec.seed, titles=TITLES, dark=spec.dark)
    image, corners = photo.image, np.asarray(photo.corners, float)
    if spec.max_side and max(image.shape[:2]) > spec.max_side:
        scale = spec.max_side / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners = corners * scale
    truth = {
        "id": spec.id, "image": f"{spec.id}.jpg", "puzzle": "kakuro",
        "kind": f"generated Kakuro: {spec.style} style, {spec.level} photo" + (", half-filled" if spec.filled else "")
                + (", dark mode" if spec.dark else ""),
        "truth": kakuro_to_json(puzzle), "solution": [list(row) for row in solution],
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners], "spec": asdict(spec),
    }
    return image, truth


def write_kakuro_corpus(folder: Path, specs: list[KakuroSpec], workers: int = 2, quality: int = 92) -> list[Path]:
    """Write every spec's item into ``folder`` (created), on ``workers`` processes (KenKen's
    :func:`ui.corpus.write_corpus` with :func:`make_kakuro_item`)."""
    return write_corpus(folder, specs, workers, quality, make=make_kakuro_item)
