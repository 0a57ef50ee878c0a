"""Techniques of the Latin square alone (rows and columns, no cages): singles, subsets, fish.

Each ``find_*`` takes a :class:`~solver.logic.board.Board` and yields the :class:`Step` s it can make,
in scan order (the first is the one the solver takes). They never change the board. The
``find_*_contradiction`` functions return one contradiction step or None.
"""
from __future__ import annotations

from typing import Iterator

from itertools import combinations

from ..puzzle import cell_name
from .board import Board, digits_of
from .steps import Step, cell_list, digit_list, lines_phrase

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
NUMBER_WORDS = {2: "two", 3: "three"}


def find_naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate whose row or column still offers that digit elsewhere."""
    geo, masks = board.geo, board.masks
    for i, m in enumerate(masks):
        if m and m & (m - 1) == 0:
            removed = [(j, m.bit_length() - 1) for j in geo.peers[i] if masks[j] & m]
            if removed:
                d = m.bit_length() - 1
                r, c = geo.cell(i)
                yield board.step("naked_single",
                                 f"{cell_name((r, c))} holds {d}, so no other cell of row {r + 1} or column {c + 1} "
                                 f"can be {d}", [i], [], cell_name((r, c)), removed, say_removed=False)


def find_hidden_single(board: Board) -> Iterator[Step]:
    """A digit that fits in only one cell of a line, where that cell still has other candidates."""
    geo, masks = board.geo, board.masks
    for line, cells in enumerate(geo.lines):
        once = more = 0
        for i in cells:
            more |= once & masks[i]
            once |= masks[i]
        only = once & ~more
        for d in digits_of(only):
            i = next(j for j in cells if masks[j] >> d & 1)
            if masks[i] != 1 << d:
                name = geo.line_name(line)
                removed = [(i, e) for e in digits_of(masks[i]) if e != d]
                where = cell_name(geo.cell(i))
                yield board.step("hidden_single", f"In {name}, {d} fits only in {where}, so {where} is {d}",
                                 cells, [], name, removed, say_removed=False, say_placed=False)


def _open_cells(board: Board, cells) -> list[int]:
    """The cells of a line with more than one candidate."""
    return [i for i in cells if board.masks[i] & (board.masks[i] - 1)]


def find_naked_subset(board: Board, size: int) -> Iterator[Step]:
    """``size`` cells of a line whose candidates together are ``size`` digits: those digits leave
    the line's other cells."""
    geo, masks = board.geo, board.masks
    for line, cells in enumerate(geo.lines):
        open_cells = [i for i in _open_cells(board, cells) if masks[i].bit_count() <= size]
        others_all = _open_cells(board, cells)
        if len(others_all) <= size:
            continue
        for group in combinations(open_cells, size):
            union = 0
            for i in group:
                union |= masks[i]
            if union.bit_count() != size:
                continue
            removed = [(j, d) for j in others_all if j not in group for d in digits_of(masks[j] & union)]
            if removed:
                name = geo.line_name(line)
                yield board.step(f"naked_{SUBSET_NAMES[size]}",
                                 f"In {name}, {cell_list(geo.cell(i) for i in group)} can only hold "
                                 f"{digit_list(digits_of(union), 'and')} between them, so no other cell of "
                                 f"{name} can", group, [], name, removed)


def find_hidden_subset(board: Board, size: int) -> Iterator[Step]:
    """``size`` digits that fit only in the same ``size`` cells of a line: those cells hold nothing else."""
    geo, masks = board.geo, board.masks
    for line, cells in enumerate(geo.lines):
        open_cells = _open_cells(board, cells)
        if len(open_cells) <= size:
            continue
        where: dict[int, int] = {}
        for pos, i in enumerate(open_cells):
            for d in digits_of(masks[i]):
                where[d] = where.get(d, 0) | (1 << pos)
        solved = 0
        for i in cells:
            if i not in open_cells:
                solved |= masks[i]
        candidates = [d for d, spots in where.items() if not solved >> d & 1 and 2 <= spots.bit_count() <= size]
        for digits in combinations(sorted(candidates), size):
            spots = 0
            for d in digits:
                spots |= where[d]
            if spots.bit_count() != size:
                continue
            keep = sum(1 << d for d in digits)
            group = [open_cells[p] for p in range(len(open_cells)) if spots >> p & 1]
            removed = [(i, e) for i in group for e in digits_of(masks[i] & ~keep)]
            if removed:
                name = geo.line_name(line)
                yield board.step(f"hidden_{SUBSET_NAMES[size]}",
                                 f"In {name}, {digit_list(digits, 'and')} fit only in "
                                 f"{cell_list(geo.cell(i) for i in group)}, so those cells hold nothing else",
                                 cells, [], name, removed)


def find_fish(board: Board, size: int) -> Iterator[Step]:
    """X-wing (2) or swordfish (3): a digit whose places in ``size`` rows lie in ``size`` columns is in
    no other cell of those columns (and the same with rows and columns swapped)."""
    geo, masks, n = board.geo, board.masks, board.n
    for base_rows in (True, False):
        base_lines = range(n) if base_rows else range(n, 2 * n)
        for d in range(1, n + 1):
            bit = 1 << d
            spots = {}
            for line in base_lines:
                cells = geo.lines[line]
                where = [p for p, i in enumerate(cells) if masks[i] & bit]
                if 2 <= len(where) <= size:
                    spots[line] = where
            for group in combinations(sorted(spots), size):
                cover = sorted({p for line in group for p in spots[line]})
                if len(cover) != size:
                    continue
                cross = [(n + p if base_rows else p) for p in cover]
                removed = [(i, d) for line in cross for i in geo.lines[line]
                           if masks[i] & bit and geo.line_of[i][0 if base_rows else 1] not in group]
                if removed:
                    reads = [i for line in group for i in geo.lines[line]]
                    base = lines_phrase([geo.line_name(line) for line in group])
                    across = lines_phrase([geo.line_name(line) for line in cross])
                    yield board.step("x_wing" if size == 2 else "swordfish",
                                     f"In {base}, {d} fits only in {across}; the {NUMBER_WORDS[size]} "
                                     f"{'rows' if base_rows else 'columns'} put their {d}s there, one in each, so no "
                                     f"other cell of those {'columns' if base_rows else 'rows'} can be {d}", reads, [],
                                     f"{d} in {base}", removed, say_removed=False)


def find_line_contradiction(board: Board) -> Step | None:
    """A cell with no candidate, a line where a digit fits nowhere, or a digit twice in a line."""
    geo, masks = board.geo, board.masks
    for i, m in enumerate(masks):
        if not m:
            name = cell_name(geo.cell(i))
            return Step("contradiction", f"{name} has no digit left.", (geo.cell(i),), (), name, ())
    for line, cells in enumerate(geo.lines):
        union = seen = 0
        for i in cells:
            m = masks[i]
            union |= m
            if m & (m - 1) == 0:
                if seen & m:
                    twice = [geo.cell(j) for j in cells if masks[j] == m]
                    name = geo.line_name(line)
                    return Step("contradiction", f"{cell_list(twice)} would both be {m.bit_length() - 1} in {name}.",
                                tuple(twice), (), name, ())
                seen |= m
        missing = geo.full & ~union
        if missing:
            d = digits_of(missing)[0]
            name = geo.line_name(line)
            return Step("contradiction", f"No cell of {name} can hold {d} any more.",
                        tuple(geo.cell(i) for i in cells), (), name, ())
    return None
