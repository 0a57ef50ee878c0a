"""vision.read_any: which puzzle a photo holds, with the KenKen grid finder run once for both looks."""
from __future__ import annotations

import numpy as np
import pytest

import vision.grid
import vision.kakuro_grid
import vision.polarity
from vision.polarity import dark_photo
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
    """The images the KenKen grid finder was asked about, wherever it is called from."""
    calls = []

    def counted(image):
        calls.append(image)
        return vision.grid.find_grid(image)
    for module in (vision.read_any, vision.polarity, vision.kakuro_grid):
        monkeypatch.setattr(module, "find_grid", counted)
    return calls


def test_a_kenken_photo_is_read_as_by_read_with_the_grid_found_once(finder_calls):
    path = REPO / "samples" / "newspaper-6x6-clean.jpg"
    reading = read_any(path)
    assert isinstance(reading, Reading)
    assert len(finder_calls) == 1
    alone = read(load_image(path))
    assert reading.puzzle == alone.puzzle and reading.solution == alone.solution
    assert {"load", "grid", "cages", "clues", "solve"} <= set(reading.seconds)
    # A confident KenKen on a grid without dark blocks is taken without a Kakuro look.
    assert reading.confident and "kakuro look" not in reading.seconds


def test_a_kakuro_photo_is_read_as_a_kakuro(finder_calls):
    image, _ = make_kakuro_item(KakuroSpec("any", 41, 7, 8, "app", "clean"))
    reading = read_any(image)
    assert isinstance(reading, KakuroReading)
    assert reading.status == "unique"
    # A confident Kakuro: the finder ran on the photo, and on its negative only because this app
    # photo is mostly dark (vision.polarity.dark_photo), where the negative is looked at first.
    assert dark_photo(image) and len(finder_calls) == 2 and (finder_calls[1] == 255 - image).all()
    assert {"kenken grid", "grid"} <= set(reading.seconds)


def test_a_light_kakuro_photo_is_read_without_looking_in_its_negative(finder_calls):
    image, _ = make_kakuro_item(KakuroSpec("any", 43, 7, 8, "newspaper", "clean"))
    reading = read_any(image)
    assert isinstance(reading, KakuroReading) and reading.status == "unique"
    assert not dark_photo(image) and len(finder_calls) == 1


def test_a_photo_without_a_puzzle_gets_the_kenken_finders_message(finder_calls):
    with pytest.raises(NoPuzzleFound) as caught:
        read_any(np.full((400, 300, 3), 235, np.uint8))
    with pytest.raises(NoPuzzleFound) as alone:
        vision.grid.find_grid(np.full((400, 300, 3), 235, np.uint8))
    assert str(caught.value) == str(alone.value)
    # The photo and its negative (vision.polarity); the last resort probes the outlines the finder kept.
    assert len(finder_calls) == 2


@pytest.mark.parametrize("index", [69, 187])
def test_a_shadowed_kenken_that_passes_for_a_kakuro_is_read_as_a_kenken(index):
    """Held-out photos (seed 700) whose shadow edges look like clue diagonals: the Kakuro finder
    takes them (its reading is not confident) and the KenKen reading, with exactly one solution,
    wins."""
    from ui.corpus import make_item, plan
    from vision.kakuro import read_kakuro

    image, truth = make_item(plan(300, 700)[index])
    assert not read_kakuro(image).confident
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.status == "unique"
    assert reading.puzzle.size == truth["truth"]["size"]


def test_a_kenken_read_as_a_kakuro_with_a_bare_outer_line_is_read_as_a_kenken(tmp_path):
    """Held-out hard k9090-0106 (a 4×4 under a shadow): read as a Kakuro with exactly one solution
    but an outer line of nothing but blocks, which was taken over its KenKen reading (exactly one
    solution, one clue changed, every cage and clue right). A Kakuro reading in doubt no longer
    counts as settled (vision.kakuro.DOUBTS). With two label networks its KenKen reading changed two
    clues (an impossible "8÷" made "8+") where the Kakuro changed one number: a bare outer line,
    which no real Kakuro prints, now decides whatever either changed."""
    import json

    from ui.corpus import plan, write_item
    from vision.grid import find_grid
    from vision.image_io import load_image
    from vision.kakuro import BARE_EDGE_NOTE, read_kakuro

    path = write_item(plan(300, 9090)[106], tmp_path)  # the photo as the corpus writes it (JPEG)
    image, truth = load_image(path.with_suffix(".jpg")), json.loads(path.read_text())
    as_kakuro = read_kakuro(image, kenken=(find_grid(image),))
    assert as_kakuro.status == "unique" and any(note.startswith(BARE_EDGE_NOTE) for note in as_kakuro.notes)
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.status == "unique"
    want = {(frozenset(map(tuple, c["cells"])), c["op"], c["target"]) for c in truth["truth"]["cages"]}
    assert {(frozenset(c.cells), c.op, c.target) for c in reading.puzzle.cages} == want


