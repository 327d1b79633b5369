"""Almost Locked Sets (ALS-XZ, ALS-XY-Wing, ALS-XY-Chain, Death Blossom) and Sue de Coq:
hand-made positions and soundness."""

from __future__ import annotations

from pathlib import Path

import pytest

from numberplace.engine.grids import minimal_puzzle, random_grid
from numberplace.logic import Board, als
from numberplace.logic.als import (
    ALS_XY_CHAIN,
    ALS_XY_WING,
    ALS_XZ,
    DEATH_BLOSSOM,
    SUE_DE_COQ,
    almost_locked_sets,
    find_als_xy_chain,
    find_als_xy_wing,
    find_als_xz,
    find_death_blossom,
    find_sue_de_coq,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines
from positions import (
    JIGSAW_9,
    S9,
    assert_sound,
    audit_generated,
    audit_lines,
    bivalue_chain,
    cell,
    elims,
    open_board,
    set_cands,
)

#: In registration order: Sue de Coq, then ALS-XZ.
FINDERS = [find_sue_de_coq, find_als_xz]


def cells_x(names: str, *values: int) -> set[tuple[int, int]]:
    return {(cell(n), v) for n in names.split() for v in values}


# -- ALS ------------------------------------------------------------------------------------

def test_almost_locked_sets_are_listed_once() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 2, 3)
    found = {tuple(a.cells) for a in almost_locked_sets(board, S9)}
    assert found == {(cell("r1c1"),), (cell("r1c2"),), (cell("r1c1"), cell("r1c2"))}


# -- ALS-XZ ---------------------------------------------------------------------------------

def als_xz_board() -> Board:
    """A = r2c1 {1,7}, r3c1 {1,5,7} (column 1); B = r8c1 {1,4}, r8c6 {4,5} (row 8)."""
    board = open_board()
    set_cands(board, "r2c1", 1, 7)
    set_cands(board, "r3c1", 1, 5, 7)
    set_cands(board, "r8c1", 1, 4)
    set_cands(board, "r8c6", 4, 5)
    return board


def test_als_xz() -> None:
    board = als_xz_board()
    steps = list(find_als_xz(board, S9))
    # the same removal also follows from A = r8c6 {4,5}, B = column 1's three cells, X = 4
    assert [set(s.eliminations) for s in steps] == [elims(("r3c6", 5))] * 2
    assert "set B r2c1, r3c1, r8c1 {1,4,5,7} in column 1" in steps[1].text
    step = steps[0]
    assert step.technique == ALS_XZ
    assert step.text == (
        "ALS-XZ: set A r8c1, r8c6 {1,4,5} in row 8 and set B r2c1, r3c1 {1,5,7} in "
        "column 1 share no cell; X = 1 is a restricted common value (every 1 of A sees "
        "every 1 of B), so X is in at most one set and the other is locked: Z = 5 is in A "
        "or B, remove 5 from r3c6")
    assert ("link", cell("r8c1"), 1) in step.highlights
    assert ("removed", cell("r3c6"), 5) in step.highlights
    assert step.describe(S9, "book").endswith("remove 5 from (6,3)")


def test_als_xz_does_not_fire() -> None:
    board = als_xz_board()
    board.eliminate(cell("r3c6"), 5)  # the pattern stands, but nothing is left to remove
    assert list(find_als_xz(board, S9)) == []
    board = als_xz_board()
    board.candidates[cell("r8c1")] = 0
    set_cands(board, "r8c2", 1, 4)  # B's 1 no longer sees A's 1s: no restricted common
    assert list(find_als_xz(board, S9)) == []


def test_als_xz_doubly_linked() -> None:
    # A = r1c1 {1,3}, r1c2 {2,3}; B = r1c5 {1,2}: 1 and 2 are both restricted commons,
    # so A holds 3 and one of 1, 2, and B the other.
    board = open_board()
    set_cands(board, "r1c1", 1, 3)
    set_cands(board, "r1c2", 2, 3)
    set_cands(board, "r1c5", 1, 2)
    steps = list(find_als_xz(board, S9))
    doubly = [s for s in steps if "doubly linked" in s.text]
    assert doubly
    expected = (cells_x("r1c3 r1c4 r1c6 r1c7 r1c8 r1c9", 1, 2, 3)
                | cells_x("r2c1 r2c2 r2c3 r3c1 r3c2 r3c3", 3))
    assert set(doubly[0].eliminations) == expected
    assert set().union(*(s.eliminations for s in steps)) == expected


# -- Sue de Coq -----------------------------------------------------------------------------

