"""Training the whole-label clue reader (:mod:`vision.label_reader`) on photos of our own renderings.

Training set: puzzles with random clues (:func:`vision.glyphs.training_puzzle`: numbers of 1–4
digits, every operator glyph variant, every clue font and size of every style) are drawn by
:func:`ui.render.render`, photographed by :func:`ui.photo.simulate` at every level (the page curl of
hard photos left out so that page positions map exactly), rectified from slightly wrong corners
by the grid finder's own :func:`vision.grid.grid_from_corners`, and each label is found by the
reading code itself (:func:`vision.clues.label_glyphs`) and turned into a strip (starting no later than
where the puzzle's labels usually start, as when reading). The renderer says
where every character of the clue was printed (:func:`ui.render.clue_glyph_boxes`); mapped into
the strip, the middle CORE of each character's ink box is that character and every other column
is BLANK. Frames are taken every FRAME_STEP columns.

Model: :class:`vision.convnet.ConvNet` (two 3×3 convolutions over the STRIP_H × WINDOW frame), classes
not re-balanced (BLANK is common and must stay so for the decoder), fitted once per seed of SEEDS on
the same frames, then annealed on the frames of the first ANNEAL_PUZZLES puzzles; :class:`LabelModel`
averages the fits. Cached in ``~/.cache/kensnap`` under :data:`MODEL_VERSION` (the first seed's
fit; the others with ``-seed<N>`` after it), the fits before their anneal under
:data:`FIRST_VERSION`. The first time, drawing the set takes about 10–20 minutes on two processes
(16.7 minutes on 2026-11-25, beside another reader), the fits, side by side (:func:`fit_members`),
about 34 more and the anneal about 5.
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .label_reader import BLANK, STRIP_CLASSES, STRIP_H, WINDOW, frame_features, label_strip
from .convnet import ConvNet, anneal_convnet, fit_convnet, strip_frames
from .cores import usable_cores
from .mlp import gather_rows
from .glyphs import cache_dir, jittered, load_or_fit, training_puzzle

MODEL_VERSION = "clue-strips-v7"
FIRST_VERSION = "clue-strips-v6"
"""The cache name of the networks before their anneal (:data:`ANNEAL_RATE`), kept so that a change
to the anneal alone refits only the anneal."""
TRAINING_PUZZLES = 6400
"""Rendered and photographed puzzles the label model learns from (about 20 labels, 540 frames
each). Four times the puzzles of v4 at half its epochs (twice the frames seen): labels right with
the true corners on tuning photos (seed 1100) about the same, hand-held 89.7 → 90.1 %, hard
74.2 → 73.8 %, but held-out boards exact (seed 700) clean 101 → 102 of 102, hand-held 71 → 74
of 99, hard 30 → 30. Fewer frames seen read fewer labels right (400 puzzles × 4 epochs: 86.1 and
71.3 %; 1600 × 1 epoch: 86.8 and 70.4 %)."""
BLOCK = 400
"""Puzzles drawn per call of :func:`vision.mlp.gather_rows`; each block's frames are kept as
float16, and the fits map them from one file (3.5 million frames of 24 × 24: 3.9 GB)."""
CHANNELS, HIDDEN, EPOCHS = (16, 32), 256, 2
"""The network's convolution channels, dense width and training epochs (see :mod:`vision.convnet`
for why a convolutional network: the perceptron before it, hidden (1024, 512), was at its ceiling).
Labels right with the true corners, 120 tuning photos, perceptron → this network: hand-held
90.7 % → 91.0 %, hard 67.6 % → 70.4 % (averaging both models: 91.5 % and 70.3 %, not worth a
second model). Wider convolutions measured again in the fifty-second round, each fitted one epoch on
the same 1.69 million frames (puzzles 6400–9599, seed 3) and read alone on 7,840 held-out labels
(puzzles from 910000, hand-held and hard photos, slightly wrong corners): (16, 32) → (24, 48) labels
right hand-held 89.6 → 89.3 %, hard 74.6 → 75.1 %, the fit 1,086 → 1,640 s — the width is not what
limits the reader."""
CORE = 0.5
"""Middle share of a character's ink width whose frames are labelled with that character."""
FRAME_STEP = 2
"""Every this many strip columns a training frame is taken (neighbours are nearly the same)."""
TRAINING_LEVELS = ("clean", "handheld", "handheld", "hard", "hard", "hard")
ANNEAL_PUZZLES, ANNEAL_RATE, ANNEAL_EPOCHS = 1600, 5e-4, 1
"""After its EPOCHS, each network is trained on for ANNEAL_EPOCHS passes over the frames of the
first ANNEAL_PUZZLES training puzzles at a rate falling from ANNEAL_RATE to 0
(:func:`vision.convnet.anneal_convnet`): the fit's last epoch ran at half its first rate. On 400
held-out puzzles' labels (10,532, seeds from 900000, slightly wrong corners), both networks read
together, labels right 87.2 → 88.1 %: 4 px and under 48.4 → 50.9 %, 5 px 73.6 → 75.9 %, 6 px 86.6
→ 87.5 %, 7 px 90.1 → 91.2 %. Two passes from 1e-3 (twice the time) read as many. A second anneal of
the final networks, on 3,200 fresh puzzles (6400–9599, 1.69 million frames, one pass from 5e-4), read
as many too (fifty-second round, 7,840 held-out labels: hand-held 92.6 → 92.5 %, hard 79.7 → 79.9 %).
The newspaper style's bold labels are the ones read worst (those labels: hand-held 83.1 %, hard
64.0 %; app 95.6 / 83.3 %, web 98.3 / 92.0 %); a second anneal of both on 2,400 newspaper puzzles
alone (9600–16797, 1.26 million frames) read 84.1 / 65.5 % of them and fewer of the others (app
95.5 / 81.7 %, web 97.1 / 90.6 %): not worth a reader per style (fifty-third round)."""


