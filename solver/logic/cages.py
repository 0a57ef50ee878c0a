"""Techniques that use the cages: combinations, a digit a cage needs in a line, a line that forces a
cage, and pairs of cages tried together (seed 000's box–box interaction).

Each ``find_*`` takes a :class:`~solver.logic.board.Board` and yields the :class:`Step` s it can make,
in scan order (the first is the one the solver takes). They never change the board.
"""
from __future__ import annotations

from typing import Iterator

from ..puzzle import Cage, cell_name
from .board import Board, digits_of
from .steps import Step, cell_list, combos_text, lines_phrase

PAIR_BUDGET = 40000
"""Most tuple comparisons tried for one pair of cages; larger pairs are skipped."""


def cage_phrase(cage: Cage) -> str:
    """'the 11+ cage at r2c1'."""
    return f"the {cage.clue} cage at {cell_name(cage.anchor)}"


def unions(tuples, k: int) -> list[int]:
    """Per cage position, the mask of the digits some tuple puts there."""
    out = [0] * k
    for t in tuples:
        for j, d in enumerate(t):
            out[j] |= 1 << d
    return out


def _removals(board: Board, cells, tuples) -> list[tuple[int, int]]:
    """The candidates of a cage's cells that no tuple uses."""
    masks = board.masks
    return [(i, d) for i, m in zip(cells, unions(tuples, len(cells))) for d in digits_of(masks[i] & ~m)]


def find_cage_combinations(board: Board, single_cells: bool) -> Iterator[Step]:
    """A cage (one-cell cages only, or the others) whose possible tuples rule out a candidate."""
    geo = board.geo
    for info in geo.cages:
        if (len(info.cells) == 1) != single_cells:
            continue
        tuples = board.cage_tuples(info.index)
        if not tuples:
            continue
        removed = _removals(board, info.cells, tuples)
        if not removed:
            continue
        cage = info.cage
        if single_cells:
            name = cell_name(cage.anchor)
            yield board.step("single_cell_cage", f"{name} is a one-cell cage: it holds {tuples[0][0]}",
                             info.cells, [info.index], name, removed, say_removed=False, say_placed=False)
            continue
        where = cell_list(cage.cells)
        yield board.step("cage_combinations",
                         f"{cage.clue} in {where} can only be {combos_text(tuples)}",
                         info.cells, [info.index], cage_phrase(cage), removed)


def find_cage_contradiction(board: Board) -> Step | None:
    """A cage whose clue no digits left in its cells can make."""
    for info in board.geo.cages:
        if board.cage_tuples(info.index) == ():
            phrase = cage_phrase(info.cage)
            return Step("contradiction", f"{phrase[0].upper()}{phrase[1:]} can no longer be made with the digits left.",
                        info.cage.cells, (info.index,), phrase, ())
    return None


def _needs(board: Board, k: int, tuples) -> dict[int, int]:
    """Line → mask of the digits every tuple of cage ``k`` puts somewhere on that line (memoised)."""
    geo = board.geo
    key = ("needs", k, board.cage_masks(k))
    found = geo.memo.get(key)
    if found is None:
        found = {}
        for line, positions in geo.cages[k].lines.items():
            if len(positions) < 2:
                continue
            need = geo.full
            for t in tuples:
                m = 0
                for p in positions:
                    m |= 1 << t[p]
                need &= m
                if not need:
                    break
            if need:
                found[line] = need
        geo.memo[key] = found
    return found


def find_cage_confinement(board: Board) -> Iterator[Step]:
    """A digit that every tuple of a cage puts in one line: no cell of that line outside the cage
    holds it."""
    geo, masks = board.geo, board.masks
    for info in geo.cages:
        if len(info.cells) < 2:
            continue
        tuples = board.cage_tuples(info.index)
        if not tuples:
            continue
        for line, need in _needs(board, info.index, tuples).items():
            for d in digits_of(need):
                removed = [(j, d) for j in geo.lines[line] if geo.cage_of[j] != info.index and masks[j] >> d & 1]
                if not removed:
                    continue
                cage, name = info.cage, geo.line_name(line)
                positions = info.lines[line]
                part = {tuple(t[p] for p in positions) for t in tuples}
                if len(positions) == len(info.cells):
                    combos = len({tuple(sorted(t)) for t in part})
                    every = "both" if combos == 2 else ("it" if combos == 1 else "all")
                    reason = (f"{cage.clue} in {len(positions)} cells of {name} must be {combos_text(part)}: "
                              f"{every} need{'s' if every == 'it' else ''} {d}, so no other cell of {name} is {d}")
                else:
                    where = cell_list(geo.cell(info.cells[p]) for p in positions)
                    reason = (f"Every way to make {cage_phrase(cage)} puts a {d} in {where} "
                              f"({combos_text(part)} there), so no other cell of {name} is {d}")
                yield board.step("cage_confinement", reason, info.cells, [info.index], name, removed,
                                 say_removed=False)


