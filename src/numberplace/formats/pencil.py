"""The ``pencil`` format: a grid of pencil marks, as HoDoKu and Sudoku Explainer print it.

Each cell is written as its candidates (``1248``); a solved or given cell as its one
value; ``.`` a cell with no candidate left. Cells are apart by spaces and ``|``; lines of
``- + . : '`` are box borders; columns are padded to equal width::

    +----------------+----------------+----------------+
    | 1248  5     23 | ...

Reading sets the puzzle's candidates. The format has no mark for a placed digit, so a
cell written as one value is read as placed only when no peer still holds that value as a
candidate; otherwise it is a naked single the player has not taken yet and stays an
unsolved cell with one candidate, for a hint to find. Writing a puzzle without
candidates pencils in, for each empty cell, the values that no given peer holds; a given
is written as its one value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ._common import (
    Context,
    Numbered,
    build,
    candidate_masks,
    choose_alphabet,
    fail,
    hexadecimal_alphabet,
    is_comment,
    mask_symbols,
    not_a_symbol,
    placed_values,
    require_single_grid,
)
from .grid import Row, is_border, read_cells

_TOKEN = re.compile(r"[^\s|]+")


def token_rows(record: Sequence[Numbered]) -> list[Row]:
    """The rows of cells, each cell its whole token, skipping borders and comments."""
    rows = []
    for number, text in record:
        if is_comment(text) or is_border(text):
            continue
        tokens = tuple((m.start() + 1, m.group()) for m in _TOKEN.finditer(text))
        if tokens:
            rows.append(Row(number, tokens))
    return rows


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a grid of pencil marks."""
    rows = token_rows(record)
    shape, alphabet, masks = read_cells(rows, ctx, record, "pencil marks", _alphabet, _mask,
                                        one_grid="pencil")
    return build(shape, placed_values(shape, masks), alphabet, masks, rows[0].line)


def write(puzzle: Puzzle) -> str:
    """The pencil-mark grid, columns padded to equal width, boxes framed."""
    shape = puzzle.shape
    require_single_grid(shape, "pencil")
    alphabet = puzzle.alphabet
    height, width = shape.canvas
    masks = candidate_masks(puzzle)
    marks = [[mask_symbols(masks[shape.cell_at[(r, c)]], alphabet) or "." for c in range(width)]
             for r in range(height)]
    widths = [max(len(row[c]) for row in marks) for c in range(width)]
    band, stack = shape.box or (height, width)
    stacks = [range(c, c + stack) for c in range(0, width, stack)]
    border = "+" + "+".join("-" * (sum(widths[c] for c in cols) + 2 * len(cols)) for cols in stacks)
    border += "+"
    out = []
    for r, row in enumerate(marks):
        if r % band == 0:
            out.append(border)
        boxes = ("  ".join(row[c].ljust(widths[c]) for c in cols) for cols in stacks)
        out.append("| " + " | ".join(boxes) + " |")
    out.append(border)
    return "\n".join(out)


def _mask(token: str, alphabet: Alphabet, line: int, column: int) -> int:
    if len(token) == 1 and alphabet.value(token) == 0:
        return 0
    mask = 0
    for i, ch in enumerate(token):
        value = alphabet.value(ch)
        if not value:
            message = (not_a_symbol(ch, alphabet) if value is None
                       else f"{ch!r} among candidates; a cell without candidates is a lone '.'")
            fail(message, line, column + i)
        mask |= 1 << (value - 1)
    return mask


def _alphabet(size: int, chars: str, given: Alphabet | None, line: int) -> Alphabet:
    # A '0' among candidates is never an empty cell, so with no 'G' it means hexadoku.
    if given is None and size == 16 and "0" in chars and not set("Gg") & set(chars):
        return hexadecimal_alphabet()
    return choose_alphabet(size, "", given, line)
