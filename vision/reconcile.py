"""The solver in the loop: turn what was read into a puzzle with exactly one solution, or say why not.

Input: the cage partition and, for every cage, the clue alternatives the reader saw (best first, with
probabilities). First every alternative that no digits can make is dropped (``3−`` on a 4×4 cage,
``7÷`` on a 6×6, a product with a prime factor above N; ``−`` and ``÷`` on three or more cells
unless the puzzle looks like a Calcudoku: such a reading at least CALCUDOKU_SHARE as likely as the
cage's best). Then weighted MaxSAT
(:func:`solver.alternatives.cheapest_unique`, PySAT's RC2) finds the likeliest choice of one
alternative per cage — the cost of an alternative is how much less likely it is than the cage's best
reading — that has a solution, within a cap on changes (MAX_CHANGES, or CHANGE_SHARE of the cages on
large puzzles); the engine proves it unique, or the choice is blocked and the next one tried. So
several misread clues are repaired at once, as long as the right clue is among each one's
alternatives. When none of the reader's alternatives gives exactly one solution within
FIRST_BUDGET_S, the answer of a search over a wider list (``wider``: every clue the cage can carry,
scored against its label, down to far less likely ones) is taken, which has a budget of its own
(WIDE_BUDGET_S) and more changes allowed and goes in steps (WIDE_STEPS: the alternatives nearest
each cage's best first): on a blurred photo the printed clue is often far down the list. The two
searches do not depend on each other, so the wider one runs beside the first on the other core
(:mod:`vision.forked`) and is dropped when the first settles the puzzle: the answer is the same as
one after the other, in about half the time on a photo neither settles quickly. On grids of ten and more every budget
is scaled by (N / 9)³ (BIG_FROM). In a puzzle that prints operators,
a cage settled with its operator unknown gets the one its digits in the solution make
(:func:`_name_operators`). In such a puzzle a clue the search changed then becomes, of the clues the solution's digits
make in its cage, the one its label looks most like, when that keeps the solution the only one
(:func:`_fitted_to_label`). Every change is reported. A result is
*confident* only when the puzzle has exactly one solution, nothing was changed and every clue and
wall was read with high probability — a solution found by guessing is never called certain.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from solver import Cage, Puzzle, PuzzleError, solve
from solver.alternatives import FREE, Effort, Found, cheapest_unique
from solver.cage_tuples import TooManyTuples, allowed_tuples, satisfies
from solver.engine import Undecided
from solver.generator import GeneratorOptions, clue_choices
from solver.puzzle import Grid, cell_name, clue_problem

from .clue_candidates import clue_text
from .forked import ForkedCall, ForkedCallFailed, forked
from .model import Cell

MAX_CHANGES = 3
"""Changes always allowed; more on large puzzles (CHANGE_SHARE of the cages read)."""
CHANGE_SHARE = 0.25
MAX_TRIES = 40
"""Readings with a solution tried (each proved unique or not) before giving up."""
TIME_BUDGET_S = 1.0
"""Seconds of :class:`solver.alternatives.Effort` (work, as the machine it was calibrated on does it
in a second of processor time) of the search for a reading with exactly one solution when there is
no wider list."""
FIRST_BUDGET_S = 0.5
"""The budget of the search over the reader's shorter list of alternatives when there is a wider
list (``wider``), whose search has WIDE_BUDGET_S of its own. Measured with the true corners and
cages (held-out seed 9090; tuning seed 700), boards exact: hard 59 → 63 and 58 → 59, hand-held
86 → 86 and 87 → 88 against the first search alone; searching only the wider list lost hand-held
boards (86 → 85: more readings with one solution to choose among, and a cheaper wrong one found
first). Until the forty-third round the wider search came after the first and had what was left of
TIME_BUDGET_S, and a first search still looking for its first choice at FIRST_BUDGET_S ran on to
TIME_BUDGET_S, leaving the wider one nothing. With the two side by side each has its own half: on
the captured readings of seeds 8383 and 7474 (600 photos) the first search's run-on had found no
reading the wider search did not, and the wider search with its own half found one more board
exact (hard k8383-0016) and gave two photos read wrongly one solution where they had none (neither
confident); the solver's 95th-percentile time on them 1.76 → 1.07 s on this machine (estimated
from the two searches' times)."""
WIDE_BUDGET_S = 0.3
"""The budget of the search over the wider list (see FIRST_BUDGET_S). Half a second until the
forty-fourth round: on the slowest photos the first search proves quickly that no choice of its
list has one solution and the reading then waits for this one. Replayed on the captured readings
of seeds 8383 and 7474 (600 photos): at 0.3 every answer is the same as at 0.5, and the solver's
95th-percentile time 1.37 → 1.07 s on this machine (86 held-out photos of seed 6161: the same
answers, 1.08 → 0.66 s); at 0.2 the board of hard k8383-0016 is lost, which the wider search finds
late. The first search's budget cannot be cut so: at 0.4 hard k8383-0051's board is lost. Raised, on
the captured readings of seeds 8383 and 7474 (the 391 hand-held and hard photos whose cages were
read, fifty-second round): at 1.0 the same boards (183 hand-held, 132 hard, without the label fitting
of :func:`_fitted_to_label`) and the reconciler's 95th-percentile time 1.06 → 2.28 s; at 3.0 three
hard boards more and 8.1 s. Taking the wider search's answer whenever it is cheaper, by the wider
list's costs, than a first-search answer with changes: 8 photos read otherwise, none won, 3 lost."""
PROBE_S = 0.03
"""The first search is tried with this much work first, alone: most readings are settled (or shown
to have no reading with one solution) within it, and a forked child costs the reading time even
when it is killed at once (on this machine's photos of seed 8383, the solver's median 0.056 →
0.096 s with a child forked for every reading). A search that runs out of it is made again from
the start, with FIRST_BUDGET_S, and the wider search beside it: the same answer as without the
try (a search's budget only cuts it short), for PROBE_S more work."""
BIG_FROM = 10
"""Grids from this size up get every search budget (TIME_BUDGET_S, FIRST_BUDGET_S, WIDE_BUDGET_S and
PROBE_S) scaled by the cube of their size over 9's (:func:`_budget`): the Latin square's variables, N³. The
budgets above were measured on grids up to 9×9; on grids of 10 to 16 the first choice RC2 finds
(the puzzle as read is refuted at once, but a model with the likely alternatives free takes
millions of propagations) needs 0.6–7 s of work, so with the budgets unscaled not one reading of
`kensnap corpus --big` with a clue misread was repaired: every search gave up before its first try
(sixty-eighth round)."""
WIDE_CHANGE_SHARE = 0.5
"""CHANGE_SHARE of the search over the wider list."""
AS_READ_CONFLICTS = 20_000
"""Most conflicts the SAT solver may spend on one question about the puzzle as read, when no
reading with exactly one solution was found (about a second; a Kakuro photo read as a 13×13 KenKen
took over ten minutes unbounded). Past it the reading says so and has no solution ('none')."""
RULES_ASSUMED = "Calcudoku rules assumed: a number printed without operator on three or more cells that only − or ÷ can make"
"""Note of a puzzle printed without operators whose rules were inferred from its numbers alone
(:func:`_only_calcudoku`): a guess, so the reading is not confident (a blank Sudoku grid beside a
Kakuro, its thin lines read as labels "1" and "11", was a confident 3×3 on it: kk2727-0075)."""
CONFIDENT_CLUE = 0.5
"""A clue whose best reading is less likely than all its alternatives together makes the reading
not confident, solution or not. Measured: every reading with exactly one solution, no change and no
unread cage was right (86 of 86 on tuning photos, seed 900; 137 of 137 held out, seed 700); at 0.9
only 11 and 13 of them were called confident, at 0.5 77 and 111 (none wrong)."""
CALCUDOKU_SHARE = 0.5
"""A cage of three or more cells read as − or ÷ at least this share as likely as its best reading
makes the puzzle's rules Calcudoku's (where such cages are allowed), so those readings stay among
the alternatives. Before, only a cage whose best reading was − or ÷ did: a blurred "2÷" on a 3-cell
cage read as "2" (0.51) or "2÷" (0.30) was dropped as impossible and the cage settled as "2×",
which has the same single solution (hand-held k3131-0075, k5252-0084). At 0.3 a classic puzzle's
"11+" read "1+" (0.36) or "1÷" (0.13) on a 3-cell cage was settled as "1÷" (hard k3131-0179).
Replayed on seeds 5252 and 3131 (600 photos; chosen on them): hand-held +2, nothing lost."""
CONFIDENT_WALL = 0.9
"""A wall or thin line read with a lower probability than this makes the reading not confident."""


