"""Which interior edges of a found grid are cage walls.

The algorithm:

1. :func:`edge_strengths` measures every interior edge in the rectified grid: in a strip across
   the edge (its ends trimmed, so crossing lines do not count) it finds the darkness ridge near the
   snapped line (a curled page moves it a little), sums the ridge's darkness across its width for
   every pixel along the edge, and keeps a low quantile of those sums. A cage wall is dark, wide
   and continuous, so its low quantile stays high; a thin, faint or dotted grid line drops to
   almost nothing; a clue or digit crossing the edge only raises a few sums.
2. :func:`wall_probabilities` splits the log strengths of one image into two groups (Otsu's
   threshold in 1-D: styles differ too much for fixed thresholds) and turns the distance to the
   threshold into a probability. When the two groups hardly differ, the outer border (always a
   wall) decides whether the edges are all walls or all grid lines.
3. :func:`cages_from_walls` joins cells across the edges that are not walls (connected components).
4. :func:`settle` uses the rule "every cage has exactly one clue, in its first cell in reading
   order" when the clue positions are known: a cage without a clue loses its weakest wall, a cage
   with two clues (or its clue not first) is cut along its cheapest edges (a minimum cut), and the
   edges flipped are those the probabilities doubt most.
"""
from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from .model import CageWalls, Cell, Edge, GridFind

TRIM = 0.2
"""Part of an edge's length ignored at each end (where other lines cross)."""
REACH = 0.14
"""How far (in cells) from the snapped line the ridge is searched."""
RIDGE = 0.1
"""Half-width (in cells) of the band summed across the ridge."""
LOW_QUANTILE = 0.3
"""The quantile of the along-edge sums kept as the edge strength."""
MIN_SPLIT = 0.9
"""Smallest gap between the two groups' mean log strengths for them to count as two groups."""
MIN_GAP, TIGHT = 0.45, 5.0
"""A smaller gap still splits when both groups are tight: ``gap ≥ MIN_GAP`` and ``≥ TIGHT`` × the
larger within-group spread (a 3×3 grid whose thin lines are half as dark as its walls)."""
SETTLE_ROUNDS = 60


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------

def interior_edges(n: int) -> list[Edge]:
    """Every pair of orthogonally adjacent cells of an N×N grid, the smaller cell first."""
    edges = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                edges.append(((r, c), (r, c + 1)))
            if r + 1 < n:
                edges.append(((r, c), (r + 1, c)))
    return edges


def _darkness(rgb: np.ndarray, cell: float) -> np.ndarray:
    """Ink darkness 0..1 against the local paper (grey closing wider than any wall)."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    k = max(3, int(0.35 * cell) | 1)
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.blur(cv2.blur(paper, (k, k)), (k, k)).astype(np.float32)  # ≈ a Gaussian, O(1) per pixel
    return np.clip((paper - gray.astype(np.float32)) / np.maximum(paper, 16.0), 0.0, 1.0)


def ridge_strength(strip: np.ndarray, centre: float, cell: float) -> float:
    """Strength of the line running down ``strip`` (rows along the edge, columns across it) near
    column ``centre``: the ``LOW_QUANTILE`` along the edge of the darkness summed over the ridge's
    band, background removed. 0 for an empty strip."""
    if strip.size == 0:
        return 0.0
    across = np.quantile(strip, LOW_QUANTILE, axis=0)  # a digit stroke beside the line covers too little of it
    reach, half = max(1, int(REACH * cell)), max(1, int(round(RIDGE * cell)))
    a, b = max(0, int(centre) - reach), min(len(across), int(centre) + reach + 1)
    if b <= a:
        return 0.0
    peak = a + int(np.argmax(across[a:b]))
    lo, hi = max(0, peak - half), min(strip.shape[1], peak + half + 1)
    base = np.concatenate([strip[:, :max(1, lo)], strip[:, hi:]], axis=1)
    background = np.median(base, axis=1, keepdims=True) if base.size else 0.0
    sums = np.clip(strip[:, lo:hi] - background, 0.0, None).sum(axis=1)
    return float(np.quantile(sums, LOW_QUANTILE))


def edge_strengths(grid: GridFind) -> dict[Edge, float]:
    """The measured strength of every interior edge (and of the border under the key ``'border'``
    is not included: see :func:`border_strength`)."""
    n, xs, ys = grid.size, grid.lines_x, grid.lines_y
    cell = (xs[-1] - xs[0]) / n
    dark = _darkness(grid.rectified, cell)
    span = int(round(REACH * cell + RIDGE * cell)) + 2
    out = {}
    for (r, c), (r2, c2) in interior_edges(n):
        if r2 == r:  # vertical line right of (r, c)
            x, y0, y1 = xs[c + 1], ys[r], ys[r + 1]
            t = TRIM * (y1 - y0)
            strip = dark[int(y0 + t):int(y1 - t), max(0, int(x) - span):int(x) + span + 1]
            centre = x - max(0, int(x) - span)
        else:  # horizontal line below (r, c)
            y, x0, x1 = ys[r + 1], xs[c], xs[c + 1]
            t = TRIM * (x1 - x0)
            strip = dark[max(0, int(y) - span):int(y) + span + 1, int(x0 + t):int(x1 - t)].T
            centre = y - max(0, int(y) - span)
        out[((r, c), (r2, c2))] = ridge_strength(strip, centre, cell)
    return out


def border_strength(grid: GridFind) -> float:
    """Strength of the outer border (a wall by definition), measured like an edge on its inner half
    doubled, the median over the four sides' cells."""
    n, xs, ys = grid.size, grid.lines_x, grid.lines_y
    cell = (xs[-1] - xs[0]) / n
    dark = _darkness(grid.rectified, cell)
    span = int(round(REACH * cell + RIDGE * cell)) + 2
    values = []
    for i in range(n):
        t = TRIM * cell
        a, b = int(ys[i] + t), int(ys[i + 1] - t)
        values.append(ridge_strength(dark[a:b, :span], 0, cell))
        values.append(ridge_strength(dark[a:b, -span:][:, ::-1], 0, cell))
        a, b = int(xs[i] + t), int(xs[i + 1] - t)
        values.append(ridge_strength(dark[:span, a:b].T, 0, cell))
        values.append(ridge_strength(dark[-span:, a:b][::-1].T, 0, cell))
    return 2.0 * float(np.median(values))


