"""Big grids: the exact engine on published 16x16 and 25x25 puzzles.

Reads one puzzle per line (256 or 625 characters: 1-9 then A-G or A-P, `.` or `0` for an
empty cell) from files outside the project, checks each for a unique solution (counting
to 2) within --time-limit, and prints per file the statuses, the median and the worst
time. With ``--peer-python P`` (a Python with python-sat installed outside the project),
the same puzzles go to the CaDiCaL SAT solver in the same run: one variable per (cell,
value), the usual clauses, the givens as unit clauses, and a second call after a clause
forbidding the first solution, so both sides answer the same question.

    python bench/big.py FILE... [--time-limit S] [--peer-python P] [--explain]
                                [--explain-limit S]

``--explain`` also runs the step-by-step solver on each puzzle (``explain``, within
--explain-limit seconds) and tallies how its paths end: solved, or stalled because no
technique applies, "(time)" when its time ran out, "(unproved)" when the engine's check
ran out of its half of the time first (the path then leaves out the techniques that
assume one solution).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
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
out = {"version": "python-sat " + version("python-sat") + ", CaDiCaL 1.9.5", "seconds": [],
       "status": []}
for text in json.load(open(sys.argv[1])):
    t = time.perf_counter()
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
        if not s.solve():
            status = "none"
        else:
            s.add_clause([-x for x in s.get_model() if x > 0])
            status = "multiple" if s.solve() else "unique"
    out["seconds"].append(time.perf_counter() - t)
    out["status"].append(status)
print(json.dumps(out))
"""


def read(path: str) -> list[str]:
    lines = [line.strip() for line in Path(path).read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def ours(texts: list[str], time_limit: float) -> tuple[list[float], list[str]]:
    seconds, statuses = [], []
    for text in texts:
        size = int(round(len(text) ** 0.5))
        start = time.perf_counter()
        result = engine.solve(Puzzle.from_string(text, classic(size)), time_limit=time_limit)
        seconds.append(time.perf_counter() - start)
        statuses.append(result.status.value)
    return seconds, statuses


def explained(texts: list[str], time_limit: float) -> tuple[str, float]:
    """The statuses of the step-by-step paths, and the worst seconds one took."""
    from numberplace.logic.explain import UNPROVED, explain
    statuses: list[object] = []
    worst = 0.0
    for text in texts:
        size = int(round(len(text) ** 0.5))
        start = time.perf_counter()
        result = explain(Puzzle.from_string(text, classic(size)), time_limit=time_limit)
        worst = max(worst, time.perf_counter() - start)
        why = (" (time)" if "time limit" in result.message
               else " (unproved)" if UNPROVED in result.message else "")
        statuses.append(f"{result.status.value}{why}")
    return tally(statuses), worst


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="one puzzle per line")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds each of our checks may take")
    parser.add_argument("--peer-python", help="a Python with python-sat, to compare")
    parser.add_argument("--explain", action="store_true",
                        help="also run the step-by-step solver on each puzzle")
    parser.add_argument("--explain-limit", type=float, default=60.0,
                        help="seconds each step-by-step path may take (explain's default)")
    args = parser.parse_args()
    table = Table(title="Exact engine on big grids (counting to 2)")
    for column in ("file", "puzzles", "statuses", "median s", "worst s", "peer statuses",
                   "peer median s", "peer worst s", "explain", "explain worst s"):
        table.add_column(column)
    version = None
    for name in args.files:
        texts = read(name)
        seconds, statuses = ours(texts, args.time_limit)
        theirs = peer(args.peer_python, texts)
        row = [Path(name).name, str(len(texts)), tally(statuses),
               f"{statistics.median(seconds):.2f}", f"{max(seconds):.2f}"]
        if theirs:
            version = theirs["version"]
            times = [float(str(t)) for t in theirs["seconds"]]
            row += [tally(theirs["status"]), f"{statistics.median(times):.2f}",
                    f"{max(times):.2f}"]
        else:
            row += ["-", "-", "-"]
        if args.explain:
            how, worst = explained(texts, args.explain_limit)
            row += [how, f"{worst:.1f}"]
        else:
            row += ["-", "-"]
        table.add_row(*row)
        print(" ".join(row), file=sys.stderr, flush=True)
    Console(width=200).print(table)
    print(f"peer: {version}" if version else "peer: not run (no --peer-python)")


if __name__ == "__main__":
    main()
