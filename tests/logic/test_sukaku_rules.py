"""SukakuExplainer's added rules (``logic/sukaku_rules.py``): strong-linked fish and ALS
wings, where each applies, where it must not, that what they remove on real paths keeps
the solution's digits, and the sukaku scale they make."""

from __future__ import annotations

from functools import partial

import pytest

from numberplace import engine, formats
from numberplace.errors import NumberplaceError
from numberplace.logic import sukaku_rules
from numberplace.logic.rating import rate
from numberplace.logic.sukaku_rules import als_wing, strong_links
from numberplace.logic.xchain import Hint

from conftest import data_lines
from positions import S9, cell, col, elims, keep_only, open_board, set_cands
from test_explainer_rules import explainer_path

#: Puzzles whose path on the sukaku scale takes a rule, the step's name, and
#: SukakuExplainer's rating of the puzzle (serate, its default techniques).
ON_THE_PATH = [
    (".12..4.........83.3..85..2.2....1.4.1..5.9..3.7.4....8.9..65..1.61.........1..45.",
     "Skyscraper", 4.0),
    ("........1.....2.....3.....4....3.....5.....6.7....89.....4..5....8...2..2.4.1....",
     "2-String Kite", 4.1),
    ("..28..3.5.4....69.6..7.3........7.6.7..684..3.1.5........4.1..6.63....5.5.1..82..",
     "Grouped Turbot Fish", 4.3),
    ("..14..6.3....1..8..2..3...75...618...9.....3...854...91...7..9..6..5....4.7..61..",
     "Grouped 3-String Kite", 5.7),
    (".135.........7.4...........1......892.4.6....7.........8.1.....6.....2.....9.3...",
     "Grouped X-Loop (3 strong links)", 5.7),
    ("........1.......2...3.45...........4..67..3...8.1.........3.4...18......72.......",
     "4 Strong Links", 5.9),
    ("....6..2.6....21...2.3.7....5.9...1.37.....95.6...5.7....2.1.8...78....3.4..9....",
     "WXYZ-Wing", 5.6),
    ("..............1..2..3.4..5............6...34..7...2.......6..8..2......17.93.....",
     "VWXYZ-Wing", 6.4),
    ("1...9.....6...3...589..6.278....42...3.....8...53....439.2..415...4...6.....7...2",
     "UVWXYZ-Wing", 6.6),
]


def _rule_of(step: str):  # type: ignore[no-untyped-def]
    if "Wing" in step:
        return partial(als_wing, size={"W": 3, "V": 4, "U": 5, "T": 6}[step[0]])
    # the number of links is the name's digit: "4 Strong Links", "Grouped 3-String Kite"
    return partial(strong_links, degree=next((int(ch) for ch in step if ch.isdigit()), 2))


@pytest.mark.parametrize(("line", "step", "theirs"), ON_THE_PATH)
def test_the_path_takes_the_rule_and_rates_as_sukaku_explainer(line: str, step: str,
                                                                theirs: float) -> None:
    solution = engine.solve(formats.parse(line), limit=1).solution
    assert solution is not None
    taken = [board for board, name, _ in explainer_path(line, "sukaku") if name == step]
    assert taken
    for board in taken:
        hint = _rule_of(step)(board)
        assert hint is not None and hint.kind == step
        assert all(solution[c] != v for c, v in hint.removals)
    assert rate(line, book=False, scale="sukaku").difficulty == theirs
    # the classic scale has none of these rules
    assert step not in {name for _, name, _ in explainer_path(line)}


def _skyscraper_board():  # type: ignore[no-untyped-def]
    # 1 in column 1 only at r1c1 and r5c1, in column 5 only at r2c5 and r5c5: the bases
    # share row 5, so one of r1c1 and r2c5 is 1
    board = open_board()
    keep_only(board, 1, col(1), "r1c1", "r5c1")
    keep_only(board, 1, col(5), "r2c5", "r5c5")
    return board


def test_a_skyscraper() -> None:
    hint = strong_links(_skyscraper_board(), 2)
    assert hint is not None and (hint.kind, hint.value) == ("Skyscraper", 4.0)
    # the cells that see both tops, outside the two columns and the row of the bases
    assert set(hint.removals) == elims(("r1c4", 1), ("r1c6", 1), ("r2c2", 1), ("r2c3", 1))


def test_no_chain_of_three_where_two_links_are_all() -> None:
    assert strong_links(_skyscraper_board(), 3) is None