@dataclass(frozen=True)
class Change:
    """One clue the reconciler changed: at the cage whose first cell is ``cell``."""

    cell: Cell
    read: tuple[str, int]
    used: tuple[str, int]
    reason: str

    def describe(self) -> str:
        """'r1c2: read 12+, used 12×' for people."""
        read = "nothing" if self.read == FREE else _clue(*self.read)
        return f"{cell_name(self.cell)}: read {read}, used {_clue(*self.used)} ({self.reason})"


@dataclass(frozen=True)
class Reconciled:
    """The puzzle kensnap settles on and how sure it is."""

    puzzle: Puzzle
    status: str
    """'unique', 'multiple' or 'none' for the settled puzzle."""
    solution: Grid | None
    changes: tuple[Change, ...]
    confident: bool
    tries: int
    notes: tuple[str, ...] = ()


def _clue(op: str, target: int) -> str:
    glyph = {"+": "+", "-": "−", "*": "×", "/": "÷", "?": "?", "=": ""}[op]
    return f"{target}{glyph}"


def reconcile(size: int, cages: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
              operators_shown: bool = True, entries: Grid | None = None, calcudoku: bool | None = None,
              min_wall_probability: float = 1.0,
              wider: Callable[[], list[list[tuple[str, int, float]]]] | None = None,
              score: Callable[[int, list[str]], Sequence[float] | None] | None = None) -> Reconciled:
    """Settle the clues of ``cages`` (each with its ``alternatives``, best first) as described above.
    ``wider`` gives a longer list of alternatives per cage (the same cages, the same best readings),
    searched with WIDE_BUDGET_S of its own and more changes allowed, beside the first search (it may
    be called in a forked child, see :mod:`vision.forked`: its answer must pickle); that search's
    answer is taken when none of ``alternatives``' choices within FIRST_BUDGET_S has exactly one
    solution. ``score(i, texts)`` gives how much cage ``i``'s label looks like each clue text (log
    likelihoods, as :func:`vision.label_reader.text_scores`; None when the label cannot be scored):
    with it, in a puzzle that prints operators, a clue the search changed becomes the one its digits
    in the solution make that the label looks most like (:func:`_fitted_to_label`).

    Raises PuzzleError when the cages themselves are not a valid puzzle layout.
    """
    lmd = calcudoku if calcudoku is not None else any(
        len(cells) > 2 and alts and (any(op in "-/" and p >= CALCUDOKU_SHARE * alts[0][2] for op, _, p in alts)
                                     or (not operators_shown and _only_calcudoku(size, cells, alts[0][1])))
        for cells, alts in zip(cages, alternatives))
    options, notes = _options(size, cages, alternatives, operators_shown, lmd)
    first_reading = [(_normalised(cells, *a[0]) if a else ("?", 0, 0.0)) for cells, a in zip(cages, alternatives)]
    read = [i for i, opts in enumerate(options) if opts[0][2] > 0 or opts[0][0] != "?"]
    cap = max(MAX_CHANGES, int(CHANGE_SHARE * len(read)))
    rules = calcudoku if calcudoku is not None else (True if lmd else None)
    # Cages printed without operators do not show which rules they follow: the puzzle says so itself.
    stated = calcudoku if calcudoku is not None or operators_shown else rules
    first = partial(_search, size, cages, options, read, operators_shown, rules, cap)
    found, rounds, most = first(_budget(TIME_BUDGET_S if wider is None else PROBE_S, size)), 0, cap
    if wider is not None:
        wide = partial(_wider_search, size, cages, wider, read, operators_shown, lmd, rules)
        again = None
        if found.status == "gave up" and found.rounds < MAX_TRIES:  # not settled at once: see PROBE_S
            with forked(wide) as beside:
                found = first(_budget(FIRST_BUDGET_S, size))
                if found.status != "unique":
                    again, wide_options, most = _answer(beside, wide)
        elif found.status != "unique":
            again, wide_options, most = wide()
        if again is not None:
            rounds += found.rounds
            if again.status == "unique":
                options = wide_options
            found = again
    rounds += found.rounds
    result = None
    if found.status != "unique":
        as_read = Puzzle(size, tuple(Cage(cages[i], *options[i][0][:2]) for i in read), operators_shown, entries,
                         stated)
        try:
            result = solve(as_read.with_entries(None), conflicts=AS_READ_CONFLICTS)
        except PuzzleError:
            pass
        except Undecided:
            notes.append(f"the puzzle as read was not settled within {AS_READ_CONFLICTS} solver conflicts")
    if found.status == "unique" or (result is not None and result.status == "unique"):
        # The search may give up on a big puzzle before its first round ends (a 9×9 whose first
        # question took its whole budget): the puzzle as read, proven to have one solution, is the
        # cheapest choice there is, as if the search had found it at once.
        picks, solution = (found.picks, found.solution) if found.status == "unique" else ([0] * len(read), result.solution)
        choice = [0] * len(cages)
        for i, k in zip(read, picks):
            choice[i] = k
        # Cages the search left free, and cages nothing plausible was read for, are named from the solution.
        freed = _named_from_solution(cages, options, choice, range(len(cages)), solution, lmd, operators_shown, score)
        read = sorted(set(read) | freed)
        named = _name_operators(cages, options, choice, read, first_reading, solution, lmd) if operators_shown else set()
        build = lambda: Puzzle(size, tuple(Cage(cages[i], *options[i][choice[i]][:2]) for i in read),
                               operators_shown, entries, stated)
        fitted = (_fitted_to_label(build, cages, options, choice, read, first_reading, solution, lmd, score)
                  if score is not None and operators_shown else set())
        named -= fitted
        built = build()
        assumed = calcudoku is None and lmd and not operators_shown
        if assumed:
            notes.append(RULES_ASSUMED)
        return _settled(built, solution, choice, options, first_reading, cages, rounds, notes,
                        min_wall_probability, named, fitted, freed, sure_of_rules=not assumed)
    notes.append(f"no reading with exactly one solution within {most} changes ({rounds} tried, {found.status})")
    return Reconciled(as_read, result.status if result else "none", result.solution if result else None, (),
                      False, rounds, tuple(notes))


