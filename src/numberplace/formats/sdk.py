"""The SadMan Software ``.sdk`` format.

Lines starting with ``#`` carry metadata (``#A`` author, ``#D`` description, ...) and are
skipped; ``[Section]`` lines open sections. The grid rows are those of the ``[Puzzle]``
section, or, without one, the rows before the first section: one row per line, ``.`` for
an empty cell. Other sections (``[State]``, ...) are skipped. Writing gives a minimal file:
``[Puzzle]`` and the rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.puzzle import Puzzle
from . import grid
from ._common import Context, Numbered, is_comment, require_single_grid

_SECTION = re.compile(r"\[([^\[\]]*)\]")


def section_name(text: str) -> str | None:
    """The name of a ``[Section]`` line, lower case; None for other lines."""
    match = _SECTION.fullmatch(text.strip())
    return match.group(1).strip().lower() if match else None


def puzzle_lines(record: Sequence[Numbered]) -> list[Numbered]:
    """The lines of the puzzle grid: its section, or what precedes the first section."""
    before: list[Numbered] = []
    inside: list[Numbered] = []
    section: str | None = None
    seen_puzzle = False
    for number, text in record:
        name = section_name(text)
        if name is not None:
            section = name
            seen_puzzle = seen_puzzle or name == "puzzle"
        elif is_comment(text):
            continue
        elif section is None:
            before.append((number, text))
        elif section == "puzzle":
            inside.append((number, text))
    return inside if seen_puzzle else before


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a SadMan Software puzzle."""
    if ctx.shape is not None:
        require_single_grid(ctx.shape, "sdk")
    lines = puzzle_lines(record)
    return grid.read_rows(grid.grid_rows(lines, ctx.alphabet), ctx, lines or record)


def write(puzzle: Puzzle) -> str:
    """A minimal ``.sdk`` file: the ``[Puzzle]`` section and its rows."""
    require_single_grid(puzzle.shape, "sdk")
    return "\n".join(["[Puzzle]"] + ["".join(row) for row in grid.cell_symbols(puzzle)])
