"""A puzzle photographed from another side of the page is read upright (vision.orientation; a
Kakuro by vision.kakuro_grid)."""
import cv2
import numpy as np
import pytest

from conftest import REPO
from solver.kakuro.formats import kakuro_from_json
from ui.corpus import make_item, plan
from test_kakuro_vision import CLEAN
from ui.corpus_kakuro import make_kakuro_item
from vision.errors import NoPuzzleFound
from vision.grey import to_grey
from vision.image_io import load_image
from vision.kakuro import KakuroReading
from vision.kakuro_grid import dark_cells, find_kakuro_grid, grid_from_corners, numbers_agree
from vision.orientation import quarter_turns
from vision.polarity import find_grid_any_polarity
from vision.read import LIKELY_TURN_NOTE, read
from vision.read_any import read_any


@pytest.mark.parametrize("path", sorted((REPO / "samples").glob("*.jpg")), ids=lambda p: p.stem)
def test_the_samples_are_found_upright(path):
    if path.stem.startswith("kakuro"):
        pytest.skip("a Kakuro")
    assert quarter_turns(find_grid_any_polarity(load_image(path))[1]) == 0


def turned_clockwise(points: np.ndarray, shape: tuple[int, int], turns: int) -> np.ndarray:
    """Where ``points`` (x, y) of an image of ``shape`` are after ``np.rot90(image, -turns)``."""
    height, width = shape
    for _ in range(turns):  # a quarter turn clockwise takes (x, y) to (height - 1 - y, x)
        points = np.c_[height - 1 - points[:, 1], points[:, 0]]
        height, width = width, height
    return points


@pytest.mark.parametrize("index, turns", [(1, 1), (11, 2), (12, 3), (28, 1)])
def test_a_turned_photo_is_read_as_the_upright_one(index, turns):
    # Seed 8383's items: 1 a clean app 6×6, 11 a clean web 6×6 half filled, 12 a hand-held
    # newspaper 4×4 half filled, 28 a clean app 8×8 half filled with pencil marks.
    image, truth = make_item(plan(300, 8383)[index])
    photo = np.ascontiguousarray(np.rot90(image, -turns))
    reading = read(photo)
    printed = {(tuple(map(tuple, c["cells"])), c["op"], c["target"]) for c in truth["truth"]["cages"]}
    assert {(cage.cells, cage.op, cage.target) for cage in reading.puzzle.cages} == printed
    assert reading.status == "unique"
    assert any(note.startswith("the puzzle lies turned in the photo") for note in reading.notes)
    # The corners are the puzzle's, top left first, where they are in the photo as given.
    expected = turned_clockwise(np.asarray(truth["corners"], float), image.shape[:2], turns)
    side = np.linalg.norm(expected[0] - expected[1])
    assert np.abs(np.asarray(reading.corners) - expected).max() < 0.02 * side


