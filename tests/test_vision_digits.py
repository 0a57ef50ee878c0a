"""Big digits (typed givens and pen entries) read on renderings with pencil marks in other cells."""
from __future__ import annotations

import json

import pytest
from conftest import SHARED

from solver.generator import GeneratorOptions, generate
from ui.render import make_entries, make_pencil, render
from vision.clues import rectify
from vision.digits import big_digit_model, read_digits
from vision.grid import find_grid
from vision.image_io import load_image


def _measure(style: str, seeds) -> tuple[int, int, int]:
    """(right, entries, false digits in cells without an entry) over the seeds' 6×6 puzzles."""
    right = total = false = 0
    for seed in seeds:
        made = generate(GeneratorOptions(size=6), seed)
        entries = make_entries(made.solution, fill=0.5, wrong=0.0, seed=seed)
        pencil = make_pencil(made.solution, entries, fill=0.4, seed=seed)
        rendering = render(made.puzzle, style, seed=seed, cell_px=60, entries=entries, pencil=pencil)
        grid = rectify(rendering.image, rendering.corners, rendering.size)
        readings = read_digits(grid)
        singles = {c.anchor for c in made.puzzle.cages if len(c.cells) == 1}
        for r in range(6):
            for c in range(6):
                got = readings.get((r, c))
                if entries[r][c] is not None:
                    total += 1
                    right += got is not None and got.alternatives[0][0] == entries[r][c]
                elif got is not None and (r, c) not in singles:   # app looks may print givens big
                    false += 1
    return right, total, false


@pytest.mark.parametrize("style", ["newspaper", "app", "web"])
def test_big_digits_on_renderings(style):
    # Measured 2025-11 over four puzzles per style; pencil marks and clue labels must not read as digits.
    right, total, false = _measure(style, range(40, 44))
    assert right >= 0.9 * total
    assert false <= 2


def test_readings_are_probabilities_best_first():
    made = generate(GeneratorOptions(size=4), 3)
    rendering = render(made.puzzle, "web", seed=3, cell_px=60, entries=made.solution)
    readings = read_digits(rectify(rendering.image, rendering.corners, 4))
    assert len(readings) >= 14
    for reading in readings.values():
        probs = [p for _, p in reading.alternatives]
        assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0001
        assert all(1 <= d <= 9 for d, _ in reading.alternatives)


def test_empty_grid_reads_no_digits():
    made = generate(GeneratorOptions(size=5), 8)
    rendering = render(made.puzzle, "newspaper", seed=8, cell_px=60, entries=((None,) * 5,) * 5)
    assert read_digits(rectify(rendering.image, rendering.corners, 5), big_digit_model()) == {}


REALDEV = SHARED / "realdev"


@pytest.mark.skipif(not REALDEV.is_dir(), reason="../shared/realdev is not here")
def test_the_solved_realdev_screenshot_reads_every_entry():
    """Heavy typed digits, the clue operator touching the digit in two cells (read from ../shared,
    never copied)."""
    truth = json.loads((REALDEV / "Oluwxtope-Ken-gratulations__output.json").read_text())
    image = load_image(REALDEV / truth["image"])
    grid = find_grid(image)
    readings = read_digits(grid)
    got = [[readings[(r, c)].alternatives[0][0] if (r, c) in readings else None for c in range(4)] for r in range(4)]
    assert got == truth["truth"]["entries"]


def _held_out_digits(index: int) -> tuple[dict, list]:
    """The big digits read in held-out photo ``index`` (``kensnap corpus --count 300 --seed 700``,
    drawn again here) rectified from its true corners, and its true entries."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, 700)[index])
    n = truth["truth"]["size"]
    readings = read_digits(grid_from_corners(image, np.array(truth["corners"]), n))
    got = {cell: reading.alternatives[0][0] for cell, reading in readings.items()}
    return got, truth["truth"].get("entries") or [[None] * n for _ in range(n)]


def test_the_edge_of_a_hard_shadow_across_empty_cells_is_no_digit():
    """Held-out k700-0210, a hand-held 8×8 with nothing written: a shadow's edge across four empty
    cells was read as the digits 3, 3, 2 and 4, three of them with probability 1.0 (the model knew
    only digits). The NONE class, learnt from simulated photos' empty cells, reads them as nothing."""
    got, entries = _held_out_digits(210)
    assert got == {}


