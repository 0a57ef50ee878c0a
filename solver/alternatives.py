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
   the choice is blocked (a hard clause) and a fresh RC2 is asked again, for up to ``rounds`` choices or
   ``budget_s`` seconds of processor time of the calling thread (a watchdog interrupts RC2 itself,
   which can take long to prove that no cheap choice exists). Processor time, not wall time: on a
   busy machine (a test run beside other work) the same reading gets the same search and the same
   answer; wall time gave one realdev screenshot a different answer under load.
   With ``patience_s`` below ``budget_s``, no new round starts after ``patience_s``, but the first
   round may run on to ``budget_s``: a caller with a fallback (a wider search) gets the time back
   when the search is going through choices that each have several solutions, and a search that
   has not yet found its first choice (a 9×9 misread in many places) is not cut off before it does.

Contract: the result's ``picks`` index into each cage's alternatives; ``status`` is ``'unique'``
(found), ``'multiple'`` (every choice tried had several solutions) or ``'none'`` (no choice within
the cap has any solution) — or ``'gave up'`` when rounds or time ran out first.

Example::

    found = cheapest_unique(4, layout, [[("+", 7, 0.0), ("*", 7, 2.3)], ...])
    found.status, found.picks, found.solution
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF

from .encoding import encode_cage, latin_groups
from .engine import Undecided, solve
from .puzzle import Cage, Cell, Grid, Puzzle, PuzzleError

COST_SCALE = 100
"""RC2 weighs soft clauses in integers: a cost c weighs 1 + round(COST_SCALE · c)."""
PROOF_CONFLICTS = 20_000
"""Most conflicts the SAT solver may spend on one question while a choice is solved and proved
unique (about a second); a choice it cannot settle within them is passed over, as the search's time
budget cannot interrupt that solver."""


@dataclass(frozen=True)
class Found:
    """What :func:`cheapest_unique` settled on (see the module docstring)."""

    status: str
    picks: tuple[int, ...] | None
    solution: Grid | None
    rounds: int


def cheapest_unique(size: int, layout: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
                    *, operators_shown: bool = True, calcudoku: bool | None = None, max_changes: int = 3,
                    rounds: int = 30, budget_s: float = 2.0, patience_s: float | None = None) -> Found:
    """The cheapest choice of one ``(op, target, cost)`` per cage of ``layout`` (cells per cage)
    whose puzzle has exactly one solution. Alternatives the engine cannot encode (impossible clues)
    are never chosen. Raises PuzzleError when the layout itself is not a puzzle. ``patience_s``: see
    the module docstring (``budget_s`` when not given)."""
    clock = _ThreadClock()
    patience_s = budget_s if patience_s is None else min(patience_s, budget_s)
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
            if clock.seconds() >= budget_s:  # encoding counts too: a misread 16×16's took 8 s, then gave up
                return Found("gave up", None, None, 0)
            try:
                enc = encode_cage(Cage(cells, op, target), size, lmd, top)
            except PuzzleError:
                cage_selectors.append(None)
                continue
            top = enc.top
            _hard(wcnf, enc.clauses, top)
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
        _hard(wcnf, cap.clauses, cap.nv)
    tried = 0
    status = "none"
    while tried < rounds:
        limit = patience_s if tried else budget_s
        if clock.seconds() >= limit:
            break
        # A fresh solver every round, the choices already tried blocked in the formula: RC2Stratified
        # loses choices when a clause is added between calls (pysat issue #203; realdev Blog28 had
        # its right reading, one change away, reported as 'no choice left').
        with (RC2Stratified if wcnf.soft else RC2)(wcnf) as rc2:  # the stratified form needs a soft clause
            with clock.watchdog(limit, rc2.interrupt):
                model = rc2.compute(expect_interrupt=True)
            if rc2.interrupted:
                break
        if model is None:
            return Found(status, None, None, tried)
        true = set(lit for lit in model if lit > 0)
        picks = tuple(next(k for k, s in enumerate(sels) if s is not None and s in true) for sels in selectors)
        tried += 1
        cages = tuple(Cage(cells, alts[k][0], alts[k][1]) for cells, alts, k in zip(layout, alternatives, picks))
        try:
            result = solve(Puzzle(size, cages, operators_shown, None, calcudoku), conflicts=PROOF_CONFLICTS)
        except Undecided:  # too hard to settle: no reading to give, and not a reason to stop looking
            wcnf.append([-sels[k] for sels, k in zip(selectors, picks)])
            continue
        if result.status == "unique":
            return Found("unique", picks, result.solution, tried)
        status = "multiple" if result.status == "multiple" else status
        wcnf.append([-sels[k] for sels, k in zip(selectors, picks)])
    return Found("gave up", None, None, tried)


class _ThreadClock:
    """Processor seconds the creating thread has used since this clock was made (wall seconds where
    the platform has no per-thread clock)."""

    POLL_S = 0.005

    def __init__(self) -> None:
        try:
            self._id: int | None = time.pthread_getcpuclockid(threading.get_ident())
        except (AttributeError, OSError):
            self._id = None
        self._start = self._now()

    def _now(self) -> float:
        return time.perf_counter() if self._id is None else time.clock_gettime(self._id)

    def seconds(self) -> float:
        """Seconds used since the clock was made (readable from any thread)."""
        return self._now() - self._start

    def watchdog(self, budget_s: float, interrupt) -> "_Watchdog":
        """A context in which ``interrupt()`` is called once, from another thread, as soon as the
        clock passes ``budget_s``."""
        return _Watchdog(self, budget_s, interrupt)


class _Watchdog:
    """See :meth:`_ThreadClock.watchdog`."""

    def __init__(self, clock: _ThreadClock, budget_s: float, interrupt) -> None:
        self._clock, self._budget, self._interrupt = clock, budget_s, interrupt
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._done.wait(_ThreadClock.POLL_S):
            if self._clock.seconds() >= self._budget:
                self._interrupt()
                return

    def __enter__(self) -> "_Watchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()


def _hard(wcnf: WCNF, clauses, top: int) -> None:
    """Add ``clauses`` (variables up to ``top``) to ``wcnf`` as hard clauses, at once: PySAT's
    ``WCNF.append`` finds each clause's largest variable in Python, which took about a quarter
    of the search's time on a hard photo's thousands of alternatives (about a million clauses)."""
    wcnf.hard.extend(map(list, clauses))
    wcnf.nv = max(wcnf.nv, top)


def _at_most_one(wcnf: WCNF, literals: list[int], top: int) -> int:
    """Add 'at most one of ``literals``' as hard clauses; returns the new top variable."""
    if len(literals) < 2:
        return top
    encoding = EncType.pairwise if len(literals) <= 10 else EncType.seqcounter
    card = CardEnc.atmost(literals, bound=1, top_id=top, encoding=encoding)
    _hard(wcnf, card.clauses, card.nv)
    return max(top, card.nv)
