"""The killer format: givens (if any), ``cages:``, the cage map and the sums; detection,
round trips of random Killers, labels used again when there are very many cages, and one
clear error for each way a text can be wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuros import random_killer9, some_kakuro
from numberplace import Puzzle, formats, solve
from numberplace.errors import FormatError
from numberplace.model.shape import classic, killer

ROOT = Path(__file__).resolve().parents[2]
SMALL = "cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 B=7 C=7 D=3 E=5 F=5 G=5 H=5"


def test_a_small_killer_is_read_detected_solved_and_written_back() -> None:
    puzzle = formats.parse(SMALL)
    assert formats.detect(SMALL) == "killer"
    assert puzzle.shape.name == "killer-4x4" and len(puzzle.shape.cages) == 8
    assert formats.write(puzzle, "killer") == SMALL
    result = solve(puzzle, limit=10, keep=10)
    assert result.count >= 1 and all(puzzle.fits(s) for s in result.solutions)


def test_givens_come_first_and_come_back() -> None:
    text = "1...\n....\n....\n....\ncages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 B=7"
    puzzle = formats.parse(text)
    assert puzzle.givens[0] == 1
    assert [c.total for c in puzzle.shape.cages] == [3, 7, None, None, None, None, None, None]
    assert formats.parse(formats.write(puzzle, "killer")) == puzzle


def test_the_example_file_is_one_unique_killer() -> None:
    (record,) = formats.read_file(str(ROOT / "examples" / "killer.txt"))
    assert record.error is None and record.format == "killer"
    assert record.puzzle is not None and solve(record.puzzle).status == "unique"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_killers_round_trip(seed: int) -> None:
    puzzle = Puzzle(random_killer9(random.Random(seed)), (0,) * 81)
    text = formats.write(puzzle, "killer")
    assert formats.detect(text) == "killer"
    assert formats.parse(text) == puzzle


def test_very_many_cages_share_labels_and_name_their_sums_by_cell() -> None:
    base = classic(16)
    cages = [((c, c + 1), None) for c in range(0, 256, 2)]
    cages = [(cells, 3 if k % 2 else None) for k, (cells, _) in enumerate(cages)]
    puzzle = Puzzle(killer(base, cages), (0,) * 256)
    text = formats.write(puzzle, "killer")
    assert "r1c3=3" in text
    assert formats.parse(text) == puzzle


@pytest.mark.parametrize(("text", "message"), [
    ("AABB\nCCDD\nEEFF\nGGHH", "no line 'cages:'"),
    ("cages:", "no cage map after 'cages:'"),
    ("cages:\nAABB\nCCD\nEEFF\nGGHH", "has 3 labels, the first has 4"),
    ("cages:\nAABB\nCCDD\nEEFF", "needs 4 rows, not 3"),
    ("cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 Q=4", "a sum for Q, but no cage is labelled Q"),
    ("cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 B:7", "'B:7' is not a sum like A=10"),
    ("cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=3 A=4", "two sums for A"),
    ("cages:\nAABB\nCCDD\nEEFF\nGGHH\nA=30", "make 3 to 7"),
    ("cages:\n....\n....\n....\n....", "the cage map has no cage"),
])
def test_bad_killers_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        formats.parse(text, format="killer")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_cage_whose_cells_do_not_touch_cannot_be_drawn() -> None:
    puzzle = Puzzle(killer(classic(4), [((0, 15), 5)]), (0,) * 16)
    with pytest.raises(FormatError, match="do not touch"):
        formats.write(puzzle, "killer")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="AB.=35 \n", max_size=8), min_size=1, max_size=8))
def test_any_text_after_the_marker_reads_or_fails_with_a_format_error(rows: list[str]) -> None:
    text = "cages:\n" + "\n".join(rows)
    try:
        puzzle = formats.parse(text, format="killer")
    except FormatError as exc:
        assert str(exc)
        return
    assert formats.parse(formats.write(puzzle, "killer")) == puzzle


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_killers_and_kakuros_round_trip_through_json(seed: int) -> None:
    rng = random.Random(seed)
    puzzles = [Puzzle(random_killer9(rng), (0,) * 81)]
    shape = some_kakuro(seed, rng.randint(3, 9), rng.randint(3, 9))
    if shape is not None:  # None: a random layout without runs
        puzzles.append(Puzzle(shape, (0,) * shape.ncells))
    for puzzle in puzzles:
        text = formats.write(puzzle, "json")
        assert formats.detect(text) == "json"
        assert formats.parse(text) == puzzle


@pytest.mark.parametrize(("shape", "message"), [
    ('{"kind": "killer"}', "a killer needs 'cages'"),
    ('{"kind": "killer", "cages": [{"cells": [0, "x"], "sum": 3}]}', "cage 1 must be"),
    ('{"kind": "killer", "cages": [{"cells": [0, 1], "sum": 30}]}', "make 3 to 17"),
    ('{"kind": "killer", "base": {"kind": "killer", "cages": []}, "cages": []}',
     "unknown kind 'killer'"),
    ('{"kind": "kakuro", "rows": 2}', "a kakuro needs 'rows' and 'cols'"),
    ('{"kind": "kakuro", "rows": 2, "cols": 2, "clues": [[5, 5, 1, null]]}',
     "is not a clue [row, col, down, across] of the grid"),
])
def test_bad_json_cages_are_one_clear_error(shape: str, message: str) -> None:
    text = '{"shape": ' + shape + ', "givens": "' + "." * 81 + '"}'
    with pytest.raises(FormatError) as caught:
        formats.parse(text)
    assert message in str(caught.value)


def test_a_cage_whose_digits_may_repeat_is_marked_with_a_star() -> None:
    text = "cages:\nAB..\nAB..\n....\n....\nA=2* B=7"
    puzzle = formats.parse(text, shape="4x4")
    a, b = puzzle.shape.cages
    assert a.repeats and a.total == 2 and not b.repeats
    assert formats.write(puzzle, "killer") == text
    assert formats.parse(formats.write(puzzle, "json")) == puzzle
    with pytest.raises(FormatError, match="is not a sum like A=10, r4c7=12 or B=20"):
        formats.parse("cages:\nAB..\nAB..\n....\n....\nA=2** B=7", shape="4x4")
