"""``kensnap eval``: score a recognizer on a folder of images whose truth is known.

A folder holds pairs ``<id>.<ext>`` + ``<id>.json`` (the layout of ``../shared/realdev`` and of
``kensnap corpus``): the JSON names its ``image`` and holds the ``truth`` (puzzle schema of
``../shared/FORMAT.md``, with ``entries`` where digits are written) and the ``solution``. A folder may
mix KenKen and Kakuro (``"puzzle": "kakuro"``, ``kensnap corpus --kakuro``) items.

A *recognizer* is any callable ``image path → reading``; the reading is a Puzzle, or an object with a
``puzzle`` attribute and optionally ``confident`` (bool). It may raise to say it found nothing. For
each image the score says: size right, cage partition exact, clues exact, entries exact, whole board
exact (size, cages and clues), solved right (the reading has exactly one solution and it is the
truth's), seconds, and what went wrong (which clue was read as what). For a Kakuro the same checks
mean: size (rows × columns), ``cages_ok`` the layout (which cells are white), clues (every clue
number), entries, whole board (size, layout and clues); a reading of the other kind of puzzle scores
nothing right.

The default recognizer tells the puzzle kind the way ``kensnap read`` does: a Kakuro when the Kakuro
grid finder finds one, else a KenKen.
"""
from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from solver import Puzzle, PuzzleError, solve
from solver.formats import puzzle_from_json
from solver.engine import Undecided
from solver.kakuro import KakuroPuzzle
from solver.kakuro.engine import solve_kakuro
from solver.kakuro.formats import kakuro_from_json
from solver.kakuro.model import Clue
from solver.puzzle import cell_name

from .corpus import corners_cell_px, spec_clue_digit_px

SCORE_CONFLICTS = 100_000
"""The SAT solver's budget per question when a KenKen as read is solved to see whether it gives the
true solution: five times what the reader itself spends on the puzzle as read
(:data:`vision.reconcile.AS_READ_CONFLICTS`), so a reading it calls unique is settled here too; one
that spends the budget is not solved right. A misread 8×8 (a hand-held photo with a glare across
the grid, fifty-sixth round) made `eval` seem never to finish: it has no solution (361 conflicts),
and narrowing down its conflict had no budget then (it has, :data:`solver.engine.SHRINK_CONFLICTS`:
now 1.1 s)."""

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
    puzzle: str = "kenken"
    """The truth's kind: ``'kenken'`` or ``'kakuro'`` (for a Kakuro ``cages_ok`` is the layout)."""
    style: str | None = None
    level: str | None = None
    """The photo's printed style and level (clean, handheld, hard) when the truth file names them."""
    cell_px: float | None = None
    """Photo pixels per cell (the grid's mean side over its cells) when the truth gives the corners."""
    clue_px: float | None = None
    """How tall the clue labels' digits are in the photo, in pixels, for a generated photo
    (:func:`ui.corpus.clue_digit_px`)."""


@dataclass(frozen=True)
class Truth:
    """One labelled image: its path, the true puzzle (with entries, if any) and the solution."""

    image: Path
    puzzle: Puzzle | KakuroPuzzle
    solution: tuple[tuple[int, ...], ...] | None
    style: str | None = None
    level: str | None = None
    cell_px: float | None = None
    """See :class:`ImageScore`."""
    clue_px: float | None = None
    """See :class:`ImageScore`."""


PARSERS = {"kenken": puzzle_from_json, "kakuro": kakuro_from_json}
"""The truth parser of each puzzle kind a truth file may name in ``"puzzle"``."""


def load_truths(folder: Path) -> list[Truth]:
    """Every labelled image of a folder, in name order; raises PuzzleError for a bad truth file."""
    truths = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        kind = data.get("puzzle", "kenken")
        if kind not in PARSERS or "truth" not in data:
            continue
        image = folder / data.get("image", "")
        if not image.is_file():
            raise PuzzleError(f"{path.name}: its image {data.get('image')!r} is missing")
        solution = data.get("solution")
        puzzle = PARSERS[kind](data["truth"])
        spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
        cell_px = _cell_px(data.get("corners"), puzzle)
        clue_px = data.get("clue_px")
        if clue_px is None and kind == "kenken" and spec and cell_px:  # a corpus made before it was kept
            clue_px = spec_clue_digit_px(spec, cell_px)
        truths.append(Truth(image, puzzle, tuple(map(tuple, solution)) if solution else None,
                            spec.get("style"), spec.get("level"), cell_px, clue_px))
    return truths


