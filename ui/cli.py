"""The ``kensnap`` command line.

Exit codes (the same for every command):
  0  every puzzle has exactly one solution / every entry is fine
  1  a puzzle has no solution or several, or an entry is wrong
  2  bad input: a file that cannot be read, a malformed puzzle, an impossible clue
Bad input prints one line on stderr (``kensnap: …``), never a traceback; with several inputs the
others still go on.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from solver import Puzzle, PuzzleError, solve
from solver.alternatives import FREE
from solver.check import check
from solver.formats import entries_in, puzzles_in
from solver.kakuro import KakuroPuzzle
from solver.puzzle import cell_name

from . import text_view

OK, NOT_UNIQUE, BAD_INPUT = 0, 1, 2
EPILOG = """exit codes: 0 unique / all fine, 1 no or several solutions or wrong entries (for a photo:
the reading is not certain), 2 bad input.
INPUT is a puzzle file (JSON schema, text format, Keen IDs one per line), a Keen game ID, a photo or
screenshot (JPEG, PNG, WebP), or '-' for standard input (one JSON document, or one puzzle per line)."""


class InputError(Exception):
    """An input that cannot be read at all (missing file, not text)."""


@dataclass(frozen=True)
class Loaded:
    """One puzzle found in an input, or the error that stopped it."""

    label: str
    puzzle: Puzzle | KakuroPuzzle | None
    error: str | None
    reading: object = None
    """What was read, when the puzzle comes from a photo (a vision Reading or KakuroReading)."""


RULES = {"auto": None, "classic": False, "calcudoku": True}


def load_inputs(inputs: list[str], rules: str = "auto") -> Iterator[Loaded]:
    """Every puzzle of every input, in order; an unreadable input yields one Loaded with an error.
    ``rules`` other than 'auto' overrides each puzzle's rule setting."""
    for source in inputs:
        if is_image(source):
            yield _photo_item(source)
            continue
        try:
            text = _read_source(source)
        except InputError as err:
            yield Loaded(source, None, str(err))
            continue
        for label, item in puzzles_in(text, source):
            if isinstance(item, PuzzleError):
                yield Loaded(label, None, str(item))
            elif rules != "auto" and isinstance(item, Puzzle):
                yield Loaded(label, Puzzle(item.size, item.cages, item.operators_shown, item.entries, RULES[rules]), None)
            else:
                yield Loaded(label, item, None)


def _read_source(source: str) -> str:
    """The text of a file, of standard input ('-'), or the argument itself when it is a Keen ID."""
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{source}: not a text puzzle file (images are read by 'kensnap read')") from None
        except OSError as err:
            raise InputError(f"{source}: cannot read ({err.strerror})") from None
    if ":" in source and "," in source and not path.exists():
        return source
    if path.is_dir():
        raise InputError(f"{source}: is a folder, not a puzzle file")
    raise InputError(f"{source}: no such file (and not a Keen game ID like 4:a_7a__a_aaba,d2s1a6a5m4d2s2m12)")


def _emit(args, obj: dict, text: str, to_err: bool = False) -> None:
    """Print a result: one JSON line with --json, else readable text."""
    if args.json:
        print(json.dumps(obj, ensure_ascii=False), flush=True)
    else:
        print(text, file=sys.stderr if to_err else sys.stdout, flush=True)


def cmd_solve(args) -> int:
    """Solve every puzzle of every input."""
    code = OK
    images = [source for source in args.inputs if is_image(source)]
    if images:
        _before_reading(several=len(images) > 1)
    for number, source in enumerate(images):
        code = max(code, _solve_image(args, source, number if len(images) > 1 else None))
    for item in load_inputs([s for s in args.inputs if s not in images], args.rules):
        if item.error:
            code = max(code, _bad(args, item.label, item.error))
            continue
        if isinstance(item.puzzle, KakuroPuzzle):
            code = max(code, _solve_kakuro(args, item))
            continue
        try:
            result = solve(item.puzzle)
        except PuzzleError as err:
            code = max(code, _bad(args, item.label, str(err)))
            continue
        obj = {"input": item.label, "status": result.status,
               "solution": _grid_json(result.solution), "time_ms": result.time_ms}
        if result.status == "multiple":
            obj["other"] = _grid_json(result.other)
            obj["differ"] = [list(c) for c in result.differ]
        if result.conflict:
            obj["conflict"] = {"cages": list(result.conflict.cages), "names": list(result.conflict.names),
                               "minimal": result.conflict.minimal}
        if result.warnings:
            obj["warnings"] = list(result.warnings)
        _emit(args, obj, text_view.solve_report(item.label, item.puzzle, result))
        code = max(code, OK if result.status == "unique" else NOT_UNIQUE)
    return code


def cmd_check(args) -> int:
    """Check the written digits of one puzzle (a KenKen or a Kakuro, from a file or a photo): the
    puzzle's own entries, or those of ``--entries``. For a photo, the puzzle and the digits written
    in it are read first, and the answer says how far to trust them (:func:`_trusted`); exit 0 then
    only when the reading is confident and no digit is unsure."""
    from solver.kakuro.check import check_kakuro
    item = _one_kenken(args, args.input, kakuro=True)
    if isinstance(item, int):
        return item
    kakuro = isinstance(item.puzzle, KakuroPuzzle)
    try:
        typed = _typed_entries(args, item.puzzle)
        if item.reading is not None and typed is None and item.puzzle.entries is None:
            return _bad(args, item.label, "no written digits were read in this photo: nothing to check "
                                          "(give the digits with --entries, or 'kensnap solve' it)")
        result = check_kakuro(item.puzzle, typed) if kakuro else check(item.puzzle, typed)
    except (PuzzleError, InputError) as err:
        return _bad(args, item.label, str(err))
    cells = len(item.puzzle.whites) if kakuro else item.puzzle.size ** 2
    obj, text = _trusted(item, _check_json(item.label, result, kakuro),
                         text_view.check_report(item.label, result, cells, as_read=item.reading is not None),
                         "a digit called wrong may be right", list_unsure=True, typed=typed is not None)
    if item.reading is not None:
        obj.update(changes=len(item.reading.changes), notes=list(item.reading.notes),
                   time_ms=round(item.reading.time_ms + result.time_ms, 1))
    _emit(args, obj, text)
    trusted = item.reading is None or (item.reading.confident and not obj["unsure"])
    return OK if _all_right(result) and trusted else NOT_UNIQUE


