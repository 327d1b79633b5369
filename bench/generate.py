"""Generation benchmark: CPU time per generated puzzle, and a check of every puzzle made.

For each shape and level asked, puzzles are generated from seeds 1..N (on --jobs
processes; each puzzle's CPU time is measured in the process that made it) and each is
checked: exactly one solution on the compiled engine and on the pure-Python one, the
symmetry asked, the level asked, and minimality when --minimal is given. Prints the median
and worst CPU ms per puzzle, the grids tried, and how many puzzles passed each check.

    python bench/generate.py [--count N] [--levels 1,2,...] [--shapes 9x9,samurai,...]
                             [--symmetry S] [--minimal] [--recipe book] [--jobs J]
                             [--time-limit S] [--qqwing PATH] [--clues 20-22,24-26]

``--clues`` gives a row per clue range instead (any level; with --levels as well, both):
each puzzle's givens are checked to be in the range, e.g.
``python bench/generate.py --count 20 --clues 20-22,24-26``.

``--qqwing PATH`` also times a QQWing binary built elsewhere (simple, easy, intermediate
and expert, no symmetry, --count puzzles each) in the same run, for comparison.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from numberplace import engine
from numberplace.errors import NumberplaceError
from numberplace.generate import generate, has_symmetry, is_minimal, random_regions
from numberplace.logic.rating import BOOK_LEVELS, LEVELS
from numberplace.model.shape import Shape, by_name


def shape_of(name: str) -> Shape:
    """A shape by name; ``jigsaw`` gets random regions (the same for the whole row)."""
    return random_regions(9, seed=1) if name == "jigsaw" else by_name(name)


#: One puzzle to make: shape, level (None: any), seed, symmetry, minimal, time limit,
#: recipe, clue range (None: any).
Job = tuple[str, "int | None", int, str, bool, float, "str | None", "tuple[int, int] | None"]


def one(job: Job) -> tuple[float, int, bool, bool, bool, bool] | None:
    """Make and check one puzzle: (cpu seconds, grids tried, unique, symmetric, level ok,
    minimal ok), or None when no puzzle was made within the time limit. With the book's
    recipe, "level ok" means its empty cells and score are in the book's table; with a
    clue range, that its givens are in the range."""
    name, level, seed, symmetry, minimal, limit, recipe, clues = job
    shape = shape_of(name)
    start = time.process_time()
    try:
        made = generate(shape, level=level, seed=seed, symmetry=symmetry, minimal=minimal,
                        time_limit=limit, recipe=recipe, clues=clues)
    except NumberplaceError:
        return None
    cpu = time.process_time() - start
    if clues is not None:
        given = sum(1 for v in made.puzzle.givens if v)
        level_ok = clues[0] <= given <= clues[1]
    elif recipe == "book" and level is not None:
        _name, empties, _mean, scores = BOOK_LEVELS[level - 1]
        level_ok = (made.puzzle.givens.count(0) in empties
                    and made.rating.book_score in scores)
    else:
        level_ok = made.rating.level_number == level
    unique = all(
        engine.solve(made.puzzle, limit=2, backend=b).status is engine.Status.UNIQUE
        for b in engine.available_backends())
    return (cpu, made.attempts, unique, has_symmetry(made.puzzle, symmetry), level_ok,
            not minimal or is_minimal(made.puzzle))


def qqwing_rows(path: str, count: int) -> list[tuple[str, float]]:
    """CPU ms per puzzle of a QQWing binary, by its difficulty names."""
    rows = []
    for difficulty in ("simple", "easy", "intermediate", "expert"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([path, "--generate", str(count), "--difficulty", difficulty,
                        "--symmetry", "none", "--one-line"], check=True,
                       stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        rows.append((difficulty, cpu / count))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per row")
    parser.add_argument("--levels", default=None,
                        help="levels, one row each (default: all, unless --clues is given)")
    parser.add_argument("--clues", default="",
                        help="clue ranges, one row each, e.g. 20-22,24-26")
    parser.add_argument("--shapes", default="9x9")
    parser.add_argument("--symmetry", default="rotate180")
    parser.add_argument("--minimal", action="store_true")
    parser.add_argument("--recipe", choices=("book",), help="the book's recipe (levels 1-4)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--qqwing", metavar="PATH", help="a QQWing binary to time as well")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per puzzle before it counts as not made")
    args = parser.parse_args()
    ranges = [tuple(int(x) for x in text.split("-")) for text in args.clues.split(",") if text]
    if args.levels is None:
        args.levels = "" if ranges else ",".join(str(lv.number) for lv in LEVELS)
    rows: list[tuple[str, int | None, tuple[int, int] | None]] = [
        (f"{int(x)} {LEVELS[int(x) - 1].name}", int(x), None)
        for x in args.levels.split(",") if x]
    rows += [(f"clues {low}-{high}", None, (low, high)) for low, high in ranges]
    table = Table(title=f"numberplace generate: {args.count} puzzles per row, symmetry "
                        f"{args.symmetry}{', minimal' if args.minimal else ''}"
                        f"{', the book recipe' if args.recipe else ''}; CPU time "
                        f"per puzzle in the process that made it")
    for col in ("shape", "level", "made", "median ms", "worst ms", "grids tried",
                "unique (both engines)", "symmetric", "level/clues as asked", "minimal"):
        table.add_column(col, justify="left" if col in ("shape", "level") else "right")
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in args.shapes.split(","):
            for label, level, clues in rows:
                jobs: list[Job] = [(name, level, seed, args.symmetry, args.minimal,
                                    args.time_limit, args.recipe, clues)
                                   for seed in range(1, args.count + 1)]
                results = [r for r in pool.map(one, jobs) if r is not None]
                if not results:
                    table.add_row(name, label, f"0/{len(jobs)}", *["-"] * 7)
                    continue
                cpu = [r[0] for r in results]
                n = len(results)
                table.add_row(
                    name, label, f"{n}/{len(jobs)}",
                    f"{statistics.median(cpu) * 1e3:.0f}", f"{max(cpu) * 1e3:.0f}",
                    f"{statistics.fmean(r[1] for r in results):.1f}",
                    f"{sum(r[2] for r in results)}/{n}", f"{sum(r[3] for r in results)}/{n}",
                    f"{sum(r[4] for r in results)}/{n}",
                    f"{sum(r[5] for r in results)}/{n}" if args.minimal else "-")
    console = Console(width=150)
    console.print(table)
    if args.qqwing:
        version = subprocess.run([args.qqwing, "--version"], capture_output=True,
                                 text=True).stdout.strip()
        peer = Table(title=f"{version or 'QQWing'}, same run: CPU ms per puzzle, "
                           f"{args.count} puzzles, no symmetry")
        peer.add_column("difficulty")
        peer.add_column("ms per puzzle", justify="right")
        for difficulty, seconds in qqwing_rows(args.qqwing, args.count):
            peer.add_row(difficulty, f"{seconds * 1e3:.1f}")
        console.print(peer)


if __name__ == "__main__":
    main()
