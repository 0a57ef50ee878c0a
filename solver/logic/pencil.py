"""Pencil marks from text: a JSON grid of digit lists, or rows of tokens.

JSON: ``[[[1, 3], [], null, ...], ...]`` (or an object with ``"pencil"``), a list or null per cell.
Text: one row per line, one token per cell separated by spaces: the digits run together for N ≤ 9
(``135``) or joined by commas (``1,3,12``), ``.`` or ``-`` for a cell without marks.
"""
from __future__ import annotations

import json

from ..puzzle import PuzzleError

Pencil = tuple[tuple[frozenset[int], ...], ...]


def pencil_in(text: str, n: int) -> Pencil:
    """The pencil marks of an N×N grid; raises :class:`PuzzleError` with a readable message."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"pencil marks: not valid JSON: {err.msg} at line {err.lineno}") from None
        if isinstance(data, dict):
            data = data.get("pencil")
        if not isinstance(data, list) or not all(isinstance(row, list) for row in data):
            raise PuzzleError("pencil marks must be a JSON list of rows (or an object with 'pencil')")
        rows = [[[] if cell is None else cell for cell in row] for row in data]
    else:
        rows = [[_token(tok, n) for tok in line.split("#", 1)[0].split()] for line in text.splitlines()]
        rows = [row for row in rows if row]
    if len(rows) != n or any(len(row) != n for row in rows):
        raise PuzzleError(f"pencil marks must be {n} rows of {n} cells")
    out = []
    for r, row in enumerate(rows):
        cells = []
        for c, marks in enumerate(row):
            if not isinstance(marks, list) or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= n
                                                      for d in marks):
                raise PuzzleError(f"pencil marks at r{r + 1}c{c + 1} must be digits 1..{n}, not {marks!r}")
            cells.append(frozenset(marks))
        out.append(tuple(cells))
    return tuple(out)


def _token(token: str, n: int) -> list:
    """The digits of one text token ('135', '1,3,12', '.')."""
    if token in (".", "-", "_"):
        return []
    parts = token.split(",") if "," in token or n > 9 else list(token)
    if not all(p.isdigit() for p in parts):
        raise PuzzleError(f"pencil marks: {token!r} is not a list of digits")
    return [int(p) for p in parts]
