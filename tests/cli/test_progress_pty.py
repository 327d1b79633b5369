"""The progress display as a person at a terminal sees it: standard error on a
pseudo-terminal, what is written there collected as it comes. The assertions are on what
the frames say (counts, clocks, the share done), never on how long anything took."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal import run_in_terminal

from numberplace.cli.pipeline import count_records

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
#: A Fiendish puzzle: a tenth of a second or so to rate.
FIENDISH = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."
#: A 16x16 whose rating runs into any time limit of a few seconds.
SLOW = (ROOT / "examples" / "16x16.txt").read_text().strip()
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLOCK = re.compile(r"(\d+:\d\d:\d\d) eta ")
BAR = "\u2501"  # the bar's line


def watch(args: list[str], *, stdin: Path | None = None, stdout: Path | None = None,
          timeout: float = 60.0) -> tuple[int, str]:
    """Run ``numberplace ARGS`` with standard error on a terminal (standard input and
    output from and to files, or nothing); its exit status and all it wrote there."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120", LINES="40", TERM="xterm")
    with open(stdin or os.devnull, "rb") as source, \
            open(stdout or os.devnull, "wb") as target:
        process = subprocess.Popen([sys.executable, "-m", "numberplace", *args], cwd=ROOT,
                                   stdin=source, stdout=target, stderr=slave, env=env)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # the command ended and closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        else:
            process.kill()
            raise TimeoutError(f"numberplace {' '.join(args)} ran past {timeout} s")
        return process.wait(timeout), b"".join(chunks).decode("utf-8", "replace")
    finally:
        os.close(master)


def frames(screen: str) -> list[str]:
    """The lines drawn, each as it last stood: control codes gone, split where the
    cursor went back to the line's start or down."""
    return [part.strip() for part in re.split(r"[\r\n]+", ANSI.sub("", screen)) if part.strip()]


@pytest.fixture
def three(tmp_path: Path) -> Path:
    path = tmp_path / "three.txt"
    path.write_text("\n".join([*BOOK_PUZZLES, FIENDISH]) + "\n")
    return path


@pytest.fixture
def long_last(tmp_path: Path) -> Path:
    """Seven quick puzzles (the rating's first pieces of work: 1, 2 and 4 puzzles), then
    one that runs into the time limit, in a piece of its own."""
    path = tmp_path / "long-last.txt"
    path.write_text((FIENDISH + "\n") * 7 + SLOW + "\n")
    return path


def test_the_clock_moves_while_the_last_puzzle_is_worked_on(long_last: Path) -> None:
    # The whole file is read at once: a display that went by the bytes read stood at
    # its end after the first results, and took the work for done, its clock stopped.
    status, screen = watch(["rate", str(long_last), "--jobs", "1", "--time-limit", "3"])
    assert status == 0
    shown = frames(screen)
    waiting = {m[1] for line in shown if " 7/8 " in line for m in [CLOCK.search(line)] if m}
    assert len(waiting) >= 2, shown
    assert any("100% 8/8" in line and BAR in line for line in shown), shown


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["solve"], ["count"], ["check"], ["explain"], ["hint"], ["rate"], ["canon"],
    ["bank", "add"], ["print"]])
def test_the_count_reaches_the_total(command: list[str], three: Path, tmp_path: Path) -> None:
    extra: list[str] = []
    if command == ["bank", "add"]:
        extra = ["--db", str(tmp_path / "bank.sqlite")]
    elif command == ["print"]:
        pytest.importorskip("reportlab")
        pytest.importorskip("svglib")
        extra = ["--pdf", str(tmp_path / "book.pdf")]
    status, screen = watch([*command, str(three), *extra])
    assert status == 0, screen
    shown = frames(screen)
    label = " ".join(command)
    drawn = [line for line in shown if line.startswith(label + " " + BAR)]
    assert drawn, shown
    assert any(re.search(r" 0/3 \d+:\d\d:\d\d eta -:--:--", line) for line in drawn), drawn
    assert re.search(r" 100% 3/3 \d+:\d\d:\d\d eta 0:00:00", drawn[-1]), drawn


