r"""The ``kakuro`` format: the grid row by row, its squares separated by spaces::

    #    4\   10\
    \3   .    .
    \11  .    .

A square is a block (``#`` or ``X``; a row of blocks alone is written with ``X``, as
a line of ``#`` would be a comment), a white cell (``.``, ``0`` or ``_``; a digit 1-9
for a value already written in), or a clue square ``down\across`` with either side empty
(``16\``, ``\24``, ``17\23``), as most published collections and solvers write them. The
clues make the shape: each clue belongs to the run of white cells right of it (across)
or below it (down).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import ShapeError
from ..model.puzzle import Puzzle
from ..model.shape import KakuroSquare, Shape, is_across, kakuro
from ._common import Context, Numbered, content_lines, fail

BLOCKS = frozenset({"#", "X", "x"})
WHITES = frozenset({".", "0", "_"})
VALUES = frozenset("123456789")
CLUE = re.compile(r"([0-9]*)\\([0-9]*)")


def looks_like(rows: Sequence[str]) -> bool:
    """True when some square of the text is a ``down\\across`` clue."""
    return any(CLUE.fullmatch(token) for row in rows for token in row.split())


def is_kakuro(shape: Shape) -> bool:
    """True for a shape made of runs with clue squares (and no houses)."""
    return not shape.houses and bool(shape.cages) and all(c.clue for c in shape.cages)


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read one Kakuro grid."""
    lines = content_lines(record)  # rows starting with a block '#' are rows, not comments
    if not lines:
        fail("no Kakuro grid here", record[0][0] if record else None)
    layout: list[list[KakuroSquare]] = []
    givens: list[int] = []  # white squares in reading order are the shape's cells
    for number, text in lines:
        tokens = text.split()
        row = [_known(token) for token in tokens]
        if UNKNOWN in row:  # not a square: the error names its column
            row = [_square(token, number, column) for column, token in _tokens(text)]
        if layout and len(row) != len(layout[0]):
            fail(f"{len(row)} squares in this row, {len(layout[0])} in the first", number)
        layout.append(row)
        if None in row:
            givens += [_GIVEN.get(token, 0) for token, square in zip(tokens, row, strict=True)
                       if square is None]
    try:
        shape = kakuro(layout)
    except ShapeError as exc:
        fail(str(exc), lines[0][0])
    return Puzzle(shape, tuple(givens))


def _tokens(text: str) -> list[tuple[int, str]]:
    """The squares of a row with their columns (from 1)."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]


def _square(token: str, line: int, column: int) -> KakuroSquare:
    square = _known(token)
    if square is UNKNOWN:
        fail(f"{token!r} is not a Kakuro square (#, ., a digit, or a clue like 17\\23)",
             line, column)
    return square


#: Stands for a token that is no square.
UNKNOWN: KakuroSquare = (-1, -1)


class Squares:
    """The square each token of a Kakuro text stands for: the fixed tokens (blocks,
    white cells, values) by a table, clues by a pattern of two groups (down, across; an
    empty group is no clue). A grid repeats few clue tokens (sums are small numbers), so
    each is remembered once read: a look-up is much quicker than a match."""

    #: The most clue tokens remembered.
    KEPT = 4096

    def __init__(self, fixed: dict[str, KakuroSquare], clue: re.Pattern[str]) -> None:
        self.known = dict(fixed)
        self.clue = clue

    def __call__(self, token: str) -> KakuroSquare:
        """The square ``token`` stands for (None a white cell), or :data:`UNKNOWN`."""
        square = self.known.get(token, UNKNOWN)
        if square is not UNKNOWN:
            return square
        m = self.clue.fullmatch(token)
        if m is None:
            return UNKNOWN
        down, across = (int(g) if g else None for g in m.groups())
        if len(self.known) < self.KEPT:
            self.known[token] = (down, across)
        return (down, across)


_known = Squares({**dict.fromkeys(BLOCKS, (None, None)),
                  **dict.fromkeys(WHITES | VALUES, None)}, CLUE)
_GIVEN = {v: int(v) for v in VALUES}


def layout(shape: Shape) -> list[list[KakuroSquare]]:
    """A Kakuro's squares row by row, as :func:`~numberplace.model.shape.kakuro` takes them: None
    for a white cell, ``(down, across)`` for a clue square (None on a side without a clue)
    and ``(None, None)`` for a block. The Kakuro writers all start from it."""
    rows, cols = shape.canvas
    squares: list[list[KakuroSquare]] = [[(None, None)] * cols for _ in range(rows)]
    for r, c in shape.coords:
        squares[r][c] = None
    clues: dict[tuple[int, int], list[int | None]] = {}
    for cage in shape.cages:
        assert cage.clue is not None  # a Kakuro's runs all have their clue square
        clues.setdefault(cage.clue, [None, None])[is_across(shape, cage)] = cage.total
    for (r, c), (down, across) in clues.items():
        squares[r][c] = (down, across)
    return squares


def write(puzzle: Puzzle) -> str:
    """The grid, its columns aligned."""
    shape = puzzle.shape
    if not is_kakuro(shape):
        fail(f"the kakuro format holds Kakuro grids, not {shape.name}")
    values = dict(zip(shape.coords, puzzle.givens, strict=True))
    tokens = [[_token(square, values.get((r, c), 0)) for c, square in enumerate(row)]
              for r, row in enumerate(layout(shape))]
    for row in tokens:
        if all(t == "#" for t in row):  # a row of blocks alone would read as a comment
            row[:] = ["X"] * len(row)
    width = max(len(t) for row in tokens for t in row)
    return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in tokens)


def _token(square: KakuroSquare, value: int) -> str:
    if square is None:
        return str(value) if value else "."
    down, across = square
    if down is None and across is None:
        return "#"
    return f"{'' if down is None else down}\\{'' if across is None else across}"
