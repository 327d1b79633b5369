"""Benchmark Kakuro and Killer: generation, and the uniqueness check beside puzzlekit.

Puzzles are generated here with fixed seeds: Kakuros of each size (one solution each),
Kakuros whose sums come from a random filling of a generated layout (often several
solutions: a harder search), and 9x9 Killers. Each is checked by our engine (count up to
2 solutions) and, when ``--peer-python`` names a Python that has puzzlekit (installed
outside this project, e.g. ``python -m venv /tmp/pk && /tmp/pk/bin/pip install
puzzlekit``), solved by puzzlekit in the same run on the same puzzles. Our time is the
whole call: the shape built from the puzzle's text, its engine compiled, the search; the
peer's is its model built and solved (its default options); the ratio compares these
whole calls. "search" is our search alone, as the engine reports it. Both on this machine, one
process each, one after the other.

    python bench/sums.py [--count N] [--sizes 10,15] [--random-sizes 15,20,30]
                         [--time-limit S] [--peer-python PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import Puzzle, engine
from numberplace.formats import parse, write
from numberplace.generate.sumgen import (
    generate_kakuro,
    generate_killer,
    kakuro_layout,
    layout_shape,
    random_filling,
    totals,
    with_sums,
)
from numberplace.model.shape import Shape, is_across

PEER = r"""
import json, sys, time
from importlib.metadata import version
from puzzlekit.solvers.kakuro import KakuroSolver
from puzzlekit.solvers.killer_sudoku import KillerSudokuSolver
out = {"version": version("puzzlekit"), "seconds": [], "status": []}
for p in json.load(open(sys.argv[1])):
    t = time.perf_counter()
    if p["kind"] == "kakuro":
        s = KakuroSolver(len(p["grid"]), len(p["grid"][0]), p["grid"])
    else:
        s = KillerSudokuSolver(9, 9, p["grid"], p["regions"])
    r = s.solve({"time_limit_sec": float(sys.argv[2])})
    out["seconds"].append(time.perf_counter() - t)
    out["status"].append(str(getattr(r, "status", r)))
print(json.dumps(out))
"""


def kakuro_grid(shape: Shape) -> list[list[str]]:
    """A Kakuro in puzzlekit's grid: ``0`` white, ``-`` block, ``down,across`` clues."""
    rows, cols = shape.canvas
    grid = [["-"] * cols for _ in range(rows)]
    clues: dict[tuple[int, int], list[str]] = {}
    for r, c in shape.coords:
        grid[r][c] = "0"
    for cage in shape.cages:
        r, c = shape.coords[cage.cells[0]]
        across = is_across(shape, cage)
        at = (r, c - 1) if across else (r - 1, c)
        clues.setdefault(at, ["", ""])[1 if across else 0] = str(cage.total)
    for (r, c), (down, across) in clues.items():
        grid[r][c] = f"{down},{across}"
    return grid


def killer_grids(shape: Shape) -> tuple[list[list[str]], list[list[str]]]:
    """A Killer in puzzlekit's two grids: sums at each cage's first cell, cage numbers."""
    grid = [["-"] * 9 for _ in range(9)]
    regions = [["0"] * 9 for _ in range(9)]
    for k, cage in enumerate(shape.cages):
        for cell in cage.cells:
            r, c = shape.coords[cell]
            regions[r][c] = str(k + 1)
        r, c = shape.coords[cage.cells[0]]
        grid[r][c] = str(cage.total)
    return grid, regions


def random_filling_kakuro(size: int, seed: int) -> Puzzle:
    """A generated layout whose sums come from a random filling (digits different in
    each run), so it may have several solutions."""
    rng = random.Random(seed)
    base = layout_shape(kakuro_layout(rng, size, size))
    filling = random_filling(rng, engine.SumsProbe(base))
    assert filling is not None
    shape = with_sums(base, totals(base, filling))
    return Puzzle(shape, (0,) * shape.ncells)


def ours(texts: list[str], time_limit: float) -> tuple[list[float], list[float], list[str]]:
    """Seconds of each whole check (parse, compile, count to 2), of its search alone,
    and its status."""
    seconds, search, statuses = [], [], []
    for text in texts:
        t = time.perf_counter()
        result = engine.solve(parse(text), limit=2, keep=0, time_limit=time_limit)
        seconds.append(time.perf_counter() - t)
        search.append(result.seconds)
        statuses.append(result.status.value)
    return seconds, search, statuses


