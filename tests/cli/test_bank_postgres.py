"""A bank shared in PostgreSQL: the same commands as on a SQLite file. The tests need a
database given by NUMBERPLACE_TEST_POSTGRES (a URL such as postgresql:///numberplace_test;
.ci/run starts one); without it they are skipped."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from numberplace.cli import main

from conftest import data_lines, shuffled_9x9

URL = os.environ.get("NUMBERPLACE_TEST_POSTGRES")
psycopg = pytest.importorskip("psycopg", reason="the bank-postgres extra is not installed")
pytestmark = [pytest.mark.skipif(not URL, reason="NUMBERPLACE_TEST_POSTGRES is not set"),
              pytest.mark.xdist_group("postgres")]  # one test database: one at a time

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def url() -> Iterator[str]:
    """The test database, emptied of any bank."""
    assert URL is not None
    with psycopg.connect(URL, autocommit=True) as con:
        con.execute("DROP TABLE IF EXISTS puzzles, imports, meta")
    yield URL


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def contents(url: str) -> list[tuple[object, ...]]:
    """Every stored puzzle, in the order added, every field but id and time added (an
    identity column may skip numbers a rolled back transaction took)."""
    with psycopg.connect(url) as con:
        return con.execute("SELECT key, shape, givens, solution, clues, record, source, tags "
                           "FROM puzzles ORDER BY id").fetchall()


def test_a_shared_bank_finds_duplicates_and_answers_queries(
        url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(3)
    lines = data_lines("kaggle_like_10k.txt", 40)
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines + [shuffled_9x9(line, rng) for line in lines]) + "\n")
    code, out, err = run(["bank", "add", str(f), "--db", url, "--json", "--jobs", "1",
                          "--tag", "shared"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["added"] == 40 and json.loads(out)["duplicates"] == 40
    code, out, _ = run(["bank", "add", str(ROOT / "examples" / "classic.txt"), "--db", url,
                        "--rate", "--jobs", "1"], capsys)
    assert code == 0
    code, out, _ = run(["bank", "query", "--db", url, "--level", "4", "--json"], capsys)
    assert [json.loads(row)["givens"] for row in out.splitlines()] == [
        (ROOT / "examples" / "classic.txt").read_text().splitlines()[3]]
    code, out, _ = run(["bank", "query", "--db", url, "--tag", "shared", "--limit", "0"],
                       capsys)
    assert len(out.splitlines()) == 40
    code, out, _ = run(["bank", "stats", "--db", url, "--json"], capsys)
    stats = json.loads(out)
    assert stats["puzzles"] == 43 and stats["bytes"] > 0


@pytest.mark.slow
def test_a_killed_import_into_postgres_goes_on(url: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(8)
    kaggle = data_lines("kaggle_like_10k.txt")
    f = tmp_path / "big.txt"
    f.write_text("".join(shuffled_9x9(kaggle[i % len(kaggle)], rng) + "\n" for i in range(40_000)))
    code, out, _ = run(["bank", "add", str(f), "--db", url, "--json", "--jobs", "1"], capsys)
    assert code == 0
    expected, whole = json.loads(out), contents(url)
    with psycopg.connect(url, autocommit=True) as con:
        con.execute("DROP TABLE puzzles, imports, meta")
    process = subprocess.Popen([sys.executable, "-m", "numberplace", "bank", "add", str(f),
                                "--db", url, "--jobs", "1"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    done = 0
    while done < 8_000 and time.monotonic() < deadline:
        time.sleep(0.05)
        try:
            with psycopg.connect(url) as con:
                row = con.execute("SELECT max(lines) FROM imports").fetchone()
                done = row[0] or 0 if row else 0
        except psycopg.Error:
            pass
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    code, out, err = run(["bank", "add", str(f), "--db", url, "--json", "--jobs", "1"],
                         capsys)
    assert code == 0 and "going on with the import" in err
    report = json.loads(out)
    for field in ("lines", "added", "duplicates", "rejected"):
        assert report[field] == expected[field], field
    assert contents(url) == whole


def test_a_wrong_url_is_one_line_without_the_password(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bank", "stats", "--db",
                          "postgresql://someone:secret@127.0.0.1:9/none"], capsys)
    assert code == 2
    assert err.startswith("numberplace: error: cannot open the bank "
                          "postgresql://someone@127.0.0.1:9/none: ")
    assert "secret" not in err and len(err.strip().splitlines()) == 1