def _wider_search(size: int, cages: list[tuple[Cell, ...]],
                  wider: Callable[[], list[list[tuple[str, int, float]]]], read: list[int], operators_shown: bool,
                  lmd: bool, rules: bool | None) -> tuple[Found, list[list[tuple[str, int, float]]], int]:
    """The search over ``wider``'s list (:func:`_widening_search` with WIDE_BUDGET_S of its own
    effort and up to WIDE_CHANGE_SHARE of the ``read`` cages changed): what it found, the (cut)
    options its picks index, and its cap on changes. It depends on nothing the first search does,
    so it runs beside it (:func:`vision.forked.forked`)."""
    options, _ = _options(size, cages, wider(), operators_shown, lmd)
    options = [opts + [(*FREE, 0.0)] if i in read and len(cages[i]) > 1 else opts for i, opts in enumerate(options)]
    most = max(MAX_CHANGES, int(WIDE_CHANGE_SHARE * len(read)))
    found, options = _widening_search(size, cages, options, read, operators_shown, rules, most, Effort(),
                                      _budget(WIDE_BUDGET_S, size))
    return found, options, most


FREE_COST = 20.0
"""The wider search may also leave a cage's clue unknown (:data:`solver.alternatives.FREE`; at most
MAX_FREE cages at once), at this cost (ln, as if the reader found it that much less likely than its
best reading): the label list of a blurred photo sometimes lacks the printed clue altogether
(hard k8383-0260, a 6×6: a 5-cell "1440×" read "1÷", every other clue read right, and no reading with
one solution was found), while most generated puzzles keep their one solution without any one
cage's clue (700 of 739 cages of seed 3939's first 60). The clue is then named from the solution
(:func:`_named_from_solution`). Past WIDE_STEPS' last finite step, so a cage is left free only in
the search over the whole list, when no choice of the list's likelier clues has one solution.
Replayed on the captured readings of the hand-held and hard photos of seeds 8383, 9494, 5151, 4141
and 3939 (987): boards exact 808 → 810 (hard k8383-0260, k5151-0259), none lost; four more solved
right with a clue or a wall still wrong (hand-held k3939-0085 and hard k8383-0070 and k3939-0080,
whose cage partitions are misread, and hand-held k3939-0210), one more solved wrong where there
was no solution (hard k4141-0025); none confident. At 12 (the last finite step) two boards were
won and two lost, at 8 six won and four lost (both measured while an unsure cage's cost of being
left free was still cut like a probability's, so lower): leaving a cage free is then cheaper than
the several right changes some readings need."""


