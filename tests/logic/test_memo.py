"""What a solve remembers belongs to that solve: paths do not depend on other solves.

A server solves in threads; a generator interleaves many puzzles. The same puzzle must give
the same path whatever else runs beside it.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from numberplace import Puzzle, formats
from numberplace.logic import Board, next_step, solve_path
from numberplace.logic.step import Step

from conftest import data_lines

Path = list[tuple[str, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]


def _path(puzzle: Puzzle) -> Path:
    return [(s.technique, s.placements, s.eliminations) for s in solve_path(puzzle).steps]


def _hard_puzzles(count: int) -> list[Puzzle]:
    return [formats.parse(line) for line in data_lines("magictour_top1465.txt", count)]


@pytest.mark.slow
def test_paths_in_sixteen_threads_are_the_paths_of_one_thread() -> None:
    puzzles = _hard_puzzles(60)
    alone = [_path(p) for p in puzzles]
    for _ in range(4):
        with ThreadPoolExecutor(max_workers=16) as pool:
            threaded = list(pool.map(_path, puzzles))
        differences = sum(a != b for a, b in zip(alone, threaded, strict=True))
        assert differences == 0


@pytest.mark.slow
def test_two_puzzles_stepped_in_turn_take_their_own_paths() -> None:
    first, second = _hard_puzzles(2)
    boards = {0: Board.from_puzzle(first), 1: Board.from_puzzle(second)}
    taken: dict[int, list[Step]] = {0: [], 1: []}
    live = [0, 1]
    while live:
        for k in list(live):
            board = boards[k]
            step = next_step(board, board.shape)
            if step is None or board.is_solved():
                live.remove(k)
                continue
            step.apply(board)
            taken[k].append(step)
    for k, puzzle in enumerate((first, second)):
        path = solve_path(puzzle).steps
        assert [(s.technique, s.placements, s.eliminations) for s in taken[k]] == [
            (s.technique, s.placements, s.eliminations) for s in path]


def test_a_board_and_its_copies_share_one_memo_and_new_boards_do_not() -> None:
    puzzle = _hard_puzzles(1)[0]
    board = Board.from_puzzle(puzzle)
    assert board.copy().memo is board.memo
    assert Board.from_puzzle(puzzle).memo is not board.memo
