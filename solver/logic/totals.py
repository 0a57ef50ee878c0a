"""Row and column totals: every row (column) adds up to N(N+1)/2 and multiplies to N!.

A *band* is one line or several neighbouring parallel lines. Cages whose sum (product) is known — a
``+`` (``*``) clue, a one-cell cage, or a cage whose remaining tuples all give the same total — are
taken out of the band's total. A known cage that sticks out of the band is either counted whole (its
cells outside the band are then subtracted) or left out (its cells inside stay unknown), whichever
leaves fewer unknown cells. When one to three unknown cells are left, their digits must make the rest
of the total: the KenKen cousin of Kakuro's box technique (seed 003).
"""
from __future__ import annotations

from typing import Iterator

from fractions import Fraction
from itertools import product
from math import factorial, prod

from ..puzzle import cell_name
from .board import Board, digits_of
from .steps import Step, cell_list


def band_name(board: Board, rows: bool, start: int, count: int) -> str:
    """'row 3', 'rows 1–2', 'column 4', 'columns 2–5'."""
    word = "row" if rows else "column"
    if count == 1:
        return f"{word} {start + 1}"
    return f"{word}s {start + 1}–{start + count}"


def _known(board: Board, k: int, op: str, derived: bool) -> tuple[int | None, bool]:
    """The sum (op '+') or product (op '*') of cage ``k`` when known, and whether it was read from
    the candidates (True) rather than from the clue."""
    cage = board.geo.cages[k].cage
    if len(cage.cells) == 1 and cage.op in "=?+*":
        return cage.target, False
    if cage.op == op:
        return cage.target, False
    if derived:
        tuples = board.cage_tuples(k)
        if tuples:
            totals = {sum(t) if op == "+" else prod(t) for t in tuples}
            if len(totals) == 1:
                return totals.pop(), True
    return None, False


def find_line_total(board: Board) -> Iterator[Step]:
    """One row or column whose known cages leave a single cell: that cell makes up the total."""
    return _find(board, max_band=1, max_left=1, derived=False, technique="line_total")


def find_band_total(board: Board) -> Iterator[Step]:
    """A band of lines whose known cages leave one to three cells, which must make up the rest."""
    return _find(board, max_band=board.n - 1, max_left=3, derived=True, technique="band_total")


def _find(board: Board, max_band: int, max_left: int, derived: bool, technique: str) -> Iterator[Step]:
    n = board.n
    for count in range(1, max_band + 1):
        for rows in (True, False):
            for start in range(0, n - count + 1):
                for op in ("+", "*"):
                    step = _band(board, rows, start, count, op, max_left, derived, technique)
                    if step:
                        yield step


