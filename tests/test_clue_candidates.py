"""Scoring texts against the whole-label reader's frames, and the clues a cage can carry."""
from __future__ import annotations

import numpy as np

from solver.cage_tuples import possible_targets, satisfies
from vision.clue_candidates import widened
from vision.label_reader import decode, text_scores
from vision.model import ClueReading

from test_label_reader import _frames


def test_text_scores_agree_with_the_decoder_and_prefer_what_was_spelled():
    frames = _frames("__1122__*_", 0.8)
    texts = ["12*", "12", "12+", "112*", "2*"]
    scores = text_scores(frames, texts)
    assert np.argmax(scores) == 0
    assert decode(frames)[0][0] == "12*"
    # Equal digits need a blank between them: "11" is far less likely than "1" here.
    single = text_scores(_frames("_11_", 0.9), ["1", "11"])
    assert single[0] > single[1] + 2


def test_text_scores_sum_over_spellings_like_a_brute_force_count():
    rng = np.random.default_rng(4)
    from vision.label_reader import STRIP_CLASSES, BLANK
    probs = rng.dirichlet(np.ones(len(STRIP_CLASSES)), size=4)
    blank = STRIP_CLASSES.index(BLANK)
    # Every frame-by-frame spelling of 4 frames, collapsed CTC-style, summed per text.
    import itertools
    totals: dict[str, float] = {}
    for path in itertools.product(range(len(STRIP_CLASSES)), repeat=4):
        text, last = "", None
        for k in path:
            if k != blank and k != last:
                text += STRIP_CLASSES[k]
            last = k
        totals[text] = totals.get(text, 0.0) + float(np.prod([probs[t, k] for t, k in enumerate(path)]))
    for text in ("7", "12", "3+", "55"):
        assert np.isclose(text_scores(probs, [text], insertion=1.0)[0], np.log(totals[text]))


def test_possible_targets_hold_every_clue_of_real_tuples():
    import itertools
    for op in "+*-/":
        for k in (2, 3):
            # Two cells share a row or a column: their digits differ.
            reachable = {t for vals in itertools.product(range(1, 7), repeat=k) if k > 2 or len(set(vals)) == k
                         for t in range(0, 400) if satisfies(op, t, vals, True)}
            assert reachable <= set(possible_targets(op, 6, k, True)), (op, k)
    assert possible_targets("-", 6, 3, False) == ()
    assert possible_targets("=", 5, 1) == (1, 2, 3, 4, 5)


def test_widened_adds_the_clues_this_cage_can_carry_that_the_beam_left_out():
    # The label looks like "2449+": impossible on two cells of a 6×6; "24×" and "24+"-like texts
    # the cage can carry are added, the reading's own alternatives kept first.
    frames = _frames("_22_44_99_++_", 0.6)
    reading = ClueReading((0, 0), (("+", 2449, 0.7), ("*", 2449, 0.2)), frames)
    alts = widened(reading, ((0, 0), (0, 1)), 6, operators_shown=True)
    assert alts[0] == reading.alternatives[0]
    assert [a for a in alts if a in reading.alternatives] == list(reading.alternatives)
    extra = [a for a in alts if a not in reading.alternatives]
    assert extra and all(p <= 0.7 for _, _, p in extra)
    assert all(t in possible_targets(op, 6, 2) for op, t, _ in extra)
    assert ("*", 24) in {a[:2] for a in extra}
    # Without frames nothing is added.
    assert widened(ClueReading((0, 0), reading.alternatives), ((0, 0), (0, 1)), 6, True) == list(reading.alternatives)


def test_widened_keeps_clues_the_cage_can_carry_when_the_best_reading_is_one_it_cannot():
    # "19+" read sharply on two cells of a 6×6 (sums 3..11): every clue the cage can carry is far
    # less likely than it, but one of them is the printed clue; the likeliest are offered.
    reading = ClueReading((0, 0), (("+", 19, 0.9), ("*", 19, 0.05)), _frames("_11_99_++_", 0.95))
    alts = widened(reading, ((0, 0), (0, 1)), 6, operators_shown=True)
    extra = alts[2:]
    assert alts[:2] == list(reading.alternatives) and extra
    assert extra[0][:2] == ("+", 9) and all(t in possible_targets(op, 6, 2) for op, t, _ in extra)
    assert all(0 < p < 0.01 for _, _, p in extra)  # still far less likely than what was read


