"""The ``grid`` format: one row of the grid per line, as people paste it.

Between cells any of ``| - + =`` and spaces may stand; lines made only of such characters
(with ``.``, ``:``, ``'`` or ``*`` as corners) are box borders and are skipped, as are
comment lines starting with ``#``. An empty cell is ``.``, ``0`` or ``_``. The number of
cells in the first row tells the size (4, 6, 8, 9, 12, 16 or 25). Written grids have box
separators for shapes with boxes and none for jigsaw. A Samurai is delegated to the
``samurai-grid`` format.

The helpers here are shared with ``ss``, ``sdk`` and ``jigsaw``, which draw grids too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, classic
from . import samurai_grid
from ._common import (
    SIZE_WORDS,
    SIZES,
    Context,
    Numbered,
    build,
    choose_alphabet,
    fail,
    is_comment,
    is_single_grid,
    not_a_symbol,
    require_single_grid,
    with_article,
)

#: Characters that may stand between cells.
SEPARATORS = frozenset("|+-=")
#: Characters a box-border line is made of.
BORDER_CHARS = frozenset("-=+|.:'*")
#: Characters read as an empty cell besides the alphabet's own (``.`` and ``0``).
EXTRA_EMPTIES = "_"

_RULE = re.compile(r"[-=]{2}")
#: Tokens that stand for an empty cell in a grid written in numbers.
_NUMBER_EMPTIES = frozenset({".", "-", "_", "0"})
_TOKEN = re.compile(r"[^\s|]+")


@dataclass(frozen=True)
class Row:
    """The cells of one line of a grid: (column from 1, character) pairs."""

    line: int
    cells: tuple[tuple[int, str], ...]


def is_border(text: str) -> bool:
    """True for a line such as ``------+-------+------`` that separates bands of boxes."""
    body = "".join(text.split())
    # A run of dashes tells a border from a row of empty cells with '-' between them.
    return bool(_RULE.search(body)) and all(ch in BORDER_CHARS for ch in body)


def grid_rows(record: Sequence[Numbered], alphabet: Alphabet | None = None,
              width: int | None = None) -> list[Row]:
    """The rows of cells in a record, skipping borders, comments and blank lines.

    A ``-`` stands between cells, unless the rows are only square with each ``-`` a cell
    (``5---B--0...``, a hexadoku with ``-`` for an empty cell): then it is an empty cell.
    ``width`` is the row length of a shape asked for, if any.
    """
    symbols = set(alphabet.symbols) if alphabet else set()
    lines = [(number, text) for number, text in record
             if not (is_comment(text) or is_border(text))]
    rows = _cells(lines, symbols, SEPARATORS)
    if any("-" in text for _, text in lines):
        dashed = _cells(lines, symbols | {"-"}, SEPARATORS)
        if _is_square(dashed, width) and not _is_square(rows, width):
            return [Row(row.line, tuple((col, "." if ch == "-" else ch) for col, ch in row.cells))
                    for row in dashed]
    return rows


def _cells(lines: Sequence[Numbered], symbols: set[str], separators: frozenset[str]
           ) -> list[Row]:
    rows = []
    for number, text in lines:
        cells = tuple((col, ch) for col, ch in enumerate(text, start=1)
                      if ch in symbols or not (ch.isspace() or ch in separators))
        if cells:
            rows.append(Row(number, cells))
    return rows


def _is_square(rows: Sequence[Row], width: int | None) -> bool:
    """True if every row has as many cells as there are rows (or as ``width`` asks)."""
    side = width or len(rows)
    return bool(rows) and side in SIZES + ((width,) if width else ()) \
        and len(rows) == side and all(len(row.cells) == side for row in rows)


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a grid drawn one row per line."""
    if ctx.shape is not None and not is_single_grid(ctx.shape):
        return samurai_grid.read(record, ctx)
    width = ctx.shape.canvas[1] if ctx.shape is not None else None
    numbers = number_rows(record, width)
    if numbers is not None:
        shape, alphabet, givens = read_cells(
            numbers, ctx, record, "cells",
            lambda size, _chars, given, _line: given or Alphabet.default(size),
            lambda token, _alphabet, _line, _col: 0 if token in _NUMBER_EMPTIES else int(token))
        return build(shape, givens, alphabet, line=numbers[0].line)
    return read_rows(grid_rows(record, ctx.alphabet, width), ctx, record)


