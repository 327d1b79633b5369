"""The one pipeline of the commands that work through puzzles.

Read -> work in an executor -> results in input order -> write::

    run(sink, settings, pieces, work, emit, meter)

``pieces`` are pieces of the input (a few records, or a chunk of lines); ``work(piece)``
runs in the executor and returns one result per record; ``emit(result)`` runs here,
turns a result into an :class:`Outcome` (text for standard output, an error for standard
error, a status for the summary), and the pipeline writes it. At most ``2 * jobs`` pieces
are in flight, so a file of millions of puzzles runs in constant memory.

The executor is any :class:`concurrent.futures.Executor` (or anything with its
``submit`` and ``shutdown``, as :class:`ThreadPool`), made by a factory the caller may
inject (a cluster's, say); by default a process pool of ``jobs`` workers, or this
process for one job or a single piece.
"""

from __future__ import annotations

import functools
import io
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any, Generic, TypeVar

from .._frozen import Frozen
from ..errors import NumberplaceError
from ..model.shape import by_name

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from rich.progress import Progress
    from rich.progress import Task as RichTask

    from ..formats.inputs import Input

P = TypeVar("P")
R = TypeVar("R")

#: The summary's name for records that could not be read.
UNREADABLE = "unreadable"


class Outcome:
    """One record's result, rendered: ``text`` for standard output ("" for none),
    ``error`` for standard error, ``status`` counted in the summary. Text that holds
    many records (written by the compiled core) brings their statuses in ``counts``
    instead, and ends with its own line end."""

    __slots__ = ("line", "status", "text", "error", "counts")

    def __init__(self, line: int, status: str, text: str, error: str = "",
                 counts: dict[str, int] | None = None) -> None:
        self.line = line
        self.status = status
        self.text = text
        self.error = error
        self.counts = counts

    def __repr__(self) -> str:
        return (f"Outcome(line={self.line!r}, status={self.status!r}, text={self.text!r}, "
                f"error={self.error!r}, counts={self.counts!r})")


class Meter:
    """What the progress display measures the work by. Records done are counted as their
    results come, out of ``total`` when it is known up front (seeds to make, puzzles in a
    list). The records of an input (:meth:`of`) are counted first when its file is small
    (``path``, ``size``); otherwise the display follows the bytes of the input behind the
    records done (``position()``, out of ``size``, None for a stream)."""

    __slots__ = ("total", "position", "size", "path", "after", "typed")

    def __init__(self, total: int | None = None, position: Callable[[], int] | None = None,
                 size: int | None = None, path: str | None = None, after: int = 0,
                 typed: bool = False) -> None:
        self.total = total
        self.position = position
        self.size = size
        #: a file small enough to count the records of before the work starts
        self.path = path
        #: records that start on this line or above are not worked (an import going on)
        self.after = after
        #: the input is a person typing at the terminal the display would draw over
        self.typed = typed

    @classmethod
    def of(cls, source: Input, after: int = 0) -> Meter:
        """The meter of an opened input; records starting on line ``after`` or above are
        left out (they were worked by an earlier run)."""
        path = source.path
        small = False
        if path is not None and source.size is not None:
            packed = path.lower().endswith((".gz", ".xz", ".bz2"))
            small = source.size <= (_COUNTED_PACKED if packed else _COUNTED)
        typed = path is None and sys.stdin is not None and sys.stdin.isatty()
        return cls(None, source.position, source.size, path if small else None, after, typed)


#: A file of up to this many bytes on disk has its records counted before the work
#: starts, so the display can say "12/40". A small file is read whole at once, so the
#: bytes read tell nothing of the work done; a bigger one is read as the work goes, a
#: little ahead of it, and its bytes measure the work well enough, while counting its
#: records first would hold the start up (about 0.2 s a megabyte of grids).
_COUNTED = 1 << 20
#: The same for a compressed file, which holds several times as much text.
_COUNTED_PACKED = 1 << 18
#: Counting is given up after this long (a slow disk, a busy machine): bytes measure then.
_COUNTING_SECONDS = 0.5