def turned_by(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """``image`` turned ``degrees`` counter-clockwise on a canvas that holds all of it, and the 2×3
    map of its points."""
    height, width = image.shape[:2]
    m = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    size = (int(height * sin + width * cos), int(height * cos + width * sin))
    m[:, 2] += np.array(size) / 2 - np.array([width / 2, height / 2])
    return cv2.warpAffine(image, m, size, borderMode=cv2.BORDER_REPLICATE), m


@pytest.mark.parametrize("index, degrees", [(20, 45), (20, -45), (27, 44), (27, 135), (28, -46)])
def test_a_grid_lying_near_45_degrees_is_read_upright(index, degrees):
    # Near 45° the finder names the outline's corners from either of two, and found again in the
    # photo turned a quarter it named them from the other one: the labels were never at the top
    # left and the puzzle was read wrong (fifty-sixth round: 2 of seed 8383's first 15 clean photos
    # at 45°, -45° and 135°, these two). Items of seed 8383: 20 a clean web 4×4, 27 a clean
    # newspaper 5×5, 28 a clean app 8×8 half filled (read right before too).
    image, truth = make_item(plan(300, 8383)[index])
    photo, m = turned_by(image, degrees)
    reading = read(photo)
    printed = {(tuple(map(tuple, c["cells"])), c["op"], c["target"]) for c in truth["truth"]["cages"]}
    assert {(cage.cells, cage.op, cage.target) for cage in reading.puzzle.cages} == printed
    assert reading.status == "unique"
    expected = np.c_[np.asarray(truth["corners"], float), np.ones(4)] @ m.T
    side = np.linalg.norm(expected[0] - expected[1])
    assert np.abs(np.asarray(reading.corners) - expected).max() < 0.02 * side


@pytest.mark.parametrize("index, turns", [(0, 1), (1, 2), (2, 3), (4, 1)])
def test_a_turned_kakuro_is_read_as_the_upright_one(index, turns):
    # Clean Kakuro photos of each style (newspaper, app, web), turned: before, no grid was found.
    image, truth = make_kakuro_item(CLEAN[index])
    photo = np.ascontiguousarray(np.rot90(image, -turns))
    reading = read_any(photo)
    assert isinstance(reading, KakuroReading)
    assert reading.puzzle.grid == kakuro_from_json(truth["truth"]).grid and reading.status == "unique"
    assert reading.grid.turns == turns
    assert any(note.startswith("the puzzle lies turned in the photo") for note in reading.notes)
    expected = turned_clockwise(np.asarray(truth["corners"], float), image.shape[:2], turns)
    side = np.linalg.norm(expected[0] - expected[1])
    assert np.abs(np.asarray(reading.corners) - expected).max() < 0.02 * side


def test_a_turned_kakuros_grid_from_its_corners_keeps_the_puzzles_order():
    image, truth = make_kakuro_item(CLEAN[0])
    puzzle = kakuro_from_json(truth["truth"])
    photo = np.ascontiguousarray(np.rot90(image, -1))
    corners = turned_clockwise(np.asarray(truth["corners"], float), image.shape[:2], 1)
    turned = grid_from_corners(photo, corners, puzzle.rows, puzzle.cols, turns=1)
    upright = grid_from_corners(image, np.asarray(truth["corners"], float), puzzle.rows, puzzle.cols)
    assert np.allclose(turned.corners, corners)  # not put in the photo's order
    difference = np.abs(turned.rectified.astype(int) - upright.rectified.astype(int))
    assert np.median(difference) < 8  # the same grid, upright, square-on


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_turned_kenken_photos_are_not_taken_for_a_turned_kakuro(turns):
    for path in sorted((REPO / "samples").glob("*.jpg")):
        try:
            found = find_kakuro_grid(np.ascontiguousarray(np.rot90(load_image(path), turns)))
        except NoPuzzleFound:
            continue
        # Upside down, the half-filled newspaper 6×6 passes for a 13×7 Kakuro as it lies (so it did
        # before; `read_any` reads it as a KenKen first, confidently, and never looks): not turned.
        assert found.turns == 0, path.name


def test_a_kakuros_numbers_stand_where_its_runs_go_only_the_right_way_up():
    # Half a turn keeps the clue cells' diagonals running the same way; what tells it is that the
    # numbers then stand on the sides away from the runs (vision.kakuro_grid.numbers_agree).
    image, truth = make_kakuro_item(CLEAN[1])
    puzzle = kakuro_from_json(truth["truth"])
    found = grid_from_corners(image, np.asarray(truth["corners"], float), puzzle.rows, puzzle.cols)
    grey = to_grey(found.rectified).astype(np.float32)
    xs, ys = np.asarray(found.lines_x), np.asarray(found.lines_y)
    height, width = grey.shape
    upright = numbers_agree(grey, xs, ys, dark_cells(grey, xs, ys))
    turned = np.ascontiguousarray(np.rot90(grey, 2))
    txs, tys = (width - 1 - xs)[::-1], (height - 1 - ys)[::-1]
    assert upright >= 0.9 and numbers_agree(turned, txs, tys, dark_cells(turned, txs, tys)) <= upright - 0.2


@pytest.mark.parametrize("angle", [120, 250])
def test_a_kakuro_turned_at_any_angle_is_read(angle):
    # The finder takes the outline's top-left corner on screen; past 45° that is another corner of
    # the puzzle's, and the quarter turns are found as for a photo turned square.
    image, truth = make_kakuro_item(CLEAN[1])
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    side = int(np.hypot(height, width))
    turn[:, 2] += (side - width) / 2, (side - height) / 2
    photo = cv2.warpAffine(image, turn, (side, side), borderValue=(235, 235, 235))
    reading = read_any(photo)
    assert isinstance(reading, KakuroReading) and reading.grid.turns
    assert reading.puzzle.grid == kakuro_from_json(truth["truth"]).grid and reading.status == "unique"


@pytest.mark.parametrize("index, turns", [(40, 1), (210, 2)])
def test_a_turned_photo_with_a_single_label_seen_is_settled_by_the_solver(index, turns):
    # Seed 7474's items 40 and 210, small grids whose labels showed their corner in one cell only:
    # too weak a sign to turn the photo on, so both readings are made and the surer one is taken.
    image, truth = make_item(plan(300, 7474)[index])
    reading = read(np.ascontiguousarray(np.rot90(image, -turns)))
    printed = {(tuple(map(tuple, c["cells"])), c["op"], c["target"]) for c in truth["truth"]["cages"]}
    assert {(cage.cells, cage.op, cage.target) for cage in reading.puzzle.cages} == printed
    assert reading.status == "unique" and LIKELY_TURN_NOTE in reading.notes
