"""Files of one-line puzzles go through the compiled core as blocks of text
(``engine.solve_lines``): the output must be the general path's, byte for byte.

The general path is what runs when ``solve_lines`` gives no block (no compiled core):
every line read by the format readers, searched one by one and written in Python. Only
the time a search took may differ, so "seconds" and the stats comment's milliseconds
are masked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from numberplace import engine, native
from numberplace.cli import main
from numberplace.model.shape import classic

from conftest import DATA, data_lines

pytestmark = pytest.mark.skipif("c" not in engine.available_backends(),
                                reason="the block path needs the compiled core")

TIMES = re.compile(r'"seconds": [0-9.e+-]+|[0-9.]+ ms')

#: A 9x9 file with every kind of line: unique, several solutions, clashing givens, no
#: solution, complete grids (valid and not), unreadable lines, comments, blanks, CRLF,
#: indentation, 0 for empty, a 4x4 puzzle among the 9x9 ones.
PUZZLES9 = "\n".join([
    "# a comment first",
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7..",
    "",
    "   .34....9.6....8214..1.27...4.9.83.5.56.....87.2.56.4.1...21.8..8579....6.9....34.  ",
    "." * 81,
    "11" + "." * 79,
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.1",
    "0.9050060302190087060300000008503001170000054500801200000007020480012503020030700",
    "485736129619285374723194856346912785971358642258467931597821463832649517164573298",
    "485736129619285374723194856346912785971358642258467931597821463832649517164573299",
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.",
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.x",
    "1...\r",
    "1..." + "." * 12,
    "#",
    "\t..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7..",
    "....1..",
    ":" + "." * 80,  # the characters either side of the digits are not read as values
    "/" + "." * 80,
]) + "\n"

#: Other classic sizes: a 4x4 with two solutions, a 6x6, a 16x16 written with letters (and
#: in lower case), one with a 0 (hexadoku or not: the readers tell).
PUZZLES_OTHER = {
    "4x4": "1...\n....\n..3.\n1..2\n12..34..........\n5...............\n"
           "0..0.2..........\n",  # a digit above the size; 0 for an empty cell
    "6x6": "..4...2.....4.......5...1.........\n.2....5.3.......4.....2.......1.4.\n"
           "..4...2.....4.......5...1...3.....\n",
    "16x16": ("." * 256 + "\n" + "a" + "." * 255 + "\n" + "0" * 256 + "\n"
              + "1" + "." * 254 + "1\n"),
}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def masked(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command's exit status, output with its times masked, and errors."""
    code, out, err = run(args, capsys)
    return code, TIMES.sub("T", out), err


def both(args: list[str], capsys: pytest.CaptureFixture[str],
         monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """The command's outcome through the blocks, then through the general path."""
    fast = masked(args, capsys)
    with monkeypatch.context() as m:
        m.setattr(engine, "solve_lines", lambda *a, **k: None)
        slow = masked(args, capsys)
    return fast, slow


def modes() -> Iterator[list[str]]:
    for command in ("solve", "count", "check"):
        for extra in ([], ["--json"], ["--stats"], ["--limit", "1"], ["--limit", "3", "--json"],
                      ["--node-limit", "3"]):
            yield [command, *extra]


@pytest.mark.parametrize("mode", list(modes()), ids=" ".join)
def test_every_kind_of_line_reads_as_the_general_path(
        mode: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes(PUZZLES9.encode())
    fast, slow = both([*mode, str(path), "--jobs", "1"], capsys, monkeypatch)
    assert fast == slow
    assert fast[1]  # something was written


@pytest.mark.parametrize("name", sorted(PUZZLES_OTHER))
@pytest.mark.parametrize("mode", [["count", "--json"], ["solve"], ["check"]], ids=" ".join)
def test_other_classic_sizes(name: str, mode: list[str], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / f"{name}.txt"
    path.write_text(PUZZLES_OTHER[name])
    fast, slow = both([*mode, str(path), "--jobs", "1"], capsys, monkeypatch)
    assert fast == slow


def test_the_blocks_are_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if the fast path runs at all."""
    calls = []
    real = engine.solve_lines

    def spy(*args: object, **kwargs: object) -> engine.LineBlock | None:
        block = real(*args, **kwargs)  # type: ignore[arg-type]
        calls.append(block)
        return block

    monkeypatch.setattr(engine, "solve_lines", spy)
    path = tmp_path / "mixed.txt"
    path.write_text(PUZZLES9)
    run(["count", str(path), "--jobs", "1"], capsys)
    assert calls and all(block is not None for block in calls)
    assert sum(sum(block.counts.values()) for block in calls if block) == 6


def test_blocks_keep_line_numbers_across_chunks(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Many blocks, threads, a comment and a bad line deep in the file: every record
    keeps its line number and its place."""
    lines = data_lines("17_clue.txt", 9000)
    lines[7000] = "# a comment"
    lines[8000] = lines[8000][:80]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(["count", "--json", str(path), "--jobs", "2"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and "line 8001" in err
    assert [r["line"] for r in records] == [n + 1 for n in range(9000) if n != 7000]
    assert records[7999]["status"] == "invalid"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.txt")) or ["none"])
def test_shared_data_reads_as_the_general_path(name: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file of the shared data, whole, with count --json (solution, count, nodes
    and guesses of every puzzle); solve and check on each file's first 2,000 puzzles."""
    path = DATA / name
    if not path.exists():
        data_lines(name)  # skips with the data's message
    fast, slow = both(["count", "--json", str(path), "--jobs", "1"], capsys, monkeypatch)
    assert fast == slow
    head = tmp_path / name
    head.write_text("\n".join(data_lines(name, 2000)) + "\n")
    for command in ("solve", "check"):
        fast, slow = both([command, str(head), "--jobs", "1"], capsys, monkeypatch)
        assert fast == slow


@given(st.integers(min_value=0, max_value=10**15))
@example(500)
@example(1500)
@example(2500)
@example(7812500)
@example(99999500)
@example(0)
def test_seconds_text_is_json_of_rounded_seconds(ns: int) -> None:
    assert native.core is not None
    assert native.core.seconds_text(ns) == json.dumps(round(ns / 1e9, 6))


@given(st.integers(min_value=0, max_value=10**12).map(lambda k: 1000 * k + 500))
def test_seconds_text_ties(ns: int) -> None:
    assert native.core is not None
    assert native.core.seconds_text(ns) == json.dumps(round(ns / 1e9, 6))


def test_solve_lines_api() -> None:
    block = engine.solve_lines(classic(9), b"# c\n\n" + PUZZLES9.encode().split(b"\n")[1]
                               + b"\n123\n", 3, command="count")
    assert block is not None
    assert block.output == "1 unique\n"
    assert block.counts == {"unique": 1, "multiple": 0, "solved": 0}
    (hole,) = block.holes
    assert (hole.offset, hole.line, hole.text, hole.puzzle) == (len(b"1 unique\n"), 6, "123",
                                                               None)
    with pytest.raises(ValueError, match="command must be one of"):
        engine.solve_lines(classic(9), b"", command="rate")
    assert engine.solve_lines(classic(9), b"", backend="python") is None
    # text is read in place as str too, and must then be ASCII
    assert engine.solve_lines(classic(9), "1" + "." * 80 + "\n").output == "2+ multiple\n"
    with pytest.raises(ValueError, match="ASCII"):
        engine.solve_lines(classic(9), "é\n")
