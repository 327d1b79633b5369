"""Cage techniques: each on a position where it applies and one where it must not, the
45 rule on Killer areas built from a known grid, and soundness on generated Kakuro and
Killer puzzles (no step removes a true digit or places a wrong one)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace.engine.grids import random_grid
from numberplace.generate.sumgen import GeneratedKiller, generate_kakuro, generate_killer
from numberplace.logic import cages
from numberplace.logic.audit import Audit, audit
from numberplace.logic.board import Board, bit
from numberplace.logic.driver import solve_path
from numberplace.logic.step import LogicStatus, Step
from numberplace.logic.techniques import Finder
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import KakuroSquare, Shape, classic, kakuro, killer

X: KakuroSquare = (None, None)


def run_board(down: tuple[int, int], across: tuple[int, int]) -> tuple[Shape, Board]:
    """A 2x2 Kakuro: down runs of columns 2 and 3, across runs of rows 2 and 3."""
    shape = kakuro([[X, (down[0], None), (down[1], None)],
                    [(None, across[0]), None, None],
                    [(None, across[1]), None, None]])
    return shape, Board.from_puzzle(Puzzle(shape, (0, 0, 0, 0)))


def line_board(total: int, masks: list[int]) -> tuple[Shape, Board]:
    """One across run of len(masks) cells making ``total``, whose cells' candidates are
    ``masks``."""
    n = len(masks)
    shape = kakuro([[(None, total)] + [None] * n])
    board = Board.from_puzzle(Puzzle(shape, (0,) * n))
    board.candidates[:] = masks
    return shape, board


def first(finder: Finder, board: Board, shape: Shape) -> Step | None:
    return next(finder(board, shape), None)


def mask(*digits: int) -> int:
    out = 0
    for d in digits:
        out |= bit(d)
    return out


ALL = mask(*range(1, 10))


def test_a_unique_combination_keeps_only_its_digits() -> None:
    shape, board = run_board((4, 10), (3, 11))
    step = first(cages.find_unique_combination, board, shape)
    assert step is not None and step.technique == cages.UNIQUE_COMBINATION
    assert step.text == ("the down run 4 of r1c2 needs 4 in 2 cells, and only {1,3} adds up "
                         "to that: remove {2,4,5,6,7,8,9} from r2c2, r3c2")
    assert step.cages == (0,)


def test_no_unique_combination_where_several_sets_make_the_sum() -> None:
    shape, board = run_board((7, 10), (8, 11))  # 7, 10, 8 and 11 in two cells: 3 or 4 sets
    assert first(cages.find_unique_combination, board, shape) is None


def test_the_last_empty_cell_of_a_cage_takes_what_the_sum_lacks() -> None:
    shape, board = run_board((4, 10), (3, 11))
    board.place(0, 1)
    step = first(cages.find_unique_combination, board, shape)
    assert step is not None and step.placements == ((2, 3),)
    assert "last empty cell of the down run 4 of r1c2, which needs 3 in 1 cell besides 1" \
        in step.text


def test_cage_combinations_drop_the_sets_the_cells_cannot_hold() -> None:
    # 7 in 2 cells: {1,6} {2,5} {3,4}; no cell may hold 2, 3 or 4, so only {1,6} fits
    shape, board = line_board(7, [mask(1, 5, 6, 7), mask(1, 5, 6, 8)])
    step = first(cages.find_cage_combinations, board, shape)
    assert step is not None
    assert step.cages == (0,)
    assert set(step.eliminations) == {(0, 5), (0, 7), (1, 5), (1, 8)}
    assert "its combination {1,6} ({2,5}, {3,4} cannot be placed in its cells) leaves" \
        in step.text


def test_no_cage_combination_step_when_every_candidate_fits() -> None:
    shape, board = line_board(7, [mask(1, 6), mask(1, 6)])
    assert first(cages.find_cage_combinations, board, shape) is None


def test_a_required_digit_with_one_place_goes_there() -> None:
    # 16 in 2 cells is {7,9}: both digits must be in; only the first cell can take 7
    shape, board = line_board(16, [mask(7, 9), mask(9)])
    step = first(cages.find_required_digit, board, shape)
    assert step is not None and step.placements == ((0, 7),)
    assert "the only combination holds 7, and only r1c2 can take it" in step.text


def test_no_required_digit_when_a_digit_is_in_only_some_combinations() -> None:
    shape, board = line_board(7, [mask(1, 2, 5, 6), mask(1, 2, 5, 6)])
    assert first(cages.find_required_digit, board, shape) is None


def test_a_required_digit_leaves_the_cells_that_see_all_its_places() -> None:
    # a Killer cage of two cells in row 1 making 16 ({7,9}): 7 is in it, so the rest of
    # row 1 and of box 1 lose 7
    shape = killer(classic(9), [((0, 1), 16)])
    board = Board.from_puzzle(Puzzle(shape, (0,) * 81))
    step = first(cages.find_required_digit, board, shape)
    assert step is not None
    assert {c for c, v in step.eliminations if v == 7} == \
        set(range(2, 9)) | {9, 10, 11, 18, 19, 20}
    assert all(v in (7, 9) for _, v in step.eliminations)


def test_cage_permutations_see_what_combinations_alone_miss() -> None:
    # 10 in 3 cells: two cells of {1,2} leave the third only 7
    shape, board = line_board(10, [mask(1, 2), mask(1, 2), mask(1, 2, 7)])
    assert first(cages.find_cage_combinations, board, shape) is None
    step = first(cages.find_cage_permutations, board, shape)
    assert step is not None and set(step.eliminations) == {(2, 1), (2, 2)}
    board.candidates[2] = mask(7)
    assert first(cages.find_cage_permutations, board, shape) is None


GRID = random_grid(classic(9), 7)


def caged(groups: list[tuple[int, ...]]) -> tuple[Shape, Board]:
    """A Killer on the classic grid whose cages (sums from GRID) are ``groups``."""
    shape = killer(classic(9), [(g, sum(GRID[c] for c in g)) for g in groups])
    return shape, Board.from_puzzle(Puzzle(shape, (0,) * 81))


def test_one_innie_takes_what_the_row_lacks() -> None:
    shape, board = caged([(0, 1, 2), (3, 4, 5), (6, 7), (8, 17)])
    step = first(cages.find_innie_outie, board, shape)
    assert step is not None and step.placements == ((8, GRID[8]),)
    assert step.text.startswith("row 1 adds up to 45; less the cages inside, the innies "
                                "r1c9 make")


def test_one_outie_takes_what_the_cages_exceed_the_row_by() -> None:
    shape, board = caged([(0, 1, 2), (3, 4, 5), (6, 7, 8, 17)])
    steps = list(cages.find_innie_outie(board, shape))
    outie = [s for s in steps if "outies r2c9" in s.text]
    assert outie and outie[0].placements == ((17, GRID[17]),)


def test_no_innie_where_the_cages_inside_cover_the_row() -> None:
    shape, board = caged([(0, 1, 2), (3, 4, 5), (6, 7, 8)])
    assert all(s.houses != (0,) for s in cages.find_innie_outie(board, shape))


def test_innies_sums_limit_their_digits_soundly() -> None:
    shape, board = caged([(0, 1, 2), (3, 4, 5), (6, 15), (7, 16), (8, 17)])
    steps = list(cages.find_innies_outies(board, shape))
    assert steps, "three innies of row 1 with a known sum limit their candidates"
    for step in steps:
        assert all(GRID[c] != v for c, v in step.eliminations)


def test_cage_splitting_gives_the_rest_of_a_split_cage() -> None:
    # row 1's innie r1c9 is the top of the cage r1c9, r2c9, r3c9: that cage's rest makes
    # the cage's sum less r1c9's value
    shape, board = caged([(0, 1, 2), (3, 4, 5), (6, 7), (8, 17, 26)])
    facts = [f for f in cages._facts(shape) if f.technique == cages.CAGE_SPLITTING]
    assert any(f.cells == (17, 26) and f.total == GRID[17] + GRID[26] for f in facts)
    for step in cages.find_cage_splitting(board, shape):
        assert all(GRID[c] != v for c, v in step.eliminations)
        assert all(GRID[c] == v for c, v in step.placements)


def test_cage_techniques_find_nothing_on_a_sudoku() -> None:
    board = Board.from_puzzle(Puzzle(classic(9), (0,) * 81))
    for finder in (cages.find_unique_combination, cages.find_cage_combinations,
                   cages.find_required_digit, cages.find_cage_permutations,
                   cages.find_innie_outie, cages.find_innies_outies, cages.find_cage_splitting):
        assert first(finder, board, classic(9)) is None


def test_a_broken_sum_is_named() -> None:
    shape, board = run_board((4, 10), (3, 11))
    board.place(0, 2)
    board.place(2, 1)  # 2 + 1 is not the down run's 4
    assert board.contradiction() == "the down run 4 of r1c2 adds up to 3, not 4"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_killers_are_solved_soundly(seed: int) -> None:
    made = generate_killer(seed=seed, max_cage=4 + seed)
    report = audit(made.puzzle, made.solution, unique=True)
    assert not report.faults and report.solved
    probed = probe_cages(made)
    assert not probed.faults
    assert sum(probed.found.values()) > 100


def probe_cages(made: GeneratedKiller) -> Audit:
    """Every step of every cage technique, and the first of each other technique, on
    every stall of a Killer's path. The cell and house forcing chains, which find nothing
    on most of these boards after a long search, are left out: they read the same board
    rules as the contradiction chains, which stay (both are checked on every path of
    the classic puzzles)."""
    slow = {"Cell Forcing Chain", "House Forcing Chain"}
    return audit(made.puzzle, made.solution, [n for n in cages_and_more() if n not in slow],
                 before=["Full House", "Naked Single", "Hidden Single"], unique=True,
                 each=True, every=CAGE_TECHNIQUES)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "size"), [(1, 6), (2, 8), (3, 10), (4, 12)])
def test_kakuros_are_solved_soundly(seed: int, size: int) -> None:
    made = generate_kakuro(size, size, seed=seed)
    report = audit(made.puzzle, made.solution)
    assert not report.faults and report.solved
    probed = audit(made.puzzle, made.solution, cages_and_more(), before=["Naked Single"])
    assert not probed.faults


CAGE_TECHNIQUES = (cages.UNIQUE_COMBINATION, cages.CAGE_COMBINATIONS, cages.REQUIRED_DIGIT,
                   cages.CAGE_PERMUTATIONS, cages.INNIE_OUTIE, cages.INNIES_OUTIES,
                   cages.CAGE_SPLITTING)


def cages_and_more() -> list[str]:
    """Every technique but the singles and the last resorts after the forcing chains.

    Templates and Franken and Mutant fish read houses only (a cage adds rules, never
    takes one away), their soundness is checked on classic grids, and listing all of
    them at every step of an open Killer board would take most of the test's time."""
    from numberplace.logic import REGISTRY
    from numberplace.logic.complex_fish import FRANKEN_FISH, MUTANT_FISH
    from numberplace.logic.templates import TEMPLATE_DELETE, TEMPLATE_SET

    skipped = {"Full House", "Naked Single", "Hidden Single", TEMPLATE_SET, TEMPLATE_DELETE,
               FRANKEN_FISH, MUTANT_FISH}
    return [t.name for t in REGISTRY.logical() if t.name not in skipped]


