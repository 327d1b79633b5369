"""Differential check: the pure-Python engine against the compiled one on whole files.

Every puzzle is searched by both (counting up to 2 solutions); status, count and the
solution of unique puzzles must agree. Uses all cores. Prints one row per file.

    python bench/differential.py [FILE ...]     (default: ../shared/data/sudoku9/*.txt)
"""

from __future__ import annotations

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
    failures = 0
    print(f"{'file':34} {'puzzles':>8} {'disagree':>8} {'seconds':>8}", flush=True)
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for path in paths:
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
    sys.exit(main(sys.argv[1:] or default))