def peer(python: str | None, items: list[dict[str, object]], time_limit: float
         ) -> dict[str, object] | None:
    if not python:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "puzzles.json")
        path.write_text(json.dumps(items))
        done = subprocess.run([python, "-c", PEER, str(path), str(time_limit)],
                              capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per set")
    parser.add_argument("--sizes", default="10,15", help="sizes of generated Kakuros")
    parser.add_argument("--random-sizes", default="15,20,30",
                        help="sizes of Kakuros with sums from a random filling")
    parser.add_argument("--peer-python", help="a Python with puzzlekit, to compare")
    parser.add_argument("--time-limit", type=float, default=30.0,
                        help="seconds each check may take, ours and the peer's")
    args = parser.parse_args()
    sets: list[tuple[str, list[Puzzle], float]] = []
    for size in [int(s) for s in args.sizes.split(",") if s]:
        t = time.perf_counter()
        made, took = [], []
        for seed in range(1, args.count + 1):
            t = time.perf_counter()
            made.append(generate_kakuro(size, seed=seed).puzzle)
            took.append(time.perf_counter() - t)
        sets.append((f"Kakuro {size}x{size}, generated", made, statistics.median(took)))
    for size in [int(s) for s in args.random_sizes.split(",") if s]:
        made = [random_filling_kakuro(size, seed) for seed in range(1, args.count + 1)]
        sets.append((f"Kakuro {size}x{size}, random filling", made, 0.0))
    killers, took = [], []
    for seed in range(1, 10 * args.count + 1):
        t = time.perf_counter()
        killers.append(generate_killer(seed=seed).puzzle)
        took.append(time.perf_counter() - t)
    sets.append(("Killer 9x9, generated", killers, statistics.median(took)))

    table = Table(title=f"numberplace sums bench (engine: {engine.backend_name()}, "
                        "count to 2, one process)")
    for col in ("puzzles", "cells", "statuses", "gen s (median)", "search median ms",
                "ours median ms", "ours worst ms", "peer median ms", "peer worst ms",
                "ratio (median)"):
        table.add_column(col, justify="right")
    table.add_column("set")
    version = None
    for name, puzzles, gen in sets:
        texts = [write(p, "kakuro" if name.startswith("Kakuro") else "killer") for p in puzzles]
        seconds, search, statuses = ours(texts, args.time_limit)
        items: list[dict[str, object]] = []
        for p in puzzles:
            if name.startswith("Kakuro"):
                items.append({"kind": "kakuro", "grid": kakuro_grid(p.shape)})
            else:
                grid, regions = killer_grids(p.shape)
                items.append({"kind": "killer", "grid": grid, "regions": regions})
        theirs = peer(args.peer_python, items, args.time_limit)
        counts = {s: statuses.count(s) for s in sorted(set(statuses))}
        if theirs:
            theirs_status = theirs["status"]
            assert isinstance(theirs_status, list)
            cut = sum("Timeout" in str(x) or "Unknown" in str(x) for x in theirs_status)
            if cut:
                counts["peer cut"] = cut
        row = [str(len(puzzles)), str(statistics.median(p.shape.ncells for p in puzzles)),
               " ".join(f"{k} {v}" for k, v in counts.items()), f"{gen:.2f}" if gen else "-",
               f"{statistics.median(search) * 1e3:.2f}",
               f"{statistics.median(seconds) * 1e3:.2f}", f"{max(seconds) * 1e3:.2f}"]
        if theirs:
            version = theirs["version"]
            ps = theirs["seconds"]
            assert isinstance(ps, list)
            row += [f"{statistics.median(ps) * 1e3:.1f}", f"{max(ps) * 1e3:.1f}",
                    f"{statistics.median(ps) / statistics.median(seconds):.0f}x"]
        else:
            row += ["-", "-", "-"]
        table.add_row(*row, name)
    Console(width=150).print(table)
    print(f"peer: puzzlekit {version}" if version else "peer: not run (no --peer-python)")


if __name__ == "__main__":
    main()
