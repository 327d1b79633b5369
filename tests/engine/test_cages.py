"""Cages with sums in the engine: Kakuro and Killer searches agree with an independent
brute-force count that knows nothing of combination tables."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuros import X, random_kakuro, random_killer9
from numberplace import Puzzle, solve
from numberplace.engine import available_backends
from numberplace.errors import NumberplaceError, ShapeError
from numberplace.model.shape import Cage, Shape, classic, kakuro, killer


def fits(shape: Shape, values: tuple[int, ...]) -> bool:
    """Every cage holds values adding up to its sum, different unless the cage lets them
    repeat; every house every symbol."""
    for cage in shape.cages:
        digits = [values[c] for c in cage.cells]
        if not all(1 <= d <= shape.size for d in digits) or (
                not cage.repeats and len(set(digits)) != len(digits)):
            return False
        if cage.total is not None and sum(digits) != cage.total:
            return False
    return all(sorted(values[c] for c in h.cells) == list(range(1, shape.size + 1))
               for h in shape.houses)


def brute_force(shape: Shape, limit: int = 50) -> list[tuple[int, ...]]:
    """Every solution (up to ``limit``), by plain backtracking over cells in order, each
    cage checked for repeats and, once full, for its sum."""
    values = [0] * shape.ncells
    found: list[tuple[int, ...]] = []
    cages_of = [[k for k, cage in enumerate(shape.cages) if c in cage.cells]
                for c in range(shape.ncells)]
    houses_of = [[h for h in shape.houses if c in h.cells] for c in range(shape.ncells)]

    def ok(c: int) -> bool:
        v = values[c]
        for k in cages_of[c]:
            cage = shape.cages[k]
            digits = [values[x] for x in cage.cells if values[x]]
            if digits.count(v) > 1 and not cage.repeats:
                return False
            if cage.total is not None and (sum(digits) > cage.total or (
                    len(digits) == len(cage.cells) and sum(digits) != cage.total)):
                return False
        return all(sum(values[x] == v for x in h.cells) == 1 for h in houses_of[c])

    def fill(c: int) -> None:
        if len(found) >= limit:
            return
        if c == shape.ncells:
            found.append(tuple(values))
            return
        for v in range(1, shape.size + 1):
            values[c] = v
            if ok(c):
                fill(c + 1)
        values[c] = 0

    fill(0)
    return found


def test_the_smallest_kakuro() -> None:
    shape = kakuro([[X, (4, None), (10, None)], [(None, 3), None, None],
                    [(None, 11), None, None]])
    assert [c.total for c in shape.cages] == [4, 10, 3, 11]
    assert str(shape.cages[2]) == "across run of r2c1"
    result = solve(Puzzle(shape, (0,) * 4), limit=10, keep=10)
    assert result.status == "unique" and result.solutions == ((1, 2, 3, 8),)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(3, 5), cols=st.integers(3, 5),
       nudge=st.booleans())
def test_kakuro_counts_equal_a_brute_force(seed: int, rows: int, cols: int,
                                           nudge: bool) -> None:
    try:
        shape = random_kakuro(random.Random(seed), rows, cols, nudge)
    except (ValueError, ShapeError):
        return  # a layout without runs, or with a run no clue can serve
    expected = brute_force(shape, limit=200)
    result = solve(Puzzle(shape, (0,) * shape.ncells), limit=200, keep=200)
    assert result.count == len(expected)
    assert all(fits(shape, s) for s in result.solutions)
    if len(expected) < 200:  # every solution, not only the first 200 of each order
        assert sorted(result.solutions) == sorted(expected)


ALL_4X4 = [grid for grid in (
    tuple(itertools.chain(*rows)) for rows in itertools.product(
        itertools.permutations(range(1, 5)), repeat=4))
    if fits(classic(4), grid)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), sumless=st.booleans(), repeats=st.booleans())
def test_killer_counts_equal_a_brute_force(seed: int, sumless: bool, repeats: bool) -> None:
    rng = random.Random(seed)
    base = classic(4)
    truth = rng.choice(ALL_4X4)
    cells = list(range(16))
    rng.shuffle(cells)
    cages = []
    while cells:  # cages of 1 to 3 cells (not necessarily joined: the engine does not care)
        size = min(len(cells), rng.randint(1, 3))
        group, cells = cells[:size], cells[size:]
        total = None if sumless and rng.random() < 0.3 else sum(truth[c] for c in group)
        if total is not None and repeats and rng.random() < 0.6:  # digits may repeat
            cages.append((group, total, True))
        elif len({truth[c] for c in group}) == size:
            cages.append((group, total, False))
    shape = killer(base, cages)
    assert all(fits(shape, s) for s in brute_force(shape, 300))
    assert sorted(brute_force(shape, 300)) == sorted(g for g in ALL_4X4 if fits(shape, g))
    expected = [g for g in ALL_4X4 if fits(shape, g)]
    result = solve(Puzzle(shape, (0,) * 16), limit=300, keep=300)
    assert truth in result.solutions
    assert sorted(result.solutions) == sorted(expected)


def test_a_kakuro_with_a_run_without_its_clue_is_refused() -> None:
    with pytest.raises(ShapeError, match="across run from r2c2 has no clue"):
        kakuro([[X, (3, None), (4, None)], [X, None, None], [(None, 3), None, None]])
    with pytest.raises(ShapeError, match="has no white cell to its right"):
        kakuro([[X, (3, None), (4, 2)], [(None, 3), None, None], [(None, 4), None, None]])
    with pytest.raises(ShapeError, match="make 3 to 17"):
        kakuro([[X, (3, None), (20, None)], [(None, 3), None, None],
                [(None, 20), None, None]])


def test_cages_are_peers() -> None:
    shape = killer(classic(4), [((0, 5), 3)])
    assert 5 in shape.peers[0]
    assert shape.cages == (Cage((0, 5), 3, None, "cage 1"),)
    # a cage whose digits may repeat makes no peers, and needs a sum its cells can make
    shape = killer(classic(4), [((0, 10), 2, True)])
    assert 10 not in shape.peers[0] and shape.cages[0].repeats
    assert killer(classic(4), [((0, 10), 3, True)]) != killer(classic(4), [((0, 10), 3)])
    with pytest.raises(ShapeError, match="lets digits repeat, so it needs a sum"):
        killer(classic(4), [((0, 10), None, True)])
    with pytest.raises(ShapeError, match="2 digits from 1 to 4 make 2 to 8"):
        killer(classic(4), [((0, 10), 9, True)])


@pytest.mark.slow
@pytest.mark.skipif("c" not in available_backends(), reason="the compiled engine is not built")
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6),
       kind=st.sampled_from(["kakuro", "killer4", "killer9", "killer9-repeats"]))
def test_the_compiled_core_agrees_with_the_reference_node_for_node(seed: int,
                                                                   kind: str) -> None:
    rng = random.Random(seed)
    try:
        if kind == "kakuro":
            shape = random_kakuro(rng, rng.randint(4, 9), rng.randint(4, 9), rng.random() < 0.2)
        elif kind == "killer4":
            shape = killer(classic(4), [((c, c + 1), None) for c in range(0, 16, 4)]
                           + [((c,), rng.randint(1, 4)) for c in range(2, 16, 4)])
        else:
            shape = random_killer9(rng, repeats=kind == "killer9-repeats")
    except (ValueError, ShapeError):
        return
    puzzle = Puzzle(shape, (0,) * shape.ncells)
    # a few random layouts take a million nodes to prove they have no solution: the
    # engines must agree at the node limit too
    c = solve(puzzle, limit=50, keep=50, backend="c", node_limit=20_000)
    py = solve(puzzle, limit=50, keep=50, backend="python", node_limit=20_000)
    assert (c.status, c.count, c.nodes, c.guesses, c.solutions) == (
        py.status, py.count, py.nodes, py.guesses, py.solutions)
    assert all(puzzle.fits(s) for s in c.solutions)


def test_hints_reason_about_sums_and_generate_points_to_its_kinds() -> None:
    from numberplace.generate import generate
    from numberplace.logic.explain import next_hint

    shape = killer(classic(4), [((0, 1), 3)])
    hint = next_hint(Puzzle(shape, (0,) * 16))
    assert hint.step is not None and "the 3 cage at r1c1" in hint.step.text
    with pytest.raises(NumberplaceError, match="generate_sums"):
        generate(shape)


def test_the_exact_cage_rule_sees_what_the_coarse_one_misses() -> None:
    """10 in three cells, two of them 1 or 2: the third must be 7, though {1,3,6} and
    {2,3,5} each fit the cells one at a time."""
    from numberplace.engine import _pure
    from numberplace.engine.sums import combination_masks

    sets = combination_masks(10, 3, 9)
    b = (1 << 0) | (1 << 1)
    third = sum(1 << (v - 1) for v in (3, 5, 6, 7))
    coarse, exact = [b, b, third], [b, b, third]
    assert _pure._coarse_cage(coarse, (0, 1, 2), sets, []) is False
    assert coarse[2] == third
    queue: list[int] = []
    assert _pure._exact_cage(exact, (0, 1, 2), sets, queue) is True
    assert exact == [b, b, 1 << 6] and queue == [2]
    impossible = [1, 1, third]  # both 1: no set completes
    assert _pure._exact_cage(impossible, (0, 1, 2), sets, []) is None


#: A Kakuro whose clues come from a random filling of a wide-open layout: it has many
#: solutions, and a search that keeps to its first choices wanders for thousands of nodes.
WIDE_OPEN = """\
#     28\\   45\\   12\\   45\\   45\\   45\\   36\\   45\\   #
\\37   .     .     .     .     .     .     .     .     #
\\37   .     .     .     .     .     .     .     .     35\\
\\13   .     .     29\\36 .     .     .     .     .     .
\\45   .     .     .     .     .     .     .     .     .
\\45   .     .     .     .     .     .     .     .     .
\\45   .     .     .     .     .     .     .     .     .
\\30   .     .     .     .     .     .     6\\10  .     .
#     \\37   .     .     .     .     .     .     .     .
#     \\36   .     .     .     .     .     .     .     .
"""


@pytest.mark.skipif("c" not in available_backends(), reason="the compiled engine is not built")
def test_searches_with_sums_restart_alike_in_both_engines() -> None:
    from numberplace.engine._pure import FIRST_RESTART
    from numberplace.formats import parse

    puzzle = parse(WIDE_OPEN)
    c = solve(puzzle, limit=2, keep=2, backend="c")
    py = solve(puzzle, limit=2, keep=2, backend="python")
    assert c.status == "multiple" and c.nodes > 2 * FIRST_RESTART  # restarted at least once
    assert (c.count, c.nodes, c.guesses, c.solutions) == (
        py.count, py.nodes, py.guesses, py.solutions)
    assert all(puzzle.fits(s) for s in c.solutions)