FAINT_PEN = (284, [(0, 0), (0, 5), (1, 2)])
"""Held-out k700-0284: pen digits far fainter than their clue labels, broken into pieces at the
labels' ink threshold."""


def test_digits_as_tall_as_a_big_clue_label_are_read():
    """Held-out k700-0086 (a site's clues a third of a cell tall, typed digits no taller under
    them): three digits were not read."""
    got, entries = _held_out_digits(86)
    assert all(got.get(cell) == entries[cell[0]][cell[1]] for cell in [(0, 3), (1, 0), (1, 3)])


def test_faint_pen_digits_are_cut_out_whole():
    """k700-0284's faint pen digits were not even cut out (no glyph as big as a digit at the
    labels' ink threshold): each is found now, as tall as a written digit (FAINT)."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.digits import BIG, cell_digit_glyph
    from vision.clues import CELL
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, 700)[FAINT_PEN[0]])
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    for cell in FAINT_PEN[1]:
        ink = cell_digit_glyph(grid, cell)
        assert ink is not None and ink.shape[0] >= BIG * CELL, cell


@pytest.mark.xfail(strict=False, reason="how one fit of the big-digit model reads a faint digit differs "
                   "from another's: a fresh fit of 2026-11-27 (v7) read two of these faint pen digits as no "
                   "digit (0.63) and 6 as 5; the earlier fit and the v9 fit of 2026-11-28 read all three")
def test_faint_pen_digits_are_read():
    got, entries = _held_out_digits(FAINT_PEN[0])
    assert all(got.get(cell) == entries[cell[0]][cell[1]] for cell in FAINT_PEN[1])


def test_a_shadow_edge_joined_to_a_printed_digit_is_cut_away():
    """A 12-megapixel hard app photo (``kensnap corpus --count 60 --seed 1212 --megapixels 12``,
    item 43): a shadow's soft edge joined a printed 7 and 5 at the ink threshold, the glyphs came
    out wider than tall and read 3 and 3 (SHADOW_TRIM)."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.digits import cell_digit_glyph
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(60, 1212, 12)[43])
    n = truth["truth"]["size"]
    grid = grid_from_corners(image, np.array(truth["corners"]), n)
    readings = read_digits(grid)
    for (r, c) in [(2, 2), (3, 6)]:
        ink = cell_digit_glyph(grid, (r, c))
        assert ink.shape[0] > ink.shape[1], (r, c)
        assert readings[(r, c)].alternatives[0][0] == truth["truth"]["entries"][r][c]


