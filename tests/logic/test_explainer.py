"""The Explainer's rules for boards that need forcing chains (``logic/explainer.py``)."""

from __future__ import annotations

import pytest

from numberplace import engine, formats
from numberplace.logic import solve_path
from numberplace.logic.board import bit
from numberplace.logic.chains import FORCING_CONTRADICTION
from numberplace.logic.explain import boards_before_steps
from numberplace.logic.explainer import (
    DYNAMIC,
    MULTIPLE,
    NISHIO,
    contradiction_size,
    forcing_value,
    length_bonus,
    multiple_value,
)
from numberplace.logic.techniques import REGISTRY
from numberplace.rating import rate

from conftest import data_lines
from positions import cell, near_solved


def test_length_bonus_follows_the_explainer_brackets() -> None:
    # the size counts states; 0.1 for each of 4, 6, 8, 12, 16, 24, ... that size - 2 passes
    assert [length_bonus(n) for n in (1, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == [
        0, 0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
    assert NISHIO < MULTIPLE < DYNAMIC


def test_a_wrong_value_breaks_the_board_and_the_proof_is_counted() -> None:
    # two empty cells in one row: putting the other's value in r1c1 leaves r1c2 none
    board = near_solved("r1c1", "r1c2")
    assert board.candidates[cell("r1c1")] == bit(5)
    board.candidates[cell("r1c1")] |= bit(3)  # a wrong candidate, as if not yet removed
    assert contradiction_size(board, cell("r1c1"), 5) is None
    size = contradiction_size(board, cell("r1c1"), 3)
    assert size is not None and 2 <= size <= 6
    # on one digit: 3 in r1c1 takes 3 from r1c2, whose row then has no place for it
    assert contradiction_size(board, cell("r1c1"), 3, one_digit=True) is not None


def test_the_true_value_never_breaks_the_board() -> None:
    # soundness of the tracing: on benchmark puzzles, no true value (assumed true) and no
    # false candidate (assumed false) is ever proved to break the board
    for line in data_lines("magictour_top1465.txt", 12):
        puzzle = formats.parse(line)
        solution = engine.solve(puzzle, limit=1).solution
        assert solution is not None
        path = solve_path(puzzle, REGISTRY.rating_order(), guess=True, unique=True)
        for board, step in zip(boards_before_steps(puzzle, path.steps), path.steps,
                               strict=True):
            if step.technique != FORCING_CONTRADICTION or step.depth:
                continue
            for c, m in enumerate(board.candidates):
                if board.values[c] or not m & (m - 1):
                    continue
                true = solution[c]
                assert contradiction_size(board, c, true) is None
                assert contradiction_size(board, c, true, one_digit=True) is None
                for v in range(1, 10):
                    if m & bit(v) and v != true:
                        assert contradiction_size(board, c, v, on=False) is None
            break  # the first forcing board of each path is enough


def test_forcing_value_and_multiple_chains_on_a_hard_board() -> None:
    line = data_lines("magictour_top1465.txt", 1)[0]
    puzzle = formats.parse(line)
    path = solve_path(puzzle, REGISTRY.rating_order(), guess=True, unique=True)
    boards = [b for b, s in zip(boards_before_steps(puzzle, path.steps), path.steps,
                                strict=True) if s.technique == FORCING_CONTRADICTION]
    assert boards, "the first top1465 puzzle needs forcing chains"
    value = forcing_value(boards[0])
    assert value is not None and NISHIO <= value <= 11
    multiple = multiple_value(boards[0])
    assert multiple is None or multiple >= MULTIPLE


def test_no_forcing_value_where_nothing_breaks() -> None:
    board = near_solved("r1c1", "r5c5")
    assert forcing_value(board) is None
    assert multiple_value(board) is None


@pytest.mark.parametrize("index", [0, 1, 2])
def test_forcing_puzzles_rate_on_the_explainer_forcing_scale(index: int) -> None:
    line = data_lines("magictour_top1465.txt", 3)[index]
    r = rate(line, book=False)
    assert r.difficulty is not None and r.difficulty >= NISHIO


def test_the_valuing_keeps_the_rating_time_limit() -> None:
    from numberplace.errors import LimitError
    from numberplace.limits import Deadline
    from numberplace.rating import _forcing_values

    puzzle = formats.parse(data_lines("magictour_top1465.txt", 1)[0])
    path = solve_path(puzzle, REGISTRY.rating_order(), guess=True, unique=True)
    with pytest.raises(LimitError):
        _forcing_values(puzzle, path.steps, Deadline(1e-9))
