"""vision.pen: a pen lying across the grid, found where it lies, and what the reader does with it.

Photos are drawn again from ``kensnap corpus --pen`` (ui.photo.pen_across, lay_pen): seed 8383's
items, with the pen and without it.
"""
from __future__ import annotations

import json
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


def _entries_read(image: np.ndarray, pen_looked_for: bool = True):
    """The reading of ``image``; without ``pen_looked_for`` its written digits are read as they were
    before the pen was taken into account (nothing painted out, every cell read)."""
    import sys

    from vision import read
    reading_module = sys.modules["vision.read"]
    if pen_looked_for:
        return read(image)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reading_module, "hidden_digits", lambda grid, pen: ())
        patch.setattr(reading_module, "without_pen", lambda grid, pen: grid)
        return read(image)


def _digits_where_none_is_written(reading, truth: dict) -> list:
    """The cells where ``reading`` has a written digit and the truth has none."""
    written, read = truth["truth"].get("entries"), reading.puzzle.entries
    n = reading.puzzle.size
    return [(r, c) for r in range(n) for c in range(n)
            if read is not None and read[r][c] is not None and (written is None or written[r][c] is None)]


@pytest.mark.parametrize("index", [2, 18])
def test_the_pens_ink_is_not_read_as_written_digits(index):
    """Clean k8383-0002 and k8383-0018, nothing written in them: where the pen crosses a cell's
    middle its ink was read as six digits; with the pen painted out and the cells it hides left
    unread, none is, and the hidden cells are named."""
    image, truth = _item(index)
    assert len(_digits_where_none_is_written(_entries_read(image, pen_looked_for=False), truth)) >= 5
    reading = _entries_read(image)
    assert _digits_where_none_is_written(reading, truth) == [] and len(reading.hidden_entries) >= 3


@pytest.mark.parametrize("index", [11, 38])
def test_the_digits_written_beside_a_pen_are_read_and_those_under_it_are_named(index):
    """Clean half-filled k8383-0011 and k8383-0038: every digit written outside the cells the pen
    hides is read right, and each one not read lies in a cell named as hidden."""
    image, truth = _item(index)
    reading = _entries_read(image)
    written, read = truth["truth"]["entries"], reading.puzzle.entries
    hidden = set(reading.hidden_entries)
    assert hidden and all(read[r][c] is None for r, c in hidden)
    for r, row in enumerate(written):
        for c, digit in enumerate(row):
            if (r, c) not in hidden:
                assert read[r][c] == digit, f"r{r + 1}c{c + 1}"


def test_check_names_the_cells_under_the_pen_as_not_seen(tmp_path, capsys):
    """`kensnap check PHOTO`: the cells whose digits the pen hides are listed as not seen, in its
    text and as ``hidden`` in its JSON, and `read --json` gives them as ``hidden_entries``."""
    from ui.cli import main

    image, _ = _item(11)
    path = tmp_path / "pen.png"
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
    main(["check", str(path)])
    assert "not seen, something lies over them: r4c1" in capsys.readouterr().out
    main(["check", str(path), "--json"])
    assert [3, 0] in json.loads(capsys.readouterr().out.splitlines()[-1])["hidden"]
    main(["read", str(path), "--json"])
    assert [3, 0] in json.loads(capsys.readouterr().out.splitlines()[-1])["hidden_entries"]


def _board_read(reading, truth: dict) -> bool:
    """Whether ``reading`` has every cage and clue of the truth (its whole board)."""
    def cages(items):
        return {(frozenset(map(tuple, cells)), op, target) for cells, op, target in items}
    want = cages((c["cells"], c["op"], c["target"]) for c in truth["truth"]["cages"])
    return reading.puzzle.size == truth["truth"]["size"] and cages(
        (c.cells, c.op, c.target) for c in reading.puzzle.cages) == want


def test_a_label_the_pen_hides_is_doubted_so_the_search_changes_it_first(monkeypatch):
    """Hand-held k8383-0003: the pen hides "19+" and its ink reads "5−"; taken at its word the
    printed clue is far down the wider list (ln 7.7 less likely than "5−": past the wider search's
    first step, vision.reconcile.WIDE_STEPS), with the hidden label's alternatives flattened
    (HIDDEN_LABEL_POWER) it is within that step (ln 2.3) and the board is read exact, with the
    search's tables as they were before the seventy-first round too. Until the seventy-fifth round
    this test also read the board without the doubt and with tables and wanted it wrong; that search
    finds "19+" in its second step with a few hundredths of a second of its budget to spare or not,
    as the reading before it comes out (one CI run read it right; on this machine never), so the
    costs are tested instead."""
    import importlib
    import math

    import solver.alternatives
    import vision.pen
    from vision import read
    from vision.pen import doubted
    from vision.reconcile import WIDE_STEPS

    alts = [[("*", 5, 0.9), ("+", 19, 0.01)], [("+", 3, 0.9), ("-", 1, 0.05)]]
    flat = doubted(alts, [((0, 0), (0, 1)), ((1, 0), (1, 1))], ((0, 0),))
    assert flat[1] == alts[1] and [a[:2] for a in flat[0]] == [("*", 5), ("+", 19)]
    assert flat[0][1][2] / flat[0][0][2] > 10 * alts[0][1][2] / alts[0][0][2]
    assert doubted(alts, [((0, 0), (0, 1)), ((1, 0), (1, 1))], ()) is alts

    reading = importlib.import_module("vision.read")
    wider_lists = []

    def kept(size, cages, alternatives, **kw):
        wider_lists.append(dict(zip((min(c) for c in cages), kw["wider"]())))
        return reconcile(size, cages, alternatives, **kw)

    reconcile = reading.reconcile
    monkeypatch.setattr(reading, "reconcile", kept)

    def cost_of_printed_clue() -> float:
        hidden = wider_lists[-1][(6, 7)]
        return math.log(hidden[0][2] / next(p for op, target, p in hidden if (op, target) == ("+", 19)))

    image, truth = _item(3)
    assert _board_read(read(image), truth)
    assert cost_of_printed_clue() <= WIDE_STEPS[0]
    monkeypatch.setattr(solver.alternatives, "LAYERED_FROM", 99)  # tables for every cage, as before
    assert _board_read(read(image), truth)
    monkeypatch.setattr(vision.pen, "HIDDEN_LABEL_POWER", 1.0)
    read(image)
    assert cost_of_printed_clue() > WIDE_STEPS[0]
