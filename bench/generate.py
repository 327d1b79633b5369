"""Generation benchmark: CPU time per generated puzzle, by shape and level.

For each (shape, level) asked, puzzles are generated from seeds 1..N in this process and
the median and worst CPU time per puzzle are printed, with the mean number of grids tried.

    python bench/generate.py [--count N] [--levels 1,2,...] [--shapes 9x9,samurai,16x16]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from numberplace.generate import generate
from numberplace.rating import LEVELS
from numberplace.shape import by_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per row")
    parser.add_argument("--levels", default=",".join(str(lv.number) for lv in LEVELS[:5]))
    parser.add_argument("--shapes", default="9x9")
    parser.add_argument("--symmetry", default="rotate180")
    args = parser.parse_args()
    table = Table(title=f"numberplace generate: CPU ms per puzzle, {args.count} seeds each, "
                        f"symmetry {args.symmetry}")
    for col in ("shape", "level", "median ms", "worst ms", "grids tried (mean)"):
        table.add_column(col, justify="left" if col in ("shape", "level") else "right")
    for name in args.shapes.split(","):
        shape = by_name(name)
        for level in (int(x) for x in args.levels.split(",")):
            times, tries = [], []
            for seed in range(1, args.count + 1):
                start = time.process_time()
                made = generate(shape, level=level, seed=seed, symmetry=args.symmetry)
                times.append(time.process_time() - start)
                tries.append(made.attempts)
            table.add_row(name, f"{level} {LEVELS[level - 1].name}",
                          f"{statistics.median(times) * 1e3:.0f}",
                          f"{max(times) * 1e3:.0f}", f"{statistics.fmean(tries):.1f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
