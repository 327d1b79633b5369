"""Kakuro and Killer made at a level: one solution by both engines, rated at the level
asked, reproducible from the seed; requests no such puzzle can meet refused in a line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from numberplace import engine, formats
from numberplace.cli import main
from numberplace.errors import NumberplaceError
from numberplace.generate import SUM_LEVELS, generate_sums, sums_kind
from numberplace.logic.rating import rate


@pytest.mark.parametrize(("name", "level"), [
    (name, level) for name in ("killer", "kakuro-10x10") for level in (1, 2, 3)])
def test_made_at_the_level_asked_with_one_solution(name: str, level: int) -> None:
    made = generate_sums(name, level=level, seed=11)
    assert made.rating.level_number == level
    assert rate(made.puzzle, book=False).level_number == level
    for backend in engine.available_backends():
        result = engine.solve(made.puzzle, backend=backend)
        assert result.status is engine.Status.UNIQUE and result.solution == made.solution
    again = generate_sums(name, level=level, seed=11)
    assert again.puzzle.shape == made.puzzle.shape and again.solution == made.solution


def test_kinds_by_name() -> None:
    assert str(sums_kind("kakuro")) == "kakuro-10x10"
    assert str(sums_kind("Kakuro-12x20")) == "kakuro-12x20"
    assert str(sums_kind("killer")) == "killer-9x9"
    assert str(sums_kind("killer-6x6")) == "killer-6x6"
    assert sums_kind("9x9") is None
    with pytest.raises(NumberplaceError, match="6x6 to 30x30"):
        sums_kind("kakuro-5x5")
    with pytest.raises(NumberplaceError, match="made at level 1 \\(Easy\\), 2"):
        generate_sums("killer", level=6)
    assert set(SUM_LEVELS) == {"kakuro", "killer"}


def test_the_command_line_makes_them_with_json_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--shape", "kakuro-8x8", "--level", "2", "--seed", "3",
                 "--count", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    grids = [g for g in out.split("\n\n") if g.strip()]
    assert len(grids) == 2
    for grid in grids:
        puzzle = formats.parse(grid)
        assert engine.solve(puzzle).status is engine.Status.UNIQUE
    assert main(["generate", "--shape", "killer", "--level", "Medium", "--seed", "4",
                 "--json", "--jobs", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["level"] == "Medium" and record["seed"] == 4
    puzzle = formats.parse(record["puzzle"])
    solved = formats.parse(record["solution"])
    assert engine.solve(puzzle).solution == solved.givens


@pytest.mark.parametrize(("args", "said"), [
    (["--shape", "killer", "--level", "5"], "made at level 1 (Easy), 2 (Medium), 3"),
    (["--shape", "kakuro-40x40"], "from 6x6 to 30x30 squares"),
    (["--shape", "killer", "--clues", "20-30"], "--clues chooses givens"),
])
def test_what_cannot_be_made_is_refused_in_one_line(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_time_limit_ends_the_search_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--shape", "kakuro-30x30", "--time-limit", "0.2", "--seed", "1",
                 "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "no kakuro-30x30 within the time limit of 0.2 s" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