def count_records(path: str, fmt: str | None = None, shape: str | None = None,
                  after: int = 0, seconds: float = _COUNTING_SECONDS) -> int | None:
    """How many records the file holds, cut as :func:`numberplace.formats.read_records`
    cuts them (in ``fmt``, else the format detected; ``shape``: a shape's name), leaving
    out those that start on line ``after`` or above; None when that is not known within
    ``seconds`` or the file cannot be read as puzzles."""
    # imported here: the format readers cost start-up time, and only a counted file
    # needs them (or the reading of a file)
    from ..formats.detection import detect_lines
    from ..formats.inputs import open_input
    from ..formats.records import peek_head, split

    deadline = time.monotonic() + seconds
    try:
        chosen = None
        if shape is not None and shape.strip().lower() == "jigsaw":
            fmt = fmt or "jigsaw"
        elif shape is not None:
            chosen = by_name(shape)
        with open_input(path) as source:
            numbered: Iterator[tuple[int, str]] = enumerate(source.lines(), start=1)
            if fmt is None:
                head = peek_head(numbered)
                if not head:
                    return 0
                fmt = detect_lines((text for _, text in head), chosen)
                numbered = chain(head, numbered)
            grids = len(chosen.grids) if chosen is not None and len(chosen.grids) > 1 else 5
            count = 0
            for number, record in enumerate(split(fmt, numbered, grids)):
                count += record.lines[0][0] > after
                if number % 256 == 0 and time.monotonic() > deadline:
                    return None
            return count
    except (ValueError, OSError):  # no puzzle text, or an unknown shape: bytes will do
        return None


class Settings(Frozen):
    """How a command's pipeline runs."""

    command: str
    jobs: int
    progress: bool = False
    summary: bool = False
    #: the statuses the summary names first, in this order, even when none had them
    shown: Sequence[str] = ()
    executor: Callable[[], Executor] | None = None
    #: ``--format`` and ``--shape`` the input is read with: the progress display counts a
    #: small file's records as they will be read
    reading: tuple[str | None, str | None] = (None, None)


class OutputError(NumberplaceError):
    """Output that could not be written (a full disk, a closed file)."""


class Output(io.TextIOBase):
    """A text stream whose write errors become one :class:`OutputError` naming it; a
    reader that went away (a broken pipe) is left to the caller."""

    def __init__(self, stream: IO[str], name: str) -> None:
        self._stream = stream
        self.name = name

    def write(self, text: str) -> int:
        """Write ``text``."""
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write {self.name}: {exc.strerror or exc}") from None

    def flush(self) -> None:
        """Flush the stream."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write {self.name}: {exc.strerror or exc}") from None

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def ordered_map(fn: Callable[[P], R], items: Iterable[P], jobs: int,
                executor: Callable[[], Executor] | None = None) -> Ordered[P, R]:
    """``fn`` over ``items`` in an executor, yielding results in input order.

    At most ``2 * jobs`` items are in flight, which bounds memory on endless input. One
    job, or a single item, runs in this process; otherwise ``executor()`` makes the
    executor (a process pool of ``jobs`` by default), so ``fn`` and the items must pickle.
    """
    return Ordered(fn, items, jobs, executor)


#: The end of the items.
_END = object()


class Ordered(Iterator[R], Generic[P, R]):
    """The results of :func:`ordered_map`; see :meth:`finished` for an interruption."""

    def __init__(self, fn: Callable[[P], R], items: Iterable[P], jobs: int,
                 executor: Callable[[], Executor] | None) -> None:
        self._fn = fn
        self._items = iter(items)
        self._head = list(islice(self._items, 2))
        self._jobs = jobs
        self._pending: deque[Future[R]] = deque()
        #: a result made in this process, waiting to be taken
        self._ready: list[R] = []
        self._pool: Executor | None = None
        # a single item is not worth starting processes for
        if jobs > 1 and len(self._head) >= 2:
            self._pool = (executor or functools.partial(_process_pool, jobs))()

    def __next__(self) -> R:
        if not self.wait():
            raise StopIteration
        return self.take()

    def wait(self, hold: Callable[[], AbstractContextManager[object]] | None = None) -> bool:
        """Wait until the next result in input order is made (False: there are no more).
        An interruption while waiting loses no result already made. ``hold`` is a block
        that Ctrl-C waits for the end of: given it, a wait on the executor goes in short
        spells, each in that block."""
        if self._ready:
            return True
        if self._pool is None:
            item = self._head.pop(0) if self._head else next(self._items, _END)
            if item is _END:
                return False
            self._ready.append(self._fn(item))  # type: ignore[arg-type]  # not _END here
            return True
        pending = self._pending
        with _interrupts_deferred():  # a worker forked here starts deaf to Ctrl-C
            for item in chain(self._take_head(), self._items):
                pending.append(self._pool.submit(self._fn, item))
                if len(pending) >= 2 * self._jobs:
                    break
        if not pending:
            self.close()
            return False
        if hold is not None:
            # Ctrl-C raised inside a wait on a future's lock can leave the lock released
            # twice, and a RuntimeError comes out in place of the interruption
            while True:
                with hold():
                    if _ended(pending[0], 0.05):
                        break
        pending[0].result()  # waits; a failed piece raises its error here
        return True

    def take(self) -> R:
        """The result :meth:`wait` waited for, taken off at once."""
        if self._ready:
            return self._ready.pop()
        return self._pending.popleft().result()

    def _take_head(self) -> list[P]:
        head, self._head = self._head, []
        return head

    def finished(self) -> Iterator[R]:
        """After an interruption: the results already made that come next in input order,
        without waiting for any other; then the workers are stopped."""
        try:
            if self._ready:
                yield self._ready.pop()
            while self._pending and self._pending[0].done() \
                    and not self._pending[0].cancelled() \
                    and self._pending[0].exception() is None:
                yield self._pending.popleft().result()
        finally:
            self.close()

    def close(self) -> None:
        """Stop: when work is still pending (an interruption), cancel what has not started
        and end the workers at once; then shut the executor down."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if any(not future.done() for future in self._pending):
            # The executor cancels what has not started as it shuts down: a future
            # cancelled here instead would stay on its books and break its thread when
            # the ended workers make it fail them
            _end_workers(pool)  # first: shutting down forgets the workers
        # waiting lets the executor's own thread end before Python does: it needs no long
        # wait once the workers are gone, and without it leaving Python can fail noisily
        pool.shutdown(wait=True, cancel_futures=True)


