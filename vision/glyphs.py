"""Glyphs and what the glyph readers share: character classes, the glyph cut from a cell, a small
k-nearest-neighbour model (the big-digit reader's), the on-disk model cache, and the training
drawings (random-clue puzzles, a flat-on phone degradation, grid-finder-like corner errors).

The clue reader (:mod:`vision.label_reader`, trained by :mod:`vision.label_training`), the
big-digit reader (:mod:`vision.digits`) and the Kakuro digit reader (:mod:`vision.kakuro_cells`)
are built from these pieces. Fitted models are cached in ``~/.cache/kensnap`` (or
``$KENSNAP_CACHE``) under a file name holding the model's version.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

OPERATORS = ("+", "-", "*", "/")
DIGIT_CLASSES = tuple("0123456789")
CLUE_CLASSES = DIGIT_CLASSES + OPERATORS


def grown_within(mask: np.ndarray, within: np.ndarray) -> np.ndarray:
    """``mask`` grown by one pixel (8-neighbours), kept inside ``within`` (both boolean): the ink a
    glyph keeps once something is taken off it, with its strokes' soft edge given back."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & within


@dataclass(frozen=True, eq=False)
class Glyph:
    """One glyph cut from a cell patch: its box and its ink (darkness 0..1, zero off the glyph)."""

    box: tuple[int, int, int, int]
    """``(x0, y0, x1, y1)`` in patch pixels, end-exclusive."""
    ink: np.ndarray
    """Darkness of the box (float32), only this glyph's components kept."""
    parts: int
    """Number of connected components."""


# ---------------------------------------------------------------------------------------------
# The k-nearest-neighbour model
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


def cache_dir() -> Path:
    """Where fitted models are kept: ``$KENSNAP_CACHE`` or ``~/.cache/kensnap`` (created)."""
    root = Path(os.environ.get("KENSNAP_CACHE") or Path.home() / ".cache" / "kensnap")
    root.mkdir(parents=True, exist_ok=True)
    return root


def lock_path(name: str) -> Path:
    """The file whose exclusive lock a process holds while it fits the model ``name`` (:func:`fitting`)."""
    return cache_dir() / f"{name}.lock"


M = TypeVar("M")
_FITTING: set[str] = set()
"""The models being fitted in this process, and so in the processes it forks for training rows."""


@contextmanager
def fitting(name: str) -> Iterator[None]:
    """Hold the right to fit the model ``name`` while the block runs; load the cache again inside
    the block, as another process may have fitted the model meanwhile.

    - Across processes: an exclusive lock on ``<cache>/<name>.lock``. A second process that needs the
      same missing model (the app and a ``kensnap read`` on a fresh machine, or a test run beside a
      fit) waits for the first to save it instead of fitting it again beside it.
    - Within one process and those it forks to gather training rows: asking to fit the model again
      inside the block — training photos cut by code that reads with that very model — raises
      RuntimeError at once. Without this each fit started another, each on two new processes, until
      the machine ran out of memory (a fresh cache in the nineteenth round, through the Kakuro
      keypad check)."""
    if name in _FITTING:
        raise RuntimeError(f"the model {name!r} was asked for by its own training; fit it first or cut "
                           "its training photos without it")
    import fcntl

    with open(lock_path(name), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _FITTING.add(name)
        try:
            yield
        finally:
            _FITTING.discard(name)
            fcntl.flock(lock, fcntl.LOCK_UN)


_BEFORE_FIT: list[tuple[int, Callable[[str], None]]] = []
"""What :func:`before_fitting` registered, with the process that registered it."""


def before_fitting(tell: Callable[[str], None]) -> None:
    """Have ``tell(name)`` called, in this process only (not in the processes it forks), each time a
    model is missing from the cache and about to be fitted or waited for (:func:`load_or_fit`): a
    command line says there that the first photo waits for a fit, and only once a photo has been
    loaded and needs a model, so a file that is not an image gets its one line of error alone."""
    _BEFORE_FIT[:] = [(os.getpid(), tell)]


def load_or_fit(name: str, load: Callable[[], M | None], fit: Callable[[], M]) -> M:
    """The model ``load()`` gives; when it gives None (not in the cache, or not whole), the model
    ``fit()`` makes and saves — asked for under :func:`fitting`, with ``load()`` tried again first,
    so that a model another process fitted meanwhile is loaded, not fitted again. The callback of
    :func:`before_fitting` is told first."""
    model = load()
    if model is None:
        for pid, tell in _BEFORE_FIT:
            if pid == os.getpid():
                tell(name)
        with fitting(name):
            model = load()
            if model is None:
                model = fit()
    return model


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

    def fit_and_save() -> GlyphModel:
        model = fit()
        save_model(model, path)
        return model

    return load_or_fit(name, lambda: load_model(path), fit_and_save)


# ---------------------------------------------------------------------------------------------
# Training drawings
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
