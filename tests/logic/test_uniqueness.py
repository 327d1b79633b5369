"""Uniqueness techniques (Unique Rectangle 1-4, BUG+1) and Pattern Match Elimination."""

from __future__ import annotations

from collections import Counter

import pytest

from numberplace import engine, formats
from numberplace.logic import REGISTRY, Board, Family
from numberplace.logic.board import bit
from numberplace.logic.patterns import PATTERN_MATCH, bands, find_pattern_match
from numberplace.logic.uniqueness import (
    AR_TYPE_1,
    AR_TYPE_2,
    BUG_PLUS_1,
    HIDDEN_RECTANGLE,
    UR_TYPE_1,
    UR_TYPE_2,
    UR_TYPE_3,
    UR_TYPE_4,
    UR_TYPE_5,
    UR_TYPE_6,
    find_avoidable_rectangle_type1,
    find_avoidable_rectangle_type2,
    find_bug_plus_one,
    find_hidden_rectangle,
    find_unique_rectangle_type1,
    find_unique_rectangle_type2,
    find_unique_rectangle_type3,
    find_unique_rectangle_type4,
    find_unique_rectangle_type5,
    find_unique_rectangle_type6,
    rectangles,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines
from positions import JIGSAW_9, S9, audit_generated, audit_lines, cell, elims, open_board, set_cands

UR_FINDERS = [find_unique_rectangle_type1, find_unique_rectangle_type2,
              find_unique_rectangle_type3, find_unique_rectangle_type4,
              find_unique_rectangle_type5, find_unique_rectangle_type6, find_hidden_rectangle,
              find_avoidable_rectangle_type1, find_avoidable_rectangle_type2]
FINDERS = [find_pattern_match, *UR_FINDERS, find_bug_plus_one]


def removals(steps: list) -> list[set[tuple[int, int]]]:
    return [set(s.eliminations) for s in steps]


def all_steps(board: Board, shape: Shape = S9) -> dict[str, list]:
    """Every step of every finder here, by technique (empty lists left out)."""
    out: dict[str, list] = {}
    for finder in FINDERS:
        for step in finder(board, shape):
            out.setdefault(step.technique, []).append(step)
    return out


# -- names -----------------------------------------------------------------------------

def test_names_and_registry() -> None:
    family = REGISTRY.of_family(Family.UNIQUENESS)
    assert [t.name for t in family] == [UR_TYPE_1, UR_TYPE_2, UR_TYPE_3, UR_TYPE_4,
                                        UR_TYPE_5, UR_TYPE_6, HIDDEN_RECTANGLE, AR_TYPE_1,
                                        AR_TYPE_2, BUG_PLUS_1]
    assert [t.finder for t in family] == [*UR_FINDERS, find_bug_plus_one]
    # the driver uses them only for puzzles known to be unique
    assert {t.name for t in REGISTRY if t.needs_uniqueness} == {t.name for t in family}
    assert PATTERN_MATCH == "Pattern Match Elimination"


# -- rectangle geometry ----------------------------------------------------------------

def test_rectangles_need_two_boxes_and_clean_houses() -> None:
    quads = {frozenset(q) for q in rectangles(S9)}
    assert len(quads) == 486  # 2 x (9 row pairs in a band x 27 column pairs across stacks)
    assert frozenset(cell(n) for n in ("r1c1", "r1c4", "r2c1", "r2c4")) in quads
    assert frozenset(cell(n) for n in ("r1c1", "r1c2", "r2c1", "r2c2")) not in quads  # 1 box
    assert frozenset(cell(n) for n in ("r1c1", "r1c4", "r4c1", "r4c4")) not in quads  # 4 boxes
    # A diagonal meeting a single corner breaks the swap.
    dquads = {frozenset(q) for q in rectangles(diagonal(S9))}
    assert frozenset(cell(n) for n in ("r1c1", "r1c4", "r2c1", "r2c4")) not in dquads
    assert frozenset(cell(n) for n in ("r2c7", "r2c9", "r3c7", "r3c9")) not in dquads  # r3c7
    assert frozenset(cell(n) for n in ("r1c2", "r1c4", "r3c2", "r3c4")) in dquads  # off both
    # Samurai: every rectangle lies in one grid, none straddles an overlap badly.
    sam = samurai()
    for quad in rectangles(sam):
        grids = [g for g, cells in enumerate(sam.grids) if set(quad) <= set(cells)]
        assert grids


# -- Unique Rectangle Type 1 -----------------------------------------------------------

def test_ur_type1() -> None:
    board = open_board()
    for name in ("r1c1", "r1c4", "r2c1"):
        set_cands(board, name, 1, 2)
    set_cands(board, "r2c4", 1, 2, 5)
    found = all_steps(board)
    assert list(found) == [UR_TYPE_1]
    step = found[UR_TYPE_1][0]
    assert removals(found[UR_TYPE_1]) == [elims(("r2c4", 1), ("r2c4", 2))]
    assert step.text == ("Unique Rectangle on {1,2} in r1c1, r1c4, r2c1, r2c4: r1c1, r1c4, "
                         "r2c1 hold only {1,2}, so if r2c4 were one of them the two values "
                         "could be swapped around the rectangle, giving a second solution: "
                         "remove 1 from r2c4; 2 from r2c4")
    assert ("removed", cell("r2c4"), 2) in step.highlights
    assert step.describe(S9, "book").endswith("remove 1 from (4,2); 2 from (4,2)")


def test_ur_type1_does_not_fire() -> None:
    board = open_board()  # all four cells in box 1: no deadly pattern
    for name in ("r1c1", "r1c2", "r2c1"):
        set_cands(board, name, 1, 2)
    set_cands(board, "r2c2", 1, 2, 5)
    assert all_steps(board) == {}
    board = open_board()  # a solved corner: the rectangle is not open
    for name in ("r1c1", "r1c4", "r2c1"):
        set_cands(board, name, 1, 2)
    board.place(cell("r2c4"), 5)
    assert all_steps(board) == {}
    shape = diagonal(S9)  # r1c1 is alone on the main diagonal
    board = open_board(shape)
    for name in ("r1c1", "r1c4", "r2c1"):
        set_cands(board, name, 1, 2)
    set_cands(board, "r2c4", 1, 2, 5)
    assert all_steps(board, shape) == {}


def test_ur_type1_on_jigsaw() -> None:
    shape = jigsaw(JIGSAW_9)
    board = open_board(shape)  # r1c1, r1c4 and r2c1 share region 1: not two regions
    for name in ("r1c1", "r1c4", "r2c1"):
        set_cands(board, name, 1, 2)
    set_cands(board, "r2c4", 1, 2, 5)
    assert all_steps(board, shape) == {}
    board = open_board(shape)  # r4c1, r4c2 in region 4; r8c1, r8c2 in region 7
    for name in ("r4c1", "r4c2", "r8c1"):
        set_cands(board, name, 1, 2)
    set_cands(board, "r8c2", 1, 2, 5)
    found = all_steps(board, shape)
    assert list(found) == [UR_TYPE_1]
    assert removals(found[UR_TYPE_1]) == [elims(("r8c2", 1), ("r8c2", 2), shape=shape)]


# -- Unique Rectangle Type 2 -----------------------------------------------------------

def test_ur_type2() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2)
    set_cands(board, "r2c1", 1, 2, 7)
    set_cands(board, "r2c4", 1, 2, 7)
    found = all_steps(board)
    assert list(found) == [UR_TYPE_2]
    assert removals(found[UR_TYPE_2]) == [
        elims(*((f"r2c{c}", 7) for c in (2, 3, 5, 6, 7, 8, 9)))]
    assert found[UR_TYPE_2][0].text.startswith(
        "Unique Rectangle on {1,2} in r1c1, r1c4, r2c1, r2c4: r1c1, r1c4 hold only {1,2} "
        "and r2c1, r2c4 hold {1,2,7}; without 7 in one of them")


