"""Naked and hidden subsets: pairs, triples, quadruples."""

from __future__ import annotations

from numberplace.logic import (
    find_hidden_pair,
    find_hidden_quadruple,
    find_hidden_triple,
    find_naked_pair,
    find_naked_quadruple,
    find_naked_triple,
)
from numberplace.logic.board import bit

from positions import S9, cell, cells, open_board, remove, row, set_cands


def test_naked_pair() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    assert list(find_naked_pair(board, S9)) == []
    set_cands(board, "r1c2", 1, 2)
    steps = list(find_naked_pair(board, S9))
    assert [s.houses for s in steps] == [(0,), (18,)]  # row 1, then box 1
    step = steps[0]
    assert step.book_name == "Twins" and step.technique == "Naked Pair"
    assert set(step.eliminations) == {(c, v) for c in row(1)[2:] for v in (1, 2)}
    assert step.text.startswith("In row 1, r1c1, r1c2 hold only 1, 2 between them: remove ")


def test_naked_triple_and_quadruple() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c5", 2, 3)
    set_cands(board, "r1c9", 1, 4)
    assert list(find_naked_triple(board, S9)) == []
    set_cands(board, "r1c9", 1, 3)
    (step,) = find_naked_triple(board, S9)
    assert step.book_name == "Triplets"
    others = [c for c in row(1) if c not in cells("r1c1", "r1c5", "r1c9")]
    assert set(step.eliminations) == {(c, v) for c in others for v in (1, 2, 3)}

    board = open_board()
    for name, vals in (("r1c1", (1, 2)), ("r1c2", (2, 3)), ("r1c5", (3, 4)), ("r1c9", (1, 4))):
        set_cands(board, name, *vals)
    (step,) = find_naked_quadruple(board, S9)
    others = [c for c in row(1) if c not in cells("r1c1", "r1c2", "r1c5", "r1c9")]
    assert set(step.eliminations) == {(c, v) for c in others for v in (1, 2, 3, 4)}
    assert step.technique == "Naked Quadruple" and step.book_name == ""


def test_hidden_subsets() -> None:
    board = open_board()
    remove(board, 1, row(1)[2:])
    remove(board, 2, [row(1)[1]] + row(1)[3:])  # 2 in r1c1 and r1c3: no pair yet
    assert list(find_hidden_pair(board, S9)) == []
    remove(board, 2, [cell("r1c3")])
    board.candidates[cell("r1c2")] |= bit(2)
    (step,) = find_hidden_pair(board, S9)
    assert step.technique == "Hidden Pair"
    assert set(step.eliminations) == {(c, v) for c in cells("r1c1", "r1c2")
                                      for v in range(3, 10)}
    assert step.describe(S9).startswith("In row 1, 1, 2 can only go in r1c1, r1c2: remove 3")

    board = open_board()
    trio = cells("r1c1", "r1c5", "r1c9")
    for v in (1, 2, 3):
        remove(board, v, [c for c in row(1) if c not in trio])
    (step,) = find_hidden_triple(board, S9)
    assert set(step.eliminations) == {(c, v) for c in trio for v in range(4, 10)}

    board = open_board()
    quad = cells("r1c1", "r1c2", "r1c5", "r1c9")
    for v in (1, 2, 3, 4):
        remove(board, v, [c for c in row(1) if c not in quad])
    assert list(find_hidden_triple(board, S9)) == []
    (step,) = find_hidden_quadruple(board, S9)
    assert set(step.eliminations) == {(c, v) for c in quad for v in range(5, 10)}


def test_a_locked_pair_clears_its_line_and_its_box_in_one_step() -> None:
    from numberplace.logic.subsets import find_locked_pair, find_locked_triple

    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c5", 1, 2)  # a naked pair of row 1 in two boxes: not locked
    assert list(find_locked_pair(board, S9)) == []
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 2)
    (step,) = find_locked_pair(board, S9)
    assert step.technique == "Locked Pair" and step.houses == (0, 18)
    box1 = [c for c in range(27) if c % 9 < 3]
    gone = {(c, v) for c in set(row(1)) | set(box1) if c not in cells("r1c1", "r1c2")
            for v in (1, 2)}
    assert set(step.eliminations) == gone
    assert step.text.startswith("r1c1, r1c2 hold only 1, 2 between them and lie in both "
                                "row 1 and box 1: remove ")
    # a triple: three cells of r2 in box 1
    board = open_board()
    for name, vals in (("r2c1", (4, 5)), ("r2c2", (5, 6)), ("r2c3", (4, 6))):
        set_cands(board, name, *vals)
    (step,) = find_locked_triple(board, S9)
    assert step.technique == "Locked Triple"
    assert {v for _, v in step.eliminations} == {4, 5, 6}
    assert all(c not in cells("r2c1", "r2c2", "r2c3") for c, _ in step.eliminations)
