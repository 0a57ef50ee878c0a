"""Choose among alternative clues: the likeliest reading of a cage layout that has exactly one solution.

A reader (a photo, a person dictating) gives every cage of a known layout a list of alternative
clues, each with a *cost* (0 for the reading as seen; more for less likely ones). This module finds
the cheapest choice of one alternative per cage whose puzzle has exactly one solution.

Algorithm (weighted MaxSAT with PySAT's RC2, then the engine):

1. One CNF holds the Latin square (every cell one digit, every digit once per row and column), every
   alternative of every cage encoded by :func:`solver.encoding.encode_cage` under its own activation
   literal (sums and products of LAYERED_FROM cells or more by layers, not tables), exactly one
   activation per cage, and at most ``max_changes`` activations that are not a cage's first
   alternative. Each such activation is a soft clause ``¬a`` weighing its cost.
2. RC2 returns the cheapest choice that has *a* solution. Its stratified form is used: it settles
   the heavy soft clauses (unlikely alternatives) first, and with a reader's many alternatives of
   very different costs it found choices the plain form gave up on (true-corner readings of 81
   generated hand-held photos: 95th-percentile time 1.07 s → 0.51 s, one more board right).
   The engine (:func:`solver.solve`) then proves it unique or finds a second solution; in that case
   the choice is blocked (a hard clause) and a fresh RC2 is asked again, for up to ``rounds`` choices or
   ``budget_s`` seconds of :class:`Effort` (the SAT solvers' propagations and the clauses built,
   weighed as this machine spends them: work, not time, so the same reading gets the same search
   and the same answer on any machine and under any load; RC2 itself is stopped by a propagation
   budget, as it can take long to prove that no cheap choice exists).
   With ``patience_s`` below ``budget_s``, no new round starts after ``patience_s``, but the first
   round may run on to ``budget_s``: a caller with a fallback (a wider search) gets the time back
   when the search is going through choices that each have several solutions, and a search that
   has not yet found its first choice (a 9×9 misread in many places) is not cut off before it does.

An alternative ``FREE`` (``("?", 0, cost)``) leaves the cage's clue unknown: the cage then constrains
nothing but the Latin square, and the puzzle proved unique is the others' (a reader whose label
list never held the printed clue can still settle the solution when the other clues do, and the
clue is named from it afterwards).

Contract: the result's ``picks`` index into each cage's alternatives; ``status`` is ``'unique'``
(found), ``'multiple'`` (every choice tried had several solutions) or ``'none'`` (no choice within
the cap has any solution) — or ``'gave up'`` when rounds or time ran out first.

Example::

    found = cheapest_unique(4, layout, [[("+", 7, 0.0), ("*", 7, 2.3)], ...])
    found.status, found.picks, found.solution
"""
from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF

from .encoding import encode_cage, latin_groups
from .engine import Engine, Undecided
from .puzzle import Cage, Cell, Grid, Puzzle, PuzzleError

FREE = ("?", 0)
"""The ``(op, target)`` of an alternative that leaves its cage's clue unknown (see the module docstring)."""
COST_SCALE = 100
"""RC2 weighs soft clauses in integers: a cost c weighs 1 + round(COST_SCALE · c)."""
PROOF_CONFLICTS = 20_000
"""Most conflicts the SAT solver may spend on one question while a choice is solved and proved
unique (about a second); a choice it cannot settle within them is passed over. The proof's work
counts against the search's budget, but the budget does not cut a proof short."""

PROPAGATIONS_PER_S = 14_000_000
"""SAT propagations that make one second of :class:`Effort`; with CLAUSES_PER_S, fitted to the
processor time the search took on this machine over the 989 hand-held and hard readings of the five
generated sets (replayed from their captured clue alternatives; 13.8 million propagations and 0.74
million clauses a second, correlation 0.97)."""
CLAUSES_PER_S = 800_000
"""Clauses built, or loaded into a fresh solver, that make one second of :class:`Effort`."""
LAYERED_FROM = 5
"""Alternatives ``+`` and ``×`` of cages of this many cells or more are encoded by layers of partial
sums or products (:func:`solver.encoding.encode_cage` with ``tuples=None``), not by tuple tables:
a reader gives such a cage many alternatives, and their tables made most of the formula, whose
building and loading is counted in the search's budget (hand-held k8383-0102, a 7×7: one 6-cell
sum cage's alternatives, 9–16 thousand clauses each, were 134 of 151 thousand clauses, and the
search gave up before its first choice). Layers take a few hundred clauses (a 6-cell "23+" on a
7×7 in one row: 473 against its table's 4,363); they propagate less than tables, and the engine
still proves each choice with its own tables. Seventy-first round, seeds 8383 and 9494 (their 188
readings not confident, which the search decides, and 29 confident ones): boards exact +5 (3
hand-held), solved right +6, none lost; held-out seed 6161's 198 hand-held and hard photos read
the same, median and p95 time about the same."""


