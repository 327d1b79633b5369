"""The puzzlekit format: a Kakuro under a ``ROWS COLS`` header, clue squares ``down,across``;
detection that tells it from its neighbours, round trips with the other Kakuro formats,
streams of records, the solution grid refused, and one clear error per bad record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuros import LAYOUTS, some_kakuro
from numberplace import Puzzle, formats, solve
from numberplace.errors import FormatError, ShapeError
from numberplace.generate import generate_sums
from numberplace.model.shape import by_name

ROOT = Path(__file__).resolve().parents[2]
#: The small grid of ``examples/kakuro.txt``, in this format.
SMALL = "3 3\n- 4, 10,\n,3 0 0\n,11 0 0"
#: The larger grid of ``examples/kakuro.txt``, with rows that start with a block.
LARGE = ("7 7\n- 3, 19, 7, 11, 1, 6,\n,32 0 0 0 0 0 0\n- 8,13 0 0 0 3, 5,\n"
         ",10 0 0 8, 4,5 0 0\n- - 11,6 0 0 ,3 0\n- 8,8 0 0 - 7, 1,\n,17 0 0 - ,8 0 0")


def example_puzzles(name: str) -> list[Puzzle]:
    records = list(formats.read_file(str(ROOT / "examples" / name)))
    assert all(r.puzzle is not None for r in records)
    return [r.puzzle for r in records if r.puzzle is not None]


def test_a_record_is_detected_read_and_written_back() -> None:
    assert formats.detect(SMALL) == "puzzlekit"
    puzzle = formats.parse(SMALL)
    assert puzzle == example_puzzles("kakuro.txt")[0]
    assert formats.write(puzzle, "puzzlekit") == SMALL
    solved = formats.write(puzzle, "puzzlekit", values=solve(puzzle).solution)
    assert solved == "3 3\n- 4, 10,\n,3 1 2\n,11 3 8"
    again = formats.parse(solved)  # a written solution reads back, its values as givens
    assert again.shape == puzzle.shape and again.givens == (1, 2, 3, 8)


def test_the_example_grids_go_through_every_kakuro_format_unchanged() -> None:
    small, large = example_puzzles("kakuro.txt")
    assert formats.write(large, "puzzlekit") == LARGE
    assert formats.parse(LARGE) == large
    for puzzle in (small, large, *example_puzzles("kakuro-janko.txt")):
        text = formats.write(puzzle, "puzzlekit")
        back = formats.parse(text)
        assert back == puzzle  # the same cells, runs and sums
        assert formats.parse(formats.write(back, "kakuro")) == puzzle
        assert sorted((c.cells, c.total, c.clue) for c in back.shape.cages) == \
            sorted((c.cells, c.total, c.clue) for c in puzzle.shape.cages)


@settings(max_examples=80, deadline=None)
@given(**LAYOUTS)
def test_any_layout_round_trips_with_its_values(seed: int, rows: int, cols: int) -> None:
    shape = some_kakuro(seed, rows, cols)
    if shape is None:
        return
    rng = random.Random(seed)
    givens = tuple(rng.choice((0, 0, 0, rng.randint(1, 9))) for _ in range(shape.ncells))
    puzzle = Puzzle(shape, givens)
    text = formats.write(puzzle, "puzzlekit")
    assert formats.detect(text) == "puzzlekit"
    assert formats.parse(text) == puzzle
    assert formats.parse(text, shape="kakuro") == puzzle
    assert formats.parse(formats.write(puzzle, "kakuro"), format="kakuro") == puzzle


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_kakuros_round_trip(seed: int) -> None:
    puzzle = generate_sums("kakuro-6x6", level=1, seed=seed).puzzle
    text = formats.write(puzzle, "puzzlekit")
    assert formats.parse(text) == puzzle
    assert [r.puzzle for r in formats.read_records(text.splitlines())] == [puzzle]


def test_a_stream_of_records_with_and_without_blank_lines() -> None:
    text = "\n".join(["# two grids back to back, then one after a blank line", SMALL, LARGE,
                      "", SMALL])
    records = list(formats.read_records(text.splitlines()))
    assert [(r.line, r.format, r.error) for r in records] == [
        (2, "puzzlekit", None), (6, "puzzlekit", None), (15, "puzzlekit", None)]
    assert [r.puzzle for r in records] == [formats.parse(SMALL), formats.parse(LARGE),
                                           formats.parse(SMALL)]


def test_a_bad_record_in_a_stream_spoils_only_itself() -> None:
    text = "\n".join([SMALL, "", "something else", SMALL.replace(",11 0 0", ",11 0 x"),
                      SMALL.replace(",11 0 0", ""), SMALL])
    records = list(formats.read_records(text.splitlines(), source="kakuros.txt"))
    assert [r.puzzle is not None for r in records] == [True, False, False, False, True]
    assert [str(r.error) for r in records[1:4]] == [
        "kakuros.txt, line 6: not a puzzlekit record: a record starts with a header "
        "'ROWS COLS'",
        "kakuros.txt, line 10, column 7: 'x' is not a puzzlekit square (-, 0, a digit, or a "
        "clue like 16,23)",
        "kakuros.txt, line 11: the record ends after 2 of its 3 rows: a header comes where a "
        "row is due"]


@pytest.mark.parametrize(("text", "message"), [
    (SMALL.replace(",3 0", "-,3 0"),
     "line 3, column 1: '-,3' is not a puzzlekit clue: a side without a clue is left empty "
     "(',3')"),
    (SMALL.replace(",11 0 0", ",11 0 x"), "line 4, column 7: 'x' is not a puzzlekit square"),
    (SMALL.replace(",11 0 0", ",11 0 10"), "line 4, column 7: '10' is not a puzzlekit square"),
    (SMALL.replace(",3 0 0", ",3 0 0 0"),
     "line 3, column 8: 4 squares in this row, the header says 3"),
    (SMALL.replace(",3 0 0", ",3 0"), "line 3: 2 squares in this row, the header says 3"),
    (SMALL + "\n,11 0 0", "line 5: a row past the 3 that the header on line 1 announces"),
    (SMALL.rsplit("\n", 1)[0], "line 1: the record ends after 2 of its 3 rows: the text ends"),
    ("101 3\n- 4, 10,", "line 1: a puzzlekit grid has 1 to 100 rows and columns, not 101x3"),
    (SMALL.replace("10,", "-"), "line 1: the down run from r2c3 has no clue"),
    (SMALL.replace("10,", "50,"), "sums to 50"),
])
def test_bad_records_are_one_clear_error(text: str, message: str) -> None:
    for fmt in (None, "puzzlekit"):
        with pytest.raises(FormatError) as caught:
            formats.parse(text, format=fmt)
        assert message in str(caught.value)
        assert "\n" not in str(caught.value)


def test_a_solution_grid_is_refused_for_what_it_is() -> None:
    solution = "3 3\n- - -\n- 1 2\n- 3 8"
    with pytest.raises(FormatError, match="line 1: a puzzlekit solution grid, without its "
                                          "clue squares: no sums to solve by"):
        formats.parse(solution, format="puzzlekit")
    with pytest.raises(FormatError, match="no clue square in this grid"):
        formats.parse("3 3\n- - -\n- 0 0\n- 0 0", format="puzzlekit")


def test_detection_tells_puzzlekit_from_its_neighbours() -> None:
    assert formats.detect(SMALL) == "puzzlekit"
    assert formats.detect("# a comment first\n\n" + LARGE) == "puzzlekit"
    # digits and '-' under the same header are how puzzlekit writes a Sudoku (or a Kakuro's
    # solution): not a Kakuro
    sudoku = "4 4\n1 - - 4\n- - 1 -\n- 1 - -\n4 - - 1"
    assert formats.detect(sudoku) != "puzzlekit"
    neighbours = {
        "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7..":
            "line",
        "009050060302190087060300000008503001170000054500801200000007020480012503020030700":
            "sdo",
        "#   4\\  10\\\n\\3  .   .\n\\11 .   .": "kakuro",
        "kakuro 2 2\n\n0 0\n0 0\n\n3 3\n11 11\n\n4 10\n4 10": "janko",
        "cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 B=7 C=7 D=3 E=5 F=5 G=5 H=5": "killer",
        "12 34 5 6\n7 8 9 1\n2 3 4 5\n6 7 8 9": "pencil",
    }
    for text, name in neighbours.items():
        assert formats.detect(text) == name, text
    for name in ("killer.txt", "kakuro.txt", "kakuro-janko.txt", "classic.txt"):
        text = (ROOT / "examples" / name).read_text()
        assert formats.detect(text) != "puzzlekit"


def test_the_shape_name_kakuro_reads_a_kakuro_of_any_size() -> None:
    for text in (SMALL, LARGE, (ROOT / "examples" / "kakuro.txt").read_text().split("\n\n")[0]):
        assert formats.parse(text, shape="kakuro") == formats.parse(text)
    janko = next(formats.read_file(str(ROOT / "examples" / "kakuro-janko.txt"),
                                   shape="kakuro"))
    assert janko.puzzle is not None and janko.error is None
    with pytest.raises(ShapeError, match="clue squares make its shape, whatever its size"):
        by_name("kakuro-10x10")


def test_the_format_holds_kakuro_only() -> None:
    with pytest.raises(FormatError, match="puzzlekit format holds Kakuro grids, not 9x9"):
        formats.write(Puzzle.from_string("." * 81), "puzzlekit")
    killer = next(formats.read_file(str(ROOT / "examples" / "killer.txt"))).puzzle
    assert killer is not None
    with pytest.raises(FormatError, match="puzzlekit format holds Kakuro grids, not killer"):
        formats.write(killer, "puzzlekit")
    with pytest.raises(FormatError, match="no place for sums"):
        formats.write(formats.parse(SMALL), "line")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["-", "0", "5", "4,", ",3", "10,11", ",", "-,3", "x"]),
                         min_size=1, max_size=5), min_size=1, max_size=6),
       st.integers(1, 5), st.integers(1, 5))
def test_any_text_under_a_header_reads_or_fails_with_a_format_error(
        rows: list[list[str]], height: int, width: int) -> None:
    text = f"{height} {width}\n" + "\n".join(" ".join(row) for row in rows)
    for record in formats.read_records(text.splitlines(), format="puzzlekit"):
        if record.puzzle is None:
            assert record.error is not None and "\n" not in str(record.error)
            assert record.error.line is not None
        else:
            assert formats.parse(formats.write(record.puzzle, "puzzlekit")) == record.puzzle
