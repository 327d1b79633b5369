"""The board: givens and pencil marks, placing, eliminating, copying, contradictions."""

from __future__ import annotations

from numberplace.logic import Board
from numberplace.logic.board import bit
from numberplace.model.puzzle import Puzzle

from positions import S9, cell, open_board, remove, row

FULL = (1 << 9) - 1


def test_board_from_puzzle_uses_givens_and_pencil_marks() -> None:
    givens = [0] * 81
    givens[cell("r1c1")] = 5
    givens[cell("r2c5")] = 7
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    assert board.values[cell("r1c1")] == 5 and board.candidates[cell("r1c1")] == 0
    assert board.candidates[cell("r1c9")] == FULL & ~bit(5)
    assert board.candidates[cell("r2c1")] == FULL & ~bit(5) & ~bit(7)
    assert board.candidates[cell("r9c9")] == FULL
    marks = [FULL] * 81
    marks[cell("r1c2")] = bit(5) | bit(6)  # 5 is excluded by the given: only 6 stays
    board = Board.from_puzzle(Puzzle(S9, tuple(givens), candidates=tuple(marks)))
    assert board.candidates[cell("r1c2")] == bit(6)


def test_board_place_eliminate_copy() -> None:
    board = Board.from_puzzle(Puzzle.empty(S9))
    other = board.copy()
    board.place(cell("r5c5"), 3)
    assert board.values[cell("r5c5")] == 3 and board.candidates[cell("r5c5")] == 0
    for p in S9.peers[cell("r5c5")]:
        assert not board.candidates[p] & bit(3)
    assert board.candidates[cell("r1c1")] & bit(3)
    assert other.values[cell("r5c5")] == 0 and other.candidates[cell("r5c6")] == FULL
    assert board.eliminate(cell("r1c1"), 4) is True
    assert board.eliminate(cell("r1c1"), 4) is False
    assert not board.is_solved()


def test_board_contradictions() -> None:
    board = open_board()
    assert board.contradiction() is None
    board.candidates[cell("r3c4")] = 0
    assert board.contradiction() == "r3c4 has no candidate left"
    assert board.contradiction("book") == "(4,3) has no candidate left"

    board = open_board()
    remove(board, 7, row(2))
    assert board.contradiction() == "value 7 has no place in row 2"

    board = open_board()
    board.place(cell("r2c3"), 7)  # placed values count: no complaint about row 2
    assert board.contradiction() is None

    board = open_board()
    remove(board, 4, [c for c in S9.houses[18].cells])  # box 1
    # rows and columns still offer 4 elsewhere, so the box is the house named
    assert board.contradiction() == "value 4 has no place in box 1"
    assert board.contradiction("book") == "value 4 has no place in minigrid 1"

    givens = [0] * 81
    givens[cell("r1c1")] = givens[cell("r1c5")] = 5
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    assert board.contradiction() == "value 5 appears twice in row 1"