def _cell_px(corners, puzzle: Puzzle | KakuroPuzzle) -> float | None:
    """Pixels per cell of a grid with outer ``corners`` (TL, TR, BR, BL), or None without them."""
    rows, cols = (puzzle.rows, puzzle.cols) if isinstance(puzzle, KakuroPuzzle) else (puzzle.size, puzzle.size)
    try:
        return round(corners_cell_px(corners, rows, cols), 1)
    except (TypeError, ValueError):
        return None


def score(truth: Truth, reading: object, seconds: float) -> ImageScore:
    """Compare a reading (Puzzle, object with ``.puzzle``, or None for nothing found) with the truth.
    Cages the reading lists in ``unread_cages`` (partition found, clue not read) count for the
    partition and against the clues."""
    if isinstance(truth.puzzle, KakuroPuzzle):
        return score_kakuro(truth, reading, seconds)
    puzzle = reading if isinstance(reading, Puzzle) or reading is None else getattr(reading, "puzzle", None)
    confident = None if reading is None or isinstance(reading, Puzzle) else getattr(reading, "confident", None)
    name = truth.image.name
    if not isinstance(puzzle, Puzzle):
        has_entries = _has_entries(truth.puzzle)
        return ImageScore(name, False, False, False, False if has_entries else None, False, False, confident,
                          round(seconds, 3), ("nothing read" if puzzle is None else "read as a Kakuro",))
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
            result = solve(puzzle.with_entries(None), conflicts=SCORE_CONFLICTS)
            solved_ok = result.status == "unique" and result.solution == truth.solution
        except PuzzleError as err:
            errors.append(f"solver: {err}")
        except Undecided:
            errors.append(f"solver: the puzzle as read was not settled within {SCORE_CONFLICTS:,} conflicts a question")
    board_ok = size_ok and cages_ok and clues_ok
    return ImageScore(name, size_ok, cages_ok, clues_ok, entries_ok, board_ok, solved_ok, confident,
                      round(seconds, 3), tuple(errors))


def score_kakuro(truth: Truth, reading: object, seconds: float) -> ImageScore:
    """:func:`score` for a Kakuro truth: size, layout (``cages_ok``), clue numbers, entries, board,
    solved right; errors name every cell read wrong (``'layout: r3c4 white read as dark'``,
    ``'clue 17 read as 11 (r2c3 across)'``)."""
    puzzle = reading if isinstance(reading, KakuroPuzzle) or reading is None else getattr(reading, "puzzle", None)
    confident = None if reading is None or isinstance(reading, KakuroPuzzle) else getattr(reading, "confident", None)
    want = truth.puzzle
    name = truth.image.name
    has_entries = _has_entries(want)
    if not isinstance(puzzle, KakuroPuzzle):
        return ImageScore(name, False, False, False, False if has_entries else None, False, False, confident,
                          round(seconds, 3), ("nothing read" if puzzle is None else "read as a KenKen",), "kakuro")
    errors: list[str] = []
    size_ok = (puzzle.rows, puzzle.cols) == (want.rows, want.cols)
    layout_ok = clues_ok = False
    entries_ok = False if has_entries else None
    if not size_ok:
        errors.append(f"size {want.rows}×{want.cols} read as {puzzle.rows}×{puzzle.cols}")
    else:
        true_white, read_white = set(want.whites), set(puzzle.whites)
        layout_ok = true_white == read_white
        for cell in sorted(true_white ^ read_white)[:6]:
            errors.append(f"layout: {cell_name(cell)} {'white' if cell in true_white else 'dark'} read as "
                          f"{'white' if cell in read_white else 'dark'}")
        clue_errors = [f"clue {_total(want, cell, d)} read as {_total(puzzle, cell, d)} ({cell_name(cell)} {d})"
                       for cell in want.cells for d in ("across", "down")
                       if _total(want, cell, d) != _total(puzzle, cell, d)]
        clues_ok = layout_ok and not clue_errors
        errors += clue_errors[:8]
        entries_ok = _kakuro_entries_ok(want, puzzle, errors)
    solved_ok = False
    if truth.solution is not None:
        try:
            result = solve_kakuro(puzzle.with_entries(None))
            solved_ok = result.status == "unique" and result.solution == truth.solution
        except PuzzleError as err:
            errors.append(f"solver: {err}")
    board_ok = size_ok and layout_ok and clues_ok
    return ImageScore(name, size_ok, layout_ok, clues_ok, entries_ok, board_ok, solved_ok, confident,
                      round(seconds, 3), tuple(errors), "kakuro")