SEEDS = (3, 4)
"""The label network is fitted once per seed on the same drawn labels, and the fits read together
(:class:`LabelModel`). Two fits of one network differ by several boards a level (seed 9090 hard
47 against 42 of 99, docs/HISTORY.md); together they read more labels right than either alone
(seed 9090 with the true corners, labels right hand-held 91.9 % and 92.1 % alone, 92.7 % together;
hard 74.3 % and 73.6 %, 75.1 %). With 16-column frames four fits read more hard boards right than
two (318 → 329 of 495); with WINDOW's 24 columns they do not: boards exact over the five 300-photo
sets of seeds 8383, 7474, 6161, 5252 and 3131, two fits → four, clean 508 → 509, hand-held
448 → 443, hard 335 → 339, median 0.55 → 0.62 s (twenty-seventh round). Each further fit reads
only the frames the first is unsure of. Averaging further networks at hand into the two (fifty-third
round, 7,840 held-out labels, hand-held / hard 92.6 / 79.7 %): with the wider (24, 48) network
92.2 / 79.2 %, with a second anneal's two 92.4 / 79.9 %, with the two before their anneal
92.2 / 79.6 %."""
SURE_FRAME = 0.98
"""A frame the first fit gives a class this probability or more keeps the first fit's reading; the
others read only the rest (a third of hand-held and hard frames, fewer on clean photos): labels
right the same as when every frame is averaged (seed 9090, true corners), at a third of the cost."""


@dataclasses.dataclass(frozen=True, eq=False)
class LabelModel:
    """The clue-label reader's networks (one per SEEDS): the first fit's frame probabilities, averaged
    with the other fits' on the frames it is unsure of (under SURE_FRAME)."""

    members: tuple[ConvNet, ...]

    @property
    def classes(self) -> tuple[str, ...]:
        return self.members[0].classes

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Rows of frame features → rows of probabilities over ``classes`` (each row sums to 1)."""
        return self._averaged_where_unsure(self.members[0].probabilities(features), lambda: np.atleast_2d(features))

    def strip_probabilities(self, images: list[np.ndarray]) -> np.ndarray:
        """:meth:`probabilities` of every frame of each strip of ``images`` (the strips' rows one
        after the other; see :meth:`vision.convnet.ConvNet.strip_probabilities`)."""
        width = self.members[0].shape[1]
        return self._averaged_where_unsure(self.members[0].strip_probabilities(images),
                                           lambda: np.concatenate([strip_frames(image, width) for image in images]))

    def _averaged_where_unsure(self, probs: np.ndarray, frames: Callable[[], np.ndarray]) -> np.ndarray:
        """The first fit's ``probs``, averaged with the other fits' on the frames it is unsure of
        (under SURE_FRAME); ``frames()`` gives the frames' feature rows, built only when needed."""
        unsure = probs.max(axis=1) < SURE_FRAME
        if unsure.any() and len(self.members) > 1:
            rows = frames()[unsure]
            probs[unsure] = sum((member.probabilities(rows) for member in self.members[1:]), probs[unsure]) / len(self.members)
        return probs


def model_files(version: str = MODEL_VERSION) -> tuple[Path, ...]:
    """The cache files of the label model's networks, one per SEEDS (the first without its seed);
    with ``version`` FIRST_VERSION, the networks before their anneal."""
    return tuple(cache_dir() / (f"{version}.npz" if k == 0 else f"{version}-seed{seed}.npz")
                 for k, seed in enumerate(SEEDS))


