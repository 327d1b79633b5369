"""Kakuro and Killer made at a level: time per puzzle, and a check of every puzzle.

For each kind and level asked, puzzles are made by ``generate_sums`` from seeds 1..N (on
--jobs processes; CPU time measured in the process that made each) and each is checked:
exactly one solution on the compiled engine and on the pure-Python one, both giving the
generator's solution, and a fresh rating at the level asked. Also counted: how many are
solved step by step without guessing (levels 1-3 need no guess by definition, so this
checks the rating's path against a plain solve). The load average before and after is
printed, as other work on the machine slows every figure.

    python bench/sums_levels.py [--kinds kakuro-15x15,killer] [--levels 1,2,3] [--count 100]
                                [--jobs J]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from numberplace import engine
from numberplace.generate import generate_sums
from numberplace.logic.driver import solve_path
from numberplace.logic.rating import rate
from numberplace.logic.step import LogicStatus


@dataclass
class Made:
    """One puzzle's figures."""

    kind: str
    level: int
    seed: int
    cpu: float
    attempts: int
    unique: bool
    at_level: bool
    without_guessing: bool


def make(kind: str, level: int, seed: int) -> Made:
    """Make and check one puzzle."""
    start = time.process_time()
    made = generate_sums(kind, level=level, seed=seed)
    cpu = time.process_time() - start
    unique = True
    for backend in engine.available_backends():
        result = engine.solve(made.puzzle, backend=backend)
        unique &= result.status is engine.Status.UNIQUE and result.solution == made.solution
    at_level = rate(made.puzzle, book=False).level_number == level
    plain = solve_path(made.puzzle)
    return Made(kind, level, seed, cpu, made.attempts, unique, at_level,
                plain.status is LogicStatus.SOLVED)


def _make(job: tuple[str, int, int]) -> Made:
    return make(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="kakuro-15x15,killer")
    parser.add_argument("--levels", default="1,2,3")
    parser.add_argument("--count", type=int, default=100, help="puzzles per kind and level")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    levels = [int(x) for x in args.levels.split(",")]
    jobs = [(k, lv, seed) for k in kinds for lv in levels for seed in range(1, args.count + 1)]
    load_before = os.getloadavg()[0]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(_make, jobs, chunksize=4))
    load_after = os.getloadavg()[0]
    table = Table(title=f"numberplace: Kakuro and Killer made at a level ({args.count} each)")
    for col in ("kind", "level", "made", "unique (both engines)", "rated at the level",
                "solved without guessing", "median s", "worst s", "draws (mean)"):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for kind in kinds:
        for level in levels:
            rows = [m for m in results if m.kind == kind and m.level == level]
            cpu = [m.cpu for m in rows]
            table.add_row(kind, str(level), str(len(rows)), str(sum(m.unique for m in rows)),
                          str(sum(m.at_level for m in rows)),
                          str(sum(m.without_guessing for m in rows)),
                          f"{statistics.median(cpu):.2f}", f"{max(cpu):.2f}",
                          f"{statistics.mean(m.attempts for m in rows):.1f}")
    console = Console(width=140)
    console.print(table)
    console.print(f"load average {load_before:.1f} before, {load_after:.1f} after; "
                  f"{os.cpu_count()} cores; {args.jobs} worker(s)")


if __name__ == "__main__":
    main()
