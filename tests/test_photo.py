"""Tests of ui.photo: the phone-photo simulator is deterministic, sized per level, and its corners
really are the grid's corners in the photo."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from puzzles_for_drawing import grey, puzzle_of_size

from ui.photo import LEVELS, Photo, _blurred, coarse_shake_kernel, shake_kernel, simulate
from ui.render import make_entries, render

SQUARE_CELL = 24


def rendering_of(n: int, style: str, seed: int, cell_px: int = 48):
    """A rendering of the size-N test puzzle with some entries written in."""
    puzzle, solution = puzzle_of_size(n)
    return render(puzzle, style, seed=seed, cell_px=cell_px, entries=make_entries(solution, seed=seed))


def to_square(image: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """The grid between ``corners`` warped by their homography to a square of N×SQUARE_CELL px."""
    side = n * SQUARE_CELL
    square = np.float32([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]])
    h = cv2.getPerspectiveTransform(np.float32(corners), square)
    return cv2.warpPerspective(grey(image), h, (side, side), flags=cv2.INTER_AREA)


def line_map(square: np.ndarray) -> np.ndarray:
    """Where the square has dark structure (lines, text), as a 0/1 float map after a light blur,
    thresholded halfway between its paper and ink levels."""
    square = cv2.GaussianBlur(square, (0, 0), 1.0)
    paper, ink = np.percentile(square, 90), np.percentile(square, 2)
    return (square < (paper + ink) / 2).astype(np.float32)


def agreement(photo_square: np.ndarray, render_square: np.ndarray) -> float:
    """Correlation of the two squares' dark-structure maps, both blurred by about a line width."""
    a = cv2.GaussianBlur(line_map(photo_square), (0, 0), 2.0).ravel()
    b = cv2.GaussianBlur(line_map(render_square), (0, 0), 2.0).ravel()
    return float(np.corrcoef(a, b)[0, 1])


# --- basics ------------------------------------------------------------------------------------

def test_same_seed_same_photo_other_seed_other_photo():
    rendering = rendering_of(6, "newspaper", seed=1)
    a, b = simulate(rendering, "hard", seed=7), simulate(rendering, "hard", seed=7)
    c = simulate(rendering, "hard", seed=8)
    assert isinstance(a, Photo) and a.level == "hard"
    assert a.image.tobytes() == b.image.tobytes() and np.array_equal(a.corners, b.corners)
    assert a.image.tobytes() != c.image.tobytes()


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_photo_shape_and_corners_inside_the_frame(level):
    photo = simulate(rendering_of(6, "app", seed=2), level, seed=3)
    h, w = photo.image.shape[:2]
    assert photo.image.dtype == np.uint8 and photo.image.shape[2] == 3
    assert photo.corners.shape == (4, 2)
    assert np.all(photo.corners >= 0) and np.all(photo.corners[:, 0] < w) and np.all(photo.corners[:, 1] < h)
    # corners keep their order: top-left, top-right, bottom-right, bottom-left (clockwise on screen)
    tl, tr, br, bl = photo.corners
    (ax, ay), (bx, by) = tr - tl, bl - tl
    assert ax * by - ay * bx > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hard_9x9_has_at_most_35_px_per_cell(seed):
    photo = simulate(rendering_of(9, "newspaper", seed=seed), "hard", seed=seed)
    assert 24 <= photo.px_per_cell <= 35


def test_levels_have_their_resolutions():
    rendering = rendering_of(6, "web", seed=4, cell_px=64)
    assert simulate(rendering, "clean", seed=4).px_per_cell >= 60
    assert 35 <= simulate(rendering, "handheld", seed=4).px_per_cell <= 60


# --- the hand's shake -------------------------------------------------------------------------------

