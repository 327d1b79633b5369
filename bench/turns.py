"""Timing for the benchmarks: runs that take turns, so a slow spell of the machine hits
each of them alike."""

from __future__ import annotations

import time
from collections.abc import Callable


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
