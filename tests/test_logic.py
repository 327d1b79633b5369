"""The human-style solver: board, steps, techniques, driver, and their soundness."""

from __future__ import annotations

import pytest

from numberplace import engine, formats
from numberplace.grids import minimal_puzzle, random_grid
from numberplace.logic import (
    BOOK,
    CLAIMING,
    POINTING,
    REGISTRY,
    Board,
    Family,
    Step,
    Technique,
    find_claiming,
    find_full_house,
    find_hidden_pair,
    find_hidden_quadruple,
    find_hidden_single,
    find_hidden_triple,
    find_naked_pair,
    find_naked_quadruple,
    find_naked_single,
    find_naked_triple,
    find_pointing,
    next_step,
    solve_path,
)
from numberplace.logic.board import bit
from numberplace.puzzle import Puzzle
from numberplace.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import BOOK_PUZZLES, data_lines
from positions import JIGSAW_9, S9, cell, row, set_cands

FULL = (1 << 9) - 1



def cells(*names: str) -> list[int]:
    return [cell(n) for n in names]


def open_board(shape: Shape = S9) -> Board:
    """A board with no values and every candidate everywhere (a blank slate to mark up)."""
    full = (1 << shape.size) - 1
    return Board(shape, [0] * shape.ncells, [full] * shape.ncells)


def remove(board: Board, value: int, where: list[int]) -> None:
    for c in where:
        board.eliminate(c, value)


# -- Board -------------------------------------------------------------------------------

def test_board_from_puzzle_uses_givens_and_pencil_marks() -> None:
    givens = [0] * 81
    givens[cell("r1c1")] = 5
    givens[cell("r2c5")] = 7
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    assert board.values[cell("r1c1")] == 5 and board.candidates[cell("r1c1")] == 0
    assert board.candidates[cell("r1c9")] == FULL & ~bit(5)
    assert board.candidates[cell("r2c1")] == FULL & ~bit(5) & ~bit(7)
    assert board.candidates[cell("r9c9")] == FULL
    marks = [FULL] * 81
    marks[cell("r1c2")] = bit(5) | bit(6)  # 5 is excluded by the given: only 6 stays
    board = Board.from_puzzle(Puzzle(S9, tuple(givens), candidates=tuple(marks)))
    assert board.candidates[cell("r1c2")] == bit(6)


def test_board_place_eliminate_copy() -> None:
    board = Board.from_puzzle(Puzzle.empty(S9))
    other = board.copy()
    board.place(cell("r5c5"), 3)
    assert board.values[cell("r5c5")] == 3 and board.candidates[cell("r5c5")] == 0
    for p in S9.peers[cell("r5c5")]:
        assert not board.candidates[p] & bit(3)
    assert board.candidates[cell("r1c1")] & bit(3)
    assert other.values[cell("r5c5")] == 0 and other.candidates[cell("r5c6")] == FULL
    assert board.eliminate(cell("r1c1"), 4) is True
    assert board.eliminate(cell("r1c1"), 4) is False
    assert not board.is_solved()


def test_board_contradictions() -> None:
    board = open_board()
    assert board.contradiction() is None
    board.candidates[cell("r3c4")] = 0
    assert board.contradiction() == "r3c4 has no candidate left"
    assert board.contradiction("book") == "(4,3) has no candidate left"

    board = open_board()
    remove(board, 7, row(2))
    assert board.contradiction() == "value 7 has no place in row 2"

    board = open_board()
    board.place(cell("r2c3"), 7)  # placed values count: no complaint about row 2
    assert board.contradiction() is None

    board = open_board()
    remove(board, 4, [c for c in S9.houses[18].cells])  # box 1
    # rows and columns still offer 4 elsewhere, so the box is the house named
    assert board.contradiction() == "value 4 has no place in box 1"
    assert board.contradiction("book") == "value 4 has no place in minigrid 1"

    givens = [0] * 81
    givens[cell("r1c1")] = givens[cell("r1c5")] = 5
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    assert board.contradiction() == "value 5 appears twice in row 1"


# -- singles -------------------------------------------------------------------------------

def test_full_house() -> None:
    givens = [0] * 81
    for c in range(8):
        givens[c] = c + 1
    board = Board.from_puzzle(Puzzle(S9, tuple(givens)))
    steps = list(find_full_house(board, S9))
    assert [s.placements for s in steps] == [((cell("r1c9"), 9),)]
    assert steps[0].text == "r1c9 is the last empty cell of row 1: place 9 at r1c9"
    givens[7] = 0
    assert list(find_full_house(Board.from_puzzle(Puzzle(S9, tuple(givens))), S9)) == []


