"""The labelled corpus: deterministic items whose truth round-trips through the schema and the solver."""
import json

import cv2
import numpy as np
from conftest import REPO
from solver import solve
from solver.formats import puzzle_from_json, puzzle_to_json
from ui.cli import main
from ui.corpus import SAMPLES, ItemSpec, make_item, plan
from ui.evaluate import load_truths


def test_plan_is_deterministic_and_varied():
    specs = plan(30, seed=4)
    assert specs == plan(30, seed=4) and specs != plan(30, seed=5)
    assert {s.style for s in specs} == {"newspaper", "app", "web"}
    assert {s.level for s in specs} == {"clean", "handheld", "hard"}
    assert any(s.filled for s in specs) and any(s.hidden_ops for s in specs)


def test_a_big_plan_has_grids_of_ten_to_sixteen_and_is_otherwise_the_same():
    from dataclasses import replace

    small, big = plan(40, seed=6), plan(40, seed=6, big=True)
    assert {s.size for s in big} <= set(range(10, 17)) and len({s.size for s in big}) >= 5
    assert [replace(s, size=0) for s in small] == [replace(s, size=0) for s in big]


def test_an_item_is_deterministic_and_its_truth_is_consistent():
    spec = ItemSpec("t", 7, 5, "newspaper", "handheld", filled=0.4, wrong=0.2)
    image, truth = make_item(spec)
    image2, truth2 = make_item(spec)
    assert truth == truth2 and (image == image2).all()
    puzzle = puzzle_from_json(truth["truth"])
    assert puzzle_to_json(puzzle) == truth["truth"]
    result = solve(puzzle.with_entries(None))
    assert result.status == "unique" and [list(r) for r in result.solution] == truth["solution"]
    filled = [(r, c) for r in range(5) for c in range(5) if puzzle.entries[r][c] is not None]
    assert filled and any(puzzle.entries[r][c] != truth["solution"][r][c] for r, c in filled)
    h, w = image.shape[:2]
    assert all(0 <= x < w and 0 <= y < h for x, y in truth["corners"])


def test_corpus_command_writes_pairs_the_evaluator_reads(tmp_path):
    assert main(["corpus", str(tmp_path), "--count", "3", "--seed", "2", "--workers", "1"]) == 0
    truths = load_truths(tmp_path)
    assert len(truths) == 3 and all(t.image.suffix == ".jpg" for t in truths)


def test_committed_samples_match_their_specs():
    for spec in SAMPLES:
        data = json.loads((REPO / "samples" / f"{spec.id}.json").read_text())
        assert (REPO / "samples" / data["image"]).is_file()
        assert data["spec"]["seed"] == spec.seed and data["spec"]["style"] == spec.style
        assert solve(puzzle_from_json(data["truth"]).with_entries(None)).status == "unique"
    levels = {spec.level for spec in SAMPLES}
    assert levels == {"clean", "handheld", "hard"} and any(s.filled for s in SAMPLES)
    assert any(s.hidden_ops for s in SAMPLES) and {s.size for s in SAMPLES} >= {3, 9}


