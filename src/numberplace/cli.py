"""The ``numberplace`` command line.

Each sub-command maps to one feature and calls the library; no puzzle logic lives here.
Errors a user can cause print one line on standard error and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from typing import TextIO

from . import __version__, batch, formats
from .alphabet import Alphabet
from .errors import NumberplaceError
from .logic.step import Step
from .puzzle import Puzzle

EPILOG = """\
Input is a file of puzzles (or - for standard input) in any supported format, detected
automatically: one puzzle per line, grids over several lines separated by blank lines,
.sdo, .sdk, .ss, pencil marks, Sukaku, Samurai, jigsaw with its region map, or JSON.
Exit status: 0 when every record was read, 2 for usage or input errors; check exits 1
when a puzzle is invalid, unsolvable or not unique.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole_number(minimum: int, rule: str):  # type: ignore[no-untyped-def]
    """An argparse type for whole numbers of at least ``minimum``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text} {rule}")
        return value

    return convert


_positive = _whole_number(1, "must be at least 1")
_non_negative = _whole_number(0, "must not be negative")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0 seconds")
    return value


def _add_input(p: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    p.add_argument("file", nargs="?", default="-",
                   help="file of puzzles, - for standard input (default)")
    p.add_argument("--shape", metavar="NAME",
                   help="shape when the text alone cannot tell: 4x4, 6x6, 8x8, 9x9, 12x12, "
                        "16x16, 25x25, samurai, diagonal, diagonal-6x6, jigsaw")
    p.add_argument("--alphabet", metavar="A",
                   help="symbols: digits (1-9 then A...), hex (0-9 A-F), letters, "
                        "or the symbols themselves, e.g. WORDPLAYS")
    p.add_argument("--format", dest="in_format", choices=formats.FORMAT_NAMES,
                   help="input format (default: detected)")
    if jobs:
        p.add_argument("--jobs", type=_positive, default=None, metavar="N",
                       help="worker processes (default: all cores)")
        p.add_argument("--no-progress", action="store_true",
                       help="no progress bar, even on a terminal")
        p.add_argument("--summary", action="store_true",
                       help="print the closing summary even when not on a terminal")


def _add_search(p: argparse.ArgumentParser, default_limit: int) -> None:
    p.add_argument("--limit", type=_positive, default=default_limit, metavar="N",
                   help=f"solutions to look for (default {default_limit}; 2 tells unique)")
    p.add_argument("--node-limit", type=_non_negative, default=0, metavar="N",
                   help="stop a search after N nodes (status limit; default: no limit)")
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="S",
                   help="stop a search after S seconds (status limit)")
    p.add_argument("--backend", choices=("c", "python"), default=None,
                   help="search engine: compiled (c) or pure Python (default: fastest)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle per line")
    p.add_argument("--stats", action="store_true",
                   help="after each puzzle, a comment line with nodes, guesses and time")


def _add_logic(p: argparse.ArgumentParser) -> None:
    p.add_argument("--techniques", metavar="LIST",
                   help="only these techniques, comma-separated (e.g. 'Naked Single,"
                        "Hidden Single'), or 'book' for the book's five, in its order: "
                        "CRME, lone ranger, twins, triplets, brute force")
    p.add_argument("--notation", choices=("rc", "book"), default="rc",
                   help="cells as r5c6 (default) or as the book's (column,row)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``numberplace`` command."""
    parser = _Parser(prog="numberplace",
                     description="Sudoku-family puzzles: solve, count, check, convert, "
                                 "explain, hint, bench.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"numberplace {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("solve", help="print the solution of each puzzle",
                       description="Print the solution of each puzzle, in the input's order "
                                   "and format. Puzzles without exactly one solution get a "
                                   "comment line '# line N: STATUS: reason'.")
    _add_input(p)
    _add_search(p, 2)
    p.add_argument("--all", dest="show_all", action="store_true",
                   help="print every solution found (up to --limit)")

    p = sub.add_parser("count", help="count solutions up to --limit",
                       description="Count each puzzle's solutions up to --limit; prints "
                                   "'COUNT STATUS' per puzzle ('2+' when the limit was hit).")
    _add_input(p)
    _add_search(p, 2)

    p = sub.add_parser("check", help="validate puzzles or filled grids",
                       description="Check each puzzle: clashing givens, a complete grid that "
                                   "keeps every rule, or how many solutions it has. Exit "
                                   "status 1 if any puzzle is invalid, unsolvable or not "
                                   "unique.")
    _add_input(p)
    _add_search(p, 2)

    p = sub.add_parser("convert", help="rewrite puzzles in another format",
                       description="Read puzzles in any format and write them in another.")
    _add_input(p, jobs=False)
    p.add_argument("--to", required=True, choices=formats.FORMAT_NAMES, dest="to_format",
                   help="output format")

    p = sub.add_parser("explain", help="solve step by step, explaining every step",
                       description="Solve each puzzle the way a person does, simplest "
                                   "technique first, and print the numbered steps with a "
                                   "summary of the techniques used. A pencil-mark grid is "
                                   "explained from its own candidates.")
    _add_input(p, jobs=False)
    _add_logic(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle per line: puzzle, status, steps")
    p.add_argument("--svg", metavar="DIR",
                   help="also write one SVG picture per step into DIR "
                        "(line<L>-step<NNN>.svg)")
    p.add_argument("--guess", action="store_true",
                   help="when logic stalls, guess and backtrack (the book's brute force; "
                        "implied by --techniques book); every guess is a step")

    p = sub.add_parser("hint", help="the next step of each puzzle",
                       description="Find the next step of each puzzle (or of a pencil-mark "
                                   "grid) and tell it at the chosen level of detail.")
    _add_input(p, jobs=False)
    _add_logic(p)
    p.add_argument("--tier", type=int, choices=(1, 2, 3), default=3,
                   help="1: technique and house, 2: also the cells, 3: the whole step")
    p.add_argument("--placement", action="store_true",
                   help="the next value to write, one per call as a step-at-a-time "
                        "solver gives it (eliminations on the way are counted)")

    p = sub.add_parser("bench", help="solve benchmark files and print a table",
                       description="Solve each file's puzzles in one process, counting up to "
                                   "--limit solutions, and print puzzles/s, median and worst "
                                   "time per puzzle, and guesses per puzzle.")
    p.add_argument("files", nargs="+", help="files of puzzles")
    p.add_argument("--limit", type=_positive, default=2, metavar="N",
                   help="solutions to count per puzzle (default 2)")
    p.add_argument("--max", type=_positive, default=None, metavar="N",
                   help="solve at most N puzzles per file")
    p.add_argument("--repeat", type=_positive, default=1, metavar="N",
                   help="run each file N times and keep the fastest run")
    p.add_argument("--backend", choices=("c", "python"), default=None,
                   help="search engine (default: fastest)")
    p.add_argument("--shape", metavar="NAME", help="shape of the puzzles, if not 9x9 lines")
    return parser


def _alphabet(name: str | None, shape_size: int | None) -> Alphabet | None:
    if name is None:
        return None
    size = shape_size if shape_size is not None else (16 if name == "hex" else 9)
    return Alphabet.for_size(size if name in ("digits", "hex", "letters") else len(name), name)


def _progress(total: int | None, enabled: bool):  # type: ignore[no-untyped-def]
    if not enabled:
        return None
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
    return Progress(*columns, console=Console(stderr=True), transient=True)


def _counting(lines: Iterator[str], counter: list[int]) -> Iterator[str]:
    for line in lines:
        counter[0] += len(line)
        yield line


def _run_batch(args: argparse.Namespace, out: TextIO) -> int:
    shape = batch.resolve_shape(args.shape)
    alphabet = _alphabet(args.alphabet, shape.size if shape else None)
    source = "<stdin>" if args.file == "-" else args.file
    opts = batch.Options(command=args.command, limit=args.limit,
                         show_all=getattr(args, "show_all", False), as_json=args.json,
                         stats=args.stats, node_limit=args.node_limit,
                         time_limit=args.time_limit, backend=args.backend, source=source)
    lines, size = batch.open_lines(args.file)
    consumed = [0]
    lines = _counting(lines, consumed)
    chunk_iter = batch.chunks(lines, shape=shape, alphabet=alphabet, fmt=args.in_format,
                              source=source)
    jobs = args.jobs or batch.default_jobs()
    tally = batch.Tally()
    on_terminal = sys.stderr.isatty()
    progress = _progress(size, on_terminal and not args.no_progress)
    start = time.perf_counter()
    read_errors = 0
    task = None
    if progress is not None:
        progress.start()
        task = progress.add_task(args.command, total=size)
    try:
        for outcomes in batch.run(chunk_iter, opts, jobs):
            for o in outcomes:
                tally.statuses[o.status] += 1
                if o.error:
                    read_errors += 1
                    print(f"numberplace: {o.error}", file=sys.stderr)
                if o.text:
                    out.write(o.text + "\n")
            if progress is not None:
                progress.update(task, completed=consumed[0] if size else tally.puzzles)
    finally:
        if progress is not None:
            progress.stop()
    elapsed = time.perf_counter() - start
    if on_terminal or args.summary:
        print(_summary(tally, elapsed), file=sys.stderr)
    if read_errors:
        return 2
    if args.command == "check" and any(
            tally.statuses[s] for s in ("invalid", "none", "multiple", "limit")):
        return 1
    return 0


def _summary(tally: batch.Tally, elapsed: float) -> str:
    s = tally.statuses
    parts = [f"{s[k]} {k}" for k in ("unique", "solved", "multiple", "none", "invalid",
                                      "limit") if s[k] or k in ("unique", "multiple", "none",
                                                                 "invalid")]
    if s["error"]:
        parts.append(f"{s['error']} unreadable")
    rate = tally.puzzles / elapsed if elapsed > 0 else 0.0
    return (f"{tally.puzzles} puzzles: " + ", ".join(parts)
            + f"; {elapsed:.2f} s, {rate:,.0f} puzzles/s")


def _convert(args: argparse.Namespace, out: TextIO) -> int:
    shape = batch.resolve_shape(args.shape)
    alphabet = _alphabet(args.alphabet, shape.size if shape else None)
    source = "<stdin>" if args.file == "-" else args.file
    lines, _ = batch.open_lines(args.file)
    errors = 0
    # records of several lines need a blank line between them to be read back
    blank_between = args.to_format not in batch.SINGLE_LINE_FORMATS
    first = True
    for rec in formats.read_records(lines, shape=shape, alphabet=alphabet,
                                    format=args.in_format, source=source):
        if rec.puzzle is None:
            errors += 1
            print(f"numberplace: {rec.error}", file=sys.stderr)
            continue
        if blank_between and not first:
            out.write("\n")
        out.write(formats.write(rec.puzzle, args.to_format) + "\n")
        first = False
    return 2 if errors else 0


def _records(args: argparse.Namespace) -> Iterator[formats.Record]:
    shape = batch.resolve_shape(args.shape)
    alphabet = _alphabet(args.alphabet, shape.size if shape else None)
    source = "<stdin>" if args.file == "-" else args.file
    lines, _ = batch.open_lines(args.file)
    return formats.read_records(lines, shape=shape, alphabet=alphabet, format=args.in_format,
                                source=source)


def _techniques(text: str | None) -> list[str] | None:
    from .logic import BOOK

    if text is None:
        return None
    if text.strip().lower() == "book":
        return list(BOOK)
    return [name.strip() for name in text.split(",") if name.strip()]


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    from .logic.explain import book_log_line, explain, step_record

    techniques = _techniques(args.techniques)
    guess = args.guess or (args.techniques or "").strip().lower() == "book"
    errors = 0
    for rec in _records(args):
        if rec.puzzle is None:
            errors += 1
            print(f"numberplace: {rec.error}", file=sys.stderr)
            continue
        shape = rec.puzzle.shape
        result = explain(rec.puzzle, techniques, guess)
        if args.svg:
            _write_pictures(args.svg, rec.line, rec.puzzle, result.steps)
        if args.json:
            obj: dict[str, object] = {
                "line": rec.line, "puzzle": formats.write(rec.puzzle, "line"),
                "status": result.status,
                "steps": [step_record(s, shape, args.notation, rec.puzzle.alphabet)
                          for s in result.steps]}
            if result.message:
                obj["message"] = result.message
            out.write(json.dumps(obj) + "\n")
            continue
        used = ", ".join(f"{name} {n}" for name, n in result.technique_counts().items())
        head = f"line {rec.line}: {result.status}, {len(result.steps)} steps"
        out.write(head + (f" ({used})" if used else "")
                  + (f": {result.message}" if result.message else "") + "\n")
        book = (args.techniques or "").strip().lower() == "book"
        for number, step in enumerate(result.steps, start=1):
            text = (book_log_line(step, shape, rec.puzzle.alphabet) if book else
                    f"{step.technique}: "
                    f"{step.describe(shape, args.notation, rec.puzzle.alphabet)}")
            out.write(f"  {number}. {text}\n")
    return 2 if errors else 0


def _write_pictures(folder: str, line: int, puzzle: Puzzle, steps: Sequence[Step]) -> None:
    """One SVG per step, each written to a temporary file first and then renamed, so an
    interrupted run never leaves half a picture."""
    from .logic.explain import boards_before_steps
    from .render import render_svg

    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise NumberplaceError(f"cannot create {folder}: {exc.strerror or exc}") from None
    givens = {c for c, v in enumerate(puzzle.givens) if v}
    for number, (board, step) in enumerate(zip(boards_before_steps(puzzle, steps), steps,
                                               strict=True), start=1):
        picture = render_svg(board, puzzle.shape, step, puzzle.alphabet, givens=givens)
        path = os.path.join(folder, f"line{line}-step{number:03d}.svg")
        try:
            with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False,
                                             encoding="utf-8") as handle:
                handle.write(picture)
            os.replace(handle.name, path)
        except OSError as exc:
            raise NumberplaceError(f"cannot write {path}: {exc.strerror or exc}") from None


def _hint(args: argparse.Namespace, out: TextIO) -> int:
    from .logic.explain import hint

    techniques = _techniques(args.techniques)
    errors = 0
    for rec in _records(args):
        if rec.puzzle is None:
            errors += 1
            print(f"numberplace: {rec.error}", file=sys.stderr)
            continue
        text = hint(rec.puzzle, args.tier, techniques, args.notation, args.placement)
        out.write(f"line {rec.line}: {text or 'no technique applies (stalled)'}\n")
    return 2 if errors else 0


def _bench(args: argparse.Namespace, out: TextIO) -> int:
    from .benchmark import bench_file, render_table

    shape = batch.resolve_shape(args.shape)
    rows = [bench_file(path, limit=args.limit, max_puzzles=args.max, repeat=args.repeat,
                       backend=args.backend, shape=shape) for path in args.files]
    render_table(rows, out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        if args.command in ("solve", "count", "check"):
            return _run_batch(args, out)
        if args.command == "convert":
            return _convert(args, out)
        if args.command == "bench":
            return _bench(args, out)
        if args.command == "explain":
            return _explain(args, out)
        if args.command == "hint":
            return _hint(args, out)
    except NumberplaceError as exc:
        print(f"numberplace: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("numberplace: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        sys.stderr.close()
        return 0
    parser.error(f"unknown command {args.command}")
    return 2  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