def test_ur_type2_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2)
    set_cands(board, "r2c1", 1, 2, 7)
    set_cands(board, "r2c4", 1, 2, 8)  # different extras: Type 2 needs the same one
    assert list(find_unique_rectangle_type2(board, S9)) == []
    set_cands(board, "r2c4", 1, 2, 7)
    for c in (2, 3, 5, 6, 7, 8, 9):  # nothing left to remove
        board.eliminate(cell(f"r2c{c}"), 7)
    assert list(find_unique_rectangle_type2(board, S9)) == []


# -- Unique Rectangle Types 5 and 6, Hidden Rectangle -------------------------------------

def test_ur_type5_roof_on_a_diagonal() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r2c4", 1, 2)
    set_cands(board, "r1c4", 1, 2, 7)
    set_cands(board, "r2c1", 1, 2, 7)
    steps = list(find_unique_rectangle_type5(board, S9))
    # one of r1c4, r2c1 is 7: r1c1 and r2c4 see both, but hold no 7; box cells do
    assert removals(steps) == [elims(("r1c2", 7), ("r1c3", 7), ("r2c5", 7), ("r2c6", 7))]
    assert steps[0].technique == UR_TYPE_5
    assert list(find_unique_rectangle_type2(board, S9)) == []


def test_ur_type5_does_not_fire_on_a_side() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2)
    set_cands(board, "r2c1", 1, 2, 7)
    set_cands(board, "r2c4", 1, 2, 7)
    assert list(find_unique_rectangle_type5(board, S9)) == []


