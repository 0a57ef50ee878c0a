"""Small fixed puzzles (built without the generator) and helpers for the drawing tests.

The 4×4 and 6×6 come from ``../shared/puzzles/seed-puzzles.json`` when it is there (with their
solutions); otherwise equivalent local puzzles are used, so the tests also run on their own.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from solver.puzzle import Cage, Puzzle

SEED_PUZZLES = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "seed-puzzles.json"


def latin_square(n: int) -> tuple[tuple[int, ...], ...]:
    """A simple valid N×N solution: row r is 1..N shifted by r."""
    return tuple(tuple((r + c) % n + 1 for c in range(n)) for r in range(n))


def domino_puzzle(n: int, operators_shown: bool = True) -> tuple[Puzzle, tuple[tuple[int, ...], ...]]:
    """An N×N puzzle of horizontal two-cell '+' cages (a single '=' cell ends odd rows), and its
    latin-square solution. Not uniquely solvable; only for drawing."""
    solution = latin_square(n)
    cages = []
    for r in range(n):
        for c in range(0, n - 1, 2):
            cages.append(Cage(((r, c), (r, c + 1)), "+", solution[r][c] + solution[r][c + 1]))
        if n % 2:
            cages.append(Cage(((r, n - 1),), "=", solution[r][n - 1]))
    return Puzzle(n, tuple(cages), operators_shown), solution


def seed_puzzle(key: str) -> tuple[Puzzle, tuple[tuple[int, ...], ...]]:
    """A puzzle of the shared seed file and its solution; a domino puzzle of the same size when
    the shared file is missing."""
    size = int(key.split("-")[1].split("x")[0])
    if not SEED_PUZZLES.exists():
        return domino_puzzle(size)
    entry = json.loads(SEED_PUZZLES.read_text())[key]
    raw = entry["puzzle"]
    cages = tuple(Cage(tuple(map(tuple, c["cells"])), c["op"], c["target"]) for c in raw["cages"])
    puzzle = Puzzle(raw["size"], cages, raw.get("operators_shown", True))
    return puzzle, tuple(map(tuple, entry["solution"]))


def puzzle_of_size(n: int) -> tuple[Puzzle, tuple[tuple[int, ...], ...]]:
    """A puzzle of size N for drawing: the seed 4×4/6×6/9×9 where there is one, else dominoes."""
    key = {4: "seed000-4x4", 6: "seed000-6x6", 9: "seed000-9x9"}.get(n)
    return seed_puzzle(key) if key else domino_puzzle(n)


def grey(image: np.ndarray) -> np.ndarray:
    """Luminance of an RGB image, float32."""
    return image.astype(np.float32) @ np.float32([0.299, 0.587, 0.114])
