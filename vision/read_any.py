"""Which puzzle a photo holds, and its reading: a Kakuro when a Kakuro grid is found, else a KenKen.

Both looks need the KenKen grid finder (:func:`vision.grid.find_grid`): its fitted outline is one of
the Kakuro finder's candidates, and it is the KenKen reader's first stage. Here it runs once for
both (it is a third to a half of a KenKen photo's reading time).

The solver settles doubt between the two: a KenKen photo under a shadow can pass for a Kakuro (the
shadow's edge across a cell looks like a clue cell's diagonal), so a Kakuro reading that is not
confident, of a photo where the KenKen finder also found a grid, is weighed against the KenKen
reading: the KenKen is taken when it is confident, or has exactly one solution while the Kakuro
has none or several, or has a rival reading nearly as likely and changed no fewer numbers than the
KenKen changed clues (a Kakuro photo read as a KenKen gives a small grid whose clues the solver
had to change; kk2026-0042 read as a 3×3 with three clues changed).

Example::

    reading = read_any("photo.jpg")          # vision.read.Reading or vision.kakuro.KakuroReading
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from .errors import NoPuzzleFound
from .grid import find_grid
from .image_io import load_image
from .kakuro import RIVAL_NOTE, KakuroReading, read_kakuro
from .read import Reading, read, timed_stage


def read_any(image: str | Path | bytes | np.ndarray, *, debug: bool = False) -> Reading | KakuroReading:
    """The Kakuro reading of ``image`` when it holds a Kakuro grid, else its KenKen reading (a
    doubtful Kakuro is weighed against the KenKen reading, see the module docstring; the reading
    taken says so in its notes and counts both readers' time).

    Raises ImageError for a file that is not a usable image and NoPuzzleFound (the KenKen
    finder's message) when neither finds a puzzle; the KenKen reader's other errors as
    :func:`vision.read.read`."""
    seconds: dict[str, float] = {}
    with timed_stage(seconds, "load"):
        pixels = image if isinstance(image, np.ndarray) else load_image(image)
    missing: NoPuzzleFound | None = None
    with timed_stage(seconds, "grid"):
        try:
            grid = find_grid(pixels)
        except NoPuzzleFound as err:
            grid, missing = None, err
    with timed_stage(seconds, "kakuro look"):
        try:
            kakuro = read_kakuro(pixels, debug=debug, kenken=(grid,) if grid is not None else (),
                                 seconds={"load": seconds["load"], "kenken grid": seconds["grid"]})
        except NoPuzzleFound:
            kakuro = None
    if kakuro is not None and (kakuro.confident or grid is None):
        return kakuro
    if missing is not None:
        raise missing
    kenken = read(pixels, debug=debug, grid=grid, seconds=seconds)
    if kakuro is None:
        return kenken
    settled = kakuro.status == "unique" and not any(note.startswith(RIVAL_NOTE) for note in kakuro.notes)
    guessed_less = kakuro.status != "unique" or len(kenken.changes) <= len(kakuro.changes)
    if kenken.confident or (kenken.status == "unique" and not settled and guessed_less):
        return replace(kenken, notes=kenken.notes + (
            f"a Kakuro grid was seen too; read as a KenKen (as a Kakuro: {_verdict(kakuro)})",))
    return replace(kakuro, seconds={**kakuro.seconds, "kenken look": sum(kenken.seconds.values()) - sum(seconds.values())},
                   notes=kakuro.notes + (f"read as a Kakuro (as a KenKen: {_verdict(kenken)})",))


def _verdict(reading: Reading | KakuroReading) -> str:
    """'exactly one solution, not confident' and the like, for a note."""
    status = {"unique": "exactly one solution", "multiple": "several solutions", "none": "no solution"}
    return f"{status.get(reading.status, reading.status)}, {'confident' if reading.confident else 'not confident'}"
