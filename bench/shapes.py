"""Benchmark the engine on shapes other than 9x9, on puzzles generated here.

For each shape, minimal puzzles (no given can be removed without a second solution, the
hardest kind for a search) are made from random grids with fixed seeds, then each is
solved counting up to 2 solutions, one process. Prints median and worst time per puzzle.

    python bench/shapes.py [--count N] [--backend c|python]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from numberplace import Puzzle, classic, engine, jigsaw, samurai
from numberplace.engine.grids import minimal_puzzle, random_grid
from numberplace.model.shape import Shape

JIGSAW_9 = ("111123333\n112223233\n111222233\n444555666\n445555666\n444455696\n"
            "777888896\n777889899\n777889999\n")


def minimal_puzzles(shape: Shape, count: int) -> list[Puzzle]:
    """``count`` minimal puzzles of ``shape`` from seeds 1..count."""
    return [minimal_puzzle(shape, random_grid(shape, seed), seed) for seed in
            range(1, count + 1)]


def time_puzzles(puzzles: list[Puzzle], limit: int, backend: str | None) -> list[float]:
    """Seconds of each search, counting up to ``limit`` solutions."""
    out = []
    for p in puzzles:
        r = engine.solve(p, limit=limit, keep=0, backend=backend)
        assert r.status is (engine.Status.UNIQUE if limit == 2 else engine.Status.SOLVED), r
        out.append(r.seconds)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per shape")
    parser.add_argument("--backend", choices=("c", "python"), default=None)
    args = parser.parse_args()
    table = Table(title=f"numberplace shapes bench (engine: {engine.backend_name(args.backend)},"
                        " one process, count to 2)")
    for col in ("puzzles", "clues (median)", "median ms", "worst ms", "generation s"):
        table.add_column(col, justify="right")
    table.add_column("set", justify="left")
    sets = [("samurai, minimal", samurai()), ("16x16, minimal", classic(16)),
            ("jigsaw 9x9, minimal", jigsaw(JIGSAW_9)), ("12x12, minimal", classic(12))]
    for name, shape in sets:
        t0 = time.perf_counter()
        puzzles = minimal_puzzles(shape, args.count)
        made = time.perf_counter() - t0
        times = time_puzzles(puzzles, 2, args.backend)
        table.add_row(str(len(puzzles)), str(statistics.median(p.clue_count for p in puzzles)),
                      f"{statistics.median(times) * 1e3:.3f}", f"{max(times) * 1e3:.3f}",
                      f"{made:.1f}", name)
    empty = [Puzzle.empty(classic(25))]
    times = time_puzzles(empty, 1, args.backend)
    table.add_row("1", "0", f"{times[0] * 1e3:.3f}", f"{times[0] * 1e3:.3f}", "-",
                  "25x25 empty, first solution")
    Console(width=110).print(table)


if __name__ == "__main__":
    main()
