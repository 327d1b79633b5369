"""Wings (XY, XYZ, W) and Simple Colors: hand-made positions and soundness."""

from __future__ import annotations

import pytest

from numberplace.logic import Board
from numberplace.logic.coloring import (
    SIMPLE_COLORS_TRAP,
    SIMPLE_COLORS_WRAP,
    find_simple_colors_trap,
    find_simple_colors_wrap,
)
from numberplace.logic.wings import (
    W_WING,
    XY_WING,
    XYZ_WING,
    find_w_wing,
    find_xy_wing,
    find_xyz_wing,
)
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines
from positions import (
    JIGSAW_9,
    S9,
    audit_generated,
    audit_lines,
    cell,
    col,
    elims,
    keep_only,
    open_board,
    row,
    set_cands,
)

FINDERS = [find_xy_wing, find_xyz_wing, find_w_wing, find_simple_colors_trap,
           find_simple_colors_wrap]


def removals(steps: list) -> list[set[tuple[int, int]]]:
    return [set(s.eliminations) for s in steps]


# -- XY-Wing -------------------------------------------------------------------------------

def test_xy_wing_text_and_single_elimination() -> None:
    board = open_board()
    set_cands(board, "r2c2", 1, 2)
    set_cands(board, "r2c7", 1, 3)
    set_cands(board, "r5c2", 2, 3)
    steps = list(find_xy_wing(board, S9))
    assert removals(steps) == [elims(("r5c7", 3))]
    step = steps[0]
    assert step.technique == XY_WING
    assert step.text.startswith("XY-Wing with pivot r2c2 {1,2} and pincers r2c7 {1,3}, "
                                "r5c2 {2,3}: ")
    assert step.text.endswith("remove 3 from r5c7")
    assert ("pivot", cell("r2c2"), 1) in step.highlights
    assert ("pincer", cell("r5c2"), 3) in step.highlights
    assert ("removed", cell("r5c7"), 3) in step.highlights
    assert step.describe(S9, "book").endswith("remove 3 from (7,5)")


def test_xy_wing_pincers_sharing_box_and_row() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c5", 1, 3)
    set_cands(board, "r3c2", 2, 3)
    steps = list(find_xy_wing(board, S9))
    assert removals(steps) == [elims(("r1c2", 3), ("r1c3", 3), ("r3c4", 3), ("r3c5", 3),
                                     ("r3c6", 3))]
    assert list(find_xyz_wing(board, S9)) == []


def test_xy_wing_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r2c2", 1, 2)
    set_cands(board, "r2c7", 1, 3)
    set_cands(board, "r5c2", 2, 4)  # pincers hold different third values
    assert list(find_xy_wing(board, S9)) == []
    set_cands(board, "r5c2", 2, 3)
    board.eliminate(cell("r5c7"), 3)  # the pattern stands, but nothing is left to remove
    assert list(find_xy_wing(board, S9)) == []


def test_xy_wing_on_a_jigsaw() -> None:
    shape = jigsaw(JIGSAW_9)
    board = open_board(shape)
    set_cands(board, "r2c2", 1, 2)
    set_cands(board, "r2c7", 1, 3)
    set_cands(board, "r5c2", 2, 3)
    peers = shape.peers
    expected = {(c, 3) for c in set(peers[cell("r2c7", shape)]) & set(peers[cell("r5c2", shape)])
                if c != cell("r2c2", shape)}
    steps = list(find_xy_wing(board, shape))
    assert removals(steps) == [expected] and (cell("r5c7", shape), 3) in expected


# -- XYZ-Wing ------------------------------------------------------------------------------

def test_xyz_wing() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2, 3)
    set_cands(board, "r1c5", 1, 3)
    set_cands(board, "r3c2", 2, 3)
    steps = list(find_xyz_wing(board, S9))
    assert removals(steps) == [elims(("r1c2", 3), ("r1c3", 3))]
    assert steps[0].technique == XYZ_WING
    assert steps[0].text == ("XYZ-Wing with pivot r1c1 {1,2,3} and pincers r1c5 {1,3}, "
                             "r3c2 {2,3}: one of the three is 3, remove 3 from r1c2, r1c3")
    assert list(find_xy_wing(board, S9)) == []


def test_xyz_wing_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2, 3)
    set_cands(board, "r1c5", 1, 3)
    set_cands(board, "r5c1", 2, 3)  # no cell other than the pivot sees all three
    assert list(find_xyz_wing(board, S9)) == []
    set_cands(board, "r5c1", 2, 4)  # not a subset of the pivot
    assert list(find_xyz_wing(board, S9)) == []


# -- W-Wing --------------------------------------------------------------------------------

def test_w_wing() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r5c9", 1, 2)
    keep_only(board, 1, row(9), "r9c1", "r9c9")  # strong link on 1 in row 9
    steps = list(find_w_wing(board, S9))
    assert removals(steps) == [elims(("r1c9", 2), ("r5c1", 2))]
    step = steps[0]
    assert step.technique == W_WING
    assert step.houses == (S9.houses.index(next(h for h in S9.houses
                                                 if set(h.cells) == set(row(9)))),)
    assert step.text == ("W-Wing: r1c1 and r5c9 both hold {1,2}; in row 9, 1 can only go "
                         "in r9c1 or r9c9, which see them, so they are not both 1 and one "
                         "of them is 2: remove 2 from r1c9, r5c1")
    assert ("link", cell("r9c1"), 1) in step.highlights
    assert ("pincer", cell("r5c9"), 2) in step.highlights


def test_w_wing_does_not_fire() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r5c9", 1, 2)
    keep_only(board, 1, row(9), "r9c1", "r9c5")  # r9c5 does not see r5c9
    assert list(find_w_wing(board, S9)) == []
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c9", 1, 2)  # the two cells see each other: a naked pair instead
    keep_only(board, 1, row(9), "r9c1", "r9c9")
    assert list(find_w_wing(board, S9)) == []