# ---------------------------------------------------------------------------------------------
# Classifying
# ---------------------------------------------------------------------------------------------

def otsu_split(values: np.ndarray) -> tuple[float, float, float]:
    """``(threshold, low mean, high mean)`` of 1-D values split where the between-group variance
    is largest; for fewer than two distinct values the threshold is their maximum."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return float(v[-1]), float(v[0]), float(v[-1])
    best, cut = -1.0, 1
    for i in range(1, len(v)):
        lo, hi = v[:i], v[i:]
        score = len(lo) * len(hi) * (lo.mean() - hi.mean()) ** 2
        if score > best:
            best, cut = score, i
    return float((v[cut - 1] + v[cut]) / 2), float(v[:cut].mean()), float(v[cut:].mean())


def wall_probabilities(strengths: dict[Edge, float], border: float) -> dict[Edge, float]:
    """Each edge's probability of being a wall from its strength, by a 2-group split of the log
    strengths of this image (see the module docstring)."""
    edges = list(strengths)
    if not edges:
        return {}
    floor = 1e-3 * max(border, max(strengths.values()), 1e-6)
    logs = np.log(np.array([strengths[e] for e in edges]) + floor)
    thr, lo, hi = otsu_split(logs)
    within = max(np.std(logs[logs < thr]), np.std(logs[logs >= thr]), 0.02)
    if hi - lo < MIN_SPLIT and not (hi - lo >= MIN_GAP and hi - lo >= TIGHT * within):
        all_walls = np.median(logs) > np.log(border + floor) - MIN_SPLIT
        return {e: 0.9 if all_walls else 0.1 for e in edges}
    scale = max(0.15, 0.2 * (hi - lo))
    return {e: float(1.0 / (1.0 + np.exp(-(x - thr) / scale))) for e, x in zip(edges, logs)}


def find_walls(grid: GridFind) -> CageWalls:
    """The probability that each interior edge of ``grid`` is a cage wall. Never fails: an image
    without visible walls gives every edge a low probability."""
    return CageWalls(wall_probabilities(edge_strengths(grid), border_strength(grid)))


# ---------------------------------------------------------------------------------------------
# Cages from walls
# ---------------------------------------------------------------------------------------------

def cages_from_walls(size: int, walls: CageWalls, threshold: float = 0.5) -> list[tuple[Cell, ...]]:
    """The cages the walls make: cells joined across every edge whose wall probability is below
    ``threshold`` (connected components), each in reading order, listed by their first cell."""
    parent = {(r, c): (r, c) for r in range(size) for c in range(size)}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for a, b in interior_edges(size):
        if walls.wall_probability.get((a, b), 1.0) < threshold:
            parent[root(a)] = root(b)
    groups: dict[Cell, list[Cell]] = {}
    for cell in sorted(parent):
        groups.setdefault(root(cell), []).append(cell)
    return sorted((tuple(cells) for cells in groups.values()), key=lambda cells: cells[0])


def _problems(cages: list[tuple[Cell, ...]], clues: set[Cell]) -> int:
    """How far the cages are from 'one clue per cage, in its first cell'."""
    bad = 0
    for cells in cages:
        count = sum(cell in clues for cell in cells)
        bad += abs(count - 1) + (count >= 1 and cells[0] not in clues)
    return bad


def _cost(probs: dict[Edge, float], walls: set[Edge]) -> float:
    """Negative log-likelihood of a wall assignment under the edge probabilities."""
    eps = 1e-6
    return float(sum(-np.log(max(eps, p if e in walls else 1 - p)) for e, p in probs.items()))


def _flip_cost(p: float) -> float:
    """How much the likelihood loses when an edge of probability ``p`` changes side (≥ 0)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return abs(np.log(p / (1 - p)))


