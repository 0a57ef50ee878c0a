"""The evaluation harness proves itself: a truth-passing fake scores 100%, corrupted ones less."""
import json
from dataclasses import dataclass
from pathlib import Path

from conftest import SHARED
from solver import Cage, Puzzle
from solver.formats import puzzle_from_json
from ui.evaluate import evaluate, load_truths, summary
from ui.cli import main

REALDEV = SHARED / "realdev"


def truth_of(path: Path) -> Puzzle:
    return puzzle_from_json(json.loads(path.with_suffix(".json").read_text()))


@dataclass(frozen=True)
class Reading:
    puzzle: Puzzle
    confident: bool


def test_realdev_truths_load_with_their_images():
    truths = load_truths(REALDEV)
    assert len(truths) == 16 and all(t.image.is_file() and t.solution for t in truths)


def test_a_truth_passing_fake_scores_100_percent():
    scores = evaluate(REALDEV, lambda image: Reading(truth_of(image), True))
    totals = summary(scores)
    assert totals["board_ok"] == totals["solved_ok"] == totals["cages_ok"] == 1.0
    assert totals["entries_ok"] == 1.0  # the solved screenshot's entries
    assert totals["confident_wrong"] == 0 and totals["errors"] == {}


def corrupt_clue(puzzle: Puzzle) -> Puzzle:
    """The first multi-cell cage's target plus one."""
    cages = list(puzzle.cages)
    i = next(i for i, c in enumerate(cages) if len(c.cells) > 1)
    cages[i] = Cage(cages[i].cells, cages[i].op, cages[i].target + 1)
    return Puzzle(puzzle.size, tuple(cages), puzzle.operators_shown, puzzle.entries)


def merge_two_cages(puzzle: Puzzle) -> Puzzle:
    """The first two cages as one sum cage (a missed wall)."""
    a, b = puzzle.cages[0], puzzle.cages[1]
    merged = Cage(a.cells + b.cells, "+", a.target + b.target)
    return Puzzle(puzzle.size, (merged,) + puzzle.cages[2:], puzzle.operators_shown, puzzle.entries)


def test_corrupted_readings_score_less_and_say_what_went_wrong():
    scores = evaluate(REALDEV, lambda image: Reading(corrupt_clue(truth_of(image)), True))
    totals = summary(scores)
    assert totals["board_ok"] == 0.0 and totals["cages_ok"] == 1.0
    assert totals["confident_wrong"] >= 1
    assert any("read as" in e for s in scores for e in s.errors)
    half = evaluate(REALDEV, lambda image: merge_two_cages(truth_of(image)) if "Blog" in image.name else truth_of(image))
    totals = summary(half)
    assert 0 < totals["board_ok"] < 1 and totals["cages_ok"] == totals["board_ok"]


def test_a_failing_recognizer_is_scored_not_crashed():
    def broken(image):
        raise RuntimeError("boom")
    totals = summary(evaluate(REALDEV, broken))
    assert totals["board_ok"] == 0.0 and "recognizer" in totals["errors"]


def test_eval_command_runs_on_realdev(capsys):
    code = main(["eval", str(REALDEV), "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(lines) == 17 and "summary" in lines[-1]
    assert main(["eval", "/nonexistent"]) == 2