def test_a_kenken_without_a_solution_is_not_given_up_for_a_kakuro_with_a_bare_outer_line(tmp_path):
    """Hand-held k8383-0246 (a newspaper KenKen, labels 5 px tall): its KenKen reading has no
    solution, and its reading as a Kakuro had one, in doubt and with an outer line of nothing but
    blocks; the Kakuro was taken. No real Kakuro prints such a line: the photo is a KenKen, read
    with misread clues that the person can correct, not a made-up Kakuro."""
    from ui.corpus import plan, write_item
    from vision.grid import find_grid
    from vision.image_io import load_image
    from vision.kakuro import BARE_EDGE_NOTE, read_kakuro

    path = write_item(plan(300, 8383)[246], tmp_path)
    image = load_image(path.with_suffix(".jpg"))
    as_kakuro = read_kakuro(image, kenken=(find_grid(image),))
    assert any(note.startswith(BARE_EDGE_NOTE) for note in as_kakuro.notes) and not as_kakuro.confident
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.status != "unique" and not reading.confident
    assert reading.puzzle.size == 6


def test_a_kakuro_whose_first_row_cell_was_its_clues_only_white_is_read():
    """A clue cell whose diagonal shows but whose cells right and below read dark takes one of them
    as white, never one of the first row or column (held-out Kakuro photo seed 2026, number 17)."""
    from ui.corpus_kakuro import plan_kakuro

    spec = plan_kakuro(180, 2026)[17]
    assert spec.id == "kk2026-0017"
    image, _ = make_kakuro_item(spec)
    reading = read_any(image)
    assert isinstance(reading, KakuroReading) and reading.status == "unique"


def test_a_kakuro_with_a_close_rival_is_not_lost_to_a_kenken_made_up_by_changing_clues(tmp_path, monkeypatch):
    """Held-out Kakuro photo seed 2026, number 42 (hard): its reading had exactly one solution and a
    close rival; the KenKen reader took a part of it for a 3×3 whose clues it had to change three
    times to get one solution. A KenKen that changed more clues than the Kakuro changed numbers does
    not win. The readers have moved on since: the Kakuro reader now reads this photo without doubt,
    and (thirty-first round) the KenKen reader finds no solution for that 3×3 — a wall it read there
    is measured as a thin line now. So both stand in here as they were: the Kakuro reading with a
    note that a close rival also has one solution, the KenKen reading with one solution and three
    changes."""
    from dataclasses import replace
    from ui.corpus_kakuro import plan_kakuro
    from solver.kakuro.formats import kakuro_from_json
    from vision.reconcile import Change

    spec = plan_kakuro(180, 2026)[42]
    assert spec.id == "kk2026-0042"
    import json
    from ui.corpus import write_item

    path = write_item(spec, tmp_path, make=make_kakuro_item)  # read back from its JPEG, as `kensnap eval` does
    image, truth = load_image(path.with_suffix(".jpg")), json.loads(path.with_suffix(".json").read_text())
    kenken = read(image)
    assert kenken.grid.size == 3 and not kenken.confident
    changes = tuple(Change((0, i), ("+", 9), ("+", 8), "the solver needed it") for i in range(3))

    def rival(*args, **kwargs):
        return replace(read(*args, **kwargs), status="unique", changes=changes, confident=False)

    def doubted(*args, **kwargs):
        kakuro = read_kakuro(*args, **kwargs)
        return replace(kakuro, notes=kakuro.notes + (vision.read_any.DOUBTS[0],))

    read_kakuro = vision.read_any.read_kakuro
    monkeypatch.setattr(vision.read_any, "read", rival)
    monkeypatch.setattr(vision.read_any, "read_kakuro", doubted)
    reading = read_any(image)
    assert isinstance(reading, KakuroReading)
    assert reading.puzzle.grid == kakuro_from_json(truth["truth"]).grid
    assert len(reading.changes) < len(changes)


