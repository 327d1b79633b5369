"""Rating benchmark: our Explainer-scale difficulty against published Explainer ratings.

Reads lines ``PUZZLE RATING`` (81 characters, then a Sudoku Explainer rating such as
``7.2``; more fields after it are ignored; a line with the rating first and the puzzle
second is read too), rates each puzzle with :func:`numberplace.logic.rating.rate`, and prints
the Spearman rank correlation between the two (per file too, when there are several),
how many are rated the same, the mean of ours per band of theirs and the time taken.
With ``--check`` it follows each puzzle's path once more and checks that every cell
keeps its true digit to the end: no step of the path, nested chains included, removed
one.

    python bench/rating.py FILE [FILE ...] [--scale SCALE] [--max N] [--jobs J]
                           [--differences D] [--check]

The sample of ``bench/explainer_sample.py`` has two ratings on each line, the explainer
scale's and SukakuExplainer's default set's; ``--scale`` picks the scale ours follows,
and theirs on it (:data:`numberplace.arguments.SCALES`: explainer or sukaku).

Ratings must come from outside this project: rate puzzles with Sudoku Explainer's
``serate`` command yourself, or take a public collection that lists them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from rich.console import Console
from rich.table import Table

from numberplace import engine, formats
from numberplace.arguments import SCALES
from numberplace.limits import Deadline
from numberplace.logic.board import Board
from numberplace.logic.explainer import explainer_difficulty
from numberplace.logic.rating import _value_of, rate


def read(path: str, limit: int | None, column: int = 0) -> list[tuple[str, float]]:
    """(puzzle, rating) pairs of a file: the ``column``-th rating after the puzzle (a
    line of the Explainer sample has two: the explainer scale's, then the sukaku
    scale's), or the rating before it."""
    out = []
    with open(path) as handle:
        for raw in handle:
            fields = raw.split()
            pair = None
            for i, f in enumerate(fields):
                if len(f) != 81:
                    continue
                after = fields[i + 1:]
                try:
                    if len(after) > column:
                        pair = (f, float(after[column]))
                    elif i and column == 0:
                        pair = (f, float(fields[i - 1]))
                except ValueError:
                    pair = None
                break
            if pair:
                out.append(pair)
                if limit and len(out) >= limit:
                    break
    return out


def ours(puzzle: str, scale: str = "explainer") -> tuple[float | None, str, float, str]:
    """Our difficulty, level name, seconds and the hardest step for one puzzle."""
    start = time.perf_counter()
    r = rate(formats.parse(puzzle), book=False, scale=scale)
    return (r.difficulty, r.level or r.status, time.perf_counter() - start,
            r.explainer_hardest or "")


def sound(puzzle: str) -> bool:
    """True when the Explainer's path on ``puzzle`` leaves every cell its true digit
    (placed, or among its candidates) where the path ends."""
    parsed = formats.parse(puzzle)
    solution = engine.solve(parsed, limit=1).solution
    assert solution is not None
    board = Board.from_puzzle(parsed)
    board.memo.deadline = Deadline(600)
    explainer_difficulty(board, partial(_value_of, parsed.shape))
    return all(v == s if v else m >> (s - 1) & 1
               for v, m, s in zip(board.values, board.candidates, solution, strict=True))


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    # one side all equal (a set of easy puzzles all rated 1.2) has no ranks to compare
    return cov / (va * vb) ** 0.5 if va and vb else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="No rated file is shipped. The figures in docs/rating.md came from Sudoku "
               "Explainer's serate command (the SukakuExplainer build, run outside this "
               "project, with --techs set to Sudoku Explainer 1.2.1's techniques and "
               "--format='%g %r') over the puzzles docs/rating.md lists. "
               "Rating takes milliseconds for an easy puzzle and seconds for one the Explainer "
               "rates 8 or more; progress goes to standard "
               "error.")
    parser.add_argument("files", nargs="+", metavar="RATED_FILE",
                        help="lines of 'PUZZLE RATING' (or 'RATING PUZZLE'), such as "
                             "serate writes")
    parser.add_argument("--scale", choices=SCALES, default=SCALES[0],
                        help="the Explainer scale: ours follows it, and on lines with two "
                             "ratings it picks theirs (the first for explainer)")
    parser.add_argument("--max", type=int, default=None, help="puzzles per file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: all cores)")
    parser.add_argument("--differences", type=float, default=None, metavar="D",
                        help="also list the puzzles where ours and theirs differ by D or more")
    parser.add_argument("--check", action="store_true",
                        help="also check that no step of each path removes a true digit")
    args = parser.parse_args()
    column = SCALES.index(args.scale)
    sources = [(path, read(path, args.max, column)) for path in args.files]
    pairs = [p for _, got in sources for p in got]
    if not pairs:
        sys.exit("no 'puzzle rating' lines found")
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for k, result in enumerate(pool.map(partial(ours, scale=args.scale),
                                            [p for p, _ in pairs], chunksize=4), 1):
            results.append(result)
            if k % 100 == 0 or k == len(pairs):
                print(f"rated {k:,} of {len(pairs):,}", file=sys.stderr, flush=True)
        checked = list(pool.map(sound, [p for p, _ in pairs], chunksize=4)) if args.check else []
    theirs = [r for _, r in pairs]
    mine = [d if d is not None else 0.0 for d, _, _, _ in results]
    rho = spearman(theirs, mine)
    hard = [i for i, t in enumerate(theirs) if t >= 7.0]
    rho_hard = (spearman([theirs[i] for i in hard], [mine[i] for i in hard])
                if len(hard) > 2 else float("nan"))
    mad = statistics.fmean(abs(a - b) for a, b in zip(theirs, mine, strict=True))
    same = sum(abs(a - b) < 0.05 for a, b in zip(theirs, mine, strict=True))
    console = Console(width=120)
    if len(sources) > 1:
        files = Table(title="per file")
        for col in ("file", "puzzles", "Spearman", "rated 7.0+", "Spearman 7.0+", "same value"):
            files.add_column(col, justify="right")
        start = 0
        for path, got in sources:
            idx = range(start, start + len(got))
            start += len(got)
            t, m = [theirs[i] for i in idx], [mine[i] for i in idx]
            h = [i for i in idx if theirs[i] >= 7.0]
            files.add_row(os.path.basename(path), str(len(got)),
                          f"{spearman(t, m):.3f}" if len(got) > 2 else "-", str(len(h)),
                          f"{spearman([theirs[i] for i in h], [mine[i] for i in h]):.3f}"
                          if len(h) > 2 else "-",
                          str(sum(abs(a - b) < 0.05 for a, b in zip(t, m, strict=True))))
        console.print(files)
    table = Table(title=f"our difficulty against Sudoku Explainer's ({args.scale} scale): "
                        f"{len(pairs)} puzzles, Spearman {rho:.4f}; on the {len(hard)} rated "
                        f"7.0 or more, Spearman {rho_hard:.4f}; mean difference {mad:.3f}; "
                        f"the same value on {same} ({100 * same / len(pairs):.1f}%)")
    for col in ("their rating", "puzzles", "same value", "our mean", "Spearman", "our levels",
                "median ms"):
        table.add_column(col, justify="right")
    bands = [(0, 3.0), (3.0, 5.0), (5.0, 7.0), (7.0, 8.0), (8.0, 9.0), (9.0, 99.0)]
    for low, high in bands:
        idx = [i for i, t in enumerate(theirs) if low <= t < high]
        if not idx:
            continue
        values = [mine[i] for i in idx]
        levels: dict[str, int] = {}
        for i in idx:
            levels[results[i][1]] = levels.get(results[i][1], 0) + 1
        equal = sum(abs(theirs[i] - mine[i]) < 0.05 for i in idx)
        table.add_row(f"{low:.1f}-{high:.1f}" if high < 99 else f"{low:.1f}+", str(len(idx)),
                      f"{equal} ({100 * equal / len(idx):.1f}%)", f"{statistics.fmean(values):.2f}",
                      f"{spearman([theirs[i] for i in idx], values):.3f}" if len(idx) > 2
                      else "-",
                      ", ".join(f"{k} {v}" for k, v in sorted(levels.items())),
                      f"{statistics.median(results[i][2] for i in idx) * 1e3:.1f}")
    console.print(table)
    if args.check:
        print(f"paths that keep every true digit: {sum(checked):,} of {len(checked):,}")
        for (puzzle, _), ok in zip(pairs, checked, strict=True):
            if not ok:
                print(f"{puzzle} a step removed a true digit")
    if args.differences is not None:
        for (puzzle, t), m, (_, level, _, step) in zip(pairs, mine, results, strict=True):
            if abs(t - m) >= args.differences:
                print(f"{puzzle} theirs {t:.1f} ours {m:.1f} {level} {step}")


if __name__ == "__main__":
    main()
