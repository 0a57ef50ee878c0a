"""Random KenKen puzzles that have exactly one solution.

Algorithm. A solution grid is drawn first: a random Latin square from the Jacobson–Matthews Markov
chain (about N³ moves from the cyclic square, then a random permutation of rows, columns and
symbols; the chain is uniform over all Latin squares in the long run, and a random isotopy keeps
it so). The grid is cut into cages by growing each cage from the free cell with the fewest free
neighbours (so few cells are left stranded) to a size drawn from ``cage_weights``; a stranded single
cell joins a neighbouring cage with room. Every cage gets a clue computed from its digits: an
operator drawn from the ones the digits allow (``/`` only when the division is exact, ``-`` and ``/``
on three or more cells only under Calcudoku rules), the target what the digits make. Such a
puzzle has the drawn grid as one solution, usually among many; it is then *repaired*: while the
engine finds another solution, one cage where the two solutions differ is re-clued (another
operator), loses a differing cell to a neighbouring cage, or is split in two, choosing a change the
other solution does not satisfy. Re-clues and moves are limited to 2·N², so splitting ends the loop:
at worst every cage becomes a single given cell. One SAT solver serves the whole repair (changed
cages are swapped in by activation literals, the drawn grid is blocked once), and each question gets
``search_budget`` conflicts: when the engine cannot decide within it (16×16 puzzles with big sums),
the loosest cage, the one whose clue allows the most digit tuples, gets its tightest clue or is cut
in two, more of them each time the engine stays undecided. The puzzle is returned only once the
engine has proved the drawn grid its only solution. Everything random comes from one
``random.Random(seed)``, and the budget counts conflicts, not seconds, so a seed always gives the
same puzzle (for the same engine: the repairs follow the other solutions the engine finds).

Import usage::

    from solver.generator import GeneratorOptions, generate
    made = generate(GeneratorOptions(size=9), seed=7)
    made.puzzle, made.solution, made.repairs
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from itertools import chain, combinations
from math import prod
from typing import Iterator

from .cage_tuples import TooManyTuples, allowed_tuples, satisfies
from .encoding import encode_cage, var
from .engine import Engine, elapsed_ms
from .puzzle import MAX_SIZE, MIN_SIZE, Cage, Cell, Puzzle

Solution = tuple[tuple[int, ...], ...]

LOOSE_LIMIT = 2000
"""Tuples counted per cage when looking for the loosest one; more count as LOOSE_LIMIT + 1."""

DEFAULT_CAGE_WEIGHTS = (0.06, 0.46, 0.28, 0.12, 0.05, 0.03)
"""Relative weights of cage sizes 1, 2, 3, …: close to the mix of real newspaper and app puzzles."""


@dataclass(frozen=True)
class GeneratorOptions:
    """What kind of puzzle to make. Raises ValueError for settings no puzzle can meet."""

    size: int = 9
    """N: the grid is N×N with digits 1..N (3..16)."""
    max_cage: int = 6
    """No cage has more cells than this (nor more than N)."""
    cage_weights: tuple[float, ...] = DEFAULT_CAGE_WEIGHTS
    """Relative weight of drawing a cage of 1, 2, 3, … cells (sizes past ``max_cage`` are ignored)."""
    hidden_ops: bool = False
    """Print no operators: every cage of two or more cells gets op ``?``."""
    calcudoku: bool = False
    """Calcudoku rules: ``-`` and ``/`` may also stand on three or more cells."""
    multiplication_only: bool = False
    """Every cage of two or more cells is a product."""
    max_product: float = 20_000
    """A product clue above this is not used (a sum is), except in multiplication-only puzzles
    (``math.inf``: none is left out)."""
    search_budget: int | None = 1_000
    """SAT conflicts per uniqueness question; past it the loosest cage is tightened (None: no limit)."""

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {self.size!r}")
        if not isinstance(self.max_cage, int) or self.max_cage < 1:
            raise ValueError(f"max_cage must be at least 1, not {self.max_cage!r}")
        if self.search_budget is not None and self.search_budget < 1:
            raise ValueError(f"search_budget must be at least 1 conflict (or None), not {self.search_budget!r}")
        weights = self.size_weights
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("cage_weights must be ≥ 0 with a positive weight for some size up to max_cage")

    @property
    def largest_cage(self) -> int:
        """The most cells a cage may have: ``max_cage``, but never more than N."""
        return min(self.max_cage, self.size)

    @property
    def size_weights(self) -> tuple[float, ...]:
        """The weights of cage sizes 1..largest_cage (missing sizes weigh 0)."""
        weights = tuple(self.cage_weights[: self.largest_cage])
        return weights + (0.0,) * (self.largest_cage - len(weights))


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle with its unique solution."""

    puzzle: Puzzle
    solution: Solution
    seed: int
    repairs: int
    """How many cages were re-clued, re-drawn or split before the puzzle became unique."""
    time_ms: float = field(default=0.0, compare=False)


