"""Reading a clue label as a whole line of text, without cutting it into glyphs first.

Why: on hand-held and hard photos a clue label is 4–8 pixels tall; its digits blur into each other
and a "1" next to a "4" is one blob, so cutting glyphs first and classifying them after fails on
most labels. Here a small model looks at every column of the label and the clue grammar decides
where characters are (the way speech and handwriting recognisers read: a "blank" class between
characters, decoded by a prefix beam search — connectionist temporal classification decoding).

Algorithm, per label found by :func:`vision.clues.label_glyphs`:

1. *Strip* (:func:`label_strip`): the label's own ink (walls and grid lines already removed), from
   SIDE label-heights before its first glyph to SIDE after its last, from ABOVE above its digits'
   top to BELOW below their bottom, resized to STRIP_H rows (its width follows), contrast
   normalised.
2. *Frames* (:func:`frame_features`): for every column of the strip, the window of WINDOW columns
   centred on it. A small convolutional network (:mod:`vision.convnet`, fitted four times by
   :mod:`vision.label_training`, the fits read together) gives each frame probabilities over the
   14 clue characters (``0-9 + - * /``) and BLANK.
3. *Decoding* (:func:`decode`): prefix beam search over the frames; repeated characters collapse
   unless a blank separates them; only clue-shaped texts survive (1..MAX_DIGITS digits without a
   leading zero, then at most one operator). The result is the most likely texts with
   probabilities that sum to 1 over the beam.

Example::

    frames = label_frames([label], label_model())[0]
    decode(frames)                                   # [('12*', 0.93), ('12+', 0.05), ...]
    text_scores(frames, ['12*', '12+'])              # log-likelihoods of texts of our choosing
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .convnet import strip_frames
from .glyphs import CLUE_CLASSES, OPERATORS
from .quantiles import percentile

if TYPE_CHECKING:  # label_training imports this module
    from .convnet import ConvNet
    from .label_training import LabelModel

STRIP_H = 24
"""Strip height in pixels: ABOVE + 1 + BELOW label-heights."""
ABOVE, BELOW = 0.3, 0.3
"""Rows above and below the digits kept in the strip, in label-heights (operators and descenders).
Strips framed otherwise and read beside this one, their frame probabilities averaged (test-time
framing: 0.1 label-heights up or down, 12 % taller or 10 % shorter, half a column left or right),
read no more labels right (fifty-second round, 7,840 held-out labels, hand-held / hard: this framing
alone 92.6 / 79.7 %, averaged with the shifted ones 91.9–92.5 / 79.0–79.5 %; each shift alone worse,
down to 88.2 / 72.2 %)."""
SIDE = 0.5
"""Columns kept before the first and after the last glyph, in label-heights."""
OPERATOR_REACH = 1.0
"""How far past its last glyph, in label-heights, a label's strip may reach toward the puzzle's
widest label end (about one operator glyph and its gap)."""
WINDOW = 24
"""Columns a frame sees (about two and a half digits at STRIP_H). 12 read 1–2 points fewer labels
right than 16. 16 → 24, two networks each (seeds 3, 4), boards exact over the hand-held and hard
photos of the five 300-photo sets (seeds 8383, 7474, 6161, 5252, 3131): hand-held 445 → 448, hard
328 → 335 of 495, right and confident 337/142 → 347/145 (docs/HISTORY.md, twenty-seventh round)."""
FINE_BLUR = 1.0
"""Gaussian blur (strip pixels) of a strip cut from a label's fine ink (``label.fine``): the
networks learnt labels from patches, softer than a phone photo's label at its own resolution, and
read a crisp thin "+" as "/" (k1313-0072 "17+", "23+"); blurred by 0.8–1.2 they read them right."""
SHARPEN, SHARPEN_SIGMA = 0.5, 1.0
"""A strip read (not one the networks learn from) is sharpened first: SHARPEN times its difference
from itself blurred by SHARPEN_SIGMA strip pixels is added (an unsharp mask, :func:`sharpened`).
Hand-held photos blur a label more than the networks' training strips are blurred. Sixtieth round,
the networks a fresh machine fitted the round before: set on seeds 8383 and 7474's hand-held photos
(boards exact 183 → 185 of 198 at 0.5 and 1.0, none lost; 1.0 and 1.0 gave 182, 0.5 and 2.0 184);
then over the five sets and seed 9494, boards exact hand-held 448 → 453 of 495 (six won, one lost;
on the held-out seeds 6161, 5252, 3131 and 9494 four won, one lost), hard 355 → 354 (eleven won,
twelve lost), clean 508 → 508, none confident and wrong; the 12-megapixel seed 1313, realdev
and 120 Kakuro photos (seed 6868) read the same boards."""
BLANK = "_"
STRIP_CLASSES = CLUE_CLASSES + (BLANK,)
MAX_DIGITS = 7
"""Longest clue number read (a 6-cell product on a 16×16 has 8 digits at most; 7 covers real ones)."""
INSERTION = 0.05
"""Factor on the probability of every new character: below 1 penalises characters read into the
blur between two (measured on generated photos, seed 900: hand-held labels 76% → 87% right,
from 1 down to 0.1 and flat to 0.003). With the annealed networks (clue-strips-v7), 400 held-out
puzzles' labels read right 87.1 / 88.1 / 88.4 / 88.5 % at 0.005 / 0.02 / 0.05 / 0.08; the true
text's mean negative log-probability 0.747 at 0.02, 0.750 at 0.05, 0.770 at 0.08. At 0.08 the
realdev 9×9 screenshot read a "9÷" as "9−" (put right, but no longer confident); at 0.05 it does not."""
BLANK_BOOST = 1.0
"""Factor on the blank class's frame probability before decoding."""
BEAM = 12
"""Prefixes kept by the beam search."""


