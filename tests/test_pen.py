"""vision.pen: a pen lying across the grid, found where it lies, and what the reader does with it.

Photos are drawn again from ``kensnap corpus --pen`` (ui.photo.pen_across, lay_pen): seed 8383's
items, with the pen and without it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.corpus import corners_cell_px, make_item, plan
from vision.cages import cages_from_walls, find_walls, settle
from vision.clues import clue_presence
from vision.grid import find_grid
from vision.pen import PEN_NOTE, find_pen, hidden_labels

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@lru_cache(maxsize=None)
def _item(index: int, pen: bool = True) -> tuple[np.ndarray, dict]:
    """Seed 8383's item ``index`` drawn again, with a pen across it or without (read-only)."""
    image, truth = make_item(plan(60, 8383, pen=pen)[index])
    image.flags.writeable = False
    return image, truth


def _partition_read(image: np.ndarray, truth: dict, with_pen: bool) -> bool:
    """Whether the cage partition is read exactly, the pen looked for (``with_pen``) or not."""
    grid = find_grid(image)
    pen = find_pen(grid) if with_pen else None
    walls = find_walls(grid, hidden=None if pen is None else pen.mask)
    walls = settle(grid, walls, clue_presence(grid), () if pen is None else hidden_labels(grid, pen))
    cages = {frozenset(map(tuple, cage["cells"])) for cage in truth["truth"]["cages"]}
    return {frozenset(c) for c in cages_from_walls(grid.size, walls)} == cages


@pytest.mark.parametrize("index", [2, 9])
def test_a_pen_across_the_grid_is_found_where_it_lies(index):
    image, truth = _item(index)
    grid = find_grid(image)
    pen = find_pen(grid)
    assert pen is not None
    tip, end = (cv2.perspectiveTransform(np.array([[truth["pen"][k]]], np.float64), grid.homography)[0, 0]
                for k in ("tip", "end"))
    way = (end - tip) / np.linalg.norm(end - tip)
    found = np.subtract(pen.end, pen.start) / np.linalg.norm(np.subtract(pen.end, pen.start))
    assert abs(float(np.dot(way, found))) > np.cos(np.radians(3))
    cell = (grid.lines_x[-1] - grid.lines_x[0]) / grid.size
    off = np.subtract(pen.start, tip)
    assert abs(float(off[0] * way[1] - off[1] * way[0])) < 0.15 * cell  # the found axis on the drawn one
    photo_cell = corners_cell_px(truth["corners"], grid.size, grid.size)
    assert pen.width == pytest.approx(truth["pen"]["width"] * cell / photo_cell, rel=0.35)


@pytest.mark.parametrize("index", [2, 9])
def test_no_pen_is_found_in_the_same_photo_without_one(index):
    assert find_pen(find_grid(_item(index, pen=False)[0])) is None


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.jpg")))
def test_no_pen_is_found_in_a_sample_photo(name):
    image = cv2.cvtColor(cv2.imread(str(SAMPLES / name)), cv2.COLOR_BGR2RGB)
    assert find_pen(find_grid(image)) is None


@pytest.mark.parametrize("index", [2, 9])
def test_the_walls_under_a_pen_are_read_where_it_leaves_them_clear(index):
    """Clean k8383-0002 (a web-style 9×9) and k8383-0009 (a newspaper 7×7) with a pen across: the
    pen was read as walls where it crosses an edge at a shallow slant, and labels were found in its
    ink; both partitions are read exactly only with the pen looked for."""
    image, truth = _item(index)
    assert not _partition_read(image, truth, with_pen=False)
    assert _partition_read(image, truth, with_pen=True)


def test_a_reading_with_a_pen_across_is_not_confident_and_says_where():
    from vision import read
    image, _ = _item(9)
    reading = read(image)
    assert not reading.confident
    notes = [note for note in reading.notes if note.startswith(PEN_NOTE)]
    assert len(notes) == 1 and "move it" in notes[0] and " over " in notes[0]