def type6_board(other_one: bool) -> Board:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r2c4", 1, 2)
    set_cands(board, "r1c4", 1, 2, 7)
    set_cands(board, "r2c1", 1, 2, 8)
    for r in (1, 2):
        for c in range(1, 10):
            if c not in (1, 4):
                board.eliminate(cell(f"r{r}c{c}"), 1)
    for c in (1, 4):
        for r in range(3, 10):
            if not (other_one and (r, c) == (5, 4)):
                board.eliminate(cell(f"r{r}c{c}"), 1)
    return board


def test_ur_type6_clears_the_roof_of_the_x_wing_value() -> None:
    steps = list(find_unique_rectangle_type6(type6_board(False), S9))
    assert removals(steps) == [elims(("r1c4", 1), ("r2c1", 1))]
    assert steps[0].technique == UR_TYPE_6


def test_ur_type6_does_not_fire_when_x_has_another_place() -> None:
    assert list(find_unique_rectangle_type6(type6_board(True), S9)) == []


def hidden_board(open_row: bool) -> Board:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2, 5)
    set_cands(board, "r2c1", 1, 2, 6)
    set_cands(board, "r2c4", 1, 2, 7)
    # 1 in row 2 and column 4 only in the rectangle
    for c in range(1, 10):
        if c not in (1, 4) and not (open_row and c == 9):
            board.eliminate(cell(f"r2c{c}"), 1)
    for r in range(1, 10):
        if r not in (1, 2):
            board.eliminate(cell(f"r{r}c4"), 1)
    return board


def test_hidden_rectangle() -> None:
    steps = list(find_hidden_rectangle(hidden_board(False), S9))
    assert removals(steps) == [elims(("r2c4", 2))]
    assert steps[0].technique == HIDDEN_RECTANGLE
    assert steps[0].text.startswith("Hidden Rectangle on {1,2} in r1c1, r1c4, r2c1, r2c4")


def test_hidden_rectangle_does_not_fire() -> None:
    assert list(find_hidden_rectangle(hidden_board(True), S9)) == []


# -- Avoidable Rectangles -------------------------------------------------------------------

