"""Generation with few clues: a clue range below what one pass of removals leaves (20-22
givens on 9x9) is met in a few grids, with or without a symmetry, and a range that is
too rare for the symmetry asked ends within its budget with the usual message."""

from __future__ import annotations

import pytest

from numberplace import engine
from numberplace.cli import main
from numberplace.errors import LimitError, NumberplaceError
from numberplace.generate import generate, has_symmetry
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import classic

#: Grids a request may draw here. One pass of removals leaves 20-22 givens in about one
#: grid in thirty without a symmetry, and almost never in 180-degree pairs: a generator
#: without a search towards the range runs out of these.
GRIDS = 30


def givens(puzzle: Puzzle) -> int:
    return sum(1 for v in puzzle.givens if v)


def assert_unique(puzzle: Puzzle, solution: tuple[int, ...] | None = None) -> None:
    """Exactly one solution by the engine's count (and it is ``solution``, if given)."""
    found = engine.count(puzzle, limit=2)
    assert found.status is engine.Status.UNIQUE
    assert solution is None or found.solution == solution


@pytest.mark.parametrize("symmetry", ["rotate180", "none", "diagonal"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twenty_to_twenty_two_clues(symmetry: str, seed: int) -> None:
    made = generate(classic(9), seed=seed, symmetry=symmetry, clues=(20, 22),
                    max_attempts=GRIDS)
    assert 20 <= givens(made.puzzle) <= 22
    assert has_symmetry(made.puzzle, symmetry)
    assert_unique(made.puzzle, made.solution)


def test_the_same_seed_gives_the_same_puzzle() -> None:
    first = generate(classic(9), seed=1, clues=(20, 22), max_attempts=GRIDS)
    again = generate(classic(9), seed=1, clues=(20, 22), max_attempts=GRIDS)
    assert first.puzzle == again.puzzle and first.attempts == again.attempts


def test_counts_across_the_range() -> None:
    """Puzzles are not all made with the most givens allowed."""
    counts = {givens(generate(classic(9), seed=seed, symmetry="none", clues=(20, 22),
                              max_attempts=GRIDS).puzzle) for seed in range(1, 9)}
    assert counts <= {20, 21, 22} and len(counts) >= 2


def test_the_search_keeps_to_the_range_on_small_shapes() -> None:
    made = generate(classic(6), seed=1, clues=(8, 9), max_attempts=GRIDS)
    assert 8 <= givens(made.puzzle) <= 9
    assert_unique(made.puzzle, made.solution)


def test_a_level_with_a_clue_range() -> None:
    made = generate(classic(9), seed=1, level=4, clues=(23, 25), max_attempts=GRIDS)
    assert 23 <= givens(made.puzzle) <= 25 and made.rating.level_number == 4
    assert_unique(made.puzzle, made.solution)


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    # the time limit is far above what the two puzzles take: it only stops a generator
    # that cannot reach the range from running for the default ten minutes
    code = main(["generate", "--clues", "20-22", "--count", "2", "--seed", "5",
                 "--time-limit", "10", "--jobs", "1", "--no-progress"])
    out = capsys.readouterr().out.split()
    assert code == 0 and len(out) == 2
    for line in out:
        puzzle = Puzzle.from_string(line)
        assert puzzle.shape == classic(9) and 20 <= givens(puzzle) <= 22
        assert has_symmetry(puzzle, "rotate180")  # the command's default
        assert_unique(puzzle)


@pytest.mark.parametrize("symmetry", ["rotate90", "dihedral"])
def test_a_rare_symmetric_request_ends_within_its_budget(symmetry: str) -> None:
    """Few puzzles with four- or eight-fold symmetry have 20 or 21 givens: the request
    is met or refused with the usual message once its grids or time run out."""
    try:
        made = generate(classic(9), seed=1, symmetry=symmetry, clues=(20, 21),
                        max_attempts=3)
    except NumberplaceError as exc:
        assert str(exc) == ("no puzzle met the request in 3 attempts; ask for less, or "
                            "allow more time")
    else:
        assert 20 <= givens(made.puzzle) <= 21 and has_symmetry(made.puzzle, symmetry)
        assert_unique(made.puzzle, made.solution)
    try:
        made = generate(classic(9), seed=2, symmetry=symmetry, clues=(20, 21),
                        time_limit=0.5)
    except LimitError as exc:
        assert str(exc).startswith("no puzzle met the request within the time limit of "
                                   "0.5 s (")
    else:
        assert 20 <= givens(made.puzzle) <= 21 and has_symmetry(made.puzzle, symmetry)
