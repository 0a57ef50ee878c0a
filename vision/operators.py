"""Our own glyph classifier for clue labels: the operator after the number (and its digits).

Why: the stock tesseract ``eng`` model cannot output × ÷ −, and a clue's operator is one small
glyph in a handful of shapes, so a small model fit on glyphs our renderer draws does better.

Algorithm:

1. *Glyph features* (:func:`glyph_features`): a glyph is one or more ink components that overlap
   in x (÷ and : are several). It is seen through a window one and a half label-heights high,
   anchored at the label's top (so − sits in the middle, * high, digits fill it), resized to
   16×16, plus its width, height, vertical centre and component count relative to the label height.
2. *Training set* (:func:`training_glyphs`): puzzles with random clues (numbers of 1–4 digits, every
   operator glyph variant × x * ÷ / : − - – +, every clue font and size of every style) are drawn
   by :func:`ui.render.render`, photographed by :func:`ui.photo.simulate` at every level (clean,
   hand-held, hard: perspective, curl, light, blur, noise, JPEG), rectified by the grid finder's
   own code from slightly wrong corners, and cut into glyphs by the same code that reads real
   clues (:func:`vision.clues.label_glyphs`). A label whose glyph count does not match its text is
   skipped. Labels: ``'0'..'9'`` and ``'+' '-' '*' '/'``.
3. *Model* (:class:`vision.mlp.Mlp`): a two-hidden-layer perceptron on standardised features,
   classes balanced. (:class:`GlyphModel`, k nearest neighbours, stays for the big-digit reader.)

The fitted model is cached on disk (``~/.cache/kensnap`` or ``$KENSNAP_CACHE``) under a file name
with :data:`MODEL_VERSION`; the same version and fonts give the same model. Drawing the training
set takes about a minute on two processes, fitting about forty seconds.

Example::

    model = clue_glyph_model()
    probs = operator_probabilities(model, features)   # {'+': .., '-': .., '*': .., '/': .., 'none': ..}
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .mlp import Mlp, fit_mlp, gather_rows

MODEL_VERSION = "clue-glyphs-v6"
OPERATORS = ("+", "-", "*", "/")
DIGIT_CLASSES = tuple("0123456789")
CLUE_CLASSES = DIGIT_CLASSES + OPERATORS
WINDOW = 16
"""Side of the resized glyph window."""


# ---------------------------------------------------------------------------------------------
# Glyphs and their features
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Glyph:
    """One glyph cut from a cell patch: its box and its ink (darkness 0..1, zero off the glyph)."""

    box: tuple[int, int, int, int]
    """``(x0, y0, x1, y1)`` in patch pixels, end-exclusive."""
    ink: np.ndarray
    """Darkness of the box (float32), only this glyph's components kept."""
    parts: int
    """Number of connected components."""


def glyph_features(glyph: Glyph, line_top: float, line_height: float) -> np.ndarray:
    """The feature vector (float32, length WINDOW² + 5) of a glyph in a text line whose digits start
    at row ``line_top`` and are ``line_height`` high (both in the glyph's patch pixels)."""
    h = max(2.0, float(line_height))
    x0, y0, x1, y1 = glyph.box
    win_h = 1.5 * h
    win_w = max(1.5 * h, (x1 - x0) + 0.2 * h)
    top = line_top - 0.25 * h
    left = (x0 + x1) / 2 - win_w / 2
    canvas = np.zeros((int(np.ceil(win_h)) + 2, int(np.ceil(win_w)) + 2), np.float32)
    oy, ox = int(round(y0 - top)), int(round(x0 - left))
    gy0, gx0 = max(0, -oy), max(0, -ox)
    ink = glyph.ink[gy0:, gx0:]
    oy, ox = max(0, oy), max(0, ox)
    ink = ink[: canvas.shape[0] - oy, : canvas.shape[1] - ox]
    canvas[oy:oy + ink.shape[0], ox:ox + ink.shape[1]] = ink
    small = cv2.resize(canvas, (WINDOW, WINDOW), interpolation=cv2.INTER_AREA)
    small = small / max(1e-3, float(small.max()))
    shape = [(x1 - x0) / h, (y1 - y0) / h, ((y0 + y1) / 2 - line_top) / h, glyph.parts / 3,
             float(glyph.ink.sum()) / (h * h)]
    return np.concatenate([small.ravel(), 2.0 * np.array(shape, np.float32)]).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class GlyphModel:
    """k nearest neighbours over standardised glyph features."""

    classes: tuple[str, ...]
    samples: np.ndarray
    """n×d float32, already standardised."""
    labels: np.ndarray
    """n int: index into ``classes``."""
    mean: np.ndarray
    scale: np.ndarray
    k: int = 7

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """m×len(classes) probabilities for m feature rows (vote shares of the k nearest
        neighbours, weighted by closeness and smoothed so no class gets exactly 0)."""
        x = (np.atleast_2d(features) - self.mean) / self.scale
        d2 = (x * x).sum(1)[:, None] - 2 * x @ self.samples.T + (self.samples * self.samples).sum(1)[None, :]
        near = np.argsort(d2, axis=1, kind="stable")[:, : self.k]
        weights = 1.0 / (1.0 + np.sqrt(np.maximum(np.take_along_axis(d2, near, 1), 0)))
        votes = np.zeros((len(x), len(self.classes)))
        for j in range(self.k):
            np.add.at(votes, (np.arange(len(x)), self.labels[near[:, j]]), weights[:, j])
        votes += 0.02
        return votes / votes.sum(1, keepdims=True)


