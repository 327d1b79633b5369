"""Soundness benchmark: every step of the human-style solver checked against the solution.

Each puzzle is solved step by step with every technique (uniqueness techniques included,
as the puzzles have one solution). Whenever the singles stall, every step that every
other technique finds on that board is checked, not only the one applied: no step may
remove a true value or place a wrong one. Sudoku sets are read from the shared data;
minimal puzzles of other shapes are generated from random grids (seeds 1..N); Kakuro
(6x6 to 15x15 squares, by turns) and Killer puzzles (cages of up to 3 to 8 cells, by
turns; also of the variant whose cage digits may repeat) are generated from seeds 1..N,
the level-1 techniques walking and every other probed.

    python bench/soundness.py [--max N] [--shapes N] [--kakuro N] [--killer N]
                              [--killer-repeats N] [--probe=all|each] [--every NAMES]
                              [--sums-probe=all|first] [--jobs J]
                              [FILE ...]

``--every "AIC with ALS,Nice Loop with ALS"`` with ``--probe each`` checks every step of
those techniques and the first of each other at every stall: an audit of new techniques
in a fraction of the full one's time.

The default files are all of magictour_top1465, kaggle_like_10k and the first 10,000
of 17_clue (21,465 puzzles), about 65 minutes on 2 cores; a line on standard error tells
the progress of each set. Prints a table of puzzles, steps checked and faults by set,
and the steps checked by technique; exits 1 if any step was unsound.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.table import Table

from numberplace import engine, formats
from numberplace.engine.grids import minimal_puzzle, random_grid
from numberplace.generate.sumgen import generate_kakuro, generate_killer
from numberplace.logic import REGISTRY
from numberplace.logic.audit import Audit, audit
from numberplace.model.shape import Shape, by_name, classic, jigsaw, samurai

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data", "sudoku9")
DEFAULT = (("magictour_top1465.txt", None), ("kaggle_like_10k.txt", None),
           ("17_clue.txt", 10_000))
SINGLES = ["Full House", "Naked Single", "Hidden Single"]
PROBE = [t.name for t in REGISTRY.logical() if t.name not in SINGLES]
#: On sums the level-1 techniques (singles, a cage's combinations) go first and the rest
#: are probed: nearly every board of a Kakuro stalls the singles alone, and probing every
#: technique on each would take hours for the thousands of puzzles the audit covers.
SUMS_FIRST = [t.name for t in REGISTRY.logical() if t.level == 1]
SUMS_PROBE = [t.name for t in REGISTRY.logical() if t.level > 1]
#: Whether every step of every probed technique is checked on Kakuro and Killer boards
#: (--sums-probe all), or only the first found (--sums-probe first: the path's own steps).
#: Set from the command line before the workers start (they are forked from this process).
EXHAUSTIVE_SUMS = True
#: On the other puzzles, every step of every technique whenever the singles stall
#: (--probe all), or the first step of each (--probe each: hours fewer on hard sets).
PROBE_EACH = False
#: Techniques whose every step is checked even with --probe each (--every).
EVERY: tuple[str, ...] = ()

#: A 9x9 jigsaw with irregular regions.
JIGSAW_9 = ("111123333112223233111222233444555666445555666444455696777888896777889899"
            "777889999")


#: Kakuro sizes and Killer cage sizes taken by turns.
KAKURO_SIZES = (6, 8, 10, 12, 15)
KILLER_CAGES = (3, 4, 5, 6, 7, 8)


def check(item: tuple[str, Shape | None, int]) -> Audit:
    """Audit one puzzle line (with the engine's solution) or one generated puzzle
    (text "kakuro" or "killer" for those)."""
    text, shape, seed = item
    if text in ("kakuro", "killer", "killer-repeats"):
        made = generate_kakuro(*[KAKURO_SIZES[seed % len(KAKURO_SIZES)]] * 2, seed=seed) \
            if text == "kakuro" else \
            generate_killer(seed=seed, max_cage=KILLER_CAGES[seed % len(KILLER_CAGES)],
                            repeats=text == "killer-repeats")
        report = audit(made.puzzle, made.solution, SUMS_PROBE, before=SUMS_FIRST, unique=True,
                       exhaustive=EXHAUSTIVE_SUMS)
        report.faults = [f"{text} seed {seed}: {fault}" for fault in report.faults]
        return report
    if shape is None:
        puzzle = formats.parse(text)
        solution = engine.solve(puzzle).solution
        if solution is None:
            return Audit(puzzles=1, faults=[f"{text}: the engine finds no single solution"])
    else:
        solution = random_grid(shape, seed)
        tries = None if shape.ncells <= 81 else shape.ncells // 2
        puzzle = minimal_puzzle(shape, solution, seed, tries=tries)
    report = audit(puzzle, solution, PROBE, before=SINGLES, unique=True, each=PROBE_EACH,
                   every=EVERY)
    report.faults = [f"{text or shape}: {fault}" for fault in report.faults]
    return report


def lines(path: str, limit: int | None) -> list[tuple[str, Shape | None, int]]:
    """The puzzle lines of a file (the first ``limit``)."""
    out: list[tuple[str, Shape | None, int]] = []
    with open(path) as handle:
        for raw in handle:
            text = raw.strip()
            if text and not text.startswith("#"):
                out.append((text, None, 0))
                if limit and len(out) >= limit:
                    break
    return out


def sets(args: argparse.Namespace) -> Iterator[tuple[str, list[tuple[str, Shape | None, int]]]]:
    """(name, items) for every set to check."""
    chosen = [(p, args.max) for p in args.files] or [
        (os.path.join(DATA, f), args.max or n) for f, n in DEFAULT]
    for path, limit in chosen:
        if not os.path.exists(path):
            print(f"skipped {path}: not present (see shared/data/README.md)", file=sys.stderr)
            continue
        yield os.path.basename(path), lines(path, limit)
    shapes = [classic(6), classic(16), jigsaw(JIGSAW_9), by_name("diagonal"), samurai()]
    for shape in shapes if args.shapes else ():
        yield str(shape), [("", shape, seed) for seed in range(1, args.shapes + 1)]
    for kind, count in (("kakuro", args.kakuro), ("killer", args.killer),
                        ("killer-repeats", args.killer_repeats)):
        if count:
            yield f"{kind} (generated)", [(kind, None, seed) for seed in range(1, count + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=None, help="puzzles per file")
    parser.add_argument("--shapes", type=int, default=20,
                        help="generated puzzles per other shape (default 20)")
    parser.add_argument("--kakuro", type=int, default=0,
                        help="generated Kakuro puzzles to check (default 0)")
    parser.add_argument("--killer", type=int, default=0,
                        help="generated Killer puzzles to check (default 0)")
    parser.add_argument("--killer-repeats", type=int, default=0,
                        help="generated Killer puzzles whose cage digits may repeat "
                             "(default 0)")
    parser.add_argument("--probe", choices=("all", "each"), default="all",
                        help="at each stall, check every step of every technique (all) or "
                             "the first step of each (each)")
    parser.add_argument("--every", default="",
                        help="technique names, comma-separated, whose every step is checked "
                             "even with --probe each")
    parser.add_argument("--sums-probe", choices=("all", "first"), default="all",
                        help="on Kakuro and Killer, check every step the probed techniques "
                             "find (all, default) or the first (first: many times faster)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    global EXHAUSTIVE_SUMS, PROBE_EACH, EVERY
    EXHAUSTIVE_SUMS = args.sums_probe == "all"
    PROBE_EACH = args.probe == "each"
    EVERY = tuple(REGISTRY.get(n.strip()).name for n in args.every.split(",") if n.strip())
    table = Table(title="numberplace soundness (every step checked against the solution)")
    for col in ("set", "puzzles", "solved without guessing", "steps checked", "faults",
                "seconds"):
        table.add_column(col, justify="left" if col == "set" else "right")
    grand = Audit()
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, items in sets(args):
            start = time.perf_counter()
            total = Audit()
            for k, report in enumerate(pool.map(check, items, chunksize=8), 1):
                total.merge(report)
                if k % 1000 == 0 or k == len(items):
                    print(f"{name}: {k:,} of {len(items):,} puzzles checked, "
                          f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            grand.merge(total)
            checked = sum(total.found.values()) + sum(total.applied.values())
            table.add_row(name, f"{total.puzzles:,}", f"{total.solved:,}", f"{checked:,}",
                          str(len(total.faults)), f"{time.perf_counter() - start:.0f}")
    console = Console(width=120)
    console.print(table)
    by_technique = Table(title="steps checked by technique (found when probed + applied)")
    by_technique.add_column("technique")
    by_technique.add_column("found", justify="right")
    by_technique.add_column("applied", justify="right")
    for technique in sorted(set(grand.found) | set(grand.applied),
                            key=lambda t: -(grand.found[t] + grand.applied[t])):
        by_technique.add_row(technique, f"{grand.found[technique]:,}",
                             f"{grand.applied[technique]:,}")
    console.print(by_technique)
    for fault in grand.faults[:20]:
        console.print(f"FAULT {fault}", markup=False)
    sys.exit(1 if grand.faults else 0)


if __name__ == "__main__":
    main()
