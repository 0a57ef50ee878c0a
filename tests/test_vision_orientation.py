"""A puzzle photographed from another side of the page is read upright (vision.orientation)."""
import numpy as np
import pytest

from conftest import REPO
from ui.corpus import make_item, plan
from vision.image_io import load_image
from vision.orientation import quarter_turns
from vision.polarity import find_grid_any_polarity
from vision.read import read


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