def avoidable_board(given: bool) -> Board:
    """r1c1 = 3 and r1c4 = 5, r2c1 = 5 placed by the solver (or r1c1 given)."""
    values = [0] * 81
    if given:
        values[cell("r1c1")] = 3
    board = Board.from_puzzle(Puzzle(S9, tuple(values)))
    for name, v in (("r1c1", 3), ("r1c4", 5), ("r2c1", 5)):
        if not board.values[cell(name)]:
            board.place(cell(name), v)
    return board


def test_avoidable_rectangle_type1() -> None:
    steps = list(find_avoidable_rectangle_type1(avoidable_board(False), S9))
    # r2c4 = 3 would let the four cells swap 3 and 5
    assert removals(steps) == [elims(("r2c4", 3))]
    assert steps[0].technique == AR_TYPE_1


def test_avoidable_rectangle_type1_does_not_fire_on_givens_or_unknown_givens() -> None:
    assert list(find_avoidable_rectangle_type1(avoidable_board(True), S9)) == []
    board = avoidable_board(False)
    board.givens = None  # a board that does not know its givens
    assert list(find_avoidable_rectangle_type1(board, S9)) == []


def test_avoidable_rectangle_type2() -> None:
    board = Board.from_puzzle(Puzzle(S9, (0,) * 81))
    board.place(cell("r1c1"), 3)
    board.place(cell("r1c4"), 5)
    set_cands(board, "r2c1", 5, 8)
    set_cands(board, "r2c4", 3, 8)
    steps = list(find_avoidable_rectangle_type2(board, S9))
    assert removals(steps) == [elims(*((f"r2c{c}", 8) for c in (2, 3, 5, 6, 7, 8, 9)))]
    assert steps[0].technique == AR_TYPE_2
    set_cands(board, "r2c4", 3, 9)
    assert list(find_avoidable_rectangle_type2(board, S9)) == []


# -- Unique Rectangle Type 3 -----------------------------------------------------------

def type3_board() -> Board:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2)
    set_cands(board, "r2c1", 1, 2, 7)
    set_cands(board, "r2c4", 1, 2, 8)
    set_cands(board, "r2c7", 7, 8)
    return board


def test_ur_type3() -> None:
    found = all_steps(type3_board())
    assert list(found) == [UR_TYPE_3]
    assert removals(found[UR_TYPE_3]) == [
        elims(*((f"r2c{c}", v) for c in (2, 3, 5, 6, 8, 9) for v in (7, 8)))]
    step = found[UR_TYPE_3][0]
    assert step.houses == (S9.houses.index(next(h for h in S9.houses if str(h) == "row 2")),)
    assert "with r2c7 the values {7,8} fill 2 cells of row 2" in step.text


def test_ur_type3_triple() -> None:
    board = type3_board()
    set_cands(board, "r2c7", 7, 9)
    set_cands(board, "r2c8", 8, 9)  # virtual {7,8} + {7,9} + {8,9}: a naked triple
    found = all_steps(board)
    assert list(found) == [UR_TYPE_3]
    assert removals(found[UR_TYPE_3]) == [
        elims(*((f"r2c{c}", v) for c in (2, 3, 5, 6, 9) for v in (7, 8, 9)))]


def test_ur_type3_does_not_fire() -> None:
    board = type3_board()
    set_cands(board, "r2c7", 7, 9)  # {7,8} and {7,9}: three values in two cells
    assert list(find_unique_rectangle_type3(board, S9)) == []
    board = type3_board()
    set_cands(board, "r1c4", 1, 2, 3)  # only one corner holds just {1,2}
    assert list(find_unique_rectangle_type3(board, S9)) == []


# -- Unique Rectangle Type 4 -----------------------------------------------------------

def type4_board() -> Board:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c4", 1, 2)
    set_cands(board, "r2c1", 1, 2, 7)
    set_cands(board, "r2c4", 1, 2, 8)
    for c in (2, 3, 5, 6, 7, 8, 9):  # 1 in row 2 only in the roof cells
        board.eliminate(cell(f"r2c{c}"), 1)
    return board