class Effort:
    """What a search has spent, counted from the work itself (SAT propagations, RC2's and the
    engine's proofs', and clauses built or loaded) and given in seconds as the machine it was
    calibrated on spends them (PROPAGATIONS_PER_S). A budget of processor time made readings near it
    flip: the same photo gave another answer under load or on a second run (8 of 989 hand-held and
    hard readings replayed two at once; none on effort). A slower machine takes longer for the
    same answer. Searches that share one budget share one Effort."""

    def __init__(self) -> None:
        self.propagations = 0
        self.clauses = 0

    def seconds(self) -> float:
        """The effort spent so far."""
        return self.propagations / PROPAGATIONS_PER_S + self.clauses / CLAUSES_PER_S

    def propagations_left(self, budget_s: float) -> int:
        """Propagations still allowed before ``budget_s`` is spent (at least 1)."""
        return max(1, int((budget_s - self.seconds()) * PROPAGATIONS_PER_S))


@dataclass(frozen=True)
class Found:
    """What :func:`cheapest_unique` settled on (see the module docstring)."""

    status: str
    picks: tuple[int, ...] | None
    solution: Grid | None
    rounds: int


def cheapest_unique(size: int, layout: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
                    *, operators_shown: bool = True, calcudoku: bool | None = None, max_changes: int = 3,
                    rounds: int = 30, budget_s: float = 2.0, patience_s: float | None = None,
                    effort: Effort | None = None, max_free: int | None = None) -> Found:
    """The cheapest choice of one ``(op, target, cost)`` per cage of ``layout`` (cells per cage)
    whose puzzle has exactly one solution. Alternatives the engine cannot encode (impossible clues)
    are never chosen. Raises PuzzleError when the layout itself is not a puzzle. ``patience_s``: see
    the module docstring (``budget_s`` when not given). ``budget_s`` and ``patience_s`` count from
    what ``effort`` (a fresh :class:`Effort` when not given) had spent on entry; it is added to.
    ``max_free``: at most this many cages left free (FREE alternatives chosen; no limit when None)."""
    effort = Effort() if effort is None else effort
    patience_s = budget_s if patience_s is None else min(patience_s, budget_s)
    budget_s, patience_s = budget_s + effort.seconds(), patience_s + effort.seconds()
    lmd = bool(calcudoku) if calcudoku is not None else any(
        len(cells) > 2 and alts and alts[0][0] in "-/" for cells, alts in zip(layout, alternatives))
    wcnf, selectors, top = WCNF(), [], size ** 3
    for group in latin_groups(size):
        wcnf.append(list(group))
        top = _at_most_one(wcnf, list(group), top)
    changed, free = [], []
    for cells, alts in zip(layout, alternatives):
        cage_selectors = []
        for k, (op, target, cost) in enumerate(alts):
            if effort.seconds() >= budget_s:  # encoding counts too: a misread 16×16's took 8 s, then gave up
                return Found("gave up", None, None, 0)
            if (op, target) == FREE:
                top += 1
                activation = top  # constrains nothing
                free.append(activation)
            else:
                try:
                    layered = len(cells) >= LAYERED_FROM and op in "+*"
                    enc = encode_cage(Cage(cells, op, target), size, lmd, top, tuples=None if layered else "auto")
                except PuzzleError:
                    cage_selectors.append(None)
                    continue
                top, activation = enc.top, enc.activation
                _hard(wcnf, enc.clauses, top)
                effort.clauses += len(enc.clauses)
            cage_selectors.append(activation)
            if k:
                changed.append(activation)
            if cost > 0:
                wcnf.append([-activation], weight=1 + round(COST_SCALE * cost))
        live = [s for s in cage_selectors if s is not None]
        if not live:
            return Found("none", None, None, 0)
        wcnf.append(live)
        top = _at_most_one(wcnf, live, top)
        selectors.append(cage_selectors)
    if changed and max_changes < len(changed):
        cap = CardEnc.atmost(changed, bound=max_changes, top_id=top, encoding=EncType.seqcounter)
        _hard(wcnf, cap.clauses, cap.nv)
        top = max(top, cap.nv)
    if max_free is not None and max_free < len(free):
        cap = CardEnc.atmost(free, bound=max_free, top_id=top, encoding=EncType.seqcounter)
        _hard(wcnf, cap.clauses, cap.nv)
    tried = 0
    status = "none"
    while tried < rounds:
        limit = patience_s if tried else budget_s
        if effort.seconds() >= limit:
            break
        # A fresh solver every round, the choices already tried blocked in the formula: RC2Stratified
        # loses choices when a clause is added between calls (pysat issue #203; realdev Blog28 had
        # its right reading, one change away, reported as 'no choice left').
        effort.clauses += len(wcnf.hard)
        with (_BudgetedStratified if wcnf.soft else _Budgeted)(wcnf) as rc2:  # stratified needs a soft clause
            rc2.effort, rc2.limit = effort, limit
            try:
                model = rc2.compute()
            except _OutOfEffort:
                break
        if model is None:
            return Found(status, None, None, tried)
        true = set(lit for lit in model if lit > 0)
        picks = tuple(next(k for k, s in enumerate(sels) if s is not None and s in true) for sels in selectors)
        tried += 1
        cages = tuple(Cage(cells, alts[k][0], alts[k][1]) for cells, alts, k in zip(layout, alternatives, picks)
                      if alts[k][:2] != FREE)
        try:
            result = _proved(Puzzle(size, cages, operators_shown, None, calcudoku), effort)
        except Undecided:  # too hard to settle: no reading to give, and not a reason to stop looking
            wcnf.append([-sels[k] for sels, k in zip(selectors, picks)])
            continue
        if result.status == "unique":
            return Found("unique", picks, result.solution, tried)
        status = "multiple" if result.status == "multiple" else status
        wcnf.append([-sels[k] for sels, k in zip(selectors, picks)])
    return Found("gave up", None, None, tried)


