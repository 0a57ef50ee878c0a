"""The reading's advice when a photo's clue labels are too small to read surely."""
import json

import pytest

from vision.read import RETAKE_NOTE, RETAKE_PX, read, retake_advice


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
