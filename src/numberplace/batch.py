"""Streaming work over files of puzzles: solve, count and check, on all cores.

Input is read lazily and handed out in chunks; at most a few chunks per process are in
flight, so a file of millions of puzzles runs in constant memory. Results come back in
input order. Chunks of plain 81-character lines take a fast path: they are turned into
cell values with one table look-up per line and solved in one call of the engine.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import TypeVar

from . import engine, formats
from .alphabet import Alphabet
from .errors import FormatError, NumberplaceError
from .puzzle import Puzzle
from .shape import Shape, by_name, classic

A = TypeVar("A")
B = TypeVar("B")

#: Formats whose records are single lines: their solutions are printed one per line.
SINGLE_LINE_FORMATS = frozenset({"line", "sdo", "sukaku", "json"})
#: Byte table from cell values back to the digits of a 9x9 line.
_DIGITS9 = bytes(48 + v if v <= 9 else 63 for v in range(256))


@dataclass(frozen=True)
class Options:
    """What to do with each puzzle and how to print it."""

    command: str = "solve"          # solve | count | check
    limit: int = 2
    show_all: bool = False
    as_json: bool = False
    stats: bool = False
    node_limit: int = 0
    time_limit: float | None = None
    backend: str | None = None
    source: str = "<stdin>"


@dataclass
class Outcome:
    """One input record's result, already rendered for output."""

    line: int
    status: str                     # a Status value, or "error" for unreadable input
    text: str                       # what goes to standard output ("" for nothing)
    error: str = ""                 # what goes to standard error


@dataclass
class Tally:
    """Counts for the closing summary."""

    statuses: Counter[str] = field(default_factory=Counter)

    @property
    def puzzles(self) -> int:
        """Records read, readable or not."""
        return sum(self.statuses.values())


# -- per-record rendering -------------------------------------------------------------------


def _stats_comment(line: int, r: engine.Result) -> str:
    return (f"# line {line}: {r.status}, {r.count} solution{'s' if r.count != 1 else ''}, "
            f"{r.nodes} nodes, {r.guesses} guesses, {r.seconds * 1000:.3f} ms")


def _json(line: int, text: str, r: engine.Result, opts: Options,
          render: Callable[[tuple[int, ...]], str]) -> str:
    obj: dict[str, object] = {
        "line": line, "puzzle": text, "status": str(r.status),
        "solution": render(r.solution) if r.solution else None,
        "count": r.count, "nodes": r.nodes, "guesses": r.guesses,
        "seconds": round(r.seconds, 6),
    }
    if opts.show_all:
        obj["solutions"] = [render(s) for s in r.solutions]
    if r.message:
        obj["message"] = r.message
    return json.dumps(obj)


def render_result(line: int, text: str, r: engine.Result, opts: Options,
                  render: Callable[[tuple[int, ...]], str], fmt: str,
                  puzzle: Puzzle | None) -> Outcome:
    """Format one search result for the chosen command and output mode."""
    status = str(r.status)
    if opts.as_json:
        return Outcome(line, status, _json(line, text, r, opts, render))
    if opts.command == "count":
        more = "+" if r.count >= opts.limit and r.status is engine.Status.MULTIPLE else ""
        body = f"{r.count}{more} {status}" + (f": {r.message}" if r.message else "")
    elif opts.command == "check":
        body = f"line {line}: " + _check_text(r, puzzle, opts)
    else:
        if r.status in (engine.Status.UNIQUE, engine.Status.SOLVED) or (
                opts.show_all and r.solutions):
            sep = "\n" if fmt in SINGLE_LINE_FORMATS else "\n\n"
            body = sep.join(render(s) for s in (r.solutions if opts.show_all
                                                 else r.solutions[:1]))
        else:
            reason = r.message or {
                "none": "no solution", "multiple": f"at least {r.count} solutions",
                "limit": "the search budget ran out"}.get(status, status)
            body = f"# line {line}: {status}: {reason}"
    if opts.stats and not opts.command == "check":
        body += "\n" + _stats_comment(line, r)
    return Outcome(line, status, body)


