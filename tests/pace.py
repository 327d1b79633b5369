"""Bounds on wall-clock time that hold on a busy machine.

A test that says "this stops within a second" measures wall-clock time, and a machine
running other work (the other half of a parallel test run, a build beside it) gives each
process only part of a core: the same work then takes longer on the clock. So a bound is
its seconds on an idle machine times :func:`slowdown`, measured in the same run, just
after the work: how many times longer than its own CPU time a fixed piece of work takes
right now. On an idle machine it is 1 and the bound is the idle one.
"""

from __future__ import annotations

import time

#: CPU seconds of the piece of work timed: long enough to span several of the system's
#: time slices, short enough to cost the run nothing.
PROBE_SECONDS = 0.05


def slowdown() -> float:
    """How many times longer than its CPU time a piece of work takes now (at least 1)."""
    start_wall, start_cpu = time.perf_counter(), time.thread_time()
    spent = 0.0
    while spent < PROBE_SECONDS:
        spent = time.thread_time() - start_cpu
    return max(1.0, (time.perf_counter() - start_wall) / spent)


def within(seconds: float, idle_bound: float) -> bool:
    """Whether ``seconds`` measured just now is within ``idle_bound`` (the bound on an idle
    machine) stretched by the machine's :func:`slowdown` now."""
    return seconds < idle_bound * slowdown()