def test_ur_type4() -> None:
    found = all_steps(type4_board())
    assert list(found) == [UR_TYPE_4]
    assert removals(found[UR_TYPE_4]) == [elims(("r2c1", 2), ("r2c4", 2))]
    step = found[UR_TYPE_4][0]
    assert step.text == ("Unique Rectangle on {1,2} in r1c1, r1c4, r2c1, r2c4: r1c1, r1c4 "
                         "hold only {1,2}; in row 2, 1 can only go in r2c1 or r2c4, so one "
                         "of them is 1 and the other being 2 would allow a second solution: "
                         "remove 2 from r2c1, r2c4")
    assert ("link", cell("r2c4"), 1) in step.highlights


def test_ur_type4_does_not_fire() -> None:
    board = type4_board()
    set_cands(board, "r2c9", 1, 5)  # 1 has a third place in row 2
    assert list(find_unique_rectangle_type4(board, S9)) == []
    board = open_board()  # floor on a diagonal of the rectangle: roof cells share no house
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r2c4", 1, 2)
    set_cands(board, "r1c4", 1, 2, 7)
    set_cands(board, "r2c1", 1, 2, 8)
    assert list(find_unique_rectangle_type4(board, S9)) == []
    assert list(find_unique_rectangle_type3(board, S9)) == []


# -- BUG+1 -----------------------------------------------------------------------------

#: 17_clue.txt line 3861 after the basic techniques stall: a BUG+1 at r2c2.
BUG_PUZZLE = "................12..3..4.........3.......56...1..7.........34...7...6...12..8..7."
BUG_VALUES = ("7.18.2934..9.378122831947658.2..1357.37..5681615378249..8713426374..6198126489573")
BUG_CANDS = ["56", "56", "45", "456", "56", "49", "69", "46", "49", "29", "24", "59", "59",
             "25", "25"]


def bug_board() -> Board:
    board = open_board()
    values = [0 if ch == "." else int(ch) for ch in BUG_VALUES]
    cands = iter(BUG_CANDS)
    board.values = values
    board.candidates = [0 if v else sum(bit(int(d)) for d in next(cands)) for v in values]
    assert next(cands, None) is None
    return board


def test_bug_plus_one() -> None:
    board = bug_board()
    assert board.contradiction() is None
    found = all_steps(board)
    assert list(found) == [BUG_PLUS_1]
    step = found[BUG_PLUS_1][0]
    assert step.placements == ((cell("r2c2"), 5),)
    assert step.eliminations == ()
    assert step.text == ("BUG+1: every unsolved cell but r2c2 has two candidates, and 5 "
                         "appears three times in each of its houses; were r2c2 {4,6}, every "
                         "value would appear twice in every house, a deadly pattern with no "
                         "single solution: place 5 at r2c2")
    solution = engine.solve(formats.parse(BUG_PUZZLE)).solution
    assert solution is not None
    assert all(solution[c] == v for c, v in enumerate(board.values) if v)
    assert solution[cell("r2c2")] == 5


def test_bug_plus_one_does_not_fire() -> None:
    board = bug_board()
    set_cands(board, "r2c1", 4, 5, 6)  # a second trivalue cell (r2c1 held {5,6})
    assert list(find_bug_plus_one(board, S9)) == []
    board = bug_board()
    set_cands(board, "r2c2", 4, 6)  # no trivalue cell: a plain BUG, nothing to place
    assert list(find_bug_plus_one(board, S9)) == []


# -- Pattern Match Elimination ---------------------------------------------------------

def test_pattern_match_bands() -> None:
    assert len(bands(S9)) == 6
    assert len(bands(classic(6))) == 3 + 2  # bands of 2 boxes (2 rows), stacks of 3
    assert len(bands(classic(12))) == 4 + 3
    assert len(bands(samurai())) == 5 * 6
    assert bands(jigsaw(JIGSAW_9)) == ()