def _typed_entries(args, puzzle: Puzzle | KakuroPuzzle) -> Grid | None:
    """The written digits of ``--entries`` for the puzzle (None without it)."""
    if not args.entries:
        return None
    if isinstance(puzzle, KakuroPuzzle):
        from solver.kakuro.formats import kakuro_entries_in
        return kakuro_entries_in(_read_source(args.entries), puzzle)
    return entries_in(_read_source(args.entries), puzzle.size)


def _solve_kakuro(args, item: Loaded) -> int:
    """Solve one Kakuro and print it like a KenKen's result (the grid in the Kakuro text format)."""
    from solver.kakuro.engine import solve_kakuro
    from solver.kakuro.formats import format_kakuro_text
    try:
        result = solve_kakuro(item.puzzle)
    except PuzzleError as err:
        return _bad(args, item.label, str(err))
    obj = {"input": item.label, "puzzle": "kakuro", "status": result.status,
           "solution": _grid_json(result.solution), "time_ms": result.time_ms}
    head = f"{item.label}: Kakuro {item.puzzle.rows}×{item.puzzle.cols}: "
    notes = "".join(f"\nnote: {w}" for w in result.warnings)
    if result.status == "unique":
        text = f"{head}solved, the solution is unique ({result.time_ms:.1f} ms){notes}\n" \
               f"{format_kakuro_text(item.puzzle, result.solution).rstrip()}"
    elif result.status == "multiple":
        obj["other"] = _grid_json(result.other)
        obj["differ"] = [list(c) for c in result.differ]
        cells = ", ".join(cell_name(c) for c in result.differ)
        text = (f"{head}several solutions; two of them differ in {cells}{notes}\n"
                f"{format_kakuro_text(item.puzzle, result.solution)}\n"
                f"{format_kakuro_text(item.puzzle, result.other).rstrip()}")
    else:
        obj["conflict"] = {"runs": list(result.conflict.cages), "names": list(result.conflict.names),
                           "minimal": result.conflict.minimal}
        text = f"{head}no solution: these cannot hold together: {text_view.conflict_text(result.conflict)}{notes}"
    if result.warnings:
        obj["warnings"] = list(result.warnings)
    _emit(args, obj, text)
    return OK if result.status == "unique" else NOT_UNIQUE


def _check_json(label: str, result, kakuro: bool = False) -> dict:
    """The JSON object of a check (a KenKen's or, with ``kakuro``, a Kakuro's, whose conflict names runs)."""
    obj = {"input": label, **({"puzzle": "kakuro"} if kakuro else {}), "status": result.status,
           "filled": result.filled, "wrong": [list(c) for c in result.wrong], "completable": result.completable,
           "clashes": list(result.clashes), "time_ms": result.time_ms}
    if result.conflict:
        obj["conflict"] = {"runs" if kakuro else "cages": list(result.conflict.cages),
                           "entries": [list(c) for c in result.conflict.entries],
                           "names": list(result.conflict.names), "minimal": result.conflict.minimal}
    return obj


def _all_right(result) -> bool:
    """Whether a check found every written digit right, with the grid completable and the puzzle unique."""
    return result.completable and not result.wrong and result.status == "unique"


def _one_kenken(args, source: str, kakuro: bool = False) -> Loaded | int:
    """The one KenKen puzzle of an input (or Kakuro, with ``kakuro``), or the bad-input exit code
    after reporting why not."""
    items = list(load_inputs([source], args.rules))
    if len(items) != 1:
        return _bad(args, source, f"holds {len(items)} puzzles; {args.command} takes one")
    if items[0].error:
        return _bad(args, items[0].label, items[0].error)
    if not isinstance(items[0].puzzle, Puzzle) and not (kakuro and isinstance(items[0].puzzle, KakuroPuzzle)):
        return _bad(args, items[0].label, f"{args.command} works on KenKen puzzles only")
    return items[0]


def cmd_hint(args) -> int:
    """Give a hint for one puzzle and the digits written so far (levels 1-3); a photo's puzzle and
    digits are read from it first."""
    from solver.logic import hint
    from solver.logic.pencil import pencil_in
    item = _one_kenken(args, args.input, kakuro=True)
    if isinstance(item, int):
        return item
    if isinstance(item.puzzle, KakuroPuzzle):
        return _hint_kakuro(args, item)
    try:
        pencil = pencil_in(_read_source(args.pencil), item.puzzle.size) if args.pencil else None
        given = hint(item.puzzle, _typed_entries(args, item.puzzle), pencil, args.level)
    except (PuzzleError, InputError) as err:
        return _bad(args, item.label, str(err))
    return _emit_hint(args, item, given, {})


def _photo_item(source: str) -> Loaded:
    """The puzzle read from a photo, with the digits written in it as its entries and the reading
    itself; or the error that stopped the reading."""
    from vision.errors import VisionError
    from vision.read_any import read_any
    _before_reading(several=False)
    try:
        reading = read_any(source)
    except VisionError as err:
        return Loaded(source, None, str(err))
    return Loaded(source, reading.puzzle, None, reading)


