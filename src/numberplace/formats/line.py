"""The ``line`` format: one puzzle per line, its cells in reading order.

``..9.5..6.3.219..87.6.3...`` has 81 characters for a 9x9 grid; the length tells the size
(16, 36, 64, 81, 144, 256 or 625 characters). ``.`` or ``0`` is an empty cell (``0`` only
while it is not a symbol, as it is in hexadoku). Another shape, such as diagonal, jigsaw or
Samurai (369 cells), is read when the caller names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, classic, samurai
from ._common import (
    LINE_LENGTHS,
    Context,
    Numbered,
    build,
    choose_alphabet,
    counted,
    fail,
    indent,
    line_values,
    only_line,
    with_article,
)

_WHITESPACE = re.compile(r"\s")


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a puzzle written on one line."""
    number, text = only_line(record)
    shape, alphabet, values = read_cells(number, text, ctx)
    return build(shape, values, alphabet, line=number)


def write(puzzle: Puzzle) -> str:
    """The givens on one line, ``.`` for an empty cell."""
    return puzzle.to_line()


def read_cells(number: int, text: str, ctx: Context) -> tuple[Shape, Alphabet, list[int]]:
    """Shape, alphabet and cell values of a one-line puzzle on line ``number``."""
    start = indent(text)
    body = text.strip()
    gap = _WHITESPACE.search(body)
    if gap:
        _refuse_gap(body, gap.start(), number, start, ctx.shape)
    shape = ctx.shape or _shape_of_length(len(body), number)
    if len(body) != shape.ncells:
        fail(length_message(len(body), shape), number)
    alphabet = choose_alphabet(shape.size, body, ctx.alphabet, number)
    return shape, alphabet, line_values(body, alphabet, number, start + 1)


def length_message(length: int, shape: Shape) -> str:
    """``80 characters, a 9x9 puzzle needs 81``."""
    return (f"{counted(length, 'character')}, {with_article(shape.name)} puzzle needs "
            f"{shape.ncells}")


def _shape_of_length(length: int, number: int) -> Shape:
    size = LINE_LENGTHS.get(length)
    if length == samurai().ncells:
        fail(f"{length} characters, as many as the cells of a Samurai; name the samurai shape "
             f"to read them", number)
    if size is None:
        # Name the size the writer most likely meant: one cell too few or too many is the
        # usual slip.
        nearest = min(LINE_LENGTHS, key=lambda n: (abs(n - length), n))
        fail(length_message(length, classic(LINE_LENGTHS[nearest])), number)
    return classic(size)


def _refuse_gap(body: str, at: int, number: int, start: int, shape: Shape | None) -> None:
    """Explain whitespace inside a puzzle line: trailing text, or a split puzzle."""
    head, rest = body[:at], body[at:]
    complete = len(head) == shape.ncells if shape else len(head) in LINE_LENGTHS
    if complete:
        fail(f"unexpected text after the {len(head)} cells of the puzzle",
             number, start + at + indent(rest) + 1)
    fail("whitespace inside the puzzle; the line format writes the cells side by side",
         number, start + at + 1)
