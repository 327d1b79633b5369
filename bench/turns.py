"""Timing for the benchmarks: runs that take turns, so a slow spell of the machine hits
each of them alike."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

#: The environment for timed runs of the command line: a user's installed package has its
#: bytecode cached, so the runs may cache it too whatever the calling shell says
#: (PYTHONDONTWRITEBYTECODE would make every run compile every module again).
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def best(repeat: int, *runs: Callable[[], object]) -> list[float]:
    """The fastest of ``repeat`` rounds of each run, in seconds. The runs take turns
    within each round."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, kept in zip(runs, times, strict=True):
            start = time.perf_counter()
            run()
            kept.append(time.perf_counter() - start)
    return [min(kept) for kept in times]
