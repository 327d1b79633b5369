"""The ``samurai`` format: a Samurai as five lines of 81 characters, one line per grid.

The grids come in the order top-left, top-right, centre, bottom-left, bottom-right, each
in reading order (``shape.grids[g]``). A cell that two grids share appears on both their
lines and must be written the same on both. Other multi-grid shapes work alike: one line
per grid.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, samurai
from ._common import (
    Context,
    Numbered,
    build,
    choose_alphabet,
    content_lines,
    counted,
    fail,
    indent,
    line_values,
    with_article,
)


def shape_of(ctx: Context) -> Shape:
    """The multi-grid shape to read: the given one, else the Samurai."""
    shape = ctx.shape or samurai()
    if len(shape.grids) < 2:
        fail(f"the samurai format holds several grids, {with_article(shape.name)} puzzle "
             f"has one")
    return shape


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read the lines of the grids of a Samurai."""
    shape = shape_of(ctx)
    lines = content_lines(record)
    count, per_grid = len(shape.grids), len(shape.grids[0])
    if len(lines) != count:
        fail(f"{counted(len(lines), 'line')}, {with_article(shape.name)} puzzle needs "
             f"{count} lines of {per_grid} characters", (lines[-1] if lines else record[0])[0])
    alphabet = choose_alphabet(shape.size, "", ctx.alphabet, lines[0][0])
    values: list[int | None] = [None] * shape.ncells
    first_line = [0] * shape.ncells
    for cells, (number, text) in zip(shape.grids, lines, strict=True):
        start = indent(text)
        grid_values = _grid_values(text, len(cells), alphabet, number)
        for offset, (cell, value) in enumerate(zip(cells, grid_values, strict=True)):
            if values[cell] is None:
                values[cell], first_line[cell] = value, number
            elif values[cell] != value:
                fail(_disagreement(shape, alphabet, cell, value, values[cell], first_line[cell]),
                     number, start + offset + 1)
    return build(shape, [v or 0 for v in values], alphabet, line=lines[0][0])


def write(puzzle: Puzzle) -> str:
    """One line per grid, ``.`` for an empty cell."""
    shape = puzzle.shape
    if len(shape.grids) < 2:
        fail(f"the samurai format holds several grids, {with_article(shape.name)} puzzle "
             f"has one")
    symbol = puzzle.alphabet.symbol
    return "\n".join("".join(symbol(puzzle.givens[c]) for c in cells) for cells in shape.grids)


def _grid_values(text: str, length: int, alphabet: Alphabet, number: int) -> list[int]:
    body = text.strip()
    if len(body) != length:
        fail(f"{counted(len(body), 'character')}, each grid line needs {length}", number)
    return line_values(body, alphabet, number, indent(text) + 1)


def _disagreement(shape: Shape, alphabet: Alphabet, cell: int, here: int, there: int | None,
                  there_line: int) -> str:
    return (f"cell {shape.cell_name(cell)}, shared by two grids, is {alphabet.symbol(here)!r} "
            f"on this line but {alphabet.symbol(there or 0)!r} on line {there_line}")