# -- the solution grid ---------------------------------------------------------------------------
def random_latin_square(n: int, rng: random.Random, steps: int | None = None) -> Solution:
    """A random N×N Latin square on digits 1..N: the Jacobson–Matthews chain, then a random isotopy.

    The chain walks over incidence cubes (cube[r][c][s] = 1 when cell (r, c) holds symbol s), passing
    through "improper" cubes with one −1 entry. Its proper cubes are uniform in the long run; the
    square is the cube at the first of the times ``steps`` (N³ by default), + N², + 2·N², … that is
    proper. (Stopping at the very first proper cube instead would be biased: the cubes the chain
    enters from an improper one are not uniform, and for N = 4 never the Klein-group squares.)
    """
    cube = [0] * n ** 3
    at = lambda r, c, s: (r * n + c) * n + s  # noqa: E731 - index into the flat cube
    for r in range(n):
        for c in range(n):
            cube[at(r, c, (r + c) % n)] = 1
    improper = None
    moves = n ** 3 if steps is None else steps
    while moves > 0 or improper is not None:
        if moves <= 0:
            moves = n * n  # improper at a check: look again N² moves later
        improper = _jacobson_matthews_move(cube, improper, n, rng)
        moves -= 1
    grid = [[next(s for s in range(n) if cube[at(r, c, s)] == 1) for c in range(n)] for r in range(n)]
    return _random_isotope(grid, rng)


def _jacobson_matthews_move(cube: list[int], improper: tuple[int, int, int] | None, n: int,
                            rng: random.Random) -> tuple[int, int, int] | None:
    """One move of the chain on the flat cube, in place; returns the cube's −1 cell, None when proper.

    From a proper cube it starts at a random 0 cell, from an improper one at its −1 cell (r, c, s);
    r1, c1, s1 are (one of) the 1 cells in the lines through it. The move adds 1 at (r,c,s),
    (r,c1,s1), (r1,c,s1), (r1,c1,s) and subtracts 1 at (r,c,s1), (r,c1,s), (r1,c,s), (r1,c1,s1).
    """
    at = lambda r, c, s: (r * n + c) * n + s  # noqa: E731
    if improper is None:
        r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
        while cube[at(r, c, s)]:
            r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
    else:
        r, c, s = improper
    r1 = rng.choice([x for x in range(n) if cube[at(x, c, s)] == 1])
    c1 = rng.choice([y for y in range(n) if cube[at(r, y, s)] == 1])
    s1 = rng.choice([z for z in range(n) if cube[at(r, c, z)] == 1])
    for index in (at(r, c, s), at(r, c1, s1), at(r1, c, s1), at(r1, c1, s)):
        cube[index] += 1
    for index in (at(r, c, s1), at(r, c1, s), at(r1, c, s), at(r1, c1, s1)):
        cube[index] -= 1
    return (r1, c1, s1) if cube[at(r1, c1, s1)] < 0 else None


