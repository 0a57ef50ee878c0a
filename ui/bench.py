"""``kensnap bench``: time solve + uniqueness proof per size and difficulty.

Each puzzle is timed ``--repeat`` times (encoding, solving and the proof, fresh engine each time) and
the median is kept; each row reports the median, 95th percentile and maximum over its puzzles. Every
timing starts with an empty tuple-table cache, as a fresh ``kensnap solve`` would.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from solver import solve
from solver.cage_tuples import clear_cache
from solver.formats import parse_keen

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DIRS = [REPO.parent / "shared" / "puzzles" / "keen", Path.cwd().parent / "shared" / "puzzles" / "keen"]
DIFFICULTY = {"e": "easy", "n": "normal", "h": "hard", "x": "extreme", "u": "unreasonable"}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


def time_puzzles(puzzles, repeat: int) -> list[float]:
    """Median-of-``repeat`` milliseconds for each puzzle; raises if one is not unique."""
    times = []
    for puzzle in puzzles:
        runs = []
        for _ in range(repeat):
            clear_cache()
            result = solve(puzzle)
            if result.status != "unique":
                raise RuntimeError(f"benchmark puzzle is {result.status}")
            runs.append(result.time_ms)
        times.append(statistics.median(runs))
    return times


def keen_rows(dirs: list[Path], repeat: int) -> list[dict]:
    """One row per Keen file (e.g. 9u.txt → 9×9 unreasonable)."""
    rows = []
    for folder in dirs:
        for path in sorted(folder.glob("*.txt"), key=lambda p: (int(p.stem[:-1]), p.stem)):
            puzzles = [parse_keen(line) for line in path.read_text().splitlines() if line.strip()]
            times = time_puzzles(puzzles, repeat)
            n = puzzles[0].size
            rows.append({"set": f"{n}x{n} {DIFFICULTY.get(path.stem[-1], path.stem[-1])}", "source": path.name,
                         "count": len(times), "median_ms": round(statistics.median(times), 2),
                         "p95_ms": round(percentile(times, 0.95), 2), "max_ms": round(max(times), 2)})
    return rows


def generated_rows(sizes: list[int], count: int, seed: int, repeat: int) -> list[dict]:
    """One row per size of generated puzzles (generation itself is not timed)."""
    from solver.generator import GeneratorOptions, generate_many
    rows = []
    for n in sizes:
        puzzles = [made.puzzle for made in generate_many(GeneratorOptions(size=n), count, seed)]
        times = time_puzzles(puzzles, repeat)
        rows.append({"set": f"{n}x{n} generated", "source": f"kensnap generate --size {n} --seed {seed}",
                     "count": len(times), "median_ms": round(statistics.median(times), 2),
                     "p95_ms": round(percentile(times, 0.95), 2), "max_ms": round(max(times), 2)})
    return rows


def run_bench(args) -> int:
    """Print the benchmark table (or JSON rows); returns an exit code."""
    dirs = [Path(d) for d in args.dirs] or [d for d in DEFAULT_DIRS if d.is_dir()][:1]
    missing = [str(d) for d in dirs if not d.is_dir()]
    if missing or not dirs:
        print(f"kensnap: bench: no such folder: {', '.join(missing) or DEFAULT_DIRS[0]}", file=__import__('sys').stderr)
        return 2
    rows = keen_rows(dirs, args.repeat)
    if args.generated:
        rows += generated_rows(args.generated, args.count, args.seed, args.repeat)
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print(f"{'puzzles':<22}{'count':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}")
    for row in rows:
        print(f"{row['set']:<22}{row['count']:>6}{row['median_ms']:>11.1f}{row['p95_ms']:>9.1f}{row['max_ms']:>9.1f}")
    return 0