def test_a_killer_rates_and_explains_without_guessing() -> None:
    made = generate_killer(seed=3)
    result = solve_path(made.puzzle)
    assert result.status is LogicStatus.SOLVED
    assert result.board is not None and tuple(result.board.values) == made.solution
    assert any(s.technique in (cages.UNIQUE_COMBINATION, cages.CAGE_COMBINATIONS)
               for s in result.steps)


def test_hints_name_the_cage_at_the_first_tiers() -> None:
    from numberplace.logic.explain import hint_text

    shape, board = run_board((4, 10), (3, 11))
    step = first(cages.find_unique_combination, board, shape)
    assert step is not None
    assert hint_text(step, shape, 1) == "Unique Combination: look at the down run 4 of r1c2"
    assert hint_text(step, shape, 2) == ("Unique Combination: look at the down run 4 of r1c2, "
                                         "cells r2c2, r3c2")


# -- cages whose digits may repeat ----------------------------------------------------------


def repeats_board(groups: list[tuple[int, ...]], total: int | None = None
                  ) -> tuple[Shape, Board]:
    """A Killer whose cages ``groups`` let digits repeat; sums from GRID unless given."""
    shape = killer(classic(9), [(g, total if total is not None else sum(GRID[c] for c in g),
                                 True) for g in groups])
    return shape, Board.from_puzzle(Puzzle(shape, (0,) * 81))