def find_line_forces_cage(board: Board) -> Iterator[Step]:
    """A digit whose places in a line all lie in one cage: that cage's tuples must put it there."""
    geo, masks, n = board.geo, board.masks, board.n
    for line, cells in enumerate(geo.lines):
        for d in range(1, n + 1):
            spots = [i for i in cells if masks[i] >> d & 1]
            if len(spots) < 2:
                continue
            k = geo.cage_of[spots[0]]
            if k < 0 or any(geo.cage_of[i] != k for i in spots):
                continue
            tuples = board.cage_tuples(k)
            if not tuples:
                continue
            info = geo.cages[k]
            positions = [info.cells.index(i) for i in spots]
            keep = [t for t in tuples if any(t[p] == d for p in positions)]
            removed = _removals(board, info.cells, keep)
            if removed:
                name = geo.line_name(line)
                yield board.step("line_forces_cage",
                                 f"In {name}, {d} fits only in {cell_list(geo.cell(i) for i in spots)}, inside "
                                 f"{cage_phrase(info.cage)}; so that cage holds the {d}, which leaves "
                                 f"{combos_text(keep)}", list(cells) + list(info.cells), [k],
                                 cage_phrase(info.cage), removed)


def _compatible(board: Board, a: int, b: int, conflicts, ta, tb):
    """The tuples of cage ``a`` and of cage ``b`` that fit at least one tuple of the other (memoised);
    None when the pair is over budget."""
    geo = board.geo
    key = ("pair", a, b, board.cage_masks(a), board.cage_masks(b))
    if key in geo.memo:
        return geo.memo[key]
    pa = [p for p, _ in conflicts]
    pb = [q for _, q in conflicts]
    keys_b = {tuple(u[q] for q in pb) for u in tb}
    result = None
    if len(ta) * len(keys_b) <= PAIR_BUDGET:
        ok_b: set[tuple[int, ...]] = set()
        keep_a = []
        for t in ta:
            ka = tuple(t[p] for p in pa)
            fits = [kb for kb in keys_b if all(x != y for x, y in zip(ka, kb))]
            if fits:
                keep_a.append(t)
                ok_b.update(fits)
        keep_b = [u for u in tb if tuple(u[q] for q in pb) in ok_b]
        result = (keep_a, keep_b)
    geo.memo[key] = result
    return result


def find_cage_pair(board: Board) -> Iterator[Step]:
    """Two cages sharing a row or column, tried together: tuples of one that clash with every tuple of
    the other are dropped."""
    geo = board.geo
    for a, b, conflicts, lines in geo.cage_pairs():
        ta, tb = board.cage_tuples(a), board.cage_tuples(b)
        if not ta or not tb:
            continue
        found = _compatible(board, a, b, conflicts, ta, tb)
        if found is None:
            continue
        keep_a, keep_b = found
        removed = _removals(board, geo.cages[a].cells, keep_a) + _removals(board, geo.cages[b].cells, keep_b)
        if removed:
            ca, cb = geo.cages[a].cage, geo.cages[b].cage
            shared = lines_phrase([geo.line_name(line) for line in lines])
            yield board.step("cage_pair",
                             f"{cage_phrase(ca)[0].upper()}{cage_phrase(ca)[1:]} and {cage_phrase(cb)} share "
                             f"{shared}; tried together, the first can only be {combos_text(keep_a)} and the "
                             f"second {combos_text(keep_b)}",
                             geo.cages[a].cells + geo.cages[b].cells, [a, b],
                             f"{cage_phrase(ca)} and {cage_phrase(cb)}", removed)
