"""The browser app without a browser: Streamlit's AppTest drives ui/app.py through the main flows
(upload a photo, correct a clue, solve, check a half-filled grid, hints), and the app's helper
modules are tested directly (corrections, hints, highlights, loading)."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from conftest import REPO
from solver import PuzzleError, cell_name, solve
from solver.engine import Conflict, Result
from ui import app_hints, app_inputs, app_models, app_state, app_view
from ui.app_state import CorrectionError, Draft

APP = str(REPO / "ui" / "app.py")
SAMPLE_PHOTO = REPO / "samples" / "app-4x4-clean.jpg"
OTHER_PHOTO = REPO / "samples" / "newspaper-6x6-clean.jpg"
SEED000 = (REPO / "samples" / "seed000-4x4.txt").read_text()
SOLUTION = ((1, 3, 2, 4), (3, 4, 1, 2), (4, 2, 3, 1), (2, 1, 4, 3))
BROKEN = SEED000.replace("g 3-", "g 1-")
"""seed 000 with the clue of cage g (r4c2, r4c3) misread: no solution."""


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def type_puzzle(at: AppTest, text: str) -> AppTest:
    at.text_area(key="typed_text").input(text)
    at.button(key="use_typed").click()
    at.run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> list[str]:
    return [element.value for element in elements]


def rev(at: AppTest) -> int:
    return at.session_state["rev"]


# --- AppTest flows ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def uploaded() -> AppTest:
    at = start()
    assert "Start with a photo" in texts(at.info)[0]
    assert not texts(at.markdown)  # nothing stray on the first page (a bare string would show)
    at.file_uploader(key="upload").upload(SAMPLE_PHOTO.name, SAMPLE_PHOTO.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    return at


def test_upload_a_photo_see_what_was_read_and_the_solution(uploaded):
    at = uploaded
    assert any(text.startswith("Solved: the solution is unique") for text in texts(at.success))
    assert at.radio(key="mode").value == "Solve"
    captions = [caption for image in at.image for caption in image.captions if caption]
    assert any("over your photo" in c for c in captions) and "The solution drawn into your photo" in captions
    assert "The solution" in captions
    assert {b.label for b in at.download_button} == {"Download this picture (PNG)", "Download the solution (PNG)"}
    label = at.status[0].label
    assert label.startswith("Read a 4×4 puzzle from the photo app-4x4-clean.jpg")
    assert any("Stage timings: open" in text for text in texts(at.markdown))


DOUBTFUL_PHOTO = REPO / "samples" / "web-8x8-handheld.jpg"
"""A hand-held photo with two clues read at about 0.5 (the clean sample's clues are all sure)."""


def test_a_doubtful_clue_is_offered_first_and_confirming_it_clears_the_doubt():
    at = start()
    at.file_uploader(key="upload").upload(DOUBTFUL_PHOTO.name, DOUBTFUL_PHOTO.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception
    found = app_view.doubts(at.session_state["draft"], at.session_state["loaded"].reading)
    assert found.clues
    to_check = [text for text in texts(at.markdown) if text.startswith("**To check**")]
    assert to_check and all(cell_name(cell) in to_check[0] for cell in found.clues)
    anchor = at.selectbox(key=f"clue_cage_{rev(at)}").value
    assert anchor in found.clues  # the first doubtful clue is offered first
    clue = at.session_state["draft"].clue_at()[anchor]
    at.button(key=f"set_clue_{rev(at)}").click()  # confirmed as read
    at.run()
    assert not at.exception
    assert f"Confirmed: the clue at {cell_name(anchor)} is {clue}." in texts(at.success)
    still = [text for text in texts(at.markdown) if text.startswith("**To check**")]
    # Its low-confidence line is gone (a line saying the solver changed it may stay).
    assert not still or f"at {cell_name(anchor)} read with only" not in still[0]
    assert at.session_state["draft"].clue_at()[anchor] == clue and not at.session_state["history"]


def test_a_camera_shot_is_read_like_an_upload():
    at = start()
    at.toggle(key="use_camera").set_value(True).run()
    at.camera_input(key="camera").set_value(("shot.jpg", SAMPLE_PHOTO.read_bytes(), "image/jpeg"))
    at.run()
    assert not at.exception
    assert at.status[0].label.startswith("Read a 4×4 puzzle from the camera photo shot.jpg")
    assert any(text.startswith("Solved") for text in texts(at.success))


def test_a_bad_file_gives_one_friendly_error_and_keeps_the_puzzle_worked_on():
    at = start()
    at.file_uploader(key="upload").upload("puzzle.jpg", b"this is not a picture", "image/jpeg")
    at.run()
    assert not at.exception
    assert any("cannot be opened as a photo" in text and "JPEG" in text for text in texts(at.error))
    at = type_puzzle(at, BROKEN)
    at.selectbox(key=f"clue_cage_{rev(at)}").select((3, 1)).run()
    at.text_input(key=f"clue_text_{rev(at)}_3_1").input("3-").run()
    at.file_uploader(key="upload").clear().upload("other.png", b"\x89PNG\r\n\x1a\n broken", "image/png").run()
    assert any("cannot be opened" in text and "still the one you had" in text for text in texts(at.error))
    assert at.session_state["draft"].clue_at()[(3, 1)] == "3-"
    assert any(text.startswith("Solved") for text in texts(at.success))


def test_correct_a_clue_then_solve_and_undo_corrections_survive_reruns():
    at = type_puzzle(start(), BROKEN)
    assert any(text.startswith("No solution") and "1− at r4c2" in text for text in texts(at.error))
    at.selectbox(key=f"clue_cage_{rev(at)}").select((3, 1))
    at.run()
    key = f"clue_text_{rev(at)}_3_1"
    assert at.text_input(key=key).value == "1−"
    at.text_input(key=key).input("3-")
    at.button(key=f"set_clue_{rev(at)}").click()
    at.run()
    assert any(text.startswith("Solved") for text in texts(at.success))
    at.run()  # a plain rerun keeps the correction
    assert any(text.startswith("Solved") for text in texts(at.success))
    assert at.session_state["log"] == ["clue at r4c2 set to 3-"]
    at.button(key="undo").click()
    at.run()
    assert any(text.startswith("No solution") for text in texts(at.error))
    assert at.session_state["typed_text"] == BROKEN  # nothing typed is lost


def test_typing_that_is_not_applied_yet_survives_other_corrections():
    at = type_puzzle(start(), SEED000)
    half_typed = SEED000.replace("g 3-", "g 3-  h")  # a label that is not on the map
    at.text_area(key=f"text_{rev(at)}").input(half_typed)
    at.button(key=f"replace_{rev(at)}").click()
    at.run()
    assert any("clues come in pairs" in text for text in texts(at.error))
    at.selectbox(key=f"clue_cage_{rev(at)}").select((1, 3))
    at.run()
    at.text_input(key=f"clue_text_{rev(at)}_1_3").input("3")  # another correction meanwhile
    at.run()
    assert at.session_state["draft"].clue_at()[(1, 3)] == "3"
    assert at.text_area(key=f"text_{rev(at)}").value == half_typed  # still there, still to fix


def test_merge_and_split_cages_from_picked_cells():
    at = type_puzzle(start(), SEED000)
    at.multiselect(key=f"cells_{rev(at)}").select("r4c2")
    at.button(key=f"split_{rev(at)}").click()
    at.run()
    draft = at.session_state["draft"]
    assert draft.cages[draft.cage_index((3, 1))].cells == ((3, 1),)
    assert any("No clue yet" in text and "r4c3" in text for text in texts(at.markdown))
    assert any(text.startswith("Not a complete puzzle yet") for text in texts(at.error))
    at.multiselect(key=f"cells_{rev(at)}").select("r4c2").select("r4c3")
    at.button(key=f"merge_{rev(at)}").click()
    at.run()
    assert any(text.startswith("Solved") for text in texts(at.success))


def test_check_my_grid_marks_digits_without_revealing_the_rest():
    text = SEED000 + "entries:\n1 4 . .\n. . . .\n. . 3 .\n. . . .\n"  # r1c2 is wrong (3)
    at = type_puzzle(start(), text)
    at.text_area(key=f"entries_check_{rev(at)}").input("1 4 . .\n. . . .\n. . 3 .\n. . . 3")  # one more
    assert at.radio(key="mode").value == "Check my grid"
    assert texts(at.success) == ["The puzzle has exactly one solution: kensnap can check your digits and give hints."]
    assert not at.error  # nothing judged before the digits are confirmed
    at.button(key="confirm").click()
    at.run()
    assert texts(at.error) == ["1 wrong (r1c2) and 3 right of 4 written digits."]
    assert any("cannot be completed" in t for t in texts(at.warning))
    shown = " ".join(texts(at.error) + texts(at.warning) + texts(at.success) + texts(at.markdown))
    assert "r1c2 is 3" not in shown
    at.selectbox(key=f"reveal_cell_{rev(at)}").select((0, 1))
    at.button(key="reveal").click()
    at.run()
    assert at.session_state["revealed"] == {(0, 1): 3}


def test_hints_go_from_where_to_look_to_the_digit_and_can_be_written_in():
    at = type_puzzle(start(), SEED000)
    at.radio(key="mode").set_value("Hint").run()
    at.button(key="hint_1").click().run()
    assert texts(at.info)[0].startswith("Hint 1 of 3 (where to look): ")
    assert not [b for b in at.button if b.key == "write_hint"]  # no digit before level 3
    at.button(key="hint_3").click().run()
    third = texts(at.info)[0]
    assert third.startswith("Hint 3 of 3")
    write = at.button(key="write_hint")
    write.click().run()
    entries = at.session_state["draft"].entries
    filled = [(r, c) for r in range(4) for c in range(4) if entries[r][c] is not None]
    assert len(filled) == 1 and entries[filled[0][0]][filled[0][1]] == SOLUTION[filled[0][0]][filled[0][1]]


def test_start_on_a_sample_named_by_the_environment(monkeypatch):
    monkeypatch.setenv("KENSNAP_SAMPLE", "seed000-4x4.txt")
    at = start()
    assert any(text.startswith("Solved") for text in texts(at.success))
    monkeypatch.setenv("KENSNAP_SAMPLE", "no-such-sample")
    at = start()
    assert any("There is no sample 'no-such-sample'" in text for text in texts(at.error))


def test_while_the_models_are_fitted_a_photo_is_kept_and_read_once_they_are_ready(monkeypatch, tmp_path):
    # A fresh machine: the app starts at once and fits the photo-reading models in the background
    # (ui.app_models); the photo given meanwhile is not lost, and is read when they are ready.
    monkeypatch.setenv("KENSNAP_APP_KEPT", str(tmp_path))  # where the kept photo is written
    fitting = app_models.Preparing(("KenKen clue labels", "Kakuro clue totals"), "KenKen clue labels", 60)
    state = {"preparing": fitting, "starts": 0, "read": []}
    monkeypatch.setattr(app_models, "preparing", lambda: state["preparing"])
    monkeypatch.setattr(app_models, "start_fitting", lambda: state.__setitem__("starts", state["starts"] + 1) or True)

    def load_photo(data, name, kind="photo"):
        state["read"].append(name)
        return app_inputs.load_typed(SEED000, f"{kind} {name}")

    monkeypatch.setattr(app_inputs, "load_photo", load_photo)
    at = start()
    assert any("being prepared" in text and "fitting the model for KenKen clue labels" in text for text in texts(at.info))
    assert state["starts"] >= 1
    type_puzzle(at, SEED000)  # the solver works meanwhile
    assert any(text.startswith("Solved") for text in texts(at.success))
    at.file_uploader(key="upload").upload(SAMPLE_PHOTO.name, SAMPLE_PHOTO.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception and state["read"] == []
    assert any(f"photo {SAMPLE_PHOTO.name} is kept" in text for text in texts(at.info))
    assert not any("Start with a photo" in text for text in texts(at.info))
    assert at.session_state["waiting"][1] == SAMPLE_PHOTO.name
    # A second photo given meanwhile is the one kept, and the page says which it replaced.
    at.file_uploader(key="upload").upload(OTHER_PHOTO.name, OTHER_PHOTO.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception and state["read"] == []
    assert any(f"photo {OTHER_PHOTO.name} is kept in place of the photo {SAMPLE_PHOTO.name} you gave before it"
               in text for text in texts(at.info))
    state["preparing"] = None
    at.run()
    assert not at.exception and state["read"] == [OTHER_PHOTO.name]
    assert at.session_state["waiting"] is None and at.session_state["loaded"].source == f"photo {OTHER_PHOTO.name}"
    assert not any("being prepared" in text for text in texts(at.info))
    at.run()
    assert state["read"] == [OTHER_PHOTO.name]  # read once
    assert app_models.kept_photo() is None  # and not again on the next page
    start()
    assert state["read"] == [OTHER_PHOTO.name]


def test_a_photo_kept_while_the_models_are_fitted_outlives_a_closed_page(monkeypatch, tmp_path):
    # The photo given while the models are fitted is written to the cache too: a page closed and
    # opened again (a new session) still has it, and reads it once the models are ready.
    monkeypatch.setenv("KENSNAP_APP_KEPT", str(tmp_path))
    monkeypatch.setenv("KENSNAP_SAMPLE", "newspaper-6x6-clean")  # the kept photo comes before the sample
    fitting = app_models.Preparing(("KenKen clue labels",), "KenKen clue labels", 60)
    state = {"preparing": fitting, "read": []}
    monkeypatch.setattr(app_models, "preparing", lambda: state["preparing"])
    monkeypatch.setattr(app_models, "start_fitting", lambda: True)

    def load_photo(data, name, kind="photo"):
        state["read"].append((name, data))
        return app_inputs.load_typed(SEED000, f"{kind} {name}")

    monkeypatch.setattr(app_inputs, "load_photo", load_photo)
    monkeypatch.setattr(app_inputs, "load_file", lambda path, kind="sample": state["read"].append((path.name, None))
                        or app_inputs.load_typed(SEED000, f"{kind} {path.name}"))
    first = start()
    first.file_uploader(key="upload").upload(SAMPLE_PHOTO.name, SAMPLE_PHOTO.read_bytes(), "image/jpeg")
    first.run()
    assert not first.exception and all(name != SAMPLE_PHOTO.name for name, _ in state["read"])
    del first  # the page is closed
    again = start()  # still fitting: the new page keeps the photo and says so
    assert any(f"photo {SAMPLE_PHOTO.name} is kept" in text for text in texts(again.info))
    assert again.session_state["waiting"][:2] == (SAMPLE_PHOTO.read_bytes(), SAMPLE_PHOTO.name)
    state["read"].clear()
    state["preparing"] = None
    del again
    third = start()  # ready now: the kept photo is read, whole, instead of the sample
    assert state["read"] == [(SAMPLE_PHOTO.name, SAMPLE_PHOTO.read_bytes())]
    assert third.session_state["loaded"].source == f"photo {SAMPLE_PHOTO.name}"
    assert app_models.kept_photo() is None


def test_a_failed_background_fit_is_an_error_that_says_what_to_run(monkeypatch):
    failed = app_models.Preparing(("KenKen clue labels",), None, 50, failed="No space left on device")
    monkeypatch.setattr(app_models, "preparing", lambda: failed)
    monkeypatch.setattr(app_models, "start_fitting", lambda: False)
    at = start()
    assert any("could not be prepared" in text and "kensnap models --fit" in text for text in texts(at.error))


# --- corrections --------------------------------------------------------------------------------

def seed_draft() -> Draft:
    return app_state.draft_from_text(SEED000)


def test_draft_round_trips_through_its_text_and_builds_the_puzzle():
    draft = seed_draft()
    assert app_state.draft_from_text(draft.to_text()) == draft
    assert solve(draft.to_puzzle()).solution == SOLUTION


@pytest.mark.parametrize("text, cells, expected", [
    ("12x", 3, ("*", 12)), ("×12", 2, ("*", 12)), ("3 -", 2, ("-", 3)), ("2÷", 2, ("/", 2)),
    ("7", 2, ("?", 7)), ("4", 1, ("=", 4)), ("11+", 3, ("+", 11)),
])
def test_clues_are_read_as_people_type_them(text, cells, expected):
    assert app_state.parse_clue(text, cells) == expected


@pytest.mark.parametrize("text", ["", "12y", "x12+", "abc"])
def test_a_bad_clue_is_kept_and_reported(text):
    draft = app_state.set_clue(seed_draft(), (0, 1), text)
    assert draft.cages[0].clue == text
    problems = draft.problems()
    assert len(problems) == 1 and problems[0].startswith("cage at r1c1")
    with pytest.raises(PuzzleError):
        draft.to_puzzle()


def test_merge_keeps_the_clue_printed_in_the_new_anchor():
    draft = app_state.merge(seed_draft(), [(0, 2), (1, 3)])  # b (2/ at r1c3) with e (2 at r2c4)
    cage = draft.cages[draft.cage_index((0, 2))]
    assert cage.cells == ((0, 2), (0, 3), (1, 3)) and cage.clue == "2÷"
    with pytest.raises(CorrectionError):
        app_state.merge(seed_draft(), [(0, 0), (0, 1)])  # one cage: nothing to merge


def test_split_off_cuts_the_rest_into_connected_parts():
    draft = app_state.split_off(seed_draft(), [(2, 0)])  # c: r2c1, r3c1, r3c2, r4c1
    parts = {draft.cages[draft.cage_index(cell)].cells: draft.cages[draft.cage_index(cell)].clue
             for cell in [(1, 0), (2, 0), (2, 1), (3, 0)]}
    assert parts == {((1, 0),): "11+", ((2, 0),): "", ((2, 1),): "", ((3, 0),): ""}
    with pytest.raises(CorrectionError):
        app_state.split_off(seed_draft(), [(0, 0), (0, 1), (1, 1)])  # already the whole cage


def test_resize_keeps_what_fits_and_adds_empty_cages():
    draft = app_state.set_entry(seed_draft(), (0, 0), 1)
    bigger = app_state.resize(draft, 5)
    assert bigger.size == 5 and bigger.entries[0][0] == 1
    assert {cage.cells for cage in bigger.cages if not cage.clue} == {((r, c),) for r in range(5) for c in range(5)
                                                                      if r == 4 or c == 4}
    smaller = app_state.resize(seed_draft(), 3)
    assert all(max(r, c) < 3 for cage in smaller.cages for r, c in cage.cells)
    assert sum(len(cage.cells) for cage in smaller.cages) == 9
    with pytest.raises(CorrectionError):
        app_state.resize(draft, 2)


def test_written_digits_from_text_with_readable_errors():
    draft = app_state.set_entries_text(seed_draft(), "1 . . .\n....\n. . 3 .\n...3")
    assert draft.entries == ((1, None, None, None), (None,) * 4, (None, None, 3, None), (None, None, None, 3))
    assert app_state.entries_text(draft).splitlines()[0] == "1 . . ."
    for bad, message in [("1 2 3", "write 4 rows"), ("1 2 3\n....\n....\n....", "row 1 has 3 cells"),
                         ("5...\n....\n....\n....", "'5' is not a digit 1..4")]:
        with pytest.raises(CorrectionError, match=message):
            app_state.set_entries_text(seed_draft(), bad)
    assert app_state.set_entries_text(draft, "....\n....\n....\n....").entries is None


def test_a_typed_puzzle_that_is_not_a_kenken_is_refused_in_words():
    with pytest.raises(CorrectionError, match="line"):
        app_state.draft_from_text("a a\nb")


# --- hints --------------------------------------------------------------------------------------

def test_solver_hints_name_the_digit_only_at_level_three_and_are_right():
    puzzle = seed_draft().to_puzzle()
    entries = [[None] * 4 for _ in range(4)]
    for _ in range(16):  # following level-3 hints fills the grid with the solution
        grid = tuple(map(tuple, entries))
        one, two, three = (app_hints.solver_hint(puzzle, grid, level) for level in (1, 2, 3))
        assert one.value is None and two.value is None and one.cell is None
        assert one.cells == two.cells == three.cells and three.cell in three.cells
        r, c = three.cell
        assert three.value == SOLUTION[r][c] and entries[r][c] is None
        entries[r][c] = three.value
    assert tuple(map(tuple, entries)) == SOLUTION
    with pytest.raises(PuzzleError, match="nothing left"):
        app_hints.solver_hint(puzzle, SOLUTION, 1)


def test_a_wrong_digit_is_hinted_first():
    puzzle = seed_draft().to_puzzle()
    grid = ((1, 4, None, None),) + ((None,) * 4,) * 3
    found = app_hints.solver_hint(puzzle, grid, 3)
    assert found.cell == (0, 1) and found.value == 3 and found.technique == "a wrong digit"


def test_no_hint_gives_a_digit_for_a_puzzle_without_one_answer():
    puzzle = app_state.draft_from_text(BROKEN).to_puzzle()
    with pytest.raises(PuzzleError, match="no solution"):
        app_hints.solver_hint(puzzle, None, 1)
    try:
        given = app_hints.hint(puzzle, None, 3)  # the logic engine, when installed, says so in a hint
    except PuzzleError as err:
        assert "no solution" in str(err)
    else:
        assert given.value is None and "no solution" in given.text


def test_hint_uses_the_logic_engine_when_it_answers(monkeypatch):
    class Found:
        technique, explanation, cells, cell, value = "killer pair", "look at the 3-cell cage", [(0, 0)], (0, 0), 1

    class Logic:
        @staticmethod
        def hint(puzzle, entries=None, level=1):
            return Found()

    monkeypatch.setattr(app_hints, "_logic_module", lambda: Logic)
    got = app_hints.hint(seed_draft().to_puzzle(), None, 2)
    assert (got.source, got.technique, got.value) == ("logic", "killer pair", None)
    assert app_hints.hint(seed_draft().to_puzzle(), None, 3).value == 1


# --- what is shown ------------------------------------------------------------------------------

def test_status_words_for_each_verdict():
    draft = seed_draft()
    puzzle = draft.to_puzzle()
    assert app_view.status_message(app_view.analyse(draft), None)[0] == "success"
    several = app_view.Analysis(puzzle, result=Result("multiple", SOLUTION, SOLUTION, ((0, 0), (1, 1))))
    kind, text = app_view.status_message(several, None)
    assert kind == "warning" and "r1c1, r2c2" in text
    none = app_view.Analysis(puzzle, result=Result("none", conflict=Conflict((0,), (), ("cage 12× at r1c1",))))
    kind, text = app_view.status_message(none, None)
    assert kind == "error" and "12× at r1c1" in text
    kind, text = app_view.status_message(app_view.analyse(app_state.set_clue(draft, (0, 0), "")), None)
    assert kind == "error" and "no clue yet" in text


def test_pictures_are_drawn_for_typed_and_photographed_puzzles():
    draft = seed_draft()
    analysis = app_view.analyse(draft)
    review = app_view.review_image(draft, None, analysis, app_view.Doubts(), hint_cells=((0, 0),))
    assert review.ndim == 3 and review.shape[0] == review.shape[1] > 4 * 60
    clean = app_view.clean_image(draft, SOLUTION)
    assert Image.open(io.BytesIO(app_view.png_bytes(clean))).size == clean.shape[1::-1]
    photo = np.full((300, 400, 3), 255, np.uint8)

    class Reading:
        corners = np.array([[50, 20], [350, 20], [350, 280], [50, 280]], float)

    drawn = app_view.overlay_image(photo, Reading(), draft, SOLUTION)
    assert drawn.shape == photo.shape and (drawn < 200).any()

    class ReadBigger:  # the reading was made on a photo twice as large as the one kept
        corners = Reading.corners * 2

    assert np.array_equal(app_view.overlay_image(photo, ReadBigger(), draft, SOLUTION, scale=0.5), drawn)
    assert app_view.fit(np.zeros((4000, 3000, 3), np.uint8)).shape == (1600, 1200, 3)


def test_check_colours_right_green_and_wrong_red():
    from solver.check import check
    from ui.render import MARK_RIGHT, MARK_WRONG
    entries = ((1, 4, None, None),) + ((None,) * 4,) * 3
    colors = app_view.check_colors(entries, check(seed_draft().to_puzzle(), entries))
    assert colors == {(0, 0): MARK_RIGHT, (0, 1): MARK_WRONG}


def test_corrected_parts_of_a_reading_are_no_longer_doubtful():
    loaded = app_inputs.load_file(SAMPLE_PHOTO)
    assert loaded.error is None and loaded.reading is not None
    found = app_view.doubts(loaded.draft, loaded.reading)
    low = {cell for cell, r in loaded.reading.clues.items() if r.best and r.best[2] < app_view.LOW_CLUE}
    assert set(found.clues) == low
    for cell in low:
        fixed = app_view.doubts(app_state.set_clue(loaded.draft, cell, "5+"), loaded.reading)
        assert cell not in fixed.clues
        confirmed = app_view.doubts(loaded.draft, loaded.reading, frozenset({(cell, loaded.draft.clue_at()[cell])}))
        assert cell not in confirmed.clues and set(confirmed.clues) == low - {cell}
    assert app_view.doubts(app_state.resize(loaded.draft, 5), loaded.reading) == app_view.Doubts()


# --- loading ------------------------------------------------------------------------------------

def test_heic_photos_open():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.open(SAMPLE_PHOTO).save(buffer, format="HEIF", quality=90)
    loaded = app_inputs.load_photo(buffer.getvalue(), "puzzle.heic")
    assert loaded.error is None and loaded.draft.size == 4


@pytest.mark.parametrize("data, words", [
    (b"", "cannot be opened as a photo"),
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "cannot be opened as a photo"),
])
def test_bad_photos_give_words_not_tracebacks(data, words):
    loaded = app_inputs.load_photo(data, "x.png")
    assert loaded.draft is None and words in loaded.error


def test_a_picture_without_a_puzzle_says_what_to_try():
    buffer = io.BytesIO()
    Image.fromarray(np.full((400, 400, 3), 200, np.uint8)).save(buffer, format="PNG")
    loaded = app_inputs.load_photo(buffer.getvalue(), "blank.png")
    assert loaded.draft is None and "No puzzle found" in loaded.error and "type the puzzle" in loaded.error


def test_samples_are_listed_and_found_by_name_or_path():
    names = app_inputs.sample_names()
    assert "app-4x4-clean.jpg" in names and "seed000-4x4.txt" in names
    assert app_inputs.sample_path("app-4x4-clean") == app_inputs.SAMPLES / "app-4x4-clean.jpg"
    assert app_inputs.sample_path(str(SAMPLE_PHOTO)) == SAMPLE_PHOTO
    assert app_inputs.sample_path("nothing-like-this") is None
    assert app_inputs.load_typed(SEED000).draft == seed_draft()
    assert "cannot be read" in app_inputs.load_typed("a a\nb 3").error


# --- the command ------------------------------------------------------------------------------

def test_the_readme_run_command_starts_the_app_on_a_bundled_sample():
    from test_setup import readme_commands
    from ui.cli import build_parser, cmd_app
    run_cmd, _ = readme_commands()
    args = build_parser().parse_args(run_cmd.split("kensnap ", 1)[1].split())
    assert args.run is cmd_app and app_inputs.sample_path(args.sample) is not None


def test_the_app_command_refuses_an_unknown_sample_and_a_busy_port(capsys):
    import socket
    from ui.cli import main
    assert main(["app", "--sample", "no-such-sample"]) == 2
    assert "no such sample" in capsys.readouterr().err
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["app", "--port", str(busy.getsockname()[1])]) == 2
    assert "try another --port" in capsys.readouterr().err


def test_the_kept_photo_is_given_back_whole_or_not_at_all(monkeypatch, tmp_path):
    monkeypatch.setenv("KENSNAP_APP_KEPT", str(tmp_path))
    assert app_models.kept_photo() is None
    app_models.keep_photo(b"first photo", "a.jpg", "photo")
    app_models.keep_photo(b"second", "b.png", "camera photo")  # one photo: the last
    assert app_models.kept_photo() == (b"second", "b.png", "camera photo")
    (app_models.kept_folder() / "photo").write_bytes(b"sec")  # cut short: not the photo described
    assert app_models.kept_photo() is None
    (app_models.kept_folder() / "about.json").write_text("{not json")
    assert app_models.kept_photo() is None
    app_models.forget_kept_photo()
    app_models.forget_kept_photo()  # nothing left: no error
    assert not any(app_models.kept_folder().iterdir())
