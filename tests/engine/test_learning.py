"""Clause learning in the compiled engine: the same answers as the depth-first search.

The compiled core goes on by clause learning when a depth-first search of a shape of 16 or
more symbols has taken 20,000 nodes without an answer. Its Engine takes the number of
depth-first nodes as an extra argument (1: learning from the root, negative: never), so
here the learning search is run on every shape, from the root, and compared with the
depth-first search on the same puzzles.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import Puzzle, Status, classic, diagonal, engine, jigsaw, samurai
from numberplace.engine.grids import minimal_puzzle, random_grid, thinned_puzzle
from numberplace.model.shape import Shape
from pace import within

from positions import JIGSAW_9

pytestmark = pytest.mark.skipif("c" not in engine.available_backends(),
                                reason="the compiled core is not built")

LEARN_FROM_ROOT = 1
NEVER = -1


def core_solve(puzzle: Puzzle, learn_after: int, *, limit: int = 2, keep: int = 2,
               node_limit: int = 0, time_limit: float = 0.0
               ) -> tuple[int, bool, list[tuple[int, ...]], int]:
    """The compiled engine's (count, aborted, solutions, nodes) for ``puzzle``."""
    core = engine._compiled(puzzle.shape)
    found, aborted, blob, nodes, _guesses = core.solve(
        bytes(puzzle.givens), engine._candidates_blob(puzzle), limit, keep, node_limit,
        time_limit, None, learn_after)
    n = puzzle.shape.ncells
    return found, bool(aborted), [tuple(blob[i:i + n]) for i in range(0, len(blob), n)], nodes


def every_solution(puzzle: Puzzle, limit: int) -> set[tuple[int, ...]]:
    result = engine.solve(puzzle, limit=limit, keep=limit, backend="python")
    assert result.status is not Status.LIMIT
    return set(result.solutions)


SMALL_SHAPES = [classic(4), classic(6), classic(9), diagonal(classic(6)),
                jigsaw(JIGSAW_9), samurai()]


@functools.cache
def grid(shape: Shape, seed: int) -> tuple[int, ...]:
    return random_grid(shape, seed)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SMALL_SHAPES[:5]), st.integers(0, 5), st.integers(0, 10**6),
       st.integers(1, 12))
def test_learning_counts_and_solutions_are_the_depth_first_ones(
        shape: Shape, grid_seed: int, seed: int, limit: int) -> None:
    """On puzzles with one, several or many solutions: the same count up to the limit,
    and every solution kept is one (all of them when there are fewer than the limit)."""
    full = grid(shape, grid_seed)
    clues = (seed % (shape.ncells // 2)) + shape.size // 2
    puzzle = thinned_puzzle(shape, full, clues, seed)
    want, _, _, _ = core_solve(puzzle, NEVER, limit=limit, keep=limit)
    found, aborted, sols, _ = core_solve(puzzle, LEARN_FROM_ROOT, limit=limit, keep=limit)
    assert not aborted
    assert found == want
    assert len(set(sols)) == len(sols) == found
    assert all(puzzle.fits(s) for s in sols)
    if found < limit:
        assert set(sols) == every_solution(puzzle, limit)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([classic(4), classic(6)]),
       st.lists(st.integers(0, 6), min_size=36, max_size=36))
def test_learning_on_any_givens_agrees_with_depth_first(shape: Shape, values: list[int]
                                                        ) -> None:
    """Arbitrary givens, most of them without a solution (their clashes left to the
    search): the statuses agree."""
    givens = tuple(v if v <= shape.size else 0 for v in values[:shape.ncells])
    puzzle = Puzzle(shape, givens)
    if puzzle.clashes():
        return
    want = core_solve(puzzle, NEVER, limit=3)
    got = core_solve(puzzle, LEARN_FROM_ROOT, limit=3)
    assert got[0] == want[0] and not got[1]
    assert set(got[2]) == set(want[2]) or want[0] == 3


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=str)
def test_learning_solves_minimal_puzzles_of_every_shape(shape: Shape) -> None:
    for seed in range(3):
        solution = grid(shape, seed)
        puzzle = minimal_puzzle(shape, solution, seed)
        found, aborted, sols, _ = core_solve(puzzle, LEARN_FROM_ROOT)
        assert (found, aborted, sols) == (1, False, [solution])


def test_learning_keeps_to_the_pencil_marks() -> None:
    """Candidates narrowed by hand are part of the problem: with the true value of a cell
    removed from its marks, there is no solution, whichever search runs."""
    shape = classic(9)
    solution = grid(shape, 1)
    puzzle = minimal_puzzle(shape, solution, 1)
    cell = puzzle.givens.index(0)
    marks = list(puzzle.candidates or [(1 << 9) - 1] * shape.ncells)
    marks[cell] &= ~(1 << (solution[cell] - 1))
    narrowed = Puzzle(shape, puzzle.givens, candidates=tuple(marks))
    assert core_solve(narrowed, NEVER)[:2] == (0, False)
    assert core_solve(narrowed, LEARN_FROM_ROOT)[:2] == (0, False)


