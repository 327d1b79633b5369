"""The exact engine: statuses, limits, every shape, and agreement of the two back-ends."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import Puzzle, Status, by_name, classic, diagonal, engine, jigsaw, samurai
from numberplace.engine.grids import minimal_puzzle, random_grid, thinned_puzzle
from numberplace.model.shape import Shape
from pace import within

from conftest import BOOK_PUZZLES
from positions import JIGSAW_9

BACKENDS = engine.available_backends()

PENTOMINO_5X5 = "AAABB\nAABBB\nCCCDD\nCCDDE\nEEEDE\n"


def p9(text: str) -> Puzzle:
    return Puzzle(classic(9), tuple(0 if ch in ".0" else int(ch) for ch in text))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", BOOK_PUZZLES)
def test_book_puzzles_have_one_solution(text: str, backend: str) -> None:
    puzzle = p9(text)
    result = engine.solve(puzzle, backend=backend)
    assert result.status is Status.UNIQUE
    assert result.count == 1
    assert puzzle.fits(result.solution)
    assert result.nodes >= 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_grid_counts_up_to_the_limit(backend: str) -> None:
    result = engine.solve(Puzzle.empty(classic(9)), limit=500, keep=3, backend=backend)
    assert result.status is Status.MULTIPLE
    assert result.count == 500
    assert len(result.solutions) == 3
    assert len(set(result.solutions)) == 3
    assert all(Puzzle.empty(classic(9)).fits(s) for s in result.solutions)


@pytest.mark.parametrize("backend", BACKENDS)
def test_exact_small_counts(backend: str) -> None:
    # the number of 4x4 grids is 288
    assert engine.solve(Puzzle.empty(classic(4)), limit=1000, backend=backend).count == 288
    # a 9x9 solution with a "deadly rectangle" of four cells removed has two solutions
    solution = engine.first_solution(p9(BOOK_PUZZLES[0]))
    assert solution is not None
    grid = list(solution)
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    cells = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2]
                    a, b, c, d = (grid[i] for i in cells)
                    same_band = r1 // 3 == r2 // 3 or c1 // 3 == c2 // 3
                    if a == d and b == c and a != b and same_band:
                        holes = [0 if i in cells else v for i, v in enumerate(grid)]
                        result = engine.solve(Puzzle(classic(9), tuple(holes)), limit=10,
                                              backend=backend)
                        assert result.status is Status.MULTIPLE and result.count == 2
                        return
    pytest.fail("no deadly rectangle found")  # pragma: no cover


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_solution_without_a_clash(backend: str) -> None:
    # row 1 holds 1-8, and column 9 already has a 9 lower down: r1c9 has no value left
    text = "12345678." + "........9" + "." * 63
    result = engine.solve(p9(text), backend=backend)
    assert result.status is Status.NONE
    assert result.count == 0 and result.solution is None


def test_clashing_givens_are_reported_before_search() -> None:
    text = "5...5...." + "." * 72
    result = engine.solve(p9(text))
    assert result.status is Status.INVALID
    assert result.message == "5 appears twice in row 1: at r1c1 and r1c5"
    assert result.nodes == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_node_limit_ends_the_search_cleanly(backend: str) -> None:
    result = engine.solve(Puzzle.empty(classic(16)), limit=10_000, node_limit=50,
                          backend=backend)
    assert result.status is Status.LIMIT
    assert result.nodes <= 50
    cut_short = engine.solve(p9("1" + "." * 80), limit=10**9, keep=0, node_limit=10,
                             backend=backend)
    assert cut_short.status is Status.LIMIT and cut_short.count == 0
    assert cut_short.nodes == 10
    # solutions found before the budget ran out are a lower bound, not an answer
    longer = engine.solve(p9("1" + "." * 80), limit=10**9, keep=0, node_limit=1000,
                          backend=backend)
    assert longer.status is Status.LIMIT and longer.count >= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_gives_status_limit(backend: str) -> None:
    # the first solution of an empty 25x25 takes a few hundred nodes; the clock is read
    # every 256 nodes, so a budget of a microsecond stops the search before it
    result = engine.solve(Puzzle.empty(classic(25)), limit=1, time_limit=1e-6,
                          backend=backend)
    assert result.status is Status.LIMIT
    assert result.count == 0 and result.nodes == 256
    counting = engine.solve(Puzzle.empty(classic(16)), limit=10**9, keep=0, time_limit=0.05,
                            backend=backend)
    assert counting.status is Status.LIMIT and counting.count >= 2 and within(
        counting.seconds, 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pencil_marks_restrict_the_search(backend: str) -> None:
    puzzle = p9(BOOK_PUZZLES[0])
    solution = engine.first_solution(puzzle)
    assert solution is not None
    full = (1 << 9) - 1
    # remove the true value from the candidates of the first empty cell: no solution
    first_empty = puzzle.givens.index(0)
    cands = [full] * 81
    cands[first_empty] = full & ~(1 << (solution[first_empty] - 1))
    marked = Puzzle(puzzle.shape, puzzle.givens, puzzle.alphabet, tuple(cands))
    assert engine.solve(marked, backend=backend).status is Status.NONE
    # on the empty grid, pencil marks alone can force a unique solution
    only = tuple(1 << (v - 1) for v in solution)
    assert engine.solve(Puzzle(puzzle.shape, (0,) * 81, candidates=only),
                        backend=backend).solution == solution


SHAPES: list[Shape] = [classic(4), classic(6), by_name("6x6:3x2"), classic(8), classic(9),
                       diagonal(classic(9)), diagonal(classic(6)), jigsaw(PENTOMINO_5X5),
                       jigsaw(JIGSAW_9), classic(12), samurai()]


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10**6),
       fraction=st.floats(0.15, 0.9))
def test_back_ends_agree_on_random_puzzles(shape: Shape, seed: int, fraction: float) -> None:
    solution = random_grid(shape, seed)
    assert Puzzle.empty(shape).fits(solution)
    puzzle = thinned_puzzle(shape, solution, int(shape.ncells * fraction), seed)
    results = [engine.solve(puzzle, limit=3, keep=3, node_limit=5_000, backend=b)
               for b in BACKENDS]
    for r in results:
        assert r.status is not Status.NONE  # it was cut from a solution
        assert all(puzzle.fits(s) for s in r.solutions)
        assert solution in r.solutions or r.count == 3 or r.status is Status.LIMIT
    finished = [r for r in results if r.status is not Status.LIMIT]
    assert len({(r.status, r.count) for r in finished}) <= 1
    assert len({r.solutions for r in finished}) <= 1  # same order of search, same answers
    if not shape.is_classic9:  # elsewhere both run the same search, node for node
        assert len({(r.nodes, r.guesses) for r in results}) == 1


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10**6),
       fraction=st.floats(0.1, 0.9), clash=st.booleans())
def test_solve_givens_agrees_with_solve(shape: Shape, seed: int, fraction: float,
                                        clash: bool) -> None:
    """The lean call for generators: same status and first solution as ``solve``, and
    clashing givens have no solution."""
    solution = random_grid(shape, seed)
    givens = list(thinned_puzzle(shape, solution, int(shape.ncells * fraction), seed).givens)
    if clash:
        cell = next(c for c, v in enumerate(givens) if v)
        peer = shape.peers[cell][seed % len(shape.peers[cell])]
        givens[peer] = givens[cell]
    for backend in BACKENDS:
        status, first = engine.solve_givens(shape, givens, limit=2, keep=1,
                                            node_limit=5_000, backend=backend)
        full = engine.solve(Puzzle(shape, tuple(givens)), limit=2, keep=1,
                            node_limit=5_000, backend=backend)
        if clash:
            assert full.status is Status.INVALID
            assert status is Status.NONE and first is None
        else:
            assert (status, first) == (full.status, full.solution)


@pytest.mark.parametrize("shape", [classic(16), samurai(), jigsaw(JIGSAW_9)], ids=str)
def test_minimal_puzzles_of_large_shapes_are_unique(shape: Shape) -> None:
    solution = random_grid(shape, 7)
    puzzle = minimal_puzzle(shape, solution, 7)
    for backend in BACKENDS:
        result = engine.solve(puzzle, backend=backend)
        assert result.status is Status.UNIQUE
        assert result.solution == solution
    # and minimal: without any one given it is no longer unique (checked on a few)
    for cell in [i for i, v in enumerate(puzzle.givens) if v][:5]:
        fewer = list(puzzle.givens)
        fewer[cell] = 0
        assert engine.solve(puzzle.with_values(fewer)).status is Status.MULTIPLE


def test_empty_25x25_has_a_solution_quickly() -> None:
    result = engine.solve(Puzzle.empty(classic(25)), limit=1)
    assert result.status is Status.SOLVED
    assert Puzzle.empty(classic(25)).fits(result.solution)


def test_batch_matches_single_calls() -> None:
    puzzles = [p9(t) for t in BOOK_PUZZLES] + [p9("5...5" + "." * 76),
                                               Puzzle.empty(classic(9)),
                                               Puzzle.empty(classic(6))]
    batch = engine.solve_batch(puzzles)
    single = [engine.solve(p) for p in puzzles]
    assert [(r.status, r.count, r.solution) for r in batch] == [
        (r.status, r.count, r.solution) for r in single]
    assert batch[2].status is Status.INVALID


def test_bad_limits_are_errors() -> None:
    with pytest.raises(ValueError):
        engine.solve(Puzzle.empty(), limit=0)
    with pytest.raises(ValueError):
        engine.solve(Puzzle.empty(), node_limit=-1)


@functools.cache
def _reduced(shape: Shape, solution: tuple[int, ...]) -> Puzzle:
    return minimal_puzzle(shape, solution, 11, tries=shape.ncells // 3)


def _unsolvable(shape: Shape, solution: tuple[int, ...]) -> Puzzle:
    """A full grid with cell 0 changed to another value w and every peer holding w emptied.

    No givens clash, yet a peer p in a house of cell 0 must now take cell 0's old value v,
    which p's other house already holds: no solution.
    """
    v = solution[0]
    w = v % shape.size + 1
    givens = list(solution)
    givens[0] = w
    for p in shape.peers[0]:
        if solution[p] == w:
            givens[p] = 0
    return Puzzle(shape, tuple(givens))


@pytest.mark.parametrize("shape", [classic(4), classic(6), classic(9), classic(16),
                                   classic(25), diagonal(classic(9)), jigsaw(JIGSAW_9),
                                   samurai()], ids=str)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_shape_tells_none_unique_and_multiple(shape: Shape, backend: str) -> None:
    solution = random_grid(shape, 11)
    broken = _unsolvable(shape, solution)
    assert broken.clashes() == []
    assert engine.solve(broken, backend=backend).status is Status.NONE
    # givens removed only while one solution remains: the grid it was cut from
    few_holes = _reduced(shape, solution)
    assert few_holes.clue_count < shape.ncells * 0.8
    result = engine.solve(few_holes, backend=backend)
    assert result.status is Status.UNIQUE and result.solution == solution
    # an empty grid of every shape has many solutions
    many = engine.solve(Puzzle.empty(shape), limit=5, keep=5, backend=backend)
    assert many.status is Status.MULTIPLE and many.count == 5
    assert all(Puzzle.empty(shape).fits(s) for s in many.solutions)
