"""The command line: exit statuses, output shapes, bad input, parallel runs in order."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numberplace import formats
from numberplace.cli import main

from conftest import BOOK_PUZZLES, data_lines

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("\n".join(BOOK_PUZZLES) + "\n" + "." * 81 + "\n")
    code, out, _ = run(["solve", str(f), "--json", "--jobs", "1"], capsys)
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["status"] for o in objs] == ["unique", "unique", "multiple"]
    for key in ("puzzle", "status", "solution", "count", "nodes", "guesses", "seconds"):
        assert key in objs[0]
    assert objs[0]["puzzle"] == BOOK_PUZZLES[0]
    assert objs[2]["count"] == 2


def test_all_prints_every_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("." * 16 + "\n")
    code, out, _ = run(["solve", str(f), "--all", "--limit", "5"], capsys)
    assert code == 0
    sols = out.split()
    assert len(sols) == 5 and len(set(sols)) == 5


def test_missing_file_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", "no/such/file.txt"], capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("numberplace: error: cannot read no/such/file.txt")
    assert len(err.strip().splitlines()) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--limit", "0"])
    assert exc.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err
    code, _, err = run(["solve", "--shape", "huge", "examples/classic.txt"], capsys)
    assert code == 2 and "unknown shape 'huge'" in err


def test_check_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n")
    assert run(["check", str(f)], capsys)[0] == 0
    f.write_text("." * 81 + "\n")
    code, out, _ = run(["check", str(f)], capsys)
    assert code == 1 and "not unique" in out


def test_parallel_run_keeps_input_order(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    lines = data_lines("top95.txt") * 60  # more than two chunks of work
    f = tmp_path / "many.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, _ = run(["count", str(f), "--jobs", "2", "--json"], capsys)
    assert code == 0
    objs = [json.loads(x) for x in out.splitlines()]
    assert [o["line"] for o in objs] == list(range(1, len(lines) + 1))
    assert [o["puzzle"] for o in objs] == lines
    assert {o["status"] for o in objs} == {"unique"}


def test_stdin_and_module_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "numberplace", "solve", "-"],
                          input=BOOK_PUZZLES[1] + "\n", capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert proc.returncode == 0
    assert len(proc.stdout.strip()) == 81 and "." not in proc.stdout


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.text(max_size=400), st.binary(max_size=400).map(
    lambda b: b.decode("utf-8", "replace"))),
       command=st.sampled_from(["solve", "count", "check", "convert", "explain", "hint"]),
       shape=st.sampled_from([None, "samurai", "6x6", "diagonal", "jigsaw", "16x16"]))
def test_no_input_gives_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    data: str, command: str, shape: str | None) -> None:
    f = tmp_path / "fuzz.txt"
    f.write_text(data, encoding="utf-8", errors="surrogateescape")
    args = [command, str(f)] + (["--to", "json"] if command == "convert" else [] if command in (
        "explain", "hint") else ["--jobs", "1", "--node-limit", "20000"])
    if shape:
        args += ["--shape", shape]
    code = main(args)
    err = capsys.readouterr().err
    assert code in (0, 1, 2)
    assert "Traceback" not in err


def test_bench_prints_a_row_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "few.txt"
    f.write_text("\n".join(BOOK_PUZZLES) + "\n" + "." * 81 + "\n")
    code, out, _ = run(["bench", str(f)], capsys)
    assert code == 0
    row = next(line for line in out.splitlines() if "few.txt" in line)
    cells = [c.strip() for c in row.strip("│┃ ").split("│")]
    # file, puzzles, puzzles/s, median, worst, guesses/puzzle, unique, multiple, none
    assert cells[0] == "few.txt" and cells[1] == "3"
    assert cells[6:] == ["2", "1", "0"]
    for header in ("puzzles/s", "median ms", "worst ms", "guesses/puzzle"):
        assert header in out


def test_convert_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("\n".join(BOOK_PUZZLES) + "\n")
    code, grids, _ = run(["convert", str(f), "--to", "grid"], capsys)
    assert code == 0
    g = tmp_path / "grids.txt"
    g.write_text(grids)
    code, lines, _ = run(["convert", str(g), "--to", "line"], capsys)
    assert code == 0 and lines.split() == list(BOOK_PUZZLES)


def test_json_output_carries_plain_lines_for_any_input(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    code, out, _ = run(["solve", "examples/samurai.txt", "--shape", "samurai", "--json"],
                       capsys)
    assert code == 0
    obj = json.loads(out)
    assert obj["status"] == "unique"
    assert len(obj["puzzle"]) == len(obj["solution"]) == 369
    assert "." not in obj["solution"]


def test_explain_json_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[1] + "\n" + "." * 81 + "\n" + "55" + "." * 79 + "\n")
    code, out, _ = run(["explain", str(f), "--json"], capsys)
    assert code == 0
    solved, many, clash = (json.loads(x) for x in out.splitlines())
    assert solved["status"] == "solved" and solved["puzzle"] == BOOK_PUZZLES[1]
    first = solved["steps"][0]
    assert set(first) >= {"technique", "placements", "eliminations", "depth", "text"}
    assert first["depth"] == 0
    cell, value = first["placements"][0]
    assert cell.startswith("r") and "c" in cell and isinstance(value, int)
    assert many["status"] == "multiple"
    assert clash["status"] == "invalid" and "r1c1 and r1c2" in clash["message"]


def test_book_figure_1_7_is_solved_by_crme_alone(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[1] + "\n")
    code, out, _ = run(["explain", str(f), "--techniques", "book", "--notation", "book"],
                       capsys)
    assert code == 0
    head, *steps = out.splitlines()
    assert head.startswith("line 1: solved,") and "(Naked Single " in head
    # the book's activity log wording, cells as (column,row)
    assert all(re.fullmatch(r"  \d+\. Value \d in \(\d,\d\) by CRME", step) for step in steps)


def test_explain_and_hint_write_values_with_the_puzzle_symbols(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Wordoku is explained in its letters, not in the numbers behind them."""
    letters = "WORDPLAYS"
    f = tmp_path / "p.txt"
    f.write_text("".join(letters[int(ch) - 1] if ch != "." else "." for ch in BOOK_PUZZLES[0])
                 + "\n")
    code, out, _ = run(["explain", str(f), "--alphabet", letters], capsys)
    assert code == 0
    steps = out.splitlines()[1:]
    placed = [re.search(r"place (\S+) at r\dc\d", s) for s in steps]
    symbols = {m.group(1) for m in placed if m}
    assert symbols and symbols <= set(letters)
    assert not any(re.search(r"\b[1-9] (from|at) r", s) for s in steps)
    code, out, _ = run(["explain", str(f), "--alphabet", letters, "--techniques", "book",
                        "--notation", "book"], capsys)
    assert re.search(r"Value [A-Z] in \(\d,\d\) by ", out)
    code, out, _ = run(["hint", str(f), "--alphabet", letters], capsys)
    assert code == 0 and re.search(r"place [A-Z] at r\dc\d", out)