def test_generate_command_prints_schema_lines(capsys):
    assert main(["generate", "--size", "5", "--count", "2", "--seed", "9", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(solve(puzzle_from_json(json.loads(l))).status == "unique" for l in lines)
    assert main(["generate", "--size", "20"]) == 2


def test_phone_sized_items_are_as_big_as_asked_with_the_same_puzzle(tmp_path):
    """``--megapixels``: the same puzzles and looks as the small photos, in a frame of about that
    many megapixels with the grid filling PHONE_FILL of its shorter side."""
    from ui.corpus import PHONE_FILL, corners_cell_px

    small, phone = plan(6, seed=3)[4], plan(6, seed=3, megapixels=3)[4]
    _, small_truth = make_item(small)
    image, truth = make_item(phone)
    assert truth["truth"] == small_truth["truth"] and "phone size (3 MP)" in truth["kind"]
    h, w = image.shape[:2]
    assert 0.8 * 3e6 <= h * w <= 1.25 * 3e6
    fill = corners_cell_px(truth["corners"], phone.size, phone.size) * phone.size / min(h, w)
    assert PHONE_FILL[0] - 0.1 <= fill <= PHONE_FILL[1] + 0.1
    assert main(["corpus", str(tmp_path), "--count", "1", "--seed", "2", "--megapixels", "60"]) == 2


def test_dark_items_show_their_screens_in_dark_mode_with_the_same_puzzles(tmp_path):
    """``--dark``: the app and web looks as a dark mode shows them (a near-black page inside the
    grid), the newspaper look as printed; the same puzzles and looks as without."""
    from ui.render import DARK_PAGE

    light, dark = plan(6, seed=3), plan(6, seed=3, dark=True)
    assert [s.dark for s in dark] == [s.style != "newspaper" for s in dark] and not any(s.dark for s in light)
    for plain, shown in zip(light[:3], dark[:3]):
        image, truth = make_item(shown)
        _, plain_truth = make_item(plain)
        assert truth["truth"] == plain_truth["truth"]
        quad = np.array(truth["corners"], np.float32)
        inside = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
        grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)[inside > 0].mean()
        assert (grey < DARK_PAGE) == shown.dark and ("dark mode" in truth["kind"]) == shown.dark


def test_dark_kakuro_items_show_grey_blocks_lighter_than_a_near_black_page(tmp_path):
    """``--dark --kakuro``: the app and web looks in a dark theme (near-black white cells, grey blocks
    a little lighter, light clue numbers), the newspaper look as printed; the same puzzles as without."""
    from ui.corpus_kakuro import make_kakuro_item, plan_kakuro
    from ui.render import DARK_PAGE

    light, dark = plan_kakuro(3, seed=5), plan_kakuro(3, seed=5, dark=True)
    assert [s.dark for s in dark] == [s.style != "newspaper" for s in dark] and not any(s.dark for s in light)
    for plain, shown in zip(light, dark):
        image, truth = make_kakuro_item(shown)
        _, plain_truth = make_kakuro_item(plain)
        assert truth["truth"] == plain_truth["truth"] and ("dark mode" in truth["kind"]) == shown.dark
        grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
        (x0, y0), (x1, y1) = np.array(truth["corners"]).min(axis=0), np.array(truth["corners"]).max(axis=0)
        rows, cols = len(truth["solution"]), len(truth["solution"][0])
        tones = {True: [], False: []}  # block or clue cell: the median grey of its middle
        for r in range(rows):
            for c in range(cols):
                x, y = x0 + (c + 0.5) * (x1 - x0) / cols, y0 + (r + 0.5) * (y1 - y0) / rows
                tones[truth["solution"][r][c] is None].append(np.median(grey[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3]))
        whites, blocks = np.median(tones[False]), np.median(tones[True])
        if shown.dark:
            assert whites < DARK_PAGE and whites + 15 < blocks < 150
        else:
            assert whites > DARK_PAGE
    assert main(["corpus", str(tmp_path), "--count", "2", "--seed", "2", "--kakuro", "--dark"]) == 0
    assert "dark mode" in json.loads((tmp_path / "kk2-0001.json").read_text())["kind"]


def test_a_corpus_made_with_pens_lays_one_across_each_grid_and_says_where():
    """``kensnap corpus --pen``: the same items, with a pen across each grid (ui.photo.pen_across,
    lay_pen) whose tip, end and width the truth gives in the photo's pixels."""
    spec, plain_spec = plan(3, 8383, pen=True)[2], plan(3, 8383)[2]
    image, truth = make_item(spec)
    plain, plain_truth = make_item(plain_spec)
    assert truth["spec"]["pen"] and not plain_truth["spec"]["pen"] and "pen" not in plain_truth
    assert set(truth["pen"]) == {"tip", "end", "width"} and truth["pen"]["width"] > 0
    assert truth["truth"] == plain_truth["truth"] and truth["corners"] == plain_truth["corners"]
    tip, end = np.array(truth["pen"]["tip"]), np.array(truth["pen"]["end"])
    middle = np.rint((tip + end) / 2).astype(int)  # the pen's middle lies over the grid, darker than the page there
    corners = np.array(truth["corners"])
    assert corners.min(0)[0] < middle[0] < corners.max(0)[0] and corners.min(0)[1] < middle[1] < corners.max(0)[1]
    changed = np.abs(image.astype(int) - plain.astype(int)).sum(axis=2) > 60
    assert changed[middle[1], middle[0]]
    assert 0.02 < changed.mean() < 0.5  # the pen and its shadow, not the whole photo
