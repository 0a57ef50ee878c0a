"""Tests of ui.render (puzzle drawings, written digits, draw_solution) and ui.fonts."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from puzzles_for_drawing import grey, domino_puzzle, puzzle_of_size

from solver.puzzle import Cage, Puzzle
from ui.fonts import FALLBACK, FONT_PACKAGES, PRINT_BOLD, available, has_glyph, load_font
from ui.render import (GLYPH_VARIANTS, MARK_RIGHT, MARK_WRONG, STYLES, Rendering, cage_walls, clue_text,
                       draw_solution, make_entries, make_pencil, render, sample_look)


def centre_ink(rendering: Rendering) -> dict:
    """Per cell, how much darker than the paper the middle of the cell's lower part gets."""
    g = grey(rendering.image)
    paper = np.median(g)
    ink = {}
    for cell in rendering.puzzle.cells:
        x0, y0, x1, y1 = rendering.cell_box(cell)
        w = x1 - x0
        patch = g[int(y0 + 0.45 * w):int(y1 - 0.15 * w), int(x0 + 0.25 * w):int(x1 - 0.25 * w)]
        ink[cell] = float(paper - patch.min())
    return ink


@pytest.fixture(scope="module")
def six():
    """The seed 6×6 puzzle and its solution."""
    return puzzle_of_size(6)


# --- determinism and coverage ------------------------------------------------------------------

def test_same_seed_same_bytes_other_seed_other_bytes(six):
    puzzle, solution = six
    entries = make_entries(solution, seed=4)
    a = render(puzzle, "newspaper", seed=4, entries=entries, pencil=make_pencil(solution, entries, seed=4))
    b = render(puzzle, "newspaper", seed=4, entries=entries, pencil=make_pencil(solution, entries, seed=4))
    c = render(puzzle, "newspaper", seed=5, entries=entries)
    assert a.image.tobytes() == b.image.tobytes()
    assert a.image.tobytes() != c.image.tobytes()


@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("n", [3, 6, 9, 16])
def test_every_style_renders_every_size(style, n):
    puzzle, solution = puzzle_of_size(n)
    entries = make_entries(solution, fill=0.5, seed=n)
    rendering = render(puzzle, style, seed=n, cell_px=40, entries=entries,
                       pencil=make_pencil(solution, entries, seed=n))
    assert isinstance(rendering, Rendering)
    assert rendering.image.dtype == np.uint8 and rendering.image.ndim == 3 and rendering.image.shape[2] == 3
    assert rendering.corners.shape == (4, 2)
    assert len(rendering.lines) == n + 1
    h, w = rendering.image.shape[:2]
    assert np.all(rendering.corners >= 0) and np.all(rendering.corners[:, 0] < w) and np.all(rendering.corners[:, 1] < h)
    side = rendering.corners[1, 0] - rendering.corners[0, 0]
    assert side == pytest.approx(n * 40, abs=1)


def test_solution_digits_fill_every_cell_for_16():
    puzzle, solution = domino_puzzle(16)
    plain = render(puzzle, "app", seed=1, cell_px=48)
    solved = render(puzzle, "app", seed=1, cell_px=48, solution=solution)
    before, after = centre_ink(plain), centre_ink(solved)
    changed = [cell for cell in puzzle.cells if after[cell] > before[cell] + 5]
    assert len(changed) == 256


# --- geometry -----------------------------------------------------------------------------------

@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_corners_and_border_lie_on_dark_pixels(style, seed, six):
    rendering = render(six[0], style, seed=seed, cell_px=50)
    g = grey(rendering.image)
    paper = np.median(g)
    for corner in rendering.corners:
        x, y = np.round(corner).astype(int)
        assert g[y, x] < paper - 60
    tl, tr, br, bl = rendering.corners
    for a, b in ((tl, tr), (tr, br), (br, bl), (bl, tl)):
        for t in np.linspace(0, 1, 25):
            x, y = np.round(a + t * (b - a)).astype(int)
            assert g[y, x] < paper - 60


def test_cage_walls_are_drawn_darker_than_inner_lines():
    puzzle, _ = puzzle_of_size(6)
    rendering = render(puzzle, "newspaper", seed=2, cell_px=60)
    g = grey(rendering.image)
    walls = set(cage_walls(puzzle))
    lines = rendering.lines
    wall_values, inner_values = [], []
    for r in range(6):
        for c in range(5):
            x, y = int(lines[c + 1]), int((lines[r] + lines[r + 1]) / 2 + 0.2 * 60)
            # mean across the line's neighbourhood, so a thick wall reads darker than a thin line
            value = g[y, x - 3:x + 4].mean()
            (wall_values if ((r, c), (r, c + 1)) in walls else inner_values).append(value)
    assert wall_values and inner_values
    assert max(wall_values) < min(inner_values)


# --- clues --------------------------------------------------------------------------------------

def test_clue_text_follows_operators_and_givens():
    look = sample_look(STYLES["newspaper"], 60, seed=0)
    times = Cage(((0, 0), (0, 1)), "*", 12)
    assert clue_text(times, True, look) == "12" + look.glyph("*")
    assert look.glyph("*") in GLYPH_VARIANTS["*"] + ("x",)
    assert clue_text(times, False, look) == "12"
    assert clue_text(Cage(((1, 1),), "=", 3), True, look) == "3"
    assert clue_text(Cage(((0, 0), (0, 1)), "?", 7), True, look) == "7"


def test_glyph_variants_vary_with_the_seed():
    seen = {op: {sample_look(STYLES["newspaper"], 60, seed=s).glyph(op) for s in range(40)} for op in "-*/"}
    for op, glyphs in seen.items():
        assert len(glyphs) >= 2, op
        assert glyphs <= set(GLYPH_VARIANTS[op]) | {"-", "x", "/"}


