"""Kakuro files through the command line: solve, count and check them, solutions written
back in the grid format (each grid ended by a blank line, so the output reads back), JSON
records, and one-line errors where a command cannot work on sums yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from numberplace import formats
from numberplace.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "kakuro.txt")


def test_solve_writes_each_solution_as_a_grid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", EXAMPLE, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    grids = out.strip("\n").split("\n\n")
    assert len(grids) == 2
    assert grids[0] == "#   4\\  10\\\n\\3  1   2\n\\11 3   8"
    for text in grids:  # every white cell filled, every run adding up
        puzzle = formats.parse(text)
        assert all(puzzle.givens)
        for cage in puzzle.shape.cages:
            digits = [puzzle.givens[c] for c in cage.cells]
            assert sum(digits) == cage.total and len(set(digits)) == len(digits)


def test_the_output_of_solve_reads_back(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", EXAMPLE, "--jobs", "1"]) == 0
    solved = tmp_path / "solved.txt"
    solved.write_text(capsys.readouterr().out)
    assert main(["check", str(solved), "--jobs", "1"]) == 0
    assert capsys.readouterr().out.count("solved: the grid is complete and keeps every rule") == 2


def test_count_check_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", EXAMPLE, "--jobs", "1"]) == 0
    assert capsys.readouterr().out == "1 unique\n1 unique\n"
    assert main(["solve", EXAMPLE, "--json", "--jobs", "1"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "unique"]
    assert formats.parse(records[0]["solution"]).givens == (1, 2, 3, 8)
    assert main(["solve", EXAMPLE, "--all", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.count("\n\n") == 2


@pytest.mark.parametrize(("args", "message"), [
    (["explain", EXAMPLE], "does not reason about sums yet"),
    (["rate", EXAMPLE], "does not reason about sums yet"),
    (["convert", EXAMPLE, "--to", "line"], "no place for sums"),
])
def test_what_cannot_work_on_sums_yet_says_so_in_one_line(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main([*args, "--jobs", "1"] if args[0] != "convert" else args)
    err = capsys.readouterr().err
    assert status == 2, err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("grid", "said"), [
    ("#   4\\  10\\\n\\3  1   2\n\\11 3   7", "no solution"),  # 3 + 7 is not 11
    ("#   4\\  10\\\n\\3  1   1\n\\11 .   .", "1 appears twice in across run of r2c1"),
])
def test_check_finds_a_wrong_sum_and_a_repeat(grid: str, said: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.txt"
    path.write_text(grid + "\n")
    assert main(["check", str(path), "--jobs", "1"]) == 1
    assert said in capsys.readouterr().out


def test_a_killer_file_is_solved_and_its_solution_reads_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(ROOT / "examples" / "killer.txt"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    solved = formats.parse(out)
    assert all(solved.givens) and solved.fits(solved.givens)
    path = tmp_path / "solved.txt"
    path.write_text(out)
    assert main(["check", str(path), "--jobs", "1"]) == 0
    assert "solved: the grid is complete" in capsys.readouterr().out
    assert main(["count", str(ROOT / "examples" / "killer.txt"), "--jobs", "1"]) == 0
    assert capsys.readouterr().out == "1 unique\n"