def test_naked_single() -> None:
    board = open_board()
    assert list(find_naked_single(board, S9)) == []
    set_cands(board, "r4c7", 6)
    steps = list(find_naked_single(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "Naked Single" and step.book_name == "CRME"
    assert step.placements == ((cell("r4c7"), 6),) and step.eliminations == ()


def test_hidden_single_text_in_both_notations() -> None:
    board = open_board()
    assert list(find_hidden_single(board, S9)) == []
    remove(board, 2, [c for c in row(5) if c != cell("r5c6")])
    steps = list(find_hidden_single(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "Hidden Single" and step.book_name == "Lone Ranger"
    assert step.placements == ((cell("r5c6"), 2),)
    assert step.houses == (4,)
    assert step.text == ("In row 5 only r5c6 can hold 2 (a lone ranger in the row): "
                         "place 2 at r5c6")
    assert step.describe(S9) == step.text
    assert step.describe(S9, "book") == ("In row 5 only (6,5) can hold 2 (a lone ranger in "
                                         "the row): place 2 at (6,5)")


def test_hidden_single_in_a_box_is_a_minigrid_in_the_book() -> None:
    board = open_board()
    box5 = S9.houses[22].cells
    remove(board, 8, [c for c in box5 if c != cell("r6c4")])
    (step,) = find_hidden_single(board, S9)
    assert step.placements == ((cell("r6c4"), 8),)
    assert "(a lone ranger in the box)" in step.describe(S9)
    assert step.describe(S9, "book") == ("In minigrid 5 only (4,6) can hold 8 (a lone ranger "
                                         "in the minigrid): place 8 at (4,6)")


# -- intersections ------------------------------------------------------------------------

def test_pointing() -> None:
    board = open_board()
    assert list(find_pointing(board, S9)) == []
    box1 = S9.houses[18].cells
    remove(board, 5, [c for c in box1 if c not in cells("r1c1", "r1c2")])
    steps = list(find_pointing(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == POINTING
    assert set(step.eliminations) == {(c, 5) for c in row(1)[3:]}
    assert step.cells == tuple(cells("r1c1", "r1c2"))
    assert "pointing along the row" in step.text
    assert list(find_claiming(board, S9)) == []


def test_claiming() -> None:
    board = open_board()
    assert list(find_claiming(board, S9)) == []
    remove(board, 5, row(1)[3:])
    steps = list(find_claiming(board, S9))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == CLAIMING
    box1 = S9.houses[18].cells
    assert set(step.eliminations) == {(c, 5) for c in box1 if c not in row(1)}
    assert "claiming from the row" in step.text
    assert list(find_pointing(board, S9)) == []


def test_locked_candidates_on_a_diagonal() -> None:
    shape = diagonal(S9)
    board = open_board(shape)
    main = next(h for h, x in enumerate(shape.houses) if x.label == "main diagonal")
    centre = {cell("r4c4"), cell("r5c5"), cell("r6c6")}
    remove(board, 3, [c for c in shape.houses[main].cells if c not in centre])
    found = [s for s in find_claiming(board, shape) if s.houses[0] == main]
    assert len(found) == 1
    box5 = shape.houses[22].cells
    assert set(found[0].eliminations) == {(c, 3) for c in box5 if c not in centre}
    assert "claiming from the diagonal" in found[0].text


# -- subsets ---------------------------------------------------------------------------------

def test_naked_pair() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c2", 1, 3)
    assert list(find_naked_pair(board, S9)) == []
    set_cands(board, "r1c2", 1, 2)
    steps = list(find_naked_pair(board, S9))
    assert [s.houses for s in steps] == [(0,), (18,)]  # row 1, then box 1
    step = steps[0]
    assert step.book_name == "Twins" and step.technique == "Naked Pair"
    assert set(step.eliminations) == {(c, v) for c in row(1)[2:] for v in (1, 2)}
    assert step.text.startswith("In row 1, r1c1, r1c2 hold only 1, 2 between them: remove ")


def test_naked_triple_and_quadruple() -> None:
    board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r1c5", 2, 3)
    set_cands(board, "r1c9", 1, 4)
    assert list(find_naked_triple(board, S9)) == []
    set_cands(board, "r1c9", 1, 3)
    (step,) = find_naked_triple(board, S9)
    assert step.book_name == "Triplets"
    others = [c for c in row(1) if c not in cells("r1c1", "r1c5", "r1c9")]
    assert set(step.eliminations) == {(c, v) for c in others for v in (1, 2, 3)}

    board = open_board()
    for name, vals in (("r1c1", (1, 2)), ("r1c2", (2, 3)), ("r1c5", (3, 4)), ("r1c9", (1, 4))):
        set_cands(board, name, *vals)
    (step,) = find_naked_quadruple(board, S9)
    others = [c for c in row(1) if c not in cells("r1c1", "r1c2", "r1c5", "r1c9")]
    assert set(step.eliminations) == {(c, v) for c in others for v in (1, 2, 3, 4)}
    assert step.technique == "Naked Quadruple" and step.book_name == ""


def test_hidden_subsets() -> None:
    board = open_board()
    remove(board, 1, row(1)[2:])
    remove(board, 2, [row(1)[1]] + row(1)[3:])  # 2 in r1c1 and r1c3: no pair yet
    assert list(find_hidden_pair(board, S9)) == []
    remove(board, 2, [cell("r1c3")])
    board.candidates[cell("r1c2")] |= bit(2)
    (step,) = find_hidden_pair(board, S9)
    assert step.technique == "Hidden Pair"
    assert set(step.eliminations) == {(c, v) for c in cells("r1c1", "r1c2")
                                      for v in range(3, 10)}
    assert step.describe(S9).startswith("In row 1, 1, 2 can only go in r1c1, r1c2: remove 3")

    board = open_board()
    trio = cells("r1c1", "r1c5", "r1c9")
    for v in (1, 2, 3):
        remove(board, v, [c for c in row(1) if c not in trio])
    (step,) = find_hidden_triple(board, S9)
    assert set(step.eliminations) == {(c, v) for c in trio for v in range(4, 10)}

    board = open_board()
    quad = cells("r1c1", "r1c2", "r1c5", "r1c9")
    for v in (1, 2, 3, 4):
        remove(board, v, [c for c in row(1) if c not in quad])
    assert list(find_hidden_triple(board, S9)) == []
    (step,) = find_hidden_quadruple(board, S9)
    assert set(step.eliminations) == {(c, v) for c in quad for v in range(5, 10)}


# -- steps and driver ----------------------------------------------------------------------

def test_step_apply_places_and_eliminates() -> None:
    board = open_board()
    step = Step("test", placements=((cell("r1c1"), 4),), eliminations=((cell("r9c9"), 8),))
    step.apply(board)
    assert board.values[cell("r1c1")] == 4
    assert not board.candidates[cell("r1c9")] & bit(4)
    assert not board.candidates[cell("r9c9")] & bit(8)


def test_driver_order_presets_and_statuses() -> None:
    assert BOOK == ["Naked Single", "Hidden Single", "Naked Pair", "Naked Triple"]
    assert REGISTRY.names()[:3] == ["Full House", "Naked Single", "Hidden Single"]
    board = open_board()
    set_cands(board, "r4c7", 6)
    remove(board, 2, [c for c in row(5) if c != cell("r5c6")])
    step = next_step(board, S9)
    assert step is not None and step.technique == "Naked Single"
    step = next_step(board, S9, ["Lone Ranger"])  # the book's names are accepted
    assert step is not None and step.technique == "Hidden Single"
    with pytest.raises(ValueError, match="unknown technique"):
        next_step(board, S9, ["X-Wing of Doom"])

    assert solve_path(Puzzle.empty(S9)).status == "stalled"
    givens = [0] * 81
    givens[0] = givens[1] = 3
    result = solve_path(Puzzle(S9, tuple(givens)))
    assert result.status == "invalid" and result.message == "value 3 appears twice in row 1"


def test_book_puzzle_falls_to_crme_alone() -> None:
    puzzle = formats.parse(BOOK_PUZZLES[1])
    result = solve_path(puzzle, techniques=["Naked Single"])
    assert result.status == "solved"
    assert {s.technique for s in result.steps} == {"Naked Single"}
    assert result.board is not None
    assert tuple(result.board.values) == engine.solve(puzzle).solution


def test_book_preset_solves_the_first_book_puzzle() -> None:
    result = solve_path(formats.parse(BOOK_PUZZLES[0]), techniques=BOOK)
    assert result.status == "solved"


# -- soundness -----------------------------------------------------------------------------

def assert_path_sound(puzzle: Puzzle) -> str:
    """Run the driver; every step must agree with the engine's (unique) solution."""
    solution = engine.solve(puzzle).solution
    assert solution is not None
    result = solve_path(puzzle)
    assert result.status != "invalid", result.message
    for step in result.steps:
        for c, v in step.placements:
            assert solution[c] == v, f"wrong placement: {step.text}"
        for c, v in step.eliminations:
            assert solution[c] != v, f"true value eliminated: {step.text}"
    if result.status == "solved":
        assert result.board is not None and tuple(result.board.values) == solution
    return result.status


@pytest.mark.parametrize("name", ["magictour_top1465.txt", "kaggle_like_10k.txt"])
def test_soundness_on_benchmark_puzzles(name: str) -> None:
    statuses = [assert_path_sound(formats.parse(line)) for line in data_lines(name, 300)]
    assert "solved" in statuses


@pytest.mark.parametrize("shape", [classic(6), classic(16), jigsaw(JIGSAW_9), diagonal(S9),
                                   samurai()], ids=str)
def test_soundness_on_generated_puzzles(shape: Shape) -> None:
    for seed in (1, 2):
        solution = random_grid(shape, seed)
        # Fewer removal tries leave more givens: quick to make, and longer logic paths.
        tries = None if shape.ncells <= 81 else shape.ncells // 2
        assert_path_sound(minimal_puzzle(shape, solution, seed, tries=tries))


def test_brute_force_guesses_and_backtracks_soundly() -> None:
    """The book preset finishes hard puzzles by guessing: each guess and backtrack is a
    step; steps at depth 0 are sound, and the final board is the solution."""
    from numberplace import engine
    from numberplace.logic.driver import BACKTRACK, BRUTE_FORCE

    guesses = backtracks = 0
    for line in data_lines("top95.txt", 40):
        puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
        solution = engine.solve(puzzle).solution
        assert solution is not None
        result = solve_path(puzzle, BOOK, guess=True)
        assert result.status == "solved"
        assert result.board is not None and list(result.board.values) == list(solution)
        depth = 0
        for step in result.steps:
            if step.technique == BRUTE_FORCE:
                guesses += 1
                assert step.depth == depth + 1
            elif step.technique == BACKTRACK:
                backtracks += 1
                assert step.depth == depth - 1
            else:
                assert step.depth == depth
            depth = step.depth
            if depth == 0:  # unconditional: must agree with the true solution
                assert all(solution[c] == v for c, v in step.placements), step.text
                assert all(solution[c] != v for c, v in step.eliminations), step.text
    assert guesses > 0 and backtracks > 0


def test_without_guessing_a_hard_puzzle_stalls() -> None:
    line = data_lines("top95.txt", 1)[0]
    puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
    assert solve_path(puzzle, BOOK).status == "stalled"


def test_next_placement_writes_one_value_per_call() -> None:
    from numberplace import engine
    from numberplace.logic import next_placement

    for line in data_lines("top95.txt", 10):
        puzzle = Puzzle(classic(9), tuple(0 if ch == "." else int(ch) for ch in line))
        solution = engine.solve(puzzle).solution
        assert solution is not None
        board = Board.from_puzzle(puzzle)
        step, before = next_placement(board, puzzle.shape)
        assert all(not s.placements and s.eliminations for s in before)
        if step is not None:
            assert len(step.placements) == 1
            (cell, value), = step.placements
            assert solution[cell] == value
            assert board.values[cell] == 0  # the placement itself is not applied


def test_audit_flags_an_unsound_technique() -> None:
    """The soundness audit must be able to fail: a made-up technique that removes a true
    value, and one that places a wrong value, are both reported."""
    from numberplace.logic.audit import audit
    from numberplace.logic.step import make_step

    puzzle = formats.parse(BOOK_PUZZLES[0])
    solution = engine.solve(puzzle).solution
    assert solution is not None
    open_cell = puzzle.givens.index(0)
    wrong = solution[open_cell] % 9 + 1

    def remove_truth(board, shape):  # type: ignore[no-untyped-def]
        yield make_step(shape, "Bogus", "remove the truth",
                        eliminations=((open_cell, solution[open_cell]),))

    def place_wrong(board, shape):  # type: ignore[no-untyped-def]
        yield make_step(shape, "Bogus", "place a wrong value",
                        placements=((open_cell, wrong),))

    for finder in (remove_truth, place_wrong):
        REGISTRY.add(Technique("Bogus", finder, Family.SINGLES, 1, 1.0))
        try:
            report = audit(puzzle, solution, ["Bogus"], before=[])
        finally:
            REGISTRY.remove("Bogus")
        assert report.faults and "Bogus" in report.faults[0]
        assert report.found["Bogus"] == 1
    assert not audit(puzzle, solution).faults  # the real techniques are sound here
