"""Chains (X, XY, AIC, grouped AIC) and forcing chains: hand-made positions and soundness."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from numberplace import engine, formats
from numberplace.engine.grids import random_grid
from numberplace.limits import Deadline
from numberplace.logic import Board, chains, solve_path
from numberplace.logic.board import values_of
from numberplace.logic.chain_search import ALL, LOOPS, Graph, _layers, bivalue_links, house_links
from numberplace.logic.chains import (
    AIC,
    ALS_AIC,
    ALS_NICE_LOOP,
    GROUPED_AIC,
    GROUPED_NICE_LOOP,
    NICE_LOOP,
    X_CHAIN,
    XY_CHAIN,
    find_aic,
    find_als_aic,
    find_als_nice_loop,
    find_grouped_aic,
    find_grouped_nice_loop,
    find_nice_loop,
    find_x_chain,
    find_xy_chain,
)
from numberplace.logic.explain import boards_before_steps
from numberplace.logic.forcing import (
    CELL_FORCING,
    FORCING_CONTRADICTION,
    FORCING_CONTRADICTION_PLUS,
    HOUSE_FORCING,
    _propagate_compiled,
    _propagate_python,
    find_cell_forcing_chain,
    find_forcing_contradiction,
    find_forcing_contradiction_plus,
    find_house_forcing_chain,
    propagate,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines
from positions import (
    JIGSAW_9,
    S9,
    audit_generated,
    audit_lines,
    bivalue_chain,
    cell,
    col,
    elims,
    keep_only,
    open_board,
    row,
    set_cands,
)


def removals(steps: list) -> list[set[tuple[int, int]]]:
    return [set(s.eliminations) for s in steps]


# -- X-Chain -------------------------------------------------------------------------------

def x_bivalue_chain(other_end: str) -> Board:
    board = open_board()
    keep_only(board, 4, row(1), "r1c2", "r1c7")
    keep_only(board, 4, row(5), other_end, "r5c3")
    return board


def test_x_chain() -> None:
    steps = list(find_x_chain(x_bivalue_chain("r5c7"), S9))
    assert removals(steps) == [elims(("r2c3", 4), ("r3c3", 4), ("r4c2", 4), ("r6c2", 4))]
    assert steps[0].technique == X_CHAIN
    assert steps[0].text == ("X-Chain on 4: r1c2 = r1c7 - r5c7 = r5c3: remove 4 from r2c3, "
                             "r3c3, r4c2, r6c2")


def test_x_chain_does_not_fire() -> None:
    # r5c8 does not see r1c7: the two strong links are not joined
    assert list(find_x_chain(x_bivalue_chain("r5c8"), S9)) == []


# -- XY-Chain ------------------------------------------------------------------------------



def test_xy_chain() -> None:
    steps = list(find_xy_chain(bivalue_chain((4, 1)), S9))
    assert removals(steps) == [elims(("r1c9", 1), ("r5c1", 1))]
    assert steps[0].technique == XY_CHAIN
    assert steps[0].text == ("XY-Chain: (1=2)r1c1 - (2=3)r1c5 - (3=4)r5c5 - (4=1)r5c9: "
                             "remove 1 from r1c9, r5c1")


def test_xy_chain_does_not_fire() -> None:
    assert list(find_xy_chain(bivalue_chain((4, 5)), S9)) == []


# -- AIC -----------------------------------------------------------------------------------

def aic_board(link_end: str) -> Board:
    board = open_board()
    keep_only(board, 1, col(1), "r1c1", "r5c1")
    set_cands(board, "r5c5", 1, 2)
    keep_only(board, 2, col(6), "r1c6", link_end)
    return board


def test_aic_with_ends_of_two_values_seeing_each_other() -> None:
    steps = list(find_aic(aic_board("r4c6"), S9))
    assert removals(steps) == [elims(("r1c1", 2), ("r1c6", 1))]
    assert steps[0].technique == AIC
    assert steps[0].text == ("AIC: (1)r1c1 = (1)r5c1 - (1)r5c5 = (2)r5c5 - (2)r4c6 = "
                             "(2)r1c6: remove 1 from r1c6; 2 from r1c1")


def test_aic_does_not_fire() -> None:
    # r7c6 does not see r5c5, so the chain breaks
    board = aic_board("r7c6")
    assert list(find_aic(board, S9)) == []
    assert list(find_grouped_aic(board, S9)) == []


def test_aic_ends_in_one_cell() -> None:
    board = open_board()
    keep_only(board, 1, row(1), "r1c1", "r1c5")
    keep_only(board, 2, row(1), "r1c1", "r1c5")
    set_cands(board, "r1c5", 1, 2, 3)
    steps = list(find_aic(board, S9))
    # (1)r1c1 = (1)r1c5 - (2)r1c5 = (2)r1c1: r1c1 is 1 or 2
    assert {(cell("r1c1"), v) for v in range(3, 10)} in removals(steps)


def grouped_board() -> Board:
    board = open_board()
    keep_only(board, 4, row(1), "r1c2", "r1c7", "r1c8")
    keep_only(board, 4, col(9), "r3c9", "r7c9")
    return board


def test_grouped_aic() -> None:
    steps = list(find_grouped_aic(grouped_board(), S9))
    assert removals(steps) == [elims(("r7c2", 4))]
    assert steps[0].technique == GROUPED_AIC
    assert steps[0].text == ("Grouped AIC: (4)r1c2 = (4)r1c7/r1c8 - (4)r3c9 = (4)r7c9: "
                             "remove 4 from r7c2")


def test_grouped_chain_needs_grouping() -> None:
    board = grouped_board()
    assert list(find_aic(board, S9)) == []
    assert list(find_x_chain(board, S9)) == []


# -- nice loops ----------------------------------------------------------------------------

def test_discontinuous_nice_loop_proves_its_start_false() -> None:
    board = open_board()
    set_cands(board, "r1c5", 1, 2)
    set_cands(board, "r5c5", 2, 3)
    set_cands(board, "r5c1", 1, 3)
    steps = list(find_nice_loop(board, S9))
    # (1)r1c1 - (1)r1c5 = (2)r1c5 - (2)r5c5 = (3)r5c5 - (3)r5c1 = (1)r5c1 - (1)r1c1
    loop = next(s for s in steps if set(s.eliminations) == elims(("r1c1", 1)))
    assert loop.technique == NICE_LOOP
    assert loop.text.startswith("Discontinuous Nice Loop: (1)r1c1 - (1)")
    assert "it is not 1" in loop.text


def test_discontinuous_nice_loop_proves_its_start_true() -> None:
    board = open_board()
    keep_only(board, 1, row(1), "r1c1", "r1c5")
    keep_only(board, 1, row(5), "r5c5", "r5c2")
    keep_only(board, 1, [cell(f"r{r}c{c}") for r in (1, 2, 3) for c in (1, 2, 3)], "r1c1", "r2c2")
    steps = list(find_nice_loop(board, S9))
    # (1)r1c1 = (1)r1c5 - (1)r5c5 = (1)r5c2 - (1)r2c2 = (1)r1c1: not 1 makes it 1
    wanted = {(cell("r1c1"), v) for v in range(2, 10)}
    loop = next(s for s in steps if set(s.eliminations) == wanted)
    assert "it is 1" in loop.text


def test_continuous_nice_loop_turns_its_weak_links_strong() -> None:
    board = open_board()
    keep_only(board, 7, row(2), "r2c2", "r2c8")
    keep_only(board, 7, row(8), "r8c2", "r8c8")
    steps = list(find_nice_loop(board, S9))
    # (7)r2c2 = (7)r2c8 - (7)r8c8 = (7)r8c2 - (7)r2c2: the columns' other 7s go (an X-Wing)
    wanted = {(cell(f"r{r}c{c}"), 7) for c in (2, 8) for r in (1, 3, 4, 5, 6, 7, 9)}
    loop = next(s for s in steps if set(s.eliminations) == wanted)
    assert loop.text.startswith("Continuous Nice Loop: ")


def test_nice_loop_does_not_fire_without_strong_links() -> None:
    assert list(find_nice_loop(open_board(), S9)) == []
    assert list(find_grouped_nice_loop(open_board(), S9)) == []


def test_grouped_nice_loop_goes_through_a_group() -> None:
    steps = list(find_grouped_nice_loop(grouped_board(), S9))
    assert steps and all(s.technique == GROUPED_NICE_LOOP for s in steps)
    assert all("/" in s.text.split(";")[0] for s in steps)
    # the grouped AIC's elimination, proved as a loop from r7c2
    assert elims(("r7c2", 4)) in removals(steps)
    assert list(find_nice_loop(grouped_board(), S9)) == []


def test_chain_length_budget_is_the_callers() -> None:
    board = aic_board("r4c6")
    assert list(find_aic(board, S9))
    board.memo.chain_links = 4
    assert list(find_aic(board, S9)) == []


# -- forcing chains ------------------------------------------------------------------------

def test_propagate_follows_singles_and_reports_contradictions() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    set_cands(board, "r1c3", 1, 3)
    assert propagate(board, cell("r1c1"), 1) is None
    out = propagate(board, cell("r1c1"), 2)
    assert out is not None
    assert out[0][cell("r1c1")] == 2


def test_cell_forcing_chain() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r2c2", 1, 3)
    set_cands(board, "r3c3", 2, 3)
    step = next(find_cell_forcing_chain(board, S9))
    others = ["r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2"]
    assert set(step.eliminations) == {(cell(n), v) for n in others for v in (1, 2, 3)}
    assert step.technique == CELL_FORCING
    assert step.text.startswith("Cell Forcing Chain: r1c1 holds one of 1, 2; each case, "
                                "followed by singles, leads to the same, so remove 1 from ")


def test_cell_forcing_chain_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r2c2", 1, 3)
    set_cands(board, "r3c3", 2, 4)
    assert next(find_cell_forcing_chain(board, S9), None) is None


def house_board(second: tuple[int, int]) -> Board:
    board = open_board()
    keep_only(board, 5, row(1), "r1c1", "r1c5")
    set_cands(board, "r5c1", 5, 7)
    set_cands(board, "r5c5", *second)
    return board


def test_house_forcing_chain() -> None:
    step = next(find_house_forcing_chain(house_board((5, 7)), S9))
    rest5 = [f"r5c{c}" for c in (2, 3, 4, 6, 7, 8, 9)]
    cols = [f"r{r}c{c}" for r in (2, 3, 4, 6, 7, 8, 9) for c in (1, 5)]
    assert set(step.eliminations) == ({(cell(n), 5) for n in rest5 + cols}
                                      | {(cell(n), 7) for n in rest5})
    assert step.placements == ()
    assert step.technique == HOUSE_FORCING
    assert step.text.startswith("House Forcing Chain: 5 goes in row 1 at one of r1c1, r1c5;")


def test_house_forcing_chain_does_not_fire() -> None:
    assert next(find_house_forcing_chain(house_board((5, 8)), S9), None) is None


def test_forcing_contradiction() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    set_cands(board, "r1c3", 1, 3)
    step = next(find_forcing_contradiction(board, S9))
    assert step.technique == FORCING_CONTRADICTION
    assert step.eliminations == ((cell("r1c1"), 1),)
    assert step.text == ("Forcing Chain Contradiction: 1 in r1c1, followed by singles, "
                         "breaks the board: remove 1 from r1c1")


def test_forcing_contradiction_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    set_cands(board, "r1c3", 1, 4)
    assert next(find_forcing_contradiction(board, S9), None) is None
    assert next(find_forcing_contradiction_plus(board, S9), None) is None


def locked_board() -> Board:
    # 7 of row 1 in r1c1, r1c2 and r1c4 (6 or 7); r2c1 and r2c2 hold 7 or 9
    board = open_board()
    keep_only(board, 7, row(1), "r1c1", "r1c2", "r1c4")
    set_cands(board, "r1c4", 6, 7)
    set_cands(board, "r2c1", 7, 9)
    set_cands(board, "r2c2", 7, 9)
    return board


def test_propagate_with_locked_candidates() -> None:
    board = locked_board()
    # 6 in r1c4 leaves row 1's 7 in box 1, so box 1's other cells lose 7: r2c1 and r2c2
    # both keep only 9. Singles alone see nothing wrong.
    assert propagate(board, cell("r1c4"), 6) is not None
    assert propagate(board, cell("r1c4"), 6, locked=True) is None
    assert propagate(board, cell("r1c4"), 7, locked=True) is not None


def plus_board() -> tuple[Board, Puzzle]:
    """The board of a hard benchmark puzzle where its path first needs the (+) chain."""
    puzzle = formats.parse(data_lines("magictour_top1465.txt", 2)[1])
    path = solve_path(puzzle)
    for board, step in zip(boards_before_steps(puzzle, path.steps), path.steps, strict=True):
        if step.technique == FORCING_CONTRADICTION_PLUS:
            return board, puzzle
    raise AssertionError("the puzzle's path has no (+) chain")


def test_forcing_contradiction_plus_goes_where_singles_stop() -> None:
    board, puzzle = plus_board()
    assert next(find_forcing_contradiction(board, S9), None) is None
    step = next(find_forcing_contradiction_plus(board, S9))
    assert step.technique == FORCING_CONTRADICTION_PLUS
    solution = engine.solve(puzzle, limit=1).solution
    assert solution is not None
    assert all(solution[c] != v for c, v in step.eliminations)
    assert "followed by singles and locked candidates, breaks the board" in step.text


# -- chains through almost locked sets ----------------------------------------------------

def als_board(*cands: tuple[str, tuple[int, ...]]) -> Board:
    board = open_board()
    for name, values in cands:
        set_cands(board, name, *values)
    return board


def test_an_aic_passes_through_an_almost_locked_set() -> None:
    # r1c1, r1c2, r1c7 {1,2,3,4} are three cells of row 1 with four values: (4)r1c7 off
    # locks 1 in them, in r1c1 alone, which r5c1 then cannot hold, so r5c1 is 4
    board = als_board(("r1c1", (1, 2, 3)), ("r1c2", (2, 3)), ("r1c7", (2, 4)),
                      ("r5c1", (1, 4)))
    steps = list(find_als_aic(board, S9))
    assert removals(steps) == [elims(("r5c7", 4))]
    assert steps[0].technique == ALS_AIC
    assert steps[0].text == (
        "AIC with ALS: (4)r1c7 =[ALS r1c1, r1c2, r1c7 {1,2,3,4}]= (1)r1c1 - (1)r5c1 = "
        "(4)r5c1: remove 4 from r5c7")
    loops = list(find_als_nice_loop(board, S9))
    assert removals(loops) == [elims(("r5c7", 4))]
    assert loops[0].technique == ALS_NICE_LOOP
    # without the set, no chain of any reach
    for finder in (find_aic, find_grouped_aic, find_nice_loop, find_grouped_nice_loop):
        assert list(finder(board, S9)) == []


def test_a_chain_with_als_needs_an_almost_locked_set() -> None:
    # an AIC through bivalue cells alone is not one through a set
    board = aic_board("r4c6")
    assert list(find_aic(board, S9))
    assert list(find_als_aic(board, S9)) == []
    assert list(find_als_aic(open_board(), S9)) == []
    assert list(find_als_nice_loop(open_board(), S9)) == []


def test_a_barren_search_through_sets_leaves_the_loops_through_sets_unbounded() -> None:
    # a continuous loop's set may hold values no AIC ends on: its nice loops are all looked
    # for, whatever the AIC search through sets found
    board = open_board()
    assert list(find_als_aic(board, S9)) == []
    assert list(find_grouped_aic(board, S9)) == []
    reaches = {reach for _, reach in board.memo.aic_barren}
    assert 1 in reaches and 2 not in reaches


def test_a_continuous_loop_locks_the_other_values_of_its_almost_locked_set() -> None:
    # (1)r1c1 - (1)r1c7 = (2)r1c7 - (2)r1c1/r1c2 =ALS= (1)r1c1: one of 1 and 2 is in the
    # set r1c1, r1c2, so 3 is too, in box 1 as well as row 1
    board = als_board(("r1c1", (1, 2, 3)), ("r1c2", (2, 3)), ("r1c7", (1, 2)))
    steps = [s for s in find_als_nice_loop(board, S9) if s.text.startswith("Continuous")]
    wanted = {(cell(f"r1c{c}"), v) for c in (3, 4, 5, 6, 8, 9) for v in (1, 2, 3)}
    wanted |= {(cell(f"r{r}c{c}"), 3) for r in (2, 3) for c in (1, 2, 3)}
    loop = next(s for s in steps if set(s.eliminations) == wanted)
    assert "each almost locked set it passes holds its other values" in loop.text


# -- soundness -----------------------------------------------------------------------------

PROBE = [X_CHAIN, XY_CHAIN, AIC, GROUPED_AIC, ALS_AIC, ALS_NICE_LOOP, CELL_FORCING,
         HOUSE_FORCING, FORCING_CONTRADICTION, FORCING_CONTRADICTION_PLUS]


@pytest.mark.slow
def test_soundness_and_coverage_on_benchmark_puzzles() -> None:
    report = audit_lines(data_lines("magictour_top1465.txt", 150), PROBE, exhaustive=False)
    print(f"\nfired: {dict(report.found)}\nsolved without guessing: {report.solved}/"
          f"{report.puzzles} = {report.solved / report.puzzles:.1%}")
    assert report.found[AIC] and report.found[CELL_FORCING]
    assert report.solved / report.puzzles >= 0.9


@pytest.mark.parametrize("shape", [classic(6), jigsaw(JIGSAW_9), diagonal(S9)], ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    report = audit_generated(shape, (1, 2, 3), PROBE, exhaustive=False)
    print(f"\n{shape}: {dict(report.found)}")



def test_a_remote_pair_removes_both_values_from_cells_seeing_both_colours() -> None:
    from numberplace.logic.chains import REMOTE_PAIR, find_remote_pair

    board = open_board()
    for name in ("r1c1", "r1c5", "r5c5"):
        set_cands(board, name, 1, 2)
    # three cells: r1c1 and r5c5 are two steps apart, so a cell seeing both learns nothing
    assert not any(cell("r5c1") in {c for c, _ in s.eliminations}
                   for s in find_remote_pair(board, S9))
    set_cands(board, "r5c9", 1, 2)
    (step,) = find_remote_pair(board, S9)
    assert step.technique == REMOTE_PAIR
    gone = set(step.eliminations)
    assert {(cell("r5c1"), 1), (cell("r5c1"), 2), (cell("r1c9"), 1), (cell("r1c9"), 2)} <= gone
    assert not any(c == cell("r2c2") for c, _ in gone)  # it sees r1c1 alone
    assert step.text.startswith("Remote Pair: r1c1, r1c5, r5c5, r5c9 hold only 1, 2")


def _boards_on_the_way(shape: Shape, solution: tuple[int, ...], rng: random.Random
                       ) -> Iterator[Board]:
    """Boards of a grid with some of its values given, as forcing chains meet them: each
    a fixed point of the singles (no cell left with one candidate and no value), from
    sparse ones where most premises lead on to dense ones where many break the board."""
    for share in (0.2, 0.3, 0.4, 0.5, 0.6):
        kept = set(rng.sample(range(shape.ncells), int(share * shape.ncells)))
        puzzle = Puzzle(shape, tuple(v if c in kept else 0 for c, v in enumerate(solution)))
        board = Board.from_puzzle(puzzle)
        c = rng.choice([c for c, v in enumerate(board.values) if not v])
        out = _propagate_python(board, c, solution[c], False)
        assert out is not None  # a true value never breaks the board
        yield Board(shape, out[0], out[1])


@pytest.mark.slow
@pytest.mark.parametrize("shape", [classic(9), classic(6), classic(16), diagonal(),
                                   jigsaw(JIGSAW_9), samurai()],
                         ids=["9x9", "6x6", "16x16", "diagonal", "jigsaw", "samurai"])
def test_the_compiled_propagation_ends_where_the_rules_here_end(shape: Shape) -> None:
    if engine.backend_name() != "c":
        pytest.skip("the compiled core is not built")
    rng = random.Random(shape.ncells)
    compared = broken = 0
    for seed in range(1, 7):
        for board in _boards_on_the_way(shape, random_grid(shape, seed), rng):
            open_cells = [c for c, m in enumerate(board.candidates) if m]
            for c in rng.sample(open_cells, min(8, len(open_cells))):
                for v in values_of(board.candidates[c]):
                    for locked in (False, True):
                        expected = _propagate_python(board, c, v, locked)
                        assert _propagate_compiled(board, c, v, locked) == expected
                        compared += 1
                        broken += expected is None
    assert compared > 100 and broken >= 5  # both kinds of outcome were compared


@pytest.mark.parametrize("size", [16, 25])
def test_a_board_without_strong_links_builds_no_chain_graph(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """An open big grid has no bivalue cell and no value twice in a house: no chain can
    start, so the graph of every candidate (seconds to build on a 25x25) is never built,
    and the nice loops know the AIC search found nothing."""
    def no_graph(*args: object, **kwargs: object) -> None:
        raise AssertionError("a chain graph was built")

    monkeypatch.setattr(chains, "Graph", no_graph)
    shape = classic(size)
    board = Board.from_puzzle(Puzzle.empty(shape))
    for finder in (find_aic, find_grouped_aic, find_als_aic, find_nice_loop,
                   find_grouped_nice_loop, find_als_nice_loop):
        assert list(finder(board, shape)) == []
    assert {reach for _, reach in board.memo.aic_barren} == {0, 1}


def _chain_boards(shape: Shape, puzzles: list[str], every: int) -> Iterator[Board]:
    """Boards on the way of each puzzle's path, as the chain finders meet them (every
    ``every``-th board, from before the first step on)."""
    for text in puzzles:
        puzzle = Puzzle.from_string(text, shape)
        path = solve_path(puzzle, guess=True, time_limit=120)
        yield from islice(boards_before_steps(puzzle, path.steps), 0, None, every)


EXAMPLES = Path(__file__).parents[2] / "examples"

CHAIN_FINDERS = (find_x_chain, find_xy_chain, find_aic, find_nice_loop, find_grouped_aic,
                 find_grouped_nice_loop, find_als_aic, find_als_nice_loop)


@pytest.mark.slow
@pytest.mark.parametrize("size", [9, 16])
def test_the_compiled_chain_search_finds_the_chains_of_the_python_one(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled layers of the chain search (logic/_chains.c) give every chain finder
    the same steps, in the same order, as the Python search."""
    if engine.backend_name() != "c":
        pytest.skip("the compiled core is not built")
    if size == 9:
        puzzles = data_lines("top95.txt", 6)
    else:
        puzzles = [(EXAMPLES / "16x16.txt").read_text().split()[0]]
    compared = found = 0
    for board in _chain_boards(classic(size), puzzles, 7 if size == 9 else 40):
        for finder in CHAIN_FINDERS:
            got = {}
            for backend in ("python", "c"):
                monkeypatch.setenv("NUMBERPLACE_BACKEND", backend)
                copy = board.copy()
                copy.memo.deadline = Deadline(None)
                got[backend] = [(s.text, s.eliminations)
                                for s in islice(finder(copy, classic(size)), 25)]
            assert got["c"] == got["python"], finder.__name__
            compared += 1
            found += len(got["c"])
    assert compared > 50 and found > 100


