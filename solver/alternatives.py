"""Choose among alternative clues: the likeliest reading of a cage layout that has exactly one solution.

A reader (a photo, a person dictating) gives every cage of a known layout a list of alternative
clues, each with a *cost* (0 for the reading as seen; more for less likely ones). This module finds
the cheapest choice of one alternative per cage whose puzzle has exactly one solution.

Algorithm (weighted MaxSAT with PySAT's RC2, then the engine):

1. One CNF holds the Latin square (every cell one digit, every digit once per row and column), every
   alternative of every cage encoded by :func:`solver.encoding.encode_cage` under its own activation
   literal, exactly one activation per cage, and at most ``max_changes`` activations that are not
   a cage's first alternative. Each such activation is a soft clause ``¬a`` weighing its cost.
2. RC2 returns the cheapest choice that has *a* solution. Its stratified form is used: it settles
   the heavy soft clauses (unlikely alternatives) first, and with a reader's many alternatives of
   very different costs it found choices the plain form gave up on (true-corner readings of 81
   generated hand-held photos: 95th-percentile time 1.07 s → 0.51 s, one more board right).
   The engine (:func:`solver.solve`) then proves it unique or finds a second solution; in that case
   the choice is blocked (a hard clause) and RC2 is asked again, for up to ``rounds`` choices or
   ``budget_s`` seconds (a timer interrupts RC2 itself, which can take long to prove that no cheap
   choice exists).

Contract: the result's ``picks`` index into each cage's alternatives; ``status`` is ``'unique'``
(found), ``'multiple'`` (every choice tried had several solutions) or ``'none'`` (no choice within
the cap has any solution) — or ``'gave up'`` when rounds or time ran out first.

Example::

    found = cheapest_unique(4, layout, [[("+", 7, 0.0), ("*", 7, 2.3)], ...])
    found.status, found.picks, found.solution
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from threading import Timer

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF

from .encoding import encode_cage, latin_groups
from .engine import solve
from .puzzle import Cage, Cell, Grid, Puzzle, PuzzleError

COST_SCALE = 100
"""RC2 weighs soft clauses in integers: a cost c weighs 1 + round(COST_SCALE · c)."""


@dataclass(frozen=True)
class Found:
    """What :func:`cheapest_unique` settled on (see the module docstring)."""

    status: str
    picks: tuple[int, ...] | None
    solution: Grid | None
    rounds: int


def cheapest_unique(size: int, layout: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
                    *, operators_shown: bool = True, calcudoku: bool | None = None, max_changes: int = 3,
                    rounds: int = 30, budget_s: float = 2.0) -> Found:
    """The cheapest choice of one ``(op, target, cost)`` per cage of ``layout`` (cells per cage)
    whose puzzle has exactly one solution. Alternatives the engine cannot encode (impossible clues)
    are never chosen. Raises PuzzleError when the layout itself is not a puzzle."""
    start = time.perf_counter()
    lmd = bool(calcudoku) if calcudoku is not None else any(
        len(cells) > 2 and alts and alts[0][0] in "-/" for cells, alts in zip(layout, alternatives))
    wcnf, selectors, top = WCNF(), [], size ** 3
    for group in latin_groups(size):
        wcnf.append(list(group))
        top = _at_most_one(wcnf, list(group), top)
    changed = []
    for cells, alts in zip(layout, alternatives):
        cage_selectors = []
        for k, (op, target, cost) in enumerate(alts):
            try:
                enc = encode_cage(Cage(cells, op, target), size, lmd, top)
            except PuzzleError:
                cage_selectors.append(None)
                continue
            top = enc.top
            for clause in enc.clauses:
                wcnf.append(list(clause))
            cage_selectors.append(enc.activation)
            if k:
                changed.append(enc.activation)
            if cost > 0:
                wcnf.append([-enc.activation], weight=1 + round(COST_SCALE * cost))
        live = [s for s in cage_selectors if s is not None]
        if not live:
            return Found("none", None, None, 0)
        wcnf.append(live)
        top = _at_most_one(wcnf, live, top)
        selectors.append(cage_selectors)
    if changed and max_changes < len(changed):
        cap = CardEnc.atmost(changed, bound=max_changes, top_id=top, encoding=EncType.seqcounter)
        for clause in cap.clauses:
            wcnf.append(clause)
    tried = 0
    status = "none"
    with (RC2Stratified if wcnf.soft else RC2)(wcnf) as rc2:  # the stratified form needs a soft clause
        while tried < rounds and time.perf_counter() - start < budget_s:
            timer = Timer(max(0.0, budget_s - (time.perf_counter() - start)), rc2.interrupt)
            timer.start()
            try:
                model = rc2.compute(expect_interrupt=True)
            finally:
                timer.cancel()
            if rc2.interrupted:
                break
            if model is None:
                return Found(status, None, None, tried)
            true = set(lit for lit in model if lit > 0)
            picks = tuple(next(k for k, s in enumerate(sels) if s is not None and s in true) for sels in selectors)
            tried += 1
            cages = tuple(Cage(cells, alts[k][0], alts[k][1]) for cells, alts, k in zip(layout, alternatives, picks))
            result = solve(Puzzle(size, cages, operators_shown, None, calcudoku))
            if result.status == "unique":
                return Found("unique", picks, result.solution, tried)
            status = "multiple" if result.status == "multiple" else status
            rc2.add_clause([-sels[k] for sels, k in zip(selectors, picks)])
    return Found("gave up", None, None, tried)


def _at_most_one(wcnf: WCNF, literals: list[int], top: int) -> int:
    """Add 'at most one of ``literals``' as hard clauses; returns the new top variable."""
    if len(literals) < 2:
        return top
    encoding = EncType.pairwise if len(literals) <= 10 else EncType.seqcounter
    card = CardEnc.atmost(literals, bound=1, top_id=top, encoding=encoding)
    for clause in card.clauses:
        wcnf.append(clause)
    return max(top, card.nv)
