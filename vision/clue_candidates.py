"""Every clue a cage can carry, scored by what its label looked like: alternatives the reader's
beam search did not keep.

Why: the whole-label reader (:mod:`vision.label_reader`) keeps the few texts its beam search found
likeliest, whatever the cage. On a blurred photo the printed clue is often not among them while the
reader's frame probabilities still favour it over every other clue *this cage can carry* ("2449+"
cannot be the sum of two digits; "2688×" can be a product of four). Here the cage's size and the
grid's N give the candidate targets (:func:`solver.cage_tuples.possible_targets`); each candidate's
text is scored against the label's frames by the CTC forward sum
(:func:`vision.label_reader.text_scores`), on the same scale as the reader's own best text; the
likeliest few that are not already alternatives are added, with probabilities relative to the
best reading's. The solver in the loop then chooses among them (:mod:`vision.reconcile`).

Example::

    alts = widened(readings[(0, 0)], cells=((0, 0), (0, 1)), size=6, operators_shown=True)
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.cage_tuples import possible_targets

from .label_reader import text_scores
from .model import Cell, ClueReading

EXTRA = 24
"""Candidates added per cage at most. Many, because on a blurred photo the printed clue is often far
down the list and the solver is what tells them apart (true-corner readings of 81 generated hand-held
photos, seed 1100, whole boards right: 6 and 1e-3 → 58, 12 and 1e-4 → 60, 24 and 1e-6 → 62 with
the stratified search of :mod:`solver.alternatives`; hard photos 30 → 31 → 33 of 78)."""
MIN_RATIO = 1e-6
"""A candidate less likely than this share of the best reading — or of the likeliest clue the cage
can carry, when the reader's best is one it cannot ("19+" on two cells) — is not added."""
DIGIT_SPREAD = 1
"""Candidates whose number has more digits than the best reading's by more than this are not
scored (big products are many; the scorer's cost grows with their count)."""
WIDE_EXTRA, WIDE_MIN_RATIO = 200, 1e-12
"""The wider list (:func:`widened` with these) that the solver in the loop searches when none of the
narrower list's readings has exactly one solution (see :mod:`vision.reconcile`)."""
UNREAD_SHARE = 0.3
"""Probability given to the best candidate of a label that the reader spelled as nothing."""


def clue_text(op: str, target: int) -> str:
    """A clue as the label reader spells it ("12*"; a bare "12" for an unseen operator or a digit)."""
    return f"{target}{op}" if op in "+-*/" else str(target)


def label_scorer(readings: dict[Cell, ClueReading],
                 cages: list[tuple[Cell, ...]]) -> Callable[[int, list[str]], np.ndarray | None]:
    """``score(i, texts)``: how much the label of cage ``i`` (its first cell's reading) looks like each
    of ``texts`` (:func:`vision.label_reader.text_scores`), or None when it has no frames (for
    :func:`vision.reconcile.reconcile`)."""
    def score(i: int, texts: list[str]) -> np.ndarray | None:
        frames = readings[cages[i][0]].frames
        return None if frames is None else text_scores(frames, texts)
    return score


def widened(reading: ClueReading, cells: tuple[Cell, ...], size: int, operators_shown: bool,
            long_minus_divide: bool = True, extra: int = EXTRA,
            min_ratio: float = MIN_RATIO) -> list[tuple[str, int, float]]:
    """The reading's alternatives and up to ``extra`` more that a cage of ``cells`` on an N = ``size``
    grid can carry (every digit for a single cell), none less likely than ``min_ratio`` of the best
    (see MIN_RATIO), best first; the reading's own alternatives unchanged when it has no frames."""
    alts = list(reading.alternatives)
    if reading.frames is None:
        return alts
    k = len(cells)
    if k == 1:
        ops = ("=",)
    elif operators_shown:
        ops = ("+", "*", "-", "/") if (k == 2 or long_minus_divide) else ("+", "*")
    else:
        ops = ("?",)
    digits = len(str(alts[0][1])) if alts else 2
    seen = {a[:2] for a in alts}
    carriable = [(op, t) for op in ops for t in possible_targets(op, size, k, long_minus_divide,
                                                                 at_most=10 ** (digits + DIGIT_SPREAD) - 1)]
    candidates = [(op, t) for op, t in carriable if (op, t) not in seen]
    if not candidates:
        return alts
    texts = [clue_text(op, t) for op, t in candidates]
    carried = next((k for k, a in enumerate(alts) if a[:2] in carriable), None)
    scored = text_scores(reading.frames, texts + [clue_text(*a[:2]) for a in alts])
    scores, own = scored[:len(texts)], scored[len(texts):]
    if alts:
        base = float(own[0])
        # A candidate is as likely as the reading the frames favour most, times how much less the
        # frames favour it: the reader's best can owe its place to tesseract (a "4" over the
        # frames' "1"), and candidates measured against it ("18", "10" there) would be as likely
        # as it, each as good a choice for the solver as what was read.
        ref = int(np.argmax(own))
        ref_score, ref_p = float(own[ref]), alts[ref][2]
    else:
        base = ref_score = float(scores.max())
        ref_p = UNREAD_SHARE
    # Kept: within MIN_RATIO of the reader's best, or of the likeliest clue this cage can carry
    # (the reader's best that it can carry, or the best candidate) when that is less likely.
    likeliest = max(float(scores.max()), float(own[carried]) if carried is not None else -np.inf)
    cut = min(base, likeliest) + np.log(min_ratio)
    if k == 1:
        cut = -np.inf  # a given digit is one of only N: every one stays a choice for the solver
    order = np.argsort(-scores)[:extra]
    added = [(candidates[i][0], candidates[i][1], float(f"{ref_p * np.exp(min(0.0, scores[i] - ref_score)):.4g}"))
             for i in order if scores[i] >= cut]
    return sorted(alts + added, key=lambda a: -a[2])
