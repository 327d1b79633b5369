"""Formats: each reads what it writes, detection, precise errors, streaming, and fuzzing."""

from __future__ import annotations

import io
import itertools
import random
import re
import sys
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numberplace import engine
from numberplace.errors import FormatError, NumberplaceError
from numberplace.formats import (
    FORMAT_NAMES,
    Record,
    detect,
    parse,
    read_file,
    read_records,
    write,
)
from numberplace.formats._common import candidate_masks, placed_values
from numberplace.logic import next_step
from numberplace.logic.board import Board
from numberplace.model.alphabet import Alphabet
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

BOOK_1 = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
BOOK_2 = ".34....9.6....8214..1.27...4.9.83.5.56.....87.2.56.4.1...21.8..8579....6.9....34."


def box_regions(size: int) -> list[int]:
    """Each cell's box number in the classic grid of a size."""
    numbers = [0] * (size * size)
    boxes = [h for h in classic(size).houses if h.kind == "box"]
    for number, house in enumerate(boxes):
        for cell in house.cells:
            numbers[cell] = number
    return numbers


def irregular_nine() -> Shape:
    """A 9x9 jigsaw: the boxes, with two cells traded between boxes 1 and 2."""
    regions = box_regions(9)
    regions[20], regions[21] = regions[21], regions[20]
    return jigsaw(regions, 9)


JIGSAW_5 = jigsaw("AAAAB\nCCABB\nCCDBB\nCDDEE\nDDEEE")
JIGSAW_9 = irregular_nine()
HEX = Alphabet.hexadecimal()

#: (id, shape, alphabet) of every shape and alphabet the round trips cover.
CASES = [
    ("4x4", classic(4), None),
    ("6x6", classic(6), None),
    ("9x9", classic(9), None),
    ("16x16", classic(16), None),
    ("16x16-hex", classic(16), HEX),
    ("25x25", classic(25), None),
    ("diagonal", diagonal(), None),
    ("jigsaw-9", JIGSAW_9, None),
    ("jigsaw-5", JIGSAW_5, None),
    ("diagonal-jigsaw", diagonal(JIGSAW_9), None),
    ("samurai", samurai(), None),
    ("wordoku", classic(9), Alphabet.letters("WORDPLAYS")),
]


def sample(shape: Shape, alphabet: Alphabet | None = None, seed: int = 1) -> Puzzle:
    """A puzzle with givens scattered over the shape (clashes do not matter to formats)."""
    rng = random.Random(seed)
    n = shape.size
    givens = [rng.randint(1, n) if rng.random() < 0.4 else 0 for _ in range(shape.ncells)]
    givens[0] = 1  # every sample holds value 1, which hexadoku writes as '0'
    givens[1] = 0
    return Puzzle(shape, tuple(givens), alphabet or Alphabet.default(n))


def with_pencil_marks(puzzle: Puzzle) -> Puzzle:
    """The puzzle as a pencil-mark grid reads: every cell its candidates, and placed the
    cells down to one candidate that no peer holds (a given, unless it clashes)."""
    masks = candidate_masks(puzzle)
    return Puzzle(puzzle.shape, tuple(placed_values(puzzle.shape, masks)), puzzle.alphabet,
                  tuple(masks))


#: The formats of puzzles with sums.
SUM_FORMATS = ("kakuro", "janko", "puzzlekit", "killer")


def holds(format_name: str, shape: Shape) -> bool:
    """True if the format can hold the shape."""
    several = len(shape.grids) > 1
    if format_name in SUM_FORMATS:  # puzzles with sums (their own test files)
        return False
    if format_name == "samurai":
        return several
    return not several or format_name in ("line", "grid", "samurai-grid", "sukaku", "json")


def round_trip_cases() -> Iterator[object]:
    for (name, shape, alphabet), fmt in itertools.product(CASES, FORMAT_NAMES):
        if holds(fmt, shape) and not (fmt == "sdo" and alphabet is HEX):
            yield pytest.param(shape, alphabet, fmt, id=f"{name}-{fmt}")


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "alphabet", "fmt"), list(round_trip_cases()))
def test_each_format_reads_what_it_writes(shape: Shape, alphabet: Alphabet | None,
                                          fmt: str) -> None:
    puzzle = sample(shape, alphabet)
    if fmt in ("pencil", "sukaku"):
        # These formats carry candidates, so what comes back has them too.
        puzzle = with_pencil_marks(puzzle)
    text = write(puzzle, fmt)
    assert not text.endswith("\n")
    assert parse(text, format=fmt, shape=shape, alphabet=puzzle.alphabet) == puzzle


