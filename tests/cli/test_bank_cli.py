"""``numberplace bank``: imports that find duplicates and survive being stopped, queries,
exports and totals."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from numberplace.cli import main

from conftest import BOOK_PUZZLES, data_lines, shuffled_9x9

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def contents(db: Path) -> list[tuple[object, ...]]:
    """Every stored puzzle, every field but the time it was added."""
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id, key, shape, givens, solution, clues, record, level, "
                           "difficulty, source, tags FROM puzzles ORDER BY id").fetchall()


def test_equivalent_puzzles_are_stored_once(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(5)
    lines = data_lines("kaggle_like_10k.txt", 50)
    copies = [shuffled_9x9(line, rng) for line in lines for _ in range(3)]
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines + copies) + "\n")
    db = tmp_path / "bank.sqlite"
    code, out, err = run(["bank", "add", str(f), "--db", str(db), "--json", "--jobs", "1"],
                         capsys)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report == {"source": str(f), "lines": 200, "added": 50, "duplicates": 150,
                      "rejected": 0, "resumed": False}
    # the same again: all duplicates, as a new import
    code, out, _ = run(["bank", "add", str(f), "--db", str(db), "--json", "--jobs", "2"],
                       capsys)
    assert json.loads(out)["duplicates"] == 200
    assert [row[3] for row in contents(db)] == lines  # the first form met is kept


def test_puzzles_without_one_solution_are_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(f"{BOOK_PUZZLES[0]}\n{'.' * 81}\n11{'.' * 79}\n{'1' * 20}\n")
    code, out, err = run(["bank", "add", str(f), "--db", str(tmp_path / "b.sqlite")], capsys)
    assert code == 2  # an unreadable line
    said = err.strip().splitlines()
    assert said == [
        f"numberplace: {f}, line 2: not added: more than one solution",
        f"numberplace: {f}, line 3: not added: givens that clash: 1 appears twice in row 1: "
        f"at r1c1 and r1c2",
        f"numberplace: {f}, line 4: not added: 20 characters, a 9x9 puzzle "
        f"needs 81"]


def test_a_bad_bank_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bank.sqlite"
    bad.write_text("not a database at all\n" * 100)
    code, out, err = run(["bank", "stats", "--db", str(bad)], capsys)
    assert code == 2
    assert err.startswith(f"numberplace: error: cannot open the bank {bad}")
    assert len(err.strip().splitlines()) == 1
    assert bad.read_text().startswith("not a database")  # left as it was


def big_file(tmp_path: Path, count: int) -> Path:
    rng = random.Random(11)
    lines = data_lines("kaggle_like_10k.txt")
    f = tmp_path / "big.txt"
    f.write_text("".join(shuffled_9x9(lines[i % len(lines)], rng) + "\n" for i in range(count)))
    return f


def lines_committed(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            row = con.execute("SELECT lines FROM imports ORDER BY id DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return 0
    return row[0] if row else 0


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_stopped_import_goes_on_and_ends_as_an_uninterrupted_one(
        how: signal.Signals, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = big_file(tmp_path, 60_000)
    whole = tmp_path / "whole.sqlite"
    code, out, _ = run(["bank", "add", str(f), "--db", str(whole), "--json", "--jobs", "1"],
                       capsys)
    assert code == 0
    expected = json.loads(out)

    stopped = tmp_path / "stopped.sqlite"
    command = [sys.executable, "-m", "numberplace", "bank", "add", str(f), "--db",
               str(stopped), "--jobs", "1", "--json"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while lines_committed(stopped) < 10_000 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(process.pid, how)
    _, err = process.communicate(timeout=60)
    assert process.returncode == (-9 if how == signal.SIGKILL else 130), err
    done = lines_committed(stopped)
    assert 10_000 <= done < 60_000  # stopped in the middle, its pieces kept

    code, out, err = run(["bank", "add", str(f), "--db", str(stopped), "--json", "--jobs",
                          "1"], capsys)
    assert code == 0
    assert f"going on with the import of {f} after line {done:,}" in err
    report = json.loads(out)
    assert report["resumed"] is True
    for field in ("lines", "added", "duplicates", "rejected"):
        assert report[field] == expected[field], field
    assert contents(stopped) == contents(whole)


@pytest.fixture
def bank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A bank with rated puzzles of several shapes and tags."""
    db = tmp_path / "bank.sqlite"
    for example, tag, more in (("classic.txt", "book", []), ("jigsaw.txt", "jig", []),
                               ("samurai.txt", "big", ["--shape", "samurai"]),
                               ("killer.txt", "sums", [])):
        code, _, err = run(["bank", "add", str(ROOT / "examples" / example), "--db", str(db),
                            "--rate", "--tag", tag, "--tag", "all", "--jobs", "1", *more],
                           capsys)
        assert code == 0, err
    return db


