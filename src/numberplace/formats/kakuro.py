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
from ..puzzle import Puzzle
from ..shape import KakuroSquare, Shape, is_across, kakuro
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
    values: dict[tuple[int, int], int] = {}
    for r, (number, text) in enumerate(lines):
        row: list[KakuroSquare] = []
        for c, (column, token) in enumerate(_tokens(text)):
            row.append(_square(token, number, column))
            if token in VALUES:
                values[(r, c)] = int(token)
        if layout and len(row) != len(layout[0]):
            fail(f"{len(row)} squares in this row, {len(layout[0])} in the first", number)
        layout.append(row)
    try:
        shape = kakuro(layout)
    except ShapeError as exc:
        fail(str(exc), lines[0][0])
    givens = tuple(values.get(rc, 0) for rc in shape.coords)
    return Puzzle(shape, givens)


def _tokens(text: str) -> list[tuple[int, str]]:
    """The squares of a row with their columns (from 1)."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]


def _square(token: str, line: int, column: int) -> KakuroSquare:
    if token in BLOCKS:
        return (None, None)
    if token in WHITES:
        return None
    if token in VALUES:
        return None  # a value already written in
    m = CLUE.fullmatch(token)
    if m is None:
        fail(f"{token!r} is not a Kakuro square (#, ., a digit, or a clue like 17\\23)",
             line, column)
    down, across = (int(g) if g else None for g in m.groups())
    return (down, across)


def write(puzzle: Puzzle) -> str:
    """The grid, its columns aligned."""
    shape = puzzle.shape
    if not is_kakuro(shape):
        fail(f"the kakuro format holds Kakuro grids, not {shape.name}")
    rows, cols = shape.canvas
    tokens = [["#"] * cols for _ in range(rows)]
    for cell, (r, c) in enumerate(shape.coords):
        v = puzzle.givens[cell]
        tokens[r][c] = str(v) if v else "."
    clues: dict[tuple[int, int], list[str]] = {}
    for cage in shape.cages:
        assert cage.clue is not None  # is_kakuro
        clues.setdefault(cage.clue, ["", ""])[is_across(shape, cage)] = str(cage.total)
    for (r, c), (down, across) in clues.items():
        tokens[r][c] = f"{down}\\{across}"
    for row in tokens:
        if all(t == "#" for t in row):  # a row of blocks alone would read as a comment
            row[:] = ["X"] * len(row)
    width = max(len(t) for row in tokens for t in row)
    return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in tokens)