def test_pattern_match() -> None:
    board = open_board()  # candidates marked by hand: nothing cleared around the values
    board.values[cell("r1c2")] = 5
    board.candidates[cell("r1c2")] = 0
    board.values[cell("r3c5")] = 5
    board.candidates[cell("r3c5")] = 0
    found = all_steps(board)
    assert list(found) == [PATTERN_MATCH]
    steps = found[PATTERN_MATCH]
    assert removals(steps) == [elims(*((f"r{r}c{c}", 5) for r in (1, 3) for c in (7, 8, 9)))]
    assert steps[0].text == ("5 is placed in r1c2 (box 1), r3c5 (box 2), so in box 3 it must "
                             "go in row 2, the row of the band it does not occupy yet: remove "
                             "5 from r1c7, r1c8, r1c9, r3c7, r3c8, r3c9")


def test_pattern_match_stack_on_6x6() -> None:
    shape = classic(6)  # boxes of 2 rows x 3 columns; a stack is 3 boxes over 3 columns
    board = open_board(shape)
    for name in ("r1c1", "r3c3"):
        board.values[cell(name, shape)] = 4
        board.candidates[cell(name, shape)] = 0
    steps = list(find_pattern_match(board, shape))
    # the bands of rows 1-2 and 3-4 (two boxes each) speak too, as nothing was cleared
    assert removals(steps) == [
        elims(("r1c4", 4), ("r1c5", 4), ("r1c6", 4), shape=shape),
        elims(("r3c4", 4), ("r3c5", 4), ("r3c6", 4), shape=shape),
        elims(*((f"r{r}c{c}", 4) for r in (5, 6) for c in (1, 3)), shape=shape)]
    assert "in box 2 it must go in row 2" in steps[0].text
    assert "in box 5 it must go in column 2" in steps[2].text


def test_pattern_match_does_not_fire() -> None:
    board = open_board()
    board.values[cell("r1c2")] = 5
    board.candidates[cell("r1c2")] = 0
    assert list(find_pattern_match(board, S9)) == []  # only one box of the band holds 5
    board.place(cell("r3c5"), 5)  # placing clears the rows: nothing left to remove
    board.place(cell("r1c2"), 5)
    assert list(find_pattern_match(board, S9)) == []
    shape = jigsaw(JIGSAW_9)
    board = open_board(shape)
    board.values[cell("r1c2", shape)] = 5
    board.values[cell("r3c5", shape)] = 5
    assert list(find_pattern_match(board, shape)) == []


# -- soundness -------------------------------------------------------------------------

PROBE = [PATTERN_MATCH, UR_TYPE_1, UR_TYPE_2, UR_TYPE_3, UR_TYPE_4, BUG_PLUS_1]


def test_soundness_on_benchmark_puzzles() -> None:
    totals: Counter[str] = Counter()
    for name in ("magictour_top1465.txt", "17_clue.txt"):
        report = audit_lines(data_lines(name, 200), PROBE, unique=True)
        print(f"\n{name}: steps found: {dict(report.found)}\n"
              f"steps applied: {dict(report.applied)}")
        totals += report.applied
    assert {UR_TYPE_1, UR_TYPE_2, UR_TYPE_3, UR_TYPE_4} <= set(totals)


@pytest.mark.parametrize("shape", [classic(6), jigsaw(JIGSAW_9), diagonal(S9), samurai()],
                         ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    # Only Full House before ours, so these boards stall often and our finders get a say
    # (Unique Rectangles do fire on 6x6 and Samurai; a stall ends a puzzle).
    report = audit_generated(shape, range(1, 13 if shape.ncells <= 81 else 4), PROBE,
                             before=["Full House"], unique=True)
    print(f"\n{shape}: steps found: {dict(report.found)}, applied: {dict(report.applied)}")
