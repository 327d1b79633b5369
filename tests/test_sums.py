"""The combination table: the book's examples, every set checked against all subsets of the
digits, and the ``kakuro combos`` command."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace.cli import main
from numberplace.engine import sums
from numberplace.errors import NumberplaceError


def test_the_books_examples() -> None:
    assert sums.combinations(3, 2) == [(1, 2)]
    assert sums.combinations(6, 3) == [(1, 2, 3)]
    assert sums.combinations(7, 2) == [(1, 6), (2, 5), (3, 4)]
    assert sums.combinations(45, 9) == [tuple(range(1, 10))]
    assert sums.combinations(18, 2) == []  # 9 + 8 is the most two cells make


@given(total=st.integers(1, 60), cells=st.integers(1, 12), digits=st.integers(1, 12))
def test_every_set_of_distinct_digits_with_the_sum_and_no_other(total: int, cells: int,
                                                                digits: int) -> None:
    if cells > digits:
        with pytest.raises(NumberplaceError, match="cells"):
            sums.combinations(total, cells, digits)
        return
    expected = [c for c in itertools.combinations(range(1, digits + 1), cells)
                if sum(c) == total]
    assert sums.combinations(total, cells, digits) == expected
    union = set().union(*expected) if expected else set()
    common = set.intersection(*map(set, expected)) if expected else set()
    assert set(sums.digits_of(sums.allowed(total, cells, digits))) == union
    assert set(sums.digits_of(sums.required(total, cells, digits))) == common


def test_the_whole_table_holds_every_set_of_digits_once() -> None:
    rows = sums.table()
    assert len(rows) == 129  # every (cells, sum) a run of 1 to 9 cells can make
    seen = [c for _, _, combos in rows for c in combos]
    assert len(seen) == len(set(seen)) == 2 ** 9 - 1
    assert all(combos for _, _, combos in rows)
    assert sums.sum_range(2) == (3, 17) and sums.sum_range(9) == (45, 45)


@pytest.mark.parametrize("bad", [True, 2.0, "7", None])
def test_arguments_that_are_not_whole_numbers_are_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        sums.combinations(bad, 2)  # type: ignore[arg-type]


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kakuro", "combos", "8", "3"]) == 0
    assert capsys.readouterr().out == "8 in 3: {1,2,5} {1,3,4} (always 1; never 6,7,8,9)\n"
    assert main(["kakuro", "combos", "50", "2"]) == 0
    assert "none (2 different digits make 3 to 17)" in capsys.readouterr().out
    assert main(["kakuro", "combos", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 129
    assert records[10] == {"sum": 4, "cells": 2, "combinations": [[1, 3]],
                           "allowed": [1, 3], "required": [1, 3]}
    assert main(["kakuro", "combos", "10", "3", "--digits", "4"]) == 0
    assert capsys.readouterr().out == "10 in 3: none (3 different digits make 6 to 9)\n"


@pytest.mark.parametrize(("args", "message"), [
    (["7"], "give both SUM and CELLS"),
    (["7", "10"], "has 1 to 9 cells, not 10"),
    (["7", "0"], "CELLS"),
    (["x", "2"], "SUM"),
])
def test_bad_requests_are_one_line(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["kakuro", "combos", *args])
    except SystemExit as exc:  # argparse's own errors
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err, err
    assert "Traceback" not in err


@settings(max_examples=300, deadline=None)
@given(masks=st.lists(st.integers(0, 511), min_size=1, max_size=4), total=st.integers(-2, 40))
def test_repeat_support_keeps_exactly_the_digits_some_way_of_making_the_sum_uses(
        masks: list[int], total: int) -> None:
    keep = [0] * len(masks)
    options = [[v for v in range(1, 10) if m >> (v - 1) & 1] for m in masks]
    for digits in itertools.product(*options):
        if sum(digits) == total:
            for i, v in enumerate(digits):
                keep[i] |= 1 << (v - 1)
    assert sums.repeat_support(masks, total) == keep
