"""Differential check: the pure-Python engine against the compiled one on whole files.

Every puzzle is searched by both (counting up to 2 solutions); status, count and the
solution of unique puzzles must agree. Uses all cores. Prints one row per file.

    python bench/differential.py [FILE ...]     (default: ../shared/data/sudoku9/*.txt)

It takes about 2 minutes on 2 cores for the whole shared set.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from numberplace import Puzzle, classic, engine, formats


def compare(lines: list[str]) -> list[str]:
    """Lines on which the two engines disagree."""
    bad = []
    for line in lines:
        puzzle = Puzzle(classic(9), tuple(formats.values9(line) or b""))
        c = engine.solve(puzzle, backend="c")
        p = engine.solve(puzzle, backend="python")
        if (c.status, c.count) != (p.status, p.count) or (
                c.status is engine.Status.UNIQUE and c.solution != p.solution):
            bad.append(line)
    return bad


def main(paths: list[str]) -> int:
    """Compare the engines on every file; 1 if they disagree on any puzzle."""
    failures = 0
    print(f"{'file':34} {'puzzles':>8} {'disagree':>8} {'seconds':>8}", flush=True)
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for path in paths:
            if not os.path.exists(path):
                print(f"{os.path.basename(path):34} missing: {path}", flush=True)
                failures += 1
                continue
            with open(path) as handle:
                lines = [s for s in (x.strip() for x in handle) if s and not s.startswith("#")]
            t0 = time.perf_counter()
            chunks = [lines[i:i + 200] for i in range(0, len(lines), 200)]
            bad = [b for part in pool.map(compare, chunks) for b in part]
            failures += len(bad)
            print(f"{os.path.basename(path):34} {len(lines):>8} {len(bad):>8} "
                  f"{time.perf_counter() - t0:>8.1f}", flush=True)
            for b in bad[:5]:
                print("  disagree:", b, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    default = sorted(glob.glob(os.path.join(here, "..", "..", "shared", "data", "sudoku9",
                                            "*.txt")))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="files of 81-character puzzle lines "
                        "(default: every file of ../shared/data/sudoku9)")
    args = parser.parse_args()
    if not (args.files or default):
        parser.error("no files given and ../shared/data/sudoku9 is missing")
    sys.exit(main(args.files or default))
