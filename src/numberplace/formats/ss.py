"""The Simple Sudoku ``.ss`` format: rows such as ``..3|.1.|...``, ``-----------`` between bands.

``.`` is an empty cell. Reading is the lenient reading of the ``grid`` format; writing puts
the cells of a box side by side, ``|`` between boxes and a line of dashes between bands
(a jigsaw has no boxes, so no separators).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.puzzle import Puzzle
from . import grid
from ._common import Context, Numbered, require_single_grid


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a Simple Sudoku grid."""
    if ctx.shape is not None:
        require_single_grid(ctx.shape, "ss")
    return grid.read(record, ctx)


def write(puzzle: Puzzle) -> str:
    """The grid in Simple Sudoku's layout."""
    require_single_grid(puzzle.shape, "ss")
    rows = grid.draw(puzzle, "", "|")
    return "\n".join("-" * len(row) if set(row) <= set("-+") else row for row in rows)