def _trusted(item: Loaded, obj: dict, text: str, consequence: str = "the answer rests on what was read",
             list_unsure: bool = False, typed: bool = False) -> tuple[dict, str]:
    """A result's JSON object and text, with how far to trust the reading added for a photo
    (unchanged for a puzzle file): ``read_confident``, a note saying why not and what follows
    (``consequence``), and with ``list_unsure`` the written digits to look at again (``unsure``; none
    when they were ``typed`` with --entries)."""
    reading = item.reading
    if reading is None:
        return obj, text
    unsure = [] if typed or not list_unsure else list(reading.doubtful_entries())
    hidden = () if typed or not list_unsure else getattr(reading, "hidden_entries", ())
    listed = {"unsure": [list(c) for c in unsure], "hidden": [list(c) for c in hidden]} if list_unsure else {}
    obj = {**obj, "read_confident": reading.confident, **listed}
    return obj, text + text_view.photo_notes(_doubt(reading), unsure, reading.puzzle.entries, typed, consequence,
                                             hidden)


def _doubt(reading) -> str | None:
    """Why a photo's reading is not confident, in words (None when it is)."""
    return text_view.doubt(reading.confident, reading.status, len(reading.changes))


def _emit_hint(args, item: Loaded, given, extra: dict) -> int:
    """Print a hint (a KenKen's or a Kakuro's); for a photo, the digits to look at again and whether
    the puzzle the hint rests on was read with confidence."""
    text = f"{item.label}: hint {given.level} of 3: {given.explanation}"
    if given.level == 3 and given.technique != "wrong_entry" and len(given.steps) > 1:
        text += "\nIt builds on:\n" + "\n".join(f"  {i + 1}. {s.text}" for i, s in enumerate(given.steps[:-1]))
    _emit(args, *_trusted(item, {"input": item.label, **extra, **given.to_json()}, text,
                          "the hint may rest on a misread clue", list_unsure=True, typed=bool(args.entries)))
    return NOT_UNIQUE if given.wrong_entries or given.technique == "no_solution" else OK


def cmd_explain(args) -> int:
    """Solve puzzles step by step with named techniques, explaining every step."""
    from solver.logic import TECHNIQUES, explain, grade_of
    code = OK
    for item in load_inputs(args.inputs, args.rules):
        if isinstance(item.puzzle, KakuroPuzzle):
            code = max(code, _explain_kakuro(args, item))
            continue
        if item.error or not isinstance(item.puzzle, Puzzle):
            code = max(code, _bad(args, item.label, item.error or "explain works on KenKen puzzles only"))
            continue
        try:
            found = explain(item.puzzle)
        except PuzzleError as err:
            code = max(code, _bad(args, item.label, str(err)))
            continue
        grade = grade_of(found)
        lines = [f"{item.label}: {len(found.steps)} steps"]
        for number, step in enumerate(found.steps):
            if args.json:
                _emit(args, {"input": item.label, "step": number + 1, **step.to_json()}, "")
            else:
                lines.append(f"{number + 1:4}. [{step.name}] {step.text}")
        hardest = TECHNIQUES[grade.hardest].name if grade.hardest else "none"
        if found.solved_by_logic:
            lines.append(f"solved by logic alone; grade {grade.level} ({grade.name}), hardest technique: {hardest}")
        elif found.solution is not None:
            lines.append(f"logic gets no further (grade 5, {grade.name}); the SAT engine's answer "
                         f"({found.status}):\n{text_view.grid_text(item.puzzle, found.solution)}")
        else:
            lines.append("logic gets no further and the puzzle has no solution")
        obj = {"input": item.label, "solved_by_logic": found.solved_by_logic, "solution": _grid_json(found.solution),
               "status": found.status, "steps": len(found.steps), "level": grade.level, "name": grade.name,
               "hardest": grade.hardest, "time_ms": found.time_ms}
        _emit(args, *_trusted(item, obj, "\n".join(lines)))
        code = max(code, OK if found.status == "unique" else NOT_UNIQUE)
    return code


def cmd_grade(args) -> int:
    """Rate puzzles 1-5 by the hardest technique they need (5: logic alone does not finish them)."""
    import time

    from solver.logic import TECHNIQUES, grade
    code = OK
    for item in load_inputs(args.inputs, args.rules):
        if isinstance(item.puzzle, KakuroPuzzle):
            code = max(code, _grade_kakuro(args, item))
            continue
        if item.error or not isinstance(item.puzzle, Puzzle):
            code = max(code, _bad(args, item.label, item.error or "grade works on KenKen puzzles only"))
            continue
        start = time.perf_counter()
        try:
            found = grade(item.puzzle)
        except PuzzleError as err:
            code = max(code, _bad(args, item.label, str(err)))
            continue
        ms = round((time.perf_counter() - start) * 1000, 3)
        how = (f"hardest technique: {TECHNIQUES[found.hardest].name}" if found.solved_by_logic and found.hardest
               else "logic alone does not finish it" if found.status == "unique"
               else f"it has {'no' if found.status == 'none' else 'more than one'} solution")
        obj = {"input": item.label, "level": found.level, "name": found.name, "hardest": found.hardest,
               "solved_by_logic": found.solved_by_logic, "steps": found.steps, "status": found.status, "time_ms": ms}
        _emit(args, *_trusted(item, obj, f"{item.label}: {found.level} {found.name} ({how}; {found.steps} steps)"))
        code = max(code, OK if found.status == "unique" else NOT_UNIQUE)
    return code


