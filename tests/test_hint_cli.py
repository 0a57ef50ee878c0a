"""kensnap hint, explain and grade: JSON contracts, stdin, exit codes, bad input in one line."""
import json

import pytest

from conftest import REPO, SHARED
from test_cli import run

SAMPLE = str(REPO / "samples" / "seed000-4x4.txt")
HARD = str(SHARED / "puzzles" / "keen" / "5h.txt")
SEEDS = str(SHARED / "puzzles" / "seed-puzzles.json")


def test_hint_json_at_level_3_places_a_digit(capsys):
    code, out, _ = run(capsys, "hint", SAMPLE, "--level", "3", "--json")
    obj = json.loads(out)
    assert code == 0
    assert {"level", "technique", "explanation", "cell", "value"} <= set(obj)
    assert obj["level"] == 3 and obj["cell"] == [1, 3] and obj["value"] == 2  # the one-cell cage '2'


def test_hint_level_1_gives_no_cell_or_value(capsys):
    code, out, _ = run(capsys, "hint", SAMPLE, "--json")
    obj = json.loads(out)
    assert obj["level"] == 1 and "cell" not in obj and "value" not in obj
    assert obj["explanation"].startswith("Look at")


def test_hint_names_a_wrong_entry_first_and_exits_1(capsys, tmp_path):
    entries = tmp_path / "entries.txt"
    entries.write_text("4...\n....\n....\n....\n")  # r1c1 is 1
    code, out, _ = run(capsys, "hint", SAMPLE, "--entries", str(entries), "--level", "2")
    assert code == 1 and "The 4 in r1c1 is wrong" in out


def test_hint_reads_pencil_marks(capsys, tmp_path):
    pencil = tmp_path / "pencil.txt"
    pencil.write_text("234 . . .\n. . . .\n. . . .\n. . . .\n")  # r1c1 is 1: left out
    code, out, _ = run(capsys, "hint", SAMPLE, "--pencil", str(pencil), "--json", "--level", "3")
    obj = json.loads(out)
    assert obj["technique"] == "wrong_pencil" and obj["cell"] == [0, 0] and "value" not in obj


def test_hint_reads_a_puzzle_from_stdin(capsys, monkeypatch):
    text = (REPO / "samples" / "seed000-4x4.txt").read_text()
    code, out, _ = run(capsys, "hint", "-", "--level", "3", stdin=text, monkeypatch=monkeypatch)
    assert code == 0 and "one-cell cage" in out


def test_explain_json_ends_each_puzzle_with_the_answer(capsys, monkeypatch):
    text = "\n".join((SHARED / "puzzles" / "keen" / "5h.txt").read_text().split()[:2])
    code, out, _ = run(capsys, "explain", "-", "--json", stdin=text, monkeypatch=monkeypatch)
    objs = [json.loads(line) for line in out.splitlines()]
    finals = [o for o in objs if "solved_by_logic" in o]
    assert code == 0 and [o["input"] for o in finals] == ["-:1", "-:2"]
    assert all(o["solved_by_logic"] and len(o["solution"]) == 5 for o in finals)
    first = [o for o in objs if o["input"] == "-:1"]
    assert first[-1] is finals[0] and first[0]["step"] == 1 and first[0]["technique"]
    assert all({"text", "removed", "placed", "cells"} <= set(o) for o in first[:-1])


def test_explain_text_lists_numbered_steps(capsys):
    code, out, _ = run(capsys, "explain", SAMPLE)
    assert code == 0 and "   1. [one-cell cage] r2c4 is a one-cell cage: it holds 2." in out
    assert "solved by logic alone; grade 1 (easy)" in out


def test_explain_falls_back_to_the_sat_answer_when_logic_stops(capsys):
    line = (SHARED / "puzzles" / "keen" / "9u.txt").read_text().split()[1]
    code, out, _ = run(capsys, "explain", line, "--json")
    final = json.loads(out.splitlines()[-1])
    assert code == 0 and final["solved_by_logic"] is False and len(final["solution"]) == 9


def test_grade_json_has_a_level_and_a_name(capsys):
    code, out, _ = run(capsys, "grade", HARD, "--json")
    objs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(objs) == 10
    assert all(o["level"] in (1, 2, 3, 4, 5) and o["name"] for o in objs)


def test_grade_of_a_puzzle_with_several_solutions_exits_1(capsys, monkeypatch):
    code, out, _ = run(capsys, "grade", "-", stdin='{"size": 4, "cages": []}', monkeypatch=monkeypatch)
    assert code == 1 and "more than one solution" in out


@pytest.mark.parametrize("command", ["hint", "explain", "grade"])
def test_bad_input_is_one_line_on_stderr_with_exit_2(capsys, command):
    code, out, err = run(capsys, command, "missing.txt")
    assert code == 2 and err.count("\n") == 1 and "missing.txt" in err and not out


def test_hint_takes_one_puzzle(capsys):
    code, _, err = run(capsys, "hint", SEEDS)
    assert code == 2 and "hint takes one" in err


def test_hint_level_out_of_range_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        run(capsys, "hint", SAMPLE, "--level", "4")
    assert stop.value.code == 2