def test_a_box_pair_in_one_line_is_no_box_link() -> None:
    # box 1's places at r1c1 and r1c2 are row 1's business (its link, where row 1 has
    # no other place); at r1c1 and r2c2 they are the box's own link
    grid = sukaku_rules._grid(S9)
    assert grid is not None
    box = grid.houses[sukaku_rules.BOX][0]
    assert sukaku_rules._house_links(grid, sukaku_rules.BOX, box, [0, 1]) == []
    assert sukaku_rules._house_links(grid, sukaku_rules.BOX, box, [0, 4]) == [
        (((0,), (4,)), False)]


def test_a_box_place_in_each_blade_and_the_heart_links_a_blade_cell_to_the_rest() -> None:
    # places r1c1 (the heart), r1c2 and r2c1: if not r1c2, then r1c1 or r2c1 (column 1)
    grid = sukaku_rules._grid(S9)
    assert grid is not None
    box = grid.houses[sukaku_rules.BOX][0]
    assert sukaku_rules._house_links(grid, sukaku_rules.BOX, box, [0, 1, 3]) == [
        (((1,), (3, 0)), True)]


def test_no_links_on_a_fresh_board() -> None:
    board = open_board()
    assert all(strong_links(board, n) is None for n in (2, 3, 4))
    assert all(als_wing(board, n) is None for n in (3, 4, 5, 6))


def _wing_board(pair: str):  # type: ignore[no-untyped-def]
    # r1c1 {1,2}, r1c2 {2,3}, r1c3 {3,4}: three cells, four values; and a pair 1 4
    board = open_board()
    for name, values in (("r1c1", (1, 2)), ("r1c2", (2, 3)), ("r1c3", (3, 4)),
                         (pair, (1, 4))):
        set_cands(board, name, *values)
    return board


def test_a_wxyz_wing() -> None:
    # r4c1 sees the set's only 1 (r1c1): the set's 4 (r1c3) or r4c1's 4 is true, so 4
    # goes from the cells that see both
    hint = als_wing(_wing_board("r4c1"), 3)
    assert hint == Hint(5.5, 0, 0, "WXYZ-Wing", tuple(sorted(
        elims(("r2c1", 4), ("r3c1", 4), ("r4c3", 4), ("r5c3", 4), ("r6c3", 4)))))


def test_no_wing_where_the_pair_sees_no_value_it_shares_with_the_set() -> None:
    # r5c2 sees r1c2 only, which holds neither 1 nor 4
    assert als_wing(_wing_board("r5c2"), 3) is None


def test_no_wing_where_the_set_holds_two_values_more_than_it_has_cells() -> None:
    board = _wing_board("r4c1")
    set_cands(board, "r1c3", 3, 4, 5)  # three cells, five values: not almost locked
    assert als_wing(board, 3) is None


def test_a_tuvwxyz_wing() -> None:
    # r1c1-r1c6 hold 1-7 two by two; r9c1 {1,7} sees the set's only 1 (r1c1), so 7 goes
    # from r9c6, which sees r9c1 and the set's only 7 (r1c6)
    board = open_board()
    for c in range(1, 7):
        set_cands(board, f"r1c{c}", c, c + 1)
    set_cands(board, "r9c1", 1, 7)
    assert als_wing(board, 6) == Hint(7.5, 0, 0, "TUVWXYZ-Wing", ((cell("r9c6"), 7),))


def test_the_scale_is_named_in_any_case_and_checked() -> None:
    line = ON_THE_PATH[0][0]
    assert rate(line, book=False, scale="SUKAKU").difficulty == 4.0
    assert rate(line, book=False).difficulty == 4.2  # the classic scale: an XY-Wing
    with pytest.raises(NumberplaceError, match="unknown scale 'hodoku'; scales: explainer, "
                                               "sukaku"):
        rate(line, book=False, scale="hodoku")


@pytest.mark.slow
def test_the_rules_keep_every_true_digit_on_real_paths() -> None:
    # soundness: on every board of the sukaku path of many puzzles, whatever each rule
    # finds (taken or not) keeps the solution's digits
    lines = data_lines("17_clue.txt", 25) + data_lines("magictour_top1465.txt", 8)
    rules = [partial(strong_links, degree=n) for n in (2, 3, 4)]
    rules += [partial(als_wing, size=n) for n in (3, 4, 5, 6)]
    found = 0
    for line in lines:
        solution = engine.solve(formats.parse(line), limit=1).solution
        assert solution is not None
        for board, _, _ in explainer_path(line, "sukaku"):
            for rule in rules:
                hint = rule(board)
                if hint is not None:
                    found += 1
                    assert all(solution[c] != v for c, v in hint.removals), (line, hint)
    assert found > 50