def _hint_kakuro(args, item: Loaded) -> int:
    """A hint for one Kakuro (the same output as for a KenKen)."""
    from solver.kakuro.formats import kakuro_pencil_in
    from solver.kakuro.hints import hint_kakuro
    try:
        pencil = kakuro_pencil_in(_read_source(args.pencil), item.puzzle) if args.pencil else None
        given = hint_kakuro(item.puzzle, _typed_entries(args, item.puzzle), pencil, args.level)
    except (PuzzleError, InputError) as err:
        return _bad(args, item.label, str(err))
    return _emit_hint(args, item, given, {"puzzle": "kakuro"})


def _explain_kakuro(args, item: Loaded) -> int:
    """Solve one Kakuro step by step with seed 003's techniques (the same output as for a KenKen)."""
    from solver.kakuro.formats import format_kakuro_text
    from solver.kakuro.logic import explain_kakuro, technique_name
    from solver.logic import grade_of
    try:
        found = explain_kakuro(item.puzzle)
    except PuzzleError as err:
        return _bad(args, item.label, str(err))
    grade = grade_of(found)
    lines = [f"{item.label}: Kakuro, {len(found.steps)} steps"]
    for number, step in enumerate(found.steps):
        if args.json:
            _emit(args, {"input": item.label, "step": number + 1, **step.to_json()}, "")
        else:
            lines.append(f"{number + 1:4}. [{step.name}] {step.text}")
    if found.solved_by_logic:
        lines.append(f"solved by logic alone; grade {grade.level} ({grade.name}), hardest technique: "
                     f"{technique_name(grade.hardest)}")
    elif found.solution is not None:
        lines.append(f"logic gets no further (grade 5, {grade.name}); the SAT engine's answer ({found.status}):\n"
                     f"{format_kakuro_text(item.puzzle, found.solution).rstrip()}")
    else:
        lines.append("logic gets no further and the puzzle has no solution")
    obj = {"input": item.label, "puzzle": "kakuro", "solved_by_logic": found.solved_by_logic,
           "solution": _grid_json(found.solution), "status": found.status, "steps": len(found.steps),
           "level": grade.level, "name": grade.name, "hardest": grade.hardest, "time_ms": found.time_ms}
    _emit(args, *_trusted(item, obj, "\n".join(lines)))
    return OK if found.status == "unique" else NOT_UNIQUE


def _grade_kakuro(args, item: Loaded) -> int:
    """Rate one Kakuro 1-5 (1 combinations and singles, 2 permutations, 3 the box, 5 logic is not enough)."""
    from solver.kakuro.logic import explain_kakuro, technique_name
    from solver.logic import grade_of
    try:
        found = explain_kakuro(item.puzzle)
    except PuzzleError as err:
        return _bad(args, item.label, str(err))
    grade = grade_of(found)
    how = (f"hardest technique: {technique_name(grade.hardest)}" if grade.solved_by_logic and grade.hardest
           else "logic alone does not finish it" if grade.status == "unique"
           else f"it has {'no' if grade.status == 'none' else 'more than one'} solution")
    obj = {"input": item.label, "puzzle": "kakuro", "level": grade.level, "name": grade.name, "hardest": grade.hardest,
           "solved_by_logic": grade.solved_by_logic, "steps": grade.steps, "status": grade.status,
           "time_ms": found.time_ms}
    _emit(args, *_trusted(item, obj, f"{item.label}: {grade.level} {grade.name} ({how}; {grade.steps} steps)"))
    return OK if grade.status == "unique" else NOT_UNIQUE


def cmd_bench(args) -> int:
    """Time solve + uniqueness proof over Keen puzzle files."""
    if args.kakuro:
        return _bench_kakuro(args)
    from .bench import run_bench
    return run_bench(args)


def _bench_kakuro(args) -> int:
    """Time Kakuro solve + uniqueness proof on generated puzzles, one row per size (median of
    ``--repeat`` timings per puzzle, fresh engine each time; generation itself is not timed)."""
    import statistics

    from solver.kakuro.engine import solve_kakuro
    from solver.kakuro.generator import KakuroOptions, generate_kakuros

    from .bench import percentile
    sizes = args.generated if args.generated != [12, 16] else [9, 12, 15]
    rows = []
    for n in sizes:
        try:
            options = KakuroOptions(rows=n, cols=n)
        except ValueError as err:
            return _bad(args, "bench", str(err))
        times = []
        for made in generate_kakuros(options, args.count, args.seed):
            runs = [solve_kakuro(made.puzzle) for _ in range(args.repeat)]
            if any(run.status != "unique" for run in runs):
                return _bad(args, "bench", f"generated Kakuro (seed {made.seed}) is not unique")
            times.append(statistics.median(run.time_ms for run in runs))
        rows.append({"set": f"kakuro {n}x{n} generated", "source": f"kensnap generate --kakuro --rows {n} --seed {args.seed}",
                     "count": len(times), "median_ms": round(statistics.median(times), 2),
                     "p95_ms": round(percentile(times, 0.95), 2), "max_ms": round(max(times), 2)})
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return OK
    print(f"{'puzzles':<26}{'count':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}")
    for row in rows:
        print(f"{row['set']:<26}{row['count']:>6}{row['median_ms']:>11.1f}{row['p95_ms']:>9.1f}{row['max_ms']:>9.1f}")
    return OK


IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif", ".tif", ".tiff", ".heic")
IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG", b"RIFF", b"BM", b"GIF8", b"II*\x00", b"MM\x00*")