def test_a_hard_shadows_edge_across_an_empty_cell_of_a_phone_photo_is_no_digit():
    """A 12-megapixel hard web photo with nothing written (``kensnap corpus --count 150 --seed 1313
    --megapixels 12``, item 89): a hard shadow's straight edge crosses two empty cells, and the
    glyphs it left on the cell patches read as the digits 2 and 2 — a person checking a half-filled
    grid would have been told of digits they never wrote. On the closing's paper the edge fades
    (SHADOW_STEP)."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.clues import closed_patch, cell_patch, cell_ink, label_glyphs
    from vision.digits import SHADOW_STEP, _glyph_cut, kept_on_closing
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(150, 1313, 12)[89])
    n = truth["truth"]["size"]
    grid = grid_from_corners(image, np.array(truth["corners"]), n)
    for cell in [(3, 4), (5, 2)]:
        labels, stats, _ = cell_ink(grid, cell)
        cut = _glyph_cut(cell_patch(grid, cell), (labels, stats), label_glyphs(grid, cell))
        assert cut is not None, cell  # the edge is cut out as tall as a digit ...
        assert kept_on_closing(closed_patch(grid, cell), *cut) < SHADOW_STEP, cell  # ... and fades
    assert read_digits(grid) == {}


@pytest.mark.parametrize("seed,index,cells", [(6161, 32, [(5, 3)]), (8383, 276, [(0, 1), (1, 0)])])
def test_a_digit_read_as_nothing_is_looked_at_again_in_its_faint_ink(seed, index, cells):
    """Hand-held k6161-0032's printed grey "6" and hard k8383-0276's "3" and "5" broke apart at the
    labels' ink threshold; the pieces read as no digit. Cut again from the digit area's own fainter
    ink (FAINT), they read right."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, seed)[index])
    entries = truth["truth"]["entries"]
    readings = read_digits(grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"]), cells=cells)
    assert {cell: readings[cell].alternatives[0][0] for cell in cells if cell in readings} == {
        (r, c): entries[r][c] for r, c in cells}


@pytest.mark.parametrize("index,cells", [(287, [(5, 3)]), (8, [(3, 1), (4, 3)])])
def test_a_shadows_edge_across_a_written_digit_is_taken_off_it(index, cells):
    """Hard photos of ``kensnap corpus --count 300 --seed 4646``: a soft shadow's edge crossing a
    pen digit made it a band as wide as the cell, no big digit. In item 287 the "2" was cut from
    the fainter ink with the edge still on it and read "8"; in item 8 the "5" and "4" were not read
    at all. The pixels that fade on the closing's paper are taken off the
    glyph, and the ink without them is looked at once more (SHADOW_KEEP)."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.clues import cell_ink, cell_patch, closed_patch, label_glyphs
    from vision.digits import SHADOW_KEEP, _glyph_cut, cell_digit_glyph
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, 4646)[index])
    entries = truth["truth"]["entries"]
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    for cell in cells:
        labels, stats, _ = cell_ink(grid, cell)
        assert _glyph_cut(cell_patch(grid, cell), (labels, stats), label_glyphs(grid, cell)) is None, cell
        glyph = cell_digit_glyph(grid, cell)
        assert glyph is not None and glyph.shape[0] >= glyph.shape[1], cell
    readings = read_digits(grid, cells=cells)
    assert {cell: readings[cell].alternatives[0][0] for cell in cells if cell in readings} == {
        (r, c): entries[r][c] for r, c in cells}


@pytest.mark.parametrize("seed,index,cell", [(9494, 224, (1, 3)), (7474, 178, (1, 2)), (5252, 62, (2, 1))])
def test_a_written_digit_beside_a_shadows_edge_is_looked_for_past_the_edge(seed, index, cell):
    """Hard photos of the 300-photo sets of seeds 9494, 7474 and 5252: a shadow's edge runs through
    the cell beside a clear written digit ("4", "1", "1"), and the tallest ink there is the edge.
    That cut fades on the closing's paper (SHADOW_STEP), and the digit was then given up for lost,
    although the fainter ink and the ink without the shadow's edge hold it whole. Those cuts are
    looked at too, the first that is no shadow's edge taken."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.clues import cell_ink, cell_patch, closed_patch, label_glyphs
    from vision.digits import SHADOW_STEP, _glyph_cut, kept_on_closing
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, seed)[index])
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    labels, stats, _ = cell_ink(grid, cell)
    first = _glyph_cut(cell_patch(grid, cell), (labels, stats), label_glyphs(grid, cell))
    assert first is not None and kept_on_closing(closed_patch(grid, cell), *first) < SHADOW_STEP
    readings = read_digits(grid, cells=[cell])
    assert cell in readings and readings[cell].alternatives[0][0] == truth["truth"]["entries"][cell[0]][cell[1]]


