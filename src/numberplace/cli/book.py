"""``print``: puzzle books as PDF, and one puzzle as SVG, from a file or from the bank."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import TYPE_CHECKING, TextIO

from ..atomic import write_atomically
from ..errors import NumberplaceError
from . import options
from .bank import _add_filters, _open_bank, _query, nothing_matches
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run

if TYPE_CHECKING:
    from .. import formats
    from ..render.pdf import BookPuzzle


def _caption(level: str | None, number: int | None, difficulty: float | None) -> str:
    if not number:
        return ""
    return f"Level {number} {level}" + ("" if difficulty is None else f", {difficulty:.1f}")


def _prepare(records: list[formats.Record], rate: bool, time_limit: float | None,
             solutions: bool, pictures: bool) -> list[tuple[formats.Record, BookPuzzle | None]]:
    """Each puzzle's solution, with ``rate`` its level and difficulty, and with
    ``pictures`` its drawings for the book (runs in a worker)."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from .. import engine
    from ..render.pdf import BookPuzzle, with_pictures

    out: list[tuple[formats.Record, BookPuzzle | None]] = []
    for rec in records:
        if rec.puzzle is None:
            out.append((rec, None))
            continue
        result = engine.solve(rec.puzzle, limit=2, time_limit=time_limit)
        caption = ""
        if rate and result.status is engine.Status.UNIQUE:
            # imported here: --help loads every command's module; each loads its work when it runs
            from ..logic.rating import rate as rate_puzzle

            rating = rate_puzzle(rec.puzzle, time_limit=time_limit)
            caption = _caption(rating.level, rating.level_number, rating.difficulty)
        solution = result.solution if result.status is engine.Status.UNIQUE else None
        item = BookPuzzle(rec.puzzle, solution, caption)
        out.append((rec, with_pictures(item, solutions) if pictures else item))
    return out


def _from_file(args: argparse.Namespace, settings: Settings) -> tuple[list[BookPuzzle], int]:
    """The input's puzzles, prepared in workers; and how many could not be read."""
    items: list[BookPuzzle] = []
    unreadable = 0

    def keep(done: tuple[formats.Record, BookPuzzle | None]) -> Outcome:
        nonlocal unreadable
        rec, item = done
        if item is None:
            unreadable += 1
            return Outcome(rec.line, UNREADABLE, "", str(rec.error))
        items.append(item)
        return Outcome(rec.line, "ready", "")

    def pieces(records: list[formats.Record]) -> list[list[formats.Record]]:
        return [records[i:i + 4] for i in range(0, len(records), 4)]

    with options.open_puzzles(args) as source:
        records = list(options.records(source, args))
        options.require_some(len(records), source)
        work = functools.partial(_prepare, rate=not args.no_rating,
                                 time_limit=args.time_limit, solutions=not args.no_solutions,
                                 pictures=bool(args.pdf))
        run(lambda text: None, settings, pieces(records), work, keep, Meter(len(records)))
    return items, unreadable


