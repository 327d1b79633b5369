"""The pipeline: results in input order from any executor, and one summary."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from numberplace.cli import main
from numberplace.cli.pipeline import ordered_map, summary, thread_pool

from conftest import BOOK_PUZZLES


def slow_square(n: int) -> int:
    time.sleep(0.001 * (n % 3))  # later items often finish first
    return n * n


def test_results_come_in_input_order_from_an_injected_executor() -> None:
    made: list[Executor] = []

    def threads() -> Executor:
        made.append(ThreadPoolExecutor(3))
        return made[-1]

    assert list(ordered_map(slow_square, range(50), 3, threads)) == [n * n for n in range(50)]
    assert len(made) == 1
    # one job, or one item, runs here without an executor
    assert list(ordered_map(slow_square, range(5), 1, threads)) == [0, 1, 4, 9, 16]
    assert list(ordered_map(slow_square, [7], 4, threads)) == [49]
    assert len(made) == 1


def test_the_thread_pool_keeps_order_and_errors() -> None:
    assert list(ordered_map(slow_square, range(60), 2, lambda: thread_pool(2))) == [
        n * n for n in range(60)]
    with pytest.raises(ValueError, match="invalid literal"):
        list(ordered_map(int, ["1", "2", "x", "4"], 2, lambda: thread_pool(2)))


def test_waits_on_the_executor_are_held_against_ctrl_c() -> None:
    # Ctrl-C raised inside a wait on a future's lock can leave the lock released twice,
    # and a RuntimeError comes out in place of the interruption: so every wait that can
    # block runs inside the block Ctrl-C is held out of, in spells short enough that an
    # interruption still ends the command at once
    holding = False
    waits: list[tuple[bool, float | None]] = []

    class Watched:
        """A future that notes each wait on it."""

        def __init__(self, future: Future[object]) -> None:
            self._future = future

        def done(self) -> bool:
            return self._future.done()

        def cancelled(self) -> bool:
            return self._future.cancelled()

        def cancel(self) -> bool:
            return self._future.cancel()

        def exception(self, timeout: float | None = None) -> BaseException | None:
            waits.append((holding, timeout))
            return self._future.exception(timeout)

        def result(self) -> object:
            if not self.done():
                waits.append((holding, None))
            return self._future.result()

    class WatchedPool(ThreadPoolExecutor):
        def submit(self, fn: Callable[..., object], /, *args: object,  # type: ignore[override]
                   **kwargs: object) -> Watched:
            return Watched(super().submit(fn, *args, **kwargs))

    @contextmanager
    def held() -> Iterator[None]:
        nonlocal holding
        holding = True
        try:
            yield
        finally:
            holding = False

    def slow(n: int) -> int:
        time.sleep(0.03 * (n % 4))
        return n * n

    results = ordered_map(slow, range(8), 2, lambda: WatchedPool(2))
    made = []
    while results.wait(held):
        made.append(results.take())
    assert made == [n * n for n in range(8)]
    assert waits and all(inside for inside, _ in waits)
    assert all(timeout is not None and timeout <= 0.05 for _, timeout in waits)


#: (command, copies of the book's puzzles: solve hands out 2,000 lines at a time)
@pytest.mark.parametrize(("command", "copies"), [
    (["solve"], 1500), (["explain"], 10), (["rate"], 10), (["hint"], 10)])
def test_a_command_runs_in_the_executor_it_is_given(
        command: list[str], copies: int, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(list(BOOK_PUZZLES) * copies) + "\n")
    assert main([*command, str(path), "--jobs", "1"]) == 0
    alone = capsys.readouterr().out
    used: list[int] = []

    def threads() -> Executor:
        used.append(1)
        return ThreadPoolExecutor(2)

    assert main([*command, str(path), "--jobs", "2"], executor=threads) == 0
    assert capsys.readouterr().out == alone and used == [1]


def test_the_summary_names_the_usual_statuses_first() -> None:
    statuses = Counter({"unique": 3, "limit": 1, "unreadable": 2})
    assert summary(statuses, 2.0, ("unique", "multiple")) == \
        "6 puzzles: 3 unique, 0 multiple, 1 limit, 2 unreadable; 2.00 s, 3 puzzles/s"
    assert summary(Counter(), 0.0) == "0 puzzles: none; 0.00 s, 0 puzzles/s"


#: Ctrl-C while a worker is sending its result: the first piece writes the head of a long
#: message to the results pipe and waits, so the rest never comes once it is ended.
_HALF_SENT = """
import gc, os, signal, struct, sys, threading, time
from multiprocessing.queues import SimpleQueue
from numberplace.cli.pipeline import ordered_map

def work(item):
    if item == 0:
        pipe = next(o for o in gc.get_objects() if isinstance(o, SimpleQueue))
        os.write(pipe._writer.fileno(), struct.pack("!i", 1_000_000) + b"half")
        open(sys.argv[1], "w").close()
    time.sleep(60)

def interrupt_once_sent():
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=interrupt_once_sent, daemon=True).start()
results = ordered_map(work, iter(range(4)), 2)
try:
    results.wait()
except KeyboardInterrupt:
    pass
start = time.monotonic()
results.close()
print(f"{time.monotonic() - start:.2f}")
"""


def test_workers_ended_while_one_sends_its_result_do_not_hang_the_close(
        tmp_path: Path) -> None:
    script = tmp_path / "half_sent.py"
    script.write_text(_HALF_SENT)
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "sent")],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) < 5
    assert "Traceback" not in done.stderr
