"""The puzzle bank: importing a large file of puzzles, most of them written twice.

Builds a file of ``--lines`` puzzles (default 1,000,000): the shared kaggle-like set's
puzzles over and over, each copy changed by a random symmetry (rows within bands, bands,
columns within stacks, stacks, transpose, relabelling), so every copy after a puzzle's
first is a duplicate that only its canonical key can tell. Then times ``numberplace bank
add FILE --db NEW --jobs J`` as a whole process for each ``--jobs`` value, and prints the
time, the rate, the size of the database, and the duplicates found beside the number
the file was built with (the copies minus the distinct puzzles it started from).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from turns import USER_ENV

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"


def block_order(rng: random.Random) -> list[int]:
    bands = rng.sample(range(3), 3)
    return [b * 3 + i for b in bands for i in rng.sample(range(3), 3)]


def shuffled(line: str, rng: random.Random) -> str:
    """The puzzle changed by a random symmetry of the 9x9 grid."""
    grid = [line[r * 9:(r + 1) * 9] for r in range(9)]
    if rng.random() < 0.5:
        grid = ["".join(col) for col in zip(*grid, strict=True)]
    rows, cols = block_order(rng), block_order(rng)
    digits = rng.sample("123456789", 9)
    relabel = str.maketrans("1234567890", "".join(digits) + ".")
    return "".join(grid[r][c] for r in rows for c in cols).translate(relabel)


def build(path: Path, lines: int, seed: int) -> tuple[int, int]:
    """Write the file; returns (lines written, distinct puzzles it was made from)."""
    source = DATA / "kaggle_like_10k.txt"
    if not source.exists():
        raise SystemExit(f"missing benchmark data: {source} (see shared/data/README.md)")
    puzzles = [line.strip() for line in source.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    rng = random.Random(seed)
    used = set()
    with path.open("w") as f:
        for i in range(lines):
            k = i % len(puzzles)
            used.add(k)
            f.write(shuffled(puzzles[k], rng) + "\n")
    return lines, len({puzzles[k] for k in used})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        made = work / "puzzles.txt"
        start = time.perf_counter()
        lines, distinct = build(made, args.lines, args.seed)
        print(f"built {lines:,} lines from {distinct:,} puzzles in "
              f"{time.perf_counter() - start:.1f} s", file=sys.stderr)
        table = Table(title=f"bank add: {lines:,} lines, {distinct:,} distinct puzzles "
                            f"(whole process)")
        for name in ("jobs", "seconds", "lines/s", "added", "duplicates", "expected dup.",
                     "database MB", "bytes/puzzle"):
            table.add_column(name, justify="right")
        for jobs in args.jobs:
            db = work / f"bank-{jobs}.sqlite"
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "numberplace", "bank", "add",
                                   str(made), "--db", str(db), "--jobs", str(jobs),
                                   "--no-progress", "--json"],
                                  capture_output=True, text=True, check=False, env=USER_ENV)
            seconds = time.perf_counter() - start
            if done.returncode not in (0, 1):
                raise SystemExit(f"bank add failed: {done.stderr.strip()[-500:]}")
            report = json.loads(done.stdout.strip().splitlines()[-1])
            size = db.stat().st_size + sum(p.stat().st_size for p in work.glob(db.name + "-*"))
            table.add_row(str(jobs), f"{seconds:.1f}", f"{lines / seconds:,.0f}",
                          f"{report['added']:,}", f"{report['duplicates']:,}",
                          f"{lines - distinct:,}", f"{size / 1e6:,.1f}",
                          f"{size / max(report['added'], 1):,.0f}")
        Console().print(table)


if __name__ == "__main__":
    main()
