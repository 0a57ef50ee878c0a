"""One deduction of the logic solver (:class:`Step`), the techniques' names and levels, and the few
phrases the explanations share ("r2c3 cannot be 1 or 4", "{2,4,5} or {1,4,6}").
"""
from __future__ import annotations

from dataclasses import dataclass

from ..puzzle import Cell, cell_name


@dataclass(frozen=True)
class Technique:
    """A named way of deducing: ``key`` (used in JSON), ``name`` (for people), ``level`` 1..4
    (the difficulty it adds to a puzzle, see :mod:`solver.logic.difficulty`), ``idea`` (one line)."""

    key: str
    name: str
    level: int
    idea: str


TECHNIQUES: dict[str, Technique] = {t.key: t for t in (
    Technique("single_cell_cage", "one-cell cage", 1, "a cage of one cell holds its clue"),
    Technique("naked_single", "naked single", 1,
              "a cell with one candidate left holds it, so no other cell of its row or column does"),
    Technique("hidden_single", "hidden single", 1, "a digit that fits in only one cell of a row or column goes there"),
    Technique("cage_combinations", "cage combinations", 1,
              "only the digit combinations that make the clue (different digits in a row or column) remain"),
    Technique("naked_pair", "naked pair", 2, "two cells of a line with the same two candidates take those digits"),
    Technique("hidden_pair", "hidden pair", 2, "two digits that fit only in the same two cells of a line fill them"),
    Technique("cage_confinement", "digit a cage needs in a line", 2,
              "a digit every combination of a cage puts in one row or column is nowhere else in it"),
    Technique("line_forces_cage", "line forces cage", 3,
              "a digit that fits in a line only inside one cage must be in that cage"),
    Technique("line_total", "row or column total", 2,
              "a row sums to N(N+1)/2 and multiplies to N!, so the cages in it fix the last cell"),
    Technique("naked_triple", "naked triple", 3, "three cells of a line with three candidates between them take those digits"),
    Technique("hidden_triple", "hidden triple", 3, "three digits that fit only in three cells of a line fill them"),
    Technique("naked_quad", "naked quad", 3, "four cells of a line with four candidates between them take those digits"),
    Technique("hidden_quad", "hidden quad", 3, "four digits that fit only in four cells of a line fill them"),
    Technique("band_total", "totals across lines", 3,
              "the sum (or product) of a row, column or band of them, minus its cages, limits the cells left over"),
    Technique("x_wing", "X-wing", 4,
              "a digit confined to the same two columns in two rows is in no other cell of those columns"),
    Technique("swordfish", "swordfish", 4,
              "a digit confined to the same three columns in three rows is in no other cell of those columns"),
    Technique("cage_pair", "pair of cages", 4,
              "two cages sharing a line are tried together: combinations that clash are dropped"),
    Technique("contradiction", "contradiction", 0, "the candidates left cannot hold together"),
)}


@dataclass(frozen=True)
class Step:
    """One deduction, explained.

    ``technique`` is a key of :data:`TECHNIQUES`; ``text`` is one or two sentences for a person.
    ``cells`` are the cells whose candidates the deduction reads (where to look; a step stays valid as
    long as those cells keep their candidates), ``cages`` indexes into ``puzzle.cages`` of the cages
    it uses, ``focus`` names the place in words ('row 2', 'the 11+ cage at r2c1', 'r3c4').
    ``removed`` are the (cell, digit) candidates crossed out, ``placed`` the (cell, digit) of cells left
    with one candidate by this step. A ``contradiction`` step removes nothing: it says why the
    candidates cannot be completed.
    """

    technique: str
    text: str
    cells: tuple[Cell, ...]
    cages: tuple[int, ...]
    focus: str
    removed: tuple[tuple[Cell, int], ...]
    placed: tuple[tuple[Cell, int], ...] = ()

    @property
    def level(self) -> int:
        """The difficulty level of the technique (1..4; 0 for a contradiction)."""
        return TECHNIQUES[self.technique].level

    @property
    def name(self) -> str:
        """The technique's name for people."""
        return TECHNIQUES[self.technique].name

    def to_json(self) -> dict:
        """The step as a JSON-ready object."""
        return {"technique": self.technique, "name": self.name, "level": self.level, "text": self.text,
                "focus": self.focus, "cells": [list(c) for c in self.cells], "cages": list(self.cages),
                "removed": [[r, c, d] for (r, c), d in self.removed],
                "placed": [[r, c, d] for (r, c), d in self.placed]}


def digit_list(digits, word: str = "or") -> str:
    """'4', '1 or 4', '1, 3 or 4'."""
    items = [str(d) for d in sorted(digits)]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def digit_set(digits) -> str:
    """'{2,4,5}'."""
    return "{" + ",".join(str(d) for d in sorted(digits)) + "}"


def cell_list(cells, word: str = "and") -> str:
    """'r1c2', 'r1c2 and r3c4', 'r1c2, r2c2 and r3c4'."""
    names = [cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def removal_text(removed: list[tuple[Cell, int]]) -> str:
    """'r2c1 and r2c2 cannot be 3; r2c4 cannot be 1 or 6' — cells with the same digits share a clause."""
    by_cell: dict[Cell, set[int]] = {}
    for cell, d in removed:
        by_cell.setdefault(cell, set()).add(d)
    groups: dict[tuple[int, ...], list[Cell]] = {}
    for cell in sorted(by_cell):
        groups.setdefault(tuple(sorted(by_cell[cell])), []).append(cell)
    return "; ".join(f"{cell_list(cells)} cannot be {digit_list(ds)}" for ds, cells in groups.items())


def placed_text(placed: list[tuple[Cell, int]]) -> str:
    """'; that leaves r2c3 = 4' (empty when nothing is placed)."""
    if not placed:
        return ""
    return "; that leaves " + cell_list_values(placed)


def cell_list_values(placed) -> str:
    """'r2c3 = 4', 'r2c3 = 4 and r5c1 = 2'."""
    items = [f"{cell_name(c)} = {d}" for c, d in sorted(placed)]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def lines_phrase(names: list[str]) -> str:
    """['row 2', 'row 3', 'column 8'] → 'rows 2 and 3 and column 8'."""
    groups: dict[str, list[str]] = {}
    for name in names:
        word, number = name.split()
        groups.setdefault(word, []).append(number)
    parts = []
    for word, numbers in groups.items():
        if len(numbers) == 1:
            parts.append(f"{word} {numbers[0]}")
        else:
            parts.append(f"{word}s {', '.join(numbers[:-1])} and {numbers[-1]}")
    return " and ".join(parts)


def combos_text(tuples, limit: int = 4) -> str:
    """The digit combinations (as sets, order ignored) of some tuples: '{2,4,5} or {1,4,6}', or 'one of
    7 combinations' when there are more than ``limit``."""
    combos = sorted({tuple(sorted(t)) for t in tuples})
    if len(combos) > limit:
        return f"one of {len(combos)} combinations"
    return " or ".join(digit_set(c) for c in combos)