def is_image(source: str) -> bool:
    """True when the input names an image file (by suffix or by its first bytes)."""
    path = Path(source)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(8).startswith(IMAGE_MAGIC)
    except OSError:
        return False


def reading_json(label: str, reading) -> dict:
    """The schema object of what was read, plus confidence, changes, status and timing."""
    from solver.formats import puzzle_to_json
    obj = {"input": label, **puzzle_to_json(reading.puzzle)}
    clue_p = {cell_name(cell): (round(r.best[2], 4) if r.best else 0.0) for cell, r in reading.clues.items()}
    walls = reading.wall_probability.values()
    obj["confidence"] = {
        "overall": round(min([*clue_p.values(), *(max(p, 1 - p) for p in walls)], default=0.0), 3),
        "clues": clue_p,
        "entries": {cell_name(c): p for c, p in reading.entry_confidence.items()},
        "grid": round(reading.grid.confidence, 3),
    }
    obj["changes"] = [{"cell": list(c.cell), "read": "" if c.read == FREE else f"{c.read[1]}{c.read[0]}",
                       "used": f"{c.used[1]}{c.used[0]}",
                       "reason": c.reason} for c in reading.changes]
    obj["unread_cages"] = [[list(c) for c in cells] for cells in getattr(reading, "unread_cages", ())]
    obj["unsure_entries"] = [list(c) for c in reading.doubtful_entries()]
    obj["hidden_entries"] = [list(c) for c in getattr(reading, "hidden_entries", ())]
    obj["status"] = reading.status
    obj["confident"] = reading.confident
    obj["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in reading.corners]
    obj["notes"] = list(reading.notes)
    obj["time_ms"] = reading.time_ms
    return obj


def _before_reading(*, several: bool) -> None:
    """Get ready to read one photo or ``several``: have it said on stderr, once, when a photo needs
    a model that is not fitted yet (a fresh machine: hours, see :mod:`vision.model_cache`), at the
    moment it is needed, so that a bad file's error stays its one line; and start vision's helper
    process for several (:mod:`vision.helper`: the second core works out half of each grid search;
    one image does not pay for its start)."""
    from vision.glyphs import before_fitting
    from vision.helper import start

    before_fitting(_say_models_missing)
    if several:
        start()


def _say_models_missing(name: str) -> None:
    """Say once on stderr that the photo-reading models (``name`` and any other missing one) are
    being fitted before this photo is read, and about how long it takes."""
    global _models_said
    from vision.model_cache import missing_models

    if _models_said:
        return
    _models_said = True
    missing = missing_models()
    names = [m.name for m in missing] or [name]
    minutes = sum(m.minutes for m in missing)
    print(f"kensnap: the photo-reading models are not fitted on this machine yet ({', '.join(names)}): "
          f"they are fitted now, once, before this photo is read (about {minutes or 'ten or more'} minutes "
          "on two cores, up to twice that on a busy machine; if another kensnap process is fitting one, "
          "this waits for it). `kensnap models --fit` fits them ahead of time.", file=sys.stderr, flush=True)


_models_said = False
"""Whether this process has said that the models must be fitted first (said once)."""


def cmd_read(args) -> int:
    """Read puzzles from photos or screenshots."""
    from vision.errors import VisionError
    from vision.kakuro import KakuroReading
    from vision.read_any import read_any
    code = OK
    _before_reading(several=len(args.images) > 1)
    for source in args.images:
        try:
            reading = read_any(source, debug=bool(args.debug))
        except VisionError as err:
            code = max(code, _bad(args, source, str(err)))
            continue
        if isinstance(reading, KakuroReading):
            if args.debug:
                _write_debug(Path(args.debug), source, reading)
            _emit(args, kakuro_reading_json(source, reading), _kakuro_read_report(source, reading))
            code = max(code, OK if reading.confident else NOT_UNIQUE)
            continue
        if args.debug:
            _write_debug(Path(args.debug), source, reading)
        _emit(args, reading_json(source, reading), text_view.read_report(source, reading))
        code = max(code, OK if reading.confident else NOT_UNIQUE)
    return code


def _solve_image(args, source: str, number: int | None) -> int:
    """Read and solve one photo; with --overlay, draw the solution into the photo's cells."""
    from vision.errors import VisionError
    from vision.image_io import load_image
    from vision.kakuro import KakuroReading
    from vision.read_any import read_any
    try:
        pixels = load_image(source)
        reading = read_any(pixels)
    except VisionError as err:
        return _bad(args, source, str(err))
    if isinstance(reading, KakuroReading):
        return _solve_kakuro_photo(args, source, number, pixels, reading)
    obj = reading_json(source, reading)
    obj["solution"] = _grid_json(reading.solution)
    if args.overlay and reading.solution is not None:
        out = Path(args.overlay)
        if number is not None:
            out = out.with_name(f"{out.stem}-{number + 1}{out.suffix or '.png'}")
        _save_overlay(pixels, reading, out)
        obj["overlay"] = str(out)
    _emit(args, obj, text_view.read_report(source, reading) + "\n" + (
        text_view.grid_text(reading.puzzle, reading.solution) if reading.solution else ""))
    return OK if reading.confident else NOT_UNIQUE


def kakuro_reading_json(label: str, reading) -> dict:
    """The Kakuro JSON object of what was read, plus confidence, changes, status and timing."""
    from solver.kakuro.formats import kakuro_to_json
    numbers = {f"{cell_name(cell)} {direction}": (alts[0][1] if alts else 0.0)
               for (cell, direction), alts in sorted(reading.numbers.items())}
    return {"input": label, **kakuro_to_json(reading.puzzle),
            "confidence": {"overall": reading.confidence, "numbers": numbers,
                           "cells": round(min((max(p, 1 - p) for p in reading.white.values()), default=0.0), 3),
                           "entries": {cell_name(c): p for c, p in reading.entry_confidence.items()},
                           "grid": round(reading.grid.confidence, 3)},
            "changes": [{"cell": list(c.slot[0]), "direction": c.slot[1], "read": c.read, "used": c.used,
                         "reason": c.reason} for c in reading.changes],
            "unsure_entries": [list(c) for c in reading.doubtful_entries()],
            "status": reading.status, "confident": reading.confident,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in reading.corners],
            "notes": list(reading.notes), "time_ms": reading.time_ms}