@pytest.mark.parametrize("size", [16, 25])
def test_learning_on_big_grids(size: int) -> None:
    shape = classic(size)
    solution = grid(shape, 7)
    puzzle = minimal_puzzle(shape, solution, 7, tries=shape.ncells // 2)
    found, aborted, sols, _ = core_solve(puzzle, LEARN_FROM_ROOT)
    assert (found, aborted, sols) == (1, False, [solution])
    two = thinned_puzzle(shape, solution, shape.ncells // 3, 7)
    found, aborted, sols, _ = core_solve(two, LEARN_FROM_ROOT, limit=5, keep=5)
    assert found == 5 and not aborted and len(set(sols)) == 5
    assert all(two.fits(s) for s in sols)


def test_learning_honours_the_node_limit_and_the_time_limit() -> None:
    """Counting the solutions of a 25x25 grid with a third of its clues never ends: both
    budgets end it, with the solutions found so far counted."""
    shape = classic(25)
    sparse = thinned_puzzle(shape, grid(shape, 7), shape.ncells // 3, 7)
    found, aborted, _, nodes = core_solve(sparse, LEARN_FROM_ROOT, limit=10**6, keep=0,
                                          node_limit=20000)
    assert aborted and found > 0 and nodes <= 20000
    start = time.perf_counter()
    found, aborted, _, _ = core_solve(sparse, LEARN_FROM_ROOT, limit=10**6, keep=0,
                                      time_limit=0.3)
    assert aborted and found > 0
    assert within(time.perf_counter() - start, 3)


def test_by_default_small_shapes_never_learn() -> None:
    """A 9x9 search gives the node count of the pure-Python reference: no learning."""
    puzzle = minimal_puzzle(classic(9), grid(classic(9), 2), 2)
    c = engine.solve(puzzle, backend="c")
    py = engine.solve(puzzle, backend="python")
    assert (c.status, c.solutions, c.nodes) == (py.status, py.solutions, py.nodes)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([16, 25]), st.integers(0, 10**6), st.integers(0, 3))
def test_learning_agrees_with_depth_first_on_big_grids(size: int, seed: int, kind: int
                                                       ) -> None:
    """16x16 and 25x25 puzzles with none, one, or a few solutions: the learning search
    from the root gives the depth-first search's count and solutions."""
    shape = classic(size)
    solution = grid(shape, seed % 4)
    if kind == 1:
        puzzle = minimal_puzzle(shape, solution, seed, tries=shape.ncells // 4)
    else:
        # many clues left: a handful of solutions at most, which the depth-first search
        # lists quickly
        clues = shape.ncells * (60 + seed % 15) // 100
        puzzle = thinned_puzzle(shape, solution, clues, seed)
        if kind == 0:
            # the solution's value taken out of an empty cell's marks: most often no
            # solution is left
            cell = puzzle.givens.index(0)
            marks = [(1 << size) - 1] * shape.ncells
            marks[cell] &= ~(1 << (solution[cell] - 1))
            puzzle = Puzzle(shape, puzzle.givens, candidates=tuple(marks))
    want, aborted, sols, _ = core_solve(puzzle, NEVER, limit=4, keep=4)
    assert not aborted
    found, aborted, got, _ = core_solve(puzzle, LEARN_FROM_ROOT, limit=4, keep=4)
    assert not aborted and found == want
    assert all(puzzle.fits(s) for s in got)
    if want < 4:
        assert set(got) == set(sols)


#: A file of published 16x16 and 25x25 puzzles, one per line (such as those of Gecode's
#: Sudoku example, Alain Frisch's minimal 25x25 among them), kept outside the project.
PUBLISHED = os.environ.get("NUMBERPLACE_BIG_PUZZLES")


def published(size: int) -> list[Puzzle]:
    if not PUBLISHED or not Path(PUBLISHED).is_file():
        pytest.skip("no published big puzzles: set NUMBERPLACE_BIG_PUZZLES to a file of "
                    "them, one per line")
    lines = [x for x in Path(PUBLISHED).read_text().split() if not x.startswith("#")]
    found = [Puzzle.from_string(x, classic(size)) for x in lines if len(x) == size * size]
    if not found:
        pytest.skip(f"no {size}x{size} puzzle in {PUBLISHED}")
    return found


def test_learning_agrees_with_depth_first_on_published_16x16() -> None:
    for puzzle in published(16):
        want = core_solve(puzzle, NEVER)
        got = core_solve(puzzle, LEARN_FROM_ROOT)
        assert got[:3] == want[:3] and want[0] == 1


@pytest.mark.slow
def test_the_published_25x25_are_solved_and_proved_unique() -> None:
    """Beyond the depth-first search alone: the engine's answer (depth-first, then
    learning) is checked by the puzzle's own rules."""
    for puzzle in published(25):
        result = engine.solve(puzzle, time_limit=300)
        assert result.status is Status.UNIQUE
        assert result.solution is not None and puzzle.fits(result.solution)