def test_queries_filter_by_every_field(bank: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def ids(*filters: str) -> list[int]:
        code, out, _ = run(["bank", "query", "--db", str(bank), "--json", *filters], capsys)
        return [json.loads(line)["id"] for line in out.splitlines()] if code == 0 else []

    everything = ids("--limit", "0")
    assert len(everything) == 6
    assert ids("--shape", "9x9") == [1, 2, 3]
    assert ids("--shape", "samurai") == [5]
    assert ids("--tag", "jig") == [4]
    assert ids("--tag", "all") == everything
    assert ids("--tag", "al") == []
    assert ids("--clues", "24-24") == [1, 3]
    assert ids("--level", "1", "--shape", "9x9") == ids("--level", "Easy", "--shape", "9x9")
    code, out, _ = run(["bank", "query", "--db", str(bank), "--json", "--limit", "0"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    hardest = max(records, key=lambda r: r["difficulty"])
    assert ids("--difficulty", f"{hardest['difficulty']}-12") == [
        r["id"] for r in records if r["difficulty"] == hardest["difficulty"]]
    technique = hardest["techniques"][-1]
    assert hardest["id"] in ids("--technique", technique)
    assert len(ids("--random", "--limit", "2")) == 2
    code, out, _ = run(["bank", "query", "--db", str(bank), "--shape", "16x16"], capsys)
    assert (code, out) == (1, "")


def test_export_gives_back_each_puzzle(bank: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from numberplace import formats

    out_file = tmp_path / "all.json"
    code, out, _ = run(["bank", "export", "--db", str(bank), "--to", "json", "--output",
                        str(out_file)], capsys)
    assert (code, out) == (0, "")
    exported = [formats.parse(line, format="json")
                for line in out_file.read_text().splitlines()]
    originals = []
    for example in ("classic.txt", "jigsaw.txt", "samurai.txt", "killer.txt"):
        originals += [rec.puzzle for rec in formats.read_file(
            ROOT / "examples" / example, shape="samurai" if "samurai" in example else None)]
    assert exported == originals
    # an export that fails leaves the file it would replace as it was
    code, _, err = run(["bank", "export", "--db", str(bank), "--to", "sdk", "--output",
                        str(out_file)], capsys)
    assert code == 2 and "cannot hold a jigsaw's regions" in err
    assert [formats.parse(line, format="json")
            for line in out_file.read_text().splitlines()] == exported


def test_stats_count_by_shape_and_level(bank: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bank", "stats", "--db", str(bank), "--json"], capsys)
    stats = json.loads(out)
    assert code == 0
    assert stats["puzzles"] == 6
    assert {name: s["puzzles"] for name, s in stats["shapes"].items()} == {
        "9x9": 3, "jigsaw-9x9": 1, "samurai": 1, "killer-9x9": 1}
    assert sum(stats["levels"].values()) == 6
    assert [i["added"] for i in stats["imports"]] == [3, 1, 1, 1]
    code, out, _ = run(["bank", "stats", "--db", str(bank)], capsys)
    assert out.startswith(f"6 puzzles in {bank} (")


def test_generate_fills_the_bank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bank.sqlite"
    code, out, _ = run(["generate", "--count", "3", "--level", "2", "--seed", "4", "--bank",
                        str(db), "--jobs", "1"], capsys)
    assert code == 0
    made = out.split()
    code, out, _ = run(["bank", "query", "--db", str(db), "--json"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["givens"] for r in records] == made
    assert {r["level"] for r in records} == {2}
    assert [r["tags"] for r in records] == [["seed 4"], ["seed 5"], ["seed 6"]]


@pytest.mark.parametrize("command", [["bank", "stats"], ["bank", "query"], ["bank", "export"],
                                     ["print", "--svg", "x.svg", "--from-bank"]])
def test_reading_a_bank_that_is_not_there_makes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "typo" / "bank.sqlite"
    args = [*command, str(db)] if command[-1] == "--from-bank" else [*command, "--db", str(db)]
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert err == f"numberplace: error: no bank at {db}\n"
    assert list(tmp_path.iterdir()) == []  # neither the file nor its folder


def test_a_family_name_matches_every_size_and_a_miss_names_what_the_bank_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bank.sqlite"
    for example in ("killer.txt", "jigsaw.txt", "classic.txt"):
        code, _, err = run(["bank", "add", str(ROOT / "examples" / example), "--db", str(db)],
                           capsys)
        assert code == 0, err
    for family, shape in (("killer", "killer-9x9"), ("jigsaw", "jigsaw-9x9")):
        code, out, _ = run(["bank", "query", "--db", str(db), "--shape", family], capsys)
        assert code == 0 and out.count("\n") == 1 and f"\t{shape}\t" in out
    code, out, err = run(["bank", "query", "--db", str(db), "--shape", "kakuro"], capsys)
    assert (code, out) == (1, "")
    assert err == (f"numberplace: no puzzle of the bank {db} matches; it holds 9x9 (3), "
                   f"jigsaw-9x9 (1), killer-9x9 (1)\n")
    code, _, err = run(["print", "--svg", str(tmp_path / "x.svg"), "--from-bank", str(db),
                        "--shape", "samurai"], capsys)
    assert code == 2 and "it holds 9x9 (3)" in err