def test_widened_measures_candidates_against_the_reading_the_frames_favour():
    # A clean screenshot's "1" (no operators printed): tesseract's "4" came first, the frames spell
    # "1" with a faint mark after it. Candidates such as "18" are less likely than the "1" the
    # frames favour, not as likely as the "4" (then each would be as good a choice as what was read).
    frames = _frames("__11__8___", 0.9)
    frames[6] = 0.5 * frames[6] + 0.5 * _frames("_", 0.9)[0]
    reading = ClueReading((0, 3), (("?", 4, 0.51), ("?", 1, 0.40)), frames)
    alts = widened(reading, ((0, 3), (1, 3)), 6, operators_shown=False)
    assert alts[:2] == list(reading.alternatives)
    extra = alts[2:]
    assert ("?", 18) in {a[:2] for a in extra}
    assert all(p < 0.40 for _, _, p in extra)


def test_targets_up_to_a_bound_are_the_bounded_full_list_and_quick_for_big_cages():
    import time
    for op in "+*-/?=":
        full = possible_targets(op, 6, 3, True)
        assert possible_targets(op, 6, 3, True, at_most=50) == tuple(t for t in full if t <= 50), op
    # A 30-cell cage (a partition misread from a Kakuro photo): its products up to 9999 come at once
    # (all of them took tens of seconds, and the reader asked for them).
    start = time.perf_counter()
    bounded = possible_targets("*", 9, 30, True, at_most=9999)
    assert time.perf_counter() - start < 1.0
    assert bounded[-1] <= 9999 and 5040 in bounded and 11 not in bounded
    reading = ClueReading((0, 0), (("*", 24, 0.9),), _frames("_22_44_**_", 0.9))
    cells = tuple((r, c) for r in range(5) for c in range(6))
    start = time.perf_counter()
    alts = widened(reading, cells, 9, operators_shown=True)
    assert time.perf_counter() - start < 2.0 and alts[0] == ("*", 24, 0.9)


def test_a_given_digit_keeps_every_digit_of_the_grid_as_a_choice_however_clear_the_label():
    # A single cell's label reads as a clear "1" (held-out k700-0112: it was a "2" under blur, and no
    # reading had a solution without it); the other digits of a 7×7 stay choices for the solver,
    # far less likely.
    frames = _frames("___1111___", 0.999)
    reading = ClueReading((3, 1), (("=", 1, 0.95),), frames)
    single = widened(reading, ((3, 1),), 7, operators_shown=True)
    assert [a[:2] for a in single][0] == ("=", 1)
    assert {t for op, t, _ in single} == set(range(1, 8))
    assert all(p < 0.01 for _, t, p in single if t != 1)


def test_the_label_scorer_lets_the_solver_in_the_loop_pick_the_clue_a_label_shows():
    # Seed 4×4, "2÷" on 4 and 2 read as a bare "2" (its operator lost): the solver names "2−", the
    # likeliest lost operator, unless the label is asked; its frames show "2÷" (hard k8383-0240).
    from conftest import seed_puzzles
    from vision.clue_candidates import label_scorer
    from vision.reconcile import FITTED_REASON, reconcile

    puzzle, solution = seed_puzzles()["seed000-4x4"]
    cages = [c.cells for c in puzzle.cages]
    readings = {c.cells[0]: ClueReading(c.cells[0], ((c.op, c.target, 0.95),)) for c in puzzle.cages}
    readings[cages[1][0]] = ClueReading(cages[1][0], (("=", 2, 0.9),), _frames("_22__//_", 0.7))
    alternatives = [list(readings[cells[0]].alternatives) for cells in cages]
    score = label_scorer(readings, cages)
    assert score(0, ["12*"]) is None  # no frames: nothing to score
    result = reconcile(4, cages, alternatives, score=score)
    assert result.solution == solution
    assert [(c.used, c.reason) for c in result.changes] == [(("/", 2), FITTED_REASON)]
    assert [c.used for c in reconcile(4, cages, alternatives).changes] == [("-", 2)]