def _total(puzzle: KakuroPuzzle, cell, direction: str) -> int | None:
    """The clue number of ``cell`` in ``direction`` (None where there is none)."""
    square = puzzle.grid[cell[0]][cell[1]]
    return square.total(direction) if isinstance(square, Clue) else None


def _kakuro_entries_ok(truth: KakuroPuzzle, read: KakuroPuzzle, errors: list[str]) -> bool | None:
    """Kakuro entries compared cell by cell (same size); None when neither side has any."""
    if not _has_entries(truth) and not _has_entries(read):
        return None
    empty = ((None,) * truth.cols,) * truth.rows
    want, got = truth.entries or empty, read.entries or empty
    wrong = [cell for cell in truth.cells if want[cell[0]][cell[1]] != got[cell[0]][cell[1]]]
    for r, c in wrong[:6]:
        errors.append(f"entry {cell_name((r, c))}: {want[r][c] or 'empty'} read as {got[r][c] or 'empty'}")
    return not wrong


def _clue(cage) -> str:
    return f"{cage.target}{cage.op}"


def _has_entries(puzzle: Puzzle | KakuroPuzzle) -> bool:
    return puzzle.entries is not None and any(v is not None for row in puzzle.entries for v in row)


def _entries_ok(truth: Puzzle, read: Puzzle, errors: list[str]) -> bool | None:
    """Entries compared cell by cell; None when neither side has any. A digit read in a one-cell
    cage that equals the cage's clue, where the truth lists no entry, is not counted: apps print
    that digit big as a given (``../shared/realdev``'s Calcudoku screenshots, the renderer's looks
    with big givens), and the truth does not say whether the page showed it."""
    n = truth.size
    got = read.entries or ((None,) * n,) * n
    want = truth.entries or ((None,) * n,) * n
    givens = {cage.cells[0]: cage.target for cage in truth.cages if len(cage.cells) == 1}
    got = tuple(tuple(None if want[r][c] is None and givens.get((r, c)) == v else v for c, v in enumerate(row))
                for r, row in enumerate(got))
    if not _has_entries(truth) and not any(v is not None for row in got for v in row):
        return None
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
        result = replace(result, style=truth.style, level=truth.level, cell_px=truth.cell_px, clue_px=truth.clue_px,
                         errors=((failure,) if failure else ()) + result.errors)
        scores.append(result)
    return scores


