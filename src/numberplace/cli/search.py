"""``solve``, ``count`` and ``check``: the exact engine over files of puzzles.

The input is cut into chunks and each chunk is solved in a worker, which also renders
its results, so that little goes back and forth. A file of one-line puzzles of a classic
size goes in blocks of text to the compiled core, which reads, solves and writes the
whole block in one call (:func:`numberplace.engine.solve_lines`); Python writes only the
lines it leaves, such as unreadable ones.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from .. import engine, formats
from .._frozen import Frozen
from ..errors import FormatError
from ..formats.table import ONE_LINE_FORMATS, PLAIN_LINE_FORMATS
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, classic
from ..store.serialize import error_record, plain_format, puzzle_line, result_record
from . import options
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run, thread_pool

if TYPE_CHECKING:
    from ..formats.inputs import Input

# The format readers and json are imported where they are used: a file of one-line
# puzzles needs neither, and the command starts sooner without them (the package
# numberplace.formats loads its readers on first use of a function, not when imported).

#: Statuses the summary always names, in this order.
_SHOWN = ("unique", "multiple", "none", "invalid")
#: Statuses for which check exits 1.
_FAILING = ("invalid", "none", "multiple", "limit")


class Options(Frozen):
    """What to do with each puzzle and how to print it."""

    command: str = "solve"  # solve | count | check
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
    # imported here: the format readers, which a file of one puzzle a line does without
    from ..formats._common import counted

    return (f"# line {line}: {r.status}, {counted(r.count, 'solution')}, "
            f"{counted(r.nodes, 'node')}, {counted(r.guesses, 'guess', 'guesses')}, "
            f"{r.seconds * 1000:.3f} ms")


def render_result(line: int, text: str, r: engine.Result, opts: Options,
                  render: Callable[[tuple[int, ...]], str], fmt: str,
                  puzzle: Puzzle | None) -> Outcome:
    """Format one search result for the chosen command and output mode."""
    status = str(r.status)
    if opts.as_json:
        import json  # imported here: for --json alone (start-up)

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
            sep = "\n" if fmt in ONE_LINE_FORMATS else "\n\n"
            body = sep.join(render(s) for s in (r.solutions if opts.show_all
                                                 else r.solutions[:1]))
            if fmt not in ONE_LINE_FORMATS:
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
        import json  # imported here: for --json alone (start-up)

        text = json.dumps(error_record(line, err))
    elif opts.command == "check":
        text = f"line {line}: unreadable: {err.reason}"
    else:
        text = f"# line {line}: invalid: {err.reason}"
    return Outcome(line, UNREADABLE, text, str(err))


# -- chunks of work -------------------------------------------------------------------------


class Chunk:
    """A piece of the input: a block of text of one-line puzzles of ``shape`` whose first
    line is ``first_line`` (solved text to text by the compiled core), or parsed records."""

    __slots__ = ("text", "first_line", "shape", "records")

    def __init__(self, text: str | None = None, first_line: int = 0, shape: Shape | None = None,
                 records: list[formats.Record] | None = None) -> None:
        self.text = text
        self.first_line = first_line
        self.shape = shape
        self.records = records


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
        out.append(_searched(rec.line, rec.text, rec.format, rec.puzzle,
                             _solve_puzzle(rec.puzzle, opts), opts))
    return out


def _searched(line: int, text: str, fmt: str, p: Puzzle, r: engine.Result,
              opts: Options) -> Outcome:
    """The outcome of a puzzle read from ``text`` in format ``fmt``, searched."""
    # JSON output carries the puzzle and its solutions as plain lines, whatever the input
    out_format = plain_format(p) if opts.as_json else fmt

    def render(values: tuple[int, ...]) -> str:
        return formats.write(p, out_format, values=values)

    return render_result(line, puzzle_line(p) if opts.as_json else text, r, opts, render,
                         fmt, p)


def _work_text(chunk: Chunk, opts: Options) -> list[Outcome]:
    """A block of one-line puzzles: the compiled core reads, solves and writes them; the
    lines it leaves (unusual outcomes, lines that are not plain puzzles) are written
    here, in their places."""
    text, shape = chunk.text or "", chunk.shape or classic(9)
    block = None
    if text.isascii():  # the core reads the text where it is
        block = engine.solve_lines(
            shape, text, chunk.first_line, command=opts.command, as_json=opts.as_json,
            write=not opts.stats, limit=opts.limit, node_limit=opts.node_limit,
            time_limit=opts.time_limit, backend=opts.backend)
    if block is None:  # no compiled core, or characters it does not read: line by line
        numbered = ((chunk.first_line + i, raw.strip()) for i, raw in enumerate(text.split("\n")))
        return _work_records([read_one(n, t, opts.source, shape) for n, t in numbered
                              if t and not t.startswith("#")], opts)
    written = block.output
    out = []
    at = 0
    for hole in block.holes:
        if hole.offset > at:
            out.append(Outcome(hole.line, "", written[at:hole.offset], counts={}))
        at = hole.offset
        if hole.puzzle is None or hole.result is None:
            out.extend(_work_records([read_one(hole.line, hole.text, opts.source, shape)], opts))
        else:
            out.append(_searched(hole.line, hole.text, "line", hole.puzzle, hole.result, opts))
    # the whole output when there is no hole: no copy of it is made
    out.append(Outcome(0, "", written[at:], counts=block.counts))
    return out


#: Lengths of one-line puzzles of the classic sizes, which name their own shape.
_LINE_SIZES = {n * n: n for n in (4, 6, 8, 9, 12, 16, 25)}


def read_one(line: int, text: str, source: str, shape: Shape) -> formats.Record:
    """Line ``line`` of a file of one-line puzzles of ``shape``, read as a record."""
    # in a file of one-line puzzles of a shape, a line of another length is a broken
    # puzzle of that shape
    try:
        puzzle = formats.parse(text, format="line",
                               shape=None if len(text) in _LINE_SIZES else shape,
                               source=source)
    except FormatError as err:
        return formats.Record(line, text, "line", None, err.located(line=line))
    return formats.Record(line, text, "line", puzzle, None)


def work(chunk: Chunk, opts: Options) -> list[Outcome]:
    """Process one chunk (runs in a worker process)."""
    if chunk.text is not None:
        return _work_text(chunk, opts)
    return _work_records(chunk.records or [], opts)


# -- reading --------------------------------------------------------------------------------


def _line_shape(first: str, shape: Shape | None, fmt: str | None,
                alphabet: Alphabet | None) -> Shape | None:
    """The classic shape of a file of one-line puzzles that starts with ``first``, when
    its lines can go to the compiled core as text; else None."""
    size = _LINE_SIZES.get(len(first))
    # a row of a Kakuro grid may be 81 characters long too, but has spaces and clues
    if size is None or fmt not in (None, "line") or any(c.isspace() or c == "\\"
                                                          for c in first):
        return None
    line_shape = classic(size)
    if shape not in (None, line_shape) or alphabet not in (None, Alphabet.default(size)):
        return None
    # 16x16 with a 0 may be hexadoku: the format readers tell
    return None if size == 16 and "0" in first else line_shape


def _head(lines: Iterator[str]) -> tuple[list[tuple[int, str]], bool]:
    """The numbered lines the format is told by: up to the end of the first block that
    holds more than comments, at most the detector's limit; and whether they are all
    (the input ended: a terminal must not be read past its end)."""
    # imported here: the format readers, which a file of one puzzle a line does without
    from ..formats.detection import HEAD_LIMIT

    head: list[tuple[int, str]] = []
    content = False
    for number, raw in enumerate(lines, start=1):
        head.append((number, raw))
        stripped = raw.strip()
        if not stripped and content or len(head) >= HEAD_LIMIT:
            return head, False
        content = content or bool(stripped) and not stripped.startswith("#")
    return head, True


def _one_puzzle_a_line(head: list[str], shape: Shape | None, fmt: str | None) -> bool:
    """Whether the file is one puzzle a line, as the format detector tells it from the
    whole first block (a grid's border or a 16x16's first row has a line's length too)."""
    # imported here: the detector loads the format readers, which a file of one puzzle
    # a line does without
    from ..formats.detection import detect_lines

    if fmt is not None:
        return fmt == "line"
    try:
        return detect_lines(head, shape) in PLAIN_LINE_FORMATS
    except FormatError:
        return False  # the records say what is wrong


def chunks(source: Input, *, shape: Shape | None, alphabet: Alphabet | None,
           fmt: str | None, size: int = 2000) -> Iterator[Chunk]:
    """Split the input into chunks of work: blocks of text for files of one-line puzzles
    of a classic shape (see :func:`_line_shape`), parsed records for anything else."""
    it = source.lines()
    head, ended = _head(it)
    first_text = next((raw.strip() for _, raw in head
                       if raw.strip() and not raw.strip().startswith("#")), None)
    line_shape = None
    if first_text is not None and _one_puzzle_a_line([raw for _, raw in head], shape, fmt):
        line_shape = _line_shape(first_text, shape, fmt, alphabet)
    if line_shape is not None:
        it.close()  # the blocks go on from where the lines stopped
        first_line = head[0][0]
        pending = "".join(raw + "\n" for _, raw in head)
        # about `size` 9x9 puzzles a block, fewer big ones (a 25x25 may take seconds)
        per_block = size if line_shape.ncells <= 81 else 8
        for block in () if ended else source.blocks(per_block * (line_shape.ncells + 1)):
            yield Chunk(text=pending + block, first_line=first_line, shape=line_shape)
            first_line = source.line + 1
            pending = ""
        if pending:
            yield Chunk(text=pending, first_line=first_line, shape=line_shape)
        return
    rest = (raw for _, raw in head)

    def all_lines() -> Iterator[str]:
        yield from rest
        yield from it

    batch: list[formats.Record] = []
    for rec in formats.read_records(all_lines(), shape=shape, alphabet=alphabet, format=fmt,
                                    source=source.name):
        batch.append(rec)
        if len(batch) >= size // 10 or rec.puzzle is not None and rec.puzzle.shape.ncells > 81:
            yield Chunk(records=batch)
            batch = []
    if batch:
        yield Chunk(records=batch)


class PlainLine(NamedTuple):
    """A line of a block of text that holds something: its number, its text stripped,
    and whether its cell values are in the block's blob (see :func:`plain_values`)."""

    line: int
    text: str
    plain: bool


def plain_values(chunk: Chunk, *, after: int = 0, take: bool = True
                 ) -> tuple[list[PlainLine], bytes]:
    """The lines of a block of one-line puzzles that hold something (not blank, not a
    ``#`` comment, numbered above ``after``), and the cell values of those that are plain
    puzzles of the block's shape in its default alphabet, one after another (none with
    ``take`` false): for a compiled-core call over the whole block. The other lines are
    for the format readers (:func:`read_one`)."""
    shape = chunk.shape
    assert shape is not None and chunk.text is not None
    table = engine._line_tables(shape.size)[0]
    size = shape.ncells
    lines: list[PlainLine] = []
    blob = bytearray()
    for i, raw in enumerate(chunk.text.split("\n")):
        line, text = chunk.first_line + i, raw.strip()
        if line <= after or not text or text[0] == "#":
            continue
        values = text.encode("ascii", "replace").translate(table) \
            if take and len(text) == size else b"\xff"
        plain = 255 not in values
        if plain:
            blob += values
        lines.append(PlainLine(line, text, plain))
    return lines, bytes(blob)


def line_chunks(source: Input, args: argparse.Namespace, shape: Shape | None,
                alphabet: Alphabet | None, settings: Settings
                ) -> tuple[Iterator[Chunk], Settings]:
    """The input's chunks (see :func:`chunks`), and the settings to work them in: blocks
    of one-line puzzles of at most 81 cells go to threads when the compiled core runs,
    which works a block in moments without the GIL (threads share the work without
    carrying the text between processes)."""
    pieces = chunks(source, shape=shape, alphabet=alphabet, fmt=args.in_format)
    first = next(pieces, None)
    backend = getattr(args, "backend", None)
    if first is not None and first.shape is not None and first.shape.ncells <= 81 \
            and settings.executor is None and engine.backend_name(backend) == "c":
        settings = settings.replace(executor=functools.partial(thread_pool, settings.jobs))
    return chain([first] if first is not None else [], pieces), settings


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
            settings = settings.replace(jobs=1, progress=False)
        else:
            pieces, settings = line_chunks(source, args, chosen, alphabet, settings)
            task = functools.partial(work, opts=opts)
        statuses = run(out.write, settings.replace(shown=_SHOWN), pieces, task, _same,
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
    import json  # imported here: for --json alone (start-up)

    fmt = plain_format(p) if opts.as_json else rec.format
    sep = "\n" if fmt in ONE_LINE_FORMATS else "\n\n"
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
    r = r.replace(solutions=tuple(first))
    if opts.as_json:
        fields = result_record(rec.line, puzzle_line(p), r,
                               lambda v: formats.write(p, fmt, values=v))
        del fields["line"]
        return Outcome(rec.line, str(r.status), "], " + json.dumps(fields)[1:])
    if not first:  # nothing written: the comment says why
        return render_result(rec.line, rec.text, r, opts, str, rec.format, p)
    write("\n" if fmt in ONE_LINE_FORMATS else "\n\n")
    return Outcome(rec.line, str(r.status), _stats_comment(rec.line, r) if opts.stats else "")