def test_a_blank_sudoku_beside_a_kakuro_is_no_confident_kenken(tmp_path):
    """Fresh Kakuro photo seed 2727, number 75 (hand-held newspaper): the page also prints an empty
    Sudoku, whose box lines the KenKen finder takes for a 3×3 grid and whose thin lines in the
    corners read as labels "11" and "1" without operators. "1" on three cells only a Calcudoku's
    − or ÷ can make, so those rules were assumed, and the made-up 3×3 had one solution: it was
    returned as confident before the Kakuro was looked for. Rules assumed are a guess: the
    KenKen is not confident, the Kakuro is looked for and read. (Since the fifty-seventh round the
    finder, zoomed in on that small 3×3, sees the Sudoku's 9×9, which has no reading with one
    solution: not confident either.)"""
    import json
    from ui.corpus import write_item
    from ui.corpus_kakuro import plan_kakuro
    from solver.kakuro.formats import kakuro_from_json
    from vision.reconcile import RULES_ASSUMED

    spec = plan_kakuro(180, 2727)[75]
    path = write_item(spec, tmp_path, make=make_kakuro_item)
    image, truth = load_image(path.with_suffix(".jpg")), json.loads(path.with_suffix(".json").read_text())
    kenken = read(image)
    assert kenken.puzzle.size in (3, 9) and not kenken.confident
    assert kenken.puzzle.size == 9 or RULES_ASSUMED in kenken.notes
    reading = read_any(image)
    assert isinstance(reading, KakuroReading)
    assert reading.puzzle.grid == kakuro_from_json(truth["truth"]).grid


def test_a_kakuro_is_not_lost_to_a_kenken_that_changed_a_larger_share_of_its_clues(monkeypatch):
    """Fresh Kakuro photo seed 2727, number 124 (hard): the Kakuro reading had one solution and a
    close rival, three of its 22 numbers changed; the KenKen reader made a 5×5 of its lines with
    one solution, three of its 9 clues changed. Counted in changes it was a tie, and the KenKen won;
    counted as a share of the clues read, the KenKen guessed far more. The same three changes on a
    Kakuro of six numbers are the larger share, and the KenKen is taken."""
    from types import SimpleNamespace as Seen

    from vision.read_any import DOUBTS, _kenken_rather

    monkeypatch.setattr(vision.read_any, "_operators_printed", lambda kenken: False)  # labels without operators
    three = ("changed",) * 3
    kenken = Seen(confident=False, status="unique", changes=three, puzzle=Seen(cages=tuple(range(9)), size=5))
    kakuro = Seen(status="unique", notes=(DOUBTS[0] + " ...",), changes=three, puzzle=Seen(runs=tuple(range(22))),
                  confident=False)
    assert not _kenken_rather(kenken, kakuro)
    six = Seen(runs=tuple(range(6)))
    assert _kenken_rather(kenken, Seen(status="unique", notes=kakuro.notes, changes=three, puzzle=six, confident=False))
    settled = Seen(status="unique", notes=(), changes=(), puzzle=kakuro.puzzle, confident=False)
    assert _kenken_rather(kenken, settled) is False
    # A KenKen with no solution gives way to a Kakuro in doubt, unless that changed more than half
    # its numbers (MADE_UP_SHARE) and the KenKen grid is 5×5 or more.
    unsolved = Seen(confident=False, status="none", changes=(), puzzle=Seen(cages=tuple(range(9)), size=5))

    def in_doubt(changed: int) -> Seen:
        return Seen(status="unique", notes=kakuro.notes, changes=("changed",) * changed, puzzle=kakuro.puzzle,
                    confident=False)

    assert not _kenken_rather(unsolved, kakuro)
    assert not _kenken_rather(unsolved, in_doubt(11))  # 11 of 22: half
    assert _kenken_rather(unsolved, in_doubt(12))  # 12 of 22: more than half, made up
    small = Seen(confident=False, status="none", changes=(), puzzle=Seen(cages=tuple(range(6)), size=4))
    assert not _kenken_rather(small, in_doubt(12))
    # Labels showing operators make it a KenKen, over any Kakuro not read confidently.
    monkeypatch.setattr(vision.read_any, "_operators_printed", lambda kenken: True)
    assert _kenken_rather(small, settled) and _kenken_rather(unsolved, kakuro)
    assert not _kenken_rather(small, Seen(status="unique", notes=(), changes=(), puzzle=kakuro.puzzle, confident=True))