def _ended(future: Future[Any], timeout: float) -> bool:
    """Whether ``future`` ends within ``timeout`` seconds."""
    try:
        future.exception(timeout)
    except Exception:  # not yet (a timeout), or cancelled: done() tells which
        pass
    return future.done()


def _process_pool(jobs: int) -> Executor:
    # imported here: the process pool's modules take a fifth of the start-up time
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker)


def thread_pool(jobs: int) -> Executor:
    """A pool of ``jobs`` threads: for work that runs without the GIL (the compiled core
    on blocks of small puzzles), where a process pool would spend its time carrying
    text between processes."""
    # imported here: concurrent.futures brings logging, a tenth of a one-puzzle command's
    # start-up, and a single puzzle is worked without a pool
    from concurrent.futures import ThreadPoolExecutor

    # A thread back from the core waits for the GIL until its holder lets go, by default
    # up to 5 ms: as long as the core takes for a block of easy puzzles.
    sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
    return ThreadPoolExecutor(jobs, thread_name_prefix="numberplace")


def _start_worker() -> None:
    """A worker process's start: see :func:`_ignore_interrupts`; and standard error is
    the process's own again. A worker forked while the progress display shows inherits
    the display's stand-in for it, which would draw a copy of the display (or wait on
    the lock of a display thread the worker does not have)."""
    _ignore_interrupts()
    sys.stderr = sys.__stderr__


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which writes what is finished and ends
    them; otherwise each would break off its puzzle and start the next."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # forked with Ctrl-C deferred: now ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Ctrl-C waits for the block's end (it is then raised as usual). A worker the pool
    forks inside starts with it blocked, so one pressed while the worker starts up cannot
    break it before :func:`_ignore_interrupts` runs (a broken worker can hang the pool)."""
    if not hasattr(signal, "pthread_sigmask") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _end_workers(pool: Executor) -> None:
    """Terminate a process pool's workers (the executor has no public call for this before
    Python 3.14); any other executor is left to finish what it runs."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
    else:
        # Before Python 3.14 the executor offers no way to end its workers but its own
        # table of them (CPython issue 128041 added terminate_workers for this)
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
    # A worker ended while it sent a result leaves half a message in the pipe, and the
    # executor's thread would wait for the rest for ever (and shutting down with it): this
    # process holds the pipe's last writing end, and closing it turns that wait into an
    # end of file, which the executor takes as a broken pool.
    results = getattr(pool, "_result_queue", None)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def run(sink: Callable[[str], object], settings: Settings, pieces: Iterable[P],
        work: Callable[[P], list[R]], emit: Callable[[R], Outcome],
        meter: Meter) -> Counter[str]:
    """Work through ``pieces`` (see the module docs); returns how many records ended with
    each status. ``sink`` takes each text of standard output. On Ctrl-C the results
    already made that come next in input order are written, then KeyboardInterrupt goes
    on up."""
    statuses: Counter[str] = Counter()
    start = time.perf_counter()
    shown = settings.progress and not meter.typed
    total = meter.total
    if shown and total is None and meter.path is not None:
        total = count_records(meter.path, *settings.reading, after=meter.after)
    # bytes of the input read when each piece was cut, so that the display can tell the
    # bytes behind the results taken from the bytes read ahead of them
    marks: deque[int] = deque()
    if shown and meter.position is not None:
        pieces = _marked(pieces, meter.position, marks)
    results = ordered_map(work, pieces, settings.jobs, settings.executor)
    guard = _HeldInterrupts()
    bar = Bar(settings.command, shown)
    behind = 0
    bar.show(0, total, behind, meter.size)  # before it shows: its first frame says this
    with bar, guard:
        write = bar.writer(sink)
        current: deque[R] = deque()

        def take(made: list[R]) -> None:
            nonlocal behind
            current.extend(made)
            if marks:
                behind = marks.popleft()

        def drain() -> None:
            while current:
                outcome = emit(current[0])  # interrupted, the result stays for a retry
                with guard.held():  # written and counted once, whatever Ctrl-C does
                    current.popleft()
                    if outcome.counts is None:
                        statuses[outcome.status] += 1
                    else:
                        statuses.update({k: n for k, n in outcome.counts.items() if n})
                    if outcome.error:
                        bar.error(f"numberplace: {outcome.error}")
                    if outcome.counts is not None:
                        write(outcome.text)  # many records, each with its line end
                    elif outcome.text:
                        write(outcome.text + "\n")
            bar.show(sum(statuses.values()), total, behind, meter.size)

        try:
            while results.wait(guard.held):
                with guard.held():
                    take(results.take())
                drain()
            done = sum(statuses.values())
            bar.show(done, done)  # all done: the count is the total, whatever was foreseen
        except KeyboardInterrupt:
            drain()  # the rest of the piece being written, then the pieces made after it
            for made in results.finished():
                take(made)
                drain()
            raise
        finally:
            results.close()
            if settings.summary:
                bar.error(summary(statuses, time.perf_counter() - start, settings.shown))
    return statuses


