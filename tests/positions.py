"""Helpers for hand-made positions and boards, shared by the logic and render tests."""

from __future__ import annotations

from numberplace import engine, formats
from numberplace.engine.grids import minimal_puzzle, random_grid
from numberplace.logic import Board
from numberplace.logic.audit import Audit, audit
from numberplace.logic.board import bit
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic

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


def open_board(source: Shape | Puzzle | str = S9, **parse_options: object) -> Board:
    """A board to mark up or draw.

    Given a shape (9x9 when nothing is given): no values and every candidate everywhere,
    a blank slate. Given a puzzle, or its text (read by :func:`formats.parse` with
    ``parse_options``, e.g. ``shape="samurai"``): the board of its givens and pencil marks.
    """
    if isinstance(source, Shape):
        full = (1 << source.size) - 1
        return Board(source, [0] * source.ncells, [full] * source.ncells)
    if isinstance(source, str):
        source = formats.parse(source, **parse_options)  # type: ignore[arg-type]
    return Board.from_puzzle(source)


#: A solved 9x9 grid, for boards with a few cells left open.
SOLUTION = ("534678912672195348198342567859761423426853791"
            "713924856961537284287419635345286179")


def near_solved(*empty: str) -> Board:
    """The board of :data:`SOLUTION` with these cells (names such as ``r1c1``) open."""
    values = [int(ch) for ch in SOLUTION]
    for name in empty:
        values[cell(name)] = 0
    return Board.from_puzzle(Puzzle(S9, tuple(values)))


def cell(name: str, shape: Shape = S9) -> int:
    """Cell index of a name such as ``r5c6``."""
    return shape.parse_cell(name)


def cells(*names: str) -> list[int]:
    """Cell indexes of 9x9 names."""
    return [cell(n) for n in names]


def set_cands(board: Board, name: str, *values: int) -> None:
    """Give a cell exactly these candidates."""
    board.candidates[cell(name, board.shape)] = sum(bit(v) for v in values)


def remove(board: Board, value: int, where: list[int]) -> None:
    """Remove ``value`` from the cells ``where``."""
    for c in where:
        board.eliminate(c, value)


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


def assert_sound(puzzle: Puzzle, probe: list[str] | None = None,
                 solution: tuple[int, ...] | None = None, **options: object) -> Audit:
    """Audit ``puzzle`` (against its engine solution unless one is given) and fail on
    any unsound step; returns the audit for its counts."""
    if solution is None:
        solution = engine.solve(puzzle).solution
        assert solution is not None
    report = audit(puzzle, solution, probe, **options)  # type: ignore[arg-type]
    assert not report.faults, report.faults[0]
    return report


def audit_lines(lines: list[str], probe: list[str] | None = None, **options: object) -> Audit:
    """Sound-check every puzzle line; the merged audit."""
    total = Audit()
    for line in lines:
        total.merge(assert_sound(formats.parse(line), probe, **options))
    return total


def audit_generated(shape: Shape, seeds: range | tuple[int, ...], probe: list[str] | None,
                    **options: object) -> Audit:
    """Sound-check minimal puzzles made from random grids of ``shape``."""
    total = Audit()
    for seed in seeds:
        solution = random_grid(shape, seed)
        tries = None if shape.ncells <= 81 else shape.ncells // 2
        puzzle = minimal_puzzle(shape, solution, seed, tries=tries)
        total.merge(assert_sound(puzzle, probe, solution=solution, **options))
    return total


def bivalue_chain(last: tuple[int, int]) -> Board:
    """r1c1 {1,2}, r1c5 {2,3}, r5c5 {3,4} and r5c9 ``last`` on an open board: with
    ``last`` {4,1}, r1c1 or r5c9 holds 1 (an XY-Chain, an ALS-XY-Chain)."""
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c5", 2, 3)
    set_cands(board, "r5c5", 3, 4)
    set_cands(board, "r5c9", *last)
    return board
