"""The one pipeline of the commands that work through puzzles.

Read -> work in an executor -> results in input order -> write::

    run(sink, settings, pieces, work, emit, meter)

``pieces`` are pieces of the input (a few records, or a chunk of lines); ``work(piece)``
runs in the executor and returns one result per record; ``emit(result)`` runs here,
turns a result into an :class:`Outcome` (text for standard output, an error for standard
error, a status for the summary), and the pipeline writes it. At most ``2 * jobs`` pieces
are in flight, so a file of millions of puzzles runs in constant memory.

The executor is any :class:`concurrent.futures.Executor`, made by a factory the caller
may inject (a cluster's, say); by default a process pool of ``jobs`` workers, or this
process for one job or a single piece.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from rich.progress import Progress

    from ..inputs import Input

P = TypeVar("P")
R = TypeVar("R")

#: The summary's name for records that could not be read.
UNREADABLE = "unreadable"


@dataclass
class Outcome:
    """One record's result, rendered: ``text`` for standard output ("" for none),
    ``error`` for standard error, ``status`` counted in the summary."""

    line: int
    status: str
    text: str
    error: str = ""


@dataclass
class Meter:
    """How far the work is, for the progress bar: ``position()`` out of ``total`` (bytes
    of the input, or puzzles); without ``position``, the records done so far."""

    total: int | None = None
    position: Callable[[], int] | None = None

    @classmethod
    def of(cls, source: Input) -> Meter:
        """Bytes read out of the file's size; records done for a stream of unknown size."""
        return cls(source.size, source.position if source.size else None)


@dataclass
class Settings:
    """How a command's pipeline runs."""

    command: str
    jobs: int
    progress: bool = False
    summary: bool = False
    #: the statuses the summary names first, in this order, even when none had them
    shown: Sequence[str] = ()
    executor: Callable[[], Executor] | None = None


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def ordered_map(fn: Callable[[P], R], items: Iterable[P], jobs: int,
                executor: Callable[[], Executor] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` in an executor, yielding results in input order.

    At most ``2 * jobs`` items are in flight, which bounds memory on endless input. One
    job, or a single item, runs in this process; otherwise ``executor()`` makes the
    executor (a process pool of ``jobs`` by default), so ``fn`` and the items must pickle.
    """
    it = iter(items)
    head = list(islice(it, 2))
    if jobs <= 1 or len(head) < 2:  # a single item is not worth starting processes for
        for item in chain(head, it):
            yield fn(item)
        return
    # imported here: the process pool's modules take a fifth of the start-up time
    from concurrent.futures import ProcessPoolExecutor

    make = executor or (lambda: ProcessPoolExecutor(max_workers=jobs))
    with make() as pool:
        pending: deque[Future[R]] = deque()
        for item in chain(head, it):
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def run(sink: Callable[[str], object], settings: Settings, pieces: Iterable[P],
        work: Callable[[P], list[R]], emit: Callable[[R], Outcome],
        meter: Meter) -> Counter[str]:
    """Work through ``pieces`` (see the module docs); returns how many records ended with
    each status. ``sink`` takes each text of standard output."""
    statuses: Counter[str] = Counter()
    start = time.perf_counter()
    with Bar(settings.command, meter.total, settings.progress) as bar:
        for results in ordered_map(work, pieces, settings.jobs, settings.executor):
            for result in results:
                outcome = emit(result)
                statuses[outcome.status] += 1
                if outcome.error:
                    print(f"numberplace: {outcome.error}", file=sys.stderr)
                if outcome.text:
                    sink(outcome.text + "\n")
            bar.show(meter.position() if meter.position else sum(statuses.values()))
    if settings.summary:
        print(summary(statuses, time.perf_counter() - start, settings.shown), file=sys.stderr)
    return statuses


def summary(statuses: Counter[str], elapsed: float, shown: Sequence[str] = ()) -> str:
    """``12 puzzles: 10 unique, 1 multiple, ...; 0.52 s, 23 puzzles/s``: the statuses in
    ``shown`` first (named even when none had them), then the others by name, then the
    unreadable records."""
    total = sum(statuses.values())
    rest = sorted(k for k in statuses if k not in shown and k != UNREADABLE)
    parts = [f"{statuses[k]} {k}" for k in chain(shown, rest)]
    if statuses[UNREADABLE]:
        parts.append(f"{statuses[UNREADABLE]} {UNREADABLE}")
    rate = total / elapsed if elapsed > 0 else 0.0
    return (f"{total} puzzles: {', '.join(parts) or 'none'}; {elapsed:.2f} s, "
            f"{rate:,.0f} puzzles/s")


class Bar:
    """A progress bar on standard error while the block runs, or nothing when disabled."""

    def __init__(self, description: str, total: int | None, enabled: bool) -> None:
        self._progress: Progress | None = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = [TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn()]
        columns += [TimeRemainingColumn()] if total else [MofNCompleteColumn()]
        self._progress = Progress(*columns, console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task(description, total=total)

    def __enter__(self) -> Bar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def show(self, completed: int) -> None:
        """Move the bar to ``completed`` (bytes read, or records done)."""
        if self._progress is not None:
            self._progress.update(self._task, completed=completed)