def test_explain_stops_at_its_time_limit(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("." * 256 + "\n")  # an empty 16x16: guessing goes on for a long while
    code, out, _ = run(["explain", str(f), "--guess", "--time-limit", "0.2", "--json"],
                       capsys)
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "multiple"
    code, out, _ = run(["explain", str(f), "--guess", "--time-limit", "0.2"], capsys)
    assert "more than one solution; stopped at the time limit of 0.2 s" in out
    puzzle = formats.parse(data_lines("top95.txt", 1)[0])
    from numberplace.logic import solve_path

    result = solve_path(puzzle, guess=True, time_limit=1e-9)
    assert result.status == "stalled" and "time limit" in result.message


def test_explain_and_hint_on_several_processes_keep_the_input_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    lines = data_lines("kaggle_like_10k.txt", 30)
    f.write_text("\n".join(lines[:13] + ["not a puzzle"] + lines[13:]) + "\n")
    for command in (["explain", "--json"], ["hint", "--tier", "2"]):
        one = run([*command, str(f), "--jobs", "1"], capsys)
        two = run([*command, str(f), "--jobs", "2"], capsys)
        assert one == two and one[0] == 2  # the unreadable line is reported, in place
        assert len(one[1].splitlines()) == 31 and "line 14" in one[2]
        assert "line 14" in one[1].splitlines()[13] and "invalid" in one[1].splitlines()[13]
    code, out, _ = run(["explain", "--json", str(f), "--jobs", "2"], capsys)
    records = [json.loads(x) for x in out.splitlines()]
    assert [r["status"] for r in records].count("invalid") == 1 and records[13]["line"] == 14
    assert [r["puzzle"] for r in records if "puzzle" in r] == [
        ln.replace("0", ".") for ln in lines]


def test_rate_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[1] + "\n" + "." * 81 + "\n" + "55" + "." * 79 + "\n")
    code, out, _ = run(["rate", str(f)], capsys)
    assert code == 0
    first, many, clash = out.splitlines()
    assert first.startswith("line 1: Easy (level 1), hardest Hidden Single, 0 guesses; "
                            "difficulty 1.2 (explainer scale, set by Hidden Single); ")
    assert first.endswith("book level Easy")
    assert many == "line 2: multiple" and clash.startswith("line 3: invalid")
    code, out, _ = run(["rate", str(f), "--json"], capsys)
    objs = [json.loads(x) for x in out.splitlines()]
    assert set(objs[0]) >= {"puzzle", "status", "level", "level_number", "difficulty",
                            "book_score", "book_level", "hardest", "explainer_hardest",
                            "guesses"}
    assert objs[0]["level_number"] == 1 and objs[0]["book_level"] == "Easy"
    assert objs[1]["status"] == "multiple" and objs[1]["level"] is None


def test_hint_tiers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n")
    tiers = [run(["hint", str(f), "--tier", str(t)], capsys)[1].strip() for t in (1, 2, 3)]
    assert tiers[0].startswith("line 1: ")
    assert len(tiers[0]) < len(tiers[1]) and "place" in tiers[2]
    assert "cells" in tiers[1]


def test_explain_writes_one_picture_per_step(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import xml.etree.ElementTree as ET

    folder = tmp_path / "pictures"
    code, out, _ = run(["explain", "examples/puzzle.sdo", "--techniques", "book", "--svg",
                        str(folder)], capsys)
    assert code == 0
    steps = [line for line in out.splitlines() if line.startswith("  ")]
    pictures = sorted(folder.iterdir())
    assert len(pictures) == len(steps) > 0
    assert pictures[0].name == "line1-step001.svg"
    assert not list(folder.glob("*.tmp"))
    for picture in pictures:
        ET.parse(picture)


def test_version_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from numberplace import __version__, engine

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"numberplace {__version__} (engine: ")
    assert ("compiled C core" in out) == (engine.backend_name() == "c")