def test_generate_counts_the_puzzles_made() -> None:
    status, screen = watch(["generate", "--count", "3", "--seed", "1", "--level", "1"])
    assert status == 0
    drawn = [line for line in frames(screen) if line.startswith("generate " + BAR)]
    assert drawn and re.search(r" 100% 3/3 ", drawn[-1]), drawn


def test_a_stream_shows_the_bytes_read(long_last: Path) -> None:
    status, screen = watch(["rate", "-", "--jobs", "1", "--time-limit", "2"], stdin=long_last)
    assert status == 0
    shown = frames(screen)
    # its size unknown, the puzzles done and the bytes read; at the end, all done
    read = f"7 puzzles, {long_last.stat().st_size} B read"
    assert any(read in line for line in shown), shown
    assert any("100% 8/8" in line for line in shown), shown


def test_a_large_file_shows_the_bytes_worked_through(long_last: Path) -> None:
    # too large to count its puzzles first: the share is in bytes, read as the work goes
    padding = "# " + "." * 77 + "\n"
    long_last.write_text(long_last.read_text() + padding * 14_000)
    assert long_last.stat().st_size > 1 << 20
    status, screen = watch(["rate", str(long_last), "--jobs", "1", "--time-limit", "2"])
    assert status == 0
    shown = frames(screen)
    assert any(re.search(r" \d+% 7 puzzles, [\d.]+ kB/1\.1 MB \d", line) for line in shown), shown
    assert any("100% 8/8" in line for line in shown), shown


def test_results_and_messages_print_above_the_display(tmp_path: Path) -> None:
    path = tmp_path / "twenty.txt"
    path.write_text((FIENDISH + "\n") * 10 + "12345\n" + (FIENDISH + "\n") * 10)
    session = run_in_terminal(["rate", str(path), "--jobs", "2"], timeout=60)
    assert session.status == 2  # the short line cannot be read
    shown = frames(session.screen)
    results = [line for line in shown if "Fiendish (level 5)" in line]
    assert len(results) == 20
    assert all(line.startswith("line ") for line in results), results
    assert any("100% 21/21" in line for line in shown), shown
    # a line written to standard error as the work goes (bank add's rejections)
    session = run_in_terminal(["bank", "add", str(path), "--db", str(tmp_path / "b.sqlite")])
    assert session.status == 2
    shown = frames(session.screen)
    rejected = [line for line in shown if "not added" in line]
    assert len(rejected) == 1 and rejected[0].startswith("numberplace: "), shown
    assert any("100% 21/21" in line for line in shown), shown


def test_output_to_a_file_is_clean_and_no_progress_draws_nothing(three: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    status, screen = watch(["solve", str(three)], stdout=out)
    assert status == 0
    assert any("100% 3/3" in line for line in frames(screen))
    solved = out.read_text()
    assert len(solved.splitlines()) == 3
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", solved)  # no control codes
    status, screen = watch(["solve", str(three), "--no-progress"], stdout=out)
    assert status == 0 and out.read_text() == solved
    assert "\x1b" not in screen and BAR not in screen
    # the summary alone
    assert [line.split(";")[0] for line in frames(screen)] == [
        "3 puzzles: 3 unique, 0 multiple, 0 none, 0 invalid"]


def test_the_records_are_counted_as_they_will_be_read(tmp_path: Path) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text(f"# a comment\n{FIENDISH}\n\n{BOOK_PUZZLES[0]}\n  \n{BOOK_PUZZLES[1]}\n")
    assert count_records(str(lines)) == 3
    assert count_records(str(lines), after=4) == 1  # an import going on after line 4
    assert count_records(str(ROOT / "examples" / "jigsaw.txt")) == 1
    grids = tmp_path / "grids.txt"
    grids.write_text("\n\n".join("\n".join(p[r * 9:r * 9 + 9] for r in range(9))
                                 for p in BOOK_PUZZLES) + "\n")
    assert count_records(str(grids)) == 2
    samurai = ROOT / "examples" / "samurai.txt"
    assert count_records(str(samurai), shape="samurai") == 1
    assert count_records(str(samurai), fmt="line") == 5
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    assert count_records(str(noise)) is None  # not puzzles: the bytes measure