def _from_bank(args: argparse.Namespace, settings: Settings) -> list[BookPuzzle]:
    """The bank's puzzles that match, their drawings for a book made in workers."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from .. import engine
    from ..render.pdf import BookPuzzle

    found = []
    with _open_bank(args) as bank:
        for stored in _query(bank, args, args.limit or None):
            puzzle = stored.puzzle
            solved = engine.solve(puzzle, limit=1, time_limit=args.time_limit)
            found.append(BookPuzzle(puzzle, solved.solution, _caption(
                stored.level_name, stored.level, stored.difficulty)))
        if not found:
            raise NumberplaceError(nothing_matches(bank))
    if not args.pdf:  # a picture of the first puzzle alone: no drawings for a book
        return found
    items: list[BookPuzzle] = []

    def keep(item: BookPuzzle) -> Outcome:
        items.append(item)
        return Outcome(0, "ready", "")

    run(lambda text: None, settings, [found[i:i + 4] for i in range(0, len(found), 4)],
        functools.partial(_draw, solutions=not args.no_solutions), keep, Meter(len(found)))
    return items


def _draw(piece: list[BookPuzzle], solutions: bool) -> list[BookPuzzle]:
    """The drawings of some puzzles of a book (runs in a worker)."""
    # imported here: reportlab (the print extra) may be missing, and --help loads this module
    from ..render.pdf import with_pictures

    return [with_pictures(item, solutions) for item in piece]


def print_book(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Write the book (``--pdf``) and/or the first puzzle's picture (``--svg``); exit
    status 2 if some records could not be read (the others are printed)."""

    if not (args.pdf or args.svg):
        raise NumberplaceError("print needs --pdf FILE (a book) or --svg FILE (a picture)")
    chosen = [f"--{name}" for name in ("level", "difficulty", "technique", "clues", "tag",
                                       "source", "random") if getattr(args, name)]
    if chosen and not args.from_bank:
        raise NumberplaceError(f"{', '.join(chosen)} choose puzzles of a bank: give "
                               f"--from-bank DB")
    if args.from_bank and args.file != "-":
        raise NumberplaceError("print takes puzzles from FILE or from --from-bank, not both")
    if args.pdf:
        # imported here: reportlab (the print extra) may be missing, and --help loads this module
        from ..render.pdf import check_libraries

        check_libraries()  # before any puzzle is rated
    if args.from_bank:
        args.db = args.from_bank
        items, unreadable = _from_bank(args, settings), 0
    else:
        items, unreadable = _from_file(args, settings)
    if not items:
        raise NumberplaceError("no puzzle could be read, so there is nothing to print")
    if args.svg:
        # imported here: --help loads every command's module; each loads its work when it runs
        from ..render.svg import render_puzzle_svg

        first = items[0]
        if args.solution and first.solution is None:
            raise NumberplaceError("the first puzzle has no single solution to draw")
        write_atomically(args.svg, render_puzzle_svg(
            first.puzzle, first.solution if args.solution else None))
    if args.pdf:
        # imported here: reportlab (the print extra) may be missing, and --help loads this module
        from ..render.pdf import book_pdf

        title = args.title or "Puzzles"
        data = book_pdf(items, title=title, per_page=args.per_page, paper=args.paper,
                        solutions=not args.no_solutions)
        write_atomically(args.pdf, data)
        print(f"numberplace: {args.pdf}: {len(items)} puzzles, "
              f"{_pages(len(items), args.per_page, not args.no_solutions)} pages",
              file=sys.stderr)
    return 2 if unreadable else 0


def _pages(count: int, per_page: int, solutions: bool) -> int:
    pages = -(-count // per_page)
    return pages * 2 if solutions else pages


def add_parsers(sub: options.Commands) -> None:
    """The ``print`` command."""
    # imported here: reportlab (the print extra) may be missing, and --help loads this module
    from ..render.pdf import LAYOUTS, PAPERS

    p = options.command(
        sub, "print", print_book, "print puzzles as a PDF book or an SVG picture",
        "Print the puzzles of FILE (or of a bank, with --from-bank and its filters) as a PDF "
        "book: --per-page puzzles to a page, each with its number, level and difficulty, "
        "the title, page numbers and the solutions at the back. --svg draws the first "
        "puzzle alone. Needs the print extra: pip install 'numberplace[print]'.")
    options.add_input(p)
    p.add_argument("--pdf", metavar="FILE", help="write the book to FILE (whole or not at all)")
    p.add_argument("--svg", metavar="FILE", help="draw the first puzzle to FILE as SVG")
    p.add_argument("--solution", action="store_true",
                   help="with --svg, draw the first puzzle solved")
    p.add_argument("--per-page", type=int, choices=sorted(LAYOUTS), default=4,
                   help="puzzles to a page (default 4)")
    p.add_argument("--title", metavar="TEXT", help="the book's title (default Puzzles)")
    p.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                   help="paper size (default a4)")
    p.add_argument("--no-solutions", action="store_true", help="leave out the solutions")
    p.add_argument("--no-rating", action="store_true",
                   help="do not rate the puzzles of FILE (faster; captions without level)")
    options.add_time_limit(p, 60.0, "give up rating or solving a puzzle after S seconds "
                                    "(default 60, 0 for none)")
    p.add_argument("--from-bank", metavar="DB",
                   help="print puzzles of this bank instead of FILE, chosen by the filters")
    _add_filters(p, 12, shape=False)  # --shape, above, says the shape to print