class _Budgeted(RC2):
    """RC2 whose SAT calls stop once ``effort`` reaches ``limit`` (set after construction): the
    propagations left are the oracle's budget, and running out raises :class:`_OutOfEffort` (the
    RC2 is then given up). The solver looks at its budget only between restarts (a call that finds
    a core at once is not stopped), so no call starts once the budget is spent."""

    effort: Effort
    limit: float

    def _call_oracle(self, assumptions=(), expect_interrupt=False):
        if self.effort.seconds() >= self.limit:
            raise _OutOfEffort
        before = self.oracle.accum_stats().get("propagations", 0)
        self.oracle.prop_budget(self.effort.propagations_left(self.limit))
        answer = self.oracle.solve_limited(assumptions=assumptions, expect_interrupt=expect_interrupt)
        self.effort.propagations += self.oracle.accum_stats().get("propagations", 0) - before
        if answer is None:
            raise _OutOfEffort
        return answer


class _OutOfEffort(Exception):
    """A :class:`_Budgeted` RC2 spent its effort."""


class _BudgetedStratified(_Budgeted, RC2Stratified):
    """:class:`_Budgeted` for RC2's stratified form."""


def _proved(puzzle: Puzzle, effort: Effort):
    """:func:`solver.engine.solve` within PROOF_CONFLICTS a question, its work added to ``effort``."""
    with Engine(puzzle, conflicts=PROOF_CONFLICTS) as engine:
        effort.clauses += sum(len(cage.clauses) for cage in engine.encoding.cages)
        try:
            return engine.solve()
        finally:
            effort.propagations += engine.solver.accum_stats().get("propagations", 0)


def _hard(wcnf: WCNF, clauses, top: int) -> None:
    """Add ``clauses`` (variables up to ``top``) to ``wcnf`` as hard clauses, at once: PySAT's
    ``WCNF.append`` finds each clause's largest variable in Python, which took about a quarter
    of the search's time on a hard photo's thousands of alternatives (about a million clauses)."""
    wcnf.hard.extend(clauses)  # tuples: the solvers take any sequence of literals
    wcnf.nv = max(wcnf.nv, top)


def _at_most_one(wcnf: WCNF, literals: list[int], top: int) -> int:
    """Add 'at most one of ``literals``' as hard clauses; returns the new top variable."""
    if len(literals) < 2:
        return top
    encoding = EncType.pairwise if len(literals) <= 10 else EncType.seqcounter
    card = CardEnc.atmost(literals, bound=1, top_id=top, encoding=encoding)
    _hard(wcnf, card.clauses, card.nv)
    return max(top, card.nv)