def _kakuro_read_report(label: str, reading) -> str:
    """What `kensnap read` prints for a Kakuro photo: the puzzle as read, the verdict, every change."""
    from solver.kakuro.formats import format_kakuro_text
    verdict = {"unique": "exactly one solution", "multiple": "several solutions", "none": "no solution"}[reading.status]
    sure = "confident" if reading.confident else "NOT certain"
    lines = [f"{label}: read a {reading.puzzle.rows}×{reading.puzzle.cols} Kakuro, {verdict}, {sure} "
             f"({reading.time_ms:.0f} ms)", format_kakuro_text(reading.puzzle).rstrip()]
    lines += [f"changed {c.describe()}" for c in reading.changes]
    lines += [f"note: {n}" for n in reading.notes]
    return "\n".join(lines)


def _solve_kakuro_photo(args, source: str, number: int | None, pixels, reading) -> int:
    """Print a Kakuro photo's reading and solution; with --overlay, draw the solution into the photo."""
    import cv2

    from solver.kakuro.formats import format_kakuro_text

    from .render_kakuro import draw_kakuro_solution
    obj = kakuro_reading_json(source, reading)
    obj["solution"] = _grid_json(reading.solution)
    if args.overlay and reading.solution is not None:
        out = Path(args.overlay)
        if number is not None:
            out = out.with_name(f"{out.stem}-{number + 1}{out.suffix or '.png'}")
        drawn = draw_kakuro_solution(pixels, reading.corners, reading.puzzle.rows, reading.puzzle.cols, reading.solution)
        out.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(out), cv2.cvtColor(drawn, cv2.COLOR_RGB2BGR))
        obj["overlay"] = str(out)
    solved = format_kakuro_text(reading.puzzle, reading.solution).rstrip() if reading.solution else ""
    _emit(args, obj, _kakuro_read_report(source, reading) + ("\n" + solved if solved else ""))
    return OK if reading.confident else NOT_UNIQUE


def _save_overlay(pixels, reading, out: Path) -> None:
    """Write the photo with the solution drawn into its cells, in perspective (PNG)."""
    import cv2

    from .render import draw_solution
    drawn = draw_solution(pixels, reading.corners, reading.puzzle.size, reading.solution)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), cv2.cvtColor(drawn, cv2.COLOR_RGB2BGR))


def _write_debug(folder: Path, source: str, reading) -> None:
    """Save the debug images of a reading as PNGs named after the input."""
    import cv2
    folder.mkdir(parents=True, exist_ok=True)
    for name, image in reading.debug.items():
        cv2.imwrite(str(folder / f"{Path(source).stem}-{name}.png"), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))


def cmd_eval(args) -> int:
    """Score the recognizer on a folder of labelled images."""
    from dataclasses import asdict

    from .evaluate import default_recognizer, evaluate, summary
    folder = Path(args.folder)
    if not folder.is_dir():
        return _bad(args, args.folder, "no such folder")
    recognize, name = default_recognizer()
    _before_reading(several=True)
    try:
        scores = evaluate(folder, recognize)
    except (PuzzleError, ValueError) as err:
        return _bad(args, args.folder, str(err))
    if not scores:
        return _bad(args, args.folder, "holds no labelled images (<id>.json with 'image' and 'truth')")
    totals = summary(scores)
    if args.json:
        for item in scores:
            print(json.dumps(asdict(item), ensure_ascii=False))
        print(json.dumps({"summary": totals, "recognizer": name}, ensure_ascii=False))
        return OK
    print(f"recognizer: {name}")
    for item in scores:
        marks = " ".join(f"{key}={'yes' if getattr(item, key) else ('-' if getattr(item, key) is None else 'NO')}"
                         for key in ("board_ok", "solved_ok", "entries_ok"))
        print(f"{item.image:<48} {marks} {item.seconds:6.2f}s  {'; '.join(item.errors)[:100]}")
    print(text_view.eval_summary(totals))
    return OK


def cmd_generate(args) -> int:
    """Print freshly generated unique puzzles."""
    if args.kakuro:
        return _generate_kakuro(args)
    from solver.formats import dumps, format_text
    from solver.generator import GeneratorOptions, generate_many
    try:
        options = GeneratorOptions(size=args.size, max_cage=args.max_cage, hidden_ops=args.hidden_ops,
                                   calcudoku=args.calcudoku, multiplication_only=args.multiplication_only)
    except ValueError as err:
        return _bad(args, "generate", str(err))
    for i, made in enumerate(generate_many(options, args.count, args.seed)):
        if args.json:
            print(dumps(made.puzzle), flush=True)
        else:
            print(f"# puzzle {i + 1}: {args.size}×{args.size}, seed {made.seed}, {made.time_ms:.0f} ms")
            print(format_text(made.puzzle), flush=True)
    return OK


