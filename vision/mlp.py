"""A small multilayer perceptron in numpy: the classifier behind our glyph models.

Why our own: the glyphs are tiny (a few hundred features), the training sets are a few ten
thousand rows drawn by our renderer, and no deep-learning library is a dependency; forty lines of
numpy train in well under a minute on one core and run in microseconds per glyph.

Contract: :func:`fit_mlp` is deterministic for a given ``seed`` and data; :class:`Mlp` maps
feature rows to class probabilities (rows sum to 1). Features are standardised inside the model.

Example::

    model = fit_mlp(features, labels, classes=("0", "1", ...), hidden=(192, 96), seed=1)
    model.probabilities(features[:3])        # 3 × len(classes)
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True, eq=False)
class Mlp:
    """ReLU hidden layers and a softmax output over ``classes``."""

    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """m × len(classes) probabilities for m feature rows."""
        x = (np.atleast_2d(features).astype(np.float32) - self.mean) / self.scale
        for w, b in zip(self.weights[:-1], self.biases[:-1]):
            x = np.maximum(x @ w + b, 0)
        return _softmax(x @ self.weights[-1] + self.biases[-1])

    def save(self, path: Path) -> None:
        """Write the model as ``.npz`` atomically (see :func:`save_arrays`)."""
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)} | {f"b{i}": b for i, b in enumerate(self.biases)}
        save_arrays(path, "mlp", classes=np.array(self.classes), mean=self.mean, scale=self.scale,
                    layers=np.array(len(self.weights)), **arrays)

    @staticmethod
    def load(path: Path) -> Mlp | None:
        """The model saved at ``path``, or None when missing, unreadable or not an MLP."""
        data = load_arrays(path, "mlp")
        if data is None:
            return None
        try:
            layers = int(data["layers"])
            return Mlp(tuple(str(c) for c in data["classes"]), data["mean"], data["scale"],
                       tuple(data[f"w{i}"] for i in range(layers)), tuple(data[f"b{i}"] for i in range(layers)))
        except (KeyError, ValueError):
            return None


def save_arrays(path: Path, kind: str, **arrays: np.ndarray) -> None:
    """Write ``arrays`` and the model ``kind`` as ``.npz`` atomically (a temporary file renamed):
    a reader never sees half a model."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, kind=np.array(kind), **arrays)
    os.replace(tmp, path)


def load_arrays(path: Path, kind: str) -> dict[str, np.ndarray] | None:
    """The arrays :func:`save_arrays` wrote for a model of ``kind``, or None when the file is
    missing, unreadable or holds another kind."""
    try:
        with np.load(path) as data:
            if str(data["kind"]) != kind:
                return None
            return {name: data[name] for name in data.files}
    except (OSError, KeyError, ValueError):
        return None


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit_mlp(features: np.ndarray, labels: np.ndarray, classes: tuple[str, ...], *,
            hidden: tuple[int, ...] = (192, 96), epochs: int = 40, batch: int = 128,
            rate: float = 2e-3, decay: float = 1e-4, seed: int = 0, balanced: bool = True) -> Mlp:
    """Train an :class:`Mlp` by Adam on cross-entropy with L2 ``decay``; when ``balanced`` classes
    are weighted by the inverse of their frequency (else every row counts the same).
    Deterministic for a seed."""
    rng = np.random.default_rng(seed)
    x = features.astype(np.float32)
    mean = x.mean(0)
    scale = x.std(0) + 1e-3
    x = (x - mean) / scale
    y = labels.astype(np.int64)
    k = len(classes)
    counts = np.bincount(y, minlength=k).astype(np.float32)
    row_weight = ((len(y) / (k * np.maximum(counts, 1)))[y] if balanced else np.ones(len(y))).astype(np.float32)
    sizes = (x.shape[1], *hidden, k)
    ws = [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for idx in np.array_split(rng.permutation(len(y)), max(1, len(y) // batch)):
            grads = _gradients(ws, bs, x[idx], y[idx], row_weight[idx], decay)
            step += 1
            for i, (p, g) in enumerate(zip(params, grads)):
                m1[i] = 0.9 * m1[i] + 0.1 * g
                m2[i] = 0.999 * m2[i] + 0.001 * g * g
                p -= lr * (m1[i] / (1 - 0.9 ** step)) / (np.sqrt(m2[i] / (1 - 0.999 ** step)) + 1e-8)
    return Mlp(tuple(classes), mean.astype(np.float32), scale.astype(np.float32), tuple(ws), tuple(bs))


def _gradients(ws, bs, x, y, weight, decay):
    """Gradients of the weighted mean cross-entropy (+ L2 on weights) for one batch: weights first,
    then biases, in the order of ``ws + bs``."""
    acts = [x]
    for w, b in zip(ws[:-1], bs[:-1]):
        acts.append(np.maximum(acts[-1] @ w + b, 0))
    p = _softmax(acts[-1] @ ws[-1] + bs[-1])
    delta = p
    delta[np.arange(len(y)), y] -= 1
    delta *= (weight / weight.sum())[:, None]
    gw, gb = [None] * len(ws), [None] * len(bs)
    for i in range(len(ws) - 1, -1, -1):
        gw[i] = acts[i].T @ delta + decay * ws[i]
        gb[i] = delta.sum(0)
        if i:
            delta = (delta @ ws[i].T) * (acts[i] > 0)
    return gw + gb


def gather_rows(chunk, seeds, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Training rows from ``chunk(seeds) -> (feature rows, labels)`` run over the seeds split into
    ``workers`` interleaved parts on as many processes (one part, in this process, for 8 seeds or
    fewer): ``(n×d float32 features, n int32 labels)`` in the parts' order. ``chunk`` must be a
    module-level function (it is pickled)."""
    seeds = list(seeds)
    chunks = [seeds[i::workers] for i in range(workers)] if workers > 1 and len(seeds) > 8 else [seeds]
    if len(chunks) == 1:
        parts = [chunk(seeds)]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(len(chunks)) as pool:
            parts = list(pool.map(chunk, chunks))
    rows = [row for part in parts for row in part[0]]
    labels = [label for part in parts for label in part[1]]
    return np.array(rows, np.float32).reshape(len(rows), -1), np.array(labels, np.int32)
