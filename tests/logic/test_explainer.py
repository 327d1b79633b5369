"""Sudoku Explainer's way to a difficulty (``logic/explainer.py``)."""

from __future__ import annotations

import pytest

from numberplace import engine, formats
from numberplace.errors import LimitError
from numberplace.limits import Deadline
from numberplace.logic.board import Board
from numberplace.logic.explainer import (
    DYNAMIC,
    DYNAMIC_PLUS,
    MULTIPLE,
    NESTED,
    NISHIO,
    Chaining,
    Hint,
    explainer_difficulty,
    length_bonus,
)
from numberplace.rating import rate, step_difficulty

from conftest import data_lines
from positions import near_solved

#: Sudoku Explainer's ratings of magictour_top1465 puzzles (by their place in the file),
#: measured with its ``serate`` command restricted to Sudoku Explainer 1.2.1's
#: techniques; one or two for each kind of step that can be the hardest.
EXPLAINER_RATINGS = [
    (1303, 2.0),  # a hidden pair that leaves a hidden single
    (1186, 2.3),  # naked singles
    (1402, 2.5),  # a hidden triple that leaves a hidden single
    (982, 2.6),   # pointing
    (121, 2.8),   # claiming
    (4, 3.4),     # hidden pair
    (157, 4.2),   # XY-Wing
    (1057, 6.6),  # a forcing chain on one digit
    (754, 6.9),   # a cycle
    (1444, 7.2),  # a forcing chain through cells and houses
    (1366, 7.6),  # Nishio
    (796, 8.2),   # multiple chains
    (1096, 8.5),  # dynamic chains
    (808, 8.8),
    (634, 9.1),   # dynamic chains with pairs and intersections inside
]


def _value_of(step):  # type: ignore[no-untyped-def]
    kind = step.shape.houses[step.houses[0]].kind if step.houses else None
    return step_difficulty(step, kind)


def test_length_bonus_follows_the_explainer_brackets() -> None:
    # the size counts states; 0.1 for each of 4, 6, 8, 12, 16, 24, ... that size - 2 passes
    assert [length_bonus(n) for n in (1, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == [
        0, 0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
    assert NISHIO < MULTIPLE < DYNAMIC < DYNAMIC_PLUS


@pytest.mark.parametrize(("index", "theirs"), EXPLAINER_RATINGS)
def test_the_difficulty_is_the_explainers(index: int, theirs: float) -> None:
    line = data_lines("magictour_top1465.txt")[index]
    assert rate(line, book=False).difficulty == theirs


def test_no_chain_removes_a_true_value() -> None:
    # soundness: at every board where the path needs chains, every conclusion of every
    # kind (not only the one applied) keeps the solution's digits
    seen: list[Hint] = []
    original = Chaining.first

    def spy(self: Chaining) -> Hint | None:
        for kind in (self.cycles, self.nishio, self.multiple, self.dynamic):
            seen.extend(kind())
        return original(self)

    checked = 0
    lines = data_lines("magictour_top1465.txt")
    for line in (lines[i] for i, _ in EXPLAINER_RATINGS[7:]):
        puzzle = formats.parse(line)
        solution = engine.solve(puzzle, limit=1).solution
        assert solution is not None
        seen.clear()
        Chaining.first = spy  # type: ignore[method-assign]
        try:
            explainer_difficulty(Board.from_puzzle(puzzle), _value_of)
        finally:
            Chaining.first = original  # type: ignore[method-assign]
        for hint in seen:
            for c, v in hint.removals:
                assert solution[c] != v, (line, hint)
        checked += len(seen)
    assert checked > 1000


def test_each_kind_waits_for_the_ones_before() -> None:
    # the first board of this puzzle's path that needs chains has no cycle or forcing
    # chain on it, and a contradiction on one digit, which the Explainer applies
    line = data_lines("magictour_top1465.txt")[1366]
    board = Board.from_puzzle(formats.parse(line))
    boards: list[Board] = []
    original = Chaining.first

    def spy(self: Chaining) -> Hint | None:
        boards.append(self.board.copy())
        return original(self)

    Chaining.first = spy  # type: ignore[method-assign]
    try:
        explainer_difficulty(board, _value_of)
    finally:
        Chaining.first = original  # type: ignore[method-assign]
    chaining = Chaining(boards[0])
    assert chaining.cycles() == []
    nishio = chaining.nishio()
    assert nishio and all(h.kind.startswith("Nishio") for h in nishio)
    first = chaining.first()
    assert first is not None and first == min(nishio, key=lambda h: h.rank)
    assert first.value == 7.6


def test_a_board_past_every_kind_is_valued_as_a_nested_chain() -> None:
    # the first of forum_hardest_1106, which serate rates 10.3 by nested chains: neither
    # the kinds followed here nor our own techniques get past one of its boards
    line = data_lines("forum_hardest_1106.txt", 1)[0]
    board = Board.from_puzzle(formats.parse(line))
    value, name, solved = explainer_difficulty(board, _value_of)
    assert (value, name, solved) == (NESTED, "Nested Forcing Chain", False)
    assert rate(line, book=False).difficulty == NESTED


def test_no_chain_where_no_cell_has_a_choice() -> None:
    chaining = Chaining(near_solved("r1c1", "r5c5", "r9c9"))
    assert chaining.first() is None
    assert chaining.cycles() == chaining.dynamic_plus() == []


def test_the_path_keeps_the_time_limit() -> None:
    line = data_lines("magictour_top1465.txt")[634]
    board = Board.from_puzzle(formats.parse(line))
    board.memo.deadline = Deadline(1e-9)
    with pytest.raises(LimitError):
        explainer_difficulty(board, _value_of)
