"""Work on a Dask cluster: the same output as on one machine, in input order, and no record
lost when a worker dies in the middle of a run."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from numberplace.cli import main

from conftest import data_lines

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[tuple[str, object]]:
    """A local cluster of two worker processes: its address, and a client to it."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    try:
        yield cluster.scheduler_address, client
    finally:
        client.close()
        cluster.close()


def output(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_solve_on_the_cluster_writes_what_one_machine_writes(
        scheduler: tuple[str, object], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    address, _ = scheduler
    f = tmp_path / "p.txt"
    lines = data_lines("magictour_top1465.txt") + data_lines("17_clue.txt", 5000)
    f.write_text("\n".join(lines) + "\n")
    alone = output(["solve", str(f), "--jobs", "1"], capsys)
    assert output(["solve", str(f), "--scheduler", address], capsys) == alone
    assert len(alone.splitlines()) == len(lines)


def test_generate_and_rate_on_the_cluster(scheduler: tuple[str, object], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    address, _ = scheduler
    made = ["generate", "--count", "6", "--level", "2", "--seed", "9"]
    alone = output([*made, "--jobs", "1"], capsys)
    assert output([*made, "--scheduler", address], capsys) == alone
    f = tmp_path / "made.txt"
    f.write_text(alone)
    rated = output(["rate", str(f), "--jobs", "1"], capsys)
    assert output(["rate", str(f), "--scheduler", address], capsys) == rated


@pytest.mark.slow
def test_explain_and_bank_add_on_the_cluster(scheduler: tuple[str, object], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    address, _ = scheduler
    f = tmp_path / "p.txt"
    f.write_text("\n".join(data_lines("top95.txt", 12) + data_lines("17_clue.txt", 3000))
                 + "\n")
    explained = ["explain", str(ROOT / "examples" / "classic.txt")]
    assert output([*explained, "--scheduler", address], capsys) == output(
        [*explained, "--jobs", "1"], capsys)
    banks = []
    for name, where in (("alone", ["--jobs", "1"]), ("cluster", ["--scheduler", address])):
        db = tmp_path / f"{name}.sqlite"
        report = output(["bank", "add", str(f), "--db", str(db), "--json", *where], capsys)
        assert '"added": 3012' in report
        with sqlite3.connect(db) as con:
            banks.append(con.execute("SELECT id, key, givens, solution FROM puzzles "
                                     "ORDER BY id").fetchall())
    assert banks[0] == banks[1]


@pytest.mark.slow
def test_a_worker_killed_in_the_middle_loses_no_record(
        scheduler: tuple[str, object], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    address, client = scheduler
    f = tmp_path / "p.txt"
    hardest = data_lines("forum_hardest_1905_11plus.txt")
    f.write_text("\n".join(hardest * 4) + "\n")  # some seconds of work for two workers
    alone = output(["solve", str(f), "--jobs", "2"], capsys)
    pids = client.run(os.getpid)  # type: ignore[attr-defined]
    process = subprocess.Popen(
        [sys.executable, "-m", "numberplace", "solve", str(f), "--scheduler", address,
         "--no-progress"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    # wait until the workers are busy with this run, then kill one of them
    deadline = time.monotonic() + 60
    while not client.processing() or not any(client.processing().values()):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)
    assert process.poll() is None, "the run ended before a worker could be killed"
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert out == alone  # every record, in order, as on one machine
    # the cluster noticed: the killed worker was replaced by a new process
    deadline = time.monotonic() + 30
    now = pids
    while time.monotonic() < deadline:
        now = client.run(os.getpid)  # type: ignore[attr-defined]
        if len(now) == 2 and victim not in now.values():
            break
        time.sleep(0.2)
    assert victim not in now.values()


def test_an_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from numberplace.cli import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)
    status = main(["solve", str(ROOT / "examples" / "classic.txt"), "--scheduler",
                   "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("numberplace: error: cannot reach the Dask scheduler at "
                          "tcp://127.0.0.1:9")
    assert len(err.strip().splitlines()) == 1
