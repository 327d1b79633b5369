"""Sudoku Explainer's own rules (``logic/explainer_rules.py``): unique loops, the bivalue
universal grave and aligned exclusions, where each applies, where it must not, and that
what they remove on real paths keeps the solution's digits."""

from __future__ import annotations

from functools import partial

import pytest

from numberplace import engine, formats, native
from numberplace.limits import Deadline
from numberplace.logic import explainer
from numberplace.logic.board import Board, bit
from numberplace.logic.explainer_rules import (
    aligned_exclusion,
    bivalue_universal_grave,
    unique_loop,
)
from numberplace.logic.rating import _value_of, rate
from numberplace.logic.xchain import Hint

from conftest import data_lines
from positions import cell, near_solved, open_board, set_cands

#: Puzzles whose Explainer path takes a rule (found by following the path), with the
#: rule's step and Sudoku Explainer's rating of the puzzle (serate, 1.2.1's techniques).
ON_THE_PATH = [
    # BUG type 3 sets the rating (ours used to say 7.1)
    ("1243..6...6......97..6.....38.4..2....62.37....2..6.48.....9..29......6...7..4913",
     "BUG type 3", 5.8),
    # a unique loop of six cells (ours used to say 7.2)
    ("8.376...2......9.....3.51...65.1...3.........2...3.56...71.6.....4......3...947.1",
     "Unique Loop 6 type 2", 4.6),
    (".................1..2.34........2.5...31......6.....3......7..2.8....4..53..6....",
     "Unique Loop 6 type 2", 4.6),
    (".................1..2..3.4......52.6.1......7.8...2.......1..8....7.......59..6..",
     "BUG type 1", 5.6),
    (".................1..2..3.4......25...1......67..........5...38...8.6.....4.17....",
     "Aligned Pair Exclusion", 6.6),
    (".................1..2..3.4......2.....5..43...1......6..4...2...7..1.....8..6...7",
     "Unique Rectangle type 1", 4.5),
]


def explainer_path(line: str, scale: str = "explainer") -> list[tuple[Board, str, float]]:
    """Each board of the Explainer's path on ``line``, with the step taken on it."""
    puzzle = formats.parse(line)
    board = Board.from_puzzle(puzzle)
    board.memo.deadline = Deadline(120)
    producers = explainer._producers(puzzle.shape, scale, partial(_value_of, puzzle.shape))
    out = []
    while any(board.candidates):
        found = next(f for f in (p(board) for p in producers) if f is not None)
        out.append((board.copy(), found[1], found[0]))
        found[2]()
    return out


@pytest.mark.parametrize(("line", "step", "theirs"), ON_THE_PATH)
def test_the_path_takes_the_rule_and_rates_as_the_explainer(line: str, step: str,
                                                             theirs: float) -> None:
    solution = engine.solve(formats.parse(line), limit=1).solution
    assert solution is not None
    taken = [(board, value) for board, name, value in explainer_path(line) if name == step]
    assert taken
    for board, _ in taken:
        hint = _rule_of(step)(board)
        assert hint is not None and hint.kind == step
        assert all(solution[c] != v for c, v in hint.removals)
    assert rate(line, book=False).difficulty == theirs


def _rule_of(step: str):  # type: ignore[no-untyped-def]
    if step.startswith("Unique"):
        return unique_loop
    if step.startswith("BUG"):
        return bivalue_universal_grave
    return partial(aligned_exclusion, degree=2 if "Pair" in step else 3)


@pytest.mark.parametrize("line", [line for line, _, _ in ON_THE_PATH])
def test_no_grave_on_a_fresh_board(line: str) -> None:
    # with every cell's candidates as the givens leave them, most cells hold more than
    # two: no grave to break
    board = Board.from_puzzle(formats.parse(line))
    assert bivalue_universal_grave(board) is None


def test_no_exclusion_where_every_value_keeps_a_combination() -> None:
    # r1c1 and r1c2 (1, 2 or 3 each) see two-candidate cells 1 2 (r1c3) and 4 5 (r2c1):
    # only 1 with 2 is barred, so each value of each cell has a partner left
    board = open_board()
    set_cands(board, "r1c1", 1, 2, 3)
    set_cands(board, "r1c2", 1, 2, 3)
    set_cands(board, "r1c3", 1, 2)
    set_cands(board, "r2c1", 4, 5)
    assert aligned_exclusion(board, 2) is None
    assert aligned_exclusion(board, 2, compiled=False) is None


