"""The command line: readable output, one JSON line per input, exit codes, bad input without tracebacks."""
import json
import subprocess
import sys

import pytest

from conftest import REPO, SHARED
from solver import Puzzle
from ui.cli import main

SAMPLE = str(REPO / "samples" / "seed000-4x4.txt")
KEEN = "4:a_7a__a_aaba,d2s1a6a5m4d2s2m12"


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_a_readable_grid(capsys):
    code, out, err = run(capsys, "solve", SAMPLE)
    assert code == 0 and "unique" in out
    assert "| 1   3 | 2   4 |" in out


def test_solve_json_gives_one_object_per_input_in_order(capsys):
    code, out, _ = run(capsys, "solve", "--json", SAMPLE, "missing.txt", KEEN)
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["input"] for line in lines] == [SAMPLE, "missing.txt", KEEN]
    assert lines[0]["status"] == "unique" and lines[0]["solution"][0] == [1, 3, 2, 4]
    assert "error" in lines[1] and "no such file" in lines[1]["error"]
    assert lines[2]["status"] == "unique" and isinstance(lines[2]["time_ms"], float)
    assert code == 2


def test_a_keen_file_gives_one_object_per_puzzle(capsys):
    code, out, _ = run(capsys, "solve", "--json", str(SHARED / "puzzles" / "keen" / "9u.txt"))
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 10 and {line["status"] for line in lines} == {"unique"} and code == 0


def test_stdin_one_puzzle_per_line(capsys, monkeypatch):
    text = (SHARED / "puzzles" / "keen" / "4e.txt").read_text()
    code, out, _ = run(capsys, "solve", "--json", "-", stdin=text, monkeypatch=monkeypatch)
    assert len(out.splitlines()) == 10 and code == 0


def test_several_solutions_and_no_solution_exit_1(capsys, tmp_path):
    multi = tmp_path / "multi.json"
    multi.write_text(json.dumps({"size": 3, "cages": [{"cells": [[0, 0]], "op": "=", "target": 1}]}))
    code, out, _ = run(capsys, "solve", "--json", str(multi))
    obj = json.loads(out)
    assert code == 1 and obj["status"] == "multiple" and obj["other"] != obj["solution"] and obj["differ"]
    none = tmp_path / "none.txt"
    none.write_text("a b c\nd e f\ng h i\na 1 b 1 c 2 d 2 e 3 f 1 g 3 h 2 i 3\n")
    code, out, _ = run(capsys, "solve", str(none))
    assert code == 1 and "no solution" in out and "cage 1 at r1c1" in out and "cage 1 at r1c2" in out


@pytest.mark.parametrize("content, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "truncated or damaged"),
    (b"\x00\x01\x02binary\xff\xfe", "not a text puzzle file"),
    (b"", "empty"),
    (b'{"size": 4, "cages": [', "not valid JSON"),
    (b"a a b\nc d b\nc d d\na 3+ b 3/ c 5+ d 10+\n", "cannot add up to 10"),
    (b'{"size": 6, "cages": [{"cells": [[0,0],[0,1]], "op": "*", "target": 14}]}', "prime factor 7"),
])
def test_bad_input_is_one_clear_line_on_stderr_and_exit_2(capsys, tmp_path, content, words):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_check_reports_wrong_cells_only(capsys, tmp_path):
    entries = tmp_path / "entries.txt"
    entries.write_text("1 . . .\n. . . .\n. . 4 .\n. . . .\n")  # r3c3 should be 3
    code, out, _ = run(capsys, "check", SAMPLE, "--entries", str(entries), "--json")
    obj = json.loads(out)
    assert code == 1 and obj["wrong"] == [[2, 2]] and obj["completable"] is False
    assert "solution" not in obj  # nothing about the empty cells is revealed
    code, out, _ = run(capsys, "check", SAMPLE, "--entries", str(entries))
    assert "wrong: r3c3" in out and "cannot be completed" in out


