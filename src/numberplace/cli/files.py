"""``convert`` and ``bench``: rewrite files of puzzles, and time the engine on them."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .. import formats
from ..errors import NumberplaceError
from ..formats.table import ONE_LINE_FORMATS, REGION_FORMATS
from . import options
from .pipeline import Settings


def convert(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Write each readable record in ``--to``; exit status 2 if any could not be read."""
    errors = 0
    # records of several lines need a blank line between them to be read back
    blank_between = args.to_format not in ONE_LINE_FORMATS
    first = True
    seen = 0
    with options.open_puzzles(args) as source:
        for rec in options.records(source, args):
            seen += 1
            if rec.puzzle is None:
                errors += 1
                print(f"numberplace: {rec.error}", file=sys.stderr)
                continue
            if rec.puzzle.shape.regions and args.to_format not in REGION_FORMATS:
                # written without its regions it would be another puzzle, with many solutions
                errors += 1
                print(f"numberplace: {source.name}, line {rec.line}: the {args.to_format} "
                      f"format cannot hold a jigsaw's regions; use --to jigsaw or --to json",
                      file=sys.stderr)
                continue
            if blank_between and not first:
                out.write("\n")
            out.write(formats.write(rec.puzzle, args.to_format, name=rec.name) + "\n")
            first = False
        options.require_some(seen, source)
    return 2 if errors else 0


def bench(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """One row per file: puzzles per second, median and worst time, guesses."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..engine.benchmark import bench_file, render_table

    shape = options.shape(args.shape)
    rows = []
    failed = 0
    for path in args.files:
        try:
            rows.append(bench_file(path, limit=args.limit, max_puzzles=args.max,
                                   repeat=args.repeat, backend=args.backend, shape=shape))
        except NumberplaceError as exc:  # one bad file costs only its own row
            failed += 1
            print(f"numberplace: error: {exc}", file=sys.stderr)
    if rows:
        render_table(rows, out)
    return 2 if failed else 0


def add_parsers(sub: options.Commands) -> None:
    """The ``convert`` and ``bench`` commands."""
    p = options.command(sub, "convert", convert, "rewrite puzzles in another format",
                        "Read puzzles in any format and write them in another.")
    options.add_input(p, jobs=False)
    p.add_argument("--to", required=True, choices=formats.FORMAT_NAMES, dest="to_format",
                   help="output format")

    p = options.command(sub, "bench", bench, "solve benchmark files and print a table",
                        "Solve each file's puzzles in one process, counting up to --limit "
                        "solutions, and print puzzles/s, median and worst time per puzzle, and "
                        "guesses per puzzle.")
    p.add_argument("files", nargs="+", help="files of puzzles (.gz, .xz, .bz2 too)")
    p.add_argument("--limit", type=options.solution_count, default=2, metavar="N",
                   help="solutions to count per puzzle (default 2)")
    p.add_argument("--max", type=options.positive, default=None, metavar="N",
                   help="solve at most N puzzles per file")
    p.add_argument("--repeat", type=options.positive, default=1, metavar="N",
                   help="run each file N times and keep the fastest run")
    options.add_backend(p, "search engine (default: fastest)")
    p.add_argument("--shape", metavar="NAME", help="shape of the puzzles, if not 9x9 lines")