def test_a_cage_whose_digits_repeat_limits_them_by_its_sum_and_houses() -> None:
    # r1c3 and r2c4 share no house: 2 is 1 + 1, which the cage allows
    shape, board = repeats_board([(2, 12)], total=2)
    step = first(cages.find_cage_combinations, board, shape)
    assert step is not None and step.technique == cages.CAGE_COMBINATIONS
    assert set(step.eliminations) == {(c, v) for c in (2, 12) for v in range(2, 10)}
    assert "its digits may repeat where its cells share no house" in step.text
    # in one row they cannot: the same sum there is a broken board
    shape, board = repeats_board([(0, 1)], total=2)
    assert first(cages.find_cage_combinations, board, shape) is None
    assert board.contradiction() == "the 2 cage at r1c1 can no longer make its sum 2"


def test_the_distinct_digit_techniques_leave_a_repeating_cage_alone() -> None:
    shape, board = repeats_board([(2, 12)], total=3)  # {1,2} were it a plain cage
    for finder in (cages.find_unique_combination, cages.find_required_digit,
                   cages.find_cage_permutations):
        assert first(finder, board, shape) is None
    board.place(2, 1)
    board.place(12, 1)  # a repeat the cage allows: only its sum is broken
    assert board.contradiction() == "the 3 cage at r1c3 adds up to 2, not 3"