def _marked(pieces: Iterable[P], position: Callable[[], int], marks: deque[int]
            ) -> Iterator[P]:
    """``pieces``, noting in ``marks`` how far the input was read when each was cut."""
    for piece in pieces:
        marks.append(position())
        yield piece


class _HeldInterrupts:
    """While active (in the main thread), Ctrl-C raises KeyboardInterrupt as usual except
    inside :meth:`held` blocks, where it waits for the block's end: a result is then never
    half taken, written twice or lost."""

    def __init__(self) -> None:
        self._holding = False
        self._pending = False
        self._before: object = None

    def __enter__(self) -> _HeldInterrupts:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self._before = signal.signal(signal.SIGINT, self._on_interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)  # type: ignore[arg-type]  # a handler
            self._before = None

    def _on_interrupt(self, signum: int, frame: object) -> None:
        if self._holding:
            self._pending = True
            return
        raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        """A block that Ctrl-C does not break into."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._pending:
                self._pending = False
                raise KeyboardInterrupt


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
    """The progress display on standard error while the block runs, or nothing when
    disabled: the records done (out of their total, or with the bytes of the input behind
    them), a bar, the time since the start and the time left. While it shows, text goes
    above it (:meth:`writer`, :meth:`error`, and whatever else writes to standard error),
    never onto it."""

    def __init__(self, description: str, enabled: bool) -> None:
        self._progress: Progress | None = _display() if enabled else None
        self._start = time.monotonic()
        if self._progress is not None:
            self._task = self._progress.add_task(description, total=None, count="",
                                                 finish=None)

    def __enter__(self) -> Bar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def show(self, done: int, total: int | None = None, read: int | None = None,
             size: int | None = None) -> None:
        """Show ``done`` records out of ``total``; with no total known, with the ``read``
        bytes of the input behind them, out of ``size`` (None: a stream)."""
        if self._progress is None:
            return
        scale: int | None
        if total is not None:
            scale, part = max(total, done), done
            count = f"{done:,}/{scale:,}"
        elif read is not None and size:
            scale, part = size, min(read, size)
            count = f"{_puzzles(done)}, {_bytes(part)}/{_bytes(size)}"
        else:
            scale, part = None, 0
            count = _puzzles(done) + (f", {_bytes(read)} read" if read else "")
        now = time.monotonic()
        # the end foreseen at the pace so far: the time left then counts down between
        # results, where a pace measured anew at each redraw would make it climb
        finish = now + (now - self._start) * (scale - part) / part if scale and part else None
        # (rich keeps the total it has when given none: a stream's stays unknown)
        self._progress.update(self._task, total=scale, completed=part, count=count,
                              finish=finish)

    def writer(self, sink: Callable[[str], object]) -> Callable[[str], object]:
        """``sink``, or, while the bar shows and standard output is the same terminal,
        a writer that prints above the bar."""
        if self._progress is None or not sys.stdout.isatty():
            return sink
        return self._above

    def _above(self, text: str) -> None:
        if self._progress is None:  # the bar has gone: straight to standard output
            sys.stdout.write(text)
            return
        self._progress.console.print(text, end="", markup=False, highlight=False,
                                     emoji=False, soft_wrap=True)

    def error(self, text: str) -> None:
        """A line on standard error, above the bar while it shows."""
        if self._progress is None:
            print(text, file=sys.stderr)
        else:
            # the bar is drawn again under the line as it was last drawn, which may be
            # a tenth of a second behind
            self._progress.refresh()
            self._progress.console.print(text, markup=False, highlight=False, emoji=False,
                                         soft_wrap=True)


def _display() -> Progress:
    """The display's columns: what is done, the bar, the share done, the clock and the
    time left."""
    # imported here: rich takes a tenth of a second to import, which a run without the
    # display need not pay
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
    )
    from rich.text import Text

    class Clock(ProgressColumn):
        """The time since the start, at every redraw: rich's own stops once the count
        first reaches the total, and a total reached early (the bytes of a file read
        whole long before its work was done) stopped it with the work going on."""

        def render(self, task: RichTask) -> Text:
            return Text(_clock(task.elapsed or 0.0), style="progress.elapsed")

    class Left(ProgressColumn):
        """The time left, counting down to the end foreseen at the last result; none
        for a stream, whose total is unknown."""

        def render(self, task: RichTask) -> Text:
            if task.total is None:
                return Text("")
            finish = task.fields.get("finish")
            left = "-:--:--" if finish is None else _clock(finish - time.monotonic())
            return Text(f"eta {left}", style="progress.remaining")

    return Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                    TextColumn("{task.fields[count]}"), Clock(), Left(),
                    console=Console(stderr=True), transient=True, redirect_stdout=False,
                    # a line another part writes to standard error goes above the display
                    redirect_stderr=True)


def _clock(seconds: float) -> str:
    """``h:mm:ss``."""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"


def _puzzles(count: int) -> str:
    return f"{count:,} puzzle" + ("" if count == 1 else "s")


def _bytes(count: int) -> str:
    """``512 B``, ``12.3 kB``, ``4.1 MB``, ``2.0 GB``."""
    if count < 1000:
        return f"{count} B"
    size, unit = count / 1000, "kB"
    for larger in ("MB", "GB", "TB"):
        if size < 1000:
            break
        size, unit = size / 1000, larger
    return f"{size:.1f} {unit}"
