"""The ``numberplace`` command line.

Each sub-command maps to one feature and calls the library; no puzzle logic lives here.
Errors a user can cause print one line on standard error and exit with status 2.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO, TypeVar

from . import __version__, batch, formats
from .alphabet import Alphabet
from .errors import NumberplaceError
from .puzzle import Puzzle
from .shape import by_name
from .symmetry import SYMMETRIES

if TYPE_CHECKING:
    from rich.progress import Progress

    from .logic.explain import Explanation
    from .logic.step import Step
    from .rating import Rating

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


class _Version(argparse.Action):
    """``--version``: the version and the engine in use (the engine is only imported when
    asked, to keep start-up short)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .engine import available_backends, backend_name

        if backend_name() == "c":
            engine = "compiled C core"
        elif "c" in available_backends():
            engine = "pure Python, as chosen"
        else:
            engine = "pure Python; the compiled core is not built, searches are about 60x slower"
        print(f"numberplace {__version__} (engine: {engine})")
        parser.exit()


def _whole_number(minimum: int, rule: str) -> Callable[[str], int]:
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
                                 "explain, hint, rate, generate, bench.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and which search engine runs, then exit")
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
    _add_input(p)
    _add_logic(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle per line: puzzle, status, steps")
    p.add_argument("--svg", metavar="DIR",
                   help="also write one SVG picture per step into DIR "
                        "(line<L>-step<NNN>.svg)")
    p.add_argument("--guess", action="store_true",
                   help="when logic stalls, guess and backtrack (the book's brute force; "
                        "implied by --techniques book); every guess is a step")
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S",
                   help="stop a puzzle's path after S seconds, reporting it stalled "
                        "(default 60)")

    p = sub.add_parser("hint", help="the next step of each puzzle",
                       description="Find the next step of each puzzle (or of a pencil-mark "
                                   "grid) and tell it at the chosen level of detail.")
    _add_input(p)
    _add_logic(p)
    p.add_argument("--tier", type=int, choices=(1, 2, 3), default=3,
                   help="1: technique and house, 2: also the cells, 3: the whole step")
    p.add_argument("--placement", action="store_true",
                   help="the next value to write, one per call as a step-at-a-time "
                        "solver gives it (eliminations on the way are counted)")

    p = sub.add_parser("rate", help="rate each puzzle's difficulty",
                       description="Rate each puzzle: our level (1 Easy ... 6 Trial and "
                                   "Error, by the hardest technique needed), a difficulty "
                                   "on the Sudoku Explainer scale, the hardest technique, "
                                   "guesses, and the programming book's score and level. "
                                   "Puzzles without exactly one solution are reported as "
                                   "such, never rated.")
    _add_input(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle per line: puzzle, status, level, "
                        "level_number, difficulty, book_score, book_level, hardest, guesses")
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S",
                   help="give up a puzzle's solve after S seconds (status limit; default 60)")

    p = sub.add_parser("generate", help="make new puzzles with exactly one solution",
                       description="Generate puzzles with exactly one solution from random "
                                   "grids, at a level, in a symmetry, on any shape. Each "
                                   "puzzle is rated; --json adds its solution, rating and "
                                   "the seed that reproduces it.")
    p.add_argument("--shape", metavar="NAME", default="9x9",
                   help="4x4 ... 25x25, samurai, diagonal, jigsaw (random regions), "
                        "jigsaw-6x6 ... (default 9x9)")
    p.add_argument("--level", metavar="L",
                   help="level name or number: 1 Easy, 2 Medium, 3 Difficult, "
                        "4 Extremely Difficult, 5 Fiendish, 6 Trial and Error")
    p.add_argument("--symmetry", default="rotate180", choices=SYMMETRIES,
                   help="symmetry of the givens (default rotate180, the book's)")
    p.add_argument("--difficulty", type=_range(float), metavar="LO-HI",
                   help="Explainer-scale difficulty range, e.g. 6.5-7.5")
    p.add_argument("--needs", metavar="TECHNIQUE",
                   help="a technique the solve must use, e.g. 'X-Wing'")
    p.add_argument("--clues", type=_range(int), metavar="LO-HI",
                   help="number of givens, e.g. 24-28")
    p.add_argument("--minimal", action="store_true",
                   help="no given can be removed keeping one solution")
    p.add_argument("--recipe", choices=("book",),
                   help="the programming book's recipe (9x9, --level 1-4): its empty "
                        "cells and score windows")
    p.add_argument("--pattern", metavar="COUNTS",
                   help="digit-count pattern: how many digits keep 0, 1, ..., 9 copies, "
                        "e.g. 0122211000")
    p.add_argument("--count", type=_positive, default=1, metavar="N",
                   help="puzzles to make (default 1)")
    p.add_argument("--seed", type=_whole_number(0, "must be 0 or more"), default=None,
                   metavar="S", help="seed of the first puzzle; puzzle i gets S+i")
    p.add_argument("--format", dest="out_format", choices=formats.FORMAT_NAMES,
                   default=None, help="output format (default: line, samurai for Samurai)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle: puzzle, solution, rating, seed")
    p.add_argument("--output", metavar="FILE",
                   help="append to FILE, each puzzle written in full as it is made")
    p.add_argument("--time-limit", type=_seconds, default=600.0, metavar="S",
                   help="give up a puzzle after S seconds (default 600)")
    p.add_argument("--jobs", type=_positive, default=None, metavar="N",
                   help="worker processes (default: all cores)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar, even on a terminal")

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


