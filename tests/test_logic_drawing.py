"""draw_candidates: the candidate grid of an explanation step (pencil marks, highlights, changes)."""
import numpy as np

from solver.logic import explain
from ui.render import CANDIDATE_GREY, HINT_FILL, MARK_RIGHT, MARK_WRONG, PEN_BLUE, draw_candidates


def colour_share(image, colour, tolerance=30):
    """Fraction of pixels within ``tolerance`` of ``colour``."""
    return float(np.mean(np.abs(image.astype(int) - np.array(colour)).max(axis=2) <= tolerance))


def test_a_step_is_drawn_with_its_cells_removals_and_placements(seeds):
    puzzle, _ = seeds["seed000-6x6"]
    found = explain(puzzle)
    index = next(i for i, s in enumerate(found.steps)
                 if s.placed and any(cell not in dict(s.placed) for cell, _ in s.removed))
    step = found.steps[index]
    plain = draw_candidates(puzzle, found.candidates_after(index))
    marked = draw_candidates(puzzle, found.candidates_after(index), highlight=step.cells, removed=step.removed,
                             placed=step.placed)
    assert plain.shape == marked.shape and plain.dtype == np.uint8 and plain.shape[2] == 3
    assert colour_share(plain, HINT_FILL, 10) == 0 and colour_share(marked, HINT_FILL, 10) > 0.005
    assert colour_share(plain, MARK_WRONG, 60) == 0 and colour_share(marked, MARK_WRONG, 60) > 0
    assert colour_share(marked, MARK_RIGHT, 60) > 0
    assert np.array_equal(plain, draw_candidates(puzzle, found.candidates_after(index)))  # deterministic


def test_fewer_candidates_mean_fewer_pencil_marks_and_more_big_digits(seeds):
    puzzle, _ = seeds["seed000-4x4"]
    found = explain(puzzle)
    start = draw_candidates(puzzle, found.start)
    later = draw_candidates(puzzle, found.candidates_after(12))
    assert colour_share(start, CANDIDATE_GREY, 25) > colour_share(later, CANDIDATE_GREY, 25) > 0
    assert colour_share(start, PEN_BLUE, 40) < colour_share(later, PEN_BLUE, 40)