def test_check_of_a_full_right_grid_says_it_is_solved(capsys, tmp_path):
    entries = tmp_path / "entries.txt"
    entries.write_text("1 3 2 4\n3 4 1 2\n4 2 3 1\n2 1 4 3\n")  # the sample's solution
    code, out, _ = run(capsys, "check", SAMPLE, "--entries", str(entries))
    assert code == 0 and "16 of 16 digit(s) written" in out and "complete: solved" in out
    entries.write_text("1 3 2 4\n3 4 1 2\n. . . .\n. . . .\n")
    code, out, _ = run(capsys, "check", SAMPLE, "--entries", str(entries))
    assert code == 0 and "8 of 16" in out and "can still be completed" in out


def test_check_without_entries_is_bad_input(capsys):
    code, _, err = run(capsys, "check", SAMPLE)
    assert code == 2 and "no entries" in err


def test_console_script_runs_and_documents_exit_codes():
    exe = REPO / ".venv" / "bin" / "kensnap"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "ui.cli"]
    proc = subprocess.run(cmd + ["solve", "--help"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0 and "exit codes" in proc.stdout and "2 bad input" in proc.stdout
    proc = subprocess.run(cmd + ["solve", "nope.json"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_rules_option_switches_three_cell_subtraction(capsys, tmp_path):
    path = tmp_path / "calc.txt"
    path.write_text("a a b\na c b\nd c c\na 0- b 3+ c 5+ d 3\n")  # 'a' is a 3-cell difference
    code, out, err = run(capsys, "solve", "--rules", "classic", str(path))
    assert code == 2 and "needs Calcudoku rules" in err
    code, out, err = run(capsys, "solve", "--json", "--rules", "calcudoku", str(path))
    assert json.loads(out)["status"] in ("unique", "multiple", "none") and code in (0, 1)


def test_read_reports_bad_images_and_no_puzzle_with_exit_2(capsys, tmp_path):
    blank = tmp_path / "blank.png"
    from PIL import Image
    Image.new("RGB", (400, 300), "white").save(blank)
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    code, out, _ = run(capsys, "read", "--json", str(blank), str(text))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [set(line) for line in lines] == [{"input", "error"}] * 2
    assert "no puzzle grid found" in lines[0]["error"].lower() and "not an image" in lines[1]["error"]
    assert "whole grid in the photo" in lines[0]["error"]  # what a person can do about it


def test_read_and_solve_a_sample_photo_with_an_overlay(capsys, tmp_path):
    sample = str(REPO / "samples" / "app-4x4-clean.jpg")
    code, out, _ = run(capsys, "read", "--json", sample)
    obj = json.loads(out)
    assert {"size", "cages", "operators_shown", "confidence", "changes", "time_ms", "confident", "unsure_entries"} <= set(obj)
    assert code in (0, 1) and (code == 0) == obj["confident"]
    overlay = tmp_path / "solved.png"
    code, out, _ = run(capsys, "solve", "--json", "--overlay", str(overlay), sample)
    obj = json.loads(out)
    assert "confident" in obj and (obj["solution"] is None or overlay.is_file())


def test_check_a_photo_of_a_half_filled_grid(capsys, tmp_path):
    """`check PHOTO` reads the puzzle and the written digits and names exactly the wrong ones (the
    sample's truth: the digits that differ from its solution), without printing any solution."""
    sample = REPO / "samples" / "newspaper-6x6-halffilled.jpg"
    truth = json.loads(sample.with_suffix(".json").read_text())
    written, solution = truth["truth"]["entries"], truth["solution"]
    wrong = [[r, c] for r, row in enumerate(written) for c, v in enumerate(row) if v is not None and v != solution[r][c]]
    code, out, _ = run(capsys, "check", "--json", str(sample))
    obj = json.loads(out)
    assert wrong and obj["wrong"] == wrong and obj["filled"] == sum(v is not None for row in written for v in row)
    assert obj["read_confident"] and obj["unsure"] == [] and code == 1 and "solution" not in obj
    # Digits typed over what was read are checked instead: the solution's own digits are all right.
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps([[solution[r][c] if v is not None else None for c, v in enumerate(row)]
                                 for r, row in enumerate(written)]))
    code, out, _ = run(capsys, "check", str(sample), "--entries", str(typed))
    assert code == 0 and "no written digit is wrong" in out and "those of --entries" in out


def test_check_of_a_photo_says_how_far_to_trust_it():
    from ui.text_view import doubt, photo_notes
    entries = ((None, 5), (None, None))
    text = photo_notes(doubt(False, "unique", 2), [(0, 1)], entries, False)
    assert "r1c2 (read as 5)" in text and "2 clue(s) changed" in text and "may be right" in text
    assert photo_notes(doubt(True, "unique", 0), [], entries, False) == ""
    assert "as read it has no solution" in photo_notes(doubt(False, "none", 0), [], entries, False)


def test_check_of_a_bad_image_is_bad_input(capsys, tmp_path):
    blank = tmp_path / "blank.png"
    from PIL import Image
    Image.new("RGB", (400, 300), "white").save(blank)
    code, out, err = run(capsys, "check", str(blank))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "no puzzle grid found" in err.lower()
    code, out, err = run(capsys, "check", str(REPO / "samples" / "app-4x4-clean.jpg"))
    assert code == 2 and out == "" and "no written digits were read" in err


def test_hint_for_a_photo_points_at_a_wrong_digit_read_from_it(capsys):
    sample = REPO / "samples" / "newspaper-6x6-halffilled.jpg"
    truth = json.loads(sample.with_suffix(".json").read_text())
    written, solution = truth["truth"]["entries"], truth["solution"]
    wrong = [[r, c] for r, row in enumerate(written) for c, v in enumerate(row) if v is not None and v != solution[r][c]]
    code, out, _ = run(capsys, "hint", "--json", "--level", "2", str(sample))
    obj = json.loads(out)
    assert code == 1 and obj["technique"] == "wrong_entry" and obj["wrong_entries"] and obj["read_confident"]
    assert all(cell in wrong for cell in obj["wrong_entries"]) and obj["unsure"] == []


def test_explain_and_grade_take_a_photo_and_say_how_far_to_trust_it(capsys):
    sample = str(REPO / "samples" / "web-3x3-clean.jpg")
    code, out, _ = run(capsys, "grade", "--json", sample)
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "unique" and obj["read_confident"] is True and 1 <= obj["level"] <= 5
    code, out, _ = run(capsys, "explain", sample)
    assert code == 0 and "solved by logic alone" in out and "not read with confidence" not in out
    from ui.cli import Loaded, _trusted

    class Unsure:
        confident, changes, status = False, ("one change",), "unique"
        puzzle = Puzzle(4, (), True, None)
    obj, text = _trusted(Loaded("p.jpg", None, None, Unsure()), {"level": 2}, "p.jpg: 2 medium")
    assert obj == {"level": 2, "read_confident": False} and "1 clue(s) changed by the solver" in text


def test_a_conflict_not_narrowed_down_says_so(capsys, tmp_path, monkeypatch):
    import solver.engine as engine
    monkeypatch.setattr(engine, "SHRINK_CONFLICTS", 0)
    none = tmp_path / "none.txt"
    none.write_text("a b c\nd e f\ng h i\na 1 b 1 c 2 d 2 e 3 f 1 g 3 h 2 i 3\n")
    code, out, _ = run(capsys, "solve", str(none))
    assert code == 1 and "no solution" in out and "some of these may hold" in out
    code, out, _ = run(capsys, "solve", "--json", str(none))
    assert json.loads(out)["conflict"]["minimal"] is False


def test_ctrl_c_while_the_sat_solver_runs_is_one_line_not_a_traceback(capsys, monkeypatch):
    # PySAT's C solvers catch Ctrl-C themselves and raise their own error, not KeyboardInterrupt.
    import pysolvers
    import ui.cli as cli

    def interrupted(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")
    monkeypatch.setattr(cli, "solve", interrupted)
    code, out, err = run(capsys, "solve", SAMPLE)
    assert code == 130 and err.strip() == "kensnap: interrupted" and "Traceback" not in err