class _Bar:
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

    def __enter__(self) -> _Bar:
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
    start = time.perf_counter()
    read_errors = 0
    with _Bar(args.command, size, on_terminal and not args.no_progress) as bar:
        for outcomes in batch.run(chunk_iter, opts, jobs):
            for o in outcomes:
                tally.statuses[o.status] += 1
                if o.error:
                    read_errors += 1
                    print(f"numberplace: {o.error}", file=sys.stderr)
                if o.text:
                    out.write(o.text + "\n")
            bar.show(consumed[0] if size else tally.puzzles)
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


R = TypeVar("R")
T = TypeVar("T")


def _explain_chunk(puzzles: list[Puzzle], techniques: list[str] | None, guess: bool,
                   time_limit: float | None) -> list[Explanation]:
    from .logic.explain import explain

    return [explain(p, techniques, guess, time_limit) for p in puzzles]


def _hint_chunk(puzzles: list[Puzzle], tier: int, techniques: list[str] | None,
                notation: str, placement: bool) -> list[str | None]:
    from .logic.explain import hint

    return [hint(p, tier, techniques, notation, placement) for p in puzzles]


#: Puzzles per piece of work handed to a process by explain and hint.
_LOGIC_CHUNK = 8


def _logic_batch(args: argparse.Namespace, command: str, fn: Callable[[list[Puzzle]], list[R]],
                 emit: Callable[[formats.Record, R], str]) -> Iterator[tuple[str, str]]:
    """Run ``fn`` over the input's puzzles in chunks on ``--jobs`` processes, in input
    order, with a progress bar on a terminal; yields (status, text) per record, where
    status is ``error`` for an unreadable one (its text is the error)."""
    shape = batch.resolve_shape(args.shape)
    alphabet = _alphabet(args.alphabet, shape.size if shape else None)
    source = "<stdin>" if args.file == "-" else args.file
    lines, size = batch.open_lines(args.file)
    consumed = [0]
    records = formats.read_records(_counting(lines, consumed), shape=shape, alphabet=alphabet,
                                   format=args.in_format, source=source)
    queued: deque[list[formats.Record]] = deque()

    def work_items() -> Iterator[list[Puzzle]]:
        chunk: list[formats.Record] = []
        for rec in records:
            chunk.append(rec)
            if len(chunk) >= _LOGIC_CHUNK:
                queued.append(chunk)
                yield [r.puzzle for r in chunk if r.puzzle is not None]
                chunk = []
        if chunk:
            queued.append(chunk)
            yield [r.puzzle for r in chunk if r.puzzle is not None]

    done = 0
    with _Bar(command, size, sys.stderr.isatty() and not args.no_progress) as bar:
        for results in batch.ordered_map(fn, work_items(), args.jobs or batch.default_jobs()):
            answers = iter(results)
            for rec in queued.popleft():
                done += 1
                if rec.puzzle is None:
                    yield "error", f"numberplace: {rec.error}"
                else:
                    yield "ok", emit(rec, next(answers))
            bar.show(consumed[0] if size else done)


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    from .logic.explain import book_log_line, step_record

    techniques = _techniques(args.techniques)
    guess = args.guess or (args.techniques or "").strip().lower() == "book"
    book = (args.techniques or "").strip().lower() == "book"
    statuses: Counter[str] = Counter()

    def emit(rec: formats.Record, result: Explanation) -> str:
        puzzle = rec.puzzle
        assert puzzle is not None
        shape = puzzle.shape
        statuses[result.status] += 1
        if args.svg:
            _write_pictures(args.svg, rec.line, puzzle, result.steps)
        if args.json:
            obj: dict[str, object] = {
                "line": rec.line, "puzzle": formats.write(puzzle, "line"),
                "status": result.status,
                "steps": [step_record(s, shape, args.notation, puzzle.alphabet)
                          for s in result.steps]}
            if result.message:
                obj["message"] = result.message
            return json.dumps(obj)
        used = ", ".join(f"{name} {n}" for name, n in result.technique_counts().items())
        text = [f"line {rec.line}: {result.status}, {len(result.steps)} steps"
                + (f" ({used})" if used else "")
                + (f": {result.message}" if result.message else "")]
        for number, step in enumerate(result.steps, start=1):
            said = (book_log_line(step, shape, puzzle.alphabet) if book else
                    f"{step.technique}: {step.describe(shape, args.notation, puzzle.alphabet)}")
            text.append(f"  {number}. {said}")
        return "\n".join(text)

    fn = functools.partial(_explain_chunk, techniques=techniques, guess=guess,
                           time_limit=args.time_limit)
    return _logic_output(args, out, "explain", fn, emit, statuses)


