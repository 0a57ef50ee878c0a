"""Simon Tatham's *Keen* game IDs, both ways: ``N:BLOCKS,CLUES``.

BLOCKS walks the 2·N·(N−1) interior edges — first the edges between horizontal neighbours
((x,y)–(x+1,y), row by row), then between vertical neighbours ((x,y)–(x,y+1), column by column).
Each character says how many edges to skip (they lie inside a cage) before the next cage wall:
``_`` = 0, ``a`` = 1 … ``y`` = 25; ``z`` = 25 skipped edges and no wall. A number after a character
repeats it. One dummy wall ends the string. CLUES gives, in row-major order of each cage's first cell,
``a`` (+), ``s`` (−), ``m`` (×) or ``d`` (÷) and the target; single cells are ``a<value>``.
"""
from __future__ import annotations

import re

from ..puzzle import Cage, Cell, Puzzle, PuzzleError

ID = re.compile(r"^\s*(?P<n>\d+)[a-z]*:(?P<blocks>[a-z_0-9]*),(?P<clues>[asmd0-9]*)\s*$")
LETTER_OP = {"a": "+", "s": "-", "m": "*", "d": "/"}
OP_LETTER = {"+": "a", "-": "s", "*": "m", "/": "d", "=": "a"}


def looks_like_keen(text: str) -> bool:
    """True when the text has the shape of a Keen game ID."""
    return bool(ID.match(text))


def _edges(n: int) -> list[tuple[Cell, Cell]]:
    """Interior edges in Keen's order, as pairs of (row, col) cells."""
    horizontal = [((y, x), (y, x + 1)) for y in range(n) for x in range(n - 1)]
    vertical = [((y, x), (y + 1, x)) for x in range(n) for y in range(n - 1)]
    return horizontal + vertical


def parse_keen(text: str) -> Puzzle:
    """Parse a Keen game ID; raises PuzzleError saying what is wrong."""
    match = ID.match(text)
    if not match:
        raise PuzzleError("not a Keen game ID (expected N:BLOCKS,CLUES, for example 4:a_7a__a_aaba,d2s1a6a5m4d2s2m12)")
    n = int(match["n"])
    if not 3 <= n <= 16:
        raise PuzzleError(f"Keen ID size {n}: kensnap handles 3 to 16")
    edges = _edges(n)
    merged = _walk_blocks(match["blocks"], n)
    parent = {cell: cell for cell in ((r, c) for r in range(n) for c in range(n))}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for index in merged:
        a, b = (root(cell) for cell in edges[index])
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[Cell, list[Cell]] = {}
    for cell in sorted(parent):
        groups.setdefault(root(cell), []).append(cell)
    ordered = sorted(groups.values(), key=lambda cells: cells[0])
    clues = re.findall(r"([asmd])(\d+)", match["clues"])
    if "".join(a + b for a, b in clues) != match["clues"]:
        raise PuzzleError("Keen ID clues must be letters a, s, m, d each followed by a number")
    if len(clues) != len(ordered):
        raise PuzzleError(f"Keen ID has {len(ordered)} cage{'' if len(ordered) == 1 else 's'} "
                          f"but {len(clues)} clue{'' if len(clues) == 1 else 's'}")
    cages = []
    for cells, (letter, number) in zip(ordered, clues):
        op = "=" if len(cells) == 1 else LETTER_OP[letter]
        cages.append(Cage(tuple(cells), op, int(number)))
    return Puzzle(n, tuple(cages))


def _walk_blocks(blocks: str, n: int) -> list[int]:
    """Indexes of the edges that lie inside a cage (skipped), from the BLOCKS string of an N-grid."""
    merged, pos, total = [], 0, 2 * n * (n - 1)
    for char, repeat in re.findall(r"([a-z_])(\d*)", blocks):
        for _ in range(int(repeat) if repeat else 1):
            skip = 0 if char == "_" else min(ord(char) - ord("a") + 1, 25)
            merged.extend(range(pos, pos + skip))
            pos += skip + (0 if char == "z" else 1)
    if "".join(c + r for c, r in re.findall(r"([a-z_])(\d*)", blocks)) != blocks:
        raise PuzzleError("Keen ID blocks may hold only letters, '_' and repeat counts")
    if pos != total + 1 or any(i >= total for i in merged):
        raise PuzzleError(f"Keen ID blocks walk {pos - 1} edges, a {n}×{n} grid has {total}")
    return merged


def format_keen(puzzle: Puzzle) -> str:
    """The Keen game ID of a puzzle; raises PuzzleError for what Keen cannot hold (hidden operators,
    cells in no cage)."""
    if puzzle.uncovered:
        raise PuzzleError("a Keen ID cannot hold cells that are in no cage")
    if any(cage.op == "?" and len(cage.cells) > 1 for cage in puzzle.cages):
        raise PuzzleError("a Keen ID cannot hold hidden operators")
    n = puzzle.size
    walls = [puzzle.cage_of[a] != puzzle.cage_of[b] for a, b in _edges(n)] + [True]
    chars, skip = [], 0
    for wall in walls:
        if not wall:
            skip += 1
            if skip == 25:
                chars.append("z")
                skip = 0
            continue
        chars.append("_" if skip == 0 else chr(ord("a") + skip - 1))
        skip = 0
    blocks = _run_length(chars)
    clues = "".join(f"{OP_LETTER[cage.op] if cage.op != '?' else 'a'}{cage.target}" for cage in puzzle.cages)
    return f"{n}:{blocks},{clues}"


def _run_length(chars: list[str]) -> str:
    """Collapse runs of three or more of a character into char + count, as Keen writes them."""
    out, i = [], 0
    while i < len(chars):
        j = i
        while j < len(chars) and chars[j] == chars[i]:
            j += 1
        run = j - i
        out.append(chars[i] + str(run) if run > 2 else chars[i] * run)
        i = j
    return "".join(out)
