"""Helpers for hand-made technique positions, shared by the technique tests."""

from __future__ import annotations

from numberplace.logic import Board
from numberplace.logic.board import bit
from numberplace.shape import Shape, classic

S9 = classic(9)

#: A 9x9 jigsaw with irregular regions (made by random border moves from the boxes, kept
#: because it has solutions; trading one pair of cells across a box border never does).
JIGSAW_9 = """\
111123333
112223233
111222233
444555666
445555666
444455696
777888896
777889899
777889999
"""


def cell(name: str, shape: Shape = S9) -> int:
    """Cell index of a name such as ``r5c6``."""
    return shape.parse_cell(name)


def set_cands(board: Board, name: str, *values: int) -> None:
    """Give a cell exactly these candidates."""
    board.candidates[cell(name, board.shape)] = sum(bit(v) for v in values)


def keep_only(board: Board, value: int, house: list[int], *names: str) -> None:
    """Remove ``value`` from the cells of ``house`` except the named ones."""
    keep = {cell(n, board.shape) for n in names}
    for c in house:
        if c not in keep:
            board.eliminate(c, value)


def row(r: int) -> list[int]:
    """The cells of row ``r`` of a 9x9 grid."""
    return [cell(f"r{r}c{c}") for c in range(1, 10)]


def col(c: int) -> list[int]:
    """The cells of column ``c`` of a 9x9 grid."""
    return [cell(f"r{r}c{c}") for r in range(1, 10)]


def elims(*pairs: tuple[str, int], shape: Shape = S9) -> set[tuple[int, int]]:
    """(cell, value) pairs from (name, value) pairs."""
    return {(cell(n, shape), v) for n, v in pairs}