def _named_from_solution(cages, options, choice, read, solution: Grid, lmd: bool, operators_shown: bool,
                         score: Callable[[int, list[str]], Sequence[float] | None] | None) -> set[int]:
    """Each of the ``read`` cages settled without a clue (FREE: left free by the search, or with nothing
    plausible read at all) gets, of the clues its digits in the unique ``solution`` make, the one its
    label looks most like by ``score`` (without scores: the likeliest by ``options``, then the first).
    The solution stays the only one: it was unique without the cage, and the named clue holds for
    it. Updates ``options`` and ``choice``; returns the cages named."""
    named = set()
    for i in read:
        if options[i][choice[i]][:2] != FREE:
            continue
        cells, p = cages[i], options[i][choice[i]][2]
        values = tuple(solution[r][c] for r, c in cells)
        fits = _clues_made(cells, values, len(solution), lmd)
        fits = fits or [("+", sum(values))]
        if not operators_shown:
            fits = list(dict.fromkeys(("?", target) for _, target in fits))
        scores = score(i, [clue_text(*a) for a in fits]) if score is not None else None
        likely = {(o, t): q for o, t, q in options[i]}
        order = (lambda j: scores[j]) if scores is not None else (lambda j: (likely.get(fits[j], 0.0), -j))
        best = fits[max(range(len(fits)), key=order)]
        options[i] = options[i] + [(*best, p)]
        choice[i] = len(options[i]) - 1
        named.add(i)
    return named


