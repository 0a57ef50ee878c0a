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