def _check_text(r: engine.Result, puzzle: Puzzle | None, opts: Options) -> str:
    status = r.status
    if status is engine.Status.INVALID:
        return f"invalid: {r.message}"
    if puzzle is not None and puzzle.is_full:
        return "solved: the grid is complete and keeps every rule"
    givens = puzzle.clue_count if puzzle is not None else 0
    where = f"{givens} givens"
    if status is engine.Status.UNIQUE:
        return f"ok: {where}, one solution"
    if status is engine.Status.MULTIPLE:
        return f"not unique: {where}, at least {r.count} solutions"
    if status is engine.Status.NONE:
        return f"no solution: {where}"
    return f"undecided: {where}, the search budget ran out"


def error_outcome(line: int, err: FormatError, opts: Options) -> Outcome:
    """An unreadable record: reported on standard error, marked in the output."""
    message = str(err)
    if opts.as_json:
        text = json.dumps({"line": line, "status": "invalid", "error": err.reason,
                           "message": message})
    elif opts.command == "check":
        text = f"line {line}: unreadable: {err.reason}"
    else:
        text = f"# line {line}: invalid: {err.reason}"
    return Outcome(line, "error", text, message)


# -- chunks of work -------------------------------------------------------------------------


@dataclass
class Chunk:
    """A piece of the input: either raw 9x9 lines (fast path) or parsed records."""

    lines: list[tuple[int, str]] | None = None
    records: list[formats.Record] | None = None


def _solve_puzzle(p: Puzzle, opts: Options) -> engine.Result:
    keep = opts.limit if opts.show_all else 1
    return engine.solve(p, limit=opts.limit, keep=keep, node_limit=opts.node_limit,
                        time_limit=opts.time_limit, backend=opts.backend)


def _work_records(records: list[formats.Record], opts: Options) -> list[Outcome]:
    out = []
    for rec in records:
        if rec.error is not None or rec.puzzle is None:
            err = rec.error or FormatError("unreadable record", source=opts.source,
                                           line=rec.line)
            out.append(error_outcome(rec.line, err, opts))
            continue
        p = rec.puzzle
        r = _solve_puzzle(p, opts)
        text = formats.write(p, "line") if opts.as_json else rec.text

        # JSON output carries solutions as plain lines, whatever the input format
        fmt = "line" if opts.as_json else rec.format

        def render(values: tuple[int, ...], p: Puzzle = p, fmt: str = fmt) -> str:
            return formats.write(p, fmt, values=values)

        out.append(render_result(rec.line, text, r, opts, render, rec.format, p))
    return out


def _work_lines9(lines: list[tuple[int, str]], opts: Options) -> list[Outcome]:
    """Fast path: 81-character lines of a classic 9x9 file."""
    shape = classic(9)
    good: list[int] = []
    blobs: list[bytes] = []
    out: list[Outcome | None] = [None] * len(lines)
    for k, (line, text) in enumerate(lines):
        values = formats.values9(text)
        if values is not None:
            good.append(k)
            blobs.append(values)
        else:  # the slow reader gives the precise error (or reads another shape's line)
            out[k] = _work_records([_read_one(line, text, opts)], opts)[0]
    if opts.show_all or opts.command == "check":
        # every solution, or the puzzle itself, is needed: take the general route
        for k in good:
            line, text = lines[k]
            out[k] = _work_records([_read_one(line, text, opts)], opts)[0]
        return out  # type: ignore[return-value]
    results = engine.solve_values(shape, b"".join(blobs), limit=opts.limit,
                                  node_limit=opts.node_limit, time_limit=opts.time_limit,
                                  backend=opts.backend)
    for k, r in zip(good, results, strict=True):
        line, text = lines[k]
        out[k] = render_result(line, text, r, opts, _render9, "line", None)
    return out  # type: ignore[return-value]


def _render9(values: tuple[int, ...]) -> str:
    return bytes(values).translate(_DIGITS9).decode("ascii")


#: Lengths of one-line puzzles of the classic sizes, which name their own shape.
_LINE_LENGTHS = frozenset(n * n for n in (4, 6, 8, 9, 12, 16, 25))


def _read_one(line: int, text: str, opts: Options) -> formats.Record:
    # in a file of 9x9 lines, a line of another length is a broken 9x9 puzzle
    shape = None if len(text) in _LINE_LENGTHS else classic(9)
    try:
        puzzle = formats.parse(text, format="line", shape=shape, source=opts.source)
    except FormatError as err:
        return formats.Record(line, text, "line", None, err.located(line=line))
    return formats.Record(line, text, "line", puzzle, None)