def _logic_output(args: argparse.Namespace, out: TextIO, command: str,
                  fn: Callable[[list[Puzzle]], list[R]],
                  emit: Callable[[formats.Record, R], str], statuses: Counter[str]) -> int:
    """Print what :func:`_logic_batch` yields, errors to stderr, and a closing summary on
    a terminal (or with ``--summary``); exit status 2 if any record was unreadable."""
    errors = 0
    start = time.perf_counter()
    for status, text in _logic_batch(args, command, fn, emit):
        if status == "error":
            errors += 1
            print(text, file=sys.stderr)
        else:
            out.write(text + "\n")
    elapsed = time.perf_counter() - start
    if sys.stderr.isatty() or args.summary:
        total = sum(statuses.values()) + errors
        parts = [f"{n} {name}" for name, n in sorted(statuses.items())]
        if errors:
            parts.append(f"{errors} unreadable")
        print(f"{total} puzzles: {', '.join(parts) or 'none'}; {elapsed:.2f} s",
              file=sys.stderr)
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
    statuses: Counter[str] = Counter()

    def emit(rec: formats.Record, text: str | None) -> str:
        statuses["stalled" if text is None else "hinted"] += 1
        return f"line {rec.line}: {text or 'no technique applies (stalled)'}"

    fn = functools.partial(_hint_chunk, tier=args.tier,
                           techniques=_techniques(args.techniques), notation=args.notation,
                           placement=args.placement)
    return _logic_output(args, out, "hint", fn, emit, statuses)


def _rate_chunk(puzzles: list[Puzzle], time_limit: float | None) -> list[Rating]:
    from .rating import rate

    return [rate(p, time_limit=time_limit) for p in puzzles]


def _rate(args: argparse.Namespace, out: TextIO) -> int:
    statuses: Counter[str] = Counter()

    def emit(rec: formats.Record, r: Rating) -> str:
        assert rec.puzzle is not None
        statuses[r.level or r.status] += 1
        if args.json:
            return json.dumps({"line": rec.line, "puzzle": formats.write(rec.puzzle, "line"),
                               **r.record(), **({"message": r.message} if r.message else {})})
        if r.level is None:
            return f"line {rec.line}: {r.status}" + (f": {r.message}" if r.message else "")
        book = f"; book score {r.book_score} ({r.book_level})" if r.book_score else ""
        return (f"line {rec.line}: {r.level} (level {r.level_number}), difficulty "
                f"{r.difficulty}, hardest {r.hardest}, {r.guesses} guesses{book}")

    fn = functools.partial(_rate_chunk, time_limit=args.time_limit)
    return _logic_output(args, out, "rate", fn, emit, statuses)