def cmd_app(args) -> int:
    """Start the browser app (Streamlit, headless) on this machine; runs until interrupted."""
    import os
    import socket
    import subprocess
    from .app_inputs import MAX_UPLOAD_MB, sample_names, sample_path
    env = dict(os.environ)
    if args.sample:
        path = sample_path(args.sample)
        if path is None:
            return _bad(args, args.sample, "no such sample; the bundled ones are: " + (", ".join(sample_names()) or "none"))
        env["KENSNAP_SAMPLE"] = str(path.resolve())
    port = args.port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((args.host, port))
        except OSError as err:
            return _bad(args, "app", f"cannot listen on {args.host}:{port} ({err.strerror}): "
                                     "try another --port, or --port 0 for any free one")
        port = probe.getsockname()[1]
    script = Path(__file__).resolve().with_name("app.py")
    command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
               "--server.address", args.host, "--server.port", str(port), "--server.fileWatcherType", "none",
               "--server.maxUploadSize", str(MAX_UPLOAD_MB), "--browser.gatherUsageStats", "false",
               "--client.toolbarMode", "viewer"]
    shown = "localhost" if args.host in ("127.0.0.1", "localhost") else args.host
    print(f"kensnap app: open http://{shown}:{port}/ in a browser (Ctrl+C stops it)", file=sys.stderr, flush=True)
    return subprocess.call(command, env=env)


def _generate_kakuro(args) -> int:
    """Print generated unique Kakuro: text puzzles separated by blank lines, or JSON lines."""
    from solver.kakuro.formats import dumps, format_kakuro_text
    from solver.kakuro.generator import KakuroOptions, generate_kakuros
    try:
        options = KakuroOptions(rows=args.rows or 9, cols=args.cols or args.rows or 9)
    except ValueError as err:
        return _bad(args, "generate", str(err))
    for i, made in enumerate(generate_kakuros(options, args.count, args.seed)):
        if args.json:
            print(dumps(made.puzzle), flush=True)
        else:
            print(f"{'' if i == 0 else chr(10)}# kakuro {i + 1}: {options.rows}×{options.cols}, seed {made.seed}, "
                  f"{made.time_ms:.0f} ms")
            print(format_kakuro_text(made.puzzle), end="", flush=True)
    return OK


def cmd_corpus(args) -> int:
    """Write labelled photos of generated puzzles (or the bundled samples)."""
    from .corpus import SAMPLES, plan, write_corpus
    if args.count < 1 and not args.samples:
        return _bad(args, "corpus", "--count must be at least 1")
    if args.kakuro:
        from .corpus_kakuro import plan_kakuro, write_kakuro_corpus
        specs = plan_kakuro(args.count, args.seed, args.dark)
        paths = write_kakuro_corpus(Path(args.outdir), specs, workers=args.workers)
        print(f"wrote {len(paths)} Kakuro images with truth into {args.outdir}", file=sys.stderr)
        return OK
    if args.megapixels < 0 or args.megapixels > 50:
        return _bad(args, "corpus", "--megapixels must be between 0 and 50")
    specs = list(SAMPLES) if args.samples else plan(args.count, args.seed, args.megapixels, args.dark, args.big,
                                                          args.pen)
    paths = write_corpus(Path(args.outdir), specs, workers=args.workers, quality=85 if args.samples else 92)
    print(f"wrote {len(paths)} images with truth into {args.outdir}", file=sys.stderr)
    return OK


def cmd_models(args) -> int:
    """List the photo-reading models and whether each is in the cache; with --fit, fit the missing ones."""
    from vision.glyphs import cache_dir
    from vision.model_cache import cached_models, fit_missing
    if args.fit:
        fitted = fit_missing(lambda line: print(f"kensnap models: {line}", file=sys.stderr, flush=True))
        if not fitted:
            print("kensnap models: every model is in the cache", file=sys.stderr)
    models = cached_models()
    if args.json:
        for m in models:
            print(json.dumps({"name": m.name, "reads": m.reads, "present": m.present,
                              "files": [str(f) for f in m.files], "fit_minutes": m.minutes}, ensure_ascii=False))
        return OK
    print(f"models in {cache_dir()}:")
    for m in models:
        state = "ready" if m.present else f"missing (fitted on first use, or now with --fit: about {m.minutes} min)"
        print(f"  {m.name:<26} {m.reads:<42} {state}")
    return OK


def _bad(args, label: str, message: str) -> int:
    """Report one bad input; returns the bad-input exit code."""
    if getattr(args, "json", False):
        print(json.dumps({"input": label, "error": message}, ensure_ascii=False), flush=True)
    else:
        print(f"kensnap: {label}: {message}" if not message.startswith(label) else f"kensnap: {message}",
              file=sys.stderr, flush=True)
    return BAD_INPUT


def _grid_json(grid):
    return None if grid is None else [list(row) for row in grid]


