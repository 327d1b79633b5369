"""The ``samurai-grid`` format: a Samurai drawn on its 21x21 canvas, one canvas row a line.

Cells are symbols or ``.`` / ``0`` for empty; canvas positions outside the five grids are
gaps, written as spaces (``#`` is read as a gap too). Trailing gaps may be left off a
line. Any shape can be drawn this way; a Samurai is assumed when none is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.puzzle import Puzzle
from ..model.shape import samurai
from ._common import (
    Context,
    Numbered,
    build,
    choose_alphabet,
    counted,
    fail,
    is_blank,
    is_comment,
    not_a_symbol,
    with_article,
)

#: Characters read as a canvas position that is not a cell.
GAPS = " #"


def canvas_lines(record: Sequence[Numbered]) -> list[Numbered]:
    """The canvas rows: leading comment lines and blank lines left out.

    Only comments before the first row count, since a row may begin with ``#`` gaps.
    """
    lines = [item for item in record if not is_blank(item[1])]
    while lines and is_comment(lines[0][1]):
        lines.pop(0)
    return lines


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a puzzle drawn on its canvas."""
    shape = ctx.shape or samurai()
    height, width = shape.canvas
    lines = canvas_lines(record)
    if len(lines) != height:
        fail(f"{len(lines)} rows, {with_article(shape.name)} canvas has {height}",
             (lines[-1] if lines else record[0])[0])
    placed: list[tuple[int, int, int, str]] = []  # cell, line, column, character
    for r, (number, text) in enumerate(lines):
        text = text.rstrip()
        if len(text) > width:
            fail(f"{counted(len(text), 'character')}, {with_article(shape.name)} canvas is "
                 f"{width} wide",
                 number, width + 1)
        for c, ch in enumerate(text.ljust(width)):
            cell = shape.cell_at.get((r, c))
            if cell is None and ch not in GAPS:
                fail(f"{ch!r} outside the grids; write a space there", number, c + 1)
            if cell is not None:
                if ch in GAPS:
                    fail(f"a gap where cell {shape.cell_name(cell)} belongs", number, c + 1)
                placed.append((cell, number, c + 1, ch))
    alphabet = choose_alphabet(shape.size, "".join(p[3] for p in placed), ctx.alphabet,
                               lines[0][0])
    givens = [0] * shape.ncells
    for cell, number, column, ch in placed:
        value = alphabet.value(ch)
        if value is None:
            fail(not_a_symbol(ch, alphabet), number, column)
        givens[cell] = value
    return build(shape, givens, alphabet, line=lines[0][0])


def write(puzzle: Puzzle) -> str:
    """The canvas, a row a line, spaces for gaps, no trailing spaces."""
    symbol = puzzle.alphabet.symbol
    return "\n".join("".join(" " if v < 0 else symbol(v) for v in row).rstrip()
                     for row in puzzle.rows())
