"""Benchmark the step-by-step solver: coverage without guessing, speed, hint latency.

For each file, every puzzle (or the first --max) is solved by logic alone with the full
technique set, explanations included (each step's text is rendered). Prints the share
solved without guessing, puzzles/s, median and worst ms per puzzle, and the time of one
hint: the median from the start position (first 500 puzzles), and the median and 90th
percentile at the hard positions of the first 200 paths (boards where no single applies,
each hint timed cold, with the memory of earlier searches cleared).

    python bench/logic.py [--max N] [FILE ...]   (default: ../shared/data/sudoku9 sets)

On the default sets it takes about 10 minutes (one process); a line on standard error
tells when each file starts and ends.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from numberplace import Puzzle, classic, formats
from numberplace.logic import Board, next_step, solve_path
from numberplace.logic.explain import boards_before_steps

SINGLES = ("Full House", "Naked Single", "Hidden Single")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data", "sudoku9")
DEFAULT = ("kaggle_like_10k.txt", "17_clue.txt", "magictour_top1465.txt")


def puzzles(path: str, limit: int | None) -> list[Puzzle]:
    """The 9x9 puzzles of a file of lines."""
    out = []
    with open(path) as handle:
        for raw in handle:
            values = formats.values9(raw)
            if values is not None:
                out.append(Puzzle(classic(9), tuple(values)))
                if limit and len(out) >= limit:
                    break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=None, help="puzzles per file")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    paths = args.files or [os.path.join(DATA, f) for f in DEFAULT]
    table = Table(title="numberplace logic bench (one process, full path with explanations)")
    for col in ("file", "puzzles", "solved by logic", "puzzles/s", "median ms", "worst ms",
                "hint ms (start)", "hint ms (hard: median, p90)"):
        table.add_column(col, justify="left" if col == "file" else "right")
    for path in paths:
        items = puzzles(path, args.max)
        print(f"{os.path.basename(path)}: {len(items):,} puzzles ...", file=sys.stderr,
              flush=True)
        times, hints, solved = [], [], 0
        start = time.perf_counter()
        for p in items:
            t0 = time.perf_counter()
            result = solve_path(p)
            for step in result.steps:
                step.describe(p.shape)
            times.append(time.perf_counter() - t0)
            solved += result.status == "solved"
        total = time.perf_counter() - start
        for p in items[:500]:
            t0 = time.perf_counter()
            next_step(Board.from_puzzle(p), p.shape)
            hints.append(time.perf_counter() - t0)
        hard = []
        for p in items[:200]:
            steps = solve_path(p).steps
            for board, step in zip(boards_before_steps(p, steps), steps, strict=True):
                if step.technique in SINGLES:
                    continue
                board.memo.clear()
                t0 = time.perf_counter()
                next_step(board, p.shape)
                hard.append(time.perf_counter() - t0)
        hard.sort()
        hard_text = (f"{statistics.median(hard) * 1e3:.1f}, "
                     f"{hard[int(0.9 * (len(hard) - 1))] * 1e3:.1f}") if hard else "-"
        table.add_row(os.path.basename(path), f"{len(items):,}",
                      f"{100 * solved / len(items):.2f}%", f"{len(items) / total:,.0f}",
                      f"{statistics.median(times) * 1e3:.2f}", f"{max(times) * 1e3:.1f}",
                      f"{statistics.median(hints) * 1e3:.3f}", hard_text)
    Console(width=150).print(table)


if __name__ == "__main__":
    main()
