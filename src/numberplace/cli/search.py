"""``solve``, ``count`` and ``check``: the exact engine over files of puzzles.

The input is cut into chunks and each chunk is solved in a worker, which also renders
its results, so that little goes back and forth. Chunks of plain 81-character lines take
a fast path: they are turned into cell values with one table look-up per line and solved
in one call of the engine.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TextIO

from .. import engine, formats
from ..alphabet import Alphabet
from ..errors import FormatError
from ..formats._common import counted
from ..puzzle import Puzzle
from ..serialize import error_record, plain_format, puzzle_line, result_record
from ..shape import Shape, classic
from . import options
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run

#: Formats whose records are single lines: their solutions are printed one per line.
SINGLE_LINE_FORMATS = frozenset({"line", "sdo", "sukaku", "json"})
#: Byte table from cell values back to the digits of a 9x9 line.
_DIGITS9 = bytes(48 + v if v <= 9 else 63 for v in range(256))
#: Statuses the summary always names, in this order.
_SHOWN = ("unique", "multiple", "none", "invalid")
#: Statuses for which check exits 1.
_FAILING = ("invalid", "none", "multiple", "limit")


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


# -- per-record rendering -------------------------------------------------------------------


def _stats_comment(line: int, r: engine.Result) -> str:
    return (f"# line {line}: {r.status}, {counted(r.count, 'solution')}, "
            f"{counted(r.nodes, 'node')}, {counted(r.guesses, 'guess', 'guesses')}, "
            f"{r.seconds * 1000:.3f} ms")


def render_result(line: int, text: str, r: engine.Result, opts: Options,
                  render: Callable[[tuple[int, ...]], str], fmt: str,
                  puzzle: Puzzle | None) -> Outcome:
    """Format one search result for the chosen command and output mode."""
    status = str(r.status)
    if opts.as_json:
        return Outcome(line, status, json.dumps(result_record(line, text, r, render,
                                                              opts.show_all)))
    if opts.command == "count":
        reached = r.count >= opts.limit and r.status is engine.Status.MULTIPLE
        cut = r.status is engine.Status.LIMIT
        more = "+" if reached or (cut and r.count) else ""
        message = r.message or ("the search budget ran out" if cut else "")
        body = f"{r.count}{more} {status}" + (f": {message}" if message else "")
    elif opts.command == "check":
        body = f"line {line}: " + _check_text(r, puzzle, opts)
    else:
        if r.status in (engine.Status.UNIQUE, engine.Status.SOLVED) or (
                opts.show_all and r.solutions):
            sep = "\n" if fmt in SINGLE_LINE_FORMATS else "\n\n"
            body = sep.join(render(s) for s in (r.solutions if opts.show_all
                                                 else r.solutions[:1]))
            if fmt not in SINGLE_LINE_FORMATS:
                body += "\n"  # a blank line ends a grid, so the output reads back
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
    if puzzle is not None and puzzle.is_full and puzzle.fits(puzzle.givens):
        return "solved: the grid is complete and keeps every rule"
    givens = puzzle.clue_count if puzzle is not None else 0
    where = f"{givens} givens"
    if status is engine.Status.UNIQUE:
        return f"ok: {where}, one solution"
    if status is engine.Status.MULTIPLE:
        return f"not unique: {where}, at least {r.count} solutions"
    if status is engine.Status.NONE:
        return f"no solution: {where}"
    if status is engine.Status.SOLVED:
        return f"solvable: {where}, uniqueness not checked (--limit 1)"
    return f"undecided: {where}, the search budget ran out"


def error_outcome(line: int, err: FormatError, opts: Options) -> Outcome:
    """An unreadable record: reported on standard error, marked in the output."""
    if opts.as_json:
        text = json.dumps(error_record(line, err))
    elif opts.command == "check":
        text = f"line {line}: unreadable: {err.reason}"
    else:
        text = f"# line {line}: invalid: {err.reason}"
    return Outcome(line, UNREADABLE, text, str(err))


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


def _unread(rec: formats.Record, opts: Options) -> Outcome:
    """The outcome of a record that could not be read."""
    err = rec.error or FormatError("unreadable record", source=opts.source, line=rec.line)
    return error_outcome(rec.line, err, opts)


def _work_records(records: list[formats.Record], opts: Options) -> list[Outcome]:
    out = []
    for rec in records:
        if rec.puzzle is None:
            out.append(_unread(rec, opts))
            continue
        p = rec.puzzle
        r = _solve_puzzle(p, opts)
        text = puzzle_line(p) if opts.as_json else rec.text

        # JSON output carries solutions as plain lines, whatever the input format
        fmt = plain_format(p) if opts.as_json else rec.format

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
    # a row of a Kakuro grid may be 81 characters long too, but has spaces and clues
    return len(first) == 81 and not any(c.isspace() or c == "\\" for c in first)


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


def add_parsers(sub: options.Commands) -> None:
    """The ``solve``, ``count`` and ``check`` commands."""
    p = options.command(sub, "solve", search, "print the solution of each puzzle",
                        "Print the solution of each puzzle, in the input's order and format. "
                        "Puzzles without exactly one solution get a comment line '# line N: "
                        "STATUS: reason'.")
    options.add_input(p)
    options.add_search(p, 2)
    p.add_argument("--all", dest="show_all", action="store_true",
                   help="print every solution found (up to --limit)")

    p = options.command(sub, "count", search, "count solutions up to --limit",
                        "Count each puzzle's solutions up to --limit; prints 'COUNT STATUS' per "
                        "puzzle ('2+' when the limit was hit).")
    options.add_input(p)
    options.add_search(p, 2)

    p = options.command(sub, "check", search, "validate puzzles or filled grids",
                        "Check each puzzle: clashing givens, a complete grid that keeps every "
                        "rule, or how many solutions it has. Exit status 1 if any puzzle is "
                        "invalid, unsolvable or not unique.")
    options.add_input(p)
    options.add_search(p, 2)


def search(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Run solve, count or check over the input."""
    chosen, alphabet = options.reading(args)
    with options.open_puzzles(args) as source:
        opts = Options(command=args.command, limit=args.limit,
                       show_all=getattr(args, "show_all", False), as_json=args.json,
                       stats=args.stats, node_limit=args.node_limit,
                       time_limit=args.time_limit, backend=args.backend, source=source.name)
        if opts.show_all:
            # every solution is written as it is found, so the work stays in this process
            pieces: Iterable[object] = ([rec] for rec in options.records(source, args))
            task: Callable[[Any], list[Outcome]] = functools.partial(
                _stream_all, opts=opts, write=out.write)
            settings = replace(settings, jobs=1, progress=False)
        else:
            pieces = chunks(source.lines(), shape=chosen, alphabet=alphabet,
                            fmt=args.in_format, source=source.name)
            task = functools.partial(work, opts=opts)
        statuses = run(out.write, replace(settings, shown=_SHOWN), pieces, task, _same,
                       Meter.of(source))
        options.require_some(sum(statuses.values()), source)
    if statuses[UNREADABLE]:
        return 2
    if args.command == "check" and any(statuses[s] for s in _FAILING):
        return 1
    return 0


