"""Killer cages: ours beside published ones.

Makes ``--count`` Killers at each level (``generate_sums`` from seeds 1..N, on --jobs
processes) and prints, beside the collected published Killers of
``tests/data/sums/killer-9x9.txt``: cages per puzzle, one-cell cages per puzzle (how
many puzzles have 0, 1, 2, ...) and the share of cages of each size.

    python bench/killer_cages.py [--count 100] [--levels 1,2,3] [--jobs J]
                                 [--one-cell-cages N]
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import formats
from numberplace.generate import generate_sums
from numberplace.generate.sumgen import ONE_CELL_CAGES

PUBLISHED = Path(__file__).resolve().parents[1] / "tests" / "data" / "sums" / "killer-9x9.txt"


def sizes(level: int, one_cell_cages: int, seed: int) -> list[int]:
    """The cage sizes of one generated Killer."""
    made = generate_sums("killer", level=level, seed=seed, one_cell_cages=one_cell_cages)
    return [len(cage.cells) for cage in made.puzzle.shape.cages]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--levels", default="1,2,3")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--one-cell-cages", type=int, default=ONE_CELL_CAGES)
    args = parser.parse_args()
    rows: list[tuple[str, list[list[int]]]] = [
        ("published", [[len(c.cells) for c in rec.puzzle.shape.cages]
                       for rec in formats.read_file(PUBLISHED)])]
    with ProcessPoolExecutor(args.jobs) as pool:
        for level in (int(x) for x in args.levels.split(",")):
            made = list(pool.map(partial(sizes, level, args.one_cell_cages),
                                 range(1, args.count + 1)))
            rows.append((f"level {level}", made))
    largest = max(s for _, puzzles in rows for cages in puzzles for s in cages)
    table = Table(title="Killer cages: ours (one-cell cages allowed: "
                        f"{args.one_cell_cages}) beside published ones")
    for col in ("Killers", "puzzles", "cages each", "one-cell cages: puzzles with 0/1/2/3+",
                *(f"size {s}" for s in range(1, largest + 1))):
        table.add_column(col, justify="right")
    for name, puzzles in rows:
        ones = Counter(min(cages.count(1), 3) for cages in puzzles)
        every = Counter(s for cages in puzzles for s in cages)
        total = sum(every.values())
        table.add_row(name, str(len(puzzles)),
                      f"{statistics.fmean(len(c) for c in puzzles):.1f}",
                      "/".join(str(ones.get(k, 0)) for k in range(4)),
                      *(f"{100 * every.get(s, 0) / total:.1f}%" for s in range(1, largest + 1)))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