@pytest.mark.parametrize("index", [30, 130])
def test_a_shadowed_kenken_with_one_solution_is_taken_without_a_kakuro_look(index, tmp_path, monkeypatch):
    """Hand-held k8383-0030 and -0130: a shadow darkens a Kakuro's share of their cells (0.16, 0.12),
    but no cell shows a clue cell's diagonal, so the KenKen is read first; its reading has exactly
    one solution on a 5×5 and is taken without a look for a Kakuro (which found nothing in 1.4 and
    0.3 s)."""
    from ui.corpus import plan, write_item
    from vision.grid import find_grid
    from vision.kakuro_grid import block_share, kakuro_clue_share

    path = write_item(plan(index + 1, 8383)[index], tmp_path)
    image = load_image(path.with_suffix(".jpg"))
    grid = find_grid(image)
    assert block_share(grid) >= vision.kakuro_grid.DARK_SHARE[0] and kakuro_clue_share(grid) == 0.0

    def no_look(*args, **kwargs):
        raise AssertionError("looked for a Kakuro")
    monkeypatch.setattr(vision.read_any, "read_kakuro", no_look)
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.status == "unique" and reading.puzzle.size == 5
    assert "kakuro look" not in reading.seconds


def test_a_kenken_whose_labels_show_operators_is_taken_without_a_kakuro_look(tmp_path, monkeypatch):
    """Hand-held k8383-0048 (a newspaper 4×4 under a shadow): its KenKen reading has one solution
    only after the solver changed three clues, and a 4×4 is under SURE_SIZE, so a Kakuro was looked
    for (0.15 s, nothing found). Its labels show operators on five of its five cages; a Kakuro prints
    none (vision.read_any.OPERATORS_SEEN), so the look is spared."""
    from ui.corpus import plan, write_item

    path = write_item(plan(49, 8383)[48], tmp_path)
    image = load_image(path.with_suffix(".jpg"))

    def no_look(*args, **kwargs):
        raise AssertionError("looked for a Kakuro")
    monkeypatch.setattr(vision.read_any, "read_kakuro", no_look)
    reading = read_any(image)
    assert isinstance(reading, Reading) and not reading.confident and reading.changes
    assert reading.puzzle.size < vision.read_any.SURE_SIZE  # one solution alone would not spare the look
    assert vision.read_any._operators_printed(reading) and "kakuro look" not in reading.seconds


def test_a_kenken_whose_labels_show_operators_is_not_given_up_for_a_settled_kakuro(photos_shaken_as_their_levels_say,
                                                                                     tmp_path):
    """Hand-held k9494-0102 (a newspaper 4×4, big written digits in 7 of its 16 cells): the digits
    made its cells pass for a Kakuro's blocks, so a Kakuro was looked for first, and a 4×8 Kakuro
    with one solution, not in doubt, was read after 5 of its 11 numbers were changed. It was taken
    over the KenKen reading (one solution, "12÷" changed to "12+"), which shows operators on its
    labels; a Kakuro prints none, so the KenKen is taken, every cage and clue right."""
    import json

    from ui.corpus import plan, write_item
    from vision.grid import find_grid
    from vision.kakuro import read_kakuro

    path = write_item(plan(300, 9494)[102], tmp_path)  # the photo as the corpus writes it (JPEG)
    image, truth = load_image(path.with_suffix(".jpg")), json.loads(path.read_text())
    as_kakuro = read_kakuro(image, kenken=(find_grid(image),))
    assert as_kakuro.status == "unique" and not as_kakuro.confident  # settled, so weighed as before it won
    reading = read_any(image)
    assert isinstance(reading, Reading) and vision.read_any._operators_printed(reading)
    assert any(note.startswith("a Kakuro grid was seen too; read as a KenKen") for note in reading.notes)
    want = {(frozenset(map(tuple, c["cells"])), c["op"], c["target"]) for c in truth["truth"]["cages"]}
    assert {(frozenset(c.cells), c.op, c.target) for c in reading.puzzle.cages} == want
    assert not reading.confident  # a clue was changed