# -- Simple Colors -------------------------------------------------------------------------

def trap_board() -> Board:
    """5 in a chain r1c1 = r5c1 = r5c7 = r2c7 (column 1, row 5, column 7)."""
    board = open_board()
    keep_only(board, 5, col(1), "r1c1", "r5c1")
    keep_only(board, 5, row(5), "r5c1", "r5c7")
    keep_only(board, 5, col(7), "r5c7", "r2c7")
    return board


def test_simple_colors_trap() -> None:
    board = trap_board()
    steps = list(find_simple_colors_trap(board, S9))
    assert removals(steps) == [elims(("r1c8", 5), ("r1c9", 5), ("r2c2", 5), ("r2c3", 5))]
    step = steps[0]
    assert step.technique == SIMPLE_COLORS_TRAP
    assert step.text == ("Simple Colors on 5: strong links colour r1c1, r5c7 one way and "
                         "r2c7, r5c1 the other, and one colour holds 5; cells seeing both "
                         "colours cannot: remove 5 from r1c8, r1c9, r2c2, r2c3")
    assert ("color1", cell("r5c7"), 5) in step.highlights
    assert ("color2", cell("r2c7"), 5) in step.highlights
    assert list(find_simple_colors_wrap(board, S9)) == []


def test_simple_colors_trap_does_not_fire() -> None:
    board = trap_board()
    for name in ("r1c8", "r1c9", "r2c2", "r2c3"):
        board.eliminate(cell(name), 5)
    assert list(find_simple_colors_trap(board, S9)) == []


def test_simple_colors_wrap() -> None:
    # 5 in a chain r1c1 = r1c4 = r8c4 = r8c2 = r2c2; r1c1 and r2c2 share box 1 and colour.
    board = open_board()
    keep_only(board, 5, row(1), "r1c1", "r1c4")
    keep_only(board, 5, col(4), "r1c4", "r8c4")
    keep_only(board, 5, row(8), "r8c4", "r8c2")
    keep_only(board, 5, col(2), "r8c2", "r2c2")
    steps = list(find_simple_colors_wrap(board, S9))
    assert removals(steps) == [elims(("r1c1", 5), ("r2c2", 5), ("r8c4", 5))]
    assert steps[0].technique == SIMPLE_COLORS_WRAP
    assert steps[0].text == ("Simple Colors on 5: strong links colour r1c1, r2c2, r8c4 one "
                             "way and r1c4, r8c2 the other; r1c1 and r2c2 share a colour "
                             "and see each other, so that colour is false: remove 5 from "
                             "r1c1, r2c2, r8c4")


# -- soundness -----------------------------------------------------------------------------

PROBE = [XY_WING, XYZ_WING, W_WING, SIMPLE_COLORS_TRAP, SIMPLE_COLORS_WRAP]


def test_soundness_on_benchmark_puzzles() -> None:
    report = audit_lines(data_lines("magictour_top1465.txt", 200), PROBE)
    print(f"\nsteps found: {dict(report.found)}\nsteps applied: {dict(report.applied)}")
    assert all(report.found[name] for name in (XY_WING, XYZ_WING, W_WING))


@pytest.mark.parametrize("shape", [classic(6), jigsaw(JIGSAW_9), diagonal(S9), samurai()],
                         ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    report = audit_generated(shape, (1, 2, 3), PROBE)
    print(f"\n{shape}: steps found: {dict(report.found)}, applied: {dict(report.applied)}")


# -- Multi-Colors -------------------------------------------------------------------------

def test_multi_colors_1() -> None:
    from numberplace.logic.coloring import MULTI_COLORS_1, find_multi_colors_1

    board = open_board()
    keep_only(board, 1, row(1), "r1c1", "r1c5")  # chain A: r1c1 | r1c5
    keep_only(board, 1, col(2), "r2c2", "r8c2")  # chain B: r2c2 | r8c2
    steps = list(find_multi_colors_1(board, S9))
    # r1c1 sees r2c2, so r1c5 or r8c2 holds 1: r8c5 sees both
    assert [set(s.eliminations) for s in steps] == [elims(("r8c5", 1))]
    assert steps[0].technique == MULTI_COLORS_1
    assert steps[0].text.startswith("Multi-Colors on 1: one chain colours ")


def test_multi_colors_2() -> None:
    from numberplace.logic.coloring import MULTI_COLORS_2, find_multi_colors_2

    board = open_board()
    keep_only(board, 1, row(1), "r1c1", "r1c5")
    keep_only(board, 1, col(5), "r1c5", "r8c5")  # chain A: r1c1, r8c5 | r1c5
    keep_only(board, 1, col(2), "r2c2", "r8c2")  # chain B: r2c2 | r8c2
    steps = list(find_multi_colors_2(board, S9))
    # r1c1 sees r2c2 and r8c5 sees r8c2: that colour is false
    assert [set(s.eliminations) for s in steps] == [elims(("r1c1", 1), ("r8c5", 1))]
    assert steps[0].technique == MULTI_COLORS_2


def test_multi_colors_do_not_fire_with_one_chain() -> None:
    from numberplace.logic.coloring import find_multi_colors_1, find_multi_colors_2

    board = open_board()
    keep_only(board, 1, row(1), "r1c1", "r1c5")
    assert list(find_multi_colors_1(board, S9)) == []
    assert list(find_multi_colors_2(board, S9)) == []
    keep_only(board, 1, col(9), "r4c9", "r6c9")  # a second chain seeing neither colour
    assert list(find_multi_colors_1(board, S9)) == []
    assert list(find_multi_colors_2(board, S9)) == []