def sdc_board() -> Board:
    """r1c1, r1c2 {1,2,3,4} in row 1 and box 1; r1c7 {1,2} in the row; r3c3 {3,4} in box."""
    board = open_board()
    set_cands(board, "r1c1", 1, 2, 3, 4)
    set_cands(board, "r1c2", 1, 2, 3, 4)
    set_cands(board, "r1c7", 1, 2)
    set_cands(board, "r3c3", 3, 4)
    return board


def test_sue_de_coq() -> None:
    board = sdc_board()
    steps = list(find_sue_de_coq(board, S9))
    expected = (cells_x("r1c3 r1c4 r1c5 r1c6 r1c8 r1c9", 1, 2)
                | cells_x("r1c3 r2c1 r2c2 r2c3 r3c1 r3c2", 3, 4))
    assert [set(s.eliminations) for s in steps] == [expected]
    step = steps[0]
    assert step.technique == SUE_DE_COQ
    assert step.text.startswith(
        "Sue de Coq: r1c1, r1c2, where row 1 meets box 1, hold {1,2,3,4}; with r1c7 {1,2} "
        "in row 1 and r3c3 {3,4} in box 1, which share no value, these 4 cells hold as "
        "many values, each once: remove 1 from r1c3, ")
    assert ("pivot", cell("r1c1"), 4) in step.highlights
    assert ("cover", cell("r3c3"), 3) in step.highlights


def test_sue_de_coq_with_extra_values() -> None:
    # the box set r2c2 {3,5}, r3c3 {4,5} brings 5 in: 5 cells, 5 values
    board = sdc_board()
    set_cands(board, "r2c2", 3, 5)
    set_cands(board, "r3c3", 4, 5)
    steps = list(find_sue_de_coq(board, S9))
    expected = (cells_x("r1c3 r1c4 r1c5 r1c6 r1c8 r1c9", 1, 2)
                | cells_x("r1c3 r2c1 r2c3 r3c1 r3c2", 3, 4, 5))
    assert [set(s.eliminations) for s in steps] == [expected]


def test_sue_de_coq_does_not_fire() -> None:
    board = sdc_board()
    set_cands(board, "r3c3", 2, 4)  # line and box sets share 2
    assert list(find_sue_de_coq(board, S9)) == []
    board = sdc_board()
    set_cands(board, "r3c3", 3, 5)  # 5 cells' worth of values in 4 cells: nothing locked
    assert list(find_sue_de_coq(board, S9)) == []


# -- soundness ------------------------------------------------------------------------------

PROBE = [SUE_DE_COQ, ALS_XZ, ALS_XY_WING, DEATH_BLOSSOM, ALS_XY_CHAIN]


def wing_board(b_values: tuple[int, int]) -> Board:
    """Pivot r5c5 {1,2}; r5c1 {1,3} shares 1 with it, r1c5 shares 2."""
    board = open_board()
    set_cands(board, "r5c5", 1, 2)
    set_cands(board, "r5c1", 1, 3)
    set_cands(board, "r1c5", *b_values)
    return board


def test_als_xy_wing() -> None:
    steps = list(find_als_xy_wing(wing_board((2, 3)), S9))
    # r5c5 is 1 or 2, so r5c1 is 3 or r1c5 is 3: r1c1 sees both
    assert cells_x("r1c1", 3) in [set(s.eliminations) for s in steps]
    assert steps[0].technique == ALS_XY_WING
    assert "linked A-B by 1, B-C by 2" in steps[0].text or "by 2, B-C by 1" in steps[0].text


def test_als_xy_wing_does_not_fire() -> None:
    # r1c5 {2,4}: the ends share no value
    assert list(find_als_xy_wing(wing_board((2, 4)), S9)) == []


def test_death_blossom() -> None:
    steps = list(find_death_blossom(wing_board((2, 3)), S9))
    # the stem r5c5 is 1 (then r5c1 is 3) or 2 (then r1c5 is 3)
    assert cells_x("r1c1", 3) in [set(s.eliminations) for s in steps]
    assert steps[0].technique == DEATH_BLOSSOM
    assert steps[0].text.startswith("Death Blossom: stem r")


def test_death_blossom_does_not_fire() -> None:
    assert list(find_death_blossom(wing_board((2, 4)), S9)) == []




def test_als_xy_chain() -> None:
    steps = list(find_als_xy_chain(bivalue_chain((4, 1)), S9))
    # r1c1 -2- r1c5 -3- r5c5 -4- r5c9: r1c1 or r5c9 holds 1
    assert cells_x("r1c9 r5c1", 1) in [set(s.eliminations) for s in steps]
    assert all(s.technique == ALS_XY_CHAIN for s in steps)


