"""Check the digits written into a Kakuro without spoiling the rest.

The same questions and answer as for KenKen (:class:`solver.check.CheckResult`): which entries are
wrong (no solution has that digit there), whether the grid can still be completed, and if not a
minimal set of entries and runs in conflict. ``clashes`` name runs where a digit repeats, and full
runs whose digits do not add up to their clue. Nothing about the empty cells is reported.
"""
from __future__ import annotations

import time

from ..check import CheckResult, judge
from ..puzzle import Grid, PuzzleError, cell_name
from .engine import KakuroEngine
from .model import KakuroPuzzle


def check_kakuro(puzzle: KakuroPuzzle, entries: Grid | None = None) -> CheckResult:
    """Judge ``entries`` (default: the puzzle's own). Raises PuzzleError when there are none, when
    they do not fit the layout, or when a clue is impossible."""
    start = time.perf_counter()
    entries = entries if entries is not None else puzzle.entries
    if entries is None:
        raise PuzzleError("there are no entries to check: give a grid of written digits")
    puzzle = puzzle.with_entries(entries)
    entries = puzzle.entries
    cells = [(r, c) for r, c in puzzle.whites if entries[r][c] is not None]
    clashes = tuple(clashes_in(puzzle, entries))
    with KakuroEngine(puzzle) as engine:
        return judge(engine, entries, cells, lambda r, c: engine.encoding.literal((r, c), entries[r][c]), clashes,
                     start)


def clashes_in(puzzle: KakuroPuzzle, entries: Grid) -> list[str]:
    """'run 10 across at r2c3 holds 4 twice (r2c4, r2c6)' for every repeated digit in a run, and
    'run 10 across at r2c3 is full but adds up to 12' for a full run with the wrong sum."""
    notes = []
    for run in puzzle.runs:
        seen: dict[int, list] = {}
        for r, c in run.cells:
            if entries[r][c] is not None:
                seen.setdefault(entries[r][c], []).append((r, c))
        for digit, where in seen.items():
            if len(where) > 1:
                notes.append(f"run {run.name} holds {digit} {len(where)} times ({', '.join(map(cell_name, where))})")
        values = [entries[r][c] for r, c in run.cells]
        if None not in values and sum(values) != run.total:
            notes.append(f"run {run.name} is full but adds up to {sum(values)}")
    return notes
