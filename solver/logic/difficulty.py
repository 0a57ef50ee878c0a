"""How hard a puzzle is for a person: the hardest technique it needs, and whether logic is enough.

The logic solver always uses the easiest technique that makes progress, so the hardest level among
its steps is the least a solver must know. Levels:

1. easy — one-cell cages, naked and hidden singles, cage combinations;
2. moderate — pairs, a digit a cage needs in a line, one row or column total;
3. tricky — a line forcing a digit into a cage, triples and quads, totals across lines;
4. fiendish — X-wing, swordfish, pairs of cages tried together;
5. unreasonable — these techniques do not finish it: it needs trial and error (or a technique
   kensnap does not know).

On Simon Tatham's Keen sets in ``../shared/puzzles/keen`` the mean level goes up from its hard to its
extreme to its unreasonable puzzles (see the README for the measured numbers).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..puzzle import Puzzle
from .deduce import Explanation, explain

LEVEL_NAMES = {1: "easy", 2: "moderate", 3: "tricky", 4: "fiendish", 5: "unreasonable"}


@dataclass(frozen=True)
class Grade:
    """``level`` 1..5 and its ``name``; ``hardest``: the key of the hardest technique used (None when
    nothing was needed); ``solved_by_logic``; ``steps``: how many steps logic took; ``status``: the
    puzzle's ``'unique'``, ``'multiple'`` or ``'none'`` (a puzzle without exactly one solution gets
    level 5: logic cannot finish it)."""

    level: int
    name: str
    hardest: str | None
    solved_by_logic: bool
    steps: int
    status: str


def grade_of(explanation: Explanation) -> Grade:
    """The grade of an explanation already computed."""
    hardest = explanation.hardest
    if not explanation.solved_by_logic:
        level = 5
    else:
        level = max(1, hardest.level if hardest else 1)
    return Grade(level, LEVEL_NAMES[level], hardest.technique if hardest else None,
                 explanation.solved_by_logic, len(explanation.steps), explanation.status)


def grade(puzzle: Puzzle) -> Grade:
    """The difficulty of ``puzzle`` (its entries are ignored); the SAT engine is asked only when logic
    stops short. Raises PuzzleError for an impossible clue."""
    return grade_of(explain(puzzle))
