"""Reading Kakuro photos: generated photos read whole-board exact, the solver in the loop repairs
misread numbers, KenKen photos are not taken for Kakuro, `kensnap read` and `solve` tell which
puzzle a photo holds."""
import json

import cv2
import numpy as np
import pytest

from conftest import REPO
from solver.kakuro.engine import solve_kakuro
from test_kakuro_model import seed_puzzle
from ui.cli import main
from ui.corpus_kakuro import KakuroSpec, make_kakuro_item
from vision.errors import NoPuzzleFound
from vision.image_io import load_image
from vision.kakuro import (BARE_EDGE_NOTE, LAYOUT_RIVAL_NOTE, TRIM_NOTE, UNDECIDED_NOTE, lengthened, read_kakuro, reconcile, settle_layout,
                           trimmed)
from vision.kakuro_cells import CELL, EDGE, figure_tone, cell_patch, cell_patches, cell_tones, clue_glyphs, diagonal_line, segmentations
from vision.kakuro_grid import KakuroGridFind
from vision.grid import pyramid, work_copy
from vision.kakuro_grid import (Probe, _chosen, _fitted_outline, _keypad_row, _kenken_grid, aligned, concentration,
                                find_kakuro_grid, grid_from_corners)
from vision.kakuro_light import flatten
from vision import kakuro_reconcile as reconcile_module
from vision.kakuro_reconcile import FREE_COST, ReadingSolver

from solver.kakuro.formats import kakuro_from_json
from solver.kakuro.model import sum_range


def photo(spec: KakuroSpec):
    image, truth = make_kakuro_item(spec)
    return image, kakuro_from_json(truth["truth"])


CLEAN = [KakuroSpec(f"c{i}", 40 + i, 6 + i % 5, 7 + i % 4, ("newspaper", "app", "web")[i % 3], "clean") for i in range(6)]
HANDHELD = [KakuroSpec(f"h{i}", 60 + i, 6 + i % 5, 7 + i % 4, ("newspaper", "app", "web")[i % 3], "handheld",
                       filled=0.4 if i % 2 else 0.0, wrong=0.2 if i % 2 else 0.0) for i in range(6)]


def test_clean_photos_are_read_exactly_and_mostly_confidently():
    confident = 0
    for spec in CLEAN:
        image, truth = photo(spec)
        reading = read_kakuro(image)
        assert (reading.puzzle.rows, reading.puzzle.cols) == (truth.rows, truth.cols), spec.id
        assert reading.puzzle.grid == truth.grid, spec.id
        assert reading.status == "unique" and reading.solution == solve_kakuro(truth).solution
        confident += reading.confident
    assert confident >= 4  # a number read with probability under 0.9 is never confident


def test_handheld_photos_today_and_never_confident_when_wrong():
    exact = 0
    for spec in HANDHELD:
        image, truth = photo(spec)
        try:
            reading = read_kakuro(image)
        except NoPuzzleFound:
            continue
        right = reading.puzzle.grid == truth.grid
        exact += right
        assert right or not reading.confident, spec.id
        if right and truth.entries is not None:
            written = sum(v is not None for row in truth.entries for v in row)
            agree = sum(a == b for ra, rb in zip(reading.puzzle.entries or (), truth.entries)
                        for a, b in zip(ra, rb) if b is not None)
            assert agree >= 0.8 * written
    assert exact >= 4  # today's level on these six: 5 (the goal is 95 %; see the README)


def test_the_solver_in_the_loop_repairs_a_misread_number_and_fills_an_unread_one():
    truth = seed_puzzle()
    numbers = {(run.clue_cell, run.direction): ((run.total, 0.99),) for run in truth.runs}
    numbers[((0, 3), "down")] = ((12, 0.7), (17, 0.25))  # 17 misread as 12
    numbers[((4, 4), "across")] = ()  # 13 not read at all
    layout = frozenset(truth.whites)
    puzzle, status, solution, changes, _, _ = reconcile(truth.rows, truth.cols, layout, numbers, None)
    assert status == "unique" and puzzle.grid == truth.grid
    assert {(c.slot, c.read, c.used) for c in changes} == {(((0, 3), "down"), 12, 17), (((4, 4), "across"), None, 13)}
    assert solution == solve_kakuro(truth).solution


def test_a_number_read_unsurely_costs_little_to_read_as_something_else():
    # The cost of "none of the values read" is what the reading left over, shared by the totals not
    # read: next to nothing for a sure reading, a few nats for an unsure one (kk2026-0132: "28" read
    # as 23, 21, 13 or 22 with 0.85 in all, and "8" read as 8 surely, once lost to 23 and 3).
    assert ReadingSolver._free_cost(((8, 1.0), (3, 1e-5)), 7) == FREE_COST
    unsure = ReadingSolver._free_cost(((23, 0.62), (21, 0.13), (13, 0.06), (22, 0.04)), 35)
    assert 5.0 < unsure < 6.0  # the 0.15 left over shared by 31 totals
    assert ReadingSolver._free_cost((), 15) == pytest.approx(np.log(15))


def test_a_value_read_as_likely_as_the_free_pick_is_no_crash():
    # A two-cell run (totals 3..17) read as one value with probability 1/15 leaves 14/15 for the 14
    # totals not read: the free pick costs exactly what the value does. Sorting the options once
    # compared the free pick's None with the value (held-out kk1123-0080: a TypeError, nothing read).
    seed = seed_puzzle()
    slots = {(run.clue_cell, run.direction): run for run in seed.runs}
    slot, run = next((s, r) for s, r in slots.items() if len(r.cells) == 2)
    low, high = sum_range(len(run.cells))
    numbers = {s: ((r.total, 1.0),) for s, r in slots.items()}
    numbers[slot] = ((run.total, 1 / (high - low + 1)),)
    with ReadingSolver(seed, numbers) as search:
        costs = [cost for cost, _, _ in search.options[slot][:2]]
        assert costs[0] == pytest.approx(costs[1])
        assert search.options[slot][0][1] == run.total
        assert search.settle().status == "unique"


def test_clue_cells_figures_say_where_runs_begin(tmp_path):
    # Tuning photo kk77-0026 (web, hard): a shadow over light grey blocks. The figures read surely in
    # the clue cells say which cells begin runs, the halves without figures which do not, and the
    # number read unsurely ("4" as 3 or 7) is cheap to change: the board is read right.
    spec = KakuroSpec("kk77-0026", 442620880, 9, 9, "web", "hard")
    image = _tuning_photo(spec, tmp_path)
    truth = kakuro_from_json(json.loads((tmp_path / "kk77-0026.json").read_text())["truth"])
    assert read_kakuro(image).puzzle.grid == truth.grid


def test_a_block_before_a_white_cell_gives_way_to_the_surer_reading():
    rows, cols = 3, 4
    white = {(r, c): 0.0 for r in range(rows) for c in range(cols)}
    white.update({(1, 1): 0.99, (1, 2): 0.3, (1, 3): 0.99, (2, 1): 0.99, (2, 2): 0.99, (2, 3): 0.99})
    diagonal = {cell: 0.2 for cell in white}
    diagonal.update({(0, 1): 5.0, (0, 2): 5.0, (0, 3): 5.0, (1, 0): 5.0, (2, 0): 5.0})
    assert settle_layout(rows, cols, white, diagonal) == frozenset({(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)})


