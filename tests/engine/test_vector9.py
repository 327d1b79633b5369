"""The 9x9 solver's vector form (AVX-512) against its scalar form and the general engine.

The compiled core takes the vector form on processors with AVX-512. Both forms must give
the same statuses, counts and unique solutions; where solutions of a puzzle with several
are kept, the scalar form's order (every engine's) must come out. On a processor without
AVX-512 these tests are skipped: there only the scalar form runs.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import Puzzle, Status, classic, engine, formats, native
from numberplace.engine import Result
from numberplace.engine.grids import random_grid, thinned_puzzle
from pace import within

from conftest import BOOK_PUZZLES, data_lines, shuffled_9x9

CORE = native.core
SHAPE = classic(9)


def _vector_form_runs() -> bool:
    return CORE is not None and bool(CORE.vector9())


pytestmark = pytest.mark.skipif(
    not _vector_form_runs(),
    reason="the processor has no AVX-512 (or the core is not built): only the scalar form runs")


@pytest.fixture
def scalar() -> Iterator[None]:
    """Run the test's searches in the scalar form, then switch the vector form back on."""
    assert CORE is not None
    CORE.vector9(False)
    try:
        yield
    finally:
        assert CORE.vector9(True)


def solve_in(vector: bool, puzzle: Puzzle, **kwargs: object) -> Result:
    """One search in the chosen form (the form in use afterwards is the vector one)."""
    assert CORE is not None
    CORE.vector9(vector)
    try:
        return engine.solve(puzzle, backend="c", **kwargs)  # type: ignore[arg-type]
    finally:
        CORE.vector9(True)


def both(puzzle: Puzzle, **kwargs: object) -> tuple[Result, Result]:
    return solve_in(True, puzzle, **kwargs), solve_in(False, puzzle, **kwargs)


def same_answer(a: Result, b: Result) -> None:
    assert (a.status, a.count, a.solutions) == (b.status, b.count, b.solutions)


def p9(line: str) -> Puzzle:
    return Puzzle(SHAPE, tuple(formats.values9(line) or b""))


def test_the_switch_reports_the_form_in_use() -> None:
    assert CORE is not None
    assert CORE.vector9() is True
    assert CORE.vector9(False) is False
    assert CORE.vector9() is False
    assert CORE.vector9(True) is True


def test_the_scalar_fixture_switches_the_vector_form_off(scalar: None) -> None:
    assert CORE is not None
    assert CORE.vector9() is False


@pytest.mark.parametrize("setting, vector", [("0", False), ("1", True), ("", True)])
def test_the_environment_can_keep_the_scalar_form(setting: str, vector: bool) -> None:
    """NUMBERPLACE_VECTOR9=0 keeps the scalar form in a process, and --version says which
    form runs."""
    env = {**os.environ, "NUMBERPLACE_VECTOR9": setting}
    run = [sys.executable, "-c", "from numberplace import engine; print(engine.vector9())"]
    out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(vector)
    run = [sys.executable, "-m", "numberplace", "--version"]
    out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert ("9x9 in AVX-512 vectors" in out) == vector


@pytest.mark.parametrize("text", BOOK_PUZZLES)
def test_book_puzzles(text: str) -> None:
    vec, sca = both(p9(text))
    same_answer(vec, sca)
    assert vec.status is Status.UNIQUE


@pytest.mark.parametrize("name", ["forum_hardest_1905_11plus.txt", "magictour_top1465.txt",
                                  "17_clue.txt", "kaggle_like_10k.txt", "top95.txt",
                                  "forum_hardest_1106.txt", "serg_benchmark.txt"])
def test_benchmark_files_agree(name: str) -> None:
    """Every 40th puzzle of each shared file, and a shuffled copy of it: the same
    statuses, counts and solutions in both forms (serg_benchmark's have several)."""
    rng = random.Random(name)
    lines = data_lines(name)[::40]
    assert lines
    for line in lines:
        for text in (line, shuffled_9x9(line, rng)):
            puzzle = p9(text)
            vec, sca = both(puzzle, limit=2, keep=2)
            same_answer(vec, sca)
            assert all(puzzle.fits(s) for s in vec.solutions)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), clues=st.integers(0, 40),
       limit=st.sampled_from([1, 2, 3, 10]), keep=st.sampled_from([0, 1, 3]))