@pytest.mark.parametrize("seed,index,cells", [(7474, 96, [(1, 0), (1, 1)]), (6161, 89, [(0, 0), (2, 0)])])
def test_a_written_digit_under_a_shadows_band_is_read_whole(seed, index, cells):
    """Hard photos of the 300-photo sets of seeds 7474 and 6161: a shadow's narrow band crosses the
    cell, the line mask took it for a grid line and took the digit's strokes under it away, and the
    rest read "4", "4", "9", "4". On the closing's patch the band is no ink and the digits are
    whole (CLOSED_SURE)."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision.digits import cell_digit_glyph, closed_digit_glyph
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, seed)[index])
    entries = truth["truth"]["entries"]
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    for cell in cells:  # the plain cut lost a third of the digit or more; the closing's holds it whole
        plain, whole = cell_digit_glyph(grid, cell), closed_digit_glyph(grid, cell)
        assert (whole > 0).sum() > 1.4 * (plain > 0).sum() and whole.shape[0] > 1.4 * plain.shape[0], cell
    readings = read_digits(grid, cells=cells)
    assert {cell: readings[cell].alternatives[0][0] for cell in cells if cell in readings} == {
        (r, c): entries[r][c] for r, c in cells}


def test_faint_pen_digits_are_read_against_the_photos_own_pen():
    """Hand-held k5252-0086 (the 300-photo set of seed 5252): a thin pen writes every digit faint
    (peak darkness about 0.33), and two thin "1"s read as no digit, as faint as a line's end. The
    photo's 27 digits read sure show how dark its pen is; measured against that, they are digits
    (PEN_PEAK). Without that look they are missed."""
    import numpy as np

    from ui.corpus import make_item, plan
    from vision import digits
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(300, 5252)[86])
    entries = truth["truth"]["entries"]
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    cells = [(0, 3), (2, 0)]
    readings = read_digits(grid)
    assert {cell: readings[cell].alternatives[0][0] for cell in cells if cell in readings} == {
        (r, c): entries[r][c] for r, c in cells}
    sure = [reading for reading in readings.values() if reading.alternatives[0][1] >= digits.PEN_SURE]
    assert len(sure) >= digits.PEN_SEEN


def test_a_photo_with_no_sure_digit_gains_none_against_its_pen():
    """With no digit read sure there is no pen to measure against, so nothing is read again."""
    import numpy as np

    from vision.digits import _faint_pen_probabilities

    from vision.digits import LARGEST_ENTRY

    model = big_digit_model()
    faint = np.zeros((20, 8), np.float32)
    faint[:, 3:5] = 0.2
    probs = {(0, 0): np.eye(LARGEST_ENTRY + 1)[0]}  # entry probabilities: index 0 is no digit
    assert _faint_pen_probabilities(model, {(0, 0): faint}, probs, pairs=False) == {}


@pytest.mark.parametrize("style", ["app", "newspaper"])
def test_two_glyph_entries_on_a_grid_of_twelve_are_read_whole(style):
    """A 12×12 filled in, typed (app) or in pen (newspaper): entries 10, 11 and 12 are two glyphs,
    which the tallest-glyph cut read as one ("12" as 2, "10" as 1) before the cut took a partner
    glyph beside the digit and the model learnt the entries 10..16 whole."""
    made = generate(GeneratorOptions(size=12), 5)
    entries = make_entries(made.solution, fill=0.5, wrong=0.0, seed=5)
    rendering = render(made.puzzle, style, seed=5, cell_px=60, entries=entries)
    readings = read_digits(rectify(rendering.image, rendering.corners, 12))
    got = {cell: reading.alternatives[0][0] for cell, reading in readings.items()}
    written = {(r, c): v for r, row in enumerate(entries) for c, v in enumerate(row) if v is not None}
    big = {cell: v for cell, v in written.items() if v >= 10}
    assert len(big) >= 15
    assert sum(got.get(cell) == v for cell, v in big.items()) >= 0.9 * len(big)
    assert sum(got.get(cell) == v for cell, v in written.items()) >= 0.9 * len(written)


class _Scripted:
    """A stand-in for the digit model: each glyph's class probabilities by its width in pixels."""

    classes = tuple(str(v) for v in range(1, 17)) + ("none",)

    def __init__(self, by_width: dict[int, dict[str, float]]):
        self.by_width = by_width

    def probabilities(self, rows):
        import numpy as np

        from vision.clues import CELL

        out = []
        for row in rows:
            width = int(round(row[-5] / 3.0 * row[-4] / 3.0 * CELL))  # aspect × height share of a cell
            out.append([self.by_width[width].get(name, 0.0) for name in self.classes])
        return np.array(out)


def test_entry_probabilities_are_two_glyph_entries_only_on_grids_of_ten_and_more():
    import numpy as np

    from vision.clues import CELL
    from vision.digits import entry_probabilities

    def glyph(width):
        return np.ones((int(0.5 * CELL), width), np.float32)

    model = _Scripted({30: {"12": 0.7, "2": 0.2, "none": 0.1}, 12: {"7": 0.9, "none": 0.1}})
    big = entry_probabilities(model, {(0, 0): glyph(30), (0, 1): glyph(12), (0, 2): None}, pairs=True)
    assert set(big) == {(0, 0), (0, 1)}
    assert big[(0, 0)][12] == pytest.approx(0.7) and big[(0, 0)][2] == pytest.approx(0.2)
    assert big[(0, 0)][0] == pytest.approx(0.1) and big[(0, 1)][7] == pytest.approx(0.9)
    small = entry_probabilities(model, {(0, 0): glyph(30)}, pairs=False)  # a grid under ten: no 12
    assert small[(0, 0)][10:].sum() == 0
    assert small[(0, 0)][2] == pytest.approx(2 / 3) and small[(0, 0)][0] == pytest.approx(1 / 3)
