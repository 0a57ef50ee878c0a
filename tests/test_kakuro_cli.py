"""`kensnap solve` and `check` tell a Kakuro from a KenKen by itself; exit codes and messages as for KenKen."""
import json

from conftest import REPO
from solver.kakuro import kakuro_to_json
from test_kakuro_engine import SEED_SOLUTION
from test_kakuro_model import seed_puzzle
from ui.cli import main

SAMPLE = str(REPO / "samples" / "kakuro-seed003.txt")
KENKEN = str(REPO / "samples" / "seed000-4x4.txt")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_detects_a_kakuro_text_file_and_prints_the_filled_grid(capsys):
    code, out, err = run(capsys, "solve", SAMPLE)
    assert code == 0 and err == ""
    assert "Kakuro 7×7: solved, the solution is unique" in out
    assert "\\13   1     7     5     10\\13 8     5" in out


def test_solve_json_mixes_kakuro_and_kenken_inputs(capsys, tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps(kakuro_to_json(seed_puzzle())))
    code, out, _ = run(capsys, "solve", "--json", "--rules", "classic", str(path), KENKEN)
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 0
    assert first["puzzle"] == "kakuro" and first["status"] == "unique"
    assert {(r, c): v for r, row in enumerate(first["solution"]) for c, v in enumerate(row) if v} == SEED_SOLUTION
    assert "puzzle" not in second and second["status"] == "unique"


def test_several_solutions_and_no_solution_exit_1(capsys, tmp_path):
    many = tmp_path / "many.txt"
    many.write_text("X 4\\ 4\\\n\\4 . .\n\\4 . .\n")
    code, out, _ = run(capsys, "solve", "--json", str(many))
    obj = json.loads(out)
    assert code == 1 and obj["status"] == "multiple" and len(obj["differ"]) == 4
    none = tmp_path / "none.txt"
    none.write_text("X 4\\ 4\\\n\\3 . .\n\\4 . .\n")
    code, out, _ = run(capsys, "solve", str(none))
    assert code == 1 and "no solution: these cannot hold together: run 3 across at r2c1" in out


def test_check_names_the_wrong_cell_only(capsys, tmp_path):
    entries = tmp_path / "entries.txt"
    entries.write_text("X X X X X X X\nX X X 8 . X X\n" + "X X X . . X X\nX X X X 6 . .\n" + "X . . . X . .\n" * 2
                       + "X X X . . X X\n")
    code, out, _ = run(capsys, "check", SAMPLE, "--entries", str(entries))
    assert code == 1
    assert "2 of 20 digit(s) written" in out and "wrong: r4c5" in out
    assert "8" not in out.split("wrong:")[1].split("\n")[0]  # no digit of an empty cell is told


def test_check_json_with_entries_in_the_puzzle_file(capsys, tmp_path):
    puzzle = seed_puzzle()
    grid = puzzle.empty_grid()
    grid[1][3], grid[1][4] = 8, 2
    path = tmp_path / "k.json"
    path.write_text(json.dumps(kakuro_to_json(puzzle.with_entries(tuple(map(tuple, grid))))))
    code, out, _ = run(capsys, "check", "--json", str(path))
    obj = json.loads(out)
    assert code == 0 and obj["completable"] and obj["wrong"] == [] and obj["filled"] == 2


def test_bad_kakuro_input_is_one_line_on_stderr(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("X 4\\ 3\\\n\\3 . .\n\\4 . ab\n")
    code, out, err = run(capsys, "solve", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 3, column 6: 'ab' is not a Kakuro cell" in err
    impossible = tmp_path / "impossible.json"
    data = kakuro_to_json(seed_puzzle())
    data["grid"][0][3] = {"down": 18}
    impossible.write_text(json.dumps(data))
    code, _, err = run(capsys, "solve", str(impossible))
    assert code == 2 and "run 18 down at r1c4: 2 different digits 1..9 add up to 3..17, not 18" in err
    code, _, err = run(capsys, "check", SAMPLE, "--entries", str(bad))
    assert code == 2 and "entries: line 3, column 6: 'ab' is not a Kakuro cell" in err
    bad.write_text("X 4\\ 3\\\n\\3 . .\n\\4 . .\n")
    code, _, err = run(capsys, "check", SAMPLE, "--entries", str(bad))
    assert code == 2 and "entries: the written grid's layout differs from the puzzle's" in err


def test_grade_explain_and_hint_take_a_kakuro(capsys, tmp_path):
    code, out, _ = run(capsys, "grade", "--json", SAMPLE)
    obj = json.loads(out)
    assert code == 0 and obj["puzzle"] == "kakuro" and (obj["level"], obj["hardest"]) == (3, "box")
    code, out, _ = run(capsys, "explain", SAMPLE)
    assert code == 0 and "[box] the cells of 10 across at r2c3 + 15 across at r3c3" in out
    assert out.rstrip().endswith("solved by logic alone; grade 3 (tricky), hardest technique: box")
    entries = tmp_path / "entries.txt"
    entries.write_text("X X X X X X X\nX X X 8 . X X\n" + "X X X 8 . X X\n" + "X X X X . . .\n" + "X . . . X . .\n" * 2
                       + "X X X . . X X\n")
    code, out, _ = run(capsys, "hint", "--level", "3", SAMPLE, "--entries", str(entries))
    assert code == 1 and "The 8 in r3c4 is wrong" in out and "17 down at r1c4 already holds 8 in r2c4" in out
    pencil = tmp_path / "pencil.txt"
    pencil.write_text("X X X X X X X\nX X X 9 . X X\n" + "X X X . . X X\n" + "X X X X . . .\n" + "X . . . X . .\n" * 2
                      + "X X X . . X X\n")
    code, out, _ = run(capsys, "hint", "--json", "--level", "2", SAMPLE, "--pencil", str(pencil))
    assert code == 0 and json.loads(out)["technique"] == "wrong_pencil"