def test_a_white_cell_alone_in_its_run_gives_way_to_the_surer_reading():
    # Row 2 read as white, dark, dark: its white cell would be a run of one. The dark cell after it
    # is the less sure, so it turns white; in row 3 the lone white cell is the less sure and turns dark.
    rows, cols = 4, 4
    white = {(r, c): 0.0 for r in range(rows) for c in range(cols)}
    white.update({(1, 1): 0.9, (1, 2): 0.4, (2, 1): 0.9, (2, 2): 0.9, (3, 1): 0.6, (3, 2): 0.02})
    diagonal = {cell: 0.2 for cell in white}
    diagonal.update({(0, 1): 5.0, (0, 2): 5.0, (1, 0): 5.0, (2, 0): 5.0, (3, 0): 5.0})
    assert settle_layout(rows, cols, white, diagonal) == frozenset({(1, 1), (1, 2), (2, 1), (2, 2)})


def test_a_run_too_short_for_its_sure_number_is_made_longer_over_the_dark_cells_after_it():
    # Row 1 as read: "34" across before three white cells (they add up to 24 at most); a shadow made
    # the next two look dark. The run grows until five cells can add up to 34, then stops; the
    # clear clue cell after it (diagonal strength 5) is never taken. Row 2 is long enough already.
    rows, cols = 3, 9
    layout = frozenset({(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)})
    diagonal = {(r, c): 0.2 for r in range(rows) for c in range(cols)}
    diagonal[(1, 7)] = 5.0
    sure = {((1, 0), "across"): 34, ((2, 0), "across"): 3}
    assert lengthened(rows, cols, layout, sure, diagonal) == layout | {(1, 4), (1, 5)}
    assert lengthened(rows, cols, layout, {((1, 0), "across"): 45}, diagonal) == layout | {(1, c) for c in range(4, 7)}


def test_kenken_photos_and_blank_pages_are_not_kakuro():
    for path in sorted((REPO / "samples").glob("*.jpg")):  # the bundled KenKen photos, every style and level
        with pytest.raises(NoPuzzleFound):
            find_kakuro_grid(load_image(path))
    with pytest.raises(NoPuzzleFound):
        read_kakuro(np.full((400, 300, 3), 235, np.uint8))