def _rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=list(RULES), default="auto",
                        help="3+-cell - and / : classic forbids them, calcudoku allows them (largest value "
                             "minus / divided by the others); auto follows the puzzle (default)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(prog="kensnap", epilog=EPILOG,
                                     description="Solve, check and hint KenKen (Calcudoku, MathDoku) and Kakuro puzzles, "
                                                 "typed or from a photo.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("solve", help="solve puzzles and prove the solution unique", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle, one per line")
    p.add_argument("--overlay", metavar="OUT.png", help="for photos: write the photo with the solution drawn in")
    _rules_option(p)
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("check", help="say which written digits are wrong, without spoiling the rest",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", metavar="INPUT", help="a puzzle file, or a photo of a half-filled grid")
    p.add_argument("--entries", metavar="FILE",
                   help="written digits: a JSON grid (null = empty) or text rows with '.' for empty "
                        "(default: the puzzle file's own entries, or the digits read from the photo)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    _rules_option(p)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("hint", help="a hint for the next step in three levels, without spoiling the rest",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", metavar="INPUT", help="a puzzle file, or a photo of the grid as far as it is filled")
    p.add_argument("--entries", metavar="FILE",
                   help="written digits, as for check (default: the puzzle file's own, or those read from the photo)")
    p.add_argument("--pencil", metavar="FILE",
                   help="pencil marks: a JSON grid of digit lists, or text rows of tokens like 135 ('.' for none)")
    p.add_argument("--level", type=int, choices=(1, 2, 3), default=1,
                   help="1 where to look (default), 2 the technique and cells, 3 the deduction or digit")
    p.add_argument("--json", action="store_true", help="one JSON object")
    _rules_option(p)
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("explain", help="solve step by step with named techniques, every step explained",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per step, then one with solved_by_logic and solution, per puzzle")
    _rules_option(p)
    p.set_defaults(run=cmd_explain)

    p = sub.add_parser("grade", help="difficulty 1-5 from the hardest technique needed (5: needs guessing)",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    _rules_option(p)
    p.set_defaults(run=cmd_grade)

    p = sub.add_parser("read", help="read puzzles from photos or screenshots",
                       epilog="exit codes: 0 every image read confidently, 1 a reading is not certain, 2 bad input",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per image (puzzle schema + confidence)")
    p.add_argument("--debug", metavar="DIR", help="write debug images (rectified grid) into DIR")
    p.set_defaults(run=cmd_read)

    p = sub.add_parser("bench", help="time solving + uniqueness proof per size and difficulty")
    p.add_argument("dirs", nargs="*", metavar="DIR", help="folders of Keen ID files (default: ../shared/puzzles/keen)")
    p.add_argument("--repeat", type=int, default=3, help="timings per puzzle, the median is kept (default 3)")
    p.add_argument("--generated", type=int, nargs="*", default=[12, 16], metavar="N",
                   help="also time generated puzzles of these sizes (default 12 16; none: --generated)")
    p.add_argument("--count", type=int, default=10, help="generated puzzles per size (default 10)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the generated puzzles")
    p.add_argument("--json", action="store_true", help="one JSON object per row")
    p.add_argument("--kakuro", action="store_true",
                   help="time generated Kakuro instead (sizes from --generated, default 9 12 15)")
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("generate", help="make new puzzles with exactly one solution")
    p.add_argument("--size", type=int, default=6, help="N, 3..16 (default 6)")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same puzzles")
    p.add_argument("--max-cage", type=int, default=6, help="largest cage (default 6 cells)")
    p.add_argument("--hidden-ops", action="store_true", help="print no operators")
    p.add_argument("--calcudoku", action="store_true", help="allow - and / on three or more cells")
    p.add_argument("--multiplication-only", action="store_true", help="every cage a product")
    p.add_argument("--kakuro", action="store_true", help="make Kakuro puzzles instead (size: --rows, --cols)")
    p.add_argument("--rows", type=int, help="Kakuro: rows, 3..15, counting the first row of clues (default 9)")
    p.add_argument("--cols", type=int, help="Kakuro: columns, 3..15 (default: as many as rows)")
    p.add_argument("--json", action="store_true", help="one puzzle per line in the JSON schema")
    p.set_defaults(run=cmd_generate)

    p = sub.add_parser("corpus", help="write labelled phone photos of generated puzzles")
    p.add_argument("outdir", metavar="OUTDIR")
    p.add_argument("--count", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--samples", action="store_true", help="write the fixed set bundled in samples/")
    p.add_argument("--kakuro", action="store_true", help="photos of generated Kakuro instead")
    p.add_argument("--megapixels", type=float, default=0.0, metavar="MP",
                   help="phone-sized photos of about MP megapixels, the grid filling 35-80%% of the "
                        "shorter side (default: the small photos of each level's pixels per cell)")
    p.add_argument("--dark", action="store_true",
                   help="show the screens (app and web looks) in dark mode: light print on a near-black page")
    p.add_argument("--big", action="store_true", help="grids of 10 to 16 a side instead of 3 to 9")
    p.add_argument("--pen", action="store_true", help="a pen lying across every grid (the same photos otherwise)")
    p.set_defaults(run=cmd_corpus)

    p = sub.add_parser("eval", help="score photo reading on a folder of images with known truth")
    p.add_argument("folder", metavar="DIR", help="pairs <id>.<ext> + <id>.json, like ../shared/realdev")
    p.add_argument("--json", action="store_true", help="one JSON object per image, then a summary object")
    p.set_defaults(run=cmd_eval)

    p = sub.add_parser("models", help="list the photo-reading models in the cache; --fit fits the missing ones")
    p.add_argument("--fit", action="store_true",
                   help="fit every missing model now (hours on a fresh 2-core machine), saying which")
    p.add_argument("--json", action="store_true", help="one JSON object per model")
    p.set_defaults(run=cmd_models)

    p = sub.add_parser("app", help="start the browser app (open the printed address)")
    p.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 lets phones on "
                        "your network in)")
    p.add_argument("--sample", metavar="NAME", help="open this bundled sample first (e.g. app-4x4-clean.jpg)")
    p.set_defaults(run=cmd_app, json=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (never raises for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("kensnap: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return OK
    except Exception as err:
        if not _sat_interrupted(err):
            raise
        print("kensnap: interrupted", file=sys.stderr)
        return 130


def _sat_interrupted(err: Exception) -> bool:
    """Whether ``err`` is PySAT's answer to Ctrl-C while its solver ran: its C solvers catch the
    signal themselves and raise their module's own error, not KeyboardInterrupt."""
    return type(err).__module__ == "pysolvers" and "interrupt" in str(err).lower()


if __name__ == "__main__":
    sys.exit(main())