def _range(kind: Callable[[str], T]) -> Callable[[str], tuple[T, T]]:
    def parse(text: str) -> tuple[T, T]:
        low, sep, high = text.partition("-")
        try:
            pair = (kind(low), kind(high if sep else low))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a range such as 3-5") from None
        if pair[0] > pair[1]:  # type: ignore[operator]
            raise argparse.ArgumentTypeError(f"{text!r}: the low end is above the high end")
        return pair

    return parse


def _generate_one(seed: int, options: dict[str, object]) -> dict[str, object]:
    """One puzzle as a record (runs in a worker process)."""
    from .generate import generate, grid_solution_counts
    from .shape import Shape

    shape = options["shape"]
    assert isinstance(shape, Shape)
    made = generate(shape, seed=seed, **{k: v for k, v in options.items()  # type: ignore
                                         if k != "shape"})
    record: dict[str, object] = {
        "puzzle": formats.write(made.puzzle, "line"),
        "solution": formats.write(made.puzzle, "line", values=made.solution),
        **made.rating.record(), "seed": made.seed, "symmetry": options["symmetry"]}
    if len(shape.grids) > 1:
        record["grid_solutions"] = grid_solution_counts(made.puzzle)
    if shape.regions:  # a jigsaw's puzzle needs its region map to be read back
        from .formats._common import REGION_LABELS

        record["regions"] = "".join(REGION_LABELS[r] for r in shape.regions)
    record["_puzzle"] = made.puzzle
    return record


def _generate(args: argparse.Namespace, out: TextIO) -> int:
    from .generate import random_regions

    name = args.shape.strip().lower()
    if name.startswith("jigsaw"):
        size_text = name.partition("-")[2]
        rows, _, cols = size_text.partition("x")
        if size_text and not (rows.isdigit() and rows == cols and 4 <= int(rows) <= 25):
            raise NumberplaceError(f"shape {args.shape!r}: write jigsaw or jigsaw-NxN, "
                                   "N from 4 to 25")
        shape = random_regions(int(rows) if size_text else 9, args.seed)
    else:
        shape = batch.resolve_shape(args.shape) or by_name("9x9")
    level = args.level
    if level is not None:
        from .rating import level_by

        level = level_by(level).number
    needs = args.needs
    if needs is not None:
        from .logic import REGISTRY

        needs = REGISTRY.get(needs).name
    options = {"shape": shape, "level": level, "symmetry": args.symmetry,
               "difficulty": args.difficulty, "needs": needs, "clues": args.clues,
               "minimal": args.minimal, "recipe": args.recipe, "pattern": args.pattern,
               "time_limit": args.time_limit}
    fmt = args.out_format or ("samurai" if len(shape.grids) > 1 else
                              "jigsaw" if shape.regions else "line")
    first = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    seeds = range(first, first + args.count)
    try:
        target = open(args.output, "a", encoding="utf-8") if args.output else out
    except OSError as exc:
        raise NumberplaceError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    try:
        with _Bar("generate", args.count, sys.stderr.isatty() and not args.no_progress) as bar:
            fn = functools.partial(_generate_one, options=options)
            for done, record in enumerate(
                    batch.ordered_map(fn, seeds, args.jobs or batch.default_jobs()), start=1):
                puzzle = record.pop("_puzzle")
                assert isinstance(puzzle, Puzzle)
                text = json.dumps(record) if args.json else formats.write(puzzle, fmt)
                if fmt not in batch.SINGLE_LINE_FORMATS and not args.json:
                    text += "\n"
                target.write(text + "\n")
                target.flush()
                if target is not out:
                    os.fsync(target.fileno())  # what is written survives an interruption
                bar.show(done)
    finally:
        if target is not out:
            target.close()
    return 0


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
        if args.command == "rate":
            return _rate(args, out)
        if args.command == "generate":
            return _generate(args, out)
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
