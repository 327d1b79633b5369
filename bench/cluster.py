"""Work on a Dask cluster: throughput with 1 and 2 workers, beside one machine.

Starts a local Dask cluster of 1, then 2, worker processes (one thread each) and times,
as whole processes, ``numberplace solve FILE --scheduler ADDRESS`` on the shared hardest
set and ``numberplace rate FILE --scheduler ADDRESS`` on the first ``--rate-puzzles`` of
top1465; then the same commands on this machine alone with ``--jobs 1`` and ``--jobs 2``.
Each figure is the best of ``--repeat`` runs. The cluster's start is not timed (a cluster
outlives many runs); connecting to it is.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace.formats.inputs import open_input
from turns import USER_ENV

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"
COMMAND = [sys.executable, "-m", "numberplace"]


def lines(name: str, limit: int | None = None) -> list[str]:
    path = DATA / name
    if not path.exists():
        raise SystemExit(f"missing benchmark data: {path} (see shared/data/README.md)")
    with open_input(path) as source:
        return list(islice(source.puzzle_lines(), limit))


def timed(args: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([*COMMAND, *args, "--no-progress"], check=True,
                       stdout=subprocess.DEVNULL, env=USER_ENV)
        best = min(best, time.perf_counter() - start)
    return best


def _rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rate-puzzles", type=int, default=100)
    args = parser.parse_args()
    from distributed import LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        jobs = {"solve": (work / "hardest.txt", lines("forum_hardest_1905_11plus.txt")),
                "rate": (work / "top.txt", lines("magictour_top1465.txt",
                                                 args.rate_puzzles))}
        for path, text in jobs.values():
            path.write_text("\n".join(text) + "\n")
        table = Table(title="Work on a Dask cluster: puzzles/s, whole processes "
                            f"(best of {args.repeat})")
        for name in ("command", "puzzles", "1 worker", "2 workers", "2 / 1",
                     "one machine, 1 job", "one machine, 2 jobs"):
            table.add_column(name, justify="left" if name == "command" else "right")
        rates: dict[str, list[float]] = {name: [] for name in jobs}
        for workers in (1, 2):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
            try:
                for name, (path, text) in jobs.items():
                    seconds = timed([name, str(path), "--scheduler",
                                     cluster.scheduler_address], args.repeat)
                    rates[name].append(len(text) / seconds)
            finally:
                cluster.close()
        for name, (path, text) in jobs.items():
            alone = [len(text) / timed([name, str(path), "--jobs", str(j)], args.repeat)
                     for j in (1, 2)]
            one, two = rates[name]
            table.add_row(name, f"{len(text):,}", _rate(one), _rate(two), f"{two / one:.2f}x",
                          _rate(alone[0]), _rate(alone[1]))
        Console().print(table)


if __name__ == "__main__":
    main()
