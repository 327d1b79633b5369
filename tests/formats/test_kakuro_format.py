r"""The kakuro format: clue squares ``down\across``, blocks, white cells; detection, round
trips, and one clear error for any text that is not a Kakuro grid."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuros import LAYOUTS, some_kakuro
from numberplace import Puzzle, formats, solve
from numberplace.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
SMALL = "#   4\\  10\\\n\\3  .   .\n\\11 .   ."


def test_a_small_grid_is_read_detected_and_written_back() -> None:
    puzzle = formats.parse(SMALL)
    assert formats.detect(SMALL) == "kakuro"
    assert puzzle.shape.name == "kakuro-3x3" and puzzle.shape.ncells == 4
    assert formats.write(puzzle, "kakuro") == SMALL
    solved = formats.write(puzzle, "kakuro", values=solve(puzzle).solution)
    assert solved == "#   4\\  10\\\n\\3  1   2\n\\11 3   8"


def test_the_example_file_reads_with_a_comment_and_rows_starting_with_a_block() -> None:
    records = list(formats.read_file(str(ROOT / "examples" / "kakuro.txt")))
    assert [r.error for r in records] == [None, None]
    assert [r.format for r in records] == ["kakuro", "kakuro"]
    assert [solve(r.puzzle).status for r in records if r.puzzle] == ["unique", "unique"]


def test_other_spellings_of_blocks_and_white_cells() -> None:
    text = "X 4\\ 10\\\n\\3 0 _\n\\11 . 8"
    puzzle = formats.parse(text)
    assert puzzle.givens == (0, 0, 0, 8)
    assert formats.write(puzzle, "kakuro").splitlines()[2].split() == ["\\11", ".", "8"]


@settings(max_examples=80, deadline=None)
@given(**LAYOUTS)
def test_any_layout_round_trips(seed: int, rows: int, cols: int) -> None:
    shape = some_kakuro(seed, rows, cols)
    if shape is None:
        return
    puzzle = Puzzle(shape, (0,) * shape.ncells)
    text = formats.write(puzzle, "kakuro")
    again = formats.parse(text)
    assert again == puzzle
    assert formats.detect(text) == "kakuro"


@pytest.mark.parametrize(("text", "message"), [
    ("#  4\\ 10\\\n\\3 . .\n\\11 . y", "line 3, column 7: 'y' is not a Kakuro square"),
    ("#  4\\ 10\\\n\\3 . .\n\\11 .", "2 squares in this row, 3 in the first"),
    ("#  4\\ 10\\\n#  . .\n\\11 . .", "across run from r2c2 has no clue"),
    ("#  4\\ 10\\ 3\\\n\\3 . . #\n\\11 . . #", "down clue 3 at r1c4 has no white cell below"),
    ("#  4\\ 50\\\n\\3 . .\n\\11 . .", "sums to 50"),
])
def test_bad_grids_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        formats.parse(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["#", ".", "\\", "3\\", "\\4", "12\\9", "7", "x", "\\\\"]),
                         min_size=1, max_size=6), min_size=1, max_size=6))
def test_any_text_of_squares_reads_or_fails_with_a_format_error(rows: list[list[str]]) -> None:
    text = "\n".join(" ".join(row) for row in rows)
    try:
        puzzle = formats.parse(text, format="kakuro")
    except FormatError as exc:
        assert str(exc)
        return
    assert formats.parse(formats.write(puzzle, "kakuro")) == puzzle


def test_formats_without_room_for_sums_refuse_a_kakuro() -> None:
    puzzle = formats.parse(SMALL)
    for name in ("line", "grid", "sdk"):
        with pytest.raises(FormatError, match="no place for sums"):
            formats.write(puzzle, name)
    with pytest.raises(FormatError, match="holds Sudoku grids with cages, not kakuro-3x3"):
        formats.write(puzzle, "killer")
    assert formats.parse(formats.write(puzzle, "json")) == puzzle
    with pytest.raises(FormatError, match="holds Kakuro grids, not 9x9"):
        formats.write(Puzzle.from_string("." * 81), "kakuro")