def test_a_kenken_on_a_dark_page_is_read_before_its_negative_is_looked_at(tmp_path):
    """Hand-held k8383-0005 (a web 4×4 on a dark page, a shadow across it): mostly dark, so a dark
    theme's Kakuro was looked for in the negative after the photo's own look found none (2.5 s on
    a 440×330 photo, nothing found) before its KenKen was read, confident. Its grid has clear lines:
    the KenKen is now read first and, confident, spares that look. Read exact."""
    from ui.corpus import plan, write_item
    from ui.evaluate import load_truths, score

    path = write_item(plan(6, 8383)[5], tmp_path)
    [truth] = load_truths(tmp_path)
    image = load_image(path.with_suffix(".jpg"))
    assert dark_photo(image) and not vision.polarity.dark_theme(image)
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.confident
    assert "kakuro look" in reading.seconds and "kakuro in negative" not in reading.seconds
    scored = score(truth, reading, 0.0)
    assert scored.board_ok and scored.cages_ok and scored.clues_ok


@pytest.mark.parametrize("index", [75, 141])
def test_a_kakuro_read_first_as_a_kenken_with_one_solution_is_still_read_as_a_kakuro(index, tmp_path):
    """Hand-held kk2727-0075: the KenKen finder takes a few white cells for a 3×3, whose KenKen
    reading has exactly one solution; hard kk2727-0141: a 5×5 whose KenKen reading has one after
    the solver changed 8 of its 15 clues. Neither stops the look for a Kakuro (a 3×3 is under
    SURE_SIZE; 8 of 15 is over CHANGE_SHARE)."""
    from ui.corpus_kakuro import plan_kakuro, write_kakuro_corpus

    [path] = write_kakuro_corpus(tmp_path, plan_kakuro(index + 1, 2727)[index:], workers=1)
    reading = read_any(load_image(path.with_suffix(".jpg")))
    assert isinstance(reading, KakuroReading) and reading.status == "unique"


def test_a_kakuro_whose_small_kenken_grid_looks_shadowed_is_looked_at_as_a_kakuro_first(tmp_path):
    """Hand-held kk2727-0022: the KenKen finder takes a few cells for a 4×4 with a Kakuro's share of
    dark cells and no diagonal at its clue places. Under 5×5 no KenKen reading could spare the look,
    so the Kakuro is looked at first, and taken, confident, without a KenKen reading."""
    from ui.corpus_kakuro import plan_kakuro, write_kakuro_corpus
    from vision.grid import find_grid
    from vision.kakuro_grid import block_share

    [path] = write_kakuro_corpus(tmp_path, plan_kakuro(23, 2727)[22:], workers=1)
    image = load_image(path.with_suffix(".jpg"))
    grid = find_grid(image)
    assert grid.size < vision.read_any.SURE_SIZE and block_share(grid) >= vision.kakuro_grid.DARK_SHARE[0]
    reading = read_any(image)
    assert isinstance(reading, KakuroReading) and reading.confident
    assert "kenken look" not in reading.seconds


def test_a_kenken_is_not_read_as_a_kakuro_made_up_by_changing_most_of_its_numbers(photos_shaken_as_their_levels_say,
                                                                                    tmp_path):
    """Hard k3131-0231 as made since the sixty-fourth round (the mended shake; labels 3.4 px tall):
    its KenKen reading, a 6×6, has no solution, and its lines read as a Kakuro had exactly one
    solution after 17 of its 22 numbers were changed. That Kakuro was made up; the KenKen is what a
    person can correct (vision.read_any.MADE_UP_SHARE)."""
    import json

    from ui.corpus import plan, write_item

    path = write_item(plan(300, 3131)[231], tmp_path)  # read back from its JPEG, as `kensnap eval` does
    image, truth = load_image(path.with_suffix(".jpg")), json.loads(path.with_suffix(".json").read_text())
    reading = read_any(image)
    assert isinstance(reading, Reading) and reading.grid.size == truth["truth"]["size"] == 6
    assert not reading.confident
    assert any(note.startswith("a Kakuro grid was seen too; read as a KenKen") for note in reading.notes)