def spread_of_a_point(length: float, angle: float, coarse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Where one bright pixel's light lands after a shake: its centre (x, y) relative to the pixel
    and the 2×2 covariance of the light, in pixels."""
    image = np.zeros((21, 21, 3), np.float32)
    image[10, 10] = 1.0
    light = _blurred(image, 0.0, length, angle, coarse=coarse)[..., 0].astype(float)
    ys, xs = np.mgrid[0:21, 0:21] - 10.0
    w = light / light.sum()
    centre = np.array([(w * xs).sum(), (w * ys).sum()])
    dx, dy = xs - centre[0], ys - centre[1]
    cov = np.array([[(w * dx * dx).sum(), (w * dx * dy).sum()], [(w * dx * dy).sum(), (w * dy * dy).sum()]])
    return centre, cov


@pytest.mark.parametrize("length", [1.2, 1.6, 2.0, 2.5])
def test_a_shake_spreads_a_point_over_its_own_length(length):
    # Light spread evenly over a segment L long has a variance of L²/12 along it, and none across.
    for angle in (0.0, 35.0):
        centre, cov = spread_of_a_point(length, angle)
        along = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        across = np.array([-along[1], along[0]])
        assert np.allclose(centre, 0, atol=1e-5)
        assert along @ cov @ along == pytest.approx(length ** 2 / 12, abs=0.01)
        assert abs(across @ cov @ across) < 0.01


def test_a_longer_shake_spreads_further_and_the_coarse_one_did_not():
    spreads = [spread_of_a_point(length, 20.0)[1].trace() for length in (1.2, 1.8, 2.4)]
    assert spreads[0] < spreads[1] < spreads[2]
    # The kernel before the sixty-fourth round, kept for the networks' training photos: any shake
    # from 1.1 to 2.5 px was a 3-px line; none under 1 px shook at all.
    assert np.array_equal(coarse_shake_kernel(1.2, 20.0), coarse_shake_kernel(2.4, 20.0))
    assert coarse_shake_kernel(0.9, 20.0) is None
    assert spread_of_a_point(1.2, 20.0, coarse=True)[1].trace() > 2 * spreads[0]


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0, 90.0, 135.0, 170.0])
def test_a_shake_follows_its_angle_and_keeps_the_light(angle):
    kernel = shake_kernel(2.2, angle)
    assert kernel.shape[0] == kernel.shape[1] and kernel.shape[0] % 2 == 1
    assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(kernel, kernel[::-1, ::-1], atol=1e-7)  # symmetric: no shift of the picture
    _, cov = spread_of_a_point(2.2, angle)
    values, vectors = np.linalg.eigh(cov)
    along = vectors[:, 1]
    seen = np.degrees(np.arctan2(along[1], along[0])) % 180
    assert min(abs(seen - angle), 180 - abs(seen - angle)) < 3
    assert values[1] > 20 * abs(values[0])


def test_no_shake_below_a_twentieth_of_a_pixel():
    assert shake_kernel(0.04, 10.0) is None
    assert shake_kernel(0.5, 10.0) is not None  # a hard photo's shake of half a pixel is drawn


# --- the corners map the grid ---------------------------------------------------------------------

@pytest.mark.parametrize("level,style,seed", [
    ("clean", "newspaper", 0), ("clean", "app", 1), ("clean", "web", 2),
    ("handheld", "newspaper", 3), ("handheld", "app", 4), ("handheld", "web", 5), ("handheld", "newspaper", 6),
])
def test_corners_map_the_photo_back_onto_the_rendered_grid(level, style, seed):
    rendering = rendering_of(6, style, seed=seed)
    photo = simulate(rendering, level, seed=seed)
    truth = to_square(rendering.image, rendering.corners, 6)
    seen = to_square(photo.image, photo.corners, 6)
    assert agreement(seen, truth) > 0.6
    # the comparison can fail: corners a third of a cell off do not map the grid
    off = photo.corners + np.array([1, 0]) * photo.px_per_cell / 3
    assert agreement(to_square(photo.image, off, 6), truth) < agreement(seen, truth) - 0.15


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_hard_corners_sit_on_the_curled_border(seed):
    rendering = rendering_of(9, "newspaper", seed=seed)
    photo = simulate(rendering, "hard", seed=seed)
    g = grey(photo.image)
    for corner in photo.corners:
        x, y = np.round(corner).astype(int)
        window = g[max(0, y - 20):y + 21, max(0, x - 20):x + 21]
        paper, ink = np.percentile(window, 90), np.percentile(window, 5)
        assert g[y - 1:y + 2, x - 1:x + 2].min() < (paper + ink) / 2


def test_hard_photos_are_curled():
    """With the curl, a homography from the corners no longer maps the inner grid lines exactly:
    the flat-page agreement drops below that of an uncurled photo of the same rendering."""
    rendering = rendering_of(9, "newspaper", seed=5)
    photo = simulate(rendering, "hard", seed=5)
    flat_level = LEVELS["hard"].__class__(**{**LEVELS["hard"].__dict__, "name": "flat", "curl": (0, 0)})
    flat = simulate(rendering, flat_level, seed=5)
    truth = to_square(rendering.image, rendering.corners, 9)
    curled = agreement(to_square(photo.image, photo.corners, 9), truth)
    straight = agreement(to_square(flat.image, flat.corners, 9), truth)
    assert curled < straight
