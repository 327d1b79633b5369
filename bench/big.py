"""Big grids: the exact engine on published 16x16 and 25x25 puzzles, beside a SAT solver.

Reads one puzzle per line (256 or 625 characters: 1-9 then A-G or A-P, `.` or `0` for an
empty cell) from files outside the project, and times for each the first solution
(counting to 1) and the proof of uniqueness (counting to 2), each within --time-limit.
With ``--peer-python P`` (a Python with python-sat installed outside the project), the
same puzzles go to the CaDiCaL SAT solver in the same run: one variable per (cell,
value), at least one and at most one value a cell and a place a house, the givens as
unit clauses; a first call finds a solution, a second after a clause forbidding it
proves there is no other. The peer's clauses are built before its clock starts. Prints
a row per puzzle (both sides' times, and the ratio of ours to its, per question) with
``--each``, and per file the statuses, medians, worst times and ratios.

    python bench/big.py FILE... [--time-limit S] [--peer-python P] [--each]
                                [--explain] [--explain-limit S] [--rate]

``--explain`` also runs the step-by-step solver on each puzzle (``explain``, within
--explain-limit seconds) and tallies how its paths end: solved, or stalled because no
technique applies, "(time)" when its time ran out, "(unproved)" when the engine's check
ran out of its half of the time first (the path then leaves out the techniques that
assume one solution). ``--rate`` also rates each puzzle (``rate``, within the same
--explain-limit) and tallies the ratings' statuses, with the worst time one took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import Puzzle, classic, engine

PEER = r"""
import itertools, json, sys, time
from importlib.metadata import version
from pysat.solvers import Solver
def value(ch):
    return 0 if ch in ".0" else int(ch) if ch.isdigit() else ord(ch.upper()) - 55
out = {"version": "python-sat " + version("python-sat") + ", CaDiCaL 1.9.5", "first": [],
       "seconds": [], "status": []}
