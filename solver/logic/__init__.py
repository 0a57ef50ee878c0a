"""Human-style solving: named techniques step by step, hints, why an entry is wrong, difficulty.

The API the app and the command line use::

    from solver.logic import explain, hint, grade, why_wrong

    explanation = explain(puzzle)          # Explanation(steps, solved_by_logic, solution, status, ...)
    for step in explanation.steps:         # Step(technique, text, cells, cages, focus, removed, placed)
        print(step.text)
    tip = hint(puzzle, entries, pencil, level=2)   # Hint(level, technique, explanation, cells, cell,
                                                   #      value, wrong_entries, steps)
    grade(puzzle)                          # Grade(level=3, name='tricky', hardest='line_forces_cage', ...)
    why_wrong(puzzle, (1, 0), 4, entries)  # WhyWrong(..., text='r2c1 cannot be 4: ...')

Cells are ``(row, col)`` from 0; entries are grids with None for empty; pencil marks are grids of
digit sets (empty for none). Every function raises :class:`solver.PuzzleError` for bad input.
Modules: :mod:`.board` (bitmask candidates), :mod:`.lines`, :mod:`.cages`, :mod:`.totals` (the
techniques), :mod:`.deduce` (the solver loop, :func:`explain`), :mod:`.difficulty`, :mod:`.hints`,
:mod:`.why_wrong`, :mod:`.steps` (the Step record and technique names).
"""
from .deduce import Explanation, explain, prerequisites
from .difficulty import LEVEL_NAMES, Grade, grade, grade_of
from .hints import Hint, hint
from .steps import TECHNIQUES, Step, Technique
from .why_wrong import WhyWrong, why_wrong

__all__ = ["Explanation", "Grade", "Hint", "LEVEL_NAMES", "Step", "TECHNIQUES", "Technique", "WhyWrong",
           "explain", "grade", "grade_of", "hint", "prerequisites", "why_wrong"]
