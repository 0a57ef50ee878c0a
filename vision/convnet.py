"""A small convolutional network in numpy: the frame classifier behind the whole-label clue reader,
and half of the Kakuro digit reader (:class:`vision.kakuro_cells.DigitModel`).

Why a convolutional net and not :mod:`vision.mlp`: a label frame is a STRIP_H × WINDOW window of a
blurred clue label; the same stroke shapes matter wherever they fall in the window. The perceptron
learns every position apart and stopped improving with more data or width (train and held-out
frames equally right); two 3×3 convolution layers share their weights over the window. On the same
100k training frames and 4 epochs, labels right on hand-held tuning photos with the true corners:
perceptron 84.7 %, this network 87.9 %.

Why our own: no deep-learning library is a dependency; the network is two convolutions, two 2×2
max-poolings and two dense layers, trained by Adam on im2col matrix products (about a minute per
100k frames and epoch on this 2-core machine).

Contract: :func:`fit_convnet` is deterministic for a ``seed`` and data; :class:`ConvNet` maps rows
of ``h·w`` features (an h × w image, row-major; h and w divisible by 4) to class probabilities
(rows sum to 1), with the same ``classes``/``probabilities`` interface as :class:`vision.mlp.Mlp`;
:meth:`ConvNet.strip_probabilities` gives the same numbers for every frame of whole strips
(:func:`strip_frames`), in about half the time.

Example::

    net = fit_convnet(rows, labels, classes=STRIP_CLASSES, shape=(24, 16), seed=3)
    net.probabilities(rows[:5])              # 5 × len(classes)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .helper import two_core_map
from .mlp import load_arrays, save_arrays

PARAMS = ("w1", "b1", "w2", "b2", "w3", "b3", "w4", "b4")
"""Parameter names in order: 3×3 convolution, 3×3 convolution, dense hidden, dense output."""
BATCH_ROWS = 64
"""Rows per forward pass when predicting. Small batches keep the convolution rows (1.5 MB here)
in reused memory: at 1000 rows (55 MB) fresh pages cost more than the arithmetic, and a photo's
1000 label frames took 145 ms instead of 85 ms."""


@dataclass(frozen=True, eq=False)
class ConvNet:
    """conv3×3 → ReLU → maxpool2 → conv3×3 → ReLU → maxpool2 → dense → ReLU → softmax."""

    classes: tuple[str, ...]
    shape: tuple[int, int]
    """(h, w) of the input image each feature row holds."""
    mean: float
    scale: float
    params: dict[str, np.ndarray]

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """m × len(classes) scores for m feature rows: the forward pass of :meth:`_forward`, the same
        numbers bit for bit, a few times faster. The convolutions' rows are built by
        :func:`_shifted_rows`, and each convolution is pooled before its bias and ReLU are added
        (:func:`_pooled_activation`: on a quarter of the values)."""
        p, (h, w), b = self.params, self.shape, len(rows)
        a0 = ((np.asarray(rows, np.float32).reshape(b, h, w, 1) - self.mean) / self.scale).astype(np.float32)
        q1 = _pooled_activation((_shifted_rows(a0) @ _by_shift(p["w1"])).reshape(b, h, w, -1), p["b1"])
        q2 = _pooled_activation((_shifted_rows(q1) @ _by_shift(p["w2"])).reshape(b, h // 2, w // 2, -1), p["b2"])
        return self._dense(q2.reshape(b, -1))

    def strip_probabilities(self, images: list[np.ndarray]) -> np.ndarray:
        """The probabilities of every frame of each strip of ``images`` (``h`` rows each, any
        width; the frames are :func:`strip_frames`'s), the strips' rows one after the other: the
        same numbers bit for bit as ``probabilities`` of all those frames, in about half the
        time. Neighbouring frames share all but one column, so the convolutions are worked out once
        over each strip (:func:`_strip_pooled`; the later half of the strips by the helper process
        when it runs), and only the frame's edge columns apart, where its zero padding stands in for
        the strip's columns beyond; each of their outputs is the same sum of the same products in
        the same order. The dense layers then take the frames in the same batches of BATCH_ROWS as
        :meth:`probabilities`: BLAS may sum a product of a few rows in another order than one of
        many (a last batch of 3 rows came out an ulp apart)."""
        parts = two_core_map(_strip_pooled, [(self, image) for image in images])
        pooled = np.concatenate(parts) if parts else np.zeros((0, 1), np.float32)
        return np.concatenate([_softmax(self._dense(pooled[i:i + BATCH_ROWS])) for i in range(0, len(pooled), BATCH_ROWS)]
                              or [np.zeros((0, len(self.classes)), np.float32)])

    def _dense(self, pooled: np.ndarray) -> np.ndarray:
        """The dense layers' logits of flattened second poolings."""
        p = self.params
        return np.maximum(pooled @ p["w3"] + p["b3"], 0) @ p["w4"] + p["b4"]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """m × len(classes) probabilities for m feature rows."""
        rows = np.atleast_2d(features)
        # Batch by batch, the later half of the batches worked out by the helper process when it
        # runs (vision.helper): the same batches give the same numbers bit for bit either way.
        parts = two_core_map(_batch_probabilities, [(self, rows[i:i + BATCH_ROWS]) for i in range(0, len(rows), BATCH_ROWS)])
        return np.concatenate(parts) if parts else np.zeros((0, len(self.classes)), np.float32)

    def _forward(self, rows: np.ndarray):
        p, (h, w), b = self.params, self.shape, len(rows)
        a0 = ((rows.reshape(b, h, w, 1) - self.mean) / self.scale).astype(np.float32)
        z1 = np.maximum(_im2col(a0) @ p["w1"] + p["b1"], 0).reshape(b, h, w, -1)
        q1 = _pool(z1)
        cols2 = _im2col(q1)
        z2 = np.maximum(cols2 @ p["w2"] + p["b2"], 0).reshape(b, h // 2, w // 2, -1)
        q2 = _pool(z2)
        flat = q2.reshape(b, -1)
        z3 = np.maximum(flat @ p["w3"] + p["b3"], 0)
        return z3 @ p["w4"] + p["b4"], (a0, z1, q1, cols2, z2, q2, flat, z3)

    def gradients(self, rows: np.ndarray, labels: np.ndarray, decay: float) -> dict[str, np.ndarray]:
        """Gradients of the mean cross-entropy (+ ``decay`` × L2 on the weights) for one batch."""
        p, b = self.params, len(rows)
        logits, (a0, z1, q1, cols2, z2, q2, flat, z3) = self._forward(rows)
        d = _softmax(logits)
        d[np.arange(b), labels] -= 1
        d /= b
        g = {"w4": z3.T @ d + decay * p["w4"], "b4": d.sum(0)}
        d = (d @ p["w4"].T) * (z3 > 0)
        g["w3"], g["b3"] = flat.T @ d + decay * p["w3"], d.sum(0)
        d = _unpool((d @ p["w3"].T).reshape(q2.shape), z2, q2) * (z2 > 0)
        d2 = d.reshape(-1, d.shape[-1])
        g["w2"], g["b2"] = cols2.T @ d2 + decay * p["w2"], d2.sum(0)
        d = _unpool(_col2im(d2 @ p["w2"].T, q1.shape), z1, q1) * (z1 > 0)
        d1 = d.reshape(-1, d.shape[-1])
        g["w1"], g["b1"] = _im2col(a0).T @ d1 + decay * p["w1"], d1.sum(0)
        return g

    def save(self, path: Path) -> None:
        """Write the network as ``.npz`` atomically (see :func:`vision.mlp.save_arrays`)."""
        save_arrays(path, "convnet", classes=np.array(self.classes), shape=np.array(self.shape),
                    mean=np.float32(self.mean), scale=np.float32(self.scale), **self.params)

    @staticmethod
    def load(path: Path) -> ConvNet | None:
        """The network saved at ``path``, or None when missing, unreadable or not a ConvNet."""
        data = load_arrays(path, "convnet")
        if data is None:
            return None
        try:
            return ConvNet(tuple(str(c) for c in data["classes"]), tuple(int(v) for v in data["shape"]),
                           float(data["mean"]), float(data["scale"]), {k: data[k] for k in PARAMS})
        except (KeyError, ValueError):
            return None


def fit_convnet(features: np.ndarray, labels: np.ndarray, classes: tuple[str, ...], *,
                shape: tuple[int, int], channels: tuple[int, int] = (16, 32), hidden: int = 256,
                epochs: int = 6, batch: int = 128, rate: float = 2e-3, decay: float = 1e-5,
                seed: int = 0) -> ConvNet:
    """Train a :class:`ConvNet` by Adam (cosine-decayed ``rate``) on cross-entropy with L2
    ``decay``, every row counting the same. Deterministic for a seed. ``features`` may be float16
    or a memory map (each batch is read as float32)."""
    h, w = shape
    if h % 4 or w % 4:
        raise ValueError(f"input shape {shape}: both sides must be divisible by 4")
    rng = np.random.default_rng(seed)
    c1, c2 = channels
    k = len(classes)

    def he(a: int, b: int) -> np.ndarray:
        return rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32)

    params = {"w1": he(9, c1), "b1": np.zeros(c1, np.float32),
              "w2": he(9 * c1, c2), "b2": np.zeros(c2, np.float32),
              "w3": he(c2 * (h // 4) * (w // 4), hidden), "b3": np.zeros(hidden, np.float32),
              "w4": he(hidden, k), "b4": np.zeros(k, np.float32)}
    mean, std = feature_moments(features)
    net = ConvNet(tuple(classes), (h, w), mean, std + 1e-3, params)
    y = labels.astype(np.int64)

    def batches():
        for epoch in range(epochs):
            lr = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
            for idx in np.array_split(rng.permutation(len(y)), max(1, len(y) // batch)):
                yield idx, lr

    _adam(net, features, y, batches(), decay)
    return net


def anneal_convnet(net: ConvNet, features: np.ndarray, labels: np.ndarray, *, rate: float, epochs: int = 1,
                   batch: int = 128, decay: float = 1e-5, seed: int = 0) -> ConvNet:
    """A copy of ``net`` trained further by Adam (fresh moments) on cross-entropy with L2 ``decay``,
    at a rate falling from ``rate`` to 0 by a cosine over every batch of ``epochs`` passes over the
    rows. Why: :func:`fit_convnet` lowers its rate once per epoch, so a fit of few epochs ends at
    half its rate, its weights still jittering around the minimum; a last stretch at a rate that
    falls to nothing settles them. Deterministic for a ``seed`` and data; ``net`` is not changed."""
    tuned = ConvNet(net.classes, net.shape, net.mean, net.scale, {n: v.copy() for n, v in net.params.items()})
    rng = np.random.default_rng(seed)
    y = labels.astype(np.int64)
    order = [idx for _ in range(epochs) for idx in np.array_split(rng.permutation(len(y)), max(1, len(y) // batch))]
    rates = rate * 0.5 * (1 + np.cos(np.pi * np.arange(len(order)) / max(1, len(order))))
    _adam(tuned, features, y, zip(order, rates), decay)
    return tuned


def _adam(net: ConvNet, features: np.ndarray, y: np.ndarray, batches, decay: float) -> None:
    """Adam steps on ``net``'s parameters in place, one per ``(row indices, rate)`` of ``batches``."""
    params = net.params
    m1 = {n: np.zeros_like(v) for n, v in params.items()}
    m2 = {n: np.zeros_like(v) for n, v in params.items()}
    step = 0
    for idx, lr in batches:
        grads = net.gradients(np.asarray(features[idx], np.float32), y[idx], decay)
        step += 1
        for n, v in params.items():
            m1[n] = 0.9 * m1[n] + 0.1 * grads[n]
            m2[n] = 0.999 * m2[n] + 0.001 * grads[n] * grads[n]
            v -= lr * (m1[n] / (1 - 0.9 ** step)) / (np.sqrt(m2[n] / (1 - 0.999 ** step)) + 1e-8)


def feature_moments(features: np.ndarray, block: int = 100_000) -> tuple[float, float]:
    """Mean and standard deviation of every value of ``features`` (rows of any float type, a
    memory map too), summed in float64 a block of rows at a time: numpy sums float16 in float16,
    which overflows, and a float32 copy of a memory-mapped training set is what mapping it avoids."""
    total = squares = 0.0
    for start in range(0, len(features), block):
        rows = np.asarray(features[start:start + block], np.float64)
        total, squares = total + rows.sum(), squares + np.square(rows).sum()
    count = max(1, np.size(features))
    mean = total / count
    return float(mean), float(np.sqrt(max(0.0, squares / count - mean * mean)))


def strip_frames(image: np.ndarray, w: int) -> np.ndarray:
    """One row per column of a strip ``image`` (h × width): the ``w`` columns centred on it (zero
    beyond the strip, before the network's normalisation), flattened (``width × h·w``)."""
    rows, width = image.shape
    half = w // 2
    padded = np.zeros((rows, width + w), image.dtype)  # zero on both sides, as np.pad
    padded[:, half:half + width] = image
    windows = sliding_window_view(padded, w, axis=1)[:, :width]
    return np.ascontiguousarray(windows.transpose(1, 0, 2).reshape(width, -1))


def _strip_pooled(net: ConvNet, image: np.ndarray) -> np.ndarray:
    """Every frame's second pooling, flattened as the dense layers take it (``width ×
    h/4·w/4·channels``), worked out over the strip (see :meth:`ConvNet.strip_probabilities`).

    Frame ``x`` covers the padded strip's columns ``x .. x+w-1``. Its first convolution at frame
    column ``j`` is the strip's at column ``x+j``, except at ``j = 0`` and ``j = w-1``, where the
    frame's zero padding replaces the column beyond (``left``, ``right``). Its first pooling's column
    ``k`` pools frame columns ``2k, 2k+1``: the strip's pooling at ``x+2k`` for ``0 < k < w/2-1``,
    the two edge ones apart. Its second convolution at pooled column ``k`` takes pooled columns
    ``k-1 .. k+1``: for ``1 < k < w/2-2`` the strip's, two strip columns apart, at ``x+2k``; the
    four columns nearest the frame's edges are worked out frame by frame. Its second pooling's
    column ``m``: the strip's at ``x+4m`` (two of them apart) inside, the edge ones from those four."""
    p, (h, w) = net.params, net.shape
    rows, width = image.shape
    if rows != h or w % 4:
        raise ValueError(f"a strip of {rows} rows for a network of {h} × {w} frames")
    raw = np.zeros((h, width + w), image.dtype)
    raw[:, w // 2:w // 2 + width] = image
    strip = ((np.asarray(raw, np.float32)[..., None] - net.mean) / net.scale).astype(np.float32)
    w1, w2 = _by_shift(p["w1"]), _by_shift(p["w2"])
    x = np.arange(width)
    everywhere = np.arange(strip.shape[1])
    conv1 = (_neighbour_rows(strip, everywhere, 1) @ w1).reshape(h, len(everywhere), -1)
    left = (_neighbour_rows(strip, x, 1, zero=0) @ w1).reshape(h, width, -1)
    right = (_neighbour_rows(strip, x + w - 1, 1, zero=2) @ w1).reshape(h, width, -1)
    pool1 = _pooled_pair(conv1[:, :-1], conv1[:, 1:], p["b1"])         # at X: strip columns X, X+1
    first = _pooled_pair(left, conv1[:, x + 1], p["b1"])                 # frame column 0
    last = _pooled_pair(conv1[:, x + w - 2], right, p["b1"])             # frame column w/2-1
    conv2 = (_neighbour_rows(pool1, np.arange(pool1.shape[1]), 2) @ w2).reshape(h // 2, pool1.shape[1], -1)
    n = w // 2  # pooled columns of a frame

    def pooled1(k: int) -> np.ndarray:  # the frames' first pooling at column k (h/2 × width × c)
        if k < 0 or k >= n:
            return np.zeros_like(first)
        return first if k == 0 else last if k == n - 1 else pool1[:, x + 2 * k]

    def edge_conv2(k: int) -> np.ndarray:  # the frames' second convolution at column k
        columns = [pooled1(k - 1), pooled1(k), pooled1(k + 1)]
        blank = np.zeros_like(first[:1])
        padded = [np.concatenate([blank, c, blank]) for c in columns]
        shifts = [padded[kx][ky:ky + h // 2] for ky in range(3) for kx in range(3)]
        return (np.concatenate(shifts, axis=-1).reshape(h // 2 * width, -1) @ w2).reshape(h // 2, width, -1)

    pooled2 = [_pooled_pair(edge_conv2(0), edge_conv2(1), p["b2"])]
    pooled2 += [_pooled_pair(conv2[:, x + 4 * m], conv2[:, x + 4 * m + 2], p["b2"]) for m in range(1, n // 2 - 1)]
    pooled2.append(_pooled_pair(edge_conv2(n - 2), edge_conv2(n - 1), p["b2"]))
    return np.ascontiguousarray(np.stack(pooled2, axis=2).transpose(1, 0, 2, 3)).reshape(width, -1)


def _neighbour_rows(x: np.ndarray, centres: np.ndarray, step: int, zero: int | None = None) -> np.ndarray:
    """The rows :func:`_shifted_rows` gives a 'same' 3×3 convolution of ``x`` (H × W × C), at every
    row and the columns ``centres``, their horizontal neighbours ``step`` columns away (zero beyond
    ``x``; the neighbours of kernel column ``zero`` zero throughout). Rows ordered row, centre."""
    h, width, c = x.shape
    padded = np.zeros((h + 2, width + 2 * step, c), x.dtype)
    padded[1:-1, step:step + width] = x
    at = np.asarray(centres) + step
    shifts = [np.zeros((h, len(at), c), x.dtype) if kx == zero else padded[ky:ky + h][:, at + (kx - 1) * step]
              for ky in range(3) for kx in range(3)]
    return np.concatenate(shifts, axis=-1).reshape(h * len(at), 9 * c)


def _pooled_pair(a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """:func:`_pooled_activation` of the column pairs ``a``, ``b`` (H × n × C each, H even): the
    maximum over both columns and row pairs, plus ``bias``, ReLU (H/2 × n × C)."""
    top = np.maximum(np.maximum(a[0::2], a[1::2]), np.maximum(b[0::2], b[1::2]))
    top += bias
    return np.maximum(top, 0, out=top)


def _batch_probabilities(net: ConvNet, rows: np.ndarray) -> np.ndarray:
    """The probabilities of one batch of ``rows`` by ``net`` (:meth:`ConvNet.probabilities`)."""
    return _softmax(net.logits(rows))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def _im2col(x: np.ndarray) -> np.ndarray:
    """``x`` (B, H, W, C) → (B·H·W, C·9): each pixel's 3×3 neighbourhood (zero padded), ordered
    channel, row, column — the rows a 'same' 3×3 convolution multiplies by its weights."""
    b, h, w, c = x.shape
    windows = sliding_window_view(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))), (3, 3), axis=(1, 2))
    return windows.reshape(b * h * w, c * 9)


def _shifted_rows(x: np.ndarray) -> np.ndarray:
    """:func:`_im2col`'s rows with their columns ordered row, column, channel (the 3×3 shifts of
    ``x`` laid side by side: one contiguous copy, not a strided gather); multiply by
    :func:`_by_shift` of the weights."""
    b, h, w, c = x.shape
    padded = np.zeros((b, h + 2, w + 2, c), x.dtype)  # zero padded, as np.pad would, without its overhead
    padded[:, 1:-1, 1:-1] = x
    shifts = [padded[:, ky:ky + h, kx:kx + w, :] for ky in range(3) for kx in range(3)]
    return np.concatenate(shifts, axis=-1).reshape(b * h * w, 9 * c)


def _by_shift(weights: np.ndarray) -> np.ndarray:
    """3×3 convolution ``weights`` (rows ordered channel, row, column, as :func:`_im2col`) with
    their rows reordered row, column, channel, as :func:`_shifted_rows`."""
    c = len(weights) // 9
    return weights.reshape(c, 9, -1).transpose(1, 0, 2).reshape(9 * c, -1)


def _col2im(d: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The adjoint of :func:`_im2col`: gradients on the columns summed back onto (B, H, W, C)."""
    b, h, w, c = shape
    d = d.reshape(b, h, w, c, 3, 3)
    out = np.zeros((b, h + 2, w + 2, c), np.float32)
    for ky in range(3):
        for kx in range(3):
            out[:, ky:ky + h, kx:kx + w, :] += d[..., ky, kx]
    return out[:, 1:-1, 1:-1, :]


def _pool(x: np.ndarray) -> np.ndarray:
    """2×2 max-pooling of (B, H, W, C)."""
    b, h, w, c = x.shape
    return x.reshape(b, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def _pooled_activation(y: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """``_pool(ReLU(y + bias))`` of (B, H, W, C), computed as ``ReLU(max + bias)`` over the 2×2 maxima:
    adding a constant (rounded) and the ReLU never reorder values, so they commute with the maximum
    and the result is the same bit for bit, on a quarter of the values (the maxima taken over four
    strided views, not a reshaped reduction)."""
    top = np.maximum(y[:, 0::2, 0::2], y[:, 0::2, 1::2])
    top = np.maximum(top, np.maximum(y[:, 1::2, 0::2], y[:, 1::2, 1::2]))
    top += bias
    return np.maximum(top, 0, out=top)


def _unpool(d: np.ndarray, x: np.ndarray, pooled: np.ndarray) -> np.ndarray:
    """The gradient ``d`` on :func:`_pool`'s output sent back to the maxima of its input ``x``."""
    def up(a: np.ndarray) -> np.ndarray:
        return np.repeat(np.repeat(a, 2, 1), 2, 2)
    return (x == up(pooled)) * up(d)