def test_an_aligned_pair_exclusion() -> None:
    # r1c1 (1, 2 or 3) and r1c2 (1 or 2) see r1c3 (1 or 3) and r2c2 (2 or 3): r1c1 = 3
    # leaves r1c2 1, which empties r1c3, or 2, which empties r2c2; so 3 goes
    board = open_board()
    set_cands(board, "r1c1", 1, 2, 3)
    set_cands(board, "r1c2", 1, 2)
    set_cands(board, "r1c3", 1, 3)
    set_cands(board, "r2c2", 2, 3)
    hint = aligned_exclusion(board, 2)
    assert hint == Hint(6.2, 2, 0, "Aligned Pair Exclusion", ((cell("r1c1"), 3),))
    assert hint == aligned_exclusion(board, 2, compiled=False)


@pytest.mark.skipif(native.core is None or not native.core.HAVE_XCHAIN,
                    reason="the compiled core is not built")
def test_the_compiled_exclusion_finds_what_the_reference_finds() -> None:
    # the same first set, so the same removals, on every board of many paths
    lines = data_lines("17_clue.txt", 4) + data_lines("magictour_top1465.txt", 2)
    found = 0
    for line in lines:
        for board, _, _ in explainer_path(line):
            for degree in (2, 3):
                ours = aligned_exclusion(board, degree)
                assert ours == aligned_exclusion(board, degree, compiled=False), line
                found += ours is not None
    assert found > 30


# A deadly rectangle of the solved grid in positions.py: 6 and 7 swap between r1c4,
# r1c5, r4c4 and r4c5 (two boxes); 4 and 9 between r1c3, r1c7, r4c3 and r4c7 (four).
RECTANGLE = ("r1c4", "r1c5", "r4c4", "r4c5")
ACROSS_FOUR_BOXES = ("r1c3", "r1c7", "r4c3", "r4c7")


def test_a_rectangle_with_one_extra_cell_is_type_1() -> None:
    board = near_solved(*RECTANGLE)
    assert unique_loop(board) is None  # no cell to rescue it: not this rule's business
    board.candidates[cell("r4c5")] |= bit(2)
    hint = unique_loop(board)
    assert hint == Hint(4.5, 4, 1, "Unique Rectangle type 1",
                        ((cell("r4c5"), 6), (cell("r4c5"), 7)))


def test_no_loop_across_four_boxes() -> None:
    # each box would be met once: the values could not swap, so there is no pattern
    board = near_solved(*ACROSS_FOUR_BOXES)
    board.candidates[cell("r4c7")] |= bit(2)
    assert unique_loop(board) is None


def test_one_extra_value_in_two_cells_is_type_2() -> None:
    board = near_solved(*RECTANGLE, "r1c1")
    for name in ("r1c4", "r1c5"):
        board.candidates[cell(name)] |= bit(5)
    board.candidates[cell("r1c1")] |= bit(8)
    hint = unique_loop(board)
    assert hint is not None and hint.kind == "Unique Rectangle type 2"
    assert hint.removals == ((cell("r1c1"), 5),)
    # where no cell sees both extra cells, nothing goes
    board = near_solved(*RECTANGLE, "r1c1")
    board.candidates[cell("r1c4")] |= bit(5)
    board.candidates[cell("r4c5")] |= bit(5)
    assert unique_loop(board) is None


def test_a_value_locked_in_the_extra_cells_is_type_4() -> None:
    board = near_solved(*RECTANGLE)
    board.candidates[cell("r1c4")] |= bit(5)
    board.candidates[cell("r1c5")] |= bit(8)
    hint = unique_loop(board)
    # 6 and 7 are only in the two cells in row 1: the first value locks, the other goes
    assert hint is not None and hint.kind == "Unique Rectangle type 4"
    assert hint.value == 4.5 and set(hint.removals) == {(cell("r1c4"), 7), (cell("r1c5"), 7)}


@pytest.mark.slow
def test_the_rules_keep_every_true_digit_on_real_paths() -> None:
    # soundness: on every board of the Explainer's path of many puzzles, whatever each
    # rule finds (taken or not) keeps the solution's digits
    lines = data_lines("17_clue.txt", 40) + data_lines("magictour_top1465.txt", 30)
    found = 0
    for line in lines:
        solution = engine.solve(formats.parse(line), limit=1).solution
        assert solution is not None
        for board, _, _ in explainer_path(line):
            for rule in (unique_loop, bivalue_universal_grave,
                         partial(aligned_exclusion, degree=2),
                         partial(aligned_exclusion, degree=3)):
                hint = rule(board)
                if hint is not None:
                    found += 1
                    assert all(solution[c] != v for c, v in hint.removals), (line, hint)
    assert found > 20