@lru_cache(maxsize=1)
def label_model() -> LabelModel:
    """The whole-label model, from the disk cache or fitted now (the labels drawn once for every
    fit that is missing)."""
    paths = model_files()

    def load() -> LabelModel | None:
        members = [ConvNet.load(path) for path in paths]
        return None if any(member is None for member in members) else LabelModel(tuple(members))

    def fit() -> LabelModel:
        members = [ConvNet.load(path) for path in paths]
        missing = [(seed, first, path) for seed, first, path, member
                   in zip(SEEDS, model_files(FIRST_VERSION), paths, members) if member is None]
        unfitted = [(seed, first) for seed, first, _ in missing if ConvNet.load(first) is None]
        puzzles = TRAINING_PUZZLES if unfitted else ANNEAL_PUZZLES
        with tempfile.TemporaryDirectory(dir=cache_dir(), prefix=f"{MODEL_VERSION}-frames-") as scratch:
            frames, targets, anneal_rows = _save_training_rows(Path(scratch), puzzles)
            fit_members(frames, targets, unfitted)
            fit_members(frames, targets, [(seed, path) for seed, _, path in missing],
                        start={path: first for _, first, path in missing}, rows=anneal_rows)
        return LabelModel(tuple(member or ConvNet.load(path) for member, path in zip(members, paths)))

    return load_or_fit(MODEL_VERSION, load, fit)


def _save_training_rows(folder: Path, puzzles: int = TRAINING_PUZZLES) -> tuple[Path, Path, int]:
    """Draw the frames of the first ``puzzles`` photographed training puzzles' labels into
    ``folder`` (frames as float16, their classes as int32, ``.npy`` files) and return the two files
    and how many of the rows come from the first ANNEAL_PUZZLES puzzles (they come first)."""
    parts, targets = [], []
    anneal_rows = 0
    for start in range(0, puzzles, BLOCK):
        rows, labels = gather_rows(_training_chunk, range(start, min(start + BLOCK, puzzles)))
        parts.append(rows.astype(np.float16))
        targets.append(labels)
        if start < ANNEAL_PUZZLES:
            anneal_rows += len(labels)
        del rows
    frames, classes = folder / "frames.npy", folder / "targets.npy"
    np.save(frames, np.concatenate(parts))
    del parts
    np.save(classes, np.concatenate(targets))
    return frames, classes, anneal_rows