def _clues_made(cells: tuple[Cell, ...], values: tuple[int, ...], size: int, lmd: bool) -> list[tuple[str, int]]:
    """The ``(op, target)`` clues the digits ``values`` make in the cage of ``cells`` that are
    possible there on an N = ``size`` grid."""
    made = GeneratorOptions(size=size, calcudoku=lmd, max_product=math.inf)
    return [a[:2] for a in clue_choices(values, made) if clue_problem(Cage(cells, *a[:2]), size, lmd) is None]


MAX_FREE = 1
"""Cages the search may leave free at once (see FREE_COST). A photo cut through a 9×9's last column
(read as an 8×8) had one solution with five of its clues free and named from it — a made-up
puzzle's; with one it has none, and the reading says the photo may be cut off."""


FREED_REASON = "no clue its label could be read as fits; named from the solution the other clues settle"


def _budget(seconds: float, size: int) -> float:
    """A search's budget on a grid of ``size``: ``seconds`` up to 9×9, scaled by (size / 9)³ from
    BIG_FROM up (see there)."""
    return seconds if size < BIG_FROM else seconds * (size / 9) ** 3


def _answer(beside: ForkedCall | None, search: Callable[[], tuple]) -> tuple:
    """What ``search`` gives: as the forked child ``beside`` computed it, or, without a child or when
    it gave no answer, computed here (the same answer: see :mod:`vision.forked`)."""
    if beside is not None:
        try:
            return beside.result()
        except ForkedCallFailed:
            pass
    return search()


def _options(size: int, cages: list[tuple[Cell, ...]], alternatives: list[list[tuple[str, int, float]]],
             operators_shown: bool, lmd: bool) -> tuple[list[list[tuple[str, int, float]]], list[str]]:
    """Each cage's choices, likeliest first (single cells' clues as given digits, an unseen operator as
    every operator, impossible clues dropped, the same clue read twice added up; ``("?", 0, 0.0)``
    when nothing is left), and notes on best readings that are impossible."""
    options: list[list[tuple[str, int, float]]] = []
    notes: list[str] = []
    for cells, alts in zip(cages, alternatives):
        alts = [_normalised(cells, op, target, p) for op, target, p in alts]
        if operators_shown and len(cells) > 1:
            alts = sorted((x for a in alts for x in _unseen_operator(a)), key=lambda a: -a[2])
        plausible = [a for a in alts if clue_problem(Cage(cells, a[0], a[1]), size, lmd) is None]
        if alts and plausible and plausible[0] != alts[0]:
            notes.append(f"{cell_name(min(cells))}: {_clue(*alts[0][:2])} is impossible here")
        options.append(_unique(plausible) or [("?", 0, 0.0)])
    return options, notes


