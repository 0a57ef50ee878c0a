"""vision.read_any: which puzzle a photo holds, with the KenKen grid finder run once for both looks."""
from __future__ import annotations

import sys

import numpy as np
import pytest

import vision.grid
import vision.kakuro_grid
import vision.read_any
from conftest import REPO
from ui.corpus_kakuro import KakuroSpec, make_kakuro_item
from vision import read
from vision.errors import NoPuzzleFound
from vision.image_io import load_image
from vision.kakuro import KakuroReading
from vision.read import Reading
from vision.read_any import read_any


@pytest.fixture
def finder_calls(monkeypatch):
    """Counts calls of the KenKen grid finder, wherever it is called from."""
    calls = []

    def counted(image):
        calls.append(image.shape)
        return vision.grid.find_grid(image)
    for module in (vision.read_any, vision.kakuro_grid, sys.modules["vision.read"]):  # vision.read is also a function
        monkeypatch.setattr(module, "find_grid", counted)
    return calls


def test_a_kenken_photo_is_read_as_by_read_with_the_grid_found_once(finder_calls):
    path = REPO / "samples" / "newspaper-6x6-clean.jpg"
    reading = read_any(path)
    assert isinstance(reading, Reading)
    assert len(finder_calls) == 1
    alone = read(load_image(path))
    assert reading.puzzle == alone.puzzle and reading.solution == alone.solution
    assert {"load", "grid", "kakuro look", "cages", "clues", "solve"} <= set(reading.seconds)


def test_a_kakuro_photo_is_read_as_a_kakuro(finder_calls):
    image, _ = make_kakuro_item(KakuroSpec("any", 41, 7, 8, "app", "clean"))
    reading = read_any(image)
    assert isinstance(reading, KakuroReading)
    assert reading.status == "unique"
    assert len(finder_calls) == 1
    assert {"kenken grid", "grid"} <= set(reading.seconds)


def test_a_photo_without_a_puzzle_gets_the_kenken_finders_message(finder_calls):
    with pytest.raises(NoPuzzleFound) as caught:
        read_any(np.full((400, 300, 3), 235, np.uint8))
    with pytest.raises(NoPuzzleFound) as alone:
        vision.grid.find_grid(np.full((400, 300, 3), 235, np.uint8))
    assert str(caught.value) == str(alone.value)
    assert len(finder_calls) == 1
