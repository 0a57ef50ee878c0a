"""``kensnap eval``: score a recognizer on a folder of images whose truth is known.

A folder holds pairs ``<id>.<ext>`` + ``<id>.json`` (the layout of ``../shared/realdev`` and of
``kensnap corpus``): the JSON names its ``image`` and holds the ``truth`` (puzzle schema of
``../shared/FORMAT.md``, with ``entries`` where digits are written) and the ``solution``.

A *recognizer* is any callable ``image path → reading``; the reading is a Puzzle, or an object with a
``puzzle`` attribute and optionally ``confident`` (bool). It may raise to say it found nothing. For
each image the score says: size right, cage partition exact, clues exact, entries exact, whole board
exact (size, cages and clues), solved right (the reading has exactly one solution and it is the
truth's), seconds, and what went wrong (which clue was read as what).
"""
from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from solver import Puzzle, PuzzleError, solve
from solver.formats import puzzle_from_json
from solver.puzzle import cell_name

Recognizer = Callable[[Path], object]
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".bmp")


@dataclass(frozen=True)
class ImageScore:
    """How one reading compares with the truth (``None`` where a check does not apply)."""

    image: str
    size_ok: bool
    cages_ok: bool
    clues_ok: bool
    entries_ok: bool | None
    board_ok: bool
    solved_ok: bool
    confident: bool | None
    seconds: float
    errors: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Truth:
    """One labelled image: its path, the true puzzle (with entries, if any) and the solution."""

    image: Path
    puzzle: Puzzle
    solution: tuple[tuple[int, ...], ...] | None


def load_truths(folder: Path) -> list[Truth]:
    """Every labelled image of a folder, in name order; raises PuzzleError for a bad truth file."""
    truths = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if data.get("puzzle", "kenken") != "kenken" or "truth" not in data:
            continue
        image = folder / data.get("image", "")
        if not image.is_file():
            raise PuzzleError(f"{path.name}: its image {data.get('image')!r} is missing")
        solution = data.get("solution")
        truths.append(Truth(image, puzzle_from_json(data["truth"]), tuple(map(tuple, solution)) if solution else None))
    return truths


def score(truth: Truth, reading: object, seconds: float) -> ImageScore:
    """Compare a reading (Puzzle, object with ``.puzzle``, or None for nothing found) with the truth.
    Cages the reading lists in ``unread_cages`` (partition found, clue not read) count for the
    partition and against the clues."""
    puzzle = reading if isinstance(reading, Puzzle) or reading is None else getattr(reading, "puzzle", None)
    confident = None if reading is None or isinstance(reading, Puzzle) else getattr(reading, "confident", None)
    name = truth.image.name
    if puzzle is None:
        has_entries = _has_entries(truth.puzzle)
        return ImageScore(name, False, False, False, False if has_entries else None, False, False, confident,
                          round(seconds, 3), ("nothing read",))
    errors: list[str] = []
    size_ok = puzzle.size == truth.puzzle.size
    if not size_ok:
        errors.append(f"size {truth.puzzle.size} read as {puzzle.size}")
    true_cages = {frozenset(c.cells): c for c in truth.puzzle.cages}
    read_cages = {frozenset(c.cells): c for c in puzzle.cages}
    unread = {frozenset(cells) for cells in getattr(reading, "unread_cages", ())}
    cages_ok = size_ok and set(true_cages) == set(read_cages) | unread
    if unread:
        errors.append(f"{len(unread)} clue(s) not read")
    if size_ok and not cages_ok:
        missing = len(set(true_cages) - set(read_cages))
        errors.append(f"cage partition: {missing} of {len(true_cages)} cages not read exactly")
    clue_errors = [f"clue {_clue(true)} read as {_clue(read_cages[cells])}"
                   for cells, true in true_cages.items()
                   if cells in read_cages and _clue(read_cages[cells]) != _clue(true)]
    errors += clue_errors
    clues_ok = cages_ok and not clue_errors and puzzle.operators_shown == truth.puzzle.operators_shown
    entries_ok = _entries_ok(truth.puzzle, puzzle, errors) if size_ok else (False if _has_entries(truth.puzzle) else None)
    solved_ok = False
    if truth.solution is not None:
        try:
            result = solve(puzzle.with_entries(None))
            solved_ok = result.status == "unique" and result.solution == truth.solution
        except PuzzleError as err:
            errors.append(f"solver: {err}")
    board_ok = size_ok and cages_ok and clues_ok
    return ImageScore(name, size_ok, cages_ok, clues_ok, entries_ok, board_ok, solved_ok, confident,
                      round(seconds, 3), tuple(errors))


def _clue(cage) -> str:
    return f"{cage.target}{cage.op}"


def _has_entries(puzzle: Puzzle) -> bool:
    return puzzle.entries is not None and any(v is not None for row in puzzle.entries for v in row)


def _entries_ok(truth: Puzzle, read: Puzzle, errors: list[str]) -> bool | None:
    """Entries compared cell by cell; None when neither side has any."""
    if not _has_entries(truth) and not _has_entries(read):
        return None
    n = truth.size
    want = truth.entries or ((None,) * n,) * n
    got = read.entries or ((None,) * n,) * n
    wrong = [(r, c) for r in range(n) for c in range(n) if want[r][c] != got[r][c]]
    for r, c in wrong[:6]:
        errors.append(f"entry {cell_name((r, c))}: {want[r][c] or 'empty'} read as {got[r][c] or 'empty'}")
    return not wrong


def evaluate(folder: Path, recognize: Recognizer) -> list[ImageScore]:
    """Run the recognizer on every labelled image of the folder and score each reading."""
    scores = []
    for truth in load_truths(folder):
        start = time.perf_counter()
        try:
            reading = recognize(truth.image)
        except Exception as err:  # a recognizer failure is a score, not a crash of the harness
            reading = None
            failure = f"recognizer: {type(err).__name__}: {err}"
        else:
            failure = None
        result = score(truth, reading, time.perf_counter() - start)
        if failure:
            result = ImageScore(**{**asdict(result), "errors": (failure,) + result.errors})
        scores.append(result)
    return scores


def summary(scores: list[ImageScore]) -> dict:
    """Totals: the share of images right on each check, timing, confident-but-wrong count, error kinds."""
    count = len(scores)
    share = lambda key: round(sum(bool(getattr(s, key)) for s in scores) / count, 4) if count else 0.0
    with_entries = [s for s in scores if s.entries_ok is not None]
    seconds = sorted(s.seconds for s in scores)
    kinds = Counter(err.split(":")[0] if err.startswith(("cage", "recognizer", "solver")) else err
                    for s in scores for err in s.errors)
    return {
        "images": count,
        "size_ok": share("size_ok"), "cages_ok": share("cages_ok"), "clues_ok": share("clues_ok"),
        "entries_ok": round(sum(bool(s.entries_ok) for s in with_entries) / len(with_entries), 4) if with_entries else None,
        "board_ok": share("board_ok"), "solved_ok": share("solved_ok"),
        "confident_wrong": sum(1 for s in scores if s.confident and not s.solved_ok),
        "median_s": round(statistics.median(seconds), 3) if seconds else None,
        "p95_s": round(seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))], 3) if seconds else None,
        "errors": dict(kinds.most_common(12)),
    }


def default_recognizer() -> tuple[Recognizer, str]:
    """``vision.read`` when the vision package provides it, else a recognizer that reads nothing."""
    try:
        from vision import read  # type: ignore[attr-defined]
    except ImportError:
        def nothing(path: Path) -> None:
            return None
        return nothing, "empty (vision is not built yet: every image scores as nothing read)"
    return read, "vision.read"