for text in json.load(open(sys.argv[1])):
    n = int(round(len(text) ** 0.5)); b = int(round(n ** 0.5))
    var = lambda r, c, d: (r * n + c) * n + d + 1
    clauses = []
    houses = [[(i, c) for c in range(n)] for i in range(n)]
    houses += [[(r, i) for r in range(n)] for i in range(n)]
    houses += [[(i // b * b + x, i % b * b + y) for x in range(b) for y in range(b)]
               for i in range(n)]
    groups = [[var(r, c, d) for d in range(n)] for r in range(n) for c in range(n)]
    groups += [[var(r, c, d) for r, c in h] for h in houses for d in range(n)]
    for g in groups:
        clauses.append(g)
        clauses.extend([-x, -y] for x, y in itertools.combinations(g, 2))
    for i, ch in enumerate(text):
        if value(ch):
            clauses.append([var(i // n, i % n, value(ch) - 1)])
    with Solver(name="cd195", bootstrap_with=clauses) as s:
        t = time.perf_counter()
        if not s.solve():
            status = "none"
            first = time.perf_counter() - t
        else:
            first = time.perf_counter() - t
            s.add_clause([-x for x in s.get_model() if x > 0])
            status = "multiple" if s.solve() else "unique"
        out["first"].append(first)
        out["seconds"].append(time.perf_counter() - t)
    out["status"].append(status)
print(json.dumps(out))
"""


def read(path: str) -> list[str]:
    lines = [line.strip() for line in Path(path).read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def ours(texts: list[str], time_limit: float
         ) -> tuple[list[float], list[float], list[str]]:
    """Seconds to a first solution, seconds to the answer of "unique?", and that answer,
    for each puzzle."""
    first, seconds, statuses = [], [], []
    for text in texts:
        puzzle = Puzzle.from_string(text, classic(int(round(len(text) ** 0.5))))
        start = time.perf_counter()
        engine.solve(puzzle, limit=1, time_limit=time_limit)
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        result = engine.solve(puzzle, time_limit=time_limit)
        seconds.append(time.perf_counter() - start)
        statuses.append(result.status.value)
    return first, seconds, statuses


def timed(texts: list[str], work: Callable[[Puzzle], str]) -> tuple[str, float]:
    """``work`` on each puzzle: the tally of what it says, and the worst seconds it
    took."""
    statuses: list[object] = []
    worst = 0.0
    for text in texts:
        puzzle = Puzzle.from_string(text, classic(int(round(len(text) ** 0.5))))
        start = time.perf_counter()
        statuses.append(work(puzzle))
        worst = max(worst, time.perf_counter() - start)
    return tally(statuses), worst


def explained(texts: list[str], time_limit: float) -> tuple[str, float]:
    """The statuses of the step-by-step paths, and the worst seconds one took."""
    from numberplace.logic.explain import UNPROVED, explain

    def path(puzzle: Puzzle) -> str:
        result = explain(puzzle, time_limit=time_limit)
        why = (" (time)" if "time limit" in result.message
               else " (unproved)" if UNPROVED in result.message else "")
        return f"{result.status.value}{why}"

    return timed(texts, path)


def rated(texts: list[str], time_limit: float) -> tuple[str, float]:
    """The statuses of the ratings, and the worst seconds one took."""
    from numberplace.logic.rating import rate
    return timed(texts, lambda puzzle: str(rate(puzzle, time_limit=time_limit).status.value))


def peer(python: str | None, texts: list[str]) -> dict[str, list[object]] | None:
    if not python:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "puzzles.json")
        path.write_text(json.dumps(texts))
        done = subprocess.run([python, "-c", PEER, str(path)], capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def tally(statuses: list[object]) -> str:
    return ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(map(str, statuses))))


def ratios(mine: list[float], theirs: list[float]) -> list[float]:
    """Ours over theirs, puzzle by puzzle (a zero of theirs counted as a millisecond)."""
    return [m / max(t, 1e-3) for m, t in zip(mine, theirs, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="one puzzle per line")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds each of our checks may take")
    parser.add_argument("--peer-python", help="a Python with python-sat, to compare")
    parser.add_argument("--each", action="store_true", help="a row for every puzzle")
    parser.add_argument("--explain", action="store_true",
                        help="also run the step-by-step solver on each puzzle")
    parser.add_argument("--explain-limit", type=float, default=60.0,
                        help="seconds each step-by-step path (and rating) may take "
                             "(explain's and rate's default)")
    parser.add_argument("--rate", action="store_true", help="also rate each puzzle")
    args = parser.parse_args()
    table = Table(title="Exact engine on big grids (first solution; counting to 2)")
    for column in ("file", "puzzles", "statuses", "median s", "worst s", "peer statuses",
                   "peer median s", "peer worst s", "ratio median", "ratio worst",
                   "explain", "explain worst s", "rate", "rate worst s"):
        table.add_column(column)
    each = Table(title="Puzzle by puzzle: seconds, and ours over the peer's")
    for column in ("puzzle", "status", "first", "unique", "peer status", "peer first",
                   "peer unique", "ratio first", "ratio unique"):
        each.add_column(column, justify="right")
    version = None
    for name in args.files:
        texts = read(name)
        first, seconds, statuses = ours(texts, args.time_limit)
        theirs = peer(args.peer_python, texts)
        row = [Path(name).name, str(len(texts)), tally(statuses),
               f"{statistics.median(seconds):.2f}", f"{max(seconds):.2f}"]
        if theirs:
            version = theirs["version"]
            times = [float(str(t)) for t in theirs["seconds"]]
            starts = [float(str(t)) for t in theirs["first"]]
            unique = ratios(seconds, times)
            row += [tally(theirs["status"]), f"{statistics.median(times):.2f}",
                    f"{max(times):.2f}", f"{statistics.median(unique):.2f}",
                    f"{max(unique):.2f}"]
            for k in range(len(texts)):
                each.add_row(f"{Path(name).name}:{k + 1}", statuses[k], f"{first[k]:.3f}",
                             f"{seconds[k]:.3f}", str(theirs["status"][k]),
                             f"{starts[k]:.3f}", f"{times[k]:.3f}",
                             f"{ratios([first[k]], [starts[k]])[0]:.2f}",
                             f"{unique[k]:.2f}")
        else:
            row += ["-"] * 5
        if args.explain:
            how, worst = explained(texts, args.explain_limit)
            row += [how, f"{worst:.1f}"]
        else:
            row += ["-", "-"]
        if args.rate:
            how, worst = rated(texts, args.explain_limit)
            row += [how, f"{worst:.1f}"]
        else:
            row += ["-", "-"]
        table.add_row(*row)
        print(" ".join(row), file=sys.stderr, flush=True)
    console = Console(width=200)
    if args.each and each.row_count:
        console.print(each)
    console.print(table)
    print(f"peer: {version}" if version else "peer: not run (no --peer-python)")


if __name__ == "__main__":
    main()