def test_als_xy_chain_does_not_fire() -> None:
    assert list(find_als_xy_chain(bivalue_chain((4, 5)), S9)) == []


def test_als_xy_chain_length_and_budget_are_the_callers() -> None:
    wanted = cells_x("r1c9 r5c1", 1)
    # a chain of three sets at least (r1c1 and r1c5 are one set of row 1)
    board = bivalue_chain((4, 1))
    board.memo.als_chain_sets = 3
    assert wanted in [set(s.eliminations) for s in find_als_xy_chain(board, S9)]
    board = bivalue_chain((4, 1))
    board.memo.als_chain_sets = 2
    assert list(find_als_xy_chain(board, S9)) == []
    board = bivalue_chain((4, 1))
    board.memo.als_chain_steps = 1
    assert list(find_als_xy_chain(board, S9)) == []


def test_als_size_is_the_callers() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    set_cands(board, "r1c3", 2, 3)
    set_cands(board, "r1c4", 1, 2, 3, 4, 5)
    small = {len(s.cells) for s in almost_locked_sets(board, S9)}
    board.memo.als_cells = 2
    assert max(len(s.cells) for s in almost_locked_sets(board, S9, 2)) == 2
    assert max(small) >= 3


@pytest.mark.slow
def test_soundness_on_benchmark_puzzles() -> None:
    report = audit_lines(data_lines("magictour_top1465.txt", 150), PROBE)
    print(f"\nsteps found: {dict(report.found)}\nsteps applied: {dict(report.applied)}\n"
          f"solved fully: {report.solved} of {report.puzzles}")
    assert report.applied[ALS_XZ] and report.applied[SUE_DE_COQ]
    assert report.found[ALS_XY_WING] and report.found[DEATH_BLOSSOM]


@pytest.mark.parametrize("shape", [classic(6), jigsaw(JIGSAW_9), diagonal(S9)], ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    report = audit_generated(shape, (1, 2, 3), PROBE)
    print(f"\n{shape}: steps found: {dict(report.found)}, applied: {dict(report.applied)}")


def test_soundness_on_a_samurai() -> None:
    shape = samurai()
    solution = random_grid(shape, 3)
    report = assert_sound(minimal_puzzle(shape, solution, 3), PROBE, solution=solution)
    print(f"\nsamurai: steps found: {dict(report.found)}, applied: {dict(report.applied)}")
    assert report.applied[ALS_XZ] and report.applied[SUE_DE_COQ]


def test_sue_de_coq_skips_cores_no_two_side_sets_can_close(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On an open 16x16 every core of an intersection holds 16 values: two side sets of
    at most MAX_SDC_SET cells can never account for them, so no side set is listed."""
    def no_sets(*args: object) -> list[object]:
        raise AssertionError("side sets were listed")

    monkeypatch.setattr(als, "_side_sets", no_sets)
    shape = classic(16)
    board = Board.from_puzzle(Puzzle.empty(shape))
    assert list(find_sue_de_coq(board, shape)) == []


@pytest.mark.slow
@pytest.mark.parametrize("size,budget", [(9, None), (9, 2_000), (16, None)])
def test_the_compiled_als_chain_search_finds_the_python_ones_chains(
        size: int, budget: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """logic/_als.c's search of ALS-XY-Chains gives the steps of the Python search, in
    the same order, spending the same budget (a small one cuts both short alike)."""
    from numberplace import engine
    from numberplace.logic.driver import solve_path
    from numberplace.logic.explain import boards_before_steps

    if engine.backend_name() != "c":
        pytest.skip("the compiled core is not built")
    shape = classic(size)
    if size == 9:
        lines = data_lines("top95.txt", 8)
    else:
        lines = [(Path(__file__).parents[2] / "examples" / "16x16.txt").read_text().split()[0]]
    compared = found = 0
    for line in lines:
        puzzle = Puzzle.from_string(line, shape)
        path = solve_path(puzzle, guess=True, time_limit=120)
        for board in list(boards_before_steps(puzzle, path.steps))[::9 if size == 9 else 25]:
            board.memo.als_chain_steps = budget
            got = {}
            for backend in ("python", "c"):
                monkeypatch.setenv("NUMBERPLACE_BACKEND", backend)
                copy = board.copy()
                copy.memo.als_chain_steps = budget
                got[backend] = [(s.text, s.eliminations) for s in find_als_xy_chain(copy, shape)]
            assert got["c"] == got["python"]
            compared += 1
            found += len(got["c"])
    assert compared > 10 and found > 10
