"""The driver: steps, presets, statuses, guessing, and the soundness of whole solve paths."""

from __future__ import annotations

import pytest

from numberplace import engine, formats
from numberplace.engine.grids import minimal_puzzle, random_grid
from numberplace.logic import BOOK, REGISTRY, Board, Step, next_step, solve_path
from numberplace.logic.board import bit
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import BOOK_PUZZLES, data_lines
from positions import JIGSAW_9, S9, cell, open_board, remove, row, set_cands

# -- steps and driver ----------------------------------------------------------------------

def test_step_apply_places_and_eliminates() -> None:
    board = open_board()
    step = Step("test", placements=((cell("r1c1"), 4),), eliminations=((cell("r9c9"), 8),))
    step.apply(board)
    assert board.values[cell("r1c1")] == 4
    assert not board.candidates[cell("r1c9")] & bit(4)
    assert not board.candidates[cell("r9c9")] & bit(8)


def test_driver_order_presets_and_statuses() -> None:
    assert BOOK == ["Naked Single", "Hidden Single", "Naked Pair", "Naked Triple"]
    assert REGISTRY.names()[:3] == ["Full House", "Naked Single", "Hidden Single"]
    board = open_board()
    set_cands(board, "r4c7", 6)
    remove(board, 2, [c for c in row(5) if c != cell("r5c6")])
    step = next_step(board, S9)
    assert step is not None and step.technique == "Naked Single"
    step = next_step(board, S9, ["Lone Ranger"])  # the book's names are accepted
    assert step is not None and step.technique == "Hidden Single"
    with pytest.raises(ValueError, match="unknown technique"):
        next_step(board, S9, ["X-Wing of Doom"])

    assert solve_path(Puzzle.empty(S9)).status == "stalled"
    givens = [0] * 81
    givens[0] = givens[1] = 3
    result = solve_path(Puzzle(S9, tuple(givens)))
    assert result.status == "invalid" and result.message == "value 3 appears twice in row 1"


def test_book_puzzle_falls_to_crme_alone() -> None:
    puzzle = formats.parse(BOOK_PUZZLES[1])
    result = solve_path(puzzle, techniques=["Naked Single"])
    assert result.status == "solved"
    assert {s.technique for s in result.steps} == {"Naked Single"}
    assert result.board is not None
    assert tuple(result.board.values) == engine.solve(puzzle).solution


def test_book_preset_solves_the_first_book_puzzle() -> None:
    result = solve_path(formats.parse(BOOK_PUZZLES[0]), techniques=BOOK)
    assert result.status == "solved"


# -- soundness -----------------------------------------------------------------------------

def assert_path_sound(puzzle: Puzzle) -> str:
    """Run the driver; every step must agree with the engine's (unique) solution."""
    solution = engine.solve(puzzle).solution
    assert solution is not None
    result = solve_path(puzzle)
    assert result.status != "invalid", result.message
    for step in result.steps:
        for c, v in step.placements:
            assert solution[c] == v, f"wrong placement: {step.text}"
        for c, v in step.eliminations:
            assert solution[c] != v, f"true value eliminated: {step.text}"
    if result.status == "solved":
        assert result.board is not None and tuple(result.board.values) == solution
    return result.status


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param("magictour_top1465.txt", marks=pytest.mark.slow),
                                  "kaggle_like_10k.txt"])
def test_soundness_on_benchmark_puzzles(name: str) -> None:
    statuses = [assert_path_sound(formats.parse(line)) for line in data_lines(name, 300)]
    assert "solved" in statuses


@pytest.mark.parametrize("shape", [classic(6), classic(16), jigsaw(JIGSAW_9), diagonal(S9),
                                   samurai()], ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    for seed in (1, 2):
        solution = random_grid(shape, seed)
        # Fewer removal tries leave more givens: quick to make, and longer logic paths.
        tries = None if shape.ncells <= 81 else shape.ncells // 2
        assert_path_sound(minimal_puzzle(shape, solution, seed, tries=tries))


def test_brute_force_guesses_and_backtracks_soundly() -> None:
    """The book preset finishes hard puzzles by guessing: each guess and backtrack is a
    step; steps at depth 0 are sound, and the final board is the solution."""
    from numberplace import engine
    from numberplace.logic.driver import BACKTRACK, BRUTE_FORCE

    guesses = backtracks = 0
    for line in data_lines("top95.txt", 40):
        puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
        solution = engine.solve(puzzle).solution
        assert solution is not None
        result = solve_path(puzzle, BOOK, guess=True)
        assert result.status == "solved"
        assert result.board is not None and list(result.board.values) == list(solution)
        depth = 0
        for step in result.steps:
            if step.technique == BRUTE_FORCE:
                guesses += 1
                assert step.depth == depth + 1
            elif step.technique == BACKTRACK:
                backtracks += 1
                assert step.depth == depth - 1
            else:
                assert step.depth == depth
            depth = step.depth
            if depth == 0:  # unconditional: must agree with the true solution
                assert all(solution[c] == v for c, v in step.placements), step.text
                assert all(solution[c] != v for c, v in step.eliminations), step.text
    assert guesses > 0 and backtracks > 0


def test_without_guessing_a_hard_puzzle_stalls() -> None:
    line = data_lines("top95.txt", 1)[0]
    puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
    assert solve_path(puzzle, BOOK).status == "stalled"


def test_next_placement_writes_one_value_per_call() -> None:
    from numberplace import engine
    from numberplace.logic import next_placement

    for line in data_lines("top95.txt", 10):
        puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
        solution = engine.solve(puzzle).solution
        assert solution is not None
        board = Board.from_puzzle(puzzle)
        step, before = next_placement(board, puzzle.shape)
        assert all(not s.placements and s.eliminations for s in before)
        if step is not None:
            assert len(step.placements) == 1
            (cell, value), = step.placements
            assert solution[cell] == value
            assert board.values[cell] == 0  # the placement itself is not applied
