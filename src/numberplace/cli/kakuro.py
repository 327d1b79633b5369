"""``kakuro``: the combination table that Kakuro and Killer cages are solved by."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ..engine import sums
from ..errors import NumberplaceError
from . import options
from .pipeline import Settings


def kakuro(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """``kakuro combos [SUM CELLS]``: the combinations of one clue, or the whole table."""
    digits = args.digits
    if (args.sum is None) != (args.cells is None):
        raise NumberplaceError("give both SUM and CELLS, or neither for the whole table")
    if args.sum is None:
        rows = sums.table(digits)
    else:
        rows = [(args.cells, args.sum, sums.combinations(args.sum, args.cells, digits))]
    for cells, total, combos in rows:
        if args.json:
            record = {"sum": total, "cells": cells, "combinations": [list(c) for c in combos],
                      "allowed": list(sums.digits_of(sums.allowed(total, cells, digits))),
                      "required": list(sums.digits_of(sums.required(total, cells, digits)))}
            out.write(json.dumps(record) + "\n")
        else:
            out.write(_line(total, cells, combos, digits) + "\n")
    return 0


def _line(total: int, cells: int, combos: list[tuple[int, ...]], digits: int) -> str:
    """``7 in 2: {1,6} {2,5} {3,4}``, and what the combinations say of the run's digits."""
    if not combos:
        low, high = sums.sum_range(cells, digits)
        return f"{total} in {cells}: none ({cells} different digits make {low} to {high})"
    sets = " ".join("{" + ",".join(map(str, c)) + "}" for c in combos)
    must = sums.digits_of(sums.required(total, cells, digits))
    allowed = sums.allowed(total, cells, digits)
    never = [d for d in range(1, digits + 1) if not allowed >> (d - 1) & 1]
    notes = []
    if must and len(combos) > 1:
        notes.append("always " + ",".join(map(str, must)))
    if never and len(combos) > 1:
        notes.append("never " + ",".join(map(str, never)))
    return f"{total} in {cells}: {sets}" + (f" ({'; '.join(notes)})" if notes else "")


def add_parsers(sub: options.Commands) -> None:
    """The ``kakuro`` command."""
    p = options.command(sub, "kakuro", kakuro, "the combination table of sums",
                        "combos SUM CELLS lists every set of CELLS different digits adding "
                        "up to SUM (7 in 2: {1,6} {2,5} {3,4}), with the digits every set "
                        "holds and those none does; without SUM and CELLS, the whole table.")
    p.add_argument("what", choices=["combos"], help="what to show: combos")
    p.add_argument("sum", nargs="?", type=options.positive, metavar="SUM",
                   help="the clue")
    p.add_argument("cells", nargs="?", type=options.positive, metavar="CELLS",
                   help="the number of cells of the run")
    p.add_argument("--digits", type=options.whole_number(1, "must be at least 1", 31),
                   default=sums.DIGITS, metavar="N",
                   help="digits from 1 to N (default 9)")
    options.add_json(p, "one JSON object per clue: its combinations, and the digits they "
                        "allow and require")
