"""Templates: Template Set and Template Delete, hand-made positions and soundness."""

from __future__ import annotations

import os

import pytest

from numberplace import classic, formats
from numberplace.logic import Board, templates
from numberplace.logic.board import bit
from numberplace.logic.geometry import scaled_budget
from numberplace.logic.templates import (
    TEMPLATE_DELETE,
    TEMPLATE_SET,
    find_template_delete,
    find_template_set,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape

from conftest import data_lines
from positions import S9, audit_lines, cell, near_solved

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")

def test_template_set_places_the_only_way() -> None:
    board = near_solved("r1c1", "r2c2", "r5c5")
    steps = list(find_template_set(board, S9))
    placed = {p for s in steps for p in s.placements}
    assert placed == {(cell("r1c1"), 5), (cell("r2c2"), 7), (cell("r5c5"), 5)}
    assert all(s.technique == TEMPLATE_SET for s in steps)
    assert steps[0].text.startswith("Template Set: every way ")


def test_template_delete_removes_what_no_way_uses() -> None:
    board = near_solved("r1c1")
    board.candidates[cell("r1c1")] |= bit(9)  # 9 is placed in every house already
    steps = list(find_template_delete(board, S9))
    assert [s.eliminations for s in steps] == [((cell("r1c1"), 9),)]
    assert steps[0].technique == TEMPLATE_DELETE


def test_templates_do_not_fire() -> None:
    board = near_solved("r1c1")
    assert list(find_template_delete(board, S9)) == []
    # an empty 9x9 has too many ways for each value to list: nothing is claimed
    empty = Board.from_puzzle(Puzzle(S9, (0,) * 81))
    assert list(find_template_set(empty, S9)) == []
    assert list(find_template_delete(empty, S9)) == []


def test_templates_need_houses_holding_every_value() -> None:
    # a Kakuro's runs are no houses of the grid's size: nothing to fill once per house
    puzzle = next(iter(formats.read_file(os.path.join(EXAMPLES, "kakuro.txt")))).puzzle
    board = Board.from_puzzle(puzzle)
    assert list(find_template_set(board, puzzle.shape)) == []
    assert list(find_template_delete(board, puzzle.shape)) == []


def test_soundness_on_benchmark_puzzles() -> None:
    # probed wherever the singles stall, so the templates meet many boards
    report = audit_lines(data_lines("magictour_top1465.txt", 12),
                         [TEMPLATE_SET, TEMPLATE_DELETE],
                         before=["Full House", "Naked Single", "Hidden Single"])
    assert report.found[TEMPLATE_DELETE]


def test_each_value_s_templates_are_listed_once_for_set_and_delete(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Set and Delete share one listing per board, and after a step the values it did not
    touch are not listed again."""
    calls: list[int] = []
    real = templates._templates

    def counting(shape: Shape, allowed: int, placed: int, check: object) -> list[int]:
        calls.append(allowed)
        return real(shape, allowed, placed, check)

    monkeypatch.setattr(templates, "_templates", counting)
    board = near_solved("r1c1", "r2c2", "r5c5")
    placed = list(find_template_set(board, S9))
    assert list(find_template_delete(board, S9)) == []
    assert len(calls) == 9  # one listing per value, for both finders
    placed[0].apply(board)
    list(find_template_set(board, S9))
    assert len(calls) == 9 + 1  # only the value placed is listed again


def test_template_budgets_shrink_on_big_grids() -> None:
    assert scaled_budget(20_000, S9) == 20_000
    assert scaled_budget(20_000, classic(16)) == 20_000 * 81 // 256
    assert scaled_budget(20_000, classic(25)) == 20_000 * 81 // 625
    # an open 16x16: every value has too many ways, none is claimed
    empty = Board.from_puzzle(Puzzle.empty(classic(16)))
    assert list(find_template_set(empty, empty.shape)) == []