def number_rows(record: Sequence[Numbered], width: int | None = None) -> list[Row] | None:
    """The rows of a grid written in numbers apart by spaces (``11 12 - 16 ...``), as
    janko.at and many sources of 16x16 and 25x25 puzzles write values over 9; None for
    any other text. Each row holds as many numbers (1 to the size) or empty marks (``.``,
    ``-``, ``_``, ``0``) as there are rows, no number twice in a row, and some number
    over 9: a pencil-mark grid's ``12`` is two candidates, but no row of one holds only
    numbers up to the size, each once."""
    # a border has a run of dashes; a row of empty cells written "-  -  -" has none
    rows = [Row(number, tuple((m.start() + 1, m.group()) for m in _TOKEN.finditer(text)))
            for number, text in record
            if text.strip() and not is_comment(text)
            and not (is_border(text) and _RULE.search(text))]
    side = width or len(rows)
    if side <= 9 or (width is None and side not in SIZES) or len(rows) != side:
        return None
    over_nine = False
    for row in rows:
        if len(row.cells) != side:
            return None
        values = [int(token) for _, token in row.cells if token not in _NUMBER_EMPTIES
                  and token.isdigit() and token.isascii()]
        if len(values) != sum(token not in _NUMBER_EMPTIES for _, token in row.cells) \
                or len(set(values)) != len(values) or not all(1 <= v <= side for v in values):
            return None
        over_nine = over_nine or any(v > 9 for v in values)
    return rows if over_nine else None


def read_rows(rows: Sequence[Row], ctx: Context, record: Sequence[Numbered]) -> Puzzle:
    """The puzzle whose rows of cells these are, on the given shape or the one they fit."""
    shape, alphabet, givens = read_cells(rows, ctx, record, "cells", choose_alphabet,
                                         cell_value)
    return build(shape, givens, alphabet, line=rows[0].line)


def read_cells(rows: Sequence[Row], ctx: Context, record: Sequence[Numbered], what: str,
               pick_alphabet: Callable[[int, str, Alphabet | None, int], Alphabet],
               read_cell: Callable[[str, Alphabet, int, int], int], one_grid: str = ""
               ) -> tuple[Shape, Alphabet, list[int]]:
    """The shape (given, or the one the rows fit), the alphabet ``pick_alphabet`` chooses
    from all the cells' text, and each cell's number as ``read_cell`` reads it from its
    text, line and column. ``one_grid`` names a format that holds a single grid only."""
    if not rows:
        fail(f"no rows of {what} here", record[0][0] if record else None)
    shape = ctx.shape or shape_of_row(rows[0])
    if one_grid:
        require_single_grid(shape, one_grid)
    check_rows(rows, shape)
    chars = "".join(text for row in rows for _, text in row.cells)
    alphabet = pick_alphabet(shape.size, chars, ctx.alphabet, rows[0].line)
    numbers = [0] * shape.ncells
    for r, row in enumerate(rows):
        for c, (col, text) in enumerate(row.cells):
            numbers[shape.cell_at[(r, c)]] = read_cell(text, alphabet, row.line, col)
    return shape, alphabet, numbers


def cell_value(ch: str, alphabet: Alphabet, line: int, column: int) -> int:
    """The value of one drawn cell."""
    value = alphabet.value(ch)
    if value is None:
        if ch in EXTRA_EMPTIES:
            return 0
        fail(not_a_symbol(ch, alphabet), line, column)
    return value


def check_rows(rows: Sequence[Row], shape: Shape) -> None:
    """Every row holds a row of the shape, and there are as many rows as the shape has."""
    height, width = shape.canvas
    grid = with_article(shape.name) + " grid"
    for r, row in enumerate(rows):
        if r == height:
            fail(f"more than {height} rows; {grid} has {height}", row.line, row.cells[0][0])
        if len(row.cells) < width:
            fail(f"{len(row.cells)} cells, a row of {grid} needs {width}", row.line)
        if len(row.cells) > width:
            fail(f"more than {width} cells; a row of {grid} has {width}",
                 row.line, row.cells[width][0])
    if len(rows) < height:
        fail(f"{len(rows)} rows, {grid} needs {height}", rows[-1].line)


def shape_of_row(row: Row) -> Shape:
    """The classic shape whose rows have as many cells as this one."""
    size = len(row.cells)
    if size not in SIZES:
        fail(f"{size} cells in the first row; a grid row has {SIZE_WORDS} cells", row.line)
    return classic(size)


def cell_symbols(puzzle: Puzzle) -> list[list[str]]:
    """The symbols of a single-grid puzzle, row by row, ``.`` for empty cells."""
    symbol = puzzle.alphabet.symbol
    return [[symbol(v) for v in row] for row in puzzle.rows()]


def draw(puzzle: Puzzle, cell_gap: str, box_gap: str) -> list[str]:
    """The rows of a single grid, boxes set apart by ``box_gap`` and border lines."""
    shape = puzzle.shape
    rows = cell_symbols(puzzle)
    if shape.box is None:
        return [cell_gap.join(row) for row in rows]
    band, stack = shape.box
    out = []
    for r, row in enumerate(rows):
        text = box_gap.join(cell_gap.join(row[c:c + stack]) for c in range(0, len(row), stack))
        if r and r % band == 0:
            # The border follows the row it sits under, '+' where a box gap has its '|'.
            out.append("".join("+" if ch == "|" else "-" for ch in text))
        out.append(text)
    return out


def write(puzzle: Puzzle) -> str:
    """A pretty grid: cells apart by spaces, boxes by ``|`` and border lines."""
    if not is_single_grid(puzzle.shape):
        return samurai_grid.write(puzzle)
    return "\n".join(draw(puzzle, " ", " | "))
