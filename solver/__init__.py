"""kensnap's solver: the puzzle model and formats, the PySAT engine, checks of half-filled grids.

It imports neither ``vision`` nor ``ui``: data flows image → vision → puzzle → solver → ui.
"""
from .engine import Conflict, Engine, Result, solve
from .puzzle import Cage, Cell, Grid, Puzzle, PuzzleError, cell_name, clue_problems

__all__ = ["Cage", "Cell", "Conflict", "Engine", "Grid", "Puzzle", "PuzzleError", "Result",
           "cell_name", "clue_problems", "solve"]
