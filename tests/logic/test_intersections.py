"""Locked candidates: pointing and claiming."""

from __future__ import annotations

from numberplace.logic import CLAIMING, POINTING, find_claiming, find_pointing
from numberplace.model.shape import diagonal

from positions import S9, cell, cells, open_board, remove, row


def test_pointing() -> None:
    board = open_board()
    assert list(find_pointing(board, S9)) == []
    box1 = S9.houses[18].cells
    remove(board, 5, [c for c in box1 if c not in cells("r1c1", "r1c2")])
    steps = list(find_pointing(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == POINTING
    assert set(step.eliminations) == {(c, 5) for c in row(1)[3:]}
    assert step.cells == tuple(cells("r1c1", "r1c2"))
    assert "pointing along the row" in step.text
    assert list(find_claiming(board, S9)) == []


def test_claiming() -> None:
    board = open_board()
    assert list(find_claiming(board, S9)) == []
    remove(board, 5, row(1)[3:])
    steps = list(find_claiming(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == CLAIMING
    box1 = S9.houses[18].cells
    assert set(step.eliminations) == {(c, 5) for c in box1 if c not in row(1)}
    assert "claiming from the row" in step.text
    assert list(find_pointing(board, S9)) == []


def test_locked_candidates_on_a_diagonal() -> None:
    shape = diagonal(S9)
    board = open_board(shape)
    main = next(h for h, x in enumerate(shape.houses) if x.label == "main diagonal")
    centre = {cell("r4c4"), cell("r5c5"), cell("r6c6")}
    remove(board, 3, [c for c in shape.houses[main].cells if c not in centre])
    found = [s for s in find_claiming(board, shape) if s.houses[0] == main]
    assert len(found) == 1
    box5 = shape.houses[22].cells
    assert set(found[0].eliminations) == {(c, 3) for c in box5 if c not in centre}
    assert "claiming from the diagonal" in found[0].text