def summary(scores: list[ImageScore]) -> dict:
    """Totals: the share of images right on each check, timing, confident-but-wrong count, error kinds."""
    count = len(scores)
    share = lambda key: round(sum(bool(getattr(s, key)) for s in scores) / count, 4) if count else 0.0
    with_entries = [s for s in scores if s.entries_ok is not None]
    seconds = sorted(s.seconds for s in scores)
    kinds = Counter(_kind(err) for s in scores for err in s.errors)
    return {
        "images": count,
        "size_ok": share("size_ok"), "cages_ok": share("cages_ok"), "clues_ok": share("clues_ok"),
        "entries_ok": round(sum(bool(s.entries_ok) for s in with_entries) / len(with_entries), 4) if with_entries else None,
        "board_ok": share("board_ok"), "solved_ok": share("solved_ok"),
        "confident_wrong": sum(1 for s in scores if s.confident and not s.solved_ok),
        "median_s": round(statistics.median(seconds), 3) if seconds else None,
        "p95_s": round(seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))], 3) if seconds else None,
        "errors": dict(kinds.most_common(12)),
        "puzzles": dict(Counter(s.puzzle for s in scores)),
        "by_level": _board_by(scores, lambda s: s.level),
        "by_style_level": _board_by(scores, lambda s: s.style and s.level and f"{s.style} {s.level}"),
        "by_cell_px": _board_by(scores, _resolution, order=lambda name: (not name.startswith("under"), name)),
        "by_level_clue_px": _board_by(scores, _legibility, order=_legibility_order),
    }


RESOLUTION_STEPS = (30, 40, 50)
"""Bounds (photo pixels per cell) of the resolution groups of :func:`summary`."""


def _resolution(score: ImageScore) -> str | None:
    """The resolution group of an image: 'under 30 px', '30-40 px', …, '50 px and over'."""
    return None if score.cell_px is None else _band(score.cell_px, RESOLUTION_STEPS)


def _band(value: float, steps: tuple[int, ...]) -> str:
    """The group of ``value`` between the bounds ``steps``: 'under 30 px', '30-40 px', '50 px and over'."""
    bounds = [b for b in steps if b <= value]
    if not bounds:
        return f"under {steps[0]} px"
    if bounds[-1] == steps[-1]:
        return f"{bounds[-1]} px and over"
    return f"{bounds[-1]}-{steps[len(bounds)]} px"


CLUE_PX_STEPS = (5, 7, 9)
"""Bounds (photo pixels of a clue digit's height) of the legibility groups of :func:`summary`."""


def _legibility(score: ImageScore) -> str | None:
    """The level and clue-height group of a generated photo: 'hard, clue digits 5-7 px', …"""
    if score.clue_px is None or score.level is None:
        return None
    return f"{score.level}, clue digits {_band(score.clue_px, CLUE_PX_STEPS)}"


def _legibility_order(name: str) -> tuple:
    """Levels clean, hand-held, hard, then the clue heights from the smallest."""
    level, _, span = name.partition(", clue digits ")
    low = 0.0 if span.startswith("under") else float(span.split()[0].split("-")[0])
    return {"clean": 0, "handheld": 1, "hard": 2}.get(level, 3), level, low


def _board_by(scores: list[ImageScore], group: Callable[[ImageScore], str | None],
              order: Callable[[str], object] | None = None) -> dict:
    """``{group: {"images": n, "board_ok": k}}`` over the images ``group`` names (whole boards
    exact, as counts so groups add up), in ``order`` of the names (a sort key; alphabetical)."""
    out: dict[str, dict[str, int]] = {}
    for s in scores:
        if (name := group(s)) is not None:
            slot = out.setdefault(name, {"images": 0, "board_ok": 0})
            slot["images"] += 1
            slot["board_ok"] += bool(s.board_ok)
    return {name: out[name] for name in sorted(out, key=order)}


def _kind(error: str) -> str:
    """An error's kind for the summary: its head for cage, layout, entry, recognizer and solver
    errors, a clue confusion without the cell it happened in (``'clue 17 read as 11'``)."""
    if error.startswith(("cage", "recognizer", "solver", "layout", "entry")):
        return error.split(":")[0].split(" r")[0]
    return error.split(" (")[0] if error.startswith("clue") else error


def default_recognizer() -> tuple[Recognizer, str]:
    """What ``kensnap read`` does (:func:`vision.read_any.read_any`: a Kakuro when it finds a Kakuro
    grid, else a KenKen); a recognizer that reads nothing when vision is not built."""
    try:
        from vision.read_any import read_any
    except ImportError:
        def nothing(path: Path) -> None:
            return None
        return nothing, "empty (vision is not built yet: every image scores as nothing read)"

    return read_any, "vision.read_any (vision.kakuro.read_kakuro, else vision.read)"
