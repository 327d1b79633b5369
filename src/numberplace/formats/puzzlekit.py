"""The ``puzzlekit`` format: a Kakuro as the puzzlekit solvers and their open dataset write it::

    3 3
    - 4, 10,
    ,3 0 0
    ,11 0 0

A record starts with a header ``ROWS COLS``, then come ROWS rows of COLS squares apart by
spaces: ``-`` a block, ``0`` a white cell, and a clue square ``down,across``, each side
the sum of its run (below it, right of it) or left empty where there is none (``16,``,
``,23``, ``16,23``). A digit 1-9 in a white cell is a value already written in: solutions
are written so, and read back. Records follow one another; blank lines between them are
optional, and a header starts the next one.

The dataset keeps each solution in a grid of its own, every square that is not a white
cell written ``-``: it has no sums, so it is no puzzle, and reading one says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..errors import ShapeError
from ..model.puzzle import Puzzle
from ..model.shape import KakuroSquare, kakuro
from ._common import Context, Numbered, fail, is_blank, is_comment
from .kakuro import UNKNOWN, Squares, is_kakuro, layout

#: A header: rows and columns (six digits at most: no absurd number is ever converted).
_HEADER = re.compile(r"\s*([0-9]{1,6})\s+([0-9]{1,6})\s*")
#: A clue square: its down and across sums, either one empty where there is no run.
_CLUE = re.compile(r"([0-9]{0,3}),([0-9]{0,3})")
#: A side of a clue square, or a ``-`` where puzzlekit leaves the side empty.
_SIDE_OR_DASH = re.compile(r"[0-9]{0,3}|-")
#: The largest grid a header may announce (a bound on what a record holds in memory).
MAX_SIDE = 100
#: How the format writes a block and an empty white cell.
BLOCK = "-"
WHITE = "0"


def header(text: str) -> tuple[int, int] | None:
    """The rows and columns a record's header line announces, or None if it is none."""
    m = _HEADER.fullmatch(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def looks_like(rows: Sequence[str]) -> bool:
    """True when the text opens with a header, the row below holds as many squares as the
    header announces columns, and a square of the grid is a clue.

    The clue tells a Kakuro from a grid of digits and ``-`` under the same header, which
    is how puzzlekit writes other puzzles (and Kakuro solutions).
    """
    size = header(rows[0]) if rows else None
    if size is None or len(rows) < 2:
        return False
    tokens = rows[1].split()
    if len(tokens) != size[1] or not all(_square(t) is not UNKNOWN for t in tokens):
        return False
    return any(_is_clue(t) for row in rows[1:size[0] + 1] for t in row.split())


def _is_clue(token: str) -> bool:
    m = _CLUE.fullmatch(token)
    return m is not None and any(m.groups())


def records(numbered: Iterable[Numbered]) -> Iterator[tuple[list[Numbered], str | None]]:
    """Split a stream into records, each a header and the rows it announces.

    Yields each record's lines and, for lines that make no record, why. Blank lines may
    stand between the rows; a header where a row is due ends a record short. Rows past the
    announced ones, before a blank line, stay with their record, whose reader names them.
    """
    lines: list[Numbered] = []  # the record being read, its header first
    need = 0  # rows still due to it
    stray: list[Numbered] = []  # lines that make no record, and why
    why = _STRAY
    for item in numbered:
        text = item[1]
        if is_comment(text):
            continue
        blank = is_blank(text)
        found = None if blank else header(text)
        if lines and need:
            if blank:
                continue
            if found is None:
                lines.append(item)
                need -= 1
                continue
            yield lines, _short(lines, "a header comes where a row is due")
            lines = []
        elif lines:  # complete: what follows it tells whether it goes on
            if not blank and found is None:
                lines.append(item)
                continue
            yield lines, None
            lines = []
        if blank:
            continue
        if found is None:
            stray.append(item)
            continue
        if stray:
            yield stray, why
            stray, why = [], _STRAY
        if not 1 <= found[0] <= MAX_SIDE or not 1 <= found[1] <= MAX_SIDE:
            stray = [item]  # its rows, however many, belong to this error
            why = (f"a puzzlekit grid has 1 to {MAX_SIDE} rows and columns, not "
                   f"{found[0]}x{found[1]}")
            continue
        lines, need = [item], found[0]
    if stray:
        yield stray, why
    if lines:
        yield lines, _short(lines, "the text ends there") if need else None


_STRAY = "not a puzzlekit record: a record starts with a header 'ROWS COLS'"


def _short(lines: Sequence[Numbered], why: str) -> str:
    size = header(lines[0][1])
    assert size is not None  # a record's first line is its header
    return f"the record ends after {len(lines) - 1} of its {size[0]} rows: {why}"


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read one record: the header and its rows of squares."""
    lines = [item for item in record if not is_blank(item[1]) and not is_comment(item[1])]
    if not lines:
        fail("no puzzlekit record here", record[0][0] if record else None)
    start = lines[0][0]
    size = header(lines[0][1])
    if size is None:
        fail(_STRAY, start)
    rows, cols = size
    body = lines[1:]
    if len(body) > rows:
        fail(f"a row past the {rows} that the header on line {start} announces",
             body[rows][0])
    if len(body) < rows:
        fail(f"the record ends after {len(body)} of its {rows} rows", start)
    squares: list[list[KakuroSquare]] = []
    givens: list[int] = []  # white squares in reading order are the shape's cells
    clued = False
    for number, text in body:
        found = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]
        if len(found) != cols:
            column = found[cols][0] if len(found) > cols else None
            fail(f"{len(found)} squares in this row, the header says {cols}", number, column)
        row: list[KakuroSquare] = []
        for column, token in found:
            square = _square(token)
            if square is UNKNOWN:
                fail(_not_a_square(token), number, column)
            if square is None:
                givens.append(int(token))
            elif square != (None, None):
                clued = True
            row.append(square)
        squares.append(row)
    if not clued:
        fail("a puzzlekit solution grid, without its clue squares: no sums to solve by; "
             "read the puzzle" if any(givens) else
             "no clue square in this grid (a clue is written 16, or ,23 or 16,23)", start)
    try:
        shape = kakuro(squares)
    except ShapeError as exc:  # it names the square by row and column of the grid
        fail(str(exc), start)
    return Puzzle(shape, tuple(givens))


_square = Squares({BLOCK: (None, None), **dict.fromkeys(WHITE + "123456789", None)}, _CLUE)


def _not_a_square(token: str) -> str:
    sides = token.split(",")
    if len(sides) == 2 and all(_SIDE_OR_DASH.fullmatch(s) for s in sides):
        meant = ",".join("" if s == "-" else s for s in sides)
        return (f"{token!r} is not a puzzlekit clue: a side without a clue is left empty "
                f"({meant!r})" if meant != "," else f"{token!r} is not a puzzlekit square: "
                f"a block is {BLOCK!r}")
    return f"{token!r} is not a puzzlekit square (-, 0, a digit, or a clue like 16,23)"


def write(puzzle: Puzzle) -> str:
    """The record: the header, then the rows of squares apart by single spaces."""
    shape = puzzle.shape
    if not is_kakuro(shape):
        fail(f"the puzzlekit format holds Kakuro grids, not {shape.name}")
    values = dict(zip(shape.coords, puzzle.givens, strict=True))
    squares = layout(shape)
    rows = [" ".join(_token(square, values.get((r, c), 0)) for c, square in enumerate(row))
            for r, row in enumerate(squares)]
    return "\n".join([f"{len(squares)} {len(squares[0])}", *rows])


def _token(square: KakuroSquare, value: int) -> str:
    if square is None:
        return str(value) if value else WHITE
    down, across = square
    if down is None and across is None:
        return BLOCK
    return f"{'' if down is None else down},{'' if across is None else across}"