@pytest.mark.parametrize("mode", [ALL, LOOPS])
def test_the_compiled_layers_are_the_python_layers(mode: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Round by round the same pairs in the same order, and each start's distances; the
    loops' mode keeps the pairs ending in the start's cell and every closed loop."""
    if engine.backend_name() != "c":
        pytest.skip("the compiled core is not built")
    puzzle = Puzzle.from_string(data_lines("top95.txt", 1)[0], S9)
    board = Board.from_puzzle(puzzle)
    graph = Graph(board, house_links(board, range(1, 10), True) + bivalue_links(board),
                  True, singles=True)
    nodes = graph.nodes
    starts = [2 * i + on for i, (m, _) in enumerate(nodes) if not m & (m - 1)
              for on in (1, 0)]
    in_cell: dict[int, list[int]] = {}
    for i, (m, _) in enumerate(nodes):
        if not graph.strong[i]:
            in_cell.setdefault(m, []).append(i)
    ends = {s: in_cell.get(nodes[s >> 1][0], []) for s in starts}
    monkeypatch.setenv("NUMBERPLACE_BACKEND", "python")
    want = [(list(r), list(c), {s: dict(d[s]) for s in starts})
            for r, c, d in _layers(graph, starts, None, ends)]
    monkeypatch.setenv("NUMBERPLACE_BACKEND", "c")
    got = list(_layers(graph, starts, None, ends, mode))
    assert len(got) <= len(want)
    got += [([], [], got[-1][2])] * (len(want) - len(got))  # rounds that kept nothing
    home = {s: nodes[s >> 1][0] for s in starts}
    assert len(want) > 4 and sum(len(r) for r, _, _ in want) > 1000
    for (reached, closed, depths), (r, c, _) in zip(want, got, strict=True):
        if mode == ALL:
            assert r == reached and c == closed
        else:
            assert r == [(s, st) for s, st in reached
                         if nodes[st >> 1][0] == home[s] and depths[s][st] >= 3]
            assert c == closed
    final = want[-1][2]
    for s in starts[::7]:
        assert got[0][2][s] == final[s]
