"""The commands tell a file's format from its whole first block, as the library does, and
not from the length of its first line: every format numberplace writes, on every classic
size, is read back by the commands without --shape or --format (a pencil-mark grid's
border line, or a 16x16 grid's first row, has a one-line puzzle's length too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from numberplace import formats, solve
from numberplace.cli import main
from numberplace.errors import FormatError
from numberplace.generate import generate
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import classic

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
SIZES = (4, 6, 8, 9, 12, 16, 25)
WRITTEN = ("line", "sdo", "grid", "sdk", "ss", "pencil", "sukaku", "json", "jigsaw")


def puzzle_of(size: int) -> Puzzle:
    if size == 9:
        return formats.parse(BOOK_PUZZLES[0])
    return generate(classic(size), level=1, seed=size, time_limit=30).puzzle


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_every_format_written_is_read_back_by_the_commands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], size: int) -> None:
    puzzle = puzzle_of(size)
    solution = solve(puzzle).solution
    assert solution is not None
    cases = 0
    for fmt in WRITTEN:
        try:
            text = formats.write(puzzle, fmt)
        except FormatError:
            continue  # a format that cannot hold this size (sdo is 9x9 alone)
        path = tmp_path / f"{fmt}.txt"
        path.write_text(text + "\n")
        for command in ("count", "check"):
            code = main([command, str(path), "--no-progress", "--json"])
            out, err = capsys.readouterr()
            assert code == 0, (fmt, command, err)
            assert '"status": "unique"' in out or '"unique"' in out, (fmt, command, out)
        cases += 1
        code = main(["solve", str(path), "--no-progress"])
        out, err = capsys.readouterr()
        assert code == 0, (fmt, err)
        assert formats.parse(out, shape=puzzle.shape if fmt == "line" else None).givens \
            == tuple(solution), fmt
    assert cases >= 6


def test_a_pencil_mark_grid_is_read_by_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["convert", str(ROOT / "examples" / "puzzle.sdo"), "--to", "pencil"])
    path = tmp_path / "pencil.txt"
    path.write_text(capsys.readouterr().out)
    assert len(path.read_text().splitlines()[0]) == 64  # the border: an 8x8 line's length
    for command in (["solve"], ["count"], ["check"], ["rate"], ["hint"], ["explain"]):
        code = main([*command, str(path), "--no-progress"])
        out, err = capsys.readouterr()
        assert code in (0, 1) and "not a symbol" not in err, (command, err)
        assert out, command


@pytest.mark.slow
@pytest.mark.parametrize("size", [16, 25])
def test_a_grid_of_rows_without_spaces_is_read_without_shape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], size: int) -> None:
    puzzle = puzzle_of(size)
    line = formats.write(puzzle, "line")
    for name, rows in (("plain", [line[r * size:(r + 1) * size] for r in range(size)]),
                       ("hexadoku", [line[r * size:(r + 1) * size].replace(".", "0")
                                     for r in range(size)])):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(rows) + "\n")
        for command in ("solve", "count", "check", "canon"):
            code = main([command, str(path), "--no-progress"])
            out, err = capsys.readouterr()
            assert code == 0, (name, command, err)
            assert out.count("\n") >= 1 and "line 2" not in out + err, (name, command)


GRIDS = sorted((ROOT / "tests" / "data" / "grids").glob("*.txt"))


@pytest.mark.parametrize("path", GRIDS, ids=[p.stem for p in GRIDS])
def test_every_published_grid_form_is_read_by_every_command_without_shape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path) -> None:
    size = int(path.name.split("x")[0])
    commands = [["solve"], ["count"], ["check"], ["canon"], ["hint"], ["rate"],
                ["explain", "--time-limit", "60"], ["convert", "--to", "line"],
                ["bank", "add", "--db", str(tmp_path / "bank.sqlite")],
                ["print", "--svg", str(tmp_path / "puzzle.svg")]]
    for command in commands:
        where = 2 if command[0] == "bank" else 1
        argv = [*command[:where], str(path), *command[where:]]
        if command[0] != "convert":
            argv.append("--no-progress")
        code = main(argv)
        out, err = capsys.readouterr()
        if command[0] == "print":  # the picture has the grid's cells and each given
            assert code == 0, err
            drawn = (tmp_path / "puzzle.svg").read_text()
            givens = sum(1 for v in formats.parse(path.read_text()).givens if v)
            assert drawn.count("<rect") > size * size and drawn.count("<text") >= givens, err
            continue
        if command[0] == "bank":  # the bank holds one puzzle of the grid's size
            assert code == 0, err
            assert main(["bank", "query", "--db", str(tmp_path / "bank.sqlite")]) == 0
            out = capsys.readouterr().out
            assert len(out.splitlines()) == 1 and f"\t{size}x{size}\t" in out, out
            assert len(out.split()[-1]) == size * size, out
            continue
        assert code == 0 and out, (command, err)
        assert "line 2" not in err and "# line" not in out, (command, out, err)
        if command[0] in ("solve", "convert", "canon"):
            # one puzzle of the grid's size, solved by solve
            assert formats.parse(out).shape == classic(size), (command, out)
        if command[0] == "solve":
            assert "." not in out, out


def test_pencil_marks_to_line_keep_the_givens_and_add_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = ROOT / "examples" / "puzzle.sdo"
    assert main(["convert", str(source), "--to", "pencil"]) == 0
    pencil = tmp_path / "pencil.txt"
    pencil.write_text(capsys.readouterr().out)
    marks = formats.parse(pencil.read_text())
    singles = [c for c, m in enumerate(marks.candidates or ())
               if not marks.givens[c] and m and not m & (m - 1)]
    assert singles  # r4c8 is down to one candidate, a single not yet taken
    for fmt in ("line", "sdo", "grid", "ss", "sdk"):
        assert main(["convert", str(pencil), "--to", fmt]) == 0
        back = formats.parse(capsys.readouterr().out)
        assert back.givens == formats.parse(source.read_text()).givens, fmt
        assert sum(1 for v in back.givens if v) == 26, fmt
