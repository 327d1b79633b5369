"""``generate``: new puzzles with one solution, made in workers, written as they come."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from .. import formats
from ..errors import LimitError, NumberplaceError
from ..formats.table import ONE_LINE_FORMATS
from ..model.shape import Shape, by_name
from ..model.symmetry import MEANINGS, SYMMETRIES, canonical
from ..store.serialize import Record, generated_record
from . import options
from .pipeline import Meter, Outcome, Output, OutputError, Settings, run

if TYPE_CHECKING:
    from ..generate import Generated, SumsKind
    from ..store.bank import Bank


#: What one seed gave: the seed, its puzzle and the puzzle's record when ``--json`` asks
#: for one; or no puzzle, and why.
Made = tuple[int, "Generated | None", Record | None, str]


def _make(seed: int, shape: Shape, settings: dict[str, object], symmetry: str,
          as_json: bool, asked: float | None = None) -> list[Made]:
    """The puzzle of one seed, and its record (runs in a worker: a Samurai's record counts
    each grid's solutions). A seed that gives no puzzle in time is reported, not fatal.
    ``asked``: the time limit given, when new regions took part of it."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..generate import generate

    try:
        made = generate(shape, seed=seed, **settings)  # type: ignore[arg-type]  # checked
    except NumberplaceError as exc:
        why = str(exc)
        if asked is not None and isinstance(exc, LimitError):
            why = (f"no puzzle met the request within the time limit of {asked:g} s, the new "
                   "regions included; ask for less, or allow more time")
        return [(seed, None, None, why)]
    return [(seed, made, generated_record(made, symmetry) if as_json else None, "")]


def _make_sums(seed: int, kind: SumsKind, level: str | None, time_limit: float | None,
               as_json: bool, one_cell_cages: int) -> list[Made]:
    """A Kakuro or Killer of one seed, and its record (runs in a worker)."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..generate import generate_sums

    try:
        made = generate_sums(kind, level=level, seed=seed, time_limit=time_limit,
                             one_cell_cages=one_cell_cages)
    except NumberplaceError as exc:
        return [(seed, None, None, str(exc))]
    layout = "rotate180" if kind.kind == "kakuro" else "none"
    return [(seed, made, generated_record(made, layout) if as_json else None, "")]


#: Options that choose givens, which a Kakuro or Killer (made of sums, not givens) lacks.
_GIVENS_OPTIONS = (("difficulty", "--difficulty"), ("needs", "--needs"), ("clues", "--clues"),
                   ("minimal", "--minimal"), ("recipe", "--recipe"), ("pattern", "--pattern"))


def generate(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Make ``--count`` puzzles, one seed each, and write them in seed order; exit status 1
    when some seed gave no puzzle."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..generate import check_sums_level, sums_kind
    from ..generate.sumgen import ONE_CELL_CAGES

    start = time.monotonic()
    kind = sums_kind(args.shape)
    work: Callable[[int], list[Made]]
    if kind is not None:
        for name, flag in _GIVENS_OPTIONS:
            if getattr(args, name):
                raise NumberplaceError(f"{flag} chooses givens; a {kind.kind.capitalize()} is "
                                       f"made of sums (ask for --level)")
        check_sums_level(kind, args.level)
        if args.one_cell_cages is not None and kind.kind != "killer":
            raise NumberplaceError("--one-cell-cages is for Killers")
        fmt = args.out_format or kind.kind
        work = functools.partial(_make_sums, kind=kind, level=args.level,
                                 time_limit=args.time_limit, as_json=args.json,
                                 one_cell_cages=(ONE_CELL_CAGES if args.one_cell_cages is None
                                                 else args.one_cell_cages))
    else:
        if args.one_cell_cages is not None:
            raise NumberplaceError("--one-cell-cages is for Killers (--shape killer)")
        shape = _shape(args.shape, args.seed, args.time_limit)
        wanted = _wanted(args, shape)
        asked = None
        if args.time_limit is not None and shape.regions:  # new regions take time too
            wanted["time_limit"] = max(0.001, args.time_limit - (time.monotonic() - start))
            asked = args.time_limit
        fmt = args.out_format or ("samurai" if len(shape.grids) > 1 else
                                  "jigsaw" if shape.regions else "line")
        work = functools.partial(_make, shape=shape, settings=wanted, symmetry=args.symmetry,
                                 as_json=args.json, asked=asked)

    bank = _bank(args.bank)

    def emit(done: Made) -> Outcome:
        seed, made, record, why = done
        if made is None:
            return Outcome(0, "failed", "", f"seed {seed}: {why}")
        if bank is not None:
            _keep(bank, made, seed)
        if record is not None:
            text = json.dumps(record)
        else:
            text = formats.write(made.puzzle, fmt)
            if fmt not in ONE_LINE_FORMATS:
                text += "\n"
        return Outcome(0, "made", text)

    first = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    seeds = range(first, first + args.count)
    try:
        if not args.output:
            statuses = run(out.write, settings, seeds, work, emit, Meter(args.count))
            return 1 if statuses["failed"] else 0
        try:
            target = open(args.output, "a", encoding="utf-8")  # noqa: SIM115  # closed below
        except OSError as exc:
            raise NumberplaceError(f"cannot write {args.output}: {exc.strerror or exc}") \
                from None
        try:
            statuses = run(_kept(Output(target, args.output)), settings, seeds, work, emit,
                           Meter(args.count))
        finally:
            with contextlib.suppress(OSError):  # a write that failed has been reported
                target.close()
        return 1 if statuses["failed"] else 0
    finally:
        if bank is not None:
            bank.close()


def _bank(path: str | None) -> Bank | None:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import Bank

    return None if path is None else Bank(path)


def _keep(bank: Bank, made: Generated, seed: int) -> None:
    """Put a new puzzle in the bank with its rating (a puzzle already there stays)."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import entry

    found = entry(made.puzzle, rating=made.rating)
    if isinstance(found, str):  # pragma: no cover - a generated puzzle has one solution
        raise NumberplaceError(f"seed {seed}: the puzzle made cannot go in the bank: {found}")
    bank.add([found], source="generate", tags=[f"seed {seed}"])


def _kept(target: Output) -> Callable[[str], None]:
    """Write each puzzle to disk at once: what is written survives an interruption."""

    def write(text: str) -> None:
        target.write(text)
        target.flush()
        try:
            os.fsync(target.fileno())
        except OSError as exc:
            raise OutputError(f"cannot write {target.name}: {exc.strerror or exc}") from None

    return write


def _shape(name: str, seed: int | None, time_limit: float | None) -> Shape:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..generate import random_regions

    name = name.strip().lower()
    if not name.startswith("jigsaw"):
        return options.shape(name) or by_name("9x9")
    size_text = name.partition("-")[2]
    rows, _, cols = size_text.partition("x")
    if size_text and not (rows.isdigit() and rows == cols and 4 <= int(rows) <= 25):
        raise NumberplaceError(f"shape {name!r}: write jigsaw or jigsaw-NxN, N from 4 to 25")
    size = int(rows) if size_text else 9
    try:
        return random_regions(size, seed, time_limit=time_limit)
    except LimitError:
        raise LimitError(f"no {size}x{size} jigsaw regions with complete grids were found "
                         f"within the time limit of {time_limit:g} s; allow more time") from None


def _wanted(args: argparse.Namespace, shape: Shape) -> dict[str, object]:
    """The generator's settings from the options, checked before any work: a request no
    puzzle can meet is refused at once."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..generate import check_request

    wanted: dict[str, object] = {
        "level": args.level, "symmetry": args.symmetry, "difficulty": args.difficulty,
        "needs": args.needs, "clues": args.clues, "minimal": args.minimal,
        "recipe": args.recipe, "pattern": args.pattern}
    check_request(shape, **wanted)  # type: ignore[arg-type]  # argparse gave these types
    wanted["time_limit"] = args.time_limit
    return wanted


def add_parsers(sub: options.Commands) -> None:
    """The ``generate`` command."""
    p = options.command(sub, "generate", generate, "make new puzzles with exactly one solution",
                        "Generate puzzles with exactly one solution from random grids, at a level,"
                        " in a symmetry, on any shape. Each puzzle is rated; --json adds its "
                        "solution, rating and the seed that reproduces it.")
    p.add_argument("--shape", metavar="NAME", default="9x9",
                   help="4x4 ... 25x25, samurai, diagonal, jigsaw (random regions), "
                        "jigsaw-6x6 ..., kakuro-RxC (6x6 to 30x30 squares), killer, "
                        "killer-6x6 ... (default 9x9)")
    p.add_argument("--level", metavar="L",
                   help="level name or number: 1 Easy, 2 Medium, 3 Difficult, "
                        "4 Extremely Difficult, 5 Fiendish, 6 Trial and Error (Kakuro and "
                        "Killer: 1 to 3)")
    p.add_argument("--symmetry", default="rotate180", choices=SYMMETRIES, type=canonical,
                   metavar="NAME",
                   help="symmetry of the givens: " + "; ".join(
                       f"{name}: {MEANINGS[name]}" for name in SYMMETRIES)
                   + " (default rotate180; horizontal and vertical are older names of "
                     "top-bottom and left-right)")
    p.add_argument("--difficulty", type=options.value_range(float), metavar="LO-HI",
                   help="Explainer-scale difficulty range, e.g. 6.5-7.5")
    p.add_argument("--needs", metavar="TECHNIQUE",
                   help="a technique the solve must use, e.g. 'X-Wing'")
    p.add_argument("--clues", type=options.value_range(int), metavar="LO-HI",
                   help="number of givens, e.g. 24-28")
    p.add_argument("--minimal", action="store_true",
                   help="no given can be removed keeping one solution")
    p.add_argument("--recipe", choices=("book",),
                   help="the programming book's recipe (9x9, --level 1-4): its empty "
                        "cells and score windows")
    p.add_argument("--pattern", metavar="COUNTS",
                   help="digit-count pattern: how many digits keep 0, 1, ..., 9 copies, "
                        "e.g. 0122211000")
    p.add_argument("--one-cell-cages", type=options.whole_number(0, "must be 0 or more"),
                   default=None, metavar="N",
                   help="Killer: the most cages of one cell, each a given in disguise "
                        "(default 1; published Killers have 0 to 3)")
    p.add_argument("--count", type=options.positive, default=1, metavar="N",
                   help="puzzles to make (default 1)")
    p.add_argument("--seed", type=options.whole_number(0, "must be 0 or more"), default=None,
                   metavar="S", help="seed of the first puzzle; puzzle i gets S+i")
    p.add_argument("--format", dest="out_format", choices=formats.FORMAT_NAMES,
                   default=None, help="output format (default: line; samurai, jigsaw, "
                                      "kakuro, killer for those)")
    options.add_json(p, "one JSON object per puzzle: puzzle, solution, rating, seed")
    p.add_argument("--output", metavar="FILE",
                   help="append to FILE, each puzzle written in full as it is made")
    p.add_argument("--bank", metavar="DB",
                   help="also add each puzzle, with its rating, to the bank DB (a SQLite file "
                        "or a postgresql:// URL)")
    options.add_time_limit(p, 600.0, "give up a puzzle after S seconds (default 600)")
    options.add_workers(p)
