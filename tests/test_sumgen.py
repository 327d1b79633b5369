"""Kakuro and Killer generation: layouts keep the rules of the form, every puzzle has one
solution by both engines, and a seed gives the same puzzle again."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import Puzzle, classic, engine, solve
from numberplace.engine import SumsProbe, available_backends
from numberplace.errors import LimitError, NumberplaceError
from numberplace.formats import parse, write
from numberplace.generate import sumgen
from numberplace.generate.sumgen import (
    black_group,
    generate_kakuro,
    generate_killer,
    kakuro_layout,
    layout_shape,
    random_filling,
    totals,
    with_sums,
)
from numberplace.limits import Deadline
from numberplace.model.shape import is_across

BACKENDS = available_backends()


def runs(white: tuple[tuple[bool, ...], ...]) -> list[int]:
    """The length of every maximal across and down stretch of white cells."""
    out = []
    for grid in (white, tuple(zip(*white, strict=True))):
        for row in grid:
            n = 0
            for w in (*row, False):
                if w:
                    n += 1
                elif n:
                    out.append(n)
                    n = 0
    return out


def assert_layout_rules(white: Sequence[Sequence[bool]]) -> None:
    """Clue row and column black, symmetric under a half turn, runs of 2 to 9, connected."""
    rows, cols = len(white), len(white[0])
    assert not any(white[0]) and not any(row[0] for row in white)
    assert all(white[r][c] == white[rows - r][cols - c]
               for r in range(1, rows) for c in range(1, cols))
    assert all(2 <= n <= 9 for n in runs(tuple(tuple(row) for row in white)))
    cells = {(r, c) for r in range(rows) for c in range(cols) if white[r][c]}
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == cells


def white_of(puzzle: Puzzle) -> list[list[bool]]:
    rows, cols = puzzle.shape.canvas
    white = [[False] * cols for _ in range(rows)]
    for r, c in puzzle.shape.coords:
        white[r][c] = True
    return white


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(6, 16), cols=st.integers(6, 16))
def test_layouts_are_symmetric_connected_and_in_runs_of_two_to_nine(seed: int, rows: int,
                                                                    cols: int) -> None:
    assert_layout_rules(kakuro_layout(random.Random(seed), rows, cols))


def test_large_layouts_keep_the_rules() -> None:
    for seed in range(2):
        assert_layout_rules(kakuro_layout(random.Random(seed), 30, 30))


#: A layout in which blacking out a cell of the square in the middle leaves cells alone
#: and cuts pieces off.
CASCADE = """
##########
###..##..#
###......#
#..##..#..
#..XX.#...
###XX#..##
#...#.....
#..#..##..
##......##
##..##..##
"""


def test_a_blackout_keeps_the_layout_rules_wherever_it_falls() -> None:
    layouts = [[[ch != "#" for ch in line] for line in CASCADE.split()]]
    layouts += [[list(row) for row in kakuro_layout(random.Random(seed), 11, 13)]
                for seed in range(3)]
    for white in layouts:
        rows, cols = len(white), len(white[0])
        went = 0
        for r in range(rows):
            for c in range(cols):
                group = black_group(white, (r, c))
                if not white[r][c]:
                    assert group is None
                    continue
                if group is None:
                    continue
                went += 1
                assert {(r, c), (rows - r, cols - c)} <= group
                assert all(white[y][x] for y, x in group)
                after = [[w and (y, x) not in group for x, w in enumerate(row)]
                         for y, row in enumerate(white)]
                assert any(map(any, after))
                assert_layout_rules(after)
        assert went
    # (4, 3) goes with its mirror image and cuts off the 2x2 corner pieces; (5, 4) takes
    # its whole square along, leaving two mirror-image halves: neither can be kept
    white = layouts[0]
    assert black_group(white, (4, 3)) == {(4, 3), (6, 7), (3, 1), (3, 2), (4, 1), (4, 2),
                                          (7, 9), (7, 8), (6, 9), (6, 8)}
    assert black_group(white, (5, 4)) is None


@pytest.mark.parametrize(("size", "seed"), [(6, 11), (7, 6), (9, 26), (10, 23)])
def test_kakuros_that_needed_a_blackout_are_unique_by_both_engines(size: int,
                                                                  seed: int) -> None:
    made = generate_kakuro(size, seed=seed)
    assert made.blackouts >= 1 and made.attempts == 1
    assert_layout_rules(white_of(made.puzzle))
    assert made.puzzle.fits(made.solution)
    for backend in BACKENDS:
        result = solve(made.puzzle, limit=2, backend=backend)
        assert result.status == "unique" and result.solution == made.solution
    assert generate_kakuro(size, seed=seed).puzzle == made.puzzle


@pytest.mark.parametrize("size", [10, 12, 15])
def test_a_repair_with_no_patience_blacks_out_until_unique(size: int,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(sumgen, "PATIENCE", 1)
    blackouts = 0
    for seed in range(4):
        made = generate_kakuro(size, seed=seed)
        blackouts += made.blackouts
        assert_layout_rules(white_of(made.puzzle))
        for backend in BACKENDS:
            result = solve(made.puzzle, limit=2, backend=backend)
            assert result.status == "unique" and result.solution == made.solution
    assert blackouts >= 2


def test_a_kakuro_generator_stops_at_its_deadline() -> None:
    with pytest.raises(LimitError, match="time limit"):
        generate_kakuro(30, seed=1, deadline=Deadline(0.05))


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_generated_kakuros_have_one_solution_by_both_engines(size: int) -> None:
    made = generate_kakuro(size, seed=size)
    assert made.puzzle.shape.canvas == (size, size)
    assert made.puzzle.fits(made.solution)
    for backend in BACKENDS:
        result = solve(made.puzzle, limit=2, backend=backend)
        assert result.status == "unique" and result.solution == made.solution
    again = generate_kakuro(size, seed=size)
    assert write(again.puzzle, "kakuro") == write(made.puzzle, "kakuro")
    assert parse(write(made.puzzle, "kakuro")).shape.cages == made.puzzle.shape.cages


def test_a_kakuro_generator_asked_the_impossible_says_so() -> None:
    with pytest.raises(NumberplaceError, match="rows must be"):
        generate_kakuro(2)
    with pytest.raises(NumberplaceError, match="rows must be"):
        generate_kakuro(1000)


@pytest.mark.parametrize("seed", range(6))
def test_generated_killers_have_one_solution_by_both_engines(seed: int) -> None:
    made = generate_killer(seed=seed)
    shape = made.puzzle.shape
    assert not any(made.puzzle.givens)
    assert sorted(c for cage in shape.cages for c in cage.cells) == list(range(81))
    assert all(len(cage.cells) <= 5 for cage in shape.cages)
    for backend in BACKENDS:
        result = solve(made.puzzle, limit=2, backend=backend)
        assert result.status == "unique" and result.solution == made.solution
    assert generate_killer(seed=seed).puzzle == made.puzzle


@pytest.mark.parametrize("size", [4, 6])
def test_killers_on_other_shapes(size: int) -> None:
    made = generate_killer(classic(size), seed=size, max_cage=3)
    assert all(len(cage.cells) <= 3 for cage in made.puzzle.shape.cages)
    assert solve(made.puzzle, limit=2).status == "unique"
    with pytest.raises(NumberplaceError, match="has cages already"):
        generate_killer(made.puzzle.shape)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_sums_probe_answers_as_the_shape_with_those_sums(backend: str) -> None:
    rng = random.Random(3)
    base = layout_shape(kakuro_layout(rng, 8, 8))
    probe = SumsProbe(base, backend=backend)
    filling = random_filling(rng, probe)
    assert filling is not None
    sums = totals(base, filling)
    shape = with_sums(base, sums)
    assert [c.total for c in shape.cages] == sums
    assert all(is_across(shape, a) == is_across(base, b)
               for a, b in zip(shape.cages, base.cages, strict=True))
    puzzle = Puzzle(shape, (0,) * shape.ncells)
    direct = solve(puzzle, limit=2, keep=2, backend=backend)
    probed = probe.solve(sums, limit=2, keep=2)
    assert (probed.status, probed.solutions, probed.nodes) == (
        direct.status, direct.solutions, direct.nodes)
    assert probe.propagate(sums) == engine.propagate(puzzle, backend=backend)
    with pytest.raises(NumberplaceError, match="totals for"):
        probe.propagate(sums[:-1])


@pytest.mark.skipif("c" not in BACKENDS, reason="the compiled engine is not built")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_propagation_alone_agrees_in_both_engines_and_keeps_every_solution(seed: int) -> None:
    rng = random.Random(seed)
    if rng.random() < 0.5:
        made = generate_killer(seed=seed)
        puzzle, solution = made.puzzle, made.solution
    else:
        base = layout_shape(kakuro_layout(rng, 7, 7))
        probe = SumsProbe(base)
        filling = random_filling(rng, probe)
        assert filling is not None
        solution = tuple(filling)
        shape = with_sums(base, totals(base, solution))
        puzzle = Puzzle(shape, (0,) * shape.ncells)
    board = engine.propagate(puzzle, backend="c")
    assert board == engine.propagate(puzzle, backend="python")
    assert board is not None
    assert all(m >> (v - 1) & 1 for m, v in zip(board, solution, strict=True))


def test_propagation_reports_a_contradiction() -> None:
    from numberplace.model.shape import killer

    # both halves of the first row make 3 (1 and 2): 3 and 4 have nowhere to go
    shape = killer(classic(4), [((0, 1), 3), ((2, 3), 3)])
    for backend in BACKENDS:
        assert engine.propagate(Puzzle(shape, (0,) * 16), backend=backend) is None


def test_the_documented_example_runs() -> None:
    from pathlib import Path

    text = Path(__file__).parents[1].joinpath("docs", "rating.md").read_text()
    block = text.split("### Kakuro and Killer", 1)[1].split("```python\n", 1)[1]
    exec(block.split("```", 1)[0], {})


def test_killer_cages_are_sized_as_published_ones() -> None:
    # at most one cage of one cell (a given in disguise) by default, none when asked;
    # mostly two and three cells, as in published Killers
    sizes: list[int] = []
    for seed in range(8):
        made = generate_killer(seed=seed)
        cages = [len(cage.cells) for cage in made.puzzle.shape.cages]
        assert cages.count(1) <= 1
        assert solve(made.puzzle, limit=2).status == "unique"
        sizes += cages
    assert 0.6 < sum(1 for s in sizes if s in (2, 3)) / len(sizes) < 0.95
    none = generate_killer(seed=3, one_cell_cages=0)
    assert all(len(cage.cells) > 1 for cage in none.puzzle.shape.cages)
    with pytest.raises(NumberplaceError, match="one_cell_cages"):
        generate_killer(seed=3, one_cell_cages=-1)


def test_the_one_cell_cages_option_is_for_killers(capsys: pytest.CaptureFixture[str]) -> None:
    from numberplace.cli import main

    assert main(["generate", "--shape", "killer", "--level", "1", "--seed", "2",
                 "--one-cell-cages", "0", "--format", "killer"]) == 0
    text = capsys.readouterr().out
    grid = text.split("cages:\n")[1].splitlines()[:9]
    labels = [ch for row in grid for ch in row]
    assert all(labels.count(ch) > 1 for ch in set(labels))
    assert main(["generate", "--one-cell-cages", "1"]) == 2
    assert "--one-cell-cages is for Killers" in capsys.readouterr().err