@dataclass(frozen=True, eq=False)
class Strip:
    """A label resized to STRIP_H rows: ``image`` (darkness 0..1) and where it came from, so that
    a patch x coordinate ``x`` is strip column ``(x - x0) * scale``."""

    image: np.ndarray
    x0: float
    scale: float


def label_strip(label, left: float | None = None, right: float | None = None) -> Strip:
    """The strip of a :class:`vision.clues.Label` (see the module docstring), from its fine ink when
    it has one (``label.fine``, a phone photo's label at its own resolution); with ``left`` it
    starts no later than SIDE label-heights before that patch column (where this puzzle's labels
    start: a faint first digit the label finder missed is read too); with ``right`` (where this
    puzzle's widest label ends) it ends no sooner than SIDE after that column, or OPERATOR_REACH
    label-heights after the last glyph when that is nearer (a faint operator the label finder
    missed is read too)."""
    h = max(2.0, float(label.height))
    x_lo = min([g.box[0] for g in label.glyphs] + ([left] if left is not None else [])) - SIDE * h
    last = max(g.box[2] for g in label.glyphs)
    x_hi = max(last, min(right, last + OPERATOR_REACH * h) if right is not None else last) + SIDE * h
    y_lo = label.top - ABOVE * h
    y_hi = label.top + (1 + BELOW) * h
    ink, f = label.fine or (label.ink, 1)
    pad = (int(np.ceil(SIDE * h)) + 2) * f
    padded = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    scale = STRIP_H / (y_hi - y_lo)
    width = max(WINDOW, int(round((x_hi - x_lo) * scale)))
    # Strip column = (patch x - x_lo) * scale, patch x = (ink x + 0.5) / f - 0.5 (f > 1: the fine ink).
    k = scale / f
    shift = (0.5 / f - 0.5) * scale
    m = np.float32([[k, 0, -pad * k + shift - x_lo * scale], [0, k, -pad * k + shift - y_lo * scale]])
    if k < 1:
        padded = cv2.GaussianBlur(padded, (0, 0), 0.5 / k)
    image = cv2.warpAffine(padded, m, (width, STRIP_H), flags=cv2.INTER_LINEAR, borderValue=0)
    if f > 1:
        image = cv2.GaussianBlur(image, (0, 0), FINE_BLUR)
    return Strip(_normalised(image), float(x_lo), float(scale))


def _normalised(image: np.ndarray) -> np.ndarray:
    """``image`` over its 99th percentile (at least 0.15), clipped to 0..1, float32: a strip's
    contrast as the networks see it."""
    peak = max(0.15, float(percentile(image, 99)))
    return np.clip(image / peak, 0, 1).astype(np.float32)


