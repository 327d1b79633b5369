"""Every limit honoured, every error one line: Ctrl-C at a terminal, time limits that hold
for a whole puzzle, and bad requests and bad output refused without a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal import run_in_terminal

from numberplace import native
from numberplace.cli import main
from pace import within

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
HARD_25 = ROOT / "tests" / "data" / "hard-25x25.txt"
#: A Fiendish puzzle (its rating needs chains): a tenth of a second or so to rate.
FIENDISH = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def numberplace(*args: str, stdin: str | None = None,
                timeout: float = 120) -> tuple[int, str, str, float]:
    """Run the command as a process: exit status, standard output and error, seconds."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "numberplace", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def start_up() -> float:
    """Seconds a process takes to start and end doing nothing (``--version``), measured
    now: a time limit bounds the work, and on a busy machine starting takes longer."""
    return numberplace("--version")[3]


def one_line_error(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


@pytest.fixture
def copies(tmp_path: Path) -> Path:
    path = tmp_path / "fiendish.txt"
    path.write_text((FIENDISH + "\n") * 400)
    return path


@pytest.fixture
def empty_grids(tmp_path: Path) -> Path:
    path = tmp_path / "empty.txt"
    path.write_text(("." * 81 + "\n") * 4)
    return path


# -- Ctrl-C ---------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_long_count(empty_grids: Path, jobs: str) -> None:
    session = run_in_terminal(["count", str(empty_grids), "--limit", "2147483647",
                               "--time-limit", "0", "--jobs", jobs], ctrl_c_after=1.5)
    assert session.status == 130
    assert within(session.seconds, 1.0), session.seconds
    assert "numberplace: interrupted" in session.screen
    assert "Traceback" not in session.screen


@pytest.mark.slow
@pytest.mark.parametrize("command", ["rate", "explain", "hint"])
def test_ctrl_c_keeps_the_results_already_made(command: str, copies: Path,
                                               tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    if command == "hint":  # a hint takes a millisecond: give it more to do
        copies.write_text((FIENDISH + "\n") * 50_000)
    # a rating solves twice (our path, then the Explainer's): a piece of 8 takes about 2 s
    wait = 5.0 if command == "rate" else 2.5
    session = run_in_terminal([command, str(copies), "--jobs", "2"], ctrl_c_after=wait,
                              stdout_path=str(out))
    assert session.status == 130
    assert within(session.seconds, 1.0), session.seconds
    assert "Traceback" not in session.screen
    written = out.read_text()
    records = re.split(r"^(?=line \d+: )", written, flags=re.M)[1:]
    # what was written is the start of the whole answer, in input order, each complete
    assert records and written.endswith("\n")
    one = tmp_path / "one.txt"
    one.write_text(FIENDISH + "\n")
    _, alone, _, _ = numberplace(command, str(one))
    for number, record in enumerate(records, start=1):
        assert record == alone.replace("line 1: ", f"line {number}: ", 1)


def test_ctrl_c_stops_generation_and_keeps_the_puzzles_made(tmp_path: Path) -> None:
    out = tmp_path / "made.txt"
    session = run_in_terminal(["generate", "--level", "5", "--count", "200", "--seed", "1",
                               "--jobs", "2"], ctrl_c_after=3, stdout_path=str(out))
    assert session.status == 130
    assert within(session.seconds, 1.0), session.seconds
    lines = out.read_text().splitlines()
    assert all(len(line) == 81 for line in lines)


def test_ctrl_c_stops_a_stream_of_solutions(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    out = tmp_path / "solutions.txt"
    session = run_in_terminal(["solve", str(path), "--all", "--limit", "2147483647",
                               "--time-limit", "0"], ctrl_c_after=1.5, stdout_path=str(out))
    assert session.status == 130
    assert within(session.seconds, 1.0), session.seconds
    lines = out.read_text().splitlines()
    assert len(lines) > 1000 and all(len(line) == 81 for line in lines[:-1])


# -- time limits ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["rate", "explain"])
def test_a_time_limit_holds_for_a_hard_25x25(command: str) -> None:
    status, out, err, seconds = numberplace(command, str(HARD_25), "--time-limit", "2")
    assert status == 0, err
    assert within(seconds, 3.0 + start_up()), seconds
    assert "stopped at the time limit of 2 s" in out


@pytest.mark.parametrize("command", ["explain", "hint"])
def test_a_time_limit_holds_on_an_empty_25x25(command: str, tmp_path: Path) -> None:
    """Every technique searches an empty 25x25 in vain: about 0.7 s here, so a limit of
    a fifth of a second ends the work first (and on a machine fast enough to finish
    sooner, the answer is that no technique applies)."""
    path = tmp_path / "empty25.txt"
    path.write_text("." * 625 + "\n")
    status, out, err, seconds = numberplace(command, str(path), "--time-limit", "0.2")
    assert status == 0, err
    assert within(seconds, 1.2 + start_up()), seconds
    assert "time limit of 0.2 s" in out or "no technique applies" in out, out


def test_a_count_cut_short_says_limit_and_what_it_found(tmp_path: Path) -> None:
    path = tmp_path / "empty16.txt"
    path.write_text("." * 256 + "\n")
    status, out, _, seconds = numberplace("count", str(path), "--limit", "2147483647",
                                          "--time-limit", "1")
    assert status == 0 and within(seconds, 2.0 + start_up()), seconds
    assert re.fullmatch(r"\d+\+ limit: the search budget ran out\n", out)


def test_solve_has_a_default_time_limit() -> None:
    from numberplace.cli import build_parser

    args = build_parser().parse_args(["solve", "x.txt"])
    assert args.time_limit == 60.0
    assert build_parser().parse_args(["solve", "x.txt", "--time-limit", "0"]).time_limit is None


def test_generation_of_a_large_jigsaw_holds_its_time_limit() -> None:
    status, out, err, seconds = numberplace("generate", "--shape", "jigsaw-16x16", "--seed",
                                            "1", "--time-limit", "3")
    assert within(seconds, 4.0 + start_up()), seconds
    if status:  # no regions (an error, 2) or no puzzle (this seed failed, 1) in time
        assert out == ""
        one_line_error(err)
        assert "time limit of 3 s" in err
        assert status == (2 if "regions with complete grids" in err else 1)


def test_a_seed_that_makes_nothing_in_time_is_reported_and_the_batch_goes_on() -> None:
    status, out, err, seconds = numberplace("generate", "--level", "6", "--time-limit",
                                            "0.3", "--count", "3", "--seed", "3")
    assert status == 1
    assert "Traceback" not in err
    failed = re.findall(r"^numberplace: seed (\d+): no puzzle met the request", err, re.M)
    assert failed and len(failed) + len(out.split()) == 3
    assert within(seconds, 3 * 0.3 + 3 + start_up()), seconds


@pytest.mark.parametrize("request_", [["--clues", "90-95"], ["--clues", "5-10"],
                                      ["--difficulty", "20-30"],
                                      ["--level", "2", "--needs", "X-Wing"]])
def test_requests_no_puzzle_can_meet_are_refused_at_once(request_: list[str]) -> None:
    status, out, err, seconds = numberplace("generate", *request_)
    assert status == 2 and out == "" and within(seconds, 5), seconds
    one_line_error(err)


# -- bad numbers, bad output, bad input -----------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count", "check", "bench"])
def test_a_limit_past_the_engine_is_refused(command: str) -> None:
    status, _, err, _ = numberplace(command, "examples/classic.txt", "--limit",
                                    "2147483648")
    assert status == 2 and "is more than 2,147,483,647" in err and "Traceback" not in err


def test_too_many_jobs_are_refused() -> None:
    status, _, err, _ = numberplace("solve", "examples/classic.txt", "--jobs", "1000")
    assert status == 2 and "--jobs: 1000 is more than this machine can use" in err


@pytest.mark.parametrize("args", [["solve", "examples/classic.txt"],
                                  ["rate", "examples/classic.txt"],
                                  ["convert", "examples/classic.txt", "--to", "grid"],
                                  ["generate", "--count", "2"]])
def test_a_full_disk_is_one_error_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "numberplace", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    one_line_error(done.stderr)
    assert "cannot write standard output: No space left on device" in done.stderr


def test_an_output_file_on_a_full_disk_is_one_error_line() -> None:
    status, _, err, _ = numberplace("generate", "--count", "2", "--output", "/dev/full")
    assert status == 2
    one_line_error(err)
    assert "cannot write /dev/full: No space left on device" in err


def test_a_huge_line_is_refused_while_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("1" * 3_000_000 + "\n")
    status, _, err, _ = numberplace("solve", str(path))
    assert status == 2 and "longer than" in err and "Traceback" not in err


def test_check_with_limit_1_says_solvable(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("." * 16 + "\n")
    status, out, _, _ = numberplace("check", str(path), "--limit", "1")
    assert status == 0
    assert out == "line 1: solvable: 0 givens, uniqueness not checked (--limit 1)\n"


def test_count_cut_short_by_nodes_says_limit() -> None:
    status, out, _, _ = numberplace("count", "examples/empty-4x4.txt", "--limit", "1000",
                                    "--node-limit", "100")
    assert (status, out) == (0, "48+ limit: the search budget ran out\n")
    _, out, _, _ = numberplace("count", "examples/empty-4x4.txt", "--limit", "1000",
                               "--node-limit", "100", "--json")
    record = json.loads(out)
    assert (record["status"], record["count"]) == ("limit", 48)


def test_convert_keeps_a_jigsaws_regions_or_refuses() -> None:
    status, out, err, _ = numberplace("convert", "examples/jigsaw.txt", "--to", "line")
    assert status == 2 and out == ""
    assert "cannot hold a jigsaw's regions; use --to jigsaw or --to json" in err
    status, out, _, _ = numberplace("convert", "examples/jigsaw.txt", "--to", "json")
    assert status == 0 and '"regions"' in out


def test_a_bad_line_in_json_lines_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    good = json.dumps({"givens": BOOK_PUZZLES[0]})
    path.write_text(f"{good}\n[1,2,3]\n{good}\n")
    status, out, err, _ = numberplace("solve", str(path))
    lines = out.splitlines()
    assert status == 2
    assert len(lines) == 3 and lines[1].startswith("# line 2: invalid")
    assert lines[0] == lines[2] and json.loads(lines[0])["givens"].isdigit()
    assert len(err.splitlines()) == 1 and "line 2" in err


@pytest.mark.slow
def test_solve_all_streams_in_flat_memory(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    # a parent of its own, so that the peak memory read is this command's alone
    measure = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)\n"
               "print(done.returncode, done.stdout.count(b'\\n'),"
               " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "numberplace",
                           "solve", str(path), "--all", "--limit", "300000", "--time-limit",
                           "0"], capture_output=True, text=True, timeout=300)
    status, lines, peak_kb = (int(x) for x in done.stdout.split())
    assert (status, lines) == (0, 300_000)
    # a kept list of 300,000 solutions took hundreds of MB
    assert peak_kb < 150_000


def test_bench_goes_on_past_a_bad_file() -> None:
    status, out, err, _ = numberplace("bench", "examples/classic.txt", "/no/such/file")
    assert status == 2
    assert "classic.txt" in out
    one_line_error(err)
    assert "cannot read /no/such/file" in err


# -- smaller ones ---------------------------------------------------------------------------


@pytest.mark.slow
def test_results_print_above_the_progress_bar(copies: Path) -> None:
    session = run_in_terminal(["rate", str(copies), "--jobs", "2"], timeout=300)
    assert session.status == 0
    screen = ANSI.sub("", session.screen).replace("\r\n", "\n")
    # a result line never follows the bar's text on the same line
    rows = [row.split("\r")[-1] for row in screen.split("\n")]
    results = [row for row in rows if "line " in row and "Fiendish" in row]
    assert len(results) == 400
    assert all(row.startswith("line ") for row in results)


def test_random_bytes_are_not_a_puzzle_text(tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 4)
    status, out, err, _ = numberplace("solve", str(path))
    assert status == 2
    assert out == "# line 1: invalid: not a puzzle text: it holds bytes that are not text " \
                  "(binary data, or an encoding other than UTF-8 and UTF-16)\n"
    one_line_error(err)


@pytest.mark.parametrize(("args", "message"), [
    (["explain", "examples/classic.txt", "--techniques", ""], "--techniques '': no technique"),
    (["explain", "examples/classic.txt", "--techniques", "Nonsense"],
     "unknown technique 'Nonsense'"),
    (["explain", "examples/classic.txt", "--svg", "examples/classic.txt"],
     "--svg examples/classic.txt: is not a directory"),
    (["solve", "examples/classic.txt", "--shape", "36x36"], "--shape 36x36: size must be"),
    (["solve", "examples/classic.txt", "--alphabet", "AAB"], "--alphabet AAB:"),
])
def test_bad_options_are_named(args: list[str], message: str) -> None:
    status, out, err, _ = numberplace(*args)
    assert status == 2 and out == ""
    one_line_error(err)
    assert message in err


@pytest.mark.parametrize("command", ["solve", "check", "explain", "hint", "rate"])
def test_an_empty_file_is_an_error(command: str, tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# only a comment\n")
    status, out, err, _ = numberplace(command, str(path))
    assert status == 2 and out == ""
    one_line_error(err)
    assert "no puzzles in" in err


def test_a_terminal_on_standard_input_is_told_what_to_do() -> None:
    session = run_in_terminal(["solve"], stdin_text=BOOK_PUZZLES[0] + "\n\x04")
    assert session.status == 0
    assert "reading puzzles from the terminal: type or paste them" in session.screen
    assert "4" in session.screen.split(BOOK_PUZZLES[0])[-1]


def test_counts_are_written_in_the_right_number() -> None:
    _, out, _, _ = numberplace("count", "examples/classic.txt", "--stats")
    assert "# line 2: unique, 1 solution, 1 node, 0 guesses" in out
    _, out, _, _ = numberplace("explain", "examples/nearly-done.txt", "--techniques",
                               "Full House", "--notation", "book")
    assert ", 7 steps" in out


def test_a_stalled_explanation_says_why_and_what_to_do() -> None:
    _, out, _, _ = numberplace("explain", "examples/classic.txt", "--techniques",
                               "Naked Single")
    assert "stalled, 0 steps: no technique applies (--guess goes on by trial and error)" in out


def test_the_differential_benchmark_has_help() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "differential.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage:" in done.stdout


def test_a_missing_compiled_engine_is_said(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(native, "core", None)
    monkeypatch.delenv("NUMBERPLACE_BACKEND", raising=False)
    assert main(["count", str(ROOT / "examples" / "empty-4x4.txt"), "--limit", "300"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "288 multiple\n"
    assert captured.err.startswith("numberplace: warning: the compiled engine is not built")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "the compiled core is not built" in capsys.readouterr().out


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
