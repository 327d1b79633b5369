"""Kakuro in the puzzlekit form through the command line, ``--shape kakuro`` wherever a
shape is asked, and ``canon``, which has no form for a Kakuro and says so in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from numberplace import formats, solve
from numberplace.cli import main
from numberplace.engine.canon import canonical

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "kakuro.txt")
JANKO = str(ROOT / "examples" / "kakuro-janko.txt")
SMALL = "3 3\n- 4, 10,\n,3 0 0\n,11 0 0"
LARGE = ("7 7\n- 3, 19, 7, 11, 1, 6,\n,32 0 0 0 0 0 0\n- 8,13 0 0 0 3, 5,\n"
         ",10 0 0 8, 4,5 0 0\n- - 11,6 0 0 ,3 0\n- 8,8 0 0 - 7, 1,\n,17 0 0 - ,8 0 0")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def puzzlekit_file(tmp_path: Path) -> Path:
    path = tmp_path / "kakuros.txt"
    path.write_text(SMALL + "\n" + LARGE + "\n")
    return path


def test_solve_reads_the_file_without_being_told_and_writes_solutions_in_its_form(
        puzzlekit_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", str(puzzlekit_file), "--jobs", "1"], capsys)
    assert code == 0, err
    grids = out.strip("\n").split("\n\n")
    assert grids[0] == "3 3\n- 4, 10,\n,3 1 2\n,11 3 8"
    assert grids == [formats.write(p, "puzzlekit", values=solve(p).solution)
                     for p in (formats.parse(SMALL), formats.parse(LARGE))]
    solved = tmp_path / "solved.txt"
    solved.write_text(out)
    code, out, _ = run(["check", str(solved), "--jobs", "1"], capsys)
    assert code == 0 and out.count("solved: the grid is complete and keeps every rule") == 2


def test_convert_to_puzzlekit_and_back(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["convert", EXAMPLE, "--to", "puzzlekit"], capsys)
    assert code == 0, err
    assert out.strip("\n").split("\n\n") == [SMALL, LARGE]
    converted = tmp_path / "converted.txt"
    converted.write_text(out)
    records = list(formats.read_file(str(converted)))
    assert [r.format for r in records] == ["puzzlekit", "puzzlekit"]
    assert [r.puzzle for r in records] == [r.puzzle for r in formats.read_file(EXAMPLE)]
    code, back, _ = run(["convert", str(converted), "--to", "kakuro"], capsys)
    assert code == 0
    assert back == run(["convert", EXAMPLE, "--to", "kakuro"], capsys)[1]
    code, out, _ = run(["convert", JANKO, "--to", "puzzlekit"], capsys)
    assert code == 0
    assert [formats.parse(text) for text in out.strip("\n").split("\n\n")] == \
        [r.puzzle for r in formats.read_file(JANKO)]


@pytest.mark.parametrize("command", [
    ["solve"], ["count"], ["check"], ["convert", "--to", "puzzlekit"], ["rate"], ["explain"],
    ["hint"]])
def test_every_reading_command_takes_the_shape_kakuro(
        command: list[str], puzzlekit_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in (EXAMPLE, JANKO, str(puzzlekit_file)):
        code, plain, _ = run([command[0], path, *command[1:]], capsys)
        code_named, named, err = run([command[0], path, "--shape", "kakuro", *command[1:]],
                                     capsys)
        assert code_named == code == 0, err
        assert named == plain


def test_generate_and_bank_take_the_shape_kakuro(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["generate", "--shape", "kakuro", "--seed", "1", "--format",
                          "puzzlekit", "--jobs", "1"], capsys)
    assert code == 0, err
    made = formats.parse(out)
    assert out.startswith("10 10\n") and made.shape.canvas == (10, 10)
    db = str(tmp_path / "bank.sqlite")
    code, _, err = run(["bank", "add", EXAMPLE, "--db", db, "--shape", "kakuro", "--jobs",
                        "1"], capsys)
    assert code == 0, err
    code, out, err = run(["bank", "query", "--db", db, "--shape", "kakuro"], capsys)
    assert code == 0 and out, err


def test_a_kakuro_size_when_reading_is_one_clear_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", EXAMPLE, "--shape", "kakuro-10x10"], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1
    assert "--shape kakuro-10x10: a Kakuro's clue squares make its shape" in err
    assert "unknown shape" not in err


@pytest.mark.parametrize("extra", [[], ["--key"], ["--json"], ["--shape", "kakuro"]])
def test_canon_on_a_kakuro_says_there_is_no_form_in_one_line(
        extra: list[str], puzzlekit_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, line in ((EXAMPLE, 1), (JANKO, 4), (str(puzzlekit_file), 1)):
        code, out, err = run(["canon", path, "--jobs", "1", *extra], capsys)
        assert code == 2
        assert not out
        assert err == (f"numberplace: error: {path}, line {line}: a Kakuro has no canonical "
                       f"form; canon is for Sudoku shapes\n")
        assert "holds Kakuro grids" not in err


def test_canon_writes_the_sudokus_before_a_kakuro_then_stops(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sudoku = ("..9.5..6.3.219..87.6.3.......85.3..117....."
              "545..8.12.......7.2.48..125.3.2..3.7..")
    mixed = tmp_path / "mixed.json"
    records = [json.dumps({"givens": sudoku}),
               formats.write(formats.parse(SMALL), "json")]
    mixed.write_text("\n".join(records) + "\n")
    code, out, err = run(["canon", str(mixed), "--jobs", "1", "--key"], capsys)
    assert code == 2
    assert out.count("\n") == 1 and out.startswith("9x9:")
    assert err == (f"numberplace: error: {mixed}, line 2: a Kakuro has no canonical form; "
                   f"canon is for Sudoku shapes\n")


def test_the_library_keeps_a_kakuro_as_its_own_form() -> None:
    for record in formats.read_file(EXAMPLE):
        assert record.puzzle is not None
        found = canonical(record.puzzle)
        assert found.puzzle == record.puzzle  # still a Kakuro, its clue squares in place
        assert formats.parse(formats.write(found.puzzle, "kakuro")) == record.puzzle
    first = next(formats.read_file(EXAMPLE)).puzzle
    assert first is not None
    # the key the banks hold for it is unchanged
    assert canonical(first).key == "kakuro:0,1=3;0,2=4;1,3=10;2,3=11:...."


def test_bad_puzzlekit_input_is_reported_with_its_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(SMALL.replace(",11 0 0", ",11 0 x") + "\n")
    code, out, err = run(["convert", str(bad), "--to", "kakuro"], capsys)
    assert code == 2 and not out
    assert err == (f"numberplace: {bad}, line 4, column 7: 'x' is not a puzzlekit square "
                   f"(-, 0, a digit, or a clue like 16,23)\n")
    solution = tmp_path / "solution.txt"
    solution.write_text("3 3\n- - -\n- 1 2\n- 3 8\n")
    code, out, err = run(["solve", str(solution), "--format", "puzzlekit", "--jobs", "1"],
                         capsys)
    assert code == 2
    assert "line 1: a puzzlekit solution grid, without its clue squares" in err
    assert err.count("\n") == 1