def sharpened(strip: Strip) -> Strip:
    """``strip`` with its image unsharp-masked (SHARPEN, SHARPEN_SIGMA) and normalised again as
    :func:`label_strip` normalises it (:func:`_normalised`): what :func:`label_frames` reads."""
    if not SHARPEN:
        return strip
    image = strip.image
    sharp = np.clip(image + SHARPEN * (image - cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA)), 0, None)
    return Strip(_normalised(sharp), strip.x0, strip.scale)


def frame_features(strip: Strip) -> np.ndarray:
    """One row per strip column: the WINDOW columns centred on it (zero beyond the strip),
    flattened (``width × STRIP_H·WINDOW`` float32)."""
    return strip_frames(strip.image, WINDOW)


def _allowed(prefix: str, ch: str) -> bool:
    """Whether ``prefix + ch`` can start a clue: digits without a leading zero, then one operator."""
    if prefix and prefix[-1] in OPERATORS:
        return False
    if ch in OPERATORS:
        return bool(prefix)
    return (bool(prefix) or ch != "0") and len(prefix) < MAX_DIGITS


_PREFIX_KINDS = {"empty": "", "open": "1", "full": "1" * MAX_DIGITS, "closed": "1" + OPERATORS[0]}
"""A prefix of each kind that :func:`_allowed` tells apart: empty, digits that may go on, as many
digits as a clue has, ended by an operator."""


def _prefix_kind(prefix: str) -> str:
    """Which of _PREFIX_KINDS ``prefix`` is (what :func:`_allowed` lets follow it is the same)."""
    if not prefix:
        return "empty"
    if prefix[-1] in OPERATORS:
        return "closed"
    return "open" if len(prefix) < MAX_DIGITS else "full"


def decode(probs: np.ndarray, classes: tuple[str, ...] = STRIP_CLASSES, beam: int = BEAM,
           keep: int = 8, insertion: float | None = None, blank_boost: float | None = None) -> list[tuple[str, float]]:
    """The ``keep`` likeliest clue texts for frame probabilities ``probs`` (T × len(classes)),
    as ``(text, probability)`` normalised over the texts of the final beam; empty when no text is
    likelier than none."""
    insertion = INSERTION if insertion is None else insertion
    blank_boost = BLANK_BOOST if blank_boost is None else blank_boost
    blank = classes.index(BLANK)
    index = {c: i for i, c in enumerate(classes)}
    probs = probs.astype(np.float64).copy()
    probs[:, blank] *= blank_boost
    probs /= probs.sum(1, keepdims=True)
    likely_rows = [[k for k in np.flatnonzero(r > 1e-3).tolist() if k != blank] for r in probs]
    beams: dict[str, tuple[float, float]] = {"": (1.0, 0.0)}
    for row, likely in zip(probs.tolist(), likely_rows):  # Python floats: no numpy scalar per step
        nxt: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        # What may follow a prefix depends only on its kind (see _allowed), so the likely characters
        # are sifted once per kind and frame, not once per prefix and character.
        after = {kind: [(k, classes[k]) for k in likely if _allowed(example, classes[k])]
                 for kind, example in _PREFIX_KINDS.items()}
        for prefix, (pb, pnb) in beams.items():
            total = pb + pnb
            nxt[prefix][0] += total * row[blank]
            if prefix:
                nxt[prefix][1] += pnb * row[index[prefix[-1]]]
            for k, ch in after[_prefix_kind(prefix)]:
                extended = nxt[prefix + ch]
                extended[1] += (pb if prefix and prefix[-1] == ch else total) * row[k] * insertion
        ranked = sorted(nxt.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:beam]
        mass = sum(pb + pnb for _, (pb, pnb) in ranked) or 1.0
        beams = {p: (pb / mass, pnb / mass) for p, (pb, pnb) in ranked}
    found = [(p, pb + pnb) for p, (pb, pnb) in beams.items() if p]
    total = sum(s for _, s in found)
    if total <= sum(beams.get("", (0.0, 0.0))):
        return []  # more likely nothing at all than any text
    return [(p, s / total) for p, s in sorted(found, key=lambda kv: -kv[1])[:keep]]


def without_operators(probs: np.ndarray, classes: tuple[str, ...] = STRIP_CLASSES) -> np.ndarray:
    """Frame probabilities ``probs`` (T × len(classes)) with the operators' share set to zero, for
    :func:`decode` (which renormalises each frame) to read a label as a bare number: what the
    frames read as an operator is then the likeliest digit or blank there."""
    out = probs.copy()
    out[:, [classes.index(op) for op in OPERATORS]] = 0.0
    return out