def fit_members(frames: Path, targets: Path, members: list[tuple[int, Path]],
                workers: int | None = None, start: dict[Path, Path] | None = None, rows: int = 0) -> None:
    """Fit one label network per ``(seed, path)`` of ``members`` on the saved ``frames`` and
    ``targets`` (:func:`_save_training_rows`) and save each at its path, ``workers`` fits at a time
    (one per core by default), each in a Python process of its own with one BLAS thread that maps
    the frames from disk (shared, never copied). Each fit is :func:`vision.convnet.fit_convnet`
    with its seed: the same network as fitted alone. With ``start`` (a member's path → the saved
    network it starts from), each is instead that network annealed (:func:`vision.convnet.anneal_convnet`,
    ANNEAL_RATE, ANNEAL_EPOCHS, its seed) on the first ``rows`` frames. Why processes: one fit keeps
    about one core busy (its matrix products are small). Two fits on 150,000 frames: 172 s one after
    the other, 97 s side by side. The processes run this module (``python -m vision.label_training
    JOB``), not the caller's script: a script that reads a photo on a fresh machine needs no ``if
    __name__ == "__main__":`` (with multiprocessing's "spawn", each worker ran the script's top level
    again and failed). Raises RuntimeError with the worker's last words when a fit fails."""
    settings = dict(shape=(STRIP_H, WINDOW), channels=CHANNELS, hidden=HIDDEN, epochs=EPOCHS)
    jobs = [dict(frames=str(frames), targets=str(targets), seed=seed, path=str(path),
                 **(dict(start=str(start[path]), rows=rows, rate=ANNEAL_RATE, epochs=ANNEAL_EPOCHS) if start
                    else dict(settings=settings)))
            for seed, path in members]
    workers = max(1, min(len(jobs), workers or usable_cores()))
    if workers == 1:
        for job in jobs:
            _fit_member(job)
        return
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    package_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    for first in range(0, len(jobs), workers):
        running = [subprocess.Popen([sys.executable, "-m", "vision.label_training", json.dumps(job)], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                   for job in jobs[first:first + workers]]
        failures = []
        for process in running:
            _, err = process.communicate()
            if process.returncode:
                failures.append(err.strip().splitlines()[-1:] or [f"exit code {process.returncode}"])
        if failures:
            raise RuntimeError(f"fitting the label networks failed: {failures[0][0]}")


def _fit_member(job: dict) -> None:
    """Fit (or, with ``start``, anneal) and save one label network: a job of :func:`fit_members` as
    its JSON decodes (its worker process's entry)."""
    frames, targets = np.load(job["frames"], mmap_mode="r"), np.load(job["targets"])
    if "start" in job:
        start = ConvNet.load(Path(job["start"]))
        if start is None:
            raise RuntimeError(f"no label network to anneal at {job['start']}")
        rows = int(job["rows"])
        net = anneal_convnet(start, frames[:rows], targets[:rows], rate=float(job["rate"]),
                             epochs=int(job["epochs"]), seed=int(job["seed"]))
    else:
        settings = dict(job["settings"], shape=tuple(job["settings"]["shape"]),
                        channels=tuple(job["settings"]["channels"]))
        net = fit_convnet(frames, targets, STRIP_CLASSES, seed=int(job["seed"]), **settings)
    net.save(Path(job["path"]))


def frame_targets(strip, boxes: list[tuple[str, float, float]]) -> np.ndarray:
    """Class index per strip column: the character whose ink core covers the column's centre,
    else BLANK. ``boxes`` are ``(char, x0, x1)`` in patch x coordinates."""
    width = strip.image.shape[1]
    targets = np.full(width, STRIP_CLASSES.index(BLANK), np.int32)
    centres = np.arange(width) + 0.5
    for ch, x0, x1 in boxes:
        s0, s1 = (x0 - strip.x0) * strip.scale, (x1 - strip.x0) * strip.scale
        mid, half = (s0 + s1) / 2, max(0.75, CORE * (s1 - s0) / 2)
        targets[np.abs(centres - mid) <= half] = STRIP_CLASSES.index(ch)
    return targets


_GLYPH_CLASS = {"×": "*", "x": "*", "*": "*", "÷": "/", "/": "/", ":": "/", "−": "-", "-": "-", "–": "-", "+": "+"}


def _training_chunk(seeds) -> tuple[list[np.ndarray], list[int]]:
    from ui.photo import LEVELS, simulate
    from ui.render import STYLES, clue_glyph_boxes, render

    from .clues import CELL, MARGIN, label_glyphs, usual_place
    from .grid import grid_from_corners

    rows, labels = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 104729])
        size = int(rng.integers(4, 10))
        puzzle = training_puzzle(size, rng)
        style = list(STYLES)[seed % len(STYLES)]
        rendering = render(puzzle, style, seed=int(seed) * 37 + 11, cell_px=80)
        level = LEVELS[TRAINING_LEVELS[(seed // len(STYLES)) % len(TRAINING_LEVELS)]]
        photo = simulate(rendering, dataclasses.replace(level, curl=(0, 0), coarse_shake=True),
                         seed=int(seed) * 13 + 7)
        grid = grid_from_corners(photo.image, jittered(np.asarray(photo.corners, float), size, rng, 0.015), size)
        side = grid.rectified.shape[1]
        dst = np.float32([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]])
        page_to_rect = cv2.getPerspectiveTransform(np.float32(rendering.corners), dst)
        found = {cage.anchor: label_glyphs(grid, cage.anchor) for cage in puzzle.cages}
        left = usual_place([lab for lab in found.values() if lab is not None])[2]
        for cage in puzzle.cages:
            label = found[cage.anchor]
            if label is None:
                continue
            x0, _, x1, _ = grid.cell_box(cage.anchor)
            boxes = []
            for ch, (bx0, by0, bx1, by1) in clue_glyph_boxes(rendering, cage):
                ends = cv2.perspectiveTransform(np.float32([[[bx0, (by0 + by1) / 2], [bx1, (by0 + by1) / 2]]]),
                                                page_to_rect)[0]
                px = MARGIN + (ends[:, 0] - x0) * CELL / (x1 - x0)
                boxes.append((ch if ch.isdigit() else _GLYPH_CLASS[ch], float(px[0]), float(px[1])))
            strip = label_strip(label, left)
            mids = [((a + b) / 2 - strip.x0) * strip.scale for _, a, b in boxes]
            if not boxes or min(mids) < 0 or max(mids) > strip.image.shape[1]:
                continue  # the reading code found another label than the one printed
            feats = frame_features(strip)
            targets = frame_targets(strip, boxes)
            start = int(rng.integers(0, FRAME_STEP))
            rows.extend(feats[start::FRAME_STEP])
            labels.extend(targets[start::FRAME_STEP].tolist())
    return rows, labels


if __name__ == "__main__":  # a worker of fit_members
    _fit_member(json.loads(sys.argv[1]))
