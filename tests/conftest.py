"""Shared fixtures: the seed puzzles and Keen puzzles from ../shared, and small puzzle builders."""
from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

import ui.photo
import vision.helper
from solver import Cage, Puzzle
from solver.formats import parse_keen, puzzle_from_json

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def seed_puzzles() -> dict[str, tuple[Puzzle, tuple]]:
    """name → (puzzle, known solution) from ../shared/puzzles/seed-puzzles.json."""
    data = json.loads((SHARED / "puzzles" / "seed-puzzles.json").read_text())
    return {name: (puzzle_from_json(item["puzzle"]), tuple(map(tuple, item["solution"]))) for name, item in data.items()}


def keen_ids() -> list[str]:
    """Every Keen game ID of ../shared/puzzles/keen, in file order."""
    ids = []
    for path in sorted((SHARED / "puzzles" / "keen").glob("*.txt")):
        ids += [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return ids


def random_latin(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A Latin square: a cyclic one with rows, columns and symbols permuted."""
    rows, cols, syms = (rng.sample(range(n), n) for _ in range(3))
    return tuple(tuple(syms[(rows[r] + cols[c]) % n] + 1 for c in range(n)) for r in range(n))


def random_cages(square, rng: random.Random, max_cells: int = 4, skip=frozenset()) -> list[Cage]:
    """A random connected partition of the cells not in ``skip``, clued from ``square``."""
    n = len(square)
    free = {(r, c) for r in range(n) for c in range(n)} - set(skip)
    cages = []
    while free:
        cell = min(free)
        cells = [cell]
        free.discard(cell)
        size = rng.choice([1, 2, 2, 3, 3, 4][: max(1, max_cells + 2)])
        while len(cells) < size:
            options = [(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                       if (r + dr, c + dc) in free]
            if not options:
                break
            nxt = rng.choice(sorted(options))
            cells.append(nxt)
            free.discard(nxt)
        cages.append(clue_for(cells, square, rng))
    return cages


def clue_for(cells, square, rng: random.Random) -> Cage:
    """A cage over ``cells`` with an operator chosen at random among those that fit the square."""
    values = [square[r][c] for r, c in cells]
    if len(values) == 1:
        return Cage(tuple(cells), "=", values[0])
    options = [("+", sum(values))]
    product = 1
    for v in values:
        product *= v
    options.append(("*", product))
    if len(values) == 2:
        a, b = sorted(values)
        options.append(("-", b - a))
        if b % a == 0:
            options.append(("/", b // a))
    op, target = rng.choice(options)
    return Cage(tuple(cells), op, target)


@pytest.fixture(scope="session")
def seeds():
    return seed_puzzles()


__all__ = ["SHARED", "REPO", "seed_puzzles", "keen_ids", "random_latin", "random_cages", "clue_for", "parse_keen"]


@pytest.fixture(scope="session", autouse=True)
def no_kept_photo_of_a_person(tmp_path_factory):
    """The app keeps a photo given while its models are fitted, and reads it on the next page
    opened (ui.app_models). The tests' apps (in this process and started as commands) keep theirs
    in a folder of their own: a photo a person left in the cache would otherwise be read (and
    dropped) by the first app a test starts, whose first page then is not the one it expects."""
    folder = tmp_path_factory.mktemp("app-kept-photo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KENSNAP_APP_KEPT", str(folder))
        yield folder


@pytest.fixture(scope="session", autouse=True)
def photos_drawn_as_when_the_tests_were_written():
    """Photos the tests draw again from their seeds (corpus photos named by seed and number, the
    photos behind each regression test) are shaken as they were when those tests were written:
    with the simulator's coarse shake from before the sixty-fourth round (``PhotoLevel.coarse_shake``,
    which the networks' training photos keep too). The corpus and the samples shake as each level
    says; tests/test_photo.py tests that shake itself, and the committed samples, read by several
    tests, are drawn with it."""
    with pytest.MonkeyPatch.context() as patch:
        _shake_every_level(patch, coarse=True)
        yield


@pytest.fixture
def photos_shaken_as_their_levels_say(monkeypatch):
    """For one test: photos drawn again from their seeds are shaken as the corpus has made them
    since the sixty-fourth round (the mended shake, ``ui.photo.shake_kernel``), for regression tests
    of photos that read wrong only so."""
    _shake_every_level(monkeypatch, coarse=False)


def _shake_every_level(patch: pytest.MonkeyPatch, coarse: bool) -> None:
    """Every photo level of ``ui.photo.LEVELS`` set, through ``patch``, to shake with the coarse
    kernel from before the sixty-fourth round or not (``PhotoLevel.coarse_shake``)."""
    for name, level in list(ui.photo.LEVELS.items()):
        patch.setitem(ui.photo.LEVELS, name, dataclasses.replace(level, coarse_shake=coarse))


@pytest.fixture(autouse=True)
def no_helper_left_running():
    """A helper process started by a test (``kensnap eval`` run in-process starts one) is stopped
    after it, so no test reads with a helper it did not ask for (vision.helper)."""
    yield
    vision.helper.stop()
