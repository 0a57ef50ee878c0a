"""Which digits a cage's cells may hold together: the arithmetic of clues.

A *tuple* gives one digit per cage cell, in the cage's cell order. :func:`allowed_tuples` lists every
tuple that makes the clue and repeats no digit inside a row or column of the cage. Tables are cached
by clue, size and the cage's row/column pattern, so two cages of the same shape share one table.
"""
from __future__ import annotations

from functools import lru_cache
from math import prod

from .puzzle import Cage, Cell

TUPLE_LIMIT = 6000
"""Default cap of :func:`allowed_tuples`; the encoder passes a smaller one per cage size."""


SEARCH_FACTOR = 50
"""The tuple search gives up (:class:`TooManyTuples`) after visiting this many partial tuples per
tuple allowed, plus SEARCH_FLOOR: a large cage with few valid tuples hidden among many dead ends
(19 cells summing to 57 on a 9×9, a cage partition misread from a hard photo) would otherwise take
minutes to list; its cage is then encoded arithmetically."""
SEARCH_FLOOR = 20000


class TooManyTuples(Exception):
    """Raised by :func:`allowed_tuples` when a cage has more than ``limit`` tuples, or when listing
    them would take too long (see SEARCH_FACTOR)."""


def satisfies(op: str, target: int, values: tuple[int, ...], long_minus_divide: bool = True) -> bool:
    """True when the digits make the clue. 3+-cell ``-`` and ``/``: the largest value minus (divided by)
    all the others, allowed only with ``long_minus_divide``; ``?`` accepts any operator that fits."""
    k = len(values)
    if op in "=" or (op == "?" and k == 1):
        return k == 1 and values[0] == target
    if op == "+":
        return sum(values) == target
    if op == "*":
        return prod(values) == target
    if op == "-":
        big = max(values)
        return (k == 2 or long_minus_divide) and k >= 2 and 2 * big - sum(values) == target
    if op == "/":
        big = max(values)
        return (k == 2 or long_minus_divide) and k >= 2 and big * big == target * prod(values)
    if op == "?":
        return any(satisfies(o, target, values, long_minus_divide) for o in "+-*/")
    return False


def conflict_pattern(cells: tuple[Cell, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs of cage positions (i, j), i < j, whose cells share a row or a column (must differ)."""
    return tuple((i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))
                 if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1])


def allowed_tuples(cage: Cage, n: int, long_minus_divide: bool, limit: int = TUPLE_LIMIT) -> tuple[tuple[int, ...], ...]:
    """Every digit tuple for the cage's cells that makes its clue with no repeat in a row or column.

    Raises :class:`TooManyTuples` past ``limit`` tuples (or SEARCH_FACTOR · ``limit`` + SEARCH_FLOOR
    steps of the search). Returns an empty tuple for an impossible clue.
    """
    return _tuples(cage.op, cage.target, n, len(cage.cells), conflict_pattern(cage.cells), long_minus_divide, limit)


@lru_cache(maxsize=4096)
def _tuples(op: str, target: int, n: int, k: int, pattern: tuple[tuple[int, int], ...],
            lmd: bool, limit: int) -> tuple[tuple[int, ...], ...]:
    """Cached worker of :func:`allowed_tuples`."""
    if op == "?":
        ops = "=" if k == 1 else ("+*-/" if (k == 2 or lmd) else "+*")
        found: set[tuple[int, ...]] = set()
        for o in ops:
            found.update(_tuples(o, target, n, k, pattern, lmd, limit))
            if len(found) > limit:
                raise TooManyTuples(f"{len(found)}+ tuples")
        return tuple(sorted(found))
    if op in "-/" and k > 2 and not lmd:
        return ()
    if op == "=":
        return ((target,),) if k == 1 and 1 <= target <= n else ()
    before = [[i for i, j in pattern if j == pos] for pos in range(k)]
    out: list[tuple[int, ...]] = []
    values = [0] * k
    # Bounds that prune the search: the running sum / product may not pass these.
    max_sum = target if op == "+" else (2 * n - target if op == "-" else None)
    max_prod = target if op == "*" else (n * n // max(target, 1) if op == "/" else None)
    steps = [SEARCH_FACTOR * limit + SEARCH_FLOOR]

    def extend(pos: int, total: int, product: int) -> None:
        steps[0] -= 1
        if steps[0] < 0:
            raise TooManyTuples("the tuple search took too long")
        if pos == k:
            if satisfies(op, target, tuple(values), lmd):
                out.append(tuple(values))
                if len(out) > limit:
                    raise TooManyTuples(f"{len(out)}+ tuples")
            return
        rest = k - pos - 1
        banned = {values[i] for i in before[pos]}
        if rest == 0 and op in "+*":  # the last digit is fixed by the clue: no loop
            v = target - total if op == "+" else (target // product if target % product == 0 else 0)
            if 1 <= v <= n and v not in banned:
                values[pos] = v
                out.append(tuple(values))
                if len(out) > limit:
                    raise TooManyTuples(f"{len(out)}+ tuples")
            return
        for v in range(1, n + 1):
            if v in banned:
                continue
            if max_sum is not None and total + v + rest > max_sum:
                break
            if op == "+" and total + v + rest * n < target:
                continue
            if op == "*" and target % (product * v):
                continue
            if max_prod is not None and product * v > max_prod:
                break
            values[pos] = v
            extend(pos + 1, total + v, product * v)
        values[pos] = 0

    extend(0, 0, 1)
    return tuple(out)


def clear_cache() -> None:
    """Forget every cached tuple table (benchmarks time cold encodings with it)."""
    _tuples.cache_clear()


@lru_cache(maxsize=512)
def possible_targets(op: str, n: int, k: int, long_minus_divide: bool = True,
                     at_most: int | None = None) -> tuple[int, ...]:
    """Every target the operator ``op`` can reach on a cage of ``k`` cells with digits 1..n, ignoring
    rows and columns (a superset of the clues a cage of this size can carry), ascending; with
    ``at_most``, only those up to it. ``'?'`` is the union over the operators; ``'='`` a single
    cell's digit. The products of a big cage are many (a 30-cell cage of a 9×9: tens of thousands,
    seconds to list): a reader that only wants short numbers passes ``at_most``."""
    if at_most is not None and op not in "*?":
        return tuple(t for t in possible_targets(op, n, k, long_minus_divide) if t <= at_most)
    if op in "=" or k == 1:
        return tuple(t for t in range(1, n + 1) if at_most is None or t <= at_most) if op in "=?+*" else ()
    if op == "?":
        ops = "+*-/" if (k == 2 or long_minus_divide) else "+*"
        return tuple(sorted(set().union(*(possible_targets(o, n, k, long_minus_divide, at_most) for o in ops))))
    if op == "+":
        return tuple(range(k, k * n + 1))
    if op == "*":
        cap = at_most if at_most is not None else float("inf")
        products = {1}
        for _ in range(k):
            products = {p * d for p in products for d in range(1, n + 1) if p * d <= cap}
        return tuple(sorted(products))
    if op in "-/" and k > 2 and not long_minus_divide:
        return ()
    if op == "-":
        return tuple(range(1 if k == 2 else 0, n - (k - 1) + 1))
    if op == "/":
        return tuple(range(2 if k == 2 else 1, n + 1))
    return ()
