"""Readable terminal text for results: grids with cage walls, verdicts, conflicts."""
from __future__ import annotations

from solver import Puzzle, Result
from solver.check import CheckResult
from solver.engine import Conflict
from solver.puzzle import Grid, cell_name, digit_text


def conflict_text(conflict: Conflict | None, missing: str = "?") -> str:
    """A conflict's cages and entries in words (``missing`` when there is none); one the solver did
    not narrow down to a minimal set says that some of them may hold."""
    if conflict is None:
        return missing
    names = "; ".join(conflict.names)
    return names if conflict.minimal else f"{names} (not narrowed down further, it took too long: some of these may hold)"


def grid_text(puzzle: Puzzle, grid: Grid, mark: set | frozenset = frozenset()) -> str:
    """The grid drawn with cage walls: '|' and '---' between cages, spaces inside; marked cells in
    brackets."""
    n = puzzle.size
    w = 2 if n > 9 else 1
    cage = lambda r, c: puzzle.cage_of.get((r, c), -1 - r * n - c)
    lines = ["+" + "+".join("-" * (w + 2) for _ in range(n)) + "+"]
    for r in range(n):
        row = "|"
        for c in range(n):
            v = digit_text(grid[r][c]).rjust(w)
            row += f"[{v}]" if (r, c) in mark else f" {v} "
            row += "|" if c == n - 1 or cage(r, c) != cage(r, c + 1) else " "
        lines.append(row)
        sep = "+"
        for c in range(n):
            wall = r == n - 1 or cage(r, c) != cage(r + 1, c)
            sep += ("-" * (w + 2) if wall else " " * (w + 2)) + "+"
        lines.append(sep)
    return "\n".join(lines)


def solve_report(label: str, puzzle: Puzzle, result: Result) -> str:
    """What `kensnap solve` prints for one puzzle."""
    head = f"{label}: "
    notes = "".join(f"\nnote: {w}" for w in result.warnings)
    if result.status == "unique":
        return f"{head}solved, the solution is unique ({result.time_ms:.1f} ms){notes}\n{grid_text(puzzle, result.solution)}"
    if result.status == "multiple":
        cells = ", ".join(cell_name(c) for c in result.differ)
        return (f"{head}several solutions; two of them differ in {cells} (marked){notes}\n"
                f"{grid_text(puzzle, result.solution, set(result.differ))}\n"
                f"{grid_text(puzzle, result.other, set(result.differ))}")
    names = conflict_text(result.conflict)
    return f"{head}no solution: these cannot hold together: {names}{notes}"


def check_report(label: str, result: CheckResult, cells: int | None = None, as_read: bool = False) -> str:
    """What `kensnap check` prints: wrong cells only, never the digits of empty cells (``cells``: how
    many cells take a digit; ``as_read``: the puzzle was read from a photo, so a puzzle without a
    solution was more likely misread)."""
    lines = [f"{label}: {result.filled}{f' of {cells}' if cells else ''} digit(s) written"]
    if result.status == "none":
        names = conflict_text(result.conflict)
        if as_read:
            return "\n".join(lines + [f"the puzzle as read has no solution, so its digits cannot be checked "
                                      f"(a clue or wall was probably misread): {names}"])
        return "\n".join(lines + [f"the puzzle itself has no solution: {names}"])
    if result.status == "multiple":
        lines.append("note: the puzzle has several solutions; an entry counts as wrong only if no solution has it")
    if result.wrong:
        lines.append("wrong: " + ", ".join(cell_name(c) for c in result.wrong))
    else:
        lines.append("no written digit is wrong")
    lines += [f"clash: {c}" for c in result.clashes]
    if result.completable and cells and result.filled == cells and result.status == "unique":
        lines.append("the grid is complete: solved")
    elif result.completable:
        lines.append("the grid can still be completed")
    else:
        names = conflict_text(result.conflict, "")
        lines.append(f"the grid cannot be completed as written; in conflict: {names}")
    return "\n".join(lines)


def photo_notes(why: str | None, unsure: list, entries: Grid | None, typed: bool,
                consequence: str = "a digit called wrong may be right", hidden: tuple = ()) -> str:
    """What `kensnap check PHOTO` adds to :func:`check_report` (and `hint PHOTO` to its hint): the
    digits read with low confidence (with what they were read as: the person wrote them), the
    ``hidden`` cells whose digits could not be seen (a pen over them), and how far the answer can be
    trusted (``why``: :func:`doubt`)."""
    lines = []
    if unsure and entries is not None:
        lines.append("may be misread, look at them again: " + ", ".join(
            f"{cell_name(c)} (read as {digit_text(entries[c[0]][c[1]])})" for c in unsure))
    if hidden:
        lines.append("not seen, something lies over them: " + ", ".join(map(cell_name, hidden))
                     + " (a digit written there was not read, so it is not checked)")
    if typed:
        lines.append("the digits used are those of --entries, not those read from the photo")
    return "".join("\n" + line for line in lines) + trust_note(why, consequence)


def doubt(confident: bool, status: str, changes: int) -> str | None:
    """Why a photo's reading is not confident, in words (None when it is)."""
    if confident:
        return None
    if status != "unique":
        return f"as read it has {'no solution' if status == 'none' else 'several solutions'}"
    if changes:
        return f"{changes} clue(s) changed by the solver"
    return "some clues or walls read with low confidence"


def trust_note(why: str | None, consequence: str) -> str:
    """A note line for an answer that rests on a photo's reading that is not confident (``why``,
    see :func:`doubt`; "" when it is confident)."""
    if why is None:
        return ""
    return f"\nnote: the puzzle was not read with confidence ({why}): {consequence}; 'kensnap read' shows what was read"


def eval_summary(totals: dict) -> str:
    """The totals of `kensnap eval` as a few readable lines."""
    pct = lambda v: "n/a" if v is None else f"{100 * v:.1f}%"
    lines = [f"images: {totals['images']}   board exact: {pct(totals['board_ok'])}   solved right: "
             f"{pct(totals['solved_ok'])}   entries exact: {pct(totals['entries_ok'])}",
             f"size: {pct(totals['size_ok'])}   cages: {pct(totals['cages_ok'])}   clues: {pct(totals['clues_ok'])}   "
             f"confident but wrong: {totals['confident_wrong']}",
             f"seconds per image: median {totals['median_s']}, p95 {totals['p95_s']}"]
    for key, title in (("by_style_level", "whole boards exact by style and level"),
                       ("by_cell_px", "by photo pixels per cell"),
                       ("by_level_clue_px", "by level and height of the clue digits")):
        if totals.get(key):
            lines.append(f"{title}: " + "; ".join(f"{name} {g['board_ok']}/{g['images']}" for name, g in totals[key].items()))
    if totals["errors"]:
        lines.append("errors: " + "; ".join(f"{k} ×{v}" for k, v in totals["errors"].items()))
    return "\n".join(lines)


def read_report(label: str, reading) -> str:
    """What `kensnap read` prints: the puzzle as read (text format), the verdict and every change."""
    from solver.formats import format_text
    verdict = {"unique": "exactly one solution", "multiple": "several solutions", "none": "no solution"}[reading.status]
    sure = "confident" if reading.confident else "NOT certain"
    lines = [f"{label}: read a {reading.puzzle.size}×{reading.puzzle.size} puzzle, {verdict}, {sure} "
             f"({reading.time_ms:.0f} ms)", format_text(reading.puzzle).rstrip()]
    lines += [f"changed {c.describe()}" for c in reading.changes]
    lines += [f"note: {n}" for n in reading.notes]
    return "\n".join(lines)
