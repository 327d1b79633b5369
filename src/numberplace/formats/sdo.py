"""The ``sdo`` format of the programming book: one line of 81 digits, ``0`` for an empty cell.

Reading accepts everything the ``line`` format does (so ``.`` is also an empty cell);
writing uses ``0`` for empty cells.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.puzzle import Puzzle
from . import line
from ._common import Context, Numbered, fail


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a puzzle of digits on one line."""
    return line.read(record, ctx)


def write(puzzle: Puzzle) -> str:
    """The givens as one line with ``0`` for an empty cell."""
    if "0" in puzzle.alphabet.symbols:
        fail(f"the sdo format writes 0 for an empty cell, but 0 is a symbol of the "
             f"alphabet {puzzle.alphabet.describe()}; use the line format")
    return puzzle.to_line(empty="0")
