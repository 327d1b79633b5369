"""Kakuro generation benchmark: time per puzzle, blackouts, and a check of every puzzle.

For each size asked, Kakuros are generated from seeds 1..N (on --jobs processes; each
puzzle's CPU time is measured in the process that made it) and each is checked: exactly
one solution on the compiled engine and on the pure-Python one, the layout symmetric under
a half turn, connected, in runs of 2 to 9 cells. The uniqueness check is also timed on the
compiled engine: the whole call (the puzzle's text parsed, its shape and engine built,
solutions counted to 2) and the search alone, as the engine reports it. The load average
before and after is printed, as other work on the machine slows every figure.

    python bench/sumgen.py [--sizes 10:100,15:100,20:50,30:15] [--jobs J]
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
from numberplace.formats import parse, write
from numberplace.generate.sumgen import generate_kakuro


@dataclass
class Made:
    """One generated Kakuro's figures."""

    size: int
    seed: int
    cpu: float
    attempts: int
    blackouts: int
    black_share: float
    unique_c: bool
    unique_python: bool
    layout_ok: bool
    check: float
    search: float


def layout_ok(white: list[list[bool]]) -> bool:
    """Symmetric under a half turn, white cells connected, every stretch 2 to 9 long."""
    rows, cols = len(white), len(white[0])
    if any(white[0]) or any(row[0] for row in white):
        return False
    if any(white[r][c] != white[rows - r][cols - c]
           for r in range(1, rows) for c in range(1, cols)):
        return False
    for grid in (white, [list(col) for col in zip(*white, strict=True)]):
        for row in grid:
            n = 0
            for w in (*row, False):
                if w:
                    n += 1
                elif n:
                    if not 2 <= n <= 9:
                        return False
                    n = 0
    cells = {(r, c) for r in range(rows) for c in range(cols) if white[r][c]}
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


def make(size: int, seed: int) -> Made:
    """Generate one Kakuro and check it."""
    t = time.process_time()
    made = generate_kakuro(size, seed=seed)
    cpu = time.process_time() - t
    shape = made.puzzle.shape
    rows, cols = shape.canvas
    white = [[False] * cols for _ in range(rows)]
    for r, c in shape.coords:
        white[r][c] = True
    text = write(made.puzzle, "kakuro")
    t = time.perf_counter()
    result = engine.solve(parse(text), limit=2, keep=0, backend="c")
    check = time.perf_counter() - t
    unique = {b: engine.solve(made.puzzle, limit=2, keep=2, backend=b)
              for b in engine.available_backends()}
    ok = {b: r.status.value == "unique" and r.solutions[0] == made.solution
          for b, r in unique.items()}
    return Made(size, seed, cpu, made.attempts, made.blackouts,
                1 - shape.ncells / ((rows - 1) * (cols - 1)), ok.get("c", False),
                ok.get("python", False), layout_ok(white), check, result.seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10:100,15:100,20:50,30:15",
                        help="SIZE:COUNT pairs (seeds 1..COUNT)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    work = [(int(size), seed) for item in args.sizes.split(",") if item
            for size, count in [(item.split(":") + ["10"])[:2]]
            for seed in range(1, int(count) + 1)]
    load_before = os.getloadavg()
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(make, *zip(*work, strict=True)))
    wall = time.perf_counter() - start
    load_after = os.getloadavg()

    table = Table(title=f"Kakuro generation ({args.jobs} process(es), "
                        f"{os.cpu_count()} CPUs)")
    for col in ("size", "made", "gen median s", "gen worst s", "attempts (mean)",
                "blackouts (mean / max)", "black share", "unique C", "unique Python",
                "layout ok", "check median ms", "check worst ms", "search median ms"):
        table.add_column(col, justify="right")
    for size in sorted({m.size for m in results}):
        ms = [m for m in results if m.size == size]
        cpu = [m.cpu for m in ms]
        table.add_row(
            f"{size}x{size}", str(len(ms)), f"{statistics.median(cpu):.2f}", f"{max(cpu):.2f}",
            f"{statistics.mean(m.attempts for m in ms):.2f}",
            f"{statistics.mean(m.blackouts for m in ms):.2f} / {max(m.blackouts for m in ms)}",
            f"{statistics.median(m.black_share for m in ms):.1%}",
            str(sum(m.unique_c for m in ms)), str(sum(m.unique_python for m in ms)),
            str(sum(m.layout_ok for m in ms)),
            f"{statistics.median(m.check for m in ms) * 1e3:.2f}",
            f"{max(m.check for m in ms) * 1e3:.2f}",
            f"{statistics.median(m.search for m in ms) * 1e3:.2f}")
    console = Console(width=200)
    console.print(table)
    console.print(f"wall {wall:.1f} s; load average (1, 5, 15 min) before "
                  f"{', '.join(f'{x:.2f}' for x in load_before)}, after "
                  f"{', '.join(f'{x:.2f}' for x in load_after)}")


if __name__ == "__main__":
    main()