def test_a_rectangle_a_repeating_cage_meets_at_opposite_corners_is_no_deadly_pattern() -> None:
    from numberplace.logic.uniqueness import rectangles

    # r1c1 and r2c4 in one cage: a swap around the rectangle r1c1 r1c4 r2c1 r2c4 would
    # change its sum, so no uniqueness technique may use that rectangle
    shape, _ = repeats_board([(0, 12)], total=GRID[0] + GRID[12])
    quads = {frozenset(q) for q in rectangles(shape)}
    assert frozenset((0, 3, 9, 12)) not in quads
    plain = {frozenset(q) for q in rectangles(killer(classic(9), [((0, 3), 3)]))}
    assert frozenset((0, 3, 9, 12)) in plain  # a cage on a side keeps its sum
    side = {frozenset(q) for q in rectangles(repeats_board([(0, 9)], total=5)[0])}
    assert frozenset((0, 3, 9, 12)) in side


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_killers_whose_cages_repeat_digits_are_solved_soundly(seed: int) -> None:
    made = generate_killer(seed=seed, max_cage=4 + 2 * seed, repeats=True)
    assert all(cage.repeats for cage in made.puzzle.shape.cages)
    report = audit(made.puzzle, made.solution, unique=True)
    assert not report.faults
    probed = probe_cages(made)
    assert not probed.faults
    assert sum(probed.found.values()) > 100


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(1, 6))
def test_sum_support_keeps_exactly_what_some_way_of_making_the_sum_uses(seed: int,
                                                                       size: int) -> None:
    import itertools
    import random

    from numberplace.logic.board import peer_sets, sum_support

    rng = random.Random(seed)
    board = Board.from_puzzle(Puzzle(classic(9), (0,) * 81))
    cells = rng.sample(range(81), size)
    for c in cells:
        board.candidates[c] = rng.randint(1, 511)
    total = rng.randint(size, 9 * size)
    seen = peer_sets(classic(9))
    keep = [0] * size
    options = [[v for v in range(1, 10) if board.candidates[c] & bit(v)] for c in cells]
    for digits in itertools.product(*options):
        if sum(digits) == total and not any(
                digits[i] == digits[j] and cells[j] in seen[cells[i]]
                for i in range(size) for j in range(i)):
            for i, v in enumerate(digits):
                keep[i] |= bit(v)
    assert sum_support(board, cells, total) == (keep if any(keep) else None)
