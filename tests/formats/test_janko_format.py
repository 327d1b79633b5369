"""The janko format: a Kakuro's layout and its sums per cell, as the janko.at collection is
shared; detection, streams of records, round trips, the solution block, and one clear
error for any text that is not such a record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuros import LAYOUTS, some_kakuro
from numberplace import Puzzle, formats, solve
from numberplace.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
SMALL = "#   4\\  10\\\n\\3  .   .\n\\11 .   ."
JANKO = "kakuro 2 2\n\n0 0\n0 0\n\n3 3\n11 11\n\n4 10\n4 10"


def test_a_small_record_is_detected_read_and_written_back() -> None:
    puzzle = formats.parse(JANKO)
    assert formats.detect(JANKO) == "janko"
    assert puzzle == formats.parse(SMALL)
    assert formats.write(puzzle, "janko") == JANKO
    solved = formats.write(puzzle, "janko", values=solve(puzzle).solution)
    assert solved == JANKO + "\n\n1 2\n3 8"


def test_the_example_file_is_read_as_a_stream_of_records() -> None:
    records = list(formats.read_file(str(ROOT / "examples" / "kakuro-janko.txt")))
    assert [r.error for r in records] == [None, None]
    assert [r.format for r in records] == ["janko", "janko"]
    assert [r.line for r in records] == [4, 30]
    puzzles = [r.puzzle for r in records if r.puzzle]
    assert [solve(p).status for p in puzzles] == ["unique", "unique"]
    # the first record carries its solution: checked, and kept out of the puzzle
    assert not any(puzzles[0].givens)


def test_a_complete_values_block_is_the_solution_and_a_partial_one_the_values() -> None:
    assert formats.parse(JANKO + "\n\n1 2\n3 8").givens == (0, 0, 0, 0)
    assert formats.parse(JANKO + "\n\n1 0\n0 8").givens == (1, 0, 0, 8)
    with pytest.raises(FormatError, match="solution does not fit the down run 4"):
        formats.parse(JANKO + "\n\n2 1\n3 8")


def test_blank_lines_between_blocks_are_optional() -> None:
    packed = "\n".join(line for line in JANKO.splitlines() if line)
    assert formats.parse(packed) == formats.parse(JANKO)


@settings(max_examples=80, deadline=None)
@given(**LAYOUTS)
def test_any_layout_round_trips(seed: int, rows: int, cols: int) -> None:
    shape = some_kakuro(seed, rows, cols)
    if shape is None:
        return
    rng = random.Random(seed)
    # one empty cell at least: a complete values block is read as the solution
    givens = (0,) + tuple(rng.choice((0, 0, 0, rng.randint(1, 9)))
                          for _ in range(shape.ncells - 1))
    puzzle = Puzzle(shape, givens)
    text = formats.write(puzzle, "janko")
    assert formats.detect(text) == "janko"
    again = formats.parse(text)
    assert formats.write(again, "janko") == text
    assert again.givens == givens
    assert sorted(c.total for c in again.shape.cages) == sorted(c.total for c in shape.cages)
    if all(r and c for r, c in shape.coords):  # no white cell on the edge: the same grid
        assert again == puzzle


@pytest.mark.parametrize(("text", "message"), [
    (JANKO.replace("11 11", "11 12"), "line 7, column 4: across sum 12 differs from 11"),
    (JANKO.replace("4 10\n4 10", "4 10\n5 10"), "line 10, column 1: down sum 5 differs"),
    (JANKO.replace("0 0\n0 0", "0 0\n0 10", 1).replace("11 11", "11 4"),
     "line 7, column 4: a block has across sum 4"),
    (JANKO.replace("3 3", "3 x"), "line 6, column 3: 'x' is not a number"),
    (JANKO.replace("3 3", "3 3 3"), "line 6: 3 numbers in this row, the header says 2"),
    (JANKO.rsplit("\n", 1)[0], "the record ends after 5 of its 6 rows"),
    ("kakuro 0 5\n0 0 0 0 0", "1 to 100 rows and columns, not 0x5"),
    (JANKO.replace("3 3", "0 0"), "across run from r2c2 has no clue"),
    (JANKO + "\n\n1 2\n3 12", "line 13, column 3: 12 is not a Kakuro value"),
])
def test_bad_records_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        formats.parse(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_bad_record_in_a_stream_spoils_only_itself() -> None:
    text = "\n\n".join([JANKO, "something else", JANKO.replace("3 3", "3 x"), JANKO])
    records = list(formats.read_records(text.splitlines()))
    assert [r.puzzle is not None for r in records] == [True, False, False, True]
    assert "starts with a header" in str(records[1].error)
    assert "'x' is not a number" in str(records[2].error)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["0", "10", "3", "11", "4", "x", "17"]),
                         min_size=1, max_size=5), min_size=1, max_size=20),
       st.integers(1, 5), st.integers(1, 5))
def test_any_text_under_a_header_reads_or_fails_with_a_format_error(
        rows: list[list[str]], height: int, width: int) -> None:
    text = f"k {height} {width}\n" + "\n".join(" ".join(row) for row in rows)
    try:
        records = list(formats.read_records(text.splitlines(), format="janko"))
    except FormatError as exc:
        assert str(exc)
        return
    for record in records:
        if record.puzzle is None:
            assert record.error is not None and "\n" not in str(record.error)
        else:
            again = formats.parse(formats.write(record.puzzle, "janko"))
            assert again.givens == record.puzzle.givens


def test_the_janko_format_holds_kakuro_only() -> None:
    with pytest.raises(FormatError, match="janko format holds Kakuro grids, not 9x9"):
        formats.write(Puzzle.from_string("." * 81), "janko")
    killer = next(formats.read_file(str(ROOT / "examples" / "killer.txt"))).puzzle
    assert killer is not None
    with pytest.raises(FormatError, match="holds Kakuro grids"):
        formats.write(killer, "janko")