def _random_isotope(grid: list[list[int]], rng: random.Random) -> Solution:
    """The square with rows, columns and symbols (0-based in ``grid``, 1-based out) randomly permuted."""
    n = len(grid)
    rows, cols, symbols = (rng.sample(range(n), n) for _ in range(3))
    return tuple(tuple(symbols[grid[r][c]] + 1 for c in cols) for r in rows)


# -- the cages -----------------------------------------------------------------------------------
def neighbours(cell: Cell, n: int) -> list[Cell]:
    """The orthogonal neighbours of a cell inside an N×N grid."""
    r, c = cell
    return [(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < n and 0 <= b < n]


def is_connected(cells: tuple[Cell, ...] | list[Cell]) -> bool:
    """True when the cells form one orthogonally connected group (False for no cells)."""
    return bool(cells) and Cage(tuple(cells), "+", 0).is_connected()


def random_partition(n: int, rng: random.Random, weights: tuple[float, ...]) -> list[tuple[Cell, ...]]:
    """Cut the N×N grid into connected cages of 1..len(weights) cells, sizes drawn with ``weights``.

    Cages grow from the free cell with the fewest free neighbours; a cell left alone although a bigger
    cage was wanted joins a neighbouring cage that still has room (if any has).
    """
    free = {(r, c) for r in range(n) for c in range(n)}
    sizes = range(1, len(weights) + 1)
    cages: list[list[Cell]] = []
    stranded: list[Cell] = []
    while free:
        start = min(sorted(free), key=lambda cell: (_free_degree(cell, free, n), rng.random()))
        want = rng.choices(sizes, weights)[0]
        cage = _grow(start, want, free, n, rng)
        if len(cage) == 1 and want > 1:
            stranded.append(start)
        cages.append(cage)
    _adopt_stranded(cages, stranded, n, len(weights), rng)
    return [tuple(sorted(cage)) for cage in cages if cage]


def _free_degree(cell: Cell, free: set[Cell], n: int) -> int:
    """How many neighbours of the cell are still free."""
    return sum(nb in free for nb in neighbours(cell, n))


def _grow(start: Cell, want: int, free: set[Cell], n: int, rng: random.Random) -> list[Cell]:
    """A connected cage of up to ``want`` free cells from ``start``; its cells leave ``free``.

    Half of the steps take the frontier cell with the fewest free neighbours (it would be stranded
    otherwise), the others a random one, which keeps shapes varied.
    """
    cage = [start]
    free.discard(start)
    while len(cage) < want:
        frontier = sorted({nb for cell in cage for nb in neighbours(cell, n) if nb in free})
        if not frontier:
            break
        if rng.random() < 0.5:
            pick = min(frontier, key=lambda cell: (_free_degree(cell, free, n), rng.random()))
        else:
            pick = rng.choice(frontier)
        cage.append(pick)
        free.discard(pick)
    return cage


def _adopt_stranded(cages: list[list[Cell]], stranded: list[Cell], n: int, max_cage: int,
                    rng: random.Random) -> None:
    """Move each stranded single cell into a random neighbouring cage with fewer than max_cage cells."""
    owner = {cell: i for i, cage in enumerate(cages) for cell in cage}
    for cell in stranded:
        mine = owner[cell]
        hosts = sorted({owner[nb] for nb in neighbours(cell, n)} - {mine})
        hosts = [i for i in hosts if len(cages[i]) < max_cage]
        if hosts:
            host = rng.choice(hosts)
            cages[host].append(cell)
            cages[mine].remove(cell)
            owner[cell] = host


# -- the clues -----------------------------------------------------------------------------------
def clue_choices(values: tuple[int, ...], options: GeneratorOptions) -> list[tuple[str, int, float]]:
    """Every (op, target, weight) clue the digits may get under the options, op as printed.

    One cell: its digit (``=``). Two cells: sum, product, difference, and quotient when exact.
    More cells: sum and product, plus Calcudoku difference and exact quotient (largest value minus,
    or divided by, all the others; only with a positive target). Products above ``max_product`` are
    left out while another clue remains. Hidden operators print every multi-cell op as ``?``.
    """
    if len(values) == 1:
        return [("=", values[0], 1.0)]
    total, product, big = sum(values), prod(values), max(values)
    others = product // big
    if options.multiplication_only:
        choices = [("*", product, 1.0)]
    elif len(values) == 2:
        choices = [("+", total, 1.0), ("*", product, 1.0), ("-", 2 * big - total, 1.5)]
        if big % others == 0:
            choices.append(("/", big // others, 2.5))
    else:
        choices = [("+", total, 1.0), ("*", product, 1.0)]
        if options.calcudoku and 2 * big - total > 0:
            choices.append(("-", 2 * big - total, 0.4))
        if options.calcudoku and big % others == 0:
            choices.append(("/", big // others, 0.6))
    if len(choices) > 1 and product > options.max_product:
        choices = [choice for choice in choices if choice[0] != "*"]
    if options.hidden_ops:
        choices = [("?", target, weight) for _, target, weight in choices]
    return choices


def random_clue(cells: tuple[Cell, ...], solution: Solution, options: GeneratorOptions,
                rng: random.Random, avoid: Solution | None = None) -> Cage:
    """A cage on the cells with a random clue their digits make.

    With ``avoid`` (another grid), prefer a clue that grid's digits do not make; returns such a cage
    whenever one exists.
    """
    cells = tuple(sorted(cells))
    choices = clue_choices(_digits(cells, solution), options)
    if avoid is not None:
        other = _digits(cells, avoid)
        killing = [choice for choice in choices if not satisfies(choice[0], choice[1], other, options.calcudoku)]
        choices = killing or choices
    op, target, _ = rng.choices(choices, [w for _, _, w in choices])[0]
    return Cage(cells, op, target)


def _digits(cells: tuple[Cell, ...], grid: Solution) -> tuple[int, ...]:
    """The grid's digits in the cells, in the cells' order."""
    return tuple(grid[r][c] for r, c in cells)


def holds(cage: Cage, grid: Solution, calcudoku: bool) -> bool:
    """True when the grid's digits make the cage's clue."""
    return satisfies(cage.op, cage.target, _digits(cage.cells, grid), calcudoku)


# -- uniqueness ----------------------------------------------------------------------------------
def build_puzzle(cages: list[Cage], options: GeneratorOptions) -> Puzzle:
    """The Puzzle of these cages under the options' rules."""
    return Puzzle(options.size, tuple(cages), operators_shown=not options.hidden_ops,
                  calcudoku=options.calcudoku)


class Prover:
    """One engine kept while a puzzle is repaired: asks for a solution other than ``solution``.

    The solution is blocked once, for good; cages are switched by their activation literals, so a
    changed cage costs one cage encoding and the solver keeps what it learnt. (This reaches into the
    engine's PySAT solver: ``Engine`` offers no budget and no way to change a cage.) Use as a
    context manager.
    """

    def __init__(self, cages: list[Cage], solution: Solution, options: GeneratorOptions):
        self.options, self.n = options, options.size
        self.engine = Engine(build_puzzle(cages, options))
        self.activation = dict(zip(self.engine.puzzle.cages, self.engine.activations))
        n = self.n
        self.engine.solver.add_clause([-var(n, r, c, solution[r][c]) for r in range(n) for c in range(n)])

    def __enter__(self) -> "Prover":
        return self

    def __exit__(self, *exc) -> None:
        self.engine.close()

    def other(self, cages: list[Cage]) -> tuple[str, Solution | None]:
        """Look for another solution of the puzzle with these cages, within ``options.search_budget``
        conflicts: ('multiple', the other grid), ('unique', None) when the engine proves there is
        none, ('unknown', None) when the budget ran out first."""
        self._use(cages)
        solver = self.engine.solver
        if self.options.search_budget is not None:
            solver.conf_budget(self.options.search_budget)
        found = solver.solve_limited(assumptions=[self.activation[cage] for cage in cages])
        if found is None:
            return "unknown", None
        return ("multiple", self._grid(solver.get_model())) if found else ("unique", None)

    def _use(self, cages: list[Cage]) -> None:
        """Encode the cages not seen yet and retire (switch off for good) those no longer used."""
        engine, wanted = self.engine, set(cages)
        for cage in [cage for cage in self.activation if cage not in wanted]:
            engine.solver.add_clause([-self.activation.pop(cage)])
        for cage in cages:
            if cage not in self.activation:
                encoded = encode_cage(cage, self.n, self.options.calcudoku, engine.top)
                engine.solver.append_formula(encoded.clauses)
                engine.top = encoded.top
                self.activation[cage] = encoded.activation

    def _grid(self, model: list[int]) -> Solution:
        """The grid of a model."""
        n, true = self.n, set(lit for lit in model[: self.n ** 3] if lit > 0)
        return tuple(tuple(next(v for v in range(1, n + 1) if var(n, r, c, v) in true) for c in range(n))
                     for r in range(n))


# -- repair --------------------------------------------------------------------------------------
Change = tuple[tuple[int, ...], list[Cage]]
"""A change to a puzzle's cages: (indexes of the cages removed, the cages added in their place)."""


def repair(cages: list[Cage], solution: Solution, other: Solution, options: GeneratorOptions,
           rng: random.Random, soft: bool) -> list[Cage]:
    """New cages that ``solution`` still satisfies and, whenever a change found can, ``other`` does not.

    Only cages holding a cell where the grids differ change. With ``soft``, re-clueing such a cage
    or moving a differing cell into a neighbouring cage comes before splitting a cage in two;
    without it only splits are made, and a split always makes progress (one more cage).
    """
    n = options.size
    differ = [(r, c) for r in range(n) for c in range(n) if solution[r][c] != other[r][c]]
    owner = {cell: i for i, cage in enumerate(cages) for cell in cage.cells}
    touched = sorted({owner[cell] for cell in differ})
    rng.shuffle(touched)
    make = lambda cells: random_clue(cells, solution, options, rng, avoid=other)  # noqa: E731
    changes = _soft_changes(cages, touched, differ, owner, options, make, rng) if soft else []
    first = None
    for drop, add in chain(changes, _split_changes(cages, touched, make, rng)):
        if not all(holds(cage, other, options.calcudoku) for cage in add):
            return _apply(cages, (drop, add))
        first = first or (drop, add)
    return _apply(cages, first)  # a split exists: every differing cell lies in a cage of 2+ cells


def _apply(cages: list[Cage], change: Change) -> list[Cage]:
    """The cages after the change."""
    drop, add = change
    return [cage for i, cage in enumerate(cages) if i not in drop] + add


def _soft_changes(cages, touched, differ, owner, options, make, rng) -> list[Change]:
    """Re-clue each touched cage, and move each differing cell into each neighbouring cage with
    room (when its own cage stays connected and non-empty); in random order."""
    changes: list[Change] = [((i,), [make(cages[i].cells)]) for i in touched if len(cages[i].cells) > 1]
    for cell in differ:
        home = owner[cell]
        rest = tuple(other for other in cages[home].cells if other != cell)
        if not is_connected(rest):
            continue
        for host in sorted({owner[nb] for nb in neighbours(cell, options.size)} - {home}):
            if len(cages[host].cells) < options.largest_cage:
                changes.append(((home, host), [make(rest), make(cages[host].cells + (cell,))]))
    rng.shuffle(changes)
    return changes


def _split_changes(cages, touched, make, rng) -> Iterator[Change]:
    """Each touched cage of 2+ cells cut in two connected parts, most even cuts first."""
    for i in touched:
        for part, rest in _bipartitions(cages[i].cells, rng):
            yield (i,), [make(part), make(rest)]


def _bipartitions(cells: tuple[Cell, ...], rng: random.Random) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
    """Every way to cut the cells into two connected parts, the most even first (ties in random order)."""
    anchor, others = cells[0], cells[1:]
    cuts = []
    for k in range(len(others)):
        for chosen in combinations(others, k):
            part = (anchor,) + chosen
            rest = tuple(cell for cell in others if cell not in chosen)
            if is_connected(part) and is_connected(rest):
                cuts.append((part, rest))
    rng.shuffle(cuts)
    cuts.sort(key=lambda cut: -min(len(cut[0]), len(cut[1])))
    return cuts


def looseness(cage: Cage, options: GeneratorOptions) -> int:
    """How many digit tuples the cage's clue allows, counted up to LOOSE_LIMIT + 1."""
    try:
        return len(allowed_tuples(cage, options.size, options.calcudoku, limit=LOOSE_LIMIT))
    except TooManyTuples:
        return LOOSE_LIMIT + 1


def tightest_clue(cells: tuple[Cell, ...], solution: Solution, options: GeneratorOptions,
                  rng: random.Random) -> Cage:
    """A cage on the cells with the clue (among :func:`clue_choices`) that allows the fewest tuples."""
    cells = tuple(sorted(cells))
    cages = [Cage(cells, op, target) for op, target, _ in clue_choices(_digits(cells, solution), options)]
    return min(cages, key=lambda cage: (looseness(cage, options), rng.random()))


def tighten(cages: list[Cage], solution: Solution, options: GeneratorOptions, rng: random.Random) -> list[Cage]:
    """The cages with the loosest one (most tuples; the larger on a tie) made tighter, for a puzzle
    the engine could not decide within its budget.

    It gets its tightest clue when that allows fewer tuples, or else is cut into its two most even
    connected halves, each with its tightest clue. ``solution`` still satisfies every cage.
    """
    scores = [(looseness(cage, options), len(cage.cells)) for cage in cages]
    i = max(range(len(cages)), key=lambda j: (scores[j], rng.random()))
    cells = cages[i].cells
    best = tightest_clue(cells, solution, options, rng)
    if looseness(best, options) < scores[i][0]:
        return _apply(cages, ((i,), [best]))
    part, rest = _bipartitions(cells, rng)[0]
    return _apply(cages, ((i,), [tightest_clue(part, solution, options, rng),
                                 tightest_clue(rest, solution, options, rng)]))


# -- the whole job -------------------------------------------------------------------------------
def generate(options: GeneratorOptions, seed: int) -> GeneratedPuzzle:
    """A random puzzle with exactly one solution (proved by the engine); the same seed, the same puzzle."""
    start = time.perf_counter()
    rng = random.Random(seed)
    n = options.size
    solution = random_latin_square(n, rng)
    cages = [random_clue(cells, solution, options, rng)
             for cells in random_partition(n, rng, options.size_weights)]
    repairs = undecided = 0
    with Prover(cages, solution, options) as prover:
        while (found := prover.other(cages))[0] != "unique":
            status, other = found
            if status == "multiple":
                cages = repair(cages, solution, other, options, rng, soft=repairs < 2 * n * n)
                repairs, undecided = repairs + 1, 0
            else:
                undecided += 1
                for _ in range(undecided):  # tighten harder while the engine stays undecided
                    cages = tighten(cages, solution, options, rng)
                repairs += undecided
    return GeneratedPuzzle(build_puzzle(cages, options), solution, seed, repairs, elapsed_ms(start))


def generate_many(options: GeneratorOptions, count: int, seed: int) -> Iterator[GeneratedPuzzle]:
    """``count`` puzzles; the i-th has the i-th seed drawn from ``random.Random(seed)`` (63 bits)."""
    seeds = random.Random(seed)
    for _ in range(count):
        yield generate(options, seeds.getrandbits(63))
