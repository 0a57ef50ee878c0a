"""The reading's advice when a photo's clue labels are too small to read surely, or its grid may run
off the photo."""
import json

import pytest

import numpy as np

from vision.image_io import load_image
from vision.read import EDGE_NOTE, RETAKE_NOTE, RETAKE_PX, edge_advice, read, retake_advice


def test_advice_only_under_the_height_that_reads_well():
    assert retake_advice(None) == ()
    assert retake_advice(RETAKE_PX) == ()
    (note,) = retake_advice(4.4)
    assert note.startswith(RETAKE_NOTE) and "about 4 px tall" in note and f"at least {RETAKE_PX:.0f} px" in note


@pytest.mark.parametrize("index, small", [(24, True), (0, False)])
def test_a_photo_with_tiny_labels_is_told_to_come_closer(tmp_path, index, small):
    # Seed 8383's item 24 is a hard newspaper photo whose clue digits are 3.3 px tall: unreadable,
    # and read not confident. Item 0 is a clean photo, read confident, with no advice.
    from ui.corpus import plan, write_item

    path = write_item(plan(300, 8383)[index], tmp_path)
    assert (json.loads(path.read_text())["clue_px"] < 4) == small
    reading = read(path.with_suffix(".jpg"))
    advice = [note for note in reading.notes if note.startswith(RETAKE_NOTE)]
    assert reading.confident != small
    assert len(advice) == int(small)


def test_tiny_labels_without_operators_are_never_read_as_certain(tmp_path):
    # Seed 3131's item 60: a hard 4×4 printed without operators, clue digits 4 px tall. Two misread
    # numbers ("2?" read "7?", "5?" read "1?") still leave exactly one solution, a wrong one: the
    # solver cannot catch them, so the reading must not be confident.
    from ui.corpus import plan, write_item
    from vision.read import NO_OPS_SURE_PX

    spec = plan(300, 3131)[60]
    assert spec.hidden_ops
    path = write_item(spec, tmp_path)
    reading = read(path.with_suffix(".jpg"))
    assert not reading.puzzle.operators_shown and not reading.confident
    assert any(note.startswith(RETAKE_NOTE) for note in reading.notes)
    assert NO_OPS_SURE_PX <= RETAKE_PX


def test_doubtful_entries_are_the_unsure_ones_and_the_likely_misreads():
    """A digit read under SURE_ENTRY is doubtful; so is one at odds with the solution when the reader
    gave the solution's digit at least MISREAD_SHARE; a wrong digit read surely is not."""
    import dataclasses
    from pathlib import Path

    from vision.read import MISREAD_SHARE, SURE_ENTRY
    reading = read(Path(__file__).parent.parent / "samples" / "newspaper-6x6-halffilled.jpg")
    assert reading.status == "unique" and reading.entry_alternatives
    solution = reading.solution
    right, misread, wrong = (0, 0), (0, 1), (0, 2)
    other = lambda cell: solution[cell[0]][cell[1]] % 6 + 1
    alternatives = {right: ((solution[0][0], 0.6), (other(right), 0.3)),
                    misread: ((other(misread), 0.97), (solution[0][1], 2 * MISREAD_SHARE)),
                    wrong: ((other(wrong), 0.999), (solution[0][2], MISREAD_SHARE / 10))}
    crafted = dataclasses.replace(reading, entry_alternatives=alternatives)
    assert crafted.doubtful_entries() == (right, misread) and 0.6 < SURE_ENTRY
    assert dataclasses.replace(crafted, status="none").doubtful_entries() == (right,)


def test_a_grid_within_a_cell_of_the_photos_edge_may_be_cut_off():
    square = np.array([[100, 50], [400, 50], [400, 350], [100, 350]], np.float64)  # 6 cells of 50 px
    assert edge_advice(square, 6, 6, (400, 500, 3)) == ()  # 50 px and more to every edge
    (note,) = edge_advice(square + [70, 0], 6, 6, (400, 500, 3))  # 29 px to the right edge
    assert note.startswith(f"{EDGE_NOTE} right edge:") and "whole puzzle" in note
    (note,) = edge_advice(square + [70, 25], 6, 6, (400, 500, 3))
    assert note.startswith(f"{EDGE_NOTE} right and bottom edges:")
    wide = np.array([[100, 50], [400, 50], [400, 200], [100, 200]], np.float64)  # 3 rows, 6 columns of 50 px
    assert edge_advice(wide + [0, 160], 3, 6, (400, 500, 3)) == ()  # 39 px to the bottom: 0.78 of a cell


def test_a_photo_cut_through_the_grids_last_column_says_part_may_be_cut_off(tmp_path):
    # Seed 7474's item 10 (a clean 9×9) with the photo's edge 0.6 of a cell inside the grid's last
    # column: an 8×8 is read, with no solution, and the person is told why that may be.
    from ui.corpus import plan, write_item
    from vision.read_any import read_any

    path = write_item(plan(300, 7474)[10], tmp_path)
    truth = json.loads(path.read_text())
    corners, size = np.array(truth["corners"]), truth["truth"]["size"]
    right = min(corners[1][0], corners[2][0])
    cut = right - 0.6 * (right - max(corners[0][0], corners[3][0])) / size
    reading = read_any(load_image(path.with_suffix(".jpg"))[:, :int(cut)])
    assert reading.status == "none" and not reading.confident
    assert any(note.startswith(f"{EDGE_NOTE} right") for note in reading.notes)
    whole = read(path.with_suffix(".jpg"))
    assert whole.confident and not any(note.startswith(EDGE_NOTE) for note in whole.notes)
