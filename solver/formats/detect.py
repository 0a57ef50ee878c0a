"""Tell the formats apart: one text may hold a JSON document, JSON lines, Keen IDs or the text format,
of a KenKen or of a Kakuro (a JSON object with ``"puzzle": "kakuro"``; text with ``down\\across`` clue
cells, several puzzles separated by blank lines).

:func:`puzzles_in` returns one item per puzzle found, each either a Puzzle, a KakuroPuzzle or the
PuzzleError that stopped it, so one bad line never hides the good ones.
"""
from __future__ import annotations

import json
from typing import Any

from ..kakuro.formats import is_kakuro_json, kakuro_from_json, looks_like_kakuro_text, parse_kakuro_text
from ..kakuro.model import KakuroPuzzle
from ..puzzle import Grid, Puzzle, PuzzleError
from .json_schema import puzzle_from_json as _kenken_from_json
from .keen import looks_like_keen, parse_keen
from .text import parse_text

Item = tuple[str, "Puzzle | KakuroPuzzle | PuzzleError"]


def puzzle_from_json(data: Any) -> "Puzzle | KakuroPuzzle":
    """A KenKen or a Kakuro from a parsed JSON value, whichever it is; raises PuzzleError."""
    return kakuro_from_json(data) if is_kakuro_json(data) else _kenken_from_json(data)


def puzzles_in(text: str, name: str) -> list[Item]:
    """Every puzzle in ``text`` labelled ``name`` (``name:LINE`` or ``name:KEY`` when several)."""
    stripped = text.strip()
    if not stripped:
        return [(name, PuzzleError("the input is empty"))]
    lines = [(i + 1, line.strip()) for i, line in enumerate(text.splitlines())
             if line.strip() and not line.strip().startswith("#")]
    if stripped[0] in "{[":
        try:
            return _from_json_value(json.loads(stripped), name)
        except json.JSONDecodeError as err:
            if len(lines) == 1 or not all(line.startswith("{") for _, line in lines):
                return [(name, PuzzleError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"))]
        return [(f"{name}:{i}", _guard(lambda line=line: puzzle_from_json(json.loads(line)))) for i, line in lines]
    if looks_like_kakuro_text(text):
        return _kakuro_texts(text, name)
    if all(looks_like_keen(line) for _, line in lines):
        if len(lines) == 1:
            return [(name, _guard(lambda: parse_keen(lines[0][1])))]
        return [(f"{name}:{i}", _guard(lambda line=line: parse_keen(line))) for i, line in lines]
    if len(lines) == 1 and ":" in lines[0][1] and lines[0][1].split(":")[0].isdigit():
        return [(name, _guard(lambda: parse_keen(lines[0][1])))]
    return [(name, _guard(lambda: parse_text(text)))]


def _from_json_value(data: Any, name: str) -> list[Item]:
    """A JSON document: one puzzle, a list of them, or a map of named ones (like the seed file)."""
    if isinstance(data, list):
        return [(f"{name}:{i}", _guard(lambda d=d: puzzle_from_json(d))) for i, d in enumerate(data)]
    if isinstance(data, dict) and "size" not in data and "truth" not in data and "puzzle" not in data \
            and data and all(isinstance(v, dict) for v in data.values()):
        return [(f"{name}:{key}", _guard(lambda d=d: puzzle_from_json(d))) for key, d in data.items()]
    return [(name, _guard(lambda: puzzle_from_json(data)))]


def _kakuro_texts(text: str, name: str) -> list[Item]:
    """Kakuro text puzzles separated by blank lines (``name:LINE`` of each first line when several)."""
    chunks: list[tuple[int, list[str]]] = []
    current = None
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            current = None
            continue
        if current is None:
            current = (i + 1, [])
            chunks.append(current)
        current[1].append(line)
    chunks = [(start, rows) for start, rows in chunks if looks_like_kakuro_text("\n".join(rows))]
    if len(chunks) <= 1:
        return [(name, _guard(lambda: parse_kakuro_text(text)))]
    return [(f"{name}:{start}", _guard(lambda s=start, r=rows: parse_kakuro_text("\n" * (s - 1) + "\n".join(r))))
            for start, rows in chunks]


def _guard(make) -> "Puzzle | KakuroPuzzle | PuzzleError":
    """Run a parser; a PuzzleError becomes the item instead of escaping."""
    try:
        return make()
    except PuzzleError as err:
        return err
    except json.JSONDecodeError as err:
        return PuzzleError(f"not valid JSON: {err.msg} at column {err.colno}")


def entries_in(text: str, n: int) -> Grid:
    """An entries grid from a JSON grid (or an object with ``entries``) or text rows with ``.`` for
    empty. Raises PuzzleError."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"entries: not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
        if isinstance(data, dict):
            data = data.get("entries")
        if not isinstance(data, list) or not all(isinstance(row, list) for row in data):
            raise PuzzleError("entries must be a JSON list of rows (or an object with 'entries')")
        grid = tuple(tuple(v for v in row) for row in data)
    else:
        rows = [line.split("#", 1)[0].split() for line in text.splitlines()]
        rows = [row for row in rows if row]
        rows = [list(row[0]) if len(row) == 1 and len(row[0]) == n and n <= 9 else row for row in rows]
        grid = tuple(tuple(None if tok in (".", "_", "0", "-") else _digit(tok, i + 1) for tok in row)
                     for i, row in enumerate(rows))
    if len(grid) != n or any(len(row) != n for row in grid):
        raise PuzzleError(f"entries must be {n} rows of {n} cells, found {len(grid)} row(s)")
    for row in grid:
        for v in row:
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= n):
                raise PuzzleError(f"entries hold {v!r}: use digits 1..{n} or '.' (null in JSON)")
    return grid


def _digit(token: str, line: int) -> int:
    if not token.isdigit():
        raise PuzzleError(f"entries line {line}: '{token}' is not a digit or '.'")
    return int(token)