LEAST_P = 1e-9
"""An alternative's probability is taken as at least this when its cost is worked out (ln of the
first's over it). At 1e-6, every alternative under it cost the same, so the search could not tell
a change the reader found unlikely from one it found far less likely (hard k3131-0159: "7÷", a bare
"7" and a given "1" were changed to "7+", "7+" and "2"; at 1e-9 the search takes the printed "2−"
and "1−" and leaves the "1"; over seeds 8383, 7474, 6161, 5252 and 3131, hard 317 → 318 boards
exact, none lost)."""


def _search(size: int, cages: list[tuple[Cell, ...]], options: list[list[tuple[str, int, float]]], read: list[int],
            operators_shown: bool, calcudoku: bool | None, cap: int, budget_s: float,
            effort: Effort | None = None) -> Found:
    """:func:`solver.alternatives.cheapest_unique` over the ``read`` cages' ``options``, each costing
    how much less likely it is than the cage's first (``budget_s`` and ``effort`` as there)."""
    costs = [[(op, target, _cost(options[i], k)) for k, (op, target, _) in enumerate(options[i])] for i in read]
    return cheapest_unique(size, [cages[i] for i in read], costs, operators_shown=operators_shown,
                           calcudoku=calcudoku, max_changes=cap, rounds=MAX_TRIES, budget_s=max(0.0, budget_s),
                           effort=effort, max_free=MAX_FREE)


WIDE_STEPS = (4.0, 8.0, 12.0)
"""The wider list is searched in steps: first only the alternatives at most WIDE_STEPS[0] less
likely (ln) than each cage's best, then up to the next step, and so on, then all. RC2 finds a
choice among a hundred alternatives in a fraction of the time it needs among several hundred (hard
k8383-0177, a 6×6: the right reading in 0.27 s among the 148 within 12 of the best; 4.4 s among
all 460). A choice found in a step whose cost is at most the step is the cheapest of the whole
list (any choice with a cut alternative costs more), so the search stops; one that costs more is
kept while the next step looks for a cheaper one. Replayed on the captured readings of the five
sets' hand-held and hard photos: 1 hand-held and 4 hard boards more exact, none lost. Steps of
3, 6, 9 and 12 read the same boards."""


def _widening_search(size: int, cages: list[tuple[Cell, ...]], options: list[list[tuple[str, int, float]]],
                     read: list[int], operators_shown: bool, calcudoku: bool | None, cap: int,
                     effort: Effort, budget_s: float) -> tuple[Found, list[list[tuple[str, int, float]]]]:
    """:func:`_search` over ``options`` cut at each of WIDE_STEPS in turn (see there), until ``effort``
    has spent ``budget_s``; returns what was found and the (cut) options its picks index."""
    rounds, kept, searched = 0, None, None
    best = Found("none", None, None, 0), options
    for step in WIDE_STEPS + (math.inf,):
        left = budget_s - effort.seconds()
        if left <= 0:
            break
        cut = [_within(opts, step) if i in read else opts for i, opts in enumerate(options)]
        sizes = [len(c) for c in cut]
        if sizes == searched:
            continue
        searched = sizes
        found = _search(size, cages, cut, read, operators_shown, calcudoku, cap, left, effort=effort)
        rounds += found.rounds
        if found.status == "unique":
            cost = sum(_cost(cut[i], k) for i, k in zip(read, found.picks))
            if kept is None or cost < kept:
                kept, best = cost, (found, cut)
            if cost <= step:
                break
        elif kept is None:
            best = found, cut
    found, cut = best
    return Found(found.status, found.picks, found.solution, rounds), cut


def _cost(opts: list[tuple[str, int, float]], k: int) -> float:
    """How much less likely (ln) the ``k``-th alternative is than the first (as :func:`_search`);
    FREE_COST for leaving the cage free (FREE)."""
    if k and opts[k][:2] == FREE:
        return FREE_COST
    return math.log(max(opts[0][2], LEAST_P)) - math.log(max(opts[k][2], LEAST_P))


def _within(opts: list[tuple[str, int, float]], step: float) -> list[tuple[str, int, float]]:
    """The alternatives at most ``step`` less likely than the first (the first always)."""
    return [a for k, a in enumerate(opts) if k == 0 or _cost(opts, k) <= step]