def test_cli_read_and_solve_tell_a_kakuro_photo(capsys, tmp_path):
    image, truth = photo(CLEAN[0])
    path = tmp_path / "kakuro.png"
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
    assert main(["read", "--json", str(path)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["puzzle"] == "kakuro" and kakuro_from_json(obj).grid == truth.grid and obj["confident"]
    overlay = tmp_path / "solved.png"
    assert main(["solve", str(path), "--overlay", str(overlay)]) == 0
    out = capsys.readouterr().out
    assert "Kakuro, exactly one solution, confident" in out and overlay.is_file()
    assert main(["read", "--json", str(REPO / "samples" / "app-4x4-clean.jpg")]) in (0, 1)
    assert "cages" in json.loads(capsys.readouterr().out)


def test_the_fitted_outline_of_the_kenken_finder_is_the_kakuro_border():
    image, corpus_truth = make_kakuro_item(KakuroSpec("o", 83, 7, 7, "web", "clean"))  # square: N×N to the KenKen finder
    quads = _fitted_outline(1.0, _kenken_grid(image))
    assert len(quads) == 1
    assert np.abs(quads[0] - np.asarray(corpus_truth["corners"])).max() < 0.01 * max(image.shape)
    assert _fitted_outline(1.0, _kenken_grid(np.full((400, 300, 3), 235, np.uint8))) == []


def test_white_cells_in_a_hard_shadow_beside_dark_ones_have_the_tone_of_white():
    """A shadow leaving 0.45 of the light over the left three columns: the white cells in it are
    taken against the brightest cell near them, not against the surface fitted to the lit ones
    (those right beside the shadow's edge still are: their neighbourhood holds lit white cells)."""
    rows, cols = 6, 10
    patches = {}
    for r in range(rows):
        for c in range(cols):
            white = r > 0 and c > 0 and (r + c) % 4 != 0
            light = 0.45 if c < 3 else 1.0
            patches[(r, c)] = np.full((CELL, CELL), (230.0 if white else 170.0) * light, np.float32)
    tones, _ = cell_tones(patches)
    shadowed_whites = [tones[(r, c)] for r in range(1, rows) for c in (1,) if (r + c) % 4 != 0]
    assert min(shadowed_whites) > 0.95
    assert max(tones[(r, 0)] for r in range(rows)) < 0.9  # the dark cells beside them stay dark


def _slanted_shadow_patches(rows: int, cols: int, depth: float = 0.5):
    """White cells 230 and grey blocks 150 in a checkered layout (first row and column dark), a
    dark line along each cell's edges, and a hard shadow (``depth`` of the light) below a slanted
    line that crosses cells (as the shadows of hard photos do)."""
    ys, xs = np.mgrid[0:CELL, 0:CELL]
    patches = {}
    for r in range(rows):
        for c in range(cols):
            tone = 230.0 if r > 0 and c > 0 and (r * 3 + c) % 5 else 150.0
            y, x = r * CELL + ys, c * CELL + xs
            p = tone * np.where(y > 1.5 * CELL + 0.45 * x, depth, 1.0)
            p[:2], p[-2:], p[:, :2], p[:, -2:] = 40, 40, 40, 40
            patches[(r, c)] = p.astype(np.float32)
    return patches


def test_flatten_divides_out_a_hard_shadow_that_crosses_cells():
    rows, cols = 7, 9
    patches = _slanted_shadow_patches(rows, cols)
    flat = flatten(patches)
    assert set(flat) == set(patches)

    def spread(ps, whites):
        tones = [float(np.percentile(ps[cell][8:56, 8:56], 75)) for cell in whites]
        return max(tones) / min(tones)

    whites = [(r, c) for r in range(1, rows) for c in range(1, cols) if (r * 3 + c) % 5]
    assert spread(patches, whites) > 1.9  # in and out of the shadow, white cells differ twofold
    assert spread(flat, whites) < 1.25
    blocks = [(r, c) for r in range(1, rows) for c in range(1, cols) if not (r * 3 + c) % 5]
    brightest_block = max(float(np.percentile(flat[cell][8:56, 8:56], 75)) for cell in blocks)
    dimmest_white = min(float(np.percentile(flat[cell][8:56, 8:56], 75)) for cell in whites)
    assert brightest_block < dimmest_white  # the tones tell white from grey again


def test_the_diagonal_is_found_where_it_runs_not_beside_a_number_near_it():
    patch = np.full((CELL, CELL), 180.0, np.float32)
    for k in range(CELL):
        patch[k, np.clip(np.arange(k + 3, k + 6), 0, CELL - 1)] = 160.0  # a faint diagonal at x - y = 3..5
    patch[36:54, 12:16] = 60.0  # a bold "1" of the down number …
    patch[34:56, 20:34] = 60.0  # … and its second digit, close to the diagonal
    offset, _ = diagonal_line(patch)
    assert 3 <= offset <= 5


def _clue_patch() -> np.ndarray:
    """A grey clue cell (fill 150) with a dark diagonal corner to corner, 3 px wide."""
    patch = np.full((CELL, CELL), 150.0, np.float32)
    for k in range(CELL):
        patch[k, max(0, k - 1):k + 2] = 30.0
    return patch


def test_pieces_of_the_diagonal_beside_its_band_are_not_digits():
    patch = _clue_patch()
    for k in range(14, 30):  # the line drawn thicker over a stretch (a blurred, wider line there)
        patch[k, k + 2:k + 7] = 30.0
    patch[36:52, 8:11] = 30.0  # a "1" in the down half, away from the line
    number = clue_glyphs(patch, 230.0, "down")
    assert number is not None and len(number.glyphs) == 1
    assert clue_glyphs(patch, 230.0, "across") is None  # the thick stretch is in the across half


def test_a_digit_broken_in_two_pieces_is_also_read_joined():
    patch = _clue_patch()
    patch[36:52, 8:11] = 30.0   # a "1" …
    patch[36:52, 18:21] = 30.0  # … and a digit in two pieces, 2 px apart
    patch[36:52, 23:27] = 30.0
    number = clue_glyphs(patch, 230.0, "down")
    assert number is not None and len(number.glyphs) == 3
    shapes = [tuple(g.shape[1] for g in reading) for reading in segmentations(number)]
    assert shapes[0] == (3, 3, 4) and (3, 9) in shapes  # the two pieces joined, the "1" kept


def test_a_cells_sides_move_onto_the_edges_a_curl_bent_away_from_the_lattice():
    """A 3×3 grid whose middle row is drawn 8 px right of the lattice (as a curl bends it): the
    middle cell's patch is cut where its edges are, the lattice's box would cut into a neighbour."""
    rows = cols = 3
    image = np.full((rows * CELL, cols * CELL), 90, np.uint8)  # dark cells
    image[CELL:2 * CELL, CELL + 8:2 * CELL + 8] = 235  # the white middle cell, shifted right
    for k in range(CELL):
        image[k, k] = image[k, CELL + k] = 20  # diagonals of two clue cells in the first row
    lines = tuple(float(i * CELL) for i in range(cols + 1))
    grid = KakuroGridFind(np.zeros((4, 2)), rows, cols, np.repeat(image[..., None], 3, axis=2), lines, lines,
                          np.eye(3), 1.0)
    moved = cell_patches(grid)[(1, 1)]
    plain = cell_patch(grid, (1, 1))
    assert plain[32, :6].mean() < 150  # the lattice's box starts on the dark cell beside it
    assert moved[32, 2:6].mean() > 200 and moved[32, -6:-2].mean() > 200  # moved onto the white cell


def test_a_curl_that_bends_the_lines_a_fifth_of_a_cell_is_followed_between_dark_cells_too():
    """A 6×6 grid of thin lines on white whose vertical lines bend right by up to 13 px (a fifth of
    a cell) towards the bottom, as a curled page bends them; its bottom row is dark cells of two
    greys with no line between them. Patches are cut at the bent boundaries: a white cell's holds no
    line, and a dark cell's starts on its own grey although no line marks its side."""
    n, bend = 6, 13.0
    side = n * CELL
    image = np.full((side + 1, side + 20), 235, np.uint8)
    shift = lambda y: bend * (y / side) ** 2
    ys = np.arange(side + 1)
    for i in range(n + 1):
        xs = np.round(i * CELL + shift(ys)).astype(int)
        image[ys, xs] = image[ys, xs + 1] = 40
        image[i * CELL, :] = 40
    for y in range((n - 1) * CELL + 2, side):
        x = int(round(shift(y)))
        image[y, x + 2:] = 90
        image[y, x + 4 * CELL:x + 5 * CELL] = 130  # (5, 4): a lighter dark cell, no line around it
    lines = tuple(float(i * CELL) for i in range(n + 1))
    grid = KakuroGridFind(np.zeros((4, 2)), n, n, np.repeat(image[..., None], 3, axis=2), lines, lines,
                          np.eye(3), 1.0)
    patches = cell_patches(grid)
    white, plain_white = patches[(4, 4)], cell_patch(grid, (4, 4))
    assert plain_white[48, :12].min() < 100  # the straight lattice cuts in past the bent line
    assert white[48, 4:-4].min() > 200  # the bent box holds the white inside only
    dark, plain_dark = patches[(5, 4)], cell_patch(grid, (5, 4))
    assert plain_dark[32, 2:8].mean() < 100  # the straight box starts on the darker neighbour
    assert np.abs(dark[32, 5:-5] - 130).max() < 10  # the bent one (to 2 px) on its own grey


def test_a_row_of_light_buttons_below_the_grid_is_not_taken_for_a_row_of_it():
    """A hand-held app photo (kdev kk31-0103) with its digit buttons right under the grid: a lattice
    one row longer also looks like a Kakuro, but its first column ends in a light cell."""
    image, truth = photo(KakuroSpec("b", 451896142, 7, 8, "app", "handheld"))
    found = find_kakuro_grid(image)
    assert (found.rows, found.cols) == (truth.rows, truth.cols) == (7, 8)


def test_a_first_row_of_light_grey_clue_cells_is_dark_by_its_diagonals():
    """A clean web photo (kdev kk31-0101) whose grey fill is so light that its first row passes for
    light by tone: the diagonals of its clue cells say it is the clue row."""
    image, truth = photo(KakuroSpec("g", 1130131389, 10, 11, "web", "clean", filled=0.48447865549829183, wrong=0.15))
    found = find_kakuro_grid(image)
    assert (found.rows, found.cols) == (truth.rows, truth.cols) == (10, 11)


def _tuning_photo(spec, folder, make=make_kakuro_item) -> np.ndarray:
    """A corpus item (a Kakuro unless ``make`` says otherwise) made again and read back from its
    JPEG file, as `kensnap eval` sees it."""
    from ui.corpus import write_item
    path = write_item(spec, folder, make=make)
    return load_image(path.with_suffix(".jpg"))


def _held_out_grid(index: int, folder, seed: int = 2026, count: int = 180) -> tuple[KakuroGridFind, np.ndarray]:
    """What the Kakuro finder finds in held-out photo ``index`` of `kensnap corpus --kakuro --count
    COUNT --seed SEED`, and the photo's true corners."""
    from ui.corpus_kakuro import plan_kakuro
    spec = plan_kakuro(count, seed)[index]
    image = _tuning_photo(spec, folder)
    truth = json.loads((folder / f"{spec.id}.json").read_text())
    return find_kakuro_grid(image), np.array(truth["corners"])


def test_a_shadowed_run_its_clue_figures_announce_is_read_but_not_trusted(tmp_path):
    # Tuning photo kk77-0062 (web style, hard): a hard shadow over the bottom row makes its two white
    # cells look dark. The layout rules once made one of them white again and the puzzle so read was
    # reported as confident although a cell's tone said "surely dark"; then the run's last cell
    # stayed dark and the board was misread. Now the clue cells' figures ("a number stands in this
    # half, so its run begins after it") make both cells white: the board is read right, but as
    # the tones still disagree and another layout also has one solution, it is not trusted.
    spec = KakuroSpec("kk77-0062", 1270757788, 8, 7, "web", "hard")
    image = _tuning_photo(spec, tmp_path)
    truth = kakuro_from_json(json.loads((tmp_path / "kk77-0062.json").read_text())["truth"])
    reading = read_kakuro(image)
    assert reading.puzzle.grid == truth.grid
    assert not reading.confident
    assert LAYOUT_RIVAL_NOTE in reading.notes


def test_a_shadowed_white_cell_alone_in_its_run_is_made_white_again_but_not_trusted(tmp_path):
    # Tuning photo kk77-0017 (web style, hard): a shadow's edge along a cell boundary made a white
    # cell dark, leaving its neighbour alone in its run. The layout rules make it white again (first
    # the second opinion on the white cells did); the reading is right, but not confident: a cell's
    # tone disagrees with the layout.
    spec = KakuroSpec("kk77-0017", 408844575, 6, 6, "web", "hard")
    image = _tuning_photo(spec, tmp_path)
    truth = kakuro_from_json(json.loads((tmp_path / "kk77-0017.json").read_text())["truth"])
    reading = read_kakuro(image)
    assert reading.puzzle.grid == truth.grid and reading.status == "unique"
    assert not reading.confident


def test_a_second_opinion_on_the_white_cells_is_read_and_the_better_kept(tmp_path, monkeypatch):
    # Tuning photo kk77-0053 (web style, hard): the second opinion (the tones weighing more) made
    # cell r4c3 dark; read through, that layout has no puzzle with one solution, so the first is
    # kept — and it is right. Since the twenty-fifth round's bend fit (a measurement no neighbour
    # on its line agrees with is left out) the second opinion on this photo agrees with the first,
    # so the rival it gave before is given here in its place.
    import vision.kakuro as kakuro
    settled = []
    settle = kakuro.settle_layout

    def second_opinion_differs(*args):
        layout = settle(*args)
        if settled:
            layout = layout ^ {(3, 2)}  # the cell the second opinion made dark
        settled.append(layout)
        return layout

    monkeypatch.setattr(kakuro, "settle_layout", second_opinion_differs)
    # Read from its true corners: since the sixteenth round the finder probes the filled blobs when
    # no lattice stands out 0.15 (`FAINT`), and takes this photo's lit upper part, a 3×7 (a loss
    # recorded in docs/HISTORY.md); the layout's second opinion is what this test is about.
    spec = KakuroSpec("kk77-0053", 1385000328, 7, 7, "web", "hard", filled=0.32986271521082006, wrong=0.15)
    image = _tuning_photo(spec, tmp_path)
    photo = json.loads((tmp_path / "kk77-0053.json").read_text())
    truth = kakuro_from_json(photo["truth"])
    reading = kakuro.read_kakuro_in(grid_from_corners(image, np.asarray(photo["corners"]), 7, 7))
    assert len(set(settled)) == 2
    assert reading.puzzle.grid == truth.grid and reading.status == "unique"
    assert not reading.confident


def test_clue_places_are_looked_for_again_beside_a_hard_shadow(tmp_path):
    # Held-out kk2026-0062 (web style, hard, half-filled): a shadow over half the grid made its
    # white cells pass for dark places of clue cells, which show no diagonal, so the grid was
    # refused as a Kakuro and the photo read as a KenKen. Judged against their neighbours, the
    # places show their diagonals.
    found, corners = _held_out_grid(62, tmp_path)
    assert (found.rows, found.cols) == (7, 7)
    assert np.abs(found.corners - corners).max() < 4


def test_a_lattice_a_few_pixels_off_at_its_far_end_is_fitted_onto_the_grid(tmp_path):
    # Held-out kk2026-0115 (app style, hard, a shadow across the grid): the candidate outline was
    # right to 4 px, but the comb's end tooth was an edge beside the grid, so its boundaries fell on
    # the cell middles at the far end and the lattice did not stand out: no Kakuro found. A lattice
    # that does not stand out has its ends moved (up to 0.4 of a cell) onto the boundaries.
    found, corners = _held_out_grid(115, tmp_path)
    assert (found.rows, found.cols) == (10, 10)
    assert np.abs(found.corners - corners).max() < 5


def test_a_candidate_a_tenth_of_a_cell_off_is_probed_again_on_its_lattice(tmp_path):
    # Held-out kk2026-0151 (app style, hard): the best candidate outline was 0.13 cells off, and only
    # 57% of the clue places showed their faint diagonals, with too little contrast; on the outline
    # of the lattice it found, 71% show them.
    found, corners = _held_out_grid(151, tmp_path)
    assert (found.rows, found.cols) == (7, 8)
    assert np.abs(found.corners - corners).max() < 4


@pytest.mark.parametrize("seed, index, size", [(6262, 25, (10, 11)), (9191, 104, (11, 13)), (3131, 43, (9, 9)),
                                               (6262, 43, (12, 10))])
def test_the_lattice_gets_the_lines_of_cells_it_missed_and_loses_a_frame_taken_for_one(tmp_path, seed, index, size):
    # - kk6262-0025 (app, hard): a shadow's edge cut the candidate outline; the lattice missed the
    #   first row and column. Its first line held white cells, which no Kakuro's first line does, and
    #   the cells before them showed clue diagonals: the lines are added.
    # - kk9191-0104 (web, hand-held): the lattice ended a column short; beyond it a boundary one cell
    #   on, none half a cell on, and row boundaries crossing the column as they cross the grid's.
    # - kk3131-0043 (app, hard) and kk6262-0043 (app, hard): the light frame round the grid was taken
    #   for a last row; no boundary crosses it, so it is taken off.
    found, corners = _held_out_grid(index, tmp_path, seed=seed)
    assert (found.rows, found.cols) == size
    assert np.abs(found.corners - corners).max() < 0.6 * np.linalg.norm(corners[1] - corners[0]) / size[1]


def test_the_grid_round_the_lit_part_a_hard_shadow_leaves_is_taken(tmp_path):
    # kk5757-0032 (web, hand-held): a shadow's hard edge runs down the grid; its lit part (10×6,
    # its first column holding white cells) stood out more clearly than the whole 10×11, whose
    # lattice holds it as its last six columns (vision.kakuro_grid._whole).
    found, corners = _held_out_grid(32, tmp_path, seed=5757, count=90)
    assert (found.rows, found.cols) == (10, 11)
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / 11


def test_a_last_column_of_big_digits_and_clue_diagonals_is_a_column_of_the_grid(tmp_path):
    # kk6868-0155 (web, clean): the KenKen finder's square 10×10 outline was taken for the 10×11
    # grid. Beyond its last column the next one's big digits and clue diagonals made edges half a
    # cell on 0.64 as strong as the grid's border one cell on; fitted_lines took that for a lattice
    # half a cell off (over EXTEND_HALF = 0.6) and added no column. At 0.7 it does.
    found, corners = _held_out_grid(155, tmp_path, seed=6868, count=300)
    assert (found.rows, found.cols) == (10, 11)
    assert np.abs(found.corners - corners).max() < 0.1 * np.linalg.norm(corners[1] - corners[0]) / 11


@pytest.mark.parametrize("seed, index, size", [(5858, 68, (9, 9)), (5858, 134, (10, 9)), (3131, 97, (8, 7)),
                                               (3131, 115, (7, 7)), (5858, 70, (11, 9)), (5858, 79, (10, 9)),
                                               (6464, 80, (7, 5))])
def test_an_apps_keypad_whose_figures_count_1_2_3_is_no_row_of_the_grid(tmp_path, seed, index, size):
    # App photos whose lattice ran on over the keypad below the grid (hand-held kk5858-0068 by two
    # rows, hard kk5858-0134, kk3131-0097 and -0115 by one): its buttons line up with the grid's
    # columns, or sit in a shadow, or a button's figure looks like a diagonal, so the other keypad
    # rules let it pass; its figures, read by the digit model, count 1, 2, 3, … along one line.
    # Sixteenth round: on a dark page the ink over the strip's paper tone joins the figures to the
    # page round the buttons, so they are also looked for as dark holes in the light buttons (hard
    # kk5858-0070); the keypad can start left of the lattice, its "1" cut off (kk5858-0079), and a
    # row the lattice gains at the bottom is looked at too (kk6464-0080, whose buttons are small).
    found, corners = _held_out_grid(index, tmp_path, seed=seed)
    assert (found.rows, found.cols) == size
    assert np.abs(found.corners - corners).max() < 0.5 * np.linalg.norm(corners[1] - corners[0]) / size[1]


def test_columns_of_shadowed_page_beside_the_grid_are_taken_off(tmp_path):
    # Hard kk5858-0097 (app): the only outline that showed a Kakuro ran on over the page in a shadow
    # right of the grid, three columns of it; boundaries cross them ten times more weakly (0.06)
    # than the grid's last column (0.56), so they are taken off (6×10 → 6×7).
    found, corners = _held_out_grid(97, tmp_path, seed=5858)
    assert (found.rows, found.cols) == (6, 7)
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / 7


@pytest.mark.parametrize("index, size", [(26, (10, 11)), (116, (11, 10))])
def test_an_outline_the_border_put_off_the_grids_lines_is_moved_onto_them(tmp_path, index, size):
    # Hard web photos of seed 6262 on a curled page: the straight fit of the border put the far
    # lines of the lattice 0.57 and 0.78 of a cell off the grid's (kk6262-0026, -0116, read wrong);
    # moved to lie on the strongest edges, they are within 0.45 (0.22 and 0.39; both read right).
    found, corners = _held_out_grid(index, tmp_path, seed=6262)
    assert (found.rows, found.cols) == size
    assert np.abs(found.corners - corners).max() < 0.45 * np.linalg.norm(corners[1] - corners[0]) / found.cols


def test_a_light_frame_against_a_dark_screen_does_not_draw_the_outline_onto_itself(tmp_path):
    # Hand-held kk6464-0158 (web page on a screen): the fit of the outline onto the strongest edges
    # took the page's light frame against the dark screen for the grid's border, a corner half a
    # cell out, and the first column's numbers were cut in half. With edges capped at the 90th
    # percentile of those on the lattice's lines, the corner lies within a third of a cell.
    found, corners = _held_out_grid(158, tmp_path, seed=6464)
    assert (found.rows, found.cols) == (11, 13)
    assert np.abs(found.corners - corners).max() < 0.33 * np.linalg.norm(corners[1] - corners[0]) / 13


def test_a_faint_lattice_does_not_keep_the_filled_blob_of_the_grid_from_being_probed(tmp_path):
    # Hard kk6464-0042 (newspaper, 24 px a cell): the grid's outline joined the crossword's below it
    # and only their joint 10×6 lattice showed a Kakuro, standing out 0.10; the grid's filled blob,
    # probed because no lattice stands out 0.15, shows the 6×6 at 0.47.
    found, corners = _held_out_grid(42, tmp_path, seed=6464)
    assert (found.rows, found.cols) == (6, 6)
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / 6


def test_clue_places_with_faint_diagonals_pass_by_their_light_figures(tmp_path):
    # Hard kk7575-0097 (app, 26 px a cell): the thin diagonals of the dark clue cells blurred away,
    # 38% of the clue places showed one, 1.8 times clearer than the other cells, and no candidate
    # passed; 94% of them hold a light figure where their number goes, which a page of text's dark
    # patches do not (no KenKen photo of seed 9090 more is taken for a Kakuro).
    found, corners = _held_out_grid(97, tmp_path, seed=7575)
    assert (found.rows, found.cols) == (8, 8)
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / 8


def test_a_grid_cut_by_a_shadow_is_found_in_a_copy_with_the_shadow_flattened(tmp_path):
    # Tuning photo kk77-0087 (newspaper style, hard): a shadow's edge across the grid broke every
    # candidate outline. In a copy divided by the paper's local tone the grid's outline is whole.
    spec = KakuroSpec("kk77-0087", 2134130908, 6, 5, "newspaper", "hard", filled=0.2934356012460414, wrong=0.15)
    image = _tuning_photo(spec, tmp_path)
    corners = np.array(json.loads((tmp_path / "kk77-0087.json").read_text())["corners"])
    found = find_kakuro_grid(image)
    assert (found.rows, found.cols) == (6, 5)
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / 5


@pytest.mark.parametrize("index, size", [(142, (7, 7)), (96, (8, 10))])
def test_a_grid_whose_outline_runs_into_a_shadows_edge_is_found_as_a_solid_blob(tmp_path, index, size):
    # Once-fresh kk1123-0142 (app style, hard): the grid's outline touches the edge of a shadow and
    # of the wall behind the page, and kk1123-0096 (newspaper, hard) the page's text, so in the ink
    # they are one blob whose hull is no grid: no Kakuro found. Filled, and opened so that thin
    # links go, the grid is a solid blob of its own (:func:`vision.grid.solid_quads`).
    found, corners = _held_out_grid(index, tmp_path, seed=1123)
    assert (found.rows, found.cols) == size
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / size[1]


@pytest.mark.parametrize("seed, index, size", [(5150, 76, (10, 10)), (5150, 82, (12, 12)), (5150, 83, (7, 7)),
                                               (5150, 71, (8, 8)), (5150, 51, (8, 6)), (5150, 35, (8, 8)),
                                               (4242, 25, (6, 6))])
def test_grids_the_finder_once_missed_are_found(tmp_path, seed, index, size):
    # Once-fresh photos of seed 5150, all misread before:
    # - kk5150-0076 (app, hand-held): every third row boundary was strong, so the three-row comb won
    #   and cells three times taller than wide were refused; the rows' comb is looked for again near
    #   the columns' cell size.
    # - kk5150-0082 and -0083 (clean): lattices one column wider (over the page's edge) or over the
    #   whole photo (title and keypad) outscored the grid's own; their cells straddle strong edges.
    # - kk5150-0071 (web, hard): the light grey first row was lighter than 0.86 of the grid's white
    #   (light falls off down the page), but dark next to the white cells below it.
    # - kk5150-0051 (newspaper, hard, curled): the comb's tooth nearest the bottom was the last inner
    #   boundary's tail, 0.8 of a cell above the grid's border, an edge twice as strong: a row lost.
    # - kk5150-0035 and kk4242-0025 (hard, shadows over most of the grid): its white cells passed for
    #   dark (73% and 86% "dark"); by their tones with the light evened out, they are white.
    found, corners = _held_out_grid(index, tmp_path, seed=seed)
    assert (found.rows, found.cols) == size
    assert np.abs(found.corners - corners).max() < 0.3 * np.linalg.norm(corners[1] - corners[0]) / size[1]


def test_a_column_of_newspaper_text_is_no_kakuro(tmp_path):
    # KenKen tuning photo k1234-0042 (newspaper style, hard): with lattices fitted harder, one over
    # the page's text (12 columns of 10 rows, 60% "dark") had 54% of its clue places showing a
    # "diagonal" — letters — but only 1.6 times clearer than elsewhere; Kakuro clue cells show theirs
    # at least twice as clearly. Lattices of cells three times taller than wide (10 × 3 over a
    # square outline) are refused too.
    from ui.corpus import make_item, plan
    image = _tuning_photo(plan(300, 1234)[42], tmp_path, make=make_item)
    with pytest.raises(NoPuzzleFound):
        find_kakuro_grid(image)


def test_an_eleven_blurred_into_one_blob_is_read_as_eleven(tmp_path):
    # Held-out hand-held photo kk4242-0131 (web style, 51 px per cell): both "11"s (r3c6 down and
    # r5c8 down) blur into one glyph nearly as wide as tall, which the digit model reads as a
    # doubtful "7"; cut in two it reads "11" surely. That cut was weighed at a twentieth, so the
    # puzzle was read with two "7"s and two other numbers changed to fit.
    from ui.corpus_kakuro import plan_kakuro
    spec = plan_kakuro(180, 4242)[131]
    image = _tuning_photo(spec, tmp_path)
    truth = kakuro_from_json(json.loads((tmp_path / f"{spec.id}.json").read_text())["truth"])
    reading = read_kakuro(image)
    assert truth.grid[2][5].down == truth.grid[4][7].down == 11
    assert reading.puzzle.grid == truth.grid
    assert reading.confident


def test_a_frame_read_as_an_outer_column_of_blocks_is_never_confident(tmp_path):
    # Held-out clean photo kk5150-0082 (app style, 83 px per cell): the white frame left of the
    # 12×12 grid was taken for a column of blocks, and the puzzle read one column over had exactly
    # one solution, so a 12×13 Kakuro was reported as confident. No Kakuro prints a row or column of
    # nothing but blocks, so such a reading is not trusted, and says why.
    # (The finder now finds the grid itself; the frame's column is given to the reader here.)
    from ui.corpus_kakuro import plan_kakuro
    from vision.kakuro import read_kakuro_in
    from vision.kakuro_grid import grid_from_corners
    spec = plan_kakuro(180, 5150)[82]
    image = _tuning_photo(spec, tmp_path)
    tl, tr, br, bl = np.array(json.loads((tmp_path / f"{spec.id}.json").read_text())["corners"], float)
    wider = np.array([tl - (tr - tl) / 12, tr, br, bl - (br - bl) / 12])
    reading = read_kakuro_in(grid_from_corners(image, wider, 12, 13))
    assert (reading.puzzle.rows, reading.puzzle.cols) == (12, 13)
    assert not reading.confident
    assert any(note.startswith(BARE_EDGE_NOTE) for note in reading.notes)
    # Taken off, the line leaves the true 12×12, read again: right, and still not confident.
    truth = kakuro_from_json(json.loads((tmp_path / f"{spec.id}.json").read_text())["truth"])
    smaller = trimmed(image, reading)
    assert (smaller.puzzle.rows, smaller.puzzle.cols) == (12, 12)
    assert smaller.puzzle.grid == truth.grid and smaller.status == "unique"
    assert not smaller.confident and any(note.startswith(TRIM_NOTE) for note in smaller.notes)


def test_a_row_of_blocks_below_the_grid_is_taken_off(tmp_path):
    # Held-out kk8181-0089 (hard, web style): the finder took the strip of page below the 9×10 grid
    # for a tenth row, which read as nothing but blocks; the 10×10 had exactly one solution. The
    # reading then took the bare row off (`trimmed`, tested on kk5150-0082 above); since the
    # fourteenth round the finder takes it off itself, as no boundary crosses it (`fitted_lines`).
    from ui.corpus_kakuro import plan_kakuro
    spec = plan_kakuro(180, 8181)[89]
    image = _tuning_photo(spec, tmp_path)
    truth = kakuro_from_json(json.loads((tmp_path / f"{spec.id}.json").read_text())["truth"])
    found = find_kakuro_grid(image)
    assert (found.rows, found.cols) == (9, 10)
    reading = read_kakuro(image)
    assert (reading.puzzle.rows, reading.puzzle.cols) == (9, 10)
    assert reading.puzzle.grid == truth.grid


def test_a_far_clearer_lattice_beats_a_bigger_one(tmp_path):
    # kk9191-0042 (hard, fresh set of the eighth round, looked at in the ninth): a 15×9 lattice run
    # on over the page around the 9×9 grid outscored the grid's own by its area at half its contrast
    # (0.29 against 0.64). The far clearer lattice is taken; its corners are the true ones.
    from ui.corpus_kakuro import plan_kakuro
    spec = plan_kakuro(180, 9191)[42]
    image = _tuning_photo(spec, tmp_path)
    item = json.loads((tmp_path / f"{spec.id}.json").read_text())
    found = find_kakuro_grid(image)
    assert (found.rows, found.cols) == (9, 9)
    side = np.linalg.norm(np.subtract(item["corners"][1], item["corners"][0])) / 9
    assert np.abs(np.asarray(found.corners) - np.asarray(item["corners"])).max() < 0.2 * side


def _probe(score: float, contrast: float) -> tuple[np.ndarray, Probe]:
    return np.zeros((4, 2)), Probe(np.zeros((4, 2)), 9, 9, contrast, score, 0.5)


def test_the_clearer_lattice_rule_needs_twice_the_contrast():
    big, clear, near = _probe(39.0, 0.29), _probe(31.7, 0.64), _probe(35.0, 0.40)
    assert _chosen([big, clear, near]) is clear
    assert _chosen([big, near]) is big  # 1.4 times clearer is not enough: the score decides
    assert _chosen([clear]) is clear


def _true_cells(seed: int, index: int, folder) -> tuple:
    """``(truth, patches, level, layout)`` of photo ``index`` of `kensnap corpus --kakuro --count 180
    --seed SEED` made again: its Kakuro, the cell patches cut from its true corners, their white
    levels, and its true white cells."""
    from ui.corpus_kakuro import plan_kakuro
    from vision.kakuro_grid import grid_from_corners
    spec = plan_kakuro(180, seed)[index]
    image = _tuning_photo(spec, folder)
    item = json.loads((folder / f"{spec.id}.json").read_text())
    truth = kakuro_from_json(item["truth"])
    patches = cell_patches(grid_from_corners(image, np.array(item["corners"]), truth.rows, truth.cols))
    _, level = cell_tones(patches)
    layout = frozenset((r, c) for r in range(truth.rows) for c in range(truth.cols) if truth.grid[r][c] == ".")
    return truth, patches, level, layout


def test_a_shadows_edge_in_a_white_cell_is_no_written_digit(tmp_path):
    # Once-fresh kk5150-0043 (hard, half-filled, 21 digits written): with the true corners and layout,
    # 15 empty white cells were read as holding a digit (a shadow's edge across them); their ink is
    # gone once the light is evened out, and it read unsurely; it is also gone against the local
    # paper (ENTRY_KEEP), so it is no glyph at all now. The written digits stay.
    from vision.kakuro import read_entries
    from vision.kakuro_cells import digit_model, entry_glyph
    truth, patches, level, layout = _true_cells(5150, 43, tmp_path)
    flat = flatten(patches)
    _, flat_level = cell_tones(flat)
    written = {(r, c) for r in range(truth.rows) for c in range(truth.cols) if truth.entries[r][c]}
    edges = {cell for cell in layout - written if entry_glyph(patches[cell], level[cell]) is not None}
    assert len(edges) >= 10  # against the cell's one white level, the edge is ink as tall as a digit
    as_seen, _ = read_entries(layout, patches, level, digit_model())
    evened, _ = read_entries(layout, patches, level, digit_model(), (flat, flat_level))
    read = lambda grid_: {(r, c) for r in range(truth.rows) for c in range(truth.cols) if grid_[r][c]}  # noqa: E731
    assert len(read(as_seen) - written) <= 2
    assert read(as_seen) & written == read(evened) & written
    assert len(read(evened) - written) <= 2
    assert len(read(evened) & written) >= len(written) - 1
    assert sum(evened[r][c] == truth.entries[r][c] for r, c in written) >= len(written) - 2


def test_digits_under_a_broad_shadow_stand_out_from_their_own_paper(tmp_path):
    # Hand-held kk2727-0012 (`kensnap corpus --kakuro --count 180 --seed 2727`, item 12): a broad
    # shadow over the top rows, and the white level fitted over the grid came out far darker than
    # the paper there (100 against 166), so the pen digits of rows 2-5 were no ink and 12 of them
    # were missed. Against the cell's own paper (entry_white) they are read.
    from vision.kakuro import read_entries
    from vision.kakuro_cells import digit_model, entry_white
    truth, patches, level, layout = _true_cells(2727, 12, tmp_path)
    top = [(r, c) for r in range(1, 5) for c in range(truth.cols) if truth.entries[r][c]]
    assert len(top) >= 12
    assert sum(entry_white(patches[cell], level[cell]) > level[cell] + 30 for cell in top) >= 8
    read, _ = read_entries(layout, patches, level, digit_model())
    assert sum(read[r][c] == truth.entries[r][c] for r, c in top) >= len(top) - 1


def test_a_search_out_of_conflicts_never_calls_a_reading_unique(monkeypatch):
    # A grid read a column short (kk7070-0044 as 10×9) once asked the SAT solver questions of up to
    # 93,000 conflicts each and took 17 minutes. Each question now has a conflict budget: one it
    # cannot settle is undecided, its reading dropped, and the search says so.
    seed = seed_puzzle()
    numbers = {(run.clue_cell, run.direction): ((run.total, 1.0),) for run in seed.runs}
    with ReadingSolver(seed, numbers) as search:
        assert search.settle().status == "unique" and search.undecided == 0
    monkeypatch.setattr(reconcile_module, "SEARCH_CONFLICTS", 0)
    with ReadingSolver(seed, numbers) as search:
        settled = search.settle()
    assert settled.status != "unique" and settled.solution is None and settled.undecided >= 1


def test_the_searches_of_one_photo_share_one_purse_of_conflicts():
    # A KenKen photo looked at as a Kakuro had each of its 2-12 layouts spend SEARCH_CONFLICTS in
    # vain (hard k5252-0276: 12 s). Each search takes what it spent out of the photo's purse and
    # may spend no more than is left.
    from vision.kakuro_reconcile import Purse

    seed = seed_puzzle()
    numbers = {(run.clue_cell, run.direction): ((run.total, 0.6), (run.total + 1, 0.4)) for run in seed.runs}
    purse = Purse(10 ** 6)
    with ReadingSolver(seed, numbers, purse) as search:
        assert search.settle().status == "unique"
    assert purse.left == 10 ** 6 - search.spent and search.budget == reconcile_module.SEARCH_CONFLICTS
    spent = Purse(0)
    with ReadingSolver(seed, numbers, spent) as search:
        settled = search.settle()
    assert spent.empty and search.budget == 0
    assert settled.status != "unique" and settled.undecided >= 1


def test_an_undecided_search_is_noted_and_not_confident(monkeypatch):
    spec = KakuroSpec("u", 31, 6, 7, "app", "clean")
    image, _ = make_kakuro_item(spec)
    monkeypatch.setattr(reconcile_module, "QUESTION_CONFLICTS", 1)
    reading = read_kakuro(image)
    assert not reading.confident and reading.status != "unique"
    assert any(note.startswith(UNDECIDED_NOTE) for note in reading.notes)


def test_alignment_turns_a_slanted_outline_onto_the_grid():
    # A candidate a few degrees off the grid's outline smears every boundary over several columns of
    # the probe's profile (hard kk7070-0044, an app panel with its keypad: 10×10 found for 9×11).
    image, truth = make_kakuro_item(KakuroSpec("a", 52, 8, 9, "newspaper", "clean"))
    gray, scale = work_copy(image)
    levels = pyramid(gray)
    corners = (np.asarray(truth["corners"], np.float64) + 0.5) * scale - 0.5
    side = np.linalg.norm(corners[1] - corners[0])
    slanted = corners + np.array([[0.04, -0.03], [-0.03, 0.04], [0.03, 0.02], [-0.04, -0.02]]) * side
    moved = aligned(levels, slanted)
    assert concentration(levels, moved) > concentration(levels, slanted)
    assert np.abs(moved - corners).max() < 0.5 * np.abs(slanted - corners).max()


@pytest.mark.parametrize("seed, index, size", [
    (7070, 44, (9, 11)),   # an app panel with its keypad, slanted against the grid: found as 10×10 unaligned
    (8181, 169, (10, 10)),  # the keypad's row of buttons below the grid: found as 11×10
    (9191, 15, (9, 9)),    # a cell size estimated 3% long: 8 rows found
])
def test_held_out_hard_grids_are_counted_right(tmp_path, seed, index, size):
    found, corners = _held_out_grid(index, tmp_path, seed)
    assert (found.rows, found.cols) == size
    side = np.linalg.norm(corners[1] - corners[0]) / size[1]
    assert np.abs(np.asarray(found.corners) - corners).max() < 0.6 * side  # the lines are snapped later


def test_a_keypad_row_has_figures_a_light_block_row_has_none():
    # Rows of an 8×6 lattice, 40 px cells: the first column dark, the last row light; with a figure
    # in each of its first two cells it is an app's keypad, blank it is a light grey web Kakuro's blocks.
    xs, ys = np.arange(7) * 40.0, np.arange(9) * 40.0
    dark = np.zeros((8, 6), bool)
    dark[:7, 0] = True
    gray = np.full((320, 240), 230, np.uint8)
    gray[:280, :40] = 60
    assert not _keypad_row(gray, xs, ys, dark)
    for c in (0, 1):
        cv2.putText(gray, str(c + 1), (c * 40 + 12, 310), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 40, 2)
    assert _keypad_row(gray, xs, ys, dark)
    dark[3, 0] = dark[4, 0] = False  # a first column not dark enough says nothing
    assert not _keypad_row(gray, xs, ys, dark)


def test_a_number_where_the_light_falls_off_is_seen_whole_over_the_local_fill(tmp_path):
    # Held-out hard photo kk3131-0152 (web style, 28 px per cell): r3c4's across number "12" sits
    # where the cell brightens towards a light's centre. Against the cell's one fill the "2" on the
    # bright side is barely ink and only the "1" was seen (read "21", at a hundredth); over the local
    # fill (a grey closing) both digits stand out and read "12" surely.
    from vision.kakuro import Figures, numbers_seen
    from vision.kakuro_cells import digit_model
    found, _ = _held_out_grid(152, tmp_path, seed=3131)
    patches = cell_patches(found)
    _, level = cell_tones(patches)
    cell = (2, 3)
    assert len(clue_glyphs(patches[cell], level[cell], "across").glyphs) == 1
    assert len(clue_glyphs(patches[cell], level[cell], "across", local=True).glyphs) == 2
    layout = frozenset({(2, 4), (2, 5), (2, 6), (2, 7)})  # its run
    seen = numbers_seen(layout, Figures(patches, level, local=True), digit_model(local=True))
    assert seen[(cell, "across")][0][0] == 12 and seen[(cell, "across")][0][1] > 0.9


def test_numbers_are_read_by_both_views_and_averaged(monkeypatch):
    from vision import kakuro
    across, down, other = ((0, 0), "across"), ((0, 0), "down"), ((2, 0), "across")
    views = {False: {across: ((16, 0.9), (11, 0.1)), down: (), other: ((5, 0.95), (6, 0.05))},
             True: {across: ((11, 0.99),), down: ((7, 0.6), (1, 0.4)), other: ((5, 0.7), (6, 0.3))}}
    monkeypatch.setattr(kakuro, "numbers_seen", lambda layout, figures, model: views[figures.local])
    patches = {(0, 0): None, (0, 1): None, (1, 0): None}
    both, sure = kakuro.read_numbers(frozenset({(0, 1), (1, 0)}), (
        kakuro.NumberView(kakuro.Figures(patches, {}), None), kakuro.NumberView(kakuro.Figures(patches, {}, local=True), None)))
    assert both[across] == ((11, pytest.approx(0.545)), (16, pytest.approx(0.45)))
    assert both[down] == ((7, 0.6), (1, 0.4))  # seen by one view only: that view's reading
    assert both[other] == ((5, pytest.approx(0.825)), (6, pytest.approx(0.175)))
    assert sure == {other}  # the views agree and one is sure; they disagree on `across`; `down` is unsure


def _held_out_reading(index: int, folder, seed: int):
    """The Kakuro read from held-out photo ``index`` of `kensnap corpus --kakuro --count 180 --seed
    SEED`, and the true puzzle."""
    from ui.corpus_kakuro import plan_kakuro
    spec = plan_kakuro(180, seed)[index]
    image = _tuning_photo(spec, folder)
    truth = kakuro_from_json(json.loads((folder / f"{spec.id}.json").read_text())["truth"])
    return read_kakuro(image), truth


@pytest.mark.parametrize("seed, index", [
    (5858, 23),
    pytest.param(7575, 141, marks=pytest.mark.xfail(strict=False, reason=(
        "depends on the fit: the Kakuro models a fresh machine fitted on 2026-11-28 read this hard "
        "photo's layout otherwise (the sets 2727 read as well or better: hard 55 of 60)"))),
    (5858, 122)])
def test_a_layout_that_needs_numbers_the_photo_does_not_show_has_cells_turned(tmp_path, seed, index):
    # Shadows as dark as the blocks over white cells, the steps at their edges along cell boundaries:
    # - hand-held kk5858-0023: five white cells of the last two rows read dark, so two runs needed
    #   numbers whose clue cells show none. Turning such a cell white (and its neighbours settled by
    #   the steps again) twice over gives the true layout, read with no change.
    # - hard kk7575-0141: a run too short for its "15"; made longer, the layout has two solutions,
    #   and the cell after a run that looks like the run's last cell is turned white too.
    # - hand-held kk5858-0122: no solution; one such cell after a run turned white.
    # The tones still say otherwise, and the layouts read first also have one solution: not trusted.
    reading, truth = _held_out_reading(index, tmp_path, seed)
    assert reading.puzzle.grid == truth.grid and reading.status == "unique"
    assert not reading.confident and LAYOUT_RIVAL_NOTE in reading.notes


def test_a_turned_layout_needing_no_number_unseen_is_not_kept_when_less_likely(tmp_path):
    # Hard kk7575-0024: the true layout needs a number whose figure is too faint to see (its clue
    # cell's diagonal faint too); turning the cell after it dark makes a layout that needs none but
    # changes four numbers against two. The likelier first reading is kept.
    reading, truth = _held_out_reading(24, tmp_path, 7575)
    assert reading.puzzle.grid == truth.grid and reading.status == "unique"


def test_cells_that_make_no_kakuro_in_any_layout_say_so(monkeypatch):
    # Held-out kk4747-0105 (hard): every layout read made a run of ten cells. The layout repairs once
    # looked for the best of no outcomes and crashed; the reader says what it found instead.
    import vision.kakuro as kakuro

    def no_kakuro(*args):
        raise NoPuzzleFound("the cells read do not make a Kakuro: the down run at r2c12 has 10 cells")
    monkeypatch.setattr(kakuro, "reconcile", no_kakuro)
    image, _ = photo(CLEAN[0])
    with pytest.raises(NoPuzzleFound, match="10 cells"):
        read_kakuro(image)


def test_a_half_whose_tails_leave_its_figures_tone_in_doubt_takes_the_grids():
    # Hard kk4747-0008 (web page, a shadow): the lattice ran a little off, so a strip of the lighter
    # cell beside showed inside a clue cell's across half, as far above its shadowed grey fill as its
    # dark "10" was below: the half was cut for light figures and "10" read as 20 or 21.
    patch = _clue_patch()
    patch[10:24, 36:39] = 100.0     # a dark "1" …
    patch[10:24, 42:50] = 100.0     # … and a dark blob for its "0"
    patch[8:56, CELL - 11:CELL - EDGE] = 230.0  # the lighter neighbour's strip, inside the edges
    alone = clue_glyphs(patch, 230.0, "across")
    told = clue_glyphs(patch, 230.0, "across", light_figures=False)
    assert alone is None or [g.shape for g in alone.glyphs] != [(14, 3), (14, 8)]
    assert told is not None and [g.shape for g in told.glyphs] == [(14, 3), (14, 8)]
    # the grid's tone is what most clue cells' halves say
    clean = _clue_patch()
    clean[10:24, 40:44] = 60.0
    patches = {(0, k): clean for k in range(3)} | {(0, 3): patch, (0, 4): np.full((CELL, CELL), 150.0, np.float32)}
    diagonal = {cell: 5.0 for cell in patches} | {(0, 4): 0.2}
    assert figure_tone(patches, diagonal) is False
    assert figure_tone({(0, 4): patches[(0, 4)]}, {(0, 4): 0.2}) is None


@pytest.mark.parametrize("index", [1, 5])
def test_a_kakuro_cut_by_the_photos_edge_is_said_to_be(index):
    """A Kakuro cut 0.6 of a cell inside its last column reads with one solution (the part in view),
    not confident; the reading now says the grid reaches the photo's right edge, as a KenKen's
    without a solution does (vision.read.edge_advice). The whole photo reads confidently, unnoted."""
    from vision.read import EDGE_NOTE

    spec = CLEAN[index]
    image, truth = make_kakuro_item(spec)
    corners = np.array(truth["corners"])
    cell = np.linalg.norm(corners[1] - corners[0]) / spec.cols
    cut = read_kakuro(image[:, : int(max(corners[1, 0], corners[2, 0]) - 0.6 * cell)])
    assert not cut.confident
    assert any(note.startswith(f"{EDGE_NOTE} right edge") for note in cut.notes)
    whole = read_kakuro(image)
    assert whole.confident and not any(note.startswith(EDGE_NOTE) for note in whole.notes)
