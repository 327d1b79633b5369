"""The labels of ``rate``: each level with the hardest techniques named beside it.

Rates puzzles (from FILE, one a line, or by default a fixed draw from the shared sets)
and prints one row for each combination of level and hardest technique that occurs,
with the technique's own level and how many puzzles say it, then how many lines
disagree: a hardest technique whose level is not the puzzle's level. The Explainer's
hardest step is counted too, as it is labelled apart (``explainer_hardest``).

    python bench/labels.py [FILE] [--count 1000] [--jobs J]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace.logic.rating import level_of, rate

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"
#: The default draw: easy, middling and hard sets alike.
SETS = ("kaggle_like_10k.txt", "17_clue.txt", "magictour_top1465.txt")


def labels(line: str) -> tuple[str, int, str, str]:
    """Level, level number, hardest technique and the Explainer's hardest step."""
    r = rate(line, book=False)
    return r.level or str(r.status), r.level_number, r.hardest or "", r.explainer_hardest or ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.file:
        lines = [s.split()[0] for s in open(args.file) if s.strip() and not s.startswith("#")]
        lines = lines[:args.count]
    else:
        if not DATA.is_dir():
            sys.exit(f"the shared data is not at {DATA}")
        rng = random.Random(40)
        lines = []
        for k, name in enumerate(SETS):
            with open(DATA / name) as handle:
                every = [s.split()[0] for s in handle if s.strip() and not s.startswith("#")]
            # the count shared out whole: the first sets take one more where it does not
            # divide
            share = args.count // len(SETS) + (k < args.count % len(SETS))
            lines += rng.sample(every, share)
    with ProcessPoolExecutor(args.jobs) as pool:
        rated = list(pool.map(labels, lines, chunksize=8))
    combos = Counter((name, number, hardest) for name, number, hardest, _ in rated if number)
    table = Table(title=f"rate's labels over {len(rated)} puzzles")
    for col in ("level", "hardest", "its level", "puzzles", "agree"):
        table.add_column(col, justify="right")
    disagree = 0
    for (name, number, hardest), n in sorted(combos.items(), key=lambda x: (x[0][1], -x[1])):
        own = level_of(hardest).number
        disagree += n if own != number else 0
        table.add_row(f"{number} {name}", hardest, str(own), str(n),
                      "yes" if own == number else "NO")
    Console(width=120).print(table)
    steps = Counter(step for _, number, _, step in rated if number)
    print(f"lines whose level and hardest technique disagree: {disagree} of "
          f"{sum(combos.values())}")
    print("the Explainer's hardest steps (labelled explainer_hardest): "
          + ", ".join(f"{k} {v}" for k, v in steps.most_common(12)))


if __name__ == "__main__":
    main()