def _settled(puzzle, solution, choice, options, first_reading, cages, tries, notes, min_wall,
             named: set[int] = frozenset(), fitted: set[int] = frozenset(), freed: set[int] = frozenset(),
             sure_of_rules: bool = True) -> Reconciled:
    """The result for a choice that gives exactly one solution (``named``: the cages whose operator
    :func:`_name_operators` named; ``fitted``: the cages whose clue :func:`_fitted_to_label` chose;
    ``freed``: the cages left without a clue by the search and named by :func:`_named_from_solution`;
    ``sure_of_rules``: False when the rules were assumed, which
    makes the result not confident)."""
    changes = []
    for i, k in enumerate(choice):
        used = options[i][k][:2]
        read = first_reading[i][:2]
        if used != read:
            if i in freed:
                reason = FREED_REASON
            elif i in named:
                reason = "its operator was named from the solution"
            elif i in fitted:
                reason = FITTED_REASON
            elif k:
                reason = "the solver needed it"
            elif read[0] == "?" and read[1] == used[1]:
                reason = "its operator was not seen"
            else:
                reason = "the reading is impossible"
            changes.append(Change(min(cages[i]), read, used, reason))
    weakest = min((options[i][k][2] for i, k in enumerate(choice)), default=1.0)
    confident = not changes and weakest >= CONFIDENT_CLUE and min_wall >= CONFIDENT_WALL and sure_of_rules
    if not changes and not confident and sure_of_rules:
        notes = list(notes) + ["exactly one solution, but some clues or walls were read with low confidence"]
    return Reconciled(puzzle, "unique", solution, tuple(changes), confident, tries, tuple(notes))


LOOKALIKE = {"+": "*", "*": "+", "-": "/", "/": "-"}
"""The operator a blurred glyph is most often read as instead (a turned cross; a bar with or
without its dots)."""


def _name_operators(cages, options, choice, read, first_reading, solution, lmd: bool) -> set[int]:
    """In a puzzle that prints operators, a cage settled with its operator unknown (``?``: the
    label's operator was not seen, or every operator was as unlikely) gets the one its digits in
    the unique ``solution`` make — the likeliest by ``options``, then the look-alike of the operator
    read, then UNSEEN_OPERATOR's order, when several do. The solution stays the only one (a named
    operator allows fewer digits than ``?``). Updates ``options`` and ``choice``; returns the cages
    named. (Clean k6161-0056: "2×" read "2+" at 0.98, impossible on two cells, settled as "2?".)"""
    named = set()
    for i in read:
        op, target, p = options[i][choice[i]]
        cells = cages[i]
        if op != "?" or len(cells) < 2:
            continue
        values = tuple(solution[r][c] for r, c in cells)
        fits = [o for o in "+-*/" if satisfies(o, target, values, lmd)]
        if not fits:
            continue
        likely = {(o, t): q for o, t, q in options[i]}
        seen = LOOKALIKE.get(first_reading[i][0])
        best = max(fits, key=lambda o: (likely.get((o, target), 0.0), o == seen, UNSEEN_OPERATOR[o]))
        options[i] = options[i] + [(best, target, likely.get((best, target), p))]
        choice[i] = len(options[i]) - 1
        named.add(i)
    return named


