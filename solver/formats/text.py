"""A plain-text puzzle format a person can type in a minute.

A letter map of the cages (one row per line, labels separated by spaces, or one character per cell
when every label is one character; ``.`` marks a cell in no cage), then one clue per label::

    # seed 000's 4×4
    a a b b
    c a d e
    c c d f
    c g g f
    a 12x  b 2/  c 11+  d 2-  e 2  f 4+  g 3-

Clues take the glyphs people type (``+``; ``x × * ·``; ``÷ / :``; ``− - –``), before or after the
number; a multi-cell clue with no operator is a hidden operator (``?``); a puzzle where no clue shows
one is printed without operators. Optional sections after the clues: ``rules: calcudoku`` (or
``classic``), and ``entries:`` followed by N rows of digits with ``.`` for empty. ``#`` starts a
comment. Every error names the line and column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..puzzle import Cage, Cell, Puzzle, PuzzleError, digit_text
from .json_schema import GLYPH_OPS

LABEL = re.compile(r"[A-Za-z][A-Za-z0-9]*$")
CLUE = re.compile(r"(?P<pre>[+\-−–x×X*·÷/:?=])?(?P<num>\d+)(?P<post>[+\-−–x×X*·÷/:?=])?$")
EMPTY = {".", "_", "0", "-"}


@dataclass(frozen=True)
class _Token:
    text: str
    line: int
    col: int


def _tokens(line: str, number: int) -> list[_Token]:
    """Whitespace- (or comma-) separated tokens of one line with 1-based columns, comment stripped."""
    line = line.split("#", 1)[0]
    return [_Token(m.group(), number, m.start() + 1) for m in re.finditer(r"[^\s,]+", line)]


def _error(token: _Token, message: str) -> PuzzleError:
    return PuzzleError(f"line {token.line}, column {token.col}: {message}")


def parse_text(text: str) -> Puzzle:
    """Parse the text format into a Puzzle; raises PuzzleError naming line and column."""
    lines = [(i + 1, _tokens(raw, i + 1)) for i, raw in enumerate(text.splitlines())]
    lines = [(i, toks) for i, toks in lines if toks]
    if not lines:
        raise PuzzleError("line 1, column 1: the puzzle text is empty")
    rows, rest = _read_map(lines)
    n = len(rows)
    cells_of: dict[str, list[Cell]] = {}
    first_token: dict[str, _Token] = {}
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok.text in EMPTY:
                continue
            if not LABEL.match(tok.text):
                raise _error(tok, f"'{tok.text}' is not a cage label (use letters, or '.' for a cell in no cage)")
            cells_of.setdefault(tok.text, []).append((r, c))
            first_token.setdefault(tok.text, tok)
    clues, rules, entries = _read_sections(rest, n, cells_of)
    for label, tok in first_token.items():
        if label not in clues:
            raise _error(tok, f"cage '{label}' has no clue (add '{label} <number><op>' after the map)")
    cages = []
    for label, cells in cells_of.items():
        op, target = clues[label]
        if len(cells) == 1 and op in "+*?":
            op = "="
        cages.append(Cage(tuple(cells), op, target))
    shown = any(op not in "=?" for op, _ in clues.values()) or all(len(c) == 1 for c in cells_of.values())
    return Puzzle(n, tuple(cages), shown, entries, rules)


def _read_map(lines: list[tuple[int, list[_Token]]]):
    """Split off the N map rows (N from the first line) and return them with the remaining lines."""
    first = lines[0][1]
    split_chars = len(first) == 1 and len(first[0].text) > 1 and not CLUE.match(first[0].text)
    rows = []
    for number, toks in lines:
        if split_chars:
            toks = [_Token(ch, t.line, t.col + k) for t in toks for k, ch in enumerate(t.text)]
        rows.append(toks)
    n = len(rows[0])
    if n < 3 or n > 16:
        raise _error(first[0], f"the first map row has {n} cells: a puzzle is 3×3 to 16×16")
    if len(rows) < n:
        raise _error(lines[-1][1][-1], f"the map needs {n} rows of {n} cells, found only {len(rows)} line{'' if len(rows) == 1 else 's'}")
    for row in rows[:n]:
        if len(row) != n:
            raise _error(row[0], f"map row has {len(row)} cells, the first row has {n}")
    return rows[:n], lines[n:]


def _read_sections(rest, n: int, cells_of: dict[str, list[Cell]]):
    """Clues, rules and entries from the lines after the map."""
    clues: dict[str, tuple[str, int]] = {}
    rules: bool | None = None
    entry_rows: list[list[_Token]] = []
    mode = "clues"
    for _, toks in rest:
        head = toks[0].text.lower().rstrip(":")
        if head == "entries":
            mode, toks = "entries", toks[1:]
        elif head == "rules":
            if len(toks) != 2 or toks[1].text.lower() not in ("calcudoku", "classic"):
                raise _error(toks[0], "write 'rules: calcudoku' or 'rules: classic'")
            rules = toks[1].text.lower() == "calcudoku"
            continue
        if mode == "entries":
            if toks:
                entry_rows.append(toks)
            continue
        _read_clues(toks, cells_of, clues)
    return clues, rules, _read_entries(entry_rows, n) if entry_rows or mode == "entries" else None


def _read_clues(toks: list[_Token], cells_of, clues: dict[str, tuple[str, int]]) -> None:
    """Read ``label clue`` pairs from one line into ``clues``."""
    if len(toks) % 2:
        raise _error(toks[-1], "clues come in pairs: a cage label, then its clue, like 'a 12x'")
    for label, clue in zip(toks[::2], toks[1::2]):
        if label.text not in cells_of:
            raise _error(label, f"'{label.text}' is not a label on the map")
        if label.text in clues:
            raise _error(label, f"cage '{label.text}' has two clues")
        match = CLUE.match(clue.text)
        if not match or (match["pre"] and match["post"]):
            raise _error(clue, f"'{clue.text}' is not a clue: write a number with an operator, like 12x, 3-, 2/, 11+")
        glyph = match["pre"] or match["post"]
        op = GLYPH_OPS[glyph] if glyph else ("=" if len(cells_of[label.text]) == 1 else "?")
        clues[label.text] = (op, int(match["num"]))


def _read_entries(rows: list[list[_Token]], n: int):
    """N rows of N digits (``.`` empty) → entries grid."""
    if len(rows) != n:
        where = rows[-1][-1] if rows else _Token("", 0, 1)
        raise _error(where, f"'entries:' needs {n} rows of {n} digits, found {len(rows)}")
    grid = []
    for toks in rows:
        if len(toks) == 1 and len(toks[0].text) == n and n <= 9:
            toks = [_Token(ch, toks[0].line, toks[0].col + k) for k, ch in enumerate(toks[0].text)]
        if len(toks) != n:
            raise _error(toks[0], f"an entries row needs {n} digits or '.', found {len(toks)}")
        row = []
        for tok in toks:
            if tok.text in EMPTY:
                row.append(None)
            elif tok.text.isdigit() and 1 <= int(tok.text) <= n:
                row.append(int(tok.text))
            else:
                raise _error(tok, f"'{tok.text}' is not a digit 1..{n} or '.'")
        grid.append(tuple(row))
    return tuple(grid)


def _labels(count: int) -> list[str]:
    """a..z, A..Z, then two-letter labels: enough for any 16×16."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    labels = list(letters)
    labels += [a + b for a in letters for b in letters]
    return labels[:count]


def format_text(puzzle: Puzzle) -> str:
    """The text format of a puzzle (round-trips through :func:`parse_text`)."""
    n = puzzle.size
    labels = _labels(len(puzzle.cages))
    width = max(len(lab) for lab in labels) if labels else 1
    lines = []
    for r in range(n):
        row = [labels[puzzle.cage_of[(r, c)]] if (r, c) in puzzle.cage_of else "." for c in range(n)]
        lines.append(" ".join(tok.ljust(width) for tok in row).rstrip())
    clues = []
    for label, cage in zip(labels, puzzle.cages):
        if cage.op in "=?":
            clues.append(f"{label} {cage.target}")
        else:
            clues.append(f"{label} {cage.target}{ {'*': 'x'}.get(cage.op, cage.op) }")
    for i in range(0, len(clues), 8):
        lines.append("  ".join(clues[i:i + 8]))
    if puzzle.calcudoku is not None:
        lines.append(f"rules: {'calcudoku' if puzzle.calcudoku else 'classic'}")
    if puzzle.entries is not None:
        lines.append("entries:")
        w = 2 if n > 9 else 1
        lines += [" ".join(digit_text(v).rjust(w) for v in row) for row in puzzle.entries]
    return "\n".join(lines) + "\n"
