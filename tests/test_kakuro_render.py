"""Drawing Kakuro: printed styles with diagonal clue cells, exact geometry, written digits, photos of
them, digits over photos, and corpus items whose truth reads back."""
import json

import numpy as np
import pytest

from solver.kakuro import kakuro_from_json
from solver.kakuro.engine import solve_kakuro
from solver.kakuro.generator import KakuroOptions, generate_kakuro
from solver.kakuro.model import BLOCK, Clue
from ui.cli import main
from ui.corpus_kakuro import KakuroSpec, make_kakuro_item, plan_kakuro
from ui.photo import simulate
from ui.render_kakuro import KAKURO_STYLES, draw_kakuro_solution, make_kakuro_entries, render_kakuro

MADE = generate_kakuro(KakuroOptions(rows=7, cols=9), 3)


def centre(rendering, cell, dx=0.5, dy=0.5):
    x0, y0, x1, y1 = rendering.cell_box(cell)
    return rendering.image[int(y0 + dy * (y1 - y0)), int(x0 + dx * (x1 - x0))].astype(int)


@pytest.mark.parametrize("style", list(KAKURO_STYLES))
def test_blocks_and_clue_cells_are_filled_white_cells_are_paper(style):
    rendering = render_kakuro(MADE.puzzle, style, seed=2)
    look = rendering.look
    assert rendering.image.shape[:2] == (2 * look.margin_px + 7 * 80, 2 * look.margin_px + 9 * 80)
    for (r, c) in MADE.puzzle.cells:
        square = MADE.puzzle.grid[r][c]
        if square == BLOCK:
            assert tuple(centre(rendering, (r, c))) == look.fill
        elif isinstance(square, Clue):  # the diagonal runs through the centre; a corner away from the numbers is fill
            assert tuple(centre(rendering, (r, c))) != look.fill
            assert tuple(centre(rendering, (r, c), 0.12, 0.45)) == look.fill
        else:
            assert tuple(centre(rendering, (r, c))) == look.paper


def test_the_same_seed_gives_the_same_bytes_and_corners_sit_on_the_border():
    first = render_kakuro(MADE.puzzle, "newspaper", seed=5)
    again = render_kakuro(MADE.puzzle, "newspaper", seed=5)
    assert np.array_equal(first.image, again.image) and first.look == again.look
    (x0, y0), (x1, _), (_, y1), _ = first.corners
    assert first.size == 9 and x1 - x0 == pytest.approx(9 * 80, abs=1) and y1 - y0 == pytest.approx(7 * 80, abs=1)
    assert tuple(first.image[int(y0), int((x0 + x1) / 2)]) == first.look.grid_color


def test_written_digits_go_into_white_cells_only():
    entries = make_kakuro_entries(MADE.puzzle, MADE.solution, 0.5, 0.2, seed=4)
    written = [(r, c) for r, row in enumerate(entries) for c, v in enumerate(row) if v is not None]
    assert all(MADE.puzzle.is_white(cell) for cell in written)
    assert abs(len(written) - 0.5 * len(MADE.puzzle.whites)) <= 1
    wrong = [cell for cell in written if entries[cell[0]][cell[1]] != MADE.solution[cell[0]][cell[1]]]
    assert len(wrong) == round(0.2 * len(written))
    blank = render_kakuro(MADE.puzzle, "app", seed=1)
    filled = render_kakuro(MADE.puzzle, "app", seed=1, entries=entries)
    changed = np.any(blank.image != filled.image, axis=2)
    for cell in MADE.puzzle.cells:
        x0, y0, x1, y1 = (int(v) for v in blank.cell_box(cell))
        assert changed[y0 + 4:y1 - 4, x0 + 4:x1 - 4].any() == (cell in written)


def test_photos_of_kakuro_and_digits_drawn_over_them():
    rendering = render_kakuro(MADE.puzzle, "web", seed=7)
    photo = simulate(rendering, "handheld", seed=7)
    h, w = photo.image.shape[:2]
    assert all(0 <= x < w and 0 <= y < h for x, y in photo.corners)
    drawn = draw_kakuro_solution(photo.image, photo.corners, 7, 9, MADE.solution)
    changed = np.any(drawn != photo.image, axis=2)
    ys, xs = np.nonzero(changed)
    (left, top), (right, bottom) = photo.corners.min(axis=0), photo.corners.max(axis=0)
    assert changed.sum() > 0 and xs.min() >= left - 2 and xs.max() <= right + 2
    assert ys.min() >= top - 2 and ys.max() <= bottom + 2


def test_corpus_items_hold_truth_that_reads_back(tmp_path):
    specs = plan_kakuro(6, 3)
    assert len({spec.style for spec in specs}) == 3 and len({spec.level for spec in specs}) == 2
    image, truth = make_kakuro_item(KakuroSpec("k-1", 9, 7, 8, "newspaper", "clean", filled=0.4, wrong=0.2))
    puzzle = kakuro_from_json(truth)
    assert truth["puzzle"] == "kakuro" and puzzle.entries is not None and image.ndim == 3
    assert [list(row) for row in solve_kakuro(puzzle).solution] == truth["solution"]
    assert main(["corpus", "--kakuro", str(tmp_path), "--count", "2", "--workers", "1"]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 4 and json.loads((tmp_path / files[1]).read_text())["puzzle"] == "kakuro"


@pytest.mark.parametrize("style", ["newspaper", "app"])
def test_kakuro_photos_carry_kakuro_titles_and_kenken_photos_stay_the_same(style):
    from ui.corpus_kakuro import TITLES as KAKURO_TITLES
    from ui.photo import TITLES
    rendering = render_kakuro(MADE.puzzle, style, seed=5)
    default, kenken, kakuro = (simulate(rendering, "clean", seed=5, titles=t) for t in (None, TITLES, KAKURO_TITLES))
    assert (default.image == kenken.image).all()  # the default is KenKen's titles, same bytes as before
    assert not (kakuro.image == kenken.image).all()  # another title is drawn
    assert np.allclose(kakuro.corners, kenken.corners)  # and nothing else moves
    changed = np.any(kakuro.image != kenken.image, axis=2)
    ys, _ = np.nonzero(changed)
    assert ys.max() < kakuro.corners[:, 1].min()  # only above the grid, where the title is
