"""Check a half-filled grid without spoiling the rest.

Given a puzzle and the digits someone has written (*entries*): which entries are wrong (no solution
of the puzzle has that digit in that cell), whether the grid can still be completed (a solution under
the assumption of every entry), and if not, a minimal set of entries and cages in conflict. Nothing
about the cells that are still empty is reported.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .engine import Conflict, Engine, elapsed_ms
from .puzzle import Cell, Grid, Puzzle, PuzzleError, cell_name


@dataclass(frozen=True)
class CheckResult:
    """The verdict on a set of entries.

    ``status`` is the puzzle's own (``unique``, ``multiple`` or ``none``; with ``none`` no entry can
    be judged and ``conflict`` names the cages that cannot hold). ``wrong``: entries that no solution
    has. ``completable``: some solution keeps every entry. ``conflict``: when not completable, a
    minimal set of entries and cages that cannot hold together. ``clashes``: rows or columns where
    an entry repeats, in words.
    """

    status: str
    wrong: tuple[Cell, ...]
    completable: bool
    conflict: Conflict | None
    clashes: tuple[str, ...]
    filled: int
    time_ms: float


def check(puzzle: Puzzle, entries: Grid | None = None) -> CheckResult:
    """Judge ``entries`` (default: the puzzle's own). Raises PuzzleError when there are none or a
    clue is impossible."""
    start = time.perf_counter()
    entries = entries if entries is not None else puzzle.entries
    if entries is None:
        raise PuzzleError("there are no entries to check: give a grid of written digits")
    puzzle = puzzle.with_entries(entries)
    cells = [(r, c) for r in range(puzzle.size) for c in range(puzzle.size) if entries[r][c] is not None]
    clashes = tuple(_clashes(entries))
    with Engine(puzzle) as engine:
        return judge(engine, entries, cells, lambda r, c: engine.encoding.entry_literal(r, c, entries[r][c]),
                     clashes, start)


def judge(engine, entries: Grid, cells: list[Cell], literal: Callable[[int, int], int],
          clashes: tuple[str, ...], start: float) -> CheckResult:
    """The verdict on the ``entries`` in ``cells``, asked of an open ``engine`` (KenKen's or
    Kakuro's: ``find``, ``find_other`` and ``conflict``); ``literal(r, c)`` is the engine's literal
    of the entry at ``(r, c)``, ``start`` the ``time.perf_counter()`` the check began at. An entry is
    wrong when no solution has it: with one solution, when it differs from it; with several, when no
    solution has it even alone."""
    lit = {cell: literal(*cell) for cell in cells}
    found = engine.find(list(lit.values()))
    if found is not None:  # a solution keeps every entry; is it the only solution?
        status = "unique" if engine.find_other(found) is None else "multiple"
        return CheckResult(status, (), True, None, clashes, len(cells), elapsed_ms(start))
    solution = engine.find([])
    if solution is None:
        return CheckResult("none", (), False, engine.conflict([]), clashes, len(cells), elapsed_ms(start))
    unique = engine.find_other(solution) is None
    wrong = tuple(cell for cell in cells if entries[cell[0]][cell[1]] != solution[cell[0]][cell[1]]
                  and (unique or engine.find([lit[cell]]) is None))
    return CheckResult("unique" if unique else "multiple", wrong, False, engine.conflict(cells), clashes,
                       len(cells), elapsed_ms(start))


def _clashes(entries: Grid) -> list[str]:
    """'row 2 holds 4 twice (r2c1, r2c3)' for every repeated digit in a row or column."""
    n = len(entries)
    notes = []
    for kind, lines in (("row", [[(r, c) for c in range(n)] for r in range(n)]),
                        ("column", [[(r, c) for r in range(n)] for c in range(n)])):
        for index, line in enumerate(lines):
            seen: dict[int, list[Cell]] = {}
            for r, c in line:
                if entries[r][c] is not None:
                    seen.setdefault(entries[r][c], []).append((r, c))
            for digit, where in seen.items():
                if len(where) > 1:
                    names = ", ".join(cell_name(cell) for cell in where)
                    notes.append(f"{kind} {index + 1} holds {digit} {len(where)} times ({names})")
    return notes