def _band(board: Board, rows: bool, start: int, count: int, op: str, max_left: int, derived: bool,
          technique: str) -> Step | None:
    """The step of one band and one operation, or None."""
    geo, masks, n = board.geo, board.masks, board.n
    inside = (lambda i: start <= i // n < start + count) if rows else (lambda i: start <= i % n < start + count)
    band = [i for line in range(start, start + count) for i in geo.lines[line if rows else n + line]]
    total = (n * (n + 1) // 2) * count if op == "+" else factorial(n) ** count
    known_value = 0 if op == "+" else 1
    left, out, reads, cages_used, whole, sticking = [], [], [], [], [], []
    seen = set()
    for i in band:
        k = geo.cage_of[i]
        if k < 0:
            left.append(i)
            continue
        if k in seen:
            continue
        seen.add(k)
        info = geo.cages[k]
        cells_in = [j for j in info.cells if inside(j)]
        cells_out = [j for j in info.cells if not inside(j)]
        value, from_candidates = _known(board, k, op, derived)
        if value is None or (cells_out and len(cells_out) >= len(cells_in)):
            left += cells_in
            continue
        known_value = known_value + value if op == "+" else known_value * value
        out += cells_out
        cages_used.append(k)
        if cells_out:
            sticking.append((k, cells_out))
        else:
            whole.append(k)
        if from_candidates:
            reads += info.cells
    solved_in = [i for i in left if board.is_single(i)]
    solved_out = [i for i in out if board.is_single(i)]
    left = [i for i in left if i not in solved_in]
    out = [i for i in out if i not in solved_out]
    if not 1 <= len(left) + len(out) <= max_left:
        return None
    reads += solved_in + solved_out + left + out
    if op == "+":
        rhs = total - known_value - sum(board.value(i) for i in solved_in) + sum(board.value(i) for i in solved_out)
        holds = lambda vl, vo: sum(vl) - sum(vo) == rhs
    else:
        ratio = Fraction(total * prod(board.value(i) for i in solved_out),
                         known_value * prod(board.value(i) for i in solved_in))
        holds = lambda vl, vo: Fraction(prod(vl), prod(vo)) == ratio
    cells = left + out
    clash = [(a, b) for a in range(len(cells)) for b in range(a + 1, len(cells))
             if set(geo.line_of[cells[a]]) & set(geo.line_of[cells[b]])]
    union = [0] * len(cells)
    for values in product(*(digits_of(masks[i]) for i in cells)):
        if any(values[a] == values[b] for a, b in clash):
            continue
        if holds(values[:len(left)], values[len(left):]):
            for j, v in enumerate(values):
                union[j] |= 1 << v
    removed = [(i, d) for i, m in zip(cells, union) for d in digits_of(masks[i] & ~m)]
    if not removed:
        return None
    name = band_name(board, rows, start, count)
    single = len(cells) == 1 and union[0] & (union[0] - 1) == 0
    equation = _equation(board, op, total, known_value, solved_in, solved_out, left, out)
    reason = _reason(board, name, count, op, total, whole, sticking, solved_in + solved_out) + "; so " + equation
    return board.step(technique, reason, reads, cages_used, name, removed, say_removed=not single,
                      say_placed=not single)


def _equation(board: Board, op: str, total: int, known: int, solved_in, solved_out, left, out) -> str:
    """What the unknown cells must make: 'r3c5 = 45 − 41 = 4', 'r2c5 + r2c6 − r3c4 = 6',
    'r1c1 × r1c2 = 12'."""
    geo = board.geo
    names = lambda cells: [cell_name(geo.cell(i)) for i in cells]
    vin = [board.value(i) for i in solved_in]
    vout = [board.value(i) for i in solved_out]
    if op == "+":
        rest = total - known - sum(vin) + sum(vout)
        if left:
            lhs = " + ".join(names(left)) + "".join(f" − {c}" for c in names(out))
            expr = f"{total} − {known}" + "".join(f" − {v}" for v in vin) + "".join(f" + {v}" for v in vout)
            return f"{lhs} = {expr} = {rest}"
        expr = f"{known} − {total}" + "".join(f" + {v}" for v in vin) + "".join(f" − {v}" for v in vout)
        return f"{' + '.join(names(out))} = {expr} = {-rest}"
    ratio = Fraction(total * prod(vout), known * prod(vin))
    if left and out:
        return f"{' × '.join(names(left))} = {' × '.join(names(out))} × {ratio}"
    if left:
        expr = f"{total} ÷ {known}" + "".join(f" ÷ {v}" for v in vin) + "".join(f" × {v}" for v in vout)
        return f"{' × '.join(names(left))} = {expr} = {ratio}"
    return f"{' × '.join(names(out))} = {1 / ratio}"


def _reason(board: Board, name: str, count: int, op: str, total: int, whole, sticking, solved) -> str:
    """The sentence of a totals step, up to its conclusion: the band's total and what is known."""
    geo, n = board.geo, board.n
    plural = count > 1
    verb = ("add up to" if plural else "adds up to") if op == "+" else ("multiply to" if plural else "multiplies to")
    amount = str(total) if op == "+" else f"{n}! = {total}"
    if plural:
        amount = f"{count}×{n * (n + 1) // 2} = {total}" if op == "+" else f"({n}!)^{count}"
    clue = lambda k: f"{geo.cages[k].cage.clue} at {cell_name(geo.cages[k].cage.anchor)}"
    parts = []
    if whole:
        many = len(whole) > 1
        parts.append(f"the cage{'s' if many else ''} {', '.join(clue(k) for k in whole)} lie{'' if many else 's'} inside")
    for k, outside in sticking:
        parts.append(f"{clue(k)} reaches in, with {cell_list(geo.cell(j) for j in outside)} outside")
    if solved:
        parts.append(", ".join(f"{cell_name(geo.cell(i))} is {board.value(i)}" for i in solved))
    return f"{name[0].upper()}{name[1:]} {verb} {amount}" + "".join(f"; {part}" for part in parts)