def fit_model(features: np.ndarray, labels: np.ndarray, classes: tuple[str, ...], k: int = 7) -> GlyphModel:
    """A :class:`GlyphModel` from training rows and class indices (nothing random: deterministic)."""
    mean = features.mean(0)
    scale = features.std(0) + 1e-3
    return GlyphModel(classes, ((features - mean) / scale).astype(np.float32), labels.astype(np.int32),
                      mean.astype(np.float32), scale.astype(np.float32), k)


GlyphClassifier = GlyphModel | Mlp
"""Anything with ``classes`` and ``probabilities(features)``: the kNN model or the MLP."""


def operator_probabilities(model: GlyphClassifier, features: np.ndarray) -> dict[str, float]:
    """For one glyph: the probability of each operator and of ``'none'`` (it is a digit)."""
    p = model.probabilities(features)[0]
    named = dict(zip(model.classes, p))
    out = {op: float(named.get(op, 0.0)) for op in OPERATORS}
    out["none"] = float(sum(named.get(d, 0.0) for d in DIGIT_CLASSES))
    return out


# ---------------------------------------------------------------------------------------------
# Cache
# ---------------------------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where fitted models are kept: ``$KENSNAP_CACHE`` or ``~/.cache/kensnap`` (created)."""
    root = Path(os.environ.get("KENSNAP_CACHE") or Path.home() / ".cache" / "kensnap")
    root.mkdir(parents=True, exist_ok=True)
    return root


