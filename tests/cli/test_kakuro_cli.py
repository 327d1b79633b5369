"""Kakuro files through the command line: solve, count and check them, solutions written
back in the grid format (each grid ended by a blank line, so the output reads back), JSON
records, explanations and ratings that reason about the sums, and a one-line error where
a format has no place for sums."""

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


def test_convert_to_a_format_without_sums_says_so_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["convert", EXAMPLE, "--to", "line"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "no place for sums" in err and "Traceback" not in err


def test_explain_and_rate_reason_about_the_sums(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", EXAMPLE, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("line 1: solved, 6 steps (Unique Combination 3, Naked Single 3)")
    assert ("Unique Combination: the down run 4 of r1c2 needs 4 in 2 cells, and only {1,3} "
            "adds up to that: remove {2,4,5,6,7,8,9} from r2c2, r3c2") in out
    assert main(["rate", EXAMPLE, "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("line 1: Easy (level 1)") and "0 guesses" in lines[0]
    assert main(["rate", str(ROOT / "examples" / "killer.txt"), "--jobs", "1"]) == 0
    assert "0 guesses" in capsys.readouterr().out


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


def test_a_kakuro_row_of_81_characters_is_not_taken_for_a_sudoku_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the first row starts with a block (like a comment), the next is 81 characters long
    grid = formats.parse((ROOT / "examples" / "kakuro.txt").read_text().split("\n\n")[1])
    rows = formats.write(grid, "kakuro").splitlines()
    tokens = rows[1].split()
    gap = 81 - sum(len(t) for t in tokens) - (len(tokens) - 2)
    rows[1] = tokens[0] + " " * gap + " ".join(tokens[1:])
    text = "\n".join(rows)
    assert len(text.splitlines()[1].strip()) == 81 and text.startswith("#")
    path = tmp_path / "k.txt"
    path.write_text(text + "\n")
    assert main(["count", str(path), "--jobs", "1"]) == 0
    assert capsys.readouterr().out == "1 unique\n"