def _min_cut(cells: tuple[Cell, ...], source: Cell, sink: Cell, capacity: dict[Edge, float]) -> set[Edge]:
    """The cheapest set of edges inside ``cells`` whose removal separates ``source`` from ``sink``
    (Edmonds–Karp on the cell graph; ``capacity`` per undirected edge)."""
    inside = set(cells)
    flow: dict[tuple[Cell, Cell], float] = {}
    cap: dict[tuple[Cell, Cell], float] = {}
    nbrs: dict[Cell, list[Cell]] = {c: [] for c in cells}
    for (a, b), w in capacity.items():
        if a in inside and b in inside:
            cap[(a, b)] = cap[(b, a)] = w
            nbrs[a].append(b)
            nbrs[b].append(a)

    def residual(u: Cell, v: Cell) -> float:
        return cap[(u, v)] - flow.get((u, v), 0.0)

    while True:
        prev = {source: source}
        queue = deque([source])
        while queue and sink not in prev:
            u = queue.popleft()
            for v in nbrs[u]:
                if v not in prev and residual(u, v) > 1e-9:
                    prev[v] = u
                    queue.append(v)
        if sink not in prev:
            break
        path, v = [], sink
        while v != source:
            path.append((prev[v], v))
            v = prev[v]
        push = min(residual(u, v) for u, v in path)
        for u, v in path:
            flow[(u, v)] = flow.get((u, v), 0.0) + push
            flow[(v, u)] = flow.get((v, u), 0.0) - push
    reach = set(prev)
    return {e for e in capacity if e[0] in inside and e[1] in inside and (e[0] in reach) != (e[1] in reach)}


def _repair_once(size: int, probs: dict[Edge, float], walls: set[Edge], clues: set[Cell]) -> set[Edge] | None:
    """One repair of the first cage that breaks the clue rule: the flipped edges, or None if
    every cage is fine."""
    cages = cages_from_walls(size, CageWalls({e: float(e in walls) for e in probs}))
    where = {cell: i for i, cells in enumerate(cages) for cell in cells}
    for cells in cages:
        found = [cell for cell in cells if cell in clues]
        if not found:
            border = [e for e in walls if (e[0] in cells) != (e[1] in cells)]
            if not border:
                continue
            def merge_cost(e: Edge) -> tuple[float, float]:
                other = cages[where[e[1] if e[0] in cells else e[0]]]
                keeps_first = other[0] < cells[0] and other[0] in clues
                return (0.0 if keeps_first else 1.0, _flip_cost(probs[e]))
            return {min(border, key=merge_cost)}
        if len(found) > 1 or cells[0] not in clues:
            source = cells[0] if cells[0] not in clues else found[0]
            sink = found[0] if source != found[0] else found[1]
            inner = {e: _flip_cost(probs[e]) + 1e-3 for e in probs if e not in walls}
            return _min_cut(cells, source, sink, inner)
    return None


def settle(grid: GridFind, walls: CageWalls, clue_cells: set[Cell] | None) -> CageWalls:
    """Walls made consistent with the clue rule when ``clue_cells`` (cells holding a clue label) are
    known: flips the most doubtful edges until every cage has one clue, in its first cell, or
    ``SETTLE_ROUNDS`` repairs are spent (then the assignment breaking the rule least is kept).
    Flipped edges get probability ``1 - p``; walls left inside a cage drop below 0.5. Without
    clue cells the walls come back unchanged."""
    probs = dict(walls.wall_probability)
    if not clue_cells:
        return walls
    current = {e for e, p in probs.items() if p >= 0.5}
    best = (_problems(cages_from_walls(grid.size, walls), clue_cells), _cost(probs, current), set(current))
    for _ in range(SETTLE_ROUNDS):
        flips = _repair_once(grid.size, probs, current, clue_cells)
        if not flips:
            break
        current ^= flips
        state = CageWalls({e: float(e in current) for e in probs})
        score = (_problems(cages_from_walls(grid.size, state), clue_cells), _cost(probs, current))
        if score < best[:2]:
            best = (*score, set(current))
    chosen = best[2]
    out = {e: (p if (p >= 0.5) == (e in chosen) else 1.0 - p) for e, p in probs.items()}
    cages = cages_from_walls(grid.size, CageWalls({e: float(e in chosen) for e in probs}))
    where = {cell: i for i, cells in enumerate(cages) for cell in cells}
    for e in out:
        if where[e[0]] == where[e[1]]:
            out[e] = min(out[e], 0.49)
    return CageWalls(out)