@pytest.mark.parametrize(("shape", "alphabet"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_json_keeps_shape_alphabet_and_candidates(shape: Shape, alphabet: Alphabet | None) -> None:
    for puzzle in (sample(shape, alphabet), with_pencil_marks(sample(shape, alphabet))):
        text = write(puzzle, "json")
        assert "\n" not in text
        assert detect(text) == "json"
        assert parse(text) == puzzle


@pytest.mark.parametrize("fmt", ["line", "sdo", "grid", "sdk", "ss", "jigsaw", "json"])
@pytest.mark.parametrize("size", [4, 6, 9, 16, 25])
def test_classic_puzzles_need_no_hints(size: int, fmt: str) -> None:
    puzzle = sample(classic(size))
    text = write(puzzle, fmt)
    assert detect(text) == ("line" if fmt == "sdo" and size != 9 else fmt)
    assert parse(text) == puzzle


@pytest.mark.parametrize("fmt", ["line", "grid", "ss", "sdk", "jigsaw", "pencil"])
def test_hexadoku_symbols_are_recognised(fmt: str) -> None:
    puzzle = sample(classic(16), HEX)
    if fmt == "pencil":
        puzzle = with_pencil_marks(puzzle)
    assert parse(write(puzzle, fmt)) == puzzle


def test_a_complete_hexadoku_grid_is_recognised() -> None:
    size = 16
    values = [(4 * (r % 4) + r // 4 + c) % size + 1 for r in range(size) for c in range(size)]
    solution = Puzzle(classic(16), tuple(values), HEX)
    assert solution.fits(values)
    assert parse(write(solution)) == solution


@pytest.mark.parametrize("fmt", ["pencil", "sukaku"])
def test_pencil_marks_of_a_plain_puzzle_are_the_values_no_peer_holds(fmt: str) -> None:
    puzzle = parse(BOOK_1)
    marked = parse(write(puzzle, fmt))
    assert marked.candidates is not None
    assert marked.candidates[0] == 0b011000000  # r1c1 of the book's puzzle: 7 or 8
    # the givens come back placed: no peer holds their value
    assert marked.givens == puzzle.givens
    assert all(marked.candidates[c] == 1 << (v - 1) for c, v in enumerate(puzzle.givens) if v)


def test_write_prints_other_values_in_the_same_format() -> None:
    puzzle = parse(BOOK_1)
    values = [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
    text = write(puzzle, "ss", values=values)
    assert text.splitlines()[0] == "123|456|789"
    assert parse(text).givens == tuple(values)


def test_the_book_puzzles_in_every_single_grid_format() -> None:
    for text in (BOOK_1, BOOK_2):
        puzzle = parse(text)
        assert puzzle.to_line() == text
        for fmt in ("line", "sdo", "grid", "sdk", "ss", "jigsaw", "json"):
            assert parse(write(puzzle, fmt)) == puzzle


# -- what the formats look like ----------------------------------------------------------


def test_written_grid_has_box_separators() -> None:
    lines = write(parse(BOOK_1), "grid").splitlines()
    assert lines[0] == ". . 9 | . 5 . | . 6 ."
    assert lines[3] == "------+-------+------"
    assert len(lines) == 11


def test_written_jigsaw_grid_has_no_separators() -> None:
    puzzle = sample(JIGSAW_9)
    lines = write(puzzle, "grid").splitlines()
    assert len(lines) == 9
    assert "|" not in "".join(lines)


def test_written_jigsaw_gives_givens_then_region_map() -> None:
    lines = write(sample(JIGSAW_5), "jigsaw").splitlines()
    assert lines[5] == "regions:"
    assert lines[6:] == ["11112", "33122", "33422", "34455", "44555"]


def test_written_sdo_uses_zero_and_sdk_has_a_section() -> None:
    puzzle = parse(BOOK_1)
    assert write(puzzle, "sdo") == BOOK_1.replace(".", "0")
    assert write(puzzle, "sdk").splitlines()[:2] == ["[Puzzle]", "..9.5..6."]


def test_written_pencil_grid_pads_columns() -> None:
    lines = write(parse(BOOK_1), "pencil").splitlines()
    assert lines[0].startswith("+") and lines[0].endswith("+")
    assert lines[1].startswith("| 78   14    9    | 247  5     48    |")
    assert len({len(line) for line in lines}) == 1


def test_written_samurai_shares_cells_between_lines() -> None:
    puzzle = sample(samurai())
    lines = write(puzzle, "samurai").splitlines()
    assert [len(line) for line in lines] == [81] * 5
    # The bottom-right box of the top-left grid is the top-left box of the centre grid.
    assert lines[0][60:63] == lines[2][0:3]
    canvas = write(puzzle, "samurai-grid").splitlines()
    assert len(canvas) == 21
    assert canvas[9].startswith("      ") and len(canvas[9]) == 15


def test_the_line_format_on_a_given_shape() -> None:
    puzzle = parse(BOOK_1, shape="diagonal")
    assert puzzle.shape == diagonal()
    assert parse(write(puzzle), shape=JIGSAW_9).shape == JIGSAW_9


# -- reading what people paste ------------------------------------------------------------


def test_grid_accepts_separators_borders_and_empties() -> None:
    text = """
    *-----------*
    |..9|.5.|.6.|
    |3_2|19_|_87|
    |.6.|3..|...|
    |---+---+---|
    |..8|5.3|..1|
    |17.|...|.54|
    |5..|8.1|2..|
    |===+===+===|
    |...|..7|.2.|
    |48.|.12|5.3|
    |.2.|.3.|7..|
    *-----------*
    """
    assert parse(text, format="grid") == parse(BOOK_1)
    assert detect(text) == "ss"


def test_hodoku_pencil_grid() -> None:
    text = """
.--------------.----------------.------------.
| 78  14   9   | 247  5     48  | 134  6  2  |
| 3   45   2   | 1    9     46  | 4    8  7  |
| 78  6    1457| 3    2478  48  | 149  149 259|
:--------------+----------------+------------:
| 269 49  8    | 5    2467  3   | 69   79  1 |
| 1   7   36   | 269  26    69  | 3689 5   4 |
| 5   349 346  | 8    467   1   | 2    379 69|
:--------------+----------------+------------:
| 69  1359 1356| 469  468   7   | 14689 2 689|
| 4   8   67   | 69   1     2   | 5    9   3 |
| 69  2   156  | 469  3     45689| 7    149 689|
'--------------'----------------'------------'
"""
    assert detect(text) == "pencil"
    puzzle = parse(text)
    assert puzzle.candidates is not None
    assert puzzle.candidates[0] == 0b011000000
    assert puzzle.candidates[2] == 1 << 8 and puzzle.candidates[15] == 1 << 3
    # No peer of r1c3 holds 9: placed. r2c7 is down to 4, but its row still holds a 4.
    assert puzzle.givens[2] == 9 and puzzle.givens[15] == 0 and puzzle.givens[0] == 0
    assert write(puzzle, "pencil").splitlines()[1].split()[1:4] == ["78", "14", "9"]


def test_sukaku_as_groups_apart_by_spaces() -> None:
    puzzle = with_pencil_marks(parse(BOOK_1))
    text = write(puzzle, "sukaku")
    spaced = " ".join(text[i:i + 9] for i in range(0, 729, 9))
    assert detect(spaced) == "sukaku"
    assert parse(spaced) == puzzle


# -- pencil marks stay pencil marks ------------------------------------------------------------

#: The book's first puzzle solved, for pencil grids built around it.
BOOK_1_SOLUTION = ("819754362352196487764328915298543671173269854546871239935487126"
                   "487612593621935748")


def marks_with_one_single(cell: int) -> Puzzle:
    """Two candidates in every cell (the true value and the next), but one in ``cell``."""
    solution = [int(ch) for ch in BOOK_1_SOLUTION]
    masks = [1 << (v - 1) | 1 << (v % 9) for v in solution]
    masks[cell] = 1 << (solution[cell] - 1)
    return Puzzle(classic(9), (0,) * 81, candidates=tuple(masks))


def test_the_book_solution_used_below_solves_the_book_puzzle() -> None:
    assert parse(BOOK_1).fits([int(ch) for ch in BOOK_1_SOLUTION])


@pytest.mark.parametrize("fmt", ["pencil", "sukaku"])
def test_candidate_grids_read_back_to_the_same_text(fmt: str) -> None:
    player = with_pencil_marks(parse(BOOK_1))
    masks = list(player.candidates or ())
    masks[0] = 1 << 7  # the player's own naked single: r1c1 is 8
    masks[1] = 0  # and a cell left without candidates
    for puzzle in (player, Puzzle(player.shape, player.givens, candidates=tuple(masks))):
        text = write(puzzle, fmt)
        back = parse(text, format=fmt)
        assert back == puzzle and back.givens == player.givens
        assert write(back, fmt) == text


@pytest.mark.parametrize("fmt", ["pencil", "sukaku"])
def test_givens_are_written_as_their_one_candidate(fmt: str) -> None:
    puzzle = parse(BOOK_1)
    assert write(puzzle, fmt) == write(with_pencil_marks(puzzle), fmt)
    first = write(puzzle, fmt).splitlines()[1 if fmt == "pencil" else 0]
    # r1c3 holds the given 9
    assert (first.split()[3] if fmt == "pencil" else first[18:27]) == \
        ("9" if fmt == "pencil" else "........9")


def test_a_single_candidate_is_an_unsolved_cell_for_the_board_and_a_hint() -> None:
    target = 40  # r5c5
    text = write(marks_with_one_single(target), "pencil")
    puzzle = parse(text)
    assert puzzle.givens[target] == 0
    board = Board.from_puzzle(puzzle)
    assert board.values[target] == 0 and board.candidates[target] == 1 << 5  # only 6
    step = next_step(board, puzzle.shape)
    assert step is not None and step.technique == "Naked Single"
    assert step.placements == ((target, 6),)


def test_a_hodoku_grid_reads_its_givens_as_placed_and_hints_on_the_rest() -> None:
    book = parse(BOOK_1)
    puzzle = parse(write(book, "pencil"))
    # r1c3 was given 9: no peer holds 9 any more, so it reads as placed
    assert puzzle.givens == book.givens
    step = next_step(Board.from_puzzle(puzzle), puzzle.shape)
    assert step == next_step(Board.from_puzzle(book), book.shape)
    assert step is not None and all(not book.givens[c] for c, _ in step.placements)


def test_a_lone_candidate_that_a_peer_still_holds_is_not_placed() -> None:
    book = parse(BOOK_1)
    masks = candidate_masks(book)
    # r1c1 may be 7 or 8; the player crosses out 7 but not the 8s around it
    assert masks[0] == 0b011000000
    masks[0] = 1 << 7
    text = write(Puzzle(book.shape, book.givens, candidates=tuple(masks)), "pencil")
    puzzle = parse(text)
    assert puzzle.givens[0] == 0 and puzzle.givens == book.givens
    step = next_step(Board.from_puzzle(puzzle), puzzle.shape)
    assert step is not None and step.placements == ((0, 8),)


@pytest.mark.parametrize("backend", engine.available_backends())
@pytest.mark.parametrize("fmt", ["pencil", "sukaku"])
def test_the_engine_solves_a_candidate_grid_without_givens(fmt: str, backend: str) -> None:
    solution = tuple(int(ch) for ch in BOOK_1_SOLUTION)
    single = parse(write(marks_with_one_single(40), fmt))
    assert not any(single.givens)
    for puzzle in (parse(write(parse(BOOK_1), fmt)), single):
        result = engine.solve(puzzle, backend=backend)
        assert result.status is engine.Status.UNIQUE and result.solution == solution
    # a wrong lone candidate is no solution, not a crash
    masks = list(with_pencil_marks(parse(BOOK_1)).candidates or ())
    masks[0] = 1 << 6  # r1c1 is 8 in the solution, not 7
    wrong = Puzzle(classic(9), (0,) * 81, candidates=tuple(masks))
    assert engine.solve(wrong, backend=backend).status is engine.Status.NONE


#: The formats of Sudoku grids without sums (kakuro, janko and killer hold puzzles with sums).
SUDOKU_FORMATS = [f for f in FORMAT_NAMES if f not in SUM_FORMATS]
VALUE_FORMATS = [f for f in SUDOKU_FORMATS if f not in ("pencil", "sukaku", "json", "samurai")]


@pytest.mark.parametrize("fmt", VALUE_FORMATS)
def test_formats_without_candidates_write_the_givens_and_never_a_mark(fmt: str) -> None:
    puzzle = parse(write(parse(BOOK_1), "pencil"))
    singles = [c for c, m in enumerate(puzzle.candidates or ())
               if not puzzle.givens[c] and m and not m & (m - 1)]
    assert singles  # the grid has one-candidate cells that are not placed
    back = parse(write(puzzle, fmt), format=fmt, shape=puzzle.shape)
    assert back.givens == parse(BOOK_1).givens and back.candidates is None
    assert all(not back.givens[c] for c in singles)


def test_formats_without_candidates_on_a_samurai() -> None:
    shape = samurai()
    puzzle = with_pencil_marks(sample(shape))
    for fmt in ("samurai", "samurai-grid", "line"):
        assert parse(write(puzzle, fmt), format=fmt, shape=shape).givens == puzzle.givens


def test_json_keeps_candidates_and_empty_givens_apart() -> None:
    puzzle = parse(write(marks_with_one_single(40), "pencil"))
    text = write(puzzle, "json")
    assert '"givens":"' + "." * 81 + '"' in text
    assert parse(text) == puzzle


def test_sdk_with_metadata_and_a_state_section() -> None:
    rows = [BOOK_1[i:i + 9] for i in range(0, 81, 9)]
    text = "\n".join(["#AAnne Author", "#DA book puzzle", *rows])
    assert detect(text) == "sdk"
    assert parse(text) == parse(BOOK_1)
    sections = "\n".join(["[Puzzle]", *rows, "[State]", *["." * 9] * 9])
    assert parse(sections) == parse(BOOK_1)


def test_samurai_needs_the_samurai_shape_or_its_canvas() -> None:
    puzzle = sample(samurai())
    five = write(puzzle, "samurai")
    assert detect(five) == "line"
    assert detect(five, samurai()) == "samurai"
    assert parse(five, shape="samurai") == puzzle
    with pytest.raises(FormatError, match="five lines of 81 are a Samurai only with shape="):
        parse(five)
    canvas = write(puzzle, "samurai-grid")
    assert detect(canvas) == "samurai-grid"
    assert parse(canvas) == puzzle
    assert parse(canvas.replace(" ", "#")) == puzzle


def test_jigsaw_from_the_command_line_shape_name() -> None:
    puzzle = sample(JIGSAW_9)
    text = write(puzzle, "jigsaw")
    assert parse(text, shape="jigsaw") == puzzle
    crossed = parse(text, shape="diagonal")
    assert crossed.shape == diagonal(JIGSAW_9)
    region_map = text.split("\n", 10)[10]
    one_line = "\n".join([puzzle.to_line(), "Regions:", region_map])
    assert parse(one_line) == puzzle


def test_json_pretty_printed_over_several_lines() -> None:
    text = '{\n  "shape": {"kind": "classic", "size": 9},\n  "givens": "' + BOOK_1 + '"\n}'
    assert parse(text) == parse(BOOK_1)
    assert parse(f'{{"shape": "diagonal", "givens": "{BOOK_1}"}}').shape == diagonal()
    assert parse(f'{{"givens": "{BOOK_1}", "id": 7}}') == parse(BOOK_1)


def test_clashing_givens_are_not_a_format_error() -> None:
    puzzle = parse("11" + "." * 79)
    assert puzzle.clashes()


# -- detection ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    (BOOK_1, "line"),
    (BOOK_1.replace(".", "0"), "sdo"),
    ("# a comment\n\n" + BOOK_2, "line"),
    ("1.3." * 4, "line"),
    ("1" * 729, "sukaku"),
    ('{"givens": "..."}', "json"),
    ("[Puzzle]\n" + "\n".join([BOOK_1[i:i + 9] for i in range(0, 81, 9)]), "sdk"),
    ("\n".join(BOOK_1[i:i + 9] for i in range(0, 81, 9)), "grid"),
    ("..9\nregions:\n111", "jigsaw"),
    ("12 34 1 2\n3 4 12 34\n1 2 3 4\n1 2 3 4", "pencil"),
])
def test_detect(text: str, expected: str) -> None:
    assert detect(text) == expected


def test_a_small_sukaku_is_written_so_that_it_reads_back() -> None:
    puzzle = with_pencil_marks(sample(classic(4)))
    text = write(puzzle, "sukaku")
    # 64 characters in a row would be an 8x8 puzzle line too: the cells are set apart
    assert len(text.split()) == 16 and detect(text) == "sukaku"
    assert parse(text) == puzzle
    packed = text.replace(" ", "")
    assert detect(packed) == "line"  # as a one-line 8x8 when the shape is not given
    assert detect(packed, classic(4)) == "sukaku"


def test_sixteen_rows_of_sixteen_are_a_grid_unless_only_four_symbols() -> None:
    big = write(sample(classic(16)), "sdk").split("\n", 1)[1]
    assert detect(big) == "grid"
    small = "\n".join(["1.3." * 4] * 16)
    assert detect(small) == "line"


# -- errors ---------------------------------------------------------------------------------


def error_of(text: str, **options: object) -> str:
    with pytest.raises(FormatError) as caught:
        parse(text, **options)  # type: ignore[arg-type]
    return str(caught.value)


def test_error_too_short_line() -> None:
    assert error_of(BOOK_1[:-1], source="puzzles.txt") == \
        "puzzles.txt, line 1: 80 characters, a 9x9 puzzle needs 81"


def test_error_foreign_symbol_in_a_stream() -> None:
    lines = [BOOK_1, "# a comment", BOOK_2[:11] + "x" + BOOK_2[12:]]
    records = list(read_records(lines, source="puzzles.txt"))
    assert [r.line for r in records] == [1, 3]
    assert records[0].puzzle == parse(BOOK_1) and records[0].error is None
    assert records[1].puzzle is None
    assert str(records[1].error) == \
        "puzzles.txt, line 3, column 12: 'x' is not a symbol of the alphabet 1-9"
    assert (records[1].error.line, records[1].error.column) == (3, 12)


@pytest.mark.parametrize(("text", "message"), [
    (BOOK_1 + " 3.4", "line 1, column 83: unexpected text after the 81 cells of the puzzle"),
    (BOOK_1[:40] + " " + BOOK_1[40:], "line 1, column 41: whitespace inside the puzzle"),
    ("1" * 369, "line 1: 369 characters, as many as the cells of a Samurai"),
    ("", "no puzzle here"),
    ("# only a comment", "no puzzle here"),
    (BOOK_1 + "\n" + BOOK_2, "line 2: a second puzzle starts here"),
    ("{\"givens\": 5}", "line 1: 'givens' must be a string"),
    ('{"givens": "1..",}', "line 1, column 18: not valid JSON: Expecting property name"),
    ('{"givens": "' + BOOK_1 + '", "shape": {"kind": "torus"}}', "shape: unknown kind 'torus'"),
    ('{"givens": "' + BOOK_1 + '", "alphabet": "12345678"}',
     "the alphabet 1-8 has 8 symbols, a 9x9 puzzle needs 9"),
])
def test_error_messages(text: str, message: str) -> None:
    assert message in error_of(text)


def test_error_grid_rows() -> None:
    rows = [BOOK_1[i:i + 9] for i in range(0, 81, 9)]
    short = rows[:2] + [rows[2][:8]] + rows[3:]
    assert error_of("\n".join(short), format="grid") == \
        "<text>, line 3: 8 cells, a row of a 9x9 grid needs 9"
    long = rows[:2] + [rows[2] + "1"] + rows[3:]
    assert error_of("\n".join(long), format="grid") == \
        "<text>, line 3, column 10: more than 9 cells; a row of a 9x9 grid has 9"
    assert error_of("\n".join(rows[:8]), format="grid") == \
        "<text>, line 8: 8 rows, a 9x9 grid needs 9"
    assert error_of("\n".join(rows[:2] + ["3x2|19.|.87"] + rows[3:]), format="grid") == \
        "<text>, line 3, column 2: 'x' is not a symbol of the alphabet 1-9"


def test_error_samurai_lines_that_disagree() -> None:
    lines = write(sample(samurai()), "samurai").splitlines()
    centre = list(lines[2])
    centre[0] = "9" if centre[0] != "9" else "8"
    lines[2] = "".join(centre)
    message = error_of("\n".join(lines), shape="samurai", source="s.txt")
    assert message.startswith("s.txt, line 3, column 1: cell r7c7, shared by two grids, is ")
    assert message.endswith("on line 1")


def test_error_samurai_canvas() -> None:
    canvas = write(sample(samurai()), "samurai-grid").splitlines()
    canvas[0] = canvas[0][:9] + "x" + canvas[0][10:]
    assert error_of("\n".join(canvas)) == \
        "<text>, line 1, column 10: 'x' outside the grids; write a space there"


def test_error_jigsaw_regions() -> None:
    text = "\n".join(["." * 25, "regions:", "AAAAB", "CCABB", "CCDBB", "CDDEE", "DDEEB"])
    assert error_of(text) == \
        "<text>, line 3, column 5: region 'B' has 6 cells; a 5x5 jigsaw needs 5 regions of 5 cells"
    assert "no line 'regions:'" in error_of("." * 25, format="jigsaw")


def test_error_sukaku_position() -> None:
    text = "1" * 729
    assert error_of(text) == \
        "<text>, line 1, column 2: '1' in position 2 of a cell; it holds '2' or '.'"


def test_error_pencil_symbol() -> None:
    text = "12 34 1 2\n3 4 12 3z\n1 2 3 4\n1 2 3 4"
    assert error_of(text) == "<text>, line 2, column 9: 'z' is not a symbol of the alphabet 1-4"


def test_errors_of_the_caller() -> None:
    with pytest.raises(FormatError, match="unknown format 'gif'"):
        parse(BOOK_1, format="gif")
    with pytest.raises(NumberplaceError):
        parse(BOOK_1, shape="torus")
    with pytest.raises(FormatError, match="the samurai format holds several grids"):
        write(parse(BOOK_1), "samurai")
    with pytest.raises(FormatError, match="0 is a symbol"):
        write(sample(classic(16), HEX), "sdo")


# -- streams --------------------------------------------------------------------------------


def test_reading_is_lazy() -> None:
    consumed = 0

    def lines() -> Iterator[str]:
        nonlocal consumed
        for i in range(200_000):
            consumed += 1
            yield (BOOK_1 if i % 2 else BOOK_2) + "\n"

    records = read_records(lines())
    first = next(records)
    assert first.puzzle == parse(BOOK_2) and first.line == 1
    assert consumed < 1000
    assert sum(1 for _ in itertools.islice(records, 9_999)) == 9_999
    assert consumed < 11_000


def test_block_records_keep_going_after_a_bad_one() -> None:
    good = write(parse(BOOK_1), "grid")
    bad = good.replace("3 . 2", "3 ? 2")
    text = "\n\n".join([good, bad, "# just a note", good])
    records = list(read_records(text.splitlines(keepends=True), source="grids.txt"))
    assert [r.line for r in records] == [1, 13, 27]
    assert [r.format for r in records] == ["grid"] * 3
    assert records[1].error is not None
    assert str(records[1].error) == \
        "grids.txt, line 14, column 3: '?' is not a symbol of the alphabet 1-9"
    assert records[2].puzzle == parse(BOOK_1)


def test_samurai_records_come_in_fives() -> None:
    one = write(sample(samurai(), seed=1), "samurai")
    two = write(sample(samurai(), seed=2), "samurai")
    lines = [*one.splitlines(), *two.splitlines(), "", *one.splitlines()[:3]]
    records = list(read_records(lines, shape="samurai"))
    assert [r.line for r in records] == [1, 6, 12]
    assert records[0].puzzle == sample(samurai(), seed=1)
    assert records[1].puzzle == sample(samurai(), seed=2)
    assert records[2].error is not None and "3 lines at the end" in str(records[2].error)


def test_a_long_block_without_blank_lines_is_reported_not_held() -> None:
    lines = ["1 2 3 4"] * 1000 + ["", write(sample(classic(4)), "grid")]
    records = list(read_records(lines, format="grid"))
    assert records[0].error is not None and "without a blank line" in str(records[0].error)
    assert records[-1].puzzle == sample(classic(4))


def test_read_file(tmp_path: object) -> None:
    path = tmp_path / "puzzles.txt"  # type: ignore[operator]
    path.write_bytes(b"\xef\xbb\xbf" + BOOK_1.encode() + b"\r\n" + b"\xff" * 81 + b"\r\n")
    records = list(read_file(path))
    assert records[0].puzzle == parse(BOOK_1)
    assert str(records[1].error) == \
        f"{path}, line 2, column 1: '\ufffd' is not a symbol of the alphabet 1-9"
    missing = tmp_path / "missing.txt"  # type: ignore[operator]
    with pytest.raises(FormatError, match="^" + re.escape(f"cannot read {missing}: No such")):
        list(read_file(missing))


def test_a_damaged_first_line_does_not_hide_a_stream_of_lines() -> None:
    records = list(read_records(["hello", BOOK_1, BOOK_2]))
    assert [r.format for r in records] == ["line"] * 3
    assert records[0].error is not None and records[2].puzzle == parse(BOOK_2)


def test_read_file_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(f"{BOOK_1}\n{BOOK_2}\n".encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    records = list(read_file("-"))
    assert [r.puzzle for r in records] == [parse(BOOK_1), parse(BOOK_2)]
    assert not stdin.closed


def test_records_are_plain_data() -> None:
    record = next(read_records([BOOK_1]))
    assert record == Record(1, BOOK_1, "line", parse(BOOK_1), None)


# -- fuzzing: nothing but FormatError ever escapes -------------------------------------------

FUZZ = settings(max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
SHAPES = st.sampled_from([None, "samurai", "diagonal", "4x4", "16x16", "jigsaw", JIGSAW_5])
FORMATS = st.sampled_from((None, *FORMAT_NAMES))
PUZZLE_LIKE = st.text(alphabet="123456789.0 |-+_#:\n{}[]\"regions:ABCDG", max_size=400)
DECODED = st.binary(max_size=400).flatmap(
    lambda raw: st.sampled_from([raw.decode("utf-8", errors="replace"),
                                 raw.decode("utf-8", errors="surrogateescape")]))
TEXTS = st.one_of(st.text(), PUZZLE_LIKE, DECODED)


def only_format_errors(call: object, *args: object, **kwargs: object) -> object:
    try:
        return call(*args, **kwargs)  # type: ignore[operator]
    except FormatError:
        return None


@FUZZ
@given(TEXTS, FORMATS, SHAPES)
def test_fuzz_parse(text: str, fmt: str | None, shape: object) -> None:
    puzzle = only_format_errors(parse, text, format=fmt, shape=shape)
    assert puzzle is None or isinstance(puzzle, Puzzle)


@FUZZ
@given(TEXTS, SHAPES)
def test_fuzz_detect(text: str, shape: object) -> None:
    name = only_format_errors(detect, text, shape)
    assert name is None or name in FORMAT_NAMES


@FUZZ
@given(TEXTS, FORMATS, SHAPES)
def test_fuzz_read_records(text: str, fmt: str | None, shape: object) -> None:
    for record in read_records(text.splitlines(keepends=True), format=fmt, shape=shape,
                               source="fuzz.txt"):
        assert (record.puzzle is None) != (record.error is None)
        if record.error is not None:
            assert record.error.source == "fuzz.txt" and record.error.line is not None


@FUZZ
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81), st.sampled_from(SUDOKU_FORMATS))
def test_fuzz_round_trip_of_any_values(values: list[int], fmt: str) -> None:
    puzzle = Puzzle(classic(9), tuple(values))
    if fmt in ("pencil", "sukaku"):
        puzzle = with_pencil_marks(puzzle)
    if fmt == "samurai":
        return
    assert parse(write(puzzle, fmt), format=fmt, shape=puzzle.shape) == puzzle


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "1" * 1_000_000,
    "{" * 100_000,
    "[" * 100_000,
    '{"givens": ' + "1" * 10_000 + "}",
    " ".join(["123456789"] * 100_000),
    "\n".join(["1 2 3 4"] * 50_000),
    ("|" * 100_000 + "\n") * 20,
    "regions:\n" + "A" * 1_000_000,
], ids=["long-line", "braces", "brackets", "long-number", "spaced", "many-rows", "bars",
        "region-line"])
def test_pathological_inputs_fail_fast(text: str) -> None:
    started = time.perf_counter()
    for fmt in (None, *FORMAT_NAMES):
        only_format_errors(parse, text, format=fmt)
    only_format_errors(detect, text)
    for _ in read_records(text.splitlines()):
        pass
    assert time.perf_counter() - started < 10


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(alphabet=".0123456789", min_size=79, max_size=83),
                 st.text(max_size=90)))
def test_fast_9x9_values_agree_with_the_reader(text: str) -> None:
    from numberplace.formats import values9

    values = values9(text)
    if values is not None:
        assert tuple(values) == parse(text, format="line").givens
    else:
        try:
            puzzle = parse(text, format="line")
        except NumberplaceError:
            return
        assert puzzle.shape.name != "9x9" or puzzle.alphabet.symbols != "123456789"
