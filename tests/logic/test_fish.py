"""Fish (X-Wing, Swordfish, Jellyfish, finned and sashimi) and single-digit patterns."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from numberplace.engine.grids import random_grid
from numberplace.logic import REGISTRY, Board, Step
from numberplace.logic.audit import Audit
from numberplace.logic.board import bit
from numberplace.logic.fish import (
    find_finned_jellyfish,
    find_finned_swordfish,
    find_finned_x_wing,
    find_jellyfish,
    find_sashimi_jellyfish,
    find_sashimi_swordfish,
    find_sashimi_x_wing,
    find_swordfish,
    find_x_wing,
)
from numberplace.logic.single_digit import (
    DUAL_ER,
    DUAL_KITE,
    find_dual_empty_rectangle,
    find_dual_two_string_kite,
    find_empty_rectangle,
    find_skyscraper,
    find_two_string_kite,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines
from positions import JIGSAW_9, S9, assert_sound, audit_lines, cell, open_board

Finder = Callable[[Board, Shape], Iterator[Step]]

#: The new finders in the order they should be tried (simplest first).
FINDERS: list[tuple[str, Finder]] = [
    ("X-Wing", find_x_wing),
    ("Swordfish", find_swordfish),
    ("Jellyfish", find_jellyfish),
    ("Skyscraper", find_skyscraper),
    ("2-String Kite", find_two_string_kite),
    ("Empty Rectangle", find_empty_rectangle),
    ("Finned X-Wing", find_finned_x_wing),
    ("Sashimi X-Wing", find_sashimi_x_wing),
    ("Finned Swordfish", find_finned_swordfish),
    ("Sashimi Swordfish", find_sashimi_swordfish),
    ("Finned Jellyfish", find_finned_jellyfish),
    ("Sashimi Jellyfish", find_sashimi_jellyfish),
]

ALL_FINDERS = [f for _, f in FINDERS]


def keep_in_line(board: Board, value: int, line: str, where: list[int]) -> None:
    """Leave ``value`` in row/column ``line`` (``"r2"``, ``"c5"``) only at ``where``."""
    kind, n = line[0], int(line[1:])
    for k in range(1, board.shape.size + 1):
        if k in where:
            continue
        name = f"r{n}c{k}" if kind == "r" else f"r{k}c{n}"
        board.eliminate(cell(name, board.shape), value)


def drop(board: Board, value: int, *names: str) -> None:
    for name in names:
        board.eliminate(cell(name, board.shape), value)


def add(board: Board, value: int, *names: str) -> None:
    for name in names:
        board.candidates[cell(name, board.shape)] |= bit(value)


def elims(value: int, *names: str, shape: Shape = S9) -> set[tuple[int, int]]:
    return {(cell(n, shape), value) for n in names}


def only_step(finder: Finder, board: Board) -> Step:
    steps = list(finder(board, board.shape))
    assert len(steps) == 1, [s.text for s in steps]
    return steps[0]


def fires(board: Board, *finders: Finder) -> list[str]:
    return [s.text for f in finders for s in f(board, board.shape)]


# -- basic fish ------------------------------------------------------------------------------

def test_x_wing() -> None:
    board = open_board()
    keep_in_line(board, 5, "r2", [3, 8])
    keep_in_line(board, 5, "r7", [3, 8])
    step = only_step(find_x_wing, board)
    assert step.technique == "X-Wing"
    assert set(step.eliminations) == {(cell(f"r{r}c{c}"), 5) for r in (1, 3, 4, 5, 6, 8, 9)
                                      for c in (3, 8)}
    assert step.text.startswith("X-Wing on 5 in row 2 and row 7, covered by column 3 and "
                                "column 8: remove 5 from r1c3, r1c8, r3c3, r3c8, r4c3")
    assert step.houses == (1, 6, 11, 16)
    roles = Counter(role for role, _, _ in step.highlights)
    assert roles == {"base": 4, "removed": 14}
    # A third place for 5 in row 7 breaks it.
    add(board, 5, "r7c5")
    assert fires(board, *ALL_FINDERS[:3]) == []


def test_x_wing_on_columns_of_a_6x6() -> None:
    shape = classic(6)
    board = open_board(shape)
    keep_in_line(board, 2, "c1", [2, 5])
    keep_in_line(board, 2, "c4", [2, 5])
    step = only_step(find_x_wing, board)
    assert set(step.eliminations) == {(cell(f"r{r}c{c}", shape), 2) for r in (2, 5)
                                      for c in (2, 3, 5, 6)}
    assert "in column 1 and column 4, covered by row 2 and row 5" in step.text


def test_x_wing_in_a_samurai_centre_grid() -> None:
    shape = samurai()
    board = open_board(shape)
    # Canvas rows 7 and 10 are rows 1 and 4 of the centre grid (columns 7..15).
    for r in (7, 10):
        drop(board, 5, *(f"r{r}c{c}" for c in range(8, 15)))
    steps = list(find_x_wing(board, shape))
    assert len(steps) == 1
    expected = {(cell(f"r{r}c{c}", shape), 5) for r in range(7, 16) if r not in (7, 10)
                for c in (7, 15)}
    assert set(steps[0].eliminations) == expected  # the centre grid's columns only
    assert "row 1 of grid 3 and row 4 of grid 3" in steps[0].text


def test_swordfish() -> None:
    board = open_board()
    keep_in_line(board, 5, "r1", [1, 4])
    keep_in_line(board, 5, "r5", [4, 7])
    keep_in_line(board, 5, "r9", [1, 7])
    assert fires(board, find_x_wing, find_jellyfish) == []
    step = only_step(find_swordfish, board)
    assert step.technique == "Swordfish"
    assert set(step.eliminations) == {(cell(f"r{r}c{c}"), 5) for r in (2, 3, 4, 6, 7, 8)
                                      for c in (1, 4, 7)}
    assert step.text.startswith("Swordfish on 5 in row 1, row 5 and row 9, covered by "
                                "column 1, column 4 and column 7: remove 5 from r2c1")
    add(board, 5, "r5c2")
    assert fires(board, *ALL_FINDERS[:3]) == []


def test_jellyfish() -> None:
    board = open_board()
    keep_in_line(board, 8, "r1", [2, 4])
    keep_in_line(board, 8, "r3", [4, 6])
    keep_in_line(board, 8, "r5", [6, 8])
    keep_in_line(board, 8, "r7", [2, 8])
    assert fires(board, find_x_wing, find_swordfish) == []
    step = only_step(find_jellyfish, board)
    assert step.technique == "Jellyfish"
    assert set(step.eliminations) == {(cell(f"r{r}c{c}"), 8) for r in (2, 4, 6, 8, 9)
                                      for c in (2, 4, 6, 8)}
    add(board, 8, "r7c9")
    assert fires(board, *ALL_FINDERS[:3]) == []


# -- finned and sashimi fish -------------------------------------------------------------------

def test_finned_x_wing() -> None:
    board = open_board()
    keep_in_line(board, 5, "r2", [3, 8])
    keep_in_line(board, 5, "r7", [3, 7, 8, 9])
    assert fires(board, find_x_wing, find_sashimi_x_wing) == []
    step = only_step(find_finned_x_wing, board)
    assert step.technique == "Finned X-Wing"
    assert set(step.eliminations) == elims(5, "r8c8", "r9c8")
    assert step.text == ("Finned X-Wing on 5 in row 2 and row 7, covered by column 3 and "
                         "column 8, fins r7c7, r7c9: remove 5 from r8c8, r9c8")
    roles = Counter(role for role, _, _ in step.highlights)
    assert roles == {"base": 4, "fin": 2, "removed": 2}
    # Fins in two boxes: nothing.
    drop(board, 5, "r7c9")
    add(board, 5, "r7c5")
    assert fires(board, *ALL_FINDERS) == []


def test_sashimi_x_wing() -> None:
    board = open_board()
    keep_in_line(board, 5, "r2", [3, 8])
    keep_in_line(board, 5, "r7", [3, 7, 9])
    assert fires(board, find_x_wing, find_finned_x_wing) == []
    step = only_step(find_sashimi_x_wing, board)
    assert step.technique == "Sashimi X-Wing"
    assert set(step.eliminations) == elims(5, "r8c8", "r9c8")
    # Moving a fin out of the box leaves no fish.
    drop(board, 5, "r7c9")
    add(board, 5, "r7c4")
    assert fires(board, find_finned_x_wing, find_sashimi_x_wing) == []


def test_finned_and_sashimi_swordfish() -> None:
    board = open_board()
    keep_in_line(board, 5, "r1", [1, 4])
    keep_in_line(board, 5, "r5", [4, 7])
    keep_in_line(board, 5, "r9", [1, 7, 8, 9])
    assert fires(board, find_swordfish, find_sashimi_swordfish) == []
    step = only_step(find_finned_swordfish, board)
    assert step.technique == "Finned Swordfish"
    assert set(step.eliminations) == elims(5, "r7c7", "r8c7")
    drop(board, 5, "r9c1")  # row 9 keeps one non-fin candidate: sashimi
    assert fires(board, find_finned_swordfish) == []
    step = only_step(find_sashimi_swordfish, board)
    assert step.technique == "Sashimi Swordfish"
    assert set(step.eliminations) == elims(5, "r7c7", "r8c7")


def test_finned_jellyfish_and_no_fish_without_eliminations() -> None:
    board = open_board()
    keep_in_line(board, 8, "r1", [2, 4])
    keep_in_line(board, 8, "r3", [4, 6])
    keep_in_line(board, 8, "r5", [6, 8])
    keep_in_line(board, 8, "r7", [2, 8, 9])
    step = only_step(find_finned_jellyfish, board)
    assert set(step.eliminations) == elims(8, "r8c8", "r9c8")
    assert fires(board, find_jellyfish) == []
    # Rows 1 and 3 also make a sashimi jellyfish with fins r1c4, r3c4 in box 2.
    step = only_step(find_sashimi_jellyfish, board)
    assert "covered by column 2, column 6, column 8 and column 9, fins r1c4, r3c4" in step.text
    assert set(step.eliminations) == elims(8, "r2c6")
    drop(board, 8, "r8c8", "r9c8", "r2c6")
    assert fires(board, find_finned_jellyfish, find_sashimi_jellyfish) == []


def test_finned_x_wing_on_a_jigsaw() -> None:
    shape = jigsaw(JIGSAW_9)
    board = open_board(shape)
    keep_in_line(board, 5, "c1", [2, 8])
    keep_in_line(board, 5, "c9", [2, 8, 9])  # fin r9c9, region 9
    step = only_step(find_finned_x_wing, board)
    # Row 8 cells of region 9 (r8c6, r8c8) see the fin; r8c7 is region 8.
    assert set(step.eliminations) == elims(5, "r8c6", "r8c8", shape=shape)


# -- single-digit patterns ---------------------------------------------------------------------

def test_skyscraper() -> None:
    board = open_board()
    keep_in_line(board, 4, "c2", [1, 7])
    keep_in_line(board, 4, "c6", [2, 7])
    step = only_step(find_skyscraper, board)
    assert step.technique == "Skyscraper"
    assert set(step.eliminations) == elims(4, "r1c4", "r1c5", "r2c1", "r2c3")
    assert step.text == ("Skyscraper on 4: strong links r1c2-r7c2 in column 2 and r7c6-r2c6 "
                         "in column 6, joined in row 7; r1c2 or r2c6 holds 4: remove 4 from "
                         "r1c4, r1c5, r2c1, r2c3")
    assert fires(board, find_two_string_kite, find_empty_rectangle) == []
    # Both ends level: an X-Wing, not a Skyscraper.
    board = open_board()
    keep_in_line(board, 4, "c2", [1, 7])
    keep_in_line(board, 4, "c6", [1, 7])
    assert fires(board, find_skyscraper) == []


def test_two_string_kite() -> None:
    board = open_board()
    keep_in_line(board, 4, "r1", [2, 7])
    keep_in_line(board, 4, "c1", [3, 8])
    step = only_step(find_two_string_kite, board)
    assert step.technique == "2-String Kite"
    assert set(step.eliminations) == elims(4, "r8c7")
    assert "joined in box 1" in step.text
    assert fires(board, find_skyscraper) == []
    board = open_board()
    keep_in_line(board, 4, "r1", [2, 7])
    keep_in_line(board, 4, "c1", [5, 8])
    assert fires(board, find_two_string_kite) == []


def test_empty_rectangle() -> None:
    board = open_board()
    drop(board, 7, "r4c4", "r4c6", "r6c4", "r6c6")  # box 5: 7 only on row 5 and column 5
    keep_in_line(board, 7, "c8", [2, 5])
    step = only_step(find_empty_rectangle, board)
    assert step.technique == "Empty Rectangle"
    assert set(step.eliminations) == elims(7, "r2c5")
    assert "strong link r5c8-r2c8 in column 8" in step.text
    add(board, 7, "r4c4")
    assert fires(board, find_empty_rectangle) == []


def test_dual_two_string_kite() -> None:
    board = open_board()
    # box 1 holds 4 at r1c3 and r3c1 (and r2c2); each is the end of a row and a column link
    keep_in_line(board, 4, "r1", [3, 8])
    keep_in_line(board, 4, "c1", [3, 6])
    keep_in_line(board, 4, "r3", [1, 9])
    keep_in_line(board, 4, "c3", [1, 4])
    step = only_step(find_dual_two_string_kite, board)
    assert step.technique == DUAL_KITE
    assert set(step.eliminations) == elims(4, "r6c8", "r4c9")
    assert step.text.startswith("Dual 2-String Kite on 4: ")
    keep_in_line(board, 4, "r3", [1])  # one kite left
    board.candidates[cell("r3c9")] |= bit(4)
    board.candidates[cell("r3c5")] |= bit(4)
    assert fires(board, find_dual_two_string_kite) == []


def test_dual_empty_rectangle() -> None:
    board = open_board()
    drop(board, 7, "r4c4", "r4c6", "r6c4", "r6c6")  # box 5: 7 only on row 5 and column 5
    keep_in_line(board, 7, "c8", [2, 5])
    keep_in_line(board, 7, "r8", [2, 5])
    step = only_step(find_dual_empty_rectangle, board)
    assert step.technique == DUAL_ER
    assert set(step.eliminations) == elims(7, "r2c5", "r5c2")
    board.candidates[cell("r8c9")] |= bit(7)  # row 8 is no strong link any more
    assert fires(board, find_dual_empty_rectangle) == []


# -- soundness -------------------------------------------------------------------------------

PROBE = [name for name, _ in FINDERS]


def test_soundness_on_magictour() -> None:
    report = audit_lines(data_lines("magictour_top1465.txt", 200), PROBE, exhaustive=False)
    print("new techniques fired:", dict(report.found))
    assert sum(report.found.values()) > 0


@pytest.mark.parametrize("shape", [classic(6), jigsaw(JIGSAW_9), diagonal(S9), samurai()],
                         ids=str)
def test_soundness_on_partial_grids_of_other_shapes(shape: Shape) -> None:
    """Random givens of a known grid (often not unique): no step may lose that grid."""
    total = Audit()
    for seed in range(1, 21 if shape.ncells <= 81 else 6):
        solution = random_grid(shape, seed)
        rng = random.Random(seed)
        share = 0.2 + 0.25 * rng.random()
        givens = tuple(v if rng.random() < share else 0 for v in solution)
        total.merge(assert_sound(Puzzle(shape, givens), PROBE, solution=solution,
                                 before=REGISTRY.names()))
    assert sum(total.applied.values())


@pytest.mark.parametrize("value", [1, 9])
def test_finders_find_nothing_on_an_open_board(value: int) -> None:
    board = open_board()
    assert fires(board, *ALL_FINDERS) == []
    board.place(cell("r5c5"), value)
    assert fires(board, *ALL_FINDERS) == []


# -- Franken, Mutant and Siamese fish ---------------------------------------------------------

def test_franken_x_wing() -> None:
    from numberplace.logic.complex_fish import FRANKEN_FISH, find_franken_fish

    board = open_board()
    keep_in_line(board, 5, "r1", [1, 5])
    drop(board, 5, "r4c4", "r4c6", "r5c4", "r5c5", "r5c6", "r6c4", "r6c6")  # box 5: c5 only
    steps = list(find_franken_fish(board, S9))
    # row 1 and box 5 hold one 5 each, in columns 1 and 5: the columns' other 5s go
    wanted = elims(5, *(f"r{r}c1" for r in range(2, 10)),
                   *(f"r{r}c5" for r in (2, 3, 7, 8, 9)))
    step = next(s for s in steps if set(s.eliminations) == wanted)
    assert step.technique == FRANKEN_FISH
    assert step.text.startswith("Franken X-Wing on 5: base row 1, box 5; cover ")


def test_mutant_fish() -> None:
    from numberplace.logic.complex_fish import MUTANT_FISH, find_mutant_fish

    board = open_board()
    keep_in_line(board, 5, "r1", [2, 3])
    keep_in_line(board, 5, "c9", [5, 6])
    steps = list(find_mutant_fish(board, S9))
    # row 1 and column 9 put their 5s in boxes 1 and 6: the boxes' other 5s go
    wanted = elims(5, *(f"r{r}c{c}" for r in (2, 3) for c in (1, 2, 3)),
                   *(f"r{r}c{c}" for r in (4, 5, 6) for c in (7, 8)))
    assert any(set(s.eliminations) == wanted for s in steps)
    assert all(s.technique == MUTANT_FISH for s in steps)


def test_fish_size_is_the_callers_budget() -> None:
    from numberplace.logic.complex_fish import find_mutant_fish

    def sizes(fish_size: int | None) -> set[str]:
        board = open_board()
        for r, cols in ((1, [1, 2]), (2, [2, 3]), (3, [3, 4]), (4, [4, 1])):
            keep_in_line(board, 5, f"r{r}", cols)
        keep_in_line(board, 5, "c9", [7, 8])
        drop(board, 5, *(f"r{r}c{c}" for r in range(5, 10) for c in range(5, 9)
                         if not (r >= 7 and c >= 7)))
        board.memo.fish_size = fish_size
        board.memo.fish_steps = 200_000
        return {s.text.split(" on ")[0].split(": ")[-1].removeprefix("Finned ")
                for s in find_mutant_fish(board, S9)}

    assert sizes(2) == {"Mutant X-Wing"}
    assert sizes(3) == {"Mutant X-Wing", "Mutant Swordfish"}


def test_siamese_fish() -> None:
    from numberplace.logic.complex_fish import SIAMESE_FISH, find_siamese_fish

    board = open_board()
    keep_in_line(board, 1, "r1", [1, 4, 5])
    keep_in_line(board, 1, "r2", [1, 4, 5])
    steps = list(find_siamese_fish(board, S9))
    # finned X-Wings on rows 1-2: covers c1, c4 (fins in c5) and c1, c5 (fins in c4)
    assert [set(s.eliminations) for s in steps] == [elims(1, "r3c4", "r3c5")]
    assert steps[0].technique == SIAMESE_FISH
    assert steps[0].text.startswith("Siamese fish: Finned X-Wing on 1")


def test_franken_mutant_and_siamese_fish_do_not_fire_on_an_open_board() -> None:
    from numberplace.logic.complex_fish import (
        find_franken_fish,
        find_mutant_fish,
        find_siamese_fish,
    )

    board = open_board()
    for finder in (find_franken_fish, find_mutant_fish, find_siamese_fish):
        assert list(finder(board, S9)) == []


def test_franken_mutant_and_siamese_fish_are_sound() -> None:
    from numberplace.logic.complex_fish import FRANKEN_FISH, MUTANT_FISH, SIAMESE_FISH

    report = audit_lines(data_lines("magictour_top1465.txt", 6),
                         [SIAMESE_FISH, FRANKEN_FISH, MUTANT_FISH], exhaustive=False)
    print("complex fish found:", dict(report.found))


@pytest.mark.parametrize("steps,size", [(None, None), (3_000, 5)])
def test_the_compiled_fish_search_finds_what_the_python_one_finds(
        monkeypatch: pytest.MonkeyPatch, steps: int | None, size: int | None) -> None:
    from numberplace import formats, native
    from numberplace.logic.driver import solve_path

    if native.core is None or not native.core.HAVE_FISH:
        pytest.skip("the compiled core is not built here")
    boards = []
    for line in data_lines("magictour_top1465.txt", 40)[::13]:
        puzzle = formats.parse(line)
        board = Board.from_puzzle(puzzle)
        for step in solve_path(puzzle, REGISTRY.rating_order(), unique=True).steps[:24]:
            if step.technique not in ("Full House", "Naked Single", "Hidden Single"):
                boards.append(board.copy())
            step.apply(board)
    # the same steps in the same order, budget for budget (a small one cuts both short
    # at the same place), fish of five houses too
    for board in boards[:6]:
        board.memo.fish_steps, board.memo.fish_size = steps, size
    compared, found = _both_backends_agree(monkeypatch, boards[:6], S9)
    assert compared == 12 and found > 10


def _both_backends_agree(monkeypatch: pytest.MonkeyPatch, boards: list[Board],
                         shape: Shape) -> tuple[int, int]:
    """Franken and Mutant fish of each board by the compiled search and the Python one,
    which must give the same steps in the same order: how many searches were compared,
    and how many fish they found."""
    from numberplace.logic.complex_fish import find_franken_fish, find_mutant_fish

    compared = found = 0
    for board in boards:
        for finder in (find_franken_fish, find_mutant_fish):
            got = {}
            for backend in ("c", "python"):
                monkeypatch.setenv("NUMBERPLACE_BACKEND", backend)
                got[backend] = [(s.text, s.eliminations) for s in finder(board, shape)]
            assert got["c"] == got["python"]
            compared += 1
            found += len(got["c"])
    return compared, found


@pytest.mark.slow
@pytest.mark.parametrize("size", [16, 25])
def test_the_compiled_fish_search_takes_big_grids(monkeypatch: pytest.MonkeyPatch,
                                                  size: int) -> None:
    """On 16x16 and 25x25 (cell sets of four and ten words, 75 houses on a 25x25) the
    compiled search finds the Python one's fish, in the same order, budget for budget."""
    from numberplace import native
    from numberplace.engine.grids import thinned_puzzle
    from numberplace.logic.driver import solve_path

    if native.core is None or not native.core.HAVE_FISH:
        pytest.skip("the compiled core is not built here")
    shape = classic(size)
    boards = []
    for seed in range(1, 4):
        grid = random_grid(shape, seed)
        puzzle = thinned_puzzle(shape, grid, int(0.45 * shape.ncells), seed)
        board = Board.from_puzzle(puzzle)
        # past the singles, where fish have candidates to work on
        for step in solve_path(puzzle, ["Full House", "Naked Single", "Hidden Single",
                                        "Locked Candidates Type 1 (Pointing)"]).steps:
            step.apply(board)
        boards.append(board)
    for board in boards:
        board.memo.fish_steps = 20_000
    compared, found = _both_backends_agree(monkeypatch, boards, shape)
    assert compared == 6 and found > 20
