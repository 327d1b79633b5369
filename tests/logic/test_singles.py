"""Singles: Full House, Naked Single, Hidden Single."""

from __future__ import annotations

from numberplace.logic import Board, find_full_house, find_hidden_single, find_naked_single
from numberplace.model.puzzle import Puzzle

from positions import S9, cell, open_board, remove, row, set_cands


def test_full_house() -> None:
    givens = [0] * 81
    for c in range(8):
        givens[c] = c + 1
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    steps = list(find_full_house(board, S9))
    assert [s.placements for s in steps] == [((cell("r1c9"), 9),)]
    assert steps[0].text == "r1c9 is the last empty cell of row 1: place 9 at r1c9"
    givens[7] = 0
    assert list(find_full_house(Board.from_puzzle(Puzzle(S9, tuple(givens))), S9)) == []


def test_naked_single() -> None:
    board = open_board()
    assert list(find_naked_single(board, S9)) == []
    set_cands(board, "r4c7", 6)
    steps = list(find_naked_single(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "Naked Single" and step.book_name == "CRME"
    assert step.placements == ((cell("r4c7"), 6),) and step.eliminations == ()


def test_hidden_single_text_in_both_notations() -> None:
    board = open_board()
    assert list(find_hidden_single(board, S9)) == []
    remove(board, 2, [c for c in row(5) if c != cell("r5c6")])
    steps = list(find_hidden_single(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "Hidden Single" and step.book_name == "Lone Ranger"
    assert step.placements == ((cell("r5c6"), 2),)
    assert step.houses == (4,)
    assert step.text == ("In row 5 only r5c6 can hold 2 (a lone ranger in the row): "
                         "place 2 at r5c6")
    assert step.describe(S9) == step.text
    assert step.describe(S9, "book") == ("In row 5 only (6,5) can hold 2 (a lone ranger in "
                                         "the row): place 2 at (6,5)")


def test_hidden_single_in_a_box_is_a_minigrid_in_the_book() -> None:
    board = open_board()
    box5 = S9.houses[22].cells
    remove(board, 8, [c for c in box5 if c != cell("r6c4")])
    (step,) = find_hidden_single(board, S9)
    assert step.placements == ((cell("r6c4"), 8),)
    assert "(a lone ranger in the box)" in step.describe(S9)
    assert step.describe(S9, "book") == ("In minigrid 5 only (4,6) can hold 8 (a lone ranger "
                                         "in the minigrid): place 8 at (4,6)")