def work(chunk: Chunk, opts: Options) -> list[Outcome]:
    """Process one chunk (runs in a worker process)."""
    if chunk.lines is not None:
        return _work_lines9(chunk.lines, opts)
    return _work_records(chunk.records or [], opts)


# -- reading --------------------------------------------------------------------------------


def _fast_path_possible(first: str, shape: Shape | None, fmt: str | None,
                        alphabet: Alphabet | None) -> bool:
    if fmt not in (None, "line") or alphabet not in (None, Alphabet.default(9)):
        return False
    if shape is not None and shape != classic(9):
        return False
    return len(first) == 81


def chunks(lines: Iterable[str], *, shape: Shape | None, alphabet: Alphabet | None,
           fmt: str | None, source: str, size: int = 2000) -> Iterator[Chunk]:
    """Split the input into chunks of work, choosing the fast path when it applies."""
    it = iter(lines)
    head: list[tuple[int, str]] = []
    first_text = None
    for number, raw in enumerate(it, start=1):
        head.append((number, raw))
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            first_text = stripped
            break
    if first_text is not None and _fast_path_possible(first_text, shape, fmt, alphabet):
        yield from _line_chunks(head, it, size)
        return
    rest = (raw for _, raw in head)

    def all_lines() -> Iterator[str]:
        yield from rest
        yield from it

    batch: list[formats.Record] = []
    for rec in formats.read_records(all_lines(), shape=shape, alphabet=alphabet, format=fmt,
                                    source=source):
        batch.append(rec)
        if len(batch) >= size // 10 or rec.puzzle is not None and rec.puzzle.shape.ncells > 81:
            yield Chunk(records=batch)
            batch = []
    if batch:
        yield Chunk(records=batch)


def _line_chunks(head: list[tuple[int, str]], it: Iterator[str], size: int) -> Iterator[Chunk]:
    batch: list[tuple[int, str]] = []
    number = head[-1][0] if head else 0

    def take(n: int, raw: str) -> None:
        text = raw.strip()
        if text and not text.startswith("#"):
            batch.append((n, text))

    for n, raw in head:
        take(n, raw)
    for raw in it:
        number += 1
        take(number, raw)
        if len(batch) >= size:
            yield Chunk(lines=batch)
            batch = []
    if batch:
        yield Chunk(lines=batch)


def run(chunk_iter: Iterable[Chunk], opts: Options, jobs: int) -> Iterator[list[Outcome]]:
    """Process chunks on ``jobs`` processes, yielding results in input order."""
    return ordered_map(functools.partial(work, opts=opts), chunk_iter, jobs)


def ordered_map(fn: Callable[[A], B], items: Iterable[A], jobs: int) -> Iterator[B]:
    """``fn`` over ``items`` on ``jobs`` processes, yielding results in input order.

    At most ``2 * jobs`` items are in flight, which bounds memory on endless input. One
    job, or a single item, runs in this process. ``fn`` and the items must pickle.
    """
    it = iter(items)
    head = list(islice(it, 2))
    if jobs <= 1 or len(head) < 2:  # a single item is not worth starting processes for
        for item in chain(head, it):
            yield fn(item)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[B]] = deque()
        for item in chain(head, it):
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def resolve_shape(name: str | None) -> Shape | None:
    """``--shape`` argument to a shape; ``jigsaw`` means "read the regions from the input"."""
    if name is None or name.strip().lower() == "jigsaw":
        return None
    return by_name(name)


def open_lines(path: str) -> tuple[Iterator[str], int | None]:
    """Lines of a file or of standard input (``-``), and the file's size if known."""
    if path == "-":
        stream = sys.stdin
        return iter(stream), None
    try:
        size = os.path.getsize(path)
        handle = open(path, encoding="utf-8", errors="replace", newline=None)  # noqa: SIM115
    except OSError as exc:
        raise NumberplaceError(f"cannot read {path}: {exc.strerror or exc}") from None
    return _closing_lines(handle), size


def _closing_lines(handle: Iterable[str]) -> Iterator[str]:
    try:
        yield from handle
    finally:
        handle.close()  # type: ignore[attr-defined]
