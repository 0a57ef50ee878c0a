"""Kakuro formats: the JSON object (a contract, documented in the README) and a text format a person
can type.

JSON::

    {"puzzle": "kakuro", "rows": 3, "cols": 3,
     "grid": [["#", {"down": 4}, {"down": 3}],
              [{"across": 3}, ".", "."],
              [{"across": 4}, ".", "."]],
     "entries": [[null, null, null], [null, 1, null], [null, null, null]]}

A cell is ``"#"`` (block), ``"."`` (white) or ``{"down": n, "across": n}`` (a clue cell; either key may
be absent). ``entries`` is optional: digits on white cells, null elsewhere. Solutions are grids of the
same shape with digits on white cells and null elsewhere.

Text: one line per row, cells separated by spaces (or ``|`` and ``,``, so ASCII drawings with
``+----+`` rule lines paste as they are)::

    X    4\\   3\\
    \\3   .    .
    \\4   .    1

``X`` (or ``XX…``, ``x``) is a block; ``.`` or ``_`` (``___``) a white cell; a digit 1..9 a white cell
with that digit written in (an entry); ``down\\across`` a clue cell (``17\\``, ``\\10``, ``17\\10``).
``#`` starts a comment, as in the KenKen text format. Every error names the line and column.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..puzzle import Grid, PuzzleError
from .model import BLOCK, WHITE, Clue, KakuroPuzzle

KIND = "kakuro"
CLUE_TOKEN = re.compile(r"(?P<down>\d*)\\(?P<across>\d*)$")
BLOCK_TOKEN = re.compile(r"(X+|x+|█+)$")
WHITE_TOKENS = re.compile(r"(\.|_+)$")
RULE_LINE = re.compile(r"^[\s+\-=|]*$")
SEPARATORS = re.compile(r"[^\s|,]+")


# -- JSON ------------------------------------------------------------------------------------------
def is_kakuro_json(data: Any) -> bool:
    """True for a Kakuro object, or a wrapper holding one under ``truth`` or ``puzzle`` (corpus files)."""
    if not isinstance(data, dict):
        return False
    if data.get("puzzle") == KIND and "grid" in data:
        return True
    return any(isinstance(data.get(key), dict) and is_kakuro_json(data[key]) for key in ("truth", "puzzle"))


def kakuro_from_json(data: Any) -> KakuroPuzzle:
    """Build a KakuroPuzzle from a parsed JSON value; raises PuzzleError naming the key at fault."""
    if isinstance(data, dict) and "grid" not in data:
        for key in ("truth", "puzzle"):
            if isinstance(data.get(key), dict):
                return kakuro_from_json(data[key])
    if not isinstance(data, dict):
        raise PuzzleError("a Kakuro must be a JSON object with 'rows', 'cols' and 'grid'")
    if data.get("puzzle", KIND) != KIND:
        raise PuzzleError(f"'puzzle' must be \"kakuro\", not {data.get('puzzle')!r}")
    rows, cols = (_whole(data, key) for key in ("rows", "cols"))
    grid = data.get("grid")
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        raise PuzzleError("'grid' must be a list of rows")
    layout = tuple(tuple(_square(value, r, c) for c, value in enumerate(row)) for r, row in enumerate(grid))
    entries = data.get("entries")
    if entries is not None:
        entries = _entries_grid(entries, "entries")
    return KakuroPuzzle(rows, cols, layout, entries)


def _whole(data: dict, key: str) -> int:
    if key not in data:
        raise PuzzleError(f"the Kakuro has no '{key}'")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"'{key}' must be a whole number, not {value!r}")
    return value


def _square(value: Any, r: int, c: int):
    """One JSON cell → BLOCK, WHITE or Clue; raises PuzzleError naming ``grid[r][c]``."""
    where = f"grid[{r}][{c}]"
    if value in (BLOCK, WHITE):
        return value
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"down", "across"})
        if unknown:
            raise PuzzleError(f"{where} has unknown key(s) {', '.join(unknown)}: a clue cell has 'down' and/or 'across'")
        try:
            return Clue(value.get("down"), value.get("across"))
        except PuzzleError as err:
            raise PuzzleError(f"{where}: {err}") from None
    raise PuzzleError(f"{where} is {value!r}: use \"#\" (block), \".\" (white) or {{\"down\": n, \"across\": n}}")


def _entries_grid(value: Any, key: str) -> Grid:
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise PuzzleError(f"'{key}' must be a list of rows")
    for row in value:
        for v in row:
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise PuzzleError(f"'{key}' holds {v!r}: use digits 1..9 or null")
    return tuple(tuple(row) for row in value)


def kakuro_to_json(puzzle: KakuroPuzzle) -> dict:
    """The JSON object of a puzzle (``entries`` only when present)."""
    def square(value):
        if isinstance(value, Clue):
            return {key: getattr(value, key) for key in ("down", "across") if getattr(value, key) is not None}
        return value

    data: dict[str, Any] = {"puzzle": KIND, "rows": puzzle.rows, "cols": puzzle.cols,
                            "grid": [[square(v) for v in row] for row in puzzle.grid]}
    if puzzle.entries is not None:
        data["entries"] = [list(row) for row in puzzle.entries]
    return data


def dumps(puzzle: KakuroPuzzle) -> str:
    """One-line JSON of a puzzle."""
    return json.dumps(kakuro_to_json(puzzle), separators=(", ", ": "))


# -- text ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Token:
    text: str
    line: int
    col: int


def _error(token: _Token, message: str) -> PuzzleError:
    return PuzzleError(f"line {token.line}, column {token.col}: {message}")


def _tokens(line: str, number: int) -> list[_Token]:
    """Cell tokens of one line (comment stripped; rule lines like ``+----+`` give none)."""
    line = line.split("#", 1)[0]
    if RULE_LINE.match(line):
        return []
    return [_Token(m.group(), number, m.start() + 1) for m in SEPARATORS.finditer(line)]


def looks_like_kakuro_text(text: str) -> bool:
    """True when some cell of the text is a clue cell ``down\\across`` (the KenKen text format never
    has a backslash)."""
    return any(CLUE_TOKEN.match(tok.text) for i, line in enumerate(text.splitlines())
               for tok in _tokens(line, i + 1))


def parse_kakuro_text(text: str) -> KakuroPuzzle:
    """Parse the text format; raises PuzzleError naming the line and column (or the cell) at fault."""
    rows = [toks for i, line in enumerate(text.splitlines()) if (toks := _tokens(line, i + 1))]
    if rows and len(rows[0]) == 1 and rows[0][0].text.lower() == KIND:
        rows = rows[1:]  # an optional first line 'kakuro'
    if not rows:
        raise PuzzleError("line 1, column 1: the Kakuro text is empty")
    width = len(rows[0])
    layout, entries = [], []
    for toks in rows:
        if len(toks) != width:
            raise _error(toks[0], f"this row has {len(toks)} cells, the first row has {width}")
        layout.append(tuple(_text_square(tok) for tok in toks))
        entries.append(tuple(int(tok.text) if tok.text.isdigit() and len(tok.text) == 1 else None for tok in toks))
    has_entries = any(v is not None for row in entries for v in row)
    return KakuroPuzzle(len(layout), width, tuple(layout), tuple(entries) if has_entries else None)


def _text_square(tok: _Token):
    """One text cell → BLOCK, WHITE (also for a written digit) or Clue."""
    text = tok.text
    if BLOCK_TOKEN.match(text):
        return BLOCK
    if WHITE_TOKENS.match(text) or (text.isdigit() and len(text) == 1 and text != "0"):
        return WHITE
    match = CLUE_TOKEN.match(text)
    if not match:
        raise _error(tok, f"'{text}' is not a Kakuro cell: write X (block), . (white), a digit 1..9 "
                          "(white, written in) or down\\across like 17\\ \\10 17\\10")
    down, across = (int(match[key]) if match[key] else None for key in ("down", "across"))
    try:
        return Clue(down, across)
    except PuzzleError as err:
        raise _error(tok, str(err)) from None


def format_kakuro_text(puzzle: KakuroPuzzle, digits: Grid | None = None) -> str:
    """The text format of a puzzle, with ``digits`` (default: its entries) in the white cells; round-
    trips through :func:`parse_kakuro_text`. Columns are aligned."""
    digits = puzzle.entries if digits is None else digits
    cells = []
    for r, row in enumerate(puzzle.grid):
        line = []
        for c, square in enumerate(row):
            if isinstance(square, Clue):
                line.append(square.text)
            elif square == BLOCK:
                line.append("X")
            else:
                line.append(str(digits[r][c]) if digits is not None and digits[r][c] is not None else ".")
        cells.append(line)
    width = max(len(tok) for line in cells for tok in line)
    return "\n".join(" ".join(tok.ljust(width) for tok in line).rstrip() for line in cells) + "\n"


# -- entries for 'kensnap check --entries' ---------------------------------------------------------
def kakuro_entries_in(text: str, puzzle: KakuroPuzzle) -> Grid:
    """Entries for ``puzzle`` from a JSON grid (or an object with ``entries``), the text format with
    digits written in (its layout must be the puzzle's), or R rows of C tokens: a digit, or ``.``
    ``_`` ``X`` ``-`` for no digit. Raises PuzzleError."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"entries: not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
        grid = _entries_grid(data.get("entries") if isinstance(data, dict) else data, "entries")
    elif looks_like_kakuro_text(text):
        try:
            written = parse_kakuro_text(text)
        except PuzzleError as err:
            raise PuzzleError(f"entries: {err}") from None
        if written.grid != puzzle.grid:
            raise PuzzleError("entries: the written grid's layout differs from the puzzle's")
        grid = written.entries or tuple(tuple(None for _ in row) for row in puzzle.grid)
    else:
        rows = [line.split("#", 1)[0].split() for line in text.splitlines()]
        grid = tuple(tuple(_entry_token(tok, i + 1) for tok in row) for i, row in enumerate(r for r in rows if r))
    return puzzle.with_entries(grid).entries


def _entry_token(token: str, line: int) -> int | None:
    if token in (".", "_", "-", "X", "x") or set(token) <= {"X", "_"}:
        return None
    if not token.isdigit():
        raise PuzzleError(f"entries line {line}: '{token}' is not a digit or '.'")
    return int(token)


def kakuro_pencil_in(text: str, puzzle: KakuroPuzzle) -> tuple[tuple[frozenset[int], ...], ...]:
    """Pencil marks for ``puzzle``: a JSON grid of digit lists (null or [] for none; or an object with
    ``pencil``), or R rows of C tokens, the digits of a cell run together (``135``) and ``.`` ``-``
    ``X`` for none. Marks in cells that are not white are refused. Raises PuzzleError."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"pencil marks: not valid JSON: {err.msg} at line {err.lineno}") from None
        data = data.get("pencil") if isinstance(data, dict) else data
        if not isinstance(data, list) or not all(isinstance(row, list) for row in data):
            raise PuzzleError("pencil marks must be a JSON list of rows (or an object with 'pencil')")
        rows = [[[] if cell is None else cell for cell in row] for row in data]
    else:
        rows = [[[] if tok in (".", "-", "_") or set(tok) <= {"X", "x"} else list(tok) for tok in line.split("#", 1)[0].split()]
                for line in text.splitlines()]
        rows = [row for row in rows if row]
    if len(rows) != puzzle.rows or any(len(row) != puzzle.cols for row in rows):
        raise PuzzleError(f"pencil marks must be {puzzle.rows} rows of {puzzle.cols} cells")
    out = []
    for r, row in enumerate(rows):
        cells = []
        for c, marks in enumerate(row):
            values = [int(d) if isinstance(d, str) and d.isdigit() else d for d in marks] if isinstance(marks, list) else marks
            if not isinstance(values, list) or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 9
                                                       for d in values):
                raise PuzzleError(f"pencil marks at r{r + 1}c{c + 1} must be digits 1..9, not {marks!r}")
            if values and puzzle.grid[r][c] != WHITE:
                raise PuzzleError(f"pencil marks at r{r + 1}c{c + 1}: that cell is not a white cell")
            cells.append(frozenset(values))
        out.append(tuple(cells))
    return tuple(out)