def _fitted_to_label(build: Callable[[], Puzzle], cages, options, choice, read, first_reading,
                     solution: Grid, lmd: bool,
                     score: Callable[[int, list[str]], Sequence[float] | None]) -> set[int]:
    """Each changed clue of a settled puzzle becomes, of the clues its cage's digits in the unique
    ``solution`` make, the one its label looks most like by ``score`` (by FITTED_MARGIN at least), when
    that one keeps the solution the only one (proved by the engine). The search chose among the reader's alternatives
    by their probabilities, and settles the solution; the clue it changed is then one of the few the
    solution allows, and the label is a good judge among those few — also of clues the wider list
    never held, and of an operator named from the solution by :func:`_name_operators`' fixed order
    (hard k8383-0240: "2?" named "2−" on 4 and 2, printed "2÷", which its label scores far above).
    Called only for a puzzle that prints operators: where a label is a bare number, its column
    scores can disagree with the reader's own probabilities (Tesseract's among them), and the one
    such case seen went wrong (hard k3131-0043: the search chose the printed "1", the label scored
    "2" 9 higher). ``build()`` makes the puzzle of the current ``choice``. Updates ``options`` and
    ``choice``; returns the cages given another clue."""
    fitted = set()
    for i in read:
        k = choice[i]
        op, target, p = options[i][k]
        cells = cages[i]
        if len(cells) < 2 or (op, target) == first_reading[i][:2]:
            continue
        values = tuple(solution[r][c] for r, c in cells)
        fits = _clues_made(cells, values, len(solution), lmd)
        fits = [a for a in fits if a != (op, target)]
        if not fits:
            continue
        scores = score(i, [clue_text(*a) for a in [(op, target)] + fits])
        if scores is None:
            continue
        best = int(max(range(len(fits)), key=lambda j: scores[j + 1]))
        if scores[best + 1] < scores[0] + FITTED_MARGIN:
            continue
        options[i] = options[i] + [(*fits[best], p)]
        choice[i] = len(options[i]) - 1
        try:
            unique = solve(build().with_entries(None), conflicts=AS_READ_CONFLICTS).status == "unique"
        except (PuzzleError, Undecided):
            unique = False
        if unique:
            fitted.add(i)
        else:
            options[i], choice[i] = options[i][:-1], k
    return fitted


FITTED_REASON = "of the clues the solution allows here, the label looks most like this"
FITTED_MARGIN = math.log(10)
""":func:`_fitted_to_label` takes another clue only when the label looks at least ten times more like
it (its log likelihood this much higher) than like the clue the search chose: the search weighed the
reader's own probabilities (its beam search and Tesseract), which a near tie of the label's column
scores should not overturn. On seeds 8383, 7474 and 6161 the boards it won were by 6.5–35 (hard
k8383-0240, k8383-0170, k7474-0179), and the one it lost by 0.03 (hard k6161-0197: "12+" and "36×"
on 1, 3, 1, 4, 3, the printed "12+" chosen by the search). Seeds 5252 and 3131, read after the
margin was set: hand-held k3131-0282 and hard k3131-0123 and -0196 won, hard k3131-0043 lost (a
puzzle printed without operators, since left alone; see :func:`_fitted_to_label`)."""


def _only_calcudoku(size: int, cells: tuple[Cell, ...], target: int) -> bool:
    """Whether a number printed without an operator on these cells (three or more) is made by some
    digits only under Calcudoku's rules, with − or ÷: then the puzzle follows them (a "1" on three
    cells of a column, hidden-operator Calcudoku k6161-0046, was taken as impossible and changed,
    with three more clues, into a wrong reading with one solution)."""
    if len(cells) < 3:
        return False
    cage = Cage(tuple(cells), "?", target)
    try:
        return not allowed_tuples(cage, size, False) and bool(allowed_tuples(cage, size, True))
    except (TooManyTuples, PuzzleError):
        return False


def _normalised(cells, op: str, target: int, p: float) -> tuple[str, int, float]:
    """A single cell's clue is a given digit, whatever operator was read next to it; a bare number
    on a larger cage means its operator was not seen (``?``)."""
    if len(cells) == 1:
        return ("=", target, p)
    return ("?", target, p) if op == "=" else (op, target, p)


UNSEEN_OPERATOR = {"-": 0.4, "+": 0.2, "*": 0.2, "/": 0.2, "?": 0.02}
"""When a puzzle prints operators and a cage's label reads as a bare number, its operator was lost
(a thin − most often): each operator, or none at all, is an alternative at these shares."""


def _unseen_operator(alt: tuple[str, int, float]) -> list[tuple[str, int, float]]:
    """A bare-number alternative (``?``) as one alternative per operator (see UNSEEN_OPERATOR)."""
    op, target, p = alt
    if op != "?":
        return [alt]
    return [(o, target, p * share) for o, share in UNSEEN_OPERATOR.items()]


def _unique(alts: list[tuple[str, int, float]]) -> list[tuple[str, int, float]]:
    """Alternatives without repeated clues, most likely first: readings that name the same clue add
    up (they are different texts of one label — "2÷" read outright, and "2" with its operator
    unseen, taken as ÷ — so the clue is as likely as both together)."""
    total: dict[tuple[str, int], float] = {}
    for op, target, p in alts:
        total[(op, target)] = total.get((op, target), 0.0) + p
    return sorted(((op, target, min(1.0, p)) for (op, target), p in total.items()), key=lambda a: -a[2])