def save_model(model: GlyphModel, path: Path) -> None:
    """Write a model as ``.npz`` (atomically: a temporary file renamed)."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, classes=np.array(model.classes), samples=model.samples, labels=model.labels,
                        mean=model.mean, scale=model.scale, k=np.array(model.k))
    os.replace(tmp, path)


def load_model(path: Path) -> GlyphModel | None:
    """The model saved at ``path``, or None when it is missing or unreadable."""
    try:
        with np.load(path) as data:
            return GlyphModel(tuple(str(c) for c in data["classes"]), data["samples"], data["labels"],
                              data["mean"], data["scale"], int(data["k"]))
    except (OSError, KeyError, ValueError):
        return None


def cached_model(name: str, fit) -> GlyphModel:
    """The model cached as ``<name>.npz``, fitted by ``fit()`` and saved when absent."""
    path = cache_dir() / f"{name}.npz"
    model = load_model(path)
    if model is None:
        model = fit()
        save_model(model, path)
    return model


@lru_cache(maxsize=1)
def clue_glyph_model() -> Mlp:
    """The clue glyph model (digits and operators), from the disk cache or fitted now."""
    path = cache_dir() / f"{MODEL_VERSION}.npz"
    model = Mlp.load(path)
    if model is None:
        model = fit_mlp(*training_glyphs(range(TRAINING_PUZZLES)), CLUE_CLASSES, hidden=(256, 128), epochs=25, seed=1)
        model.save(path)
    return model


TRAINING_PUZZLES = 420
"""Rendered and photographed puzzles the clue glyph model learns from."""


# ---------------------------------------------------------------------------------------------
# Training data drawn by our renderer
# ---------------------------------------------------------------------------------------------

def _random_target(rng: np.random.Generator) -> int:
    """A clue number with 1 to 4 digits, shorter ones more likely, every digit equally used."""
    digits = int(rng.choice([1, 2, 3, 4], p=[0.35, 0.35, 0.2, 0.1]))
    first = int(rng.integers(1, 10))
    rest = rng.integers(0, 10, digits - 1)
    return int(str(first) + "".join(map(str, rest)))


def training_puzzle(size: int, rng: np.random.Generator, operators_shown: bool = True):
    """A puzzle of horizontal two-cell cages (a single cell closes odd rows) with random clues;
    its solution is not meant to exist, only its drawing matters."""
    from solver.puzzle import Cage, Puzzle

    cages = []
    for r in range(size):
        c = 0
        while c < size:
            if c + 1 < size and rng.random() < 0.85:
                cages.append(Cage(((r, c), (r, c + 1)), str(rng.choice(list(OPERATORS))), _random_target(rng)))
                c += 2
            else:
                cages.append(Cage(((r, c),), "=", int(rng.integers(1, 10))))
                c += 1
    return Puzzle(size, tuple(cages), operators_shown=operators_shown)


def degrade(image: np.ndarray, corners: np.ndarray, size: int, rng: np.random.Generator,
            px_range: tuple[float, float] = (22, 90)) -> tuple[np.ndarray, np.ndarray]:
    """A rendering as a phone would see it flat-on: shrunk to ``px_range`` px per cell, blurred,
    shaken, noised and JPEG-compressed. Returns the image and the corners in its pixels."""
    cell = float(np.linalg.norm(corners[1] - corners[0])) / size
    scale = min(1.0, rng.uniform(*px_range) / cell)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.05, 0.6))
    if rng.random() < 0.3:
        k = np.zeros((3, 3), np.float32)
        k[1, :] = 1 / 3
        small = cv2.filter2D(small, -1, k if rng.random() < 0.5 else k.T)
    small += rng.normal(0, rng.uniform(1, 7), small.shape[:2])[..., None].astype(np.float32)
    small = np.clip(small, 0, 255).astype(np.uint8)
    _, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    return cv2.imdecode(data, cv2.IMREAD_UNCHANGED), (corners + 0.5) * scale - 0.5


def jittered(corners: np.ndarray, size: int, rng: np.random.Generator, amount: float = 0.03) -> np.ndarray:
    """The corners moved by up to ``amount`` of a cell each way (a grid finder's error)."""
    cell = float(np.linalg.norm(corners[1] - corners[0])) / size
    return corners + rng.uniform(-amount, amount, corners.shape) * cell


def training_glyphs(seeds, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Features and class indices (into CLUE_CLASSES) of the glyphs of one rendered, photographed
    (:func:`ui.photo.simulate`, every level), rectified training puzzle per seed, cut into glyphs
    by the reading code itself (see the module docstring). Uses ``workers`` processes."""
    return gather_rows(_training_chunk, seeds, workers)


TRAINING_LEVELS = ("clean", "handheld", "handheld", "hard", "hard")


def _training_chunk(seeds) -> tuple[list[np.ndarray], list[int]]:
    from ui.photo import simulate
    from ui.render import STYLES, render

    from .clues import label_glyphs
    from .grid import grid_from_corners

    rows, labels = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 7919])
        size = int(rng.integers(4, 10))
        puzzle = training_puzzle(size, rng)
        style = list(STYLES)[seed % len(STYLES)]
        rendering = render(puzzle, style, seed=int(seed) * 31 + 5, cell_px=80)
        photo = simulate(rendering, TRAINING_LEVELS[(seed // len(STYLES)) % len(TRAINING_LEVELS)], seed=int(seed) * 17 + 3)
        grid = grid_from_corners(photo.image, jittered(np.asarray(photo.corners, float), size, rng, 0.02), size)
        for cage in puzzle.cages:
            text = str(cage.target) + (rendering.look.glyph(cage.op) and cage.op)
            label = label_glyphs(grid, cage.anchor, force_cuts=False)
            if label is None or len(label.glyphs) != len(text):
                continue
            for glyph, char in zip(label.glyphs, text):
                rows.append(glyph_features(glyph, label.top, label.height))
                labels.append(CLUE_CLASSES.index(char))
    return rows, labels