def test_random_puzzles_agree(seed: int, clues: int, limit: int, keep: int) -> None:
    """Puzzles cut from random grids, most with many solutions: counts, statuses and kept
    solutions agree, and every solution keeps the givens."""
    puzzle = thinned_puzzle(SHAPE, random_grid(SHAPE, seed), clues, seed)
    vec, sca = both(puzzle, limit=limit, keep=keep)
    same_answer(vec, sca)
    assert all(puzzle.fits(s) for s in vec.solutions)
    assert vec.status is not Status.NONE


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), clues=st.integers(17, 45), changes=st.integers(1, 3))
def test_broken_puzzles_agree(seed: int, clues: int, changes: int) -> None:
    """Givens changed at random, so that most such puzzles have no solution or clashing
    givens: both forms agree, and a solution found is a real one."""
    rng = random.Random(seed)
    values = list(thinned_puzzle(SHAPE, random_grid(SHAPE, seed), clues, seed).givens)
    for cell in rng.sample([c for c, v in enumerate(values) if v], changes):
        values[cell] = rng.randint(1, 9)
    puzzle = Puzzle(SHAPE, tuple(values))
    vec, sca = both(puzzle, limit=2, keep=2)
    same_answer(vec, sca)
    assert all(puzzle.fits(s) for s in vec.solutions)


def test_counts_of_many_solutions_agree() -> None:
    """Counting only (nothing kept) is the vector form's own search: exact counts."""
    for seed in range(5):
        puzzle = thinned_puzzle(SHAPE, random_grid(SHAPE, seed), 22, seed)
        vec, sca = both(puzzle, limit=5000, keep=0)
        assert (vec.status, vec.count) == (sca.status, sca.count)


def test_first_solution_of_the_empty_grid_is_the_scalar_one() -> None:
    """Random grids start from the engine's first solution of the empty grid: it must not
    depend on the processor."""
    empty = Puzzle.empty(SHAPE)
    vec, sca = both(empty, limit=1, keep=1)
    same_answer(vec, sca)
    vec, sca = both(empty, limit=3, keep=3)
    same_answer(vec, sca)
    assert random_grid(SHAPE, 7) == random_grid(SHAPE, 7)


def test_the_node_limit_holds() -> None:
    vec = solve_in(True, Puzzle.empty(SHAPE), limit=10**6, keep=0, node_limit=1000)
    assert vec.status is Status.LIMIT
    assert vec.nodes == 1000


@pytest.mark.parametrize("node_limit", [40, 60, 80, 100, 1000])
def test_the_search_again_in_the_scalar_form_keeps_within_the_node_limit(node_limit: int
                                                                          ) -> None:
    """Solutions of the empty grid, kept: the scalar form's second search has what the
    first left of the node limit, and where it cannot finish the answer still stands."""
    vec = solve_in(True, Puzzle.empty(SHAPE), limit=3, keep=3, node_limit=node_limit)
    sca = solve_in(False, Puzzle.empty(SHAPE), limit=3, keep=3)
    assert vec.nodes <= node_limit
    assert vec.status in (Status.MULTIPLE, Status.LIMIT)
    if vec.status is Status.MULTIPLE:
        assert vec.count == 3
        assert all(Puzzle.empty(SHAPE).fits(s) for s in vec.solutions)
    if vec.nodes < node_limit:  # both searches finished
        assert vec.solutions == sca.solutions


def test_the_time_limit_holds() -> None:
    vec = solve_in(True, Puzzle.empty(SHAPE), limit=10**9, keep=0, time_limit=0.2)
    assert vec.status is Status.LIMIT
    assert within(vec.seconds, 2)


def test_hard_puzzles_take_fewer_nodes() -> None:
    """The minirow rule and the branch on configurations shrink the tree."""
    lines = data_lines("forum_hardest_1905_11plus.txt", 300)
    vec = sum(solve_in(True, p9(line), keep=0).nodes for line in lines)
    sca = sum(solve_in(False, p9(line), keep=0).nodes for line in lines)
    assert vec < 0.9 * sca