def text_scores(probs: np.ndarray, texts: list[str], classes: tuple[str, ...] = STRIP_CLASSES,
                insertion: float | None = None) -> np.ndarray:
    """Natural-log likelihood of each of ``texts`` given frame probabilities ``probs`` (T ×
    len(classes)): the total probability of every frame-by-frame spelling of the text (blanks
    between and around characters, repeats collapsing, a blank needed between equal characters —
    the CTC forward sum), times INSERTION per character as :func:`decode` counts it. All texts are
    scored at once; comparable with each other and with :func:`decode`'s ranking."""
    insertion = INSERTION if insertion is None else insertion
    blank = classes.index(BLANK)
    index = {c: i for i, c in enumerate(classes)}
    if not texts:
        return np.zeros(0)
    lengths = np.array([len(t) for t in texts])
    span = 2 * int(lengths.max()) + 1
    # Extended sequences: blank, c1, blank, c2, ..., blank (padded with blanks).
    symbols = np.full((len(texts), span), blank, np.int64)
    for k, text in enumerate(texts):
        symbols[k, 1:2 * len(text):2] = [index[ch] for ch in text]
    skip = np.zeros_like(symbols, bool)  # may jump from s-2 to s (a character unlike the one before)
    skip[:, 3::2] = symbols[:, 3::2] != symbols[:, 1:-2:2]
    valid = np.arange(span)[None, :] < (2 * lengths + 1)[:, None]
    p = np.maximum(probs.astype(np.float64), 1e-12)
    emit = p[:, symbols] * valid  # T × texts × span: each frame's probability of each symbol
    jump = skip[:, 2:]
    alpha = np.zeros(symbols.shape)
    alpha[:, 0] = p[0, blank]
    alpha[:, 1] = p[0, symbols[:, 1]]
    alpha *= valid
    log_scale = np.zeros(len(texts))
    for t in range(1, len(p)):
        step = alpha.copy()
        step[:, 1:] += alpha[:, :-1]
        step[:, 2:] += np.where(jump, alpha[:, :-2], 0.0)
        alpha = step * emit[t]
        peak = alpha.max(1, keepdims=True)
        peak[peak == 0] = 1.0
        alpha /= peak
        log_scale += np.log(peak[:, 0])
    rows = np.arange(len(texts))
    last = alpha[rows, 2 * lengths] + alpha[rows, 2 * lengths - 1]
    return np.log(np.maximum(last, 1e-300)) + log_scale + lengths * np.log(insertion)


def label_frames(labels: list, model: LabelModel | ConvNet, left: float | None = None,
                 right: float | None = None) -> list[np.ndarray]:
    """Each label's frame probabilities (strip columns × STRIP_CLASSES) by ``model`` (a
    :class:`vision.label_training.LabelModel` or one network of it), strips starting no later than
    ``left`` and reaching toward ``right`` (see :func:`label_strip`); the frames of all labels go
    through the model in one batch."""
    if not labels:
        return []
    strips = [sharpened(label_strip(label, left, right)).image for label in labels]
    order = [model.classes.index(c) for c in STRIP_CLASSES]
    probs = model.strip_probabilities(strips)[:, order]
    return np.split(probs, np.cumsum([strip.shape[1] for strip in strips])[:-1])


def operator_start(label, probs: np.ndarray, left: float | None = None) -> float | None:
    """The patch x where the operator of ``label`` starts as its frame probabilities ``probs`` (from
    a strip starting no later than ``left``, as :func:`label_frames` made them) read it: the first
    strip column whose likeliest class is an operator, back in patch columns; None when no column
    reads an operator. The training marks a character's middle CORE columns, so this is a little
    inside the operator's ink, after its left edge and well after the number's last digit."""
    best = probs.argmax(1)
    ops = [STRIP_CLASSES.index(op) for op in OPERATORS]
    columns = np.flatnonzero(np.isin(best, ops))
    if not len(columns):
        return None
    strip = label_strip(label, left)
    return strip.x0 + float(columns[0]) / strip.scale


def split_clue(text: str) -> tuple[int, str | None]:
    """``'12*'`` → ``(12, '*')``; ``'7'`` → ``(7, None)``. ``text`` is a decoded clue text."""
    if text and text[-1] in OPERATORS:
        return int(text[:-1]), text[-1]
    return int(text), None
