"""Random Kakuro puzzles that have exactly one solution.

Algorithm. A *layout* is drawn first: the first row and column hold no white cell; from an all-white
inner area, blocks are added in 180°-symmetric pairs (as printed puzzles have them) where the layout
stays legal — every white cell in an across and a down run of at least two cells, one connected
group — first to cut runs longer than ``max_run``, then until ``blocks`` of the inner area is
blocked. A *fill* puts a digit in every white cell with no digit twice in a run (backtracking, fewest
choices first, each run leaning to small or large digits), then a hill-climb moves digits so the
runs' sums allow few combinations. Every run's clue is the sum of its digits.

Such a puzzle has the fill as one solution, usually among several; it is then *repaired*, like the
KenKen generator's. While the engine finds another solution, it looks for one that differs only near
a cell of it (a *local ambiguity*: the fill is assumed elsewhere), then

* *soft*: a cell of the ambiguity gets another digit, drawn with weight 2^-combinations of its two
  new clues, preferring a change after which no solution differs only near it (asked of the
  engine); the other solution no longer fits;
* *refill*: when cells keep coming back (``stuck`` times), the runs through the ambiguity get new
  random digits;
* *hard*: when a cell was refilled ``refills`` times, a cell of those runs becomes a block (the one
  costing the fewest other white cells), so repairs end. A layout that loses more than MAX_LOSS of
  its white cells this way starts again (RETRIES times, then any loss is accepted).

One SAT solver serves a whole repair: runs are swapped in and out by activation literals and each
question blocks the fill with a guarded clause over the current white cells. A question the engine
cannot decide within ``search_budget`` conflicts is treated like a stuck ambiguity in the run with
the most combinations. The puzzle is returned only once the engine has proved the fill its only
solution. Everything random comes from one ``random.Random(seed)``: a seed always gives the same
puzzle.

Import usage::

    from solver.kakuro.generator import KakuroOptions, generate_kakuro
    made = generate_kakuro(KakuroOptions(rows=12, cols=12), seed=7)
    made.puzzle, made.solution, made.repairs
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from math import log2
from typing import Iterator

from ..engine import elapsed_ms
from ..puzzle import Cell, Grid
from .encoding import encode_run
from .engine import KakuroEngine
from .model import BLOCK, MAX_RUN, WHITE, Clue, KakuroPuzzle, Run, combinations, white_groups

MIN_GEN_SIDE, MAX_GEN_SIDE = 3, 15
Whites = frozenset[Cell]


@dataclass(frozen=True)
class KakuroOptions:
    """What kind of Kakuro to make. Raises ValueError for settings no puzzle can meet."""

    rows: int = 9
    """R, counting the first row of clue cells (3..15)."""
    cols: int = 9
    """C, counting the first column of clue cells (3..15)."""
    blocks: float = 0.3
    """Share of the inner cells drawn as blocks before the layout is made legal."""
    max_run: int = 7
    """No run has more cells than this (2..9). Runs of eight and nine cells are legal but make
    ambiguities that only blocks remove (their digits are nearly fixed sets, only the order is free)."""
    stuck: int = 2
    """How often a cell may lie in a found ambiguity and still get a soft repair (another digit);
    past it the runs through the ambiguity get new random digits (a refill)."""
    refills: int = 4
    """How often a cell may be refilled; past it one of the ambiguity's cells becomes a block."""
    search_budget: int | None = 20_000
    """SAT conflicts per uniqueness question; past it a hard repair is made (None: no limit)."""

    def __post_init__(self) -> None:
        for key in ("rows", "cols"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not MIN_GEN_SIDE <= value <= MAX_GEN_SIDE:
                raise ValueError(f"{key} must be a whole number from {MIN_GEN_SIDE} to {MAX_GEN_SIDE}, not {value!r}")
        if not 0 <= self.blocks < 0.8:
            raise ValueError(f"blocks must be a share from 0 to 0.8, not {self.blocks!r}")
        if isinstance(self.max_run, bool) or not isinstance(self.max_run, int) or not 2 <= self.max_run <= MAX_RUN:
            raise ValueError(f"max_run must be a whole number from 2 to {MAX_RUN}, not {self.max_run!r}")
        if self.search_budget is not None and self.search_budget < 1:
            raise ValueError(f"search_budget must be at least 1 conflict (or None), not {self.search_budget!r}")


@dataclass(frozen=True)
class GeneratedKakuro:
    """A generated Kakuro with its unique solution (digits on white cells, None elsewhere)."""

    puzzle: KakuroPuzzle
    solution: Grid
    seed: int
    repairs: int
    """How many digits were changed or cells blocked before the puzzle became unique."""
    time_ms: float = field(default=0.0, compare=False)


# -- the layout ----------------------------------------------------------------------------------
def random_layout(options: KakuroOptions, rng: random.Random, attempts: int = 30) -> Whites:
    """The white cells of a legal random layout: from an all-white inner area, blocks are added in
    180°-symmetric pairs at random places — first inside runs longer than ``max_run``, then anywhere
    until ``blocks`` of the inner cells are blocks. A pair is kept when the white cells it leaves
    alone in a direction (blocked too) are at most two and the rest stays one connected group. When
    no place is left for a long run, the layout starts again; after ``attempts`` it is made legal by
    force (:func:`legal`)."""
    rows, cols = options.rows, options.cols
    inner = {(r, c) for r in range(1, rows) for c in range(1, cols)}
    for _ in range(attempts):
        whites, tried = set(inner), set()
        while True:
            long_runs = [run for run in _segments(whites) if len(run) > options.max_run]
            if long_runs:
                pool = sorted({cell for run in long_runs for cell in run[2:-2]} - tried)
            elif len(inner) - len(whites) < options.blocks * len(inner):
                pool = sorted(whites - tried)
            else:
                return frozenset(whites)
            if not pool:
                break
            cell = rng.choice(pool)
            pair = {cell, _mirror(cell, rows, cols)}
            tried |= pair
            after = _settled(whites - pair)
            if after and len(whites) - len(after) <= len(pair) + 2 and len(white_groups(after)) == 1:
                whites, tried = after, set()
        if not long_runs:
            return frozenset(whites)
    return legal(whites, options, rng)


def _settled(whites: set[Cell]) -> set[Cell]:
    """The white cells without those left alone in a direction (repeatedly)."""
    whites = set(whites)
    while lonely := {cell for cell in whites if _alone(cell, whites)}:
        whites -= lonely
    return whites


def _mirror(cell: Cell, rows: int, cols: int) -> Cell:
    """The cell 180° around the centre of the inner (R-1)×(C-1) area."""
    return rows - cell[0], cols - cell[1]


def legal(whites: set[Cell], options: KakuroOptions, rng: random.Random) -> Whites:
    """The white cells made legal: runs no longer than ``max_run`` (a random inner cell becomes a
    block), no one-cell run, one connected group (the largest)."""
    whites = set(whites)
    changed = True
    while changed:
        changed = False
        for run in _segments(whites):
            if len(run) > options.max_run:
                whites.discard(run[rng.randrange(2, len(run) - 2)] if len(run) > 4 else run[len(run) // 2])
                changed = True
        lonely = {cell for cell in whites if _alone(cell, whites)}
        if lonely:
            whites -= lonely
            changed = True
        groups = white_groups(whites)
        if len(groups) > 1:
            whites = max(groups, key=lambda g: (len(g), min(g)))
            changed = True
    return frozenset(whites)


def _alone(cell: Cell, whites: set[Cell]) -> bool:
    """True when the white cell has no white neighbour across, or none down."""
    r, c = cell
    return not ({(r, c - 1), (r, c + 1)} & whites) or not ({(r - 1, c), (r + 1, c)} & whites)


def _segments(whites) -> list[list[Cell]]:
    """Every maximal across and down line of white cells."""
    out = []
    for dr, dc in ((0, 1), (1, 0)):
        for cell in sorted(whites):
            if (cell[0] - dr, cell[1] - dc) in whites:
                continue
            run, nxt = [], cell
            while nxt in whites:
                run.append(nxt)
                nxt = (nxt[0] + dr, nxt[1] + dc)
            out.append(run)
    return out


# -- the fill -------------------------------------------------------------------------------------
def random_fill(whites: Whites, rng: random.Random, fixed: dict[Cell, int] | None = None,
                node_limit: int = 20_000) -> dict[Cell, int]:
    """A digit for every white cell, no digit twice in a run, keeping the digits of ``fixed`` (which
    must be part of some fill): backtracking on the cell with the fewest digits left; restarts after
    ``node_limit`` steps.

    Digits are drawn with weights that lean each run to small or to large digits (a random *lean*
    per run, crossing runs mix): sums near the ends of their range allow few combinations, which is
    what makes a fill the only solution of its clues (and what printed Kakuro lean on too).
    """
    peers = _peers(whites)
    lean = {tuple(run): rng.choice((-1.0, -1.0, 1.0, 1.0, 0.0)) for run in _segments(whites)}
    tilt = {cell: 0.0 for cell in whites}
    for run, direction in lean.items():
        for cell in run:
            tilt[cell] += direction
    while True:
        fill: dict[Cell, int] = dict(fixed or {})
        nodes = [0]

        def extend() -> bool:
            if len(fill) == len(whites):
                return True
            nodes[0] += 1
            if nodes[0] > node_limit:
                return False
            options = {cell: [v for v in range(1, 10) if all(fill.get(p) != v for p in peers[cell])]
                       for cell in whites if cell not in fill}
            cell = min(options, key=lambda x: (len(options[x]), x))
            for v in _weighted_order(options[cell], tilt[cell], rng):
                fill[cell] = v
                if extend():
                    return True
                del fill[cell]
            return False

        if extend():
            return fill


def _weighted_order(digits: list[int], tilt: float, rng: random.Random) -> list[int]:
    """The digits in a random order where, for ``tilt`` > 0, large digits tend to come first (small
    ones for ``tilt`` < 0; uniform for 0): weighted sampling without replacement."""
    weight = {v: 2.0 ** (tilt * (v - 5) / 2) for v in digits}
    keys = {v: rng.random() ** (1 / weight[v]) for v in digits}
    return sorted(digits, key=lambda v: -keys[v])


def tighten_fill(fill: dict[Cell, int], whites: Whites, rng: random.Random, cells=None,
                 rounds: int = 3) -> dict[Cell, int]:
    """The fill after a hill-climb on its clues' looseness (the sum over runs of log2 of their
    combinations): each of ``cells`` (default: all) in random order takes the digit, among those its
    runs allow, that makes the looseness smallest. Tight clues make the repair loop short."""
    fill = dict(fill)
    runs = [tuple(run) for run in _segments(whites)]
    runs_of: dict[Cell, list[tuple[Cell, ...]]] = {cell: [] for cell in whites}
    for run in runs:
        for cell in run:
            runs_of[cell].append(run)
    cells = sorted(whites if cells is None else cells)
    for _ in range(rounds):
        rng.shuffle(cells)
        for cell in cells:
            taken = {fill[p] for run in runs_of[cell] for p in run if p != cell}
            sums = [sum(fill[p] for p in run) - fill[cell] for run in runs_of[cell]]
            best = None
            for v in range(1, 10):
                if v in taken:
                    continue
                key = (sum(_looseness(len(run), s + v) for run, s in zip(runs_of[cell], sums)), rng.random())
                if best is None or key < best[0]:
                    best = (key, v)
            fill[cell] = best[1]
    return fill


def _looseness(k: int, total: int) -> float:
    """log2 of the combinations of a clue (0 for a clue with one combination)."""
    return log2(max(1, len(combinations(k, total))))


def _peers(whites: Whites) -> dict[Cell, set[Cell]]:
    """For each white cell, the other cells of its across and down runs."""
    peers: dict[Cell, set[Cell]] = {cell: set() for cell in whites}
    for run in _segments(whites):
        for cell in run:
            peers[cell] |= set(run) - {cell}
    return peers


def build(whites: Whites, fill: dict[Cell, int], rows: int, cols: int) -> KakuroPuzzle:
    """The puzzle whose runs are clued with the sums of ``fill`` over the layout ``whites``."""
    def total(r: int, c: int, dr: int, dc: int) -> int | None:
        s, cell = 0, (r + dr, c + dc)
        while cell in whites:
            s += fill[cell]
            cell = (cell[0] + dr, cell[1] + dc)
        return s or None

    grid = []
    for r in range(rows):
        line = []
        for c in range(cols):
            if (r, c) in whites:
                line.append(WHITE)
            else:
                clue = Clue(total(r, c, 1, 0), total(r, c, 0, 1))
                line.append(BLOCK if clue.down is None and clue.across is None else clue)
        grid.append(tuple(line))
    return KakuroPuzzle(rows, cols, tuple(grid))


def solution_grid(puzzle: KakuroPuzzle, fill: dict[Cell, int]) -> Grid:
    """The fill as a solution grid (digits on white cells, None elsewhere)."""
    grid = puzzle.empty_grid()
    for (r, c) in puzzle.whites:
        grid[r][c] = fill[(r, c)]
    return tuple(map(tuple, grid))


# -- uniqueness -----------------------------------------------------------------------------------
class Prover:
    """One engine kept while a puzzle is repaired: asks for a solution other than the fill.

    Cells only ever turn from white to block, so the first layout's variables serve every later one;
    runs are switched by their activation literals (a changed run costs one run encoding, the solver
    keeps what it learnt). Use as a context manager.
    """

    def __init__(self, puzzle: KakuroPuzzle, budget: int | None, rng: random.Random):
        self.engine = KakuroEngine(puzzle, check_clues=False)
        self.literal = self.engine.encoding.literal
        self.activation: dict[Run, int] = dict(zip(puzzle.runs, self.engine.activations))
        self.budget = budget
        self.cells = puzzle.whites
        self.digit_of = {self.literal(cell, v): v for cell in puzzle.whites for v in range(1, 10)}
        self.rng = rng

    def __enter__(self) -> "Prover":
        return self

    def __exit__(self, *exc) -> None:
        self.engine.close()

    def other(self, puzzle: KakuroPuzzle, fill: dict[Cell, int]) -> tuple[str, dict[Cell, int] | None]:
        """('multiple', another fill as near to ``fill`` as :meth:`_nearer` finds), ('unique', None)
        when the engine proves there is none, or ('unknown', None) when the budget ran out first."""
        self._use(puzzle.runs)
        assumptions = [self.activation[run] for run in puzzle.runs]
        same = [self.literal(cell, fill[cell]) for cell in puzzle.whites]
        status, other = self._ask(assumptions, [[-lit for lit in same]])
        if status != "multiple":
            return status, None
        return "multiple", self._nearer(puzzle, assumptions, same, other)

    def _nearer(self, puzzle: KakuroPuzzle, assumptions: list[int], same: list[int],
                other: dict[Cell, int]) -> dict[Cell, int]:
        """Another solution that differs from the fill only near one cell where ``other`` differs, when
        one exists: the fill is assumed outside the cells within one, two or three run steps of that
        cell (a few cheap questions). Such a local ambiguity is what one changed digit removes; a
        solution far from the fill changes every time. Falls back to ``other``."""
        keep = dict(zip(puzzle.whites, same))
        differ = [cell for cell in puzzle.whites if other[cell] != self.digit_of[keep[cell]]]
        for start in self.rng.sample(differ, min(3, len(differ))):
            near = {start}
            for _ in range(3):
                near = {cell for x in near for run in puzzle.runs_through(x) for cell in run.cells}
                fixed = [lit for cell, lit in keep.items() if cell not in near]
                status, local = self._ask(assumptions + fixed, [[-keep[cell] for cell in near]])
                if status == "multiple":
                    return local
        return other

    def locally_unique(self, puzzle: KakuroPuzzle, fill: dict[Cell, int], cell: Cell) -> bool:
        """True when no other solution differs from ``fill`` only within two run steps of ``cell``
        (one cheap question: the fill is assumed everywhere else). Used to pick a soft repair that
        does not simply move the ambiguity next door."""
        self._use(puzzle.runs, retire=False)
        near = {cell}
        for _ in range(2):
            near = {x for y in near for run in puzzle.runs_through(y) for x in run.cells}
        keep = {x: self.literal(x, fill[x]) for x in puzzle.whites}
        fixed = [lit for x, lit in keep.items() if x not in near]
        status, _ = self._ask([self.activation[run] for run in puzzle.runs] + fixed, [[-keep[x] for x in near]])
        return status == "unique"

    def _ask(self, assumptions: list[int], clauses: list[list[int]]) -> tuple[str, dict[Cell, int] | None]:
        """Solve under the assumptions plus ``clauses``, which are guarded by one fresh literal and
        retired afterwards."""
        engine, solver = self.engine, self.engine.solver
        engine.top += 1
        guard = engine.top
        for clause in clauses:
            solver.add_clause([-guard] + clause)
        if self.budget is not None:
            solver.conf_budget(self.budget)
        found = solver.solve_limited(assumptions=assumptions + [guard])
        model = solver.get_model() if found else None
        solver.add_clause([-guard])
        if found is None:
            return "unknown", None
        if not found:
            return "unique", None
        true = set(lit for lit in model if lit > 0)
        return "multiple", {cell: next(v for v in range(1, 10) if self.literal(cell, v) in true)
                            for cell in self.cells}

    def _use(self, runs: tuple[Run, ...], retire: bool = True) -> None:
        """Encode the runs not seen yet and (with ``retire``) switch off for good those not used."""
        engine, wanted = self.engine, set(runs)
        for run in [run for run in self.activation if run not in wanted and retire]:
            engine.solver.add_clause([-self.activation.pop(run)])
        for run in runs:
            if run not in self.activation:
                encoded = encode_run(run, self.literal, engine.top)
                engine.solver.append_formula(encoded.clauses)
                engine.top = encoded.top
                self.activation[run] = encoded.activation


# -- repair ---------------------------------------------------------------------------------------
def soft_repair(puzzle: KakuroPuzzle, fill: dict[Cell, int], other: dict[Cell, int], rng: random.Random,
                accept=None, tries: int = 6) -> dict[Cell, int] | None:
    """A new fill: one cell where ``fill`` and ``other`` differ gets another digit (different from
    its runs' other digits), so ``other`` no longer fits its two clues.

    Changes are drawn with weight 2^-combinations of their two new clues (tight clues first, but
    never the same best change over and over); the first of up to ``tries`` draws that
    ``accept(new_fill, cell)`` approves is taken, else the first draw. None when no differing cell
    can change."""
    choices, weights = [], []
    for cell in (cell for cell in puzzle.whites if fill[cell] != other[cell]):
        runs = puzzle.runs_through(cell)
        taken = {fill[p] for run in runs for p in run.cells if p != cell}
        for v in sorted(set(range(1, 10)) - taken - {fill[cell]}):
            score = sum(len(combinations(len(run.cells), run.total - fill[cell] + v)) for run in runs)
            choices.append((cell, v))
            weights.append(2.0 ** -score)
    if not choices:
        return None
    keys = {i: rng.random() ** (1 / w) for i, w in enumerate(weights)}
    order = sorted(keys, key=lambda i: -keys[i])
    first = None
    for i in order[:tries if accept else 1]:
        cell, v = choices[i]
        changed = dict(fill)
        changed[cell] = v
        first = first or changed
        if accept is None or accept(changed, cell):
            return changed
    return first


def hard_repair(whites: Whites, cells: list[Cell], seen: Counter, options: KakuroOptions,
                rng: random.Random) -> Whites:
    """The layout with one of ``cells`` made a block, then made legal again: the cell whose block
    costs the fewest other white cells, then the one most often ambiguous (``seen``), ties at random.
    Never the same layout."""
    best = None
    for cell in cells:
        after = legal(set(whites) - {cell}, options, random.Random(rng.random()))
        key = (-len(after), -seen[cell], rng.random())
        if best is None or key < best[0]:
            best = (key, after)
    return best[1]


def _loosest(puzzle: KakuroPuzzle) -> list[Cell]:
    """The cells of the run whose clue allows the most combinations (ties: the longest)."""
    run = max(puzzle.runs, key=lambda run: (len(combinations(len(run.cells), run.total)), len(run.cells)))
    return list(run.cells)


# -- the whole job --------------------------------------------------------------------------------
def generate_kakuro(options: KakuroOptions, seed: int) -> GeneratedKakuro:
    """A random Kakuro with exactly one solution (proved by the engine); the same seed, the same puzzle."""
    start = time.perf_counter()
    rng = random.Random(seed)
    repairs, attempt = 0, 0
    while True:  # a layout that hard repairs eat into starts again; after a few tries any will do
        attempt += 1
        made = _attempt(options, rng, max_loss=MAX_LOSS if attempt <= RETRIES else 1.0, framed=attempt <= FRAME_TRIES)
        repairs += made[2]
        if made[0] is not None:
            return GeneratedKakuro(made[0], solution_grid(made[0], made[1]), seed, repairs, elapsed_ms(start))


MAX_LOSS = 0.12
"""Share of its white cells a layout may lose to hard repairs before the generator starts again."""
RETRIES = 6
"""Fresh layouts tried under MAX_LOSS before any loss is accepted."""
FRAME_TRIES = 20
"""Fresh layouts tried before one with an outer line of nothing but blocks is accepted (see
:func:`fills_its_frame`; only narrow puzzles, three or four cells across, need more)."""


def _attempt(options: KakuroOptions, rng: random.Random, max_loss: float,
             framed: bool = True) -> tuple[KakuroPuzzle | None, dict[Cell, int], int]:
    """One layout and fill repaired until unique: (puzzle, fill, repairs), or (None, …) when hard
    repairs took more than ``max_loss`` of the white cells or left fewer than four, or (``framed``)
    left an outer line of nothing but blocks (:func:`fills_its_frame`)."""
    whites = random_layout(options, rng)
    floor = max(4, (1 - max_loss) * len(whites))
    fill = tighten_fill(random_fill(whites, rng), whites, rng)
    puzzle = build(whites, fill, options.rows, options.cols)
    repairs, seen, refilled = 0, Counter(), Counter()
    with Prover(puzzle, options.search_budget, rng) as prover:
        while (found := prover.other(puzzle, fill))[0] != "unique":
            status, other = found
            repairs += 1
            differ = [cell for cell in puzzle.whites if other[cell] != fill[cell]] if other else _loosest(puzzle)
            seen.update(differ)
            changed, stuck = None, max(seen[cell] for cell in differ) > options.stuck
            if status == "multiple" and not stuck:
                accept = lambda new, cell: prover.locally_unique(  # noqa: E731
                    build(whites, new, options.rows, options.cols), new, cell)
                changed = soft_repair(puzzle, fill, other, rng, accept)
            region = sorted({cell for x in differ for run in puzzle.runs_through(x) for cell in run.cells})
            if changed is not None:
                fill = changed
            elif max(refilled[cell] for cell in differ) < options.refills:
                refilled.update(region)
                seen.subtract({cell: seen[cell] for cell in region})
                kept = {cell: v for cell, v in fill.items() if cell not in set(region)}
                fill = tighten_fill(random_fill(whites, rng, kept), whites, rng, region)
            else:
                whites = hard_repair(whites, region, seen, options, rng)
                if len(whites) < floor:
                    return None, fill, repairs
                fill = {cell: fill[cell] for cell in whites}
            puzzle = build(whites, fill, options.rows, options.cols)
    if framed and not fills_its_frame(whites, options.rows, options.cols):
        return None, fill, repairs
    return puzzle, fill, repairs


def fills_its_frame(whites: Whites, rows: int, cols: int) -> bool:
    """Whether every outer line of the R×C frame holds a clue or a white cell: the first and last
    inner rows and columns each hold a white cell. No printed Kakuro has a row or column of nothing
    but blocks (it would be cut off); hard repairs could leave one (8 of 962 generated puzzles)."""
    return all(any((line, c) in whites for c in range(1, cols)) for line in (1, rows - 1)) and \
        all(any((r, line) in whites for r in range(1, rows)) for line in (1, cols - 1))


def generate_kakuros(options: KakuroOptions, count: int, seed: int) -> Iterator[GeneratedKakuro]:
    """``count`` puzzles; the i-th has the i-th seed drawn from ``random.Random(seed)`` (63 bits)."""
    seeds = random.Random(seed)
    for _ in range(count):
        yield generate_kakuro(options, seeds.getrandbits(63))