def _same(outcome: Outcome) -> Outcome:
    return outcome


def _stream_all(records: list[formats.Record], opts: Options,
                write: Callable[[str], object]) -> list[Outcome]:
    """``solve --all``: each record's solutions written as the search finds them (memory
    stays flat however many are asked for); the outcomes returned carry only statuses."""
    return [_unread(rec, opts) if rec.puzzle is None else
            _stream_one(rec, rec.puzzle, opts, write) for rec in records]


def _stream_one(rec: formats.Record, p: Puzzle, opts: Options,
                write: Callable[[str], object]) -> Outcome:
    fmt = plain_format(p) if opts.as_json else rec.format
    sep = "\n" if fmt in SINGLE_LINE_FORMATS else "\n\n"
    if opts.as_json:  # the record's fields come after its solutions, known only then
        write(f'{{"line": {rec.line}, "solutions": [')
    first: list[tuple[int, ...]] = []

    def take(solutions: list[tuple[int, ...]]) -> None:
        for values in solutions:
            text = formats.write(p, fmt, values=values)
            if opts.as_json:
                write((", " if first else "") + json.dumps(text))
            else:
                write((sep if first else "") + text)
            first[:1] = first[:1] or [values]

    r = engine.solve(p, limit=opts.limit, keep=0, node_limit=opts.node_limit,
                     time_limit=opts.time_limit, backend=opts.backend, on_solutions=take)
    r = replace(r, solutions=tuple(first))
    if opts.as_json:
        fields = result_record(rec.line, puzzle_line(p), r,
                               lambda v: formats.write(p, fmt, values=v))
        del fields["line"]
        return Outcome(rec.line, str(r.status), "], " + json.dumps(fields)[1:])
    if not first:  # nothing written: the comment says why
        return render_result(rec.line, rec.text, r, opts, str, rec.format, p)
    write("\n" if fmt in SINGLE_LINE_FORMATS else "\n\n")
    return Outcome(rec.line, str(r.status), _stats_comment(rec.line, r) if opts.stats else "")