def test_hidden_operators_change_the_drawing(six):
    puzzle, _ = six
    hidden = Puzzle(puzzle.size, puzzle.cages, operators_shown=False)
    shown = render(puzzle, "web", seed=3)
    plain = render(hidden, "web", seed=3)
    assert shown.image.tobytes() != plain.image.tobytes()


# --- entries and pencil marks ---------------------------------------------------------------------

def test_make_entries_is_deterministic_and_partly_wrong():
    _, solution = domino_puzzle(9)
    entries = make_entries(solution, fill=0.5, wrong=0.2, seed=8)
    assert entries == make_entries(solution, fill=0.5, wrong=0.2, seed=8)
    assert entries != make_entries(solution, fill=0.5, wrong=0.2, seed=9)
    filled = [(r, c) for r in range(9) for c in range(9) if entries[r][c] is not None]
    wrong = [(r, c) for r, c in filled if entries[r][c] != solution[r][c]]
    assert len(filled) == round(0.5 * 81)
    assert len(wrong) == round(0.2 * len(filled))
    assert all(1 <= entries[r][c] <= 9 for r, c in filled)


def test_make_pencil_keeps_the_solution_digit_and_skips_entries():
    _, solution = domino_puzzle(6)
    entries = make_entries(solution, fill=0.3, seed=1)
    pencil = make_pencil(solution, entries, fill=0.8, seed=1)
    assert any(pencil[r][c] for r in range(6) for c in range(6))
    for r in range(6):
        for c in range(6):
            if entries[r][c] is not None:
                assert not pencil[r][c]
            elif pencil[r][c]:
                assert solution[r][c] in pencil[r][c] and len(pencil[r][c]) >= 2


@pytest.mark.parametrize("style", sorted(STYLES))
def test_entries_are_drawn_in_their_cells(style, six):
    puzzle, solution = six
    entries = make_entries(solution, fill=0.5, seed=2)
    rendering = render(puzzle, style, seed=2, entries=entries)
    for cell, ink in centre_ink(rendering).items():
        if entries[cell[0]][cell[1]] is not None:
            assert ink > 60, cell
        elif not (rendering.look.big_givens and any(c.op == "=" and c.anchor == cell for c in puzzle.cages)):
            assert ink < 40, cell


def test_pencil_marks_stay_small_and_out_of_the_clue_corner(six):
    puzzle, solution = six
    pencil = make_pencil(solution, None, fill=1.0, seed=3)
    plain = render(puzzle, "app", seed=3, cell_px=60)
    marked = render(puzzle, "app", seed=3, cell_px=60, pencil=pencil)
    diff = np.abs(grey(marked.image) - grey(plain.image)) > 40
    assert diff.any()
    for cage in puzzle.cages:  # the clue's corner is untouched
        x0, y0, _, _ = marked.cell_box(cage.anchor)
        assert not diff[int(y0) + 2:int(y0 + 0.2 * 60), int(x0) + 2:int(x0 + 0.4 * 60)].any()


# --- draw_solution --------------------------------------------------------------------------------

def test_draw_solution_colours_digits_by_marks(six):
    puzzle, solution = six
    rendering = render(puzzle, "newspaper", seed=1, cell_px=60)
    marks = [[MARK_WRONG if (r + c) % 2 else MARK_RIGHT for c in range(6)] for r in range(6)]
    out = draw_solution(rendering, rendering.corners, 6, solution, marks)
    assert out.shape == rendering.image.shape and out.dtype == np.uint8
    for (r, c) in [(0, 0), (0, 1), (3, 4), (5, 5)]:
        x0, y0, x1, y1 = (int(v) for v in rendering.cell_box((r, c)))
        patch = out[y0:y1, x0:x1].astype(int)
        red = ((patch[..., 0] - patch[..., 1]) > 120).sum()
        green = ((patch[..., 1] - patch[..., 0]) > 80).sum()
        assert (red > 30) == bool((r + c) % 2) and (green > 30) == (not (r + c) % 2)


def test_draw_solution_follows_a_perspective_quad():
    canvas = np.full((400, 500, 3), 255, np.uint8)
    quad = np.array([[100, 60], [420, 90], [380, 360], [60, 320]], float)
    solution = ((1, 2, 3), (2, 3, 1), (3, None, 2))
    out = draw_solution(canvas, quad, 3, solution)
    ink = grey(out) < 200
    ys, xs = np.nonzero(ink)
    assert len(xs) > 500
    inside = [_inside(quad, (x, y)) for x, y in zip(xs[::7], ys[::7])]
    assert all(inside)
    unit = np.float32([[0, 0], [3, 0], [3, 3], [0, 3]])
    to_photo = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
    x, y = cv2.perspectiveTransform(np.float32([[[1.55, 2.62]]]), to_photo)[0, 0].round().astype(int)
    assert not ink[y - 8:y + 9, x - 8:x + 9].any()  # the empty cell (2, 1) stays empty


def _inside(quad: np.ndarray, point) -> bool:
    """True when ``point`` lies inside the convex quad (corners in clockwise image order)."""
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        if (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]) < 0:
            return False
    return True


# --- fonts ----------------------------------------------------------------------------------------

def test_fonts_fall_back_without_crashing():
    assert "fonts-dejavu-core" in FONT_PACKAGES
    font = load_font(Path("/nonexistent/font.ttf"), 20)
    assert font.getbbox("12")[2] > 0
    fallback = available(("no-such-font.ttf",))
    assert fallback == () or fallback[0].name == FALLBACK
    bold = load_font(available(PRINT_BOLD)[0], 30)
    assert has_glyph(bold, "7") and has_glyph(bold, "×")
    assert not has_glyph(bold, "\u4e2d")  # a CJK character: no print font here has it
